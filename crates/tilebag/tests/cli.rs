//! The real `tilebag` binary, run as a user would: `gcg verify`, `gcg show`, `rules list`,
//! `rules show`; and for `moves` and `analyze`, the lexicon a position names, lexicon files from
//! before the GADDAG section, and the preset's exchange rule.
//!
//! Tests that read the shared corpus (`../shared/gcg`) have `shared` in their names and pass with a
//! message when it is absent; the others use small fixtures written to a temporary directory.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;
use support::{said, stderr, stdout, tilebag};

const PRESETS: [&str; 6] = [
    "naspa-2013",
    "nsa-2011",
    "naspa-2013-csw",
    "wespa-2010",
    "sanspa-1999",
    "literacy-2018",
];

fn assert_no_panic(o: &Output) {
    let err = stderr(o);
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "the binary panicked:\n{}",
        said(o)
    );
}

/// A temporary directory for one test's fixtures, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(test: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("tilebag-cli-{}-{test}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create a temporary directory");
        TempDir(dir)
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.0.join(name);
        std::fs::write(&path, text).expect("write a fixture");
        path
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The first two moves of macondo's doug v emely game (WINDY 32, GALE 16), with the second
/// line's score and cumulative as given.
fn two_moves(gale_score: &str, gale_cumulative: &str) -> String {
    format!(
        "#player1 alice Alice Example\n\
         #player2 bob Bob Example\n\
         >alice: DINNVWY 8D WINDY +32 32\n\
         >bob: ADEEGIL 7C GALE {gale_score} {gale_cumulative}\n"
    )
}

// ---------------------------------------------------------------------------------------------
// rules
// ---------------------------------------------------------------------------------------------

#[test]
fn rules_list_names_the_six_presets() {
    let o = tilebag(&["rules", "list"]);
    assert!(o.status.success(), "{}", said(&o));
    let out = stdout(&o);
    let names: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(names, PRESETS, "{out}");
    let default = out
        .lines()
        .find(|l| l.contains("(default)"))
        .expect("a default preset");
    assert!(default.starts_with("naspa-2013 "), "{default}");
}

#[test]
fn rules_show_wespa_cites_its_rules() {
    let o = tilebag(&["rules", "show", "wespa-2010"]);
    assert!(o.status.success(), "{}", said(&o));
    let out = stdout(&o);
    assert!(out.starts_with("wespa-2010"), "{out}");
    assert!(out.contains("WESPA"), "{out}");
    assert!(out.contains("5.1.4(a)"), "the end-rack rule: {out}");
    assert!(out.lines().count() > 5, "{out}");
}

#[test]
fn rules_show_every_preset() {
    for preset in PRESETS {
        let o = tilebag(&["rules", "show", preset]);
        assert!(o.status.success(), "{preset}: {}", said(&o));
        assert!(stdout(&o).starts_with(preset), "{preset}: {}", said(&o));
    }
}

#[test]
fn rules_show_unknown_preset_names_the_known_ones() {
    let o = tilebag(&["rules", "show", "nope"]);
    assert!(!o.status.success(), "{}", said(&o));
    assert_no_panic(&o);
    let err = stderr(&o);
    assert!(err.contains("nope"), "{err}");
    for preset in PRESETS {
        assert!(err.contains(preset), "{preset} not named: {err}");
    }
}

// ---------------------------------------------------------------------------------------------
// gcg verify / gcg show on fixtures
// ---------------------------------------------------------------------------------------------

#[test]
fn gcg_verify_fixture_wrong_score_fails_at_its_line() {
    let tmp = TempDir::new("wrong-score");
    let bad = tmp.write("wrong_score.gcg", &two_moves("+17", "17"));
    let o = tilebag(&[Path::new("gcg"), Path::new("verify"), &bad]);
    assert_eq!(o.status.code(), Some(1), "{}", said(&o));
    assert_no_panic(&o);
    let out = stdout(&o);
    let line = out.lines().next().unwrap_or_default();
    assert!(
        line.starts_with(&format!("FAIL {}:4:", bad.display())),
        "{}",
        said(&o)
    );
    assert!(line.contains("record says +17"), "{line}");
    assert!(line.contains("engine computed +16"), "{line}");
    assert!(line.contains("7C GALE"), "{line}");
}

#[test]
fn gcg_verify_fixture_wrong_cumulative_fails_at_its_line() {
    let tmp = TempDir::new("wrong-cumulative");
    let bad = tmp.write("wrong_cumulative.gcg", &two_moves("+16", "61"));
    let o = tilebag(&[Path::new("gcg"), Path::new("verify"), &bad]);
    assert_eq!(o.status.code(), Some(1), "{}", said(&o));
    let out = stdout(&o);
    assert!(
        out.starts_with(&format!("FAIL {}:4:", bad.display())),
        "{}",
        said(&o)
    );
    assert!(out.contains("61") && out.contains("16"), "{out}");
}

