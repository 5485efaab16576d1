//! Standings: wins (a tie is half), losses, spread, rating by default; configurable tie-breaks;
//! an optional spread cap.

mod common;

use common::Event;
use tilebag_tournament::report::{csv_field, standings_csv};
use tilebag_tournament::*;

fn manual(e: &mut Event, round: u32, a: u32, b: u32) {
    e.manual(round, a, Some(b));
}

/// Four players, one round: 1 beats 2 by 500 (600–100); 3 and 4 tie 350–350.
fn event() -> Event {
    let mut e = Event::new("naspa-2013", "MAN:2", 1);
    e.add_seeded(4);
    manual(&mut e, 1, 1, 2);
    manual(&mut e, 1, 3, 4);
    e.score(1, 1, 600, 100);
    e.score(1, 3, 350, 350);
    e
}

#[test]
fn tsh_default_order_wins_losses_spread_rating() {
    let e = event();
    // 1: 1–0 +500; 3 and 4: ½–½, 0 (3 rated higher); 2: 0–1 −500.
    assert_eq!(e.order(1), vec![1, 3, 4, 2]);
    assert_eq!(e.standing(1, 3).wins(), 0.5);
    assert_eq!(e.standing(1, 3).losses(), 0.5);
    // Before any round: the seeds, by rating.
    assert_eq!(e.order(0), vec![1, 2, 3, 4]);
}

#[test]
fn losses_break_ties_on_wins() {
    // With unequal games: 1 (1–0) and 5 (1–1) both have 1 win; fewer losses ranks first even
    // with less spread.
    let mut e = event();
    e.add("Late, Entry", 2500);
    manual(&mut e, 2, 5, 2);
    e.score(2, 5, 400, 390);
    manual(&mut e, 2, 3, 1);
    e.score(2, 3, 300, 100);
    // After round 2: 3 is 1.5–0.5 (+200); 1 is 1–1 (+300); 5 is 1–0 (+10); 4 is ½–½; 2 is 0–2.
    let order = e.order(2);
    assert_eq!(order, vec![3, 5, 1, 4, 2]);
}

#[test]
fn tie_breaks_are_configurable() {
    let mut e = event();
    e.set(Setting::TieBreaks(vec![TieBreak::Rating]));
    assert_eq!(e.order(1), vec![1, 2, 3, 4]);
    e.set(Setting::TieBreaks(vec![
        TieBreak::PointsFor,
        TieBreak::Spread,
    ]));
    // Points: 1 600, 3 and 4 350 (equal spread: by number), 2 100.
    assert_eq!(e.order(1), vec![1, 3, 4, 2]);
    e.set(Setting::TieBreaks(vec![TieBreak::Spread, TieBreak::Wins]));
    assert_eq!(e.order(1), vec![1, 3, 4, 2]);
}

#[test]
fn spread_cap_limits_each_game() {
    let mut e = event();
    e.set(Setting::SpreadCap(Some(300)));
    let s1 = e.standing(1, 1);
    assert_eq!((s1.spread, s1.capped_spread), (500, 300));
    assert_eq!(e.standing(1, 2).capped_spread, -300);
    // The cap decides ties: a second round where 3 beats 2 by 350 and 4 beats 1 by 10.
    manual(&mut e, 2, 3, 2);
    manual(&mut e, 2, 4, 1);
    e.score(2, 3, 450, 100);
    e.score(2, 4, 400, 390);
    // 3: 1.5–0.5, capped 0 + 300 = 300; 4: 1.5–0.5, capped 0 + 10 = 10.
    // 1: 1–1, capped 300 − 10 = 290 (raw 490).
    assert_eq!(e.order(2), vec![3, 4, 1, 2]);
    assert!(e
        .try_act(Action::Configure {
            division: "A".into(),
            setting: Setting::SpreadCap(Some(0))
        })
        .is_err());
}

