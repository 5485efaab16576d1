//! The lobby's open seeks, as stored (migration 4), so that they survive a restart and several
//! server processes can share one list. Plain rows and one trait, [`SeekStore`], implemented by
//! both stores (a holder of a [`super::Store`] reaches it with `Store::seeks`). The rules (who
//! may accept a seek, NASPA I.G, rating ranges) live in `tilebag-accounts::seek`; the store keeps
//! what the server decided to list:
//!
//! - a seek's id is chosen by the caller (a random number below 2^53, so a page's script reads it
//!   exactly), which makes creating one safe to retry: the same row sent again is stored once;
//! - taking a seek (to start its game) deletes it and answers its row in one statement: of two
//!   players accepting at once exactly one gets it;
//! - a seek belongs to its seeker's account and goes with it (`ON DELETE CASCADE`).
//!
//! Table (migration 4, both databases):
//!
//! ```text
//! seeks (id PK (chosen by the caller), seeker_id → accounts, preset, lexicon, initial_ms,
//!        rated, min_rating NULL, max_rating NULL,
//!        opponent 'anyone'|'invited'|'computer', invited_id NULL → accounts, bot_level NULL,
//!        created_ms)   indexed by seeker_id and by created_ms
//! ```

use super::{StoreError, StoreFuture};

/// Who may take a seek, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeekOpponent {
    /// Anyone (in the rating range, if it has one).
    Anyone,
    /// Only this account.
    Invited(i64),
    /// The computer at this level (`beginner`, `static`, `sim`). The server starts such a game
    /// at once and lists nothing (the row is the seek as the rules check it); the table takes
    /// the kind all the same, so a row means the same stored or not.
    Computer(String),
}

impl SeekOpponent {
    fn kind(&self) -> &'static str {
        match self {
            SeekOpponent::Anyone => "anyone",
            SeekOpponent::Invited(_) => "invited",
            SeekOpponent::Computer(_) => "computer",
        }
    }

    fn invited(&self) -> Option<i64> {
        match self {
            SeekOpponent::Invited(id) => Some(*id),
            _ => None,
        }
    }

    fn level(&self) -> Option<&str> {
        match self {
            SeekOpponent::Computer(level) => Some(level),
            _ => None,
        }
    }
}

/// An open seek's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeekRow {
    /// Chosen by the caller: positive, below 2^53.
    pub id: i64,
    pub seeker_id: i64,
    /// The rules preset (`naspa-2013` ...).
    pub preset: String,
    /// The lexicon's name as the server loads it (`enable1` ...).
    pub lexicon: String,
    /// Each player's clock at the start, in milliseconds.
    pub initial_ms: i64,
    pub rated: bool,
    /// The acceptor's rating must be at least this (shown, rounded) ...
    pub min_rating: Option<i64>,
    /// ... and at most this.
    pub max_rating: Option<i64>,
    pub opponent: SeekOpponent,
    /// Wall clock, Unix milliseconds.
    pub created_ms: i64,
}

/// The largest id a seek may have (2^53 − 1: a JavaScript number holds it exactly).
pub const MAX_SEEK_ID: i64 = (1 << 53) - 1;

/// Where the lobby's seeks last. Every write is durable when its future resolves.
pub trait SeekStore: Send + Sync {
    /// Store a new seek. Sending the very same row again (a retry) is not an error; another
    /// seek under the same id is. The seeker (and an invited account) must exist.
    fn create_seek<'a>(&'a self, seek: &'a SeekRow) -> StoreFuture<'a, ()>;
    /// Every open seek, oldest first, at most `limit`.
    fn open_seeks(&self, limit: usize) -> StoreFuture<'_, Vec<SeekRow>>;
    /// The open seeks of one account, oldest first.
    fn seeks_of(&self, seeker_id: i64) -> StoreFuture<'_, Vec<SeekRow>>;
    /// Take a seek to start its game: it is deleted and its row answered, in one statement, so
    /// of two takers at once exactly one gets it (`None`: gone already).
    fn take_seek(&self, id: i64) -> StoreFuture<'_, Option<SeekRow>>;
    /// The seeker cancels their seek; whether it was theirs and open.
    fn cancel_seek(&self, id: i64, seeker_id: i64) -> StoreFuture<'_, bool>;
    /// Delete every seek of an account (its seeker left the lobby, or was banned); their ids.
    fn delete_seeks_of(&self, seeker_id: i64) -> StoreFuture<'_, Vec<i64>>;
    /// Delete every seek created before `before_ms` (too old); their ids.
    fn delete_seeks_before(&self, before_ms: i64) -> StoreFuture<'_, Vec<i64>>;
}

/// The columns both backends read, in the order their row readers expect.
pub(crate) const SEEK_COLUMNS: &str = "id, seeker_id, preset, lexicon, initial_ms, rated, \
     min_rating, max_rating, opponent, invited_id, bot_level, created_ms";

/// A seek's columns as stored, before the opponent is put together.
pub(crate) struct RawSeek {
    pub id: i64,
    pub seeker_id: i64,
    pub preset: String,
    pub lexicon: String,
    pub initial_ms: i64,
    pub rated: bool,
    pub min_rating: Option<i64>,
    pub max_rating: Option<i64>,
    pub opponent: String,
    pub invited_id: Option<i64>,
    pub bot_level: Option<String>,
    pub created_ms: i64,
}

impl RawSeek {
    /// The row, or why it cannot be read (the table's `CHECK`s keep such rows out, so only a
    /// hand-edited database has one).
    pub(crate) fn decode(self) -> Result<SeekRow, StoreError> {
        let opponent = match (self.opponent.as_str(), self.invited_id, self.bot_level) {
            ("anyone", None, None) => SeekOpponent::Anyone,
            ("invited", Some(id), None) => SeekOpponent::Invited(id),
            ("computer", None, Some(level)) => SeekOpponent::Computer(level),
            (kind, invited, level) => {
                return Err(StoreError::Other(format!(
                    "seek {}: its opponent {kind:?} (invited {invited:?}, level {level:?}) is \
                     none the server knows",
                    self.id
                )))
            }
        };
        Ok(SeekRow {
            id: self.id,
            seeker_id: self.seeker_id,
            preset: self.preset,
            lexicon: self.lexicon,
            initial_ms: self.initial_ms,
            rated: self.rated,
            min_rating: self.min_rating,
            max_rating: self.max_rating,
            opponent,
            created_ms: self.created_ms,
        })
    }
}

/// The stored form of a seek's opponent: (kind, invited account, computer level).
pub(crate) fn opponent_columns(o: &SeekOpponent) -> (&'static str, Option<i64>, Option<String>) {
    (o.kind(), o.invited(), o.level().map(str::to_string))
}

/// A seek's id must be one a page's script reads exactly.
pub(crate) fn check_id(id: i64) -> Result<(), StoreError> {
    if (1..=MAX_SEEK_ID).contains(&id) {
        Ok(())
    } else {
        Err(StoreError::Other(format!(
            "a seek's id is between 1 and {MAX_SEEK_ID}, not {id}"
        )))
    }
}

/// The error for a seek id stored already with other content.
pub(crate) fn id_taken(id: i64) -> StoreError {
    StoreError::Other(format!("another seek is stored already under the id {id}"))
}
