//! The director's tables: pairings, standings, firsts and seconds, rating estimates and players,
//! each as rows of cells that print as aligned text, CSV or an HTML page. `tilebag td` prints
//! them and the server's director pages show them, so both show the same thing.

use crate::model::{Division, FirstReason, GameResult, Pairing, PlayerId, Seat, Tournament};
use crate::report;
// Shared with the printable pages, so it lives in `report`, which this file builds on.
pub use crate::report::why_first;
use crate::standings::fmt_half;

/// A table: (text heading, CSV key, right-aligned) columns and rows of cells.
pub struct Table {
    pub cols: Vec<(&'static str, &'static str, bool)>,
    pub rows: Vec<Vec<String>>,
}

impl Table {
    pub fn text(&self) -> String {
        let mut w: Vec<usize> = self.cols.iter().map(|c| c.0.chars().count()).collect();
        for r in &self.rows {
            for (i, c) in r.iter().enumerate() {
                w[i] = w[i].max(c.chars().count());
            }
        }
        let line = |cells: Vec<&str>| {
            let mut s = String::new();
            for (i, c) in cells.iter().enumerate() {
                if i > 0 {
                    s.push_str("  ");
                }
                let pad = w[i] - c.chars().count();
                if self.cols[i].2 {
                    s.push_str(&" ".repeat(pad));
                    s.push_str(c);
                } else {
                    s.push_str(c);
                    s.push_str(&" ".repeat(pad));
                }
            }
            format!("{}\n", s.trim_end())
        };
        let mut out = line(self.cols.iter().map(|c| c.0).collect());
        for r in &self.rows {
            out.push_str(&line(r.iter().map(String::as_str).collect()));
        }
        out
    }

    pub fn csv(&self) -> String {
        let mut out = self.cols.iter().map(|c| c.1).collect::<Vec<_>>().join(",");
        out.push('\n');
        for r in &self.rows {
            let cells: Vec<String> = r.iter().map(|c| report::csv_field(c)).collect();
            out.push_str(&cells.join(","));
            out.push('\n');
        }
        out
    }

    /// The table as a self-contained printable page (a maud template: every cell is escaped).
    pub fn html(&self, t: &Tournament, d: &Division, title: &str) -> String {
        const CSS: &str = "body{font-family:Georgia,serif;margin:1.5em}table{border-collapse:collapse}\
th,td{border:1px solid #999;padding:.2em .5em;text-align:left}th{background:#eee}td.n{text-align:right}";
        let body = maud::html! {
            table {
                tr { @for c in &self.cols { th { (c.0) } } }
                @for r in &self.rows {
                    tr { @for (i, c) in r.iter().enumerate() { td class=[self.cols[i].2.then_some("n")] { (c) } } }
                }
            }
        };
        report::page_with(t, d, title, CSS, body)
    }
}

pub fn pairings_table(d: &Division, round: u32) -> Table {
    let mut rows = Vec::new();
    if let Some(r) = d.round(round) {
        let mut entries: Vec<&Pairing> = r.pairings.iter().collect();
        // Games by board, then byes and withdrawn players by number.
        entries.sort_by_key(|p| match p {
            Pairing::Game(g) => (0, g.board, 0),
            Pairing::Bye { player, .. } => (1, 0, *player),
            Pairing::Absent { player, .. } => (2, 0, *player),
        });
        for p in entries {
            rows.push(match p {
                Pairing::Game(g) => vec![
                    g.board.to_string(),
                    g.first.to_string(),
                    name_of(d, g.first),
                    g.second.to_string(),
                    name_of(d, g.second),
                    why_first(&g.first_by),
                    result_text(d, g.result.as_ref(), g.slip.is_some()),
                ],
                Pairing::Bye {
                    player,
                    spread,
                    forfeit,
                    pending,
                    ..
                } => vec![
                    String::new(),
                    player.to_string(),
                    name_of(d, *player),
                    String::new(),
                    if *forfeit { "forfeit loss" } else { "bye" }.into(),
                    String::new(),
                    if *pending {
                        String::new()
                    } else {
                        format!("{spread:+}")
                    },
                ],
                Pairing::Absent { player, spread } => vec![
                    String::new(),
                    player.to_string(),
                    name_of(d, *player),
                    String::new(),
                    "withdrawn".into(),
                    String::new(),
                    format!("{spread:+}"),
                ],
            });
        }
    }
    Table {
        cols: vec![
            ("Board", "board", true),
            ("#", "first", true),
            ("First", "first_name", false),
            ("#", "second", true),
            ("Second", "second_name", false),
            ("Why first", "first_by", false),
            ("Result", "result", false),
        ],
        rows,
    }
}

pub fn standings_table(d: &Division, through: u32) -> Table {
    let capped = d.config.spread_cap.is_some();
    let rows = d
        .standings(through)
        .into_iter()
        .map(|s| {
            vec![
                s.rank.to_string(),
                s.player.to_string(),
                s.name.clone(),
                s.rating.to_string(),
                fmt_half(s.wins2),
                fmt_half(s.losses2),
                format!("{:+}", if capped { s.capped_spread } else { s.spread }),
                s.points_for.to_string(),
                s.byes.to_string(),
                if s.active { "" } else { "withdrawn" }.to_string(),
            ]
        })
        .collect();
    Table {
        cols: vec![
            ("Rank", "rank", true),
            ("#", "player", true),
            ("Player", "name", false),
            ("Rating", "rating", true),
            ("Won", "wins", true),
            ("Lost", "losses", true),
            (
                if capped { "Spread (capped)" } else { "Spread" },
                "spread",
                true,
            ),
            ("Points", "points_for", true),
            ("Byes", "byes", true),
            ("Status", "status", false),
        ],
        rows,
    }
}

