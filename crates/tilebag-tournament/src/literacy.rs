//! The Scrabble for Literacy 2018 team format ("Playoffs" section of its rules):
//!
//! - rounds 1 and 2 are totalled by team word scores, with a second total of point spread;
//! - round 3 pairs the leading team with the middle one, 2nd with the next, and so on
//!   ([`crate::Method::LeaderVsMiddle`]);
//! - the leading four play 1st v 3rd and 2nd v 4th ([`crate::Method::Playoff`]),
//!   then the winners play for 1st and 2nd and the losers for 3rd and 4th
//!   ([`crate::Method::Final`]);
//! - ties for the top four going into the playoffs are broken by spread.
//!
//! A team is a [`crate::Player`] with `members`; the division's tie-breaks are word score, then
//! spread (set by the `literacy-2018` preset). The default schedule is `RAND:2 LIT3 PO FIN`.

use crate::model::{Division, Game, GameResult, Pairing, PlayerId};
use crate::schedule::Method;

/// The schedule the format implies.
pub const LITERACY_SCHEDULE: &str = "RAND:2 LIT3 PO FIN";

/// A team's place: the finals decide places 1–4; everyone else follows by word score, then
/// spread.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Placing {
    pub place: u32,
    pub team: PlayerId,
    pub points_for: i64,
    pub spread: i32,
}

impl Division {
    /// The winner of a game, a tie going to the higher cumulative spread after `through`
    /// (Literacy 2018 "Playoffs"). `None` without a result.
    pub fn literacy_winner(&self, g: &Game, through: u32) -> Option<PlayerId> {
        Some(match g.result.as_ref()? {
            GameResult::Played {
                first_score,
                second_score,
                ..
            } if first_score != second_score => {
                if first_score > second_score {
                    g.first
                } else {
                    g.second
                }
            }
            GameResult::Forfeit { loser, .. } => g.opponent_of(*loser).unwrap_or(g.first),
            _ => {
                let stand = self.standings(through);
                let sp = |p: PlayerId| stand.iter().find(|s| s.player == p).map_or(0, |s| s.spread);
                if sp(g.first) >= sp(g.second) {
                    g.first
                } else {
                    g.second
                }
            }
        })
    }

    /// The playoff round's two games among the top four (1v3, 2v4) as (winner, loser) pairs.
    pub fn literacy_playoff(&self, playoff_round: u32) -> Option<Vec<(PlayerId, PlayerId)>> {
        let po = self.round(playoff_round)?;
        let top4: Vec<PlayerId> = self
            .standings(po.based_on)
            .into_iter()
            .filter(|s| {
                self.player(s.player)
                    .is_some_and(|p| p.active_in(po.number))
            })
            .take(4)
            .map(|s| s.player)
            .collect();
        let mut out = Vec::new();
        for p in &po.pairings {
            if let Pairing::Game(g) = p {
                if top4.contains(&g.first) && top4.contains(&g.second) {
                    let w = self.literacy_winner(g, po.number)?;
                    out.push((w, g.opponent_of(w)?));
                }
            }
        }
        (out.len() == 2).then_some(out)
    }

    /// Final places under the Literacy 2018 format. Before the finals are complete, the
    /// standings order (word score, then spread) is returned.
    pub fn literacy_placings(&self) -> Vec<Placing> {
        let last = self.rounds.len() as u32;
        let stand = self.standings(last);
        let mut order: Vec<PlayerId> = stand.iter().map(|s| s.player).collect();
        let fin = self.rounds.iter().rev().find(|r| r.method == Method::Final);
        if let Some(fin) = fin {
            if let Some(po) = self.literacy_playoff(fin.based_on) {
                let winners = [po[0].0, po[1].0];
                let losers = [po[0].1, po[1].1];
                let find = |pair: [PlayerId; 2]| {
                    fin.pairings.iter().find_map(|p| match p {
                        Pairing::Game(g) if pair.contains(&g.first) && pair.contains(&g.second) => {
                            self.literacy_winner(g, fin.number)
                                .map(|w| [w, g.opponent_of(w).unwrap_or(w)])
                        }
                        _ => None,
                    })
                };
                if let (Some(a), Some(b)) = (find(winners), find(losers)) {
                    let top = [a[0], a[1], b[0], b[1]];
                    order.retain(|p| !top.contains(p));
                    let mut v = top.to_vec();
                    v.extend(order);
                    order = v;
                }
            }
        }
        order
            .into_iter()
            .enumerate()
            .map(|(i, p)| {
                let s = stand.iter().find(|s| s.player == p).expect("in standings");
                Placing {
                    place: i as u32 + 1,
                    team: p,
                    points_for: s.points_for,
                    spread: s.spread,
                }
            })
            .collect()
    }
}
