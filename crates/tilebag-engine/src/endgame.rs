//! The endgame searched deeper than two plies, while time allows.
//!
//! With the bag empty both racks are known, so the rest of the game is a contest of perfect
//! information. [`Engine::endgame_best`] solves it exactly two plies deep (our move, then the
//! opponent's best reply). [`Engine::endgame_deep`] starts from that choice and searches three
//! plies deep, then four, and so on (iterative deepening with alpha-beta pruning) until its
//! deadline; it keeps the choice of the deepest search that finished in time.
//!
//! Values are spreads from the view of the side to move, as in the two-ply search:
//!
//! - a move that goes out ends the game and gains twice the other side's rack (the spread effect
//!   of the end-of-game rule: NASPA V.G.1, WESPA 5.1.4);
//! - at the search's horizon, each side's tiles still held count once against it;
//! - a pass just after the other side passed ends the line of play there, both racks held:
//!   passing in turn only runs the game into its scoreless-turns ending (NASPA V.B), which
//!   counts each rack against its holder in the same way.
//!
//! The last ply before the horizon is the two-ply search's reply search: the pruned
//! [`crate::movegen::best_by_value_per_tiles`], not a list of every move. After each move of
//! ours, the opponent's replies on the board as it stands that the move leaves alone (no tile on
//! or next to a word they form, so each is still legal with the same score) are tried before
//! every reply is listed: one of them often refutes the move at once. A transposition table
//! keeps what each position's search found (its value at that depth, exact or as a bound, and
//! its best move): the same position reached by another order of the same moves is not
//! searched again, and its best move is searched first in the next, deeper search. Each search
//! is exact for its depth: alpha-beta only skips moves that cannot change the result, and the
//! table gives a value only for the same depth and only where its bound settles it (the
//! `endgame` tests compare three, four and five plies with a plain search over every move, on
//! one thread and on two).
//!
//! The search runs on every core: at each depth the threads share out our moves, each taking
//! the next one not yet taken and searching it above the best value any thread has found so
//! far; each thread keeps its own transposition table.

use crate::engine::{apply, leaves_alone, reply_area, Area, Engine, Situation};
use crate::grid::Grid;
use crate::movegen::{generate, GenOptions, LeaveIndex, Prepared};
use crate::moves::{Move, MoveKind};
use crate::rack::Rack;
use std::collections::HashMap;
use std::sync::atomic::{AtomicI32, AtomicUsize, Ordering};
use std::time::Instant;

/// What [`Engine::endgame_deep`] chose.
#[derive(Clone, Copy, Debug)]
pub struct DeepEndgame {
    /// The move; its `equity` is its value at `depth` plies.
    pub best: Move,
    /// Plies searched by the search that chose it (2: only the two-ply search finished).
    pub depth: usize,
    /// Positions the deeper searches expanded (each one lists every move of its side).
    pub nodes: u64,
    /// Positions whose value the transposition table gave without a search (met again by
    /// another order of the same moves).
    pub transpositions: u64,
}

/// Plies searched at most.
pub const MAX_DEPTH: usize = 8;

/// The opponent's standing replies tried first after each move of ours (see
/// [`Engine::endgame_deep`]).
const HINTS: usize = 3;

struct Deep<'e, 'a> {
    engine: &'e Engine<'a>,
    deadline: Instant,
    nodes: u64,
    transpositions: u64,
    aborted: bool,
    /// The transposition table: what a finished search of a position found, by [`key`].
    table: HashMap<u128, Stored>,
}

