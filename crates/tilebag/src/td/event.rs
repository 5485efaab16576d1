//! `td new` (create an event file), `td event` (print or change the event's name and date) and
//! `td state` (print the whole replayed state).

use super::common::{append, check_date, EventArg};
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

// The arguments of `td event`.
#[derive(Args)]
pub struct EventArgs {
    /// The event's SQLite file.
    event: PathBuf,
    /// The event's new name.
    #[arg(long)]
    name: Option<String>,
    /// The event's first day, YYYY-MM-DD (a `.TOU` file's header needs it).
    #[arg(long)]
    date: Option<String>,
}

/// `td event`: with --name or --date, logs the change (an `edit-event` action, which `td undo`
/// takes back); then, or without them, prints the event's name and date.
pub fn event(args: EventArgs) -> Result<()> {
    let EventArgs { event, name, date } = args;
    let t = if name.is_none() && date.is_none() {
        EventFile::open_read(&event)?.load()?
    } else {
        if let Some(d) = &date {
            check_date(d)?;
        }
        append(&event, Action::EditEvent { name, date })?
    };
    match &t.date {
        Some(d) => println!("{:?}, {d}", t.name),
        None => println!(
            "{:?}, no date (a .TOU file needs one: tilebag td event {} --date YYYY-MM-DD)",
            t.name,
            event.display()
        ),
    }
    Ok(())
}

pub fn state(args: EventArg) -> Result<()> {
    let t = EventFile::open_read(&args.event)?.load()?;
    println!("{}", serde_json::to_string_pretty(&t)?);
    Ok(())
}
