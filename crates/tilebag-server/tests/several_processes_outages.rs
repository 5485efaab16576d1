//! Several processes ride out their shared parts going away (issue 31): NATS stopped for 20 s,
//! then PostgreSQL out of reach for 20 s, in the middle of a game whose players are on two
//! processes. While either is down every move is refused as `unavailable` and `/api/health`
//! answers `503` saying which; within seconds of its return the game plays again, and at the end
//! its record holds every acknowledged move once. Skipped, saying so, without `nats-server` or
//! `TILEBAG_TEST_POSTGRES`.

mod cluster_support;
mod common;
mod pg_proxy;

use cluster_support::{get, Shared};
use common::{create, final_scores, verify_gcg, Conn, Table};
use pg_proxy::{through, Mode, Proxy};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tilebag_server::client::{http, WsClient};

const WORDS: &[&str] = &["CAT", "CATS", "AT", "TA"];
const OUTAGE: Duration = Duration::from_secs(20);

async fn readiness(addr: SocketAddr) -> (u16, Value) {
    let r = http(addr, "GET", "/api/health", None).await.unwrap();
    (r.status, r.json().unwrap_or_default())
}

/// Waits until `addr`'s readiness answers `status`; what it said.
async fn until_health(addr: SocketAddr, status: u16) -> Value {
    let began = Instant::now();
    loop {
        let (s, body) = readiness(addr).await;
        if s == status {
            return body;
        }
        assert!(
            began.elapsed() < Duration::from_secs(30),
            "health stayed {s}: {body}"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// Opens a seat's page again, as its script does, until the server lets it in.
async fn reconnect(addr: SocketAddr, path: &str) -> Conn {
    let began = Instant::now();
    loop {
        if let Ok(mut ws) = WsClient::connect(addr, path).await {
            if let Ok(Ok(Some(m))) = tokio::time::timeout(Duration::from_secs(5), ws.recv()).await {
                if m["type"] == "state" {
                    return Conn {
                        ws,
                        view: Some(m["view"].clone()),
                    };
                }
            }
        }
        assert!(
            began.elapsed() < Duration::from_secs(30),
            "{path} never let back in"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// Seat `seat` passes until it is acknowledged (refusals while the service recovers are
/// retried, as a player would); how long it took.
async fn pass_until_acknowledged(t: &mut Table, seat: usize) -> Duration {
    let began = Instant::now();
    loop {
        let r = t.act(seat, json!({"type": "pass"})).await;
        if r["type"] == "ack" {
            return began.elapsed();
        }
        assert_eq!(r["code"], "unavailable", "{r}");
        assert!(
            began.elapsed() < Duration::from_secs(30),
            "never acknowledged: {r}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// A game made on `ann_on`, which runs it, with Ann's seat open there and Bob's on `bob_on`
/// (each of Bob's moves crosses NATS), started: its table and what its creation answered.
async fn game_across(ann_on: SocketAddr, bob_on: SocketAddr, seed: u64) -> (Table, Value) {
    let created = create(ann_on, json!({"players": ["Ann", "Bob"], "seed": seed})).await;
    let id = created["id"].as_str().unwrap().to_string();
    let path = |s: usize| created["seats"][s]["ws"].as_str().unwrap().to_string();
    let ann = Conn::open(ann_on, &path(0)).await;
    let bob = Conn::open(bob_on, &path(1)).await;
    let mut t = Table::of(ann_on, &id, vec![ann, bob], None);
    t.seats[0].wait_started().await;
    (t, created)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_processes_ride_out_nats_then_postgres_going_away() {
    let Some(mut shared) = Shared::start("outages").await else {
        return;
    };
    let url = std::env::var("TILEBAG_TEST_POSTGRES").unwrap();
    let (target, _) = through(&url, "127.0.0.1:9".parse().unwrap(), &shared.schema, "x");
    let proxy = Proxy::start(target).await;
    let (_, via) = through(&url, proxy.addr, &shared.schema, "tilebag-outages");
    let serve = |name: &str| {
        let mut c = shared.config(name, WORDS);
        c.database = via.clone();
        tilebag_server::start(c)
    };
    let alpha = serve("alpha").await.unwrap();
    let beta = serve("beta").await.unwrap();
    let (mut t, created) = game_across(alpha.addr(), beta.addr(), 33).await;
    let id = created["id"].as_str().unwrap().to_string();
    let path = |s: usize| created["seats"][s]["ws"].as_str().unwrap().to_string();
    // Ann (on alpha, which runs the game) and Bob (on beta) pass in turn; Ann is to move.
    t.ok(0, json!({"type": "pass"})).await;
    t.ok(1, json!({"type": "pass"})).await;

    // NATS stops. Both processes say so, and Ann's move is refused: nothing is acknowledged
    // that the other processes could not hear of.
    shared.nats.stop();
    let said = until_health(alpha.addr(), 503).await;
    assert_eq!(said["nats"]["ok"], false, "{said}");
    assert_eq!(until_health(beta.addr(), 503).await["nats"]["ok"], false);
    let r = t.act(0, json!({"type": "pass"})).await;
    assert_eq!(r["code"], "unavailable", "{r}");
    let clocks_during = t.seats[0].view()["clocks"]["remaining_ms"].clone();
    tokio::time::sleep(OUTAGE).await;
    shared.nats.restart();
    let back = Instant::now();
    until_health(alpha.addr(), 200).await;
    until_health(beta.addr(), 200).await;
    // Bob's connection on beta was closed while NATS was away; his page reconnects.
    t.seats[1] = reconnect(beta.addr(), &path(1)).await;
    pass_until_acknowledged(&mut t, 0).await;
    println!(
        "NATS back: Ann's move acknowledged {:?} after its return",
        back.elapsed()
    );
    // The clocks stood still while NATS was away (WESPA 4.1(f)).
    let now = &t.seats[1].view()["clocks"]["remaining_ms"];
    let charged = clocks_during[0].as_i64().unwrap() - now[0].as_i64().unwrap();
    assert!(
        charged < 3_000,
        "Ann was charged {charged} ms for a 20 s outage"
    );

    // PostgreSQL goes out of reach.
    proxy.set(Mode::Down);
    let said = until_health(beta.addr(), 503).await;
    assert_eq!(said["database"]["ok"], false, "{said}");
    let r = t.act(1, json!({"type": "pass"})).await;
    assert!(
        r["type"] == "error" || t.seats[1].ws.closed.is_some(),
        "a move while the database is away must not be acknowledged: {r}"
    );
    tokio::time::sleep(OUTAGE).await;
    proxy.set(Mode::Up);
    let back = Instant::now();
    until_health(alpha.addr(), 200).await;
    until_health(beta.addr(), 200).await;
    // The leases ran out while the database was away, so both processes stopped running the
    // game; one takes it again, and the players' pages reconnect.
    t.seats[0] = reconnect(alpha.addr(), &path(0)).await;
    t.seats[1] = reconnect(beta.addr(), &path(1)).await;
    let to_move = t.view(0)["to_move"].as_u64().unwrap() as usize;
    pass_until_acknowledged(&mut t, to_move).await;
    println!(
        "PostgreSQL back: a move acknowledged {:?} after its return",
        back.elapsed()
    );

    // The game is played to its end; its record verifies.
    t.autoplay(33, 3, Duration::ZERO, 3000).await;
    let scores = final_scores(t.view(0));
    let (status, gcg) = get(beta.addr(), &format!("/api/games/{id}/gcg")).await;
    assert_eq!(status, 200, "{gcg}");
    verify_gcg(&gcg, scores);
    alpha.shutdown().await;
    beta.shutdown().await;
    shared.drop().await;
}

/// Processes and NATS may be started in any order: a process started while NATS is not up
/// yet starts, says so on `/api/health` (503) and refuses games as unavailable, and joins the
/// service once NATS answers; a game then plays across it and a process started later.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_process_started_before_nats_joins_the_service_once_nats_is_up() {
    let Some(mut shared) = Shared::start("started-before-nats").await else {
        return;
    };
    shared.nats.stop();
    let alpha = shared.serve("alpha", WORDS).await;
    let said = until_health(alpha.addr(), 503).await;
    assert_eq!(said["nats"]["ok"], false, "{said}");
    let r = http(
        alpha.addr(),
        "POST",
        "/api/games",
        Some(json!({"players": ["Ann", "Bob"]}).to_string().as_bytes()),
    )
    .await
    .unwrap();
    assert_eq!(
        r.status,
        503,
        "a game made while NATS is away: {}",
        r.text()
    );

    shared.nats.restart();
    let back = Instant::now();
    until_health(alpha.addr(), 200).await;
    println!("alpha ready {:?} after NATS started", back.elapsed());
    let beta = shared.serve("beta", WORDS).await;
    until_health(beta.addr(), 200).await;
    let (mut t, _) = game_across(alpha.addr(), beta.addr(), 7).await;
    t.ok(0, json!({"type": "pass"})).await;
    t.ok(1, json!({"type": "pass"})).await;
    assert_eq!(t.view(0)["to_move"], 0);
    alpha.shutdown().await;
    beta.shutdown().await;
    shared.drop().await;
}
