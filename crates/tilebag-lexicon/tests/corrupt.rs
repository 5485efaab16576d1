//! Damaged lexicon files: every truncation, every single-byte flip, and thousands of seeded
//! random mutations (with the checksum repaired, so they reach the structural checks) must give
//! an error or a lexicon that behaves, never a panic, a loop or an out-of-bounds read.

use tilebag_lexicon::format::reseal;
use tilebag_lexicon::synth::{pronounceable, SplitMix64};
use tilebag_lexicon::{Lexicon, LexiconError};

fn small_file() -> Vec<u8> {
    let mut rng = SplitMix64::new(99);
    let mut words: Vec<String> = (0..40).map(|_| pronounceable(&mut rng)).collect();
    words.extend(["CAT", "CATS", "CAR", "CARS", "SCAR", "SCARS", "QI", "ZA"].map(String::from));
    Lexicon::from_words(&words, "small")
        .unwrap()
        .with_description("for corruption tests")
        .to_bytes()
}

/// What any successfully loaded lexicon must satisfy, whatever bytes it came from.
fn check_behaves(lex: &Lexicon) {
    let mut prev: Option<String> = None;
    let mut n = 0u64;
    for w in lex.words().take(100_000) {
        assert!(!w.is_empty() && w.len() <= 15 && w.bytes().all(|b| b.is_ascii_uppercase()));
        assert!(lex.contains(&w), "enumerated {w} but contains says no");
        if let Some(p) = &prev {
            assert!(*p < w, "{p} then {w}: not sorted");
        }
        prev = Some(w);
        n += 1;
    }
    if n < 100_000 {
        assert_eq!(
            n,
            u64::from(lex.word_count()),
            "enumeration disagrees with the count"
        );
    }
    for q in ["CAT", "QI", "", "ZZZZZZZZZZZZZZZZ", "A"] {
        let _ = lex.contains(q);
    }
    let _ = lex.identify();
}

#[test]
fn the_small_file_loads() {
    let bytes = small_file();
    let lex = Lexicon::from_bytes(&bytes).unwrap();
    assert!(lex.contains("scars"));
    check_behaves(&lex);
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = small_file();
    for n in 0..bytes.len() {
        let cut = &bytes[..n];
        let e = Lexicon::from_bytes(cut);
        assert!(e.is_err(), "truncated to {n} bytes but loaded");
        // With the checksum repaired the section table no longer fits.
        let mut resealed = cut.to_vec();
        reseal(&mut resealed);
        assert!(
            Lexicon::from_bytes(&resealed).is_err(),
            "truncated to {n}, resealed, loaded"
        );
    }
    let msg = Lexicon::from_bytes(&bytes[..10]).unwrap_err().to_string();
    assert!(msg.contains("truncated"), "{msg}");
}

#[test]
fn every_single_byte_flip_is_an_error() {
    let bytes = small_file();
    for i in 0..bytes.len() {
        for mask in [0x01u8, 0x10, 0x80, 0xFF] {
            let mut b = bytes.clone();
            b[i] ^= mask;
            assert!(
                Lexicon::from_bytes(&b).is_err(),
                "flip {mask:#x} at {i} loaded"
            );
        }
    }
    let mut b = bytes.clone();
    b[40] ^= 1;
    assert!(matches!(
        Lexicon::from_bytes(&b),
        Err(LexiconError::Checksum { .. })
    ));
}

#[test]
fn random_mutations_past_the_checksum() {
    let bytes = small_file();
    let mut rng = SplitMix64::new(0x7B1E);
    let (mut ok, mut err) = (0, 0);
    for round in 0..20_000 {
        let mut b = bytes.clone();
        let edits = 1 + rng.below(4);
        for _ in 0..edits {
            match rng.below(10) {
                // Overwrite a byte, mostly inside the DAWG and header.
                0..=5 => {
                    let i = rng.below(b.len());
                    b[i] = rng.next_u64() as u8;
                }
                // Flip one bit.
                6 | 7 => {
                    let i = rng.below(b.len());
                    b[i] ^= 1 << rng.below(8);
                }
                // Write a small or large u32 somewhere (counts, offsets, arcs).
                8 => {
                    let i = rng.below(b.len().saturating_sub(4));
                    let v: u32 = if rng.below(2) == 0 {
                        rng.below(600) as u32
                    } else {
                        rng.next_u64() as u32
                    };
                    b[i..i + 4].copy_from_slice(&v.to_le_bytes());
                }
                // Insert or remove a byte.
                _ => {
                    let i = rng.below(b.len());
                    if rng.below(2) == 0 {
                        b.insert(i, rng.next_u64() as u8);
                    } else {
                        b.remove(i);
                    }
                }
            }
        }
        if round % 2 == 0 {
            reseal(&mut b);
        }
        match Lexicon::from_bytes(&b) {
            Ok(lex) => {
                ok += 1;
                check_behaves(&lex);
            }
            Err(e) => {
                err += 1;
                assert!(!e.to_string().is_empty());
            }
        }
    }
    eprintln!("{ok} mutated files loaded, {err} refused");
    assert!(err > 15_000);
}

#[test]
fn random_garbage_after_the_magic() {
    let mut rng = SplitMix64::new(5);
    for _ in 0..5_000 {
        let n = rng.below(200);
        let mut b = b"TBLEX\0\x01\0".to_vec();
        b.extend((0..n).map(|_| rng.next_u64() as u8));
        // Plausible section table: small counts.
        if b.len() > 12 {
            b[8] = rng.below(4) as u8;
            b[9..12].fill(0);
        }
        reseal(&mut b);
        if let Ok(lex) = Lexicon::from_bytes(&b) {
            check_behaves(&lex);
        }
    }
}

/// Issue 11: a built file cut to 5 bytes or fewer (or emptied) was read as a word list. Opened
/// the way the server and the CLI open a `--lexicon` file, every such cut is refused as a damaged
/// built lexicon, whatever its name; an empty `.tblex` file too.
#[test]
fn a_built_file_cut_to_its_first_bytes_is_refused_not_read_as_words() {
    let dir = std::env::temp_dir().join(format!("tilebag-cut-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bytes = small_file();
    for n in 0..=6 {
        for name in ["cut.tblex", "cut.dat"] {
            if n == 0 && name == "cut.dat" {
                continue; // an empty file not named .tblex is an empty word list (refused as such)
            }
            let path = dir.join(name);
            std::fs::write(&path, &bytes[..n]).unwrap();
            let err = match tilebag_lexicon::open_lexicon(&path) {
                Ok(_) => panic!("{name} cut to {n} bytes opened"),
                Err(e) => e.to_string(),
            };
            assert!(err.contains("truncated"), "{name} cut to {n}: {err}");
            assert!(err.contains(name), "the error names the file: {err}");
        }
    }
    std::fs::remove_dir_all(&dir).ok();
}
