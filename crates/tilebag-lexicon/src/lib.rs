//! tilebag-lexicon: word lists compiled to a compact automaton, layered sources, the word judge.
//!
//! - [`parse_word_list`]: plain word lists, read tolerantly, with errors that name the line.
//! - [`Lexicon`]: one compiled list: a minimal DAWG of its words of 1 to 15 letters (longer
//!   words can never be played, so they are dropped at build time and counted). It saves to and
//!   loads from one validated binary file ([`mod@format`] documents the layout), answers
//!   [`Lexicon::contains`] and enumerates [`Lexicon::words`] in sorted order.
//! - [`Fingerprint`]: recognises ENABLE1, TWL06, SOWPODS and CSW19 from a few statistics.
//! - [`LayeredLexicon`]: sources with length windows (NASPA III.A.1: OWL2 plus the Long List for
//!   10-15 letters; SANSPA 3: a cascade whose last source judges only words over 8 letters),
//!   described by a small TOML file ([`layered`] documents it).
//! - [`WordSource`] and [`open_lexicon`]: whatever the user named (built file, word list or
//!   configuration, told apart by [`sniff`]), or the built-in ENABLE1 when nothing was named
//!   ([`open_lexicon_or_builtin`], [`Lexicon::builtin_enable`]).
//!
//! Every lexicon type implements [`tilebag_core::WordJudge`], so the game engine can ask it.
//!
//! ```
//! use tilebag_lexicon::Lexicon;
//! let lex = Lexicon::from_word_list(b"cat\nCATS\r\n# comment\ndog\n", "pets")?;
//! assert!(lex.contains("Cats") && !lex.contains("CA"));
//! let back = Lexicon::from_bytes(&lex.to_bytes())?;
//! assert_eq!(back.words().collect::<Vec<_>>(), ["CAT", "CATS", "DOG"]);
//! # Ok::<(), tilebag_lexicon::LexiconError>(())
//! ```
//!
//! The built-in ENABLE1 is embedded as a prebuilt image (`data/ENABLE1.tblex`: the DAWG, the
//! GADDAG and the move generator's node table, exactly as the builder makes them from
//! `data/ENABLE1.txt`, which a test checks byte for byte), read on first use (a `OnceLock`), so
//! the judge and the move generator are ready in milliseconds; [`mod@builtin`] says why it is
//! committed rather than made by a build script.

pub mod anagram;
pub mod automaton;
pub mod builtin;
pub mod dawg;
mod edge;
mod error;
mod fingerprint;
pub mod format;
pub mod gaddag;
mod kind;
pub mod layered;
mod lexicon;
mod source;
pub mod synth;
mod wordlist;

pub use anagram::AnagramSet;
pub use automaton::Automaton;
pub use builtin::{BUILTIN_NAME, ENABLE1_TEXT};
pub use dawg::{Words, MAX_WORD_LEN};
pub use error::LexiconError;
pub use fingerprint::{Fingerprint, KnownList, KNOWN_LISTS};
pub use gaddag::Gaddag;
pub use kind::{sniff, SourceKind};
pub use layered::{parse_config, Layer, LayeredConfig, LayeredLexicon, SourceSpec};
pub use lexicon::{BuildStats, Lexicon};
pub use source::{open_lexicon, open_lexicon_or_builtin, WordSource};
pub use wordlist::parse_word_list;

/// Peak resident memory of this process in kibibytes (`VmHWM` of `/proc/self/status`), where
/// the platform has it. For benchmark notes.
pub fn peak_memory_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
