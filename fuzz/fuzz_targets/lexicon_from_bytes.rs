//! `Lexicon::from_bytes` on arbitrary bytes: it must return an error or a lexicon that behaves
//! (lookups answer, enumeration is sorted, agrees with `contains` and with the word count),
//! never panic, loop or read out of bounds.
//!
//! Each input is tried twice: as given, and with its trailing CRC-32 repaired, so that mutations
//! get past the checksum to the structural checks. Seeding the corpus with a small built file
//! (any `Lexicon::save` output, e.g. from `cargo run -p tilebag-lexicon --example lexstats --
//! --seed corpus/lexicon_from_bytes/small.tblex`) gets the fuzzer to deep states sooner.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tilebag_lexicon::format::reseal;
use tilebag_lexicon::Lexicon;

/// Enumerate at most this many words: a valid file can encode astronomically many.
const MAX_WORDS: usize = 10_000;

fuzz_target!(|data: &[u8]| {
    check(data);
    let mut sealed = data.to_vec();
    reseal(&mut sealed);
    check(&sealed);
});

fn check(bytes: &[u8]) {
    let Ok(lex) = Lexicon::from_bytes(bytes) else {
        return;
    };
    for q in [
        "",
        "A",
        "QI",
        "CAT",
        "zyzzyva",
        "ABCDEFGHIJKLMNOP",
        "\u{e9}",
    ] {
        let _ = lex.contains(q);
        let _ = lex.has_prefix(q);
    }
    let _ = lex.identify();
    let mut prev: Option<String> = None;
    let mut n = 0usize;
    for w in lex.words().take(MAX_WORDS) {
        assert!((1..=15).contains(&w.len()), "{w}");
        assert!(lex.contains(&w), "enumerated {w} but contains says no");
        if let Some(p) = &prev {
            assert!(*p < w, "{p} before {w}");
        }
        prev = Some(w);
        n += 1;
    }
    if n < MAX_WORDS {
        assert_eq!(n as u64, u64::from(lex.word_count()));
    }
}
