//! Every `ChatStore` method, on SQLite and (when `TILEBAG_TEST_POSTGRES` names a database) on
//! PostgreSQL in a schema of its own; and migration 5 upgrading a database of version 4 in place.

mod support;

use support::{on_both, store, PgSchema, TempDir};
use tilebag_store::{
    AccountStore, NewAccount, NewLogEntry, NewMessage, NewReport, Relation, Store, SCHEMA_VERSION,
};

on_both!(
    messages_are_kept_by_room_and_a_retry_stores_one,
    a_deleted_message_is_gone_for_everyone_its_reports_closed_and_logged,
    mutes_and_blocks_are_set_listed_and_lifted,
    a_message_is_reported_once_per_reporter_and_dismissed,
    sanctions_are_set_with_their_log_entry,
);

async fn make(a: &dyn AccountStore, username: &str) -> i64 {
    a.create_account(&NewAccount {
        username: username.into(),
        skeleton: username.to_lowercase(),
        password_hash: format!("$argon2id$v=19$m=19456,t=2,p=1${username}"),
        email: None,
        created_ms: 1_700_000_000_000,
    })
    .await
    .unwrap()
    .expect("a free name")
}

fn message(key: &str, room: &str, sender_id: i64, text: &str, sent_ms: i64) -> NewMessage {
    NewMessage {
        key: key.into(),
        room: room.into(),
        sender_id,
        text: text.into(),
        sent_ms,
    }
}

fn entry(key: &str, moderator_id: i64, action: &str, at_ms: i64) -> NewLogEntry {
    NewLogEntry {
        key: key.into(),
        moderator_id,
        action: action.into(),
        account_id: None,
        message_id: None,
        detail: String::new(),
        at_ms,
    }
}

async fn messages_are_kept_by_room_and_a_retry_stores_one(db: &str) {
    let s = store(db).await;
    let ann = make(s.accounts(), "Ann").await;
    let bob = make(s.accounts(), "Bob").await;
    let c = s.chat();
    let first = message("k1", "lobby", ann, "hello all", 1_000);
    let id1 = c.post_message(&first).await.unwrap();
    // Sent again (a retry after a lost answer): the same row.
    assert_eq!(c.post_message(&first).await.unwrap(), id1);
    let id2 = c
        .post_message(&message("k2", "game:g1:players", bob, "good luck", 2_000))
        .await
        .unwrap();
    let id3 = c
        .post_message(&message("k3", "lobby", bob, "hi Ann", 3_000))
        .await
        .unwrap();
    assert!(id1 < id2 && id2 < id3, "ids rise: {id1} {id2} {id3}");

    let lobby = c.recent_messages("lobby", 50).await.unwrap();
    let said: Vec<(&str, &str)> = lobby
        .iter()
        .map(|m| (m.sender_name.as_str(), m.text.as_str()))
        .collect();
    assert_eq!(said, [("Ann", "hello all"), ("Bob", "hi Ann")]);
    assert_eq!(lobby[1].id, id3);
    assert_eq!(lobby[1].sent_ms, 3_000);
    assert_eq!(lobby[1].deleted_by, None);
    // The newest `limit`, oldest first.
    let last = c.recent_messages("lobby", 1).await.unwrap();
    assert_eq!(last.len(), 1);
    assert_eq!(last[0].text, "hi Ann");
    let game = c.recent_messages("game:g1:players", 50).await.unwrap();
    assert_eq!(game.len(), 1);
    assert_eq!(game[0].text, "good luck");
    assert!(c
        .recent_messages("game:g1:watchers", 50)
        .await
        .unwrap()
        .is_empty());
    assert_eq!(c.message(id2).await.unwrap().unwrap().sender_id, bob);
    assert_eq!(c.message(id3 + 100).await.unwrap(), None);
    // A room's name is short and not empty.
    assert!(c
        .post_message(&message("k4", "", ann, "x", 4))
        .await
        .is_err());
    assert!(c
        .post_message(&message("k5", &"r".repeat(101), ann, "x", 4))
        .await
        .is_err());
}

