//! Leases on live games for several processes on one PostgreSQL database (issue 31 item 2):
//! one owner a game, and fencing: a process that lost a game's lease can never write for it
//! again. PostgreSQL only (SQLite has one process): skipped when `TILEBAG_TEST_POSTGRES` is not
//! set.

mod support;

use support::{live_game, PgSchema};
use tilebag_core::{Action, Actor, Event};
use tilebag_store::{Checkpoint, Fence, Store, StoreError, StoredEvent};

fn pass(seq: u64, seat: usize) -> StoredEvent {
    StoredEvent {
        seq,
        event: Event {
            actor: Actor::Seat(seat),
            at_ms: 1000 * (seq as i64 + 1),
            action: Action::Pass,
        },
        wall_ms: 0,
    }
}

fn fence(owner: &str, generation: u64) -> Fence {
    Fence {
        owner: owner.into(),
        generation,
    }
}

async fn open(test: &str) -> Option<(PgSchema, std::sync::Arc<dyn Store>)> {
    let pg = PgSchema::create(test).await?;
    let s = tilebag_store::open(&pg.url).await.unwrap();
    Some((pg, s))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_game_has_one_owner_until_its_lease_expires() {
    let Some((pg, s)) = open("one_owner").await else {
        return;
    };
    let leases = s.leases().expect("PostgreSQL keeps leases");
    live_game(&*s, "g1", tilebag_store::wall_ms()).await;

    // Process A takes the game; B cannot while A's lease runs.
    assert_eq!(leases.claim("g1", "A", 60_000).await.unwrap(), Some(1));
    assert_eq!(leases.claim("g1", "B", 60_000).await.unwrap(), None);
    let lease = leases.lease("g1").await.unwrap().unwrap();
    assert_eq!((lease.owner.as_str(), lease.generation), ("A", 1));
    assert!(lease.expires_in_ms > 50_000, "{lease:?}");

    // A renews what it holds; a renewal naming another generation renews nothing.
    let held = vec![("g1".to_string(), 1)];
    assert_eq!(leases.renew("A", &held, 60_000).await.unwrap(), ["g1"]);
    let stale = vec![("g1".to_string(), 7)];
    assert!(leases.renew("A", &stale, 60_000).await.unwrap().is_empty());
    assert!(leases.renew("B", &held, 60_000).await.unwrap().is_empty());

    // A stops renewing (a short lease, left to run out): B takes it, one generation on.
    assert_eq!(leases.renew("A", &held, 1).await.unwrap(), ["g1"]);
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    assert_eq!(leases.orphans(60_000, 10).await.unwrap(), ["g1"]);
    assert_eq!(leases.claim("g1", "B", 60_000).await.unwrap(), Some(2));
    assert!(leases.orphans(60_000, 10).await.unwrap().is_empty());
    // A finds out at its next renewal.
    assert!(leases.renew("A", &held, 60_000).await.unwrap().is_empty());

    // A process that restarts under its own name takes its own lease at once, one generation
    // on (what its earlier life might still write is fenced off).
    assert_eq!(leases.claim("g1", "B", 60_000).await.unwrap(), Some(3));

    // Given up, a lease may be taken at once.
    leases.release("g1", &fence("B", 3)).await.unwrap();
    assert!(leases.lease("g1").await.unwrap().unwrap().expires_in_ms <= 0);
    assert_eq!(leases.orphans(60_000, 10).await.unwrap(), ["g1"]);
    assert_eq!(leases.claim("g1", "A", 60_000).await.unwrap(), Some(4));
    pg.drop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_process_that_lost_its_lease_can_never_write_again() {
    let Some((pg, s)) = open("fencing").await else {
        return;
    };
    let leases = s.leases().unwrap();
    live_game(&*s, "g2", tilebag_store::wall_ms()).await;
    let a1 = leases.claim("g2", "A", 60_000).await.unwrap().unwrap();
    leases
        .append_event_fenced("g2", &pass(0, 0), None, &fence("A", a1))
        .await
        .unwrap();

    // A is paused past its lease (here: its lease is made to run out), and B takes the game.
    leases.renew("A", &[("g2".into(), a1)], 1).await.unwrap();
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let b = leases.claim("g2", "B", 60_000).await.unwrap().unwrap();
    assert_eq!(b, a1 + 1);

    // A wakes and writes its next event as if nothing happened: refused, nothing written.
    let late = leases
        .append_event_fenced("g2", &pass(1, 1), None, &fence("A", a1))
        .await;
    match late {
        Err(StoreError::Fenced { game, generation }) => {
            assert_eq!((game.as_str(), generation), ("g2", a1))
        }
        other => panic!("a write under a lost lease must be fenced, got {other:?}"),
    }
    assert!(s.stored_event("g2", 1).await.unwrap().is_none());
    // Nor does it move the game's time on by its pause.
    let cp = Checkpoint {
        id: "g2".into(),
        game_ms: 999_999,
        events: 1,
    };
    leases
        .checkpoint_fenced("A", &[(cp.clone(), a1)])
        .await
        .unwrap();
    let (rec, events) = s.load_game("g2").await.unwrap().unwrap();
    assert_eq!((rec.checkpoint_ms, events.len()), (0, 1));

    // B, which holds the lease, writes the same place in the log.
    leases
        .append_event_fenced("g2", &pass(1, 1), None, &fence("B", b))
        .await
        .unwrap();
    leases.checkpoint_fenced("B", &[(cp, b)]).await.unwrap();
    let (rec, events) = s.load_game("g2").await.unwrap().unwrap();
    assert_eq!((rec.checkpoint_ms, events.len()), (999_999, 2));
    // The takeover leaves a note in the game's record, once however often it is written.
    leases.add_note("g2", 5, "taken over").await.unwrap();
    leases.add_note("g2", 5, "taken over").await.unwrap();
    leases.add_note("g2", 9, "taken over again").await.unwrap();
    assert_eq!(
        leases.notes("g2").await.unwrap(),
        ["taken over", "taken over again"]
    );
    // An unfenced write is still what a single process (or SQLite) does.
    s.append_event("g2", &pass(2, 0), None).await.unwrap();
    pg.drop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_games_nobody_runs_are_found_and_processes_beat() {
    let Some((pg, s)) = open("orphans").await else {
        return;
    };
    let leases = s.leases().unwrap();
    let now = tilebag_store::wall_ms();
    // An old game nobody ever took, and one just made (its creator is about to take it).
    live_game(&*s, "old", now - 60_000).await;
    live_game(&*s, "new", now).await;
    assert_eq!(leases.orphans(10_000, 10).await.unwrap(), ["old"]);
    // An ended game is nobody's to take.
    s.append_event("old", &pass(0, 0), Some("{\"scores\":[0,0]}"))
        .await
        .unwrap();
    assert!(leases.orphans(10_000, 10).await.unwrap().is_empty());
    assert_eq!(leases.claim("old", "A", 60_000).await.unwrap(), None);

    leases.heartbeat("A", "10.0.0.1:8080", now).await.unwrap();
    leases.heartbeat("B", "10.0.0.2:8080", now).await.unwrap();
    let procs = leases.processes().await.unwrap();
    let names: Vec<&str> = procs.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names.len(), 2);
    assert!(names.contains(&"A") && names.contains(&"B"));
    assert!(procs.iter().all(|p| p.seen_ms_ago < 5_000), "{procs:?}");
    assert_eq!(leases.claim("new", "A", 60_000).await.unwrap(), Some(1));
    let all = leases.leases().await.unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(
        (all[0].game_id.as_str(), all[0].owner.as_str()),
        ("new", "A")
    );
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    // B, silent and holding nothing, is forgotten; A holds a lease and stays.
    assert_eq!(leases.forget_processes(10).await.unwrap(), 1);
    pg.drop().await;
}

/// Many games appending at once are written together (group commit, `postgres/appends.rs`),
/// and each append still gets its own answer: the lease holder's events are stored, an event
/// fenced off by a lost lease is refused for its game alone, a repeat of a stored event is
/// taken as stored, and one that contradicts it is refused by name.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_appends_at_once_are_written_together_each_with_its_own_answer() {
    let Some((pg, s)) = open("appends_at_once").await else {
        return;
    };
    let leases = s.leases().expect("PostgreSQL keeps leases");
    let now = tilebag_store::wall_ms();
    // Games a0..a119 are A's; b0..b29 are B's (A's old lease on them was taken).
    for i in 0..120 {
        let id = format!("a{i}");
        live_game(&*s, &id, now).await;
        assert_eq!(leases.claim(&id, "A", 60_000).await.unwrap(), Some(1));
    }
    for i in 0..30 {
        let id = format!("b{i}");
        live_game(&*s, &id, now).await;
        assert_eq!(leases.claim(&id, "A", 1).await.unwrap(), Some(1));
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
        assert_eq!(leases.claim(&id, "B", 60_000).await.unwrap(), Some(2));
    }
    // A's first events, all at once, each with A's fence (generation 1).
    let mut writes = Vec::new();
    for id in (0..120)
        .map(|i| format!("a{i}"))
        .chain((0..30).map(|i| format!("b{i}")))
    {
        let s = s.clone();
        writes.push(tokio::spawn(async move {
            let r = s
                .leases()
                .unwrap()
                .append_event_fenced(&id, &pass(0, 0), None, &fence("A", 1))
                .await;
            (id, r)
        }));
    }
    for w in writes {
        let (id, r) = w.await.unwrap();
        if id.starts_with('a') {
            assert!(r.is_ok(), "{id}: {r:?}");
        } else {
            assert!(
                matches!(r, Err(StoreError::Fenced { ref game, generation: 1 }) if *game == id),
                "{id}: {r:?}"
            );
        }
    }
    // Again at once: A's second events, the same first events repeated (a retry whose answer
    // was lost), and a first event that says something else.
    let mut writes = Vec::new();
    for i in 0..120 {
        let s = s.clone();
        let id = format!("a{i}");
        writes.push(tokio::spawn(async move {
            let (seq, ev) = match i % 3 {
                0 => (1, pass(1, 1)),
                1 => (0, pass(0, 0)),
                _ => {
                    let mut other = pass(0, 0);
                    other.event.at_ms += 1;
                    (0, other)
                }
            };
            let r = s
                .leases()
                .unwrap()
                .append_event_fenced(&id, &ev, None, &fence("A", 1))
                .await;
            (i, seq, r)
        }));
    }
    for w in writes {
        let (i, seq, r) = w.await.unwrap();
        match i % 3 {
            0 | 1 => assert!(r.is_ok(), "a{i} event {seq}: {r:?}"),
            _ => {
                let e = r.unwrap_err().to_string();
                assert!(
                    e.contains(&format!("event 0 of game a{i} is stored already")),
                    "{e}"
                );
            }
        }
    }
    for i in 0..120 {
        let (_, events) = s.load_game(&format!("a{i}")).await.unwrap().unwrap();
        let seqs: Vec<u64> = events.iter().map(|e| e.seq).collect();
        let want: &[u64] = if i % 3 == 0 { &[0, 1] } else { &[0] };
        assert_eq!(seqs, want, "a{i}");
        assert_eq!(
            events[0].event.at_ms, 1000,
            "a{i} keeps its first event as it was"
        );
    }
    for i in 0..30 {
        let (_, events) = s.load_game(&format!("b{i}")).await.unwrap().unwrap();
        assert!(events.is_empty(), "b{i}: nothing written past the lease");
    }
    pg.drop().await;
}
