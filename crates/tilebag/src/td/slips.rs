//! Tally slips: `td slip submit` (one player) and `td slip confirm` (the opponent).

use super::common::{append, game_line, At};
use anyhow::Result;
use clap::Subcommand;
use tilebag_tournament::{Action, PlayerId};

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

pub fn run(command: SlipCommand) -> Result<()> {
    match command {
        SlipCommand::Submit {
            at,
            round,
            player,
            score,
            opponent_score,
        } => submit(at, round, player, (score, opponent_score)),
        SlipCommand::Confirm { at, round, player } => confirm(at, round, player),
    }
}

fn submit(at: At, round: u32, player: PlayerId, (score, opponent_score): (i32, i32)) -> Result<()> {
    let t = append(
        &at.event,
        Action::SubmitSlip {
            division: at.division.clone(),
            round,
            player,
            score,
            opponent_score,
        },
    )?;
    let d = t.division(&at.division)?;
    println!(
        "round {round}: slip from {} ({score}–{opponent_score}) awaits the opponent's confirmation",
        d.who(player)
    );
    Ok(())
}

fn confirm(at: At, round: u32, player: PlayerId) -> Result<()> {
    let t = append(
        &at.event,
        Action::ConfirmSlip {
            division: at.division.clone(),
            round,
            player,
        },
    )?;
    println!("{}", game_line(t.division(&at.division)?, round, player));
    Ok(())
}
