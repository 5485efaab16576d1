//! Move generation: every legal placement for a board and rack, walking the GADDAG outwards from
//! each anchor square (Gordon 1994), with cross-checks per square and the score kept as it goes.
//!
//! # The hot loop
//!
//! The lexicon is walked as one flat `u32` table ([`tilebag_lexicon::automaton`]): each node
//! starts with a bitset of its children's letters and a bitset of those that end a word, then
//! its children's node indices in letter order. The GADDAG's nodes and the DAWG's share the
//! table, a separator's child being a DAWG node, so the walk goes left from the anchor and then
//! right without switching arrays.
//!
//! For each direction the generator works on one line (row) at a time, with everything it reads
//! copied into small fixed arrays on the stack: the line's 15 squares, the letters allowed on each
//! (a 27-bit mask from the cross-checks), the perpendicular words' scores, the premiums, and the
//! rack as counts per letter plus a bitset of the letters on it. At a node the letters worth trying
//! are one AND: `children & cross-check & rack letters` (all letters while a blank is left; the
//! blank is bit 0 of the rack's bitset, so this takes no branch), so no child the rack or the
//! square rules out is ever read; each wanted child's slot, like a board tile's child, is one
//! population count of the node's child set below its letter (the `popcnt` instruction when the CPU
//! has it: the walk is compiled for both, see `Pop`), found as the wanted bits are taken one by one
//! (no list of children is made first: prefetching such a list's nodes did not pay). Without a
//! blank on the rack the walk is compiled apart, so a square's letters are one AND of the
//! cross-check and the rack's letters. Before recursing, the caller checks that the next square can
//! take something from the child node (about half the calls would otherwise return at once), and
//! calls the step for an empty square or the one through a board tile, so the step does not test
//! the square again. The walk's branches are hard to predict, so its cheap tests are combined with
//! `&` into one branch, and taking a rack tile clears the letter's bit without a branch. Placing a
//! tile updates three running sums (main-word letters, word multiplier, cross-word total, the last
//! with per-square factors that are 0 where no cross-word forms, so no branch) and one index (which
//! sub-multiset of the rack is used, for the leave value), passed by value, so taking it back is
//! free. Nothing is allocated per move: each complete placement is handed to the caller's sink as a
//! borrowed [`Candidate`], and only a sink that keeps it copies 24 bytes.
//!
//! # Where a walk begins
//!
//! A walk that began on the anchor would try every rack letter there, and every left part before
//! it, only to fail on the board's letters after the separator: most anchors next to a board word
//! make no word at all. So where board tiles touch the anchor in the line, the walk begins on them
//! instead, reading them right to left from the GADDAG's root (no branching), and only the letters
//! that can stand beside them are ever tried on the anchor (the GADDAG holds every split of a
//! word, so any may be the one walked): tiles right of the anchor are read first and the right
//! part begins after them; tiles only left of it are read first and the right part begins on the
//! anchor ([`Line::run_anchor`]). This took three fifths of the instructions out of listing every
//! move over the shared corpus.
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

/// The placement the generator reports, public here as before.
pub use crate::candidate::Candidate;
use crate::grid::{Grid, Tables, BLANK, BLANK_BIT, CODE_MASK, N};
use crate::moves::Move;
use crate::rack::Rack;
use std::cell::Cell;
use tilebag_core::Direction;
use tilebag_lexicon::{AnagramSet, Automaton, Lexicon};

/// The automaton a generator walks: the GADDAG leftwards from an anchor, and after a separator
/// the DAWG rightwards, both in one flat node table (see [`tilebag_lexicon::automaton`]).
#[derive(Clone, Copy)]
pub struct Graphs<'a> {
    pub auto: &'a Automaton,
    /// The lexicon, for its anagram tables ([`Lexicon::anagrams`], made when first asked).
    pub lex: &'a Lexicon,
}

impl<'a> Graphs<'a> {
    /// The lexicon's graphs (its GADDAG is built on first use if its file had none).
    pub fn of(lex: &'a Lexicon) -> Graphs<'a> {
        Graphs {
            auto: lex.automaton(),
            lex,
        }
    }
}

/// All 26 letters allowed (bits 1..=26).
const ALL_LETTERS: u32 = ((1u32 << 27) - 1) & !1;

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
    /// Per row, the squares holding a tile, as bits (what finds a row's anchors).
    rows: [u32; N],
}

impl CrossChecks {
    /// For plays along the rows of `g` (pass the transposed grid for down plays).
    ///
    /// Only squares with a tile above or below need a lookup. With tiles below (`down`), the
    /// GADDAG path that spells `down` backwards (no separator: the whole word reversed) leads
    /// to a node whose children are the letters `L` that may stand before it; with nothing
    /// above, its accepting set is the mask at once, and with tiles above, each such child is
    /// followed through them (nearest first). With tiles above only, the DAWG walked through
    /// them gives the mask as its accepting set. So one walk, not one per letter, serves every
    /// square that has tiles on one side only.
    pub fn compute(g: &Grid, graphs: &Graphs<'_>, t: &Tables) -> CrossChecks {
        // Compiled with and without the `popcnt` instruction, like the walk (see `Pop`).
        if hardware_popcount() {
            CrossChecks::compute_with::<HardPop>(g, graphs, t)
        } else {
            CrossChecks::compute_with::<SoftPop>(g, graphs, t)
        }
    }

