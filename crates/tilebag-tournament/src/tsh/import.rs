//! The actions that rebuild a division from a `.t` file's lines.

use tilebag_core::ruleset::Ruleset;

use super::{parse_t, ForfeitMark, TshError, TshPlayer};
use crate::action::{Action, ResultEntry};
use crate::model::{DivisionConfig, FirstReason, Game, Pairing, PlayerId, Seat};
use crate::schedule::Method;

/// The entry that, under a resignation margin of `margin`, gives a player who left the game in
/// progress the final scores (`own`, `opp`) (NASPA V.K.2: ahead or level, the opponent's score
/// becomes the leaver's plus the margin; behind, the margin comes off the leaver's score).
fn left_entry(own: i32, opp: i32, margin: i32) -> Option<ResultEntry> {
    let (score, opponent_score) = match (opp - own).cmp(&margin) {
        std::cmp::Ordering::Equal => (own, own),
        std::cmp::Ordering::Greater => (own + margin, opp),
        std::cmp::Ordering::Less => return None,
    };
    Some(ResultEntry::LeftInProgress {
        score,
        opponent_score,
    })
}

/// The actions that rebuild a `.t` file as division `division` (the tournament must already
/// exist): the division, its players, each round's pairings and results, withdrawals and spread
/// adjustments. [`import_division`] gives the same actions with what the director should be
/// told about the file.
pub fn division_actions(
    text: &str,
    division: &str,
    preset: &str,
    schedule: &str,
    seed: u64,
) -> Result<Vec<Action>, TshError> {
    Ok(import_division(text, division, preset, schedule, seed)?.actions)
}

/// A `.t` file read as a division: the actions that rebuild it, and warnings for the director.
#[derive(Debug, Clone, PartialEq)]
pub struct DivisionImport {
    pub actions: Vec<Action>,
    /// What the file has that is not a result although it looks like one: a score entered for
    /// one side of a game only (kept for the file, but the game has no result), one line each,
    /// starting with the line number.
    pub warnings: Vec<String>,
}

/// Reads a `.t` file as division `division` (see [`division_actions`]), warning about each
/// score entered for one side of a game only: tsh's line for the opponent stops before it, so
/// the game has no result; the score is kept and written back to the file while the game has
/// none.
pub fn import_division(
    text: &str,
    division: &str,
    preset: &str,
    schedule: &str,
    seed: u64,
) -> Result<DivisionImport, TshError> {
    let players = parse_t(text)?;
    if players.is_empty() {
        return Err(TshError::Archive {
            what: format!("division {division}"),
            reason: "the file has no player lines".into(),
        });
    }
    let import = Import::new(division, preset, &players);
    let mut out = vec![Action::AddDivision {
        division: division.into(),
        preset: preset.into(),
        schedule: schedule.into(),
        seed,
    }];
    import.add_players(&mut out);
    // Each withdrawal (or ejection) goes into the log before the first round it can precede: the
    // round it starts from or, when the player has games in later rounds (paired before the
    // withdrawal, with their results in the file), the round after the last of them. So a round
    // the file gives the player no entry in stays without one, as it was when posted.
    let leave_at: Vec<Option<u32>> = (0..players.len()).map(|i| import.leave_at(i)).collect();
    for r in 0..import.rounds {
        let round = r as u32 + 1;
        for (i, at) in leave_at.iter().enumerate() {
            if *at == Some(round) {
                out.extend(import.leave(i));
            }
        }
        import.round(r, &mut out)?;
    }
    for (i, at) in leave_at.iter().enumerate() {
        if at.is_some_and(|at| at as usize > import.rounds) {
            out.extend(import.leave(i));
        }
    }
    for p in &players {
        for a in &p.adjustments {
            out.push(Action::AdjustSpread {
                division: division.into(),
                player: a.player,
                round: a.round,
                reason: a.reason.clone(),
                amount: Some(a.amount),
            });
        }
    }
    Ok(DivisionImport {
        actions: out,
        warnings: import.warnings(),
    })
}

