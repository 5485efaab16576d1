//! The simulating player: the static player's best candidates, each played out against the same
//! sampled opponent racks and bag orders (common random numbers), the best mean wins.
//!
//! - **How far a sample is played out.** With 8 or more tiles in the bag, two plies: our move,
//!   the opponent's static reply, valued as our score and leave less theirs
//!   ([`two_plies`]). In the pre-endgame (1–7 tiles in the bag, so our move may empty it) a
//!   leave's static value means little: each sample is played out to the end of the game by the
//!   static player on both sides, its 2-ply endgame search once the bag is empty, and valued as
//!   the spread it gains plus a bonus for a win ([`to_the_end`]).
//! - **Where the time goes.** Every thread draws samples until the budget is spent; every
//!   [`PRUNE_EVERY`] samples, a candidate whose paired difference from the leader is more than
//!   [`PRUNE_Z`] standard errors below it is dropped, so the samples go to the close calls
//!   ([`Tally::prune`]). When one candidate is left the search stops early.
//!
//! With the bag empty the player searches the endgame instead (`Engine::endgame_deep`); asked
//! directly (`tilebag moves --sim-ms`), a sample is then played out to the end as in the
//! pre-endgame, with no leave counted.

use crate::analysis::mirrors;
use crate::engine::{apply, Engine, Situation};
use crate::grid::Grid;
use crate::moves::{Move, MoveKind};
use crate::rack::Rack;
use std::sync::Mutex;
use std::time::{Duration, Instant};
use tilebag_core::bag::Rng;

/// Simulation settings.
#[derive(Clone, Copy, Debug)]
pub struct SimConfig {
    /// Candidates taken from the static list (twice as many in the pre-endgame, where the
    /// static order is a poor guide).
    pub candidates: usize,
    /// Time to think.
    pub budget: Duration,
    /// Samples at most (each one opponent rack and bag order, played out for every candidate
    /// still in the running).
    pub max_iterations: usize,
    /// Threads (0: every core).
    pub threads: usize,
    /// Samples a candidate has before it may be dropped (see [`Tally::prune`]).
    pub prune_after: usize,
}

impl Default for SimConfig {
    fn default() -> SimConfig {
        SimConfig {
            candidates: 12,
            budget: Duration::from_millis(1500),
            max_iterations: 20_000,
            threads: 0,
            prune_after: PRUNE_AFTER,
        }
    }
}

/// The most tiles in the bag at which a sample is played out to the end of the game (the
/// pre-endgame, and the empty bag).
pub const PRE_ENDGAME_BAG: usize = 7;

/// What a win is worth, in points of spread, when a sample is played out to the end: enough to
/// prefer a likelier win over a few points, not so much that spread stops counting.
pub const WIN_BONUS: f64 = 40.0;

/// Samples between two prunings.
pub const PRUNE_EVERY: usize = 16;

/// Samples a candidate has before it may be dropped, by default: the tails (the rare sample
/// where one play opens a bingo line) must have had a chance to show.
pub const PRUNE_AFTER: usize = 200;

/// How many standard errors of the paired difference behind the leader drop a candidate.
pub const PRUNE_Z: f64 = 2.5;

/// Plies at most in a sample played out to the end (the game ends long before).
const MAX_PLIES: usize = 40;

