//! The lexicon and judge commands as a user runs them.

mod support;

use std::path::PathBuf;
use std::process::{Command, Output, Stdio};
use support::tilebag;

fn temp_dir(name: &str) -> PathBuf {
    support::temp_dir("tilebag-lexcli", name)
}

fn text(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr)
}

#[test]
fn build_info_and_judge_a_word_list() {
    let d = temp_dir("build");
    let words = d.join("mini.txt");
    std::fs::write(&words, "# my list\r\ncat\r\nDOG\r\n\r\nqi\r\nza\r\n").unwrap();
    let out = d.join("mini.tblex");
    let o = tilebag(&[
        "lexicon",
        "build",
        words.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("4 words"), "{}", text(&o));
    let o = tilebag(&["lexicon", "info", out.to_str().unwrap()]);
    let t = text(&o);
    assert!(o.status.success(), "{t}");
    assert!(t.contains("words: 4"), "{t}");
    assert!(t.contains("2:2 3:2"), "{t}");
    assert!(t.contains("QI yes"), "{t}");
    let log = d.join("judge.log");
    let judge = |words: &[&str]| {
        let mut args = vec![
            "judge",
            "--lexicon",
            out.to_str().unwrap(),
            "--log",
            log.to_str().unwrap(),
            "--words",
        ];
        args.extend_from_slice(words);
        tilebag(&args)
    };
    let o = judge(&["cat", "QI"]);
    assert_eq!(o.status.code(), Some(0));
    assert_eq!(String::from_utf8_lossy(&o.stdout).trim(), "ACCEPTABLE");
    // One phony among three words: NOT ACCEPTABLE, and nothing names the phony.
    let o = judge(&["CAT", "DOGE", "ZA"]);
    assert_eq!(o.status.code(), Some(1));
    let t = text(&o);
    assert_eq!(t.trim(), "NOT ACCEPTABLE");
    assert!(!t.contains("DOGE"));
    let logged = std::fs::read_to_string(&log).unwrap();
    assert_eq!(logged.lines().count(), 2);
    assert!(
        logged
            .lines()
            .nth(1)
            .unwrap()
            .ends_with("\tCAT DOGE ZA\tNOT ACCEPTABLE\tmini.txt"),
        "{logged}"
    );
    // A plain word list and the built file judge alike.
    let o = tilebag(&[
        "judge",
        "--lexicon",
        words.to_str().unwrap(),
        "--log",
        log.to_str().unwrap(),
        "--words",
        "dog",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
}

#[test]
fn the_built_in_enable_list_judges_when_no_lexicon_is_named() {
    let d = temp_dir("builtin");
    let log = d.join("j.log");
    let o = tilebag(&[
        "judge",
        "--log",
        log.to_str().unwrap(),
        "--words",
        "aardvark",
        "zyzzyva",
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    // ENABLE lacks QI; and words over 15 letters can never be played.
    let o = tilebag(&["judge", "--log", log.to_str().unwrap(), "--words", "qi"]);
    assert_eq!(o.status.code(), Some(1));
    let o = tilebag(&[
        "judge",
        "--log",
        log.to_str().unwrap(),
        "--words",
        "electroencephalographically",
    ]);
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn the_judge_reads_challenges_from_a_pipe_one_verdict_per_line() {
    use std::io::Write;
    let d = temp_dir("pipe");
    let log = d.join("j.log");
    let mut child = Command::new(env!("CARGO_BIN_EXE_tilebag"))
        .args(["judge", "--log", log.to_str().unwrap()])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"cat dog\n\nqi cat\nc4t\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let lines: Vec<String> = String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines[0], "ACCEPTABLE");
    assert_eq!(lines[1], "NOT ACCEPTABLE");
    assert!(lines[2].starts_with("ERROR"), "{lines:?}");
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 2);
}

#[test]
fn bad_word_lists_and_corrupt_files_get_clear_errors() {
    let d = temp_dir("bad");
    let words = d.join("bad.txt");
    std::fs::write(&words, "CAT\nD0G\n").unwrap();
    let o = tilebag(&[
        "lexicon",
        "build",
        words.to_str().unwrap(),
        "-o",
        d.join("x.tblex").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2));
    let t = text(&o);
    assert!(t.contains("line 2") && t.contains('0'), "{t}");
    assert!(!t.contains("panicked"), "{t}");
    // A truncated built file.
    let good = d.join("good.txt");
    std::fs::write(&good, "CAT\nDOG\n").unwrap();
    let built = d.join("good.tblex");
    assert!(tilebag(&[
        "lexicon",
        "build",
        good.to_str().unwrap(),
        "-o",
        built.to_str().unwrap()
    ])
    .status
    .success());
    let bytes = std::fs::read(&built).unwrap();
    std::fs::write(&built, &bytes[..bytes.len() / 2]).unwrap();
    let o = tilebag(&["lexicon", "info", built.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(2));
    assert!(!text(&o).contains("panicked"), "{}", text(&o));
}

#[test]
fn shared_gcg_verify_with_a_lexicon_lists_the_phonies_without_failing() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/gcg");
    let file = root.join("liwords/many_challenges.gcg");
    if !file.exists() {
        eprintln!("skipping: ../shared/gcg not found (a fresh clone without the shared corpus)");
        return;
    }
    let d = temp_dir("phonies");
    let words = d.join("w.txt");
    // A list lacking STRAINT (played, challenged and kept in this game) and MAZINGS (withdrawn).
    std::fs::write(&words, "GOD\nIWI\n").unwrap();
    let o = tilebag(&[
        "gcg",
        "verify",
        "--lexicon",
        words.to_str().unwrap(),
        file.to_str().unwrap(),
    ]);
    let t = text(&o);
    assert_eq!(o.status.code(), Some(0), "{t}");
    assert!(t.contains("PHONIES"), "{t}");
    assert!(t.contains("STRAINT (line 8)"), "{t}");
    assert!(t.contains("MAZINGS (line 22, withdrawn)"), "{t}");
    assert!(!t.contains("GOD ("), "{t}");
    assert!(t.contains("OK "), "{t}");
}

#[test]
fn the_engine_judges_challenges_and_the_void_rule_with_a_lexicon() {
    use tilebag_core::game::{Action, Actor, Effect, Event, Game};
    use tilebag_core::{Placement, Position, Ruleset, TileSet};
    use tilebag_lexicon::WordSource;
    let enable = WordSource::builtin();
    let set = TileSet::english();
    let t = |s: &str| set.parse_tiles(s).unwrap();
    let place = |g: &Game, pos: &str, word: &str| {
        Placement::from_gcg(
            g.board(),
            g.layout(),
            g.tile_set(),
            Position::parse(pos, 15).unwrap(),
            word,
        )
        .unwrap()
    };
    let ev = |seat, at_ms, action| Event {
        actor: Actor::Seat(seat),
        at_ms,
        action,
    };
    // Double challenge: ZAX stands (ENABLE has it), the challenger loses the turn.
    let mut g = Game::custom(
        Ruleset::naspa_2013(),
        1,
        [t("ZAXQIEE"), t("AEIOUST")],
        t("EEEEEEEEEE"),
    );
    let p = place(&g, "8G", "ZAX");
    g.apply(&ev(0, 1_000, Action::Play { placement: p }), &enable)
        .unwrap();
    let fx = g
        .apply(&ev(1, 2_000, Action::Challenge { words: vec![] }), &enable)
        .unwrap();
    assert!(fx.contains(&Effect::Verdict { acceptable: true }));
    assert_eq!(g.to_move(), 0);
    // QI is not in ENABLE: withdrawn.
    let p = place(&g, "9G", "QI");
    g.apply(&ev(0, 3_000, Action::Play { placement: p }), &enable)
        .unwrap();
    let fx = g
        .apply(&ev(1, 4_000, Action::Challenge { words: vec![] }), &enable)
        .unwrap();
    assert!(fx.contains(&Effect::Verdict { acceptable: false }));
    // Void rule: the same play is refused outright.
    let mut r = Ruleset::naspa_2013();
    r.challenge = tilebag_core::ruleset::ChallengeRule::Void;
    let mut g = Game::custom(r, 1, [t("QIZAXEE"), t("AEIOUST")], t("EEEEEEEEEE"));
    let p = place(&g, "8G", "QI");
    assert!(g
        .apply(&ev(0, 1_000, Action::Play { placement: p }), &enable)
        .is_err());
    let p = place(&g, "8G", "ZAX");
    assert!(g
        .apply(&ev(0, 1_000, Action::Play { placement: p }), &enable)
        .is_ok());
}
