//! Live games. One task owns each game in memory and is the only one to change it: commands
//! arrive over a channel and are applied in order. Every accepted event (a seat's action, or a
//! `Tick` when time alone changed the game) is committed to the store *before* the acting client
//! gets its `ack` and anybody gets the new view. The task sleeps until the game's next deadline
//! (`Game::next_deadline_ms`) and applies a `Tick` then, so flags fall, the out-play window
//! closes and the Literacy game clock ends the game with nobody connected.
//!
//! A new game waits: its game time stands at 0 until it starts, when both seats have connected
//! (a WebSocket with each seat's token, at least once each) or when a seat's first action is
//! accepted, whichever comes first. Over the board the first player's clock is started only once
//! the players are seated and the tiles are drawn (NASPA III.F, WESPA 2.2, SANSPA 6.5); online
//! the seat links may be opened minutes apart. The start is durable: a game with an event has
//! started, and a start by connection is written at once as the game's first clock checkpoint
//! (`checkpoint_ms` goes from [`NOT_STARTED`] to the game time; see `store/mod.rs`).

use crate::clock::GameClock;
use crate::protocol::{ack_text, error_text, state_text, ClientMessage, ErrorCode};
use crate::store::{wall_ms, GameRecord, GameStatus, Store, StoreError, StoredEvent, NOT_STARTED};
use crate::view::{
    observer_view, result_view, view_for, Audience, Moment, ObserverView, ResultView,
};
use crate::{Judge, Limits, ServeConfig, ServerError};
use axum::extract::ws::Utf8Bytes;
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};
use tilebag_core::game::Effect;
use tilebag_core::gcg::{write_gcg, ExchangedTiles, GcgEventKind, GcgPlayer};
use tilebag_core::replay::game_to_gcg;
use tilebag_core::{Action, Actor, Event, Game, GameError, Placement, Position, Ruleset};
use tokio::sync::{mpsc, oneshot, watch};

/// How long a finished game with no connection stays in memory.
const IDLE_FINISHED: Duration = Duration::from_secs(600);

/// A game's fixed facts.
#[derive(Debug, Clone)]
pub struct GameMeta {
    pub id: String,
    pub tokens: [String; 2],
    pub names: [String; 2],
    pub preset: String,
    pub lexicon: String,
    pub created_at_ms: i64,
}

impl GameMeta {
    /// The seat a token opens, if any.
    pub(crate) fn seat_for_token(&self, token: &str) -> Option<usize> {
        (0..2).find(|&s| crate::ids::same_secret(&self.tokens[s], token))
    }
}

/// A game's public state as the list shows it, kept current by the game's task.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct Summary {
    pub scores: [i32; 2],
    pub to_move: usize,
    pub seq: u64,
    pub result: Option<ResultView>,
}

pub(crate) struct Shared {
    ended: AtomicBool,
    summary: Mutex<Summary>,
    /// The game's clock as its task last set it (waiting until the game starts), for the
    /// checkpoints.
    clock: Mutex<GameClock>,
}

/// A reply to an HTTP request about a game.
pub(crate) struct Snapshot {
    pub status: GameStatus,
    pub view: ObserverView,
}

pub(crate) enum Command {
    Connect {
        audience: Audience,
        out: mpsc::Sender<Utf8Bytes>,
        reply: oneshot::Sender<u64>,
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
        reply: oneshot::Sender<Result<(), String>>,
    },
}

/// A handle on a game's task.
#[derive(Clone)]
pub(crate) struct GameHandle {
    pub meta: Arc<GameMeta>,
    tx: mpsc::Sender<Command>,
    shared: Arc<Shared>,
}

impl GameHandle {
    pub(crate) async fn send(&self, cmd: Command) -> Result<(), HubError> {
        self.tx.send(cmd).await.map_err(|_| HubError::Unavailable)
    }

    pub(crate) fn is_ended(&self) -> bool {
        self.shared.ended.load(Ordering::Acquire)
    }

    pub(crate) fn summary(&self) -> Summary {
        self.shared.summary.lock().expect("summary lock").clone()
    }

    fn clock(&self) -> GameClock {
        *self.shared.clock.lock().expect("clock lock")
    }

