//! What the `tilebag td` handlers share: the event-and-division arguments, appending an action,
//! the date check, the `.TOU` file and the one-line description of a game. The handlers import
//! from here; this file imports none of them.

use anyhow::{bail, Result};
use clap::Args;
use std::path::{Path, PathBuf};
use tilebag_events::EventFile;
use tilebag_tournament::tables::result_text;
use tilebag_tournament::{tou, Action, Division, Pairing, PlayerId, Tournament};

/// The event file and the division, shared by most commands.
#[derive(Args, Clone)]
pub struct At {
    /// The event's SQLite file (e.g. `tournament.db`).
    pub event: PathBuf,
    /// The division's name.
    pub division: String,
}

// The arguments of the commands that name only the event file (`td undo`, `td log`, `td state`).
#[derive(Args)]
pub struct EventArg {
    pub event: PathBuf,
}

/// Appends one action to the event's log and returns the new state; an action that does not
/// apply is refused and nothing is written.
pub fn append(event: &Path, action: Action) -> Result<Tournament> {
    EventFile::open(event)?.append(|_| Ok(vec![action]))
}

/// Whether `d` has the form YYYY-MM-DD.
fn is_date(d: &str) -> bool {
    d.len() == 10
        && d.bytes().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                b == b'-'
            } else {
                b.is_ascii_digit()
            }
        })
}

/// Refuses a date that is not YYYY-MM-DD (`td new --date`, `td event --date`, `td import
/// --date`).
pub fn check_date(d: &str) -> Result<()> {
    if !is_date(d) {
        bail!("the date must be YYYY-MM-DD, not {d:?}");
    }
    Ok(())
}

/// The `.TOU` file of the named divisions, a section each (`td export --tou`, `td submit`). An
/// event without a date is refused with the command that sets it.
pub fn tou_file(event: &Path, t: &Tournament, divisions: &[&str]) -> Result<String> {
    let set = format!("tilebag td event {} --date YYYY-MM-DD", event.display());
    match t.date.as_deref() {
        None => bail!("the event has no date, which a .TOU file's header needs; set it with `{set}`"),
        Some(d) if !is_date(d) => bail!(
            "the event's date {d:?} is not YYYY-MM-DD, which a .TOU file's header needs; set it with `{set}`"
        ),
        Some(_) => {}
    }
    Ok(tou::write_tou_divisions(t, divisions)?)
}

/// `round 3, board 2: #1 (A) 400 – #4 (B) 300`.
pub fn game_line(d: &Division, round: u32, player: PlayerId) -> String {
    let Some(pr) = d.player_round(round, player) else {
        return format!("round {round}: {} has no entry", d.who(player));
    };
    match pr.pairing {
        Pairing::Game(g) => format!(
            "round {round}, board {}: {} v {}: {}",
            g.board,
            d.who(g.first),
            d.who(g.second),
            result_text(d, g.result.as_ref(), g.slip.is_some())
        ),
        Pairing::Bye { pending: true, .. } => {
            format!("round {round}: {} bye, no score yet", d.who(player))
        }
        Pairing::Bye {
            spread,
            forfeit: true,
            ..
        } => format!("round {round}: {} forfeit loss {spread:+}", d.who(player)),
        Pairing::Bye { spread, .. } => format!("round {round}: {} bye {spread:+}", d.who(player)),
        Pairing::Absent { spread, .. } => {
            format!("round {round}: {} withdrawn {spread:+}", d.who(player))
        }
    }
}
