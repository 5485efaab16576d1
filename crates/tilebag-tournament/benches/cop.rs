//! COP's simulation: 100,000 simulated tournaments for a 24-player division with 5 rounds left
//! (goal: within 2 s on the 2-core project machine).
//!
//! `cargo bench -p tilebag-tournament --bench cop -- --warm-up-time 1 --measurement-time 10`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use tilebag_tournament::cop::{place_chances, SimStanding};

fn bench(c: &mut Criterion) {
    // 24 players after 7 rounds: 7–0 down to 0–7 in a spread of records.
    let field: Vec<SimStanding> = (0..24)
        .map(|i| SimStanding {
            wins2: 14 - (i * 14 / 23),
            spread: 400 - 35 * i,
        })
        .collect();
    let mut g = c.benchmark_group("cop");
    g.sample_size(10);
    g.bench_function("100k sims, 24 players, 5 rounds left", |b| {
        b.iter(|| black_box(place_chances(&field, 5, 3, 100_000, 1, 50)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
