//! A phony withdrawn after a challenge (`--`): the play comes off the board and its score off
//! the player's total, and the turn counts as a scoreless one.

use super::{err, ReplayError, Replayer};
use crate::gcg::GcgEvent;
use crate::play;

impl Replayer<'_> {
    /// A `>nick: RACK -- -score cumulative` line.
    pub(super) fn replay_withdrawal(
        &mut self,
        idx: usize,
        ev: &GcgEvent,
    ) -> Result<(), ReplayError> {
        let line = ev.line;
        let Some((pidx, sp, score)) = self.last_play.take() else {
            return Err(err(line, "a withdrawal (--) with no play before it"));
        };
        if self.record.events[pidx].player != ev.player || pidx + 1 != idx {
            return Err(err(
                line,
                "a withdrawal (--) must directly follow the withdrawn play of the same player",
            ));
        }
        self.check_withdrawal_shows_the_plays_rack(ev)?;
        play::unplace(&mut self.board, &sp);
        self.scores[ev.player] -= score;
        self.zero_run = self.zero_before_play + 1;
        self.out = None;
        self.rack_len[ev.player] = self.rack_len_before_play;
        // Old records write "+0"; newer ones "-SCORE". Both mean the play is gone.
        if ev.cumulative != self.scores[ev.player] {
            return Err(err(
                line,
                format!(
                    "after the withdrawal the record's cumulative score is {} but the engine computed {}",
                    ev.cumulative, self.scores[ev.player]
                ),
            ));
        }
        // The withdrawal line itself should say what is taken away: -SCORE (or +0 in
        // old records). The cumulative decides the result; a wrong amount is a warning.
        if ev.score != -score && ev.score != 0 {
            self.warnings.push(format!(
                "line {line}: the withdrawal is recorded as {:+} but the withdrawn play scored {score}; expected {:+} (or +0)",
                ev.score, -score
            ));
        }
        self.push(ev, -score, Vec::new(), None, None);
        Ok(())
    }

    /// The withdrawal shows the rack of the play it withdraws (in any order).
    fn check_withdrawal_shows_the_plays_rack(&self, ev: &GcgEvent) -> Result<(), ReplayError> {
        if let (Some(a), Some(b)) = (&self.last_play_rack, &ev.rack) {
            let sorted = |r: &str| {
                let mut v: Vec<char> = r.chars().collect();
                v.sort_unstable();
                v
            };
            if a != "UNKNOWN" && b != "UNKNOWN" && sorted(a) != sorted(b) {
                return Err(err(
                    ev.line,
                    format!("the withdrawal shows the rack {b}, but the play it withdraws was made from {a}"),
                ));
            }
        }
        Ok(())
    }
}
