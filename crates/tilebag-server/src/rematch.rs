//! A rematch after a game between two accounts (issue 30 item 4): either player offers it from
//! the game's page, the other accepts or declines; accepting starts the next game with the seats
//! swapped (the player who went second goes first) and the same rules, lexicon, clock and
//! ratedness, and sends each player their new seat on their own lobby stream (the game page
//! listens to it, `web/assets/rematch.js`). The offer's life is `tilebag_accounts::seek::
//! RematchOffer`'s: it stands two minutes ([`REMATCH_TTL_MS`]), and NASPA I.G is checked for
//! both players when it is accepted. An event's game has no rematch: its next game comes from
//! the director's pairings.
//!
//! - `GET /api/games/{id}/rematch`: for a player of the game, whether they may offer one and
//!   the offer standing; for anyone else, that they may not.
//! - `POST /api/games/{id}/rematch` with `{"action": "offer" | "accept" | "decline" |
//!   "withdraw"}` (signed in, this site's `Origin`, `X-CSRF-Token`). Offering when the other
//!   player's offer stands accepts it.
//!
//! Several processes (issue 31): an offer is held by the process where it was made, which tells
//! the others where it stands (`Lobby::keep_rematch`); an answer given on another process is
//! forwarded to the holder over NATS (`tilebag.rematch.PROCESS`) and decided there, so two
//! answers at once cannot both start a game. If the holder does not answer within
//! [`FORWARD_TIMEOUT`] (it stopped), the process asked decides with what it knows and holds the
//! offer from then on.

use crate::lobby::{
    current_games, me_json, now_ms, parse_body, player, respond, Lobby, LobbyError, Seated, Table,
};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::sync::Arc;
use std::time::Duration;
use tilebag_accounts::seek::{FinishedGame, RematchError, RematchOffer, REMATCH_TTL_MS};
use tilebag_core::ruleset::ClockRule;
use tilebag_store::{GameStatus, SeatLink};

/// The subject kind on which a process answers rematch answers forwarded to it.
const FORWARDED: &str = "tilebag.rematch";
/// How long an answer forwarded to the offer's holder may take (it may start a game).
const FORWARD_TIMEOUT: Duration = Duration::from_secs(5);

/// An answer to an offer, forwarded to the process that holds it.
#[derive(Serialize, Deserialize)]
struct Forwarded {
    game_id: String,
    /// The signed-in player who answered (checked by the process that forwards).
    account: i64,
    action: Action,
}

/// The holder's decision: the answer's status and body.
#[derive(Serialize, Deserialize)]
struct Decided {
    status: u16,
    body: Value,
}

/// Decides the answers to this process's offers that other processes forward (several
/// processes only).
pub(crate) fn answer_forwarded(lobby: &Arc<Lobby>) {
    let Some(f) = &lobby.fanout else {
        return;
    };
    let weak = Arc::downgrade(lobby);
    f.answer(FORWARDED, lobby.hub.shutdown.clone(), move |q: Forwarded| {
        let lobby = weak.upgrade();
        async move {
            let Some(l) = lobby else {
                return Decided {
                    status: StatusCode::SERVICE_UNAVAILABLE.as_u16(),
                    body: json!({"type": "error", "code": "unavailable", "message": "this process is stopping"}),
                };
            };
            let (status, body) = match decide(&l, &q.game_id, q.account, q.action).await {
                Ok(a) => a,
                Err(e) => e.answer(),
            };
            Decided {
                status: status.as_u16(),
                body,
            }
        }
    });
}

pub(crate) fn router(lobby: Arc<Lobby>) -> Router {
    Router::new()
        .route("/api/games/{id}/rematch", get(status).post(act))
        .layer(axum::extract::DefaultBodyLimit::max(crate::lobby::MAX_BODY))
        .with_state(lobby)
}

/// A finished game between two accounts, as a rematch sees it, with its links by seat.
struct Finished {
    game: FinishedGame,
    links: [SeatLink; 2],
}

/// A number for the game (the pure rules' `FinishedGame` carries one; the map is keyed by the
/// game's id itself).
fn game_number(id: &str) -> u64 {
    id.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

fn not_found(id: &str) -> LobbyError {
    LobbyError::new(
        StatusCode::NOT_FOUND,
        "not-found",
        format!("there is no game {id:?} between two players' accounts"),
    )
}

/// The game, if it is one between two accounts; whether it has ended.
async fn finished(l: &Lobby, id: &str) -> Result<(Finished, bool), LobbyError> {
    if id.len() > 64 || !id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-') {
        return Err(not_found(id));
    }
    let mut links = l
        .store()
        .seats()
        .seats_of_game(id)
        .await
        .map_err(LobbyError::store)?;
    links.sort_by_key(|s| s.seat);
    let [a, b]: [SeatLink; 2] = links.try_into().map_err(|_| not_found(id))?;
    if a.account_id == b.account_id {
        return Err(not_found(id));
    }
    let handle = l.hub.get(id).await.map_err(|_| not_found(id))?;
    let snap = handle.snapshot().await.map_err(|_| not_found(id))?;
    let ended = snap.status == GameStatus::Ended;
    let game = FinishedGame {
        game_id: game_number(id),
        players: [a.account_id as u64, b.account_id as u64],
        rated: a.rated && b.rated,
        event: a.event || b.event,
        correspondence: a.correspondence,
    };
    Ok((
        Finished {
            game,
            links: [a, b],
        },
        ended,
    ))
}

