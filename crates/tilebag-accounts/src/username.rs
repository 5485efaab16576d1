//! Usernames: what a name may look like, which names are reserved, and the look-alike
//! skeleton that keeps a new name from impersonating an existing one.
//!
//! A name has 3–20 characters: ASCII letters, digits, `_` and `-`; it starts with a letter, does
//! not end with `_` or `-`, and has no two of them in a row. Case is kept for display but never
//! distinguishes two accounts.
//!
//! The skeleton ([`skeleton`]) folds what a reader could mistake for each other: case, the
//! separators (`_`, `-`), `rn`/`m`, `vv`/`w`, `cl`/`d`, `0`/`o`, `1`/`l`/`I`/`i`, `5`/`s`.
//! Two names with the same skeleton are confusable, so the store keeps each account's skeleton
//! in a column with a unique index: a sign-up whose skeleton is taken is refused with
//! [`UsernameError::NotAvailable`], the same answer as for a name taken exactly, and the same
//! as for a reserved look-alike. Which of these it was is never said: the caller decides
//! availability, and the message must not tell a stranger whether an account exists.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Fewest characters in a name.
pub const MIN_LEN: usize = 3;
/// Most characters in a name.
pub const MAX_LEN: usize = 20;

/// Names no one may take (compared by skeleton, so `Adm1n` and `r00t` are refused too): the
/// site's own roles and pages, and words that would mislead in a chat or a pairing list.
pub const RESERVED: &[&str] = &[
    "admin",
    "administrator",
    "td",
    "director",
    "api",
    "system",
    "sysop",
    "moderator",
    "mod",
    "staff",
    "support",
    "help",
    "guest",
    "guests",
    "tilebag",
    "root",
    "anonymous",
    "anon",
    "nobody",
    "null",
    "none",
    "undefined",
    "unknown",
    "bot",
    "computer",
    "beginner",
    "static",
    "simulating",
    "official",
    "naspa",
    "wespa",
    "sanspa",
    "server",
    "login",
    "logout",
    "signin",
    "signout",
    "signup",
    "register",
    "account",
    "accounts",
    "settings",
    "profile",
    "user",
    "users",
    "player",
    "players",
    "lobby",
    "seek",
    "seeks",
    "game",
    "games",
    "event",
    "events",
    "tournament",
    "chat",
    "www",
    "mail",
    "assets",
    "me",
    "you",
    "everyone",
];

/// Name beginnings that claim authority (`admin_bob`, `Moderator2`, `tilebag-news`): refused
/// whatever follows.
pub const RESERVED_PREFIXES: &[&str] = &["admin", "moderator", "tilebag", "official", "sysop"];

/// Why a name is refused. Each message names the problem; none says whether another account
/// exists.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum UsernameError {
    #[error("a username must have at least {min} characters (this one has {len})")]
    TooShort { min: usize, len: usize },
    #[error("a username must have at most {max} characters (this one has {len})")]
    TooLong { max: usize, len: usize },
    #[error("a username must start with a letter, not '{0}'")]
    MustStartWithALetter(char),
    #[error("a username may use only letters A–Z, digits, '_' and '-'; '{ch}' (character {position}) is not allowed")]
    BadCharacter { ch: char, position: usize },
    #[error("a username must not end with '{0}'")]
    EndsWithSeparator(char),
    #[error("a username must not have two of '_' and '-' in a row (character {position})")]
    SeparatorsInARow { position: usize },
    #[error("that name is reserved")]
    Reserved,
    /// Taken, or confusable with a name that is: the caller's verdict, worded the same for both.
    #[error("that name is not available")]
    NotAvailable,
}

/// A name that passed [`Username::parse`]: the text as the player typed it (case kept).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Username(String);

impl Username {
    /// Validates a name (length, characters, shape, reserved names). Leading and trailing
    /// spaces are not trimmed: a name with spaces is refused, so what is shown is what was
    /// typed.
    pub fn parse(name: &str) -> Result<Username, UsernameError> {
        let len = name.chars().count();
        if let Some((position, ch)) = name
            .chars()
            .enumerate()
            .find(|(_, c)| !(c.is_ascii_alphanumeric() || *c == '_' || *c == '-'))
        {
            return Err(UsernameError::BadCharacter {
                ch,
                position: position + 1,
            });
        }
        if len < MIN_LEN {
            return Err(UsernameError::TooShort { min: MIN_LEN, len });
        }
        if len > MAX_LEN {
            return Err(UsernameError::TooLong { max: MAX_LEN, len });
        }
        let bytes = name.as_bytes();
        if !bytes[0].is_ascii_alphabetic() {
            return Err(UsernameError::MustStartWithALetter(bytes[0] as char));
        }
        let last = bytes[len - 1];
        if is_separator(last) {
            return Err(UsernameError::EndsWithSeparator(last as char));
        }
        if let Some(i) = bytes
            .windows(2)
            .position(|w| is_separator(w[0]) && is_separator(w[1]))
        {
            return Err(UsernameError::SeparatorsInARow { position: i + 2 });
        }
        if is_reserved(name) {
            return Err(UsernameError::Reserved);
        }
        Ok(Username(name.to_string()))
    }

