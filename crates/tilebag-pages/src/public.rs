//! The players' pages: an event's divisions (`/events/{event}`), a division's pairings and
//! standings (`/events/{event}/{division}`), and each player's own page (`/p/{event}/{key}`).
//! No key of the director's, no forms but the player's own slip, no seat link but the player's.

use super::{
    based_on_text, enc, flash, live_version, public_layout, result_words, score, standings_through,
    table, Flash, Live,
};
use maud::{html, Markup};
use std::collections::HashMap;
use tilebag_tournament::standings::fmt_half;
use tilebag_tournament::tables::{name_of, standings_table, Table};
use tilebag_tournament::{Division, Pairing, PlayerId, Seat, Tournament};

/// An event's page: its divisions, live.
pub fn event(event: &str, t: &Tournament) -> Markup {
    let body = event_body(event, t);
    let live = Live {
        stream: format!("/live/events/{}", enc(event)),
        version: live_version(&body),
    };
    public_layout(&t.name, body, Some(&live))
}

/// What the event's page shows under its heading (and what its live updates replace).
pub fn event_body(event: &str, t: &Tournament) -> Markup {
    html! {
        ul #divisions { @for d in &t.divisions {
            li { a href=(format!("/events/{}/{}", enc(event), enc(&d.name))) { "Division " (d.name) }
                 " (" (d.players.len()) " players, " (d.rounds.len()) " of " (d.total_rounds()) " rounds paired)"
                 // Online entries (issue 30 item 6).
                 (crate::online_events::event_line(event, d)) }
        } }
    }
}

/// The pairings of a round as the wall shows them (results with an en dash; `endings` says how
/// online games ended when the scores alone mislead).
fn pairings_table(d: &Division, round: u32, endings: &HashMap<u32, String>) -> Table {
    let mut rows = Vec::new();
    if let Some(r) = d.round(round) {
        let mut entries: Vec<&Pairing> = r.pairings.iter().collect();
        entries.sort_by_key(|p| match p {
            Pairing::Game(g) => (0, g.board, 0),
            Pairing::Bye { player, .. } => (1, 0, *player),
            Pairing::Absent { player, .. } => (2, 0, *player),
        });
        for p in entries {
            rows.push(match p {
                Pairing::Game(g) => vec![
                    g.board.to_string(),
                    format!("#{} {}", g.first, name_of(d, g.first)),
                    format!("#{} {}", g.second, name_of(d, g.second)),
                    result_words(d, g, endings.get(&g.board).cloned()),
                ],
                Pairing::Bye { player, spread, .. } => vec![
                    String::new(),
                    format!("#{player} {}", name_of(d, *player)),
                    "bye".into(),
                    format!("{spread:+}"),
                ],
                Pairing::Absent { player, spread } => vec![
                    String::new(),
                    format!("#{player} {}", name_of(d, *player)),
                    "withdrawn".into(),
                    format!("{spread:+}"),
                ],
            });
        }
    }
    Table {
        cols: vec![
            ("Board", "board", true),
            ("First", "first", false),
            ("Second", "second", false),
            ("Result", "result", false),
        ],
        rows,
    }
}

/// A division's page (pairings of `round`, standings), live. `pinned`: the visitor asked for
/// this round (`?round=N`) and the page stays on it; otherwise it follows the latest round.
pub fn division(
    event: &str,
    t: &Tournament,
    d: &Division,
    round: u32,
    endings: &HashMap<u32, String>,
    pinned: bool,
) -> Markup {
    let body = division_body(event, d, round, endings);
    let mut stream = format!("/live/events/{}/{}", enc(event), enc(&d.name));
    if pinned {
        stream.push_str(&format!("?round={round}"));
    }
    let live = Live {
        stream,
        version: live_version(&body),
    };
    public_layout(
        &format!("{} · Division {}", t.name, d.name),
        body,
        Some(&live),
    )
}

