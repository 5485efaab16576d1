//! The lobby: signed-in players seek a game, see the open seeks live, accept one with one click,
//! cancel their own, or play the computer at once (issue 30 item 4). The rules of who may
//! accept are `tilebag_accounts::seek`'s (rating range, invitations, NASPA I.G); the open seeks
//! are stored (`SeekStore`, so they survive a restart) and kept here in memory for the list.
//!
//! - `GET /api/lobby`: the open seeks this viewer may see, and who they are (with the CSRF token
//!   their requests carry in `X-CSRF-Token`).
//! - `GET /api/lobby/stream`: Server-Sent Events. First `seeks` (the whole list), then
//!   `seek-added` and `seek-removed` as seeks come and go, `games` when the list of games may
//!   have changed (at most one every 2 s), and, on a signed-in player's own stream only, `game`
//!   (a game of theirs started: the seat's link, which carries its secret token) and `rematch`
//!   (an offer after a game, and its answer). A stream that falls behind gets the whole list
//!   again. Nobody's stream ever carries another player's seat token.
//! - `POST /api/seeks` (a seek, or a game against the computer at once), `POST
//!   /api/seeks/{id}/accept`, `POST /api/seeks/{id}/cancel`.
//!
//! Every request that changes something needs a signed-in player (else `401 signed-out`), must
//! come from this site (`Origin`) and carry the session's CSRF token (`X-CSRF-Token`), and its
//! body is JSON of at most [`MAX_BODY`] bytes. A banned account is not signed in at all.
//!
//! Limits ([`LobbyLimits`]): open seeks per account and in all, new seeks per account per
//! minute. A seek expires after `max_age`, or once its seeker has had no lobby stream open for
//! `abandoned_after` (they closed the page: nobody would be there to play).
//!
//! NASPA I.G: a player in a rated or event game cannot start another, and a player in any game
//! cannot start a rated one (correspondence games aside; `tilebag_accounts::seek::may_start`).
//! It is checked when seeking, and when accepting for both players; when a game starts, the
//! players' other seeks that it now rules out are withdrawn.
//!
//! Several processes (issue 31): each keeps its own list and streams, and tells the others
//! (`fanout.rs`, [`LobbyNote`]) of every seek it lists or withdraws, of every seat link and
//! private event for a player (whose stream may be on any process), and, every sweep, of the
//! accounts with a lobby stream open on it (so no process takes a seeker whose stream is
//! elsewhere for gone). A listed seek is read back from the database, never taken from the note.
//! The open seeks per account are counted in the database when a seek is made; the budget of
//! new seeks a minute is kept per process (a player spreading requests over `n` processes may
//! make up to `n` times as many).

use crate::accounts::{signed_in, Accounts, SignedIn};
use crate::config::LobbyLimits;
use crate::fanout::{self, Fanout};
use crate::origin::same_origin;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap, VecDeque};
use std::convert::Infallible;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tilebag_accounts::glicko2::{Rating as GlickoRating, RatingCategory, TimeControl};
use tilebag_accounts::seek::{
    may_start, CurrentGame, Opponent, RatingRange, RematchOffer, Seek, SeekError, Who,
};
use tilebag_accounts::username::Username;
use tilebag_core::ruleset::ClockRule;
use tilebag_core::Ruleset;
use tilebag_live::game_handle::GameHandle;
use tilebag_live::live::{Hub, NewGame};
use tilebag_store::seeks::MAX_SEEK_ID;
use tilebag_store::{SeatLink, SeekOpponent, SeekRow, Store};
use tokio::sync::broadcast;

/// The largest body a lobby request may have (a seek is a few hundred bytes).
pub(crate) const MAX_BODY: usize = 4 * 1024;
/// The CSRF token's purpose for the lobby's and the game page's requests.
pub(crate) const CSRF_PURPOSE: &str = "lobby";
/// The fewest and most minutes per player a seek may ask for.
const MINUTES: std::ops::RangeInclusive<u32> = 1..=120;
/// The highest rating a range may name.
const MAX_RATING: u32 = 4000;
/// How long a started game's link waits for its player's stream (shown again on reconnect).
const MAILBOX_MS: u64 = 10 * 60_000;
/// Links kept per account at most.
const MAILBOX_LEN: usize = 8;
/// How many notes a stream may fall behind before it is sent the whole list again.
const CHANNEL: usize = 4096;
/// The gap that gathers changes of games into one `games` event.
const GAMES_GAP: Duration = Duration::from_secs(2);

pub(crate) fn now_ms() -> u64 {
    tilebag_store::wall_ms().max(0) as u64
}

// ---------------------------------------------------------------------------------------------
// Errors

/// A refusal: `{"type":"error","code":…,"message":…}` with its status.
#[derive(Debug)]
pub(crate) struct LobbyError {
    status: StatusCode,
    code: &'static str,
    message: String,
}

impl LobbyError {
    pub(crate) fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        LobbyError {
            status,
            code,
            message: message.into(),
        }
    }
    pub(crate) fn bad(message: impl Into<String>) -> Self {
        LobbyError::new(StatusCode::UNPROCESSABLE_ENTITY, "bad-request", message)
    }
    pub(crate) fn store(e: impl std::fmt::Display) -> Self {
        tracing::warn!(error = %e, "lobby: the store refused");
        LobbyError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            "the database cannot be reached just now; nothing was changed: try again in a moment",
        )
    }
    /// NASPA I.G and the other rules of `tilebag_accounts::seek`.
    pub(crate) fn seek(e: SeekError) -> Self {
        LobbyError::new(StatusCode::CONFLICT, "refused", e.to_string())
    }
}

impl LobbyError {
    /// The status and body of the answer.
    pub(crate) fn answer(&self) -> (StatusCode, Value) {
        let body = json!({"type": "error", "code": self.code, "message": self.message});
        (self.status, body)
    }
}

/// An answer as a response: a refusal of 429 says when to try again.
pub(crate) fn respond(status: StatusCode, body: Value) -> Response {
    let mut r = (status, Json(body)).into_response();
    if status == StatusCode::TOO_MANY_REQUESTS {
        r.headers_mut()
            .insert(header::RETRY_AFTER, header::HeaderValue::from(60u32));
    }
    r
}

impl IntoResponse for LobbyError {
    fn into_response(self) -> Response {
        let (status, body) = self.answer();
        respond(status, body)
    }
}

