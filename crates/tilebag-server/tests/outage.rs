//! A PostgreSQL deployment survives its database going away and coming back, without a restart
//! of tilebag: the server's connections are killed (`pg_terminate_backend`) and replaced, then
//! the database becomes unreachable (the server reaches it through a TCP proxy inside the test,
//! which the test cuts and restores), and during the outage every move, new game and director
//! action is refused as `unavailable` (503), the clocks stand still (WESPA 4.1(f)), and
//! `/api/health` says "not ok"; once it is back the game goes on and is finished, its GCG
//! verifies and every acknowledged move is in the database exactly once.
//!
//! Needs `TILEBAG_TEST_POSTGRES` (as `.ci/run` sets it); skips otherwise.

mod common;
mod pg_proxy;

use common::*;
use pg_proxy::{through, Mode, Proxy};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tilebag_core::bag::Rng;
use tilebag_server::bench::choose_action;
use tilebag_server::client::{http, post_json};

async fn health(addr: SocketAddr) -> (u16, Value) {
    let r = http(addr, "GET", "/api/health", None).await.unwrap();
    (r.status, r.json().unwrap())
}

/// A fresh `state` for `seat` (the view as of now).
async fn fresh_view(t: &mut Table, seat: usize) -> Value {
    t.seats[seat]
        .ws
        .send_json(&json!({"type": "state"}))
        .await
        .unwrap();
    loop {
        let m = t.seats[seat].next().await;
        if m["type"] == "state" {
            return m["view"].clone();
        }
    }
}

/// The mover's action, chosen from its view.
fn next_action(t: &Table, rng: &mut Rng) -> (usize, Value) {
    for s in 0..2 {
        if let Some(a) = choose_action(t.view(s), rng, 3) {
            return (s, a);
        }
    }
    panic!("nobody can act: {}", t.view(0));
}

