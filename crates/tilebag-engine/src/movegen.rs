//! Move generation: every legal placement for a board and rack, walking the GADDAG outwards from
//! each anchor square (Gordon 1994), with cross-checks per square and the score kept as it goes.
//!
//! # The hot loop
//!
//! For each direction the generator works on one line (row) at a time, with everything it reads
//! copied into small fixed arrays on the stack: the line's 15 squares, the letters allowed on each
//! (a 27-bit mask from the cross-checks), the perpendicular words' scores, the premiums, and the
//! rack as counts per letter. Placing a tile updates three running sums (main-word letters, word
//! multiplier, cross-word total) and one index (which sub-multiset of the rack is used, for the
//! leave value); taking it back restores them. A node's children are one contiguous run of `u32`
//! edges, read in order and tested against the square's mask and the rack. Nothing is allocated
//! per move: each complete placement is handed to the caller's sink as a borrowed [`Candidate`],
//! and only a sink that keeps it copies 24 bytes.
//!
//! # One entry per placement
//!
//! A play of two or more tiles lies in one direction only. A one-tile play that forms words both
//! ways would be found from both directions: it is kept in the across pass and skipped in the down
//! pass when the square has an across neighbour. Each placement is generated from the leftmost
//! anchor it covers (leftward extension stops before the previous anchor), so no placement is
//! found twice within a line. On an empty board the only anchor is the centre square; across and
//! down plays there are distinct placements and both are listed unless the caller asks for across
//! only (the convention some generators use, since the down plays mirror them).

use crate::grid::{Grid, Tables, BLANK, BLANK_BIT, CODE_MASK, N};
use crate::rack::Rack;
use tilebag_core::Direction;
use tilebag_lexicon::gaddag::{accepts, arc, is_last, letter, SEPARATOR};
use tilebag_lexicon::{Gaddag, Lexicon};

/// The two automata a generator walks: the GADDAG leftwards from an anchor, and after a
/// separator the DAWG rightwards (the GADDAG's separators point into it).
#[derive(Clone, Copy)]
pub struct Graphs<'a> {
    pub gaddag: &'a Gaddag,
    pub dawg: &'a [u32],
}

impl<'a> Graphs<'a> {
    /// The lexicon's graphs (its GADDAG is built on first use if its file had none).
    pub fn of(lex: &'a Lexicon) -> Graphs<'a> {
        Graphs {
            gaddag: lex.gaddag(),
            dawg: lex.dawg_edges(),
        }
    }
}

/// All 26 letters allowed (bits 1..=26).
const ALL_LETTERS: u32 = ((1u32 << 27) - 1) & !1;

/// A complete placement, as the generator has it at the moment it is found.
#[derive(Debug)]
pub struct Candidate<'a> {
    pub direction: Direction,
    /// Row of an across play, column of a down play.
    pub line: u8,
    /// First and last square of the main word along the line (inclusive).
    pub start: u8,
    pub end: u8,
    /// Per square of the line: the new tile's byte, 0 where none was placed.
    pub placed: &'a [u8; N],
    pub score: i32,
    pub tiles: u8,
    /// Index of the rack's sub-multiset that was used (see [`LeaveIndex`]).
    pub used: u16,
}

/// Maps each sub-multiset of a rack to a dense index (mixed radix over its distinct tiles), so a
/// leave's value is one array read during generation.
#[derive(Clone, Debug)]
pub struct LeaveIndex {
    pub stride: [u16; 27],
    /// Number of sub-multisets (indices 0..size).
    pub size: usize,
}

impl LeaveIndex {
    pub fn new(rack: &Rack) -> LeaveIndex {
        let mut stride = [0u16; 27];
        let mut size = 1usize;
        for (st, &count) in stride.iter_mut().zip(&rack.counts) {
            let n = usize::from(count);
            if n > 0 {
                *st = size as u16;
                size *= n + 1;
            }
        }
        LeaveIndex { stride, size }
    }

    /// The tiles used for index `used`.
    pub fn used_rack(&self, rack: &Rack, used: u16) -> Rack {
        let mut r = Rack::default();
        for code in 0..27 {
            if rack.counts[code] > 0 {
                let radix = u16::from(rack.counts[code]) + 1;
                r.counts[code] = ((used / self.stride[code]) % radix) as u8;
            }
        }
        r
    }

