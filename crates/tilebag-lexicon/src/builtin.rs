//! The built-in ENABLE1 list, ready at once.
//!
//! `data/ENABLE1.txt` is the list (public domain; see `NOTICE`). `data/ENABLE1.tblex` is what
//! tilebag's own builder makes of it: a `.tblex` file (see [`crate::format`]) with the sections
//! `tilebag lexicon build` writes (META, the DAWG, the packed GADDAG) and one more, `AUTO`, the
//! move generator's node table (see [`crate::automaton`]), which only this image carries. The
//! image is embedded in the program, and the test
//! `the_image_is_what_the_builder_makes_of_enable1_txt` builds it afresh from the text and
//! compares every byte, so it cannot drift from the list, the builder or the table's layout.
//!
//! # Why a committed image
//!
//! Before, the text was compiled when the list was first needed (the DAWG, about 25 ms), and a
//! move generator then made the GADDAG (about 250 ms) and its node table (about 70 ms):
//! `tilebag moves` took about 0.2 s with the built-in list, and 0.1 s even with a built file,
//! most of it making the node table. The other ways were worse:
//!
//! - a build script would make the same bytes on every clean build, unoptimised (build scripts
//!   are compiled without optimisation in release builds too: building the image takes 5 s
//!   unoptimised against 0.3 s optimised), compiling the builder's code a second time, on the
//!   path of every crate that depends on this one;
//! - the `.tblex` file alone (DAWG and GADDAG, 2.4 MB) still leaves the node table to be made at
//!   every start (70 ms), and checking the file's GADDAG costs 15 ms more;
//! - compressing the image would need a decompressor (a dependency), time at every start, and
//!   the table copied to the heap.
//!
//! So the image is committed: 8,749,360 bytes, 4.7 MB as git stores it (zlib: the node table
//! 2.8 MB, the GADDAG 1.6, the DAWG 0.3), made again only when the list, the builder or the
//! table's layout changes (git's deltas then keep the sections that did not change). The program
//! grows by the image (it no longer needs the 1.7 MB text but keeps it as the fallback below);
//! memory does not: the embedded bytes are mapped from the executable, only the pages a walk
//! touches are read in, and they are shared and can be dropped by the system, never swapped.
//!
//! # Loading
//!
//! Checked at load is what the code's soundness and termination rest on; the consistency of the
//! sections with each other and with the text is what the test above checks, once for every
//! build, instead of on every start:
//!
//! - [`Lexicon::builtin_enable`] reads META and the section table (bounds, alignment, overlap)
//!   and the DAWG in place, checking its structure in one pass (about 0.6 ms in all); the
//!   checksum of the 8.7 MB is not computed (about 4 ms), nor the DAWG's words counted (a few ms of
//!   scattered reads) to compare with META;
//! - [`Lexicon::automaton`] reads the node table in place when first asked, after checking it is
//!   well formed (every index the generator reads unchecked is in bounds: about 4 ms), and never
//!   checks it against the GADDAG (that costs what making it does);
//! - [`Lexicon::gaddag`] (the generator does not need it) unpacks and checks the GADDAG as a
//!   file's when first asked (about 25 ms).
//!
//! Should the image ever fail to load, the text is compiled as before: slower, never wrong.
//!
//! # Making the image again
//!
//! After a change to the builder or to the node table's layout the test above fails and says
//! how: `TILEBAG_WRITE_BUILTIN=1 cargo test -p tilebag-lexicon --release --lib builtin` writes
//! the image afresh (and the test then passes).

use crate::error::LexiconError;
use crate::format::{self, TAG_AUTO, TAG_GDAG_PACKED};
use crate::lexicon::{Lexicon, Prebuilt};
use crate::wordlist::{sorted_words, uppercase_list};
use std::sync::OnceLock;

/// Name of the built-in lexicon.
pub const BUILTIN_NAME: &str = "ENABLE1 (built-in)";
const BUILTIN_DESCRIPTION: &str =
    "ENABLE (Enhanced North American Benchmark LExicon), compiled by \
     Alan Beale with M. Cooper; public domain. Words over 15 letters dropped.";

/// The embedded ENABLE1 word list (`data/ENABLE1.txt`, 172,820 words).
pub const ENABLE1_TEXT: &[u8] = include_bytes!("../data/ENABLE1.txt");

/// The built-in image: what [`image_of`] makes of [`from_text`] (see the module documentation).
static IMAGE: &[u8] = &ALIGNED.bytes;

