//! The shared corpus of real game records (`../shared/gcg`, see its README) replayed through the
//! engine: every complete game verifies to its recorded result, the unfinished ones stop as
//! incomplete, the encoding cases read as macondo expects, the words formed agree with macondo's
//! goldens, every recorded number is actually checked (a one-point change anywhere fails at that
//! line), and writing a record and reading it back changes nothing.
//!
//! Every test here reads the corpus, has `shared` in its name and passes with a message when the
//! folder is absent (a fresh clone without it). The corpus is never copied into the project.

use std::path::{Path, PathBuf};

use serde_json::Value;
use tilebag_core::gcg::{parse_gcg, write_gcg, ExchangedTiles, GcgError, GcgEventKind, GcgRecord};
use tilebag_core::replay::{verify_record, Completion, ReplayReport};
use tilebag_core::Direction;

// ---------------------------------------------------------------------------------------------
// Locating and classifying the corpus
// ---------------------------------------------------------------------------------------------

/// The corpus folder, or `None` (after saying so on stderr) when it is absent.
fn shared_dir() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gcg");
    match dir.canonicalize() {
        Ok(dir) if dir.is_dir() => Some(dir),
        _ => {
            eprintln!(
                "skipping: ../shared/gcg not found (a fresh clone without the shared corpus)"
            );
            None
        }
    }
}

const SOURCES: [&str; 3] = ["liwords", "macondo", "quackle"];

/// Every `.gcg` under the three source folders, sorted.
fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for source in SOURCES {
        let sub = dir.join(source);
        let entries = std::fs::read_dir(&sub)
            .unwrap_or_else(|e| panic!("cannot list {}: {e}", sub.display()));
        for entry in entries {
            let path = entry.expect("directory entry").path();
            if path.extension().is_some_and(|x| x == "gcg") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

fn file_name(path: &Path) -> &str {
    path.file_name()
        .and_then(|n| n.to_str())
        .expect("utf-8 file name")
}

/// `macondo/x.gcg` style, for messages.
fn short(path: &Path) -> String {
    let parent = path
        .parent()
        .and_then(|p| p.file_name())
        .and_then(|n| n.to_str())
        .unwrap_or("");
    format!("{parent}/{}", file_name(path))
}

/// The README's unfinished records: they verify, but as incomplete.
fn expected_incomplete(path: &Path) -> bool {
    let name = file_name(path);
    name.starts_with("incomplete")
        || name == "guy_vs_bot_almost_complete.gcg"
        || (name.starts_with("name_") && name != "name_weird_encoding_with_header.gcg")
}

/// Refused by the reader: an encoding it cannot read.
const WEIRD_ENCODING: &str = "name_weird_encoding_with_header.gcg";
/// Read, but refused by the replay: the Polish tile set is not supported.
const POLISH: &str = "polish_endgame.gcg";

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn parse_file(path: &Path) -> GcgRecord {
    parse_gcg(&read(path)).unwrap_or_else(|e| panic!("{}: {e}", short(path)))
}

/// A corpus file that both parses and verifies, held in memory.
struct Good {
    path: PathBuf,
    bytes: Vec<u8>,
    record: GcgRecord,
    report: ReplayReport,
}

/// Every corpus file that reads and verifies (all but the two refused ones).
fn good_files(dir: &Path) -> Vec<Good> {
    let mut good = Vec::new();
    for path in corpus_files(dir) {
        let name = file_name(&path);
        if name == WEIRD_ENCODING || name == POLISH {
            continue;
        }
        let bytes = read(&path);
        let record = parse_gcg(&bytes).unwrap_or_else(|e| panic!("{}: {e}", short(&path)));
        let report = verify_record(&record).unwrap_or_else(|e| panic!("{}: {e}", short(&path)));
        good.push(Good {
            path,
            bytes,
            record,
            report,
        });
    }
    good
}

/// Each player's last recorded cumulative score: what the record itself says the result is.
fn recorded_finals(record: &GcgRecord) -> [i32; 2] {
    let mut finals = [0; 2];
    for ev in &record.events {
        finals[ev.player] = ev.cumulative;
    }
    finals
}

fn find<'a>(good: &'a [Good], source: &str, name: &str) -> &'a Good {
    good.iter()
        .find(|g| short(&g.path) == format!("{source}/{name}"))
        .unwrap_or_else(|| panic!("{source}/{name} is missing from the corpus"))
}

