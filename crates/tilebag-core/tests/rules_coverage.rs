//! docs/rules-coverage.md must only name tests that exist: every `enforced` row names at least one
//! test, and each named test is a `fn` in the workspace's sources (any crate's `src/` or `tests/`).
//! A row whose subject names a premium square, or another thing a test can be seen to be about
//! (a blank, a bingo, an exchange, a pass, ...), must name at least one test whose code mentions
//! it: a triple-word row that names three tests without a triple-word square fails.

use std::path::Path;

fn read_all_rs(dir: &Path, out: &mut String) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            read_all_rs(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push_str(&std::fs::read_to_string(&p).unwrap());
        }
    }
}

#[test]
fn rules_coverage_enforced_rows_name_tests_that_exist() {
    let doc = coverage_doc();
    let sources = workspace_sources();
    let mut checked = 0;
    for (n, line) in doc.lines().enumerate() {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 5 || cells[3] != "enforced" {
            continue;
        }
        let names: Vec<&str> = cells[4].split('`').skip(1).step_by(2).collect();
        assert!(
            !names.is_empty(),
            "line {}: an enforced row names no test: {line}",
            n + 1
        );
        for name in names {
            let f = name.rsplit("::").next().unwrap();
            assert!(
                sources.contains(&format!("fn {f}(")),
                "line {}: the test {name} does not exist",
                n + 1
            );
            checked += 1;
        }
    }
    assert!(checked > 250, "only {checked} test references found");
}

/// The rules a book leaves to the organiser (or to the director's announcement), by the heading of
/// the rulebook's table: a user must be able to choose them, so an `enforced` row needs a test that
/// chooses them the way a user does, through the API (`crates/tilebag-server/tests/`) or the
/// command line (`crates/tilebag/tests/`).
const CHOOSABLE: [(&str, &[&str]); 3] = [
    ("## NASPA", &["I.B", "VI.B.3"]),
    ("## NSA", &["I.B", "VI.B.2"]),
    (
        "## WESPA",
        &[
            "5.1.4",
            "5.1.4(a)",
            "5.1.4(b)",
            "3.10.15(b)",
            "3.10.15(b)(i)",
            "3.10.15(b)(ii)",
            "3.10.15(b)(iii)",
            "3.10.15(b)(iv)",
            "3.10.15(b)(v)",
        ],
    ),
];

#[test]
fn rules_coverage_choosable_rules_are_proved_through_the_api_or_the_cli() {
    let doc = coverage_doc();
    let mut book = "";
    let mut checked = 0;
    for (n, line) in doc.lines().enumerate() {
        if line.starts_with("## ") {
            book = line;
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 5 || cells[3] != "enforced" {
            continue;
        }
        let Some((_, rules)) = CHOOSABLE.iter().find(|(b, _)| book.starts_with(b)) else {
            continue;
        };
        if !rules.contains(&cells[1]) {
            continue;
        }
        let names: Vec<&str> = cells[4].split('`').skip(1).step_by(2).collect();
        assert!(
            names.iter().any(|t| t.starts_with("crates/tilebag-server/tests/")
                || t.starts_with("crates/tilebag/tests/")),
            "line {}: {} {} is the organiser's choice, but no test named on its row chooses it through the API or the CLI: {line}",
            n + 1,
            book,
            cells[1]
        );
        checked += 1;
    }
    assert!(checked >= 12, "only {checked} choosable rows are enforced");
}

/// The workspace's sources: every `.rs` file under any crate's `src/` or `tests/`.
fn workspace_sources() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut sources = String::new();
    for krate in std::fs::read_dir(root.join("..")).unwrap() {
        let krate = krate.unwrap().path();
        for sub in ["src", "tests"] {
            if krate.join(sub).is_dir() {
                read_all_rs(&krate.join(sub), &mut sources);
            }
        }
    }
    sources
}

/// Every function called `name` in `sources`, from `fn` to its closing brace.
fn bodies<'a>(sources: &'a str, name: &str) -> Vec<&'a str> {
    let needle = format!("fn {name}(");
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = sources[from..].find(&needle) {
        let start = from + at;
        let Some(open) = sources[start..].find('{') else {
            break;
        };
        let mut depth = 0;
        let mut end = sources.len();
        for (i, c) in sources[start + open..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = start + open + i + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.push(&sources[start..end]);
        from = end;
    }
    out
}

