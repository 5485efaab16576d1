//! Rule-by-rule tests of the game state machine. Each test names the rule it proves.

use super::*;
use crate::board::{Position, Square};
use crate::ruleset::{ChallengeRule, Ruleset};
use crate::tiles::PlacedTile;
use std::collections::HashSet;

const MIN: i64 = 60_000;

fn tiles(s: &str) -> Vec<Tile> {
    TileSet::english().parse_tiles(s).unwrap()
}

fn judge(words: &[&str]) -> HashSet<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// A game with chosen racks and bag (drawn in the order given).
fn game(r: Ruleset, rack0: &str, rack1: &str, bag: &str) -> Game {
    Game::custom(r, 7, [tiles(rack0), tiles(rack1)], tiles(bag))
}

fn seat(s: usize, at_ms: i64, action: Action) -> Event {
    Event {
        actor: Actor::Seat(s),
        at_ms,
        action,
    }
}

fn placement(g: &Game, pos: &str, word: &str) -> Placement {
    Placement::from_gcg(
        g.board(),
        g.layout(),
        g.tile_set(),
        Position::parse(pos, 15).unwrap(),
        word,
    )
    .unwrap()
}

fn play(
    g: &mut Game,
    s: usize,
    at: i64,
    pos: &str,
    word: &str,
    j: &dyn WordJudge,
) -> Result<Vec<Effect>, GameError> {
    let p = placement(g, pos, word);
    g.apply(&seat(s, at, Action::Play { placement: p }), j)
}

fn act(
    g: &mut Game,
    s: usize,
    at: i64,
    a: Action,
    j: &dyn WordJudge,
) -> Result<Vec<Effect>, GameError> {
    g.apply(&seat(s, at, a), j)
}

const BAG20: &str = "EEEEIIIIOOOOAAAANNNN";

#[test]
fn naspa_iv_b_1_players_draw_after_playing() {
    let j = judge(&["CAT"]);
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", BAG20);
    play(&mut g, 0, 1000, "8G", "CAT", &j).unwrap();
    assert_eq!(g.rack(0).len(), 7);
    assert_eq!(g.bag_len(), 17);
    assert_eq!(g.scores(), [10, 0]);
    assert!(matches!(
        g.phase(),
        Phase::PlayPending {
            player: 0,
            held: false,
            out: false
        }
    ));
}

#[test]
fn new_game_from_seed_is_reproducible_and_accounts_for_100_tiles() {
    let a = Game::new(Ruleset::naspa_2013(), 99);
    let b = Game::new(Ruleset::naspa_2013(), 99);
    let c = Game::new(Ruleset::naspa_2013(), 100);
    assert_eq!(a, b);
    assert_ne!(a.rack(0), c.rack(0));
    assert_eq!(a.tile_census(), {
        let mut all = TileSet::english().all_tiles();
        all.sort();
        all
    });
    assert_eq!(a.bag_len(), 86);
    assert_eq!(a.unseen_for(0).len(), 93);
}

#[test]
fn naspa_iv_i_3_double_challenge_lost_costs_the_challenger_a_turn() {
    let j = judge(&["CAT"]);
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", BAG20);
    play(&mut g, 0, 1000, "8G", "CAT", &j).unwrap();
    let fx = act(&mut g, 1, 2000, Action::Challenge { words: vec![] }, &j).unwrap();
    assert!(fx.contains(&Effect::Verdict { acceptable: true }));
    assert!(fx.contains(&Effect::TurnLost { seat: 1 }));
    assert_eq!(g.to_move(), 0, "the player who played moves again");
    assert_eq!(g.scores(), [10, 0]);
    assert_eq!(
        g.zero_run(),
        1,
        "a lost double challenge is a scoreless turn"
    );
    assert_eq!(g.history().last().unwrap().kind, TurnKind::LostChallenge);
}

#[test]
fn naspa_iv_j_1_k_phony_is_withdrawn_tiles_back_to_rack_drawn_tiles_back_to_bag() {
    let j = judge(&["CAT"]);
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", BAG20);
    let before = g.clone();
    play(&mut g, 0, 1000, "8G", "CTA", &j).unwrap();
    let fx = act(
        &mut g,
        1,
        2000,
        Action::Challenge {
            words: vec!["cta".into()],
        },
        &j,
    )
    .unwrap();
    assert!(fx.contains(&Effect::Verdict { acceptable: false }));
    assert!(fx.contains(&Effect::Withdrawn { seat: 0 }));
    assert!(g.board().is_empty());
    assert_eq!(g.rack(0), before.rack(0));
    assert_eq!(g.bag_len(), before.bag_len());
    assert_eq!(g.scores(), [0, 0]);
    assert_eq!(g.to_move(), 1);
    assert_eq!(g.zero_run(), 1, "a withdrawn phony is a scoreless turn");
    assert_eq!(g.tile_census(), before.tile_census());
    // The bag was reshuffled: same tiles, and the game stays reproducible.
    assert_eq!(g.unseen_for(0), before.unseen_for(0));
}

#[test]
fn naspa_iv_j_1_one_verdict_for_the_whole_play_never_naming_the_phony() {
    // 9G AT forms AT, CA, AT; CA is the phony.
    let j = judge(&["CAT", "AT"]);
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "ATEIIOU", BAG20);
    play(&mut g, 0, 0, "8G", "CAT", &j).unwrap();
    play(&mut g, 1, 1000, "9G", "AT", &j).unwrap();
    let fx = act(
        &mut g,
        0,
        2000,
        Action::Challenge {
            words: vec!["AT".into(), "CA".into()],
        },
        &j,
    )
    .unwrap();
    let json = serde_json::to_string(&fx).unwrap();
    assert!(json.contains("\"acceptable\":false"));
    assert!(
        !json.contains("CA\""),
        "the verdict must not name the failing word: {json}"
    );
    assert!(!json.contains("\"AT"), "{json}");
    // A word the play did not form cannot be named.
    let mut g2 = game(Ruleset::naspa_2013(), "CATSDOG", "ATEIIOU", BAG20);
    play(&mut g2, 0, 0, "8G", "CAT", &j).unwrap();
    let snapshot = g2.clone();
    let e = act(
        &mut g2,
        1,
        10,
        Action::Challenge {
            words: vec!["DOG".into()],
        },
        &j,
    )
    .unwrap_err();
    assert_eq!(e, GameError::NotFormed("DOG".into()));
    assert_eq!(g2, snapshot);
}

#[test]
fn wespa_3_10_15_b_ii_five_points_per_word_challenged() {
    let j = judge(&["CAT", "AT", "CA"]);
    let mut g = game(Ruleset::wespa_2010(), "CATSDOG", "ATEIIOU", BAG20);
    play(&mut g, 0, 0, "8G", "CAT", &j).unwrap();
    play(&mut g, 1, 1000, "9G", "AT", &j).unwrap();
    let s1 = g.scores()[1];
    let fx = act(
        &mut g,
        0,
        2000,
        Action::Challenge {
            words: vec!["AT".into(), "CA".into()],
        },
        &j,
    )
    .unwrap();
    assert!(fx.contains(&Effect::ChallengeBonus {
        seat: 1,
        points: 10
    }));
    assert_eq!(g.scores()[1], s1 + 10);
    assert_eq!(g.to_move(), 0, "no lost turn under a points rule");
    assert_eq!(g.history().last().unwrap().kind, TurnKind::ChallengeBonus);
}

