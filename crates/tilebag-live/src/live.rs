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
//!
//! While the database is down (see `health.rs`) nothing can be stored, so nothing is accepted:
//! every action is refused as `unavailable`, and each started game's clock is held at the last
//! game time known to be stored (its last event or clock checkpoint), exactly where a restart
//! would resume it: the outage is treated as the server being down (WESPA 4.1(f)), so nobody is
//! charged for it or flagged during it. The views say `"database_down": true`. When the database
//! is back the clocks go on from there. A write whose outcome the outage left unknown (the
//! connection was lost while it was out) is settled first, by reading the event back: if it was
//! stored it is made (and broadcast) then, otherwise it is forgotten; no event is lost or doubled.

use crate::clock::GameClock;
use crate::cluster::{Cluster, ORPHAN_GRACE, RENEW_EVERY};
use crate::config::{Judge, Limits, LiveConfig};
use crate::game_handle::{Command, GameHandle, HubError, Refused, Shared, Snapshot, Summary};
use crate::health::{DbState, Monitored};
use crate::metrics::Metrics;
use crate::protocol::{ack_text, error_text, ClientMessage, ErrorCode};
use crate::quota::{WaitingGames, WaitingRefusal, WaitingSlot};
use crate::server_error::ServerError;
use crate::view::{
    observer_view, result_view, Audience, Moment, ResultView, SheetFeed, SheetMark, StateTexts,
    ViewText,
};
use axum::extract::ws::Utf8Bytes;
use serde::Serialize;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};
use tilebag_core::game::Effect;
use tilebag_core::gcg::{write_gcg, ExchangedTiles, GcgEventKind, GcgPlayer};
use tilebag_core::replay::game_to_gcg;
use tilebag_core::{Action, Actor, Event, Game, GameError, Placement, Position, Ruleset};
use tilebag_store::{
    wall_ms, BotSeat, Checkpoint, DamagedGame, GameRecord, GameStatus, Store, StoreError,
    StoredEvent, NOT_STARTED,
};
use tokio::sync::{mpsc, oneshot, watch};

/// How long a finished game with no connection stays in memory.
const IDLE_FINISHED: Duration = Duration::from_secs(600);

pub use crate::meta::GameMeta;

/// A game that ended: its id, final scores in seat order and why it ended (sent to whoever
/// reports results).
pub type Ended = (String, Final);

/// A game's final scores, in seat order, and why it ended (`None` if the stored record does not
/// say).
#[derive(Debug, Clone, Copy)]
pub struct Final {
    pub scores: [i32; 2],
    pub reason: Option<tilebag_core::game::EndReason>,
}

/// What creating a game needs (already validated by the HTTP layer, checked again here).
pub struct NewGame {
    pub preset: Option<String>,
    /// The organiser's choices (`end-rack=double`, ...), validated against the preset's book.
    pub rules: Vec<String>,
    pub lexicon: Option<String>,
    pub initial_ms: Option<i64>,
    pub names: [String; 2],
    pub seed: Option<u64>,
    /// Created with `POST /api/games` (counted under the cap on waiting games, and expires if
    /// nobody starts it); the director's games are not.
    pub public: bool,
    /// The address that asked for it (a public game counts under its address's cap).
    pub creator: Option<std::net::IpAddr>,
    /// The computer plays this seat at this level.
    pub bot: Option<(usize, tilebag_engine::Level)>,
}

/// Which waiting games are the director's (they never expire).
type Linked = Arc<dyn Fn(&str) -> bool + Send + Sync>;

/// Every game in memory, and what they share.
pub struct Hub {
    /// The store, watched: writes are refused at once while the database is down.
    store: Arc<Monitored>,
    lexicons: HashMap<String, Judge>,
    pub default_lexicon: String,
    pub default_preset: String,
    time_scale: f64,
    pub limits: Limits,
    pub allow_seeds: bool,
    pub quotas: crate::quota::Quotas,
    /// Public games that have not started (under `quotas.max_waiting_games` and
    /// `max_waiting_per_address`).
    waiting: Arc<WaitingGames>,
    keep_waiting: std::sync::OnceLock<Linked>,
    /// Unfinished games that could not be restored, by id.
    damaged: Mutex<std::collections::BTreeMap<String, DamagedGame>>,
    games: RwLock<HashMap<String, GameHandle>>,
    loading: tokio::sync::Mutex<()>,
    pub shutdown: watch::Receiver<bool>,
    /// Where games send their id and final scores when they end (the director's reporter).
    /// Who is told of games that end (the online results' reporter, the online ratings...).
    on_end: Mutex<Vec<mpsc::UnboundedSender<Ended>>>,
    /// The lexicons the computer plays (and analyses) with.
    pub engines: Arc<crate::bot::Engines>,
    /// Analyses of ended games (`GET /api/games/{id}/analysis`).
    pub analyses: crate::analysis_cache::Cache,
    /// Counts changes to any game (created, joined, a move, a call, an end, an expiry): the
    /// lobby's and the director's pages are told through it (`push.rs`).
    changes: Arc<watch::Sender<u64>>,
    /// What an operator graphs (`GET /metrics`).
    pub metrics: Arc<Metrics>,
    /// Several processes as one service (`cluster.rs`); unset for one process alone.
    cluster: std::sync::OnceLock<Arc<Cluster>>,
    /// Games other processes own, driven from here over NATS (`remote.rs`), each with the
    /// sender that ends its task here.
    remote: Mutex<HashMap<String, StandIn>>,
    /// The other processes' games as the lists show them (`summaries.rs`).
    elsewhere: crate::summaries::Elsewhere,
    /// With several processes: every change to any game of any process (this process's own
    /// `changes` and the others' summaries), which the live pages watch.
    all_changes: Arc<watch::Sender<u64>>,
}

/// A game another process runs, driven from here: its handle, the sender whose dropping ends
/// it, and the generation of the owner's lease it was made under.
struct StandIn {
    handle: GameHandle,
    _gone: oneshot::Sender<()>,
    generation: u64,
}

impl Hub {
    pub fn new(
        store: Arc<Monitored>,
        config: &LiveConfig,
        shutdown: watch::Receiver<bool>,
    ) -> Arc<Hub> {
        Arc::new(Hub {
            store,
            lexicons: config.lexicons.clone(),
            default_lexicon: config.default_lexicon.clone(),
            default_preset: config.default_preset.clone(),
            time_scale: config.time_scale,
            limits: config.limits,
            allow_seeds: config.allow_seeds,
            quotas: config.quotas,
            waiting: WaitingGames::new(
                config.quotas.max_waiting_games,
                config.quotas.max_waiting_per_address,
            ),
            keep_waiting: std::sync::OnceLock::new(),
            damaged: Mutex::new(std::collections::BTreeMap::new()),
            games: RwLock::new(HashMap::new()),
            loading: tokio::sync::Mutex::new(()),
            shutdown,
            on_end: Mutex::new(Vec::new()),
            engines: Arc::new(crate::bot::Engines::new(
                config.word_sources.clone(),
                config.leaves.clone(),
            )),
            analyses: crate::analysis_cache::Cache::default(),
            changes: Arc::new(watch::channel(0).0),
            metrics: Arc::default(),
            cluster: std::sync::OnceLock::new(),
            remote: Mutex::new(HashMap::new()),
            elsewhere: crate::summaries::Elsewhere::default(),
            all_changes: Arc::new(watch::channel(0).0),
        })
    }

    /// Told of every change to any game (a counter; only its changing matters): with several
    /// processes, of the games every process runs.
    pub fn changes(&self) -> watch::Receiver<u64> {
        if self.cluster.get().is_some() {
            return self.all_changes.subscribe();
        }
        self.changes.subscribe()
    }

    fn changed(&self) {
        self.changes.send_modify(|n| *n = n.wrapping_add(1));
    }

    /// The database's state as last found, and a way to check it now.
    pub fn database(&self) -> &Arc<Monitored> {
        &self.store
    }

    /// Tells which games are the director's, which wait for their players without expiring (set
    /// once, before games are restored).
    pub fn keep_waiting_if(&self, linked: Linked) {
        let _ = self.keep_waiting.set(linked);
    }

    /// Sends every game that ends from now on to `tx`, as well as to every listener added
    /// before (add them all before games are restored: a game tells the listeners there were
    /// when it was loaded or created).
    pub fn report_ends_to(&self, tx: mpsc::UnboundedSender<Ended>) {
        self.on_end.lock().expect("listeners lock").push(tx);
    }

