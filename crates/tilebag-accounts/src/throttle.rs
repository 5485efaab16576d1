//! Sign-in throttling, per address and per account, built so that a stranger cannot lock an
//! account's owner out.
//!
//! # Design
//!
//! Each sign-in attempt names an address (the client's IP, keyed by [`address_key`]: an IPv4
//! address, or an IPv6 address's /64, since one subscriber commonly holds a whole /64), an
//! account (the lower-case name typed, whether or not such an account exists) and whether the
//! browser presented a valid known-device cookie for that account
//! ([`crate::session::DEVICE_COOKIE`]; the caller checks it).
//!
//! 1. **Per address: a token bucket.** An address may make [`ThrottleConfig::address_burst`]
//!    attempts at once, then one more per [`ThrottleConfig::address_refill_ms`]. An attempt that
//!    is let through takes a token; one that succeeds gives it back, so a school or a café
//!    behind one address, signing in with the right passwords, never runs dry. This is what
//!    slows one address guessing at many accounts (or at one).
//! 2. **Per account: back-off for strangers only.** Failed attempts *from unknown sources*
//!    count against the account: after [`ThrottleConfig::account_free_failures`] of them, the
//!    next attempt from an unknown source must wait `base × 2^(failures − free)`, capped at
//!    [`ThrottleConfig::account_max_delay_ms`]. A *known* source — an address this account
//!    signed in from successfully within [`ThrottleConfig::known_address_ms`], or a browser with
//!    the account's known-device cookie — is never subject to this back-off, and its failures
//!    do not add to it (only its address bucket limits it). The count is forgotten after
//!    [`ThrottleConfig::account_forget_ms`] without a failure.
//!
//! Check with [`SignInThrottle::check`] *before* hashing (a refused attempt costs us no Argon2
//! work), then report the verdict with [`SignInThrottle::record`].
//!
//! # What an attacker can and cannot do
//!
//! - One address guessing: 10 guesses, then one per 30 s (default), 2,880 a day, across all
//!   accounts together.
//! - Many addresses guessing one account: 5 free failures, then 2 s, 4 s, 8 s, … apart, at
//!   most 5 minutes apart: at most 288 guesses a day per account however many addresses they
//!   hold. Against a password of 8+ characters that is not in the leaked lists, that is
//!   hopeless.
//! - Cannot lock the owner out where they usually play: the owner's known address and
//!   known-device cookie bypass the account back-off entirely, and the attacker cannot drain
//!   the owner's address bucket without sharing the owner's address.
//! - Can slow the owner on a new device at a new address while the attack lasts: such an
//!   attempt waits at most the cap (5 minutes) and then competes with the attacker's attempts.
//!   The remedy is a known device, or (outside this crate) a sign-in link by e-mail.
//! - Cannot learn whether an account exists from the throttle: names that have no account are
//!   throttled exactly like real ones (the caller passes whatever name was typed).
//! - Any delay is bounded: the longest wait ever asked is the larger of the account cap and the
//!   time for one address token to come back.
//!
//! # State
//!
//! [`AddressState`] and [`AccountState`] are plain serialisable data with pure methods over
//! `now_ms`, so a deployment of several processes can keep them in the store;
//! [`SignInThrottle`] keeps them in memory for one process ([`SignInThrottle::prune`] drops what
//! no longer matters).

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::net::IpAddr;

/// The throttle's numbers (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ThrottleConfig {
    /// Attempts an address may make at once.
    pub address_burst: u32,
    /// One attempt comes back to an address per this many ms.
    pub address_refill_ms: u64,
    /// Failures from unknown sources an account absorbs before any delay.
    pub account_free_failures: u32,
    /// The first delay; each further failure doubles it.
    pub account_base_delay_ms: u64,
    /// No account delay is longer than this.
    pub account_max_delay_ms: u64,
    /// An account's failure count is forgotten this long after its last failure.
    pub account_forget_ms: u64,
    /// An address stays known to an account this long after a successful sign-in from it.
    pub known_address_ms: u64,
    /// Known addresses kept per account (the most recent).
    pub known_addresses_kept: usize,
}

const SECOND_MS: u64 = 1_000;
const MINUTE_MS: u64 = 60 * SECOND_MS;
const HOUR_MS: u64 = 60 * MINUTE_MS;
const DAY_MS: u64 = 24 * HOUR_MS;

