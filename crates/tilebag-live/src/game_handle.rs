//! A handle on a live game's task (`live.rs` spawns the task): the commands it takes, what it
//! shares with its handles (ended, expired, the summary, the clock), and why a request about a
//! game failed ([`HubError`], [`Refused`]). Whoever talks to a game (the WebSocket, the
//! computer's seat, the HTTP API) holds a [`GameHandle`].

use crate::clock::GameClock;
use crate::meta::GameMeta;
use crate::protocol::{ClientMessage, ErrorCode};
use crate::view::{Audience, ObserverView, ResultView, SheetFeed};
use axum::extract::ws::Utf8Bytes;
use serde::Serialize;
use serde_json::Value;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex};
use tilebag_core::Action;
use tilebag_store::{GameStatus, StoreError};
use tokio::sync::{mpsc, oneshot, watch};

/// A game's public state as the list shows it, kept current by the game's task (and sent to
/// the other processes, `summaries.rs`).
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Summary {
    pub scores: [i32; 2],
    pub to_move: usize,
    pub seq: u64,
    pub result: Option<ResultView>,
    /// The game is neutralised: `Some(seat)` when a player called the director.
    pub paused: Option<Option<usize>>,
}

pub struct Shared {
    pub ended: AtomicBool,
    /// Nobody started the game in time; its task has stopped.
    pub expired: AtomicBool,
    pub summary: Mutex<Summary>,
    /// The game's clock as its task last set it (waiting until the game starts), for the
    /// checkpoints.
    pub clock: Mutex<GameClock>,
    /// The latest game time known to be stored (an event's or a checkpoint's): where the clock
    /// is held while the database is down.
    pub durable_ms: AtomicI64,
    /// Which seats have been opened (a connection with the seat's token) since the game was
    /// loaded: an online event's no-show check asks it (NASPA III.C, WESPA 2.3).
    pub opened: [AtomicBool; 2],
    /// Set when another process has taken the game (`cluster.rs`): its task stops.
    pub evicted: watch::Sender<bool>,
}

/// A reply to an HTTP request about a game.
pub struct Snapshot {
    pub status: GameStatus,
    pub view: ObserverView,
}

pub enum Command {
    Connect {
        audience: Audience,
        /// How the connection takes the score sheet.
        sheet: SheetFeed,
        out: mpsc::Sender<Utf8Bytes>,
        reply: oneshot::Sender<u64>,
    },
    Disconnect {
        conn: u64,
    },
    /// Watch the game: the current observers' view and a receiver of every later one (all
    /// watchers share one latest view), or why not (the game has as many watchers as it takes).
    Watch {
        reply: oneshot::Sender<Result<(Utf8Bytes, watch::Receiver<Utf8Bytes>), Refused>>,
    },
    /// A watcher left (wakes the task, which may let a finished game go).
    Unwatch,
    Act {
        conn: u64,
        seat: usize,
        id: Option<Value>,
        message: ClientMessage,
    },
    /// Send this connection the current view again.
    Refresh {
        conn: u64,
        audience: Audience,
    },
    Snapshot {
        reply: oneshot::Sender<Snapshot>,
    },
    Gcg {
        reply: oneshot::Sender<String>,
    },
    /// The director acts on the game (pause, resume, end).
    Director {
        action: Action,
        reply: oneshot::Sender<Result<(), Refused>>,
    },
}

/// A handle on a game's task.
#[derive(Clone)]
pub struct GameHandle {
    pub meta: Arc<GameMeta>,
    pub tx: mpsc::Sender<Command>,
    pub shared: Arc<Shared>,
}

impl GameHandle {
    pub async fn send(&self, cmd: Command) -> Result<(), HubError> {
        self.tx.send(cmd).await.map_err(|_| HubError::Unavailable)
    }

    pub fn is_ended(&self) -> bool {
        self.shared.ended.load(Ordering::Acquire)
    }

    pub fn is_expired(&self) -> bool {
        self.shared.expired.load(Ordering::Acquire)
    }

    pub fn summary(&self) -> Summary {
        self.shared.summary.lock().expect("summary lock").clone()
    }

    /// Whether `seat` has been opened since the game was loaded (see [`Shared::opened`]).
    pub fn seat_opened(&self, seat: usize) -> bool {
        self.shared
            .opened
            .get(seat)
            .is_some_and(|o| o.load(Ordering::Acquire))
    }

