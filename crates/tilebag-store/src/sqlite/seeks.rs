//! [`SeekStore`] on SQLite: every statement goes through the store's one connection, so taking a
//! seek (`DELETE ... RETURNING`) is never raced.

use super::super::accounts::sql_limit;
use super::super::seeks::{
    check_id, id_taken, opponent_columns, RawSeek, SeekRow, SeekStore, SEEK_COLUMNS,
};
use super::super::StoreFuture;
use super::SqliteStore;
use rusqlite::{params, Connection, OptionalExtension, Row};

fn raw(r: &Row<'_>) -> rusqlite::Result<RawSeek> {
    Ok(RawSeek {
        id: r.get(0)?,
        seeker_id: r.get(1)?,
        preset: r.get(2)?,
        lexicon: r.get(3)?,
        initial_ms: r.get(4)?,
        rated: r.get(5)?,
        min_rating: r.get(6)?,
        max_rating: r.get(7)?,
        opponent: r.get(8)?,
        invited_id: r.get(9)?,
        bot_level: r.get(10)?,
        created_ms: r.get(11)?,
    })
}

fn rows(
    c: &Connection,
    sql: &str,
    p: impl rusqlite::Params,
) -> Result<Vec<SeekRow>, super::super::StoreError> {
    let raws = c
        .prepare_cached(sql)?
        .query_map(p, raw)?
        .collect::<rusqlite::Result<Vec<RawSeek>>>()?;
    raws.into_iter().map(RawSeek::decode).collect()
}

/// Deletes the seeks a `WHERE` clause (one parameter) finds; their ids, oldest first.
fn delete_where(c: &Connection, clause: &str, key: i64) -> rusqlite::Result<Vec<i64>> {
    let mut ids = c
        .prepare_cached(&format!(
            "DELETE FROM seeks WHERE {clause} RETURNING id, created_ms"
        ))?
        .query_map([key], |r| Ok((r.get::<_, i64>(1)?, r.get::<_, i64>(0)?)))?
        .collect::<rusqlite::Result<Vec<(i64, i64)>>>()?;
    ids.sort_unstable();
    Ok(ids.into_iter().map(|(_, id)| id).collect())
}

impl SeekStore for SqliteStore {
    fn create_seek<'a>(&'a self, seek: &'a SeekRow) -> StoreFuture<'a, ()> {
        if let Err(e) = check_id(seek.id) {
            return Box::pin(async move { Err(e) });
        }
        let s = seek.clone();
        let stored = self.write_value(move |c| {
            let (kind, invited, level) = opponent_columns(&s.opponent);
            let n = c
                .prepare_cached(&format!(
                    "INSERT INTO seeks ({SEEK_COLUMNS}) \
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12) \
                     ON CONFLICT (id) DO NOTHING"
                ))?
                .execute(params![
                    s.id,
                    s.seeker_id,
                    s.preset,
                    s.lexicon,
                    s.initial_ms,
                    s.rated,
                    s.min_rating,
                    s.max_rating,
                    kind,
                    invited,
                    level,
                    s.created_ms
                ])?;
            if n == 1 {
                return Ok(None);
            }
            // The id is taken: by this very seek (a retry), or by another.
            c.prepare_cached(&format!("SELECT {SEEK_COLUMNS} FROM seeks WHERE id = ?1"))?
                .query_row([s.id], raw)
                .optional()
                .map(Some)
        });
        Box::pin(async move {
            match stored.await? {
                None => Ok(()),
                Some(Some(found)) => match found.decode() {
                    Ok(row) if row == *seek => Ok(()),
                    _ => Err(id_taken(seek.id)),
                },
                Some(None) => Err(id_taken(seek.id)),
            }
        })
    }

    fn open_seeks(&self, limit: usize) -> StoreFuture<'_, Vec<SeekRow>> {
        let limit = sql_limit(limit);
        self.read(move |c| {
            rows(
                c,
                &format!("SELECT {SEEK_COLUMNS} FROM seeks ORDER BY created_ms, id LIMIT ?1"),
                [limit],
            )
        })
    }

    fn seeks_of(&self, seeker_id: i64) -> StoreFuture<'_, Vec<SeekRow>> {
        self.read(move |c| {
            rows(
                c,
                &format!(
                    "SELECT {SEEK_COLUMNS} FROM seeks WHERE seeker_id = ?1 \
                     ORDER BY created_ms, id"
                ),
                [seeker_id],
            )
        })
    }

    fn take_seek(&self, id: i64) -> StoreFuture<'_, Option<SeekRow>> {
        let taken = self.write_value(move |c| {
            c.prepare_cached(&format!(
                "DELETE FROM seeks WHERE id = ?1 RETURNING {SEEK_COLUMNS}"
            ))?
            .query_row([id], raw)
            .optional()
        });
        Box::pin(async move { taken.await?.map(RawSeek::decode).transpose() })
    }

    fn cancel_seek(&self, id: i64, seeker_id: i64) -> StoreFuture<'_, bool> {
        self.write_value(move |c| {
            let n = c
                .prepare_cached("DELETE FROM seeks WHERE id = ?1 AND seeker_id = ?2")?
                .execute(params![id, seeker_id])?;
            Ok(n == 1)
        })
    }

    fn delete_seeks_of(&self, seeker_id: i64) -> StoreFuture<'_, Vec<i64>> {
        self.write_value(move |c| delete_where(c, "seeker_id = ?1", seeker_id))
    }

    fn delete_seeks_before(&self, before_ms: i64) -> StoreFuture<'_, Vec<i64>> {
        self.write_value(move |c| delete_where(c, "created_ms < ?1", before_ms))
    }
}