/// What the table keeps of a position searched (see [`Deep::node`]).
#[derive(Clone, Copy)]
struct Stored {
    /// Plies the search had.
    depth: u8,
    value: i32,
    /// What `value` is: the exact value, or only a lower or an upper bound (the search was
    /// cut off above `beta`, or found nothing above `alpha`).
    bound: Bound,
    /// The move that was best (or cut off): searched first when the position comes again,
    /// whatever the depth.
    best: Option<Move>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// The table's key for a position: the board, the racks of the side to move and of the other
/// side, and whether the other side just passed. A node's value depends on nothing else (values
/// are spreads from here on). Two hashes of 64 bits with different salts: two positions share
/// a key only by a 128-bit collision.
fn key(grid: &Grid, me: &Rack, opp: &Rack, after_pass: bool) -> u128 {
    use std::hash::{Hash, Hasher};
    let half = |salt: u8| {
        let mut h = std::collections::hash_map::DefaultHasher::new();
        salt.hash(&mut h);
        grid.cells.hash(&mut h);
        me.hash(&mut h);
        opp.hash(&mut h);
        after_pass.hash(&mut h);
        h.finish()
    };
    u128::from(half(0)) << 64 | u128::from(half(1))
}

impl Engine<'_> {
    /// The best move with the bag empty, searched as deep as `deadline` allows (at most
    /// `max_depth` plies; at least the exact two-ply search of [`Engine::endgame_best`], which
    /// always finishes), on every core. See the module documentation.
    pub fn endgame_deep(&self, s: &Situation, deadline: Instant, max_depth: usize) -> DeepEndgame {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        self.endgame_deep_on(s, deadline, max_depth, cores)
    }

    /// [`Engine::endgame_deep`] on `threads` threads: they share out our moves at each depth
    /// (each searched with the best value found so far by any of them as its floor), each
    /// with its own transposition table. The result is the same as on one thread, up to the
    /// choice among moves of equal value.
    pub fn endgame_deep_on(
        &self,
        s: &Situation,
        deadline: Instant,
        max_depth: usize,
        threads: usize,
    ) -> DeepEndgame {
        let two = self.endgame_best(s);
        let mut out = DeepEndgame {
            best: two,
            depth: 2,
            nodes: 0,
            transpositions: 0,
        };
        if s.bag_len != 0 || s.unseen.is_empty() || s.rack.is_empty() {
            return out;
        }
        let mut searches: Vec<Deep> = (0..threads.max(1))
            .map(|_| Deep {
                engine: self,
                deadline,
                nodes: 0,
                transpositions: 0,
                aborted: false,
                table: HashMap::new(),
            })
            .collect();
        // Our moves: the last search's choice first, then the rest in the search's order.
        let prep = Prepared::new(&s.grid, &self.graphs, self.tables);
        let mut moves = moves_on(self, &prep, &s.rack);
        if let Some(i) = moves.iter().position(|m| m.same_as(&two)) {
            let m = moves.remove(i);
            moves.insert(0, m);
        }
        // The opponent's replies on the board as it stands, highest scores first, each with its
        // area: after a move of ours that leaves its area alone, a reply is still legal with the
        // same score (see `ReplyFloor` in `engine.rs`). After each move of ours, the first few
        // such replies are tried before every reply is listed: one of them often refutes it.
        let mut standing: Vec<(Move, Area)> = Vec::new();
        generate(
            &prep,
            &s.unseen,
            &self.graphs,
            self.tables,
            GenOptions::default(),
            &mut |c| standing.push((Move::from_candidate(c), reply_area(&s.grid, c))),
        );
        standing.sort_by_key(|r| -r.0.score);
        let after_pass = s.zeros > 0;
        for depth in 3..=max_depth.min(MAX_DEPTH) {
            if Instant::now() >= deadline {
                break;
            }
            // Each thread takes the next move not yet taken, and searches it above the best
            // value found so far: (move, value, whether the value is exact, not only a bound).
            let next = AtomicUsize::new(0);
            let floor = AtomicI32::new(i32::MIN + 1);
            let moves_now = &moves;
            let standing = &standing;
            let work = |search: &mut Deep| -> Vec<(usize, i32, bool)> {
                let mut found = Vec::new();
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(m) = moves_now.get(i) else {
                        break;
                    };
                    let alpha = floor.load(Ordering::SeqCst);
                    let hints: Vec<Move> = standing
                        .iter()
                        .filter(|(_, area)| leaves_alone(m, area))
                        .take(HINTS)
                        .map(|r| r.0)
                        .collect();
                    let v = search.move_value(
                        &s.grid,
                        &s.rack,
                        &s.unseen,
                        m,
                        depth,
                        after_pass,
                        (alpha, i32::MAX),
                        &hints,
                    );
                    if search.aborted {
                        break;
                    }
                    found.push((i, v, v > alpha));
                    floor.fetch_max(v, Ordering::SeqCst);
                }
                found
            };
            let found: Vec<(usize, i32, bool)> = if searches.len() == 1 {
                work(&mut searches[0])
            } else {
                std::thread::scope(|scope| {
                    let handles: Vec<_> = searches
                        .iter_mut()
                        .map(|search| scope.spawn(|| work(search)))
                        .collect();
                    handles
                        .into_iter()
                        .flat_map(|h| h.join().unwrap_or_default())
                        .collect()
                })
            };
            out.nodes = searches.iter().map(|d| d.nodes).sum();
            out.transpositions = searches.iter().map(|d| d.transpositions).sum();
            if searches.iter().any(|d| d.aborted) || found.len() < moves.len() {
                break;
            }
            let mut values = vec![i32::MIN; moves.len()];
            for &(i, v, _) in &found {
                values[i] = v;
            }
            // The best: the highest exact value, the first in the order on a tie (a value that
            // is only a bound is at most the floor it was searched above).
            let Some(&(i, v, _)) = found
                .iter()
                .filter(|f| f.2)
                .max_by_key(|f| (f.1, std::cmp::Reverse(f.0)))
            else {
                break;
            };
            let mut m = moves[i];
            m.equity = v as f32;
            out.best = m;
            out.depth = depth;
            // The next search tries the moves in the order of this one's values (the moves
            // that could not beat the best have upper bounds only, still a fair order).
            let mut order: Vec<usize> = (0..moves.len()).collect();
            order.sort_by_key(|&k| (k != i, std::cmp::Reverse(values[k])));
            moves = order.into_iter().map(|k| moves[k]).collect();
        }
        out
    }
}

