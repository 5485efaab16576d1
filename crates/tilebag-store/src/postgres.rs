//! PostgreSQL (no TLS: for a database on the same host or a private network), through a pool of
//! connections (bb8) that survives the database restarting, failing over or dropping
//! connections:
//!
//! - A connection found closed is never handed out again: the pool checks each one as it is
//!   taken (a flag of the client, no round trip) and opens a new one, retrying with backoff for
//!   at most [`CHECKOUT_TIMEOUT`]; then the request fails as [`StoreError::Unavailable`].
//! - A statement that fails because its connection was lost is tried once more on a fresh
//!   connection, newly opened (the pool's others may have been cut at the same moment, as a
//!   restart of the database does), retrying the connection with backoff for at most
//!   [`CHECKOUT_TIMEOUT`]. Every statement is safe to repeat: reads and the monotonic checkpoint are, and
//!   the two inserts (a game, an event) are idempotent: a row already stored with the same
//!   content (the first attempt committed, but its answer was lost) counts as success, one with
//!   other content is an error.
//! - If the answer to a write is lost and the second attempt cannot reach the database either,
//!   the write's outcome is unknown: it fails as [`StoreError::Uncertain`], and the caller finds
//!   out with [`PostgresStore`]'s `stored_event` once the database is back (see `live.rs`).
//!
//! Each write is a single statement, hence atomic without an explicit transaction; with the
//! default `synchronous_commit = on` it is durable when it returns.
//!
//! Connecting brings the schema up to date first (numbered migrations, in a transaction on a
//! connection of its own, `postgres/schema.rs`); the accounts tables are read and written in
//! `postgres/accounts.rs`.

use super::{
    decode_bot, decode_event, decode_ruleset, encode_bot, encode_event, encode_ruleset, Checkpoint,
    GameRecord, GameStatus, StoreError, StoreFuture, StoredEvent, Unfinished,
};
use bb8::{ManageConnection, Pool, PooledConnection, RunError};
use std::future::Future;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio_postgres::error::SqlState;
use tokio_postgres::{Client, Config, NoTls, Row};

mod accounts;
mod appends;
mod chat;
mod game_seats;
mod leases;
mod schema;
mod seeks;

/// The most connections open at once.
const POOL_SIZE: u32 = 16;
/// How long a request waits for a connection (the pool retries connecting with backoff, from
/// 200 ms, meanwhile) before it is refused as unavailable.
const CHECKOUT_TIMEOUT: Duration = Duration::from_secs(3);
/// How long opening one connection may take (a host that does not answer at all).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(3);
/// How long one statement may take before its connection is presumed lost.
const STATEMENT_TIMEOUT: Duration = Duration::from_secs(10);

pub struct PostgresStore {
    pool: Pool<Manager>,
    /// Why the pool last failed to open a connection (for the refusal's message).
    last_connect_error: Arc<Mutex<Option<String>>>,
    /// Events waiting to be appended together (`postgres/appends.rs`).
    appends: appends::Appends,
}

/// Opens tokio-postgres connections for the pool.
struct Manager {
    config: Config,
}

impl ManageConnection for Manager {
    type Connection = Client;
    type Error = String;

    async fn connect(&self) -> Result<Client, String> {
        let (client, connection) = self.config.connect(NoTls).await.map_err(|e| describe(&e))?;
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                tracing::warn!(error = %describe(&e), "PostgreSQL connection lost");
            }
        });
        Ok(client)
    }

    async fn is_valid(&self, conn: &mut Client) -> Result<(), String> {
        if conn.is_closed() {
            Err("the connection was closed".into())
        } else {
            Ok(())
        }
    }

    fn has_broken(&self, conn: &mut Client) -> bool {
        conn.is_closed()
    }
}

/// Keeps the pool's last connection error.
#[derive(Debug, Clone)]
struct LastError(Arc<Mutex<Option<String>>>);

impl bb8::ErrorSink<String> for LastError {
    fn sink(&self, error: String) {
        if let Ok(mut last) = self.0.lock() {
            *last = Some(error);
        }
    }
    fn boxed_clone(&self) -> Box<dyn bb8::ErrorSink<String>> {
        Box::new(self.clone())
    }
}

/// An error's text with its cause (tokio-postgres keeps the I/O error or the server's message
/// in the source).
fn describe(e: &tokio_postgres::Error) -> String {
    match std::error::Error::source(e) {
        Some(cause) if !e.to_string().contains(&cause.to_string()) => format!("{e}: {cause}"),
        _ => e.to_string(),
    }
}

