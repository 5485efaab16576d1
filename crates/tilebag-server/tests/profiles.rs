//! Online ratings and players' profiles (issue 30 items 2 and 3), as players meet them over
//! HTTP: two accounts play a rated game to its end and both ratings move exactly as Glicko-2
//! says; the profile page and `/api/users/NAME` show the ratings, their history, the games with
//! their links and the record against the computer; a rated game that ended while nothing rated
//! it is rated at the next start; unknown and malformed names are refused alike.

mod accounts_support;
mod common;

use accounts_support::Visitor;
use common::{config, create, Conn, Served, Table};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tilebag_accounts::glicko2::{CategoryRating, Glicko2, Outcome, RatingCategory, TimeControl};
use tilebag_accounts::username::Username;
use tilebag_lexicon::WordSource;
use tilebag_server::client::http;
use tilebag_server::store::{SeatLink, Store};
use tilebag_server::ServeConfig;

const PASSWORD: &str = "correct horse battery";

fn profile_config(db: &str) -> ServeConfig {
    let mut c = config(db, &["CAT", "DOG"]);
    // The computer needs a lexicon it can generate moves from.
    c.add_word_source("enable1", WordSource::builtin());
    c
}

/// The category a 5-minute game in the test lexicon is rated in: `TEST.blitz`.
fn blitz() -> String {
    RatingCategory::of("test", &TimeControl::minutes(5)).key()
}

/// Signs a player up (a browser of their own); their account's id.
async fn sign_up(addr: SocketAddr, store: &dyn Store, name: &str) -> i64 {
    let mut v = Visitor::new(addr);
    assert_eq!(v.sign_up(name, PASSWORD).await.status, 303);
    let skeleton = Username::parse(name).unwrap().skeleton();
    store
        .accounts()
        .account_by_skeleton(&skeleton)
        .await
        .unwrap()
        .expect("the account")
        .id
}

/// What the lobby records when it starts a game between accounts: who sits where, and whether
/// it is rated.
async fn link(store: &dyn Store, game: &str, seats: &[(u8, i64)], rated: bool) {
    let links: Vec<SeatLink> = seats
        .iter()
        .map(|&(seat, account_id)| SeatLink {
            game_id: game.into(),
            seat,
            account_id,
            rated,
            event: false,
            correspondence: false,
            category: blitz(),
            created_ms: tilebag_server::store::wall_ms(),
        })
        .collect();
    store.seats().link_seats(&links).await.unwrap();
}

async fn get_json(addr: SocketAddr, path: &str) -> (u16, Value) {
    let r = http(addr, "GET", path, None).await.unwrap();
    (r.status, r.json().unwrap_or(Value::Null))
}

async fn get_text(addr: SocketAddr, path: &str) -> (u16, String) {
    let r = http(addr, "GET", path, None).await.unwrap();
    (r.status, r.text())
}

