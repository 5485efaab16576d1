//! Reading GCG text into a [`GcgRecord`].
//!
//! The reader is tolerant of what real files contain:
//!
//! - **Encoding.** ISO-8859-1 by default (every byte is the character with that code point). A
//!   `#character-encoding` pragma anywhere in the file may declare UTF-8 (`UTF-8`, `utf8`, any
//!   case) or ISO-8859-1 (`ISO-8859-1`, `ISO8859-1`, `latin1`, ...); any other encoding is refused.
//!   A file that starts with a UTF-8 byte-order mark and declares nothing is read as UTF-8.
//! - **Line ends.** Any mix of CRLF, LF and bare CR.
//! - **Pragmas.** `#player1`/`#player2`, `#title`, `#description`, `#id`, `#lexicon`,
//!   `#character-encoding`, `#note`, `#rack1`/`#rack2` and `#incomplete` are read (pragma names are
//!   matched case-insensitively); any other pragma (`#style`, `#game-type`, ...) is skipped.
//!   Values are trimmed.
//! - **Notes.** A `#note` belongs to the event before it, or to [`GcgRecord::notes`] before the
//!   first event. Lines of plain text that follow a note (up to the next `#` or `>` line) continue
//!   it: they are trimmed and appended after a `\n`. Blank lines are skipped everywhere.
//! - **Events.** `>nick: [RACK] MOVE SCORE CUMULATIVE [TRAILING...]`, fields separated by any runs
//!   of whitespace. The nick is everything before the first `:` that is followed by whitespace or
//!   the end of the line, so it may contain parentheses or colons. Nicks are mapped to players by
//!   the `#player` pragmas; a nick that no pragma names takes the first free player slot (so without
//!   pragmas the first nick seen is player 0), and a third distinct nick is an error, as is a
//!   `#player` pragma giving the other player's nick (the lines could not tell them apart). The
//!   rack is optional and told apart from the move by shape; the score must carry its sign;
//!   tokens after the cumulative score (Quackle's cross words) are kept in
//!   [`GcgEvent::trailing`].
//! - **Moves.** A coordinate (`8D`, `d8`, `h10`: a letter and one or two digits, either order and
//!   case) followed by the word is a play; `-` a pass; `--` a withdrawal; `-TILES` and `-N`
//!   exchanges; `(challenge)` and `(time)` (any case) the challenge bonus and the time penalty;
//!   `(TILES)` an end-of-game rack. `(TIME)` in capitals is the end rack T-I-M-E rather than a
//!   time penalty when it scores points or follows the rack `TIME`.
//!
//! Any other line is an error, and every error names its 1-based line.

use std::borrow::Cow;

use super::{ExchangedTiles, GcgEvent, GcgEventKind, GcgPlayer, GcgRecord};

/// Why a GCG text could not be read. Every variant carries the 1-based line number, and its
/// message starts with `line N: `.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GcgError {
    /// `#character-encoding` declares something other than UTF-8 or ISO-8859-1.
    #[error(
        "line {line}: unsupported character encoding {encoding:?} \
         (only UTF-8 and ISO-8859-1 can be read)"
    )]
    UnsupportedEncoding { line: usize, encoding: String },

    /// `#character-encoding` with nothing after it.
    #[error("line {line}: #character-encoding does not name an encoding")]
    MissingEncoding { line: usize },

    /// Two `#character-encoding` pragmas that disagree.
    #[error(
        "line {line}: character encoding {second:?} contradicts {first:?} declared on line \
         {first_line}"
    )]
    ConflictingEncodings {
        line: usize,
        first_line: usize,
        first: String,
        second: String,
    },

    /// A `#character-encoding` pragma that could only be recognised after the file had been
    /// decoded (it is preceded by non-ASCII whitespace) and that disagrees with the encoding used.
    #[error(
        "line {line}: character encoding {encoding:?} is declared too late: the file was read as \
         {used}"
    )]
    LateEncoding {
        line: usize,
        encoding: String,
        used: &'static str,
    },

    /// The file declares UTF-8, but this line is not valid UTF-8.
    #[error(
        "line {line}: the file declares UTF-8 but this line is not valid UTF-8 (at byte {byte})"
    )]
    InvalidUtf8 { line: usize, byte: usize },

    /// `#player1` / `#player2` without a nickname.
    #[error("line {line}: #{pragma} needs a nickname (\"#{pragma} NICK FULL NAME\")")]
    MissingPlayerNick { line: usize, pragma: String },

    /// A `>` line without a `nick:` at its start.
    #[error("line {line}: an event line must start with \">nick:\", found {text:?}")]
    MissingEventNick { line: usize, text: String },

    /// An event line whose nick is neither of the two players'.
    #[error(
        "line {line}: {nick:?} would be a third player (the players are {first:?} and {second:?})"
    )]
    ThirdPlayer {
        line: usize,
        nick: String,
        first: String,
        second: String,
    },

    /// No move where one is expected (after the nick or after the rack).
    #[error(
        "line {line}: expected a move (a position and a word, -, --, -TILES, -N, (challenge), \
         (time) or (TILES)) after {after:?}, found {}",
        found_text(.found)
    )]
    ExpectedMove {
        line: usize,
        after: String,
        found: Option<String>,
    },

    /// A position (`8D`) not followed by a word.
    #[error("line {line}: expected a word after position {position:?}, found {}", found_text(.found))]
    ExpectedWord {
        line: usize,
        position: String,
        found: Option<String>,
    },

    /// No signed score (`+N` / `-N`) after the move.
    #[error("line {line}: expected a score (+N or -N) after {after:?}, found {}", found_text(.found))]
    ExpectedScore {
        line: usize,
        after: String,
        found: Option<String>,
    },

    /// No cumulative score after the score.
    #[error("line {line}: expected a cumulative score after {after:?}, found {}", found_text(.found))]
    ExpectedCumulative {
        line: usize,
        after: String,
        found: Option<String>,
    },

    /// A number too large for its field.
    #[error("line {line}: {token:?} is out of range for {what}")]
    NumberOutOfRange {
        line: usize,
        token: String,
        what: &'static str,
    },

    /// A line that is neither blank, a pragma, an event, nor the continuation of a note.
    #[error("line {line}: expected a #pragma or a \">nick:\" event line, found {text:?}")]
    UnexpectedText { line: usize, text: String },

    /// A second `#player1` (or `#player2`), which would silently replace the first.
    #[error("line {line}: a second #{pragma} (the first is on line {first_line}); a record names each player once")]
    DuplicatePlayer {
        line: usize,
        first_line: usize,
        pragma: String,
    },

    /// `#player1` / `#player2` giving the nickname the other player already has: the event
    /// lines could not tell the two apart.
    #[error(
        "line {line}: #{pragma} gives the nickname {nick:?}, which {}; the event lines tell the \
         players apart by their nicknames, so each needs its own",
        nick_holder(*.first_line, *.first_from_event, *.other)
    )]
    SameNickname {
        line: usize,
        pragma: String,
        nick: String,
        /// Where the other player got the nickname: their own pragma, or (without one) the
        /// first event line that used it.
        first_line: usize,
        first_from_event: bool,
        /// The other player's index (0 or 1).
        other: usize,
    },

    /// A tilebag pragma (`#tilebag-adjust`, `#tilebag-end`) that cannot be read.
    #[error("line {line}: #{pragma}: {message}")]
    BadPragma {
        line: usize,
        pragma: &'static str,
        message: String,
    },
}

