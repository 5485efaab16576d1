//! The prize table (tsh's `prize` lines, issue 13): places, class prizes, high game, high loss
//! and the biggest upset by rating, through a round.
//!
//! - **Places**: the division's `prize-bands` places (3 when unset), from the standings.
//! - **Class prizes** (`class-prizes`): by rating band (`rating:1800,1600`: "1600–1799", then
//!   "under 1600", unrated players included: each class is labelled with its band) or by the tsh `class` field
//!   an imported `.t` file keeps (`class`). One prize a class, to the best-placed player of the
//!   class who has not already won a place or an earlier class prize (a player wins at most one
//!   standing prize).
//! - **High game** and **high loss**: the highest score in a played game, and the highest losing
//!   score (forfeits, byes and void games do not count); every tied player is listed.
//! - **Biggest upset**: the played game whose winner was rated furthest below the loser (both
//!   rated), by pre-event rating; ties listed.

// `ClassPrizes` is a division setting, so it lives with the division's settings in `model`.
pub use crate::model::ClassPrizes;
use crate::model::{Division, GameResult, Pairing, PlayerId, Seat};
use crate::standings::fmt_half;
use crate::tables::{name_of, Table};

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
                (format!("Class: {}", rating_band(t, floor)), f)
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

/// The common reports (tsh's alphabetical pairings, high wins, high losses, upsets and
/// round-by-round ratings), as tables.
///
/// Alphabetical pairings for `round`: every player by name (case-insensitive), with board,
/// opponent ("bye", "forfeit loss" or "withdrawn" when there is none) and seat ("unknown" for a
/// game whose first was not recorded).
pub fn alpha_pairings_table(d: &Division, round: u32) -> Table {
    let mut rows = Vec::new();
    if let Some(r) = d.round(round) {
        for p in &r.pairings {
            match p {
                Pairing::Game(g) => {
                    for (me, opp) in [(g.first, g.second), (g.second, g.first)] {
                        // A seat a file did not record is not invented from the order of the
                        // players (NASPA III.D counts only known firsts).
                        let seat = match g.seat_of(me) {
                            Some(Seat::First) => "first",
                            Some(Seat::Second) => "second",
                            None => "unknown",
                        };
                        rows.push(vec![
                            name_of(d, me),
                            g.board.to_string(),
                            name_of(d, opp),
                            seat.to_string(),
                        ]);
                    }
                }
                Pairing::Bye {
                    player, forfeit, ..
                } => rows.push(vec![
                    name_of(d, *player),
                    String::new(),
                    if *forfeit { "forfeit loss" } else { "bye" }.into(),
                    String::new(),
                ]),
                Pairing::Absent { player, .. } => rows.push(vec![
                    name_of(d, *player),
                    String::new(),
                    "withdrawn".into(),
                    String::new(),
                ]),
            }
        }
    }
    rows.sort_by(|a, b| {
        a[0].to_lowercase()
            .cmp(&b[0].to_lowercase())
            .then(a[0].cmp(&b[0]))
    });
    Table {
        cols: vec![
            ("Player", "player", false),
            ("Board", "board", true),
            ("Opponent", "opponent", false),
            ("Goes", "seat", false),
        ],
        rows,
    }
}

/// A list of games: rank, figure, player, opponent's figure, opponent, round.
fn game_list(
    d: &Division,
    mut v: Vec<(i32, PlayerId, i32, PlayerId, u32)>,
    n: usize,
    head: (&'static str, &'static str),
    opp_head: (&'static str, &'static str),
) -> Table {
    // Highest figure first; ties by round, then player number.
    v.sort_by(|a, b| b.0.cmp(&a.0).then(a.4.cmp(&b.4)).then(a.1.cmp(&b.1)));
    v.truncate(n);
    let rows = v
        .iter()
        .enumerate()
        .map(|(i, x)| {
            vec![
                (i + 1).to_string(),
                x.0.to_string(),
                name_of(d, x.1),
                x.2.to_string(),
                name_of(d, x.3),
                x.4.to_string(),
            ]
        })
        .collect();
    Table {
        cols: vec![
            ("#", "rank", true),
            (head.0, head.1, true),
            ("Player", "player", false),
            (opp_head.0, opp_head.1, true),
            ("Opponent", "opponent", false),
            ("Round", "round", true),
        ],
        rows,
    }
}

