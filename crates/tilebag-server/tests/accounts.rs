//! Players' accounts, as a player and an attacker meet them over HTTP: sign up, sign in, sign
//! out here and everywhere, change the password, sessions that expire, forms from other sites,
//! guessing passwords, and asking whether a name exists (issue 30, item 1).

mod accounts_support;
mod common;

use accounts_support::Visitor;
use common::{config, Served};
use std::time::Duration;

const PASSWORD: &str = "correct horse battery";

async fn served(name: &str) -> Served {
    Served::start(name, |db| config(db, &["CAT"])).await
}

/// The refusal a page shows (its `#error` line), or "" if none.
fn error_of(page: &str) -> String {
    let Some(at) = page.find("id=\"error\"") else {
        return String::new();
    };
    let rest = &page[at..];
    let start = rest.find('>').unwrap() + 1;
    rest[start..start + rest[start..].find('<').unwrap()].to_string()
}

#[tokio::test]
async fn a_player_signs_up_signs_out_and_signs_in_again() {
    let s = served("acc-basic").await;
    let mut ann = Visitor::new(s.addr);
    assert_eq!(ann.who().await, None);
    let r = ann.sign_up("Annie", PASSWORD).await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(r.header("location"), Some("/account"));
    // The session cookie: HttpOnly, SameSite, never the password.
    let set: Vec<&str> = r
        .headers
        .iter()
        .filter(|(k, _)| k.eq_ignore_ascii_case("set-cookie"))
        .map(|(_, v)| v.as_str())
        .collect();
    let session = set
        .iter()
        .find(|c| c.starts_with("tilebag_session="))
        .expect("a session cookie");
    assert!(session.contains("HttpOnly") && session.contains("SameSite=Lax"));
    assert!(!set.iter().any(|c| c.contains(PASSWORD)));
    assert_eq!(ann.who().await.as_deref(), Some("Annie"));
    let page = ann.get("/account").await;
    assert!(page.text().contains("Signed in as"), "{}", page.text());
    let csrf = ann.csrf().await;
    let r = ann.post("/signout", &[("csrf", &csrf)]).await;
    assert_eq!(r.status, 303);
    assert_eq!(ann.who().await, None);
    // A name signs in whatever its case.
    let r = ann.sign_in("annie", PASSWORD).await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(ann.who().await.as_deref(), Some("Annie"));
    // Anybody may see the profile.
    let profile = Visitor::new(s.addr).get("/u/Annie").await;
    assert_eq!(profile.status, 200);
    assert!(profile.text().contains("No rated games yet"));
    assert_eq!(Visitor::new(s.addr).get("/u/Nobody").await.status, 404);
    s.stop().await;
}

#[tokio::test]
async fn a_taken_name_and_its_look_alikes_read_the_same_and_bad_names_are_named() {
    let s = served("acc-names").await;
    assert_eq!(
        Visitor::new(s.addr).sign_up("Oscar", PASSWORD).await.status,
        303
    );
    let mut taken = Vec::new();
    for name in ["Oscar", "oscar", "O5car", "OSCAR"] {
        let r = Visitor::new(s.addr).sign_up(name, PASSWORD).await;
        assert_eq!(r.status, 409, "{name}: {}", r.text());
        taken.push(error_of(&r.text()));
    }
    assert!(taken
        .iter()
        .all(|e| e == &taken[0] && e.contains("not available")));
    let r = Visitor::new(s.addr).sign_up("ab", PASSWORD).await;
    assert_eq!(r.status, 422);
    assert!(error_of(&r.text()).contains('3'), "{}", error_of(&r.text()));
    let r = Visitor::new(s.addr).sign_up("Bea", "Bea").await;
    assert_eq!(r.status, 422);
    assert!(error_of(&r.text()).contains('8'), "{}", error_of(&r.text()));
    s.stop().await;
}

#[tokio::test]
async fn sign_in_never_tells_whether_a_name_exists() {
    let s = served("acc-enum").await;
    assert_eq!(
        Visitor::new(s.addr).sign_up("Carla", PASSWORD).await.status,
        303
    );
    let wrong_password = Visitor::new(s.addr)
        .sign_in("Carla", "not the password")
        .await;
    let no_such_name = Visitor::new(s.addr)
        .sign_in("Carlo", "not the password")
        .await;
    let not_a_name = Visitor::new(s.addr).sign_in("!!", "not the password").await;
    for r in [&wrong_password, &no_such_name, &not_a_name] {
        assert_eq!(r.status, 401, "{}", r.text());
        assert_eq!(error_of(&r.text()), "Wrong username or password.");
        assert!(r.header("set-cookie").is_none());
    }
    // The pages differ only by the name typed back into the form.
    assert_eq!(
        wrong_password.text().replace("Carla", "X"),
        no_such_name.text().replace("Carlo", "X")
    );
    s.stop().await;
}

