//! [`WordSource`]: whatever the user named as the lexicon (a built file, a plain word list, a
//! layered configuration), or the built-in ENABLE1 when nothing was named.

use crate::error::LexiconError;
use crate::kind::{sniff, SourceKind};
use crate::layered::LayeredLexicon;
use crate::lexicon::{file_stem, Lexicon};
use std::path::{Path, PathBuf};

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
