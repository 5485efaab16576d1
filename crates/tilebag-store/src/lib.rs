//! Persistence. A game is stored as its setup (ruleset, seed, lexicon, players, seat tokens) and
//! an append-only log of events; replaying the events through `Game::apply` rebuilds it exactly.
//! Players online (accounts, sessions, ratings) are stored beside the games ([`accounts`]).
//! Two implementations share one schema: SQLite (a file, the default) and PostgreSQL.
//!
//! Schema (both databases; the accounts tables are described in [`accounts`]):
//!
//! ```text
//! games  (id PK, seat0_token, seat1_token, player0, player1, preset, ruleset_json, seed,
//!         lexicon, created_at_ms, status 'live'|'ended', result_json, ended_at_ms,
//!         checkpoint_ms,          -- checkpoint_ms: the game time last seen running
//!         seeded,                 -- 1/true: the creator chose the seed (serve --allow-seeds)
//!                                 -- status 'expired': nobody started it in time
//!         bot_json,               -- the computer's seat and level, NULL when two people play
//!         events_seen)            -- events the game had at its last checkpoint
//! events (game_id, seq, at_ms, wall_ms, event_json)   PK (game_id, seq)
//! health (id = 1, wall_ms)        -- SQLite only: the row `Store::ping` writes
//! schema_version (version PK, name, applied_ms)       -- one row per migration applied
//! ```
//!
//! Whether a game has started (its clock runs only once both players are there, see `live.rs`)
//! needs no column of its own: a game with an event has started, and a game without one has
//! started if and only if `checkpoint_ms` is not [`NOT_STARTED`] (-1). A new game is stored with
//! -1; the start by connection writes the game time (0 or a little more) as its first checkpoint,
//! and checkpoints only ever move forwards, so a started game never reads as waiting again. Rows
//! written before games waited have 0 (the column's default): they started when created, as they
//! did then.
//!
//! # Migrations
//!
//! The schema is built by an ordered list of numbered migrations, one list per database with the
//! same numbers ([`SCHEMA_VERSION`] is the last). Opening a store applies, in one transaction,
//! every migration newer than the highest version recorded in `schema_version`, recording each
//! as it goes: a migration runs once, and an open that fails leaves the database as it was.
//! Version 1 is the schema before versions (games, events, health): it adopts a database made
//! by earlier code as it finds it, adding the columns added since (`seeded`, `bot_json`,
//! `events_seen`) where they are missing, so it ends the same as a fresh one, and nothing in it
//! is lost. Version 2 adds the accounts tables; version 3 the seats accounts hold in games
//! ([`game_seats`]); version 4 the lobby's open seeks ([`seeks`]); version 5 chat and its moderation ([`chat`]); version 6 the processes of one
//! service and the leases on their games ([`leases`]). PostgreSQL servers starting at once take turns
//! (a transaction-level advisory lock); SQLite's write lock (`BEGIN IMMEDIATE`) does the same.
//! A database whose version is newer than this code knows is refused
//! ([`StoreError::SchemaTooNew`]) and left untouched.

pub mod accounts;
pub mod chat;
pub mod game_seats;
pub mod leases;
mod postgres;
pub mod seeks;
mod sqlite;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tilebag_core::{Event, Ruleset};

pub use accounts::{Account, AccountStore, NewAccount, Rating, RatingPoint, Role, SessionRow};
pub use chat::{
    ChatMessage, ChatStore, LogEntry, NewLogEntry, NewMessage, NewReport, Relation, RelationRow,
    Report,
};
pub use game_seats::{AccountGame, SeatLink, SeatStore};
pub use leases::{Fence, LeaseRow, LeaseStore, ProcessRow};
pub use postgres::PostgresStore;
pub use seeks::{SeekOpponent, SeekRow, SeekStore};
pub use sqlite::SqliteStore;

/// The schema version this code builds and knows (the last migration's number, the same on both
/// databases).
pub const SCHEMA_VERSION: i64 = 7;