// ---------------------------------------------------------------------------------------------
// 1. Every record verifies
// ---------------------------------------------------------------------------------------------

#[test]
fn shared_corpus_every_complete_game_verifies() {
    let Some(dir) = shared_dir() else { return };
    let files = corpus_files(&dir);
    assert!(
        files.len() > 40,
        "only {} .gcg files under {}: the corpus is not all there",
        files.len(),
        dir.display()
    );
    let (mut complete, mut incomplete, mut refused) = (0, 0, 0);
    for path in &files {
        let name = short(path);
        let parsed = parse_gcg(&read(path));
        if file_name(path) == WEIRD_ENCODING {
            assert!(parsed.is_err(), "{name}: an ISO8859-6 file must be refused");
            refused += 1;
            continue;
        }
        let record = parsed.unwrap_or_else(|e| panic!("{name}: {e}"));
        let verified = verify_record(&record);
        if file_name(path) == POLISH {
            let e = verified.expect_err("the Polish game needs a tile set the engine lacks");
            assert!(e.message.contains("unsupported tile"), "{name}: {e}");
            refused += 1;
            continue;
        }
        let report = verified.unwrap_or_else(|e| panic!("{name}: {e}"));
        let want = if expected_incomplete(path) {
            incomplete += 1;
            Completion::Incomplete
        } else {
            complete += 1;
            Completion::Complete
        };
        assert_eq!(report.completion, want, "{name}");
        assert_eq!(
            report.scores,
            recorded_finals(&record),
            "{name}: the engine's result differs from the record's last cumulative scores"
        );
        assert!(
            report.warnings.is_empty(),
            "{name}: unexpected warnings {:?}",
            report.warnings
        );
        // One replayed event per record event, at its line, agreeing with what the record says.
        assert_eq!(report.events.len(), record.events.len(), "{name}");
        for (ev, done) in record.events.iter().zip(&report.events) {
            assert_eq!(done.line, ev.line, "{name}");
            assert_eq!(done.player, ev.player, "{name}:{}", ev.line);
            assert_eq!(done.cumulative, ev.cumulative, "{name}:{}", ev.line);
            if ev.kind != GcgEventKind::Withdrawal {
                // A withdrawal may be written `+0` (old style) or `-SCORE`.
                assert_eq!(done.score, ev.score, "{name}:{}", ev.line);
            }
            let is_play = matches!(ev.kind, GcgEventKind::Play { .. });
            assert_eq!(done.position.is_some(), is_play, "{name}:{}", ev.line);
            assert_eq!(done.played.is_some(), is_play, "{name}:{}", ev.line);
            assert_eq!(!done.words.is_empty(), is_play, "{name}:{}", ev.line);
        }
    }
    assert!(complete > 30, "only {complete} complete games");
    assert_eq!(incomplete, 8, "the unfinished games of the README");
    assert_eq!(refused, 2, "the weird-encoding and Polish records");
}

#[test]
fn shared_corpus_known_finals() {
    let Some(dir) = shared_dir() else { return };
    let good = good_files(&dir);
    let pinned = [
        ("liwords", "combined_low_scoring.gcg", [-6, -16]),
        ("quackle", "capp.gcg", [481, 393]),
        ("quackle", "fivepoint.gcg", [452, 360]),
        ("macondo", "josh2.gcg", [397, 291]),
        ("macondo", "issue_476.gcg", [422, 443]),
    ];
    for (source, name, finals) in pinned {
        let g = find(&good, source, name);
        assert_eq!(g.report.completion, Completion::Complete, "{source}/{name}");
        assert_eq!(g.report.scores, finals, "{source}/{name}");
        assert_eq!(recorded_finals(&g.record), finals, "{source}/{name}");
    }
    // The six-zero ending: both players lose their own racks.
    let low = find(&good, "liwords", "combined_low_scoring.gcg");
    let last: Vec<_> = low.report.events.iter().rev().take(2).collect();
    assert_eq!((last[1].score, last[0].score), (-6, -16));
    // issue_476 holds the corpus's only time penalty, last.
    let timed = find(&good, "macondo", "issue_476.gcg");
    let ev = timed.record.events.last().unwrap();
    assert_eq!(ev.kind, GcgEventKind::TimePenalty);
    assert_eq!((ev.line, ev.score, ev.cumulative), (39, -10, 422));
    // The unfinished games stop where the record stops.
    let almost = find(&good, "macondo", "guy_vs_bot_almost_complete.gcg");
    assert_eq!(almost.report.completion, Completion::Incomplete);
    assert_eq!(almost.report.scores, [454, 398]);
}

