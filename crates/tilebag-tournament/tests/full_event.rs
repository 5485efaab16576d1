//! A whole event: 24 players, 10 rounds under NASPA 2013 rules, scheduled `IF:3 SW:6 KOTH:1`
//! (Initial Fontes for 3 rounds, Swiss for 6, King of the Hill in the last), with a forfeit, a
//! withdrawal and the byes it causes. Expected values are worked out by hand below.
//!
//! The results follow one rule: **in every game the better seed (lower player number, higher
//! rating) wins 400–300**, a spread of 100. Seeds: player `i` is `SeedNN, Player` rated
//! 2000 − 10·i. Exceptions:
//! - round 2: player 23 does not show up (NASPA V.K.1: a forfeit loss, −50; the opponent +50);
//! - player 24 withdraws before round 9: rounds 9 and 10 are automatic forfeit losses (−50), and
//!   the field of 23 gives a bye in each (NASPA V.K.4: a win, +50).
//!
//! Initial Fontes is snaked (tsh `initial_snaked`) so the groups can be worked out by hand.

mod common;

use common::{json, Event};
use tilebag_tournament::*;

fn run() -> Event {
    let mut e = Event::new("naspa-2013", "IF:3 SW:6 KOTH:1", 2024);
    e.set(Setting::Fontes(FontesDraw::Snaked));
    e.add_seeded(24);
    for round in 1..=10 {
        if round == 9 {
            e.act(Action::Withdraw {
                division: "A".into(),
                player: 24,
                from_round: 9,
            });
        }
        let notes = e.pair(round);
        if (4..=9).contains(&round) {
            assert!(
                !notes.iter().any(|n| n.contains("repeat")),
                "round {round}: the Swiss found no repeat-free pairing: {notes:?}"
            );
        }
        if round == 2 {
            e.act(Action::SetResult {
                division: "A".into(),
                round: 2,
                player: 23,
                result: ResultEntry::Forfeit { spread: None },
                note: "no-show".into(),
            });
        }
        e.better_seed_wins(round);
        assert!(e.d().round_complete(round));
    }
    e
}

#[test]
fn initial_fontes_snaked_groups_worked_by_hand() {
    let e = run();
    // 3 IF rounds → groups of 4 from 4 seed bands of 6: band 1 = seeds 1–6, band 2 = 7–12,
    // band 3 = 13–18, band 4 = 19–24. Snaked, group g takes the g-th of bands 1 and 3 and the
    // g-th from the end of bands 2 and 4:
    //   {1,12,13,24} {2,11,14,23} {3,10,15,22} {4,9,16,21} {5,8,17,20} {6,7,18,19}.
    // Each group {a,b,c,d} plays the Berger table for 4: round 1 a–d, b–c; round 2 b–d, c–a;
    // round 3 c–d, a–b.
    let groups = [
        [1, 12, 13, 24],
        [2, 11, 14, 23],
        [3, 10, 15, 22],
        [4, 9, 16, 21],
        [5, 8, 17, 20],
        [6, 7, 18, 19],
    ];
    let table = [[(0, 3), (1, 2)], [(1, 3), (2, 0)], [(2, 3), (0, 1)]];
    for round in 1..=3u32 {
        let mut want: Vec<(u32, u32)> = groups
            .iter()
            .flat_map(|g| {
                table[round as usize - 1]
                    .iter()
                    .map(move |&(x, y)| (g[x].min(g[y]), g[x].max(g[y])))
            })
            .collect();
        want.sort();
        assert_eq!(e.pairs(round), want, "round {round}");
    }
}

