//! [`WordSource`]: whatever the user named as the lexicon (a built file, a plain word list, a
//! layered configuration), or the built-in ENABLE1 when nothing was named.

use crate::error::LexiconError;
use crate::format::MAGIC;
use crate::layered::LayeredLexicon;
use crate::lexicon::{file_stem, Lexicon};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The kinds of lexicon source.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SourceKind {
    /// The built-in ENABLE1 list.
    Builtin,
    /// A built `.tblex` file.
    Built,
    /// A plain word list, compiled in memory when opened.
    WordList,
    /// A layered configuration (TOML).
    Layered,
}

/// A lexicon ready to judge words, whatever it was made from.
#[derive(Debug, Clone)]
pub enum WordSource {
    /// The built-in ENABLE1 list ([`Lexicon::builtin_enable`]).
    Builtin(&'static Lexicon),
    /// A built lexicon file.
    Built {
        /// The file.
        path: PathBuf,
        /// Its contents.
        lexicon: Lexicon,
    },
    /// A plain word list, compiled when opened.
    WordList {
        /// The file.
        path: PathBuf,
        /// The compiled words.
        lexicon: Lexicon,
    },
    /// Sources layered with length windows.
    Layered(LayeredLexicon),
}

impl WordSource {
    /// The built-in ENABLE1 list.
    pub fn builtin() -> WordSource {
        WordSource::Builtin(Lexicon::builtin_enable())
    }

    /// Whether the word is acceptable (case-insensitive; anything but 1 to 15 letters A-Z is not).
    pub fn contains(&self, word: &str) -> bool {
        match self {
            WordSource::Builtin(l) => l.contains(word),
            WordSource::Built { lexicon, .. } | WordSource::WordList { lexicon, .. } => {
                lexicon.contains(word)
            }
            WordSource::Layered(l) => l.contains(word),
        }
    }

    /// What kind of source this is.
    pub fn kind(&self) -> SourceKind {
        match self {
            WordSource::Builtin(_) => SourceKind::Builtin,
            WordSource::Built { .. } => SourceKind::Built,
            WordSource::WordList { .. } => SourceKind::WordList,
            WordSource::Layered(_) => SourceKind::Layered,
        }
    }

    /// The source's name (a built file's stored name, a word list's file stem, a
    /// configuration's `name`).
    pub fn name(&self) -> &str {
        match self {
            WordSource::Builtin(l) => l.name(),
            WordSource::Built { lexicon, .. } | WordSource::WordList { lexicon, .. } => {
                lexicon.name()
            }
            WordSource::Layered(l) => l.name(),
        }
    }

    /// The single lexicon behind this source, unless it is layered.
    pub fn lexicon(&self) -> Option<&Lexicon> {
        match self {
            WordSource::Builtin(l) => Some(l),
            WordSource::Built { lexicon, .. } | WordSource::WordList { lexicon, .. } => {
                Some(lexicon)
            }
            WordSource::Layered(_) => None,
        }
    }

    /// One lexicon of exactly the acceptable words, for move generation: the source's own, or for
    /// layered sources the union compiled with its length windows applied (so a generator
    /// proposes exactly the words the judge accepts).
    pub fn generator_lexicon(&self) -> Result<std::borrow::Cow<'_, Lexicon>, LexiconError> {
        match self {
            WordSource::Layered(l) => Ok(std::borrow::Cow::Owned(l.to_lexicon()?)),
            other => match other.lexicon() {
                Some(l) => Ok(std::borrow::Cow::Borrowed(l)),
                None => Ok(std::borrow::Cow::Owned(Lexicon::empty(self.name()))),
            },
        }
    }

    /// Every acceptable word, sorted.
    pub fn words(&self) -> Box<dyn Iterator<Item = String> + '_> {
        match self {
            WordSource::Layered(l) => Box::new(l.words()),
            other => match other.lexicon() {
                Some(l) => Box::new(l.words()),
                None => Box::new(std::iter::empty()),
            },
        }
    }
}

impl tilebag_core::WordJudge for WordSource {
    fn is_valid(&self, word: &str) -> bool {
        self.contains(word)
    }
}

