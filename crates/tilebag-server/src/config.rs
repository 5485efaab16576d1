//! What `tilebag serve` can be told ([`ServeConfig`]), the limits on each WebSocket connection
//! ([`Limits`]), and the lexicons games are judged with ([`Judge`]).

use crate::net::NetLimits;
use crate::quota::Quotas;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tilebag_core::WordJudge;

/// A lexicon the server can judge words with.
pub type Judge = Arc<dyn WordJudge + Send + Sync>;

/// Everything `tilebag serve` can be told.
#[derive(Clone)]
pub struct ServeConfig {
    /// Address to listen on (default 127.0.0.1).
    pub bind: IpAddr,
    /// Port (default 8080; 0 picks a free one).
    pub port: u16,
    /// `tilebag.db` (a SQLite file, created if missing) or `postgres://user:pass@host/db`.
    pub database: String,
    /// The preset of a game created without one (default `naspa-2013`).
    pub default_preset: String,
    /// The lexicons games may name, by name.
    pub lexicons: HashMap<String, Judge>,
    /// The lexicon of a game created without one. Must be a key of `lexicons`.
    pub default_lexicon: String,
    /// The lexicons the computer can play with and analyse games in, by the same names as
    /// `lexicons` (a judge alone cannot generate moves). [`ServeConfig::add_word_source`] fills
    /// both maps.
    pub word_sources: HashMap<String, Arc<tilebag_lexicon::WordSource>>,
    /// Serve the files of this directory at `/` (the web UI), if set.
    pub static_dir: Option<PathBuf>,
    /// Game milliseconds per real millisecond (1.0). Only tests change it, to play a
    /// 20-minute Literacy game in seconds.
    pub time_scale: f64,
    /// How often the game time of live games is checkpointed (default 2 s). On restart a game's
    /// time resumes from its last event or checkpoint, so at most this much running time is lost
    /// and the downtime is never charged (WESPA 4.1(f): a power failure stops the clocks).
    pub checkpoint_every: Duration,
    /// Per-connection limits.
    pub limits: Limits,
    /// Connection caps and timeouts (the accept loop, `net.rs`).
    pub net: NetLimits,
    /// Per-address quotas, the cap on games waiting for players, their expiry (`quota.rs`).
    pub quotas: Quotas,
    /// The folder of event files the director's pages work on (default: `tilebag-events`
    /// beside the SQLite database, or in the working folder for PostgreSQL).
    pub events_dir: Option<PathBuf>,
    /// Let `POST /api/games` choose the bag's seed (off by default). Whoever knows the seed
    /// knows every rack, so a seed is for tests, benchmarks and analysis only; such games are
    /// marked `seeded` in every view and in their GCG.
    pub allow_seeds: bool,
    /// The key the director's pages ask for (at least 16 characters). Default: the one in
    /// `tilebag-director.key` beside the database, created at random on first start.
    pub director_key: Option<String>,
}

/// Limits on each WebSocket connection.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The largest message a client may send (16 KiB).
    pub max_message_bytes: usize,
    /// Token bucket: messages per second refilled (10) and the burst allowed (20). Past it the
    /// server sends a `rate-limited` error and closes with 1008 (policy violation).
    pub messages_per_second: f64,
    pub burst: f64,
    /// Watchers (observer connections) of one game at most (5,000); past it a new one is
    /// refused `too-many-watchers`. 0 = no cap.
    pub max_watchers_per_game: usize,
    /// Connections on one seat at most (4): a new one replaces the oldest, which is told
    /// `replaced` and closed. 0 = no cap.
    pub max_connections_per_seat: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_message_bytes: 16 * 1024,
            messages_per_second: 10.0,
            burst: 20.0,
            max_watchers_per_game: 5000,
            max_connections_per_seat: 4,
        }
    }
}

impl Default for ServeConfig {
    fn default() -> ServeConfig {
        ServeConfig {
            bind: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: 8080,
            database: "tilebag.db".into(),
            default_preset: "naspa-2013".into(),
            lexicons: HashMap::new(),
            default_lexicon: "enable1".into(),
            word_sources: HashMap::new(),
            static_dir: None,
            time_scale: 1.0,
            checkpoint_every: Duration::from_secs(2),
            limits: Limits::default(),
            net: NetLimits::default(),
            quotas: Quotas::default(),
            events_dir: None,
            allow_seeds: false,
            director_key: None,
        }
    }
}

impl ServeConfig {
    /// Adds a lexicon by name: games may be judged with it, and the computer may play with it
    /// (its GADDAG is built on first use).
    pub fn add_word_source(&mut self, name: &str, source: tilebag_lexicon::WordSource) {
        let source = Arc::new(source);
        self.lexicons.insert(name.to_string(), source.clone());
        self.word_sources.insert(name.to_string(), source);
    }
}

impl std::fmt::Debug for ServeConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut names: Vec<&String> = self.lexicons.keys().collect();
        names.sort();
        f.debug_struct("ServeConfig")
            .field("bind", &self.bind)
            .field("port", &self.port)
            .field("database", &crate::store::redact_url(&self.database))
            .field("default_preset", &self.default_preset)
            .field("lexicons", &names)
            .field("default_lexicon", &self.default_lexicon)
            .field("static_dir", &self.static_dir)
            .field("time_scale", &self.time_scale)
            .field("checkpoint_every", &self.checkpoint_every)
            .field("limits", &self.limits)
            .field("net", &self.net)
            .field("quotas", &self.quotas)
            .field("events_dir", &self.events_dir)
            .field("allow_seeds", &self.allow_seeds)
            .field("director_key", &self.director_key.as_ref().map(|_| "***"))
            .finish()
    }
}
