//! Issue 30 (2, 3) in headless Chromium: a player's public profile with ratings in two
//! categories, each with its history drawn as a chart (and the same figures as a table), a list
//! of games of every kind (won, lost, tied, resigned, against the computer, an event's, still
//! playing) and a record against the computer, at a 360 × 740 phone's size and a 1400 × 900
//! desktop's. The page fits the phone (nothing scrolls sideways), its chart scales to the width,
//! and axe-core finds nothing on it, with the table shown and hidden.
//!
//! Without Chromium and chromedriver the test prints a skip note and passes. Screenshots go to
//! `target/browser-screenshots/p30-profile-*.png`.

mod browser_support;

use browser_support::{viewport, Browser, Session, TestServer};
use serde_json::json;
use tilebag_core::{Action, Actor, Event, Ruleset};
use tilebag_server::store::{
    BotSeat, GameRecord, GameStatus, NewAccount, Rating, RatingPoint, SeatLink, Store, StoredEvent,
};

const SIZES: [(u32, u32, &str); 2] = [(360, 740, "phone"), (1400, 900, "desktop")];

fn check(s: &Session<'_>, name: &str, checked: &mut Vec<String>) {
    s.assert_fits(name);
    s.screenshot(&format!("p30-{name}"));
    s.assert_accessible(name);
    checked.push(name.to_string());
}

const DAY: i64 = 24 * 60 * 60 * 1000;
const START: i64 = 1_790_000_000_000;

/// An account made as sign-up makes it.
async fn account(store: &dyn Store, name: &str) -> i64 {
    store
        .accounts()
        .create_account(&NewAccount {
            username: name.into(),
            skeleton: tilebag_accounts::username::Username::parse(name)
                .unwrap()
                .skeleton(),
            password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into(),
            email: None,
            created_ms: START,
        })
        .await
        .unwrap()
        .unwrap()
}

/// A finished game as the server stores one: its record and its last event with the result.
async fn finished_game(
    store: &dyn Store,
    id: &str,
    names: [&str; 2],
    at: i64,
    scores: [i32; 2],
    reason: serde_json::Value,
    bot: Option<BotSeat>,
) {
    store
        .create_game(&GameRecord {
            id: id.into(),
            tokens: [format!("{id}-secret-0"), format!("{id}-secret-1")],
            names: names.map(String::from),
            preset: "naspa-2013".into(),
            ruleset: Ruleset::naspa_2013(),
            seed: 1,
            lexicon: "enable1".into(),
            created_at_ms: at,
            status: GameStatus::Live,
            result_json: None,
            checkpoint_ms: 0,
            events_seen: 0,
            seeded: false,
            bot,
        })
        .await
        .unwrap();
    let result = json!({"scores": scores, "reason": reason}).to_string();
    store
        .append_event(
            id,
            &StoredEvent {
                seq: 0,
                event: Event {
                    actor: Actor::Seat(0),
                    at_ms: 1000,
                    action: Action::Pass,
                },
                wall_ms: at + 20 * 60 * 1000,
            },
            Some(&result),
        )
        .await
        .unwrap();
}

fn seat(game: &str, seat: u8, account_id: i64, rated: bool, category: &str, at: i64) -> SeatLink {
    SeatLink {
        game_id: game.into(),
        seat,
        account_id,
        rated,
        event: false,
        correspondence: false,
        category: category.into(),
        created_ms: at,
    }
}

