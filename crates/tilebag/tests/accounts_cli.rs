//! `tilebag accounts moderator NAME --database FILE`, as the server's operator runs it to make
//! the first moderator: the account found by its name (look-alikes too), made a moderator and a
//! player again, and clear refusals for a name or a database that does not exist.

mod support;

use support::{said, stderr, stdout, temp_dir, tilebag};
use tilebag_accounts::username::Username;
use tilebag_server::store::{self, NewAccount, Role};

fn role_of(db: &str, name: &str) -> Role {
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let s = store::open(db).await.unwrap();
        let skeleton = Username::parse(name).unwrap().skeleton();
        s.accounts()
            .account_by_skeleton(&skeleton)
            .await
            .unwrap()
            .expect("the account")
            .role
    })
}

#[test]
fn the_operator_makes_a_moderator_and_a_player_again() {
    let dir = temp_dir("tilebag-accounts-cli", "moderator");
    let db = dir.join("tilebag.db").to_str().unwrap().to_string();
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let s = store::open(&db).await.unwrap();
        s.accounts()
            .create_account(&NewAccount {
                username: "Oscar".into(),
                skeleton: Username::parse("Oscar").unwrap().skeleton(),
                password_hash: "$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA".into(),
                email: None,
                created_ms: 1_700_000_000_000,
            })
            .await
            .unwrap()
            .expect("a free name");
    });
    drop(rt);
    assert_eq!(role_of(&db, "Oscar"), Role::Player);

    // Found by its look-alike: `O5car` is Oscar.
    let o = tilebag(&["accounts", "moderator", "O5car", "--database", &db]);
    assert!(o.status.success(), "{}", said(&o));
    assert_eq!(stdout(&o), "Oscar is a moderator now\n");
    assert_eq!(role_of(&db, "Oscar"), Role::Moderator);

    let o = tilebag(&[
        "accounts",
        "moderator",
        "Oscar",
        "--remove",
        "--database",
        &db,
    ]);
    assert!(o.status.success(), "{}", said(&o));
    assert_eq!(stdout(&o), "Oscar is a player now\n");
    assert_eq!(role_of(&db, "Oscar"), Role::Player);

    // No such account: refused, naming it.
    let o = tilebag(&["accounts", "moderator", "Zelda", "--database", &db]);
    assert!(!o.status.success());
    assert!(
        stderr(&o).contains("there is no account named \"Zelda\""),
        "{}",
        said(&o)
    );
    // Not a username at all.
    let o = tilebag(&["accounts", "moderator", "x", "--database", &db]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("at least 3 characters"), "{}", said(&o));
    // A database that does not exist is not made empty.
    let missing = dir.join("typo.db");
    let o = tilebag(&[
        "accounts",
        "moderator",
        "Oscar",
        "--database",
        missing.to_str().unwrap(),
    ]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("no such database"), "{}", said(&o));
    assert!(!missing.exists());
    let _ = std::fs::remove_dir_all(&dir);
}
