//! Sessions: random tokens in an `HttpOnly` cookie, stored server-side only as a hash; when a
//! session expires; CSRF tokens; the cookie header.
//!
//! # Tokens
//!
//! A [`Token`] is 32 random bytes (256 bits), written as 43 characters of URL-safe base64
//! without padding. The cookie carries the token; the store keeps only [`Token::hash`] (BLAKE2b
//! with a personalisation string, 32 bytes), so a copy of the database does not hold a single
//! usable session. A request's token is hashed and looked up by that hash; the lookup's timing
//! reveals nothing useful because the attacker cannot choose a hash's preimage. The same type
//! serves the long-lived "known device" cookie ([`DEVICE_COOKIE`]) that the sign-in throttle
//! trusts ([`crate::throttle`]).
//!
//! A new token is issued at every sign-in (never reused across accounts or sign-ins), so a token
//! planted in a browser before sign-in (session fixation) is worth nothing after it.
//!
//! # Expiry ([`SessionPolicy`])
//!
//! A session ends at whichever comes first: [`SessionPolicy::idle_timeout_ms`] after its last
//! use (default 30 days: a player who comes back each month stays signed in) or
//! [`SessionPolicy::absolute_lifetime_ms`] after it was made (default 90 days: even a session
//! in daily use is renewed by signing in, so a stolen cookie does not last for ever). The last
//! use is written back at most once per [`SessionPolicy::touch_interval_ms`] (default 5
//! minutes), not on every request.
//!
//! # Signing out ([`SignOut`])
//!
//! The store deletes session rows; there is no "revoked" flag to forget to check.
//! `SignOut::ThisSession` deletes the row of the token presented. `SignOut::Everywhere` ("sign
//! out everywhere") deletes every session of the account, the one presented included: every
//! browser, on the next request, finds no session and is signed out. After a password change
//! the store applies `SignOut::EverywhereElse` (every session of the account but the one that
//! made the change) and then replaces that one too with a new token. Known-device rows are
//! deleted with `Everywhere` as well (the throttle's trust goes with the sessions).
//!
//! # CSRF
//!
//! The session cookie is `SameSite=Lax`, which already keeps other sites' forms from carrying it
//! on a POST; as a second wall every state-changing form and request carries
//! [`Token::csrf_token`]: a keyed BLAKE2b MAC of a purpose string (e.g. `"seek"`, `"chat"`)
//! under the session token itself. It needs no storage, differs per session and per purpose,
//! cannot be computed without the cookie (which scripts cannot read: `HttpOnly`), and reveals
//! nothing about the session token. [`Token::check_csrf`] compares in constant time.

use crate::AccountId;
use base64ct::{Base64UrlUnpadded, Encoding};
use blake2::digest::consts::U32;
use blake2::digest::Mac;
use blake2::Blake2bMac;
use ctutils::CtEq;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Random bytes in a token.
pub const TOKEN_BYTES: usize = 32;
/// Characters in a token's text: 32 bytes in unpadded base64 = ⌈32 × 8 / 6⌉ = 43.
pub const TOKEN_TEXT_LEN: usize = 43;

/// The session cookie's name over plain HTTP (development, a LAN).
pub const SESSION_COOKIE: &str = "tilebag_session";
/// The session cookie's name over HTTPS: the `__Host-` prefix makes browsers insist on
/// `Secure`, `Path=/` and no `Domain`, so a sibling sub-domain cannot set or shadow it.
pub const SESSION_COOKIE_SECURE: &str = "__Host-tilebag_session";
/// The known-device cookie's name (plain HTTP; over HTTPS see [`cookie_name`]).
pub const DEVICE_COOKIE: &str = "tilebag_device";

/// The name to use for a cookie: `base` as is, or with the `__Host-` prefix over HTTPS.
pub fn cookie_name(base: &str, secure: bool) -> String {
    if secure {
        format!("__Host-{base}")
    } else {
        base.to_string()
    }
}

fn keyed_blake2b(key: Option<&[u8]>, persona: &[u8], parts: &[&[u8]]) -> [u8; 32] {
    // Key at most 64 bytes, persona at most 16: the callers pass constants within both.
    let mut mac = Blake2bMac::<U32>::new_with_salt_and_personal(key, &[], persona)
        .expect("key ≤ 64 bytes and persona ≤ 16 bytes");
    for part in parts {
        // Length-prefixed, so ("ab","c") and ("a","bc") differ.
        mac.update(&(part.len() as u64).to_le_bytes());
        mac.update(part);
    }
    mac.finalize().into_bytes().into()
}