    /// The final scores of a stored game that has ended, and why it ended; `None` if it is live
    /// or unknown.
    pub async fn ended_scores(&self, id: &str) -> Option<Final> {
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
        let reason = v
            .get("reason")
            .and_then(|r| serde_json::from_value(r.clone()).ok());
        Some(Final {
            scores: [score(0)?, score(1)?],
            reason,
        })
    }

    pub fn lexicon_names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.lexicons.keys().cloned().collect();
        v.sort();
        v
    }

    /// Load every unfinished game and replay it (at startup). A game that cannot be read or
    /// replayed is kept out of play with its reason ([`Hub::damaged`]); the others run. Nothing
    /// is deleted. Returns how many were restored.
    pub async fn restore_unfinished(&self) -> Result<usize, ServerError> {
        let games = self.store.load_unfinished().await?;
        let mut n = 0;
        for one in games {
            let (rec, events) = match one {
                Ok(g) => g,
                Err(d) => {
                    self.keep_out(d);
                    continue;
                }
            };
            let id = rec.id.clone();
            match self.spawn_restored(rec, events, Vec::new()) {
                Ok(handle) => {
                    self.games.write().expect("games lock").insert(id, handle);
                    n += 1;
                }
                Err(reason) => self.keep_out(DamagedGame { id, reason }),
            }
        }
        Ok(n)
    }

    fn keep_out(&self, d: DamagedGame) {
        tracing::error!(
            game = %d.id,
            reason = %d.reason,
            "game kept out of play (nothing is deleted)"
        );
        self.damaged
            .lock()
            .expect("damaged lock")
            .insert(d.id.clone(), d);
    }

    /// The games kept out of play since start-up, with their reasons.
    pub fn damaged(&self) -> Vec<DamagedGame> {
        self.damaged
            .lock()
            .expect("damaged lock")
            .values()
            .cloned()
            .collect()
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
        notes: Vec<String>,
    ) -> Result<GameHandle, String> {
        let judge = self.judge(&rec.lexicon)?;
        if (events.len() as u64) < rec.events_seen {
            // Replaying what is left would bring the game back earlier than it was, silently.
            return Err(format!(
                "its log holds {} events, but {} had been played when its time was last saved: \
                 events are missing",
                events.len(),
                rec.events_seen
            ));
        }
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
        let meta = GameMeta::of_record(rec, notes);
        let clock = if started {
            GameClock::resume(base, self.time_scale)
        } else {
            GameClock::waiting(self.time_scale)
        };
        let public = !started
            && !self
                .keep_waiting
                .get()
                .is_some_and(|linked| linked(&meta.id));
        // Whether a seat was opened before the restart is not known: the longer expiry holds.
        let waiting = public.then(|| {
            let left = crate::quota::left_before_expiry(
                meta.created_at_ms,
                wall_ms(),
                self.quotas.unjoined_expiry,
            );
            Waiting::new(self.waiting.restored(), left, left)
        });
        Ok(self.spawn(meta, game, events.len() as u64, judge, clock, base, waiting))
    }

    /// Start a game's task; `waiting`: a public game waiting for its players, which expires
    /// unless it starts.
    #[allow(clippy::too_many_arguments)]
    fn spawn(
        &self,
        meta: GameMeta,
        game: Game,
        seq: u64,
        judge: Judge,
        clock: GameClock,
        durable_ms: i64,
        waiting: Option<Waiting>,
    ) -> GameHandle {
        let (tx, rx) = mpsc::channel(256);
        let shared = Arc::new(Shared {
            expired: AtomicBool::new(false),
            ended: AtomicBool::new(game.is_over()),
            summary: Mutex::new(summary(&game, seq)),
            clock: Mutex::new(clock),
            durable_ms: AtomicI64::new(durable_ms),
            opened: [AtomicBool::new(false), AtomicBool::new(false)],
            evicted: watch::channel(false).0,
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
            watchers: watch::channel(Utf8Bytes::from_static("")).0,
            watchers_next: None,
            max_watchers: self.limits.max_watchers_per_game,
            max_per_seat: self.limits.max_connections_per_seat,
            seen: [false; 2],
            retry_at: None,
            stalled: None,
            on_end: self.on_end.lock().expect("listeners lock").clone(),
            db: self.store.subscribe(),
            db_down: false,
            uncertain: None,
            waiting,
            linked: self.keep_waiting.get().cloned(),
            changes: self.changes.clone(),
            metrics: self.metrics.clone(),
            sheet: ViewText::default(),
        };
        self.changed();
        let ruleset = task.game.ruleset().clone();
        let over = task.game.is_over();
        tokio::spawn(task.run(rx, self.shutdown.clone()));
        let evicted = shared.evicted.subscribe();
        let handle = GameHandle { meta, tx, shared };
        if let Some(c) = self.cluster.get() {
            // The other processes' players and watchers reach the game through its bridge.
            crate::remote::spawn_bridge(c.nats.clone(), handle.clone(), evicted);
        }
        if let (Some(bot), false) = (&handle.meta.bot, over) {
            // The computer's seat actor joins the game like a player (see `bot.rs`).
            match crate::bot::parse_level(&bot.level) {
                Ok(level) => crate::bot::BotActor {
                    handle: handle.clone(),
                    bot: bot.clone(),
                    level,
                    ruleset,
                    engines: self.engines.clone(),
                    lexicon: handle.meta.lexicon.clone(),
                    shutdown: self.shutdown.clone(),
                }
                .spawn(),
                Err(e) => tracing::error!(
                    game = %handle.meta.id,
                    error = %e,
                    "the computer's seat cannot be played"
                ),
            }
        }
        handle
    }

    /// The game `id`, loading it from the store if it is not in memory (a finished game).
    pub async fn get(&self, id: &str) -> Result<GameHandle, HubError> {
        if let Some(h) = self.games.read().expect("games lock").get(id) {
            if !h.tx.is_closed() {
                return Ok(h.clone());
            }
        }
        if !crate::ids::plausible_id(id) {
            return Err(HubError::UnknownGame(id.to_string()));
        }
        if self.damaged.lock().expect("damaged lock").contains_key(id) {
            return Err(HubError::Damaged(id.to_string()));
        }
        if let Some(h) = self.remote_game(id) {
            return Ok(h);
        }
        let _guard = self.loading.lock().await;
        if let Some(h) = self.games.read().expect("games lock").get(id) {
            if !h.tx.is_closed() {
                return Ok(h.clone());
            }
        }
        if let Some(h) = self.remote_game(id) {
            return Ok(h);
        }
        let loaded = match self.store.load_game(id).await {
            Ok(l) => l,
            // A row that cannot be read is damage: kept out and reported, never served.
            Err(e @ StoreError::Corrupt { .. }) => {
                let d = DamagedGame {
                    id: id.to_string(),
                    reason: e.to_string(),
                };
                tracing::error!(
                    game = %d.id,
                    reason = %d.reason,
                    "game kept out of play (nothing deleted; listed on /td)"
                );
                self.keep_out(d);
                return Err(HubError::Damaged(id.to_string()));
            }
            Err(e) => return Err(e.into()),
        };
        let Some((rec, events)) = loaded else {
            return Err(HubError::UnknownGame(id.to_string()));
        };
        if rec.status == GameStatus::Expired {
            return Err(HubError::Expired(
                id.to_string(),
                self.quotas.unjoined_expiry.as_secs() / 60,
            ));
        }
        if let (Some(c), GameStatus::Live) = (self.cluster.get(), rec.status) {
            // A live game is run by the holder of its lease: this process if it can take it,
            // else the process that holds it, reached over NATS.
            return match self.take_game(c, id).await? {
                Some(h) => Ok(h),
                None => self.drive_remote(c, rec).await,
            };
        }
        // A finished game's record keeps what its takeovers noted (several processes).
        let notes = match self.store.leases() {
            Some(l) => l.notes(id).await.unwrap_or_default(),
            None => Vec::new(),
        };
        let handle = self
            .spawn_restored(rec, events, notes)
            .map_err(HubError::Restore)?;
        self.games
            .write()
            .expect("games lock")
            .insert(id.to_string(), handle.clone());
        Ok(handle)
    }

    pub async fn create(&self, req: NewGame) -> Result<GameHandle, HubError> {
        if req.seed.is_some() && !self.allow_seeds {
            return Err(HubError::SeedNotAllowed);
        }
        // A public game takes its place under the caps first (given back if creating fails).
        let slot = match (req.public, req.creator) {
            (false, _) => None,
            (true, Some(ip)) => Some(self.waiting.admit(ip).map_err(|r| match r {
                WaitingRefusal::Full(n) => HubError::TooManyWaiting(n),
                WaitingRefusal::ThisAddress(n) => HubError::TooManyWaitingHere(n),
            })?),
            (true, None) => Some(self.waiting.restored()),
        };
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
        let bot = match req.bot {
            None => None,
            Some((seat, level)) => {
                if seat > 1 {
                    return Err(HubError::BadRequest(format!(
                        "the computer's seat is 0 or 1, not {seat}"
                    )));
                }
                crate::bot::check_ruleset(&ruleset).map_err(HubError::BadRequest)?;
                // Build the lexicon's GADDAG now (once per lexicon), so the computer is ready.
                self.engines
                    .prepare(&lexicon)
                    .await
                    .map_err(HubError::BadRequest)?;
                Some(BotSeat {
                    seat,
                    level: level.name().to_string(),
                })
            }
        };
        let rec = GameRecord {
            id: crate::ids::game_id(),
            tokens: [crate::ids::token(), crate::ids::token()],
            names: req.names,
            preset,
            ruleset: ruleset.clone(),
            seed: req.seed.unwrap_or_else(crate::ids::seed),
            seeded: req.seed.is_some(),
            lexicon,
            created_at_ms: wall_ms(),
            status: GameStatus::Live,
            result_json: None,
            // The clock waits for the players.
            checkpoint_ms: NOT_STARTED,
            events_seen: 0,
            bot,
        };
        self.store.create_game(&rec).await?;
        if let Some(c) = self.cluster.get() {
            // The creator runs the game it made: its lease is taken before anyone may see it.
            let leases = self.store.leases().expect("a cluster's store keeps leases");
            match leases.claim(&rec.id, &c.process, c.ttl_ms()).await? {
                Some(generation) => c.fences.hold(&rec.id, generation),
                None => {
                    return Err(HubError::Store(StoreError::Other(format!(
                        "game {} was taken by another process as it was created",
                        rec.id
                    ))))
                }
            }
        }
        self.metrics.games_created.fetch_add(1, Ordering::Relaxed);
        let game = Game::new(ruleset, rec.seed);
        let id = rec.id.clone();
        let meta = GameMeta::of_record(rec, Vec::new());
        // A game whose page nobody opens expires sooner than one a player is waiting in.
        let waiting = slot.map(|slot| {
            let q = &self.quotas;
            Waiting::new(
                slot,
                q.unopened_expiry.min(q.unjoined_expiry),
                q.unjoined_expiry,
            )
        });
        let handle = self.spawn(
            meta,
            game,
            0,
            judge,
            GameClock::waiting(self.time_scale),
            0,
            waiting,
        );
        self.games
            .write()
            .expect("games lock")
            .insert(id, handle.clone());
        self.bridge_ready().await;
        Ok(handle)
    }

    /// With several processes: waits until NATS has the new game's bridge (a round trip), so a
    /// player sent to another process at once finds the game served.
    async fn bridge_ready(&self) {
        if let Some(c) = self.cluster.get() {
            let _ = c.nats.flush().await;
        }
    }

    /// Joins the other processes of the service (set once, before anything else: games are
    /// then taken by lease instead of all restored at start), and starts the loop that renews
    /// this process's leases and takes over the games nobody runs.
    pub fn join_cluster(self: &Arc<Self>, cluster: Arc<Cluster>) -> tokio::task::JoinHandle<()> {
        let lost = cluster.take_lost();
        let _ = self.cluster.set(cluster.clone());
        tokio::spawn(self.clone().share_summaries(cluster));
        let hub = self.clone();
        tokio::spawn(hub.cluster_loop(lost))
    }

    /// Sends the other processes the summaries of this process's games that changed (a few
    /// times a second at most), keeps theirs, and passes every change on to `all_changes`.
    async fn share_summaries(self: Arc<Self>, c: Arc<Cluster>) {
        use crate::summaries::{Line, Note, PER_MESSAGE, SUBJECT};
        let Ok(mut sub) = c.nats.subscribe(SUBJECT) else {
            tracing::error!("cannot hear the other processes' games (NATS)");
            return;
        };
        let mut local = self.changes.subscribe();
        let mut stop = self.shutdown.clone();
        let mut tick = tokio::time::interval(Duration::from_millis(250));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut sent: HashMap<String, (u64, bool, bool)> = HashMap::new();
        let mut dirty = false;
        let bump = |hub: &Hub| hub.all_changes.send_modify(|n| *n = n.wrapping_add(1));
        loop {
            tokio::select! {
                r = local.changed() => {
                    if r.is_err() {
                        return;
                    }
                    bump(&self);
                    dirty = true;
                }
                m = sub.next() => match m {
                    Some(m) => {
                        if let Ok(note) = serde_json::from_slice::<Note>(&m.payload) {
                            self.update_stand_ins(&c.process, &note);
                            if self.elsewhere.take(&c.process, note) {
                                bump(&self);
                            }
                        }
                    }
                    None => return,
                },
                _ = tick.tick(), if dirty => {
                    dirty = false;
                    let lines: Vec<Line> = {
                        let games = self.games.read().expect("games lock");
                        sent.retain(|id, _| games.contains_key(id));
                        games
                            .iter()
                            .filter_map(|(id, h)| {
                                let summary = h.summary();
                                let key = (summary.seq, h.clock().is_started(), h.is_ended());
                                if sent.get(id) == Some(&key) {
                                    return None;
                                }
                                sent.insert(id.clone(), key);
                                Some(Line { id: id.clone(), summary, started: key.1, ended: key.2 })
                            })
                            .collect()
                    };
                    for chunk in lines.chunks(PER_MESSAGE) {
                        let note = Note { from: c.process.clone(), games: chunk.to_vec() };
                        let body = serde_json::to_vec(&note).expect("summaries serialise");
                        let _ = c.nats.publish(SUBJECT, body);
                    }
                }
                _ = crate::shutdown::stopped(&mut stop) => return,
            }
        }
    }

    /// This process's part in a service of several, if it is one.
    pub fn cluster(&self) -> Option<&Arc<Cluster>> {
        self.cluster.get()
    }

    /// How many games other processes run this process stands in for.
    pub fn stand_ins(&self) -> usize {
        self.remote.lock().expect("remote lock").len()
    }

    fn remote_game(&self, id: &str) -> Option<GameHandle> {
        let remote = self.remote.lock().expect("remote lock");
        remote
            .get(id)
            .filter(|s| !s.handle.tx.is_closed())
            .map(|s| s.handle.clone())
    }

    /// Takes live game `id`'s lease and runs the game here, if nobody else holds the lease;
    /// `None` if another process does. The log is read after the lease is taken, so it holds
    /// every event the last owner stored. (The caller holds `loading`.)
    async fn take_game(&self, c: &Arc<Cluster>, id: &str) -> Result<Option<GameHandle>, HubError> {
        if let Some(h) = self.games.read().expect("games lock").get(id) {
            if !h.tx.is_closed() {
                return Ok(Some(h.clone()));
            }
        }
        let leases = self.store.leases().expect("a cluster's store keeps leases");
        // The lease as the last owner left it (for the record, should this be a takeover).
        let before = leases.lease(id).await.ok().flatten();
        let Some(generation) = leases.claim(id, &c.process, c.ttl_ms()).await? else {
            return Ok(None);
        };
        c.fences.hold(id, generation);
        let loaded = self.store.load_game(id).await;
        let (rec, events) = match loaded {
            Ok(Some(l)) => l,
            Ok(None) => {
                c.fences.forget(id);
                return Err(HubError::UnknownGame(id.to_string()));
            }
            Err(e) => {
                c.fences.forget(id);
                return Err(e.into());
            }
        };
        // Only a takeover writes notes, so a game's first owner has none to read.
        let mut notes = if generation > 1 {
            leases.notes(id).await.unwrap_or_default()
        } else {
            Vec::new()
        };
        if let Some(last) = before.filter(|b| generation > 1 && b.generation + 1 == generation) {
            c.takeovers.fetch_add(1, Ordering::Relaxed);
            tracing::warn!(game = %id, generation, from = %last.owner, "took over a game whose owner stopped renewing");
            // The game's record says when it changed hands, and that the gap was charged to
            // nobody: the clocks resume where they were last saved (WESPA 4.1(f)).
            let resumed_ms = events
                .last()
                .map_or(0, |e| e.event.at_ms)
                .max(rec.checkpoint_ms);
            let text = takeover_note(&last.owner, &c.process, -last.expires_in_ms, resumed_ms);
            if let Err(e) = leases.add_note(id, wall_ms(), &text).await {
                tracing::warn!(game = %id, error = %e, "cannot note the takeover in the record");
            }
            notes.push(text);
        }
        match self.spawn_restored(rec, events, notes) {
            Ok(h) => {
                self.games
                    .write()
                    .expect("games lock")
                    .insert(id.to_string(), h.clone());
                // Any stand-in for the last owner's game ends here.
                self.remote.lock().expect("remote lock").remove(id);
                self.elsewhere.forget(id);
                self.bridge_ready().await;
                Ok(Some(h))
            }
            Err(reason) => {
                c.fences.forget(id);
                self.keep_out(DamagedGame {
                    id: id.to_string(),
                    reason: reason.clone(),
                });
                Err(HubError::Restore(reason))
            }
        }
    }

    /// A stand-in here for a live game another process runs.
    async fn drive_remote(
        &self,
        c: &Arc<Cluster>,
        rec: GameRecord,
    ) -> Result<GameHandle, HubError> {
        let judge = self.judge(&rec.lexicon).map_err(HubError::Restore)?;
        let leases = self.store.leases().expect("a cluster's store keeps leases");
        let lease = leases.lease(&rec.id).await?;
        let Some(generation) = lease.filter(|l| l.expires_in_ms > 0).map(|l| l.generation) else {
            return Err(HubError::Store(StoreError::Unavailable(format!(
                "game {} is between two processes (its owner stopped); try again in a few seconds",
                rec.id
            ))));
        };
        let meta = GameMeta::of_record(rec, Vec::new());
        let (gone_tx, gone) = oneshot::channel();
        let id = meta.id.clone();
        let handle = crate::remote::RemoteGame::spawn(meta, judge, &c.here(), gone);
        if let Some(line) = self.elsewhere.get(&id) {
            *handle.shared.summary.lock().expect("summary lock") = line.summary;
            handle.shared.ended.store(line.ended, Ordering::Release);
        }
        self.remote.lock().expect("remote lock").insert(
            id,
            StandIn {
                handle: handle.clone(),
                _gone: gone_tx,
                generation,
            },
        );
        Ok(handle)
    }

    /// The stand-ins of games another process runs show what it says of them (their summary,
    /// whether they ended), as a game's own handle does.
    fn update_stand_ins(&self, me: &str, note: &crate::summaries::Note) {
        if note.from == me {
            return;
        }
        let remote = self.remote.lock().expect("remote lock");
        for line in &note.games {
            if let Some(s) = remote.get(&line.id) {
                let shared = &s.handle.shared;
                *shared.summary.lock().expect("summary lock") = line.summary.clone();
                shared.ended.store(line.ended, Ordering::Release);
            }
        }
    }

    /// Stops running game `id` here (its lease is lost): its task ends and its sockets close.
    fn evict(&self, id: &str) {
        if let Some(c) = self.cluster.get() {
            c.fences.forget(id);
        }
        if let Some(h) = self.games.write().expect("games lock").remove(id) {
            tracing::warn!(game = %id, "this process no longer runs the game (lease lost)");
            h.shared.evicted.send_replace(true);
        }
    }

    /// Every [`RENEW_EVERY`]: beat, renew the leases held (stopping the games whose lease was
    /// lost, or every game if renewals have failed for a lease's length), give up the leases of
    /// games that ended, end the stand-ins of games whose owner changed, and take the games
    /// nobody runs.
    async fn cluster_loop(self: Arc<Self>, mut lost: Option<mpsc::UnboundedReceiver<String>>) {
        let Some(c) = self.cluster.get().cloned() else {
            return;
        };
        let Some(leases) = self.store.leases() else {
            return;
        };
        let mut stop = self.shutdown.clone();
        let mut tick = tokio::time::interval(RENEW_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                Some(id) = async { match lost.as_mut() { Some(l) => l.recv().await, None => None } } => {
                    self.evict(&id);
                    continue;
                }
                _ = crate::shutdown::stopped(&mut stop) => break,
            }
            let sent = Instant::now();
            if let Err(e) = leases
                .heartbeat(&c.process, &c.address, c.started_at_ms)
                .await
            {
                tracing::warn!(error = %e, "cannot record this process's heartbeat");
            }
            let held = c.fences.held();
            match leases.renew(&c.process, &held, c.ttl_ms()).await {
                Ok(kept) => {
                    c.renewed(sent);
                    let kept: std::collections::HashSet<String> = kept.into_iter().collect();
                    for (id, _) in held.iter().filter(|(id, _)| !kept.contains(id)) {
                        self.evict(id);
                    }
                }
                Err(e) => {
                    if c.leases_lapsed() && c.fences.count() > 0 {
                        tracing::error!(
                            error = %e,
                            "the leases could not be renewed for as long as they last: this                              process stops running its games"
                        );
                        for (id, _) in held {
                            self.evict(&id);
                        }
                    }
                    continue;
                }
            }
            self.give_up_ended(&c).await;
            self.elsewhere.forget_ended();
            self.end_stale_stand_ins().await;
            if self.store.state().is_down() {
                continue;
            }
            let orphans = leases
                .orphans(ORPHAN_GRACE.as_millis() as i64, 200)
                .await
                .unwrap_or_default();
            for id in orphans {
                let _guard = self.loading.lock().await;
                if let Err(e) = self.take_game(&c, &id).await {
                    tracing::error!(game = %id, error = %e, "cannot take over the game");
                }
            }
        }
        // Stopping: give every lease up, so that the others take the games at once.
        for (id, generation) in c.fences.held() {
            let fence = tilebag_store::Fence {
                owner: c.process.clone(),
                generation,
            };
            let _ = leases.release(&id, &fence).await;
        }
    }

    /// The games that ended need no owner: their leases are given up.
    async fn give_up_ended(&self, c: &Arc<Cluster>) {
        let Some(leases) = self.store.leases() else {
            return;
        };
        let ended: Vec<String> = self
            .games
            .read()
            .expect("games lock")
            .iter()
            .filter(|(_, h)| h.is_ended() || h.is_expired())
            .map(|(id, _)| id.clone())
            .collect();
        for id in ended {
            if let Some(generation) = c.fences.forget(&id) {
                let fence = tilebag_store::Fence {
                    owner: c.process.clone(),
                    generation,
                };
                let _ = leases.release(&id, &fence).await;
            }
        }
    }

    /// A stand-in whose game is now run by another process than when it was made, or by none
    /// (its owner died), ends: its sockets close and their clients reconnect to the new owner
    /// (the sweep takes a game nobody runs).
    async fn end_stale_stand_ins(&self) {
        let ids: Vec<String> = self
            .remote
            .lock()
            .expect("remote lock")
            .keys()
            .cloned()
            .collect();
        if ids.is_empty() {
            return;
        }
        let Some(leases) = self.store.leases() else {
            return;
        };
        let Ok(all) = leases.leases().await else {
            return;
        };
        let live: HashMap<&str, &tilebag_store::LeaseRow> =
            all.iter().map(|l| (l.game_id.as_str(), l)).collect();
        let mut remote = self.remote.lock().expect("remote lock");
        remote.retain(|id, s| {
            !s.handle.tx.is_closed()
                && live
                    .get(id.as_str())
                    .is_some_and(|l| l.expires_in_ms > 0 && l.generation == s.generation)
        });
    }

    /// Games held in memory now (live, and ended ones not yet let go).
    pub fn games_in_memory(&self) -> usize {
        self.games.read().expect("games lock").len()
    }

    /// Stored games, newest first, with the live ones' current scores.
    pub async fn list(&self, limit: usize) -> Result<Vec<ListEntry>, HubError> {
        let rows = self.store.list_games(limit).await?;
        let games = self.games.read().expect("games lock");
        Ok(rows
            .into_iter()
            .map(|r| {
                let live = games
                    .get(&r.id)
                    .map(|h| (h.summary(), h.is_ended(), h.clock().is_started()))
                    .or_else(|| {
                        // A game another process runs, as it last said.
                        let l = self.elsewhere.get(&r.id)?;
                        Some((l.summary, l.ended, l.started))
                    });
                let started = live.as_ref().map_or(r.checkpoint_ms > NOT_STARTED, |l| l.2);
                let event = self.keep_waiting.get().is_some_and(|linked| linked(&r.id));
                let live = live.map(|(s, e, _)| (s, e));
                let (summary, ended) = match live {
                    Some((s, ended)) => (Some(s), ended),
                    None => (None, r.status == GameStatus::Ended),
                };
                let expired = r.status == GameStatus::Expired;
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
                    seeded: r.seeded,
                    status: if expired {
                        "expired"
                    } else if ended {
                        "ended"
                    } else {
                        "live"
                    },
                    scores: summary.as_ref().map(|s| s.scores),
                    to_move: summary.as_ref().filter(|_| !ended).map(|s| s.to_move),
                    result,
                    rules: r.ruleset.overrides.clone(),
                    started,
                    event,
                    paused: summary
                        .as_ref()
                        .filter(|_| !ended)
                        .and_then(|s| s.paused)
                        .map(|by| {
                            if by.is_some() {
                                "director-called"
                            } else {
                                "paused"
                            }
                        }),
                    bot: r.bot,
                }
            })
            .collect())
    }

    /// The game time of every live game that has started (a waiting game has no time to save,
    /// and a checkpoint would mark it started).
    /// Each with the count of its events stored so far, so that a log found shorter at the next
    /// start is known to have lost some.
    fn live_clocks(&self) -> Vec<Checkpoint> {
        self.games
            .read()
            .expect("games lock")
            .iter()
            .filter(|(_, h)| !h.is_ended())
            .filter_map(|(id, h)| {
                let clock = h.clock();
                clock.is_started().then(|| Checkpoint {
                    id: id.clone(),
                    game_ms: clock.now_ms(),
                    events: h.summary().seq,
                })
            })
            .collect()
    }

    /// Note that these game times are stored (where each clock would be held).
    fn stored_clocks(&self, clocks: &[Checkpoint]) {
        let games = self.games.read().expect("games lock");
        for cp in clocks {
            if let Some(h) = games.get(&cp.id) {
                h.shared.durable_ms.fetch_max(cp.game_ms, Ordering::AcqRel);
            }
        }
    }

    /// Write every live game's time every `every`, so a restart loses at most that much.
    pub fn spawn_checkpoints(self: Arc<Self>, every: Duration) -> tokio::task::JoinHandle<()> {
        let mut stop = self.shutdown.clone();
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(every);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = tick.tick() => {}
                    _ = crate::shutdown::stopped(&mut stop) => return,
                }
                // Forget the tasks of finished games that left memory.
                self.games
                    .write()
                    .expect("games lock")
                    .retain(|_, h| !h.tx.is_closed());
                // While the database is down the clocks are held (nothing to save) and the
                // probe looks for its return.
                if self.store.state().is_down() {
                    continue;
                }
                let clocks = self.live_clocks();
                if clocks.is_empty() {
                    continue;
                }
                match self.store.checkpoint(&clocks).await {
                    Ok(()) => self.stored_clocks(&clocks),
                    Err(e) => tracing::error!(error = %e, "clock checkpoint failed"),
                }
            }
        })
    }

    pub async fn final_checkpoint(&self) {
        let clocks = self.live_clocks();
        if !clocks.is_empty() {
            match self.store.checkpoint(&clocks).await {
                Ok(()) => self.stored_clocks(&clocks),
                Err(e) => tracing::error!(error = %e, "last clock checkpoint failed"),
            }
        }
    }

    pub fn stop_games(&self) {
        self.games.write().expect("games lock").clear();
    }
}

