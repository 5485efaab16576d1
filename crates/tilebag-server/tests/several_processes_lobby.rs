//! The lobby, rematches and chat of several `tilebag serve` processes (issue 31 item 1): a
//! client may reach any of them (a load balancer with no sticky sessions), so a seek made on one
//! is listed on every other, a seeker is sent to their seat wherever their stream is open, a
//! rematch offered on one is answered on another, and a chat line reaches its room's readers on
//! every process. Skipped, saying so, where `nats-server` is not installed or
//! `TILEBAG_TEST_POSTGRES` is not set (CI has both).

mod accounts_support;
mod chat_support;
mod cluster_support;
mod common;
mod lobby_support;

use chat_support::{database, make_moderator, Person};
use cluster_support::Shared;
use common::{Conn, Table};
use lobby_support::{seat, Player, Watcher, WAIT};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;
use tilebag_server::RunningServer;

const WORDS: &[&str] = &["CAT", "CATS", "AT", "TA"];

/// The same player (the same session cookie) reaching another process, as a load balancer
/// with no sticky sessions may send them.
fn on(p: &Player, addr: SocketAddr) -> Player {
    let mut v = p.v.clone();
    v.addr = addr;
    Player {
        v,
        name: p.name.clone(),
        csrf: p.csrf.clone(),
    }
}

/// The player's chat, on the process at `addr`.
async fn chatting(p: &Player, addr: SocketAddr) -> Person {
    let mut web = p.v.clone();
    web.addr = addr;
    let mut person = Person {
        name: p.name.clone(),
        web,
        csrf: String::new(),
    };
    person.csrf = person.room("lobby").await["csrf"]
        .as_str()
        .expect("a chat token")
        .to_string();
    person
}

/// The seeks' ids, in order (a list is in the order of its ids).
fn ids(list: &Value) -> Vec<i64> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|s| s["id"].as_i64().unwrap())
        .collect()
}

/// The ids of these seeks, in order.
fn sorted(seeks: &[&Value]) -> Vec<i64> {
    let mut ids: Vec<i64> = seeks.iter().map(|s| s["id"].as_i64().unwrap()).collect();
    ids.sort();
    ids
}

/// The seek `like` as it comes on a stream (others skipped).
async fn next_seek(w: &mut Watcher, like: &Value) -> Value {
    loop {
        let s = w.wait("seek-added").await;
        if s["id"] == like["id"] {
            return s;
        }
    }
}

async fn stop(servers: Vec<RunningServer>, shared: Shared) {
    for s in servers {
        s.shutdown().await;
    }
    shared.drop().await;
}