/// A future the store returns (boxed, so that `Store` can be used as `dyn Store`).
pub type StoreFuture<'a, T> = Pin<Box<dyn Future<Output = Result<T, StoreError>> + Send + 'a>>;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("SQLite: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("PostgreSQL: {0}")]
    Postgres(#[from] tokio_postgres::Error),
    #[error("stored data of game {game} is unreadable: {message}")]
    Corrupt { game: String, message: String },
    #[error("the database worker has stopped")]
    WorkerGone,
    /// The database cannot be reached or cannot take writes now (connection lost or refused,
    /// a full disk, a read-only file). Nothing was written; the same request may succeed once it
    /// is back.
    #[error("the database is down: {0}")]
    Unavailable(String),
    /// The connection was lost while a write was out, and the database could not be reached
    /// again to finish it: it may or may not have been stored ([`Store::stored_event`] tells,
    /// once the database is back).
    #[error("the database went down while writing, so it is not known whether it was stored: {0}")]
    Uncertain(String),
    /// The database was migrated by a newer tilebag than this one: it is refused and left
    /// untouched (never downgraded).
    #[error(
        "the database {database} has schema version {found}, newer than this tilebag knows \
         (version {known}): it was left untouched; run a tilebag that knows version {found}"
    )]
    SchemaTooNew {
        database: String,
        found: i64,
        known: i64,
    },
    /// A fenced write (see [`leases`]) was refused: another process holds the game's lease now,
    /// so this one must not act for the game any more. Nothing was written.
    #[error(
        "game {game} is no longer run by this process (its lease, generation {generation}, was \
         taken by another): nothing was written"
    )]
    Fenced { game: String, generation: u64 },
    #[error("{0}")]
    Other(String),
}

impl StoreError {
    /// Whether the failure is the database being out of reach (or unable to write) rather than a
    /// fault of the request or of the data: such a request is refused as `unavailable` (503) and
    /// may be made again once the database is back.
    pub fn is_unavailable(&self) -> bool {
        match self {
            StoreError::Unavailable(_) | StoreError::Uncertain(_) => true,
            StoreError::Sqlite(e) => sqlite::is_unavailable(e),
            StoreError::Postgres(e) => postgres::is_unavailable(e),
            _ => false,
        }
    }
}

/// A live game's time to record, with the count of its events stored by then.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checkpoint {
    pub id: String,
    pub game_ms: i64,
    pub events: u64,
}

/// Whether a game is still being played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameStatus {
    Live,
    Ended,
    /// Nobody started it in time (`Quotas::unjoined_expiry`); it can no longer be joined.
    Expired,
}

impl GameStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Live => "live",
            GameStatus::Ended => "ended",
            GameStatus::Expired => "expired",
        }
    }
    /// A stored status; one the server does not know is damage (it is never taken for live).
    fn parse(game: &str, s: &str) -> Result<GameStatus, StoreError> {
        match s {
            "live" => Ok(GameStatus::Live),
            "ended" => Ok(GameStatus::Ended),
            "expired" => Ok(GameStatus::Expired),
            other => Err(StoreError::Corrupt {
                game: game.to_string(),
                message: format!(
                    "its status {other:?} is none the server knows (live, ended, expired)"
                ),
            }),
        }
    }
}

/// One game's row.
#[derive(Debug, Clone)]
pub struct GameRecord {
    pub id: String,
    /// The secret seat tokens (seat 0 moves first).
    pub tokens: [String; 2],
    pub names: [String; 2],
    pub preset: String,
    pub ruleset: Ruleset,
    pub seed: u64,
    pub lexicon: String,
    /// Wall clock, Unix milliseconds.
    pub created_at_ms: i64,
    pub status: GameStatus,
    /// The result (JSON) once the game is over.
    pub result_json: Option<String>,
    /// The game time last checkpointed while the game was live; [`NOT_STARTED`] while the game
    /// waits for its players and has no event.
    pub checkpoint_ms: i64,
    /// Events the game was known to have when its time was last checkpointed: a log holding
    /// fewer has lost some (damage, reported, never replayed as a shorter game).
    pub events_seen: u64,
    /// The seed was chosen by the client that created the game (`serve --allow-seeds`): whoever
    /// knows it knows every rack.
    pub seeded: bool,
    /// The seat the computer plays, and at what level (`None`: two people play).
    pub bot: Option<BotSeat>,
}

