//! The HTML of the director's pages and the players' event pages, as maud templates: checked by
//! the compiler and escaping every interpolated value by default (no hand-called `esc`). One
//! module per page family:
//!
//! - [`td`]: the director's pages (`/td`): events, a division's tabs, pairing, undo, links;
//! - [`printouts`]: what the director prints for the wall and the tables;
//! - [`public`]: the players' pages (`/events/...`, `/p/...`), which never show a file path
//!   and never wear the director's navigation.
//!
//! Here: the two page layouts, the banners, and the wording shared by all (scores with an en
//! dash, results in words, the standings heading). Templates take plain data; they never reach
//! the event files or the live games themselves.

pub mod accounts;
pub mod moderation;
pub mod online_events;
pub mod printouts;
pub mod profile;
pub mod public;
pub mod td;

use maud::{html, Markup, DOCTYPE};
use serde::Deserialize;
use std::fmt::Write as _;
use tilebag_core::game::EndReason;
use tilebag_tournament::tables::{name_of, Table};
use tilebag_tournament::{Division, Game, GameResult};

/// Percent-encodes a path segment or query value.
pub fn enc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// Where a form goes back to, with a message (`Ok`) or an error (`Err`) to show there.
pub fn back_url(to: &str, ok: Result<String, String>) -> String {
    let sep = if to.contains('?') { '&' } else { '?' };
    match ok {
        Ok(m) if m.is_empty() => to.to_string(),
        Ok(m) => format!("{to}{sep}msg={}", enc(&m)),
        Err(e) => format!("{to}{sep}err={}", enc(&e)),
    }
}

/// The `?msg=`/`?err=` a redirect carries back, and the page's own choices.
#[derive(Deserialize, Default)]
pub struct Flash {
    pub msg: Option<String>,
    pub err: Option<String>,
    pub round: Option<u32>,
    pub tab: Option<String>,
}

pub fn flash(f: &Flash) -> Markup {
    html! {
        @if let Some(m) = &f.msg { p.flash.ok #message role="status" { (m) } }
        @if let Some(e) = &f.err { p.flash.err #error role="alert" { (e) } }
    }
}

/// The site's header and main navigation (the same links as the pages in `web/`).
fn site_header(current: &str) -> Markup {
    const LINKS: [(&str, &str); 6] = [
        ("/", "Games"),
        ("/clock", "Clock"),
        ("/judge", "Word judge"),
        ("/scoresheet", "Score sheet"),
        ("/td", "Director"),
        ("/account", "Account"),
    ];
    html! {
        a.skip href="#main" { "Skip to the content" }
        header.site {
            a.brand href="/" { "tilebag" }
            nav aria-label="tilebag pages" {
                ul {
                    @for (href, label) in LINKS {
                        li { a href=(href) aria-current=[(href == current).then_some("page")] { (label) } }
                    }
                }
            }
        }
    }
}

fn head(title: &str, script: Option<&str>) -> Markup {
    html! {
        head {
            meta charset="utf-8";
            meta name="viewport" content="width=device-width, initial-scale=1";
            title { (title) }
            link rel="icon" href="/assets/favicon.svg" type="image/svg+xml";
            link rel="stylesheet" href="/assets/style.css";
            link rel="stylesheet" href="/assets/td.css";
            @if let Some(s) = script { script type="module" src=(s) {} }
        }
    }
}

/// A director's page: the site navigation, the breadcrumbs from `/td`, and Sign out.
pub fn director_layout(
    title: &str,
    crumbs: &[(String, String)],
    body: Markup,
    script: Option<&str>,
) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            (head(&format!("{title} · tilebag director"), script))
            body.page-td {
                (site_header("/td"))
                main.td #main {
                    nav.crumbs aria-label="Where you are" {
                        a href="/td" { "Events" }
                        @for (href, text) in crumbs { " › " a href=(href) { (text) } }
                    }
                    h1 { (title) }
                    (body)
                    form.signout method="post" action="/td/logout" { button { "Sign out" } }
                }
            }
        }
    }
}

/// What makes a players' page live: the stream its updates come from (`GET .../live`, Server-Sent
/// Events) and the version of the body it was built with (see [`live_version`]).
pub struct Live {
    pub stream: String,
    pub version: String,
}

