//! A move as the engine keeps it (24 bytes, `Copy`), and its forms for the core and for GCG.

use crate::candidate::Candidate;
use crate::grid::{decode, encode, letter_char, Grid, BLANK_BIT, CODE_MASK, N};
use crate::rack::Rack;
use tilebag_core::{Direction, Placement, Square, Tile};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveKind {
    Place,
    Exchange,
    Pass,
}

/// A move. For a placement, `tiles[..len]` runs along the main word: the new tile's byte, or 0
/// where the word goes through a tile already on the board. For an exchange, `tiles[..len]` are
/// the tiles returned (a letter's code, or [`BLANK_BIT`] alone for a blank).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Move {
    pub kind: MoveKind,
    pub direction: Direction,
    pub row: u8,
    pub col: u8,
    pub len: u8,
    pub tiles_played: u8,
    pub tiles: [u8; N],
    pub score: i32,
    /// Score plus the value of the leave (and any other adjustment the evaluator made).
    pub equity: f32,
}

impl Move {
    pub fn pass() -> Move {
        Move {
            kind: MoveKind::Pass,
            direction: Direction::Across,
            row: 0,
            col: 0,
            len: 0,
            tiles_played: 0,
            tiles: [0; N],
            score: 0,
            equity: 0.0,
        }
    }

    /// An exchange of `tiles` (codes; 0 = blank).
    pub fn exchange(tiles: &Rack) -> Move {
        let mut m = Move::pass();
        m.kind = MoveKind::Exchange;
        for (i, code) in tiles.codes().into_iter().take(N).enumerate() {
            m.tiles[i] = if code == 0 { BLANK_BIT } else { code };
            m.len = i as u8 + 1;
        }
        m
    }

    pub fn from_candidate(c: &Candidate<'_>) -> Move {
        let (row, col) = match c.direction {
            Direction::Across => (c.line, c.start),
            Direction::Down => (c.start, c.line),
        };
        let len = c.end - c.start + 1;
        let mut tiles = [0u8; N];
        tiles[..usize::from(len)]
            .copy_from_slice(&c.placed[usize::from(c.start)..=usize::from(c.end)]);
        Move {
            kind: MoveKind::Place,
            direction: c.direction,
            row,
            col,
            len,
            tiles_played: c.tiles,
            tiles,
            score: c.score,
            equity: c.score as f32,
        }
    }

    /// The square of the `i`-th letter of the main word.
    #[inline]
    pub fn square(&self, i: usize) -> (usize, usize) {
        match self.direction {
            Direction::Across => (usize::from(self.row), usize::from(self.col) + i),
            Direction::Down => (usize::from(self.row) + i, usize::from(self.col)),
        }
    }

    /// The rack tiles this move uses (placed or exchanged), as a multiset.
    pub fn used(&self) -> Rack {
        let mut r = Rack::default();
        match self.kind {
            MoveKind::Pass => {}
            MoveKind::Exchange => {
                for &t in &self.tiles[..usize::from(self.len)] {
                    r.add(if t & BLANK_BIT != 0 { 0 } else { t & CODE_MASK });
                }
            }
            MoveKind::Place => {
                for &t in &self.tiles[..usize::from(self.len)] {
                    if t != 0 {
                        r.add(if t & BLANK_BIT != 0 { 0 } else { t & CODE_MASK });
                    }
                }
            }
        }
        r
    }

    /// The new tiles as the core's placement.
    pub fn placement(&self) -> Placement {
        let mut tiles = Vec::with_capacity(usize::from(self.tiles_played));
        for i in 0..usize::from(self.len) {
            let t = self.tiles[i];
            if t != 0 {
                let (r, c) = self.square(i);
                tiles.push((Square::new(r as u8, c as u8), decode(t)));
            }
        }
        Placement {
            tiles,
            direction: Some(self.direction),
        }
    }

    /// The move as the core's action for the seat that makes it.
    pub fn action(&self) -> tilebag_core::Action {
        match self.kind {
            MoveKind::Place => tilebag_core::Action::Play {
                placement: self.placement(),
            },
            MoveKind::Exchange => tilebag_core::Action::Exchange {
                tiles: self.exchanged(),
            },
            MoveKind::Pass => tilebag_core::Action::Pass,
        }
    }

    /// The exchanged tiles as the core's tiles.
    pub fn exchanged(&self) -> Vec<Tile> {
        self.used().to_tiles()
    }

