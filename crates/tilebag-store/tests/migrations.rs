//! Versioned migrations: a database made before versions (by the last release without them, or
//! by the first release, before columns were added) is upgraded in place, nothing lost, to the
//! same schema as a fresh one; opening it again changes nothing; servers opening one database
//! at once apply each migration once; a failed migration leaves the database as it was; and a
//! database from a newer tilebag is refused, untouched. On SQLite, and on PostgreSQL (in a
//! schema of its own) when `TILEBAG_TEST_POSTGRES` names a database.

mod support;

use std::sync::Arc;
use support::{sqlite_rows, sqlite_schema, sqlite_versions, PgSchema, TempDir};
use tilebag_core::{Action, Actor, Event, Ruleset};
use tilebag_store::{
    encode_event, encode_ruleset, open, BotSeat, GameStatus, NewAccount, Rating, RatingPoint,
    SessionRow, Store, StoreError, SCHEMA_VERSION,
};

/// The SQLite schema of the last code without migrations (`git show
/// 72ce04b:crates/tilebag-store/src/sqlite.rs`), as it made a new file.
const SQLITE_LAST_UNVERSIONED: &str = "
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

/// The SQLite schema of the first release (`git show 4461a2c:crates/tilebag-server/src/store/
/// sqlite.rs`): no `seeded`, `bot_json`, `events_seen`, no `health`.
const SQLITE_FIRST_RELEASE: &str = "
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
    checkpoint_ms INTEGER NOT NULL DEFAULT 0
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
";

/// The PostgreSQL schema of the last code without migrations.
const PG_LAST_UNVERSIONED: &str = "
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

/// The PostgreSQL schema of the first release.
const PG_FIRST_RELEASE: &str = "
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

/// Which code made the old database.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Era {
    FirstRelease,
    LastUnversioned,
}

impl Era {
    /// The columns of `games` it had.
    fn game_columns(self) -> &'static str {
        match self {
            Era::FirstRelease => FIRST_COLUMNS,
            Era::LastUnversioned => LAST_COLUMNS,
        }
    }
}

/// The columns the first release wrote a game with.
const FIRST_COLUMNS: &str = "id, seat0_token, seat1_token, player0, player1, preset, \
     ruleset_json, seed, lexicon, created_at_ms, status, result_json, checkpoint_ms";
/// The columns the last code without migrations wrote a game with (its `GAME_COLUMNS`), and
/// `events_seen`, which its checkpoints wrote.
const LAST_COLUMNS: &str = "id, seat0_token, seat1_token, player0, player1, preset, \
     ruleset_json, seed, lexicon, created_at_ms, status, result_json, checkpoint_ms, seeded, \
     bot_json, events_seen";

/// The top bit set: stored as a negative integer, read back as the same 64 bits.
const SEED: u64 = 0xF00D_0000_0000_0001;
const BOT_JSON: &str = r#"{"seat":1,"level":"static"}"#;
const RESULT_JSON: &str = r#"{"reason":"resigned","scores":[0,0]}"#;

