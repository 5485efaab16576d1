//! tilebag-server: the play server. Two people play a tournament-rules game in their browsers,
//! with the clocks kept here, exactly as the presets define it.
//!
//! - [`ServeConfig`], [`run`] (blocking, for the CLI) and [`start`] (async, for tests): the
//!   server itself. `API.md` beside this crate documents every endpoint and message.
//! - `store`: persistence behind the [`store::Store`] trait: SQLite (the default, a file) and
//!   PostgreSQL. A game is stored as (ruleset, seed, events) and rebuilt by replaying its events.
//! - `live`: one task owns each live game, applies events in order, commits each accepted event
//!   before acknowledging or broadcasting it, and lets time act (flags, windows, the game clock).
//! - [`view`]: what each audience may see, built at the source: a seat sees its own rack, an
//!   observer sees no rack, nobody sees the bag's order.
//! - [`protocol`]: the typed JSON messages of the WebSocket.
//! - `director`: the director's pages (`/td`) over the event files of `tilebag-events`;
//!   `player_pages`: the players' pages (`/events/...`, `/p/...`); `pages`: their HTML (maud
//!   templates); `online_results`: the reporting of online games' results into their events.
//! - [`bench`]: the load tool ([`bench_serve`]); [`client`]: the small HTTP/WebSocket client it
//!   and the tests use.

mod analysis;
pub mod bench;
mod bot;
pub mod client;
mod clock;
mod director;
mod director_access;
mod health;
mod http;
mod ids;
mod live;
mod meta;
mod net;
mod online_results;
mod pages;
mod player_pages;
pub mod protocol;
mod push;
mod quota;
mod request_body;
pub mod store;
pub mod view;
pub mod web;
mod ws;

pub use bench::{bench_serve, BenchOptions, LoadReport};
pub use net::{raise_fd_limit, NetLimits};
pub use quota::Quotas;

use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tilebag_core::WordJudge;
use tokio::sync::watch;

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
            .field("database", &store::redact_url(&self.database))
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

