//! A `.tblex` file written before the GADDAG section existed (META and DAWG only, no `GDAG` or
//! `GDGP` section) still loads, as [`tilebag_lexicon::format`] promises: the GADDAG is built in
//! memory from the DAWG when a move generator first asks for it, and the loader says so
//! ([`Lexicon::gaddag_from_file`] is false). The CLI's note about it is tested in
//! `crates/tilebag/tests/cli.rs`.

use tilebag_lexicon::format::{crc32, TAG_DAWG, TAG_GDAG, TAG_GDAG_PACKED, TAG_META};
use tilebag_lexicon::{open_lexicon, Lexicon, SourceKind};

/// The sections of a file as (tag, flags, payload), read by the layout in `format.rs`.
fn sections(file: &[u8]) -> Vec<([u8; 4], u32, Vec<u8>)> {
    let u32_at = |at: usize| u32::from_le_bytes(file[at..at + 4].try_into().unwrap());
    let n = u32_at(8) as usize;
    (0..n)
        .map(|i| {
            let e = 16 + 16 * i;
            let tag: [u8; 4] = file[e..e + 4].try_into().unwrap();
            let (flags, off, len) = (u32_at(e + 4), u32_at(e + 8) as usize, u32_at(e + 12));
            (tag, flags, file[off..off + len as usize].to_vec())
        })
        .collect()
}

/// A file of the given sections, written as version 1 writes them (header, table, 4-aligned
/// payloads, CRC-32 of everything before it).
fn write(secs: &[([u8; 4], u32, Vec<u8>)]) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(b"TBLEX\0");
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&(secs.len() as u32).to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    let mut offset = 16 + 16 * secs.len();
    for (tag, flags, data) in secs {
        out.extend_from_slice(tag);
        out.extend_from_slice(&flags.to_le_bytes());
        out.extend_from_slice(&(offset as u32).to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        offset += data.len().next_multiple_of(4);
    }
    for (_, _, data) in secs {
        out.extend_from_slice(data);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    let crc = crc32(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// ENABLE's file as `lexicon build` wrote it before the GADDAG section: META and DAWG only.
fn old_enable_file() -> Vec<u8> {
    let new = Lexicon::builtin_enable().to_bytes();
    let secs = sections(&new);
    let tags: Vec<[u8; 4]> = secs.iter().map(|s| s.0).collect();
    assert!(
        tags.contains(&TAG_GDAG_PACKED),
        "today's files carry the packed GADDAG: {tags:?}"
    );
    let old: Vec<_> = secs
        .into_iter()
        .filter(|(tag, _, _)| *tag == TAG_META || *tag == TAG_DAWG)
        .collect();
    assert_eq!(old.len(), 2);
    write(&old)
}

#[test]
fn a_file_without_a_gaddag_section_loads_and_builds_it_in_memory() {
    let file = old_enable_file();
    // Really no GADDAG of either kind in it.
    let tags: Vec<[u8; 4]> = sections(&file).iter().map(|s| s.0).collect();
    assert_eq!(tags, vec![TAG_META, TAG_DAWG]);
    assert!(!tags.contains(&TAG_GDAG) && !tags.contains(&TAG_GDAG_PACKED));

    let lex = Lexicon::from_bytes(&file).expect("an old file still loads");
    // The loader reports that the GADDAG did not come from the file.
    assert!(!lex.gaddag_from_file());
    let enable = Lexicon::builtin_enable();
    assert_eq!(lex.word_count(), enable.word_count());
    assert!(lex.contains("QAT") && !lex.contains("QI") && !lex.contains("QX"));

    // The GADDAG, built in memory on first use, answers for every word and no other.
    let g = lex.gaddag();
    assert!(
        !lex.gaddag_from_file(),
        "still not from the file once built"
    );
    assert_eq!(g.word_count(), u64::from(enable.word_count()));
    assert_eq!(
        g.edges(),
        enable.gaddag().edges(),
        "the same GADDAG as a new file's"
    );
    for w in ["QAT", "XU", "AARDVARK", "CATS", "JUKEBOX", "SYZYGY"] {
        assert!(g.contains(w.as_bytes()), "{w}");
    }
    for w in ["QI", "QX", "CATZ", "AARDVARKZ", "ZZZ", ""] {
        assert!(!g.contains(w.as_bytes()), "{w:?}");
    }
    let words = g.words();
    assert_eq!(words.len() as u32, enable.word_count());
    assert!(words.iter().zip(enable.words()).all(|(a, b)| *a == b));
    // The generator's node table is made from it: it reaches the DAWG through the separators.
    let auto = lex.automaton();
    let codes = |w: &str| w.bytes().map(|b| b - b'A' + 1).collect::<Vec<u8>>();
    // A whole word is its reversal from the GADDAG's root (no separator).
    let reversed_from_root = |w: &str| {
        let mut node = auto.gaddag_root();
        let mut ok = false;
        for l in codes(w).into_iter().rev() {
            match auto.child(node, l) {
                Some((next, acc)) => (node, ok) = (next, acc),
                None => return false,
            }
        }
        ok
    };
    for w in ["QAT", "JUKEBOX", "SYZYGY"] {
        assert!(reversed_from_root(w), "{w}");
        assert!(auto.dawg_contains(&codes(w)), "{w}");
    }
    assert!(!reversed_from_root("QX") && !auto.dawg_contains(&codes("QX")));

    // Written again, the file has the section and says it came from the file.
    let again = Lexicon::from_bytes(&lex.to_bytes()).unwrap();
    assert!(again.gaddag_from_file());
    assert_eq!(again.gaddag().edges(), g.edges());
}

#[test]
fn an_old_file_opened_by_path_is_a_built_lexicon_without_its_gaddag() {
    let dir = std::env::temp_dir().join(format!("tilebag-old-tblex-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("old-enable.tblex");
    std::fs::write(&path, old_enable_file()).unwrap();
    let source = open_lexicon(&path).expect("opens");
    assert_eq!(source.kind(), SourceKind::Built);
    let lex = source.generator_lexicon().unwrap();
    assert!(!lex.gaddag_from_file());
    assert!(lex.gaddag().contains(b"OXYPHENBUTAZONE"));
    assert!(!lex.gaddag_from_file());
    let loaded = Lexicon::load(&path).unwrap();
    assert!(!loaded.gaddag_from_file());
    std::fs::remove_dir_all(&dir).unwrap();
}