/// The events stored for a game, as (seq, event JSON), in order.
async fn stored_events(client: &tokio_postgres::Client, schema: &str, id: &str) -> Vec<i64> {
    client
        .query(
            &format!("SELECT seq FROM {schema}.events WHERE game_id = $1 ORDER BY seq"),
            &[&id],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get(0))
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_outage_refuses_then_recovers_without_a_restart() {
    let Ok(url) = std::env::var("TILEBAG_TEST_POSTGRES") else {
        println!("skipping: TILEBAG_TEST_POSTGRES not set (.ci/run sets it)");
        return;
    };
    let (admin, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .expect("connect to TILEBAG_TEST_POSTGRES");
    tokio::spawn(conn);
    let tag = random_tag();
    let schema = format!("tilebag_test_{tag}");
    let app = format!("tilebag-outage-{tag}");
    admin
        .batch_execute(&format!("CREATE SCHEMA {schema}"))
        .await
        .unwrap();
    // The proxy's target: the real database.
    let (target, _) = through(&url, "127.0.0.1:1".parse().unwrap(), &schema, &app);
    let proxy = Proxy::start(target).await;
    let (_, scoped) = through(&url, proxy.addr, &schema, &app);

    let mut cfg = config(&scoped, &[]);
    cfg.checkpoint_every = Duration::from_millis(100);
    let server = tilebag_server::start(cfg).await.unwrap();
    let addr = server.addr();
    let (status, h) = health(addr).await;
    assert_eq!(status, 200, "{h}");
    assert_eq!(h["database"], json!({"kind": "postgres", "ok": true}));

    let created = create(
        addr,
        json!({"preset": "naspa-2013", "players": ["Ivy", "Jon"], "initial_minutes": 10, "seed": 91}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut t = Table::open(addr, &created, true).await;
    let mut rng = Rng::new(5);
    let mut acked = Vec::new();
    for _ in 0..6 {
        let (s, a) = next_action(&t, &mut rng);
        acked.push(t.ok(s, a).await["seq"].as_u64().unwrap());
    }

    // 1. A write commits but its answer is lost, then the database goes away: the move is
    // refused (its fate unknown), and once the database is back it stands, exactly once.
    let (s, mut a) = next_action(&t, &mut rng);
    let seq_before = t.view(0)["seq"].as_u64().unwrap();
    let before = fresh_view(&mut t, s).await;
    let left_before = running_left(&before);
    proxy.set(Mode::Swallow);
    a["id"] = json!("lost");
    t.seats[s].ws.send_json(&a).await.unwrap();
    // Let the statement reach PostgreSQL and commit, then cut.
    let mut committed = false;
    for _ in 0..100 {
        if stored_events(&admin, &schema, &id).await.len() as u64 > seq_before {
            committed = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(committed, "the move's event reached the database");
    let cut_at = Instant::now();
    proxy.set(Mode::Down);
    let reply = loop {
        let m = t.seats[s].next().await;
        if m["id"] == "lost" {
            break m;
        }
    };
    assert_eq!(reply["type"], "error", "{reply}");
    assert_eq!(reply["code"], "unavailable", "{reply}");
    let msg = reply["message"].as_str().unwrap();
    assert!(msg.contains("database went down"), "{msg}");

    // 2. While it is down: refusals, no clock runs, health says why.
    let v = fresh_view(&mut t, 0).await;
    assert_eq!(v["database_down"], true, "{v}");
    assert_eq!(v["clocks"]["running"], Value::Null, "{v}");
    assert_eq!(
        v["seq"].as_u64().unwrap(),
        seq_before,
        "nothing new is shown"
    );
    let held = v["clocks"]["remaining_ms"].clone();
    // Watchers get the latest view a moment after the players (at most a quarter of a second).
    let observer = t.observer.as_mut().unwrap();
    let told = tokio::time::timeout(Duration::from_secs(2), async {
        while observer.view()["database_down"] != true {
            observer.next().await;
        }
    })
    .await;
    assert!(told.is_ok(), "observers are told: {}", observer.view());

    let r = post_json(addr, "/api/games", &json!({"players": ["Kim", "Lee"]}))
        .await
        .unwrap();
    assert_eq!(r.status, 503, "{}", r.text());
    let body: Value = r.json().unwrap();
    assert_eq!(body["code"], "unavailable", "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("database is down"),
        "{body}"
    );
    let (status, h) = health(addr).await;
    assert_eq!(status, 503, "{h}");
    assert_eq!(h["ok"], false, "{h}");
    assert_eq!(h["database"]["ok"], false, "{h}");
    assert!(
        h["database"]["error"]
            .as_str()
            .unwrap()
            .contains("database"),
        "{h}"
    );
    let live = http(addr, "GET", "/api/live", None).await.unwrap();
    assert_eq!(live.status, 200, "the process itself is fine");

    // Every seat action is refused, the same way.
    let mover = t.view(0)["to_move"].as_u64().unwrap() as usize;
    let r = t.act(mover, json!({"type": "pass"})).await;
    assert_eq!(r["code"], "unavailable", "{r}");
    assert!(r["message"].as_str().unwrap().contains("database"), "{r}");

    // Two seconds of outage charge nobody.
    tokio::time::sleep(Duration::from_millis(2000)).await;
    let v = fresh_view(&mut t, 0).await;
    assert_eq!(
        v["clocks"]["remaining_ms"], held,
        "no clock ran during the outage"
    );
    let outage = cut_at.elapsed();

    // 3. The database is back: the server notices by itself (its probe, not a request), and
    // tells everyone connected. The lost move was stored: it stands, and everyone is shown it.
    let back = Instant::now();
    proxy.set(Mode::Up);
    let observer = t.observer.as_mut().unwrap();
    while observer.view()["database_down"] != false {
        observer.next().await;
    }
    let noticed = back.elapsed();
    t.wait_all(seq_before + 1).await;
    let settled = back.elapsed();
    let (status, h) = health(addr).await;
    assert_eq!(status, 200, "{h}");
    assert_eq!(h["database"], json!({"kind": "postgres", "ok": true}));
    acked.push(seq_before + 1);
    let v = fresh_view(&mut t, 0).await;
    assert_eq!(v["database_down"], false, "{v}");
    assert_eq!(v["seq"].as_u64().unwrap(), seq_before + 1, "{v}");
    assert!(v["clocks"]["running"].is_u64(), "the clock runs again: {v}");
    // WESPA 4.1(f): the outage was not charged. The player who moved used the time until the
    // move (a few ms); at most the last checkpoint's interval is given back or taken.
    let mover_left = v["clocks"]["remaining_ms"][s].as_i64().unwrap();
    let charged = left_before - mover_left;
    let other = 1 - s;
    let other_charged = before["clocks"]["remaining_ms"][other].as_i64().unwrap()
        - v["clocks"]["remaining_ms"][other].as_i64().unwrap();
    assert!(
        (-300..1000).contains(&other_charged),
        "seat {other}, whose clock ran when the outage began, was charged {other_charged} ms"
    );
    eprintln!(
        "seat {s}'s clock was charged {charged} ms across a {:.1} s outage",
        cut_at.elapsed().as_secs_f64()
    );
    assert!(
        (-300..1000).contains(&charged),
        "seat {s} was charged {charged} ms for an outage of more than 5 s"
    );
    let (s, a) = next_action(&t, &mut rng);
    acked.push(t.ok(s, a).await["seq"].as_u64().unwrap());
    let first_move = back.elapsed();
    eprintln!(
        "outage of {:.1} s: the server found the database back after {} ms (views say so), the \
         unsettled move shown after {} ms, the first new move acknowledged after {} ms",
        outage.as_secs_f64(),
        noticed.as_millis(),
        settled.as_millis(),
        first_move.as_millis()
    );
    // The proxy cut every connection: recovery is by the pool alone, within a few seconds.
    assert!(first_move < Duration::from_secs(10), "{first_move:?}");

    // 4. The server's connections are killed: the next move is made on a fresh one.
    let killed: i64 = admin
        .query_one(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity \
             WHERE application_name = $1",
            &[&app],
        )
        .await
        .unwrap()
        .get(0);
    assert!(killed >= 1, "the server holds connections to terminate");
    let (s, a) = next_action(&t, &mut rng);
    acked.push(t.ok(s, a).await["seq"].as_u64().unwrap());
    let (status, h) = health(addr).await;
    assert_eq!(status, 200, "after pg_terminate_backend: {h}");

    // A new game can be created again, and this one is played to the end.
    create(addr, json!({"players": ["Kim", "Lee"]})).await;
    t.autoplay(23, 4, Duration::ZERO, 400).await;
    let end = t.view(0).clone();
    verify_gcg(&t.gcg().await, final_scores(&end));

    // Every acknowledged move is stored, once; the log has no gap.
    let seqs = stored_events(&admin, &schema, &id).await;
    let n = end["seq"].as_u64().unwrap();
    assert_eq!(seqs, (0..n as i64).collect::<Vec<_>>(), "the log is 0..{n}");
    for s in &acked {
        assert!(*s <= n, "acknowledged event {s} is stored");
    }
    server.shutdown().await;
    admin
        .batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
        .await
        .unwrap();
}
