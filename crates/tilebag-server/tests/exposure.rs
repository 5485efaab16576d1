//! The server on the open internet: idle and half-sent connections, connection caps, silent
//! WebSockets. Each test attacks the server as the issue describes and shows that it keeps
//! answering. Timeouts are short here (configurable); bounds on time are generous (a loaded
//! two-core machine), and the measured figures are printed.

mod common;

use common::*;
use serde_json::json;

use std::time::{Duration, Instant};
use tilebag_server::client::{http, WsClient};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn idle_and_slowloris_connections_are_capped_and_closed_while_games_go_on() {
    let dir = temp_dir("exposure");
    let db = dir.join("t.db");
    let mut cfg = config(db.to_str().unwrap(), &[]);
    cfg.net.max_connections = 40;
    cfg.net.max_connections_per_address = 20;
    cfg.net.header_timeout = Duration::from_millis(1000);
    cfg.net.idle_timeout = Duration::from_millis(4000);
    // The seats of the live game are read only when the test acts: keep them well inside.
    cfg.net.ws_silence = Duration::from_secs(30);
    let server = tilebag_server::start(cfg).await.unwrap();
    let addr = server.addr();
    assert_eq!(server.connection_cap(), 40);

    // A game in progress before the attack (two WebSockets from 127.0.0.1).
    let created = create(addr, json!({"players": ["Ann", "Bob"]})).await;
    let mut table = Table::open(addr, &created, false).await;
    table.ok(0, json!({"type": "pass"})).await;

    // One address opens more idle connections than its cap: the first 20 are held, the rest
    // refused at once with a 503.
    let t0 = Instant::now();
    let mut idle = Vec::new();
    for _ in 0..26 {
        idle.push(connect_from("127.0.0.2", addr).await);
    }
    // Which were refused: each of those has its answer and is closed already.
    let mut refused = 0;
    let mut kept = Vec::new();
    tokio::time::sleep(Duration::from_millis(300)).await;
    for mut s in idle {
        let (bytes, closed) = read_until_closed(&mut s, Duration::from_millis(20)).await;
        if closed {
            let text = String::from_utf8_lossy(&bytes);
            assert!(text.starts_with("HTTP/1.1 503"), "{text}");
            assert!(
                text.contains("too many connections from your address"),
                "{text}"
            );
            refused += 1;
        } else {
            kept.push(s);
        }
    }
    eprintln!(
        "26 idle connections from one address: {refused} refused (the answer within {:.0} ms)",
        ms(t0.elapsed())
    );
    assert_eq!(refused, 6, "20 per address are held, the rest refused");
    assert_eq!(kept.len(), 20);
    let idle_opened = t0;

    // A keep-alive connection that has had its answer and then says nothing.
    let mut keepalive = connect_from("127.0.0.3", addr).await;
    keepalive
        .write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut first = [0u8; 512];
    let n = keepalive.read(&mut first).await.unwrap();
    assert!(first[..n].starts_with(b"HTTP/1.1 200"));
    let keepalive_answered = Instant::now();

    // Slowloris: five clients sending a request's headers a byte at a time, never finishing.
    let slow_started = Instant::now();
    let mut slow = Vec::new();
    for _ in 0..5 {
        let mut s = connect_from("127.0.0.4", addr).await;
        s.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n")
            .await
            .unwrap();
        slow.push(s);
    }
    let trickle = tokio::spawn(async move {
        let mut closed_after = Vec::new();
        let mut open: Vec<Option<TcpStream>> = slow.into_iter().map(Some).collect();
        for _ in 0..60 {
            tokio::time::sleep(Duration::from_millis(100)).await;
            for s in open.iter_mut() {
                if let Some(stream) = s {
                    if stream.write_all(b"X").await.is_err() {
                        closed_after.push(slow_started.elapsed());
                        *s = None;
                        continue;
                    }
                    let mut b = [0u8; 64];
                    if let Ok(Ok(0)) =
                        tokio::time::timeout(Duration::from_millis(1), stream.read(&mut b)).await
                    {
                        closed_after.push(slow_started.elapsed());
                        *s = None;
                    }
                }
            }
            if open.iter().all(Option::is_none) {
                break;
            }
        }
        closed_after
    });

    // Meanwhile the server answers everyone else at once, and the game goes on.
    let h = health(addr).await;
    eprintln!(
        "health check with 20 idle, 1 keep-alive and 5 slowloris connections open: {:.2} ms",
        ms(h)
    );
    assert!(h < Duration::from_secs(2), "health took {h:?}");
    let t = Instant::now();
    table.ok(1, json!({"type": "pass"})).await;
    eprintln!(
        "a move in the live game meanwhile: {:.2} ms",
        ms(t.elapsed())
    );
    assert!(t.elapsed() < Duration::from_secs(2));

    // The slowloris senders were closed at the header timeout (1 s) though they kept sending.
    let closed_after = trickle.await.unwrap();
    eprintln!("slowloris closed after {closed_after:?}");
    assert_eq!(closed_after.len(), 5, "every slow sender was closed");
    for d in &closed_after {
        assert!(
            *d < Duration::from_millis(1000 + 2000),
            "closed after {d:?}"
        );
    }

    // Before the idle ones time out, many addresses fill the total cap (40): the newcomers past
    // it are refused at once, and the game still plays.
    let mut fillers = Vec::new();
    for i in 0..20 {
        let from = format!("127.0.1.{}", i % 10 + 1);
        fillers.push(connect_from(&from, addr).await);
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut full_refused = 0;
    for s in fillers.iter_mut() {
        let (bytes, closed) = read_until_closed(s, Duration::from_millis(50)).await;
        if closed {
            let text = String::from_utf8_lossy(&bytes);
            assert!(text.starts_with("HTTP/1.1 503"), "{text}");
            full_refused += 1;
        }
    }
    // 2 seats + 20 idle + 1 keep-alive = 23 (the slowloris are gone): 17 more fit.
    eprintln!("20 more connections from ten addresses: {full_refused} refused at the cap");
    assert_eq!(full_refused, 3);
    let t = Instant::now();
    let mut late = connect_from("127.0.2.1", addr).await;
    late.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let (bytes, closed) = read_until_closed(&mut late, Duration::from_secs(2)).await;
    let text = String::from_utf8_lossy(&bytes);
    eprintln!(
        "a connection at the cap: refused in {:.2} ms",
        ms(t.elapsed())
    );
    assert!(closed && text.starts_with("HTTP/1.1 503"), "{text}");
    table.ok(0, json!({"type": "pass"})).await;

    // The idle ones are closed at the idle timeout (4 s).
    for mut s in kept {
        let (_, closed) = read_until_closed(&mut s, Duration::from_secs(4)).await;
        assert!(closed, "an idle connection was left open");
    }
    let idle_closed = idle_opened.elapsed();
    let (_, closed) = read_until_closed(&mut keepalive, Duration::from_secs(4)).await;
    assert!(closed, "an idle keep-alive connection was left open");
    let keepalive_closed = keepalive_answered.elapsed();
    for s in fillers.iter_mut() {
        let (_, closed) = read_until_closed(s, Duration::from_secs(4)).await;
        assert!(closed);
    }
    eprintln!(
        "idle connections all closed {:.0} ms after they opened; the keep-alive one {:.0} ms \
         after its answer (idle timeout 4000 ms)",
        ms(idle_closed),
        ms(keepalive_closed)
    );
    assert!(keepalive_closed < Duration::from_millis(4000 + 2000));
    assert!(keepalive_closed >= Duration::from_millis(3500));

    // Everything is back to normal: new connections are served, the game goes on.
    let h = health(addr).await;
    eprintln!("health check after the attack: {:.2} ms", ms(h));
    table.ok(1, json!({"type": "pass"})).await;
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_websocket_that_answers_no_ping_is_closed_and_one_that_does_stays() {
    let dir = temp_dir("wssilence");
    let db = dir.join("t.db");
    let mut cfg = config(db.to_str().unwrap(), &[]);
    cfg.net.ws_ping_every = Duration::from_millis(200);
    cfg.net.ws_silence = Duration::from_millis(1000);
    let server = tilebag_server::start(cfg).await.unwrap();
    let addr = server.addr();
    let created = create(addr, json!({"players": ["Ann", "Bob"]})).await;
    let path = created["observer_ws"].as_str().unwrap();

    // The client library answers pings while it reads: this one keeps reading.
    let mut lively = WsClient::connect(addr, path).await.unwrap();
    // This one never reads, so never answers a ping.
    let mut silent = WsClient::connect(addr, path).await.unwrap();
    let start = Instant::now();
    while start.elapsed() < Duration::from_millis(2500) {
        let _ = lively.recv_timeout(Duration::from_millis(100)).await;
    }
    assert!(lively.closed.is_none(), "{:?}", lively.closed);
    lively.send_json(&json!({"type": "state"})).await.unwrap();
    let m = lively
        .recv_until(WAIT, "a state", |m| m["type"] == "state")
        .await
        .unwrap();
    assert_eq!(m["view"]["audience"], "observer");

    // The silent one was closed (1008) after about a second of silence. Reading now, the client
    // library either sees the close frame, or fails first answering the pings it had not read
    // on a socket the server has closed.
    let mut io_error = None;
    loop {
        match silent.recv_timeout(Duration::from_secs(2)).await {
            Ok(Some(_)) => continue,
            Ok(None) => break,
            Err(e) => {
                io_error = Some(e.to_string());
                break;
            }
        }
    }
    eprintln!(
        "the silent client: closed {:?}, error {io_error:?}",
        silent.closed
    );
    match (&silent.closed, &io_error) {
        (Some((code, _)), _) => assert_eq!(*code, 1008),
        (None, Some(e)) => assert!(
            e.contains("Broken pipe") || e.contains("reset"),
            "not closed by the server: {e}"
        ),
        (None, None) => panic!("the silent client was not closed"),
    }
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_chosen_seed_is_refused_unless_allowed_and_then_marked_everywhere() {
    let dir = temp_dir("seeds");
    let db = dir.join("t.db");
    let mut cfg = config(db.to_str().unwrap(), &[]);
    cfg.allow_seeds = false;
    let server = tilebag_server::start(cfg.clone()).await.unwrap();
    let addr = server.addr();
    // The attack of the issue: create a game with a seed you know, then read the racks off a
    // game of your own with the same seed. Refused.
    let r = tilebag_server::client::post_json(
        addr,
        "/api/games",
        &json!({"players": ["Mallory", "Victim"], "seed": 42}),
    )
    .await
    .unwrap();
    assert_eq!(r.status, 403, "{}", r.text());
    let e = r.json().unwrap();
    assert_eq!(e["code"], "seed-not-allowed");
    assert!(e["message"].as_str().unwrap().contains("--allow-seeds"));
    let presets = http(addr, "GET", "/api/presets", None)
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(presets["allow_seeds"], false);
    // Without a seed: a fair game, not marked.
    let fair = create(addr, json!({"players": ["Ann", "Bob"]})).await;
    let id = fair["id"].as_str().unwrap();
    let doc = http(addr, "GET", &format!("/api/games/{id}"), None)
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(doc["seeded"], false);
    let gcg = http(addr, "GET", &format!("/api/games/{id}/gcg"), None)
        .await
        .unwrap()
        .text();
    assert!(!gcg.contains("seeded"), "{gcg}");
    server.shutdown().await;

    // With --allow-seeds: the game is made, and marked in every view, the list and the GCG.
    cfg.allow_seeds = true;
    let server = tilebag_server::start(cfg).await.unwrap();
    let addr = server.addr();
    let presets = http(addr, "GET", "/api/presets", None)
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(presets["allow_seeds"], true);
    let seeded = create(addr, json!({"players": ["Cy", "Di"], "seed": 42})).await;
    let mut t = Table::open(addr, &seeded, true).await;
    assert_eq!(t.view(0)["seeded"], true);
    assert_eq!(t.view(1)["seeded"], true);
    assert_eq!(t.observer.as_ref().unwrap().view()["seeded"], true);
    assert_eq!(t.get().await["seeded"], true);
    let list = http(addr, "GET", "/api/games", None)
        .await
        .unwrap()
        .json()
        .unwrap();
    for g in list["games"].as_array().unwrap() {
        assert_eq!(g["seeded"], g["id"] == seeded["id"], "{g}");
    }
    t.ok(0, json!({"type": "pass"})).await;
    t.ok(1, json!({"type": "resign"})).await;
    let gcg = t.gcg().await;
    assert!(
        gcg.lines()
            .any(|l| l.starts_with("#note ") && l.contains("seeded game")),
        "{gcg}"
    );
    // Other readers take the note as a note: the record still parses and replays.
    let record = tilebag_core::gcg::parse_gcg(gcg.as_bytes()).unwrap();
    let report = tilebag_core::replay::verify_record(&record).unwrap();
    // Issue 11: a resigned game's record verifies as finished, with how it ended and the
    // server's own final score (NASPA V.K.2: the resigner loses by at least 50).
    assert_eq!(
        report.completion,
        tilebag_core::replay::Completion::Complete,
        "{gcg}"
    );
    assert!(
        report
            .ending
            .as_deref()
            .is_some_and(|e| e.starts_with("resigned")),
        "{:?}",
        report.ending
    );
    let ended = t.get().await;
    assert_eq!(ended["status"], "ended", "{ended}");
    let server_scores: Vec<i64> = ended["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["score"].as_i64().unwrap())
        .collect();
    assert_eq!(
        report.scores.map(i64::from).to_vec(),
        server_scores,
        "{ended}"
    );
    assert!(
        report.scores[0] - report.scores[1] >= 50,
        "{:?}",
        report.scores
    );
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn creating_judging_and_checking_beyond_the_quota_gets_429_and_waiting_games_are_capped() {
    let dir = temp_dir("quotas");
    let db = dir.join("t.db");
    let mut cfg = config(db.to_str().unwrap(), &["QI", "ZA"]);
    cfg.quotas.games_per_minute = 3;
    cfg.quotas.judge_per_minute = 2;
    cfg.quotas.verify_per_minute = 2;
    cfg.quotas.max_waiting_games = 5;
    let server = tilebag_server::start(cfg).await.unwrap();
    let addr = server.addr();
    let game = r#"{"players": ["Ann", "Bob"]}"#;

    // One address: three games a minute, then 429 with the time to wait.
    let mut created = Vec::new();
    for _ in 0..3 {
        let (status, _, body) =
            request_from("127.0.0.5", addr, "POST", "/api/games", &[], game).await;
        assert_eq!(status, 201, "{body}");
        created.push(serde_json::from_str::<serde_json::Value>(&body).unwrap());
    }
    let (status, head, body) =
        request_from("127.0.0.5", addr, "POST", "/api/games", &[], game).await;
    assert_eq!(status, 429, "{body}");
    let e: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!(e["code"], "rate-limited");
    assert!(e["message"]
        .as_str()
        .unwrap()
        .contains("at most 3 new games a minute"));
    let retry: u64 = head
        .lines()
        .find_map(|l| l.strip_prefix("retry-after: "))
        .expect("Retry-After")
        .trim()
        .parse()
        .unwrap();
    assert!((1..=20).contains(&retry), "{retry}");

    // Another address has its own quota, but the server holds at most 5 games nobody started.
    for _ in 0..2 {
        let (status, _, body) =
            request_from("127.0.0.6", addr, "POST", "/api/games", &[], game).await;
        assert_eq!(status, 201, "{body}");
    }
    let (status, _, body) = request_from("127.0.0.6", addr, "POST", "/api/games", &[], game).await;
    assert_eq!(status, 503, "{body}");
    assert!(body.contains("too-many-games"), "{body}");
    // A game that starts no longer waits: there is room for one more.
    let _t = Table::open(addr, &created[0], false).await;
    let (status, _, body) = request_from("127.0.0.7", addr, "POST", "/api/games", &[], game).await;
    assert_eq!(status, 201, "{body}");

    // The judge (each request logged) and the score-sheet check have their own quotas.
    let words = r#"{"words": ["QI"]}"#;
    for _ in 0..2 {
        let (status, _, body) =
            request_from("127.0.0.8", addr, "POST", "/api/judge", &[], words).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, _, body) = request_from("127.0.0.8", addr, "POST", "/api/judge", &[], words).await;
    assert_eq!(status, 429, "{body}");
    assert!(body.contains("adjudications a minute"), "{body}");
    let log = std::fs::read_to_string(dir.join("tilebag-judge.log")).unwrap();
    assert_eq!(
        log.lines().count(),
        2,
        "only the judged requests are logged: {log}"
    );
    let sheet = r##"{"gcg": "#player1 a Ann\n#player2 b Bob\n>a: QI 8G QI +11 11\n"}"##;
    for _ in 0..2 {
        let (status, _, body) =
            request_from("127.0.0.8", addr, "POST", "/api/gcg/verify", &[], sheet).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, _, body) =
        request_from("127.0.0.8", addr, "POST", "/api/gcg/verify", &[], sheet).await;
    assert_eq!(status, 429, "{body}");
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn games_nobody_starts_expire_and_stay_expired_across_a_restart() {
    let dir = temp_dir("expiry");
    let db = dir.join("t.db");
    let mut cfg = config(db.to_str().unwrap(), &[]);
    cfg.quotas.unjoined_expiry = Duration::from_millis(800);
    cfg.quotas.max_waiting_games = 3;
    let server = tilebag_server::start(cfg.clone()).await.unwrap();
    let addr = server.addr();
    let alone = create(addr, json!({"players": ["Ann", "Bob"]})).await;
    let played = create(addr, json!({"players": ["Cy", "Di"]})).await;
    let half = create(addr, json!({"players": ["Ed", "Flo"]})).await;
    let mut table = Table::open(addr, &played, false).await;
    // One seat of the third came, the other never did.
    let mut lonely = WsClient::connect(addr, half["seats"][0]["ws"].as_str().unwrap())
        .await
        .unwrap();
    let m = lonely.recv_timeout(WAIT).await.unwrap().unwrap();
    assert_eq!(m["view"]["started"], false);

    // The lonely seat is told, and closed.
    let e = lonely
        .recv_until(WAIT, "the expiry", |m| m["type"] == "error")
        .await
        .unwrap();
    assert_eq!(e["code"], "expired", "{e}");
    assert!(lonely.recv_timeout(WAIT).await.unwrap().is_none());
    assert_eq!(lonely.closed.as_ref().map(|c| c.0), Some(1000));
    tokio::time::sleep(Duration::from_millis(300)).await;
    for g in [&alone, &half] {
        let id = g["id"].as_str().unwrap();
        let r = http(addr, "GET", &format!("/api/games/{id}"), None)
            .await
            .unwrap();
        assert_eq!(r.status, 410, "{}", r.text());
        assert_eq!(r.json().unwrap()["code"], "expired");
        assert!(
            WsClient::connect(addr, g["seats"][1]["ws"].as_str().unwrap())
                .await
                .is_err(),
            "an expired game's seat link opens nothing"
        );
    }
    // The started game is untouched.
    table.ok(0, json!({"type": "pass"})).await;
    let list = http(addr, "GET", "/api/games", None)
        .await
        .unwrap()
        .json()
        .unwrap();
    let status = |g: &serde_json::Value| {
        list["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|x| x["id"] == g["id"])
            .unwrap()["status"]
            .clone()
    };
    assert_eq!(status(&alone), "expired");
    assert_eq!(status(&half), "expired");
    assert_eq!(status(&played), "live");
    // The expired games no longer count as waiting: three fit again under the cap of 3, the
    // last of which expires while the server is down, and is expired when it comes back.
    for _ in 0..2 {
        create(addr, json!({"players": ["G", "H"]})).await;
    }
    let late = create(addr, json!({"players": ["Ivy", "Jo"]})).await;
    drop(table);
    server.shutdown().await;
    let _ = late;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let server = tilebag_server::start(cfg).await.unwrap();
    let addr = server.addr();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let id = late["id"].as_str().unwrap();
    let r = http(addr, "GET", &format!("/api/games/{id}"), None)
        .await
        .unwrap();
    assert_eq!(r.status, 410, "{}", r.text());
    let r = http(
        addr,
        "GET",
        &format!("/api/games/{}", played["id"].as_str().unwrap()),
        None,
    )
    .await
    .unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_answer_carries_the_security_headers() {
    let dir = temp_dir("headers");
    let db = dir.join("t.db");
    let server = tilebag_server::start(config(db.to_str().unwrap(), &[]))
        .await
        .unwrap();
    let addr = server.addr();
    for path in [
        "/",
        "/games/abc",
        "/assets/game.js",
        "/api/health",
        "/td",
        "/nowhere",
    ] {
        let r = http(addr, "GET", path, None).await.unwrap();
        let csp = r.header("content-security-policy").unwrap_or_default();
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert!(csp.contains("script-src 'self'"), "{path}: {csp}");
        assert!(!csp.contains("'unsafe-eval'"), "{path}: {csp}");
        assert_eq!(
            r.header("x-content-type-options"),
            Some("nosniff"),
            "{path}"
        );
        assert_eq!(r.header("x-frame-options"), Some("DENY"), "{path}");
        assert_eq!(r.header("referrer-policy"), Some("same-origin"), "{path}");
    }
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}