    fn compute_with<P: Pop>(g: &Grid, graphs: &Graphs<'_>, t: &Tables) -> CrossChecks {
        let child = child_with::<P>;
        let mut cc = CrossChecks {
            mask: [ALL_LETTERS; N * N],
            score: [-1; N * N],
            rows: [0; N],
        };
        let auto = graphs.auto;
        let table = auto.table();
        let cells = &g.cells;
        // Per row, the squares holding a tile, as bits.
        for r in 0..N {
            for c in 0..N {
                if cells[r * N + c] != 0 {
                    cc.mask[r * N + c] = 0;
                    cc.rows[r] |= 1 << c;
                }
            }
        }
        let rows = cc.rows;
        // Only the empty squares with a tile above or below need a lookup.
        let square = |r: usize| {
            let near =
                (if r > 0 { rows[r - 1] } else { 0 }) | rows.get(r + 1).copied().unwrap_or(0);
            let mut bits = near & !rows[r];
            std::iter::from_fn(move || {
                (bits != 0).then(|| {
                    let c = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    r * N + c
                })
            })
        };
        for i in (0..N).flat_map(square) {
            let above = i >= N && cells[i - N] != 0;
            let below = i + N < N * N && cells[i + N] != 0;
            // The tiles above (top row first) and below.
            let mut top = i;
            while top >= N && cells[top - N] != 0 {
                top -= N;
            }
            let mut bottom = i;
            while bottom + N < N * N && cells[bottom + N] != 0 {
                bottom += N;
            }
            let mut sum = 0;
            let mut k = top;
            while k < i {
                sum += t.value(cells[k]);
                k += N;
            }
            let mut k = i + N;
            while k <= bottom {
                sum += t.value(cells[k]);
                k += N;
            }
            cc.score[i] = sum;
            cc.mask[i] = if !below {
                // up + L: the DAWG after the tiles above.
                let mut node = auto.dawg_root();
                let mut k = top;
                let mut ok = true;
                while k < i {
                    match child(table, node, cells[k] & CODE_MASK) {
                        Some((n, _)) if n != 0 => node = n,
                        _ => {
                            ok = false;
                            break;
                        }
                    }
                    k += N;
                }
                if ok {
                    table[node as usize + 1] & ALL_LETTERS
                } else {
                    0
                }
            } else {
                // L + down backwards: the GADDAG from its root through the tiles below,
                // last first.
                let mut node = auto.gaddag_root();
                let mut k = bottom;
                let mut ok = true;
                while k > i {
                    match child(table, node, cells[k] & CODE_MASK) {
                        Some((n, _)) if n != 0 => node = n,
                        _ => {
                            ok = false;
                            break;
                        }
                    }
                    k -= N;
                }
                if !ok {
                    0
                } else if !above {
                    table[node as usize + 1] & ALL_LETTERS
                } else {
                    // Then L, then the tiles above, nearest first. Only letters that can
                    // also follow the tiles above (the DAWG's children after them) are tried.
                    let n = node as usize;
                    let mut after_up = auto.dawg_root();
                    let mut k = top;
                    while k < i && after_up != 0 {
                        after_up = child(table, after_up, cells[k] & CODE_MASK).map_or(0, |c| c.0);
                        k += N;
                    }
                    let set = table[n] & table[after_up as usize] & ALL_LETTERS;
                    let mut mask = 0u32;
                    let mut bits = set;
                    while bits != 0 {
                        let l = bits.trailing_zeros();
                        bits &= bits - 1;
                        let mut m = table[n + 2 + P::count(table[n] & ((1u32 << l) - 1)) as usize];
                        let mut k = i - N;
                        let acc = loop {
                            match child(table, m, cells[k] & CODE_MASK) {
                                Some((next, a)) => {
                                    if k == top {
                                        break a;
                                    }
                                    m = next;
                                    k -= N;
                                }
                                None => break false,
                            }
                        };
                        if acc {
                            mask |= 1 << l;
                        }
                    }
                    mask
                }
            };
        }
        cc
    }
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

/// The body of a walk's step, written once for the three walks (a macro, not a function
/// taking a closure: that form ran 10% more instructions). Fills empty square `$pos` from node
/// `$node` with each rack tile (a blank as each letter) that the node has a child for and the
/// square allows; for each, `$then` runs with the child node, whether the path is a word, and
/// the totals, and the tile is taken back after. (A square holding a tile is stepped through by
/// [`Line::left_tile`] and [`Line::right_tile`]: the caller knows which it is, so the step
/// does not test it again.)
macro_rules! step {
    ($self:ident, $P:ident, $B:ident, $pos:expr, $node:expr, $a:expr,
     |$next:ident, $accepts:ident, $a2:ident| $then:expr) => {{
        let (pos, a) = ($pos, $a);
        let n = $node as usize;
        let set = node_word($self.t, n);
        let acc = node_word($self.t, n + 1);
        debug_assert_eq!($self.cells[pos], 0);
        // Only the children whose letter is both allowed here and on the rack.
        let want = $self.allowed::<$B>(pos) & set;
        if want == 0 {
            return;
        }
        let mut w = want & !1;
        while w != 0 {
            let l = w.trailing_zeros();
            w &= w - 1;
            let $next = node_word($self.t, n + 2 + $P::count(set & ((1u32 << l) - 1)) as usize);
            let l = l as u8;
            let $accepts = acc >> l & 1 != 0;
            // A letter the rack holds is walked once, as the rack's tile; a blank is taken only
            // for a letter the rack has run out of. Both are walked as the letter (`placed`
            // without the blank bit, its value counted): which of the word's new tiles are the
            // blanks is chosen when the word is recorded ([`Line::record_walk`]), so the same
            // subtree is not walked again for each square a blank could stand on.
            // (Without a blank on the rack, `want` holds only letters the rack has.)
            if !$B || $self.rack[usize::from(l)] > 0 {
                let saved = $self.take(l);
                $self.placed[pos] = l;
                let $a2 = $self.with_tile(a, pos, l, l);
                $then;
                $self.give(l, saved);
            } else if $B && $self.rack[usize::from(BLANK)] > 0 {
                let saved = $self.take(BLANK);
                $self.blank_as = l;
                $self.placed[pos] = l;
                let $a2 = $self.with_tile(a, pos, l, l);
                $then;
                $self.give(BLANK, saved);
            }
        }
    }};
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
    /// The automaton's node table.
    t: &'a [u32],
    values: &'a [i32; 27],
    cells: [u8; N],
    mask: [u32; N],
    xscore: [i32; N],
    /// Per square, what a new tile adds to the cross-words' total: `xw + value × xm` (both 0
    /// where no cross-word forms), so placing a tile takes no branch.
    xw: [i32; N],
    xm: [i32; N],
    lm: [i32; N],
    wm: [i32; N],
    /// Per square, the last square of the run of board tiles that starts just right of it
    /// (itself if none): [`LineData::run_r`].
    run_r: [u8; N],
    placed: [u8; N],
    rack: [u8; 27],
    /// The rack's tiles when the walk began (its blanks: `nat[BLANK]`).
    nat: [u8; 27],
    /// The letter the walk last took a blank for (with one blank: the letter it stands for
    /// while the walk holds it).
    blank_as: u8,
    /// Bits of the codes on the rack: bit 0 while a blank is left, bits 1..=26 its letters.
    letter_bits: u32,
    stride: [u16; 27],
    /// The most tiles a placement may use: the rack's, or one fewer when the bingos have been
    /// searched on their own (see [`best_by_value_per_tiles`]).
    rack_total: u8,
    anchor: usize,
    /// The square where the walk's right part begins (the GADDAG's separator): right of the
    /// anchor, or right of the board tiles that follow it, or the anchor itself when the walk
    /// began on the board tiles left of it (see [`Line::run_anchor`]). Always empty or off the
    /// board (`N`): a word the left part makes may end just before it.
    split: usize,
    /// The tiles the left part must have placed before the walk may cross to the right part:
    /// 1, or 0 when the anchor is itself in the right part.
    min_cross: u8,
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

    /// Records a word the walk found on `start..=end`, whose new tiles were all walked as
    /// their letters (see `step!`): once for each way of making some of them blanks that the
    /// rack allows (each letter played no more often than the rack holds it, at most as many
    /// blanks as it holds). Without a blank on the rack that is the word as walked.
    #[inline(always)]
    fn record_walk(&mut self, a: Acc, start: usize, end: usize) {
        if self.nat[usize::from(BLANK)] == 0 {
            self.record(a, start, end);
            return;
        }
        if end == start {
            return;
        }
        if self.nat[usize::from(BLANK)] == 1 {
            // One blank: if the walk took it (for a letter the rack had run out of, `blank_as`)
            // it stands on one of the squares of that letter; if not, the word as walked, then
            // the blank on each new square in turn.
            let only = if self.rack[usize::from(BLANK)] == 0 {
                Some(self.blank_as)
            } else {
                self.record(a, start, end);
                None
            };
            for p in start..=end {
                let l = self.placed[p];
                if self.cells[p] == 0 && only.is_none_or(|x| x == l) {
                    self.record_blank_on(a, start, end, p);
                }
            }
            return;
        }
        let mut squares = [0u8; N];
        let mut n = 0;
        for p in start..=end {
            if self.cells[p] == 0 {
                squares[n] = p as u8;
                n += 1;
            }
        }
        let mut naturals = [0u8; 27];
        let blanks = self.nat[usize::from(BLANK)];
        self.assign_blanks(a, start, end, &squares[..n], blanks, &mut naturals);
    }

    /// [`Line::record_walk`]'s choice, square by square: new tile `squares[0]` as the rack's
    /// letter (if fewer than the rack holds are used so far, counted in `naturals`) or as a
    /// blank (if one is left), then the rest.
    fn assign_blanks(
        &mut self,
        a: Acc,
        start: usize,
        end: usize,
        squares: &[u8],
        blanks: u8,
        naturals: &mut [u8; 27],
    ) {
        let Some((&p, rest)) = squares.split_first() else {
            self.record(a, start, end);
            return;
        };
        let p = usize::from(p);
        let l = self.placed[p];
        let li = usize::from(l);
        if naturals[li] < self.nat[li] {
            naturals[li] += 1;
            self.assign_blanks(a, start, end, rest, blanks, naturals);
            naturals[li] -= 1;
        }
        if blanks > 0 {
            let b = self.blank_on(a, p);
            self.placed[p] = l | BLANK_BIT;
            self.assign_blanks(b, start, end, rest, blanks - 1, naturals);
            self.placed[p] = l;
        }
    }

    /// The totals `a` with the new tile on square `p` made a blank: its letter's value comes
    /// off the main word and its cross-word; the leave keeps the letter and loses the blank.
    #[inline(always)]
    fn blank_on(&self, a: Acc, p: usize) -> Acc {
        let li = usize::from(self.placed[p]);
        let lv = self.values[li] * self.lm[p];
        Acc {
            main: a.main - lv,
            xtotal: a.xtotal - lv * self.xm[p],
            used: a
                .used
                .wrapping_sub(self.stride[li])
                .wrapping_add(self.stride[usize::from(BLANK)]),
            ..a
        }
    }

    /// Records the word on `start..=end` (totals `a`, every new tile its letter) with the new
    /// tile on `p` a blank.
    fn record_blank_on(&mut self, a: Acc, start: usize, end: usize, p: usize) {
        let b = self.blank_on(a, p);
        let l = self.placed[p];
        self.placed[p] = l | BLANK_BIT;
        self.record(b, start, end);
        self.placed[p] = l;
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
        Acc {
            main: a.main + lv,
            wmul: a.wmul * self.wm[pos],
            xtotal: a.xtotal + self.xw[pos] + lv * self.xm[pos],
            tiles: a.tiles + 1,
            used: a.used + self.stride[usize::from(rack_code)],
        }
    }

    #[inline(always)]
    fn take(&mut self, code: u8) -> u32 {
        let bits = self.letter_bits;
        let n = &mut self.rack[usize::from(code)];
        *n -= 1;
        // Without a branch: the letter's bit goes when its last tile does.
        self.letter_bits &= !(u32::from(*n == 0) << code);
        bits
    }

    #[inline(always)]
    fn give(&mut self, code: u8, bits: u32) {
        self.rack[usize::from(code)] += 1;
        self.letter_bits = bits;
    }

    /// The letters that may go on empty square `pos` now.
    #[inline(always)]
    fn allowed<const B: bool>(&self, pos: usize) -> u32 {
        if !B {
            // No blank on the rack: its letters only.
            return self.mask[pos] & self.letter_bits;
        }
        // Bit 0 of `letter_bits` is the blank: all ones below when one is left.
        let blank = 0u32.wrapping_sub(self.letter_bits & 1);
        self.mask[pos] & (self.letter_bits | blank)
    }

    /// Step through the board's tile on `pos` from node `node`: the child node, whether the path
    /// so far is a word, and the running totals with the tile's value (a blank on the board
    /// scores nothing). `None` when no word goes on through that letter.
    #[inline(always)]
    fn through_tile<P: Pop>(&self, pos: usize, node: u32, a: Acc) -> Option<(u32, bool, Acc)> {
        let n = node as usize;
        let set = node_word(self.t, n);
        let cell = self.cells[pos];
        let l = cell & CODE_MASK;
        if set >> l & 1 == 0 {
            return None;
        }
        let next = node_word(self.t, n + 2 + P::count(set & ((1u32 << l) - 1)) as usize);
        let mut a2 = a;
        if cell & BLANK_BIT == 0 {
            a2.main += self.values[usize::from(l)];
        }
        Some((next, node_word(self.t, n + 1) >> l & 1 != 0, a2))
    }

    /// Fills empty square `pos` (at or left of the anchor) from GADDAG node `node`, going left.
    fn left<P: Pop, const B: bool>(&mut self, pos: usize, node: u32, a: Acc) {
        step!(self, P, B, pos, node, a, |next, accepts, a2| self
            .after_left::<P, B>(pos, next, accepts, a2));
    }

    /// Steps through the board's tile on `pos` (left of the anchor) from GADDAG node `node`.
    fn left_tile<P: Pop, const B: bool>(&mut self, pos: usize, node: u32, a: Acc) {
        if let Some((next, accepts, a2)) = self.through_tile::<P>(pos, node, a) {
            self.after_left::<P, B>(pos, next, accepts, a2);
        }
    }

    /// After a letter went on `pos` (leftwards) reaching GADDAG node `next`: record the word if
    /// complete, go on left, and cross the separator into the right part (at `split`). The tests are
    /// combined with `&` rather than `&&` where both sides are cheap: one branch instead of
    /// several, and the walk's branches are hard to predict. Node 0 is the empty node (no
    /// children), so a leaf needs no test of its own: nothing below goes on from it.
    #[inline(always)]
    fn after_left<P: Pop, const B: bool>(&mut self, pos: usize, next: u32, accepts: bool, a: Acc) {
        let left_cell = if pos > 0 { self.cells[pos - 1] } else { 0 };
        // (A walk that began on board tiles has placed none while it reads them.)
        if accepts & (left_cell == 0) & (a.tiles > 0) {
            self.record_walk(a, pos, self.split - 1);
        }
        let more = a.tiles < self.rack_total;
        let set = node_word(self.t, next as usize);
        // Each call below is made only when the next square can take something from `next`
        // (a board tile its children have, or a rack letter they have and the square allows):
        // about half the calls would otherwise return at once.
        if if left_cell != 0 {
            set >> (left_cell & CODE_MASK) & 1 != 0
        } else {
            // (At square 0, `pos > left_limit` is false and the mask read is of square 0.)
            (pos > self.left_limit) & more & (set & self.allowed::<B>(pos.saturating_sub(1)) != 0)
        } {
            if left_cell != 0 {
                self.left_tile::<P, B>(pos - 1, next, a);
            } else {
                self.left::<P, B>(pos - 1, next, a);
            }
        }
        // The separator is letter 0: when present it is the first child.
        if (left_cell == 0) & (self.split < N) & (set & 1 != 0) & (a.tiles >= self.min_cross) {
            let d = node_word(self.t, next as usize + 2);
            let dset = node_word(self.t, d as usize);
            if more & (dset & self.allowed::<B>(self.split) != 0) {
                self.right::<P, B>(self.split, d, pos, a);
            }
        }
    }

    /// Fills empty square `pos` (right of the anchor) from DAWG node `node`, going right.
    fn right<P: Pop, const B: bool>(&mut self, pos: usize, node: u32, start: usize, a: Acc) {
        step!(self, P, B, pos, node, a, |next, accepts, a2| self
            .after_right::<P, B>(pos, next, accepts, start, a2));
    }

    /// Steps through the board's tile on `pos` (right of the anchor) from DAWG node `node`.
    fn right_tile<P: Pop, const B: bool>(&mut self, pos: usize, node: u32, start: usize, a: Acc) {
        if let Some((next, accepts, a2)) = self.through_tile::<P>(pos, node, a) {
            self.after_right::<P, B>(pos, next, accepts, start, a2);
        }
    }

    #[inline(always)]
    fn after_right<P: Pop, const B: bool>(
        &mut self,
        pos: usize,
        next: u32,
        accepts: bool,
        start: usize,
        a: Acc,
    ) {
        let right_cell = if pos + 1 < N { self.cells[pos + 1] } else { 0 };
        if accepts & (right_cell == 0) {
            self.record_walk(a, start, pos);
        }
        if pos + 1 < N {
            let set = node_word(self.t, next as usize);
            if if right_cell != 0 {
                set >> (right_cell & CODE_MASK) & 1 != 0
            } else {
                (a.tiles < self.rack_total) & (set & self.allowed::<B>(pos + 1) != 0)
            } {
                if right_cell != 0 {
                    self.right_tile::<P, B>(pos + 1, next, start, a);
                } else {
                    self.right::<P, B>(pos + 1, next, start, a);
                }
            }
        }
    }
}

impl<F: FnMut(&Candidate<'_>)> Line<'_, F> {
    /// Every placement of the whole rack (at most two blanks) that fills exactly the empty
    /// squares of `start..=end`, found in the lexicon's anagram lists: the words made of the
    /// rack's letters and the window's board letters (with blanks, those and each letter a
    /// blank may be), each checked against the board letters and the cross-checks of the
    /// window's squares, with the blanks on each square they may take.
    fn window_words(&mut self, start: usize, end: usize, anagrams: &AnagramSet) {
        let mut counts = self.rack;
        let blanks = counts[usize::from(BLANK)];
        counts[usize::from(BLANK)] = 0;
        for &cell in &self.cells[start..=end] {
            if cell != 0 {
                counts[usize::from(cell & CODE_MASK)] += 1;
            }
        }
        match blanks {
            0 => {
                for w in anagrams.words_of(&counts) {
                    self.try_word(start, end, w, [0, 0]);
                }
            }
            1 => {
                // Only the letters the blank may be (one lookup).
                let h = AnagramSet::hash(&counts);
                let xs = anagrams.blank_letters(h);
                self.try_blank_words(start, end, anagrams, h, &mut counts, xs, 0);
            }
            _ => {
                // The pairs of letters (x ≤ y) the two blanks may be: for each x, the letters
                // the second blank may then be (one lookup).
                let h = AnagramSet::hash(&counts);
                for x in 1..27u8 {
                    let hx = AnagramSet::plus(h, x);
                    let ys = anagrams.blank_letters(hx) & !((1u32 << x) - 1);
                    counts[usize::from(x)] += 1;
                    self.try_blank_words(start, end, anagrams, hx, &mut counts, ys, x);
                    counts[usize::from(x)] -= 1;
                }
            }
        }
    }

    /// Tries on `start..=end` ([`Line::try_word`]) the words of the letters `counts` (hash `h`)
    /// and a blank standing for each letter of `xs` in turn, with a second blank standing for
    /// `other` (a letter already in `counts`; 0 for none).
    #[allow(clippy::too_many_arguments)]
    fn try_blank_words(
        &mut self,
        start: usize,
        end: usize,
        anagrams: &AnagramSet,
        h: u64,
        counts: &mut [u8; 27],
        mut xs: u32,
        other: u8,
    ) {
        while xs != 0 {
            let x = xs.trailing_zeros() as u8;
            xs &= xs - 1;
            counts[usize::from(x)] += 1;
            for w in anagrams.words_hashed(AnagramSet::plus(h, x), counts) {
                self.try_word(start, end, w, [other, x]);
            }
            counts[usize::from(x)] -= 1;
        }
    }

    /// Records word `w` (letter codes) on `start..=end` if it agrees with the board letters and
    /// the cross-checks there, once for each way of putting the blanks: `blanks` are the
    /// letters they stand for (0: no blank; two alike go on two squares of that letter), each
    /// on an empty square holding its letter, rack tiles on the others. The word's letters on
    /// the empty squares must be the rack's tiles and the blanks' letters (the anagram lists
    /// give that).
    fn try_word(&mut self, start: usize, end: usize, w: &[u8; 16], blanks: [u8; 2]) {
        // Per blank, the squares it may take (bit N: none, for no blank).
        let mut spots = [0u32; 2];
        for (i, j) in (start..end + 1).enumerate().rev() {
            let l = w[i];
            let cell = self.cells[j];
            if cell != 0 {
                if cell & CODE_MASK != l {
                    return;
                }
            } else if self.mask[j] >> l & 1 == 0 {
                return;
            } else {
                // A one-tile play is on its anchor (the rule of one entry per placement in
                // `record` reads it): the first empty square.
                self.anchor = j;
                for (s, &b) in spots.iter_mut().zip(&blanks) {
                    if l == b {
                        *s |= 1 << j;
                    }
                }
            }
        }
        for (s, &b) in spots.iter_mut().zip(&blanks) {
            if b == 0 {
                *s = 1 << N;
            }
        }
        let mut first = spots[0];
        while first != 0 {
            let b0 = first.trailing_zeros() as usize;
            first &= first - 1;
            // The second blank on another square (and, for two alike, a later one).
            let mut second = spots[1];
            if b0 < N {
                second &= !(1 << b0);
                if blanks[0] == blanks[1] {
                    second &= !((2u32 << b0) - 1);
                }
            }
            while second != 0 {
                let b1 = second.trailing_zeros() as usize;
                second &= second - 1;
                let mut a = START;
                for (i, j) in (start..=end).enumerate() {
                    let l = w[i];
                    let cell = self.cells[j];
                    if cell != 0 {
                        if cell & BLANK_BIT == 0 {
                            a.main += self.values[usize::from(l)];
                        }
                    } else if j == b0 || j == b1 {
                        self.placed[j] = l | BLANK_BIT;
                        a = self.with_tile(a, j, l | BLANK_BIT, BLANK);
                    } else {
                        self.placed[j] = l;
                        a = self.with_tile(a, j, l, l);
                    }
                }
                self.record(a, start, end);
                self.placed = [0; N];
            }
        }
    }
}

/// The value of the most valuable letter among `bits` (letter codes 1..=26), 0 for none.
fn most_valuable(mut bits: u32, values: &[i32; 27]) -> i32 {
    let mut v = 0;
    while bits != 0 {
        v = v.max(values[bits.trailing_zeros() as usize]);
        bits &= bits - 1;
    }
    v
}

/// Bits of the letters present (bit 0 never set).
fn rack_bits(rack: &[u8; 27]) -> u32 {
    rack.iter()
        .enumerate()
        .skip(1)
        .fold(0, |b, (l, &n)| b | u32::from(n > 0) << l)
}

/// Word `i` of the automaton's node table, read without a bounds check (the walk reads a
/// few of them for each tile it tries; the checks cost 6% of all-moves' instructions).
#[inline(always)]
fn node_word(t: &[u32], i: usize) -> u32 {
    debug_assert!(i < t.len());
    // SAFETY: `t` is an `Automaton`'s table, which `Automaton::new` checks is well formed
    // (`automaton::well_formed`): every node has its two words and a slot per child in its
    // set, and every child and root is 0 or a node's start. The walk only reads a node it
    // reached from a root through children, that node's next word, and, for a letter in its
    // child set, that child's slot; all of them are in bounds.
    unsafe { *t.get_unchecked(i) }
}

/// [`tilebag_lexicon::automaton::child`] with population count `P`.
#[inline(always)]
fn child_with<P: Pop>(t: &[u32], node: u32, l: u8) -> Option<(u32, bool)> {
    let n = node as usize;
    let set = t[n];
    if l >= 32 || set >> l & 1 == 0 {
        return None;
    }
    let i = P::count(set & ((1u32 << l) - 1)) as usize;
    Some((t[n + 2 + i], t[n + 1] >> l & 1 != 0))
}

/// One line's squares as the generator reads them.
#[derive(Clone, Copy)]
struct LineData {
    cells: [u8; N],
    mask: [u32; N],
    xscore: [i32; N],
    lm: [i32; N],
    wm: [i32; N],
    /// What a new tile adds to the cross-words' total (see [`Line`]'s fields of these names).
    xw: [i32; N],
    xm: [i32; N],
    anchors: [bool; N],
    /// Board tiles' values as prefix sums (`board[c]`: the tiles left of square `c`).
    board: [i32; N + 1],
    /// Per square: the first square of the run of tiles that ends just left of it (itself if
    /// none), and the last of the run that starts just right of it.
    run_l: [u8; N],
    run_r: [u8; N],
}

impl LineData {
    /// The line's anchors, left to right, each with its left limit: the square after the
    /// previous anchor, so that no placement is found from two anchors.
    fn anchors_with_limits(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let mut prev: Option<usize> = None;
        (0..N).filter(|&a| self.anchors[a]).map(move |a| {
            let limit = prev.map_or(0, |p| p + 1);
            prev = Some(a);
            (a, limit)
        })
    }
}

/// Row `r` of direction `d` (0 across, 1 down) of the prepared board; None when it has no anchor.
fn line_data(prep: &Prepared, d: usize, r: usize, t: &Tables) -> Option<LineData> {
    let g = &prep.grids[d];
    let cc = &prep.checks[d];
    // The squares with a tile, as bits, for this row and its neighbours: an anchor is an
    // empty square next to one (on an empty board, the centre square only).
    // (The cross-checks' pass over the grid made them.)
    let rows = &cc.rows;
    let here = rows[r];
    let anchor_bits = if prep.empty {
        if r == N / 2 {
            1 << (N / 2)
        } else {
            0
        }
    } else {
        let above = if r > 0 { rows[r - 1] } else { 0 };
        let below = if r + 1 < N { rows[r + 1] } else { 0 };
        (here << 1 | here >> 1 | above | below) & !here & ((1 << N) - 1)
    };
    if anchor_bits == 0 {
        return None;
    }
    let cells: [u8; N] = g.cells[r * N..r * N + N].try_into().expect("a row");
    let mut ld = LineData {
        cells,
        mask: cc.mask[r * N..r * N + N].try_into().expect("a row"),
        xscore: cc.score[r * N..r * N + N].try_into().expect("a row"),
        lm: [1; N],
        wm: [1; N],
        xw: [0; N],
        xm: [0; N],
        anchors: std::array::from_fn(|c| anchor_bits >> c & 1 != 0),
        board: [0; N + 1],
        run_l: [0; N],
        run_r: [0; N],
    };
    for c in 0..N {
        // Premiums of the real square: (r, c) across, (c, r) down.
        let sq = if d == 0 { r * N + c } else { c * N + r };
        ld.lm[c] = t.letter_mult[sq];
        ld.wm[c] = t.word_mult[sq];
        if ld.xscore[c] >= 0 {
            ld.xw[c] = ld.xscore[c] * ld.wm[c];
            ld.xm[c] = ld.wm[c];
        }
    }
    for c in 0..N {
        ld.board[c + 1] = ld.board[c] + t.value(ld.cells[c]);
        ld.run_l[c] = if c > 0 && ld.cells[c - 1] != 0 {
            ld.run_l[c - 1].min(c as u8 - 1)
        } else {
            c as u8
        };
    }
    for c in (0..N).rev() {
        ld.run_r[c] = if c + 1 < N && ld.cells[c + 1] != 0 {
            ld.run_r[c + 1].max(c as u8 + 1)
        } else {
            c as u8
        };
    }
    Some(ld)
}

/// The directions to generate (0 across, 1 down).
fn directions(prep: &Prepared, opts: GenOptions) -> &'static [usize] {
    if prep.empty && !opts.empty_board_down {
        &[0]
    } else {
        &[0, 1]
    }
}

const START: Acc = Acc {
    main: 0,
    wmul: 1,
    xtotal: 0,
    tiles: 0,
    used: 0,
};

impl<'a, F: FnMut(&Candidate<'_>)> Line<'a, F> {
    #[allow(clippy::too_many_arguments)]
    fn new(
        ld: &LineData,
        d: usize,
        r: usize,
        rack: &Rack,
        index: &LeaveIndex,
        graphs: &Graphs<'a>,
        t: &'a Tables,
        sink: &'a mut F,
    ) -> Line<'a, F> {
        Line {
            t: graphs.auto.table(),
            values: &t.values,
            cells: ld.cells,
            mask: ld.mask,
            xscore: ld.xscore,
            xw: ld.xw,
            xm: ld.xm,
            lm: ld.lm,
            wm: ld.wm,
            run_r: ld.run_r,
            placed: [0; N],
            rack: rack.counts,
            nat: rack.counts,
            blank_as: 0,
            letter_bits: rack_bits(&rack.counts) | u32::from(rack.counts[usize::from(BLANK)] > 0),
            stride: index.stride,
            rack_total: rack.len().min(255) as u8,
            anchor: 0,
            split: 0,
            min_cross: 1,
            left_limit: 0,
            direction: if d == 0 {
                Direction::Across
            } else {
                Direction::Down
            },
            line: r as u8,
            skip_single_with_cross: d == 1,
            rack_size: t.rack_size.min(255) as u8,
            sink,
        }
    }

    /// Every placement whose leftmost anchor is `a` (`left_limit`: the square after the previous
    /// anchor of the line, so no placement is found from two anchors).
    ///
    /// Where board tiles touch the anchor, the walk begins on them, read right to left from the
    /// GADDAG's root, so that only the letters that can stand next to them are tried on the
    /// anchor (beginning on the anchor tried every rack letter there, and every left part
    /// before it, only to fail on the board's letters after the separator; most such anchors
    /// make no word at all):
    /// - tiles right of the anchor (up to square `e`): the walk reads them from `e` down, then
    ///   places the anchor's tile and goes on left; its right part begins after `e`;
    /// - otherwise, tiles left of it (from square `s`, the left limit, since the empty square
    ///   before `s` is the previous anchor): the walk reads them from the anchor's left
    ///   neighbour down to `s`, then crosses, and its right part begins on the anchor;
    /// - no tile beside it: the walk begins on the anchor, and its right part after it.
    fn run_anchor(&mut self, a: usize, left_limit: usize, root: u32) {
        self.anchor = a;
        self.left_limit = left_limit;
        if self.mask[a] == 0 {
            return;
        }
        let e = usize::from(self.run_r[a]);
        let (first, on_tile) = if e > a {
            self.split = e + 1;
            self.min_cross = 1;
            (e, true)
        } else if a > 0 && self.cells[a - 1] != 0 {
            // The run's first square is the left limit: the empty square before it (if any)
            // touches it, so it is the previous anchor.
            debug_assert!((left_limit..a).all(|c| self.cells[c] != 0));
            self.split = a;
            self.min_cross = 0;
            (a - 1, true)
        } else {
            self.split = a + 1;
            self.min_cross = 1;
            (a, false)
        };
        // The walk is compiled four times: with and without the `popcnt` instruction, and
        // for racks with and without a blank (without, a square's letters are one AND).
        match (hardware_popcount(), self.rack[usize::from(BLANK)] > 0) {
            (true, false) => self.begin::<HardPop, false>(first, on_tile, root),
            (true, true) => self.begin::<HardPop, true>(first, on_tile, root),
            (false, false) => self.begin::<SoftPop, false>(first, on_tile, root),
            (false, true) => self.begin::<SoftPop, true>(first, on_tile, root),
        }
    }

    /// Starts the walk on square `first`: through its board tile, or by filling it.
    fn begin<P: Pop, const B: bool>(&mut self, first: usize, on_tile: bool, root: u32) {
        if on_tile {
            self.left_tile::<P, B>(first, root, START);
        } else {
            self.left::<P, B>(first, root, START);
        }
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
    let root = graphs.auto.gaddag_root();
    if rack.is_empty() || root == 0 {
        return;
    }
    let index = LeaveIndex::new(rack);
    for &d in directions(prep, opts) {
        for r in 0..N {
            let Some(ld) = line_data(prep, d, r, t) else {
                continue;
            };
            let mut line = Line::new(&ld, d, r, rack, &index, graphs, t, sink);
            for (a, limit) in ld.anchors_with_limits() {
                line.run_anchor(a, limit, root);
            }
        }
    }
}

