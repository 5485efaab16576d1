//! Racks as counts per code (index 0: blanks), the form the generator reads.

use crate::grid::BLANK;
use tilebag_core::Tile;

/// A multiset of tiles: count per code, 0 = blank, 1..=26 = A..=Z.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Rack {
    pub counts: [u8; 27],
}

impl std::fmt::Debug for Rack {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self)
    }
}

impl std::fmt::Display for Rack {
    /// Letters in alphabetical order, blanks last as `?` (the CGP and GCG way).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for code in 1..27 {
            for _ in 0..self.counts[code] {
                write!(f, "{}", (b'A' + code as u8 - 1) as char)?;
            }
        }
        for _ in 0..self.counts[0] {
            write!(f, "?")?;
        }
        Ok(())
    }
}

/// A rack that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a tile: racks are letters A-Z and ? for a blank")]
pub struct BadTile(pub char);

impl Rack {
    /// Reads `AEINRST?` (either case; `?` or `_` a blank).
    pub fn parse(s: &str) -> Result<Rack, BadTile> {
        let mut r = Rack::default();
        for ch in s.chars() {
            match ch {
                '?' | '_' => r.counts[0] += 1,
                'A'..='Z' => r.counts[(ch as u8 - b'A' + 1) as usize] += 1,
                'a'..='z' => r.counts[(ch as u8 - b'a' + 1) as usize] += 1,
                _ => return Err(BadTile(ch)),
            }
            if r.len() > 100 {
                return Err(BadTile(ch));
            }
        }
        Ok(r)
    }

    pub fn from_tiles(tiles: &[Tile]) -> Rack {
        let mut r = Rack::default();
        for t in tiles {
            r.add(tile_code(*t));
        }
        r
    }

    pub fn to_tiles(&self) -> Vec<Tile> {
        let mut v = Vec::with_capacity(self.len());
        for code in 1..27u8 {
            for _ in 0..self.counts[code as usize] {
                v.push(Tile::Letter(code - 1));
            }
        }
        for _ in 0..self.counts[0] {
            v.push(Tile::Blank);
        }
        v
    }

    #[inline]
    pub fn len(&self) -> usize {
        self.counts.iter().map(|&c| usize::from(c)).sum()
    }
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.counts.iter().all(|&c| c == 0)
    }
    #[inline]
    pub fn add(&mut self, code: u8) {
        self.counts[usize::from(code)] += 1;
    }
    /// Removes one tile of `code`; false (and no change) if there is none.
    #[inline]
    pub fn take(&mut self, code: u8) -> bool {
        let c = &mut self.counts[usize::from(code)];
        if *c == 0 {
            return false;
        }
        *c -= 1;
        true
    }
    /// Whether every tile of `other` is here.
    pub fn contains(&self, other: &Rack) -> bool {
        self.counts.iter().zip(&other.counts).all(|(a, b)| a >= b)
    }
    /// `self` minus `other` (saturating).
    pub fn minus(&self, other: &Rack) -> Rack {
        let mut r = *self;
        for (a, b) in r.counts.iter_mut().zip(&other.counts) {
            *a = a.saturating_sub(*b);
        }
        r
    }
    /// Sum of tile values (blanks 0).
    pub fn value(&self, values: &[i32; 27]) -> i32 {
        (1..27).map(|c| values[c] * i32::from(self.counts[c])).sum()
    }
    /// The tiles one by one (codes), letters first, blanks last.
    pub fn codes(&self) -> Vec<u8> {
        let mut v = Vec::with_capacity(self.len());
        for code in (1..27).chain(std::iter::once(0)) {
            for _ in 0..self.counts[code] {
                v.push(code as u8);
            }
        }
        v
    }
}

/// A rack tile's code (0 for a blank).
#[inline]
pub fn tile_code(t: Tile) -> u8 {
    match t {
        Tile::Letter(l) => l + 1,
        Tile::Blank => BLANK,
    }
}

/// A code as a rack tile.
#[inline]
pub fn code_tile(code: u8) -> Tile {
    if code == BLANK {
        Tile::Blank
    } else {
        Tile::Letter(code - 1)
    }
}
