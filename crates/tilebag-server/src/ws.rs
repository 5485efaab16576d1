//! One WebSocket connection: a seat (`?token=SEAT_TOKEN`) or an observer (no token). The
//! connection subscribes to its game's task, forwards what the task sends, and passes the
//! client's actions on. It limits message size and rate (a token bucket): past either it sends an
//! `error` and closes (1009 message too big, 1008 policy violation).

use crate::api_error::ApiError;
use crate::app_state::AppState;
use axum::extract::rejection::QueryRejection;
use axum::extract::ws::{
    rejection::WebSocketUpgradeRejection, CloseFrame, Message, Utf8Bytes, WebSocket,
    WebSocketUpgrade,
};
use axum::extract::{Path, Query, State};
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use std::time::Instant;
use tilebag_live::config::Limits;
use tilebag_live::game_handle::{Command, GameHandle};
use tilebag_live::protocol::{error_text, parse_client, ClientMessage, ErrorCode};
use tilebag_live::view::{Audience, SheetFeed};
use tokio::sync::{mpsc, watch};

/// Messages queued for a connection before it counts as too slow and is dropped.
const OUTBOX: usize = 64;

/// The budget of `preview` messages per connection (refill per second, and burst).
const PREVIEWS_PER_SECOND: f64 = 4.0;
const PREVIEW_BURST: f64 = 8.0;

/// Close codes (RFC 6455).
const NORMAL: u16 = 1000;
const GOING_AWAY: u16 = 1001;
const POLICY_VIOLATION: u16 = 1008;
const TOO_BIG: u16 = 1009;
const INTERNAL: u16 = 1011;
const TRY_AGAIN_LATER: u16 = 1013;

#[derive(Debug, Deserialize)]
pub(crate) struct WsQuery {
    token: Option<String>,
    /// `new`: each view after the first holds only the score-sheet lines not sent yet
    /// ([`SheetFeed::NewLines`]); absent: the whole sheet every time.
    history: Option<String>,
}

pub(crate) async fn upgrade(
    State(app): State<AppState>,
    Path(id): Path<String>,
    query: Result<Query<WsQuery>, QueryRejection>,
    ws: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    let handle = match app.hub.get(&id).await {
        Ok(h) => h,
        Err(e) => return ApiError::from(e).into_response(),
    };
    let (token, sheet) = match query {
        Ok(Query(q)) => match q.history.as_deref() {
            None | Some("whole") => (q.token, SheetFeed::Whole),
            Some("new") => (q.token, SheetFeed::NewLines),
            Some(other) => {
                let msg = format!(
                    "history={other} is not a way to send the score sheet: `new` (only the lines \
                     not sent yet) or `whole`"
                );
                return ApiError::new(ErrorCode::BadRequest, msg).into_response();
            }
        },
        Err(e) => return ApiError::new(ErrorCode::BadRequest, e.body_text()).into_response(),
    };
    let audience = match token {
        None => Audience::Observer,
        Some(t) => match handle.meta.seat_for_token(&t) {
            Some(seat) => Audience::Seat(seat),
            None => {
                return ApiError::new(
                    ErrorCode::WrongToken,
                    format!("the token opens no seat of game {id}; connect without one to watch"),
                )
                .into_response()
            }
        },
    };
    let ws = match ws {
        Ok(ws) => ws,
        Err(e) => {
            return ApiError::new(
                ErrorCode::WebsocketRequired,
                format!("this endpoint speaks WebSocket only: {}", e.body_text()),
            )
            .into_response()
        }
    };
    let limits = app.hub.limits;
    let net = app.net;
    let stop = app.hub.shutdown.clone();
    let metrics = app.hub.metrics.clone();
    // The library's own limit is a backstop; our smaller limit answers with an error first.
    let cap = limits.max_message_bytes.saturating_mul(4).max(4096);
    ws.max_message_size(cap)
        .max_frame_size(cap)
        // The library zeroes this much buffer on every read; client messages are small.
        .read_buffer_size(4096)
        .on_upgrade(move |socket| async move {
            let _counted = tilebag_live::metrics::OpenSocket::new(metrics);
            serve(socket, handle, audience, sheet, limits, net, stop).await
        })
}

struct Bucket {
    tokens: f64,
    last: Instant,
    rate: f64,
    burst: f64,
}

