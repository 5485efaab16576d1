//! A player's public profile, `/u/NAME` (issue 30 item 2): their online ratings per category
//! with a chart of each rating's history (an SVG drawn here, with the same figures in a table
//! for whoever cannot see it), their games with links to each game's page, score sheet (GCG)
//! and analysis, and their record against each of the computer's levels. The handler
//! (`tilebag-server/src/profile.rs`) gathers the figures; this module only lays them out.

use super::public_layout;
use maud::{html, Markup};
use std::fmt::Write as _;

/// A rating as the profile shows it.
pub struct ProfileRating {
    /// The category's name for people: lexicon and time-control class (`ENABLE · blitz`).
    pub category: String,
    /// The rating, rounded, with `?` while provisional (`1612?`).
    pub rating: String,
    /// The deviation as it stands now (grown since the last game), rounded.
    pub deviation: i64,
    pub games: u64,
    pub provisional: bool,
    /// Oldest first.
    pub history: Vec<HistoryPoint>,
    /// The rating and deviation before the first game of `history`, when the history starts
    /// at the player's first game in the category (a newcomer's rating); the chart starts its
    /// line there so that even one game's change shows.
    pub start: Option<(f64, f64)>,
}

/// The rating after one game.
pub struct HistoryPoint {
    /// `2026-11-27`.
    pub date: String,
    pub game_id: String,
    pub rating: f64,
    pub deviation: f64,
}

/// One of the player's games.
pub struct ProfileGame {
    pub id: String,
    /// The other seat's name (`Computer (static)` for the computer).
    pub opponent: String,
    /// `Won`, `Lost`, `Tied`, `Playing` or `Not started`.
    pub result: &'static str,
    /// The player's score, then the opponent's, once the game has ended.
    pub scores: Option<(i32, i32)>,
    /// How it ended, when not by the usual end (`resigned`, `left the game`, ...).
    pub how: Option<String>,
    /// `2026-11-27`.
    pub date: String,
    /// The title of the rules' preset (`NASPA Official Tournament Rules (2013)`).
    pub rules: String,
    pub lexicon: String,
    pub rated: bool,
    pub event: bool,
    pub correspondence: bool,
    /// Its score sheet and analysis exist (the game has ended).
    pub ended: bool,
}

/// Wins, losses and ties against one level of the computer.
pub struct ComputerRecord {
    pub level: String,
    pub wins: u32,
    pub losses: u32,
    pub ties: u32,
}

/// Everything `/u/NAME` shows.
pub struct Profile {
    pub username: String,
    pub since: String,
    pub ratings: Vec<ProfileRating>,
    pub games: Vec<ProfileGame>,
    /// How many of the player's newest games the list and the record were made from (the
    /// list shows all of them).
    pub games_considered: usize,
    pub computer: Vec<ComputerRecord>,
}

/// `GET /u/NAME`: what anybody may see of a player.
pub fn profile_page(p: &Profile) -> Markup {
    public_layout(
        &p.username,
        html! {
            p #since { "Playing on tilebag since " (p.since) "." }
            h2 #ratings-h { "Online ratings" }
            (ratings(&p.ratings))
            h2 #games-h { "Games" }
            (games(&p.games, p.games_considered))
            h2 #computer-h { "Against the computer" }
            (computer(&p.computer))
            p.hint { "The same figures as data: " a href=(format!("/api/users/{}", super::enc(&p.username))) { "/api/users/" (p.username) } "." }
        },
        None,
    )
}

fn ratings(ratings: &[ProfileRating]) -> Markup {
    html! {
        @if ratings.is_empty() {
            p #no-ratings { "No rated games yet." }
        } @else {
            div.scroll tabindex="0" {
                table #ratings {
                    caption { "Glicko-2 ratings by lexicon and time control; a " abbr title="provisional" { "?" } " marks a provisional rating (deviation above 110)" }
                    thead { tr { th scope="col" { "Category" } th scope="col" { "Rating" } th scope="col" { "Deviation" } th scope="col" { "Games" } } }
                    tbody {
                        @for r in ratings {
                            tr class=[r.provisional.then_some("provisional")] {
                                td { (r.category) }
                                td.n { (r.rating) @if r.provisional { span.visually-hidden { " (provisional)" } } }
                                td.n { "±" (r.deviation) }
                                td.n { (r.games) }
                            }
                        }
                    }
                }
            }
            @for (i, r) in ratings.iter().enumerate() {
                @if !r.history.is_empty() {
                    (history(i, r))
                }
            }
        }
    }
}

