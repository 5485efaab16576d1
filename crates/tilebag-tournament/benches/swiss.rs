//! Pairing one Swiss round for 1,000 players (goal: well under 1 s), after 0, 5 and 12 rounds of
//! random results. Before timing, each setup checks that the pairing has no repeats.
//!
//! `cargo bench -p tilebag-tournament --bench swiss -- --warm-up-time 1 --measurement-time 5`

mod field;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use field::field;
use tilebag_tournament::Tournament;

fn check_no_repeats(t: &Tournament, round: u32) {
    let d = t.division("A").unwrap();
    let start = std::time::Instant::now();
    let p = d.propose(round, None, None).expect("proposal");
    let took = start.elapsed();
    let repeats = p
        .pairings
        .iter()
        .filter_map(|x| x.game())
        .filter(|g| d.times_met(g.first, g.second, round) > 0)
        .count();
    assert_eq!(repeats, 0, "round {round}: repeats in a 1,000-player Swiss");
    eprintln!("1,000 players, round {round}: one pairing took {took:?}, no repeats");
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("swiss-1000");
    g.sample_size(10);
    for played in [0u32, 5, 12] {
        let (t, _) = field(1000, played);
        check_no_repeats(&t, played + 1);
        let d = t.division("A").unwrap().clone();
        g.bench_function(format!("round {}", played + 1), |b| {
            b.iter(|| black_box(d.propose(played + 1, None, None).unwrap()))
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