async fn a_deleted_message_is_gone_for_everyone_its_reports_closed_and_logged(db: &str) {
    let s = store(db).await;
    let ann = make(s.accounts(), "Ann").await;
    let troll = make(s.accounts(), "Troll").await;
    let moderator = make(s.accounts(), "Mod").await;
    let c = s.chat();
    let keep = c
        .post_message(&message("a", "lobby", ann, "nice game", 1))
        .await
        .unwrap();
    let bad = c
        .post_message(&message("b", "lobby", troll, "something rude", 2))
        .await
        .unwrap();
    assert!(c
        .report_message(&NewReport {
            message_id: bad,
            reporter_id: ann,
            reason: "rude".into(),
            reported_ms: 3,
        })
        .await
        .unwrap());
    assert_eq!(c.open_reports(10).await.unwrap().len(), 1);

    let mut log = entry("del-1", moderator, "delete", 10);
    log.message_id = Some(bad);
    log.account_id = Some(troll);
    log.detail = "something rude".into();
    assert!(c.delete_message(bad, &log).await.unwrap());
    // A retry of the same action (its answer lost) is told it was done, and logs once.
    assert!(c.delete_message(bad, &log).await.unwrap());
    // Another moderator deleting it again is told it was deleted already.
    assert!(!c
        .delete_message(bad, &entry("del-2", ann, "delete", 11))
        .await
        .unwrap());
    assert!(!c
        .delete_message(bad + 100, &entry("del-3", moderator, "delete", 12))
        .await
        .unwrap());

    let lobby = c.recent_messages("lobby", 10).await.unwrap();
    assert_eq!(lobby.len(), 1);
    assert_eq!(lobby[0].id, keep);
    let gone = c.message(bad).await.unwrap().unwrap();
    assert_eq!(
        (gone.deleted_by, gone.deleted_ms),
        (Some(moderator), Some(10))
    );
    assert!(c.open_reports(10).await.unwrap().is_empty());

    let entries = c.moderation_log(10).await.unwrap();
    assert_eq!(entries.len(), 1, "{entries:?}");
    let e = &entries[0];
    assert_eq!(
        (
            e.moderator_name.as_str(),
            e.action.as_str(),
            e.account_name.as_deref(),
            e.message_id,
            e.detail.as_str(),
            e.at_ms
        ),
        (
            "Mod",
            "delete",
            Some("Troll"),
            Some(bad),
            "something rude",
            10
        )
    );
}

async fn mutes_and_blocks_are_set_listed_and_lifted(db: &str) {
    let s = store(db).await;
    let ann = make(s.accounts(), "Ann").await;
    let bob = make(s.accounts(), "Bob").await;
    let cy = make(s.accounts(), "Cy").await;
    let c = s.chat();
    c.set_relation(ann, bob, Relation::Mute, true, 5)
        .await
        .unwrap();
    // Twice is once.
    c.set_relation(ann, bob, Relation::Mute, true, 6)
        .await
        .unwrap();
    c.set_relation(ann, cy, Relation::Block, true, 7)
        .await
        .unwrap();
    c.set_relation(bob, ann, Relation::Block, true, 8)
        .await
        .unwrap();
    let anns: Vec<(String, Relation, i64)> = c
        .relations_of(ann)
        .await
        .unwrap()
        .into_iter()
        .map(|r| (r.other_name, r.kind, r.created_ms))
        .collect();
    assert_eq!(
        anns,
        [
            ("Bob".to_string(), Relation::Mute, 5),
            ("Cy".to_string(), Relation::Block, 7)
        ]
    );
    c.set_relation(ann, bob, Relation::Mute, false, 9)
        .await
        .unwrap();
    // Lifting what is not there is no error.
    c.set_relation(ann, bob, Relation::Block, false, 9)
        .await
        .unwrap();
    let anns = c.relations_of(ann).await.unwrap();
    assert_eq!(anns.len(), 1);
    assert_eq!((anns[0].other_id, anns[0].kind), (cy, Relation::Block));
    // Bob's block of Ann is his own.
    assert_eq!(c.relations_of(bob).await.unwrap()[0].other_id, ann);
    assert!(c.relations_of(cy).await.unwrap().is_empty());
}

