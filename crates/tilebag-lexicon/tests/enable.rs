//! Round trip of the real ENABLE1 list: build, save, load, every word found, enumeration equal to
//! the input, one-letter edits judged exactly as a `HashSet` judges them, and the fingerprint.

use std::collections::HashSet;
use std::sync::OnceLock;
use tilebag_lexicon::{parse_word_list, Lexicon, ENABLE1_TEXT};

/// ENABLE1's words as parsed (all lengths, sorted) and the lexicon rebuilt from its file form.
fn enable() -> &'static (Vec<String>, Lexicon) {
    static E: OnceLock<(Vec<String>, Lexicon)> = OnceLock::new();
    E.get_or_init(|| {
        let words = parse_word_list(ENABLE1_TEXT).unwrap();
        let lex = Lexicon::from_word_list(ENABLE1_TEXT, "ENABLE1").unwrap();
        let loaded = Lexicon::from_bytes(&lex.to_bytes()).unwrap();
        assert_eq!(loaded, lex);
        (words, loaded)
    })
}

fn playable(words: &[String]) -> Vec<String> {
    words.iter().filter(|w| w.len() <= 15).cloned().collect()
}

#[test]
fn embedded_list_is_the_shared_one() {
    // Corpus check: the crate's copy must be the project's ENABLE1 (skips without ../shared).
    let shared = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/lexicons/ENABLE1.txt"
    );
    match std::fs::read(shared) {
        Ok(bytes) => assert!(
            bytes == ENABLE1_TEXT,
            "data/ENABLE1.txt differs from {shared}"
        ),
        Err(_) => eprintln!("note: {shared} is absent; skipping the comparison"),
    }
}

#[test]
fn counts_and_size() {
    let (words, lex) = enable();
    assert_eq!(words.len(), 172_820);
    assert_eq!(lex.dropped_long(), 4_272);
    assert_eq!(lex.word_count(), 172_820 - 4_272);
    let counts = lex.counts_by_length();
    assert_eq!(counts[0], 0);
    assert_eq!(counts.iter().sum::<u32>(), lex.word_count());
    for (len, &count) in counts.iter().enumerate().skip(1) {
        let n = words.iter().filter(|w| w.len() == len).count() as u32;
        assert_eq!(count, n, "length {len}");
    }
    // The file holds the DAWG (the judge) and the GADDAG (move generation), whose separators
    // lead into the DAWG so the rightward parts are stored once.
    // The GADDAG is stored packed (a byte per edge plus its arc as a varint).
    let file = lex.to_bytes();
    let bytes = file.len();
    assert!(
        bytes <= 3_000_000,
        "ENABLE1 file is {bytes} bytes, over 3 MB"
    );
    let back = Lexicon::from_bytes(&file).unwrap();
    assert!(back.gaddag_from_file());
    assert_eq!(back.gaddag().word_count(), u64::from(lex.word_count()));
    assert_eq!(back.gaddag().edges(), lex.gaddag().edges());
}

#[test]
fn every_word_found_and_enumeration_equals_input() {
    let (words, lex) = enable();
    let expect = playable(words);
    for w in &expect {
        assert!(lex.contains(w), "{w} missing");
        assert!(
            lex.contains(&w.to_ascii_lowercase()),
            "{w} (lowercase) missing"
        );
    }
    for w in words.iter().filter(|w| w.len() > 15) {
        assert!(!lex.contains(w), "{w} is over 15 letters");
    }
    let got: Vec<String> = lex.words().collect();
    assert_eq!(got.len(), expect.len());
    assert!(got == expect, "enumeration differs from the sorted input");
}

/// Every string one edit (substitution, insertion, deletion) away from `w`.
fn edits(w: &str) -> Vec<String> {
    let b = w.as_bytes();
    let mut out = Vec::new();
    for i in 0..=b.len() {
        for c in b'A'..=b'Z' {
            let mut ins = b.to_vec();
            ins.insert(i, c);
            out.push(String::from_utf8(ins).unwrap());
            if i < b.len() && b[i] != c {
                let mut sub = b.to_vec();
                sub[i] = c;
                out.push(String::from_utf8(sub).unwrap());
            }
        }
        if i < b.len() {
            let mut del = b.to_vec();
            del.remove(i);
            out.push(String::from_utf8(del).unwrap());
        }
    }
    out
}

#[test]
fn one_letter_edits_agree_with_a_hashset() {
    let (words, lex) = enable();
    let set: HashSet<&str> = words
        .iter()
        .filter(|w| w.len() <= 15)
        .map(|s| s.as_str())
        .collect();
    let (mut absent, mut present) = (0, 0);
    // A sample across the alphabet: every 61st word.
    for w in words.iter().step_by(61) {
        for e in edits(w) {
            let want = set.contains(e.as_str());
            assert_eq!(lex.contains(&e), want, "{e} (an edit of {w})");
            if want {
                present += 1
            } else {
                absent += 1
            }
        }
    }
    assert!(
        absent > 100_000 && present > 1_000,
        "{absent} absent, {present} present"
    );
}

#[test]
fn odd_queries() {
    let (_, lex) = enable();
    for q in [
        "", "A", "QI", "ZA", "OK", "EUOI", "CAT ", " CAT", "C-A-T", "CAFÉ", "ÇA", "\0",
    ] {
        assert!(!lex.contains(q), "{q:?}");
    }
    assert!(lex.contains("AA") && lex.contains("aa") && lex.contains("Zyzzyva"));
    assert!(!lex.contains("ANTIDISESTABLISHMENTARIANISM"));
    assert!(lex.has_prefix("ZYZ") && !lex.has_prefix("ZZZ"));
}

#[test]
fn fingerprint_identifies_enable1() {
    let (_, lex) = enable();
    let fp = lex.fingerprint();
    assert_eq!(fp.two_letter_count, 96);
    assert!(!fp.has_qi && !fp.has_euoi && !fp.has_ok);
    assert_eq!(fp.word_count, 168_548);
    let src = lex.source_fingerprint();
    assert_eq!((src.word_count, src.two_letter_count), (172_820, 96));
    assert_eq!(lex.identify(), Some("ENABLE1"));
    assert_eq!(src.identify(), Some("ENABLE1"));

    // A copy of ENABLE1 that had already lost its long words.
    let short = Lexicon::from_words(playable(&enable().0), "short").unwrap();
    assert_eq!(short.dropped_long(), 0);
    assert_eq!(
        short.identify(),
        Some("ENABLE1 (words over 15 letters dropped)")
    );
}

#[test]
fn builtin_is_enable1() {
    let lex = Lexicon::builtin_enable();
    assert_eq!(lex.word_count(), 168_548);
    assert_eq!(lex.identify(), Some("ENABLE1"));
    assert!(lex.description().contains("Alan Beale"));
    assert!(std::ptr::eq(lex, Lexicon::builtin_enable()), "built once");
    let w = tilebag_lexicon::open_lexicon_or_builtin(None).unwrap();
    assert_eq!(w.kind(), tilebag_lexicon::SourceKind::Builtin);
    assert!(w.contains("zyzzyvas") && !w.contains("qi"));
}
