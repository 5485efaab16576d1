//! Every `AccountStore` method, on SQLite and (when `TILEBAG_TEST_POSTGRES` names a database) on
//! PostgreSQL in a schema of its own: the same scenarios, run by `sqlite::NAME` and
//! `postgres::NAME`.

mod support;

use support::{on_both, store};
use tilebag_store::{Account, AccountStore, NewAccount, Rating, RatingPoint, Role, SessionRow};

on_both!(
    accounts_are_created_found_and_updated,
    a_look_alike_name_is_refused_and_a_retry_is_not,
    of_many_sign_ups_for_one_name_at_once_exactly_one_wins,
    sessions_are_stored_found_touched_and_signed_out,
    idle_sessions_are_deleted,
    ratings_and_their_history_are_recorded_together,
    a_game_changes_a_rating_once,
);

fn new_account(username: &str, skeleton: &str, hash: &str) -> NewAccount {
    NewAccount {
        username: username.into(),
        skeleton: skeleton.into(),
        password_hash: format!("$argon2id$v=19$m=19456,t=2,p=1${hash}"),
        email: None,
        created_ms: 1_700_000_000_000,
    }
}

async fn make(a: &dyn AccountStore, username: &str, skeleton: &str) -> i64 {
    a.create_account(&new_account(username, skeleton, username))
        .await
        .unwrap()
        .expect("a free name")
}

