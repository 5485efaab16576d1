//! The director's pages (`/td`): the events, an event, a division (in tabs: round, players,
//! standings, prizes, reports, settings, print), the pairing preview, the undo confirmation and the players'
//! links. The handlers in `director.rs` gather the data; these functions only lay it out.

use super::{
    based_on_text, director_layout, enc, flash, result_words, score, standings_through, table,
    Flash,
};
use maud::{html, Markup};
use std::collections::HashMap;
use tilebag_core::Ruleset;
use tilebag_events::EventEntry;
use tilebag_tournament::checks;
use tilebag_tournament::tables::{
    firsts_table, name_of, players_table, ratings_table, standings_table, why_first, Table,
};
use tilebag_tournament::{Division, GameResult, Method, Pairing, PlayerId, Tournament};

/// An online game that ended but whose result is not the pairing's: the pairing already had a
/// result (a slip, the director) when the game ended, so the event kept that one.
pub struct Conflict {
    pub round: u32,
    pub board: u32,
    pub game_id: String,
    /// The online game's final scores, from the pairing's first player's side.
    pub online: (i32, i32),
    /// The result the event holds.
    pub kept: GameResult,
}

pub fn div_url(event: &str, division: &str) -> String {
    format!("/td/{}/d/{}", enc(event), enc(division))
}

fn event_url(event: &str) -> String {
    format!("/td/{}", enc(event))
}

/// A division's rules as the pages show them: the preset, and the organiser's choices if any.
pub fn rules_text(d: &Division) -> String {
    if d.config.rules.is_empty() {
        d.preset.clone()
    } else {
        format!("{} with {}", d.preset, d.config.rules.join(", "))
    }
}

