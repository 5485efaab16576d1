//! A game's clock waits for the players. Over the board the first player's clock is started only
//! once both players are at the board and the tiles are drawn (NASPA III.F, WESPA 2.2 and 2.3.3,
//! SANSPA 6.5); online the seat links may be opened minutes apart. So a game starts when both
//! seats have connected, or at the first action the server accepts, whichever comes first; until
//! then its game time stands at 0. The start survives a restart; so does the waiting.

mod browser_support;
mod common;

use common::*;
use serde_json::{json, Value};
use std::time::Duration;
use tilebag_server::client::http;

/// Ask for the view again and return it (the connection's `view` is updated too). Views that
/// arrived before are read first, so the one returned was built after the sleep before it.
async fn fresh(c: &mut Conn) -> Value {
    c.drain().await;
    c.ws.send_json(&json!({"type": "state"})).await.unwrap();
    loop {
        let m = c.next().await;
        if m["type"] == "state" {
            return m["view"].clone();
        }
    }
}

/// Read until a `state` whose view satisfies `ok` arrives; return that view.
async fn state_until(c: &mut Conn, what: &str, ok: impl Fn(&Value) -> bool) -> Value {
    let m =
        c.ws.recv_until(WAIT, what, |m| m["type"] == "state" && ok(&m["view"]))
            .await
            .unwrap();
    c.view = Some(m["view"].clone());
    m["view"].clone()
}

async fn get_game(addr: std::net::SocketAddr, id: &str) -> Value {
    let r = http(addr, "GET", &format!("/api/games/{id}"), None)
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    r.json().unwrap()
}

/// The view of a game that has not started: game time 0, both clocks full, none running.
fn assert_waiting(view: &Value, full_ms: i64) {
    assert_eq!(view["started"], false, "{view}");
    assert_eq!(view["at_ms"], 0, "{view}");
    assert_eq!(view["seq"], 0, "{view}");
    assert_eq!(
        view["clocks"]["remaining_ms"],
        json!([full_ms, full_ms]),
        "{view}"
    );
    assert_eq!(view["clocks"]["running"], Value::Null, "{view}");
    assert_eq!(view["phase"]["type"], "awaiting-move", "{view}");
    // NASPA III.F, WESPA 2.2: the first player's clock starts once a tile has been seen, so no
    // rack (and no unseen-tile list, which would give it away) is shown before the start.
    if view["audience"] == "seat" {
        assert_eq!(view["rack"], "", "no rack before the start: {view}");
        assert_eq!(view["unseen"], "", "{view}");
    }
}

