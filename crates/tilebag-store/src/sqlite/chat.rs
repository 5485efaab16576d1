//! [`ChatStore`] on SQLite: through the store's one connection, each write in its own savepoint
//! of a group commit (so an action and its log entry are one transaction).

use super::super::accounts::sql_limit;
use super::super::chat::{
    check_room, decode_relation, LOG_COLUMNS, LOG_FROM, MESSAGE_COLUMNS, REPORT_COLUMNS,
    REPORT_FROM,
};
use super::super::{
    ChatMessage, ChatStore, LogEntry, NewLogEntry, NewMessage, NewReport, Relation, RelationRow,
    Report, StoreError, StoreFuture,
};
use super::SqliteStore;
use rusqlite::{params, Connection, OptionalExtension, Row};

fn message_from_row(r: &Row<'_>, at: usize) -> rusqlite::Result<ChatMessage> {
    Ok(ChatMessage {
        id: r.get(at)?,
        room: r.get(at + 1)?,
        sender_id: r.get(at + 2)?,
        sender_name: r.get(at + 3)?,
        text: r.get(at + 4)?,
        sent_ms: r.get(at + 5)?,
        deleted_by: r.get(at + 6)?,
        deleted_ms: r.get(at + 7)?,
    })
}

fn report_from_row(r: &Row<'_>) -> rusqlite::Result<Report> {
    Ok(Report {
        id: r.get(0)?,
        reporter_id: r.get(1)?,
        reporter_name: r.get(2)?,
        reason: r.get(3)?,
        reported_ms: r.get(4)?,
        closed_by: r.get(5)?,
        closed_ms: r.get(6)?,
        message: message_from_row(r, 7)?,
    })
}

fn log_from_row(r: &Row<'_>) -> rusqlite::Result<LogEntry> {
    Ok(LogEntry {
        id: r.get(0)?,
        moderator_id: r.get(1)?,
        moderator_name: r.get(2)?,
        action: r.get(3)?,
        account_id: r.get(4)?,
        account_name: r.get(5)?,
        message_id: r.get(6)?,
        detail: r.get(7)?,
        at_ms: r.get(8)?,
    })
}

/// Append a log entry (a retry with the same key writes nothing more).
fn log(c: &Connection, l: &NewLogEntry) -> rusqlite::Result<()> {
    c.prepare_cached(
        "INSERT INTO moderation_log \
         (key, moderator_id, action, account_id, message_id, detail, at_ms) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) ON CONFLICT (key) DO NOTHING",
    )?
    .execute(params![
        l.key,
        l.moderator_id,
        l.action,
        l.account_id,
        l.message_id,
        l.detail,
        l.at_ms
    ])?;
    Ok(())
}

/// Whether an entry with this key is logged: a retried action whose first attempt was done
/// (its answer lost) counts as done.
fn logged(c: &Connection, key: &str) -> rusqlite::Result<bool> {
    c.prepare_cached("SELECT 1 FROM moderation_log WHERE key = ?1")?
        .exists([key])
}

impl ChatStore for SqliteStore {
    fn post_message<'a>(&'a self, message: &'a NewMessage) -> StoreFuture<'a, i64> {
        if let Err(e) = check_room(&message.room) {
            return Box::pin(async move { Err(e) });
        }
        let m = message.clone();
        self.write_value(move |c| {
            c.prepare_cached(
                "INSERT INTO chat_messages (key, room, sender_id, text, sent_ms) \
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (key) DO NOTHING",
            )?
            .execute(params![m.key, m.room, m.sender_id, m.text, m.sent_ms])?;
            c.prepare_cached("SELECT id FROM chat_messages WHERE key = ?1")?
                .query_row([&m.key], |r| r.get(0))
        })
    }

