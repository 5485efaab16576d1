//! SQLite's migrations. The version is kept in a `schema_version` table (as on PostgreSQL,
//! which has no `user_version`): the same query answers on both databases, each row says what
//! was applied and when, and it is written in the migration's own transaction, so it is exactly
//! as atomic as `PRAGMA user_version` would be.

use super::super::{wall_ms, StoreError, SCHEMA_VERSION};
use rusqlite::{params, Connection, TransactionBehavior};

/// One step of the schema, applied once, in order.
struct Migration {
    version: i64,
    name: &'static str,
    apply: fn(&Connection) -> rusqlite::Result<()>,
}

const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "games, events and health (adopting a database made before versions)",
        apply: games,
    },
    Migration {
        version: 2,
        name: "accounts, sessions, ratings and rating history",
        apply: accounts,
    },
    Migration {
        version: 3,
        name: "game seats held by accounts",
        apply: game_seats,
    },
    Migration {
        version: 4,
        name: "the lobby's open seeks",
        apply: seeks,
    },
    Migration {
        version: 5,
        name: "chat messages, mutes and blocks, reports and the moderators' log",
        apply: chat,
    },
    Migration {
        version: 6,
        name: "the processes of one service and the leases on their live games",
        apply: leases,
    },
    Migration {
        version: 7,
        name: "events stored in the order they arrive, found by game through an index",
        apply: events_in_arrival_order,
    },
];

const _: () = assert!(MIGRATIONS.len() as i64 == SCHEMA_VERSION);

const VERSION_TABLE: &str = "
CREATE TABLE IF NOT EXISTS schema_version (
    version    INTEGER PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_ms INTEGER NOT NULL
);";

