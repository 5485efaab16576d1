//! `tilebag rules`: the presets, and every parameter of one with its rule number.

use anyhow::Result;
use clap::Subcommand;
use std::process::ExitCode;
use tilebag_core::ruleset::Ruleset;

#[derive(Subcommand)]
pub enum RulesCommand {
    /// List the presets.
    List,
    /// Print every parameter of a preset with its rule number.
    Show {
        preset: String,
        /// An organiser's choice the book leaves open, as KEY=VALUE (repeatable): end-rack
        /// (WESPA 5.1.4), challenge (WESPA 3.10.15(b), NASPA VI.B.3, NSA VI.B.2),
        /// resignation-option (NASPA I.B, NSA I.B).
        #[arg(long = "rule", value_name = "KEY=VALUE")]
        rules: Vec<String>,
    },
}

pub fn run(command: RulesCommand) -> Result<ExitCode> {
    match command {
        RulesCommand::List => list(),
        RulesCommand::Show { preset, rules } => show(&preset, &rules),
    }
}

/// `tilebag rules list`: each preset's name and title, the default marked.
fn list() -> Result<ExitCode> {
    for name in Ruleset::PRESETS {
        let r = Ruleset::preset(name).expect("known preset");
        let default = if name == "naspa-2013" {
            " (default)"
        } else {
            ""
        };
        println!("{name:16} {}{default}", r.title);
    }
    Ok(ExitCode::SUCCESS)
}

/// `tilebag rules show`: a preset with the organiser's choices given, parameter by parameter.
fn show(preset: &str, rules: &[String]) -> Result<ExitCode> {
    let r = Ruleset::preset(preset)?.with_overrides(rules)?;
    println!("{} — {}", r.name, r.title);
    for (field, value, rule) in r.describe() {
        if field == "title" {
            continue;
        }
        if rule.is_empty() {
            println!("  {field:34} {value}");
        } else {
            println!("  {field:34} {value}  [{rule}]");
        }
    }
    Ok(ExitCode::SUCCESS)
}
