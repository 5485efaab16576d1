//! `tilebag td`: tournament direction from the command line, over `tilebag-tournament`.
//!
//! An event is one SQLite file (`tournament.db` by convention) holding the append-only action
//! log: `actions(seq INTEGER PRIMARY KEY, at TEXT, action TEXT)`, the action as JSON. Every
//! command loads the log and replays it ([`Tournament::replay`]); a command that changes the
//! event builds its action(s), checks them with [`Tournament::apply`] and appends them in the same
//! transaction. A refused action is reported (naming the division, round and player) with exit
//! status 2, and nothing is written. `td undo` deletes the last action; `td log` prints the log
//! as JSON lines, which `td replay` turns back into an event.

use anyhow::{anyhow, bail, Context, Result};
use clap::{Args, Subcommand, ValueEnum};
use std::fmt::Write as _;
use std::io::Read as _;
use std::path::PathBuf;
use std::process::ExitCode;
use tilebag_events::{fresh_seed, EventFile};
use tilebag_tournament::tables::{
    firsts_table, pairings_table, players_table, ratings_table, result_text, standings_table,
};
use tilebag_tournament::{
    prizes, report, tou, tsh, Action, AdjustmentReason, Division, Method, Pairing, PlayerId,
    ResultEntry, Setting, Tournament,
};

/// The event file and the division, shared by most commands.
#[derive(Args, Clone)]
pub struct At {
    /// The event's SQLite file (e.g. `tournament.db`).
    event: PathBuf,
    /// The division's name.
    division: String,
}

