//! The generator's own board: 225 bytes, one per square, plus the tables it reads in its hot loop.
//!
//! A square holds 0 (empty) or a letter code 1..=26 (A..=Z), with [`BLANK_BIT`] set when the tile
//! is a blank standing for that letter. The same byte encodes a tile of a play. On a rack, code 0
//! is the blank. This is the only board the generator reads; it is made from `tilebag-core`'s
//! board (and back), so scores can be checked against the core's one scoring rule.

use tilebag_core::board::Premium;
use tilebag_core::{Board, Layout, PlacedTile, Square, TileSet};

/// Squares on a side.
pub const N: usize = 15;
/// Set on a square (or a play's tile) that holds a blank.
pub const BLANK_BIT: u8 = 0x40;
/// The letter code of a square's byte.
pub const CODE_MASK: u8 = 0x1f;
/// The blank's code on a rack.
pub const BLANK: u8 = 0;

/// The tiles on the board.
#[derive(Clone, PartialEq, Eq)]
pub struct Grid {
    pub cells: [u8; N * N],
}

impl std::fmt::Debug for Grid {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for r in 0..N {
            let row: String = (0..N).map(|c| letter_char(self.get(r, c))).collect();
            writeln!(f, "{row}")?;
        }
        Ok(())
    }
}

/// The character for a square's byte: `.` empty, uppercase a tile, lowercase a blank.
pub fn letter_char(cell: u8) -> char {
    if cell == 0 {
        return '.';
    }
    let ch = (b'A' + (cell & CODE_MASK) - 1) as char;
    if cell & BLANK_BIT != 0 {
        ch.to_ascii_lowercase()
    } else {
        ch
    }
}

impl Default for Grid {
    fn default() -> Grid {
        Grid { cells: [0; N * N] }
    }
}

impl Grid {
    #[inline(always)]
    pub fn get(&self, r: usize, c: usize) -> u8 {
        self.cells[r * N + c]
    }
    #[inline(always)]
    pub fn set(&mut self, r: usize, c: usize, v: u8) {
        self.cells[r * N + c] = v;
    }
    pub fn is_empty(&self) -> bool {
        self.cells.iter().all(|&c| c == 0)
    }
    pub fn tile_count(&self) -> usize {
        self.cells.iter().filter(|&&c| c != 0).count()
    }
    /// The board with rows and columns swapped: down plays become across plays.
    pub fn transposed(&self) -> Grid {
        let mut t = Grid::default();
        for r in 0..N {
            for c in 0..N {
                t.cells[c * N + r] = self.cells[r * N + c];
            }
        }
        t
    }

    /// From the core's board (English letters: the tile set's letter index + 1).
    pub fn from_board(board: &Board) -> Grid {
        let mut g = Grid::default();
        for (sq, t) in board.tiles() {
            let (r, c) = (sq.row as usize, sq.col as usize);
            if r < N && c < N {
                g.set(r, c, encode(t));
            }
        }
        g
    }

    /// To the core's board.
    pub fn to_board(&self) -> Board {
        let mut b = Board::new(N);
        for r in 0..N {
            for c in 0..N {
                let v = self.get(r, c);
                if v != 0 {
                    b.set(Square::new(r as u8, c as u8), decode(v));
                }
            }
        }
        b
    }
}

/// A placed tile as a square's byte.
#[inline]
pub fn encode(t: PlacedTile) -> u8 {
    (t.letter + 1) | if t.blank { BLANK_BIT } else { 0 }
}

/// A square's byte (non-zero) as a placed tile.
#[inline]
pub fn decode(v: u8) -> PlacedTile {
    PlacedTile {
        letter: (v & CODE_MASK) - 1,
        blank: v & BLANK_BIT != 0,
    }
}

/// What the generator needs of the rules: tile values and the premium squares.
#[derive(Clone, Debug)]
pub struct Tables {
    /// Value by letter code (index 0, the blank, is 0).
    pub values: [i32; 27],
    /// Letter multiplier per square, row-major.
    pub letter_mult: [i32; N * N],
    /// Word multiplier per square, row-major.
    pub word_mult: [i32; N * N],
    /// Tiles of each code in a full set (index 0: blanks).
    pub counts: [u8; 27],
    /// Tiles on a full rack (the bingo needs them all).
    pub rack_size: usize,
}

/// Why the engine cannot play with these rules.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TablesError {
    #[error("the engine plays on a 15x15 board; this layout is {0}x{0}")]
    BoardSize(usize),
    #[error("the engine knows the 26 letters A-Z; the tile set {0:?} has other letters")]
    TileSet(String),
}

impl Tables {
    /// The standard board and English tiles.
    pub fn english() -> Tables {
        Tables::new(&Layout::standard(), &TileSet::english(), 7).expect("the standard game")
    }

    pub fn new(layout: &Layout, set: &TileSet, rack_size: usize) -> Result<Tables, TablesError> {
        if layout.size != N || layout.premiums.len() != N * N {
            return Err(TablesError::BoardSize(layout.size));
        }
        let english = set.letters.len() == 26
            && set
                .letters
                .iter()
                .enumerate()
                .all(|(i, l)| l.symbol == (b'A' + i as u8) as char);
        if !english {
            return Err(TablesError::TileSet(set.name.clone()));
        }
        let mut values = [0i32; 27];
        let mut counts = [0u8; 27];
        counts[0] = set.blanks;
        for (i, l) in set.letters.iter().enumerate() {
            values[i + 1] = i32::from(l.value);
            counts[i + 1] = l.count;
        }
        let mut letter_mult = [1i32; N * N];
        let mut word_mult = [1i32; N * N];
        for (i, p) in layout.premiums.iter().enumerate() {
            letter_mult[i] = p.letter_multiplier();
            word_mult[i] = p.word_multiplier();
            debug_assert!(*p == Premium::None || letter_mult[i] * word_mult[i] > 1);
        }
        Ok(Tables {
            values,
            letter_mult,
            word_mult,
            counts,
            rack_size,
        })
    }

    /// The value of a square's byte (a blank is worth 0).
    #[inline(always)]
    pub fn value(&self, cell: u8) -> i32 {
        if cell & BLANK_BIT != 0 {
            0
        } else {
            self.values[usize::from(cell & CODE_MASK)]
        }
    }
}
