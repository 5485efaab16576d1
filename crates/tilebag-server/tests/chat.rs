//! Chat and its moderation as people meet them over HTTP (issue 30, item 5): the lobby's chat and
//! a game's two rooms delivered to who may read them and to nobody else, NASPA I.D in an event
//! game, a request for silence, the length and rate limits, mutes and blocks, reports, the
//! moderators' deletions, mutes and bans (and everybody else refused), a banned account's
//! sign-in refused, and forms from elsewhere refused.

mod accounts_support;
mod chat_support;
mod common;

use accounts_support::Visitor;
use chat_support::{account_id, database, error_of, make_moderator, said, seat, Person, PASSWORD};
use common::{config, create, Served, Table};
use serde_json::json;
use std::time::Duration;

/// How long a pushed message may take.
const SOON: Duration = Duration::from_secs(5);
/// How long to wait for a message that must not come.
const QUIET: Duration = Duration::from_millis(700);

async fn served(name: &str) -> Served {
    Served::start(name, |db| config(db, &["CAT"])).await
}

/// A game between two accounts (linked to its seats as the lobby does), both seats connected.
async fn game_between(s: &Served, first: &str, second: &str, event: bool) -> Table {
    let created = create(s.addr, json!({"players": [first, second]})).await;
    let db = database(&s.db).await;
    let (a, b) = (
        account_id(&*db, first).await,
        account_id(&*db, second).await,
    );
    seat(&*db, created["id"].as_str().unwrap(), a, b, event).await;
    Table::open(s.addr, &created, false).await
}

fn players(t: &Table) -> String {
    format!("game:{}:players", t.id)
}

fn watchers(t: &Table) -> String {
    format!("game:{}:watchers", t.id)
}

#[tokio::test]
async fn the_lobby_chat_reaches_every_signed_in_reader_at_once_and_stays_for_later() {
    let s = served("chat-lobby").await;
    let mut ann = Person::sign_up(s.addr, "Ann").await;
    let bob = Person::sign_up(s.addr, "Bob").await;
    let mut bobs = bob.listen("lobby").await;
    assert_eq!(bobs.status, 200);
    let mut anns = ann.listen("lobby").await;
    ann.says("lobby", "  anyone for a game?  ").await;
    // Trimmed, pushed to every reader, the sender included.
    assert_eq!(
        bobs.next_message(SOON).await.as_deref(),
        Some("Ann: anyone for a game?")
    );
    assert_eq!(
        anns.next_message(SOON).await.as_deref(),
        Some("Ann: anyone for a game?")
    );
    // Someone arriving later sees it in the recent messages.
    let mut cy = Person::sign_up(s.addr, "Cyd").await;
    let lobby = cy.room("lobby").await;
    assert_eq!(said(&lobby["messages"]), ["Ann: anyone for a game?"]);
    assert_eq!(lobby["may_send"], true);
    // A visitor who is not signed in reads nothing and cannot listen or send.
    let mut guest = Visitor::new(s.addr);
    let r = guest.get("/api/chat?room=lobby").await;
    assert_eq!(r.status, 200);
    let v = r.json().unwrap();
    assert_eq!(
        (v["me"].clone(), v["messages"].clone()),
        (json!(null), json!([]))
    );
    let listening = chat_support::Stream::open(&guest, "lobby").await;
    assert_eq!(listening.status, 401);
    let r = guest
        .post(
            "/api/chat/send",
            &[("room", "lobby"), ("text", "hi"), ("csrf", "x")],
        )
        .await;
    assert_eq!(r.status, 401);
    assert_eq!(error_of(&r), "Sign in to chat.");
    // No such room.
    let r = cy.web.get("/api/chat?room=kitchen").await;
    assert_eq!(r.status, 400);
    assert!(error_of(&r).contains("no such chat room"), "{}", r.text());
    s.stop().await;
}