fn undo_link(event: &str) -> Markup {
    html! {
        section #undo-section aria-labelledby="undo-h" {
            h2 #undo-h { "Undo" }
            p {
                a #undo href=(format!("{}/undo", event_url(event))) { "Undo the last change…" }
                " Every change is an action in the event's log; you will see in words what the \
                  newest one did before anything is undone."
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Events.

pub struct Damaged {
    pub id: String,
    pub reason: String,
}

pub fn home(f: &Flash, list: &[EventEntry], paths: &[String], damaged: &[Damaged]) -> Markup {
    let body = html! {
        (flash(f))
        section aria-labelledby="events-h" {
            h2 #events-h { "Events" }
            @if list.is_empty() {
                p { "No events yet." }
            } @else {
                div.scroll tabindex="0" { table #events {
                    thead { tr { th scope="col" { "Event" } th scope="col" { "Date" } th scope="col" { "Divisions" } th scope="col" { "File" } } }
                    tbody { @for (e, path) in list.iter().zip(paths) {
                        tr {
                            td { a href=(event_url(&e.id)) { (e.name) } }
                            td { (e.date.as_deref().unwrap_or("")) }
                            td.n { (e.divisions) }
                            td { code { (path) } }
                        }
                    } }
                } }
            }
        }
        @if !damaged.is_empty() {
            section #damaged aria-labelledby="damaged-h" {
                h2 #damaged-h { "Games kept out of play" }
                p { "These unfinished games could not be restored when the server started. Nothing was deleted: \
                     once the cause is put right (a lexicon loaded again, a row repaired), restart the server." }
                div.scroll tabindex="0" { table {
                    thead { tr { th scope="col" { "Game" } th scope="col" { "Why" } } }
                    tbody { @for d in damaged { tr { td { code { (d.id) } } td { (d.reason) } } } }
                } }
            }
        }
        section aria-labelledby="new-h" {
            h2 #new-h { "New event" }
            form method="post" action="/td/new" {
                label { "Id " input name="id" #new-id required pattern="[a-z0-9][a-z0-9\\-]{0,39}" placeholder="spring-open"; }
                label { "Name " input name="name" #new-name required maxlength="80" placeholder="Spring Open"; }
                label { "Date " input type="date" name="date" #new-date; }
                button #create-event { "Create event" }
            }
        }
        section aria-labelledby="sessions-h" {
            h2 #sessions-h { "Signed-in browsers" }
            p { "Each browser signed in with the key stays signed in for 12 hours after its last use \
                 (a week at most). If a signed-in device was lost or the key was shared, sign every \
                 browser out, this one included; then change the key and restart the server." }
            form method="post" action="/td/logout-everywhere" { button #sign-out-everywhere { "Sign out everywhere" } }
        }
    };
    director_layout("Tournament direction", &[], body, None)
}

pub fn event_page(f: &Flash, event: &str, t: &Tournament, default_preset: &str) -> Markup {
    let body = html! {
        (flash(f))
        p { (t.date.as_deref().unwrap_or("No date set")) }
        section aria-labelledby="divisions-h" {
            h2 #divisions-h { "Divisions" }
            @if t.divisions.is_empty() {
                p { "No divisions yet: add one below." }
            } @else {
                div.scroll tabindex="0" { table #divisions {
                    thead { tr { th scope="col" { "Division" } th scope="col" { "Rules" } th scope="col" { "Schedule" } th scope="col" { "Players" } th scope="col" { "Rounds paired" } } }
                    tbody { @for d in &t.divisions {
                        tr {
                            td { a href=(div_url(event, &d.name)) { (d.name) } }
                            td { (rules_text(d)) }
                            td { code { (d.schedule.to_string()) } }
                            td.n { (d.players.len()) }
                            td.n { (d.rounds.len()) " of " (d.total_rounds()) }
                        }
                    } }
                } }
            }
        }
        section aria-labelledby="add-division-h" {
            h2 #add-division-h { "Add a division" }
            form method="post" action=(format!("{}/division", event_url(event))) {
                label { "Name " input name="name" #division-name required maxlength="20" placeholder="A"; }
                label { "Rules " select name="preset" #division-preset {
                    @for p in Ruleset::PRESETS {
                        option value=(p) selected[p == default_preset] {
                            (Ruleset::preset(p).map(|r| r.title).unwrap_or_default()) " (" (p) ")"
                        }
                    }
                } }
                label { "Schedule " input name="schedule" #division-schedule required placeholder="SW:7"; }
                label { "Seed " input type="number" name="seed" min="0" placeholder="random"; }
                button #add-division { "Add division" }
            }
            p { "Schedule: methods with round counts — RR (round robin), KOTH, SW (Swiss), CP (Chew), COP, IF (Initial Fontes), \
                 AD (Australian Draw), RAND, MAN (by hand); e.g. " code { "IF:3 SW:9 KOTH:1" } ", or "
                code { "RR:2" } " for a double round robin." }
        }
        section #event-details aria-labelledby="event-details-h" {
            h2 #event-details-h { "Name and date" }
            form method="post" action=(format!("{}/details", event_url(event))) {
                label { "Name " input name="name" #event-name required maxlength="80" value=(t.name); }
                label { "First day " input type="date" name="date" #event-date value=(t.date.as_deref().unwrap_or("")); }
                button #save-event { "Save name and date" }
            }
            p { "The header of the WESPA .TOU file carries the date. Either can be changed at any time \
                 (a date cannot be removed, only changed); each change is an action of the event's log." }
        }
        @if t.divisions.len() > 1 {
            section aria-labelledby="event-submit-h" {
                h2 #event-submit-h { "Ratings" }
                p { a #submit-wespa-event href=(format!("{}/submit-wespa.tou", event_url(event))) {
                        "WESPA: the AUPAIR .TOU file of the whole event" }
                    " (a section per division, as AUPAIR writes it; each division's own files are on its Print tab)" }
            }
        }
        (undo_link(event))
    };
    director_layout(&t.name, &[(event_url(event), t.name.clone())], body, None)
}

/// The undo confirmation: what the newest action did, in words.
pub fn undo_confirm(
    event: &str,
    t: &Tournament,
    last: Option<(i64, String)>,
    version: &str,
) -> Markup {
    let body = html! {
        @match &last {
            None => p #undo-what { "The log is empty: there is nothing to undo." },
            Some((seq, words)) => {
                p #undo-what { "The newest change (action #" (seq) ") was: " strong { (words) } "." }
                p { "Undo removes it from the event's log, as if it had never been made." }
                form method="post" action=(format!("{}/undo", event_url(event))) {
                    input type="hidden" name="version" value=(version);
                    button #confirm-undo { "Undo: " (words) }
                    " "
                    a href=(event_url(event)) { "Keep it" }
                }
            }
        }
    };
    director_layout(
        &format!("{} · undo", t.name),
        &[(event_url(event), t.name.clone())],
        body,
        None,
    )
}

// ---------------------------------------------------------------------------------------------
// A division.

#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Tab {
    Round,
    Players,
    Standings,
    Prizes,
    Reports,
    Settings,
    Print,
}

impl Tab {
    const ALL: [(Tab, &'static str, &'static str); 7] = [
        (Tab::Round, "round", "Round"),
        (Tab::Players, "players", "Players"),
        (Tab::Standings, "standings", "Standings"),
        (Tab::Prizes, "prizes", "Prizes"),
        (Tab::Reports, "reports", "Reports"),
        (Tab::Settings, "settings", "Settings"),
        (Tab::Print, "print", "Print and export"),
    ];

    /// The tab a `?tab=` names; without one, Players until a round is paired, then Round.
    pub fn from_query(q: Option<&str>, d: &Division) -> Tab {
        Tab::ALL
            .iter()
            .find(|(_, code, _)| Some(*code) == q)
            .map(|x| x.0)
            .unwrap_or(if d.rounds.is_empty() {
                Tab::Players
            } else {
                Tab::Round
            })
    }
}

/// Where a live online game stands.
pub enum OnlineStatus {
    NotFound,
    Ended,
    Called(String),
    Stopped,
    Waiting,
    Live,
}

pub struct OnlineCell {
    pub game_id: String,
    /// Seat links (seat 0 is the pairing's first player at the start), with the players' names.
    pub seats: [(String, String); 2],
    pub status: OnlineStatus,
    /// The rule for ending a game early, in the division's own book.
    pub end_rule: &'static str,
}

/// A call for the director, from a live online game.
pub struct Call {
    pub round: u32,
    pub board: u32,
    pub who: String,
}

pub struct DivisionPage<'a> {
    pub event: &'a str,
    pub t: &'a Tournament,
    pub d: &'a Division,
    pub tab: Tab,
    /// The round shown on the Round tab (0: none paired).
    pub shown: u32,
    pub flash: &'a Flash,
    /// Online games of the shown round, by board.
    pub online: HashMap<u32, OnlineCell>,
    /// How the shown round's online games ended, by board, when the scores alone mislead.
    pub endings: HashMap<u32, String>,
    pub conflicts: Vec<Conflict>,
    pub calls: Vec<Call>,
    pub lexicons: Vec<String>,
    pub default_lexicon: &'a str,
}

pub fn calls_banner(calls: &[Call]) -> Markup {
    html! {
        @for c in calls {
            p.call-item {
                b.call { (c.who) " called the director" }
                " · round " (c.round) ", board " (c.board) " · "
                a href=(format!("?round={}#board-{}", c.round, c.board)) { "go to the board" }
            }
        }
    }
}

pub fn division_page(p: &DivisionPage<'_>) -> Markup {
    let d = p.d;
    let url = div_url(p.event, &d.name);
    let last = d.rounds.len() as u32;
    let body = html! {
        (flash(p.flash))
        p.summary {
            "Rules " b { (rules_text(d)) } " · schedule " code { (d.schedule.to_string()) } " · "
            (d.players.len()) " players · " (last) " of " (d.total_rounds()) " rounds paired · "
            "online games are judged by the lexicon chosen when they start (this server's default: "
            b #division-lexicon { (p.default_lexicon) } ")"
        }
        div #calls.calls aria-live="assertive" data-poll=(format!("{url}/calls")) data-stream=(format!("{url}/calls/stream")) {
            (calls_banner(&p.calls))
        }
        @if !p.conflicts.is_empty() {
            section #online-conflicts.warn aria-labelledby="conflicts-h" {
                h2 #conflicts-h { "Online results not recorded" }
                p { "These online games ended after their pairing already had a result, so the event kept \
                     that result. Check which is right; to take the online one, enter it as the final result." }
                ul { @for c in &p.conflicts {
                    li {
                        "Round " (c.round) ", board " (c.board) ": online game "
                        a href=(format!("/games/{}", c.game_id)) { (c.game_id) }
                        " ended " strong { (score(c.online.0, c.online.1)) } "; the event holds "
                        (conflict_kept(d, c))
                    }
                } }
            }
        }
        nav.tabs aria-label="Division sections" {
            ul { @for (tab, code, label) in Tab::ALL {
                li { a #(format!("tab-{code}")) href=(format!("{url}?tab={code}")) aria-current=[(tab == p.tab).then_some("page")] { (label) } }
            } }
        }
        @match p.tab {
            Tab::Round => (round_tab(p, &url)),
            Tab::Players => (players_tab(p, &url)),
            Tab::Standings => (standings_tab(p, &url)),
            Tab::Prizes => (prizes_tab(p, &url)),
            Tab::Reports => (reports_tab(p, &url)),
            Tab::Settings => (settings_tab(p, &url)),
            Tab::Print => (print_tab(p, &url)),
        }
        (undo_link(p.event))
    };
    director_layout(
        &format!("{} · Division {}", p.t.name, d.name),
        &[
            (event_url(p.event), p.t.name.clone()),
            (url.clone(), format!("Division {}", d.name)),
        ],
        body,
        Some("/assets/td.js"),
    )
}

fn conflict_kept(d: &Division, c: &Conflict) -> String {
    use tilebag_tournament::{GameResult, ResultSource};
    match &c.kept {
        GameResult::Played {
            first_score,
            second_score,
            source,
            ..
        } => {
            let from = match source {
                ResultSource::Slip { .. } => " (from a tally slip)",
                ResultSource::Director => " (entered by the director)",
                ResultSource::Online { .. } => " (from another online game)",
            };
            format!("{}{from}", score(*first_score, *second_score))
        }
        GameResult::Forfeit { loser, .. } => {
            format!("a forfeit by #{loser} {}", name_of(d, *loser))
        }
        GameResult::DoubleForfeit { .. } => "a double forfeit".into(),
        GameResult::Void => "a void game".into(),
    }
}

fn round_tab(p: &DivisionPage<'_>, url: &str) -> Markup {
    let d = p.d;
    let last = d.rounds.len() as u32;
    let r = p.shown.max(1);
    html! {
        @if p.shown > 0 { (round_section(p, url)) }
        (pair_section(d, url))
        section #by-hand aria-labelledby="by-hand-h" {
            h2 #by-hand-h { "Pairings by hand" }
            form method="post" action=(format!("{url}/act")) {
                input type="hidden" name="do" value="manual";
                label { "Round " input type="number" name="round" min="1" value=(r) required; }
                label { "Pair #" input type="number" name="player" #manual-player min="1" required; }
                label { "with #" input name="opponent" #manual-opponent size="4" placeholder="# or bye" required; }
                button #manual-pair { "Pair" }
                span.hint { "Their earlier games in the round are removed; firsts by the division's rule." }
            }
            form method="post" action=(format!("{url}/act")) {
                input type="hidden" name="do" value="swap";
                label { "Round " input type="number" name="round" min="1" value=(r) required; }
                label { "Swap who goes first in #" input type="number" name="player" min="1" required; }
                button { "Swap" }
            }
            @if last > 0 {
                form method="post" action=(format!("{url}/act")) {
                    input type="hidden" name="do" value="unpair";
                    input type="hidden" name="round" value=(last);
                    button #unpair { "Unpair round " (last) }
                    span.hint { "Only before any result." }
                }
            }
        }
    }
}

/// Pairing the next round (on the Round tab, and on the Players tab until round 1 is paired).
fn pair_section(d: &Division, url: &str) -> Markup {
    let next = d.rounds.len() as u32 + 1;
    html! {
        section aria-labelledby="pair-h" {
            h2 #pair-h { "Pair a round" }
            form method="get" action=(format!("{url}/pair")) {
                label { "Round " input type="number" name="round" #pair-round min="1" value=(next) required; }
                label { "Method " select name="method" #pair-method {
                    option value="" { "as the schedule says" }
                    @for m in ["RR", "KOTH", "SW", "CP", "COP", "IF", "AD", "RAND", "LIT3", "PO", "FIN"] {
                        @if let Some(method) = Method::from_code(m) { option value=(m) { (method.to_string()) } }
                    }
                } }
                label { "Based on round " input type="number" name="based_on" #pair-based-on min="0" placeholder="schedule"; }
                button #propose { "Show pairings" }
            }
            p { "The pairings are shown first; nothing is posted until you post them. A round may be paired \
                 on an earlier round's standings, so it can be posted before the current round ends." }
        }
    }
}

fn round_section(p: &DivisionPage<'_>, url: &str) -> Markup {
    let d = p.d;
    let round = p.shown;
    let Some(r) = d.round(round) else {
        return html! {};
    };
    let mut entries: Vec<&Pairing> = r.pairings.iter().collect();
    entries.sort_by_key(|p| match p {
        Pairing::Game(g) => (0, g.board, 0),
        Pairing::Bye { player, .. } => (1, 0, *player),
        Pairing::Absent { player, .. } => (2, 0, *player),
    });
    let who = |p: PlayerId| format!("#{p} {}", name_of(d, p));
    // Only boards with no result, no slip waiting and no online game yet get a game.
    let can_start = r
        .pairings
        .iter()
        .filter_map(Pairing::game)
        .any(|g| g.result.is_none() && g.slip.is_none() && !p.online.contains_key(&g.board));
    html! {
        section #round aria-labelledby="round-h" {
            h2 #round-h { "Round " (round) }
            nav aria-label="Rounds" { p { "Rounds: "
                @for n in 1..=d.rounds.len() as u32 {
                    @if n == round { b aria-current="page" { (n) } " " }
                    @else { a href=(format!("{url}?round={n}")) { (n) } " " }
                }
            } }
            p { (r.method.to_string()) " pairings, based on " (based_on_text(r.based_on)) }
            (missing_line(d, round))
            div.scroll tabindex="0" { table #games {
                thead { tr {
                    th scope="col" { "Board" } th scope="col" { "First" } th scope="col" { "Second" }
                    th scope="col" { "Why first" } th scope="col" { "Result" } th scope="col" { "Enter or correct" } th scope="col" { "Online" }
                } }
                tbody {
                @for pairing in entries {
                    @match pairing {
                        Pairing::Game(g) => {
                            tr #(format!("board-{}", g.board)) {
                                td.n { (g.board) }
                                td { (who(g.first)) }
                                td { (who(g.second)) }
                                td { (why_first(&g.first_by)) }
                                td.outcome { (result_words(d, g, p.endings.get(&g.board).cloned())) }
                                td {
                                    @if let (None, Some(slip)) = (&g.result, &g.slip) {
                                        @let other = g.opponent_of(slip.submitted_by).unwrap_or(g.first);
                                        "Slip " (score(slip.first_score, slip.second_score)) " from " (who(slip.submitted_by)) ". "
                                        form.inline method="post" action=(format!("{url}/result")) {
                                            input type="hidden" name="round" value=(round);
                                            input type="hidden" name="player" value=(other);
                                            input type="hidden" name="entry" value="confirm";
                                            button #(format!("confirm-{}", g.board)) { "Confirm for " (who(other)) }
                                        }
                                        br;
                                    }
                                    @if g.result.is_some() {
                                        details #(format!("correct-{}", g.board)) { summary { "Correct" } (result_form(url, round, g.board, g.first, g.second, true)) }
                                    } @else {
                                        (result_form(url, round, g.board, g.first, g.second, false))
                                    }
                                }
                                td { @if let Some(o) = p.online.get(&g.board) { (online_cell(url, o)) } }
                            }
                        }
                        Pairing::Bye { player, spread, .. } => {
                            tr { td {} td { (who(*player)) } td { "bye" } td {} td { (format!("{spread:+}")) } td {} td {} }
                        }
                        Pairing::Absent { player, spread } => {
                            tr { td {} td { (who(*player)) } td { "withdrawn" } td {} td { (format!("{spread:+}")) } td {} td {} }
                        }
                    }
                }
                }
            } }
            @if can_start {
                form method="post" action=(format!("{url}/online")) {
                    input type="hidden" name="round" value=(round);
                    label { "Lexicon " select name="lexicon" #online-lexicon {
                        @for name in &p.lexicons { option value=(name) selected[name == p.default_lexicon] { (name) } }
                    } }
                    button #start-online { "Start online games for round " (round) }
                }
                p { "Each game with no result, no tally slip waiting and no online game yet gets a game on this \
                     server under the division's rules and the lexicon chosen (the event's word source: NASPA \
                     III.A, WESPA Appendix 2); hand each player their seat link. Results come back here when the games end." }
            }
        }
    }
}

