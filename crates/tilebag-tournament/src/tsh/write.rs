//! Writing a division as a `.t` file: each player's line is built as columns, one value a round
//! ([`LineColumns`], from each round's [`RoundCells`]), then written as the name, rating and
//! opponents, the scores, tsh's own fields, our `tb…` fields and the fields kept from an import.

use super::{is_int, reason_token, TshError};
use crate::model::{
    Division, FirstReason, Game, GameResult, Pairing, Player, PlayerId, Round, Seat,
    WithdrawnResult,
};

/// Writes a division as a `.t` file.
///
/// A `.t` line lists a player's scores in round order with no way to skip one, so a game with no
/// result followed by a later result cannot be written: the export is refused, naming every such
/// game, rather than dropping the later results. Unentered games at the end of a line are fine
/// (the scores list stops there).
pub fn write_t(div: &Division) -> Result<String, TshError> {
    let seats = div.firsts_by_round();
    let mut out = String::new();
    let mut missing: Vec<String> = Vec::new();
    for p in &div.players {
        if let Some(reason) = unwritable(&p.name, p.member_id.as_deref()) {
            return Err(TshError::AmbiguousName {
                division: div.name.clone(),
                player: p.id,
                name: p.name.clone(),
                reason,
            });
        }
        let columns = LineColumns::of(div, &seats, p, &mut missing)?;
        let mut line = name_rating_and_opponents(p, &columns.opponents);
        push_scores(&mut line, &columns.scores);
        push_tsh_fields(&mut line, div, p, &columns.p12);
        push_tb_fields(&mut line, div, p, &columns);
        push_kept_fields(&mut line, p);
        // Comment and blank lines an imported file had, in their places.
        for l in &p.tsh_lines_before {
            out.push_str(l);
            out.push('\n');
        }
        out.push_str(line.trim_end());
        out.push('\n');
        for l in &p.tsh_lines_after {
            out.push_str(l);
            out.push('\n');
        }
    }
    if !missing.is_empty() {
        return Err(TshError::Missing {
            division: div.name.clone(),
            games: missing,
        });
    }
    Ok(out)
}

/// One round of a player's `.t` line, before it is written.
struct RoundCells {
    opponent: PlayerId,
    score: Option<i32>,
    /// The `p12` code when the round's seat comes from a file rather than from tilebag.
    code: Option<u8>,
    /// `tbforfeit`: + the opponent beaten by forfeit, - the one forfeited to, 0 none.
    forfeit: i64,
    left: bool,
    absent: bool,
    /// No entry at all in this round.
    unpaired: bool,
    /// Why the round has no score yet, naming the game (or bye).
    unscored: Option<String>,
}

impl RoundCells {
    /// Round `r` (the `ri`th) of player `p`'s line.
    fn of(div: &Division, p: &Player, ri: usize, r: &Round) -> Result<RoundCells, TshError> {
        let mut cells = RoundCells {
            opponent: 0,
            score: None,
            code: None,
            forfeit: 0,
            left: false,
            absent: false,
            unpaired: false,
            unscored: None,
        };
        // The p12 code as read from a file, where tilebag has no seat of its own.
        let kept = p.tsh_p12.get(ri).copied();
        match r.pairings.iter().find(|x| x.involves(p.id)) {
            // No entry: as tsh pads a late entry (tbunpaired says it is none).
            None => {
                cells.unpaired = true;
                cells.score = Some(0);
            }
            Some(Pairing::Bye {
                spread, pending, ..
            }) => {
                if *pending {
                    cells.unscored = Some(format!(
                        "round {}: {}'s bye has no score",
                        r.number,
                        div.who(p.id)
                    ));
                } else {
                    cells.score = Some(*spread);
                }
            }
            Some(Pairing::Absent { spread, .. }) => {
                // An automatic result in a round the withdrawal no longer covers (reinstated).
                let withdrawn = p.withdrawn_from.is_some_and(|w| r.number >= w);
                cells.absent = !withdrawn;
                cells.code = kept;
                cells.score = Some(*spread);
            }
            Some(Pairing::Game(g)) => {
                if let FirstReason::Unknown { code: c } = g.first_by {
                    cells.code = Some(kept.unwrap_or(c));
                }
                cells.game(div, p.id, r.number, g)?;
                // A score the imported line had for this game alone: written back while the
                // game has no result.
                if g.result.is_none() {
                    if let Some(&(_, score)) =
                        p.tsh_one_sided.iter().find(|(round, _)| *round == r.number)
                    {
                        cells.score = Some(score);
                        cells.unscored = None;
                    }
                }
            }
        }
        Ok(cells)
    }