/// One entry of `GET /api/games`: nothing secret.
#[derive(Debug, Clone, Serialize)]
pub struct ListEntry {
    pub id: String,
    pub players: [String; 2],
    pub preset: String,
    pub lexicon: String,
    pub created_at_ms: i64,
    pub seeded: bool,
    pub status: &'static str,
    /// Current scores (for games in memory).
    pub scores: Option<[i32; 2]>,
    pub to_move: Option<usize>,
    pub result: Option<ResultView>,
    /// The organiser's choices applied to the preset (`end-rack=double`, ...).
    pub rules: Vec<String>,
    /// Whether the game's clock has started (false: waiting for its players).
    pub started: bool,
    /// The game belongs to an event (a tournament's online game).
    pub event: bool,
    /// The clocks are stopped (neutralised): `"director-called"` when a player called the
    /// director, `"paused"` otherwise; absent while the game runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub paused: Option<&'static str>,
    /// The computer's seat and level, in a game against the computer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bot: Option<BotSeat>,
}

fn summary(game: &Game, seq: u64) -> Summary {
    Summary {
        scores: game.scores(),
        to_move: game.to_move(),
        seq,
        result: result_view(game),
        paused: game.paused().map(|p| p.called_by),
    }
}

struct Sub {
    audience: Audience,
    out: mpsc::Sender<Utf8Bytes>,
    /// How it takes the score sheet, and what it has of it.
    sheet: SheetFeed,
    has: Option<SheetMark>,
}

