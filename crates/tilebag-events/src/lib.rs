//! tilebag-events: a tournament's event file, shared by `tilebag td` and the server's director
//! pages.
//!
//! An event is one SQLite file holding the append-only action log of `tilebag-tournament`:
//! `actions(seq INTEGER PRIMARY KEY, at TEXT, action TEXT)`, each action as JSON. The state is
//! never stored: every reader replays the log ([`Tournament::replay`]). A writer replays the log,
//! checks its new actions with [`Tournament::apply`] and appends them inside one immediate
//! transaction, so two writers (a terminal and the web pages) never interleave, and a refused
//! action writes nothing. Undo deletes the last action (NASPA-style "replay without it").
//!
//! [`EventsDir`] is the server's folder of event files, one per event, named by a short id.

use anyhow::{anyhow, bail, Context, Result};
use rusqlite::{Connection, OpenFlags, OptionalExtension, TransactionBehavior};
use std::path::{Path, PathBuf};
use tilebag_tournament::{Action, Tournament};

mod dir;
pub use dir::{EventEntry, EventsDir, EVENT_EXTENSION};

/// A seed for a new division when the director gives none: from the clock and the process id.
pub fn fresh_seed() -> u64 {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos() as u64)
        .unwrap_or(0);
    let mut x = nanos ^ ((std::process::id() as u64) << 32);
    // splitmix64 finaliser, so nearby clocks give unrelated seeds.
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (x ^ (x >> 31)) >> 1
}

/// Now, as `YYYY-MM-DDTHH:MM:SSZ`.
pub fn now_utc() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    tilebag_core::civil::utc_text(secs)
}

pub struct EventFile {
    conn: Connection,
    path: PathBuf,
}

pub struct LogRow {
    pub seq: i64,
    pub at: String,
    /// The action as JSON.
    pub action: String,
}

/// How long to wait for another writer (the web pages, another terminal) to finish.
const BUSY: std::time::Duration = std::time::Duration::from_secs(10);

const KEYS_SCHEMA: &str = "CREATE TABLE IF NOT EXISTS player_keys(division TEXT NOT NULL, \
     player INTEGER NOT NULL, key TEXT NOT NULL UNIQUE, PRIMARY KEY(division, player))";

const SCHEMA: &str =
    "CREATE TABLE IF NOT EXISTS actions(seq INTEGER PRIMARY KEY, at TEXT NOT NULL, action TEXT NOT NULL)";

impl EventFile {
    /// Opens an event file, creating it (and the table) if needed.
    pub fn create(path: &Path) -> Result<EventFile> {
        let conn = Connection::open(path)
            .with_context(|| format!("cannot open or create {}", path.display()))?;
        conn.busy_timeout(BUSY)?;
        conn.execute_batch(SCHEMA)
            .with_context(|| format!("{} is not a tilebag event file", path.display()))?;
        Ok(EventFile {
            conn,
            path: path.into(),
        })
    }

    /// Opens an existing event file for changes.
    pub fn open(path: &Path) -> Result<EventFile> {
        Self::open_with(path, OpenFlags::SQLITE_OPEN_READ_WRITE)
    }

    pub fn open_read(path: &Path) -> Result<EventFile> {
        Self::open_with(path, OpenFlags::SQLITE_OPEN_READ_ONLY)
    }

    fn open_with(path: &Path, flags: OpenFlags) -> Result<EventFile> {
        if !path.exists() {
            bail!(
                "no event at {}; create one with `tilebag td new {} --name NAME`",
                path.display(),
                path.display()
            );
        }
        let conn = Connection::open_with_flags(path, flags | OpenFlags::SQLITE_OPEN_NO_MUTEX)
            .with_context(|| format!("cannot open {}", path.display()))?;
        conn.busy_timeout(BUSY)?;
        let has_table: bool = conn
            .query_row(
                "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'actions'",
                [],
                |r| r.get::<_, i64>(0),
            )
            .map(|n| n > 0)
            .with_context(|| format!("{} is not an SQLite file", path.display()))?;
        if !has_table {
            bail!(
                "{} is not a tilebag event file (no actions table)",
                path.display()
            );
        }
        Ok(EventFile {
            conn,
            path: path.into(),
        })
    }

    pub fn rows(&self) -> Result<Vec<LogRow>> {
        read_rows(&self.conn)
    }

