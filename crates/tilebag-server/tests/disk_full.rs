//! SQLite on a full disk: the server refuses what it cannot store (a move, a new game, a
//! director's action) as `unavailable` (503), stops the clocks, says "not ok" on `/api/health`,
//! and goes on by itself once the disk has room again; nothing acknowledged is lost, nothing is
//! stored twice, the process never stops.
//!
//! The full disk is real to SQLite: the test lowers this process's file-size limit
//! (`RLIMIT_FSIZE`) to the size the database's write-ahead log has, so the kernel refuses to let
//! the log grow, as a full disk does (`EFBIG` where a full disk gives `ENOSPC`; both fail the
//! write). Unlike file permissions, the limit holds for root too, so it works in CI. It applies
//! to the whole process, which is why this test has a binary of its own (Unix only).

#![cfg(unix)]

mod common;

use common::*;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;
use tilebag_core::bag::Rng;
use tilebag_server::bench::choose_action;
use tilebag_server::client::{http, post_json, request, HttpResponse};

/// Set the soft limit on the size of files this process writes (`None`: as before).
fn file_size_limit(bytes: Option<u64>) {
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: plain system calls on a struct we own.
    unsafe {
        assert_eq!(libc::getrlimit(libc::RLIMIT_FSIZE, &mut lim), 0);
        lim.rlim_cur = bytes.map_or(lim.rlim_max, |b| b as libc::rlim_t);
        assert_eq!(libc::setrlimit(libc::RLIMIT_FSIZE, &lim), 0);
    }
}

const KEY: &str = "disk-full-director-key";

async fn form(addr: SocketAddr, path: &str, cookie: &str, body: &str) -> HttpResponse {
    request(
        addr,
        "POST",
        path,
        &[("Cookie", cookie)],
        Some(("application/x-www-form-urlencoded", body.as_bytes())),
    )
    .await
    .unwrap()
}

/// The text between `start` and the next `end` after it.
fn between<'a>(text: &'a str, start: &str, end: &str) -> &'a str {
    let i = text
        .find(start)
        .unwrap_or_else(|| panic!("{start}: {text}"))
        + start.len();
    let j = text[i..].find(end).unwrap() + i;
    &text[i..j]
}

