//! tsh `.t` files: reading, writing, and round trips of finished events.

mod common;

use common::{json, Event};
use tilebag_core::bag::Rng;
use tilebag_tournament::tsh::{
    division_actions, parse_t, read_tsh_archive, write_t, write_tsh_archive, ForfeitMark, TshError,
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
    // Standings, firsts and seconds survive (forfeits are rows without an opponent, as tsh and
    // NASPA's results submission write them; `tbforfeit` keeps who the opponent was).
    let key = |d: &Division| {
        d.standings(7)
            .into_iter()
            .map(|s| (s.player, s.wins2, s.losses2, s.spread, s.byes, s.active))
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

/// A finished 9-player event with every kind of result a `.t` file must carry: byes (an odd
/// field), a forfeit (NASPA V.K.1), a double forfeit (NASPA III.C), a tie, games left in progress
/// while ahead and while behind (NASPA V.K.2), a withdrawal after its round was paired (the game
/// becomes a forfeit, later rounds automatic results), a player withdrawn for one round and then
/// reinstated, and spread adjustments of each kind (NASPA IV.B.5, IV.K.5, and a director's ruling
/// whose note needs escaping).
fn event_with_every_result() -> (Event, u32, u32) {
    let mut e = Event::new("naspa-2013", "IF:3 SW:3 KOTH:1", 77);
    e.add_seeded(9);
    let set = |e: &mut Event, round: u32, player: u32, result: ResultEntry| {
        e.act(Action::SetResult {
            division: "A".into(),
            round,
            player,
            result,
            note: String::new(),
        })
    };
    let (mut quitter, mut reinstated) = (0, 0);
    for r in 1..=7 {
        if r == 6 {
            // Withdrawn before round 6 is paired, reinstated before round 7: round 6 is an
            // automatic result the withdrawal no longer covers.
            reinstated = e.games(5)[1].first;
            e.act(Action::Withdraw {
                division: "A".into(),
                player: reinstated,
                from_round: 6,
            });
        }
        if r == 7 {
            e.act(Action::Reinstate {
                division: "A".into(),
                player: reinstated,
            });
        }
        e.pair(r);
        let games = e.games(r);
        match r {
            2 => set(
                &mut e,
                2,
                games[1].second,
                ResultEntry::Forfeit { spread: None },
            ),
            3 => set(
                &mut e,
                3,
                games[2].first,
                ResultEntry::DoubleForfeit { spread: None },
            ),
            4 => {
                e.score(4, games[0].first, 377, 377);
                // Ahead 350–300: the opponent's score becomes 400.
                set(
                    &mut e,
                    4,
                    games[1].first,
                    ResultEntry::LeftInProgress {
                        score: 350,
                        opponent_score: 300,
                    },
                );
                // Behind 250–300: the leaver's score becomes 200.
                set(
                    &mut e,
                    4,
                    games[2].second,
                    ResultEntry::LeftInProgress {
                        score: 250,
                        opponent_score: 300,
                    },
                );
            }
            5 => {
                // Withdraws after round 5 is paired: the round-5 game is a forfeit.
                quitter = games[0].second;
                e.act(Action::Withdraw {
                    division: "A".into(),
                    player: quitter,
                    from_round: 5,
                });
            }
            _ => {}
        }
        e.better_seed_wins(r);
    }
    for (player, round, reason, amount) in [
        (1, 2, AdjustmentReason::DrawingOutOfOrder, None),
        (
            2,
            3,
            AdjustmentReason::ErroneousAdjudication { play_score: 37 },
            None,
        ),
        (
            3,
            6,
            AdjustmentReason::Other {
                note: "slow play; warned twice — 50% off #2".into(),
            },
            Some(-25),
        ),
        (
            1,
            7,
            AdjustmentReason::Other {
                note: String::new(),
            },
            Some(10),
        ),
    ] {
        e.act(Action::AdjustSpread {
            division: "A".into(),
            player,
            round,
            reason,
            amount,
        });
    }
    (e, quitter, reinstated)
}

/// What a player's entry in a round is, in full.
#[derive(Debug, PartialEq)]
enum Kind {
    Played {
        opponent: u32,
        own: i32,
        opp: i32,
        left: Option<u32>,
    },
    Unplayed {
        opponent: u32,
    },
    Forfeit {
        opponent: u32,
        loser: u32,
        spread: i32,
    },
    DoubleForfeit {
        opponent: u32,
        spread: i32,
    },
    Bye {
        spread: i32,
    },
    Absent {
        spread: i32,
    },
    Nothing,
}

fn kinds(d: &Division) -> Vec<Vec<Kind>> {
    d.rounds
        .iter()
        .map(|r| {
            d.players
                .iter()
                .map(|p| {
                    let Some(pr) = d.player_round(r.number, p.id) else {
                        return Kind::Nothing;
                    };
                    match pr.pairing {
                        Pairing::Bye { spread, .. } => Kind::Bye { spread: *spread },
                        Pairing::Absent { spread, .. } => Kind::Absent { spread: *spread },
                        Pairing::Game(g) => {
                            let opponent = pr.opponent.unwrap();
                            match &g.result {
                                None => Kind::Unplayed { opponent },
                                Some(GameResult::Played { left_by, .. }) => {
                                    let (own, opp) = pr.outcome.unwrap().scores.unwrap();
                                    Kind::Played {
                                        opponent,
                                        own,
                                        opp,
                                        left: *left_by,
                                    }
                                }
                                Some(GameResult::Forfeit { loser, spread }) => Kind::Forfeit {
                                    opponent,
                                    loser: *loser,
                                    spread: *spread,
                                },
                                Some(GameResult::DoubleForfeit { spread }) => Kind::DoubleForfeit {
                                    opponent,
                                    spread: *spread,
                                },
                                Some(GameResult::Void) => {
                                    unreachable!("a .t file has no void game")
                                }
                            }
                        }
                    }
                })
                .collect()
        })
        .collect()
}

/// Adjustments per player, in the order they were made.
fn adjustments(d: &Division) -> Vec<Vec<SpreadAdjustment>> {
    d.players
        .iter()
        .map(|p| {
            d.adjustments
                .iter()
                .filter(|a| a.player == p.id)
                .cloned()
                .collect()
        })
        .collect()
}

#[test]
fn tsh_round_trip_keeps_every_result_kind_and_the_standings_of_every_round() {
    let (e, quitter, reinstated) = event_with_every_result();
    let d = e.d();
    // The event really has what the test is about.
    let all: Vec<Kind> = kinds(d).into_iter().flatten().collect();
    assert!(all.iter().any(|k| matches!(k, Kind::Bye { spread: 50 })));
    assert!(all.iter().any(|k| matches!(k, Kind::Forfeit { .. })));
    assert!(all.iter().any(|k| matches!(k, Kind::DoubleForfeit { .. })));
    assert_eq!(
        all.iter()
            .filter(|k| matches!(k, Kind::Played { left: Some(_), .. }))
            .count(),
        4,
        "two games left in progress, seen from both sides"
    );
    assert!(all.iter().any(|k| matches!(
        k,
        Kind::Played {
            own: 377,
            opp: 377,
            ..
        }
    )));
    assert!(matches!(
        d.player_round(5, quitter).unwrap().pairing,
        Pairing::Game(Game {
            result: Some(GameResult::Forfeit { .. }),
            ..
        })
    ));
    assert!(matches!(
        d.player_round(6, reinstated).unwrap().pairing,
        Pairing::Absent { spread: -50, .. }
    ));
    assert_eq!(d.player(reinstated).unwrap().withdrawn_from, None);
    assert_eq!(d.adjustments.len(), 4);

    let text = write_t(d).unwrap();
    let t2 = reimport(&text);
    let d2 = t2.division("A").unwrap();
    // Standings after every round, every field (wins, losses, spread, capped spread, points,
    // byes, results, active, rank).
    for r in 0..=7 {
        assert_eq!(d2.standings(r), d.standings(r), "after round {r}\n{text}");
    }
    assert_eq!(kinds(d2), kinds(d), "{text}");
    assert_eq!(adjustments(d2), adjustments(d));
    assert_eq!(d2.player(quitter).unwrap().withdrawn_from, Some(5));
    assert_eq!(d2.player(reinstated).unwrap().withdrawn_from, None);
    assert_eq!(d2.firsts_tally(8), d.firsts_tally(8));
    assert_eq!(write_t(d2).unwrap(), text);
}

#[test]
fn tsh_forfeits_keep_tsh_rows_and_name_the_opponent_in_tbforfeit() {
    let (e, quitter, reinstated) = event_with_every_result();
    let d = e.d();
    let text = write_t(d).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let players = parse_t(&text).unwrap();
    // Round 2's forfeit: both rows have opponent 0 (what tsh reads as a forfeit win and loss),
    // scores +50 and −50, and `tbforfeit` +loser / −winner.
    let g = &e.games(2)[1];
    let (loser, winner) = (g.second, g.first);
    let (w, l) = (&players[winner as usize - 1], &players[loser as usize - 1]);
    assert_eq!((w.opponents[1], w.scores[1]), (0, 50));
    assert_eq!((l.opponents[1], l.scores[1]), (0, -50));
    assert_eq!(w.forfeits[1], Some(ForfeitMark::Won(loser)));
    assert_eq!(l.forfeits[1], Some(ForfeitMark::Lost(winner)));
    assert!(lines[winner as usize - 1].contains(&format!("tbforfeit 0 +{loser}")));
    // Round 3's double forfeit: both −50, both `Lost`.
    let g = &e.games(3)[2];
    for (p, o) in [(g.first, g.second), (g.second, g.first)] {
        let x = &players[p as usize - 1];
        assert_eq!((x.opponents[2], x.scores[2]), (0, -50));
        assert_eq!(x.forfeits[2], Some(ForfeitMark::Lost(o)));
    }
    // The withdrawal: tsh's `off` spread, and the round.
    let q = lines[quitter as usize - 1];
    assert!(
        q.contains("; off -50") && q.contains("; tbwithdrawn 5"),
        "{q}"
    );
    assert!(lines[reinstated as usize - 1].contains("; tbabsent 0 0 0 0 0 1 0"));
    // Games left in progress: the leaver's `tbleft` flag in round 4.
    let leavers: Vec<u32> = e
        .games(4)
        .iter()
        .filter_map(|g| match &g.result {
            Some(GameResult::Played {
                left_by: Some(p), ..
            }) => Some(*p),
            _ => None,
        })
        .collect();
    assert_eq!(leavers.len(), 2);
    for p in leavers {
        assert!(players[p as usize - 1].left[3]);
        assert!(lines[p as usize - 1].contains("; tbleft 0 0 0 1"));
    }
    // Adjustments: round, amount, reason; the note percent-encoded as one token.
    assert!(
        lines[0].ends_with("; tbadjust 2 -50 draw-order 7 10 other:"),
        "{}",
        lines[0]
    );
    assert!(
        lines[1].ends_with("; tbadjust 3 62 adjudication:37"),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].ends_with(
            "; tbadjust 6 -25 other:slow%20play%3B%20warned%20twice%20%E2%80%94%2050%25%20off%20%232"
        ),
        "{}",
        lines[2]
    );
    // Players with nothing special carry none of our fields.
    assert!(lines
        .iter()
        .any(|l| !l.contains("; tb") && l.contains("; p12 ")));
}

#[test]
fn tsh_without_our_fields_reads_as_tsh_reads_it() {
    // tsh ignores our fields: strip them and the file still gives every player the same wins,
    // losses and spread (less the adjustments, which tsh has no field for), with the forfeits as
    // unrated rows without an opponent, as tsh treats its own.
    let (e, _, _) = event_with_every_result();
    let d = e.d();
    let text = write_t(d).unwrap();
    let stripped: String = text
        .lines()
        .map(|l| {
            let kept: Vec<&str> = l
                .split(';')
                .filter(|f| !f.trim_start().starts_with("tb"))
                .collect();
            kept.join(";") + "\n"
        })
        .collect();
    assert!(!stripped.contains("tb"));
    let t2 = reimport(&stripped);
    let d2 = t2.division("A").unwrap();
    let adj = |p: u32| -> i32 {
        d.adjustments
            .iter()
            .filter(|a| a.player == p)
            .map(|a| a.amount)
            .sum()
    };
    for s in d.standings(7) {
        let s2 = d2
            .standings(7)
            .into_iter()
            .find(|x| x.player == s.player)
            .unwrap();
        assert_eq!(
            (s2.wins2, s2.losses2, s2.spread),
            (s.wins2, s.losses2, s.spread - adj(s.player)),
            "#{}",
            s.player
        );
    }
    assert!(kinds(d2)
        .iter()
        .flatten()
        .all(|k| !matches!(k, Kind::Forfeit { .. } | Kind::DoubleForfeit { .. })));
}

#[test]
fn tsh_extension_fields_are_checked() {
    let cases = [
        // One side names the other, who names nobody.
        (
            "A, B 1500 0; 50; tbforfeit +2\nC, D 1500 0; -50\n",
            1,
            "that line's tbforfeit has no forfeit",
        ),
        // Both sides claim the win.
        (
            "A, B 1500 0; 50; tbforfeit +2\nC, D 1500 0; -50; tbforfeit +1\n",
            1,
            "+1",
        ),
        // The spreads disagree.
        (
            "A, B 1500 0; 50; tbforfeit +2\nC, D 1500 0; -75; tbforfeit -1\n",
            1,
            "do not agree",
        ),
        (
            "A, B 1500 0; -50; tbforfeit -2\nC, D 1500 0; -75; tbforfeit -1\n",
            1,
            "do not agree",
        ),
        // A forfeit on a row that has an opponent.
        (
            "A, B 1500 2; 300; tbforfeit +2\nC, D 1500 1; 200\n",
            1,
            "paired with #2",
        ),
        (
            "A, B 1500 0; 50; tbforfeit +5\n",
            1,
            "the file has 1 players",
        ),
        ("A, B 1500 0; 50; tbforfeit +1\n", 1, "themselves"),
        (
            "A, B 1500 0; 50; tbforfeit +2 0\nC, D 1500 0; -50; tbforfeit -1\n",
            1,
            "2 values for 1 rounds",
        ),
        ("A, B 1500 0; 50; tbforfeit x\n", 1, "not a number"),
        ("A, B 1500 0; 50; tbleft 1\n", 1, "no opponent"),
        ("A, B 1500 0; 50; tbleft 2\n", 1, "neither 0 nor 1"),
        (
            "A, B 1500 2; 300; tbleft 1\nC, D 1500 1; 350; tbleft 1\n",
            1,
            "both",
        ),
        (
            "A, B 1500 2; 300; tbabsent 1\nC, D 1500 1; 350\n",
            1,
            "automatic result",
        ),
        ("A, B 1500 0; 50; tbwithdrawn 0\n", 1, "not a round"),
        ("A, B 1500 0; 50; tbwithdrawn\n", 1, "one round"),
        ("A, B 1500 0; 50; tbadjust 1 -50\n", 1, "triples"),
        ("A, B 1500 0; 50; tbadjust 1 -50 sneezing\n", 1, "sneezing"),
        (
            "A, B 1500 0; 50; tbadjust 1 -50 other:%zz\n",
            1,
            "other:NOTE",
        ),
        (
            "A, B 1500 0; 50; tbadjust 0 -50 draw-order\n",
            1,
            "not a round",
        ),
        (
            "A, B 1500 0; 50; tbadjust 1 99999 draw-order\n",
            1,
            "out of range",
        ),
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
    // A game left in progress must be lost by at least the resignation margin (NASPA V.K.2).
    let text = "A, B 1500 2; 380; tbleft 1\nC, D 1500 1; 400\n";
    match division_actions(text, "A", "naspa-2013", "MAN:1", 1) {
        Err(TshError::Line { line: 1, reason }) => {
            assert!(reason.contains("at least 50"), "{reason}")
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn tsh_left_in_progress_reads_back_from_both_branches() {
    // Round 1: #1 left and lost by exactly the margin (they were ahead or level: NASPA V.K.2
    // raises the opponent's score). Round 2: #2 left and lost by more (they were behind: the
    // margin came off their own score).
    let text = "A, B 1500 2 2; 350 300; tbleft 1 0\nC, D 1500 1 1; 400 200; tbleft 0 1\n";
    let mut log = vec![Action::CreateTournament {
        name: "L".into(),
        date: None,
    }];
    log.extend(division_actions(text, "A", "naspa-2013", "MAN:2", 1).unwrap());
    let t = Tournament::replay(&log).unwrap();
    let d = t.division("A").unwrap();
    let k = kinds(d);
    assert_eq!(
        k[0][0],
        Kind::Played {
            opponent: 2,
            own: 350,
            opp: 400,
            left: Some(1)
        }
    );
    assert_eq!(
        k[1][1],
        Kind::Played {
            opponent: 1,
            own: 200,
            opp: 300,
            left: Some(2)
        }
    );
    // The file says nothing about who started, so nothing is invented (issue 13): no p12.
    assert_eq!(write_t(d).unwrap(), text);
}

#[test]
fn tsh_writer_refuses_names_and_ids_that_would_read_back_differently() {
    for (name, id) in [
        ("Smith; John", None),
        ("Smith: John", None),
        ("#Smith", None),
        ("Smith, John", Some("NA 12")),
    ] {
        let mut e = Event::new("naspa-2013", "SW:1", 1);
        e.add(name, 1500);
        if let Some(id) = id {
            e.act(Action::EditPlayer {
                division: "A".into(),
                player: 1,
                name: None,
                rating: None,
                member_id: Some(id.into()),
            });
        }
        match write_t(e.d()) {
            Err(TshError::AmbiguousName {
                player: 1, reason, ..
            }) => {
                assert!(!reason.is_empty())
            }
            other => panic!("{name:?}: {other:?}"),
        }
    }
}

#[test]
fn mutated_files_with_our_fields_never_panic() {
    let (e, _, _) = event_with_every_result();
    let good = write_t(e.d()).unwrap();
    let alphabet: Vec<char> = "0123456789 ;:-+\n#%tbforfeitleftabsentwithdrawnadjust"
        .chars()
        .collect();
    let mut rng = Rng::new(11);
    let (mut ok, mut refused) = (0, 0);
    for _ in 0..5_000 {
        let mut chars: Vec<char> = good.chars().collect();
        for _ in 0..1 + rng.below(4) {
            let i = rng.below(chars.len());
            match rng.below(3) {
                0 => {
                    chars.remove(i);
                }
                1 => chars.insert(i, alphabet[rng.below(alphabet.len())]),
                _ => chars[i] = alphabet[rng.below(alphabet.len())],
            }
        }
        let text: String = chars.into_iter().collect();
        match division_actions(&text, "A", "naspa-2013", "IF:3 SW:3 KOTH:1", 77) {
            Ok(actions) => {
                let mut log = vec![Action::CreateTournament {
                    name: "Fuzz".into(),
                    date: None,
                }];
                log.extend(actions);
                if let Ok(t) = Tournament::replay(&log) {
                    let _ = write_t(t.division("A").unwrap());
                }
                ok += 1;
            }
            Err(TshError::Line { line, .. }) => {
                assert!(line >= 1 && line <= text.lines().count());
                refused += 1;
            }
            Err(other) => panic!("{other}"),
        }
    }
    assert!(ok > 100 && refused > 100, "{ok} {refused}");
}