/// The schema as it was before migrations were numbered. Every table may be there already,
/// made by earlier code: `IF NOT EXISTS` keeps it, rows and all.
const GAMES: &str = "
CREATE TABLE IF NOT EXISTS games (
    id            TEXT PRIMARY KEY,
    seat0_token   TEXT NOT NULL,
    seat1_token   TEXT NOT NULL,
    player0       TEXT NOT NULL,
    player1       TEXT NOT NULL,
    preset        TEXT NOT NULL,
    ruleset_json  TEXT NOT NULL,
    seed          INTEGER NOT NULL,
    lexicon       TEXT NOT NULL,
    created_at_ms INTEGER NOT NULL,
    status        TEXT NOT NULL DEFAULT 'live',
    result_json   TEXT,
    ended_at_ms   INTEGER,
    checkpoint_ms INTEGER NOT NULL DEFAULT 0,
    seeded        INTEGER NOT NULL DEFAULT 0,
    bot_json      TEXT,
    events_seen   INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS games_status ON games (status);
CREATE INDEX IF NOT EXISTS games_created ON games (created_at_ms);
CREATE TABLE IF NOT EXISTS events (
    game_id    TEXT NOT NULL REFERENCES games (id),
    seq        INTEGER NOT NULL,
    at_ms      INTEGER NOT NULL,
    wall_ms    INTEGER NOT NULL,
    event_json TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS health (
    id       INTEGER PRIMARY KEY CHECK (id = 1),
    wall_ms  INTEGER NOT NULL
);
";

/// Columns added to `games` after its first release, in the order they were added (so an old
/// table ends with the columns in the order a new one has them).
const ADDED_GAME_COLUMNS: &[(&str, &str)] = &[
    // Games whose creator chose the seed.
    ("seeded", "INTEGER NOT NULL DEFAULT 0"),
    // Games against the computer (NULL: two people play).
    ("bot_json", "TEXT"),
    // The count of events at the last checkpoint (0: nothing known).
    ("events_seen", "INTEGER NOT NULL DEFAULT 0"),
];

fn games(c: &Connection) -> rusqlite::Result<()> {
    c.execute_batch(GAMES)?;
    for (column, definition) in ADDED_GAME_COLUMNS {
        let present = c
            .prepare("SELECT 1 FROM pragma_table_info('games') WHERE name = ?1")?
            .exists([column])?;
        if !present {
            c.execute_batch(&format!(
                "ALTER TABLE games ADD COLUMN {column} {definition}"
            ))?;
        }
    }
    Ok(())
}

const ACCOUNTS: &str = "
CREATE TABLE accounts (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    username       TEXT NOT NULL,
    skeleton       TEXT NOT NULL,
    password_hash  TEXT NOT NULL,
    email          TEXT,
    created_ms     INTEGER NOT NULL,
    role           TEXT NOT NULL DEFAULT 'player' CHECK (role IN ('player', 'moderator')),
    muted_until_ms INTEGER,
    banned         INTEGER NOT NULL DEFAULT 0 CHECK (banned IN (0, 1))
);
CREATE UNIQUE INDEX accounts_skeleton ON accounts (skeleton);
CREATE TABLE sessions (
    token_hash   TEXT PRIMARY KEY,
    account_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_ms   INTEGER NOT NULL,
    last_seen_ms INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_account ON sessions (account_id);
CREATE INDEX sessions_last_seen ON sessions (last_seen_ms);
CREATE TABLE ratings (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    category   TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    volatility REAL NOT NULL,
    games      INTEGER NOT NULL DEFAULT 0,
    updated_ms INTEGER NOT NULL,
    PRIMARY KEY (account_id, category)
) WITHOUT ROWID;
CREATE TABLE rating_history (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    category   TEXT NOT NULL,
    game_id    TEXT NOT NULL,
    rating     REAL NOT NULL,
    deviation  REAL NOT NULL,
    at_ms      INTEGER NOT NULL,
    PRIMARY KEY (account_id, category, game_id)
) WITHOUT ROWID;
CREATE INDEX rating_history_at ON rating_history (account_id, category, at_ms);
";

fn accounts(c: &Connection) -> rusqlite::Result<()> {
    c.execute_batch(ACCOUNTS)
}

/// Migration 3: which account sat at which seat of a game (`game_seats.rs`).
const GAME_SEATS: &str = "
CREATE TABLE game_seats (
    game_id        TEXT NOT NULL REFERENCES games (id),
    seat           INTEGER NOT NULL CHECK (seat IN (0, 1)),
    account_id     INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    rated          INTEGER NOT NULL CHECK (rated IN (0, 1)),
    event          INTEGER NOT NULL CHECK (event IN (0, 1)),
    correspondence INTEGER NOT NULL CHECK (correspondence IN (0, 1)),
    category       TEXT NOT NULL,
    created_ms     INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK (NOT (rated AND event))
) WITHOUT ROWID;
CREATE INDEX game_seats_account ON game_seats (account_id, created_ms);
CREATE INDEX game_seats_created ON game_seats (created_ms);
";

fn game_seats(c: &Connection) -> rusqlite::Result<()> {
    c.execute_batch(GAME_SEATS)
}

// Migration 4: the lobby's open seeks (`seeks.rs`).
const SEEKS: &str = "
CREATE TABLE seeks (
    id          INTEGER PRIMARY KEY,
    seeker_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    preset      TEXT NOT NULL,
    lexicon     TEXT NOT NULL,
    initial_ms  INTEGER NOT NULL,
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    min_rating  INTEGER,
    max_rating  INTEGER,
    opponent    TEXT NOT NULL CHECK (opponent IN ('anyone', 'invited', 'computer')),
    invited_id  INTEGER REFERENCES accounts (id) ON DELETE CASCADE,
    bot_level   TEXT,
    created_ms  INTEGER NOT NULL,
    CHECK ((opponent = 'invited') = (invited_id IS NOT NULL)),
    CHECK ((opponent = 'computer') = (bot_level IS NOT NULL))
);
CREATE INDEX seeks_seeker ON seeks (seeker_id);
CREATE INDEX seeks_created ON seeks (created_ms);
";

fn seeks(c: &Connection) -> rusqlite::Result<()> {
    c.execute_batch(SEEKS)
}

// Migration 5: chat and its moderation (`chat.rs`).
const CHAT: &str = "
CREATE TABLE chat_messages (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    key        TEXT NOT NULL UNIQUE,
    room       TEXT NOT NULL,
    sender_id  INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    text       TEXT NOT NULL,
    sent_ms    INTEGER NOT NULL,
    deleted_by INTEGER REFERENCES accounts (id),
    deleted_ms INTEGER
);
CREATE INDEX chat_messages_room ON chat_messages (room, id);
CREATE TABLE chat_relations (
    account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    other_id   INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('mute', 'block')),
    created_ms INTEGER NOT NULL,
    PRIMARY KEY (account_id, other_id, kind)
) WITHOUT ROWID;
CREATE TABLE chat_reports (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id  INTEGER NOT NULL REFERENCES chat_messages (id) ON DELETE CASCADE,
    reporter_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    reason      TEXT NOT NULL,
    reported_ms INTEGER NOT NULL,
    closed_by   INTEGER REFERENCES accounts (id),
    closed_ms   INTEGER,
    UNIQUE (message_id, reporter_id)
);
CREATE INDEX chat_reports_open ON chat_reports (closed_by, id);
CREATE TABLE moderation_log (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    key          TEXT NOT NULL UNIQUE,
    moderator_id INTEGER NOT NULL REFERENCES accounts (id),
    action       TEXT NOT NULL,
    account_id   INTEGER REFERENCES accounts (id),
    message_id   INTEGER REFERENCES chat_messages (id),
    detail       TEXT NOT NULL,
    at_ms        INTEGER NOT NULL
);
";

fn chat(c: &Connection) -> rusqlite::Result<()> {
    c.execute_batch(CHAT)
}

/// Several processes share only a PostgreSQL database: a SQLite file has one process, which owns
/// every game, so it never reads these tables. They are made all the same, so that both
/// databases have one schema at every version.
fn leases(c: &Connection) -> rusqlite::Result<()> {
    c.execute_batch(
        "CREATE TABLE processes (
             name          TEXT PRIMARY KEY,
             address       TEXT NOT NULL,
             started_at_ms INTEGER NOT NULL,
             seen_at_ms    INTEGER NOT NULL
         );
         CREATE TABLE game_leases (
             game_id       TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
             owner         TEXT NOT NULL,
             generation    INTEGER NOT NULL,
             expires_at_ms INTEGER NOT NULL
         );
         CREATE TABLE game_notes (
             game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
             wall_ms INTEGER NOT NULL,
             text    TEXT NOT NULL
         );",
    )
}

/// The events table was clustered by game (`WITHOUT ROWID`): thousands of live games each
/// appended to their own page, so every action wrote a page of its own to the log, and a page
/// split (a few actions in ten) made SQLite scan its whole page cache at the commit. Kept in
/// the order they arrive, a batch's events share the last page, and only the index (a few
/// bytes an event, so it splits far less often) is written game by game: the writer's CPU an
/// action fell from about 63 µs to 46 µs at 2,000 games (`tilebag bench serve`). Every event is
/// copied, in order; nothing else changes (the same columns, the same key).
fn events_in_arrival_order(c: &Connection) -> rusqlite::Result<()> {
    c.execute_batch(
        "CREATE TABLE events_in_order (
             game_id    TEXT NOT NULL REFERENCES games (id),
             seq        INTEGER NOT NULL,
             at_ms      INTEGER NOT NULL,
             wall_ms    INTEGER NOT NULL,
             event_json TEXT NOT NULL,
             PRIMARY KEY (game_id, seq)
         );
         INSERT INTO events_in_order (game_id, seq, at_ms, wall_ms, event_json)
             SELECT game_id, seq, at_ms, wall_ms, event_json FROM events ORDER BY game_id, seq;
         DROP TABLE events;
         ALTER TABLE events_in_order RENAME TO events;",
    )
}

