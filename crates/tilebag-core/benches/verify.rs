//! How fast the engine checks real game records: every parseable, verifiable record of the shared
//! corpus (`../shared/gcg`), loaded into memory once, then
//!
//! - `corpus/parse+verify`: read every record from its bytes and replay it, and
//! - `corpus/verify`: replay every (already parsed) record,
//!
//! with the throughput in games, so criterion reports games per second. Without the corpus (a
//! fresh clone) nothing is benchmarked.
//!
//! `cargo bench -p tilebag-core --bench verify -- --warm-up-time 1 --measurement-time 3`

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use tilebag_core::gcg::{parse_gcg, GcgRecord};
use tilebag_core::replay::verify_record;

/// The bytes of every corpus record that parses and verifies, with the record.
fn load_corpus() -> Option<Vec<(PathBuf, Vec<u8>, GcgRecord)>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gcg");
    let Ok(dir) = dir.canonicalize() else {
        eprintln!(
            "skipping the verify benchmarks: ../shared/gcg not found \
             (a fresh clone without the shared corpus)"
        );
        return None;
    };
    let mut paths = Vec::new();
    for source in ["liwords", "macondo", "quackle"] {
        let Ok(entries) = std::fs::read_dir(dir.join(source)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            if path.extension().is_some_and(|x| x == "gcg") {
                paths.push(path);
            }
        }
    }
    paths.sort();
    let mut games = Vec::new();
    for path in paths {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        // The refused records (an unreadable encoding, the Polish tile set) are left out.
        let Ok(record) = parse_gcg(&bytes) else {
            continue;
        };
        if verify_record(&record).is_err() {
            continue;
        }
        games.push((path, bytes, record));
    }
    Some(games)
}

fn bench_verify(c: &mut Criterion) {
    let Some(games) = load_corpus() else { return };
    if games.is_empty() {
        eprintln!("skipping the verify benchmarks: no verifiable record in ../shared/gcg");
        return;
    }
    let events: usize = games.iter().map(|(_, _, r)| r.events.len()).sum();
    let bytes: usize = games.iter().map(|(_, b, _)| b.len()).sum();
    eprintln!(
        "verify benchmark: {} games, {events} events, {bytes} bytes",
        games.len()
    );

    let mut group = c.benchmark_group("corpus");
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function("parse+verify", |b| {
        b.iter(|| {
            let mut total = 0i64;
            for (_, bytes, _) in &games {
                let record = parse_gcg(black_box(bytes)).expect("parsed before");
                let report = verify_record(&record).expect("verified before");
                total += i64::from(report.scores[0] + report.scores[1]);
            }
            black_box(total)
        })
    });
    group.bench_function("verify", |b| {
        b.iter(|| {
            let mut total = 0i64;
            for (_, _, record) in &games {
                let report = verify_record(black_box(record)).expect("verified before");
                total += i64::from(report.scores[0] + report.scores[1]);
            }
            black_box(total)
        })
    });
    group.finish();
}

criterion_group!(benches, bench_verify);
criterion_main!(benches);
