//! Layered word sources with length windows, described by a small TOML file.
//!
//! The rulebooks judge some lengths against more than one reference:
//!
//! - NASPA III.A.1 (and IV.K.3.e): OWL2 for every length, plus the *Long List* for words of
//!   10 to 15 letters that OWL2 lacks.
//! - SANSPA 3: a cascade of four references: 3.1 the Redwood International Scrabble Wordlist,
//!   3.2 OSW 3, 3.3 Chambers 1993, and 3.4 Merriam-Webster's Collegiate 10th edition, which
//!   counts only for words longer than 8 letters.
//! - NASPA VI.A: one list (CSW) for every length; a single source needs no configuration.
//!
//! A word is acceptable if ANY source whose window covers its length lists it; a cascade ("if
//! not in the first, look in the next") accepts exactly the same words as this union.
//!
//! ```toml
//! name = "NASPA 2013 (OWL + Long List)"   # optional; defaults to the file's stem
//! description = "NASPA III.A.1"           # optional
//!
//! [[source]]
//! path = "owl.txt"          # a plain word list or a built .tblex, relative to this file
//!
//! [[source]]
//! path = "longlist.txt"
//! min_length = 10           # optional, default 1
//! max_length = 15           # optional, default 15
//! ```
//!
//! The parser reads the subset of TOML this needs (bare keys, basic and literal strings,
//! integers, comments, `[[source]]` tables) and names the line of anything else.

use crate::dawg::MAX_WORD_LEN;
use crate::error::LexiconError;
use crate::kind::{sniff, SourceKind};
use crate::lexicon::{file_stem, Lexicon};
use std::path::{Path, PathBuf};

/// A parsed layered-source configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayeredConfig {
    /// The `name` key, if given.
    pub name: Option<String>,
    /// The `description` key, if given.
    pub description: Option<String>,
    /// The `[[source]]` tables in order.
    pub sources: Vec<SourceSpec>,
}

/// One `[[source]]` table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceSpec {
    /// The file, as written (relative paths are taken from the configuration's directory).
    pub path: PathBuf,
    /// Shortest length this source judges (1..=15).
    pub min_length: usize,
    /// Longest length this source judges (min_length..=15).
    pub max_length: usize,
    /// The line of the `[[source]]` header, for messages.
    pub line: usize,
}

/// One source of a [`LayeredLexicon`] and the lengths it judges.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Layer {
    /// The words.
    pub lexicon: Lexicon,
    /// Shortest length judged by this layer.
    pub min_length: usize,
    /// Longest length judged by this layer.
    pub max_length: usize,
    /// Where the layer came from (for `lexicon info`).
    pub path: PathBuf,
}

impl Layer {
    /// Whether this layer judges words of `len` letters.
    pub fn covers(&self, len: usize) -> bool {
        (self.min_length..=self.max_length).contains(&len)
    }
}

impl std::fmt::Display for Layer {
    /// `owl.txt: 178691 words, lengths 1-15`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}: {} words, lengths {}-{}",
            self.path.display(),
            self.lexicon.word_count(),
            self.min_length,
            self.max_length
        )
    }
}

/// Several sources, each judging a window of word lengths (see the module docs).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayeredLexicon {
    name: String,
    description: String,
    layers: Vec<Layer>,
}

impl LayeredLexicon {
    /// Layers in the given order.
    pub fn new(name: &str, layers: Vec<Layer>) -> LayeredLexicon {
        LayeredLexicon {
            name: name.to_owned(),
            description: String::new(),
            layers,
        }
    }

    /// Reads a configuration file and every source it names. Errors name the file and line.
    pub fn load(path: impl AsRef<Path>) -> Result<LayeredLexicon, LexiconError> {
        let path = path.as_ref();
        let bytes = std::fs::read(path).map_err(|e| LexiconError::io(path, e))?;
        LayeredLexicon::from_config_bytes(&bytes, path)
    }

    /// Like [`LayeredLexicon::load`] with the configuration's bytes already read from `path`.
    pub(crate) fn from_config_bytes(
        bytes: &[u8],
        path: &Path,
    ) -> Result<LayeredLexicon, LexiconError> {
        let text = std::str::from_utf8(bytes).map_err(|e| {
            let line = bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count()
                + 1;
            LexiconError::Config {
                line,
                why: "the configuration is not valid UTF-8".into(),
            }
            .in_file(path)
        })?;
        let config = parse_config(text).map_err(|e| e.in_file(path))?;
        let base = path.parent().unwrap_or(Path::new(""));
        let mut lex = LayeredLexicon::from_config(&config, base).map_err(|e| e.in_file(path))?;
        if config.name.is_none() {
            lex.name = file_stem(path);
        }
        Ok(lex)
    }