/// A board's result form: entering a result, or (`correcting`, under the row's "Correct") changing
/// the one that is in (tsh's EditScore, `tilebag td correct`). Unusual scores are entered only
/// with "the scores are right" ticked.
fn result_form(
    url: &str,
    round: u32,
    board: u32,
    first: PlayerId,
    second: PlayerId,
    correcting: bool,
) -> Markup {
    let (fw, sw) = (format!("#{first}"), format!("#{second}"));
    html! {
        form.inline method="post" action=(format!("{url}/result")) #(format!("result-{board}")) {
            input type="hidden" name="round" value=(round);
            input type="hidden" name="player" value=(first);
            @if correcting { input type="hidden" name="correct" value="1"; }
            input type="number" name="score" #(format!("score-{board}-first")) aria-label=(format!("{fw}'s score (first)")) min="-500" max="2000";
            " – "
            input type="number" name="opponent_score" #(format!("score-{board}-second")) aria-label=(format!("{sw}'s score (second)")) min="-500" max="2000";
            " "
            select name="entry" #(format!("entry-{board}")) aria-label="Kind of result" {
                // The director's own entry is final unless the director says otherwise
                // (issue 29 item 3): a tally slip awaits the opponent's confirmation.
                option value="final" selected { "final (director)" }
                option value="slip-first" { "tally slip from " (fw) " (awaits " (sw) ")" }
                option value="slip-second" { "tally slip from " (sw) " (awaits " (fw) ")" }
                option value="left-first" { (fw) " left the game" }
                option value="left-second" { (sw) " left the game" }
                option value="forfeit-first" { "forfeit by " (fw) }
                option value="forfeit-second" { "forfeit by " (sw) }
                option value="double-forfeit" { "double forfeit" }
                option value="clear" { "clear the result" }
            }
            " "
            input name="note" placeholder=(if correcting { "why" } else { "note" }) aria-label=(if correcting { "Why (kept with the correction)" } else { "Note" }) maxlength="200" size="8";
            " "
            label.check { input type="checkbox" name="yes" value="1" #(format!("yes-{board}")); " unusual scores are right" }
            " "
            button #(format!("enter-{board}")) { @if correcting { "Correct" } @else { "Enter" } }
        }
    }
}