/// Bytes aligned as `u32`s, so the image's sections (4-aligned in the file) can be read in place.
#[repr(C)]
struct Aligned<B: ?Sized> {
    _align: [u32; 0],
    bytes: B,
}

static ALIGNED: &Aligned<[u8]> = &Aligned {
    _align: [],
    bytes: *include_bytes!("../data/ENABLE1.tblex"),
};

impl Lexicon {
    /// The built-in ENABLE1 word list, read on first use from the image embedded in the program
    /// and kept for the life of the process; its GADDAG and the move generator's node table come
    /// from the image too (see `builtin.rs`), so a generator is ready in milliseconds.
    ///
    /// ENABLE (Enhanced North American Benchmark LExicon), compiled by Alan Beale with M. Cooper,
    /// is in the public domain; see `NOTICE`. It is not a tournament lexicon (it lacks QI, ZA,
    /// OK...), but it is the judge when no lexicon is named.
    pub fn builtin_enable() -> &'static Lexicon {
        static BUILTIN: OnceLock<Lexicon> = OnceLock::new();
        BUILTIN.get_or_init(|| from_image(IMAGE).unwrap_or_else(|_| from_text()))
    }
}

/// The built-in lexicon compiled from the text: what the image holds.
fn from_text() -> Lexicon {
    // The embedded list is plain uppercase words (tested), so this cannot fail; an empty
    // lexicon is the fallback rather than a panic.
    let upper = uppercase_list(ENABLE1_TEXT);
    sorted_words(&upper)
        .and_then(|words| Lexicon::from_sorted(&words, BUILTIN_NAME))
        .unwrap_or_else(|_| Lexicon::empty(BUILTIN_NAME))
        .with_description(BUILTIN_DESCRIPTION)
}

/// The image of a lexicon: its file with the node table (`AUTO`) after the other sections.
#[cfg(test)]
fn image_of(lex: &Lexicon) -> Vec<u8> {
    lex.file_bytes(true)
}

