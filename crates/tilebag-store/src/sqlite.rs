//! SQLite: one connection on a dedicated thread. Writes that arrive together are committed in one
//! transaction (group commit: one fsync for many games' events, `synchronous=FULL` in WAL mode),
//! and one failing write does not undo the others: a write of one statement (a game's event) is
//! undone alone by SQLite, any other runs inside a savepoint of its own. Under load
//! the writer waits a moment for more writes before it commits (`sqlite/group_commit.rs`). A
//! write's future resolves only after its transaction is committed.
//!
//! A write the file cannot take (a full disk, a read-only file or folder, an I/O error, a lock
//! held too long by another process) fails as [`StoreError::Unavailable`] and leaves nothing
//! behind (the transaction is rolled back); the server refuses what needed it and tries again
//! ([`super::Store::ping`] commits a one-row write to the `health` table) until it goes through.
//!
//! Opening the file brings its schema up to date first (numbered migrations, `sqlite/schema.rs`);
//! the accounts tables are read and written in `sqlite/accounts.rs`.

use super::{
    decode_bot, decode_event, decode_ruleset, encode_bot, encode_event, encode_ruleset, Checkpoint,
    GameRecord, GameStatus, StoreError, StoreFuture, StoredEvent, Unfinished,
};
use rusqlite::{params, Connection, OptionalExtension};
use tokio::sync::{mpsc, oneshot};

mod accounts;
mod chat;
mod game_seats;
mod group_commit;
mod schema;
mod seeks;

type WriteFn = Box<dyn FnOnce(&Connection) -> rusqlite::Result<()> + Send>;
type ReadFn = Box<dyn FnOnce(&Connection) + Send>;

enum Job {
    Write(Write),
    Read(ReadFn),
}

/// A write waiting for its batch, and how it is undone alone if it fails.
struct Write {
    f: WriteFn,
    reply: oneshot::Sender<Result<(), StoreError>>,
    undo: Undo,
}

/// How one failing write of a batch is undone without the others.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Undo {
    /// Inside a savepoint of its own: a write of several statements.
    Savepoint,
    /// By SQLite itself: a write of exactly one statement, which SQLite undoes alone when it
    /// fails (its conflict rule is the default, ABORT). A game's event is one `INSERT`, the
    /// write of almost every action: a savepoint around it cost two more statements and a copy
    /// of each page it touched.
    OneStatement,
}

/// The most writes committed in one transaction.
const MAX_BATCH: usize = 1024;

pub struct SqliteStore {
    jobs: mpsc::UnboundedSender<Job>,
}

/// Whether a SQLite error means the file cannot be written now (rather than a fault of the
/// statement): the disk is full, the file or its folder is read-only, an I/O error, the file
/// cannot be opened, or another process holds its lock past the busy timeout.
pub fn is_unavailable(e: &rusqlite::Error) -> bool {
    use rusqlite::ErrorCode::*;
    matches!(
        e.sqlite_error_code(),
        Some(
            DiskFull
                | ReadOnly
                | SystemIoFailure
                | CannotOpen
                | DatabaseBusy
                | DatabaseLocked
                | PermissionDenied
                | FileLockingProtocolFailed
        )
    )
}

/// A failed `BEGIN` or `COMMIT` as every write of the batch gets it.
fn batch_error(e: &rusqlite::Error, when: &str) -> StoreError {
    if is_unavailable(e) {
        StoreError::Unavailable(format!("SQLite cannot write ({when}): {e}"))
    } else {
        StoreError::Other(format!("{when} failed: {e}"))
    }
}

const GAME_COLUMNS: &str = "id, seat0_token, seat1_token, player0, player1, preset, ruleset_json, \
     seed, lexicon, created_at_ms, status, result_json, checkpoint_ms, seeded,
     bot_json";
/// What a game's row is read as: the columns it is written with, and the count of events seen.
const SELECT_COLUMNS: &str = "id, seat0_token, seat1_token, player0, player1, preset, \
     ruleset_json, seed, lexicon, created_at_ms, status, result_json, checkpoint_ms, seeded, \
     bot_json, events_seen";

