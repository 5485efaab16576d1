//! The evaluator: every move of a position with its equity, and the static player's choice.
//!
//! Equity is the score plus the value of the tiles kept ([`crate::leave_table`]), while the bag holds
//! tiles. With the bag empty the opponent's rack is known (it is every unseen tile), and leave
//! values mean nothing: the choice is then searched exactly two plies deep (our move, then the
//! opponent's best reply), counting the rack adjustment of whoever goes out
//! ([`Engine::endgame_best`]).

use crate::cgp::CgpPosition;
use crate::grid::{Grid, Tables, TablesError, N};
use crate::leave_table::{LeaveModel, LeaveTable};
use crate::movegen::{generate, GenOptions, Graphs, LeaveIndex, Prepared};
use crate::moves::{Move, MoveKind};
use crate::rack::Rack;
use tilebag_core::Direction;
use tilebag_core::{Game, Ruleset};
use tilebag_lexicon::Lexicon;

/// A position as one seat sees it: nothing the rules hide from that seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Situation {
    pub grid: Grid,
    pub rack: Rack,
    /// The tiles this seat cannot see: the opponent's rack and the bag together.
    pub unseen: Rack,
    pub bag_len: usize,
    /// This seat's score first.
    pub scores: [i32; 2],
    /// Consecutive scoreless turns so far.
    pub zeros: u32,
}

impl Situation {
    /// The seat's view of a game: its own rack, and the unseen tiles as a multiset (never the
    /// opponent's rack or the bag's order).
    pub fn from_game(game: &Game, seat: usize) -> Situation {
        let unseen = Rack::from_tiles(&game.unseen_for(seat));
        let s = game.scores();
        Situation {
            grid: Grid::from_board(game.board()),
            rack: Rack::from_tiles(game.rack(seat)),
            unseen,
            bag_len: game.bag_len(),
            scores: [s[seat], s[1 - seat]],
            zeros: game.zero_run(),
        }
    }

    /// A CGP position (the bag is what the unseen tiles leave after a full opponent rack).
    pub fn from_cgp(p: &CgpPosition, t: &Tables) -> Situation {
        let unseen = p.unseen(t);
        Situation {
            grid: p.grid.clone(),
            rack: p.rack,
            bag_len: unseen.len().saturating_sub(t.rack_size),
            unseen,
            scores: p.scores,
            zeros: p.zeros,
        }
    }
}

/// Why an engine cannot be made for a game.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum EngineError {
    #[error("{0}")]
    Tables(#[from] TablesError),
}

/// Move generation and evaluation for one lexicon and ruleset.
#[derive(Clone, Copy)]
pub struct Engine<'a> {
    pub lexicon: &'a Lexicon,
    pub graphs: Graphs<'a>,
    pub tables: &'a Tables,
    /// The value of every leave (see [`crate::leave_table`]).
    pub leaves: &'a LeaveTable,
    /// Tiles the bag must hold for an exchange (NASPA IV.E.2.a: 7; WESPA 3.2.1: 7).
    pub exchange_min_bag: usize,
}