    /// Subscribe a connection: the game sends it a `state` at once, then every change.
    pub(crate) async fn connect(
        &self,
        audience: Audience,
        out: mpsc::Sender<Utf8Bytes>,
    ) -> Result<u64, HubError> {
        let (reply, rx) = oneshot::channel();
        self.send(Command::Connect {
            audience,
            out,
            reply,
        })
        .await?;
        rx.await.map_err(|_| HubError::Unavailable)
    }

    pub(crate) async fn snapshot(&self) -> Result<Snapshot, HubError> {
        let (reply, rx) = oneshot::channel();
        self.send(Command::Snapshot { reply }).await?;
        rx.await.map_err(|_| HubError::Unavailable)
    }

    pub(crate) async fn gcg(&self) -> Result<String, HubError> {
        let (reply, rx) = oneshot::channel();
        self.send(Command::Gcg { reply }).await?;
        rx.await.map_err(|_| HubError::Unavailable)
    }

    /// The director acts on the game; `Err` says why the rules refused it.
    pub(crate) async fn director(&self, action: Action) -> Result<Result<(), String>, HubError> {
        let (reply, rx) = oneshot::channel();
        self.send(Command::Director { action, reply }).await?;
        rx.await.map_err(|_| HubError::Unavailable)
    }
}

#[derive(Debug, thiserror::Error)]
pub(crate) enum HubError {
    #[error("no game {0:?}")]
    UnknownGame(String),
    #[error("the game's task has stopped (is the server shutting down?)")]
    Unavailable,
    #[error("{0}")]
    BadRequest(String),
    #[error("database: {0}")]
    Store(#[from] StoreError),
    #[error("{0}")]
    Restore(String),
}

impl HubError {
    pub(crate) fn code(&self) -> ErrorCode {
        match self {
            HubError::UnknownGame(_) => ErrorCode::UnknownGame,
            HubError::Unavailable => ErrorCode::Unavailable,
            HubError::BadRequest(_) => ErrorCode::BadRequest,
            HubError::Store(_) | HubError::Restore(_) => ErrorCode::Internal,
        }
    }
}

/// What creating a game needs (already validated by the HTTP layer, checked again here).
pub(crate) struct NewGame {
    pub preset: Option<String>,
    /// The organiser's choices (`end-rack=double`, ...), validated against the preset's book.
    pub rules: Vec<String>,
    pub lexicon: Option<String>,
    pub initial_ms: Option<i64>,
    pub names: [String; 2],
    pub seed: Option<u64>,
}

/// Every game in memory, and what they share.
pub(crate) struct Hub {
    store: Arc<dyn Store>,
    lexicons: HashMap<String, Judge>,
    pub(crate) default_lexicon: String,
    pub(crate) default_preset: String,
    time_scale: f64,
    pub(crate) limits: Limits,
    games: RwLock<HashMap<String, GameHandle>>,
    loading: tokio::sync::Mutex<()>,
    pub(crate) shutdown: watch::Receiver<bool>,
    /// Where games send their id and final scores when they end (the director's reporter).
    on_end: std::sync::OnceLock<mpsc::UnboundedSender<crate::director::Ended>>,
}

impl Hub {
    pub(crate) fn new(
        store: Arc<dyn Store>,
        config: &ServeConfig,
        shutdown: watch::Receiver<bool>,
    ) -> Arc<Hub> {
        Arc::new(Hub {
            store,
            lexicons: config.lexicons.clone(),
            default_lexicon: config.default_lexicon.clone(),
            default_preset: config.default_preset.clone(),
            time_scale: config.time_scale,
            limits: config.limits,
            games: RwLock::new(HashMap::new()),
            loading: tokio::sync::Mutex::new(()),
            shutdown,
            on_end: std::sync::OnceLock::new(),
        })
    }

    /// Sends every game that ends from now on to `tx` (set once, before games are restored).
    pub(crate) fn report_ends_to(&self, tx: mpsc::UnboundedSender<crate::director::Ended>) {
        let _ = self.on_end.set(tx);
    }

    /// The final scores of a stored game that has ended; `None` if it is live or unknown.
    pub(crate) async fn ended_scores(&self, id: &str) -> Option<[i32; 2]> {
        if !crate::ids::plausible_id(id) {
            return None;
        }
        let (rec, _) = self.store.load_game(id).await.ok()??;
        if rec.status != GameStatus::Ended {
            return None;
        }
        let v: serde_json::Value = serde_json::from_str(rec.result_json.as_deref()?).ok()?;
        let s = v.get("scores")?.as_array()?;
        let score = |i: usize| s.get(i)?.as_i64().and_then(|x| i32::try_from(x).ok());
        Some([score(0)?, score(1)?])
    }