enum Failure {
    Game(GameError),
    Store(StoreError),
}

/// An event whose write the database's outage left unsettled (it may have been stored), with
/// the game as it would be after it.
struct Unsettled {
    stored: StoredEvent,
    next: Game,
    effects: Vec<Effect>,
    ended: bool,
}

/// How long after the players the watchers are handed a change.
const WATCHERS_AFTER: Duration = Duration::from_millis(30);

/// A public game waiting for its players: its place under the caps, and when it expires.
struct Waiting {
    _slot: WaitingSlot,
    /// When it expires: sooner while nobody has opened a seat.
    expires_at: Instant,
    /// When it expires once a seat has been opened.
    opened_expires_at: Instant,
}

impl Waiting {
    fn new(slot: WaitingSlot, unopened: Duration, opened: Duration) -> Waiting {
        let now = Instant::now();
        Waiting {
            _slot: slot,
            expires_at: now + unopened,
            opened_expires_at: now + opened,
        }
    }

    /// A seat has been opened: the game now waits as long as a game someone is in.
    fn opened(&mut self) {
        self.expires_at = self.expires_at.max(self.opened_expires_at);
    }
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
    /// The seats' connections (each gets every message, in order).
    subs: HashMap<u64, Sub>,
    /// The watchers: one latest observers' view for all of them, replaced at each change (a
    /// watcher that falls behind gets the newest view, never a backlog, and however many there
    /// are, a change costs the game's task one view).
    watchers: watch::Sender<Utf8Bytes>,
    /// The watchers' next view and when to hand it over: a moment after the players have
    /// theirs, so that waking thousands of watchers never delays an acknowledgement (and
    /// changes that come together reach them as one).
    watchers_next: Option<(Utf8Bytes, Instant)>,
    /// At most this many watchers, and this many connections on one seat.
    max_watchers: usize,
    max_per_seat: usize,
    /// Which seats have connected since the game was loaded (the game starts when both have).
    seen: [bool; 2],
    /// After a failed commit of a tick, when to try again.
    retry_at: Option<Instant>,
    /// A deadline whose tick changed nothing (never expected; guards against a busy loop).
    stalled: Option<i64>,
    /// Told when the game ends (after the end is committed).
    on_end: Vec<mpsc::UnboundedSender<Ended>>,
    /// The database's state; `db_down` is the one this game last acted on.
    db: watch::Receiver<DbState>,
    db_down: bool,
    /// A write the outage left unsettled: settled before anything else is stored.
    uncertain: Option<Unsettled>,
    /// While this public game waits for its players: its place under the caps and its expiry.
    waiting: Option<Waiting>,
    /// Whether a game belongs to an event (asked each time: the director links a game to its
    /// event just after creating it).
    linked: Option<Linked>,
    /// The hub's change counter (see [`Hub::changes`]).
    changes: Arc<watch::Sender<u64>>,
    metrics: Arc<Metrics>,
    /// What the views are made of that lasts (the fixed facts, the score sheet as each audience
    /// sees it, written line by line as the game goes; `view::ViewText`): a view does not write
    /// them again.
    sheet: ViewText,
}

