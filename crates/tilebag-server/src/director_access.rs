//! Who may use the director's pages: the director key, sign-in sessions, and the brake on
//! guessing the key.
//!
//! Signing in with the key issues a session: a random token, kept here, carried by an
//! `HttpOnly`, `SameSite=Strict` cookie. The cookie never holds the key itself. A session ends
//! when the director signs out, signs out everywhere, or leaves it unused for [`SESSION_IDLE`]
//! (and at the latest [`SESSION_LIFE`] after sign-in); sessions live in memory, so a restart of
//! the server signs everyone out.
//!
//! Only sign-in attempts are throttled: [`SIGN_IN_TRIES`] wrong keys from one address (an IPv6
//! address counts by its /64) within [`SIGN_IN_WINDOW`], or [`GLOBAL_TRIES`] from all, and no key
//! is checked until the window has passed. A request with a session cookie is never throttled:
//! a stranger guessing keys cannot lock out a director who is signed in, and a session token
//! (160 random bits) is not worth guessing.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tilebag_live::ids::same_secret;
use tilebag_live::quota::address_key;

/// The cookie that carries a director's session token.
pub(crate) const COOKIE: &str = "tilebag_director";

/// Wrong keys allowed from all addresses together per [`SIGN_IN_WINDOW`]: past it sign-in is
/// refused until the window has passed (guessing from many addresses). Sessions are untouched.
pub(crate) const GLOBAL_TRIES: usize = 100;
/// Wrong keys allowed from one address (or IPv6 /64) per [`SIGN_IN_WINDOW`].
pub(crate) const SIGN_IN_TRIES: usize = 10;
pub(crate) const SIGN_IN_WINDOW: Duration = Duration::from_secs(60);

/// A session unused this long ends.
pub(crate) const SESSION_IDLE: Duration = Duration::from_secs(12 * 3600);
/// A session ends this long after sign-in, used or not.
pub(crate) const SESSION_LIFE: Duration = Duration::from_secs(7 * 24 * 3600);
/// Sessions kept at most (the oldest ends first): each one needs the key, so this only bounds a
/// director who signs in again and again.
const MAX_SESSIONS: usize = 256;

/// The outcome of a sign-in attempt.
pub(crate) enum SignIn {
    /// The key was right: the new session's token, for the cookie.
    Session(String),
    Wrong,
    /// Not checked: too many wrong keys lately (the reason, for the page).
    Throttled(&'static str),
}

struct Session {
    began: Instant,
    used: Instant,
}

/// The key, the sessions it opened, and the recent wrong keys.
pub(crate) struct Access {
    key: String,
    sessions: Mutex<HashMap<String, Session>>,
    failures: Mutex<Failures>,
}

#[derive(Default)]
struct Failures {
    by_address: HashMap<IpAddr, Vec<Instant>>,
    all: VecDeque<Instant>,
}

impl Failures {
    fn forget_old(&mut self, now: Instant) {
        self.by_address.retain(|_, v| {
            v.retain(|t| now.duration_since(*t) < SIGN_IN_WINDOW);
            !v.is_empty()
        });
        while self
            .all
            .front()
            .is_some_and(|t| now.duration_since(*t) >= SIGN_IN_WINDOW)
        {
            self.all.pop_front();
        }
    }

    /// Why no key from `who` may be checked now, if so.
    fn throttled(&self, who: &IpAddr) -> Option<&'static str> {
        if self
            .by_address
            .get(who)
            .is_some_and(|v| v.len() >= SIGN_IN_TRIES)
        {
            return Some("Too many wrong keys from this address: wait a minute and try again.");
        }
        if self.all.len() >= GLOBAL_TRIES {
            return Some(
                "Too many wrong keys from everywhere lately (someone is guessing): wait a minute \
                 and try again.",
            );
        }
        None
    }
}

impl Access {
    pub(crate) fn new(key: String) -> Access {
        Access {
            key,
            sessions: Mutex::new(HashMap::new()),
            failures: Mutex::new(Failures::default()),
        }
    }

    /// Whether `key`, presented by `ip` at `now`, is the director key: a wrong key counts
    /// against the same throttle as a sign-in (a machine's bearer key, as a collector presents
    /// it to `/metrics`, is guessed no faster than the sign-in form's).
    /// The refusal is `SignIn::Wrong` or `SignIn::Throttled`.
    pub(crate) fn check_key(&self, ip: IpAddr, key: &str, now: Instant) -> Result<(), SignIn> {
        let who = address_key(ip);
        let mut f = self.failures.lock().expect("failures lock");
        f.forget_old(now);
        if let Some(why) = f.throttled(&who) {
            return Err(SignIn::Throttled(why));
        }
        if !same_secret(key, &self.key) {
            f.by_address.entry(who).or_default().push(now);
            f.all.push_back(now);
            return Err(SignIn::Wrong);
        }
        Ok(())
    }

