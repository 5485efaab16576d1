//! [`Lexicon`]: one compiled word list, its statistics, and its file form.

use crate::anagram::AnagramSet;
use crate::automaton::Automaton;
use crate::dawg::{self, Dawg, Summary, Words, MAX_WORD_LEN};
use crate::error::LexiconError;
use crate::fingerprint::Fingerprint;
use crate::format::{
    self, Reader, Section, FLAG_REQUIRED, TAG_AUTO, TAG_DAWG, TAG_GDAG, TAG_GDAG_PACKED, TAG_META,
};
use crate::gaddag::Gaddag;
use crate::wordlist::{normalize, sorted_words, uppercase_list};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::OnceLock;

/// A compiled word list: a minimal DAWG of its words of 1 to 15 letters, plus what the build
/// learned about the source list (its fingerprint, how many longer words it dropped).
///
/// Build one from a word list ([`Lexicon::from_word_list`], [`Lexicon::from_words`]), save it
/// ([`Lexicon::to_bytes`], [`Lexicon::save`]) and load it back in milliseconds
/// ([`Lexicon::from_bytes`], [`Lexicon::load`]). Loading validates everything, so a lexicon in
/// hand never panics, loops or reads out of bounds, whatever file it came from.
#[derive(Debug, Clone)]
pub struct Lexicon {
    dawg: Dawg,
    /// The GADDAG for move generation: read from the file's `GDGP` (or `GDAG`) section, read
    /// on first use from the built-in image, or built from the words on first use (files
    /// written before the section existed, word lists).
    gaddag: OnceLock<Gaddag>,
    /// Whether `gaddag` came, or will come, from a file (the built-in image included).
    gaddag_from_file: bool,
    /// The generator's flat node table of the GADDAG and DAWG, made on first use (read from the
    /// built-in image for the built-in list).
    automaton: OnceLock<Automaton>,
    /// The built-in list's prebuilt sections (see `crate::builtin`); `None` for every other.
    prebuilt: Option<Prebuilt>,
    /// The bingo filter (words of 7 letters or more), made on first use.
    anagrams: OnceLock<AnagramSet>,
    /// Bytes of the packed GADDAG section, once known (`to_bytes` makes it; `build_stats`
    /// needs only its length).
    packed_gaddag_len: OnceLock<usize>,
    name: String,
    description: String,
    word_count: u32,
    counts_by_length: [u32; 16],
    source: Fingerprint,
    dropped_long: u32,
}

/// The sections of the built-in image a lexicon reads its GADDAG and node table from on first
/// use (see `crate::builtin`). They describe the lexicon's own words, so a clone or a renamed
/// copy keeps them.
#[derive(Clone, Copy)]
pub(crate) struct Prebuilt {
    /// The packed GADDAG section (`GDGP`) and its offset in the image.
    pub gaddag: (&'static [u8], usize),
    /// The node table section (`AUTO`).
    pub automaton: &'static [u8],
}

impl std::fmt::Debug for Prebuilt {
    // A summary: the sections run to megabytes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Prebuilt")
            .field("gaddag_bytes", &self.gaddag.0.len())
            .field("automaton_bytes", &self.automaton.len())
            .finish()
    }
}

/// Figures about a built lexicon, for `lexicon info` and the closing notes of benchmarks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildStats {
    /// Distinct words in the source list, of every length.
    pub source_words: u32,
    /// Words in the lexicon (1 to 15 letters).
    pub words: u32,
    /// Source words longer than 15 letters, left out because they can never be played.
    pub dropped_long: u32,
    /// DAWG nodes (sibling runs).
    pub nodes: u32,
    /// DAWG edges, including the root sentinel.
    pub edges: u32,
    /// Size of the file [`Lexicon::to_bytes`] writes.
    pub file_bytes: u64,
}

/// Two lexicons are equal when their words, names and statistics are: the GADDAG is a function
/// of the words, whether or not it has been built yet.
impl PartialEq for Lexicon {
    fn eq(&self, other: &Lexicon) -> bool {
        self.dawg == other.dawg
            && self.name == other.name
            && self.description == other.description
            && self.word_count == other.word_count
            && self.counts_by_length == other.counts_by_length
            && self.source == other.source
            && self.dropped_long == other.dropped_long
    }
}
impl Eq for Lexicon {}

