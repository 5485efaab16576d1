//! A game owned by another process, and the bridge that serves this process's games to the
//! others (several processes on one NATS server; see `cluster.rs`).
//!
//! Whoever talks to a game holds a [`GameHandle`] and sends it [`Command`]s. For a game another
//! process owns, the handle's commands go to a [`RemoteGame`] task here, which passes each one
//! over NATS to the owner's bridge (`tilebag.game.ID`), and the bridge hands it to the game's
//! task there as if it came from a local socket. A seat's connection is one of the owner's
//! subscribers whose messages are published on a subject of this process
//! (`tilebag.to.PROCESS.CONN`): the owner sends that connection its acknowledgements and views
//! in the order the game made them, as it does for its own sockets, and this process's one
//! subscription on `tilebag.to.PROCESS.*` hands each to the socket. Watchers share the
//! observers' view the owner publishes on `tilebag.watch.ID`.
//!
//! The owner's death is found by the lease (`cluster.rs`): a remote game checks its lease every
//! second, and once another process holds it (or it expired), the remote game ends, its
//! sockets are closed, and their clients reconnect to the new owner.

use crate::clock::GameClock;
use crate::config::Judge;
use crate::game_handle::{Command, GameHandle, Refused, Shared, Snapshot, Summary};
use crate::health::Monitored;
use crate::meta::GameMeta;
use crate::protocol::{ClientMessage, ErrorCode};
use crate::view::{observer_view, Audience, Moment, SheetFeed};
use axum::extract::ws::Utf8Bytes;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tilebag_core::{Action, Game};
use tilebag_nats::{Client, Message};
use tilebag_store::{GameStatus, Store};
use tokio::sync::{mpsc, oneshot, watch};

/// How long a request to a game's owner may take before it counts as unanswered.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(3);

/// The subject a game's owner serves it on.
pub fn game_subject(id: &str) -> String {
    format!("tilebag.game.{id}")
}

/// The subject a game's owner publishes its observers' view on.
pub fn watch_subject(id: &str) -> String {
    format!("tilebag.watch.{id}")
}

/// The subject prefix a process receives its remote connections' messages on.
pub fn delivery_prefix(process: &str) -> String {
    format!("tilebag.to.{process}")
}

/// What a process asks of a game's owner.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "kebab-case")]
pub enum Request {
    /// A socket connects: its messages go to `deliver`. Answered with the owner's connection.
    Connect {
        audience: i8,
        /// How the socket takes the score sheet (absent from a process that predates it: whole).
        #[serde(default)]
        sheet: SheetFeed,
        deliver: String,
    },
    Disconnect {
        conn: u64,
    },
    Act {
        conn: u64,
        seat: usize,
        id: Option<Value>,
        message: ClientMessage,
    },
    Refresh {
        conn: u64,
        audience: i8,
    },
    /// Process `from` has watchers: start publishing the observers' view (if not yet), and
    /// answer with it now.
    Watch {
        from: String,
    },
    /// Process `from` has no watcher left: once no process has one, the publishing stops.
    Unwatch {
        from: String,
    },
    Gcg,
    /// The game's time and state now (a snapshot is built from the stored log and this).
    Moment,
    Director {
        action: Action,
    },
}

#[derive(Debug, Default, Serialize, Deserialize)]
pub struct Reply {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conn: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub moment: Option<RemoteMoment>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub refused: Option<(ErrorCode, String)>,
}

/// What a snapshot needs from the owner that the store does not hold.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub struct RemoteMoment {
    pub seq: u64,
    pub at_ms: i64,
    pub started: bool,
    pub database_down: bool,
    pub director: bool,
    pub ended: bool,
}

fn audience_code(a: Audience) -> i8 {
    match a {
        Audience::Seat(s) => s.min(1) as i8,
        Audience::Observer => -1,
    }
}

fn audience_of(code: i8) -> Audience {
    match code {
        0 => Audience::Seat(0),
        1 => Audience::Seat(1),
        _ => Audience::Observer,
    }
}

/// This process's connections to games other processes own: each one's socket, by the id the
/// delivery subject names.
#[derive(Default)]
pub struct Routes {
    conns: Mutex<HashMap<u64, mpsc::Sender<Utf8Bytes>>>,
}

impl Routes {
    fn add(&self, conn: u64, out: mpsc::Sender<Utf8Bytes>) {
        self.conns.lock().expect("routes lock").insert(conn, out);
    }

    fn remove(&self, conn: u64) {
        self.conns.lock().expect("routes lock").remove(&conn);
    }

