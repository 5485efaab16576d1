//! Per-address quotas on the requests anybody may make without a key: creating a game, the word
//! judge (each adjudication is appended to a log), the score-sheet check. A token bucket per
//! address (an IPv6 address counts by its /64, which one client usually holds whole).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
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
    /// Accounts one address may create a minute (5); 0 = no limit. Sign-up must say when a name
    /// is taken, so this keeps it from being used to test names in bulk.
    pub signups_per_minute: u32,
    /// Games created with `POST /api/games` that have not started yet, at most (3,000); past
    /// it creating one answers `503 too-many-games`. 0 = no cap. The director's games are not
    /// counted.
    pub max_waiting_games: usize,
    /// Of those, at most this many created from one address (3; an IPv6 address counts by its
    /// /64); past it `429 too-many-games`. 0 = no cap. With the defaults, a thousand addresses
    /// are needed to fill the server's cap.
    pub max_waiting_per_address: usize,
    /// A game created with `POST /api/games` that has not started this long after its creation
    /// expires (1 hour): nobody can join it any more, its page says so. The director's games
    /// never expire.
    pub unjoined_expiry: Duration,
    /// ... and one whose page nobody has even opened (no seat has connected) expires sooner
    /// (10 minutes).
    pub unopened_expiry: Duration,
}

impl Default for Quotas {
    fn default() -> Quotas {
        Quotas {
            games_per_minute: 30,
            judge_per_minute: 60,
            verify_per_minute: 120,
            signups_per_minute: 5,
            max_waiting_games: 3000,
            max_waiting_per_address: 3,
            unjoined_expiry: Duration::from_secs(3600),
            unopened_expiry: Duration::from_secs(600),
        }
    }
}

/// What counts as one client's address: an IPv4 address (also when mapped into IPv6), or an IPv6
/// address's /64, which one client usually holds whole.
pub fn address_key(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => {
                let mut o = v6.octets();
                o[8..].fill(0);
                IpAddr::from(o)
            }
        },
        v4 => v4,
    }
}

/// Above this many addresses remembered, full buckets are forgotten.
const PRUNE_AT: usize = 10_000;

/// A token bucket per address: `per_minute` tokens a minute, as many at most.
pub struct PerAddress {
    per_minute: u32,
    buckets: Mutex<HashMap<IpAddr, (f64, Instant)>>,
}

impl PerAddress {
    pub fn new(per_minute: u32) -> PerAddress {
        PerAddress {
            per_minute,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Takes one token for `ip`; `Err(seconds)` until the next one if there is none.
    pub fn take(&self, ip: IpAddr) -> Result<(), u64> {
        if self.per_minute == 0 {
            return Ok(());
        }
        let key = address_key(ip);
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

    pub fn per_minute(&self) -> u32 {
        self.per_minute
    }
}

/// The public games waiting for their players, in all and by the address that created them.
pub struct WaitingGames {
    max_total: usize,
    max_per_address: usize,
    total: AtomicUsize,
    by_address: Mutex<HashMap<IpAddr, usize>>,
}

/// Why a waiting game could not be created.
#[derive(Debug, PartialEq, Eq)]
pub enum WaitingRefusal {
    /// The server's cap.
    Full(usize),
    /// The creator's address has this many waiting already.
    ThisAddress(usize),
}

/// A waiting game's place under the caps; given back when dropped (the game started, expired
/// or stopped).
pub struct WaitingSlot {
    games: Arc<WaitingGames>,
    address: Option<IpAddr>,
}

impl Drop for WaitingSlot {
    fn drop(&mut self) {
        self.games.total.fetch_sub(1, Ordering::AcqRel);
        if let Some(ip) = self.address {
            let mut m = self.games.by_address.lock().expect("waiting lock");
            if let Some(n) = m.get_mut(&ip) {
                *n -= 1;
                if *n == 0 {
                    m.remove(&ip);
                }
            }
        }
    }
}

impl WaitingGames {
    pub fn new(max_total: usize, max_per_address: usize) -> Arc<WaitingGames> {
        Arc::new(WaitingGames {
            max_total,
            max_per_address,
            total: AtomicUsize::new(0),
            by_address: Mutex::new(HashMap::new()),
        })
    }

    /// A place for a new game created from `ip`, or why not.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<WaitingSlot, WaitingRefusal> {
        let ip = address_key(ip);
        let mut m = self.by_address.lock().expect("waiting lock");
        if self.max_total > 0 && self.total.load(Ordering::Acquire) >= self.max_total {
            return Err(WaitingRefusal::Full(self.max_total));
        }
        let n = m.get(&ip).copied().unwrap_or(0);
        if self.max_per_address > 0 && n >= self.max_per_address {
            return Err(WaitingRefusal::ThisAddress(self.max_per_address));
        }
        m.insert(ip, n + 1);
        self.total.fetch_add(1, Ordering::AcqRel);
        Ok(WaitingSlot {
            games: self.clone(),
            address: Some(ip),
        })
    }

    /// A place for a game restored from the store (its creator is not known; counted in all,
    /// never refused: it exists already).
    pub fn restored(self: &Arc<Self>) -> WaitingSlot {
        self.total.fetch_add(1, Ordering::AcqRel);
        WaitingSlot {
            games: self.clone(),
            address: None,
        }
    }
}

/// How long until `created_at_ms` (wall clock) is `expiry` old; zero if it is already.
pub fn left_before_expiry(created_at_ms: i64, now_ms: i64, expiry: Duration) -> Duration {
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
    fn waiting_games_are_capped_per_address_and_in_all_and_given_back() {
        let w = WaitingGames::new(4, 2);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let a1 = w.admit(a).unwrap();
        let _a2 = w.admit(a).unwrap();
        assert_eq!(w.admit(a).err(), Some(WaitingRefusal::ThisAddress(2)));
        let _b1 = w.admit(b).unwrap();
        let _r = w.restored();
        assert_eq!(w.admit(b).err(), Some(WaitingRefusal::Full(4)));
        drop(a1);
        assert!(
            w.admit(a).is_ok(),
            "a game that started gives its place back"
        );
        // One IPv6 client is its /64.
        let w = WaitingGames::new(0, 1);
        let _v = w.admit("2001:db8::1".parse().unwrap()).unwrap();
        assert!(w.admit("2001:db8::2".parse().unwrap()).is_err());
    }

    #[test]
    fn expiry_counts_from_creation() {
        let h = Duration::from_secs(3600);
        assert_eq!(left_before_expiry(0, 1000, h), h - Duration::from_secs(1));
        assert_eq!(left_before_expiry(0, 4_000_000, h), Duration::ZERO);
    }
}
