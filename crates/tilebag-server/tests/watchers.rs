//! Issue 25, item 4: watching needs no token and game ids are public, so anyone can open
//! thousands of spectator connections on one game. The players must not notice: 2,000 watchers
//! on one game while its players play, and the players' acknowledgements stay under 50 ms at the
//! 99th percentile. Every watcher still ends with the game's latest view. (Before: 6,000
//! watchers slowed acknowledgements from a few ms to 726 ms.)
//!
//! Alone in its test binary: it measures time, and the watchers are this process's own clients.

mod common;

use common::*;
use serde_json::json;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};
use tilebag_core::bag::Rng;
use tilebag_server::bench::choose_action;
use tilebag_server::client::WsClient;

const WATCHERS: usize = 2000;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_thousand_watchers_do_not_slow_the_players_acknowledgements() {
    // Each watcher is two descriptors here (its client and the server's end).
    let fds = tilebag_server::raise_fd_limit().unwrap_or(u64::MAX);
    if fds < (2 * WATCHERS + 512) as u64 {
        eprintln!("skipping: the open-file limit ({fds}) is too low for {WATCHERS} watchers");
        return;
    }
    // The database in memory where the system offers it (tmpfs): what is measured is the
    // fan-out to the watchers, not the disk's flushes (tens of ms on a busy disk, watched or not).
    let shm = std::path::Path::new("/dev/shm");
    let dir = if shm.is_dir() {
        let d = shm.join(format!(
            "tilebag-watchers-{}-{}",
            std::process::id(),
            random_tag()
        ));
        std::fs::create_dir_all(&d).unwrap();
        d
    } else {
        temp_dir("watchers")
    };
    let mut cfg = config(dir.join("t.db").to_str().unwrap(), &[]);
    // Every watcher comes from this machine's one address.
    cfg.net.max_connections_per_address = 0;
    let server = tilebag_server::start(cfg).await.unwrap();
    let addr = server.addr();
    // Three games in turn, for enough acknowledgements that the 99th percentile means something.
    let mut acks = Vec::new();
    for seed in [11, 12, 13] {
        play_watched_game(addr, seed, &mut acks).await;
    }
    acks.sort_by(|a, b| a.total_cmp(b));
    let p = |q: f64| acks[((acks.len() as f64 - 1.0) * q).round() as usize];
    eprintln!(
        "{} acknowledgements with {WATCHERS} watchers: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        acks.len(),
        p(0.5),
        p(0.99),
        p(1.0),
    );
    assert!(acks.len() >= 60, "only {} moves were played", acks.len());
    assert!(p(0.99) < 50.0, "p99 {:.1} ms", p(0.99));
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// One game played to its end with 2,000 watchers: each acknowledgement's time goes to `acks`;
/// every watcher must end with the game's last view.
async fn play_watched_game(addr: std::net::SocketAddr, seed: u64, acks: &mut Vec<f64>) {
    let created = create(addr, json!({"players": ["Ann", "Bob"], "seed": seed})).await;
    let mut table = Table::open(addr, &created, false).await;

    // The watchers read everything they are sent and keep the last message.
    let received = Arc::new(AtomicUsize::new(0));
    let mut last = Vec::new();
    let mut readers = Vec::new();
    let t0 = Instant::now();
    for _ in 0..WATCHERS {
        let mut w = WsClient::connect(addr, created["observer_ws"].as_str().unwrap())
            .await
            .unwrap();
        w.keep = false;
        let seen = Arc::new(AtomicU64::new(0));
        let (received, seen2) = (received.clone(), seen.clone());
        readers.push(tokio::spawn(async move {
            while let Ok(Some(text)) = w.recv_text().await {
                received.fetch_add(1, Ordering::Relaxed);
                // The view's `seq` without parsing the whole message.
                if let Some(seq) = text
                    .split("\"seq\":")
                    .nth(1)
                    .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
                    .and_then(|n| n.parse().ok())
                {
                    seen2.fetch_max(seq, Ordering::Relaxed);
                }
            }
        }));
        last.push(seen);
    }
    let connected = t0.elapsed().as_secs_f64();

    // The players play random legal moves; each action's acknowledgement is timed.
    let mut rng = Rng::new(seed);
    let mut n = 0;
    while table.view(0)["phase"]["type"] != "ended" {
        for c in table.seats.iter_mut() {
            c.drain().await;
        }
        let Some((seat, mut action)) =
            (0..2).find_map(|s| choose_action(table.view(s), &mut rng, 3).map(|a| (s, a)))
        else {
            let _ = tokio::time::timeout(Duration::from_millis(200), table.seats[0].next()).await;
            continue;
        };
        n += 1;
        let id = format!("w{n}");
        action["id"] = json!(id);
        let sent = Instant::now();
        table.seats[seat].ws.send_json(&action).await.unwrap();
        let reply = loop {
            let m = table.seats[seat].next().await;
            if (m["type"] == "ack" || m["type"] == "error") && m["id"] == json!(id) {
                break m;
            }
        };
        if reply["type"] == "ack" {
            acks.push(sent.elapsed().as_secs_f64() * 1000.0);

            table.wait_all(reply["seq"].as_u64().unwrap()).await;
        }
        // A person takes a moment between moves.
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let final_seq = table.view(0)["seq"].as_u64().unwrap();
    // Watchers take the latest view within a quarter of a second of a change.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let up_to_date = last
        .iter()
        .filter(|s| s.load(Ordering::Relaxed) == final_seq)
        .count();
    eprintln!(
        "game {seed}: {WATCHERS} watchers connected in {connected:.1} s, {} messages to them; \
         {up_to_date} show the last view (seq {final_seq})",
        received.load(Ordering::Relaxed)
    );
    assert_eq!(
        up_to_date, WATCHERS,
        "every watcher ends with the latest view"
    );
    for r in readers {
        r.abort();
    }
}
