//! Several `tilebag serve` processes as one service (issue 31): three processes on one
//! PostgreSQL database and one NATS server, clients spread over them. Skipped, saying so, where
//! `nats-server` is not installed or `TILEBAG_TEST_POSTGRES` is not set (CI has both).

mod cluster_support;
mod common;

use cluster_support::{get, health, owner_of, until_run_by, Shared};
use common::{create, final_scores, verify_gcg, Conn, Table};
use serde_json::json;
use std::time::Duration;

const WORDS: &[&str] = &["CAT", "CATS", "AT", "TA"];

/// Two players on two processes and a watcher on a third play a whole game: every move
/// reaches everyone, the game's record read from the third process verifies, and the operator's
/// view shows the three processes and which one runs the game.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn players_and_a_watcher_on_three_processes_share_one_game() {
    let Some(shared) = Shared::start("three_processes").await else {
        return;
    };
    let alpha = shared.serve("alpha", WORDS).await;
    let beta = shared.serve("beta", WORDS).await;
    let gamma = shared.serve("gamma", WORDS).await;

    // Ann creates the game on alpha and plays there; Bob plays on beta; Cy watches on gamma.
    let created = create(alpha.addr(), json!({"players": ["Ann", "Bob"], "seed": 31})).await;
    let id = created["id"].as_str().unwrap();
    let ann = Conn::open(alpha.addr(), created["seats"][0]["ws"].as_str().unwrap()).await;
    // Bob takes only new score-sheet lines, as the game page does: they come over NATS.
    let bob_ws = format!(
        "{}&history=new",
        created["seats"][1]["ws"].as_str().unwrap()
    );
    let bob = Conn::open(beta.addr(), &bob_ws).await;
    let cy = Conn::open(gamma.addr(), created["observer_ws"].as_str().unwrap()).await;
    let mut table = Table::of(gamma.addr(), id, vec![ann, bob], Some(cy));
    table.seats[1].wait_started().await;
    table.seats[0].wait_started().await;
    assert_eq!(owner_of(beta.addr(), id).await.as_deref(), Some("alpha"));

    // Half-way, the list of games on gamma shows the live scores of the game alpha runs.
    table.autoplay_some(31, 3, 6).await;
    let scores_now = table.view(0)["players"]
        .as_array()
        .map(|p| [p[0]["score"].clone(), p[1]["score"].clone()]);
    let mut listed = serde_json::Value::Null;
    for _ in 0..50 {
        let (_, list) = get(gamma.addr(), "/api/games").await;
        let list: serde_json::Value = serde_json::from_str(&list).unwrap();
        listed = list
            .as_array()
            .or_else(|| list["games"].as_array())
            .and_then(|g| g.iter().find(|g| g["id"] == id).cloned())
            .unwrap_or_default();
        if listed["scores"].is_array()
            && scores_now
                .as_ref()
                .is_some_and(|s| listed["scores"] == json!(s))
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert_eq!(listed["started"], true, "{listed}");
    assert_eq!(
        Some(listed["scores"].clone()),
        scores_now.map(|s| json!(s)),
        "{listed}"
    );

    table.autoplay(31, 3, Duration::ZERO, 3000).await;
    let scores = final_scores(table.view(0));
    assert_eq!(final_scores(table.view(1)), scores);
    let watched = table.observer.as_ref().unwrap().view();
    assert_eq!(watched["phase"]["type"], "ended", "{watched}");
    assert_eq!(final_scores(watched), scores);
    // The record as any process serves it: the same game, every move once.
    for addr in [alpha.addr(), beta.addr(), gamma.addr()] {
        let (status, gcg) = get(addr, &format!("/api/games/{id}/gcg")).await;
        assert_eq!(status, 200, "{gcg}");
        verify_gcg(&gcg, scores);
    }
    let view = health(gamma.addr()).await;
    assert_eq!(view["mode"], "several processes");
    assert_eq!(view["this_process"], "gamma");
    let mut names: Vec<&str> = view["processes"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["alive"] == true)
        .map(|p| p["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["alpha", "beta", "gamma"]);
    assert_eq!(view["ok"], true, "{view}");
    assert_eq!(view["nats_state"]["state"], "up");
    assert_eq!(view["database_state"]["state"], "up");

    for s in [alpha, beta, gamma] {
        s.shutdown().await;
    }
    shared.drop().await;
}

/// The process running a game stops in the middle of it: another takes the game over within
/// seconds, the players reconnect to the processes left and play on to the end, and the record
/// holds every acknowledged move exactly once.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_game_goes_on_when_the_process_running_it_stops() {
    let Some(shared) = Shared::start("takeover").await else {
        return;
    };
    let alpha = shared.serve("alpha", WORDS).await;
    let beta = shared.serve("beta", WORDS).await;
    let created = create(alpha.addr(), json!({"players": ["Ann", "Bob"], "seed": 32})).await;
    let id = created["id"].as_str().unwrap().to_string();
    let path = |s: usize| created["seats"][s]["ws"].as_str().unwrap().to_string();
    let ann = Conn::open(alpha.addr(), &path(0)).await;
    let bob = Conn::open(beta.addr(), &path(1)).await;
    let mut table = Table::of(beta.addr(), &id, vec![ann, bob], None);
    table.seats[0].wait_started().await;
    // A few moves, then alpha, which runs the game, stops.
    let mut played = 0;
    while played < 6 {
        let seat = table.view(0)["to_move"].as_u64().unwrap() as usize;
        table.ok(seat, json!({"type": "pass"})).await;
        played += 1;
    }
    let before = table.view(1)["seq"].as_u64().unwrap();
    let clocks_before = table.view(1)["clocks"].clone();
    alpha.shutdown().await;

    // Beta takes the game (within a second or two), and both players reconnect to it.
    assert!(
        until_run_by(beta.addr(), &id, "beta").await,
        "beta did not take the game over"
    );
    let ann = Conn::open(beta.addr(), &path(0)).await;
    let bob = Conn::open(beta.addr(), &path(1)).await;
    let mut table = Table::of(beta.addr(), &id, vec![ann, bob], None);
    let now = table.view(0).clone();
    assert_eq!(
        now["seq"].as_u64().unwrap(),
        before,
        "every acknowledged move, once"
    );
    // Nobody was charged for the time the game had no process (WESPA 4.1(f)): the clocks
    // stand within a second of where they were.
    for seat in 0..2 {
        let was = clocks_before["remaining_ms"][seat].as_i64().unwrap();
        let is = now["clocks"]["remaining_ms"][seat].as_i64().unwrap();
        assert!(
            was - is < 1_500,
            "seat {seat}: {was} ms before, {is} ms after the takeover"
        );
    }
    table.autoplay(32, 3, Duration::ZERO, 3000).await;
    let scores = final_scores(table.view(0));
    let (status, gcg) = get(beta.addr(), &format!("/api/games/{id}/gcg")).await;
    assert_eq!(status, 200);
    verify_gcg(&gcg, scores);
    assert_eq!(health(beta.addr()).await["takeovers"], 1);
    beta.shutdown().await;
    shared.drop().await;
}