/// The rack's tile values, highest first, as prefix sums: `top[i]` is the total of the `i` most
/// valuable tiles (blanks count 0).
fn top_values(rack: &Rack, t: &Tables) -> ([i32; 16], usize) {
    let mut vals = [0i32; 16];
    let mut n = 0;
    for code in 0..27 {
        for _ in 0..rack.counts[code] {
            if n < 15 {
                vals[n] = if code == 0 { 0 } else { t.values[code] };
                n += 1;
            }
        }
    }
    vals[..n].sort_unstable_by(|a, b| b.cmp(a));
    let mut top = [0i32; 16];
    for i in 0..n {
        top[i + 1] = top[i] + vals[i];
    }
    (top, n)
}

/// Per square of the line, the most a rack tile that may go on it is worth (a blank: 0): the
/// letters on no square can score more than this, whatever the tiles' ranking says. Made once
/// per line for all its anchors' bounds.
fn fits(ld: &LineData, rack_letters: u32, values: &[i32; 27]) -> [i32; N] {
    let all = most_valuable(rack_letters, values);
    std::array::from_fn(|s| {
        let m = ld.mask[s] & rack_letters;
        if m == rack_letters {
            all
        } else {
            most_valuable(m, values)
        }
    })
}

/// An upper bound on the score of any placement generated from anchor `a` of the line (left part
/// from `left_limit`), without the lexicon: over every run of empty squares through the anchor that
/// the rack could fill (each square allowing some letter of the rack), the board tiles the main
/// word would take in, the rack's most valuable tiles on the best letter premiums (times the run's
/// word premiums), each cross-word at its best, and the bingo bonus; plus `bonus[n]` for a
/// placement of `n` tiles (`fits`: see [`fits`]). A window of `report_from` or more empty squares
/// (`report_from` = a full rack: a bingo) is not counted: it is handed to
/// `window(start, end, its bound)`, to be searched on its own. Returns the bound over the
/// windows of fewer tiles (`INFINITY` when a premium is one the bound does not rank; the windows
/// are then not all reported).
#[allow(clippy::too_many_arguments)]
fn anchor_bound(
    ld: &LineData,
    a: usize,
    left_limit: usize,
    top: &[i32; 16],
    k: usize,
    usable: u32,
    t: &Tables,
    bonus: &[f32; 16],
    fits: &[i32; N],
    report_from: usize,
    window: &mut impl FnMut(usize, usize, f32),
) -> f32 {
    // The empty squares a placement from this anchor may fill: leftwards to `left_limit`,
    // rightwards to the edge, stopping at one the rack cannot fill.
    let mut lefts = [0usize; 16];
    let mut nl = 0;
    let mut c = a as isize;
    while c >= left_limit as isize && nl < k {
        let cu = c as usize;
        if ld.cells[cu] == 0 {
            if ld.mask[cu] & usable == 0 {
                break;
            }
            lefts[nl] = cu;
            nl += 1;
        }
        c -= 1;
    }
    let mut rights = [0usize; 16];
    let mut nr = 0;
    for c in a + 1..N {
        if nr + 1 >= k {
            break;
        }
        if ld.cells[c] == 0 {
            if ld.mask[c] & usable == 0 {
                break;
            }
            rights[nr] = c;
            nr += 1;
        }
    }
    let board = &ld.board;
    let ext_left = |s: usize| usize::from(ld.run_l[s]);
    let ext_right = |e: usize| usize::from(ld.run_r[e]);
    let bingo_at = t.rack_size;
    let mut best = f32::NEG_INFINITY;
    // Aggregates over the empty squares of the window, grown left then right.
    let (mut lw, mut l3, mut l2, mut lx, mut lxc, mut lmax) =
        (1i32, 0usize, 0usize, 0usize, 0i32, 0i32);
    // The same squares' best fits: times their letter premiums (main word), and times their
    // letter and word premiums where a cross-word forms.
    let (mut lfit, mut lxfit) = (0i32, 0i32);
    for (p, &s) in lefts[..nl].iter().enumerate() {
        let f = fits[s] * ld.lm[s];
        lfit += f;
        if ld.xscore[s] >= 0 {
            lxfit += f * ld.wm[s];
        }
        lw *= ld.wm[s];
        match ld.lm[s] {
            3 => l3 += 1,
            2 => l2 += 1,
            1 => {}
            // A premium this bound does not rank: no bound.
            _ => return f32::INFINITY,
        }
        if ld.xscore[s] >= 0 {
            lx += 1;
            lxc += ld.xscore[s] * ld.wm[s];
            lmax = lmax.max(ld.lm[s] * ld.wm[s]);
        }
        let start = ext_left(s);
        let (mut w, mut c3, mut c2, mut x, mut xc, mut xmax) = (lw, l3, l2, lx, lxc, lmax);
        let (mut mfit, mut xfit) = (lfit, lxfit);
        let mut last = a;
        let mut q = 0;
        loop {
            let n = p + 1 + q;
            let end = ext_right(last);
            // The `n` best tiles: the `c3` best tripled, the next `c2` doubled, the rest once
            // (`c3 + c2 <= n`: they count the window's own squares), which is
            // `3 top[c3] + 2 (top[c3 + c2] - top[c3]) + (top[n] - top[c3 + c2])`.
            debug_assert!(c3 + c2 <= n && n <= k);
            let letters = (top[c3] + top[c3 + c2] + top[n]).min(mfit);
            let bound = (board[end + 1] - board[start] + letters) * w
                + xc
                + (xmax * top[x.min(n)]).min(xfit)
                + if n == bingo_at {
                    tilebag_core::play::BINGO_BONUS
                } else {
                    0
                };
            let v = bound as f32 + bonus[n.min(15)];
            if n < report_from {
                best = best.max(v);
            } else {
                window(start, end, v);
            }
            if q >= nr || n >= k {
                break;
            }
            let r = rights[q];
            q += 1;
            last = r;
            let f = fits[r] * ld.lm[r];
            mfit += f;
            if ld.xscore[r] >= 0 {
                xfit += f * ld.wm[r];
            }
            w *= ld.wm[r];
            match ld.lm[r] {
                3 => c3 += 1,
                2 => c2 += 1,
                1 => {}
                _ => return f32::INFINITY,
            }
            if ld.xscore[r] >= 0 {
                x += 1;
                xc += ld.xscore[r] * ld.wm[r];
                xmax = xmax.max(ld.lm[r] * ld.wm[r]);
            }
        }
    }
    best
}

