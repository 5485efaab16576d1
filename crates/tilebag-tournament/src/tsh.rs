//! tsh `.t` division files and `.tsh` archives.
//!
//! A `.t` line is one player (its line number among player lines is the player number):
//!
//! ```text
//! Surname, Given[:MEMBERID] RATING OPP1 OPP2 … ; SCORE1 SCORE2 … [; KEY V1 V2 …]*
//! ```
//!
//! Opponents are player numbers, `0` for no opponent; scores are the player's own, or on a row
//! with no opponent the spread (a bye `50`, a forfeit loss `-50`). We write forfeits between two
//! players that way too (NASPA's convention for results submission), `p12` for firsts (1 first,
//! 2 second, 0 neither), `off` for a withdrawn player's automatic spread, and `lifeg` for career
//! games. Reading is tolerant (comments, blank lines, unknown keys, one-sided scores); errors give
//! the line number.
//!
//! An archive is `division NAME FILE` lines plus each file between `#begin_file name=FILE` and
//! `#end_file name=FILE` (Woogles' tsh export).

use crate::action::{Action, ResultEntry};
use crate::model::{
    Division, FirstReason, Game, GameResult, Pairing, PlayerId, Seat, Tournament, WithdrawnResult,
};
use crate::schedule::Method;

/// A `.t` file that cannot be read, or a division that cannot be written as one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TshError {
    #[error("line {line}: {reason}")]
    Line { line: usize, reason: String },
    #[error("{what}: {reason}")]
    Archive { what: String, reason: String },
    #[error("division {division:?}: player #{player} ({name}): a name ending in a number cannot be written to a .t file unambiguously")]
    AmbiguousName {
        division: String,
        player: PlayerId,
        name: String,
    },
}

fn is_int(tok: &str) -> bool {
    tok.parse::<i64>().is_ok()
}

