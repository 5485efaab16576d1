//! Issue 31, item 5: what an operator graphs. `GET /metrics` answers in Prometheus' text format,
//! only to the director key (as a collector sends it, `Authorization: Bearer KEY`) or a signed-in
//! director, and its figures follow what happens: games, sockets, actions, commit latency.

mod common;

use common::*;
use serde_json::json;

const KEY: &str = "common-test-director-key";

/// The value of the sample line `series VALUE`.
fn sample(page: &str, series: &str) -> f64 {
    page.lines()
        .find_map(|l| l.strip_prefix(series).and_then(|r| r.strip_prefix(' ')))
        .unwrap_or_else(|| panic!("no {series} in\n{page}"))
        .parse()
        .unwrap()
}

async fn metrics(addr: std::net::SocketAddr, headers: &[(&str, &str)]) -> (u16, String, String) {
    request_from("127.0.0.1", addr, "GET", "/metrics", headers, "").await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_operator_reads_the_figures_with_the_director_key_and_nobody_else_does() {
    let s = Served::start("ops-metrics", |db| config(db, &["CAT", "CATS"])).await;

    // Nobody without the key: not a guess, not another scheme.
    let (status, head, body) = metrics(s.addr, &[]).await;
    assert_eq!(status, 401, "{head}{body}");
    assert!(
        head.to_ascii_lowercase()
            .contains("www-authenticate: bearer"),
        "{head}"
    );
    assert!(body.contains("director key"), "{body}");
    let (status, _, body) = metrics(s.addr, &[("Authorization", "Bearer not-the-key")]).await;
    assert_eq!(status, 401, "{body}");
    assert!(!body.contains("tilebag_"), "{body}");
    let basic = format!("Basic {KEY}");
    let (status, _, _) = metrics(s.addr, &[("Authorization", &basic)]).await;
    assert_eq!(status, 401);

    // A game with both seats connected, and one move made.
    let created = create(s.addr, json!({"players": ["Ann", "Bo"]})).await;
    let mut table = Table::open(s.addr, &created, true).await;
    table.ok(0, json!({"type": "pass"})).await;

    let bearer = format!("Bearer {KEY}");
    let (status, head, page) = metrics(s.addr, &[("Authorization", &bearer)]).await;
    assert_eq!(status, 200, "{head}{page}");
    assert!(head.contains("text/plain; version=0.0.4"), "{head}");
    assert_eq!(sample(&page, "tilebag_games"), 1.0, "{page}");
    assert_eq!(sample(&page, "tilebag_games_created_total"), 1.0, "{page}");
    // Two seats and a watcher.
    assert_eq!(sample(&page, "tilebag_sockets"), 3.0, "{page}");
    // Those three and this request, at least.
    assert!(sample(&page, "tilebag_connections") >= 4.0, "{page}");
    assert_eq!(sample(&page, "tilebag_actions_total"), 1.0, "{page}");
    assert_eq!(sample(&page, "tilebag_commit_seconds_count"), 1.0, "{page}");
    assert_eq!(
        sample(&page, "tilebag_commit_failures_total"),
        0.0,
        "{page}"
    );
    assert_eq!(sample(&page, "tilebag_database_up"), 1.0, "{page}");

    // The watcher leaves; the socket count follows.
    let watcher = table.observer.take().unwrap();
    drop(watcher);
    let mut sockets = 3.0;
    for _ in 0..100 {
        let (_, _, page) = metrics(s.addr, &[("Authorization", &bearer)]).await;
        sockets = sample(&page, "tilebag_sockets");
        if sockets == 2.0 {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(sockets, 2.0);

    // A director signed in to /td opens it in the browser.
    let cookie = sign_in_as_director(s.addr).await;
    let (status, _, page) = metrics(s.addr, &[("Cookie", &cookie)]).await;
    assert_eq!(status, 200);
    assert_eq!(sample(&page, "tilebag_actions_total"), 1.0, "{page}");
    s.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn guessing_the_key_at_metrics_is_throttled_like_the_sign_in() {
    let s = Served::start("ops-guess", |db| config(db, &["CAT"])).await;
    let mut statuses = Vec::new();
    for i in 0..20 {
        let guess = format!("Bearer guess-{i}");
        let (status, _, _) = metrics(s.addr, &[("Authorization", &guess)]).await;
        statuses.push(status);
    }
    assert!(statuses.contains(&429), "{statuses:?}");
    // Once throttled, even the right key waits (its check is the same door).
    let bearer = format!("Bearer {KEY}");
    let (status, _, _) = metrics(s.addr, &[("Authorization", &bearer)]).await;
    assert_eq!(status, 429);
    s.stop().await;
}
