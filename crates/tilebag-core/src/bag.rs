//! The bag. Its order comes only from the game's seed (no global RNG), so a game can be reproduced
//! from (ruleset, seed, events). The order is never serialised: nothing outside the engine can
//! learn what will be drawn next.

use crate::tiles::Tile;

/// SplitMix64: small, fast and good enough to shuffle 100 tiles; its whole state is one `u64`
/// derived from the seed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5EED_7115_BA60_0000)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (n > 0), without modulo bias.
    pub fn below(&mut self, n: usize) -> usize {
        let n = n as u64;
        let zone = u64::MAX - (u64::MAX % n);
        loop {
            let x = self.next_u64();
            if x < zone {
                return (x % n) as usize;
            }
        }
    }
    pub fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            let j = self.below(i + 1);
            v.swap(i, j);
        }
    }
}

/// The tiles not yet drawn, in the order they will be drawn (from the end).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bag {
    tiles: Vec<Tile>,
    rng: Rng,
}

impl Bag {
    /// A full bag shuffled from `seed`.
    pub fn new(mut tiles: Vec<Tile>, seed: u64) -> Bag {
        let mut rng = Rng::new(seed);
        rng.shuffle(&mut tiles);
        Bag { tiles, rng }
    }
    /// A bag whose tiles are drawn from the end of `tiles`, in that order (for set positions).
    pub fn from_order(tiles: Vec<Tile>, seed: u64) -> Bag {
        Bag {
            tiles,
            rng: Rng::new(seed),
        }
    }
    pub fn len(&self) -> usize {
        self.tiles.len()
    }
    pub fn is_empty(&self) -> bool {
        self.tiles.is_empty()
    }
    /// Draw up to `n` tiles.
    pub fn draw(&mut self, n: usize) -> Vec<Tile> {
        let k = n.min(self.tiles.len());
        let at = self.tiles.len() - k;
        self.tiles.split_off(at)
    }
    /// Put tiles back and reshuffle the whole bag from the seeded generator.
    pub fn put_back(&mut self, tiles: &[Tile]) {
        self.tiles.extend_from_slice(tiles);
        self.rng.shuffle(&mut self.tiles);
    }
    /// The tiles in the bag, sorted (never their order).
    pub fn contents_sorted(&self) -> Vec<Tile> {
        self.sorted_with(&[])
    }
    /// The tiles in the bag and `others`, sorted (never the bag's order). Counted rather than
    /// compared: a view asks for the unseen tiles at every action of every game, and sorting
    /// them was most of what a seat's view cost beyond its text.
    pub fn sorted_with(&self, others: &[Tile]) -> Vec<Tile> {
        // Index 256 counts the blanks: `Tile`'s order is every letter by index, then the blank.
        let mut counts = [0u16; 257];
        let mut top = 0;
        for &t in self.tiles.iter().chain(others) {
            let i = match t {
                Tile::Letter(i) => {
                    top = top.max(i as usize + 1);
                    i as usize
                }
                Tile::Blank => 256,
            };
            counts[i] += 1;
        }
        let mut v = Vec::with_capacity(self.tiles.len() + others.len());
        for (i, &n) in counts[..top].iter().enumerate() {
            v.extend(std::iter::repeat_n(Tile::Letter(i as u8), n as usize));
        }
        v.extend(std::iter::repeat_n(Tile::Blank, counts[256] as usize));
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tiles::TileSet;

    /// Counting gives what comparing gives: every letter by index, then the blanks, with the
    /// other tiles merged in; at every size of bag from full to empty.
    #[test]
    fn the_counted_contents_are_the_tiles_sorted() {
        let set = TileSet::english();
        let mut bag = Bag::new(set.all_tiles(), 7);
        let rack = set.parse_tiles("QZ?AE").unwrap();
        loop {
            let mut by_compare = bag.tiles.clone();
            by_compare.extend_from_slice(&rack);
            by_compare.sort();
            assert_eq!(
                bag.sorted_with(&rack),
                by_compare,
                "{} in the bag",
                bag.len()
            );
            let mut alone = bag.tiles.clone();
            alone.sort();
            assert_eq!(bag.contents_sorted(), alone);
            if bag.is_empty() {
                break;
            }
            bag.draw(7);
        }
        assert_eq!(bag.sorted_with(&[]), Vec::new());
    }

    #[test]
    fn same_seed_same_order_other_seed_other_order() {
        let set = TileSet::english();
        let mut a = Bag::new(set.all_tiles(), 42);
        let mut b = Bag::new(set.all_tiles(), 42);
        let mut c = Bag::new(set.all_tiles(), 43);
        let (da, db, dc) = (a.draw(20), b.draw(20), c.draw(20));
        assert_eq!(da, db);
        assert_ne!(da, dc);
        a.put_back(&da[..3]);
        b.put_back(&db[..3]);
        assert_eq!(a, b);
        assert_eq!(a.len(), 83);
    }

    #[test]
    fn draw_never_takes_more_than_the_bag_holds() {
        let mut b = Bag::new(vec![Tile::Blank; 3], 1);
        assert_eq!(b.draw(7).len(), 3);
        assert!(b.is_empty());
        assert!(b.draw(7).is_empty());
    }
}
