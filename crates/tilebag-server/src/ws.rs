//! One WebSocket connection: a seat (`?token=SEAT_TOKEN`) or an observer (no token). The
//! connection subscribes to its game's task, forwards what the task sends, and passes the
//! client's actions on. It limits message size and rate (a token bucket): past either it sends an
//! `error` and closes (1009 message too big, 1008 policy violation).

use crate::http::{ApiError, AppState};
use crate::live::{Command, GameHandle};
use crate::protocol::{error_text, parse_client, ClientMessage, ErrorCode};
use crate::view::Audience;
use crate::Limits;
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
    let token = match query {
        Ok(Query(q)) => q.token,
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
    let net = app.hub.net;
    let stop = app.hub.shutdown.clone();
    // The library's own limit is a backstop; our smaller limit answers with an error first.
    let cap = limits.max_message_bytes.saturating_mul(4).max(4096);
    ws.max_message_size(cap)
        .max_frame_size(cap)
        // The library zeroes this much buffer on every read; client messages are small.
        .read_buffer_size(4096)
        .on_upgrade(move |socket| serve(socket, handle, audience, limits, net, stop))
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

async fn serve(
    socket: WebSocket,
    handle: GameHandle,
    audience: Audience,
    limits: Limits,
    net: crate::NetLimits,
    mut stop: watch::Receiver<bool>,
) {
    let (mut sink, mut stream) = socket.split();
    let (out_tx, mut out_rx) = mpsc::channel::<Utf8Bytes>(OUTBOX);
    let conn = match handle.connect(audience, out_tx).await {
        Ok(c) => c,
        Err(_) => {
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
    let mut ping = tokio::time::interval_at(
        (Instant::now() + net.ws_ping_every).into(),
        net.ws_ping_every.max(std::time::Duration::from_millis(10)),
    );
    ping.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = ping.tick() => {
                let sent = tokio::time::timeout(net.ws_silence, sink.send(Message::Ping(Default::default()))).await;
                if !matches!(sent, Ok(Ok(()))) {
                    break;
                }
            }
            _ = tokio::time::sleep_until((heard + net.ws_silence).into()) => {
                let _ = tokio::time::timeout(
                    std::time::Duration::from_secs(1),
                    sink.send(close(POLICY_VIOLATION, "silent too long")),
                ).await;
                break;
            }
            out = out_rx.recv() => match out {
                Some(text) => {
                    // A client that reads nothing fills the socket's buffers: it is let go
                    // after as long as a silent one.
                    let sent = tokio::time::timeout(net.ws_silence, sink.send(Message::Text(text))).await;
                    if !matches!(sent, Ok(Ok(()))) {
                        break;
                    }
                }
                None => {
                    if handle.is_expired() {
                        // The game's task has told us why (an `error` already sent).
                        let _ = sink.send(close(NORMAL, "the game expired")).await;
                        break;
                    }
                    // The game dropped us: we fell behind. A reconnect restores everything.
                    let _ = sink.send(close(TRY_AGAIN_LATER, "too slow; reconnect")).await;
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
                    let _ = sink.send(Message::Text(e.into())).await;
                    let _ = sink.send(close(POLICY_VIOLATION, "rate limit")).await;
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
                    let _ = sink.send(Message::Text(e.into())).await;
                    let _ = sink.send(close(TOO_BIG, "message too big")).await;
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
                    Ok(m) if m.message == ClientMessage::State => Command::Refresh { conn, audience },
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
            _ = crate::stopped(&mut stop) => {
                let _ = sink.send(close(GOING_AWAY, "server shutting down")).await;
                break;
            }
        }
    }
    let _ = handle.send(Command::Disconnect { conn }).await;
}