/// Whether an error means the database is out of reach (or cannot write now) rather than a
/// fault of the statement: the connection was lost or refused, the server is shutting down or
/// starting, has no room, or is a read-only standby after a failover.
pub fn is_unavailable(e: &tokio_postgres::Error) -> bool {
    match e.code() {
        None => true,
        Some(code) => {
            let c = code.code();
            c.starts_with("08") // connection exception
                || c.starts_with("53") // insufficient resources (disk full, too many connections)
                || c.starts_with("57P") // admin / crash shutdown, cannot connect now
                || *code == SqlState::READ_ONLY_SQL_TRANSACTION
        }
    }
}

/// Whether the statement may have reached the server before the connection was lost: no
/// answer came back (a server's error answer means it was not carried out).
fn lost_in_flight(e: &tokio_postgres::Error) -> bool {
    e.code().is_none() || e.is_closed()
}

/// How an attempt failed.
enum Attempt {
    /// The statement was answered with an error, or never sent: nothing was written.
    Failed(tokio_postgres::Error),
    /// The connection was lost while the statement was out: it may have been carried out.
    Lost(String),
}

const GAME_COLUMNS: &str = "id, seat0_token, seat1_token, player0, player1, preset, ruleset_json, \
     seed, lexicon, created_at_ms, status, result_json, checkpoint_ms, seeded,
     bot_json";
/// What a game's row is read as: the columns it is written with, and the count of events seen.
const SELECT_COLUMNS: &str = "id, seat0_token, seat1_token, player0, player1, preset, \
     ruleset_json, seed, lexicon, created_at_ms, status, result_json, checkpoint_ms, seeded, \
     bot_json, events_seen";

/// A connection a statement runs on: one from the pool, or one opened for a retry.
enum Conn {
    Pooled(PooledConnection<'static, Manager>),
    Fresh(Client),
}

impl std::ops::Deref for Conn {
    type Target = Client;
    fn deref(&self) -> &Client {
        match self {
            Conn::Pooled(c) => c,
            Conn::Fresh(c) => c,
        }
    }
}

impl PostgresStore {
    /// Connect (the database must be there at start) and bring its schema up to date (see
    /// `postgres/schema.rs`).
    pub async fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        let mut config: Config = url
            .parse()
            .map_err(|e| StoreError::Other(format!("the PostgreSQL URL is not usable: {e}")))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        if config.get_application_name().is_none() {
            config.application_name("tilebag");
        }
        let last = Arc::new(Mutex::new(None));
        let pool = Pool::builder()
            .max_size(POOL_SIZE)
            .connection_timeout(CHECKOUT_TIMEOUT)
            .test_on_check_out(true)
            .error_sink(Box::new(LastError(last.clone())))
            .build(Manager { config })
            .await
            .map_err(StoreError::Unavailable)?;
        let store = PostgresStore {
            pool,
            last_connect_error: last,
            appends: appends::Appends::default(),
        };
        // On a connection of its own (a transaction is never left open on a pooled one).
        let mut client = store.dedicated().await?;
        schema::migrate(&mut client, &super::redact_url(url)).await?;
        Ok(store)
    }

    /// A connection from the pool, or `Unavailable` with the reason.
    async fn checkout(&self) -> Result<Conn, StoreError> {
        match self.pool.get_owned().await {
            Ok(c) => {
                // Connecting works again: an old failure is no reason for a later refusal.
                if let Ok(mut last) = self.last_connect_error.lock() {
                    *last = None;
                }
                Ok(Conn::Pooled(c))
            }
            Err(RunError::User(e)) => Err(StoreError::Unavailable(format!(
                "cannot connect to PostgreSQL: {e}"
            ))),
            Err(RunError::TimedOut) => {
                let why = self
                    .last_connect_error
                    .lock()
                    .ok()
                    .and_then(|l| l.clone())
                    .unwrap_or_else(|| "no connection came free".into());
                Err(StoreError::Unavailable(format!(
                    "no PostgreSQL connection within {} s ({why})",
                    CHECKOUT_TIMEOUT.as_secs()
                )))
            }
        }
    }

    /// A newly opened connection (not one of the pool's, which may all have been cut at once,
    /// as a database restart does), retrying with backoff for at most [`CHECKOUT_TIMEOUT`].
    async fn fresh(&self) -> Result<Conn, StoreError> {
        self.dedicated().await.map(Conn::Fresh)
    }