/// The best placement by score (ties: the first found), or None when there is none; the same
/// score as the best of [`generate`], found without walking every placement. Each anchor gets
/// an upper bound on what any placement from it can score ([`anchor_bound`], no lexicon
/// needed), and so does each window a full rack could fill (a bingo); they are searched from the
/// highest bound down, and the search stops at the first whose bound cannot beat the best
/// placement found so far. With a full rack the bingos are searched window by window, only in a
/// window whose tiles and board letters may be the letters of a word (the lexicon's anagram
/// filter, [`bingo_may_exist`]; most racks make no bingo), by looking its words up
/// ([`Line::window_words`]), and an anchor is walked for its placements of fewer tiles only: the
/// bingo bonus no longer keeps every open anchor alive, nor makes its walk go on to seven
/// tiles.
pub fn best_by_score(
    prep: &Prepared,
    rack: &Rack,
    graphs: &Graphs<'_>,
    t: &Tables,
    opts: GenOptions,
) -> Option<Move> {
    best_by_value(prep, rack, graphs, t, opts, 0.0, &mut |c| c.score as f32).map(|(m, _)| m)
}

/// The placement with the highest `value` (ties: the first found) and that value, where
/// `value(c)` is at most `c.score + bonus_max` for every placement: the search of
/// [`best_by_score`] with the bound raised by `bonus_max` (the endgame's reply search adds what
/// going out or being stuck is worth).
pub fn best_by_value<V: FnMut(&Candidate<'_>) -> f32>(
    prep: &Prepared,
    rack: &Rack,
    graphs: &Graphs<'_>,
    t: &Tables,
    opts: GenOptions,
    bonus_max: f32,
    value: &mut V,
) -> Option<(Move, f32)> {
    best_by_value_per_tiles(prep, rack, graphs, t, opts, &[bonus_max; 16], value)
}

