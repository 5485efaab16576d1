//! Every rule number a preset cites (`tilebag rules show`) must exist in that rulebook, and the
//! cited section must be about the field it is cited for. The rulebooks are read from
//! `../shared/rules` (next to the workspace); the test is skipped, saying so, when they are absent.

use std::path::PathBuf;
use tilebag_core::citation::Rule;
use tilebag_core::ruleset::Ruleset;

fn rules_dir() -> Option<PathBuf> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../..");
    let dir = root.join("shared/rules");
    dir.is_dir().then_some(dir)
}

fn book_file(book: &str) -> &'static str {
    match book {
        "NASPA" => "naspa-2013-official-tournament-rules.md",
        "NSA" => "nsa-2011-official-tournament-rules.md",
        "WESPA" => "wespa-2010-game-rules.md",
        "SANSPA" => "sanspa-1999-tournament-rules.md",
        "Literacy" => "literacy-2018-tournament-rules.md",
        other => panic!("unknown book {other}"),
    }
}

/// A line with its markdown decoration removed: heading marks, bold, list dashes.
fn bare(line: &str) -> String {
    line.trim()
        .trim_start_matches(['#', '-', ' '])
        .replace("**", "")
        .replace('*', "")
        .trim()
        .to_string()
}

/// Whether `line` (bare) starts with the rule number `num`, followed by an optional dot and then
/// a space, a tab or the end of the line.
fn starts_with_number(line: &str, num: &str) -> bool {
    let Some(rest) = line.strip_prefix(num) else {
        return false;
    };
    let rest = rest.strip_prefix('.').unwrap_or(rest);
    rest.is_empty() || rest.starts_with([' ', '\t'])
}

/// Whether a bare line is a numbered heading of `book` (the start of the next section).
fn is_heading(book: &str, line: &str) -> bool {
    let first = line.split([' ', '\t']).next().unwrap_or("");
    match book {
        "NASPA" | "NSA" => {
            let mut parts = first.trim_end_matches('.').split('.');
            parts
                .next()
                .is_some_and(|p| !p.is_empty() && p.chars().all(|c| "IVX".contains(c)))
                && parts
                    .next()
                    .is_some_and(|p| p.len() == 1 && p.chars().all(|c| c.is_ascii_uppercase()))
        }
        "WESPA" | "SANSPA" => {
            let f = first.trim_end_matches('.');
            !f.is_empty()
                && f.chars().all(|c| c.is_ascii_digit() || c == '.')
                && f.chars().next().is_some_and(|c| c.is_ascii_digit())
                // A list item "1." inside a section is not a heading; "18.5" or "3." at the left
                // margin without a list dash is.
                && !line.starts_with("- ")
        }
        _ => false,
    }
}

/// The text of a numbered section: its heading line and everything up to the next heading. The
/// last such heading in the file wins (the first is usually the table of contents).
fn section(book: &str, text: &str, num: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let start = lines
        .iter()
        .rposition(|l| starts_with_number(&bare(l), num))?;
    let mut out = String::from(lines[start]);
    for l in &lines[start + 1..] {
        let b = bare(l);
        if is_heading(book, &b) && !l.trim_start().starts_with("- ") {
            break;
        }
        out.push('\n');
        out.push_str(l);
    }
    Some(out)
}

/// A numbered item (`- 2. ...`, `2. ...`, `- (a) ...`) inside a section, with any lines nested
/// under it.
fn item(section: &str, label: &str) -> Option<String> {
    let lines: Vec<&str> = section.lines().collect();
    let start = lines.iter().position(|l| {
        let b = bare(l);
        b.strip_prefix(label)
            .is_some_and(|r| r.starts_with([' ', '\t']))
    })?;
    let indent = lines[start].len() - lines[start].trim_start().len();
    let mut out = String::from(lines[start]);
    for l in &lines[start + 1..] {
        let t = l.trim_start();
        let ind = l.len() - t.len();
        if t.starts_with("- ") && ind <= indent {
            break;
        }
        out.push('\n');
        out.push_str(l);
    }
    Some(out)
}