#[test]
fn wespa_3_10_15_b_iii_points_per_challenged_turn() {
    let j = judge(&["CAT", "AT", "CA"]);
    let mut r = Ruleset::wespa_2010();
    r.challenge = ChallengeRule::PointsPerTurn { points: 10 };
    let mut g = game(r, "CATSDOG", "ATEIIOU", BAG20);
    play(&mut g, 0, 0, "8G", "CAT", &j).unwrap();
    play(&mut g, 1, 1000, "9G", "AT", &j).unwrap();
    let fx = act(&mut g, 0, 2000, Action::Challenge { words: vec![] }, &j).unwrap();
    assert!(fx.contains(&Effect::ChallengeBonus {
        seat: 1,
        points: 10
    }));
}

#[test]
fn wespa_3_10_15_b_i_and_sanspa_13_4_single_challenge_costs_nothing() {
    let j = judge(&["CAT"]);
    let mut g = game(Ruleset::sanspa_1999(), "CATSDOG", "EEEIIOU", BAG20);
    play(&mut g, 0, 0, "8G", "CAT", &j).unwrap();
    act(&mut g, 1, 1000, Action::Challenge { words: vec![] }, &j).unwrap();
    assert_eq!(g.scores(), [10, 0]);
    assert_eq!(g.to_move(), 1, "the challenger keeps the turn");
    assert_eq!(g.zero_run(), 0);
    let mut r = Ruleset::wespa_2010();
    r.challenge = ChallengeRule::Single;
    let mut g = game(r, "CATSDOG", "EEEIIOU", BAG20);
    play(&mut g, 0, 0, "8G", "CAT", &j).unwrap();
    act(&mut g, 1, 1000, Action::Challenge { words: vec![] }, &j).unwrap();
    assert_eq!((g.scores(), g.to_move()), ([10, 0], 1));
}

#[test]
fn void_rule_refuses_invalid_plays_and_changes_nothing() {
    let j = judge(&["CAT"]);
    let mut r = Ruleset::naspa_2013();
    r.challenge = ChallengeRule::Void;
    let mut g = game(r, "CATSDOG", "EEEIIOU", BAG20);
    let snapshot = g.clone();
    assert_eq!(
        play(&mut g, 0, 0, "8G", "CTA", &j).unwrap_err(),
        GameError::VoidRefused
    );
    assert_eq!(g, snapshot);
    play(&mut g, 0, 0, "8G", "CAT", &j).unwrap();
    assert_eq!(
        *g.phase(),
        Phase::AwaitingMove,
        "nothing to challenge under void"
    );
    assert_eq!(g.to_move(), 1);
    assert!(act(&mut g, 1, 10, Action::Challenge { words: vec![] }, &j).is_err());
}

#[test]
fn naspa_iv_i_2_hold_then_accept_and_moving_accepts() {
    let j = judge(&["CAT", "TAB"]);
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "TBEIIOU", BAG20);
    play(&mut g, 0, 0, "8G", "CAT", &j).unwrap();
    assert_eq!(
        act(&mut g, 0, 10, Action::Hold, &j).unwrap_err(),
        GameError::OutOfTurn(0)
    );
    act(&mut g, 1, 100, Action::Hold, &j).unwrap();
    assert!(matches!(g.phase(), Phase::PlayPending { held: true, .. }));
    assert!(act(&mut g, 1, 200, Action::Hold, &j).is_err());
    let fx = act(&mut g, 1, 5000, Action::Accept, &j).unwrap();
    assert!(fx.contains(&Effect::PlayFinal { seat: 0 }));
    assert_eq!(*g.phase(), Phase::AwaitingMove);
    // Once accepted, the play can no longer be challenged.
    assert!(act(&mut g, 1, 5001, Action::Challenge { words: vec![] }, &j).is_err());
    play(&mut g, 1, 6000, "H7", "T.B", &j).unwrap();
    // Seat 0 answers with a move of its own: that accepts the pending play.
    let fx = act(&mut g, 0, 7000, Action::Pass, &j).unwrap();
    assert_eq!(fx[0], Effect::PlayFinal { seat: 1 });
    assert_eq!(g.history().len(), 3);
}

#[test]
fn refused_actions_are_typed_errors_that_change_nothing() {
    let j = judge(&["CAT"]);
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", BAG20);
    let snap = g.clone();
    assert_eq!(
        act(&mut g, 1, 0, Action::Pass, &j).unwrap_err(),
        GameError::OutOfTurn(1)
    );
    let e = act(&mut g, 0, 0, Action::Exchange { tiles: tiles("ZZ") }, &j).unwrap_err();
    assert!(matches!(e, GameError::TilesNotOnRack(_)));
    let p = Placement {
        tiles: vec![
            (
                Square::new(7, 7),
                PlacedTile {
                    letter: 25,
                    blank: false,
                },
            ),
            (
                Square::new(7, 8),
                PlacedTile {
                    letter: 25,
                    blank: false,
                },
            ),
        ],
        direction: None,
    };
    let e = act(&mut g, 0, 0, Action::Play { placement: p }, &j).unwrap_err();
    assert!(matches!(e, GameError::TilesNotOnRack(_)), "{e}");
    assert_eq!(
        act(&mut g, 5, 0, Action::Pass, &j).unwrap_err(),
        GameError::NoSuchSeat(5)
    );
    assert!(act(&mut g, 0, 0, Action::Accept, &j).is_err());
    assert_eq!(g, snap);
    act(&mut g, 0, 5000, Action::Pass, &j).unwrap();
    let snap = g.clone();
    let e = act(&mut g, 1, 4000, Action::Pass, &j).unwrap_err();
    assert!(matches!(e, GameError::TimeWentBackwards { .. }));
    assert_eq!(g, snap);
}

#[test]
fn naspa_iv_e_2_a_exchange_needs_seven_in_the_bag() {
    let j = judge(&[]);
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", "EEEEII");
    let e = act(&mut g, 0, 0, Action::Exchange { tiles: tiles("C") }, &j).unwrap_err();
    assert_eq!(
        e,
        GameError::ExchangeBagTooSmall {
            need: 7,
            have: 6,
            rule: "NASPA IV.E.2.a"
        }
    );
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", "EEEEIII");
    act(&mut g, 0, 0, Action::Exchange { tiles: tiles("CG") }, &j).unwrap();
    assert_eq!(g.bag_len(), 7);
    assert_eq!(g.rack(0).len(), 7);
    assert_eq!(g.zero_run(), 1);
    // Passing is always allowed, even with an empty bag.
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", "");
    act(&mut g, 0, 0, Action::Pass, &j).unwrap();
}

fn out_play_game(r: Ruleset) -> Game {
    // Seat 0 holds AT, the bag is empty: 8H AT goes out (4 points); seat 1 keeps QZ (20).
    game(r, "AT", "QZ", "")
}

#[test]
fn naspa_v_g_1_going_out_adds_twice_the_opponents_rack() {
    let j = judge(&["AT"]);
    let mut g = out_play_game(Ruleset::naspa_2013());
    let fx = play(&mut g, 0, 0, "8H", "AT", &j).unwrap();
    assert!(fx.contains(&Effect::Played {
        seat: 0,
        score: 4,
        out: true
    }));
    assert!(matches!(g.phase(), Phase::PlayPending { out: true, .. }));
    // An out play cannot be answered with a move: accept or challenge.
    assert!(act(&mut g, 1, 10, Action::Pass, &j).is_err());
    act(&mut g, 1, 1000, Action::Accept, &j).unwrap();
    assert_eq!(
        *g.phase(),
        Phase::Ended {
            reason: EndReason::WentOut { seat: 0 }
        }
    );
    assert_eq!(g.scores(), [44, 0]);
}