/// The signed-in player behind a request that changes something: from this site, signed in,
/// with the session's CSRF token in `X-CSRF-Token`.
pub(crate) async fn player(
    accounts: &Accounts,
    headers: &HeaderMap,
    what: &str,
) -> Result<SignedIn, LobbyError> {
    if !same_origin(headers) {
        return Err(LobbyError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "this request came from another site, so it was refused",
        ));
    }
    let Some(me) = signed_in(accounts, headers).await else {
        return Err(LobbyError::new(
            StatusCode::UNAUTHORIZED,
            "signed-out",
            format!("sign in to {what} (/signin); guests may still play by a game's link"),
        ));
    };
    let csrf = headers
        .get("x-csrf-token")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !me.token.check_csrf(CSRF_PURPOSE, csrf) {
        return Err(LobbyError::new(
            StatusCode::FORBIDDEN,
            "forbidden",
            "this request lacks the page's CSRF token (X-CSRF-Token) or it is out of date: \
             reload the page",
        ));
    }
    Ok(me)
}

/// A JSON body of at most [`MAX_BODY`] bytes, read as `T`; errors name the problem.
pub(crate) fn parse_body<T: serde::de::DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, LobbyError> {
    let body = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            LobbyError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too-large",
                format!("a lobby request's body may hold at most {MAX_BODY} bytes"),
            )
        } else {
            LobbyError::new(StatusCode::BAD_REQUEST, "bad-message", e.body_text())
        }
    })?;
    let body: &[u8] = if body.is_empty() { b"{}" } else { &body };
    serde_json::from_slice(body).map_err(|e| {
        LobbyError::new(
            StatusCode::BAD_REQUEST,
            "bad-message",
            format!("the body is not a lobby request: {e}"),
        )
    })
}

// ---------------------------------------------------------------------------------------------
// The lobby's state

/// Who a note is for.
#[derive(Clone, Debug)]
enum Audience {
    All,
    /// Only these accounts' streams (an invitation's two players; a player's own links).
    Only(Vec<i64>),
}

impl Audience {
    fn includes(&self, viewer: Option<i64>) -> bool {
        match self {
            Audience::All => true,
            Audience::Only(ids) => viewer.is_some_and(|v| ids.contains(&v)),
        }
    }
}

/// Something the lobby's streams are told.
#[derive(Clone, Debug)]
struct Note {
    to: Audience,
    event: &'static str,
    data: Arc<str>,
}

/// An open seek as listed.
struct Listed {
    row: SeekRow,
    /// Who may see it: everyone, or an invitation's two players.
    to: Audience,
    /// What the pages are sent.
    json: Arc<str>,
}

/// A started game's seat link for one player, kept a while for their stream.
struct Mail {
    at_ms: u64,
    data: Value,
}

#[derive(Default)]
struct Inner {
    seeks: BTreeMap<i64, Listed>,
    /// Lobby streams open per account, and when the last one closed.
    streams: HashMap<i64, (usize, u64)>,
    /// When each account's recent seeks were made (for the per-minute limit).
    made: HashMap<i64, VecDeque<u64>>,
    /// Started games' seat links not yet old, per account.
    mail: HashMap<i64, VecDeque<Mail>>,
    /// When another process last said the account had a lobby stream open there.
    elsewhere: HashMap<i64, u64>,
}

/// A rematch offer as this process knows it, and the process that holds it (`None`: this one).
/// The holder decides every answer to it (`rematch.rs` forwards answers there), so two answers
/// at once on two processes cannot both start a game.
#[derive(Clone, Debug)]
pub(crate) struct Offered {
    pub offer: RematchOffer,
    pub home: Option<String>,
}

/// What one process tells the others of its lobby ([`fanout::LOBBY`]).
#[derive(Serialize, Deserialize, Debug)]
#[serde(tag = "kind", rename_all = "kebab-case")]
enum LobbyNote {
    /// A seek was stored and listed (read it from the database).
    Listed { id: i64, seeker: i64 },
    /// Seeks withdrawn, taken or expired.
    Unlisted { ids: Vec<i64> },
    /// A started game's seat link for one player.
    Seat { account: i64, data: Value },
    /// A private event for one player's streams (`rematch`).
    Told {
        account: i64,
        event: String,
        data: Value,
    },
    /// These accounts have a lobby stream open on the sender.
    Present { accounts: Vec<i64> },
}

/// Where a rematch offer stands, told to the others ([`fanout::REMATCH`]).
#[derive(Serialize, Deserialize, Debug)]
struct RematchNote {
    game_id: String,
    offer: RematchOffer,
    /// The process that holds it.
    home: String,
}

/// The private events another process may ask this one to pass to a player's streams.
const TOLD_EVENTS: [&str; 2] = ["rematch", "game"];
/// Accounts named in one presence note at most.
const PRESENT_CHUNK: usize = 4096;

/// The lobby: open seeks, the streams that show them, rematch offers.
pub(crate) struct Lobby {
    pub hub: Arc<Hub>,
    pub accounts: Arc<Accounts>,
    pub limits: LobbyLimits,
    state: Mutex<Inner>,
    /// The connections' idle timeout (the streams' keep-alive comes well inside it).
    idle: Duration,
    notes: broadcast::Sender<Note>,
    /// One game starts at a time, so two acceptances at once cannot both seat a player whom
    /// NASPA I.G allows only one of them.
    starting: tokio::sync::Mutex<()>,
    /// Rematch offers by the finished game's id (`rematch.rs`).
    rematches: Mutex<HashMap<String, Offered>>,
    /// The other processes, when this is one of several.
    pub fanout: Option<Fanout>,
}

/// A started game, for one of its players.
#[derive(Serialize, Clone)]
pub(crate) struct Seated {
    pub game_id: String,
    /// The seat's page: `/games/ID?token=SECRET`.
    pub url: String,
    pub seat: usize,
    pub opponent: String,
    /// The finished game this one is a rematch of.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rematch_of: Option<String>,
}

impl Lobby {
    pub(crate) fn new(
        hub: Arc<Hub>,
        accounts: Arc<Accounts>,
        limits: LobbyLimits,
        idle: Duration,
    ) -> Arc<Lobby> {
        let fanout = Fanout::new(&hub);
        let lobby = Arc::new(Lobby {
            hub,
            accounts,
            limits,
            state: Mutex::new(Inner::default()),
            idle,
            notes: broadcast::channel(CHANNEL).0,
            starting: tokio::sync::Mutex::new(()),
            rematches: Mutex::new(HashMap::new()),
            fanout,
        });
        if let Some(f) = &lobby.fanout {
            let weak = Arc::downgrade(&lobby);
            f.listen(
                fanout::LOBBY,
                lobby.hub.shutdown.clone(),
                move |n: LobbyNote| {
                    let lobby = weak.upgrade();
                    async move {
                        if let Some(l) = lobby {
                            l.heard(n).await;
                        }
                    }
                },
            );
            let weak = Arc::downgrade(&lobby);
            f.listen(
                fanout::REMATCH,
                lobby.hub.shutdown.clone(),
                move |n: RematchNote| {
                    if let Some(l) = weak.upgrade() {
                        l.rematches.lock().expect("rematches").insert(
                            n.game_id,
                            Offered {
                                offer: n.offer,
                                home: Some(n.home),
                            },
                        );
                    }
                    std::future::ready(())
                },
            );
        }
        lobby
    }

