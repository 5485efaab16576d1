//! Chat over HTTP: the lobby's chat, and each game's players' chat and watchers' chat. The rules
//! (who may send and read in each room, lengths, the rate, NASPA I.D in event games, mutes,
//! bans, blocks) are `tilebag_accounts::chat`'s; the messages, mutes, blocks and reports are
//! the store's (`ChatStore`); the panel is `web/assets/chat.js`, shown by the lobby and the game
//! page.
//!
//! - Rooms are named `lobby`, `game:ID:players` and `game:ID:watchers`. A game's players are the
//!   accounts linked to its seats (`SeatStore`); a seat no account holds (a guest by link, the
//!   computer) counts as a player nobody else is. An event game (a seat linked with `event`)
//!   shuts the players' chat while it is on (NASPA I.D); in a casual game either player may ask
//!   for silence, which shuts it too until the game ends (kept in this process's memory).
//! - Only signed-in accounts read and write. Sending is a POST from this site (`Origin`) with a
//!   CSRF token derived from the session (purpose `chat`), like every form of a signed-in player.
//!   A refusal answers `{"error": …}` naming why (`ChatError`'s words), with 429 and
//!   `Retry-After` when it is the rate.
//! - Messages are stored first, then pushed to the readers over Server-Sent Events
//!   (`GET /api/chat/stream?room=…`). SSE rather than the game's WebSocket: the lobby has no
//!   WebSocket, the game's socket belongs to a seat token or to watchers and knows no account,
//!   and a send is then a plain POST that carries the session cookie, the `Origin` and the CSRF
//!   token as every other form does. Each stream filters what it passes by the reader's rights
//!   (`may_read`: the watchers' chat is kept from the players while the game is on) and by the
//!   reader's own mutes and blocks (`delivers`; the sender is not told). A moderator's deletion
//!   is pushed too, so the message disappears for everyone at once.
//! - Several processes (issue 31): whatever is pushed here is told to the others too
//!   (`fanout.rs`, [`fanout::CHAT`]), which push it to their own streams, and so is a request for
//!   silence. Mutes, blocks, sanctions and sessions are in the database, read by every process.
//!   The rate of messages is counted per process (spreading messages over `n` processes allows
//!   up to `n` times the rate).

use crate::accounts::{signed_in, Accounts, SignedIn};
use crate::fanout::{self, Fanout};
use crate::origin::same_origin;
use axum::extract::{Form, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tilebag_accounts::chat::{
    check_message, clean_message, delivers, may_read, may_send, AccountId, ChatBucket, ChatError,
    ChatLimit, Chatter, GameChat, Room, Standing,
};
use tilebag_accounts::username::Username;
use tilebag_live::health::Monitored;
use tilebag_live::live::Hub;
use tilebag_store::accounts::{Account, Role};
use tilebag_store::{ChatMessage, NewMessage, NewReport, Relation, Store};
use tokio::sync::broadcast;

/// The CSRF token's purpose for the chat's forms.
pub(crate) const CHAT_PURPOSE: &str = "chat";
/// Messages shown when a room is opened.
const HISTORY: usize = 50;
/// Rate buckets kept before the full ones are forgotten.
const MAX_BUCKETS: usize = 50_000;
/// Casual games with silence asked for, kept before the oldest are forgotten.
const MAX_SILENCED: usize = 100_000;
/// The longest reason given with a report, in characters.
const MAX_REASON_CHARS: usize = 300;
/// Pushed items a slow stream may fall behind by before it is told to reload.
const PUSH_BUFFER: usize = 1024;

/// A room, as named in requests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum RoomName {
    Lobby,
    Players(String),
    Watchers(String),
}