#[tokio::test]
async fn the_watchers_chat_is_kept_from_the_players_while_the_game_is_on() {
    let s = served("chat-watchers").await;
    let mut ann = Person::sign_up(s.addr, "Ann").await;
    let mut bob = Person::sign_up(s.addr, "Bob").await;
    let mut wes = Person::sign_up(s.addr, "Wes").await;
    let mut t = game_between(&s, "Ann", "Bob", false).await;
    let (p, w) = (players(&t), watchers(&t));

    let mut ann_hears_watchers = ann.listen(&w).await;
    let mut wes_hears_players = wes.listen(&p).await;
    let mut wes_hears_watchers = wes.listen(&w).await;
    // The watchers talk among themselves; the players neither read nor hear it.
    wes.says(&w, "Ann should play QI at 8G").await;
    assert_eq!(
        wes_hears_watchers.next_message(SOON).await.as_deref(),
        Some("Wes: Ann should play QI at 8G")
    );
    assert_eq!(ann_hears_watchers.next_message(QUIET).await, None);
    let seen = ann.room(&w).await;
    assert_eq!(seen["messages"], json!([]));
    assert_eq!(
        seen["hidden"],
        "Players join the watchers' chat when their game ends."
    );
    assert!(bob.sees(&w).await.is_empty());
    let r = ann.say(&w, "I can read you").await;
    assert_eq!(r.status, 403);
    assert_eq!(
        error_of(&r),
        "Players join the watchers' chat when their game ends."
    );
    // The players talk in theirs, and the watchers may read it but not write.
    ann.says(&p, "good luck").await;
    assert_eq!(
        wes_hears_players.next_message(SOON).await.as_deref(),
        Some("Ann: good luck")
    );
    let r = wes.say(&p, "hello players").await;
    assert_eq!(r.status, 403);
    assert_eq!(
        error_of(&r),
        "Only the two players write in the players' chat."
    );
    assert_eq!(bob.sees(&p).await, ["Ann: good luck"]);

    // When the game ends the players may read and join the watchers' chat.
    t.ok(0, json!({"type": "resign"})).await;
    assert_eq!(ann.sees(&w).await, ["Wes: Ann should play QI at 8G"]);
    ann.says(&w, "I did not see QI").await;
    assert_eq!(
        wes_hears_watchers.next_message(SOON).await.as_deref(),
        Some("Ann: I did not see QI")
    );
    s.stop().await;
}

#[tokio::test]
async fn naspa_i_d_shuts_the_opponents_chat_of_an_event_game_until_it_ends() {
    let s = served("chat-event").await;
    let mut ann = Person::sign_up(s.addr, "Ann").await;
    let mut bob = Person::sign_up(s.addr, "Bob").await;
    let mut wes = Person::sign_up(s.addr, "Wes").await;
    let mut t = game_between(&s, "Ann", "Bob", true).await;
    let p = players(&t);
    let room = ann.room(&p).await;
    assert_eq!(room["may_send"], false);
    assert!(room["why_not"].as_str().unwrap().starts_with("NASPA I.D:"));
    for person in [&mut ann, &mut bob] {
        let r = person.say(&p, "nice bingo").await;
        assert_eq!(r.status, 403);
        assert_eq!(
            error_of(&r),
            "NASPA I.D: no chat between the opponents while an event game is on; it opens \
             when the game ends."
        );
    }
    // The watchers still talk among themselves.
    wes.says(&watchers(&t), "close game").await;
    t.ok(1, json!({"type": "resign"})).await;
    // Over: the players' chat opens.
    assert_eq!(ann.room(&p).await["may_send"], true);
    ann.says(&p, "good game").await;
    bob.says(&p, "thanks, you too").await;
    assert_eq!(
        wes.sees(&p).await,
        ["Ann: good game", "Bob: thanks, you too"]
    );
    s.stop().await;
}

