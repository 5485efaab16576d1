//! The Scrabble for Literacy 2018 team format.

mod common;

use common::Event;
use tilebag_tournament::literacy::LITERACY_SCHEDULE;
use tilebag_tournament::*;

/// Eight teams; in every game team t scores 500 − 20t (team 1: 480 … team 8: 340), so the word
/// score totals order the teams 1…8 whoever they meet.
fn event() -> Event {
    let mut e = Event::new("literacy-2018", LITERACY_SCHEDULE, 18);
    for t in 1..=8 {
        e.act(Action::AddPlayer {
            division: "A".into(),
            name: format!(
                "Team {}",
                ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel"][t - 1]
            ),
            rating: 0,
            member_id: None,
            career_games: None,
            members: vec![format!("Reader {t}a"), format!("Reader {t}b")],
        });
    }
    e
}

fn play(e: &mut Event, round: u32) {
    for g in e.games(round) {
        let s = |t: u32| 500 - 20 * t as i32;
        e.score(round, g.first, s(g.first), s(g.second));
    }
}

#[test]
fn literacy_2018_format_from_random_rounds_to_finals() {
    let mut e = event();
    assert_eq!(e.d().config.format, Format::Literacy2018Teams);
    assert_eq!(
        e.d().config.tie_breaks,
        vec![TieBreak::PointsFor, TieBreak::Spread]
    );
    assert_eq!(e.d().total_rounds(), 5);
    for r in 1..=2 {
        e.pair(r);
        play(&mut e, r);
    }
    // "Round 1 and 2 will be totaled by team word scores": 2 × (500 − 20t).
    assert_eq!(e.order(2), (1..=8).collect::<Vec<_>>());
    assert_eq!(e.standing(2, 1).points_for, 960);
    // Round 3: "Lead position will play middle position": 1v5, 2v6, 3v7, 4v8.
    e.pair(3);
    assert_eq!(e.d().round(3).unwrap().method, Method::LeaderVsMiddle);
    assert_eq!(e.pairs(3), vec![(1, 5), (2, 6), (3, 7), (4, 8)]);
    play(&mut e, 3);
    // Playoffs: 1st v 3rd, 2nd v 4th; the other teams play on, KOTH.
    e.pair(4);
    assert_eq!(e.pairs(4), vec![(1, 3), (2, 4), (5, 6), (7, 8)]);
    play(&mut e, 4);
    // Finals: the winners (1, 2) for 1st–2nd, the losers (3, 4) for 3rd–4th.
    e.pair(5);
    assert_eq!(e.pairs(5), vec![(1, 2), (3, 4), (5, 6), (7, 8)]);
    // Upsets in both: 2 beats 1, 4 beats 3.
    e.score(5, 2, 500, 450);
    e.score(5, 4, 420, 410);
    e.score(5, 5, 400, 380);
    e.score(5, 7, 360, 340);
    let places: Vec<u32> = e.d().literacy_placings().iter().map(|p| p.team).collect();
    assert_eq!(places, vec![2, 1, 4, 3, 5, 6, 7, 8]);
    // Literacy 2018 "Play": the first player is always chosen by a tile draw.
    for r in 1..=5 {
        assert!(e
            .games(r)
            .iter()
            .all(|g| matches!(g.first_by, FirstReason::Draw { .. })));
    }
    assert_eq!(e.d().player(1).unwrap().members.len(), 2);
}

#[test]
fn literacy_2018_ties_going_into_the_playoffs_are_broken_by_spread() {
    let mut e = event();
    // Round 1 by hand: 1v2 300–300, 3v4 310–290, 5v6 290–310, 7v8 200–100.
    for (a, b) in [(1, 2), (3, 4), (5, 6), (7, 8)] {
        e.act(Action::ManualPair {
            division: "A".into(),
            round: 1,
            first: a,
            second: Some(b),
            first_by: FirstReason::Director,
        });
    }
    e.score(1, 1, 300, 300);
    e.score(1, 3, 310, 290);
    e.score(1, 5, 290, 310);
    e.score(1, 7, 200, 100);
    // Word scores: 3 and 6 have 310 (spread +20 each), then 1 and 2 300 (0), 4 and 5 290
    // (−20), 7 200, 8 100. Ties on word score go to spread, then team number.
    assert_eq!(e.order(1), vec![3, 6, 1, 2, 4, 5, 7, 8]);
    // A tied playoff game goes to the team with the higher spread.
    e.pair_with(2, Some(Method::Playoff), Some(1));
    // Top four: 3, 6, 1, 2 → 3v1, 6v2.
    assert_eq!(e.pairs(2), vec![(1, 3), (2, 6), (4, 5), (7, 8)]);
    e.score(2, 3, 350, 350);
    e.score(2, 6, 300, 330);
    e.score(2, 4, 300, 200);
    e.score(2, 7, 300, 200);
    let po = e.d().literacy_playoff(2).unwrap();
    // 3 (+20) and 1 (0) tie: 3 goes through on spread; 2 beats 6.
    assert_eq!(po, vec![(3, 1), (2, 6)]);
    // Finals: 3v2 and 1v6; the rest KOTH on word score after round 2: 4 (290 + 300 = 590),
    // 7 (200 + 300 = 500), 5 (290 + 200 = 490), 8 (100 + 200 = 300): 4v7, 5v8.
    e.pair_with(3, Some(Method::Final), Some(2));
    assert_eq!(e.pairs(3), vec![(1, 6), (2, 3), (4, 7), (5, 8)]);
}
