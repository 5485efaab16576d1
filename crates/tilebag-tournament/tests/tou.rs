//! AUPAIR `.TOU` export, checked line by line against the format's rules.

mod common;

use common::Event;
use tilebag_tournament::tou::write_tou;
use tilebag_tournament::*;

#[test]
fn tou_export_follows_the_format_rules() {
    let mut e = Event::new("wespa-2010", "MAN:2", 1);
    for (n, r) in [
        ("Ann", 1900),
        ("Bob", 1800),
        ("Cy", 1700),
        ("Dee", 1600),
        ("Eve", 1500),
    ] {
        e.add(n, r);
    }
    // Round 1: Ann (first) beats Bob 420–380; Cy (first) beats Dee 400–350; Eve has a bye.
    e.manual(1, 1, Some(2));
    e.manual(1, 3, Some(4));
    e.manual(1, 5, None);
    e.score(1, 1, 420, 380);
    e.score(1, 3, 400, 350);
    // Round 2: Eve does not show for Bob (WESPA 2.3.6: Bob wins by 75, unrated); Ann (first)
    // and Cy tie 390–390; Dee has a bye.
    e.manual(2, 2, Some(5));
    e.manual(2, 1, Some(3));
    e.manual(2, 4, None);
    e.act(Action::SetResult {
        division: "A".into(),
        round: 2,
        player: 5,
        result: ResultEntry::Forfeit { spread: None },
        note: "late".into(),
    });
    e.score(2, 1, 390, 390);
    let tou = write_tou(&e.t, "A").unwrap();
    // CRLF line endings throughout.
    assert!(tou.ends_with("\r\n"));
    assert_eq!(tou.matches('\n').count(), tou.matches("\r\n").count());
    let lines: Vec<&str> = tou.split("\r\n").collect();
    // Blocks: result digit (2 win, 1 draw, space loss), score %03d, opponent right-aligned in 4
    // with '+' if the player started. Byes and forfeits are games against oneself:
    // 2001 +X (a win), 0000 X (a forfeit loss).
    let want = [
        "*M04.05.2024 Test Open",
        "*A",
        // The high word score, right-aligned to the first round's score column (20 + 5).
        "                        0",
        "Ann                  2420  +2 1390  +3",
        "Bob                   380   1 2001  +2",
        "Cy                   2400  +4 1390   1",
        "Dee                   350   3 2001  +4",
        "Eve                  2001  +5 0000   5",
        "*** END OF FILE ***",
        "",
    ];
    assert_eq!(lines, want);
    // Every player line: a 20-character name field, then 9-character blocks, each with a
    // leading space.
    for l in &lines[3..8] {
        assert_eq!(l.len(), 20 + 2 * 9);
    }
    // Read back the way a rating program that splits on white space does.
    let read = read_back(&tou);
    assert_eq!(
        read[0],
        (
            "Ann".to_string(),
            vec![(Some(2), 420, 2, true), (Some(1), 390, 3, true)]
        )
    );
    assert_eq!(
        read[1],
        (
            "Bob".to_string(),
            vec![(None, 380, 1, false), (Some(2), 1, 2, true)]
        )
    );
    // A forfeit loss is the self-game `0000 5`: digit 0, score 000.
    assert_eq!(read[4].1[1], (Some(0), 0, 5, false));
}