impl GcgError {
    /// The 1-based line number the error is about.
    pub fn line(&self) -> usize {
        match self {
            GcgError::UnsupportedEncoding { line, .. }
            | GcgError::MissingEncoding { line }
            | GcgError::ConflictingEncodings { line, .. }
            | GcgError::LateEncoding { line, .. }
            | GcgError::InvalidUtf8 { line, .. }
            | GcgError::MissingPlayerNick { line, .. }
            | GcgError::MissingEventNick { line, .. }
            | GcgError::ThirdPlayer { line, .. }
            | GcgError::ExpectedMove { line, .. }
            | GcgError::ExpectedWord { line, .. }
            | GcgError::ExpectedScore { line, .. }
            | GcgError::ExpectedCumulative { line, .. }
            | GcgError::NumberOutOfRange { line, .. }
            | GcgError::UnexpectedText { line, .. }
            | GcgError::DuplicatePlayer { line, .. }
            | GcgError::SameNickname { line, .. }
            | GcgError::BadPragma { line, .. } => *line,
        }
    }
}

/// Who already has a nickname, for [`GcgError::SameNickname`].
fn nick_holder(first_line: usize, first_from_event: bool, other: usize) -> String {
    if first_from_event {
        format!(
            "the event on line {first_line} already gave player {}",
            other + 1
        )
    } else {
        format!("#player{} on line {first_line} already has", other + 1)
    }
}

fn found_text(found: &Option<String>) -> String {
    match found {
        Some(token) => format!("{token:?}"),
        None => "the end of the line".to_string(),
    }
}

/// Reads a GCG record from raw bytes (see the module documentation for what is accepted).
///
/// Never panics; any input that is not a readable record gives a [`GcgError`] naming its line.
pub fn parse_gcg(bytes: &[u8]) -> Result<GcgRecord, GcgError> {
    let (bytes, has_bom) = match bytes.strip_prefix(b"\xEF\xBB\xBF".as_slice()) {
        Some(rest) => (rest, true),
        None => (bytes, false),
    };
    let lines = split_lines(bytes);
    let declared = declared_encoding(&lines)?;
    let encoding = match &declared {
        Some(declaration) => declaration.encoding,
        None if has_bom => Encoding::Utf8,
        None => Encoding::Latin1,
    };
    let mut reader = Reader {
        encoding,
        declared,
        record: GcgRecord::default(),
        in_note: false,
        player_lines: [None, None],
        nick_lines: [None, None],
    };
    for (index, raw) in lines.iter().enumerate() {
        let line = index + 1;
        let text = decode(raw, encoding, line)?;
        reader.read_line(line, &text)?;
    }
    Ok(reader.record)
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Utf8,
    Latin1,
}

impl Encoding {
    fn named(name: &str) -> Option<Encoding> {
        let normalized: String = name
            .chars()
            .filter(|c| !matches!(c, '-' | '_' | ' '))
            .flat_map(char::to_lowercase)
            .collect();
        match normalized.as_str() {
            "utf8" => Some(Encoding::Utf8),
            "iso88591" | "latin1" | "l1" | "iso885911987" => Some(Encoding::Latin1),
            _ => None,
        }
    }

    fn label(self) -> &'static str {
        match self {
            Encoding::Utf8 => "UTF-8",
            Encoding::Latin1 => "ISO-8859-1",
        }
    }
}

/// The first `#character-encoding` pragma of a file.
#[derive(Debug)]
struct Declaration {
    line: usize,
    name: String,
    encoding: Encoding,
}

/// Splits on CRLF, LF and bare CR. CR and LF never occur inside a UTF-8 multi-byte sequence, so
/// this is right for both encodings.
fn split_lines(bytes: &[u8]) -> Vec<&[u8]> {
    let mut lines = Vec::new();
    let mut rest = bytes;
    while let Some(pos) = rest.iter().position(|&b| b == b'\r' || b == b'\n') {
        let (line, tail) = rest.split_at(pos);
        lines.push(line);
        rest = match tail {
            [b'\r', b'\n', after @ ..] => after,
            [_, after @ ..] => after,
            [] => tail,
        };
    }
    if !rest.is_empty() {
        lines.push(rest);
    }
    lines
}

/// Splits `text` into its first whitespace-delimited token and the trimmed rest.
fn split_first_token(text: &str) -> (&str, &str) {
    match text.find(char::is_whitespace) {
        Some(at) => {
            let (first, rest) = text.split_at(at);
            (first, rest.trim())
        }
        None => (text, ""),
    }
}

/// Scans the raw lines for `#character-encoding` before anything is decoded (the pragma may come
/// anywhere in the header). Every declaration must name a supported encoding, and all must agree.
fn declared_encoding(lines: &[&[u8]]) -> Result<Option<Declaration>, GcgError> {
    let mut first: Option<Declaration> = None;
    for (index, raw) in lines.iter().enumerate() {
        let line = index + 1;
        // Every byte as its own char: lossless for the ASCII pragma name whatever the encoding.
        let text: String = raw.iter().map(|&b| char::from(b)).collect();
        let Some(rest) = text.trim().strip_prefix('#') else {
            continue;
        };
        let (name, value) = split_first_token(rest);
        if !name.eq_ignore_ascii_case("character-encoding") {
            continue;
        }
        // Show a non-ASCII value as written when its bytes are UTF-8 (each char here is a byte).
        let value_bytes: Vec<u8> = value.chars().filter_map(|c| u8::try_from(c).ok()).collect();
        let value = match String::from_utf8(value_bytes) {
            Ok(utf8) => utf8,
            Err(_) => value.to_string(),
        };
        let declaration = declaration(line, &value)?;
        match &first {
            None => first = Some(declaration),
            Some(earlier) if earlier.encoding != declaration.encoding => {
                return Err(GcgError::ConflictingEncodings {
                    line,
                    first_line: earlier.line,
                    first: earlier.name.clone(),
                    second: declaration.name,
                });
            }
            Some(_) => {}
        }
    }
    Ok(first)
}

fn declaration(line: usize, value: &str) -> Result<Declaration, GcgError> {
    if value.is_empty() {
        return Err(GcgError::MissingEncoding { line });
    }
    match Encoding::named(value) {
        Some(encoding) => Ok(Declaration {
            line,
            name: value.to_string(),
            encoding,
        }),
        None => Err(GcgError::UnsupportedEncoding {
            line,
            encoding: value.to_string(),
        }),
    }
}

fn decode(raw: &[u8], encoding: Encoding, line: usize) -> Result<Cow<'_, str>, GcgError> {
    match encoding {
        Encoding::Utf8 => std::str::from_utf8(raw)
            .map(Cow::Borrowed)
            .map_err(|error| GcgError::InvalidUtf8 {
                line,
                byte: error.valid_up_to() + 1,
            }),
        Encoding::Latin1 => Ok(match std::str::from_utf8(raw) {
            Ok(text) if text.is_ascii() => Cow::Borrowed(text),
            _ => Cow::Owned(raw.iter().map(|&b| char::from(b)).collect()),
        }),
    }
}