/// Why the server could not start or a request could not be served.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("configuration: {0}")]
    Config(String),
    #[error("database: {0}")]
    Store(#[from] store::StoreError),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("I/O: {0}")]
    Io(#[from] std::io::Error),
    #[error("restoring game {game}: {message}")]
    Restore { game: String, message: String },
    #[error("{0}")]
    Other(String),
}

/// A server started by [`start`]: where it listens, and how to stop it.
pub struct RunningServer {
    addr: SocketAddr,
    shutdown: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
    hub: Arc<live::Hub>,
    director_key: String,
    events_dir: PathBuf,
    connection_cap: usize,
}

impl RunningServer {
    /// The address the server listens on (with the real port when 0 was asked for).
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The key the director's pages (`/td`) ask for.
    pub fn director_key(&self) -> &str {
        &self.director_key
    }

    /// The cap on concurrent connections in force (the configured one, lowered to what the
    /// file-descriptor limit allows).
    pub fn connection_cap(&self) -> usize {
        self.connection_cap
    }

    /// Unfinished games that could not be restored at start-up (kept out of play, nothing
    /// deleted), with their reasons.
    pub fn damaged_games(&self) -> Vec<store::DamagedGame> {
        self.hub.damaged()
    }

    /// Event files of the events folder that cannot be read (id, why): listed on `/td`, and
    /// named in the start-up log.
    pub fn damaged_events(&self) -> Vec<(String, String)> {
        tilebag_events::EventsDir::new(&self.events_dir)
            .unreadable()
            .unwrap_or_else(|e| vec![(String::from("(the folder)"), format!("{e:#}"))])
    }

    /// The folder of event files the director's pages work on.
    pub fn events_dir(&self) -> &std::path::Path {
        &self.events_dir
    }

    /// Stop cleanly: stop accepting, close the connections (1001 going away), write a last
    /// clock checkpoint for every live game, and wait for it all.
    pub async fn shutdown(self) {
        let _ = self.shutdown.send(true);
        let _ = self.task.await;
        self.hub.final_checkpoint().await;
        self.hub.stop_games();
    }

    /// Stop at once, as a crash would: no last checkpoint, connections dropped. For tests of
    /// durability (whatever was acknowledged is in the database already).
    pub fn kill(self) {
        self.task.abort();
        self.hub.stop_games();
        let _ = self.shutdown.send(true);
    }
}

/// Start serving on the current tokio runtime: open the database, restore every unfinished
/// game, bind, and return at once. Port 0 picks a free port ([`RunningServer::addr`]).
pub async fn start(config: ServeConfig) -> Result<RunningServer, ServerError> {
    if !(config.time_scale > 0.0 && config.time_scale.is_finite()) {
        return Err(ServerError::Config(format!(
            "time_scale must be a positive number, not {}",
            config.time_scale
        )));
    }
    tilebag_core::Ruleset::preset(&config.default_preset)
        .map_err(|e| ServerError::Config(e.to_string()))?;
    if !config.lexicons.contains_key(&config.default_lexicon) {
        let mut names: Vec<&String> = config.lexicons.keys().collect();
        names.sort();
        return Err(ServerError::Config(format!(
            "the default lexicon {:?} is not loaded (loaded: {names:?})",
            config.default_lexicon
        )));
    }
    let store = health::Monitored::new(store::open(&config.database).await?);
    let (shutdown_tx, shutdown_rx) = watch::channel(false);
    let probe = store.spawn_probe(shutdown_rx.clone());
    let hub = live::Hub::new(store, &config, shutdown_rx.clone());
    let events_dir = config
        .events_dir
        .clone()
        .unwrap_or_else(|| web::beside_database(&config.database, "tilebag-events"));
    let director_key = match &config.director_key {
        Some(k) => {
            let k = k.trim();
            if k.len() < MIN_DIRECTOR_KEY || !k.bytes().all(|b| b.is_ascii_graphic() && b != b';') {
                return Err(ServerError::Config(format!(
                    "the director key must be at least {MIN_DIRECTOR_KEY} printable characters, \
                     without ';' (it was {} long)",
                    k.len()
                )));
            }
            k.to_string()
        }
        None => director_key_file(&web::beside_database(
            &config.database,
            "tilebag-director.key",
        ))?,
    };
    let director = Arc::new(director::Director::new(
        tilebag_events::EventsDir::new(&events_dir),
        director_key.clone(),
    ));
    let (ended_tx, ended_rx) = tokio::sync::mpsc::unbounded_channel();
    hub.report_ends_to(ended_tx);
    director.reporter.spawn(ended_rx);
    // The director's games wait for their players as long as it takes.
    let linked = director.reporter.clone();
    hub.keep_waiting_if(Arc::new(move |id: &str| linked.is_linked(id)));
    // The index of online games first, so a restored game that ends at once is reported.
    director.reporter.collect_all(&hub).await;
    hub.restore_unfinished().await?;
    let addr = SocketAddr::new(config.bind, config.port);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| ServerError::Bind { addr, source })?;
    let addr = listener.local_addr()?;
    let app = http::router(hub.clone(), &config)
        .merge(player_pages::router(director::DirectorState {
            director: director.clone(),
            hub: hub.clone(),
        }))
        .merge(director::router(director, hub.clone()))
        .layer(axum::middleware::map_response(security_headers));
    let checkpoints = hub.clone().spawn_checkpoints(config.checkpoint_every);
    let trim = spawn_memory_trim(shutdown_rx.clone());
    let cap = net::effective_cap(config.net.max_connections, raise_fd_limit());
    let gate = net::Gate::new(cap, config.net.max_connections_per_address);
    let limits = config.net;
    let rx = shutdown_rx.clone();
    let task = tokio::spawn(async move {
        net::serve(listener, app, limits, gate, rx).await;
        checkpoints.abort();
        probe.abort();
        trim.abort();
    });
    Ok(RunningServer {
        addr,
        shutdown: shutdown_tx,
        task,
        hub,
        director_key,
        events_dir,
        connection_cap: cap,
    })
}

/// How often freed memory is handed back to the system.
const TRIM_EVERY: Duration = Duration::from_secs(10);

/// After an attack (thousands of connections, each with its buffers) the allocator keeps the
/// freed memory for reuse, and the process stays as large as at its peak. glibc's allocator
/// gives it back only when asked: ask every [`TRIM_EVERY`] (a few milliseconds on a blocking
/// thread; nothing to do where there is no glibc).
fn spawn_memory_trim(mut stop: watch::Receiver<bool>) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(TRIM_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                _ = tick.tick() => {}
                _ = stopped(&mut stop) => return,
            }
            let _ = tokio::task::spawn_blocking(trim_memory).await;
        }
    })
}