    /// Closes every connection (NATS was lost: what the owners sent meanwhile is lost too, so
    /// the clients reconnect and are sent everything again).
    pub fn close_all(&self) {
        self.conns.lock().expect("routes lock").clear();
    }

    /// Hands a delivered message to its socket; an empty one means the owner closed it.
    pub fn deliver(&self, msg: &Message) {
        let Some(conn) = msg
            .subject
            .rsplit('.')
            .next()
            .and_then(|c| c.parse::<u64>().ok())
        else {
            return;
        };
        let mut conns = self.conns.lock().expect("routes lock");
        if msg.payload.is_empty() {
            conns.remove(&conn);
            return;
        }
        let Ok(text) = std::str::from_utf8(&msg.payload) else {
            return;
        };
        let full = conns
            .get(&conn)
            .is_some_and(|out| out.try_send(Utf8Bytes::from(text.to_string())).is_err());
        if full {
            // A socket that cannot keep up is dropped (as the owner drops its own); its client
            // reconnects and gets everything again.
            conns.remove(&conn);
        }
    }
}

/// Serves `handle` (a game this process owns) to the other processes until its task ends or
/// `stop` fires (the lease was lost).
pub fn spawn_bridge(nats: Client, handle: GameHandle, mut stop: watch::Receiver<bool>) {
    let id = handle.meta.id.clone();
    let Ok(mut sub) = nats.subscribe(&game_subject(&id)) else {
        tracing::error!(game = %id, "cannot serve the game to the other processes (NATS)");
        return;
    };
    tokio::spawn(async move {
        let mut watching = Watching::default();
        loop {
            let msg = tokio::select! {
                m = sub.next() => match m { Some(m) => m, None => return },
                _ = handle.tx.closed() => return,
                _ = async { let _ = stop.wait_for(|s| *s).await; } => return,
            };
            let req: Request = match serde_json::from_slice(&msg.payload) {
                Ok(r) => r,
                Err(e) => {
                    tracing::warn!(game = %id, error = %e, "a request no process should send");
                    continue;
                }
            };
            let reply = serve(&nats, &handle, req, &mut watching).await;
            if let (Some(reply), Some(_)) = (reply, &msg.reply) {
                let body = serde_json::to_vec(&reply).expect("replies serialise");
                let _ = nats.respond(&msg, body);
            }
        }
    });
}

/// Which other processes watch a game this process runs, and the task publishing its
/// observers' view to them.
#[derive(Default)]
struct Watching {
    from: std::collections::HashSet<String>,
    publisher: Option<tokio::task::JoinHandle<()>>,
}

/// One request to a game this process owns; the reply, if the request wants one.
async fn serve(
    nats: &Client,
    handle: &GameHandle,
    req: Request,
    watching: &mut Watching,
) -> Option<Reply> {
    match req {
        Request::Connect {
            audience,
            sheet,
            deliver,
        } => {
            let (out, mut rx) = mpsc::channel::<Utf8Bytes>(256);
            let conn = handle
                .connect(audience_of(audience), sheet, out)
                .await
                .ok()?;
            let nats = nats.clone();
            tokio::spawn(async move {
                while let Some(text) = rx.recv().await {
                    if nats.publish(&deliver, text.as_str()).is_err() {
                        break;
                    }
                }
                // The game dropped the connection: the other process closes its socket.
                let _ = nats.publish(&deliver, Vec::<u8>::new());
            });
            Some(Reply {
                conn: Some(conn),
                ..Reply::default()
            })
        }
        Request::Disconnect { conn } => {
            let _ = handle.send(Command::Disconnect { conn }).await;
            None
        }
        Request::Act {
            conn,
            seat,
            id,
            message,
        } => {
            let _ = handle
                .send(Command::Act {
                    conn,
                    seat,
                    id,
                    message,
                })
                .await;
            None
        }
        Request::Refresh { conn, audience } => {
            let _ = handle
                .send(Command::Refresh {
                    conn,
                    audience: audience_of(audience),
                })
                .await;
            None
        }
        Request::Watch { from } => {
            let (text, mut rx) = match handle.watch().await.ok()? {
                Ok(w) => w,
                Err(r) => {
                    return Some(Reply {
                        refused: Some((r.code, r.message)),
                        ..Reply::default()
                    })
                }
            };
            watching.from.insert(from);
            if watching.publisher.as_ref().is_none_or(|p| p.is_finished()) {
                // One watcher for every other process: each change is published once.
                let (nats, subject) = (nats.clone(), watch_subject(&handle.meta.id));
                watching.publisher = Some(tokio::spawn(async move {
                    while rx.changed().await.is_ok() {
                        let text = rx.borrow_and_update().clone();
                        let _ = nats.publish(&subject, text.as_str());
                    }
                }));
            }
            Some(Reply {
                text: Some(text.as_str().to_string()),
                ..Reply::default()
            })
        }
        Request::Unwatch { from } => {
            watching.from.remove(&from);
            if watching.from.is_empty() {
                // Nobody elsewhere watches: the game's task may let a finished game go.
                if let Some(p) = watching.publisher.take() {
                    p.abort();
                }
                let _ = handle.send(Command::Unwatch).await;
            }
            None
        }
        Request::Gcg => Some(Reply {
            text: Some(handle.gcg().await.ok()?),
            ..Reply::default()
        }),
        Request::Moment => {
            let snap = handle.snapshot().await.ok()?;
            let t = &snap.view.table;
            Some(Reply {
                moment: Some(RemoteMoment {
                    seq: t.seq,
                    at_ms: t.at_ms,
                    started: t.started,
                    database_down: t.database_down,
                    director: t.director,
                    ended: snap.status == GameStatus::Ended,
                }),
                ..Reply::default()
            })
        }
        Request::Director { action } => {
            let done = handle.director(action).await.ok()?;
            Some(Reply {
                refused: done.err().map(|r| (r.code, r.message)),
                ..Reply::default()
            })
        }
    }
}

