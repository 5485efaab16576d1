//! Passwords: Argon2id hashes in the PHC string format, verification, and the rules for a new
//! password.
//!
//! A hash is stored as one PHC string, e.g.
//! `$argon2id$v=19$m=32768,t=2,p=1$<salt>$<hash>`: the algorithm, its version, the cost and a
//! random 16-byte salt travel with the hash, so a hash made under an older cost still verifies
//! (with the cost it was made with) and [`Verification::Valid`] says whether it should be
//! re-hashed under [`COST`] now that the password is known.
//!
//! # The cost
//!
//! [`COST`] is m = 32 MiB, t = 2 passes, p = 1 lane. OWASP's Password Storage Cheat Sheet asks
//! for at least m = 19 MiB, t = 2, p = 1 (or the equivalent m = 46 MiB, t = 1, p = 1); ours has
//! the passes of the first and two thirds more memory. Why, for a 2-core server that must sign
//! people in:
//!
//! - Time: one hash takes 55–90 ms on the development machine (2-core AMD EPYC with a 32 MiB
//!   L3, shared: the fastest of 31 hashes 57 ms, the median 87 ms at a load average of 5),
//!   measured with `cargo run --release -p tilebag-accounts --example argon2_cost`: inside the
//!   50–150 ms we aim at. Long enough that a stolen database costs an attacker real work per
//!   guess, short enough that a sign-in feels instant and that a burst of sign-ins does not
//!   starve the game tasks (two hashes at once hold both cores for well under a tenth of a
//!   second). OWASP's 19 MiB took 25–40 ms here: under our target, so we spend more.
//! - Memory: 32 MiB per hash in flight. Memory is what makes Argon2id dear on GPUs and ASICs, so
//!   we add memory rather than passes (medians under load: 32 MiB × 3 passes 115–120 ms,
//!   48 MiB × 2 135–190 ms, 64 MiB × 2 225 ms: too slow when the machine is busy). A handful
//!   of concurrent sign-ins is a small amount beside the server's lexicon tables; the sign-in
//!   throttle ([`crate::throttle`]) bounds how many a stranger can make us run. We did not take
//!   46 MiB × 1 pass: a single pass is weaker against time–memory trade-off attacks, and it was
//!   no faster here (median about 80 ms).
//! - Lanes: p = 1. The `argon2` crate is built without its `parallel` feature, so extra lanes
//!   would run one after another on the same core and add nothing but time; the server gets its
//!   parallelism from handling several sign-ins at once (each on a blocking thread).
//!
//! Raising the cost later is a one-line change: old hashes keep verifying and are re-hashed at
//! the owner's next sign-in ([`Verification::Valid::needs_rehash`]).

use argon2::password_hash::phc::PasswordHash;
use argon2::password_hash::{Error as PhcError, PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};
use serde::{Deserialize, Serialize};

/// The Argon2id cost: memory in KiB, passes over it, lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Cost {
    /// Memory per hash in KiB (`m`).
    pub memory_kib: u32,
    /// Passes over the memory (`t`).
    pub iterations: u32,
    /// Lanes (`p`).
    pub parallelism: u32,
}

/// The cost new hashes are made with (see the module documentation for why).
pub const COST: Cost = Cost {
    memory_kib: 32 * 1024,
    iterations: 2,
    parallelism: 1,
};

/// OWASP's first recommended minimum (m = 19 MiB, t = 2, p = 1); the example binary times it
/// beside [`COST`].
pub const OWASP_MINIMUM: Cost = Cost {
    memory_kib: 19 * 1024,
    iterations: 2,
    parallelism: 1,
};

// The cost never drops below OWASP's minimum: checked when the crate compiles.
const _: () = assert!(
    COST.memory_kib >= OWASP_MINIMUM.memory_kib
        && COST.iterations >= OWASP_MINIMUM.iterations
        && COST.parallelism == 1
);

/// Bytes of random salt in a new hash (the PHC recommendation).
pub const SALT_LEN: usize = 16;

/// Bytes of hash output.
const OUTPUT_LEN: usize = 32;

/// The shortest password accepted for a new account (NIST SP 800-63B asks for 8).
pub const MIN_PASSWORD_CHARS: usize = 8;

/// The longest password accepted, in bytes: long enough for any pass phrase, short enough that
/// a megabyte of "password" cannot be sent to make the server hash it.
pub const MAX_PASSWORD_BYTES: usize = 1024;