/// Moves a kept timer to `at`, touching the timer wheel only when the deadline changed.
fn set_deadline(sleep: std::pin::Pin<&mut tokio::time::Sleep>, at: Instant) {
    let at = tokio::time::Instant::from_std(at);
    if sleep.deadline() != at {
        sleep.reset(at);
    }
}

/// The database's state as a game's loop watches it: one wait kept across turns of the loop
/// (every game watches the same state; a wait made afresh on each turn would register with, and
/// leave, the list of waiters they all share).
struct DbWatch {
    wait: std::pin::Pin<
        Box<dyn std::future::Future<Output = (bool, watch::Receiver<DbState>)> + Send>,
    >,
}

impl DbWatch {
    fn new(rx: watch::Receiver<DbState>) -> DbWatch {
        DbWatch {
            wait: Box::pin(Self::next(rx)),
        }
    }

    async fn next(mut rx: watch::Receiver<DbState>) -> (bool, watch::Receiver<DbState>) {
        let alive = rx.changed().await.is_ok();
        (alive, rx)
    }

    /// Resolves when the state changed (`true`), or once nobody can change it again (`false`).
    /// Cancel-safe: a wait interrupted by another branch of the loop's `select!` goes on.
    async fn changed(&mut self) -> bool {
        let (alive, rx) = self.wait.as_mut().await;
        self.wait = Box::pin(Self::next(rx));
        alive
    }
}

