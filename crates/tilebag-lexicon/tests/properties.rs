//! Properties of the DAWG over arbitrary word sets: whatever the words, the built (and
//! reloaded) lexicon holds exactly them, enumerates them in order, and agrees with a `HashSet`
//! on every query, including near misses.

use proptest::prelude::*;
use std::collections::{BTreeSet, HashSet};
use tilebag_lexicon::Lexicon;

/// Words over a small alphabet (so prefixes and suffixes are shared a lot), up to 17 letters
/// (so some are too long and must be dropped).
fn word() -> impl Strategy<Value = String> {
    proptest::string::string_regex("[ABCSTe]{1,17}").expect("regex")
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    #[test]
    fn holds_exactly_its_words(words in proptest::collection::vec(word(), 0..300),
                               probes in proptest::collection::vec(word(), 0..100)) {
        let lex = Lexicon::from_words(&words, "prop").unwrap();
        let lex = Lexicon::from_bytes(&lex.to_bytes()).unwrap();
        let all: BTreeSet<String> = words.iter().map(|w| w.to_ascii_uppercase()).collect();
        let expect: Vec<String> = all.iter().filter(|w| w.len() <= 15).cloned().collect();
        let got: Vec<String> = lex.words().collect();
        prop_assert_eq!(&got, &expect);
        prop_assert_eq!(lex.word_count() as usize, expect.len());
        prop_assert_eq!(lex.dropped_long() as usize, all.len() - expect.len());
        let set: HashSet<&str> = expect.iter().map(String::as_str).collect();
        for p in probes.iter().chain(&words) {
            let up = p.to_ascii_uppercase();
            prop_assert_eq!(lex.contains(p), set.contains(up.as_str()), "{}", p);
            let prefix_expected = expect.iter().any(|w| w.starts_with(&up));
            prop_assert_eq!(lex.has_prefix(p), prefix_expected, "prefix {}", p);
        }
    }
}