impl<'a> Engine<'a> {
    /// `leaves`: a [`LeaveTable`] (e.g. read from a `.klv2` file), or the weights model
    /// [`crate::Leaves`] (its table is made on first use and kept with it).
    pub fn new<L: LeaveModel + ?Sized>(
        lexicon: &'a Lexicon,
        tables: &'a Tables,
        leaves: &'a L,
        exchange_min_bag: usize,
    ) -> Engine<'a> {
        Engine {
            lexicon,
            graphs: Graphs::of(lexicon),
            tables,
            leaves: leaves.leave_table(),
            exchange_min_bag,
        }
    }

    /// The tables for a ruleset (the standard board and English tiles only).
    pub fn tables_for(ruleset: &Ruleset) -> Result<Tables, EngineError> {
        let set = tilebag_core::TileSet::english();
        if ruleset.tile_set != set.name {
            return Err(TablesError::TileSet(ruleset.tile_set.clone()).into());
        }
        Ok(Tables::new(
            &tilebag_core::Layout::standard(),
            &set,
            ruleset.rack_size,
        )?)
    }

    /// Every placement of the rack, with equity; plus exchanges (when the bag allows) and a pass.
    /// Sorted by equity, best first.
    pub fn moves(&self, s: &Situation) -> Vec<Move> {
        let prep = Prepared::new(&s.grid, &self.graphs, self.tables);
        self.moves_prepared(s, &prep, true)
    }

    /// As [`Engine::moves`], on a board already prepared.
    pub fn moves_prepared(&self, s: &Situation, prep: &Prepared, others: bool) -> Vec<Move> {
        let index = LeaveIndex::new(&s.rack);
        let endgame = s.bag_len == 0;
        let opp_value = if endgame {
            s.unseen.value(&self.tables.values)
        } else {
            0
        };
        let mut leave_vals: Vec<f32> = Vec::with_capacity(index.size);
        if endgame {
            leave_vals.extend((0..index.size).map(|u| {
                let used = index.used_rack(&s.rack, u as u16);
                let kept = s.rack.minus(&used);
                if kept.is_empty() {
                    2.0 * opp_value as f32
                } else {
                    // Tiles left when the bag is empty may be stuck: count them against us.
                    -2.0 * kept.value(&self.tables.values) as f32
                }
            }));
        } else {
            self.leaves
                .rack_leaves(&s.rack, &mut leave_vals, &mut [0f32; 16]);
        }
        let mut out = Vec::with_capacity(1024);
        generate(
            prep,
            &s.rack,
            &self.graphs,
            self.tables,
            GenOptions::default(),
            &mut |c| {
                let mut m = Move::from_candidate(c);
                m.equity = c.score as f32 + leave_vals[usize::from(c.used)];
                out.push(m);
            },
        );
        if others {
            if s.bag_len >= self.exchange_min_bag && !s.rack.is_empty() {
                for used in sub_racks(&s.rack) {
                    let kept = s.rack.minus(&used);
                    let mut m = Move::exchange(&used);
                    m.equity = self.leaves.value(&kept);
                    out.push(m);
                }
            }
            let mut pass = Move::pass();
            pass.equity = if endgame {
                -2.0 * s.rack.value(&self.tables.values) as f32
            } else {
                self.leaves.value(&s.rack) - 30.0
            };
            out.push(pass);
        }
        out.sort_by(|a, b| b.equity.total_cmp(&a.equity));
        out
    }

    /// The static player's move: best equity, or with the bag empty the 2-ply endgame search.
    pub fn best(&self, s: &Situation) -> Move {
        if s.bag_len == 0 && !s.unseen.is_empty() {
            return self.endgame_best(s);
        }
        self.best_static(s)
    }

    /// Best move with the bag empty, solved exactly two plies deep: the move of ours (every
    /// placement, and the pass; an exchange is not allowed with the bag empty, NASPA IV.E.2.a,
    /// WESPA 3.2.1) whose [`Engine::endgame_value`] is highest, that value being our score less
    /// the opponent's best reply (every placement of their known rack, and the pass). A move
    /// that goes out gains twice the opponent's rack (the spread effect under either
    /// end-of-game rule: NASPA V.G.1, WESPA 5.1.4); a reply that goes out gains twice what we
    /// kept. Where neither goes out within the two plies, the tiles still held are counted
    /// once against their holder. Nothing beyond the second ply is searched (a third move, the
    /// six-zero ending, the opponent being stuck for several turns).
    ///
    /// Exact, not sampled: the result's value equals the maximum of `endgame_value` over all
    /// our moves (the `endgame` tests check it against brute force). It stays fast because
    /// each move has a sound optimistic value, and the moves are searched from the highest
    /// down, stopping at the first whose optimistic value cannot beat the best found. A move
    /// that goes out is worth exactly its score plus twice the opponent's rack. Any other is
    /// worth at most its score less the least the opponent's best reply can be: their pass, or
    /// any reply they have on the board as it stands that our move leaves alone (no tile of
    /// ours on or next to a word it forms), which is still theirs afterwards with the same
    /// score (see `ReplyFloor` below). Ties go to the move found first.
    pub fn endgame_best(&self, s: &Situation) -> Move {
        let values = &self.tables.values;
        let opp_total = s.unseen.value(values);
        let prep = Prepared::new(&s.grid, &self.graphs, self.tables);
        let floor = ReplyFloor::new(self, s, &prep);
        let mut cands: Vec<(i32, Move)> = self
            .moves_prepared(s, &prep, true)
            .into_iter()
            .filter(|m| m.kind != MoveKind::Exchange)
            .map(|m| {
                let kept = s.rack.minus(&m.used());
                let bound = if kept.is_empty() {
                    m.score + 2 * opp_total
                } else {
                    m.score - floor.at_least(&m, kept.value(values))
                };
                (bound, m)
            })
            .collect();
        // Stable: equal bounds keep the order of `moves`.
        cands.sort_by_key(|c| -c.0);
        let mut best: Option<Move> = None;
        for (bound, mut m) in cands {
            if best.as_ref().is_some_and(|b| bound as f32 <= b.equity) {
                break;
            }
            let v = self.endgame_value(s, &m);
            if best.as_ref().is_none_or(|b| v > b.equity) {
                m.equity = v;
                best = Some(m);
            }
        }
        best.unwrap_or_else(Move::pass)
    }
}

