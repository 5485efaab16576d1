//! Every `SeatStore` method, on SQLite and (when `TILEBAG_TEST_POSTGRES` names a database) on
//! PostgreSQL in a schema of its own: the same scenarios, run by `sqlite::NAME` and
//! `postgres::NAME`; and migration 3 adding the table to a version-2 database in place.

mod support;

use support::{account, on_both, store, PgSchema, TempDir};
use tilebag_core::{Action, Actor, Event, Ruleset};
use tilebag_store::{
    BotSeat, GameRecord, GameStatus, Rating, RatingPoint, SeatLink, Store, StoredEvent,
    NOT_STARTED, SCHEMA_VERSION,
};

on_both!(
    an_accounts_games_are_listed_newest_first_with_their_records,
    linking_the_same_seats_again_changes_nothing_and_a_clash_writes_nothing,
    malformed_links_are_refused_with_the_problem_named,
    unfinished_games_are_those_still_live,
    ended_rated_games_wait_for_their_ratings,
);

/// A live game between `names`, created at `created_ms`.
async fn game(s: &dyn Store, id: &str, names: [&str; 2], created_ms: i64) -> GameRecord {
    let g = GameRecord {
        id: id.into(),
        tokens: [format!("{id}-t0"), format!("{id}-t1")],
        names: [names[0].into(), names[1].into()],
        preset: "naspa".into(),
        ruleset: Ruleset::naspa_2013(),
        seed: 7,
        lexicon: "ENABLE1".into(),
        created_at_ms: created_ms,
        status: GameStatus::Live,
        result_json: None,
        checkpoint_ms: 0,
        events_seen: 0,
        seeded: false,
        bot: None,
    };
    s.create_game(&g).await.unwrap();
    g
}

/// Ends a game: seat 0 resigns (its one event carries the result).
async fn end(s: &dyn Store, id: &str, wall_ms: i64) {
    let ev = StoredEvent {
        seq: 0,
        event: Event {
            actor: Actor::Seat(0),
            at_ms: 1_000,
            action: Action::Resign,
        },
        wall_ms,
    };
    s.append_event(id, &ev, Some(r#"{"winner":1}"#))
        .await
        .unwrap();
}

fn link(game_id: &str, seat: u8, account_id: i64, rated: bool, created_ms: i64) -> SeatLink {
    SeatLink {
        game_id: game_id.into(),
        seat,
        account_id,
        rated,
        event: false,
        correspondence: false,
        category: "enable1/blitz".into(),
        created_ms,
    }
}

async fn an_accounts_games_are_listed_newest_first_with_their_records(db: &str) {
    let s = store(db).await;
    let ann = account(&*s, "Ann").await;
    let bob = account(&*s, "Bob").await;
    game(&*s, "g1", ["Ann", "Bob"], 1_000).await;
    game(&*s, "g2", ["Bob", "Ann"], 2_000).await;
    // Ann against the computer: the computer's seat has no row.
    let mut g3 = game(&*s, "g3", ["Ann", "Computer"], 3_000).await;
    g3.id = "g3b".into();
    g3.tokens = ["g3b-t0".into(), "g3b-t1".into()];
    g3.created_at_ms = 4_000;
    g3.bot = Some(BotSeat {
        seat: 1,
        level: "static".into(),
    });
    s.create_game(&g3).await.unwrap();
    // A guests' game: no rows at all.
    game(&*s, "g4", ["guest", "guest"], 5_000).await;

    let seats = s.seats();
    let g1 = [
        link("g1", 0, ann, true, 1_000),
        link("g1", 1, bob, true, 1_000),
    ];
    let g2 = [
        link("g2", 0, bob, false, 2_000),
        link("g2", 1, ann, false, 2_000),
    ];
    let g3b = [link("g3b", 0, ann, false, 4_000)];
    seats.link_seats(&g1).await.unwrap();
    seats.link_seats(&g2).await.unwrap();
    seats.link_seats(&g3b).await.unwrap();

    assert_eq!(seats.seats_of_game("g1").await.unwrap(), g1.to_vec());
    assert_eq!(seats.seats_of_game("g3b").await.unwrap(), g3b.to_vec());
    assert_eq!(seats.seats_of_game("g4").await.unwrap(), vec![]);
    assert_eq!(seats.seats_of_game("nope").await.unwrap(), vec![]);

    let anns = seats.games_of_account(ann, 10).await.unwrap();
    let ids: Vec<&str> = anns.iter().map(|g| g.game.id.as_str()).collect();
    assert_eq!(ids, ["g3b", "g2", "g1"]);
    assert_eq!(anns[0].link, g3b[0]);
    assert_eq!(
        anns[0].game.bot,
        Some(BotSeat {
            seat: 1,
            level: "static".into()
        })
    );
    assert_eq!(anns[1].link, g2[1]);
    assert_eq!(anns[1].game.names, ["Bob".to_string(), "Ann".to_string()]);
    assert_eq!(anns[2].game.ruleset, Ruleset::naspa_2013());
    // At most `limit`, still the newest.
    let newest: Vec<String> = seats
        .games_of_account(ann, 2)
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.game.id)
        .collect();
    assert_eq!(newest, ["g3b", "g2"]);
    let bobs: Vec<String> = seats
        .games_of_account(bob, 10)
        .await
        .unwrap()
        .into_iter()
        .map(|g| g.game.id)
        .collect();
    assert_eq!(bobs, ["g2", "g1"]);
    assert!(seats.games_of_account(9_999, 10).await.unwrap().is_empty());
}

async fn linking_the_same_seats_again_changes_nothing_and_a_clash_writes_nothing(db: &str) {
    let s = store(db).await;
    let ann = account(&*s, "Ann").await;
    let bob = account(&*s, "Bob").await;
    let cy = account(&*s, "Cy").await;
    game(&*s, "g1", ["Ann", "Bob"], 1_000).await;
    let seats = s.seats();
    let rows = [
        link("g1", 0, ann, true, 1_000),
        link("g1", 1, bob, true, 1_000),
    ];
    seats.link_seats(&rows).await.unwrap();
    // A retry of the same call.
    seats.link_seats(&rows).await.unwrap();
    // One of the same rows alone.
    seats.link_seats(&rows[1..]).await.unwrap();
    assert_eq!(seats.seats_of_game("g1").await.unwrap(), rows.to_vec());

    // Another account at seat 1: refused, naming the seat and its holder.
    let err = seats
        .link_seats(&[link("g1", 1, cy, true, 1_000)])
        .await
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("g1 seat 1") && err.contains(&format!("account {bob}")),
        "{err}"
    );
    // The same account, but now unrated: a different row, refused too.
    assert!(seats
        .link_seats(&[link("g1", 0, ann, false, 1_000)])
        .await
        .is_err());
    assert_eq!(seats.seats_of_game("g1").await.unwrap(), rows.to_vec());

    // A call with a new seat and a clashing one writes neither.
    game(&*s, "g2", ["Ann", "Cy"], 2_000).await;
    seats
        .link_seats(&[link("g2", 0, ann, false, 2_000)])
        .await
        .unwrap();
    assert!(seats
        .link_seats(&[
            link("g2", 0, bob, false, 2_000),
            link("g2", 1, cy, false, 2_000)
        ])
        .await
        .is_err());
    assert_eq!(
        seats.seats_of_game("g2").await.unwrap(),
        vec![link("g2", 0, ann, false, 2_000)]
    );
}