impl Default for ThrottleConfig {
    fn default() -> Self {
        ThrottleConfig {
            address_burst: 10,
            address_refill_ms: 30 * SECOND_MS,
            account_free_failures: 5,
            account_base_delay_ms: 2 * SECOND_MS,
            account_max_delay_ms: 5 * MINUTE_MS,
            account_forget_ms: DAY_MS,
            known_address_ms: 30 * DAY_MS,
            known_addresses_kept: 10,
        }
    }
}

/// The key an address is throttled by: an IPv4 address as is (an IPv4-mapped IPv6 address as
/// its IPv4 address); an IPv6 address by its /64, which one subscriber usually holds whole.
pub fn address_key(ip: IpAddr) -> String {
    match ip {
        IpAddr::V4(v4) => v4.to_string(),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4.to_string(),
            None => {
                let s = v6.segments();
                format!("{:x}:{:x}:{:x}:{:x}::/64", s[0], s[1], s[2], s[3])
            }
        },
    }
}

/// Why an attempt must wait.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WaitReason {
    /// Too many attempts from this address.
    Address,
    /// Too many failures on this account from unknown sources.
    Account,
}

/// The throttle's verdict on an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Decision {
    /// Go ahead and verify the password.
    Allow,
    /// Refuse without verifying; the client may try again after `retry_after_ms`
    /// (`Retry-After`, rounded up to seconds).
    Wait {
        retry_after_ms: u64,
        reason: WaitReason,
    },
}

/// An address's token bucket, kept as time credit: one attempt costs
/// [`ThrottleConfig::address_refill_ms`] of credit, the credit grows by one ms per ms and holds
/// at most `address_burst × address_refill_ms`. In whole milliseconds, so however often it is
/// checked nothing is lost to rounding.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AddressState {
    /// Credit in ms (attempts × `address_refill_ms`).
    pub credit_ms: u64,
    /// When `credit_ms` was last brought up to date.
    pub updated_ms: u64,
}

impl AddressState {
    /// A full bucket.
    pub fn new(config: &ThrottleConfig, now_ms: u64) -> AddressState {
        AddressState {
            credit_ms: Self::capacity(config),
            updated_ms: now_ms,
        }
    }

    fn capacity(config: &ThrottleConfig) -> u64 {
        u64::from(config.address_burst).saturating_mul(config.address_refill_ms)
    }

    fn refill(&mut self, config: &ThrottleConfig, now_ms: u64) {
        let elapsed = now_ms.saturating_sub(self.updated_ms);
        self.credit_ms = self
            .credit_ms
            .saturating_add(elapsed)
            .min(Self::capacity(config));
        self.updated_ms = self.updated_ms.max(now_ms);
    }

    /// Takes one attempt's credit if there is enough; otherwise says how long until there is.
    pub fn try_take(&mut self, config: &ThrottleConfig, now_ms: u64) -> Result<(), u64> {
        self.refill(config, now_ms);
        let cost = config.address_refill_ms;
        if self.credit_ms >= cost {
            self.credit_ms -= cost;
            Ok(())
        } else {
            Err(cost - self.credit_ms)
        }
    }

    /// Gives an attempt's credit back (after a successful sign-in).
    pub fn refund(&mut self, config: &ThrottleConfig, now_ms: u64) {
        self.refill(config, now_ms);
        self.credit_ms = self
            .credit_ms
            .saturating_add(config.address_refill_ms)
            .min(Self::capacity(config));
    }

    /// Whether the bucket is full at `now_ms` (nothing to remember).
    pub fn is_full(&self, config: &ThrottleConfig, now_ms: u64) -> bool {
        let mut s = *self;
        s.refill(config, now_ms);
        s.credit_ms >= Self::capacity(config)
    }
}

/// An address from which an account signed in.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KnownAddress {
    /// [`address_key`] of the address.
    pub address: String,
    /// The last successful sign-in from it.
    pub last_success_ms: u64,
}

/// An account's failures from unknown sources and the addresses it is known at.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AccountState {
    /// Failures from unknown sources since the count was last forgotten.
    pub failures: u32,
    /// The last such failure.
    pub last_failure_ms: u64,
    /// Recent successful addresses, most recent first.
    pub known: Vec<KnownAddress>,
}

impl AccountState {
    fn live_failures(&self, config: &ThrottleConfig, now_ms: u64) -> u32 {
        if self.failures > 0
            && now_ms.saturating_sub(self.last_failure_ms) < config.account_forget_ms
        {
            self.failures
        } else {
            0
        }
    }