/// A game another process owns, as this process's handles see it.
pub struct RemoteGame {
    meta: Arc<GameMeta>,
    nats: Client,
    store: Arc<Monitored>,
    routes: Arc<Routes>,
    process: String,
    /// This process's connection ids → the owner's.
    conns: HashMap<u64, u64>,
    watchers: Option<watch::Sender<Utf8Bytes>>,
    /// The game's lexicon (a snapshot replays the log, challenges and all).
    judge: Judge,
}

/// What a remote game needs of this process.
pub struct Here {
    pub nats: Client,
    pub store: Arc<Monitored>,
    pub routes: Arc<Routes>,
    pub process: String,
}

impl RemoteGame {
    /// Starts the task that stands for game `meta` (owned by another process) here; its handle.
    pub fn spawn(
        meta: GameMeta,
        judge: Judge,
        here: &Here,
        gone: oneshot::Receiver<()>,
    ) -> GameHandle {
        let (tx, rx) = mpsc::channel(256);
        let shared = Arc::new(Shared {
            expired: AtomicBool::new(false),
            ended: AtomicBool::new(false),
            summary: Mutex::new(Summary {
                scores: [0, 0],
                to_move: 0,
                seq: 0,
                result: None,
                paused: None,
            }),
            clock: Mutex::new(GameClock::waiting(1.0)),
            durable_ms: AtomicI64::new(0),
            opened: [AtomicBool::new(false), AtomicBool::new(false)],
            evicted: watch::channel(false).0,
        });
        let meta = Arc::new(meta);
        let task = RemoteGame {
            meta: meta.clone(),
            nats: here.nats.clone(),
            store: here.store.clone(),
            routes: here.routes.clone(),
            process: here.process.clone(),
            conns: HashMap::new(),
            watchers: None,
            judge,
        };
        tokio::spawn(task.run(rx, gone));
        GameHandle { meta, tx, shared }
    }

