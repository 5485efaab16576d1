//! The `tilebag` command line: a thin shell around tilebag-core. Each command's handler is in
//! the file named after it; `run` only dispatches.

mod accounts_cli;
mod bench_cli;
mod engine_cli;
mod gcg_cli;
mod judge;
mod lexicon_cli;
mod rules_cli;
mod serve_cli;
mod td;

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

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
    Serve(serve_cli::ServeArgs),
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
        command: bench_cli::BenchCommand,
    },
    /// Game records (GCG).
    Gcg {
        #[command(subcommand)]
        command: gcg_cli::GcgCommand,
    },
    /// Ruleset presets.
    Rules {
        #[command(subcommand)]
        command: rules_cli::RulesCommand,
    },
    /// Word lists: build a lexicon file, describe one.
    Lexicon {
        #[command(subcommand)]
        command: lexicon_cli::LexiconCommand,
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
    Judge(judge::JudgeArgs),
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
        Command::Serve(args) => serve_cli::serve(args),
        Command::Backup { database, output } => serve_cli::backup(&database, &output),
        Command::Accounts { command } => accounts_cli::run(command).map(|()| ExitCode::SUCCESS),
        Command::Td { command } => td::run(command),
        Command::Moves(args) => engine_cli::moves(args),
        Command::Analyze(args) => engine_cli::analyze_cmd(args),
        Command::Selfplay(args) => engine_cli::selfplay(args),
        Command::Leaves { command } => engine_cli::leaves(command),
        Command::Bench { command } => bench_cli::run(command),
        Command::Gcg { command } => gcg_cli::run(command),
        Command::Lexicon { command } => lexicon_cli::run(command),
        Command::Judge(args) => judge::run(args),
        Command::Rules { command } => rules_cli::run(command),
    }
}