// ---------------------------------------------------------------------------------------------
// 2. Encodings and other reader cases
// ---------------------------------------------------------------------------------------------

fn macondo_file(dir: &Path, name: &str) -> PathBuf {
    dir.join("macondo").join(name)
}

#[test]
fn shared_encoding_iso8859_1_is_the_default() {
    let Some(dir) = shared_dir() else { return };
    let record = parse_file(&macondo_file(&dir, "name_iso8859-1.gcg"));
    assert_eq!(record.character_encoding, None);
    assert_eq!(record.players[0].nick, "césar");
    assert_eq!(record.players[0].name, "césar");
    assert_eq!(record.players[1].nick, "hércules");
    assert_eq!(record.players[1].name, "hércules");
    assert_eq!(record.events.len(), 2);
    assert_eq!((record.events[0].player, record.events[1].player), (0, 1));
    let report = verify_record(&record).unwrap();
    assert_eq!(report.completion, Completion::Incomplete);
    assert_eq!(report.scores, [32, 16]);
}

#[test]
fn shared_encoding_utf8_without_header_reads_as_latin1() {
    let Some(dir) = shared_dir() else { return };
    let record = parse_file(&macondo_file(&dir, "name_utf8_noheader.gcg"));
    assert_eq!(record.players[0].nick, "cÃ©sar");
    assert_eq!(record.players[1].nick, "doug");
    // The event lines use the same (mis-decoded) nick, so they still belong to player 1.
    assert_eq!(record.events[0].player, 0);
    assert_eq!(
        verify_record(&record).unwrap().completion,
        Completion::Incomplete
    );
}

#[test]
fn shared_encoding_utf8_with_header() {
    let Some(dir) = shared_dir() else { return };
    let record = parse_file(&macondo_file(&dir, "name_utf8_with_header.gcg"));
    assert_eq!(record.character_encoding.as_deref(), Some("UTF-8"));
    assert_eq!(record.players[0].nick, "césar");
    assert_eq!(record.players[0].name, "césar");
    assert_eq!(record.players[1].nick, "doug");
    assert_eq!(record.events[0].player, 0);
    assert_eq!(verify_record(&record).unwrap().scores, [32, 16]);
}

#[test]
fn shared_encoding_weird_header_is_refused() {
    let Some(dir) = shared_dir() else { return };
    let path = macondo_file(&dir, WEIRD_ENCODING);
    let e = parse_gcg(&read(&path)).expect_err("ISO8859-6 must be refused");
    assert_eq!(e.line(), 1);
    assert!(
        matches!(&e, GcgError::UnsupportedEncoding { encoding, .. } if encoding == "ISO8859-6"),
        "{e:?}"
    );
    let message = e.to_string();
    assert!(message.starts_with("line 1: "), "{message}");
    assert!(message.contains("encoding"), "{message}");
    assert!(message.contains("ISO8859-6"), "{message}");
}

#[test]
fn shared_utf8_dos_line_ends() {
    let Some(dir) = shared_dir() else { return };
    let path = macondo_file(&dir, "utf8_dos.gcg");
    assert!(read(&path).windows(2).any(|w| w == b"\r\n"), "CRLF file");
    let record = parse_file(&path);
    assert_eq!(record.players[0].nick, "angwantibo");
    assert_eq!(record.players[1].nick, "Michal_Josko");
    assert_eq!(record.players[1].name, "Michal Josko");
    // No carriage return survives in any field.
    let text = format!("{record:?}");
    assert!(!text.contains("\\r"), "a \\r survived: {text}");
    let report = verify_record(&record).unwrap();
    assert_eq!(report.completion, Completion::Complete);
    assert_eq!(report.scores, [375, 488]);
}

