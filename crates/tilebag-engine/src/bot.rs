//! Computer opponents. Each sees only a seat's [`Situation`] (its own rack and the unseen tiles
//! as a multiset), never the opponent's rack or the bag's order.
//!
//! - [`Level::Beginner`]: plays a middling move on purpose (from the middle of the list by
//!   score, short words preferred), so a newcomer can beat it.
//! - [`Level::Static`]: the best equity ([`Engine::best`]); with the bag empty, the 2-ply
//!   endgame search.
//! - [`Level::Simulating`]: the static player's best candidates, each played out against
//!   sampled opponent racks (two plies; to the end of the game in the pre-endgame); the best mean
//!   wins (see [`crate::sim`]). Runs on every core within a time budget. With the bag empty it
//!   spends the same budget searching the endgame deeper than two plies
//!   ([`Engine::endgame_deep`]).

use crate::engine::{Engine, Situation};
use crate::moves::{Move, MoveKind};
use crate::rack::Rack;
pub use crate::sim::{simulate, SimConfig};
use std::time::Instant;
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