/// An event with one division of two players, round 1 paired and started online: the game's
/// id and seat tokens.
async fn online_game(addr: SocketAddr, cookie: &str) -> (String, [String; 2]) {
    for (path, body) in [
        ("/td/new", "id=club&name=Club"),
        (
            "/td/club/division",
            "name=A&preset=naspa-2013&schedule=RR%3A1&seed=5",
        ),
        ("/td/club/d/A/player", "name=Ann&rating=1500"),
        ("/td/club/d/A/player", "name=Bob&rating=1400"),
    ] {
        let r = form(addr, path, cookie, body).await;
        assert_eq!(r.status, 303, "{path}: {}", r.text());
    }
    let get = |p: String| async move {
        request(addr, "GET", &p, &[("Cookie", cookie)], None)
            .await
            .unwrap()
            .text()
    };
    let preview = get("/td/club/d/A/pair?round=1".into()).await;
    let version = between(&preview, "name=\"version\" value=\"", "\"").to_string();
    let r = form(
        addr,
        "/td/club/d/A/pair",
        cookie,
        &format!("round=1&method=&based_on=&version={version}"),
    )
    .await;
    assert_eq!(r.status, 303);
    let r = form(addr, "/td/club/d/A/online", cookie, "round=1").await;
    assert_eq!(r.status, 303);
    let page = get("/td/club/d/A?round=1".into()).await;
    let id = between(&page, "<a href=\"/games/", "\"").to_string();
    let t0 = between(&page, &format!("/games/{id}?token="), "\"").to_string();
    let rest = &page[page.find(&t0).unwrap() + t0.len()..];
    let t1 = between(rest, &format!("/games/{id}?token="), "\"").to_string();
    (id, [t0, t1])
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_full_disk_refuses_then_recovers() {
    // A write past the limit raises SIGXFSZ, which would end the process: the write must fail
    // instead, as on a full disk.
    // SAFETY: ignoring a signal.
    unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
    }
    let dir = temp_dir("disk-full");
    let db = dir.join("t.db");
    let mut cfg = config(db.to_str().unwrap(), &[]);
    cfg.checkpoint_every = Duration::from_millis(100);
    cfg.director_key = Some(KEY.into());
    let server = tilebag_server::start(cfg.clone()).await.unwrap();
    let addr = server.addr();
    let r = form(addr, "/td/login", "", &format!("key={KEY}")).await;
    let cookie = r
        .header("set-cookie")
        .unwrap()
        .split(';')
        .next()
        .unwrap()
        .to_string();
    let (id, tokens) = online_game(addr, &cookie).await;
    let created = json!({
        "id": id,
        "seats": [
            {"ws": format!("/api/games/{id}/ws?token={}", tokens[0])},
            {"ws": format!("/api/games/{id}/ws?token={}", tokens[1])},
        ],
        "observer_ws": format!("/api/games/{id}/ws"),
    });
    let mut t = Table::open(addr, &created, true).await;
    let mut rng = Rng::new(9);
    let mut next = |t: &Table| {
        (0..2)
            .find_map(|s| choose_action(t.view(s), &mut rng, 3).map(|a| (s, a)))
            .expect("someone can act")
    };
    for _ in 0..6 {
        let (s, a) = next(&t);
        t.ok(s, a).await;
    }
    let seq = t.view(0)["seq"].as_u64().unwrap();

    // The disk is full: the log may not grow.
    let wal = std::fs::metadata(dir.join("t.db-wal"))
        .expect("WAL mode keeps a -wal file")
        .len();
    file_size_limit(Some(wal));
    let (s, a) = next(&t);
    let r = t.act(s, a.clone()).await;
    assert_eq!(r["type"], "error", "{r}");
    assert_eq!(r["code"], "unavailable", "{r}");
    let msg = r["message"].as_str().unwrap();
    assert!(
        msg.contains("database is down") && msg.contains("SQLite"),
        "{msg}"
    );
    let observer = t.observer.as_mut().unwrap();
    while observer.view()["database_down"] != true {
        observer.next().await;
    }
    assert_eq!(observer.view()["clocks"]["running"], Value::Null);
    assert_eq!(observer.view()["seq"].as_u64().unwrap(), seq);
    let held = observer.view()["clocks"]["remaining_ms"].clone();

    let r = post_json(addr, "/api/games", &json!({"players": ["Kim", "Lee"]}))
        .await
        .unwrap();
    assert_eq!(r.status, 503, "{}", r.text());
    assert_eq!(r.json().unwrap()["code"], "unavailable");
    let r = form(
        addr,
        "/td/club/d/A/game",
        &cookie,
        &format!("game={id}&do=pause"),
    )
    .await;
    assert_eq!(
        r.status,
        503,
        "the director's action is refused: {}",
        r.text()
    );
    assert!(r.text().contains("database is down"), "{}", r.text());
    let h = http(addr, "GET", "/api/health", None).await.unwrap();
    assert_eq!(h.status, 503, "{}", h.text());
    let hv: Value = h.json().unwrap();
    assert_eq!(hv["ok"], false, "{hv}");
    assert_eq!(hv["database"]["kind"], "sqlite", "{hv}");
    assert!(
        hv["database"]["error"].as_str().unwrap().contains("SQLite"),
        "{hv}"
    );
    assert_eq!(
        http(addr, "GET", "/api/live", None).await.unwrap().status,
        200
    );
    // No clock runs meanwhile (WESPA 4.1(f)).
    tokio::time::sleep(Duration::from_millis(1000)).await;
    let v = http(addr, "GET", &format!("/api/games/{id}"), None)
        .await
        .unwrap()
        .json()
        .unwrap();
    assert_eq!(v["clocks"]["remaining_ms"], held, "{v}");
    assert_eq!(v["database_down"], true, "{v}");

    // Room again: the server notices by itself and play goes on.
    file_size_limit(None);
    let observer = t.observer.as_mut().unwrap();
    while observer.view()["database_down"] != false {
        observer.next().await;
    }
    assert!(observer.view()["clocks"]["running"].is_u64());
    assert_eq!(
        http(addr, "GET", "/api/health", None).await.unwrap().status,
        200
    );
    t.ok(s, a).await;
    t.autoplay(31, 4, Duration::ZERO, 400).await;
    let end = t.view(0).clone();
    verify_gcg(&t.gcg().await, final_scores(&end));
    let n = end["seq"].as_u64().unwrap() as i64;
    server.kill();

    // What was acknowledged is in the file, once each, with no gap.
    let conn = rusqlite::Connection::open(&db).unwrap();
    let seqs: Vec<i64> = conn
        .prepare("SELECT seq FROM events WHERE game_id = ?1 ORDER BY seq")
        .unwrap()
        .query_map([&id], |r| r.get(0))
        .unwrap()
        .collect::<Result<_, _>>()
        .unwrap();
    assert_eq!(seqs, (0..n).collect::<Vec<_>>());
    drop(conn);
    let server = tilebag_server::start(cfg).await.unwrap();
    let r = http(server.addr(), "GET", &format!("/api/games/{id}"), None)
        .await
        .unwrap();
    let v: Value = r.json().unwrap();
    assert_eq!(v["status"], "ended", "{v}");
    assert_eq!(final_scores(&v), final_scores(&end));
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}