    fn publish(&self, note: &LobbyNote) {
        if let Some(f) = &self.fanout {
            f.publish(fanout::LOBBY, note);
        }
    }

    /// What another process told this one.
    async fn heard(&self, note: LobbyNote) {
        match note {
            LobbyNote::Listed { id, seeker } => {
                if self
                    .state
                    .lock()
                    .expect("lobby state")
                    .seeks
                    .contains_key(&id)
                {
                    return;
                }
                // The database says what the seek is (and whether it is still open).
                let rows = match self.store().seeks().seeks_of(seeker).await {
                    Ok(rows) => rows,
                    Err(e) => {
                        tracing::warn!(error = %e, seek = id, "lobby: another process's seek could not be read");
                        return;
                    }
                };
                let Some(row) = rows.into_iter().find(|r| r.id == id) else {
                    return;
                };
                match self.listed(row).await {
                    Ok(l) => self.show(l),
                    Err(e) => {
                        tracing::warn!(error = %e.message, seek = id, "lobby: another process's seek is skipped")
                    }
                }
            }
            LobbyNote::Unlisted { ids } => self.unlist_here(&ids),
            LobbyNote::Seat { account, data } => self.keep_seat(account, data),
            LobbyNote::Told {
                account,
                event,
                data,
            } => match TOLD_EVENTS.iter().copied().find(|e| *e == event) {
                Some(e) => self.tell(
                    Audience::Only(vec![account]),
                    e,
                    Arc::from(data.to_string()),
                ),
                None => tracing::warn!(event, "lobby: another process asked for an unknown event"),
            },
            LobbyNote::Present { accounts } => {
                let now = now_ms();
                let mut st = self.state.lock().expect("lobby state");
                for a in accounts {
                    st.elsewhere.insert(a, now);
                }
            }
        }
    }

    /// The rematch offer standing for game `id`, if this process knows of one.
    pub(crate) fn rematch(&self, id: &str) -> Option<Offered> {
        self.rematches.lock().expect("rematches").get(id).cloned()
    }

    /// Keeps the offer for game `id`, held by this process, and tells the others where it
    /// stands.
    pub(crate) fn keep_rematch(&self, id: &str, offer: RematchOffer) {
        self.rematches
            .lock()
            .expect("rematches")
            .insert(id.to_string(), Offered { offer, home: None });
        if let Some(f) = &self.fanout {
            f.publish(
                fanout::REMATCH,
                &RematchNote {
                    game_id: id.to_string(),
                    offer,
                    home: f.process().to_string(),
                },
            );
        }
    }