/// A `.t` file's lines being turned into the actions of division `division`.
struct Import<'a> {
    division: &'a str,
    players: &'a [TshPlayer],
    /// The first round each withdrawn player misses.
    withdrawn_from: Vec<Option<u32>>,
    /// The most rounds any line has.
    rounds: usize,
    /// The margin the division will apply to a left game.
    margin: i32,
    /// The spread of a bye the file has not scored yet.
    bye_spread: i32,
    /// Each player's scores for games whose opponent's line has none: (round, score).
    one_sided: Vec<Vec<(u32, i32)>>,
}

impl<'a> Import<'a> {
    fn new(division: &'a str, preset: &str, players: &'a [TshPlayer]) -> Import<'a> {
        // The division's settings; an unknown preset is refused when the division is added.
        let config = Ruleset::preset(preset).map(|r| DivisionConfig::from_ruleset(&r));
        Import {
            division,
            players,
            withdrawn_from: players.iter().map(withdrawn_from).collect(),
            rounds: players.iter().map(|p| p.opponents.len()).max().unwrap_or(0),
            margin: config.as_ref().map_or(50, |c| c.resignation_margin),
            bye_spread: config.as_ref().map_or(50, |c| c.bye_spread),
            one_sided: players.iter().map(|p| one_sided(players, p)).collect(),
        }
    }

    /// A warning for each one-sided score.
    fn warnings(&self) -> Vec<String> {
        let who = |n: PlayerId| format!("#{n} ({})", self.players[n as usize - 1].name);
        let mut out = Vec::new();
        for (i, p) in self.players.iter().enumerate() {
            for &(round, score) in &self.one_sided[i] {
                let opp = p.opponents[round as usize - 1];
                out.push(format!(
                    "line {}: round {round}: {} has a score ({score}) but {} has none for their game, so the game has no result; the score is kept for the .t file",
                    p.line,
                    who(i as PlayerId + 1),
                    who(opp)
                ));
            }
        }
        out
    }

    /// Each player, with the fields tilebag keeps for export.
    fn add_players(&self, out: &mut Vec<Action>) {
        for (i, p) in self.players.iter().enumerate() {
            out.push(Action::AddPlayer {
                division: self.division.into(),
                name: p.name.clone(),
                rating: p.rating,
                member_id: p.member_id.clone(),
                career_games: p.lifeg,
                members: Vec::new(),
            });
            let one_sided = &self.one_sided[i];
            if !p.extra.is_empty()
                || p.has_p12
                || !p.lines_before.is_empty()
                || !p.lines_after.is_empty()
                || !one_sided.is_empty()
            {
                out.push(Action::KeepTshFields {
                    division: self.division.into(),
                    player: i as PlayerId + 1,
                    fields: p.extra.clone(),
                    p12: p.p12.clone(),
                    lines_before: p.lines_before.clone(),
                    lines_after: p.lines_after.clone(),
                    one_sided: one_sided.clone(),
                });
            }
        }
    }

    /// The round before which player `i`'s withdrawal or ejection goes into the log, if any.
    fn leave_at(&self, i: usize) -> Option<u32> {
        let p = &self.players[i];
        let from = match (self.withdrawn_from[i], p.ejected) {
            (Some(from), _) => from,
            (None, true) => self.rounds as u32 + 1,
            (None, false) => return None,
        };
        let last_game = (0..p.opponents.len())
            .rev()
            .find(|&r| p.opponents[r] != 0 || p.forfeit(r).is_some())
            .map_or(0, |r| r as u32 + 1);
        Some(from.max(last_game + 1))
    }

    /// Player `i`'s ejection or withdrawal.
    fn leave(&self, i: usize) -> Option<Action> {
        let player = i as PlayerId + 1;
        if self.players[i].ejected {
            // WESPA 6.2.4(a): the earlier results in the file are already the ejection's, so
            // ejecting again changes none of them; it withdraws the player and ranks them last.
            Some(Action::Eject {
                division: self.division.into(),
                player,
                from_round: self.withdrawn_from[i].unwrap_or(self.rounds as u32 + 1),
            })
        } else {
            self.withdrawn_from[i].map(|from| Action::Withdraw {
                division: self.division.into(),
                player,
                from_round: from,
            })
        }
    }

    /// Round `r` (from 0): its pairings, then its results.
    fn round(&self, r: usize, out: &mut Vec<Action>) -> Result<(), TshError> {
        let round = r as u32 + 1;
        let mut pairings = Vec::new();
        let mut results = Vec::new();
        for (i, p) in self.players.iter().enumerate() {
            let me = i as PlayerId + 1;
            let Some(&opp) = p.opponents.get(r) else {
                continue;
            };
            if p.unpaired.get(r) == Some(&true) {
                continue;
            }
            let mark = p.forfeit(r);
            if opp == 0 && mark.is_none() {
                pairings.push(self.solo_entry(i, r));
                continue;
            }
            // A game, or a forfeit between paired players (checked by `parse_t`).
            let opp = mark.map_or(opp, ForfeitMark::opponent);
            if me > opp {
                continue;
            }
            let o = &self.players[opp as usize - 1];
            pairings.push(Pairing::Game(game_of(p, me, o, opp, r)));
            if let Some((player, result)) = self.result(p, me, o, opp, r)? {
                results.push(Action::SetResult {
                    division: self.division.into(),
                    round,
                    player,
                    result,
                    note: "imported from a .t file".to_string(),
                });
            }
        }
        let mut board = 0;
        for x in pairings.iter_mut() {
            if let Pairing::Game(g) = x {
                board += 1;
                g.board = board;
            }
        }
        out.push(Action::Pair {
            division: self.division.into(),
            round,
            method: Method::Manual,
            based_on: round - 1,
            pairings,
        });
        out.extend(results);
        Ok(())
    }

    /// Player `i`'s entry for a row of round `r` with no opponent: a withdrawn player's automatic
    /// result, or a bye.
    fn solo_entry(&self, i: usize, r: usize) -> Pairing {
        let p = &self.players[i];
        let me = i as PlayerId + 1;
        let round = r as u32 + 1;
        let score = p.scores.get(r).copied();
        let absent =
            p.absent.get(r) == Some(&true) || self.withdrawn_from[i].is_some_and(|w| round >= w);
        if absent {
            return Pairing::Absent {
                player: me,
                spread: score.unwrap_or(0),
            };
        }
        // A row with no opponent: a bye (a positive or zero score), a forfeit loss (a negative
        // one: tsh's ForfeitLOSS), or a bye not scored yet.
        Pairing::Bye {
            player: me,
            spread: score.unwrap_or(self.bye_spread),
            counts_as: match p12(p, r) {
                1 => Some(Seat::First),
                2 => Some(Seat::Second),
                _ => None,
            },
            forfeit: score.is_some_and(|s| s < 0),
            pending: score.is_none(),
        }
    }

    /// The result of the round-`r` game of `p` (number `me`) and `o` (number `opp`), as the
    /// player it is entered for and the entry, when both rows have a score.
    fn result(
        &self,
        p: &TshPlayer,
        me: PlayerId,
        o: &TshPlayer,
        opp: PlayerId,
        r: usize,
    ) -> Result<Option<(PlayerId, ResultEntry)>, TshError> {
        let (Some(&a), Some(&b)) = (p.scores.get(r), o.scores.get(r)) else {
            return Ok(None);
        };
        Ok(Some(match (p.forfeit(r), o.forfeit(r)) {
            (Some(ForfeitMark::Won(_)), _) => (opp, ResultEntry::Forfeit { spread: Some(a) }),
            (Some(ForfeitMark::Lost(_)), Some(ForfeitMark::Won(_))) => {
                (me, ResultEntry::Forfeit { spread: Some(b) })
            }
            (Some(ForfeitMark::Lost(_)), _) => {
                (me, ResultEntry::DoubleForfeit { spread: Some(-a) })
            }
            (None, _) => {
                let leaver = if p.left_in(r) {
                    Some((p, me, a, b))
                } else if o.left_in(r) {
                    Some((o, opp, b, a))
                } else {
                    None
                };
                match leaver {
                    None => (
                        me,
                        ResultEntry::Scores {
                            score: a,
                            opponent_score: b,
                        },
                    ),
                    Some((lp, id, own, other)) => (id, self.left_result(lp, r, own, other)?),
                }
            }
        }))
    }

    /// The entry for `lp`, who left their round-`r` game in progress, with final scores `own`
    /// and `other`; refused when they did not lose by at least the margin (NASPA V.K.2).
    fn left_result(
        &self,
        lp: &TshPlayer,
        r: usize,
        own: i32,
        other: i32,
    ) -> Result<ResultEntry, TshError> {
        let margin = self.margin;
        left_entry(own, other, margin).ok_or_else(|| TshError::Line {
            line: lp.line,
            reason: format!(
                "round {}: {} left the game in progress, so loses by at least {margin} (NASPA V.K.2), but the scores are {own}–{other}",
                r + 1,
                lp.name
            ),
        })
    }
}