/// Ann, on alpha, seeks; Bob, on beta, sees it come and accepts; Ann's stream on alpha sends
/// her to her seat; they play on their own processes and chat across them; after the game a
/// rematch Ann offers on alpha is accepted by Bob on beta, and both are sent to their new seats.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn players_on_two_processes_meet_play_chat_and_play_again() {
    let Some(shared) = Shared::start("lobby_two_processes").await else {
        return;
    };
    let alpha = shared.serve("alpha", WORDS).await;
    let beta = shared.serve("beta", WORDS).await;
    let ann = Player::sign_up(alpha.addr(), "127.0.0.2", "Ann").await;
    let bob = Player::sign_up(beta.addr(), "127.0.0.3", "Bob").await;
    let mut ann_sees = ann.stream().await;
    let mut bob_sees = bob.stream().await;

    let seek = ann.seek(json!({"minutes": 10, "rated": true})).await;
    assert_eq!(seek["seeker"], "Ann");
    assert_eq!(bob_sees.wait("seek-added").await, seek);
    let mut bob_lobby = bob.v.clone();
    let listed: Value = bob_lobby.get("/api/lobby").await.json().unwrap();
    assert_eq!(listed["seeks"], json!([seek.clone()]));

    // Accepted on beta: the seek goes from alpha's list, and Ann is sent her seat there.
    let bobs = bob.accept(&seek).await;
    assert_eq!(bobs["opponent"], "Ann");
    assert_eq!(
        ann_sees.wait("seek-removed").await,
        json!({"id": seek["id"]})
    );
    let anns = ann_sees.wait("game").await;
    assert_eq!(anns["game_id"], bobs["game_id"]);
    assert_eq!(anns["opponent"], "Bob");
    assert_eq!(anns["fresh"], true);
    assert_ne!(anns["url"], bobs["url"]);
    assert_ne!(anns["seat"], bobs["seat"]);
    let mut ann_lobby = ann.v.clone();
    let listed: Value = ann_lobby.get("/api/lobby").await.json().unwrap();
    assert_eq!(listed["seeks"], json!([]));
    // Nobody else's stream carries either seat's link.
    assert!(bob_sees
        .rest()
        .await
        .iter()
        .all(|e| e.event != "game" && !e.data.contains("token=")));

    // Each sits down on their own process.
    let id = bobs["game_id"].as_str().unwrap().to_string();
    let ann_seat = anns["seat"].as_u64().unwrap() as usize;
    let mut conns: Vec<(usize, Conn)> = vec![
        (ann_seat, seat(alpha.addr(), &anns).await),
        (1 - ann_seat, seat(beta.addr(), &bobs).await),
    ];
    conns.sort_by_key(|(s, _)| *s);
    let mut table = Table::of(
        alpha.addr(),
        &id,
        conns.into_iter().map(|(_, c)| c).collect(),
        None,
    );

    // They chat in the game's players' room, each on their own process.
    let room = format!("game:{id}:players");
    let mut ann_chat = chatting(&ann, alpha.addr()).await;
    let mut bob_chat = chatting(&bob, beta.addr()).await;
    let mut ann_hears = ann_chat.listen(&room).await;
    let mut bob_hears = bob_chat.listen(&room).await;
    assert_eq!((ann_hears.status, bob_hears.status), (200, 200));
    ann_chat.says(&room, "good luck").await;
    assert_eq!(
        bob_hears.next_message(WAIT).await.as_deref(),
        Some("Ann: good luck")
    );
    assert_eq!(
        ann_hears.next_message(WAIT).await.as_deref(),
        Some("Ann: good luck")
    );
    bob_chat.says(&room, "and to you").await;
    assert_eq!(
        ann_hears.next_message(WAIT).await.as_deref(),
        Some("Bob: and to you")
    );
    // Both processes show the same room (the messages are stored once).
    assert_eq!(
        bob_chat.sees(&room).await,
        ["Ann: good luck", "Bob: and to you"]
    );
    assert_eq!(
        ann_chat.sees(&room).await,
        ["Ann: good luck", "Bob: and to you"]
    );
    // Bob asks for silence on beta (NASPA I.D): alpha shuts the players' chat too.
    let r = bob_chat.ask_silence(&room).await;
    assert_eq!(r.status, 200, "{}", r.text());
    let notice = ann_hears.next_of("notice", WAIT).await.unwrap();
    assert!(notice.contains("Bob asked for silence"), "{notice}");
    let r = ann_chat.say(&room, "one more thing").await;
    assert_eq!(r.status, 403, "{}", r.text());
    assert_eq!(ann_chat.room(&room).await["silence_requested"], true);

    // Ann resigns; she offers a rematch on alpha and Bob accepts it on beta.
    table.ok(ann_seat, json!({"type": "resign"})).await;
    assert_eq!(table.view(ann_seat)["phase"]["type"], "ended");
    let r = ann.rematch(&id, "offer").await;
    assert_eq!(r.status, 201, "{}", r.text());
    let told = bob_sees.wait("rematch").await;
    assert_eq!(
        (&told["from"], &told["to"], &told["state"]),
        (&json!("Ann"), &json!("Bob"), &json!("offered"))
    );
    // Beta knows the offer: Bob's game page there shows it.
    let st: Value = bob_lobby
        .get(&format!("/api/games/{id}/rematch"))
        .await
        .json()
        .unwrap();
    assert_eq!(st["offer"]["state"], "offered", "{st}");
    assert_eq!(st["offer"]["from"], "Ann", "{st}");
    // Only Bob may accept it, wherever Ann asks.
    let r = on(&ann, beta.addr()).rematch(&id, "accept").await;
    assert_eq!(r.status, 403, "{}", r.text());
    let r = bob.rematch(&id, "accept").await;
    assert_eq!(r.status, 201, "{}", r.text());
    let bobs2 = r.json().unwrap()["game"].clone();
    assert_ne!(bobs2["game_id"].as_str().unwrap(), id);
    // Seats swapped: the player who went second goes first.
    assert_eq!(bobs2["seat"].as_u64().unwrap() as usize, ann_seat);
    // Ann's stream on alpha: the offer accepted, then her new seat.
    let mut told = ann_sees.wait("rematch").await;
    while told["state"] == "offered" {
        told = ann_sees.wait("rematch").await;
    }
    assert_eq!(told["state"], "accepted");
    let anns2 = ann_sees.wait("game").await;
    assert_eq!(anns2["game_id"], bobs2["game_id"]);
    assert_eq!(anns2["seat"].as_u64().unwrap() as usize, 1 - ann_seat);
    assert_eq!(anns2["rematch_of"], id.as_str());
    assert_ne!(anns2["url"], bobs2["url"]);
    // Settled, on either process: a second answer is refused.
    for p in [&bob, &on(&bob, alpha.addr())] {
        let r = p.rematch(&id, "accept").await;
        assert_eq!(r.status, 409, "{}", r.text());
    }
    // Both sit down at the rematch, again on their own processes.
    let c_ann = seat(alpha.addr(), &anns2).await;
    let c_bob = seat(beta.addr(), &bobs2).await;
    assert_eq!(c_ann.view()["players"][1 - ann_seat]["name"], "Ann");
    assert_eq!(c_bob.view()["players"][ann_seat]["name"], "Bob");
    drop(table);
    stop(vec![alpha, beta], shared).await;
}

