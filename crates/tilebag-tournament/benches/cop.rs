//! COP (contender-aware pairings, issue 13's goal: within 2 s for 100,000 simulated tournaments
//! on the 2-core project machine).
//!
//! - `place_chances`: the simulation alone, for a 24-player division with 5 rounds left.
//! - `propose COP`: the whole pairing a director asks for (`tilebag td pair … COP`): standings,
//!   100,000 simulated tournaments for the contenders, then, with 4 rounds or fewer left, the
//!   control-loss check (10,000 simulations in which the leader wins every game, and 10,000 more
//!   for who can still finish first when the leader has lost control), then the Swiss of each
//!   group. Divisions of 24, 100 and 300 players after random Swiss rounds, 5 and 4 rounds left, 3
//!   places paid.
//!
//! Issue 27's goal: under 1 s of CPU on one core for 300 players. Before timing, each division's
//! pairing is made three times and the mean wall and CPU time printed (CPU: every thread's, from
//! `/proc/self/stat`, so it holds whatever the machine's load or cores).
//!
//! `cargo bench -p tilebag-tournament --bench cop -- --warm-up-time 1 --measurement-time 10`
//!
//! On one core (the simulations then run on one thread, so the time measured is the CPU a
//! pairing costs):
//! `taskset -c 0 cargo bench -p tilebag-tournament --bench cop -- --warm-up-time 1 --measurement-time 10 300`

mod field;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use field::field_with;
use tilebag_tournament::cop::{place_chances, SimStanding};
use tilebag_tournament::{Action, Division, Method, Setting};

/// A Swiss of `players` over `total` rounds with `played` played, 3 places paid.
fn division(players: usize, played: u32, total: u32) -> Division {
    let (mut t, _) = field_with(players, played, &format!("SW:{total}"));
    let d = t.division("A").unwrap();
    let setting = Setting::parse(d, "prize-bands", "3").unwrap();
    t.apply(&Action::Configure {
        division: "A".into(),
        setting,
    })
    .unwrap();
    t.division("A").unwrap().clone()
}

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
    for players in [24, 100, 300] {
        for left in [5, 4] {
            let played = 12 - left;
            let d = division(players, played, 12);
            let round = played + 1;
            // Untimed: the pairing is COP's, and what it did (contenders, control loss).
            let (start, cpu) = (std::time::Instant::now(), cpu_time());
            let mut p = d.propose(round, Some(Method::Cop), None).expect("COP");
            for _ in 1..3 {
                p = d.propose(round, Some(Method::Cop), None).expect("COP");
            }
            let took = start.elapsed() / 3;
            let cpu = match (cpu, cpu_time()) {
                (Some(a), Some(b)) => format!("{:?}", (b - a) / 3),
                _ => "unknown".into(),
            };
            assert_eq!(p.method, Method::Cop);
            eprintln!(
                "{players} players, {left} rounds left: one COP pairing took {took:?}, CPU {cpu}"
            );
            for n in p.notes.iter().filter(|n| n.starts_with("COP")) {
                eprintln!("  {n}");
            }
            g.bench_function(
                format!("propose COP, {players} players, {left} rounds left"),
                |b| b.iter(|| black_box(d.propose(round, Some(Method::Cop), None).unwrap())),
            );
        }
    }
    g.finish();
}

/// The CPU time this process has used (user and system, every thread), where Linux reports it:
/// fields 14 and 15 of `/proc/self/stat`, in ticks of 1/100 s.
fn cpu_time() -> Option<std::time::Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The fields after the command name (in parentheses) start at field 3.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(std::time::Duration::from_millis(ticks * 10))
}

criterion_group!(benches, bench);
criterion_main!(benches);