impl SqliteStore {
    /// Open (or create) the database file and start its worker thread.
    pub async fn open(path: &str) -> Result<SqliteStore, StoreError> {
        let path = path.to_string();
        let (ready_tx, ready_rx) = oneshot::channel();
        let (tx, rx) = mpsc::unbounded_channel();
        std::thread::Builder::new()
            .name("tilebag-sqlite".into())
            .spawn(move || {
                let opened = init(&path).map_err(|e| match e {
                    // Names the file and both versions already.
                    e @ StoreError::SchemaTooNew { .. } => e,
                    e => StoreError::Other(format!("{path}: {e}")),
                });
                match opened {
                    Ok(conn) => {
                        let _ = ready_tx.send(Ok(()));
                        worker(conn, rx);
                    }
                    Err(e) => {
                        let _ = ready_tx.send(Err(e));
                    }
                }
            })
            .map_err(|e| StoreError::Other(format!("cannot start the SQLite thread: {e}")))?;
        ready_rx.await.map_err(|_| StoreError::WorkerGone)??;
        Ok(SqliteStore { jobs: tx })
    }

    fn write(&self, f: WriteFn) -> StoreFuture<'static, ()> {
        self.write_undone(f, Undo::Savepoint)
    }

    /// A write of exactly one statement (see [`Undo::OneStatement`]).
    fn write_one_statement(&self, f: WriteFn) -> StoreFuture<'static, ()> {
        self.write_undone(f, Undo::OneStatement)
    }

    fn write_undone(&self, f: WriteFn, undo: Undo) -> StoreFuture<'static, ()> {
        let (reply, rx) = oneshot::channel();
        let sent = self.jobs.send(Job::Write(Write { f, reply, undo }));
        Box::pin(async move {
            sent.map_err(|_| StoreError::WorkerGone)?;
            rx.await.map_err(|_| StoreError::WorkerGone)?
        })
    }

    /// A write that answers a value (computed inside its transaction; given once committed).
    fn write_value<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> StoreFuture<'static, T> {
        let (tx, rx) = oneshot::channel();
        let done = self.write(Box::new(move |c| {
            let v = f(c)?;
            let _ = tx.send(v);
            Ok(())
        }));
        Box::pin(async move {
            done.await?;
            rx.await.map_err(|_| StoreError::WorkerGone)
        })
    }

    fn read<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> StoreFuture<'static, T> {
        let (tx, rx) = oneshot::channel();
        let sent = self.jobs.send(Job::Read(Box::new(move |c| {
            let _ = tx.send(f(c));
        })));
        Box::pin(async move {
            sent.map_err(|_| StoreError::WorkerGone)?;
            rx.await.map_err(|_| StoreError::WorkerGone)?
        })
    }
}

fn init(path: &str) -> Result<Connection, StoreError> {
    let mut conn = Connection::open(path)?;
    // Every statement the store runs stays prepared (the default keeps 16).
    conn.set_prepared_statement_cache_capacity(128);
    // First: another process opening the same file at once holds its lock for a moment.
    conn.busy_timeout(std::time::Duration::from_secs(5))?;
    // WAL: readers never block the writer; FULL: a commit is on disk before it returns.
    into_wal(&conn)?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    // Savepoint journals in memory: once one spills to a file it stays one, and every write
    // after it copies a page there.
    conn.pragma_update(None, "temp_store", "MEMORY")?;
    // Pages kept in memory (up to 16 MiB, taken only as the file grows): thousands of live
    // games each append to their own page of the events table, and a page read again from the
    // file is a system call per action.
    conn.pragma_update(None, "cache_size", -16 * 1024)?;
    // Copy the WAL back into the file every 4,000 pages rather than 1,000: a live game's page
    // written several times in between is copied once.
    conn.pragma_update(None, "wal_autocheckpoint", 4000)?;
    schema::migrate(&mut conn, path)?;
    Ok(conn)
}

/// Put the file in WAL mode. Two connections switching an old (rollback-journal) file at once
/// can each hold the read lock the other must see released: SQLite then answers "locked" at
/// once rather than wait, since waiting could never end. The one refused lets go and tries again
/// (up to the same 5 s as any other lock); by then the other has switched the file.
fn into_wal(conn: &Connection) -> Result<(), StoreError> {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        match conn.pragma_update(None, "journal_mode", "WAL") {
            Err(e)
                if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DatabaseBusy)
                    && std::time::Instant::now() < deadline =>
            {
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
            done => return Ok(done?),
        }
    }
}

