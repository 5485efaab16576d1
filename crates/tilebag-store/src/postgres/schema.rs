//! PostgreSQL's migrations, numbered as SQLite's are (`sqlite/schema.rs`), recorded in a
//! `schema_version` table. Servers starting at once take turns: each runs its migrations in a
//! transaction holding a transaction-level advisory lock, so the second finds the first's work
//! committed and applies nothing. The lock's key is the one earlier code held around its
//! `CREATE TABLE IF NOT EXISTS` (as a session lock, which conflicts with a transaction lock on
//! the same key), so an old server starting beside a new one takes its turn too.

use super::super::{wall_ms, StoreError, SCHEMA_VERSION};
use tokio_postgres::{Client, IsolationLevel};

/// The advisory lock taken while migrating.
const LOCK_KEY: i64 = 7115;

/// One step of the schema, applied once, in order.
struct Migration {
    version: i64,
    name: &'static str,
    sql: &'static str,
}

const MIGRATIONS: &[Migration] = &[
    Migration {
        version: 1,
        name: "games and events (adopting a database made before versions)",
        sql: GAMES,
    },
    Migration {
        version: 2,
        name: "accounts, sessions, ratings and rating history",
        sql: ACCOUNTS,
    },
    Migration {
        version: 3,
        name: "game seats held by accounts",
        sql: GAME_SEATS,
    },
    Migration {
        version: 4,
        name: "the lobby's open seeks",
        sql: SEEKS,
    },
    Migration {
        version: 5,
        name: "chat messages, mutes and blocks, reports and the moderators' log",
        sql: CHAT,
    },
    Migration {
        version: 6,
        name: "the processes of one service and the leases on their live games",
        sql: LEASES,
    },
    // SQLite's events table was clustered by game and is now kept in the order events arrive
    // (`sqlite/schema.rs`). PostgreSQL's tables are kept in that order already: nothing to do,
    // but the version is the same on both.
    Migration {
        version: 7,
        name: "events stored in the order they arrive, found by game through an index",
        sql: "",
    },
];

const _: () = assert!(MIGRATIONS.len() as i64 == SCHEMA_VERSION);

const VERSION_TABLE: &str = "
CREATE TABLE IF NOT EXISTS schema_version (
    version    BIGINT PRIMARY KEY,
    name       TEXT NOT NULL,
    applied_ms BIGINT NOT NULL
);";