    /// Counts one new seek or rematch offer of `account` against its budget a minute
    /// ([`LobbyLimits::seeks_per_minute`]); `429` when it is spent.
    pub(crate) fn spend(&self, account: i64) -> Result<(), LobbyError> {
        let now = now_ms();
        let mut st = self.state.lock().expect("lobby state");
        let made = st.made.entry(account).or_default();
        made.retain(|&t| now.saturating_sub(t) < 60_000);
        if made.len() >= self.limits.seeks_per_minute as usize {
            return Err(LobbyError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "rate-limited",
                format!(
                    "at most {} new seeks and rematch offers a minute: try again in a minute",
                    self.limits.seeks_per_minute
                ),
            ));
        }
        made.push_back(now);
        Ok(())
    }

    /// Held while a game starts (see `starting`).
    pub(crate) async fn starting_lock(&self) -> tokio::sync::MutexGuard<'_, ()> {
        self.starting.lock().await
    }

    pub(crate) fn store(&self) -> &dyn Store {
        &**self.hub.database()
    }

    fn tell(&self, to: Audience, event: &'static str, data: Arc<str>) {
        let _ = self.notes.send(Note { to, event, data });
    }

    /// Tells one account's streams (only theirs) something private, such as a seat's link.
    pub(crate) fn tell_account(&self, account: i64, event: &'static str, data: &Value) {
        self.tell(
            Audience::Only(vec![account]),
            event,
            Arc::from(data.to_string()),
        );
        self.publish(&LobbyNote::Told {
            account,
            event: event.to_string(),
            data: data.clone(),
        });
    }

    /// A started game's link to one player: told to their streams now, and kept a while for a
    /// stream they open later.
    pub(crate) fn send_seat(&self, account: i64, seated: &Seated) {
        let data = serde_json::to_value(seated).unwrap_or(Value::Null);
        self.publish(&LobbyNote::Seat {
            account,
            data: data.clone(),
        });
        self.keep_seat(account, data);
    }

    /// A seat link kept for one player's streams on this process, and told to those open.
    fn keep_seat(&self, account: i64, mut data: Value) {
        if !data.is_object() {
            tracing::warn!("lobby: a seat link that is not an object is skipped");
            return;
        }
        {
            let mut st = self.state.lock().expect("lobby state");
            let now = now_ms();
            let mail = st.mail.entry(account).or_default();
            mail.retain(|m| now.saturating_sub(m.at_ms) < MAILBOX_MS);
            if mail.len() >= MAILBOX_LEN {
                mail.pop_front();
            }
            mail.push_back(Mail {
                at_ms: now,
                data: data.clone(),
            });
        }
        data["fresh"] = Value::Bool(true);
        self.tell(
            Audience::Only(vec![account]),
            "game",
            Arc::from(data.to_string()),
        );
    }

    /// A seek listed here and shown to the streams here that may see it.
    fn show(&self, listed: Listed) {
        let (json, to, id) = (listed.json.clone(), listed.to.clone(), listed.row.id);
        self.state
            .lock()
            .expect("lobby state")
            .seeks
            .insert(id, listed);
        self.tell(to, "seek-added", json);
    }

    /// A seek just stored, listed here and by the other processes.
    fn list(&self, listed: Listed) {
        let (id, seeker) = (listed.row.id, listed.row.seeker_id);
        self.show(listed);
        self.publish(&LobbyNote::Listed { id, seeker });
    }

    /// The open seeks as stored; `None` (said in the log) if they cannot be read.
    async fn stored_seeks(&self) -> Option<Vec<SeekRow>> {
        match self
            .store()
            .seeks()
            .open_seeks(self.limits.open_total)
            .await
        {
            Ok(rows) => Some(rows),
            Err(e) => {
                tracing::warn!(error = %e, "lobby: the open seeks could not be read");
                None
            }
        }
    }

    /// The open seeks from the store, listed again (at start-up).
    pub(crate) async fn restore(&self) {
        let Some(rows) = self.stored_seeks().await else {
            return;
        };
        let now = now_ms();
        for row in rows {
            match self.listed(row).await {
                Ok(l) => {
                    let mut st = self.state.lock().expect("lobby state");
                    // Their seekers have until `abandoned_after` from now to come back.
                    st.streams.entry(l.row.seeker_id).or_insert((0, now));
                    st.seeks.insert(l.row.id, l);
                }
                Err(e) => tracing::warn!(error = %e.message, "lobby: a stored seek is skipped"),
            }
        }
    }

    /// A seek as the pages list it: names and the seeker's rating in its category.
    async fn listed(&self, row: SeekRow) -> Result<Listed, LobbyError> {
        let accounts = self.store().accounts();
        let seeker = accounts
            .account_by_id(row.seeker_id)
            .await
            .map_err(LobbyError::store)?
            .ok_or_else(|| LobbyError::bad("the seeker's account is gone"))?;
        let (to, invited) = match &row.opponent {
            SeekOpponent::Invited(id) => {
                let name = accounts
                    .account_by_id(*id)
                    .await
                    .map_err(LobbyError::store)?
                    .map(|a| a.username)
                    .ok_or_else(|| LobbyError::bad("the invited account is gone"))?;
                (Audience::Only(vec![row.seeker_id, *id]), Some(name))
            }
            _ => (Audience::All, None),
        };
        let category = category_of(&row);
        let rating = rating_of(self.store(), row.seeker_id, &category.key()).await;
        let json = json!({
            "id": row.id,
            "seeker": seeker.username,
            "seeker_rating": rating.display(),
            "preset": row.preset,
            "lexicon": row.lexicon,
            "minutes": row.initial_ms as f64 / 60_000.0,
            "class": category.class.to_string(),
            "rated": row.rated,
            "range": match (row.min_rating, row.max_rating) {
                (None, None) => Value::Null,
                (min, max) => json!({"min": min, "max": max}),
            },
            "invited": invited,
            "created_ms": row.created_ms,
        });
        Ok(Listed {
            row,
            to,
            json: Arc::from(json.to_string()),
        })
    }

    /// The seeks `viewer` may see, oldest first, as JSON text.
    fn visible(&self, viewer: Option<i64>) -> String {
        let st = self.state.lock().expect("lobby state");
        let mut out = String::from("[");
        for l in st.seeks.values().filter(|l| l.to.includes(viewer)) {
            if out.len() > 1 {
                out.push(',');
            }
            out.push_str(&l.json);
        }
        out.push(']');
        out
    }

    /// After this process was cut off from NATS and is back (several processes): the notes of
    /// seeks made and taken elsewhere meanwhile were lost, so the list is read again from the
    /// database: what is gone is withdrawn here, what is new is listed.
    pub(crate) async fn resync(&self) {
        let Some(rows) = self.stored_seeks().await else {
            return;
        };
        let open: std::collections::HashSet<i64> = rows.iter().map(|r| r.id).collect();
        let gone: Vec<i64> = {
            let st = self.state.lock().expect("lobby state");
            st.seeks
                .keys()
                .filter(|id| !open.contains(id))
                .copied()
                .collect()
        };
        self.unlist_here(&gone);
        self.restore().await;
    }

    /// Withdraws seeks from the list here and the other processes'.
    fn unlist(&self, ids: &[i64]) {
        if ids.is_empty() {
            return;
        }
        self.unlist_here(ids);
        self.publish(&LobbyNote::Unlisted { ids: ids.to_vec() });
    }

    fn unlist_here(&self, ids: &[i64]) {
        let gone: Vec<(i64, Audience)> = {
            let mut st = self.state.lock().expect("lobby state");
            ids.iter()
                .filter_map(|id| st.seeks.remove(id).map(|l| (*id, l.to)))
                .collect()
        };
        for (id, to) in gone {
            self.tell(
                to,
                "seek-removed",
                Arc::from(json!({ "id": id }).to_string()),
            );
        }
    }

    /// Withdraws expired seeks and rematch offers, and forgets old links and counts.
    async fn sweep(&self) {
        let now = now_ms();
        let max_age = self.limits.max_age.as_millis() as u64;
        let abandoned = self.limits.abandoned_after.as_millis() as u64;
        let old = now.saturating_sub(max_age) as i64;
        if let Ok(ids) = self.store().seeks().delete_seeks_before(old).await {
            self.unlist(&ids);
        }
        let left: Vec<i64> = {
            let mut st = self.state.lock().expect("lobby state");
            let mut left = Vec::new();
            for l in st.seeks.values() {
                let seeker = l.row.seeker_id;
                let (open, closed) = st.streams.get(&seeker).copied().unwrap_or((0, 0));
                let seen = st.elsewhere.get(&seeker).copied().unwrap_or(0);
                let since = closed.max(seen).max(l.row.created_ms.max(0) as u64);
                if open == 0 && now.saturating_sub(since) >= abandoned && !left.contains(&seeker) {
                    left.push(seeker);
                }
            }
            st.mail.retain(|_, m| {
                m.retain(|x| now.saturating_sub(x.at_ms) < MAILBOX_MS);
                !m.is_empty()
            });
            st.made.retain(|_, t| {
                t.retain(|&x| now.saturating_sub(x) < 60_000);
                !t.is_empty()
            });
            let streams = &mut st.streams;
            streams.retain(|_, (open, closed)| {
                *open > 0 || now.saturating_sub(*closed) < abandoned.max(60_000)
            });
            st.elsewhere
                .retain(|_, seen| now.saturating_sub(*seen) < abandoned.max(60_000));
            if self.fanout.is_some() {
                let here: Vec<i64> = st
                    .streams
                    .iter()
                    .filter(|(_, (open, _))| *open > 0)
                    .map(|(a, _)| *a)
                    .collect();
                for accounts in here.chunks(PRESENT_CHUNK) {
                    self.publish(&LobbyNote::Present {
                        accounts: accounts.to_vec(),
                    });
                }
            }
            left
        };
        for seeker in left {
            if let Ok(ids) = self.store().seeks().delete_seeks_of(seeker).await {
                self.unlist(&ids);
            }
        }
        // An offer is kept a minute past its end, so a late answer is told why it is refused.
        self.rematches
            .lock()
            .expect("rematches")
            .retain(|_, o| now < o.offer.expires_ms.saturating_add(60_000));
    }

    /// Sweeps every `sweep_every` until shutdown.
    pub(crate) fn spawn_sweep(self: &Arc<Self>) -> tokio::task::JoinHandle<()> {
        let lobby = self.clone();
        let mut stop = self.hub.shutdown.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(lobby.limits.sweep_every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = tilebag_live::shutdown::stopped(&mut stop) => return,
                }
                lobby.sweep().await;
            }
        })
    }
}

