//! `tilebag td`: tournament direction from the command line, over `tilebag-tournament`.
//!
//! An event is one SQLite file (`tournament.db` by convention) holding the append-only action
//! log: `actions(seq INTEGER PRIMARY KEY, at TEXT, action TEXT)`, the action as JSON. Every
//! command loads the log and replays it ([`Tournament::replay`]); a command that changes the
//! event builds its action(s), checks them with [`Tournament::apply`] and appends them in the same
//! transaction. A refused action is reported (naming the division, round and player) with exit
//! status 2, and nothing is written. `td undo` deletes the last action; `td log` prints the log
//! as JSON lines, which `td replay` turns back into an event.
//!
//! This file lists the subcommands (their help line is the doc comment of each variant) and
//! sends each to its handler; a subcommand's arguments and code live together in the file named
//! after what it handles. What several handlers share is in `common.rs`, which imports none of
//! them.
//!
//! [`Tournament::replay`]: tilebag_tournament::Tournament::replay
//! [`Tournament::apply`]: tilebag_tournament::Tournament::apply

mod adjust;
mod common;
mod division;
mod event;
mod import;
mod links;
mod log;
mod pairings;
mod players;
mod reports;
mod results;
mod slips;
mod submit;

use anyhow::Result;
use clap::Subcommand;
use common::EventArg;
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum TdCommand {
    /// Create an event file.
    New(event::NewArgs),
    /// Print the event's name and date, or change them with --name and --date YYYY-MM-DD (a
    /// `.TOU` file's header needs the date).
    Event(event::EventArgs),
    /// Add or configure a division.
    Division {
        #[command(subcommand)]
        command: division::DivisionCommand,
    },
    /// Add, edit, withdraw or reinstate a player.
    Player {
        #[command(subcommand)]
        command: players::PlayerCommand,
    },
    /// Pair a round by its schedule (or --method), and post it unless --dry-run.
    Pair(pairings::PairArgs),
    /// Pair two players (or give a bye) by hand; their earlier entries in the round are removed.
    PairManual(pairings::PairManualArgs),
    /// Remove the last round's pairings (before any result is in).
    Unpair(pairings::UnpairArgs),
    /// Swap who goes first in a player's game.
    Swap(pairings::SwapArgs),
    /// Enter a game's final scores, from PLAYER's side (tsh Addscore). Refused when the game
    /// already has a result (use `correct`); a score under 100 or over 800, or a spread over 500,
    /// needs --yes.
    #[command(allow_negative_numbers = true)]
    Result(results::ResultArgs),
    /// Correct a game's result that is already in (tsh EditScore); the old one is kept in the
    /// game's corrections.
    #[command(allow_negative_numbers = true)]
    Correct(results::CorrectArgs),
    /// Enter or change the spread of PLAYER's bye (a positive spread is a win, a negative one a
    /// forfeit loss, 0 neither), e.g. a bye imported from a `.t` file without a score.
    #[command(allow_negative_numbers = true)]
    ByeScore(results::ByeScoreArgs),
    /// List the games of a round whose results are not in yet.
    Missing(results::MissingArgs),
    /// PLAYER forfeits (no-show, lateness): by the division's forfeit spread unless --spread.
    Forfeit(results::ForfeitArgs),
    /// Neither player of PLAYER's game played: a loss for both.
    DoubleForfeit(results::ForfeitArgs),
    /// PLAYER left the game in progress with these scores on the board (NASPA V.K.2).
    #[command(allow_negative_numbers = true)]
    Left(results::LeftArgs),
    /// Remove the result of PLAYER's game.
    ClearResult(results::ClearResultArgs),
    /// Tally slips: one player submits, the other confirms (NASPA V.J, WESPA 5.4).
    Slip {
        #[command(subcommand)]
        command: slips::SlipCommand,
    },
    /// A spread penalty or compensation (NASPA IV.B.5, IV.K.5).
    #[command(allow_negative_numbers = true)]
    Adjust(adjust::AdjustArgs),
    /// Print pairings, standings, firsts, ratings, players, prizes, alpha (pairings by player),
    /// high-wins, high-losses, upsets, rating-by-round, performance, wallchart or roster (plain
    /// text unless --csv/--html).
    Show(reports::ShowArgs),
    /// Write a file: tsh `.t` (--tsh) or `.tsh` archive (--archive), AUPAIR `.TOU` (--tou; of the
    /// whole event, a section per division, unless DIVISION is named), or a CSV/HTML report of
    /// WHAT.
    Export(reports::ExportArgs),
    /// Write the rating-submission files for a finished division (without DIVISION: every
    /// division) into DIR: NASPA's tsh `.t` file a division (what tsh's SUBMIT uploads) and/or
    /// WESPA's AUPAIR `.TOU` file, one for all the divisions submitted. Refused, writing nothing,
    /// while any paired game has no result.
    Submit(submit::SubmitArgs),
    /// Import a tsh `.t` file (or a `.tsh` archive) as a division; creates the event if needed.
    Import(import::ImportArgs),
    /// Delete the last action of the log.
    Undo(EventArg),
    /// Print each player's own link (their game; tally slips they submit and confirm), making
    /// their secret keys on first use. The event must be in the server's events folder; its id is
    /// the file name without `.tbev`.
    Links(links::LinksArgs),
    /// Print the action log as JSON lines: {"seq":…,"at":…,"action":{…}}.
    Log(EventArg),
    /// Build a new event from a log printed by `td log` (a file, or `-` for standard input).
    Replay(log::ReplayArgs),
    /// Print the whole replayed state as JSON.
    State(EventArg),
}

pub fn run(command: TdCommand) -> Result<ExitCode> {
    match command {
        TdCommand::New(args) => event::new(args),
        TdCommand::Event(args) => event::event(args),
        TdCommand::Division { command } => division::run(command),
        TdCommand::Player { command } => players::run(command),
        TdCommand::Pair(args) => pairings::pair(args),
        TdCommand::PairManual(args) => pairings::pair_manual(args),
        TdCommand::Unpair(args) => pairings::unpair(args),
        TdCommand::Swap(args) => pairings::swap(args),
        TdCommand::Result(args) => results::result(args),
        TdCommand::Correct(args) => results::correct(args),
        TdCommand::ByeScore(args) => results::bye_score(args),
        TdCommand::Missing(args) => results::missing(args),
        TdCommand::Forfeit(args) => results::forfeit(args),
        TdCommand::DoubleForfeit(args) => results::double_forfeit(args),
        TdCommand::Left(args) => results::left(args),
        TdCommand::ClearResult(args) => results::clear_result(args),
        TdCommand::Slip { command } => slips::run(command),
        TdCommand::Adjust(args) => adjust::adjust(args),
        TdCommand::Show(args) => reports::show(args),
        TdCommand::Export(args) => reports::export(args),
        TdCommand::Submit(args) => submit::submit(args),
        TdCommand::Import(args) => import::import(args),
        TdCommand::Undo(args) => log::undo(args),
        TdCommand::Links(args) => links::links(args),
        TdCommand::Log(args) => log::log(args),
        TdCommand::Replay(args) => log::replay(args),
        TdCommand::State(args) => event::state(args),
    }?;
    Ok(ExitCode::SUCCESS)
}