/// A session (or known-device) token: the secret that only the cookie holds.
#[derive(Clone, PartialEq, Eq)]
pub struct Token([u8; TOKEN_BYTES]);

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never print the secret (logs, panics).
        f.write_str("Token(..)")
    }
}

/// Why a presented token was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TokenError {
    #[error("a token has {TOKEN_TEXT_LEN} characters; this one has {0}")]
    WrongLength(usize),
    #[error("a token is URL-safe base64; this one is not")]
    NotBase64,
}

impl Token {
    /// A fresh token from the operating system's random number generator.
    pub fn generate() -> Result<Token, getrandom::Error> {
        Ok(Token(crate::random_bytes::<TOKEN_BYTES>()?))
    }

    /// A token from bytes the caller drew (tests, or another random source).
    pub fn from_bytes(bytes: [u8; TOKEN_BYTES]) -> Token {
        Token(bytes)
    }

    /// The token as cookie text: 43 characters of URL-safe base64, no padding.
    pub fn to_text(&self) -> String {
        Base64UrlUnpadded::encode_string(&self.0)
    }

    /// Reads a token from cookie text (strict: exactly 43 canonical characters).
    pub fn parse(text: &str) -> Result<Token, TokenError> {
        if text.len() != TOKEN_TEXT_LEN {
            return Err(TokenError::WrongLength(text.len()));
        }
        let mut bytes = [0u8; TOKEN_BYTES];
        let decoded =
            Base64UrlUnpadded::decode(text, &mut bytes).map_err(|_| TokenError::NotBase64)?;
        if decoded.len() != TOKEN_BYTES {
            return Err(TokenError::NotBase64);
        }
        Ok(Token(bytes))
    }

    /// What the store keeps and looks sessions up by.
    pub fn hash(&self) -> TokenHash {
        TokenHash(keyed_blake2b(None, b"tilebag-session", &[&self.0]))
    }

    /// The CSRF token for `purpose` under this session: URL-safe base64 of a keyed BLAKE2b MAC
    /// (key: the session token; message: the purpose). Same session and purpose, same token.
    pub fn csrf_token(&self, purpose: &str) -> String {
        Base64UrlUnpadded::encode_string(&self.csrf_mac(purpose))
    }

    fn csrf_mac(&self, purpose: &str) -> [u8; 32] {
        keyed_blake2b(Some(&self.0), b"tilebag-csrf", &[purpose.as_bytes()])
    }

    /// Whether `presented` is this session's CSRF token for `purpose`. The MACs are compared
    /// in constant time, so the time taken does not tell how many bytes of a guess were right.
    pub fn check_csrf(&self, purpose: &str, presented: &str) -> bool {
        let mut given = [0u8; 32];
        match Base64UrlUnpadded::decode(presented, &mut given) {
            Ok(d) if d.len() == 32 => {}
            _ => return false,
        }
        self.csrf_mac(purpose).ct_eq(&given).into()
    }
}

/// The hash of a token, as stored (hex text, 64 characters, in a database column).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct TokenHash(pub [u8; 32]);

impl TokenHash {
    /// Lower-case hex.
    pub fn to_hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }

    /// Reads 64 hex digits.
    pub fn from_hex(s: &str) -> Option<TokenHash> {
        if s.len() != 64 || !s.is_ascii() {
            return None;
        }
        let mut out = [0u8; 32];
        for (i, byte) in out.iter_mut().enumerate() {
            *byte = u8::from_str_radix(&s[2 * i..2 * i + 2], 16).ok()?;
        }
        Some(TokenHash(out))
    }
}

impl fmt::Debug for TokenHash {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "TokenHash({})", self.to_hex())
    }
}

impl TryFrom<String> for TokenHash {
    type Error = String;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        TokenHash::from_hex(&s).ok_or_else(|| format!("not a token hash: {s:?}"))
    }
}

impl From<TokenHash> for String {
    fn from(h: TokenHash) -> String {
        h.to_hex()
    }
}