#[test]
fn gcg_verify_fixture_good_and_bad_together() {
    let tmp = TempDir::new("good-and-bad");
    let good = tmp.write("good.gcg", &two_moves("+16", "16"));
    let bad = tmp.write("bad.gcg", &two_moves("+17", "17"));
    // Alone, the good record verifies (as an unfinished game) and the exit status is 0.
    let o = tilebag(&[Path::new("gcg"), Path::new("verify"), &good]);
    assert_eq!(o.status.code(), Some(0), "{}", said(&o));
    assert_eq!(
        stdout(&o),
        format!(
            "INCOMPLETE {}: 2 events, alice 32 – bob 16 so far\n",
            good.display()
        )
    );
    // With a bad one, every file is still reported and the status is 1.
    let o = tilebag(&[Path::new("gcg"), Path::new("verify"), &bad, &good]);
    assert_eq!(o.status.code(), Some(1), "{}", said(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 2, "{out}");
    assert!(lines[0].starts_with(&format!("FAIL {}:4:", bad.display())));
    assert!(lines[1].starts_with(&format!("INCOMPLETE {}:", good.display())));
}

#[test]
fn gcg_verify_fixture_unreadable_line_names_it() {
    let tmp = TempDir::new("unreadable");
    let bad = tmp.write(
        "unreadable.gcg",
        "#player1 alice Alice\n#player2 bob Bob\n>alice: DINNVWY 8D WINDY +32 32\n>bob: ABC\n",
    );
    let o = tilebag(&[Path::new("gcg"), Path::new("verify"), &bad]);
    assert_eq!(o.status.code(), Some(1), "{}", said(&o));
    assert_no_panic(&o);
    let out = stdout(&o);
    assert!(
        out.starts_with(&format!("FAIL {}:4: expected a move", bad.display())),
        "{out}"
    );
}

#[test]
fn gcg_verify_missing_file_is_a_clear_error() {
    let tmp = TempDir::new("missing-verify");
    let missing = tmp.0.join("no_such_game.gcg");
    let o = tilebag(&[Path::new("gcg"), Path::new("verify"), &missing]);
    assert_eq!(o.status.code(), Some(1), "{}", said(&o));
    assert_no_panic(&o);
    let out = stdout(&o);
    assert!(
        out.starts_with(&format!("FAIL {}", missing.display())),
        "{out}"
    );
    assert!(out.contains("cannot read"), "{out}");
}

#[test]
fn gcg_show_missing_file_is_a_clear_error() {
    let tmp = TempDir::new("missing-show");
    let missing = tmp.0.join("no_such_game.gcg");
    let o = tilebag(&[Path::new("gcg"), Path::new("show"), &missing]);
    assert!(!o.status.success(), "{}", said(&o));
    assert_no_panic(&o);
    let err = stderr(&o);
    assert!(err.starts_with("error:"), "{err}");
    assert!(err.contains(&missing.display().to_string()), "{err}");
    assert!(err.contains("cannot read"), "{err}");
}

#[test]
fn gcg_verify_needs_a_file() {
    let o = tilebag(&["gcg", "verify"]);
    assert!(!o.status.success(), "{}", said(&o));
    assert_no_panic(&o);
    assert!(stderr(&o).contains("Usage"), "{}", said(&o));
}

/// The board lines of `gcg show` output: the column header and 15 rows.
fn board_rows(out: &str) -> Vec<&str> {
    let mut lines = out.lines();
    let header = lines.next().unwrap_or_default();
    assert_eq!(
        header.split_whitespace().collect::<String>(),
        "ABCDEFGHIJKLMNO",
        "{out}"
    );
    let rows: Vec<&str> = lines.take(15).collect();
    for (i, row) in rows.iter().enumerate() {
        let number = row.split_whitespace().next().unwrap_or_default();
        assert_eq!(number, (i + 1).to_string(), "{out}");
        assert_eq!(row.split_whitespace().count(), 16, "{row:?}");
    }
    rows
}

#[test]
fn gcg_show_fixture_turn_prints_board_and_scores() {
    let tmp = TempDir::new("show");
    let good = tmp.write("good.gcg", &two_moves("+16", "16"));
    let o = tilebag(&[
        Path::new("gcg"),
        Path::new("show"),
        &good,
        Path::new("--turn"),
        Path::new("1"),
    ]);
    assert!(o.status.success(), "{}", said(&o));
    let out = stdout(&o);
    let rows = board_rows(&out);
    assert!(rows[7].contains("W I N D Y"), "{out}");
    assert!(!rows[6].contains('G'), "GALE is not played yet: {out}");
    assert!(
        out.contains("after 1 event(s) (line 3): alice 32 – bob 0"),
        "{out}"
    );
    assert!(
        out.contains("next: line 4 bob to move, rack ADEEGIL"),
        "{out}"
    );
    assert!(out.contains("unseen (bag and racks, 95 tiles)"), "{out}");

    // Without --turn: the end of the record.
    let o = tilebag(&[Path::new("gcg"), Path::new("show"), &good]);
    assert!(o.status.success(), "{}", said(&o));
    let out = stdout(&o);
    let rows = board_rows(&out);
    assert!(rows[6].contains("G A L E"), "{out}");
    assert!(
        out.contains("after 2 event(s) (line 4): alice 32 – bob 16"),
        "{out}"
    );
}

#[test]
fn gcg_show_fixture_stops_at_a_wrong_score() {
    let tmp = TempDir::new("show-bad");
    let bad = tmp.write("bad.gcg", &two_moves("+17", "17"));
    let o = tilebag(&[Path::new("gcg"), Path::new("show"), &bad]);
    assert!(!o.status.success(), "{}", said(&o));
    assert_no_panic(&o);
    let err = stderr(&o);
    assert!(err.contains(&format!("{}:4:", bad.display())), "{err}");
    // Up to the line before, it shows fine.
    let o = tilebag(&[
        Path::new("gcg"),
        Path::new("show"),
        &bad,
        Path::new("--turn"),
        Path::new("1"),
    ]);
    assert!(o.status.success(), "{}", said(&o));
}

// ---------------------------------------------------------------------------------------------
// The shared corpus
// ---------------------------------------------------------------------------------------------

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

fn corpus_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for source in ["liwords", "macondo", "quackle"] {
        for entry in std::fs::read_dir(dir.join(source)).expect("list the corpus") {
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
    path.file_name().and_then(|n| n.to_str()).unwrap()
}

/// What `gcg verify` should print first for a corpus file (the README's expectations).
fn expected_status(path: &Path) -> &'static str {
    let name = file_name(path);
    if name == "name_weird_encoding_with_header.gcg" || name == "polish_endgame.gcg" {
        "FAIL"
    } else if name.starts_with("incomplete")
        || name.starts_with("name_")
        || name == "guy_vs_bot_almost_complete.gcg"
    {
        "INCOMPLETE"
    } else {
        "OK"
    }
}

#[test]
fn shared_gcg_verify_whole_corpus() {
    let Some(dir) = shared_dir() else { return };
    let files = corpus_files(&dir);
    assert!(files.len() > 40, "only {} files", files.len());
    let o = tilebag(&[&[PathBuf::from("gcg"), PathBuf::from("verify")], &files[..]].concat());
    assert_eq!(o.status.code(), Some(1), "{}", said(&o));
    assert_no_panic(&o);
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines.len(),
        files.len(),
        "one line per file, no warnings:\n{out}"
    );
    for (path, line) in files.iter().zip(&lines) {
        let status = expected_status(path);
        let prefix = format!("{status} {}", path.display());
        assert!(line.starts_with(&prefix), "expected {prefix}…, got {line}");
    }
    let find = |name: &str| {
        *lines
            .iter()
            .find(|l| l.contains(&format!("/{name}")))
            .unwrap_or_else(|| panic!("no line for {name}:\n{out}"))
    };
    let weird = find("name_weird_encoding_with_header.gcg");
    assert!(
        weird.contains(".gcg:1: unsupported character encoding \"ISO8859-6\""),
        "{weird}"
    );
    let polish = find("polish_endgame.gcg");
    assert!(polish.contains("polish_endgame.gcg:6: "), "{polish}");
    assert!(polish.contains("unsupported tile"), "{polish}");
    assert!(
        find("capp.gcg").ends_with(": final Brian 481 – Pakorn 393"),
        "{out}"
    );
    assert!(
        find("fivepoint.gcg").ends_with(": final Ganesh 452 – Paul 360"),
        "{out}"
    );
    assert!(
        find("combined_low_scoring.gcg").ends_with(": final Marlon_Hill -6 – Ben_Schoenbrun -16"),
        "{out}"
    );
    assert!(
        find("guy_vs_bot_almost_complete.gcg").ends_with(": 25 events, guy 454 – bot 398 so far"),
        "{out}"
    );
    let fails = lines.iter().filter(|l| l.starts_with("FAIL ")).count();
    assert_eq!(fails, 2, "{out}");
}