impl Bucket {
    fn new(l: Limits) -> Bucket {
        Bucket {
            tokens: l.burst,
            last: Instant::now(),
            rate: l.messages_per_second,
            burst: l.burst,
        }
    }
    fn take(&mut self) -> bool {
        let now = Instant::now();
        let dt = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + dt * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

fn close(code: u16, reason: &'static str) -> Message {
    Message::Close(Some(CloseFrame {
        code,
        reason: Utf8Bytes::from_static(reason),
    }))
}

/// How long a connection closed for breaking a limit is still read from, so that what it keeps
/// sending is thrown away instead of making the kernel reset the connection (a reset can destroy
/// the error and the close frame before the client reads them).
const DRAIN: std::time::Duration = std::time::Duration::from_secs(2);

/// Sends the error and the close frame, then reads and discards until the client's own close
/// frame, the end of the connection, or [`DRAIN`] (at most 256 messages).
async fn refuse_and_close(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    stream: &mut futures_util::stream::SplitStream<WebSocket>,
    error: String,
    close_frame: Message,
) {
    let sent = tokio::time::timeout(DRAIN, async {
        sink.send(Message::Text(error.into())).await?;
        sink.send(close_frame).await
    })
    .await;
    if !matches!(sent, Ok(Ok(()))) {
        return;
    }
    let _ = tokio::time::timeout(DRAIN, async {
        for _ in 0..256 {
            match stream.next().await {
                Some(Ok(Message::Close(_))) | Some(Err(_)) | None => break,
                Some(Ok(_)) => {}
            }
        }
    })
    .await;
}

async fn serve(
    socket: WebSocket,
    handle: GameHandle,
    audience: Audience,
    sheet: SheetFeed,
    limits: Limits,
    net: crate::net::NetLimits,
    mut stop: watch::Receiver<bool>,
) {
    let (mut sink, mut stream) = socket.split();
    let (mut feed, conn) = match Feed::open(&handle, audience, sheet).await {
        Ok(f) => f,
        Err(Some(refused)) => {
            let e = error_text(None, refused.code, &refused.message);
            refuse_and_close(
                &mut sink,
                &mut stream,
                e,
                close(TRY_AGAIN_LATER, "too many watchers"),
            )
            .await;
            return;
        }
        Err(None) => {
            let _ = sink
                .send(close(INTERNAL, "the game is not available"))
                .await;
            return;
        }
    };
    let mut bucket = Bucket::new(limits);
    // Previews (scoring a tentative play as tiles are placed) have their own, smaller budget:
    // past it a preview is answered `rate-limited` and the connection stays open.
    let mut previews = Bucket::new(Limits {
        messages_per_second: PREVIEWS_PER_SECOND,
        burst: PREVIEW_BURST,
        ..limits
    });
    // Silence: a client that sends nothing, not even the pong a browser returns to our ping
    // on its own, is gone (or holding a descriptor on purpose).
    let mut heard = Instant::now();
    let silence = tokio::time::sleep_until((heard + net.ws_silence).into());
    tokio::pin!(silence);
    let mut ping = tokio::time::interval_at(
        (Instant::now() + net.ws_ping_every).into(),
        net.ws_ping_every.max(std::time::Duration::from_millis(10)),
    );
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // Kept across turns of the loop: made afresh on each, every message would register with,
    // and then leave, the shutdown signal's list of waiters, which every connection shares.
    let stopped = async move { tilebag_live::shutdown::stopped(&mut stop).await };
    tokio::pin!(stopped);
    loop {
        tokio::select! {
            _ = ping.tick() => {
                let sent = tokio::time::timeout(net.ws_silence, sink.send(Message::Ping(Default::default()))).await;
                if !matches!(sent, Ok(Ok(()))) {
                    break;
                }
            }
            _ = &mut silence => {
                // One timer a connection, moved on only when it rings: not one a message.
                let deadline = heard + net.ws_silence;
                if deadline > Instant::now() {
                    silence.as_mut().reset(deadline.into());
                    continue;
                }
                let _ = tokio::time::timeout(
                    std::time::Duration::from_secs(1),
                    sink.send(close(POLICY_VIOLATION, "silent too long")),
                ).await;
                break;
            }
            out = feed.next() => match out {
                Some(text) => {
                    // A client that reads nothing fills the socket's buffers: it is let go
                    // after as long as a silent one.
                    let sent = tokio::time::timeout(net.ws_silence, send_queued(&mut sink, text, &mut feed)).await;
                    if !matches!(sent, Ok(Ok(()))) {
                        break;
                    }
                }
                None => {
                    if handle.is_expired() {
                        // The game's task has told the seats why; a watcher is told here.
                        if let Feed::Watcher { .. } = feed {
                            let msg = format!(
                                "game {} expired: nobody started it in time",
                                handle.meta.id
                            );
                            let e = error_text(None, ErrorCode::Expired, &msg);
                            let _ = sink.send(Message::Text(e.into())).await;
                        }
                        let _ = sink.send(close(NORMAL, "the game expired")).await;
                        break;
                    }
                    if let Feed::Watcher { .. } = feed {
                        // The game's task has stopped (the server is stopping, or the game left
                        // memory): a reconnect brings it back.
                        let _ = sink.send(close(GOING_AWAY, "the game stopped; reconnect")).await;
                        break;
                    }
                    // The game dropped us: we fell behind, or the seat was opened on a newer
                    // connection (said in an error just before). A reconnect restores everything.
                    let _ = sink.send(close(TRY_AGAIN_LATER, "closed by the game; reconnect")).await;
                    break;
                }
            },
            msg = stream.next() => {
                heard = Instant::now();
                let text = match msg {
                    Some(Ok(Message::Text(t))) => Some(t),
                    Some(Ok(Message::Binary(_))) => None,
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_))) | None => break,
                    Some(Err(_)) => {
                        // Most likely a frame over the library's limit.
                        let e = error_text(None, ErrorCode::TooLarge, "unreadable or oversized frame");
                        let _ = sink.send(Message::Text(e.into())).await;
                        let _ = sink.send(close(TOO_BIG, "unreadable frame")).await;
                        break;
                    }
                };
                if !bucket.take() {
                    let msg = format!(
                        "more than {} messages a second (burst {}): closing",
                        limits.messages_per_second, limits.burst
                    );
                    let e = error_text(None, ErrorCode::RateLimited, &msg);
                    refuse_and_close(&mut sink, &mut stream, e, close(POLICY_VIOLATION, "rate limit")).await;
                    break;
                }
                let Some(text) = text else {
                    let e = error_text(None, ErrorCode::BadMessage, "binary frames are not used: send JSON text");
                    if sink.send(Message::Text(e.into())).await.is_err() {
                        break;
                    }
                    continue;
                };
                if text.len() > limits.max_message_bytes {
                    let msg = format!(
                        "a message may hold at most {} bytes; this one has {}",
                        limits.max_message_bytes,
                        text.len()
                    );
                    let e = error_text(None, ErrorCode::TooLarge, &msg);
                    refuse_and_close(&mut sink, &mut stream, e, close(TOO_BIG, "message too big")).await;
                    break;
                }
                let cmd = match parse_client(text.as_str()) {
                    Err(e) => {
                        let e = error_text(e.id.as_ref(), e.code, &e.message);
                        if sink.send(Message::Text(e.into())).await.is_err() {
                            break;
                        }
                        continue;
                    }
                    Ok(m) if m.message == ClientMessage::State => match feed.latest() {
                        // A watcher has the latest view at hand.
                        Some(text) => {
                            if sink.send(Message::Text(text)).await.is_err() {
                                break;
                            }
                            continue;
                        }
                        None => Command::Refresh { conn, audience },
                    },
                    Ok(m) if matches!(m.message, ClientMessage::Preview { .. }) && !previews.take() => {
                        let msg = format!(
                            "at most {PREVIEWS_PER_SECOND} previews a second (burst {PREVIEW_BURST}): this one was not scored"
                        );
                        let e = error_text(m.id.as_ref(), ErrorCode::RateLimited, &msg);
                        if sink.send(Message::Text(e.into())).await.is_err() {
                            break;
                        }
                        continue;
                    }
                    Ok(m) => match audience {
                        Audience::Seat(seat) => Command::Act {
                            conn,
                            seat,
                            id: m.id,
                            message: m.message,
                        },
                        Audience::Observer => {
                            let e = error_text(
                                m.id.as_ref(),
                                ErrorCode::NotASeat,
                                "observers cannot act: connect with a seat token to play",
                            );
                            if sink.send(Message::Text(e.into())).await.is_err() {
                                break;
                            }
                            continue;
                        }
                    },
                };
                if handle.send(cmd).await.is_err() {
                    let e = error_text(None, ErrorCode::Unavailable, "the game is not available");
                    let _ = sink.send(Message::Text(e.into())).await;
                    let _ = sink.send(close(GOING_AWAY, "game stopped")).await;
                    break;
                }
            }
            _ = &mut stopped => {
                let _ = sink.send(close(GOING_AWAY, "server shutting down")).await;
                break;
            }
        }
    }
    let gone = match &feed {
        Feed::Seat(_) => Command::Disconnect { conn },
        Feed::Watcher { .. } => Command::Unwatch,
    };
    // The watcher's receiver goes first, so the game counts one watcher fewer when told.
    drop(feed);
    let _ = handle.send(gone).await;
}