/// A lower bound on the opponent's best reply to any move of ours, from their replies on the
/// board as it stands (bag empty, their rack known). A reply stays legal, with the same score,
/// after a move of ours that puts no tile in its area: the squares of every word it forms
/// (its main word and the cross-word through each tile it places) and the squares around them,
/// so none of its words is lengthened, joined or blocked and no new word is formed.
struct ReplyFloor {
    /// Replies that go out (worth their score plus twice what we kept), best first:
    /// (score, area).
    out: Vec<(i32, Area)>,
    /// Replies that do not (worth their score less what they keep plus what we kept), best
    /// first: (score less the value of the tiles they keep, area).
    rest: Vec<(i32, Area)>,
    /// The opponent's rack's value (passing keeps it all).
    opp_total: i32,
}

/// Rows `0..=1` and columns `2..=3` of a rectangle of squares, inclusive.
pub(crate) type Area = [u8; 4];

/// Whether move `m` puts no tile in `area` (so a reply whose area it is stays legal, with the
/// same score, after `m`: see [`ReplyFloor`]).
pub(crate) fn leaves_alone(m: &Move, area: &Area) -> bool {
    (0..usize::from(m.len)).all(|i| {
        if m.kind != MoveKind::Place || m.tiles[i] == 0 {
            return true;
        }
        let (r, c) = m.square(i);
        let (r, c) = (r as u8, c as u8);
        !(area[0] <= r && r <= area[1] && area[2] <= c && c <= area[3])
    })
}

/// Replies looked at per move of ours, at most (the bound stays sound with fewer).
const FLOOR_SCAN: usize = 48;

impl ReplyFloor {
    fn new(engine: &Engine<'_>, s: &Situation, prep: &Prepared) -> ReplyFloor {
        let values = &engine.tables.values;
        let opp = s.unseen;
        let opp_total = opp.value(values);
        let index = LeaveIndex::new(&opp);
        let grid = &s.grid;
        let (mut out, mut rest) = (Vec::new(), Vec::new());
        if !opp.is_empty() {
            generate(
                prep,
                &opp,
                &engine.graphs,
                engine.tables,
                GenOptions::default(),
                &mut |c| {
                    let area = reply_area(grid, c);
                    if usize::from(c.tiles) == opp.len() {
                        out.push((c.score, area));
                    } else {
                        let used = index.used_rack(&opp, c.used);
                        rest.push((c.score - (opp_total - used.value(values)), area));
                    }
                },
            );
        }
        out.sort_unstable_by_key(|r| -r.0);
        rest.sort_unstable_by_key(|r| -r.0);
        out.truncate(FLOOR_SCAN);
        rest.truncate(FLOOR_SCAN);
        ReplyFloor {
            out,
            rest,
            opp_total,
        }
    }

