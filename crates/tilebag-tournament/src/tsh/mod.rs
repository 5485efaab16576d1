//! tsh `.t` division files and `.tsh` archives.
//!
//! A `.t` line is one player (its line number among player lines is the player number):
//!
//! ```text
//! Surname, Given[:MEMBERID] RATING OPP1 OPP2 … ; SCORE1 SCORE2 … [; KEY V1 V2 …]*
//! ```
//!
//! Opponents are player numbers, `0` for no opponent; scores are the player's own, or on a row
//! with no opponent the spread (a bye `50`, a forfeit loss `-50`). tsh's own fields we write:
//! `p12` for firsts (1 first, 2 second, 0 neither), `off` for a withdrawn player's automatic
//! spread, and `lifeg` for career games. Reading is tolerant (comments, blank lines, unknown keys,
//! one-sided scores); errors give the line number. What tilebag does not read is kept and
//! written back in its place: unknown fields, comment and blank lines, and a score entered for
//! one side of a game only (which is no result: [`import_division`] warns about it).
//!
//! ## Forfeits, and what else tsh has no field for
//!
//! tsh writes a forfeit as rows without an opponent: `0` in both players' pairings, the winner's
//! score `+spread` and the loser's `-spread` (its ForfeitLOSS command does this, NASPA's results
//! submission examples do too, and tsh refuses a paired 0–50 result as "enter it as a bye";
//! research notes §1.7). We keep that, so tsh reads our files as it reads its own: the win, the
//! loss and the spread count, and nothing is rated (NASPA V.K.1, WESPA 2.3.6(b)). What tsh's rows
//! lose, we add as fields of our own; tsh keeps `; key …` fields it does not know and ignores
//! them. All start with `tb`:
//!
//! | Field | Values | Meaning |
//! |---|---|---|
//! | `tbforfeit` | one per round | `+N`: won by forfeit against player N; `-N`: forfeited to N (both players of a double forfeit, NASPA III.C, have `-`); `0`: no forfeit. |
//! | `tbleft` | one per round | `1`: this player left the game in progress (NASPA V.K.2, WESPA 5.7(c), SANSPA 19.3); the scores are the adjusted ones. |
//! | `tbabsent` | one per round | `1`: a withdrawn player's automatic result in a round the withdrawal no longer covers (the player was reinstated). |
//! | `tbwithdrawn` | a round | The first round a withdrawn player misses (tsh's `off` gives only the spread). |
//! | `tbunpaired` | one per round | `1`: the player has no entry in this round (a late entry, or a round still being paired); written as tsh pads a late entry's rounds (no opponent, score 0), which tsh reads as a bye of 0. A player's rounds after their last entry are left off the line instead. |
//! | `tbejected` | `1` | The player was ejected (WESPA 6.2.4(a)): ranked below everyone else; their earlier results are already the ones the ejection gave. |
//! | `tbadjust` | triples | `ROUND AMOUNT REASON` per spread adjustment (NASPA IV.B.5, IV.K.5): `draw-order`, `adjudication:PLAYSCORE` or `other:NOTE` with the note percent-encoded. tsh's standings leave these out. |
//!
//! A field is written only on the lines of players it concerns. Reading checks that both sides of
//! a forfeit name each other and that their spreads agree.
//!
//! An archive is `division NAME FILE` lines plus each file between `#begin_file name=FILE` and
//! `#end_file name=FILE` (Woogles' tsh export). An imported archive's other lines (`config …`,
//! `classes …`, comments) and its file names are kept with the event and written back.
//!
//! The files: `read.rs` reads a `.t` file's lines ([`parse_t`]), `import.rs` turns them into a
//! division's actions ([`division_actions`]), `write.rs` writes a division as a `.t` file
//! ([`write_t`]), `archive.rs` reads and writes `.tsh` archives. This file holds what they share:
//! the errors, the forfeit marks, reading the bytes of a file, and the `tbadjust` reason tokens.

mod archive;
mod import;
mod read;
mod write;

pub use archive::{
    file_name, read_tsh_archive, read_tsh_archive_with_config, write_tsh_archive, TshArchive,
};
pub use import::{division_actions, import_division, DivisionImport};
pub use read::{parse_t, TshPlayer};
pub use write::write_t;

