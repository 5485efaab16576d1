//! WESPA 6.2.4(a): ejecting a player for cheating or abusive behaviour.

mod common;

use common::Event;
use tilebag_tournament::*;

fn eject(e: &mut Event, player: u32, from_round: u32) {
    e.act(Action::Eject {
        division: "A".into(),
        player,
        from_round,
    });
}

fn game_with(e: &Event, round: u32, p: u32) -> Game {
    e.games(round)
        .into_iter()
        .find(|g| g.first == p || g.second == p)
        .unwrap()
}

#[test]
fn wespa_6_2_4_a_i_in_a_round_robin_all_the_ejected_players_games_are_void() {
    // Four players, a round robin: three rounds.
    let mut e = Event::new("wespa-2010", "RR", 9);
    e.add_seeded(4);
    for r in 1..=2 {
        e.pair(r);
        e.better_seed_wins(r);
    }
    e.pair(3);
    // Player 1 won both games 400–300 (+200); ejected before round 3 is played.
    assert_eq!(e.standing(2, 1).wins2, 4);
    let beaten: Vec<u32> = (1..=2)
        .map(|r| {
            let g = game_with(&e, r, 1);
            g.opponent_of(1).unwrap()
        })
        .collect();
    let before: Vec<Standing> = beaten.iter().map(|&p| e.standing(2, p)).collect();
    eject(&mut e, 1, 3);
    for r in 1..=2 {
        let g = game_with(&e, r, 1);
        assert_eq!(g.result, Some(GameResult::Void));
        assert_eq!(g.corrections.len(), 1, "the old result is kept");
        assert_eq!(g.corrections[0].note, "WESPA 6.2.4(a)(i): #1 ejected");
        assert!(matches!(
            g.corrections[0].previous,
            Some(GameResult::Played { .. })
        ));
    }
    // The beaten players lose a loss and 100 spread each: the void game counts for nobody.
    for (p, b) in beaten.iter().zip(&before) {
        let now = e.standing(2, *p);
        assert_eq!(now.losses2, b.losses2 - 2, "#{p}");
        assert_eq!(now.spread, b.spread + 100, "#{p}");
        assert_eq!(now.results, b.results - 1, "#{p}");
    }
    // Round 3's unplayed game is a forfeit, as for a withdrawal; #1 ranks last.
    let g3 = game_with(&e, 3, 1);
    assert!(matches!(
        g3.result,
        Some(GameResult::Forfeit { loser: 1, .. })
    ));
    let order = e.order(2);
    assert_eq!(*order.last().unwrap(), 1, "{order:?}");
    assert!(e.d().players[0].ejected);
}

#[test]
fn wespa_6_2_4_a_ii_otherwise_each_game_is_a_150_point_win_for_the_opponent_unless_they_did_better()
{
    let mut e = Event::new("wespa-2010", "SW:4", 5);
    e.add_seeded(6);
    e.pair(1);
    // Round 1: #6 beats its opponent 500–300 (+200 for #6).
    let g1 = game_with(&e, 1, 6);
    let o1 = g1.opponent_of(6).unwrap();
    e.score(1, 6, 500, 300);
    e.better_seed_wins(1);
    e.pair(2);
    // Round 2: #6 loses by 200 (its opponent did better than a 150-point win: kept).
    let g2 = game_with(&e, 2, 6);
    let o2 = g2.opponent_of(6).unwrap();
    e.score(2, 6, 300, 500);
    e.better_seed_wins(2);
    e.pair(3);
    // Round 3: #6 loses by 50 (becomes a 150-point win for the opponent).
    let g3 = game_with(&e, 3, 6);
    let o3 = g3.opponent_of(6).unwrap();
    e.score(3, 6, 350, 400);
    e.better_seed_wins(3);
    let before: Vec<Standing> = [o1, o2, o3].iter().map(|&p| e.standing(3, p)).collect();
    eject(&mut e, 6, 4);

    // Round 1: the loss becomes a 150-point win for #o1: +2 wins, spread −200 → +150.
    let g = game_with(&e, 1, 6);
    assert_eq!(
        g.result,
        Some(GameResult::Forfeit {
            loser: 6,
            spread: 150
        })
    );
    assert_eq!(g.corrections[0].note, "WESPA 6.2.4(a)(ii): #6 ejected");
    let s1 = e.standing(3, o1);
    assert_eq!(s1.wins2, before[0].wins2 + 2);
    assert_eq!(s1.losses2, before[0].losses2 - 2);
    assert_eq!(s1.spread, before[0].spread + 200 + 150);
    // Round 2: #o2 won by 200, better than 150: unchanged.
    let g = game_with(&e, 2, 6);
    assert!(matches!(g.result, Some(GameResult::Played { .. })));
    assert!(g.corrections.is_empty());
    assert_eq!(e.standing(3, o2), before[1]);
    // Round 3: #o3 won by 50; now by 150.
    let g = game_with(&e, 3, 6);
    assert_eq!(
        g.result,
        Some(GameResult::Forfeit {
            loser: 6,
            spread: 150
        })
    );
    let s3 = e.standing(3, o3);
    assert_eq!(s3.wins2, before[2].wins2);
    assert_eq!(s3.spread, before[2].spread - 50 + 150);
    // #6 is last and out of the pairings; the five others are paired (one bye).
    assert_eq!(*e.order(3).last().unwrap(), 6);
    e.pair(4);
    assert!(e.d().round(4).unwrap().pairings.iter().all(|p| match p {
        Pairing::Game(g) => g.first != 6 && g.second != 6,
        Pairing::Bye { player, .. } => *player != 6,
        Pairing::Absent { .. } => true,
    }));
    assert_eq!(e.byes(4).len(), 1);
    // An ejected player is not reinstated, nor ejected twice; undo is the way back.
    assert!(e
        .try_act(Action::Reinstate {
            division: "A".into(),
            player: 6
        })
        .is_err());
    assert!(e
        .try_act(Action::Eject {
            division: "A".into(),
            player: 6,
            from_round: 4
        })
        .is_err());
}

#[test]
fn a_void_game_cannot_be_written_to_a_t_file_and_the_tou_file_leaves_it_unrated() {
    let mut e = Event::new("wespa-2010", "RR", 9);
    e.add_seeded(4);
    e.pair(1);
    e.better_seed_wins(1);
    eject(&mut e, 2, 2);
    let err = tsh::write_t(e.d()).unwrap_err().to_string();
    assert!(err.contains("void (WESPA 6.2.4(a)(i))"), "{err}");
    let t = Tournament::replay(&e.log).unwrap();
    let tou = tou::write_tou(&t, "A").unwrap();
    // The void game (#3 v #2) is written as a game against oneself for each side, as byes are,
    // which the ratings program does not rate; the played game (#4 v #1) stays a game. Names
    // are "Given Surname".
    let line = |name: &str| {
        tou.lines()
            .find(|l| l.starts_with(name))
            .unwrap()
            .to_string()
    };
    assert!(line("Player Seed02").ends_with(" 2"), "{tou}");
    assert!(line("Player Seed03").ends_with(" 3"), "{tou}");
    assert!(line("Player Seed01").ends_with(" 4"), "{tou}");
    assert!(line("Player Seed04").ends_with("+1"), "{tou}");
}
