//! Lexicon benchmarks: build, load (`from_bytes`) and lookups, for ENABLE1 (words of at most 15
//! letters, 168,548) and a 280,000-word list (ENABLE1 grown by `synth::large_list`, about CSW19's
//! size). Lookups are a fixed mixed batch (half present, half absent) run against the DAWG and,
//! in the same run, against a `HashSet<String>` baseline.
//!
//! `cargo bench -p tilebag-lexicon --bench lexicon`

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::collections::HashSet;
use std::time::Duration;
use tilebag_lexicon::synth::{large_list, mixed_batch};
use tilebag_lexicon::{parse_word_list, Lexicon, ENABLE1_TEXT};

/// ENABLE1's playable words and the 280k list, both sorted.
fn lists() -> Vec<(&'static str, Vec<String>)> {
    let enable: Vec<String> = parse_word_list(ENABLE1_TEXT)
        .expect("embedded ENABLE1 parses")
        .into_iter()
        .filter(|w| w.len() <= 15)
        .collect();
    let big = large_list(&enable, 280_000, 2024);
    vec![("enable", enable), ("280k", big)]
}

fn bench(c: &mut Criterion) {
    for (label, words) in lists() {
        let lex = Lexicon::from_words(&words, label).expect("builds");
        let bytes = lex.to_bytes();
        let set: HashSet<String> = words.iter().cloned().collect();
        let batch = mixed_batch(&words, 10_000, 7);

        let mut g = c.benchmark_group(format!("lexicon-{label}"));
        g.sample_size(10).measurement_time(Duration::from_secs(3));
        g.bench_function("build", |b| {
            b.iter(|| Lexicon::from_words(black_box(&words), label).expect("builds"))
        });
        g.bench_function("from_bytes", |b| {
            b.iter(|| Lexicon::from_bytes(black_box(&bytes)).expect("loads"))
        });
        g.finish();

        let mut g = c.benchmark_group(format!("lookup-{label}"));
        g.throughput(Throughput::Elements(batch.len() as u64));
        g.bench_with_input(BenchmarkId::new("dawg", batch.len()), &batch, |b, batch| {
            b.iter(|| batch.iter().filter(|w| lex.contains(w)).count())
        });
        g.bench_with_input(
            BenchmarkId::new("hashset", batch.len()),
            &batch,
            |b, batch| b.iter(|| batch.iter().filter(|w| set.contains(w.as_str())).count()),
        );
        g.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
