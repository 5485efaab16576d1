//! Computer opponents. Each sees only a seat's [`Situation`] (its own rack and the unseen tiles
//! as a multiset), never the opponent's rack or the bag's order.
//!
//! - [`Level::Beginner`]: plays a middling move on purpose (from the middle of the list by
//!   score, short words preferred), so a newcomer can beat it.
//! - [`Level::Static`]: the best equity ([`Engine::best`]); with the bag empty, the 2-ply
//!   endgame search.
//! - [`Level::Simulating`]: the static player's best candidates, each played out two plies
//!   against sampled opponent racks; the best mean wins. Runs on every core within a time budget.
//!   With the bag empty it spends the same budget searching the endgame deeper than two plies
//!   ([`Engine::endgame_deep`]).

use crate::engine::{apply, Engine, Situation};
use crate::moves::{Move, MoveKind};
use crate::rack::Rack;
use std::time::{Duration, Instant};
use tilebag_core::bag::Rng;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Level {
    Beginner,
    Static,
    Simulating,
}

impl Level {
    pub const ALL: [Level; 3] = [Level::Beginner, Level::Static, Level::Simulating];

    pub fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Static => "static",
            Level::Simulating => "sim",
        }
    }

    pub fn parse(s: &str) -> Option<Level> {
        match s.to_ascii_lowercase().as_str() {
            "beginner" | "easy" => Some(Level::Beginner),
            "static" | "strong" => Some(Level::Static),
            "sim" | "simulating" | "simulation" => Some(Level::Simulating),
            _ => None,
        }
    }

    /// What the level does, for the lobby.
    pub fn describe(self) -> &'static str {
        match self {
            Level::Beginner => "beginner: plays ordinary moves, not the best ones",
            Level::Static => "strong: the best move by score and leave",
            Level::Simulating => "simulating: looks two moves ahead with sampled racks",
        }
    }
}

/// Simulation settings.
#[derive(Clone, Copy, Debug)]
pub struct SimConfig {
    /// Candidates taken from the static list.
    pub candidates: usize,
    /// Time to think.
    pub budget: Duration,
    /// Iterations at most (each samples one opponent rack and bag order for every candidate).
    pub max_iterations: usize,
    /// Threads (0: every core).
    pub threads: usize,
}

impl Default for SimConfig {
    fn default() -> SimConfig {
        SimConfig {
            candidates: 8,
            budget: Duration::from_millis(1500),
            max_iterations: 400,
            threads: 0,
        }
    }
}

/// Chooses a move for the level. `rng` drives the beginner's choices and the simulation's
/// samples; it is the bot's own, seeded apart from the game's bag.
pub fn choose(
    engine: &Engine<'_>,
    s: &Situation,
    level: Level,
    rng: &mut Rng,
    sim: SimConfig,
) -> Move {
    match level {
        Level::Static => engine.best(s),
        Level::Beginner => beginner(engine, s, rng),
        Level::Simulating => {
            if s.bag_len == 0 {
                let deadline = Instant::now() + sim.budget;
                engine
                    .endgame_deep(s, deadline, crate::endgame::MAX_DEPTH)
                    .best
            } else {
                simulate(engine, s, rng.next_u64(), sim).0
            }
        }
    }
}

fn beginner(engine: &Engine<'_>, s: &Situation, rng: &mut Rng) -> Move {
    // A newcomer sees the obvious words, not the best ones: plays of at most six new tiles (a newcomer rarely finds a bingo),
    // chosen at random from the top 8% of the list by score (not equity: a newcomer does
    // not weigh the leave), and no exchanges unless nothing can be played.
    let moves = engine.moves(s);
    let mut plays: Vec<Move> = moves
        .iter()
        .filter(|m| m.kind == MoveKind::Place && m.tiles_played <= 6)
        .copied()
        .collect();
    if plays.is_empty() {
        plays = moves
            .iter()
            .filter(|m| m.kind == MoveKind::Place)
            .copied()
            .collect();
    }
    if plays.is_empty() {
        return moves.into_iter().next().unwrap_or_else(Move::pass);
    }
    plays.sort_by_key(|m| m.score);
    let n = plays.len();
    let lo = n * 92 / 100;
    let hi = n;
    plays[lo + rng.below(hi - lo)]
}

