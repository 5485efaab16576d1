//! Writing a [`GcgRecord`] in the strict form.
//!
//! The output is UTF-8 with LF line ends and a final newline:
//!
//! ```text
//! #character-encoding UTF-8
//! #player1 NICK FULL NAME
//! #player2 NICK FULL NAME
//! #title ...            (each of title, description, id, lexicon when present)
//! #note ...             (the record's notes)
//! >NICK: RACK MOVE +SCORE CUMULATIVE TRAILING...
//! #note ...             (the event's notes)
//! #tilebag-adjust NICK +POINTS CUMULATIVE WHY   (tilebag's result adjustments, see below)
//! #tilebag-end REASON [NICK]                     (how a finished game ended)
//! #game-type ...
//! #rack1 ... / #rack2 ...
//! #incomplete
//! ```
//!
//! Reading the output back with [`parse_gcg`](super::parse_gcg) gives the same record, apart from
//! the events' `line` numbers and `character_encoding` (always `UTF-8`), for any record that the
//! reader itself produces (except a nick with spaces taken from an event line, see below). A
//! record built in memory can hold things the format cannot say; the
//! writer then normalizes rather than produce a file that reads back differently in a worse way:
//!
//! - Whitespace inside a nick (or any other one-token field: rack, position, word, tiles, trailing
//!   tokens) becomes `_`, since fields are separated by whitespace. An empty nick is written as
//!   `player1` / `player2` (and a player with neither nick, name nor events is left out). The two
//!   nicks must differ after this, or the second player's events read back as the first's.
//! - Line breaks inside a one-line value (names, title, ...) become spaces.
//! - A note is written as `#note FIRST LINE` followed by its other lines; a later line that is
//!   empty is dropped, and one that starts with `#` or `>` (which would read as a pragma or an
//!   event) starts a new `#note` instead.
//! - An empty rack is written as no rack; an empty `#rack1`/`#rack2` is left out (their values
//!   are pragma values, kept whole like the title).
//! - A player index other than 0 or 1 is written as player 2.
//! - `#tilebag-adjust` and `#tilebag-end` are tilebag's own pragmas, which other readers skip:
//!   the result adjustments GCG has no line for (a resignation's margin, an overtime forfeit) and
//!   the reason a finished game ended, so that `tilebag gcg verify` can check a resigned or
//!   forfeited game as finished, with its real final score.
//! - `(time)` is written in lower case and end racks as given, so an end rack `time` (in any case
//!   but capitals) reads back as a time penalty.

use std::fmt::Write as _;

use super::{ExchangedTiles, GcgEvent, GcgEventKind, GcgRecord};

/// Writes `record` as strict GCG text (see the module documentation).
///
/// Nicks cannot contain whitespace in GCG, so each whitespace character in a nick is written as
/// `_` (`Paul Cleary` becomes `Paul_Cleary`) in both the `#player` pragma and the event lines.
pub fn write_gcg(record: &GcgRecord) -> String {
    let mut out = String::new();
    pragma(&mut out, "character-encoding", "UTF-8");

    let nicks: [String; 2] = [0, 1].map(|index| {
        let nick = token(&record.players[index].nick);
        if nick.is_empty() {
            format!("player{}", index + 1)
        } else {
            nick
        }
    });
    for (index, player) in record.players.iter().enumerate() {
        let has_events = record.events.iter().any(|e| player_slot(e) == index);
        if player.nick.is_empty() && player.name.trim().is_empty() && !has_events {
            continue;
        }
        let name = one_line(&player.name);
        let value = if name.trim().is_empty() {
            nicks[index].clone()
        } else {
            format!("{} {}", nicks[index], name)
        };
        pragma(&mut out, &format!("player{}", index + 1), &value);
    }

    let header = [
        ("title", &record.title),
        ("description", &record.description),
        ("id", &record.id),
        ("lexicon", &record.lexicon),
    ];
    for (name, value) in header {
        if let Some(value) = value {
            pragma(&mut out, name, &one_line(value));
        }
    }
    for note in &record.notes {
        write_note(&mut out, note);
    }

    for event in &record.events {
        write_event(&mut out, &nicks[player_slot(event)], event);
        for note in &event.notes {
            write_note(&mut out, note);
        }
    }

    for adjustment in &record.adjustments {
        let value = format!(
            "{} {:+} {} {}",
            nicks[adjustment.player.min(1)],
            adjustment.score,
            adjustment.cumulative,
            one_line(&adjustment.why)
        );
        pragma(&mut out, "tilebag-adjust", value.trim_end());
    }
    if let Some(ending) = &record.ending {
        let value = match ending.player {
            Some(p) => format!("{} {}", token(&ending.reason), nicks[p.min(1)]),
            None => token(&ending.reason),
        };
        pragma(&mut out, "tilebag-end", &value);
    }
    if let Some((_, game_type)) = &record.game_type {
        pragma(&mut out, "game-type", &one_line(game_type));
    }
    for (index, rack) in record.last_racks.iter().enumerate() {
        if let Some(rack) = rack {
            let rack = one_line(rack);
            if !rack.trim().is_empty() {
                pragma(&mut out, &format!("rack{}", index + 1), &rack);
            }
        }
    }
    if record.incomplete {
        pragma(&mut out, "incomplete", "");
    }
    out
}

