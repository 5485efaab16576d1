//! Online events that run themselves (issue 30 item 6): the director's section for opening a
//! division to online entries (on the division's Players tab), what the public division page says
//! about registration and the round's live games (with watch links), and a signed-in player's
//! own page for the division (`/events/{event}/{division}/entry`): register, check in, withdraw
//! before the start, and their game's seat link, shown to them alone.

use super::{enc, flash, live_version, public_layout, result_words, score, Flash};
use maud::{html, Markup};
use tilebag_tournament::entries::{OnlineEntries, DEFAULT_NO_SHOW_MINUTES, NO_SHOW_MINUTES};
use tilebag_tournament::tables::name_of;
use tilebag_tournament::{Division, Pairing, PlayerId};

/// A time as the pages write it: `2026-11-27 10:05 UTC`.
pub fn utc(ms: i64) -> String {
    // `YYYY-MM-DDTHH:MM:SSZ`, the core's civil time.
    let t = tilebag_core::civil::utc_text(ms.div_euclid(1000));
    format!("{} {} UTC", &t[..10], &t[11..16])
}

/// The `datetime-local` value (UTC) of a time.
fn local_input(ms: i64) -> String {
    let t = utc(ms);
    format!("{}T{}", &t[..10], &t[11..16])
}

/// The director's section of the Players tab: open the division to online entries, change its
/// times, close registration and check-in, and who entered. `url` is the division's page.
pub fn td_section(url: &str, d: &Division) -> Markup {
    let team = d.config.format != tilebag_tournament::Format::Individual;
    let e = d.entries.as_ref();
    let from = e.map(|e| e.check_in_from_ms);
    let minutes = e.map_or(DEFAULT_NO_SHOW_MINUTES, |e| e.no_show_minutes);
    let lexicon = e.and_then(|e| e.lexicon.clone()).unwrap_or_default();
    html! {
        @if !team {
            section #entries-section aria-labelledby="entries-h" {
                h2 #entries-h { "Online entries" }
                @match e {
                    None => p { "Players with accounts on this server can register themselves, check in, and play each round online as soon as you post it: nobody hands out links." },
                    Some(e) => (status(e, None)),
                }
                @if d.rounds.is_empty() {
                    form #entries-open-form method="post" action=(format!("{url}/entries")) {
                        input type="hidden" name="do" value="open";
                        label { "Check-in opens (UTC) " input type="datetime-local" name="check_in_from" #entries-check-in value=[from.map(local_input)]; }
                        label { "A player absent this many minutes after the round's games start forfeits "
                            input type="number" name="no_show_minutes" #entries-minutes min=(NO_SHOW_MINUTES.start()) max=(NO_SHOW_MINUTES.end()) value=(minutes) required; }
                        label { "Lexicon " input name="lexicon" #entries-lexicon maxlength="64" size="10" value=(lexicon) placeholder="server default"; }
                        button #entries-open { @match e { Some(e) if e.open => "Change", Some(_) => "Open registration again", None => "Open registration" } }
                        span.hint { "NASPA III.C: after 25 minutes a game is forfeited; WESPA 2.3.5: a player who has not arrived when their time runs out forfeits." }
                    }
                }
                @if let Some(e) = e {
                    @if e.open {
                        form #entries-close-form method="post" action=(format!("{url}/entries")) {
                            input type="hidden" name="do" value="close";
                            button #entries-close { "Close registration and check-in" }
                            @if d.rounds.is_empty() { span.hint { "Entrants who have not checked in are withdrawn and not paired." } }
                        }
                    }
                    (entrants(d, e))
                }
            }
        }
    }
}

/// Registration and check-in in words (whether check-in is open yet only when `now_ms` is
/// given: the pages shared by everyone say when it opens).
fn status(e: &OnlineEntries, now_ms: Option<i64>) -> Markup {
    let active = e.active().count();
    let checked = e.active().filter(|x| x.checked_in).count();
    html! {
        p #entries-status {
            @if e.open { "Registration is open. " } @else { "Registration is closed. " }
            (active) " registered, " (checked) " checked in. "
            @if e.open {
                @match now_ms {
                    Some(now) if e.check_in_open(now) => "Check-in is open.",
                    Some(_) => { "Check-in opens at " (utc(e.check_in_from_ms)) "." }
                    None => { "Check-in from " (utc(e.check_in_from_ms)) "." }
                }
            }
            " A player who has not opened their seat " (e.no_show_minutes) " minutes after the round's games start forfeits."
        }
    }
}