    /// The delay after the last failure before an unknown source may try again:
    /// 0 for the first `free` failures, then `base × 2^(failures − free)`, capped.
    pub fn delay_ms(&self, config: &ThrottleConfig, now_ms: u64) -> u64 {
        let n = self.live_failures(config, now_ms);
        if n < config.account_free_failures {
            return 0;
        }
        let doublings = (n - config.account_free_failures).min(40);
        config
            .account_base_delay_ms
            .saturating_mul(1u64 << doublings)
            .min(config.account_max_delay_ms)
    }

    /// How long an attempt from an unknown source must still wait at `now_ms` (0: may try).
    pub fn wait_ms(&self, config: &ThrottleConfig, now_ms: u64) -> u64 {
        let delay = self.delay_ms(config, now_ms);
        (self.last_failure_ms + delay).saturating_sub(now_ms)
    }

    /// Whether the account signed in from `address` recently.
    pub fn knows(&self, address: &str, config: &ThrottleConfig, now_ms: u64) -> bool {
        self.known.iter().any(|k| {
            k.address == address
                && now_ms.saturating_sub(k.last_success_ms) < config.known_address_ms
        })
    }

    fn record_failure(&mut self, config: &ThrottleConfig, now_ms: u64) {
        self.failures = self.live_failures(config, now_ms).saturating_add(1);
        self.last_failure_ms = now_ms;
    }

    fn record_success(&mut self, address: &str, config: &ThrottleConfig, now_ms: u64) {
        self.known.retain(|k| {
            k.address != address
                && now_ms.saturating_sub(k.last_success_ms) < config.known_address_ms
        });
        self.known.insert(
            0,
            KnownAddress {
                address: address.to_string(),
                last_success_ms: now_ms,
            },
        );
        self.known.truncate(config.known_addresses_kept);
        // The failure count is not reset: the owner signing in must not hand a guesser
        // another set of free failures. It is forgotten with time.
    }

    fn is_idle(&self, config: &ThrottleConfig, now_ms: u64) -> bool {
        self.live_failures(config, now_ms) == 0
            && !self
                .known
                .iter()
                .any(|k| now_ms.saturating_sub(k.last_success_ms) < config.known_address_ms)
    }
}

/// One sign-in attempt, as the throttle sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Attempt<'a> {
    /// [`address_key`] of the client's address.
    pub address: &'a str,
    /// The account name typed, in lower case (`Username::key`), whether or not it exists.
    pub account: &'a str,
    /// The browser presented a valid known-device cookie for this account.
    pub known_device: bool,
}

/// The throttle's state for one process: every address's bucket and every account's record.
#[derive(Clone, Debug, Default)]
pub struct SignInThrottle {
    config: ThrottleConfig,
    addresses: HashMap<String, AddressState>,
    accounts: HashMap<String, AccountState>,
}

impl SignInThrottle {
    /// An empty throttle.
    pub fn new(config: ThrottleConfig) -> SignInThrottle {
        SignInThrottle {
            config,
            addresses: HashMap::new(),
            accounts: HashMap::new(),
        }
    }

    /// The numbers in force.
    pub fn config(&self) -> &ThrottleConfig {
        &self.config
    }

    /// Whether `attempt` comes from a source the account trusts.
    pub fn is_known_source(&self, attempt: &Attempt<'_>, now_ms: u64) -> bool {
        attempt.known_device
            || self
                .accounts
                .get(attempt.account)
                .is_some_and(|a| a.knows(attempt.address, &self.config, now_ms))
    }

    /// Decides whether to verify this attempt's password. An allowed attempt takes a token
    /// from its address; a refused one changes nothing.
    pub fn check(&mut self, attempt: &Attempt<'_>, now_ms: u64) -> Decision {
        let config = self.config;
        if !self.is_known_source(attempt, now_ms) {
            if let Some(account) = self.accounts.get(attempt.account) {
                let wait = account.wait_ms(&config, now_ms);
                if wait > 0 {
                    return Decision::Wait {
                        retry_after_ms: wait,
                        reason: WaitReason::Account,
                    };
                }
            }
        }
        let bucket = self
            .addresses
            .entry(attempt.address.to_string())
            .or_insert_with(|| AddressState::new(&config, now_ms));
        match bucket.try_take(&config, now_ms) {
            Ok(()) => Decision::Allow,
            Err(wait) => Decision::Wait {
                retry_after_ms: wait,
                reason: WaitReason::Address,
            },
        }
    }

