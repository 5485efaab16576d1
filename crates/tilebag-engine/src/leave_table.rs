//! Full leave tables: a value for every leave the tile set allows (every multiset of 1–6 tiles
//! the bag can hold: 914,624 for English), looked up by the leave's rank.
//!
//! **The rank.** The leaves are numbered in the order a depth-first walk of the `.klv`/`.klv2`
//! DAWG meets them: each leave written as its tiles in ascending order (blank = 0, A = 1 …
//! Z = 26), sequences compared letter by letter, a leave before its extensions (`?`, `??`,
//! `??A`, `??AA`, … `Z`); the empty leave is number 0 (value 0), so the table is one `f32` array
//! of 914,625 entries (3.66 MB for English, and ~8 KiB of counting tables). A leave's rank is a
//! sum of one term per distinct tile it holds (at most six), each two reads from small tables
//! that stay in the L1 cache (see [`LeaveShape::rank`]); there is no hashing and no key to
//! compare, since the numbering is a bijection. Because the numbering is the file's own order, a
//! table is written to (and read from) a `.klv2` file without any search.
//!
//! **In the static player.** The engine needs the values of every leave of one rack (up to 128
//! sub-multisets): [`LeaveTable::rack_leaves`] gives them in the generator's
//! [`LeaveIndex`](crate::movegen::LeaveIndex) order, counting through them like an odometer
//! over the rack's distinct tiles and keeping the partial ranks, so each leave costs about two
//! rank terms and one read (the `leave_table` criterion bench and the `leavebench` example
//! measure it; the figures are in the README).
//!
//! Leaves longer than the table's (a whole rack, kept by a pass) and multisets the bag cannot
//! hold are worth 0, as in MAGPIE.
//!
//! Tables come from a leave file (the `klv` module: `.klv2`, `.klv`, the text form `LEAVE VALUE`
//! per line) or from tilebag's small weights model (`Leaves`), evaluated on every leave
//! (`LeaveTable::from_model`, in the `leaves` module, which this one does not import).

use crate::rack::Rack;

/// The most tiles a leave holds with a rack of seven (at least one tile is played).
pub const MAX_LEAVE: usize = 6;

/// The most tiles a shape's leaves may hold (the counting tables' size).
const MAX_SUPPORTED: usize = 7;

/// Which leaves exist for a tile set, and their numbering (see the module).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaveShape {
    /// Tiles of each code in the bag (code 0: blanks).
    counts: [u8; 27],
    max_len: usize,
    /// `g[c][r]`: multisets of at most `r` tiles of codes `c..27`, the empty one included (the
    /// size of a subtree of the walk). `g[27][r] = 1`.
    g: [[u32; MAX_SUPPORTED + 1]; 28],
    /// `a[p][n][r]` for a leave whose previous distinct code is `p - 1`, held `n` times, with `r`
    /// tiles still allowed: the leaves that come before any leave continuing with a code `c > p - 1`
    /// are `a[p][n][r] - g[c][r]` (more copies of code `p - 1`, then the codes between).
    /// `a[0][_][r] = g[0][r]` (no previous code).
    a: [[[u32; MAX_SUPPORTED + 1]; MAX_SUPPORTED + 1]; 28],
}

impl LeaveShape {
    /// The leaves of `max_len` tiles at most (at most 7) that a bag of `counts` tiles per code
    /// (code 0 the blank, as [`crate::grid::Tables::counts`]) can hold.
    pub fn new(counts: [u8; 27], max_len: usize) -> LeaveShape {
        let max_len = max_len.min(MAX_SUPPORTED);
        let mut g = [[0u32; MAX_SUPPORTED + 1]; 28];
        g[27] = [1; MAX_SUPPORTED + 1];
        for c in (0..27).rev() {
            for r in 0..=MAX_SUPPORTED {
                // j copies of code c, then anything of the codes after it.
                g[c][r] = (0..=usize::from(counts[c]).min(r))
                    .map(|j| g[c + 1][r - j])
                    .sum();
            }
        }
        let mut a = [[[0u32; MAX_SUPPORTED + 1]; MAX_SUPPORTED + 1]; 28];
        a[0] = [g[0]; MAX_SUPPORTED + 1];
        for (p, by_n) in a.iter_mut().enumerate().skip(1) {
            let prev = usize::from(counts[p - 1]);
            for (n, by_r) in by_n.iter_mut().enumerate() {
                for (r, cell) in by_r.iter_mut().enumerate() {
                    // The subtree of j more copies of code p-1 (j >= 1), plus everything of the
                    // codes after it (j = 0): what a walk meets at this node before code p.
                    *cell = (0..=prev.saturating_sub(n).min(r))
                        .map(|j| g[p][r - j])
                        .sum();
                }
            }
        }
        LeaveShape {
            counts,
            max_len,
            g,
            a,
        }
    }

