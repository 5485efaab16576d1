//! Game results: `td result` and `td correct` (scores, with tsh's checks), `td bye-score`,
//! `td forfeit`, `td double-forfeit`, `td left`, `td clear-result`, and `td missing` (the games
//! of a round still without a result).

use super::common::{append, game_line, At};
use anyhow::{bail, Context, Result};
use clap::Args;
use tilebag_events::EventFile;
use tilebag_tournament::tables::result_text;
use tilebag_tournament::{Action, Pairing, PlayerId, ResultEntry};

// The arguments of `td result`.
#[derive(Args)]
pub struct ResultArgs {
    #[command(flatten)]
    at: At,
    round: u32,
    player: PlayerId,
    score: i32,
    opponent_score: i32,
    #[arg(long, default_value = "")]
    note: String,
    /// The scores are unusual but right (under 100, over 800, or a spread over 500).
    #[arg(long)]
    yes: bool,
}

// The arguments of `td correct`.
#[derive(Args)]
pub struct CorrectArgs {
    #[command(flatten)]
    at: At,
    round: u32,
    player: PlayerId,
    score: i32,
    opponent_score: i32,
    /// Why (kept with the correction).
    #[arg(long, default_value = "")]
    note: String,
    #[arg(long)]
    yes: bool,
}

// The arguments of `td bye-score`.
#[derive(Args)]
pub struct ByeScoreArgs {
    #[command(flatten)]
    at: At,
    round: u32,
    player: PlayerId,
    spread: i32,
}

// The arguments of `td missing`.
#[derive(Args)]
pub struct MissingArgs {
    #[command(flatten)]
    at: At,
    round: u32,
}

// The arguments of `td forfeit` and `td double-forfeit`.
#[derive(Args)]
pub struct ForfeitArgs {
    #[command(flatten)]
    at: At,
    round: u32,
    player: PlayerId,
    #[arg(long)]
    spread: Option<i32>,
    #[arg(long, default_value = "")]
    note: String,
}

// The arguments of `td left`.
#[derive(Args)]
pub struct LeftArgs {
    #[command(flatten)]
    at: At,
    round: u32,
    player: PlayerId,
    score: i32,
    opponent_score: i32,
    #[arg(long, default_value = "")]
    note: String,
}

// The arguments of `td clear-result`.
#[derive(Args)]
pub struct ClearResultArgs {
    #[command(flatten)]
    at: At,
    round: u32,
    player: PlayerId,
    #[arg(long, default_value = "")]
    note: String,
}

pub fn result(a: ResultArgs) -> Result<()> {
    let scores = (a.score, a.opponent_score);
    enter_scores(&a.at, a.round, a.player, scores, a.note, a.yes, false)
}

pub fn correct(a: CorrectArgs) -> Result<()> {
    let scores = (a.score, a.opponent_score);
    enter_scores(&a.at, a.round, a.player, scores, a.note, a.yes, true)
}

pub fn bye_score(a: ByeScoreArgs) -> Result<()> {
    let bye = ResultEntry::Bye { spread: a.spread };
    set_result(&a.at, a.round, a.player, bye, String::new())
}

pub fn forfeit(a: ForfeitArgs) -> Result<()> {
    let forfeit = ResultEntry::Forfeit { spread: a.spread };
    set_result(&a.at, a.round, a.player, forfeit, a.note)
}

pub fn double_forfeit(a: ForfeitArgs) -> Result<()> {
    let forfeits = ResultEntry::DoubleForfeit { spread: a.spread };
    set_result(&a.at, a.round, a.player, forfeits, a.note)
}

pub fn left(a: LeftArgs) -> Result<()> {
    let left = ResultEntry::LeftInProgress {
        score: a.score,
        opponent_score: a.opponent_score,
    };
    set_result(&a.at, a.round, a.player, left, a.note)
}

pub fn clear_result(a: ClearResultArgs) -> Result<()> {
    set_result(&a.at, a.round, a.player, ResultEntry::Clear, a.note)
}

pub fn missing(args: MissingArgs) -> Result<()> {
    let MissingArgs { at, round } = args;
    let t = EventFile::open_read(&at.event)?.load()?;
    let d = t.division(&at.division)?;
    d.round(round)
        .with_context(|| format!("round {round} is not paired"))?;
    let lines: Vec<String> = tilebag_tournament::checks::missing(d, round)
        .into_iter()
        .map(|m| m.text)
        .collect();
    if lines.is_empty() {
        println!("round {round}: no games missing");
    } else {
        let n = lines.len();
        println!(
            "round {round}: {n} game{} missing",
            if n == 1 { "" } else { "s" }
        );
        for l in lines {
            println!("  {l}");
        }
    }
    Ok(())
}

/// `td result` (a new result) and `td correct` (over an existing one), with tsh's checks: a new
/// result over an existing one is refused with the correction command to use, and unusual scores
/// (under 100, over 800, a spread over 500) need `--yes`.
fn enter_scores(
    at: &At,
    round: u32,
    player: PlayerId,
    (score, opponent_score): (i32, i32),
    note: String,
    yes: bool,
    correct: bool,
) -> Result<()> {
    let t = EventFile::open_read(&at.event)?.load()?;
    let d = t.division(&at.division)?;
    if let Some(Pairing::Game(g)) = d.player_round(round, player).map(|pr| pr.pairing) {
        let event = at.event.display();
        let div = &at.division;
        match (&g.result, correct) {
            (Some(res), false) => bail!(
                "round {round}: {} v {} already has a result ({}); to change it, run `tilebag td correct {event} {div} {round} {player} {score} {opponent_score} --note WHY`",
                d.who(g.first),
                d.who(g.second),
                result_text(d, Some(res), false)
            ),
            (None, true) => bail!(
                "round {round}: {} v {} has no result to correct; enter it with `tilebag td result {event} {div} {round} {player} {score} {opponent_score}`",
                d.who(g.first),
                d.who(g.second)
            ),
            _ => {}
        }
    }
    if !yes {
        let odd = tilebag_tournament::checks::unusual_scores(score, opponent_score);
        if !odd.is_empty() {
            bail!(
                "round {round}: {}; check the scores and repeat the command with --yes if they are right",
                odd.join(", ")
            );
        }
    }
    set_result(
        at,
        round,
        player,
        ResultEntry::Scores {
            score,
            opponent_score,
        },
        note,
    )
}

/// Appends one result (the game's line is printed).
fn set_result(
    at: &At,
    round: u32,
    player: PlayerId,
    result: ResultEntry,
    note: String,
) -> Result<()> {
    let t = append(
        &at.event,
        Action::SetResult {
            division: at.division.clone(),
            round,
            player,
            result: result.clone(),
            note: note.clone(),
        },
    )?;
    println!("{}", game_line(t.division(&at.division)?, round, player));
    Ok(())
}