fn worker(conn: Connection, mut rx: mpsc::UnboundedReceiver<Job>) {
    let mut pace = group_commit::Pace::new(std::time::Instant::now());
    while let Some(first) = rx.blocking_recv() {
        let mut writes = Vec::new();
        let mut reads = Vec::new();
        if matches!(first, Job::Write(..)) {
            let wait = pace.window(std::time::Instant::now());
            if !wait.is_zero() {
                std::thread::sleep(wait);
            }
        }
        let mut push = |job| match job {
            Job::Write(w) => writes.push(w),
            Job::Read(f) => reads.push(f),
        };
        push(first);
        let mut n = 1;
        while n < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => {
                    push(job);
                    n += 1;
                }
                Err(_) => break,
            }
        }
        if !writes.is_empty() {
            let count = writes.len() as u64;
            commit_batch(&conn, writes);
            pace.committed(count, std::time::Instant::now());
        }
        for f in reads {
            f(&conn);
        }
    }
}

fn commit_batch(conn: &Connection, writes: Vec<Write>) {
    if let Err(e) = conn
        .prepare_cached("BEGIN IMMEDIATE")
        .and_then(|mut s| s.execute([]))
    {
        for w in writes {
            let _ = w.reply.send(Err(batch_error(&e, "begin")));
        }
        return;
    }
    let mut results: Vec<(Result<(), StoreError>, oneshot::Sender<_>)> =
        Vec::with_capacity(writes.len());
    for w in writes {
        let r = match w.undo {
            Undo::OneStatement => (w.f)(conn),
            Undo::Savepoint => in_savepoint(conn, w.f),
        };
        match r {
            // Some failures (a full disk, an I/O error) make SQLite roll back the whole
            // transaction: what the batch wrote so far is gone, and a write run now would be
            // committed on its own. Nothing of the batch is stored; every write is told so.
            Err(e) if conn.is_autocommit() => {
                for (_, reply) in results {
                    let _ = reply.send(Err(batch_error(&e, "write")));
                }
                let _ = w.reply.send(Err(batch_error(&e, "write")));
                return;
            }
            r => results.push((r.map_err(StoreError::from), w.reply)),
        }
    }
    if let Err(e) = conn
        .prepare_cached("COMMIT")
        .and_then(|mut s| s.execute([]))
    {
        // A commit that fails is undone as a whole: nothing of the batch is stored.
        if !conn.is_autocommit() {
            let _ = conn.execute_batch("ROLLBACK");
        }
        for (_, reply) in results {
            let _ = reply.send(Err(batch_error(&e, "commit")));
        }
        return;
    }
    for (r, reply) in results {
        let _ = reply.send(r);
    }
}

/// Run a write in a savepoint of its own, so that if it fails it is undone alone. The
/// statements are prepared once (parsing them was a cost of every write).
fn in_savepoint(conn: &Connection, f: WriteFn) -> rusqlite::Result<()> {
    let run = |sql: &str| conn.prepare_cached(sql)?.execute([]).map(drop);
    run("SAVEPOINT w")?;
    match f(conn) {
        Ok(()) => run("RELEASE w"),
        Err(e) => {
            run("ROLLBACK TO w")?;
            run("RELEASE w")?;
            Err(e)
        }
    }
}

fn game_from_row(row: &rusqlite::Row<'_>) -> rusqlite::Result<RawGame> {
    game_from_row_at(row, 0)
}

/// A game's row ([`SELECT_COLUMNS`]) from column `at` on (after a joined table's columns).
fn game_from_row_at(row: &rusqlite::Row<'_>, at: usize) -> rusqlite::Result<RawGame> {
    Ok(RawGame {
        id: row.get(at)?,
        tokens: [row.get(at + 1)?, row.get(at + 2)?],
        names: [row.get(at + 3)?, row.get(at + 4)?],
        preset: row.get(at + 5)?,
        ruleset_json: row.get(at + 6)?,
        seed: row.get(at + 7)?,
        lexicon: row.get(at + 8)?,
        created_at_ms: row.get(at + 9)?,
        status: row.get(at + 10)?,
        result_json: row.get(at + 11)?,
        checkpoint_ms: row.get(at + 12)?,
        seeded: row.get(at + 13)?,
        bot_json: row.get(at + 14)?,
        events_seen: row.get(at + 15)?,
    })
}