    /// English: 100 tiles (2 blanks), leaves of 1–6 tiles.
    pub fn english() -> LeaveShape {
        LeaveShape::new(crate::grid::Tables::english().counts, MAX_LEAVE)
    }

    /// Tiles of each code.
    pub fn counts(&self) -> &[u8; 27] {
        &self.counts
    }

    /// The most tiles a leave holds.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// The number of leaves, the empty one included (914,625 for English).
    pub fn len(&self) -> usize {
        self.g[0][self.max_len] as usize
    }

    /// Always false: the empty leave is one.
    pub fn is_empty(&self) -> bool {
        false
    }

    /// A leave's number (0 for the empty leave), or `None` if the bag cannot hold it or it is
    /// longer than the table's leaves.
    ///
    /// Walking down the DAWG to the leave, the leaves met before it are: each node on the way
    /// (one per tile: `len`), and at each change of code, from code `l` (held `n` times, `r`
    /// tiles still allowed) to code `c`, the subtrees of more copies of `l` and of the codes
    /// between: `a[l + 1][n][r] - g[c][r]`.
    #[inline]
    pub fn rank(&self, leave: &Rack) -> Option<usize> {
        let mut rank = 0u32;
        let mut p = 0usize;
        let mut prev_n = 0usize;
        let mut r = self.max_len;
        let mut present = present_codes(&leave.counts);
        while present != 0 {
            let c = present.trailing_zeros() as usize;
            present &= present - 1;
            let n = usize::from(leave.counts[c]);
            if n > r || n > usize::from(self.counts[c]) {
                return None;
            }
            rank += self.a[p][prev_n][r] - self.g[c][r] + n as u32;
            r -= n;
            p = c + 1;
            prev_n = n;
        }
        Some(rank as usize)
    }

    /// Calls `f` on every leave but the empty one, in the order of their numbers (1, 2, …).
    pub fn for_each_leave(&self, mut f: impl FnMut(&Rack)) {
        let mut rack = Rack::default();
        self.walk(&mut rack, 0, self.max_len, &mut f);
    }

    fn walk(&self, rack: &mut Rack, from: usize, left: usize, f: &mut dyn FnMut(&Rack)) {
        if left == 0 {
            return;
        }
        for c in from..27 {
            if rack.counts[c] >= self.counts[c] {
                continue;
            }
            rack.counts[c] += 1;
            f(rack);
            self.walk(rack, c, left - 1, f);
            rack.counts[c] -= 1;
        }
    }
}