/// A stored session: the row the store keeps (never the token itself).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Session {
    /// The account signed in.
    pub account_id: AccountId,
    /// [`Token::hash`] of the cookie's token.
    pub token_hash: TokenHash,
    /// When it was made (ms since the Unix epoch).
    pub created_ms: u64,
    /// When it was last used, as last written back.
    pub last_seen_ms: u64,
}

impl Session {
    /// A new session for an account: the token for the cookie and the row for the store.
    pub fn start(account_id: AccountId, token: &Token, now_ms: u64) -> Session {
        Session {
            account_id,
            token_hash: token.hash(),
            created_ms: now_ms,
            last_seen_ms: now_ms,
        }
    }
}

/// How long sessions last (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SessionPolicy {
    /// A session unused this long is over.
    pub idle_timeout_ms: u64,
    /// A session this old is over, however much it is used.
    pub absolute_lifetime_ms: u64,
    /// The last use is written back when it is at least this stale.
    pub touch_interval_ms: u64,
}

const MINUTE_MS: u64 = 60_000;
const DAY_MS: u64 = 24 * 60 * MINUTE_MS;

impl Default for SessionPolicy {
    fn default() -> Self {
        SessionPolicy {
            idle_timeout_ms: 30 * DAY_MS,
            absolute_lifetime_ms: 90 * DAY_MS,
            touch_interval_ms: 5 * MINUTE_MS,
        }
    }
}

/// Why a session is over.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Expiry {
    /// Unused for longer than the idle timeout.
    Idle,
    /// Older than the absolute lifetime.
    Absolute,
}

/// What to do with a session presented at `now_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SessionCheck {
    /// Signed in. `touch`: write `last_seen_ms = now_ms` back to the store.
    Valid { touch: bool },
    /// Over: delete the row, clear the cookie, treat the request as signed out.
    Expired(Expiry),
}

impl SessionPolicy {
    /// The moment a session ends if it is not used again.
    pub fn expires_at_ms(&self, session: &Session) -> u64 {
        let idle_end = session.last_seen_ms.saturating_add(self.idle_timeout_ms);
        let absolute_end = session.created_ms.saturating_add(self.absolute_lifetime_ms);
        idle_end.min(absolute_end)
    }

    /// Checks a session presented at `now_ms`. The absolute lifetime is checked first, so a
    /// session past both limits reports `Absolute`.
    pub fn check(&self, session: &Session, now_ms: u64) -> SessionCheck {
        if now_ms >= session.created_ms.saturating_add(self.absolute_lifetime_ms) {
            return SessionCheck::Expired(Expiry::Absolute);
        }
        if now_ms >= session.last_seen_ms.saturating_add(self.idle_timeout_ms) {
            return SessionCheck::Expired(Expiry::Idle);
        }
        SessionCheck::Valid {
            touch: now_ms.saturating_sub(session.last_seen_ms) >= self.touch_interval_ms,
        }
    }

    /// The cookie's `Max-Age` in seconds after a use at `now_ms`: until the absolute end
    /// (the server decides idleness; the browser only needs to keep the cookie long enough).
    pub fn cookie_max_age_s(&self, session: &Session, now_ms: u64) -> u64 {
        session
            .created_ms
            .saturating_add(self.absolute_lifetime_ms)
            .saturating_sub(now_ms)
            / 1000
    }
}

/// Which sessions a sign-out deletes (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum SignOut {
    /// The session presented.
    ThisSession,
    /// Every session of the account, the one presented included.
    Everywhere,
    /// Every session of the account except the one presented (after a password change).
    EverywhereElse,
}

impl SignOut {
    /// Whether the store deletes `row` when `current` (the presenter's session) signs out this
    /// way. Sessions of other accounts are never touched.
    pub fn deletes(self, current: &Session, row: &Session) -> bool {
        if row.account_id != current.account_id {
            return false;
        }
        let same = row.token_hash == current.token_hash;
        match self {
            SignOut::ThisSession => same,
            SignOut::Everywhere => true,
            SignOut::EverywhereElse => !same,
        }
    }
}

/// The `SameSite` attribute of a cookie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SameSite {
    /// Sent on top-level navigations from other sites (following a link), not on their POSTs,
    /// images or scripts: the session cookie's setting.
    Lax,
    /// Never sent from another site.
    Strict,
}

