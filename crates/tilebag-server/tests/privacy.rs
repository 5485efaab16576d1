//! Privacy: every message sent to an observer and to each seat across full games is recorded
//! and checked. No hidden tile ever appears: an observer never gets a rack, a seat never gets the
//! opponent's rack or exchanged tiles while the game is on, nobody gets the bag's order (the
//! unseen tiles a seat gets are exactly what it can work out itself), and no field serialises
//! the bag.

mod common;

use common::*;
use serde_json::{json, Value};
use std::collections::{BTreeMap, HashMap};
use std::time::Duration;
use tilebag_core::gcg::parse_gcg;
use tilebag_core::TileSet;
use tilebag_server::client::http;

fn keys(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                out.push(k.clone());
                keys(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| keys(x, out)),
        _ => {}
    }
}

/// Tiles as a multiset (a blank is `?`, also for a blank on the board).
fn census(s: &str) -> BTreeMap<char, i32> {
    let mut m = BTreeMap::new();
    for c in s.chars() {
        let c = if c.is_lowercase() { '?' } else { c };
        *m.entry(c).or_insert(0) += 1;
    }
    m
}

/// What a seat can work out itself: the whole set, less the board and its own rack.
fn derivable_unseen(view: &Value) -> BTreeMap<char, i32> {
    let set = TileSet::english();
    let mut all = census(&set.tiles_to_string(&set.all_tiles()));
    let board: String = view["board"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r.as_str().unwrap().replace('.', ""))
        .collect();
    for (c, n) in census(&board)
        .into_iter()
        .chain(census(view["rack"].as_str().unwrap()))
    {
        *all.get_mut(&c).unwrap() -= n;
    }
    all.retain(|_, n| *n != 0);
    all
}

fn is_sorted_tiles(s: &str) -> bool {
    // Letters in order, blanks last (never the bag's order).
    let key = |c: char| if c == '?' { 27 } else { c as u32 - 'A' as u32 };
    s.chars()
        .zip(s.chars().skip(1))
        .all(|(a, b)| key(a) <= key(b))
}

fn check_no_bag_field(msg: &Value, who: &str) {
    let mut ks = Vec::new();
    keys(msg, &mut ks);
    for k in &ks {
        let k = k.to_lowercase();
        assert!(
            !k.contains("bag") || k == "bag_count",
            "{who} got a field {k:?}: {msg}"
        );
        assert!(!k.contains("order") && !k.contains("draw"), "{who}: {k:?}");
    }
}

fn check_observer(msgs: &[String]) {
    assert!(!msgs.is_empty());
    for raw in msgs {
        let msg: Value = serde_json::from_str(raw).unwrap();
        check_no_bag_field(&msg, "observer");
        let mut ks = Vec::new();
        keys(&msg, &mut ks);
        for k in &ks {
            assert!(
                // `end_rack` is the end-of-game rule's name, not anybody's tiles.
                !(k.contains("rack") && k != "rack_count" && k != "end_rack") && k != "unseen",
                "observer got {k:?}: {raw}"
            );
        }
        if msg["type"] == "state" {
            let v = &msg["view"];
            assert_eq!(v["audience"], "observer");
            for line in v["history"].as_array().unwrap() {
                if line["type"] == "exchange" {
                    assert!(
                        line.get("tiles").is_none(),
                        "observer saw exchanged tiles: {line}"
                    );
                }
            }
        }
    }
}

