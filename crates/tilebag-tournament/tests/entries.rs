//! Online entries by players' accounts (issue 30 item 6): registration, check-in, withdrawal
//! before the start, the closing of check-in, no-show forfeits (NASPA III.C, V.K.1; WESPA 2.3.5,
//! 2.3.6), and that none of it reaches tsh's `.t` or AUPAIR's `.TOU` files.

mod common;

use common::Event;
use tilebag_tournament::entries::EntryChange;
use tilebag_tournament::*;

const CHECK_IN_FROM: i64 = 1_800_000_000_000;

fn entry(change: EntryChange) -> Action {
    Action::Entry {
        division: "A".into(),
        change,
    }
}

fn open(e: &mut Event) {
    e.act(entry(EntryChange::Open {
        check_in_from_ms: CHECK_IN_FROM,
        no_show_minutes: 25,
        lexicon: None,
    }));
}

fn register(e: &mut Event, account_id: i64, name: &str) -> Result<(), TournamentError> {
    e.try_act(entry(EntryChange::Register {
        account_id,
        username: name.into(),
        at_ms: CHECK_IN_FROM - 60_000,
    }))
}

fn check_in(e: &mut Event, account_id: i64, at_ms: i64) -> Result<(), TournamentError> {
    e.try_act(entry(EntryChange::CheckIn { account_id, at_ms }))
}

#[test]
fn registering_adds_a_player_once_per_account() {
    let mut e = Event::new("naspa-2013", "RR:1", 1);
    let err = register(&mut e, 1, "alice").unwrap_err();
    assert!(
        err.to_string().contains("not open to online entries"),
        "{err}"
    );
    open(&mut e);
    register(&mut e, 1, "alice").unwrap();
    register(&mut e, 2, "bob").unwrap();
    let err = register(&mut e, 1, "alice").unwrap_err();
    assert!(
        err.to_string().contains("already registered (player #1)"),
        "{err}"
    );
    let err = register(&mut e, 3, "  ").unwrap_err();
    assert!(err.to_string().contains("printable"), "{err}");
    let d = e.t.division("A").unwrap();
    assert_eq!(d.players.len(), 2);
    assert_eq!(d.players[1].name, "bob");
    let entries = d.entries.as_ref().unwrap();
    assert_eq!(entries.entrant(2).unwrap().player, 2);
    // A closed division refuses.
    e.act(entry(EntryChange::Close));
    let err = register(&mut e, 4, "carol").unwrap_err();
    assert!(err.to_string().contains("registration is closed"), "{err}");
}

#[test]
fn check_in_opens_at_its_time_and_closing_withdraws_who_did_not() {
    let mut e = Event::new("naspa-2013", "RR:1", 1);
    open(&mut e);
    for (id, name) in [(1, "alice"), (2, "bob"), (3, "carol")] {
        register(&mut e, id, name).unwrap();
    }
    let err = check_in(&mut e, 1, CHECK_IN_FROM - 1).unwrap_err();
    assert!(err.to_string().contains("has not opened yet"), "{err}");
    check_in(&mut e, 1, CHECK_IN_FROM).unwrap();
    check_in(&mut e, 2, CHECK_IN_FROM + 5).unwrap();
    let err = check_in(&mut e, 2, CHECK_IN_FROM + 6).unwrap_err();
    assert!(err.to_string().contains("already checked in"), "{err}");
    let err = check_in(&mut e, 9, CHECK_IN_FROM + 6).unwrap_err();
    assert!(err.to_string().contains("not registered"), "{err}");
    e.act(entry(EntryChange::Close));
    let d = e.t.division("A").unwrap();
    assert_eq!(d.active_players(1), vec![1, 2], "carol did not check in");
    let (pair, _) = e.t.pair("A", 1, None, None).unwrap();
    e.act(pair);
    let d = e.t.division("A").unwrap();
    let games: Vec<&Game> = d
        .round(1)
        .unwrap()
        .pairings
        .iter()
        .filter_map(Pairing::game)
        .collect();
    assert_eq!(games.len(), 1);
    assert!(!games[0].involves(3), "carol is not paired");
}

#[test]
fn withdrawing_before_the_start_and_coming_back_is_the_same_player() {
    let mut e = Event::new("wespa-2010", "RR:1", 1);
    open(&mut e);
    register(&mut e, 1, "alice").unwrap();
    register(&mut e, 2, "bob").unwrap();
    e.act(entry(EntryChange::Withdraw { account_id: 1 }));
    assert_eq!(e.t.division("A").unwrap().active_players(1), vec![2]);
    register(&mut e, 1, "alice").unwrap();
    let d = e.t.division("A").unwrap();
    assert_eq!(d.players.len(), 2, "no second player for the same account");
    assert_eq!(d.active_players(1), vec![1, 2]);
    for id in [1, 2] {
        check_in(&mut e, id, CHECK_IN_FROM).unwrap();
    }
    let (pair, _) = e.t.pair("A", 1, None, None).unwrap();
    e.act(pair);
    let err = e
        .try_act(entry(EntryChange::Withdraw { account_id: 2 }))
        .unwrap_err();
    assert!(err.to_string().contains("only the director"), "{err}");
}