/// The most queued messages written to a socket with one flush.
const FRAMES_PER_FLUSH: usize = 16;

/// Sends `first` and whatever else is already queued for this connection (an acknowledgement
/// and the view after it, say) with one flush: one write to the socket, not one a message.
async fn send_queued(
    sink: &mut futures_util::stream::SplitSink<WebSocket, Message>,
    first: Utf8Bytes,
    feed: &mut Feed,
) -> Result<(), axum::Error> {
    sink.feed(Message::Text(first)).await?;
    for _ in 1..FRAMES_PER_FLUSH {
        let Some(more) = feed.ready() else { break };
        sink.feed(Message::Text(more)).await?;
    }
    sink.flush().await
}

/// Where a connection's messages come from: a seat's own queue (every message, in order), or
/// the watchers' shared latest view.
enum Feed {
    Seat(mpsc::Receiver<Utf8Bytes>),
    Watcher {
        rx: watch::Receiver<Utf8Bytes>,
        /// The first view, not sent yet.
        first: Option<Utf8Bytes>,
        /// When to send the latest view after a change (kept if the wait is interrupted).
        due: Option<tokio::time::Instant>,
        jitter: u64,
    },
}

/// The longest a watcher waits after a change before taking the latest view: the players'
/// acknowledgements and views go first, and thousands of watchers are served spread over this
/// time rather than all at once.
const WATCHER_SPREAD_MS: u64 = 250;

