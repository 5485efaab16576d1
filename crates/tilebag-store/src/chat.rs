//! Chat and its moderation, as stored: messages by room, mutes and blocks between accounts,
//! reports of messages, and the moderators' log. Plain rows and one trait, [`ChatStore`],
//! implemented by both stores (reached with `Store::chat`). The rules (who may send and read in
//! each room, lengths, rates, NASPA I.D in event games) live in `tilebag_accounts::chat`; the
//! store keeps what they let through.
//!
//! Tables (migration 5, both databases):
//!
//! ```text
//! chat_messages (id PK (assigned), key UNIQUE, room, sender_id → accounts, text, sent_ms,
//!                deleted_by NULL → accounts, deleted_ms NULL)   indexed by (room, id)
//! chat_relations (account_id → accounts, other_id → accounts, kind 'mute'|'block',
//!                 created_ms)   PK (account_id, other_id, kind)
//! chat_reports (id PK, message_id → chat_messages, reporter_id → accounts, reason,
//!               reported_ms, closed_by NULL → accounts, closed_ms NULL)
//!               UNIQUE (message_id, reporter_id), indexed by closed_by
//! moderation_log (id PK, key UNIQUE, moderator_id → accounts, action, account_id NULL,
//!                 message_id NULL, detail, at_ms)
//! ```
//!
//! Every write is safe to repeat (PostgreSQL tries a statement whose connection was lost once
//! more): a message and a log entry carry a `key` the caller draws at random, so a retry finds
//! its own row; a report is one per message and reporter; a relation is keyed by its two
//! accounts and kind.

use super::{StoreError, StoreFuture};

/// The most characters a room's name may have (`game:ID:watchers` and the like).
pub const MAX_ROOM_CHARS: usize = 100;

/// A message to store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMessage {
    /// Drawn at random by the caller: a retried write finds its own row by it.
    pub key: String,
    /// `lobby`, `game:ID:players`, `game:ID:watchers`.
    pub room: String,
    pub sender_id: i64,
    /// Already cleaned (`tilebag_accounts::chat::clean_message`).
    pub text: String,
    /// Wall clock, Unix milliseconds.
    pub sent_ms: i64,
}

/// A stored message, with its sender's name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatMessage {
    /// Assigned by the database, rising in the order messages were stored.
    pub id: i64,
    pub room: String,
    pub sender_id: i64,
    pub sender_name: String,
    pub text: String,
    pub sent_ms: i64,
    /// The moderator who deleted it (it is then shown to nobody).
    pub deleted_by: Option<i64>,
    pub deleted_ms: Option<i64>,
}

/// What one account has done about another's messages. Both keep the other's messages from
/// reaching the account; the other is never told. A block also refuses what the lobby lets one
/// account ask of another (a direct message, a seek's acceptance).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Relation {
    Mute,
    Block,
}

impl Relation {
    pub fn as_str(self) -> &'static str {
        match self {
            Relation::Mute => "mute",
            Relation::Block => "block",
        }
    }

    pub fn parse(s: &str) -> Option<Relation> {
        match s {
            "mute" => Some(Relation::Mute),
            "block" => Some(Relation::Block),
            _ => None,
        }
    }
}

/// One account's mute or block of another.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelationRow {
    pub account_id: i64,
    pub other_id: i64,
    pub other_name: String,
    pub kind: Relation,
    pub created_ms: i64,
}

/// A report of a message to the moderators.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewReport {
    pub message_id: i64,
    pub reporter_id: i64,
    /// The reporter's words (may be empty).
    pub reason: String,
    pub reported_ms: i64,
}

/// A stored report, with the message it is about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    pub id: i64,
    pub message: ChatMessage,
    pub reporter_id: i64,
    pub reporter_name: String,
    pub reason: String,
    pub reported_ms: i64,
    /// The moderator who dealt with it (deleted the message or dismissed the report).
    pub closed_by: Option<i64>,
    pub closed_ms: Option<i64>,
}

/// A moderator's action, to log (with the action itself, in one transaction).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewLogEntry {
    /// Drawn at random by the caller: a retried write finds its own row by it.
    pub key: String,
    pub moderator_id: i64,
    /// `delete`, `mute`, `unmute`, `ban`, `unban`, `dismiss`.
    pub action: String,
    pub account_id: Option<i64>,
    pub message_id: Option<i64>,
    /// In words, e.g. `until 2026-11-27 12:00 UTC`.
    pub detail: String,
    pub at_ms: i64,
}

/// A logged action, with the names of those it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogEntry {
    pub id: i64,
    pub moderator_id: i64,
    pub moderator_name: String,
    pub action: String,
    pub account_id: Option<i64>,
    pub account_name: Option<String>,
    pub message_id: Option<i64>,
    pub detail: String,
    pub at_ms: i64,
}