#[tokio::test]
async fn sign_out_everywhere_ends_every_session_of_the_account() {
    let s = served("acc-everywhere").await;
    let mut phone = Visitor::new(s.addr);
    assert_eq!(phone.sign_up("Dana", PASSWORD).await.status, 303);
    let mut laptop = Visitor::new(s.addr);
    assert_eq!(laptop.sign_in("Dana", PASSWORD).await.status, 303);
    let mut other = Visitor::new(s.addr);
    assert_eq!(other.sign_up("Eddie", PASSWORD).await.status, 303);
    let csrf = laptop.csrf().await;
    assert_eq!(
        laptop
            .post("/signout-everywhere", &[("csrf", &csrf)])
            .await
            .status,
        303
    );
    assert_eq!(laptop.who().await, None);
    assert_eq!(phone.who().await, None, "the phone's session ended too");
    assert_eq!(
        other.who().await.as_deref(),
        Some("Eddie"),
        "another account is untouched"
    );
    s.stop().await;
}

#[tokio::test]
async fn changing_the_password_ends_the_other_sessions_and_the_old_password() {
    let s = served("acc-password").await;
    let mut phone = Visitor::new(s.addr);
    assert_eq!(phone.sign_up("Fern", PASSWORD).await.status, 303);
    let mut laptop = Visitor::new(s.addr);
    assert_eq!(laptop.sign_in("Fern", PASSWORD).await.status, 303);
    let csrf = laptop.csrf().await;
    // The current password must be right.
    let r = laptop
        .post(
            "/account/password",
            &[
                ("csrf", &csrf),
                ("current", "wrong one"),
                ("new", "a new secret"),
            ],
        )
        .await;
    assert!(r.header("location").unwrap().contains("err="));
    assert_eq!(phone.who().await.as_deref(), Some("Fern"));
    let r = laptop
        .post(
            "/account/password",
            &[
                ("csrf", &csrf),
                ("current", PASSWORD),
                ("new", "a new secret"),
            ],
        )
        .await;
    assert!(r.header("location").unwrap().contains("msg="), "{r:?}");
    assert_eq!(
        laptop.who().await.as_deref(),
        Some("Fern"),
        "this session stays"
    );
    assert_eq!(phone.who().await, None, "every other session ends");
    assert_eq!(
        Visitor::new(s.addr).sign_in("Fern", PASSWORD).await.status,
        401
    );
    assert_eq!(
        Visitor::new(s.addr)
            .sign_in("Fern", "a new secret")
            .await
            .status,
        303
    );
    s.stop().await;
}

#[tokio::test]
async fn a_session_left_idle_past_its_limit_ends() {
    let s = Served::start("acc-idle", |db| {
        let mut c = config(db, &["CAT"]);
        c.sessions.idle_timeout_ms = 1500;
        c.sessions.touch_interval_ms = 100;
        c
    })
    .await;
    let mut gail = Visitor::new(s.addr);
    assert_eq!(gail.sign_up("Gail", PASSWORD).await.status, 303);
    // Used within the limit, it goes on (each use counts as activity).
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(700)).await;
        assert_eq!(gail.who().await.as_deref(), Some("Gail"));
    }
    tokio::time::sleep(Duration::from_millis(2000)).await;
    assert_eq!(gail.who().await, None, "idle for 2 s, past the 1.5 s limit");
    s.stop().await;
}

#[tokio::test]
async fn forms_from_another_site_or_without_the_token_are_refused() {
    let s = served("acc-csrf").await;
    let mut hana = Visitor::new(s.addr);
    assert_eq!(hana.sign_up("Hana", PASSWORD).await.status, 303);
    // Signing out, from hana's own browser but without the token or with another's.
    assert_eq!(hana.post("/signout", &[]).await.status, 403);
    assert_eq!(
        hana.post("/signout", &[("csrf", "forged")]).await.status,
        403
    );
    let mut ivan = Visitor::new(s.addr);
    assert_eq!(ivan.sign_up("Ivan", PASSWORD).await.status, 303);
    let ivans = ivan.csrf().await;
    assert_eq!(hana.post("/signout", &[("csrf", &ivans)]).await.status, 403);
    assert_eq!(hana.who().await.as_deref(), Some("Hana"));
    // A page on another site posting to ours, with hana's cookies riding along.
    let csrf = hana.csrf().await;
    let evil = "http://evil.example";
    assert_eq!(
        hana.post_from(evil, "/signout", &[("csrf", &csrf)])
            .await
            .status,
        403
    );
    let r = hana
        .post_from(
            evil,
            "/account/password",
            &[
                ("csrf", &csrf),
                ("current", PASSWORD),
                ("new", "owned by evil"),
            ],
        )
        .await;
    assert_eq!(r.status, 403);
    // Signing a visitor in as someone else (login CSRF) is refused too.
    let mut victim = Visitor::new(s.addr);
    let r = victim
        .post_from(
            evil,
            "/signin",
            &[("username", "Ivan"), ("password", PASSWORD)],
        )
        .await;
    assert_eq!(r.status, 403);
    assert_eq!(victim.who().await, None);
    assert_eq!(hana.who().await.as_deref(), Some("Hana"));
    s.stop().await;
}

