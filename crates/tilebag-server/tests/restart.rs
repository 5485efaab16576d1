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

/// One damaged unfinished game (an unreadable event, a lexicon no longer loaded, an unreadable
/// ruleset) does not stop the server starting: those games are kept out of play with their
/// reasons, listed for the operator and the director, and every other game runs. Nothing is
/// deleted.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_with_damaged_games_starts_serves_the_others_and_reports_them() {
    use serde_json::json;
    use tilebag_server::client::{http, request};
    let dir = temp_dir("damaged");
    let db = dir.join("t.db");
    let cfg = config(db.to_str().unwrap(), &[]);
    let server = tilebag_server::start(cfg.clone()).await.unwrap();
    let addr = server.addr();
    let mut games = Vec::new();
    for (i, names) in [["Ann", "Bob"], ["Cy", "Di"], ["Ed", "Flo"], ["Gil", "Hal"]]
        .iter()
        .enumerate()
    {
        let g = create(addr, json!({"players": names, "seed": 10 + i})).await;
        let mut t = Table::open(addr, &g, false).await;
        t.ok(0, json!({"type": "pass"})).await;
        games.push(g);
    }
    server.shutdown().await;
    let id = |i: usize| games[i]["id"].as_str().unwrap().to_string();
    {
        let c = rusqlite::Connection::open(&db).unwrap();
        c.execute(
            "UPDATE events SET event_json = '{\"oops\":' WHERE game_id = ?1",
            [id(0)],
        )
        .unwrap();
        c.execute("UPDATE games SET lexicon = 'gone' WHERE id = ?1", [id(1)])
            .unwrap();
        c.execute(
            "UPDATE games SET ruleset_json = 'not json' WHERE id = ?1",
            [id(3)],
        )
        .unwrap();
    }

    let server = tilebag_server::start(cfg).await.expect("the server starts");
    let addr = server.addr();
    let damaged = server.damaged_games();
    let reason = |i: usize| {
        damaged
            .iter()
            .find(|d| d.id == id(i))
            .unwrap_or_else(|| panic!("game {i} is listed: {damaged:?}"))
            .reason
            .clone()
    };
    assert_eq!(damaged.len(), 3, "{damaged:?}");
    assert!(reason(0).contains("event 0"), "{}", reason(0));
    assert!(reason(1).contains("\"gone\""), "{}", reason(1));
    assert!(reason(3).contains("ruleset"), "{}", reason(3));

    // The sound game plays on.
    let mut t = Table::open(addr, &games[2], false).await;
    assert_eq!(t.view(1)["seq"], 1);
    t.ok(1, json!({"type": "pass"})).await;
    // The damaged ones say so, without their insides.
    let r = http(addr, "GET", &format!("/api/games/{}", id(1)), None)
        .await
        .unwrap();
    assert_eq!(r.status, 503, "{}", r.text());
    let e = r.json().unwrap();
    assert_eq!(e["code"], "damaged");
    assert!(!e["message"].as_str().unwrap().contains("gone"), "{e}");
    let list = http(addr, "GET", "/api/games", None).await.unwrap();
    assert_eq!(list.status, 200, "{}", list.text());
    // The director's home page lists them with their reasons.
    let cookie = sign_in_as_director(addr).await;
    let page = request(addr, "GET", "/td", &[("Cookie", &cookie)], None)
        .await
        .unwrap()
        .text();
    assert!(page.contains("Games kept out of play"), "{page}");
    for i in [0, 1, 3] {
        assert!(page.contains(&id(i)), "{page}");
    }
    assert!(
        page.contains("&quot;gone&quot;") || page.contains("\"gone\""),
        "{page}"
    );
    server.shutdown().await;
    // Nothing was deleted.
    let c = rusqlite::Connection::open(&db).unwrap();
    let games_left: i64 = c
        .query_row("SELECT COUNT(*) FROM games", [], |r| r.get(0))
        .unwrap();
    assert_eq!(games_left, 4);
    let events_of_0: i64 = c
        .query_row(
            "SELECT COUNT(*) FROM events WHERE game_id = ?1",
            [id(0)],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(events_of_0, 1);
    let _ = std::fs::remove_dir_all(dir);
}