impl RoomName {
    /// `lobby`, `game:ID:players` or `game:ID:watchers` (a plausible game id); anything else is
    /// no room.
    pub(crate) fn parse(s: &str) -> Option<RoomName> {
        if s == "lobby" {
            return Some(RoomName::Lobby);
        }
        let rest = s.strip_prefix("game:")?;
        let (id, which) = rest.rsplit_once(':')?;
        if !tilebag_live::ids::plausible_id(id) {
            return None;
        }
        match which {
            "players" => Some(RoomName::Players(id.to_string())),
            "watchers" => Some(RoomName::Watchers(id.to_string())),
            _ => None,
        }
    }

    pub(crate) fn key(&self) -> String {
        match self {
            RoomName::Lobby => "lobby".to_string(),
            RoomName::Players(id) => format!("game:{id}:players"),
            RoomName::Watchers(id) => format!("game:{id}:watchers"),
        }
    }

    fn game(&self) -> Option<&str> {
        match self {
            RoomName::Lobby => None,
            RoomName::Players(id) | RoomName::Watchers(id) => Some(id),
        }
    }
}

/// What the streams are told.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub(crate) enum Pushed {
    /// A new message (its JSON), with the room as the rules saw it when it was sent.
    Message {
        room: String,
        state: Room,
        sender: i64,
        json: String,
    },
    /// A moderator deleted a message.
    Deleted { room: String, id: i64 },
    /// A line from the server (a player asked for silence).
    Notice { room: String, text: String },
    /// An account changed its mutes or blocks: its streams read them again.
    Relations { account: i64 },
}

/// What one process tells the others of its chat ([`fanout::CHAT`]).
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
enum ChatNote {
    /// Pushed to the streams here: push it to yours.
    Pushed { pushed: Pushed },
    /// A player asked for silence in this game's players' chat.
    Silenced { game: String },
}

/// A refusal: its status and the words for the sender.
pub(crate) struct Refusal {
    status: StatusCode,
    message: String,
    retry_after_s: Option<u64>,
}

impl Refusal {
    pub(crate) fn new(status: StatusCode, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            message: message.into(),
            retry_after_s: None,
        }
    }

    fn store_down() -> Refusal {
        Refusal::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "The database is down for a moment; please try again shortly.",
        )
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        let mut r = (
            self.status,
            [(header::CACHE_CONTROL, "no-store")],
            Json(json!({ "error": self.message })),
        )
            .into_response();
        if let Some(s) = self.retry_after_s {
            if let Ok(v) = HeaderValue::from_str(&s.to_string()) {
                r.headers_mut().insert(header::RETRY_AFTER, v);
            }
        }
        r
    }
}

/// A chat rule's refusal, with the status that fits it.
fn refused(e: ChatError) -> Refusal {
    let status = match e {
        ChatError::Empty | ChatError::TooLong { .. } | ChatError::ToYourself => {
            StatusCode::BAD_REQUEST
        }
        ChatError::TooFast { .. } => StatusCode::TOO_MANY_REQUESTS,
        _ => StatusCode::FORBIDDEN,
    };
    let retry_after_s = match e {
        ChatError::TooFast { retry_after_ms } => Some(retry_after_ms.div_ceil(1000).max(1)),
        _ => None,
    };
    let message = match &e {
        ChatError::Muted {
            until_ms: Some(until),
        } if *until < i64::MAX as u64 => {
            format!("your account is muted until {}", utc_words(*until))
        }
        _ => e.to_string(),
    };
    Refusal {
        status,
        message: upper_first(&message),
        retry_after_s,
    }
}

/// A time in words, `2026-11-27 12:00 UTC`.
pub(crate) fn utc_words(ms: u64) -> String {
    let t = tilebag_core::civil::utc_text((ms / 1000) as i64);
    // `YYYY-MM-DDTHH:MM:SSZ` → `YYYY-MM-DD HH:MM UTC`.
    format!("{} {} UTC", &t[..10], &t[11..16])
}

pub(crate) fn upper_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect::<String>() + ".",
        None => String::new(),
    }
}

