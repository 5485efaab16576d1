//! `td new` (create an event file) and `td state` (print the whole replayed state).

use super::common::{check_date, EventArg};
use anyhow::Result;
use clap::Args;
use std::path::PathBuf;
use tilebag_events::EventFile;
use tilebag_tournament::Action;

// The arguments of `td new`.
#[derive(Args)]
pub struct NewArgs {
    /// The SQLite file to create (e.g. `tournament.db`).
    event: PathBuf,
    /// The event's name.
    #[arg(long)]
    name: String,
    /// The first day, YYYY-MM-DD (needed for `.TOU` export).
    #[arg(long)]
    date: Option<String>,
}

pub fn new(args: NewArgs) -> Result<()> {
    let NewArgs { event, name, date } = args;
    if let Some(d) = &date {
        check_date(d)?;
    }
    let mut store = EventFile::create(&event)?;
    store.append(|_| {
        Ok(vec![Action::CreateTournament {
            name: name.clone(),
            date: date.clone(),
        }])
    })?;
    println!("created {name:?} in {}", event.display());
    Ok(())
}

pub fn state(args: EventArg) -> Result<()> {
    let t = EventFile::open_read(&args.event)?.load()?;
    println!("{}", serde_json::to_string_pretty(&t)?);
    Ok(())
}