/// A `.TOU` file read as some rating programs read it: the name is the first 20 bytes, the rest
/// splits on white space into two tokens a round: result digit and score (a loss has no digit),
/// then the opponent, `+` when the player started. Returns (name, [(digit, score, opponent,
/// started)]) per player.
#[allow(clippy::type_complexity)]
fn read_back(tou: &str) -> Vec<(String, Vec<(Option<u32>, u32, u32, bool)>)> {
    let lines: Vec<&str> = tou.split("\r\n").collect();
    assert!(lines[0].starts_with("*M"));
    assert!(lines[1].starts_with('*'));
    assert!(lines[2].trim().parse::<u32>().is_ok(), "{:?}", lines[2]);
    let mut out = Vec::new();
    for l in &lines[3..] {
        if l.starts_with("***") {
            break;
        }
        let name = l[..20].trim().to_string();
        let toks: Vec<&str> = l[20..].split_whitespace().collect();
        assert_eq!(toks.len() % 2, 0, "{l:?}: {toks:?}");
        let rounds = toks
            .chunks(2)
            .map(|c| {
                let (digit, score) = match c[0].len() {
                    4 => (Some(c[0][..1].parse().unwrap()), c[0][1..].parse().unwrap()),
                    3 => (None, c[0].parse().unwrap()),
                    _ => panic!("{l:?}: score token {:?}", c[0]),
                };
                let started = c[1].starts_with('+');
                let opp = c[1].trim_start_matches('+').parse().unwrap();
                (digit, score, opp, started)
            })
            .collect();
        out.push((name, rounds));
    }
    out
}

#[test]
fn tou_blocks_are_ten_characters_past_99_players() {
    let mut e = Event::new("wespa-2010", "KOTH:1", 1);
    for i in 1..=101 {
        e.add(&format!("Player{i:03} With A Long Name"), 2000 - i);
    }
    e.pair(1);
    e.better_seed_wins(1);
    let tou = write_tou(&e.t, "A").unwrap();
    let lines: Vec<&str> = tou.split("\r\n").collect();
    // 101 players: 1v2 … 99v100, and 101 has the bye. Names are cut to 20 characters.
    let g = e.games(1)[0].clone();
    let plus = |p: u32| if g.first == p { "+" } else { "" };
    assert_eq!(
        lines[3],
        format!("Player001 With A Lon 2400{:>5}", format!("{}2", plus(1)))
    );
    assert_eq!(
        lines[4],
        format!("Player002 With A Lon  300{:>5}", format!("{}1", plus(2)))
    );
    // "+101" needs 4 characters, so past 99 players the opponent part is 5 wide and a block 10:
    // a space always separates the score from the opponent.
    assert_eq!(lines[103], "Player101 With A Lon 2001 +101");
    for l in &lines[3..104] {
        assert_eq!(l.len(), 20 + 10, "{l:?}");
    }
    let read = read_back(&tou);
    assert_eq!(read.len(), 101);
    assert_eq!(read[100].1, vec![(Some(2), 1, 101, true)]);
    for (i, (_, rounds)) in read.iter().enumerate().take(100) {
        let (digit, score, opp, _) = rounds[0];
        let me = i as u32 + 1;
        assert_eq!(opp, if me % 2 == 1 { me + 1 } else { me - 1 });
        assert_eq!(
            (digit, score),
            if me % 2 == 1 {
                (Some(2), 400)
            } else {
                (None, 300)
            }
        );
    }
}

#[test]
fn tou_needs_a_date_and_writes_only_complete_rounds() {
    let mut e = Event::new("wespa-2010", "KOTH:2", 1);
    e.add("Ann", 1900);
    e.add("Bob", 1800);
    e.pair(1);
    e.better_seed_wins(1);
    e.pair(2);
    let tou = write_tou(&e.t, "A").unwrap();
    assert!(tou.contains("Ann                  2400"));
    assert_eq!(
        tou.split("\r\n").nth(3).unwrap().len(),
        29,
        "round 2 has no result yet"
    );
    let mut log = e.log.clone();
    log[0] = Action::CreateTournament {
        name: "Undated".into(),
        date: None,
    };
    let t = Tournament::replay(&log).unwrap();
    assert!(matches!(
        write_tou(&t, "A"),
        Err(TournamentError::BadEvent { .. })
    ));
}