impl Lexicon {
    /// The GADDAG of the words, for move generation: the file's own, the built-in image's
    /// (unpacked and checked on first use, about 25 ms), or built in memory on first use (about a
    /// quarter of a second for ENABLE) and kept.
    pub fn gaddag(&self) -> &Gaddag {
        self.gaddag.get_or_init(|| {
            // The image's section is checked as a file's would be; it cannot fail (a test
            // compares the image with a fresh build), but if it did the GADDAG is built instead.
            if let Some(g) = self.prebuilt.and_then(|p| {
                let (data, at) = p.gaddag;
                let edges = crate::gaddag::unpack_edges(data, at).ok()?;
                checked_gaddag(edges, at, self.dawg.edges(), self.word_count).ok()
            }) {
                return g;
            }
            // From our own validated DAWG, so the build cannot fail short of the format's edge
            // limit; an empty GADDAG is the fallback rather than a panic.
            Gaddag::from_dawg(self.dawg.edges())
                .unwrap_or_else(|_| Gaddag::from_dawg(&[]).expect("the empty GADDAG builds"))
        })
    }

    /// The move generator's node table of the GADDAG and the DAWG (see [`crate::automaton`]),
    /// made on first use (about 70 ms for ENABLE) and kept; the built-in list reads its own in
    /// place from the image instead, once checked to be well formed (a few milliseconds).
    pub fn automaton(&self) -> &Automaton {
        self.automaton.get_or_init(|| {
            self.prebuilt
                .and_then(|p| Automaton::from_le_bytes(p.automaton))
                .unwrap_or_else(|| Automaton::new(self.gaddag().edges(), self.dawg.edges()))
        })
    }

    /// The lexicon's anagrams (see [`crate::anagram`]): a filter that says whether some word may
    /// be made of given letters and blanks, and the words of given letters. Made on first use
    /// (`tilebag bench movegen --top 1` prints its time and size) and kept.
    pub fn anagrams(&self) -> &AnagramSet {
        self.anagrams
            .get_or_init(|| AnagramSet::build(self.words(), 2))
    }

    /// The DAWG's edges (see [`crate::dawg`]): a move generator follows a GADDAG separator into
    /// them.
    pub fn dawg_edges(&self) -> &[u32] {
        self.dawg.edges()
    }

    /// Whether the GADDAG was read from the file (false: built in memory, or not yet needed).
    pub fn gaddag_from_file(&self) -> bool {
        self.gaddag_from_file
    }

    /// Builds a lexicon from a plain word list (see [`crate::parse_word_list`] for what it accepts).
    /// Words over 15 letters are dropped and counted ([`Lexicon::dropped_long`]).
    pub fn from_word_list(text: &[u8], name: &str) -> Result<Lexicon, LexiconError> {
        let upper = uppercase_list(text);
        Lexicon::from_sorted(&sorted_words(&upper)?, name)
    }

    /// Builds a lexicon from a plain word list file, named after the file's stem.
    pub fn from_word_list_file(path: impl AsRef<Path>) -> Result<Lexicon, LexiconError> {
        let path = path.as_ref();
        let text = std::fs::read(path).map_err(|e| LexiconError::io(path, e))?;
        Lexicon::from_word_list(&text, &file_stem(path)).map_err(|e| e.in_file(path))
    }

    /// Builds a lexicon from words in any order and letter case (duplicates are fine).
    /// A word with anything but letters A-Z is an error naming the word.
    pub fn from_words<I, S>(words: I, name: &str) -> Result<Lexicon, LexiconError>
    where
        I: IntoIterator<Item = S>,
        S: AsRef<str>,
    {
        let mut list = Vec::new();
        for w in words {
            let w = w.as_ref();
            list.push(normalize(w).ok_or_else(|| LexiconError::BadWord { word: w.to_owned() })?);
        }
        list.sort_unstable();
        list.dedup();
        Lexicon::from_sorted(&list, name)
    }