#[test]
fn wespa_5_1_4_a_going_out_adds_the_rack_and_the_opponent_loses_it() {
    let j = judge(&["AT"]);
    let mut g = out_play_game(Ruleset::wespa_2010());
    play(&mut g, 0, 0, "8H", "AT", &j).unwrap();
    act(&mut g, 1, 1000, Action::Accept, &j).unwrap();
    assert_eq!(g.scores(), [24, -20]);
    // Literacy 2018 scoring 9 does the same.
    let mut g = out_play_game(Ruleset::literacy_2018());
    play(&mut g, 0, 0, "8H", "AT", &j).unwrap();
    act(&mut g, 1, 1000, Action::Accept, &j).unwrap();
    assert_eq!(g.scores(), [24, -20]);
}

#[test]
fn nsa_v_c_note_no_penalty_for_challenging_the_out_play() {
    let j = judge(&["AT"]);
    // Under a points rule the difference shows: NASPA VI (CSW) pays 5, NSA-style pays nothing.
    let mut g = out_play_game(Ruleset::naspa_2013_csw());
    play(&mut g, 0, 0, "8H", "AT", &j).unwrap();
    act(&mut g, 1, 1000, Action::Challenge { words: vec![] }, &j).unwrap();
    assert_eq!(g.scores(), [4 + 5 + 40, 0]);
    let mut r = Ruleset::nsa_2011();
    r.challenge = ChallengeRule::PointsPerWord { points: 5 };
    let mut g = out_play_game(r);
    play(&mut g, 0, 0, "8H", "AT", &j).unwrap();
    act(&mut g, 1, 1000, Action::Challenge { words: vec![] }, &j).unwrap();
    assert_eq!(g.scores(), [4 + 40, 0]);
    // And under NSA's double challenge no lost-turn line is written.
    let mut g = out_play_game(Ruleset::nsa_2011());
    play(&mut g, 0, 0, "8H", "AT", &j).unwrap();
    act(&mut g, 1, 1000, Action::Challenge { words: vec![] }, &j).unwrap();
    assert!(g.is_over());
    assert!(!g
        .history()
        .iter()
        .any(|t| t.kind == TurnKind::LostChallenge));
}

#[test]
fn phony_out_play_is_withdrawn_and_the_game_goes_on() {
    let j = judge(&[]);
    let mut g = out_play_game(Ruleset::naspa_2013());
    play(&mut g, 0, 0, "8H", "AT", &j).unwrap();
    act(&mut g, 1, 1000, Action::Challenge { words: vec![] }, &j).unwrap();
    assert!(!g.is_over());
    assert_eq!(g.rack(0), tiles("AT").as_slice());
    assert_eq!(g.to_move(), 1);
}

#[test]
fn naspa_v_e_out_play_stops_the_clock_and_ends_after_20_seconds() {
    let j = judge(&["AT"]);
    let mut g = out_play_game(Ruleset::naspa_2013());
    play(&mut g, 0, 1000, "8H", "AT", &j).unwrap();
    assert_eq!(
        g.clocks().running,
        None,
        "the clock is stopped on the out play"
    );
    let tick = |at| Event {
        actor: Actor::Clock,
        at_ms: at,
        action: Action::Tick,
    };
    g.apply(&tick(20_999), &j).unwrap();
    assert!(!g.is_over());
    let fx = g.apply(&tick(21_000), &j).unwrap();
    assert!(fx.contains(&Effect::Ended {
        reason: EndReason::WentOut { seat: 0 }
    }));
    assert_eq!(g.clocks().remaining_ms[1], 25 * MIN);
    // A hold stops the window and runs the holder's clock (NASPA V.E).
    let mut g = out_play_game(Ruleset::naspa_2013());
    play(&mut g, 0, 1000, "8H", "AT", &j).unwrap();
    act(&mut g, 1, 2000, Action::Hold, &j).unwrap();
    g.apply(&tick(62_000), &j).unwrap();
    assert!(!g.is_over());
    assert_eq!(g.clocks().remaining_ms[1], 25 * MIN - 60_000);
    // An action that arrives after time ended the game is too late.
    let mut g = out_play_game(Ruleset::naspa_2013());
    play(&mut g, 0, 1000, "8H", "AT", &j).unwrap();
    let fx = act(&mut g, 1, 30_000, Action::Challenge { words: vec![] }, &j).unwrap();
    assert!(fx.contains(&Effect::TooLate));
    assert!(g.is_over());
}

#[test]
fn wespa_5_1_3_opponent_clock_restarts_after_the_window_and_sanspa_18_2_runs_at_once() {
    let j = judge(&["AT"]);
    let mut g = out_play_game(Ruleset::wespa_2010());
    play(&mut g, 0, 1000, "8H", "AT", &j).unwrap();
    assert_eq!(g.clocks().running, None);
    g.apply(
        &Event {
            actor: Actor::Clock,
            at_ms: 16_000,
            action: Action::Tick,
        },
        &j,
    )
    .unwrap();
    assert!(!g.is_over());
    assert_eq!(g.clocks().running, Some(1));
    assert_eq!(g.clocks().remaining_ms[1], 25 * MIN - 10_000);
    let mut g = out_play_game(Ruleset::sanspa_1999());
    play(&mut g, 0, 1000, "8H", "AT", &j).unwrap();
    assert_eq!(g.clocks().running, Some(1));
}

fn passes(g: &mut Game, n: usize, j: &dyn WordJudge) -> Vec<Effect> {
    let mut fx = Vec::new();
    for i in 0..n {
        let s = g.to_move();
        let at = g.clocks().last_ms + 1000 + i as i64;
        fx.extend(act(g, s, at, Action::Pass, j).unwrap());
    }
    fx
}

#[test]
fn wespa_5_2_six_zeros_end_the_game_and_each_loses_own_rack() {
    let j = judge(&[]);
    let mut g = game(Ruleset::wespa_2010(), "CATSDOG", "EEEIIOU", BAG20);
    let fx = passes(&mut g, 6, &j);
    assert!(fx.contains(&Effect::Ended {
        reason: EndReason::SixZeros
    }));
    let v0 = TileSet::english().tiles_value(&tiles("CATSDOG"));
    let v1 = TileSet::english().tiles_value(&tiles("EEEIIOU"));
    assert_eq!(g.scores(), [-v0, -v1]);
}

#[test]
fn naspa_v_b_either_player_may_end_after_the_sixth_zero() {
    let j = judge(&["CAT"]);
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", BAG20);
    passes(&mut g, 5, &j);
    assert_eq!(
        act(&mut g, 0, 90_000, Action::EndAfterSixZeros, &j).unwrap_err(),
        GameError::SixZeroNotReached {
            turns: 6,
            rule: "NASPA V.B"
        }
    );
    passes(&mut g, 1, &j);
    assert!(!g.is_over(), "NASPA V.B: the game does not end by itself");
    assert_eq!(g.zero_run(), 6);
    // A scoring play continues the game and resets the run.
    let mut g2 = g.clone();
    play(&mut g2, 0, 99_000, "8G", "CAT", &j).unwrap();
    act(&mut g2, 1, 99_500, Action::Accept, &j).unwrap();
    assert!(act(&mut g2, 1, 99_600, Action::EndAfterSixZeros, &j).is_err());
    // Either player may end it.
    act(&mut g, 1, 99_000, Action::EndAfterSixZeros, &j).unwrap();
    assert_eq!(
        *g.phase(),
        Phase::Ended {
            reason: EndReason::SixZeros
        }
    );
    assert!(g.scores()[0] < 0 && g.scores()[1] < 0);
    // WESPA's automatic ending has no claim.
    let mut w = game(Ruleset::wespa_2010(), "CATSDOG", "EEEIIOU", BAG20);
    assert!(act(&mut w, 0, 0, Action::EndAfterSixZeros, &j).is_err());
}