/// Find the text a reference such as `V.K.2`, `5.1.4(a)`, `V.C note` or `play` points at.
fn find(book: &str, text: &str, reference: &str) -> Result<String, String> {
    if book == "Literacy" {
        let play = text.find("PLAY:").ok_or("no PLAY section")?;
        let scoring = text.find("SCORING").ok_or("no SCORING section")?;
        return match reference {
            "header" => Ok(text[..play].to_string()),
            "play" => Ok(text[play..scoring].to_string()),
            r => {
                let n = r
                    .strip_prefix("scoring ")
                    .ok_or_else(|| format!("unknown Literacy reference {r:?}"))?;
                item(&text[scoring..], &format!("{n}."))
                    .ok_or_else(|| format!("no scoring item {n}"))
            }
        };
    }
    let (num, note) = match reference.strip_suffix(" note") {
        Some(n) => (n, true),
        None => (reference, false),
    };
    // Sub-clauses in parentheses: 5.1.4(a), 3.10.15(b).
    let (base, sub) = match num.find('(') {
        Some(i) => (
            &num[..i],
            Some(&num[i..i + num[i..].find(')').unwrap() + 1]),
        ),
        None => (num, None),
    };
    let text_of = match section(book, text, base) {
        Some(s) => s,
        None => {
            // NASPA V.K.2 and NSA V.J.2 are numbered items of the section V.K. / V.J.
            let (parent, last) = base
                .rsplit_once('.')
                .ok_or_else(|| format!("{book} {base} is not in the book"))?;
            let s = section(book, text, parent)
                .ok_or_else(|| format!("{book} {base} is not in the book"))?;
            item(&s, &format!("{last}."))
                .ok_or_else(|| format!("{book} {parent} has no item {last}"))?
        }
    };
    let text_of = match sub {
        Some(label) => {
            item(&text_of, label).ok_or_else(|| format!("{book} {base} has no clause {label}"))?
        }
        None => text_of,
    };
    if note && !text_of.contains("Note") {
        return Err(format!("{book} {base} has no note"));
    }
    Ok(text_of)
}

/// What the cited text must mention for each field: every group needs one of its words.
fn subject(field: &str) -> Vec<Vec<&'static str>> {
    let any = |w: &[&'static str]| w.to_vec();
    match field {
        "tile-set" => vec![any(&["tile", "letter"])],
        "word-source" => vec![any(&["word", "dictionar", "lexicon", "reference"])],
        "rack-size" => vec![any(&["seven"])],
        "exchange-min-bag" => vec![any(&["exchang"]), any(&["seven"])],
        "challenge" => vec![any(&["challeng", "unacceptable"])],
        "out-play-challenge-penalised" => vec![any(&["challeng"])],
        "out-play-clock" => vec![any(&["clock", "timer"])],
        "hold-limit" => vec![any(&["hold"])],
        "six-zero" => vec![any(&["zero"])],
        "all-pass-twice-ends" => vec![any(&["pass"])],
        "end-rack" => vec![any(&["unplayed", "remaining", "unused"])],
        "clock" => vec![any(&["minute"])],
        "overtime" => vec![any(&[
            "overtime",
            "overrun",
            "exceed",
            "time penalt",
            "minute",
        ])],
        "resignation-margin" => vec![any(&["resign", "leave", "departure"]), any(&["50"])],
        "resignation-option" => vec![any(&["resign", "leave", "departure"])],
        "director-shortened-deducts-racks" => vec![any(&["director"])],
        "first-play" => vec![any(&["first", "opening"]), any(&["cent"])],
        "placement" => vec![any(&[
            "row", "line", "diagonal", "touch", "one word", "across",
        ])],
        "blank-designation" => vec![any(&["blank"])],
        "overtime-penalty" | "overtime-limit" => vec![any(&[
            "overtime",
            "overrun",
            "exceed",
            "time penalt",
            "minute",
        ])],
        "clock-neutralised" => vec![any(&["neutrali", "stop", "interrupt"])],
        "first-player" => vec![any(&["first", "start"])],
        "bye-spread" => vec![any(&["bye"])],
        "forfeit-spread" => vec![any(&["forfeit"])],
        other => panic!("no subject words for the field {other}"),
    }
}