/// The chart's size in its own units (it scales to the page's width).
const W: f64 = 320.0;
const H: f64 = 160.0;
/// Room for the axis labels.
const LEFT: f64 = 40.0;
const RIGHT: f64 = 8.0;
const TOP: f64 = 10.0;
const BOTTOM: f64 = 22.0;

/// A rating's history: the chart (rating after each game, the band of ± one deviation) and the
/// same figures as a table.
fn history(i: usize, r: &ProfileRating) -> Markup {
    // The points drawn: the rating before the first game (when known), then after each game.
    let drawn: Vec<(f64, f64)> = r
        .start
        .into_iter()
        .chain(r.history.iter().map(|p| (p.rating, p.deviation)))
        .collect();
    let pts = &r.history;
    let lo = drawn
        .iter()
        .map(|&(v, d)| v - d)
        .fold(f64::INFINITY, f64::min);
    let hi = drawn
        .iter()
        .map(|&(v, d)| v + d)
        .fold(f64::NEG_INFINITY, f64::max);
    // Round the scale out to whole 50s, at least 100 points tall.
    let mut lo = (lo / 50.0).floor() * 50.0;
    let mut hi = (hi / 50.0).ceil() * 50.0;
    if hi - lo < 100.0 {
        let mid = (hi + lo) / 2.0;
        lo = mid - 50.0;
        hi = mid + 50.0;
    }
    let n = pts.len();
    let m = drawn.len();
    let x = |k: usize| {
        if m == 1 {
            LEFT + (W - LEFT - RIGHT) / 2.0
        } else {
            LEFT + (W - LEFT - RIGHT) * k as f64 / (m - 1) as f64
        }
    };
    let y = |v: f64| TOP + (H - TOP - BOTTOM) * (hi - v) / (hi - lo);
    let mut line = String::new();
    let mut band = String::new();
    for (k, &(v, d)) in drawn.iter().enumerate() {
        let _ = write!(line, "{:.1},{:.1} ", x(k), y(v));
        let _ = write!(band, "{:.1},{:.1} ", x(k), y(v + d));
    }
    for (k, &(v, d)) in drawn.iter().enumerate().rev() {
        let _ = write!(band, "{:.1},{:.1} ", x(k), y(v - d));
    }
    let first = &pts[0];
    let last = &pts[n - 1];
    let (first_v, _) = drawn[0];
    let (last_v, _) = drawn[m - 1];
    // The values at the line's two ends, above their points (below when at the top).
    let label_y = |v: f64| {
        let py = y(v);
        if py - 6.0 < TOP + 8.0 {
            py + 14.0
        } else {
            py - 6.0
        }
    };
    let title_id = format!("chart-{i}-title");
    let desc_id = format!("chart-{i}-desc");
    let from = match r.start {
        Some((v, d)) => format!(
            "from {v:.0} (±{d:.0}) before the first game, on {}, ",
            first.date
        ),
        None => format!(
            "from {:.0} (±{:.0}) on {} ",
            first.rating, first.deviation, first.date
        ),
    };
    let summary = format!(
        "{}: {from}to {:.0} (±{:.0}) on {}.",
        games_count(n),
        last.rating,
        last.deviation,
        last.date
    );
    html! {
        figure.rating-chart style="margin: 1rem 0" {
            figcaption { h3 { "History: " (r.category) } }
            svg viewBox=(format!("0 0 {W} {H}")) width="100%" style="max-width: 32rem; height: auto; display: block"
                role="img" aria-labelledby=(format!("{title_id} {desc_id}")) {
                title id=(title_id) { "The rating after each game, " (r.category) }
                desc id=(desc_id) { (summary) " The shaded band is the rating plus or minus its deviation." }
                // Axes and the scale's ends.
                line x1=(LEFT) y1=(TOP) x2=(LEFT) y2=(H - BOTTOM) stroke="#555" stroke-width="1" {}
                line x1=(LEFT) y1=(H - BOTTOM) x2=(W - RIGHT) y2=(H - BOTTOM) stroke="#555" stroke-width="1" {}
                text x=(LEFT - 4.0) y=(TOP + 4.0) text-anchor="end" font-size="12" fill="#222" { (format!("{hi:.0}")) }
                text x=(LEFT - 4.0) y=(H - BOTTOM) text-anchor="end" font-size="12" fill="#222" { (format!("{lo:.0}")) }
                text x=(LEFT) y=(H - 6.0) font-size="12" fill="#222" { (first.date) }
                @if m > 1 {
                    text x=(W - RIGHT) y=(H - 6.0) text-anchor="end" font-size="12" fill="#222" { (last.date) }
                }
                polygon points=(band.trim_end()) fill="#3a6ea5" fill-opacity="0.18" stroke="none" {}
                @if m > 1 {
                    polyline points=(line.trim_end()) fill="none" stroke="#1d4f86" stroke-width="2" {}
                }
                @for (k, &(v, _)) in drawn.iter().enumerate() {
                    circle cx=(format!("{:.1}", x(k))) cy=(format!("{:.1}", y(v))) r="3" fill="#1d4f86" {}
                }
                // The first and last values, so the change reads without the table.
                text.chart-first x=(format!("{:.1}", x(0))) y=(format!("{:.1}", label_y(first_v)))
                    text-anchor="start" font-size="12" fill="#222" { (format!("{first_v:.0}")) }
                @if m > 1 {
                    text.chart-last x=(format!("{:.1}", x(m - 1))) y=(format!("{:.1}", label_y(last_v)))
                        text-anchor="end" font-size="12" fill="#222" { (format!("{last_v:.0}")) }
                }
            }
            details {
                summary { "The same figures as a table" }
                div.scroll tabindex="0" {
                    table.rating-history {
                        caption { "Rating after each game, " (r.category) ", oldest first" }
                        thead { tr { th scope="col" { "Date" } th scope="col" { "Game" } th scope="col" { "Rating" } th scope="col" { "Deviation" } } }
                        tbody {
                            @for p in pts {
                                tr {
                                    td { (p.date) }
                                    td { a href=(format!("/games/{}", super::enc(&p.game_id))) { (p.game_id) } }
                                    td.n { (format!("{:.0}", p.rating)) }
                                    td.n { "±" (format!("{:.0}", p.deviation)) }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// `1 game`, `2 games`.
fn games_count(n: usize) -> String {
    format!("{n} game{}", if n == 1 { "" } else { "s" })
}

fn games(games: &[ProfileGame], considered: usize) -> Markup {
    html! {
        @if games.is_empty() {
            p #no-games { "No games yet." }
        } @else {
            p.hint {
                @if games.len() == 1 { "One game." } @else { "The newest " (games.len()) " games, newest first." }
                @if games.len() >= considered { " Older games are not listed." } }
            ol #games.games-list {
                @for g in games {
                    li data-game=(g.id) {
                        strong.outcome { (g.result) }
                        @if let Some((mine, theirs)) = g.scores { " " span.score { (mine) "–" (theirs) } }
                        " against " span.opponent { (g.opponent) }
                        @if let Some(how) = &g.how { " (" (how) ")" }
                        br;
                        span.meta {
                            (g.date) " · " (g.rules) ", " (g.lexicon) " · "
                            @if g.event { "event game" } @else if g.rated { "rated" } @else { "not rated" }
                            @if g.correspondence { " · correspondence" }
                        }
                        br;
                        a href=(format!("/games/{}", super::enc(&g.id))) { "Game" span.visually-hidden { " " (g.id) } }
                        @if g.ended {
                            " · " a href=(format!("/api/games/{}/gcg", super::enc(&g.id))) { "Score sheet (GCG)" span.visually-hidden { " of " (g.id) } }
                            " · " a href=(format!("/games/{}#analysis", super::enc(&g.id))) { "Analysis" span.visually-hidden { " of " (g.id) } }
                        }
                    }
                }
            }
        }
    }
}

fn computer(records: &[ComputerRecord]) -> Markup {
    html! {
        @if records.is_empty() {
            p #no-computer { "No finished games against the computer." }
        } @else {
            div.scroll tabindex="0" {
                table #computer {
                    caption { "Wins, losses and ties against each level of the computer" }
                    thead { tr { th scope="col" { "Level" } th scope="col" { "Won" } th scope="col" { "Lost" } th scope="col" { "Tied" } } }
                    tbody {
                        @for r in records {
                            tr { td { (r.level) } td.n { (r.wins) } td.n { (r.losses) } td.n { (r.ties) } }
                        }
                    }
                }
            }
        }
    }
}