fn entrants(d: &Division, e: &OnlineEntries) -> Markup {
    html! {
        @if !e.entrants.is_empty() {
            div.scroll tabindex="0" { table #entrants {
                caption { "Entrants" }
                thead { tr { th scope="col" { "Player" } th scope="col" { "Account" } th scope="col" { "Checked in" } } }
                tbody { @for x in &e.entrants {
                    tr {
                        td { "#" (x.player) " " (name_of(d, x.player)) }
                        td { (x.username) }
                        td { @if x.withdrawn { "withdrawn" } @else if x.checked_in { "yes" } @else { "not yet" } }
                    }
                } }
            } }
        }
    }
}

/// The public division page's part about online entries and the round's live games (nothing
/// when the division takes no online entries).
pub fn public_section(event: &str, d: &Division, round: u32) -> Markup {
    let Some(e) = &d.entries else {
        return html! {};
    };
    let entry = format!("/events/{}/{}/entry", enc(event), enc(&d.name));
    let live: Vec<(u32, PlayerId, PlayerId, String)> =
        d.round(round)
            .map(|r| {
                r.pairings
                    .iter()
                    .filter_map(Pairing::game)
                    .filter(|g| g.result.is_none())
                    .filter_map(|g| {
                        let o = d.online.iter().rev().find(|o| {
                            o.round == round && g.opponent_of(o.first) == Some(o.second)
                        })?;
                        Some((g.board, g.first, g.second, o.game_id.clone()))
                    })
                    .collect()
            })
            .unwrap_or_default();
    html! {
        section #entries aria-labelledby="entries-h" {
            h2 #entries-h { "Online entries" }
            (status(e, None))
            p { a href=(entry) #entry-link {
                @if e.open { "Register or check in with your account" } @else { "Your game" }
            } }
        }
        @if !live.is_empty() {
            section #live-games aria-labelledby="live-games-h" {
                h2 #live-games-h { "Round " (round) " games in play" }
                ul { @for (board, first, second, id) in &live {
                    li { "Board " (board) ": " (name_of(d, *first)) " v " (name_of(d, *second)) " · "
                        a href=(format!("/games/{}", enc(id))) { "watch" span.visually-hidden { " board " (board) } } }
                } }
            }
        }
    }
}

/// The event page's word on a division open to online entries: a link to register.
pub fn event_line(event: &str, d: &Division) -> Markup {
    html! {
        @if d.entries.as_ref().is_some_and(|e| e.open) {
            " · " a href=(format!("/events/{}/{}/entry", enc(event), enc(&d.name))) { "register online" span.visually-hidden { " for division " (d.name) } }
        }
    }
}

/// The player's game in the division's latest round, as their page shows it.
pub enum MyGame {
    NotPaired,
    Bye {
        round: u32,
        spread: i32,
    },
    Absent {
        round: u32,
    },
    Game {
        round: u32,
        board: u32,
        opponent: PlayerId,
        first: bool,
        /// `/games/ID?token=...`, while the game is on.
        seat_link: Option<String>,
        /// When a player who has not opened their seat forfeits.
        deadline_ms: Option<i64>,
        /// The result in words, once it is in.
        result: Option<String>,
    },
}

/// A signed-in player's page for a division with online entries.
pub struct EntryPage<'a> {
    pub event: &'a str,
    pub event_name: &'a str,
    pub d: &'a Division,
    pub username: &'a str,
    pub account_id: i64,
    pub csrf: &'a str,
    pub flash: &'a Flash,
    pub now_ms: i64,
    pub game: MyGame,
}

