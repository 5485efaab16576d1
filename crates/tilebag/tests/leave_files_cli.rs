//! Leave files from the command line: `tilebag leaves convert` between `.klv2`, `.klv`, text
//! and tilebag's weights; `--leaves FILE` for `moves`, `analyze` and `selfplay`; a bot naming
//! its own leave file (`--bots static,static:FILE`) in a match of paired bags. Fixtures are
//! made here; the one test that reads `../shared` says so in its name and skips without it.

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;
use support::{said, temp_dir, tilebag};

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn dir(name: &str) -> PathBuf {
    temp_dir("tilebag-leave-files", name)
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const EMPTY: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";

/// The shipped weights (tilebag's own text form).
fn shipped_weights() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tilebag-engine/data/enable-leaves.txt")
}

/// The built-in leave table, as the file it is embedded from.
fn shipped_table() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tilebag-engine/data/enable.klv2")
}

#[test]
fn leaves_convert_goes_between_weights_klv2_klv_and_text() {
    let d = dir("convert");
    let (klv2, klv, txt, again) = (
        d.join("ours.klv2"),
        d.join("ours.klv"),
        d.join("ours.txt"),
        d.join("again.klv2"),
    );
    // The weights evaluated on every leave.
    let o = tilebag(&["leaves", "convert", s(&shipped_weights()), s(&klv2)]);
    assert!(o.status.success(), "{}", said(&o));
    let said_out = out(&o);
    assert!(
        said_out.contains("(weights): 914624 of 914624 leaves have a value"),
        "{said_out}"
    );
    assert!(said_out.contains("(klv2, 3667340 bytes)"), "{said_out}");
    assert_eq!(std::fs::metadata(&klv2).unwrap().len(), 3_667_340);
    // .klv2 -> text -> .klv2 gives the same bytes; .klv is 2 bytes a value shorter.
    let o = tilebag(&["leaves", "convert", s(&klv2), s(&txt)]);
    assert!(o.status.success(), "{}", said(&o));
    assert!(out(&o).contains("(klv2): 914624 of 914624"), "{}", said(&o));
    let text = std::fs::read_to_string(&txt).unwrap();
    assert_eq!(
        text.lines().count(),
        1 + 914_624,
        "a header and a line a leave"
    );
    assert!(
        text.lines().nth(1).unwrap().starts_with("? "),
        "{:.100}",
        text
    );
    assert!(
        text.lines().last().unwrap().starts_with("Z "),
        "the last leave"
    );
    let o = tilebag(&["leaves", "convert", s(&txt), s(&again)]);
    assert!(o.status.success(), "{}", said(&o));
    assert!(std::fs::read(&again).unwrap() == std::fs::read(&klv2).unwrap());
    let o = tilebag(&["leaves", "convert", s(&klv2), s(&klv)]);
    assert!(o.status.success(), "{}", said(&o));
    assert!(
        out(&o).contains("rounded to 1/256 of a point"),
        "{}",
        said(&o)
    );
    assert_eq!(
        std::fs::metadata(&klv).unwrap().len(),
        3_667_340 - 2 * 914_624
    );
    // .klv back to .klv2: the same DAWG, values within 1/512 of a point of the text's.
    let back = d.join("back.txt");
    let o = tilebag(&["leaves", "convert", s(&klv), s(&back)]);
    assert!(o.status.success(), "{}", said(&o));
    assert!(out(&o).contains("(klv): 914624 of 914624"), "{}", said(&o));
    let rounded = std::fs::read_to_string(&back).unwrap();
    for (a, b) in text.lines().zip(rounded.lines()).skip(1).step_by(997) {
        let (la, va) = a.split_once(' ').unwrap();
        let (lb, vb) = b.split_once(' ').unwrap();
        assert_eq!(la, lb);
        let (va, vb): (f64, f64) = (va.parse().unwrap(), vb.parse().unwrap());
        assert!((va - vb).abs() <= 1.0 / 512.0 + 1e-6, "{a} / {b}");
    }
}