#[test]
fn csv_standings() {
    let mut e = event();
    e.act(Action::EditPlayer {
        division: "A".into(),
        player: 4,
        name: Some("O'Neil, \"Ace\", Jr".into()),
        rating: None,
        member_id: Some("X1".into()),
    });
    let csv = standings_csv(e.d(), 1);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        "division,rank,player,name,member_id,rating,wins,losses,spread,points_for,points_against,firsts,seconds,byes,withdrawn"
    );
    assert_eq!(
        lines[1],
        "A,1,1,\"Seed01, Player\",,1990,1,0,500,600,100,1,0,0,no"
    );
    assert_eq!(
        lines[3],
        // 4 is level with 3 on wins, losses and spread: they share 2nd place (tsh).
        "A,2,4,\"O'Neil, \"\"Ace\"\", Jr\",X1,1960,0.5,0.5,0,350,350,0,1,0,no"
    );
    assert_eq!(csv_field("plain"), "plain");
}

/// Issue 27 item 15: players level on wins, losses and spread share their rank, as tsh prints
/// it (`1, 2, 2, 4`); the rating still orders them on the page. A player level on wins and
/// losses but not spread does not share.
#[test]
fn tied_players_share_their_rank_as_tsh_does() {
    let e = event();
    // 1: 1–0 +500; 3 and 4: ½–½ 0 (3 is rated higher, so listed first); 2: 0–1 −500.
    let ranks: Vec<(u32, u32)> = e
        .d()
        .standings(1)
        .iter()
        .map(|s| (s.player, s.rank))
        .collect();
    assert_eq!(ranks, vec![(1, 1), (3, 2), (4, 2), (2, 4)]);
    // The director's table shows it so.
    let t = tables::standings_table(e.d(), 1);
    let shown: Vec<(&str, &str)> = t
        .rows
        .iter()
        .map(|r| (r[0].as_str(), r[1].as_str()))
        .collect();
    assert_eq!(shown, vec![("1", "1"), ("2", "3"), ("2", "4"), ("4", "2")]);
    // Before round 1 the standings are the seeds, by rating: one rank each.
    let seeds: Vec<u32> = e.d().standings(0).iter().map(|s| s.rank).collect();
    assert_eq!(seeds, vec![1, 2, 3, 4]);
    // A tie-break the director chose counts: by points for, 3 and 4 (350 each) still share.
    let mut e = event();
    e.set(Setting::TieBreaks(vec![TieBreak::PointsFor]));
    let ranks: Vec<u32> = e.d().standings(1).iter().map(|s| s.rank).collect();
    assert_eq!(ranks, vec![1, 2, 2, 4]);
}

/// Issue 27 item 15: a withdrawn player is listed after every player still taking part (with
/// the ranks after theirs), not among them; an ejected one after that (WESPA 6.2.4(a)(ii)).
#[test]
fn withdrawn_players_are_ranked_after_the_active_ones() {
    let mut e = event();
    // Player 1 (1–0 +500) withdraws before round 2: an automatic forfeit loss (−50).
    e.act(Action::Withdraw {
        division: "A".into(),
        player: 1,
        from_round: 2,
    });
    // Round 2: 2 beats 4 400–300; 3 has a bye (+50).
    manual(&mut e, 2, 2, 4);
    e.manual(2, 3, None);
    e.score(2, 2, 400, 300);
    // After round 2: 3 1.5–0.5 +50; 1 1–1 +450 but withdrawn; 2 1–1 −400; 4 ½–1½ −100.
    assert_eq!(e.order(2), vec![3, 2, 4, 1]);
    let s = e.d().standings(2);
    assert_eq!(
        s.iter().map(|s| (s.rank, s.active)).collect::<Vec<_>>(),
        vec![(1, true), (2, true), (3, true), (4, false)]
    );
    let t = tables::standings_table(e.d(), 2);
    assert_eq!(t.rows[3][1], "1");
    assert_eq!(t.rows[3].last().unwrap(), "withdrawn");
}
