//! Tile placements: reading them, validating them against the board, finding the words they form
//! and scoring them.

use crate::board::{Board, Direction, Layout, Position, Square};
use crate::citation::Rule;
use crate::tiles::{PlacedTile, Tile, TileSet};
use serde::{Deserialize, Serialize};

/// The bonus for playing every tile of a full rack (NASPA A.II, WESPA appendix 1, Literacy
/// scoring 8): added after the word multipliers.
pub const BINGO_BONUS: i32 = 50;

/// The tiles a player puts down in one turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Placement {
    pub tiles: Vec<(Square, PlacedTile)>,
    /// The direction the player named (GCG always names one). Needed only to tell which word is
    /// the main word of a one-tile play.
    pub direction: Option<Direction>,
}

/// A word formed by a play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FormedWord {
    /// Letters, uppercase (blanks as the letter they stand for).
    pub word: String,
    pub start: Square,
    pub direction: Direction,
    pub score: i32,
}

/// A validated, scored play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScoredPlay {
    pub placement: Placement,
    /// The main word's coordinate (start square and direction).
    pub position: Position,
    /// The main word first, then each cross-word in board order.
    pub words: Vec<FormedWord>,
    pub bingo: bool,
    pub score: i32,
    /// The first play of the game does not cover the centre square. Under a challenge rule it
    /// stands unless challenged, and any challenge takes it off the board whatever its words
    /// (NASPA III.G.1, NSA III.F.1, SANSPA 5.1.2, WESPA 3.10.16(a)(i), (d)); the centre keeps its
    /// double-word premium for later. Only [`score_placement_off_centre_allowed`] produces one.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub off_centre: bool,
}

impl ScoredPlay {
    /// The main word in GCG notation: `.` for tiles that were already on the board, lowercase for
    /// blanks.
    pub fn gcg_word(&self, board_before: &Board, layout: &Layout, set: &TileSet) -> String {
        let main = &self.words[0];
        let mut s = String::new();
        for i in 0..main.word.chars().count() {
            let Some(sq) = layout.offset(main.start, main.direction, i as i32) else {
                break;
            };
            match self.placement.tiles.iter().find(|(q, _)| *q == sq) {
                Some(&(_, t)) => s.push(set.placed_char(t)),
                None if board_before.get(sq).is_some() => s.push('.'),
                None => s.push('?'),
            }
        }
        s
    }

    pub fn tiles_used(&self) -> Vec<Tile> {
        self.placement.tiles.iter().map(|(_, t)| t.tile()).collect()
    }
}

/// Why a placement is refused. Each names the square, where there is one; [`PlayError::rule`]
/// names the rule, which a game cites in its own book ([`crate::Game::refused_placement`]).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("a play must place at least one tile")]
    NoTiles,
    #[error("square {0} is off the board")]
    OffBoard(String),
    #[error("square {0} already holds a tile: tiles are added to empty squares")]
    Occupied(Square),
    #[error("square {0} is covered twice in one play")]
    Duplicate(Square),
    #[error(
        "the tile at {0} is not in the row or column of the others: no diagonal or scattered plays"
    )]
    NotInLine(Square),
    #[error("gap at {0}: the new tiles must form one unbroken word")]
    Gap(Square),
    #[error("the first play must cover the centre square {0}")]
    MissesCentre(Square),
    #[error("the first play must use at least two tiles")]
    FirstPlayTooShort,
    #[error("the play starting at {0} does not touch any tile on the board")]
    NotConnected(Square),
    #[error("the blank at {0} is not designated")]
    BlankNotDesignated(Square),
    #[error("the word has {written} at {square}, but the board has {board} there")]
    ThroughMismatch {
        square: Square,
        written: char,
        board: char,
    },
    #[error(
        "gap at {0}: the word has a tile already on the board there ('.'), but the square is empty"
    )]
    ThroughEmpty(Square),
    #[error(
        "the word does not include the tile at {0}: a play is written as the whole word it forms"
    )]
    NotWholeWord(Square),
    #[error("the play forms no word of two or more letters")]
    NoWord,
    #[error("{0}")]
    Letter(#[from] crate::tiles::UnknownLetter),
}

impl PlayError {
    /// The rule that refuses the placement (NASPA A.I.A, A.I.B, IV.F.1 and their equals in the
    /// other books).
    pub fn rule(&self) -> Rule {
        match self {
            PlayError::MissesCentre(_) | PlayError::FirstPlayTooShort => Rule::FirstPlay,
            PlayError::BlankNotDesignated(_) => Rule::BlankDesignation,
            _ => Rule::Placement,
        }
    }
}