/// Split a citation into (book, reference) pairs. `NASPA III.A.3, V.G.2` cites two sections of
/// NASPA; a parenthesised remark after a space is dropped; `not in WESPA 2010 ...` cites nothing.
fn references(citation: &str) -> Vec<(String, String)> {
    if citation.starts_with("not in ") {
        return Vec::new();
    }
    let mut plain = citation.to_string();
    while let Some(i) = plain.find(" (") {
        let j = plain[i..].find(')').map_or(plain.len(), |j| i + j + 1);
        plain.replace_range(i..j, "");
    }
    let mut out = Vec::new();
    let mut book = String::new();
    for part in plain.split(", ") {
        let part = part.trim();
        let rest = match part.split_once(' ') {
            Some((b, r)) if ["NASPA", "NSA", "WESPA", "SANSPA", "Literacy"].contains(&b) => {
                book = b.to_string();
                r
            }
            _ => part,
        };
        assert!(!book.is_empty(), "no book named in {citation:?}");
        out.push((book.clone(), rest.to_string()));
    }
    out
}

#[test]
fn shared_rulebooks_every_preset_citation_exists_and_is_on_subject() {
    let Some(dir) = rules_dir() else {
        eprintln!("SKIPPED: ../shared/rules is absent; the preset citations were not checked");
        return;
    };
    let mut checked = 0;
    let mut problems = Vec::new();
    for name in Ruleset::PRESETS {
        let r = Ruleset::preset(name).unwrap();
        // What `rules show` cites, and what the game's messages cite (issue 27 item 5).
        let messages = Rule::ALL
            .iter()
            .map(|&rule| (rule.name(), r.citation(rule)));
        let shown = r.describe().into_iter().map(|(field, _, c)| (field, c));
        for (field, citation) in shown.chain(messages) {
            if citation.is_empty() {
                continue;
            }
            for (book, reference) in references(citation) {
                let text = std::fs::read_to_string(dir.join(book_file(&book))).unwrap();
                match find(&book, &text, &reference) {
                    Err(e) => problems.push(format!("{name} {field}: {e}")),
                    Ok(found) => {
                        let lower = found.to_lowercase();
                        for group in subject(field) {
                            if !group.iter().any(|w| lower.contains(w)) {
                                problems.push(format!(
                                    "{name} {field}: {book} {reference} does not mention any of {group:?}"
                                ));
                            }
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    assert!(checked > 100, "only {checked} citations checked");
}

#[test]
fn shared_rulebooks_the_citation_check_catches_wrong_numbers() {
    let Some(dir) = rules_dir() else {
        eprintln!("SKIPPED: ../shared/rules is absent");
        return;
    };
    let sanspa = std::fs::read_to_string(dir.join(book_file("SANSPA"))).unwrap();
    // The old citations this issue corrected: SANSPA 12.2 is about the blank, not exchanges;
    // there is no SANSPA 13.9.
    let blank = find("SANSPA", &sanspa, "12.2").unwrap();
    assert!(!blank.to_lowercase().contains("exchang"), "{blank}");
    assert!(find("SANSPA", &sanspa, "10.2")
        .unwrap()
        .to_lowercase()
        .contains("exchange"));
    assert!(find("SANSPA", &sanspa, "13.9").is_err());
    let wespa = std::fs::read_to_string(dir.join(book_file("WESPA"))).unwrap();
    // WESPA 2.3 is about late arrivals, not byes.
    assert!(!find("WESPA", &wespa, "2.3")
        .unwrap()
        .to_lowercase()
        .contains("bye"));
    let naspa = std::fs::read_to_string(dir.join(book_file("NASPA"))).unwrap();
    assert!(find("NASPA", &naspa, "V.K.2").unwrap().contains("leave"));
    assert!(find("NASPA", &naspa, "V.K.9").is_err());
    assert_eq!(
        references("NSA IV.E.2.a (Literacy defers to NSA)"),
        vec![("NSA".to_string(), "IV.E.2.a".to_string())]
    );
}