/// What the chat handlers share.
pub(crate) struct Chat {
    accounts: Arc<Accounts>,
    store: Arc<Monitored>,
    hub: Arc<Hub>,
    limit: ChatLimit,
    buckets: Mutex<HashMap<i64, ChatBucket>>,
    silenced: Mutex<HashSet<String>>,
    push: broadcast::Sender<Arc<Pushed>>,
    idle: Duration,
    /// The other processes, when this is one of several.
    fanout: Option<Fanout>,
}

pub(crate) fn now_ms() -> u64 {
    tilebag_store::wall_ms().max(0) as u64
}

/// An account's standing, as the chat rules take it.
pub(crate) fn standing(a: &Account) -> Standing {
    if a.banned {
        Standing::Banned
    } else if let Some(until) = a.muted_until_ms {
        Standing::Muted {
            until_ms: Some(until.max(0) as u64),
        }
    } else {
        Standing::Good
    }
}

/// A seat no account holds counts as a player nobody else is (ids count up from 1).
fn guest_seat(seat: usize) -> AccountId {
    u64::MAX - seat as u64
}

fn message_json(m: &ChatMessage) -> serde_json::Value {
    json!({
        "id": m.id,
        "sender": m.sender_name,
        "text": m.text,
        "sent_ms": m.sent_ms,
    })
}

impl Chat {
    pub(crate) fn new(
        accounts: Arc<Accounts>,
        store: Arc<Monitored>,
        hub: Arc<Hub>,
        idle: Duration,
    ) -> Arc<Chat> {
        let fanout = Fanout::new(&hub);
        let chat = Arc::new(Chat {
            accounts,
            store,
            hub,
            limit: ChatLimit::default(),
            buckets: Mutex::new(HashMap::new()),
            silenced: Mutex::new(HashSet::new()),
            push: broadcast::channel(PUSH_BUFFER).0,
            idle,
            fanout,
        });
        if let Some(f) = &chat.fanout {
            let weak = Arc::downgrade(&chat);
            f.listen(
                fanout::CHAT,
                chat.hub.shutdown.clone(),
                move |note: ChatNote| {
                    if let Some(c) = weak.upgrade() {
                        c.heard(note);
                    }
                    std::future::ready(())
                },
            );
        }
        chat
    }

    /// What another process told this one.
    fn heard(&self, note: ChatNote) {
        match note {
            ChatNote::Pushed { pushed } => {
                let room = match &pushed {
                    Pushed::Message { room, .. }
                    | Pushed::Deleted { room, .. }
                    | Pushed::Notice { room, .. } => Some(room),
                    Pushed::Relations { .. } => None,
                };
                if room.is_some_and(|r| RoomName::parse(r).is_none()) {
                    tracing::warn!(?room, "chat: another process pushed to no room; skipped");
                    return;
                }
                let _ = self.push.send(Arc::new(pushed));
            }
            ChatNote::Silenced { game } => {
                if tilebag_live::ids::plausible_id(&game) {
                    self.silence_here(game);
                }
            }
        }
    }

    /// Pushes to the streams here and tells the other processes to push it to theirs.
    fn push_all(&self, pushed: Pushed) {
        if let Some(f) = &self.fanout {
            f.publish(
                fanout::CHAT,
                &ChatNote::Pushed {
                    pushed: pushed.clone(),
                },
            );
        }
        let _ = self.push.send(Arc::new(pushed));
    }

    fn silence_here(&self, game: String) {
        let mut silenced = self.silenced.lock().expect("silenced");
        if silenced.len() >= MAX_SILENCED {
            silenced.clear();
        }
        silenced.insert(game);
    }

    pub(crate) fn accounts(&self) -> &Arc<Accounts> {
        &self.accounts
    }

    pub(crate) fn store(&self) -> &Arc<Monitored> {
        &self.store
    }

    /// Tells every stream of `room` that message `id` is gone.
    pub(crate) fn push_deleted(&self, room: &str, id: i64) {
        self.push_all(Pushed::Deleted {
            room: room.to_string(),
            id,
        });
    }