struct Reader {
    encoding: Encoding,
    declared: Option<Declaration>,
    record: GcgRecord,
    /// The last non-blank line was a `#note` or its continuation.
    in_note: bool,
    /// The lines of the `#player1` / `#player2` pragmas seen so far.
    player_lines: [Option<usize>; 2],
    /// Where each player's nickname was first given: by a pragma (its line is in
    /// `player_lines`) or by the first event line that used it.
    nick_lines: [Option<usize>; 2],
}

impl Reader {
    fn read_line(&mut self, line: usize, text: &str) -> Result<(), GcgError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Ok(());
        }
        if let Some(rest) = trimmed.strip_prefix('#') {
            self.in_note = false;
            return self.pragma(line, rest);
        }
        if let Some(rest) = trimmed.strip_prefix('>') {
            self.in_note = false;
            return self.event(line, trimmed, rest);
        }
        if self.in_note {
            if let Some(note) = self.current_notes().last_mut() {
                note.push('\n');
                note.push_str(trimmed);
                return Ok(());
            }
        }
        Err(GcgError::UnexpectedText {
            line,
            text: trimmed.to_string(),
        })
    }

    /// Where a `#note` goes now: the last event's notes, or the record's before any event.
    fn current_notes(&mut self) -> &mut Vec<String> {
        match self.record.events.last_mut() {
            Some(event) => &mut event.notes,
            None => &mut self.record.notes,
        }
    }

    fn pragma(&mut self, line: usize, rest: &str) -> Result<(), GcgError> {
        let (name, value) = split_first_token(rest);
        let record = &mut self.record;
        match name.to_ascii_lowercase().as_str() {
            "player1" | "player2" => {
                let slot = usize::from(name.ends_with('2'));
                let (nick, full_name) = split_first_token(value);
                if let Some(first_line) = self.player_lines[slot] {
                    return Err(GcgError::DuplicatePlayer {
                        line,
                        first_line,
                        pragma: name.to_ascii_lowercase(),
                    });
                }
                self.player_lines[slot] = Some(line);
                if nick.is_empty() {
                    return Err(GcgError::MissingPlayerNick {
                        line,
                        pragma: name.to_string(),
                    });
                }
                let other = 1 - slot;
                if record.players[other].nick == nick {
                    let first_line = self.nick_lines[other].unwrap_or(0);
                    return Err(GcgError::SameNickname {
                        line,
                        pragma: name.to_ascii_lowercase(),
                        nick: nick.to_string(),
                        first_line,
                        first_from_event: self.player_lines[other] != Some(first_line),
                        other,
                    });
                }
                self.nick_lines[slot] = Some(line);
                if let Some(player) = record.players.get_mut(slot) {
                    *player = GcgPlayer {
                        nick: nick.to_string(),
                        name: full_name.to_string(),
                    };
                }
            }
            "title" => record.title = Some(value.to_string()),
            "description" => record.description = Some(value.to_string()),
            "id" => record.id = Some(value.to_string()),
            "lexicon" => record.lexicon = Some(value.to_string()),
            "character-encoding" => self.encoding_pragma(line, value)?,
            "note" => {
                self.current_notes().push(value.to_string());
                self.in_note = true;
            }
            "rack1" | "rack2" => {
                let slot = usize::from(name.ends_with('2'));
                let rack = (!value.is_empty()).then(|| value.to_string());
                if let Some(last) = record.last_racks.get_mut(slot) {
                    *last = rack;
                    record.last_rack_lines[slot] = line;
                }
            }
            "incomplete" => record.incomplete = true,
            "game-type" | "variant" if record.game_type.is_none() => {
                record.game_type = Some((line, value.to_string()));
            }
            "tilebag-adjust" => self.adjust_pragma(line, value)?,
            "tilebag-end" => self.end_pragma(line, value)?,
            _ => {}
        }
        Ok(())
    }

    /// `#tilebag-adjust NICK +POINTS CUMULATIVE WHY`.
    fn adjust_pragma(&mut self, line: usize, value: &str) -> Result<(), GcgError> {
        let bad = |message: String| GcgError::BadPragma {
            line,
            pragma: "tilebag-adjust",
            message,
        };
        let mut parts = value.splitn(4, char::is_whitespace);
        let nick = parts.next().unwrap_or("");
        let score = parts.next().unwrap_or("");
        let cumulative = parts.next().unwrap_or("");
        let why = parts.next().unwrap_or("").trim();
        if nick.is_empty() {
            return Err(bad("expected NICK +POINTS CUMULATIVE WHY".into()));
        }
        let player = self.player_index(line, nick)?;
        let score = match parse_number(score, true) {
            Number::Value(n) => n,
            _ => {
                return Err(bad(format!(
                    "expected a signed score after {nick}, found {score:?}"
                )))
            }
        };
        let cumulative = match parse_number(cumulative, false) {
            Number::Value(n) => n,
            _ => {
                return Err(bad(format!(
                    "expected a cumulative score after {score:+}, found {cumulative:?}"
                )))
            }
        };
        self.record.adjustments.push(super::GcgAdjustment {
            line,
            player,
            score,
            cumulative,
            why: why.to_string(),
        });
        Ok(())
    }

    /// `#tilebag-end REASON [NICK]`.
    fn end_pragma(&mut self, line: usize, value: &str) -> Result<(), GcgError> {
        let bad = |message: String| GcgError::BadPragma {
            line,
            pragma: "tilebag-end",
            message,
        };
        if self.record.ending.is_some() {
            return Err(bad("a record ends once".into()));
        }
        let (reason, nick) = split_first_token(value);
        let Some(&(_, names_player)) = super::ENDINGS.iter().find(|(r, _)| *r == reason) else {
            let known: Vec<&str> = super::ENDINGS.iter().map(|(r, _)| *r).collect();
            return Err(bad(format!(
                "unknown ending {reason:?}; known: {}",
                known.join(", ")
            )));
        };
        let player = match (names_player, nick.is_empty()) {
            (true, true) => return Err(bad(format!("{reason} needs the player's nick"))),
            (true, false) => Some(self.player_index(line, nick)?),
            (false, true) => None,
            (false, false) => return Err(bad(format!("{reason} names no player, found {nick:?}"))),
        };
        self.record.ending = Some(super::GcgEnding {
            line,
            reason: reason.to_string(),
            player,
        });
        Ok(())
    }

    /// The raw scan has already checked the declarations; this catches the odd pragma that only
    /// became visible after decoding, and records the first declaration as written.
    fn encoding_pragma(&mut self, line: usize, value: &str) -> Result<(), GcgError> {
        let declaration = declaration(line, value)?;
        if declaration.encoding != self.encoding {
            return Err(match &self.declared {
                Some(first) => GcgError::ConflictingEncodings {
                    line,
                    first_line: first.line,
                    first: first.name.clone(),
                    second: declaration.name,
                },
                None => GcgError::LateEncoding {
                    line,
                    encoding: declaration.name,
                    used: self.encoding.label(),
                },
            });
        }
        if self.record.character_encoding.is_none() {
            self.record.character_encoding = Some(declaration.name);
        }
        Ok(())
    }

    fn event(&mut self, line: usize, whole: &str, rest: &str) -> Result<(), GcgError> {
        let Some((nick, body)) = split_nick(rest) else {
            return Err(GcgError::MissingEventNick {
                line,
                text: whole.to_string(),
            });
        };
        let player = self.player_index(line, nick)?;
        let tokens: Vec<&str> = body.split_whitespace().collect();
        let event = parse_event(line, nick, &tokens)?;
        self.record.events.push(GcgEvent {
            line,
            player,
            rack: event.rack,
            kind: event.kind,
            score: event.score,
            cumulative: event.cumulative,
            trailing: event.trailing,
            notes: Vec::new(),
        });
        Ok(())
    }

    fn player_index(&mut self, line: usize, nick: &str) -> Result<usize, GcgError> {
        let players = &mut self.record.players;
        if let Some(index) = players.iter().position(|p| p.nick == nick) {
            return Ok(index);
        }
        if let Some(index) = players.iter().position(|p| p.nick.is_empty()) {
            if let Some(player) = players.get_mut(index) {
                player.nick = nick.to_string();
            }
            if let Some(first) = self.nick_lines.get_mut(index) {
                *first = Some(line);
            }
            return Ok(index);
        }
        let [first, second] = players;
        Err(GcgError::ThirdPlayer {
            line,
            nick: nick.to_string(),
            first: first.nick.clone(),
            second: second.nick.clone(),
        })
    }
}