    pub fn clock(&self) -> GameClock {
        *self.shared.clock.lock().expect("clock lock")
    }

    /// Subscribe a connection: the game sends it a `state` at once, then every change.
    pub async fn connect(
        &self,
        audience: Audience,
        sheet: SheetFeed,
        out: mpsc::Sender<Utf8Bytes>,
    ) -> Result<u64, HubError> {
        let (reply, rx) = oneshot::channel();
        self.send(Command::Connect {
            audience,
            sheet,
            out,
            reply,
        })
        .await?;
        rx.await.map_err(|_| HubError::Unavailable)
    }

    /// Watch the game as an observer: the view now, and a receiver of the latest view.
    pub async fn watch(
        &self,
    ) -> Result<Result<(Utf8Bytes, watch::Receiver<Utf8Bytes>), Refused>, HubError> {
        let (reply, rx) = oneshot::channel();
        self.send(Command::Watch { reply }).await?;
        rx.await.map_err(|_| HubError::Unavailable)
    }

    pub async fn snapshot(&self) -> Result<Snapshot, HubError> {
        let (reply, rx) = oneshot::channel();
        self.send(Command::Snapshot { reply }).await?;
        rx.await.map_err(|_| HubError::Unavailable)
    }

    pub async fn gcg(&self) -> Result<String, HubError> {
        let (reply, rx) = oneshot::channel();
        self.send(Command::Gcg { reply }).await?;
        rx.await.map_err(|_| HubError::Unavailable)
    }

    /// The director acts on the game; `Err` says why it was refused (the rules, or the
    /// database being down).
    pub async fn director(&self, action: Action) -> Result<Result<(), Refused>, HubError> {
        let (reply, rx) = oneshot::channel();
        self.send(Command::Director { action, reply }).await?;
        rx.await.map_err(|_| HubError::Unavailable)
    }
}

/// Why a game refused an action: an error code and a message for people.
#[derive(Debug, Clone)]
pub struct Refused {
    pub code: ErrorCode,
    pub message: String,
}

#[derive(Debug, thiserror::Error)]
pub enum HubError {
    #[error("no game {0:?}")]
    UnknownGame(String),
    #[error("the game's task has stopped (is the server shutting down?)")]
    Unavailable,
    #[error("{0}")]
    BadRequest(String),
    /// An outage says so itself ("the database is down: ..."); other failures are prefixed.
    #[error("{}", store_message(.0))]
    Store(#[from] StoreError),
    #[error("{0}")]
    Restore(String),
    #[error(
        "this server does not let a client choose the seed: whoever knows it knows both racks \
         (the operator can allow it for tests with `serve --allow-seeds`)"
    )]
    SeedNotAllowed,
    #[error("game {0} expired: nobody started it within {1} minutes of its creation")]
    Expired(String, u64),
    #[error(
        "your address has {0} games waiting for their players, as many as one address may: \
         start, finish or let one of them expire first"
    )]
    TooManyWaitingHere(usize),
    #[error(
        "the server holds {0} games waiting for their players, as many as it takes: start or \
         finish one, or try again later"
    )]
    TooManyWaiting(usize),
    #[error(
        "game {0} is kept out of play: it could not be restored; the server's operator has been \
         told (the director's pages list it)"
    )]
    Damaged(String),
}

fn store_message(e: &StoreError) -> String {
    if e.is_unavailable() {
        e.to_string()
    } else {
        format!("database: {e}")
    }
}

impl HubError {
    pub fn code(&self) -> ErrorCode {
        match self {
            HubError::UnknownGame(_) => ErrorCode::UnknownGame,
            HubError::Unavailable => ErrorCode::Unavailable,
            HubError::BadRequest(_) => ErrorCode::BadRequest,
            HubError::Store(e) if e.is_unavailable() => ErrorCode::Unavailable,
            HubError::Store(_) | HubError::Restore(_) => ErrorCode::Internal,
            HubError::SeedNotAllowed => ErrorCode::SeedNotAllowed,
            HubError::Expired(..) => ErrorCode::Expired,
            HubError::TooManyWaiting(_) => ErrorCode::TooManyGames,
            HubError::TooManyWaitingHere(_) => ErrorCode::RateLimited,
            HubError::Damaged(_) => ErrorCode::Damaged,
        }
    }
}