    /// A newly opened connection, outside the pool, as [`PostgresStore::fresh`] opens it.
    async fn dedicated(&self) -> Result<Client, StoreError> {
        let start = std::time::Instant::now();
        let mut delay = Duration::from_millis(100);
        loop {
            match self.pool.dedicated_connection().await {
                Ok(c) => return Ok(c),
                Err(e) if start.elapsed() + delay >= CHECKOUT_TIMEOUT => {
                    return Err(StoreError::Unavailable(format!(
                        "cannot connect to PostgreSQL: {e}"
                    )))
                }
                Err(_) => {
                    tokio::time::sleep(delay).await;
                    delay *= 2;
                }
            }
        }
    }

    /// One attempt of `f`, on a pooled connection or (`fresh`) a newly opened one.
    async fn attempt<T, F, Fut>(&self, fresh: bool, f: &F) -> Result<T, Result<Attempt, StoreError>>
    where
        F: Fn(Conn) -> Fut,
        Fut: Future<Output = Result<T, tokio_postgres::Error>>,
    {
        let conn = if fresh {
            self.fresh().await
        } else {
            self.checkout().await
        }
        .map_err(Err)?;
        match tokio::time::timeout(STATEMENT_TIMEOUT, f(conn)).await {
            Ok(Ok(v)) => Ok(v),
            Ok(Err(e)) if lost_in_flight(&e) => Err(Ok(Attempt::Lost(describe(&e)))),
            Ok(Err(e)) => Err(Ok(Attempt::Failed(e))),
            Err(_) => Err(Ok(Attempt::Lost(format!(
                "no answer within {} s",
                STATEMENT_TIMEOUT.as_secs()
            )))),
        }
    }

    /// Run `f` on a pooled connection; if its connection is lost, once more on a fresh one.
    /// `f` must be safe to repeat. A write whose connection was lost while it was out, and whose
    /// second attempt cannot reach the database, fails as `Uncertain` (`write` is true) or
    /// `Unavailable` (a read).
    async fn run<T, F, Fut>(&self, write: bool, f: F) -> Result<T, StoreError>
    where
        F: Fn(Conn) -> Fut,
        Fut: Future<Output = Result<T, tokio_postgres::Error>>,
    {
        let first = match self.attempt(false, &f).await {
            Ok(v) => return Ok(v),
            Err(Err(e)) => return Err(e),
            Err(Ok(Attempt::Failed(e))) if !is_unavailable(&e) => return Err(e.into()),
            Err(Ok(a)) => a,
        };
        let (sent, why) = match first {
            Attempt::Failed(e) => (false, describe(&e)),
            Attempt::Lost(why) => (true, why),
        };
        tracing::warn!(why = %why, "PostgreSQL: trying once more on a fresh connection");
        match self.attempt(true, &f).await {
            Ok(v) => Ok(v),
            Err(Ok(Attempt::Failed(e))) if !is_unavailable(&e) => Err(e.into()),
            Err(second) => {
                let why2 = match second {
                    Ok(Attempt::Failed(e)) => describe(&e),
                    Ok(Attempt::Lost(w)) => w,
                    Err(StoreError::Unavailable(w)) => w,
                    Err(e) => e.to_string(),
                };
                if write && sent {
                    Err(StoreError::Uncertain(format!(
                        "the connection was lost while writing ({why}), then {why2}"
                    )))
                } else {
                    Err(StoreError::Unavailable(format!("{why}; then {why2}")))
                }
            }
        }
    }

    /// Appends an event (and marks the game ended with `ended`), only while `fence` holds the
    /// game's lease when one is given (see `leases.rs`); together with the events other games
    /// append meanwhile (`postgres/appends.rs`).
    pub(crate) async fn append(
        &self,
        game_id: &str,
        ev: &StoredEvent,
        ended: Option<&str>,
        fence: Option<&super::Fence>,
    ) -> Result<(), StoreError> {
        self.append_grouped(appends::Row {
            game_id: game_id.to_string(),
            seq: ev.seq as i64,
            at_ms: ev.event.at_ms,
            wall_ms: ev.wall_ms,
            json: encode_event(&ev.event),
            ended: ended.map(str::to_string),
            fence: fence.cloned(),
        })
        .await
    }

    async fn events(&self, id: &str) -> Result<Vec<StoredEvent>, StoreError> {
        let rows = self
            .run(false, |c| async move {
                c.query(
                    "SELECT seq, wall_ms, event_json FROM events WHERE game_id = $1 ORDER BY seq",
                    &[&id],
                )
                .await
            })
            .await?;
        rows.iter()
            .map(|r| {
                let seq: i64 = r.try_get(0)?;
                let json: String = r.try_get(2)?;
                Ok(StoredEvent {
                    seq: seq as u64,
                    wall_ms: r.try_get(1)?,
                    event: decode_event(id, seq, &json)?,
                })
            })
            .collect()
    }
}