#[test]
fn tou_bytes_of_a_hand_built_event() {
    // WESPA rules: forfeits are by 75 (WESPA 2.3.6(a)), a player who leaves a game in progress
    // loses by at least 50 (WESPA 5.7(c)), a withdrawn player's later rounds are forfeit losses.
    let mut e = Event::new("wespa-2010", "MAN:4", 1);
    for (n, r) in [
        ("Ann", 1900),
        ("Jóźwiak, Łukasz", 1800),
        ("Fitzwilliam-Smythe, Bartholomew", 1700),
        ("Dee", 1600),
        ("Eve", 1500),
    ] {
        e.add(n, r);
    }
    // Round 1: Ann (first) beats Łukasz 420–380; Bartholomew (first) beats Dee 400–85; Eve has
    // the bye.
    e.manual(1, 1, Some(2));
    e.manual(1, 3, Some(4));
    e.manual(1, 5, None);
    e.score(1, 1, 420, 380);
    e.score(1, 3, 400, 85);
    // Round 2: Eve does not show for Łukasz (first); Ann (first) and Bartholomew tie 390–390;
    // Dee has the bye.
    e.manual(2, 2, Some(5));
    e.manual(2, 1, Some(3));
    e.manual(2, 4, None);
    e.act(Action::SetResult {
        division: "A".into(),
        round: 2,
        player: 5,
        result: ResultEntry::Forfeit { spread: None },
        note: "no-show".into(),
    });
    e.score(2, 1, 390, 390);
    // Round 3: Dee (first) leaves her game with Ann while behind 200–300, so 150–300; Łukasz and
    // Bartholomew both fail to show (a double forfeit); Eve is given the bye, then withdraws from
    // round 3 on, so the bye becomes her automatic forfeit loss.
    e.manual(3, 4, Some(1));
    e.manual(3, 2, Some(3));
    e.manual(3, 5, None);
    e.act(Action::SetResult {
        division: "A".into(),
        round: 3,
        player: 4,
        result: ResultEntry::LeftInProgress {
            score: 200,
            opponent_score: 300,
        },
        note: String::new(),
    });
    e.act(Action::SetResult {
        division: "A".into(),
        round: 3,
        player: 2,
        result: ResultEntry::DoubleForfeit { spread: None },
        note: String::new(),
    });
    e.act(Action::Withdraw {
        division: "A".into(),
        player: 5,
        from_round: 3,
    });
    // Round 4 is paired but has no result: it is not written.
    e.manual(4, 1, Some(2));

    // Each block is 9 bytes: a space, [result digit][score %03d], then [opponent, right-aligned
    // in 4, '+' if the player started]. The digit is 2 for a win, 1 for a draw, a space for a
    // loss. A self-game (opponent = the player's own number) is a bye or unrated result: 2001 +X
    // won, 0000 X lost. Names are "Given Surname" (tsh's "Surname, Given" turned round).
    let want = concat!(
        // `*M`, the start date as dd.mm.yyyy, a space, the event name.
        "*M04.05.2024 Test Open\r\n",
        // `*` and the division name.
        "*A\r\n",
        // The high word score (none recorded), right-aligned in the first score's column.
        "                        0\r\n",
        // Ann: W 420 v #2 started | D 390 v #3 started | W 300 v #4 replied.
        "Ann                  2420  +2 1390  +3 2300   4\r\n",
        // Name folded to ASCII: L 380 v #1 replied | forfeit win: self-game won | double
        // forfeit: self-game lost.
        "Lukasz Jozwiak        380   1 2001  +2 0000   2\r\n",
        // Name cut to 20 bytes: W 400 v #4 started | D 390 v #1 replied | double forfeit.
        "Bartholomew Fitzwill 2400  +4 1390   1 0000   3\r\n",
        // Dee: L 085 (zero-padded) v #3 replied | bye | L 150 v #1 started (left in progress:
        // a played game with its adjusted score).
        "Dee                   085   3 2001  +4  150  +1\r\n",
        // Eve: bye | forfeit loss | automatic forfeit loss after withdrawing.
        "Eve                  2001  +5 0000   5 0000   5\r\n",
        "*** END OF FILE ***\r\n",
    );
    let tou = write_tou(&e.t, "A").unwrap();
    assert_eq!(tou, want);
    // A whitespace-splitting reader gets two tokens a round on every line.
    let read = read_back(&tou);
    assert_eq!(read[1].0, "Lukasz Jozwiak");
    assert_eq!(
        read[3].1,
        vec![
            (None, 85, 3, false),
            (Some(2), 1, 4, true),
            (None, 150, 1, true)
        ]
    );
}

