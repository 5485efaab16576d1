//! Game time for the shell. The engine only knows `at_ms` values; the server makes them from a
//! monotonic clock: game time = base + (now − resume instant) × scale. On restart the base is the
//! latest persisted game time, so time does not pass while the server is down (WESPA 4.1(f)).
//!
//! A new game's clock waits: game time stands at 0 until the game starts (both seats have
//! connected, or a seat's first action was accepted; see `live.rs`), as over the board the first
//! player's clock is started only once both players are seated and the tiles are being drawn
//! (NASPA III.F, WESPA 2.2 and 2.3.3, SANSPA 6.5).
//!
//! A started clock may be held: while the server cannot reach its database no move can be
//! stored, so game time stands still, as when the server itself is down (WESPA 4.1(f)), and goes
//! on from where it was held once the database is back.

use std::time::{Duration, Instant};

#[derive(Debug, Clone, Copy)]
pub struct GameClock {
    base_ms: i64,
    /// When game time last resumed from `base_ms`; `None` while the game waits to start or the
    /// clock is held (game time stands still at `base_ms`).
    resumed: Option<Instant>,
    /// Whether the game has started (false while it waits for its players).
    started: bool,
    /// Game milliseconds per real millisecond.
    scale: f64,
}

impl GameClock {
    /// A clock that runs from `base_ms` now.
    pub fn resume(base_ms: i64, scale: f64) -> GameClock {
        GameClock {
            base_ms,
            resumed: Some(Instant::now()),
            started: true,
            scale,
        }
    }

    /// A clock standing at 0 until [`GameClock::start`].
    pub fn waiting(scale: f64) -> GameClock {
        GameClock {
            base_ms: 0,
            resumed: None,
            started: false,
            scale,
        }
    }

    /// Start a waiting clock now (a started clock, running or held, is left as it is).
    pub fn start(&mut self) {
        if !self.started {
            self.started = true;
            self.resumed = Some(Instant::now());
        }
    }

    /// Whether the game has started (false while it waits for its players; true while held).
    pub fn is_started(&self) -> bool {
        self.started
    }

    /// Whether game time runs now (false while the game waits to start, or is held).
    pub fn is_running(&self) -> bool {
        self.resumed.is_some()
    }

    /// Whether a started clock is held.
    pub fn is_held(&self) -> bool {
        self.started && self.resumed.is_none()
    }

    /// Hold a running clock at game time `at_ms` (at most the game time now): game time stands
    /// still there until [`GameClock::release`]. A waiting or held clock is left as it is.
    pub fn hold(&mut self, at_ms: i64) {
        if self.resumed.is_some() {
            self.base_ms = at_ms.min(self.now_ms());
            self.resumed = None;
        }
    }

    /// Let a held clock run again from where it was held, or from `floor_ms` if that is later
    /// (an event stored meanwhile).
    pub fn release(&mut self, floor_ms: i64) {
        if self.is_held() {
            self.base_ms = self.base_ms.max(floor_ms);
            self.resumed = Some(Instant::now());
        }
    }

    /// The game time now.
    pub fn now_ms(&self) -> i64 {
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
    pub fn instant_for(&self, game_ms: i64) -> Option<Instant> {
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

    #[test]
    fn a_held_clock_stands_still_until_released() {
        let mut c = GameClock::resume(5_000, 1000.0);
        std::thread::sleep(Duration::from_millis(5));
        let running = c.now_ms();
        assert!(running >= 10_000, "{running}");
        // Held at an earlier game time (the last one stored): it stands there.
        c.hold(7_000);
        assert!(c.is_started() && c.is_held() && !c.is_running());
        std::thread::sleep(Duration::from_millis(20));
        assert_eq!(c.now_ms(), 7_000, "no game time passes while held");
        assert_eq!(
            c.instant_for(7_001),
            None,
            "no deadline is reached while held"
        );
        // Starting does not release it; holding again does not move it.
        c.start();
        c.hold(6_000);
        assert_eq!(c.now_ms(), 7_000);
        c.release(0);
        assert!(c.is_running());
        std::thread::sleep(Duration::from_millis(10));
        let t = c.now_ms();
        assert!((17_000..7_000 + 1_000_000).contains(&t), "{t}");
        // Never held ahead of the game time now.
        let mut c = GameClock::resume(1_000, 1.0);
        c.hold(50_000);
        assert!(c.now_ms() < 2_000, "{}", c.now_ms());
        // A waiting clock is not held: it still waits for its players.
        let mut w = GameClock::waiting(1.0);
        w.hold(0);
        assert!(!w.is_started() && !w.is_held());
    }
}
