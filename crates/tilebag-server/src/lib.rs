//! tilebag-server: the play server's shell. Two people play a tournament-rules game in their
//! browsers, with the clocks kept here, exactly as the presets define it; directors run events
//! on `/td`. This crate speaks HTTP and WebSocket and nothing else: the games live in
//! `tilebag-live`, last in `tilebag-store`, and the pages' HTML is `tilebag-pages`.
//!
//! - [`ServeConfig`], [`run`] (blocking, for the CLI) and [`start`] (async, for tests): the
//!   server itself. `API.md` beside this crate documents every endpoint and message.
//! - `http` (the game API), `ws` (a seat's or a watcher's WebSocket), `analysis`, `web` (the
//!   embedded pages and the judge kiosk), `push` (Server-Sent Events for pages of many games).
//! - `director`: the director's pages (`/td`) over the event files of `tilebag-events`;
//!   `player_pages`: the players' pages (`/events/...`, `/p/...`); `respond`: a page as an
//!   answer; `online_results`: the reporting of online games' results into their events.
//! - `net` and `request_body`: the accept loop, its caps and timeouts, and request bodies.
//! - [`bench`]: the load tool ([`bench_serve`]); [`client`]: the small HTTP/WebSocket client it
//!   and the tests use.

mod accounts;
mod analysis;
mod api_error;
mod app_state;
pub mod bench;
mod chat;
pub mod client;
mod config;
mod director;
mod director_access;
mod fanout;
mod http;
mod lobby;
pub mod lobby_bench;
pub mod logging;
mod moderation;
mod net;
mod online_events;
mod online_results;
mod operator_health;
mod ops;
mod origin;
mod player_pages;
mod profile;
mod push;
mod ratings;
mod rematch;
mod request_body;
mod respond;
mod server;
pub mod web;
mod ws;

pub use bench::{bench_serve, BenchOptions, LoadReport};
pub use config::{LobbyLimits, ServeConfig};
pub use net::{raise_fd_limit, NetLimits};
pub use server::{start, RunningServer};
pub use tilebag_live::config::{Judge, Limits};
pub use tilebag_live::quota::Quotas;
pub use tilebag_live::{protocol, view, ServerError};
pub use tilebag_store as store;

/// A new random secret (32 lower-case letters and digits), as for seat tokens and player keys.
pub fn secret_token() -> String {
    tilebag_live::ids::token()
}

/// Serve until Ctrl-C or SIGTERM (blocking): builds a tokio runtime, prints where it listens.
pub fn run(config: ServeConfig) -> anyhow::Result<()> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    logging::init(&config.process_name)?;
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
