//! The director's pages on several `tilebag serve` processes of one service (issue 31 item 1):
//! two processes on one PostgreSQL database, one NATS server and one events folder, a director
//! whose requests land on either (a load balancer without sticky sessions), and players on the
//! other. Skipped, saying so, where `nats-server` is not installed or `TILEBAG_TEST_POSTGRES` is
//! not set (CI has both).

mod accounts_support;
mod cluster_support;
mod common;
mod events_support;

use cluster_support::{owner_of, until_run_by, Shared};
use common::{online_games, temp_dir, Conn, Table};
use events_support::{between, said, Director, Player};
use serde_json::json;
use std::net::SocketAddr;
use std::path::Path;
use std::time::Duration;
use tilebag_server::{RunningServer, ServeConfig};
use tilebag_tournament::{GameResult, ResultSource, Tournament};

const WORDS: &[&str] = &["QI", "ZA"];

/// A process of the service, with the events folder every process shares.
fn process(shared: &Shared, name: &str, events: &Path) -> ServeConfig {
    let mut c = shared.config(name, WORDS);
    c.events_dir = Some(events.to_path_buf());
    c
}

async fn start(config: &ServeConfig) -> RunningServer {
    tilebag_server::start(config.clone()).await.unwrap()
}

/// The director with `cookie`, their next request landing on `addr`.
fn director_at(addr: SocketAddr, cookie: &str, events: &Path) -> Director {
    Director {
        addr,
        cookie: cookie.to_string(),
        events: events.to_path_buf(),
    }
}

/// Whether the page is the director's own (signed in), not the sign-in form.
async fn signed_in_on(addr: SocketAddr, cookie: &str, events: &Path) -> bool {
    let page = director_at(addr, cookie, events).get("/td").await.text();
    assert!(
        page.contains("New event") || page.contains("Director sign-in"),
        "{page}"
    );
    page.contains("New event")
}

/// Both players of game `id` at their seats on `addr`.
async fn seated(addr: SocketAddr, id: &str, tokens: &[String; 2]) -> Table {
    let ann = Conn::open(addr, &format!("/api/games/{id}/ws?token={}", tokens[0])).await;
    let bob = Conn::open(addr, &format!("/api/games/{id}/ws?token={}", tokens[1])).await;
    let mut table = Table::of(addr, id, vec![ann, bob], None);
    table.seats[1].wait_started().await;
    table.seats[0].wait_started().await;
    table
}

