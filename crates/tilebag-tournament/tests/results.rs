//! Results: online reports, tally slips confirmed by both players, director corrections, and
//! spread penalties and compensations.

mod common;

use common::Event;
use tilebag_tournament::*;

fn two_player_event(preset: &str) -> Event {
    let mut e = Event::new(preset, "RR:2", 5);
    e.add("Ace, Amy", 1800);
    e.add("Bee, Bo", 1700);
    e.pair(1);
    e
}

#[test]
fn online_results_are_reported_automatically() {
    let mut e = two_player_event("naspa-2013");
    let g = e.games(1)[0].clone();
    e.act(Action::ReportOnline {
        division: "A".into(),
        round: 1,
        game_id: "xyz123".into(),
        player: g.second,
        score: 420,
        opponent_score: 390,
        ending: None,
    });
    let g = e.games(1)[0].clone();
    assert_eq!(
        g.result,
        Some(GameResult::Played {
            first_score: 390,
            second_score: 420,
            source: ResultSource::Online {
                game_id: "xyz123".into()
            },
            left_by: None,
            resigned_by: None,
        })
    );
    // A second report is refused: the result is final.
    assert!(matches!(
        e.try_act(Action::ReportOnline {
            division: "A".into(),
            round: 1,
            game_id: "xyz123".into(),
            player: g.first,
            score: 1,
            opponent_score: 2,
            ending: None,
        }),
        Err(TournamentError::ResultFinal { .. })
    ));
}

/// NASPA I.B and V.K.2: a player who resigns before any move loses by the margin (50); the
/// result stays a resignation, not a 0–0 tie with a spread, in every table and printout.
#[test]
fn an_online_resignation_at_nil_nil_is_recorded_as_a_resignation() {
    let mut e = two_player_event("naspa-2013");
    let g = e.games(1)[0].clone();
    // The server's final scores, the margin applied: 0 for the resigner, 50 for the other.
    e.act(Action::ReportOnline {
        division: "A".into(),
        round: 1,
        game_id: "res1".into(),
        player: g.first,
        score: 0,
        opponent_score: 50,
        ending: Some(OnlineEnding::Resigned { player: g.first }),
    });
    let got = e.games(1)[0].clone();
    assert_eq!(
        got.result,
        Some(GameResult::Played {
            first_score: 0,
            second_score: 50,
            source: ResultSource::Online {
                game_id: "res1".into()
            },
            left_by: None,
            resigned_by: Some(g.first),
        })
    );
    let text = tables::result_text(e.d(), got.result.as_ref(), false);
    assert_eq!(text, format!("0-50 (#{} resigned)", g.first));
    // A win and a loss, spread 50 each way (a played, rated game).
    let st = e.d().standings(1);
    let loser = st.iter().find(|r| r.player == g.first).unwrap();
    assert_eq!((loser.wins2, loser.losses2, loser.spread), (0, 2, -50));

    // An ending naming someone outside the game is not recorded as theirs.
    let mut e = two_player_event("naspa-2013");
    e.act(Action::ReportOnline {
        division: "A".into(),
        round: 1,
        game_id: "res2".into(),
        player: g.first,
        score: 0,
        opponent_score: 50,
        ending: Some(OnlineEnding::Resigned { player: 99 }),
    });
    assert!(matches!(
        e.games(1)[0].result,
        Some(GameResult::Played {
            resigned_by: None,
            ..
        })
    ));
}