/// What a division's page shows under its heading (and what its live updates replace).
pub fn division_body(
    event: &str,
    d: &Division,
    round: u32,
    endings: &HashMap<u32, String>,
) -> Markup {
    let last = d.rounds.len() as u32;
    let (through, heading) = standings_through(d);
    html! {
        @if round > 0 {
            nav aria-label="Rounds" { p { "Rounds: "
                @for n in 1..=last {
                    @if n == round { b aria-current="page" { (n) } " " }
                    @else { a href=(format!("/events/{}/{}?round={n}", enc(event), enc(&d.name))) { (n) } " " }
                }
            } }
            h2 { "Round " (round) " pairings" }
            (table(&pairings_table(d, round, endings), "pairings"))
        }
        // Online entries and the round's live games (issue 30 item 6).
        (crate::online_events::public_section(event, d, round))
        h2 { (heading) }
        (table(&standings_table(d, through), "standings"))
    }
}

/// What a player's page says about their game of the current round.
pub enum GameState {
    NotPaired,
    Bye { round: u32, spread: i32 },
    Absent { round: u32 },
    Game(Box<GameInfo>),
}

pub struct GameInfo {
    pub round: u32,
    pub board: u32,
    pub opponent: PlayerId,
    /// Whether the player starts; `None` when an imported file did not record it (NASPA III.D:
    /// the players decide, by the firsts they know, or draw).
    pub first: Option<bool>,
    pub method: String,
    pub based_on: u32,
    /// The player's seat link, while the game can still be played online (no result yet).
    pub seat_link: Option<String>,
    pub status: SlipState,
    pub winner_submits: bool,
}

pub enum SlipState {
    /// The result is in: won/lost/tie, the text of the scores, and how an online game ended.
    Final {
        words: &'static str,
        text: String,
        ending: Option<String>,
    },
    Submitted {
        own: i32,
        theirs: i32,
    },
    ToConfirm {
        own: i32,
        theirs: i32,
    },
    Open,
}

pub struct PlayerPage<'a> {
    pub event: &'a str,
    pub key: &'a str,
    pub t: &'a Tournament,
    pub d: &'a Division,
    pub me: PlayerId,
    pub flash: &'a Flash,
    pub game: GameState,
}

pub fn player(p: &PlayerPage<'_>) -> Markup {
    let d = p.d;
    let here = format!("/p/{}/{}", enc(p.event), enc(p.key));
    let (through, _) = standings_through(d);
    let standing = if through > 0 {
        d.standings(through).into_iter().find(|x| x.player == p.me)
    } else {
        None
    };
    let complete = d.round_complete(through);
    let body = html! {
        (flash(p.flash))
        p { "Division " (d.name) " · " a href=(format!("/events/{}/{}", enc(p.event), enc(&d.name))) { "pairings and standings" } }
        @if let Some(st) = standing {
            p #standing {
                @if complete { "After round " (through) } @else { "During round " (through) " (not all results in)" }
                ": place " (st.rank) " of " (d.players.len()) ", " (fmt_half(st.wins2)) "\u{2013}" (fmt_half(st.losses2))
                ", spread " (format!("{:+}", st.spread)) "."
            }
        }
        @match &p.game {
            GameState::NotPaired => p #game { "You have not been paired yet." },
            GameState::Bye { round, spread } => p #game { "Round " (round) ": you have a bye (" (format!("{spread:+}")) ")." },
            GameState::Absent { round } => p #game { "Round " (round) ": you are not playing (withdrawn)." },
            GameState::Game(g) => {
                p #game {
                    "Round " (g.round) ", board " (g.board) ": you (" (name_of(d, p.me)) ") v #" (g.opponent) " " (name_of(d, g.opponent))
                    "; " (match g.first {
                        Some(true) => "you go first".to_string(),
                        Some(false) => "you go second".to_string(),
                        None => format!("who goes first was not recorded: settle it at the board as the rules say ({})", d.ruleset().citation(tilebag_core::citation::Rule::FirstPlayer)),
                    }) ". ("
                    (g.method) " pairings, based on " (based_on_text(g.based_on)) ".)"
                }
                @if let Some(link) = &g.seat_link {
                    p #online { a href=(link) #play-online { "Play this game online" } }
                }
                @match &g.status {
                    SlipState::Final { words, text, ending } => p #slip {
                        "The result is in: " (words) " (" (text) ")"
                        @if let Some(e) = ending { ", " (e) }
                        ". If it is wrong, see the director."
                    },
                    SlipState::Submitted { own, theirs } => p #slip {
                        "You submitted " (score(*own, *theirs)) ". It counts once #" (g.opponent) " " (name_of(d, g.opponent)) " confirms it."
                    },
                    SlipState::ToConfirm { own, theirs } => {
                        p #slip { "#" (g.opponent) " " (name_of(d, g.opponent)) " submitted: you " (own) ", them " (theirs) "." }
                        form method="post" action=(format!("{here}/confirm")) {
                            input type="hidden" name="round" value=(g.round);
                            button #confirm { "Confirm: the scores are right" }
                        }
                        p { "If they are wrong, do not confirm: submit the right scores below, or see the director." }
                        (slip_form(&here, g.round, g.winner_submits))
                    },
                    SlipState::Open => (slip_form(&here, g.round, g.winner_submits)),
                }
            }
        }
        (scorecard(d, p.me))
    };
    public_layout(&format!("{} · {}", p.t.name, name_of(d, p.me)), body, None)
}

