//! Game time for the shell. The engine only knows `at_ms` values; the server makes them from a
//! monotonic clock: game time = base + (now − resume instant) × scale. On restart the base is the
//! latest persisted game time, so time does not pass while the server is down (WESPA 4.1(f)).

use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy)]
pub(crate) struct GameClock {
    base_ms: i64,
    resumed: Instant,
    /// Game milliseconds per real millisecond.
    scale: f64,
}

impl GameClock {
    pub(crate) fn resume(base_ms: i64, scale: f64) -> GameClock {
        GameClock {
            base_ms,
            resumed: Instant::now(),
            scale,
        }
    }

    /// The game time now.
    pub(crate) fn now_ms(&self) -> i64 {
        let real = self.resumed.elapsed().as_secs_f64() * 1000.0;
        self.base_ms + (real * self.scale) as i64
    }

    /// The instant at which the game time reaches `game_ms` (rounded up to the next millisecond
    /// of real time, so that waking then finds the deadline reached).
    pub(crate) fn instant_for(&self, game_ms: i64) -> Instant {
        let ahead = (game_ms - self.base_ms).max(0) as f64 / self.scale;
        self.resumed + Duration::from_micros((ahead * 1000.0).ceil() as u64 + 1000)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resumes_from_the_base_and_scales() {
        let c = GameClock::resume(5_000, 100.0);
        let t = c.now_ms();
        assert!((5_000..5_000 + 10_000).contains(&t), "{t}");
        let at = c.instant_for(5_000 + 100);
        assert!(at >= c.resumed + Duration::from_millis(1));
        assert!(at <= c.resumed + Duration::from_millis(3));
    }
}
