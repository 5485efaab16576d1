//! Pairing methods, worked by hand where the method allows.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::Event;
use tilebag_tournament::*;

fn all_pairs(e: &Event, rounds: std::ops::RangeInclusive<u32>) -> BTreeMap<(u32, u32), u32> {
    let mut m = BTreeMap::new();
    for r in rounds {
        for p in e.pairs(r) {
            *m.entry(p).or_insert(0) += 1;
        }
    }
    m
}

#[test]
fn round_robin_berger_tables_meet_everyone_once() {
    let mut e = Event::new("naspa-2013", "RR", 1);
    e.add_seeded(6);
    assert_eq!(e.d().total_rounds(), 5);
    for r in 1..=5 {
        e.pair(r);
        e.better_seed_wins(r);
    }
    let m = all_pairs(&e, 1..=5);
    assert_eq!(m.len(), 15);
    assert!(m.values().all(|&c| c == 1));
    // Seeded 1–6, the better seed always winning: 5–0, 4–1, …, 0–5.
    let wins: Vec<u32> = (1..=6).map(|p| e.standing(5, p).wins2 / 2).collect();
    assert_eq!(wins, vec![5, 4, 3, 2, 1, 0]);
}

#[test]
fn double_round_robin_with_an_odd_field() {
    let mut e = Event::new("naspa-2013", "DRR", 1);
    e.add_seeded(5);
    // Five players and a bye seat: 5 rounds a cycle, 10 in all.
    assert_eq!(e.d().total_rounds(), 10);
    for r in 1..=10 {
        e.pair(r);
        assert_eq!(e.byes(r).len(), 1);
        e.better_seed_wins(r);
    }
    let m = all_pairs(&e, 1..=10);
    assert_eq!(m.len(), 10);
    assert!(m.values().all(|&c| c == 2), "{m:?}");
    // Each player has one bye a cycle.
    for p in 1..=5 {
        assert_eq!(e.standing(10, p).byes, 2);
    }
}

#[test]
fn king_of_the_hill_pairs_1v2_3v4() {
    let mut e = Event::new("naspa-2013", "RR:1 KOTH:1", 1);
    e.add_seeded(6);
    e.pair(1);
    e.better_seed_wins(1);
    e.pair(2);
    let order = e.order(1);
    let mut want: Vec<(u32, u32)> = order
        .chunks(2)
        .map(|c| (c[0].min(c[1]), c[0].max(c[1])))
        .collect();
    want.sort();
    assert_eq!(e.pairs(2), want);
}

#[test]
fn initial_fontes_draws_one_player_per_seed_band() {
    let groups_of = |e: &Event| -> BTreeSet<Vec<u32>> {
        // Groups are the connected components of the three rounds' games.
        let mut adj: BTreeMap<u32, BTreeSet<u32>> = BTreeMap::new();
        for r in 1..=3 {
            for (a, b) in e.pairs(r) {
                adj.entry(a).or_default().insert(b);
                adj.entry(b).or_default().insert(a);
            }
        }
        let mut seen = BTreeSet::new();
        let mut groups = BTreeSet::new();
        for &start in adj.keys() {
            if seen.contains(&start) {
                continue;
            }
            let mut stack = vec![start];
            let mut g = Vec::new();
            while let Some(x) = stack.pop() {
                if seen.insert(x) {
                    g.push(x);
                    stack.extend(adj[&x].iter().copied());
                }
            }
            g.sort();
            groups.insert(g);
        }
        groups
    };
    let run = |seed: u64| {
        let mut e = Event::new("naspa-2013", "IF:3 SW:1", seed);
        e.add_seeded(24);
        for r in 1..=3 {
            e.pair(r);
        }
        e
    };
    let e = run(1);
    let groups = groups_of(&e);
    assert_eq!(groups.len(), 6);
    for g in &groups {
        // A round robin of four (every pair once) with one player from each band of six.
        assert_eq!(g.len(), 4);
        let bands: BTreeSet<u32> = g.iter().map(|p| (p - 1) / 6).collect();
        assert_eq!(bands.len(), 4, "{g:?}");
    }
    assert!(all_pairs(&e, 1..=3).values().all(|&c| c == 1));
    // Deterministic given the seed; another seed draws other groups.
    assert_eq!(groups_of(&run(1)), groups);
    assert_ne!(groups_of(&run(2)), groups);
}

#[test]
fn initial_fontes_with_an_odd_field_gives_distinct_byes() {
    let mut e = Event::new("naspa-2013", "IF:3", 4);
    e.add_seeded(21);
    let mut byes = BTreeSet::new();
    for r in 1..=3 {
        e.pair(r);
        let b = e.byes(r);
        assert_eq!(b.len(), 1);
        byes.insert(b[0]);
    }
    assert_eq!(byes.len(), 3, "three different players sit out");
    assert!(all_pairs(&e, 1..=3).values().all(|&c| c == 1), "no repeats");
}

