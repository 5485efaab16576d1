//! `td submit`: the rating-submission files of a finished division (NASPA's tsh `.t`, WESPA's
//! AUPAIR `.TOU`).

use anyhow::{bail, Context, Result};
use clap::Args;
use std::path::PathBuf;
use tilebag_events::EventFile;
use tilebag_tournament::{tou, tsh};

// The arguments of `td submit`.
#[derive(Args)]
pub struct SubmitArgs {
    /// The event's SQLite file.
    event: PathBuf,
    division: String,
    /// The directory to write into (created if needed).
    #[arg(long)]
    dir: PathBuf,
    /// naspa | wespa | both (default: by the division's ratings setting; both when none).
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
    let d = t.division(&division)?;
    let (naspa, wespa) = match to.as_deref().map(str::to_ascii_lowercase).as_deref() {
        Some("naspa") => (true, false),
        Some("wespa") => (false, true),
        Some("both") => (true, true),
        Some(other) => bail!("--to {other:?}: submit to naspa, wespa or both"),
        None => match d.config.ratings {
            tilebag_tournament::RatingSystem::Naspa { .. } => (true, false),
            tilebag_tournament::RatingSystem::Wespa => (false, true),
            tilebag_tournament::RatingSystem::None => (true, true),
        },
    };
    if let Some(why) = tilebag_tournament::checks::submission_refusal(d) {
        if d.rounds.is_empty() {
            bail!("{why}");
        }
        bail!(
            "{why} (see td missing EVENT {} ROUND); nothing was written",
            d.name
        );
    }
    let mut files = Vec::new();
    let stem = tsh::file_name(&d.name);
    if naspa {
        files.push((stem.clone(), tsh::write_t(d)?));
    }
    if wespa {
        let name = format!("{}.TOU", stem.trim_end_matches(".t"));
        files.push((name, tou::write_tou(&t, &d.name)?));
    }
    std::fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
    for (name, text) in files {
        let path = dir.join(name);
        std::fs::write(&path, text).with_context(|| format!("cannot write {}", path.display()))?;
        println!("wrote {}", path.display());
    }
    Ok(())
}