    /// The index of `used` (a sub-multiset of the rack).
    pub fn index_of(&self, used: &Rack) -> u16 {
        (0..27)
            .map(|c| self.stride[c] * u16::from(used.counts[c]))
            .sum()
    }
}

/// Cross-checks for plays along the rows of a grid: for each empty square, the letters that
/// make a word with the tiles above and below it, and those tiles' total value (-1: no tiles
/// above or below, so no cross-word).
#[derive(Clone)]
pub struct CrossChecks {
    pub mask: [u32; N * N],
    pub score: [i32; N * N],
}

impl CrossChecks {
    /// For plays along the rows of `g` (pass the transposed grid for down plays).
    pub fn compute(g: &Grid, graphs: &Graphs<'_>, t: &Tables) -> CrossChecks {
        let mut cc = CrossChecks {
            mask: [0; N * N],
            score: [-1; N * N],
        };
        for r in 0..N {
            for c in 0..N {
                let i = r * N + c;
                if g.cells[i] != 0 {
                    continue;
                }
                let above = r > 0 && g.get(r - 1, c) != 0;
                let below = r + 1 < N && g.get(r + 1, c) != 0;
                if !above && !below {
                    cc.mask[i] = ALL_LETTERS;
                    continue;
                }
                let mut sum = 0;
                let mut up = [0u8; N];
                let mut nu = 0;
                let mut k = r;
                while k > 0 && g.get(k - 1, c) != 0 {
                    k -= 1;
                    up[nu] = g.get(k, c);
                    nu += 1;
                    sum += t.value(g.get(k, c));
                }
                let mut down = [0u8; N];
                let mut nd = 0;
                let mut k = r + 1;
                while k < N && g.get(k, c) != 0 {
                    down[nd] = g.get(k, c);
                    nd += 1;
                    sum += t.value(g.get(k, c));
                    k += 1;
                }
                cc.score[i] = sum;
                cc.mask[i] = cross_mask(graphs, &up[..nu], &down[..nd]);
            }
        }
        cc
    }
}

/// Follows `cells` (square bytes) through `edges` from the run `run`; the last edge, or 0.
#[inline]
fn walk(edges: &[u32], mut run: u32, cells: &[u8]) -> u32 {
    let mut e = 0;
    for &v in cells {
        e = child(edges, run, v & CODE_MASK);
        if e == 0 {
            return 0;
        }
        run = arc(e);
    }
    e
}

/// Letters L such that `up reversed + L + down` is a word (`up` nearest first).
fn cross_mask(graphs: &Graphs<'_>, up: &[u8], down: &[u8]) -> u32 {
    let gaddag = graphs.gaddag.edges();
    let dawg = graphs.dawg;
    let mut mask = 0u32;
    // With letters above: follow them (nearest first), then the separator into the DAWG, where
    // each child L is followed by the letters below. With nothing above: each root child L, its
    // separator, then the letters below in the DAWG.
    let (run, edges) = if up.is_empty() {
        (graphs.gaddag.root(), gaddag)
    } else {
        let e = walk(gaddag, graphs.gaddag.root(), up);
        if e == 0 || arc(e) == 0 {
            return 0;
        }
        let sep = child(gaddag, arc(e), SEPARATOR);
        if sep == 0 {
            return 0;
        }
        (arc(sep), dawg)
    };
    if run == 0 {
        return 0;
    }
    let mut i = run as usize;
    loop {
        let e = edges[i];
        let l = letter(e);
        if l != SEPARATOR {
            let ok = if up.is_empty() {
                let sep = child(gaddag, arc(e), SEPARATOR);
                sep != 0 && {
                    let last = walk(dawg, arc(sep), down);
                    last != 0 && accepts(last)
                }
            } else if down.is_empty() {
                accepts(e)
            } else {
                arc(e) != 0 && {
                    let last = walk(dawg, arc(e), down);
                    last != 0 && accepts(last)
                }
            };
            if ok {
                mask |= 1 << l;
            }
        }
        if is_last(e) {
            break;
        }
        i += 1;
    }
    mask
}

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GenOptions {
    /// On an empty board, list down plays as well as across ones (they mirror each other).
    pub empty_board_down: bool,
}