pub fn firsts_table(d: &Division, through: u32) -> Table {
    let tally = d.firsts_tally(through + 1);
    let seats = d.firsts_by_round();
    let rows = d
        .players
        .iter()
        .map(|p| {
            let (f, s) = tally.get(p.id);
            let marks: String = seats
                .iter()
                .zip(1..)
                .take(through as usize)
                .map(|(row, round)| match row.get(p.id as usize - 1).copied().flatten() {
                    Some(Seat::First) => '1',
                    Some(Seat::Second) => '2',
                    // A game whose starter a file did not record.
                    None if d.player_round(round, p.id).is_some_and(|pr| {
                        matches!(pr.pairing, Pairing::Game(g) if matches!(g.first_by, FirstReason::Unknown { .. }))
                    }) =>
                    {
                        '?'
                    }
                    None => '-',
                })
                .collect();
            vec![
                p.id.to_string(),
                p.name.clone(),
                f.to_string(),
                s.to_string(),
                marks,
            ]
        })
        .collect();
    Table {
        cols: vec![
            ("#", "player", true),
            ("Player", "name", false),
            ("Firsts", "firsts", true),
            ("Seconds", "seconds", true),
            ("By round", "seats", false),
        ],
        rows,
    }
}

pub fn ratings_table(d: &Division, through: u32) -> Table {
    let rows = d
        .rating_estimates(through)
        .into_iter()
        .map(|(p, c)| {
            let new = c.rounded();
            let old = c.old.round() as i32;
            vec![
                p.to_string(),
                name_of(d, p),
                old.to_string(),
                new.to_string(),
                format!("{:+}", new - old),
                c.games.to_string(),
                format!("{:.2}", c.expected),
                format!("{}", c.actual),
                rating_note(d, p, c.old),
            ]
        })
        .collect();
    Table {
        cols: vec![
            ("#", "player", true),
            ("Player", "name", false),
            ("Old", "old", true),
            ("New", "new", true),
            ("Change", "change", true),
            ("Games", "games", true),
            ("Expected", "expected", true),
            ("Won", "actual", true),
            ("Note", "note", false),
        ],
        rows,
    }
}

/// What a rating estimate assumed about a player: tsh's ratings code takes unknown career games
/// as [`crate::ratings::UNKNOWN_CAREER_GAMES`] (the veterans' multipliers). An unrated player's
/// first segment is a performance rating, which no multiplier touches: for them it matters only
/// in an event rated in more than one segment.
fn rating_note(d: &Division, p: PlayerId, old: f64) -> String {
    let mut notes = Vec::new();
    if old <= 0.0 {
        notes.push("unrated: rated from results".to_string());
    }
    let segments = crate::ratings::segment_ends(d.config.ratings, d.total_rounds()).len();
    if d.player(p).is_some_and(|x| x.career_games.is_none()) && (old > 0.0 || segments > 1) {
        notes.push(format!(
            "career games unknown: {} assumed (as tsh)",
            crate::ratings::UNKNOWN_CAREER_GAMES
        ));
    }
    notes.join("; ")
}

pub fn players_table(d: &Division) -> Table {
    let rows = d
        .players
        .iter()
        .map(|p| {
            vec![
                p.id.to_string(),
                p.name.clone(),
                p.rating.to_string(),
                p.member_id.clone().unwrap_or_default(),
                p.career_games.map(|g| g.to_string()).unwrap_or_default(),
                p.withdrawn_from
                    .map(|r| format!("withdrawn from round {r}"))
                    .unwrap_or_default(),
            ]
        })
        .collect();
    Table {
        cols: vec![
            ("#", "player", true),
            ("Player", "name", false),
            ("Rating", "rating", true),
            ("Member id", "member_id", false),
            ("Career games", "career_games", true),
            ("Status", "status", false),
        ],
        rows,
    }
}

pub fn result_text(d: &Division, r: Option<&GameResult>, slip: bool) -> String {
    match r {
        Some(GameResult::Played {
            first_score,
            second_score,
            left_by,
            resigned_by,
            ..
        }) => match (left_by, resigned_by) {
            (Some(p), _) => format!("{first_score}-{second_score} (#{p} left)"),
            (None, Some(p)) => format!("{first_score}-{second_score} (#{p} resigned)"),
            (None, None) => format!("{first_score}-{second_score}"),
        },
        Some(GameResult::Forfeit { loser, spread }) => {
            format!("forfeit by #{loser} ({}) by {spread}", name_of(d, *loser))
        }
        Some(GameResult::DoubleForfeit { spread }) => format!("double forfeit ({spread})"),
        Some(GameResult::Void) => "void (WESPA 6.2.4)".into(),
        None if slip => "slip awaiting confirmation".into(),
        None => String::new(),
    }
}

pub fn name_of(d: &Division, p: PlayerId) -> String {
    d.player(p)
        .map_or_else(|| format!("#{p}"), |x| x.name.clone())
}