#[test]
fn australian_draw_worked_by_hand() {
    let mut e = Event::new("naspa-2013", "AD:3", 1);
    e.add_seeded(8);
    // Round 1 is a casement draw: the top half against the bottom half by seed.
    e.pair(1);
    assert_eq!(e.pairs(1), vec![(1, 5), (2, 6), (3, 7), (4, 8)]);
    e.better_seed_wins(1);
    // After round 1: 1 2 3 4 won (+100). The top remaining player meets the highest not yet
    // met: 1v2, then 3v4, 5v6, 7v8.
    e.pair(2);
    assert_eq!(e.pairs(2), vec![(1, 2), (3, 4), (5, 6), (7, 8)]);
    e.better_seed_wins(2);
    // After round 2: 2–0 1 3; 1–1 2 4 5 7 (spread 0, by rating); 0–2 6 8.
    // 1 meets 3; 2 (met 6 and 1) meets 4; 5 (met 1, 6) meets 7; 6 meets 8.
    assert_eq!(e.order(2), vec![1, 3, 2, 4, 5, 7, 6, 8]);
    e.pair(3);
    assert_eq!(e.pairs(3), vec![(1, 3), (2, 4), (5, 7), (6, 8)]);
}

#[test]
fn gibsonization_pairs_the_gibson_with_the_highest_non_contender() {
    // Six players; rounds 1–3 by hand, round 4 Swiss with Gibsonization at 250 a round and two
    // prize places.
    let mut e = Event::new("naspa-2013", "MAN:3 SW:1", 1);
    e.set(Setting::Gibson(Some(GibsonConfig {
        spread_per_round: 250,
        prize_places: 2,
    })));
    e.add_seeded(6);
    let rounds = [
        // (winner, loser, winner's score, loser's score)
        [(1, 2, 600, 0), (3, 4, 400, 390), (5, 6, 400, 390)],
        [(1, 3, 500, 200), (2, 5, 400, 390), (4, 6, 400, 390)],
        [(1, 4, 600, 0), (6, 2, 400, 390), (3, 5, 400, 390)],
    ];
    for (i, games) in rounds.iter().enumerate() {
        let r = i as u32 + 1;
        for &(w, l, ws, ls) in games {
            e.manual(r, w, Some(l));
            e.score(r, w, ws, ls);
        }
    }
    // After round 3:
    //   1: 3–0, +600 +300 +600 = +1500
    //   3: 2–1, +10 −300 +10 = −280
    //   5: 1–2, +10 −10 −10 = −10;  6: 1–2, −10 −10 +10 = −10 (5 rated higher)
    //   2: 1–2, −600 +10 −10 = −600; 4: 1–2, −10 +10 −600 = −600 (2 rated higher)
    assert_eq!(e.order(3), vec![1, 3, 5, 6, 2, 4]);
    // One round left. Nobody catches 1: 3 is one win behind (two half-wins = 2 × 1 round) and
    // would need −280 + 250 ≥ 1500. So 1 is a Gibson; 3 is not (5 can still tie on wins and
    // −10 + 250 ≥ −280).
    // Prize places 1–2: 2 and 4 cannot reach 2nd (−600 + 250 < −280), 5 and 6 can. The Gibson
    // meets the highest non-contender with the fewest meetings: 2 and 4 have each met 1 once,
    // 2 ranks higher.
    let notes = e.pair(4);
    assert!(
        notes
            .iter()
            .any(|n| n.contains("Gibsonized") && n.contains("#1")),
        "{notes:?}"
    );
    // The rest is Swiss: 3 (alone at 2–1) must float, and has met 4, 1 and 5: 3v6, then 4v5.
    assert_eq!(e.pairs(4), vec![(1, 2), (3, 6), (4, 5)]);
}

#[test]
fn an_odd_gibson_takes_the_bye_in_an_odd_field() {
    let mut e = Event::new("naspa-2013", "MAN:2 KOTH:1", 1);
    e.set(Setting::Gibson(Some(GibsonConfig {
        spread_per_round: 100,
        prize_places: 3,
    })));
    e.add_seeded(5);
    e.manual(1, 1, Some(2));
    e.manual(1, 3, Some(4));
    e.manual(1, 5, None);
    e.score(1, 1, 500, 100);
    e.score(1, 3, 350, 340);
    e.manual(2, 1, Some(3));
    e.manual(2, 2, Some(5));
    e.manual(2, 4, None);
    e.score(2, 1, 500, 100);
    e.score(2, 2, 350, 340);
    // After 2: 1 is 2–0 (+800); everyone else 1–1: 4 and 5 at +40 (−10 + 50, +50 − 10), 2 and
    // 3 at −390. One round left: a 1–1 player ties on wins only by gaining 800 + 100 > 100.
    // 1 is a Gibson, alone, in a field of 5: 1 takes the bye; the rest play KOTH 4v5, 2v3.
    assert_eq!(e.order(2), vec![1, 4, 5, 2, 3]);
    e.pair(3);
    assert_eq!(e.byes(3), vec![1]);
    assert_eq!(e.pairs(3), vec![(2, 3), (4, 5)]);
}

