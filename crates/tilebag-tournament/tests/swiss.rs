//! The Swiss: a minimum-cost perfect matching that avoids repeats whenever a repeat-free pairing
//! exists, keeps equal wins together and folds each win group (top half v bottom half).

mod common;

use common::Event;
use tilebag_core::bag::Rng;

/// The fewest repeat games any pairing of `players` can have, given who has met (exhaustive).
fn fewest_repeats(players: &[u32], met: &dyn Fn(u32, u32) -> bool) -> usize {
    fn rec(left: &mut Vec<u32>, met: &dyn Fn(u32, u32) -> bool, best: &mut usize, acc: usize) {
        if acc >= *best {
            return;
        }
        if left.is_empty() {
            *best = acc;
            return;
        }
        let a = left.remove(0);
        for i in 0..left.len() {
            let b = left.remove(i);
            rec(left, met, best, acc + met(a, b) as usize);
            left.insert(i, b);
        }
        left.insert(0, a);
    }
    let mut best = usize::MAX;
    rec(&mut players.to_vec(), met, &mut best, 0);
    best
}

#[test]
fn swiss_has_no_repeats_while_a_repeat_free_pairing_exists() {
    // Random events of 6–13 players, Swiss every round, results at random; at every round the
    // number of repeats equals the fewest possible for the players paired (so zero whenever a
    // repeat-free pairing exists), checked exhaustively.
    let mut rng = Rng::new(2024);
    let mut zero_rounds = 0;
    let mut forced_rounds = 0;
    for case in 0..40 {
        let n = 6 + rng.below(8) as u32;
        let rounds = n; // past a round robin's worth, repeats become unavoidable
        let mut e = Event::new("naspa-2013", &format!("SW:{rounds}"), case);
        for i in 1..=n {
            e.add(
                &format!("Swiss{i:02}, Player"),
                1500 + rng.below(500) as i32,
            );
        }
        for r in 1..=rounds {
            e.pair(r);
            let d = e.d();
            let players: Vec<u32> = e
                .games(r)
                .iter()
                .flat_map(|g| [g.first, g.second])
                .collect();
            let met = |a: u32, b: u32| d.times_met(a, b, r) > 0;
            let got = e.games(r).iter().filter(|g| met(g.first, g.second)).count();
            let best = fewest_repeats(&players, &met);
            assert_eq!(
                got, best,
                "case {case} round {r}: {got} repeats, {best} possible"
            );
            if best == 0 {
                zero_rounds += 1;
            } else {
                forced_rounds += 1;
            }
            for g in e.games(r) {
                let s = rng.below(300) as i32 + 250;
                let o = rng.below(300) as i32 + 250;
                e.score(r, g.first, s, o);
            }
        }
    }
    assert!(
        zero_rounds > 200 && forced_rounds > 10,
        "{zero_rounds} {forced_rounds}"
    );
}

#[test]
fn swiss_first_round_folds_the_field_by_seed() {
    // Everyone at 0–0: one group of 8, top half against bottom half.
    let mut e = Event::new("naspa-2013", "SW:2", 1);
    e.add_seeded(8);
    e.pair(1);
    assert_eq!(e.pairs(1), vec![(1, 5), (2, 6), (3, 7), (4, 8)]);
}

#[test]
fn swiss_keeps_equal_wins_together() {
    // After round 1 (1v5 … won by the better seed), winners 1–4 and losers 5–8 each fold:
    // 1v3, 2v4 and 5v7, 6v8 — no one crosses win groups, nobody repeats.
    let mut e = Event::new("naspa-2013", "SW:2", 1);
    e.add_seeded(8);
    e.pair(1);
    e.better_seed_wins(1);
    e.pair(2);
    assert_eq!(e.pairs(2), vec![(1, 3), (2, 4), (5, 7), (6, 8)]);
}

#[test]
fn swiss_crosses_to_the_nearest_win_group_to_avoid_a_repeat() {
    // Six players; round 1 folds 1v4, 2v5, 3v6. 1 and 4 tie; 2 and 3 win. Win groups in
    // half-wins: {2,3} at 2, {1,4} at 1, {5,6} at 0. 1v4 would be a repeat, so 1 and 4 each
    // cross to a neighbouring group (one half-win apart, cost G each) rather than anyone
    // crossing two groups (four times the cost) or repeating (prohibitive).
    let mut e = Event::new("naspa-2013", "SW:2", 1);
    e.add_seeded(6);
    e.pair(1);
    assert_eq!(e.pairs(1), vec![(1, 4), (2, 5), (3, 6)]);
    e.score(1, 1, 350, 350);
    e.score(1, 2, 400, 300);
    e.score(1, 3, 400, 300);
    e.pair(2);
    let d = e.d();
    for g in e.games(2) {
        let w = |p| e.standing(1, p).wins2 as i32;
        assert!((w(g.first) - w(g.second)).abs() <= 1, "{g:?}");
        assert_eq!(d.times_met(g.first, g.second, 2), 0);
    }
}

#[test]
fn swiss_two_hundred_players_ten_rounds_without_repeats() {
    let mut e = Event::new("naspa-2013", "SW:10", 77);
    let mut rng = Rng::new(1);
    for i in 0..200 {
        e.add(
            &format!("Field{i:03}, Player"),
            1000 + rng.below(1200) as i32,
        );
    }
    for r in 1..=10 {
        let notes = e.pair(r);
        assert!(notes.is_empty(), "round {r}: {notes:?}");
        let d = e.d();
        for g in e.games(r) {
            assert_eq!(d.times_met(g.first, g.second, r), 0);
        }
        for g in e.games(r) {
            e.score(
                r,
                g.first,
                300 + rng.below(200) as i32,
                300 + rng.below(200) as i32,
            );
        }
    }
}