/// Lowercase, with every run of other characters than letters and digits made one space, and a
/// space at each end: `TripleWord`, `triple_word` and "triple-word" read `tripleword`,
/// `triple word` and `triple word`.
fn normalise(text: &str) -> String {
    let mut out = String::from(" ");
    for c in text.chars() {
        if c.is_alphanumeric() {
            out.extend(c.to_lowercase());
        } else if !out.ends_with(' ') {
            out.push(' ');
        }
    }
    if !out.ends_with(' ') {
        out.push(' ');
    }
    out
}

/// What a test's code must mention: one of `words` as a whole word, exactly (abbreviations such
/// as `TW`), or one of `phrases` at the start of a word in [`normalise`]d text (so `blank` is
/// also found in `blanks`).
struct Mention {
    words: &'static [&'static str],
    phrases: &'static [&'static str],
}

impl Mention {
    fn in_code(&self, code: &str) -> bool {
        let plain = normalise(code);
        code.split(|c: char| !c.is_alphanumeric())
            .any(|w| self.words.contains(&w))
            || self
                .phrases
                .iter()
                .any(|p| plain.contains(&format!(" {p}")))
    }
}

const TW: Mention = Mention {
    words: &["TW", "TWS"],
    phrases: &["triple word", "tripleword"],
};
const DW: Mention = Mention {
    words: &["DW", "DWS"],
    phrases: &["double word", "doubleword"],
};
const TL: Mention = Mention {
    words: &["TL", "TLS"],
    phrases: &["triple letter", "tripleletter"],
};
const DL: Mention = Mention {
    words: &["DL", "DLS"],
    phrases: &["double letter", "doubleletter"],
};
const LETTER_PREMIUM: Mention = Mention {
    words: &["DL", "DLS", "TL", "TLS"],
    phrases: &[
        "double letter",
        "doubleletter",
        "triple letter",
        "tripleletter",
    ],
};
const WORD_PREMIUM: Mention = Mention {
    words: &["DW", "DWS", "TW", "TWS"],
    phrases: &["double word", "doubleword", "triple word", "tripleword"],
};

/// A subject, by the whole words of its [`normalise`]d text (any one of them), and what one
/// test named on its row must mention (all of them).
type SubjectRule = (&'static [&'static str], &'static [Mention]);

/// The premium squares (NASPA A.II.C–I, III.A.4 and their equals in the other books).
const PREMIUM_SUBJECTS: [SubjectRule; 7] = [
    (&["triple word", "tws", "times 9"], &[TW]),
    (&["double word", "dws", "times 4"], &[DW]),
    (&["triple letter"], &[TL]),
    (&["double letter"], &[DL]),
    (&["letter premium", "letter premiums"], &[LETTER_PREMIUM]),
    (&["word premium", "word premiums"], &[WORD_PREMIUM]),
    (&["premium layout"], &[TW, DW, TL, DL]),
];

const fn phrases(phrases: &'static [&'static str]) -> Mention {
    Mention {
        words: &[],
        phrases,
    }
}

/// Other things a test can be seen to be about. (Not "challenge": a rule that lets a player
/// challenge an illegal placement or exchange is enforced by refusing it outright.)
const OTHER_SUBJECTS: [SubjectRule; 10] = [
    (&["blank", "blanks"], &[phrases(&["blank"])]),
    (
        &["bingo", "all seven", "seven tiles played", "50 point bonus"],
        &[phrases(&["bingo"])],
    ),
    (
        &["exchange", "exchanges", "exchanging"],
        &[phrases(&["exchange"])],
    ),
    (&["pass", "passes", "passing"], &[phrases(&["pass"])]),
    (
        &["six zero", "six zeros", "six successive"],
        &[phrases(&["six", "zero run"])],
    ),
    (&["overtime"], &[phrases(&["overtime"])]),
    (&["bye", "byes"], &[phrases(&["bye"])]),
    (
        &["resign", "resigning", "resignation", "resigned"],
        &[phrases(&["resign"])],
    ),
    (&["hold", "holds", "holding"], &[phrases(&["hold"])]),
    (&["tie"], &[phrases(&["tie", "half", "0 5"])]),
];

