//! What `tilebag serve` can be told ([`ServeConfig`]), the limits on each WebSocket connection
//! ([`Limits`]), and the lexicons games are judged with ([`Judge`]).

use crate::net::NetLimits;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tilebag_live::config::{Judge, Limits, LiveConfig};
use tilebag_live::quota::Quotas;

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
    /// The leave tables the computer plays a lexicon with, by the lexicon's name (`--leaves
    /// NAME=FILE`: a `.klv2`, `.klv` or text table); the others use the built-in values.
    pub leaves: HashMap<String, Arc<tilebag_engine::LeaveTable>>,
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
    /// When players' sessions end: idle 30 days, at most 90 days after sign-in (tests shorten
    /// it).
    pub sessions: tilebag_accounts::session::SessionPolicy,
    /// The site is served over HTTPS (behind a proxy): cookies get `Secure` and the `__Host-`
    /// names. Off by default, for `http://localhost`.
    pub secure_cookies: bool,
    /// How this process names itself in its log lines (`--process-name`; `tilebag-PID` by
    /// default), so an operator of several can tell their lines apart.
    pub process_name: String,
    /// One of several processes of one service (`cluster.rs` in tilebag-live): the NATS
    /// server they share. `None`: this process runs every game.
    pub nats: Option<String>,
    /// The lobby's limits on seeks and when they expire (`lobby.rs`).
    pub lobby: LobbyLimits,
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
            leaves: HashMap::new(),
            static_dir: None,
            time_scale: 1.0,
            checkpoint_every: Duration::from_secs(2),
            limits: Limits::default(),
            net: NetLimits::default(),
            quotas: Quotas::default(),
            events_dir: None,
            allow_seeds: false,
            director_key: None,
            sessions: tilebag_accounts::session::SessionPolicy::default(),
            secure_cookies: false,
            process_name: crate::logging::default_process_name(),
            nats: None,
            lobby: LobbyLimits::default(),
        }
    }
}

impl ServeConfig {
    /// What the live games need of it.
    pub fn live(&self) -> LiveConfig {
        LiveConfig {
            lexicons: self.lexicons.clone(),
            default_lexicon: self.default_lexicon.clone(),
            default_preset: self.default_preset.clone(),
            word_sources: self.word_sources.clone(),
            leaves: self.leaves.clone(),
            time_scale: self.time_scale,
            limits: self.limits,
            quotas: self.quotas,
            allow_seeds: self.allow_seeds,
        }
    }

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
            .field("database", &tilebag_store::redact_url(&self.database))
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
            .field("sessions", &self.sessions)
            .field("secure_cookies", &self.secure_cookies)
            .finish()
    }
}

// ---- The lobby's limits (issue 30 item 4; used by `lobby.rs`) ----

/// The lobby's limits on seeks, and when an open seek expires.
#[derive(Clone, Copy, Debug)]
pub struct LobbyLimits {
    /// Open seeks one account may have at once (3).
    pub open_per_account: usize,
    /// New seeks (a seek to the computer included) one account may make in a minute (10).
    pub seeks_per_minute: u32,
    /// Open seeks on the server in all (5,000): past it new seeks wait for room.
    pub open_total: usize,
    /// A seek is withdrawn this long after it was made, taken or not (30 minutes).
    pub max_age: Duration,
    /// A seek is withdrawn once its seeker has had no lobby stream open for this long (counted
    /// from the last stream's end, or from the seek if later): they left (60 s).
    pub abandoned_after: Duration,
    /// How often expired seeks and rematch offers are looked for (5 s).
    pub sweep_every: Duration,
}

impl Default for LobbyLimits {
    fn default() -> LobbyLimits {
        LobbyLimits {
            open_per_account: 3,
            seeks_per_minute: 10,
            open_total: 5_000,
            max_age: Duration::from_secs(30 * 60),
            abandoned_after: Duration::from_secs(60),
            sweep_every: Duration::from_secs(5),
        }
    }
}