    /// Builds from sorted, distinct, uppercase A-Z words (of any length). The only possible
    /// error is a list too large for the format's 33 million edges.
    pub(crate) fn from_sorted<S: AsRef<[u8]>>(
        words: &[S],
        name: &str,
    ) -> Result<Lexicon, LexiconError> {
        let source = Fingerprint::of_sorted_by(words, |w| w.as_ref());
        let kept: Vec<&[u8]> = words
            .iter()
            .map(|w| w.as_ref())
            .filter(|w| w.len() <= MAX_WORD_LEN)
            .collect();
        let dropped_long = (words.len() - kept.len()) as u32;
        let mut counts_by_length = [0u32; 16];
        for w in &kept {
            counts_by_length[w.len()] += 1;
        }
        Ok(Lexicon {
            dawg: dawg::build(&kept)?,
            gaddag: OnceLock::new(),
            gaddag_from_file: false,
            automaton: OnceLock::new(),
            prebuilt: None,
            anagrams: OnceLock::new(),
            packed_gaddag_len: OnceLock::new(),
            name: name.to_owned(),
            description: String::new(),
            word_count: kept.len() as u32,
            counts_by_length,
            source,
            dropped_long,
        })
    }

    /// A lexicon with no words.
    pub fn empty(name: &str) -> Lexicon {
        Lexicon {
            dawg: Dawg::empty(),
            gaddag: OnceLock::new(),
            gaddag_from_file: false,
            automaton: OnceLock::new(),
            prebuilt: None,
            anagrams: OnceLock::new(),
            packed_gaddag_len: OnceLock::new(),
            name: name.to_owned(),
            description: String::new(),
            word_count: 0,
            counts_by_length: [0; 16],
            source: Fingerprint::default(),
            dropped_long: 0,
        }
    }

    /// Sets the name (shown by `lexicon info`, stored in the file).
    pub fn with_name(mut self, name: &str) -> Lexicon {
        name.clone_into(&mut self.name);
        self
    }

    /// Sets the free-text description (e.g. where the list came from), stored in the file.
    pub fn with_description(mut self, description: &str) -> Lexicon {
        description.clone_into(&mut self.description);
        self
    }

    /// The name given at build time.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The description given at build time (may be empty).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Whether `word` is in the lexicon. Letter case does not matter; anything that is not 1 to
    /// 15 letters A-Z is not a word.
    pub fn contains(&self, word: &str) -> bool {
        self.dawg.contains(word.as_bytes())
    }

    /// Whether some word starts with `prefix` (case-insensitive). Handy for move generation and
    /// for anagram tools; the empty prefix asks whether the lexicon has any word.
    pub fn has_prefix(&self, prefix: &str) -> bool {
        self.dawg.has_prefix(prefix.as_bytes())
    }