async fn a_message_is_reported_once_per_reporter_and_dismissed(db: &str) {
    let s = store(db).await;
    let ann = make(s.accounts(), "Ann").await;
    let bob = make(s.accounts(), "Bob").await;
    let cy = make(s.accounts(), "Cy").await;
    let moderator = make(s.accounts(), "Mod").await;
    let c = s.chat();
    let m = c
        .post_message(&message(
            "m",
            "game:g:watchers",
            bob,
            "spoiler: she has the Q",
            1,
        ))
        .await
        .unwrap();
    let report = |reporter_id, reason: &str, at| NewReport {
        message_id: m,
        reporter_id,
        reason: reason.into(),
        reported_ms: at,
    };
    let ann_report = report(ann, "tells the rack", 2);
    assert!(c.report_message(&ann_report).await.unwrap());
    assert!(c.report_message(&report(cy, "", 3)).await.unwrap());
    // Ann again (another time): one report per reporter.
    assert!(!c.report_message(&report(ann, "again", 4)).await.unwrap());
    // A message that does not exist.
    assert!(!c
        .report_message(&NewReport {
            message_id: m + 100,
            reporter_id: ann,
            reason: String::new(),
            reported_ms: 5,
        })
        .await
        .unwrap());

    let open = c.open_reports(10).await.unwrap();
    assert_eq!(open.len(), 2);
    assert_eq!(
        (
            open[0].reporter_name.as_str(),
            open[0].reason.as_str(),
            open[0].message.text.as_str(),
            open[0].message.sender_name.as_str(),
            open[0].message.room.as_str()
        ),
        (
            "Ann",
            "tells the rack",
            "spoiler: she has the Q",
            "Bob",
            "game:g:watchers"
        )
    );
    assert_eq!(c.open_reports(1).await.unwrap().len(), 1);

    let mut log = entry("dismiss-1", moderator, "dismiss", 20);
    log.message_id = Some(m);
    assert!(c.dismiss_report(open[0].id, &log).await.unwrap());
    assert!(!c
        .dismiss_report(open[0].id, &entry("dismiss-2", moderator, "dismiss", 21))
        .await
        .unwrap());
    let open = c.open_reports(10).await.unwrap();
    assert_eq!(open.len(), 1);
    assert_eq!(open[0].reporter_name, "Cy");
    // The message itself stays.
    assert_eq!(
        c.recent_messages("game:g:watchers", 5).await.unwrap().len(),
        1
    );
    let logged = c.moderation_log(10).await.unwrap();
    assert_eq!(logged.len(), 1);
    assert_eq!(logged[0].action, "dismiss");
}

async fn sanctions_are_set_with_their_log_entry(db: &str) {
    let s = store(db).await;
    let troll = make(s.accounts(), "Troll").await;
    let moderator = make(s.accounts(), "Mod").await;
    let c = s.chat();
    let mut mute = entry("mute-1", moderator, "mute", 100);
    mute.account_id = Some(troll);
    mute.detail = "for 60 minutes".into();
    assert!(c
        .sanction(troll, Some(3_600_100), false, &mute)
        .await
        .unwrap());
    let t = s.accounts().account_by_id(troll).await.unwrap().unwrap();
    assert_eq!((t.muted_until_ms, t.banned), (Some(3_600_100), false));

    let mut ban = entry("ban-1", moderator, "ban", 200);
    ban.account_id = Some(troll);
    assert!(c
        .sanction(troll, Some(3_600_100), true, &ban)
        .await
        .unwrap());
    // A retry logs once.
    assert!(c
        .sanction(troll, Some(3_600_100), true, &ban)
        .await
        .unwrap());
    assert!(
        s.accounts()
            .account_by_id(troll)
            .await
            .unwrap()
            .unwrap()
            .banned
    );

    let mut lift = entry("unban-1", moderator, "unban", 300);
    lift.account_id = Some(troll);
    assert!(c.sanction(troll, None, false, &lift).await.unwrap());
    let t = s.accounts().account_by_id(troll).await.unwrap().unwrap();
    assert_eq!((t.muted_until_ms, t.banned), (None, false));

    // No such account: nothing logged.
    assert!(!c
        .sanction(
            troll + 100,
            None,
            true,
            &entry("ban-2", moderator, "ban", 400)
        )
        .await
        .unwrap());
    let log: Vec<(String, Option<String>, i64)> = c
        .moderation_log(10)
        .await
        .unwrap()
        .into_iter()
        .map(|e| (e.action, e.account_name, e.at_ms))
        .collect();
    let troll_name = Some("Troll".to_string());
    assert_eq!(
        log,
        [
            ("unban".to_string(), troll_name.clone(), 300),
            ("ban".to_string(), troll_name.clone(), 200),
            ("mute".to_string(), troll_name, 100),
        ]
    );
    assert_eq!(c.moderation_log(1).await.unwrap().len(), 1);
}

