//! Who may use the director's pages: the director key, sign-in sessions, and the brake on
//! guessing the key.
//!
//! Signing in with the key issues a session, carried by an `HttpOnly`, `SameSite=Strict` cookie
//! that never holds the key itself. With several `tilebag serve` processes behind a load
//! balancer (issue 31), any of them may get the next request, so a session is not kept in one
//! process's memory: the cookie is a signed token that every process holding the same director
//! key checks by itself, `BEGAN.USED.NONCE.MAC`:
//!
//! - `BEGAN`: when the director signed in, `USED`: when the token was issued (both Unix
//!   milliseconds), `NONCE`: 32 random characters naming the session;
//! - `MAC`: a keyed BLAKE2b MAC of the three, under a key derived from the director key
//!   (`tilebag_accounts::session::Token::csrf_token`, the accounts' MAC, as the primitive),
//!   compared in constant time. Nobody without the key can make or alter a token; a new key
//!   ends every session.
//!
//! A session ends when the director signs out, signs out everywhere, or leaves it unused for
//! [`SESSION_IDLE`] (and at the latest [`SESSION_LIFE`] after sign-in). "Unused" is kept in the
//! token: a request made more than [`RENEW_AFTER`] after the token was issued gets a fresh
//! cookie (same session, `USED` now), so a director at work stays signed in and an idle cookie
//! runs out wherever it is presented.
//!
//! Signing out must hold on every process and survive restarts, so the sign-outs are written to
//! a small file in the events folder, [`SIGN_OUTS_FILE`], which every process of the service
//! shares (they share that folder for the events anyway): a line per session signed out (its
//! nonce, until the session would have ended anyway) and a line per "sign out everywhere"
//! (sessions begun before it are over). Each check looks at the file's size and time and
//! reads it again when it changed. Only a valid session can add a line (sign out needs the
//! cookie, sign out everywhere a signed-in director), so strangers cannot grow it. A file that
//! cannot be read refuses every session (and says why in the log): a sign-out must never be
//! forgotten. Deleting the file would bring sessions signed out back: change the key instead.
//! Sessions survive a restart of the server (they are not in its memory).
//!
//! Only sign-in attempts are throttled: [`SIGN_IN_TRIES`] wrong keys from one address (an IPv6
//! address counts by its /64) within [`SIGN_IN_WINDOW`], or [`GLOBAL_TRIES`] from all, and no key
//! is checked until the window has passed. The counts are each process's own: behind a load
//! balancer over N processes a guesser gets at most N times as many tries a minute (still a
//! few hundred against a key of 16 characters or more, 158 bits when generated). A request with a
//! session cookie is never throttled: a stranger guessing keys cannot lock out a director who is
//! signed in, and a session token is not worth guessing.

use std::collections::{HashMap, VecDeque};
use std::io::Write as _;
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant, SystemTime};
use tilebag_accounts::session::Token;
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
/// A token issued longer ago than this is replaced by a fresh one (same session) when used.
pub(crate) const RENEW_AFTER: Duration = Duration::from_secs(5 * 60);
/// How far ahead of this process's clock a token's times may be (another process's clock).
const CLOCK_SKEW_MS: i64 = 5 * 60 * 1000;
/// The file of sign-outs in the events folder.
pub(crate) const SIGN_OUTS_FILE: &str = "director-sign-outs.txt";
/// The longest cookie value read as a token.
const MAX_TOKEN: usize = 160;
const NONCE_LEN: usize = 32;

/// The outcome of a sign-in attempt.
pub(crate) enum SignIn {
    /// The key was right: the new session's token, for the cookie.
    Session(String),
    Wrong,
    /// Not checked: too many wrong keys lately (the reason, for the page).
    Throttled(&'static str),
}

/// What a presented session token is worth.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Checked {
    /// Not a live session.
    Refused,
    /// A live session.
    Valid,
    /// A live session whose token should be replaced by this one (see [`RENEW_AFTER`]).
    Renew(String),
}

/// A token as read from a cookie (its MAC checked).
struct Session {
    began_ms: i64,
    used_ms: i64,
    nonce: String,
}

/// The key, the sign-outs, and the recent wrong keys.
pub(crate) struct Access {
    key: String,
    /// The sessions' MAC key, derived from the director key.
    mac: Token,
    /// An instant and the wall-clock time at it: callers pass `Instant`s, tokens hold Unix
    /// times (every process reads the same ones).
    origin: (Instant, i64),
    sign_outs: SignOuts,
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

/// The sessions signed out: in memory, and in the shared file (see the module's notes).
struct SignOuts {
    /// `None`: memory only (this module's tests).
    file: Option<PathBuf>,
    state: Mutex<SignedOut>,
}

#[derive(Default)]
struct SignedOut {
    /// The file's size and time when last read.
    seen: Option<(u64, SystemTime)>,
    /// Sessions signed out, by nonce: when each would have ended anyway (Unix ms).
    ended: HashMap<String, i64>,
    /// Sessions begun at or before this time (Unix ms) are over ("sign out everywhere").
    everywhere_ms: i64,
}

impl SignedOut {
    fn ends(&self, s: &Session) -> bool {
        s.began_ms <= self.everywhere_ms || self.ended.contains_key(&s.nonce)
    }

