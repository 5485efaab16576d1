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
//! AUPAIR and Woogles write one file for the whole event: the `*M` header once, then the lines
//! from the division's name to its last player for each division (a section each, in the order
//! the divisions were added), and `*** END OF FILE ***` once, at the end ([`write_tou_event`]).
//! A file of one division ([`write_tou`]) is the same with one section.
//!
//! Lines end in CRLF. Every round is a fixed field with a leading space: the result digit (`2`
//! win, `1` draw, space for a loss) and the player's score as `%03d`, then the opponent's number
//! right-aligned in 4 with a `+` before it if the player started: 9 characters a round (10 when
//! the division has more than 99 players, so `+101` still has a space before it). A program that
//! splits the line on white space therefore always reads two tokens a round. The format has no
//! mark for an unknown start, so a game read from a file that does not say who started (NASPA
//! III.D counts only known firsts) is written without `+` on both sides. The result digit
//! sits where a score's thousands would, so a score must be 0–999: any other is refused rather
//! than written into the neighbouring field. Names are written "Given Surname" (a tsh name
//! `Surname, Given[, Suffix]` turned round), and the high-word line right-aligns the score in the
//! column of the first round's score.
//!
//! The file is read by an MS-DOS program, so every field is fixed-width in bytes: names (and the
//! event and division names) are written in ASCII, accented Latin letters folded to their base
//! letter (`Łukasz Jóźwiak` → `Lukasz Jozwiak`), anything else as `?`, then cut or padded to 20.
//!
//! The old RATINGS.EXE cannot represent byes, so a bye is written as a game against oneself:
//! `2001 +X` a winning bye, `1000 X` a zero-spread one, `0000 X` a forfeit loss (Barry Harridge
//! 2007, Edward Okulicz 2013, quoted in tsh). Forfeits are unrated (WESPA 2.3.6(b), NASPA V.K.1),
//! so a forfeit win and loss (and a double forfeit, a loss for both) are written the same way as
//! byes, and so are a withdrawn player's automatic results. A game left in progress (WESPA 5.7(c))
//! was played: it is written with its adjusted scores. Only completed rounds are written.

use crate::error::{Result, TournamentError};
use crate::model::{Division, GameResult, Pairing, Seat, Tournament};

fn tou_date(date: &str) -> Option<String> {
    let mut it = date.split('-');
    let (y, m, d) = (it.next()?, it.next()?, it.next()?);
    if it.next().is_some() || y.len() != 4 || m.len() != 2 || d.len() != 2 {
        return None;
    }
    if ![y, m, d]
        .iter()
        .all(|x| x.bytes().all(|b| b.is_ascii_digit()))
    {
        return None;
    }
    Some(format!("{d}.{m}.{y}"))
}

/// Latin-1 letters U+00C0–U+00FF and Latin Extended-A U+0100–U+017F, each folded to one ASCII
/// character (16 a row).
const LATIN1: &str = "AAAAAAACEEEEIIIIDNOOOOOxOUUUUYTsaaaaaaaceeeeiiiidnooooo/ouuuuyty";
const LATIN_EXT_A: &str = "AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIiJjJjKkkLlLlLlLlLlNnNnNnnNnOoOoOoOoRrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs";

/// `s` in printable ASCII: accented Latin letters folded, control characters as spaces, anything
/// else as `?`.
pub fn ascii_fold(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        let n = c as u32;
        match c {
            ' '..='~' => out.push(c),
            'Æ' => out.push_str("AE"),
            'æ' => out.push_str("ae"),
            'Œ' => out.push_str("OE"),
            'œ' => out.push_str("oe"),
            'ß' => out.push_str("ss"),
            c if c.is_control() || c.is_whitespace() => out.push(' '),
            _ if (0xC0..0x100).contains(&n) => {
                out.push(LATIN1.as_bytes()[(n - 0xC0) as usize] as char)
            }
            _ if (0x100..0x180).contains(&n) => {
                out.push(LATIN_EXT_A.as_bytes()[(n - 0x100) as usize] as char)
            }
            _ => out.push('?'),
        }
    }
    out
}

/// A tsh-style `Surname, Given[, Suffix]` as "Given Surname[ Suffix]"; a name without a comma
/// as it is.
pub fn given_surname(name: &str) -> String {
    let mut parts = name.split(',').map(str::trim).filter(|x| !x.is_empty());
    let Some(surname) = parts.next() else {
        return name.trim().to_string();
    };
    let rest: Vec<&str> = parts.collect();
    match rest.split_first() {
        None => surname.to_string(),
        Some((given, suffix)) => {
            let mut out = format!("{given} {surname}");
            for x in suffix {
                out.push(' ');
                out.push_str(x);
            }
            out
        }
    }
}

/// Writes one division as a `.TOU` file.
pub fn write_tou(t: &Tournament, division: &str) -> Result<String> {
    write_tou_divisions(t, &[division])
}

/// Writes the whole event as one `.TOU` file: a section per division, in the event's order.
pub fn write_tou_event(t: &Tournament) -> Result<String> {
    let names: Vec<&str> = t.divisions.iter().map(|d| d.name.as_str()).collect();
    write_tou_divisions(t, &names)
}

/// Writes the named divisions as one `.TOU` file, a section each, in the order given.
pub fn write_tou_divisions(t: &Tournament, divisions: &[&str]) -> Result<String> {
    let date = tou_header_date(t)?;
    if divisions.is_empty() {
        return Err(TournamentError::BadEvent {
            name: t.name.clone(),
            reason: "no division to write to a .TOU file; add one first".into(),
        });
    }
    let mut out = format!("*M{} {}\r\n", date, ascii_fold(&t.name));
    for name in divisions {
        section(&mut out, t.division(name)?)?;
    }
    out.push_str("*** END OF FILE ***\r\n");
    Ok(out)
}