/// 0 or 1 (anything else is written as the second player).
fn player_slot(event: &GcgEvent) -> usize {
    event.player.min(1)
}

fn write_event(out: &mut String, nick: &str, event: &GcgEvent) {
    out.push('>');
    out.push_str(nick);
    out.push(':');
    if let Some(rack) = &event.rack {
        let rack = token(rack);
        if !rack.is_empty() {
            out.push(' ');
            out.push_str(&rack);
        }
    }
    out.push(' ');
    out.push_str(&move_text(&event.kind));
    // Writing to a String cannot fail.
    let _ = write!(out, " {:+} {}", event.score, event.cumulative);
    for trailing in &event.trailing {
        let trailing = token(trailing);
        if !trailing.is_empty() {
            out.push(' ');
            out.push_str(&trailing);
        }
    }
    out.push('\n');
}

fn move_text(kind: &GcgEventKind) -> String {
    match kind {
        GcgEventKind::Play { position, word } => format!("{} {}", token(position), token(word)),
        GcgEventKind::Exchange(ExchangedTiles::Known(tiles)) => format!("-{}", token(tiles)),
        GcgEventKind::Exchange(ExchangedTiles::Count(count)) => format!("-{count}"),
        GcgEventKind::Pass => "-".to_string(),
        GcgEventKind::Withdrawal => "--".to_string(),
        GcgEventKind::ChallengeBonus => "(challenge)".to_string(),
        GcgEventKind::TimePenalty => "(time)".to_string(),
        GcgEventKind::EndRack { tiles } => format!("({})", token(tiles)),
    }
}

/// `#name value`, or `#name` alone when the value is empty.
fn pragma(out: &mut String, name: &str, value: &str) {
    out.push('#');
    out.push_str(name);
    if !value.is_empty() {
        out.push(' ');
        out.push_str(value);
    }
    out.push('\n');
}

fn write_note(out: &mut String, note: &str) {
    let mut lines = note.split(['\r', '\n']);
    pragma(out, "note", lines.next().unwrap_or_default().trim());
    for line in lines {
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        if line.starts_with(['#', '>']) {
            pragma(out, "note", line);
        } else {
            out.push_str(line);
            out.push('\n');
        }
    }
}

/// A field that must be a single whitespace-free token.
fn token(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_whitespace() { '_' } else { c })
        .collect()
}