    /// Takes in one line of the file; a line that does not read is skipped.
    fn take_line(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        match (words.next(), words.next(), words.next(), words.next()) {
            (Some("signed-out"), Some(nonce), Some(until), None) if plausible_nonce(nonce) => {
                if let Ok(until) = until.parse::<i64>() {
                    self.ended.insert(nonce.to_string(), until);
                }
            }
            (Some("everywhere"), Some(at), None, None) => {
                if let Ok(at) = at.parse::<i64>() {
                    self.everywhere_ms = self.everywhere_ms.max(at);
                }
            }
            _ => {}
        }
    }
}

impl SignOuts {
    /// Brings the list up to date with the file, if it changed since it was last read.
    fn refresh(&self, st: &mut SignedOut, now_ms: i64) -> Result<(), String> {
        let Some(path) = &self.file else {
            return Ok(());
        };
        let cannot = |e: std::io::Error| format!("cannot read {}: {e}", path.display());
        let meta = match std::fs::metadata(path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(cannot(e)),
        };
        let stamp = (meta.len(), meta.modified().map_err(cannot)?);
        if st.seen == Some(stamp) {
            return Ok(());
        }
        let text = std::fs::read_to_string(path).map_err(cannot)?;
        for line in text.lines() {
            st.take_line(line);
        }
        st.ended.retain(|_, until| *until > now_ms);
        st.seen = Some(stamp);
        Ok(())
    }

    /// Appends `line` to the file (made if missing), on disk before this returns.
    fn record(&self, line: &str) -> Result<(), String> {
        let Some(path) = &self.file else {
            return Ok(());
        };
        let write = || -> std::io::Result<()> {
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)?;
            }
            let mut f = std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)?;
            // One write of one short line: appends of several processes do not interleave.
            f.write_all(format!("{line}\n").as_bytes())?;
            f.sync_data()
        };
        write().map_err(|e| format!("cannot write {}: {e}", path.display()))
    }
}

