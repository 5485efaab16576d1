//! Issue 13: tsh's per-round performance rating (what rating would produce a player's results so
//! far), worked by hand.
//!
//! NASPA's expectation against an opponent d points above you is 1 / (1 + e^(0.0031879·d)).
//! A player who won every game (or none) is counted as winning 95% (5%) of them, so one game
//! gives e^(0.0031879·d) = 1/19 (or 19): d = ∓ln 19 / 0.0031879 = ∓2.944439 / 0.0031879 =
//! ∓923.63. The result is at least 500 and at most the best rated opponent + 400 × wins/games.
//!
//! Four players, a round robin (the Berger table: round 1 Ann–Dan, Bob–Cat; round 2 Ann–Cat,
//! Bob–Dan; round 3 Ann–Bob, Cat–Dan): Ann 1900, Bob 1700, Cat 1600, Dan 1500.
//!
//! | round | games                                  |
//! |-------|----------------------------------------|
//! | 1     | Ann beats Dan 420–380; Cat beats Bob 400–390 |
//! | 2     | Ann ties Cat 400–400; Dan beats Bob 410–350 |
//! | 3     | Bob beats Ann 450–400; Cat beats Dan 380–370 |
//!
//! - Ann after round 1: 1 of 1 against 1500: 1500 + 923.63 = 2423.63, capped at 1500 + 400 × 1/1
//!   = 1900.
//! - Ann after round 3: 1.5 of 3 against 1500, 1600, 1700. At 1600 the expectations are
//!   E(−100) + E(0) + E(+100) = 1 + 0.5 = 1.5 (E(−d) + E(d) = 1): 1600 (cap 1700 + 400 × 1.5/3 =
//!   1900).
//! - Bob after round 1: 0 of 1 against 1600: 1600 − 923.63 = 676.37 → 676.
//! - Cat after round 1: 1 of 1 against 1700: 1700 + 923.63 = 2623.63, capped at 1700 + 400 =
//!   2100.
//! - Dan after round 1: 0 of 1 against 1900: 1900 − 923.63 = 976.37 → 976.
//! - Dan after round 2: 1 of 2 against 1900 and 1700: E(+100) + E(−100) = 1 at 1800 (cap 1900 +
//!   400 × 1/2 = 2100): 1800.

mod common;

use common::Event;
use tilebag_tournament::prizes::performance_by_round_table;

fn event() -> Event {
    let mut e = Event::new("naspa-2013", "RR", 1);
    for (n, r) in [("Ann", 1900), ("Bob", 1700), ("Cat", 1600), ("Dan", 1500)] {
        e.add(n, r);
    }
    // (player, score, opponent's score) for each pair, whatever its seats.
    let result = |a: u32, b: u32| -> (u32, i32, i32) {
        match (a.min(b), a.max(b)) {
            (1, 4) => (1, 420, 380),
            (2, 3) => (3, 400, 390),
            (1, 3) => (1, 400, 400),
            (2, 4) => (4, 410, 350),
            (1, 2) => (2, 450, 400),
            (3, 4) => (3, 380, 370),
            other => panic!("no result for {other:?}"),
        }
    };
    let want_pairs = [[(1, 4), (2, 3)], [(1, 3), (2, 4)], [(1, 2), (3, 4)]];
    for r in 1..=3 {
        e.pair(r);
        let mut pairs: Vec<(u32, u32)> = e
            .pairs(r)
            .into_iter()
            .map(|(a, b)| (a.min(b), a.max(b)))
            .collect();
        pairs.sort_unstable();
        assert_eq!(
            pairs,
            want_pairs[r as usize - 1],
            "round {r}: the Berger table"
        );
        for (a, b) in pairs {
            let (p, s, o) = result(a, b);
            e.score(r, p, s, o);
        }
    }
    e
}

#[test]
fn performance_ratings_worked_by_hand() {
    let e = event();
    let d = e.d();
    let perf = |through: u32, p: u32| -> f64 {
        d.performance_ratings(through)[p as usize - 1]
            .1
            .expect("a rated game")
    };
    assert!((perf(1, 1) - 1900.0).abs() < 1e-6, "{}", perf(1, 1));
    assert!((perf(3, 1) - 1600.0).abs() < 0.01, "{}", perf(3, 1));
    assert!((perf(1, 2) - 676.37).abs() < 0.01, "{}", perf(1, 2));
    assert!((perf(1, 3) - 2100.0).abs() < 1e-6, "{}", perf(1, 3));
    assert!((perf(1, 4) - 976.37).abs() < 0.01, "{}", perf(1, 4));
    assert!((perf(2, 4) - 1800.0).abs() < 0.01, "{}", perf(2, 4));
    // Every figure makes the expected wins equal the (clipped) actual ones, unless capped.
    let e_naspa = |you: f64, opp: f64| 1.0 / (1.0 + (0.0031879 * (opp - you)).exp());
    // Cat after round 2: 1.5 of 2 against Bob 1700 and Ann 1900.
    let x = perf(2, 3);
    assert!(
        (e_naspa(x, 1700.0) + e_naspa(x, 1900.0) - 1.5).abs() < 1e-6,
        "Cat {x}"
    );

    // The table, rounded, one column a round; round 1's as worked above.
    let t = performance_by_round_table(d, 3);
    let heads: Vec<&str> = t.cols.iter().map(|c| c.0).collect();
    assert_eq!(heads, ["#", "Player", "Rating", "R1", "R2", "R3"]);
    let r1: Vec<&str> = t.rows.iter().map(|r| r[3].as_str()).collect();
    assert_eq!(r1, ["1900", "676", "2100", "976"]);
    assert_eq!(t.rows[0][5], "1600");
    assert_eq!(t.rows[3][4], "1800");
}

/// Before a player's first rated game there is no performance rating (an empty cell).
#[test]
fn no_rated_game_no_performance_rating() {
    let mut e = Event::new("naspa-2013", "RR", 1);
    for (n, r) in [("Ann", 1900), ("Bob", 1700), ("Cat", 1600), ("Dan", 1500)] {
        e.add(n, r);
    }
    e.pair(1);
    let (a, _) = e.pairs(1)[0];
    e.score(1, a, 400, 300);
    let perf = e.d().performance_ratings(1);
    let rated: Vec<bool> = perf.iter().map(|(_, x)| x.is_some()).collect();
    assert_eq!(rated.iter().filter(|x| **x).count(), 2, "{perf:?}");
    let t = performance_by_round_table(e.d(), 1);
    assert_eq!(t.rows.iter().filter(|r| r[3].is_empty()).count(), 2);
}
