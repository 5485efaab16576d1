//! `tilebag td` as a director runs it: commands that must succeed or be refused, the tables a
//! director reads (as CSV), and the usual set-ups (an event of seeded players, imports).

use super::{said, temp_dir, tilebag_in};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The schedule of the seeded events: Initial Fontes for 3 rounds, Swiss for 6, King of the
/// Hill in the last.
pub const SCHEDULE: &str = "IF:3 SW:6 KOTH:1";

/// A fresh directory for one test's event files.
pub fn event_dir(name: &str) -> PathBuf {
    temp_dir("tilebag-td", name)
}

/// Runs `tilebag td ARGS…`, which must succeed; returns its standard output.
pub fn td(dir: &Path, args: &[&str]) -> String {
    let mut all = vec!["td"];
    all.extend_from_slice(args);
    let o = tilebag_in(dir, &all);
    assert!(o.status.success(), "td {args:?} failed:\n{}", said(&o));
    String::from_utf8(o.stdout).expect("utf-8")
}

/// Runs `tilebag td ARGS…`, which must fail with status 2; returns its standard error.
pub fn td_refused(dir: &Path, args: &[&str]) -> String {
    let mut all = vec!["td"];
    all.extend_from_slice(args);
    let o = tilebag_in(dir, &all);
    assert_eq!(o.status.code(), Some(2), "td {args:?}:\n{}", said(&o));
    String::from_utf8(o.stderr).expect("utf-8")
}

// ---------------------------------------------------------------------------------------------
// Set-ups.

/// `td new DB --name NAME [--date DATE]`.
pub fn new_event(dir: &Path, db: &str, name: &str, date: Option<&str>) {
    let mut args = vec!["new", db, "--name", name];
    if let Some(date) = date {
        args.extend(["--date", date]);
    }
    td(dir, &args);
}

/// `td division add DB DIVISION --rules RULES --schedule SCHEDULE [--seed SEED]`.
pub fn add_division(
    dir: &Path,
    db: &str,
    division: &str,
    rules: &str,
    schedule: &str,
    seed: Option<u64>,
) {
    let seed = seed.map(|s| s.to_string());
    let mut args = vec![
        "division",
        "add",
        db,
        division,
        "--rules",
        rules,
        "--schedule",
        schedule,
    ];
    if let Some(seed) = &seed {
        args.extend(["--seed", seed]);
    }
    td(dir, &args);
}

/// Adds `(name, rating)` players to division A.
pub fn add_players(dir: &Path, db: &str, players: &[(&str, &str)]) {
    for (name, rating) in players {
        td(dir, &["player", "add", db, "A", name, rating]);
    }
}

/// Adds `n` seeded players to division A: player `i` is `SeedNN, Player` rated 2000 − 10·i.
/// Returns what each `td player add` printed.
pub fn add_seeded_players(dir: &Path, db: &str, n: u32) -> Vec<String> {
    (1..=n)
        .map(|i| {
            let name = format!("Seed{i:02}, Player");
            let rating = (2000 - 10 * i).to_string();
            td(dir, &["player", "add", db, "A", &name, &rating])
        })
        .collect()
}

/// Creates the event with `n` seeded players: "Test Open" on 2024-05-04, division A under NASPA
/// 2013 rules, [`SCHEDULE`], seed 2024, Initial Fontes snaked.
pub fn setup(dir: &Path, db: &str, n: u32) {
    new_event(dir, db, "Test Open", Some("2024-05-04"));
    add_division(dir, db, "A", "naspa-2013", SCHEDULE, Some(2024));
    td(dir, &["division", "set", db, "A", "fontes", "snaked"]);
    for (i, out) in (1..=n).zip(add_seeded_players(dir, db, n)) {
        let name = format!("Seed{i:02}, Player");
        assert!(out.contains(&format!("#{i} ({name})")), "{out}");
    }
}

/// A fresh directory (see [`event_dir`]) holding the event of [`setup`] with `n` players.
pub fn seeded_event(name: &str, db: &str, n: u32) -> PathBuf {
    let dir = event_dir(name);
    setup(&dir, db, n);
    dir
}

/// Enters every open game of a round: the better seed wins 400–300.
pub fn better_seed_wins(dir: &Path, db: &str, round: u32) {
    let r = round.to_string();
    for e in pairings(dir, db, round) {
        if let (Some(s), "") = (e.second, e.result.as_str()) {
            let better = e.first.min(s).to_string();
            td(dir, &["result", db, "A", &r, &better, "400", "300"]);
        }
    }
}