    async fn run(mut self, mut rx: mpsc::Receiver<Command>, mut gone: oneshot::Receiver<()>) {
        loop {
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                _ = &mut gone => break,
            }
        }
        // Its owner is gone: its sockets are closed, and their clients reconnect.
        for conn in self.conns.keys() {
            self.routes.remove(*conn);
        }
    }

    fn publish(&self, req: &Request) {
        let body = serde_json::to_vec(req).expect("requests serialise");
        if let Err(e) = self.nats.publish(&game_subject(&self.meta.id), body) {
            tracing::warn!(game = %self.meta.id, error = %e, "cannot reach the game's owner");
        }
    }

    async fn ask(&self, req: &Request) -> Option<Reply> {
        let body = serde_json::to_vec(req).expect("requests serialise");
        let msg = self
            .nats
            .request(&game_subject(&self.meta.id), body, REQUEST_TIMEOUT)
            .await;
        match msg {
            Ok(m) => serde_json::from_slice(&m.payload).ok(),
            Err(e) => {
                tracing::warn!(game = %self.meta.id, error = %e, "the game's owner did not answer");
                None
            }
        }
    }

    async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Connect {
                audience,
                sheet,
                out,
                reply,
            } => {
                let local = crate::ids::conn_id();
                self.routes.add(local, out);
                let deliver = format!("{}.{local}", delivery_prefix(&self.process));
                let req = Request::Connect {
                    audience: audience_code(audience),
                    sheet,
                    deliver,
                };
                match self.ask(&req).await.and_then(|r| r.conn) {
                    Some(owner_conn) => {
                        self.conns.insert(local, owner_conn);
                        let _ = reply.send(local);
                    }
                    // No answer: the reply is dropped (the socket's handler reports the game
                    // unavailable) and the socket's route goes.
                    None => self.routes.remove(local),
                }
            }
            Command::Disconnect { conn } => {
                self.routes.remove(conn);
                if let Some(owner_conn) = self.conns.remove(&conn) {
                    self.publish(&Request::Disconnect { conn: owner_conn });
                }
            }
            Command::Act {
                conn,
                seat,
                id,
                message,
            } => {
                if let Some(&owner_conn) = self.conns.get(&conn) {
                    self.publish(&Request::Act {
                        conn: owner_conn,
                        seat,
                        id,
                        message,
                    });
                }
            }
            Command::Refresh { conn, audience } => {
                if let Some(&owner_conn) = self.conns.get(&conn) {
                    self.publish(&Request::Refresh {
                        conn: owner_conn,
                        audience: audience_code(audience),
                    });
                }
            }
            Command::Watch { reply } => {
                let _ = reply.send(self.watch().await);
            }
            Command::Unwatch => {
                // The last watcher here left: the owner may stop publishing to this process.
                let none_left = self
                    .watchers
                    .as_ref()
                    .is_some_and(|w| w.receiver_count() == 0);
                if none_left {
                    self.watchers = None;
                    self.publish(&Request::Unwatch {
                        from: self.process.clone(),
                    });
                }
            }
            Command::Snapshot { reply } => {
                if let Some(snap) = self.snapshot().await {
                    let _ = reply.send(snap);
                }
            }
            Command::Gcg { reply } => {
                if let Some(text) = self.ask(&Request::Gcg).await.and_then(|r| r.text) {
                    let _ = reply.send(text);
                }
            }
            Command::Director { action, reply } => {
                let done = match self.ask(&Request::Director { action }).await {
                    Some(Reply {
                        refused: Some((code, message)),
                        ..
                    }) => Err(Refused { code, message }),
                    Some(_) => Ok(()),
                    None => Err(Refused {
                        code: ErrorCode::Unavailable,
                        message: "the process running this game did not answer; try again in \
                                  a few seconds"
                            .into(),
                    }),
                };
                let _ = reply.send(done);
            }
        }
    }

    /// The observers' view now and a receiver of the later ones (shared by this process's
    /// watchers of the game; the owner publishes each change once).
    async fn watch(&mut self) -> Result<(Utf8Bytes, watch::Receiver<Utf8Bytes>), Refused> {
        let unanswered = || Refused {
            code: ErrorCode::Unavailable,
            message: "the process running this game did not answer; try again in a few seconds"
                .into(),
        };
        let watch = Request::Watch {
            from: self.process.clone(),
        };
        let reply = self.ask(&watch).await.ok_or_else(unanswered)?;
        if let Some((code, message)) = reply.refused {
            return Err(Refused { code, message });
        }
        let text = Utf8Bytes::from(reply.text.ok_or_else(unanswered)?);
        if let Some(tx) = &self.watchers {
            tx.send_replace(text.clone());
            return Ok((text, tx.subscribe()));
        }
        let tx = watch::Sender::new(text.clone());
        let rx = tx.subscribe();
        let mut sub = self
            .nats
            .subscribe(&watch_subject(&self.meta.id))
            .map_err(|_| unanswered())?;
        let feed = tx.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    m = sub.next() => match m {
                        Some(m) => if let Ok(t) = std::str::from_utf8(&m.payload) {
                            feed.send_replace(Utf8Bytes::from(t.to_string()));
                        },
                        None => return,
                    },
                    _ = feed.closed() => return,
                }
            }
        });
        self.watchers = Some(tx);
        Ok((text, rx))
    }

    /// The observers' view, from the stored log and the owner's time.
    async fn snapshot(&self) -> Option<Snapshot> {
        let moment = self.ask(&Request::Moment).await.and_then(|r| r.moment)?;
        let (rec, events) = self.store.load_game(&self.meta.id).await.ok()??;
        let mut game = Game::new(rec.ruleset, rec.seed);
        for ev in events.iter().take(moment.seq as usize) {
            game.apply(&ev.event, &*self.judge).ok()?;
        }
        let now = Moment {
            seq: moment.seq,
            at_ms: moment.at_ms,
            started: moment.started,
            database_down: moment.database_down,
            director: moment.director,
        };
        Some(Snapshot {
            status: if moment.ended {
                GameStatus::Ended
            } else {
                GameStatus::Live
            },
            view: observer_view(&game, &self.meta, now),
        })
    }
}