/// The player's entry page. Its body is live (`td.js`, as the event pages are): the server pushes
/// it again whenever it changes (`/live/events/{event}/{division}/entry`, [`entry_body`]), so the
/// seat link appears by itself when the director posts the round. The message of the form just
/// posted stays above the live part (an update does not take it away).
pub fn entry_page(p: &EntryPage<'_>) -> Markup {
    let body = entry_body(p);
    let stream = format!("/live/events/{}/{}/entry", enc(p.event), enc(&p.d.name));
    let version = live_version(&body);
    let page = html! {
        (flash(p.flash))
        // The live bar and body as `public_layout` makes them (`td.js` reads these ids).
        div.live-bar #live-bar hidden {
            p.live-status #live-status role="status" data-state="connecting" {}
            label.check { input type="checkbox" #live-updates checked; " Show results as they come in" }
        }
        div #live-body data-stream=(stream) data-version=(version) { (body) }
        script type="module" src="/assets/td.js" {}
    };
    public_layout(
        &format!("{} · Division {} · your entry", p.event_name, p.d.name),
        page,
        None,
    )
}

/// What the entry page shows under its message (and what its live updates replace).
pub fn entry_body(p: &EntryPage<'_>) -> Markup {
    let d = p.d;
    let here = format!("/events/{}/{}/entry", enc(p.event), enc(&d.name));
    let me = d.entries.as_ref().and_then(|e| e.entrant(p.account_id));
    let started = !d.rounds.is_empty();
    let form = |what: &str, label: &str, id: &str| {
        html! {
            form method="post" action=(here) {
                input type="hidden" name="csrf" value=(p.csrf);
                input type="hidden" name="do" value=(what);
                button id=(id) { (label) }
            }
        }
    };
    html! {
        p { "Signed in as " b { (p.username) } ". "
            a href=(format!("/events/{}/{}", enc(p.event), enc(&d.name))) { "Pairings and standings" } }
        @match &d.entries {
            None => p #entry-state { "This division does not take online entries: the director enters its players." },
            Some(e) => {
                (status(e, Some(p.now_ms)))
                @match me.filter(|x| !x.withdrawn) {
                    None => {
                        @if me.is_some() { p #entry-state { "You withdrew from this division." } }
                        @else { p #entry-state { "You are not registered in this division." } }
                        @if e.open && !started { (form("register", &format!("Register as {}", p.username), "register")) }
                    }
                    Some(x) => {
                        p #entry-state { "You are registered as player #" (x.player) ". "
                            @if x.checked_in { "You have checked in." }
                            @else if started { "" }
                            @else if e.check_in_open(p.now_ms) { "Check in to be paired." }
                            @else { "Check-in opens at " (utc(e.check_in_from_ms)) "; come back then." } }
                        @if !x.checked_in && !started && e.check_in_open(p.now_ms) { (form("check-in", "Check in", "check-in")) }
                        @if !started { (form("withdraw", "Withdraw from the division", "withdraw")) }
                    }
                }
            }
        }
        (my_game(d, &p.game))
    }
}

fn my_game(d: &Division, g: &MyGame) -> Markup {
    html! {
        h2 { "Your game" }
        @match g {
            MyGame::NotPaired => p #game { "You have not been paired yet. When the director posts a round, your game starts here." },
            MyGame::Bye { round, spread } => p #game { "Round " (round) ": you have a bye (" (format!("{spread:+}")) ")." },
            MyGame::Absent { round } => p #game { "Round " (round) ": you are not playing." },
            MyGame::Game { round, board, opponent, first, seat_link, deadline_ms, result } => {
                p #game { "Round " (round) ", board " (board) ": you v " (name_of(d, *opponent))
                    "; you go " (if *first { "first" } else { "second" }) "." }
                @if let Some(r) = result { p #result { "The result is in: " (r) "." } }
                @if let Some(link) = seat_link {
                    p #online { a href=(link) #play-online { "Play your game" } }
                    @if let Some(at) = deadline_ms {
                        p.hint { "Open your game by " (utc(*at)) ": a player who has not arrived by then forfeits (NASPA III.C; WESPA 2.3.5). This link is yours alone." }
                    }
                }
            }
        }
    }
}

/// The result of a game in words from `me`'s side (`412–389, you won`).
pub fn result_for(d: &Division, g: &tilebag_tournament::Game, me: PlayerId) -> Option<String> {
    let res = g.result.as_ref()?;
    let o = res.outcome_for(g, me);
    let words = match o.wins2 {
        2 => "you won",
        1 => "a tie",
        _ => "you lost",
    };
    Some(match o.scores {
        Some((own, theirs)) => format!("{words} {}", score(own, theirs)),
        None => format!("{words} ({})", result_words(d, g, None)),
    })
}