#[tokio::test]
async fn a_player_may_ask_for_silence_in_a_casual_game() {
    let s = served("chat-silence").await;
    let mut ann = Person::sign_up(s.addr, "Ann").await;
    let mut bob = Person::sign_up(s.addr, "Bob").await;
    let mut wes = Person::sign_up(s.addr, "Wes").await;
    let mut t = game_between(&s, "Ann", "Bob", false).await;
    let p = players(&t);
    ann.says(&p, "hi Bob").await;
    let mut anns = ann.listen(&p).await;
    // A watcher cannot ask the players for silence.
    let r = wes.ask_silence(&p).await;
    assert_eq!(r.status, 403);
    assert_eq!(
        error_of(&r),
        "Only the two players write in the players' chat."
    );
    let r = bob.ask_silence(&p).await;
    assert_eq!(r.status, 200, "{}", r.text());
    // Ann is told, on her open panel.
    let notice = anns.next_of("notice", SOON).await.expect("a notice");
    assert!(
        notice.contains("Bob asked for silence (NASPA I.D)"),
        "{notice}"
    );
    assert_eq!(ann.room(&p).await["silence_requested"], true);
    for person in [&mut ann, &mut bob] {
        let r = person.say(&p, "one more thing").await;
        assert_eq!(r.status, 403);
        assert_eq!(
            error_of(&r),
            "A player asked for silence: the players' chat opens again when the game ends."
        );
    }
    t.ok(0, json!({"type": "resign"})).await;
    ann.says(&p, "good game").await;
    assert_eq!(bob.sees(&p).await, ["Ann: hi Bob", "Ann: good game"]);
    s.stop().await;
}

#[tokio::test]
async fn messages_are_limited_in_length_and_rate_and_a_refusal_says_why() {
    let s = served("chat-limits").await;
    let mut ann = Person::sign_up(s.addr, "Ann").await;
    let r = ann.say("lobby", &"é".repeat(501)).await;
    assert_eq!(r.status, 400);
    assert_eq!(
        error_of(&r),
        "A message may have at most 500 characters (this one has 501)."
    );
    let r = ann.say("lobby", " \n\t ").await;
    assert_eq!(r.status, 400);
    assert_eq!(error_of(&r), "The message is empty.");
    // Refusals cost nothing: five at once go through, the sixth waits.
    for i in 0..5 {
        ann.says("lobby", &format!("message {i}")).await;
    }
    let r = ann.say("lobby", "one too many").await;
    assert_eq!(r.status, 429);
    assert!(
        error_of(&r).starts_with("Too many messages: wait "),
        "{}",
        r.text()
    );
    let retry: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=2).contains(&retry), "Retry-After {retry}");
    // A 500-character message is fine once the rate allows.
    tokio::time::sleep(Duration::from_millis(2_100)).await;
    ann.says("lobby", &"é".repeat(500)).await;
    assert_eq!(ann.sees("lobby").await.len(), 6);
    s.stop().await;
}

#[tokio::test]
async fn a_muted_or_blocked_senders_messages_no_longer_reach_and_they_are_not_told() {
    let s = served("chat-mute").await;
    let mut ann = Person::sign_up(s.addr, "Ann").await;
    let mut bob = Person::sign_up(s.addr, "Bob").await;
    let mut cy = Person::sign_up(s.addr, "Cyd").await;
    ann.says("lobby", "first").await;
    let r = bob.mute("Ann", "on").await;
    assert_eq!(r.status, 200, "{}", r.text());
    let r = bob.block("Cyd", "on").await;
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(
        bob.room("lobby").await["hidden_users"],
        json!([{"name": "Ann", "kind": "mute"}, {"name": "Cyd", "kind": "block"}])
    );
    let mut bobs = bob.listen("lobby").await;
    let mut cys = cy.listen("lobby").await;
    // Ann is not told: her message is accepted as any other.
    ann.says("lobby", "second").await;
    cy.says("lobby", "third").await;
    bob.says("lobby", "fourth").await;
    assert_eq!(
        bobs.next_message(SOON).await.as_deref(),
        Some("Bob: fourth")
    );
    assert!(bob.sees("lobby").await == ["Bob: fourth"]);
    // Others still get everything.
    assert_eq!(cys.next_message(SOON).await.as_deref(), Some("Ann: second"));
    assert_eq!(
        cy.sees("lobby").await,
        ["Ann: first", "Ann: second", "Cyd: third", "Bob: fourth"]
    );
    // Lifted: Ann reaches Bob again, live and in the history.
    assert_eq!(bob.mute("Ann", "off").await.status, 200);
    assert_eq!(
        bobs.next_of("reload", SOON).await.as_deref(),
        Some("relations")
    );
    ann.says("lobby", "fifth").await;
    assert_eq!(bobs.next_message(SOON).await.as_deref(), Some("Ann: fifth"));
    assert_eq!(
        bob.sees("lobby").await,
        ["Ann: first", "Ann: second", "Bob: fourth", "Ann: fifth"]
    );
    // Nonsense is refused by name.
    let r = bob.mute("Bob", "on").await;
    assert_eq!(
        (r.status, error_of(&r)),
        (400, "You cannot mute yourself.".into())
    );
    let r = bob.mute("Nobody", "on").await;
    assert_eq!(
        (r.status, error_of(&r)),
        (404, "There is no such player.".into())
    );
    let r = bob
        .chat_form(
            "/api/chat/relation",
            &[("user", "Ann"), ("kind", "hug"), ("set", "on")],
        )
        .await;
    assert_eq!(
        (r.status, error_of(&r)),
        (400, "The kind is mute or block.".into())
    );
    s.stop().await;
}

