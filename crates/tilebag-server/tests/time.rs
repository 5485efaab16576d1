//! Time acts on the server, with or without anybody connected.

mod common;

use common::*;
use serde_json::json;
use std::time::Duration;
use tilebag_server::client::http;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flag_falls_past_the_overtime_limit_with_nobody_connected() {
    let dir = temp_dir("flag");
    let mut cfg = config(dir.join("t.db").to_str().unwrap(), &[]);
    // 1000 game ms per real ms: 3 s on the clock plus 10 minutes of overtime pass in 0.6 s.
    cfg.time_scale = 1000.0;
    let server = tilebag_server::start(cfg).await.unwrap();
    let addr = server.addr();
    let created = create(
        addr,
        json!({"preset": "naspa-2013", "players": ["Slow", "Fast"], "initial_minutes": 0.05}),
    )
    .await;
    let id = created["id"].as_str().unwrap();
    // The clock starts when both players are here (see tests/start.rs); then they both leave.
    let t = Table::open(addr, &created, false).await;
    assert_eq!(t.view(0)["started"], true);
    assert_eq!(t.view(0)["clocks"]["running"], 0);
    drop(t);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let doc = http(addr, "GET", &format!("/api/games/{id}"), None)
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(doc["status"], "ended", "{doc}");
    // NASPA V.G.3: past 10 minutes of overtime the game ends; the offender loses 100.
    assert_eq!(
        doc["phase"],
        json!({"type": "ended", "reason": {"type": "overtime-limit", "seat": 0}})
    );
    assert_eq!(doc["result"]["scores"], json!([-100, 0]));
    assert_eq!(doc["result"]["winner"], 1);
    assert_eq!(doc["clocks"]["remaining_ms"][0], -(10 * 60_000) - 1000);
    // The clock's event was stored: the list (read from the database) says so too.
    let list = http(addr, "GET", "/api/games", None)
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(list["games"][0]["status"], "ended");
    server.shutdown().await;

    // And a new server finds it ended, from the database alone.
    let mut cfg = config(dir.join("t.db").to_str().unwrap(), &[]);
    cfg.time_scale = 1000.0;
    let server = tilebag_server::start(cfg).await.unwrap();
    let doc = http(server.addr(), "GET", &format!("/api/games/{id}"), None)
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(doc["result"]["scores"], json!([-100, 0]));
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_unanswered_out_play_ends_the_game_when_its_window_closes() {
    let dir = temp_dir("outplay");
    let mut cfg = config(dir.join("t.db").to_str().unwrap(), &[]);
    cfg.time_scale = 20.0;
    let server = tilebag_server::start(cfg).await.unwrap();
    let addr = server.addr();
    let created = create(
        addr,
        json!({"preset": "naspa-2013", "players": ["A", "B"], "seed": 5}),
    )
    .await;
    let mut t = Table::open(addr, &created, true).await;
    // Play until someone goes out, without accepting the out play.
    let mut rng = tilebag_core::bag::Rng::new(8);
    loop {
        let s = t.view(0)["to_move"].as_u64().unwrap() as usize;
        let v = t.view(s).clone();
        if v["phase"]["type"] == "play-pending" && v["phase"]["out"] == true {
            break;
        }
        let a = tilebag_server::bench::choose_action(&v, &mut rng, 7).unwrap();
        t.ok(s, a).await;
    }
    assert_eq!(
        t.view(0)["clocks"]["running"],
        json!(null),
        "the clock stops (NASPA V.E)"
    );
    // NASPA V.E: 20 seconds (1 s here) with no hold or challenge and the game is over.
    let end = t.seats[0]
        .ws
        .recv_until(WAIT, "the end", |m| {
            m["type"] == "state" && m["view"]["phase"]["type"] == "ended"
        })
        .await
        .unwrap();
    assert_eq!(end["view"]["phase"]["reason"]["type"], "went-out");
    assert_eq!(end["effects"][0]["type"], "play-final");
    t.seats[0].view = Some(end["view"].clone());
    verify_gcg(&t.gcg().await, final_scores(&end["view"]));
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}