/// A stored hash whose memory cost is above this (4 GiB) is refused rather than run: a corrupt
/// or hostile row must not make the server allocate without bound.
const MAX_MEMORY_KIB: u32 = 4 * 1024 * 1024;

/// What a verification found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verification {
    /// The password matches. `needs_rehash`: the hash was made with another algorithm, version
    /// or cost than today's (or a short salt or output); store [`hash_password`]'s new hash.
    Valid { needs_rehash: bool },
    /// The password does not match (or, from [`verify_unknown_user`], there is no such user).
    Invalid,
}

impl Verification {
    /// Whether the password matched.
    pub fn is_valid(self) -> bool {
        matches!(self, Verification::Valid { .. })
    }
}

/// Why a password could not be hashed or a stored hash could not be checked.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PasswordError {
    /// The stored string is not a PHC string of an Argon2 hash.
    #[error("the stored password hash is not a valid Argon2 PHC string: {0}")]
    MalformedHash(String),
    /// The stored hash asks for more memory than the server will spend.
    #[error(
        "the stored password hash asks for {memory_kib} KiB, more than the {max_kib} KiB allowed"
    )]
    CostTooHigh { memory_kib: u32, max_kib: u32 },
    /// The operating system's random number generator failed.
    #[error("the random number generator failed: {0}")]
    Random(String),
    /// Argon2 refused the input or the parameters.
    #[error("Argon2 failed: {0}")]
    Argon2(String),
}

/// Why a new password is refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PasswordPolicyError {
    #[error("the password must have at least {min} characters (it has {len})")]
    TooShort { min: usize, len: usize },
    #[error("the password must be at most {max} bytes long (it has {len})")]
    TooLong { max: usize, len: usize },
    #[error("the password must not be the same as the username")]
    SameAsUsername,
}

/// Checks a new password (at sign-up or change): at least [`MIN_PASSWORD_CHARS`] characters, at
/// most [`MAX_PASSWORD_BYTES`] bytes, not the username itself (compared without case). No
/// composition rules ("a digit and a capital"): NIST SP 800-63B advises against them.
pub fn check_new_password(password: &str, username: &str) -> Result<(), PasswordPolicyError> {
    let chars = password.chars().count();
    if chars < MIN_PASSWORD_CHARS {
        return Err(PasswordPolicyError::TooShort {
            min: MIN_PASSWORD_CHARS,
            len: chars,
        });
    }
    if password.len() > MAX_PASSWORD_BYTES {
        return Err(PasswordPolicyError::TooLong {
            max: MAX_PASSWORD_BYTES,
            len: password.len(),
        });
    }
    if password.eq_ignore_ascii_case(username) {
        return Err(PasswordPolicyError::SameAsUsername);
    }
    Ok(())
}

fn argon2_for(cost: Cost) -> Result<Argon2<'static>, PasswordError> {
    let params = Params::new(
        cost.memory_kib,
        cost.iterations,
        cost.parallelism,
        Some(OUTPUT_LEN),
    )
    .map_err(|e| PasswordError::Argon2(e.to_string()))?;
    Ok(Argon2::new(Algorithm::Argon2id, Version::V0x13, params))
}

/// Hashes a password under [`COST`] with a fresh random salt; returns the PHC string to store.
/// Takes 55–90 ms: call it off the async executor (e.g. `spawn_blocking`).
pub fn hash_password(password: &str) -> Result<String, PasswordError> {
    let salt =
        crate::random_bytes::<SALT_LEN>().map_err(|e| PasswordError::Random(e.to_string()))?;
    hash_password_with(password, &salt, COST)
}

/// Hashes a password with the salt and cost given (tests, the cost example, migrations).
pub fn hash_password_with(
    password: &str,
    salt: &[u8],
    cost: Cost,
) -> Result<String, PasswordError> {
    let hash = argon2_for(cost)?
        .hash_password_with_salt(password.as_bytes(), salt)
        .map_err(|e| PasswordError::Argon2(e.to_string()))?;
    Ok(hash.to_string())
}

