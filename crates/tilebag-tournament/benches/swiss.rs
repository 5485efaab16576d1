//! Pairing one Swiss round for 1,000 players (goal: well under 1 s), after 0, 5 and 12 rounds of
//! random results. Before timing, each setup checks that the pairing has no repeats.
//!
//! `cargo bench -p tilebag-tournament --bench swiss -- --warm-up-time 1 --measurement-time 5`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use tilebag_core::bag::Rng;
use tilebag_tournament::{Action, Pairing, ResultEntry, Tournament};

/// A 1,000-player Swiss with `played` rounds already played (random scores).
fn field(players: usize, played: u32) -> Tournament {
    let mut t = Tournament::default();
    let mut rng = Rng::new(1000);
    let apply = |t: &mut Tournament, a: Action| t.apply(&a).expect("accepted");
    apply(
        &mut t,
        Action::CreateTournament {
            name: "Bench".into(),
            date: None,
        },
    );
    apply(
        &mut t,
        Action::AddDivision {
            division: "A".into(),
            preset: "naspa-2013".into(),
            schedule: "SW:20".into(),
            seed: 42,
        },
    );
    for i in 0..players {
        apply(
            &mut t,
            Action::AddPlayer {
                division: "A".into(),
                name: format!("Player{i:04}, Bench"),
                rating: 800 + rng.below(1400) as i32,
                member_id: None,
                career_games: None,
                members: Vec::new(),
            },
        );
    }
    for round in 1..=played {
        let (a, _) = t.pair("A", round, None, None).expect("paired");
        apply(&mut t, a);
        let games: Vec<(u32, u32)> = t.division("A").unwrap().rounds[round as usize - 1]
            .pairings
            .iter()
            .filter_map(|p| match p {
                Pairing::Game(g) => Some((g.first, g.second)),
                _ => None,
            })
            .collect();
        for (first, _) in games {
            let s = 300 + rng.below(250) as i32;
            let o = 300 + rng.below(250) as i32;
            apply(
                &mut t,
                Action::SetResult {
                    division: "A".into(),
                    round,
                    player: first,
                    result: ResultEntry::Scores {
                        score: s,
                        opponent_score: o,
                    },
                    note: String::new(),
                },
            );
        }
    }
    t
}

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
        let t = field(1000, played);
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