    /// The secret key of a player's own page (their pairings, and tally slips they submit and
    /// confirm themselves), made with `make` the first time it is asked for. Keys are kept beside
    /// the log, not in it: they are credentials, not director actions.
    pub fn player_key(
        &mut self,
        division: &str,
        player: u32,
        make: impl FnOnce() -> String,
    ) -> Result<String> {
        self.conn.execute_batch(KEYS_SCHEMA)?;
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let found: Option<String> = tx
            .query_row(
                "SELECT key FROM player_keys WHERE division = ?1 AND player = ?2",
                (division, player),
                |r| r.get(0),
            )
            .optional()?;
        let key = match found {
            Some(k) => k,
            None => {
                let k = make();
                tx.execute(
                    "INSERT INTO player_keys(division, player, key) VALUES (?1, ?2, ?3)",
                    (division, player, &k),
                )?;
                k
            }
        };
        tx.commit()?;
        Ok(key)
    }

    /// The division and player whose page `key` opens, if any.
    pub fn player_for_key(&self, key: &str) -> Result<Option<(String, u32)>> {
        let has_table: i64 = self.conn.query_row(
            "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'player_keys'",
            [],
            |r| r.get(0),
        )?;
        if has_table == 0 {
            return Ok(None);
        }
        Ok(self
            .conn
            .query_row(
                "SELECT division, player FROM player_keys WHERE key = ?1",
                [key],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()?)
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    pub fn load(&self) -> Result<Tournament> {
        replay_rows(&self.path, &self.rows()?)
    }

    /// The state and the log's version ([`version`]), read together.
    pub fn load_versioned(&self) -> Result<(Tournament, String)> {
        let rows = self.rows()?;
        Ok((replay_rows(&self.path, &rows)?, version(&rows)))
    }

    /// As [`EventFile::append`], but refused if the log is no longer at `expected` (a page built
    /// from an older state must not post pairings computed from it).
    pub fn append_at(
        &mut self,
        expected: &str,
        build: impl FnOnce(&Tournament) -> Result<Vec<Action>>,
    ) -> Result<Tournament> {
        self.append_checked(Some(expected), build)
    }

    /// Replays the log, asks `build` for the new actions, applies them (a refusal writes
    /// nothing) and appends them, all in one transaction. Returns the new state.
    pub fn append(
        &mut self,
        build: impl FnOnce(&Tournament) -> Result<Vec<Action>>,
    ) -> Result<Tournament> {
        self.append_checked(None, build)
    }

    fn append_checked(
        &mut self,
        expected: Option<&str>,
        build: impl FnOnce(&Tournament) -> Result<Vec<Action>>,
    ) -> Result<Tournament> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let rows = read_rows(&tx)?;
        if let Some(expected) = expected {
            if version(&rows) != expected {
                bail!("the event changed since this page was loaded; reload it and try again");
            }
        }
        let mut t = replay_rows(&self.path, &rows)?;
        let actions = build(&t).map_err(|e| anyhow!("refused: {e:#}"))?;
        for a in &actions {
            t.apply(a).map_err(|e| anyhow!("refused: {e}"))?;
        }
        let at = now_utc();
        for a in &actions {
            tx.execute(
                "INSERT INTO actions(at, action) VALUES (?1, ?2)",
                (&at, serde_json::to_string(a)?),
            )?;
        }
        tx.commit()?;
        Ok(t)
    }

    /// Deletes the last action; returns its number and JSON.
    pub fn undo(&mut self) -> Result<(i64, String)> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut rows = read_rows(&tx)?;
        let last = rows.pop().context("the log is empty: nothing to undo")?;
        replay_rows(&self.path, &rows)?;
        tx.execute("DELETE FROM actions WHERE seq = ?1", [last.seq])?;
        tx.commit()?;
        Ok((last.seq, last.action))
    }
}

/// The log's version: a hash of every row (number and action), so any append or undo changes it.
pub fn version(rows: &[LogRow]) -> String {
    // FNV-1a, 64 bits.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for r in rows {
        for b in r.seq.to_le_bytes().iter().chain(r.action.as_bytes()) {
            h ^= u64::from(*b);
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    format!("{}-{h:016x}", rows.len())
}

fn read_rows(conn: &Connection) -> Result<Vec<LogRow>> {
    let mut st = conn.prepare("SELECT seq, at, action FROM actions ORDER BY seq")?;
    let rows = st
        .query_map([], |r| {
            Ok(LogRow {
                seq: r.get(0)?,
                at: r.get(1)?,
                action: r.get(2)?,
            })
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

fn replay_rows(path: &Path, rows: &[LogRow]) -> Result<Tournament> {
    let mut actions = Vec::with_capacity(rows.len());
    for r in rows {
        actions.push(
            serde_json::from_str::<Action>(&r.action)
                .with_context(|| format!("{}: action #{} does not read", path.display(), r.seq))?,
        );
    }
    Tournament::replay(&actions).map_err(|e| {
        let seq = rows.get(e.index).map_or(0, |r| r.seq);
        anyhow!(
            "{}: action #{seq} does not replay: {}",
            path.display(),
            e.error
        )
    })
}