/// Checks a password against a stored PHC string. The comparison of the hashes is constant
/// time. An Argon2i or Argon2d hash, another version or another cost still verifies, with
/// `needs_rehash: true`.
pub fn verify_password(password: &str, stored: &str) -> Result<Verification, PasswordError> {
    let parsed =
        PasswordHash::new(stored).map_err(|e| PasswordError::MalformedHash(e.to_string()))?;
    let params =
        Params::try_from(&parsed).map_err(|e| PasswordError::MalformedHash(e.to_string()))?;
    if params.m_cost() > MAX_MEMORY_KIB {
        return Err(PasswordError::CostTooHigh {
            memory_kib: params.m_cost(),
            max_kib: MAX_MEMORY_KIB,
        });
    }
    let algorithm = Algorithm::try_from(parsed.algorithm.as_str())
        .map_err(|e| PasswordError::MalformedHash(e.to_string()))?;
    // The verifier takes the algorithm, version and cost from the stored string.
    match Argon2::default().verify_password(password.as_bytes(), &parsed) {
        Ok(()) => {
            let current = algorithm == Algorithm::Argon2id
                && parsed.version == Some(Version::V0x13.into())
                && params.m_cost() == COST.memory_kib
                && params.t_cost() == COST.iterations
                && params.p_cost() == COST.parallelism
                && parsed.hash.as_ref().map(|h| h.len()) == Some(OUTPUT_LEN)
                && parsed.salt.as_ref().map(|s| s.len()).unwrap_or(0) >= SALT_LEN;
            Ok(Verification::Valid {
                needs_rehash: !current,
            })
        }
        Err(PhcError::PasswordInvalid) => Ok(Verification::Invalid),
        Err(e) => Err(PasswordError::Argon2(e.to_string())),
    }
}

/// The fixed salt of [`verify_unknown_user`]'s decoy hash: no secret, it only has to be valid.
const DECOY_SALT: [u8; SALT_LEN] = *b"tilebag-no-user!";