/// Writes a division as a `.t` file.
pub fn write_t(div: &Division) -> Result<String, TshError> {
    let seats = div.firsts_by_round();
    let mut out = String::new();
    for p in &div.players {
        if p.name.split_whitespace().last().is_some_and(is_int) {
            return Err(TshError::AmbiguousName {
                division: div.name.clone(),
                player: p.id,
                name: p.name.clone(),
            });
        }
        let mut opps = Vec::new();
        let mut scores = Vec::new();
        let mut scores_open = true;
        let mut p12 = Vec::new();
        for (ri, r) in div.rounds.iter().enumerate() {
            let entry = r.pairings.iter().find(|x| x.involves(p.id));
            let (opp, score): (PlayerId, Option<i32>) = match entry {
                None => (0, Some(0)),
                Some(Pairing::Bye { spread, .. }) | Some(Pairing::Absent { spread, .. }) => {
                    (0, Some(*spread))
                }
                Some(Pairing::Game(g)) => {
                    let opp = g.opponent_of(p.id).unwrap_or(0);
                    match &g.result {
                        None => (opp, None),
                        Some(res @ GameResult::Played { .. }) => {
                            (opp, res.outcome_for(g, p.id).scores.map(|s| s.0))
                        }
                        // Forfeits are written as rows without an opponent.
                        Some(res) => (0, Some(res.outcome_for(g, p.id).spread)),
                    }
                }
            };
            opps.push(opp.to_string());
            match score {
                Some(s) if scores_open => scores.push(s.to_string()),
                _ => scores_open = false,
            }
            p12.push(
                match seats[ri].get(p.id as usize - 1).copied().flatten() {
                    Some(Seat::First) => "1",
                    Some(Seat::Second) => "2",
                    None => "0",
                }
                .to_string(),
            );
        }
        let mut line = p.name.clone();
        if let Some(id) = &p.member_id {
            line.push(':');
            line.push_str(id);
        }
        line.push(' ');
        line.push_str(&p.rating.to_string());
        for o in &opps {
            line.push(' ');
            line.push_str(o);
        }
        line.push_str("; ");
        line.push_str(&scores.join(" "));
        if !p12.is_empty() {
            line.push_str("; p12 ");
            line.push_str(&p12.join(" "));
        }
        if p.withdrawn_from.is_some() {
            let off = match div.config.withdrawn_result {
                WithdrawnResult::ForfeitLoss => -div.config.forfeit_spread,
                WithdrawnResult::Void => 0,
            };
            line.push_str(&format!("; off {off}"));
        }
        if let Some(g) = p.career_games {
            line.push_str(&format!("; lifeg {g}"));
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    Ok(out)
}

/// One player line of a `.t` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TshPlayer {
    pub line: usize,
    pub name: String,
    pub member_id: Option<String>,
    pub rating: i32,
    pub opponents: Vec<PlayerId>,
    pub scores: Vec<i32>,
    pub p12: Vec<u8>,
    pub off: Option<i32>,
    pub lifeg: Option<u32>,
}

/// Reads the player lines of a `.t` file, checking that opponents refer to each other.
pub fn parse_t(text: &str) -> Result<Vec<TshPlayer>, TshError> {
    let err = |line: usize, reason: String| TshError::Line { line, reason };
    let mut players = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let mut parts = t.split(';');
        let head = parts.next().unwrap_or("");
        let toks: Vec<&str> = head.split_whitespace().collect();
        let n_int = toks.iter().rev().take_while(|x| is_int(x)).count();
        if n_int == 0 {
            return Err(err(line, format!("no rating after the name in {head:?}")));
        }
        if n_int == toks.len() {
            return Err(err(line, "the line has no player name".into()));
        }
        let name_part = toks[..toks.len() - n_int].join(" ");
        let (name, member_id) = match name_part.rsplit_once(':') {
            Some((n, id)) if !id.trim().is_empty() => {
                (n.trim().to_string(), Some(id.trim().to_string()))
            }
            _ => (name_part.clone(), None),
        };
        if name.is_empty() {
            return Err(err(line, "the line has no player name".into()));
        }
        let nums: Vec<i64> = toks[toks.len() - n_int..]
            .iter()
            .map(|x| x.parse().expect("checked"))
            .collect();
        let rating = i32::try_from(nums[0])
            .map_err(|_| err(line, format!("rating {} is out of range", nums[0])))?;
        let mut opponents = Vec::new();
        for (r, &o) in nums[1..].iter().enumerate() {
            if o < 0 || o > u32::MAX as i64 {
                return Err(err(
                    line,
                    format!("round {}: opponent {o} is not a player number", r + 1),
                ));
            }
            opponents.push(o as PlayerId);
        }
        let mut scores = Vec::new();
        if let Some(sc) = parts.next() {
            for tok in sc.split_whitespace() {
                let s: i32 = tok
                    .parse()
                    .map_err(|_| err(line, format!("score {tok:?} is not a number")))?;
                scores.push(s);
            }
        }
        let mut p12 = Vec::new();
        let mut off = None;
        let mut lifeg = None;
        for extra in parts {
            let mut kv = extra.split_whitespace();
            let Some(key) = kv.next() else { continue };
            let vals: Vec<&str> = kv.collect();
            let num = |v: &str| -> Result<i64, TshError> {
                v.parse()
                    .map_err(|_| err(line, format!("{key}: {v:?} is not a number")))
            };
            match key {
                "p12" => {
                    for v in &vals {
                        p12.push(num(v)?.clamp(0, 4) as u8);
                    }
                }
                "off" => off = Some(vals.first().map(|v| num(v)).transpose()?.unwrap_or(0) as i32),
                "lifeg" => {
                    lifeg = vals
                        .first()
                        .map(|v| num(v))
                        .transpose()?
                        .map(|x| x.max(0) as u32)
                }
                _ => {}
            }
        }
        if let Some(s) = scores
            .iter()
            .chain(off.iter())
            .find(|s| !crate::action::SPREAD_RANGE.contains(s))
        {
            return Err(err(line, format!("score or spread {s} is out of range")));
        }
        if scores.len() > opponents.len() {
            return Err(err(
                line,
                format!(
                    "{} scores for {} rounds of opponents",
                    scores.len(),
                    opponents.len()
                ),
            ));
        }
        players.push(TshPlayer {
            line,
            name,
            member_id,
            rating,
            opponents,
            scores,
            p12,
            off,
            lifeg,
        });
    }
    let n = players.len() as PlayerId;
    for (i, p) in players.iter().enumerate() {
        let me = i as PlayerId + 1;
        for (r, &o) in p.opponents.iter().enumerate() {
            if o == 0 {
                continue;
            }
            if let Some(&s) = p.scores.get(r) {
                if !crate::action::SCORE_RANGE.contains(&s) {
                    return Err(err(
                        p.line,
                        format!("round {}: score {s} is out of range", r + 1),
                    ));
                }
            }
            if o > n {
                return Err(err(
                    p.line,
                    format!(
                        "round {}: opponent #{o}, but the file has {n} players",
                        r + 1
                    ),
                ));
            }
            if o == me {
                return Err(err(
                    p.line,
                    format!("round {}: {} is paired with themselves", r + 1, p.name),
                ));
            }
            let back = players[o as usize - 1].opponents.get(r).copied();
            if back != Some(me) {
                return Err(err(
                    p.line,
                    format!(
                        "round {}: {} plays #{o} ({}), whose line has {}",
                        r + 1,
                        p.name,
                        players[o as usize - 1].name,
                        match back {
                            Some(0) => "a bye".to_string(),
                            Some(x) => format!("#{x}"),
                            None => "no pairing".to_string(),
                        }
                    ),
                ));
            }
        }
    }
    Ok(players)
}