    /// The room as the rules see it now: for a game, its players, whether it is an event game,
    /// over, or under a request for silence.
    async fn room_state(&self, room: &RoomName) -> Result<Room, Refusal> {
        let Some(id) = room.game() else {
            return Ok(Room::Lobby);
        };
        let over = match self.hub.get(id).await {
            Ok(h) => h.is_ended() || h.is_expired(),
            Err(tilebag_live::game_handle::HubError::UnknownGame(_)) => {
                return Err(Refusal::new(
                    StatusCode::NOT_FOUND,
                    "There is no such game.",
                ))
            }
            Err(tilebag_live::game_handle::HubError::Expired(..)) => true,
            Err(tilebag_live::game_handle::HubError::Store(_)) => return Err(Refusal::store_down()),
            Err(e) => {
                return Err(Refusal::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    upper_first(&format!("this game's chat cannot be opened now: {e}")),
                ))
            }
        };
        let seats = self
            .store
            .seats()
            .seats_of_game(id)
            .await
            .map_err(|_| Refusal::store_down())?;
        let mut players = [guest_seat(0), guest_seat(1)];
        for s in &seats {
            if let Some(p) = players.get_mut(usize::from(s.seat)) {
                *p = s.account_id.max(0) as u64;
            }
        }
        let game = GameChat {
            players,
            // NASPA I.D: an event's game has no chat between the opponents while it is on.
            event_game: seats.iter().any(|s| s.event),
            over,
            silence_requested: self.silenced.lock().expect("silenced").contains(id),
        };
        Ok(match room {
            RoomName::Players(_) => Room::GamePlayers(game),
            _ => Room::GameWatchers(game),
        })
    }

    /// The accounts whose messages `reader` does not want (muted or blocked).
    async fn hidden_from(&self, reader: i64) -> Result<Vec<AccountId>, Refusal> {
        Ok(self
            .store
            .chat()
            .relations_of(reader)
            .await
            .map_err(|_| Refusal::store_down())?
            .into_iter()
            .map(|r| r.other_id.max(0) as u64)
            .collect())
    }

    /// The account's rate bucket, made full if it has none (a full bucket is the same as
    /// none, so those are forgotten when there are too many).
    fn with_bucket<T>(&self, account: i64, now: u64, f: impl FnOnce(&mut ChatBucket) -> T) -> T {
        let limit = self.limit;
        let mut buckets = self.buckets.lock().expect("buckets");
        if buckets.len() >= MAX_BUCKETS && !buckets.contains_key(&account) {
            let cap = u64::from(limit.burst).saturating_mul(limit.refill_ms);
            buckets
                .retain(|_, b| b.credit_ms.saturating_add(now.saturating_sub(b.updated_ms)) < cap);
        }
        f(buckets
            .entry(account)
            .or_insert_with(|| ChatBucket::new(&limit, now)))
    }

    /// Spends one of the account's messages (a report costs one too).
    fn spend(&self, account: i64, now: u64) -> Result<(), ChatError> {
        let limit = self.limit;
        self.with_bucket(account, now, |b| b.try_send(&limit, now))
    }
}

type ChatState = Arc<Chat>;

pub(crate) fn router(chat: Arc<Chat>) -> Router {
    Router::new()
        .route("/api/chat", get(room_page))
        .route("/api/chat/stream", get(stream))
        .route("/api/chat/send", post(send))
        .route("/api/chat/silence", post(silence))
        .route("/api/chat/relation", post(relation))
        .route("/api/chat/report", post(report))
        .with_state(chat)
}

#[derive(Deserialize)]
struct RoomQuery {
    #[serde(default)]
    room: String,
}

fn no_room() -> Refusal {
    Refusal::new(
        StatusCode::BAD_REQUEST,
        "There is no such chat room (lobby, game:ID:players or game:ID:watchers).",
    )
}