#[test]
fn standings_after_round_3_and_4_worked_by_hand() {
    let e = run();
    // After 3 IF rounds, in each group a goes 3–0 (+300), b 2–1 (+100), c 1–2 (−100), d 0–3
    // (−300). Exceptions from the round-2 forfeit (11 v 23): 11 gets +50 instead of +100
    // (+100 +50 −100 = +50); 23 gets −50 instead of −100 (−100 −50 −100 = −250).
    // Ties on wins and losses go to spread, then rating (the seed order).
    assert_eq!(
        e.order(3),
        vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 11, 13, 14, 15, 16, 17, 18, 23, 19, 20, 21, 22, 24]
    );
    let s11 = e.standing(3, 11);
    assert_eq!((s11.wins2, s11.losses2, s11.spread), (4, 2, 50));
    let s23 = e.standing(3, 23);
    assert_eq!((s23.wins2, s23.losses2, s23.spread), (0, 6, -250));

    // Round 4, Swiss based on round 3: four win groups of six; no one in a group has met (each
    // IF group has one player per band). The only cost-free matching folds each group, top half
    // against bottom half: ranks 1v4, 2v5, 3v6 of the group.
    assert_eq!(
        e.pairs(4),
        vec![
            (1, 4),
            (2, 5),
            (3, 6),
            (7, 10),
            (8, 12),
            (9, 11),
            (13, 16),
            (14, 17),
            (15, 18),
            (19, 22),
            (20, 24),
            (21, 23)
        ]
    );
    // After round 4:
    //   4–0 +400: 1 2 3
    //   3–1 +200: 4 5 6 (lost to 1 2 3), 7 8 9 (won)
    //   2–2:      10 12 13 14 15 at 0, then 11 at −50 (+50 −100)
    //   1–3 −200: 16 17 18 (lost), 19 20 21 (won; 21: −300 +100)
    //   0–4:      23 at −350 (−250 −100), then 22 and 24 at −400, by rating
    assert_eq!(
        e.order(4),
        vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14, 15, 11, 16, 17, 18, 19, 20, 21, 23, 22, 24]
    );
    assert_eq!(e.standing(4, 23).spread, -350);
    assert_eq!(e.standing(4, 11).spread, -50);
}

#[test]
fn naspa_v_k_1_forfeit_and_withdrawal_in_the_full_event() {
    let e = run();
    let d = e.d();
    // Round 2: 23 forfeits to 11.
    let g = e.games(2).into_iter().find(|g| g.involves(23)).unwrap();
    assert_eq!(g.opponent_of(23), Some(11));
    assert_eq!(
        g.result,
        Some(GameResult::Forfeit {
            loser: 23,
            spread: 50
        })
    );
    // Player 24: the worse seed in every game of rounds 1–8 (8 losses by 100 = −800), then two
    // automatic forfeit losses (−50 each): 0–10, −900.
    let s24 = e.standing(10, 24);
    assert_eq!(
        (s24.wins2, s24.losses2, s24.spread, s24.byes),
        (0, 20, -900, 0)
    );
    assert!(!s24.active);
    for r in [9, 10] {
        assert!(d.round(r).unwrap().pairings.contains(&Pairing::Absent {
            player: 24,
            spread: -50
        }));
        assert!(!e.games(r).iter().any(|g| g.involves(24)));
    }
}

#[test]
fn naspa_v_k_4_byes_in_the_odd_rounds() {
    let e = run();
    // 23 players in rounds 9 and 10: one bye each, to the lowest-ranked active player without a
    // bye, based on the previous round; never the same player twice.
    let b9 = e.byes(9);
    let b10 = e.byes(10);
    assert_eq!((b9.len(), b10.len()), (1, 1));
    assert_ne!(b9[0], b10[0]);
    let last_active = |through: u32, skip: &[u32]| {
        *e.d()
            .standings(through)
            .iter()
            .filter(|s| s.player != 24 && !skip.contains(&s.player))
            .map(|s| s.player)
            .collect::<Vec<_>>()
            .last()
            .unwrap()
    };
    assert_eq!(b9[0], last_active(8, &[]));
    assert_eq!(b10[0], last_active(9, &[b9[0]]));
    for (r, p) in [(9, b9[0]), (10, b10[0])] {
        let pr = e.d().player_round(r, p).unwrap();
        assert_eq!(pr.outcome.unwrap().wins2, 2, "a bye is a win");
        assert_eq!(pr.outcome.unwrap().spread, 50, "a bye is +50");
    }
}

#[test]
fn final_standings_worked_by_hand() {
    let e = run();
    let st = e.d().standings(10);
    // Player 1 is the best seed, so wins every game by 100: 10–0, +1000, and is the only
    // unbeaten player (anyone else meeting 1 loses), so first.
    assert_eq!(st[0].player, 1);
    assert_eq!((st[0].wins2, st[0].losses2, st[0].spread), (20, 0, 1000));
    assert!(st[1].wins2 < 20);
    // Totals over the event, in half-wins:
    // - played games: rounds 1–8 have 12 boards (96), less the round-2 forfeit = 95; rounds 9
    //   and 10 have 11 boards = 22; 117 in all, each worth 2 half-wins and 2 half-losses;
    // - the forfeit: 2 and 2; the two byes: 2 half-wins each; 24's two automatic forfeits: 2
    //   half-losses each.
    // wins2 = 2·117 + 2 + 2·2 = 240; losses2 = 2·117 + 2 + 2·2 = 240; spread sums to
    // 0 (games) + 0 (forfeit) + 2·50 (byes) − 2·50 (automatic forfeits) = 0.
    assert_eq!(st.iter().map(|s| s.wins2).sum::<u32>(), 240);
    assert_eq!(st.iter().map(|s| s.losses2).sum::<u32>(), 240);
    assert_eq!(st.iter().map(|s| s.spread).sum::<i32>(), 0);
    // With the better seed always winning, wins never decrease down the seeds within a group
    // of equal records; in particular the standings are a valid sort under tsh's order.
    for w in st.windows(2) {
        let (a, b) = (&w[0], &w[1]);
        assert!(
            (a.wins2, std::cmp::Reverse(a.losses2), a.spread, a.rating)
                >= (b.wins2, std::cmp::Reverse(b.losses2), b.spread, b.rating)
        );
    }
}