/// Splits `nick: rest` at the first `:` followed by whitespace or the end of the line.
fn split_nick(rest: &str) -> Option<(&str, &str)> {
    let (at, _) = rest.char_indices().find(|&(at, c)| {
        c == ':'
            && match rest.get(at + 1..).and_then(|after| after.chars().next()) {
                None => true,
                Some(next) => next.is_whitespace(),
            }
    })?;
    let nick = rest.get(..at)?.trim();
    let body = rest.get(at + 1..)?;
    (!nick.is_empty()).then_some((nick, body))
}

/// The fields of an event line after the nick.
struct ParsedEvent {
    rack: Option<String>,
    kind: GcgEventKind,
    score: i32,
    cumulative: i32,
    trailing: Vec<String>,
}

/// A move token as read, before the score can settle `(TIME)`.
enum RawMove<'a> {
    Play {
        position: &'a str,
        word: &'a str,
    },
    Exchange(ExchangedTiles),
    Pass,
    Withdrawal,
    Challenge,
    /// `(time)` in any case: a time penalty, unless it is really the end rack `TIME`.
    Time(&'a str),
    EndRack(&'a str),
}

fn parse_event(line: usize, nick: &str, tokens: &[&str]) -> Result<ParsedEvent, GcgError> {
    let (rack, raw, next, last) = match read_move(line, tokens, 0)? {
        Some((raw, next, last)) => (None, raw, next, last),
        None => match tokens.first().copied() {
            Some(rack) if is_rack_token(rack) => match read_move(line, tokens, 1)? {
                Some((raw, next, last)) => (Some(rack), raw, next, last),
                None => {
                    return Err(GcgError::ExpectedMove {
                        line,
                        after: rack.to_string(),
                        found: tokens.get(1).map(|t| t.to_string()),
                    })
                }
            },
            found => {
                return Err(GcgError::ExpectedMove {
                    line,
                    after: format!("{nick}:"),
                    found: found.map(str::to_string),
                })
            }
        },
    };

    let score_token = tokens.get(next).copied();
    let score = match score_token.map(|t| (t, parse_number(t, true))) {
        Some((_, Number::Value(score))) => score,
        Some((token, Number::OutOfRange)) => {
            return Err(GcgError::NumberOutOfRange {
                line,
                token: token.to_string(),
                what: "a score",
            })
        }
        found => {
            return Err(GcgError::ExpectedScore {
                line,
                after: last.to_string(),
                found: found.map(|(t, _)| t.to_string()),
            })
        }
    };
    let score_token = score_token.unwrap_or_default();

    let cumulative = match tokens.get(next + 1).map(|&t| (t, parse_number(t, false))) {
        Some((_, Number::Value(cumulative))) => cumulative,
        Some((token, Number::OutOfRange)) => {
            return Err(GcgError::NumberOutOfRange {
                line,
                token: token.to_string(),
                what: "a cumulative score",
            })
        }
        found => {
            return Err(GcgError::ExpectedCumulative {
                line,
                after: score_token.to_string(),
                found: found.map(|(t, _)| t.to_string()),
            })
        }
    };

    let kind = match raw {
        RawMove::Play { position, word } => GcgEventKind::Play {
            position: position.to_string(),
            word: word.to_string(),
        },
        RawMove::Exchange(tiles) => GcgEventKind::Exchange(tiles),
        RawMove::Pass => GcgEventKind::Pass,
        RawMove::Withdrawal => GcgEventKind::Withdrawal,
        RawMove::Challenge => GcgEventKind::ChallengeBonus,
        RawMove::Time(inner) => {
            // `(TIME)` in capitals with points received, or after the rack `TIME`, is the end
            // rack T-I-M-E; a time penalty always costs points.
            let capitals = inner.chars().all(char::is_uppercase);
            if capitals && (score > 0 || rack == Some(inner)) {
                GcgEventKind::EndRack {
                    tiles: inner.to_string(),
                }
            } else {
                GcgEventKind::TimePenalty
            }
        }
        RawMove::EndRack(tiles) => GcgEventKind::EndRack {
            tiles: tiles.to_string(),
        },
    };

    Ok(ParsedEvent {
        rack: rack.map(str::to_string),
        kind,
        score,
        cumulative,
        trailing: tokens
            .get(next + 2..)
            .unwrap_or_default()
            .iter()
            .map(|t| t.to_string())
            .collect(),
    })
}

/// A move as read: the move, the index of the token after it, and its last token.
type MoveRead<'a> = Option<(RawMove<'a>, usize, &'a str)>;

/// Reads the move starting at `tokens[at]`: `Ok(None)` when that token does not have the shape of
/// a move.
fn read_move<'a>(line: usize, tokens: &[&'a str], at: usize) -> Result<MoveRead<'a>, GcgError> {
    let Some(&token) = tokens.get(at) else {
        return Ok(None);
    };
    if is_coordinate(token) {
        return match tokens.get(at + 1).copied() {
            Some(word) if is_word_token(word) => Ok(Some((
                RawMove::Play {
                    position: token,
                    word,
                },
                at + 2,
                word,
            ))),
            found => Err(GcgError::ExpectedWord {
                line,
                position: token.to_string(),
                found: found.map(str::to_string),
            }),
        };
    }
    let raw = if token == "-" {
        RawMove::Pass
    } else if token == "--" {
        RawMove::Withdrawal
    } else if let Some(rest) = token.strip_prefix('-') {
        if rest.bytes().all(|b| b.is_ascii_digit()) {
            match rest.parse::<u8>() {
                Ok(count) => RawMove::Exchange(ExchangedTiles::Count(count)),
                Err(_) => {
                    return Err(GcgError::NumberOutOfRange {
                        line,
                        token: token.to_string(),
                        what: "an exchange count (at most 255)",
                    })
                }
            }
        } else if is_tiles(rest) {
            RawMove::Exchange(ExchangedTiles::Known(rest.to_string()))
        } else {
            return Ok(None);
        }
    } else if let Some(inner) = token.strip_prefix('(').and_then(|t| t.strip_suffix(')')) {
        if inner.eq_ignore_ascii_case("challenge") {
            RawMove::Challenge
        } else if inner.eq_ignore_ascii_case("time") {
            RawMove::Time(inner)
        } else if is_tiles(inner) {
            RawMove::EndRack(inner)
        } else {
            return Ok(None);
        }
    } else {
        return Ok(None);
    };
    Ok(Some((raw, at + 1, token)))
}