    /// The name as typed.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The name in lower case: the key for looking an account up by name (sign-in is not
    /// case-sensitive).
    pub fn key(&self) -> String {
        self.0.to_ascii_lowercase()
    }

    /// The look-alike skeleton ([`skeleton`]): store it with a unique index.
    pub fn skeleton(&self) -> String {
        skeleton(&self.0)
    }

    /// Whether this name would be mistaken for `other` (same skeleton).
    pub fn is_confusable_with(&self, other: &str) -> bool {
        self.skeleton() == skeleton(other)
    }
}

impl fmt::Display for Username {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl TryFrom<String> for Username {
    type Error = UsernameError;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        Username::parse(&s)
    }
}

impl From<Username> for String {
    fn from(u: Username) -> String {
        u.0
    }
}

fn is_separator(b: u8) -> bool {
    b == b'_' || b == b'-'
}

/// The look-alike skeleton of a name: lower case; `_` and `-` dropped; then, left to right,
/// `rn` → `m`, `vv` → `w`, `cl` → `d`; then `0` → `o`, `1`/`l` → `i`, `5` → `s`.
///
/// The pairs are folded before the single letters so that `cl` (a `c` and an `l`) is still
/// seen as `d` before the `l` becomes `i`. Worked example: `Rn_0-1ive` → `rn01ive` → `m01ive`
/// → `moiive`; `m0llve` → `moiive` too, so the two are confusable.
pub fn skeleton(name: &str) -> String {
    let lower: Vec<u8> = name
        .bytes()
        .filter(|b| !is_separator(*b))
        .map(|b| b.to_ascii_lowercase())
        .collect();
    let mut out = String::with_capacity(lower.len());
    let mut i = 0;
    while i < lower.len() {
        let pair = lower.get(i..i + 2);
        let folded = match pair {
            Some(b"rn") => Some('m'),
            Some(b"vv") => Some('w'),
            Some(b"cl") => Some('d'),
            _ => None,
        };
        if let Some(c) = folded {
            out.push(c);
            i += 2;
            continue;
        }
        out.push(match lower[i] {
            b'0' => 'o',
            b'1' | b'l' => 'i',
            b'5' => 's',
            b => b as char,
        });
        i += 1;
    }
    out
}

/// Whether two names are confusable (the same skeleton).
pub fn confusable(a: &str, b: &str) -> bool {
    skeleton(a) == skeleton(b)
}

/// Whether a name is reserved: its skeleton is a reserved name's skeleton, or begins with a
/// reserved prefix's skeleton.
pub fn is_reserved(name: &str) -> bool {
    let s = skeleton(name);
    RESERVED.iter().any(|r| skeleton(r) == s)
        || RESERVED_PREFIXES
            .iter()
            .any(|p| s.starts_with(&skeleton(p)))
}