impl Feed {
    /// Connects to the game; `Err(Some)`: refused (the game has as many watchers as it takes),
    /// `Err(None)`: the game is not available.
    async fn open(
        handle: &GameHandle,
        audience: Audience,
        sheet: SheetFeed,
    ) -> Result<(Feed, u64), Option<tilebag_live::game_handle::Refused>> {
        match audience {
            Audience::Seat(_) => {
                let (out_tx, out_rx) = mpsc::channel::<Utf8Bytes>(OUTBOX);
                let conn = handle
                    .connect(audience, sheet, out_tx)
                    .await
                    .map_err(|_| None)?;
                Ok((Feed::Seat(out_rx), conn))
            }
            Audience::Observer => {
                let (first, rx) = handle.watch().await.map_err(|_| None)?.map_err(Some)?;
                let mut seed = [0u8; 8];
                let _ = getrandom::fill(&mut seed);
                let feed = Feed::Watcher {
                    rx,
                    first: Some(first),
                    due: None,
                    jitter: u64::from_le_bytes(seed) | 1,
                };
                Ok((feed, 0))
            }
        }
    }

    /// The next message to send; `None` once the game has let go of this connection.
    /// Cancel-safe: a wait interrupted by another branch of the caller's `select!` resumes.
    async fn next(&mut self) -> Option<Utf8Bytes> {
        match self {
            Feed::Seat(rx) => rx.recv().await,
            Feed::Watcher {
                rx,
                first,
                due,
                jitter,
            } => {
                if let Some(t) = first.take() {
                    return Some(t);
                }
                if due.is_none() {
                    rx.changed().await.ok()?;
                    // xorshift: a different wait for each change and each watcher.
                    *jitter ^= *jitter << 13;
                    *jitter ^= *jitter >> 7;
                    *jitter ^= *jitter << 17;
                    let wait = 20 + *jitter % WATCHER_SPREAD_MS;
                    *due =
                        Some(tokio::time::Instant::now() + std::time::Duration::from_millis(wait));
                }
                if let Some(at) = *due {
                    tokio::time::sleep_until(at).await;
                }
                *due = None;
                Some(rx.borrow_and_update().clone())
            }
        }
    }

    /// A seat's next message if it is queued already (a watcher only ever takes the latest
    /// view, after its wait).
    fn ready(&mut self) -> Option<Utf8Bytes> {
        match self {
            Feed::Seat(rx) => rx.try_recv().ok(),
            Feed::Watcher { .. } => None,
        }
    }

    /// A watcher's latest view (a seat asks its game instead).
    fn latest(&mut self) -> Option<Utf8Bytes> {
        match self {
            Feed::Seat(_) => None,
            Feed::Watcher { rx, first, .. } => {
                Some(first.clone().unwrap_or_else(|| rx.borrow().clone()))
            }
        }
    }
}