/// The actions that rebuild a `.t` file as division `division` (the tournament must already
/// exist): the division, its players, each round's pairings and results, and withdrawals.
pub fn division_actions(
    text: &str,
    division: &str,
    preset: &str,
    schedule: &str,
    seed: u64,
) -> Result<Vec<Action>, TshError> {
    let players = parse_t(text)?;
    let mut out = vec![Action::AddDivision {
        division: division.into(),
        preset: preset.into(),
        schedule: schedule.into(),
        seed,
    }];
    for p in &players {
        out.push(Action::AddPlayer {
            division: division.into(),
            name: p.name.clone(),
            rating: p.rating,
            member_id: p.member_id.clone(),
            career_games: p.lifeg,
            members: Vec::new(),
        });
    }
    // A withdrawn player's automatic results: the trailing rows with no opponent and the `off`
    // spread.
    let withdrawn_from: Vec<Option<u32>> = players
        .iter()
        .map(|p| {
            p.off.map(|off| {
                let mut from = p.opponents.len();
                while from > 0 && p.opponents[from - 1] == 0 && p.scores.get(from - 1) == Some(&off)
                {
                    from -= 1;
                }
                from as u32 + 1
            })
        })
        .collect();
    let rounds = players.iter().map(|p| p.opponents.len()).max().unwrap_or(0);
    let p12 = |p: &TshPlayer, r: usize| p.p12.get(r).copied().unwrap_or(0);
    for r in 0..rounds {
        let round = r as u32 + 1;
        let mut pairings = Vec::new();
        let mut results = Vec::new();
        for (i, p) in players.iter().enumerate() {
            let me = i as PlayerId + 1;
            let Some(&opp) = p.opponents.get(r) else {
                continue;
            };
            if opp == 0 {
                let score = p.scores.get(r).copied();
                if withdrawn_from[i].is_some_and(|w| round >= w) {
                    pairings.push(Pairing::Absent {
                        player: me,
                        spread: score.unwrap_or(0),
                    });
                } else {
                    pairings.push(Pairing::Bye {
                        player: me,
                        spread: score.unwrap_or(50),
                        counts_as: match p12(p, r) {
                            1 => Some(Seat::First),
                            2 => Some(Seat::Second),
                            _ => None,
                        },
                    });
                }
            } else if me < opp {
                let o = &players[opp as usize - 1];
                let me_first = match (p12(p, r), p12(o, r)) {
                    (1, _) | (_, 2) => true,
                    (2, _) | (_, 1) => false,
                    _ => true,
                };
                let (first, second) = if me_first { (me, opp) } else { (opp, me) };
                pairings.push(Pairing::Game(Game {
                    board: 0,
                    first,
                    second,
                    first_by: FirstReason::Imported,
                    result: None,
                    slip: None,
                    corrections: Vec::new(),
                }));
                if let (Some(&a), Some(&b)) = (p.scores.get(r), o.scores.get(r)) {
                    results.push(Action::SetResult {
                        division: division.into(),
                        round,
                        player: me,
                        result: ResultEntry::Scores {
                            score: a,
                            opponent_score: b,
                        },
                        note: "imported from a .t file".into(),
                    });
                }
            }
        }
        let mut board = 0;
        for x in pairings.iter_mut() {
            if let Pairing::Game(g) = x {
                board += 1;
                g.board = board;
            }
        }
        out.push(Action::Pair {
            division: division.into(),
            round,
            method: Method::Manual,
            based_on: round - 1,
            pairings,
        });
        out.extend(results);
    }
    for (i, w) in withdrawn_from.iter().enumerate() {
        if let Some(from) = w {
            out.push(Action::Withdraw {
                division: division.into(),
                player: i as PlayerId + 1,
                from_round: *from,
            });
        }
    }
    Ok(out)
}