fn state_name(o: &RematchOffer, now: u64) -> &'static str {
    use tilebag_accounts::seek::RematchState::*;
    match o.state(now) {
        Pending => "offered",
        Accepted => "accepted",
        Declined => "declined",
        Withdrawn => "withdrawn",
        Expired => "expired",
    }
}

/// The offer as the two players' pages show it.
async fn offer_json(l: &Lobby, game_id: &str, o: &RematchOffer) -> Value {
    let name = |id: u64| async move {
        l.store()
            .accounts()
            .account_by_id(id as i64)
            .await
            .ok()
            .flatten()
            .map(|a| a.username)
            .unwrap_or_default()
    };
    let now = now_ms();
    json!({
        "game_id": game_id,
        "from": name(o.from).await,
        "to": name(o.to).await,
        "state": state_name(o, now),
        "expires_in_ms": o.expires_ms.saturating_sub(now),
    })
}

/// Tells both players' streams where the offer stands.
async fn tell_both(l: &Lobby, game_id: &str, o: &RematchOffer) {
    let data = offer_json(l, game_id, o).await;
    for who in [o.from, o.to] {
        l.tell_account(who as i64, "rematch", &data);
    }
}

/// `GET /api/games/{id}/rematch`.
async fn status(
    State(l): State<Arc<Lobby>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, LobbyError> {
    let me = crate::accounts::signed_in(&l.accounts, &headers).await;
    let Some(my) = me.as_ref().map(|m| m.account.id as u64) else {
        return Ok(Json(json!({"me": null, "player": false, "can_offer": false})).into_response());
    };
    let (f, ended) = match finished(&l, &id).await {
        Ok(x) => x,
        Err(_) => {
            return Ok(
                Json(json!({"me": me_json(&me), "player": false, "can_offer": false}))
                    .into_response(),
            )
        }
    };
    let player = f.game.players.contains(&my);
    let offer = l.rematch(&id).map(|o| o.offer);
    let accepted = matches!(offer, Some(o) if player && state_name(&o, now_ms()) == "accepted");
    let offer = match offer {
        Some(o) if player => Some(offer_json(&l, &id, &o).await),
        _ => None,
    };
    // The rematch that was started, by this player's own seat link (never the other's).
    let rematch = if accepted {
        rematch_seat(&l, &id, my as i64).await
    } else {
        None
    };
    Ok(Json(json!({
        "me": me_json(&me),
        "player": player,
        "ended": ended,
        "can_offer": player && ended && !f.game.event,
        "offer": offer,
        "rematch": rematch,
    }))
    .into_response())
}

/// The rematch of game `id` as its player `account` sees it: their own seat's link in the first
/// game after it between the same two players with the seats swapped, if it can be found among
/// their newest games.
async fn rematch_seat(l: &Lobby, id: &str, account: i64) -> Option<Value> {
    let games = l.store().seats().games_of_account(account, 50).await.ok()?;
    let this = games.iter().find(|g| g.game.id == id)?;
    let seat = usize::from(this.link.seat.min(1));
    let opponent = &this.game.names[1 - seat];
    // Newest first: from the oldest end, the first match is the first game after this one.
    let next = games.iter().rev().find(|g| {
        let s = usize::from(g.link.seat.min(1));
        g.link.created_ms >= this.link.created_ms
            && g.game.id != id
            && s != seat
            && &g.game.names[1 - s] == opponent
    })?;
    let s = usize::from(next.link.seat.min(1));
    Some(json!({
        "game_id": next.game.id,
        "url": format!("/games/{}?token={}", next.game.id, next.game.tokens[s]),
    }))
}

#[derive(Serialize, Deserialize, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
enum Action {
    Offer,
    Accept,
    Decline,
    Withdraw,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ActRequest {
    action: Action,
}

fn refused(e: RematchError) -> LobbyError {
    let status = match e {
        RematchError::NotAPlayer | RematchError::NotTheRecipient | RematchError::NotTheOfferer => {
            StatusCode::FORBIDDEN
        }
        _ => StatusCode::CONFLICT,
    };
    LobbyError::new(status, "refused", e.to_string())
}

/// `POST /api/games/{id}/rematch`.
async fn act(
    State(l): State<Arc<Lobby>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, LobbyError> {
    let me = player(&l.accounts, &headers, "offer or answer a rematch").await?;
    let ActRequest { action } = parse_body(body)?;
    // An offer another process holds is answered there.
    if let (Some(fanout), Some(home)) = (&l.fanout, l.rematch(&id).and_then(|o| o.home)) {
        let q = Forwarded {
            game_id: id.clone(),
            account: me.account.id,
            action,
        };
        match fanout
            .ask::<_, Decided>(FORWARDED, &home, &q, FORWARD_TIMEOUT)
            .await
        {
            Ok(d) => {
                let status = StatusCode::from_u16(d.status)
                    .ok()
                    .filter(|s| !s.is_informational())
                    .unwrap_or(StatusCode::BAD_GATEWAY);
                return Ok(respond(status, d.body));
            }
            Err(e) => tracing::warn!(
                game = %id,
                error = %e,
                "rematch: the process holding the offer did not answer; deciding here"
            ),
        }
    }
    let (status, body) = decide(&l, &id, me.account.id, action).await?;
    Ok(respond(status, body))
}

/// Decides a player's answer (`account`'s) to the rematch of game `id`: the answer's status and
/// body.
async fn decide(
    l: &Lobby,
    id: &str,
    account: i64,
    action: Action,
) -> Result<(StatusCode, Value), LobbyError> {
    let id = id.to_string();
    let my = account as u64;
    let (f, ended) = finished(l, &id).await?;
    if !f.game.players.contains(&my) {
        return Err(refused(RematchError::NotAPlayer));
    }
    if !ended {
        return Err(LobbyError::new(
            StatusCode::CONFLICT,
            "not-ended",
            "a rematch is offered once the game is over",
        ));
    }
    let now = now_ms();
    let standing = l.rematch(&id).map(|o| o.offer);
    let action = match (action, standing) {
        // Both offered: the second offer accepts the first.
        (Action::Offer, Some(o)) if o.to == my && o.state(now) == pending() => Action::Accept,
        (a, _) => a,
    };
    match action {
        Action::Offer => {
            if let Some(o) = standing {
                if o.state(now) == pending() || o.state(now) == accepted() {
                    return Err(refused(RematchError::NotPending(o.state(now))));
                }
            }
            let offer = RematchOffer::offer(&f.game, my, now, REMATCH_TTL_MS).map_err(refused)?;
            // Offers tell the other player: they count under the budget seeks do.
            l.spend(account)?;
            l.keep_rematch(&id, offer);
            tell_both(l, &id, &offer).await;
            Ok((
                StatusCode::CREATED,
                json!({"offer": offer_json(l, &id, &offer).await}),
            ))
        }
        Action::Decline | Action::Withdraw => {
            let mut o = standing.ok_or_else(no_offer)?;
            if action == Action::Decline {
                o.decline(my, now).map_err(refused)?;
            } else {
                o.withdraw(my, now).map_err(refused)?;
            }
            l.keep_rematch(&id, o);
            tell_both(l, &id, &o).await;
            Ok((
                StatusCode::OK,
                json!({"offer": offer_json(l, &id, &o).await}),
            ))
        }
        Action::Accept => accept(l, &id, &f, my, standing.ok_or_else(no_offer)?).await,
    }
}

fn pending() -> tilebag_accounts::seek::RematchState {
    tilebag_accounts::seek::RematchState::Pending
}

fn accepted() -> tilebag_accounts::seek::RematchState {
    tilebag_accounts::seek::RematchState::Accepted
}

fn no_offer() -> LobbyError {
    LobbyError::new(
        StatusCode::NOT_FOUND,
        "not-found",
        "no rematch has been offered for this game",
    )
}

/// Accepts the offer: the next game, seats swapped, the same table.
async fn accept(
    l: &Lobby,
    id: &str,
    f: &Finished,
    my: u64,
    mut offer: RematchOffer,
) -> Result<(StatusCode, Value), LobbyError> {
    let now = now_ms();
    let _one = l.starting_lock().await;
    let by_games = current_games(l.store(), my as i64).await?;
    let from_games = current_games(l.store(), offer.from as i64).await?;
    let seats = offer
        .accept(my, now, &by_games, &from_games)
        .map_err(refused)?;
    let handle = l.hub.get(id).await.map_err(|_| not_found(id))?;
    let snap = handle.snapshot().await.map_err(|_| not_found(id))?;
    let table = &snap.view.table;
    let initial_ms = match table.time_control {
        ClockRule::PerPlayer { initial_ms } => initial_ms,
        ClockRule::SharedGame { total_ms, .. } => total_ms / 2,
    };
    let mut named = Vec::new();
    for account in seats {
        let a = l
            .store()
            .accounts()
            .account_by_id(account as i64)
            .await
            .map_err(LobbyError::store)?
            .ok_or_else(|| not_found(id))?;
        named.push(Some((a.id, a.username)));
    }
    let mut seated: [Option<Seated>; 2] = l
        .start(Table {
            preset: table.preset.clone(),
            rules: table.rules.clone(),
            lexicon: table.lexicon.clone(),
            initial_ms,
            rated: f.links[0].rated && f.links[1].rated,
            seats: [named[0].take(), named[1].take()],
            bot: None,
        })
        .await?;
    l.keep_rematch(id, offer);
    tell_both(l, id, &offer).await;
    let mut mine = None;
    for (s, account) in seats.iter().enumerate() {
        if let Some(seat) = &mut seated[s] {
            seat.rematch_of = Some(id.to_string());
            l.send_seat(*account as i64, seat);
            if *account == my {
                mine = Some(seat.clone());
            }
        }
    }
    Ok((StatusCode::CREATED, json!({ "game": mine })))
}
