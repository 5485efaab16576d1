//! Bots play whole games through the core's rules; every game's GCG verifies with the same
//! final scores, and no bot ever has a move refused.

use tilebag_core::gcg::GcgPlayer;
use tilebag_core::replay::{game_to_gcg, verify_record};
use tilebag_core::Ruleset;
use tilebag_engine::selfplay::{play_game, SelfPlayGame};
use tilebag_engine::{Engine, Leaves, Level, SimConfig, Tables};
use tilebag_lexicon::Lexicon;

fn players() -> [GcgPlayer; 2] {
    [
        GcgPlayer {
            nick: "bot1".into(),
            name: "Bot One".into(),
        },
        GcgPlayer {
            nick: "bot2".into(),
            name: "Bot Two".into(),
        },
    ]
}

/// The game ended, no move of either bot was refused, and its GCG verifies with the same final
/// scores.
fn check_verifies(g: &SelfPlayGame, what: &str) {
    assert!(g.notes.is_empty(), "{what}: {:?}", g.notes);
    assert!(g.game.is_over(), "{what}: the game did not end");
    let record = game_to_gcg(&g.game, players());
    let report =
        verify_record(&record).unwrap_or_else(|e| panic!("{what}: line {}: {}", e.line, e.message));
    assert_eq!(report.scores, g.game.scores(), "{what}");
}

#[test]
fn bot_games_verify_and_no_move_is_refused() {
    let lex = Lexicon::builtin_enable();
    let t = Tables::english();
    let engine = Engine::new(lex, &t, Leaves::enable(), 7);
    for (i, preset) in ["naspa-2013", "wespa-2010", "sanspa-1999"]
        .iter()
        .enumerate()
    {
        let ruleset = Ruleset::preset(preset).unwrap();
        for seed in 0..3u64 {
            let levels = if seed % 2 == 0 {
                [Level::Static, Level::Beginner]
            } else {
                [Level::Beginner, Level::Static]
            };
            let g = play_game(
                &engine,
                &ruleset,
                levels,
                seed + 100 * i as u64,
                SimConfig::default(),
            );
            check_verifies(&g, &format!("{preset} seed {seed}"));
        }
    }
}

#[test]
fn the_static_level_beats_the_beginner() {
    let lex = Lexicon::builtin_enable();
    let t = Tables::english();
    let engine = Engine::new(lex, &t, Leaves::enable(), 7);
    let ruleset = Ruleset::preset("naspa-2013").unwrap();
    let mut wins = 0;
    let n = 20;
    for seed in 0..n {
        let (levels, me) = if seed % 2 == 0 {
            ([Level::Static, Level::Beginner], 0)
        } else {
            ([Level::Beginner, Level::Static], 1)
        };
        let g = play_game(&engine, &ruleset, levels, 1000 + seed, SimConfig::default());
        let s = g.game.scores();
        if s[me] > s[1 - me] {
            wins += 1;
        }
    }
    // The beginner must lose most games to the strong level (measured over 1,000 games in the
    // closing note; 20 here keep the test quick).
    assert!(wins >= 14, "static won only {wins} of {n}");
}

/// The simulating level, on a short budget, plays whole games against the static one in either
/// seat, through the pre-endgame (its samples played out to the end) and the endgame: each
/// record verifies with the same final scores and no move of either is refused.
#[test]
fn the_simulating_level_plays_games_that_verify() {
    let lex = Lexicon::builtin_enable();
    let t = Tables::english();
    let engine = Engine::new(lex, &t, Leaves::enable(), 7);
    let ruleset = Ruleset::preset("naspa-2013").unwrap();
    let sim = SimConfig {
        budget: std::time::Duration::from_millis(15),
        threads: 2,
        ..SimConfig::default()
    };
    for seed in 0..2u64 {
        let levels = if seed == 0 {
            [Level::Simulating, Level::Static]
        } else {
            [Level::Static, Level::Simulating]
        };
        let g = play_game(&engine, &ruleset, levels, 500 + seed, sim);
        check_verifies(&g, &format!("seed {seed}"));
    }
}

/// The analysis of a game's first move does not list a word and its mirror image (8D WINDY and
/// D8 WINDY score the same on the empty board) as two alternatives.
#[test]
fn first_move_alternatives_are_not_mirror_images() {
    let lex = Lexicon::builtin_enable();
    let t = Tables::english();
    let engine = Engine::new(lex, &t, Leaves::enable(), 7);
    let ruleset = Ruleset::preset("naspa-2013").unwrap();
    for seed in 0..4u64 {
        let g = play_game(
            &engine,
            &ruleset,
            [Level::Static, Level::Static],
            seed,
            SimConfig::default(),
        );
        let record = game_to_gcg(&g.game, players());
        let (turns, _) = tilebag_engine::analysis::analyze(&record, &engine, 10).unwrap();
        let first = &turns[0];
        assert!(first.grid.is_empty(), "seed {seed}: the first turn");
        assert!(
            first.best.len() >= 5,
            "seed {seed}: {} alternatives",
            first.best.len()
        );
        for (i, a) in first.best.iter().enumerate() {
            for b in &first.best[i + 1..] {
                assert!(
                    !tilebag_engine::analysis::mirrors(a, b),
                    "seed {seed}: {a:?} and its mirror {b:?} both listed"
                );
            }
        }
        // Later turns are not affected: a move and its mirror are different plays there.
        assert!(turns.len() > 1);
    }
}