#[test]
fn shared_polish_endgame_is_an_unsupported_tile() {
    let Some(dir) = shared_dir() else { return };
    let record = parse_file(&macondo_file(&dir, POLISH));
    assert_eq!(record.character_encoding.as_deref(), Some("UTF-8"));
    assert_eq!(record.players[0].nick, "1");
    let e = verify_record(&record).expect_err("no Polish tile set yet");
    assert_eq!(e.line, 6, "{e}");
    assert!(e.message.contains("unsupported tile"), "{e}");
    assert!(e.message.contains('Ę'), "the message names the tile: {e}");
}

// ---------------------------------------------------------------------------------------------
// 3. macondo's goldens: positions, scores and the words formed
// ---------------------------------------------------------------------------------------------

/// macondo's event types (`macondo.GameEvent.Type`).
fn golden_kind_matches(kind: u64, ev: &GcgEventKind, score: i32) -> bool {
    match kind {
        0 => matches!(ev, GcgEventKind::Play { .. }),
        1 => matches!(ev, GcgEventKind::Withdrawal),
        2 | 8 => matches!(ev, GcgEventKind::Pass),
        3 => matches!(ev, GcgEventKind::ChallengeBonus),
        4 => matches!(ev, GcgEventKind::Exchange(_)),
        5 => matches!(ev, GcgEventKind::EndRack { .. }) && score >= 0,
        6 => matches!(ev, GcgEventKind::TimePenalty),
        7 => matches!(ev, GcgEventKind::EndRack { .. }) && score < 0,
        _ => false,
    }
}

/// A number of a golden event. The goldens are protobuf JSON, which leaves out zero values.
fn int(v: &Value, key: &str) -> Option<i32> {
    let n = v.get(key).map_or(Some(0), Value::as_i64)?;
    Some(i32::try_from(n).unwrap())
}

fn text<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