#[test]
fn based_on_an_earlier_round_lets_the_next_round_be_posted_early() {
    // `@1`: round r is paired from the standings after round r − 2.
    let mut e = Event::new("naspa-2013", "SW:4@1", 1);
    e.add_seeded(8);
    e.pair(1);
    // Round 2 is based on round 0 and can be posted before any round-1 result; it still avoids
    // round 1's pairings.
    e.pair(2);
    assert_eq!(e.d().round(2).unwrap().based_on, 0);
    assert!(all_pairs(&e, 1..=2).values().all(|&c| c == 1));
    e.better_seed_wins(1);
    // Round 3 (based on 1) while round 2 is still being played.
    assert!(!e.d().round_complete(2));
    e.pair(3);
    assert_eq!(e.d().round(3).unwrap().based_on, 1);
    assert!(all_pairs(&e, 1..=3).values().all(|&c| c == 1));
    // Round 4 needs round 2's results.
    let err = e.t.pair("A", 4, None, None).unwrap_err();
    assert!(
        matches!(err, TournamentError::IncompleteRound { based_on: 2, .. }),
        "{err}"
    );
    // An explicit based-on round overrides the schedule.
    e.better_seed_wins(2);
    e.better_seed_wins(3);
    e.pair_with(4, Some(Method::KingOfTheHill), Some(3));
    assert_eq!(e.d().round(4).unwrap().based_on, 3);
    assert_eq!(e.d().round(4).unwrap().method, Method::KingOfTheHill);
}

#[test]
fn manual_edits() {
    let mut e = Event::new("naspa-2013", "KOTH:2", 1);
    e.add_seeded(4);
    e.pair(1);
    assert_eq!(e.pairs(1), vec![(1, 2), (3, 4)]);
    // Pair 1 with 3 by hand: 2 and 4 lose their opponents.
    e.manual(1, 1, Some(3));
    assert_eq!(e.d().unpaired(1), vec![2, 4]);
    e.manual(1, 4, Some(2));
    assert_eq!(e.pairs(1), vec![(1, 3), (2, 4)]);
    assert!(e.d().unpaired(1).is_empty());
    // Swap seats.
    let g = e.games(1).into_iter().find(|g| g.involves(4)).unwrap();
    assert_eq!(g.first, 4);
    e.act(Action::SwapSeats {
        division: "A".into(),
        round: 1,
        player: 4,
    });
    let g = e.games(1).into_iter().find(|g| g.involves(4)).unwrap();
    assert_eq!((g.first, g.first_by), (2, FirstReason::Director));
    // Unpair the last round, then re-pair it.
    e.act(Action::Unpair {
        division: "A".into(),
        round: 1,
    });
    assert!(e.d().rounds.is_empty());
    e.pair(1);
    // A manual pairing seated by the firsts rule.
    e.better_seed_wins(1);
    let a = e.t.manual_pair("A", 2, 1, Some(4)).unwrap();
    e.act(a);
    assert_eq!(e.d().round(2).unwrap().method, Method::Manual);
    assert_eq!(e.d().unpaired(2), vec![2, 3]);
    // A player paired twice in a posted round is refused.
    let mut pairings = e.d().round(2).unwrap().pairings.clone();
    pairings.push(pairings[0].clone());
    assert!(matches!(
        e.try_act(Action::Pair {
            division: "A".into(),
            round: 2,
            method: Method::Manual,
            based_on: 1,
            pairings
        }),
        Err(TournamentError::PairedTwice { .. })
    ));
}

#[test]
fn random_pairing_avoids_repeats() {
    let mut e = Event::new("literacy-2018", "RAND:5", 11);
    e.add_seeded(10);
    for r in 1..=5 {
        e.pair(r);
        e.better_seed_wins(r);
    }
    assert!(all_pairs(&e, 1..=5).values().all(|&c| c == 1));
}