#[test]
fn a_pairing_started_online_takes_its_result_from_that_game_only() {
    let mut e = two_player_event("naspa-2013");
    let g = e.games(1)[0].clone();
    let start = |id: &str| Action::StartOnline {
        division: "A".into(),
        round: 1,
        player: g.first,
        game_id: id.into(),
    };
    e.act(start("first-try"));
    // The director restarts it: the new game replaces the old link.
    e.act(start("second-try"));
    assert_eq!(e.d().online.len(), 1);
    assert_eq!(e.d().online[0].game_id, "second-try");
    assert_eq!(
        (e.d().online[0].first, e.d().online[0].second),
        (g.first, g.second)
    );
    // A game id cannot be linked twice, and must look like an id.
    assert!(matches!(
        e.try_act(start("second-try")),
        Err(TournamentError::Refused { .. })
    ));
    assert!(matches!(
        e.try_act(start("a b/../c")),
        Err(TournamentError::Refused { .. })
    ));
    let report = |id: &str| Action::ReportOnline {
        division: "A".into(),
        round: 1,
        game_id: id.into(),
        player: g.first,
        score: 400,
        opponent_score: 350,
        ending: None,
    };
    // The abandoned game cannot report into the pairing.
    let err = e.try_act(report("first-try")).unwrap_err().to_string();
    assert!(
        err.contains("not this pairing's online game (second-try is)"),
        "{err}"
    );
    assert!(e.games(1)[0].result.is_none());
    e.act(report("second-try"));
    assert!(matches!(
        e.games(1)[0].result,
        Some(GameResult::Played {
            first_score: 400,
            second_score: 350,
            ..
        })
    ));
    // A finished game cannot be started online again.
    assert!(matches!(
        e.try_act(start("third")),
        Err(TournamentError::ResultFinal { .. })
    ));
}

#[test]
fn naspa_v_j_tally_slip_needs_both_players() {
    let mut e = two_player_event("naspa-2013");
    let g = e.games(1)[0].clone();
    e.act(Action::SubmitSlip {
        division: "A".into(),
        round: 1,
        player: g.first,
        score: 401,
        opponent_score: 377,
    });
    // Not final yet: no result, the slip waits.
    assert!(e.games(1)[0].result.is_none());
    assert!(!e.d().round_complete(1));
    // The submitter cannot confirm their own slip.
    let err = e
        .try_act(Action::ConfirmSlip {
            division: "A".into(),
            round: 1,
            player: g.first,
        })
        .unwrap_err();
    assert!(matches!(err, TournamentError::OwnSlip { .. }));
    assert!(err.to_string().contains("round 1"), "{err}");
    e.act(Action::ConfirmSlip {
        division: "A".into(),
        round: 1,
        player: g.second,
    });
    assert_eq!(
        e.games(1)[0].result,
        Some(GameResult::Played {
            first_score: 401,
            second_score: 377,
            source: ResultSource::Slip {
                submitted_by: g.first,
                confirmed_by: g.second
            },
            left_by: None,
            resigned_by: None,
        })
    );
    // WESPA 5.4.1: a signed sheet is final; a new slip is refused.
    assert!(matches!(
        e.try_act(Action::SubmitSlip {
            division: "A".into(),
            round: 1,
            player: g.second,
            score: 1,
            opponent_score: 1,
        }),
        Err(TournamentError::ResultFinal { .. })
    ));
}

#[test]
fn wespa_5_4_a_resubmitted_slip_replaces_the_unconfirmed_one() {
    let mut e = two_player_event("wespa-2010");
    let g = e.games(1)[0].clone();
    // Each claims the win (WESPA 5.4.2: the winner submits); the later slip replaces the first.
    for (by, s, o) in [(g.first, 400, 300), (g.second, 410, 400)] {
        e.act(Action::SubmitSlip {
            division: "A".into(),
            round: 1,
            player: by,
            score: s,
            opponent_score: o,
        });
    }
    // Now the first player confirms the second's slip (second 410, first 400).
    e.act(Action::ConfirmSlip {
        division: "A".into(),
        round: 1,
        player: g.first,
    });
    let Some(GameResult::Played {
        first_score,
        second_score,
        ..
    }) = e.games(1)[0].result.clone()
    else {
        panic!()
    };
    assert_eq!((first_score, second_score), (400, 410));
}

#[test]
fn wespa_5_4_2_and_sanspa_18_7_the_winner_submits_the_slip() {
    for (preset, winner_submits) in [
        ("wespa-2010", true),
        ("sanspa-1999", true),
        ("naspa-2013", false),
        ("nsa-2011", false),
    ] {
        let mut e = two_player_event(preset);
        assert_eq!(e.d().config.winner_submits, winner_submits, "{preset}");
        let g = e.games(1)[0].clone();
        let slip = |player, score, opponent_score| Action::SubmitSlip {
            division: "A".into(),
            round: 1,
            player,
            score,
            opponent_score,
        };
        // The loser's slip.
        let r = e.try_act(slip(g.first, 350, 400));
        if winner_submits {
            let err = r.unwrap_err().to_string();
            assert!(
                err.contains("the winner submits the tally slip"),
                "{preset}: {err}"
            );
            assert!(e.games(1)[0].slip.is_none());
        } else {
            r.unwrap();
        }
        // A tie may be submitted by either; the winner always may.
        e.act(slip(g.first, 380, 380));
        e.act(slip(g.second, 400, 350));
    }
    // The director may turn it off.
    let mut e = two_player_event("wespa-2010");
    e.set(Setting::WinnerSubmits(false));
    let g = e.games(1)[0].clone();
    e.act(Action::SubmitSlip {
        division: "A".into(),
        round: 1,
        player: g.first,
        score: 350,
        opponent_score: 400,
    });
}