#[test]
fn a_leave_file_that_cannot_be_read_is_refused_naming_the_file_and_line() {
    let d = dir("bad");
    let bad = d.join("bad.txt");
    std::fs::write(&bad, "S 8.5\nQQ 1\n").unwrap();
    for args in [
        vec!["leaves", "convert", s(&bad), "x.klv2"],
        vec!["selfplay", "--games", "2", "--leaves", s(&bad)],
        vec![
            "moves",
            &format!("{EMPTY} AEIQRST/ 0/0 0"),
            "--leaves",
            s(&bad),
        ],
    ] {
        let o = tilebag(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", said(&o));
        let e = String::from_utf8_lossy(&o.stderr);
        assert!(
            e.contains("bad.txt") && e.contains("line 2"),
            "{args:?}: {e}"
        );
    }
    let o = tilebag(&["selfplay", "--games", "2", "--bots", "static,static:"]);
    assert_eq!(o.status.code(), Some(2), "{}", said(&o));
}

#[test]
fn moves_values_leaves_from_the_file_it_is_given() {
    let d = dir("moves");
    // Keeping a lone Q worth 100 points, every other leave nothing.
    let q = d.join("q.txt");
    std::fs::write(&q, "# one leave\nQ 100\n").unwrap();
    let cgp = format!("{EMPTY} AEIQRST/ 0/0 0");
    let o = tilebag(&["moves", &cgp, "--top", "1", "--leaves", s(&q)]);
    assert!(o.status.success(), "{}", said(&o));
    let first = out(&o)
        .lines()
        .find(|l| l.trim_start().starts_with("1 "))
        .unwrap()
        .to_string();
    assert!(first.trim_end().ends_with(" Q"), "keeps the Q: {first}");
    // With the built-in table the best move does not keep a lone Q.
    let o = tilebag(&["moves", &cgp, "--top", "1"]);
    let first = out(&o)
        .lines()
        .find(|l| l.trim_start().starts_with("1 "))
        .unwrap()
        .to_string();
    assert!(!first.trim_end().ends_with(" Q"), "{first}");
}

/// Two static bots, the second with its own leave file: each bag is played twice with the
/// seats swapped (the same opening rack for whoever moves first in both games of a pair), and
/// the figures are the first bot's.
#[test]
fn selfplay_pairs_bags_and_a_bot_names_its_own_leave_file() {
    let d = dir("selfplay");
    let zeros = d.join("zeros.txt");
    std::fs::write(&zeros, "# every leave worth nothing\n").unwrap();
    let games = d.join("games");
    let bots = format!("static,static:{}", s(&zeros));
    let o = tilebag(&[
        "selfplay",
        "--games",
        "3",
        "--bots",
        &bots,
        "--threads",
        "2",
        "-o",
        s(&games),
    ]);
    assert!(o.status.success(), "{}", said(&o));
    let text = out(&o);
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("4 games"),
        "{}",
        said(&o)
    );
    assert!(
        text.contains("4 games (2 pairs of bags, seats swapped)"),
        "{text}"
    );
    let win = text
        .lines()
        .find(|l| l.starts_with("win rate of static: "))
        .unwrap_or_else(|| panic!("{text}"));
    assert!(win.contains("% (95% CI ") && win.contains("%–"), "{win}");
    assert!(text.contains("mean spread of static: "), "{text}");
    assert!(
        text.contains("bingos a game: static ") && text.contains(&bots[7..]),
        "{text}"
    );
    assert!(text.contains("games per second"), "{text}");
    assert!(text.contains("every game's GCG verifies"), "{text}");
    // Game 1: the first bot in seat 1; game 2: the same bag, the second bot in seat 1.
    let g1 = std::fs::read_to_string(games.join("game-00001.gcg")).unwrap();
    let g2 = std::fs::read_to_string(games.join("game-00002.gcg")).unwrap();
    assert!(g1.contains("tilebag static (seat 1)"), "{g1}");
    assert!(
        g2.contains(&format!("tilebag {} (seat 1)", &bots[7..])),
        "{g2}"
    );
    let opening_rack = |g: &str| {
        g.lines()
            .find(|l| l.starts_with('>'))
            .and_then(|l| l.split_whitespace().nth(1))
            .unwrap()
            .to_string()
    };
    assert_eq!(opening_rack(&g1), opening_rack(&g2), "the same bag");
    for i in 1..=4 {
        let v = tilebag(&["gcg", "verify", s(&games.join(format!("game-{i:05}.gcg")))]);
        assert!(v.status.success(), "{}", said(&v));
    }
}

#[test]
fn analyze_reads_a_leave_file() {
    let d = dir("analyze");
    let games = d.join("games");
    let o = tilebag(&["selfplay", "--games", "2", "-o", s(&games)]);
    assert!(o.status.success(), "{}", said(&o));
    let game = games.join("game-00001.gcg");
    let builtin = tilebag(&["analyze", s(&game), "--top", "1"]);
    assert!(builtin.status.success(), "{}", said(&builtin));
    // The built-in table named as a file: the same analysis, line for line.
    let table = tilebag(&[
        "analyze",
        s(&game),
        "--top",
        "1",
        "--leaves",
        s(&shipped_table()),
    ]);
    assert!(table.status.success(), "{}", said(&table));
    assert_eq!(out(&table), out(&builtin));
    // tilebag's weights model as a .klv2 file: another analysis.
    let klv2 = d.join("ours.klv2");
    let o = tilebag(&["leaves", "convert", s(&shipped_weights()), s(&klv2)]);
    assert!(o.status.success(), "{}", said(&o));
    let weights = tilebag(&["analyze", s(&game), "--top", "1", "--leaves", s(&klv2)]);
    assert!(weights.status.success(), "{}", said(&weights));
    assert_ne!(out(&weights), out(&builtin));
    // A table where every leave is worth nothing: equities are plain scores.
    let zeros = d.join("zeros.txt");
    std::fs::write(&zeros, "").unwrap();
    let plain = tilebag(&["analyze", s(&game), "--top", "1", "--leaves", s(&zeros)]);
    assert!(plain.status.success(), "{}", said(&plain));
    assert_ne!(out(&plain), out(&weights));
}

/// The reference table beside the project (`../shared/leaves`) through text and back: the
/// same bytes.
#[test]
fn leaves_convert_round_trips_shared_reference_klv2() {
    let reference = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/leaves/reference-TWL06.klv2");
    if !reference.exists() {
        eprintln!(
            "skipping: {} is absent (the shared files sit beside the project in CI)",
            reference.display()
        );
        return;
    }
    let d = dir("shared");
    let (txt, back) = (d.join("ref.txt"), d.join("ref.klv2"));
    let o = tilebag(&["leaves", "convert", s(&reference), s(&txt)]);
    assert!(o.status.success(), "{}", said(&o));
    assert!(out(&o).contains("(klv2): 914624 of 914624"), "{}", said(&o));
    let o = tilebag(&["leaves", "convert", s(&txt), s(&back)]);
    assert!(o.status.success(), "{}", said(&o));
    assert!(std::fs::read(&back).unwrap() == std::fs::read(&reference).unwrap());
}