/// Tells what a file is from its first bytes and its name: the magic bytes mean a built file; a
/// `.toml` extension, or a first meaningful line that is a TOML table header (`[`) or holds a
/// `key = value`, means a layered configuration (neither can be a line of a word list);
/// anything else is read as a word list. A file named `*.tblex`, or one shorter than the magic
/// bytes that is their beginning (a built file cut short), counts as built, so that its damage
/// is reported instead of its bytes being read as words.
pub fn sniff(bytes: &[u8], path: &Path) -> SourceKind {
    if bytes.starts_with(MAGIC) || (!bytes.is_empty() && MAGIC.starts_with(bytes)) {
        return SourceKind::Built;
    }
    let tblex_ext = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("tblex"));
    if tblex_ext {
        return SourceKind::Built;
    }
    let toml_ext = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("toml"));
    if toml_ext {
        return SourceKind::Layered;
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let first = bytes
        .split(|&b| b == b'\n')
        .map(|l| l.trim_ascii())
        .find(|l| !l.is_empty() && !l.starts_with(b"#"));
    match first {
        Some(l) if l.starts_with(b"[") || l.contains(&b'=') => SourceKind::Layered,
        _ => SourceKind::WordList,
    }
}

/// Opens the lexicon at `path`, whatever its kind (see [`sniff`]): a built file is loaded and
/// validated, a word list is compiled in memory, a configuration opens all its sources.
/// Errors name the file (and the line or byte offset).
pub fn open_lexicon(path: impl AsRef<Path>) -> Result<WordSource, LexiconError> {
    let path = path.as_ref();
    let bytes = std::fs::read(path).map_err(|e| LexiconError::io(path, e))?;
    let source = match sniff(&bytes, path) {
        SourceKind::Built => WordSource::Built {
            path: path.to_owned(),
            lexicon: Lexicon::from_bytes(&bytes).map_err(|e| e.in_file(path))?,
        },
        SourceKind::Layered => {
            WordSource::Layered(LayeredLexicon::from_config_bytes(&bytes, path)?)
        }
        SourceKind::WordList | SourceKind::Builtin => WordSource::WordList {
            path: path.to_owned(),
            lexicon: Lexicon::from_word_list(&bytes, &file_stem(path))
                .map_err(|e| e.in_file(path))?,
        },
    };
    Ok(source)
}

/// [`open_lexicon`] for a named path, or the built-in ENABLE1 when none is named.
pub fn open_lexicon_or_builtin(path: Option<&Path>) -> Result<WordSource, LexiconError> {
    match path {
        Some(p) => open_lexicon(p),
        None => Ok(WordSource::builtin()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sniffing() {
        let p = Path::new("x.txt");
        assert_eq!(sniff(b"TBLEX\0\x01\0", p), SourceKind::Built);
        assert_eq!(sniff(b"CAT\nDOG\n", p), SourceKind::WordList);
        assert_eq!(sniff(b"", p), SourceKind::WordList);
        assert_eq!(sniff(b"# list\n\nname = \"x\"\n", p), SourceKind::Layered);
        assert_eq!(sniff(b"# list\n[[source]]\n", p), SourceKind::Layered);
        assert_eq!(sniff(b"CAT\n", Path::new("conf.TOML")), SourceKind::Layered);
        assert_eq!(sniff(b"TBLEX\0", Path::new("conf.toml")), SourceKind::Built);
        // A built file cut short (issue 11): a prefix of the magic, or anything named .tblex.
        assert_eq!(sniff(b"TBLE", p), SourceKind::Built);
        assert_eq!(sniff(b"T", p), SourceKind::Built);
        assert_eq!(sniff(b"", Path::new("nwl.tblex")), SourceKind::Built);
        assert_eq!(sniff(b"CAT\n", Path::new("nwl.TBLEX")), SourceKind::Built);
        // A bad word list stays a word list, so its error names the bad character.
        assert_eq!(sniff(b"CAT\nD0G\n", p), SourceKind::WordList);
    }
}