#[test]
fn schedule_drives_the_method_and_errors_name_the_round() {
    let mut e = Event::new("naspa-2013", "IF:3 SW:9 KOTH:1", 1);
    e.add_seeded(24);
    let d = e.d();
    assert_eq!(
        d.resolve_method(1, None, None).unwrap(),
        (Method::InitialFontes, 0)
    );
    assert_eq!(d.resolve_method(4, None, None).unwrap(), (Method::Swiss, 3));
    assert_eq!(
        d.resolve_method(13, None, None).unwrap(),
        (Method::KingOfTheHill, 12)
    );
    let err = d.resolve_method(14, None, None).unwrap_err();
    assert!(err.to_string().contains("no round 14"), "{err}");
    // Rounds must be paired in order.
    let err = e.t.pair("A", 3, None, None).unwrap_err();
    assert!(matches!(
        err,
        TournamentError::RoundOutOfOrder {
            round: 3,
            next: 1,
            ..
        }
    ));
    // A manual round is not paired automatically.
    e.set(Setting::Schedule("MAN:2".into()));
    assert!(matches!(
        e.t.pair("A", 1, None, None),
        Err(TournamentError::ManualRound { .. })
    ));
    // A bad schedule is refused, naming the token.
    let err = e
        .try_act(Action::Configure {
            division: "A".into(),
            setting: Setting::Schedule("SW:4 QQ".into()),
        })
        .unwrap_err();
    assert!(err.to_string().contains("\"QQ\""), "{err}");
}

#[test]
fn pairing_is_deterministic_given_the_seed() {
    let make = |seed| {
        let mut e = Event::new("naspa-2013", "RAND:1 SW:3", seed);
        e.add_seeded(16);
        for r in 1..=4 {
            e.pair(r);
            e.better_seed_wins(r);
        }
        common::json(&e.t)
    };
    assert_eq!(make(5), make(5));
    assert_ne!(make(5), make(6));
}

/// Issue 13: tsh's repeat limit (the maximum repeats argument of its pairing commands) for
/// King of the Hill, which otherwise ignores repeats.
#[test]
fn koth_respects_a_repeat_limit() {
    let build = |limit: Option<&str>| {
        let mut e = Event::new("naspa-2013", "KOTH:3", 1);
        e.add_seeded(4);
        if let Some(l) = limit {
            let s = Setting::parse(e.d(), "max-repeats", l).unwrap();
            e.set(s);
        }
        // Round 1 by seed: 1v2, 3v4.
        e.pair(1);
        assert_eq!(e.pairs(1), vec![(1, 2), (3, 4)]);
        e.better_seed_wins(1);
        // Round 2 based on round 0 (the seeds again): King of the Hill pairs 1v2, 3v4 again.
        e.pair_with(2, Some(Method::KingOfTheHill), Some(0));
        e
    };
    assert_eq!(build(None).pairs(2), vec![(1, 2), (3, 4)]);
    // With no repeats allowed, the top player takes the nearest player they have not met (3),
    // and 2 plays 4.
    let e = build(Some("0"));
    assert_eq!(e.pairs(2), vec![(1, 3), (2, 4)]);
    // One repeat allowed: rank-adjacent again.
    assert_eq!(build(Some("1")).pairs(2), vec![(1, 2), (3, 4)]);
    // The setting reads back as typed.
    let e = build(Some("2"));
    assert!(settings::current(e.d()).contains(&("max-repeats", "2".to_string())));
    assert!(Setting::parse(e.d(), "max-repeats", "lots").is_err());
}

/// Issue 13: a repeat limit for the Swiss, which otherwise avoids every repeat it can, even at
/// the price of pairing across win groups.
#[test]
fn swiss_allows_repeats_up_to_the_limit_to_keep_win_groups() {
    let build = |limit: Option<&str>| {
        let mut e = Event::new("naspa-2013", "KOTH:2 SW:1", 1);
        e.add_seeded(4);
        if let Some(l) = limit {
            let s = Setting::parse(e.d(), "max-repeats", l).unwrap();
            e.set(s);
        }
        // Round 1: 1v2, 3v4; 1 and 3 win. Round 2 (KOTH): 1v3, 2v4; 1 and 2 win.
        e.pair(1);
        e.better_seed_wins(1);
        e.pair(2);
        assert_eq!(e.pairs(2), vec![(1, 3), (2, 4)]);
        e.better_seed_wins(2);
        // After round 2: 1 is 2–0, 2 and 3 are 1–1, 4 is 0–2. 1 has met 2 and 3; 4 has too.
        e.pair(3);
        e
    };
    // Without a limit (and with limit 0) the Swiss avoids repeats: 1v4 and 2v3, though 1 and 4
    // are two wins apart.
    assert_eq!(build(None).pairs(3), vec![(1, 4), (2, 3)]);
    assert_eq!(build(Some("0")).pairs(3), vec![(1, 4), (2, 3)]);
    // One repeat allowed: keeping win groups wins: 1 plays a 1–1 player (a repeat), and 4 the
    // other (a repeat): cost 2 × one win apart instead of 1 × two wins apart.
    let e = build(Some("1"));
    let p = e.pairs(3);
    assert!(
        p == vec![(1, 2), (3, 4)] || p == vec![(1, 3), (2, 4)],
        "{p:?}"
    );
}