/// The schema as it was before migrations were numbered: the tables may be there already, made
/// by earlier code, with or without the columns added since (in the order they were added).
const GAMES: &str = "
CREATE TABLE IF NOT EXISTS games (
    id            TEXT PRIMARY KEY,
    seat0_token   TEXT NOT NULL,
    seat1_token   TEXT NOT NULL,
    player0       TEXT NOT NULL,
    player1       TEXT NOT NULL,
    preset        TEXT NOT NULL,
    ruleset_json  TEXT NOT NULL,
    seed          BIGINT NOT NULL,
    lexicon       TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    status        TEXT NOT NULL DEFAULT 'live',
    result_json   TEXT,
    ended_at_ms   BIGINT,
    checkpoint_ms BIGINT NOT NULL DEFAULT 0
);
ALTER TABLE games ADD COLUMN IF NOT EXISTS seeded BOOLEAN NOT NULL DEFAULT FALSE;
ALTER TABLE games ADD COLUMN IF NOT EXISTS bot_json TEXT;
ALTER TABLE games ADD COLUMN IF NOT EXISTS events_seen BIGINT NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS games_status ON games (status);
CREATE INDEX IF NOT EXISTS games_created ON games (created_at_ms);
CREATE TABLE IF NOT EXISTS events (
    game_id    TEXT NOT NULL REFERENCES games (id),
    seq        BIGINT NOT NULL,
    at_ms      BIGINT NOT NULL,
    wall_ms    BIGINT NOT NULL,
    event_json TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
";

const ACCOUNTS: &str = "
CREATE TABLE accounts (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    username       TEXT NOT NULL,
    skeleton       TEXT NOT NULL,
    password_hash  TEXT NOT NULL,
    email          TEXT,
    created_ms     BIGINT NOT NULL,
    role           TEXT NOT NULL DEFAULT 'player' CHECK (role IN ('player', 'moderator')),
    muted_until_ms BIGINT,
    banned         BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE UNIQUE INDEX accounts_skeleton ON accounts (skeleton);
CREATE TABLE sessions (
    token_hash   TEXT PRIMARY KEY,
    account_id   BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_ms   BIGINT NOT NULL,
    last_seen_ms BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account_id);
CREATE INDEX sessions_last_seen ON sessions (last_seen_ms);
CREATE TABLE ratings (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    category   TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    volatility DOUBLE PRECISION NOT NULL,
    games      BIGINT NOT NULL DEFAULT 0,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, category)
);
CREATE TABLE rating_history (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    category   TEXT NOT NULL,
    game_id    TEXT NOT NULL,
    rating     DOUBLE PRECISION NOT NULL,
    deviation  DOUBLE PRECISION NOT NULL,
    at_ms      BIGINT NOT NULL,
    PRIMARY KEY (account_id, category, game_id)
);
CREATE INDEX rating_history_at ON rating_history (account_id, category, at_ms);
";

/// Migration 3: which account sat at which seat of a game (`game_seats.rs`).
const GAME_SEATS: &str = "
CREATE TABLE game_seats (
    game_id        TEXT NOT NULL REFERENCES games (id),
    seat           INTEGER NOT NULL CHECK (seat IN (0, 1)),
    account_id     BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    rated          BOOLEAN NOT NULL,
    event          BOOLEAN NOT NULL,
    correspondence BOOLEAN NOT NULL,
    category       TEXT NOT NULL,
    created_ms     BIGINT NOT NULL,
    PRIMARY KEY (game_id, seat),
    CHECK (NOT (rated AND event))
);
CREATE INDEX game_seats_account ON game_seats (account_id, created_ms);
CREATE INDEX game_seats_created ON game_seats (created_ms);
";

// Migration 4: the lobby's open seeks (`seeks.rs`).
const SEEKS: &str = "
CREATE TABLE seeks (
    id          BIGINT PRIMARY KEY,
    seeker_id   BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    preset      TEXT NOT NULL,
    lexicon     TEXT NOT NULL,
    initial_ms  BIGINT NOT NULL,
    rated       BOOLEAN NOT NULL,
    min_rating  BIGINT,
    max_rating  BIGINT,
    opponent    TEXT NOT NULL CHECK (opponent IN ('anyone', 'invited', 'computer')),
    invited_id  BIGINT REFERENCES accounts (id) ON DELETE CASCADE,
    bot_level   TEXT,
    created_ms  BIGINT NOT NULL,
    CHECK ((opponent = 'invited') = (invited_id IS NOT NULL)),
    CHECK ((opponent = 'computer') = (bot_level IS NOT NULL))
);
CREATE INDEX seeks_seeker ON seeks (seeker_id);
CREATE INDEX seeks_created ON seeks (created_ms);
";

// Migration 5: chat and its moderation (`chat.rs`).
/// Several processes on one database (issue 31): each process's heartbeat, one lease a live
/// game, held by the process that owns the game, and the notes a takeover leaves in the game's
/// record. Times are the database's own clock, so the
/// processes' clocks never have to agree. See `leases.rs`.
const LEASES: &str = "
CREATE TABLE processes (
    name          TEXT PRIMARY KEY,
    address       TEXT NOT NULL,
    started_at_ms BIGINT NOT NULL,
    seen_at       TIMESTAMPTZ NOT NULL
);
CREATE TABLE game_leases (
    game_id    TEXT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    owner      TEXT NOT NULL,
    generation BIGINT NOT NULL,
    expires_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX game_leases_by_owner ON game_leases (owner);
CREATE TABLE game_notes (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    wall_ms BIGINT NOT NULL,
    text    TEXT NOT NULL
);
CREATE INDEX game_notes_by_game ON game_notes (game_id, wall_ms);
";

const CHAT: &str = "
CREATE TABLE chat_messages (
    id         BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key        TEXT NOT NULL UNIQUE,
    room       TEXT NOT NULL,
    sender_id  BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    text       TEXT NOT NULL,
    sent_ms    BIGINT NOT NULL,
    deleted_by BIGINT REFERENCES accounts (id),
    deleted_ms BIGINT
);
CREATE INDEX chat_messages_room ON chat_messages (room, id);
CREATE TABLE chat_relations (
    account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    other_id   BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    kind       TEXT NOT NULL CHECK (kind IN ('mute', 'block')),
    created_ms BIGINT NOT NULL,
    PRIMARY KEY (account_id, other_id, kind)
);
CREATE TABLE chat_reports (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    message_id  BIGINT NOT NULL REFERENCES chat_messages (id) ON DELETE CASCADE,
    reporter_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    reason      TEXT NOT NULL,
    reported_ms BIGINT NOT NULL,
    closed_by   BIGINT REFERENCES accounts (id),
    closed_ms   BIGINT,
    UNIQUE (message_id, reporter_id)
);
CREATE INDEX chat_reports_open ON chat_reports (closed_by, id);
CREATE TABLE moderation_log (
    id           BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    key          TEXT NOT NULL UNIQUE,
    moderator_id BIGINT NOT NULL REFERENCES accounts (id),
    action       TEXT NOT NULL,
    account_id   BIGINT REFERENCES accounts (id),
    message_id   BIGINT REFERENCES chat_messages (id),
    detail       TEXT NOT NULL,
    at_ms        BIGINT NOT NULL
);
";

/// Bring the database to [`SCHEMA_VERSION`] on `client` (a connection of its own, not the
/// pool's): every migration not yet applied, in one transaction (all or nothing). One from a
/// newer tilebag is refused untouched. `database` names it in that refusal.
pub(super) async fn migrate(client: &mut Client, database: &str) -> Result<(), StoreError> {
    // READ COMMITTED whatever the server's default: each statement after the lock sees what a
    // server that held it before committed.
    let tx = client
        .build_transaction()
        .isolation_level(IsolationLevel::ReadCommitted)
        .start()
        .await?;
    // Held until the commit (or the rollback when `tx` is dropped on an error).
    tx.batch_execute(&format!("SELECT pg_advisory_xact_lock({LOCK_KEY})"))
        .await?;
    tx.batch_execute(VERSION_TABLE).await?;
    let current: i64 = tx
        .query_one("SELECT COALESCE(MAX(version), 0) FROM schema_version", &[])
        .await?
        .try_get(0)?;
    if current > SCHEMA_VERSION {
        return Err(StoreError::SchemaTooNew {
            database: database.to_string(),
            found: current,
            known: SCHEMA_VERSION,
        });
    }
    for m in MIGRATIONS.iter().filter(|m| m.version > current) {
        tx.batch_execute(m.sql).await.map_err(|e| {
            StoreError::Other(format!(
                "migration {} ({}) failed: {}",
                m.version,
                m.name,
                super::describe(&e)
            ))
        })?;
        tx.execute(
            "INSERT INTO schema_version (version, name, applied_ms) VALUES ($1, $2, $3)",
            &[&m.version, &m.name, &wall_ms()],
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}
