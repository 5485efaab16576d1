//! Bad input gets a clear error with a code (HTTP status or WebSocket `error` message) and
//! changes nothing; too large or too many messages close the connection with a policy code.

mod common;

use common::*;
use serde_json::{json, Value};
use tilebag_server::client::{http, post_json, ClientError, WsClient};

async fn expect_error(t: &mut Table, seat: usize, action: Value, code: &str) -> Value {
    let r = t.act(seat, action.clone()).await;
    assert_eq!(r["type"], "error", "{action} should be refused: {r}");
    assert_eq!(r["code"], code, "{action}: {r}");
    assert!(r["message"].as_str().unwrap().len() > 5, "{r}");
    assert!(r["id"].is_string(), "the error echoes the id: {r}");
    r
}

async fn http_error(
    addr: std::net::SocketAddr,
    method: &str,
    path: &str,
    body: Option<&str>,
    status: u16,
    code: &str,
) -> String {
    let r = http(addr, method, path, body.map(str::as_bytes))
        .await
        .unwrap();
    assert_eq!(r.status, status, "{method} {path} {body:?}: {}", r.text());
    let v = r.json().unwrap();
    assert_eq!(v["type"], "error");
    assert_eq!(v["code"], code, "{v}");
    v["message"].as_str().unwrap().to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_http_requests_get_clear_errors() {
    let dir = temp_dir("badhttp");
    let server = tilebag_server::start(config(dir.join("t.db").to_str().unwrap(), &[]))
        .await
        .unwrap();
    let addr = server.addr();
    let post = |b: &'static str, status, code| {
        http_error(addr, "POST", "/api/games", Some(b), status, code)
    };
    post("{not json", 400, "bad-json").await;
    let m = post(
        r#"{"players":["a","b"],"colour":"red"}"#,
        400,
        "bad-message",
    )
    .await;
    assert!(m.contains("colour"), "{m}");
    post(r#"{"preset":"naspa-2013"}"#, 400, "bad-message").await;
    let m = post(r#"{"players":["a"]}"#, 422, "bad-request").await;
    assert!(m.contains("two players"), "{m}");
    post(r#"{"players":["a","  "]}"#, 422, "bad-request").await;
    let m = post(
        r#"{"players":["a","b"],"preset":"scrabble-9000"}"#,
        422,
        "bad-request",
    )
    .await;
    assert!(m.contains("scrabble-9000"), "{m}");
    let m = post(
        r#"{"players":["a","b"],"lexicon":"klingon"}"#,
        422,
        "bad-request",
    )
    .await;
    assert!(m.contains("klingon"), "{m}");
    post(
        r#"{"players":["a","b"],"initial_minutes":-3}"#,
        422,
        "bad-request",
    )
    .await;
    // So small that it would round to a clock of 0 ms: at least one second is needed.
    let m = post(
        r#"{"players":["a","b"],"initial_minutes":0.000001}"#,
        422,
        "bad-request",
    )
    .await;
    assert!(m.contains("at least one second"), "{m}");
    post(
        r#"{"players":["a","b"],"preset":"literacy-2018","initial_minutes":5}"#,
        422,
        "bad-request",
    )
    .await;
    let big = format!(r#"{{"players":["{}","b"]}}"#, "x".repeat(20_000));
    let r = http(addr, "POST", "/api/games", Some(big.as_bytes()))
        .await
        .unwrap();
    assert_eq!(r.status, 413, "{}", r.text());

    http_error(
        addr,
        "GET",
        "/api/games/nosuchgame",
        None,
        404,
        "unknown-game",
    )
    .await;
    http_error(
        addr,
        "GET",
        "/api/games/nosuchgame/gcg",
        None,
        404,
        "unknown-game",
    )
    .await;
    http_error(addr, "GET", "/api/games/../../etc", None, 404, "not-found").await;
    http_error(addr, "GET", "/api/nothing-here", None, 404, "not-found").await;
    http_error(
        addr,
        "GET",
        "/api/games/nosuchgame/ws",
        None,
        404,
        "unknown-game",
    )
    .await;

    let created = create(addr, json!({"players": ["Kim", "Lou"]})).await;
    let id = created["id"].as_str().unwrap();
    // Not a WebSocket request.
    http_error(
        addr,
        "GET",
        &format!("/api/games/{id}/ws"),
        None,
        400,
        "websocket-required",
    )
    .await;
    // A way of sending the score sheet that does not exist is named.
    let msg = http_error(
        addr,
        "GET",
        &format!("/api/games/{id}/ws?history=all"),
        None,
        422,
        "bad-request",
    )
    .await;
    assert!(msg.contains("history=all"), "{msg}");
    // A wrong token is refused before the upgrade: 403.
    match WsClient::connect(addr, &format!("/api/games/{id}/ws?token=guess")).await {
        Err(ClientError::Ws(tokio_tungstenite::tungstenite::Error::Http(resp))) => {
            assert_eq!(resp.status(), 403);
        }
        Err(e) => panic!("expected a 403, got {e}"),
        Ok(_) => panic!("a wrong token must not open a seat"),
    }
    match WsClient::connect(addr, "/api/games/nosuchgame/ws").await {
        Err(ClientError::Ws(tokio_tungstenite::tungstenite::Error::Http(resp))) => {
            assert_eq!(resp.status(), 404);
        }
        _ => panic!("expected a 404"),
    }
    // Nothing was created by the refused requests.
    let list = http(addr, "GET", "/api/games", None)
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(list["games"].as_array().unwrap().len(), 1);
    // The good path still works, and presets and lexicons are listed.
    let r = post_json(addr, "/api/games", &json!({"players": ["a", "b"]}))
        .await
        .unwrap();
    assert_eq!(r.status, 201);
    let presets = http(addr, "GET", "/api/presets", None)
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(presets["presets"].as_array().unwrap().len(), 6);
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_moves_get_clear_errors_and_change_nothing() {
    let dir = temp_dir("badws");
    let mut cfg = config(dir.join("t.db").to_str().unwrap(), &[]);
    cfg.limits = tilebag_server::Limits::default();
    let server = tilebag_server::start(cfg).await.unwrap();
    let addr = server.addr();
    let created = create(addr, json!({"players": ["Max", "Ned"], "seed": 9})).await;
    let mut t = Table::open(addr, &created, true).await;
    let before = [position(t.view(0)), position(t.view(1))];
    let rack = t.view(0)["rack"].as_str().unwrap().to_string();
    let absent: String = "QZXJKVWYFH"
        .chars()
        .filter(|c| !rack.contains(*c))
        .take(2)
        .collect();

    // Not JSON, not a message, a message missing a field.
    t.seats[0].ws.send_text("{oops").await.unwrap();
    let e = t.seats[0].next().await;
    assert_eq!(
        (e["type"].as_str(), e["code"].as_str()),
        (Some("error"), Some("bad-json"))
    );
    let e = expect_error(&mut t, 0, json!({"type": "plya"}), "bad-message").await;
    assert!(e["message"].as_str().unwrap().contains("plya"), "{e}");
    let e = expect_error(
        &mut t,
        0,
        json!({"type": "play", "position": "8H"}),
        "bad-message",
    )
    .await;
    assert!(e["message"].as_str().unwrap().contains("word"), "{e}");

    // Out of turn, unreadable coordinates, illegal placements, tiles not on the rack.
    expect_error(&mut t, 1, json!({"type": "pass"}), "out-of-turn").await;
    expect_error(
        &mut t,
        0,
        json!({"type": "play", "position": "Z99", "word": "AB"}),
        "bad-position",
    )
    .await;
    let e = expect_error(
        &mut t,
        0,
        json!({"type": "play", "position": "8H", "word": "A.B"}),
        "illegal-play",
    )
    .await;
    // A gap is called a gap, and live play speaks of the word, not of a record. (A first play
    // off the centre is no longer refused: it may be challenged off, NASPA III.G.1.)
    let m = e["message"].as_str().unwrap();
    assert!(m.starts_with("gap at I8") && !m.contains("record"), "{e}");
    expect_error(
        &mut t,
        0,
        json!({"type": "play", "position": "8H", "word": "A?"}),
        "illegal-play",
    )
    .await;
    expect_error(
        &mut t,
        0,
        json!({"type": "play", "position": "8H", "word": absent}),
        "tiles-not-on-rack",
    )
    .await;
    expect_error(
        &mut t,
        0,
        json!({"type": "exchange", "tiles": absent}),
        "tiles-not-on-rack",
    )
    .await;
    expect_error(
        &mut t,
        0,
        json!({"type": "exchange", "tiles": "A1"}),
        "bad-request",
    )
    .await;
    expect_error(
        &mut t,
        0,
        json!({"type": "exchange", "tiles": ""}),
        "bad-request",
    )
    .await;
    // Not allowed in this phase.
    expect_error(&mut t, 0, json!({"type": "hold"}), "not-allowed").await;
    expect_error(&mut t, 0, json!({"type": "challenge"}), "not-allowed").await;
    expect_error(&mut t, 0, json!({"type": "accept"}), "not-allowed").await;
    expect_error(
        &mut t,
        0,
        json!({"type": "end-after-six-zeros"}),
        "not-allowed",
    )
    .await;
    // An observer cannot act.
    let obs = t.observer.as_mut().unwrap();
    obs.ws
        .send_json(&json!({"type": "pass", "id": 5}))
        .await
        .unwrap();
    let e = obs.next().await;
    assert_eq!(e["code"], "not-a-seat");
    assert_eq!(e["id"], 5);

    // Nothing changed.
    for s in 0..2 {
        t.seats[s]
            .ws
            .send_json(&json!({"type": "state"}))
            .await
            .unwrap();
        t.seats[s].next().await;
    }
    assert_eq!(before, [position(t.view(0)), position(t.view(1))]);
    let doc = t.get().await;
    assert_eq!(doc["seq"], 0);

    // A play challenged with a word it did not form.
    let mut rng = tilebag_core::bag::Rng::new(1);
    let a = tilebag_server::bench::choose_action(t.view(0), &mut rng, 3).unwrap();
    t.ok(0, a).await;
    expect_error(
        &mut t,
        1,
        json!({"type": "challenge", "words": ["NOTFORMED"]}),
        "not-formed",
    )
    .await;
    expect_error(&mut t, 0, json!({"type": "hold"}), "out-of-turn").await;
    t.ok(1, json!({"type": "hold"})).await;
    expect_error(&mut t, 1, json!({"type": "hold"}), "not-allowed").await;

    // Too large: an error, then close 1009.
    let big = format!(r#"{{"type":"pass","pad":"{}"}}"#, "x".repeat(17 * 1024));
    t.seats[1].ws.send_text(big).await.unwrap();
    let e = t.seats[1].next().await;
    assert_eq!(e["code"], "too-large", "{e}");
    assert!(t.seats[1].ws.recv().await.unwrap().is_none());
    assert_eq!(t.seats[1].ws.closed.as_ref().unwrap().0, 1009);

    // Too many: an error, then close 1008 (policy violation).
    let mut flood = WsClient::connect(addr, created["observer_ws"].as_str().unwrap())
        .await
        .unwrap();
    for _ in 0..60 {
        if flood.send_text(r#"{"type":"state"}"#).await.is_err() {
            break;
        }
    }
    let e = flood
        .recv_until(WAIT, "rate-limited", |m| m["type"] == "error")
        .await
        .unwrap();
    assert_eq!(e["code"], "rate-limited", "{e}");
    while flood.recv().await.unwrap_or(None).is_some() {}
    assert_eq!(flood.closed.as_ref().unwrap().0, 1008);

    // The game is intact and goes on; after the end, moves are refused as game over.
    let seq = t.view(0)["seq"].as_u64().unwrap();
    let again = Conn::open(addr, created["seats"][1]["ws"].as_str().unwrap()).await;
    assert_eq!(again.view()["seq"], seq, "reconnecting restores the view");
    t.seats[1] = again;
    t.ok(1, json!({"type": "accept"})).await;
    t.ok(1, json!({"type": "resign"})).await;
    expect_error(&mut t, 0, json!({"type": "pass"}), "game-over").await;
    assert_eq!(
        t.view(0)["phase"]["reason"],
        json!({"type": "resigned", "seat": 1})
    );
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}