/// The player's rounds so far: opponent, seat, result and running record.
fn scorecard(d: &Division, me: PlayerId) -> Markup {
    let mut rows = Vec::new();
    let (mut wins2, mut spread) = (0u32, 0i32);
    for r in &d.rounds {
        let Some(pr) = d.player_round(r.number, me) else {
            continue;
        };
        let opponent = match pr.pairing {
            Pairing::Bye { .. } => "bye".to_string(),
            Pairing::Absent { .. } => "(not playing)".to_string(),
            Pairing::Game(_) => pr
                .opponent
                .map(|o| format!("#{o} {}", name_of(d, o)))
                .unwrap_or_default(),
        };
        let seat = match pr.seat {
            Some(Seat::First) => "1st",
            Some(Seat::Second) => "2nd",
            None => "",
        };
        let result = match pr.outcome {
            Some(o) => {
                wins2 += o.wins2;
                spread += o.spread;
                let wl = match o.wins2 {
                    2 => "W",
                    1 => "T",
                    _ => "L",
                };
                match o.scores {
                    Some((own, theirs)) => format!("{wl} {}", score(own, theirs)),
                    None => format!("{wl} {:+}", o.spread),
                }
            }
            None => "—".to_string(),
        };
        rows.push((r.number, opponent, seat, result, fmt_half(wins2), spread));
    }
    html! {
        h2 { "Your rounds" }
        div.scroll tabindex="0" { table #scorecard {
            thead { tr { th scope="col" { "Round" } th scope="col" { "Opponent" } th scope="col" { "Seat" } th scope="col" { "Result" } th scope="col" { "Won" } th scope="col" { "Spread" } } }
            tbody { @for (n, opp, seat, result, won, spread) in &rows {
                tr { td.n { (n) } td { (opp) } td { (seat) } td { (result) } td.n { (won) } td.n { (format!("{spread:+}")) } }
            } }
        } }
    }
}

fn slip_form(here: &str, round: u32, winner_submits: bool) -> Markup {
    html! {
        form method="post" action=(format!("{here}/slip")) {
            input type="hidden" name="round" value=(round);
            label { "Your final score " input type="number" name="score" #my-score min="-500" max="2000" required; }
            label { "Your opponent's " input type="number" name="opponent_score" #their-score min="-500" max="2000" required; }
            button #submit-slip { "Submit the tally slip" }
        }
        p { "Final scores after the racks are counted. Your opponent confirms them on their page."
            @if winner_submits { " Under these rules the winner submits the slip and the loser confirms it (WESPA 5.4.2, \
                SANSPA 18.7); after a tie either may." } }
    }
}