fn sign_in_first() -> Refusal {
    Refusal::new(StatusCode::UNAUTHORIZED, "Sign in to chat.")
}

/// A form of a signed-in player's chat: from this site, signed in, with the session's token.
async fn checked(c: &Chat, headers: &HeaderMap, csrf: &str) -> Result<SignedIn, Refusal> {
    if !same_origin(headers) {
        return Err(Refusal::new(
            StatusCode::FORBIDDEN,
            "This was sent from another site, so it was refused.",
        ));
    }
    let me = signed_in(&c.accounts, headers)
        .await
        .ok_or_else(sign_in_first)?;
    if !me.token.check_csrf(CHAT_PURPOSE, csrf) {
        return Err(Refusal::new(
            StatusCode::FORBIDDEN,
            "This form is out of date or did not come from this site's pages; please reload \
             the page.",
        ));
    }
    Ok(me)
}

/// `GET /api/chat?room=…`: the room's recent messages the reader may see, and whether and why
/// the reader may not send there.
async fn room_page(
    State(c): State<ChatState>,
    headers: HeaderMap,
    q: Query<RoomQuery>,
) -> Response {
    match room_answer(&c, &headers, &q.room).await {
        Ok(v) => ([(header::CACHE_CONTROL, "no-store")], Json(v)).into_response(),
        Err(r) => r.into_response(),
    }
}

async fn room_answer(
    c: &Chat,
    headers: &HeaderMap,
    room: &str,
) -> Result<serde_json::Value, Refusal> {
    let name = RoomName::parse(room).ok_or_else(no_room)?;
    let Some(me) = signed_in(&c.accounts, headers).await else {
        return Ok(json!({ "room": name.key(), "me": null, "messages": [] }));
    };
    let state = c.room_state(&name).await?;
    let my_id = me.account.id.max(0) as u64;
    let chatter = Chatter {
        id: my_id,
        standing: standing(&me.account),
    };
    let can_send = match may_send(&chatter, &state, now_ms()) {
        Ok(()) => None,
        Err(e) => Some(refused(e).message),
    };
    let (is_player, silence) = match &state {
        Room::GamePlayers(g) | Room::GameWatchers(g) => (g.is_player(my_id), g.silence_requested),
        _ => (false, false),
    };
    let moderator = me.account.role == Role::Moderator;
    let mut v = json!({
        "room": name.key(),
        "me": me.account.username,
        "csrf": me.token.csrf_token(CHAT_PURPOSE),
        "moderator": moderator,
        "moderation_csrf": moderator.then(|| me.token.csrf_token(MODERATION_PURPOSE)),
        "may_send": can_send.is_none(),
        "why_not": can_send,
        "player": is_player,
        "silence_requested": silence,
        "messages": [],
    });
    v["hidden_users"] = json!([]);
    if !may_read(my_id, &state, my_id) {
        v["hidden"] = json!(upper_first(&ChatError::PlayersWaitForTheEnd.to_string()));
        return Ok(v);
    }
    let relations = c
        .store
        .chat()
        .relations_of(me.account.id)
        .await
        .map_err(|_| Refusal::store_down())?;
    v["hidden_users"] = json!(relations
        .iter()
        .map(|r| json!({ "name": r.other_name, "kind": r.kind.as_str() }))
        .collect::<Vec<_>>());
    let hidden: Vec<AccountId> = relations.iter().map(|r| r.other_id.max(0) as u64).collect();
    let messages: Vec<serde_json::Value> = c
        .store
        .chat()
        .recent_messages(&name.key(), HISTORY)
        .await
        .map_err(|_| Refusal::store_down())?
        .iter()
        .filter(|m| delivers(m.sender_id.max(0) as u64, my_id, &hidden))
        .map(message_json)
        .collect();
    v["messages"] = json!(messages);
    Ok(v)
}

/// The CSRF token's purpose for the moderators' forms.
pub(crate) const MODERATION_PURPOSE: &str = "moderation";