#[test]
fn shared_gcg_verify_good_files_exits_zero() {
    let Some(dir) = shared_dir() else { return };
    let files: Vec<PathBuf> = corpus_files(&dir)
        .into_iter()
        .filter(|p| expected_status(p) != "FAIL")
        .collect();
    assert!(files.len() > 40, "only {} files", files.len());
    let o = tilebag(&[&[PathBuf::from("gcg"), PathBuf::from("verify")], &files[..]].concat());
    assert_eq!(o.status.code(), Some(0), "{}", said(&o));
    let out = stdout(&o);
    assert_eq!(out.lines().count(), files.len(), "{out}");
    assert!(out
        .lines()
        .all(|l| l.starts_with("OK ") || l.starts_with("INCOMPLETE ")));
    assert!(stderr(&o).is_empty(), "{}", said(&o));
}

#[test]
fn shared_gcg_show_turn_3() {
    let Some(dir) = shared_dir() else { return };
    let josh2 = dir.join("macondo/josh2.gcg");
    let o = tilebag(&[
        Path::new("gcg"),
        Path::new("show"),
        &josh2,
        Path::new("--turn"),
        Path::new("3"),
    ]);
    assert!(o.status.success(), "{}", said(&o));
    let out = stdout(&o);
    let rows = board_rows(&out);
    // DOWLY at 8H, then (after jvc's challenge bonus) POI at 9I.
    assert!(rows[7].contains("D O W L Y"), "{out}");
    assert!(rows[8].contains("P O I"), "{out}");
    assert!(
        out.contains("after 3 event(s) (line 5): jvc 37 – Paula 22"),
        "{out}"
    );
    assert!(
        out.contains("next: line 6 jvc to move, rack DIMSTTW"),
        "{out}"
    );
    assert!(out.contains("unseen (bag and racks, 92 tiles)"), "{out}");
}