/// Whether `s` can be a session's nonce (what `tilebag_live::ids::token` makes).
fn plausible_nonce(s: &str) -> bool {
    s.len() == NONCE_LEN && s.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// A time in a token: 1 to 15 digits.
fn read_ms(s: &str) -> Option<i64> {
    if s.is_empty() || s.len() > 15 || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn ms(d: Duration) -> i64 {
    d.as_millis() as i64
}

impl Access {
    /// The director key `key`; sign-outs are kept in `sign_outs` (the events folder's
    /// [`SIGN_OUTS_FILE`]), or in memory only when `None`.
    pub(crate) fn new(key: String, sign_outs: Option<&Path>) -> Access {
        let wall = SystemTime::now()
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, ms);
        Access {
            mac: mac_key(&key),
            key,
            origin: (Instant::now(), wall),
            sign_outs: SignOuts {
                file: sign_outs.map(Path::to_path_buf),
                state: Mutex::new(SignedOut::default()),
            },
            failures: Mutex::new(Failures::default()),
        }
    }

    /// `now` as Unix milliseconds.
    fn wall_ms(&self, now: Instant) -> i64 {
        let (i0, w0) = self.origin;
        match now.checked_duration_since(i0) {
            Some(d) => w0 + ms(d),
            None => w0 - ms(i0 - now),
        }
    }

    fn mac_of(&self, began_ms: i64, used_ms: i64, nonce: &str) -> String {
        self.mac.csrf_token(&mac_message(began_ms, used_ms, nonce))
    }

    fn token_of(&self, s: &Session) -> String {
        format!(
            "{}.{}.{}.{}",
            s.began_ms,
            s.used_ms,
            s.nonce,
            self.mac_of(s.began_ms, s.used_ms, &s.nonce)
        )
    }

    /// The session a token names, if this key signed it.
    fn read(&self, token: &str) -> Option<Session> {
        if token.len() > MAX_TOKEN {
            return None;
        }
        let mut parts = token.split('.');
        let (began, used, nonce, mac) =
            (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() || !plausible_nonce(nonce) {
            return None;
        }
        let (began_ms, used_ms) = (read_ms(began)?, read_ms(used)?);
        // Constant-time comparison of the MACs.
        if !self
            .mac
            .check_csrf(&mac_message(began_ms, used_ms, nonce), mac)
        {
            return None;
        }
        Some(Session {
            began_ms,
            used_ms,
            nonce: nonce.to_string(),
        })
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
        if !tilebag_live::ids::same_secret(key, &self.key) {
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
        let now_ms = self.wall_ms(now);
        let mut st = self.sign_outs.state.lock().expect("sign-outs lock");
        // A session begun in the very millisecond of a "sign out everywhere" would be over at
        // once (the file unreadable: the session will be refused when used, and the log says
        // why).
        let _ = self.sign_outs.refresh(&mut st, now_ms);
        let began_ms = now_ms.max(st.everywhere_ms + 1);
        SignIn::Session(self.token_of(&Session {
            began_ms,
            used_ms: began_ms,
            nonce: tilebag_live::ids::token(),
        }))
    }

    /// What `token` is worth at `now`: a live session (perhaps to be renewed), or nothing.
    pub(crate) fn check(&self, token: &str, now: Instant) -> Checked {
        let now_ms = self.wall_ms(now);
        let Some(s) = self.read(token).filter(|s| alive(s, now_ms)) else {
            return Checked::Refused;
        };
        let mut st = self.sign_outs.state.lock().expect("sign-outs lock");
        if let Err(e) = self.sign_outs.refresh(&mut st, now_ms) {
            tracing::error!(error = %e, "the director's sign-outs cannot be read: every director session is refused until they can");
            return Checked::Refused;
        }
        if st.ends(&s) {
            return Checked::Refused;
        }
        if now_ms - s.used_ms >= ms(RENEW_AFTER) {
            return Checked::Renew(self.token_of(&Session {
                used_ms: now_ms,
                ..s
            }));
        }
        Checked::Valid
    }

    /// Whether `token` is a live session at `now`.
    pub(crate) fn session(&self, token: &str, now: Instant) -> bool {
        self.check(token, now) != Checked::Refused
    }

    /// Ends one session (sign out), on every process. A token that is no live session records
    /// nothing.
    pub(crate) fn end(&self, token: &str, now: Instant) -> Result<(), String> {
        let now_ms = self.wall_ms(now);
        let Some(s) = self.read(token).filter(|s| alive(s, now_ms)) else {
            return Ok(());
        };
        let until = s.began_ms + ms(SESSION_LIFE);
        let mut st = self.sign_outs.state.lock().expect("sign-outs lock");
        st.ended.insert(s.nonce.clone(), until);
        self.sign_outs
            .record(&format!("signed-out {} {until}", s.nonce))
    }

    /// Ends every session begun until `now` (sign out everywhere), on every process.
    pub(crate) fn end_all(&self, now: Instant) -> Result<(), String> {
        let now_ms = self.wall_ms(now);
        let mut st = self.sign_outs.state.lock().expect("sign-outs lock");
        st.everywhere_ms = st.everywhere_ms.max(now_ms);
        self.sign_outs.record(&format!("everywhere {now_ms}"))
    }
}

/// What a session token's MAC is of.
fn mac_message(began_ms: i64, used_ms: i64, nonce: &str) -> String {
    format!("tilebag director session {began_ms} {used_ms} {nonce}")
}

/// The sessions' MAC key, from the director key: a MAC (keyed BLAKE2b, under a fixed key) of
/// the director key, so the key itself is never the MAC's key and another use of it cannot
/// make a session.
fn mac_key(key: &str) -> Token {
    let derived =
        Token::from_bytes([0; 32]).csrf_token(&format!("tilebag director sessions {key}"));
    // A MAC is 32 bytes, and its text is a token's 43 characters.
    Token::parse(&derived).expect("a 32-byte MAC reads as a token")
}

/// Whether a session is live at `now_ms` by its times (and not from too far in the future).
fn alive(s: &Session, now_ms: i64) -> bool {
    s.began_ms <= s.used_ms
        && s.used_ms - now_ms <= CLOCK_SKEW_MS
        && now_ms - s.used_ms < ms(SESSION_IDLE)
        && now_ms - s.began_ms < ms(SESSION_LIFE)
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

    fn ip() -> IpAddr {
        "10.0.0.1".parse().unwrap()
    }

    /// A fresh folder for a sign-outs file.
    fn folder(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!(
            "tilebag-director-access-{}-{name}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&d);
        d
    }

    #[test]
    fn signing_in_issues_a_session_token_that_is_not_the_key() {
        let a = Access::new(KEY.into(), None);
        let now = Instant::now();
        let t = token(a.sign_in(ip(), KEY, now));
        assert!(!t.contains(KEY));
        assert!(a.session(&t, now));
        // The key itself opens nothing as a cookie.
        assert!(!a.session(KEY, now));
        a.end(&t, now).unwrap();
        assert!(!a.session(&t, now));
    }

    #[test]
    fn a_session_ends_when_idle_or_too_old_and_everywhere_at_once() {
        let a = Access::new(KEY.into(), None);
        let t0 = Instant::now();
        let idle = token(a.sign_in(ip(), KEY, t0));
        assert!(a.session(&idle, t0 + SESSION_IDLE - Duration::from_secs(1)));
        assert!(!a.session(&idle, t0 + SESSION_IDLE));
        // Used every few hours (each use renews the cookie), a session still ends at its
        // life's end.
        let mut used = token(a.sign_in(ip(), KEY, t0));
        let mut t = t0;
        while t + Duration::from_secs(6 * 3600) < t0 + SESSION_LIFE {
            t += Duration::from_secs(6 * 3600);
            match a.check(&used, t) {
                Checked::Renew(fresh) => used = fresh,
                other => panic!("after {:?}: {other:?}", t - t0),
            }
        }
        assert_eq!(a.check(&used, t0 + SESSION_LIFE), Checked::Refused);
        // A token used again within a few minutes is not renewed.
        let one = token(a.sign_in(ip(), KEY, t0));
        assert_eq!(a.check(&one, t0 + Duration::from_secs(60)), Checked::Valid);
        let two = token(a.sign_in(ip(), KEY, t0));
        a.end_all(t0 + Duration::from_millis(1)).unwrap();
        assert!(!a.session(&one, t0) && !a.session(&two, t0));
        // Signing in afterwards opens a session again.
        let three = token(a.sign_in(ip(), KEY, t0 + Duration::from_millis(1)));
        assert!(a.session(&three, t0 + Duration::from_millis(2)));
    }

    #[test]
    fn a_session_opened_on_one_process_works_on_another_and_signing_out_holds_on_both() {
        let dir = folder("two-processes");
        let file = dir.join(SIGN_OUTS_FILE);
        let alpha = Access::new(KEY.into(), Some(&file));
        let beta = Access::new(KEY.into(), Some(&file));
        let other_key = Access::new("another-director-key-entirely".into(), Some(&file));
        let now = Instant::now();
        let t = token(alpha.sign_in(ip(), KEY, now));
        let u = token(alpha.sign_in(ip(), KEY, now));
        assert!(
            beta.session(&t, now),
            "the same key checks the token anywhere"
        );
        assert!(!other_key.session(&t, now), "another key does not");
        // Changing any part of the token breaks its MAC.
        let parts: Vec<&str> = t.split('.').collect();
        let later = (parts[1].parse::<i64>().unwrap() + 3_600_000).to_string();
        let forged = [parts[0], &later, parts[2], parts[3]].join(".");
        assert!(!beta.session(&forged, now));
        // Signing out on alpha ends the session on beta, and on a process started afterwards.
        alpha.end(&t, now).unwrap();
        assert!(!beta.session(&t, now));
        assert!(beta.session(&u, now));
        assert!(!Access::new(KEY.into(), Some(&file)).session(&t, now));
        // Signing out everywhere on beta ends alpha's sessions; a new sign-in works on both.
        beta.end_all(now + Duration::from_millis(1)).unwrap();
        assert!(!alpha.session(&u, now + Duration::from_millis(2)));
        let v = token(alpha.sign_in(ip(), KEY, now + Duration::from_millis(1)));
        assert!(beta.session(&v, now + Duration::from_millis(2)));
        // A cookie that is no session adds nothing to the file.
        let before = std::fs::read_to_string(&file).unwrap();
        alpha.end("1.2.abc.def", now).unwrap();
        alpha.end(&forged, now).unwrap();
        assert_eq!(std::fs::read_to_string(&file).unwrap(), before);
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn hostile_cookies_open_nothing_and_an_unreadable_sign_out_file_refuses_every_session() {
        let dir = folder("hostile");
        let a = Access::new(KEY.into(), Some(&dir.join(SIGN_OUTS_FILE)));
        let now = Instant::now();
        let t = token(a.sign_in(ip(), KEY, now));
        let long = "9".repeat(500);
        for bad in [
            "",
            ".",
            "...",
            "1.1.x.y",
            "99999999999999999999.1.abc.def",
            long.as_str(),
            format!("{t}.extra").as_str(),
            t.replace('.', ",").as_str(),
            &t[..t.len() - 1],
        ] {
            assert_eq!(a.check(bad, now), Checked::Refused, "{bad:?}");
        }
        // The file cannot be read (here: a folder stands in its place): sessions are refused
        // rather than a sign-out forgotten.
        std::fs::create_dir_all(dir.join(SIGN_OUTS_FILE)).unwrap();
        assert_eq!(a.check(&t, now), Checked::Refused);
        assert!(a.end_all(now).is_err(), "an unrecorded sign-out says so");
        let _ = std::fs::remove_dir_all(dir);
    }

    #[test]
    fn wrong_keys_throttle_sign_in_per_address_and_per_ipv6_64_but_never_a_session() {
        let a = Access::new(KEY.into(), None);
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
