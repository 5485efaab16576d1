//! [`AccountStore`] on SQLite: reads and writes go through the store's one connection, each
//! write in its own savepoint of a group commit (so `record_rating`'s two rows are one
//! transaction).

use super::super::accounts::{
    check_rating_pair, decode_role, sql_limit, ACCOUNT_COLUMNS, JOINED_COLUMNS, POINT_COLUMNS,
    RATING_COLUMNS,
};
use super::super::{
    Account, AccountStore, NewAccount, Rating, RatingPoint, Role, SessionRow, StoreError,
    StoreFuture,
};
use super::SqliteStore;
use rusqlite::{params, Connection, OptionalExtension, Row};

/// An account's columns from `at` on, as stored (the role still text).
struct RawAccount {
    id: i64,
    username: String,
    skeleton: String,
    password_hash: String,
    email: Option<String>,
    created_ms: i64,
    role: String,
    muted_until_ms: Option<i64>,
    banned: bool,
}

impl RawAccount {
    fn read(r: &Row<'_>, at: usize) -> rusqlite::Result<RawAccount> {
        Ok(RawAccount {
            id: r.get(at)?,
            username: r.get(at + 1)?,
            skeleton: r.get(at + 2)?,
            password_hash: r.get(at + 3)?,
            email: r.get(at + 4)?,
            created_ms: r.get(at + 5)?,
            role: r.get(at + 6)?,
            muted_until_ms: r.get(at + 7)?,
            banned: r.get(at + 8)?,
        })
    }

    fn decode(self) -> Result<Account, StoreError> {
        Ok(Account {
            role: decode_role(self.id, &self.role)?,
            id: self.id,
            username: self.username,
            skeleton: self.skeleton,
            password_hash: self.password_hash,
            email: self.email,
            created_ms: self.created_ms,
            muted_until_ms: self.muted_until_ms,
            banned: self.banned,
        })
    }
}

fn rating_from_row(r: &Row<'_>) -> rusqlite::Result<Rating> {
    Ok(Rating {
        account_id: r.get(0)?,
        category: r.get(1)?,
        rating: r.get(2)?,
        deviation: r.get(3)?,
        volatility: r.get(4)?,
        games: r.get(5)?,
        updated_ms: r.get(6)?,
    })
}

fn point_from_row(r: &Row<'_>) -> rusqlite::Result<RatingPoint> {
    Ok(RatingPoint {
        account_id: r.get(0)?,
        category: r.get(1)?,
        game_id: r.get(2)?,
        rating: r.get(3)?,
        deviation: r.get(4)?,
        at_ms: r.get(5)?,
    })
}

fn account_where(
    c: &Connection,
    clause: &str,
    key: &dyn rusqlite::ToSql,
) -> Result<Option<Account>, StoreError> {
    c.prepare_cached(&format!(
        "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE {clause}"
    ))?
    .query_row([key], |r| RawAccount::read(r, 0))
    .optional()?
    .map(RawAccount::decode)
    .transpose()
}

/// What creating an account found.
enum Created {
    New(i64),
    /// The skeleton is taken, by this account (its columns).
    Taken(Option<RawAccount>),
}

impl AccountStore for SqliteStore {
    fn create_account<'a>(&'a self, new: &'a NewAccount) -> StoreFuture<'a, Option<i64>> {
        let n = new.clone();
        let created =
            self.write_value(move |c| {
                // The unique index on the skeleton decides: no look-up before the insert to race.
                let id = c
                .prepare_cached(
                    "INSERT INTO accounts (username, skeleton, password_hash, email, created_ms) \
                     VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (skeleton) DO NOTHING RETURNING id",
                )?
                .query_row(
                    params![n.username, n.skeleton, n.password_hash, n.email, n.created_ms],
                    |r| r.get(0),
                )
                .optional()?;
                if let Some(id) = id {
                    return Ok(Created::New(id));
                }
                let holder = c
                    .prepare_cached(&format!(
                        "SELECT {ACCOUNT_COLUMNS} FROM accounts WHERE skeleton = ?1"
                    ))?
                    .query_row([&n.skeleton], |r| RawAccount::read(r, 0))
                    .optional()?;
                Ok(Created::Taken(holder))
            });
        Box::pin(async move {
            match created.await? {
                Created::New(id) => Ok(Some(id)),
                Created::Taken(Some(raw)) => {
                    let holder = raw.decode()?;
                    Ok(holder.was_made_by(new).then_some(holder.id))
                }
                Created::Taken(None) => Ok(None),
            }
        })
    }

