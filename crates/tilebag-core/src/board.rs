//! The board: its premium layout (data), the tiles on it, and GCG coordinates.

use crate::tiles::PlacedTile;
use serde::{Deserialize, Serialize};
use std::fmt;

/// A premium square.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Premium {
    None,
    DoubleLetter,
    TripleLetter,
    DoubleWord,
    TripleWord,
}

impl Premium {
    pub fn letter_multiplier(self) -> i32 {
        match self {
            Premium::DoubleLetter => 2,
            Premium::TripleLetter => 3,
            _ => 1,
        }
    }
    pub fn word_multiplier(self) -> i32 {
        match self {
            Premium::DoubleWord => 2,
            Premium::TripleWord => 3,
            _ => 1,
        }
    }
}

/// A square of the board, 0-based. Written as column letter then row number (`H8`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Square {
    pub row: u8,
    pub col: u8,
}

impl Square {
    pub fn new(row: u8, col: u8) -> Square {
        Square { row, col }
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'A' + self.col) as char, self.row as u32 + 1)
    }
}

/// The direction of a play.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Direction {
    Across,
    Down,
}

impl Direction {
    pub fn other(self) -> Direction {
        match self {
            Direction::Across => Direction::Down,
            Direction::Down => Direction::Across,
        }
    }
    /// (row step, column step)
    pub fn step(self) -> (i32, i32) {
        match self {
            Direction::Across => (0, 1),
            Direction::Down => (1, 0),
        }
    }
}

/// A GCG coordinate: the first square of a word and its direction. `8D` is across (row first);
/// `D8` is down (column first). The column letter may be in either case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Position {
    pub square: Square,
    pub direction: Direction,
}

/// A coordinate that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad coordinate {text:?}: {why}")]
pub struct CoordError {
    pub text: String,
    pub why: &'static str,
}

impl Position {
    /// Parse a GCG coordinate for a board of `size` squares a side.
    pub fn parse(text: &str, size: usize) -> Result<Position, CoordError> {
        let err = |why| CoordError {
            text: text.to_string(),
            why,
        };
        let t = text.trim();
        let first = t.chars().next().ok_or_else(|| err("empty"))?;
        let (digits, letter, direction) = if first.is_ascii_digit() {
            let split = t
                .find(|c: char| !c.is_ascii_digit())
                .ok_or_else(|| err("no column letter"))?;
            (&t[..split], &t[split..], Direction::Across)
        } else {
            let split = t
                .char_indices()
                .nth(1)
                .map(|(i, _)| i)
                .ok_or_else(|| err("no row number"))?;
            (&t[split..], &t[..split], Direction::Down)
        };
        let mut lc = letter.chars();
        let col_ch = lc.next().ok_or_else(|| err("no column letter"))?;
        if lc.next().is_some() || !col_ch.is_ascii_alphabetic() {
            return Err(err("expected one column letter and a row number"));
        }
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) || digits.len() > 3 {
            return Err(err("expected a row number"));
        }
        let row: usize = digits.parse().map_err(|_| err("expected a row number"))?;
        let col = (col_ch.to_ascii_uppercase() as u8 - b'A') as usize;
        if row == 0 || row > size {
            return Err(err("row is off the board"));
        }
        if col >= size {
            return Err(err("column is off the board"));
        }
        Ok(Position {
            square: Square::new((row - 1) as u8, col as u8),
            direction,
        })
    }
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let col = (b'A' + self.square.col) as char;
        let row = self.square.row as u32 + 1;
        match self.direction {
            Direction::Across => write!(f, "{row}{col}"),
            Direction::Down => write!(f, "{col}{row}"),
        }
    }
}

/// A board layout: its size, premium squares and centre. Data, so other boards can be added.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    pub name: String,
    pub size: usize,
    pub premiums: Vec<Premium>,
    pub centre: Square,
}

