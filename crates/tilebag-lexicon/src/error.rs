//! The one error type of the crate. Each variant names the problem and where it is: the line of a
//! word list or configuration, or the byte offset in a built lexicon file.

use std::io;
use std::path::PathBuf;

/// Everything that can go wrong reading word lists, configurations and lexicon files.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LexiconError {
    /// A word list holds a character that is not a letter A-Z (in either case).
    #[error("line {line}, column {column}: {ch:?} is not a letter A-Z (a word list holds one word per line)")]
    BadChar {
        /// 1-based line number.
        line: usize,
        /// 1-based column (in bytes) of the offending character.
        column: usize,
        /// The character (U+FFFD stands for bytes that are not valid UTF-8).
        ch: char,
    },

    /// A word handed to a builder is not made of letters A-Z only.
    #[error("{word:?} is not a word of letters A-Z")]
    BadWord {
        /// The word as given.
        word: String,
    },

    /// The list is too large for the edge encoding.
    #[error("the word list needs {edges} automaton edges; the file format holds at most {max}")]
    TooLarge {
        /// Edges the automaton would need.
        edges: usize,
        /// The most the format can address.
        max: usize,
    },

    /// The bytes do not start with the lexicon file magic.
    #[error("not a tilebag lexicon file: it does not start with the magic bytes \"TBLEX\\0\"")]
    BadMagic,

    /// The file says it is a format version this reader does not know.
    #[error("lexicon file format version {found} is not supported (this reader knows version {supported})")]
    UnsupportedVersion {
        /// The version in the file.
        found: u16,
        /// The version this reader writes and reads.
        supported: u16,
    },

    /// The file ends before a structure it announces.
    #[error(
        "truncated lexicon file: {what} needs bytes {start}..{end} but the file has {len} bytes"
    )]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// First byte offset needed.
        start: usize,
        /// One past the last byte offset needed.
        end: usize,
        /// The file's length.
        len: usize,
    },

    /// The checksum at the end of the file does not match its contents.
    #[error("corrupt lexicon file: the CRC-32 of bytes 0..{covered} is {computed:#010x} but the file records {stored:#010x}")]
    Checksum {
        /// The checksum recorded in the file.
        stored: u32,
        /// The checksum of the bytes read.
        computed: u32,
        /// How many bytes the checksum covers.
        covered: usize,
    },

    /// The file is structurally wrong at a byte offset.
    #[error("corrupt lexicon file at byte {offset}: {why}")]
    Corrupt {
        /// Byte offset of the bad structure.
        offset: usize,
        /// What is wrong.
        why: String,
    },

    /// The file needs a section this reader does not understand.
    #[error("lexicon file section {tag:?} (at byte {offset}) is marked required but this reader does not know it")]
    UnknownRequiredSection {
        /// The section's four-byte tag, lossily decoded.
        tag: String,
        /// Byte offset of its entry in the section table.
        offset: usize,
    },

    /// A layered-source configuration is malformed.
    #[error("line {line}: {why}")]
    Config {
        /// 1-based line number.
        line: usize,
        /// What is wrong.
        why: String,
    },

    /// A source named by a layered configuration is bad.
    #[error("line {line}: source {}: {error}", path.display())]
    Source {
        /// 1-based line of the source's `[[source]]` table in the configuration.
        line: usize,
        /// The source file.
        path: PathBuf,
        /// What is wrong with it.
        error: Box<LexiconError>,
    },

    /// Reading or writing a file failed.
    #[error("{}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying error.
        error: io::Error,
    },

    /// An error inside a named file (a word list, a configuration, or a source it names).
    #[error("{}: {error}", path.display())]
    InFile {
        /// The file.
        path: PathBuf,
        /// The error found in it.
        error: Box<LexiconError>,
    },
}

impl LexiconError {
    /// Wraps `self` with the file it was found in (unless it already names a file).
    pub fn in_file(self, path: impl Into<PathBuf>) -> LexiconError {
        match self {
            e @ (LexiconError::Io { .. } | LexiconError::InFile { .. }) => e,
            e => LexiconError::InFile {
                path: path.into(),
                error: Box::new(e),
            },
        }
    }

    pub(crate) fn corrupt(offset: usize, why: impl Into<String>) -> LexiconError {
        LexiconError::Corrupt {
            offset,
            why: why.into(),
        }
    }

    pub(crate) fn io(path: impl Into<PathBuf>, error: io::Error) -> LexiconError {
        LexiconError::Io {
            path: path.into(),
            error,
        }
    }
}