/// A game as the old code stored it.
struct OldGame {
    id: &'static str,
    tokens: [&'static str; 2],
    names: [&'static str; 2],
    created_at_ms: i64,
    /// The creator chose the seed (written by the last code only).
    seeded: bool,
    /// Against the computer (written by the last code only).
    bot_json: Option<&'static str>,
    checkpoint_ms: i64,
    /// The result, when its last event ended it.
    ended: Option<&'static str>,
}

const OLD_GAMES: [OldGame; 2] = [
    OldGame {
        id: "g1",
        tokens: ["tok-ann", "tok-bob"],
        names: ["Ann", "Bob"],
        created_at_ms: 1_700_000_000_000,
        seeded: true,
        bot_json: None,
        checkpoint_ms: 4_500,
        ended: None,
    },
    OldGame {
        id: "g2",
        tokens: ["tok-cy", "tok-bot"],
        names: ["Cy", "Computer"],
        created_at_ms: 1_700_000_100_000,
        seeded: false,
        bot_json: Some(BOT_JSON),
        checkpoint_ms: 0,
        ended: Some(RESULT_JSON),
    },
];

fn event(seat: usize, at_ms: i64, action: Action) -> Event {
    Event {
        actor: Actor::Seat(seat),
        at_ms,
        action,
    }
}

/// The old games' events: (game, seq, event, wall ms).
fn old_events() -> Vec<(&'static str, i64, Event, i64)> {
    vec![
        ("g1", 0, event(0, 1_500, Action::Pass), 1_700_000_001_500),
        ("g1", 1, event(1, 4_000, Action::Pass), 1_700_000_004_000),
        ("g2", 0, event(0, 900, Action::Resign), 1_700_000_100_900),
    ]
}

/// A SQLite file as the old code of `era` left it: its schema, two games (one live with a
/// checkpoint, one ended against the computer) and their events, written with its statements.
fn sqlite_old_database(path: &str, era: Era) {
    use rusqlite::types::Value;
    let c = rusqlite::Connection::open(path).unwrap();
    c.execute_batch(match era {
        Era::FirstRelease => SQLITE_FIRST_RELEASE,
        Era::LastUnversioned => SQLITE_LAST_UNVERSIONED,
    })
    .unwrap();
    let ruleset = encode_ruleset(&Ruleset::naspa_2013());
    for g in &OLD_GAMES {
        let mut values = vec![
            Value::from(g.id.to_string()),
            Value::from(g.tokens[0].to_string()),
            Value::from(g.tokens[1].to_string()),
            Value::from(g.names[0].to_string()),
            Value::from(g.names[1].to_string()),
            Value::from("naspa".to_string()),
            Value::from(ruleset.clone()),
            Value::from(SEED as i64),
            Value::from("TWL06".to_string()),
            Value::from(g.created_at_ms),
            Value::from("live".to_string()),
            Value::Null,
            Value::from(0i64),
        ];
        let mut columns = FIRST_COLUMNS.to_string();
        if era == Era::LastUnversioned {
            columns.push_str(", seeded, bot_json");
            values.push(Value::from(g.seeded));
            values.push(
                g.bot_json
                    .map(|b| Value::from(b.to_string()))
                    .unwrap_or(Value::Null),
            );
        }
        let marks: Vec<String> = (1..=values.len()).map(|i| format!("?{i}")).collect();
        c.execute(
            &format!(
                "INSERT INTO games ({columns}) VALUES ({})",
                marks.join(", ")
            ),
            rusqlite::params_from_iter(values),
        )
        .unwrap();
    }
    for (game, seq, ev, wall) in old_events() {
        c.execute(
            "INSERT INTO events (game_id, seq, at_ms, wall_ms, event_json) \
             VALUES (?1, ?2, ?3, ?4, ?5)",
            rusqlite::params![game, seq, ev.at_ms, wall, encode_event(&ev)],
        )
        .unwrap();
    }
    for g in &OLD_GAMES {
        if let Some(result) = g.ended {
            c.execute(
                "UPDATE games SET status = 'ended', result_json = ?2, ended_at_ms = ?3 \
                 WHERE id = ?1",
                rusqlite::params![g.id, result, g.created_at_ms + 1_000],
            )
            .unwrap();
        }
        match era {
            Era::FirstRelease => c.execute(
                "UPDATE games SET checkpoint_ms = MAX(checkpoint_ms, ?2) WHERE id = ?1",
                rusqlite::params![g.id, g.checkpoint_ms],
            ),
            Era::LastUnversioned => c.execute(
                "UPDATE games SET checkpoint_ms = MAX(checkpoint_ms, ?2), \
                 events_seen = MAX(events_seen, ?3) WHERE id = ?1",
                rusqlite::params![g.id, g.checkpoint_ms, 2],
            ),
        }
        .unwrap();
    }
    if era == Era::LastUnversioned {
        c.execute(
            "INSERT OR REPLACE INTO health (id, wall_ms) VALUES (1, ?1)",
            [1_700_000_200_000i64],
        )
        .unwrap();
    }
}

/// The same in a PostgreSQL schema.
async fn pg_old_database(pg: &PgSchema, era: Era) {
    use tokio_postgres::types::ToSql;
    pg.client
        .batch_execute(match era {
            Era::FirstRelease => PG_FIRST_RELEASE,
            Era::LastUnversioned => PG_LAST_UNVERSIONED,
        })
        .await
        .unwrap();
    let ruleset = encode_ruleset(&Ruleset::naspa_2013());
    let (preset, lexicon, live, seed) = ("naspa", "TWL06", "live", SEED as i64);
    let (no_result, zero): (Option<&str>, i64) = (None, 0);
    for g in &OLD_GAMES {
        let mut values: Vec<&(dyn ToSql + Sync)> = vec![
            &g.id,
            &g.tokens[0],
            &g.tokens[1],
            &g.names[0],
            &g.names[1],
            &preset,
            &ruleset,
            &seed,
            &lexicon,
            &g.created_at_ms,
            &live,
            &no_result,
            &zero,
        ];
        let mut columns = FIRST_COLUMNS.to_string();
        if era == Era::LastUnversioned {
            columns.push_str(", seeded, bot_json");
            values.push(&g.seeded);
            values.push(&g.bot_json);
        }
        let marks: Vec<String> = (1..=values.len()).map(|i| format!("${i}")).collect();
        pg.client
            .execute(
                &format!(
                    "INSERT INTO games ({columns}) VALUES ({}) ON CONFLICT (id) DO NOTHING",
                    marks.join(", ")
                ),
                &values,
            )
            .await
            .unwrap();
    }
    for (game, seq, ev, wall) in old_events() {
        pg.client
            .execute(
                "INSERT INTO events (game_id, seq, at_ms, wall_ms, event_json) \
                 VALUES ($1, $2, $3, $4, $5)",
                &[&game, &seq, &ev.at_ms, &wall, &encode_event(&ev)],
            )
            .await
            .unwrap();
    }
    for g in &OLD_GAMES {
        if let Some(result) = g.ended {
            pg.client
                .execute(
                    "UPDATE games SET status = 'ended', result_json = $2, ended_at_ms = $3 \
                     WHERE id = $1",
                    &[&g.id, &result, &(g.created_at_ms + 1_000)],
                )
                .await
                .unwrap();
        }
        let sql = match era {
            Era::FirstRelease => {
                "UPDATE games SET checkpoint_ms = GREATEST(checkpoint_ms, $2) \
                 WHERE id = $1 AND $3::bigint >= 0"
            }
            Era::LastUnversioned => {
                "UPDATE games SET checkpoint_ms = GREATEST(checkpoint_ms, $2), \
                 events_seen = GREATEST(events_seen, $3) WHERE id = $1"
            }
        };
        pg.client
            .execute(sql, &[&g.id, &g.checkpoint_ms, &2i64])
            .await
            .unwrap();
    }
}

fn is_old(id: &str) -> bool {
    OLD_GAMES.iter().any(|g| g.id == id)
}

/// The old games load as they were stored (the columns an era lacked read as their defaults).
async fn check_old_games(store: &dyn Store, era: Era) {
    let last = era == Era::LastUnversioned;
    let events = old_events();
    for g in &OLD_GAMES {
        let (rec, evs) = store
            .load_game(g.id)
            .await
            .unwrap()
            .expect("the game is kept");
        assert_eq!(rec.id, g.id);
        assert_eq!(rec.tokens, g.tokens.map(String::from));
        assert_eq!(rec.names, g.names.map(String::from));
        assert_eq!(
            (rec.preset.as_str(), rec.lexicon.as_str()),
            ("naspa", "TWL06")
        );
        assert_eq!(rec.ruleset, Ruleset::naspa_2013());
        assert_eq!(rec.seed, SEED);
        assert_eq!(rec.created_at_ms, g.created_at_ms);
        assert_eq!(rec.checkpoint_ms, g.checkpoint_ms);
        assert_eq!(rec.events_seen, if last { 2 } else { 0 });
        assert_eq!(rec.seeded, last && g.seeded);
        let bot = (last && g.bot_json.is_some()).then(|| BotSeat {
            seat: 1,
            level: "static".into(),
        });
        assert_eq!(rec.bot, bot);
        match g.ended {
            Some(result) => {
                assert_eq!(rec.status, GameStatus::Ended);
                assert_eq!(rec.result_json.as_deref(), Some(result));
            }
            None => {
                assert_eq!(rec.status, GameStatus::Live);
                assert_eq!(rec.result_json, None);
            }
        }
        let got: Vec<(u64, Event, i64)> = evs
            .into_iter()
            .map(|e| (e.seq, e.event, e.wall_ms))
            .collect();
        let want: Vec<(u64, Event, i64)> = events
            .iter()
            .filter(|(id, ..)| *id == g.id)
            .map(|(_, seq, ev, wall)| (*seq as u64, ev.clone(), *wall))
            .collect();
        assert_eq!(got, want, "events of {}", g.id);
    }
    let unfinished = store.load_unfinished().await.unwrap();
    let ids: Vec<String> = unfinished
        .iter()
        .map(|u| u.as_ref().expect("readable").0.id.clone())
        .filter(|id| is_old(id))
        .collect();
    assert_eq!(ids, ["g1"]);
    let listed: Vec<String> = store
        .list_games(10)
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.id)
        .filter(|id| is_old(id))
        .collect();
    assert_eq!(listed, ["g2", "g1"]);
}

/// The accounts tables are there and work, and so does storing a new game.
async fn check_new_tables_work(store: &dyn Store) {
    let a = store.accounts();
    let new = NewAccount {
        username: "Dee".into(),
        skeleton: "dee".into(),
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into(),
        email: None,
        created_ms: 1_700_000_300_000,
    };
    let id = a.create_account(&new).await.unwrap().expect("a free name");
    let look_alike = NewAccount {
        username: "D3e".into(),
        password_hash: "$argon2id$other".into(),
        ..new.clone()
    };
    assert_eq!(a.create_account(&look_alike).await.unwrap(), None);
    let session = SessionRow {
        token_hash: "ab".repeat(32),
        account_id: id,
        created_ms: 1_700_000_300_000,
        last_seen_ms: 1_700_000_300_000,
    };
    a.create_session(&session).await.unwrap();
    let (row, account) = a.session(&session.token_hash).await.unwrap().unwrap();
    assert_eq!((row, account.username.as_str()), (session, "Dee"));
    let rating = Rating {
        account_id: id,
        category: "enable1/blitz".into(),
        rating: 1_650.5,
        deviation: 200.25,
        volatility: 0.06,
        games: 1,
        updated_ms: 1_700_000_400_000,
    };
    let point = RatingPoint {
        account_id: id,
        category: "enable1/blitz".into(),
        game_id: "g2".into(),
        rating: 1_650.5,
        deviation: 200.25,
        at_ms: 1_700_000_400_000,
    };
    assert!(a.record_rating(&rating, &point).await.unwrap());
    assert_eq!(a.ratings_of(id).await.unwrap(), vec![rating]);
    assert_eq!(
        a.rating_history(id, "enable1/blitz", 5).await.unwrap(),
        vec![point]
    );
    // A new game against the computer, with its columns.
    let (mut game, _) = store.load_game("g1").await.unwrap().unwrap();
    game.id = "g3".into();
    game.tokens = ["tok-dee".into(), "tok-bot3".into()];
    game.created_at_ms = 1_700_000_500_000;
    game.status = GameStatus::Live;
    game.checkpoint_ms = tilebag_store::NOT_STARTED;
    game.seeded = true;
    game.bot = Some(BotSeat {
        seat: 0,
        level: "beginner".into(),
    });
    store.create_game(&game).await.unwrap();
    let (g3, evs) = store.load_game("g3").await.unwrap().unwrap();
    assert_eq!((g3.bot, g3.seeded, evs.len()), (game.bot.clone(), true, 0));
}

/// Every table of a SQLite file, its schema and every row.
fn sqlite_everything(c: &rusqlite::Connection) -> Vec<String> {
    let mut out = sqlite_schema(c);
    let tables: Vec<String> = c
        .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' \
             ORDER BY name",
        )
        .unwrap()
        .query_map([], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    for t in tables {
        out.push(format!("rows of {t}"));
        let n = c
            .prepare(&format!("SELECT * FROM {t}"))
            .unwrap()
            .column_count();
        let order: Vec<String> = (1..=n).map(|i| i.to_string()).collect();
        out.extend(sqlite_rows(
            c,
            &format!("SELECT * FROM {t} ORDER BY {}", order.join(", ")),
        ));
    }
    out
}

/// Every table of a PostgreSQL schema, its schema and every row.
async fn pg_everything(pg: &PgSchema) -> Vec<String> {
    let mut out = pg.schema().await;
    let tables: Vec<String> = pg
        .client
        .query(
            "SELECT table_name::text FROM information_schema.tables \
             WHERE table_schema = current_schema() ORDER BY 1",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    for t in tables {
        out.push(format!("rows of {t}"));
        out.extend(pg.rows(&t, "1").await);
    }
    out
}

fn versions_of(rows: &[(i64, String, i64)]) -> Vec<i64> {
    rows.iter().map(|r| r.0).collect()
}

fn all_versions() -> Vec<i64> {
    (1..=SCHEMA_VERSION).collect()
}

async fn sqlite_upgrade(era: Era) {
    let dir = TempDir::new("upgrade");
    let path = dir.db("old.db");
    sqlite_old_database(&path, era);
    let c = rusqlite::Connection::open(&path).unwrap();
    let games_sql = format!("SELECT {} FROM games ORDER BY id", era.game_columns());
    let events_sql = "SELECT * FROM events ORDER BY game_id, seq";
    let (games_before, events_before) = (sqlite_rows(&c, &games_sql), sqlite_rows(&c, events_sql));
    let health_before =
        (era == Era::LastUnversioned).then(|| sqlite_rows(&c, "SELECT * FROM health"));

    let store = open(&path).await.expect("the old database opens");
    check_old_games(&*store, era).await;
    // Nothing stored before is changed.
    assert_eq!(sqlite_rows(&c, &games_sql), games_before);
    assert_eq!(sqlite_rows(&c, events_sql), events_before);
    if let Some(health) = health_before {
        assert_eq!(sqlite_rows(&c, "SELECT * FROM health"), health);
    }
    check_new_tables_work(&*store).await;
    drop(store);
    assert_eq!(versions_of(&sqlite_versions(&c)), all_versions());
    // Migration 7: the events, every one kept (above), are stored in the order they arrive.
    let events_table: String = c
        .query_row(
            "SELECT sql FROM sqlite_master WHERE name = 'events'",
            [],
            |r| r.get(0),
        )
        .unwrap();
    assert!(!events_table.contains("WITHOUT ROWID"), "{events_table}");

    // The same schema as a database made new.
    let fresh = dir.db("fresh.db");
    drop(open(&fresh).await.unwrap());
    let fresh = rusqlite::Connection::open(&fresh).unwrap();
    assert_eq!(sqlite_schema(&c), sqlite_schema(&fresh));
    assert_eq!(versions_of(&sqlite_versions(&fresh)), all_versions());

    // Opening it again changes nothing.
    let before = sqlite_everything(&c);
    let store = open(&path).await.expect("opens again");
    check_old_games(&*store, era).await;
    drop(store);
    assert_eq!(sqlite_everything(&c), before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_database_of_the_last_unversioned_code_is_upgraded_in_place() {
    sqlite_upgrade(Era::LastUnversioned).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_database_of_the_first_release_is_upgraded_in_place() {
    sqlite_upgrade(Era::FirstRelease).await;
}

async fn pg_upgrade(test: &str, era: Era) {
    let Some(pg) = PgSchema::create(test).await else {
        return;
    };
    pg_old_database(&pg, era).await;
    let games_sql = format!("SELECT {} FROM games ORDER BY id", era.game_columns());
    let json = |sql: &str| format!("SELECT row_to_json(t)::text FROM ({sql}) AS t");
    let rows = |sql: String| {
        let client = &pg.client;
        async move {
            client
                .query(&sql, &[])
                .await
                .unwrap()
                .iter()
                .map(|r| r.get::<_, String>(0))
                .collect::<Vec<_>>()
        }
    };
    let events_sql = "SELECT * FROM events ORDER BY game_id, seq";
    let games_before = rows(json(&games_sql)).await;
    let events_before = rows(json(events_sql)).await;

    let store = open(&pg.url).await.expect("the old database opens");
    check_old_games(&*store, era).await;
    assert_eq!(rows(json(&games_sql)).await, games_before);
    assert_eq!(rows(json(events_sql)).await, events_before);
    check_new_tables_work(&*store).await;
    drop(store);
    assert_eq!(versions_of(&pg.versions().await), all_versions());

    // The same schema as a database made new.
    let fresh = PgSchema::create(test).await.unwrap();
    drop(open(&fresh.url).await.unwrap());
    assert_eq!(pg.schema().await, fresh.schema().await);
    assert_eq!(versions_of(&fresh.versions().await), all_versions());
    fresh.drop().await;

    // Opening it again changes nothing.
    let before = pg_everything(&pg).await;
    let store = open(&pg.url).await.expect("opens again");
    check_old_games(&*store, era).await;
    drop(store);
    assert_eq!(pg_everything(&pg).await, before);
    pg.drop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_database_of_the_last_unversioned_code_is_upgraded_in_place() {
    pg_upgrade(
        "postgres_a_database_of_the_last_unversioned_code_is_upgraded_in_place",
        Era::LastUnversioned,
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_database_of_the_first_release_is_upgraded_in_place() {
    pg_upgrade(
        "postgres_a_database_of_the_first_release_is_upgraded_in_place",
        Era::FirstRelease,
    )
    .await;
}

/// The refusal of a database from a newer tilebag names it and both versions.
fn check_too_new(err: StoreError, database: &str) {
    let message = err.to_string();
    match err {
        StoreError::SchemaTooNew {
            database: named,
            found,
            known,
        } => {
            assert_eq!((found, known), (SCHEMA_VERSION + 1, SCHEMA_VERSION));
            assert_eq!(named, database);
        }
        other => panic!("not refused as too new: {other}"),
    }
    for part in [
        format!("schema version {}", SCHEMA_VERSION + 1),
        format!("(version {SCHEMA_VERSION})"),
        database.to_string(),
    ] {
        assert!(message.contains(&part), "{message:?} names {part:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_database_from_a_newer_tilebag_is_refused_untouched() {
    let dir = TempDir::new("future");
    let path = dir.db("future.db");
    drop(open(&path).await.unwrap());
    let c = rusqlite::Connection::open(&path).unwrap();
    c.execute(
        "INSERT INTO schema_version (version, name, applied_ms) VALUES (?1, 'from later', 5)",
        [SCHEMA_VERSION + 1],
    )
    .unwrap();
    c.execute_batch("CREATE TABLE later (x TEXT); INSERT INTO later VALUES ('kept');")
        .unwrap();
    let before = sqlite_everything(&c);
    for _ in 0..2 {
        let err = open(&path).await.err().expect("refused");
        check_too_new(err, &path);
        assert_eq!(sqlite_everything(&c), before);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_database_from_a_newer_tilebag_is_refused_untouched() {
    let Some(pg) =
        PgSchema::create("postgres_a_database_from_a_newer_tilebag_is_refused_untouched").await
    else {
        return;
    };
    drop(open(&pg.url).await.unwrap());
    pg.client
        .execute(
            "INSERT INTO schema_version (version, name, applied_ms) VALUES ($1, 'from later', 5)",
            &[&(SCHEMA_VERSION + 1)],
        )
        .await
        .unwrap();
    pg.client
        .batch_execute("CREATE TABLE later (x TEXT); INSERT INTO later VALUES ('kept');")
        .await
        .unwrap();
    let before = pg_everything(&pg).await;
    for _ in 0..2 {
        let err = open(&pg.url).await.err().expect("refused");
        check_too_new(err, &tilebag_store::redact_url(&pg.url));
        assert_eq!(pg_everything(&pg).await, before);
    }
    pg.drop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_servers_opening_an_old_database_at_once_migrate_it_once() {
    let dir = TempDir::new("concurrent");
    // Several rounds: two servers switching the old file to WAL at the same instant (a race
    // that once failed one open in about sixty) must both succeed.
    for round in 0..8 {
        let path = dir.db(&format!("old-{round}.db"));
        // Migration 1 adds columns to this one: applied twice, it would fail.
        sqlite_old_database(&path, Era::FirstRelease);
        let opens: Vec<_> = (0..6)
            .map(|_| {
                let path = path.clone();
                tokio::spawn(async move { open(&path).await.map(|s| s.kind()) })
            })
            .collect();
        let mut stores = Vec::new();
        for o in opens {
            stores.push(o.await.unwrap().expect("every open succeeds"));
        }
        assert_eq!(stores.len(), 6);
        let c = rusqlite::Connection::open(&path).unwrap();
        assert_eq!(versions_of(&sqlite_versions(&c)), all_versions());
        let store = open(&path).await.unwrap();
        check_old_games(&*store, Era::FirstRelease).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_servers_opening_an_old_database_at_once_migrate_it_once() {
    let Some(pg) =
        PgSchema::create("postgres_servers_opening_an_old_database_at_once_migrate_it_once").await
    else {
        return;
    };
    pg_old_database(&pg, Era::FirstRelease).await;
    let opens: Vec<_> = (0..8)
        .map(|_| {
            let url = pg.url.clone();
            tokio::spawn(async move { open(&url).await })
        })
        .collect();
    let mut stores: Vec<Arc<dyn Store>> = Vec::new();
    for o in opens {
        stores.push(o.await.unwrap().expect("every open succeeds"));
    }
    assert_eq!(versions_of(&pg.versions().await), all_versions());
    check_old_games(&*stores[0], Era::FirstRelease).await;
    drop(stores);
    pg.drop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_failed_migration_leaves_the_database_as_it_was() {
    let dir = TempDir::new("failed");
    let path = dir.db("old.db");
    sqlite_old_database(&path, Era::FirstRelease);
    let c = rusqlite::Connection::open(&path).unwrap();
    // A table of another program in the way of migration 2.
    c.execute_batch("CREATE TABLE accounts (name TEXT); INSERT INTO accounts VALUES ('x');")
        .unwrap();
    let before = sqlite_everything(&c);
    let err = open(&path).await.err().expect("refused");
    let message = err.to_string();
    assert!(message.contains("migration 2"), "{message}");
    assert!(message.contains(&path), "{message}");
    // Migration 1 (adding columns) was undone with it: all or nothing.
    assert_eq!(sqlite_everything(&c), before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_failed_migration_leaves_the_database_as_it_was() {
    let Some(pg) =
        PgSchema::create("postgres_a_failed_migration_leaves_the_database_as_it_was").await
    else {
        return;
    };
    pg_old_database(&pg, Era::FirstRelease).await;
    pg.client
        .batch_execute("CREATE TABLE accounts (name TEXT); INSERT INTO accounts VALUES ('x');")
        .await
        .unwrap();
    let before = pg_everything(&pg).await;
    let err = open(&pg.url).await.err().expect("refused");
    let message = err.to_string();
    assert!(message.contains("migration 2"), "{message}");
    assert_eq!(pg_everything(&pg).await, before);
    pg.drop().await;
}