impl Placement {
    /// Read a GCG word at a GCG coordinate: uppercase = a tile from the rack, lowercase = a
    /// designated blank, `.` or the board's own letter = a tile already on the board, `?` = an
    /// undesignated blank (refused).
    pub fn from_gcg(
        board: &Board,
        layout: &Layout,
        set: &TileSet,
        position: Position,
        word: &str,
    ) -> Result<Placement, PlayError> {
        let mut tiles = Vec::new();
        let dir = position.direction;
        for (i, ch) in word.chars().enumerate() {
            let sq = layout
                .offset(position.square, dir, i as i32)
                .ok_or_else(|| {
                    // Name the square itself, as it would be numbered past the edge: letter 6 of
                    // a word down from J11 is J16.
                    let (dr, dc) = match dir {
                        Direction::Across => (0, i as u32),
                        Direction::Down => (i as u32, 0),
                    };
                    let col = u32::from(position.square.col) + dc;
                    let row = u32::from(position.square.row) + dr + 1;
                    let name = char::from_u32('A' as u32 + col).unwrap_or('?');
                    PlayError::OffBoard(format!(
                        "{name}{row} (letter {} of {word:?} from {position})",
                        i + 1
                    ))
                })?;
            let on_board = board.get(sq);
            if ch == '.' {
                if on_board.is_none() {
                    return Err(PlayError::ThroughEmpty(sq));
                }
                continue;
            }
            if ch == '?' {
                return Err(PlayError::BlankNotDesignated(sq));
            }
            let letter = set.letter_index(ch)?;
            let blank = ch.is_lowercase();
            if let Some(t) = on_board {
                // Old-style records spell played-through letters out.
                if t.letter == letter && !blank {
                    continue;
                }
                if t.letter == letter && blank && t.blank {
                    continue;
                }
                return Err(PlayError::ThroughMismatch {
                    square: sq,
                    written: ch,
                    board: set.placed_char(t),
                });
            }
            tiles.push((sq, PlacedTile { letter, blank }));
        }
        // The written word must be the whole word: the squares just before and after are empty.
        let end = word.chars().count() as i32;
        for n in [-1, end] {
            if let Some(sq) = layout.offset(position.square, dir, n) {
                if board.get(sq).is_some() {
                    return Err(PlayError::NotWholeWord(sq));
                }
            }
        }
        Ok(Placement {
            tiles,
            direction: Some(dir),
        })
    }
}

/// Validate a placement on `board` and score it. The board is not changed. A first play must
/// cover the centre square (the void rule, and any caller that wants the strict check).
pub fn score_placement(
    board: &Board,
    layout: &Layout,
    set: &TileSet,
    placement: &Placement,
    rack_size: usize,
) -> Result<ScoredPlay, PlayError> {
    score_placement_with(board, layout, set, placement, rack_size, false)
}

/// As [`score_placement`], but a first play that misses the centre square is scored as placed
/// and marked [`ScoredPlay::off_centre`]: the books let the opponent challenge it off, and let it
/// stand if they do not (NASPA III.G.1, NSA III.F.1, SANSPA 5.1.2, WESPA 3.10.16(d)).
pub fn score_placement_off_centre_allowed(
    board: &Board,
    layout: &Layout,
    set: &TileSet,
    placement: &Placement,
    rack_size: usize,
) -> Result<ScoredPlay, PlayError> {
    score_placement_with(board, layout, set, placement, rack_size, true)
}