/// Spends the time of a real [`verify_password`] under [`COST`] and answers
/// [`Verification::Invalid`]: call it when the username does not exist, so the time a
/// sign-in takes does not tell whether an account exists (a real user whose hash is of an
/// older cost may take a little more or less; they are re-hashed at their next sign-in).
pub fn verify_unknown_user(password: &str) -> Verification {
    let mut out = [0u8; OUTPUT_LEN];
    if let Ok(argon2) = argon2_for(COST) {
        // The result is thrown away; black_box keeps the optimiser from doing the same to
        // the work.
        let _ = argon2.hash_password_into(password.as_bytes(), &DECOY_SALT, &mut out);
        std::hint::black_box(&out);
    }
    Verification::Invalid
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A cheap cost for tests that only check behaviour (the real cost is timed by the
    /// example, never in a test).
    const CHEAP: Cost = Cost {
        memory_kib: 64,
        iterations: 1,
        parallelism: 1,
    };

    #[test]
    fn a_new_hash_is_argon2id_phc_with_the_current_cost_and_a_random_salt() {
        let a = hash_password("correct horse battery").unwrap();
        let b = hash_password("correct horse battery").unwrap();
        assert!(a.starts_with("$argon2id$v=19$m=32768,t=2,p=1$"), "{a}");
        // Same password, different salts, so different strings.
        assert_ne!(a, b);
        assert_eq!(
            verify_password("correct horse battery", &a).unwrap(),
            Verification::Valid {
                needs_rehash: false
            }
        );
        assert_eq!(
            verify_password("correct horse battery!", &a).unwrap(),
            Verification::Invalid
        );
    }

    #[test]
    fn the_same_salt_and_cost_give_the_same_hash() {
        let salt = [7u8; SALT_LEN];
        let a = hash_password_with("pa55word-pa55word", &salt, CHEAP).unwrap();
        let b = hash_password_with("pa55word-pa55word", &salt, CHEAP).unwrap();
        assert_eq!(a, b);
        assert!(a.starts_with("$argon2id$v=19$m=64,t=1,p=1$"), "{a}");
    }

    #[test]
    fn an_old_cost_still_verifies_and_asks_for_a_rehash() {
        let old = hash_password_with("hunter2hunter2", &[1u8; SALT_LEN], CHEAP).unwrap();
        assert_eq!(
            verify_password("hunter2hunter2", &old).unwrap(),
            Verification::Valid { needs_rehash: true }
        );
        // A wrong password against an old hash is just invalid, never "needs rehash".
        assert_eq!(
            verify_password("hunter3hunter3", &old).unwrap(),
            Verification::Invalid
        );
    }

    #[test]
    fn argon2i_and_argon2d_hashes_verify_and_ask_for_a_rehash() {
        for algorithm in [Algorithm::Argon2i, Algorithm::Argon2d] {
            let params = Params::new(64, 1, 1, Some(32)).unwrap();
            let hash = Argon2::new(algorithm, Version::V0x13, params)
                .hash_password_with_salt(b"old scheme pw", &[9u8; SALT_LEN])
                .unwrap()
                .to_string();
            assert!(
                hash.starts_with(&format!("${}$", algorithm.ident())),
                "{hash}"
            );
            assert_eq!(
                verify_password("old scheme pw", &hash).unwrap(),
                Verification::Valid { needs_rehash: true }
            );
            assert_eq!(
                verify_password("old scheme PW", &hash).unwrap(),
                Verification::Invalid
            );
        }
    }

    #[test]
    fn a_known_vector_from_the_reference_cli_verifies() {
        // The reference implementation's test vector (phc-winner-argon2, as in RFC 9106's
        // tool): `echo -n password | argon2 somesalt -id -t 2 -m 8 -p 1 -l 32`, i.e.
        // m = 2^8 KiB = 256 KiB, t = 2, p = 1: not our cost, so it asks for a rehash.
        let stored =
            "$argon2id$v=19$m=256,t=2,p=1$c29tZXNhbHQ$nf65EOgLrQMR/uIPnA4rEsF5h7TKyQwu9U1bMCHGi/4";
        assert_eq!(
            verify_password("password", stored).unwrap(),
            Verification::Valid { needs_rehash: true }
        );
        assert_eq!(
            verify_password("Password", stored).unwrap(),
            Verification::Invalid
        );
    }

    #[test]
    fn malformed_and_oversized_hashes_are_errors_not_invalid_passwords() {
        assert!(matches!(
            verify_password("x", "not a hash"),
            Err(PasswordError::MalformedHash(_))
        ));
        assert!(matches!(
            verify_password(
                "x",
                "$bcrypt$v=19$m=64,t=1,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc"
            ),
            Err(PasswordError::MalformedHash(_))
        ));
        // 8 GiB of memory: refused before anything is allocated.
        let huge = "$argon2id$v=19$m=8388608,t=1,p=1$c29tZXNhbHQ$CTFhFdXPJO1aFaMaO6Mm5c8y7cJHAph8ArZWb2GRPPc";
        assert_eq!(
            verify_password("x", huge),
            Err(PasswordError::CostTooHigh {
                memory_kib: 8 * 1024 * 1024,
                max_kib: MAX_MEMORY_KIB
            })
        );
    }

    #[test]
    fn an_unknown_user_never_verifies() {
        assert_eq!(verify_unknown_user("anything"), Verification::Invalid);
        assert!(!verify_unknown_user("").is_valid());
    }

    #[test]
    fn the_decoy_does_the_same_argon2_work_as_a_real_verify() {
        // Not a timing test: it checks that the decoy runs Argon2id under COST (same memory,
        // passes and lanes), which is what makes its time match a real verify.
        let decoy = argon2_for(COST).unwrap();
        assert_eq!(decoy.params().m_cost(), COST.memory_kib);
        assert_eq!(decoy.params().t_cost(), COST.iterations);
        assert_eq!(decoy.params().p_cost(), COST.parallelism);
        let stored = hash_password_with("pw", &DECOY_SALT, COST).unwrap();
        let parsed = PasswordHash::new(&stored).unwrap();
        assert_eq!(Params::try_from(&parsed).unwrap(), *decoy.params());
    }

    #[test]
    fn new_password_rules_name_the_problem() {
        assert_eq!(
            check_new_password("short", "alice"),
            Err(PasswordPolicyError::TooShort { min: 8, len: 5 })
        );
        // Eight characters, counted as characters not bytes ("é" is two bytes).
        assert_eq!(check_new_password("ééééèèèè", "alice"), Ok(()));
        assert_eq!(
            check_new_password(&"x".repeat(1025), "alice"),
            Err(PasswordPolicyError::TooLong {
                max: 1024,
                len: 1025
            })
        );
        assert_eq!(
            check_new_password("AliceBobby", "alicebobby"),
            Err(PasswordPolicyError::SameAsUsername)
        );
        assert_eq!(check_new_password("a long pass phrase", "alice"), Ok(()));
        assert_eq!(
            PasswordPolicyError::TooShort { min: 8, len: 5 }.to_string(),
            "the password must have at least 8 characters (it has 5)"
        );
    }
}
