//! The action log itself: `td undo` (delete the last action), `td log` (print the log as JSON
//! lines) and `td replay` (build a new event from such a log).

use super::common::EventArg;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::fmt::Write as _;
use std::io::Read as _;
use std::path::PathBuf;
use tilebag_events::EventFile;
use tilebag_tournament::Action;

// The arguments of `td replay`.
#[derive(Args)]
pub struct ReplayArgs {
    event: PathBuf,
    log: PathBuf,
}

pub fn undo(args: EventArg) -> Result<()> {
    let mut store = EventFile::open(&args.event)?;
    let (seq, action) = store.undo()?;
    println!("undone #{seq}: {action}");
    Ok(())
}

pub fn log(args: EventArg) -> Result<()> {
    let store = EventFile::open_read(&args.event)?;
    store.load()?;
    let mut out = String::new();
    for row in store.rows()? {
        // The action exactly as stored (it must be valid JSON: it replayed above).
        let raw = row.action.trim();
        writeln!(
            out,
            "{{\"seq\":{},\"at\":{},\"action\":{raw}}}",
            row.seq,
            serde_json::to_string(&row.at)?
        )
        .expect("a string");
    }
    print!("{out}");
    Ok(())
}

pub fn replay(args: ReplayArgs) -> Result<()> {
    let ReplayArgs { event, log } = args;
    let mut text = String::new();
    if log.as_os_str() == "-" {
        std::io::stdin().read_to_string(&mut text)?;
    } else {
        text = std::fs::read_to_string(&log)
            .with_context(|| format!("cannot read {}", log.display()))?;
    }
    let mut actions = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let v: serde_json::Value =
            serde_json::from_str(line).with_context(|| format!("line {}: not JSON", i + 1))?;
        let a = v.get("action").filter(|a| a.is_object()).unwrap_or(&v);
        let a: Action = serde_json::from_value(a.clone())
            .with_context(|| format!("line {}: not an action", i + 1))?;
        actions.push(a);
    }
    let mut store = EventFile::create(&event)?;
    if !store.rows()?.is_empty() {
        bail!(
            "{} already holds an event; replay into a new file",
            event.display()
        );
    }
    store.append(|_| Ok(actions.clone()))?;
    println!(
        "replayed {} actions into {}",
        actions.len(),
        event.display()
    );
    Ok(())
}