impl Default for GenOptions {
    fn default() -> GenOptions {
        GenOptions {
            empty_board_down: true,
        }
    }
}

/// A board prepared for generation: the grid and its transpose, with their cross-checks.
#[derive(Clone)]
pub struct Prepared {
    pub grids: [Grid; 2],
    pub checks: [CrossChecks; 2],
    pub empty: bool,
}

impl Prepared {
    pub fn new(grid: &Grid, graphs: &Graphs<'_>, t: &Tables) -> Prepared {
        let across = grid.clone();
        let down = grid.transposed();
        let ca = CrossChecks::compute(&across, graphs, t);
        let cd = CrossChecks::compute(&down, graphs, t);
        Prepared {
            empty: grid.is_empty(),
            grids: [across, down],
            checks: [ca, cd],
        }
    }
}

/// The running totals of a placement in progress: passed by value down the recursion, so
/// taking a tile back needs no bookkeeping.
#[derive(Clone, Copy)]
struct Acc {
    /// Main word: letter values with letter premiums (new tiles only).
    main: i32,
    /// Product of the word premiums under the new tiles.
    wmul: i32,
    /// Cross-words' total.
    xtotal: i32,
    tiles: u8,
    /// Leave index of the tiles used.
    used: u16,
}

/// The state of the walk along one line.
struct Line<'a, F> {
    edges: &'a [u32],
    dawg: &'a [u32],
    values: &'a [i32; 27],
    cells: [u8; N],
    mask: [u32; N],
    xscore: [i32; N],
    lm: [i32; N],
    wm: [i32; N],
    placed: [u8; N],
    rack: [u8; 27],
    /// Bits of the letters on the rack (not counting blanks).
    letter_bits: u32,
    stride: [u16; 27],
    rack_total: u8,
    anchor: usize,
    /// The square right of the anchor is empty or off the board.
    anchor_right_free: bool,
    left_limit: usize,
    direction: Direction,
    line: u8,
    skip_single_with_cross: bool,
    rack_size: u8,
    sink: &'a mut F,
}

