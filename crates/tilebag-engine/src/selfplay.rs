//! Self-play: two bots play a whole game through the core's state machine (the same rules as
//! people play by), so every game can be written as GCG and verified.

use crate::bot::{choose, ends_after_zeros, should_challenge, Level, SimConfig};
use crate::engine::{Engine, Situation};
use tilebag_core::bag::Rng;
use tilebag_core::game::TurnKind;
use tilebag_core::ruleset::SixZeroEnding;
use tilebag_core::{Action, Actor, Event, Game, Phase, Ruleset};

/// A finished self-play game.
pub struct SelfPlayGame {
    pub game: Game,
    /// The level in each seat.
    pub levels: [Level; 2],
    /// Moves made (plays, exchanges and passes).
    pub moves: usize,
    /// Bingos per seat.
    pub bingos: [u32; 2],
    /// Why a bot had to pass instead of its choice, if that ever happened (it should not).
    pub notes: Vec<String>,
}

/// Plays one game. `seed` makes the bag (and the bots' own random choices, seeded apart).
pub fn play_game(
    engine: &Engine<'_>,
    ruleset: &Ruleset,
    levels: [Level; 2],
    seed: u64,
    sim: SimConfig,
) -> SelfPlayGame {
    play_game_with([engine, engine], ruleset, levels, seed, sim)
}

/// Plays one game with an engine for each seat (each with its own leave table, say); the first
/// seat's lexicon judges the words played (the engines should share it).
pub fn play_game_with(
    engines: [&Engine<'_>; 2],
    ruleset: &Ruleset,
    levels: [Level; 2],
    seed: u64,
    sim: SimConfig,
) -> SelfPlayGame {
    let mut game = Game::new(ruleset.clone(), seed);
    let mut rngs = [Rng::new(seed ^ 0xB0B0_0001), Rng::new(seed ^ 0xB0B0_0002)];
    let mut at_ms = 0i64;
    let mut moves = 0usize;
    let mut notes = Vec::new();
    let judge = engines[0].lexicon;
    for _ in 0..1000 {
        if game.is_over() {
            break;
        }
        at_ms += 1000;
        let seat = game.to_move();
        let action = match game.phase().clone() {
            Phase::Ended { .. } => break,
            Phase::PlayPending { out: true, .. } => {
                let words = game
                    .pending_play()
                    .map(|p| p.words.iter().map(|w| w.word.clone()).collect::<Vec<_>>())
                    .unwrap_or_default();
                if should_challenge(engines[seat], &words) {
                    Action::Challenge { words: Vec::new() }
                } else {
                    Action::Accept
                }
            }
            _ => {
                let s = Situation::from_game(&game, seat);
                let m = choose(engines[seat], &s, levels[seat], &mut rngs[seat], sim);
                let six = ruleset.six_zero;
                let may_end =
                    six.ending == SixZeroEnding::EitherPlayerMayEnd && game.zero_run() >= six.turns;
                moves += 1;
                if may_end && ends_after_zeros(engines[seat], &s, &m) {
                    Action::EndAfterSixZeros
                } else {
                    m.action()
                }
            }
        };
        let ev = Event {
            actor: Actor::Seat(seat),
            at_ms,
            action,
        };
        if let Err(e) = game.apply(&ev, judge) {
            // Never expected: the generator only makes legal moves. Pass instead, and say why.
            notes.push(format!(
                "seat {seat}: {:?} refused ({e}); passing",
                ev.action
            ));
            let pass = Event {
                actor: Actor::Seat(seat),
                at_ms,
                action: Action::Pass,
            };
            if game.apply(&pass, judge).is_err() {
                notes.push("the pass was refused too; stopping".into());
                break;
            }
        }
    }
    let mut bingos = [0u32; 2];
    let rack_size = ruleset.rack_size;
    for t in game.history() {
        if matches!(t.kind, TurnKind::Play { .. }) && t.rack.len() == rack_size {
            // A bingo scores at least 50 more than its tiles: count plays that used all seven.
            if let TurnKind::Play { word, .. } = &t.kind {
                let placed = word.chars().filter(|&c| c != '.').count();
                if placed == rack_size {
                    bingos[t.seat] += 1;
                }
            }
        }
    }
    SelfPlayGame {
        game,
        levels,
        moves,
        bingos,
        notes,
    }
}