use crate::model::{AdjustmentReason, PlayerId};

/// A `.t` file that cannot be read, or a division that cannot be written as one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TshError {
    #[error("line {line}: {reason}")]
    Line { line: usize, reason: String },
    #[error("{what}: {reason}")]
    Archive { what: String, reason: String },
    #[error("division {division:?}: a .t file lists each player's scores in round order, so a missing result cannot be skipped; enter these first: {}", games.join("; "))]
    Missing {
        division: String,
        /// One line per game (or bye) without a result that has later results after it.
        games: Vec<String>,
    },
    #[error("division {division:?}: player #{player} ({name}): {reason}, so it cannot be written to a .t file unambiguously")]
    AmbiguousName {
        division: String,
        player: PlayerId,
        name: String,
        reason: String,
    },
}

/// One side of a forfeit between two paired players, as its row's `tbforfeit` value records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForfeitMark {
    /// Won by forfeit against this player.
    Won(PlayerId),
    /// Forfeited to this player (both sides of a double forfeit).
    Lost(PlayerId),
}

impl ForfeitMark {
    pub fn opponent(self) -> PlayerId {
        match self {
            ForfeitMark::Won(p) | ForfeitMark::Lost(p) => p,
        }
    }
}

pub(super) fn is_int(tok: &str) -> bool {
    tok.parse::<i64>().is_ok()
}

/// A token that is meant as a number (a digit, or a sign and a digit, first): the rating and
/// opponents after a name.
pub(super) fn numeric_ish(tok: &str) -> bool {
    let t = tok.strip_prefix(['-', '+']).unwrap_or(tok);
    t.starts_with(|c: char| c.is_ascii_digit())
}

/// The text of a `.t` file or `.tsh` archive from its bytes: a UTF-8 byte-order mark is dropped,
/// UTF-8 is read as such, anything else as Latin-1 (tsh files from older events). Bytes that are
/// text in neither (NUL, the C1 controls 0x80–0x9F of a Latin-1 reading) are refused with their
/// line number.
pub fn decode_text(bytes: &[u8]) -> Result<String, TshError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let line_of = |i: usize| bytes[..i].iter().filter(|&&b| b == b'\n').count() + 1;
    if let Some(i) = bytes.iter().position(|&b| b == 0) {
        return Err(TshError::Line {
            line: line_of(i),
            reason: "the line contains a NUL byte: this is not a text file".into(),
        });
    }
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Ok(s.to_string());
    }
    if let Some(i) = bytes.iter().position(|b| (0x80..0xA0).contains(b)) {
        return Err(TshError::Line {
            line: line_of(i),
            reason: format!(
                "byte 0x{:02X} is neither UTF-8 nor a Latin-1 letter; save the file as UTF-8",
                bytes[i]
            ),
        });
    }
    Ok(bytes.iter().map(|&b| b as char).collect())
}

/// Percent-encodes a note so it is one `.t` token: everything but ASCII letters, digits and
/// `-._~` becomes `%XX` (UTF-8 bytes).
pub(super) fn encode_note(note: &str) -> String {
    let mut out = String::new();
    for b in note.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

pub(super) fn decode_note(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

pub(super) fn reason_token(r: &AdjustmentReason) -> String {
    match r {
        AdjustmentReason::DrawingOutOfOrder => "draw-order".into(),
        AdjustmentReason::ErroneousAdjudication { play_score } => {
            format!("adjudication:{play_score}")
        }
        AdjustmentReason::Other { note } => format!("other:{}", encode_note(note)),
    }
}

pub(super) fn parse_reason(tok: &str) -> Option<AdjustmentReason> {
    if tok == "draw-order" {
        return Some(AdjustmentReason::DrawingOutOfOrder);
    }
    if let Some(n) = tok.strip_prefix("adjudication:") {
        return Some(AdjustmentReason::ErroneousAdjudication {
            play_score: n.parse().ok()?,
        });
    }
    let note = decode_note(tok.strip_prefix("other:")?)?;
    Some(AdjustmentReason::Other { note })
}