async fn malformed_links_are_refused_with_the_problem_named(db: &str) {
    let s = store(db).await;
    let ann = account(&*s, "Ann").await;
    let bob = account(&*s, "Bob").await;
    game(&*s, "g1", ["Ann", "Bob"], 1_000).await;
    game(&*s, "g2", ["Ann", "Bob"], 1_000).await;
    let seats = s.seats();
    let refused = |links: Vec<SeatLink>, words: &'static str| {
        let seats = s.seats();
        async move {
            let err = seats.link_seats(&links).await.unwrap_err().to_string();
            assert!(err.contains(words), "{words:?} not in {err:?}");
        }
    };
    refused(vec![], "no seat").await;
    refused(
        vec![
            link("g1", 0, ann, false, 1),
            link("g1", 1, bob, false, 1),
            link("g1", 1, bob, false, 1),
        ],
        "3 seats",
    )
    .await;
    refused(vec![link("g1", 2, ann, false, 1)], "seat 2 does not exist").await;
    refused(
        vec![SeatLink {
            event: true,
            ..link("g1", 0, ann, true, 1)
        }],
        "never rated online",
    )
    .await;
    refused(
        vec![link("g1", 0, ann, false, 1), link("g1", 0, bob, false, 1)],
        "seat 0 given twice",
    )
    .await;
    refused(
        vec![link("g1", 0, ann, false, 1), link("g2", 1, bob, false, 1)],
        "two games",
    )
    .await;
    refused(
        vec![link("g1", 0, ann, true, 1), link("g1", 1, ann, true, 1)],
        "rated against itself",
    )
    .await;
    refused(
        vec![SeatLink {
            category: String::new(),
            ..link("g1", 0, ann, false, 1)
        }],
        "rating category of 0 bytes",
    )
    .await;
    refused(
        vec![SeatLink {
            category: "x".repeat(65),
            ..link("g1", 0, ann, false, 1)
        }],
        "rating category of 65 bytes",
    )
    .await;
    // A game or an account that does not exist: the foreign keys refuse it.
    assert!(seats
        .link_seats(&[link("no-such-game", 0, ann, false, 1)])
        .await
        .is_err());
    assert!(seats
        .link_seats(&[link("g1", 0, 9_999, false, 1)])
        .await
        .is_err());
    assert!(seats.seats_of_game("g1").await.unwrap().is_empty());
    // An event's game, unrated, is fine (NASPA I.D: its seats are known for chat).
    let ev = SeatLink {
        event: true,
        ..link("g2", 0, ann, false, 1)
    };
    seats.link_seats(std::slice::from_ref(&ev)).await.unwrap();
    assert_eq!(seats.seats_of_game("g2").await.unwrap(), vec![ev]);
}

