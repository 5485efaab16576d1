//! The `tilebag` command line: a thin shell around tilebag-core.

mod accounts_cli;
mod engine_cli;
mod judge;
mod td;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tilebag_core::gcg::{parse_gcg, GcgRecord};
use tilebag_core::replay::{verify_record, Completion, Replayer};
use tilebag_core::ruleset::Ruleset;
use tilebag_core::{Board, Layout, Square, TileSet};

#[derive(Parser)]
#[command(
    name = "tilebag",
    version,
    about = "Tournament crossword games: rules engine, records and direction"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the play server: games in the browser, clocks kept by the server, every action
    /// committed to the database before it is acknowledged.
    Serve {
        /// Port to listen on.
        #[arg(long, env = "TILEBAG_PORT", default_value_t = 8080)]
        port: u16,
        /// Address to listen on.
        #[arg(long, env = "TILEBAG_BIND", default_value = "127.0.0.1")]
        bind: std::net::IpAddr,
        /// A SQLite file, or `postgres://user:password@host/db` for PostgreSQL.
        #[arg(long, env = "TILEBAG_DATABASE", default_value = "tilebag.db")]
        database: String,
        /// The preset of games created without one.
        #[arg(long, env = "TILEBAG_PRESET", default_value = "naspa-2013")]
        preset: String,
        /// Another lexicon games may choose, as NAME=PATH (a built file, a word list or a
        /// layered config). Repeatable. The built-in ENABLE is always available as `enable1`.
        #[arg(long = "lexicon", value_name = "NAME=PATH")]
        lexicons: Vec<String>,
        /// The leave table the computer plays lexicon NAME with (a `.klv2` or `.klv` file as
        /// other engines ship them, or a text table), as NAME=FILE; repeatable. Without it, the
        /// built-in values.
        #[arg(long = "leaves", value_name = "NAME=FILE")]
        leaves: Vec<String>,
        /// The lexicon of games created without one.
        #[arg(long, env = "TILEBAG_DEFAULT_LEXICON", default_value = "enable1")]
        default_lexicon: String,
        /// The folder of event files the director's pages (/td) work on; `tilebag td` works on
        /// the same files. Default: `tilebag-events` beside the database. Several processes of
        /// one service (--nats) must all name the same folder: on one machine, the same path; on
        /// several machines, a folder they share (e.g. NFS), since the event files and the
        /// director's sign-outs are kept there, not in the database.
        #[arg(long = "events", env = "TILEBAG_EVENTS", value_name = "DIR")]
        events_dir: Option<std::path::PathBuf>,
        /// The key the director's pages ask for (at least 16 characters). Default: the one in
        /// `tilebag-director.key` beside the database, made at random on first start (the log
        /// names the file, never the key). Signing in issues a session; after 10 wrong keys in a
        /// minute from one address, or 100 from all, sign-in is refused for the rest of the
        /// minute (directors already signed in are not affected).
        #[arg(long, env = "TILEBAG_DIRECTOR_KEY", hide_env_values = true)]
        director_key: Option<String>,
        /// Let whoever creates a game choose the bag's seed (for tests, benchmarks and
        /// analysis). Off by default: whoever knows the seed knows both racks. Seeded games are
        /// marked as such in every view and in their GCG.
        #[arg(long)]
        allow_seeds: bool,
        /// Concurrent connections in all (HTTP and WebSocket); lowered at start-up to what the
        /// open-file limit allows (the soft limit is first raised to the hard limit). Past it a
        /// new connection gets 503 at once.
        #[arg(long, value_name = "N", default_value_t = 10_000)]
        max_connections: usize,
        /// Concurrent connections from one source address (0: no cap; behind a reverse proxy
        /// every connection comes from the proxy).
        #[arg(long, value_name = "N", default_value_t = 256)]
        max_connections_per_address: usize,
        /// Seconds a client may take to send a request's headers, from its first byte.
        #[arg(long, value_name = "SECONDS", default_value_t = 10.0)]
        header_timeout: f64,
        /// Seconds an HTTP connection may stay open with no request and no traffic.
        #[arg(long, value_name = "SECONDS", default_value_t = 30.0)]
        idle_timeout: f64,
        /// Seconds a client may take to send a whole request, headers and body, from its first
        /// byte; past it `408` and the connection is closed.
        #[arg(long, value_name = "SECONDS", default_value_t = 20.0)]
        request_timeout: f64,
        /// Bytes a second a request body must average once it has taken 3 seconds (0: no
        /// minimum); slower, `408` and the connection is closed.
        #[arg(long, value_name = "BYTES", default_value_t = 1000)]
        min_body_rate: u64,
        /// Seconds after which a WebSocket that has sent nothing, not even the pong a browser
        /// returns to the server's ping (sent every third of this), is closed.
        #[arg(long, value_name = "SECONDS", default_value_t = 60.0)]
        ws_silence: f64,
        /// Games one address may create a minute (as many at once); past it `429`. 0: no limit.
        #[arg(long, value_name = "N", default_value_t = 30)]
        games_per_minute: u32,
        /// Word-judge requests (`POST /api/judge`, each one logged) one address may make a
        /// minute. 0: no limit.
        #[arg(long, value_name = "N", default_value_t = 60)]
        judge_per_minute: u32,
        /// Score-sheet checks (`POST /api/gcg/verify`) one address may make a minute. 0: no
        /// limit.
        #[arg(long, value_name = "N", default_value_t = 120)]
        verify_per_minute: u32,
        /// Players' accounts one address may create a minute (sign-up must say when a name is
        /// taken; this keeps it from testing names in bulk). 0: no limit.
        #[arg(long, value_name = "N", default_value_t = 5)]
        signups_per_minute: u32,
        /// The site is served over HTTPS (behind a reverse proxy): players' cookies get
        /// `Secure` and `__Host-` names.
        #[arg(long)]
        secure_cookies: bool,
        /// How this process names itself on every log line (`process=NAME`; default
        /// `tilebag-PID`). The log is on standard error, filtered by `TILEBAG_LOG` (like
        /// `RUST_LOG`: `warn`, `tilebag_live=debug,info`; default `info`).
        #[arg(long, value_name = "NAME", env = "TILEBAG_PROCESS")]
        process_name: Option<String>,
        /// Run as one of several processes of one service: `nats://HOST:PORT` of the NATS
        /// server they share (Debian's `nats-server`), with `--database postgres://...` the
        /// database they share. Each live game is run by one process at a time (a lease in
        /// the database, renewed every second; a process that dies has its games taken over
        /// by the others within a few seconds); a client may reach any process. Give each
        /// process its own `--process-name`. NATS may come up after the process: until it
        /// answers, the process refuses games and `/api/health` says why. Without it, one
        /// process runs every game.
        #[arg(long, value_name = "URL", env = "TILEBAG_NATS")]
        nats: Option<String>,
        /// Games created from the lobby or the API that have not started yet, at most; past it
        /// creating one answers `503`. The director's games are not counted. 0: no cap.
        #[arg(long, value_name = "N", default_value_t = 3000)]
        max_waiting_games: usize,
        /// Of those, at most this many created from one address (an IPv6 address counts by its
        /// /64); past it `429`. 0: no cap.
        #[arg(long, value_name = "N", default_value_t = 3)]
        max_waiting_per_address: usize,
        /// Minutes after which a game from the lobby or the API that nobody started expires (it
        /// can no longer be joined; nothing is deleted). The director's games never expire.
        #[arg(long, value_name = "MINUTES", default_value_t = 60.0)]
        unjoined_expiry: f64,
        /// Minutes after which such a game expires if nobody has even opened its page (no seat
        /// has connected).
        #[arg(long, value_name = "MINUTES", default_value_t = 10.0)]
        unopened_expiry: f64,
    },
    /// Copy the server's SQLite database, safely while the server runs (SQLite's online
    /// backup: acknowledged moves still in the `-wal` file are included, which copying
    /// `tilebag.db` alone would lose). For PostgreSQL use `pg_dump`.
    Backup {
        /// The SQLite database (as given to `serve --database`).
        #[arg(long, default_value = "tilebag.db")]
        database: PathBuf,
        /// The copy to write (must not exist yet).
        #[arg(short, long)]
        output: PathBuf,
    },
    /// Accounts: make a moderator.
    Accounts {
        #[command(subcommand)]
        command: accounts_cli::AccountsCommand,
    },
    /// Tournament direction: divisions, players, pairings, results, standings, exports.
    Td {
        #[command(subcommand)]
        command: td::TdCommand,
    },
    /// Benchmarks.
    Bench {
        #[command(subcommand)]
        command: BenchCommand,
    },
    /// Game records (GCG).
    Gcg {
        #[command(subcommand)]
        command: GcgCommand,
    },
    /// Ruleset presets.
    Rules {
        #[command(subcommand)]
        command: RulesCommand,
    },
    /// Word lists: build a lexicon file, describe one.
    Lexicon {
        #[command(subcommand)]
        command: LexiconCommand,
    },
    /// The best moves for a position: a CGP line, or a game record and --turn N.
    Moves(engine_cli::MovesArgs),
    /// Analyse a game record: each move against the best moves the engine finds.
    Analyze(engine_cli::AnalyzeArgs),
    /// Play games between two bots; write their GCG; report win rate and speed.
    Selfplay(engine_cli::SelfplayArgs),
    /// Leave values: learn them by self-play; convert leave files (.klv2, .klv, text).
    Leaves {
        #[command(subcommand)]
        command: engine_cli::LeavesCommand,
    },
    /// The word judge for a tournament room (NASPA IV.J.1): one verdict for the whole play.
    /// Without --words it runs full-screen: type the words, press Tab or Enter.
    Judge {
        /// A built lexicon file, a plain word list or a layered config (default: built-in ENABLE).
        #[arg(long)]
        lexicon: Option<PathBuf>,
        /// Judge these words and exit: 0 when the play is acceptable, 1 when it is not.
        #[arg(long, num_args = 1..)]
        words: Option<Vec<String>>,
        /// Where every adjudication is appended.
        #[arg(long, default_value = "tilebag-judge.log")]
        log: PathBuf,
        /// Seconds the verdict stays on screen.
        #[arg(long, default_value_t = 5)]
        clear_after: u64,
    },
}