#[test]
fn tou_refuses_scores_its_fixed_width_field_cannot_hold() {
    // The result digit is the score field's thousands place: a score must be 0–999.
    for (score, opp) in [(1005, 300), (-20, 300)] {
        let mut e = Event::new("wespa-2010", "MAN:1", 1);
        e.add("Ann", 1900);
        e.add("Bob", 1800);
        e.manual(1, 1, Some(2));
        e.score(1, 1, score, opp);
        match write_tou(&e.t, "A") {
            Err(TournamentError::BadSetting { reason, .. }) => {
                assert!(reason.contains(&format!("score {score}")), "{reason}");
                assert!(
                    reason.contains("#1 (Ann)") && reason.contains("round 1"),
                    "{reason}"
                );
            }
            other => panic!("{score}: {other:?}"),
        }
    }
}

/// Issue 27 item 12: an event created without a date gets one later, by a logged director
/// action that also renames it; until then the `.TOU` export says how to set it.
#[test]
fn an_undated_event_is_dated_and_renamed_by_a_logged_action() {
    let mut e = Event::new("wespa-2010", "MAN:1", 1);
    e.add("Ann", 1900);
    e.add("Bob", 1800);
    e.manual(1, 1, Some(2));
    e.score(1, 1, 420, 380);
    // The same event, created without a date.
    let mut log = e.log.clone();
    log[0] = Action::CreateTournament {
        name: "Undated".into(),
        date: None,
    };
    let mut t = Tournament::replay(&log).unwrap();
    let err = write_tou(&t, "A").unwrap_err().to_string();
    assert!(
        err.contains("no date") && err.contains("tilebag td event EVENT --date YYYY-MM-DD"),
        "{err}"
    );
    assert!(err.contains("event's page"), "{err}");

    // A date that is not a day of the calendar is refused and changes nothing; so is an empty
    // name.
    for (name, date) in [
        (None, Some("2024-02-30")),
        (None, Some("04.05.2024")),
        (Some("  "), None),
    ] {
        let bad = Action::EditEvent {
            name: name.map(String::from),
            date: date.map(String::from),
        };
        let before = t.clone();
        let err = t.apply(&bad).unwrap_err().to_string();
        assert!(err.starts_with("event \"Undated\": "), "{err}");
        assert_eq!(t, before);
    }

    // The director sets the date and the name; the .TOU header carries both.
    let edit = Action::EditEvent {
        name: Some("Spring Open".into()),
        date: Some("2024-06-01".into()),
    };
    t.apply(&edit).unwrap();
    log.push(edit);
    assert_eq!(
        (t.name.as_str(), t.date.as_deref()),
        ("Spring Open", Some("2024-06-01"))
    );
    let tou = write_tou(&t, "A").unwrap();
    assert!(
        tou.starts_with("*M01.06.2024 Spring Open\r\n*A\r\n"),
        "{tou}"
    );
    // It is an action of the log: it replays, and its JSON reads back.
    let json = serde_json::to_string(&log).unwrap();
    assert!(json.contains(r#""action":"edit-event""#), "{json}");
    let back: Vec<Action> = serde_json::from_str(&json).unwrap();
    assert_eq!(Tournament::replay(&back).unwrap(), t);
    // Changing only the date keeps the name, and the other way round.
    t.apply(&Action::EditEvent {
        name: None,
        date: Some("2024-06-02".into()),
    })
    .unwrap();
    t.apply(&Action::EditEvent {
        name: Some("Summer Open".into()),
        date: None,
    })
    .unwrap();
    assert_eq!(
        (t.name.as_str(), t.date.as_deref()),
        ("Summer Open", Some("2024-06-02"))
    );
}

/// Issue 27 item 13: AUPAIR and Woogles write one `.TOU` file for the whole event, a section
/// per division (`*M` header, `*DIVISION`, the high word line, the players), and one
/// `*** END OF FILE ***` at the end. A division's section is what its own file holds.
#[test]
fn a_whole_event_tou_has_a_section_per_division_and_reads_back() {
    let mut e = Event::new("wespa-2010", "MAN:1", 1);
    e.add("Ann", 1900);
    e.add("Bob", 1800);
    e.manual(1, 1, Some(2));
    e.score(1, 1, 420, 380);
    e.act(Action::AddDivision {
        division: "B".into(),
        preset: "wespa-2010".into(),
        schedule: "MAN:1".into(),
        seed: 2,
    });
    e.div = "B".into();
    e.add("Cy", 1500);
    e.add("Dee", 1400);
    e.add("Eve", 1300);
    for (first, second) in [(2, Some(3)), (1, None)] {
        e.act(Action::ManualPair {
            division: "B".into(),
            round: 1,
            first,
            second,
            first_by: FirstReason::Director,
        });
    }
    e.score(1, 3, 360, 350);
    let tou = tou::write_tou_event(&e.t).unwrap();
    let want = concat!(
        "*M04.05.2024 Test Open\r\n",
        "*A\r\n",
        "                        0\r\n",
        "Ann                  2420  +2\r\n",
        "Bob                   380   1\r\n",
        "*B\r\n",
        "                        0\r\n",
        "Cy                   2001  +1\r\n",
        "Dee                   350  +3\r\n",
        "Eve                  2360   2\r\n",
        "*** END OF FILE ***\r\n",
    );
    assert_eq!(tou, want);
    // Read back, section by section: each is the division's own file.
    let sections = read_sections(&tou);
    assert_eq!(sections.len(), 2);
    for (name, players) in &sections {
        assert_eq!(
            players,
            &read_back(&write_tou(&e.t, name).unwrap()),
            "{name}"
        );
    }
    assert_eq!(
        sections[1].1[2],
        ("Eve".to_string(), vec![(Some(2), 360, 2, false)])
    );
    // A file of one division is the same whichever way it is asked for.
    let mut one = e.t.clone();
    one.divisions.truncate(1);
    assert_eq!(
        tou::write_tou_event(&one).unwrap(),
        write_tou(&e.t, "A").unwrap()
    );
}

/// The sections of a whole-event `.TOU` file: (division, players as [`read_back`] reads them).
#[allow(clippy::type_complexity)]
fn read_sections(tou: &str) -> Vec<(String, Vec<(String, Vec<(Option<u32>, u32, u32, bool)>)>)> {
    let end = "*** END OF FILE ***\r\n";
    assert!(tou.ends_with(end), "{tou}");
    assert_eq!(tou.matches(end).count(), 1, "{tou}");
    // The `*M` header comes once; each section starts at a `*<division>` line.
    let body = &tou[..tou.len() - end.len()];
    let (header, rest) = body.split_once("\r\n").unwrap();
    assert!(header.starts_with("*M"), "{tou}");
    assert!(!rest.contains("*M"), "a second header: {tou}");
    let mut out = Vec::new();
    for section in rest.split("\r\n*").map(|s| s.trim_start_matches('*')) {
        let text = format!("{header}\r\n*{section}\r\n{end}");
        let text = text.replace("\r\n\r\n", "\r\n");
        let division = section.split("\r\n").next().unwrap().to_string();
        out.push((division, read_back(&text)));
    }
    out
}