/// The computer's seat in a game: stored with the game, so the computer plays on after a restart.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct BotSeat {
    pub seat: usize,
    /// `beginner`, `static` or `sim` (`tilebag_engine::Level::name`).
    pub level: String,
}

pub fn encode_bot(bot: &Option<BotSeat>) -> Option<String> {
    bot.as_ref()
        .map(|b| serde_json::to_string(b).expect("bot seats serialise"))
}

pub fn decode_bot(game: &str, json: Option<String>) -> Result<Option<BotSeat>, StoreError> {
    match json {
        None => Ok(None),
        Some(j) => serde_json::from_str(&j)
            .map(Some)
            .map_err(|e| StoreError::Corrupt {
                game: game.to_string(),
                message: format!("bot seat: {e}"),
            }),
    }
}

/// `checkpoint_ms` of a game whose clock has not started: it waits for both players (or a
/// first action, which is its first event). Any checkpoint (≥ 0) replaces it.
pub const NOT_STARTED: i64 = -1;

/// A game to restore at start-up, or why its stored data cannot be read.
pub type Unfinished = Result<(GameRecord, Vec<StoredEvent>), DamagedGame>;

/// A game kept out of play: its stored data cannot be read, or it no longer replays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DamagedGame {
    pub id: String,
    pub reason: String,
}

/// One event of a game's log.
#[derive(Debug, Clone)]
pub struct StoredEvent {
    /// 0, 1, 2, ... in order.
    pub seq: u64,
    pub event: Event,
    /// Wall clock when it was accepted, Unix milliseconds (for the record only).
    pub wall_ms: i64,
}

/// Persistence for games. Every write is durable when its future resolves.
pub trait Store: Send + Sync {
    /// `sqlite` or `postgres`.
    fn kind(&self) -> &'static str;
    /// Accounts, sessions and ratings, in the same database.
    fn accounts(&self) -> &dyn AccountStore;
    /// Chat messages, mutes and blocks, reports and the moderators' log ([`chat`]).
    fn chat(&self) -> &dyn ChatStore;
    /// Which accounts sat at which seats of games, in the same database.
    fn seats(&self) -> &dyn SeatStore;
    /// The lobby's open seeks, in the same database.
    fn seeks(&self) -> &dyn SeekStore;
    /// Which process owns each live game, for several processes on one database ([`leases`]);
    /// `None` where one process owns every game (SQLite).
    fn leases(&self) -> Option<&dyn LeaseStore> {
        None
    }
    fn create_game<'a>(&'a self, game: &'a GameRecord) -> StoreFuture<'a, ()>;
    /// Append an event; when `ended` holds the result, mark the game ended in the same
    /// transaction.
    fn append_event<'a>(
        &'a self,
        game_id: &'a str,
        event: &'a StoredEvent,
        ended: Option<&'a str>,
    ) -> StoreFuture<'a, ()>;
    /// Record the game time of live games (id, game ms); never moves a checkpoint backwards.
    /// The first checkpoint of a game (over [`NOT_STARTED`]) records that it has started.
    fn checkpoint<'a>(&'a self, clocks: &'a [Checkpoint]) -> StoreFuture<'a, ()>;
    /// Event `seq` of a game, if it is stored (to settle a write that ended
    /// [`StoreError::Uncertain`]).
    fn stored_event<'a>(
        &'a self,
        game_id: &'a str,
        seq: u64,
    ) -> StoreFuture<'a, Option<StoredEvent>>;
    /// Marks a game expired if it is live, has no event and never started (checkpoint
    /// [`NOT_STARTED`]); whether it did.
    fn expire_game<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool>;
    /// The newest games first, at most `limit`.
    fn list_games(&self, limit: usize) -> StoreFuture<'_, Vec<GameRecord>>;
    fn load_game<'a>(
        &'a self,
        id: &'a str,
    ) -> StoreFuture<'a, Option<(GameRecord, Vec<StoredEvent>)>>;
    /// Check that the database is there and takes writes now (a round trip to PostgreSQL; a
    /// small committed write for SQLite, since a full disk or a read-only file still reads).
    fn ping(&self) -> StoreFuture<'_, ()>;
    /// Every game not yet ended, with its events; a game whose row or events cannot be read is
    /// listed as damaged (the others are still loaded).
    fn load_unfinished(&self) -> StoreFuture<'_, Vec<Unfinished>>;
}

