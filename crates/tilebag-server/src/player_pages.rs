//! The players' pages: what a tournament posts on the wall (`/events/{event}` and
//! `/events/{event}/{division}`: pairings and standings, for players' phones), and each player's
//! own page (`/p/{event}/{key}`): their current game, and the tally slip they submit and their
//! opponent confirms (NASPA V.J, WESPA 5.4, SANSPA 18.10), so a result is final only when both
//! players have signed it. The key is a secret per player, made when the director prints the
//! players' links (`/td/{event}/d/{division}/links`); it is kept in the event file beside the log.
//!
//! The event pages are live: `/live/events/...` streams their bodies as they change (see
//! [`live_stream`]), and `td.js` puts them in place.
//!
//! No key is needed and nothing of the director's is shown: no seat link but the player's own,
//! no form but their slip, no navigation of the director's, and an error never names a file or
//! a path of the server's (only what the visitor asked for).

use crate::director::{blocking, change, DirectorState};
use crate::origin::same_origin;
use crate::respond::{back, html_response, public_error};
use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Form, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;
use std::collections::HashMap;
use tilebag_pages::public::{self as tpl, GameInfo, GameState, SlipState};
use tilebag_pages::{enc, ending_words, score, Flash};
use tilebag_tournament::{Action, Division, Pairing, PlayerId, Seat, Tournament};

pub(crate) fn router(state: DirectorState) -> Router {
    Router::new()
        .route("/p/{event}/{key}", get(player_page))
        .route("/p/{event}/{key}/slip", post(submit_slip))
        .route("/p/{event}/{key}/confirm", post(confirm_slip))
        .route("/events/{event}", get(public_event))
        .route("/live/events/{event}", get(public_event_live))
        .route("/events/{event}/{division}", get(public_division))
        .route("/live/events/{event}/{division}", get(public_division_live))
        .with_state(state)
}

fn unknown_link() -> Response {
    public_error(
        StatusCode::NOT_FOUND,
        "This player link is not known. Ask the director for yours.",
    )
}

/// The event for a public page; a missing or unreadable one is "not found", in the visitor's
/// terms (the reason, which may name the server's files, goes to the log only).
async fn public_load(s: &DirectorState, event: &str) -> Result<Tournament, Response> {
    let dir = s.director.clone();
    let ev = event.to_string();
    match blocking(move || dir.events().open_read(&ev)?.load()).await {
        Ok(t) => Ok(t),
        Err(e) => {
            if tilebag_events::EventsDir::check_id(event).is_ok() {
                tracing::error!(event = %event, error = %e, "the public page of an event failed");
            }
            Err(public_error(
                StatusCode::NOT_FOUND,
                &format!("There is no event {event:?} here. Check the address with the director."),
            ))
        }
    }
}

