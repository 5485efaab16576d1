//! `td adjust`: a spread penalty or compensation (NASPA IV.B.5, IV.K.5).

use super::common::{append, At};
use anyhow::{bail, Context, Result};
use clap::Args;
use tilebag_tournament::{Action, AdjustmentReason, PlayerId};

// The arguments of `td adjust`.
#[derive(Args)]
pub struct AdjustArgs {
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
}

pub fn adjust(args: AdjustArgs) -> Result<()> {
    let AdjustArgs {
        at,
        round,
        player,
        reason,
        amount,
        play_score,
        note,
    } = args;
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
        r => bail!("unknown reason {r:?}: drawing-out-of-order, erroneous-adjudication or other"),
    };
    let t = append(
        &at.event,
        Action::AdjustSpread {
            division: at.division.clone(),
            player,
            round,
            reason: reason.clone(),
            amount,
        },
    )?;
    let d = t.division(&at.division)?;
    let a = d.adjustments.last().expect("just added");
    println!(
        "{}: spread {:+} from round {}",
        d.who(player),
        a.amount,
        a.round
    );
    Ok(())
}
