//! Board plumbing for the hand-worked scoring tests (`premium_squares.rs`, `forming_words.rs`):
//! naming a square, setting earlier turns' tiles straight onto the board, and scoring a play.

#![allow(dead_code)]

use tilebag_core::play::{score_placement, ScoredPlay};
use tilebag_core::{Board, Layout, Placement, Position, Square, TileSet};

/// `"H8"` → the square in column H, row 8.
pub fn sq(name: &str) -> Square {
    let col = name.as_bytes()[0] - b'A';
    let row: u8 = name[1..].parse().unwrap();
    Square::new(row - 1, col)
}

/// A play in GCG notation (uppercase from the rack, lowercase a blank, letters already on the
/// board spelled out) on the standard board and tile set.
pub fn placement(b: &Board, pos: &str, word: &str) -> Placement {
    Placement::from_gcg(
        b,
        &Layout::standard(),
        &TileSet::english(),
        Position::parse(pos, 15).unwrap(),
        word,
    )
    .unwrap()
}

/// Tiles that were played on earlier turns.
pub fn put(b: &mut Board, pos: &str, word: &str) {
    for (s, t) in placement(b, pos, word).tiles {
        b.set(s, t);
    }
}

/// Score a play with a rack of seven.
pub fn score(b: &Board, pos: &str, word: &str) -> ScoredPlay {
    score_placement(
        b,
        &Layout::standard(),
        &TileSet::english(),
        &placement(b, pos, word),
        7,
    )
    .unwrap()
}