/// Open the store a `--database` value names: a `postgres://` or `postgresql://` URL, or a
/// SQLite file path (optionally `sqlite:` prefixed).
pub async fn open(database: &str) -> Result<Arc<dyn Store>, StoreError> {
    if database.starts_with("postgres://") || database.starts_with("postgresql://") {
        Ok(Arc::new(PostgresStore::connect(database).await?))
    } else {
        let path = database
            .strip_prefix("sqlite://")
            .or_else(|| database.strip_prefix("sqlite:"))
            .unwrap_or(database);
        Ok(Arc::new(SqliteStore::open(path).await?))
    }
}

/// A database URL with any password hidden, for logs.
pub fn redact_url(url: &str) -> String {
    if let Some((scheme, rest)) = url.split_once("://") {
        if let Some((userinfo, host)) = rest.split_once('@') {
            if let Some((user, _)) = userinfo.split_once(':') {
                return format!("{scheme}://{user}:***@{host}");
            }
        }
    }
    url.to_string()
}

pub fn wall_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Decoding shared by both stores.
pub fn decode_ruleset(game: &str, json: &str) -> Result<Ruleset, StoreError> {
    serde_json::from_str(json).map_err(|e| StoreError::Corrupt {
        game: game.to_string(),
        message: format!("ruleset: {e}"),
    })
}

pub fn decode_event(game: &str, seq: i64, json: &str) -> Result<StoredEventParts, StoreError> {
    serde_json::from_str(json).map_err(|e| StoreError::Corrupt {
        game: game.to_string(),
        message: format!("event {seq}: {e}"),
    })
}

pub type StoredEventParts = Event;

pub fn encode_event(ev: &Event) -> String {
    serde_json::to_string(ev).expect("events serialise")
}

pub fn encode_ruleset(r: &Ruleset) -> String {
    serde_json::to_string(r).expect("rulesets serialise")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sqlite_error(code: std::ffi::c_int) -> StoreError {
        StoreError::from(rusqlite::Error::SqliteFailure(
            rusqlite::ffi::Error::new(code),
            None,
        ))
    }

    #[test]
    fn an_outage_is_told_apart_from_a_fault() {
        use rusqlite::ffi;
        // The file cannot be written now: refused as unavailable, tried again later.
        for code in [
            ffi::SQLITE_FULL,
            ffi::SQLITE_READONLY,
            ffi::SQLITE_IOERR_WRITE,
            ffi::SQLITE_BUSY,
            ffi::SQLITE_CANTOPEN,
        ] {
            assert!(sqlite_error(code).is_unavailable(), "code {code}");
        }
        // A fault of the statement or the data: an internal error, not an outage.
        for code in [ffi::SQLITE_CONSTRAINT_PRIMARYKEY, ffi::SQLITE_MISMATCH] {
            assert!(!sqlite_error(code).is_unavailable(), "code {code}");
        }
        assert!(StoreError::Unavailable("down".into()).is_unavailable());
        assert!(StoreError::Uncertain("cut".into()).is_unavailable());
        let corrupt = StoreError::Corrupt {
            game: "g".into(),
            message: "bad".into(),
        };
        assert!(!corrupt.is_unavailable());
        assert!(!StoreError::Other("x".into()).is_unavailable());
        assert_eq!(
            StoreError::Unavailable("no PostgreSQL connection within 3 s".into()).to_string(),
            "the database is down: no PostgreSQL connection within 3 s"
        );
    }

    #[test]
    fn passwords_are_hidden() {
        assert_eq!(
            redact_url("postgres://bob:secret@localhost/db"),
            "postgres://bob:***@localhost/db"
        );
        assert_eq!(redact_url("tilebag.db"), "tilebag.db");
    }
}