/// Every move of `rack` on `grid` (placements and the pass), in the order worth searching first:
/// those that go out, then by score.
fn every_move(e: &Engine<'_>, grid: &Grid, rack: &Rack) -> Vec<Move> {
    moves_on(e, &Prepared::new(grid, &e.graphs, e.tables), rack)
}

/// As [`every_move`], on a board already prepared.
fn moves_on(e: &Engine<'_>, prep: &Prepared, rack: &Rack) -> Vec<Move> {
    let mut moves = vec![Move::pass()];
    generate(
        prep,
        rack,
        &e.graphs,
        e.tables,
        GenOptions::default(),
        &mut |c| moves.push(Move::from_candidate(c)),
    );
    let n = rack.len();
    moves.sort_by_key(|m| {
        let out = m.kind == MoveKind::Place && usize::from(m.tiles_played) == n;
        (!out, -m.score)
    });
    moves
}

impl Deep<'_, '_> {
    /// The value of `m` for the side to move (`me`, against `opp`'s rack) with `depth` plies
    /// left, `m` being the first; `after_pass`: the other side's last move was a pass. Exact
    /// when it lies between `alpha` and `beta`; otherwise at most `alpha`, or at least `beta`.
    /// `hints`: the other side's replies to try first (legal after `m`).
    #[allow(clippy::too_many_arguments)]
    fn move_value(
        &mut self,
        grid: &Grid,
        me: &Rack,
        opp: &Rack,
        m: &Move,
        depth: usize,
        after_pass: bool,
        (alpha, beta): (i32, i32),
        hints: &[Move],
    ) -> i32 {
        let values = &self.engine.tables.values;
        let (me_total, opp_total) = (me.value(values), opp.value(values));
        if m.kind != MoveKind::Place {
            // Both passing in turn: each holds its rack.
            if after_pass || depth == 1 {
                return -me_total + opp_total;
            }
            return -self.node(grid, opp, me, depth - 1, true, (-beta, -alpha), &[]);
        }
        let kept = me.minus(&m.used());
        if kept.is_empty() {
            return m.score + 2 * opp_total;
        }
        if depth == 1 {
            return m.score - kept.value(values) + opp_total;
        }
        let mut child = grid.clone();
        apply(&mut child, m);
        let window = (m.score.saturating_sub(beta), m.score.saturating_sub(alpha));
        m.score - self.node(&child, opp, &kept, depth - 1, false, window, hints)
    }

