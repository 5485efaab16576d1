//! [`AccountStore`] on PostgreSQL. Each write is one statement (atomic without an explicit
//! transaction: `record_rating` writes its two rows in one statement) and safe to repeat, since
//! a statement whose connection was lost is tried once more (see `postgres.rs`): updates set
//! values rather than add to them, and an insert that finds its own row already there (its first
//! attempt committed, the answer was lost) counts as done.

use super::super::accounts::{
    check_rating_pair, decode_role, sql_limit, ACCOUNT_COLUMNS, JOINED_COLUMNS, POINT_COLUMNS,
    RATING_COLUMNS,
};
use super::super::{
    Account, AccountStore, NewAccount, Rating, RatingPoint, Role, SessionRow, StoreError,
    StoreFuture,
};
use super::PostgresStore;
use tokio_postgres::Row;

/// An account from the columns of `r` from `at` on.
fn account_from_row(r: &Row, at: usize) -> Result<Account, StoreError> {
    let id: i64 = r.try_get(at)?;
    let role: String = r.try_get(at + 6)?;
    Ok(Account {
        role: decode_role(id, &role)?,
        id,
        username: r.try_get(at + 1)?,
        skeleton: r.try_get(at + 2)?,
        password_hash: r.try_get(at + 3)?,
        email: r.try_get(at + 4)?,
        created_ms: r.try_get(at + 5)?,
        muted_until_ms: r.try_get(at + 7)?,
        banned: r.try_get(at + 8)?,
    })
}

fn rating_from_row(r: &Row) -> Result<Rating, StoreError> {
    let account_id: i64 = r.try_get(0)?;
    let category: String = r.try_get(1)?;
    let games: i64 = r.try_get(5)?;
    Ok(Rating {
        games: u32::try_from(games).map_err(|_| {
            StoreError::Other(format!(
                "account {account_id}: its count of games in {category:?} ({games}) is unreadable"
            ))
        })?,
        account_id,
        category,
        rating: r.try_get(2)?,
        deviation: r.try_get(3)?,
        volatility: r.try_get(4)?,
        updated_ms: r.try_get(6)?,
    })
}

fn point_from_row(r: &Row) -> Result<RatingPoint, StoreError> {
    Ok(RatingPoint {
        account_id: r.try_get(0)?,
        category: r.try_get(1)?,
        game_id: r.try_get(2)?,
        rating: r.try_get(3)?,
        deviation: r.try_get(4)?,
        at_ms: r.try_get(5)?,
    })
}

impl PostgresStore {
    /// The account a query (with one parameter) finds.
    async fn account_where(
        &self,
        clause: &str,
        key: &(dyn tokio_postgres::types::ToSql + Sync),
    ) -> Result<Option<Account>, StoreError> {
        let sql = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE {clause}");
        let sql = sql.as_str();
        let row = self
            .run(false, |c| async move { c.query_opt(sql, &[key]).await })
            .await?;
        row.map(|r| account_from_row(&r, 0)).transpose()
    }

    /// An update of one account's row; whether it exists.
    async fn update_account(
        &self,
        sql: &str,
        params: &[&(dyn tokio_postgres::types::ToSql + Sync)],
    ) -> Result<bool, StoreError> {
        let n = self
            .run(true, |c| async move { c.execute(sql, params).await })
            .await?;
        Ok(n == 1)
    }
}

impl AccountStore for PostgresStore {
    fn create_account<'a>(&'a self, new: &'a NewAccount) -> StoreFuture<'a, Option<i64>> {
        Box::pin(async move {
            let select = format!("SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE skeleton = $1");
            let select = select.as_str();
            // The unique index on the skeleton decides: no look-up before the insert to race.
            // When it is taken, the holder is read in the same attempt: the account itself if a
            // first attempt stored it and its answer was lost.
            let found = self
                .run(true, |c| async move {
                    let inserted = c
                        .query_opt(
                            "INSERT INTO accounts \
                             (username, skeleton, password_hash, email, created_ms) \
                             VALUES ($1, $2, $3, $4, $5) \
                             ON CONFLICT (skeleton) DO NOTHING RETURNING id",
                            &[
                                &new.username,
                                &new.skeleton,
                                &new.password_hash,
                                &new.email,
                                &new.created_ms,
                            ],
                        )
                        .await?;
                    match inserted {
                        Some(r) => Ok(Ok(r.try_get::<_, i64>(0)?)),
                        None => Ok(Err(c.query_opt(select, &[&new.skeleton]).await?)),
                    }
                })
                .await?;
            match found {
                Ok(id) => Ok(Some(id)),
                Err(Some(row)) => {
                    let holder = account_from_row(&row, 0)?;
                    Ok(holder.was_made_by(new).then_some(holder.id))
                }
                Err(None) => Ok(None),
            }
        })
    }

