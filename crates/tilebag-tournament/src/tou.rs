//! AUPAIR `.TOU` export: the file WESPA's ratings officer takes as input.
//!
//! Layout (tsh `AUPAIR` module, Woogles `exportToTOU`; research notes §2):
//!
//! ```text
//! *M<dd.mm.yyyy> <event>            header
//! *<division>                       division name
//! <high word>                       the high word score; 0 when none was recorded
//! <name padded to 20><block>…       one line per player, one block per round
//! *** END OF FILE ***
//! ```
//!
//! Lines end in CRLF. A block is the result digit (`2` win, `1` draw, space for a loss), the
//! player's score as `%03d`, then the opponent's number right-aligned with a `+` before it if the
//! player started: 8 characters a block, 9 when the division has more than 99 players.
//!
//! The old RATINGS.EXE cannot represent byes, so a bye is written as a game against oneself:
//! `2001 +X` a winning bye, `1000 X` a zero-spread one, `0000 X` a forfeit loss (Barry Harridge
//! 2007, Edward Okulicz 2013, quoted in tsh). Forfeits are unrated (WESPA 2.3.6(b)), so a forfeit
//! win and loss are written the same way as byes, and so are a withdrawn player's automatic
//! results. Only completed rounds are written.

use crate::error::{Result, TournamentError};
use crate::model::{Division, GameResult, Pairing, Seat, Tournament};

fn tou_date(date: &str) -> Option<String> {
    let mut it = date.split('-');
    let (y, m, d) = (it.next()?, it.next()?, it.next()?);
    if y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    Some(format!("{d}.{m}.{y}"))
}

/// Writes one division as a `.TOU` file.
pub fn write_tou(t: &Tournament, division: &str) -> Result<String> {
    let div = t.division(division)?;
    let date = t
        .date
        .as_deref()
        .and_then(tou_date)
        .ok_or_else(|| TournamentError::BadSetting {
            division: division.into(),
            reason: "the tournament needs a date (YYYY-MM-DD) for a .TOU header".into(),
        })?;
    let mut out = String::new();
    let mut line = |s: &str| {
        out.push_str(s);
        out.push_str("\r\n");
    };
    line(&format!("*M{} {}", date, t.name));
    line(&format!("*{}", div.name));
    line("0");
    let width = if div.players.len() > 99 { 5 } else { 4 };
    let complete = (1..=div.rounds.len() as u32)
        .take_while(|&r| div.round_complete(r))
        .count();
    for p in &div.players {
        let mut s = format!("{:<20.20}", p.name);
        for r in div.rounds.iter().take(complete) {
            s.push_str(&block(div, r.number, p.id, width));
        }
        line(s.trim_end());
    }
    line("*** END OF FILE ***");
    Ok(out)
}

fn block(div: &Division, round: u32, p: u32, width: usize) -> String {
    let selfgame = |spread: i32| {
        let (code, plus) = match spread.signum() {
            1 => ("2001", "+"),
            0 => ("1000", ""),
            _ => ("0000", ""),
        };
        format!("{code}{:>width$}", format!("{plus}{p}"))
    };
    let Some(pr) = div.player_round(round, p) else {
        return selfgame(0);
    };
    match pr.pairing {
        Pairing::Game(g) => match &g.result {
            Some(res @ GameResult::Played { .. }) => {
                let o = res.outcome_for(g, p);
                let (own, _) = o.scores.unwrap_or((0, 0));
                let digit = match o.wins2 {
                    2 => '2',
                    1 => '1',
                    _ => ' ',
                };
                let plus = if pr.seat == Some(Seat::First) {
                    "+"
                } else {
                    ""
                };
                let opp = pr.opponent.unwrap_or(p);
                format!("{digit}{own:03}{:>width$}", format!("{plus}{opp}"))
            }
            Some(res) => selfgame(res.outcome_for(g, p).spread),
            None => selfgame(0),
        },
        Pairing::Bye { spread, .. } | Pairing::Absent { spread, .. } => selfgame(*spread),
    }
}
