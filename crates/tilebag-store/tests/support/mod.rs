//! Shared by the store's tests: temporary SQLite files, PostgreSQL schemas of their own (when
//! `TILEBAG_TEST_POSTGRES` names a database), and dumps of a database's schema and rows to
//! compare before and after.
#![allow(dead_code)]

use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

/// A tag no other test (of this run or another) uses.
pub fn unique_tag() -> String {
    static N: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    format!(
        "{}_{}_{}",
        std::process::id(),
        nanos % 1_000_000_000_000,
        N.fetch_add(1, Ordering::Relaxed)
    )
}

/// A folder removed when dropped.
pub struct TempDir(PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("tilebag-store-{name}-{}", unique_tag()));
        std::fs::create_dir_all(&dir).expect("make a temporary folder");
        TempDir(dir)
    }

    /// A database file's path in it.
    pub fn db(&self, file: &str) -> String {
        self.0
            .join(file)
            .to_str()
            .expect("a UTF-8 path")
            .to_string()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A PostgreSQL schema of its own for one test: `url` opens a store in it (its `search_path`),
/// `client` runs SQL in it.
pub struct PgSchema {
    pub name: String,
    pub url: String,
    pub client: tokio_postgres::Client,
    admin: tokio_postgres::Client,
}

async fn pg_connect(url: &str) -> tokio_postgres::Client {
    let (client, conn) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("connect to TILEBAG_TEST_POSTGRES");
    tokio::spawn(conn);
    client
}

impl PgSchema {
    /// `None`, saying so, when `TILEBAG_TEST_POSTGRES` is not set.
    pub async fn create(test: &str) -> Option<PgSchema> {
        let Ok(base) = std::env::var("TILEBAG_TEST_POSTGRES") else {
            println!(
                "skipping {test}: TILEBAG_TEST_POSTGRES not set \
                 (e.g. postgres://tilebag@127.0.0.1:5433/tilebag)"
            );
            return None;
        };
        let admin = pg_connect(&base).await;
        let name = format!("tilebag_store_{}", unique_tag());
        admin
            .batch_execute(&format!("CREATE SCHEMA {name}"))
            .await
            .expect("create a schema");
        let sep = if base.contains('?') { '&' } else { '?' };
        let url = format!("{base}{sep}options=-c%20search_path%3D{name}");
        let client = pg_connect(&url).await;
        Some(PgSchema {
            name,
            url,
            client,
            admin,
        })
    }

    pub async fn drop(self) {
        self.admin
            .batch_execute(&format!("DROP SCHEMA {} CASCADE", self.name))
            .await
            .expect("drop the test schema");
    }

    /// Every table's columns, indexes and constraints, in a stable order, with the schema's
    /// own name taken out (to compare two schemas).
    pub async fn schema(&self) -> Vec<String> {
        let mut out = Vec::new();
        for r in self
            .client
            .query(
                "SELECT table_name::text, column_name::text, data_type::text, \
                        is_nullable::text, COALESCE(column_default::text, ''), \
                        COALESCE(is_identity::text, '') \
                 FROM information_schema.columns WHERE table_schema = current_schema() \
                 ORDER BY table_name, ordinal_position",
                &[],
            )
            .await
            .unwrap()
        {
            let v: Vec<String> = (0..6).map(|i| r.get::<_, String>(i)).collect();
            out.push(format!("column {}", v.join(" | ")));
        }
        for r in self
            .client
            .query(
                "SELECT indexname::text, indexdef FROM pg_indexes \
                 WHERE schemaname = current_schema() ORDER BY indexname",
                &[],
            )
            .await
            .unwrap()
        {
            out.push(format!(
                "index {} {}",
                r.get::<_, String>(0),
                r.get::<_, String>(1)
            ));
        }
        for r in self
            .client
            .query(
                "SELECT c.conrelid::regclass::text, c.conname::text, pg_get_constraintdef(c.oid) \
                 FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace \
                 WHERE n.nspname = current_schema() ORDER BY 1, 2",
                &[],
            )
            .await
            .unwrap()
        {
            out.push(format!(
                "constraint {} {} {}",
                r.get::<_, String>(0),
                r.get::<_, String>(1),
                r.get::<_, String>(2)
            ));
        }
        out.iter()
            .map(|l| l.replace(&format!("{}.", self.name), "S."))
            .collect()
    }

    /// Every row of a table, as JSON, in key order.
    pub async fn rows(&self, table: &str, order: &str) -> Vec<String> {
        self.client
            .query(
                &format!("SELECT row_to_json(t)::text FROM {table} AS t ORDER BY {order}"),
                &[],
            )
            .await
            .unwrap()
            .iter()
            .map(|r| r.get(0))
            .collect()
    }

    /// The highest version recorded, and every row of `schema_version`.
    pub async fn versions(&self) -> Vec<(i64, String, i64)> {
        self.client
            .query(
                "SELECT version, name, applied_ms FROM schema_version ORDER BY version",
                &[],
            )
            .await
            .unwrap()
            .iter()
            .map(|r| (r.get(0), r.get(1), r.get(2)))
            .collect()
    }
}

/// Every table's columns, indexes and foreign keys in a SQLite file, in a stable order.
pub fn sqlite_schema(c: &rusqlite::Connection) -> Vec<String> {
    let tables: Vec<(String, String)> = c
        .prepare(
            "SELECT name, sql FROM sqlite_master WHERE type = 'table' \
             AND name NOT LIKE 'sqlite_%' ORDER BY name",
        )
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    let mut out = Vec::new();
    for (table, sql) in tables {
        out.push(format!(
            "table {table} without_rowid={}",
            sql.trim_end().ends_with("WITHOUT ROWID")
        ));
        let mut st = c
            .prepare(&format!("SELECT * FROM pragma_table_info('{table}')"))
            .unwrap();
        for row in st.query_map([], |r| dump_row(r, 6)).unwrap() {
            out.push(format!("  column {}", row.unwrap()));
        }
        let mut st = c
            .prepare(&format!(
                "SELECT name, \"unique\", origin, partial FROM pragma_index_list('{table}') \
                 ORDER BY name"
            ))
            .unwrap();
        let indexes: Vec<String> = st
            .query_map([], |r| Ok((r.get::<_, String>(0)?, dump_row(r, 4)?)))
            .unwrap()
            .map(|r| {
                let (name, desc) = r.unwrap();
                let cols: Vec<String> = c
                    .prepare(&format!(
                        "SELECT name FROM pragma_index_info('{name}') ORDER BY seqno"
                    ))
                    .unwrap()
                    .query_map([], |r| r.get::<_, Option<String>>(0))
                    .unwrap()
                    .map(|n| n.unwrap().unwrap_or_default())
                    .collect();
                // Automatic indexes are named by position; their definition is what counts.
                let desc = if name.starts_with("sqlite_autoindex_") {
                    desc.split_once(" | ")
                        .map(|(_, d)| d.to_string())
                        .unwrap_or(desc)
                } else {
                    desc
                };
                format!("  index {desc} ({})", cols.join(", "))
            })
            .collect();
        out.extend(indexes);
        let mut st = c
            .prepare(&format!(
                "SELECT \"table\", \"from\", \"to\", on_update, on_delete \
                 FROM pragma_foreign_key_list('{table}') ORDER BY id, seq"
            ))
            .unwrap();
        for row in st.query_map([], |r| dump_row(r, 5)).unwrap() {
            out.push(format!("  foreign key {}", row.unwrap()));
        }
    }
    out
}

/// The first `n` columns of a row, as text.
pub fn dump_row(r: &rusqlite::Row<'_>, n: usize) -> rusqlite::Result<String> {
    let mut cols = Vec::new();
    for i in 0..n {
        cols.push(format!("{:?}", r.get::<_, rusqlite::types::Value>(i)?));
    }
    Ok(cols.join(" | "))
}

/// Every row a query finds, every column, as text.
pub fn sqlite_rows(c: &rusqlite::Connection, sql: &str) -> Vec<String> {
    let mut st = c.prepare(sql).unwrap();
    let n = st.column_count();
    st.query_map([], |r| dump_row(r, n))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// The rows of `schema_version` in a SQLite file.
pub fn sqlite_versions(c: &rusqlite::Connection) -> Vec<(i64, String, i64)> {
    c.prepare("SELECT version, name, applied_ms FROM schema_version ORDER BY version")
        .unwrap()
        .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap()
}

/// Declares each scenario (an `async fn NAME(db: &str)` of the test file) twice: `sqlite::NAME`
/// on a fresh SQLite file, and `postgres::NAME` in a PostgreSQL schema of its own (skipped, with
/// a message, when `TILEBAG_TEST_POSTGRES` names no database).
#[allow(unused_macros)]
macro_rules! on_both {
    ($($name:ident),* $(,)?) => {
        mod sqlite {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let dir = crate::support::TempDir::new(stringify!($name));
                    super::$name(&dir.db("t.db")).await;
                }
            )*
        }
        mod postgres {
            $(
                #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
                async fn $name() {
                    let Some(pg) = crate::support::PgSchema::create(stringify!($name)).await else {
                        return;
                    };
                    super::$name(&pg.url).await;
                    pg.drop().await;
                }
            )*
        }
    };
}
#[allow(unused_imports)]
pub(crate) use on_both;

