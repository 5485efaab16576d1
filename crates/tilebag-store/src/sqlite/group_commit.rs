//! Group commit under load: when writes arrive steadily, the SQLite writer holds its
//! transaction open for a moment after the first write of a batch, so that one `fsync` covers
//! the actions of every game in those milliseconds instead of one or two. A quiet server
//! commits each write at once: its acknowledgements are not delayed.
//!
//! Time comes in as values, so the pacing is tested without a clock.

use std::time::{Duration, Instant};

/// Under load, how long the writer waits for more writes after a batch's first one. At 1,500
/// writes a second (2,000 games, a second's thought a move) 8 ms gathers about a dozen writes a
/// commit, where 2 ms gathered three: the writer's CPU an action fell from about 65 µs to 45 µs
/// (`tilebag bench serve --games 2000`). 8 ms more before an acknowledgement is far below what a
/// player can notice over a network.
pub(super) const WINDOW: Duration = Duration::from_millis(8);
/// The rate of writes (a second) from which the writer counts as under load.
pub(super) const BUSY_WRITES_PER_SECOND: u64 = 200;
/// How long the rate is measured over before it is looked at again.
const MEASURED_OVER: Duration = Duration::from_secs(1);

/// The writer's recent rate of writes, and whether it waits for more.
#[derive(Debug)]
pub(super) struct Pace {
    since: Instant,
    writes: u64,
    busy: bool,
}

impl Pace {
    pub(super) fn new(now: Instant) -> Pace {
        Pace {
            since: now,
            writes: 0,
            busy: false,
        }
    }

    /// How long to wait for more writes before committing the batch whose first write has
    /// just arrived (`now`).
    pub(super) fn window(&self, now: Instant) -> Duration {
        // A rate measured before a long quiet spell no longer says anything.
        let stale = now.saturating_duration_since(self.since) > 2 * MEASURED_OVER;
        if self.busy && !stale {
            WINDOW
        } else {
            Duration::ZERO
        }
    }

    /// A batch of `writes` was committed at `now`.
    pub(super) fn committed(&mut self, writes: u64, now: Instant) {
        self.writes += writes;
        let elapsed = now.saturating_duration_since(self.since);
        if elapsed >= MEASURED_OVER {
            self.busy = self.writes * 1000 >= BUSY_WRITES_PER_SECOND * elapsed.as_millis() as u64;
            self.since = now;
            self.writes = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn a_quiet_writer_commits_at_once() {
        let t0 = Instant::now();
        let mut pace = Pace::new(t0);
        assert_eq!(pace.window(t0), Duration::ZERO);
        // 150 writes in a second: under the busy rate.
        for i in 1..=150 {
            pace.committed(1, t0 + ms(i * 1000 / 150));
        }
        assert_eq!(pace.window(t0 + ms(1001)), Duration::ZERO);
    }

    #[test]
    fn a_busy_writer_waits_for_more_writes_and_stops_once_quiet_again() {
        let t0 = Instant::now();
        let mut pace = Pace::new(t0);
        // 1,500 writes a second, as 2,000 games with a second's thought each give, in batches
        // of three.
        for i in 1..=500 {
            pace.committed(3, t0 + ms(i * 2));
        }
        assert_eq!(pace.window(t0 + ms(1001)), WINDOW);
        // The next second has 50 writes: the rate is looked at again after it.
        for i in 1..=50 {
            pace.committed(1, t0 + ms(1000 + i * 20));
        }
        assert_eq!(pace.window(t0 + ms(2001)), Duration::ZERO);
    }

    #[test]
    fn a_busy_rate_from_before_a_quiet_spell_is_not_trusted() {
        let t0 = Instant::now();
        let mut pace = Pace::new(t0);
        pace.committed(1000, t0 + ms(1000));
        assert_eq!(pace.window(t0 + ms(1500)), WINDOW);
        // Nothing for ten seconds: the first write after it is committed at once.
        assert_eq!(pace.window(t0 + ms(11_000)), Duration::ZERO);
    }
}