    /// Opens every source of `config`, resolving relative paths against `base`.
    pub fn from_config(
        config: &LayeredConfig,
        base: &Path,
    ) -> Result<LayeredLexicon, LexiconError> {
        let mut layers = Vec::with_capacity(config.sources.len());
        for spec in &config.sources {
            let path = base.join(&spec.path);
            let bytes = std::fs::read(&path).map_err(|e| LexiconError::Config {
                line: spec.line,
                why: format!("cannot read source {}: {e}", path.display()),
            })?;
            let lexicon = match sniff(&bytes, &path) {
                SourceKind::Built => Lexicon::from_bytes(&bytes),
                SourceKind::WordList => Lexicon::from_word_list(&bytes, &file_stem(&path)),
                SourceKind::Layered | SourceKind::Builtin => {
                    return Err(LexiconError::Config {
                        line: spec.line,
                        why: format!(
                            "source {} is itself a layered configuration; name word lists or built lexicons",
                            path.display()
                        ),
                    })
                }
            }
            .map_err(|e| LexiconError::Source {
                line: spec.line,
                path: path.clone(),
                error: Box::new(e),
            })?;
            layers.push(Layer {
                lexicon,
                min_length: spec.min_length,
                max_length: spec.max_length,
                path,
            });
        }
        Ok(LayeredLexicon {
            name: config.name.clone().unwrap_or_default(),
            description: config.description.clone().unwrap_or_default(),
            layers,
        })
    }

    /// The configuration's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The configuration's description (may be empty).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// The layers in order.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// Whether any layer whose window covers the word's length lists it (case-insensitive).
    pub fn contains(&self, word: &str) -> bool {
        let len = word.len();
        self.layers
            .iter()
            .any(|l| l.covers(len) && l.lexicon.contains(word))
    }

    /// Every acceptable word, sorted and without duplicates (a merge of the layers' windows).
    pub fn words(&self) -> impl Iterator<Item = String> + '_ {
        let mut heads: Vec<_> = self
            .layers
            .iter()
            .map(|l| {
                let mut it = l.lexicon.words().filter(move |w| l.covers(w.len()));
                let first = it.next();
                (first, it)
            })
            .collect();
        std::iter::from_fn(move || {
            let min = heads.iter().filter_map(|(h, _)| h.clone()).min()?;
            for (h, it) in &mut heads {
                if h.as_deref() == Some(min.as_str()) {
                    *h = it.next();
                }
            }
            Some(min)
        })
    }

    /// Compiles the union into one lexicon (e.g. to save a single `.tblex` for the judge).
    pub fn to_lexicon(&self) -> Result<Lexicon, LexiconError> {
        let words: Vec<String> = self.words().collect();
        Ok(Lexicon::from_sorted(&words, &self.name)?.with_description(&self.description))
    }
}

impl tilebag_core::WordJudge for LayeredLexicon {
    fn is_valid(&self, word: &str) -> bool {
        self.contains(word)
    }
}

