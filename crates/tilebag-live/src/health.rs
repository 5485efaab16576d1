//! Whether the database is there. Every store call goes through [`Monitored`], which keeps the
//! database's state as the calls find it:
//!
//! - A call that fails because the database is out of reach or cannot write
//!   ([`StoreError::is_unavailable`]) marks it down, with the reason.
//! - While it is down, writes are refused at once (nothing is acknowledged that is not stored)
//!   and a probe ([`Store::ping`]) runs every [`PROBE_EVERY`]; the first write or probe that goes
//!   through marks it up again. Reads are still tried (a full disk still reads), but a read that
//!   succeeds does not mark it up: only a write proves that writes work.
//!
//! Game tasks watch the state ([`Monitored::subscribe`]): while the database is down no move can
//! be made, so they stop their clocks (WESPA 4.1(f), as when the server itself is down; see
//! `live.rs`) and tell their clients; when it is back they go on.

use std::sync::Arc;
use std::time::{Duration, Instant};
use tilebag_store::{AccountStore, GameRecord, Store, StoreError, StoreFuture, StoredEvent};
use tokio::sync::watch;

use crate::fences::Fences;
use tilebag_store::{Checkpoint, Fence};

/// How often a database that is down is probed.
pub const PROBE_EVERY: Duration = Duration::from_millis(500);

/// The database's state as the server last found it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DbState {
    Up,
    /// Down since `since`, for `reason`.
    Down {
        since: Instant,
        reason: String,
    },
}

impl DbState {
    pub fn is_down(&self) -> bool {
        matches!(self, DbState::Down { .. })
    }
}

/// A store that tracks whether its database is reachable.
pub struct Monitored {
    inner: Arc<dyn Store>,
    state: watch::Sender<DbState>,
    /// Several processes on one database: the leases this one holds, named by every write of a
    /// game's events or time (`fences.rs`). Unset for one process alone.
    fences: std::sync::OnceLock<Arc<Fences>>,
    /// Why messages between the processes cannot pass (NATS is out of reach): while set, the
    /// state is down as for the database, whatever the database does.
    link_down: std::sync::Mutex<Option<String>>,
}

/// What a failure says about the database, without the "is down" prefix.
fn reason(e: &StoreError) -> String {
    match e {
        StoreError::Unavailable(r) | StoreError::Uncertain(r) => r.clone(),
        other => other.to_string(),
    }
}

impl Monitored {
    pub fn new(inner: Arc<dyn Store>) -> Arc<Monitored> {
        Arc::new(Monitored {
            inner,
            state: watch::Sender::new(DbState::Up),
            fences: std::sync::OnceLock::new(),
            link_down: std::sync::Mutex::new(None),
        })
    }

    /// From now on, every write of a game's events or time names this process's lease on the
    /// game (several processes on one PostgreSQL database); a game it holds no lease on is not
    /// written at all. Set once, before any game is loaded.
    pub fn fence_with(&self, fences: Arc<Fences>) {
        let _ = self.fences.set(fences);
    }

    /// Messages between the processes cannot pass (`Some(reason)`) or pass again (`None`).
    /// While they cannot, nothing is written and the clocks are held, as while the database is
    /// down: this process cannot hear the other processes' players, and they cannot take its
    /// games over cleanly. When they pass again, the next probe of the database lifts it.
    pub fn set_link_down(&self, reason: Option<String>) {
        *self.link_down.lock().expect("link lock") = reason.clone();
        if let Some(r) = reason {
            self.mark_down(&StoreError::Unavailable(r));
        }
    }

    fn link_reason(&self) -> Option<String> {
        self.link_down.lock().expect("link lock").clone()
    }

    /// The state now, and every change from now on.
    pub fn subscribe(&self) -> watch::Receiver<DbState> {
        self.state.subscribe()
    }

    pub fn state(&self) -> DbState {
        self.state.borrow().clone()
    }

    fn mark_up(&self) {
        if self.link_reason().is_some() {
            return;
        }
        self.state.send_if_modified(|s| {
            if let DbState::Down { since, .. } = s {
                tracing::warn!(
                    down_s = since.elapsed().as_secs_f64(),
                    "the database is back"
                );
                *s = DbState::Up;
                true
            } else {
                false
            }
        });
    }

    fn mark_down(&self, e: &StoreError) {
        let why = reason(e);
        self.state.send_if_modified(|s| match s {
            DbState::Up => {
                tracing::error!(
                    reason = %why,
                    "the database is down; moves, new games and director actions are refused \
                     and the clocks are stopped until it is back"
                );
                *s = DbState::Down {
                    since: Instant::now(),
                    reason: why.clone(),
                };
                true
            }
            DbState::Down { .. } => false,
        });
    }

    /// Note what a write (or a probe) found.
    fn wrote<T>(&self, r: Result<T, StoreError>) -> Result<T, StoreError> {
        match &r {
            Ok(_) => self.mark_up(),
            Err(e) if e.is_unavailable() => self.mark_down(e),
            Err(_) => {}
        }
        r
    }

