//! Complete games over two real WebSocket clients, under three presets; each game's downloaded
//! GCG must verify (parse, replay, complete, same final scores).

mod common;

use common::*;
use serde_json::json;
use std::time::Duration;
use tilebag_core::gcg::GcgEventKind;
use tilebag_core::{Game, Ruleset};
use tilebag_server::client::post_json;

/// A seed whose two opening racks each hold two letters (not blanks), different pairs, and the
/// pairs: seat 0's, seat 1's.
fn opening_pairs(preset: &str) -> (u64, String, String) {
    for seed in 1.. {
        let g = Game::new(Ruleset::preset(preset).unwrap(), seed);
        let set = g.tile_set();
        let pair = |s: usize| -> String {
            set.tiles_to_string(g.rack(s))
                .chars()
                .filter(|&c| c != '?')
                .take(2)
                .collect()
        };
        let (a, b) = (pair(0), pair(1));
        if a.len() == 2 && b.len() == 2 && a != b {
            return (seed, a, b);
        }
    }
    unreachable!()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn naspa_game_with_a_withdrawn_phony_and_a_lost_double_challenge() {
    let (seed, phony, word) = opening_pairs("naspa-2013");
    // The lexicon knows seat 1's opening word only: seat 0's opening is a phony.
    let served = Served::start("naspa", |db| config(db, &[&word])).await;
    let addr = served.addr;
    let created = create(
        addr,
        json!({"preset": "naspa-2013", "players": ["Ann Able", "Bob Baker"], "seed": seed}),
    )
    .await;
    let mut t = Table::open(addr, &created, true).await;
    let rack0 = t.view(0)["rack"].as_str().unwrap().to_string();

    // Seat 0 plays a phony; seat 1 challenges it off the board (NASPA IV.J.1.k).
    let ack = t
        .ok(0, json!({"type": "play", "position": "8H", "word": phony}))
        .await;
    assert_eq!(effect_types(&ack), ["played"]);
    assert_eq!(t.view(1)["phase"]["type"], "play-pending");
    assert_eq!(t.view(1)["phase"]["play"]["words"], json!([phony]));
    let ack = t
        .ok(1, json!({"type": "challenge", "words": [phony]}))
        .await;
    assert_eq!(
        ack["effects"][0],
        json!({"type": "verdict", "acceptable": false})
    );
    assert!(effect_types(&ack).contains(&"withdrawn".to_string()));
    let v0 = t.view(0).clone();
    assert_eq!(
        v0["rack"],
        json!(rack0),
        "the phony's tiles are back on the rack"
    );
    assert_eq!(v0["players"][0]["score"], 0);
    assert!(v0["board"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r == &json!(".".repeat(15))));
    assert_eq!(v0["to_move"], 1);

    // Seat 1 plays a good word; seat 0 challenges and loses the turn (NASPA IV.I.3).
    let played = t
        .ok(1, json!({"type": "play", "position": "8H", "word": word}))
        .await;
    let score1 = played["effects"][0]["score"].as_i64().unwrap();
    assert!(score1 > 0);
    let ack = t.ok(0, json!({"type": "challenge"})).await;
    assert_eq!(
        ack["effects"][0],
        json!({"type": "verdict", "acceptable": true})
    );
    assert!(effect_types(&ack).contains(&"turn-lost".to_string()));
    let v = t.view(0).clone();
    assert_eq!(
        v["to_move"], 1,
        "seat 1 moves again after seat 0's lost turn"
    );
    assert_eq!(v["players"][1]["score"], score1);
    let kinds: Vec<&str> = v["history"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["type"].as_str().unwrap())
        .collect();
    assert_eq!(kinds, ["play", "withdrawal", "play", "lost-challenge"]);

    t.autoplay(11, 4, Duration::ZERO, 400).await;
    let end = t.view(0).clone();
    assert_eq!(end["phase"]["type"], "ended");
    let scores = final_scores(&end);
    assert_eq!(end["result"]["scores"], json!(scores));

    let gcg = t.gcg().await;
    let record = verify_gcg(&gcg, scores);
    assert!(record
        .events
        .iter()
        .any(|e| e.kind == GcgEventKind::Withdrawal));
    assert_eq!(record.events[1].kind, GcgEventKind::Withdrawal);
    assert_eq!(
        record.events[3].kind,
        GcgEventKind::Pass,
        "the lost challenge"
    );
    assert_eq!(record.players[0].nick, "Ann_Able");
    // The observer's GET shows the same finished game.
    let doc = t.get().await;
    assert_eq!(doc["status"], "ended");
    assert_eq!(doc["result"]["scores"], json!(scores));
    served.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wespa_game_with_five_points_per_challenged_word() {
    let (seed, word, _) = opening_pairs("wespa-2010");
    let served = Served::start("wespa", |db| config(db, &[&word])).await;
    let addr = served.addr;
    let created = create(
        addr,
        json!({"preset": "wespa-2010", "players": ["Cat", "Dan"], "seed": seed}),
    )
    .await;
    let mut t = Table::open(addr, &created, false).await;
    let played = t
        .ok(0, json!({"type": "play", "position": "8H", "word": word}))
        .await;
    let score = played["effects"][0]["score"].as_i64().unwrap();
    // WESPA 3.10.15(b)(ii): 5 points to the challenged player per word challenged.
    let ack = t.ok(1, json!({"type": "challenge"})).await;
    assert_eq!(
        ack["effects"][0],
        json!({"type": "verdict", "acceptable": true})
    );
    assert_eq!(
        ack["effects"][1],
        json!({"type": "challenge-bonus", "seat": 0, "points": 5})
    );
    let v = t.view(1).clone();
    assert_eq!(v["players"][0]["score"], score + 5);
    assert_eq!(
        v["to_move"], 1,
        "the challenger keeps the turn under points per word"
    );

    t.autoplay(12, 4, Duration::ZERO, 400).await;
    let end = t.view(0).clone();
    let scores = final_scores(&end);
    let record = verify_gcg(&t.gcg().await, scores);
    assert_eq!(record.events[1].kind, GcgEventKind::ChallengeBonus);
    assert_eq!(record.events[1].score, 5);
    served.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn literacy_game_ends_when_the_shared_game_clock_runs_out() {
    let served = Served::start("literacy", |db| {
        let mut cfg = config(db, &[]);
        // 200 game ms per real ms: the 20-minute game clock runs out in 6 s, a 2-minute turn
        // lasts 0.6 s.
        cfg.time_scale = 200.0;
        cfg
    })
    .await;
    let addr = served.addr;
    let created = create(
        addr,
        json!({"preset": "literacy-2018", "players": ["Eve", "Fay"], "seed": 18}),
    )
    .await;
    let mut t = Table::open(addr, &created, true).await;
    let v = t.view(0).clone();
    assert_eq!(v["clocks"]["remaining_ms"], json!(null));
    assert!(v["clocks"]["game_remaining_ms"].as_i64().unwrap() <= 20 * 60_000);
    // Each move takes about 50 s of game time and places at most two tiles, so the bag lasts
    // longer than the clock.
    t.autoplay(13, 2, Duration::from_millis(250), 400).await;
    let end = t.view(0).clone();
    assert_eq!(
        end["phase"],
        json!({"type": "ended", "reason": {"type": "game-clock-expired"}}),
        "{end}"
    );
    assert_eq!(end["clocks"]["game_remaining_ms"], 0);
    let scores = final_scores(&end);
    let record = verify_gcg(&t.gcg().await, scores);
    assert!(matches!(
        record.events.last().unwrap().kind,
        GcgEventKind::EndRack { .. }
    ));
    served.stop().await;
}

/// WESPA 5.1.4(b) and 3.10.15(b)(iv) are the organiser's to choose: a game created through the
/// API with those choices plays by them, shows them in its view and records them with the game;
/// a choice the book does not allow is refused naming the rule; NASPA I.B's resignation option is
/// an honour-or-play-on request.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wespa_5_1_4_b_and_3_10_15_b_iv_organisers_choices_through_the_api() {
    let (seed, word, _) = opening_pairs("wespa-2010");
    let mut served = Served::start("choices", |db| config(db, &[&word])).await;
    let addr = served.addr;
    // Refused, with the rule that forbids it.
    let r = post_json(
        addr,
        "/api/games",
        &json!({"preset": "naspa-2013", "players": ["A", "B"], "rules": {"end-rack": "add-and-subtract"}}),
    )
    .await
    .unwrap();
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("NASPA V.G.1"), "{}", r.text());
    let r = post_json(
        addr,
        "/api/games",
        &json!({"preset": "wespa-2010", "players": ["A", "B"], "rules": {"challenge": "per-word:20"}}),
    )
    .await
    .unwrap();
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(r.text().contains("3.10.15(c)"), "{}", r.text());

    let created = create(
        addr,
        json!({"preset": "wespa-2010", "players": ["Cat", "Dan"], "seed": seed,
               "rules": {"end-rack": "double", "challenge": "per-turn:10"}}),
    )
    .await;
    assert_eq!(
        created["ruleset"]["challenge"],
        json!({"kind": "points-per-turn", "points": 10})
    );
    assert_eq!(created["ruleset"]["end_rack"], "double-to-player-out");
    let mut t = Table::open(addr, &created, false).await;
    assert_eq!(
        t.view(0)["rules"],
        json!(["challenge=per-turn:10", "end-rack=double"])
    );
    t.ok(0, json!({"type": "play", "position": "8H", "word": word}))
        .await;
    // 3.10.15(b)(iv): ten points for the challenged turn.
    let ack = t.ok(1, json!({"type": "challenge"})).await;
    assert_eq!(
        ack["effects"][1],
        json!({"type": "challenge-bonus", "seat": 0, "points": 10})
    );
    t.autoplay(12, 4, Duration::ZERO, 400).await;
    let end = t.view(0).clone();
    let scores = final_scores(&end);
    let record = verify_gcg(&t.gcg().await, scores);
    assert_eq!(record.events[1].score, 10);
    // Recorded with the game: the stored document shows the choices.
    let doc = tilebag_server::client::http(
        addr,
        "GET",
        &format!("/api/games/{}", created["id"].as_str().unwrap()),
        None,
    )
    .await
    .unwrap()
    .json()
    .unwrap();
    assert_eq!(
        doc["rules"],
        json!(["challenge=per-turn:10", "end-rack=double"])
    );
    // Issue 27 item 6: the list a view returns is accepted as it is by a new game.
    let again = create(
        addr,
        json!({"preset": "wespa-2010", "players": ["Gil", "Hal"], "rules": doc["rules"]}),
    )
    .await;
    assert_eq!(again["ruleset"]["end_rack"], "double-to-player-out");
    assert_eq!(
        again["ruleset"]["challenge"],
        json!({"kind": "points-per-turn", "points": 10})
    );
    // A list item that is not name=value is refused by name.
    let r = post_json(
        addr,
        "/api/games",
        &json!({"preset": "wespa-2010", "players": ["A", "B"], "rules": ["end-rack"]}),
    )
    .await
    .unwrap();
    assert_eq!(r.status, 400, "{}", r.text());
    let refusal: serde_json::Value = serde_json::from_str(&r.text()).unwrap();
    assert!(
        refusal["message"]
            .as_str()
            .unwrap()
            .ends_with("rules: \"end-rack\" is not a choice of the form name=value"),
        "{refusal}"
    );
    served.server.shutdown().await;

    // NASPA I.B: with the director's resignation option, a resignation is a request.
    let t2 = served.dir.join("t2.db");
    served.server = tilebag_server::start(config(t2.to_str().unwrap(), &[&word]))
        .await
        .unwrap();
    served.addr = served.server.addr();
    let addr = served.addr;
    let created = create(
        addr,
        json!({"preset": "naspa-2013", "players": ["Eve", "Fay"], "rules": {"resignation-option": "on"}}),
    )
    .await;
    let mut t = Table::open(addr, &created, false).await;
    let ack = t.ok(0, json!({"type": "resign"})).await;
    assert_eq!(
        ack["effects"][0],
        json!({"type": "resignation-offered", "seat": 0})
    );
    let ack = t.ok(1, json!({"type": "honour-resignation"})).await;
    t.wait_all(ack["seq"].as_u64().unwrap()).await;
    assert_eq!(
        ack["effects"].as_array().unwrap().last().unwrap()["reason"],
        json!({"type": "resigned", "seat": 0})
    );
    let v = t.view(1).clone();
    assert_eq!(v["players"][0]["score"], 0, "honoured at the score: {v}");
    assert_eq!(v["players"][1]["score"], 0, "no 50-point margin: {v}");
    served.stop().await;
}

/// A seat connected with `history=new` (as the game page connects) is sent each score-sheet line
/// once: each view after the first holds only the lines since the view before, starting at
/// `history_from`, so a view no longer grows with the game; the lines joined are the sheet a
/// whole view shows, and when the game ends (the racks revealed) the whole sheet comes again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_taking_new_lines_is_sent_each_score_sheet_line_once() {
    let served = Served::start("newlines", |db| config(db, &[])).await;
    let addr = served.addr;
    let mut created = create(addr, json!({"players": ["Ann", "Bo"], "seed": 5})).await;
    for s in 0..2 {
        let ws = format!(
            "{}&history=new",
            created["seats"][s]["ws"].as_str().unwrap()
        );
        created["seats"][s]["ws"] = json!(ws);
    }
    let mut t = Table::open(addr, &created, false).await;
    t.autoplay_some(5, 3, 8).await;
    let had = t.view(1)["history"].as_array().unwrap().len();
    assert!(had >= 8, "{}", t.view(1));

    // The next turn: Bo's view holds the new line alone, numbered after the ones Bo has.
    let mover = t.view(0)["to_move"].as_u64().unwrap() as usize;
    t.seats[mover]
        .ws
        .send_json(&json!({"type": "pass", "id": "p"}))
        .await
        .unwrap();
    let sent = state_message(&mut t.seats[1]).await;
    assert_eq!(sent["history_from"], had, "{sent}");
    assert_eq!(sent["history"].as_array().unwrap().len(), 1, "{sent}");
    assert_eq!(t.view(1)["history"].as_array().unwrap().len(), had + 1);

    // Asked for again, the view holds the whole sheet: the lines joined are that sheet.
    let joined = t.view(1)["history"].clone();
    t.seats[1]
        .ws
        .send_json(&json!({"type": "state"}))
        .await
        .unwrap();
    let whole = state_message(&mut t.seats[1]).await;
    assert_eq!(whole["history_from"], 0, "{whole}");
    assert_eq!(whole["history"], joined);

    // The end reveals both racks on every line: the whole sheet again, from line 0.
    t.seats[0].drain().await;
    t.seats[0]
        .ws
        .send_json(&json!({"type": "resign", "id": "r"}))
        .await
        .unwrap();
    let end = state_message(&mut t.seats[1]).await;
    assert_eq!(end["phase"]["type"], "ended", "{end}");
    assert_eq!(end["history_from"], 0, "{end}");
    let lines = end["history"].as_array().unwrap();
    assert!(lines.len() > had, "{end}");
    assert!(
        lines
            .iter()
            .filter(|l| l["seat"] == 0)
            .all(|l| l["rack"].is_string()),
        "{end}"
    );
    served.stop().await;
}

/// The next `state` message on `c`, as sent (its view with only the lines sent).
async fn state_message(c: &mut Conn) -> serde_json::Value {
    loop {
        let m = c.next().await;
        if m["type"] == "state" {
            return m["view"].clone();
        }
    }
}
