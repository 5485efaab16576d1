//! `tilebag judge`: the adjudication station of a tournament room (NASPA IV.J.1 and IV.K.3(d),
//! WESPA 3.10.7(b) and 3.10.9, SANSPA 13.3). The challenger types the challenged words; the
//! challenged player presses Tab (or Enter); one verdict appears for the play as a whole and never
//! says which word failed; every adjudication is appended to a log.

use anyhow::{Context, Result};
use std::fs::OpenOptions;
use std::io::{BufRead, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tilebag_lexicon::WordSource;

/// The settings of `tilebag judge` (its help is the command's, in `main.rs`).
#[derive(clap::Args)]
pub struct JudgeArgs {
    /// A built lexicon file, a plain word list or a layered config (default: built-in ENABLE).
    #[arg(long)]
    pub lexicon: Option<PathBuf>,
    /// Judge these words and exit: 0 when the play is acceptable, 1 when it is not.
    #[arg(long, num_args = 1..)]
    pub words: Option<Vec<String>>,
    /// Where every adjudication is appended.
    #[arg(long, default_value = "tilebag-judge.log")]
    pub log: PathBuf,
    /// Seconds the verdict stays on screen.
    #[arg(long, default_value_t = 5)]
    pub clear_after: u64,
}

/// `tilebag judge`: the scripted verdict (exit 0 or 1) or the full-screen station.
pub fn run(args: JudgeArgs) -> Result<std::process::ExitCode> {
    use std::process::ExitCode;
    let lex = tilebag_lexicon::open_lexicon_or_builtin(args.lexicon.as_deref())?;
    match args.words {
        Some(words) => Ok(if scripted(&lex, &words, &args.log)? {
            ExitCode::SUCCESS
        } else {
            ExitCode::from(1)
        }),
        None => {
            interactive(&lex, &args.log, Duration::from_secs(args.clear_after))?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

/// The verdict on a whole play.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    Acceptable,
    NotAcceptable,
}

impl Verdict {
    pub fn text(self) -> &'static str {
        match self {
            Verdict::Acceptable => "ACCEPTABLE",
            Verdict::NotAcceptable => "NOT ACCEPTABLE",
        }
    }
}

/// Normalise what the challenger typed: words separated by spaces or commas, any case.
pub fn parse_words(input: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    for w in input.split(|c: char| c.is_whitespace() || c == ',') {
        if w.is_empty() {
            continue;
        }
        if let Some(bad) = w.chars().find(|c| !c.is_ascii_alphabetic()) {
            return Err(format!("{w:?} is not a word: {bad:?} is not a letter"));
        }
        words.push(w.to_ascii_uppercase());
    }
    if words.is_empty() {
        return Err("type at least one challenged word".into());
    }
    Ok(words)
}

/// One verdict for the whole play: acceptable only if every word is.
pub fn adjudicate(lexicon: &WordSource, words: &[String]) -> Verdict {
    if words.iter().all(|w| lexicon.contains(w)) {
        Verdict::Acceptable
    } else {
        Verdict::NotAcceptable
    }
}

/// Append one adjudication to the log: time (UTC), words, verdict, lexicon.
pub fn log(path: &Path, words: &[String], verdict: Verdict, lexicon: &str) -> Result<()> {
    let mut f = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("cannot open the judge log {}", path.display()))?;
    writeln!(
        f,
        "{}\t{}\t{}\t{}",
        utc_now(),
        words.join(" "),
        verdict.text(),
        lexicon
    )
    .with_context(|| format!("cannot write the judge log {}", path.display()))?;
    Ok(())
}

fn utc_now() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    tilebag_core::civil::utc_text(secs)
}