struct RawGame {
    id: String,
    tokens: [String; 2],
    names: [String; 2],
    preset: String,
    ruleset_json: String,
    seed: i64,
    lexicon: String,
    created_at_ms: i64,
    status: String,
    result_json: Option<String>,
    checkpoint_ms: i64,
    seeded: bool,
    bot_json: Option<String>,
    events_seen: i64,
}

impl RawGame {
    fn decode(self) -> Result<GameRecord, StoreError> {
        Ok(GameRecord {
            ruleset: decode_ruleset(&self.id, &self.ruleset_json)?,
            bot: decode_bot(&self.id, self.bot_json)?,
            status: GameStatus::parse(&self.id, &self.status)?,
            id: self.id,
            tokens: self.tokens,
            names: self.names,
            preset: self.preset,
            // Stored as the same 64 bits, signed.
            seed: self.seed as u64,
            lexicon: self.lexicon,
            created_at_ms: self.created_at_ms,
            result_json: self.result_json,
            checkpoint_ms: self.checkpoint_ms,
            events_seen: u64::try_from(self.events_seen).unwrap_or(0),
            seeded: self.seeded,
        })
    }
}

fn load_events(conn: &Connection, id: &str) -> Result<Vec<StoredEvent>, StoreError> {
    let mut st = conn.prepare_cached(
        "SELECT seq, wall_ms, event_json FROM events WHERE game_id = ?1 ORDER BY seq",
    )?;
    let rows = st.query_map([id], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, i64>(1)?,
            r.get::<_, String>(2)?,
        ))
    })?;
    let mut out = Vec::new();
    for row in rows {
        let (seq, wall_ms, json) = row?;
        out.push(StoredEvent {
            seq: seq as u64,
            event: decode_event(id, seq, &json)?,
            wall_ms,
        });
    }
    Ok(out)
}

impl super::Store for SqliteStore {
    fn kind(&self) -> &'static str {
        "sqlite"
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

    fn create_game<'a>(&'a self, g: &'a GameRecord) -> StoreFuture<'a, ()> {
        let g = g.clone();
        self.write(Box::new(move |c| {
            c.prepare_cached(&format!(
                "INSERT INTO games ({GAME_COLUMNS}) \
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)"
            ))?
            .execute(params![
                g.id,
                g.tokens[0],
                g.tokens[1],
                g.names[0],
                g.names[1],
                g.preset,
                encode_ruleset(&g.ruleset),
                g.seed as i64,
                g.lexicon,
                g.created_at_ms,
                g.status.as_str(),
                g.result_json,
                g.checkpoint_ms,
                g.seeded,
                encode_bot(&g.bot),
            ])?;
            Ok(())
        }))
    }

