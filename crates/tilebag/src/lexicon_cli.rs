//! `tilebag lexicon`: build a lexicon file from a word list, describe one.

use anyhow::{Context, Result};
use clap::Subcommand;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Subcommand)]
pub enum LexiconCommand {
    /// Compile a word list (any case, LF or CRLF, `#` comments) into one binary lexicon file.
    Build {
        words: PathBuf,
        #[arg(short, long)]
        output: PathBuf,
        /// The name stored in the file (default: the word list's file name).
        #[arg(long)]
        name: Option<PathBuf>,
    },
    /// Word count, counts by length, file size and what the list appears to be.
    Info { file: PathBuf },
}

pub fn run(command: LexiconCommand) -> Result<ExitCode> {
    match command {
        LexiconCommand::Build {
            words,
            output,
            name,
        } => build(&words, &output, name.as_deref()),
        LexiconCommand::Info { file } => info(&file),
    }
}

fn build(words: &Path, output: &Path, name: Option<&Path>) -> Result<ExitCode> {
    let started = std::time::Instant::now();
    let text = std::fs::read(words).with_context(|| format!("cannot read {}", words.display()))?;
    let name = name
        .map(|n| n.display().to_string())
        .or_else(|| words.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "lexicon".into());
    let lex =
        tilebag_lexicon::Lexicon::from_word_list(&text, &name).map_err(|e| e.in_file(words))?;
    lex.save(output)?;
    let stats = lex.build_stats();
    println!(
        "built {} from {}: {} words ({} over 15 letters left out), {} bytes, in {:.0} ms",
        output.display(),
        words.display(),
        stats.words,
        stats.dropped_long,
        stats.file_bytes,
        started.elapsed().as_secs_f64() * 1000.0
    );
    Ok(ExitCode::SUCCESS)
}

fn info(file: &Path) -> Result<ExitCode> {
    let size = std::fs::metadata(file)
        .with_context(|| format!("cannot read {}", file.display()))?
        .len();
    let source = tilebag_lexicon::open_lexicon(file)?;
    println!(
        "file: {} ({size} bytes, {:?})",
        file.display(),
        source.kind()
    );
    println!("name: {}", source.name());
    match source.lexicon() {
        Some(lex) => {
            println!("words: {}", lex.word_count());
            if lex.dropped_long() > 0 {
                println!("left out: {} words over 15 letters", lex.dropped_long());
            }
            let counts = lex.counts_by_length();
            let by_len: Vec<String> = (1..counts.len())
                .filter(|&n| counts[n] > 0)
                .map(|n| format!("{n}:{}", counts[n]))
                .collect();
            println!("by length: {}", by_len.join(" "));
            let fp = lex.source_fingerprint();
            println!(
                "fingerprint: {} words, {} two-letter words, QI {}, EUOI {}, OK {}",
                fp.word_count,
                fp.two_letter_count,
                yes_no(fp.has_qi),
                yes_no(fp.has_euoi),
                yes_no(fp.has_ok)
            );
            println!(
                "appears to be: {}",
                lex.identify()
                    .unwrap_or("no list we know (not ENABLE1, TWL06, SOWPODS or CSW19)")
            );
        }
        None => {
            if let tilebag_lexicon::WordSource::Layered(l) = &source {
                for layer in l.layers() {
                    println!("layer: {layer}");
                }
            }
        }
    }
    Ok(ExitCode::SUCCESS)
}

fn yes_no(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}