/// The pairing of round 1 that online game `id` plays, once the event holds its result.
async fn reported(director: &Director, id: &str) -> (Tournament, GameResult) {
    for _ in 0..400 {
        let t = director.load("club");
        let d = t.division("A").unwrap();
        let link = d.online.iter().find(|o| o.game_id == id).unwrap();
        let result = d
            .player_round(1, link.first)
            .and_then(|pr| pr.pairing.game().cloned())
            .and_then(|g| g.result);
        if let Some(r) = result {
            return (t, r);
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the result of game {id} never reached the event");
}

fn resigned_online(result: &GameResult, id: &str) -> bool {
    matches!(
        result,
        GameResult::Played { source: ResultSource::Online { game_id }, resigned_by: Some(_), .. }
            if game_id == id
    )
}

/// The standings table of division A as the director's page on `addr` shows it.
async fn standings_on(director: &Director) -> String {
    let page = director.get("/td/club/d/A?tab=standings").await.text();
    between(&page, "<table id=\"standings\">", "</table>")
        .unwrap_or_else(|| panic!("no standings: {page}"))
        .to_string()
}

/// A director signs in on alpha and works on beta with the same cookie; creates the event and
/// posts round 1 on beta; starts its online games on alpha. The players play from beta: the
/// first game (run by alpha) ends in a resignation and alpha records it; then alpha is stopped
/// for maintenance, beta takes the second game over, and its resignation is recorded by beta,
/// which never started that game. Both results are in the standings on both processes' pages
/// (alpha started again), and signing out on beta signs the director out on alpha.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_director_and_the_players_use_any_process_and_the_results_reach_every_page() {
    let Some(shared) = Shared::start("several_processes_director").await else {
        return;
    };
    let events = temp_dir("events-shared");
    let alpha_config = process(&shared, "alpha", &events);
    let alpha = start(&alpha_config).await;
    let beta = start(&process(&shared, "beta", &events)).await;

    // Signed in on alpha, the session works on beta too.
    let cookie = common::sign_in_as_director(alpha.addr()).await;
    assert!(signed_in_on(beta.addr(), &cookie, &events).await);
    assert!(!signed_in_on(beta.addr(), "tilebag_director=forged", &events).await);
    let on_alpha = director_at(alpha.addr(), &cookie, &events);
    let on_beta = director_at(beta.addr(), &cookie, &events);

    // The event, made on beta; four players added on alpha; round 1 posted on beta.
    on_beta.create_event("club", "naspa-2013", "SW%3A3").await;
    for (n, name) in ["Ann", "Bob", "Cat", "Dan"].iter().enumerate() {
        let to = on_alpha
            .post(
                "/td/club/d/A/player",
                &format!("name={name}&rating={}", 1800 - 100 * n),
            )
            .await;
        assert_eq!(to, format!("/td/club/d/A?msg=Added #{} {name}.", n + 1));
    }
    assert_eq!(
        on_beta.pair("club", 1).await,
        "/td/club/d/A?round=1&msg=Round 1 pairings posted."
    );

    // The round's games start online from alpha's page; beta's page shows them.
    let to = on_alpha
        .post("/td/club/d/A/online", "round=1&lexicon=test")
        .await;
    assert_eq!(to, "/td/club/d/A?round=1&msg=Started 2 online games.");
    let games = online_games(&on_beta.get("/td/club/d/A?round=1").await.text());
    assert_eq!(games.len(), 2, "both games on beta's page");
    let [(first, first_tokens), (second, second_tokens)] = [games[0].clone(), games[1].clone()];
    for (id, _) in &games {
        assert_eq!(owner_of(beta.addr(), id).await.as_deref(), Some("alpha"));
    }
    // Beta knows them for the event's (told by alpha; or, had the message been lost, from
    // the event file within a sweep).
    for (id, _) in &games {
        assert!(
            listed_as_the_events(beta.addr(), id).await,
            "beta does not list {id} as an event's game"
        );
    }

    // The first game, run by alpha, played from beta: the second seat resigns.
    let mut table = seated(beta.addr(), &first, &first_tokens).await;
    assert_eq!(
        table.view(0)["director"],
        true,
        "an event's game, seen from beta"
    );
    table.ok(1, json!({"type": "resign"})).await;
    let (_, result) = reported(&on_beta, &first).await;
    assert!(resigned_online(&result, &first), "{result:?}");

    // Alpha stops (maintenance); beta takes the second game over, knowing it is the event's
    // though it never started it: the game waits for its players and offers the director.
    alpha.shutdown().await;
    assert!(
        until_run_by(beta.addr(), &second, "beta").await,
        "beta did not take the game over"
    );
    let mut table = seated(beta.addr(), &second, &second_tokens).await;
    assert_eq!(table.view(1)["director"], true, "{}", table.view(1));
    table.ok(0, json!({"type": "resign"})).await;
    let (t, result) = reported(&on_beta, &second).await;
    assert!(resigned_online(&result, &second), "{result:?}");
    assert!(t.division("A").unwrap().round_complete(1));
    // Each result once: two online reports in the log.
    let reports = on_beta
        .log("club")
        .iter()
        .filter(|a| a.contains("report-online"))
        .count();
    assert_eq!(reports, 2);

    // Alpha is back: the director's cookie still works there (sessions are in no process's
    // memory), and both pages show the same standings, the winners first.
    let alpha = start(&alpha_config).await;
    let on_alpha = director_at(alpha.addr(), &cookie, &events);
    let standings = t.division("A").unwrap().standings(1);
    let winners: Vec<&str> = standings
        .iter()
        .filter(|s| s.wins2 == 2)
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(winners.len(), 2, "{standings:?}");
    let losers: Vec<&str> = standings
        .iter()
        .filter(|s| s.wins2 == 0)
        .map(|s| s.name.as_str())
        .collect();
    assert_eq!(losers.len(), 2, "{standings:?}");
    let shown = standings_on(&on_alpha).await;
    assert_eq!(shown, standings_on(&on_beta).await);
    let place = |name: &str| {
        shown
            .find(&format!("<td>{name}</td>"))
            .unwrap_or_else(|| panic!("{name} is not in the standings: {shown}"))
    };
    for w in &winners {
        for l in &losers {
            assert!(place(w) < place(l), "{w} should stand above {l}: {shown}");
        }
    }
    // The players' page agrees, on either process.
    for addr in [alpha.addr(), beta.addr()] {
        let page = request_page(addr, "/events/club/A").await;
        for w in &winners {
            assert!(page.contains(w), "{page}");
        }
    }

    // Signing out on beta ends the session on alpha too.
    let r = tilebag_server::client::request(
        beta.addr(),
        "POST",
        "/td/logout",
        &[("Cookie", &cookie)],
        Some(("application/x-www-form-urlencoded", b"")),
    )
    .await
    .unwrap();
    assert_eq!(r.status, 303);
    assert!(!signed_in_on(alpha.addr(), &cookie, &events).await);
    assert!(!signed_in_on(beta.addr(), &cookie, &events).await);

    alpha.shutdown().await;
    beta.shutdown().await;
    shared.drop().await;
    let _ = std::fs::remove_dir_all(events);
}

/// Whether the process at `addr` lists game `id` as an event's (waiting a while for it to hear).
async fn listed_as_the_events(addr: SocketAddr, id: &str) -> bool {
    for _ in 0..400 {
        let list: serde_json::Value =
            serde_json::from_str(&request_page(addr, "/api/games").await).unwrap();
        let games = list.as_array().or_else(|| list["games"].as_array());
        let game = games.and_then(|g| g.iter().find(|g| g["id"] == json!(id)));
        if game.is_some_and(|g| g["event"] == true) {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// An online event on two processes (issue 30 item 6): the players sign up, register and check
/// in on beta while the director opens and closes the entries on alpha, who sees them all; the
/// round posted on alpha starts its games there. Nobody comes: at the deadline the process
/// running the games forfeits them, the other leaves them alone, and each forfeit is recorded
/// once however many processes sweep.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn entries_made_on_one_process_are_seen_on_the_other_and_no_shows_are_forfeited_once() {
    let Some(shared) = Shared::start("several_processes_entries").await else {
        return;
    };
    let events = temp_dir("events-shared-entries");
    let alpha = start(&process(&shared, "alpha", &events)).await;
    let beta = start(&process(&shared, "beta", &events)).await;
    let cookie = common::sign_in_as_director(alpha.addr()).await;
    let td = director_at(alpha.addr(), &cookie, &events);
    td.create_event("late", "wespa-2010", "RR:3").await;
    td.open_entries("late", "", 10).await;
    for (n, name) in ["ivy", "jon", "kim", "lee"].iter().enumerate() {
        let mut p = Player::sign_up(beta.addr(), n as u8 + 1, name).await;
        assert_eq!(
            said(&p.press("late", "register").await),
            "You are registered."
        );
        assert_eq!(
            said(&p.press("late", "check-in").await),
            "You have checked in: you will be paired."
        );
    }
    let players = td.get("/td/late/d/A?tab=players").await.text();
    for name in ["ivy", "jon", "kim", "lee"] {
        assert!(
            players.contains(name),
            "alpha's page misses {name}: {players}"
        );
    }
    td.close_entries("late").await;
    assert_eq!(
        said(&td.pair("late", 1).await),
        "Round 1 pairings posted; 2 online games started."
    );
    let d = td.division("late");
    let started = d.entries.as_ref().unwrap().round_started_ms(1).unwrap();
    let mut games: Vec<String> = d.online.iter().map(|o| o.game_id.clone()).collect();
    games.sort();
    for id in &games {
        assert_eq!(owner_of(beta.addr(), id).await.as_deref(), Some("alpha"));
    }

    // Past the deadline: beta runs neither game and leaves them to alpha, which forfeits both.
    let late = started + 11 * 60_000;
    assert!(beta.check_no_shows(late).await.is_empty());
    let mut forfeited = alpha.check_no_shows(late).await;
    forfeited.sort();
    assert_eq!(forfeited, games);
    assert!(alpha.check_no_shows(late).await.is_empty());
    assert!(beta.check_no_shows(late).await.is_empty());
    let d = td.division("late");
    assert_eq!(d.entries.as_ref().unwrap().no_shows.len(), 2, "each once");
    assert!(d.online.is_empty(), "the forfeited games are unlinked");
    assert!(d.round_complete(1));

    alpha.shutdown().await;
    beta.shutdown().await;
    shared.drop().await;
    let _ = std::fs::remove_dir_all(events);
}

async fn request_page(addr: SocketAddr, path: &str) -> String {
    let r = tilebag_server::client::request(addr, "GET", path, &[], None)
        .await
        .unwrap();
    assert_eq!(r.status, 200, "{path}: {}", r.text());
    r.text()
}
