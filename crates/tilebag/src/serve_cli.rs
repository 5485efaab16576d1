//! `tilebag serve` and `tilebag backup`: the play server's settings read from the command line,
//! and a safe copy of its SQLite database.

use anyhow::{Context, Result};
use clap::Args;
use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;
use tilebag_server::{NetLimits, Quotas, ServeConfig};

/// The settings of `tilebag serve` (its help is the command's, in `main.rs`).
#[derive(Args)]
pub struct ServeArgs {
    /// Port to listen on.
    #[arg(long, env = "TILEBAG_PORT", default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on.
    #[arg(long, env = "TILEBAG_BIND", default_value = "127.0.0.1")]
    pub bind: std::net::IpAddr,
    /// A SQLite file, or `postgres://user:password@host/db` for PostgreSQL.
    #[arg(long, env = "TILEBAG_DATABASE", default_value = "tilebag.db")]
    pub database: String,
    /// The preset of games created without one.
    #[arg(long, env = "TILEBAG_PRESET", default_value = "naspa-2013")]
    pub preset: String,
    /// Another lexicon games may choose, as NAME=PATH (a built file, a word list or a
    /// layered config). Repeatable. The built-in ENABLE is always available as `enable1`.
    #[arg(long = "lexicon", value_name = "NAME=PATH")]
    pub lexicons: Vec<String>,
    /// The leave table the computer plays lexicon NAME with (a `.klv2` or `.klv` file as
    /// other engines ship them, or a text table), as NAME=FILE; repeatable. Without it, the
    /// built-in values.
    #[arg(long = "leaves", value_name = "NAME=FILE")]
    pub leaves: Vec<String>,
    /// The lexicon of games created without one.
    #[arg(long, env = "TILEBAG_DEFAULT_LEXICON", default_value = "enable1")]
    pub default_lexicon: String,
    /// The folder of event files the director's pages (/td) work on; `tilebag td` works on
    /// the same files. Default: `tilebag-events` beside the database. Several processes of
    /// one service (--nats) must all name the same folder: on one machine, the same path; on
    /// several machines, a folder they share (e.g. NFS), since the event files and the
    /// director's sign-outs are kept there, not in the database.
    #[arg(long = "events", env = "TILEBAG_EVENTS", value_name = "DIR")]
    pub events_dir: Option<std::path::PathBuf>,
    /// The key the director's pages ask for (at least 16 characters). Default: the one in
    /// `tilebag-director.key` beside the database, made at random on first start (the log
    /// names the file, never the key). Signing in issues a session; after 10 wrong keys in a
    /// minute from one address, or 100 from all, sign-in is refused for the rest of the
    /// minute (directors already signed in are not affected).
    #[arg(long, env = "TILEBAG_DIRECTOR_KEY", hide_env_values = true)]
    pub director_key: Option<String>,
    /// Let whoever creates a game choose the bag's seed (for tests, benchmarks and
    /// analysis). Off by default: whoever knows the seed knows both racks. Seeded games are
    /// marked as such in every view and in their GCG.
    #[arg(long)]
    pub allow_seeds: bool,
    /// Concurrent connections in all (HTTP and WebSocket); lowered at start-up to what the
    /// open-file limit allows (the soft limit is first raised to the hard limit). Past it a
    /// new connection gets 503 at once.
    #[arg(long, value_name = "N", default_value_t = 10_000)]
    pub max_connections: usize,
    /// Concurrent connections from one source address (0: no cap; behind a reverse proxy
    /// every connection comes from the proxy).
    #[arg(long, value_name = "N", default_value_t = 256)]
    pub max_connections_per_address: usize,
    /// Seconds a client may take to send a request's headers, from its first byte.
    #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
    pub header_timeout: f64,
    /// Seconds an HTTP connection may stay open with no request and no traffic.
    #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
    pub idle_timeout: f64,
    /// Seconds a client may take to send a whole request, headers and body, from its first
    /// byte; past it `408` and the connection is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 20.0)]
    pub request_timeout: f64,
    /// Bytes a second a request body must average once it has taken 3 seconds (0: no
    /// minimum); slower, `408` and the connection is closed.
    #[arg(long, value_name = "BYTES", default_value_t = 1000)]
    pub min_body_rate: u64,
    /// Seconds after which a WebSocket that has sent nothing, not even the pong a browser
    /// returns to the server's ping (sent every third of this), is closed.
    #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
    pub ws_silence: f64,
    /// Games one address may create a minute (as many at once); past it `429`. 0: no limit.
    #[arg(long, value_name = "N", default_value_t = 30)]
    pub games_per_minute: u32,
    /// Word-judge requests (`POST /api/judge`, each one logged) one address may make a
    /// minute. 0: no limit.
    #[arg(long, value_name = "N", default_value_t = 60)]
    pub judge_per_minute: u32,
    /// Score-sheet checks (`POST /api/gcg/verify`) one address may make a minute. 0: no
    /// limit.
    #[arg(long, value_name = "N", default_value_t = 120)]
    pub verify_per_minute: u32,
    /// Players' accounts one address may create a minute (sign-up must say when a name is
    /// taken; this keeps it from testing names in bulk). 0: no limit.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub signups_per_minute: u32,
    /// The site is served over HTTPS (behind a reverse proxy): players' cookies get
    /// `Secure` and `__Host-` names.
    #[arg(long)]
    pub secure_cookies: bool,
    /// How this process names itself on every log line (`process=NAME`; default
    /// `tilebag-PID`). The log is on standard error, filtered by `TILEBAG_LOG` (like
    /// `RUST_LOG`: `warn`, `tilebag_live=debug,info`; default `info`).
    #[arg(long, value_name = "NAME", env = "TILEBAG_PROCESS")]
    pub process_name: Option<String>,
    /// Run as one of several processes of one service: `nats://HOST:PORT` of the NATS
    /// server they share (Debian's `nats-server`), with `--database postgres://...` the
    /// database they share. Each live game is run by one process at a time (a lease in
    /// the database, renewed every second; a process that dies has its games taken over
    /// by the others within a few seconds); a client may reach any process. Give each
    /// process its own `--process-name`. NATS may come up after the process: until it
    /// answers, the process refuses games and `/api/health` says why. Without it, one
    /// process runs every game.
    #[arg(long, value_name = "URL", env = "TILEBAG_NATS")]
    pub nats: Option<String>,
    /// Games created from the lobby or the API that have not started yet, at most; past it
    /// creating one answers `503`. The director's games are not counted. 0: no cap.
    #[arg(long, value_name = "N", default_value_t = 3000)]
    pub max_waiting_games: usize,
    /// Of those, at most this many created from one address (an IPv6 address counts by its
    /// /64); past it `429`. 0: no cap.
    #[arg(long, value_name = "N", default_value_t = 3)]
    pub max_waiting_per_address: usize,
    /// Minutes after which a game from the lobby or the API that nobody started expires (it
    /// can no longer be joined; nothing is deleted). The director's games never expire.
    #[arg(long, value_name = "MINUTES", default_value_t = 60.0)]
    pub unjoined_expiry: f64,
    /// Minutes after which such a game expires if nobody has even opened its page (no seat
    /// has connected).
    #[arg(long, value_name = "MINUTES", default_value_t = 10.0)]
    pub unopened_expiry: f64,
}