    /// Every word, uppercase, in sorted order.
    pub fn words(&self) -> Words<'_> {
        self.dawg.words()
    }

    /// How many words the lexicon holds (words over 15 letters are not among them).
    pub fn word_count(&self) -> u32 {
        self.word_count
    }

    /// Words by length: index `n` holds the number of `n`-letter words (index 0 is 0).
    pub fn counts_by_length(&self) -> [u32; 16] {
        self.counts_by_length
    }

    /// How many words of the source list were longer than 15 letters and left out.
    pub fn dropped_long(&self) -> u32 {
        self.dropped_long
    }

    /// The fingerprint of the words in this lexicon.
    pub fn fingerprint(&self) -> Fingerprint {
        Fingerprint {
            word_count: self.word_count,
            two_letter_count: self.counts_by_length[2],
            has_qi: self.contains("QI"),
            has_euoi: self.contains("EUOI"),
            has_ok: self.contains("OK"),
        }
    }

    /// The fingerprint of the source list as it was read, before words over 15 letters were
    /// dropped (stored in the file at build time).
    pub fn source_fingerprint(&self) -> Fingerprint {
        self.source
    }

    /// What the source list appears to be, from the fingerprints of `shared/lexicons/README.md`:
    /// `"ENABLE1"` when built from the full ENABLE list (whose 4,272 words over 15 letters are
    /// dropped at build), `"ENABLE1 (words over 15 letters dropped)"` when built from a copy
    /// that had already lost them, `"TWL06"`, `"SOWPODS"`, `"CSW19"`, or `None`.
    pub fn identify(&self) -> Option<&'static str> {
        self.source
            .identify()
            .or_else(|| self.fingerprint().identify_with_dropped(self.dropped_long))
    }

    /// Figures about the built lexicon.
    pub fn build_stats(&self) -> BuildStats {
        BuildStats {
            source_words: self.source.word_count,
            words: self.word_count,
            dropped_long: self.dropped_long,
            nodes: self.dawg.node_count() as u32,
            edges: self.dawg.edges().len() as u32,
            // What `to_bytes` would write, without writing it.
            file_bytes: format::file_len(&[
                self.meta_section().len(),
                self.dawg.edges().len() * 4,
                *self
                    .packed_gaddag_len
                    .get_or_init(|| crate::gaddag::packed_len(self.gaddag().edges())),
            ]) as u64,
        }
    }

    /// The payload of the META section.
    fn meta_section(&self) -> Vec<u8> {
        let mut meta = Vec::with_capacity(96 + self.name.len() + self.description.len());
        meta.extend_from_slice(&self.word_count.to_le_bytes());
        meta.extend_from_slice(&self.dropped_long.to_le_bytes());
        for c in self.counts_by_length {
            meta.extend_from_slice(&c.to_le_bytes());
        }
        meta.extend_from_slice(&self.source.word_count.to_le_bytes());
        meta.extend_from_slice(&self.source.two_letter_count.to_le_bytes());
        let flags = u32::from(self.source.has_qi)
            | u32::from(self.source.has_euoi) << 1
            | u32::from(self.source.has_ok) << 2;
        meta.extend_from_slice(&flags.to_le_bytes());
        for s in [&self.name, &self.description] {
            meta.extend_from_slice(&(s.len() as u32).to_le_bytes());
            meta.extend_from_slice(s.as_bytes());
        }
        meta
    }

    /// The file form (see [`crate::format`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        self.file_bytes(false)
    }

    /// The file form, with the generator's node table as an `AUTO` section after the others
    /// when `with_automaton` is set (the built-in image: see `crate::builtin`).
    pub(crate) fn file_bytes(&self, with_automaton: bool) -> Vec<u8> {
        let meta = self.meta_section();
        let dawg: Vec<u8> = self
            .dawg
            .edges()
            .iter()
            .flat_map(|e| e.to_le_bytes())
            .collect();
        let gdag = crate::gaddag::pack_edges(self.gaddag().edges());
        let _ = self.packed_gaddag_len.set(gdag.len());
        let auto = if with_automaton {
            self.automaton().to_le_bytes()
        } else {
            Vec::new()
        };
        let mut sections = vec![
            Section {
                tag: TAG_META,
                flags: FLAG_REQUIRED,
                data: &meta,
            },
            Section {
                tag: TAG_DAWG,
                flags: FLAG_REQUIRED,
                data: &dawg,
            },
            Section {
                tag: TAG_GDAG_PACKED,
                flags: 0,
                data: &gdag,
            },
        ];
        if with_automaton {
            sections.push(Section {
                tag: TAG_AUTO,
                flags: 0,
                data: &auto,
            });
        }
        format::write(&sections)
    }

    /// Reads and fully validates a lexicon file's bytes. Any truncation or corruption is an
    /// error naming the byte offset (never a panic). An `AUTO` section is skipped (see
    /// [`crate::format`]).
    pub fn from_bytes(bytes: &[u8]) -> Result<Lexicon, LexiconError> {
        let sections = format::read(bytes)?;
        let mut lex = Lexicon::from_meta_and_dawg(&sections)?;
        let packed = sections
            .iter()
            .find(|(s, _)| s.tag == TAG_GDAG_PACKED)
            .map(|&(g, g_at)| crate::gaddag::unpack_edges(g.data, g_at).map(|e| (e, g_at)))
            .transpose()?;
        let raw = sections.iter().find(|(s, _)| s.tag == TAG_GDAG);
        let edges_at = if let Some(p) = packed {
            Some(p)
        } else if let Some(&(g, g_at)) = raw {
            whole_edges(g.data, g_at, "GADDAG")?;
            Some((
                g.data
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                    .collect(),
                g_at,
            ))
        } else {
            None
        };
        if let Some((g_edges, g_at)) = edges_at {
            let built = checked_gaddag(g_edges, g_at, lex.dawg.edges(), lex.word_count)?;
            let _ = lex.gaddag.set(built);
            lex.gaddag_from_file = true;
        }
        Ok(lex)
    }

    /// The lexicon of a file's META and DAWG sections, both checked, the DAWG's word counts
    /// against META's (its GADDAG not yet known).
    fn from_meta_and_dawg(sections: &[(Section<'_>, usize)]) -> Result<Lexicon, LexiconError> {
        Lexicon::from_meta_and(sections, |bytes, at| {
            whole_edges(bytes, at, "DAWG")?;
            let edges: Vec<u32> = bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            let (dawg, summary) = Dawg::from_edges(edges, at)?;
            Ok((dawg, Some(summary)))
        })
    }

    /// The lexicon of the built-in image's sections (see `crate::builtin`): META read, the DAWG
    /// read in place and its structure checked (its counts are the image's, which a test
    /// compares with a fresh build's), the GADDAG and the node table read from `prebuilt` on
    /// first use.
    pub(crate) fn from_image(
        sections: &[(Section<'static>, usize)],
        prebuilt: Prebuilt,
    ) -> Result<Lexicon, LexiconError> {
        let lex = Lexicon::from_meta_and(sections, |bytes, at| {
            whole_edges(bytes, at, "DAWG")?;
            let edges = format::le_words(bytes)
                .ok_or_else(|| LexiconError::corrupt(at, "the DAWG section is misaligned"))?;
            Ok((Dawg::from_image_edges(edges, at)?, None))
        })?;
        Ok(lex.with_prebuilt(prebuilt))
    }

    /// The lexicon of META and of the DAWG `dawg` makes of the DAWG section (and its offset),
    /// checked against META's counts when `dawg` counted its words.
    fn from_meta_and<'a>(
        sections: &[(Section<'a>, usize)],
        dawg: impl FnOnce(&'a [u8], usize) -> Result<(Dawg, Option<Summary>), LexiconError>,
    ) -> Result<Lexicon, LexiconError> {
        let find = |tag: [u8; 4]| {
            sections
                .iter()
                .find(|(s, _)| s.tag == tag)
                .map(|&(s, at)| (s.data, at))
                .ok_or_else(|| {
                    LexiconError::corrupt(
                        8,
                        format!(
                            "the file has no {:?} section",
                            String::from_utf8_lossy(&tag)
                        ),
                    )
                })
        };
        let (meta, meta_at) = find(TAG_META)?;
        let (dawg_bytes, dawg_at) = find(TAG_DAWG)?;

        let mut r = Reader::new(meta, meta_at);
        let word_count = r.u32("the word count")?;
        let dropped_long = r.u32("the dropped-word count")?;
        let counts_at = r.offset();
        let mut counts_by_length = [0u32; 16];
        for c in &mut counts_by_length {
            *c = r.u32("the counts by length")?;
        }
        let source_count = r.u32("the source word count")?;
        let source_two = r.u32("the source two-letter count")?;
        let flags_at = r.offset();
        let flags = r.u32("the source flags")?;
        if flags > 0b111 {
            return Err(LexiconError::corrupt(
                flags_at,
                format!("unknown source fingerprint flags {flags:#x}"),
            ));
        }
        let name = r.string("the name")?;
        let description = r.string("the description")?;

        let (dawg, summary) = dawg(dawg_bytes, dawg_at)?;
        if let Some(summary) = summary {
            if summary.word_count != u64::from(word_count) {
                return Err(LexiconError::corrupt(
                    meta_at,
                    format!(
                        "the header says {word_count} words but the DAWG holds {}",
                        summary.word_count
                    ),
                ));
            }
            if summary.counts_by_length != counts_by_length {
                return Err(LexiconError::corrupt(
                    counts_at,
                    "the counts by length disagree with the DAWG",
                ));
            }
        }
        Ok(Lexicon {
            dawg,
            gaddag: OnceLock::new(),
            gaddag_from_file: false,
            automaton: OnceLock::new(),
            prebuilt: None,
            anagrams: OnceLock::new(),
            packed_gaddag_len: OnceLock::new(),
            name,
            description,
            word_count,
            counts_by_length,
            source: Fingerprint {
                word_count: source_count,
                two_letter_count: source_two,
                has_qi: flags & 1 != 0,
                has_euoi: flags & 2 != 0,
                has_ok: flags & 4 != 0,
            },
            dropped_long,
        })
    }

    /// This lexicon reading its GADDAG and node table from the built-in image's sections on
    /// first use (see `crate::builtin`); they must be those of its words.
    fn with_prebuilt(mut self, prebuilt: Prebuilt) -> Lexicon {
        self.prebuilt = Some(prebuilt);
        self.gaddag_from_file = true;
        self
    }

    /// Whether the GADDAG and the node table are read from the built-in image.
    #[cfg(test)]
    pub(crate) fn is_prebuilt(&self) -> bool {
        self.prebuilt.is_some()
    }

    /// Whether the DAWG's edges are read in place from the built-in image.
    #[cfg(test)]
    pub(crate) fn dawg_in_place(&self) -> bool {
        self.dawg.in_place()
    }

    /// Reads a lexicon file (see [`Lexicon::from_bytes`]); errors name the path.
    pub fn load(path: impl AsRef<Path>) -> Result<Lexicon, LexiconError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| LexiconError::io(path, e))?;
        Lexicon::from_bytes(&bytes).map_err(|e| e.in_file(path))
    }

    /// Writes the lexicon file (see [`Lexicon::to_bytes`]).
    pub fn save(&self, path: impl AsRef<Path>) -> Result<(), LexiconError> {
        let path = path.as_ref();
        std::fs::write(path, self.to_bytes()).map_err(|e| LexiconError::io(path, e))
    }
}

/// An error unless `bytes`, the section of a graph (`what`) at `at`, are whole edges.
fn whole_edges(bytes: &[u8], at: usize, what: &str) -> Result<(), LexiconError> {
    if bytes.len() % 4 == 0 {
        return Ok(());
    }
    Err(LexiconError::corrupt(
        at,
        format!(
            "the {what} section is {} bytes, not a whole number of edges",
            bytes.len()
        ),
    ))
}

/// A GADDAG read from a file (or the built-in image), checked as the generator needs it and
/// against the header's word count.
fn checked_gaddag(
    edges: Vec<u32>,
    at: usize,
    dawg: &[u32],
    word_count: u32,
) -> Result<Gaddag, LexiconError> {
    let built = Gaddag::from_edges(edges, at, dawg)?;
    let n = built.word_count();
    if n != u64::from(word_count) {
        return Err(LexiconError::corrupt(
            at,
            format!("the header says {word_count} words but the GADDAG holds {n}"),
        ));
    }
    Ok(built)
}

pub(crate) fn file_stem(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

impl tilebag_core::WordJudge for Lexicon {
    fn is_valid(&self, word: &str) -> bool {
        self.contains(word)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> Lexicon {
        Lexicon::from_word_list(
            b"cat\ncats\nDOG\nqi\nza\nantidisestablishmentarianism\n",
            "small",
        )
        .unwrap()
    }

    #[test]
    fn builds_counts_and_round_trips() {
        let lex = small().with_description("test list");
        assert_eq!(lex.word_count(), 5);
        assert_eq!(lex.dropped_long(), 1);
        assert_eq!(lex.counts_by_length()[2], 2);
        assert_eq!(lex.counts_by_length()[3], 2);
        assert!(lex.contains("cats") && lex.contains("Qi") && !lex.contains("ca"));
        assert!(!lex.contains("ANTIDISESTABLISHMENTARIANISM"));
        let back = Lexicon::from_bytes(&lex.to_bytes()).unwrap();
        assert_eq!(back, lex);
        assert_eq!(back.description(), "test list");
        assert_eq!(back.source_fingerprint().word_count, 6);
        let stats = back.build_stats();
        assert_eq!(stats.file_bytes, lex.to_bytes().len() as u64);
        assert_eq!(
            (stats.source_words, stats.words, stats.dropped_long),
            (6, 5, 1)
        );
    }

    #[test]
    fn from_words_rejects_bad_words() {
        let e = Lexicon::from_words(["CAT", "D0G"], "x").unwrap_err();
        assert!(matches!(e, LexiconError::BadWord { ref word } if word == "D0G"));
        assert!(Lexicon::from_words(["CAT", ""], "x").is_err());
        let lex = Lexicon::from_words(["dog", "DOG", "cat"], "x").unwrap();
        assert_eq!(lex.words().collect::<Vec<_>>(), ["CAT", "DOG"]);
    }

    #[test]
    fn counts_in_header_must_match_the_graph() {
        let lex = small();
        let mut bytes = lex.to_bytes();
        // META starts after the 16-byte header and three 16-byte table entries (META, DAWG, GDAG):
        // word count first.
        bytes[64] ^= 1;
        format::reseal(&mut bytes);
        let e = Lexicon::from_bytes(&bytes).unwrap_err().to_string();
        assert!(e.contains("header says"), "{e}");
        let mut bytes = lex.to_bytes();
        // counts_by_length[2] and [3]: swap a word between them, keeping the total.
        bytes[64 + 8 + 8] += 1;
        bytes[64 + 8 + 12] -= 1;
        format::reseal(&mut bytes);
        let e = Lexicon::from_bytes(&bytes).unwrap_err().to_string();
        assert!(e.contains("counts by length"), "{e}");
    }

    #[test]
    fn save_and_load() {
        let dir = std::env::temp_dir().join(format!("tilebag-lexicon-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("small.tblex");
        small().save(&path).unwrap();
        assert_eq!(Lexicon::load(&path).unwrap(), small());
        let missing = dir.join("missing.tblex");
        let e = Lexicon::load(&missing).unwrap_err().to_string();
        assert!(e.contains("missing.tblex"), "{e}");
        std::fs::write(&path, b"TBLEX\0\x01").unwrap();
        let e = Lexicon::load(&path).unwrap_err().to_string();
        assert!(e.contains("small.tblex") && e.contains("truncated"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn debug_is_a_summary() {
        let lex = Lexicon::builtin_enable();
        let text = format!("{lex:?}");
        assert!(text.len() < 1000, "{} bytes of Debug", text.len());
    }

    #[test]
    fn word_judge() {
        use tilebag_core::WordJudge;
        let lex = small();
        let judge: &dyn WordJudge = &lex;
        assert!(judge.is_valid("ZA") && !judge.is_valid("ZZ"));
    }
}

#[cfg(test)]
mod packed_gaddag_tests {
    use super::*;

    /// A file written before the packed GADDAG section existed (the raw `GDAG` section, 4 bytes
    /// an edge) still loads, with the same GADDAG from the file; the packed one is smaller.
    #[test]
    fn files_with_the_raw_gaddag_section_still_load() {
        let lex =
            Lexicon::from_words(["CAT", "CATS", "SCAT", "AT", "TA", "QI", "ZZZ"], "t").unwrap();
        let file = lex.to_bytes();
        let raw: Vec<u8> = lex
            .gaddag()
            .edges()
            .iter()
            .flat_map(|e| e.to_le_bytes())
            .collect();
        let sections = format::read(&file).unwrap();
        let mut packed_len = 0;
        let old: Vec<Section> = sections
            .iter()
            .map(|(s, _)| {
                if s.tag == TAG_GDAG_PACKED {
                    packed_len = s.data.len();
                    Section {
                        tag: TAG_GDAG,
                        flags: 0,
                        data: &raw,
                    }
                } else {
                    Section {
                        tag: s.tag,
                        flags: s.flags,
                        data: s.data,
                    }
                }
            })
            .collect();
        assert!(
            packed_len > 0 && packed_len < raw.len(),
            "{packed_len} vs {}",
            raw.len()
        );
        let old_back = Lexicon::from_bytes(&format::write(&old)).unwrap();
        assert!(old_back.gaddag_from_file());
        assert_eq!(old_back.gaddag().edges(), lex.gaddag().edges());
        let back = Lexicon::from_bytes(&file).unwrap();
        assert!(back.gaddag_from_file());
        assert_eq!(back.gaddag().edges(), lex.gaddag().edges());
    }

    /// A packed section cut short, or with bytes after its edges, is an error naming the place.
    #[test]
    fn damaged_packed_sections_are_errors() {
        let lex = Lexicon::from_words(["CAT", "CATS", "AT"], "t").unwrap();
        let packed = crate::gaddag::pack_edges(lex.gaddag().edges());
        assert_eq!(
            crate::gaddag::unpack_edges(&packed, 0).unwrap(),
            lex.gaddag().edges()
        );
        // Cuts inside the edges (up to 3 zeros of padding may go: they carry nothing).
        let pad = packed.iter().rev().take_while(|&&b| b == 0).count().min(3);
        for cut in 0..packed.len() - pad {
            assert!(
                crate::gaddag::unpack_edges(&packed[..cut], 0).is_err(),
                "cut at {cut}"
            );
        }
        let mut long = packed.clone();
        long.extend_from_slice(&[0, 0, 0, 0]);
        let err = crate::gaddag::unpack_edges(&long, 100)
            .unwrap_err()
            .to_string();
        assert!(err.contains("follow"), "{err}");
    }
}