fn online_cell(url: &str, o: &OnlineCell) -> Markup {
    let id = &o.game_id;
    let button = |what: &str, label: &str, bid: &str| {
        html! {
            form.inline method="post" action=(format!("{url}/game")) {
                input type="hidden" name="game" value=(id);
                input type="hidden" name="do" value=(what);
                button #(format!("{bid}-{id}")) { (label) }
            }
        }
    };
    html! {
        a href=(format!("/games/{id}")) { "game " (id) }
        " ("
        @match &o.status {
            OnlineStatus::NotFound => "not found",
            OnlineStatus::Ended => "ended",
            OnlineStatus::Called(who) => b.call { "clocks stopped: " (who) " called the director" },
            OnlineStatus::Stopped => b { "clocks stopped by the director" },
            OnlineStatus::Waiting => "waiting for both players",
            OnlineStatus::Live => "live",
        }
        ")"
        @if !matches!(o.status, OnlineStatus::NotFound) {
            @for (token, name) in &o.seats {
                br;
                a.seat href=(format!("/games/{id}?token={}", enc(token))) { "seat link: " (name) }
            }
        }
        @match &o.status {
            OnlineStatus::Called(_) | OnlineStatus::Stopped => {
                br; (button("resume", "Restart the clocks", "resume")) " " (button("end", &format!("End the game ({})", o.end_rule), "end"))
            }
            OnlineStatus::Waiting | OnlineStatus::Live => {
                br; (button("pause", "Stop the clocks", "pause")) " " (button("end", &format!("End the game ({})", o.end_rule), "end"))
            }
            _ => {}
        }
    }
}

