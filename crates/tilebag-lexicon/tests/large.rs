//! A list the size of CSW19 (280,000 words): ENABLE1 grown with deterministic synthetic words.
//! It must build (well under a second in release), round-trip through the file form, and
//! enumerate exactly the input.

use std::time::Instant;
use tilebag_lexicon::synth::large_list;
use tilebag_lexicon::{parse_word_list, Lexicon, ENABLE1_TEXT};

#[test]
fn large_list_builds_and_enumerates_exactly() {
    let enable = parse_word_list(ENABLE1_TEXT).unwrap();
    let words = large_list(&enable, 280_000, 2024);
    assert!(words.len() >= 280_000);
    let t = Instant::now();
    let lex = Lexicon::from_words(&words, "large").unwrap();
    let build = t.elapsed();
    eprintln!("280k build: {build:?}, {} bytes", lex.to_bytes().len());
    if !cfg!(debug_assertions) {
        assert!(build.as_secs_f64() < 1.0, "build took {build:?}");
    }
    assert_eq!(lex.word_count() as usize, words.len());
    let lex = Lexicon::from_bytes(&lex.to_bytes()).unwrap();
    let mut n = 0;
    for (got, want) in lex.words().zip(&words) {
        assert_eq!(&got, want);
        n += 1;
    }
    assert_eq!(n, words.len());
    assert_eq!(lex.words().count(), words.len());
    // Every word is found.
    assert!(words.iter().all(|w| lex.contains(w)));
}