/// Keys are made by `tilebag_live::ids::token`: letters and digits, 16 to 64 of them.
fn plausible_key(key: &str) -> bool {
    (16..=64).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The division and player a key opens, and the event's state (read from one opening of the
/// event file); or a refusal page.
async fn who(
    s: &DirectorState,
    event: &str,
    key: &str,
) -> Result<(String, PlayerId, Tournament), Response> {
    if !plausible_key(key) {
        return Err(unknown_link());
    }
    let dir = s.director.clone();
    let (event, key) = (event.to_string(), key.to_string());
    let found = blocking(move || {
        let f = dir.events().open_read(&event)?;
        Ok(match f.player_for_key(&key)? {
            Some((division, player)) => Some((division, player, f.load()?)),
            None => None,
        })
    })
    .await;
    match found {
        Ok(Some(x)) => Ok(x),
        _ => Err(unknown_link()),
    }
}

/// The round a player's page is about: the latest round they are paired in.
fn current_round(d: &Division, p: PlayerId) -> Option<u32> {
    d.rounds
        .iter()
        .rev()
        .find(|r| r.pairings.iter().any(|x| x.involves(p)))
        .map(|r| r.number)
}

/// How the online games of a round ended, by board, where the scores alone would mislead.
async fn endings(s: &DirectorState, d: &Division, round: u32) -> HashMap<u32, String> {
    let mut out = HashMap::new();
    let Some(r) = d.round(round) else {
        return out;
    };
    for g in r.pairings.iter().filter_map(Pairing::game) {
        if g.result.is_none() {
            continue;
        }
        let Some(o) = d
            .online
            .iter()
            .rev()
            .find(|o| o.round == round && g.opponent_of(o.first) == Some(o.second))
        else {
            continue;
        };
        let from_it = matches!(&g.result, Some(tilebag_tournament::GameResult::Played {
            source: tilebag_tournament::ResultSource::Online { game_id }, .. }) if *game_id == o.game_id);
        if !from_it {
            continue;
        }
        let Ok(h) = s.hub.get(&o.game_id).await else {
            continue;
        };
        if let Ok(snap) = h.snapshot().await {
            if let Some(res) = &snap.view.table.result {
                if let Some(e) = ending_words(d, g, o.first, res) {
                    out.insert(g.board, e);
                }
            }
        }
    }
    out
}

async fn player_page(
    State(s): State<DirectorState>,
    Path((event, key)): Path<(String, String)>,
    flash: Result<Query<Flash>, QueryRejection>,
) -> Response {
    let (division, me, t) = match who(&s, &event, &key).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let Ok(d) = t.division(&division) else {
        return public_error(StatusCode::NOT_FOUND, "This player's division is gone.");
    };
    let f = flash.map(|q| q.0).unwrap_or_default();
    let game = match current_round(d, me) {
        None => GameState::NotPaired,
        Some(round) => match d.player_round(round, me).map(|pr| pr.pairing) {
            Some(Pairing::Bye { spread, .. }) => GameState::Bye {
                round,
                spread: *spread,
            },
            Some(Pairing::Game(g)) => {
                let opponent = g.opponent_of(me).unwrap_or(me);
                let r = d.round(round);
                let online = d
                    .online
                    .iter()
                    .rev()
                    .find(|o| o.round == round && g.opponent_of(o.first) == Some(o.second));
                // The seat link only while the game can still count: no result, no slip.
                let mut seat_link = None;
                if let (Some(o), None, None) = (online, &g.result, &g.slip) {
                    if let Ok(h) = s.hub.get(&o.game_id).await {
                        let seat = usize::from(o.first != me);
                        seat_link = Some(format!(
                            "/games/{}?token={}",
                            o.game_id,
                            enc(&h.meta.tokens[seat])
                        ));
                    }
                }
                let mine = |first: i32, second: i32| {
                    if g.first == me {
                        (first, second)
                    } else {
                        (second, first)
                    }
                };
                let status = match (&g.result, &g.slip) {
                    (Some(res), _) => {
                        let o = res.outcome_for(g, me);
                        let text = match o.scores {
                            Some((own, theirs)) => score(own, theirs),
                            None => format!("{:+}", o.spread),
                        };
                        SlipState::Final {
                            words: match o.wins2 {
                                2 => "you won",
                                1 => "a tie",
                                _ => "you lost",
                            },
                            text,
                            ending: endings(&s, d, round).await.remove(&g.board),
                        }
                    }
                    (None, Some(slip)) if slip.submitted_by == me => {
                        let (own, theirs) = mine(slip.first_score, slip.second_score);
                        SlipState::Submitted { own, theirs }
                    }
                    (None, Some(slip)) => {
                        let (own, theirs) = mine(slip.first_score, slip.second_score);
                        SlipState::ToConfirm { own, theirs }
                    }
                    (None, None) => SlipState::Open,
                };
                GameState::Game(Box::new(GameInfo {
                    round,
                    board: g.board,
                    opponent,
                    // `seat_of` is `None` when a file did not record who starts (NASPA III.D
                    // counts only known firsts): the page says so instead of inventing a seat.
                    first: g.seat_of(me).map(|s| s == Seat::First),
                    method: r.map(|r| r.method.to_string()).unwrap_or_default(),
                    based_on: r.map(|r| r.based_on).unwrap_or(0),
                    seat_link,
                    status,
                    winner_submits: d.config.winner_submits,
                }))
            }
            _ => GameState::Absent { round },
        },
    };
    let page = tpl::PlayerPage {
        event: &event,
        key: &key,
        t: &t,
        d,
        me,
        flash: &f,
        game,
    };
    html_response(StatusCode::OK, tpl::player(&page))
}

#[derive(Deserialize)]
pub(crate) struct SlipForm {
    round: u32,
    #[serde(default)]
    score: String,
    #[serde(default)]
    opponent_score: String,
}

async fn player_post(
    s: DirectorState,
    headers: HeaderMap,
    event: String,
    key: String,
    form: Result<Form<SlipForm>, FormRejection>,
    confirm: bool,
) -> Response {
    if !same_origin(&headers) {
        return public_error(
            StatusCode::FORBIDDEN,
            "This form was posted from another site.",
        );
    }
    let (division, me, _) = match who(&s, &event, &key).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let here = format!("/p/{}/{}", enc(&event), enc(&key));
    let Ok(Form(f)) = form else {
        return back(&here, Err("the form was incomplete".into()));
    };
    let action = if confirm {
        Action::ConfirmSlip {
            division,
            round: f.round,
            player: me,
        }
    } else {
        let score = |v: &str| v.trim().parse::<i32>().ok();
        let (Some(score), Some(opponent_score)) = (score(&f.score), score(&f.opponent_score))
        else {
            return back(
                &here,
                Err("enter both final scores as whole numbers".into()),
            );
        };
        Action::SubmitSlip {
            division,
            round: f.round,
            player: me,
            score,
            opponent_score,
        }
    };
    let done = change(&s, &event, None, move |_| Ok(vec![action])).await;
    back(
        &here,
        done.map(|_| {
            if confirm {
                "Confirmed: the result is in.".to_string()
            } else {
                "Submitted: your opponent confirms it on their page.".to_string()
            }
        }),
    )
}

async fn submit_slip(
    State(s): State<DirectorState>,
    headers: HeaderMap,
    Path((event, key)): Path<(String, String)>,
    form: Result<Form<SlipForm>, FormRejection>,
) -> Response {
    player_post(s, headers, event, key, form, false).await
}

async fn confirm_slip(
    State(s): State<DirectorState>,
    headers: HeaderMap,
    Path((event, key)): Path<(String, String)>,
    form: Result<Form<SlipForm>, FormRejection>,
) -> Response {
    player_post(s, headers, event, key, form, true).await
}

#[derive(Deserialize)]
struct RoundQuery {
    round: Option<u32>,
}

async fn public_event(State(s): State<DirectorState>, Path(event): Path<String>) -> Response {
    match public_load(&s, &event).await {
        Ok(t) => html_response(StatusCode::OK, tpl::event(&event, &t)),
        Err(r) => r,
    }
}

async fn public_division(
    State(s): State<DirectorState>,
    Path((event, division)): Path<(String, String)>,
    q: Result<Query<RoundQuery>, QueryRejection>,
) -> Response {
    let t = match public_load(&s, &event).await {
        Ok(t) => t,
        Err(r) => return r,
    };
    let Ok(d) = t.division(&division) else {
        return public_error(
            StatusCode::NOT_FOUND,
            &format!("Event {:?} has no division {division:?}.", t.name),
        );
    };
    let last = d.rounds.len() as u32;
    let asked = q
        .ok()
        .and_then(|q| q.0.round)
        .filter(|r| (1..=last).contains(r));
    let round = asked.unwrap_or(last);
    let endings = endings(&s, d, round).await;
    html_response(
        StatusCode::OK,
        tpl::division(&event, &t, d, round, &endings, asked.is_some()),
    )
}

// ---------------------------------------------------------------------------------------------
// The event pages, live (`/live/events/...`): a Server-Sent Events stream per page whose
// `page` events carry the page's body as the server would render it now (`{"version", "html"}`),
// sent when the stream opens (so a page that was away catches up) and whenever it changes. An
// event file tells no hub when the director writes it: the stream looks at the file every
// `LIVE_TICK` (its size and time; it is read only when they change) and also wakes when any
// online game changes.

/// How often a live event page's stream looks at its event file.
const LIVE_TICK: std::time::Duration = std::time::Duration::from_secs(2);

/// Which page a stream renders.
#[derive(Clone)]
enum LivePage {
    Event,
    /// A division; with `round`, that round's pairings, otherwise the latest round's.
    Division {
        division: String,
        round: Option<u32>,
    },
}

/// The body of `page` as it is now; `None` when the event or the division is gone.
async fn live_body(s: &DirectorState, event: &str, page: &LivePage) -> Option<maud::Markup> {
    let t = public_load(s, event).await.ok()?;
    match page {
        LivePage::Event => Some(tpl::event_body(event, &t)),
        LivePage::Division { division, round } => {
            let d = t.division(division).ok()?;
            let last = d.rounds.len() as u32;
            let round = round.filter(|r| (1..=last).contains(r)).unwrap_or(last);
            let endings = endings(s, d, round).await;
            Some(tpl::division_body(event, d, round, &endings))
        }
    }
}

/// The stream of `page`'s bodies.
fn live_stream(s: DirectorState, event: String, page: LivePage) -> Response {
    use std::sync::Arc;
    let hub = s.hub.clone();
    let idle = s.net.idle_timeout;
    let feed = crate::push::PageFeed::new(s.director.events().path(&event).ok());
    let ask: crate::push::Ask = Arc::new(move || {
        let (s, event, page, feed) = (s.clone(), event.clone(), page.clone(), feed.clone());
        Box::pin(async move {
            let stamp = feed.stamp().await.ok()?;
            feed.page(stamp, live_body(&s, &event, &page).await?)
        })
    });
    crate::push::stream_ticking(
        &hub,
        idle,
        std::time::Duration::from_secs(1),
        Some(LIVE_TICK),
        true,
        ask,
    )
    .into_response()
}

/// `GET /live/events/{event}`: the event page's updates.
async fn public_event_live(State(s): State<DirectorState>, Path(event): Path<String>) -> Response {
    if let Err(r) = public_load(&s, &event).await {
        return r;
    }
    live_stream(s, event, LivePage::Event)
}

/// `GET /live/events/{event}/{division}[?round=N]`: a division page's updates (under `/live/`,
/// so that no division's name can stand for it).
async fn public_division_live(
    State(s): State<DirectorState>,
    Path((event, division)): Path<(String, String)>,
    q: Result<Query<RoundQuery>, QueryRejection>,
) -> Response {
    let t = match public_load(&s, &event).await {
        Ok(t) => t,
        Err(r) => return r,
    };
    if t.division(&division).is_err() {
        return public_error(
            StatusCode::NOT_FOUND,
            &format!("Event {:?} has no division {division:?}.", t.name),
        );
    }
    let round = q.ok().and_then(|q| q.0.round);
    live_stream(s, event, LivePage::Division { division, round })
}
