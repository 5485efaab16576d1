//! Server push (issue 14, lobby item 9 and director item 2): the lobby's stream of changes
//! (`GET /api/lobby/changes`, Server-Sent Events). It says when games change, gathers a burst of
//! changes into one event, sends nothing but keep-alives while nothing changes (and so outlives
//! the idle timeout), and ends when the server stops. The director's stream of calls needs the
//! director's sign-in. (The pages' use of both is tested in Chromium: `browser_game.rs`,
//! `director_browser.rs`.)

mod common;

use common::*;
use serde_json::json;
use std::time::Duration;
use tilebag_server::client::http;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Reads what arrives within `wait`: the text and whether the server closed the stream.
async fn read_for(s: &mut TcpStream, wait: Duration) -> (String, bool) {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        match tokio::time::timeout_at(deadline, s.read(&mut buf)).await {
            Err(_) => return (String::from_utf8_lossy(&out).into_owned(), false),
            Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&out).into_owned(), true),
            Ok(Ok(n)) => out.extend_from_slice(&buf[..n]),
        }
    }
}

fn count(text: &str, what: &str) -> usize {
    text.matches(what).count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_stream_says_when_games_change_and_outlives_the_idle_timeout() {
    let dir = temp_dir("push");
    let db = dir.join("t.db");
    let mut cfg = config(db.to_str().unwrap(), &[]);
    // An idle timeout far shorter than the test's quiet spell: only keep-alives hold the stream.
    cfg.net.idle_timeout = Duration::from_millis(1000);
    let server = tilebag_server::start(cfg).await.unwrap();
    let addr = server.addr();

    let mut s = TcpStream::connect(addr).await.unwrap();
    s.write_all(b"GET /api/lobby/changes HTTP/1.1\r\nHost: t\r\nAccept: text/event-stream\r\n\r\n")
        .await
        .unwrap();
    // Quiet: the headers, then keep-alive comments only, and the connection stays open past
    // three idle timeouts.
    let (quiet, closed) = read_for(&mut s, Duration::from_millis(3500)).await;
    assert!(!closed, "the stream was closed while quiet: {quiet}");
    assert!(quiet.starts_with("HTTP/1.1 200"), "{quiet}");
    assert!(
        quiet
            .to_ascii_lowercase()
            .contains("content-type: text/event-stream"),
        "{quiet}"
    );
    assert_eq!(count(&quiet, "event: games"), 0, "{quiet}");
    assert!(
        count(&quiet, "\n:") >= 2,
        "keep-alive comments inside the idle timeout: {quiet}"
    );

    // A new game: one event, within the two-second gathering and a margin.
    create(addr, json!({"players": ["Ann", "Bob"]})).await;
    let (one, closed) = read_for(&mut s, Duration::from_millis(4000)).await;
    assert!(!closed, "{one}");
    assert_eq!(count(&one, "event: games"), 1, "{one}");

    // A burst of five games (and their moves): gathered, not one event each.
    for i in 0..5 {
        let g = create(addr, json!({"players": [format!("A{i}"), format!("B{i}")]})).await;
        let mut t = Table::open(addr, &g, false).await;
        t.ok(0, json!({"type": "pass"})).await;
    }
    let (burst, _) = read_for(&mut s, Duration::from_millis(4500)).await;
    let n = count(&burst, "event: games");
    assert!((1..=3).contains(&n), "{n} events for the burst: {burst}");

    // The server stops: the stream ends (the browser would reconnect to the next server).
    let stop = tokio::spawn(server.shutdown());
    let (_, closed) = read_for(&mut s, Duration::from_secs(8)).await;
    assert!(closed, "the stream outlived the server");
    tokio::time::timeout(Duration::from_secs(10), stop)
        .await
        .expect("the server stops with a stream open")
        .unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_calls_stream_is_the_directors_only() {
    let dir = temp_dir("push-td");
    let db = dir.join("t.db");
    let mut cfg = config(db.to_str().unwrap(), &[]);
    cfg.events_dir = Some(dir.join("events"));
    let server = tilebag_server::start(cfg).await.unwrap();
    let r = http(server.addr(), "GET", "/td/club/d/A/calls/stream", None)
        .await
        .unwrap();
    assert_eq!(r.status, 403, "{}", r.text());
    server.shutdown().await;
}