#[derive(Subcommand)]
enum BenchCommand {
    /// Generate every move (or the best by score, --top 1) for each CGP line of a file, on one
    /// thread; print positions, placements, placements per second and µs per position.
    Movegen(engine_cli::BenchMovegenArgs),
    /// Play out empty-bag endgames from each CGP line of a file (a line with tiles in the bag
    /// is made bag-empty: the opponent holds seven of the unseen tiles, drawn with a fixed seed)
    /// with the simulating level's deeper endgame search in one seat and the two-ply search in
    /// both seats; print what the deeper search gains, with its confidence interval.
    Endgame(engine_cli::BenchEndgameArgs),
    /// The lobby's figure: a lobby of --seeks open seeks watched by --watchers streams, on a
    /// server started in-process; report the time from a new seek to every watcher seeing it
    /// (p50, p99).
    Lobby {
        /// Seeks made, one after another (three per seeker's account).
        #[arg(long, default_value_t = 1000)]
        seeks: usize,
        /// Lobby streams open, watching.
        #[arg(long, default_value_t = 1000)]
        watchers: usize,
    },
    /// Play N concurrent games over loopback WebSockets with legal moves; report throughput and
    /// the p50/p99 latency from sending an action to its acknowledgement.
    Serve {
        /// Concurrent games.
        #[arg(long, default_value_t = 100)]
        games: usize,
        /// A running server, or several processes of one service as A,B,C: each game is created
        /// on one address and its two seats connect to the next ones, round robin (default:
        /// start one server in-process with a temporary SQLite file). A separate server for the
        /// bench wants `--games-per-minute 0 --max-waiting-games 0 --max-waiting-per-address 0
        /// --max-connections-per-address 0` and enough `--max-connections`.
        #[arg(long, value_delimiter = ',')]
        addr: Vec<std::net::SocketAddr>,
        /// The servers' director key: read each address's `/metrics` before and after the run
        /// and report each process's CPU time per action acknowledged.
        #[arg(long, env = "TILEBAG_DIRECTOR_KEY")]
        metrics_key: Option<String>,
        /// Mean thinking time per action, in milliseconds (0 plays flat out).
        #[arg(long, default_value_t = 1000)]
        think_ms: u64,
        /// The preset of every game.
        #[arg(long, default_value = "naspa-2013")]
        preset: String,
        /// Play random real words found by the engine (built-in ENABLE list) instead of random
        /// placements of any letters (mostly phonies: the default, lighter on the clients).
        #[arg(long)]
        words: bool,
    },
}