/// `tilebag serve`: the settings checked and gathered, then the server run until stopped.
pub fn serve(args: ServeArgs) -> Result<ExitCode> {
    let quotas = quotas(&args)?;
    let net = net_limits(&args)?;
    let mut config = ServeConfig {
        bind: args.bind,
        port: args.port,
        database: args.database,
        default_preset: args.preset,
        default_lexicon: args.default_lexicon,
        events_dir: args.events_dir,
        director_key: args.director_key,
        allow_seeds: args.allow_seeds,
        net,
        quotas,
        secure_cookies: args.secure_cookies,
        process_name: args
            .process_name
            .unwrap_or_else(tilebag_server::logging::default_process_name),
        nats: args.nats,
        ..Default::default()
    };
    add_lexicons(&mut config, &args.lexicons)?;
    add_leave_tables(&mut config, &args.leaves)?;
    tilebag_server::run(config)?;
    Ok(ExitCode::SUCCESS)
}

/// What one address (and everyone) may ask for, and how long an unstarted game waits.
fn quotas(args: &ServeArgs) -> Result<Quotas> {
    for (name, v) in [
        ("unjoined-expiry", args.unjoined_expiry),
        ("unopened-expiry", args.unopened_expiry),
    ] {
        if !(v.is_finite() && (0.1..=525_600.0).contains(&v)) {
            anyhow::bail!("--{name} must be between 0.1 and 525600 minutes, not {v}");
        }
    }
    Ok(Quotas {
        games_per_minute: args.games_per_minute,
        judge_per_minute: args.judge_per_minute,
        verify_per_minute: args.verify_per_minute,
        signups_per_minute: args.signups_per_minute,
        max_waiting_games: args.max_waiting_games,
        max_waiting_per_address: args.max_waiting_per_address,
        unjoined_expiry: Duration::from_secs_f64(args.unjoined_expiry * 60.0),
        unopened_expiry: Duration::from_secs_f64(args.unopened_expiry * 60.0),
    })
}

/// The limits on connections: how many, and how slow or silent a client may be.
fn net_limits(args: &ServeArgs) -> Result<NetLimits> {
    let secs = |name: &str, v: f64| -> Result<Duration> {
        if !(v.is_finite() && (0.1..=86_400.0).contains(&v)) {
            anyhow::bail!("--{name} must be between 0.1 and 86400 seconds, not {v}");
        }
        Ok(Duration::from_secs_f64(v))
    };
    if args.max_connections == 0 {
        anyhow::bail!("--max-connections must be at least 1");
    }
    let ws_silence = secs("ws-silence", args.ws_silence)?;
    Ok(NetLimits {
        max_connections: args.max_connections,
        max_connections_per_address: args.max_connections_per_address,
        header_timeout: secs("header-timeout", args.header_timeout)?,
        idle_timeout: secs("idle-timeout", args.idle_timeout)?,
        request_timeout: secs("request-timeout", args.request_timeout)?,
        min_body_rate: args.min_body_rate,
        ws_ping_every: ws_silence / 3,
        ws_silence,
        ..NetLimits::default()
    })
}