/// A paired, started round: alice (#1) v bob (#2), online game `g1`.
fn started_round(preset: &str) -> Event {
    let mut e = Event::new(preset, "RR:1", 1);
    open(&mut e);
    for (id, name) in [(1, "alice"), (2, "bob")] {
        register(&mut e, id, name).unwrap();
        check_in(&mut e, id, CHECK_IN_FROM).unwrap();
    }
    e.act(entry(EntryChange::Close));
    let (pair, _) = e.t.pair("A", 1, None, None).unwrap();
    e.act(pair);
    e.act(Action::StartOnline {
        division: "A".into(),
        round: 1,
        player: 1,
        game_id: "g1".into(),
    });
    e.act(entry(EntryChange::RoundStarted {
        round: 1,
        at_ms: CHECK_IN_FROM + 600_000,
    }));
    e
}

#[test]
fn a_no_show_forfeits_by_the_books_spread() {
    for (preset, spread) in [("naspa-2013", 50), ("wespa-2010", 75)] {
        let mut e = started_round(preset);
        let entries = e.t.division("A").unwrap().entries.clone().unwrap();
        assert_eq!(
            entries.no_show_deadline_ms(1),
            Some(CHECK_IN_FROM + 600_000 + 25 * 60_000)
        );
        let err = e
            .try_act(entry(EntryChange::NoShow {
                round: 1,
                game_id: "g1".into(),
                absent: vec![3],
            }))
            .unwrap_err();
        assert!(err.to_string().contains("are not the players"), "{err}");
        e.act(entry(EntryChange::NoShow {
            round: 1,
            game_id: "g1".into(),
            absent: vec![2],
        }));
        let d = e.t.division("A").unwrap();
        let st = d.standings(1);
        assert_eq!((st[0].player, st[0].wins2, st[0].spread), (1, 2, spread));
        assert_eq!((st[1].player, st[1].wins2, st[1].spread), (2, 0, -spread));
        assert!(d.online.is_empty(), "the game reports nothing more");
        // The game has its result: a second forfeit is refused.
        assert!(e
            .try_act(entry(EntryChange::NoShow {
                round: 1,
                game_id: "g1".into(),
                absent: vec![1],
            }))
            .is_err());
    }
}

#[test]
fn neither_arriving_is_a_double_forfeit() {
    let mut e = started_round("naspa-2013");
    e.act(entry(EntryChange::NoShow {
        round: 1,
        game_id: "g1".into(),
        absent: vec![2, 1],
    }));
    let d = e.t.division("A").unwrap();
    for s in d.standings(1) {
        assert_eq!((s.wins2, s.losses2, s.spread), (0, 2, -50));
    }
}

#[test]
fn tsh_and_aupair_files_ignore_the_entries() {
    let mut e = started_round("naspa-2013");
    e.act(Action::ReportOnline {
        division: "A".into(),
        round: 1,
        game_id: "g1".into(),
        player: 1,
        score: 412,
        opponent_score: 389,
        ending: None,
    });
    // The same event entered by the director by hand, with no accounts.
    let mut plain = Event::new("naspa-2013", "RR:1", 1);
    for name in ["alice", "bob"] {
        plain.act(Action::AddPlayer {
            division: "A".into(),
            name: name.into(),
            rating: 0,
            member_id: None,
            career_games: None,
            members: vec![],
        });
    }
    let (pair, _) = plain.t.pair("A", 1, None, None).unwrap();
    plain.act(pair);
    plain.act(Action::SetResult {
        division: "A".into(),
        round: 1,
        player: 1,
        result: ResultEntry::Scores {
            score: 412,
            opponent_score: 389,
        },
        note: String::new(),
    });
    let with = e.t.division("A").unwrap();
    let without = plain.t.division("A").unwrap();
    assert!(with.entries.is_some());
    assert_eq!(tsh::write_t(with).unwrap(), tsh::write_t(without).unwrap());
    assert_eq!(
        tou::write_tou(&e.t, "A").unwrap(),
        tou::write_tou(&plain.t, "A").unwrap()
    );
    // And the log replays to the same state.
    assert_eq!(Tournament::replay(&e.log).unwrap(), e.t);
}
