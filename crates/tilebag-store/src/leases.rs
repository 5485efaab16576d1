//! Several `tilebag serve` processes on one PostgreSQL database (issue 31): which process owns
//! each live game, and the fence that keeps every other process from writing for it.
//!
//! ```text
//! processes   (name PK, address, started_at_ms, seen_at)    -- each process's heartbeat
//! game_leases (game_id PK → games, owner, generation, expires_at)
//! game_notes  (game_id → games, wall_ms, text)              -- what a takeover leaves in the record
//! ```
//!
//! A live game is owned by exactly one process at a time, the holder of its lease. The owner
//! renews its leases every second or so; a lease not renewed expires (the database's own clock
//! says when, so the processes' clocks never have to agree), and any process may then take it.
//! Each taking adds one to the lease's generation, and every write of a game's events or time
//! names the generation its writer holds: the write and a check that the lease still has that
//! generation and owner are one statement, which locks the lease's row. A process that lost its
//! lease (paused past its expiry, cut off from the network) can therefore never write for the
//! game again, whatever it believes: fencing, not hope. A taker's `UPDATE` waits for a write
//! under way to commit, and the taker reads the log after its taking commits, so it sees every
//! event the old owner stored and nothing stored after.
//!
//! SQLite has one process, which owns every game: [`Store::leases`](crate::Store::leases) is
//! `None` there.

use super::{Checkpoint, StoreFuture, StoredEvent};

/// What a fenced write names: the process and the lease's generation it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fence {
    pub owner: String,
    pub generation: u64,
}

/// One game's lease, as the operator's health view shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LeaseRow {
    pub game_id: String,
    pub owner: String,
    pub generation: u64,
    /// Milliseconds until it expires by the database's clock (negative: expired that long ago).
    pub expires_in_ms: i64,
}

/// One process of the service, as its last heartbeat left it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProcessRow {
    pub name: String,
    /// Where its HTTP server listens (for the operator).
    pub address: String,
    pub started_at_ms: i64,
    /// Milliseconds since its last heartbeat, by the database's clock.
    pub seen_ms_ago: i64,
}

/// A game that is not live any more has no lease to take (it is read from the store by
/// whoever asks).
pub trait LeaseStore: Send + Sync {
    /// Records that `name` is alive now (its row is made on its first heartbeat).
    fn heartbeat<'a>(
        &'a self,
        name: &'a str,
        address: &'a str,
        started_at_ms: i64,
    ) -> StoreFuture<'a, ()>;
    /// Every process that has ever beaten, the most recently seen first.
    fn processes(&self) -> StoreFuture<'_, Vec<ProcessRow>>;
    /// Forgets processes not seen for `older_than_ms` (and holding no lease).
    fn forget_processes(&self, older_than_ms: i64) -> StoreFuture<'_, u64>;
    /// Takes the lease on live game `game_id` for `owner`, for `ttl_ms`: if the game has no
    /// lease, its lease has expired, or `owner` holds it already (a process restarted under the
    /// same name). Each taking adds one to the generation, which is returned; `None` when
    /// another process holds it or the game is not live.
    fn claim<'a>(
        &'a self,
        game_id: &'a str,
        owner: &'a str,
        ttl_ms: i64,
    ) -> StoreFuture<'a, Option<u64>>;
    /// Renews `owner`'s leases on these games at these generations for `ttl_ms`; the games whose
    /// lease it still held (any other was taken by another process, or its game ended).
    fn renew<'a>(
        &'a self,
        owner: &'a str,
        held: &'a [(String, u64)],
        ttl_ms: i64,
    ) -> StoreFuture<'a, Vec<String>>;
    /// Gives a lease up (the game ended, or the process is stopping): it expires now, so it may
    /// be taken at once (one generation on).
    fn release<'a>(&'a self, game_id: &'a str, fence: &'a Fence) -> StoreFuture<'a, ()>;
    /// Live games that nobody runs: their lease expired, or they have none and were created
    /// more than `grace_ms` ago (a game is created, then its lease taken: the grace keeps a
    /// sweeper from taking a game between the two). At most `limit`, oldest first.
    fn orphans(&self, grace_ms: i64, limit: usize) -> StoreFuture<'_, Vec<String>>;
    /// The lease on one game, if any.
    fn lease<'a>(&'a self, game_id: &'a str) -> StoreFuture<'a, Option<LeaseRow>>;
    /// Every lease on a live game.
    fn leases(&self) -> StoreFuture<'_, Vec<LeaseRow>>;
    /// Adds a note to a game's record (its GCG shows it): a takeover says when and how the
    /// game changed hands, so the record shows the outage.
    fn add_note<'a>(&'a self, game_id: &'a str, wall_ms: i64, text: &'a str)
        -> StoreFuture<'a, ()>;
    /// A game's notes, oldest first.
    fn notes<'a>(&'a self, game_id: &'a str) -> StoreFuture<'a, Vec<String>>;
    /// [`Store::append_event`](crate::Store::append_event), stored only while `fence` still
    /// holds the game's lease: otherwise nothing is written and the answer is
    /// [`StoreError::Fenced`](crate::StoreError::Fenced).
    fn append_event_fenced<'a>(
        &'a self,
        game_id: &'a str,
        event: &'a StoredEvent,
        ended: Option<&'a str>,
        fence: &'a Fence,
    ) -> StoreFuture<'a, ()>;
    /// [`Store::checkpoint`](crate::Store::checkpoint) for the games whose lease `owner` still
    /// holds at the generation given beside each checkpoint; the others are left alone.
    fn checkpoint_fenced<'a>(
        &'a self,
        owner: &'a str,
        clocks: &'a [(Checkpoint, u64)],
    ) -> StoreFuture<'a, ()>;
}
