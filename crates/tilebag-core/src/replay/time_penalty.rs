//! The overtime penalty: 10 points per started minute over (NASPA V.G.2, WESPA 5.3.2), at most
//! once per player, and only at the very end of the record.

use super::{err, ReplayError, Replayer};
use crate::gcg::GcgEvent;

impl Replayer<'_> {
    /// A `>nick: RACK (time) -penalty cumulative` line.
    pub(super) fn replay_time_penalty(&mut self, ev: &GcgEvent) -> Result<(), ReplayError> {
        let line = ev.line;
        self.check_time_penalty_amount(ev)?;
        if self.time_penalised[ev.player] {
            return Err(err(
                line,
                format!(
                    "a second time penalty for {}: one per player, at the end",
                    self.record.players[ev.player].nick
                ),
            ));
        }
        // A game the director ended has ended there, with or without rack lines
        // (NASPA V.F deducts each player's own rack; under NSA V.E the scores stand).
        let director_ended = self
            .record
            .ending
            .as_ref()
            .is_some_and(|e| e.reason == "director-ended");
        if !self.ended && self.out.is_none() && self.zero_run < 6 && !director_ended {
            return Err(err(
                line,
                "a time penalty before the end of the game: penalties come at the end, after the rack adjustments",
            ));
        }
        if director_ended {
            // Nothing but the end's lines may follow.
            self.ended = true;
        }
        self.time_penalised[ev.player] = true;
        self.add_recorded_score(ev)
    }

    /// A penalty takes points away, in whole tens.
    fn check_time_penalty_amount(&self, ev: &GcgEvent) -> Result<(), ReplayError> {
        if ev.score > 0 {
            return Err(err(ev.line, "a time penalty must not be positive"));
        }
        if ev.score % 10 != 0 {
            return Err(err(
                ev.line,
                format!(
                    "a time penalty of {} is not a multiple of 10 (10 points per started minute: NASPA V.G.2, WESPA 5.3.2)",
                    ev.score
                ),
            ));
        }
        Ok(())
    }
}