fn seat_ws(created: &Value, seat: usize) -> &str {
    created["seats"][seat]["ws"].as_str().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn naspa_iii_f_wespa_2_2_one_seat_alone_sees_no_rack_and_no_clock_runs_until_the_second_seat_connects(
) {
    let dir = temp_dir("start-connect");
    let mut cfg = config(dir.join("t.db").to_str().unwrap(), &[]);
    // 1000 game ms per real ms: a running 3-second clock would pass the 10-minute overtime
    // limit (NASPA V.G.3) in about 0.6 s of real time.
    cfg.time_scale = 1000.0;
    let server = tilebag_server::start(cfg).await.unwrap();
    let addr = server.addr();
    let created = create(
        addr,
        json!({"preset": "naspa-2013", "players": ["Early", "Late"], "initial_minutes": 0.05}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut seat0 = Conn::open(addr, seat_ws(&created, 0)).await;
    assert_waiting(seat0.view(), 3000);
    let mut observer = Conn::open(addr, created["observer_ws"].as_str().unwrap()).await;
    assert_waiting(observer.view(), 3000);

    // 1.5 s of real time is 25 minutes of game time at this scale: had the clock run, seat 0
    // would have lost on time long ago.
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_waiting(&fresh(&mut seat0).await, 3000);
    // A second tab of the same seat is not the opponent.
    let mut again = Conn::open(addr, seat_ws(&created, 0)).await;
    assert_waiting(again.view(), 3000);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_waiting(&fresh(&mut again).await, 3000);
    let doc = get_game(addr, &id).await;
    assert_eq!(doc["status"], "live", "{doc}");
    assert_waiting(&doc, 3000);
    // Nothing was stored for the game: no tick, no event.
    let gcg = http(addr, "GET", &format!("/api/games/{id}/gcg"), None)
        .await
        .unwrap()
        .text();
    assert!(!gcg.contains("\n>"), "{gcg}");

    // The second player arrives: the game starts, and the newcomer's first view says so.
    let seat1 = Conn::open(addr, seat_ws(&created, 1)).await;
    let v1 = seat1.view().clone();
    assert_eq!(v1["started"], true, "{v1}");
    assert_eq!(v1["clocks"]["running"], 0, "{v1}");
    assert_eq!(v1["clocks"]["remaining_ms"][1], 3000, "{v1}");
    assert!(v1["clocks"]["remaining_ms"][0].as_i64().unwrap() <= 3000);
    assert_eq!(v1["rack"].as_str().unwrap().len(), 7, "{v1}");
    // Everyone already connected hears of the start; the seats see their racks from then on.
    for c in [&mut seat0, &mut again, &mut observer] {
        let v = state_until(c, "the start", |v| v["started"] == true).await;
        assert_eq!(v["seq"], 0);
        if v["audience"] == "seat" {
            assert_eq!(v["rack"].as_str().unwrap().len(), 7, "{v}");
        }
    }
    // And from now on time acts as ever: seat 0's flag falls with nobody moving.
    let end = state_until(&mut seat0, "the flag", |v| v["phase"]["type"] == "ended").await;
    assert_eq!(
        end["phase"],
        json!({"type": "ended", "reason": {"type": "overtime-limit", "seat": 0}})
    );
    assert_eq!(end["result"]["scores"], json!([-100, 0]));
    assert_eq!(
        end["clocks"]["remaining_ms"][1], 3000,
        "seat 1's clock never ran"
    );
    assert_eq!(end["started"], true);
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_accepted_action_starts_the_clock_at_zero() {
    let dir = temp_dir("start-action");
    let mut cfg = config(dir.join("t.db").to_str().unwrap(), &[]);
    // 100 game ms per real ms: half a second is 50 s of a 60 s clock.
    cfg.time_scale = 100.0;
    let server = tilebag_server::start(cfg).await.unwrap();
    let addr = server.addr();
    let created = create(
        addr,
        json!({"preset": "naspa-2013", "players": ["Here", "Away"], "initial_minutes": 1, "seed": 9}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    // Only seat 0 ever connects.
    let mut seat0 = Conn::open(addr, seat_ws(&created, 0)).await;
    assert_waiting(seat0.view(), 60_000);
    tokio::time::sleep(Duration::from_millis(500)).await;

    // A refused action changes nothing, the start included.
    seat0
        .ws
        .send_json(&json!({"type": "exchange", "id": "x", "tiles": "ZZZZZZZ"}))
        .await
        .unwrap();
    let err = seat0
        .ws
        .recv_until(WAIT, "the refusal", |m| m["id"] == "x")
        .await
        .unwrap();
    assert_eq!(err["type"], "error", "{err}");
    assert_eq!(err["code"], "tiles-not-on-rack", "{err}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_waiting(&fresh(&mut seat0).await, 60_000);

    // Seat 0 passes: the game starts, at game time 0, so seat 0's turn took no time.
    seat0
        .ws
        .send_json(&json!({"type": "pass", "id": "p"}))
        .await
        .unwrap();
    let ack = seat0
        .ws
        .recv_until(WAIT, "the ack", |m| m["id"] == "p")
        .await
        .unwrap();
    assert_eq!(ack["type"], "ack", "{ack}");
    assert_eq!(ack["seq"], 1);
    let v = seat0.wait_seq(1).await;
    assert_eq!(v["started"], true, "{v}");
    assert_eq!(v["history"][0]["type"], "pass", "{v}");
    assert_eq!(v["to_move"], 1);
    assert_eq!(v["clocks"]["running"], 1);
    assert_eq!(v["clocks"]["remaining_ms"][0], 60_000, "{v}");

    // Seat 1's clock now runs although seat 1 has never connected.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let v = fresh(&mut seat0).await;
    assert_eq!(v["started"], true);
    assert_eq!(v["clocks"]["remaining_ms"][0], 60_000, "{v}");
    let left1 = v["clocks"]["remaining_ms"][1].as_i64().unwrap();
    assert!(
        left1 <= 60_000 - 20_000,
        "0.3 s at ×100 is 30 s of seat 1's time; it shows {left1}"
    );
    let doc = get_game(addr, &id).await;
    assert_eq!(doc["started"], true);
    assert_eq!(doc["clocks"]["running"], 1);
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// A game that had not started is still waiting after a clean stop and after a crash; checkpoints
/// (taken every 50 ms here) do not start it. Once both seats come, it runs.
async fn restart_before_the_start(database: &str) {
    let mut cfg = config(database, &[]);
    cfg.time_scale = 100.0;
    cfg.checkpoint_every = Duration::from_millis(50);
    let server = tilebag_server::start(cfg.clone()).await.unwrap();
    let addr = server.addr();
    let created = create(
        addr,
        json!({"preset": "naspa-2013", "players": ["Ann", "Bob"], "initial_minutes": 1}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut seat0 = Conn::open(addr, seat_ws(&created, 0)).await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_waiting(&fresh(&mut seat0).await, 60_000);
    drop(seat0);
    // A clean stop: the last checkpoint is written for the games that run, not this one.
    server.shutdown().await;

    let server = tilebag_server::start(cfg.clone()).await.unwrap();
    let addr = server.addr();
    let mut seat0 = Conn::open(addr, seat_ws(&created, 0)).await;
    assert_waiting(seat0.view(), 60_000);
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_waiting(&fresh(&mut seat0).await, 60_000);
    drop(seat0);
    // A crash this time.
    server.kill();

    let server = tilebag_server::start(cfg).await.unwrap();
    let addr = server.addr();
    let doc = get_game(addr, &id).await;
    assert_eq!(doc["status"], "live");
    assert_waiting(&doc, 60_000);
    let mut t = Table::open(addr, &created, false).await;
    assert_eq!(t.view(1)["started"], true, "both seats are here");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let v = fresh(&mut t.seats[0]).await;
    assert_eq!(v["clocks"]["running"], 0);
    let left0 = v["clocks"]["remaining_ms"][0].as_i64().unwrap();
    assert!(left0 <= 60_000 - 20_000, "seat 0's clock runs: {left0}");
    assert_eq!(v["clocks"]["remaining_ms"][1], 60_000);
    server.shutdown().await;
}

/// A game that started when both seats connected, with no event yet, still runs after a crash,
/// although no periodic checkpoint was taken (one an hour here): the start was written when it
/// happened. After the restart nobody takes a seat, and the clock runs all the same.
async fn restart_after_the_start(database: &str) {
    let mut cfg = config(database, &[]);
    cfg.time_scale = 100.0;
    cfg.checkpoint_every = Duration::from_secs(3600);
    let server = tilebag_server::start(cfg.clone()).await.unwrap();
    let addr = server.addr();
    let created = create(
        addr,
        json!({"preset": "naspa-2013", "players": ["Cy", "Di"], "initial_minutes": 1}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    let mut t = Table::open(addr, &created, false).await;
    assert_eq!(t.view(1)["started"], true);
    tokio::time::sleep(Duration::from_millis(200)).await;
    let v = fresh(&mut t.seats[0]).await;
    assert_eq!(
        v["seq"], 0,
        "no event: only the start marks the game started"
    );
    assert!(v["clocks"]["remaining_ms"][0].as_i64().unwrap() < 60_000 - 10_000);
    drop(t);
    server.kill();

    let server = tilebag_server::start(cfg).await.unwrap();
    let addr = server.addr();
    let observer = Conn::open(addr, created["observer_ws"].as_str().unwrap()).await;
    let v = observer.view().clone();
    assert_eq!(v["started"], true, "{v}");
    assert_eq!(v["clocks"]["running"], 0, "{v}");
    tokio::time::sleep(Duration::from_millis(300)).await;
    let doc = get_game(addr, &id).await;
    assert_eq!(doc["started"], true);
    let left0 = doc["clocks"]["remaining_ms"][0].as_i64().unwrap();
    assert!(
        left0 <= 60_000 - 20_000,
        "the restored game's clock runs with no seat connected: {left0}"
    );
    assert_eq!(doc["clocks"]["remaining_ms"][1], 60_000);
    server.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_restart_before_the_start_keeps_the_game_waiting() {
    let dir = temp_dir("start-restart-before");
    restart_before_the_start(dir.join("t.db").to_str().unwrap()).await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_restart_after_the_start_keeps_the_game_running() {
    let dir = temp_dir("start-restart-after");
    restart_after_the_start(dir.join("t.db").to_str().unwrap()).await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The same two scenarios against a real PostgreSQL, each in a schema of its own, when
/// `TILEBAG_TEST_POSTGRES` holds a connection URL.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_restart_before_and_after_the_start() {
    let Ok(url) = std::env::var("TILEBAG_TEST_POSTGRES") else {
        println!("skipping: TILEBAG_TEST_POSTGRES not set");
        return;
    };
    let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
        .await
        .expect("connect to TILEBAG_TEST_POSTGRES");
    tokio::spawn(conn);
    for before in [true, false] {
        let schema = format!("tilebag_test_{}", random_tag());
        client
            .batch_execute(&format!("CREATE SCHEMA {schema}"))
            .await
            .unwrap();
        let sep = if url.contains('?') { '&' } else { '?' };
        let scoped = format!("{url}{sep}options=-c%20search_path%3D{schema}");
        if before {
            restart_before_the_start(&scoped).await;
        } else {
            restart_after_the_start(&scoped).await;
        }
        client
            .batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
            .await
            .unwrap();
    }
}

/// Databases written before games waited: every stored game started when it was created, so a
/// live game without events (its `checkpoint_ms` is the column's default, 0) runs when restored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_stored_before_games_waited_run_when_restored() {
    let dir = temp_dir("start-legacy");
    let db = dir.join("t.db");
    let mut cfg = config(db.to_str().unwrap(), &[]);
    cfg.time_scale = 100.0;
    let server = tilebag_server::start(cfg.clone()).await.unwrap();
    let created = create(
        server.addr(),
        json!({"preset": "naspa-2013", "players": ["Old", "Row"], "initial_minutes": 1}),
    )
    .await;
    let id = created["id"].as_str().unwrap().to_string();
    server.shutdown().await;
    // What an older server stored for a new game: the column's default checkpoint.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let n = conn
        .execute("UPDATE games SET checkpoint_ms = 0 WHERE id = ?1", [&id])
        .unwrap();
    assert_eq!(n, 1);
    drop(conn);

    let server = tilebag_server::start(cfg).await.unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let doc = get_game(server.addr(), &id).await;
    assert_eq!(doc["started"], true, "{doc}");
    assert_eq!(doc["clocks"]["running"], 0);
    let left0 = doc["clocks"]["remaining_ms"][0].as_i64().unwrap();
    assert!(left0 <= 60_000 - 20_000, "{left0}");
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// The game page says the game is waiting, with full clocks that do not move, until the second
/// player opens their link; then the notice goes and the clock runs.
#[test]
fn the_game_page_shows_the_wait_until_both_players_are_here() {
    use browser_support::{Browser, TestServer};
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = TestServer::start("waiting");
    let body = json!({"preset": "naspa-2013", "players": ["Alice", "Bob"], "seed": 4});
    let r = browser_support::http(
        server.addr,
        "POST",
        "/api/games",
        Some(body.to_string().as_bytes()),
    )
    .unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    let created: Value = serde_json::from_slice(&r.body).unwrap();
    let link = |s: usize| server.url(created["seats"][s]["link"].as_str().unwrap());

    let alice = browser.session();
    alice.goto(&link(0));
    let text = alice.wait_js(
        "the waiting notice",
        "const w = document.querySelector('[data-testid=waiting]'); \
         return w && !w.hidden && w.textContent",
    );
    let text = text.as_str().unwrap();
    assert!(
        text.starts_with(
            "Waiting for your opponent \u{2014} the clock starts when both players are here"
        ),
        "{text}"
    );
    assert!(text.contains("first move"), "Alice moves first: {text}");
    assert_eq!(alice.text_of("[data-testid=clock-0]"), "25:00");
    // Over a second and a half nothing runs down.
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(alice.text_of("[data-testid=clock-0]"), "25:00");
    assert_eq!(alice.text_of("[data-testid=clock-1]"), "25:00");
    assert_eq!(
        alice.js(
            "return document.querySelector('[data-testid=clock-0]').classList.contains('running')",
            json!([])
        ),
        false
    );
    alice.screenshot("game-waiting");

    let bob = browser.session();
    bob.goto(&link(1));
    bob.wait_js(
        "Bob's page",
        "return window.tilebag.state.view !== null && window.tilebag.state.view.started === true",
    );
    assert_eq!(
        bob.js(
            "return document.querySelector('[data-testid=waiting]').hidden",
            json!([])
        ),
        true,
        "Bob's page shows no wait"
    );
    alice.wait_js(
        "the notice to go",
        "return document.querySelector('[data-testid=waiting]').hidden",
    );
    assert!(
        alice.text_of("#notice").contains("started"),
        "{}",
        alice.text_of("#notice")
    );
    alice.wait_js(
        "Alice's clock to run",
        "const c = document.querySelector('[data-testid=clock-0]'); \
         return c.classList.contains('running') && c.textContent.startsWith('24:')",
    );
    assert_eq!(bob.text_of("[data-testid=clock-1]"), "25:00");
    alice.screenshot("game-started");
    alice.assert_no_console_errors();
    bob.assert_no_console_errors();
}