/// As [`best_by_value`], with a bonus bound per number of tiles played: `value(c)` is at most
/// `c.score + bonus[c.tiles]` (the static player's bonus is the best leave keeping the rest of
/// the rack, so a move that plays many tiles is not credited with the value of keeping many).
pub fn best_by_value_per_tiles<V: FnMut(&Candidate<'_>) -> f32>(
    prep: &Prepared,
    rack: &Rack,
    graphs: &Graphs<'_>,
    t: &Tables,
    opts: GenOptions,
    bonus: &[f32; 16],
    value: &mut V,
) -> Option<(Move, f32)> {
    let root = graphs.auto.gaddag_root();
    if rack.is_empty() || root == 0 {
        return None;
    }
    let index = LeaveIndex::new(rack);
    let (top, k) = top_values(rack, t);
    let rack_letters = rack_bits(&rack.counts) & !1;
    let usable = if rack.counts[usize::from(BLANK)] > 0 {
        ALL_LETTERS
    } else {
        rack_letters
    };
    // What to search, best bound first: an anchor's placements (`ANCHOR`: direction, line,
    // anchor, left limit), or the bingos of one window (`WINDOW`: direction, line, first and
    // last square of the word). With a full rack the bingos are searched window by window and
    // the anchors' walks stop one tile short: the bingo bonus lifts the bound of every window a
    // rack could fill, and few of them hold a word, so an anchor is walked only for what its
    // smaller placements may score. (More than two blanks, which no English bag holds, are
    // walked: the anagram lookups know at most two.)
    //
    // (Earlier the windows of six tiles or more of a rack without a blank were looked up too,
    // choice of tiles by choice, and a blank was found by lookup rather than walked; since the
    // walk begins on the board tiles next to its anchor ([`Line::run_anchor`]) walking them is
    // cheaper: over the shared corpus 29.6 µs a position against 34.8 µs.)
    const ANCHOR: u8 = 0;
    const WINDOW: u8 = 1;
    let bingo_windows = rack.len() == t.rack_size && rack.counts[usize::from(BLANK)] <= 2;
    let report_from = if bingo_windows {
        t.rack_size
    } else {
        usize::MAX
    };
    let mut lines: [Option<LineData>; 2 * N] = [None; 2 * N];
    let mut items: Vec<(f32, u8, u8, u8, u8, u8)> = Vec::with_capacity(256);
    for &d in directions(prep, opts) {
        for r in 0..N {
            let Some(ld) = line_data(prep, d, r, t) else {
                continue;
            };
            let fits = fits(&ld, rack_letters, &t.values);
            for (a, limit) in ld.anchors_with_limits() {
                if ld.mask[a] & usable == 0 {
                    continue;
                }
                let b = anchor_bound(
                    &ld,
                    a,
                    limit,
                    &top,
                    k,
                    usable,
                    t,
                    bonus,
                    &fits,
                    report_from,
                    &mut |start, end, v| {
                        items.push((v, WINDOW, d as u8, r as u8, start as u8, end as u8));
                    },
                );
                items.push((b, ANCHOR, d as u8, r as u8, a as u8, limit as u8));
            }
            lines[d * N + r] = Some(ld);
        }
    }
    let order = best_first(items.iter().map(|i| i.0));
    // The best placement so far; `floor`, its value, is what the walks and lookups must beat.
    let mut best: Option<(Move, f32)> = None;
    let floor = Cell::new(f32::NEG_INFINITY);
    let mut sink = |c: &Candidate<'_>| {
        let v = value(c);
        if v > floor.get() {
            floor.set(v);
            best = Some((Move::from_candidate(c), v));
        }
    };
    for (bound, kind, d, r, x, y) in order.map(|i| items[i]) {
        if bound <= floor.get() {
            break;
        }
        let (d, r, x, y) = (
            usize::from(d),
            usize::from(r),
            usize::from(x),
            usize::from(y),
        );
        let Some(ld) = &lines[d * N + r] else {
            continue;
        };
        if kind == WINDOW && !bingo_may_exist(graphs, rack, &ld.cells[x..=y]) {
            continue;
        }
        let mut line = Line::new(ld, d, r, rack, &index, graphs, t, &mut sink);
        if kind == WINDOW {
            // The words of the window's letters, straight from the lexicon's anagram lists,
            // each tried against the squares.
            line.window_words(x, y, graphs.lex.anagrams());
        } else {
            // An unbounded anchor (a premium the bound does not rank) did not report its
            // windows: it is walked in full.
            if bingo_windows && bound.is_finite() {
                line.rack_total -= 1;
            }
            line.run_anchor(x, y, root);
        }
    }
    best
}