impl<F: FnMut(&Candidate<'_>)> Line<'_, F> {
    #[inline(always)]
    fn record(&mut self, a: Acc, start: usize, end: usize) {
        if end == start {
            return;
        }
        if self.skip_single_with_cross && a.tiles == 1 && self.xscore[self.anchor] >= 0 {
            return;
        }
        let bingo = if a.tiles == self.rack_size {
            tilebag_core::play::BINGO_BONUS
        } else {
            0
        };
        let c = Candidate {
            direction: self.direction,
            line: self.line,
            start: start as u8,
            end: end as u8,
            placed: &self.placed,
            score: a.main * a.wmul + a.xtotal + bingo,
            tiles: a.tiles,
            used: a.used,
        };
        (self.sink)(&c);
    }

    /// The totals after a new tile (a square byte) goes on empty square `pos`.
    #[inline(always)]
    fn with_tile(&self, a: Acc, pos: usize, tile: u8, rack_code: u8) -> Acc {
        let v = if tile & BLANK_BIT != 0 {
            0
        } else {
            self.values[usize::from(tile)]
        };
        let lv = v * self.lm[pos];
        let wm = self.wm[pos];
        let x = self.xscore[pos];
        Acc {
            main: a.main + lv,
            wmul: a.wmul * wm,
            xtotal: if x >= 0 {
                a.xtotal + (x + lv) * wm
            } else {
                a.xtotal
            },
            tiles: a.tiles + 1,
            used: a.used + self.stride[usize::from(rack_code)],
        }
    }

    #[inline(always)]
    fn take(&mut self, code: u8) -> u32 {
        let bits = self.letter_bits;
        let n = &mut self.rack[usize::from(code)];
        *n -= 1;
        if *n == 0 {
            self.letter_bits &= !(1 << code);
        }
        bits
    }

    #[inline(always)]
    fn give(&mut self, code: u8, bits: u32) {
        self.rack[usize::from(code)] += 1;
        self.letter_bits = bits;
    }

    /// The letters that may go on empty square `pos` now.
    #[inline(always)]
    fn allowed(&self, pos: usize) -> u32 {
        self.mask[pos]
            & if self.rack[usize::from(BLANK)] > 0 {
                ALL_LETTERS
            } else {
                self.letter_bits
            }
    }

    /// Fills square `pos` (at or left of the anchor) from the GADDAG run `run`, going left.
    fn left(&mut self, pos: usize, run: u32, a: Acc) {
        let cell = self.cells[pos];
        if cell != 0 {
            let e = child(self.edges, run, cell & CODE_MASK);
            if e != 0 {
                let mut a2 = a;
                if cell & BLANK_BIT == 0 {
                    a2.main += self.values[usize::from(cell & CODE_MASK)];
                }
                self.after_left(pos, e, a2);
            }
            return;
        }
        // Only letters both allowed here and on the rack; children are in letter order, so the
        // scan stops once no such letter is left.
        let allowed = self.allowed(pos);
        if allowed == 0 {
            return;
        }
        let mut i = run as usize;
        loop {
            let e = self.edges[i];
            let l = letter(e);
            if allowed >> l == 0 {
                break;
            }
            if allowed & (1 << l) != 0 {
                if self.rack[usize::from(l)] > 0 {
                    let bits = self.take(l);
                    self.placed[pos] = l;
                    let a2 = self.with_tile(a, pos, l, l);
                    self.after_left(pos, e, a2);
                    self.give(l, bits);
                }
                if self.rack[usize::from(BLANK)] > 0 {
                    let bits = self.take(BLANK);
                    self.placed[pos] = l | BLANK_BIT;
                    let a2 = self.with_tile(a, pos, l | BLANK_BIT, BLANK);
                    self.after_left(pos, e, a2);
                    self.give(BLANK, bits);
                }
            }
            if is_last(e) {
                break;
            }
            i += 1;
        }
    }

    #[inline(always)]
    fn after_left(&mut self, pos: usize, e: u32, a: Acc) {
        let left_free = pos == 0 || self.cells[pos - 1] == 0;
        if accepts(e) && left_free && self.anchor_right_free {
            self.record(a, pos, self.anchor);
        }
        let run = arc(e);
        if run == 0 {
            return;
        }
        let more = a.tiles < self.rack_total;
        if pos > 0 && (self.cells[pos - 1] != 0 || (pos > self.left_limit && more)) {
            self.left(pos - 1, run, a);
        }
        let anchor = self.anchor;
        if left_free && anchor + 1 < N {
            let s = self.edges[run as usize];
            if letter(s) == SEPARATOR && arc(s) != 0 && (self.cells[anchor + 1] != 0 || more) {
                self.right(anchor + 1, arc(s), pos, a);
            }
        }
    }

    /// Fills square `pos` (right of the anchor) from the DAWG run `run`, going right.
    fn right(&mut self, pos: usize, run: u32, start: usize, a: Acc) {
        let cell = self.cells[pos];
        if cell != 0 {
            let e = child(self.dawg, run, cell & CODE_MASK);
            if e != 0 {
                let mut a2 = a;
                if cell & BLANK_BIT == 0 {
                    a2.main += self.values[usize::from(cell & CODE_MASK)];
                }
                self.after_right(pos, e, start, a2);
            }
            return;
        }
        let allowed = self.allowed(pos);
        if allowed == 0 {
            return;
        }
        let mut i = run as usize;
        loop {
            let e = self.dawg[i];
            let l = letter(e);
            if allowed >> l == 0 {
                break;
            }
            if allowed & (1 << l) != 0 {
                if self.rack[usize::from(l)] > 0 {
                    let bits = self.take(l);
                    self.placed[pos] = l;
                    let a2 = self.with_tile(a, pos, l, l);
                    self.after_right(pos, e, start, a2);
                    self.give(l, bits);
                }
                if self.rack[usize::from(BLANK)] > 0 {
                    let bits = self.take(BLANK);
                    self.placed[pos] = l | BLANK_BIT;
                    let a2 = self.with_tile(a, pos, l | BLANK_BIT, BLANK);
                    self.after_right(pos, e, start, a2);
                    self.give(BLANK, bits);
                }
            }
            if is_last(e) {
                break;
            }
            i += 1;
        }
    }

    #[inline(always)]
    fn after_right(&mut self, pos: usize, e: u32, start: usize, a: Acc) {
        let right_free = pos + 1 == N || self.cells[pos + 1] == 0;
        if accepts(e) && right_free {
            self.record(a, start, pos);
        }
        let run = arc(e);
        if run != 0 && pos + 1 < N && (self.cells[pos + 1] != 0 || a.tiles < self.rack_total) {
            self.right(pos + 1, run, start, a);
        }
    }
}

/// Bits of the letters present (bit 0 never set).
fn rack_bits(rack: &[u8; 27]) -> u32 {
    let mut b = 0u32;
    for (l, &n) in rack.iter().enumerate().skip(1) {
        if n > 0 {
            b |= 1 << l;
        }
    }
    b
}

#[inline(always)]
fn child(edges: &[u32], run: u32, code: u8) -> u32 {
    if run == 0 {
        return 0;
    }
    let mut i = run as usize;
    loop {
        let e = edges[i];
        let l = letter(e);
        if l == code {
            return e;
        }
        if l > code || is_last(e) {
            return 0;
        }
        i += 1;
    }
}

/// Generates every placement of `rack` on the prepared board, calling `sink` for each.
pub fn generate<F: FnMut(&Candidate<'_>)>(
    prep: &Prepared,
    rack: &Rack,
    graphs: &Graphs<'_>,
    t: &Tables,
    opts: GenOptions,
    sink: &mut F,
) {
    let gaddag = graphs.gaddag;
    if rack.is_empty() || gaddag.root() == 0 {
        return;
    }
    let index = LeaveIndex::new(rack);
    let dirs: &[Direction] = if prep.empty && !opts.empty_board_down {
        &[Direction::Across]
    } else {
        &[Direction::Across, Direction::Down]
    };
    for &dir in dirs {
        let d = match dir {
            Direction::Across => 0,
            Direction::Down => 1,
        };
        let g = &prep.grids[d];
        let cc = &prep.checks[d];
        for r in 0..N {
            let mut anchors = [false; N];
            let mut any = false;
            for (c, a) in anchors.iter_mut().enumerate() {
                if g.get(r, c) != 0 {
                    continue;
                }
                *a = if prep.empty {
                    r == N / 2 && c == N / 2
                } else {
                    (c > 0 && g.get(r, c - 1) != 0)
                        || (c + 1 < N && g.get(r, c + 1) != 0)
                        || (r > 0 && g.get(r - 1, c) != 0)
                        || (r + 1 < N && g.get(r + 1, c) != 0)
                };
                any |= *a;
            }
            if !any {
                continue;
            }
            let mut line = Line {
                edges: gaddag.edges(),
                dawg: graphs.dawg,
                values: &t.values,
                cells: [0; N],
                mask: [0; N],
                xscore: [0; N],
                lm: [1; N],
                wm: [1; N],
                placed: [0; N],
                rack: rack.counts,
                letter_bits: rack_bits(&rack.counts) & !1,
                stride: index.stride,
                rack_total: rack.len().min(255) as u8,
                anchor: 0,
                anchor_right_free: true,
                left_limit: 0,
                direction: dir,
                line: r as u8,
                skip_single_with_cross: d == 1,
                rack_size: t.rack_size.min(255) as u8,
                sink,
            };
            for c in 0..N {
                line.cells[c] = g.get(r, c);
                line.mask[c] = cc.mask[r * N + c];
                line.xscore[c] = cc.score[r * N + c];
                // Premiums of the real square: (r, c) across, (c, r) down.
                let sq = if d == 0 { r * N + c } else { c * N + r };
                line.lm[c] = t.letter_mult[sq];
                line.wm[c] = t.word_mult[sq];
            }
            let mut prev_anchor: Option<usize> = None;
            for (a, &is_anchor) in anchors.iter().enumerate() {
                if !is_anchor {
                    continue;
                }
                line.anchor = a;
                line.anchor_right_free = a + 1 == N || line.cells[a + 1] == 0;
                line.left_limit = prev_anchor.map_or(0, |p| p + 1);
                prev_anchor = Some(a);
                if line.mask[a] == 0 {
                    continue;
                }
                let start = Acc {
                    main: 0,
                    wmul: 1,
                    xtotal: 0,
                    tiles: 0,
                    used: 0,
                };
                line.left(a, gaddag.root(), start);
            }
        }
    }
}
