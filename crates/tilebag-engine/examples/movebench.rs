//! Quick profiling driver: `cargo run --release -p tilebag-engine --example movebench -- FILE [passes]`.
//! Generates every placement for each CGP line with the built-in ENABLE list and prints the
//! count, wall time and this thread's CPU time (what `tilebag bench movegen` also reports).

use std::time::Instant;
use tilebag_engine::{generate, CgpPosition, GenOptions, Graphs, Prepared, Tables};
use tilebag_lexicon::Lexicon;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("a CGP file");
    let passes: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3);
    let top1 = args.get(3).is_some_and(|s| s == "top1");
    let t = Tables::english();
    let text = std::fs::read_to_string(path).expect("readable");
    let positions: Vec<CgpPosition> = text
        .lines()
        .filter_map(|l| CgpPosition::parse(l, &t).ok())
        .collect();
    let t0 = Instant::now();
    let lex = Lexicon::builtin_enable();
    let g = &Graphs::of(lex);
    eprintln!("load {:?}", t0.elapsed());
    for _ in 0..passes {
        let c0 = tilebag_engine::movegen::thread_cpu_ns();
        let w0 = Instant::now();
        let mut n = 0u64;
        let mut best_total = 0i64;
        for p in &positions {
            let prep = Prepared::new(&p.grid, g, &t);
            if top1 {
                let m = tilebag_engine::movegen::best_by_score(
                    &prep,
                    &p.rack,
                    g,
                    &t,
                    GenOptions::default(),
                );
                best_total += i64::from(m.map_or(0, |m| m.score));
                n += u64::from(m.is_some());
                continue;
            }
            let mut best = 0;
            generate(&prep, &p.rack, g, &t, GenOptions::default(), &mut |c| {
                n += 1;
                best = best.max(c.score);
            });
            best_total += i64::from(best);
        }
        let cpu = (tilebag_engine::movegen::thread_cpu_ns() - c0) as f64 / 1e9;
        let wall = w0.elapsed().as_secs_f64();
        println!(
            "placements {n} best {best_total} wall {:.3}s cpu {:.3}s {:.2} M/s(cpu) {:.1} us/pos(cpu)",
            wall,
            cpu,
            n as f64 / cpu / 1e6,
            cpu * 1e6 / positions.len() as f64
        );
    }
}
