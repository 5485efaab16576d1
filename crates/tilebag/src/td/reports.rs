//! The director's tables and files: `td show` (print a view of a division) and `td export`
//! (tsh `.t`, `.tsh` archive, AUPAIR `.TOU`, or a view as CSV or printable HTML).

use super::common::{tou_file, At};
use anyhow::{bail, Context, Result};
use clap::{Args, ValueEnum};
use std::path::PathBuf;
use tilebag_events::EventFile;
use tilebag_tournament::tables::{
    firsts_table, pairings_table, players_table, ratings_table, standings_table,
};
use tilebag_tournament::{prizes, report, tsh, Division, Tournament};

// The arguments of `td show`.
#[derive(Args)]
pub struct ShowArgs {
    #[command(flatten)]
    at: At,
    view: View,
    /// The round (pairings) or the round standings are after (default: the last paired).
    #[arg(long)]
    round: Option<u32>,
    #[arg(long, conflicts_with = "html")]
    csv: bool,
    #[arg(long)]
    html: bool,
}

// The arguments of `td export`.
#[derive(Args)]
pub struct ExportArgs {
    /// The event's SQLite file.
    event: PathBuf,
    /// The division (not needed with --archive; without it --tou writes the whole event).
    division: Option<String>,
    /// pairings | standings | firsts | ratings | players | scorecards | slips (--csv/--html).
    what: Option<View>,
    /// The division as a tsh `.t` file.
    #[arg(long, group = "format")]
    tsh: bool,
    /// The whole event as a `.tsh` archive (every division).
    #[arg(long, group = "format")]
    archive: bool,
    /// An AUPAIR `.TOU` file (CRLF lines) for WESPA ratings: the division, or the whole event
    /// (a section per division).
    #[arg(long, group = "format")]
    tou: bool,
    /// WHAT as CSV.
    #[arg(long, group = "format")]
    csv: bool,
    /// WHAT as a printable HTML page.
    #[arg(long, group = "format")]
    html: bool,
    /// The round (pairings, slips) or the round standings are after (default: the last paired).
    #[arg(long)]
    round: Option<u32>,
    /// Output file (default: standard output).
    #[arg(short, long)]
    output: Option<PathBuf>,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum View {
    Pairings,
    Standings,
    Firsts,
    Ratings,
    Players,
    Scorecards,
    Slips,
    /// The prize table: places (`prize-bands`), class prizes (`class-prizes`), high game, high
    /// loss, biggest upset.
    Prizes,
    /// The round's pairings by player name (one line a player).
    Alpha,
    /// The 20 highest winning scores.
    HighWins,
    /// The 20 highest losing scores.
    HighLosses,
    /// The 20 biggest upsets by pre-event rating.
    Upsets,
    /// Each player's rating estimate after every round.
    RatingByRound,
    /// tsh's wall chart: a row a player, a column a round (seat, opponent, result, spread).
    Wallchart,
    /// tsh's roster: the players by number, with rating and class.
    Roster,
    /// Each player's performance rating after every round (what rating their results so far
    /// would produce).
    Performance,
}

pub fn show(args: ShowArgs) -> Result<()> {
    let ShowArgs {
        at,
        view,
        round,
        csv,
        html,
    } = args;
    let t = EventFile::open_read(&at.event)?.load()?;
    let d = t.division(&at.division)?;
    let fmt = if csv {
        Out::Csv
    } else if html {
        Out::Html
    } else {
        Out::Text
    };
    print!("{}", render(&t, d, view, round, fmt)?);
    Ok(())
}

pub fn export(args: ExportArgs) -> Result<()> {
    let ExportArgs {
        event,
        division,
        what,
        tsh,
        archive,
        tou,
        csv,
        html,
        round,
        output,
    } = args;
    let t = EventFile::open_read(&event)?.load()?;
    let need_div = || -> Result<&Division> {
        let name = division.as_deref().context("name the division to export")?;
        Ok(t.division(name)?)
    };
    let text = if archive {
        tsh::write_tsh_archive(&t)?
    } else if tsh {
        tsh::write_t(need_div()?)?
    } else if tou {
        // Without a division: the whole event, a section per division (as AUPAIR writes it).
        let names: Vec<&str> = match &division {
            Some(_) => vec![need_div()?.name.as_str()],
            None => t.divisions.iter().map(|d| d.name.as_str()).collect(),
        };
        tou_file(&event, &t, &names)?
    } else if csv || html {
        let what = what.context(
            "say what to export: pairings, standings, firsts, ratings, players, scorecards or slips",
        )?;
        render(
            &t,
            need_div()?,
            what,
            round,
            if csv { Out::Csv } else { Out::Html },
        )?
    } else {
        bail!("choose a format: --tsh, --archive, --tou, --csv or --html");
    };
    match output {
        Some(path) => {
            std::fs::write(&path, text)
                .with_context(|| format!("cannot write {}", path.display()))?;
            println!("wrote {}", path.display());
        }
        None => print!("{text}"),
    }
    Ok(())
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Out {
    Text,
    Csv,
    Html,
}

fn render(
    t: &Tournament,
    d: &Division,
    view: View,
    round: Option<u32>,
    fmt: Out,
) -> Result<String> {
    let last = d.rounds.len() as u32;
    let through = round.unwrap_or(last);
    let paired_round = || -> Result<u32> {
        let r = round.unwrap_or(last);
        if r == 0 {
            bail!("division {}: no round has been paired yet", d.name);
        }
        if d.round(r).is_none() {
            bail!("division {}: round {r} has not been paired", d.name);
        }
        Ok(r)
    };
    let (table, title) = match view {
        View::Pairings => {
            let r = paired_round()?;
            if fmt == Out::Html {
                return Ok(report::pairings_html(t, d, r));
            }
            (pairings_table(d, r), format!("Round {r} pairings"))
        }
        View::Standings => match fmt {
            Out::Csv => return Ok(report::standings_csv(d, through)),
            Out::Html => return Ok(report::standings_html(t, d, through)),
            Out::Text => (
                standings_table(d, through),
                format!("Standings after round {through}"),
            ),
        },
        View::Firsts => (
            firsts_table(d, through),
            format!("Firsts and seconds through round {through}"),
        ),
        View::Ratings => (
            ratings_table(d, through),
            format!("Rating estimates after round {through}"),
        ),
        View::Players => (players_table(d), "Players".to_string()),
        View::Prizes => (
            prizes::prize_table(d, through),
            format!("Prizes after round {through}"),
        ),
        View::Alpha => {
            let r = paired_round()?;
            (
                prizes::alpha_pairings_table(d, r),
                format!("Round {r} pairings by player"),
            )
        }
        View::HighWins => (
            prizes::high_wins_table(d, through, 20),
            format!("High wins through round {through}"),
        ),
        View::HighLosses => (
            prizes::high_losses_table(d, through, 20),
            format!("High losses through round {through}"),
        ),
        View::Upsets => (
            prizes::upsets_table(d, through, 20),
            format!("Upsets through round {through}"),
        ),
        View::RatingByRound => (
            prizes::rating_by_round_table(d, through),
            format!("Rating estimates after each round through round {through}"),
        ),
        View::Wallchart => (
            prizes::wallchart_table(d, through),
            format!("Wall chart through round {through}"),
        ),
        View::Roster => (prizes::roster_table(d), "Roster".to_string()),
        View::Performance => (
            prizes::performance_by_round_table(d, through),
            format!("Performance ratings after each round through round {through}"),
        ),
        View::Scorecards => {
            if fmt != Out::Html {
                bail!("scorecards are printed as --html");
            }
            return Ok(report::scorecards_html(t, d));
        }
        View::Slips => {
            let r = paired_round()?;
            if fmt != Out::Html {
                bail!("tally slips are printed as --html");
            }
            return Ok(report::tally_slips_html(t, d, r));
        }
    };
    Ok(match fmt {
        Out::Text => table.text(),
        Out::Csv => table.csv(),
        Out::Html => table.html(t, d, &title),
    })
}