/// The lexicons games may choose (`--lexicon NAME=PATH`), beside the built-in `enable1`. Each
/// judges words and is what the computer plays (and analyses) with.
fn add_lexicons(config: &mut ServeConfig, specs: &[String]) -> Result<()> {
    config.add_word_source("enable1", tilebag_lexicon::WordSource::builtin());
    for spec in specs {
        let (name, path) = spec.split_once('=').with_context(|| {
            format!("--lexicon {spec:?}: expected NAME=PATH, e.g. csw21=/data/CSW21.txt")
        })?;
        let source = tilebag_lexicon::open_lexicon(path)?;
        config.add_word_source(name, source);
    }
    Ok(())
}

/// The leave table the computer plays a lexicon with (`--leaves NAME=FILE`), for a lexicon
/// already loaded.
fn add_leave_tables(config: &mut ServeConfig, specs: &[String]) -> Result<()> {
    for spec in specs {
        let (name, path) = spec.split_once('=').with_context(|| {
            format!("--leaves {spec:?}: expected NAME=FILE, e.g. enable1=leaves.klv2")
        })?;
        if !config.word_sources.contains_key(name) {
            let mut known: Vec<&String> = config.word_sources.keys().collect();
            known.sort();
            anyhow::bail!("--leaves {spec:?}: no lexicon {name:?} (loaded: {known:?})");
        }
        let table = tilebag_engine::LeaveTable::read_file(Path::new(path))
            .with_context(|| format!("--leaves {spec:?}"))?;
        config
            .leaves
            .insert(name.to_string(), std::sync::Arc::new(table));
    }
    Ok(())
}

/// `tilebag backup`: the online backup API copies every page as one consistent snapshot
/// (including what is still in the WAL) into a temporary file beside `output`, which is checked
/// and then renamed into place: a failed backup leaves nothing behind.
pub fn backup(database: &Path, output: &Path) -> Result<ExitCode> {
    use rusqlite::{Connection, OpenFlags};
    if database.to_str().is_some_and(|d| d.starts_with("postgres")) {
        anyhow::bail!(
            "{}: `tilebag backup` copies a SQLite database; for PostgreSQL use pg_dump",
            database.display()
        );
    }
    if output.exists() {
        anyhow::bail!("{} exists already: name a new file", output.display());
    }
    // Read-only, and never created: a mistyped path is an error, not an empty backup.
    let src = Connection::open_with_flags(
        database,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
    .with_context(|| format!("cannot open {}", database.display()))?;
    let name = output
        .file_name()
        .with_context(|| format!("{}: not a file name", output.display()))?;
    let partial = output.with_file_name(format!(".{}.partial", name.to_string_lossy()));
    let _ = std::fs::remove_file(&partial);
    let result = (|| -> Result<Option<i64>> {
        let mut dst = Connection::open(&partial)
            .with_context(|| format!("cannot write {}", partial.display()))?;
        {
            use rusqlite::backup::StepResult;
            let b = rusqlite::backup::Backup::new(&src, &mut dst)?;
            // All pages in one step: one consistent snapshot, even while the server writes. A
            // busy database (a checkpoint in progress) is tried again for a few seconds.
            let mut tries = 0;
            loop {
                match b
                    .step(-1)
                    .with_context(|| format!("backing up {}", database.display()))?
                {
                    StepResult::Done => break,
                    StepResult::More => continue,
                    _ if tries < 100 => {
                        tries += 1;
                        std::thread::sleep(std::time::Duration::from_millis(50));
                    }
                    _ => anyhow::bail!("{} stayed busy for 5 s", database.display()),
                }
            }
        }
        let check: String = dst.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
        if check != "ok" {
            anyhow::bail!("the copy failed its integrity check: {check}");
        }
        // A server database counts its games; an event file has none.
        let games: Option<i64> = dst
            .query_row("SELECT COUNT(*) FROM games", [], |r| r.get(0))
            .ok();
        dst.close().map_err(|(_, e)| e)?;
        Ok(games)
    })();
    let games = match result {
        Ok(g) => g,
        Err(e) => {
            let _ = std::fs::remove_file(&partial);
            return Err(e);
        }
    };
    std::fs::rename(&partial, output).with_context(|| {
        let _ = std::fs::remove_file(&partial);
        format!("cannot write {}", output.display())
    })?;
    let what = games.map_or(String::new(), |n| format!(" ({n} games)"));
    println!(
        "backed up {}{what} to {}",
        database.display(),
        output.display()
    );
    Ok(ExitCode::SUCCESS)
}