#[test]
fn wespa_1_1_b_ii_passing_twice_each_does_not_end_the_game() {
    let j = judge(&[]);
    let mut g = game(Ruleset::wespa_2010(), "CATSDOG", "EEEIIOU", BAG20);
    passes(&mut g, 4, &j);
    assert!(!g.is_over());
    let mut r = Ruleset::wespa_2010();
    r.all_pass_twice_ends = true; // the standard rules' ending
    let mut g = game(r, "CATSDOG", "EEEIIOU", BAG20);
    passes(&mut g, 4, &j);
    assert!(g.is_over());
}

#[test]
fn six_zero_counts_exchanges_withdrawn_phonies_and_lost_double_challenges() {
    let j = judge(&["CAT"]);
    // NSA 2011: a double challenge, and six zeros end the game by themselves (NSA V.C.2).
    let mut g = game(
        Ruleset::nsa_2011(),
        "CATSDOG",
        "EEEIIOU",
        "EEEEIIIIOOOOAAAANNNNRRRR",
    );
    play(&mut g, 0, 0, "8G", "CTA", &j).unwrap();
    act(&mut g, 1, 1, Action::Challenge { words: vec![] }, &j).unwrap(); // 1: withdrawn phony
    act(&mut g, 1, 2, Action::Exchange { tiles: tiles("U") }, &j).unwrap(); // 2: exchange
    play(&mut g, 0, 3, "8G", "CAT", &j).unwrap();
    act(&mut g, 1, 4, Action::Challenge { words: vec![] }, &j).unwrap(); // play stands: run 0, lost turn: 1
    assert_eq!(g.zero_run(), 1);
    passes(&mut g, 4, &j);
    assert_eq!(g.zero_run(), 5);
    passes(&mut g, 1, &j);
    assert_eq!(
        *g.phase(),
        Phase::Ended {
            reason: EndReason::SixZeros
        }
    );
}

#[test]
fn naspa_v_g_2_overtime_costs_10_per_started_minute() {
    assert_eq!(overtime_penalty(0, 10), 0);
    assert_eq!(overtime_penalty(-999, 10), 0, "-0:00 is not overtime");
    assert_eq!(overtime_penalty(-1000, 10), 10, "-0:01 costs 10");
    assert_eq!(overtime_penalty(-60_000, 10), 10);
    assert_eq!(overtime_penalty(-61_000, 10), 20);
    assert_eq!(overtime_penalty(5 * MIN, 10), 0);
    // Applied at the end of the game.
    let j = judge(&["AT"]);
    let mut g = out_play_game(Ruleset::naspa_2013());
    act(&mut g, 0, 25 * MIN + 61_000, Action::Pass, &j).unwrap();
    act(&mut g, 1, 25 * MIN + 62_000, Action::Pass, &j).unwrap();
    play(&mut g, 0, 25 * MIN + 63_000, "8H", "AT", &j).unwrap();
    act(&mut g, 1, 25 * MIN + 64_000, Action::Accept, &j).unwrap();
    // seat 0 used 25:00 + 1:01 + 0:01 → −1:02 → 20 points
    assert_eq!(g.scores(), [4 + 40 - 20, 0]);
    assert!(g
        .history()
        .iter()
        .any(|t| t.kind == TurnKind::TimePenalty && t.score == -20));
}

fn trip(r: Ruleset, scores: [i32; 2]) -> Game {
    let j = judge(&[]);
    let mut g = game(r, "CATSDOG", "EEEIIOU", BAG20);
    g.scores = scores;
    let limit = g.ruleset().overtime.limit.unwrap().minutes;
    let fx = g
        .apply(
            &Event {
                actor: Actor::Clock,
                at_ms: 25 * MIN + limit * MIN + 5000,
                action: Action::Tick,
            },
            &j,
        )
        .unwrap();
    assert!(fx.contains(&Effect::Ended {
        reason: EndReason::OvertimeLimit { seat: 0 }
    }));
    assert_eq!(
        g.clocks().remaining_ms[0],
        overtime_trip_ms(g.ruleset().overtime.limit.unwrap()),
        "stopped at the moment of the limit"
    );
    g
}

#[test]
fn naspa_v_g_3_past_ten_minutes_overtime_the_offender_loses_100_and_at_least_by_one() {
    let g = trip(Ruleset::naspa_2013(), [300, 250]);
    assert_eq!(g.scores(), [200, 250]);
    let g = trip(Ruleset::naspa_2013(), [400, 250]);
    assert_eq!(
        g.scores(),
        [300, 301],
        "the opponent is raised to a 1-point win"
    );
    // Nine minutes of overtime does not end the game.
    let j = judge(&[]);
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", BAG20);
    g.apply(
        &Event {
            actor: Actor::Clock,
            at_ms: 34 * MIN,
            action: Action::Tick,
        },
        &j,
    )
    .unwrap();
    assert!(!g.is_over());
    // NSA 2011 has no limit.
    let mut g = game(Ruleset::nsa_2011(), "CATSDOG", "EEEIIOU", BAG20);
    g.apply(
        &Event {
            actor: Actor::Clock,
            at_ms: 60 * MIN,
            action: Action::Tick,
        },
        &j,
    )
    .unwrap();
    assert!(!g.is_over());
}

#[test]
fn naspa_v_g_3_the_limit_trips_only_once_exceeded_at_minus_10_01() {
    // NASPA V.G.3 says "exceeds": −10:00 is still in the game, −10:01 ends it.
    let j = judge(&[]);
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", BAG20);
    let tick = |at| Event {
        actor: Actor::Clock,
        at_ms: at,
        action: Action::Tick,
    };
    g.apply(&tick(35 * MIN), &j).unwrap();
    assert!(!g.is_over(), "−10:00 does not exceed the limit");
    g.apply(&tick(35 * MIN + 1000), &j).unwrap();
    assert!(g.is_over(), "−10:01 exceeds it");
}

#[test]
fn wespa_5_3_3_overtime_forfeit_at_the_limit_by_the_margin_then_or_100() {
    // WESPA 5.3.3: the game is forfeited when the overrun *reaches* 10 minutes, so the clock
    // stops at −10:00 and the time penalty is 10 minutes × 10 = 100 (not 110 for −10:01).
    let j = judge(&[]);
    let mut g = game(Ruleset::wespa_2010(), "CATSDOG", "EEEIIOU", BAG20);
    let tick = |at| Event {
        actor: Actor::Clock,
        at_ms: at,
        action: Action::Tick,
    };
    g.apply(&tick(35 * MIN - 1), &j).unwrap();
    assert!(!g.is_over(), "9:59.999 of overtime is not yet the limit");
    g.apply(&tick(35 * MIN), &j).unwrap();
    assert!(g.is_over(), "10:00 of overtime reaches the limit");
    assert_eq!(g.clocks().remaining_ms[0], -10 * MIN);
    // At 0–0: 0 − 100 (time penalty) = −100 against 0, a margin of 100 = the minimum.
    assert_eq!(g.scores(), [-100, 0]);
    // 300–250: 300 − 100 = 200 against 250, a margin of 50, raised to 100: 250 − 100 = 150.
    let g = trip(Ruleset::wespa_2010(), [300, 250]);
    assert_eq!(g.scores(), [150, 250]);
    // 100–250: 100 − 100 = 0 against 250, a margin of 250 > 100, which stands.
    let g = trip(Ruleset::wespa_2010(), [100, 250]);
    assert_eq!(g.scores(), [0, 250]);
}

