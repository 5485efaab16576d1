//! [`SeekStore`] on PostgreSQL. Each write is one statement, safe to repeat (a statement whose
//! connection was lost is tried once more, see `postgres.rs`): a seek sent again finds its own
//! row and counts as stored; deletes delete what is still there. Taking a seek is one
//! `DELETE ... RETURNING`: of two takers at once, exactly one gets the row. (If the answer to a
//! take is lost and the retry finds the row gone, the taker is told it is gone: the seek is not
//! listed any more either way, and nobody starts its game twice.)

use super::super::accounts::sql_limit;
use super::super::seeks::{
    check_id, id_taken, opponent_columns, RawSeek, SeekRow, SeekStore, SEEK_COLUMNS,
};
use super::super::{StoreError, StoreFuture};
use super::PostgresStore;
use tokio_postgres::Row;

fn seek_from_row(r: &Row) -> Result<SeekRow, StoreError> {
    RawSeek {
        id: r.try_get(0)?,
        seeker_id: r.try_get(1)?,
        preset: r.try_get(2)?,
        lexicon: r.try_get(3)?,
        initial_ms: r.try_get(4)?,
        rated: r.try_get(5)?,
        min_rating: r.try_get(6)?,
        max_rating: r.try_get(7)?,
        opponent: r.try_get(8)?,
        invited_id: r.try_get(9)?,
        bot_level: r.try_get(10)?,
        created_ms: r.try_get(11)?,
    }
    .decode()
}

impl PostgresStore {
    async fn seek_rows(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<Vec<SeekRow>, StoreError> {
        let rows = self
            .run(false, |c| async move { c.query(sql, params).await })
            .await?;
        rows.iter().map(seek_from_row).collect()
    }

    /// Deletes the seeks a `WHERE` clause (one parameter) finds; their ids, oldest first.
    async fn delete_seeks_where(&self, clause: &str, key: i64) -> Result<Vec<i64>, StoreError> {
        let sql = format!(
            "WITH gone AS (DELETE FROM seeks WHERE {clause} RETURNING id, created_ms) \
             SELECT id FROM gone ORDER BY created_ms, id"
        );
        let sql = sql.as_str();
        let rows = self
            .run(true, |c| async move { c.query(sql, &[&key]).await })
            .await?;
        rows.iter()
            .map(|r| r.try_get::<_, i64>(0).map_err(StoreError::from))
            .collect()
    }
}

impl SeekStore for PostgresStore {
    fn create_seek<'a>(&'a self, s: &'a SeekRow) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            check_id(s.id)?;
            let (kind, invited, level) = opponent_columns(&s.opponent);
            let insert = format!(
                "INSERT INTO seeks ({SEEK_COLUMNS}) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) \
                 ON CONFLICT (id) DO NOTHING"
            );
            let select = format!("SELECT {SEEK_COLUMNS} FROM seeks WHERE id = $1");
            let (insert, select) = (insert.as_str(), select.as_str());
            let (kind, invited, level) = (&kind, &invited, &level);
            let found = self
                .run(true, |c| async move {
                    let n = c
                        .execute(
                            insert,
                            &[
                                &s.id,
                                &s.seeker_id,
                                &s.preset,
                                &s.lexicon,
                                &s.initial_ms,
                                &s.rated,
                                &s.min_rating,
                                &s.max_rating,
                                kind,
                                invited,
                                level,
                                &s.created_ms,
                            ],
                        )
                        .await?;
                    if n == 1 {
                        return Ok(None);
                    }
                    // The id is taken: by this very seek (a retry), or by another.
                    Ok(Some(c.query_opt(select, &[&s.id]).await?))
                })
                .await?;
            match found {
                None => Ok(()),
                Some(Some(row)) if seek_from_row(&row).ok().as_ref() == Some(s) => Ok(()),
                Some(_) => Err(id_taken(s.id)),
            }
        })
    }

    fn open_seeks(&self, limit: usize) -> StoreFuture<'_, Vec<SeekRow>> {
        Box::pin(async move {
            let sql = format!("SELECT {SEEK_COLUMNS} FROM seeks ORDER BY created_ms, id LIMIT $1");
            self.seek_rows(&sql, &[&sql_limit(limit)]).await
        })
    }

    fn seeks_of(&self, seeker_id: i64) -> StoreFuture<'_, Vec<SeekRow>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT {SEEK_COLUMNS} FROM seeks WHERE seeker_id = $1 ORDER BY created_ms, id"
            );
            self.seek_rows(&sql, &[&seeker_id]).await
        })
    }

    fn take_seek(&self, id: i64) -> StoreFuture<'_, Option<SeekRow>> {
        Box::pin(async move {
            let sql = format!("DELETE FROM seeks WHERE id = $1 RETURNING {SEEK_COLUMNS}");
            let sql = sql.as_str();
            let row = self
                .run(true, |c| async move { c.query_opt(sql, &[&id]).await })
                .await?;
            row.as_ref().map(seek_from_row).transpose()
        })
    }

    fn cancel_seek(&self, id: i64, seeker_id: i64) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            let n = self
                .run(true, |c| async move {
                    c.execute(
                        "DELETE FROM seeks WHERE id = $1 AND seeker_id = $2",
                        &[&id, &seeker_id],
                    )
                    .await
                })
                .await?;
            Ok(n == 1)
        })
    }

    fn delete_seeks_of(&self, seeker_id: i64) -> StoreFuture<'_, Vec<i64>> {
        Box::pin(async move { self.delete_seeks_where("seeker_id = $1", seeker_id).await })
    }

    fn delete_seeks_before(&self, before_ms: i64) -> StoreFuture<'_, Vec<i64>> {
        Box::pin(async move { self.delete_seeks_where("created_ms < $1", before_ms).await })
    }
}
