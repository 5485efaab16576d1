//! The prize table (tsh's `prize` lines, issue 13): places, class prizes, high game, high loss
//! and the biggest upset by rating, through a round.
//!
//! - **Places**: the division's `prize-bands` places (3 when unset), from the standings.
//! - **Class prizes** (`class-prizes`): by rating band (`rating:1800,1600`: "under 1800" is
//!   1600–1799, "under 1600" is below 1600, unrated players included) or by the tsh `class` field
//!   an imported `.t` file keeps (`class`). One prize a class, to the best-placed player of the
//!   class who has not already won a place or an earlier class prize (a player wins at most one
//!   standing prize).
//! - **High game** and **high loss**: the highest score in a played game, and the highest losing
//!   score (forfeits, byes and void games do not count); every tied player is listed.
//! - **Biggest upset**: the played game whose winner was rated furthest below the loser (both
//!   rated), by pre-event rating; ties listed.

use serde::{Deserialize, Serialize};

use crate::model::{Division, GameResult, Pairing, PlayerId};
use crate::standings::fmt_half;
use crate::tables::{name_of, Table};

/// How class prizes are given.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "kebab-case")]
pub enum ClassPrizes {
    #[default]
    None,
    /// By the tsh `class` field (`; class B`).
    TshClass,
    /// By pre-event rating: each threshold starts a class "under T" down to the next threshold.
    RatingBands { thresholds: Vec<i32> },
}

impl ClassPrizes {
    pub fn is_none(&self) -> bool {
        *self == ClassPrizes::None
    }

    /// Reads `none`, `class` or `rating:T1,T2,…` (thresholds, any order).
    pub fn parse(value: &str) -> Result<ClassPrizes, String> {
        let v = value.trim().to_ascii_lowercase();
        let bad = || {
            format!(
                "class-prizes takes none, class (the tsh class field) or rating:T1,T2,… \
                 (rating thresholds, e.g. rating:1800,1600), not {value:?}"
            )
        };
        Ok(match v.as_str() {
            "none" | "off" => ClassPrizes::None,
            "class" => ClassPrizes::TshClass,
            _ => {
                let list = v.strip_prefix("rating:").ok_or_else(bad)?;
                let mut thresholds = list
                    .split(',')
                    .map(|t| t.trim().parse::<i32>().map_err(|_| bad()))
                    .collect::<Result<Vec<_>, _>>()?;
                if thresholds.is_empty() {
                    return Err(bad());
                }
                thresholds.sort_unstable_by(|a, b| b.cmp(a));
                thresholds.dedup();
                ClassPrizes::RatingBands { thresholds }
            }
        })
    }