/// A `Set-Cookie` header value. Always `HttpOnly` (scripts never read our cookies) and
/// `Path=/`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cookie {
    name: String,
    value: String,
    max_age_s: u64,
    secure: bool,
    same_site: SameSite,
}

/// Why a cookie could not be built.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CookieError {
    #[error(
        "a cookie name must be a non-empty token of letters, digits and !#$%&'*+-.^_`|~: {0:?}"
    )]
    BadName(String),
    #[error("a cookie value must not contain spaces, quotes, commas, semicolons, backslashes or control characters: {0:?}")]
    BadValue(String),
    #[error("a cookie named {0:?} must be Secure (the __Host- and __Secure- prefixes demand it)")]
    PrefixNeedsSecure(String),
}

fn is_token_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "!#$%&'*+-.^_`|~".contains(c)
}

fn is_cookie_value_char(c: char) -> bool {
    // RFC 6265 cookie-octet: visible ASCII except DQUOTE, comma, semicolon and backslash.
    c.is_ascii_graphic() && !matches!(c, '"' | ',' | ';' | '\\')
}

impl Cookie {
    /// A cookie `name=value` kept `max_age_s` seconds, `Secure` if asked, `SameSite=Lax`.
    /// The name and value are checked, so nothing can be smuggled into the header.
    pub fn new(
        name: &str,
        value: &str,
        max_age_s: u64,
        secure: bool,
    ) -> Result<Cookie, CookieError> {
        if name.is_empty() || !name.chars().all(is_token_char) {
            return Err(CookieError::BadName(name.to_string()));
        }
        if !value.chars().all(is_cookie_value_char) {
            return Err(CookieError::BadValue(value.to_string()));
        }
        if (name.starts_with("__Host-") || name.starts_with("__Secure-")) && !secure {
            return Err(CookieError::PrefixNeedsSecure(name.to_string()));
        }
        Ok(Cookie {
            name: name.to_string(),
            value: value.to_string(),
            max_age_s,
            secure,
            same_site: SameSite::Lax,
        })
    }

    /// The session cookie for a token: named [`SESSION_COOKIE`], or [`SESSION_COOKIE_SECURE`]
    /// over HTTPS.
    pub fn session(token: &Token, max_age_s: u64, secure: bool) -> Cookie {
        let name = if secure {
            SESSION_COOKIE_SECURE
        } else {
            SESSION_COOKIE
        };
        Cookie::new(name, &token.to_text(), max_age_s, secure)
            .expect("a constant name and base64url text are valid")
    }

    /// The known-device cookie for a token (`__Host-` prefixed over HTTPS).
    pub fn device(token: &Token, max_age_s: u64, secure: bool) -> Cookie {
        Cookie::new(
            &cookie_name(DEVICE_COOKIE, secure),
            &token.to_text(),
            max_age_s,
            secure,
        )
        .expect("a constant name and base64url text are valid")
    }

    /// The header that makes the browser forget the cookie `name` (empty value, `Max-Age=0`).
    pub fn removal(name: &str, secure: bool) -> Result<Cookie, CookieError> {
        Cookie::new(name, "", 0, secure)
    }

    /// Sets `SameSite=Strict` instead of `Lax`.
    pub fn strict(mut self) -> Cookie {
        self.same_site = SameSite::Strict;
        self
    }

    /// The cookie's name.
    pub fn name(&self) -> &str {
        &self.name
    }
}

impl fmt::Display for Cookie {
    /// `name=value; Max-Age=N; Path=/; HttpOnly; SameSite=Lax[; Secure]`
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}={}; Max-Age={}; Path=/; HttpOnly; SameSite={}",
            self.name,
            self.value,
            self.max_age_s,
            match self.same_site {
                SameSite::Lax => "Lax",
                SameSite::Strict => "Strict",
            }
        )?;
        if self.secure {
            f.write_str("; Secure")?;
        }
        Ok(())
    }
}