    fn message(&self, id: i64) -> StoreFuture<'_, Option<ChatMessage>> {
        self.read(move |c| {
            Ok(c.prepare_cached(&format!(
                "SELECT {MESSAGE_COLUMNS} FROM chat_messages AS m \
                 JOIN accounts AS s ON s.id = m.sender_id WHERE m.id = ?1"
            ))?
            .query_row([id], |r| message_from_row(r, 0))
            .optional()?)
        })
    }

    fn recent_messages<'a>(
        &'a self,
        room: &'a str,
        limit: usize,
    ) -> StoreFuture<'a, Vec<ChatMessage>> {
        let room = room.to_string();
        self.read(move |c| {
            let mut newest_first: Vec<ChatMessage> = c
                .prepare_cached(&format!(
                    "SELECT {MESSAGE_COLUMNS} FROM chat_messages AS m \
                     JOIN accounts AS s ON s.id = m.sender_id \
                     WHERE m.room = ?1 AND m.deleted_by IS NULL ORDER BY m.id DESC LIMIT ?2"
                ))?
                .query_map(params![room, sql_limit(limit)], |r| message_from_row(r, 0))?
                .collect::<rusqlite::Result<_>>()?;
            newest_first.reverse();
            Ok(newest_first)
        })
    }

    fn delete_message<'a>(&'a self, id: i64, entry: &'a NewLogEntry) -> StoreFuture<'a, bool> {
        let l = entry.clone();
        self.write_value(move |c| {
            let n = c
                .prepare_cached(
                    "UPDATE chat_messages SET deleted_by = ?2, deleted_ms = ?3 \
                     WHERE id = ?1 AND deleted_by IS NULL",
                )?
                .execute(params![id, l.moderator_id, l.at_ms])?;
            if n == 0 {
                return logged(c, &l.key);
            }
            c.prepare_cached(
                "UPDATE chat_reports SET closed_by = ?2, closed_ms = ?3 \
                 WHERE message_id = ?1 AND closed_by IS NULL",
            )?
            .execute(params![id, l.moderator_id, l.at_ms])?;
            log(c, &l)?;
            Ok(true)
        })
    }

    fn sanction<'a>(
        &'a self,
        account_id: i64,
        muted_until_ms: Option<i64>,
        banned: bool,
        entry: &'a NewLogEntry,
    ) -> StoreFuture<'a, bool> {
        let l = entry.clone();
        self.write_value(move |c| {
            let n = c
                .prepare_cached(
                    "UPDATE accounts SET muted_until_ms = ?2, banned = ?3 WHERE id = ?1",
                )?
                .execute(params![account_id, muted_until_ms, banned])?;
            if n == 0 {
                return Ok(false);
            }
            log(c, &l)?;
            Ok(true)
        })
    }

    fn set_relation(
        &self,
        account_id: i64,
        other_id: i64,
        kind: Relation,
        on: bool,
        at_ms: i64,
    ) -> StoreFuture<'_, ()> {
        self.write_value(move |c| {
            if on {
                c.prepare_cached(
                    "INSERT INTO chat_relations (account_id, other_id, kind, created_ms) \
                     VALUES (?1, ?2, ?3, ?4) \
                     ON CONFLICT (account_id, other_id, kind) DO NOTHING",
                )?
                .execute(params![account_id, other_id, kind.as_str(), at_ms])?;
            } else {
                c.prepare_cached(
                    "DELETE FROM chat_relations \
                     WHERE account_id = ?1 AND other_id = ?2 AND kind = ?3",
                )?
                .execute(params![account_id, other_id, kind.as_str()])?;
            }
            Ok(())
        })
    }

    fn relations_of(&self, account_id: i64) -> StoreFuture<'_, Vec<RelationRow>> {
        self.read(move |c| {
            let raw: Vec<(i64, String, String, i64)> = c
                .prepare_cached(
                    "SELECT r.other_id, a.username, r.kind, r.created_ms \
                     FROM chat_relations AS r JOIN accounts AS a ON a.id = r.other_id \
                     WHERE r.account_id = ?1 ORDER BY a.username, r.kind",
                )?
                .query_map([account_id], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?))
                })?
                .collect::<rusqlite::Result<_>>()?;
            raw.into_iter()
                .map(|(other_id, other_name, kind, created_ms)| {
                    Ok(RelationRow {
                        account_id,
                        other_id,
                        other_name,
                        kind: decode_relation(&kind)?,
                        created_ms,
                    })
                })
                .collect::<Result<_, StoreError>>()
        })
    }

    fn report_message<'a>(&'a self, report: &'a NewReport) -> StoreFuture<'a, bool> {
        let r = report.clone();
        self.write_value(move |c| {
            let exists = c
                .prepare_cached("SELECT 1 FROM chat_messages WHERE id = ?1")?
                .exists([r.message_id])?;
            if !exists {
                return Ok(false);
            }
            let n = c
                .prepare_cached(
                    "INSERT INTO chat_reports (message_id, reporter_id, reason, reported_ms) \
                     VALUES (?1, ?2, ?3, ?4) ON CONFLICT (message_id, reporter_id) DO NOTHING",
                )?
                .execute(params![
                    r.message_id,
                    r.reporter_id,
                    r.reason,
                    r.reported_ms
                ])?;
            Ok(n == 1)
        })
    }

    fn open_reports(&self, limit: usize) -> StoreFuture<'_, Vec<Report>> {
        self.read(move |c| {
            Ok(c.prepare_cached(&format!(
                "SELECT {REPORT_COLUMNS} FROM {REPORT_FROM} \
                 WHERE r.closed_by IS NULL ORDER BY r.id LIMIT ?1"
            ))?
            .query_map([sql_limit(limit)], report_from_row)?
            .collect::<rusqlite::Result<_>>()?)
        })
    }

    fn dismiss_report<'a>(
        &'a self,
        report_id: i64,
        entry: &'a NewLogEntry,
    ) -> StoreFuture<'a, bool> {
        let l = entry.clone();
        self.write_value(move |c| {
            let n = c
                .prepare_cached(
                    "UPDATE chat_reports SET closed_by = ?2, closed_ms = ?3 \
                     WHERE id = ?1 AND closed_by IS NULL",
                )?
                .execute(params![report_id, l.moderator_id, l.at_ms])?;
            if n == 0 {
                return logged(c, &l.key);
            }
            log(c, &l)?;
            Ok(true)
        })
    }

    fn moderation_log(&self, limit: usize) -> StoreFuture<'_, Vec<LogEntry>> {
        self.read(move |c| {
            Ok(c.prepare_cached(&format!(
                "SELECT {LOG_COLUMNS} FROM {LOG_FROM} ORDER BY l.id DESC LIMIT ?1"
            ))?
            .query_map([sql_limit(limit)], log_from_row)?
            .collect::<rusqlite::Result<_>>()?)
        })
    }
}