#[test]
fn shared_macondo_goldens_match_the_replay() {
    let Some(dir) = shared_dir() else { return };
    let goldens = dir.join("macondo/goldens");
    let mut names: Vec<PathBuf> = std::fs::read_dir(&goldens)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    names.sort();
    assert_eq!(names.len(), 3, "josh2, vs_andy and doug_v_emely");
    let mut plays_checked = 0;
    let mut others_checked = 0;
    for json_path in names {
        let stem = json_path.file_stem().unwrap().to_str().unwrap().to_string();
        let golden: Value = serde_json::from_slice(&read(&json_path)).unwrap();
        let gcg = dir.join("macondo").join(format!("{stem}.gcg"));
        let record = parse_file(&gcg);
        let report = verify_record(&record).unwrap_or_else(|e| panic!("{stem}: {e}"));
        assert_eq!(report.completion, Completion::Complete, "{stem}");

        // Players and the final result.
        for (i, p) in golden["players"].as_array().unwrap().iter().enumerate() {
            assert_eq!(text(p, "nickname"), Some(record.players[i].nick.as_str()));
        }
        let finals: Vec<i32> = golden["final_scores"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_i64().unwrap() as i32)
            .collect();
        assert_eq!(finals, report.scores.to_vec(), "{stem}: final scores");

        // macondo keeps one event per GCG event line, in order.
        let events = golden["events"].as_array().unwrap();
        assert_eq!(events.len(), record.events.len(), "{stem}: event count");
        for (i, ((g, ev), done)) in events
            .iter()
            .zip(&record.events)
            .zip(&report.events)
            .enumerate()
        {
            let at = format!("{stem}.gcg:{}", ev.line);
            let kind = g.get("type").and_then(Value::as_u64).unwrap_or(0);
            let player = g.get("player_index").and_then(Value::as_u64).unwrap_or(0);
            assert_eq!(player as usize, ev.player, "{at}: player");
            assert!(
                golden_kind_matches(kind, &ev.kind, ev.score),
                "{at}: golden type {kind} vs {:?}",
                ev.kind
            );
            assert_eq!(
                int(g, "cumulative"),
                Some(done.cumulative),
                "{at}: cumulative"
            );
            if let (Some(rack), Some(ours)) = (text(g, "rack"), ev.rack.as_deref()) {
                assert_eq!(rack, ours, "{at}: rack");
            }
            match kind {
                0 => {
                    // A play: the coordinate, the tiles as GCG shows them, the score and every
                    // word formed, main word first, then the cross-words in board order.
                    let pos = done.position.expect("a play has a position");
                    assert_eq!(text(g, "position"), Some(pos.to_string().as_str()), "{at}");
                    assert_eq!(int(g, "row"), Some(i32::from(pos.square.row)), "{at}: row");
                    assert_eq!(
                        int(g, "column"),
                        Some(i32::from(pos.square.col)),
                        "{at}: col"
                    );
                    let down = int(g, "direction") == Some(1);
                    assert_eq!(pos.direction == Direction::Down, down, "{at}: direction");
                    assert_eq!(text(g, "played_tiles"), done.played.as_deref(), "{at}");
                    assert_eq!(int(g, "score"), Some(done.score), "{at}: score");
                    let words: Vec<&str> = g["words_formed"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|w| w.as_str().unwrap())
                        .collect();
                    assert_eq!(words, done.words, "{at}: words formed");
                    plays_checked += 1;
                }
                1 => {
                    // The withdrawn phony: its tiles come back and its score is lost.
                    let GcgEventKind::Play { word, .. } = &record.events[i - 1].kind else {
                        panic!("{at}: a withdrawal after a non-play");
                    };
                    assert_eq!(text(g, "played_tiles"), Some(word.as_str()), "{at}");
                    assert_eq!(int(g, "lost_score"), Some(-done.score), "{at}: lost score");
                    others_checked += 1;
                }
                3 => {
                    assert_eq!(int(g, "bonus"), Some(done.score), "{at}: bonus");
                    others_checked += 1;
                }
                4 => {
                    let GcgEventKind::Exchange(ExchangedTiles::Known(tiles)) = &ev.kind else {
                        panic!("{at}: golden exchange vs {:?}", ev.kind);
                    };
                    assert_eq!(text(g, "exchanged"), Some(tiles.as_str()), "{at}");
                    assert_eq!(done.score, 0, "{at}");
                    others_checked += 1;
                }
                5 => {
                    assert_eq!(int(g, "end_rack_points"), Some(done.score), "{at}");
                    others_checked += 1;
                }
                _ => others_checked += 1,
            }
        }
    }
    assert!(
        plays_checked > 70,
        "only {plays_checked} golden plays compared"
    );
    assert!(
        others_checked >= 10,
        "only {others_checked} other golden events"
    );
}

// ---------------------------------------------------------------------------------------------
// 4. Mutations: every recorded number is checked, at its line
// ---------------------------------------------------------------------------------------------

/// The byte ranges of the lines (without their ends), splitting like the reader: CRLF, LF or a
/// bare CR ends a line.
fn line_spans(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\n' => {
                spans.push((start, i));
                start = i + 1;
            }
            b'\r' => {
                spans.push((start, i));
                if bytes.get(i + 1) == Some(&b'\n') {
                    i += 1;
                }
                start = i + 1;
            }
            _ => {}
        }
        i += 1;
    }
    if start < bytes.len() {
        spans.push((start, bytes.len()));
    }
    spans
}

/// The whitespace-separated tokens of a line, as absolute byte ranges.
fn tokens(bytes: &[u8], (from, to): (usize, usize)) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, byte) in bytes.iter().enumerate().take(to).skip(from) {
        let space = byte.is_ascii_whitespace();
        match (space, start) {
            (false, None) => start = Some(i),
            (true, Some(s)) => {
                out.push((s, i));
                start = None;
            }
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, to));
    }
    out
}

