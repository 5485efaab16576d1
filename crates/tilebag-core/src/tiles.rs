//! Tiles and tile sets. A tile set is data (letters, counts, values), so another language's set can
//! be added without touching the rules.

use serde::{Deserialize, Serialize};
use std::fmt;

/// A tile as it sits in the bag or on a rack: a letter (an index into the tile set) or a blank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum Tile {
    Letter(u8),
    Blank,
}

/// A tile on the board: the letter it shows, and whether it is a blank standing for that letter.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PlacedTile {
    pub letter: u8,
    pub blank: bool,
}

impl PlacedTile {
    /// The rack tile this placed tile came from.
    pub fn tile(self) -> Tile {
        if self.blank {
            Tile::Blank
        } else {
            Tile::Letter(self.letter)
        }
    }
}

/// One letter of a tile set.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LetterSpec {
    pub symbol: char,
    pub count: u8,
    pub value: u8,
}

/// A tile set: its letters with counts and values, and the number of blanks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TileSet {
    pub name: String,
    pub letters: Vec<LetterSpec>,
    pub blanks: u8,
}

/// A character that is not a letter of the tile set.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unsupported tile {ch:?}: not a letter of the {set} tile set")]
pub struct UnknownLetter {
    pub ch: char,
    pub set: String,
}

impl TileSet {
    /// The English set of 100 tiles (NASPA III.A.2, WESPA 1.3, SANSPA 4.2): 98 letters and 2
    /// blanks, 187 points in all.
    pub fn english() -> TileSet {
        const SPEC: &[(char, u8, u8)] = &[
            ('A', 9, 1),
            ('B', 2, 3),
            ('C', 2, 3),
            ('D', 4, 2),
            ('E', 12, 1),
            ('F', 2, 4),
            ('G', 3, 2),
            ('H', 2, 4),
            ('I', 9, 1),
            ('J', 1, 8),
            ('K', 1, 5),
            ('L', 4, 1),
            ('M', 2, 3),
            ('N', 6, 1),
            ('O', 8, 1),
            ('P', 2, 3),
            ('Q', 1, 10),
            ('R', 6, 1),
            ('S', 4, 1),
            ('T', 6, 1),
            ('U', 4, 1),
            ('V', 2, 4),
            ('W', 2, 4),
            ('X', 1, 8),
            ('Y', 2, 4),
            ('Z', 1, 10),
        ];
        TileSet {
            name: "english".into(),
            letters: SPEC
                .iter()
                .map(|&(symbol, count, value)| LetterSpec {
                    symbol,
                    count,
                    value,
                })
                .collect(),
            blanks: 2,
        }
    }

    /// Total number of tiles in the set.
    pub fn total_tiles(&self) -> usize {
        self.letters.iter().map(|l| l.count as usize).sum::<usize>() + self.blanks as usize
    }

    /// Total face value of the set.
    pub fn total_value(&self) -> u32 {
        self.letters
            .iter()
            .map(|l| l.count as u32 * l.value as u32)
            .sum()
    }

    /// Every tile of the set, in letter order, blanks last.
    pub fn all_tiles(&self) -> Vec<Tile> {
        let mut v = Vec::with_capacity(self.total_tiles());
        for (i, l) in self.letters.iter().enumerate() {
            v.extend(std::iter::repeat_n(Tile::Letter(i as u8), l.count as usize));
        }
        v.extend(std::iter::repeat_n(Tile::Blank, self.blanks as usize));
        v
    }

    /// How many of this tile the set holds.
    pub fn count(&self, tile: Tile) -> u8 {
        match tile {
            Tile::Letter(i) => self.letters.get(i as usize).map_or(0, |l| l.count),
            Tile::Blank => self.blanks,
        }
    }

    /// Face value of a rack tile (a blank is worth 0).
    pub fn value(&self, tile: Tile) -> i32 {
        match tile {
            Tile::Letter(i) => self.letters.get(i as usize).map_or(0, |l| l.value as i32),
            Tile::Blank => 0,
        }
    }

    /// Face value of a tile on the board (a blank is worth 0 whatever it stands for).
    pub fn placed_value(&self, t: PlacedTile) -> i32 {
        if t.blank {
            0
        } else {
            self.value(Tile::Letter(t.letter))
        }
    }

    /// The letter index for a symbol, in either case.
    pub fn letter_index(&self, ch: char) -> Result<u8, UnknownLetter> {
        let up = ch.to_uppercase().next().unwrap_or(ch);
        self.letters
            .iter()
            .position(|l| l.symbol == up)
            .map(|i| i as u8)
            .ok_or_else(|| UnknownLetter {
                ch,
                set: self.name.clone(),
            })
    }

    /// The uppercase symbol of a letter index.
    pub fn symbol(&self, letter: u8) -> char {
        self.letters.get(letter as usize).map_or('?', |l| l.symbol)
    }

    /// A tile as GCG writes it on a rack: its letter, or `?` for a blank.
    pub fn tile_char(&self, tile: Tile) -> char {
        match tile {
            Tile::Letter(i) => self.symbol(i),
            Tile::Blank => '?',
        }
    }

    /// A placed tile as GCG writes it: uppercase, or lowercase for a blank.
    pub fn placed_char(&self, t: PlacedTile) -> char {
        let c = self.symbol(t.letter);
        if t.blank {
            c.to_lowercase().next().unwrap_or(c)
        } else {
            c
        }
    }

    /// Parse rack letters (`?` = blank, either case for letters).
    pub fn parse_tiles(&self, s: &str) -> Result<Vec<Tile>, UnknownLetter> {
        s.chars()
            .map(|c| {
                if c == '?' {
                    Ok(Tile::Blank)
                } else {
                    self.letter_index(c).map(Tile::Letter)
                }
            })
            .collect()
    }

    /// Write tiles as GCG rack letters, in the given order.
    pub fn tiles_to_string(&self, tiles: &[Tile]) -> String {
        tiles.iter().map(|&t| self.tile_char(t)).collect()
    }

    /// Sum of face values.
    pub fn tiles_value(&self, tiles: &[Tile]) -> i32 {
        tiles.iter().map(|&t| self.value(t)).sum()
    }
}

impl fmt::Display for TileSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_set_has_100_tiles_worth_187() {
        let s = TileSet::english();
        assert_eq!(s.total_tiles(), 100);
        assert_eq!(s.total_value(), 187);
        assert_eq!(s.all_tiles().len(), 100);
        assert_eq!(s.count(Tile::Letter(s.letter_index('E').unwrap())), 12);
        assert_eq!(s.value(Tile::Letter(s.letter_index('q').unwrap())), 10);
        assert_eq!(s.value(Tile::Blank), 0);
    }

    #[test]
    fn unknown_letter_is_named() {
        let s = TileSet::english();
        let e = s.parse_tiles("AĄ").unwrap_err();
        assert_eq!(e.ch, 'Ą');
        assert!(e.to_string().contains("unsupported tile"));
    }

    #[test]
    fn blank_prints_lowercase_and_scores_zero() {
        let s = TileSet::english();
        let t = PlacedTile {
            letter: s.letter_index('Z').unwrap(),
            blank: true,
        };
        assert_eq!(s.placed_char(t), 'z');
        assert_eq!(s.placed_value(t), 0);
        assert_eq!(t.tile(), Tile::Blank);
    }
}