    pub(crate) fn lexicon_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.lexicons.keys().cloned().collect();
        v.sort();
        v
    }

    /// Load every unfinished game and replay it (at startup).
    pub(crate) async fn restore_unfinished(&self) -> Result<usize, ServerError> {
        let games = self.store.load_unfinished().await?;
        let n = games.len();
        for (rec, events) in games {
            let id = rec.id.clone();
            let handle =
                self.spawn_restored(rec, events)
                    .map_err(|message| ServerError::Restore {
                        game: id.clone(),
                        message,
                    })?;
            self.games.write().expect("games lock").insert(id, handle);
        }
        Ok(n)
    }

    fn judge(&self, name: &str) -> Result<Judge, String> {
        self.lexicons.get(name).cloned().ok_or_else(|| {
            format!(
                "the game uses the lexicon {name:?}, which is not loaded (loaded: {:?})",
                self.lexicon_names()
            )
        })
    }

    /// Rebuild a stored game by replaying its events, and start its task.
    fn spawn_restored(
        &self,
        rec: GameRecord,
        events: Vec<StoredEvent>,
    ) -> Result<GameHandle, String> {
        let judge = self.judge(&rec.lexicon)?;
        let mut game = Game::new(rec.ruleset.clone(), rec.seed);
        let mut last_at = 0;
        for (i, ev) in events.iter().enumerate() {
            if ev.seq != i as u64 {
                return Err(format!("event {} is missing from the log", i));
            }
            game.apply(&ev.event, &*judge)
                .map_err(|e| format!("event {i} no longer applies: {e}"))?;
            last_at = ev.event.at_ms;
        }
        // Downtime is neutralised: the game time resumes where it was last seen.
        let base = last_at.max(rec.checkpoint_ms).max(game.clocks().last_ms);
        // A game with an event has started; one without has started if its start was
        // checkpointed. Otherwise it still waits for its players.
        let started = !events.is_empty() || rec.checkpoint_ms > NOT_STARTED;
        let meta = GameMeta {
            id: rec.id,
            tokens: rec.tokens,
            names: rec.names,
            preset: rec.preset,
            lexicon: rec.lexicon,
            created_at_ms: rec.created_at_ms,
        };
        let clock = if started {
            GameClock::resume(base, self.time_scale)
        } else {
            GameClock::waiting(self.time_scale)
        };
        Ok(self.spawn(meta, game, events.len() as u64, judge, clock))
    }

    fn spawn(
        &self,
        meta: GameMeta,
        game: Game,
        seq: u64,
        judge: Judge,
        clock: GameClock,
    ) -> GameHandle {
        let (tx, rx) = mpsc::channel(256);
        let shared = Arc::new(Shared {
            ended: AtomicBool::new(game.is_over()),
            summary: Mutex::new(summary(&game, seq)),
            clock: Mutex::new(clock),
        });
        let meta = Arc::new(meta);
        let task = GameTask {
            meta: meta.clone(),
            game,
            seq,
            judge,
            clock,
            store: self.store.clone(),
            shared: shared.clone(),
            subs: HashMap::new(),
            seen: [false; 2],
            retry_at: None,
            stalled: None,
            on_end: self.on_end.get().cloned(),
        };
        tokio::spawn(task.run(rx, self.shutdown.clone()));
        GameHandle { meta, tx, shared }
    }

    /// The game `id`, loading it from the store if it is not in memory (a finished game).
    pub(crate) async fn get(&self, id: &str) -> Result<GameHandle, HubError> {
        if let Some(h) = self.games.read().expect("games lock").get(id) {
            if !h.tx.is_closed() {
                return Ok(h.clone());
            }
        }
        if !crate::ids::plausible_id(id) {
            return Err(HubError::UnknownGame(id.to_string()));
        }
        let _guard = self.loading.lock().await;
        if let Some(h) = self.games.read().expect("games lock").get(id) {
            if !h.tx.is_closed() {
                return Ok(h.clone());
            }
        }
        let Some((rec, events)) = self.store.load_game(id).await? else {
            return Err(HubError::UnknownGame(id.to_string()));
        };
        let handle = self
            .spawn_restored(rec, events)
            .map_err(HubError::Restore)?;
        self.games
            .write()
            .expect("games lock")
            .insert(id.to_string(), handle.clone());
        Ok(handle)
    }