#[tokio::test]
async fn moderators_delete_mute_and_ban_and_everybody_else_is_refused() {
    let s = served("chat-moderation").await;
    let mut ann = Person::sign_up(s.addr, "Ann").await;
    let mut bob = Person::sign_up(s.addr, "Bob").await;
    let mut troll = Person::sign_up(s.addr, "Troll").await;
    let mut mo = Person::sign_up(s.addr, "Moe").await;
    make_moderator(&*database(&s.db).await, "Moe").await;

    let rude = troll.says("lobby", "you all play like beginners").await;
    ann.says("lobby", "be nice").await;
    // Reports: one's own message cannot be, nor one that does not exist.
    let r = ann.report(rude, "insulting").await;
    assert_eq!(r.status, 200, "{}", r.text());
    let r = bob.report(rude, "").await;
    assert_eq!(r.status, 200, "{}", r.text());
    let r = troll.report(rude, "").await;
    assert_eq!(
        (r.status, error_of(&r)),
        (400, "You cannot report your own message.".into())
    );
    let r = bob.report(rude, &"why ".repeat(100)).await;
    assert_eq!(
        (r.status, error_of(&r)),
        (
            400,
            "A reason may have at most 300 characters (this one has 399).".into()
        )
    );
    let r = ann.report(rude + 1000, "").await;
    assert_eq!(
        (r.status, error_of(&r)),
        (404, "There is no such message.".into())
    );

    // Not a moderator: the page and its forms are refused.
    let r = ann.web.get("/moderation").await;
    assert_eq!(r.status, 403);
    assert!(r.text().contains("This page is for the moderators."));
    let r = ann
        .web
        .post(
            "/moderation/delete",
            &[("message", &rude.to_string()), ("csrf", "x")],
        )
        .await;
    assert_eq!(r.status, 403);
    let r = Visitor::new(s.addr).get("/moderation").await;
    assert_eq!(r.status, 303);
    assert_eq!(r.header("location"), Some("/signin?next=/moderation"));

    // The moderator sees the reports.
    let page = mo.web.get("/moderation").await.text();
    assert!(page.contains("you all play like beginners"), "{page}");
    assert!(page.contains("Reported by Ann: “insulting”"), "{page}");
    let csrf = moderation_csrf(&page);
    // A deletion: gone for everyone, at once.
    let mut bobs = bob.listen("lobby").await;
    let r = mo
        .web
        .post(
            "/moderation/delete",
            &[("message", &rude.to_string()), ("csrf", &csrf)],
        )
        .await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(bobs.next_of("deleted", SOON).await, Some(rude.to_string()));
    assert_eq!(bob.sees("lobby").await, ["Ann: be nice"]);
    let page = mo.web.get("/moderation").await.text();
    assert!(page.contains("No open reports."), "{page}");

    // A mute for 10 minutes: the troll reads but cannot send.
    let r = sanction(&mut mo, &csrf, "Troll", "mute", "10").await;
    assert_eq!(r.status, 303);
    let r = troll.say("lobby", "still here").await;
    assert_eq!(r.status, 403);
    assert!(
        error_of(&r).starts_with("Your account is muted until "),
        "{}",
        r.text()
    );
    assert_eq!(troll.sees("lobby").await, ["Ann: be nice"]);
    let r = sanction(&mut mo, &csrf, "Troll", "mute", "forever").await;
    assert!(
        r.header("location").unwrap().contains("err="),
        "{:?}",
        r.header("location")
    );
    assert_eq!(
        sanction(&mut mo, &csrf, "Troll", "unmute", "").await.status,
        303
    );
    troll.says("lobby", "sorry").await;

    // A ban: signed out at once, cannot sign in again; lifted, can.
    assert_eq!(
        sanction(&mut mo, &csrf, "Troll", "ban", "").await.status,
        303
    );
    assert_eq!(troll.web.who().await, None);
    let r = troll.say("lobby", "let me in").await;
    assert_eq!(r.status, 401);
    let mut again = Visitor::new(s.addr);
    let r = again.sign_in("Troll", PASSWORD).await;
    assert_eq!(r.status, 401, "a banned account signed in");
    assert_eq!(again.who().await, None);
    assert_eq!(
        sanction(&mut mo, &csrf, "Troll", "unban", "").await.status,
        303
    );
    let r = again.sign_in("Troll", PASSWORD).await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(again.who().await.as_deref(), Some("Troll"));
    // A moderator does not sanction their own account.
    let r = sanction(&mut mo, &csrf, "Moe", "ban", "").await;
    assert!(r.header("location").unwrap().contains("err="));

    // Every action is logged: who, what, to whom.
    let page = mo.web.get("/moderation").await.text();
    let log = &page[page.find("id=\"log\"").expect("the log")..];
    for action in ["unban", "ban", "unmute", "mute", "delete"] {
        assert!(
            log.contains(&format!("<td>{action}</td>")),
            "{action} not logged: {log}"
        );
    }
    assert_eq!(log.matches("<td>Moe</td>").count(), 5, "{log}");
    assert!(log.contains("for 10 minutes, until "), "{log}");
    s.stop().await;
}