/// The `n` highest winning scores in played games through `through`.
pub fn high_wins_table(d: &Division, through: u32, n: usize) -> Table {
    let v = played(d, through)
        .iter()
        .filter(|g| g.sa != g.sb)
        .map(|g| {
            if g.sa > g.sb {
                (g.sa, g.a, g.sb, g.b, g.round)
            } else {
                (g.sb, g.b, g.sa, g.a, g.round)
            }
        })
        .collect();
    game_list(d, v, n, ("Score", "score"), ("Lost with", "opponent_score"))
}

/// The `n` highest losing scores in played games through `through`.
pub fn high_losses_table(d: &Division, through: u32, n: usize) -> Table {
    let v = played(d, through)
        .iter()
        .filter(|g| g.sa != g.sb)
        .map(|g| {
            if g.sa < g.sb {
                (g.sa, g.a, g.sb, g.b, g.round)
            } else {
                (g.sb, g.b, g.sa, g.a, g.round)
            }
        })
        .collect();
    game_list(d, v, n, ("Score", "score"), ("Winner's", "opponent_score"))
}

/// The `n` biggest upsets by pre-event rating (both players rated) through `through`: the gap,
/// the winner, the loser's rating and the loser.
pub fn upsets_table(d: &Division, through: u32, n: usize) -> Table {
    let rating = |p: PlayerId| d.player(p).map_or(0, |x| x.rating);
    let v = played(d, through)
        .iter()
        .filter_map(|g| {
            let (w, l) = match g.sa.cmp(&g.sb) {
                std::cmp::Ordering::Greater => (g.a, g.b),
                std::cmp::Ordering::Less => (g.b, g.a),
                std::cmp::Ordering::Equal => return None,
            };
            let (rw, rl) = (rating(w), rating(l));
            (rw > 0 && rl > rw).then_some((rl - rw, w, rl, l, g.round))
        })
        .collect();
    game_list(d, v, n, ("Gap", "gap"), ("Loser rated", "loser_rating"))
}

/// Column labels `R1`, `R2`, … for tables with a column a round.
fn round_label(r: u32) -> &'static str {
    static LABELS: std::sync::OnceLock<Vec<String>> = std::sync::OnceLock::new();
    let labels = LABELS.get_or_init(|| (1..=200).map(|r| format!("R{r}")).collect());
    labels.get(r as usize - 1).map_or("R200+", |s| s.as_str())
}

/// Each player's rating estimate after every round through `through` (tsh's RoundRATings, one
/// column a round): how the event is rating them as it goes.
pub fn rating_by_round_table(d: &Division, through: u32) -> Table {
    let mut rows: Vec<Vec<String>> = d
        .players
        .iter()
        .map(|p| vec![p.id.to_string(), name_of(d, p.id), p.rating.to_string()])
        .collect();
    for r in 1..=through {
        for (row, (_, c)) in rows.iter_mut().zip(d.rating_estimates(r)) {
            row.push(c.rounded().to_string());
        }
    }
    let mut cols = vec![
        ("#", "player", true),
        ("Player", "name", false),
        ("Old", "old", true),
    ];
    for r in 1..=through {
        let l = round_label(r);
        cols.push((l, l, true));
    }
    Table { cols, rows }
}

/// Each player's performance rating after every round through `through` (tsh's per-round
/// performance rating, [`Division::performance_ratings`]): what rating their results so far
/// would produce. Empty until the player has a rated game.
pub fn performance_by_round_table(d: &Division, through: u32) -> Table {
    let mut rows: Vec<Vec<String>> = d
        .players
        .iter()
        .map(|p| vec![p.id.to_string(), name_of(d, p.id), p.rating.to_string()])
        .collect();
    for r in 1..=through {
        for (row, (_, perf)) in rows.iter_mut().zip(d.performance_ratings(r)) {
            row.push(perf.map_or(String::new(), |x| format!("{}", x.round() as i32)));
        }
    }
    let mut cols = vec![
        ("#", "player", true),
        ("Player", "name", false),
        ("Rating", "rating", true),
    ];
    for r in 1..=through {
        let l = round_label(r);
        cols.push((l, l, true));
    }
    Table { cols, rows }
}

/// A player's class, as the division gives class prizes: the tsh `class` field, or the rating
/// band ("under 1800") of the pre-event rating; empty when the division has no class prizes.
pub fn class_of(d: &Division, p: PlayerId) -> String {
    match &d.config.class_prizes {
        ClassPrizes::None | ClassPrizes::TshClass => tsh_class(d, p).unwrap_or_default(),
        ClassPrizes::RatingBands { thresholds } => {
            let r = d.player(p).map_or(0, |x| x.rating);
            // Thresholds run from the highest down; a player's class is the lowest one above
            // their rating, down to the next threshold.
            thresholds
                .iter()
                .enumerate()
                .rev()
                .find(|&(_, &t)| r < t)
                .map(|(k, &t)| rating_band(t, thresholds.get(k + 1).copied()))
                .unwrap_or_default()
        }
    }
}