    pub(crate) async fn create(&self, req: NewGame) -> Result<GameHandle, HubError> {
        let preset = req.preset.unwrap_or_else(|| self.default_preset.clone());
        let mut ruleset = Ruleset::preset(&preset)
            .map_err(|e| HubError::BadRequest(e.to_string()))?
            .with_overrides(&req.rules)
            .map_err(|e| HubError::BadRequest(format!("rules: {e}")))?;
        if let Some(ms) = req.initial_ms {
            match ruleset.clock {
                tilebag_core::ruleset::ClockRule::PerPlayer { .. } => {
                    ruleset.clock = tilebag_core::ruleset::ClockRule::PerPlayer { initial_ms: ms }
                }
                tilebag_core::ruleset::ClockRule::SharedGame { .. } => {
                    return Err(HubError::BadRequest(format!(
                        "initial_minutes sets per-player clocks; {preset} has one game clock \
                         (Literacy 2018: 20 minutes in all)"
                    )))
                }
            }
        }
        let lexicon = req.lexicon.unwrap_or_else(|| self.default_lexicon.clone());
        let judge = self.judge(&lexicon).map_err(|_| {
            HubError::BadRequest(format!(
                "unknown lexicon {lexicon:?}; loaded: {:?}",
                self.lexicon_names()
            ))
        })?;
        let rec = GameRecord {
            id: crate::ids::game_id(),
            tokens: [crate::ids::token(), crate::ids::token()],
            names: req.names,
            preset,
            ruleset: ruleset.clone(),
            seed: req.seed.unwrap_or_else(crate::ids::seed),
            lexicon,
            created_at_ms: wall_ms(),
            status: GameStatus::Live,
            result_json: None,
            // The clock waits for the players.
            checkpoint_ms: NOT_STARTED,
        };
        self.store.create_game(&rec).await?;
        let game = Game::new(ruleset, rec.seed);
        let meta = GameMeta {
            id: rec.id.clone(),
            tokens: rec.tokens,
            names: rec.names,
            preset: rec.preset,
            lexicon: rec.lexicon,
            created_at_ms: rec.created_at_ms,
        };
        let handle = self.spawn(meta, game, 0, judge, GameClock::waiting(self.time_scale));
        self.games
            .write()
            .expect("games lock")
            .insert(rec.id, handle.clone());
        Ok(handle)
    }

    /// Stored games, newest first, with the live ones' current scores.
    pub(crate) async fn list(&self, limit: usize) -> Result<Vec<ListEntry>, HubError> {
        let rows = self.store.list_games(limit).await?;
        let games = self.games.read().expect("games lock");
        Ok(rows
            .into_iter()
            .map(|r| {
                let live = games.get(&r.id).map(|h| (h.summary(), h.is_ended()));
                let (summary, ended) = match live {
                    Some((s, ended)) => (Some(s), ended),
                    None => (None, r.status == GameStatus::Ended),
                };
                let result = match &summary {
                    Some(s) => s.result.clone(),
                    None => r
                        .result_json
                        .as_deref()
                        .and_then(|j| serde_json::from_str(j).ok()),
                };
                ListEntry {
                    id: r.id,
                    players: r.names,
                    preset: r.preset,
                    lexicon: r.lexicon,
                    created_at_ms: r.created_at_ms,
                    status: if ended { "ended" } else { "live" },
                    scores: summary.as_ref().map(|s| s.scores),
                    to_move: summary.as_ref().filter(|_| !ended).map(|s| s.to_move),
                    result,
                }
            })
            .collect())
    }

    /// The game time of every live game that has started (a waiting game has no time to save,
    /// and a checkpoint would mark it started).
    fn live_clocks(&self) -> Vec<(String, i64)> {
        self.games
            .read()
            .expect("games lock")
            .iter()
            .filter(|(_, h)| !h.is_ended())
            .filter_map(|(id, h)| {
                let clock = h.clock();
                clock.is_running().then(|| (id.clone(), clock.now_ms()))
            })
            .collect()
    }

