//! The scoreless turns a player chooses: a pass (also how a lost challenge is written) and an
//! exchange. Each adds one to the run of successive scoreless turns.

use super::{err, ReplayError, Replayer};
use crate::gcg::{ExchangedTiles, GcgEvent};

impl Replayer<'_> {
    /// A `>nick: RACK - +0 cumulative` line.
    pub(super) fn replay_pass(&mut self, ev: &GcgEvent) -> Result<(), ReplayError> {
        self.check_turn_order(ev)?;
        self.zero_run += 1;
        self.check_cumulative(ev, 0)?;
        self.push(ev, 0, Vec::new(), None, None);
        Ok(())
    }

    /// A `>nick: RACK -TILES +0 cumulative` line (or `-N` when only the count is known). An
    /// exchange needs at least seven tiles in the bag (NASPA IV.E.2.a).
    pub(super) fn replay_exchange(
        &mut self,
        ev: &GcgEvent,
        tiles: &ExchangedTiles,
    ) -> Result<(), ReplayError> {
        let line = ev.line;
        self.check_turn_order(ev)?;
        let n = match tiles {
            ExchangedTiles::Known(s) => {
                let t = self
                    .set
                    .parse_tiles(s)
                    .map_err(|e| err(line, format!("exchange -{s}: {e}")))?;
                self.check_subset(ev, &t, || format!("exchange -{s}"))?;
                t.len()
            }
            ExchangedTiles::Count(n) => *n as usize,
        };
        if n == 0 || n > self.rack_size {
            return Err(err(line, format!("an exchange of {n} tiles")));
        }
        let bag = self.bag_len();
        if bag < 7 {
            return Err(err(
                line,
                format!(
                    "an exchange with only {bag} tiles in the bag (NASPA IV.E.2.a: at least 7)"
                ),
            ));
        }
        self.zero_run += 1;
        self.check_cumulative(ev, 0)?;
        self.push(ev, 0, Vec::new(), None, None);
        Ok(())
    }
}