    fn account_by_skeleton<'a>(&'a self, skeleton: &'a str) -> StoreFuture<'a, Option<Account>> {
        let skeleton = skeleton.to_string();
        self.read(move |c| account_where(c, "skeleton = ?1", &skeleton))
    }

    fn account_by_id(&self, id: i64) -> StoreFuture<'_, Option<Account>> {
        self.read(move |c| account_where(c, "id = ?1", &id))
    }

    fn set_password<'a>(&'a self, id: i64, password_hash: &'a str) -> StoreFuture<'a, bool> {
        let hash = password_hash.to_string();
        self.write_value(move |c| {
            let n = c
                .prepare_cached("UPDATE accounts SET password_hash = ?2 WHERE id = ?1")?
                .execute(params![id, hash])?;
            Ok(n == 1)
        })
    }

    fn set_role(&self, id: i64, role: Role) -> StoreFuture<'_, bool> {
        self.write_value(move |c| {
            let n = c
                .prepare_cached("UPDATE accounts SET role = ?2 WHERE id = ?1")?
                .execute(params![id, role.as_str()])?;
            Ok(n == 1)
        })
    }

    fn set_moderation(
        &self,
        id: i64,
        muted_until_ms: Option<i64>,
        banned: bool,
    ) -> StoreFuture<'_, bool> {
        self.write_value(move |c| {
            let n = c
                .prepare_cached(
                    "UPDATE accounts SET muted_until_ms = ?2, banned = ?3 WHERE id = ?1",
                )?
                .execute(params![id, muted_until_ms, banned])?;
            Ok(n == 1)
        })
    }

    fn create_session<'a>(&'a self, session: &'a SessionRow) -> StoreFuture<'a, ()> {
        let s = session.clone();
        let stored = self.write_value(move |c| {
            let n = c
                .prepare_cached(
                    "INSERT INTO sessions (token_hash, account_id, created_ms, last_seen_ms) \
                     VALUES (?1, ?2, ?3, ?4) ON CONFLICT (token_hash) DO NOTHING",
                )?
                .execute(params![
                    s.token_hash,
                    s.account_id,
                    s.created_ms,
                    s.last_seen_ms
                ])?;
            if n == 1 {
                return Ok(true);
            }
            // The same session sent again is stored; another under the same hash is not.
            let same = c
                .prepare_cached(
                    "SELECT account_id = ?2 AND created_ms = ?3 FROM sessions \
                     WHERE token_hash = ?1",
                )?
                .query_row(params![s.token_hash, s.account_id, s.created_ms], |r| {
                    r.get::<_, bool>(0)
                })
                .optional()?;
            Ok(same == Some(true))
        });
        Box::pin(async move {
            if stored.await? {
                Ok(())
            } else {
                Err(StoreError::Other(format!(
                    "a session with the token hash {} is stored already for another sign-in",
                    session.token_hash
                )))
            }
        })
    }

    fn session<'a>(
        &'a self,
        token_hash: &'a str,
    ) -> StoreFuture<'a, Option<(SessionRow, Account)>> {
        let hash = token_hash.to_string();
        self.read(move |c| {
            let row = c
                .prepare_cached(&format!(
                    "SELECT {JOINED_COLUMNS} FROM sessions AS s \
                     JOIN accounts AS a ON a.id = s.account_id WHERE s.token_hash = ?1"
                ))?
                .query_row([&hash], |r| {
                    let session = SessionRow {
                        token_hash: r.get(0)?,
                        account_id: r.get(1)?,
                        created_ms: r.get(2)?,
                        last_seen_ms: r.get(3)?,
                    };
                    Ok((session, RawAccount::read(r, 4)?))
                })
                .optional()?;
            row.map(|(s, a)| Ok((s, a.decode()?))).transpose()
        })
    }

    fn touch_session<'a>(&'a self, token_hash: &'a str, now_ms: i64) -> StoreFuture<'a, bool> {
        let hash = token_hash.to_string();
        self.write_value(move |c| {
            let n = c
                .prepare_cached(
                    "UPDATE sessions SET last_seen_ms = MAX(last_seen_ms, ?2) \
                     WHERE token_hash = ?1",
                )?
                .execute(params![hash, now_ms])?;
            Ok(n == 1)
        })
    }

    fn delete_session<'a>(&'a self, token_hash: &'a str) -> StoreFuture<'a, bool> {
        let hash = token_hash.to_string();
        self.write_value(move |c| {
            let n = c
                .prepare_cached("DELETE FROM sessions WHERE token_hash = ?1")?
                .execute([hash])?;
            Ok(n == 1)
        })
    }

    fn delete_sessions_of<'a>(
        &'a self,
        account_id: i64,
        except_token_hash: Option<&'a str>,
    ) -> StoreFuture<'a, usize> {
        let except = except_token_hash.map(str::to_string);
        self.write_value(move |c| {
            c.prepare_cached(
                "DELETE FROM sessions WHERE account_id = ?1 \
                 AND (?2 IS NULL OR token_hash <> ?2)",
            )?
            .execute(params![account_id, except])
        })
    }

    fn delete_sessions_idle_since(&self, before_ms: i64) -> StoreFuture<'_, usize> {
        self.write_value(move |c| {
            c.prepare_cached("DELETE FROM sessions WHERE last_seen_ms < ?1")?
                .execute([before_ms])
        })
    }

    fn rating<'a>(&'a self, account_id: i64, category: &'a str) -> StoreFuture<'a, Option<Rating>> {
        let category = category.to_string();
        self.read(move |c| {
            Ok(c.prepare_cached(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE account_id = ?1 AND category = ?2"
            ))?
            .query_row(params![account_id, category], rating_from_row)
            .optional()?)
        })
    }

    fn ratings_of(&self, account_id: i64) -> StoreFuture<'_, Vec<Rating>> {
        self.read(move |c| {
            Ok(c.prepare_cached(&format!(
                "SELECT {RATING_COLUMNS} FROM ratings WHERE account_id = ?1 ORDER BY category"
            ))?
            .query_map([account_id], rating_from_row)?
            .collect::<rusqlite::Result<_>>()?)
        })
    }

    fn record_rating<'a>(
        &'a self,
        rating: &'a Rating,
        point: &'a RatingPoint,
    ) -> StoreFuture<'a, bool> {
        if let Err(e) = check_rating_pair(rating, point) {
            return Box::pin(async move { Err(e) });
        }
        let (r, p) = (rating.clone(), point.clone());
        self.write_value(move |c| {
            // The history's key (account, category, game) makes a game count once.
            let n = c
                .prepare_cached(&format!(
                    "INSERT INTO rating_history ({POINT_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6) \
                     ON CONFLICT (account_id, category, game_id) DO NOTHING"
                ))?
                .execute(params![
                    p.account_id,
                    p.category,
                    p.game_id,
                    p.rating,
                    p.deviation,
                    p.at_ms
                ])?;
            if n == 0 {
                let stored = c
                    .prepare_cached(&format!(
                        "SELECT {POINT_COLUMNS} FROM rating_history \
                         WHERE account_id = ?1 AND category = ?2 AND game_id = ?3"
                    ))?
                    .query_row(params![p.account_id, p.category, p.game_id], point_from_row)
                    .optional()?;
                return Ok(stored.as_ref() == Some(&p));
            }
            c.prepare_cached(&format!(
                "INSERT INTO ratings ({RATING_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7) \
                 ON CONFLICT (account_id, category) DO UPDATE SET rating = excluded.rating, \
                 deviation = excluded.deviation, volatility = excluded.volatility, \
                 games = excluded.games, updated_ms = excluded.updated_ms"
            ))?
            .execute(params![
                r.account_id,
                r.category,
                r.rating,
                r.deviation,
                r.volatility,
                r.games,
                r.updated_ms
            ])?;
            Ok(true)
        })
    }

    fn rating_history<'a>(
        &'a self,
        account_id: i64,
        category: &'a str,
        limit: usize,
    ) -> StoreFuture<'a, Vec<RatingPoint>> {
        let category = category.to_string();
        self.read(move |c| {
            Ok(c.prepare_cached(&format!(
                "SELECT {POINT_COLUMNS} FROM rating_history \
                 WHERE account_id = ?1 AND category = ?2 \
                 ORDER BY at_ms DESC, game_id DESC LIMIT ?3"
            ))?
            .query_map(
                params![account_id, category, sql_limit(limit)],
                point_from_row,
            )?
            .collect::<rusqlite::Result<_>>()?)
        })
    }
}
