//! Games with no event behind them (the lobby's casual games), and the live score of a tentative
//! play, through the WebSocket API:
//! - `call-director` is refused in a casual game (nobody could restart the clocks: the game would
//!   be frozen for ever), with a clear error, and the view says no director is on hand;
//! - `preview` scores a tentative play with the game's own rules (the score equals the score the
//!   same play then gets), judges no word, changes nothing, and has its own rate limit.

mod common;

use common::{config, create, temp_dir, Table};
use serde_json::{json, Value};
use std::time::Duration;

async fn start(name: &str) -> (tilebag_server::RunningServer, std::path::PathBuf) {
    let dir = temp_dir(name);
    let db = dir.join("t.db");
    // `CAT` is a word; `CTA` is not.
    let server = tilebag_server::start(config(db.to_str().unwrap(), &["CAT", "AT", "TA"]))
        .await
        .unwrap();
    (server, dir)
}

/// Read `conn`'s messages until the one answering `id`.
async fn answer(t: &mut Table, seat: usize, id: &str) -> Value {
    loop {
        let m = t.seats[seat].next().await;
        if m["id"] == json!(id) {
            return m;
        }
    }
}

#[tokio::test]
async fn call_director_is_refused_in_a_casual_game() {
    let (server, _dir) = start("casual-director").await;
    let created = create(server.addr(), json!({"players": ["Ann", "Ben"], "seed": 7})).await;
    let mut t = Table::open(server.addr(), &created, true).await;
    // The view says so, to every audience: the page offers no "Call director" button.
    assert_eq!(t.view(0)["director"], false, "{}", t.view(0));
    assert_eq!(t.observer.as_ref().unwrap().view()["director"], false);
    let seq = t.view(0)["seq"].as_u64().unwrap();
    let r = t.act(1, json!({"type": "call-director"})).await;
    assert_eq!(r["type"], "error", "{r}");
    assert_eq!(r["code"], "not-allowed", "{r}");
    let msg = r["message"].as_str().unwrap();
    assert!(
        msg.contains("no event") && msg.contains("director"),
        "{msg}"
    );
    // Nothing changed: no pause, the clock still runs, the game goes on.
    t.seats[0].drain().await;
    let v = t.view(0);
    assert!(v["paused"].is_null(), "{v}");
    assert_eq!(v["seq"].as_u64().unwrap(), seq);
    assert_eq!(v["clocks"]["running"], 0, "{v}");
    t.ok(0, json!({"type": "pass"})).await;
    server.shutdown().await;
}

#[tokio::test]
async fn preview_scores_by_the_rules_and_reveals_nothing() {
    let (server, _dir) = start("casual-preview").await;
    let created = create(
        server.addr(),
        json!({"players": ["Ann", "Ben"], "seed": 11}),
    )
    .await;
    let mut t = Table::open(server.addr(), &created, false).await;
    let rack: Vec<char> = t.view(0)["rack"]
        .as_str()
        .unwrap()
        .chars()
        .filter(|&c| c != '?')
        .collect();
    // Three letters of the rack across from H8: very likely not a word of the lexicon, and the
    // preview must not say so either way.
    let word: String = rack[..3].iter().collect();
    t.seats[0]
        .ws
        .send_json(&json!({"type": "preview", "id": "p1", "position": "8H", "word": word}))
        .await
        .unwrap();
    let p = answer(&mut t, 0, "p1").await;
    assert_eq!(p["type"], "preview", "{p}");
    assert_eq!(p["position"], "8H");
    assert_eq!(p["words"][0]["word"], word.as_str(), "{p}");
    // The answer holds the words and scores only: nothing about validity, racks or the bag.
    let keys: Vec<&str> = p.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(
        {
            let mut k = keys.clone();
            k.sort();
            k
        },
        vec!["bingo", "id", "position", "score", "type", "words"],
        "{p}"
    );
    // Nothing changed.
    assert_eq!(t.view(0)["seq"], 0);
    // The same tiles, played: the score the server gives equals the preview's (one rule).
    let ack = t
        .ok(0, json!({"type": "play", "position": "8H", "word": word}))
        .await;
    let played = ack["effects"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["type"] == "played")
        .unwrap()["score"]
        .clone();
    assert_eq!(played, p["score"], "{ack} vs {p}");
    // Worked example (NASPA scoring, the standard board): the three tiles on H8-J8 are on plain
    // squares except H8, the centre's double word: (a + b + c) x 2.
    let set = tilebag_core::TileSet::english();
    let values: i64 = rack[..3]
        .iter()
        .map(|c| i64::from(set.tiles_value(&set.parse_tiles(&c.to_string()).unwrap())))
        .sum();
    assert_eq!(p["score"], json!(values * 2), "{p}");

    // A placement the rules refuse is an error naming the problem, not a score.
    t.seats[1]
        .ws
        .send_json(&json!({"type": "preview", "id": "p2", "position": "1A", "word": "CAT"}))
        .await
        .unwrap();
    let e = answer(&mut t, 1, "p2").await;
    assert_eq!(e["type"], "error", "{e}");
    assert_eq!(e["code"], "illegal-play", "{e}");

    // Previews have their own budget: a burst past it is refused, and the connection stays.
    for i in 0..20 {
        t.seats[1]
            .ws
            .send_json(
                &json!({"type": "preview", "id": format!("r{i}"), "position": "H7", "word": "C.T"}),
            )
            .await
            .unwrap();
    }
    // (A refusal is sent at once; a score comes from the game's task: the order differs.)
    let mut limited = 0;
    let mut scored = 0;
    while limited + scored < 20 {
        let m = t.seats[1].next().await;
        if !m["id"].as_str().is_some_and(|id| id.starts_with('r')) {
            continue;
        }
        match m["type"].as_str() {
            Some("preview") => scored += 1,
            Some("error") if m["code"] == "rate-limited" => limited += 1,
            _ => panic!("{m}"),
        }
    }
    // The burst is 8 previews, one of which `p2` used (plus at most one refilled meanwhile).
    assert!(
        (7..=8).contains(&scored) && limited == 20 - scored,
        "{scored} scored, {limited} limited"
    );
    tokio::time::sleep(Duration::from_millis(600)).await;
    t.ok(1, json!({"type": "pass"})).await;
    server.shutdown().await;
}