/// A board coordinate: one ASCII letter and one or two digits, in either order and either case
/// (`8D`, `d8`, `h10`, `15A`).
fn is_coordinate(token: &str) -> bool {
    let digits = |d: &[u8]| (1..=2).contains(&d.len()) && d.iter().all(u8::is_ascii_digit);
    match token.as_bytes() {
        [letter, rest @ ..] if letter.is_ascii_alphabetic() && digits(rest) => true,
        [rest @ .., letter] if letter.is_ascii_alphabetic() && digits(rest) => true,
        _ => false,
    }
}

/// Tiles as in a rack, an exchange or an end rack: letters (any script, any case), `?` for a
/// blank, and anything else that is not a digit, a sign or a parenthesis (so multi-letter tiles
/// written as `[CH]` pass too).
fn is_tiles(text: &str) -> bool {
    !text.is_empty()
        && text.chars().all(|c| {
            !c.is_whitespace() && !c.is_ascii_digit() && !matches!(c, '+' | '-' | '(' | ')')
        })
}

/// A rack before the move: tiles (or the literal `UNKNOWN`, which is tiles by shape).
fn is_rack_token(token: &str) -> bool {
    is_tiles(token)
}

/// The word after a position: anything that does not look like a score.
fn is_word_token(token: &str) -> bool {
    !token.starts_with(['+', '-', '(']) && !token.bytes().all(|b| b.is_ascii_digit())
}

enum Number {
    Value(i32),
    OutOfRange,
    Invalid,
}