/// Parses a layered-source configuration (the TOML subset described in the module docs).
pub fn parse_config(text: &str) -> Result<LayeredConfig, LexiconError> {
    let mut config = LayeredConfig {
        name: None,
        description: None,
        sources: Vec::new(),
    };
    // Keys seen in the current table, to refuse duplicates as TOML does.
    let mut seen: Vec<String> = Vec::new();
    let mut has_path = true;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let err = |why: String| LexiconError::Config { line, why };
        let body = strip_comment(raw).trim();
        if body.is_empty() {
            continue;
        }
        if body.starts_with('[') {
            if !has_path {
                let at = config.sources.last().map_or(line, |s| s.line);
                return Err(LexiconError::Config {
                    line: at,
                    why: "this [[source]] has no `path`".into(),
                });
            }
            if body == "[[source]]" || body.replace(' ', "") == "[[source]]" {
                config.sources.push(SourceSpec {
                    path: PathBuf::new(),
                    min_length: 1,
                    max_length: MAX_WORD_LEN,
                    line,
                });
                seen.clear();
                has_path = false;
                continue;
            }
            return Err(err(format!(
                "unknown table {body}; the only table is [[source]]"
            )));
        }
        let Some((key, value)) = body.split_once('=') else {
            return Err(err(format!(
                "expected `key = value` or [[source]], found {body:?}"
            )));
        };
        let key = key.trim();
        if key.is_empty()
            || !key
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
        {
            return Err(err(format!("{key:?} is not a plain key")));
        }
        if seen.iter().any(|k| k == key) {
            return Err(err(format!("`{key}` is given twice")));
        }
        seen.push(key.to_owned());
        let value = parse_value(value.trim()).map_err(&err)?;
        match config.sources.last_mut() {
            None => match (key, value) {
                ("name", Value::Str(s)) => config.name = Some(s),
                ("description", Value::Str(s)) => config.description = Some(s),
                ("name" | "description", _) => return Err(err(format!("`{key}` must be a string"))),
                _ => {
                    return Err(err(format!(
                        "unknown key `{key}`; the top level has `name` and `description`, then [[source]] tables"
                    )))
                }
            },
            Some(src) => match (key, value) {
                ("path", Value::Str(s)) if !s.is_empty() => {
                    src.path = PathBuf::from(s);
                    has_path = true;
                }
                ("path", _) => return Err(err("`path` must be a non-empty string".into())),
                ("min_length" | "max_length", Value::Int(n)) => {
                    let n = usize::try_from(n)
                        .ok()
                        .filter(|n| (1..=MAX_WORD_LEN).contains(n))
                        .ok_or_else(|| err(format!("`{key}` must be 1..={MAX_WORD_LEN}, not {n}")))?;
                    if key == "min_length" {
                        src.min_length = n;
                    } else {
                        src.max_length = n;
                    }
                }
                ("min_length" | "max_length", _) => {
                    return Err(err(format!("`{key}` must be an integer")))
                }
                _ => {
                    return Err(err(format!(
                        "unknown key `{key}` in [[source]]; use `path`, `min_length`, `max_length`"
                    )))
                }
            },
        }
    }
    if !has_path {
        let at = config.sources.last().map_or(0, |s| s.line);
        return Err(LexiconError::Config {
            line: at,
            why: "this [[source]] has no `path`".into(),
        });
    }
    if config.sources.is_empty() {
        return Err(LexiconError::Config {
            line: text.lines().count().max(1),
            why: "the configuration names no [[source]]".into(),
        });
    }
    for s in &config.sources {
        if s.min_length > s.max_length {
            return Err(LexiconError::Config {
                line: s.line,
                why: format!(
                    "min_length {} is greater than max_length {}",
                    s.min_length, s.max_length
                ),
            });
        }
    }
    Ok(config)
}

#[derive(Debug)]
enum Value {
    Str(String),
    Int(i64),
    Bool,
}

/// Cuts a `#` comment that is not inside a string.
fn strip_comment(line: &str) -> &str {
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in line.char_indices() {
        match quote {
            Some('"') if escaped => escaped = false,
            Some('"') if c == '\\' => escaped = true,
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' => return &line[..i],
            None => {}
        }
    }
    line
}