fn score_placement_with(
    board: &Board,
    layout: &Layout,
    set: &TileSet,
    placement: &Placement,
    rack_size: usize,
    allow_off_centre: bool,
) -> Result<ScoredPlay, PlayError> {
    let tiles = &placement.tiles;
    if tiles.is_empty() {
        return Err(PlayError::NoTiles);
    }
    for (i, &(sq, _)) in tiles.iter().enumerate() {
        if sq.row as usize >= layout.size || sq.col as usize >= layout.size {
            return Err(PlayError::OffBoard(sq.to_string()));
        }
        if board.get(sq).is_some() {
            return Err(PlayError::Occupied(sq));
        }
        if tiles[..i].iter().any(|&(q, _)| q == sq) {
            return Err(PlayError::Duplicate(sq));
        }
    }
    let same_row = tiles.iter().all(|(s, _)| s.row == tiles[0].0.row);
    let same_col = tiles.iter().all(|(s, _)| s.col == tiles[0].0.col);
    let dir = if tiles.len() == 1 {
        match placement.direction {
            Some(d) => d,
            None => {
                // One tile: the main word runs where it has a neighbour (across first).
                let sq = tiles[0].0;
                let has = |d: Direction| {
                    [-1, 1].iter().any(|&n| {
                        layout
                            .offset(sq, d, n)
                            .is_some_and(|q| board.get(q).is_some())
                    })
                };
                if has(Direction::Across) || !has(Direction::Down) {
                    Direction::Across
                } else {
                    Direction::Down
                }
            }
        }
    } else if same_row {
        Direction::Across
    } else if same_col {
        Direction::Down
    } else {
        // Name the first tile off the line of the first two.
        let (a, b) = (tiles[0].0, tiles[1].0);
        let stray = tiles
            .iter()
            .map(|&(s, _)| s)
            .find(|s| {
                if a.row == b.row {
                    s.row != a.row
                } else {
                    s.col != a.col
                }
            })
            .unwrap_or(b);
        return Err(PlayError::NotInLine(stray));
    };

    let get = |sq: Square| -> Option<PlacedTile> {
        board
            .get(sq)
            .or_else(|| tiles.iter().find(|(q, _)| *q == sq).map(|&(_, t)| t))
    };
    // Contiguity: every square between the first and last new tile holds a tile.
    let key = |sq: Square| match dir {
        Direction::Across => sq.col,
        Direction::Down => sq.row,
    };
    let first = tiles
        .iter()
        .map(|&(s, _)| s)
        .min_by_key(|&s| key(s))
        .unwrap_or(tiles[0].0);
    let last_key = tiles
        .iter()
        .map(|&(s, _)| key(s))
        .max()
        .unwrap_or(key(first));
    let span = (last_key - key(first)) as i32;
    for n in 0..=span {
        let sq = layout
            .offset(first, dir, n)
            .ok_or_else(|| PlayError::OffBoard(first.to_string()))?;
        if get(sq).is_none() {
            return Err(PlayError::Gap(sq));
        }
    }

    let mut off_centre = false;
    if board.is_empty() {
        if !tiles.iter().any(|&(s, _)| s == layout.centre) {
            if !allow_off_centre {
                return Err(PlayError::MissesCentre(layout.centre));
            }
            off_centre = true;
        }
        if tiles.len() < 2 {
            return Err(PlayError::FirstPlayTooShort);
        }
    } else {
        let touches = tiles.iter().any(|&(sq, _)| {
            [Direction::Across, Direction::Down].iter().any(|&d| {
                [-1, 1].iter().any(|&n| {
                    layout
                        .offset(sq, d, n)
                        .is_some_and(|q| board.get(q).is_some())
                })
            })
        });
        if !touches {
            return Err(PlayError::NotConnected(first));
        }
    }

    let word_at = |sq: Square, d: Direction| -> Option<FormedWord> {
        let mut start = sq;
        while let Some(prev) = layout.offset(start, d, -1) {
            if get(prev).is_none() {
                break;
            }
            start = prev;
        }
        let mut word = String::new();
        let mut sum = 0;
        let mut mult = 1;
        let mut n = 0;
        while let Some(q) = layout.offset(start, d, n) {
            let Some(t) = get(q) else { break };
            word.push(set.symbol(t.letter));
            let v = set.placed_value(t);
            if board.get(q).is_none() {
                // Premiums count only under newly placed tiles; letter premiums first.
                let p = layout.premium(q);
                sum += v * p.letter_multiplier();
                mult *= p.word_multiplier();
            } else {
                sum += v;
            }
            n += 1;
        }
        (n >= 2).then_some(FormedWord {
            word,
            start,
            direction: d,
            score: sum * mult,
        })
    };

    let mut words = Vec::new();
    // A one-tile play whose named direction forms no word is written along the word it does
    // form.
    let dir = if tiles.len() == 1 && word_at(first, dir).is_none() {
        dir.other()
    } else {
        dir
    };
    if let Some(w) = word_at(first, dir) {
        words.push(w);
    }
    let main_start = words.first().map_or(first, |w| w.start);
    let mut sorted: Vec<Square> = tiles.iter().map(|&(s, _)| s).collect();
    sorted.sort_by_key(|&s| key(s));
    for sq in sorted {
        if let Some(w) = word_at(sq, dir.other()) {
            words.push(w);
        }
    }
    if words.is_empty() {
        return Err(PlayError::NoWord);
    }
    let bingo = tiles.len() >= rack_size;
    let score = words.iter().map(|w| w.score).sum::<i32>() + if bingo { BINGO_BONUS } else { 0 };
    Ok(ScoredPlay {
        placement: placement.clone(),
        position: Position {
            square: main_start,
            direction: dir,
        },
        words,
        bingo,
        score,
        off_centre,
    })
}