/// The indices of `bounds`, highest bound first (equal bounds in their order): a sort of one
/// `u64` key per item, the bound's bits made to order as numbers do (as `f32::total_cmp`), then
/// the index.
fn best_first(bounds: impl ExactSizeIterator<Item = f32>) -> impl Iterator<Item = usize> {
    let mut keys: Vec<u64> = Vec::with_capacity(bounds.len());
    for (i, b) in bounds.enumerate() {
        let bits = b.to_bits();
        // Negative numbers: all bits flipped; others: the sign bit set. Then higher is larger.
        let up = if bits >> 31 == 1 {
            !bits
        } else {
            bits | 1 << 31
        };
        keys.push(u64::from(!up) << 32 | i as u64);
    }
    keys.sort_unstable();
    keys.into_iter().map(|k| (k & 0xffff_ffff) as usize)
}

/// Whether some word may be an anagram of all the rack's tiles (at most two blanks) and the
/// board tiles `cells`: the lexicon's anagram filter answers at once (its "no" is certain).
fn bingo_may_exist(graphs: &Graphs<'_>, rack: &Rack, cells: &[u8]) -> bool {
    let blanks = rack.counts[usize::from(BLANK)];
    let mut counts = rack.counts;
    counts[usize::from(BLANK)] = 0;
    for &cell in cells {
        if cell != 0 {
            counts[usize::from(cell & CODE_MASK)] += 1;
        }
    }
    graphs.lex.anagrams().may_hold(&counts, blanks)
}

/// This thread's CPU time in nanoseconds (Linux: `/proc/thread-self/schedstat`; 0 elsewhere).
/// Benchmarks report it beside wall time, since on a shared machine the wall clock counts the
/// time other processes ran.
pub fn thread_cpu_ns() -> u64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

/// A population count, the walk's way to find a child's slot (see [`tilebag_lexicon::automaton`]).
/// The default x86-64 target has no `popcnt` instruction, so Rust's `count_ones` is a dozen
/// instructions there; the walk is compiled twice, and takes the instruction when the CPU has
/// it ([`hardware_popcount`], checked once per anchor from a cached flag).
trait Pop {
    fn count(x: u32) -> u32;
}