#[derive(Deserialize)]
struct SendForm {
    #[serde(default)]
    room: String,
    #[serde(default)]
    text: String,
    #[serde(default)]
    csrf: String,
}

/// `POST /api/chat/send`: store the message, then push it to the room's readers.
async fn send(State(c): State<ChatState>, headers: HeaderMap, Form(f): Form<SendForm>) -> Response {
    match send_message(&c, &headers, &f).await {
        Ok(id) => Json(json!({ "id": id })).into_response(),
        Err(r) => r.into_response(),
    }
}

async fn send_message(c: &Chat, headers: &HeaderMap, f: &SendForm) -> Result<i64, Refusal> {
    let me = checked(c, headers, &f.csrf).await?;
    let name = RoomName::parse(&f.room).ok_or_else(no_room)?;
    let state = c.room_state(&name).await?;
    let chatter = Chatter {
        id: me.account.id.max(0) as u64,
        standing: standing(&me.account),
    };
    let now = now_ms();
    // The standing, the room and the text, then the rate: a refused message costs no rate.
    let limit = c.limit;
    let text = c
        .with_bucket(me.account.id, now, |b| {
            check_message(&chatter, &state, &f.text, b, &limit, now)
        })
        .map_err(refused)?;
    let new = NewMessage {
        key: tilebag_live::ids::token(),
        room: name.key(),
        sender_id: me.account.id,
        text,
        sent_ms: now as i64,
    };
    let id = c
        .store
        .chat()
        .post_message(&new)
        .await
        .map_err(|_| Refusal::store_down())?;
    let stored = ChatMessage {
        id,
        room: new.room.clone(),
        sender_id: me.account.id,
        sender_name: me.account.username.clone(),
        text: new.text,
        sent_ms: new.sent_ms,
        deleted_by: None,
        deleted_ms: None,
    };
    c.push_all(Pushed::Message {
        room: new.room,
        state,
        sender: me.account.id,
        json: message_json(&stored).to_string(),
    });
    Ok(id)
}

#[derive(Deserialize)]
struct SilenceForm {
    #[serde(default)]
    room: String,
    #[serde(default)]
    csrf: String,
}

/// `POST /api/chat/silence`: a player of a casual game asks for silence; the players' chat is
/// shut until the game ends (NASPA I.D: either player may ask the other to be silent).
async fn silence(
    State(c): State<ChatState>,
    headers: HeaderMap,
    Form(f): Form<SilenceForm>,
) -> Response {
    match ask_silence(&c, &headers, &f).await {
        Ok(()) => Json(json!({ "silence_requested": true })).into_response(),
        Err(r) => r.into_response(),
    }
}

async fn ask_silence(c: &Chat, headers: &HeaderMap, f: &SilenceForm) -> Result<(), Refusal> {
    let me = checked(c, headers, &f.csrf).await?;
    let name = RoomName::parse(&f.room).ok_or_else(no_room)?;
    let (RoomName::Players(id), Room::GamePlayers(game)) = (&name, c.room_state(&name).await?)
    else {
        return Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            "Silence is asked for in a game's players' chat.",
        ));
    };
    if !game.is_player(me.account.id.max(0) as u64) {
        return Err(refused(ChatError::NotAPlayer));
    }
    if game.over {
        return Err(Refusal::new(
            StatusCode::CONFLICT,
            "The game is over: the players' chat is open.",
        ));
    }
    c.silence_here(id.clone());
    if let Some(f) = &c.fanout {
        f.publish(fanout::CHAT, &ChatNote::Silenced { game: id.clone() });
    }
    let text = if game.event_game {
        "NASPA I.D: no chat between the opponents while an event game is on.".to_string()
    } else {
        format!(
            "{} asked for silence (NASPA I.D): the players' chat opens again when the game ends.",
            me.account.username
        )
    };
    c.push_all(Pushed::Notice {
        room: name.key(),
        text,
    });
    Ok(())
}

