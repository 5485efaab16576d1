//! Every `SeekStore` method, on SQLite and (when `TILEBAG_TEST_POSTGRES` names a database) on
//! PostgreSQL in a schema of its own: the same scenarios, run by `sqlite::NAME` and
//! `postgres::NAME`. And migration 4 upgrading a database of version 3 in place.

mod support;

use support::{account, on_both, store, PgSchema, TempDir};
use tilebag_store::seeks::MAX_SEEK_ID;
use tilebag_store::{SeekOpponent, SeekRow, SCHEMA_VERSION};

on_both!(
    seeks_are_listed_oldest_first_and_read_back_as_written,
    a_seek_is_taken_once_even_by_many_at_once,
    only_the_seeker_cancels_and_old_or_abandoned_seeks_are_swept,
    a_retried_seek_is_stored_once_and_a_clashing_id_is_refused,
);

fn seek(id: i64, seeker: i64, created_ms: i64, opponent: SeekOpponent) -> SeekRow {
    SeekRow {
        id,
        seeker_id: seeker,
        preset: "naspa-2013".into(),
        lexicon: "enable1".into(),
        initial_ms: 25 * 60_000,
        rated: matches!(opponent, SeekOpponent::Anyone),
        min_rating: None,
        max_rating: None,
        opponent,
        created_ms,
    }
}

async fn seeks_are_listed_oldest_first_and_read_back_as_written(db: &str) {
    let s = store(db).await;
    let ann = account(&*s, "Ann").await;
    let bob = account(&*s, "Bob").await;
    let mut ranged = seek(MAX_SEEK_ID, ann, 3_000, SeekOpponent::Anyone);
    ranged.min_rating = Some(1300);
    ranged.max_rating = Some(1700);
    ranged.initial_ms = 3 * 60_000;
    let invite = seek(7, bob, 1_000, SeekOpponent::Invited(ann));
    let bot = seek(8, ann, 2_000, SeekOpponent::Computer("static".into()));
    for row in [&ranged, &invite, &bot] {
        s.seeks().create_seek(row).await.unwrap();
    }
    assert_eq!(
        s.seeks().open_seeks(10).await.unwrap(),
        vec![invite.clone(), bot.clone(), ranged.clone()]
    );
    assert_eq!(
        s.seeks().open_seeks(2).await.unwrap(),
        vec![invite.clone(), bot.clone()]
    );
    assert_eq!(s.seeks().seeks_of(ann).await.unwrap(), vec![bot, ranged]);
    assert_eq!(s.seeks().seeks_of(bob).await.unwrap(), vec![invite]);
    // A seek's id is one a page's script reads exactly: 1 ..= 2^53 - 1.
    for bad in [0, -5, MAX_SEEK_ID + 1] {
        let err = s
            .seeks()
            .create_seek(&seek(bad, ann, 1, SeekOpponent::Anyone))
            .await
            .unwrap_err();
        assert!(err.to_string().contains("between 1 and"), "{err}");
    }
    // The seeker must exist.
    assert!(s
        .seeks()
        .create_seek(&seek(99, 4242, 1, SeekOpponent::Anyone))
        .await
        .is_err());
}

async fn a_seek_is_taken_once_even_by_many_at_once(db: &str) {
    let s = store(db).await;
    let ann = account(&*s, "Ann").await;
    let row = seek(41, ann, 1_000, SeekOpponent::Anyone);
    s.seeks().create_seek(&row).await.unwrap();
    let mut takers = Vec::new();
    for _ in 0..8 {
        let s = s.clone();
        takers.push(tokio::spawn(async move { s.seeks().take_seek(41).await }));
    }
    let mut got = Vec::new();
    for t in takers {
        if let Some(r) = t.await.unwrap().unwrap() {
            got.push(r);
        }
    }
    assert_eq!(got, vec![row], "exactly one taker gets the seek");
    assert!(s.seeks().open_seeks(10).await.unwrap().is_empty());
    assert_eq!(s.seeks().take_seek(41).await.unwrap(), None);
}

