//! Several `tilebag serve` processes as one service, on one PostgreSQL database and one NATS
//! server (issue 31). The embedded default is one process alone, which owns every game and never
//! builds a [`Cluster`].
//!
//! - **One owner a game.** Each live game is run (its clock, its computer, its log) by exactly
//!   one process, the holder of its lease in the database (`tilebag_store::leases`). A process
//!   takes a game's lease when it creates the game, when a client asks it for a game nobody
//!   runs, and when it finds an expired lease (the hub's sweep, every [`RENEW_EVERY`]). It
//!   renews its leases every [`RENEW_EVERY`] for [`LEASE_TTL`].
//! - **Fenced writes.** Every write of a game's events or time names the lease's generation
//!   ([`Fences`], applied by [`Monitored`]), so a process that lost a lease (paused, cut off)
//!   can never write for that game again.
//! - **Stopping at once.** A process whose renewals fail stops acting for its games when its
//!   leases may have run out (by its own clock, counted from when it sent the last renewal that
//!   succeeded), and one cut off from NATS refuses every action at once, as while the database
//!   is down ([`Monitored::set_link_down`]): clocks held, `unavailable`.
//! - **Messages.** A game's owner serves it on NATS to the other processes, and a game another
//!   process owns is driven from here over NATS (`remote.rs`).

use crate::fences::Fences;
use crate::health::Monitored;
use crate::remote::{delivery_prefix, Here, Routes};
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tilebag_nats::{Client, ConnState};
use tokio::sync::mpsc;

/// How long a lease lasts unless renewed.
pub const LEASE_TTL: Duration = Duration::from_secs(3);
/// How often a process renews its leases, beats, and looks for games nobody runs.
pub const RENEW_EVERY: Duration = Duration::from_millis(1000);
/// A game just created is its creator's to take first: a live game with no lease is nobody's
/// only this long after its creation.
pub const ORPHAN_GRACE: Duration = Duration::from_secs(10);
/// How long a starting process waits for NATS before it serves without it (saying so).
const FIRST_CONNECTION_WAIT: Duration = Duration::from_secs(3);

/// How this process joins the others.
#[derive(Debug, Clone)]
pub struct ClusterConfig {
    /// `nats://host:port` (user and password, or a token, may come before the host).
    pub nats_url: String,
    /// This process's name, unique among the processes (the leases' owner).
    pub process: String,
    /// Where its HTTP server listens (shown to the operator).
    pub address: String,
}

/// This process's part in the service.
pub struct Cluster {
    pub process: String,
    pub address: String,
    pub started_at_ms: i64,
    pub nats: Client,
    pub fences: Arc<Fences>,
    pub routes: Arc<Routes>,
    store: Arc<Monitored>,
    /// Games whose lease was found lost on a write (the hub stops their tasks).
    lost: Mutex<Option<mpsc::UnboundedReceiver<String>>>,
    /// Until when the leases held are surely still this process's, by its own clock.
    valid_until: Mutex<Instant>,
    /// Games taken over from another process (an expired lease), in all.
    pub takeovers: AtomicU64,
}

impl Cluster {
    /// Connects to NATS and sets the store to fence every game write with this process's
    /// leases. Refused when the database is not PostgreSQL (a SQLite file has one process).
    pub async fn join(
        store: &Arc<Monitored>,
        config: &ClusterConfig,
    ) -> Result<Arc<Cluster>, String> {
        use tilebag_store::Store;
        if store.leases().is_none() {
            return Err(format!(
                "several processes share one PostgreSQL database: --nats needs --database \
                 postgres://..., not a {} file",
                store.kind()
            ));
        }
        if config.process.is_empty()
            || !config
                .process
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(format!(
                "the process name {:?} must be letters, digits, '-' and '_' (it names NATS \
                 subjects and the leases' owner)",
                config.process
            ));
        }
        // A NATS server that is not up yet is waited for, not fatal: processes and NATS may be
        // started in any order. Until it answers, this process says so on `/api/health` and
        // acts for no game (the link is down, below).
        let nats =
            Client::start(&config.nats_url, &config.process).map_err(|e| format!("NATS: {e}"))?;
        // A NATS server that is there is connected to before the process serves anything.
        let mut first = nats.state();
        let connected = tokio::time::timeout(
            FIRST_CONNECTION_WAIT,
            first.wait_for(|s| *s == ConnState::Connected),
        )
        .await;
        if !matches!(connected, Ok(Ok(_))) {
            tracing::warn!(
                "NATS did not answer within {FIRST_CONNECTION_WAIT:?}: serving, and refusing \
                 games until it does"
            );
        }
        let (fences, lost) = Fences::new(&config.process);
        store.fence_with(fences.clone());
        let routes = Arc::new(Routes::default());
        let mut deliveries = nats
            .subscribe(&format!("{}.*", delivery_prefix(&config.process)))
            .map_err(|e| format!("NATS: {e}"))?;
        let r = routes.clone();
        tokio::spawn(async move {
            while let Some(m) = deliveries.next().await {
                r.deliver(&m);
            }
        });
        // Cut off from NATS, this process can hear nobody else's players and the others cannot
        // reach its games: it acts for none of them until it is back.
        let mut state = nats.state();
        let watched = store.clone();
        let cut = routes.clone();
        tokio::spawn(async move {
            loop {
                let now = state.borrow_and_update().clone();
                match now {
                    ConnState::Connected => watched.set_link_down(None),
                    ConnState::Disconnected { reason, .. } => {
                        watched.set_link_down(Some(format!(
                            "the message bus (NATS) is out of reach: {reason}"
                        )));
                        // Sockets on games other processes run missed what was sent meanwhile:
                        // they are closed, and their clients reconnect.
                        cut.close_all();
                    }
                }
                if state.changed().await.is_err() {
                    return;
                }
            }
        });
        Ok(Arc::new(Cluster {
            process: config.process.clone(),
            address: config.address.clone(),
            started_at_ms: tilebag_store::wall_ms(),
            nats,
            fences,
            routes,
            store: store.clone(),
            lost: Mutex::new(Some(lost)),
            valid_until: Mutex::new(Instant::now() + LEASE_TTL),
            takeovers: AtomicU64::new(0),
        }))
    }

    /// What a game owned by another process needs of this one.
    pub fn here(&self) -> Here {
        Here {
            nats: self.nats.clone(),
            store: self.store.clone(),
            routes: self.routes.clone(),
            process: self.process.clone(),
        }
    }

    /// The receiver of games whose lease was found lost on a write (taken once, by the hub's
    /// loop).
    pub fn take_lost(&self) -> Option<mpsc::UnboundedReceiver<String>> {
        self.lost.lock().expect("lost lock").take()
    }

    /// Renewals sent at `sent` succeeded: the leases are this process's until `sent` + TTL.
    pub fn renewed(&self, sent: Instant) {
        *self.valid_until.lock().expect("lease clock lock") = sent + LEASE_TTL;
    }

    /// Whether the leases may have run out (no renewal succeeded for a lease's length).
    pub fn leases_lapsed(&self) -> bool {
        Instant::now() >= *self.valid_until.lock().expect("lease clock lock")
    }

    pub fn ttl_ms(&self) -> i64 {
        LEASE_TTL.as_millis() as i64
    }
}