/// `/api/users/NAME` once it shows a rating in `category` after `games` games.
async fn wait_rated(addr: SocketAddr, name: &str, games: u64) -> Value {
    for _ in 0..200 {
        let (status, body) = get_json(addr, &format!("/api/users/{name}")).await;
        assert_eq!(status, 200, "{body}");
        let rated = body["ratings"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r["category"] == blitz() && r["games"] == games);
        if rated {
            return body;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{name} was not rated after {games} games");
}

fn close(a: f64, b: f64, tol: f64) -> bool {
    (a - b).abs() <= tol
}

/// A 5-minute game between two players, by the game API (the lobby's own test starts games
/// from seeks; here the seats are linked as the lobby links them).
async fn new_game(addr: SocketAddr, names: [&str; 2]) -> Value {
    create(
        addr,
        json!({"preset": "naspa-2013", "players": names, "initial_minutes": 5}),
    )
    .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_moves_both_ratings_as_glicko2_says_and_the_profiles_show_it() {
    let served = Served::start("profiles-rated", profile_config).await;
    let addr = served.addr;
    // The test reads and links through a store of its own on the same database file.
    let store: Arc<dyn Store> = tilebag_server::store::open(&served.db).await.unwrap();
    let ann = sign_up(addr, &*store, "Ann").await;
    let bob = sign_up(addr, &*store, "Bob").await;
    let mut tokens = Vec::new();
    let mut keep = |created: &Value| {
        for s in created["seats"].as_array().unwrap() {
            tokens.push(s["token"].as_str().unwrap().to_string());
        }
    };

    // Ann (seat 0) and Bob (seat 1) play a rated game; Ann resigns: Bob wins (NASPA I.B).
    let created = new_game(addr, ["Ann", "Bob"]).await;
    keep(&created);
    let game = created["id"].as_str().unwrap().to_string();
    link(&*store, &game, &[(0, ann), (1, bob)], true).await;
    let mut table = Table::open(addr, &created, false).await;
    table.ok(0, json!({"type": "resign"})).await;

    let bobs = wait_rated(addr, "Bob", 1).await;
    let anns = wait_rated(addr, "Ann", 1).await;

    // What Glicko-2 gives two newcomers (1500, RD 350, σ 0.06) after one game, Bob winning:
    //   φ = 350 / 173.7178 = 2.014762, g(φ) = 1 / √(1 + 3φ²/π²) = 0.669069, E = 0.5,
    //   v = 1 / (g² E (1 − E)) = 8.935475, Δ = v g (1 − E) = 2.989226 (Bob; −2.989226 Ann),
    //   σ' ≈ 0.06 (one game says little of volatility), φ* = √(φ² + σ'²),
    //   φ' = 1 / √(1/φ*² + 1/v) ≈ 1.6712, μ' = ± φ'² g (1 − E) ≈ ± 0.9343,
    //   so r' ≈ 1500 ± 173.7178 × 0.9343 ≈ 1662.3 and 1337.7, RD' ≈ 173.7178 × 1.6712 ≈ 290.3.
    let point = store
        .accounts()
        .rating_history(bob, &blitz(), 5)
        .await
        .unwrap();
    assert_eq!(point.len(), 1);
    assert_eq!(point[0].game_id, game);
    let at = point[0].at_ms as u64;
    let (ann_new, bob_new) = Glicko2::default().rate_game(
        &CategoryRating::default(),
        &CategoryRating::default(),
        Outcome::Loss,
        at,
    );
    assert!(close(bob_new.rating.rating, 1662.31, 0.01), "{bob_new:?}");
    assert!(close(ann_new.rating.rating, 1337.69, 0.01), "{ann_new:?}");
    assert!(close(bob_new.rating.deviation, 290.32, 0.01), "{bob_new:?}");
    // The stored ratings are exactly Glicko-2's.
    for (id, want) in [(ann, ann_new), (bob, bob_new)] {
        let r = store
            .accounts()
            .rating(id, &blitz())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (r.rating, r.deviation, r.volatility, r.games, r.updated_ms),
            (
                want.rating.rating,
                want.rating.deviation,
                want.rating.volatility,
                1,
                at as i64
            )
        );
    }
    // The API shows them as they stand now (the deviation has grown by a few milliseconds'
    // worth of idleness: nothing visible).
    let r = &bobs["ratings"][0];
    assert!(
        close(r["rating"].as_f64().unwrap(), bob_new.rating.rating, 1e-9),
        "{r}"
    );
    assert!(close(r["deviation"].as_f64().unwrap(), 290.32, 0.01), "{r}");
    assert_eq!(r["provisional"], true);
    assert_eq!(r["history"][0]["game_id"], json!(game));
    assert!(close(
        anns["ratings"][0]["rating"].as_f64().unwrap(),
        ann_new.rating.rating,
        1e-9
    ));
    // Bob's games: this one, won against Ann, rated, with its links.
    let g = &bobs["games"][0];
    assert_eq!(g["id"], json!(game));
    assert_eq!(g["opponent"], "Ann");
    assert_eq!(g["result"], "win");
    assert_eq!(g["reason"], json!({"type": "resigned", "seat": 0}));
    assert_eq!(g["rated"], true);
    assert_eq!(g["links"]["game"], json!(format!("/games/{game}")));
    assert_eq!(g["links"]["gcg"], json!(format!("/api/games/{game}/gcg")));
    assert_eq!(
        g["links"]["analysis"],
        json!(format!("/api/games/{game}/analysis"))
    );
    assert_eq!(anns["games"][0]["result"], "loss");
    // The links lead somewhere: the game's GCG is served.
    let (status, gcg) = get_text(addr, &format!("/api/games/{game}/gcg")).await;
    assert_eq!(status, 200, "{gcg}");

    // A second rated game, Bob (seat 0) against Ann: a tie would be half each; here Bob resigns.
    let created = new_game(addr, ["Bob", "Ann"]).await;
    keep(&created);
    let second = created["id"].as_str().unwrap().to_string();
    link(&*store, &second, &[(0, bob), (1, ann)], true).await;
    let mut table = Table::open(addr, &created, false).await;
    table.ok(0, json!({"type": "resign"})).await;
    wait_rated(addr, "Bob", 2).await;
    let anns = wait_rated(addr, "Ann", 2).await;
    // Each against the other's rating before the game, aged to the game's end.
    let at2 = store
        .accounts()
        .rating_history(ann, &blitz(), 1)
        .await
        .unwrap()[0]
        .at_ms as u64;
    let (bob2, ann2) = Glicko2::default().rate_game(&bob_new, &ann_new, Outcome::Loss, at2);
    let stored = |id| {
        let store = store.clone();
        async move {
            store
                .accounts()
                .rating(id, &blitz())
                .await
                .unwrap()
                .unwrap()
        }
    };
    let (a, b) = (stored(ann).await, stored(bob).await);
    assert_eq!(
        (a.rating, a.deviation, a.games),
        (ann2.rating.rating, ann2.rating.deviation, 2)
    );
    assert_eq!(
        (b.rating, b.deviation, b.games),
        (bob2.rating.rating, bob2.rating.deviation, 2)
    );
    let history = anns["ratings"][0]["history"].as_array().unwrap();
    assert_eq!(history.len(), 2);
    assert_eq!(history[1]["game_id"], json!(second));

    // An unrated game changes nothing.
    let created = new_game(addr, ["Ann", "Bob"]).await;
    keep(&created);
    let casual = created["id"].as_str().unwrap().to_string();
    link(&*store, &casual, &[(0, ann), (1, bob)], false).await;
    let mut table = Table::open(addr, &created, false).await;
    table.ok(1, json!({"type": "resign"})).await;

    // Ann against the computer's beginner level: she resigns at once.
    let created = create(
        addr,
        json!({"players": ["Ann"], "lexicon": "enable1",
               "bot": {"level": "beginner", "seat": 1}}),
    )
    .await;
    keep(&created);
    let bot_game = created["id"].as_str().unwrap().to_string();
    link(&*store, &bot_game, &[(0, ann)], false).await;
    let mut ann_conn = Conn::open(addr, created["seats"][0]["ws"].as_str().unwrap()).await;
    ann_conn.wait_started().await;
    ann_conn
        .ws
        .send_json(&json!({"type": "resign", "id": "r1"}))
        .await
        .unwrap();
    loop {
        let m = ann_conn.next().await;
        if m["id"] == "r1" {
            assert_eq!(m["type"], "ack", "{m}");
            break;
        }
    }

    // Ann's profile, as anyone sees it.
    let (status, page) = get_text(addr, "/u/Ann").await;
    assert_eq!(status, 200, "{page}");
    let rating_now = format!("{}?", ann2.rating.rating.round() as i64);
    assert!(page.contains(&rating_now), "{rating_now} not on the page");
    assert!(page.contains("TEST · blitz"), "{page}");
    assert!(page.contains("provisional"));
    // The history: a chart with a text alternative, and the same figures as a table.
    assert!(
        page.contains("<svg") && page.contains("role=\"img\""),
        "{page}"
    );
    assert!(page.contains("The same figures as a table"));
    assert!(page.contains(&format!("{:.0}", ann_new.rating.rating)));
    // The line starts from a newcomer's rating (1500 ± 350) before her first game, and its
    // two ends carry their values.
    assert!(
        page.contains("2 games: from 1500 (±350) before the first game"),
        "{page}"
    );
    assert!(page.contains(">1500</text>"), "{page}");
    assert!(page.contains("class=\"chart-last\""), "{page}");
    // The games' rules by the preset's title, not its id.
    assert!(
        page.contains("NASPA Official Tournament Rules (2013)"),
        "{page}"
    );
    assert!(!page.contains("naspa-2013"), "{page}");
    // Every game, newest first, with its links.
    let order: Vec<usize> = [&bot_game, &casual, &second, &game]
        .iter()
        .map(|id| page.find(&format!("data-game=\"{id}\"")).expect("listed"))
        .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
    for id in [&game, &second, &casual, &bot_game] {
        assert!(page.contains(&format!("href=\"/games/{id}\"")));
        assert!(page.contains(&format!("href=\"/api/games/{id}/gcg\"")));
        assert!(page.contains(&format!("href=\"/games/{id}#analysis\"")));
    }
    assert!(page.contains("Lost"));
    assert!(page.contains("Won"));
    assert!(page.contains("you resigned"));
    assert!(page.contains("the opponent resigned"));
    assert!(page.contains("not rated"));
    // The record against the computer: one loss to the beginner.
    let (_, api) = get_json(addr, "/api/users/ann").await;
    assert_eq!(
        api["computer"],
        json!([{"level": "beginner", "wins": 0, "losses": 1, "ties": 0}])
    );
    assert_eq!(api["username"], "Ann");
    assert_eq!(api["games"].as_array().unwrap().len(), 4);
    assert_eq!(api["games"][0]["computer_level"], "beginner");
    // Nothing private: no seat token of any game.
    for token in &tokens {
        assert!(!page.contains(token.as_str()) && !api.to_string().contains(token.as_str()));
    }
    let at = page.find("id=\"computer\"").expect("the computer's table");
    let table_html = &page[at..at + page[at..].find("</table>").unwrap()];
    assert!(table_html.contains("Computer (beginner)"), "{table_html}");
    // Bob's profile has no record against the computer.
    let (_, bob_page) = get_text(addr, "/u/Bob").await;
    assert!(bob_page.contains("No finished games against the computer."));

    served.stop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rated_game_that_ended_unrated_is_rated_at_the_next_start() {
    let served = Served::start("profiles-catch-up", profile_config).await;
    let addr = served.addr;
    let store: Arc<dyn Store> = tilebag_server::store::open(&served.db).await.unwrap();
    let cy = sign_up(addr, &*store, "Cyril").await;
    let dee = sign_up(addr, &*store, "Deena").await;
    // The game ends before its seats are linked: when it ends, nothing says it is rated. The
    // seats are linked once the server has stopped, so no rater can see them before the next
    // start.
    let created = new_game(addr, ["Cyril", "Deena"]).await;
    let game = created["id"].as_str().unwrap().to_string();
    let mut table = Table::open(addr, &created, false).await;
    table.ok(1, json!({"type": "resign"})).await;
    let db = served.db.clone();
    served.server.shutdown().await;
    link(&*store, &game, &[(0, cy), (1, dee)], true).await;
    assert_eq!(store.accounts().rating(cy, &blitz()).await.unwrap(), None);
    assert_eq!(
        store.seats().unrated_ended_games(10).await.unwrap(),
        vec![game.clone()]
    );

    // The next start rates it, as it would have been rated when it ended.
    let server = tilebag_server::start(profile_config(&db)).await.unwrap();
    let addr = server.addr();
    let cys = wait_rated(addr, "Cyril", 1).await;
    let at = store
        .accounts()
        .rating_history(cy, &blitz(), 1)
        .await
        .unwrap()[0]
        .at_ms;
    let (_, events) = store.load_game(&game).await.unwrap().unwrap();
    assert_eq!(
        at,
        events.last().unwrap().wall_ms,
        "rated as of the game's end"
    );
    let (cy_new, _) = Glicko2::default().rate_game(
        &CategoryRating::default(),
        &CategoryRating::default(),
        Outcome::Win,
        at as u64,
    );
    assert!(close(
        cys["ratings"][0]["rating"].as_f64().unwrap(),
        cy_new.rating.rating,
        1e-9
    ));
    assert!(store
        .seats()
        .unrated_ended_games(10)
        .await
        .unwrap()
        .is_empty());

    // Rating stopped half-way (Cyril's rating stored, Deena's not): the next start rates Deena
    // against Cyril's rating from before the game (read from his history), so she gets exactly
    // what she would have got, and Cyril's is not counted twice.
    let deena_rated = wait_rated(addr, "Deena", 1).await;
    let rating_of = |id| {
        let store = store.clone();
        async move { store.accounts().rating(id, &blitz()).await.unwrap() }
    };
    let (cyril_was, deena_was) = (rating_of(cy).await.unwrap(), rating_of(dee).await.unwrap());
    assert_eq!(deena_rated["games"][0]["result"], "loss");
    server.shutdown().await;
    {
        let c = rusqlite::Connection::open(&db).unwrap();
        c.execute("DELETE FROM rating_history WHERE account_id = ?1", [dee])
            .unwrap();
        c.execute("DELETE FROM ratings WHERE account_id = ?1", [dee])
            .unwrap();
    }
    assert_eq!(rating_of(dee).await, None);
    let server = tilebag_server::start(profile_config(&db)).await.unwrap();
    wait_rated(server.addr(), "Deena", 1).await;
    assert_eq!(rating_of(dee).await, Some(deena_was));
    assert_eq!(rating_of(cy).await, Some(cyril_was));
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(&served.dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_malformed_and_banned_names_are_refused_alike() {
    let served = Served::start("profiles-refused", |db| config(db, &["CAT"])).await;
    let addr = served.addr;
    let store: Arc<dyn Store> = tilebag_server::store::open(&served.db).await.unwrap();
    let eve = sign_up(addr, &*store, "Eve").await;
    let (status, page) = get_text(addr, "/u/Eve").await;
    assert_eq!(status, 200);
    assert!(page.contains("No rated games yet.") && page.contains("No games yet."));
    // The look-alike spelling finds the same player.
    assert_eq!(get_text(addr, "/u/EVE").await.0, 200);
    store
        .accounts()
        .set_moderation(eve, None, true)
        .await
        .unwrap();
    let long = "x".repeat(5000);
    for name in [
        "Eve",
        "Nobody",
        "%00",
        "a%20b",
        long.as_str(),
        "..",
        "%3Cscript%3E",
    ] {
        let (status, page) = get_text(addr, &format!("/u/{name}")).await;
        assert_eq!(status, 404, "{name}: {page}");
        assert!(page.contains("There is no such player."), "{name}");
        let (status, body) = get_json(addr, &format!("/api/users/{name}")).await;
        assert_eq!(status, 404, "{name}: {body}");
        assert_eq!(body["message"], "there is no such player", "{name}");
    }
    // A client looping over names is slowed down: refused with a time to wait.
    let mut refused = None;
    for k in 0..400 {
        let r = http(addr, "GET", &format!("/api/users/someone{k}"), None)
            .await
            .unwrap();
        if r.status == 429 {
            refused = Some(r);
            break;
        }
        assert_eq!(r.status, 404);
    }
    let r = refused.expect("a limit on lookups");
    assert!(r.header("retry-after").is_some());
    assert_eq!(r.json().unwrap()["code"], "rate-limited");
    served.stop().await;
}
