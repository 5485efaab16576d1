//! Standings: wins (a tie counts half), then losses, then spread, then rating by default (tsh's
//! order); the division's tie-break list is configurable, and an optional cap limits the spread
//! any one game can contribute.
//!
//! Players still taking part come first; a withdrawn player follows all of them, and an ejected
//! one comes last (WESPA 6.2.4(a)(ii)). Players level on every key but rating share a rank, as
//! tsh prints it (`1, 2, 2, 4`): the rating (and then the player number) only orders them on the
//! page. Before round 1 the standings are the seeds, one rank each.

use std::cmp::Ordering;

use serde::{Deserialize, Serialize};

use crate::model::{Division, Pairing, PlayerId, TieBreak};

/// One player's line in the standings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Standing {
    /// Position, from 1; players level on every key but rating share one (see the module).
    pub rank: u32,
    pub player: PlayerId,
    pub name: String,
    pub rating: i32,
    /// Twice the wins (a tie is 1).
    pub wins2: u32,
    /// Twice the losses (a tie is 1).
    pub losses2: u32,
    /// Cumulative spread, with adjustments.
    pub spread: i32,
    /// Spread with each game capped at the division's spread cap (equal to `spread` when there is
    /// no cap); adjustments are not capped.
    pub capped_spread: i32,
    /// Points scored in played games.
    pub points_for: i64,
    pub points_against: i64,
    /// Results counted (games, byes, forfeits, automatic results).
    pub results: u32,
    pub byes: u32,
    /// Still taking part in the next round.
    pub active: bool,
}

impl Standing {
    pub fn wins(&self) -> f64 {
        self.wins2 as f64 / 2.0
    }
    pub fn losses(&self) -> f64 {
        self.losses2 as f64 / 2.0
    }
    /// The spread the tie-breaks use.
    pub fn ranking_spread(&self) -> i32 {
        self.capped_spread
    }
}

/// Formats a win count as tsh does: `7`, `6.5`.
pub fn fmt_half(x2: u32) -> String {
    if x2 % 2 == 0 {
        format!("{}", x2 / 2)
    } else {
        format!("{}.5", x2 / 2)
    }
}

impl Division {
    /// Standings after round `through` (0: before the event; seeds by rating).
    pub fn standings(&self, through: u32) -> Vec<Standing> {
        let cap = self.config.spread_cap;
        let mut rows: Vec<Standing> = self
            .players
            .iter()
            .map(|p| Standing {
                rank: 0,
                player: p.id,
                name: p.name.clone(),
                rating: p.rating,
                wins2: 0,
                losses2: 0,
                spread: 0,
                capped_spread: 0,
                points_for: 0,
                points_against: 0,
                results: 0,
                byes: 0,
                active: p.active_in(through + 1),
            })
            .collect();
        let capped = |s: i32| match cap {
            Some(c) => s.clamp(-c, c),
            None => s,
        };
        for r in self.rounds.iter().take(through as usize) {
            for pairing in &r.pairings {
                match pairing {
                    Pairing::Game(g) => {
                        let Some(res) = &g.result else { continue };
                        // A void game counts for nobody (WESPA 6.2.4(a)(i)).
                        if matches!(res, crate::model::GameResult::Void) {
                            continue;
                        }
                        for p in [g.first, g.second] {
                            let o = res.outcome_for(g, p);
                            if let Some(row) = rows.get_mut(p as usize - 1) {
                                row.wins2 += o.wins2;
                                row.losses2 += o.losses2;
                                row.spread += o.spread;
                                row.capped_spread += capped(o.spread);
                                if let Some((own, opp)) = o.scores {
                                    row.points_for += own as i64;
                                    row.points_against += opp as i64;
                                }
                                row.results += 1;
                            }
                        }
                    }
                    Pairing::Bye { pending: true, .. } => {}
                    Pairing::Bye { player, spread, .. } | Pairing::Absent { player, spread } => {
                        if let Some(row) = rows.get_mut(*player as usize - 1) {
                            let o = crate::model::solo_outcome(*spread);
                            row.wins2 += o.wins2;
                            row.losses2 += o.losses2;
                            row.spread += o.spread;
                            row.capped_spread += capped(o.spread);
                            row.results += 1;
                            if matches!(pairing, Pairing::Bye { forfeit: false, .. }) {
                                row.byes += 1;
                            }
                        }
                    }
                }
            }
        }
        for adj in &self.adjustments {
            if adj.round <= through {
                if let Some(row) = rows.get_mut(adj.player as usize - 1) {
                    row.spread += adj.amount;
                    row.capped_spread += adj.amount;
                }
            }
        }
        let keys = self.config.tie_breaks.clone();
        // Players taking part, then withdrawn players, then ejected ones (WESPA 6.2.4(a)(ii)).
        let group = |s: &Standing| {
            if self.player(s.player).is_some_and(|p| p.ejected) {
                2
            } else if !s.active {
                1
            } else {
                0
            }
        };
        rows.sort_by(|a, b| group(a).cmp(&group(b)).then_with(|| compare(&keys, a, b)));
        // A player level with the one above on every key but rating shares their rank.
        let results: Vec<TieBreak> = keys
            .iter()
            .copied()
            .filter(|k| *k != TieBreak::Rating)
            .collect();
        for i in 0..rows.len() {
            let shared = through > 0
                && i > 0
                && !results.is_empty()
                && group(&rows[i - 1]) == group(&rows[i])
                && results
                    .iter()
                    .all(|k| compare_by(*k, &rows[i - 1], &rows[i]) == Ordering::Equal);
            rows[i].rank = if shared {
                rows[i - 1].rank
            } else {
                i as u32 + 1
            };
        }
        rows
    }

    /// Standings restricted to players active in `round`, based on round `based_on`.
    pub fn active_standings(&self, based_on: u32, round: u32) -> Vec<Standing> {
        self.standings(based_on)
            .into_iter()
            .filter(|s| self.player(s.player).is_some_and(|p| p.active_in(round)))
            .collect()
    }
}

/// Orders two standings lines by the tie-break keys, then by player number.
pub fn compare(keys: &[TieBreak], a: &Standing, b: &Standing) -> Ordering {
    for k in keys {
        let o = compare_by(*k, a, b);
        if o != Ordering::Equal {
            return o;
        }
    }
    a.player.cmp(&b.player)
}

/// Orders two standings lines by one key (the better first).
fn compare_by(key: TieBreak, a: &Standing, b: &Standing) -> Ordering {
    match key {
        TieBreak::Wins => b.wins2.cmp(&a.wins2),
        TieBreak::Losses => a.losses2.cmp(&b.losses2),
        TieBreak::Spread => b.ranking_spread().cmp(&a.ranking_spread()),
        TieBreak::Rating => b.rating.cmp(&a.rating),
        TieBreak::PointsFor => b.points_for.cmp(&a.points_for),
    }
}