/// A seek's rating category (its lexicon and its time control's class).
fn category_of(row: &SeekRow) -> RatingCategory {
    RatingCategory::of(&row.lexicon, &time_control(row.initial_ms))
}

fn time_control(initial_ms: i64) -> TimeControl {
    TimeControl::Clock {
        initial_ms: initial_ms.max(0) as u64,
        increment_ms: 0,
        max_overtime_ms: 0,
    }
}

/// An account's rating in a category (a newcomer's if none is stored).
pub(crate) async fn rating_of(store: &dyn Store, account: i64, category: &str) -> GlickoRating {
    match store.accounts().rating(account, category).await {
        Ok(Some(r)) => GlickoRating::new(r.rating, r.deviation, r.volatility),
        _ => GlickoRating::default(),
    }
}

/// The games an account is in now, as NASPA I.G sees them.
pub(crate) async fn current_games(
    store: &dyn Store,
    account: i64,
) -> Result<Vec<CurrentGame>, LobbyError> {
    let links = store
        .seats()
        .unfinished_games_of_account(account)
        .await
        .map_err(LobbyError::store)?;
    Ok(links
        .iter()
        .map(|l| CurrentGame {
            rated: l.rated,
            event: l.event,
            correspondence: l.correspondence,
        })
        .collect())
}

/// The pure seek of a stored row (for `tilebag_accounts::seek`'s rules).
fn seek_of(row: &SeekRow) -> Seek {
    Seek {
        id: row.id as u64,
        seeker: row.seeker_id as u64,
        preset: row.preset.clone(),
        lexicon: row.lexicon.clone(),
        time_control: time_control(row.initial_ms),
        rated: row.rated,
        rating_range: (row.min_rating.is_some() || row.max_rating.is_some()).then(|| RatingRange {
            min: row.min_rating.map(|m| m as u32),
            max: row.max_rating.map(|m| m as u32),
        }),
        opponent: match &row.opponent {
            SeekOpponent::Anyone => Opponent::Anyone,
            SeekOpponent::Invited(id) => Opponent::Invited(*id as u64),
            SeekOpponent::Computer(level) => Opponent::Computer {
                level: level.clone(),
            },
        },
        created_ms: row.created_ms.max(0) as u64,
    }
}

// ---------------------------------------------------------------------------------------------
// Starting games

/// What a new game of two accounts (or an account and the computer) is.
pub(crate) struct Table {
    pub preset: String,
    pub rules: Vec<String>,
    pub lexicon: String,
    /// Each player's clock (ignored by a preset with one game clock).
    pub initial_ms: i64,
    pub rated: bool,
    /// Seat 0 moves first: (account, name). `None`: the computer's seat.
    pub seats: [Option<(i64, String)>; 2],
    /// The computer's level, if it plays the seat that is `None`.
    pub bot: Option<tilebag_engine::Level>,
}

impl Lobby {
    /// Starts a game and links its players' seats to their accounts; each player's seat as
    /// [`Seated`], by seat (the computer's `None`).
    pub(crate) async fn start(&self, t: Table) -> Result<[Option<Seated>; 2], LobbyError> {
        let ruleset = Ruleset::preset(&t.preset).map_err(|e| LobbyError::bad(e.to_string()))?;
        let per_player = matches!(ruleset.clock, ClockRule::PerPlayer { .. });
        let bot_seat = t.seats.iter().position(Option::is_none);
        let bot = match (bot_seat, t.bot) {
            (Some(seat), Some(level)) => Some((seat, level)),
            (None, None) => None,
            _ => return Err(LobbyError::bad("a game has two players")),
        };
        let names = [0, 1].map(|s| match (&t.seats[s], t.bot) {
            (Some((_, name)), _) => name.clone(),
            (None, Some(level)) => tilebag_live::bot::bot_name(level),
            (None, None) => String::new(),
        });
        let handle: GameHandle = self
            .hub
            .create(NewGame {
                preset: Some(t.preset.clone()),
                rules: t.rules.clone(),
                lexicon: Some(t.lexicon.clone()),
                initial_ms: per_player.then_some(t.initial_ms),
                names,
                seed: None,
                // Expires like any game nobody starts; counted under the server's cap on
                // waiting games, not under an address's (the accounts' limits apply).
                public: true,
                creator: None,
                bot,
            })
            .await
            .map_err(|e| {
                LobbyError::new(
                    StatusCode::from_u16(e.code().http_status())
                        .unwrap_or(StatusCode::SERVICE_UNAVAILABLE),
                    "not-started",
                    format!("the game could not be started: {e}"),
                )
            })?;
        let m = &handle.meta;
        let category = RatingCategory::of(&t.lexicon, &time_control(t.initial_ms)).key();
        let now = tilebag_store::wall_ms();
        let links: Vec<SeatLink> = (0..2)
            .filter_map(|s| {
                t.seats[s].as_ref().map(|(account, _)| SeatLink {
                    game_id: m.id.clone(),
                    seat: s as u8,
                    account_id: *account,
                    // A game against the computer is never rated.
                    rated: t.rated && bot.is_none(),
                    event: false,
                    correspondence: false,
                    category: category.clone(),
                    created_ms: now,
                })
            })
            .collect();
        if let Err(e) = self.store().seats().link_seats(&links).await {
            // The game exists and can be played; only the accounts' record of it is missing.
            tracing::error!(game = %m.id, error = %e, "lobby: the seats could not be linked");
        }
        let seated = [0, 1].map(|s| {
            t.seats[s].as_ref().map(|_| Seated {
                game_id: m.id.clone(),
                url: format!("/games/{}?token={}", m.id, m.tokens[s]),
                seat: s,
                opponent: m.names[1 - s].clone(),
                rematch_of: None,
            })
        });
        // Their other seeks that this game now rules out (NASPA I.G) are withdrawn.
        let new = CurrentGame {
            rated: t.rated && bot.is_none(),
            event: false,
            correspondence: false,
        };
        for (account, _) in t.seats.iter().flatten() {
            let rows = self
                .store()
                .seeks()
                .seeks_of(*account)
                .await
                .unwrap_or_default();
            for row in rows {
                let s = seek_of(&row);
                let theirs = CurrentGame {
                    rated: s.rated,
                    event: false,
                    correspondence: s.is_correspondence(),
                };
                if may_start(&[new], &theirs).is_err()
                    && matches!(
                        self.store().seeks().cancel_seek(row.id, *account).await,
                        Ok(true)
                    )
                {
                    self.unlist(&[row.id]);
                }
            }
        }
        Ok(seated)
    }
}

