//! Learning leave values by self-play (`tilebag leaves train`).
//!
//! The static player plays games against itself with the current weights. Each time a player
//! keeps a leave while the bag still holds tiles, the sample is (the leave's features, the score
//! of that player's next move minus the average next-move score). After each batch of games the
//! weights take a least-squares step towards those targets, so a leave's value becomes what
//! keeping it is worth on the next turn, compared with an average rack. The defaults of
//! [`Leaves::defaults`] are the starting point.

use crate::bot::{choose, Level, SimConfig};
use crate::engine::{Engine, Situation};
use crate::grid::Tables;
use crate::leaves::Leaves;
use crate::moves::MoveKind;
use crate::rack::Rack;
use tilebag_core::bag::Rng;
use tilebag_core::{Action, Actor, Event, Game, Phase, Ruleset};
use tilebag_lexicon::Lexicon;

#[derive(Clone, Copy, Debug)]
pub struct TrainConfig {
    /// Games in all (counting those the starting weights were trained on).
    pub games: u64,
    /// Games per batch (one weight update each).
    pub batch: u64,
    pub threads: usize,
    /// Step size of the update.
    pub rate: f32,
    pub seed: u64,
}

impl Default for TrainConfig {
    fn default() -> TrainConfig {
        TrainConfig {
            games: 20_000,
            batch: 200,
            threads: 1,
            rate: 0.02,
            seed: 0x1EAF,
        }
    }
}

/// (leave, next-move score) pairs from one game.
fn samples_of_game(engine: &Engine<'_>, ruleset: &Ruleset, seed: u64) -> Vec<(Rack, i32)> {
    let mut game = Game::new(ruleset.clone(), seed);
    let mut rng = Rng::new(seed ^ 0x5EED);
    // Per seat: the leave kept last turn while the bag had tiles, awaiting the next move's score.
    let mut waiting: [Option<Rack>; 2] = [None, None];
    let mut out = Vec::new();
    let mut at = 0i64;
    for _ in 0..400 {
        if game.is_over() {
            break;
        }
        at += 1000;
        let seat = game.to_move();
        let action = match game.phase() {
            Phase::PlayPending { out: true, .. } => Action::Accept,
            Phase::Ended { .. } => break,
            _ => {
                let s = Situation::from_game(&game, seat);
                let m = choose(engine, &s, Level::Static, &mut rng, SimConfig::default());
                if let Some(leave) = waiting[seat].take() {
                    out.push((leave, m.score));
                }
                if s.bag_len > 0 && m.kind != MoveKind::Pass {
                    waiting[seat] = Some(s.rack.minus(&m.used()));
                }
                m.action()
            }
        };
        let ev = Event {
            actor: Actor::Seat(seat),
            at_ms: at,
            action,
        };
        if game.apply(&ev, engine.lexicon).is_err() {
            break;
        }
    }
    out
}

/// Trains from `start` until `cfg.games` games have been played in all; `progress` is called
/// after each batch with the weights so far (to show progress and save them).
pub fn train(
    lex: &Lexicon,
    tables: &Tables,
    start: Leaves,
    cfg: TrainConfig,
    progress: &mut dyn FnMut(&Leaves),
) -> Leaves {
    let ruleset = Ruleset::preset("naspa-2013").unwrap_or_else(|_| Ruleset::naspa_2013());
    let mut leaves = start;
    let mut feats = Vec::new();
    while leaves.games < cfg.games {
        let batch = cfg.batch.min(cfg.games - leaves.games);
        let snapshot = leaves.clone();
        let engine = Engine::new(lex, tables, &snapshot, ruleset.exchange_min_bag);
        let next = std::sync::atomic::AtomicU64::new(0);
        let first = leaves.games;
        let samples: Vec<(Rack, i32)> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..cfg.threads.max(1))
                .map(|_| {
                    let next = &next;
                    let ruleset = &ruleset;
                    scope.spawn(move || {
                        let mut mine = Vec::new();
                        loop {
                            let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                            if i >= batch {
                                break;
                            }
                            let seed = cfg.seed.wrapping_add((first + i).wrapping_mul(0x9E37));
                            mine.extend(samples_of_game(&engine, ruleset, seed));
                        }
                        mine
                    })
                })
                .collect();
            handles
                .into_iter()
                .filter_map(|h| h.join().ok())
                .flatten()
                .collect()
        });
        if !samples.is_empty() {
            let mean =
                samples.iter().map(|(_, s)| f64::from(*s)).sum::<f64>() / samples.len() as f64;
            let mut w = leaves.weights();
            // A few passes of stochastic gradient descent on the squared error.
            for _ in 0..3 {
                for (leave, score) in &samples {
                    Leaves::features(leave, &mut feats);
                    let pred: f32 = feats.iter().map(|&(i, x)| w[i] * x).sum();
                    let target = (f64::from(*score) - mean) as f32;
                    let err = target - pred;
                    for &(i, x) in &feats {
                        w[i] += cfg.rate * err * x;
                    }
                }
            }
            leaves.set_weights(&w);
        }
        leaves.games += batch;
        progress(&leaves);
    }
    leaves
}