async fn accounts_are_created_found_and_updated(db: &str) {
    let s = store(db).await;
    let a = s.accounts();
    let mut ann = new_account("Ann", "ann", "c2FsdA$aGFzaA");
    ann.email = Some("ann@example.org".into());
    let ann_id = a.create_account(&ann).await.unwrap().expect("a free name");
    let bob_id = make(a, "Bob", "bob").await;
    assert_ne!(ann_id, bob_id);

    let expected = Account {
        id: ann_id,
        username: "Ann".into(),
        skeleton: "ann".into(),
        password_hash: ann.password_hash.clone(),
        email: Some("ann@example.org".into()),
        created_ms: 1_700_000_000_000,
        role: Role::Player,
        muted_until_ms: None,
        banned: false,
    };
    assert_eq!(
        a.account_by_skeleton("ann").await.unwrap(),
        Some(expected.clone())
    );
    assert_eq!(
        a.account_by_id(ann_id).await.unwrap(),
        Some(expected.clone())
    );
    let bob = a.account_by_id(bob_id).await.unwrap().unwrap();
    assert_eq!((bob.username.as_str(), bob.email), ("Bob", None));
    assert_eq!(a.account_by_skeleton("nobody").await.unwrap(), None);
    assert_eq!(a.account_by_id(bob_id + 1000).await.unwrap(), None);

    // The password.
    assert!(a.set_password(ann_id, "$argon2id$v=19$new").await.unwrap());
    let after = a.account_by_id(ann_id).await.unwrap().unwrap();
    assert_eq!(after.password_hash, "$argon2id$v=19$new");
    assert!(!a.set_password(bob_id + 1000, "$argon2id$x").await.unwrap());

    // The role.
    assert!(a.set_role(ann_id, Role::Moderator).await.unwrap());
    assert_eq!(
        a.account_by_id(ann_id).await.unwrap().unwrap().role,
        Role::Moderator
    );
    assert!(a.set_role(ann_id, Role::Player).await.unwrap());
    assert_eq!(
        a.account_by_id(ann_id).await.unwrap().unwrap().role,
        Role::Player
    );
    assert!(!a.set_role(bob_id + 1000, Role::Moderator).await.unwrap());

    // Sanctions: set, read back, lifted.
    assert!(a
        .set_moderation(bob_id, Some(1_700_000_600_000), true)
        .await
        .unwrap());
    let bob = a.account_by_skeleton("bob").await.unwrap().unwrap();
    assert_eq!(
        (bob.muted_until_ms, bob.banned),
        (Some(1_700_000_600_000), true)
    );
    // Only Bob's row changed.
    let ann_now = a.account_by_id(ann_id).await.unwrap().unwrap();
    assert_eq!((ann_now.muted_until_ms, ann_now.banned), (None, false));
    assert!(a.set_moderation(bob_id, None, false).await.unwrap());
    let bob = a.account_by_id(bob_id).await.unwrap().unwrap();
    assert_eq!((bob.muted_until_ms, bob.banned), (None, false));
    assert!(!a.set_moderation(bob_id + 1000, None, true).await.unwrap());

    // Everything is still there through another handle on the same database.
    drop(s);
    let again = store(db).await;
    let ann_again = again
        .accounts()
        .account_by_id(ann_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(ann_again.password_hash, "$argon2id$v=19$new");
    assert_eq!(ann_again.email.as_deref(), Some("ann@example.org"));
}

async fn a_look_alike_name_is_refused_and_a_retry_is_not(db: &str) {
    let s = store(db).await;
    let a = s.accounts();
    let first = new_account("Alice", "alice", "salt1$hash1");
    let id = a
        .create_account(&first)
        .await
        .unwrap()
        .expect("a free name");
    // Another player, another name as typed, the same skeleton (`A1ice` looks like `Alice`).
    let look_alike = new_account("A1ice", "alice", "salt2$hash2");
    assert_eq!(a.create_account(&look_alike).await.unwrap(), None);
    // The very same name, a different password: taken too.
    let same_name = new_account("Alice", "alice", "salt3$hash3");
    assert_eq!(a.create_account(&same_name).await.unwrap(), None);
    // The first account is untouched.
    let stored = a.account_by_skeleton("alice").await.unwrap().unwrap();
    assert_eq!((stored.id, stored.username.as_str()), (id, "Alice"));
    assert_eq!(stored.password_hash, first.password_hash);
    // The same sign-up sent again (its answer was lost) gets its own id back.
    assert_eq!(a.create_account(&first).await.unwrap(), Some(id));
    // Another skeleton is free.
    let other = a
        .create_account(&new_account("Alicia", "alicia", "salt4$hash4"))
        .await
        .unwrap();
    assert!(other.is_some_and(|o| o != id));
}

async fn of_many_sign_ups_for_one_name_at_once_exactly_one_wins(db: &str) {
    // Two handles on one database (two servers), sixteen sign-ups for look-alike names at once.
    let stores = [store(db).await, store(db).await];
    let mut tasks = Vec::new();
    for i in 0..16 {
        let s = stores[i % 2].clone();
        tasks.push(tokio::spawn(async move {
            let n = new_account(&format!("Racer{i}"), "racer", &format!("salt{i}$hash{i}"));
            (i, s.accounts().create_account(&n).await.unwrap())
        }));
    }
    let mut winners = Vec::new();
    for t in tasks {
        let (i, got) = t.await.unwrap();
        if let Some(id) = got {
            winners.push((i, id));
        }
    }
    assert_eq!(
        winners.len(),
        1,
        "exactly one sign-up gets the name: {winners:?}"
    );
    let (i, id) = winners[0];
    let stored = stores[0]
        .accounts()
        .account_by_skeleton("racer")
        .await
        .unwrap()
        .unwrap();
    assert_eq!((stored.id, stored.username), (id, format!("Racer{i}")));
}

fn session(hash: &str, account_id: i64, at: i64) -> SessionRow {
    SessionRow {
        token_hash: hash.into(),
        account_id,
        created_ms: at,
        last_seen_ms: at,
    }
}

async fn sessions_are_stored_found_touched_and_signed_out(db: &str) {
    let s = store(db).await;
    let a = s.accounts();
    let ann = make(a, "Ann", "ann").await;
    let bob = make(a, "Bob", "bob").await;

    let s1 = session(&"a1".repeat(32), ann, 1_000);
    a.create_session(&s1).await.unwrap();
    // The same row again (a retry) is fine; another sign-in under the same hash is not.
    a.create_session(&s1).await.unwrap();
    assert!(a
        .create_session(&session(&"a1".repeat(32), bob, 1_000))
        .await
        .is_err());
    // Nor is a session of an account that does not exist.
    assert!(a
        .create_session(&session("orphan", bob + 1000, 1_000))
        .await
        .is_err());
    assert_eq!(a.session("orphan").await.unwrap(), None);

    let (row, account) = a.session(&s1.token_hash).await.unwrap().expect("stored");
    assert_eq!(row, s1);
    assert_eq!((account.id, account.username.as_str()), (ann, "Ann"));
    assert_eq!(a.session("unknown").await.unwrap(), None);

    // Touching moves the last use forwards, never back.
    assert!(a.touch_session(&s1.token_hash, 5_000).await.unwrap());
    assert!(a.touch_session(&s1.token_hash, 3_000).await.unwrap());
    let (row, _) = a.session(&s1.token_hash).await.unwrap().unwrap();
    assert_eq!((row.created_ms, row.last_seen_ms), (1_000, 5_000));
    assert!(!a.touch_session("unknown", 5_000).await.unwrap());

    // A sanction shows with the session's account.
    a.set_moderation(ann, None, true).await.unwrap();
    assert!(a.session(&s1.token_hash).await.unwrap().unwrap().1.banned);

    // Sign out everywhere else: Ann's other sessions go, hers and Bob's stay.
    for h in ["a2", "a3"] {
        a.create_session(&session(h, ann, 2_000)).await.unwrap();
    }
    a.create_session(&session("b1", bob, 2_000)).await.unwrap();
    assert_eq!(
        a.delete_sessions_of(ann, Some(&s1.token_hash))
            .await
            .unwrap(),
        2
    );
    assert!(a.session(&s1.token_hash).await.unwrap().is_some());
    assert_eq!(a.session("a2").await.unwrap(), None);
    assert_eq!(a.session("a3").await.unwrap(), None);
    assert!(a.session("b1").await.unwrap().is_some());
    // Everywhere: the last one too.
    assert_eq!(a.delete_sessions_of(ann, None).await.unwrap(), 1);
    assert_eq!(a.session(&s1.token_hash).await.unwrap(), None);
    assert_eq!(a.delete_sessions_of(ann, None).await.unwrap(), 0);

    // One session.
    assert!(a.delete_session("b1").await.unwrap());
    assert!(!a.delete_session("b1").await.unwrap());
    assert_eq!(a.session("b1").await.unwrap(), None);
}

async fn idle_sessions_are_deleted(db: &str) {
    let s = store(db).await;
    let a = s.accounts();
    let ann = make(a, "Ann", "ann").await;
    let bob = make(a, "Bob", "bob").await;
    a.create_session(&session("old", ann, 100)).await.unwrap();
    a.create_session(&session("older", bob, 50)).await.unwrap();
    a.create_session(&session("kept", ann, 100)).await.unwrap();
    a.create_session(&session("new", bob, 300)).await.unwrap();
    // Used since: not idle.
    a.touch_session("kept", 400).await.unwrap();
    assert_eq!(a.delete_sessions_idle_since(250).await.unwrap(), 2);
    for (hash, there) in [
        ("old", false),
        ("older", false),
        ("kept", true),
        ("new", true),
    ] {
        assert_eq!(a.session(hash).await.unwrap().is_some(), there, "{hash}");
    }
    // Exactly at the limit is not before it.
    assert_eq!(a.delete_sessions_idle_since(300).await.unwrap(), 0);
    assert_eq!(a.delete_sessions_idle_since(301).await.unwrap(), 1);
    assert_eq!(a.session("new").await.unwrap(), None);
    assert!(a.session("kept").await.unwrap().is_some());
}

fn rating(account_id: i64, category: &str, r: f64, games: u32, at: i64) -> (Rating, RatingPoint) {
    (
        Rating {
            account_id,
            category: category.into(),
            rating: r,
            deviation: 287.123_456_789,
            volatility: 0.059_999_871_2,
            games,
            updated_ms: at,
        },
        RatingPoint {
            account_id,
            category: category.into(),
            game_id: format!("game-{games}"),
            rating: r,
            deviation: 287.123_456_789,
            at_ms: at,
        },
    )
}

async fn ratings_and_their_history_are_recorded_together(db: &str) {
    let s = store(db).await;
    let a = s.accounts();
    let ann = make(a, "Ann", "ann").await;
    let bob = make(a, "Bob", "bob").await;
    assert_eq!(a.rating(ann, "enable1/blitz").await.unwrap(), None);
    assert_eq!(a.ratings_of(ann).await.unwrap(), vec![]);
    assert_eq!(
        a.rating_history(ann, "enable1/blitz", 10).await.unwrap(),
        vec![]
    );

    let (r1, p1) = rating(ann, "enable1/blitz", 1_612.345_678_901, 1, 10_000);
    assert!(a.record_rating(&r1, &p1).await.unwrap());
    assert_eq!(
        a.rating(ann, "enable1/blitz").await.unwrap(),
        Some(r1.clone())
    );
    assert_eq!(
        a.rating_history(ann, "enable1/blitz", 10).await.unwrap(),
        vec![p1.clone()]
    );

    let (r2, p2) = rating(ann, "enable1/blitz", 1_580.5, 2, 20_000);
    assert!(a.record_rating(&r2, &p2).await.unwrap());
    let (r3, p3) = rating(ann, "enable1/blitz", 1_601.25, 3, 30_000);
    assert!(a.record_rating(&r3, &p3).await.unwrap());
    // The rating is the last; the history is newest first, and `limit` keeps the newest.
    assert_eq!(
        a.rating(ann, "enable1/blitz").await.unwrap(),
        Some(r3.clone())
    );
    assert_eq!(
        a.rating_history(ann, "enable1/blitz", 10).await.unwrap(),
        vec![p3.clone(), p2.clone(), p1.clone()]
    );
    assert_eq!(
        a.rating_history(ann, "enable1/blitz", 2).await.unwrap(),
        vec![p3.clone(), p2.clone()]
    );
    assert_eq!(
        a.rating_history(ann, "enable1/blitz", 0).await.unwrap(),
        vec![]
    );

    // Another category, and another account: kept apart.
    let (c1, q1) = rating(ann, "csw21/rapid", 1_700.0, 1, 25_000);
    assert!(a.record_rating(&c1, &q1).await.unwrap());
    let (b1, bq1) = rating(bob, "enable1/blitz", 1_400.0, 1, 26_000);
    assert!(a.record_rating(&b1, &bq1).await.unwrap());
    assert_eq!(
        a.ratings_of(ann).await.unwrap(),
        vec![c1.clone(), r3.clone()]
    );
    assert_eq!(a.ratings_of(bob).await.unwrap(), vec![b1.clone()]);
    assert_eq!(
        a.rating_history(ann, "csw21/rapid", 10).await.unwrap(),
        vec![q1]
    );
    assert_eq!(
        a.rating_history(bob, "enable1/blitz", 10).await.unwrap(),
        vec![bq1]
    );
    assert_eq!(a.rating(bob, "csw21/rapid").await.unwrap(), None);

    // A point of another account or category than its rating is refused, nothing written.
    let (_, wrong) = rating(bob, "enable1/blitz", 1.0, 9, 40_000);
    assert!(a.record_rating(&r3, &wrong).await.is_err());
    let (_, wrong) = rating(ann, "csw21/rapid", 1.0, 9, 40_000);
    assert!(a.record_rating(&r3, &wrong).await.is_err());
    assert_eq!(
        a.rating_history(bob, "enable1/blitz", 10)
            .await
            .unwrap()
            .len(),
        1
    );
    assert_eq!(
        a.rating_history(ann, "csw21/rapid", 10)
            .await
            .unwrap()
            .len(),
        1
    );
    // A rating of an account that does not exist is refused.
    let (ghost, ghost_point) = rating(bob + 1000, "enable1/blitz", 1_500.0, 1, 40_000);
    assert!(a.record_rating(&ghost, &ghost_point).await.is_err());
    assert_eq!(a.rating(bob + 1000, "enable1/blitz").await.unwrap(), None);
}

async fn a_game_changes_a_rating_once(db: &str) {
    let s = store(db).await;
    let a = s.accounts();
    let ann = make(a, "Ann", "ann").await;
    let (r1, p1) = rating(ann, "enable1/blitz", 1_550.0, 1, 10_000);
    assert!(a.record_rating(&r1, &p1).await.unwrap());
    // The same write again (a retry): accepted, nothing doubled.
    assert!(a.record_rating(&r1, &p1).await.unwrap());
    assert_eq!(
        a.rating_history(ann, "enable1/blitz", 10).await.unwrap(),
        vec![p1.clone()]
    );
    // The same game rated again with other numbers: refused, and the rating stays as it was
    // (the two rows go together).
    let (mut again, mut again_point) = rating(ann, "enable1/blitz", 1_590.0, 2, 20_000);
    again_point.game_id = p1.game_id.clone();
    again.games = 2;
    assert!(!a.record_rating(&again, &again_point).await.unwrap());
    assert_eq!(a.rating(ann, "enable1/blitz").await.unwrap(), Some(r1));
    assert_eq!(
        a.rating_history(ann, "enable1/blitz", 10).await.unwrap(),
        vec![p1]
    );
}
