//! Byes, forfeits and withdrawals under each preset.

mod common;

use common::Event;
use tilebag_tournament::*;

fn outcome(e: &Event, round: u32, p: u32) -> Outcome {
    e.d().player_round(round, p).unwrap().outcome.unwrap()
}

fn set(e: &mut Event, round: u32, player: u32, result: ResultEntry) {
    e.act(Action::SetResult {
        division: "A".into(),
        round,
        player,
        result,
        note: String::new(),
    });
}

#[test]
fn naspa_v_k_4_bye_is_a_win_plus_50() {
    let mut e = Event::new("naspa-2013", "SW:2", 3);
    e.add_seeded(5);
    e.pair(1);
    // Five players: one bye, to the lowest seed (no byes yet).
    assert_eq!(e.byes(1), vec![5]);
    let o = outcome(&e, 1, 5);
    assert_eq!((o.wins2, o.losses2, o.spread, o.rated), (2, 0, 50, false));
    e.better_seed_wins(1);
    // Round 2: 5 already had a bye, so the lowest-ranked player without one gets it.
    e.pair(2);
    let b = e.byes(2);
    assert_eq!(b.len(), 1);
    assert_ne!(b[0], 5);
    let last_without_bye = *e.order(1).iter().rev().find(|&&p| p != 5).unwrap();
    assert_eq!(b[0], last_without_bye);
    // NASPA III.D note: a bye counts as neither a first nor a second.
    assert_eq!(e.d().firsts_tally(2).get(5), (0, 0));
}

#[test]
fn naspa_v_k_1_no_show_is_minus_50_and_plus_50() {
    let mut e = Event::new("naspa-2013", "RR:1", 3);
    e.add_seeded(2);
    e.pair(1);
    set(&mut e, 1, 2, ResultEntry::Forfeit { spread: None });
    let lose = outcome(&e, 1, 2);
    let win = outcome(&e, 1, 1);
    assert_eq!(
        (lose.wins2, lose.losses2, lose.spread, lose.rated),
        (0, 2, -50, false)
    );
    assert_eq!(
        (win.wins2, win.losses2, win.spread, win.rated),
        (2, 0, 50, false)
    );
    assert!(
        e.d().rated_games(1).is_empty(),
        "the forfeit is not a rated game"
    );
    // NASPA III.D note: the forfeiter is charged a first; the opponent neither.
    let t = e.d().firsts_tally(2);
    assert_eq!(t.get(2), (1, 0));
    assert_eq!(t.get(1), (0, 0));
}

#[test]
fn naspa_v_k_3_director_may_increase_the_forfeit_penalty() {
    let mut e = Event::new("naspa-2013", "RR:1", 3);
    e.add_seeded(2);
    e.pair(1);
    set(&mut e, 1, 2, ResultEntry::Forfeit { spread: Some(150) });
    assert_eq!(outcome(&e, 1, 2).spread, -150);
    assert_eq!(outcome(&e, 1, 1).spread, 150);
}

#[test]
fn naspa_v_k_2_leaving_a_game_in_progress() {
    let mut e = Event::new("naspa-2013", "RR:2", 3);
    e.add_seeded(2);
    e.pair(1);
    // Ahead when leaving (300 v 250): the opponent's score becomes 50 more than the leaver's.
    set(
        &mut e,
        1,
        1,
        ResultEntry::LeftInProgress {
            score: 300,
            opponent_score: 250,
        },
    );
    let o = outcome(&e, 1, 1);
    assert_eq!(
        (o.scores, o.spread, o.wins2, o.rated),
        (Some((300, 350)), -50, 0, true)
    );
    assert_eq!(e.d().rated_games(1).len(), 1, "a rated loss");
    e.pair(2);
    // Behind (200 v 300): 50 comes off the leaver's score: 150 v 300.
    set(
        &mut e,
        2,
        2,
        ResultEntry::LeftInProgress {
            score: 200,
            opponent_score: 300,
        },
    );
    let o = outcome(&e, 2, 2);
    assert_eq!((o.scores, o.spread), (Some((150, 300)), -150));
    let g = e.games(2)[0].clone();
    assert!(matches!(
        g.result,
        Some(GameResult::Played {
            left_by: Some(2),
            resigned_by: None,
            ..
        })
    ));
    // The game had begun, so seats count as played (firsts and seconds).
    assert_eq!(
        e.d().firsts_tally(3).get(1).0 + e.d().firsts_tally(3).get(1).1,
        2
    );
}