#[test]
fn shared_gcg_show_polish_is_a_clear_error() {
    let Some(dir) = shared_dir() else { return };
    let polish = dir.join("macondo/polish_endgame.gcg");
    let o = tilebag(&[Path::new("gcg"), Path::new("show"), &polish]);
    assert!(!o.status.success(), "{}", said(&o));
    assert_no_panic(&o);
    let err = stderr(&o);
    assert!(err.contains("polish_endgame.gcg:6:"), "{err}");
    assert!(err.contains("unsupported tile"), "{err}");
}

/// `tilebag backup` copies what is still in the WAL (acknowledged moves not yet checkpointed),
/// which a copy of the database file alone loses; a second backup to the same name is refused;
/// a missing database is an error and leaves nothing.
#[test]
fn backup_copies_what_is_still_in_the_wal() {
    let dir = std::env::temp_dir().join(format!("tilebag-backup-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("tilebag.db");
    // As the server keeps it: WAL, the writer still open, nothing checkpointed yet.
    let live = rusqlite::Connection::open(&db).unwrap();
    live.pragma_update(None, "journal_mode", "WAL").unwrap();
    live.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
    live.execute_batch("CREATE TABLE games (id TEXT PRIMARY KEY)")
        .unwrap();
    for i in 0..50 {
        live.execute("INSERT INTO games VALUES (?1)", [format!("g{i}")])
            .unwrap();
    }
    // Copying the file alone loses them.
    std::fs::copy(&db, dir.join("naive.db")).unwrap();
    let naive = rusqlite::Connection::open(dir.join("naive.db")).unwrap();
    assert!(naive
        .query_row("SELECT COUNT(*) FROM games", [], |r| r.get::<_, i64>(0))
        .is_err());

    let out = dir.join("copy.db");
    let o = tilebag(&[
        "backup",
        "--database",
        db.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", said(&o));
    assert!(stdout(&o).contains("50 games"), "{}", said(&o));
    let copy = rusqlite::Connection::open(&out).unwrap();
    let n: i64 = copy
        .query_row("SELECT COUNT(*) FROM games", [], |r| r.get(0))
        .unwrap();
    assert_eq!(n, 50);

    // Never over an existing file; never from a database that is not there.
    let o = tilebag(&[
        "backup",
        "--database",
        db.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("exists already"), "{}", said(&o));
    let missing = dir.join("missing.db");
    let out2 = dir.join("copy2.db");
    let o = tilebag(&[
        "backup",
        "--database",
        missing.to_str().unwrap(),
        "-o",
        out2.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing.db"), "{}", said(&o));
    assert!(!out2.exists() && !missing.exists());
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains("partial"))
        .collect();
    assert!(leftovers.is_empty(), "{leftovers:?}");
    drop(live);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn wespa_5_1_4_b_and_3_10_15_b_rules_show_takes_the_organisers_choices() {
    let o = tilebag(&[
        "rules",
        "show",
        "wespa-2010",
        "--rule",
        "end-rack=double",
        "--rule",
        "challenge=per-turn:10",
    ]);
    assert!(o.status.success(), "{}", said(&o));
    let out = stdout(&o);
    assert!(out.contains("[WESPA 5.1.4(b)]"), "{out}");
    assert!(
        out.contains("10 points to the challenged player per challenged turn"),
        "{out}"
    );
    assert!(
        out.contains("end-rack=double, challenge=per-turn:10"),
        "{out}"
    );
    // A choice the book does not leave open is refused, naming the rule.
    let o = tilebag(&[
        "rules",
        "show",
        "naspa-2013",
        "--rule",
        "end-rack=add-and-subtract",
    ]);
    assert!(!o.status.success(), "{}", said(&o));
    assert_no_panic(&o);
    assert!(stderr(&o).contains("NASPA V.G.1"), "{}", said(&o));
    let o = tilebag(&[
        "rules",
        "show",
        "naspa-2013-csw",
        "--rule",
        "challenge=per-word:10",
    ]);
    assert!(o.status.success(), "{}", said(&o));
    assert!(stdout(&o).contains("[NASPA VI.B.3]"), "{}", said(&o));
    let o = tilebag(&[
        "rules",
        "show",
        "nsa-2011",
        "--rule",
        "challenge=per-word:5",
    ]);
    assert!(stdout(&o).contains("[NSA VI.B.2]"), "{}", said(&o));
}

#[test]
fn gcg_verify_refuses_impossible_records_naming_the_line() {
    let dir = TempDir::new("strict");
    let header = "#player1 a a\n#player2 b b\n";
    let cases = [
        (
            "zzz.gcg",
            format!("{header}>a: ZZZABCD 8G ZA +22 22\n"),
            ":3: the rack ZZZABCD is impossible",
        ),
        (
            "bonus.gcg",
            format!(
                "{header}>a: CATSDOG 8G CAT +10 10\n>b: EEIIOUR - +0 0\n>a: (challenge) +5 15\n"
            ),
            ":5: a challenge bonus belongs right after",
        ),
        (
            "early.gcg",
            format!(
                "{header}>a: CATSDOG - +0 0\n>b: QIEEEEE - +0 0\n>b: QIEEEEE (QIEEEEE) -16 -16\n"
            ),
            ":5: b loses the value of the rack",
        ),
        (
            "time.gcg",
            format!("{header}>a: CATSDOG 8G CAT +10 10\n>a: (time) -10 0\n"),
            ":4: a time penalty before the end",
        ),
        ("empty.gcg", String::new(), ":1: the file holds no game"),
        (
            "twice.gcg",
            format!("{header}#player1 c c\n"),
            ":3: a second #player1",
        ),
        (
            "variant.gcg",
            format!("#game-type wordsmog\n{header}>a: CATSDOG 8G CAT +10 10\n"),
            ":1: the game type \"wordsmog\"",
        ),
        (
            "off.gcg",
            format!("{header}>a: CATSDOG J11 CATSDOG +0 0\n"),
            "square J16 (letter 6",
        ),
    ];
    for (name, text, expected) in &cases {
        let path = dir.write(name, text);
        let o = tilebag(&[
            std::ffi::OsStr::new("gcg"),
            "verify".as_ref(),
            path.as_os_str(),
        ]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", said(&o));
        assert_no_panic(&o);
        assert!(
            stdout(&o).contains(expected),
            "{name}: expected {expected:?}\n{}",
            said(&o)
        );
    }
    // An off-centre first play is accepted with a warning (NASPA III.G.1).
    let path = dir.write(
        "offcentre.gcg",
        &format!("{header}>a: CATSDOG 7G CAT +9 9\n"),
    );
    let o = tilebag(&[
        std::ffi::OsStr::new("gcg"),
        "verify".as_ref(),
        path.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", said(&o));
    assert!(
        stdout(&o).contains("does not cover the centre square H8"),
        "{}",
        said(&o)
    );
}

/// Issue 27: what `gcg verify` tells a person about a bonus no rulebook gives, a rack of more
/// than seven tiles, two players with one nickname and a `#rack1` with moves after it: the
/// line, and what is wrong with it.
#[test]
fn gcg_verify_names_the_line_and_the_fault_of_impossible_records() {
    let dir = TempDir::new("issue27");
    let header = "#player1 a a\n#player2 b b\n";
    let cases = [
        (
            "bonus.gcg",
            format!("{header}>a: CATSDOG 8G CAT +10 10\n>a: CATSDOG (challenge) +7 17\n"),
            ":4: a challenge bonus of +7",
            "it would be 5 or 10",
        ),
        (
            "eight.gcg",
            format!("{header}>a: AEINRSTU 8H RETAINS +66 66\n"),
            ":3: the rack AEINRSTU holds 8 tiles",
            "at most 7",
        ),
        (
            "same_nick.gcg",
            "#player1 a Ann\n#player2 a Al\n>a: CATSDOG 8G CAT +10 10\n".to_string(),
            ":2: #player2 gives the nickname \"a\"",
            "#player1 on line 1 already has",
        ),
        (
            "rack_early.gcg",
            format!("{header}>a: CATSDOG 8G CAT +10 10\n#rack2 EEIIOUS\n>b: EEIIOUS - +0 0\n"),
            ":4: #rack2",
            "line 5",
        ),
    ];
    for (name, text, place, what) in &cases {
        let path = dir.write(name, text);
        let o = tilebag(&[
            std::ffi::OsStr::new("gcg"),
            "verify".as_ref(),
            path.as_os_str(),
        ]);
        assert_eq!(o.status.code(), Some(1), "{name}: {}", said(&o));
        assert_no_panic(&o);
        let out = stdout(&o);
        assert!(
            out.contains(&format!("FAIL {}{place}", path.display())),
            "{name}: {}",
            said(&o)
        );
        assert!(
            out.contains(what),
            "{name}: expected {what:?}\n{}",
            said(&o)
        );
    }
}

/// Issue 27, NASPA V.F: a record other programs wrote of a game the director stopped (scoreless
/// turns, then each player's own rack deducted) verifies as ended by the director, with a
/// warning saying how it was read.
#[test]
fn gcg_verify_reads_a_game_stopped_after_scoreless_turns_as_ended_by_the_director() {
    let dir = TempDir::new("director-ended");
    let path = dir.write(
        "stopped.gcg",
        "#player1 a a\n#player2 b b\n>a: CATSDOG 8G CAT +10 10\n>b: QIEEEEE - +0 0\n\
         >a: SDOGEEE (SDOGEEE) -9 1\n>b: QIEEEEE (QIEEEEE) -16 -16\n",
    );
    let o = tilebag(&[
        std::ffi::OsStr::new("gcg"),
        "verify".as_ref(),
        path.as_os_str(),
    ]);
    assert!(o.status.success(), "{}", said(&o));
    let out = stdout(&o);
    let name = path.display();
    assert!(
        out.contains(&format!("WARN {name}: line 5: ")) && out.contains("NASPA V.F"),
        "{}",
        said(&o)
    );
    assert!(
        out.contains(&format!("OK {name}: final a 1 – b -16 (director-ended)")),
        "{}",
        said(&o)
    );
}

// ---------------------------------------------------------------------------------------------
// moves and analyze: the lexicon a position names, old lexicon files, the preset's exchange rule
// ---------------------------------------------------------------------------------------------

const EMPTY_BOARD: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";

/// The numbered move lines of `moves` output.
fn move_lines(out: &str) -> Vec<&str> {
    out.lines()
        .filter(|l| {
            l.split_whitespace()
                .next()
                .is_some_and(|w| w.parse::<usize>().is_ok())
        })
        .collect()
}

/// A CGP line's `lex` field naming a lexicon that is neither a file nor the built-in ENABLE is
/// an error naming the field (exit 2), not a silent fallback to ENABLE; `--lexicon` takes
/// precedence over the field, and says so; `lex ENABLE1;` is the built-in list, and a field
/// naming a file reads that file.
#[test]
fn moves_refuses_an_unknown_lexicon_named_in_the_cgp_line() {
    let tmp = TempDir::new("moves-lex-field");
    let line = format!("{EMPTY_BOARD} AEINRST/ 0/0 0 lex NWL23;");
    let o = tilebag(&["moves", &line]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
    let err = stderr(&o);
    assert!(
        err.contains("lex field") && err.contains("\"NWL23\"") && err.contains("--lexicon"),
        "{err}"
    );
    assert!(stdout(&o).is_empty(), "no moves listed: {}", said(&o));

    // --lexicon wins over the field, and says so: the plays are the file's words only.
    let words = tmp.write("words.txt", "CAT\nACT\nCATS\nSCAT\n");
    let line = format!("{EMPTY_BOARD} ACTSEIN/ 0/0 0 lex NWL23;");
    let o = tilebag(&[
        "moves",
        &line,
        "--all",
        "--lexicon",
        words.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", said(&o));
    let err = stderr(&o);
    assert!(
        err.contains("--lexicon") && err.contains("takes precedence") && err.contains("NWL23"),
        "{err}"
    );
    assert_only_words(&stdout(&o), &["CAT", "ACT", "CATS", "SCAT"]);

    // The built-in list by name: the opening bingo (66: NASPA A.II's 50-point bonus).
    let o = tilebag(&[
        "moves",
        &format!("{EMPTY_BOARD} AEINRST/ 0/0 0 lex ENABLE1;"),
    ]);
    assert!(o.status.success(), "{}", said(&o));
    assert!(move_lines(&stdout(&o))[0].contains(" 66 "), "{}", said(&o));

    // A field naming a file reads that file.
    let line = format!(
        "{EMPTY_BOARD} ACTSEIN/ 0/0 0 lex {};",
        words.to_str().unwrap()
    );
    let o = tilebag(&["moves", &line, "--all"]);
    assert!(o.status.success(), "{}", said(&o));
    assert_only_words(&stdout(&o), &["CAT", "ACT", "CATS", "SCAT"]);
}

/// Every play listed is one of `words` (on an empty board the word is the move), and each of
/// them is played somewhere.
fn assert_only_words(out: &str, words: &[&str]) {
    let played: Vec<&str> = move_lines(out)
        .iter()
        .filter_map(|l| l.split_whitespace().nth(2))
        .filter(|w| !w.starts_with('-'))
        .collect();
    assert!(played.iter().all(|w| words.contains(w)), "{out}");
    assert!(words.iter().all(|w| played.contains(w)), "{out}");
}

/// `--lexicon` naming a file that does not exist: exit 2, and the message names the file.
#[test]
fn moves_with_a_missing_lexicon_file_names_it() {
    let o = tilebag(&[
        "moves",
        &format!("{EMPTY_BOARD} AB/ 0/0 0"),
        "--lexicon",
        "/no/such/file",
    ]);
    assert_no_panic(&o);
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
    assert!(stderr(&o).contains("/no/such/file"), "{}", said(&o));
}

/// `file` as `lexicon build` wrote it before the GADDAG section existed: META and DAWG only
/// (the layout of `crates/tilebag-lexicon/src/format.rs`).
fn without_gaddag_section(file: &[u8]) -> Vec<u8> {
    use tilebag_lexicon::format::{crc32, TAG_DAWG, TAG_META};
    let u32_at = |at: usize| u32::from_le_bytes(file[at..at + 4].try_into().unwrap()) as usize;
    let keep: Vec<(&[u8], &[u8], &[u8])> = (0..u32_at(8))
        .map(|i| 16 + 16 * i)
        .map(|e| {
            let (off, len) = (u32_at(e + 8), u32_at(e + 12));
            (&file[e..e + 4], &file[e + 4..e + 8], &file[off..off + len])
        })
        .filter(|(tag, _, _)| *tag == TAG_META || *tag == TAG_DAWG)
        .collect();
    assert_eq!(keep.len(), 2);
    let mut out = file[..8].to_vec();
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&0u32.to_le_bytes());
    let mut offset = 16 + 16 * keep.len();
    for (tag, flags, data) in &keep {
        out.extend_from_slice(tag);
        out.extend_from_slice(flags);
        out.extend_from_slice(&(offset as u32).to_le_bytes());
        out.extend_from_slice(&(data.len() as u32).to_le_bytes());
        offset += data.len().next_multiple_of(4);
    }
    for (_, _, data) in &keep {
        out.extend_from_slice(data);
        out.resize(out.len().next_multiple_of(4), 0);
    }
    let crc = crc32(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// A built lexicon file from before the GADDAG section still generates moves: the GADDAG is
/// built in memory, the command says so, and the moves are those of a file that has the
/// section.
#[test]
fn moves_with_a_lexicon_file_without_its_gaddag_section_builds_it_in_memory() {
    let tmp = TempDir::new("moves-old-tblex");
    let lex = tilebag_lexicon::Lexicon::from_words(
        [
            "CAT", "CATS", "ACT", "ACTS", "SCAT", "TACE", "TACES", "CASTE",
        ],
        "old",
    )
    .unwrap();
    let new_file = lex.to_bytes();
    let old_file = without_gaddag_section(&new_file);
    assert!(old_file.len() < new_file.len());
    let old = tmp.0.join("old.tblex");
    let new = tmp.0.join("new.tblex");
    std::fs::write(&old, &old_file).unwrap();
    std::fs::write(&new, &new_file).unwrap();
    let line = format!("{EMPTY_BOARD} ACETSOO/ 0/0 0");
    let run =
        |path: &Path| tilebag(&["moves", &line, "--all", "--lexicon", path.to_str().unwrap()]);
    let (o_old, o_new) = (run(&old), run(&new));
    assert!(o_old.status.success(), "{}", said(&o_old));
    assert!(o_new.status.success(), "{}", said(&o_new));
    let err = stderr(&o_old);
    assert!(
        err.contains("old.tblex") && err.contains("no GADDAG section") && err.contains("in memory"),
        "{err}"
    );
    assert!(
        !stderr(&o_new).contains("GADDAG"),
        "a new file has its section: {}",
        said(&o_new)
    );
    assert_eq!(stdout(&o_old), stdout(&o_new));
    let out = stdout(&o_old);
    let plays: Vec<&str> = move_lines(&out)
        .into_iter()
        .filter(|l| !l.contains("exch") && !l.contains("pass"))
        .collect();
    assert!(
        plays
            .iter()
            .any(|l| l.contains("CASTE") || l.contains("TACES")),
        "{out}"
    );

    // The benchmark reports where its GADDAG came from too.
    let positions = tmp.write("p.cgp", &format!("{line}\n"));
    let bench = |path: &Path| {
        tilebag(&[
            "bench",
            "movegen",
            positions.to_str().unwrap(),
            "--lexicon",
            path.to_str().unwrap(),
            "--repeat",
            "1",
        ])
    };
    let o = bench(&old);
    assert!(o.status.success(), "{}", said(&o));
    assert!(stdout(&o).contains("built in memory"), "{}", said(&o));
    let o = bench(&new);
    assert!(stdout(&o).contains("from the file"), "{}", said(&o));
}

/// A position whose bag holds `bag` tiles (the rack AEINRST, the opponent's rack unknown): the
/// board takes the rest of the letters, row by row.
fn position_with_bag(bag: usize) -> String {
    // The English set without its two blanks (which stay unseen).
    let dist = "A9B2C2D4E12F2G3H2I9J1K1L4M2N6O8P2Q1R6S4T6U4V2W2X1Y2Z1";
    let mut pool = Vec::new();
    let mut chars = dist.chars().peekable();
    while let Some(letter) = chars.next() {
        let mut n = String::new();
        while let Some(d) = chars.next_if(|c| c.is_ascii_digit()) {
            n.push(d);
        }
        pool.extend(std::iter::repeat_n(letter, n.parse().unwrap()));
    }
    for t in "AEINRST".chars() {
        let i = pool.iter().position(|&c| c == t).unwrap();
        pool.remove(i);
    }
    // 100 tiles: the rack's 7, the opponent's 7, the bag's, and the board the rest.
    let on_board = 100 - 7 - 7 - bag;
    let tiles = &pool[..on_board];
    let rows: Vec<String> = (0..15)
        .map(|r| {
            let row: String = tiles.iter().skip(r * 15).take(15).collect();
            match row.len() {
                0 => "15".to_string(),
                15 => row,
                n => format!("{row}{}", 15 - n),
            }
        })
        .collect();
    format!("{} AEINRST/ 0/0 0", rows.join("/"))
}

/// `moves` and `analyze` take the preset's exchange rule (`--preset`, default naspa-2013): an
/// exchange needs at least 7 tiles in the bag under every preset (NASPA IV.E.2.a, WESPA
/// 3.2.1(a), SANSPA 10.2), so exchanges are listed with 7 in the bag and not with 6. An unknown
/// preset is an error naming the option.
#[test]
fn moves_and_analyze_use_the_presets_exchange_rule() {
    for preset in PRESETS {
        for (bag, listed) in [(7, true), (6, false)] {
            let o = tilebag(&[
                "moves",
                &position_with_bag(bag),
                "--all",
                "--preset",
                preset,
            ]);
            assert!(o.status.success(), "{preset}, bag {bag}: {}", said(&o));
            let out = stdout(&o);
            let exchanges = move_lines(&out)
                .iter()
                .filter(|l| l.contains("exch"))
                .count();
            assert_eq!(exchanges > 0, listed, "{preset}, bag {bag}: {out}");
            assert_eq!(
                out.contains("exchanges and pass"),
                listed,
                "{preset}, bag {bag}: {out}"
            );
            if listed {
                // Every distinct sub-rack of AEINRST (seven different letters): 2^7 - 1.
                assert_eq!(exchanges, 127, "{preset}: {out}");
            }
        }
    }
    let o = tilebag(&["moves", &position_with_bag(7), "--preset", "nope"]);
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
    assert!(stderr(&o).contains("--preset") && stderr(&o).contains("naspa-2013"));

    let tmp = TempDir::new("analyze-preset");
    let game = tmp.write("game.gcg", &two_moves("+16", "16"));
    let o = tilebag(&["analyze", game.to_str().unwrap(), "--preset", "wespa-2010"]);
    assert!(o.status.success(), "{}", said(&o));
    assert!(stdout(&o).contains("played 7C GALE"), "{}", said(&o));
    let o = tilebag(&["analyze", game.to_str().unwrap(), "--preset", "nope"]);
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
    assert!(stderr(&o).contains("--preset"), "{}", said(&o));
}

/// `tilebag serve --leaves NAME=FILE` (issue 26, item 2): a table for a lexicon that is not
/// loaded, or a file that is not a leave table, stops the server before it starts, naming the
/// flag, the lexicon or the file.
#[test]
fn serve_refuses_leaves_for_an_unknown_lexicon_or_a_bad_file() {
    let dir = TempDir::new("serve-leaves");
    let db = dir.0.join("t.db");
    let db = db.to_str().unwrap();
    let o = tilebag(&[
        "serve",
        "--database",
        db,
        "--port",
        "0",
        "--leaves",
        "csw=x.klv2",
    ]);
    assert!(!o.status.success(), "{}", said(&o));
    assert!(stderr(&o).contains("no lexicon \"csw\""), "{}", said(&o));
    let bad = dir.write("bad.klv2", "AEINST not-a-number\n");
    let spec = format!("enable1={}", bad.display());
    let o = tilebag(&["serve", "--database", db, "--port", "0", "--leaves", &spec]);
    assert!(!o.status.success(), "{}", said(&o));
    assert!(stderr(&o).contains("bad.klv2"), "{}", said(&o));
    assert_no_panic(&o);
}