/// Put a scored play's tiles on the board.
pub fn place(board: &mut Board, play: &ScoredPlay) {
    for &(sq, t) in &play.placement.tiles {
        board.set(sq, t);
    }
}

/// Take a play's tiles off the board again (a withdrawn phony).
pub fn unplace(board: &mut Board, play: &ScoredPlay) {
    for &(sq, _) in &play.placement.tiles {
        board.clear(sq);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup() -> (Board, Layout, TileSet) {
        (Board::new(15), Layout::standard(), TileSet::english())
    }

    fn play(
        b: &mut Board,
        l: &Layout,
        s: &TileSet,
        pos: &str,
        word: &str,
    ) -> Result<ScoredPlay, PlayError> {
        let p = Placement::from_gcg(b, l, s, Position::parse(pos, 15).unwrap(), word)?;
        let sp = score_placement(b, l, s, &p, 7)?;
        place(b, &sp);
        Ok(sp)
    }

    #[test]
    fn first_play_doubles_on_centre_and_must_cover_it() {
        let (mut b, l, s) = setup();
        assert_eq!(
            play(&mut b.clone(), &l, &s, "8A", "CAT").unwrap_err(),
            PlayError::MissesCentre(Square::new(7, 7))
        );
        // 8G CAT: C on G8, A on H8 (centre DW), T on I8: (3+1+1)*2 = 10
        assert_eq!(play(&mut b, &l, &s, "8G", "CAT").unwrap().score, 10);
    }

    #[test]
    fn first_play_needs_two_tiles() {
        let (mut b, l, s) = setup();
        let p = Placement {
            tiles: vec![(
                Square::new(7, 7),
                PlacedTile {
                    letter: 0,
                    blank: false,
                },
            )],
            direction: None,
        };
        assert_eq!(
            score_placement(&b, &l, &s, &p, 7).unwrap_err(),
            PlayError::FirstPlayTooShort
        );
        assert!(play(&mut b, &l, &s, "8H", "AA").is_ok());
    }

    #[test]
    fn letter_premium_before_word_premium_and_cross_words() {
        let (mut b, l, s) = setup();
        play(&mut b, &l, &s, "8D", "QUIET").unwrap(); // Q on D8 (DL): (20+1+1+1+1)*2 = 48
        let sp = play(&mut b, &l, &s, "D8", ".AT").unwrap();
        // QAT down from D8: Q already there (10, no premium), A on D9, T on D10: 12
        assert_eq!(sp.words[0].word, "QAT");
        assert_eq!(sp.score, 12);
        // parallel play forming cross-words
        let sp = play(&mut b, &l, &s, "9D", ".NE").unwrap();
        let words: Vec<_> = sp.words.iter().map(|w| w.word.as_str()).collect();
        assert_eq!(words, ["ANE", "UN", "IE"]);
    }

    #[test]
    fn two_triple_words_multiply_by_nine_and_bingo_adds_fifty_after() {
        let (mut b, l, s) = setup();
        // Build a column word reaching row 1 and 15 is hard; use row 8 A..O instead: 8A and 8O are TW.
        play(&mut b, &l, &s, "8D", "TIMES").unwrap();
        // ABSTIMESABLENES is not a word, but scoring does not judge words.
        let sp = play(&mut b, &l, &s, "8A", "ABS.....ABLENES").unwrap();
        // New tiles: A on A8 (TW), B, S, then A B L E(L8, DL) N E S(O8, TW).
        let v = |c| s.value(Tile::Letter(s.letter_index(c).unwrap()));
        let old: i32 = "TIMES".chars().map(v).sum();
        let sum = v('A')
            + v('B')
            + v('S')
            + old
            + v('A')
            + v('B')
            + v('L')
            + v('E') * 2
            + v('N')
            + v('E')
            + v('S');
        assert_eq!(sp.placement.tiles.len(), 10);
        assert!(sp.bingo);
        assert_eq!(sp.score, sum * 9 + BINGO_BONUS);
    }

    #[test]
    fn blank_scores_zero_but_gets_word_premium() {
        let (mut b, l, s) = setup();
        let sp = play(&mut b, &l, &s, "8G", "zAX").unwrap();
        // z (blank, 0) + A (1) + X (8), doubled on the centre
        assert_eq!(sp.score, 18);
        assert!(b.get(Square::new(7, 6)).unwrap().blank);
    }

    #[test]
    fn premiums_only_under_new_tiles() {
        let (mut b, l, s) = setup();
        play(&mut b, &l, &s, "8G", "ZAX").unwrap();
        // extend ZAX? use H7..H9 through A: "H7 TAT" -> T on H7 (none), A old (centre DW not reused), T on H9
        let sp = play(&mut b, &l, &s, "H7", "T.T").unwrap();
        assert_eq!(sp.score, 3);
    }

    #[test]
    fn placement_errors_name_the_square() {
        let (mut b, l, s) = setup();
        play(&mut b, &l, &s, "8G", "CAT").unwrap();
        let off = |t: Vec<(u8, u8)>| Placement {
            tiles: t
                .into_iter()
                .map(|(r, c)| {
                    (
                        Square::new(r, c),
                        PlacedTile {
                            letter: 0,
                            blank: false,
                        },
                    )
                })
                .collect(),
            direction: None,
        };
        let e = score_placement(&b, &l, &s, &off(vec![(0, 0), (0, 1)]), 7).unwrap_err();
        assert_eq!(e, PlayError::NotConnected(Square::new(0, 0)));
        assert!(e.to_string().contains("A1"));
        let e = score_placement(&b, &l, &s, &off(vec![(8, 6), (9, 7)]), 7).unwrap_err();
        assert_eq!(e, PlayError::NotInLine(Square::new(9, 7)));
        assert!(e.to_string().contains("H10"));
        let e = score_placement(&b, &l, &s, &off(vec![(8, 6), (8, 8)]), 7).unwrap_err();
        assert_eq!(e, PlayError::Gap(Square::new(8, 7)));
        assert!(e.to_string().contains("H9"));
        let e = score_placement(&b, &l, &s, &off(vec![(7, 7)]), 7).unwrap_err();
        assert_eq!(e, PlayError::Occupied(Square::new(7, 7)));
        let e =
            Placement::from_gcg(&b, &l, &s, Position::parse("8N", 15).unwrap(), "ABC").unwrap_err();
        assert!(matches!(e, PlayError::OffBoard(_)));
        // The message names the square off the board, not the start of the word: J11 down
        // puts its sixth letter on J16.
        let e = Placement::from_gcg(&b, &l, &s, Position::parse("J11", 15).unwrap(), "ABCDEF")
            .unwrap_err();
        assert!(e.to_string().starts_with("square J16 (letter 6"), "{e}");
        let e =
            Placement::from_gcg(&b, &l, &s, Position::parse("8N", 15).unwrap(), "ABC").unwrap_err();
        assert!(e.to_string().starts_with("square P8 (letter 3"), "{e}");
        // A '.' over an empty square is a gap, and live play hears of the word, not a record.
        let e =
            Placement::from_gcg(&b, &l, &s, Position::parse("1A", 15).unwrap(), "A.C").unwrap_err();
        assert!(e.to_string().starts_with("gap at B1"), "{e}");
        assert!(!e.to_string().contains("record"), "{e}");
        let e =
            Placement::from_gcg(&b, &l, &s, Position::parse("9G", 15).unwrap(), "A?").unwrap_err();
        assert_eq!(e, PlayError::BlankNotDesignated(Square::new(8, 7)));
        let e =
            Placement::from_gcg(&b, &l, &s, Position::parse("8H", 15).unwrap(), ".TS").unwrap_err();
        assert_eq!(e, PlayError::NotWholeWord(Square::new(7, 6)));
        let e = Placement::from_gcg(&b, &l, &s, Position::parse("8G", 15).unwrap(), "COTS")
            .unwrap_err();
        assert!(matches!(e, PlayError::ThroughMismatch { .. }));
    }

    #[test]
    fn spelled_out_through_letters_match_dots() {
        let (mut b, l, s) = setup();
        play(&mut b, &l, &s, "8G", "CAT").unwrap();
        let a = Placement::from_gcg(&b, &l, &s, Position::parse("H7", 15).unwrap(), "TAB").unwrap();
        let d = Placement::from_gcg(&b, &l, &s, Position::parse("h7", 15).unwrap(), "T.B").unwrap();
        assert_eq!(a, d);
        assert_eq!(a.tiles.len(), 2);
    }
}