// ---------------------------------------------------------------------------------------------
// Routes

pub(crate) fn router(lobby: Arc<Lobby>) -> Router {
    Router::new()
        .route("/api/lobby", get(lobby_now))
        .route("/api/lobby/stream", get(stream))
        .route("/api/seeks", post(create_seek))
        .route("/api/seeks/{id}/accept", post(accept_seek))
        .route("/api/seeks/{id}/cancel", post(cancel_seek))
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(lobby)
}

type LobbyState = Arc<Lobby>;

/// Who is looking, for the page: `{"username", "csrf"}` or `null`.
pub(crate) fn me_json(me: &Option<SignedIn>) -> Value {
    match me {
        Some(m) => json!({
            "username": m.account.username,
            "csrf": m.token.csrf_token(CSRF_PURPOSE),
        }),
        None => Value::Null,
    }
}

/// `GET /api/lobby`: the seeks this viewer may see and who they are.
async fn lobby_now(State(l): State<LobbyState>, headers: HeaderMap) -> Response {
    let me = signed_in(&l.accounts, &headers).await;
    let seeks = l.visible(me.as_ref().map(|m| m.account.id));
    let body = format!(
        "{{\"me\":{},\"seeks\":{seeks},\"limits\":{}}}",
        me_json(&me),
        json!({
            "open_per_account": l.limits.open_per_account,
            "minutes": [MINUTES.start(), MINUTES.end()],
        })
    );
    (
        [
            (header::CONTENT_TYPE, "application/json"),
            (header::CACHE_CONTROL, "no-store"),
        ],
        body,
    )
        .into_response()
}

/// Counts a signed-in player's open stream while it lives.
struct StreamGuard {
    lobby: Arc<Lobby>,
    account: Option<i64>,
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        if let Some(a) = self.account {
            let mut st = self.lobby.state.lock().expect("lobby state");
            let e = st.streams.entry(a).or_insert((0, 0));
            e.0 = e.0.saturating_sub(1);
            e.1 = now_ms();
        }
    }
}

struct Streaming {
    guard: StreamGuard,
    notes: broadcast::Receiver<Note>,
    games: tokio::sync::watch::Receiver<u64>,
    stop: tokio::sync::watch::Receiver<bool>,
    queue: VecDeque<Event>,
}

impl Streaming {
    /// The whole list (and the player's recent links) as the next events.
    fn everything(&mut self) {
        let lobby = &self.guard.lobby;
        let viewer = self.guard.account;
        self.queue.push_back(
            Event::default()
                .event("seeks")
                .data(format!("{{\"seeks\":{}}}", lobby.visible(viewer))),
        );
        if let Some(a) = viewer {
            let st = lobby.state.lock().expect("lobby state");
            let now = now_ms();
            for m in st.mail.get(&a).into_iter().flatten() {
                if now.saturating_sub(m.at_ms) < MAILBOX_MS {
                    let mut data = m.data.clone();
                    // Shown as a link, not followed: the player may have been there already.
                    data["fresh"] = Value::Bool(false);
                    self.queue
                        .push_back(Event::default().event("game").data(data.to_string()));
                }
            }
        }
    }
}

/// `GET /api/lobby/stream`: see the module's documentation.
async fn stream(State(l): State<LobbyState>, headers: HeaderMap) -> Response {
    let me = signed_in(&l.accounts, &headers).await;
    let account = me.as_ref().map(|m| m.account.id);
    if let Some(a) = account {
        let first = {
            let mut st = l.state.lock().expect("lobby state");
            let open = &mut st.streams.entry(a).or_insert((0, 0)).0;
            *open += 1;
            *open == 1
        };
        if first {
            l.publish(&LobbyNote::Present { accounts: vec![a] });
        }
    }
    let mut s = Streaming {
        guard: StreamGuard {
            lobby: l.clone(),
            account,
        },
        notes: l.notes.subscribe(),
        games: l.hub.changes(),
        stop: l.hub.shutdown.clone(),
        queue: VecDeque::new(),
    };
    s.everything();
    let events = futures_util::stream::unfold(s, |mut s| async move {
        loop {
            if let Some(ev) = s.queue.pop_front() {
                return Some((Ok::<Event, Infallible>(ev), s));
            }
            if *s.stop.borrow() {
                return None;
            }
            tokio::select! {
                note = s.notes.recv() => match note {
                    Ok(n) => {
                        if n.to.includes(s.guard.account) {
                            s.queue.push_back(Event::default().event(n.event).data(&*n.data));
                        }
                    }
                    Err(broadcast::error::RecvError::Lagged(_)) => s.everything(),
                    Err(broadcast::error::RecvError::Closed) => return None,
                },
                r = s.games.changed() => {
                    if r.is_err() {
                        return None;
                    }
                    // The changes of the next moment go in the same event.
                    tokio::select! {
                        _ = tokio::time::sleep(GAMES_GAP) => {}
                        _ = s.stop.changed() => return None,
                    }
                    s.games.borrow_and_update();
                    s.queue.push_back(Event::default().event("games").data("changed"));
                }
                _ = s.stop.changed() => return None,
            }
        }
    });
    let every = (l.idle / 2).clamp(Duration::from_millis(200), Duration::from_secs(15));
    (
        [(header::CACHE_CONTROL, "no-store")],
        Sse::new(events).keep_alive(KeepAlive::new().interval(every)),
    )
        .into_response()
}

/// Who a seek is for, as asked.
#[derive(Deserialize, Default, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum OpponentKind {
    #[default]
    Anyone,
    Invited,
    Computer,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SeekRequest {
    preset: Option<String>,
    lexicon: Option<String>,
    /// Minutes per player (the preset's own clock if absent).
    minutes: Option<u32>,
    #[serde(default)]
    rated: bool,
    min_rating: Option<u32>,
    max_rating: Option<u32>,
    #[serde(default)]
    opponent: OpponentKind,
    /// The invited player's username (`opponent: "invited"`).
    invite: Option<String>,
    /// The computer's level (`opponent: "computer"`): beginner, static, sim.
    level: Option<String>,
    /// Against the computer, where the player sits: `first`, `second` or `random` (the
    /// default).
    seat: Option<String>,
}

/// A new seek's id: random, positive, below 2^53.
fn new_seek_id() -> i64 {
    let mut b = [0u8; 8];
    let _ = getrandom::fill(&mut b);
    (i64::from_le_bytes(b) & MAX_SEEK_ID).max(1)
}