fn check_seat(seat: usize, mine: &[String], theirs: &[String]) {
    // The opponent's rack at each point of the log, as the opponent saw it.
    let mut opp_rack: HashMap<u64, String> = HashMap::new();
    for raw in theirs {
        let m: Value = serde_json::from_str(raw).unwrap();
        if m["type"] == "state" {
            let v = &m["view"];
            opp_rack.insert(
                v["seq"].as_u64().unwrap(),
                v["rack"].as_str().unwrap().into(),
            );
        }
    }
    let mut states = 0;
    for raw in mine {
        let msg: Value = serde_json::from_str(raw).unwrap();
        check_no_bag_field(&msg, "seat");
        if msg["type"] != "state" {
            let mut ks = Vec::new();
            keys(&msg, &mut ks);
            assert!(ks.iter().all(|k| !k.contains("rack")), "{raw}");
            continue;
        }
        states += 1;
        let v = &msg["view"];
        assert_eq!(v["audience"], "seat");
        assert_eq!(v["seat"], seat);
        let over = v["phase"]["type"] == "ended";
        let unseen = v["unseen"].as_str().unwrap();
        if v["started"] == false {
            // NASPA III.F, WESPA 2.2: before the game starts a seat sees no tile at all.
            assert_eq!(v["rack"], "", "a rack before the start: {raw}");
            assert_eq!(unseen, "", "unseen tiles before the start: {raw}");
            continue;
        }
        assert!(is_sorted_tiles(unseen), "unseen is not sorted: {unseen}");
        assert_eq!(
            census(unseen),
            derivable_unseen(v),
            "unseen tells more than the seat knows"
        );
        assert_eq!(
            v["players"][1 - seat]["rack_count"].as_u64().unwrap() as usize
                + v["bag_count"].as_u64().unwrap() as usize,
            unseen.len()
        );
        if over {
            continue;
        }
        for line in v["history"].as_array().unwrap() {
            if line["seat"] != seat {
                assert!(
                    line.get("rack").is_none(),
                    "seat {seat} saw the opponent's rack: {line}"
                );
                if line["type"] == "exchange" {
                    assert!(
                        line.get("tiles").is_none(),
                        "seat {seat} saw exchanged tiles: {line}"
                    );
                }
            }
        }
        let seq = v["seq"].as_u64().unwrap();
        if let Some(r) = opp_rack.get(&seq) {
            if !r.is_empty() && r != v["rack"].as_str().unwrap() {
                let mut found = Vec::new();
                find_rack_values(&msg, &mut found);
                assert!(
                    !found.iter().any(|x| x == r),
                    "seat {seat} got the opponent's rack {r} at seq {seq}: {raw}"
                );
            }
        }
    }
    assert!(states > 10, "a full game sends many views");
}

fn find_rack_values(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                if k.contains("rack") {
                    if let Some(s) = x.as_str() {
                        out.push(s.to_string());
                    }
                }
                find_rack_values(x, out);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| find_rack_values(x, out)),
        _ => {}
    }
}

async fn recorded_game(preset: &str, seed: u64) {
    let dir = temp_dir("privacy");
    let db = dir.join("t.db");
    let server = tilebag_server::start(config(db.to_str().unwrap(), &[]))
        .await
        .unwrap();
    let addr = server.addr();
    let created = create(
        addr,
        json!({"preset": preset, "players": ["Ivy", "Jo"], "seed": seed}),
    )
    .await;
    let mut t = Table::open(addr, &created, true).await;
    // An exchange (hidden tiles), a phony challenged off (the rack before it comes back), then a
    // full game.
    let rack: String = t.view(0)["rack"]
        .as_str()
        .unwrap()
        .chars()
        .take(3)
        .collect();
    t.ok(0, json!({"type": "exchange", "tiles": rack})).await;
    let mut rng = tilebag_core::bag::Rng::new(seed);
    let a = tilebag_server::bench::choose_action(t.view(1), &mut rng, 3).unwrap();
    assert_eq!(a["type"], "play");
    t.ok(1, a).await;
    t.ok(0, json!({"type": "challenge"})).await;

    // Mid-game, the public endpoints show no rack either.
    let doc = t.get().await;
    let mut ks = Vec::new();
    keys(&doc, &mut ks);
    assert!(
        // `end_rack` names the end-of-game rule (a ruleset field), not anybody's tiles.
        ks.iter()
            .all(|k| k == "rack_count" || k == "end_rack" || !k.contains("rack")),
        "{doc}"
    );
    let gcg = t.gcg().await;
    let rec = parse_gcg(gcg.as_bytes()).unwrap();
    assert!(rec.incomplete);
    assert!(rec.events.iter().all(|e| e.rack.is_none()), "{gcg}");
    assert_eq!(rec.last_racks, [None, None]);
    assert!(
        !gcg.contains(&format!("-{rack}")),
        "exchanged tiles in a live GCG: {gcg}"
    );
    let list = http(addr, "GET", "/api/games", None).await.unwrap().text();
    assert!(
        !list.contains("rack\"") && !list.contains("token"),
        "{list}"
    );

    t.autoplay(seed, 4, Duration::ZERO, 400).await;
    let obs = t.observer.as_ref().unwrap().ws.raw.clone();
    let s0 = t.seats[0].ws.raw.clone();
    let s1 = t.seats[1].ws.raw.clone();
    check_observer(&obs);
    check_seat(0, &s0, &s1);
    check_seat(1, &s1, &s0);
    // A finished game reveals the racks to the seats, as the score sheet does.
    let end = t.view(0).clone();
    assert!(end["history"]
        .as_array()
        .unwrap()
        .iter()
        .any(|l| l["seat"] == 1 && l.get("rack").is_some()));
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_hidden_tile_reaches_an_observer_or_the_opponent_naspa() {
    recorded_game("naspa-2013", 4).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_hidden_tile_reaches_an_observer_or_the_opponent_wespa() {
    recorded_game("wespa-2010", 5).await;
}
