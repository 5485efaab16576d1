//! Durability: a server stopped as a crash would, then restarted on the same database, brings
//! every game back exactly, with the clocks where they were (the downtime is not charged).

mod common;

use common::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_restart_mid_game_loses_nothing_and_neutralises_downtime() {
    let dir = temp_dir("restart");
    let db = dir.join("t.db");
    restart_scenario(db.to_str().unwrap()).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The same against a real PostgreSQL, in a schema of its own, when `TILEBAG_TEST_POSTGRES`
/// holds a connection URL (e.g. `postgres://tilebag:tilebag@127.0.0.1/tilebag`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_restart_mid_game_loses_nothing_and_neutralises_downtime() {
    let Ok(url) = std::env::var("TILEBAG_TEST_POSTGRES") else {
        println!("skipping: TILEBAG_TEST_POSTGRES not set");
        return;
    };
    let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .expect("connect to TILEBAG_TEST_POSTGRES");
    tokio::spawn(conn);
    let schema = format!("tilebag_test_{}", random_tag());
    client
        .batch_execute(&format!("CREATE SCHEMA {schema}"))
        .await
        .unwrap();
    let sep = if url.contains('?') { '&' } else { '?' };
    let scoped = format!("{url}{sep}options=-c%20search_path%3D{schema}");
    restart_scenario(&scoped).await;
    client
        .batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
        .await
        .unwrap();
}
