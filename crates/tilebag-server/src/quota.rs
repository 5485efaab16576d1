//! Per-address quotas on the requests anybody may make without a key: creating a game, the word
//! judge (each adjudication is appended to a log), the score-sheet check. A token bucket per
//! address (an IPv6 address counts by its /64, which one client usually holds whole).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The figures (`tilebag serve --help` lists them with these defaults).
#[derive(Debug, Clone, Copy)]
pub struct Quotas {
    /// Games one address may create a minute (30, and as many at once); 0 = no limit.
    pub games_per_minute: u32,
    /// `POST /api/judge` requests one address may make a minute (60); 0 = no limit.
    pub judge_per_minute: u32,
    /// `POST /api/gcg/verify` requests one address may make a minute (120); 0 = no limit.
    pub verify_per_minute: u32,
    /// Games created with `POST /api/games` that have not started yet, at most (1,000); past
    /// it creating one answers `503 too-many-games`. 0 = no cap. The director's games are not
    /// counted.
    pub max_waiting_games: usize,
    /// A game created with `POST /api/games` that has not started this long after its creation
    /// expires (1 hour): nobody can join it any more, its page says so. The director's games
    /// never expire.
    pub unjoined_expiry: Duration,
}

impl Default for Quotas {
    fn default() -> Quotas {
        Quotas {
            games_per_minute: 30,
            judge_per_minute: 60,
            verify_per_minute: 120,
            max_waiting_games: 1000,
            unjoined_expiry: Duration::from_secs(3600),
        }
    }
}

/// Above this many addresses remembered, full buckets are forgotten.
const PRUNE_AT: usize = 10_000;

/// A token bucket per address: `per_minute` tokens a minute, as many at most.
pub(crate) struct PerAddress {
    per_minute: u32,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl PerAddress {
    pub(crate) fn new(per_minute: u32) -> PerAddress {
        PerAddress {
            per_minute,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `ip`; `Err(seconds)` until the next one if there is none.
    pub(crate) fn take(&self, ip: IpAddr) -> Result<(), u64> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let key = match ip {
            IpAddr::V6(v6) if v6.to_ipv4_mapped().is_none() => {
                let mut o = v6.octets();
                o[8..].fill(0);
                IpAddr::from(o)
            }
            IpAddr::V6(v6) => IpAddr::V4(v6.to_ipv4_mapped().expect("mapped")),
            v4 => v4,
        };
        let burst = f64::from(self.per_minute);
        let rate = burst / 60.0;
        let now = Instant::now();
        let mut m = self.buckets.lock().expect("quota lock");
        if m.len() >= PRUNE_AT {
            m.retain(|_, (tokens, last)| {
                *tokens + now.duration_since(*last).as_secs_f64() * rate < burst
            });
        }
        let (tokens, last) = m.entry(key).or_insert((burst, now));
        *tokens = (*tokens + now.duration_since(*last).as_secs_f64() * rate).min(burst);
        *last = now;
        if *tokens >= 1.0 {
            *tokens -= 1.0;
            Ok(())
        } else {
            Err(((1.0 - *tokens) / rate).ceil().max(1.0) as u64)
        }
    }

    pub(crate) fn per_minute(&self) -> u32 {
        self.per_minute
    }
}

/// How long until `created_at_ms` (wall clock) is `expiry` old; zero if it is already.
pub(crate) fn left_before_expiry(created_at_ms: i64, now_ms: i64, expiry: Duration) -> Duration {
    let age = Duration::from_millis(now_ms.saturating_sub(created_at_ms).max(0) as u64);
    expiry.saturating_sub(age)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bucket_per_address_refills_by_the_minute() {
        let q = PerAddress::new(3);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        for _ in 0..3 {
            q.take(a).unwrap();
        }
        let wait = q.take(a).unwrap_err();
        assert!((1..=20).contains(&wait), "{wait}");
        q.take(b).unwrap();
        // One IPv6 client holds a whole /64.
        let v6a: IpAddr = "2001:db8::1".parse().unwrap();
        let v6b: IpAddr = "2001:db8::ffff:1234".parse().unwrap();
        for _ in 0..3 {
            q.take(v6a).unwrap();
        }
        assert!(q.take(v6b).is_err());
        assert!(PerAddress::new(0).take(a).is_ok());
    }

    #[test]
    fn expiry_counts_from_creation() {
        let h = Duration::from_secs(3600);
        assert_eq!(left_before_expiry(0, 1000, h), h - Duration::from_secs(1));
        assert_eq!(left_before_expiry(0, 4_000_000, h), Duration::ZERO);
    }
}