/// The byte ranges of the score token (`+N`/`-N`) and the cumulative token on an event line.
fn number_tokens(
    bytes: &[u8],
    span: (usize, usize),
    score: i32,
    cumulative: i32,
) -> ((usize, usize), (usize, usize)) {
    let toks = tokens(bytes, span);
    let as_str = |(a, b): (usize, usize)| std::str::from_utf8(&bytes[a..b]).ok();
    let mut found = Vec::new();
    // Skip the `>nick:` token.
    for pair in toks[1..].windows(2) {
        let (s, c) = (pair[0], pair[1]);
        let signed = as_str(s).filter(|t| t.starts_with(['+', '-']));
        let s_ok = signed.and_then(|t| t.parse::<i32>().ok()) == Some(score);
        let c_ok = as_str(c).and_then(|t| t.parse::<i32>().ok()) == Some(cumulative);
        if s_ok && c_ok {
            found.push((s, c));
        }
    }
    assert_eq!(
        found.len(),
        1,
        "cannot find the score {score:+} / cumulative {cumulative} on {:?}",
        String::from_utf8_lossy(&bytes[span.0..span.1])
    );
    found[0]
}

fn replace(bytes: &[u8], (a, b): (usize, usize), with: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(bytes.len() + 2);
    out.extend_from_slice(&bytes[..a]);
    out.extend_from_slice(with.as_bytes());
    out.extend_from_slice(&bytes[b..]);
    out
}

/// What a mutated file did.
enum Outcome {
    Failed { line: usize, message: String },
    Verified(ReplayReport),
}

fn run(bytes: &[u8], what: &str) -> Outcome {
    let record =
        parse_gcg(bytes).unwrap_or_else(|e| panic!("{what}: the mutation broke parsing: {e}"));
    match verify_record(&record) {
        Ok(report) => Outcome::Verified(report),
        Err(e) => Outcome::Failed {
            line: e.line,
            message: e.message,
        },
    }
}

#[test]
fn shared_corpus_every_changed_score_fails_at_its_line() {
    let Some(dir) = shared_dir() else { return };
    let good = good_files(&dir);
    let mut mutations = 0;
    let mut withdrawn_checked = 0;
    for g in &good {
        let name = short(&g.path);
        let spans = line_spans(&g.bytes);
        for (i, ev) in g.record.events.iter().enumerate() {
            let span = spans[ev.line - 1];
            assert_eq!(g.bytes[span.0], b'>', "{name}:{}: line numbering", ev.line);
            let (score_tok, cum_tok) = number_tokens(&g.bytes, span, ev.score, ev.cumulative);
            let withdrawn = matches!(ev.kind, GcgEventKind::Play { .. })
                && g.record.events.get(i + 1).is_some_and(|next| {
                    next.kind == GcgEventKind::Withdrawal && next.player == ev.player
                });
            let mut variants = Vec::new();
            for delta in [1, -1] {
                // A withdrawal's own score (`-SCORE` or the old `+0`) is not a number the
                // result depends on; its cumulative score is.
                if ev.kind != GcgEventKind::Withdrawal {
                    let s = format!("{:+}", ev.score + delta);
                    variants.push(("score", replace(&g.bytes, score_tok, &s), s));
                }
                let c = (ev.cumulative + delta).to_string();
                variants.push(("cumulative", replace(&g.bytes, cum_tok, &c), c));
            }
            for (field, bytes, new) in variants {
                let what = format!("{name}:{}: {field} changed to {new}", ev.line);
                mutations += 1;
                match (run(&bytes, &what), withdrawn) {
                    (Outcome::Failed { line, message }, false) => {
                        assert_eq!(line, ev.line, "{what}: failed elsewhere: {message}");
                    }
                    (Outcome::Verified(_), false) => panic!("{what}: still verifies"),
                    (Outcome::Verified(report), true) => {
                        // The play was withdrawn: the result is unchanged, with a warning.
                        assert!(!report.warnings.is_empty(), "{what}: no warning");
                        assert!(
                            report.warnings[0].contains(&format!("line {}", ev.line)),
                            "{what}: {:?}",
                            report.warnings
                        );
                        assert_eq!(report.scores, g.report.scores, "{what}");
                        assert_eq!(report.completion, g.report.completion, "{what}");
                        withdrawn_checked += 1;
                    }
                    (Outcome::Failed { line, message }, true) => {
                        panic!(
                            "{what}: a withdrawn play's mis-score failed at line {line}: {message}"
                        )
                    }
                }
            }
        }
    }
    eprintln!(
        "{mutations} mutations over {} files ({withdrawn_checked} on withdrawn plays)",
        good.len()
    );
    assert!(mutations > 4000, "only {mutations} mutations");
    assert!(
        withdrawn_checked >= 40,
        "only {withdrawn_checked} withdrawn-play mutations"
    );
}

