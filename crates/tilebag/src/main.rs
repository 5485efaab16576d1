//! The `tilebag` command line: a thin shell around tilebag-core.

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tilebag_core::gcg::{parse_gcg, GcgRecord};
use tilebag_core::replay::{verify_record, Completion, Replayer};
use tilebag_core::ruleset::Ruleset;
use tilebag_core::{Board, Layout, Square, TileSet};

#[derive(Parser)]
#[command(
    name = "tilebag",
    version,
    about = "Tournament crossword games: rules engine, records and direction"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Game records (GCG).
    Gcg {
        #[command(subcommand)]
        command: GcgCommand,
    },
    /// Ruleset presets.
    Rules {
        #[command(subcommand)]
        command: RulesCommand,
    },
}

#[derive(Subcommand)]
enum GcgCommand {
    /// Replay each record through the engine and check every placement, score and cumulative
    /// score. Exits 0 only if every file agrees.
    Verify {
        #[arg(required = true)]
        files: Vec<PathBuf>,
    },
    /// Print the board, racks and scores after a turn.
    Show {
        file: PathBuf,
        /// Show the position after this many events (default: the end).
        #[arg(long)]
        turn: Option<usize>,
    },
}

#[derive(Subcommand)]
enum RulesCommand {
    /// List the presets.
    List,
    /// Print every parameter of a preset with its rule number.
    Show { preset: String },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e:#}");
            ExitCode::from(2)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Gcg { command } => match command {
            GcgCommand::Verify { files } => Ok(verify(&files)),
            GcgCommand::Show { file, turn } => show(&file, turn),
        },
        Command::Rules { command } => match command {
            RulesCommand::List => {
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
            RulesCommand::Show { preset } => {
                let r = Ruleset::preset(&preset)?;
                println!("{} — {}", r.name, r.title);
                for (field, value, rule) in r.describe() {
                    if rule.is_empty() {
                        continue;
                    }
                    println!("  {field:34} {value}  [{rule}]");
                }
                Ok(ExitCode::SUCCESS)
            }
        },
    }
}

fn read_record(path: &Path) -> Result<GcgRecord, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    parse_gcg(&bytes).map_err(|e| e.to_string())
}

fn verify(files: &[PathBuf]) -> ExitCode {
    let mut ok = true;
    for f in files {
        let name = f.display();
        let record = match read_record(f) {
            Ok(r) => r,
            Err(e) => {
                // Parse errors start with "line N: ".
                let e = e.strip_prefix("line ").map_or(format!(" {e}"), |rest| {
                    let (n, msg) = rest.split_once(": ").unwrap_or((rest, ""));
                    format!(":{n}: {msg}")
                });
                println!("FAIL {name}{e}");
                ok = false;
                continue;
            }
        };
        match verify_record(&record) {
            Ok(report) => {
                for w in &report.warnings {
                    println!("WARN {name}: {w}");
                }
                let [p1, p2] = &record.players;
                let [s1, s2] = report.scores;
                match report.completion {
                    Completion::Complete => {
                        println!("OK {name}: final {} {s1} – {} {s2}", p1.nick, p2.nick)
                    }
                    Completion::Incomplete => println!(
                        "INCOMPLETE {name}: {} events, {} {s1} – {} {s2} so far",
                        report.events.len(),
                        p1.nick,
                        p2.nick
                    ),
                }
            }
            Err(e) => {
                println!("FAIL {name}:{}: {}", e.line, e.message);
                ok = false;
            }
        }
    }
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

fn show(file: &Path, turn: Option<usize>) -> Result<ExitCode> {
    let record = read_record(file)
        .map_err(anyhow::Error::msg)
        .with_context(|| file.display().to_string())?;
    let mut r = Replayer::new(&record);
    let mut steps = 0;
    let mut last_line = None;
    while turn.is_none_or(|t| steps < t) {
        let line = r.peek().map(|e| e.line);
        match r.step() {
            Ok(true) => {
                steps += 1;
                last_line = line;
            }
            Ok(false) => break,
            Err(e) => anyhow::bail!("{}:{}: {}", file.display(), e.line, e.message),
        }
    }
    println!("{}", render_board(&r.board, &r.layout, &r.set));
    let [p1, p2] = &record.players;
    println!(
        "after {steps} event(s){}: {} {} – {} {}",
        last_line.map_or(String::new(), |l| format!(" (line {l})")),
        p1.nick,
        r.scores[0],
        p2.nick,
        r.scores[1]
    );
    match r.peek() {
        Some(next) => println!(
            "next: line {} {} to move, rack {}",
            next.line,
            record.players[next.player].nick,
            next.rack.as_deref().unwrap_or("(not recorded)")
        ),
        None => {
            for (i, rack) in record.last_racks.iter().enumerate() {
                if let Some(rack) = rack {
                    println!("last known rack of {}: {rack}", record.players[i].nick);
                }
            }
        }
    }
    let mut unseen = r.unseen();
    unseen.sort();
    println!(
        "unseen (bag and racks, {} tiles): {}",
        unseen.len(),
        r.set.tiles_to_string(&unseen)
    );
    Ok(ExitCode::SUCCESS)
}

fn render_board(board: &Board, layout: &Layout, set: &TileSet) -> String {
    use tilebag_core::board::Premium;
    let mut s = String::from("    ");
    for c in 0..layout.size {
        s.push((b'A' + c as u8) as char);
        s.push(' ');
    }
    s.push('\n');
    for r in 0..layout.size {
        s.push_str(&format!("{:>2}  ", r + 1));
        for c in 0..layout.size {
            let sq = Square::new(r as u8, c as u8);
            let ch = match board.get(sq) {
                Some(t) => set.placed_char(t),
                None => match layout.premium(sq) {
                    Premium::TripleWord => '=',
                    Premium::DoubleWord => '-',
                    Premium::TripleLetter => '"',
                    Premium::DoubleLetter => '\'',
                    Premium::None => '.',
                },
            };
            s.push(ch);
            s.push(' ');
        }
        s.push('\n');
    }
    s
}