/// `POST /api/seeks`.
async fn create_seek(
    State(l): State<LobbyState>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, LobbyError> {
    let me = player(&l.accounts, &headers, "seek a game").await?;
    let req: SeekRequest = parse_body(body)?;
    let my_id = me.account.id;
    let preset = req
        .preset
        .clone()
        .unwrap_or_else(|| l.hub.default_preset.clone());
    let initial_ms = seek_clock(&preset, req.minutes)?;
    let lexicon = seek_lexicon(&l, req.lexicon.clone())?;
    check_rating_range(&req)?;
    let opponent = seek_opponent(&l, &req, my_id, &lexicon).await?;
    let row = SeekRow {
        id: new_seek_id(),
        seeker_id: my_id,
        preset,
        lexicon,
        initial_ms,
        rated: req.rated,
        min_rating: req.min_rating.map(i64::from),
        max_rating: req.max_rating.map(i64::from),
        opponent,
        created_ms: now_ms() as i64,
    };
    let seek = seek_of(&row);
    seek.validate().map_err(LobbyError::seek)?;
    if !matches!(row.opponent, SeekOpponent::Computer(_)) {
        check_open_seeks(&l, my_id).await?;
    }
    l.spend(my_id)?;
    // NASPA I.G: not while in a game that rules this one out.
    let mine = current_games(l.store(), my_id).await?;
    let new = CurrentGame {
        rated: seek.rated,
        event: false,
        correspondence: seek.is_correspondence(),
    };
    if may_start(&mine, &new).is_err() {
        return Err(LobbyError::seek(SeekError::SimultaneousGame(Who::You)));
    }
    if let SeekOpponent::Computer(level) = &row.opponent {
        let level = level.clone();
        return play_the_computer(&l, &me, row, &level, req.seat.as_deref()).await;
    }
    l.store()
        .seeks()
        .create_seek(&row)
        .await
        .map_err(LobbyError::store)?;
    let listed = l.listed(row).await?;
    let json = listed.json.clone();
    l.list(listed);
    let body = format!("{{\"seek\":{json}}}");
    Ok((
        StatusCode::CREATED,
        [(header::CONTENT_TYPE, "application/json")],
        body,
    )
        .into_response())
}

/// A seek's clock, in milliseconds a player: the preset's own, or the minutes asked for where
/// the preset gives each player a clock. A preset with one clock for the game (Scrabble for
/// Literacy) takes no minutes.
fn seek_clock(preset: &str, minutes: Option<u32>) -> Result<i64, LobbyError> {
    let ruleset = Ruleset::preset(preset).map_err(|_| {
        LobbyError::bad(format!(
            "unknown rules preset {preset:?}; the presets are {}",
            Ruleset::PRESETS.join(", ")
        ))
    })?;
    match (ruleset.clock, minutes) {
        (ClockRule::PerPlayer { initial_ms }, None) => Ok(initial_ms),
        (ClockRule::PerPlayer { .. }, Some(m)) if MINUTES.contains(&m) => Ok(i64::from(m) * 60_000),
        (ClockRule::PerPlayer { .. }, Some(m)) => Err(LobbyError::bad(format!(
            "minutes per player is {} to {}, not {m}",
            MINUTES.start(),
            MINUTES.end()
        ))),
        (ClockRule::SharedGame { total_ms, .. }, None) => Ok(total_ms / 2),
        (ClockRule::SharedGame { .. }, Some(_)) => Err(LobbyError::bad(format!(
            "{preset} has one game clock for both players: it takes no minutes per player"
        ))),
    }
}

/// The lexicon a seek asks for (the server's default if none), if it is loaded.
fn seek_lexicon(l: &Lobby, asked: Option<String>) -> Result<String, LobbyError> {
    let lexicon = asked.unwrap_or_else(|| l.hub.default_lexicon.clone());
    if !l.hub.lexicon_names().contains(&lexicon) {
        return Err(LobbyError::bad(format!(
            "unknown lexicon {lexicon:?}; loaded: {}",
            l.hub.lexicon_names().join(", ")
        )));
    }
    Ok(lexicon)
}

/// A rating range's ends are ratings (0 to [`MAX_RATING`]).
fn check_rating_range(req: &SeekRequest) -> Result<(), LobbyError> {
    for r in [req.min_rating, req.max_rating].into_iter().flatten() {
        if r > MAX_RATING {
            return Err(LobbyError::bad(format!(
                "a rating range's ends are 0 to {MAX_RATING}, not {r}"
            )));
        }
    }
    Ok(())
}

/// Whom the seek is for: anyone; a player invited by name (one who exists, is not banned and
/// is not the seeker); or the computer at a level, for a lexicon it plays.
async fn seek_opponent(
    l: &Lobby,
    req: &SeekRequest,
    my_id: i64,
    lexicon: &str,
) -> Result<SeekOpponent, LobbyError> {
    match req.opponent {
        OpponentKind::Anyone => {
            if req.invite.is_some() || req.level.is_some() || req.seat.is_some() {
                return Err(LobbyError::bad(
                    "a seek to anyone names no invited player and no computer level",
                ));
            }
            Ok(SeekOpponent::Anyone)
        }
        OpponentKind::Invited => {
            let name = req.invite.as_deref().unwrap_or("").trim();
            let parsed = Username::parse(name)
                .map_err(|e| LobbyError::bad(format!("the invited player's name {name:?}: {e}")))?;
            let invited = l
                .store()
                .accounts()
                .account_by_skeleton(&parsed.skeleton())
                .await
                .map_err(LobbyError::store)?
                .filter(|a| !a.banned)
                .ok_or_else(|| LobbyError::bad(format!("there is no player named {name:?}")))?;
            if invited.id == my_id {
                return Err(LobbyError::bad("you cannot invite yourself"));
            }
            Ok(SeekOpponent::Invited(invited.id))
        }
        OpponentKind::Computer => {
            let level = req.level.as_deref().unwrap_or("static");
            tilebag_live::bot::parse_level(level).map_err(LobbyError::bad)?;
            if !l.hub.engines.names().iter().any(|n| n == lexicon) {
                return Err(LobbyError::bad(format!(
                    "the computer cannot play with {lexicon:?}; it plays {}",
                    l.hub.engines.names().join(", ")
                )));
            }
            Ok(SeekOpponent::Computer(level.trim().to_string()))
        }
    }
}

/// The lobby's limits on open seeks: so many a player, so many in all. Of several processes,
/// the database knows every open seek of the player's.
async fn check_open_seeks(l: &Lobby, my_id: i64) -> Result<(), LobbyError> {
    let stored = match l.fanout {
        Some(_) => Some(
            l.store()
                .seeks()
                .seeks_of(my_id)
                .await
                .map_err(LobbyError::store)?
                .len(),
        ),
        None => None,
    };
    let st = l.state.lock().expect("lobby state");
    let mine = stored.unwrap_or_else(|| {
        st.seeks
            .values()
            .filter(|s| s.row.seeker_id == my_id)
            .count()
    });
    if mine >= l.limits.open_per_account {
        return Err(LobbyError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too-many-seeks",
            format!("you have {mine} open seeks, the most one player may have: cancel one first"),
        ));
    }
    if st.seeks.len() >= l.limits.open_total {
        return Err(LobbyError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "lobby-full",
            "the lobby holds as many seeks as it takes: accept one, or try again soon",
        ));
    }
    Ok(())
}