/// The arguments of `td import DB FILE [--division DIVISION] --rules naspa-2013 --schedule
/// SCHEDULE`.
pub fn import_args<'a>(
    db: &'a str,
    file: &'a str,
    division: Option<&'a str>,
    schedule: &'a str,
) -> Vec<&'a str> {
    let mut args = vec!["import", db, file];
    if let Some(division) = division {
        args.extend(["--division", division]);
    }
    args.extend(["--rules", "naspa-2013", "--schedule", schedule]);
    args
}

// ---------------------------------------------------------------------------------------------
// What the director reads.

/// Parses CSV (RFC 4180 quoting) into rows of fields, the header row first.
pub fn csv(text: &str) -> Vec<Vec<String>> {
    let mut rows = Vec::new();
    for line in text.lines() {
        let mut fields = Vec::new();
        let mut cur = String::new();
        let mut quoted = false;
        let mut chars = line.chars().peekable();
        while let Some(c) = chars.next() {
            match (c, quoted) {
                ('"', true) if chars.peek() == Some(&'"') => {
                    cur.push('"');
                    chars.next();
                }
                ('"', _) => quoted = !quoted,
                (',', false) => fields.push(std::mem::take(&mut cur)),
                _ => cur.push(c),
            }
        }
        fields.push(cur);
        rows.push(fields);
    }
    rows
}

/// CSV rows as maps from the header's keys.
pub fn records(text: &str) -> Vec<BTreeMap<String, String>> {
    let mut rows = csv(text).into_iter();
    let head = rows.next().expect("a header row");
    rows.map(|r| head.iter().cloned().zip(r).collect())
        .collect()
}

/// `td show DB A VIEW --round ROUND --csv`, as records.
fn show_csv(dir: &Path, db: &str, view: &str, round: u32) -> Vec<BTreeMap<String, String>> {
    let r = round.to_string();
    records(&td(dir, &["show", db, "A", view, "--round", &r, "--csv"]))
}

/// One entry of a round, from `td show … pairings --csv`.
#[derive(Debug, Clone)]
pub struct Entry {
    pub first: u32,
    /// `None` for a bye or a withdrawn player's automatic result.
    pub second: Option<u32>,
    pub second_name: String,
    pub result: String,
}

pub fn pairings(dir: &Path, db: &str, round: u32) -> Vec<Entry> {
    show_csv(dir, db, "pairings", round)
        .into_iter()
        .map(|m| Entry {
            first: m["first"].parse().unwrap(),
            second: m["second"].parse().ok(),
            second_name: m["second_name"].clone(),
            result: m["result"].clone(),
        })
        .collect()
}

/// A round's games as (lower number, higher number), sorted.
pub fn pairs(dir: &Path, db: &str, round: u32) -> Vec<(u32, u32)> {
    let mut v: Vec<(u32, u32)> = pairings(dir, db, round)
        .into_iter()
        .filter_map(|e| e.second.map(|s| (e.first.min(s), e.first.max(s))))
        .collect();
    v.sort();
    v
}

pub fn byes(dir: &Path, db: &str, round: u32) -> Vec<u32> {
    pairings(dir, db, round)
        .into_iter()
        .filter(|e| e.second_name == "bye")
        .map(|e| e.first)
        .collect()
}

/// A line of `td show … standings --csv`.
#[derive(Debug, Clone, PartialEq)]
pub struct Standing {
    pub player: u32,
    pub wins2: u32,
    pub losses2: u32,
    pub spread: i32,
    pub firsts: u32,
    pub seconds: u32,
    pub byes: u32,
    pub withdrawn: bool,
}

fn half(s: &str) -> u32 {
    (s.parse::<f64>().unwrap() * 2.0) as u32
}

pub fn standings(dir: &Path, db: &str, through: u32) -> Vec<Standing> {
    show_csv(dir, db, "standings", through)
        .into_iter()
        .map(|m| Standing {
            player: m["player"].parse().unwrap(),
            wins2: half(&m["wins"]),
            losses2: half(&m["losses"]),
            spread: m["spread"].parse().unwrap(),
            firsts: m["firsts"].parse().unwrap(),
            seconds: m["seconds"].parse().unwrap(),
            byes: m["byes"].parse().unwrap(),
            withdrawn: m["withdrawn"] == "yes",
        })
        .collect()
}

pub fn order(dir: &Path, db: &str, through: u32) -> Vec<u32> {
    standings(dir, db, through)
        .iter()
        .map(|s| s.player)
        .collect()
}

pub fn standing(dir: &Path, db: &str, through: u32, p: u32) -> Standing {
    standings(dir, db, through)
        .into_iter()
        .find(|s| s.player == p)
        .unwrap()
}