    /// The value of the position for the side to move (`me`) with `depth` plies left: the best
    /// of its moves, `hints` first (see [`Deep::move_value`] for `alpha` and `beta`).
    #[allow(clippy::too_many_arguments)]
    fn node(
        &mut self,
        grid: &Grid,
        me: &Rack,
        opp: &Rack,
        depth: usize,
        after_pass: bool,
        (mut alpha, beta): (i32, i32),
        hints: &[Move],
    ) -> i32 {
        if self.aborted {
            return 0;
        }
        if depth == 1 {
            // The two-ply search's reply search: the best placement without listing them all,
            // or the pass (which ends the line after a pass, and is the horizon anyway).
            let e = self.engine;
            let prep = Prepared::new(grid, &e.graphs, e.tables);
            return e.one_ply(&prep, me, opp.value(&e.tables.values)).round() as i32;
        }
        if Instant::now() >= self.deadline {
            self.aborted = true;
            return 0;
        }
        // A position met before: its value, if searched to this depth and the window allows
        // (a bound settles it only beyond the window); its best move is tried first anyway.
        let k = key(grid, me, opp, after_pass);
        let stored = self.table.get(&k).copied();
        if let Some(t) = stored {
            if usize::from(t.depth) == depth
                && match t.bound {
                    Bound::Exact => true,
                    Bound::Lower => t.value >= beta,
                    Bound::Upper => t.value <= alpha,
                }
            {
                self.transpositions += 1;
                return t.value;
            }
        }
        self.nodes += 1;
        let alpha0 = alpha;
        let values = &self.engine.tables.values;
        let opp_total = opp.value(values);
        let mut best = i32::MIN + 1;
        let mut best_move: Option<Move> = None;
        // The stored move and the hints first: a cut-off among them spares listing every move.
        let mut first: Vec<Move> = stored.and_then(|t| t.best).into_iter().collect();
        for h in hints {
            if !first.iter().any(|f| f.same_as(h)) {
                first.push(*h);
            }
        }
        let e = self.engine;
        let listed = std::iter::once(()).flat_map(|()| every_move(e, grid, me));
        let others = listed.filter(|m| !first.iter().any(|h| h.same_as(m)));
        for m in first.iter().copied().chain(others) {
            if depth == 2 && m.kind == MoveKind::Place {
                let kept = me.minus(&m.used());
                // The other side's last ply is worth at least its pass: a placement that does
                // not go out is worth at most its score plus what the other holds less what we
                // keep. One that cannot beat `alpha` is not searched (the node's value stays a
                // true upper bound, which is all a value at most `alpha` says).
                let most = m.score + opp_total - kept.value(values);
                if !kept.is_empty() && most <= alpha {
                    best = best.max(most);
                    continue;
                }
            }
            let v = self.move_value(grid, me, opp, &m, depth, after_pass, (alpha, beta), &[]);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = Some(m);
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best <= alpha0 {
            Bound::Upper
        } else {
            Bound::Exact
        };
        self.table.insert(
            k,
            Stored {
                depth: depth as u8,
                value: best,
                bound,
                best: best_move.or(stored.and_then(|t| t.best)),
            },
        );
        best
    }
}

impl Engine<'_> {
    /// The best value for the side to move (`me`) with one ply left, the other side holding
    /// tiles worth `opp_value`: its best placement (going out gains twice `opp_value`; any
    /// other placement, its score less what it then holds plus `opp_value`) or the pass (each
    /// holds its own). Found by the pruned search, not by listing every move.
    pub(crate) fn one_ply(&self, prep: &Prepared, me: &Rack, opp_value: i32) -> f32 {
        let values = &self.tables.values;
        let me_total = me.value(values);
        let opp_value = opp_value as f32;
        let index = LeaveIndex::new(me);
        let pass = -(me_total as f32) + opp_value;
        crate::movegen::best_by_value_per_tiles(
            prep,
            me,
            &self.graphs,
            self.tables,
            GenOptions::default(),
            &crate::static_best::endgame_reply_bonus(me, opp_value, values),
            &mut |c| {
                if usize::from(c.tiles) == me.len() {
                    c.score as f32 + 2.0 * opp_value
                } else {
                    // What the mover keeps is its to lose, what the other holds the other's.
                    let used = index.used_rack(me, c.used);
                    let left = me_total - used.value(values);
                    c.score as f32 - left as f32 + opp_value
                }
            },
        )
        .map_or(pass, |(_, v)| v.max(pass))
    }
}