    /// The cells of a game's round, by its result.
    fn game(&mut self, div: &Division, me: PlayerId, round: u32, g: &Game) -> Result<(), TshError> {
        let opp = g.opponent_of(me).unwrap_or(0);
        match &g.result {
            None => {
                self.unscored = Some(format!(
                    "round {round}: {} v {} has no result",
                    div.who(g.first),
                    div.who(g.second)
                ));
                self.opponent = opp;
            }
            Some(GameResult::Void) => {
                return Err(TshError::Archive {
                    what: format!("division {:?}, round {round}", div.name),
                    reason: format!(
                        "the game of #{} and #{} is void (WESPA 6.2.4(a)(i)); a .t file has no void game",
                        g.first, g.second
                    ),
                })
            }
            Some(res @ GameResult::Played { left_by, .. }) => {
                self.left = *left_by == Some(me);
                self.opponent = opp;
                self.score = res.outcome_for(g, me).scores.map(|s| s.0);
            }
            // tsh's convention: a forfeit is a row without an opponent, the spread as the score;
            // `tbforfeit` keeps the opponent.
            Some(res) => {
                let won = matches!(res, GameResult::Forfeit { loser, .. } if *loser != me);
                self.forfeit = if won { opp as i64 } else { -(opp as i64) };
                self.score = Some(res.outcome_for(g, me).spread);
            }
        }
        Ok(())
    }
}

/// A player's `.t` line as columns, one value a round.
#[derive(Default)]
struct LineColumns {
    opponents: Vec<String>,
    scores: Vec<Option<i32>>,
    p12: Vec<u8>,
    forfeits: Vec<i64>,
    left: Vec<bool>,
    absent: Vec<bool>,
    unpaired: Vec<bool>,
}

impl LineColumns {
    /// Player `p`'s columns; every game before a later result that has none is added to
    /// `missing` (a gap a `.t` file cannot hold).
    fn of(
        div: &Division,
        seats: &[Vec<Option<Seat>>],
        p: &Player,
        missing: &mut Vec<String>,
    ) -> Result<LineColumns, TshError> {
        let mut columns = LineColumns::default();
        let mut unscored: Vec<String> = Vec::new();
        for (ri, r) in div.rounds.iter().enumerate() {
            let cells = RoundCells::of(div, p, ri, r)?;
            unscored.extend(cells.unscored);
            if cells.score.is_some() && !cells.unpaired {
                // Every unscored entry before a scored one is a gap a .t file cannot hold.
                for u in unscored.drain(..) {
                    if !missing.contains(&u) {
                        missing.push(u);
                    }
                }
            }
            columns.opponents.push(cells.opponent.to_string());
            columns.scores.push(cells.score);
            columns.p12.push(cells.code.unwrap_or(
                match seats[ri].get(p.id as usize - 1).copied().flatten() {
                    Some(Seat::First) => 1,
                    Some(Seat::Second) => 2,
                    None => 0,
                },
            ));
            columns.forfeits.push(cells.forfeit);
            columns.left.push(cells.left);
            columns.absent.push(cells.absent);
            columns.unpaired.push(cells.unpaired);
        }
        // Rounds after the player's last entry are left off the line (a late round still being
        // paired, or a player added after the last round): no opponent, no score, no field.
        let entered = columns
            .unpaired
            .iter()
            .rposition(|&u| !u)
            .map_or(0, |i| i + 1);
        columns.opponents.truncate(entered);
        columns.scores.truncate(entered);
        columns.p12.truncate(entered);
        columns.forfeits.truncate(entered);
        columns.left.truncate(entered);
        columns.absent.truncate(entered);
        columns.unpaired.truncate(entered);
        Ok(columns)
    }
}

/// The start of a line: `Name[:MEMBERID] RATING OPP1 OPP2 …`.
fn name_rating_and_opponents(p: &Player, opponents: &[String]) -> String {
    let mut line = p.name.clone();
    if let Some(id) = &p.member_id {
        line.push(':');
        line.push_str(id);
    }
    line.push(' ');
    line.push_str(&p.rating.to_string());
    for o in opponents {
        line.push(' ');
        line.push_str(o);
    }
    line
}