#[test]
fn naspa_v_j_director_corrections_are_logged() {
    let mut e = two_player_event("naspa-2013");
    let g = e.games(1)[0].clone();
    e.score(1, g.first, 350, 400);
    e.act(Action::SetResult {
        division: "A".into(),
        round: 1,
        player: g.first,
        result: ResultEntry::Scores {
            score: 400,
            opponent_score: 350,
        },
        note: "both players report the scores were reversed".into(),
    });
    let g = e.games(1)[0].clone();
    assert_eq!(g.corrections.len(), 1);
    assert_eq!(
        g.corrections[0].note,
        "both players report the scores were reversed"
    );
    assert!(matches!(
        g.corrections[0].previous,
        Some(GameResult::Played {
            first_score: 350,
            ..
        })
    ));
    assert_eq!(e.standing(1, g.first).wins2, 2);
}

#[test]
fn naspa_iv_b_5_drawing_out_of_order_penalty() {
    let mut e = two_player_event("naspa-2013");
    let g = e.games(1)[0].clone();
    e.score(1, g.first, 400, 380);
    e.act(Action::AdjustSpread {
        division: "A".into(),
        player: g.first,
        round: 1,
        reason: AdjustmentReason::DrawingOutOfOrder,
        amount: None,
    });
    // +20 from the game, −50 penalty: −30; the win stands.
    let s = e.standing(1, g.first);
    assert_eq!((s.wins2, s.spread), (2, -30));
    // Not counted before its round.
    assert_eq!(e.standing(0, g.first).spread, 0);
}

#[test]
fn naspa_iv_k_5_erroneous_adjudication_compensation() {
    let mut e = two_player_event("naspa-2013");
    let g = e.games(1)[0].clone();
    e.score(1, g.second, 380, 400);
    // A 36-point play lost to a wrong manual adjudication: +36 + 25 = +61.
    e.act(Action::AdjustSpread {
        division: "A".into(),
        player: g.second,
        round: 1,
        reason: AdjustmentReason::ErroneousAdjudication { play_score: 36 },
        amount: None,
    });
    let s = e.standing(1, g.second);
    assert_eq!(s.spread, -20 + 61);
    assert_eq!(s.losses2, 2, "the game result is unchanged");
    assert_eq!(e.d().adjustments[0].amount, 61);
    // An unspecified adjustment needs an amount.
    assert!(e
        .try_act(Action::AdjustSpread {
            division: "A".into(),
            player: 1,
            round: 1,
            reason: AdjustmentReason::Other {
                note: "slow play".into()
            },
            amount: None,
        })
        .is_err());
}

#[test]
fn naspa_v_h_a_tie_is_half_a_win() {
    let mut e = two_player_event("naspa-2013");
    let g = e.games(1)[0].clone();
    e.score(1, g.first, 377, 377);
    for p in [1, 2] {
        let s = e.standing(1, p);
        assert_eq!((s.wins2, s.losses2, s.spread), (1, 1, 0));
        assert_eq!(s.wins(), 0.5);
    }
}

#[test]
fn scores_out_of_range_are_refused_naming_the_player() {
    let mut e = two_player_event("naspa-2013");
    let err = e
        .try_act(Action::SetResult {
            division: "A".into(),
            round: 1,
            player: 2,
            result: ResultEntry::Scores {
                score: 4000,
                opponent_score: 300,
            },
            note: String::new(),
        })
        .unwrap_err();
    let msg = err.to_string();
    assert!(
        msg.contains("#2 (Bee, Bo)") && msg.contains("round 1") && msg.contains("4000"),
        "{msg}"
    );
}