#[derive(Deserialize)]
struct RelationForm {
    #[serde(default)]
    user: String,
    #[serde(default)]
    kind: String,
    /// `on` sets it, `off` lifts it.
    #[serde(default)]
    set: String,
    #[serde(default)]
    csrf: String,
}

/// `POST /api/chat/relation`: mute or block another account (or lift it). Their messages no
/// longer reach the account; they are not told.
async fn relation(
    State(c): State<ChatState>,
    headers: HeaderMap,
    Form(f): Form<RelationForm>,
) -> Response {
    match set_relation(&c, &headers, &f).await {
        Ok(v) => Json(v).into_response(),
        Err(r) => r.into_response(),
    }
}

/// The account a typed name is (never a banned one's existence: "no such player" alike).
pub(crate) async fn account_named(store: &Monitored, name: &str) -> Result<Account, Refusal> {
    let none = || Refusal::new(StatusCode::NOT_FOUND, "There is no such player.");
    let parsed = Username::parse(name.trim()).map_err(|_| none())?;
    store
        .accounts()
        .account_by_skeleton(&parsed.skeleton())
        .await
        .map_err(|_| Refusal::store_down())?
        .ok_or_else(none)
}

async fn set_relation(
    c: &Chat,
    headers: &HeaderMap,
    f: &RelationForm,
) -> Result<serde_json::Value, Refusal> {
    let me = checked(c, headers, &f.csrf).await?;
    let kind = Relation::parse(&f.kind)
        .ok_or_else(|| Refusal::new(StatusCode::BAD_REQUEST, "The kind is mute or block."))?;
    let on = match f.set.as_str() {
        "on" => true,
        "off" => false,
        _ => return Err(Refusal::new(StatusCode::BAD_REQUEST, "Set is on or off.")),
    };
    let other = account_named(&c.store, &f.user).await?;
    if other.id == me.account.id {
        return Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            format!("You cannot {} yourself.", kind.as_str()),
        ));
    }
    // Each change is a write: it costs one of the account's messages, so none can flood.
    c.spend(me.account.id, now_ms()).map_err(refused)?;
    c.store
        .chat()
        .set_relation(me.account.id, other.id, kind, on, now_ms() as i64)
        .await
        .map_err(|_| Refusal::store_down())?;
    c.push_all(Pushed::Relations {
        account: me.account.id,
    });
    Ok(json!({ "user": other.username, "kind": kind.as_str(), "on": on }))
}

#[derive(Deserialize)]
struct ReportForm {
    #[serde(default)]
    message: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    csrf: String,
}

/// `POST /api/chat/report`: report a message to the moderators.
async fn report(
    State(c): State<ChatState>,
    headers: HeaderMap,
    Form(f): Form<ReportForm>,
) -> Response {
    match report_message(&c, &headers, &f).await {
        Ok(v) => Json(v).into_response(),
        Err(r) => r.into_response(),
    }
}

