//! `td links`: each player's own link to the server, their secret key made on first use.

use super::common::At;
use anyhow::{Context, Result};
use clap::Args;
use tilebag_events::EventFile;

// The arguments of `td links`.
#[derive(Args)]
pub struct LinksArgs {
    #[command(flatten)]
    at: At,
    /// The server's address as players reach it.
    #[arg(long, default_value = "http://127.0.0.1:8080")]
    url: String,
}

pub fn links(args: LinksArgs) -> Result<()> {
    let LinksArgs { at, url } = args;
    let mut store = EventFile::open(&at.event)?;
    let t = store.load()?;
    let d = t.division(&at.division)?;
    let id = at
        .event
        .file_stem()
        .and_then(|s| s.to_str())
        .context("the event file has no name")?
        .to_string();
    tilebag_events::EventsDir::check_id(&id)
        .context("the event file's name is not an event id the server serves")?;
    let base = url.trim_end_matches('/');
    for p in &d.players {
        let key = store.player_key(&d.name, p.id, tilebag_server::secret_token)?;
        println!("#{:<3} {:<30} {base}/p/{id}/{key}", p.id, p.name);
    }
    Ok(())
}
