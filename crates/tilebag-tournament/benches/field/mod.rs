//! A Swiss field with random results, for the benchmarks.

use tilebag_core::bag::Rng;
use tilebag_tournament::{Action, Pairing, ResultEntry, Tournament};

/// A Swiss of `players` with `played` rounds already played (random scores), and its log.
#[allow(dead_code)] // not every bench uses it
pub fn field(players: usize, played: u32) -> (Tournament, Vec<Action>) {
    field_with(players, played, "SW:40")
}

/// As [`field`], with the division's schedule (which sets how many rounds are left).
pub fn field_with(players: usize, played: u32, schedule: &str) -> (Tournament, Vec<Action>) {
    let mut t = Tournament::default();
    let mut log = Vec::new();
    let mut rng = Rng::new(1000);
    let mut apply = |t: &mut Tournament, a: Action| {
        t.apply(&a).expect("accepted");
        log.push(a);
    };
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
            schedule: schedule.into(),
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
    (t, log)
}