/// The simulating player's choice and, per candidate, (move, mean value, samples), best first.
pub fn simulate(
    engine: &Engine<'_>,
    s: &Situation,
    seed: u64,
    cfg: SimConfig,
) -> (Move, Vec<(Move, f64, usize)>) {
    let to_the_end = s.bag_len <= PRE_ENDGAME_BAG;
    let wanted = if to_the_end {
        2 * cfg.candidates
    } else {
        cfg.candidates
    };
    let mut cands: Vec<Move> = Vec::with_capacity(wanted);
    let empty = s.grid.is_empty();
    for m in engine.moves(s) {
        if cands.len() >= wanted.max(1) {
            break;
        }
        // On the empty board a play and its mirror image are the same play: one of them.
        if empty && cands.iter().any(|c| mirrors(c, &m)) {
            continue;
        }
        cands.push(m);
    }
    if cands.len() <= 1 {
        let m = cands.first().copied().unwrap_or_else(Move::pass);
        return (m, vec![(m, f64::from(m.equity), 0)]);
    }
    let threads = if cfg.threads == 0 {
        std::thread::available_parallelism().map_or(1, |n| n.get())
    } else {
        cfg.threads
    };
    let deadline = Instant::now() + cfg.budget;
    let tally = Mutex::new(Tally::new(cands.len(), cfg.prune_after));
    std::thread::scope(|scope| {
        for t in 0..threads {
            let (cands, tally) = (&cands, &tally);
            scope.spawn(move || {
                let mut rng = Rng::new(seed ^ (t as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                let mut row = vec![f32::NAN; cands.len()];
                loop {
                    let active = {
                        let mut tally = tally.lock().expect("tally lock");
                        let started = tally.started;
                        if started >= cfg.max_iterations
                            || tally.left() <= 1
                            || (started >= 2 && Instant::now() >= deadline)
                        {
                            break;
                        }
                        tally.started += 1;
                        tally.active.clone()
                    };
                    let (opp, bag) = sample(&s.unseen, engine.tables.rack_size, &mut rng);
                    for (k, c) in cands.iter().enumerate() {
                        row[k] = if !active[k] {
                            f32::NAN
                        } else if to_the_end {
                            self::to_the_end(engine, s, c, &opp, &bag) as f32
                        } else {
                            two_plies(engine, s, c, &opp, &bag) as f32
                        };
                    }
                    tally.lock().expect("tally lock").add(&row);
                }
            });
        }
    });
    let tally = tally.into_inner().expect("tally lock");
    // The candidates still in the running first (a dropped one's mean is over fewer samples).
    let mut ranked: Vec<(bool, (Move, f64, usize))> = cands
        .iter()
        .enumerate()
        .map(|(k, &m)| {
            let (mean, n) = tally.mean(k);
            (tally.active[k], (m, mean, n))
        })
        .collect();
    ranked.sort_by(|a, b| b.0.cmp(&a.0).then(b.1 .1.total_cmp(&a.1 .1)));
    let stats: Vec<(Move, f64, usize)> = ranked.into_iter().map(|r| r.1).collect();
    (stats[0].0, stats)
}

/// Running sums of every sample's value for each candidate (a NaN value: the candidate had
/// been dropped when the sample was started), and which candidates are still in the running.
/// Sums, not the samples: a pruning costs the same after 20,000 samples as after 200.
struct Tally {
    /// Per candidate: its samples, the sum of their values and of their squares.
    n: Vec<usize>,
    sum: Vec<f64>,
    squares: Vec<f64>,
    /// Per pair of candidates (`i * k + j`): the sum of the products of their values in the
    /// samples both have.
    cross: Vec<f64>,
    samples: usize,
    active: Vec<bool>,
    started: usize,
    prune_after: usize,
}

impl Tally {
    fn new(candidates: usize, prune_after: usize) -> Tally {
        Tally {
            n: vec![0; candidates],
            sum: vec![0.0; candidates],
            squares: vec![0.0; candidates],
            cross: vec![0.0; candidates * candidates],
            samples: 0,
            active: vec![true; candidates],
            started: 0,
            prune_after: prune_after.max(2),
        }
    }

    fn left(&self) -> usize {
        self.active.iter().filter(|&&a| a).count()
    }

    fn add(&mut self, row: &[f32]) {
        let k = self.n.len();
        for i in 0..k {
            if row[i].is_nan() {
                continue;
            }
            let x = f64::from(row[i]);
            self.n[i] += 1;
            self.sum[i] += x;
            self.squares[i] += x * x;
            for (j, &y) in row.iter().enumerate().skip(i + 1) {
                if !y.is_nan() {
                    self.cross[i * k + j] += x * f64::from(y);
                }
            }
        }
        self.samples += 1;
        if self.samples % PRUNE_EVERY == 0 && self.samples >= self.prune_after {
            self.prune();
        }
    }

    /// The mean of a candidate's values and their count.
    fn mean(&self, k: usize) -> (f64, usize) {
        (self.sum[k] / self.n[k].max(1) as f64, self.n[k])
    }

    /// Drop every candidate clearly behind the leader. Two candidates still in the running both
    /// have a value in every sample (each was in the running when every sample was started), so
    /// they are compared sample by sample: the same opponent rack and bag, which cancels most of
    /// the noise. The paired differences' mean and variance come from the sums: for candidates
    /// `a` and `b` over `n` samples, Σ(a−b)² = Σa² + Σb² − 2Σab.
    fn prune(&mut self) {
        let k = self.n.len();
        let Some(leader) = (0..k)
            .filter(|&i| self.active[i])
            .max_by(|&a, &b| self.mean(a).0.total_cmp(&self.mean(b).0))
        else {
            return;
        };
        for other in 0..k {
            if other == leader || !self.active[other] || self.n[other] != self.n[leader] {
                continue;
            }
            let n = self.n[other] as f64;
            if n < self.prune_after as f64 {
                continue;
            }
            let (lo, hi) = (leader.min(other), leader.max(other));
            let mean = (self.sum[leader] - self.sum[other]) / n;
            let squares =
                self.squares[leader] + self.squares[other] - 2.0 * self.cross[lo * k + hi];
            let var = ((squares - n * mean * mean) / (n - 1.0)).max(0.0);
            if mean > PRUNE_Z * (var / n).sqrt() {
                self.active[other] = false;
            }
        }
    }
}

/// A random opponent rack from the unseen tiles, and the rest in random order (the bag).
fn sample(unseen: &Rack, rack_size: usize, rng: &mut Rng) -> (Rack, Vec<u8>) {
    let mut tiles = unseen.codes();
    rng.shuffle(&mut tiles);
    let k = rack_size.min(tiles.len());
    let opp = Rack::from_codes(&tiles[..k]);
    (opp, tiles[k..].to_vec())
}

/// The game right after our candidate, in one sample: the board, our rack refilled from the
/// bag's front, and the bag left (an exchange's tiles go back into it).
struct After {
    grid: Grid,
    kept: Rack,
    ours: Rack,
    bag: Vec<u8>,
}

fn after(engine: &Engine<'_>, s: &Situation, m: &Move, bag: &[u8]) -> After {
    let kept = s.rack.minus(&m.used());
    let mut grid = s.grid.clone();
    apply(&mut grid, m);
    let draw = (engine.tables.rack_size - kept.len()).min(bag.len());
    let ours = kept.plus_codes(&bag[..draw]);
    let mut rest = bag[draw..].to_vec();
    if m.kind == MoveKind::Exchange {
        rest.extend(m.used().codes());
    }
    After {
        grid,
        kept,
        ours,
        bag: rest,
    }
}

/// Our candidate, the opponent's static reply, and the value of the two plies for us:
/// our score and leave minus their score and leave.
fn two_plies(engine: &Engine<'_>, s: &Situation, m: &Move, opp: &Rack, bag: &[u8]) -> f64 {
    let a = after(engine, s, m, bag);
    let reply_situation = Situation {
        grid: a.grid,
        rack: *opp,
        unseen: a.ours.plus_codes(&a.bag),
        bag_len: a.bag.len(),
        scores: [s.scores[1], s.scores[0] + m.score],
        zeros: 0,
    };
    let reply = engine.best(&reply_situation);
    let our_leave = engine.leaves.value(&a.kept);
    let their_leave = reply.equity - reply.score as f32;
    f64::from(m.score as f32 + our_leave) - f64::from(reply.score as f32 + their_leave)
}

/// Our candidate, then the static player on both sides to the end of the game: the spread it
/// gains for us, plus [`WIN_BONUS`] for a win (half for a tie) from the score as it stands.
fn to_the_end(engine: &Engine<'_>, s: &Situation, m: &Move, opp: &Rack, bag: &[u8]) -> f64 {
    let a = after(engine, s, m, bag);
    let zeros = if m.kind == MoveKind::Place && m.score > 0 {
        0
    } else {
        s.zeros + 1
    };
    let mut game = PlayOut {
        grid: a.grid,
        racks: [a.ours, *opp],
        bag: a.bag,
        scores: [s.scores[0] + m.score, s.scores[1]],
        zeros,
    };
    if a.ours.is_empty() {
        game.go_out(0, engine);
    } else {
        game.play(engine, 1);
    }
    let spread = game.scores[0] - game.scores[1];
    let gained = f64::from(spread - (s.scores[0] - s.scores[1]));
    let win = match spread.cmp(&0) {
        std::cmp::Ordering::Greater => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Less => 0.0,
    };
    gained + WIN_BONUS * win
}

/// A sampled game played out by the static player on both sides (seat 0: us).
struct PlayOut {
    grid: Grid,
    racks: [Rack; 2],
    bag: Vec<u8>,
    scores: [i32; 2],
    zeros: u32,
}

impl PlayOut {
    /// Plays from `to_move` until someone goes out or the run of scoreless turns ends the game
    /// (six, as every rulebook's preset has it: each player then loses their rack's value).
    fn play(&mut self, engine: &Engine<'_>, mut to_move: usize) {
        for _ in 0..MAX_PLIES {
            let (me, other) = (to_move, 1 - to_move);
            let s = Situation {
                grid: self.grid.clone(),
                rack: self.racks[me],
                unseen: self.racks[other].plus_codes(&self.bag),
                bag_len: self.bag.len(),
                scores: [self.scores[me], self.scores[other]],
                zeros: self.zeros,
            };
            let m = engine.best(&s);
            let used = m.used();
            self.racks[me] = self.racks[me].minus(&used);
            let draw = (engine.tables.rack_size - self.racks[me].len()).min(self.bag.len());
            for c in self.bag.drain(..draw) {
                self.racks[me].add(c);
            }
            match m.kind {
                MoveKind::Place => {
                    apply(&mut self.grid, &m);
                    self.scores[me] += m.score;
                }
                MoveKind::Exchange => self.bag.extend(used.codes()),
                _ => {}
            }
            self.zeros = if m.kind == MoveKind::Place && m.score > 0 {
                0
            } else {
                self.zeros + 1
            };
            if self.racks[me].is_empty() {
                self.go_out(me, engine);
                return;
            }
            if self.zeros >= 6 {
                break;
            }
            to_move = other;
        }
        let values = &engine.tables.values;
        for seat in 0..2 {
            self.scores[seat] -= self.racks[seat].value(values);
        }
    }

    /// `seat` went out: the spread effect of every rulebook's end (NASPA V.G.1, WESPA 5.1.4) is
    /// twice the opponent's rack.
    fn go_out(&mut self, seat: usize, engine: &Engine<'_>) {
        let left = self.racks[1 - seat].value(&engine.tables.values);
        self.scores[seat] += left;
        self.scores[1 - seat] -= left;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows where candidate 1 is always 5 points behind candidate 0 (the same noise on both:
    /// common random numbers), and candidate 2 is 2 points behind on average but far noisier.
    fn rows(n: usize) -> Vec<Vec<f32>> {
        let mut rng = Rng::new(7);
        (0..n)
            .map(|_| {
                let noise = rng.below(41) as f32 - 20.0;
                let wild = rng.below(81) as f32 - 40.0;
                vec![30.0 + noise, 25.0 + noise, 28.0 + wild]
            })
            .collect()
    }

    #[test]
    fn a_candidate_behind_in_every_sample_is_dropped_once_it_has_enough_of_them() {
        let mut tally = Tally::new(3, 48);
        for row in rows(47) {
            tally.add(&row);
        }
        // Too few samples yet to judge, however clear the gap.
        assert_eq!(tally.active, [true, true, true]);
        for row in rows(PRUNE_EVERY + 1) {
            tally.add(&row);
        }
        // 5 points behind with no paired noise: dropped; the noisy one, not clearly behind, kept.
        assert_eq!(tally.active, [true, false, true]);
        assert_eq!(tally.left(), 2);
    }

    #[test]
    fn a_dropped_candidate_gets_no_more_samples_and_keeps_its_mean() {
        let mut tally = Tally::new(3, 48);
        for row in rows(48) {
            tally.add(&row);
        }
        assert!(!tally.active[1]);
        let (before, n) = tally.mean(1);
        assert_eq!(n, 48);
        // Later samples leave it out (NaN), as `simulate` writes them.
        for mut row in rows(32) {
            row[1] = f32::NAN;
            tally.add(&row);
        }
        assert_eq!(tally.mean(1), (before, 48));
        assert_eq!(tally.mean(0).1, 48 + 32);
    }
}
