//! [`ChatStore`] on PostgreSQL. Each write is one statement (an action and its log entry in one
//! statement's common table expressions, so both or neither) and safe to repeat, since a
//! statement whose connection was lost is tried once more (see `postgres.rs`): a message and a
//! log entry are found again by their keys, a report by its message and reporter, a relation by
//! its accounts and kind.

use super::super::accounts::sql_limit;
use super::super::chat::{
    check_room, decode_relation, LOG_COLUMNS, LOG_FROM, MESSAGE_COLUMNS, REPORT_COLUMNS,
    REPORT_FROM,
};
use super::super::{
    ChatMessage, ChatStore, LogEntry, NewLogEntry, NewMessage, NewReport, Relation, RelationRow,
    Report, StoreError, StoreFuture,
};
use super::PostgresStore;
use tokio_postgres::types::ToSql;
use tokio_postgres::Row;

fn message_from_row(r: &Row, at: usize) -> Result<ChatMessage, StoreError> {
    Ok(ChatMessage {
        id: r.try_get(at)?,
        room: r.try_get(at + 1)?,
        sender_id: r.try_get(at + 2)?,
        sender_name: r.try_get(at + 3)?,
        text: r.try_get(at + 4)?,
        sent_ms: r.try_get(at + 5)?,
        deleted_by: r.try_get(at + 6)?,
        deleted_ms: r.try_get(at + 7)?,
    })
}

fn report_from_row(r: &Row) -> Result<Report, StoreError> {
    Ok(Report {
        id: r.try_get(0)?,
        reporter_id: r.try_get(1)?,
        reporter_name: r.try_get(2)?,
        reason: r.try_get(3)?,
        reported_ms: r.try_get(4)?,
        closed_by: r.try_get(5)?,
        closed_ms: r.try_get(6)?,
        message: message_from_row(r, 7)?,
    })
}

fn log_from_row(r: &Row) -> Result<LogEntry, StoreError> {
    Ok(LogEntry {
        id: r.try_get(0)?,
        moderator_id: r.try_get(1)?,
        moderator_name: r.try_get(2)?,
        action: r.try_get(3)?,
        account_id: r.try_get(4)?,
        account_name: r.try_get(5)?,
        message_id: r.try_get(6)?,
        detail: r.try_get(7)?,
        at_ms: r.try_get(8)?,
    })
}

/// The log entry's insert, as a common table expression named `l`, made only when the CTE
/// named `done` has a row; parameters from `$4`: key, action, account, message, detail (the
/// moderator is `$2` and the time `$3`).
const LOG_CTE: &str = "l AS (INSERT INTO moderation_log \
         (key, moderator_id, action, account_id, message_id, detail, at_ms) \
         SELECT $4::text, $2::bigint, $5::text, $6::bigint, $7::bigint, $8::text, $3::bigint \
         WHERE EXISTS (SELECT 1 FROM done) ON CONFLICT (key) DO NOTHING)";

/// Whether `done` changed a row, or a first attempt of this very entry did (its key is
/// logged: the statement sees the table as it was before it).
const LOGGED: &str = "SELECT (SELECT count(*) FROM done) + \
         (SELECT count(*) FROM moderation_log WHERE key = $4::text)";

impl PostgresStore {
    /// One statement: `done` (the action, with `$1` its subject, `$2` the moderator, `$3` the
    /// time), then its log entry; whether it was done (now or by a first attempt).
    /// `more` are the action's own parameters, from `$9`.
    async fn moderate(
        &self,
        done: &str,
        subject: i64,
        l: &NewLogEntry,
        more: &[&(dyn ToSql + Sync)],
    ) -> Result<bool, StoreError> {
        let sql = format!("WITH done AS ({done}), {LOG_CTE} {LOGGED}");
        let sql = sql.as_str();
        let mut params: Vec<&(dyn ToSql + Sync)> = vec![
            &subject,
            &l.moderator_id,
            &l.at_ms,
            &l.key,
            &l.action,
            &l.account_id,
            &l.message_id,
            &l.detail,
        ];
        params.extend_from_slice(more);
        let params = params.as_slice();
        let n: i64 = self
            .run(true, |c| async move {
                c.query_one(sql, params).await?.try_get(0)
            })
            .await?;
        Ok(n > 0)
    }
}

impl ChatStore for PostgresStore {
    fn post_message<'a>(&'a self, m: &'a NewMessage) -> StoreFuture<'a, i64> {
        Box::pin(async move {
            check_room(&m.room)?;
            // The row this statement inserted, or (a retry) the one its first attempt did.
            let row = self
                .run(true, |c| async move {
                    c.query_one(
                        "WITH ins AS (INSERT INTO chat_messages \
                             (key, room, sender_id, text, sent_ms) \
                             VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key) DO NOTHING \
                             RETURNING id) \
                         SELECT COALESCE((SELECT id FROM ins), \
                             (SELECT id FROM chat_messages WHERE key = $1::text))",
                        &[&m.key, &m.room, &m.sender_id, &m.text, &m.sent_ms],
                    )
                    .await
                })
                .await?;
            Ok(row.try_get::<_, i64>(0)?)
        })
    }