fn trim_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only walks the allocator's own free lists.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The security headers every answer carries. The policy fits the embedded pages: scripts are
/// ES modules from `/assets` (no inline script), styles are files plus the director pages' own
/// `<style>` and `style=` attributes, the WebSocket is same-origin. Nobody may frame a page
/// (clickjacking a seat), and no page sends a `Referer` to another site (a seat link holds its
/// token).
async fn security_headers(mut r: axum::response::Response) -> axum::response::Response {
    use axum::http::{header, HeaderValue};
    let h = r.headers_mut();
    let set = |h: &mut axum::http::HeaderMap, name, value: &'static str| {
        if !h.contains_key(&name) {
            h.insert(name, HeaderValue::from_static(value));
        }
    };
    set(
        h,
        header::CONTENT_SECURITY_POLICY,
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; \
         form-action 'self'; frame-ancestors 'none'",
    );
    set(h, header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(h, header::X_FRAME_OPTIONS, "DENY");
    // Same-origin: other sites get no `Referer` (a seat link holds its token), while our own
    // forms keep their `Origin` (with `no-referrer` browsers send `Origin: null`).
    set(h, header::REFERRER_POLICY, "same-origin");
    r
}

/// A new random secret (32 lower-case letters and digits), as for seat tokens and player keys.
pub fn secret_token() -> String {
    ids::token()
}

/// The shortest director key `serve` accepts (a generated one has 32 characters).
const MIN_DIRECTOR_KEY: usize = 16;

/// Reads the director key from `path`, or creates the file with a new random key (readable by
/// its owner only).
fn director_key_file(path: &std::path::Path) -> Result<String, ServerError> {
    let unusable = || {
        ServerError::Config(format!(
            "{} holds no usable director key (at least {MIN_DIRECTOR_KEY} characters); delete it \
             to get a new one",
            path.display()
        ))
    };
    match std::fs::read_to_string(path) {
        Ok(k) if k.trim().len() >= MIN_DIRECTOR_KEY => return Ok(k.trim().to_string()),
        Ok(_) => return Err(unusable()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => {
            return Err(ServerError::Config(format!(
                "cannot read {}: {e}",
                path.display()
            )))
        }
    }
    let key = ids::token();
    let mut opts = std::fs::OpenOptions::new();
    opts.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut opts, 0o600);
    use std::io::Write as _;
    opts.open(path)
        .and_then(|mut f| writeln!(f, "{key}"))
        .map_err(|e| ServerError::Config(format!("cannot write {}: {e}", path.display())))?;
    Ok(key)
}

/// Serve until Ctrl-C or SIGTERM (blocking): builds a tokio runtime, prints where it listens.
pub fn run(config: ServeConfig) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let db = store::redact_url(&config.database);
        let net = config.net;
        let key_file = config
            .director_key
            .is_none()
            .then(|| web::beside_database(&config.database, "tilebag-director.key"));
        let server = start(config).await?;
        // Not println!: a closed stdout (a parent that read the first line and left) must not
        // stop the server.
        say(&format!(
            "tilebag serve: listening on http://{} (database {db})",
            server.addr()
        ));
        for d in server.damaged_games() {
            say(&format!(
                "tilebag serve: game {} is kept out of play (nothing deleted; listed on /td): {}",
                d.id, d.reason
            ));
        }
        for (id, why) in server.damaged_events() {
            say(&format!(
                "tilebag serve: event file {id} cannot be read (nothing changed; listed on /td): \
                 {why}"
            ));
        }
        // Never the key itself: logs are collected and shared.
        let key_from = match &key_file {
            Some(path) => format!(
                "the key is in {} (print it with `cat {}`)",
                path.display(),
                path.display()
            ),
            None => "the key is the one given with --director-key".to_string(),
        };
        say(&format!(
            "tilebag serve: director pages at http://{}/td ({key_from}; events in {})",
            server.addr(),
            server.events_dir().display()
        ));
        let per = match net.max_connections_per_address {
            0 => "no per-address cap".to_string(),
            n => format!("{n} per address"),
        };
        say(&format!(
            "tilebag serve: at most {} connections ({per}); headers within {} s, idle HTTP \
             connections closed after {} s, silent WebSockets after {} s",
            server.connection_cap(),
            net.header_timeout.as_secs_f64(),
            net.idle_timeout.as_secs_f64(),
            net.ws_silence.as_secs_f64()
        ));
        wait_for_signal().await;
        say("tilebag serve: shutting down");
        server.shutdown().await;
        Ok(())
    })
}

fn say(line: &str) {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "{line}");
    let _ = out.flush();
}

/// Resolves once shutdown is signalled (or the sender is gone).
pub(crate) async fn stopped(rx: &mut watch::Receiver<bool>) {
    let _ = rx.wait_for(|stop| *stop).await;
}

async fn wait_for_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {}
        _ = term => {}
    }
}
