//! What may come after what: turns alternate, and once the game is over only its closing lines
//! may follow.

use super::{err, ReplayError, Replayer};
use crate::gcg::{GcgEvent, GcgEventKind};

impl Replayer<'_> {
    /// After the end of the game only the rack lines and time penalties may come.
    pub(super) fn check_game_not_over(&self, ev: &GcgEvent) -> Result<(), ReplayError> {
        let is_end_line = matches!(
            ev.kind,
            GcgEventKind::EndRack { .. } | GcgEventKind::TimePenalty
        );
        if self.ended && !is_end_line {
            // A move after an own-rack deduction the moves had not ended the game for: that
            // deduction is the mistake.
            if let Some(not_ended) = &self.unended_deduction {
                return Err(not_ended.clone());
            }
            return Err(err(ev.line, "an event after the end of the game"));
        }
        Ok(())
    }

    /// A play that went out ends the game; what may still follow it is a challenge of that play
    /// (its bonus, or its withdrawal), the end-rack lines and time penalties.
    pub(super) fn check_after_out_play(
        &self,
        idx: usize,
        ev: &GcgEvent,
    ) -> Result<(), ReplayError> {
        let Some((who, at)) = self.out else {
            return Ok(());
        };
        let allowed = match ev.kind {
            GcgEventKind::ChallengeBonus | GcgEventKind::Withdrawal => ev.player == who,
            GcgEventKind::EndRack { .. } | GcgEventKind::TimePenalty => true,
            // A lost double challenge of the out play is written as the challenger's pass,
            // right after it.
            GcgEventKind::Pass => {
                ev.player != who && idx > 0 && self.record.events[idx - 1].line == at
            }
            _ => false,
        };
        if !allowed {
            return Err(err(
                ev.line,
                format!(
                    "the game ended on line {at} when {} went out (bag empty, rack empty); after that only a challenge of that play, its withdrawal, the end-rack lines and time penalties may follow",
                    self.record.players[who].nick
                ),
            ));
        }
        Ok(())
    }

    /// Time penalties are the very last lines of a record.
    pub(super) fn check_only_penalties_after_a_penalty(
        &self,
        ev: &GcgEvent,
    ) -> Result<(), ReplayError> {
        if self.time_penalised.iter().any(|&t| t) && !matches!(ev.kind, GcgEventKind::TimePenalty) {
            return Err(err(
                ev.line,
                "only time penalties may follow a time penalty: they come last, after the rack adjustments",
            ));
        }
        Ok(())
    }

    /// The players take turns: nobody makes two moves in a row.
    pub(super) fn check_turn_order(&mut self, ev: &GcgEvent) -> Result<(), ReplayError> {
        if self.last_mover == Some(ev.player) {
            return Err(err(
                ev.line,
                format!(
                    "{} moves twice in a row",
                    self.record.players[ev.player].nick
                ),
            ));
        }
        self.last_mover = Some(ev.player);
        Ok(())
    }
}