    fn message(&self, id: i64) -> StoreFuture<'_, Option<ChatMessage>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT {MESSAGE_COLUMNS} FROM chat_messages AS m \
                 JOIN accounts AS s ON s.id = m.sender_id WHERE m.id = $1"
            );
            let sql = sql.as_str();
            let row = self
                .run(false, |c| async move { c.query_opt(sql, &[&id]).await })
                .await?;
            row.map(|r| message_from_row(&r, 0)).transpose()
        })
    }

    fn recent_messages<'a>(
        &'a self,
        room: &'a str,
        limit: usize,
    ) -> StoreFuture<'a, Vec<ChatMessage>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT {MESSAGE_COLUMNS} FROM chat_messages AS m \
                 JOIN accounts AS s ON s.id = m.sender_id \
                 WHERE m.room = $1 AND m.deleted_by IS NULL ORDER BY m.id DESC LIMIT $2"
            );
            let (sql, limit) = (sql.as_str(), sql_limit(limit));
            let rows = self
                .run(
                    false,
                    |c| async move { c.query(sql, &[&room, &limit]).await },
                )
                .await?;
            let mut out = rows
                .iter()
                .map(|r| message_from_row(r, 0))
                .collect::<Result<Vec<_>, _>>()?;
            out.reverse();
            Ok(out)
        })
    }

    fn delete_message<'a>(&'a self, id: i64, l: &'a NewLogEntry) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            self.moderate(
                "UPDATE chat_messages SET deleted_by = $2, deleted_ms = $3 \
                 WHERE id = $1 AND deleted_by IS NULL RETURNING id), \
                 closed AS (UPDATE chat_reports SET closed_by = $2, closed_ms = $3 \
                 WHERE message_id = $1 AND closed_by IS NULL \
                 AND EXISTS (SELECT 1 FROM chat_messages WHERE id = $1 AND deleted_by IS NULL)",
                id,
                l,
                &[],
            )
            .await
        })
    }

    fn sanction<'a>(
        &'a self,
        account_id: i64,
        muted_until_ms: Option<i64>,
        banned: bool,
        l: &'a NewLogEntry,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            self.moderate(
                "UPDATE accounts SET muted_until_ms = $9, banned = $10 WHERE id = $1 \
                 RETURNING id",
                account_id,
                l,
                &[&muted_until_ms, &banned],
            )
            .await
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
        Box::pin(async move {
            let kind = kind.as_str();
            self.run(true, |c| async move {
                if on {
                    c.execute(
                        "INSERT INTO chat_relations (account_id, other_id, kind, created_ms) \
                         VALUES ($1, $2, $3, $4) \
                         ON CONFLICT (account_id, other_id, kind) DO NOTHING",
                        &[&account_id, &other_id, &kind, &at_ms],
                    )
                    .await
                } else {
                    c.execute(
                        "DELETE FROM chat_relations \
                         WHERE account_id = $1 AND other_id = $2 AND kind = $3",
                        &[&account_id, &other_id, &kind],
                    )
                    .await
                }
            })
            .await?;
            Ok(())
        })
    }

    fn relations_of(&self, account_id: i64) -> StoreFuture<'_, Vec<RelationRow>> {
        Box::pin(async move {
            let rows = self
                .run(false, |c| async move {
                    c.query(
                        "SELECT r.other_id, a.username, r.kind, r.created_ms \
                         FROM chat_relations AS r JOIN accounts AS a ON a.id = r.other_id \
                         WHERE r.account_id = $1 ORDER BY a.username, r.kind",
                        &[&account_id],
                    )
                    .await
                })
                .await?;
            rows.iter()
                .map(|r| {
                    let kind: String = r.try_get(2)?;
                    Ok(RelationRow {
                        account_id,
                        other_id: r.try_get(0)?,
                        other_name: r.try_get(1)?,
                        kind: decode_relation(&kind)?,
                        created_ms: r.try_get(3)?,
                    })
                })
                .collect()
        })
    }

    fn report_message<'a>(&'a self, r: &'a NewReport) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            // A retry finds its own report (same message, reporter and time) and counts it.
            let n: i64 = self
                .run(true, |c| async move {
                    c.query_one(
                        "WITH ins AS (INSERT INTO chat_reports \
                             (message_id, reporter_id, reason, reported_ms) \
                             SELECT $1, $2, $3, $4 \
                             WHERE EXISTS (SELECT 1 FROM chat_messages WHERE id = $1::bigint) \
                             ON CONFLICT (message_id, reporter_id) DO NOTHING RETURNING 1) \
                         SELECT (SELECT count(*) FROM ins) + (SELECT count(*) FROM chat_reports \
                             WHERE message_id = $1::bigint AND reporter_id = $2::bigint \
                             AND reported_ms = $4::bigint AND reason = $3::text)",
                        &[&r.message_id, &r.reporter_id, &r.reason, &r.reported_ms],
                    )
                    .await?
                    .try_get(0)
                })
                .await?;
            Ok(n > 0)
        })
    }

    fn open_reports(&self, limit: usize) -> StoreFuture<'_, Vec<Report>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT {REPORT_COLUMNS} FROM {REPORT_FROM} \
                 WHERE r.closed_by IS NULL ORDER BY r.id LIMIT $1"
            );
            let (sql, limit) = (sql.as_str(), sql_limit(limit));
            let rows = self
                .run(false, |c| async move { c.query(sql, &[&limit]).await })
                .await?;
            rows.iter().map(report_from_row).collect()
        })
    }

    fn dismiss_report<'a>(&'a self, report_id: i64, l: &'a NewLogEntry) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            self.moderate(
                "UPDATE chat_reports SET closed_by = $2, closed_ms = $3 \
                 WHERE id = $1 AND closed_by IS NULL RETURNING id",
                report_id,
                l,
                &[],
            )
            .await
        })
    }

    fn moderation_log(&self, limit: usize) -> StoreFuture<'_, Vec<LogEntry>> {
        Box::pin(async move {
            let sql = format!("SELECT {LOG_COLUMNS} FROM {LOG_FROM} ORDER BY l.id DESC LIMIT $1");
            let (sql, limit) = (sql.as_str(), sql_limit(limit));
            let rows = self
                .run(false, |c| async move { c.query(sql, &[&limit]).await })
                .await?;
            rows.iter().map(log_from_row).collect()
        })
    }
}