/// Plays an empty-bag endgame to its end: the side to move in `s` (seat 0) against the holder
/// of the unseen tiles (seat 1), each choosing with the two-ply search, or with the deeper search
/// given `think[seat]` per move (on `threads` search threads). The game ends when a side goes out (it gains the other's rack,
/// which the other loses: NASPA V.G.1, WESPA 5.1.4) or when both pass in turn (each loses its
/// own rack, as the scoreless-turns ending would count them: NASPA V.B). Returns what the play
/// gains for seat 0 (its points less seat 1's, adjustments included), seat 0's first move, and
/// the plies of that move's search.
pub fn play_endgame(
    engine: &Engine<'_>,
    s: &Situation,
    think: [Option<std::time::Duration>; 2],
    threads: usize,
) -> (i32, Move, usize) {
    let values = &engine.tables.values;
    let mut racks = [s.rack, s.unseen];
    let mut grid = s.grid.clone();
    let mut pts = [0i32; 2];
    let mut last_pass = s.zeros > 0;
    let mut first: Option<(Move, usize)> = None;
    let mut mover = 0;
    // A side that can neither play nor go on passing ends it long before this.
    for _ in 0..60 {
        let sit = Situation {
            grid: grid.clone(),
            rack: racks[mover],
            unseen: racks[1 - mover],
            bag_len: 0,
            scores: [
                s.scores[mover] + pts[mover],
                s.scores[1 - mover] + pts[1 - mover],
            ],
            zeros: u32::from(last_pass),
        };
        let (m, depth) = match think[mover] {
            Some(d) => {
                let r = engine.endgame_deep_on(&sit, Instant::now() + d, MAX_DEPTH, threads);
                (r.best, r.depth)
            }
            None => (engine.endgame_best(&sit), 2),
        };
        if mover == 0 && first.is_none() {
            first = Some((m, depth));
        }
        if m.kind == MoveKind::Place {
            pts[mover] += m.score;
            racks[mover] = racks[mover].minus(&m.used());
            apply(&mut grid, &m);
            last_pass = false;
            if racks[mover].is_empty() {
                let other = racks[1 - mover].value(values);
                pts[mover] += other;
                pts[1 - mover] -= other;
                racks[1 - mover] = Rack::default();
                break;
            }
        } else if last_pass {
            break;
        } else {
            last_pass = true;
        }
        mover = 1 - mover;
    }
    // Tiles still held count against their holder.
    for (p, r) in pts.iter_mut().zip(&racks) {
        *p -= r.value(values);
    }
    let (m, depth) = first.unwrap_or((Move::pass(), 2));
    (pts[0] - pts[1], m, depth)
}