    /// The least the opponent's best reply is worth after our move `m`, which keeps tiles worth
    /// `kept_value`: their pass, or the best of their standing replies `m` leaves alone.
    fn at_least(&self, m: &Move, kept_value: i32) -> i32 {
        let mut v = -self.opp_total + kept_value;
        if let Some((score, _)) = self.out.iter().find(|(_, a)| leaves_alone(m, a)) {
            v = v.max(score + 2 * kept_value);
        }
        if let Some((base, _)) = self.rest.iter().find(|(_, a)| leaves_alone(m, a)) {
            v = v.max(base + kept_value);
        }
        v
    }
}

/// The area of a placement (see [`ReplyFloor`]): the rectangle holding its main word and every
/// cross-word it forms, one square wider on every side, clipped to the board.
pub(crate) fn reply_area(grid: &Grid, c: &crate::movegen::Candidate<'_>) -> Area {
    let line = usize::from(c.line);
    let (start, end) = (usize::from(c.start), usize::from(c.end));
    // Along the line: the main word. Across it: the line, and each new tile's cross-word.
    let (mut lo, mut hi) = (line, line);
    for i in start..=end {
        if c.placed[i] == 0 {
            continue;
        }
        let at = |k: usize| match c.direction {
            Direction::Across => grid.get(k, i),
            Direction::Down => grid.get(i, k),
        };
        let mut a = line;
        while a > 0 && at(a - 1) != 0 {
            a -= 1;
        }
        let mut b = line;
        while b + 1 < N && at(b + 1) != 0 {
            b += 1;
        }
        lo = lo.min(a);
        hi = hi.max(b);
    }
    let widen = |a: usize, b: usize| (a.saturating_sub(1) as u8, (b + 1).min(N - 1) as u8);
    let (across_lo, across_hi) = widen(lo, hi);
    let (along_lo, along_hi) = widen(start, end);
    match c.direction {
        Direction::Across => [across_lo, across_hi, along_lo, along_hi],
        Direction::Down => [along_lo, along_hi, across_lo, across_hi],
    }
}

impl Engine<'_> {
    /// The value of one move with the bag empty, solved two plies deep (see
    /// [`Engine::endgame_best`]): the spread it gains against the opponent's best reply, exact
    /// over every reply of theirs (placements and the pass), found by a pruned search.
    pub fn endgame_value(&self, s: &Situation, m: &Move) -> f32 {
        let values = &self.tables.values;
        let opp_rack = s.unseen;
        let kept = s.rack.minus(&m.used());
        let mut v = m.score as f32;
        if kept.is_empty() {
            return v + 2.0 * opp_rack.value(values) as f32;
        }
        let mut grid = s.grid.clone();
        apply(&mut grid, m);
        let prep = Prepared::new(&grid, &self.graphs, self.tables);
        // Their best reply, or their pass (see `Engine::one_ply`).
        v -= self.one_ply(&prep, &opp_rack, kept.value(values));
        v
    }
}

/// Puts a placement's tiles on a grid.
pub fn apply(grid: &mut Grid, m: &Move) {
    if m.kind != MoveKind::Place {
        return;
    }
    for i in 0..usize::from(m.len) {
        let t = m.tiles[i];
        if t != 0 {
            let (r, c) = m.square(i);
            if r < N && c < N {
                grid.set(r, c, t);
            }
        }
    }
}

/// Every distinct non-empty sub-multiset of a rack.
pub fn sub_racks(rack: &Rack) -> Vec<Rack> {
    let index = LeaveIndex::new(rack);
    (1..index.size)
        .map(|u| index.used_rack(rack, u as u16))
        .collect()
}