/// A rating class's label: the band from `floor` up to below `top` (`1400–1599`), or
/// `under 1400` for the lowest class (which holds the unrated players too).
fn rating_band(top: i32, floor: Option<i32>) -> String {
    match floor {
        Some(f) => format!("{f}–{}", top - 1),
        None => format!("under {top}"),
    }
}

/// tsh's roster: every player by number, with name, pre-event rating, class (see [`class_of`])
/// and member id; withdrawn and ejected players are marked.
pub fn roster_table(d: &Division) -> Table {
    let rows = d
        .players
        .iter()
        .map(|p| {
            vec![
                p.id.to_string(),
                p.name.clone(),
                if p.rating > 0 {
                    p.rating.to_string()
                } else {
                    "unrated".into()
                },
                class_of(d, p.id),
                p.member_id.clone().unwrap_or_default(),
                if p.ejected {
                    "ejected".into()
                } else {
                    p.withdrawn_from
                        .map(|r| format!("withdrawn from round {r}"))
                        .unwrap_or_default()
                },
            ]
        })
        .collect();
    Table {
        cols: vec![
            ("#", "player", true),
            ("Player", "name", false),
            ("Rating", "rating", true),
            ("Class", "class", false),
            ("Member id", "member_id", false),
            ("Status", "status", false),
        ],
        rows,
    }
}

/// One wall-chart cell: seat and opponent, then the result and the game's spread once it is in:
/// `1st v #3 W 412-380 +32`; `bye +50`, `forfeit loss -50`, `withdrawn -50`; `2nd v #4` while
/// the result is out; empty for a round the player is not in. A seat the file did not record
/// shows as `v #3` alone.
fn wall_cell(d: &Division, round: u32, p: PlayerId) -> String {
    let Some(pr) = d.player_round(round, p) else {
        return String::new();
    };
    let mut cell = match (pr.pairing, pr.opponent) {
        (_, Some(o)) => match pr.seat {
            Some(Seat::First) => format!("1st v #{o}"),
            Some(Seat::Second) => format!("2nd v #{o}"),
            None => format!("v #{o}"),
        },
        (Pairing::Bye { forfeit: true, .. }, _) => "forfeit loss".into(),
        (Pairing::Bye { .. }, _) => "bye".into(),
        _ => "withdrawn".into(),
    };
    if let Some(o) = pr.outcome {
        if pr.opponent.is_some() {
            let wlt = match (o.wins2, o.losses2) {
                (2, _) => "W",
                (_, 2) => "L",
                (1, 1) => "T",
                _ => "-",
            };
            cell.push(' ');
            cell.push_str(wlt);
            if let Some((a, b)) = o.scores {
                cell.push_str(&format!(" {a}-{b}"));
            } else if matches!(pr.pairing, Pairing::Game(g) if matches!(g.result, Some(GameResult::Forfeit { .. })))
            {
                cell.push_str(" forfeit");
            }
        }
        cell.push_str(&format!(" {:+}", o.spread));
    }
    cell
}

/// tsh's wall chart through round `through`: a row a player (by number), a column a round (see
/// [`wall_cell`] for a cell), then the record and spread after `through`.
pub fn wallchart_table(d: &Division, through: u32) -> Table {
    let through = through.min(d.rounds.len() as u32);
    let stand = d.standings(through);
    let rows = d
        .players
        .iter()
        .map(|p| {
            let mut row = vec![p.id.to_string(), p.name.clone()];
            for r in 1..=through {
                row.push(wall_cell(d, r, p.id));
            }
            let s = stand.iter().find(|s| s.player == p.id);
            row.push(s.map_or(String::new(), |s| {
                format!("{}-{}", fmt_half(s.wins2), fmt_half(s.losses2))
            }));
            row.push(s.map_or(String::new(), |s| format!("{:+}", s.ranking_spread())));
            row
        })
        .collect();
    let mut cols = vec![("#", "player", true), ("Player", "name", false)];
    for r in 1..=through {
        let l = round_label(r);
        cols.push((l, l, false));
    }
    cols.push(("Record", "record", true));
    cols.push(("Spread", "spread", true));
    Table { cols, rows }
}