/// The lexicon of an image: META and DAWG read and checked now, the GADDAG and the node table
/// read from their sections when first asked.
fn from_image(image: &'static [u8]) -> Result<Lexicon, LexiconError> {
    let sections = format::read_sections(image, false)?;
    let find = |tag: [u8; 4]| {
        sections
            .iter()
            .find(|(s, _)| s.tag == tag)
            .map(|&(s, at)| (s.data, at))
    };
    match (find(TAG_GDAG_PACKED), find(TAG_AUTO)) {
        (Some(gaddag), Some((automaton, _))) => {
            Lexicon::from_image(&sections, Prebuilt { gaddag, automaton })
        }
        _ => Err(LexiconError::corrupt(
            8,
            "the built-in image has no GDGP or no AUTO section",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::automaton::Automaton;
    use crate::format::{Section, TAG_DAWG, TAG_META};

    /// The sections of a file (tag and payload), in order.
    fn sections(file: &[u8]) -> Vec<([u8; 4], Vec<u8>)> {
        format::read(file)
            .unwrap()
            .into_iter()
            .map(|(s, _)| (s.tag, s.data.to_vec()))
            .collect()
    }

    /// The first byte at which two byte strings differ (the shorter one's length if one is a
    /// prefix of the other).
    fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
        (0..a.len().max(b.len())).find(|&i| a.get(i) != b.get(i))
    }

    /// The committed image is exactly what the builder makes of `data/ENABLE1.txt`, so it can
    /// never drift from the list, the builder or the node table's layout.
    #[test]
    fn the_image_is_what_the_builder_makes_of_enable1_txt() {
        let fresh = image_of(&from_text());
        let tags: Vec<[u8; 4]> = sections(&fresh).iter().map(|s| s.0).collect();
        assert_eq!(tags, [TAG_META, TAG_DAWG, TAG_GDAG_PACKED, TAG_AUTO]);
        if fresh != IMAGE && std::env::var_os("TILEBAG_WRITE_BUILTIN").is_some() {
            let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/ENABLE1.tblex");
            std::fs::write(path, &fresh).unwrap();
            eprintln!(
                "wrote {path} ({} bytes); build again to embed it",
                fresh.len()
            );
            return;
        }
        assert!(
            fresh == IMAGE,
            "data/ENABLE1.tblex ({} bytes) is not what the builder makes of data/ENABLE1.txt \
             ({} bytes; first difference at byte {:?}): after a change to the builder or to the \
             node table's layout, run `TILEBAG_WRITE_BUILTIN=1 cargo test -p tilebag-lexicon \
             --release --lib builtin` to write it again",
            IMAGE.len(),
            fresh.len(),
            first_difference(&fresh, IMAGE)
        );
    }

    /// The built-in list read from the image is the list compiled from the text: the same words,
    /// name and description, the same GADDAG (read from the image, never built) and the same node
    /// table as one made from that GADDAG.
    #[test]
    fn the_builtin_list_is_read_from_the_image() {
        let text = from_text();
        let made = Automaton::new(text.gaddag().edges(), text.dawg_edges());
        for lex in [Lexicon::builtin_enable(), &from_image(IMAGE).unwrap()] {
            assert!(lex.is_prebuilt(), "read from the image");
            assert!(lex.gaddag_from_file());
            assert_eq!(lex, &text);
            assert_eq!(lex.name(), BUILTIN_NAME);
            assert_eq!(lex.description(), BUILTIN_DESCRIPTION);
            assert!(lex.contains("ZYZZYVAS") && !lex.contains("QI"));
            assert!(lex.words().eq(text.words()));
            assert_eq!(lex.gaddag().edges(), text.gaddag().edges());
            assert_eq!(lex.automaton(), &made);
            assert_eq!(lex.to_bytes(), text.to_bytes());
            assert_eq!(lex.build_stats(), text.build_stats());
        }
        // A clone (what the CLI hands the engine) still reads from the image.
        let copy = Lexicon::builtin_enable().clone().with_name("copy");
        assert!(copy.is_prebuilt());
        assert_eq!(copy.automaton(), &made);
        // In place, not copied, where the machine's byte order allows (the image is aligned).
        if cfg!(target_endian = "little") {
            assert!(copy.dawg_in_place() && copy.automaton().in_place());
            assert!(Lexicon::builtin_enable().automaton().in_place());
        }
        assert!(!text.dawg_in_place() && !made.in_place());
    }

    /// The image is an ordinary `.tblex` file with a good checksum: any reader loads it (the
    /// `AUTO` section is skipped), so `tilebag lexicon info` and `--lexicon` work on it.
    #[test]
    fn the_image_is_a_file_any_reader_loads() {
        let lex = Lexicon::from_bytes(IMAGE).unwrap();
        assert!(!lex.is_prebuilt(), "a file's AUTO section is never used");
        assert!(lex.gaddag_from_file());
        assert_eq!(&lex, Lexicon::builtin_enable());
        assert_eq!(lex.identify(), Some("ENABLE1"));
    }

    /// A damaged image is an error, never a panic (the built-in list would then be compiled from
    /// the text); a node table that is not well formed is never used: the table is made from the
    /// GADDAG instead.
    #[test]
    fn a_damaged_image_is_refused_and_a_damaged_table_never_used() {
        for cut in [0, 7, 100, 5_000] {
            assert!(from_image(&IMAGE[..cut]).is_err(), "cut at {cut}");
        }
        let secs = format::read(IMAGE).unwrap();
        let without: Vec<Section<'_>> = secs
            .iter()
            .filter(|(s, _)| s.tag != TAG_AUTO)
            .map(|&(s, _)| s)
            .collect();
        let err = from_image(leak(format::write(&without))).unwrap_err();
        assert!(err.to_string().contains("AUTO"), "{err}");

        // The table with the GADDAG root's first child pointing into the middle of a node.
        let auto = secs.iter().find(|(s, _)| s.tag == TAG_AUTO).unwrap().0.data;
        let word = |i: usize| u32::from_le_bytes(auto[4 * i..4 * i + 4].try_into().unwrap());
        let root = word(0) as usize;
        assert_ne!(word(2 + root), 0, "the GADDAG's root has children");
        let mut bad = auto.to_vec();
        let child = 4 * (2 + root + 2);
        bad[child..child + 4].copy_from_slice(&(word(2 + root + 2) + 1).to_le_bytes());
        let bad = leak(bad);
        assert!(Automaton::from_le_bytes(bad).is_none());
        let damaged: Vec<Section<'_>> = secs
            .iter()
            .map(|&(s, _)| Section {
                data: if s.tag == TAG_AUTO { bad } else { s.data },
                ..s
            })
            .collect();
        let lex = from_image(leak(format::write(&damaged))).unwrap();
        assert_eq!(lex.automaton(), Lexicon::builtin_enable().automaton());
    }

    fn leak(bytes: Vec<u8>) -> &'static [u8] {
        Box::leak(bytes.into_boxed_slice())
    }
}