/// `+N` / `-N` (and `N` when the sign is optional).
fn parse_number(token: &str, sign_required: bool) -> Number {
    let digits = match token.strip_prefix(['+', '-']) {
        Some(digits) => digits,
        None if sign_required => return Number::Invalid,
        None => token,
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Number::Invalid;
    }
    token
        .parse::<i32>()
        .map_or(Number::OutOfRange, Number::Value)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "\
#character-encoding UTF-8
#player1 alice Alice Liddell
#player2 bob Bob
#title Test game
#description A made-up game
#id test 42
#lexicon CSW21
#game-type classic
#note a header note
>alice: AEINRST 8D RETAINS +76 76
#note a note on the first move
and its second line
>bob: ?ADEEIR 9H .EDAlIER +70 70 KO, EX
>alice: CEJNRTV -JNV +0 76
>bob: BEEIIMS -3 +0 70
>alice: AAMSUWY - +0 76
>bob: CEFLLNO h10 CLEF +20 90
>alice: CEFLLNO --  -20 70
>bob: ACDEJOQ (challenge) +5 95
>alice: NU (time) -10 66
>bob:    (ENOR) +8 103
>alice: EIOQRRT (EIOQRRT) -16 50
#rack1 AEEIILZ
#rack2 AAAELQS
#incomplete 
";

    fn parse_ok(text: &str) -> GcgRecord {
        match parse_gcg(text.as_bytes()) {
            Ok(record) => record,
            Err(error) => panic!("{error}\n--- in ---\n{text}"),
        }
    }

    fn parse_err(text: &str) -> GcgError {
        match parse_gcg(text.as_bytes()) {
            Ok(record) => panic!("expected an error, got {record:?}"),
            Err(error) => error,
        }
    }

    /// The single event of a two-line file with the given event line.
    fn one_event(event_line: &str) -> GcgEvent {
        let mut record = parse_ok(&format!(
            "#character-encoding UTF-8\n#player1 a A\n{event_line}\n"
        ));
        assert_eq!(record.events.len(), 1);
        record.events.remove(0)
    }

    fn play(position: &str, word: &str) -> GcgEventKind {
        GcgEventKind::Play {
            position: position.to_string(),
            word: word.to_string(),
        }
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn reads_a_whole_game() {
        let record = parse_ok(GAME);
        assert_eq!(record.players[0].nick, "alice");
        assert_eq!(record.players[0].name, "Alice Liddell");
        assert_eq!(record.players[1].nick, "bob");
        assert_eq!(record.players[1].name, "Bob");
        assert_eq!(record.title.as_deref(), Some("Test game"));
        assert_eq!(record.description.as_deref(), Some("A made-up game"));
        assert_eq!(record.id.as_deref(), Some("test 42"));
        assert_eq!(record.lexicon.as_deref(), Some("CSW21"));
        assert_eq!(record.character_encoding.as_deref(), Some("UTF-8"));
        assert!(record.incomplete);
        assert_eq!(
            record.last_racks,
            [Some("AEEIILZ".to_string()), Some("AAAELQS".to_string())]
        );
        assert_eq!(record.notes, strings(&["a header note"]));

        let events = &record.events;
        assert_eq!(events.len(), 11);
        assert_eq!(
            events[0],
            GcgEvent {
                line: 10,
                player: 0,
                rack: Some("AEINRST".to_string()),
                kind: play("8D", "RETAINS"),
                score: 76,
                cumulative: 76,
                trailing: vec![],
                notes: strings(&["a note on the first move\nand its second line"]),
            }
        );
        assert_eq!(events[1].player, 1);
        assert_eq!(events[1].kind, play("9H", ".EDAlIER"));
        assert_eq!(events[1].trailing, strings(&["KO,", "EX"]));
        assert_eq!(
            events[2].kind,
            GcgEventKind::Exchange(ExchangedTiles::Known("JNV".to_string()))
        );
        assert_eq!(
            events[3].kind,
            GcgEventKind::Exchange(ExchangedTiles::Count(3))
        );
        assert_eq!(events[4].kind, GcgEventKind::Pass);
        assert_eq!(events[5].kind, play("h10", "CLEF"));
        assert_eq!(events[6].kind, GcgEventKind::Withdrawal);
        assert_eq!((events[6].score, events[6].cumulative), (-20, 70));
        assert_eq!(events[7].kind, GcgEventKind::ChallengeBonus);
        assert_eq!(events[8].kind, GcgEventKind::TimePenalty);
        assert_eq!(events[8].rack.as_deref(), Some("NU"));
        assert_eq!(
            events[9].kind,
            GcgEventKind::EndRack {
                tiles: "ENOR".to_string()
            }
        );
        assert_eq!(events[9].rack, None);
        assert_eq!(events[10].rack.as_deref(), Some("EIOQRRT"));
        assert_eq!(events[10].score, -16);
    }

    /// A short description of an event, to keep the shape table readable.
    fn describe(event: &GcgEvent) -> String {
        let kind = match &event.kind {
            GcgEventKind::Play { position, word } => format!("play {position} {word}"),
            GcgEventKind::Exchange(ExchangedTiles::Known(tiles)) => format!("exchange {tiles}"),
            GcgEventKind::Exchange(ExchangedTiles::Count(n)) => format!("exchange {n} tiles"),
            GcgEventKind::Pass => "pass".to_string(),
            GcgEventKind::Withdrawal => "withdrawal".to_string(),
            GcgEventKind::ChallengeBonus => "challenge bonus".to_string(),
            GcgEventKind::TimePenalty => "time penalty".to_string(),
            GcgEventKind::EndRack { tiles } => format!("end rack {tiles}"),
        };
        format!(
            "{} | {kind} | {} {} | {}",
            event.rack.as_deref().unwrap_or("no rack"),
            event.score,
            event.cumulative,
            event.trailing.join(" ")
        )
    }

    #[test]
    fn reads_the_event_shapes_of_real_files() {
        let cases = [
            (
                ">a: CNNTU?? 8b NoCTUrN +70 70",
                "CNNTU?? | play 8b NoCTUrN | 70 70 | ",
            ),
            (">a: LWGRAKE   -- +0 59", "LWGRAKE | withdrawal | 0 59 | "),
            (
                ">a: ACDEJOQ   (challenge) +5 339",
                "ACDEJOQ | challenge bonus | 5 339 | ",
            ),
            (">a:    (ENOR) +8 481", "no rack | end rack ENOR | 8 481 | "),
            (
                ">a: UUIECEL  3f   ECU     +12  241  UM",
                "UUIECEL | play 3f ECU | 12 241 | UM",
            ),
            (
                ">a: BNCOAAE  1e   BEANO   +31  369  BE, EWE",
                "BNCOAAE | play 1e BEANO | 31 369 | BE, EWE",
            ),
            (
                ">a: DEIILTZ 4B TIL.. +24 79",
                "DEIILTZ | play 4B TIL.. | 24 79 | ",
            ),
            (
                ">a: UNKNOWN (challenge) +5 477",
                "UNKNOWN | challenge bonus | 5 477 | ",
            ),
            (">a: AEEGTTV -VG +0 0", "AEEGTTV | exchange VG | 0 0 | "),
            (">a: ?EGMOT -?EG +0 0", "?EGMOT | exchange ?EG | 0 0 | "),
            (">a: ... -3 +0 12", "... | exchange 3 tiles | 0 12 | "),
            (">a: IIIU -4 +0 349", "IIIU | exchange 4 tiles | 0 349 | "),
            (">a: -7 +0 12", "no rack | exchange 7 tiles | 0 12 | "),
            (">a:  (A) +2 456", "no rack | end rack A | 2 456 | "),
            (">a: EGOP - +0 451", "EGOP | pass | 0 451 | "),
            (">a: - +0 451", "no rack | pass | 0 451 | "),
            (
                ">a: BEEIIMS --  -46 355",
                "BEEIIMS | withdrawal | -46 355 | ",
            ),
            (">a: NU (time) -10 422", "NU | time penalty | -10 422 | "),
            (">a: NU (TIME) -10 422", "NU | time penalty | -10 422 | "),
            (">a: (TIME) +12 422", "no rack | end rack TIME | 12 422 | "),
            (
                ">a: TIME (TIME) -12 422",
                "TIME | end rack TIME | -12 422 | ",
            ),
            (
                ">a: EIOQRRT (EIOQRRT) -16 -16",
                "EIOQRRT | end rack EIOQRRT | -16 -16 | ",
            ),
            (
                ">a:          (T)        +1  360",
                "no rack | end rack T | 1 360 | ",
            ),
            (
                ">a: T        (T)        -1  452",
                "T | end rack T | -1 452 | ",
            ),
            (
                ">a: AHIJOUY 8F HUJA +20 20",
                "AHIJOUY | play 8F HUJA | 20 20 | ",
            ),
            (
                ">a: ĆĘIKPST 8G STĘPIĆ +46 46",
                "ĆĘIKPST | play 8G STĘPIĆ | 46 46 | ",
            ),
            (
                ">a: FKLNŃWW -KWŃW +0 56",
                "FKLNŃWW | exchange KWŃW | 0 56 | ",
            ),
            (
                ">a: AOXJGWS  8g   JAW    +26   26  ",
                "AOXJGWS | play 8g JAW | 26 26 | ",
            ),
            (">a: ABC 15A ABC +5 5", "ABC | play 15A ABC | 5 5 | "),
            (">a: ABC d8 ABC +5 5", "ABC | play d8 ABC | 5 5 | "),
            (">a: 8D WORD +5 5", "no rack | play 8D WORD | 5 5 | "),
            (">a:\tABC\t8D\tWORD\t+5\t5", "ABC | play 8D WORD | 5 5 | "),
        ];
        for (text, expected) in cases {
            let event = one_event(text);
            assert_eq!(describe(&event), expected, "{text}");
            assert_eq!((event.line, event.player), (3, 0), "{text}");
        }
    }

    #[test]
    fn nicks_may_contain_parentheses_and_colons() {
        let record = parse_ok(
            "#player1 Grab_em_by_the_Short_and_(James)_Curley(s) James Curley\n\
             #player2 a:b Other\n\
             >Grab_em_by_the_Short_and_(James)_Curley(s): ?ADEEIR 5E .EDAlIER +70 105\n\
             >a:b: ABC 8D CAB +7 7\n",
        );
        assert_eq!(record.events[0].player, 0);
        assert_eq!(record.events[0].rack.as_deref(), Some("?ADEEIR"));
        assert_eq!(record.events[1].player, 1);
        assert_eq!(record.events[1].kind, play("8D", "CAB"));
    }

    #[test]
    fn nicks_without_pragmas_are_assigned_in_order_of_appearance() {
        let record = parse_ok(">2: AB 8D AB +4 4\n>1: CD 7D CD +6 6\n>2: EF 9D EF +8 12\n");
        assert_eq!(record.players[0].nick, "2");
        assert_eq!(record.players[1].nick, "1");
        assert_eq!(record.players[0].name, "");
        let players: Vec<usize> = record.events.iter().map(|e| e.player).collect();
        assert_eq!(players, vec![0, 1, 0]);

        // One pragma, one nick that is not in it.
        let record = parse_ok("#player2 bob Bob\n>carol: AB 8D AB +4 4\n>bob: CD 7D CD +6 6\n");
        assert_eq!(record.players[0].nick, "carol");
        assert_eq!(record.events[0].player, 0);
        assert_eq!(record.events[1].player, 1);
    }

    #[test]
    fn a_third_nick_is_an_error() {
        let error = parse_err(">a: AB 8D AB +4 4\n>b: CD 7D CD +6 6\n>c: EF 9D EF +8 12\n");
        assert_eq!(error.line(), 3);
        assert_eq!(
            error.to_string(),
            "line 3: \"c\" would be a third player (the players are \"a\" and \"b\")"
        );
        let error = parse_err("#player1 a A\n#player2 b B\n>c: EF 9D EF +8 12\n");
        assert!(matches!(error, GcgError::ThirdPlayer { line: 3, .. }));
    }

    #[test]
    fn iso_8859_1_is_the_default() {
        let bytes = b"#player1 c\xe9sar c\xe9sar\n#player2 h\xe9rcules h\xe9rcules\n>c\xe9sar: DINNVWY 8D WINDY +32 32\n";
        let record = parse_gcg(bytes).unwrap();
        assert_eq!(record.players[0].nick, "césar");
        assert_eq!(record.players[1].name, "hércules");
        assert_eq!(record.events[0].player, 0);
        assert_eq!(record.character_encoding, None);

        // UTF-8 bytes without a header are read as ISO-8859-1.
        let record = parse_gcg("#player1 césar césar\n".as_bytes()).unwrap();
        assert_eq!(record.players[0].nick, "cÃ©sar");
    }

    #[test]
    fn a_declared_utf8_is_honoured_wherever_the_pragma_is() {
        for declared in ["UTF-8", "utf-8", "utf8", "UTF8", "Utf-8"] {
            let text = format!(
                "#player1 césar César\n#player2 doug Doug\n#character-encoding {declared}\n\
                 >césar: DINNVWY 8D WINDY +32 32\n"
            );
            let record = parse_ok(&text);
            assert_eq!(record.players[0].nick, "césar");
            assert_eq!(record.character_encoding.as_deref(), Some(declared));
        }
        // A byte-order mark with no declaration means UTF-8 too.
        let record = parse_gcg("\u{feff}#player1 césar César\n".as_bytes()).unwrap();
        assert_eq!(record.players[0].nick, "césar");
    }

    #[test]
    fn a_declared_latin1_is_accepted() {
        for declared in ["ISO-8859-1", "iso8859-1", "ISO_8859-1", "latin1", "Latin-1"] {
            let mut bytes = format!("#character-encoding {declared}\n").into_bytes();
            bytes.extend_from_slice(b"#player1 c\xe9sar C\n");
            let record = parse_gcg(&bytes).unwrap();
            assert_eq!(record.players[0].nick, "césar");
            assert_eq!(record.character_encoding.as_deref(), Some(declared));
        }
    }

    #[test]
    fn other_encodings_are_refused() {
        let error = parse_err("#character-encoding ISO8859-6\n#player1 a A\n>a: ABC 8D CAB +7 7\n");
        assert_eq!(
            error,
            GcgError::UnsupportedEncoding {
                line: 1,
                encoding: "ISO8859-6".to_string()
            }
        );
        assert!(error
            .to_string()
            .starts_with("line 1: unsupported character encoding \"ISO8859-6\""));

        // Found even after events, and before anything is decoded.
        let error = parse_err(">a: ABC 8D CAB +7 7\n#character-encoding windows-1252\n");
        assert_eq!(error.line(), 2);
        assert!(matches!(error, GcgError::UnsupportedEncoding { .. }));

        let error = parse_gcg(b"\xa0#character-encoding Arabic \xd8\xb9\n").unwrap_err();
        assert_eq!(
            error.to_string(),
            "line 1: unsupported character encoding \"Arabic ع\" (only UTF-8 and ISO-8859-1 can be \
             read)"
        );

        let error = parse_err("#character-encoding\n");
        assert_eq!(error, GcgError::MissingEncoding { line: 1 });

        let error = parse_err("#character-encoding UTF-8\n#character-encoding latin1\n");
        assert_eq!(
            error.to_string(),
            "line 2: character encoding \"latin1\" contradicts \"UTF-8\" declared on line 1"
        );
    }

    #[test]
    fn invalid_utf8_is_an_error_when_utf8_is_declared() {
        let error = parse_gcg(b"#character-encoding UTF-8\n#player1 c\xe9sar C\n").unwrap_err();
        assert_eq!(error, GcgError::InvalidUtf8 { line: 2, byte: 11 });
        assert!(error.to_string().starts_with("line 2: "));
    }

    #[test]
    fn any_mix_of_line_ends() {
        let text =
            "#player1 a A\r\n#player2 b B\r>a: AB 8D AB +4 4\n\r\n>b: CD 7D CD +6 6\r\n#note n\r";
        let record = parse_ok(text);
        assert_eq!(record.players[1].nick, "b");
        assert_eq!(record.events.len(), 2);
        assert_eq!(record.events[0].line, 3);
        assert_eq!(record.events[1].line, 5);
        assert_eq!(record.events[1].notes, strings(&["n"]));
    }

    #[test]
    fn pragmas_details() {
        let record = parse_ok(
            "#PLAYER1 a\n#player2   b   Bob   Smith  \n#style wsc2001\n#title\n#rack1\n#Incomplete\n#\n",
        );
        assert_eq!(
            record.players[0],
            GcgPlayer {
                nick: "a".into(),
                name: String::new()
            }
        );
        assert_eq!(record.players[1].name, "Bob   Smith");
        assert_eq!(record.title.as_deref(), Some(""));
        assert_eq!(record.last_racks, [None, None]);
        assert!(record.incomplete);
        assert!(record.events.is_empty());

        let error = parse_err("#player1   \n");
        assert_eq!(
            error.to_string(),
            "line 1: #player1 needs a nickname (\"#player1 NICK FULL NAME\")"
        );
    }

    #[test]
    fn a_second_player_pragma_is_refused_not_a_silent_replacement() {
        let error = parse_err("#player1 a Ann\n#player2 b Bob\n#player1 c Cy\n");
        assert_eq!(
            error.to_string(),
            "line 3: a second #player1 (the first is on line 1); a record names each player once"
        );
        // The same full name under different nicks is harmless.
        let record = parse_ok("#player1 a Ann Lee\n#player2 b Ann Lee\n");
        assert_eq!(record.players[1].nick, "b");
    }

    /// Issue 27: the event lines tell the players apart only by their nicknames, so two players
    /// with the same one are refused where the second is named, not later as "a third player"
    /// or "moves twice in a row".
    #[test]
    fn two_players_with_the_same_nickname_are_refused_at_the_second_pragma() {
        let error = parse_err(
            "#player1 jo Jo Smith\n#player2 jo Jo Brown\n>jo: AB 8D AB +4 4\n>jo: CD 7D CD +6 6\n",
        );
        assert_eq!(error.line(), 2);
        assert_eq!(
            error.to_string(),
            "line 2: #player2 gives the nickname \"jo\", which #player1 on line 1 already has; \
             the event lines tell the players apart by their nicknames, so each needs its own"
        );
        // A nickname an event line took before the pragma counts too.
        let error = parse_err(">jo: AB 8D AB +4 4\n#player2 jo Jo Brown\n");
        assert_eq!(
            error.to_string(),
            "line 2: #player2 gives the nickname \"jo\", which the event on line 1 already gave \
             player 1; the event lines tell the players apart by their nicknames, so each needs \
             its own"
        );
    }

    #[test]
    fn tilebag_pragmas_read_back_and_bad_ones_name_the_line() {
        let record = parse_ok(
            "#player1 a A\n#player2 b B\n>a: AB 8D AB +4 4\n#tilebag-adjust b +54 54 the opponent resigned while ahead\n#tilebag-end resigned a\n",
        );
        assert_eq!(record.adjustments.len(), 1);
        assert_eq!(record.adjustments[0].line, 4);
        assert_eq!(record.adjustments[0].player, 1);
        assert_eq!(record.adjustments[0].score, 54);
        assert_eq!(
            record.adjustments[0].why,
            "the opponent resigned while ahead"
        );
        let end = record.ending.unwrap();
        assert_eq!(
            (end.line, end.reason.as_str(), end.player),
            (5, "resigned", Some(0))
        );
        let error = parse_err("#player1 a A\n#tilebag-end gave-up a\n");
        assert!(
            error
                .to_string()
                .starts_with("line 2: #tilebag-end: unknown ending \"gave-up\""),
            "{error}"
        );
        let error = parse_err("#player1 a A\n#tilebag-end resigned\n");
        assert_eq!(
            error.to_string(),
            "line 2: #tilebag-end: resigned needs the player's nick"
        );
        let error = parse_err("#player1 a A\n#tilebag-adjust a 50 50 x\n");
        assert!(
            error
                .to_string()
                .starts_with("line 2: #tilebag-adjust: expected a signed score"),
            "{error}"
        );
    }

    #[test]
    fn notes_attach_to_the_event_before_them() {
        let record = parse_ok(
            "#note header 1\n#note header 2\n  continued  \n\n>a: AB 8D AB +4 4\n#note after 1\n\
             #note after 2\n>b: CD 7D CD +6 6\n",
        );
        assert_eq!(record.notes, strings(&["header 1", "header 2\ncontinued"]));
        assert_eq!(record.events[0].notes, strings(&["after 1", "after 2"]));
        assert!(record.events[1].notes.is_empty());
    }

    #[test]
    fn stray_text_is_an_error() {
        let error = parse_err("#player1 a A\nhello there\n");
        assert_eq!(
            error.to_string(),
            "line 2: expected a #pragma or a \">nick:\" event line, found \"hello there\""
        );
        // Text after a non-note pragma is not a note continuation.
        let error = parse_err("#note n\n#title t\nstray\n");
        assert_eq!(error.line(), 3);
    }

    #[test]
    fn event_errors_name_the_line_and_the_problem() {
        const MOVE: &str = "line 2: expected a move (a position and a word, -, --, -TILES, -N, \
                            (challenge), (time) or (TILES))";
        const SCORE: &str = "line 2: expected a score (+N or -N)";
        const NICK: &str = "line 2: an event line must start with \">nick:\", found";
        let cases = [
            (
                ">a: AB 8D AB +24 abc",
                "line 2: expected a cumulative score after \"+24\", found \"abc\"".to_string(),
            ),
            (
                ">a: AB 8D AB +24",
                "line 2: expected a cumulative score after \"+24\", found the end of the line"
                    .to_string(),
            ),
            (
                ">a: AB 8D AB",
                format!("{SCORE} after \"AB\", found the end of the line"),
            ),
            (
                ">a: AB 8D AB abc 5",
                format!("{SCORE} after \"AB\", found \"abc\""),
            ),
            (
                ">a: AB 8D AB 24 24",
                format!("{SCORE} after \"AB\", found \"24\""),
            ),
            (
                ">a: AB 8D AB +x 24",
                format!("{SCORE} after \"AB\", found \"+x\""),
            ),
            (
                ">a: AB 8D +24 24",
                "line 2: expected a word after position \"8D\", found \"+24\"".to_string(),
            ),
            (
                ">a: AB 8D",
                "line 2: expected a word after position \"8D\", found the end of the line"
                    .to_string(),
            ),
            (
                ">a: AB ZZZ +5 5",
                format!("{MOVE} after \"AB\", found \"ZZZ\""),
            ),
            (
                ">a: AB",
                format!("{MOVE} after \"AB\", found the end of the line"),
            ),
            (
                ">a:",
                format!("{MOVE} after \"a:\", found the end of the line"),
            ),
            (">a: +5 5", format!("{MOVE} after \"a:\", found \"+5\"")),
            (
                ">a: AB -3X +0 0",
                format!("{MOVE} after \"AB\", found \"-3X\""),
            ),
            (
                ">a: AB () +0 0",
                format!("{MOVE} after \"AB\", found \"()\""),
            ),
            (
                ">a: AB 8D AB +99999999999 5",
                "line 2: \"+99999999999\" is out of range for a score".to_string(),
            ),
            (
                ">a: AB 8D AB +9 99999999999",
                "line 2: \"99999999999\" is out of range for a cumulative score".to_string(),
            ),
            (
                ">a: AB -300 +0 0",
                "line 2: \"-300\" is out of range for an exchange count (at most 255)".to_string(),
            ),
            (">a AB 8D AB +4 4", format!("{NICK} \">a AB 8D AB +4 4\"")),
            (">: AB 8D AB +4 4", format!("{NICK} \">: AB 8D AB +4 4\"")),
        ];
        for (event_line, message) in cases {
            let error = parse_err(&format!("#player1 a A\n{event_line}\n"));
            assert_eq!(error.to_string(), message, "{event_line}");
            assert_eq!(error.line(), 2);
        }
    }

    /// A tiny deterministic generator, so the fuzz loops need no dependency.
    struct XorShift(u64);

    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n.max(1) as u64) as usize
        }
    }

    #[test]
    fn never_panics_on_random_bytes_or_mutations() {
        let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
        let alphabet: &[u8] = b"#>:+-()?. \t\r\n0123456789ABCdez\xc3\xa9\xff\xef\xbb\xbf";
        for _ in 0..3000 {
            let len = rng.below(200);
            let bytes: Vec<u8> = (0..len)
                .map(|_| {
                    if rng.below(2) == 0 {
                        alphabet[rng.below(alphabet.len())]
                    } else {
                        rng.next() as u8
                    }
                })
                .collect();
            let _ = parse_gcg(&bytes);
        }
        let base = GAME.as_bytes();
        for _ in 0..5000 {
            let mut bytes = base.to_vec();
            for _ in 0..1 + rng.below(6) {
                let at = rng.below(bytes.len() + 1);
                match rng.below(4) {
                    0 if at < bytes.len() => {
                        bytes.remove(at);
                    }
                    1 => bytes.insert(at, alphabet[rng.below(alphabet.len())]),
                    2 if at < bytes.len() => bytes[at] = rng.next() as u8,
                    _ => {
                        // Duplicate a slice somewhere else.
                        let from = rng.below(bytes.len());
                        let to = (from + rng.below(40)).min(bytes.len());
                        let piece = bytes[from..to].to_vec();
                        let at = at.min(bytes.len());
                        bytes.splice(at..at, piece);
                    }
                }
            }
            if let Ok(record) = parse_gcg(&bytes) {
                // Whatever parses must survive a write and a re-read.
                let nicks_writable = record
                    .players
                    .iter()
                    .all(|p| !p.nick.contains(char::is_whitespace));
                if nicks_writable {
                    let written = super::super::write_gcg(&record);
                    let again =
                        parse_gcg(written.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{written}"));
                    let strip = |r: &GcgRecord| {
                        let mut r = r.clone();
                        r.character_encoding = None;
                        for event in &mut r.events {
                            event.line = 0;
                        }
                        r.last_rack_lines = [0, 0];
                        if let Some((line, _)) = &mut r.game_type {
                            *line = 0;
                        }
                        r
                    };
                    assert_eq!(strip(&again), strip(&record), "{written}");
                }
            }
        }
    }
}