fn players_tab(p: &DivisionPage<'_>, url: &str) -> Markup {
    let d = p.d;
    let team = d.config.format == tilebag_tournament::Format::Literacy2018Teams;
    let next = d.rounds.len() as u32 + 1;
    // After an add, the name field has the focus again for the next entry.
    html! {
        section #players-section aria-labelledby="players-h" {
            h2 #players-h { @if team { "Teams" } @else { "Players" } }
            form #add-player-form method="post" action=(format!("{url}/player")) {
                label { "Name " input name="name" #player-name required maxlength="40" placeholder=(if team { "Readers" } else { "Ann Lee" }) autofocus; }
                label { "Rating " input type="number" name="rating" #player-rating min="0" max="3000" value="0" placeholder="0 = unrated"; }
                label { "Member id " input name="member_id" #player-member maxlength="20" size="10" placeholder="optional"; }
                @if team {
                    label { "Team members " input name="members" #player-members maxlength="200" placeholder="Ann Lee, Bo Chen"; }
                }
                button #add-player { "Add " (if team { "team" } else { "player" }) }
            }
            (table(&players_table(d), "players"))
            p { a href=(format!("{url}/links")) #player-links { "Each player's own link" }
                " (their game, and tally slips they submit and confirm themselves)" }
        }
        // Online entries by players' accounts (issue 30 item 6).
        (crate::online_events::td_section(url, d))
        @if d.rounds.is_empty() { (pair_section(d, url)) }
        section aria-labelledby="change-h" {
            h2 #change-h { "Changes" }
            form method="post" action=(format!("{url}/act")) {
                input type="hidden" name="do" value="edit-player";
                label { "Change #" input type="number" name="player" min="1" required; }
                label { "new name " input name="name" maxlength="40"; }
                label { "new rating " input type="number" name="rating" min="0" max="3000"; }
                button { "Change" }
            }
            form method="post" action=(format!("{url}/act")) {
                input type="hidden" name="do" value="withdraw";
                label { "Withdraw #" input type="number" name="player" min="1" required; }
                label { "from round " input type="number" name="round" min="1" value=(next) required; }
                button { "Withdraw" }
                span.hint { "Unplayed games already paired become forfeits (NASPA V.K.1)." }
            }
            form method="post" action=(format!("{url}/act")) {
                input type="hidden" name="do" value="reinstate";
                label { "Reinstate #" input type="number" name="player" min="1" required; }
                button { "Reinstate" }
            }
            form method="post" action=(format!("{url}/act")) {
                input type="hidden" name="do" value="eject";
                label { "Eject #" input type="number" name="player" min="1" required; }
                label { "from round " input type="number" name="round" min="1" value=(next) required; }
                button { "Eject" }
                span.hint { "WESPA 6.2.4(a): earlier games void in a round robin, else 150-point wins for the opponents; ranked last." }
            }
        }
    }
}

fn standings_tab(p: &DivisionPage<'_>, url: &str) -> Markup {
    let d = p.d;
    let (through, heading) = standings_through(d);
    html! {
        section aria-labelledby="standings-h" {
            h2 #standings-h { (heading) }
            (table(&standings_table(d, through), "standings"))
        }
        section aria-labelledby="firsts-h" {
            h2 #firsts-h { "Firsts and seconds" }
            (table(&firsts_table(d, d.rounds.len() as u32), "firsts"))
        }
        @if through > 0 {
            section aria-labelledby="ratings-h" {
                h2 #ratings-h { "Rating estimates" }
                (table(&ratings_table(d, through), "ratings"))
            }
        }
        section aria-labelledby="adjust-h" {
            h2 #adjust-h { "Spread adjustments" }
            form method="post" action=(format!("{url}/act")) {
                input type="hidden" name="do" value="adjust";
                label { "Player #" input type="number" name="player" min="1" required; }
                label { "round " input type="number" name="round" min="1" value=(p.shown.max(1)) required; }
                label { "reason " select name="reason" {
                    option value="drawing-out-of-order" { "drawing out of order (NASPA IV.B.5)" }
                    option value="erroneous-adjudication" { "erroneous adjudication (NASPA IV.K.5)" }
                    option value="other" { "other" }
                } }
                label { "amount " input type="number" name="amount" placeholder="the rule's"; }
                label { "play score " input type="number" name="play_score" min="0" placeholder="IV.K.5"; }
                label { "note " input name="note" maxlength="200" size="10"; }
                button { "Adjust" }
            }
        }
    }
}

fn settings_tab(p: &DivisionPage<'_>, url: &str) -> Markup {
    let settings = tilebag_tournament::settings::current(p.d);
    html! {
        section #settings aria-labelledby="settings-h" {
            h2 #settings-h { "Settings" }
            div.scroll tabindex="0" { table #settings-table {
                @for (k, v) in &settings { tr { td { (k) } td { code { (v) } } } }
            } }
            form method="post" action=(format!("{url}/act")) {
                input type="hidden" name="do" value="set";
                label { "Set " select name="key" #setting-key { @for (k, _) in &settings { option value=(k) { (k) } } } }
                label { "to " input name="value" #setting-value required maxlength="200" placeholder="new value"; }
                button #set { "Set" }
            }
            p { "Values as " code { "tilebag td division set" } " takes them, e.g. tie-breaks "
                code { "wins,losses,spread,rating" } ", gibson " code { "250:3" } ", spread-cap " code { "none" } "." }
        }
    }
}

fn print_tab(p: &DivisionPage<'_>, url: &str) -> Markup {
    let ex = format!("{url}/export");
    let shown = p.shown.max(1);
    let paired = p.shown > 0;
    html! {
        section aria-labelledby="print-h" {
            h2 #print-h { "Print and export" }
            ul {
                @if paired {
                    li { a href=(format!("{ex}/pairings.html?round={shown}")) { "Pairings by board, round " (shown) } " · "
                         a #print-by-name href=(format!("{ex}/pairings-by-name.html?round={shown}")) { "pairings by player (A–Z, for the wall), round " (shown) } " · "
                         a href=(format!("{ex}/slips.html?round={shown}")) { "tally slips, round " (shown) } }
                }
                li { a href=(format!("{ex}/standings.html")) { "Standings" } " · " a href=(format!("{ex}/standings.csv")) { "standings CSV" } " · "
                     a #print-scorecards href=(format!("{ex}/scorecards.html")) { "scorecards" } " (with the coming rounds' opponents where the schedule fixes them)" }
                li { a href=(format!("{ex}/division.t")) { "tsh .t file" } " · " a href=(format!("{ex}/event.tsh")) { "tsh archive" } " · "
                     a href=(format!("{ex}/aupair.tou")) { "AUPAIR .TOU" } }
                li { a #public-link href=(format!("/events/{}/{}", enc(p.event), enc(&p.d.name))) { "The players' page" } " (pairings and standings; no key needed)" }
                li { a href=(format!("{url}/links")) { "Each player's own link" } }
            }
        }
        (submission_section(p.event, p.d, p.t.date.is_some(), &ex))
    }
}

/// The round's games still missing a result (tsh's `missing`, `tilebag td missing`), each a link
/// to its board's row.
fn missing_line(d: &Division, round: u32) -> Markup {
    let missing = checks::missing(d, round);
    html! {
        @if missing.is_empty() {
            p #missing { "Every result of round " (round) " is in." }
        } @else {
            p #missing { "Still missing (" (missing.len()) "): "
                @for (i, m) in missing.iter().enumerate() {
                    @if i > 0 { "; " }
                    @match m.board {
                        Some(b) => a href=(format!("#board-{b}")) { (m.text) },
                        None => (m.text),
                    }
                }
            }
        }
    }
}

/// A report's printable page (the link reads as the report's name) and its CSV.
fn report_links(ex: &str, name: &str, label: &str, round: Option<u32>) -> Markup {
    let q = round.map(|r| format!("?round={r}")).unwrap_or_default();
    html! {
        a #(format!("report-{name}")) href=(format!("{ex}/{name}.html{q}")) { (label) }
        " ("
        a href=(format!("{ex}/{name}.csv{q}")) aria-label=(format!("{label} as CSV")) { "CSV" }
        ")"
    }
}

/// The prize table (tsh's `prize` lines): places, class prizes, high game, high loss, biggest
/// upset, through the rounds that are in; what decides them; a printable page.
fn prizes_tab(p: &DivisionPage<'_>, url: &str) -> Markup {
    let d = p.d;
    let (through, _) = standings_through(d);
    let ex = format!("{url}/export");
    let settings = tilebag_tournament::settings::current(d);
    let setting = |k: &str| {
        settings
            .iter()
            .find(|(key, _)| *key == k)
            .map(|(_, v)| v.clone())
            .unwrap_or_default()
    };
    html! {
        section #prizes-section aria-labelledby="prizes-h" {
            h2 #prizes-h { @if through == 0 { "Prizes (no results yet)" } @else { "Prizes after round " (through) } }
            (table(&tilebag_tournament::prizes::prize_table(d, through), "prizes"))
            p { "Places: " code { "prize-bands " (setting("prize-bands")) } "; class prizes: "
                code { "class-prizes " (setting("class-prizes")) } " (change them on the "
                a href=(format!("{url}?tab=settings")) { "Settings" } " tab). High game and high loss count played games only; \
                the biggest upset is by pre-event rating, both players rated." }
            p { (report_links(&ex, "prizes", "The prize table to print", None)) }
        }
    }
}

/// The common reports, each a printable page and a CSV, and the results still missing.
fn reports_tab(p: &DivisionPage<'_>, url: &str) -> Markup {
    let d = p.d;
    let ex = format!("{url}/export");
    let (through, _) = standings_through(d);
    let last = d.rounds.len() as u32;
    let open = checks::incomplete_rounds(d);
    html! {
        section #reports-section aria-labelledby="reports-h" {
            h2 #reports-h { "Reports" }
            p { "Each opens as a page to print, or as CSV for a spreadsheet; through round " (through)
                ", the last with every result in or being entered." }
            ul #reports {
                @if last > 0 {
                    li { (report_links(&ex, "alpha", &format!("Pairings by player (A–Z), round {last}"), Some(last))) }
                }
                li { (report_links(&ex, "wallchart", "Wall chart", None)) ": each player's games round by round" }
                li { (report_links(&ex, "roster", "Roster", None)) ": number, name, rating, class" }
                li { (report_links(&ex, "high-wins", "High wins", None)) }
                li { (report_links(&ex, "high-losses", "High losses", None)) }
                li { (report_links(&ex, "upsets", "Upsets", None)) ": by pre-event rating" }
                li { (report_links(&ex, "rating-by-round", "Rating estimates round by round", None)) }
                li { (report_links(&ex, "performance", "Performance ratings round by round", None)) ": the rating each player's results so far would produce" }
            }
        }
        section #missing-section aria-labelledby="missing-h" {
            h2 #missing-h { "Results still missing" }
            @if last == 0 {
                p { "No round has been paired yet." }
            } @else if open.is_empty() {
                p #all-in { "Every paired round is complete." }
            } @else {
                ul #missing-list { @for r in &open {
                    li { a href=(format!("{url}?round={r}")) { "Round " (r) } ": "
                        @for (i, m) in checks::missing(d, *r).iter().enumerate() {
                            @if i > 0 { "; " }
                            (m.text)
                        }
                    }
                } }
            }
        }
    }
}