    /// Write every live game's time every `every`, so a restart loses at most that much.
    pub(crate) fn spawn_checkpoints(
        self: Arc<Self>,
        every: Duration,
    ) -> tokio::task::JoinHandle<()> {
        let mut stop = self.shutdown.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = crate::stopped(&mut stop) => return,
                }
                // Forget the tasks of finished games that left memory.
                self.games
                    .write()
                    .expect("games lock")
                    .retain(|_, h| !h.tx.is_closed());
                let clocks = self.live_clocks();
                if clocks.is_empty() {
                    continue;
                }
                if let Err(e) = self.store.checkpoint(&clocks).await {
                    eprintln!("tilebag-server: clock checkpoint failed: {e}");
                }
            }
        })
    }

    pub(crate) async fn final_checkpoint(&self) {
        let clocks = self.live_clocks();
        if !clocks.is_empty() {
            if let Err(e) = self.store.checkpoint(&clocks).await {
                eprintln!("tilebag-server: last clock checkpoint failed: {e}");
            }
        }
    }

    pub(crate) fn stop_games(&self) {
        self.games.write().expect("games lock").clear();
    }
}

/// One entry of `GET /api/games`: nothing secret.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ListEntry {
    pub id: String,
    pub players: [String; 2],
    pub preset: String,
    pub lexicon: String,
    pub created_at_ms: i64,
    pub status: &'static str,
    /// Current scores (for games in memory).
    pub scores: Option<[i32; 2]>,
    pub to_move: Option<usize>,
    pub result: Option<ResultView>,
}

fn summary(game: &Game, seq: u64) -> Summary {
    Summary {
        scores: game.scores(),
        to_move: game.to_move(),
        seq,
        result: result_view(game),
    }
}

struct Sub {
    audience: Audience,
    out: mpsc::Sender<Utf8Bytes>,
}

enum Failure {
    Game(GameError),
    Store(StoreError),
}

/// The task that owns one game.
struct GameTask {
    meta: Arc<GameMeta>,
    game: Game,
    /// Events in the log so far (the next event's seq).
    seq: u64,
    judge: Judge,
    clock: GameClock,
    store: Arc<dyn Store>,
    shared: Arc<Shared>,
    subs: HashMap<u64, Sub>,
    /// Which seats have connected since the game was loaded (the game starts when both have).
    seen: [bool; 2],
    /// After a failed commit of a tick, when to try again.
    retry_at: Option<Instant>,
    /// A deadline whose tick changed nothing (never expected; guards against a busy loop).
    stalled: Option<i64>,
    /// Told when the game ends (after the end is committed).
    on_end: Option<mpsc::UnboundedSender<crate::director::Ended>>,
}

