//! Game time for the shell. The engine only knows `at_ms` values; the server makes them from a
//! monotonic clock: game time = base + (now − resume instant) × scale. On restart the base is the
//! latest persisted game time, so time does not pass while the server is down (WESPA 4.1(f)).
//!
//! A new game's clock waits: game time stands at 0 until the game starts (both seats have
//! connected, or a seat's first action was accepted; see `live.rs`), as over the board the first
//! player's clock is started only once both players are seated and the tiles are being drawn
//! (NASPA III.F, WESPA 2.2 and 2.3.3, SANSPA 6.5).

use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy)]
pub(crate) struct GameClock {
    base_ms: i64,
    /// When game time last resumed from `base_ms`; `None` while the game waits to start (game
    /// time stands still at `base_ms`).
    resumed: Option<Instant>,
    /// Game milliseconds per real millisecond.
    scale: f64,
}

impl GameClock {
    /// A clock that runs from `base_ms` now.
    pub(crate) fn resume(base_ms: i64, scale: f64) -> GameClock {
        GameClock {
            base_ms,
            resumed: Some(Instant::now()),
            scale,
        }
    }

    /// A clock standing at 0 until [`GameClock::start`].
    pub(crate) fn waiting(scale: f64) -> GameClock {
        GameClock {
            base_ms: 0,
            resumed: None,
            scale,
        }
    }

    /// Start a waiting clock now (a running clock is left as it is).
    pub(crate) fn start(&mut self) {
        if self.resumed.is_none() {
            self.resumed = Some(Instant::now());
        }
    }

    /// Whether game time runs (false while the game waits to start).
    pub(crate) fn is_running(&self) -> bool {
        self.resumed.is_some()
    }

    /// The game time now.
    pub(crate) fn now_ms(&self) -> i64 {
        match self.resumed {
            Some(resumed) => {
                let real = resumed.elapsed().as_secs_f64() * 1000.0;
                self.base_ms + (real * self.scale) as i64
            }
            None => self.base_ms,
        }
    }

    /// The instant at which the game time reaches `game_ms` (rounded up to the next millisecond
    /// of real time, so that waking then finds the deadline reached); `None` while the clock
    /// waits, since game time does not move then.
    pub(crate) fn instant_for(&self, game_ms: i64) -> Option<Instant> {
        let resumed = self.resumed?;
        let ahead = (game_ms - self.base_ms).max(0) as f64 / self.scale;
        Some(resumed + Duration::from_micros((ahead * 1000.0).ceil() as u64 + 1000))
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
        let resumed = c.resumed.unwrap();
        let at = c.instant_for(5_000 + 100).unwrap();
        assert!(at >= resumed + Duration::from_millis(1));
        assert!(at <= resumed + Duration::from_millis(3));
    }

    #[test]
    fn a_waiting_clock_stands_at_zero_until_started() {
        let mut c = GameClock::waiting(1000.0);
        assert!(!c.is_running());
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(c.now_ms(), 0, "20 ms at ×1000 would be 20 s of game time");
        assert_eq!(
            c.instant_for(1),
            None,
            "no deadline is reached while waiting"
        );
        c.start();
        assert!(c.is_running());
        std::thread::sleep(Duration::from_millis(20));
        let t = c.now_ms();
        assert!(t >= 20_000, "{t}");
        // Starting again does not move a running clock back.
        c.start();
        assert!(c.now_ms() >= t);
        assert!(c.instant_for(t + 1_000).is_some());
    }
}
