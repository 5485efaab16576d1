//! The action log: the state is a pure function of it; undo is replaying without the last
//! action; a refused action changes nothing.

mod common;

use common::{json, Event};
use tilebag_tournament::*;

fn small_event() -> Event {
    let mut e = Event::new("naspa-2013", "SW:3 KOTH:1", 9);
    e.add_seeded(7);
    for round in 1..=4 {
        e.pair(round);
        let games = e.games(round);
        for (i, g) in games.iter().enumerate() {
            match i {
                0 => {
                    // A tally slip, submitted by one player and confirmed by the other.
                    e.act(Action::SubmitSlip {
                        division: "A".into(),
                        round,
                        player: g.second,
                        score: 380,
                        opponent_score: 402,
                    });
                    e.act(Action::ConfirmSlip {
                        division: "A".into(),
                        round,
                        player: g.first,
                    });
                }
                1 => e.act(Action::ReportOnline {
                    division: "A".into(),
                    round,
                    game_id: format!("g{round}"),
                    player: g.first,
                    score: 350,
                    opponent_score: 350,
                    ending: None,
                }),
                _ => e.score(round, g.first, 300 + i as i32, 410),
            }
        }
    }
    e.act(Action::AdjustSpread {
        division: "A".into(),
        player: 3,
        round: 2,
        reason: AdjustmentReason::ErroneousAdjudication { play_score: 30 },
        amount: None,
    });
    e
}

#[test]
fn replay_reproduces_the_state_byte_for_byte() {
    let e = small_event();
    let live = json(&e.t);
    let replayed = json(&Tournament::replay(&e.log).unwrap());
    assert_eq!(live, replayed);
    // The log itself round-trips through JSON (the store keeps it that way).
    let text = serde_json::to_string_pretty(&e.log).unwrap();
    let back: Vec<Action> = serde_json::from_str(&text).unwrap();
    assert_eq!(back, e.log);
    assert_eq!(json(&Tournament::replay(&back).unwrap()), live);
}

#[test]
fn undo_is_replay_without_the_last_action() {
    let mut e = small_event();
    let before = json(&e.t);
    let correction = Action::SetResult {
        division: "A".into(),
        round: 4,
        player: e.games(4)[0].first,
        result: ResultEntry::Scores {
            score: 500,
            opponent_score: 100,
        },
        note: "reporting error: scores reversed".into(),
    };
    e.act(correction);
    assert_ne!(json(&e.t), before);
    let undone = Tournament::replay(&e.log[..e.log.len() - 1]).unwrap();
    assert_eq!(json(&undone), before);
}

#[test]
fn a_refused_action_changes_nothing() {
    let mut e = small_event();
    let before = json(&e.t);
    let g = e.games(4)[0].clone();
    let refused = [
        // The result is final: only the director may correct it (NASPA V.J).
        Action::SubmitSlip {
            division: "A".into(),
            round: 4,
            player: g.first,
            score: 1,
            opponent_score: 2,
        },
        Action::ConfirmSlip {
            division: "A".into(),
            round: 4,
            player: g.first,
        },
        Action::Pair {
            division: "A".into(),
            round: 6,
            method: Method::Swiss,
            based_on: 4,
            pairings: vec![],
        },
        Action::Unpair {
            division: "A".into(),
            round: 4,
        },
        Action::SetResult {
            division: "A".into(),
            round: 4,
            player: 99,
            result: ResultEntry::Clear,
            note: String::new(),
        },
        Action::SetResult {
            division: "A".into(),
            round: 4,
            player: g.first,
            result: ResultEntry::Scores {
                score: 5000,
                opponent_score: 0,
            },
            note: String::new(),
        },
        Action::AddPlayer {
            division: "B".into(),
            name: "Nobody".into(),
            rating: 0,
            member_id: None,
            career_games: None,
            members: vec![],
        },
        Action::CreateTournament {
            name: "Again".into(),
            date: None,
        },
    ];
    for a in refused {
        assert!(e.try_act(a.clone()).is_err(), "{a:?} should be refused");
        assert_eq!(json(&e.t), before, "{a:?} changed the state");
    }
}

#[test]
fn replay_names_the_failing_action() {
    let e = small_event();
    let mut log = e.log.clone();
    log.insert(
        3,
        Action::SetResult {
            division: "A".into(),
            round: 7,
            player: 1,
            result: ResultEntry::Clear,
            note: String::new(),
        },
    );
    let err = Tournament::replay(&log).unwrap_err();
    assert_eq!(err.index, 3);
    assert!(err.to_string().contains("round 7"), "{err}");
    // A log must begin by creating the tournament.
    let err = Tournament::replay(&e.log[1..]).unwrap_err();
    assert_eq!(err.error, TournamentError::NotCreated);
}
