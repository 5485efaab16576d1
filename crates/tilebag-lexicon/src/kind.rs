//! What kind of lexicon source a file is ([`SourceKind`]), told from its bytes and its name
//! ([`sniff`]). Both `source` (opening whatever the user named) and `layered` (opening each
//! layer of a configuration) ask it.

use crate::format::MAGIC;
use serde::{Deserialize, Serialize};
use std::path::Path;

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