#[test]
fn sanspa_18_5_overtime_forfeit_at_15_minutes_by_the_margin_then_or_150() {
    // SANSPA 18.5: at −15:00 the penalty is 15 × 10 = 150.
    // 0–0: 0 − 150 = −150 against 0, a margin of 150 = the minimum.
    let g = trip(Ruleset::sanspa_1999(), [0, 0]);
    assert_eq!(g.clocks().remaining_ms[0], -15 * MIN);
    assert_eq!(g.scores(), [-150, 0]);
    // 300–250: 300 − 150 = 150 against 250, a margin of 100, raised to 150: 250 − 150 = 100.
    let g = trip(Ruleset::sanspa_1999(), [300, 250]);
    assert_eq!(g.scores(), [100, 250]);
    // 500–100: 500 − 150 = 350, still ahead: forfeit by 150, 100 − 150 = −50.
    let g = trip(Ruleset::sanspa_1999(), [500, 100]);
    assert_eq!(g.scores(), [-50, 100]);
}

#[test]
fn literacy_2018_one_game_clock_two_minutes_a_turn_and_the_game_ends_on_time() {
    let j = judge(&["CAT"]);
    let mut g = game(Ruleset::literacy_2018(), "CATSDOG", "EEEIIOU", BAG20);
    let tick = |at| Event {
        actor: Actor::Clock,
        at_ms: at,
        action: Action::Tick,
    };
    let fx = g.apply(&tick(2 * MIN + 1), &j).unwrap();
    assert!(fx.contains(&Effect::TurnTimedOut { seat: 0 }));
    assert_eq!(g.to_move(), 1);
    assert_eq!(g.clocks().game_remaining_ms, Some(18 * MIN - 1));
    play(&mut g, 1, 3 * MIN, "8G", "CAT", &j).unwrap_err(); // seat 1 has no C
    act(&mut g, 1, 3 * MIN, Action::Pass, &j).unwrap();
    play(&mut g, 0, 4 * MIN, "8G", "CAT", &j).unwrap();
    // The clock stops only for challenges: a challenge takes no game time.
    act(&mut g, 1, 5 * MIN, Action::Challenge { words: vec![] }, &j).unwrap();
    assert_eq!(g.clocks().game_remaining_ms, Some(15 * MIN));
    // Seat 1 lost the challenge (double) so seat 0 moves; run the game clock down.
    g.clocks.game_remaining_ms = Some(30_000);
    let fx = g.apply(&tick(5 * MIN + 40_000), &j).unwrap();
    assert!(fx.contains(&Effect::Ended {
        reason: EndReason::GameClockExpired
    }));
    let set = TileSet::english();
    assert_eq!(g.scores()[1], -set.tiles_value(g.rack(1)));
    assert_eq!(g.scores()[0], 10 - set.tiles_value(g.rack(0)));
}

#[test]
fn naspa_v_k_2_resigning_loses_by_50_or_the_deficit_plus_50() {
    let j = judge(&[]);
    for r in [
        Ruleset::naspa_2013(),
        Ruleset::nsa_2011(),
        Ruleset::wespa_2010(),
        Ruleset::sanspa_1999(),
    ] {
        let mut g = game(r.clone(), "CATSDOG", "EEEIIOU", BAG20);
        g.scores = [200, 150];
        act(&mut g, 0, 0, Action::Resign, &j).unwrap();
        assert_eq!(
            g.scores(),
            [200, 250],
            "{}: ahead: the opponent is raised to win by 50",
            r.name
        );
        let mut g = game(r.clone(), "CATSDOG", "EEEIIOU", BAG20);
        g.scores = [100, 150];
        act(&mut g, 0, 0, Action::Resign, &j).unwrap();
        assert_eq!(g.scores(), [50, 150], "{}: behind: deficit plus 50", r.name);
        assert_eq!(
            *g.phase(),
            Phase::Ended {
                reason: EndReason::Resigned { seat: 0 }
            }
        );
    }
}

#[test]
fn naspa_v_f_director_shortened_games_deduct_racks_but_nsa_v_e_does_not() {
    let j = judge(&[]);
    let dir = Event {
        actor: Actor::Director,
        at_ms: 0,
        action: Action::DirectorEnd,
    };
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", BAG20);
    g.apply(&dir, &j).unwrap();
    assert_eq!(g.scores(), [-11, -7]);
    let mut g = game(Ruleset::nsa_2011(), "CATSDOG", "EEEIIOU", BAG20);
    g.apply(&dir, &j).unwrap();
    assert_eq!(g.scores(), [0, 0]);
    // Only the director may do it.
    let mut g = game(Ruleset::nsa_2011(), "CATSDOG", "EEEIIOU", BAG20);
    assert!(act(&mut g, 0, 0, Action::DirectorEnd, &j).is_err());
}

#[test]
fn a_finished_game_refuses_moves() {
    let j = judge(&["AT"]);
    let mut g = out_play_game(Ruleset::naspa_2013());
    play(&mut g, 0, 0, "8H", "AT", &j).unwrap();
    act(&mut g, 1, 10, Action::Accept, &j).unwrap();
    assert_eq!(
        act(&mut g, 1, 20, Action::Pass, &j).unwrap_err(),
        GameError::GameOver
    );
}

#[test]
fn next_deadline_is_when_time_alone_changes_the_game() {
    let j = judge(&["AT"]);
    // NASPA: the flag past ten minutes of overtime.
    let g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", BAG20);
    assert_eq!(g.next_deadline_ms(), Some(35 * MIN + 1000));
    let mut t = g.clone();
    t.apply(
        &Event {
            actor: Actor::Clock,
            at_ms: 35 * MIN + 999,
            action: Action::Tick,
        },
        &j,
    )
    .unwrap();
    assert!(!t.is_over());
    t.apply(
        &Event {
            actor: Actor::Clock,
            at_ms: 35 * MIN + 1000,
            action: Action::Tick,
        },
        &j,
    )
    .unwrap();
    assert!(t.is_over());
    // NSA: no limit, so no deadline.
    assert_eq!(
        game(Ruleset::nsa_2011(), "CATSDOG", "EEEIIOU", BAG20).next_deadline_ms(),
        None
    );
    // The out-play window.
    let mut g = out_play_game(Ruleset::naspa_2013());
    play(&mut g, 0, 1000, "8H", "AT", &j).unwrap();
    assert_eq!(g.next_deadline_ms(), Some(21_000));
    // Literacy: the two-minute turn.
    let g = game(Ruleset::literacy_2018(), "CATSDOG", "EEEIIOU", BAG20);
    assert_eq!(g.next_deadline_ms(), Some(2 * MIN));
    assert_eq!(
        g.clocks_at(30_000).game_remaining_ms,
        Some(20 * MIN - 30_000)
    );
    assert_eq!(g.clocks_at(30_000), {
        let mut c = g.clocks();
        c.game_remaining_ms = Some(20 * MIN - 30_000);
        c
    });
}