#[test]
fn naspa_iii_c_double_forfeit_is_a_loss_for_both() {
    let mut e = Event::new("naspa-2013", "RR:1", 3);
    e.add_seeded(2);
    e.pair(1);
    set(&mut e, 1, 1, ResultEntry::DoubleForfeit { spread: None });
    for p in [1, 2] {
        let o = outcome(&e, 1, p);
        assert_eq!((o.wins2, o.losses2, o.spread, o.rated), (0, 2, -50, false));
        // Both forfeited before the game began: each is charged a first (III.D note).
        assert_eq!(e.d().firsts_tally(2).get(p), (1, 0));
    }
}

#[test]
fn naspa_iii_d_note_forfeits_alternate_first_then_second() {
    let mut e = Event::new("naspa-2013", "RR:3", 3);
    e.add_seeded(2);
    for round in 1..=3 {
        e.pair(round);
        set(&mut e, round, 2, ResultEntry::Forfeit { spread: None });
    }
    // Three forfeits: first, second, first.
    let rows = e.d().firsts_by_round();
    let seats: Vec<Option<Seat>> = rows.iter().map(|r| r[1]).collect();
    assert_eq!(
        seats,
        vec![Some(Seat::First), Some(Seat::Second), Some(Seat::First)]
    );
    assert_eq!(e.d().firsts_tally(4).get(2), (2, 1));
    assert_eq!(e.d().firsts_tally(4).get(1), (0, 0));
}

#[test]
fn wespa_2_3_6_lateness_forfeit_by_75() {
    let mut e = Event::new("wespa-2010", "RR:1", 3);
    e.add_seeded(2);
    e.pair(1);
    set(&mut e, 1, 2, ResultEntry::Forfeit { spread: None });
    // (a) a win for the opponent by 75; (b) not rated.
    assert_eq!(outcome(&e, 1, 1).spread, 75);
    assert_eq!(outcome(&e, 1, 2).spread, -75);
    assert!(e.d().rated_games(1).is_empty());
    // WESPA has no NASPA III.D note: the forfeit counts for neither player.
    assert_eq!(e.d().firsts_tally(2).get(2), (0, 0));
}

#[test]
fn sanspa_19_byes_absence_and_resignation() {
    let mut e = Event::new("sanspa-1999", "RR:3", 3);
    e.add_seeded(3);
    // 19.1: three players, a bye each round, +50 and a win.
    e.pair(1);
    let b = e.byes(1)[0];
    let o = outcome(&e, 1, b);
    assert_eq!((o.wins2, o.spread), (2, 50));
    // 19.2: absence is a forfeit loss, −50; the opponent +50.
    let g = e.games(1)[0].clone();
    set(&mut e, 1, g.second, ResultEntry::Forfeit { spread: None });
    assert_eq!(outcome(&e, 1, g.second).spread, -50);
    assert_eq!(outcome(&e, 1, g.first).spread, 50);
    // 19.3: leaving behind by 40: −(50 + 40) = −90.
    e.pair(2);
    let g = e.games(2)[0].clone();
    set(
        &mut e,
        2,
        g.first,
        ResultEntry::LeftInProgress {
            score: 260,
            opponent_score: 300,
        },
    );
    assert_eq!(outcome(&e, 2, g.first).spread, -90);
    // SANSPA 6.4: byes and forfeits are not firsts; the bye player had neither.
    assert_eq!(e.d().firsts_tally(2).get(b), (0, 0));
}

#[test]
fn withdrawn_players_get_automatic_results_and_leave_the_pairings() {
    let mut e = Event::new("naspa-2013", "SW:4", 8);
    e.add_seeded(6);
    e.pair(1);
    e.better_seed_wins(1);
    // Round 2 is paired, then player 6 withdraws before playing it: the posted game becomes a
    // forfeit (NASPA V.K.1), the opponent wins +50.
    e.pair(2);
    let opp = e
        .games(2)
        .iter()
        .find(|g| g.involves(6))
        .unwrap()
        .opponent_of(6)
        .unwrap();
    e.act(Action::Withdraw {
        division: "A".into(),
        player: 6,
        from_round: 2,
    });
    assert_eq!(outcome(&e, 2, 6).spread, -50);
    assert_eq!(outcome(&e, 2, opp).spread, 50);
    e.better_seed_wins(2);
    // Round 3: 5 active players: a bye, and 6 gets an automatic forfeit loss.
    e.pair(3);
    assert!(!e.games(3).iter().any(|g| g.involves(6)));
    assert_eq!(e.byes(3).len(), 1);
    let pr = e.d().player_round(3, 6).unwrap();
    assert!(matches!(
        pr.pairing,
        Pairing::Absent {
            player: 6,
            spread: -50
        }
    ));
    assert!(!e.standing(3, 6).active);
    // A withdrawn player cannot be paired by hand either.
    assert!(matches!(
        e.try_act(Action::ManualPair {
            division: "A".into(),
            round: 3,
            first: 6,
            second: Some(1),
            first_by: FirstReason::Director,
        }),
        Err(TournamentError::Withdrawn { .. })
    ));
}