/// The codes a leave holds, as bits (code c: bit c), found eight counts at a time: in each
/// 64-bit word, a byte's top bit is set where the byte is not zero, and one multiplication
/// gathers the eight top bits into a byte.
#[inline]
fn present_codes(counts: &[u8; 27]) -> u32 {
    let mut bytes = [0u8; 32];
    bytes[..27].copy_from_slice(counts);
    const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    const TOP: u64 = 0x8080_8080_8080_8080;
    let mut mask = 0u32;
    for (i, chunk) in bytes.chunks_exact(8).enumerate() {
        let x = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        // Top bit of each byte: set if the byte's low seven bits are not zero, or its top bit is.
        let nonzero = (((x & LOW7) + LOW7) | x) & TOP;
        // Byte j's top bit (bit 8j + 7) to bit j, by one multiplication.
        let bits = ((nonzero >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
        mask |= bits << (8 * i);
    }
    mask
}

/// A value for every leave of a [`LeaveShape`].
#[derive(Clone, Debug, PartialEq)]
pub struct LeaveTable {
    shape: LeaveShape,
    /// By rank; `values[0]` (the empty leave) is 0.
    values: Box<[f32]>,
    /// How many leaves had a value in the source (the others are 0).
    known: usize,
}

/// Anything that gives the engine a full leave table: a [`LeaveTable`], or the weights model
/// `Leaves` (evaluated on every leave the first time it is asked).
pub trait LeaveModel {
    fn leave_table(&self) -> &LeaveTable;
}

impl LeaveModel for LeaveTable {
    fn leave_table(&self) -> &LeaveTable {
        self
    }
}

impl LeaveTable {
    /// A table of zeros.
    pub fn zeros(shape: LeaveShape) -> LeaveTable {
        let values = vec![0f32; shape.len()].into_boxed_slice();
        LeaveTable {
            shape,
            values,
            known: 0,
        }
    }

    /// Values by rank (`values[0]`, the empty leave, is ignored and read as 0); `known` of them
    /// came from the source. `None` if the length is not the shape's.
    pub fn from_values(shape: LeaveShape, mut values: Vec<f32>, known: usize) -> Option<Self> {
        if values.len() != shape.len() {
            return None;
        }
        values[0] = 0.0;
        let known = known.min(values.len() - 1);
        Some(LeaveTable {
            shape,
            values: values.into_boxed_slice(),
            known,
        })
    }

    /// Which leaves the table holds.
    pub fn shape(&self) -> &LeaveShape {
        &self.shape
    }

    /// Values by rank (index 0: the empty leave).
    pub fn values(&self) -> &[f32] {
        &self.values
    }

    /// Leaves whose value came from the source the table was made from (all of them, unless a
    /// file left some out: those are 0).
    pub fn known(&self) -> usize {
        self.known
    }

    /// Memory held by the table, in bytes.
    pub fn memory_bytes(&self) -> usize {
        std::mem::size_of::<LeaveTable>() + self.values.len() * std::mem::size_of::<f32>()
    }

    pub(crate) fn values_mut(&mut self) -> &mut [f32] {
        &mut self.values
    }

    pub(crate) fn set_known(&mut self, known: usize) {
        self.known = known;
    }

    /// Sets one leave's value; false (and no change) if the table has no such leave.
    pub fn set(&mut self, leave: &Rack, value: f32) -> bool {
        match self.shape.rank(leave) {
            Some(i) if i > 0 => {
                self.values[i] = value;
                true
            }
            _ => false,
        }
    }

    /// The value of keeping `leave` (0 for the empty leave, a leave longer than the table's,
    /// or one the bag cannot hold).
    #[inline]
    pub fn value(&self, leave: &Rack) -> f32 {
        match self.shape.rank(leave) {
            Some(i) => self.values[i],
            None => 0.0,
        }
    }

    /// The value of every leave of `rack`, in the order of its [`LeaveIndex`](crate::movegen::LeaveIndex) (entry `u`: the
    /// rack less the tiles of index `u`), into `out`; and in `best_by_played[n]` the best of
    /// them that plays `n` tiles (`-inf` where none does).
    ///
    /// The leaves are counted through like an odometer over how many of each of the rack's
    /// distinct tiles is kept, the highest code turning fastest. A leave's rank is a sum of
    /// one term per code in code order, so the sum up to each digit is kept: when a digit
    /// turns, only the terms from it on are added again (about two terms a leave).
    pub fn rack_leaves(&self, rack: &Rack, out: &mut Vec<f32>, best_by_played: &mut [f32; 16]) {
        let sh = &self.shape;
        let mut codes = [0usize; 8];
        let mut full = [0usize; 8];
        let mut stride = [0usize; 8];
        let mut d = 0;
        let mut size = 1usize;
        let mut total = 0usize;
        for c in 0..27 {
            let n = usize::from(rack.counts[c]);
            if n == 0 {
                continue;
            }
            if d == 8 {
                // More distinct tiles than a rack of seven holds: one leave at a time.
                return self.rack_leaves_slowly(rack, out, best_by_played);
            }
            codes[d] = c;
            full[d] = n;
            stride[d] = size;
            d += 1;
            total += n;
            size *= n + 1;
        }
        out.clear();
        out.resize(size, 0.0);
        *best_by_played = [f32::NEG_INFINITY; 16];
        // at[i]: the walk before digit i (at[0] the empty leave), at[d] the leave itself.
        let mut at = [Partial::default(); 9];
        at[0] = Partial {
            rank: 0,
            p: 0,
            prev_n: 0,
            r: sh.max_len,
            kept: 0,
            // Every tile used: the index of the whole rack.
            u: size - 1,
            ok: true,
        };
        let mut keep = [0usize; 8];
        let step = |from: &Partial, i: usize, k: usize| -> Partial {
            if k == 0 {
                return *from;
            }
            let c = codes[i];
            let ok = from.ok && k <= from.r && k <= usize::from(sh.counts[c]);
            Partial {
                rank: (sh.a[from.p][from.prev_n][from.r])
                    .wrapping_sub(sh.g[c][from.r])
                    .wrapping_add(from.rank)
                    .wrapping_add(k as u32),
                p: c + 1,
                prev_n: k.min(MAX_SUPPORTED),
                r: from.r.saturating_sub(k),
                kept: from.kept + k,
                u: from.u - k * stride[i],
                ok,
            }
        };
        for i in 0..d {
            at[i + 1] = step(&at[i], i, 0);
        }
        loop {
            let leaf = &at[d];
            let v = if leaf.ok {
                self.values[leaf.rank as usize]
            } else {
                0.0
            };
            out[leaf.u] = v;
            let b = &mut best_by_played[(total - leaf.kept).min(15)];
            *b = b.max(v);
            // Turn the odometer: the last digit that can go up does, those after it go to 0.
            let mut i = d;
            loop {
                if i == 0 {
                    return;
                }
                i -= 1;
                if keep[i] < full[i] {
                    keep[i] += 1;
                    break;
                }
                keep[i] = 0;
            }
            for j in i..d {
                at[j + 1] = step(&at[j], j, keep[j]);
            }
        }
    }

    /// [`LeaveTable::rack_leaves`] one leave at a time, for a rack of more than eight
    /// distinct tiles (never one of seven).
    fn rack_leaves_slowly(&self, rack: &Rack, out: &mut Vec<f32>, best: &mut [f32; 16]) {
        let index = crate::movegen::LeaveIndex::new(rack);
        out.clear();
        *best = [f32::NEG_INFINITY; 16];
        for u in 0..index.size {
            let used = index.used_rack(rack, u as u16);
            let v = self.value(&rack.minus(&used));
            out.push(v);
            let b = &mut best[used.len().min(15)];
            *b = b.max(v);
        }
    }
}

/// [`LeaveTable::rack_leaves`]' walk so far: the rank, the last code kept (`p - 1`, held
/// `prev_n` times), the tiles still allowed, the tiles kept, the index of the tiles used, and
/// whether the leave so far is in the table.
#[derive(Clone, Copy, Default)]
struct Partial {
    rank: u32,
    p: usize,
    prev_n: usize,
    r: usize,
    kept: usize,
    u: usize,
    ok: bool,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movegen::LeaveIndex;

    fn r(s: &str) -> Rack {
        Rack::parse(s).unwrap()
    }

    /// A table whose every leave has its own value: its rank, less a million.
    fn numbered(shape: LeaveShape) -> LeaveTable {
        let values = (0..shape.len()).map(|i| i as f32 - 1e6).collect();
        LeaveTable::from_values(shape, values, usize::MAX).unwrap()
    }

    #[test]
    fn english_has_914624_leaves_numbered_in_the_dawg_order() {
        let sh = LeaveShape::english();
        assert_eq!(sh.len(), 914_625, "914,624 leaves and the empty one");
        assert_eq!(sh.rank(&Rack::default()), Some(0));
        assert_eq!(sh.rank(&r("?")), Some(1));
        assert_eq!(sh.rank(&r("??")), Some(2));
        assert_eq!(sh.rank(&r("A??")), Some(3));
        assert_eq!(sh.rank(&r("AA??")), Some(4));
        assert_eq!(sh.rank(&r("AAA??")), Some(5));
        assert_eq!(sh.rank(&r("Z")), Some(914_624), "the last leave");
        // The walk numbers every leave once, in the rank's order.
        let mut next = 1usize;
        sh.for_each_leave(|leave| {
            assert_eq!(sh.rank(leave), Some(next), "{leave}");
            next += 1;
        });
        assert_eq!(next, 914_625);
    }

    #[test]
    fn impossible_and_long_leaves_have_no_rank_and_are_worth_nothing() {
        let sh = LeaveShape::english();
        assert_eq!(sh.rank(&r("QQ")), None, "one Q in the bag");
        assert_eq!(sh.rank(&r("???")), None, "two blanks");
        assert_eq!(sh.rank(&r("AEINRST")), None, "seven tiles: a whole rack");
        assert_eq!(sh.rank(&r("EEEEEE")), Some(sh.rank(&r("EEEEEE")).unwrap()));
        let t = numbered(sh);
        assert_eq!(t.value(&r("QQ")), 0.0);
        assert_eq!(t.value(&r("AEINRST")), 0.0);
        assert_eq!(t.value(&Rack::default()), 0.0);
    }

    #[test]
    fn a_small_tile_set_is_counted_by_hand() {
        // Tiles: one blank, two A, one B; leaves of at most 2 tiles. In the walk's order:
        // ?, ?A, ?B, A, AA, AB, B  (7 leaves; ?? and BB are impossible).
        let mut counts = [0u8; 27];
        counts[0] = 1;
        counts[1] = 2;
        counts[2] = 1;
        let sh = LeaveShape::new(counts, 2);
        assert_eq!(sh.len(), 8);
        let order = ["?", "A?", "B?", "A", "AA", "AB", "B"];
        for (i, s) in order.iter().enumerate() {
            assert_eq!(sh.rank(&r(s)), Some(i + 1), "{s}");
        }
        let mut seen = Vec::new();
        sh.for_each_leave(|l| seen.push(l.to_string()));
        assert_eq!(seen, order);
        assert_eq!(sh.rank(&r("BB")), None);
        assert_eq!(sh.rank(&r("AAB")), None, "three tiles");
    }

    #[test]
    fn rack_leaves_agree_with_single_lookups_in_the_generators_order() {
        let t = numbered(LeaveShape::english());
        let mut out = Vec::new();
        let mut best = [0f32; 16];
        for s in [
            "AEINRST", "??EEQUZ", "AAAAAAA", "S", "", "ABCDEFG", "EEEE??", "QQ",
        ] {
            let rack = r(s);
            t.rack_leaves(&rack, &mut out, &mut best);
            let index = LeaveIndex::new(&rack);
            assert_eq!(out.len(), index.size, "{s}");
            let mut want_best = [f32::NEG_INFINITY; 16];
            for (u, &v) in out.iter().enumerate() {
                let used = index.used_rack(&rack, u as u16);
                let kept = rack.minus(&used);
                assert_eq!(v, t.value(&kept), "{s} keeping {kept}");
                let n = used.len();
                want_best[n] = want_best[n].max(v);
            }
            assert_eq!(best, want_best, "{s}");
        }
    }

    #[test]
    fn set_changes_one_leave() {
        let mut t = LeaveTable::zeros(LeaveShape::english());
        assert!(t.set(&r("QU"), 3.5));
        assert!(!t.set(&r("QQ"), 1.0));
        assert!(!t.set(&Rack::default(), 1.0), "the empty leave is always 0");
        assert_eq!(t.value(&r("QU")), 3.5);
        assert_eq!(t.value(&r("Q")), 0.0);
        assert_eq!(t.values().iter().filter(|&&v| v != 0.0).count(), 1);
    }
}