    /// Records the verdict of an attempt that [`check`](Self::check) allowed.
    pub fn record(&mut self, attempt: &Attempt<'_>, success: bool, now_ms: u64) {
        let config = self.config;
        let known = self.is_known_source(attempt, now_ms);
        if success {
            if let Some(bucket) = self.addresses.get_mut(attempt.address) {
                bucket.refund(&config, now_ms);
            }
            self.accounts
                .entry(attempt.account.to_string())
                .or_default()
                .record_success(attempt.address, &config, now_ms);
        } else if !known {
            self.accounts
                .entry(attempt.account.to_string())
                .or_default()
                .record_failure(&config, now_ms);
        }
    }

    /// Drops full buckets and accounts with nothing left to remember; call it now and then
    /// (e.g. every minute) so the maps stay small.
    pub fn prune(&mut self, now_ms: u64) {
        let config = self.config;
        self.addresses.retain(|_, b| !b.is_full(&config, now_ms));
        self.accounts.retain(|_, a| !a.is_idle(&config, now_ms));
    }

    /// (addresses, accounts) remembered.
    pub fn len(&self) -> (usize, usize) {
        (self.addresses.len(), self.accounts.len())
    }

    /// Whether nothing is remembered.
    pub fn is_empty(&self) -> bool {
        self.addresses.is_empty() && self.accounts.is_empty()
    }