#[derive(Subcommand)]
pub enum TdCommand {
    /// Create an event file.
    New {
        /// The SQLite file to create (e.g. `tournament.db`).
        event: PathBuf,
        /// The event's name.
        #[arg(long)]
        name: String,
        /// The first day, YYYY-MM-DD (needed for `.TOU` export).
        #[arg(long)]
        date: Option<String>,
    },
    /// Add or configure a division.
    Division {
        #[command(subcommand)]
        command: DivisionCommand,
    },
    /// Add, edit, withdraw or reinstate a player.
    Player {
        #[command(subcommand)]
        command: PlayerCommand,
    },
    /// Pair a round by its schedule (or --method), and post it unless --dry-run.
    Pair {
        #[command(flatten)]
        at: At,
        round: u32,
        /// A method code (IF, SW, KOTH, RR, AD, RAND, …) instead of the schedule's.
        #[arg(long)]
        method: Option<String>,
        /// The round whose standings to pair on (default: the schedule's).
        #[arg(long)]
        based_on: Option<u32>,
        /// Print the pairings without posting them.
        #[arg(long)]
        dry_run: bool,
    },
    /// Pair two players (or give a bye) by hand; their earlier entries in the round are removed.
    PairManual {
        #[command(flatten)]
        at: At,
        round: u32,
        player: PlayerId,
        /// The opponent's number, or `bye`.
        opponent: String,
    },
    /// Remove the last round's pairings (before any result is in).
    Unpair {
        #[command(flatten)]
        at: At,
        round: u32,
    },
    /// Swap who goes first in a player's game.
    Swap {
        #[command(flatten)]
        at: At,
        round: u32,
        player: PlayerId,
    },
    /// Enter a game's final scores, from PLAYER's side (tsh Addscore). Refused when the game
    /// already has a result (use `correct`); a score under 100 or over 800, or a spread over 500,
    /// needs --yes.
    #[command(allow_negative_numbers = true)]
    Result {
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
    },
    /// Correct a game's result that is already in (tsh EditScore); the old one is kept in the
    /// game's corrections.
    #[command(allow_negative_numbers = true)]
    Correct {
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
    },
    /// Enter or change the spread of PLAYER's bye (a positive spread is a win, a negative one a
    /// forfeit loss, 0 neither), e.g. a bye imported from a `.t` file without a score.
    #[command(allow_negative_numbers = true)]
    ByeScore {
        #[command(flatten)]
        at: At,
        round: u32,
        player: PlayerId,
        spread: i32,
    },
    /// List the games of a round whose results are not in yet.
    Missing {
        #[command(flatten)]
        at: At,
        round: u32,
    },
    /// PLAYER forfeits (no-show, lateness): by the division's forfeit spread unless --spread.
    Forfeit {
        #[command(flatten)]
        at: At,
        round: u32,
        player: PlayerId,
        #[arg(long)]
        spread: Option<i32>,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// Neither player of PLAYER's game played: a loss for both.
    DoubleForfeit {
        #[command(flatten)]
        at: At,
        round: u32,
        player: PlayerId,
        #[arg(long)]
        spread: Option<i32>,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// PLAYER left the game in progress with these scores on the board (NASPA V.K.2).
    #[command(allow_negative_numbers = true)]
    Left {
        #[command(flatten)]
        at: At,
        round: u32,
        player: PlayerId,
        score: i32,
        opponent_score: i32,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// Remove the result of PLAYER's game.
    ClearResult {
        #[command(flatten)]
        at: At,
        round: u32,
        player: PlayerId,
        #[arg(long, default_value = "")]
        note: String,
    },
    /// Tally slips: one player submits, the other confirms (NASPA V.J, WESPA 5.4).
    Slip {
        #[command(subcommand)]
        command: SlipCommand,
    },
    /// A spread penalty or compensation (NASPA IV.B.5, IV.K.5).
    #[command(allow_negative_numbers = true)]
    Adjust {
        #[command(flatten)]
        at: At,
        round: u32,
        player: PlayerId,
        /// drawing-out-of-order | erroneous-adjudication | other
        reason: String,
        /// The amount (default: the rule's: −50, or the play's score + 25).
        #[arg(long)]
        amount: Option<i32>,
        /// For erroneous-adjudication: the score of the lost play.
        #[arg(long)]
        play_score: Option<i32>,
        /// For other: what it is for.
        #[arg(long, default_value = "")]
        note: String,
    },
    /// Print pairings, standings, firsts, ratings, players, prizes, alpha (pairings by player),
    /// high-wins, high-losses, upsets, rating-by-round, performance, wallchart or roster (plain
    /// text unless --csv/--html).
    Show {
        #[command(flatten)]
        at: At,
        view: View,
        /// The round (pairings) or the round standings are after (default: the last paired).
        #[arg(long)]
        round: Option<u32>,
        #[arg(long, conflicts_with = "html")]
        csv: bool,
        #[arg(long)]
        html: bool,
    },
    /// Write a file: tsh `.t` (--tsh) or `.tsh` archive (--archive), AUPAIR `.TOU` (--tou), or a
    /// CSV/HTML report of WHAT.
    Export {
        /// The event's SQLite file.
        event: PathBuf,
        /// The division (not needed with --archive).
        division: Option<String>,
        /// pairings | standings | firsts | ratings | players | scorecards | slips (--csv/--html).
        what: Option<View>,
        /// The division as a tsh `.t` file.
        #[arg(long, group = "format")]
        tsh: bool,
        /// The whole event as a `.tsh` archive (every division).
        #[arg(long, group = "format")]
        archive: bool,
        /// The division as an AUPAIR `.TOU` file (CRLF lines) for WESPA ratings.
        #[arg(long, group = "format")]
        tou: bool,
        /// WHAT as CSV.
        #[arg(long, group = "format")]
        csv: bool,
        /// WHAT as a printable HTML page.
        #[arg(long, group = "format")]
        html: bool,
        /// The round (pairings, slips) or the round standings are after (default: the last paired).
        #[arg(long)]
        round: Option<u32>,
        /// Output file (default: standard output).
        #[arg(short, long)]
        output: Option<PathBuf>,
    },
    /// Write the rating-submission files for a finished division into DIR: NASPA's tsh `.t` file
    /// (what tsh's SUBMIT uploads) and/or WESPA's AUPAIR `.TOU` file. Refused, writing nothing,
    /// while any paired game has no result.
    Submit {
        /// The event's SQLite file.
        event: PathBuf,
        division: String,
        /// The directory to write into (created if needed).
        #[arg(long)]
        dir: PathBuf,
        /// naspa | wespa | both (default: by the division's ratings setting; both when none).
        #[arg(long)]
        to: Option<String>,
    },
    /// Import a tsh `.t` file (or a `.tsh` archive) as a division; creates the event if needed.
    Import {
        event: PathBuf,
        file: PathBuf,
        /// The division's name (default: the file's stem; an archive names its own).
        #[arg(long)]
        division: Option<String>,
        /// The ruleset preset.
        #[arg(long)]
        rules: String,
        /// The schedule, e.g. `IF:3 SW:6 KOTH:1`.
        #[arg(long)]
        schedule: String,
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// The event's name, when the import creates it (default: the file's stem).
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        date: Option<String>,
    },
    /// Delete the last action of the log.
    Undo { event: PathBuf },
    /// Print each player's own link (their game; tally slips they submit and confirm), making
    /// their secret keys on first use. The event must be in the server's events folder; its id is
    /// the file name without `.tbev`.
    Links {
        #[command(flatten)]
        at: At,
        /// The server's address as players reach it.
        #[arg(long, default_value = "http://127.0.0.1:8080")]
        url: String,
    },
    /// Print the action log as JSON lines: {"seq":…,"at":…,"action":{…}}.
    Log { event: PathBuf },
    /// Build a new event from a log printed by `td log` (a file, or `-` for standard input).
    Replay { event: PathBuf, log: PathBuf },
    /// Print the whole replayed state as JSON.
    State { event: PathBuf },
}

#[derive(Subcommand)]
pub enum DivisionCommand {
    /// Add a division under a ruleset preset with a schedule such as `IF:3 SW:9 KOTH:1`.
    Add {
        event: PathBuf,
        name: String,
        /// The ruleset preset (naspa-2013, wespa-2010, sanspa-1999, literacy-2018, …).
        #[arg(long)]
        rules: String,
        #[arg(long)]
        schedule: String,
        /// Seed of every random choice (default: drawn now, and recorded in the log).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Change one setting: schedule S | bye-spread N | forfeit-spread N | resignation-margin N |
    /// spread-cap N|none | tie-breaks wins,losses,spread,rating,points-for |
    /// gibson SPREAD:PLACES|off | firsts naspa|wespa|draw[,byes=alternate|ignore][,forfeits=alternate|neither] |
    /// withdrawn forfeit|void | fontes random|snaked | ratings naspa|naspa-club|wespa|none |
    /// format individual|literacy-2018 | winner-submits yes|no | max-repeats N|none |
    /// prize-bands N|none (places paid: the contenders for the CP and COP schedule tokens, the
    /// places in the prize table) | class-prizes none|class|rating:T1,T2,… |
    /// flight-cap tsh|nsc|nsc2008|none (how many contenders Chew pairings fly together) |
    /// rules KEY=VALUE[,KEY=VALUE]|none (the organiser's choices the book leaves open: end-rack
    /// double|add-and-subtract (WESPA 5.1.4), challenge single|double|per-word:N|per-turn:N
    /// (WESPA 3.10.15(b), NASPA VI.B.3), resignation-option on|off (NASPA I.B))
    Set {
        #[command(flatten)]
        at: At,
        key: String,
        #[arg(allow_hyphen_values = true)]
        value: String,
    },
}

#[derive(Subcommand)]
pub enum PlayerCommand {
    /// Add a player ("Surname, Given") with a rating; prints the player's number.
    Add {
        #[command(flatten)]
        at: At,
        name: String,
        rating: i32,
        /// Member id.
        #[arg(long)]
        id: Option<String>,
        /// Career rated games before the event.
        #[arg(long)]
        games: Option<u32>,
    },
    /// Change a player's name, rating or member id.
    Edit {
        #[command(flatten)]
        at: At,
        player: PlayerId,
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        rating: Option<i32>,
        #[arg(long)]
        id: Option<String>,
    },
    /// The player misses every round from --from on.
    Withdraw {
        #[command(flatten)]
        at: At,
        player: PlayerId,
        #[arg(long)]
        from: u32,
    },
    /// The player may be paired again.
    Reinstate {
        #[command(flatten)]
        at: At,
        player: PlayerId,
    },
    /// WESPA 6.2.4(a): eject the player (cheating, abuse) from round --from on. Their earlier
    /// games become void in a round robin, otherwise 150-point wins for their opponents (unless
    /// an opponent did better); they rank last and leave the pairings.
    Eject {
        #[command(flatten)]
        at: At,
        player: PlayerId,
        #[arg(long)]
        from: u32,
    },
}

#[derive(Subcommand)]
pub enum SlipCommand {
    /// PLAYER submits a tally slip (scores from PLAYER's side).
    #[command(allow_negative_numbers = true)]
    Submit {
        #[command(flatten)]
        at: At,
        round: u32,
        player: PlayerId,
        score: i32,
        opponent_score: i32,
    },
    /// PLAYER (the opponent of the submitter) confirms it; the result is then final.
    Confirm {
        #[command(flatten)]
        at: At,
        round: u32,
        player: PlayerId,
    },
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum View {
    Pairings,
    Standings,
    Firsts,
    Ratings,
    Players,
    Scorecards,
    Slips,
    /// The prize table: places (`prize-bands`), class prizes (`class-prizes`), high game, high
    /// loss, biggest upset.
    Prizes,
    /// The round's pairings by player name (one line a player).
    Alpha,
    /// The 20 highest winning scores.
    HighWins,
    /// The 20 highest losing scores.
    HighLosses,
    /// The 20 biggest upsets by pre-event rating.
    Upsets,
    /// Each player's rating estimate after every round.
    RatingByRound,
    /// tsh's wall chart: a row a player, a column a round (seat, opponent, result, spread).
    Wallchart,
    /// tsh's roster: the players by number, with rating and class.
    Roster,
    /// Each player's performance rating after every round (what rating their results so far
    /// would produce).
    Performance,
}

pub fn run(command: TdCommand) -> Result<ExitCode> {
    match command {
        TdCommand::New { event, name, date } => {
            if let Some(d) = &date {
                check_date(d)?;
            }
            let mut store = EventFile::create(&event)?;
            store.append(|_| {
                Ok(vec![Action::CreateTournament {
                    name: name.clone(),
                    date: date.clone(),
                }])
            })?;
            println!("created {name:?} in {}", event.display());
        }
        TdCommand::Division { command } => match command {
            DivisionCommand::Add {
                event,
                name,
                rules,
                schedule,
                seed,
            } => {
                let seed = seed.unwrap_or_else(fresh_seed);
                let mut store = EventFile::open(&event)?;
                let t = store.append(|_| {
                    Ok(vec![Action::AddDivision {
                        division: name.clone(),
                        preset: rules.clone(),
                        schedule: schedule.clone(),
                        seed,
                    }])
                })?;
                let d = t.division(&name)?;
                println!(
                    "division {} ({}), schedule {}, seed {seed}",
                    d.name, d.preset, d.schedule.text
                );
            }
            DivisionCommand::Set { at, key, value } => {
                let mut store = EventFile::open(&at.event)?;
                store.append(|t| {
                    let d = t.division(&at.division)?;
                    Ok(vec![Action::Configure {
                        division: at.division.clone(),
                        setting: Setting::parse(d, &key, &value).map_err(|e| anyhow!(e))?,
                    }])
                })?;
                println!("division {}: {key} = {value}", at.division);
            }
        },
        TdCommand::Player { command } => player(command)?,
        TdCommand::Pair {
            at,
            round,
            method,
            based_on,
            dry_run,
        } => {
            let method = method
                .map(|m| Method::from_code(&m).ok_or_else(|| anyhow!("unknown pairing method {m:?}; codes: RR KOTH SW IF AD RAND LIT3 PO FIN MAN")))
                .transpose()?;
            let mut store = EventFile::open(&at.event)?;
            let mut notes = Vec::new();
            let build = |t: &Tournament, notes: &mut Vec<String>| -> Result<Vec<Action>> {
                let (a, n) = t.pair(&at.division, round, method, based_on)?;
                *notes = n;
                Ok(vec![a])
            };
            let t = if dry_run {
                let mut t = store.load()?;
                let actions = build(&t, &mut notes).map_err(|e| anyhow!("refused: {e:#}"))?;
                for a in actions {
                    t.apply(&a).map_err(|e| anyhow!("refused: {e}"))?;
                }
                t
            } else {
                store.append(|t| build(t, &mut notes))?
            };
            let d = t.division(&at.division)?;
            let r = d.round(round).expect("just paired");
            println!(
                "Division {} round {} ({}, based on round {}){}",
                d.name,
                round,
                r.method,
                r.based_on,
                if dry_run {
                    " — dry run, not posted"
                } else {
                    ""
                }
            );
            print!("{}", pairings_table(d, round).text());
            for n in notes {
                println!("note: {n}");
            }
        }
        TdCommand::PairManual {
            at,
            round,
            player,
            opponent,
        } => {
            let opp = if opponent.eq_ignore_ascii_case("bye") {
                None
            } else {
                Some(opponent.parse::<PlayerId>().map_err(|_| {
                    anyhow!("the opponent must be a player number or `bye`, not {opponent:?}")
                })?)
            };
            let mut store = EventFile::open(&at.event)?;
            let t =
                store.append(|t| Ok(vec![t.manual_pair(&at.division, round, player, opp)?]))?;
            let d = t.division(&at.division)?;
            print!("{}", pairings_table(d, round).text());
        }
        TdCommand::Unpair { at, round } => {
            EventFile::open(&at.event)?.append(|_| {
                Ok(vec![Action::Unpair {
                    division: at.division.clone(),
                    round,
                }])
            })?;
            println!("division {}: round {round} unpaired", at.division);
        }
        TdCommand::Swap { at, round, player } => {
            let t = EventFile::open(&at.event)?.append(|_| {
                Ok(vec![Action::SwapSeats {
                    division: at.division.clone(),
                    round,
                    player,
                }])
            })?;
            print!(
                "{}",
                pairings_table(t.division(&at.division)?, round).text()
            );
        }
        TdCommand::Result {
            at,
            round,
            player,
            score,
            opponent_score,
            note,
            yes,
        } => enter_scores(
            &at,
            round,
            player,
            (score, opponent_score),
            note,
            yes,
            false,
        )?,
        TdCommand::Correct {
            at,
            round,
            player,
            score,
            opponent_score,
            note,
            yes,
        } => enter_scores(&at, round, player, (score, opponent_score), note, yes, true)?,
        TdCommand::ByeScore {
            at,
            round,
            player,
            spread,
        } => set_result(
            &at,
            round,
            player,
            ResultEntry::Bye { spread },
            String::new(),
        )?,
        TdCommand::Missing { at, round } => {
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
        }
        TdCommand::Forfeit {
            at,
            round,
            player,
            spread,
            note,
        } => set_result(&at, round, player, ResultEntry::Forfeit { spread }, note)?,
        TdCommand::DoubleForfeit {
            at,
            round,
            player,
            spread,
            note,
        } => set_result(
            &at,
            round,
            player,
            ResultEntry::DoubleForfeit { spread },
            note,
        )?,
        TdCommand::Left {
            at,
            round,
            player,
            score,
            opponent_score,
            note,
        } => set_result(
            &at,
            round,
            player,
            ResultEntry::LeftInProgress {
                score,
                opponent_score,
            },
            note,
        )?,
        TdCommand::ClearResult {
            at,
            round,
            player,
            note,
        } => set_result(&at, round, player, ResultEntry::Clear, note)?,
        TdCommand::Slip { command } => match command {
            SlipCommand::Submit {
                at,
                round,
                player,
                score,
                opponent_score,
            } => {
                let t = EventFile::open(&at.event)?.append(|_| {
                    Ok(vec![Action::SubmitSlip {
                        division: at.division.clone(),
                        round,
                        player,
                        score,
                        opponent_score,
                    }])
                })?;
                let d = t.division(&at.division)?;
                println!(
                    "round {round}: slip from {} ({score}–{opponent_score}) awaits the opponent's confirmation",
                    d.who(player)
                );
            }
            SlipCommand::Confirm { at, round, player } => {
                let t = EventFile::open(&at.event)?.append(|_| {
                    Ok(vec![Action::ConfirmSlip {
                        division: at.division.clone(),
                        round,
                        player,
                    }])
                })?;
                println!("{}", game_line(t.division(&at.division)?, round, player));
            }
        },
        TdCommand::Adjust {
            at,
            round,
            player,
            reason,
            amount,
            play_score,
            note,
        } => {
            let reason = match reason.as_str() {
                "drawing-out-of-order" => AdjustmentReason::DrawingOutOfOrder,
                "erroneous-adjudication" => AdjustmentReason::ErroneousAdjudication {
                    play_score: play_score
                        .context("erroneous-adjudication needs --play-score (NASPA IV.K.5)")?,
                },
                "other" => {
                    if amount.is_none() {
                        bail!("an `other` adjustment needs --amount");
                    }
                    AdjustmentReason::Other { note: note.clone() }
                }
                r => bail!(
                    "unknown reason {r:?}: drawing-out-of-order, erroneous-adjudication or other"
                ),
            };
            let t = EventFile::open(&at.event)?.append(|_| {
                Ok(vec![Action::AdjustSpread {
                    division: at.division.clone(),
                    player,
                    round,
                    reason: reason.clone(),
                    amount,
                }])
            })?;
            let d = t.division(&at.division)?;
            let a = d.adjustments.last().expect("just added");
            println!(
                "{}: spread {:+} from round {}",
                d.who(player),
                a.amount,
                a.round
            );
        }
        TdCommand::Show {
            at,
            view,
            round,
            csv,
            html,
        } => {
            let t = EventFile::open_read(&at.event)?.load()?;
            let d = t.division(&at.division)?;
            let fmt = if csv {
                Out::Csv
            } else if html {
                Out::Html
            } else {
                Out::Text
            };
            print!("{}", render(&t, d, view, round, fmt)?);
        }
        TdCommand::Submit {
            event,
            division,
            dir,
            to,
        } => {
            let t = EventFile::open_read(&event)?.load()?;
            let d = t.division(&division)?;
            let (naspa, wespa) = match to.as_deref().map(str::to_ascii_lowercase).as_deref() {
                Some("naspa") => (true, false),
                Some("wespa") => (false, true),
                Some("both") => (true, true),
                Some(other) => bail!("--to {other:?}: submit to naspa, wespa or both"),
                None => match d.config.ratings {
                    tilebag_tournament::RatingSystem::Naspa { .. } => (true, false),
                    tilebag_tournament::RatingSystem::Wespa => (false, true),
                    tilebag_tournament::RatingSystem::None => (true, true),
                },
            };
            if let Some(why) = tilebag_tournament::checks::submission_refusal(d) {
                if d.rounds.is_empty() {
                    bail!("{why}");
                }
                bail!(
                    "{why} (see td missing EVENT {} ROUND); nothing was written",
                    d.name
                );
            }
            let mut files = Vec::new();
            let stem = tsh::file_name(&d.name);
            if naspa {
                files.push((stem.clone(), tsh::write_t(d)?));
            }
            if wespa {
                let name = format!("{}.TOU", stem.trim_end_matches(".t"));
                files.push((name, tou::write_tou(&t, &d.name)?));
            }
            std::fs::create_dir_all(&dir)
                .with_context(|| format!("cannot create {}", dir.display()))?;
            for (name, text) in files {
                let path = dir.join(name);
                std::fs::write(&path, text)
                    .with_context(|| format!("cannot write {}", path.display()))?;
                println!("wrote {}", path.display());
            }
        }
        TdCommand::Export {
            event,
            division,
            what,
            tsh,
            archive,
            tou,
            csv,
            html,
            round,
            output,
        } => {
            let t = EventFile::open_read(&event)?.load()?;
            let need_div = || -> Result<&Division> {
                let name = division.as_deref().context("name the division to export")?;
                Ok(t.division(name)?)
            };
            let text = if archive {
                tsh::write_tsh_archive(&t)?
            } else if tsh {
                tsh::write_t(need_div()?)?
            } else if tou {
                tou::write_tou(&t, &need_div()?.name)?
            } else if csv || html {
                let what = what.context(
                    "say what to export: pairings, standings, firsts, ratings, players, scorecards or slips",
                )?;
                render(
                    &t,
                    need_div()?,
                    what,
                    round,
                    if csv { Out::Csv } else { Out::Html },
                )?
            } else {
                bail!("choose a format: --tsh, --archive, --tou, --csv or --html");
            };
            match output {
                Some(path) => {
                    std::fs::write(&path, text)
                        .with_context(|| format!("cannot write {}", path.display()))?;
                    println!("wrote {}", path.display());
                }
                None => print!("{text}"),
            }
        }
        TdCommand::Import {
            event,
            file,
            division,
            rules,
            schedule,
            seed,
            name,
            date,
        } => {
            let bytes =
                std::fs::read(&file).with_context(|| format!("cannot read {}", file.display()))?;
            // UTF-8 (a byte-order mark dropped) or Latin-1, as older tsh files are.
            let text = tsh::decode_text(&bytes).with_context(|| file.display().to_string())?;
            let stem = file
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "A".into());
            let archive = file
                .extension()
                .is_some_and(|e| e.eq_ignore_ascii_case("tsh"))
                || text.lines().any(|l| l.trim().starts_with("#begin_file"));
            let files = if archive {
                tsh::read_tsh_archive(&text).with_context(|| file.display().to_string())?
            } else {
                vec![(division.clone().unwrap_or_else(|| stem.clone()), text)]
            };
            if let Some(d) = &date {
                check_date(d)?;
            }
            // Every file is read before the event is touched, and a refused import leaves no
            // event file behind (an existing one is left as it was: the append is one
            // transaction).
            let mut actions = Vec::new();
            for (div, body) in &files {
                actions.push(
                    tsh::division_actions(body, div, &rules, &schedule, seed)
                        .with_context(|| format!("{} (division {div})", file.display()))?,
                );
            }
            let existed = event.exists();
            let imported = (|| -> Result<tilebag_tournament::Tournament> {
                let mut store = EventFile::create(&event)?;
                store.append(|t| {
                    let mut out = Vec::new();
                    if t.name.is_empty() {
                        out.push(Action::CreateTournament {
                            name: name.clone().unwrap_or_else(|| stem.clone()),
                            date: date.clone(),
                        });
                    }
                    out.extend(actions.into_iter().flatten());
                    Ok(out)
                })
            })();
            let t = match imported {
                Ok(t) => t,
                Err(e) => {
                    if !existed {
                        remove_event_file(&event);
                    }
                    return Err(e);
                }
            };
            for (div, _) in &files {
                let d = t.division(div)?;
                println!(
                    "imported division {}: {} players, {} rounds",
                    d.name,
                    d.players.len(),
                    d.rounds.len()
                );
            }
        }
        TdCommand::Links { at, url } => {
            let mut store = EventFile::open(&at.event)?;
            let t = store.load()?;
            let d = t.division(&at.division)?;
            let id = at
                .event
                .file_stem()
                .and_then(|s| s.to_str())
                .context("the event file has no name")?
                .to_string();
            tilebag_events::EventsDir::check_id(&id)
                .context("the event file's name is not an event id the server serves")?;
            let base = url.trim_end_matches('/');
            for p in &d.players {
                let key = store.player_key(&d.name, p.id, tilebag_server::secret_token)?;
                println!("#{:<3} {:<30} {base}/p/{id}/{key}", p.id, p.name);
            }
        }
        TdCommand::Undo { event } => {
            let mut store = EventFile::open(&event)?;
            let (seq, action) = store.undo()?;
            println!("undone #{seq}: {action}");
        }
        TdCommand::Log { event } => {
            let store = EventFile::open_read(&event)?;
            store.load()?;
            let mut out = String::new();
            for row in store.rows()? {
                // The action exactly as stored (it must be valid JSON: it replayed above).
                let raw = row.action.trim();
                writeln!(
                    out,
                    "{{\"seq\":{},\"at\":{},\"action\":{raw}}}",
                    row.seq,
                    serde_json::to_string(&row.at)?
                )
                .expect("a string");
            }
            print!("{out}");
        }
        TdCommand::Replay { event, log } => {
            let mut text = String::new();
            if log.as_os_str() == "-" {
                std::io::stdin().read_to_string(&mut text)?;
            } else {
                text = std::fs::read_to_string(&log)
                    .with_context(|| format!("cannot read {}", log.display()))?;
            }
            let mut actions = Vec::new();
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let v: serde_json::Value = serde_json::from_str(line)
                    .with_context(|| format!("line {}: not JSON", i + 1))?;
                let a = v.get("action").filter(|a| a.is_object()).unwrap_or(&v);
                let a: Action = serde_json::from_value(a.clone())
                    .with_context(|| format!("line {}: not an action", i + 1))?;
                actions.push(a);
            }
            let mut store = EventFile::create(&event)?;
            if !store.rows()?.is_empty() {
                bail!(
                    "{} already holds an event; replay into a new file",
                    event.display()
                );
            }
            store.append(|_| Ok(actions.clone()))?;
            println!(
                "replayed {} actions into {}",
                actions.len(),
                event.display()
            );
        }
        TdCommand::State { event } => {
            let t = EventFile::open_read(&event)?.load()?;
            println!("{}", serde_json::to_string_pretty(&t)?);
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn player(command: PlayerCommand) -> Result<()> {
    match command {
        PlayerCommand::Add {
            at,
            name,
            rating,
            id,
            games,
        } => {
            let t = EventFile::open(&at.event)?.append(|_| {
                Ok(vec![Action::AddPlayer {
                    division: at.division.clone(),
                    name: name.clone(),
                    rating,
                    member_id: id.clone(),
                    career_games: games,
                    members: Vec::new(),
                }])
            })?;
            let d = t.division(&at.division)?;
            let p = d.players.last().expect("just added");
            println!(
                "added {} rated {} to division {}",
                d.who(p.id),
                p.rating,
                d.name
            );
        }
        PlayerCommand::Edit {
            at,
            player,
            name,
            rating,
            id,
        } => {
            let t = EventFile::open(&at.event)?.append(|_| {
                Ok(vec![Action::EditPlayer {
                    division: at.division.clone(),
                    player,
                    name: name.clone(),
                    rating,
                    member_id: id.clone(),
                }])
            })?;
            let d = t.division(&at.division)?;
            println!(
                "{} rated {}",
                d.who(player),
                d.player(player).expect("edited").rating
            );
        }
        PlayerCommand::Withdraw { at, player, from } => {
            let t = EventFile::open(&at.event)?.append(|_| {
                Ok(vec![Action::Withdraw {
                    division: at.division.clone(),
                    player,
                    from_round: from,
                }])
            })?;
            let d = t.division(&at.division)?;
            println!("{} withdrawn from round {from}", d.who(player));
        }
        PlayerCommand::Reinstate { at, player } => {
            let t = EventFile::open(&at.event)?.append(|_| {
                Ok(vec![Action::Reinstate {
                    division: at.division.clone(),
                    player,
                }])
            })?;
            println!("{} reinstated", t.division(&at.division)?.who(player));
        }
        PlayerCommand::Eject { at, player, from } => {
            let t = EventFile::open(&at.event)?.append(|_| {
                Ok(vec![Action::Eject {
                    division: at.division.clone(),
                    player,
                    from_round: from,
                }])
            })?;
            let d = t.division(&at.division)?;
            let changed = d
                .rounds
                .iter()
                .flat_map(|r| r.pairings.iter())
                .filter_map(|p| p.game())
                .filter(|g| {
                    g.involves(player)
                        && g.corrections
                            .last()
                            .is_some_and(|c| c.note.starts_with("WESPA 6.2.4"))
                })
                .count();
            println!(
                "{} ejected from round {from} (WESPA 6.2.4); {changed} earlier result(s) changed",
                d.who(player)
            );
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

fn set_result(
    at: &At,
    round: u32,
    player: PlayerId,
    result: ResultEntry,
    note: String,
) -> Result<()> {
    let t = EventFile::open(&at.event)?.append(|_| {
        Ok(vec![Action::SetResult {
            division: at.division.clone(),
            round,
            player,
            result: result.clone(),
            note: note.clone(),
        }])
    })?;
    println!("{}", game_line(t.division(&at.division)?, round, player));
    Ok(())
}

/// `round 3, board 2: #1 (A) 400 – #4 (B) 300`.
fn game_line(d: &Division, round: u32, player: PlayerId) -> String {
    let Some(pr) = d.player_round(round, player) else {
        return format!("round {round}: {} has no entry", d.who(player));
    };
    match pr.pairing {
        Pairing::Game(g) => format!(
            "round {round}, board {}: {} v {}: {}",
            g.board,
            d.who(g.first),
            d.who(g.second),
            result_text(d, g.result.as_ref(), g.slip.is_some())
        ),
        Pairing::Bye { pending: true, .. } => {
            format!("round {round}: {} bye, no score yet", d.who(player))
        }
        Pairing::Bye {
            spread,
            forfeit: true,
            ..
        } => format!("round {round}: {} forfeit loss {spread:+}", d.who(player)),
        Pairing::Bye { spread, .. } => format!("round {round}: {} bye {spread:+}", d.who(player)),
        Pairing::Absent { spread, .. } => {
            format!("round {round}: {} withdrawn {spread:+}", d.who(player))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Settings.

/// Removes an event file this command created (and SQLite's side files).
fn remove_event_file(path: &std::path::Path) {
    let _ = std::fs::remove_file(path);
    for side in ["-journal", "-wal", "-shm"] {
        let mut p = path.as_os_str().to_owned();
        p.push(side);
        let _ = std::fs::remove_file(std::path::PathBuf::from(p));
    }
}

fn check_date(d: &str) -> Result<()> {
    let ok = d.len() == 10
        && d.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        });
    if !ok {
        bail!("the date must be YYYY-MM-DD, not {d:?}");
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Views.

#[derive(Clone, Copy, PartialEq, Eq)]
enum Out {
    Text,
    Csv,
    Html,
}

fn render(
    t: &Tournament,
    d: &Division,
    view: View,
    round: Option<u32>,
    fmt: Out,
) -> Result<String> {
    let last = d.rounds.len() as u32;
    let through = round.unwrap_or(last);
    let paired_round = || -> Result<u32> {
        let r = round.unwrap_or(last);
        if r == 0 {
            bail!("division {}: no round has been paired yet", d.name);
        }
        if d.round(r).is_none() {
            bail!("division {}: round {r} has not been paired", d.name);
        }
        Ok(r)
    };
    let (table, title) = match view {
        View::Pairings => {
            let r = paired_round()?;
            if fmt == Out::Html {
                return Ok(report::pairings_html(t, d, r));
            }
            (pairings_table(d, r), format!("Round {r} pairings"))
        }
        View::Standings => match fmt {
            Out::Csv => return Ok(report::standings_csv(d, through)),
            Out::Html => return Ok(report::standings_html(t, d, through)),
            Out::Text => (
                standings_table(d, through),
                format!("Standings after round {through}"),
            ),
        },
        View::Firsts => (
            firsts_table(d, through),
            format!("Firsts and seconds through round {through}"),
        ),
        View::Ratings => (
            ratings_table(d, through),
            format!("Rating estimates after round {through}"),
        ),
        View::Players => (players_table(d), "Players".to_string()),
        View::Prizes => (
            prizes::prize_table(d, through),
            format!("Prizes after round {through}"),
        ),
        View::Alpha => {
            let r = paired_round()?;
            (
                prizes::alpha_pairings_table(d, r),
                format!("Round {r} pairings by player"),
            )
        }
        View::HighWins => (
            prizes::high_wins_table(d, through, 20),
            format!("High wins through round {through}"),
        ),
        View::HighLosses => (
            prizes::high_losses_table(d, through, 20),
            format!("High losses through round {through}"),
        ),
        View::Upsets => (
            prizes::upsets_table(d, through, 20),
            format!("Upsets through round {through}"),
        ),
        View::RatingByRound => (
            prizes::rating_by_round_table(d, through),
            format!("Rating estimates after each round through round {through}"),
        ),
        View::Wallchart => (
            prizes::wallchart_table(d, through),
            format!("Wall chart through round {through}"),
        ),
        View::Roster => (prizes::roster_table(d), "Roster".to_string()),
        View::Performance => (
            prizes::performance_by_round_table(d, through),
            format!("Performance ratings after each round through round {through}"),
        ),
        View::Scorecards => {
            if fmt != Out::Html {
                bail!("scorecards are printed as --html");
            }
            return Ok(report::scorecards_html(t, d));
        }
        View::Slips => {
            let r = paired_round()?;
            if fmt != Out::Html {
                bail!("tally slips are printed as --html");
            }
            return Ok(report::tally_slips_html(t, d, r));
        }
    };
    Ok(match fmt {
        Out::Text => table.text(),
        Out::Csv => table.csv(),
        Out::Html => table.html(t, d, &title),
    })
}
