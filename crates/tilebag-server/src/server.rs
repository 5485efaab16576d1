//! The server itself: [`start`] opens the database, restores the unfinished games, binds and
//! serves; [`RunningServer`] says where it listens and stops it.

use crate::config::ServeConfig;
use crate::net::raise_fd_limit;
use crate::{accounts, director, http, net, player_pages, web};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tilebag_live::server_error::ServerError;
use tilebag_live::shutdown::stopped;
use tilebag_live::{health, ids, live};
use tilebag_store as store;
use tokio::sync::watch;

/// A server started by [`start`]: where it listens, and how to stop it.
pub struct RunningServer {
    addr: SocketAddr,
    shutdown: watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
    hub: Arc<live::Hub>,
    director_key: String,
    events_dir: PathBuf,
    connection_cap: usize,
    /// Online events that run themselves (issue 30 item 6).
    entries: Arc<crate::online_events::Entries>,
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

    /// Forfeits the online events' games whose players have not arrived by `now_unix_ms` (NASPA
    /// III.C, WESPA 2.3.5), as the server does every few seconds by the wall clock: the games
    /// forfeited. For tests, which pass the time instead of waiting for it.
    pub async fn check_no_shows(&self, now_unix_ms: i64) -> Vec<String> {
        self.entries.check_no_shows(now_unix_ms).await
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
    let accounts = Arc::new(accounts::Accounts::new(
        store.clone(),
        config.sessions,
        config.secure_cookies,
        config.quotas.signups_per_minute,
    ));
    let hub = live::Hub::new(store, &config.live(), shutdown_rx.clone());
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
    // Online ratings (issue 30 item 3): rates what ended unrated, then every game that ends.
    let (rated_tx, rated_rx) = tokio::sync::mpsc::unbounded_channel();
    hub.report_ends_to(rated_tx);
    let ratings = Arc::new(crate::ratings::OnlineRatings::new(hub.database().clone()))
        .spawn(rated_rx, shutdown_rx.clone());
    // The director's games wait for their players as long as it takes.
    let linked = director.reporter.clone();
    hub.keep_waiting_if(Arc::new(move |id: &str| linked.is_linked(id)));
    // The index of online games first, so a restored game that ends at once is reported.
    director.reporter.collect_all(&hub).await;
    let addr = SocketAddr::new(config.bind, config.port);
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|source| ServerError::Bind { addr, source })?;
    let addr = listener.local_addr()?;
    // One process runs every game: all are restored now. One of several takes the games by
    // lease instead: those nobody runs, within a second (issue 31).
    let _cluster_loop = match &config.nats {
        None => {
            hub.restore_unfinished().await?;
            None
        }
        Some(url) => {
            let joined = tilebag_live::cluster::Cluster::join(
                hub.database(),
                &tilebag_live::cluster::ClusterConfig {
                    nats_url: url.clone(),
                    process: config.process_name.clone(),
                    address: addr.to_string(),
                },
            )
            .await
            .map_err(ServerError::Config)?;
            tracing::info!(
                nats = %tilebag_store::redact_url(url),
                "one of several processes: games are taken by lease"
            );
            Some(hub.join_cluster(joined))
        }
    };
    let cap = net::effective_cap(config.net.max_connections, raise_fd_limit());
    let gate = net::Gate::new(cap, config.net.max_connections_per_address);
    let chat = crate::chat::Chat::new(
        accounts.clone(),
        hub.database().clone(),
        hub.clone(),
        config.net.idle_timeout,
    );
    // Online events that run themselves (issue 30 item 6).
    let entries = Arc::new(crate::online_events::Entries::new(
        director.events().clone(),
        hub.clone(),
        accounts.clone(),
        director.reporter.clone(),
        config.net.idle_timeout,
    ));
    // The lobby: seeks, their stream, rematches (issue 30 item 4).
    let lobby = crate::lobby::Lobby::new(
        hub.clone(),
        accounts.clone(),
        config.lobby,
        config.net.idle_timeout,
    );
    lobby.restore().await;
    // Of several processes: answers to this one's rematch offers given on the others.
    crate::rematch::answer_forwarded(&lobby);
    let lobby_sweep = lobby.spawn_sweep();
    if let Some(c) = hub.cluster() {
        // Back on NATS after losing it: what the other processes' lobbies said meanwhile is
        // read again from the database.
        let (mut state, lobby) = (c.nats.state(), lobby.clone());
        tokio::spawn(async move {
            let mut was_up = matches!(*state.borrow(), tilebag_nats::ConnState::Connected);
            while state.changed().await.is_ok() {
                let up = matches!(
                    *state.borrow_and_update(),
                    tilebag_nats::ConnState::Connected
                );
                if up && !was_up {
                    lobby.resync().await;
                }
                was_up = up;
            }
        });
    }
    let app = http::router(hub.clone(), &config)
        .merge(player_pages::router(director::DirectorState {
            director: director.clone(),
            hub: hub.clone(),
            net: config.net,
        }))
        .merge(director::router(director::DirectorState {
            director: director.clone(),
            hub: hub.clone(),
            net: config.net,
        }))
        .merge({
            let ops = crate::ops::OpsState {
                hub: hub.clone(),
                director,
                gate: gate.clone(),
                started_s: tilebag_store::wall_ms() as f64 / 1000.0,
            };
            crate::ops::router(ops.clone()).merge(crate::operator_health::router(ops))
        })
        .merge(accounts::router(accounts.clone()))
        // Players' profiles (issue 30 item 2).
        .merge(crate::profile::router(Arc::new(
            crate::profile::Profiles::new(hub.database().clone()),
        )))
        .merge(crate::lobby::router(lobby.clone()))
        .merge(crate::rematch::router(lobby))
        .merge(crate::online_events::router(entries.clone()))
        // Chat and its moderation (issue 30 item 5).
        .merge(crate::chat::router(chat.clone()))
        .merge(crate::moderation::router(chat))
        .layer(axum::middleware::map_response(security_headers));
    let checkpoints = hub.clone().spawn_checkpoints(config.checkpoint_every);
    let trim = spawn_memory_trim(shutdown_rx.clone());
    let sessions = accounts.spawn_session_sweep(shutdown_rx.clone());
    let no_shows = entries.spawn_sweep(shutdown_rx.clone());
    let limits = config.net;
    let rx = shutdown_rx.clone();
    let task = tokio::spawn(async move {
        net::serve(listener, app, limits, gate, rx).await;
        checkpoints.abort();
        probe.abort();
        trim.abort();
        sessions.abort();
        no_shows.abort();
        lobby_sweep.abort();
        ratings.abort();
    });
    Ok(RunningServer {
        addr,
        shutdown: shutdown_tx,
        task,
        hub,
        director_key,
        events_dir,
        connection_cap: cap,
        entries,
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
