//! Issue 30 (6) in headless Chromium: an online event that runs itself. The director opens a
//! division to online entries on the Players tab; four people create accounts, register on the
//! division's entry page and check in; the director closes check-in and posts round 1 (the games
//! start at once, with the accounts' seats: no links handed out); each player finds their own
//! game on their page and opens it; the games are played (the moves sent over the WebSocket by
//! the test, for speed) and the results are in the public standings. Each page is checked at a
//! 360 px phone's width (nothing scrolls sideways) and a desktop's, with axe-core.
//!
//! Without Chromium and chromedriver the test prints a skip note and passes. Screenshots go to
//! `target/browser-screenshots/p30-events-*.png`.

mod browser_support;
mod common;

use browser_support::{Browser, Session, TestServer};
use serde_json::json;
use std::time::Duration;

const PLAYERS: [&str; 4] = ["ann", "bob", "cat", "dan"];
const ENTRY: &str = "/events/club/A/entry";

/// A person follows the event page's "register online", creates an account from the sign-in
/// page it leads to, and lands back on the division's entry page.
fn sign_up_for_the_event(s: &Session<'_>, server: &TestServer, name: &str) {
    s.goto(&server.url("/events/club"));
    s.click_css(&format!("#divisions a[href='{ENTRY}']"));
    // Signed out, the entry page sends them to sign in; they create an account instead.
    s.find("#sign-in");
    s.click_css("main a[href^='/signup']");
    s.fill("#username", name);
    s.fill("#password", "a long enough secret");
    s.click_css("#create");
    s.wait_js(
        "the entry page",
        "return location.pathname === '/events/club/A/entry'",
    );
}

#[test]
fn four_players_enter_check_in_and_play_a_round_the_director_posted() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = TestServer::start("p30-events");
    server.create_event("naspa-2013", "RR:3", &[]);

    // The director opens the division to online entries, check-in from now.
    let td = browser.director_session(&server);
    td.goto(&server.url("/td/club/d/A?tab=players"));
    td.find("#entries-open");
    td.fill("#entries-minutes", "25");
    td.click_css("#entries-open");
    td.wait_for_banner("Registration is open.");

    // Four people sign up from the entry page, register and check in.
    let players: Vec<Session<'_>> = PLAYERS.iter().map(|_| browser.session()).collect();
    for (s, name) in players.iter().zip(PLAYERS) {
        sign_up_for_the_event(s, &server, name);
        assert!(s.text_of("#entry-state").contains("not registered"));
        s.click_css("#register");
        s.wait_for_banner("You are registered.");
        s.click_css("#check-in");
        s.wait_for_banner("You have checked in: you will be paired.");
        assert!(s.text_of("#entry-state").contains("You have checked in."));
    }
    players[0].check_pages_fit_and_pass_axe(
        &server,
        "p30-events-",
        &[
            ("entry", ENTRY),
            ("event", "/events/club"),
            ("public", "/events/club/A"),
        ],
    );
    td.check_pages_fit_and_pass_axe(
        &server,
        "p30-events-",
        &[("td-players", "/td/club/d/A?tab=players")],
    );

    // The director closes check-in and posts round 1: the games start by themselves.
    td.goto(&server.url("/td/club/d/A?tab=players"));
    assert!(td
        .text_of("#entries-status")
        .contains("4 registered, 4 checked in"));
    td.click_css("#entries-close");
    td.wait_for_banner("Registration and check-in closed.");
    td.goto(&server.url("/td/club/d/A/pair?round=1"));
    td.click_css("#post-pairings");
    td.wait_for_banner("Round 1 pairings posted; 2 online games started.");

    // Each player finds their game on their page, and only their own seat link.
    let t = server.event_file().load().unwrap();
    let d = t.division("A").unwrap().clone();
    assert_eq!(d.online.len(), 2);
    let mut links = Vec::new();
    for s in &players {
        s.goto(&server.url(ENTRY));
        let href = s
            .property(&s.find("#play-online"), "href")
            .as_str()
            .unwrap()
            .to_string();
        assert!(
            href.contains("/games/") && href.contains("?token="),
            "{href}"
        );
        assert!(s.text_of("#game").contains("Round 1, board"));
        links.push(href);
    }
    let tokens: std::collections::HashSet<_> = links.iter().collect();
    assert_eq!(tokens.len(), 4, "four seats, four links");
    players[1].check_pages_fit_and_pass_axe(
        &server,
        "p30-events-paired-",
        &[("entry", ENTRY), ("public", "/events/club/A")],
    );
    // The public page shows the live games with watch links, and no seat's token.
    players[1].goto(&server.url("/events/club/A"));
    let public = players[1].text_of("#live-games");
    assert!(public.contains("in play"), "{public}");
    for l in &links {
        let token = l.split("?token=").nth(1).unwrap();
        let html = players[1].js("return document.body.innerHTML", json!([]));
        assert!(!html.as_str().unwrap().contains(token));
    }

    // Each player opens their game from their page: the seat is theirs, and each game starts
    // once both of its players are there.
    for s in &players {
        s.goto(&server.url(ENTRY));
        s.click_css("#play-online");
    }
    for s in &players {
        s.wait_for_seat();
    }

    // The games are played: board 1 to its end with random moves, board 2 until a resignation.
    let token_of = |p: u32| {
        let name = &d.entries.as_ref().unwrap().of_player(p).unwrap().username;
        let i = PLAYERS.iter().position(|n| n == name).unwrap();
        links[i].split("?token=").nth(1).unwrap().to_string()
    };
    for (i, o) in d.online.iter().enumerate() {
        let created = json!({
            "id": o.game_id,
            "seats": [
                {"ws": format!("/api/games/{}/ws?token={}", o.game_id, token_of(o.first))},
                {"ws": format!("/api/games/{}/ws?token={}", o.game_id, token_of(o.second))},
            ],
            "observer_ws": format!("/api/games/{}/ws", o.game_id),
        });
        server.rt.block_on(async {
            let mut table = common::Table::open(server.addr, &created, false).await;
            if i == 0 {
                // The browser tests' server keeps the real limit on a seat's messages (10 a
                // second, `Limits::default`): play at a pace a person could.
                table.autoplay(7, 3, Duration::from_millis(120), 400).await;
            } else {
                table.ok(0, json!({"type": "pass"})).await;
                table.ok(1, json!({"type": "resign"})).await;
            }
        });
    }

    // The results come into the event by themselves, and the public standings show them.
    let viewer = &players[2];
    viewer.goto(&server.url("/events/club/A"));
    let standings = viewer.wait("the standings after round 1", || {
        viewer.refresh();
        let text = viewer.text_of("main");
        text.contains("Standings after round 1").then_some(text)
    });
    let t = server.event_file().load().unwrap();
    let d = t.division("A").unwrap();
    assert!(d.round_complete(1));
    let st = d.standings(1);
    assert!(st.iter().filter(|s| s.wins2 >= 1).count() >= 2, "{st:?}");
    for s in &st {
        let name = &d.players[s.player as usize - 1].name;
        assert!(standings.contains(name.as_str()), "{name} in {standings}");
    }
    // Each player's page has their result.
    for s in &players {
        s.goto(&server.url(ENTRY));
        let result = s.text_of("#result");
        assert!(
            result.contains("you won") || result.contains("you lost") || result.contains("a tie"),
            "{result}"
        );
    }
    players[3].check_pages_fit_and_pass_axe(
        &server,
        "p30-events-done-",
        &[("entry", ENTRY), ("public", "/events/club/A")],
    );
}
