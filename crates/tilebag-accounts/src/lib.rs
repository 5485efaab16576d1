//! tilebag-accounts: players online, as pure rules (no I/O; time comes in as values).
//!
//! Plain data in, decisions out. Every time is a `u64` of milliseconds since the Unix epoch,
//! passed in by the caller (`now_ms`); the only randomness is drawn by [`random_bytes`]
//! (salts, tokens) or passed in. The store (SQLite/PostgreSQL) keeps the records these modules
//! describe — password hashes, session-token hashes, ratings, throttle state — and the web
//! shell calls these functions; nothing here calls back.
//!
//! | Module | Job |
//! |---|---|
//! | [`username`] | Valid names (3–20 characters, letters, digits, `_`, `-`), reserved names, the look-alike skeleton that refuses a name confusable with one taken. |
//! | [`password`] | Argon2id hashes (PHC strings) under a chosen cost, verification that reports "needs rehash" for older costs, a decoy verify for unknown users, the rules for a new password. |
//! | [`session`] | Session and known-device tokens (32 random bytes; only a hash is stored), idle and absolute expiry, sign out (here, everywhere), CSRF tokens, `Set-Cookie` headers. |
//! | [`throttle`] | Sign-in throttling: a token bucket per address, a back-off per account that applies only to unknown sources, so a stranger cannot lock the owner out. |
//! | [`glicko2`] | Glicko-2 (Glickman's example, exactly), per-game rating periods, idle deviation growth, provisional ratings; categories by lexicon and [`glicko2::TimeControlClass`]. |
//! | [`chat`] | Message length and rate; who may send and read in the lobby, a game's players' and watchers' chats (NASPA I.D in event games) and direct messages; mutes, bans, blocks. |
//! | [`seek`] | Seeks and who may accept them (rating range, invitations, the computer, NASPA I.G: one counting game at a time); rematch offers over time. |

pub mod chat;
pub mod glicko2;
pub mod password;
pub mod seek;
pub mod session;
pub mod throttle;
pub mod username;

/// An account's id, as the store numbers them.
pub type AccountId = u64;

/// `N` bytes from the operating system's random number generator: the crate's one source of
/// randomness (salts, session tokens). Everything else takes its randomness as arguments.
pub fn random_bytes<const N: usize>() -> Result<[u8; N], getrandom::Error> {
    let mut bytes = [0u8; N];
    getrandom::fill(&mut bytes)?;
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    #[test]
    fn random_bytes_are_drawn_fresh() {
        let a = super::random_bytes::<32>().unwrap();
        let b = super::random_bytes::<32>().unwrap();
        // Equal only with probability 2^-256.
        assert_ne!(a, b);
        assert_ne!(a, [0u8; 32]);
    }
}