    fn append_event<'a>(
        &'a self,
        game_id: &'a str,
        ev: &'a StoredEvent,
        ended: Option<&'a str>,
    ) -> StoreFuture<'a, ()> {
        let id = game_id.to_string();
        let json = encode_event(&ev.event);
        let (seq, at, wall) = (ev.seq as i64, ev.event.at_ms, ev.wall_ms);
        let insert = move |c: &Connection| {
            c.prepare_cached(
                "INSERT INTO events (game_id, seq, at_ms, wall_ms, event_json) \
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![id, seq, at, wall, json])
            .map(|_| id)
        };
        let Some(result) = ended.map(str::to_string) else {
            // The write of almost every action: one statement.
            return self.write_one_statement(Box::new(move |c| insert(c).map(drop)));
        };
        self.write(Box::new(move |c| {
            let id = insert(c)?;
            c.prepare_cached(
                "UPDATE games SET status = 'ended', result_json = ?2, ended_at_ms = ?3 \
                 WHERE id = ?1",
            )?
            .execute(params![id, result, wall])?;
            Ok(())
        }))
    }

    fn stored_event<'a>(
        &'a self,
        game_id: &'a str,
        seq: u64,
    ) -> StoreFuture<'a, Option<StoredEvent>> {
        let id = game_id.to_string();
        self.read(move |c| {
            let row = c
                .prepare_cached(
                    "SELECT wall_ms, event_json FROM events WHERE game_id = ?1 AND seq = ?2",
                )?
                .query_row(params![id, seq as i64], |r| {
                    Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
                })
                .optional()?;
            let Some((wall_ms, json)) = row else {
                return Ok(None);
            };
            Ok(Some(StoredEvent {
                seq,
                event: decode_event(&id, seq as i64, &json)?,
                wall_ms,
            }))
        })
    }

    fn ping(&self) -> StoreFuture<'_, ()> {
        self.write(Box::new(|c| {
            c.prepare_cached("INSERT OR REPLACE INTO health (id, wall_ms) VALUES (1, ?1)")?
                .execute([super::wall_ms()])?;
            Ok(())
        }))
    }

    fn checkpoint<'a>(&'a self, clocks: &'a [Checkpoint]) -> StoreFuture<'a, ()> {
        let clocks = clocks.to_vec();
        self.write(Box::new(move |c| {
            let mut st = c.prepare_cached(
                "UPDATE games SET checkpoint_ms = MAX(checkpoint_ms, ?2), \
                 events_seen = MAX(events_seen, ?3) \
                 WHERE id = ?1 AND (checkpoint_ms < ?2 OR events_seen < ?3)",
            )?;
            for cp in &clocks {
                st.execute(params![cp.id, cp.game_ms, cp.events as i64])?;
            }
            Ok(())
        }))
    }

    fn expire_game<'a>(&'a self, id: &'a str) -> StoreFuture<'a, bool> {
        let id = id.to_string();
        let (tx, rx) = tokio::sync::oneshot::channel();
        let fut = self.write(Box::new(move |c| {
            let n = c
                .prepare_cached(
                    "UPDATE games SET status = 'expired', ended_at_ms = ?2 \
                     WHERE id = ?1 AND status = 'live' AND checkpoint_ms < 0 \
                     AND NOT EXISTS (SELECT 1 FROM events WHERE game_id = ?1)",
                )?
                .execute(params![id, super::wall_ms()])?;
            let _ = tx.send(n == 1);
            Ok(())
        }));
        Box::pin(async move {
            fut.await?;
            Ok(rx.await.unwrap_or(false))
        })
    }

    fn list_games(&self, limit: usize) -> StoreFuture<'_, Vec<GameRecord>> {
        self.read(move |c| {
            let mut st = c.prepare_cached(&format!(
                "SELECT {SELECT_COLUMNS} FROM games ORDER BY created_at_ms DESC, id LIMIT ?1"
            ))?;
            let raw: Vec<RawGame> = st
                .query_map([limit as i64], game_from_row)?
                .collect::<rusqlite::Result<_>>()?;
            // A damaged row is left out of the list (it is reported at start-up).
            Ok(raw.into_iter().filter_map(|r| r.decode().ok()).collect())
        })
    }

    fn load_game<'a>(
        &'a self,
        id: &'a str,
    ) -> StoreFuture<'a, Option<(GameRecord, Vec<StoredEvent>)>> {
        let id = id.to_string();
        self.read(move |c| {
            let raw = c
                .prepare_cached(&format!("SELECT {SELECT_COLUMNS} FROM games WHERE id = ?1"))?
                .query_row([&id], game_from_row)
                .optional()?;
            let Some(raw) = raw else { return Ok(None) };
            let g = raw.decode()?;
            let events = load_events(c, &id)?;
            Ok(Some((g, events)))
        })
    }

    fn load_unfinished(&self) -> StoreFuture<'_, Vec<Unfinished>> {
        self.read(move |c| {
            let ids: Vec<String> = c
                .prepare_cached(
                    // Every status but the finished ones: one the server does not know is reported.
                    "SELECT id FROM games WHERE status NOT IN ('ended', 'expired') \
                     ORDER BY created_at_ms",
                )?
                .query_map([], |r| r.get(0))?
                .collect::<rusqlite::Result<_>>()?;
            let mut out = Vec::new();
            for id in ids {
                let one = (|| {
                    let g = c
                        .prepare_cached(&format!(
                            "SELECT {SELECT_COLUMNS} FROM games WHERE id = ?1"
                        ))?
                        .query_row([&id], game_from_row)?
                        .decode()?;
                    let events = load_events(c, &id)?;
                    Ok::<_, StoreError>((g, events))
                })();
                out.push(one.map_err(|e| super::DamagedGame {
                    id: id.clone(),
                    reason: e.to_string(),
                }));
            }
            Ok(out)
        })
    }
}
