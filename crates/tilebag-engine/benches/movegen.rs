//! Move generation over the shared corpus (`../shared/positions/corpus.cgp`) with the built-in
//! ENABLE list: all placements, and the best by score. Skips when `../shared` is absent.
//! `tilebag bench movegen` prints the same figures (placements per second, µs per position).

use criterion::{criterion_group, criterion_main, Criterion};
use tilebag_engine::movegen::best_by_score;
use tilebag_engine::{generate, CgpPosition, GenOptions, Graphs, Prepared, Tables};
use tilebag_lexicon::Lexicon;

fn bench(c: &mut Criterion) {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/positions/corpus.cgp"
    );
    let Ok(text) = std::fs::read_to_string(path) else {
        eprintln!("skipping: {path} is absent");
        return;
    };
    let t = Tables::english();
    let positions: Vec<CgpPosition> = text
        .lines()
        .filter_map(|l| CgpPosition::parse(l, &t).ok())
        .collect();
    let lex = Lexicon::builtin_enable();
    let g = &Graphs::of(lex);
    let mut group = c.benchmark_group("corpus");
    group.sample_size(10);
    group.bench_function("all placements (893 positions)", |b| {
        b.iter(|| {
            let mut n = 0usize;
            for p in &positions {
                let prep = Prepared::new(&p.grid, g, &t);
                generate(&prep, &p.rack, g, &t, GenOptions::default(), &mut |_| {
                    n += 1
                });
            }
            n
        })
    });
    group.bench_function("best by score (893 positions)", |b| {
        b.iter(|| {
            let mut total = 0i64;
            for p in &positions {
                let prep = Prepared::new(&p.grid, g, &t);
                let best = best_by_score(&prep, &p.rack, g, &t, GenOptions::default());
                total += i64::from(best.map_or(0, |m| m.score));
            }
            total
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