#[test]
fn king_of_the_hill_last_round_pairs_by_standings() {
    let e = run();
    // Round 10 pairs 1v2, 3v4 … of the standings after round 9, without the withdrawn player
    // and after the bye.
    let bye = e.byes(10)[0];
    let order: Vec<u32> = e
        .order(9)
        .into_iter()
        .filter(|&p| p != 24 && p != bye)
        .collect();
    let mut want: Vec<(u32, u32)> = order
        .chunks(2)
        .map(|c| (c[0].min(c[1]), c[0].max(c[1])))
        .collect();
    want.sort();
    assert_eq!(e.pairs(10), want);
    assert_eq!(e.d().round(10).unwrap().method, Method::KingOfTheHill);
}

#[test]
fn naspa_iii_d_firsts_and_seconds_in_the_full_event() {
    let e = run();
    let d = e.d();
    let tally = d.firsts_tally(11);
    // Every seat order follows III.D against the counts before its round: fewer firsts starts;
    // equal firsts, more seconds starts; otherwise a recorded tile draw.
    for round in 1..=10 {
        let before = d.firsts_tally(round);
        for g in e.games(round) {
            let (f1, s1) = before.get(g.first);
            let (f2, s2) = before.get(g.second);
            match &g.first_by {
                FirstReason::FewerFirsts => assert!(f1 < f2, "round {round} {g:?}"),
                FirstReason::MoreSeconds => assert!(f1 == f2 && s1 > s2, "round {round} {g:?}"),
                FirstReason::Draw { draws } => {
                    assert!(f1 == f2 && s1 == s2, "round {round} {g:?}");
                    assert!(!draws.is_empty());
                }
                other => panic!("round {round}: unexpected {other:?}"),
            }
        }
        // Round 1: nobody has played, so every game is decided by a draw.
        if round == 1 {
            assert!(e
                .games(1)
                .iter()
                .all(|g| matches!(g.first_by, FirstReason::Draw { .. })));
        }
    }
    // By hand:
    // - 24 played rounds 1–8 and was absent after: 8 firsts-or-seconds.
    // - 11 played every round but won round 2 by forfeit (NASPA III.D note: the forfeit's
    //   opponent gets neither): 9.
    // - 23 was charged a first for the round-2 forfeit (III.D note) and played the other rounds
    //   except a possible bye (byes count neither): 10 − (23's byes).
    // - Player 1 played all 10.
    let fs = |p: u32| {
        let (f, s) = tally.get(p);
        f + s
    };
    assert_eq!(fs(24), 8);
    assert_eq!(fs(11), 9);
    assert_eq!(fs(23), 10 - e.standing(10, 23).byes);
    assert_eq!(fs(1), 10);
    let firsts_by_round = d.firsts_by_round();
    assert_eq!(
        firsts_by_round[1][22],
        Some(Seat::First),
        "23's forfeit counts as a first"
    );
    assert_eq!(
        firsts_by_round[1][10], None,
        "11's forfeit win counts as neither"
    );
    // Totals: 117 played games give 117 firsts and 117 seconds; the one forfeit adds a first.
    assert_eq!(tally.firsts.iter().sum::<u32>(), 118);
    assert_eq!(tally.seconds.iter().sum::<u32>(), 117);
    // The rule keeps everyone near half: nobody is more than 2 away from an even split.
    for p in 1..=24 {
        let (f, s) = tally.get(p);
        assert!(
            (f as i32 - s as i32).abs() <= 2,
            "player {p}: {f} firsts {s} seconds"
        );
    }
}

#[test]
fn the_full_event_replays_byte_for_byte() {
    let e = run();
    let again = Tournament::replay(&e.log).unwrap();
    assert_eq!(json(&again), json(&e.t));
    // And through JSON, as a store would keep the log.
    let text = serde_json::to_string(&e.log).unwrap();
    let log: Vec<Action> = serde_json::from_str(&text).unwrap();
    assert_eq!(json(&Tournament::replay(&log).unwrap()), json(&e.t));
}