/// Ann: rated games in two categories (their history recorded as the rater records it), games
/// against the computer, an event's game and one still being played.
async fn fill(store: &dyn Store, live_game: &str) {
    let ann = account(store, "Ann").await;
    let bob = account(store, "Bob").await;
    let blitz = "ENABLE1.blitz";
    let rapid = "ENABLE1.rapid";
    let mut rating = (1500.0, 350.0);
    for k in 0..8i64 {
        let id = format!("rated{k}");
        let at = START + k * DAY;
        let (ann_score, bob_score) = if k % 3 == 2 { (350, 402) } else { (431, 388) };
        let reason = if k == 5 {
            json!({"type": "resigned", "seat": 1})
        } else {
            json!({"type": "went-out", "seat": 0})
        };
        finished_game(
            store,
            &id,
            ["Ann", "Bob"],
            at,
            [ann_score, bob_score],
            reason,
            None,
        )
        .await;
        let category = if k < 6 { blitz } else { rapid };
        store
            .seats()
            .link_seats(&[
                seat(&id, 0, ann, true, category, at),
                seat(&id, 1, bob, true, category, at),
            ])
            .await
            .unwrap();
        rating = (
            rating.0 + if ann_score > bob_score { 60.0 } else { -45.0 },
            (rating.1 * 0.85f64).max(60.0),
        );
        for (acc, r) in [(ann, rating.0), (bob, 3000.0 - rating.0)] {
            store
                .accounts()
                .record_rating(
                    &Rating {
                        account_id: acc,
                        category: category.into(),
                        rating: r,
                        deviation: rating.1,
                        volatility: 0.06,
                        games: (k as u32 % 6) + 1,
                        updated_ms: at,
                    },
                    &RatingPoint {
                        account_id: acc,
                        category: category.into(),
                        game_id: id.clone(),
                        rating: r,
                        deviation: rating.1,
                        at_ms: at,
                    },
                )
                .await
                .unwrap();
        }
    }
    // A tie, unrated.
    let at = START + 9 * DAY;
    finished_game(
        store,
        "tie1",
        ["Bob", "Ann"],
        at,
        [377, 377],
        json!({"type": "six-zeros"}),
        None,
    )
    .await;
    store
        .seats()
        .link_seats(&[
            seat("tie1", 0, bob, false, blitz, at),
            seat("tie1", 1, ann, false, blitz, at),
        ])
        .await
        .unwrap();
    // Against the computer: beaten by the strong level twice, beats the beginner once.
    for (k, (level, scores)) in [
        ("static", [301, 455]),
        ("static", [288, 470]),
        ("beginner", [420, 260]),
    ]
    .into_iter()
    .enumerate()
    {
        let id = format!("bot{k}");
        let at = START + (10 + k as i64) * DAY;
        let bot = Some(BotSeat {
            seat: 1,
            level: level.into(),
        });
        finished_game(
            store,
            &id,
            ["Ann", "Computer"],
            at,
            scores,
            json!({"type": "went-out", "seat": 1}),
            bot,
        )
        .await;
        store
            .seats()
            .link_seats(&[seat(&id, 0, ann, false, blitz, at)])
            .await
            .unwrap();
    }
    // A game of a club's event (never rated online).
    let at = START + 14 * DAY;
    finished_game(
        store,
        "event1",
        ["Bob", "Ann"],
        at,
        [390, 412],
        json!({"type": "went-out", "seat": 1}),
        None,
    )
    .await;
    store
        .seats()
        .link_seats(&[SeatLink {
            event: true,
            ..seat("event1", 1, ann, false, blitz, at)
        }])
        .await
        .unwrap();
    // The game being played now (made by the API, so the server holds it).
    store
        .seats()
        .link_seats(&[
            seat(live_game, 0, ann, true, blitz, START + 20 * DAY),
            seat(live_game, 1, bob, true, blitz, START + 20 * DAY),
        ])
        .await
        .unwrap();
}

#[test]
fn a_players_profile_fits_a_phone_and_a_desktop_and_axe_finds_nothing() {
    let Some(browser) = Browser::start() else {
        return;
    };
    let server = TestServer::start("p30-profiles");
    let live = server.create_game(json!({"players": ["Ann", "Bob"], "lexicon": "enable1"}));
    let live_id = live["id"].as_str().unwrap().to_string();
    let db = server.dir.join("tilebag.db").to_string_lossy().into_owned();
    server.rt.block_on(async {
        let store = tilebag_server::store::open(&db).await.unwrap();
        fill(&*store, &live_id).await;
    });
    let mut checked = Vec::new();
    for (w, h, size) in SIZES {
        let s = browser.session();
        viewport(&s, w, h);
        s.goto(&server.url("/u/Ann"));
        s.find("#since");
        assert_eq!(s.text_of("main h1"), "Ann");
        // Two categories, each with its chart.
        assert_eq!(s.find_all("#ratings tbody tr").len(), 2);
        assert_eq!(s.find_all("figure.rating-chart svg[role='img']").len(), 2);
        // The chart is no wider than the page.
        let fits = s.js(
            "return [...document.querySelectorAll('figure.rating-chart svg')]\
             .every(e => e.getBoundingClientRect().right <= document.documentElement.clientWidth)",
            json!([]),
        );
        assert_eq!(fits, json!(true), "{size}: a chart is wider than the page");
        // Every game, with its links; the computer's record by level.
        assert_eq!(s.find_all("#games li").len(), 14);
        assert!(s
            .text_of(&format!("#games li[data-game='{live_id}']"))
            .starts_with("Playing"));
        assert!(s
            .text_of("#games li[data-game='event1']")
            .contains("event game"));
        assert!(s
            .text_of("#games li[data-game='tie1']")
            .starts_with("Tied 377–377"));
        let record = s.text_of("#computer");
        assert!(
            record.contains("Computer (beginner)") && record.contains("Computer (strong)"),
            "{record}"
        );
        check(&s, &format!("profile-full-{size}"), &mut checked);
        s.js(
            "document.querySelector('#games-h').scrollIntoView(); return true",
            json!([]),
        );
        s.screenshot(&format!("p30-profile-games-{size}"));
        // The history as a table.
        s.click_css("figure.rating-chart details summary");
        s.find("table.rating-history");
        check(&s, &format!("profile-history-{size}"), &mut checked);
        // A game's link leads to its page.
        let link = "#games li[data-game='rated7'] a[href='/games/rated7']";
        s.js(
            "document.querySelector(arguments[0]).scrollIntoView({block: 'center'}); return true",
            json!([link]),
        );
        s.click_css(link);
        s.wait("the game page", || {
            s.js("return location.pathname", json!([]))
                .as_str()
                .filter(|p| *p == "/games/rated7")
                .map(|_| ())
        });
    }
    eprintln!("fits and axe-core found nothing on: {checked:#?}");
}