#[test]
fn withdrawn_result_can_be_void() {
    let mut e = Event::new("naspa-2013", "SW:2", 8);
    e.set(Setting::WithdrawnResult(WithdrawnResult::Void));
    e.add_seeded(5);
    e.act(Action::Withdraw {
        division: "A".into(),
        player: 5,
        from_round: 1,
    });
    e.pair(1);
    // Four players, no bye; the withdrawn player has neither a win nor a loss.
    assert!(e.byes(1).is_empty());
    let o = outcome(&e, 1, 5);
    assert_eq!((o.wins2, o.losses2, o.spread), (0, 0, 0));
    // Reinstated, they are paired again (and the field is odd: a bye).
    e.better_seed_wins(1);
    e.act(Action::Reinstate {
        division: "A".into(),
        player: 5,
    });
    e.pair(2);
    assert!(e.d().player_round(2, 5).unwrap().pairing.game().is_some() || e.byes(2) == vec![5]);
}

#[test]
fn director_may_change_a_bye_spread() {
    let mut e = Event::new("naspa-2013", "SW:1", 8);
    e.add_seeded(3);
    e.pair(1);
    let b = e.byes(1)[0];
    set(&mut e, 1, b, ResultEntry::Bye { spread: 0 });
    // tsh convention: a zero-spread bye is neither a win nor a loss.
    let o = outcome(&e, 1, b);
    assert_eq!((o.wins2, o.losses2), (0, 0));
    // Asking for a bye change on a player with a game is refused.
    let g = e.games(1)[0].clone();
    assert!(matches!(
        e.try_act(Action::SetResult {
            division: "A".into(),
            round: 1,
            player: g.first,
            result: ResultEntry::Bye { spread: 10 },
            note: String::new()
        }),
        Err(TournamentError::NotABye { .. })
    ));
}

#[test]
fn tsh_bye_firsts_alternate_option() {
    // tsh `bye_firsts=alternate`: byes count as a first, then a second, and so on.
    let mut e = Event::new("naspa-2013", "RR", 3);
    e.set(Setting::Firsts(FirstsPolicy {
        rule: tilebag_core::ruleset::FirstPlayerRule::FewerFirstsThenDraw,
        forfeiter_alternates: true,
        byes: ByeFirsts::Alternate,
    }));
    e.add_seeded(3);
    for r in 1..=3 {
        e.pair(r);
        e.better_seed_wins(r);
    }
    // Each of the three players had one bye (a first) and two games.
    let t = e.d().firsts_tally(4);
    for p in 1..=3 {
        let (f, s) = t.get(p);
        assert_eq!(f + s, 3);
    }
    assert_eq!(t.firsts.iter().sum::<u32>(), 3 + 3);
}

#[test]
fn spreads_out_of_range_are_refused() {
    let mut e = Event::new("naspa-2013", "SW:1", 3);
    e.add_seeded(2);
    assert!(e
        .try_act(Action::Configure {
            division: "A".into(),
            setting: Setting::ForfeitSpread(i32::MIN)
        })
        .is_err());
}

/// Issue 27 item 15: the director changes the bye spread of a player who has no bye. The
/// refusal says so and what the player has instead (it used to say "has a bye, not a game",
/// the other way round).
#[test]
fn a_bye_spread_for_a_player_without_a_bye_says_what_they_have_instead() {
    let mut e = Event::new("naspa-2013", "MAN:2", 8);
    e.add_seeded(2);
    e.manual(1, 1, Some(2));
    // A late entry, added after round 1 was posted: no entry in round 1.
    e.add("Late, Entry", 1500);
    let bye = |e: &mut Event, player: u32| {
        e.try_act(Action::SetResult {
            division: "A".into(),
            round: 1,
            player,
            result: ResultEntry::Bye { spread: 50 },
            note: String::new(),
        })
        .unwrap_err()
        .to_string()
    };
    let err = bye(&mut e, 3);
    assert!(
        err.contains("#3 (Late, Entry) has no bye in round 1") && err.contains("not paired in it"),
        "{err}"
    );
    assert!(!err.contains("has a bye"), "{err}");
    // A player with a game.
    let err = bye(&mut e, 1);
    assert!(
        err.contains("#1 (Seed01, Player) has no bye in round 1")
            && err.contains("a game against #2 (Seed02, Player)"),
        "{err}"
    );
}