async fn unfinished_games_are_those_still_live(db: &str) {
    let s = store(db).await;
    let ann = account(&*s, "Ann").await;
    let bob = account(&*s, "Bob").await;
    for (id, at) in [("live1", 1_000), ("ended", 2_000), ("live2", 4_000)] {
        game(&*s, id, ["Ann", "Bob"], at).await;
        s.seats()
            .link_seats(&[link(id, 0, ann, false, at), link(id, 1, bob, false, at)])
            .await
            .unwrap();
    }
    end(&*s, "ended", 2_500).await;
    // A game nobody started in time expires; one still waiting for its players is unfinished.
    for (id, at) in [("expired", 3_000), ("waiting", 500)] {
        let g = GameRecord {
            id: id.into(),
            tokens: [format!("{id}-t0"), format!("{id}-t1")],
            checkpoint_ms: NOT_STARTED,
            ..game(&*s, &format!("{id}-template"), ["Ann", "Bob"], at).await
        };
        s.create_game(&g).await.unwrap();
        s.seats()
            .link_seats(&[link(id, 0, ann, false, at), link(id, 1, bob, false, at)])
            .await
            .unwrap();
    }
    assert!(s.expire_game("expired").await.unwrap());

    let unfinished: Vec<String> = s
        .seats()
        .unfinished_games_of_account(ann)
        .await
        .unwrap()
        .into_iter()
        .map(|l| l.game_id)
        .collect();
    // Oldest first.
    assert_eq!(unfinished, ["waiting", "live1", "live2"]);
    let bobs: Vec<(String, u8)> = s
        .seats()
        .unfinished_games_of_account(bob)
        .await
        .unwrap()
        .into_iter()
        .map(|l| (l.game_id, l.seat))
        .collect();
    assert_eq!(
        bobs,
        [
            ("waiting".to_string(), 1),
            ("live1".to_string(), 1),
            ("live2".to_string(), 1)
        ]
    );
    assert!(s
        .seats()
        .unfinished_games_of_account(9_999)
        .await
        .unwrap()
        .is_empty());
}

async fn ended_rated_games_wait_for_their_ratings(db: &str) {
    let s = store(db).await;
    let ann = account(&*s, "Ann").await;
    let bob = account(&*s, "Bob").await;
    let seats = s.seats();
    // Rated and ended (second, then first), rated but live, unrated and ended, rated with one
    // account only (the other seat a guest).
    for (id, at, rated) in [
        ("r1", 1_000, true),
        ("r2", 2_000, true),
        ("live", 3_000, true),
        ("casual", 4_000, false),
    ] {
        game(&*s, id, ["Ann", "Bob"], at).await;
        seats
            .link_seats(&[link(id, 0, ann, rated, at), link(id, 1, bob, rated, at)])
            .await
            .unwrap();
    }
    game(&*s, "half", ["Ann", "guest"], 5_000).await;
    seats
        .link_seats(&[link("half", 0, ann, true, 5_000)])
        .await
        .unwrap();
    end(&*s, "r2", 10_000).await;
    end(&*s, "r1", 20_000).await;
    end(&*s, "casual", 30_000).await;
    end(&*s, "half", 40_000).await;
    // In the order they ended.
    assert_eq!(seats.unrated_ended_games(10).await.unwrap(), ["r2", "r1"]);
    assert_eq!(seats.unrated_ended_games(1).await.unwrap(), ["r2"]);

    let record = |account_id: i64, game_id: &'static str| {
        let s = s.clone();
        async move {
            let rating = Rating {
                account_id,
                category: "enable1/blitz".into(),
                rating: 1_600.0,
                deviation: 300.0,
                volatility: 0.06,
                games: 1,
                updated_ms: 50_000,
            };
            let point = RatingPoint {
                account_id,
                category: "enable1/blitz".into(),
                game_id: game_id.into(),
                rating: 1_600.0,
                deviation: 300.0,
                at_ms: 50_000,
            };
            assert!(s.accounts().record_rating(&rating, &point).await.unwrap());
        }
    };
    // Rated for one seat only (stopped half-way): still waiting.
    record(ann, "r2").await;
    assert_eq!(seats.unrated_ended_games(10).await.unwrap(), ["r2", "r1"]);
    record(bob, "r2").await;
    assert_eq!(seats.unrated_ended_games(10).await.unwrap(), ["r1"]);
    record(ann, "r1").await;
    record(bob, "r1").await;
    assert!(seats.unrated_ended_games(10).await.unwrap().is_empty());
}