    fn account_by_skeleton<'a>(&'a self, skeleton: &'a str) -> StoreFuture<'a, Option<Account>> {
        Box::pin(async move { self.account_where("skeleton = $1", &skeleton).await })
    }

    fn account_by_id(&self, id: i64) -> StoreFuture<'_, Option<Account>> {
        Box::pin(async move { self.account_where("id = $1", &id).await })
    }

    fn set_password<'a>(&'a self, id: i64, password_hash: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            self.update_account(
                "UPDATE accounts SET password_hash = $2 WHERE id = $1",
                &[&id, &password_hash],
            )
            .await
        })
    }

    fn set_role(&self, id: i64, role: Role) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            self.update_account(
                "UPDATE accounts SET role = $2 WHERE id = $1",
                &[&id, &role.as_str()],
            )
            .await
        })
    }

    fn set_moderation(
        &self,
        id: i64,
        muted_until_ms: Option<i64>,
        banned: bool,
    ) -> StoreFuture<'_, bool> {
        Box::pin(async move {
            self.update_account(
                "UPDATE accounts SET muted_until_ms = $2, banned = $3 WHERE id = $1",
                &[&id, &muted_until_ms, &banned],
            )
            .await
        })
    }

    fn create_session<'a>(&'a self, s: &'a SessionRow) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            // One statement: the insert, and (when the hash is taken) whether the stored row
            // is this one (the main query sees the table as it was before the statement).
            let (inserted, same) = self
                .run(true, |c| async move {
                    let row = c
                        .query_one(
                            "WITH ins AS (INSERT INTO sessions \
                                 (token_hash, account_id, created_ms, last_seen_ms) \
                                 VALUES ($1, $2, $3, $4) \
                                 ON CONFLICT (token_hash) DO NOTHING RETURNING 1) \
                             SELECT (SELECT count(*) FROM ins), \
                                    (SELECT account_id = $2::bigint AND created_ms = $3::bigint \
                                     FROM sessions WHERE token_hash = $1::text)",
                            &[&s.token_hash, &s.account_id, &s.created_ms, &s.last_seen_ms],
                        )
                        .await?;
                    Ok((
                        row.try_get::<_, i64>(0)?,
                        row.try_get::<_, Option<bool>>(1)?,
                    ))
                })
                .await?;
            if inserted == 1 || same == Some(true) {
                Ok(())
            } else {
                Err(StoreError::Other(format!(
                    "a session with the token hash {} is stored already for another sign-in",
                    s.token_hash
                )))
            }
        })
    }

    fn session<'a>(
        &'a self,
        token_hash: &'a str,
    ) -> StoreFuture<'a, Option<(SessionRow, Account)>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT {JOINED_COLUMNS} FROM sessions AS s \
                 JOIN accounts AS a ON a.id = s.account_id WHERE s.token_hash = $1"
            );
            let sql = sql.as_str();
            let row = self
                .run(
                    false,
                    |c| async move { c.query_opt(sql, &[&token_hash]).await },
                )
                .await?;
            let Some(r) = row else { return Ok(None) };
            let session = SessionRow {
                token_hash: r.try_get(0)?,
                account_id: r.try_get(1)?,
                created_ms: r.try_get(2)?,
                last_seen_ms: r.try_get(3)?,
            };
            Ok(Some((session, account_from_row(&r, 4)?)))
        })
    }

    fn touch_session<'a>(&'a self, token_hash: &'a str, now_ms: i64) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let n = self
                .run(true, |c| async move {
                    c.execute(
                        "UPDATE sessions SET last_seen_ms = GREATEST(last_seen_ms, $2) \
                         WHERE token_hash = $1",
                        &[&token_hash, &now_ms],
                    )
                    .await
                })
                .await?;
            Ok(n == 1)
        })
    }

    fn delete_session<'a>(&'a self, token_hash: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let n = self
                .run(true, |c| async move {
                    c.execute("DELETE FROM sessions WHERE token_hash = $1", &[&token_hash])
                        .await
                })
                .await?;
            Ok(n == 1)
        })
    }

    fn delete_sessions_of<'a>(
        &'a self,
        account_id: i64,
        except_token_hash: Option<&'a str>,
    ) -> StoreFuture<'a, usize> {
        Box::pin(async move {
            let n = self
                .run(true, |c| async move {
                    c.execute(
                        "DELETE FROM sessions WHERE account_id = $1 \
                         AND ($2::text IS NULL OR token_hash <> $2::text)",
                        &[&account_id, &except_token_hash],
                    )
                    .await
                })
                .await?;
            Ok(n as usize)
        })
    }

    fn delete_sessions_idle_since(&self, before_ms: i64) -> StoreFuture<'_, usize> {
        Box::pin(async move {
            let n = self
                .run(true, |c| async move {
                    c.execute(
                        "DELETE FROM sessions WHERE last_seen_ms < $1",
                        &[&before_ms],
                    )
                    .await
                })
                .await?;
            Ok(n as usize)
        })
    }

    fn rating<'a>(&'a self, account_id: i64, category: &'a str) -> StoreFuture<'a, Option<Rating>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE account_id = $1 AND category = $2"
            );
            let sql = sql.as_str();
            let row = self
                .run(false, |c| async move {
                    c.query_opt(sql, &[&account_id, &category]).await
                })
                .await?;
            row.as_ref().map(rating_from_row).transpose()
        })
    }

    fn ratings_of(&self, account_id: i64) -> StoreFuture<'_, Vec<Rating>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE account_id = $1 ORDER BY category"
            );
            let sql = sql.as_str();
            let rows = self
                .run(false, |c| async move { c.query(sql, &[&account_id]).await })
                .await?;
            rows.iter().map(rating_from_row).collect()
        })
    }

    fn record_rating<'a>(
        &'a self,
        rating: &'a Rating,
        point: &'a RatingPoint,
    ) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            check_rating_pair(rating, point)?;
            let games = i64::from(rating.games);
            let games = &games;
            // One statement, so both rows or neither: the point (its key makes a game count
            // once) and, only if the point was new, the rating. When the point was there
            // already, the stored one is read back (as the table was before the statement).
            let (inserted, stored) = self
                .run(true, |c| async move {
                    let row = c
                        .query_one(
                            "WITH h AS (INSERT INTO rating_history \
                                 (account_id, category, game_id, rating, deviation, at_ms) \
                                 VALUES ($1, $2, $3, $4, $5, $6) \
                                 ON CONFLICT (account_id, category, game_id) DO NOTHING \
                                 RETURNING 1), \
                             r AS (INSERT INTO ratings \
                                 (account_id, category, rating, deviation, volatility, games, \
                                  updated_ms) \
                                 SELECT $1::bigint, $2::text, $7::float8, $8::float8, \
                                        $9::float8, $10::bigint, $11::bigint \
                                 WHERE EXISTS (SELECT 1 FROM h) \
                                 ON CONFLICT (account_id, category) DO UPDATE SET \
                                 rating = excluded.rating, deviation = excluded.deviation, \
                                 volatility = excluded.volatility, games = excluded.games, \
                                 updated_ms = excluded.updated_ms) \
                             SELECT (SELECT count(*) FROM h), p.rating, p.deviation, p.at_ms \
                             FROM (SELECT 1) AS one LEFT JOIN rating_history AS p \
                             ON p.account_id = $1::bigint AND p.category = $2::text \
                             AND p.game_id = $3::text",
                            &[
                                &point.account_id,
                                &point.category,
                                &point.game_id,
                                &point.rating,
                                &point.deviation,
                                &point.at_ms,
                                &rating.rating,
                                &rating.deviation,
                                &rating.volatility,
                                games,
                                &rating.updated_ms,
                            ],
                        )
                        .await?;
                    let stored = match row.try_get::<_, Option<f64>>(1)? {
                        Some(r) => Some((r, row.try_get::<_, f64>(2)?, row.try_get::<_, i64>(3)?)),
                        None => None,
                    };
                    Ok((row.try_get::<_, i64>(0)?, stored))
                })
                .await?;
            Ok(inserted == 1 || stored == Some((point.rating, point.deviation, point.at_ms)))
        })
    }

    fn rating_history<'a>(
        &'a self,
        account_id: i64,
        category: &'a str,
        limit: usize,
    ) -> StoreFuture<'a, Vec<RatingPoint>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT {POINT_COLUMNS} FROM rating_history \
                 WHERE account_id = $1 AND category = $2 \
                 ORDER BY at_ms DESC, game_id DESC LIMIT $3"
            );
            let (sql, limit) = (sql.as_str(), sql_limit(limit));
            let rows = self
                .run(false, |c| async move {
                    c.query(sql, &[&account_id, &category, &limit]).await
                })
                .await?;
            rows.iter().map(point_from_row).collect()
        })
    }
}
