//! `td submit`: the rating-submission files of a finished division, or of every division
//! (NASPA's tsh `.t` a division, WESPA's AUPAIR `.TOU` one for the event).

use super::common::tou_file;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::path::PathBuf;
use tilebag_events::EventFile;
use tilebag_tournament::{tsh, Division, RatingSystem};

// The arguments of `td submit`.
#[derive(Args)]
pub struct SubmitArgs {
    /// The event's SQLite file.
    event: PathBuf,
    /// The division (default: every division; the `.TOU` file then holds them all, a section
    /// each, as AUPAIR writes it).
    division: Option<String>,
    /// The directory to write into (created if needed).
    #[arg(long)]
    dir: PathBuf,
    /// naspa | wespa | both (default: by each division's ratings setting; both when none).
    #[arg(long)]
    to: Option<String>,
}

pub fn submit(args: SubmitArgs) -> Result<()> {
    let SubmitArgs {
        event,
        division,
        dir,
        to,
    } = args;
    let t = EventFile::open_read(&event)?.load()?;
    let divisions: Vec<&Division> = match &division {
        Some(name) => vec![t.division(name)?],
        None => t.divisions.iter().collect(),
    };
    if divisions.is_empty() {
        bail!("the event has no division to submit");
    }
    // (NASPA, WESPA): where a division goes.
    let chosen = match to.as_deref().map(str::to_ascii_lowercase).as_deref() {
        Some("naspa") => Some((true, false)),
        Some("wespa") => Some((false, true)),
        Some("both") => Some((true, true)),
        Some(other) => bail!("--to {other:?}: submit to naspa, wespa or both"),
        None => None,
    };
    let goes_to = |d: &Division| {
        chosen.unwrap_or(match d.config.ratings {
            RatingSystem::Naspa { .. } => (true, false),
            RatingSystem::Wespa => (false, true),
            RatingSystem::None => (true, true),
        })
    };
    for d in &divisions {
        if let Some(why) = tilebag_tournament::checks::submission_refusal(d) {
            if d.rounds.is_empty() {
                bail!("{why}; nothing was written");
            }
            bail!(
                "{why} (see td missing EVENT {} ROUND); nothing was written",
                d.name
            );
        }
    }
    let mut files = Vec::new();
    for d in divisions.iter().filter(|d| goes_to(d).0) {
        files.push((tsh::file_name(&d.name), tsh::write_t(d)?));
    }
    let wespa: Vec<&str> = divisions
        .iter()
        .filter(|d| goes_to(d).1)
        .map(|d| d.name.as_str())
        .collect();
    if !wespa.is_empty() {
        // One division: named after it (`a.TOU`); the event: after the event's file.
        let stem = match &division {
            Some(name) => tsh::file_name(name).trim_end_matches(".t").to_string(),
            None => event
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "event".into()),
        };
        files.push((format!("{stem}.TOU"), tou_file(&event, &t, &wespa)?));
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