fn director(at_ms: i64, action: Action) -> Event {
    Event {
        actor: Actor::Director,
        at_ms,
        action,
    }
}

#[test]
fn naspa_ii_a_calling_the_director_stops_the_clock_and_blocks_play() {
    let j = judge(&["CAT"]);
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", BAG20);
    // Seat 1 calls the director 10 s into seat 0's turn.
    let fx = act(&mut g, 1, 10_000, Action::Pause, &j).unwrap();
    assert_eq!(fx, vec![Effect::Paused { called_by: Some(1) }]);
    assert_eq!(
        g.paused(),
        Some(Pause {
            since_ms: 10_000,
            called_by: Some(1)
        })
    );
    // While stopped: no play, no study-then-move, no second call, no deadline, and the clock
    // reads the same however long the stop lasts.
    let before = g.clone();
    assert_eq!(
        play(&mut g, 0, 50_000, "8G", "CAT", &j).unwrap_err(),
        GameError::Paused { rule: "NASPA II.A" }
    );
    assert_eq!(
        act(&mut g, 0, 50_000, Action::Pause, &j).unwrap_err(),
        GameError::Paused { rule: "NASPA II.A" }
    );
    assert!(
        act(&mut g, 1, 50_000, Action::Resume, &j).is_err(),
        "only the director restarts"
    );
    assert_eq!(g, before, "refused events change nothing");
    assert_eq!(g.next_deadline_ms(), None);
    assert_eq!(g.clocks_at(600_000).remaining_ms[0], 25 * MIN - 10_000);
    // The director restarts it after 90 s; seat 0 plays 5 s later: 15 s used in all.
    let fx = g.apply(&director(100_000, Action::Resume), &j).unwrap();
    assert_eq!(fx, vec![Effect::Resumed]);
    assert_eq!(g.paused(), None);
    play(&mut g, 0, 105_000, "8G", "CAT", &j).unwrap();
    assert_eq!(g.clocks().remaining_ms[0], 25 * MIN - 15_000);
    // Resuming a game that is not stopped is refused.
    assert!(g.apply(&director(106_000, Action::Resume), &j).is_err());
}

#[test]
fn wespa_4_1_neutralising_keeps_the_out_play_window_and_the_director_may_end_a_stopped_game() {
    let j = judge(&["AT"]);
    // WESPA 5.1.3: a 5-second window after the out play; a neutralisation 2 s into it keeps
    // the 3 s that remain.
    let mut g = out_play_game(Ruleset::wespa_2010());
    play(&mut g, 0, 1000, "8H", "AT", &j).unwrap();
    g.apply(&director(3000, Action::Pause), &j).unwrap();
    let tick = |at| Event {
        actor: Actor::Clock,
        at_ms: at,
        action: Action::Tick,
    };
    g.apply(&tick(60_000), &j).unwrap();
    assert!(
        g.clocks().running.is_none(),
        "nothing starts while neutralised"
    );
    g.apply(&director(100_000, Action::Resume), &j).unwrap();
    assert_eq!(g.next_deadline_ms(), Some(103_000));
    // The director may end a neutralised game (NASPA V.F).
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", BAG20);
    g.apply(&director(1000, Action::Pause), &j).unwrap();
    g.apply(&director(2000, Action::DirectorEnd), &j).unwrap();
    assert!(g.is_over());
    assert_eq!(g.paused(), None);
    // The clock may not pause a game.
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", BAG20);
    assert!(g
        .apply(
            &Event {
                actor: Actor::Clock,
                at_ms: 0,
                action: Action::Pause
            },
            &j
        )
        .is_err());
}

#[test]
fn literacy_2018_a_neutralised_turn_keeps_its_two_minutes() {
    let j = judge(&["CAT"]);
    let mut g = game(Ruleset::literacy_2018(), "CATSDOG", "EEEIIOU", BAG20);
    // 60 s into the turn the director is called; after a 5-minute stop the turn still has 60 s.
    act(&mut g, 1, MIN, Action::Pause, &j).unwrap();
    g.apply(&director(6 * MIN, Action::Resume), &j).unwrap();
    assert_eq!(g.next_deadline_ms(), Some(7 * MIN));
    assert_eq!(g.clocks_at(6 * MIN).game_remaining_ms, Some(19 * MIN));
    play(&mut g, 0, 6 * MIN + 59_000, "8G", "CAT", &j).unwrap();
    assert_eq!(g.clocks().game_remaining_ms, Some(20 * MIN - 119_000));
}

#[test]
fn naspa_iii_g_1_wespa_3_10_16_d_off_centre_first_play_stands_unless_challenged() {
    for r in [
        Ruleset::naspa_2013(),
        Ruleset::nsa_2011(),
        Ruleset::wespa_2010(),
        Ruleset::sanspa_1999(),
    ] {
        let j = judge(&["CAT", "AT"]);
        let mut g = game(r.clone(), "CATSDOG", "TEEIIOU", BAG20);
        // 7G CAT misses H8. C on G7 (DL) 3×2 = 6, A on H7 1, T on I7 (DL) 1×2 = 2: 9, no
        // double word.
        let fx = play(&mut g, 0, 0, "7G", "CAT", &j).unwrap();
        assert!(fx.contains(&Effect::Played {
            seat: 0,
            score: 9,
            out: false
        }));
        act(&mut g, 1, 1000, Action::Accept, &j).unwrap();
        assert_eq!(g.scores(), [9, 0], "{}", r.name);
        // The centre keeps its double word: H7 .T puts T on H8: (A 1 + T 1) × 2 = 4.
        let fx = play(&mut g, 1, 2000, "H7", ".T", &j).unwrap();
        assert!(
            fx.contains(&Effect::Played {
                seat: 1,
                score: 4,
                out: false
            }),
            "{}: {fx:?}",
            r.name
        );
    }
}

#[test]
fn naspa_iii_g_1_sanspa_5_1_2_off_centre_first_play_is_challenged_off_whatever_its_words() {
    for r in [
        Ruleset::naspa_2013(),
        Ruleset::nsa_2011(),
        Ruleset::wespa_2010(),
        Ruleset::sanspa_1999(),
    ] {
        // CAT is a good word, yet the challenge takes it off.
        let j = judge(&["CAT"]);
        let mut g = game(r.clone(), "CATSDOG", "TEEIIOU", BAG20);
        play(&mut g, 0, 0, "7G", "CAT", &j).unwrap();
        let fx = act(&mut g, 1, 1000, Action::Challenge { words: vec![] }, &j).unwrap();
        assert!(
            fx.contains(&Effect::Verdict { acceptable: false }),
            "{}",
            r.name
        );
        assert!(fx.contains(&Effect::Withdrawn { seat: 0 }));
        assert!(g.board().is_empty());
        assert_eq!(g.scores(), [0, 0]);
        assert_eq!(g.to_move(), 1);
        // No challenge bonus and no lost turn for the challenger.
        assert!(!fx
            .iter()
            .any(|e| matches!(e, Effect::ChallengeBonus { .. } | Effect::TurnLost { .. })));
    }
}

#[test]
fn void_rule_refuses_an_off_centre_first_play() {
    let j = judge(&["CAT"]);
    let mut r = Ruleset::naspa_2013();
    r.challenge = ChallengeRule::Void;
    let mut g = game(r, "CATSDOG", "TEEIIOU", BAG20);
    let snapshot = g.clone();
    assert_eq!(
        play(&mut g, 0, 0, "7G", "CAT", &j).unwrap_err(),
        GameError::Play {
            error: PlayError::MissesCentre(Square::new(7, 7)),
            rule: "NASPA A.I.A"
        }
    );
    assert_eq!(g, snapshot);
}