    /// A sign-in attempt with `key` from `ip`, at `now`.
    pub(crate) fn sign_in(&self, ip: IpAddr, key: &str, now: Instant) -> SignIn {
        if let Err(refused) = self.check_key(ip, key, now) {
            return refused;
        }
        let token = tilebag_live::ids::token();
        let mut s = self.sessions.lock().expect("sessions lock");
        s.retain(|_, v| alive(v, now));
        if s.len() >= MAX_SESSIONS {
            if let Some(oldest) = s
                .iter()
                .min_by_key(|(_, v)| v.began)
                .map(|(k, _)| k.clone())
            {
                s.remove(&oldest);
            }
        }
        s.insert(
            token.clone(),
            Session {
                began: now,
                used: now,
            },
        );
        SignIn::Session(token)
    }

    /// Whether `token` is a live session (and, if so, it counts as used now).
    pub(crate) fn session(&self, token: &str, now: Instant) -> bool {
        let mut s = self.sessions.lock().expect("sessions lock");
        match s.get_mut(token) {
            Some(v) if alive(v, now) => {
                v.used = now;
                true
            }
            Some(_) => {
                s.remove(token);
                false
            }
            None => false,
        }
    }

    /// Ends one session (sign out).
    pub(crate) fn end(&self, token: &str) {
        self.sessions.lock().expect("sessions lock").remove(token);
    }

    /// Ends every session (sign out everywhere); how many there were.
    pub(crate) fn end_all(&self) -> usize {
        let mut s = self.sessions.lock().expect("sessions lock");
        let n = s.len();
        s.clear();
        n
    }
}

fn alive(s: &Session, now: Instant) -> bool {
    now.duration_since(s.used) < SESSION_IDLE && now.duration_since(s.began) < SESSION_LIFE
}

/// The session token a request's cookies carry, if any.
pub(crate) fn cookie_token(headers: &axum::http::HeaderMap) -> Option<String> {
    headers
        .get_all(axum::http::header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "a-director-key-of-some-length";

    fn token(s: SignIn) -> String {
        match s {
            SignIn::Session(t) => t,
            _ => panic!("no session"),
        }
    }

    #[test]
    fn signing_in_issues_a_session_token_that_is_not_the_key() {
        let a = Access::new(KEY.into());
        let now = Instant::now();
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let t = token(a.sign_in(ip, KEY, now));
        assert_ne!(t, KEY);
        assert!(a.session(&t, now));
        // The key itself opens nothing as a cookie.
        assert!(!a.session(KEY, now));
        a.end(&t);
        assert!(!a.session(&t, now));
    }

    #[test]
    fn a_session_ends_when_idle_or_too_old_and_everywhere_at_once() {
        let a = Access::new(KEY.into());
        let t0 = Instant::now();
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let idle = token(a.sign_in(ip, KEY, t0));
        assert!(!a.session(&idle, t0 + SESSION_IDLE));
        // Used every few hours, a session still ends at its life's end.
        let used = token(a.sign_in(ip, KEY, t0));
        let mut t = t0;
        while t + Duration::from_secs(6 * 3600) < t0 + SESSION_LIFE {
            t += Duration::from_secs(6 * 3600);
            assert!(a.session(&used, t));
        }
        assert!(!a.session(&used, t0 + SESSION_LIFE));
        let one = token(a.sign_in(ip, KEY, t0));
        let two = token(a.sign_in(ip, KEY, t0));
        assert_eq!(a.end_all(), 2);
        assert!(!a.session(&one, t0) && !a.session(&two, t0));
    }

    #[test]
    fn wrong_keys_throttle_sign_in_per_address_and_per_ipv6_64_but_never_a_session() {
        let a = Access::new(KEY.into());
        let now = Instant::now();
        let director: IpAddr = "10.0.0.9".parse().unwrap();
        let t = token(a.sign_in(director, KEY, now));
        let v6a: IpAddr = "2001:db8::1".parse().unwrap();
        let v6b: IpAddr = "2001:db8::ffff:2".parse().unwrap();
        for i in 0..SIGN_IN_TRIES {
            let from = if i % 2 == 0 { v6a } else { v6b };
            assert!(matches!(a.sign_in(from, "guess", now), SignIn::Wrong));
        }
        // The whole /64 is held back, even with the right key.
        assert!(matches!(a.sign_in(v6b, KEY, now), SignIn::Throttled(_)));
        // Ninety more from other addresses reach the global brake.
        for i in 0..(GLOBAL_TRIES - SIGN_IN_TRIES) {
            let from: IpAddr = format!("10.1.{}.{}", i / 9, i % 9 + 1).parse().unwrap();
            assert!(matches!(a.sign_in(from, "guess", now), SignIn::Wrong));
        }
        assert!(matches!(
            a.sign_in(director, KEY, now),
            SignIn::Throttled(_)
        ));
        // The director already signed in is not touched by either brake.
        assert!(a.session(&t, now));
        // A minute later sign-in works again.
        assert!(matches!(
            a.sign_in(director, KEY, now + SIGN_IN_WINDOW),
            SignIn::Session(_)
        ));
    }
}