/// `; SCORE1 SCORE2 …`, up to the first round without a score.
fn push_scores(line: &mut String, scores: &[Option<i32>]) {
    line.push_str("; ");
    let written: Vec<String> = scores
        .iter()
        .map_while(|s| s.map(|s| s.to_string()))
        .collect();
    line.push_str(&written.join(" "));
}

/// tsh's own fields: `p12` (firsts), `off` (a withdrawn player's spread), `lifeg` (career games).
fn push_tsh_fields(line: &mut String, div: &Division, p: &Player, p12: &[u8]) {
    // A line that came without p12 and says nothing known goes out without it too.
    if !p12.is_empty() && (!p.tsh_p12.is_empty() || p12.iter().any(|&c| c == 1 || c == 2 || c == 3))
    {
        let vals: Vec<String> = p12.iter().map(|c| c.to_string()).collect();
        push_field(line, "p12", &vals);
    }
    if p.withdrawn_from.is_some() {
        let off = match div.config.withdrawn_result {
            WithdrawnResult::ForfeitLoss => -div.config.forfeit_spread,
            WithdrawnResult::Void => 0,
        };
        push_field(line, "off", &[off.to_string()]);
    }
    if let Some(g) = p.career_games {
        push_field(line, "lifeg", &[g.to_string()]);
    }
}

/// Our `tb…` fields (see the module documentation), each only on the lines it concerns.
fn push_tb_fields(line: &mut String, div: &Division, p: &Player, columns: &LineColumns) {
    if let Some(from) = p.withdrawn_from {
        push_field(line, "tbwithdrawn", &[from.to_string()]);
    }
    let flags = |v: &[bool]| -> Vec<String> {
        v.iter()
            .map(|&x| if x { "1" } else { "0" }.into())
            .collect()
    };
    if columns.absent.contains(&true) {
        push_field(line, "tbabsent", &flags(&columns.absent));
    }
    if columns.unpaired.contains(&true) {
        push_field(line, "tbunpaired", &flags(&columns.unpaired));
    }
    if p.ejected {
        push_field(line, "tbejected", &["1".to_string()]);
    }
    if columns.forfeits.iter().any(|&f| f != 0) {
        let vals: Vec<String> = columns
            .forfeits
            .iter()
            .map(|&f| match f {
                0 => "0".to_string(),
                f if f > 0 => format!("+{f}"),
                f => f.to_string(),
            })
            .collect();
        push_field(line, "tbforfeit", &vals);
    }
    if columns.left.contains(&true) {
        push_field(line, "tbleft", &flags(&columns.left));
    }
    let adjust: Vec<String> = div
        .adjustments
        .iter()
        .filter(|a| a.player == p.id)
        .flat_map(|a| {
            [
                a.round.to_string(),
                a.amount.to_string(),
                reason_token(&a.reason),
            ]
        })
        .collect();
    if !adjust.is_empty() {
        push_field(line, "tbadjust", &adjust);
    }
}

/// The fields an imported line had that tilebag does not read, as they came.
fn push_kept_fields(line: &mut String, p: &Player) {
    for f in &p.tsh_fields {
        // A kept field as tsh writes it, whether or not it was given with its `;`.
        let f = f.trim().trim_start_matches(';').trim();
        if !f.is_empty() {
            line.push_str("; ");
            line.push_str(f);
        }
    }
}

/// Why a name or member id cannot be written to a `.t` line so that it reads back the same.
fn unwritable(name: &str, member_id: Option<&str>) -> Option<String> {
    if name.split_whitespace().last().is_some_and(is_int) {
        return Some("the name ends in a number (it would read as the rating)".into());
    }
    if let Some(c) = name
        .chars()
        .find(|c| matches!(c, ';' | ':') || c.is_control())
    {
        return Some(format!("the name contains {c:?}"));
    }
    if name.starts_with('#') {
        return Some("the name starts with '#' (a comment line)".into());
    }
    if let Some(id) = member_id {
        if id.is_empty()
            || id
                .chars()
                .any(|c| c.is_whitespace() || matches!(c, ';' | ':'))
        {
            return Some(format!(
                "the member id {id:?} is empty or contains a space, ';' or ':'"
            ));
        }
    }
    None
}

fn push_field(line: &mut String, key: &str, vals: &[String]) {
    line.push_str("; ");
    line.push_str(key);
    for v in vals {
        line.push(' ');
        line.push_str(v);
    }
}
