//! The engine's commands, run as a user runs them: `moves`, `gcg show --cgp`, `selfplay`,
//! `analyze`, `leaves train`, `bench movegen` and `bench endgame`. Fixtures are made here (a self-played game is
//! our own record); nothing is read from `../shared`.

mod support;

use std::path::PathBuf;
use std::process::Output;
use support::{said, temp_dir, tilebag};

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn dir(name: &str) -> PathBuf {
    temp_dir("tilebag-engine-cli", name)
}

const EMPTY: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";

#[test]
fn moves_for_an_opening_rack_lists_the_bingo_first() {
    // AEINRST on an empty board: a seven-letter word through the centre covering one double
    // letter square on row 8 scores (7 letters x 1 + 1 more for the DL) x 2 for the centre
    // = 16, plus the 50-point bingo bonus (NASPA A.II) = 66.
    let o = tilebag(&["moves", &format!("{EMPTY} AEINRST/ 0/0 0"), "--top", "3"]);
    assert!(o.status.success(), "{}", said(&o));
    let s = out(&o);
    let first = s
        .lines()
        .find(|l| l.trim_start().starts_with("1 "))
        .unwrap();
    assert!(first.contains(" 66 "), "{}", s);
    assert!(s.contains("placements"), "{s}");
}

#[test]
fn bad_positions_get_errors_that_name_the_field() {
    for (line, want) in [
        (format!("{EMPTY} ZZZ/ 0/0 0"), "3 Zs"),
        (format!("{EMPTY} AB1/ 0/0 0"), "racks field"),
        ("15/15 AB/ 0/0 0".to_string(), "2 rows"),
        (format!("{EMPTY} AB/ 0/x 0"), "scores field"),
    ] {
        let o = tilebag(&["moves", &line]);
        assert_eq!(o.status.code(), Some(2), "{}", said(&o));
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(e.contains(want), "{line}: {e}");
    }
    let o = tilebag(&[
        "moves",
        &format!("{EMPTY} AB/ 0/0 0"),
        "--lexicon",
        "/no/such/file",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
}

#[test]
fn selfplay_writes_games_that_verify_and_analyze_reads_them() {
    let d = dir("selfplay");
    let o = tilebag(&[
        "selfplay",
        "--games",
        "2",
        "--bots",
        "static,beginner",
        "-o",
        d.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", said(&o));
    let s = out(&o);
    assert!(s.contains("win rate of static"), "{s}");
    assert!(s.contains("every game's GCG verifies"), "{s}");
    let game = d.join("game-00001.gcg");
    let v = tilebag(&["gcg", "verify", game.to_str().unwrap()]);
    assert!(v.status.success(), "{}", said(&v));
    assert!(out(&v).starts_with("OK"), "{}", said(&v));

    // The static bot's own moves lose no equity by its own measure.
    let notes = d.join("annotated.gcg");
    let a = tilebag(&[
        "analyze",
        game.to_str().unwrap(),
        "--top",
        "2",
        "--gcg",
        notes.to_str().unwrap(),
    ]);
    assert!(a.status.success(), "{}", said(&a));
    let s = out(&a);
    let static_line = s
        .lines()
        .find(|l| l.starts_with("static_1:"))
        .unwrap_or_else(|| panic!("{s}"));
    assert!(static_line.contains("equity lost 0.0"), "{static_line}");
    let beginner_line = s.lines().find(|l| l.starts_with("beginner_2:")).unwrap();
    assert!(
        !beginner_line.contains("equity lost 0.0 "),
        "{beginner_line}"
    );
    let written = std::fs::read_to_string(&notes).unwrap();
    assert!(
        written.contains("#note tilebag analysis: played"),
        "{written}"
    );
    // The annotated record still verifies.
    let v = tilebag(&["gcg", "verify", notes.to_str().unwrap()]);
    assert!(v.status.success(), "{}", said(&v));

    // gcg show --cgp gives a position `moves` reads back.
    let c = tilebag(&[
        "gcg",
        "show",
        "--cgp",
        "--turn",
        "4",
        game.to_str().unwrap(),
    ]);
    assert!(c.status.success(), "{}", said(&c));
    let cgp = out(&c).trim().to_string();
    assert_eq!(
        cgp.split(' ').next().unwrap().split('/').count(),
        15,
        "{cgp}"
    );
    let m = tilebag(&["moves", &cgp, "--top", "1"]);
    assert!(m.status.success(), "{}", said(&m));
    let m2 = tilebag(&[
        "moves",
        "--gcg",
        game.to_str().unwrap(),
        "--turn",
        "5",
        "--top",
        "1",
    ]);
    assert!(m2.status.success(), "{}", said(&m2));
    assert_eq!(
        out(&m).lines().last(),
        out(&m2).lines().last(),
        "the CGP and the record give the same position"
    );
}

#[test]
fn unknown_bots_are_refused_by_name() {
    let o = tilebag(&["selfplay", "--games", "1", "--bots", "static,grandmaster"]);
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
    assert!(String::from_utf8_lossy(&o.stderr).contains("\"grandmaster\""));
}

#[test]
fn leaves_train_writes_weights_and_resumes() {
    let d = dir("leaves");
    let file = d.join("leaves.txt");
    let f = file.to_str().unwrap();
    let o = tilebag(&["leaves", "train", "--games", "4", "-o", f, "--threads", "1"]);
    assert!(o.status.success(), "{}", said(&o));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.contains("games 4"), "{text}");
    let o = tilebag(&[
        "leaves",
        "train",
        "--games",
        "6",
        "-o",
        f,
        "--resume",
        "--threads",
        "1",
    ]);
    assert!(o.status.success(), "{}", said(&o));
    assert!(std::fs::read_to_string(&file).unwrap().contains("games 6"));
    // The weights are usable by selfplay.
    let o = tilebag(&["selfplay", "--games", "1", "--leaves", f]);
    assert!(o.status.success(), "{}", said(&o));
}

#[test]
fn bench_movegen_counts_placements() {
    let d = dir("bench");
    let file = d.join("p.cgp");
    std::fs::write(
        &file,
        format!("{EMPTY} AEINRST/ 0/0 0\n{EMPTY} QI/ 0/0 0\n"),
    )
    .unwrap();
    let o = tilebag(&["bench", "movegen", file.to_str().unwrap(), "--repeat", "1"]);
    assert!(o.status.success(), "{}", said(&o));
    let s = out(&o);
    assert!(s.contains("positions 2"), "{s}");
    // QI is not in ENABLE: the second rack has no placement at all.
    let n: u64 = s
        .lines()
        .find_map(|l| l.strip_prefix("placements "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(n > 100, "{s}");
    // The best by score: AEINRST makes a seven-letter word through the centre (a bingo: at
    // least 7 × 1 × 2 + 50 = 64); QI has nothing, so one position has a best move.
    let o = tilebag(&[
        "bench",
        "movegen",
        file.to_str().unwrap(),
        "--repeat",
        "1",
        "--top",
        "1",
    ]);
    assert!(o.status.success(), "{}", said(&o));
    let s = out(&o);
    assert!(
        s.contains("placements 1 (the best by score of each position that has one)"),
        "{s}"
    );
    let best: i64 = s
        .lines()
        .find_map(|l| l.strip_prefix("best scores total "))
        .unwrap()
        .parse()
        .unwrap();
    assert!(best >= 64, "{s}");
}

#[test]
fn bench_endgame_plays_out_endgames_with_the_deeper_search_in_each_seat() {
    let d = dir("bench-endgame");
    let file = d.join("e.cgp");
    // Bag-empty endgames on a board holding HOUSE: two tiles against one (searched to the end
    // in no time), and full racks against a few tiles.
    let board = "15/15/15/15/15/15/15/3HOUSE7/15/15/15/15/15/15/15";
    std::fs::write(
        &file,
        format!("{board} AT/Z 300/310 0\n{board} AEIRSTQ/XYJ 280/300 0\n"),
    )
    .unwrap();
    let o = tilebag(&["bench", "endgame", file.to_str().unwrap(), "--ms", "300"]);
    assert!(o.status.success(), "{}", said(&o));
    let s = out(&o);
    assert!(s.contains("positions 2"), "{s}");
    // Each position is played with the deeper search in seat 0, then in seat 1: 4 endgames.
    assert!(s.contains(" of 4 endgames"), "{s}");
    assert!(
        s.contains("deeper search (300 ms per move) v two-ply"),
        "{s}"
    );
    // Three tiles in all: the search reaches its full depth at once.
    assert!(s.contains("8 plies: "), "{s}");
    assert!(s.contains("each deeper search on 1 thread"), "{s}");

    // Each deeper search on two threads: the same endgames, one position at a time.
    let o = tilebag(&[
        "bench",
        "endgame",
        file.to_str().unwrap(),
        "--ms",
        "300",
        "--search-threads",
        "2",
    ]);
    assert!(o.status.success(), "{}", said(&o));
    let s = out(&o);
    assert!(s.contains(" of 4 endgames"), "{s}");
    assert!(s.contains("8 plies: "), "{s}");
    assert!(s.contains("each deeper search on 2 threads"), "{s}");

    // A line that cannot be read is named.
    std::fs::write(
        &file,
        format!("{board} AT/Z 300/310 0\n{board} A1/Z x/y 0\n"),
    )
    .unwrap();
    let o = tilebag(&["bench", "endgame", file.to_str().unwrap()]);
    assert!(!o.status.success(), "{}", said(&o));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("e.cgp:2"), "{err}");
}