/// The moderation page's CSRF token.
fn moderation_csrf(page: &str) -> String {
    let at = page.find("name=\"csrf\" value=\"").expect("a CSRF field");
    let rest = &page[at + "name=\"csrf\" value=\"".len()..];
    rest[..rest.find('"').unwrap()].to_string()
}

async fn sanction(
    mo: &mut Person,
    csrf: &str,
    user: &str,
    action: &str,
    minutes: &str,
) -> tilebag_server::client::HttpResponse {
    mo.web
        .post(
            "/moderation/sanction",
            &[
                ("user", user),
                ("action", action),
                ("minutes", minutes),
                ("csrf", csrf),
            ],
        )
        .await
}

#[tokio::test]
async fn chat_forms_from_another_site_or_without_the_token_are_refused() {
    let s = served("chat-csrf").await;
    let mut ann = Person::sign_up(s.addr, "Ann").await;
    let csrf = ann.csrf.clone();
    let r = ann
        .web
        .post_from(
            "http://evil.example",
            "/api/chat/send",
            &[("room", "lobby"), ("text", "hi"), ("csrf", &csrf)],
        )
        .await;
    assert_eq!(r.status, 403);
    assert_eq!(
        error_of(&r),
        "This was sent from another site, so it was refused."
    );
    for token in ["", "not-the-token", &ann.web.csrf().await] {
        let r = ann
            .web
            .post(
                "/api/chat/send",
                &[("room", "lobby"), ("text", "hi"), ("csrf", token)],
            )
            .await;
        assert_eq!(r.status, 403, "token {token:?}");
        assert!(error_of(&r).starts_with("This form is out of date"));
    }
    // The moderators' forms too, even a moderator's.
    make_moderator(&*database(&s.db).await, "Ann").await;
    let r = ann
        .web
        .post_from(
            "http://evil.example",
            "/moderation/sanction",
            &[("user", "Ann"), ("action", "ban"), ("csrf", &csrf)],
        )
        .await;
    assert_eq!(r.status, 403);
    let r = ann
        .web
        .post(
            "/moderation/sanction",
            &[("user", "Bob"), ("action", "ban"), ("csrf", &csrf)],
        )
        .await;
    assert_eq!(r.status, 403, "the chat's token is not the moderators'");
    assert!(ann.sees("lobby").await.is_empty());
    s.stop().await;
}
