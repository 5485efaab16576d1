//! GCG game records: the interchange format Quackle, Woogles and cross-tables use.
//!
//! This module is text only: [`parse_gcg`] turns bytes into a [`GcgRecord`] (tolerantly), and
//! [`write_gcg`] turns a record into the strict form. Replaying a record against the rules lives in
//! [`crate::replay`], which knows the board.

mod read;
mod write;

pub use read::{parse_gcg, GcgError};
pub use write::write_gcg;

/// One player as the `#player1` / `#player2` pragmas name them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GcgPlayer {
    /// The nickname used at the start of every event line (`>nick:`).
    pub nick: String,
    /// The full name (the rest of the pragma line), possibly empty.
    pub name: String,
}

/// A whole game record.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct GcgRecord {
    pub players: [GcgPlayer; 2],
    pub title: Option<String>,
    pub description: Option<String>,
    /// `#id AUTHORITY ID`, kept as the text after `#id `.
    pub id: Option<String>,
    pub lexicon: Option<String>,
    /// `#character-encoding`, as declared (only UTF-8 / ISO-8859-1 are accepted).
    pub character_encoding: Option<String>,
    /// `#incomplete` was present.
    pub incomplete: bool,
    /// `#rack1` / `#rack2`: the last known racks of an unfinished game.
    pub last_racks: [Option<String>; 2],
    /// The lines of the `#rack1` / `#rack2` pragmas (0 when absent or built in memory).
    pub last_rack_lines: [usize; 2],
    /// `#note` lines before the first event.
    pub notes: Vec<String>,
    pub events: Vec<GcgEvent>,
    /// `#game-type` (or `#variant`) as declared, with its line: only `classic` can be verified,
    /// or a classic game under a preset the value names (`naspa-2013-csw`, `wespa-2010`, ...),
    /// which the verifier then holds to that book's rules.
    pub game_type: Option<(usize, String)>,
    /// tilebag's `#tilebag-adjust` pragmas: result adjustments with no GCG line of their own
    /// (a resignation's margin, an overtime forfeit). Other readers ignore them.
    pub adjustments: Vec<GcgAdjustment>,
    /// tilebag's `#tilebag-end` pragma: how a finished game ended, when the moves alone cannot
    /// say (resigned, left, the overtime limit, the director, the game clock).
    pub ending: Option<GcgEnding>,
}

/// `#tilebag-adjust NICK +POINTS CUMULATIVE WHY`: a result adjustment after the last move.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GcgAdjustment {
    pub line: usize,
    pub player: usize,
    pub score: i32,
    pub cumulative: i32,
    pub why: String,
}

/// `#tilebag-end REASON [NICK]`: `went-out NICK`, `six-zeros`, `resigned NICK`, `left NICK`,
/// `overtime-limit NICK`, `game-clock-expired` or `director-ended`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GcgEnding {
    pub line: usize,
    pub reason: String,
    pub player: Option<usize>,
}

/// The reasons `#tilebag-end` may give, and whether each names a player.
pub const ENDINGS: [(&str, bool); 7] = [
    ("went-out", true),
    ("six-zeros", false),
    ("resigned", true),
    ("left", true),
    ("overtime-limit", true),
    ("game-clock-expired", false),
    ("director-ended", false),
];

/// One `>nick: ...` line, with the `#note`s that follow it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GcgEvent {
    /// 1-based line number in the source text (0 for records built in memory).
    pub line: usize,
    /// Index of the player (0 or 1) whose nick starts the line.
    pub player: usize,
    /// The rack before the move as the recorder wrote it (`None` when empty). May be partial or
    /// the literal `UNKNOWN`. `?` is a blank.
    pub rack: Option<String>,
    pub kind: GcgEventKind,
    /// The score as written, with its sign (`+24`, `-24`, `+0`).
    pub score: i32,
    /// The cumulative score as written.
    pub cumulative: i32,
    /// Tokens after the cumulative score (Quackle writes cross-words there: `KO, EX`).
    pub trailing: Vec<String>,
    /// `#note` pragmas that follow this event.
    pub notes: Vec<String>,
}

/// What an event line records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GcgEventKind {
    /// A tile placement: `8D WORD`. `position` is the coordinate as written (`8D`, `d8`, `h10`);
    /// `word` is the word as written: uppercase = tile from the rack, lowercase = a blank standing
    /// for that letter, `.` (or the letter itself) = a tile already on the board.
    Play { position: String, word: String },
    /// `-TILES` (known tiles, `?` for a blank) or `-N` (only the count is known).
    Exchange(ExchangedTiles),
    /// `-` on its own: a pass (a lost double challenge is written this way too).
    Pass,
    /// `--`: the previous play was withdrawn after a successful challenge.
    Withdrawal,
    /// `(challenge)`: the bonus to the player whose valid play was challenged.
    ChallengeBonus,
    /// `(time)`: an overtime penalty.
    TimePenalty,
    /// `(TILES)`: an end-of-game rack adjustment. With a positive score the line's player receives
    /// points for the opponent's rack `TILES`; with a negative score the line's player loses the
    /// value of their own rack `TILES`.
    EndRack { tiles: String },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ExchangedTiles {
    Known(String),
    Count(u8),
}
