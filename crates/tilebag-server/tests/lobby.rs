//! The lobby as players meet it over HTTP (issue 30 item 4): seek a game and see it listed live,
//! accept it with one click and both sit down at their own seats (nobody else ever sees a seat
//! token), cancel, rating ranges and invitations, NASPA I.G (one counting game at a time), a
//! seek to the computer, rematches, and the limits on all of it.

mod accounts_support;
mod common;
mod lobby_support;

use common::{config, Served};
use lobby_support::{seat, sit_down, watch, Player, QUIET};
use serde_json::{json, Value};
use std::time::Duration;
use tilebag_server::ServeConfig;

async fn served(name: &str) -> Served {
    Served::start(name, |db| config(db, &["CAT", "AT"])).await
}

/// A server whose computer plays the built-in ENABLE list.
async fn served_with_computer(name: &str) -> Served {
    Served::start(name, |db| {
        let mut c = config(db, &["CAT"]);
        c.add_word_source("enable1", tilebag_lexicon::WordSource::builtin());
        c
    })
    .await
}

fn ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_i64().unwrap())
        .collect()
}

fn message(r: &tilebag_server::client::HttpResponse) -> String {
    r.json().unwrap()["message"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn a_seek_is_listed_live_accepted_with_one_click_and_both_players_sit_down() {
    let s = served("lobby-accept").await;
    let ann = Player::sign_up(s.addr, "127.0.0.1", "Ann").await;
    let bob = Player::sign_up(s.addr, "127.0.0.2", "Bob").await;
    let cat = Player::sign_up(s.addr, "127.0.0.3", "Cat").await;
    let mut ann_sees = ann.stream().await;
    let mut cat_sees = cat.stream().await;
    let mut guest_sees = watch(s.addr, &[]).await;
    assert_eq!(guest_sees.first["seeks"], json!([]));

    let seek = ann
        .seek(json!({"preset": "naspa-2013", "minutes": 10, "rated": true}))
        .await;
    assert_eq!(seek["seeker"], "Ann");
    assert_eq!(seek["seeker_rating"], "1500?");
    assert_eq!(seek["minutes"], 10.0);
    assert_eq!(seek["class"], "rapid");
    assert_eq!(seek["rated"], true);
    // Everyone watching sees it come, without asking.
    for w in [&mut ann_sees, &mut cat_sees, &mut guest_sees] {
        assert_eq!(w.wait("seek-added").await, seek);
    }
    let mut bob_lobby = bob.v.clone();
    let listed = bob_lobby.get("/api/lobby").await.json().unwrap();
    assert_eq!(listed["seeks"], json!([seek.clone()]));

    let bobs = bob.accept(&seek).await;
    assert_eq!(bobs["opponent"], "Ann");
    let url = bobs["url"].as_str().unwrap();
    assert!(url.starts_with(&format!(
        "/games/{}?token=",
        bobs["game_id"].as_str().unwrap()
    )));
    for w in [&mut cat_sees, &mut guest_sees] {
        assert_eq!(w.wait("seek-removed").await, json!({"id": seek["id"]}));
    }
    // Ann is sent her own seat on her own stream.
    let anns = ann_sees.wait("game").await;
    assert_eq!(anns["game_id"], bobs["game_id"]);
    assert_eq!(anns["opponent"], "Bob");
    assert_eq!(anns["fresh"], true);
    assert_eq!(
        anns["seat"].as_u64().unwrap() + bobs["seat"].as_u64().unwrap(),
        1
    );
    let tokens: Vec<String> = [&anns, &bobs]
        .iter()
        .map(|g| {
            g["url"]
                .as_str()
                .unwrap()
                .split("token=")
                .nth(1)
                .unwrap()
                .to_string()
        })
        .collect();
    assert_ne!(tokens[0], tokens[1]);
    // Nobody else's stream carries either seat's token.
    for w in [&mut cat_sees, &mut guest_sees] {
        for ev in w.rest().await {
            assert_ne!(ev.event, "game", "{ev:?}");
            for t in &tokens {
                assert!(!ev.data.contains(t.as_str()), "{ev:?}");
            }
        }
    }
    // Both sit down at their seats, named as their accounts.
    let table = sit_down(s.addr, &anns, &bobs).await;
    let ann_seat = anns["seat"].as_u64().unwrap() as usize;
    let v = table.view(ann_seat);
    assert_eq!(v["seat"], ann_seat);
    assert_eq!(v["players"][ann_seat]["name"], "Ann");
    assert_eq!(v["players"][1 - ann_seat]["name"], "Bob");
    assert_eq!(v["preset"], "naspa-2013");
    assert_eq!(v["started"], true);
    // The game is listed for watchers.
    let games = tilebag_server::client::http(s.addr, "GET", "/api/games", None)
        .await
        .unwrap()
        .json()
        .unwrap();
    assert!(games["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == anns["game_id"]));
    // A second acceptance finds it gone.
    let again = cat.accept_answer(&seek).await;
    assert_eq!(again.status, 410, "{}", again.text());
    s.stop().await;
}

#[tokio::test]
async fn a_seeker_cancels_their_own_seek_and_nobody_else_can() {
    let s = served("lobby-cancel").await;
    let ann = Player::sign_up(s.addr, "127.0.0.1", "Ann").await;
    let bob = Player::sign_up(s.addr, "127.0.0.2", "Bob").await;
    let mut bob_sees = bob.stream().await;
    let seek = ann.seek(json!({})).await;
    assert_eq!(bob_sees.wait("seek-added").await["id"], seek["id"]);
    let path = format!("/api/seeks/{}/cancel", seek["id"]);
    let r = bob.post(&path, &json!({})).await;
    assert_eq!(r.status, 404, "{}", r.text());
    assert!(message(&r).contains("only the seeker may cancel"));
    let r = ann.post(&path, &json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(bob_sees.wait("seek-removed").await["id"], seek["id"]);
    let r = bob.accept_answer(&seek).await;
    assert_eq!(r.status, 410, "{}", r.text());
    assert!(message(&r).contains("no longer open"));
    let mut ann = ann;
    assert_eq!(ann.lobby().await["seeks"], json!([]));
    s.stop().await;
}

#[tokio::test]
async fn a_rating_range_refuses_a_player_outside_it() {
    let s = served("lobby-range").await;
    let ann = Player::sign_up(s.addr, "127.0.0.1", "Ann").await;
    let bob = Player::sign_up(s.addr, "127.0.0.2", "Bob").await;
    let seek = ann.seek(json!({"rated": true, "min_rating": 1600})).await;
    assert_eq!(seek["range"], json!({"min": 1600, "max": null}));
    let r = bob.accept_answer(&seek).await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert_eq!(
        message(&r),
        "your rating 1500 is outside the seek's range (1600–any)"
    );
    // Still open for someone in range; an empty range is refused at once.
    let mut ann = ann;
    assert_eq!(
        ids(&ann.lobby().await["seeks"]),
        vec![seek["id"].as_i64().unwrap()]
    );
    let r = ann
        .post(
            "/api/seeks",
            &json!({"min_rating": 1700, "max_rating": 1600}),
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(message(&r).contains("minimum 1700 is above its maximum 1600"));
    s.stop().await;
}

#[tokio::test]
async fn an_invitation_is_seen_and_taken_only_by_the_invited_player() {
    let s = served("lobby-invite").await;
    let ann = Player::sign_up(s.addr, "127.0.0.1", "Ann").await;
    let mut bob = Player::sign_up(s.addr, "127.0.0.2", "Bob").await;
    let mut cat = Player::sign_up(s.addr, "127.0.0.3", "Cat").await;
    let mut bob_sees = bob.stream().await;
    let mut cat_sees = cat.stream().await;
    let mut guest_sees = watch(s.addr, &[]).await;
    let seek = ann
        .seek(json!({"opponent": "invited", "invite": "bob"}))
        .await;
    assert_eq!(seek["invited"], "Bob");
    assert_eq!(bob_sees.wait("seek-added").await, seek);
    for w in [&mut cat_sees, &mut guest_sees] {
        assert!(w.rest().await.iter().all(|e| e.event != "seek-added"));
    }
    assert_eq!(cat.lobby().await["seeks"], json!([]));
    assert_eq!(bob.lobby().await["seeks"], json!([seek.clone()]));
    let r = cat.accept_answer(&seek).await;
    assert_eq!(r.status, 410, "{}", r.text());
    let bobs = bob.accept(&seek).await;
    assert_eq!(bobs["opponent"], "Ann");
    // Inviting nobody, or oneself, is refused by name.
    let r = ann
        .post(
            "/api/seeks",
            &json!({"opponent": "invited", "invite": "Zed"}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(message(&r), "there is no player named \"Zed\"");
    let r = ann
        .post(
            "/api/seeks",
            &json!({"opponent": "invited", "invite": "Ann"}),
        )
        .await;
    assert_eq!(message(&r), "you cannot invite yourself");
    s.stop().await;
}

#[tokio::test]
async fn naspa_i_g_a_player_in_a_rated_game_cannot_start_another() {
    let s = served("lobby-ig").await;
    let ann = Player::sign_up(s.addr, "127.0.0.1", "Ann").await;
    let bob = Player::sign_up(s.addr, "127.0.0.2", "Bob").await;
    let cat = Player::sign_up(s.addr, "127.0.0.3", "Cat").await;
    let mut cat_sees = cat.stream().await;
    // Ann has a casual seek open when she sits down to a rated game: it is withdrawn.
    let casual = ann.seek(json!({"rated": false})).await;
    let rated = bob.seek(json!({"rated": true})).await;
    cat_sees.wait("seek-added").await;
    cat_sees.wait("seek-added").await;
    ann.accept(&rated).await;
    let mut removed = vec![
        cat_sees.wait("seek-removed").await["id"].clone(),
        cat_sees.wait("seek-removed").await["id"].clone(),
    ];
    removed.sort_by_key(|v| v.as_i64());
    let mut want = vec![casual["id"].clone(), rated["id"].clone()];
    want.sort_by_key(|v| v.as_i64());
    assert_eq!(removed, want);
    // Now neither may seek, nor accept, another game while it lasts.
    for p in [&ann, &bob] {
        let r = p.post("/api/seeks", &json!({"rated": false})).await;
        assert_eq!(r.status, 409, "{}", r.text());
        assert_eq!(
            message(&r),
            "NASPA I.G: you are already playing a rated or event game, or cannot start one \
             beside another game"
        );
    }
    let cats = cat.seek(json!({"rated": false})).await;
    let r = ann.accept_answer(&cats).await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(message(&r).starts_with("NASPA I.G: you are"));
    // Cat, in no game, is refused nothing; the seek stays open.
    let mut cat = cat;
    assert_eq!(
        ids(&cat.lobby().await["seeks"]),
        vec![cats["id"].as_i64().unwrap()]
    );
    s.stop().await;
}

#[tokio::test]
async fn a_seek_to_the_computer_starts_the_game_at_once_and_links_the_seat() {
    let s = served_with_computer("lobby-computer").await;
    let ann = Player::sign_up(s.addr, "127.0.0.1", "Ann").await;
    let mut guest_sees = watch(s.addr, &[]).await;
    let r = ann
        .post(
            "/api/seeks",
            &json!({"opponent": "computer", "level": "beginner", "lexicon": "enable1",
                    "rated": true}),
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert_eq!(message(&r), "games against the computer are not rated");
    let r = ann
        .post(
            "/api/seeks",
            &json!({"opponent": "computer", "level": "beginner", "lexicon": "test"}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.text());
    assert!(message(&r).contains("the computer cannot play with \"test\""));
    let r = ann
        .post(
            "/api/seeks",
            &json!({"opponent": "computer", "level": "beginner", "lexicon": "enable1",
                    "seat": "first", "minutes": 5}),
        )
        .await;
    assert_eq!(r.status, 201, "{}", r.text());
    let game = r.json().unwrap()["game"].clone();
    assert_eq!(game["seat"], 0);
    assert_eq!(game["opponent"], "Computer (beginner)");
    let mut c = seat(s.addr, &game).await;
    let v = c.wait_seq(0).await;
    assert_eq!(v["seat"], 0);
    assert_eq!(v["players"][0]["name"], "Ann");
    // Never listed: nobody else could take it.
    assert!(guest_sees
        .rest()
        .await
        .iter()
        .all(|e| e.event != "seek-added"));
    // Her seat is hers: a casual game, so a rated one cannot start beside it (NASPA I.G).
    let r = ann.post("/api/seeks", &json!({"rated": true})).await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert!(message(&r).starts_with("NASPA I.G"));
    // Another casual game may.
    let r = ann.post("/api/seeks", &json!({"rated": false})).await;
    assert_eq!(r.status, 201, "{}", r.text());
    s.stop().await;
}

#[tokio::test]
async fn after_a_game_a_rematch_is_offered_declined_offered_again_and_accepted() {
    let s = served("lobby-rematch").await;
    let ann = Player::sign_up(s.addr, "127.0.0.1", "Ann").await;
    let bob = Player::sign_up(s.addr, "127.0.0.2", "Bob").await;
    let cat = Player::sign_up(s.addr, "127.0.0.3", "Cat").await;
    let mut ann_sees = ann.stream().await;
    let mut bob_sees = bob.stream().await;
    let seek = ann.seek(json!({"rated": true, "minutes": 5})).await;
    let bobs = bob.accept(&seek).await;
    let anns = ann_sees.wait("game").await;
    let id = bobs["game_id"].as_str().unwrap().to_string();
    let mut table = sit_down(s.addr, &anns, &bobs).await;
    // Not before the game is over.
    let r = ann.rematch(&id, "offer").await;
    assert_eq!(r.status, 409, "{}", r.text());
    assert_eq!(message(&r), "a rematch is offered once the game is over");
    let ann_seat = anns["seat"].as_u64().unwrap() as usize;
    table.ok(ann_seat, json!({"type": "resign"})).await;
    assert_eq!(table.view(0)["phase"]["type"], "ended");

    // The game page asks whether this viewer may offer one.
    let mut v = ann.v.clone();
    let st = v
        .get(&format!("/api/games/{id}/rematch"))
        .await
        .json()
        .unwrap();
    assert_eq!(st["player"], true);
    assert_eq!(st["can_offer"], true);
    let mut v = cat.v.clone();
    let st = v
        .get(&format!("/api/games/{id}/rematch"))
        .await
        .json()
        .unwrap();
    assert_eq!(st["player"], false);
    assert_eq!(st["can_offer"], false);
    let r = cat.rematch(&id, "offer").await;
    assert_eq!(r.status, 403, "{}", r.text());
    assert_eq!(
        message(&r),
        "only the players of a game may offer a rematch"
    );

    // Offered, and declined.
    let r = ann.rematch(&id, "offer").await;
    assert_eq!(r.status, 201, "{}", r.text());
    let told = bob_sees.wait("rematch").await;
    assert_eq!(told["from"], "Ann");
    assert_eq!(told["to"], "Bob");
    assert_eq!(told["state"], "offered");
    let r = ann.rematch(&id, "accept").await;
    assert_eq!(r.status, 403, "{}", r.text());
    assert_eq!(
        message(&r),
        "only the player offered the rematch may accept or decline it"
    );
    let r = bob.rematch(&id, "decline").await;
    assert_eq!(r.status, 200, "{}", r.text());
    let mut told = ann_sees.wait("rematch").await;
    while told["state"] == "offered" {
        told = ann_sees.wait("rematch").await;
    }
    assert_eq!(told["state"], "declined");

    // Offered again by Bob, and accepted by Ann: seats swapped, both sent to them.
    let r = bob.rematch(&id, "offer").await;
    assert_eq!(r.status, 201, "{}", r.text());
    let r = ann.rematch(&id, "accept").await;
    assert_eq!(r.status, 201, "{}", r.text());
    let anns2 = r.json().unwrap()["game"].clone();
    assert_ne!(anns2["game_id"].as_str().unwrap(), id);
    assert_eq!(anns2["seat"].as_u64().unwrap() as usize, 1 - ann_seat);
    let bobs2 = loop {
        let g = bob_sees.wait("game").await;
        if g["game_id"] == anns2["game_id"] {
            break g;
        }
    };
    assert_eq!(bobs2["seat"].as_u64().unwrap() as usize, ann_seat);
    assert_ne!(bobs2["url"], anns2["url"]);
    let table2 = sit_down(s.addr, &anns2, &bobs2).await;
    assert_eq!(
        table2.view(1 - ann_seat)["players"][1 - ann_seat]["name"],
        "Ann"
    );
    assert_eq!(table2.view(0)["preset"], "naspa-2013");
    // Settled: a second answer is refused.
    let r = ann.rematch(&id, "accept").await;
    assert_eq!(r.status, 409, "{}", r.text());
    // Opened again later, the finished game's page leads each player to their own seat in the
    // rematch (never the other's), and Cat, who did not play, to no seat at all.
    for (who, mine, theirs) in [(&ann, &anns2, &bobs2), (&bob, &bobs2, &anns2)] {
        let mut v = who.v.clone();
        let st = v
            .get(&format!("/api/games/{id}/rematch"))
            .await
            .json()
            .unwrap();
        assert_eq!(st["offer"]["state"], "accepted", "{st}");
        assert_eq!(st["rematch"]["game_id"], mine["game_id"], "{st}");
        assert_eq!(st["rematch"]["url"], mine["url"], "{st}");
        assert_ne!(st["rematch"]["url"], theirs["url"], "{st}");
    }
    let mut v = cat.v.clone();
    let st = v
        .get(&format!("/api/games/{id}/rematch"))
        .await
        .json()
        .unwrap();
    assert!(st["rematch"].is_null(), "{st}");
    s.stop().await;
}

#[tokio::test]
async fn the_lobby_needs_a_signed_in_player_from_this_site_and_keeps_its_limits() {
    let s = Served::start("lobby-limits", |db| {
        let mut c: ServeConfig = config(db, &["CAT"]);
        c.lobby.seeks_per_minute = 5;
        c
    })
    .await;
    let ann = Player::sign_up(s.addr, "127.0.0.1", "Ann").await;
    // Signed out: 401, saying what to do.
    let guest = tilebag_server::client::request(
        s.addr,
        "POST",
        "/api/seeks",
        &[("Origin", &format!("http://{}", s.addr))],
        Some(("application/json", b"{}")),
    )
    .await
    .unwrap();
    assert_eq!(guest.status, 401);
    assert_eq!(guest.json().unwrap()["code"], "signed-out");
    assert!(message(&guest).starts_with("sign in to seek a game"));
    // From another site, or without the page's token: refused.
    let r = ann
        .post_with("/api/seeks", &json!({}), "http://evil.example", &ann.csrf)
        .await;
    assert_eq!(r.status, 403, "{}", r.text());
    let origin = format!("http://{}", s.addr);
    let r = ann.post_with("/api/seeks", &json!({}), &origin, "").await;
    assert_eq!(r.status, 403, "{}", r.text());
    assert!(message(&r).contains("CSRF"));
    // Bad input is named.
    for (body, says) in [
        (json!({"preset": "nope"}), "unknown rules preset \"nope\""),
        (
            json!({"minutes": 0}),
            "minutes per player is 1 to 120, not 0",
        ),
        (json!({"lexicon": "klingon"}), "unknown lexicon \"klingon\""),
        (json!({"min_rating": 9000}), "0 to 4000, not 9000"),
        (
            json!({"preset": "literacy-2018", "minutes": 5}),
            "one game clock",
        ),
        (
            json!({"opponent": "computer", "level": "genius"}),
            "unknown level",
        ),
    ] {
        let r = ann.post("/api/seeks", &body).await;
        assert_eq!(r.status, 422, "{body}: {}", r.text());
        assert!(message(&r).contains(says), "{body}: {}", message(&r));
    }
    let r = ann.post("/api/seeks", &json!({"colour": "red"})).await;
    assert_eq!(r.status, 400, "{}", r.text());
    assert!(message(&r).contains("unknown field `colour`"));
    let big = json!({ "preset": "x".repeat(5000) });
    let r = ann.post("/api/seeks", &big).await;
    assert_eq!(r.status, 413, "{}", r.text());
    let r = ann.post("/api/seeks/abc/accept", &json!({})).await;
    assert_eq!(r.status, 404, "{}", r.text());
    // Three open seeks at most.
    let mut made = Vec::new();
    for _ in 0..3 {
        made.push(ann.seek(json!({})).await);
    }
    let r = ann.post("/api/seeks", &json!({})).await;
    assert_eq!(r.status, 429, "{}", r.text());
    assert_eq!(
        message(&r),
        "you have 3 open seeks, the most one player may have: cancel one first"
    );
    // And five new ones a minute (a refused one does not count).
    for old in &made[..2] {
        let cancel = format!("/api/seeks/{}/cancel", old["id"]);
        assert_eq!(ann.post(&cancel, &json!({})).await.status, 200);
        ann.seek(json!({})).await;
    }
    let cancel = format!("/api/seeks/{}/cancel", made[2]["id"]);
    assert_eq!(ann.post(&cancel, &json!({})).await.status, 200);
    let r = ann.post("/api/seeks", &json!({})).await;
    assert_eq!(r.status, 429, "{}", r.text());
    assert_eq!(
        message(&r),
        "at most 5 new seeks and rematch offers a minute: try again in a minute"
    );
    assert_eq!(r.header("retry-after"), Some("60"));
    s.stop().await;
}

#[tokio::test]
async fn a_banned_players_seeks_cannot_be_taken_and_they_cannot_seek() {
    let s = served("lobby-banned").await;
    let ann = Player::sign_up(s.addr, "127.0.0.1", "Ann").await;
    let bob = Player::sign_up(s.addr, "127.0.0.2", "Bob").await;
    let seek = ann.seek(json!({})).await;
    let db = rusqlite::Connection::open(&s.db).unwrap();
    db.execute("UPDATE accounts SET banned = 1 WHERE username = 'Ann'", [])
        .unwrap();
    let r = ann.post("/api/seeks", &json!({})).await;
    assert_eq!(r.status, 401, "{}", r.text());
    let r = bob.accept_answer(&seek).await;
    assert_eq!(r.status, 410, "{}", r.text());
    let mut bob = bob;
    assert_eq!(bob.lobby().await["seeks"], json!([]));
    s.stop().await;
}

#[tokio::test]
async fn a_seek_expires_once_its_seeker_has_left_the_lobby_and_survives_a_restart() {
    let dir = common::temp_dir("lobby-expiry");
    let db = dir.join("t.db").to_str().unwrap().to_string();
    let short = |db: &str| {
        let mut c = config(db, &["CAT"]);
        c.lobby.abandoned_after = Duration::from_millis(1500);
        c.lobby.sweep_every = Duration::from_millis(200);
        c
    };
    let server = tilebag_server::start(short(&db)).await.unwrap();
    let addr = server.addr();
    let ann = Player::sign_up(addr, "127.0.0.1", "Ann").await;
    let bob = Player::sign_up(addr, "127.0.0.2", "Bob").await;
    let mut guest = watch(addr, &[]).await;
    // Ann keeps the lobby open: her seek stays. Bob seeks and leaves: his goes.
    let anns_stream = ann.stream().await;
    let anns = ann.seek(json!({})).await;
    let bobs = bob.seek(json!({})).await;
    let gone = guest.wait("seek-removed").await;
    assert_eq!(gone["id"], bobs["id"]);
    tokio::time::sleep(QUIET).await;
    let mut ann = ann;
    assert_eq!(
        ids(&ann.lobby().await["seeks"]),
        vec![anns["id"].as_i64().unwrap()]
    );
    drop(anns_stream);
    drop(guest);
    // Stored: listed again after a restart.
    server.shutdown().await;
    let mut c = short(&db);
    c.lobby.abandoned_after = Duration::from_secs(60);
    let server = tilebag_server::start(c).await.unwrap();
    let mut again = ann.v.clone();
    again.addr = server.addr();
    let listed = again.get("/api/lobby").await.json().unwrap();
    assert_eq!(ids(&listed["seeks"]), vec![anns["id"].as_i64().unwrap()]);
    assert_eq!(listed["seeks"][0]["seeker"], "Ann");
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}