impl Layout {
    /// The standard 15×15 board (NASPA appendix A.II, WESPA appendix 1). The centre is a
    /// double-word square.
    pub fn standard() -> Layout {
        // = triple word, - double word, " triple letter, ' double letter.
        const ROWS: [&str; 15] = [
            "=  '   =   '  =",
            " -   \"   \"   - ",
            "  -   ' '   -  ",
            "'  -   '   -  '",
            "    -     -    ",
            " \"   \"   \"   \" ",
            "  '   ' '   '  ",
            "=  '   -   '  =",
            "  '   ' '   '  ",
            " \"   \"   \"   \" ",
            "    -     -    ",
            "'  -   '   -  '",
            "  -   ' '   -  ",
            " -   \"   \"   - ",
            "=  '   =   '  =",
        ];
        let premiums = ROWS
            .iter()
            .flat_map(|r| r.chars())
            .map(|c| match c {
                '=' => Premium::TripleWord,
                '-' => Premium::DoubleWord,
                '"' => Premium::TripleLetter,
                '\'' => Premium::DoubleLetter,
                _ => Premium::None,
            })
            .collect();
        Layout {
            name: "standard".into(),
            size: 15,
            premiums,
            centre: Square::new(7, 7),
        }
    }

    pub fn premium(&self, sq: Square) -> Premium {
        self.premiums[sq.row as usize * self.size + sq.col as usize]
    }

    /// The square `n` steps from `sq` in `dir`, if it is on the board.
    pub fn offset(&self, sq: Square, dir: Direction, n: i32) -> Option<Square> {
        let (dr, dc) = dir.step();
        let r = sq.row as i32 + dr * n;
        let c = sq.col as i32 + dc * n;
        if r < 0 || c < 0 || r >= self.size as i32 || c >= self.size as i32 {
            None
        } else {
            Some(Square::new(r as u8, c as u8))
        }
    }
}

/// The tiles on the board.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Board {
    size: usize,
    cells: Vec<Option<PlacedTile>>,
    tiles_on_board: usize,
}

impl Board {
    pub fn new(size: usize) -> Board {
        Board {
            size,
            cells: vec![None; size * size],
            tiles_on_board: 0,
        }
    }
    pub fn size(&self) -> usize {
        self.size
    }
    pub fn get(&self, sq: Square) -> Option<PlacedTile> {
        self.cells[sq.row as usize * self.size + sq.col as usize]
    }
    pub fn is_empty(&self) -> bool {
        self.tiles_on_board == 0
    }
    pub fn tile_count(&self) -> usize {
        self.tiles_on_board
    }
    pub fn set(&mut self, sq: Square, t: PlacedTile) {
        let cell = &mut self.cells[sq.row as usize * self.size + sq.col as usize];
        if cell.is_none() {
            self.tiles_on_board += 1;
        }
        *cell = Some(t);
    }
    pub fn clear(&mut self, sq: Square) {
        let cell = &mut self.cells[sq.row as usize * self.size + sq.col as usize];
        if cell.is_some() {
            self.tiles_on_board -= 1;
        }
        *cell = None;
    }
    /// Every occupied square and its tile, row by row.
    pub fn tiles(&self) -> impl Iterator<Item = (Square, PlacedTile)> + '_ {
        self.cells.iter().enumerate().filter_map(move |(i, c)| {
            c.map(|t| (Square::new((i / self.size) as u8, (i % self.size) as u8), t))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_layout_counts_premiums() {
        let l = Layout::standard();
        let count = |p| l.premiums.iter().filter(|&&q| q == p).count();
        assert_eq!(count(Premium::TripleWord), 8);
        assert_eq!(count(Premium::DoubleWord), 17); // 16 plus the centre
        assert_eq!(count(Premium::TripleLetter), 12);
        assert_eq!(count(Premium::DoubleLetter), 24);
        assert_eq!(l.premium(l.centre), Premium::DoubleWord);
        assert_eq!(l.premium(Square::new(0, 3)), Premium::DoubleLetter);
        // symmetric under transpose
        for r in 0..15 {
            for c in 0..15 {
                assert_eq!(l.premium(Square::new(r, c)), l.premium(Square::new(c, r)));
            }
        }
    }

    #[test]
    fn gcg_coordinates_row_first_is_across() {
        let p = Position::parse("8D", 15).unwrap();
        assert_eq!(p.square, Square::new(7, 3));
        assert_eq!(p.direction, Direction::Across);
        let p = Position::parse("d8", 15).unwrap();
        assert_eq!(p.square, Square::new(7, 3));
        assert_eq!(p.direction, Direction::Down);
        assert_eq!(Position::parse("h10", 15).unwrap().to_string(), "H10");
        assert_eq!(Position::parse("15o", 15).unwrap().to_string(), "15O");
        for bad in ["", "8", "D", "16A", "A16", "8P", "0A", "8DD", "8-", "é8"] {
            assert!(Position::parse(bad, 15).is_err(), "{bad}");
        }
    }
}