fn parse_value(v: &str) -> Result<Value, String> {
    if v.starts_with("\"\"\"") || v.starts_with("'''") {
        return Err("multi-line strings are not supported here".into());
    }
    if let Some(rest) = v.strip_prefix('"') {
        let mut out = String::new();
        let mut chars = rest.chars();
        loop {
            match chars.next() {
                None => return Err("unterminated string".into()),
                Some('"') => break,
                Some('\\') => match chars.next() {
                    Some('"') => out.push('"'),
                    Some('\\') => out.push('\\'),
                    Some('n') => out.push('\n'),
                    Some('t') => out.push('\t'),
                    Some('r') => out.push('\r'),
                    Some('b') => out.push('\u{8}'),
                    Some('f') => out.push('\u{c}'),
                    Some(u @ ('u' | 'U')) => {
                        let n = if u == 'u' { 4 } else { 8 };
                        let hex: String = chars.by_ref().take(n).collect();
                        let c = (hex.len() == n)
                            .then(|| u32::from_str_radix(&hex, 16).ok())
                            .flatten()
                            .and_then(char::from_u32)
                            .ok_or_else(|| format!("bad escape \\{u}{hex}"))?;
                        out.push(c);
                    }
                    Some(c) => return Err(format!("unknown escape \\{c}")),
                    None => return Err("unterminated string".into()),
                },
                Some(c) => out.push(c),
            }
        }
        let tail = chars.as_str().trim();
        if !tail.is_empty() {
            return Err(format!("unexpected {tail:?} after the string"));
        }
        return Ok(Value::Str(out));
    }
    if let Some(rest) = v.strip_prefix('\'') {
        let Some((s, tail)) = rest.split_once('\'') else {
            return Err("unterminated string".into());
        };
        if !tail.trim().is_empty() {
            return Err(format!("unexpected {:?} after the string", tail.trim()));
        }
        return Ok(Value::Str(s.to_owned()));
    }
    if v == "true" || v == "false" {
        return Ok(Value::Bool);
    }
    let digits = v.strip_prefix(['+', '-']).unwrap_or(v);
    let well_formed = !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit() || b == b'_')
        && !digits.starts_with('_')
        && !digits.ends_with('_')
        && !digits.contains("__");
    if well_formed {
        if let Ok(n) = v.replace('_', "").parse::<i64>() {
            return Ok(Value::Int(n));
        }
    }
    Err(format!(
        "cannot read the value {v:?} (expected a string or an integer)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_naspa_example() {
        let c = parse_config(
            "# NASPA III.A.1\nname = \"NASPA 2013 (OWL + Long List)\"\n\n[[source]]\npath = \"owl.txt\"        # a list\n[[source]]\npath = 'longlist.txt'\nmin_length = 10\nmax_length = 15\n",
        )
        .unwrap();
        assert_eq!(c.name.as_deref(), Some("NASPA 2013 (OWL + Long List)"));
        assert_eq!(c.sources.len(), 2);
        assert_eq!(c.sources[0].path, PathBuf::from("owl.txt"));
        assert_eq!((c.sources[0].min_length, c.sources[0].max_length), (1, 15));
        assert_eq!((c.sources[1].min_length, c.sources[1].max_length), (10, 15));
        assert_eq!(c.sources[1].line, 6);
    }

    #[test]
    fn strings_escapes_and_comments() {
        let c =
            parse_config("name = \"a # b \\\"q\\\" \\u00e9\"\n[[ source ]]\npath = \"x\" # c\n")
                .unwrap();
        assert_eq!(c.name.as_deref(), Some("a # b \"q\" é"));
    }

    fn line_of(text: &str) -> (usize, String) {
        match parse_config(text).unwrap_err() {
            LexiconError::Config { line, why } => (line, why),
            e => panic!("{e:?}"),
        }
    }

    #[test]
    fn errors_name_the_line() {
        assert_eq!(line_of("[[source]]\npath = \"a\"\nmin_len = 3\n").0, 3);
        assert_eq!(line_of("[[source]]\npath = \"a\"\nmin_length = 16\n").0, 3);
        assert_eq!(
            line_of("[[source]]\npath = \"a\"\nmin_length = \"3\"\n").0,
            3
        );
        assert_eq!(line_of("[[source]]\nmin_length = 3\n").0, 1);
        assert_eq!(
            line_of("name = \"x\"\n[[source]]\npath = \"a\"\n[[source]]\n").0,
            4
        );
        assert_eq!(line_of("name = \"x\"\n").0, 1);
        assert_eq!(line_of("[lexicon]\n").0, 1);
        assert_eq!(line_of("[[source]]\npath = \"a\"\npath = \"b\"\n").0, 3);
        assert_eq!(line_of("[[source]]\npath = \"a\nx\"\n").0, 2);
        assert_eq!(line_of("[[source]]\npath = \"a\" junk\n").0, 2);
        assert_eq!(
            line_of("\n[[source]]\npath = \"a\"\nmin_length = 9\nmax_length = 8\n").0,
            2
        );
        assert_eq!(line_of("owl.txt\n").0, 1);
        assert_eq!(line_of("a.b = 1\n").0, 1);
        assert_eq!(line_of("x = 1_\n").0, 1);
    }

    #[test]
    fn values() {
        assert!(matches!(parse_value("1_000"), Ok(Value::Int(1000))));
        assert!(matches!(parse_value("-3"), Ok(Value::Int(-3))));
        assert!(matches!(parse_value("true"), Ok(Value::Bool)));
        assert!(parse_value("\"\"\"x\"\"\"").is_err());
        assert!(parse_value("\"\\x\"").is_err());
        assert!(parse_value("\"\\u12\"").is_err());
        assert!(parse_value("99999999999999999999").is_err());
    }
}