/// Where chat lasts. Every write is durable when its future resolves.
pub trait ChatStore: Send + Sync {
    /// Store a message; its id. The same `NewMessage` sent again (a retry) answers the same id.
    fn post_message<'a>(&'a self, message: &'a NewMessage) -> StoreFuture<'a, i64>;
    fn message(&self, id: i64) -> StoreFuture<'_, Option<ChatMessage>>;
    /// The newest `limit` messages of a room not deleted, oldest first.
    fn recent_messages<'a>(
        &'a self,
        room: &'a str,
        limit: usize,
    ) -> StoreFuture<'a, Vec<ChatMessage>>;
    /// Delete a message for everyone, close its reports and log it, in one transaction;
    /// whether this entry deleted it (`false`: no such message, or deleted already by another).
    fn delete_message<'a>(&'a self, id: i64, log: &'a NewLogEntry) -> StoreFuture<'a, bool>;
    /// Set an account's sanctions (`None` and `false` lift them) and log it, in one
    /// transaction; whether the account exists.
    fn sanction<'a>(
        &'a self,
        account_id: i64,
        muted_until_ms: Option<i64>,
        banned: bool,
        log: &'a NewLogEntry,
    ) -> StoreFuture<'a, bool>;
    /// Mute or block `other` for `account_id` (`on`), or lift it.
    fn set_relation(
        &self,
        account_id: i64,
        other_id: i64,
        kind: Relation,
        on: bool,
        at_ms: i64,
    ) -> StoreFuture<'_, ()>;
    /// Whom an account has muted or blocked, by name.
    fn relations_of(&self, account_id: i64) -> StoreFuture<'_, Vec<RelationRow>>;
    /// Report a message; `false` when this reporter reported it already (or it does not exist).
    fn report_message<'a>(&'a self, report: &'a NewReport) -> StoreFuture<'a, bool>;
    /// Reports nobody has dealt with yet, oldest first, at most `limit`.
    fn open_reports(&self, limit: usize) -> StoreFuture<'_, Vec<Report>>;
    /// Close a report without deleting its message, and log it; whether it was open.
    fn dismiss_report<'a>(&'a self, report_id: i64, log: &'a NewLogEntry) -> StoreFuture<'a, bool>;
    /// The newest `limit` entries of the moderators' log, newest first.
    fn moderation_log(&self, limit: usize) -> StoreFuture<'_, Vec<LogEntry>>;
}

/// A message's columns (`m` joined with its sender `s`), in the order the row readers expect.
pub(crate) const MESSAGE_COLUMNS: &str =
    "m.id, m.room, m.sender_id, s.username, m.text, m.sent_ms, m.deleted_by, m.deleted_ms";
/// A report `r`, then its message's [`MESSAGE_COLUMNS`] (reporter `p`).
pub(crate) const REPORT_COLUMNS: &str = "r.id, r.reporter_id, p.username, r.reason, \
     r.reported_ms, r.closed_by, r.closed_ms, \
     m.id, m.room, m.sender_id, s.username, m.text, m.sent_ms, m.deleted_by, m.deleted_ms";
pub(crate) const REPORT_FROM: &str = "chat_reports AS r \
     JOIN chat_messages AS m ON m.id = r.message_id \
     JOIN accounts AS s ON s.id = m.sender_id \
     JOIN accounts AS p ON p.id = r.reporter_id";
/// A log entry `l` with its moderator `d` and account `a`.
pub(crate) const LOG_COLUMNS: &str = "l.id, l.moderator_id, d.username, l.action, \
     l.account_id, a.username, l.message_id, l.detail, l.at_ms";
pub(crate) const LOG_FROM: &str = "moderation_log AS l \
     JOIN accounts AS d ON d.id = l.moderator_id \
     LEFT JOIN accounts AS a ON a.id = l.account_id";

/// A room's name must be short and not empty (the server makes them; this keeps a fault out).
pub(crate) fn check_room(room: &str) -> Result<(), StoreError> {
    let n = room.chars().count();
    if n == 0 || n > MAX_ROOM_CHARS {
        return Err(StoreError::Other(format!(
            "a chat room's name has 1 to {MAX_ROOM_CHARS} characters (this one has {n})"
        )));
    }
    Ok(())
}

/// A stored relation's kind; one the server does not know is an error.
pub(crate) fn decode_relation(kind: &str) -> Result<Relation, StoreError> {
    Relation::parse(kind).ok_or_else(|| {
        StoreError::Other(format!(
            "a chat relation's kind {kind:?} is none the server knows (mute, block)"
        ))
    })
}
