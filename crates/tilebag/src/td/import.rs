//! `td import`: a tsh `.t` file (or a `.tsh` archive) as a division, creating the event if
//! needed. What the file has that tilebag does not read is kept for export (unknown fields,
//! comment lines, an archive's `config` lines and file names); a score entered for one side of
//! a game only is kept too, with a warning, as the game has no result.

use super::common::check_date;
use anyhow::{Context, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use tilebag_events::EventFile;
use tilebag_tournament::{tsh, Action, Tournament};

// The arguments of `td import`.
#[derive(Args)]
pub struct ImportArgs {
    event: PathBuf,
    file: PathBuf,
    /// The division's name (default: the file's stem; an archive names its own).
    #[arg(long)]
    division: Option<String>,
    /// The ruleset preset.
    #[arg(long)]
    rules: String,
    /// The schedule, e.g. `IF:3 SW:6 KOTH:1`.
    #[arg(long)]
    schedule: String,
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The event's name, when the import creates it (default: the file's stem).
    #[arg(long)]
    name: Option<String>,
    #[arg(long)]
    date: Option<String>,
}

pub fn import(args: ImportArgs) -> Result<()> {
    let ImportArgs {
        event,
        file,
        division,
        rules,
        schedule,
        seed,
        name,
        date,
    } = args;
    let (stem, files, keep) = read_divisions(&file, division)?;
    if let Some(d) = &date {
        check_date(d)?;
    }
    // Every file is read before the event is touched, and a refused import leaves no
    // event file behind (an existing one is left as it was: the append is one
    // transaction).
    let mut actions = Vec::new();
    let mut warnings = Vec::new();
    for (div, body) in &files {
        let imported = tsh::import_division(body, div, &rules, &schedule, seed)
            .with_context(|| format!("{} (division {div})", file.display()))?;
        actions.push(imported.actions);
        warnings.extend(
            imported
                .warnings
                .into_iter()
                .map(|w| format!("{} (division {div}) {w}", file.display())),
        );
    }
    actions.extend(keep.map(|a| vec![a]));
    let existed = event.exists();
    let imported = (|| -> Result<Tournament> {
        let mut store = EventFile::create(&event)?;
        store.append(|t| {
            let mut out = Vec::new();
            if t.name.is_empty() {
                out.push(Action::CreateTournament {
                    name: name.clone().unwrap_or_else(|| stem.clone()),
                    date: date.clone(),
                });
            }
            out.extend(actions.into_iter().flatten());
            Ok(out)
        })
    })();
    let t = match imported {
        Ok(t) => t,
        Err(e) => {
            if !existed {
                remove_event_file(&event);
            }
            return Err(e);
        }
    };
    for (div, _) in &files {
        let d = t.division(div)?;
        println!(
            "imported division {}: {} players, {} rounds",
            d.name,
            d.players.len(),
            d.rounds.len()
        );
    }
    for w in warnings {
        println!("warning: {w}");
    }
    Ok(())
}

/// What `td import` reads from a file: its stem, its divisions as (name, text), and for an
/// archive the action keeping its lines outside the files.
type Read = (String, Vec<(String, String)>, Option<Action>);

/// The file's stem, and its divisions as (name, text): an archive's own (with the action that
/// keeps its other lines), or the one division of a `.t` file, named by --division (default:
/// the stem).
fn read_divisions(file: &Path, division: Option<String>) -> Result<Read> {
    let bytes = std::fs::read(file).with_context(|| format!("cannot read {}", file.display()))?;
    // UTF-8 (a byte-order mark dropped) or Latin-1, as older tsh files are.
    let text = tsh::decode_text(&bytes).with_context(|| file.display().to_string())?;
    let stem = file
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| "A".into());
    let archive = file
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("tsh"))
        || text.lines().any(|l| l.trim().starts_with("#begin_file"));
    if archive {
        let archive =
            tsh::read_tsh_archive_with_config(&text).with_context(|| file.display().to_string())?;
        let keep = archive.keep_action();
        return Ok((stem, archive.divisions, Some(keep)));
    }
    let name = division.unwrap_or_else(|| stem.clone());
    Ok((stem, vec![(name, text)], None))
}

/// Removes an event file this command created (and SQLite's side files).
fn remove_event_file(path: &Path) {
    let _ = std::fs::remove_file(path);
    for side in ["-journal", "-wal", "-shm"] {
        let mut p = path.as_os_str().to_owned();
        p.push(side);
        let _ = std::fs::remove_file(PathBuf::from(p));
    }
}
