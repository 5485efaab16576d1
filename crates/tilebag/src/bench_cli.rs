//! `tilebag bench`: each benchmark's handler, or the engine's where it is the engine's.

use crate::engine_cli;
use anyhow::Result;
use clap::Subcommand;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum BenchCommand {
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

pub fn run(command: BenchCommand) -> Result<ExitCode> {
    match command {
        BenchCommand::Movegen(args) => engine_cli::bench_movegen(args),
        BenchCommand::Endgame(args) => engine_cli::bench_endgame(args),
        BenchCommand::Lobby { seeks, watchers } => lobby(seeks, watchers),
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
            serve(&addr, games, options)
        }
    }
}

/// `tilebag bench lobby`: a lobby of `seeks` seeks watched by `watchers` streams.
fn lobby(seeks: usize, watchers: usize) -> Result<ExitCode> {
    let options = tilebag_server::lobby_bench::LobbyBenchOptions {
        seeks,
        watchers,
        ..Default::default()
    };
    print_report(tilebag_server::lobby_bench::bench_lobby(options))
}

/// `tilebag bench serve`: `games` concurrent games against the servers at `addr` (none: one
/// started in-process).
fn serve(
    addr: &[std::net::SocketAddr],
    games: usize,
    options: tilebag_server::BenchOptions,
) -> Result<ExitCode> {
    print_report(tilebag_server::bench::bench_serve_at(addr, games, options))
}

/// Runs a server benchmark to its end on a runtime of its own and prints its report.
fn print_report<R, E>(bench: impl std::future::Future<Output = Result<R, E>>) -> Result<ExitCode>
where
    R: std::fmt::Display,
    anyhow::Error: From<E>,
{
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let report = rt.block_on(bench)?;
    println!("{report}");
    Ok(ExitCode::SUCCESS)
}