/// The value of cookie `name` in a request's `Cookie` header (`a=1; b=2`), if present. The
/// first one wins when a name repeats.
pub fn cookie_value<'h>(header: &'h str, name: &str) -> Option<&'h str> {
    header.split(';').find_map(|pair| {
        let (n, v) = pair.trim().split_once('=')?;
        (n.trim() == name).then(|| v.trim())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAY: u64 = DAY_MS;

    fn token(n: u8) -> Token {
        Token::from_bytes([n; TOKEN_BYTES])
    }

    #[test]
    fn a_token_is_43_url_safe_characters_and_reads_back() {
        let t = Token::generate().unwrap();
        let text = t.to_text();
        assert_eq!(text.len(), TOKEN_TEXT_LEN);
        assert!(
            text.chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_'),
            "{text}"
        );
        assert_eq!(Token::parse(&text).unwrap(), t);
        // Two draws differ (2^-256 chance of a false failure).
        assert_ne!(Token::generate().unwrap(), t);
        // 32 bytes = 256 bits = 42 characters × 6 bits + 4 bits. All ones: 42 × '_' (63),
        // then 1111 followed by two zero bits = 60 = '8'.
        assert_eq!(token(0xFF).to_text(), format!("{}8", "_".repeat(42)));
        assert_eq!(format!("{:?}", t), "Token(..)");
    }

    #[test]
    fn malformed_token_text_is_refused() {
        assert_eq!(Token::parse("abc"), Err(TokenError::WrongLength(3)));
        let mut bad = token(1).to_text();
        bad.replace_range(0..1, "+");
        assert_eq!(Token::parse(&bad), Err(TokenError::NotBase64));
        // A non-canonical last character (unused bits set) is refused too.
        let mut noncanonical = token(0).to_text();
        noncanonical.replace_range(42..43, "B");
        assert_eq!(Token::parse(&noncanonical), Err(TokenError::NotBase64));
    }

    #[test]
    fn the_store_keeps_a_hash_that_differs_from_the_token() {
        let t = token(3);
        let h = t.hash();
        assert_eq!(h, token(3).hash());
        assert_ne!(h, token(4).hash());
        assert_ne!(h.0, [3u8; 32]);
        let hex = h.to_hex();
        assert_eq!(hex.len(), 64);
        assert_eq!(TokenHash::from_hex(&hex), Some(h));
        assert_eq!(TokenHash::from_hex("zz"), None);
        assert_eq!(TokenHash::from_hex(&"g".repeat(64)), None);
    }

    #[test]
    fn sessions_expire_when_idle_or_too_old() {
        let p = SessionPolicy::default();
        let s = Session::start(7, &token(1), 1_000 * DAY);
        // Just made: valid, nothing to write back.
        assert_eq!(
            p.check(&s, 1_000 * DAY),
            SessionCheck::Valid { touch: false }
        );
        // 4 minutes later: still no write-back (touch interval 5 minutes).
        assert_eq!(
            p.check(&s, 1_000 * DAY + 4 * MINUTE_MS),
            SessionCheck::Valid { touch: false }
        );
        assert_eq!(
            p.check(&s, 1_000 * DAY + 5 * MINUTE_MS),
            SessionCheck::Valid { touch: true }
        );
        // Idle: last seen day 1000, idle timeout 30 days → over at day 1030.
        assert_eq!(
            p.check(&s, 1_030 * DAY - 1),
            SessionCheck::Valid { touch: true }
        );
        assert_eq!(
            p.check(&s, 1_030 * DAY),
            SessionCheck::Expired(Expiry::Idle)
        );
        // Used every 20 days, it survives idleness but ends at day 1000 + 90 = 1090.
        let mut used = s.clone();
        used.last_seen_ms = 1_080 * DAY;
        assert_eq!(
            p.check(&used, 1_089 * DAY),
            SessionCheck::Valid { touch: true }
        );
        assert_eq!(
            p.check(&used, 1_090 * DAY),
            SessionCheck::Expired(Expiry::Absolute)
        );
        assert_eq!(p.expires_at_ms(&s), 1_030 * DAY);
        assert_eq!(p.expires_at_ms(&used), 1_090 * DAY);
        // Max-Age after a use at day 1080: 10 days = 864,000 s.
        assert_eq!(p.cookie_max_age_s(&used, 1_080 * DAY), 864_000);
        assert_eq!(p.cookie_max_age_s(&used, 2_000 * DAY), 0);
    }

    #[test]
    fn sign_out_everywhere_deletes_all_of_the_accounts_sessions_and_no_others() {
        let here = Session::start(1, &token(1), 0);
        let phone = Session::start(1, &token(2), 10);
        let other_account = Session::start(2, &token(3), 20);
        let rows = [&here, &phone, &other_account];
        let deleted =
            |how: SignOut| -> Vec<bool> { rows.iter().map(|r| how.deletes(&here, r)).collect() };
        assert_eq!(deleted(SignOut::ThisSession), [true, false, false]);
        assert_eq!(deleted(SignOut::Everywhere), [true, true, false]);
        assert_eq!(deleted(SignOut::EverywhereElse), [false, true, false]);
    }

    #[test]
    fn csrf_tokens_are_per_session_and_purpose_and_checked() {
        let a = token(1);
        let b = token(2);
        let chat = a.csrf_token("chat");
        assert_eq!(chat, token(1).csrf_token("chat"));
        assert_eq!(chat.len(), TOKEN_TEXT_LEN);
        assert_ne!(chat, a.csrf_token("seek"));
        assert_ne!(chat, b.csrf_token("chat"));
        assert!(a.check_csrf("chat", &chat));
        assert!(!a.check_csrf("seek", &chat));
        assert!(!b.check_csrf("chat", &chat));
        assert!(!a.check_csrf("chat", ""));
        assert!(!a.check_csrf("chat", "not base64 at all!"));
        // One character changed.
        let mut tampered = chat.clone();
        let first = if tampered.starts_with('A') { "B" } else { "A" };
        tampered.replace_range(0..1, first);
        assert!(!a.check_csrf("chat", &tampered));
        // The CSRF token does not reveal the session's stored hash or the token.
        assert_ne!(chat, a.to_text());
        assert_ne!(
            Base64UrlUnpadded::decode_vec(&chat).unwrap(),
            a.hash().0.to_vec()
        );
    }

    #[test]
    fn cookie_headers() {
        let t = token(0);
        let text = t.to_text();
        assert_eq!(
            Cookie::session(&t, 3600, false).to_string(),
            format!("tilebag_session={text}; Max-Age=3600; Path=/; HttpOnly; SameSite=Lax")
        );
        assert_eq!(
            Cookie::session(&t, 60, true).to_string(),
            format!(
                "__Host-tilebag_session={text}; Max-Age=60; Path=/; HttpOnly; SameSite=Lax; Secure"
            )
        );
        assert_eq!(
            Cookie::removal("tilebag_session", false)
                .unwrap()
                .to_string(),
            "tilebag_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax"
        );
        assert_eq!(Cookie::device(&t, 1, true).name(), "__Host-tilebag_device");
        assert_eq!(
            Cookie::new("x", "1", 5, false)
                .unwrap()
                .strict()
                .to_string(),
            "x=1; Max-Age=5; Path=/; HttpOnly; SameSite=Strict"
        );
        // Nothing can be smuggled into the header.
        assert!(matches!(
            Cookie::new("x", "1; Domain=evil", 5, false),
            Err(CookieError::BadValue(_))
        ));
        assert!(matches!(
            Cookie::new("a b", "1", 5, false),
            Err(CookieError::BadName(_))
        ));
        assert!(matches!(
            Cookie::new("", "1", 5, false),
            Err(CookieError::BadName(_))
        ));
        assert!(matches!(
            Cookie::new("__Host-x", "1", 5, false),
            Err(CookieError::PrefixNeedsSecure(_))
        ));
    }

    #[test]
    fn reading_a_cookie_header() {
        let h = "theme=dark; tilebag_session=abc=def ;  other=1; tilebag_session=second";
        assert_eq!(cookie_value(h, "tilebag_session"), Some("abc=def"));
        assert_eq!(cookie_value(h, "theme"), Some("dark"));
        assert_eq!(cookie_value(h, "missing"), None);
        assert_eq!(cookie_value("", "x"), None);
    }

    #[test]
    fn session_rows_serialise_with_the_hash_as_hex() {
        use serde::de::value::Error;
        use serde::de::IntoDeserializer;
        let s = Session::start(9, &token(5), 123);
        // Round-trip the hash through its string form, as a database column would.
        let text: String = s.token_hash.into();
        let back: Result<TokenHash, Error> =
            TokenHash::deserialize(text.clone().into_deserializer());
        assert_eq!(back.unwrap(), s.token_hash);
        let bad: Result<TokenHash, Error> =
            TokenHash::deserialize("nope".to_string().into_deserializer());
        assert!(bad.is_err());
    }
}