/// What migration 3 added, and every later migration: dropped, with their rows of
/// `schema_version`, the database is as version 2 left it.
const VERSION_2_TABLES: [&str; 8] = [
    "games",
    "events",
    "health",
    "schema_version",
    "accounts",
    "sessions",
    "ratings",
    "rating_history",
];

/// Fills a store with a version-2 database's rows: two accounts, a game, a rating.
async fn version_2_rows(s: &dyn Store) -> (i64, i64) {
    let ann = account(s, "Ann").await;
    let bob = account(s, "Bob").await;
    game(s, "old", ["Ann", "Bob"], 1_000).await;
    end(s, "old", 2_000).await;
    (ann, bob)
}

/// After the upgrade: the old rows are there, and seats can be linked to the old game.
async fn check_upgraded(db: &str, ann: i64, bob: i64) {
    let s = store(db).await;
    assert_eq!(
        s.accounts()
            .account_by_id(bob)
            .await
            .unwrap()
            .unwrap()
            .username,
        "Bob"
    );
    let (old, events) = s.load_game("old").await.unwrap().unwrap();
    assert_eq!((old.status, events.len()), (GameStatus::Ended, 1));
    let rows = [
        link("old", 0, ann, true, 1_000),
        link("old", 1, bob, true, 1_000),
    ];
    s.seats().link_seats(&rows).await.unwrap();
    assert_eq!(s.seats().seats_of_game("old").await.unwrap(), rows.to_vec());
    assert_eq!(s.seats().unrated_ended_games(5).await.unwrap(), ["old"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_migration_3_adds_the_seats_to_a_version_2_database_in_place() {
    let dir = TempDir::new("game_seats_migration");
    let db = dir.db("t.db");
    let (ann, bob) = version_2_rows(&*store(&db).await).await;
    {
        let c = rusqlite::Connection::open(&db).unwrap();
        let later: Vec<String> = c
            .prepare(
                "SELECT name FROM sqlite_master WHERE type = 'table' \
                 AND name NOT LIKE 'sqlite_%'",
            )
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<Vec<String>, _>>()
            .unwrap()
            .into_iter()
            .filter(|t| !VERSION_2_TABLES.contains(&t.as_str()))
            .collect();
        assert!(later.iter().any(|t| t == "game_seats"), "{later:?}");
        for t in later {
            c.execute_batch(&format!("DROP TABLE {t}")).unwrap();
        }
        c.execute_batch("DELETE FROM schema_version WHERE version > 2")
            .unwrap();
    }
    check_upgraded(&db, ann, bob).await;
    let c = rusqlite::Connection::open(&db).unwrap();
    let version: i64 = c
        .query_row("SELECT MAX(version) FROM schema_version", [], |r| r.get(0))
        .unwrap();
    assert_eq!(version, SCHEMA_VERSION);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_migration_3_adds_the_seats_to_a_version_2_database_in_place() {
    let Some(pg) = PgSchema::create("game_seats_migration").await else {
        return;
    };
    let (ann, bob) = version_2_rows(&*store(&pg.url).await).await;
    let later: Vec<String> = pg
        .client
        .query(
            "SELECT table_name::text FROM information_schema.tables \
             WHERE table_schema = current_schema()",
            &[],
        )
        .await
        .unwrap()
        .iter()
        .map(|r| r.get::<_, String>(0))
        .filter(|t| !VERSION_2_TABLES.contains(&t.as_str()))
        .collect();
    assert!(later.iter().any(|t| t == "game_seats"), "{later:?}");
    for t in later {
        pg.client
            .batch_execute(&format!("DROP TABLE {t} CASCADE"))
            .await
            .unwrap();
    }
    pg.client
        .batch_execute("DELETE FROM schema_version WHERE version > 2")
        .await
        .unwrap();
    check_upgraded(&pg.url, ann, bob).await;
    let version: i64 = pg
        .client
        .query_one("SELECT MAX(version) FROM schema_version", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(version, SCHEMA_VERSION);
    pg.drop().await;
}
