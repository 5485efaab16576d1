//! `tilebag serve` killed with SIGKILL mid-game and restarted: every acknowledged action is back,
//! the clocks resume where they were (the downtime is not charged, WESPA 4.1(f)), and the game
//! can be finished; its GCG verifies.

mod support;

use serde_json::{json, Value};
use std::time::Duration;
use support::serve::Server;
use tilebag_server::client::{http, post_json, WsClient};

async fn state(ws: &mut WsClient) -> Value {
    ws.recv_until(Duration::from_secs(10), "a state message", |m| {
        m["type"] == "state"
    })
    .await
    .unwrap()["view"]
        .clone()
}

/// The newest view: read until the connection has been quiet for a moment.
async fn latest_state(ws: &mut WsClient) -> Value {
    let mut last = None;
    while let Ok(Some(m)) = ws.recv_timeout(Duration::from_millis(400)).await {
        if m["type"] == "state" {
            last = Some(m["view"].clone());
        }
    }
    last.expect("a state message")
}

async fn act(ws: &mut WsClient, msg: Value) -> Value {
    ws.send_json(&msg).await.unwrap();
    let reply = ws
        .recv_until(Duration::from_secs(10), "ack or error", |m| {
            m["type"] == "ack" || m["type"] == "error"
        })
        .await
        .unwrap();
    assert_eq!(reply["type"], "ack", "{msg} → {reply}");
    reply
}

fn rack(view: &Value) -> String {
    view["rack"].as_str().unwrap().to_string()
}

fn table(view: &Value) -> &Value {
    if view.get("table").is_some() {
        &view["table"]
    } else {
        view
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_survives_kill_9_mid_game_and_finishes_it() {
    let dir = support::temp_dir("tilebag", "kill9");
    let mut server = Server::start(&dir, &["--allow-seeds"]);
    let created = post_json(
        server.addr,
        "/api/games",
        &json!({"players": ["Ann", "Bob"], "seed": 77, "preset": "naspa-2013"}),
    )
    .await
    .unwrap()
    .json()
    .unwrap();
    let id = created["id"].as_str().unwrap().to_string();
    let ws_path = |seat: usize| created["seats"][seat]["ws"].as_str().unwrap().to_string();
    let mut a = WsClient::connect(server.addr, &ws_path(0)).await.unwrap();
    let mut b = WsClient::connect(server.addr, &ws_path(1)).await.unwrap();
    // No rack is shown before both seats are there (NASPA III.F): Ann's rack comes with the
    // state sent when Bob's arrival starts the game.
    state(&mut a).await;
    state(&mut b).await;
    let mut va = state(&mut a).await;
    while rack(&va).is_empty() {
        va = state(&mut a).await;
    }
    // Ann opens with two tiles through the centre (a phony is a legal play; nobody challenges).
    let r: Vec<char> = rack(&va).chars().collect();
    let letter = |c: char| if c == '?' { 'e' } else { c };
    let word: String = [letter(r[0]), letter(r[1])].iter().collect();
    act(
        &mut a,
        json!({"type": "play", "position": "8H", "word": word}),
    )
    .await;
    act(&mut b, json!({"type": "accept"})).await;
    // Bob exchanges one tile; the ack means it is committed. Then the server is killed at once.
    let vb = latest_state(&mut b).await;
    let first: String = rack(&vb).chars().take(1).collect();
    act(&mut b, json!({"type": "exchange", "tiles": first})).await;
    let before_a = latest_state(&mut a).await;
    let before_b = latest_state(&mut b).await;
    server.child.kill().unwrap(); // SIGKILL
    server.child.wait().unwrap();
    drop((a, b, server));
    // Down for three seconds: none of it may be charged to Ann, whose clock was running.
    tokio::time::sleep(Duration::from_secs(3)).await;
    let server = Server::start(&dir, &["--allow-seeds"]);
    let mut a = WsClient::connect(server.addr, &ws_path(0)).await.unwrap();
    let mut b = WsClient::connect(server.addr, &ws_path(1)).await.unwrap();
    let after_a = state(&mut a).await;
    let after_b = state(&mut b).await;
    assert_eq!(rack(&after_a), rack(&before_a));
    assert_eq!(rack(&after_b), rack(&before_b));
    for key in [
        "board",
        "bag_count",
        "to_move",
        "players",
        "phase",
        "zero_run",
    ] {
        assert_eq!(table(&after_a)[key], table(&before_a)[key], "{key}");
    }
    assert_eq!(after_b["history"], before_b["history"]);
    let clock = |v: &Value| table(v)["clocks"]["remaining_ms"][0].as_i64().unwrap();
    let lost = clock(&before_a) - clock(&after_a);
    assert!(
        (-100..2_600).contains(&lost),
        "Ann's clock moved by {lost} ms across a 3 s outage"
    );
    // Finish the game: Ann resigns.
    act(&mut a, json!({"type": "resign"})).await;
    let end = latest_state(&mut a).await;
    assert!(!table(&end)["result"].is_null(), "{end}");
    let gcg = http(server.addr, "GET", &format!("/api/games/{id}/gcg"), None)
        .await
        .unwrap();
    assert_eq!(gcg.status, 200);
    let record = tilebag_core::gcg::parse_gcg(&gcg.body).unwrap();
    let report = tilebag_core::replay::verify_record(&record).unwrap();
    assert_eq!(record.events.len(), 2, "{}", gcg.text());
    assert!(report.warnings.is_empty());
    assert_eq!(
        record.lexicon.as_deref(),
        Some("enable1"),
        "the record names the lexicon used"
    );
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