fn game_from_row(r: &Row) -> Result<GameRecord, StoreError> {
    game_from_row_at(r, 0)
}

/// A game's row ([`SELECT_COLUMNS`]) from column `at` on (after a joined table's columns).
fn game_from_row_at(r: &Row, at: usize) -> Result<GameRecord, StoreError> {
    let id: String = r.try_get(at)?;
    let ruleset_json: String = r.try_get(at + 6)?;
    let status: String = r.try_get(at + 10)?;
    Ok(GameRecord {
        ruleset: decode_ruleset(&id, &ruleset_json)?,
        tokens: [r.try_get(at + 1)?, r.try_get(at + 2)?],
        names: [r.try_get(at + 3)?, r.try_get(at + 4)?],
        preset: r.try_get(at + 5)?,
        seed: r.try_get::<_, i64>(at + 7)? as u64,
        lexicon: r.try_get(at + 8)?,
        created_at_ms: r.try_get(at + 9)?,
        status: GameStatus::parse(&id, &status)?,
        result_json: r.try_get(at + 11)?,
        checkpoint_ms: r.try_get(at + 12)?,
        events_seen: u64::try_from(r.try_get::<_, i64>(at + 15)?).unwrap_or(0),
        seeded: r.try_get(at + 13)?,
        bot: decode_bot(&id, r.try_get(at + 14)?)?,
        id,
    })
}