/// `count_ones` as the target compiles it.
struct SoftPop;

impl Pop for SoftPop {
    #[inline(always)]
    fn count(x: u32) -> u32 {
        x.count_ones()
    }
}

/// The `popcnt` instruction (only used when the CPU has it).
struct HardPop;

impl Pop for HardPop {
    #[inline(always)]
    fn count(x: u32) -> u32 {
        #[cfg(target_arch = "x86_64")]
        {
            let r: u32;
            // SAFETY: only reached when `hardware_popcount()` found the instruction; it reads
            // and writes registers only (and the flags, which `asm!` assumes clobbered).
            unsafe {
                core::arch::asm!(
                    "popcnt {0:e}, {1:e}",
                    lateout(reg) r,
                    in(reg) x,
                    options(pure, nomem, nostack)
                );
            }
            r
        }
        #[cfg(not(target_arch = "x86_64"))]
        {
            x.count_ones()
        }
    }
}

/// Whether this CPU has the `popcnt` instruction (std caches the answer).
#[inline(always)]
fn hardware_popcount() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("popcnt")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

#[cfg(test)]
mod pop_tests {
    use super::*;

    /// The `popcnt` instruction counts what `count_ones` counts (child slots depend on it).
    #[test]
    fn hardware_and_software_population_counts_agree() {
        if !hardware_popcount() {
            eprintln!("skipping: this CPU has no popcnt instruction");
            return;
        }
        let mut x = 0x9E37_79B9u32;
        for i in 0..10_000u32 {
            x = x.rotate_left(5) ^ i.wrapping_mul(0x85EB_CA6B);
            assert_eq!(HardPop::count(x), SoftPop::count(x), "{x:#x}");
        }
        for x in [0, 1, u32::MAX, (1 << 27) - 1, 0x8000_0000] {
            assert_eq!(HardPop::count(x), x.count_ones(), "{x:#x}");
        }
    }
}

#[cfg(test)]
mod bingo_tests {
    use super::*;
    use crate::cgp::CgpPosition;

    /// The GADDAG's answer, the oracle the anagram filter is tested against: whether some word is an anagram of all the rack's tiles (blanks standing for any letter)
    /// and the board tiles `cells` (empty squares ignored). The word holds the multiset's most
    /// valuable real letter `x` (the rarest, as a rule): the GADDAG is walked from `x` leftwards and,
    /// after a separator, rightwards, taking only letters still in the multiset (a real tile before
    /// a blank), so only the contexts of that letter are tried.
    fn bingo_word_exists(auto: &Automaton, rack: &Rack, cells: &[u8], values: &[i32; 27]) -> bool {
        let mut counts = rack.counts;
        let blanks = counts[usize::from(BLANK)];
        counts[usize::from(BLANK)] = 0;
        let mut len = rack.len();
        for &cell in cells {
            if cell != 0 {
                counts[usize::from(cell & CODE_MASK)] += 1;
                len += 1;
            }
        }
        if !(2..=N).contains(&len) {
            return true;
        }
        let Some(x) = (1..27)
            .filter(|&c| counts[c] > 0)
            .max_by_key(|&c| (values[c], std::cmp::Reverse(c)))
        else {
            return true;
        };
        let t = auto.table();
        let Some((node, _)) = child_with::<SoftPop>(t, auto.gaddag_root(), x as u8) else {
            return false;
        };
        counts[x] -= 1;
        let have = rack_bits(&counts);
        if hardware_popcount() {
            anagram_step::<HardPop>(t, node, &mut counts, have, blanks, len - 1)
        } else {
            anagram_step::<SoftPop>(t, node, &mut counts, have, blanks, len - 1)
        }
    }

    /// The step of [`bingo_word_exists`]: `left` letters still to place (at least 1) from `counts`
    /// (`have`: their bits) and `blanks`, from node `node`. Left of the walk's first letter that is
    /// a GADDAG node, whose separator (its first child) leads right into the DAWG; a DAWG node has
    /// no separator, so the same step serves both sides.
    fn anagram_step<P: Pop>(
        t: &[u32],
        node: u32,
        counts: &mut [u8; 27],
        have: u32,
        blanks: u8,
        left: usize,
    ) -> bool {
        let n = node as usize;
        let set = t[n];
        // The word may go on right of the letter: the separator is the first child.
        if set & 1 != 0 {
            let d = t[n + 2];
            if d != 0 && anagram_step::<P>(t, d, counts, have, blanks, left) {
                return true;
            }
        }
        let letters = set & ALL_LETTERS;
        let want = if blanks > 0 { letters } else { letters & have };
        if left == 1 {
            // The word ends with this letter.
            return t[n + 1] & want != 0;
        }
        let mut w = want;
        while w != 0 {
            let l = w.trailing_zeros() as usize;
            w &= w - 1;
            let next = t[n + 2 + P::count(set & ((1u32 << l) - 1)) as usize];
            if next == 0 {
                continue;
            }
            let found = if counts[l] > 0 {
                counts[l] -= 1;
                let h = if counts[l] == 0 {
                    have & !(1 << l)
                } else {
                    have
                };
                let f = anagram_step::<P>(t, next, counts, h, blanks, left - 1);
                counts[l] += 1;
                f
            } else {
                anagram_step::<P>(t, next, counts, have, blanks - 1, left - 1)
            };
            if found {
                return true;
            }
        }
        false
    }