impl GameTask {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>, mut stop: watch::Receiver<bool>) {
        // Another process took the game (several processes, `cluster.rs`): this task stops at
        // once, and its sockets are closed so that their clients reconnect to the new owner.
        let mut evicted = self.shared.evicted.subscribe();
        // The signals and the two timers are made once and kept across turns of the loop: made
        // afresh on each, every action would register with and then leave lists every game
        // shares (the shutdown signal's waiters, the timer wheel).
        let stopped = async move { crate::shutdown::stopped(&mut stop).await };
        tokio::pin!(stopped);
        let evicted = async move {
            let _ = evicted.wait_for(|e| *e).await;
        };
        tokio::pin!(evicted);
        let far = tokio::time::Instant::now() + Duration::from_secs(3600 * 24 * 365);
        let sleep = tokio::time::sleep_until(far);
        tokio::pin!(sleep);
        let watchers_sleep = tokio::time::sleep_until(far);
        tokio::pin!(watchers_sleep);
        let mut db = DbWatch::new(self.db.clone());
        loop {
            // A finished game nobody watches leaves memory after a while; the next request
            // loads it again from the store.
            let wake = if self.game.is_over() && self.nobody_connected() {
                Some(Instant::now() + IDLE_FINISHED)
            } else {
                self.next_wake()
            };
            let expiry = self
                .waiting
                .as_ref()
                .map(|w| w.expires_at)
                .filter(|_| !self.clock.is_running());
            let wake = match (wake, expiry) {
                (Some(w), Some(e)) => Some(w.min(e)),
                (w, e) => w.or(e),
            };
            if let Some(at) = wake {
                set_deadline(sleep.as_mut(), at);
            }
            let to_watchers = self.watchers_next.as_ref().map(|n| n.1);
            if let Some(at) = to_watchers {
                set_deadline(watchers_sleep.as_mut(), at);
            }
            tokio::select! {
                cmd = rx.recv() => match cmd {
                    Some(cmd) => {
                        self.sync_db().await;
                        self.handle(cmd).await
                    }
                    None => break,
                },
                changed = db.changed() => {
                    if !changed {
                        break;
                    }
                    self.sync_db().await;
                }
                _ = &mut sleep, if wake.is_some() => {
                    if self.game.is_over() && self.nobody_connected() {
                        break;
                    }
                    if expiry.is_some_and(|e| e <= Instant::now()) && self.expire().await {
                        break;
                    }
                    self.fire_due().await
                }
                _ = &mut watchers_sleep, if to_watchers.is_some() => self.release_to_watchers(),
                _ = &mut stopped => break,
                _ = &mut evicted => break,
            }
        }
        self.no_longer_waiting();
    }

    /// The game has started (or stopped): it no longer counts as waiting.
    fn no_longer_waiting(&mut self) {
        self.waiting = None;
    }

    /// Nobody started the game in time: mark it expired in the store (only if it still has no
    /// event and no start) and tell whoever watches. Whether it expired.
    async fn expire(&mut self) -> bool {
        match self.store.expire_game(&self.meta.id).await {
            Ok(true) => {
                self.shared.expired.store(true, Ordering::Release);
                self.changes.send_modify(|n| *n = n.wrapping_add(1));
                let minutes = (wall_ms() - self.meta.created_at_ms).max(0) / 60_000;
                let msg = format!(
                    "game {} expired: nobody started it within {minutes} minutes of its creation",
                    self.meta.id,
                );
                let text: Utf8Bytes = error_text(None, ErrorCode::Expired, &msg).into();
                for sub in self.subs.values() {
                    let _ = sub.out.try_send(text.clone());
                }
                // The watchers hear of it when the task ends (their connection checks why).
                true
            }
            Ok(false) => {
                // It has an event or a start on record after all: it does not expire.
                self.no_longer_waiting();
                false
            }
            Err(e) => {
                tracing::error!(game = %self.meta.id, error = %e, "cannot mark the game expired");
                if let Some(w) = &mut self.waiting {
                    w.expires_at = Instant::now() + Duration::from_secs(60);
                }
                false
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
                sheet,
                out,
                reply,
            } => {
                let conn = reply_conn_id();
                if let Audience::Seat(seat) = audience {
                    self.make_room_on_seat(seat);
                    self.seen[seat] = true;
                    self.shared.opened[seat].store(true, Ordering::Release);
                    if let Some(w) = &mut self.waiting {
                        w.opened();
                    }
                    if self.seen == [true, true] && !self.clock.is_started() {
                        // Both players are here: the game starts (the others hear of it first,
                        // the newcomer's first view shows it started).
                        self.start_on_arrival().await;
                    }
                }
                let (text, has) = self.whole_state(audience, sheet);
                if out.try_send(text).is_ok() {
                    let sub = Sub {
                        audience,
                        out,
                        sheet,
                        has,
                    };
                    self.subs.insert(conn, sub);
                }
                let _ = reply.send(conn);
            }
            Command::Disconnect { conn } => {
                self.subs.remove(&conn);
            }
            Command::Watch { reply } => {
                let _ = reply.send(self.watch());
            }
            Command::Unwatch => {}
            Command::Act {
                conn,
                seat,
                id,
                message,
            } => self.act(conn, seat, id, message).await,
            Command::Refresh { conn, audience } => {
                self.fire_due().await;
                let sheet = self.subs.get(&conn).map_or(SheetFeed::Whole, |s| s.sheet);
                let (text, has) = self.whole_state(audience, sheet);
                if let Some(sub) = self.subs.get_mut(&conn) {
                    sub.has = has;
                }
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
        let at = [Checkpoint {
            id: self.meta.id.clone(),
            game_ms: self.clock.now_ms(),
            events: self.seq,
        }];
        match self.store.checkpoint(&at).await {
            Ok(()) => {
                self.shared
                    .durable_ms
                    .fetch_max(at[0].game_ms, Ordering::AcqRel);
            }
            Err(e) => tracing::error!(
                game = %self.meta.id,
                error = %e,
                "cannot save the game's start"
            ),
        }
        self.start_clock();
        self.broadcast(&[]);
    }

    /// Start the game's clock (in memory; the caller has made the start durable). While the
    /// database is down it starts held.
    fn start_clock(&mut self) {
        if self.clock.is_started() {
            return;
        }
        self.no_longer_waiting();
        self.clock.start();
        if self.db_down {
            self.clock.hold(self.clock.now_ms());
        }
        *self.shared.clock.lock().expect("clock lock") = self.clock;
    }

    /// Act on a change of the database's state: hold the clock when it goes down; when it is
    /// back, settle an unsettled write and let the clock run again. Everyone connected is told.
    async fn sync_db(&mut self) {
        let down = self.db.borrow_and_update().is_down();
        if down == self.db_down {
            return;
        }
        self.db_down = down;
        if down {
            // Where a restart would resume: the latest game time known to be stored.
            let at = self
                .shared
                .durable_ms
                .load(Ordering::Acquire)
                .max(self.game.clocks().last_ms);
            self.clock.hold(at);
        } else {
            let effects = self.settle().await.unwrap_or_default();
            self.clock.release(self.game.clocks().last_ms);
            *self.shared.clock.lock().expect("clock lock") = self.clock;
            self.broadcast(&effects);
            return;
        }
        *self.shared.clock.lock().expect("clock lock") = self.clock;
        self.broadcast(&[]);
    }

    /// Settle a write the outage left unsettled: read the event back; if it was stored, make
    /// it (its effects are returned for the broadcast), otherwise forget it. `Err` while the
    /// database cannot tell (it stays unsettled, and nothing else is stored meanwhile).
    async fn settle(&mut self) -> Result<Vec<Effect>, StoreError> {
        let Some(u) = self.uncertain.take() else {
            return Ok(Vec::new());
        };
        match self.store.stored_event(&self.meta.id, u.stored.seq).await {
            Ok(Some(found)) => {
                if tilebag_store::encode_event(&found.event)
                    == tilebag_store::encode_event(&u.stored.event)
                {
                    tracing::warn!(
                        game = %self.meta.id,
                        seq = u.stored.seq,
                        "an event was stored before the database went down: it stands"
                    );
                    let at = u.stored.event.at_ms;
                    self.adopt(u.next, u.ended, at);
                    Ok(u.effects)
                } else {
                    let e = StoreError::Other(format!(
                        "event {} of game {} is stored with other content than was written \
                         (is another server playing this game?)",
                        u.stored.seq, self.meta.id
                    ));
                    self.uncertain = Some(u);
                    Err(e)
                }
            }
            Ok(None) => Ok(Vec::new()),
            Err(e) => {
                self.uncertain = Some(u);
                Err(e)
            }
        }
    }

    /// The game time and log position a view shows.
    fn moment(&self) -> Moment {
        Moment {
            seq: self.seq,
            at_ms: self.clock.now_ms(),
            started: self.clock.is_started(),
            database_down: self.db_down,
            director: self.has_director(),
        }
    }

    /// The game is one of an event's: a director can be called to it.
    fn has_director(&self) -> bool {
        self.linked.as_ref().is_some_and(|l| l(&self.meta.id))
    }

    /// Score a tentative play for a `preview`: the words it forms and the score, by the game's
    /// own rules (`Game::check_play`, the function a real play is scored with). No word is
    /// judged, and the rack is not consulted: the answer holds only what anyone looking at the
    /// board could count, so it reveals nothing hidden.
    fn preview(&mut self, conn: u64, id: Option<Value>, position: String, word: String) {
        let answer = match self.to_action(ClientMessage::Play { position, word }) {
            Err((code, msg)) => error_text(id.as_ref(), code, &msg),
            Ok(Action::Play { placement }) => match self.game.check_play(&placement) {
                Err(e) => error_text(
                    id.as_ref(),
                    ErrorCode::IllegalPlay,
                    &self.game.refused_placement(e).to_string(),
                ),
                Ok(p) => crate::protocol::preview_text(&crate::protocol::PreviewText {
                    kind: "preview",
                    id: id.as_ref(),
                    position: p.position.to_string(),
                    words: p
                        .words
                        .iter()
                        .map(|w| crate::protocol::PreviewWord {
                            word: w.word.clone(),
                            score: w.score,
                        })
                        .collect(),
                    bingo: p.bingo,
                    score: p.score,
                }),
            },
            Ok(_) => error_text(id.as_ref(), ErrorCode::BadMessage, "not a play"),
        };
        self.send_to(conn, answer.into());
    }

    /// Apply a `Tick` if a deadline has passed.
    async fn fire_due(&mut self) {
        if !self.clock.is_running() {
            // Game time stands still until the game starts, and while the clock is held:
            // nothing can be due.
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
                tracing::error!(
                    game = %self.meta.id,
                    error = %e,
                    "cannot save the clock's event"
                );
                self.retry_at = Some(Instant::now() + Duration::from_secs(1));
            }
            Err(Failure::Game(e)) => {
                tracing::error!(game = %self.meta.id, error = %e, "tick refused");
                self.stalled = Some(d);
            }
        }
    }

    async fn act(&mut self, conn: u64, seat: usize, id: Option<Value>, message: ClientMessage) {
        if let ClientMessage::Preview { position, word } = message {
            // Nothing changes: no clock, no event.
            self.preview(conn, id, position, word);
            return;
        }
        if message == ClientMessage::CallDirector && !self.has_director() {
            // A casual game has no director: stopped clocks could never be restarted, so the
            // call is refused (NASPA II.A presumes a director on hand).
            let msg = "this game belongs to no event, so there is no director to call: the \
                       clocks would stay stopped for ever. Settle it between you, or resign";
            self.send_to(
                conn,
                error_text(id.as_ref(), ErrorCode::NotAllowed, msg).into(),
            );
            return;
        }
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
                let ack = ack_text(id.as_ref(), &effects, self.seq).into();
                self.broadcast_after(&effects, Some((conn, ack)));
            }
            Err(Failure::Game(e)) => {
                let code = game_error_code(&e);
                self.send_to(conn, error_text(id.as_ref(), code, &e.to_string()).into());
            }
            Err(Failure::Store(e)) => {
                let r = self.store_refusal(&e, "move");
                self.send_to(conn, error_text(id.as_ref(), r.code, &r.message).into());
            }
        }
    }

    /// What a seat or the director is told when the store failed: `unavailable` while the
    /// database is down (and the clock held), else `internal`.
    fn store_refusal(&mut self, e: &StoreError, what: &str) -> Refused {
        if matches!(e, StoreError::Fenced { .. }) {
            // Another process of the service runs the game now (this one was paused or cut
            // off past its lease): nothing was stored, and this connection is about to close.
            return Refused {
                code: ErrorCode::Unavailable,
                message: format!(
                    "this game is now run by another process of the service, so the {what} was \
                     not made: reconnect (the page does it by itself) and make it again"
                ),
            };
        }
        if !e.is_unavailable() {
            tracing::error!(game = %self.meta.id, error = %e, "cannot save");
            return Refused {
                code: ErrorCode::Internal,
                message: format!("the {what} could not be saved, so it was not made; try again"),
            };
        }
        let message = if matches!(e, StoreError::Uncertain(_)) || self.uncertain.is_some() {
            format!(
                "the database went down while the last change was being saved ({e}); the clocks \
                 are stopped. When it is back, that change stands if it was saved; make this \
                 {what} again then"
            )
        } else {
            format!(
                "{e}, so the {what} was not made; the clocks are stopped until it is back \
                 (WESPA 4.1(f)): make it again then"
            )
        };
        Refused {
            code: ErrorCode::Unavailable,
            message,
        }
    }

    /// The director's action (from the director's pages): stop or restart the clocks, or end
    /// the game. Committed and broadcast like a seat's.
    async fn director(&mut self, action: Action) -> Result<(), Refused> {
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
            Err(Failure::Game(e)) => Err(Refused {
                code: game_error_code(&e),
                message: e.to_string(),
            }),
            Err(Failure::Store(e)) => Err(self.store_refusal(&e, "change")),
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
                    Placement::from_gcg(g.board(), g.layout(), g.tile_set(), pos, &word).map_err(
                        |e| (ErrorCode::IllegalPlay, g.refused_placement(e).to_string()),
                    )?;
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
            ClientMessage::Preview { .. } => {
                return Err((ErrorCode::BadMessage, "preview is not an action".into()))
            }
        })
    }

    /// Apply `ev` to a copy, make it durable, then adopt the copy. On any failure the game is
    /// unchanged.
    async fn commit(&mut self, ev: Event) -> Result<Vec<Effect>, Failure> {
        if self.uncertain.is_some() {
            // The last write's outcome must be known before the next event takes a number.
            let effects = self.settle().await.map_err(Failure::Store)?;
            self.broadcast(&effects);
        }
        // Applied in place; taken back (`Game::rewind`) if it cannot be stored. Nothing reads
        // the game until this returns.
        let was_over = self.game.is_over();
        let (effects, rewind) = self
            .game
            .apply_rewindable(&ev, &*self.judge)
            .map_err(Failure::Game)?;
        let ended = self.game.is_over() && !was_over;
        let result = ended
            .then(|| serde_json::to_string(&result_view(&self.game)).expect("results serialise"));
        let stored = StoredEvent {
            seq: self.seq,
            event: ev,
            wall_ms: wall_ms(),
        };
        let began = Instant::now();
        let appended = self
            .store
            .append_event(&self.meta.id, &stored, result.as_deref())
            .await;
        self.metrics.commit_latency.observe(began.elapsed());
        match appended {
            Ok(()) => {
                self.metrics.actions.fetch_add(1, Ordering::Relaxed);
            }
            Err(e) => {
                self.metrics.commit_failures.fetch_add(1, Ordering::Relaxed);
                if matches!(e, StoreError::Uncertain(_)) {
                    // Rare: the game as it would be after the event is kept whole until the
                    // database says whether it was stored.
                    self.uncertain = Some(Unsettled {
                        stored,
                        next: self.game.clone(),
                        effects,
                        ended,
                    });
                }
                self.game.rewind(rewind);
                // The database is down: hold the clock now rather than when the news
                // arrives.
                self.sync_db().await;
                return Err(Failure::Store(e));
            }
        }
        let at = stored.event.at_ms;
        self.adopted(ended, at);
        Ok(effects)
    }

    /// Make a stored event's game the game.
    fn adopt(&mut self, next: Game, ended: bool, at_ms: i64) {
        self.game = next;
        self.adopted(ended, at_ms);
    }

    /// The game holds a stored event (at game time `at_ms`; `ended`: it ended the game).
    fn adopted(&mut self, ended: bool, at_ms: i64) {
        self.shared.durable_ms.fetch_max(at_ms, Ordering::AcqRel);
        self.seq += 1;
        *self.shared.summary.lock().expect("summary lock") = summary(&self.game, self.seq);
        if ended {
            self.metrics.games_ended.fetch_add(1, Ordering::Relaxed);
            self.shared.ended.store(true, Ordering::Release);
            if !self.on_end.is_empty() {
                let reason = match self.game.phase() {
                    tilebag_core::Phase::Ended { reason } => Some(*reason),
                    _ => None,
                };
                let end = Final {
                    scores: self.game.scores(),
                    reason,
                };
                for tx in &self.on_end {
                    let _ = tx.send((self.meta.id.clone(), end));
                }
            }
        }
    }

    /// The view now with the whole score sheet, for a connection fed `sheet`, and what such a
    /// connection then has of the sheet.
    fn whole_state(
        &mut self,
        audience: Audience,
        sheet: SheetFeed,
    ) -> (Utf8Bytes, Option<SheetMark>) {
        let now = self.moment();
        let mut texts = StateTexts::new(&self.game, &self.meta, now, &[], &mut self.sheet);
        match sheet {
            SheetFeed::Whole => (texts.text(audience).into(), None),
            SheetFeed::NewLines => {
                let text = texts.text_from(audience, 0).into();
                (text, Some(texts.mark()))
            }
        }
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

    /// Whether no seat and no watcher is connected.
    fn nobody_connected(&self) -> bool {
        self.subs.is_empty() && self.watchers.receiver_count() == 0
    }

    /// A new watcher: the view now (kept as the latest without waking the others) and its
    /// receiver; refused past the cap.
    fn watch(&mut self) -> Result<(Utf8Bytes, watch::Receiver<Utf8Bytes>), Refused> {
        if self.max_watchers > 0 && self.watchers.receiver_count() >= self.max_watchers {
            return Err(Refused {
                code: ErrorCode::TooManyWatchers,
                message: format!(
                    "game {} has {} watchers, as many as it takes: try again later",
                    self.meta.id, self.max_watchers
                ),
            });
        }
        let text = self.whole_state(Audience::Observer, SheetFeed::Whole).0;
        self.watchers.send_if_modified(|v| {
            *v = text.clone();
            false
        });
        Ok((text, self.watchers.subscribe()))
    }

    /// A seat takes at most `max_per_seat` connections: a new one replaces the oldest, which is
    /// told why before it is closed.
    fn make_room_on_seat(&mut self, seat: usize) {
        if self.max_per_seat == 0 {
            return;
        }
        let mut on_seat: Vec<u64> = self
            .subs
            .iter()
            .filter(|(_, s)| s.audience == Audience::Seat(seat))
            .map(|(&c, _)| c)
            .collect();
        on_seat.sort_unstable();
        let extra = (on_seat.len() + 1).saturating_sub(self.max_per_seat);
        for conn in on_seat.into_iter().take(extra) {
            if let Some(sub) = self.subs.remove(&conn) {
                let msg = format!(
                    "this seat was opened on another connection (at most {} at once): this one \
                     is closed",
                    self.max_per_seat
                );
                let _ = sub
                    .out
                    .try_send(error_text(None, ErrorCode::Replaced, &msg).into());
            }
        }
    }

    /// Send every subscriber the new view, built once per audience (and what all audiences
    /// share, once); the watchers get theirs last, as one shared latest view.
    fn broadcast(&mut self, effects: &[Effect]) {
        self.broadcast_after(effects, None);
    }

    /// [`Self::broadcast`], with the acknowledgement of the action that made the change queued
    /// for its connection (`acked`) just before that connection's view: the two are built
    /// first and queued back to back, so the connection writes them to its socket together.
    fn broadcast_after(&mut self, effects: &[Effect], acked: Option<(u64, Utf8Bytes)>) {
        self.changes.send_modify(|n| *n = n.wrapping_add(1));
        let watched = self.watchers.receiver_count() > 0;
        if self.subs.is_empty() && !watched {
            return;
        }
        let now = self.moment();
        let mut texts = StateTexts::new(&self.game, &self.meta, now, effects, &mut self.sheet);
        // Each text once: by audience (seat 0, seat 1, the observers) and the first score-sheet
        // line it holds (none: the whole sheet).
        let mut built: Vec<((usize, Option<usize>), Utf8Bytes)> = Vec::with_capacity(3);
        let mut text_for = |texts: &mut StateTexts, audience: Audience, from: Option<usize>| {
            let key = (audience.sheet_index(), from);
            if let Some((_, t)) = built.iter().find(|(k, _)| *k == key) {
                return t.clone();
            }
            let t: Utf8Bytes = match from {
                None => texts.text(audience),
                Some(from) => texts.text_from(audience, from),
            }
            .into();
            built.push((key, t.clone()));
            t
        };
        let mark = texts.mark();
        let mut dead = Vec::new();
        // The actor's connection first, its acknowledgement just before its view.
        let acked_conn = acked.as_ref().map(|(conn, _)| *conn);
        let mut ack = acked.map(|(_, ack)| ack);
        let conns: Vec<u64> = acked_conn
            .filter(|c| self.subs.contains_key(c))
            .into_iter()
            .chain(self.subs.keys().copied().filter(|&c| Some(c) != acked_conn))
            .collect();
        for conn in conns {
            let Some(sub) = self.subs.get_mut(&conn) else {
                continue;
            };
            let from = match sub.sheet {
                SheetFeed::Whole => None,
                SheetFeed::NewLines => Some(texts.new_lines_from(sub.has)),
            };
            let text = text_for(&mut texts, sub.audience, from);
            let ack = if Some(conn) == acked_conn {
                ack.take()
            } else {
                None
            };
            let queued =
                ack.is_none_or(|a| sub.out.try_send(a).is_ok()) && sub.out.try_send(text).is_ok();
            if !queued {
                dead.push(conn);
            } else if from.is_some() {
                sub.has = Some(mark);
            }
        }
        if watched {
            let text = text_for(&mut texts, Audience::Observer, None);
            let due = self
                .watchers_next
                .as_ref()
                .map_or_else(|| Instant::now() + WATCHERS_AFTER, |n| n.1);
            self.watchers_next = Some((text, due));
        }
        for conn in dead {
            self.subs.remove(&conn);
        }
    }

    /// Hand the watchers their latest view (each of their connections then sends it after a
    /// short wait of its own, so that they are served spread out).
    fn release_to_watchers(&mut self) {
        if let Some((text, _)) = self.watchers_next.take() {
            self.watchers.send_replace(text);
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
        if self.meta.seeded {
            // A note: readers that do not know it ignore it.
            record.notes.insert(
                0,
                "tilebag: seeded game: the creator chose the bag's seed, so it was not a fair \
                 game (a test, benchmark or analysis game; serve --allow-seeds)"
                    .into(),
            );
        }
        // What the service noted about the game (a takeover by another process).
        record.notes.extend(self.meta.notes.iter().cloned());
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
    crate::ids::conn_id()
}

/// The note a takeover leaves in a game's record (shown in its GCG).
fn takeover_note(from: &str, to: &str, late_ms: i64, resumed_ms: i64) -> String {
    let at = tilebag_core::civil::utc_text(wall_ms() / 1000);
    let (m, sec) = (resumed_ms.max(0) / 60_000, resumed_ms.max(0) % 60_000);
    format!(
        "tilebag: at {at} the server process running this game ({from}) had stopped; {to} took \
         the game over {:.1} s after {from}'s lease ran out and resumed the clocks at game time \
         {m}:{:04.1}, where they were last saved: the time between was charged to nobody \
         (WESPA 4.1(f))",
        late_ms.max(0) as f64 / 1000.0,
        sec as f64 / 1000.0
    )
}

pub fn game_error_code(e: &GameError) -> ErrorCode {
    match e {
        GameError::GameOver => ErrorCode::GameOver,
        GameError::OutOfTurn(_) => ErrorCode::OutOfTurn,
        GameError::NoSuchSeat(_) => ErrorCode::NotASeat,
        GameError::NotAllowed(..)
        | GameError::SixZeroNotReached { .. }
        | GameError::Paused { .. }
        | GameError::ResignOffTurn { .. } => ErrorCode::NotAllowed,
        GameError::TilesNotOnRack(_) => ErrorCode::TilesNotOnRack,
        GameError::ExchangeBagTooSmall { .. } => ErrorCode::BagTooSmall,
        GameError::EmptyExchange { .. } => ErrorCode::BadRequest,
        GameError::Play { .. } => ErrorCode::IllegalPlay,
        GameError::VoidRefused => ErrorCode::UnacceptablePlay,
        GameError::NotFormed(_) => ErrorCode::NotFormed,
        GameError::TimeWentBackwards { .. } => ErrorCode::Internal,
    }
}
