//! `tilebag leaves train` making a full leave table (.klv2) by self-play from nothing: a tiny
//! run writes a table every command can read, and running the command again goes on from its
//! state file instead of starting over. Games are few so the test is quick.

mod support;

use std::path::PathBuf;
use std::process::Output;
use support::{said, temp_dir, tilebag};

fn out(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn dir(name: &str) -> PathBuf {
    temp_dir("tilebag-table-train", name)
}

fn train(output: &str, generations: &str) -> Output {
    train_with(
        output,
        generations,
        &["--threads", "2", "--keep-generations"],
    )
}

/// Four games a generation, and `more` options.
fn train_with(output: &str, generations: &str, more: &[&str]) -> Output {
    let mut args = vec![
        "leaves",
        "train",
        "--output",
        output,
        "--generations",
        generations,
        "--games-per-generation",
        "4",
    ];
    args.extend_from_slice(more);
    tilebag(&args)
}

/// The command failed, and its error says `why`.
fn refused_saying(o: &Output, why: &str) {
    assert!(!o.status.success(), "{}", said(o));
    assert!(err(o).contains(why), "{}", said(o));
}

/// A first generation trained into a new directory `name`: the table's path.
fn one_generation(name: &str) -> String {
    let table = dir(name).join("t.klv2");
    let t = table.to_str().unwrap().to_string();
    let o = train(&t, "1");
    assert!(o.status.success(), "{}", said(&o));
    t
}

#[test]
fn leaves_train_makes_a_full_table_and_goes_on_from_its_state() {
    let d = dir("full");
    let table = d.join("trained.klv2");
    let t = table.to_str().unwrap();
    let o = train(t, "1");
    assert!(o.status.success(), "{}", said(&o));
    assert!(
        out(&o).contains("generation 1, 4 games of self-play in all"),
        "{}",
        said(&o)
    );
    assert!(
        err(&o).contains("generation 1: 4 games in all"),
        "{}",
        said(&o)
    );
    // A .klv2 of every English leave: 3,667,340 bytes, like any other.
    assert_eq!(std::fs::metadata(&table).unwrap().len(), 3_667_340);
    assert!(d.join("trained.gen1.klv2").exists());
    assert!(d.join("trained.klv2.state").exists());
    let first = std::fs::read(&table).unwrap();

    // The same command with more generations goes on from generation 1.
    let o = train(t, "2");
    assert!(o.status.success(), "{}", said(&o));
    assert!(err(&o).contains("resuming"), "{}", said(&o));
    assert!(
        out(&o).contains("generation 2, 8 games of self-play in all"),
        "{}",
        said(&o)
    );
    assert!(out(&o).contains("4 games this run"), "{}", said(&o));
    assert_eq!(std::fs::read(d.join("trained.gen1.klv2")).unwrap(), first);
    assert_ne!(
        std::fs::read(&table).unwrap(),
        first,
        "generation 2's table"
    );

    // Nothing left to do: said, and the table stays.
    let o = train(t, "2");
    assert!(o.status.success(), "{}", said(&o));
    assert!(
        out(&o).contains("already holds 2 generations"),
        "{}",
        said(&o)
    );

    // The table plays: a bot with it in a match.
    let o = tilebag(&[
        "selfplay",
        "--games",
        "2",
        "--threads",
        "1",
        "--bots",
        &format!("static:{t},static"),
    ]);
    assert!(o.status.success(), "{}", said(&o));
    assert!(
        out(&o).contains("every game's GCG verifies"),
        "{}",
        said(&o)
    );
}

#[test]
fn leaves_train_refuses_a_state_made_with_another_start() {
    let t = one_generation("start");
    let o = train_with(&t, "2", &["--start", "weights"]);
    refused_saying(&o, "another --seed or --start");
}

/// A run resumed with other settings would mix two runs' samples in one table: refused, naming
/// each setting that differs and what the state was made with.
#[test]
fn leaves_train_refuses_to_go_on_with_other_settings() {
    let t = one_generation("settings");
    let o = train_with(&t, "2", &["--rollouts", "8"]);
    refused_saying(
        &o,
        "was made with --rollouts 32 (this run: 8): give the same to go on",
    );
    // The state is untouched: the same command as before goes on from it.
    let o = train(&t, "2");
    assert!(o.status.success(), "{}", said(&o));
    assert!(err(&o).contains("resuming"), "{}", said(&o));
}