#[test]
fn sanspa_13_1_a_hold_lasts_20_seconds_then_the_play_is_accepted() {
    let j = judge(&["CAT"]);
    let tick = |at| Event {
        actor: Actor::Clock,
        at_ms: at,
        action: Action::Tick,
    };
    let mut g = game(Ruleset::sanspa_1999(), "CATSDOG", "EEEIIOU", BAG20);
    assert_eq!(g.ruleset().hold_limit_ms, Some(20_000));
    play(&mut g, 0, 1000, "8G", "CAT", &j).unwrap();
    act(&mut g, 1, 2000, Action::Hold, &j).unwrap();
    assert_eq!(g.next_deadline_ms(), Some(22_000), "held at 2 s + 20 s");
    g.apply(&tick(21_999), &j).unwrap();
    assert!(matches!(g.phase(), Phase::PlayPending { held: true, .. }));
    let fx = g.apply(&tick(22_000), &j).unwrap();
    assert!(fx.contains(&Effect::HoldExpired { seat: 1 }), "{fx:?}");
    assert!(fx.contains(&Effect::PlayFinal { seat: 0 }));
    assert_eq!(*g.phase(), Phase::AwaitingMove);
    assert_eq!(g.to_move(), 1, "the holder now makes their own move");
    // The hold ran the holder's clock: 1 s before the hold + 20 s held + 3 s more = 24 s.
    g.apply(&tick(25_000), &j).unwrap();
    assert_eq!(g.clocks().remaining_ms[1], 25 * MIN - 24_000);
    // The play can no longer be challenged.
    assert!(act(&mut g, 1, 25_000, Action::Challenge { words: vec![] }, &j).is_err());
    // A challenge inside the 20 seconds is still heard.
    let mut g = game(Ruleset::sanspa_1999(), "CATSDOG", "EEEIIOU", BAG20);
    play(&mut g, 0, 1000, "8G", "CAT", &j).unwrap();
    act(&mut g, 1, 2000, Action::Hold, &j).unwrap();
    let fx = act(&mut g, 1, 21_000, Action::Challenge { words: vec![] }, &j).unwrap();
    assert!(fx.contains(&Effect::Verdict { acceptable: true }));
    // An action after the hold ran out finds the play accepted: the challenge is refused.
    let mut g = game(Ruleset::sanspa_1999(), "CATSDOG", "EEEIIOU", BAG20);
    play(&mut g, 0, 1000, "8G", "CAT", &j).unwrap();
    act(&mut g, 1, 2000, Action::Hold, &j).unwrap();
    assert!(act(&mut g, 1, 30_000, Action::Challenge { words: vec![] }, &j).is_err());
    // NASPA IV.I.2 has no such limit: a hold may last as long as the holder's clock.
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", BAG20);
    play(&mut g, 0, 1000, "8G", "CAT", &j).unwrap();
    act(&mut g, 1, 2000, Action::Hold, &j).unwrap();
    g.apply(&tick(5 * MIN), &j).unwrap();
    assert!(matches!(g.phase(), Phase::PlayPending { held: true, .. }));
}

#[test]
fn literacy_2018_the_game_clock_runs_while_the_out_play_is_considered() {
    // "The 20 minute clock stops only for a challenge": not for the out play.
    let j = judge(&["AT"]);
    let mut g = out_play_game(Ruleset::literacy_2018());
    play(&mut g, 0, 1000, "8H", "AT", &j).unwrap();
    assert_eq!(g.clocks().running, Some(1), "the game clock keeps running");
    g.apply(
        &Event {
            actor: Actor::Clock,
            at_ms: 31_000,
            action: Action::Tick,
        },
        &j,
    )
    .unwrap();
    assert!(!g.is_over(), "no 20-second window ends the game");
    // 20 minutes − 31 s of play = 19:29 left.
    assert_eq!(g.clocks().game_remaining_ms, Some(20 * MIN - 31_000));
    act(&mut g, 1, 41_000, Action::Accept, &j).unwrap();
    assert!(g.is_over());
    // Unanswered, the out play is accepted when the two-minute turn cap runs out (at 1 s + 2 min).
    let mut g = out_play_game(Ruleset::literacy_2018());
    play(&mut g, 0, 1000, "8H", "AT", &j).unwrap();
    let fx = g
        .apply(
            &Event {
                actor: Actor::Clock,
                at_ms: 1000 + 2 * MIN,
                action: Action::Tick,
            },
            &j,
        )
        .unwrap();
    assert!(
        fx.contains(&Effect::Ended {
            reason: EndReason::WentOut { seat: 0 }
        }),
        "{fx:?}"
    );
}

#[test]
fn naspa_i_b_an_honoured_resignation_ends_at_the_score_less_time_penalties() {
    let j = judge(&["CAT"]);
    let mut r = Ruleset::naspa_2013();
    r.resignation.opponent_may_honour = true;
    let mut g = game(r, "CATSDOG", "EEEIIOU", BAG20);
    // Seat 0 plays CAT (10) after 26:30 on the clock: 1:30 of overtime, two started minutes.
    play(&mut g, 0, 26 * MIN + 30_000, "8G", "CAT", &j).unwrap();
    act(&mut g, 1, 26 * MIN + 31_000, Action::Accept, &j).unwrap();
    // Seat 1, behind 0–10, asks to resign on its own turn.
    let fx = act(&mut g, 1, 26 * MIN + 40_000, Action::Resign, &j).unwrap();
    assert_eq!(fx, vec![Effect::ResignationOffered { seat: 1 }]);
    assert!(!g.is_over());
    assert_eq!(g.resignation_offer(), Some(1));
    // The resigning player cannot honour their own request.
    assert!(act(&mut g, 1, 26 * MIN + 41_000, Action::HonourResignation, &j).is_err());
    let fx = act(&mut g, 0, 26 * MIN + 42_000, Action::HonourResignation, &j).unwrap();
    assert!(fx.contains(&Effect::Ended {
        reason: EndReason::Resigned { seat: 1 }
    }));
    // 10 − 20 (two started minutes of overtime) = −10 against 0; no 50-point margin, no racks.
    assert_eq!(g.scores(), [-10, 0]);
}

#[test]
fn naspa_i_b_the_opponent_may_insist_on_playing_on() {
    let j = judge(&["CAT"]);
    let mut r = Ruleset::nsa_2011();
    r.resignation.opponent_may_honour = true;
    let mut g = game(r, "CATSDOG", "EEEIIOU", BAG20);
    // Only on one's own turn.
    assert!(act(&mut g, 1, 0, Action::Resign, &j).is_err());
    act(&mut g, 0, 0, Action::Resign, &j).unwrap();
    let fx = act(&mut g, 1, 1000, Action::PlayOn, &j).unwrap();
    assert_eq!(fx, vec![Effect::ResignationDeclined { seat: 1 }]);
    assert_eq!(g.resignation_offer(), None);
    assert!(!g.is_over());
    play(&mut g, 0, 2000, "8G", "CAT", &j).unwrap();
    assert_eq!(g.scores(), [10, 0]);
    // A player who leaves instead is scored by NSA V.J.2: behind 0–10, 50 more off.
    act(&mut g, 1, 3000, Action::Leave, &j).unwrap();
    assert_eq!(g.scores(), [10, -50]);
    assert_eq!(
        *g.phase(),
        Phase::Ended {
            reason: EndReason::Left { seat: 1 }
        }
    );
}