/// Seeks come and go on every process's list: one withdrawn on alpha leaves beta's list and
/// streams; an invitation is seen only by its two players, wherever they are; three open seeks
/// an account, counted over every process; and a seek whose seeker's stream is open on another
/// process is not taken for abandoned.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn seeks_come_and_go_on_every_process() {
    let Some(shared) = Shared::start("lobby_seeks_everywhere").await else {
        return;
    };
    // Seekers who left are noticed within two seconds here (a minute by default).
    let quick = |name: &str| {
        let mut c = shared.config(name, WORDS);
        c.lobby.abandoned_after = Duration::from_secs(2);
        c.lobby.sweep_every = Duration::from_millis(100);
        // A closed stream is noticed at its next keep-alive (every half of this).
        c.net.idle_timeout = Duration::from_secs(2);
        c
    };
    let alpha = tilebag_server::start(quick("alpha")).await.unwrap();
    let beta = tilebag_server::start(quick("beta")).await.unwrap();
    let ann = Player::sign_up(alpha.addr(), "127.0.0.4", "Ann").await;
    let bob = Player::sign_up(beta.addr(), "127.0.0.5", "Bob").await;
    let cat = Player::sign_up(beta.addr(), "127.0.0.6", "Cat").await;
    let ann_sees = ann.stream().await;
    let mut bob_sees = bob.stream().await;
    let mut cat_sees = cat.stream().await;

    // Made on alpha, withdrawn on alpha: gone from beta's list and streams.
    let first = ann.seek(json!({"minutes": 5})).await;
    assert_eq!(cat_sees.wait("seek-added").await, first);
    let r = ann
        .post(&format!("/api/seeks/{}/cancel", first["id"]), &json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        cat_sees.wait("seek-removed").await,
        json!({"id": first["id"]})
    );
    let mut cat_lobby = cat.v.clone();
    let listed: Value = cat_lobby.get("/api/lobby").await.json().unwrap();
    assert_eq!(listed["seeks"], json!([]));
    // Accepting it on beta now finds it gone.
    let r = bob.accept_answer(&first).await;
    assert_eq!(r.status, 410, "{}", r.text());

    // An invitation to Bob, made on alpha: Bob sees it on beta, Cat on beta does not.
    let invite = ann
        .seek(json!({"opponent": "invited", "invite": "Bob"}))
        .await;
    assert_eq!(next_seek(&mut bob_sees, &invite).await, invite);
    let open = ann.seek(json!({"minutes": 15})).await;
    assert_eq!(cat_sees.wait("seek-added").await, open);
    let mut bob_lobby = bob.v.clone();
    let listed: Value = bob_lobby.get("/api/lobby").await.json().unwrap();
    assert_eq!(ids(&listed["seeks"]), sorted(&[&invite, &open]));
    let listed: Value = cat_lobby.get("/api/lobby").await.json().unwrap();
    assert_eq!(ids(&listed["seeks"]), [open["id"].as_i64().unwrap()]);
    let r = cat.accept_answer(&invite).await;
    assert_eq!(r.status, 410, "{}", r.text());

    // Three open seeks an account, wherever they were made: the third on beta, a fourth refused.
    let ann_on_beta = on(&ann, beta.addr());
    let third = ann_on_beta.seek(json!({"minutes": 20})).await;
    assert_eq!(cat_sees.wait("seek-added").await, third);
    let r = ann_on_beta
        .post("/api/seeks", &json!({"minutes": 25}))
        .await;
    assert_eq!(r.status, 429, "{}", r.text());
    assert_eq!(r.json().unwrap()["code"], "too-many-seeks");

    // Ann's stream is on alpha only, her third seek was made on beta: beta does not take her
    // for gone while her stream stays open (more than twice the two seconds it allows).
    tokio::time::sleep(Duration::from_secs(5)).await;
    let listed: Value = cat_lobby.get("/api/lobby").await.json().unwrap();
    assert_eq!(ids(&listed["seeks"]), sorted(&[&open, &third]));
    // She closes the lobby: her seeks are withdrawn everywhere.
    drop(ann_sees);
    let mut gone = Vec::new();
    while gone.len() < 2 {
        gone.push(cat_sees.wait("seek-removed").await["id"].as_i64().unwrap());
    }
    gone.sort();
    assert_eq!(gone, sorted(&[&open, &third]));
    stop(vec![alpha, beta], shared).await;
}

