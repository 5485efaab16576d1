//! A game's events as the store keeps them when many arrive at once: on SQLite the writer commits
//! every write waiting in one transaction, so a write that fails (an event whose number is
//! taken) must fail alone, and the others of its batch must be stored. Run on SQLite and (when
//! `TILEBAG_TEST_POSTGRES` names a database) on PostgreSQL.

mod support;

use support::{live_game, on_both, store};
use tilebag_core::{Action, Actor, Event};
use tilebag_store::{GameStatus, StoredEvent};

on_both!(
    an_event_whose_number_is_taken_fails_alone_and_the_rest_of_its_batch_is_stored,
    an_ending_event_that_fails_leaves_the_game_live,
);

/// What an event says, to compare (events have no `PartialEq`).
fn said(events: &[StoredEvent]) -> Vec<String> {
    events.iter().map(|e| format!("{e:?}")).collect()
}

/// Event `seq` of a game: `seat` passes at `at_ms`.
fn pass(seq: u64, seat: usize, at_ms: i64) -> StoredEvent {
    StoredEvent {
        seq,
        event: Event {
            actor: Actor::Seat(seat),
            at_ms,
            action: Action::Pass,
        },
        wall_ms: 1_700_000_000_000 + at_ms,
    }
}

/// Five events sent together (so that SQLite's writer takes them as one batch, and
/// PostgreSQL's group commit as few), two of them an event 0 for game "b": one of those two is
/// stored and the other refused (which one is the order they reach the database in), and every
/// other event is stored.
async fn an_event_whose_number_is_taken_fails_alone_and_the_rest_of_its_batch_is_stored(db: &str) {
    let s = store(db).await;
    for id in ["a", "b", "c"] {
        live_game(&*s, id, 1_000).await;
    }
    let (a0, b0, b0_again, c0, b1) = (
        pass(0, 0, 1_000),
        pass(0, 0, 2_000),
        pass(0, 1, 9_000),
        pass(0, 0, 3_000),
        pass(1, 1, 4_000),
    );
    let (ra0, rb0, rb0_again, rc0, rb1) = tokio::join!(
        s.append_event("a", &a0, None),
        s.append_event("b", &b0, None),
        s.append_event("b", &b0_again, None),
        s.append_event("c", &c0, None),
        s.append_event("b", &b1, None),
    );
    for (what, r) in [("a 0", ra0), ("c 0", rc0), ("b 1", rb1)] {
        r.unwrap_or_else(|e| panic!("event {what} was refused: {e}"));
    }
    let stored_b0 = match (rb0, rb0_again) {
        (Ok(()), Err(_)) => b0,
        (Err(_), Ok(())) => b0_again,
        (first, second) => panic!("two events 0 for game b: {first:?}, {second:?}"),
    };
    let (_, b) = s.load_game("b").await.unwrap().expect("game b");
    assert_eq!(
        said(&b),
        said(&[stored_b0, b1]),
        "game b holds one event 0 and event 1"
    );
    for (id, ev) in [("a", a0), ("c", c0)] {
        let (_, events) = s.load_game(id).await.unwrap().expect("the game");
        assert_eq!(said(&events), said(&[ev]), "game {id}");
    }
}

/// An event that would end the game (and mark it ended) but whose number is taken: neither the
/// event nor the ending is stored, and an ordinary event sent with it is.
async fn an_ending_event_that_fails_leaves_the_game_live(db: &str) {
    let s = store(db).await;
    live_game(&*s, "d", 1_000).await;
    live_game(&*s, "e", 1_000).await;
    s.append_event("d", &pass(0, 0, 1_000), None).await.unwrap();
    let resign = StoredEvent {
        event: Event {
            action: Action::Resign,
            ..pass(0, 1, 2_000).event
        },
        ..pass(0, 1, 2_000)
    };
    let e0 = pass(0, 0, 3_000);
    let (ended, other) = tokio::join!(
        s.append_event("d", &resign, Some(r#"{"winner":0}"#)),
        s.append_event("e", &e0, None),
    );
    assert!(
        ended.is_err(),
        "an ending event with a taken number was stored"
    );
    other.unwrap();
    let (d, events) = s.load_game("d").await.unwrap().expect("game d");
    assert_eq!(d.status, GameStatus::Live, "game d is still live");
    assert_eq!(d.result_json, None);
    assert_eq!(said(&events), said(&[pass(0, 0, 1_000)]));
    let (_, events) = s.load_game("e").await.unwrap().expect("game e");
    assert_eq!(said(&events), said(&[e0]));
}