    /// Note what a read found (a read that works does not prove writes do).
    fn read<T>(&self, r: Result<T, StoreError>) -> Result<T, StoreError> {
        if let Err(e) = &r {
            if e.is_unavailable() {
                self.mark_down(e);
            }
        }
        r
    }

    /// While the database is down, the refusal a write gets without trying.
    fn refuse_while_down(&self) -> Result<(), StoreError> {
        match &*self.state.borrow() {
            DbState::Up => Ok(()),
            DbState::Down { reason, .. } => Err(StoreError::Unavailable(reason.clone())),
        }
    }

    /// Probe the database every [`PROBE_EVERY`] while it is down, until `stop`.
    pub fn spawn_probe(
        self: &Arc<Self>,
        mut stop: watch::Receiver<bool>,
    ) -> tokio::task::JoinHandle<()> {
        let this = self.clone();
        tokio::spawn(async move {
            let mut rx = this.subscribe();
            loop {
                tokio::select! {
                    r = rx.wait_for(DbState::is_down) => if r.is_err() { return },
                    _ = crate::shutdown::stopped(&mut stop) => return,
                }
                tokio::select! {
                    _ = tokio::time::sleep(PROBE_EVERY) => {}
                    _ = crate::shutdown::stopped(&mut stop) => return,
                }
                let _ = this.ping().await;
            }
        })
    }
}

impl Store for Monitored {
    fn kind(&self) -> &'static str {
        self.inner.kind()
    }

    /// Straight to the store: account calls neither mark the database up nor down.
    fn accounts(&self) -> &dyn AccountStore {
        self.inner.accounts()
    }

    fn chat(&self) -> &dyn tilebag_store::ChatStore {
        self.inner.chat()
    }

    fn seats(&self) -> &dyn tilebag_store::SeatStore {
        self.inner.seats()
    }

    fn seeks(&self) -> &dyn tilebag_store::SeekStore {
        self.inner.seeks()
    }

    /// Straight to the store (the leases' own calls are the cluster's; see `cluster.rs`).
    fn leases(&self) -> Option<&dyn tilebag_store::LeaseStore> {
        self.inner.leases()
    }

    fn create_game<'a>(&'a self, game: &'a GameRecord) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            self.refuse_while_down()?;
            self.wrote(self.inner.create_game(game).await)
        })
    }

    fn append_event<'a>(
        &'a self,
        game_id: &'a str,
        event: &'a StoredEvent,
        ended: Option<&'a str>,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            self.refuse_while_down()?;
            let Some(fences) = self.fences.get() else {
                return self.wrote(self.inner.append_event(game_id, event, ended).await);
            };
            let fence = Fence {
                owner: fences.owner.clone(),
                generation: fences.generation(game_id).unwrap_or(0),
            };
            let Some(leases) = self.inner.leases() else {
                return Err(StoreError::Other(
                    "several processes need a PostgreSQL database".into(),
                ));
            };
            let r = self.wrote(
                leases
                    .append_event_fenced(game_id, event, ended, &fence)
                    .await,
            );
            if matches!(r, Err(StoreError::Fenced { .. })) {
                tracing::warn!(
                    game = %game_id,
                    generation = fence.generation,
                    "another process holds this game's lease now: a write was fenced off"
                );
                fences.lost(game_id);
            }
            r
        })
    }

    fn stored_event<'a>(
        &'a self,
        game_id: &'a str,
        seq: u64,
    ) -> StoreFuture<'a, Option<StoredEvent>> {
        Box::pin(async move { self.read(self.inner.stored_event(game_id, seq).await) })
    }

    fn checkpoint<'a>(&'a self, clocks: &'a [tilebag_store::Checkpoint]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            self.refuse_while_down()?;
            let (Some(fences), Some(leases)) = (self.fences.get(), self.inner.leases()) else {
                return self.wrote(self.inner.checkpoint(clocks).await);
            };
            // Only the games whose lease this process holds, each at its generation.
            let fenced: Vec<(Checkpoint, u64)> = clocks
                .iter()
                .filter_map(|cp| Some((cp.clone(), fences.generation(&cp.id)?)))
                .collect();
            self.wrote(leases.checkpoint_fenced(&fences.owner, &fenced).await)
        })
    }

    fn list_games(&self, limit: usize) -> StoreFuture<'_, Vec<GameRecord>> {
        Box::pin(async move { self.read(self.inner.list_games(limit).await) })
    }

    fn load_game<'a>(
        &'a self,
        id: &'a str,
    ) -> StoreFuture<'a, Option<(GameRecord, Vec<StoredEvent>)>> {
        Box::pin(async move { self.read(self.inner.load_game(id).await) })
    }

    fn expire_game<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            self.refuse_while_down()?;
            self.wrote(self.inner.expire_game(id).await)
        })
    }

    fn load_unfinished(&self) -> StoreFuture<'_, Vec<tilebag_store::Unfinished>> {
        Box::pin(async move { self.read(self.inner.load_unfinished().await) })
    }

    fn ping(&self) -> StoreFuture<'_, ()> {
        Box::pin(async move { self.wrote(self.inner.ping().await) })
    }
}