/// Rating submission (`tilebag td submit`): the files NASPA and WESPA take, offered only when
/// every paired round is complete; otherwise the rounds still open are named.
fn submission_section(event: &str, d: &Division, dated: bool, ex: &str) -> Markup {
    let refusal = checks::submission_refusal(d);
    html! {
        section #submit-section aria-labelledby="submit-h" {
            h2 #submit-h { "Rating submission" }
            @match &refusal {
                Some(why) => p #submit-refused { "Not ready: " (why) ". The Reports tab lists the games still missing." },
                None => ul #submit-files {
                    li { a #submit-naspa href=(format!("{ex}/submit-naspa.t")) { "NASPA: the tsh .t file" } " (what tsh's submit sends)" }
                    li { a #submit-wespa href=(format!("{ex}/submit-wespa.tou")) { "WESPA: the AUPAIR .TOU file" }
                         @if !dated { span #submit-no-date { " (needs the event's date, which this event does not have: its header carries it; "
                             a href=(format!("{}#event-details", event_url(event))) { "set the date on the event's page" } ")" } } }
                },
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Pairing preview and player links.

pub struct Preview<'a> {
    pub event: &'a str,
    pub t: &'a Tournament,
    pub division: &'a str,
    pub round: u32,
    pub method: String,
    pub based_on_text: String,
    pub rows: Table,
    pub notes: Vec<String>,
    pub form_method: &'a str,
    pub form_based_on: &'a str,
    pub version: &'a str,
}

pub fn pair_preview(p: &Preview<'_>) -> Markup {
    let here = div_url(p.event, p.division);
    let body = html! {
        section aria-labelledby="proposal-h" {
            h2 #proposal-h { "Proposed pairings: round " (p.round) " (" (p.method) ", based on " (p.based_on_text) ")" }
            (table(&p.rows, "proposal"))
            @for n in &p.notes { p { "Note: " (n) } }
            form method="post" action=(format!("{here}/pair")) {
                input type="hidden" name="round" value=(p.round);
                input type="hidden" name="method" value=(p.form_method);
                input type="hidden" name="based_on" value=(p.form_based_on);
                input type="hidden" name="version" value=(p.version);
                button #post-pairings { "Post these pairings" }
                " "
                a href=(here) { "Cancel" }
            }
        }
    };
    director_layout(
        &format!(
            "{} · Division {} · pair round {}",
            p.t.name, p.division, p.round
        ),
        &[
            (event_url(p.event), p.t.name.clone()),
            (here.clone(), format!("Division {}", p.division)),
        ],
        body,
        None,
    )
}

pub fn links_page(
    event: &str,
    t: &Tournament,
    d: &Division,
    host: &str,
    keys: &[String],
) -> Markup {
    let here = div_url(event, &d.name);
    let body = html! {
        p { "Hand each player their own link (it is their password: keep the sheet safe). On it \
             they see their game and submit and confirm tally slips (NASPA V.J, WESPA 5.4)." }
        div.scroll tabindex="0" { table #links {
            thead { tr { th scope="col" { "#" } th scope="col" { "Player" } th scope="col" { "Link" } } }
            tbody { @for (pl, key) in d.players.iter().zip(keys) {
                @let path = format!("/p/{}/{}", enc(event), enc(key));
                tr { td.n { (pl.id) } td { (pl.name) } td.link { a href=(path) { "http://" (host) (path) } } }
            } }
        } }
    };
    director_layout(
        &format!("{} · Division {} · player links", t.name, d.name),
        &[
            (event_url(event), t.name.clone()),
            (here, format!("Division {}", d.name)),
        ],
        body,
        None,
    )
}