/// The chat across processes: a lobby line sent on alpha reaches beta's readers, a mute set on
/// beta holds for lines from alpha, and a moderator's deletion and mute on alpha are honoured
/// on beta.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_chat_and_its_moderation_reach_every_process() {
    let Some(shared) = Shared::start("chat_two_processes").await else {
        return;
    };
    let alpha = shared.serve("alpha", WORDS).await;
    let beta = shared.serve("beta", WORDS).await;
    let ann = Player::sign_up(alpha.addr(), "127.0.0.7", "Ann").await;
    let bob = Player::sign_up(beta.addr(), "127.0.0.8", "Bob").await;
    let cat = Player::sign_up(beta.addr(), "127.0.0.9", "Cat").await;
    let moe = Player::sign_up(alpha.addr(), "127.0.0.10", "Moe").await;
    make_moderator(&*database(&shared.database).await, "Moe").await;
    let mut ann_chat = chatting(&ann, alpha.addr()).await;
    let mut bob_chat = chatting(&bob, beta.addr()).await;
    let cat_chat = chatting(&cat, beta.addr()).await;
    let mut moe_chat = chatting(&moe, alpha.addr()).await;
    let mut bob_hears = bob_chat.listen("lobby").await;
    let mut cat_hears = cat_chat.listen("lobby").await;

    let hello = ann_chat.says("lobby", "hello from alpha").await;
    assert_eq!(
        bob_hears.next_message(WAIT).await.as_deref(),
        Some("Ann: hello from alpha")
    );
    assert_eq!(
        cat_hears.next_message(WAIT).await.as_deref(),
        Some("Ann: hello from alpha")
    );
    // Bob mutes Ann from alpha (his stream is on beta): her next line reaches Cat, not Bob.
    let r = chatting(&bob, alpha.addr()).await.mute("Ann", "on").await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        bob_hears.next_of("reload", WAIT).await.as_deref(),
        Some("relations")
    );
    ann_chat.says("lobby", "anyone for a game").await;
    moe_chat.says("lobby", "welcome all").await;
    assert_eq!(
        cat_hears.next_message(WAIT).await.as_deref(),
        Some("Ann: anyone for a game")
    );
    assert_eq!(
        bob_hears.next_message(WAIT).await.as_deref(),
        Some("Moe: welcome all"),
        "Bob muted Ann"
    );

    // Moe, on alpha, deletes Ann's first line: beta's readers are told at once.
    let moderation_csrf = moe_chat.room("lobby").await["moderation_csrf"]
        .as_str()
        .unwrap()
        .to_string();
    let r = moe_chat
        .web
        .post(
            "/moderation/delete",
            &[("message", &hello.to_string()), ("csrf", &moderation_csrf)],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(
        cat_hears.next_of("deleted", WAIT).await,
        Some(hello.to_string())
    );
    // Moe mutes Bob on alpha: Bob cannot send on beta.
    let r = moe_chat
        .web
        .post(
            "/moderation/sanction",
            &[
                ("user", "Bob"),
                ("action", "mute"),
                ("minutes", "10"),
                ("csrf", &moderation_csrf),
            ],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    let r = bob_chat.say("lobby", "let me speak").await;
    assert_eq!(r.status, 403, "{}", r.text());
    stop(vec![alpha, beta], shared).await;
}

/// A rematch offered on a process that then stops is still answered on another: the process
/// asked waits for the holder a moment, then decides with what it was told.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_rematch_offered_on_a_process_that_stopped_is_answered_on_another() {
    let Some(shared) = Shared::start("rematch_holder_stopped").await else {
        return;
    };
    let alpha = shared.serve("alpha", WORDS).await;
    let beta = shared.serve("beta", WORDS).await;
    let ann = Player::sign_up(alpha.addr(), "127.0.0.11", "Ann").await;
    let bob = Player::sign_up(beta.addr(), "127.0.0.12", "Bob").await;
    let mut ann_sees = ann.stream().await;
    let mut bob_sees = bob.stream().await;
    let seek = ann.seek(json!({"minutes": 10})).await;
    assert_eq!(next_seek(&mut bob_sees, &seek).await, seek);
    let bobs = bob.accept(&seek).await;
    let anns = ann_sees.wait("game").await;
    let id = bobs["game_id"].as_str().unwrap().to_string();
    let bob_seat = bobs["seat"].as_u64().unwrap() as usize;
    let mut conns = vec![
        (bob_seat, seat(beta.addr(), &bobs).await),
        (1 - bob_seat, seat(alpha.addr(), &anns).await),
    ];
    conns.sort_by_key(|(s, _)| *s);
    let mut table = Table::of(
        beta.addr(),
        &id,
        conns.into_iter().map(|(_, c)| c).collect(),
        None,
    );
    table.ok(bob_seat, json!({"type": "resign"})).await;
    assert_eq!(table.view(bob_seat)["phase"]["type"], "ended");
    drop(table);
    drop(ann_sees);
    let r = ann.rematch(&id, "offer").await;
    assert_eq!(r.status, 201, "{}", r.text());
    assert_eq!(bob_sees.wait("rematch").await["state"], "offered");
    alpha.shutdown().await;

    let r = bob.rematch(&id, "accept").await;
    assert_eq!(r.status, 201, "{}", r.text());
    let bobs2 = r.json().unwrap()["game"].clone();
    assert_eq!(bobs2["seat"].as_u64().unwrap() as usize, 1 - bob_seat);
    assert_eq!(bobs2["opponent"], "Ann");
    // Beta holds the offer now: a second answer is refused at once.
    let r = bob.rematch(&id, "accept").await;
    assert_eq!(r.status, 409, "{}", r.text());
    // Ann, sent to beta by the load balancer, finds her seat in the rematch.
    let mut ann_on_beta = on(&ann, beta.addr()).v;
    let st: Value = ann_on_beta
        .get(&format!("/api/games/{id}/rematch"))
        .await
        .json()
        .unwrap();
    assert_eq!(st["offer"]["state"], "accepted", "{st}");
    assert_eq!(st["rematch"]["game_id"], bobs2["game_id"], "{st}");
    assert_ne!(st["rematch"]["url"], bobs2["url"], "{st}");
    stop(vec![beta], shared).await;
}