/// The score on a `--` line is `-SCORE` (the withdrawn play's score) or, in old records, `+0`.
/// Anything else disagrees with the record's own play; it changes nothing in the result, so by the
/// README's rule it deserves at least a warning. The engine checks only the cumulative score there
/// (replay/withdrawal.rs) and accepts `-73` or `+5` for a withdrawn `+74` silently.
#[test]
fn shared_corpus_withdrawal_line_score_disagreement_is_reported() {
    let Some(dir) = shared_dir() else { return };
    let path = macondo_file(&dir, "josh2.gcg");
    let bytes = read(&path);
    let original = b"--  -74 224";
    let at = bytes
        .windows(original.len())
        .position(|w| w == original)
        .expect("josh2.gcg line 29");
    for wrong in ["-73", "-75", "+5"] {
        let span = (at + 4, at + 7);
        let mutated = replace(&bytes, span, wrong);
        let what = format!("josh2.gcg:29: withdrawal score changed to {wrong}");
        match run(&mutated, &what) {
            Outcome::Failed { line, .. } => assert_eq!(line, 29, "{what}"),
            Outcome::Verified(report) => assert!(
                report.warnings.iter().any(|w| w.contains("line 29")),
                "{what}: accepted without a warning"
            ),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// 5. Writing and reading back
// ---------------------------------------------------------------------------------------------

/// A record without what writing is allowed to change (line numbers, the declared encoding).
fn normalized(record: &GcgRecord) -> GcgRecord {
    let mut r = record.clone();
    r.character_encoding = None;
    for ev in &mut r.events {
        ev.line = 0;
    }
    r.last_rack_lines = [0, 0];
    if let Some((line, _)) = &mut r.game_type {
        *line = 0;
    }
    r
}

#[test]
fn shared_corpus_write_parse_round_trip() {
    let Some(dir) = shared_dir() else { return };
    let mut checked = 0;
    for path in corpus_files(&dir) {
        let name = short(&path);
        let Ok(record) = parse_gcg(&read(&path)) else {
            assert_eq!(file_name(&path), WEIRD_ENCODING, "{name} does not parse");
            continue;
        };
        let text = write_gcg(&record);
        let again = parse_gcg(text.as_bytes())
            .unwrap_or_else(|e| panic!("{name}: the rewritten record does not parse: {e}\n{text}"));
        assert_eq!(again.character_encoding.as_deref(), Some("UTF-8"), "{name}");
        assert_eq!(again.events.len(), record.events.len(), "{name}");
        for (a, b) in record.events.iter().zip(&again.events) {
            let (mut a, mut b) = (a.clone(), b.clone());
            (a.line, b.line) = (0, 0);
            assert_eq!(
                a, b,
                "{name}: an event changed on the way through write_gcg"
            );
        }
        assert_eq!(normalized(&record), normalized(&again), "{name}");
        // Writing is a fixed point after one round.
        assert_eq!(write_gcg(&again), text, "{name}");
        match (verify_record(&record), verify_record(&again)) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.scores, b.scores, "{name}");
                assert_eq!(a.completion, b.completion, "{name}");
                assert_eq!(a.warnings.len(), b.warnings.len(), "{name}");
                assert_eq!(a.events.len(), b.events.len(), "{name}");
                for (x, y) in a.events.iter().zip(&b.events) {
                    assert_eq!(
                        (&x.words, &x.played, x.position, x.score, x.cumulative),
                        (&y.words, &y.played, y.position, y.score, y.cumulative),
                        "{name}:{}",
                        x.line
                    );
                }
            }
            (Err(a), Err(b)) => {
                assert_eq!(file_name(&path), POLISH, "{name}: {a}");
                assert_eq!(a.message, b.message, "{name}");
            }
            (a, b) => panic!(
                "{name}: verified {:?} before and {:?} after",
                a.is_ok(),
                b.is_ok()
            ),
        }
        checked += 1;
    }
    assert!(checked > 40, "only {checked} files round-tripped");
}