    /// As [`ClassPrizes::parse`] reads it.
    pub fn text(&self) -> String {
        match self {
            ClassPrizes::None => "none".into(),
            ClassPrizes::TshClass => "class".into(),
            ClassPrizes::RatingBands { thresholds } => format!(
                "rating:{}",
                thresholds
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        }
    }
}

/// The tsh `class` field a player's imported line kept, if any.
pub fn tsh_class(d: &Division, p: PlayerId) -> Option<String> {
    d.player(p)?.tsh_fields.iter().find_map(|f| {
        let f = f.trim().trim_start_matches(';').trim();
        let (k, v) = f.split_once(char::is_whitespace)?;
        (k == "class").then(|| v.trim().to_string())
    })
}

fn ordinal(n: u32) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// One played game: its round, and each seat's player and score.
struct Played {
    round: u32,
    a: PlayerId,
    sa: i32,
    b: PlayerId,
    sb: i32,
}

fn played(d: &Division, through: u32) -> Vec<Played> {
    let mut out = Vec::new();
    for (i, r) in d.rounds.iter().take(through as usize).enumerate() {
        for p in &r.pairings {
            if let Pairing::Game(g) = p {
                if let Some(GameResult::Played {
                    first_score,
                    second_score,
                    ..
                }) = &g.result
                {
                    out.push(Played {
                        round: i as u32 + 1,
                        a: g.first,
                        sa: *first_score,
                        b: g.second,
                        sb: *second_score,
                    });
                }
            }
        }
    }
    out
}

/// The prize table through round `through`: columns Prize, Player, Detail.
pub fn prize_table(d: &Division, through: u32) -> Table {
    let stand = d.standings(through);
    let mut rows: Vec<Vec<String>> = Vec::new();
    let record = |i: usize| {
        let s = &stand[i];
        format!(
            "{}-{} {:+}",
            fmt_half(s.wins2),
            fmt_half(s.losses2),
            s.ranking_spread()
        )
    };
    let places = (d.config.prize_bands.unwrap_or(3) as usize).min(stand.len());
    let mut taken: Vec<PlayerId> = Vec::new();
    for (i, s) in stand.iter().take(places).enumerate() {
        rows.push(vec![
            format!("{} place", ordinal(i as u32 + 1)),
            name_of(d, s.player),
            record(i),
        ]);
        taken.push(s.player);
    }
    // Classes, in the order they are listed, each with its members.
    type Member<'d> = Box<dyn Fn(PlayerId) -> bool + 'd>;
    let classes: Vec<(String, Member)> = match &d.config.class_prizes {
        ClassPrizes::None => Vec::new(),
        ClassPrizes::RatingBands { thresholds } => thresholds
            .iter()
            .enumerate()
            .map(|(k, &t)| {
                let floor = thresholds.get(k + 1).copied();
                let f: Box<dyn Fn(PlayerId) -> bool> = Box::new(move |p: PlayerId| {
                    let r = d.player(p).map_or(0, |x| x.rating);
                    r < t && floor.is_none_or(|fl| r >= fl)
                });
                (format!("Class: under {t}"), f)
            })
            .collect(),
        ClassPrizes::TshClass => {
            let mut names: Vec<String> = d
                .players
                .iter()
                .filter_map(|p| tsh_class(d, p.id))
                .collect();
            names.sort();
            names.dedup();
            names
                .into_iter()
                .map(|c| {
                    let label = format!("Class {c}");
                    let f: Box<dyn Fn(PlayerId) -> bool> =
                        Box::new(move |p: PlayerId| tsh_class(d, p).as_deref() == Some(c.as_str()));
                    (label, f)
                })
                .collect()
        }
    };
    for (label, member) in classes {
        let winner = stand
            .iter()
            .enumerate()
            .find(|(_, s)| member(s.player) && !taken.contains(&s.player));
        match winner {
            Some((i, s)) => {
                rows.push(vec![
                    label,
                    name_of(d, s.player),
                    format!("{}, {}", ordinal(s.rank), record(i)),
                ]);
                taken.push(s.player);
            }
            None => rows.push(vec![label, "—".into(), "no eligible player".into()]),
        }
    }
    let games = played(d, through);
    // High game: (score, player, opponent, round).
    let mut scores: Vec<(i32, PlayerId, PlayerId, u32, bool)> = Vec::new();
    for g in &games {
        scores.push((g.sa, g.a, g.b, g.round, g.sa < g.sb));
        scores.push((g.sb, g.b, g.a, g.round, g.sb < g.sa));
    }
    let mut list = |label: &str, v: Vec<&(i32, PlayerId, PlayerId, u32, bool)>| {
        if let Some(best) = v.iter().map(|x| x.0).max() {
            for x in v.iter().filter(|x| x.0 == best) {
                rows.push(vec![
                    label.to_string(),
                    name_of(d, x.1),
                    format!("{} v {}, round {}", x.0, name_of(d, x.2), x.3),
                ]);
            }
        }
    };
    list("High game", scores.iter().collect());
    list("High loss", scores.iter().filter(|x| x.4).collect());
    let rating = |p: PlayerId| d.player(p).map_or(0, |x| x.rating);
    let upsets: Vec<(i32, PlayerId, PlayerId, u32)> = games
        .iter()
        .filter_map(|g| {
            let (w, l) = match g.sa.cmp(&g.sb) {
                std::cmp::Ordering::Greater => (g.a, g.b),
                std::cmp::Ordering::Less => (g.b, g.a),
                std::cmp::Ordering::Equal => return None,
            };
            let (rw, rl) = (rating(w), rating(l));
            (rw > 0 && rl > rw).then_some((rl - rw, w, l, g.round))
        })
        .collect();
    if let Some(best) = upsets.iter().map(|x| x.0).max() {
        for x in upsets.iter().filter(|x| x.0 == best) {
            rows.push(vec![
                "Biggest upset".into(),
                name_of(d, x.1),
                format!(
                    "{} beat {} {}: {}, round {}",
                    rating(x.1),
                    name_of(d, x.2),
                    rating(x.2),
                    x.0,
                    x.3
                ),
            ]);
        }
    }
    Table {
        cols: vec![
            ("Prize", "prize", false),
            ("Player", "player", false),
            ("Detail", "detail", false),
        ],
        rows,
    }
}