/// The event's first day as a `.TOU` header writes it (`dd.mm.yyyy`); refused, saying how to set
/// it, when the event has no date or one that is not `YYYY-MM-DD`.
fn tou_header_date(t: &Tournament) -> Result<String> {
    let how = "set it with `tilebag td event EVENT --date YYYY-MM-DD` or the name and date form \
               on the event's page";
    match t.date.as_deref() {
        Some(d) => tou_date(d).ok_or_else(|| TournamentError::BadEvent {
            name: t.name.clone(),
            reason: format!("the date {d:?} is not YYYY-MM-DD, which a .TOU header needs; {how}"),
        }),
        None => Err(TournamentError::BadEvent {
            name: t.name.clone(),
            reason: format!("the event has no date, which a .TOU header needs; {how}"),
        }),
    }
}

/// One division's section: the division's name, the high word line and a line per player.
fn section(out: &mut String, div: &Division) -> Result<()> {
    let mut line = |s: &str| {
        out.push_str(s);
        out.push_str("\r\n");
    };
    line(&format!("*{}", ascii_fold(&div.name)));
    // The high word score sits in the column of the first round's score: 20 for the name, 1
    // space, the result digit and 3 digits. None is recorded: 0.
    line(&format!("{:>25}", 0));
    if div.players.len() > 999 {
        return Err(TournamentError::BadSetting {
            division: div.name.clone(),
            reason: format!(
                "{} players: a .TOU opponent field holds at most 999",
                div.players.len()
            ),
        });
    }
    let width = if div.players.len() > 99 { 5 } else { 4 };
    let complete = (1..=div.rounds.len() as u32)
        .take_while(|&r| div.round_complete(r))
        .count();
    for p in &div.players {
        let mut s = format!("{:<20.20}", ascii_fold(&given_surname(&p.name)));
        for r in div.rounds.iter().take(complete) {
            s.push_str(&block(div, r.number, p.id, width)?);
        }
        line(s.trim_end());
    }
    Ok(())
}

fn block(div: &Division, round: u32, p: u32, width: usize) -> Result<String> {
    let selfgame = |spread: i32| {
        let (code, plus) = match spread.signum() {
            1 => ("2001", "+"),
            0 => ("1000", ""),
            _ => ("0000", ""),
        };
        format!(" {code}{:>width$}", format!("{plus}{p}"))
    };
    let Some(pr) = div.player_round(round, p) else {
        return Ok(selfgame(0));
    };
    Ok(match pr.pairing {
        Pairing::Game(g) => match &g.result {
            Some(res @ GameResult::Played { .. }) => {
                let o = res.outcome_for(g, p);
                let (own, _) = o.scores.unwrap_or((0, 0));
                if !(0..=999).contains(&own) {
                    return Err(TournamentError::BadSetting {
                        division: div.name.clone(),
                        reason: format!(
                            "round {round}: {}'s score {own} cannot be written to a .TOU file, whose score field holds 0–999; correct the score first",
                            div.who(p)
                        ),
                    });
                }
                let digit = match o.wins2 {
                    2 => '2',
                    1 => '1',
                    _ => ' ',
                };
                // The format has a mark for "started" and none for "not known": a game read
                // from a file that does not say who started (NASPA III.D counts only known
                // firsts) is written in the not-started form for both players, never as a
                // start invented from the order of the players.
                let plus = if pr.seat == Some(Seat::First) {
                    "+"
                } else {
                    ""
                };
                let opp = pr.opponent.unwrap_or(p);
                format!(" {digit}{own:03}{:>width$}", format!("{plus}{opp}"))
            }
            // Forfeits, double forfeits and void games (WESPA 6.2.4(a)(i)) are unrated: games
            // against oneself, as byes are.
            Some(res) => selfgame(res.outcome_for(g, p).spread),
            None => selfgame(0),
        },
        Pairing::Bye { spread, .. } | Pairing::Absent { spread, .. } => selfgame(*spread),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fold_tables_cover_their_blocks() {
        assert_eq!(LATIN1.len(), 0x40);
        assert_eq!(LATIN_EXT_A.len(), 0x80);
        assert_eq!(ascii_fold("Łukasz Jóźwiak"), "Lukasz Jozwiak");
        assert_eq!(ascii_fold("Çağrı Şahin"), "Cagri Sahin");
        assert_eq!(ascii_fold("Ægir Straße Œuvre ÿ"), "AEgir Strasse OEuvre y");
        assert_eq!(ascii_fold("Ÿ ž ő ñ Ø"), "Y z o n O");
        assert_eq!(ascii_fold("Tab\there 名"), "Tab here ?");
    }

    #[test]
    fn names_are_given_then_surname() {
        assert_eq!(given_surname("Chew, John, III"), "John Chew III");
        assert_eq!(given_surname("Smith, Ann"), "Ann Smith");
        assert_eq!(given_surname("Winter"), "Winter");
        assert_eq!(given_surname("Van Dyke, Dick"), "Dick Van Dyke");
    }

    #[test]
    fn dates_must_be_numeric() {
        assert_eq!(tou_date("2024-05-04").as_deref(), Some("04.05.2024"));
        assert_eq!(tou_date("2024-5-04"), None);
        assert_eq!(tou_date("yyyy-mm-dd"), None);
        assert_eq!(tou_date("2024-05-04-01"), None);
    }
}