/// A live game between Ann and Bob (NASPA 2013, seed 7), created at `created_at_ms`.
pub async fn live_game(s: &dyn tilebag_store::Store, id: &str, created_at_ms: i64) {
    s.create_game(&tilebag_store::GameRecord {
        id: id.into(),
        tokens: [format!("{id}-t0"), format!("{id}-t1")],
        names: ["Ann".into(), "Bob".into()],
        preset: "naspa-2013".into(),
        ruleset: tilebag_core::Ruleset::naspa_2013(),
        seed: 7,
        lexicon: "ENABLE1".into(),
        created_at_ms,
        status: tilebag_store::GameStatus::Live,
        result_json: None,
        checkpoint_ms: 0,
        events_seen: 0,
        seeded: false,
        bot: None,
    })
    .await
    .unwrap();
}

/// The store a test's database URL or path names.
pub async fn store(db: &str) -> std::sync::Arc<dyn tilebag_store::Store> {
    tilebag_store::open(db).await.expect("open the store")
}

/// A new account named `name` (its skeleton the name in lower case); its id.
pub async fn account(s: &dyn tilebag_store::Store, name: &str) -> i64 {
    s.accounts()
        .create_account(&tilebag_store::NewAccount {
            username: name.into(),
            skeleton: name.to_lowercase(),
            password_hash: format!("$argon2id$v=19$m=19456,t=2,p=1$c2FsdA${name}"),
            email: None,
            created_ms: 1_700_000_000_000,
        })
        .await
        .unwrap()
        .expect("a free name")
}
