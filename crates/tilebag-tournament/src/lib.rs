//! tilebag-tournament: tournament direction.
//!
//! - [`model`]: the state: [`Tournament`] → [`Division`] → [`Player`]s and [`Round`]s →
//!   [`Pairing`]s (a [`Game`] in seat order, a bye, or a withdrawn player's automatic result).
//! - [`action`]: every director action is an [`Action`] in an append-only log;
//!   [`Tournament::replay`] rebuilds the state; undo is replaying without the last action.
//! - [`pairing`]: round robin, King of the Hill, Swiss, Initial Fontes, Australian Draw, random,
//!   the Literacy 2018 rounds, Gibsonization, byes; [`Division::propose`] computes a round and
//!   [`Tournament::pair`] wraps it in the action that posts it. [`matching`] is the exact
//!   minimum-cost perfect matching under the Swiss.
//! - [`schedule`]: a division's schedule string, `IF:3 SW:9 KOTH:1`.
//! - [`settings`]: division settings as a director types them, and their current values.
//! - [`firsts`]: who goes first (NASPA III.D, WESPA 2.1(b), SANSPA 6.4, Literacy 2018).
//! - [`checks`]: the director's guards: missing results, rounds not ready for rating submission,
//!   unusual scores.
//! - [`standings`]: wins, losses, spread with configurable tie-breaks and a spread cap.
//! - [`ratings`]: NASPA and WESPA rating estimates.
//! - [`literacy`]: the Scrabble for Literacy 2018 team format's placings.
//! - [`tables`]: the director's tables (pairings, standings, firsts, ratings, players) as text,
//!   CSV or HTML, shared by `tilebag td` and the server's director pages.
//! - [`entries`]: online entries by players' accounts (registration, check-in, no-show
//!   forfeits), kept out of tsh's and AUPAIR's files.
//! - [`tsh`], [`tou`], [`report`]: tsh `.t`/`.tsh` files, AUPAIR `.TOU`, CSV and HTML.
//!
//! Everything is deterministic: randomness comes from each division's seed, never a clock.

pub mod action;
pub mod checks;
pub mod cop;
pub mod entries;
pub mod error;
pub mod firsts;
pub mod literacy;
pub mod matching;
pub mod model;
pub mod pairing;
pub mod prizes;
pub mod ratings;
pub mod report;
pub mod schedule;
pub mod settings;
pub mod standings;
pub mod tables;
pub mod tou;
pub mod tsh;

pub use action::{Action, OnlineEnding, ReplayError, ResultEntry, Setting};
pub use error::TournamentError;
pub use model::*;
pub use pairing::Proposal;
pub use ratings::RatingSystem;
pub use schedule::{Method, Schedule};
pub use standings::Standing;