async fn report_message(
    c: &Chat,
    headers: &HeaderMap,
    f: &ReportForm,
) -> Result<serde_json::Value, Refusal> {
    let me = checked(c, headers, &f.csrf).await?;
    let no_message = || Refusal::new(StatusCode::NOT_FOUND, "There is no such message.");
    let id: i64 = f.message.trim().parse().map_err(|_| no_message())?;
    // Cleaned as a message is (control characters become spaces, trimmed); it may be empty.
    let reason = match clean_message(&f.reason) {
        Ok(r) => r,
        Err(ChatError::Empty) => String::new(),
        Err(_) => {
            let spaced: String = f
                .reason
                .chars()
                .map(|ch| if ch.is_control() { ' ' } else { ch })
                .collect();
            spaced.trim().to_string()
        }
    };
    let n = reason.chars().count();
    if n > MAX_REASON_CHARS {
        return Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            format!("A reason may have at most {MAX_REASON_CHARS} characters (this one has {n})."),
        ));
    }
    let m = c
        .store
        .chat()
        .message(id)
        .await
        .map_err(|_| Refusal::store_down())?
        .filter(|m| m.deleted_by.is_none())
        .ok_or_else(no_message)?;
    // Only what the reporter may read can be reported (the watchers' chat is not the players'
    // while their game is on).
    let room = RoomName::parse(&m.room).ok_or_else(no_message)?;
    let state = c.room_state(&room).await?;
    let my_id = me.account.id.max(0) as u64;
    if !may_read(my_id, &state, m.sender_id.max(0) as u64) {
        return Err(no_message());
    }
    if m.sender_id == me.account.id {
        return Err(Refusal::new(
            StatusCode::BAD_REQUEST,
            "You cannot report your own message.",
        ));
    }
    // Reports share the sender's rate: no flooding the moderators.
    c.spend(me.account.id, now_ms()).map_err(refused)?;
    let new = c
        .store
        .chat()
        .report_message(&NewReport {
            message_id: id,
            reporter_id: me.account.id,
            reason,
            reported_ms: now_ms() as i64,
        })
        .await
        .map_err(|_| Refusal::store_down())?;
    Ok(json!({ "reported": true, "new": new }))
}

/// `GET /api/chat/stream?room=…`: the room's messages as they come (`message`), deletions
/// (`deleted`), the server's notices (`notice`), and `reload` when this stream fell behind.
async fn stream(State(c): State<ChatState>, headers: HeaderMap, q: Query<RoomQuery>) -> Response {
    let name = match RoomName::parse(&q.room) {
        Some(n) => n,
        None => return no_room().into_response(),
    };
    let Some(me) = signed_in(&c.accounts, &headers).await else {
        return sign_in_first().into_response();
    };
    if let Err(r) = c.room_state(&name).await {
        return r.into_response();
    }
    let hidden = match c.hidden_from(me.account.id).await {
        Ok(h) => h,
        Err(r) => return r.into_response(),
    };
    let room = name.key();
    let reader = me.account.id;
    let rx = c.push.subscribe();
    let stop = c.hub.shutdown.clone();
    let chat = c.clone();
    let state = (rx, stop, hidden);
    let events = futures_util::stream::unfold(state, move |(mut rx, mut stop, mut hidden)| {
        let room = room.clone();
        let chat = chat.clone();
        async move {
            loop {
                if *stop.borrow() {
                    return None;
                }
                let item = tokio::select! {
                    r = rx.recv() => r,
                    _ = stop.changed() => return None,
                };
                let ev = match item {
                    Ok(p) => match &*p {
                        Pushed::Message {
                            room: r,
                            state,
                            sender,
                            json,
                        } if *r == room => {
                            let me = reader.max(0) as u64;
                            let from = (*sender).max(0) as u64;
                            if !may_read(me, state, from) || !delivers(from, me, &hidden) {
                                continue;
                            }
                            Event::default().event("message").data(json.clone())
                        }
                        Pushed::Deleted { room: r, id } if *r == room => {
                            Event::default().event("deleted").data(id.to_string())
                        }
                        Pushed::Notice { room: r, text } if *r == room => Event::default()
                            .event("notice")
                            .data(json!({ "text": text }).to_string()),
                        Pushed::Relations { account } if *account == reader => {
                            if let Ok(h) = chat.hidden_from(reader).await {
                                hidden = h;
                            }
                            Event::default().event("reload").data("relations")
                        }
                        _ => continue,
                    },
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        Event::default().event("reload").data("behind")
                    }
                    Err(broadcast::error::RecvError::Closed) => return None,
                };
                return Some((Ok::<_, std::convert::Infallible>(ev), (rx, stop, hidden)));
            }
        }
    });
    let every = (c.idle / 2).clamp(Duration::from_millis(200), Duration::from_secs(15));
    Sse::new(events)
        .keep_alive(KeepAlive::new().interval(every))
        .into_response()
}