    /// The GCG coordinate: row first for across (`8D`), column first for down (`D8`).
    pub fn coordinate(&self) -> String {
        let col = (b'A' + self.col) as char;
        let row = self.row + 1;
        match self.direction {
            Direction::Across => format!("{row}{col}"),
            Direction::Down => format!("{col}{row}"),
        }
    }

    /// The main word in GCG form: played-through tiles as `.`, blanks lowercase.
    pub fn gcg_word(&self) -> String {
        self.tiles[..usize::from(self.len)]
            .iter()
            .map(|&t| if t == 0 { '.' } else { letter_char(t) })
            .collect()
    }

    /// The whole main word, with the board's letters filled in (blanks lowercase).
    pub fn word_on(&self, grid: &Grid) -> String {
        (0..usize::from(self.len))
            .map(|i| {
                let t = self.tiles[i];
                if t != 0 {
                    letter_char(t)
                } else {
                    let (r, c) = self.square(i);
                    letter_char(grid.get(r, c))
                }
            })
            .collect()
    }

    /// Short notation: `8D WORD`, `-ABC` (exchange), `-` (pass).
    pub fn notation(&self) -> String {
        match self.kind {
            MoveKind::Pass => "-".into(),
            MoveKind::Exchange => format!("-{}", self.used()),
            MoveKind::Place => format!("{} {}", self.coordinate(), self.gcg_word()),
        }
    }

    /// The move for a core placement on `grid` (`None` if it is not one line of new tiles).
    pub fn from_placement(p: &Placement, grid: &Grid, score: i32) -> Option<Move> {
        let first = p.tiles.first()?;
        let dir = if p.tiles.len() == 1 {
            p.direction.unwrap_or(Direction::Across)
        } else if p.tiles.iter().all(|(s, _)| s.row == first.0.row) {
            Direction::Across
        } else {
            Direction::Down
        };
        let at = |i: isize, base: Square| -> Option<(usize, usize)> {
            let (r, c) = match dir {
                Direction::Across => (base.row as isize, base.col as isize + i),
                Direction::Down => (base.row as isize + i, base.col as isize),
            };
            (0..N as isize).contains(&r).then_some(()).and(
                (0..N as isize)
                    .contains(&c)
                    .then_some((r as usize, c as usize)),
            )
        };
        let min = p
            .tiles
            .iter()
            .map(|(s, _)| *s)
            .min_by_key(|s| (s.row, s.col))?;
        // Walk back over board tiles before the first new tile.
        let mut start = 0isize;
        while let Some((r, c)) = at(start - 1, min) {
            if grid.get(r, c) == 0 {
                break;
            }
            start -= 1;
        }
        let mut m = Move::pass();
        m.kind = MoveKind::Place;
        m.direction = dir;
        let (r0, c0) = at(start, min)?;
        m.row = r0 as u8;
        m.col = c0 as u8;
        let mut i = start;
        let mut k = 0usize;
        let mut placed = 0;
        while let Some((r, c)) = at(i, min) {
            let new = p
                .tiles
                .iter()
                .find(|(s, _)| usize::from(s.row) == r && usize::from(s.col) == c);
            match new {
                Some(&(_, t)) => {
                    m.tiles[k] = encode(t);
                    placed += 1;
                }
                None if grid.get(r, c) != 0 => m.tiles[k] = 0,
                None => break,
            }
            k += 1;
            i += 1;
            if k == N {
                break;
            }
        }
        if placed != p.tiles.len() {
            return None;
        }
        m.len = k as u8;
        m.tiles_played = placed as u8;
        m.score = score;
        m.equity = score as f32;
        Some(m)
    }

    /// Whether two moves are the same placement (or the same exchange multiset, or both passes).
    pub fn same_as(&self, other: &Move) -> bool {
        match (self.kind, other.kind) {
            (MoveKind::Pass, MoveKind::Pass) => true,
            (MoveKind::Exchange, MoveKind::Exchange) => self.used() == other.used(),
            (MoveKind::Place, MoveKind::Place) => {
                let key = |m: &Move| {
                    let mut v: Vec<(usize, usize, u8)> = (0..usize::from(m.len))
                        .filter(|&i| m.tiles[i] != 0)
                        .map(|i| {
                            let (r, c) = m.square(i);
                            (r, c, m.tiles[i])
                        })
                        .collect();
                    v.sort_unstable();
                    v
                };
                key(self) == key(other)
            }
            _ => false,
        }
    }
}
