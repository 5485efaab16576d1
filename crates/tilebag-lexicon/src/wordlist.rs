//! Plain word lists: one word per line, read tolerantly (any letter case, LF or CRLF, a UTF-8 byte
//! order mark, blank lines, `#` comment lines, surrounding whitespace) and strictly otherwise: any
//! other character is an error that names its line and column.

use crate::error::LexiconError;

/// Parses a plain word list into its words: uppercase A-Z, sorted, without duplicates.
///
/// - Letters may be in any case; they are normalised to uppercase.
/// - Lines may end in LF or CRLF; a leading UTF-8 byte order mark is ignored.
/// - Blank lines and lines whose first non-blank character is `#` are skipped.
/// - Spaces and tabs around a word are trimmed.
/// - Any other character (a digit, an inner space, punctuation, a non-ASCII letter) is an error
///   naming the 1-based line and the character: `CAT\nD0G\n` fails with line 2, `'0'`.
///
/// Words of every length are returned; [`crate::Lexicon`] drops words over 15 letters when it
/// builds (they can never be played on a 15x15 board) and counts them.
pub fn parse_word_list(text: &[u8]) -> Result<Vec<String>, LexiconError> {
    let upper = uppercase_list(text);
    let words = sorted_words(&upper)?;
    // Only ASCII letters are in a word, so this never fails; no unwrap needed.
    Ok(words
        .into_iter()
        .map(|w| std::str::from_utf8(w).unwrap_or_default().to_owned())
        .collect())
}

/// The text of a word list without its byte order mark, in uppercase: the input of
/// [`sorted_words`].
pub(crate) fn uppercase_list(text: &[u8]) -> Vec<u8> {
    text.strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(text)
        .to_ascii_uppercase()
}

/// [`parse_word_list`] on the uppercased text (see [`uppercase_list`]), without an allocation
/// per word: the words as slices of `upper`, sorted, without duplicates. Uppercasing touches
/// only `a-z`, so any other character, and so an error's line, column and character, is the
/// same as in the original text.
pub(crate) fn sorted_words(upper: &[u8]) -> Result<Vec<&[u8]>, LexiconError> {
    let mut words: Vec<&[u8]> = Vec::with_capacity(upper.len() / 8);
    let mut sorted = true;
    for (index, raw) in upper.split(|&b| b == b'\n').enumerate() {
        let (start, word) = trim(raw);
        if word.is_empty() || word[0] == b'#' {
            continue;
        }
        if let Some(offset) = word.iter().position(|b| !b.is_ascii_uppercase()) {
            return Err(LexiconError::BadChar {
                line: index + 1,
                column: start + offset + 1,
                ch: char_at(&word[offset..]),
            });
        }
        if let Some(&last) = words.last() {
            sorted &= last < word;
        }
        words.push(word);
    }
    if !sorted {
        words.sort_unstable();
        words.dedup();
    }
    Ok(words)
}

/// Trims ASCII whitespace (including the CR of CRLF) and returns the start offset and the rest.
fn trim(line: &[u8]) -> (usize, &[u8]) {
    let start = line
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(line.len());
    let end = line
        .iter()
        .rposition(|b| !b.is_ascii_whitespace())
        .map_or(start, |p| p + 1);
    (start, &line[start..end.max(start)])
}

/// The character starting at the front of `bytes`, or U+FFFD if they are not valid UTF-8 there.
fn char_at(bytes: &[u8]) -> char {
    let n = bytes.len().min(4);
    (1..=n)
        .find_map(|k| std::str::from_utf8(&bytes[..k]).ok())
        .and_then(|s| s.chars().next())
        .unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// Normalises one word to uppercase A-Z, or `None` if it holds anything else or is empty.
pub(crate) fn normalize(word: &str) -> Option<String> {
    let b = word.as_bytes();
    if b.is_empty() || !b.iter().all(u8::is_ascii_alphabetic) {
        return None;
    }
    Some(word.to_ascii_uppercase())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_line_ends_comments_and_whitespace() {
        let text = b"\xEF\xBB\xBF# a comment\r\ncat\r\n\r\n  Dog \t\nEEL\n   # indented comment\nant\ncat\n";
        let words = parse_word_list(text).unwrap();
        assert_eq!(words, ["ANT", "CAT", "DOG", "EEL"]);
    }

    #[test]
    fn bad_character_names_line_and_char() {
        let err = parse_word_list(b"CAT\nD0G\n").unwrap_err();
        match err {
            LexiconError::BadChar { line, column, ch } => {
                assert_eq!((line, column, ch), (2, 2, '0'));
            }
            other => panic!("unexpected {other:?}"),
        }
        let msg = parse_word_list(b"CAT\nD0G\n").unwrap_err().to_string();
        assert!(msg.contains("line 2") && msg.contains("'0'"), "{msg}");
    }

    #[test]
    fn inner_space_non_ascii_and_invalid_utf8_are_errors() {
        let e = parse_word_list(b"ICE CREAM\n").unwrap_err();
        assert!(
            matches!(
                e,
                LexiconError::BadChar {
                    line: 1,
                    column: 4,
                    ch: ' '
                }
            ),
            "{e:?}"
        );
        let e = parse_word_list("OK\nCAF\u{c9}\n".as_bytes()).unwrap_err();
        assert!(
            matches!(
                e,
                LexiconError::BadChar {
                    line: 2,
                    column: 4,
                    ch: '\u{c9}'
                }
            ),
            "{e:?}"
        );
        let e = parse_word_list(b"AB\xFFC\n").unwrap_err();
        assert!(
            matches!(
                e,
                LexiconError::BadChar {
                    line: 1,
                    column: 3,
                    ch: '\u{FFFD}'
                }
            ),
            "{e:?}"
        );
        let e = parse_word_list(b"A-B\n").unwrap_err();
        assert!(matches!(e, LexiconError::BadChar { ch: '-', .. }), "{e:?}");
    }

    #[test]
    fn empty_and_comment_only_lists() {
        assert!(parse_word_list(b"").unwrap().is_empty());
        assert!(parse_word_list(b"\n\n# nothing\n\r\n").unwrap().is_empty());
    }

    #[test]
    fn long_words_are_kept_by_the_parser() {
        let words = parse_word_list(b"ANTIDISESTABLISHMENTARIANISM\nZA\n").unwrap();
        assert_eq!(words.len(), 2);
    }

    #[test]
    fn normalize_words() {
        assert_eq!(normalize("qi").as_deref(), Some("QI"));
        assert_eq!(normalize(""), None);
        assert_eq!(normalize("Q1"), None);
        assert_eq!(normalize("É"), None);
    }
}
