//! Random identifiers: game ids (public), seat tokens (secret), seeds.

fn random_bytes<const N: usize>() -> [u8; N] {
    let mut b = [0u8; N];
    // The OS generator does not fail on the platforms we run on; if it ever did, a token made
    // of zeros would be guessable, so refuse to go on.
    getrandom::fill(&mut b).expect("the operating system's random generator failed");
    b
}

/// Lowercase letters and digits without look-alikes.
const ALPHABET: &[u8] = b"abcdefghjkmnpqrstuvwxyz23456789";

fn encode(bytes: &[u8], len: usize) -> String {
    // Each byte picks one character; the slight bias of 256 % 31 does not matter for ids, and
    // tokens are long enough (32 characters, about 158 bits) either way.
    bytes
        .iter()
        .take(len)
        .map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char)
        .collect()
}

/// A public game id: 10 characters.
pub fn game_id() -> String {
    encode(&random_bytes::<10>(), 10)
}

/// A secret seat token: 32 characters.
pub fn token() -> String {
    encode(&random_bytes::<32>(), 32)
}

pub fn seed() -> u64 {
    u64::from_le_bytes(random_bytes::<8>())
}

/// Compare secrets without an early exit, so timing tells nothing about how much matched.
pub fn same_secret(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// A game id as it may appear in a URL: our alphabet only, bounded length.
pub fn plausible_id(id: &str) -> bool {
    !id.is_empty() && id.len() <= 64 && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
}

/// A connection's id, unique in this process (a game's own sockets and those it serves to the
/// other processes alike).
pub fn conn_id() -> u64 {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_and_tokens_are_distinct_and_well_formed() {
        let a = token();
        let b = token();
        assert_eq!(a.len(), 32);
        assert_ne!(a, b);
        assert!(plausible_id(&game_id()));
        assert!(same_secret(&a, &a.clone()));
        assert!(!same_secret(&a, &b));
        assert!(!same_secret(&a, "short"));
    }
}