/// The version of a live page's body: a hash of its HTML, so that the page replaces its body only
/// when the server's differs from the one it shows.
pub fn live_version(body: &Markup) -> String {
    // FNV-1a, 64 bits.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in body.0.as_bytes() {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    format!("{h:016x}")
}

/// A players' page: the site navigation only (no director's links). With `live`, the body takes
/// its updates from the server as they happen (`td.js`: pushed, not reloaded), with a line that
/// says whether it is live and a box to turn that off (WCAG 2.2.2); without script it is a plain
/// page.
pub fn public_layout(title: &str, body: Markup, live: Option<&Live>) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (title) }
                link rel="icon" href="/assets/favicon.svg" type="image/svg+xml";
                link rel="stylesheet" href="/assets/style.css";
                link rel="stylesheet" href="/assets/td.css";
                @if live.is_some() { script type="module" src="/assets/td.js" {} }
            }
            body.page-event {
                (site_header(""))
                main.td.public #main {
                    h1 { (title) }
                    @if let Some(l) = live {
                        div.live-bar #live-bar hidden {
                            p.live-status #live-status role="status" data-state="connecting" {}
                            label.check { input type="checkbox" #live-updates checked; " Show results as they come in" }
                        }
                        div #live-body data-stream=(l.stream) data-version=(l.version) { (body) }
                    } @else {
                        (body)
                    }
                }
            }
        }
    }
}

/// A refusal on a director's page.
pub fn director_error(message: &str) -> Markup {
    director_layout(
        "Refused",
        &[],
        html! { p.flash.err #error role="alert" { (message) } },
        None,
    )
}

/// A refusal on a players' page: the message only (written for the public: no file path, no
/// server detail), in the public layout.
pub fn public_error(message: &str) -> Markup {
    public_layout(
        "Not found",
        html! { p.flash.err #error role="alert" { (message) } },
        None,
    )
}

pub fn login_page(error: Option<&str>) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            (head("Director sign-in · tilebag", None))
            body.page-td {
                (site_header("/td"))
                main.td.narrow #main {
                    h1 { "Director sign-in" }
                    @if let Some(e) = error { p.flash.err #error role="alert" { (e) } }
                    form method="post" action="/td/login" {
                        label { "Director key " input type="password" name="key" #key autocomplete="current-password" required; }
                        button #sign-in { "Sign in" }
                    }
                    p { "The key is printed when " code { "tilebag serve" } " starts (or set with " code { "--director-key" } ")." }
                }
            }
        }
    }
}

/// A table of the tournament crate's, in its own scrolling box (the page never scrolls sideways).
pub fn table(t: &Table, id: &str) -> Markup {
    html! {
        div.scroll tabindex="0" {
            table id=(id) {
                thead { tr { @for c in &t.cols { th scope="col" { (c.0) } } } }
                tbody {
                    @for r in &t.rows {
                        tr { @for (i, c) in r.iter().enumerate() { td class=[t.cols[i].2.then_some("n")] { (c) } } }
                    }
                }
            }
        }
    }
}

/// Scores as written everywhere: `412–389`, with an en dash (a negative score with a minus
/// sign, `−13–−7`, so the dash stays readable).
pub fn score(a: i32, b: i32) -> String {
    let n = |x: i32| {
        if x < 0 {
            format!("\u{2212}{}", x.unsigned_abs())
        } else {
            x.to_string()
        }
    };
    format!("{}\u{2013}{}", n(a), n(b))
}

/// "round N", or the seeding for round 0.
pub fn based_on_text(round: u32) -> String {
    if round == 0 {
        "the seeding (ratings)".into()
    } else {
        format!("round {round}")
    }
}

