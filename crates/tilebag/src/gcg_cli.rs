//! `tilebag gcg`: verify game records against the rules, show a position.

use anyhow::{bail, Context, Result};
use clap::Subcommand;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use tilebag_core::gcg::{parse_gcg, GcgRecord};
use tilebag_core::replay::{verify_record, Completion, Replayer};
use tilebag_core::{Board, Layout, Square, TileSet};
use tilebag_engine::cgp::board_to_cgp;
use tilebag_engine::{Grid, Rack};

#[derive(Subcommand)]
pub enum GcgCommand {
    /// Replay each record through the engine and check every placement, score and cumulative
    /// score. Exits 0 only if every file agrees.
    Verify {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Also list each word played that this lexicon does not contain (never fails the
        /// replay). A built file, a plain word list or a layered config.
        #[arg(long)]
        lexicon: Option<PathBuf>,
    },
    /// Print the board, racks and scores after a turn.
    Show {
        file: PathBuf,
        /// Show the position after this many events (default: the end).
        #[arg(long)]
        turn: Option<usize>,
        /// Print the position as one CGP line (for macondo, MAGPIE, wolges and `tilebag moves`).
        #[arg(long)]
        cgp: bool,
    },
}

pub fn run(command: GcgCommand) -> Result<ExitCode> {
    match command {
        GcgCommand::Verify { files, lexicon } => {
            let lexicon = lexicon
                .map(|p| tilebag_lexicon::open_lexicon(&p))
                .transpose()?;
            Ok(verify(&files, lexicon.as_ref()))
        }
        GcgCommand::Show { file, turn, cgp } => {
            if cgp {
                show_cgp(&file, turn)
            } else {
                show(&file, turn)
            }
        }
    }
}

/// A game record read and parsed; the error says why not (the caller names the file).
fn read_record(path: &Path) -> Result<GcgRecord, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read: {e}"))?;
    parse_gcg(&bytes).map_err(|e| e.to_string())
}

/// Words played in a record that the lexicon does not contain: (line, word, withdrawn).
fn phonies(
    record: &GcgRecord,
    report: &tilebag_core::replay::ReplayReport,
    lexicon: &tilebag_lexicon::WordSource,
) -> Vec<(usize, String, bool)> {
    use tilebag_core::gcg::GcgEventKind;
    let mut out = Vec::new();
    for ev in &report.events {
        let idx = record.events.iter().position(|e| e.line == ev.line);
        let withdrawn = idx.is_some_and(|i| {
            record
                .events
                .get(i + 1)
                .is_some_and(|n| n.kind == GcgEventKind::Withdrawal && n.player == ev.player)
        });
        for w in &ev.words {
            if !lexicon.contains(w) {
                out.push((ev.line, w.clone(), withdrawn));
            }
        }
    }
    out
}

fn verify(files: &[PathBuf], lexicon: Option<&tilebag_lexicon::WordSource>) -> ExitCode {
    let mut ok = true;
    for f in files {
        let name = f.display();
        let record = match read_record(f) {
            Ok(r) => r,
            Err(e) => {
                // Parse errors start with "line N: ".
                let e = e.strip_prefix("line ").map_or(format!(": {e}"), |rest| {
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
                if let Some(lex) = lexicon {
                    let found = phonies(&record, &report, lex);
                    if found.is_empty() {
                        println!("WORDS {name}: every word played is in {}", lex.name());
                    } else {
                        let list: Vec<String> = found
                            .iter()
                            .map(|(line, w, withdrawn)| {
                                format!(
                                    "{w} (line {line}{})",
                                    if *withdrawn { ", withdrawn" } else { "" }
                                )
                            })
                            .collect();
                        println!("PHONIES {name}: not in {}: {}", lex.name(), list.join(", "));
                    }
                }
                let [p1, p2] = &record.players;
                let [s1, s2] = report.scores;
                match report.completion {
                    Completion::Complete => {
                        let how = report
                            .ending
                            .as_deref()
                            .map_or(String::new(), |e| format!(" ({e})"));
                        println!("OK {name}: final {} {s1} – {} {s2}{how}", p1.nick, p2.nick)
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

/// A game record read and parsed, or an error naming the file.
pub fn open_record(file: &Path) -> Result<GcgRecord> {
    read_record(file)
        .map_err(anyhow::Error::msg)
        .with_context(|| file.display().to_string())
}

/// Replays `turn` events of the record (all of them: `None`), stopping at its end; how many
/// were replayed and the line of the last. A fault names the file and its line.
fn step_to(r: &mut Replayer, file: &Path, turn: Option<usize>) -> Result<(usize, Option<usize>)> {
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
            Err(e) => bail!("{}:{}: {}", file.display(), e.line, e.message),
        }
    }
    Ok((steps, last_line))
}

fn show(file: &Path, turn: Option<usize>) -> Result<ExitCode> {
    let record = open_record(file)?;
    let mut r = Replayer::new(&record);
    let (steps, last_line) = step_to(&mut r, file, turn)?;
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

/// `gcg show --cgp`: the CGP of the position after `turn` events (the player to move next
/// first, with their recorded rack).
fn show_cgp(file: &Path, turn: Option<usize>) -> Result<ExitCode> {
    let record = open_record(file)?;
    let mut r = Replayer::new(&record);
    step_to(&mut r, file, turn)?;
    let grid = Grid::from_board(&r.board);
    let (me, rack) = match r.peek() {
        Some(ev) => (ev.player, ev.rack.clone().unwrap_or_default()),
        None => (0, String::new()),
    };
    let rack = Rack::parse(&rack)
        .map(|r| r.to_string())
        .unwrap_or_default();
    let lex = record
        .lexicon
        .as_ref()
        .map(|v| format!(" lex {};", v.trim()))
        .unwrap_or_default();
    println!(
        "{} {}/ {}/{} 0{}",
        board_to_cgp(&grid),
        rack,
        r.scores[me],
        r.scores[1 - me],
        lex
    );
    Ok(ExitCode::SUCCESS)
}