impl GameTask {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>, mut stop: watch::Receiver<bool>) {
        loop {
            // A finished game nobody watches leaves memory after a while; the next request
            // loads it again from the store.
            let wake = if self.game.is_over() && self.subs.is_empty() {
                Some(Instant::now() + IDLE_FINISHED)
            } else {
                self.next_wake()
            };
            let sleep = tokio::time::sleep_until(
                wake.unwrap_or_else(|| Instant::now() + Duration::from_secs(3600))
                    .into(),
            );
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => self.handle(cmd).await,
                    None => break,
                },
                _ = sleep, if wake.is_some() => {
                    if self.game.is_over() && self.subs.is_empty() {
                        break;
                    }
                    self.fire_due().await
                }
                _ = crate::stopped(&mut stop) => break,
            }
        }
    }

    fn next_wake(&self) -> Option<Instant> {
        if let Some(r) = self.retry_at {
            return Some(r);
        }
        let d = self.game.next_deadline_ms()?;
        if self.stalled == Some(d) {
            return None;
        }
        // `None` while the game waits to start: no deadline comes nearer then.
        self.clock.instant_for(d)
    }

    async fn handle(&mut self, cmd: Command) {
        match cmd {
            Command::Connect {
                audience,
                out,
                reply,
            } => {
                let conn = reply_conn_id();
                if let Audience::Seat(seat) = audience {
                    self.seen[seat] = true;
                    if self.seen == [true, true] && !self.clock.is_running() {
                        // Both players are here: the game starts (the others hear of it first,
                        // the newcomer's first view shows it started).
                        self.start_on_arrival().await;
                    }
                }
                let text = self.state_for(audience, &[]);
                if out.try_send(text).is_ok() {
                    self.subs.insert(conn, Sub { audience, out });
                }
                let _ = reply.send(conn);
            }
            Command::Disconnect { conn } => {
                self.subs.remove(&conn);
            }
            Command::Act {
                conn,
                seat,
                id,
                message,
            } => self.act(conn, seat, id, message).await,
            Command::Refresh { conn, audience } => {
                self.fire_due().await;
                let text = self.state_for(audience, &[]);
                self.send_to(conn, text);
            }
            Command::Snapshot { reply } => {
                self.fire_due().await;
                let _ = reply.send(Snapshot {
                    status: if self.game.is_over() {
                        GameStatus::Ended
                    } else {
                        GameStatus::Live
                    },
                    view: observer_view(&self.game, &self.meta, self.moment()),
                });
            }
            Command::Gcg { reply } => {
                self.fire_due().await;
                let _ = reply.send(self.gcg());
            }
            Command::Director { action, reply } => {
                let done = self.director(action).await;
                let _ = reply.send(done);
            }
        }
    }

    /// The game has started because both seats connected: make the start durable (the game's
    /// first clock checkpoint), start the clock and tell everyone connected. Should the write
    /// fail, the game starts all the same; the next periodic checkpoint records it.
    async fn start_on_arrival(&mut self) {
        let at = [(self.meta.id.clone(), self.clock.now_ms())];
        if let Err(e) = self.store.checkpoint(&at).await {
            eprintln!(
                "tilebag-server: game {}: cannot save the game's start: {e}",
                self.meta.id
            );
        }
        self.start_clock();
        self.broadcast(&[]);
    }

    /// Start the game's clock (in memory; the caller has made the start durable).
    fn start_clock(&mut self) {
        if self.clock.is_running() {
            return;
        }
        self.clock.start();
        *self.shared.clock.lock().expect("clock lock") = self.clock;
    }

    /// The game time and log position a view shows.
    fn moment(&self) -> Moment {
        Moment {
            seq: self.seq,
            at_ms: self.clock.now_ms(),
            started: self.clock.is_running(),
        }
    }

    /// Apply a `Tick` if a deadline has passed.
    async fn fire_due(&mut self) {
        if !self.clock.is_running() {
            // Game time stands still until the game starts: nothing can be due.
            return;
        }
        if let Some(r) = self.retry_at {
            if Instant::now() < r {
                return;
            }
        }
        let Some(d) = self.game.next_deadline_ms() else {
            return;
        };
        if self.stalled == Some(d) || d > self.clock.now_ms() {
            return;
        }
        let ev = Event {
            actor: Actor::Clock,
            at_ms: d.max(self.game.clocks().last_ms),
            action: Action::Tick,
        };
        match self.commit(ev).await {
            Ok(effects) => {
                self.retry_at = None;
                if self.game.next_deadline_ms() == Some(d) {
                    self.stalled = Some(d);
                }
                self.broadcast(&effects);
            }
            Err(Failure::Store(e)) => {
                eprintln!(
                    "tilebag-server: game {}: cannot save the clock's event: {e}",
                    self.meta.id
                );
                self.retry_at = Some(Instant::now() + Duration::from_secs(1));
            }
            Err(Failure::Game(e)) => {
                eprintln!("tilebag-server: game {}: tick refused: {e}", self.meta.id);
                self.stalled = Some(d);
            }
        }
    }

    async fn act(&mut self, conn: u64, seat: usize, id: Option<Value>, message: ClientMessage) {
        // Time acts first: a flag that fell before this action ends the game before it.
        self.fire_due().await;
        let action = match self.to_action(message) {
            Ok(a) => a,
            Err((code, msg)) => {
                self.send_to(conn, error_text(id.as_ref(), code, &msg).into());
                return;
            }
        };
        let at = self.clock.now_ms().max(self.game.clocks().last_ms);
        let ev = Event {
            actor: Actor::Seat(seat),
            at_ms: at,
            action,
        };
        match self.commit(ev).await {
            Ok(effects) => {
                // The first accepted action starts a waiting game (at game time 0); the event
                // just stored makes the start durable.
                self.start_clock();
                self.send_to(conn, ack_text(id.as_ref(), &effects, self.seq).into());
                self.broadcast(&effects);
            }
            Err(Failure::Game(e)) => {
                let code = game_error_code(&e);
                self.send_to(conn, error_text(id.as_ref(), code, &e.to_string()).into());
            }
            Err(Failure::Store(e)) => {
                eprintln!("tilebag-server: game {}: cannot save: {e}", self.meta.id);
                let msg = "the move could not be saved, so it was not made; try again";
                self.send_to(
                    conn,
                    error_text(id.as_ref(), ErrorCode::Internal, msg).into(),
                );
            }
        }
    }

    /// The director's action (from the director's pages): stop or restart the clocks, or end
    /// the game. Committed and broadcast like a seat's.
    async fn director(&mut self, action: Action) -> Result<(), String> {
        self.fire_due().await;
        let at = self.clock.now_ms().max(self.game.clocks().last_ms);
        let ev = Event {
            actor: Actor::Director,
            at_ms: at,
            action,
        };
        match self.commit(ev).await {
            Ok(effects) => {
                self.start_clock();
                self.broadcast(&effects);
                Ok(())
            }
            Err(Failure::Game(e)) => Err(e.to_string()),
            Err(Failure::Store(e)) => {
                eprintln!("tilebag-server: game {}: cannot save: {e}", self.meta.id);
                Err("the change could not be saved, so it was not made; try again".into())
            }
        }
    }

    /// Read a client's move against the board (GCG notation).
    fn to_action(&self, message: ClientMessage) -> Result<Action, (ErrorCode, String)> {
        let g = &self.game;
        Ok(match message {
            ClientMessage::Play { position, word } => {
                if word.is_empty() || word.chars().count() > g.board().size() {
                    return Err((
                        ErrorCode::IllegalPlay,
                        format!("{word:?} is not a word that fits on the board"),
                    ));
                }
                let pos = Position::parse(&position, g.board().size())
                    .map_err(|e| (ErrorCode::BadPosition, e.to_string()))?;
                let placement =
                    Placement::from_gcg(g.board(), g.layout(), g.tile_set(), pos, &word)
                        .map_err(|e| (ErrorCode::IllegalPlay, e.to_string()))?;
                Action::Play { placement }
            }
            ClientMessage::Exchange { tiles } => {
                if tiles.chars().count() > g.ruleset().rack_size {
                    return Err((
                        ErrorCode::TilesNotOnRack,
                        format!("{tiles:?} is more tiles than a rack holds"),
                    ));
                }
                let tiles = g
                    .tile_set()
                    .parse_tiles(&tiles)
                    .map_err(|e| (ErrorCode::BadRequest, e.to_string()))?;
                Action::Exchange { tiles }
            }
            ClientMessage::Pass => Action::Pass,
            ClientMessage::Hold => Action::Hold,
            ClientMessage::Challenge { words } => {
                if words.len() > 32 || words.iter().any(|w| w.len() > 64) {
                    return Err((
                        ErrorCode::NotFormed,
                        "too many or too long words to challenge".into(),
                    ));
                }
                Action::Challenge { words }
            }
            ClientMessage::Accept => Action::Accept,
            ClientMessage::Resign => Action::Resign,
            ClientMessage::HonourResignation => Action::HonourResignation,
            ClientMessage::PlayOn => Action::PlayOn,
            ClientMessage::Leave => Action::Leave,
            ClientMessage::EndAfterSixZeros => Action::EndAfterSixZeros,
            ClientMessage::CallDirector => Action::Pause,
            ClientMessage::State => {
                return Err((ErrorCode::BadMessage, "state is not an action".into()))
            }
        })
    }

    /// Apply `ev` to a copy, make it durable, then adopt the copy. On any failure the game is
    /// unchanged.
    async fn commit(&mut self, ev: Event) -> Result<Vec<Effect>, Failure> {
        let mut next = self.game.clone();
        let effects = next.apply(&ev, &*self.judge).map_err(Failure::Game)?;
        let ended = next.is_over() && !self.game.is_over();
        let result =
            ended.then(|| serde_json::to_string(&result_view(&next)).expect("results serialise"));
        let stored = StoredEvent {
            seq: self.seq,
            event: ev,
            wall_ms: wall_ms(),
        };
        self.store
            .append_event(&self.meta.id, &stored, result.as_deref())
            .await
            .map_err(Failure::Store)?;
        self.game = next;
        self.seq += 1;
        *self.shared.summary.lock().expect("summary lock") = summary(&self.game, self.seq);
        if ended {
            self.shared.ended.store(true, Ordering::Release);
            if let Some(tx) = &self.on_end {
                let _ = tx.send((self.meta.id.clone(), self.game.scores()));
            }
        }
        Ok(effects)
    }

    fn state_for(&self, audience: Audience, effects: &[Effect]) -> Utf8Bytes {
        let view = view_for(&self.game, &self.meta, self.moment(), audience);
        state_text(effects, &view).into()
    }

    fn send_to(&mut self, conn: u64, text: Utf8Bytes) {
        let dead = match self.subs.get(&conn) {
            Some(sub) => sub.out.try_send(text).is_err(),
            None => false,
        };
        if dead {
            // A connection that cannot keep up is dropped; reconnecting restores everything.
            self.subs.remove(&conn);
        }
    }

    /// Send every subscriber the new view, built once per audience.
    fn broadcast(&mut self, effects: &[Effect]) {
        let mut cache: HashMap<Audience, Utf8Bytes> = HashMap::new();
        let mut dead = Vec::new();
        for (&conn, sub) in &self.subs {
            let text = match cache.get(&sub.audience) {
                Some(t) => t.clone(),
                None => {
                    let t = self.state_for(sub.audience, effects);
                    cache.insert(sub.audience, t.clone());
                    t
                }
            };
            if sub.out.try_send(text).is_err() {
                dead.push(conn);
            }
        }
        for conn in dead {
            self.subs.remove(&conn);
        }
    }

    /// The GCG record. While the game is on it names no rack and no exchanged tile (anyone may
    /// download it); once over it is the full score sheet.
    fn gcg(&self) -> String {
        let nick = |s: usize| {
            let n: String = self.meta.names[s]
                .chars()
                .map(|c| {
                    if c.is_alphanumeric() || c == '_' || c == '-' || c == '.' {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            if n.is_empty() {
                format!("player{}", s + 1)
            } else {
                n
            }
        };
        let n0 = nick(0);
        let mut n1 = nick(1);
        if n1 == n0 {
            n1.push_str("_2");
        }
        let players = [
            GcgPlayer {
                nick: n0,
                name: self.meta.names[0].clone(),
            },
            GcgPlayer {
                nick: n1,
                name: self.meta.names[1].clone(),
            },
        ];
        let mut record = game_to_gcg(&self.game, players);
        record.id = Some(format!("tilebag {}", self.meta.id));
        // The lexicon the game was judged with, not the rulebook's word source.
        record.lexicon = Some(self.meta.lexicon.clone());
        if !self.game.is_over() {
            record.last_racks = [None, None];
            for e in &mut record.events {
                e.rack = None;
                if let GcgEventKind::Exchange(ExchangedTiles::Known(t)) = &e.kind {
                    e.kind = GcgEventKind::Exchange(ExchangedTiles::Count(t.chars().count() as u8));
                }
            }
        }
        write_gcg(&record)
    }
}

fn reply_conn_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(1);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

pub(crate) fn game_error_code(e: &GameError) -> ErrorCode {
    match e {
        GameError::GameOver => ErrorCode::GameOver,
        GameError::OutOfTurn(_) => ErrorCode::OutOfTurn,
        GameError::NoSuchSeat(_) => ErrorCode::NotASeat,
        GameError::NotAllowed(..) | GameError::SixZeroNotReached(_) | GameError::Paused => {
            ErrorCode::NotAllowed
        }
        GameError::TilesNotOnRack(_) => ErrorCode::TilesNotOnRack,
        GameError::ExchangeBagTooSmall { .. } => ErrorCode::BagTooSmall,
        GameError::EmptyExchange => ErrorCode::BadRequest,
        GameError::Play(_) => ErrorCode::IllegalPlay,
        GameError::VoidRefused => ErrorCode::UnacceptablePlay,
        GameError::NotFormed(_) => ErrorCode::NotFormed,
        GameError::TimeWentBackwards { .. } => ErrorCode::Internal,
    }
}
