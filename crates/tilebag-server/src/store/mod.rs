//! Persistence. A game is stored as its setup (ruleset, seed, lexicon, players, seat tokens) and
//! an append-only log of events; replaying the events through `Game::apply` rebuilds it exactly.
//! Two implementations share one schema: SQLite (a file, the default) and PostgreSQL.
//!
//! Schema (both databases):
//!
//! ```text
//! games  (id PK, seat0_token, seat1_token, player0, player1, preset, ruleset_json, seed,
//!         lexicon, created_at_ms, status 'live'|'ended', result_json, ended_at_ms,
//!         checkpoint_ms,          -- checkpoint_ms: the game time last seen running
//!         bot_json)               -- the computer's seat and level, NULL when two people play
//! events (game_id, seq, at_ms, wall_ms, event_json)   PK (game_id, seq)
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
//! `bot_json` (`{"seat":1,"level":"static"}`) was added for games against the computer; both
//! stores add the column to an older database when they open it (`NULL`: two people play).

mod postgres;
mod sqlite;

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use tilebag_core::{Event, Ruleset};

pub use postgres::PostgresStore;
pub use sqlite::SqliteStore;

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
    #[error("{0}")]
    Other(String),
}

/// Whether a game is still being played.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameStatus {
    Live,
    Ended,
}

impl GameStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            GameStatus::Live => "live",
            GameStatus::Ended => "ended",
        }
    }
    fn parse(s: &str) -> GameStatus {
        if s == "ended" {
            GameStatus::Ended
        } else {
            GameStatus::Live
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

pub(crate) fn encode_bot(bot: &Option<BotSeat>) -> Option<String> {
    bot.as_ref()
        .map(|b| serde_json::to_string(b).expect("bot seats serialise"))
}

pub(crate) fn decode_bot(game: &str, json: Option<String>) -> Result<Option<BotSeat>, StoreError> {
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
    fn checkpoint<'a>(&'a self, clocks: &'a [(String, i64)]) -> StoreFuture<'a, ()>;
    /// The newest games first, at most `limit`.
    fn list_games(&self, limit: usize) -> StoreFuture<'_, Vec<GameRecord>>;
    fn load_game<'a>(
        &'a self,
        id: &'a str,
    ) -> StoreFuture<'a, Option<(GameRecord, Vec<StoredEvent>)>>;
    /// Every game not yet ended, with its events.
    fn load_unfinished(&self) -> StoreFuture<'_, Vec<(GameRecord, Vec<StoredEvent>)>>;
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

pub(crate) fn wall_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// Decoding shared by both stores.
pub(crate) fn decode_ruleset(game: &str, json: &str) -> Result<Ruleset, StoreError> {
    serde_json::from_str(json).map_err(|e| StoreError::Corrupt {
        game: game.to_string(),
        message: format!("ruleset: {e}"),
    })
}

pub(crate) fn decode_event(
    game: &str,
    seq: i64,
    json: &str,
) -> Result<StoredEventParts, StoreError> {
    serde_json::from_str(json).map_err(|e| StoreError::Corrupt {
        game: game.to_string(),
        message: format!("event {seq}: {e}"),
    })
}

pub(crate) type StoredEventParts = Event;

pub(crate) fn encode_event(ev: &Event) -> String {
    serde_json::to_string(ev).expect("events serialise")
}

pub(crate) fn encode_ruleset(r: &Ruleset) -> String {
    serde_json::to_string(r).expect("rulesets serialise")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn passwords_are_hidden() {
        assert_eq!(
            redact_url("postgres://bob:secret@localhost/db"),
            "postgres://bob:***@localhost/db"
        );
        assert_eq!(redact_url("tilebag.db"), "tilebag.db");
    }
}