/// The first round a withdrawn player misses: `tbwithdrawn`, or (a file from tsh) the trailing
/// rows with no opponent and the `off` spread.
fn withdrawn_from(p: &TshPlayer) -> Option<u32> {
    p.withdrawn_from.or_else(|| {
        p.off.map(|off| {
            let mut from = p.opponents.len();
            while from > 0
                && p.opponents[from - 1] == 0
                && p.forfeit(from - 1).is_none()
                && p.scores.get(from - 1) == Some(&off)
            {
                from -= 1;
            }
            from as u32 + 1
        })
    })
}

/// The scores `p`'s line has for games (rows with an opponent, not forfeits) whose opponent's
/// line has no score in that round, as (round, score).
fn one_sided(players: &[TshPlayer], p: &TshPlayer) -> Vec<(u32, i32)> {
    p.opponents
        .iter()
        .enumerate()
        .filter(|&(r, &o)| o != 0 && p.forfeit(r).is_none())
        .filter_map(|(r, &o)| {
            let own = *p.scores.get(r)?;
            let theirs = players.get(o as usize - 1)?.scores.get(r);
            theirs.is_none().then_some((r as u32 + 1, own))
        })
        .collect()
}

/// A line's `p12` code for round `r` (0 when it has none).
fn p12(p: &TshPlayer, r: usize) -> u8 {
    p.p12.get(r).copied().unwrap_or(0)
}

/// The round-`r` game of `p` (number `me`) and `o` (number `opp`), without result or board yet:
/// seated by either line's `p12` when one says who started; otherwise the start is unknown
/// (never invented: NASPA III.D counts only known firsts) and the players are in number order.
fn game_of(p: &TshPlayer, me: PlayerId, o: &TshPlayer, opp: PlayerId, r: usize) -> Game {
    let (me_first, first_by) = match (p12(p, r), p12(o, r)) {
        (1, _) | (_, 2) => (true, FirstReason::Imported),
        (2, _) | (_, 1) => (false, FirstReason::Imported),
        (code, _) => (
            true,
            FirstReason::Unknown {
                code: if p.has_p12 { code } else { 4 },
            },
        ),
    };
    let (first, second) = if me_first { (me, opp) } else { (opp, me) };
    Game {
        board: 0,
        first,
        second,
        first_by,
        result: None,
        slip: None,
        corrections: Vec::new(),
    }
}