#[derive(Subcommand)]
enum LexiconCommand {
    /// Compile a word list (any case, LF or CRLF, `#` comments) into one binary lexicon file.
    Build {
        words: PathBuf,
        #[arg(short, long)]
        output: PathBuf,
        /// The name stored in the file (default: the word list's file name).
        #[arg(long)]
        name: Option<PathBuf>,
    },
    /// Word count, counts by length, file size and what the list appears to be.
    Info { file: PathBuf },
}

#[derive(Subcommand)]
enum GcgCommand {
    /// Replay each record through the engine and check every placement, score and cumulative
    /// score. Exits 0 only if every file agrees.
    Verify {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Also list each word played that this lexicon does not contain (never fails the
        /// replay). A built file, a plain word list or a layered config.
        #[arg(long)]
        lexicon: Option<PathBuf>,
    },
    /// Print the board, racks and scores after a turn.
    Show {
        file: PathBuf,
        /// Show the position after this many events (default: the end).
        #[arg(long)]
        turn: Option<usize>,
        /// Print the position as one CGP line (for macondo, MAGPIE, wolges and `tilebag moves`).
        #[arg(long)]
        cgp: bool,
    },
}

#[derive(Subcommand)]
enum RulesCommand {
    /// List the presets.
    List,
    /// Print every parameter of a preset with its rule number.
    Show {
        preset: String,
        /// An organiser's choice the book leaves open, as KEY=VALUE (repeatable): end-rack
        /// (WESPA 5.1.4), challenge (WESPA 3.10.15(b), NASPA VI.B.3, NSA VI.B.2),
        /// resignation-option (NASPA I.B, NSA I.B).
        #[arg(long = "rule", value_name = "KEY=VALUE")]
        rules: Vec<String>,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Serve {
            port,
            bind,
            database,
            preset,
            lexicons,
            leaves,
            default_lexicon,
            events_dir,
            director_key,
            allow_seeds,
            max_connections,
            max_connections_per_address,
            header_timeout,
            idle_timeout,
            request_timeout,
            min_body_rate,
            ws_silence,
            games_per_minute,
            judge_per_minute,
            verify_per_minute,
            signups_per_minute,
            secure_cookies,
            process_name,
            nats,
            max_waiting_games,
            max_waiting_per_address,
            unjoined_expiry,
            unopened_expiry,
        } => {
            for (name, v) in [
                ("unjoined-expiry", unjoined_expiry),
                ("unopened-expiry", unopened_expiry),
            ] {
                if !(v.is_finite() && (0.1..=525_600.0).contains(&v)) {
                    anyhow::bail!("--{name} must be between 0.1 and 525600 minutes, not {v}");
                }
            }
            let quotas = tilebag_server::Quotas {
                games_per_minute,
                judge_per_minute,
                verify_per_minute,
                signups_per_minute,
                max_waiting_games,
                max_waiting_per_address,
                unjoined_expiry: std::time::Duration::from_secs_f64(unjoined_expiry * 60.0),
                unopened_expiry: std::time::Duration::from_secs_f64(unopened_expiry * 60.0),
            };
            let secs = |name: &str, v: f64| -> Result<std::time::Duration> {
                if !(v.is_finite() && (0.1..=86_400.0).contains(&v)) {
                    anyhow::bail!("--{name} must be between 0.1 and 86400 seconds, not {v}");
                }
                Ok(std::time::Duration::from_secs_f64(v))
            };
            if max_connections == 0 {
                anyhow::bail!("--max-connections must be at least 1");
            }
            let ws_silence = secs("ws-silence", ws_silence)?;
            let net = tilebag_server::NetLimits {
                max_connections,
                max_connections_per_address,
                header_timeout: secs("header-timeout", header_timeout)?,
                idle_timeout: secs("idle-timeout", idle_timeout)?,
                request_timeout: secs("request-timeout", request_timeout)?,
                min_body_rate,
                ws_ping_every: ws_silence / 3,
                ws_silence,
                ..tilebag_server::NetLimits::default()
            };
            let mut config = tilebag_server::ServeConfig {
                bind,
                port,
                database,
                default_preset: preset,
                default_lexicon,
                events_dir,
                director_key,
                allow_seeds,
                net,
                quotas,
                secure_cookies,
                process_name: process_name
                    .unwrap_or_else(tilebag_server::logging::default_process_name),
                nats,
                ..Default::default()
            };
            // Each lexicon judges words and is what the computer plays (and analyses) with.
            config.add_word_source("enable1", tilebag_lexicon::WordSource::builtin());
            for spec in lexicons {
                let (name, path) = spec.split_once('=').with_context(|| {
                    format!("--lexicon {spec:?}: expected NAME=PATH, e.g. csw21=/data/CSW21.txt")
                })?;
                let source = tilebag_lexicon::open_lexicon(path)?;
                config.add_word_source(name, source);
            }
            for spec in leaves {
                let (name, path) = spec.split_once('=').with_context(|| {
                    format!("--leaves {spec:?}: expected NAME=FILE, e.g. enable1=leaves.klv2")
                })?;
                if !config.word_sources.contains_key(name) {
                    let mut known: Vec<&String> = config.word_sources.keys().collect();
                    known.sort();
                    anyhow::bail!("--leaves {spec:?}: no lexicon {name:?} (loaded: {known:?})");
                }
                let table = tilebag_engine::LeaveTable::read_file(std::path::Path::new(path))
                    .with_context(|| format!("--leaves {spec:?}"))?;
                config
                    .leaves
                    .insert(name.to_string(), std::sync::Arc::new(table));
            }
            tilebag_server::run(config)?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Backup { database, output } => backup(&database, &output),
        Command::Accounts { command } => accounts_cli::run(command).map(|()| ExitCode::SUCCESS),
        Command::Td { command } => td::run(command),
        Command::Moves(args) => engine_cli::moves(args),
        Command::Analyze(args) => engine_cli::analyze_cmd(args),
        Command::Selfplay(args) => engine_cli::selfplay(args),
        Command::Leaves { command } => engine_cli::leaves(command),
        Command::Bench { command } => match command {
            BenchCommand::Movegen(args) => engine_cli::bench_movegen(args),
            BenchCommand::Endgame(args) => engine_cli::bench_endgame(args),
            BenchCommand::Lobby { seeks, watchers } => {
                let options = tilebag_server::lobby_bench::LobbyBenchOptions {
                    seeks,
                    watchers,
                    ..Default::default()
                };
                let rt = tokio::runtime::Builder::new_multi_thread()
                    .enable_all()
                    .build()?;
                let report = rt.block_on(tilebag_server::lobby_bench::bench_lobby(options))?;
                println!("{report}");
                Ok(ExitCode::SUCCESS)
            }
            BenchCommand::Serve {
                games,
                addr,
                metrics_key,
                think_ms,
                preset,
                words,
            } => {
                let options = tilebag_server::BenchOptions {
                    preset,
                    words,
                    metrics_key,
                    think: std::time::Duration::from_millis(think_ms),
                    ..Default::default()
                };
                let rt = tokio::runtime::Builder::new_multi_thread()
                    .enable_all()
                    .build()?;
                let report =
                    rt.block_on(tilebag_server::bench::bench_serve_at(&addr, games, options))?;
                println!("{report}");
                Ok(ExitCode::SUCCESS)
            }
        },
        Command::Gcg { command } => match command {
            GcgCommand::Verify { files, lexicon } => {
                let lexicon = lexicon
                    .map(|p| tilebag_lexicon::open_lexicon(&p))
                    .transpose()?;
                Ok(verify(&files, lexicon.as_ref()))
            }
            GcgCommand::Show { file, turn, cgp } => {
                if cgp {
                    engine_cli::show_cgp(&file, turn)
                } else {
                    show(&file, turn)
                }
            }
        },
        Command::Lexicon { command } => match command {
            LexiconCommand::Build {
                words,
                output,
                name,
            } => lexicon_build(&words, &output, name.as_deref()),
            LexiconCommand::Info { file } => lexicon_info(&file),
        },
        Command::Judge {
            lexicon,
            words,
            log,
            clear_after,
        } => {
            let lex = tilebag_lexicon::open_lexicon_or_builtin(lexicon.as_deref())?;
            match words {
                Some(words) => Ok(if judge::scripted(&lex, &words, &log)? {
                    ExitCode::SUCCESS
                } else {
                    ExitCode::from(1)
                }),
                None => {
                    judge::interactive(&lex, &log, std::time::Duration::from_secs(clear_after))?;
                    Ok(ExitCode::SUCCESS)
                }
            }
        }
        Command::Rules { command } => match command {
            RulesCommand::List => {
                for name in Ruleset::PRESETS {
                    let r = Ruleset::preset(name).expect("known preset");
                    let default = if name == "naspa-2013" {
                        " (default)"
                    } else {
                        ""
                    };
                    println!("{name:16} {}{default}", r.title);
                }
                Ok(ExitCode::SUCCESS)
            }
            RulesCommand::Show { preset, rules } => {
                let r = Ruleset::preset(&preset)?.with_overrides(&rules)?;
                println!("{} — {}", r.name, r.title);
                for (field, value, rule) in r.describe() {
                    if field == "title" {
                        continue;
                    }
                    if rule.is_empty() {
                        println!("  {field:34} {value}");
                    } else {
                        println!("  {field:34} {value}  [{rule}]");
                    }
                }
                Ok(ExitCode::SUCCESS)
            }
        },
    }
}

pub(crate) fn read_record(path: &Path) -> Result<GcgRecord, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    parse_gcg(&bytes).map_err(|e| e.to_string())
}

fn lexicon_build(words: &Path, output: &Path, name: Option<&Path>) -> Result<ExitCode> {
    let started = std::time::Instant::now();
    let text = std::fs::read(words).with_context(|| format!("cannot read {}", words.display()))?;
    let name = name
        .map(|n| n.display().to_string())
        .or_else(|| words.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "lexicon".into());
    let lex =
        tilebag_lexicon::Lexicon::from_word_list(&text, &name).map_err(|e| e.in_file(words))?;
    lex.save(output)?;
    let stats = lex.build_stats();
    println!(
        "built {} from {}: {} words ({} over 15 letters left out), {} bytes, in {:.0} ms",
        output.display(),
        words.display(),
        stats.words,
        stats.dropped_long,
        stats.file_bytes,
        started.elapsed().as_secs_f64() * 1000.0
    );
    Ok(ExitCode::SUCCESS)
}

fn lexicon_info(file: &Path) -> Result<ExitCode> {
    let size = std::fs::metadata(file)
        .with_context(|| format!("cannot read {}", file.display()))?
        .len();
    let source = tilebag_lexicon::open_lexicon(file)?;
    println!(
        "file: {} ({size} bytes, {:?})",
        file.display(),
        source.kind()
    );
    println!("name: {}", source.name());
    match source.lexicon() {
        Some(lex) => {
            println!("words: {}", lex.word_count());
            if lex.dropped_long() > 0 {
                println!("left out: {} words over 15 letters", lex.dropped_long());
            }
            let counts = lex.counts_by_length();
            let by_len: Vec<String> = (1..counts.len())
                .filter(|&n| counts[n] > 0)
                .map(|n| format!("{n}:{}", counts[n]))
                .collect();
            println!("by length: {}", by_len.join(" "));
            let fp = lex.source_fingerprint();
            println!(
                "fingerprint: {} words, {} two-letter words, QI {}, EUOI {}, OK {}",
                fp.word_count,
                fp.two_letter_count,
                yes_no(fp.has_qi),
                yes_no(fp.has_euoi),
                yes_no(fp.has_ok)
            );
            println!(
                "appears to be: {}",
                lex.identify()
                    .unwrap_or("no list we know (not ENABLE1, TWL06, SOWPODS or CSW19)")
            );
        }
        None => {
            if let tilebag_lexicon::WordSource::Layered(l) = &source {
                for layer in l.layers() {
                    println!("layer: {layer}");
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

/// Words played in a record that the lexicon does not contain: (line, word, withdrawn).
fn phonies(
    record: &GcgRecord,
    report: &tilebag_core::replay::ReplayReport,
    lexicon: &tilebag_lexicon::WordSource,
) -> Vec<(usize, String, bool)> {
    use tilebag_core::gcg::GcgEventKind;
    let mut out = Vec::new();
    for ev in &report.events {
        let idx = record.events.iter().position(|e| e.line == ev.line);
        let withdrawn = idx.is_some_and(|i| {
            record
                .events
                .get(i + 1)
                .is_some_and(|n| n.kind == GcgEventKind::Withdrawal && n.player == ev.player)
        });
        for w in &ev.words {
            if !lexicon.contains(w) {
                out.push((ev.line, w.clone(), withdrawn));
            }
        }
    }
    out
}

fn verify(files: &[PathBuf], lexicon: Option<&tilebag_lexicon::WordSource>) -> ExitCode {
    let mut ok = true;
    for f in files {
        let name = f.display();
        let record = match read_record(f) {
            Ok(r) => r,
            Err(e) => {
                // Parse errors start with "line N: ".
                let e = e.strip_prefix("line ").map_or(format!(": {e}"), |rest| {
                    let (n, msg) = rest.split_once(": ").unwrap_or((rest, ""));
                    format!(":{n}: {msg}")
                });
                println!("FAIL {name}{e}");
                ok = false;
                continue;
            }
        };
        match verify_record(&record) {
            Ok(report) => {
                for w in &report.warnings {
                    println!("WARN {name}: {w}");
                }
                if let Some(lex) = lexicon {
                    let found = phonies(&record, &report, lex);
                    if found.is_empty() {
                        println!("WORDS {name}: every word played is in {}", lex.name());
                    } else {
                        let list: Vec<String> = found
                            .iter()
                            .map(|(line, w, withdrawn)| {
                                format!(
                                    "{w} (line {line}{})",
                                    if *withdrawn { ", withdrawn" } else { "" }
                                )
                            })
                            .collect();
                        println!("PHONIES {name}: not in {}: {}", lex.name(), list.join(", "));
                    }
                }
                let [p1, p2] = &record.players;
                let [s1, s2] = report.scores;
                match report.completion {
                    Completion::Complete => {
                        let how = report
                            .ending
                            .as_deref()
                            .map_or(String::new(), |e| format!(" ({e})"));
                        println!("OK {name}: final {} {s1} – {} {s2}{how}", p1.nick, p2.nick)
                    }
                    Completion::Incomplete => println!(
                        "INCOMPLETE {name}: {} events, {} {s1} – {} {s2} so far",
                        report.events.len(),
                        p1.nick,
                        p2.nick
                    ),
                }
            }
            Err(e) => {
                println!("FAIL {name}:{}: {}", e.line, e.message);
                ok = false;
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn show(file: &Path, turn: Option<usize>) -> Result<ExitCode> {
    let record = read_record(file)
        .map_err(anyhow::Error::msg)
        .with_context(|| file.display().to_string())?;
    let mut r = Replayer::new(&record);
    let mut steps = 0;
    let mut last_line = None;
    while turn.is_none_or(|t| steps < t) {
        let line = r.peek().map(|e| e.line);
        match r.step() {
            Ok(true) => {
                steps += 1;
                last_line = line;
            }
            Ok(false) => break,
            Err(e) => anyhow::bail!("{}:{}: {}", file.display(), e.line, e.message),
        }
    }
    println!("{}", render_board(&r.board, &r.layout, &r.set));
    let [p1, p2] = &record.players;
    println!(
        "after {steps} event(s){}: {} {} – {} {}",
        last_line.map_or(String::new(), |l| format!(" (line {l})")),
        p1.nick,
        r.scores[0],
        p2.nick,
        r.scores[1]
    );
    match r.peek() {
        Some(next) => println!(
            "next: line {} {} to move, rack {}",
            next.line,
            record.players[next.player].nick,
            next.rack.as_deref().unwrap_or("(not recorded)")
        ),
        None => {
            for (i, rack) in record.last_racks.iter().enumerate() {
                if let Some(rack) = rack {
                    println!("last known rack of {}: {rack}", record.players[i].nick);
                }
            }
        }
    }
    let mut unseen = r.unseen();
    unseen.sort();
    println!(
        "unseen (bag and racks, {} tiles): {}",
        unseen.len(),
        r.set.tiles_to_string(&unseen)
    );
    Ok(ExitCode::SUCCESS)
}

fn render_board(board: &Board, layout: &Layout, set: &TileSet) -> String {
    use tilebag_core::board::Premium;
    let mut s = String::from("    ");
    for c in 0..layout.size {
        s.push((b'A' + c as u8) as char);
        s.push(' ');
    }
    s.push('\n');
    for r in 0..layout.size {
        s.push_str(&format!("{:>2}  ", r + 1));
        for c in 0..layout.size {
            let sq = Square::new(r as u8, c as u8);
            let ch = match board.get(sq) {
                Some(t) => set.placed_char(t),
                None => match layout.premium(sq) {
                    Premium::TripleWord => '=',
                    Premium::DoubleWord => '-',
                    Premium::TripleLetter => '"',
                    Premium::DoubleLetter => '\'',
                    Premium::None => '.',
                },
            };
            s.push(ch);
            s.push(' ');
        }
        s.push('\n');
    }
    s
}

/// `tilebag backup`: the online backup API copies every page as one consistent snapshot
/// (including what is still in the WAL) into a temporary file beside `output`, which is checked
/// and then renamed into place: a failed backup leaves nothing behind.
fn backup(database: &Path, output: &Path) -> Result<ExitCode> {
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
