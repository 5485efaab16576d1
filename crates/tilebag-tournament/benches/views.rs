//! What every page and command of a big event costs: replaying its log (each `tilebag td`
//! command and each director page replays the event file) and the standings, firsts and rating
//! estimates they show. A 300-player, 31-round Swiss (about 4,650 results).
//!
//! `cargo bench -p tilebag-tournament --bench views -- --warm-up-time 1 --measurement-time 5`

mod field;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use field::field;
use tilebag_tournament::Tournament;

fn bench(c: &mut Criterion) {
    let (t, log) = field(300, 31);
    eprintln!("300 players, 31 rounds: {} actions in the log", log.len());
    assert_eq!(
        Tournament::replay(&log).unwrap(),
        t,
        "the log replays to the same state"
    );
    let d = t.division("A").unwrap().clone();
    let mut g = c.benchmark_group("event-300x31");
    g.sample_size(10);
    g.bench_function("replay the log", |b| {
        b.iter(|| black_box(Tournament::replay(&log).unwrap()))
    });
    g.bench_function("standings", |b| b.iter(|| black_box(d.standings(31))));
    g.bench_function("firsts tally", |b| b.iter(|| black_box(d.firsts_tally(32))));
    g.bench_function("rating estimates", |b| {
        b.iter(|| black_box(d.rating_estimates(31)))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