/// Checks a valid new name against names already in use: refused with
/// [`UsernameError::NotAvailable`] if any has the same skeleton (for a store with a skeleton
/// column, the unique index does this; this function is for callers holding a list, and for
/// tests).
pub fn check_available<'a>(
    name: &Username,
    existing: impl IntoIterator<Item = &'a str>,
) -> Result<(), UsernameError> {
    let s = name.skeleton();
    if existing.into_iter().any(|e| skeleton(e) == s) {
        Err(UsernameError::NotAvailable)
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn good_names_pass_and_keep_their_case() {
        for name in [
            "Bob",
            "alice_w",
            "Zed-99",
            "a23",
            "QuackleFan_2024",
            "abcdefghijklmnopqrst",
        ] {
            let u = Username::parse(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(u.as_str(), name);
        }
        assert_eq!(Username::parse("MixedCase").unwrap().key(), "mixedcase");
    }

    #[test]
    fn length_is_checked_in_characters() {
        assert_eq!(
            Username::parse("ab"),
            Err(UsernameError::TooShort { min: 3, len: 2 })
        );
        // 21 characters.
        assert_eq!(
            Username::parse("abcdefghijklmnopqrstu"),
            Err(UsernameError::TooLong { max: 20, len: 21 })
        );
        assert_eq!(
            Username::parse(""),
            Err(UsernameError::TooShort { min: 3, len: 0 })
        );
    }

    #[test]
    fn bad_characters_are_named_with_their_place() {
        assert_eq!(
            Username::parse("bob smith"),
            Err(UsernameError::BadCharacter {
                ch: ' ',
                position: 4
            })
        );
        // A Cyrillic 'о' (U+043E) that looks like a Latin 'o'.
        assert_eq!(
            Username::parse("b\u{43e}b"),
            Err(UsernameError::BadCharacter {
                ch: '\u{43e}',
                position: 2
            })
        );
        assert_eq!(
            Username::parse("al.ice"),
            Err(UsernameError::BadCharacter {
                ch: '.',
                position: 3
            })
        );
        assert_eq!(
            UsernameError::BadCharacter { ch: ' ', position: 4 }.to_string(),
            "a username may use only letters A–Z, digits, '_' and '-'; ' ' (character 4) is not allowed"
        );
    }

    #[test]
    fn shape_rules() {
        assert_eq!(
            Username::parse("9lives"),
            Err(UsernameError::MustStartWithALetter('9'))
        );
        assert_eq!(
            Username::parse("_bob"),
            Err(UsernameError::MustStartWithALetter('_'))
        );
        assert_eq!(
            Username::parse("bob_"),
            Err(UsernameError::EndsWithSeparator('_'))
        );
        assert_eq!(
            Username::parse("bob_-smith"),
            Err(UsernameError::SeparatorsInARow { position: 5 })
        );
    }

    #[test]
    fn reserved_names_and_their_look_alikes_are_refused() {
        for name in [
            "admin",
            "ADMIN",
            "Adm1n",
            "root",
            "r00t",
            "system",
            "Moderator",
            "rnoderator",
            "guest",
            "tilebag",
            "TileBag",
            "anonymous",
            "api",
            "director",
        ] {
            assert_eq!(
                Username::parse(name),
                Err(UsernameError::Reserved),
                "{name}"
            );
        }
        // Prefixes that claim authority.
        for name in [
            "admin_bob",
            "Administrator2",
            "tilebag-news",
            "moderator7",
            "Official_TD",
        ] {
            assert_eq!(
                Username::parse(name),
                Err(UsernameError::Reserved),
                "{name}"
            );
        }
        // But a name merely containing one is fine.
        assert!(Username::parse("badminton").is_ok());
        assert!(Username::parse("rooty").is_ok());
        assert_eq!(UsernameError::Reserved.to_string(), "that name is reserved");
    }

    #[test]
    fn skeleton_folds_look_alikes() {
        assert_eq!(skeleton("Rn_0-1ive"), "moiive");
        assert_eq!(skeleton("m0llve"), "moiive");
        assert_eq!(skeleton("VVinner"), "winner");
        assert_eq!(skeleton("cloud"), "doud");
        assert_eq!(skeleton("Ja5on_Li"), "jasonii");
        assert!(confusable("Il1i", "iiii"));
        assert!(confusable("bob_smith", "BobSmith"));
        assert!(confusable("bob-smith", "b0b_5mith"));
        assert!(confusable("darn", "dam"));
        assert!(!confusable("bob", "rob"));
        assert!(!confusable("alice", "alicia"));
    }

    #[test]
    fn a_look_alike_of_an_existing_name_is_not_available() {
        let existing = ["Pete_Smith", "Quackle"];
        let look_alike = Username::parse("peteSrnith").unwrap();
        assert_eq!(
            check_available(&look_alike, existing),
            Err(UsernameError::NotAvailable)
        );
        // The exact name in another case gets the same answer (no hint which it was).
        let same = Username::parse("quackle").unwrap();
        assert_eq!(
            check_available(&same, existing),
            Err(UsernameError::NotAvailable)
        );
        assert_eq!(
            UsernameError::NotAvailable.to_string(),
            "that name is not available"
        );
        let fresh = Username::parse("Pete_Smyth").unwrap();
        assert_eq!(check_available(&fresh, existing), Ok(()));
        assert!(look_alike.is_confusable_with("pete-smith"));
    }

    #[test]
    fn serde_validates_on_the_way_in() {
        let u: Username = serde_json_like("\"Alice\"").unwrap();
        assert_eq!(u.as_str(), "Alice");
        assert!(serde_json_like("\"admin\"").is_err());
    }

    /// A tiny JSON-string reader for the test above (the crate has no JSON dependency): serde's
    /// `try_from = "String"` is what is being tested, through `serde::de::value`.
    fn serde_json_like(quoted: &str) -> Result<Username, serde::de::value::Error> {
        use serde::de::IntoDeserializer;
        let s = quoted.trim_matches('"').to_string();
        Username::deserialize(s.into_deserializer())
    }
}