    /// An account's record, for a store that keeps it (or for tests).
    pub fn account(&self, key: &str) -> Option<&AccountState> {
        self.accounts.get(key)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{Ipv4Addr, Ipv6Addr};

    fn attempt<'a>(address: &'a str, account: &'a str) -> Attempt<'a> {
        Attempt {
            address,
            account,
            known_device: false,
        }
    }

    const T0: u64 = 1_700_000_000_000;

    #[test]
    fn the_account_back_off_doubles_after_five_failures_and_is_capped() {
        let c = ThrottleConfig::default();
        let mut a = AccountState::default();
        let mut delays = Vec::new();
        for i in 0..12 {
            a.record_failure(&c, T0 + i);
            delays.push(a.delay_ms(&c, T0 + i));
        }
        // Failures 1–4: free; the 5th: 2 s × 2^0; the 6th: 2 s × 2^1 = 4 s; … the 12th:
        // 2 s × 2^7 = 256 s; the 13th would be 512 s, capped at 300 s.
        assert_eq!(
            delays,
            [0, 0, 0, 0, 2_000, 4_000, 8_000, 16_000, 32_000, 64_000, 128_000, 256_000]
        );
        a.record_failure(&c, T0 + 12);
        assert_eq!(a.delay_ms(&c, T0 + 12), 300_000);
        for i in 13..100 {
            a.record_failure(&c, T0 + i);
        }
        assert_eq!(a.delay_ms(&c, T0 + 99), 300_000);
        // The wait counts from the last failure.
        assert_eq!(a.wait_ms(&c, T0 + 99 + 100_000), 200_000);
        // A day without failures: forgotten.
        assert_eq!(a.delay_ms(&c, T0 + 99 + DAY_MS), 0);
        a.record_failure(&c, T0 + 99 + DAY_MS);
        assert_eq!(a.failures, 1);
    }

    #[test]
    fn an_attack_from_many_addresses_does_not_lock_the_owner_out() {
        let mut t = SignInThrottle::new(ThrottleConfig::default());
        // The owner signs in from home.
        let home = attempt("198.51.100.7", "alice");
        assert_eq!(t.check(&home, T0), Decision::Allow);
        t.record(&home, true, T0);

        // An attacker tries "alice" every 100 ms for an hour, each time from a new address.
        let mut allowed = 0;
        let mut refused_for_account = 0;
        for i in 0..36_000u64 {
            let now = T0 + 1_000 + i * 100;
            let addr = format!("203.0.{}.{}", (i / 256) % 256, i % 256);
            let a = attempt(&addr, "alice");
            match t.check(&a, now) {
                Decision::Allow => {
                    allowed += 1;
                    t.record(&a, false, now);
                }
                Decision::Wait {
                    reason,
                    retry_after_ms,
                } => {
                    assert_eq!(reason, WaitReason::Account);
                    assert!(retry_after_ms <= 300_000);
                    refused_for_account += 1;
                }
            }
        }
        // Guesses let through in the hour: 5 free; 8 more after delays of 2, 4, …, 256 s
        // (510 s in all); then one per 300 s: (3,600 − 511) / 300 ≈ 10 more. About 23, not
        // 36,000.
        assert_eq!(allowed, 23);
        assert_eq!(allowed + refused_for_account, 36_000);

        // Meanwhile the owner signs in from home at once, with a typo first.
        let now = T0 + 1_000 + 36_000 * 100;
        assert_eq!(t.check(&home, now), Decision::Allow);
        t.record(&home, false, now);
        assert_eq!(t.check(&home, now + 1), Decision::Allow);
        t.record(&home, true, now + 1);
        // And from a café, with the known-device cookie.
        let cafe = Attempt {
            address: "192.0.2.55",
            account: "alice",
            known_device: true,
        };
        assert_eq!(t.check(&cafe, now + 2), Decision::Allow);
        // From a new device at a new address, the owner waits, but never past the cap.
        match t.check(&attempt("192.0.2.99", "alice"), now + 3) {
            Decision::Allow => {}
            Decision::Wait {
                retry_after_ms,
                reason,
            } => {
                assert_eq!(reason, WaitReason::Account);
                assert!(retry_after_ms <= 300_000);
            }
        }
    }

    #[test]
    fn one_address_guessing_many_accounts_is_slowed() {
        let mut t = SignInThrottle::new(ThrottleConfig::default());
        let mut allowed = 0;
        let mut first_refusal = None;
        // One attempt a second for an hour, each at a different account.
        for i in 0..3_600u64 {
            let now = T0 + i * 1_000;
            let account = format!("user{i}");
            let a = attempt("203.0.113.9", &account);
            match t.check(&a, now) {
                Decision::Allow => {
                    allowed += 1;
                    t.record(&a, false, now);
                }
                Decision::Wait {
                    reason,
                    retry_after_ms,
                } => {
                    assert_eq!(reason, WaitReason::Address);
                    assert!(retry_after_ms <= 30_000);
                    first_refusal.get_or_insert(i);
                }
            }
        }
        // The first 10 at once, then one per 30 s: the credit spent is at most the 300 s it
        // started with plus the 3,599 s that passed, ⌊3,899 / 30⌋ = 129 attempts.
        assert_eq!(first_refusal, Some(10));
        assert_eq!(allowed, 129);
        // Another address is untouched.
        assert_eq!(
            t.check(&attempt("203.0.113.10", "user1"), T0 + 3_600_000),
            Decision::Allow
        );
    }

    #[test]
    fn right_passwords_from_one_shared_address_do_not_drain_it() {
        let mut t = SignInThrottle::new(ThrottleConfig::default());
        // A club room: 50 players sign in from one address within 50 seconds.
        for i in 0..50u64 {
            let name = format!("player{i}");
            let a = attempt("198.51.100.1", &name);
            assert_eq!(t.check(&a, T0 + i * 1_000), Decision::Allow, "player {i}");
            t.record(&a, true, T0 + i * 1_000);
        }
    }

    #[test]
    fn frequent_checks_do_not_stop_the_bucket_refilling() {
        let c = ThrottleConfig::default();
        let mut b = AddressState::new(&c, T0);
        for _ in 0..10 {
            b.try_take(&c, T0).unwrap();
        }
        // Checked every 7 ms: the credit still grows by the full time elapsed.
        let mut now = T0;
        while b.try_take(&c, now).is_err() {
            now += 7;
        }
        // The first moment with 30,000 ms of credit, on a 7 ms grid: ⌈30,000 / 7⌉ × 7 = 30,002.
        assert_eq!(now - T0, 30_002);
    }

    #[test]
    fn the_address_bucket_says_how_long_to_wait() {
        let c = ThrottleConfig::default();
        let mut b = AddressState::new(&c, T0);
        for _ in 0..10 {
            assert_eq!(b.try_take(&c, T0), Ok(()));
        }
        assert_eq!(b.try_take(&c, T0), Err(30_000));
        // 12 s later 12/30 = 0.4 of a token is back; 0.6 × 30 s = 18 s to go.
        assert_eq!(b.try_take(&c, T0 + 12_000), Err(18_000));
        assert_eq!(b.try_take(&c, T0 + 30_000), Ok(()));
        assert!(!b.is_full(&c, T0 + 30_000));
        // Ten tokens back take 10 × 30 s = 300 s.
        assert!(b.is_full(&c, T0 + 330_000));
    }

    #[test]
    fn failures_from_a_known_source_do_not_count_against_the_account() {
        let mut t = SignInThrottle::new(ThrottleConfig::default());
        let home = attempt("198.51.100.7", "bob");
        assert_eq!(t.check(&home, T0), Decision::Allow);
        t.record(&home, true, T0);
        for i in 1..=8 {
            assert_eq!(t.check(&home, T0 + i), Decision::Allow);
            t.record(&home, false, T0 + i);
        }
        assert_eq!(t.account("bob").unwrap().failures, 0);
        // The address bucket still limits it: 10 tokens, 1 refunded by the success, 8
        // failures used: 2 left... then refused.
        assert_eq!(t.check(&home, T0 + 10), Decision::Allow);
        assert_eq!(t.check(&home, T0 + 11), Decision::Allow);
        assert!(matches!(
            t.check(&home, T0 + 12),
            Decision::Wait {
                reason: WaitReason::Address,
                ..
            }
        ));
    }

    #[test]
    fn a_known_address_is_forgotten_after_thirty_days() {
        let c = ThrottleConfig::default();
        let mut t = SignInThrottle::new(c);
        let home = attempt("198.51.100.7", "carol");
        t.check(&home, T0);
        t.record(&home, true, T0);
        assert!(t.is_known_source(&home, T0 + 29 * DAY_MS));
        assert!(!t.is_known_source(&home, T0 + 30 * DAY_MS));
        // Ten known addresses kept, most recent first.
        for i in 0..12u64 {
            let addr = format!("192.0.2.{i}");
            let a = attempt(&addr, "carol");
            t.check(&a, T0 + i);
            t.record(&a, true, T0 + i);
        }
        let known = &t.account("carol").unwrap().known;
        assert_eq!(known.len(), 10);
        assert_eq!(known[0].address, "192.0.2.11");
        assert!(!t.is_known_source(&home, T0 + 20));
    }

    #[test]
    fn unknown_names_are_throttled_like_real_ones() {
        // The throttle has no notion of which accounts exist: a name never registered backs
        // off exactly as a real one, so the answers reveal nothing.
        let mut t = SignInThrottle::new(ThrottleConfig::default());
        for i in 0..5u64 {
            let addr = format!("203.0.113.{i}");
            let a = attempt(&addr, "nosuchuser");
            assert_eq!(t.check(&a, T0 + i), Decision::Allow);
            t.record(&a, false, T0 + i);
        }
        // The 5th failure at T0 + 4 set a 2 s delay.
        assert_eq!(
            t.check(&attempt("203.0.113.77", "nosuchuser"), T0 + 5),
            Decision::Wait {
                retry_after_ms: 1_999,
                reason: WaitReason::Account
            }
        );
        assert_eq!(
            t.check(&attempt("203.0.113.77", "nosuchuser"), T0 + 4 + 2_000),
            Decision::Allow
        );
    }

    #[test]
    fn pruning_forgets_what_no_longer_matters() {
        let mut t = SignInThrottle::new(ThrottleConfig::default());
        let a = attempt("203.0.113.1", "dave");
        t.check(&a, T0);
        t.record(&a, false, T0);
        let b = attempt("203.0.113.2", "erin");
        t.check(&b, T0);
        t.record(&b, true, T0);
        assert_eq!(t.len(), (2, 2));
        // After 5 minutes both buckets are full again; dave's failure is a day from being
        // forgotten, erin's address is known for 30 days.
        t.prune(T0 + 5 * MINUTE_MS);
        assert_eq!(t.len(), (0, 2));
        t.prune(T0 + DAY_MS);
        assert_eq!(t.len(), (0, 1));
        t.prune(T0 + 30 * DAY_MS);
        assert!(t.is_empty());
    }

    #[test]
    fn address_keys() {
        assert_eq!(
            address_key(IpAddr::V4(Ipv4Addr::new(192, 0, 2, 1))),
            "192.0.2.1"
        );
        let a: Ipv6Addr = "2001:db8:1:2:aaaa:bbbb:cccc:dddd".parse().unwrap();
        let b: Ipv6Addr = "2001:db8:1:2::1".parse().unwrap();
        assert_eq!(address_key(IpAddr::V6(a)), "2001:db8:1:2::/64");
        assert_eq!(address_key(IpAddr::V6(a)), address_key(IpAddr::V6(b)));
        let mapped: Ipv6Addr = "::ffff:192.0.2.1".parse().unwrap();
        assert_eq!(address_key(IpAddr::V6(mapped)), "192.0.2.1");
    }
}