async fn only_the_seeker_cancels_and_old_or_abandoned_seeks_are_swept(db: &str) {
    let s = store(db).await;
    let ann = account(&*s, "Ann").await;
    let bob = account(&*s, "Bob").await;
    for (id, who, at) in [(1, ann, 100), (2, ann, 200), (3, bob, 300), (4, bob, 50)] {
        s.seeks()
            .create_seek(&seek(id, who, at, SeekOpponent::Anyone))
            .await
            .unwrap();
    }
    // Bob cannot cancel Ann's seek; Ann can, once.
    assert!(!s.seeks().cancel_seek(1, bob).await.unwrap());
    assert!(s.seeks().cancel_seek(1, ann).await.unwrap());
    assert!(!s.seeks().cancel_seek(1, ann).await.unwrap());
    // Older than 250: seek 4 (50) and seek 2 (200), oldest first.
    assert_eq!(
        s.seeks().delete_seeks_before(250).await.unwrap(),
        vec![4, 2]
    );
    assert_eq!(
        s.seeks().delete_seeks_of(ann).await.unwrap(),
        Vec::<i64>::new()
    );
    assert_eq!(s.seeks().delete_seeks_of(bob).await.unwrap(), vec![3]);
    assert!(s.seeks().open_seeks(10).await.unwrap().is_empty());
}

async fn a_retried_seek_is_stored_once_and_a_clashing_id_is_refused(db: &str) {
    let s = store(db).await;
    let ann = account(&*s, "Ann").await;
    let bob = account(&*s, "Bob").await;
    let row = seek(5, ann, 1_000, SeekOpponent::Anyone);
    s.seeks().create_seek(&row).await.unwrap();
    // The same row again (its first answer lost): stored once.
    s.seeks().create_seek(&row).await.unwrap();
    assert_eq!(s.seeks().open_seeks(10).await.unwrap(), vec![row.clone()]);
    // Another seek under the same id is refused, and the first is kept.
    let err = s
        .seeks()
        .create_seek(&seek(5, bob, 1_000, SeekOpponent::Anyone))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("another seek"), "{err}");
    assert_eq!(s.seeks().open_seeks(10).await.unwrap(), vec![row]);
}

/// The tables of migrations 1 to 3: a version-3 database has these and no others.
const TABLES_OF_3: &[&str] = &[
    "games",
    "events",
    "health",
    "schema_version",
    "accounts",
    "sessions",
    "ratings",
    "rating_history",
    "game_seats",
];

/// What makes a database of the current version a version-3 one, as the code before migration
/// 4 left it: every later table dropped (`cascade`: with what depends on it, for PostgreSQL),
/// every later version forgotten.
fn back_to_3(tables: &[String], cascade: &str) -> String {
    let mut sql: String = tables
        .iter()
        .filter(|t| !TABLES_OF_3.contains(&t.as_str()))
        .map(|t| format!("DROP TABLE {t}{cascade};"))
        .collect();
    sql.push_str("DELETE FROM schema_version WHERE version > 3;");
    sql
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_migration_4_adds_the_seeks_to_a_version_3_database_in_place() {
    let dir = TempDir::new("seeks_migration");
    let db = dir.db("t.db");
    let ann = {
        let s = store(&db).await;
        account(&*s, "Ann").await
    };
    {
        let c = rusqlite::Connection::open(&db).unwrap();
        let tables: Vec<String> = c
            .prepare(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'",
            )
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        assert!(tables.iter().any(|t| t == "seeks"));
        c.execute_batch(&back_to_3(&tables, "")).unwrap();
    }
    upgraded(&db, ann).await;
    let c = rusqlite::Connection::open(&db).unwrap();
    let version: i64 = c
        .query_row("SELECT MAX(version) FROM schema_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_migration_4_adds_the_seeks_to_a_version_3_database_in_place() {
    let Some(pg) = PgSchema::create("seeks_migration").await else {
        return;
    };
    let ann = {
        let s = store(&pg.url).await;
        account(&*s, "Ann").await
    };
    let tables: Vec<String> = pg
        .client
        .query(
            "SELECT table_name::text FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect();
    assert!(tables.iter().any(|t| t == "seeks"));
    let sql = back_to_3(&tables, " CASCADE");
    pg.client.batch_execute(&sql).await.unwrap();
    upgraded(&pg.url, ann).await;
    let version: i64 = pg
        .client
        .query_one("SELECT MAX(version) FROM schema_version", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(version, SCHEMA_VERSION);
    pg.drop().await;
}

/// Opening the version-3 database brings it to the current version: the account made before
/// is still there, and seeks can be stored for it.
async fn upgraded(db: &str, ann: i64) {
    let s = store(db).await;
    let found = s.accounts().account_by_id(ann).await.unwrap().unwrap();
    assert_eq!(found.username, "Ann");
    let row = seek(12, ann, 1_000, SeekOpponent::Anyone);
    s.seeks().create_seek(&row).await.unwrap();
    assert_eq!(s.seeks().open_seeks(5).await.unwrap(), vec![row]);
}