/// A database of version 4 is the current one without migration 5's tables (migration 5 only
/// adds tables): made so, with an account in it, then opened again.
/// The tables of the migrations after chat's (6: the processes, leases and game notes of
/// several processes), dropped first to bring a database back to version 4.
const LATER_TABLES: &[&str] = &["game_notes", "game_leases", "processes"];

const CHAT_TABLES: [&str; 4] = [
    "moderation_log",
    "chat_reports",
    "chat_relations",
    "chat_messages",
];

async fn check_upgraded(s: &dyn Store, versions: Vec<i64>) {
    assert_eq!(versions, (1..=SCHEMA_VERSION).collect::<Vec<_>>());
    let ann = s
        .accounts()
        .account_by_skeleton("ann")
        .await
        .unwrap()
        .expect("the account kept");
    let id = s
        .chat()
        .post_message(&message("up", "lobby", ann.id, "after the upgrade", 1))
        .await
        .unwrap();
    assert_eq!(
        s.chat().recent_messages("lobby", 5).await.unwrap()[0].id,
        id
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_a_database_of_version_4_gains_the_chat_tables_in_place() {
    let dir = TempDir::new("chat_upgrade");
    let db = dir.db("t.db");
    {
        let s = store(&db).await;
        make(s.accounts(), "Ann").await;
    }
    {
        let c = rusqlite::Connection::open(&db).unwrap();
        // Back to version 4: the chat tables (5) and the later tables go.
        for t in LATER_TABLES.iter().chain(CHAT_TABLES.iter()) {
            c.execute_batch(&format!("DROP TABLE {t}")).unwrap();
        }
        c.execute("DELETE FROM schema_version WHERE version >= 5", [])
            .unwrap();
        assert_eq!(support::sqlite_versions(&c).last().unwrap().0, 4);
    }
    let s = store(&db).await;
    let c = rusqlite::Connection::open(&db).unwrap();
    let versions = support::sqlite_versions(&c).iter().map(|v| v.0).collect();
    check_upgraded(&*s, versions).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_database_of_version_4_gains_the_chat_tables_in_place() {
    let Some(pg) = PgSchema::create("chat_upgrade").await else {
        return;
    };
    {
        let s = store(&pg.url).await;
        make(s.accounts(), "Ann").await;
    }
    for t in LATER_TABLES.iter().chain(CHAT_TABLES.iter()) {
        pg.client
            .batch_execute(&format!("DROP TABLE {t}"))
            .await
            .unwrap();
    }
    pg.client
        .batch_execute("DELETE FROM schema_version WHERE version >= 5")
        .await
        .unwrap();
    assert_eq!(pg.versions().await.last().unwrap().0, 4);
    let s = store(&pg.url).await;
    let versions = pg.versions().await.iter().map(|v| v.0).collect();
    check_upgraded(&*s, versions).await;
    drop(s);
    pg.drop().await;
}
