//! tsh `.t` files: reading, writing, and round trips of finished events.

mod common;

use common::{json, Event};
use tilebag_tournament::tsh::{
    division_actions, parse_t, read_tsh_archive, write_t, write_tsh_archive, TshError,
};
use tilebag_tournament::*;

/// A finished 9-player event with byes, a forfeit, a double forfeit, a tie, a withdrawal and a
/// member id.
fn finished_event() -> Event {
    let mut e = Event::new("naspa-2013", "IF:3 SW:3 KOTH:1", 31);
    e.add_seeded(9);
    e.act(Action::EditPlayer {
        division: "A".into(),
        player: 1,
        name: None,
        rating: None,
        member_id: Some("NA123456".into()),
    });
    for r in 1..=7 {
        if r == 6 {
            e.act(Action::Withdraw {
                division: "A".into(),
                player: 9,
                from_round: 6,
            });
        }
        e.pair(r);
        let games = e.games(r);
        match r {
            2 => e.act(Action::SetResult {
                division: "A".into(),
                round: 2,
                player: games[1].second,
                result: ResultEntry::Forfeit { spread: None },
                note: String::new(),
            }),
            3 => e.act(Action::SetResult {
                division: "A".into(),
                round: 3,
                player: games[2].first,
                result: ResultEntry::DoubleForfeit { spread: None },
                note: String::new(),
            }),
            4 => e.score(4, games[0].first, 377, 377),
            _ => {}
        }
        e.better_seed_wins(r);
    }
    e
}

fn reimport(text: &str) -> Tournament {
    let mut log = vec![Action::CreateTournament {
        name: "Test Open".into(),
        date: None,
    }];
    log.extend(division_actions(text, "A", "naspa-2013", "IF:3 SW:3 KOTH:1", 31).unwrap());
    Tournament::replay(&log).unwrap()
}

#[test]
fn tsh_round_trip_of_a_finished_event() {
    let e = finished_event();
    let text = write_t(e.d()).unwrap();
    let t2 = reimport(&text);
    let d2 = t2.division("A").unwrap();
    // Writing the re-read division gives the same file.
    assert_eq!(write_t(d2).unwrap(), text);
    // Standings, firsts and seconds survive (forfeits become rows without an opponent, as
    // NASPA's results submission writes them, with the same wins, losses and spread).
    let key = |d: &Division| {
        d.standings(7)
            .into_iter()
            .map(|s| (s.player, s.wins2, s.losses2, s.spread, s.active))
            .collect::<Vec<_>>()
    };
    assert_eq!(key(d2), key(e.d()));
    assert_eq!(d2.firsts_tally(8), e.d().firsts_tally(8));
    assert_eq!(d2.player(1).unwrap().member_id.as_deref(), Some("NA123456"));
    assert_eq!(d2.player(9).unwrap().withdrawn_from, Some(6));
    // And the import is itself a log that replays byte for byte.
    assert_eq!(json(&reimport(&text)), json(&t2));
}

#[test]
fn tsh_reads_the_naspa_wiki_examples() {
    // NASPA's "Submitting tournament results" examples, completed into a consistent file: Chew
    // plays 3, a bye, 2, 3, a bye, 2; Winter forfeits five games then beats #3.
    let text = "\
# a comment line
Chew, John, III:CM000003 1800 3 0 2 3 0 2; 300 50 350 300 50 300
Second, Sam 1700 0 3 1 0 3 1; 50 400 320 50 410 280

Third, Tia 1600 1 2 0 1 2 4; 280 390 50 310 380 420
Winter 1900 0 0 0 0 0 3; -50 -50 -50 -50 -50 500
";
    let players = parse_t(text).unwrap();
    assert_eq!(players[0].name, "Chew, John, III");
    assert_eq!(players[0].member_id.as_deref(), Some("CM000003"));
    assert_eq!(players[0].rating, 1800);
    assert_eq!(players[0].line, 2);
    assert_eq!(players[3].opponents, vec![0, 0, 0, 0, 0, 3]);
    let mut log = vec![Action::CreateTournament {
        name: "Wiki".into(),
        date: None,
    }];
    log.extend(division_actions(text, "A", "naspa-2013", "MAN:6", 1).unwrap());
    let t = Tournament::replay(&log).unwrap();
    let d = t.division("A").unwrap();
    let s = |p| d.standings(6).into_iter().find(|s| s.player == p).unwrap();
    // Chew: 300–280 W, bye +50, 350–320 W, 300–310 L, bye +50, 300–280 W:
    // 5–1, +20 +50 +30 −10 +50 +20 = +160.
    assert_eq!((s(1).wins2, s(1).losses2, s(1).spread), (10, 2, 160));
    // Winter: five forfeit losses (−250), then 500–420: 1–5, −170.
    assert_eq!((s(4).wins2, s(4).losses2, s(4).spread), (2, 10, -170));
}

#[test]
fn tsh_errors_give_line_numbers() {
    let cases = [
        (
            "A, B 1500 2; 300\nC, D 1500 0; 50\n",
            1,
            "whose line has a bye",
        ),
        ("A, B 1500 2; 300\n\nC, D 1500 1; x\n", 3, "not a number"),
        ("just a name\n", 1, "no rating"),
        ("A, B 1500 0; 50 60\n", 1, "2 scores for 1 rounds"),
        ("A, B 1500 5; 300\n", 1, "the file has 1 players"),
        ("A, B 1500 1; 300\n", 1, "themselves"),
        ("1500 0; 50\n", 1, "no player name"),
        ("A, B 1500 0; 50; p12 z\n", 1, "p12"),
    ];
    for (text, line, what) in cases {
        match parse_t(text) {
            Err(TshError::Line { line: l, reason }) => {
                assert_eq!(l, line, "{text:?}: {reason}");
                assert!(reason.contains(what), "{text:?}: {reason}");
            }
            other => panic!("{text:?}: {other:?}"),
        }
    }
}

#[test]
fn tsh_writer_refuses_names_ending_in_a_number() {
    let mut e = Event::new("naspa-2013", "SW:1", 1);
    e.add("Player 7", 1500);
    assert!(matches!(
        write_t(e.d()),
        Err(TshError::AmbiguousName { player: 1, .. })
    ));
}

#[test]
fn tsh_archive_round_trip() {
    let e = finished_event();
    let archive = write_tsh_archive(&e.t).unwrap();
    assert!(archive.contains("division A a.t\n#begin_file name=a.t\n"));
    assert!(archive.trim_end().ends_with("#end_file name=a.t"));
    let files = read_tsh_archive(&archive).unwrap();
    assert_eq!(files, vec![("A".to_string(), write_t(e.d()).unwrap())]);
    assert!(read_tsh_archive("division A a.t\n#begin_file name=a.t\nX 1 0; 1\n").is_err());
    assert!(read_tsh_archive("division A a.t\n").is_err());
}
