//! `td division add` and `td division set`.

use super::common::{append, At};
use anyhow::{anyhow, Result};
use clap::Subcommand;
use std::path::PathBuf;
use tilebag_events::{fresh_seed, EventFile};
use tilebag_tournament::{Action, Setting};

#[derive(Subcommand)]
pub enum DivisionCommand {
    /// Add a division under a ruleset preset with a schedule such as `IF:3 SW:9 KOTH:1`.
    Add {
        event: PathBuf,
        name: String,
        /// The ruleset preset (naspa-2013, wespa-2010, sanspa-1999, literacy-2018, …).
        #[arg(long)]
        rules: String,
        #[arg(long)]
        schedule: String,
        /// Seed of every random choice (default: drawn now, and recorded in the log).
        #[arg(long)]
        seed: Option<u64>,
    },
    /// Change one setting: schedule S | bye-spread N | forfeit-spread N | resignation-margin N |
    /// spread-cap N|none | tie-breaks wins,losses,spread,rating,points-for |
    /// gibson SPREAD:PLACES|off | firsts naspa|wespa|draw[,byes=alternate|ignore][,forfeits=alternate|neither] |
    /// withdrawn forfeit|void | fontes random|snaked | ratings naspa|naspa-club|wespa|none |
    /// format individual|literacy-2018 | winner-submits yes|no | max-repeats N|none |
    /// prize-bands N|none (places paid: the contenders for the CP and COP schedule tokens, the
    /// places in the prize table) | class-prizes none|class|rating:T1,T2,… |
    /// flight-cap tsh|nsc|nsc2008|none (how many contenders Chew pairings fly together) |
    /// rules KEY=VALUE[,KEY=VALUE]|none (the organiser's choices the book leaves open: end-rack
    /// double|add-and-subtract (WESPA 5.1.4), challenge single|double|per-word:N|per-turn:N
    /// (WESPA 3.10.15(b), NASPA VI.B.3), resignation-option on|off (NASPA I.B))
    Set {
        #[command(flatten)]
        at: At,
        key: String,
        #[arg(allow_hyphen_values = true)]
        value: String,
    },
}

pub fn run(command: DivisionCommand) -> Result<()> {
    match command {
        DivisionCommand::Add {
            event,
            name,
            rules,
            schedule,
            seed,
        } => add(event, name, rules, schedule, seed),
        DivisionCommand::Set { at, key, value } => set(at, key, value),
    }
}

fn add(
    event: PathBuf,
    name: String,
    rules: String,
    schedule: String,
    seed: Option<u64>,
) -> Result<()> {
    let seed = seed.unwrap_or_else(fresh_seed);
    let t = append(
        &event,
        Action::AddDivision {
            division: name.clone(),
            preset: rules,
            schedule,
            seed,
        },
    )?;
    let d = t.division(&name)?;
    println!(
        "division {} ({}), schedule {}, seed {seed}",
        d.name, d.preset, d.schedule.text
    );
    Ok(())
}

fn set(at: At, key: String, value: String) -> Result<()> {
    let mut store = EventFile::open(&at.event)?;
    store.append(|t| {
        let d = t.division(&at.division)?;
        Ok(vec![Action::Configure {
            division: at.division.clone(),
            setting: Setting::parse(d, &key, &value).map_err(|e| anyhow!(e))?,
        }])
    })?;
    println!("division {}: {key} = {value}", at.division);
    Ok(())
}