/// The file name a division gets in an archive.
pub fn file_name(division: &str) -> String {
    let safe: String = division
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.t")
}

/// Writes a whole tournament as a `.tsh` archive.
pub fn write_tsh_archive(t: &Tournament) -> Result<String, TshError> {
    let mut out = String::new();
    out.push_str(&format!("# {}\n", t.name));
    for d in &t.divisions {
        out.push_str(&format!("division {} {}\n", d.name, file_name(&d.name)));
    }
    for d in &t.divisions {
        let f = file_name(&d.name);
        out.push_str(&format!("#begin_file name={f}\n"));
        out.push_str(&write_t(d)?);
        out.push_str(&format!("#end_file name={f}\n"));
    }
    Ok(out)
}

/// Reads a `.tsh` archive into (division name, `.t` text) pairs, in `division` line order.
pub fn read_tsh_archive(text: &str) -> Result<Vec<(String, String)>, TshError> {
    let mut divisions = Vec::new();
    let mut files: Vec<(String, String)> = Vec::new();
    let mut current: Option<(String, String, usize)> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("#begin_file name=") {
            current = Some((name.trim().to_string(), String::new(), i + 1));
        } else if let Some(name) = t.strip_prefix("#end_file name=") {
            match current.take() {
                Some((n, body, _)) if n == name.trim() => files.push((n, body)),
                _ => {
                    return Err(TshError::Line {
                        line: i + 1,
                        reason: format!("#end_file for {:?} without its #begin_file", name.trim()),
                    })
                }
            }
        } else if let Some((_, body, _)) = &mut current {
            body.push_str(line);
            body.push('\n');
        } else if let Some(rest) = t.strip_prefix("division ") {
            let mut w = rest.split_whitespace();
            if let (Some(d), Some(f)) = (w.next(), w.next()) {
                divisions.push((d.to_string(), f.to_string()));
            }
        }
    }
    if let Some((n, _, line)) = current {
        return Err(TshError::Line {
            line,
            reason: format!("#begin_file for {n:?} is never closed"),
        });
    }
    divisions
        .into_iter()
        .map(|(d, f)| {
            files
                .iter()
                .find(|(n, _)| *n == f)
                .map(|(_, body)| (d.clone(), body.clone()))
                .ok_or(TshError::Archive {
                    what: format!("division {d}"),
                    reason: format!("file {f} is not in the archive"),
                })
        })
        .collect()
}