/// The highest version applied (0: none, a database made before versions or a new file).
fn version(c: &Connection) -> rusqlite::Result<i64> {
    let has_table = c
        .prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_version'")?
        .exists([])?;
    if !has_table {
        return Ok(0);
    }
    c.query_row(
        "SELECT COALESCE(MAX(version), 0) FROM schema_version",
        [],
        |r| r.get(0),
    )
}

fn too_new(path: &str, found: i64) -> StoreError {
    StoreError::SchemaTooNew {
        database: path.to_string(),
        found,
        known: SCHEMA_VERSION,
    }
}

/// Bring the database to [`SCHEMA_VERSION`]: every migration not yet applied, in one
/// transaction (all or nothing). A database already there is only read; one from a newer
/// tilebag is refused untouched.
pub(super) fn migrate(conn: &mut Connection, path: &str) -> Result<(), StoreError> {
    match version(conn)? {
        v if v > SCHEMA_VERSION => return Err(too_new(path, v)),
        SCHEMA_VERSION => return Ok(()),
        _ => {}
    }
    // IMMEDIATE: the write lock now, so another process opening the file at once waits here
    // and then finds the migrations done.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute_batch(VERSION_TABLE)?;
    let current = version(&tx)?;
    if current > SCHEMA_VERSION {
        return Err(too_new(path, current));
    }
    for m in MIGRATIONS.iter().filter(|m| m.version > current) {
        (m.apply)(&tx).map_err(|e| {
            StoreError::Other(format!("migration {} ({}) failed: {e}", m.version, m.name))
        })?;
        tx.execute(
            "INSERT INTO schema_version (version, name, applied_ms) VALUES (?1, ?2, ?3)",
            params![m.version, m.name, wall_ms()],
        )?;
    }
    tx.commit()?;
    Ok(())
}
