//! Profiling driver for self-play: `cargo run --release -p tilebag-engine --example selfplaybench
//! -- GAMES [SEED]` plays static against static on one thread with the built-in ENABLE list
//! (NASPA 2013 rules) and prints the games per second of this thread's CPU time. Under
//! `valgrind --tool=callgrind` it gives the instructions per game, whatever the machine's load.

use tilebag_core::Ruleset;
use tilebag_engine::selfplay::play_game;
use tilebag_engine::{Engine, LeaveTable, Level, SimConfig};
use tilebag_lexicon::Lexicon;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: u64 = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(20);
    let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
    let ruleset = Ruleset::preset("naspa-2013").expect("the NASPA preset");
    let tables = Engine::tables_for(&ruleset).expect("English tiles");
    let lex = Lexicon::builtin_enable();
    let engine = Engine::new(lex, &tables, LeaveTable::enable(), ruleset.exchange_min_bag);
    let _ = lex.automaton();
    let c0 = tilebag_engine::movegen::thread_cpu_ns();
    let mut moves = 0;
    for i in 0..games {
        let g = play_game(
            &engine,
            &ruleset,
            [Level::Static, Level::Static],
            seed + i,
            SimConfig::default(),
        );
        moves += g.moves;
    }
    let cpu = (tilebag_engine::movegen::thread_cpu_ns() - c0) as f64 / 1e9;
    println!(
        "{games} games, {moves} moves, {:.3} s CPU: {:.1} games/s on one thread",
        cpu,
        games as f64 / cpu
    );
}
