//! Layered sources with length windows (NASPA III.A.1's Long List, SANSPA 3's cascade) and
//! opening every kind of source by path.

use std::path::{Path, PathBuf};
use tilebag_core::WordJudge;
use tilebag_lexicon::{open_lexicon, Lexicon, LexiconError, SourceKind, WordSource};

/// A fresh directory for one test.
fn dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tilebag-lexicon-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

#[test]
fn naspa_long_list_counts_only_for_10_to_15_letters() {
    // NASPA III.A.1: OWL2 for every length plus the Long List for words of 10-15 letters.
    let d = dir("naspa");
    write(&d, "owl.txt", "CAT\nCATS\nQI\nZA\nRETRAINING\n");
    // A 12-letter word and a 9-letter word that only the Long List has.
    write(&d, "longlist.txt", "ABCDEFGHIJKL\nABCDEFGHI\nRETRAINING\n");
    let conf = write(
        &d,
        "naspa.toml",
        "name = \"NASPA 2013 (OWL + Long List)\"\n[[source]]\npath = \"owl.txt\"\n[[source]]\npath = \"longlist.txt\"\nmin_length = 10\nmax_length = 15\n",
    );
    let src = open_lexicon(&conf).unwrap();
    assert_eq!(src.kind(), SourceKind::Layered);
    assert_eq!(src.name(), "NASPA 2013 (OWL + Long List)");
    assert!(
        src.contains("abcdefghijkl"),
        "12 letters, Long List only: valid"
    );
    assert!(
        !src.contains("ABCDEFGHI"),
        "9 letters, Long List only: not valid"
    );
    assert!(src.contains("CATS") && src.contains("RETRAINING") && src.contains("qi"));
    assert!(src.is_valid("ZA") && !src.is_valid("ZZ"));
    let WordSource::Layered(l) = &src else {
        panic!()
    };
    assert_eq!(l.layers().len(), 2);
    let words: Vec<String> = l.words().collect();
    assert_eq!(
        words,
        ["ABCDEFGHIJKL", "CAT", "CATS", "QI", "RETRAINING", "ZA"]
    );
    let flat = l.to_lexicon().unwrap();
    assert_eq!(flat.words().collect::<Vec<_>>(), words);
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn sanspa_cascade_last_source_only_over_8_letters() {
    // SANSPA 3.1-3.4: Redwood, OSW 3, Chambers; Merriam-Webster 10th only for words longer
    // than 8 letters. Sources may be built files too.
    let d = dir("sanspa");
    write(&d, "redwood.txt", "AAH\n");
    write(&d, "osw3.txt", "BOOK\n");
    Lexicon::from_words(["CHAMBERS"], "chambers")
        .unwrap()
        .save(d.join("chambers.tblex"))
        .unwrap();
    write(
        &d,
        "mw10.txt",
        "NINELETRS\nEIGHTLTR\nSIXLTR\nFIFTEENLETTERSS\n",
    );
    let conf = write(
        &d,
        "sanspa.conf",
        "# SANSPA 3\n[[source]]\npath = \"redwood.txt\"\n[[source]]\npath = \"osw3.txt\"\n[[source]]\npath = \"chambers.tblex\"\n[[source]]\npath = \"mw10.txt\"\nmin_length = 9\n",
    );
    let src = open_lexicon(&conf).unwrap();
    assert_eq!(src.kind(), SourceKind::Layered);
    assert_eq!(src.name(), "sanspa");
    for w in ["AAH", "BOOK", "CHAMBERS", "NINELETRS", "FIFTEENLETTERSS"] {
        assert!(src.contains(w), "{w}");
    }
    assert!(
        !src.contains("EIGHTLTR"),
        "8 letters, only in MW10: not valid"
    );
    assert!(!src.contains("SIXLTR"));
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn open_each_kind() {
    let d = dir("kinds");
    let list = write(&d, "mine.txt", "dog\ncat\n");
    let src = open_lexicon(&list).unwrap();
    assert_eq!((src.kind(), src.name()), (SourceKind::WordList, "mine"));
    assert!(src.contains("DOG"));
    let built = d.join("mine.lex");
    src.lexicon().unwrap().save(&built).unwrap();
    let src = open_lexicon(&built).unwrap();
    assert_eq!((src.kind(), src.name()), (SourceKind::Built, "mine"));
    assert_eq!(src.words().collect::<Vec<_>>(), ["CAT", "DOG"]);

    // Errors name the file and the line or character.
    let bad = write(&d, "bad.txt", "CAT\nD0G\n");
    let e = open_lexicon(&bad).unwrap_err().to_string();
    assert!(
        e.contains("bad.txt") && e.contains("line 2") && e.contains("'0'"),
        "{e}"
    );
    let conf = write(&d, "c.toml", "[[source]]\npath = \"bad.txt\"\n");
    let e = open_lexicon(&conf).unwrap_err().to_string();
    assert!(
        e.contains("c.toml") && e.contains("bad.txt") && e.contains("line 2"),
        "{e}"
    );
    let conf = write(&d, "c2.toml", "[[source]]\npath = \"nope.txt\"\n");
    let e = open_lexicon(&conf).unwrap_err();
    assert!(
        matches!(&e, LexiconError::InFile { error, .. } if matches!(**error, LexiconError::Config { line: 1, .. })),
        "{e}"
    );
    let conf = write(&d, "c3.toml", "[[source]]\npath = \"c.toml\"\n");
    let e = open_lexicon(&conf).unwrap_err().to_string();
    assert!(e.contains("layered configuration"), "{e}");
    let e = open_lexicon(d.join("missing.txt")).unwrap_err().to_string();
    assert!(e.contains("missing.txt"), "{e}");
    let mut damaged = std::fs::read(&built).unwrap();
    let n = damaged.len();
    damaged[n / 2] ^= 4;
    std::fs::write(&built, damaged).unwrap();
    let e = open_lexicon(&built).unwrap_err().to_string();
    assert!(e.contains("mine.lex") && e.contains("CRC"), "{e}");
    std::fs::remove_dir_all(&d).unwrap();
}

#[test]
fn layered_generator_lexicon_holds_exactly_the_accepted_words() {
    // NASPA III.A.1: the Long List adds only words of 10-15 letters; a move generator built on
    // the layered source must propose exactly what the judge accepts, windows included.
    let d = dir("naspa-gen");
    write(&d, "owl.txt", "CAT\nCATS\nQI\nZA\nRETRAINING\n");
    write(&d, "longlist.txt", "ABCDEFGHIJKL\nABCDEFGHI\nRETRAINING\n");
    let conf = write(
        &d,
        "naspa.toml",
        "name = \"NASPA\"\n[[source]]\npath = \"owl.txt\"\n[[source]]\npath = \"longlist.txt\"\nmin_length = 10\nmax_length = 15\n",
    );
    let src = open_lexicon(&conf).unwrap();
    let lex = src.generator_lexicon().unwrap();
    let gen_words = lex.gaddag().words();
    let judged: Vec<String> = src.words().collect();
    assert_eq!(gen_words, judged);
    assert!(gen_words.contains(&"ABCDEFGHIJKL".to_string()));
    assert!(
        !gen_words.contains(&"ABCDEFGHI".to_string()),
        "9 letters: outside the window"
    );
}