/// A value that must stay on its pragma's line.
fn one_line(text: &str) -> String {
    text.replace(['\r', '\n'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gcg::{parse_gcg, GcgPlayer};

    fn player(nick: &str, name: &str) -> GcgPlayer {
        GcgPlayer {
            nick: nick.to_string(),
            name: name.to_string(),
        }
    }

    fn event(
        player: usize,
        rack: Option<&str>,
        kind: GcgEventKind,
        score: i32,
        cumulative: i32,
    ) -> GcgEvent {
        GcgEvent {
            line: 0,
            player,
            rack: rack.map(str::to_string),
            kind,
            score,
            cumulative,
            trailing: vec![],
            notes: vec![],
        }
    }

    /// The record as the reader returns it after a write: no line numbers, UTF-8 declared.
    fn normalized(record: &GcgRecord) -> GcgRecord {
        let mut record = record.clone();
        record.character_encoding = Some("UTF-8".to_string());
        for event in &mut record.events {
            event.line = 0;
        }
        record.last_rack_lines = [0, 0];
        if let Some((line, _)) = &mut record.game_type {
            *line = 0;
        }
        for a in &mut record.adjustments {
            a.line = 0;
        }
        if let Some(e) = &mut record.ending {
            e.line = 0;
        }
        record
    }

    fn assert_round_trip(record: &GcgRecord) {
        let written = write_gcg(record);
        let again = match parse_gcg(written.as_bytes()) {
            Ok(again) => again,
            Err(error) => panic!("{error}\n--- written ---\n{written}"),
        };
        assert_eq!(
            normalized(&again),
            normalized(record),
            "\n--- written ---\n{written}"
        );
        // Writing is stable.
        assert_eq!(write_gcg(&again), written);
    }

    fn in_memory_record() -> GcgRecord {
        let mut first = event(
            0,
            Some("AEINRST"),
            GcgEventKind::Play {
                position: "8D".into(),
                word: "RETAINS".into(),
            },
            76,
            76,
        );
        first.notes = vec!["bingo!".into(), "two\nlines".into()];
        let mut second = event(
            1,
            Some("?ADEEIR"),
            GcgEventKind::Play {
                position: "9h".into(),
                word: ".EDAlIER".into(),
            },
            70,
            70,
        );
        second.trailing = vec!["KO,".into(), "EX".into()];
        GcgRecord {
            players: [player("alice", "Alice Liddell"), player("bob", "")],
            title: Some("A title".into()),
            description: Some("Described".into()),
            id: Some("test 1".into()),
            lexicon: Some("CSW21".into()),
            character_encoding: None,
            incomplete: true,
            last_racks: [Some("AEEIILZ".into()), None],
            last_rack_lines: [0, 0],
            game_type: None,
            adjustments: Vec::new(),
            ending: None,
            notes: vec!["header note".into()],
            events: vec![
                first,
                second,
                event(
                    0,
                    Some("CEJNRTV"),
                    GcgEventKind::Exchange(ExchangedTiles::Known("JN?".into())),
                    0,
                    76,
                ),
                event(
                    1,
                    None,
                    GcgEventKind::Exchange(ExchangedTiles::Count(3)),
                    0,
                    70,
                ),
                event(0, Some("AAMSUWY"), GcgEventKind::Pass, 0, 76),
                event(1, Some("BEEIIMS"), GcgEventKind::Withdrawal, -70, 0),
                event(0, Some("UNKNOWN"), GcgEventKind::ChallengeBonus, 5, 81),
                event(1, Some("NU"), GcgEventKind::TimePenalty, -10, -10),
                event(0, None, GcgEventKind::EndRack { tiles: "NU".into() }, 4, 85),
                event(
                    1,
                    Some("NU"),
                    GcgEventKind::EndRack { tiles: "NU".into() },
                    -4,
                    -14,
                ),
            ],
        }
    }

    #[test]
    fn writes_the_strict_form() {
        let expected = "\
#character-encoding UTF-8
#player1 alice Alice Liddell
#player2 bob
#title A title
#description Described
#id test 1
#lexicon CSW21
#note header note
>alice: AEINRST 8D RETAINS +76 76
#note bingo!
#note two
lines
>bob: ?ADEEIR 9h .EDAlIER +70 70 KO, EX
>alice: CEJNRTV -JN? +0 76
>bob: -3 +0 70
>alice: AAMSUWY - +0 76
>bob: BEEIIMS -- -70 0
>alice: UNKNOWN (challenge) +5 81
>bob: NU (time) -10 -10
>alice: (NU) +4 85
>bob: NU (NU) -4 -14
#rack1 AEEIILZ
#incomplete
";
        assert_eq!(write_gcg(&in_memory_record()), expected);
    }

    #[test]
    fn in_memory_records_round_trip() {
        assert_round_trip(&in_memory_record());
        assert_round_trip(&GcgRecord::default());

        // One player only, no header at all.
        let mut record = GcgRecord::default();
        record.players[0] = player("solo", "");
        record.events.push(event(0, None, GcgEventKind::Pass, 0, 0));
        assert_round_trip(&record);

        // Non-ASCII text, negative cumulative scores, a `TIME` end rack.
        let mut record = GcgRecord {
            players: [player("césar", "César"), player("Michał", "Michał Jóźko")],
            ..GcgRecord::default()
        };
        record.events = vec![
            event(
                0,
                Some("ĆĘIKPST"),
                GcgEventKind::Play {
                    position: "8G".into(),
                    word: "STĘPIĆ".into(),
                },
                46,
                46,
            ),
            event(
                1,
                Some("TIME"),
                GcgEventKind::EndRack {
                    tiles: "TIME".into(),
                },
                -6,
                -6,
            ),
            event(
                0,
                None,
                GcgEventKind::EndRack {
                    tiles: "TIME".into(),
                },
                6,
                52,
            ),
        ];
        assert_round_trip(&record);
    }

    #[test]
    fn parsed_fixtures_round_trip() {
        let fixtures: [&[u8]; 4] = [
            b"#player1 c\xe9sar c\xe9sar\r\n#player2 doug Doug\r\n#title T\r\n\
              >c\xe9sar: DINNVWY 8D WINDY +32 32\r\n#note one\r\nmore\r\n\
              >doug: ADEEGIL 7C GALE +16 16\r\n#incomplete\r\n",
            b"#character-encoding utf8\n#description Created\n#id io.example abc\n#lexicon NWL23\n\
              #game-type classic\n#player1 x X\n#player2 y Y\n\
              >x: EEKOQRS -EQ +0 0\n>y: CEJNRTV -JNV +0 0\n>x: AEKOORS 8H OKA +14 14\n\
              >y: R 2G ..R +6 6\n>y: (NU) +4 10\n>x: NU (time) -10 4\n",
            b"#player1 Ganesh Ganesh Asirvatham\n#player2 Paul Paul Cleary\n#incomplete \n\
              >Ganesh: AOXJGWS  8g   JAW             +26   26  \n\
              >Ganesh: OXGSHYD   i12 OXY             +44   70  KO, EX\n\
              >Paul: ARTEQ?G  (challenge) +5 74\n\
              >Paul:               (T)              +1  360\n\
              >Ganesh: T             (T)              -1  452\n#rack1 AEEIILZ\n#rack2 AEEIILZ\n",
            b">Grab_em_by_the_Short_and_(James)_Curley(s): ?ADEEIR 5E .EDAlIER +70 105\n\
              >jvc: BEEIIMS --  -46 355\n>jvc: UNKNOWN (challenge) +5 477\n\
              >jvc: EIOQRRT (EIOQRRT) -16 -16\n",
        ];
        for bytes in fixtures {
            let record = parse_gcg(bytes).expect("fixture parses");
            assert!(!record.events.is_empty());
            assert_round_trip(&record);
        }
    }

    #[test]
    fn nicks_with_whitespace_become_underscores() {
        let mut record = GcgRecord {
            players: [player("Paul Cleary", "Paul"), player("Ganesh\tA", "")],
            ..GcgRecord::default()
        };
        record.events.push(event(1, None, GcgEventKind::Pass, 0, 0));
        let written = write_gcg(&record);
        assert!(written.contains("#player1 Paul_Cleary Paul\n"), "{written}");
        assert!(written.contains("#player2 Ganesh_A\n"), "{written}");
        assert!(written.contains(">Ganesh_A: - +0 0\n"), "{written}");
        let again = parse_gcg(written.as_bytes()).unwrap();
        assert_eq!(again.players[0].nick, "Paul_Cleary");
        assert_eq!(again.events[0].player, 1);
    }

    #[test]
    fn values_cannot_break_out_of_their_line() {
        let mut record = GcgRecord {
            players: [player("", "No Nick"), player("b", "")],
            title: Some("two\n>x: lines".into()),
            notes: vec!["first\n\n#not a pragma\n>nor an event".into()],
            ..GcgRecord::default()
        };
        record
            .events
            .push(event(0, Some(""), GcgEventKind::Pass, 0, 0));
        let written = write_gcg(&record);
        assert_eq!(
            written,
            "#character-encoding UTF-8\n#player1 player1 No Nick\n#player2 b\n#title two >x: lines\n\
             #note first\n#note #not a pragma\n#note >nor an event\n>player1: - +0 0\n"
        );
        let again = parse_gcg(written.as_bytes()).unwrap();
        assert_eq!(again.events[0].player, 0);
        assert_eq!(again.notes.len(), 3);
    }
}