/// The verdict in large block letters, for a screen read from across a table.
pub fn banner(verdict: Verdict) -> Vec<String> {
    const H: usize = 5;
    let glyph = |c: char| -> [&'static str; H] {
        match c {
            'A' => [" ### ", "#   #", "#####", "#   #", "#   #"],
            'B' => ["#### ", "#   #", "#### ", "#   #", "#### "],
            'C' => [" ####", "#    ", "#    ", "#    ", " ####"],
            'E' => ["#####", "#    ", "#### ", "#    ", "#####"],
            'L' => ["#    ", "#    ", "#    ", "#    ", "#####"],
            'N' => ["#   #", "##  #", "# # #", "#  ##", "#   #"],
            'O' => [" ### ", "#   #", "#   #", "#   #", " ### "],
            'P' => ["#### ", "#   #", "#### ", "#    ", "#    "],
            'T' => ["#####", "  #  ", "  #  ", "  #  ", "  #  "],
            _ => ["     ", "     ", "     ", "     ", "     "],
        }
    };
    let lines_for = |word: &str| -> Vec<String> {
        (0..H)
            .map(|row| {
                word.chars()
                    .map(|c| glyph(c)[row].replace('#', "█"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect()
    };
    match verdict {
        Verdict::Acceptable => lines_for("ACCEPTABLE"),
        Verdict::NotAcceptable => {
            let mut v = lines_for("NOT");
            v.push(String::new());
            v.extend(lines_for("ACCEPTABLE"));
            v
        }
    }
}

/// The scripted judge: prints the verdict; `Ok(true)` when acceptable.
pub fn scripted(lexicon: &WordSource, words: &[String], log_path: &Path) -> Result<bool> {
    let words = parse_words(&words.join(" ")).map_err(anyhow::Error::msg)?;
    let verdict = adjudicate(lexicon, &words);
    log(log_path, &words, verdict, lexicon.name())?;
    println!("{}", verdict.text());
    Ok(verdict == Verdict::Acceptable)
}

/// The interactive judge. On a terminal it takes the full screen; otherwise (a pipe) it reads one
/// challenge per line and prints one verdict per line.
pub fn interactive(lexicon: &WordSource, log_path: &Path, clear_after: Duration) -> Result<()> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        let stdin = std::io::stdin();
        for line in stdin.lock().lines() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            match parse_words(&line) {
                Ok(words) => {
                    let v = adjudicate(lexicon, &words);
                    log(log_path, &words, v, lexicon.name())?;
                    println!("{}", v.text());
                }
                Err(e) => println!("ERROR {e}"),
            }
        }
        return Ok(());
    }
    tui::run(lexicon, log_path, clear_after)
}

mod tui {
    use super::*;
    use crossterm::{
        cursor,
        event::{self, Event, KeyCode, KeyEventKind, KeyModifiers},
        execute, queue,
        style::{Color, Print, ResetColor, SetForegroundColor},
        terminal::{self, ClearType},
    };

    struct Screen;
    impl Drop for Screen {
        fn drop(&mut self) {
            let _ = terminal::disable_raw_mode();
            let _ = execute!(
                std::io::stdout(),
                terminal::LeaveAlternateScreen,
                cursor::Show
            );
        }
    }

    fn draw_prompt(lexicon: &str, input: &str, message: &str) -> Result<()> {
        let mut out = std::io::stdout();
        queue!(
            out,
            terminal::Clear(ClearType::All),
            cursor::MoveTo(2, 1),
            Print(format!("tilebag word judge — lexicon: {lexicon}")),
            cursor::MoveTo(2, 3),
            Print("Challenger: type every challenged word, separated by spaces."),
            cursor::MoveTo(2, 4),
            Print("Challenged player: check the words, then press Tab (or Enter) to adjudicate."),
            cursor::MoveTo(2, 5),
            Print("Esc quits."),
            cursor::MoveTo(2, 8),
            Print(format!("Words: {input}")),
            cursor::MoveTo(2, 10),
            SetForegroundColor(Color::Yellow),
            Print(message),
            ResetColor,
            cursor::MoveTo(9 + input.chars().count() as u16, 8),
        )?;
        out.flush()?;
        Ok(())
    }

    fn draw_verdict(v: Verdict) -> Result<()> {
        let mut out = std::io::stdout();
        let (cols, rows) = terminal::size().unwrap_or((80, 24));
        let lines = banner(v);
        let width = lines.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u16;
        let top = rows.saturating_sub(lines.len() as u16) / 2;
        let color = match v {
            Verdict::Acceptable => Color::Green,
            Verdict::NotAcceptable => Color::Red,
        };
        queue!(
            out,
            terminal::Clear(ClearType::All),
            SetForegroundColor(color)
        )?;
        for (i, l) in lines.iter().enumerate() {
            let x = if width < cols { (cols - width) / 2 } else { 0 };
            queue!(out, cursor::MoveTo(x, top + i as u16), Print(l))?;
        }
        queue!(
            out,
            ResetColor,
            cursor::MoveTo(2, rows.saturating_sub(2)),
            Print("Press any key for the next challenge.")
        )?;
        out.flush()?;
        Ok(())
    }

    pub fn run(lexicon: &WordSource, log_path: &Path, clear_after: Duration) -> Result<()> {
        terminal::enable_raw_mode()?;
        let _screen = Screen;
        execute!(std::io::stdout(), terminal::EnterAlternateScreen)?;
        let mut input = String::new();
        let mut message = String::new();
        loop {
            draw_prompt(lexicon.name(), &input, &message)?;
            let Event::Key(key) = event::read()? else {
                continue;
            };
            if key.kind != KeyEventKind::Press {
                continue;
            }
            match key.code {
                KeyCode::Esc => return Ok(()),
                KeyCode::Char('c') | KeyCode::Char('d')
                    if key.modifiers.contains(KeyModifiers::CONTROL) =>
                {
                    return Ok(())
                }
                KeyCode::Tab | KeyCode::Enter => match parse_words(&input) {
                    Ok(words) => {
                        let v = adjudicate(lexicon, &words);
                        log(log_path, &words, v, lexicon.name())?;
                        draw_verdict(v)?;
                        // The verdict stays up for a few seconds or until a key is pressed.
                        if event::poll(clear_after)? {
                            let _ = event::read()?;
                        }
                        input.clear();
                        message.clear();
                    }
                    Err(e) => message = e,
                },
                KeyCode::Backspace => {
                    input.pop();
                }
                KeyCode::Char(c) if c.is_ascii_alphabetic() || c == ' ' || c == ',' => {
                    input.push(c.to_ascii_uppercase());
                    message.clear();
                }
                _ => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_normalised_and_bad_input_is_named() {
        assert_eq!(parse_words(" cat, Dog  ").unwrap(), ["CAT", "DOG"]);
        assert!(parse_words("   ").is_err());
        assert!(parse_words("CAT D0G").unwrap_err().contains("D0G"));
    }

    #[test]
    fn naspa_iv_j_1_one_verdict_never_naming_the_phony() {
        let lex = WordSource::Built {
            path: "t".into(),
            lexicon: tilebag_lexicon::Lexicon::from_word_list(b"CAT\nDOG\n", "t").unwrap(),
        };
        let words = parse_words("CAT DOGZ DOG").unwrap();
        let v = adjudicate(&lex, &words);
        assert_eq!(v, Verdict::NotAcceptable);
        let shown = banner(v).join("\n") + v.text();
        assert!(!shown.contains("DOGZ"));
        assert_eq!(
            adjudicate(&lex, &parse_words("cat dog").unwrap()),
            Verdict::Acceptable
        );
    }

    #[test]
    fn log_lines_have_time_words_verdict_and_lexicon() {
        let path =
            std::env::temp_dir().join(format!("tilebag-judge-test-{}.log", std::process::id()));
        let _ = std::fs::remove_file(&path);
        log(
            &path,
            &["CAT".into(), "DOGZ".into()],
            Verdict::NotAcceptable,
            "mini",
        )
        .unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let fields: Vec<&str> = text.trim_end().split('\t').collect();
        assert_eq!(fields.len(), 4);
        assert!(
            fields[0].ends_with('Z') && fields[0].len() == 20,
            "{}",
            fields[0]
        );
        assert_eq!(&fields[1..], ["CAT DOGZ", "NOT ACCEPTABLE", "mini"]);
        let _ = std::fs::remove_file(&path);
    }
}
