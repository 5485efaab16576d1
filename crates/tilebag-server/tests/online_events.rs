//! Online events that run themselves (issue 30 item 6), over HTTP as browsers use them: the
//! director opens a division to online entries; players with accounts register (and are refused
//! when they should be), check in and withdraw; posting a round starts each pairing's game at
//! once with the two accounts' seats (a bye stays a bye); a player who never opens their seat
//! forfeits by the rulebook's spread (NASPA III.C, V.K.1) when the deadline passes (the test
//! passes the time in: nothing sleeps for it); and the results of games played are in the
//! standings of the public page.

mod accounts_support;
mod common;
mod events_support;

use common::{Conn, Table};
use events_support::{between, said, Backend, Db, Director, LiveStream, Player};
use serde_json::json;
use tilebag_tournament::{GameResult, Pairing};

const WORDS: &[&str] = &["QI", "ZA", "AA", "AB", "AD", "AE"];

fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

/// Both seats of an online game, connected with the players' tokens.
async fn sit(addr: std::net::SocketAddr, id: &str, tokens: [&str; 2]) -> Table {
    let created = json!({
        "id": id,
        "seats": [
            {"ws": format!("/api/games/{id}/ws?token={}", tokens[0])},
            {"ws": format!("/api/games/{id}/ws?token={}", tokens[1])},
        ],
        "observer_ws": format!("/api/games/{id}/ws"),
    });
    Table::open(addr, &created, false).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_enter_an_online_event_and_its_round_runs_itself() {
    round_runs_itself(Db::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_enter_an_online_event_and_its_round_runs_itself_on_postgres() {
    round_runs_itself(Db::Postgres).await;
}

async fn round_runs_itself(db: Db) {
    events_support::capture_log();
    let Some(backend) = Backend::start("online-events", db, WORDS).await else {
        return;
    };
    let served = &backend.served;
    let addr = served.addr;
    let td = Director::sign_in(addr, &served.dir).await;
    td.create_event("open", "naspa-2013", "RR:5").await;

    let mut ann = Player::sign_up(addr, 1, "ann").await;
    // Nothing to enter before the director opens the division.
    let page = ann.entry_page("open").await;
    assert!(page.contains("does not take online entries"), "{page}");
    assert!(!page.contains("name=\"csrf\""), "no form to post: {page}");

    // Opened with check-in an hour away.
    let later = tilebag_pages::online_events::utc(now_ms() + 3_600_000);
    let later = format!("{}T{}", &later[..10], &later[11..16]);
    let to = td.open_entries("open", &later, 25).await;
    assert_eq!(said(&to), "Registration is open.", "{to}");
    let event_page = tilebag_server::client::request(addr, "GET", "/events/open", &[], None)
        .await
        .unwrap()
        .text();
    assert!(
        event_page.contains("href=\"/events/open/A/entry\""),
        "{event_page}"
    );
    let to = td.open_entries("open", "next tuesday", 25).await;
    assert!(said(&to).contains("must be a date and time"), "{to}");
    let to = td.open_entries("open", &later, 0).await;
    assert!(said(&to).contains("1 to 240 minutes, not 0"), "{to}");

    // Five players register; a sixth (fay) registers and never checks in.
    let mut players = vec![];
    for (n, name) in ["bob", "cat", "dan", "eve", "fay"].iter().enumerate() {
        players.push(Player::sign_up(addr, n as u8 + 2, name).await);
    }
    let to = ann.press("open", "register").await;
    assert_eq!(said(&to), "You are registered.", "{to}");
    for p in players.iter_mut() {
        assert_eq!(
            said(&p.press("open", "register").await),
            "You are registered."
        );
    }
    // Once per account.
    let to = ann.press("open", "register").await;
    assert!(
        said(&to).contains("ann is already registered (player #1)"),
        "{to}"
    );
    // Check-in is not open yet.
    let page = ann.entry_page("open").await;
    assert!(page.contains("Check-in opens at"), "{page}");
    let csrf = between(&page, "name=\"csrf\" value=\"", "\"")
        .unwrap()
        .to_string();
    let to = ann.post("open", "check-in", &csrf).await;
    assert!(said(&to).contains("check-in has not opened yet"), "{to}");
    // Refusals of the form itself: another site, a wrong CSRF token, an unknown button.
    let r = ann
        .visitor
        .post_from(
            "http://evil.example",
            "/events/open/A/entry",
            &[("do", "withdraw"), ("csrf", &csrf)],
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.text());
    let r = ann
        .visitor
        .post(
            "/events/open/A/entry",
            &[("do", "withdraw"), ("csrf", "forged")],
        )
        .await;
    assert_eq!(r.status, 403, "{}", r.text());
    let to = ann.post("open", "delete-everyone", &csrf).await;
    assert!(
        said(&to).contains("is not something an entry page does"),
        "{to}"
    );
    // Signed out: sent to sign in, and back here after.
    let mut stranger = accounts_support::Visitor::at("127.0.0.40", addr);
    let r = stranger.get("/events/open/A/entry").await;
    assert_eq!(r.status, 303);
    assert_eq!(
        r.header("location"),
        Some("/signin?next=%2Fevents%2Fopen%2FA%2Fentry")
    );

    // A banned account is refused: it has no session to register with.
    let mut gus = Player::sign_up(addr, 9, "gus").await;
    let store = tilebag_server::store::open(&served.db).await.unwrap();
    let gus_account = store
        .accounts()
        .account_by_skeleton(&tilebag_accounts::username::skeleton("gus"))
        .await
        .unwrap()
        .unwrap();
    assert!(store
        .accounts()
        .set_moderation(gus_account.id, None, true)
        .await
        .unwrap());
    let r = gus
        .visitor
        .post("/events/open/A/entry", &[("do", "register"), ("csrf", "x")])
        .await;
    assert_eq!(r.status, 303);
    assert!(
        r.header("location").unwrap().starts_with("/signin"),
        "{r:?}"
    );

    // Check-in opens now; five check in, fay does not.
    let to = td.open_entries("open", "", 25).await;
    assert_eq!(said(&to), "Registration is open.", "{to}");
    assert_eq!(
        said(&ann.press("open", "check-in").await),
        "You have checked in: you will be paired."
    );
    for p in players.iter_mut().take(4) {
        assert_eq!(
            said(&p.press("open", "check-in").await),
            "You have checked in: you will be paired."
        );
    }
    let to = ann.press("open", "check-in").await;
    assert!(said(&to).contains("you have already checked in"), "{to}");
    // Eve withdraws and comes back: the same player, checked in again.
    let eve = &mut players[3];
    assert_eq!(
        said(&eve.press("open", "withdraw").await),
        "You have withdrawn."
    );
    assert_eq!(
        said(&eve.press("open", "register").await),
        "You are registered."
    );
    assert_eq!(
        said(&eve.press("open", "check-in").await),
        "You have checked in: you will be paired."
    );

    // The director sees the entrants, and closes: fay is withdrawn and not paired.
    let page = td.get("/td/open/d/A?tab=players").await.text();
    assert!(page.contains("6 registered, 5 checked in"), "{page}");
    let to = td.close_entries("open").await;
    assert_eq!(said(&to), "Registration and check-in closed.", "{to}");
    // A closed division offers no way in (the event refuses a registration posted anyway:
    // `tilebag-tournament/tests/entries.rs`).
    let mut hal = Player::sign_up(addr, 8, "hal").await;
    let page = hal.entry_page("open").await;
    assert!(page.contains("Registration is closed."), "{page}");
    assert!(!page.contains("id=\"register\""), "{page}");
    let d = td.division("open");
    assert_eq!(d.players.len(), 6, "one player per account");
    assert_eq!(d.active_players(1), vec![1, 2, 3, 4, 5]);

    // Ann and Bob keep their entry pages open: the pages follow the event live (a visitor who
    // is not signed in has no stream: the page carries a player's own link).
    let live_path = "/live/events/open/A/entry";
    let anon = LiveStream::open(&stranger, live_path).await;
    assert_eq!(anon.status, 401);
    let mut live = vec![];
    for v in [&ann.visitor, &players[0].visitor] {
        let mut stream = LiveStream::open(v, live_path).await;
        assert_eq!(stream.status, 200);
        let first = stream
            .next_page(common::WAIT)
            .await
            .expect("the page at once");
        assert!(first.contains("You have not been paired yet"), "{first}");
        live.push(stream);
    }

    // Posting round 1 starts its two games at once; the odd player out has a bye.
    let to = td.pair("open", 1).await;
    assert_eq!(
        said(&to),
        "Round 1 pairings posted; 2 online games started.",
        "{to}"
    );
    let d = td.division("open");
    let entries = d.entries.clone().unwrap();
    assert!(entries.round_started_ms(1).is_some());
    let round = d.round(1).unwrap();
    let games: Vec<_> = round
        .pairings
        .iter()
        .filter_map(Pairing::game)
        .cloned()
        .collect();
    assert_eq!(games.len(), 2);
    let bye = round
        .pairings
        .iter()
        .find_map(|p| match p {
            Pairing::Bye { player, .. } => Some(*player),
            _ => None,
        })
        .expect("a bye");
    assert_eq!(d.online.len(), 2);
    // Each game's seats are the two accounts', recorded as an event's (not rated online).
    for o in &d.online {
        let links = store.seats().seats_of_game(&o.game_id).await.unwrap();
        assert_eq!(links.len(), 2);
        for (seat, p) in [(0, o.first), (1, o.second)] {
            let l = &links[seat];
            assert_eq!(l.account_id, entries.of_player(p).unwrap().account_id);
            assert!(l.event && !l.rated, "{l:?}");
        }
    }

    // Each player sees their own game and seat link; nobody else's token is on their page.
    let mut everyone: Vec<&mut Player> = vec![&mut ann];
    everyone.extend(players.iter_mut());
    let mut tokens = std::collections::HashMap::new();
    for p in everyone {
        let id = entries.entrant_named(&p.name).map(|x| x.player);
        let link = p.seat_link("open").await;
        match id {
            Some(me) if me == bye => {
                assert!(link.is_none());
                assert!(p.entry_page("open").await.contains("you have a bye"));
            }
            Some(me) if me <= 5 => {
                let (game, token) = link.unwrap_or_else(|| panic!("{} has no seat link", p.name));
                tokens.insert(me, (game, token));
            }
            _ => assert!(link.is_none(), "{} is not playing", p.name),
        }
    }
    assert_eq!(tokens.len(), 4);
    // The open entry pages changed by themselves: each shows its game's seat link (or the bye),
    // with no reload.
    let mut links_seen = 0;
    for (stream, who) in live.iter_mut().zip(["ann", "bob"]) {
        let me = entries.entrant_named(who).unwrap().player;
        let page = loop {
            let page = stream
                .next_page(common::WAIT)
                .await
                .unwrap_or_else(|| panic!("{who}'s page was not updated"));
            if page.contains("Round 1") {
                break page;
            }
        };
        if me == bye {
            assert!(page.contains("you have a bye"), "{page}");
        } else {
            let (game, token) = &tokens[&me];
            assert!(
                page.contains(&format!("href=\"/games/{game}?token={token}\"")),
                "{who}: {page}"
            );
            links_seen += 1;
        }
    }
    assert!(links_seen >= 1);
    drop(live);
    let mut seen = std::collections::HashSet::new();
    for (_, t) in tokens.values() {
        assert!(seen.insert(t.clone()), "every seat has its own token");
    }
    // The public page lists the live games with watch links, and no seat's token.
    let public = tilebag_server::client::request(addr, "GET", "/events/open/A", &[], None)
        .await
        .unwrap()
        .text();
    for o in &d.online {
        assert!(
            public.contains(&format!("href=\"/games/{}\"", o.game_id)),
            "{public}"
        );
    }
    for (_, t) in tokens.values() {
        assert!(!public.contains(t.as_str()));
    }

    // Board 1 is played: both players open their seats, and the second resigns (a loss by the
    // resignation margin, NASPA V.K.2): the game reports its result itself.
    let (g1, g2) = (&games[0], &games[1]);
    let (o1, o2) = {
        let find = |g: &tilebag_tournament::Game| {
            d.online
                .iter()
                .find(|o| g.opponent_of(o.first) == Some(o.second))
                .unwrap()
                .clone()
        };
        (find(g1), find(g2))
    };
    let mut table = sit(
        addr,
        &o1.game_id,
        [&tokens[&o1.first].1, &tokens[&o1.second].1],
    )
    .await;
    table.ok(1, json!({"type": "resign"})).await;
    // On board 2 only the first player opens their seat; the second never does.
    let _present = Conn::open(
        addr,
        &format!("/api/games/{}/ws?token={}", o2.game_id, tokens[&o2.first].1),
    )
    .await;

    // Before the deadline nobody forfeits; after it, the absent player does (NASPA V.K.1: 50).
    let started = entries.round_started_ms(1).unwrap();
    assert!(served
        .server
        .check_no_shows(started + 24 * 60_000)
        .await
        .is_empty());
    let forfeited = served.server.check_no_shows(started + 26 * 60_000).await;
    assert_eq!(
        forfeited,
        vec![o2.game_id.clone()],
        "only board 2's absentee forfeits"
    );
    let d = td.division("open");
    let g = d.player_round(1, o2.second).unwrap();
    match &g.pairing.game().unwrap().result {
        Some(GameResult::Forfeit { loser, spread }) => {
            assert_eq!((*loser, *spread), (o2.second, 50));
        }
        other => panic!("board 2: {other:?}"),
    }
    // Checking again changes nothing.
    assert!(served
        .server
        .check_no_shows(started + 60 * 60_000)
        .await
        .is_empty());

    // Board 1's result reaches the event by itself, and the standings show both.
    let deadline = std::time::Instant::now() + common::WAIT;
    let d = loop {
        let d = td.division("open");
        if d.round_complete(1) {
            break d;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "board 1's result never came"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    let st = d.standings(1);
    let winner_of_1 = o1.first;
    let top: Vec<_> = st
        .iter()
        .filter(|s| s.wins2 == 2)
        .map(|s| s.player)
        .collect();
    assert!(
        top.contains(&winner_of_1) && top.contains(&o2.first) && top.contains(&bye),
        "{st:?}"
    );
    let public = tilebag_server::client::request(addr, "GET", "/events/open/A", &[], None)
        .await
        .unwrap()
        .text();
    assert!(public.contains("Standings after round 1"), "{public}");
    assert!(
        !public.contains("games in play"),
        "no game is live any more: {public}"
    );
    // The event keeps the no-show, and the director's undo page says what it was.
    let t = td.load("open");
    assert_eq!(t.divisions[0].entries.as_ref().unwrap().no_shows.len(), 1);
    let undo = td.get("/td/open/undo").await.text();
    assert!(undo.contains("the no-show forfeit of"), "{undo}");
    backend.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arrival_is_per_seat_and_a_forfeit_is_recorded_once() {
    arrival_is_per_seat(Db::Sqlite).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arrival_is_per_seat_and_a_forfeit_is_recorded_once_on_postgres() {
    arrival_is_per_seat(Db::Postgres).await;
}

/// The player of `player` among `names`.
fn who<'a>(
    names: &'a mut [Player],
    d: &tilebag_tournament::Division,
    player: u32,
) -> &'a mut Player {
    let e = d.entries.as_ref().unwrap();
    names
        .iter_mut()
        .find(|p| e.entrant_named(&p.name).unwrap().player == player)
        .unwrap()
}

/// Sends `message` on `conn` and waits for its acknowledgement.
async fn acked(conn: &mut Conn, message: serde_json::Value) {
    let id = message["id"].clone();
    conn.ws.send_json(&message).await.unwrap();
    let deadline = std::time::Instant::now() + common::WAIT;
    loop {
        let m = conn.next().await;
        if m["id"] == id {
            assert_eq!(m["type"], "ack", "{m}");
            return;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "no answer to {message}"
        );
    }
}

/// On one board the first player comes and moves, the second never comes: the clock ran for the
/// latecomer (WESPA 2.3.3), and the latecomer still forfeits at the deadline (NASPA III.C, WESPA
/// 2.3.5). On the other nobody comes: a double forfeit. Each forfeit is recorded once, the
/// forfeited games report nothing more (no result, no error logged) and the standings count each
/// game once; a later round's game still reports itself.
async fn arrival_is_per_seat(db: Db) {
    events_support::capture_log();
    let Some(backend) = Backend::start("online-events-late", db, WORDS).await else {
        return;
    };
    let served = &backend.served;
    let addr = served.addr;
    let td = Director::sign_in(addr, &served.dir).await;
    td.create_event("late", "wespa-2010", "RR:3").await;
    td.open_entries("late", "", 10).await;
    let mut names = vec![];
    for (n, name) in ["ivy", "jon", "kim", "lee"].iter().enumerate() {
        let mut p = Player::sign_up(addr, n as u8 + 1, name).await;
        p.press("late", "register").await;
        p.press("late", "check-in").await;
        names.push(p);
    }
    td.close_entries("late").await;
    let to = td.pair("late", 1).await;
    assert_eq!(
        said(&to),
        "Round 1 pairings posted; 2 online games started.",
        "{to}"
    );
    let d = td.division("late");
    let started = d.entries.as_ref().unwrap().round_started_ms(1).unwrap();
    let (played, empty) = (d.online[0].clone(), d.online[1].clone());
    let (_, token) = who(&mut names, &d, played.first)
        .seat_link("late")
        .await
        .unwrap();
    let mut first = Conn::open(
        addr,
        &format!("/api/games/{}/ws?token={token}", played.game_id),
    )
    .await;
    acked(&mut first, json!({"type": "pass", "id": "p1"})).await;
    // Not before the deadline.
    assert!(served
        .server
        .check_no_shows(started + 9 * 60_000)
        .await
        .is_empty());
    let mut forfeited = served.server.check_no_shows(started + 11 * 60_000).await;
    forfeited.sort();
    let mut both = vec![played.game_id.clone(), empty.game_id.clone()];
    both.sort();
    assert_eq!(forfeited, both);
    let d = td.division("late");
    let result = |d: &tilebag_tournament::Division, p: u32| {
        d.player_round(1, p)
            .unwrap()
            .pairing
            .game()
            .unwrap()
            .result
            .clone()
    };
    // WESPA 2.3.6(a): a win by 75 for the player who came; both absent: a loss for each.
    assert_eq!(
        result(&d, played.first),
        Some(GameResult::Forfeit {
            loser: played.second,
            spread: 75
        })
    );
    assert_eq!(
        result(&d, empty.first),
        Some(GameResult::DoubleForfeit { spread: 75 })
    );
    let standing = |d: &tilebag_tournament::Division, p: u32| {
        let s = d.standings(1).into_iter().find(|s| s.player == p).unwrap();
        (s.wins2, s.losses2, s.spread)
    };
    assert_eq!(standing(&d, played.first), (2, 0, 75));
    assert_eq!(standing(&d, played.second), (0, 2, -75));
    for p in [empty.first, empty.second] {
        assert_eq!(standing(&d, p), (0, 2, -75));
    }
    // The forfeited games are over: their seats can no longer be played.
    for id in [&played.game_id, &empty.game_id] {
        let h = tilebag_server::client::http(addr, "GET", &format!("/api/games/{id}"), None)
            .await
            .unwrap();
        assert!(h.text().contains("ended"), "{}", h.text());
    }
    // Checking again changes nothing.
    assert!(served
        .server
        .check_no_shows(started + 60 * 60_000)
        .await
        .is_empty());

    // Round 2 is played: a resignation reports itself. The reporter takes ended games in order,
    // so once this result is in, the forfeited games' ends (earlier) have been dealt with too.
    let to = td.pair("late", 2).await;
    assert_eq!(
        said(&to),
        "Round 2 pairings posted; 2 online games started.",
        "{to}"
    );
    let d = td.division("late");
    let next = d.online.iter().find(|o| o.round == 2).unwrap().clone();
    let (_, t0) = who(&mut names, &d, next.first)
        .seat_link("late")
        .await
        .unwrap();
    let (_, t1) = who(&mut names, &d, next.second)
        .seat_link("late")
        .await
        .unwrap();
    let mut table = sit(addr, &next.game_id, [&t0, &t1]).await;
    table.ok(1, json!({"type": "resign"})).await;
    let deadline = std::time::Instant::now() + common::WAIT;
    let d = loop {
        let d = td.division("late");
        let g = d
            .player_round(2, next.first)
            .unwrap()
            .pairing
            .game()
            .unwrap()
            .clone();
        if g.result.is_some() {
            break d;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "round 2's result never came"
        );
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    // Each forfeit once in the log; no result reported from a forfeited game; nothing logged
    // about them.
    let log = td.log("late");
    for id in [&played.game_id, &empty.game_id] {
        let no_shows = log
            .iter()
            .filter(|a| a.contains("no-show") && a.contains(id.as_str()))
            .count();
        assert_eq!(no_shows, 1, "{log:?}");
        assert!(
            !log.iter()
                .any(|a| a.contains("\"report-online\"") && a.contains(id.as_str())),
            "{log:?}"
        );
    }
    let logged = events_support::logged();
    for id in [&played.game_id, &empty.game_id] {
        assert!(!logged.contains(id.as_str()), "{logged}");
    }
    assert!(!logged.contains("no longer linked"), "{logged}");
    assert_eq!(d.entries.as_ref().unwrap().no_shows.len(), 2);
    // The standings after round 2 count round 1's forfeits once and round 2's game.
    let st = d.standings(2);
    let total_wins: u32 = st.iter().map(|s| s.wins2).sum();
    // Round 1: one forfeit win (2) and a double forfeit (0); round 2: one decided game (2).
    assert_eq!(total_wins, 4, "{st:?}");
    backend.stop().await;
}

/// An account banned after it registered is given no seat: its player is withdrawn from the
/// round (NASPA V.K.1: a forfeit loss, the opponent's forfeit win by 50) and left out of later
/// rounds; the other game starts as usual.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_banned_after_registering_is_withdrawn_not_seated() {
    let Some(backend) = Backend::start("online-events-banned", Db::Sqlite, WORDS).await else {
        return;
    };
    let served = &backend.served;
    let addr = served.addr;
    let td = Director::sign_in(addr, &served.dir).await;
    td.create_event("ban", "naspa-2013", "RR:3").await;
    td.open_entries("ban", "", 25).await;
    let mut names = vec![];
    for (n, name) in ["mia", "ned", "oli", "pam"].iter().enumerate() {
        let mut p = Player::sign_up(addr, n as u8 + 1, name).await;
        p.press("ban", "register").await;
        p.press("ban", "check-in").await;
        names.push(p);
    }
    td.close_entries("ban").await;
    // A moderator bans ned after he registered and checked in.
    let store = tilebag_server::store::open(&served.db).await.unwrap();
    let ned = store
        .accounts()
        .account_by_skeleton(&tilebag_accounts::username::skeleton("ned"))
        .await
        .unwrap()
        .unwrap();
    assert!(store
        .accounts()
        .set_moderation(ned.id, None, true)
        .await
        .unwrap());
    let to = td.pair("ban", 1).await;
    assert_eq!(
        said(&to),
        "Round 1 pairings posted; 1 online games started.",
        "{to}"
    );
    let d = td.division("ban");
    let banned = d.entries.as_ref().unwrap().entrant(ned.id).unwrap().player;
    let g = d
        .player_round(1, banned)
        .unwrap()
        .pairing
        .game()
        .unwrap()
        .clone();
    let opponent = g.opponent_of(banned).unwrap();
    assert_eq!(
        g.result,
        Some(GameResult::Forfeit {
            loser: banned,
            spread: 50
        })
    );
    // No game of his, no seat: only the other pairing's game started.
    assert_eq!(d.online.len(), 1);
    assert!(d
        .online
        .iter()
        .all(|o| o.first != banned && o.second != banned));
    assert!(store
        .seats()
        .games_of_account(ned.id, 10)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(d.players[banned as usize - 1].withdrawn_from, Some(1));
    let s = d.standings(1);
    let of = |p: u32| {
        s.iter()
            .find(|x| x.player == p)
            .map(|x| (x.wins2, x.spread))
            .unwrap()
    };
    assert_eq!(of(opponent), (2, 50));
    assert_eq!(of(banned), (0, -50));
    // His opponent's page says the result, and offers no game to open.
    let page = who(&mut names, &d, opponent).entry_page("ban").await;
    assert!(page.contains("you won"), "{page}");
    assert!(!page.contains("href=\"/games/"), "{page}");
    backend.stop().await;
}

/// Arrival outlives a restart where the game's log shows it: two players who both opened their
/// seats (the clock started, recorded as the game's first checkpoint) and a player who moved
/// have arrived, though no seat is open after the restart; the one who never came forfeits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn arrivals_recorded_in_the_game_survive_a_restart() {
    let Some(backend) = Backend::start("online-events-restart", Db::Sqlite, WORDS).await else {
        return;
    };
    let addr = backend.served.addr;
    let td = Director::sign_in(addr, &backend.served.dir).await;
    td.create_event("rs", "wespa-2010", "RR:3").await;
    td.open_entries("rs", "", 10).await;
    let mut names = vec![];
    for (n, name) in ["quin", "rose", "sam", "tess"].iter().enumerate() {
        let mut p = Player::sign_up(addr, n as u8 + 1, name).await;
        p.press("rs", "register").await;
        p.press("rs", "check-in").await;
        names.push(p);
    }
    td.close_entries("rs").await;
    td.pair("rs", 1).await;
    let d = td.division("rs");
    let started = d.entries.as_ref().unwrap().round_started_ms(1).unwrap();
    let (both, one) = (d.online[0].clone(), d.online[1].clone());
    // Board "both": the two players open their seats and leave without a move.
    let (_, t0) = who(&mut names, &d, both.first)
        .seat_link("rs")
        .await
        .unwrap();
    let (_, t1) = who(&mut names, &d, both.second)
        .seat_link("rs")
        .await
        .unwrap();
    let table = sit(addr, &both.game_id, [&t0, &t1]).await;
    drop(table);
    // Board "one": the first player comes alone and passes.
    let (_, t) = who(&mut names, &d, one.first)
        .seat_link("rs")
        .await
        .unwrap();
    let mut first = Conn::open(addr, &format!("/api/games/{}/ws?token={t}", one.game_id)).await;
    acked(&mut first, json!({"type": "pass", "id": "p1"})).await;
    drop(first);

    let backend = backend.restart().await;
    let forfeited = backend
        .served
        .server
        .check_no_shows(started + 11 * 60_000)
        .await;
    assert_eq!(forfeited, vec![one.game_id.clone()]);
    let d = td.division("rs");
    let g = d
        .player_round(1, one.first)
        .unwrap()
        .pairing
        .game()
        .unwrap()
        .clone();
    assert_eq!(
        g.result,
        Some(GameResult::Forfeit {
            loser: one.second,
            spread: 75
        })
    );
    let g = d
        .player_round(1, both.first)
        .unwrap()
        .pairing
        .game()
        .unwrap()
        .clone();
    assert_eq!(g.result, None, "both players of board 1 had arrived");
    backend.stop().await;
}