#[tokio::test]
async fn guessing_is_slowed_but_the_owner_still_signs_in() {
    let s = served("acc-throttle").await;
    let mut owner = Visitor::at("127.0.0.1", s.addr);
    assert_eq!(owner.sign_up("Jules", PASSWORD).await.status, 303);
    // One address trying many names: ten tries, then it must wait, and is told how long.
    let mut guesser = Visitor::at("127.0.0.2", s.addr);
    for i in 0..10 {
        let r = guesser.sign_in(&format!("Name{i}"), "a guess").await;
        assert_eq!(r.status, 401, "try {i}");
    }
    let r = guesser.sign_in("Jules", PASSWORD).await;
    assert_eq!(r.status, 429, "the 11th try is not even checked");
    let wait: u64 = r.header("retry-after").unwrap().parse().unwrap();
    assert!((1..=30).contains(&wait), "{wait}");
    assert_eq!(
        guesser.who().await,
        None,
        "even the right password was not checked"
    );
    // Many addresses guessing one account: five wrong tries are free, then every source the
    // account does not know waits (2 s, doubling with each further failure)...
    // (Its look-alikes are the same account: `JULES`, `Ju1es` and `ju_les` count with it.)
    for (n, name) in [
        (3, "Jules"),
        (4, "JULES"),
        (5, "Ju1es"),
        (6, "ju_les"),
        (7, "Jules"),
    ] {
        let r = Visitor::at(&format!("127.0.0.{n}"), s.addr)
            .sign_in(name, "another guess")
            .await;
        assert_eq!(r.status, 401, "{name}");
    }
    let r = Visitor::at("127.0.0.40", s.addr)
        .sign_in("Jules", PASSWORD)
        .await;
    assert_eq!(r.status, 429, "an unknown source waits: {}", r.text());
    // ...but not the owner: their browser (its known-device cookie) signs in at once.
    let mut owner_again = owner.clone();
    owner_again.cookies.remove("tilebag_session");
    let r = owner_again.sign_in("Jules", PASSWORD).await;
    assert_eq!(r.status, 303, "{}", r.text());
    assert_eq!(owner_again.who().await.as_deref(), Some("Jules"));
    s.stop().await;
}

#[tokio::test]
async fn one_address_may_create_only_a_few_accounts_a_minute() {
    let s = Served::start("acc-signups", |db| {
        let mut c = config(db, &["CAT"]);
        c.quotas.signups_per_minute = 2;
        c
    })
    .await;
    let mut v = Visitor::new(s.addr);
    assert_eq!(v.sign_up("Kim", PASSWORD).await.status, 303);
    assert_eq!(v.sign_up("Lou", PASSWORD).await.status, 303);
    let r = v.sign_up("Max", PASSWORD).await;
    assert_eq!(r.status, 429, "{}", r.text());
    assert!(r.header("retry-after").is_some());
    // From another address it goes on.
    assert_eq!(
        Visitor::at("127.0.0.9", s.addr)
            .sign_up("Max", PASSWORD)
            .await
            .status,
        303
    );
    s.stop().await;
}

#[tokio::test]
async fn sessions_idle_past_the_limit_are_swept_from_the_database() {
    let dir = common::temp_dir("acc-sweep");
    let db = dir.join("t.db").to_str().unwrap().to_string();
    let idle = |db: &str| {
        let mut c = config(db, &["CAT"]);
        c.sessions.idle_timeout_ms = 1000;
        c
    };
    let stored = |db: &str| -> i64 {
        let conn = rusqlite::Connection::open(db).unwrap();
        conn.query_row("SELECT count(*) FROM sessions", [], |r| r.get(0))
            .unwrap()
    };
    let server = tilebag_server::start(idle(&db)).await.unwrap();
    let mut nina = Visitor::new(server.addr());
    assert_eq!(nina.sign_up("Nina", PASSWORD).await.status, 303);
    server.shutdown().await;
    assert_eq!(stored(&db), 1, "the session is stored (as a hash)");
    tokio::time::sleep(Duration::from_millis(1500)).await;
    // The sweep runs as the server starts (and every hour after).
    let server = tilebag_server::start(idle(&db)).await.unwrap();
    let swept = async {
        while stored(&db) != 0 {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    };
    tokio::time::timeout(Duration::from_secs(10), swept)
        .await
        .expect("the idle session is deleted");
    server.shutdown().await;
    let _ = std::fs::remove_dir_all(dir);
}