impl super::Store for PostgresStore {
    fn kind(&self) -> &'static str {
        "postgres"
    }

    fn accounts(&self) -> &dyn super::AccountStore {
        self
    }

    fn chat(&self) -> &dyn super::ChatStore {
        self
    }

    fn seats(&self) -> &dyn super::SeatStore {
        self
    }

    fn seeks(&self) -> &dyn super::SeekStore {
        self
    }

    fn leases(&self) -> Option<&dyn super::LeaseStore> {
        Some(self)
    }

    fn create_game<'a>(&'a self, g: &'a GameRecord) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let ruleset = encode_ruleset(&g.ruleset);
            let seed = g.seed as i64;
            let bot = encode_bot(&g.bot);
            let bot = &bot;
            let (ruleset, status) = (ruleset.as_str(), g.status.as_str());
            let sql = format!(
                "INSERT INTO games ({GAME_COLUMNS}) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) \
                 ON CONFLICT (id) DO NOTHING"
            );
            let sql = sql.as_str();
            // Idempotent: a retry finding the row its first attempt stored (same secret seat
            // token) succeeds; a game id already taken by another game is an error.
            let inserted = self
                .run(true, |c| async move {
                    let n = c
                        .execute(
                            sql,
                            &[
                                &g.id,
                                &g.tokens[0],
                                &g.tokens[1],
                                &g.names[0],
                                &g.names[1],
                                &g.preset,
                                &ruleset,
                                &seed,
                                &g.lexicon,
                                &g.created_at_ms,
                                &status,
                                &g.result_json,
                                &g.checkpoint_ms,
                                &g.seeded,
                                &bot,
                            ],
                        )
                        .await?;
                    if n == 1 {
                        return Ok(true);
                    }
                    let row = c
                        .query_opt("SELECT seat0_token FROM games WHERE id = $1", &[&g.id])
                        .await?;
                    Ok(row.and_then(|r| r.get::<_, Option<String>>(0)).as_deref()
                        == Some(g.tokens[0].as_str()))
                })
                .await?;
            if inserted {
                Ok(())
            } else {
                Err(StoreError::Other(format!(
                    "a game with the id {} is stored already",
                    g.id
                )))
            }
        })
    }

    fn append_event<'a>(
        &'a self,
        game_id: &'a str,
        ev: &'a StoredEvent,
        ended: Option<&'a str>,
    ) -> StoreFuture<'a, ()> {
        Box::pin(self.append(game_id, ev, ended, None))
    }

    fn stored_event<'a>(
        &'a self,
        game_id: &'a str,
        seq: u64,
    ) -> StoreFuture<'a, Option<StoredEvent>> {
        Box::pin(async move {
            let s = seq as i64;
            let row = self
                .run(false, |c| async move {
                    c.query_opt(
                        "SELECT wall_ms, event_json FROM events WHERE game_id = $1 AND seq = $2",
                        &[&game_id, &s],
                    )
                    .await
                })
                .await?;
            let Some(row) = row else { return Ok(None) };
            let json: String = row.try_get(1)?;
            Ok(Some(StoredEvent {
                seq,
                wall_ms: row.try_get(0)?,
                event: decode_event(game_id, s, &json)?,
            }))
        })
    }

    fn checkpoint<'a>(&'a self, clocks: &'a [Checkpoint]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            if clocks.is_empty() {
                return Ok(());
            }
            let ids: Vec<&str> = clocks.iter().map(|cp| cp.id.as_str()).collect();
            let ms: Vec<i64> = clocks.iter().map(|cp| cp.game_ms).collect();
            let seen: Vec<i64> = clocks.iter().map(|cp| cp.events as i64).collect();
            let (ids, ms, seen) = (&ids, &ms, &seen);
            // Checkpoints only move forwards: repeating one changes nothing.
            self.run(true, |c| async move {
                c.execute(
                    "UPDATE games AS g SET checkpoint_ms = GREATEST(g.checkpoint_ms, v.ms), \
                     events_seen = GREATEST(g.events_seen, v.seen) \
                     FROM UNNEST($1::text[], $2::bigint[], $3::bigint[]) AS v(id, ms, seen) \
                     WHERE g.id = v.id AND (g.checkpoint_ms < v.ms OR g.events_seen < v.seen)",
                    &[ids, ms, seen],
                )
                .await
            })
            .await?;
            Ok(())
        })
    }

    fn expire_game<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool> {
        Box::pin(async move {
            let now = super::wall_ms();
            let now = &now;
            // Repeating it changes nothing: a game expired already is no longer live.
            let n = self
                .run(true, |c| async move {
                    c.execute(
                        "UPDATE games SET status = 'expired', ended_at_ms = $2 \
                         WHERE id = $1 AND status = 'live' AND checkpoint_ms < 0 \
                         AND NOT EXISTS (SELECT 1 FROM events WHERE game_id = $1)",
                        &[&id, now],
                    )
                    .await
                })
                .await?;
            Ok(n == 1)
        })
    }

    fn list_games(&self, limit: usize) -> StoreFuture<'_, Vec<GameRecord>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT {SELECT_COLUMNS} FROM games ORDER BY created_at_ms DESC, id LIMIT $1"
            );
            let (sql, limit) = (sql.as_str(), limit as i64);
            let rows = self
                .run(false, |c| async move { c.query(sql, &[&limit]).await })
                .await?;
            // A damaged row is left out of the list (it is reported at start-up).
            Ok(rows.iter().filter_map(|r| game_from_row(r).ok()).collect())
        })
    }

    fn load_game<'a>(
        &'a self,
        id: &'a str,
    ) -> StoreFuture<'a, Option<(GameRecord, Vec<StoredEvent>)>> {
        Box::pin(async move {
            let sql = format!("SELECT {SELECT_COLUMNS} FROM games WHERE id = $1");
            let sql = sql.as_str();
            let row = self
                .run(false, |c| async move { c.query_opt(sql, &[&id]).await })
                .await?;
            let Some(row) = row else { return Ok(None) };
            let g = game_from_row(&row)?;
            let events = self.events(id).await?;
            Ok(Some((g, events)))
        })
    }

    fn load_unfinished(&self) -> StoreFuture<'_, Vec<Unfinished>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT {SELECT_COLUMNS} FROM games WHERE status NOT IN ('ended', 'expired') \
                 ORDER BY created_at_ms"
            );
            let sql = sql.as_str();
            let rows = self
                .run(false, |c| async move { c.query(sql, &[]).await })
                .await?;
            let mut out = Vec::new();
            for r in &rows {
                // One damaged game is kept out of play; the others are restored.
                let id: String = r.try_get(0)?;
                let one = match game_from_row(r) {
                    Ok(g) => self.events(&g.id).await.map(|events| (g, events)),
                    Err(e) => Err(e),
                };
                out.push(one.map_err(|e| super::DamagedGame {
                    id,
                    reason: e.to_string(),
                }));
            }
            Ok(out)
        })
    }

    fn ping(&self) -> StoreFuture<'_, ()> {
        Box::pin(async move {
            // Reachable is not enough: after a failover the old primary may answer as a
            // read-only standby, where every write fails.
            let standby = self
                .run(false, |c| async move {
                    c.query_typed_one("SELECT pg_is_in_recovery()", &[])
                        .await
                        .and_then(|r| r.try_get::<_, bool>(0))
                })
                .await?;
            if standby {
                return Err(StoreError::Unavailable(
                    "PostgreSQL answers as a read-only standby (in recovery)".into(),
                ));
            }
            Ok(())
        })
    }
}