/// The `enforced` rows of `doc` whose subject matches a rule of `subjects` but that name no test
/// (in `sources`) mentioning everything the rule asks for, as "line N: BOOK RULE SUBJECT".
fn rows_naming_no_test_about_their_subject(
    doc: &str,
    sources: &str,
    subjects: &[SubjectRule],
) -> Vec<String> {
    let mut book = "";
    let mut bad = Vec::new();
    for (n, line) in doc.lines().enumerate() {
        if let Some(heading) = line.strip_prefix("## ") {
            book = heading;
            continue;
        }
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        if cells.len() < 5 || cells[3] != "enforced" {
            continue;
        }
        let subject = normalise(cells[2]);
        let wanted: Vec<&Mention> = subjects
            .iter()
            .filter(|(words, _)| words.iter().any(|w| subject.contains(&format!(" {w} "))))
            .flat_map(|(_, mentions)| mentions.iter())
            .collect();
        if wanted.is_empty() {
            continue;
        }
        let about = cells[4].split('`').skip(1).step_by(2).any(|name| {
            let f = name.rsplit("::").next().unwrap();
            bodies(sources, f)
                .iter()
                .any(|code| wanted.iter().all(|m| m.in_code(code)))
        });
        if !about {
            bad.push(format!("line {}: {book} {}: {}", n + 1, cells[1], cells[2]));
        }
    }
    bad
}

fn coverage_doc() -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(root.join("../../docs/rules-coverage.md")).unwrap()
}

#[test]
fn rules_coverage_premium_square_rows_name_a_test_that_uses_that_premium() {
    let bad = rows_naming_no_test_about_their_subject(
        &coverage_doc(),
        &workspace_sources(),
        &PREMIUM_SUBJECTS,
    );
    assert!(
        bad.is_empty(),
        "these rows name a premium square, but none of their tests mentions it (TW, DW, TL, DL, \
         or the words): name a test that plays on that square and checks the score\n{}",
        bad.join("\n")
    );
}

#[test]
fn rules_coverage_rows_name_a_test_about_their_subject() {
    let bad = rows_naming_no_test_about_their_subject(
        &coverage_doc(),
        &workspace_sources(),
        &OTHER_SUBJECTS,
    );
    assert!(
        bad.is_empty(),
        "these rows are about something none of their tests mentions: name a test that \
         exercises it\n{}",
        bad.join("\n")
    );
}

/// The row issue 27 found: NSA Appendix II.D.2 (triple word) named three tests, none with a
/// triple-word square. The check must refuse it, and accept the row as it now reads.
#[test]
fn rules_coverage_premium_check_refuses_the_old_triple_word_row() {
    let sources = workspace_sources();
    let old = "## NSA 2011 Official Tournament Rules\n\
        | Appendix II.D.2 | Triple word square | enforced | test: \
        `play::tests::letter_premium_before_word_premium_and_cross_words`, \
        `play::tests::premiums_only_under_new_tiles`, \
        `play::tests::blank_scores_zero_but_gets_word_premium` |\n";
    let bad = rows_naming_no_test_about_their_subject(old, &sources, &PREMIUM_SUBJECTS);
    assert_eq!(bad.len(), 1, "{bad:?}");
    assert!(bad[0].contains("Appendix II.D.2"), "{bad:?}");
    let new = "## NSA 2011 Official Tournament Rules\n\
        | Appendix II.D.2 | Triple word square | enforced | test: \
        `tests/premium_squares.rs::naspa_a_ii_d_2_a_triple_word_square_triples_the_word` |\n";
    assert!(rows_naming_no_test_about_their_subject(new, &sources, &PREMIUM_SUBJECTS).is_empty());
    // And the subjects are found whatever the case or punctuation.
    let dws = "## WESPA\n| 3.10.16(d) | May let it stand; centre stays a DWS | enforced | test: \
        `play::tests::placement_errors_name_the_square` |\n";
    assert_eq!(
        rows_naming_no_test_about_their_subject(dws, &sources, &PREMIUM_SUBJECTS).len(),
        1
    );
}