/// A seek to the computer is taken at once: the game starts now, unrated, with the player in
/// the seat asked for (`first`, `second`, or `random`: drawn).
async fn play_the_computer(
    l: &Lobby,
    me: &SignedIn,
    row: SeekRow,
    level: &str,
    seat: Option<&str>,
) -> Result<Response, LobbyError> {
    let level = tilebag_live::bot::parse_level(level).map_err(LobbyError::bad)?;
    let human = match seat.unwrap_or("random") {
        "first" => 0,
        "second" => 1,
        "random" => usize::from(random_bit()),
        other => {
            return Err(LobbyError::bad(format!(
                "seat is first, second or random, not {other:?}"
            )))
        }
    };
    let mut seats = [None, None];
    seats[human] = Some((me.account.id, me.account.username.clone()));
    let _one = l.starting.lock().await;
    let seated = l
        .start(Table {
            preset: row.preset,
            rules: vec![],
            lexicon: row.lexicon,
            initial_ms: row.initial_ms,
            rated: false,
            seats,
            bot: Some(level),
        })
        .await?;
    let mine = seated[human].clone().expect("the human's seat");
    Ok((StatusCode::CREATED, Json(json!({ "game": mine }))).into_response())
}

fn random_bit() -> u8 {
    let mut b = [0u8; 1];
    let _ = getrandom::fill(&mut b);
    b[0] & 1
}

fn seek_id(raw: &str) -> Result<i64, LobbyError> {
    raw.parse::<i64>()
        .ok()
        .filter(|id| (1..=MAX_SEEK_ID).contains(id))
        .ok_or_else(|| {
            LobbyError::new(
                StatusCode::NOT_FOUND,
                "not-found",
                format!("{raw:?} is not a seek's id"),
            )
        })
}

fn gone() -> LobbyError {
    LobbyError::new(
        StatusCode::GONE,
        "gone",
        "this seek is no longer open: it was accepted, cancelled or expired",
    )
}

/// `POST /api/seeks/{id}/accept`: starts the game; the acceptor is answered with their seat,
/// the seeker is sent theirs on their own stream.
async fn accept_seek(
    State(l): State<LobbyState>,
    Path(raw): Path<String>,
    headers: HeaderMap,
) -> Result<Response, LobbyError> {
    let id = seek_id(&raw)?;
    let me = player(&l.accounts, &headers, "accept a seek").await?;
    let row = {
        let st = l.state.lock().expect("lobby state");
        match st.seeks.get(&id) {
            Some(s) if s.to.includes(Some(me.account.id)) => s.row.clone(),
            _ => return Err(gone()),
        }
    };
    let seek = seek_of(&row);
    let category = category_of(&row).key();
    let rating = rating_of(l.store(), me.account.id, &category).await;
    // One start at a time: the games each player is in cannot change under the check.
    let _one = l.starting.lock().await;
    let mine = current_games(l.store(), me.account.id).await?;
    let theirs = current_games(l.store(), row.seeker_id).await?;
    seek.can_accept(me.account.id as u64, &rating, &mine, &theirs)
        .map_err(LobbyError::seek)?;
    let seeker = l
        .store()
        .accounts()
        .account_by_id(row.seeker_id)
        .await
        .map_err(LobbyError::store)?;
    let seeker = match seeker {
        Some(a) if !a.banned => a,
        _ => {
            // A banned seeker's seeks go with them.
            if let Ok(ids) = l.store().seeks().delete_seeks_of(row.seeker_id).await {
                l.unlist(&ids);
            }
            return Err(gone());
        }
    };
    // Taken in one statement: of two acceptors at once, one gets it.
    let Some(row) = l
        .store()
        .seeks()
        .take_seek(id)
        .await
        .map_err(LobbyError::store)?
    else {
        l.unlist(&[id]);
        return Err(gone());
    };
    l.unlist(&[id]);
    // Who goes first is drawn at random: a lobby game has no count of firsts and seconds to
    // balance, so NASPA III.D comes down to its last step, a draw (here, the server's coin).
    let seeker_seat = usize::from(random_bit());
    let mut seats = [None, None];
    seats[seeker_seat] = Some((seeker.id, seeker.username.clone()));
    seats[1 - seeker_seat] = Some((me.account.id, me.account.username.clone()));
    let started = l
        .start(Table {
            preset: row.preset.clone(),
            rules: vec![],
            lexicon: row.lexicon.clone(),
            initial_ms: row.initial_ms,
            rated: row.rated,
            seats,
            bot: None,
        })
        .await;
    let seated = match started {
        Ok(s) => s,
        Err(e) => {
            // Listed again, as it was: nobody got a game.
            if l.store().seeks().create_seek(&row).await.is_ok() {
                if let Ok(listed) = l.listed(row).await {
                    l.list(listed);
                }
            }
            return Err(e);
        }
    };
    if let Some(s) = &seated[seeker_seat] {
        l.send_seat(seeker.id, s);
    }
    let mine = seated[1 - seeker_seat]
        .clone()
        .expect("the acceptor's seat");
    Ok((StatusCode::CREATED, Json(json!({ "game": mine }))).into_response())
}

/// `POST /api/seeks/{id}/cancel`: the seeker withdraws their seek.
async fn cancel_seek(
    State(l): State<LobbyState>,
    Path(raw): Path<String>,
    headers: HeaderMap,
) -> Result<Response, LobbyError> {
    let id = seek_id(&raw)?;
    let me = player(&l.accounts, &headers, "cancel a seek").await?;
    let cancelled = l
        .store()
        .seeks()
        .cancel_seek(id, me.account.id)
        .await
        .map_err(LobbyError::store)?;
    if !cancelled {
        return Err(LobbyError::new(
            StatusCode::NOT_FOUND,
            "not-found",
            "you have no open seek with that id (only the seeker may cancel a seek)",
        ));
    }
    l.unlist(&[id]);
    Ok(Json(json!({ "cancelled": id })).into_response())
}
