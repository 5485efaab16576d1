//! The bonus a player receives when the opponent challenged a play that stood (points per word
//! or per turn, as the ruleset chooses: NASPA VI.B.3, WESPA 3.10.15(b)).

use super::{err, ReplayError, Replayer};
use crate::gcg::GcgEvent;

impl Replayer<'_> {
    /// A `>nick: RACK (challenge) +bonus cumulative` line.
    pub(super) fn replay_challenge_bonus(
        &mut self,
        idx: usize,
        ev: &GcgEvent,
    ) -> Result<(), ReplayError> {
        let line = ev.line;
        // Only for the play just made, before the opponent's next move.
        match &self.last_play {
            Some((pidx, _, _))
                if self.record.events[*pidx].player == ev.player && pidx + 1 == idx => {}
            _ => {
                return Err(err(
                    line,
                    "a challenge bonus belongs right after the challenged play of the same player, before the opponent's next move",
                ))
            }
        }
        if ev.score < 0 {
            return Err(err(line, "a negative challenge bonus"));
        }
        self.add_recorded_score(ev)
    }
}