/// How an online game ended, in words, when the scores alone would mislead: a resignation or a
/// departure (with the score it happened at, before the rule's margin was applied: "resigned at
/// 0–0"), a game the director ended, the overtime limit. `seat0` is the pairing's player who had
/// the game's first seat.
pub fn ending_words(
    d: &Division,
    g: &Game,
    seat0: u32,
    res: &tilebag_live::view::ResultView,
) -> Option<String> {
    let player_at = |seat: usize| {
        let p = if seat == 0 {
            seat0
        } else {
            g.opponent_of(seat0).unwrap_or(seat0)
        };
        format!("#{p} {}", name_of(d, p))
    };
    // The scores before the end-of-game adjustments, from the pairing's first player's side.
    let mut before = res.scores;
    for a in &res.adjustments {
        if let Some(x) = before.get_mut(a.seat) {
            *x -= a.points;
        }
    }
    let at = if g.first == seat0 {
        score(before[0], before[1])
    } else {
        score(before[1], before[0])
    };
    match res.reason {
        EndReason::Resigned { seat } => Some(format!("{} resigned at {at}", player_at(seat))),
        EndReason::Left { seat } => Some(format!("{} left the game at {at}", player_at(seat))),
        EndReason::DirectorEnded => Some("ended by the director".into()),
        EndReason::OvertimeLimit { seat } => {
            Some(format!("{} reached the overtime limit", player_at(seat)))
        }
        _ => None,
    }
}

/// A game's result in words, scores with an en dash; `ending` says how an online game ended
/// (so a resignation at 0–0 reads as a resignation, not as a tie).
pub fn result_words(d: &Division, g: &Game, ending: Option<String>) -> String {
    let base = match &g.result {
        Some(GameResult::Played {
            first_score,
            second_score,
            left_by,
            resigned_by,
            ..
        }) => match (left_by, resigned_by) {
            // The live game's own words (below) say it better, with the score at the time.
            (Some(p), _) if ending.is_none() => format!(
                "{} (#{p} {} left the game)",
                score(*first_score, *second_score),
                name_of(d, *p)
            ),
            (_, Some(p)) if ending.is_none() => format!(
                "{} (#{p} {} resigned)",
                score(*first_score, *second_score),
                name_of(d, *p)
            ),
            _ => score(*first_score, *second_score),
        },
        Some(GameResult::Forfeit { loser, spread }) => {
            format!(
                "forfeit by #{loser} {} (spread {spread})",
                name_of(d, *loser)
            )
        }
        Some(GameResult::DoubleForfeit { spread }) => format!("double forfeit (spread {spread})"),
        Some(GameResult::Void) => "void (WESPA 6.2.4)".into(),
        None if g.slip.is_some() => "slip awaiting confirmation".into(),
        None => String::new(),
    };
    match ending {
        Some(e) if g.result.is_some() => format!("{base}, {e}"),
        _ => base,
    }
}

/// The round the standings are shown after, and their heading: "after round N" only for a
/// round whose results are all in; while one is in progress, how many of its games are in.
pub fn standings_through(d: &Division) -> (u32, String) {
    let mut through = 0;
    for r in &d.rounds {
        let games: Vec<&Game> = r.pairings.iter().filter_map(|p| p.game()).collect();
        let done = games.iter().filter(|g| g.result.is_some()).count();
        if done == 0 && !games.is_empty() {
            break;
        }
        through = r.number;
        if done < games.len() {
            return (
                through,
                format!(
                    "Standings during round {} ({done} of {} games in)",
                    r.number,
                    games.len()
                ),
            );
        }
    }
    if through == 0 {
        (0, "Standings (no results yet)".into())
    } else {
        (through, format!("Standings after round {through}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_are_written_with_an_en_dash_and_negatives_with_a_minus_sign() {
        assert_eq!(score(412, 389), "412\u{2013}389");
        assert_eq!(score(0, 0), "0\u{2013}0");
        assert_eq!(score(-13, -7), "\u{2212}13\u{2013}\u{2212}7");
    }

    #[test]
    fn paths_and_queries_are_percent_encoded() {
        assert_eq!(enc("club night/A?x=1&y"), "club%20night%2FA%3Fx%3D1%26y");
        assert_eq!(enc("spring-open_2.0~"), "spring-open_2.0~");
    }

    #[test]
    fn templates_escape_what_they_are_given() {
        let m = flash(&Flash {
            msg: Some("<b>bold</b> & co".into()),
            ..Flash::default()
        })
        .into_string();
        assert!(m.contains("&lt;b&gt;bold&lt;/b&gt; &amp; co"), "{m}");
        assert!(!m.contains("<b>"), "{m}");
    }
}