/// The simulating player's choice and, per candidate, (move, mean value, iterations).
pub fn simulate(
    engine: &Engine<'_>,
    s: &Situation,
    seed: u64,
    cfg: SimConfig,
) -> (Move, Vec<(Move, f64, usize)>) {
    let all = engine.moves(s);
    let cands: Vec<Move> = all.iter().take(cfg.candidates.max(1)).copied().collect();
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
    let per_thread = cfg.max_iterations.div_ceil(threads);
    let results: Vec<(Vec<f64>, usize)> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let cands = &cands;
                scope.spawn(move || {
                    let mut rng =
                        Rng::new(seed ^ (t as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
                    let mut sums = vec![0f64; cands.len()];
                    let mut n = 0;
                    while n < per_thread && (n < 2 || Instant::now() < deadline) {
                        let (opp, bag) = sample(&s.unseen, engine.tables.rack_size, &mut rng);
                        for (k, c) in cands.iter().enumerate() {
                            sums[k] += play_out(engine, s, c, &opp, &bag);
                        }
                        n += 1;
                    }
                    (sums, n)
                })
            })
            .collect();
        handles.into_iter().filter_map(|h| h.join().ok()).collect()
    });
    let iters: usize = results.iter().map(|r| r.1).sum();
    let mut stats: Vec<(Move, f64, usize)> = cands
        .iter()
        .enumerate()
        .map(|(k, &m)| {
            let sum: f64 = results.iter().map(|r| r.0[k]).sum();
            (m, sum / iters.max(1) as f64, iters)
        })
        .collect();
    stats.sort_by(|a, b| b.1.total_cmp(&a.1));
    (stats[0].0, stats)
}

/// A random opponent rack from the unseen tiles, and the rest in random order (the bag).
fn sample(unseen: &Rack, rack_size: usize, rng: &mut Rng) -> (Rack, Vec<u8>) {
    let mut tiles = unseen.codes();
    rng.shuffle(&mut tiles);
    let k = rack_size.min(tiles.len());
    let opp = Rack::from_codes(&tiles[..k]);
    (opp, tiles[k..].to_vec())
}

/// Our candidate, the opponent's static reply, and the value of the two plies for us:
/// our score and leave minus their score and leave.
fn play_out(engine: &Engine<'_>, s: &Situation, m: &Move, opp: &Rack, bag: &[u8]) -> f64 {
    let kept = s.rack.minus(&m.used());
    let mut grid = s.grid.clone();
    apply(&mut grid, m);
    // We draw from the bag (an exchange puts tiles back; their order no longer matters here).
    let draw = (engine.tables.rack_size - kept.len()).min(bag.len());
    let mut our_next = kept;
    for &c in &bag[..draw] {
        our_next.add(c);
    }
    let mut bag_after: Vec<u8> = bag[draw..].to_vec();
    if m.kind == MoveKind::Exchange {
        bag_after.extend(m.used().codes());
    }
    let reply_situation = Situation {
        grid,
        rack: *opp,
        unseen: our_next.plus_codes(&bag_after),
        bag_len: bag_after.len(),
        scores: [s.scores[1], s.scores[0] + m.score],
        zeros: 0,
    };
    let reply = engine.best(&reply_situation);
    let our_leave = if s.bag_len == 0 {
        0.0
    } else {
        engine.leaves.value(&kept)
    };
    let their_leave = reply.equity - reply.score as f32;
    f64::from(m.score as f32 + our_leave) - f64::from(reply.score as f32 + their_leave)
}

impl Rack {
    /// A rack of these codes.
    pub fn from_codes(codes: &[u8]) -> Rack {
        let mut r = Rack::default();
        for &c in codes {
            r.add(c);
        }
        r
    }
    /// This rack plus these codes.
    pub fn plus_codes(&self, codes: &[u8]) -> Rack {
        let mut r = *self;
        for &c in codes {
            r.add(c);
        }
        r
    }
}

/// Whether the bot challenges a pending play: only a play that formed a word the lexicon lacks
/// (it knows the lexicon, so the challenge cannot fail; every rulebook lets a phony be
/// challenged off).
pub fn should_challenge(engine: &Engine<'_>, words: &[String]) -> bool {
    words.iter().any(|w| !engine.lexicon.contains(w))
}

/// Under a rule that lets either player end the game after the run of scoreless turns (NASPA
/// V.B), whether the bot ends it rather than make `planned`: when it cannot score anyway, or when
/// it leads once each side's tiles are counted against it (its own rack; the unseen tiles, at
/// most a rack's worth, for the opponent).
pub fn ends_after_zeros(engine: &Engine<'_>, s: &Situation, planned: &Move) -> bool {
    if planned.kind != MoveKind::Place || planned.score == 0 {
        return true;
    }
    let values = &engine.tables.values;
    let mine = s.scores[0] - s.rack.value(values);
    // The opponent holds at most a rack of the unseen tiles: their share of the unseen value.
    let n = s.unseen.len().max(1) as i32;
    let held = n.min(engine.tables.rack_size as i32);
    let theirs = s.scores[1] - s.unseen.value(values) * held / n;
    mine > theirs
}