    /// The shared corpus's positions (`../shared/positions/corpus.cgp`), or None (and a line
    /// saying the test skips) where it is absent.
    fn shared_corpus() -> Option<String> {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/positions/corpus.cgp"
        );
        let text = std::fs::read_to_string(path).ok();
        if text.is_none() {
            eprintln!("skipping: {path} is absent");
        }
        text
    }

    /// Asserts that the best by score equals the best of every placement, for each of `racks`
    /// on every `step`-th board of the corpus, under `t`'s rack size; returns how often that
    /// best plays a whole rack (a bingo).
    fn best_by_score_equals_the_full_list(
        text: &str,
        t: &Tables,
        step: usize,
        racks: &[&str],
    ) -> usize {
        let g = &Graphs::of(Lexicon::builtin_enable());
        let mut bingos = 0;
        for (i, line) in text.lines().enumerate().step_by(step) {
            let Ok(p) = CgpPosition::parse(line, &Tables::english()) else {
                continue;
            };
            let prep = Prepared::new(&p.grid, g, t);
            for &r in racks {
                let rack = Rack::parse(r).unwrap();
                let mut best: Option<(i32, u8)> = None;
                generate(&prep, &rack, g, t, GenOptions::default(), &mut |c| {
                    if best.is_none_or(|b| c.score > b.0) {
                        best = Some((c.score, c.tiles));
                    }
                });
                let found = best_by_score(&prep, &rack, g, t, GenOptions::default());
                assert_eq!(
                    found.map(|m| m.score),
                    best.map(|b| b.0),
                    "position {}, rack {r}",
                    i + 1
                );
                bingos += usize::from(best.is_some_and(|b| usize::from(b.1) == t.rack_size));
            }
        }
        bingos
    }

    /// The anagram test behind the bingo windows of [`anchor_bound`]: rack alone, through board
    /// tiles, and with a blank.
    #[test]
    fn bingo_words_are_found_by_anagram() {
        let lex = Lexicon::builtin_enable();
        let auto = lex.automaton();
        let t = Tables::english();
        let rack = |s: &str| Rack::parse(s).unwrap();
        let cells = |s: &str| -> Vec<u8> {
            // '.' is an empty square, which the test ignores.
            s.bytes()
                .map(|b| if b == b'.' { 0 } else { b - b'A' + 1 })
                .collect()
        };
        let v = &t.values;
        // (rack, the window: board letters and empty squares, whether a word fills it)
        let cases = [
            ("AEINRST", ".......", true),
            ("AEINRS?", ".......", true),
            ("BCDFGHK", ".......", false),
            // Through one board tile: ANGRIEST; nothing with a Q and no U.
            ("AEINRST", "...G....", true),
            ("AEINRST", "...Q....", false),
            // EQUATION, the blank as any letter it needs.
            ("EUATION", "Q.......", true),
            ("E?ATION", "Q.......", true),
            ("EZATION", "Q.......", false),
            // Through two: MARTINETS.
            ("AEINRST", "M..T.......", true),
        ];
        for (r, window, word) in cases {
            assert_eq!(
                bingo_word_exists(auto, &rack(r), &cells(window), v),
                word,
                "{r} in {window}"
            );
        }
    }

    /// The lexicon's anagram filter ([`bingo_may_exist`]) gives the GADDAG walk's answer on
    /// 20,000 random racks (none, one or two blanks) and windows of up to three board letters,
    /// drawn from the English bag's letters: never "no" where a word exists, and "yes" only
    /// where one does (a hash collision would show here).
    #[test]
    fn anagram_filter_agrees_with_the_walk() {
        let lex = Lexicon::builtin_enable();
        let g = Graphs::of(lex);
        let t = Tables::english();
        // The English distribution's letters, so that racks look like real ones.
        let bag: Vec<u8> = "AAAAAAAAABBCCDDDDEEEEEEEEEEEEFFGGGHHIIIIIIIIIJKLLLLMMNNNNNNOOOOOOOOPPQRRRRRRSSSSTTTTTTUUUUVVWWXYYZ"
            .bytes()
            .map(|b| b - b'A' + 1)
            .collect();
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut next = |n: usize| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % n as u64) as usize
        };
        let (mut yes, mut cases) = (0, 0);
        for i in 0..20_000 {
            let blanks = i % 3;
            let mut rack = Rack::default();
            rack.counts[usize::from(BLANK)] = blanks as u8;
            for _ in blanks..7 {
                rack.counts[usize::from(bag[next(bag.len())])] += 1;
            }
            let mut cells = vec![0u8; 7 + next(4)];
            for c in cells.iter_mut().skip(7) {
                *c = bag[next(bag.len())];
            }
            let walk = bingo_word_exists(g.auto, &rack, &cells, &t.values);
            assert_eq!(
                bingo_may_exist(&g, &rack, &cells),
                walk,
                "{rack:?} {cells:?}"
            );
            yes += usize::from(walk);
            cases += 1;
        }
        // Both answers occur often enough for the comparison to mean something.
        assert!(yes > 2_000 && cases - yes > 2_000, "{yes} of {cases}");
    }

    /// Every bingo window of the shared corpus's boards (the windows [`anchor_bound`] reports),
    /// with racks of none, one and two blanks: the placements [`Line::window_words`] finds in
    /// the anagram lists are exactly the full generator's placements of the whole rack on that
    /// window, each with the same score and leave index (a blank on each square it may take,
    /// two alike on two squares, never one placement twice).
    #[test]
    fn shared_corpus_window_words_are_the_generators_bingos_of_the_window() {
        let Some(text) = shared_corpus() else {
            return;
        };
        let lex = Lexicon::builtin_enable();
        let g = &Graphs::of(lex);
        let t = Tables::english();
        let racks = [
            "AEINRST", "AEINRS?", "ERS??AT", "EE??RST", "ADEGINR", "EIORSTU",
        ];
        let key = |c: &Candidate<'_>| {
            let m = Move::from_candidate(c);
            (
                format!(
                    "{:?} {} {} {:?}",
                    m.direction,
                    m.row,
                    m.col,
                    &m.tiles[..usize::from(m.len)]
                ),
                c.score,
                c.used,
            )
        };
        let (mut windows, mut found) = (0, 0);
        for (i, line) in text.lines().enumerate().step_by(5) {
            let Ok(p) = CgpPosition::parse(line, &t) else {
                continue;
            };
            let prep = Prepared::new(&p.grid, g, &t);
            for r in racks {
                let rack = Rack::parse(r).unwrap();
                let index = LeaveIndex::new(&rack);
                let mut all = Vec::new();
                generate(&prep, &rack, g, &t, GenOptions::default(), &mut |c| {
                    if c.tiles == 7 {
                        all.push((c.direction, c.line, c.start, c.end, key(c)));
                    }
                });
                let (top, k) = top_values(&rack, &t);
                for &d in directions(&prep, GenOptions::default()) {
                    for row in 0..N {
                        let Some(ld) = line_data(&prep, d, row, &t) else {
                            continue;
                        };
                        let mut spans = Vec::new();
                        for (a, limit) in ld.anchors_with_limits() {
                            anchor_bound(
                                &ld,
                                a,
                                limit,
                                &top,
                                k,
                                ALL_LETTERS,
                                &t,
                                &[0.0; 16],
                                &fits(&ld, ALL_LETTERS, &t.values),
                                t.rack_size,
                                &mut |s, e, _| spans.push((s, e)),
                            );
                        }
                        spans.sort_unstable();
                        spans.dedup();
                        for (s, e) in spans {
                            windows += 1;
                            let mut got = Vec::new();
                            let mut sink = |c: &Candidate<'_>| got.push(key(c));
                            let mut line = Line::new(&ld, d, row, &rack, &index, g, &t, &mut sink);
                            line.window_words(s, e, lex.anagrams());
                            let dir = if d == 0 {
                                Direction::Across
                            } else {
                                Direction::Down
                            };
                            let mut want: Vec<_> = all
                                .iter()
                                .filter(|w| {
                                    (w.0, usize::from(w.1), usize::from(w.2), usize::from(w.3))
                                        == (dir, row, s, e)
                                })
                                .map(|w| w.4.clone())
                                .collect();
                            got.sort();
                            want.sort();
                            assert_eq!(
                                got,
                                want,
                                "position {}, rack {r}, {dir:?} line {row}, squares {s}..={e}",
                                i + 1
                            );
                            found += got.len();
                        }
                    }
                }
            }
        }
        assert!(
            windows > 1000 && found > 200,
            "{windows} windows, {found} bingos"
        );
    }

    /// With one blank: the best by score, and the best by a value that adds a bonus per tile
    /// count, equal the best of every placement, for full racks that make no bingo, short racks
    /// (the end of a game) and the blank alone, and the best often uses the blank.
    #[test]
    fn shared_corpus_best_with_one_blank_equals_the_full_list() {
        let Some(text) = shared_corpus() else {
            return;
        };
        let lex = Lexicon::builtin_enable();
        let g = &Graphs::of(lex);
        let t = Tables::english();
        // A value that favours few tiles, as a leave does: at most the score plus bonus[tiles].
        let bonus: [f32; 16] = std::array::from_fn(|n| 12.0 - 2.0 * n as f32);
        let value = |c: &Candidate<'_>| c.score as f32 + 12.0 - 2.0 * f32::from(c.tiles);
        let mut with_blank = 0;
        for (i, line) in text.lines().enumerate().step_by(6) {
            let Ok(p) = CgpPosition::parse(line, &t) else {
                continue;
            };
            let prep = Prepared::new(&p.grid, g, &t);
            for r in ["?", "E?", "Q?", "?AEIOU", "QXZ?III", "JK?UUVW", "?SSVVWW"] {
                let rack = Rack::parse(r).unwrap();
                let (mut best, mut best_v): (Option<(i32, bool)>, Option<f32>) = (None, None);
                generate(&prep, &rack, g, &t, GenOptions::default(), &mut |c| {
                    if best.is_none_or(|b| c.score > b.0) {
                        let blank = c.placed.iter().any(|&b| b & BLANK_BIT != 0);
                        best = Some((c.score, blank));
                    }
                    let v = value(c);
                    if best_v.is_none_or(|b| v > b) {
                        best_v = Some(v);
                    }
                });
                let found = best_by_score(&prep, &rack, g, &t, GenOptions::default());
                assert_eq!(
                    found.map(|m| m.score),
                    best.map(|b| b.0),
                    "position {}, rack {r}",
                    i + 1
                );
                let found_v = best_by_value_per_tiles(
                    &prep,
                    &rack,
                    g,
                    &t,
                    GenOptions::default(),
                    &bonus,
                    &mut |c| value(c),
                );
                assert_eq!(
                    found_v.map(|m| m.1),
                    best_v,
                    "position {}, rack {r}, by value",
                    i + 1
                );
                with_blank += usize::from(best.is_some_and(|b| b.1));
            }
        }
        assert!(with_blank > 100, "{with_blank}");
    }

    /// A ruleset with a six-tile rack: its bingos are six-tile plays, whose windows are looked
    /// up as a seven-tile rack's are; the best by score still equals the best of every
    /// placement.
    #[test]
    fn shared_corpus_best_by_score_with_six_tile_racks_equals_the_full_list() {
        let Some(text) = shared_corpus() else {
            return;
        };
        let t = Tables::new(
            &tilebag_core::Layout::standard(),
            &tilebag_core::TileSet::english(),
            6,
        )
        .unwrap();
        let racks = ["AEINRS", "AEINR?", "ERS??A", "ADEGIN"];
        let bingos = best_by_score_equals_the_full_list(&text, &t, 9, &racks);
        assert!(bingos > 20, "{bingos}");
    }

    /// The best by score with bingo-prone racks (with and without blanks) on the shared corpus's
    /// boards equals the best of every placement: bingo windows ruled out by the anagram test
    /// hold no bingo.
    #[test]
    fn shared_corpus_best_by_score_with_bingo_racks_equals_the_full_list() {
        let Some(text) = shared_corpus() else {
            return;
        };
        let racks = [
            "AEINRST", "AEINRS?", "ERS??AT", "EIORSTU", "ADEGINR", "CEIKLST",
        ];
        let bingos = best_by_score_equals_the_full_list(&text, &Tables::english(), 7, &racks);
        assert!(bingos > 50, "{bingos}");
    }
}