#[test]
fn wespa_5_7_c_a_resignation_at_0_0_is_level_not_behind_and_cites_wespa() {
    let j = judge(&[]);
    let mut g = game(Ruleset::wespa_2010(), "CATSDOG", "EEEIIOU", BAG20);
    act(&mut g, 0, 0, Action::Resign, &j).unwrap();
    // 0–0: the opponent is raised to 0 + 50 = 50.
    assert_eq!(g.scores(), [0, 50]);
    let why = &g.adjustments()[0].why;
    assert!(why.contains("level score"), "{why}");
    assert!(!why.contains("behind"), "{why}");
    assert!(
        why.contains("WESPA 5.7(c)") && !why.contains("NASPA"),
        "{why}"
    );
    // SANSPA 19.3 for a SANSPA game, worded for a player who leaves while ahead.
    let mut g = game(Ruleset::sanspa_1999(), "CATSDOG", "EEEIIOU", BAG20);
    g.scores = [30, 10];
    act(&mut g, 0, 0, Action::Leave, &j).unwrap();
    // 30 + 50 = 80 for the opponent.
    assert_eq!(g.scores(), [30, 80]);
    let why = &g.adjustments()[0].why;
    assert!(
        why.contains("left the game while ahead") && why.contains("SANSPA 19.3"),
        "{why}"
    );
}

/// Whether `text` cites no book but `book` (Literacy 2018 defers to NSA where it is silent, so
/// a Literacy game may cite NSA).
fn cites_only(book: &str, text: &str) -> bool {
    let allowed: &[&str] = match book {
        "Literacy" => &["Literacy", "NSA"],
        b => &[b],
    };
    ["NASPA", "NSA", "WESPA", "SANSPA", "Literacy"]
        .iter()
        .filter(|b| !allowed.contains(b))
        // "NSA" is inside "NASPA" and "SANSPA": look for the word.
        .all(|b| {
            !text
                .split(|c: char| !c.is_ascii_alphabetic())
                .any(|w| w == *b)
        })
}

#[test]
fn issue_27_every_adjustment_and_refusal_cites_the_games_own_book() {
    let j = judge(&["AT", "CAT"]);
    for name in Ruleset::PRESETS {
        let r = Ruleset::preset(name).unwrap();
        let book = r.book();
        // The out play: the rack adjustment.
        let mut g = out_play_game(r.clone());
        play(&mut g, 0, 0, "8H", "AT", &j).unwrap();
        act(&mut g, 1, 1000, Action::Accept, &j).unwrap();
        assert!(!g.adjustments().is_empty(), "{name}: no rack adjustment");
        for a in g.adjustments() {
            assert!(
                a.why.contains(book),
                "{name}: {:?} names no {book} rule",
                a.why
            );
            assert!(
                cites_only(book, &a.why),
                "{name}: {:?} cites another book",
                a.why
            );
        }
        // Refusals: a first play off the centre under the void rule, an exchange with too few
        // tiles in the bag, a resignation asked out of turn.
        let mut refusals = Vec::new();
        let mut g = game(r.clone(), "CATSDOG", "EEEIIOU", "EEEEII");
        refusals.push(act(
            &mut g,
            0,
            0,
            Action::Exchange { tiles: tiles("C") },
            &j,
        ));
        refusals.push(play(&mut g, 0, 0, "8A", "CAT", &j));
        refusals.push(act(&mut g, 1, 0, Action::Resign, &j));
        let mut void = r.clone();
        void.challenge = ChallengeRule::Void;
        let mut g = game(void, "CATSDOG", "EEEIIOU", BAG20);
        refusals.push(play(&mut g, 0, 0, "7G", "CAT", &j));
        for e in refusals.into_iter().filter_map(Result::err) {
            let text = e.to_string();
            assert!(
                cites_only(book, &text),
                "{name}: {text:?} cites another book"
            );
        }
    }
}

#[test]
fn issue_27_an_nsa_out_play_cites_nsa_and_a_literacy_one_cites_literacy() {
    let j = judge(&["AT"]);
    let mut g = out_play_game(Ruleset::nsa_2011());
    play(&mut g, 0, 0, "8H", "AT", &j).unwrap();
    act(&mut g, 1, 1000, Action::Accept, &j).unwrap();
    assert_eq!(
        g.adjustments()[0].why,
        "twice the opponent's unplayed tiles (NSA V.F.1)"
    );
    let mut g = out_play_game(Ruleset::literacy_2018());
    play(&mut g, 0, 0, "8H", "AT", &j).unwrap();
    act(&mut g, 1, 1000, Action::Accept, &j).unwrap();
    let whys: Vec<&str> = g.adjustments().iter().map(|a| a.why.as_str()).collect();
    assert_eq!(
        whys,
        [
            "the opponent's unplayed tiles (Literacy scoring 9)",
            "own unplayed tiles (Literacy scoring 9)"
        ]
    );
}

#[test]
fn literacy_play_an_exchange_of_none_of_the_letters_is_made_as_a_pass() {
    let j = judge(&[]);
    let mut g = game(Ruleset::literacy_2018(), "CATSDOG", "EEEIIOU", BAG20);
    let e = act(&mut g, 0, 0, Action::Exchange { tiles: vec![] }, &j).unwrap_err();
    let text = e.to_string();
    assert!(text.contains("pass"), "{text}");
    // The pass it points to is accepted, and is a scoreless turn.
    act(&mut g, 0, 0, Action::Pass, &j).unwrap();
    assert_eq!(g.zero_run(), 1);
    // Other books do not allow exchanging none: no such hint.
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", BAG20);
    let e = act(&mut g, 0, 0, Action::Exchange { tiles: vec![] }, &j).unwrap_err();
    assert_eq!(e.to_string(), "an exchange must return at least one tile");
}

/// A game that could not store an event takes it back: after `rewind` it is exactly the game it
/// was, through a play, a hold, a challenge that fails and scoreless turns.
#[test]
fn an_event_taken_back_leaves_the_game_as_it_was() {
    let j = judge(&["CAT", "CATS"]);
    let mut g = game(
        Ruleset::preset("naspa-2013").unwrap(),
        "CATSXYZ",
        "QQQQIIE",
        "AEIOURSTLNAEIOURSTLN",
    );
    let check = |g: &mut Game, ev: Event| {
        let before = g.clone();
        let (_, rewind) = g.apply_rewindable(&ev, &j).unwrap();
        assert_ne!(*g, before, "{ev:?} changed nothing");
        let after = g.clone();
        g.rewind(rewind);
        assert_eq!(*g, before, "{ev:?} was not taken back");
        g.apply(&ev, &j).unwrap();
        assert_eq!(*g, after, "{ev:?} applied again differs");
    };
    let p = placement(&g, "8D", "CAT");
    check(&mut g, seat(0, 1000, Action::Play { placement: p }));
    check(&mut g, seat(1, 2000, Action::Hold));
    check(&mut g, seat(1, 3000, Action::Challenge { words: vec![] }));
    for i in 0..5 {
        let s = g.to_move();
        check(&mut g, seat(s, 4000 + i * 1000, Action::Pass));
    }
    assert!(!g.is_over(), "{:?}", g.phase());
    // A refused event leaves nothing behind either.
    let before = g.clone();
    let off_turn = 1 - g.to_move();
    assert!(g
        .apply_rewindable(&seat(off_turn, 20_000, Action::Pass), &j)
        .is_err());
    assert_eq!(g, before);
}
