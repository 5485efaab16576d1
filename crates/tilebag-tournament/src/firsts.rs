//! Firsts and seconds: who goes first in each game.
//!
//! - NASPA III.D (and NSA III.D): the player with fewer firsts; then the one with more seconds;
//!   then a tile draw, nearest to "A" starts, a blank before "A", drawn again on a tie.
//! - NASPA III.D note: a player who forfeits a game before it begins is counted as first for that
//!   game, second for their next forfeit, and so on; their opponents, and players with byes, get
//!   neither.
//! - SANSPA 6.4: fewer firsts, else a tile draw; when a bye or forfeit has made the counts differ,
//!   more seconds decides before the draw. (With equal games, equal firsts means equal seconds, so
//!   NASPA's order gives the same answers.) Byes and forfeits count for neither.
//! - WESPA 2.1(b): a system that aims for everyone to start about half their games; we start the
//!   player whose starts minus replies is lower (2.1(b)(ii) compares starts), then a draw.
//! - Literacy 2018 "Play": a tile draw every game.
//!
//! Draws are deterministic: they come from the division's seed, the round and the players.

use tilebag_core::bag::Rng;
use tilebag_core::ruleset::FirstPlayerRule;
use tilebag_core::tiles::{Tile, TileSet};

use crate::model::{
    ByeFirsts, Division, FirstReason, FirstsPolicy, GameResult, Pairing, PlayerId, Seat,
};

/// Firsts and seconds of every player (index = player id - 1).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FirstsTally {
    pub firsts: Vec<u32>,
    pub seconds: Vec<u32>,
}

impl FirstsTally {
    pub fn get(&self, p: PlayerId) -> (u32, u32) {
        let Some(i) = (p as usize).checked_sub(1) else {
            return (0, 0);
        };
        (
            self.firsts.get(i).copied().unwrap_or(0),
            self.seconds.get(i).copied().unwrap_or(0),
        )
    }
    fn add(&mut self, p: PlayerId, seat: Seat) {
        let i = p as usize - 1;
        if i >= self.firsts.len() {
            self.firsts.resize(i + 1, 0);
            self.seconds.resize(i + 1, 0);
        }
        match seat {
            Seat::First => self.firsts[i] += 1,
            Seat::Second => self.seconds[i] += 1,
        }
    }
}

/// How each player's entry in a round counts: `(player, seat)` for everyone who is charged a
/// first or a second. `forfeits` and `byes` count earlier forfeits and byes per player (updated).
fn charge_round(
    policy: &FirstsPolicy,
    pairings: &[Pairing],
    forfeits: &mut Vec<u32>,
    byes: &mut Vec<u32>,
    out: &mut Vec<(PlayerId, Seat)>,
) {
    let alternate = |count: &mut Vec<u32>, p: PlayerId| -> Seat {
        let i = p as usize - 1;
        if i >= count.len() {
            count.resize(i + 1, 0);
        }
        count[i] += 1;
        if count[i] % 2 == 1 {
            Seat::First
        } else {
            Seat::Second
        }
    };
    for pairing in pairings {
        match pairing {
            Pairing::Game(g) => match &g.result {
                Some(GameResult::Forfeit { loser, .. }) => {
                    // NASPA III.D note: only the forfeiter is charged.
                    if policy.forfeiter_alternates {
                        let seat = alternate(forfeits, *loser);
                        out.push((*loser, seat));
                    }
                }
                Some(GameResult::DoubleForfeit { .. }) => {
                    if policy.forfeiter_alternates {
                        for p in [g.first, g.second] {
                            let seat = alternate(forfeits, p);
                            out.push((p, seat));
                        }
                    }
                }
                // NASPA III.D counts only known firsts: a game read from a file that does not
                // say who started charges neither player.
                _ if matches!(g.first_by, FirstReason::Unknown { .. }) => {}
                // A played game, or one not yet played: seat order as posted.
                _ => {
                    out.push((g.first, Seat::First));
                    out.push((g.second, Seat::Second));
                }
            },
            Pairing::Bye {
                player, counts_as, ..
            } => {
                if let Some(seat) = counts_as {
                    out.push((*player, *seat));
                } else if policy.byes == ByeFirsts::Alternate {
                    let seat = alternate(byes, *player);
                    out.push((*player, seat));
                }
            }
            Pairing::Absent { .. } => {}
        }
    }
}

impl Division {
    /// Firsts and seconds from rounds before `before` (pairings count as posted, so a round that
    /// is still being played counts too).
    pub fn firsts_tally(&self, before: u32) -> FirstsTally {
        let mut tally = FirstsTally {
            firsts: vec![0; self.players.len()],
            seconds: vec![0; self.players.len()],
        };
        let mut forfeits = Vec::new();
        let mut byes = Vec::new();
        let mut out = Vec::new();
        for r in self.rounds.iter().take(before.saturating_sub(1) as usize) {
            out.clear();
            charge_round(
                &self.config.firsts,
                &r.pairings,
                &mut forfeits,
                &mut byes,
                &mut out,
            );
            for &(p, seat) in &out {
                tally.add(p, seat);
            }
        }
        tally
    }

    /// For each round (index r-1), how each player's entry counts: first, second, or neither
    /// (for `.t` `p12` and scorecards).
    pub fn firsts_by_round(&self) -> Vec<Vec<Option<Seat>>> {
        let mut forfeits = Vec::new();
        let mut byes = Vec::new();
        let mut out = Vec::new();
        self.rounds
            .iter()
            .map(|r| {
                out.clear();
                charge_round(
                    &self.config.firsts,
                    &r.pairings,
                    &mut forfeits,
                    &mut byes,
                    &mut out,
                );
                let mut row = vec![None; self.players.len()];
                for &(p, seat) in &out {
                    if let Some(x) = row.get_mut(p as usize - 1) {
                        *x = Some(seat);
                    }
                }
                row
            })
            .collect()
    }
}

/// A tile's rank in a draw for first: a blank (0) before A (1) … Z (26).
fn draw_rank(set: &TileSet, t: Tile) -> u8 {
    match t {
        Tile::Blank => 0,
        Tile::Letter(i) => set.symbol(i) as u8 - b'A' + 1,
    }
}

/// A tile draw between `a` and `b` from a full English bag: each draws a tile; nearest to "A"
/// starts, a blank before "A"; equal tiles draw again, tiles not returned (WESPA 2.1(a)).
/// Returns whether `a` starts, and the draws as (a's tile, b's tile).
pub fn tile_draw(rng: &mut Rng) -> (bool, Vec<(char, char)>) {
    let set = TileSet::english();
    let mut bag = set.all_tiles();
    rng.shuffle(&mut bag);
    let mut draws = Vec::new();
    while bag.len() >= 2 {
        let ta = bag.pop().expect("two tiles");
        let tb = bag.pop().expect("two tiles");
        draws.push((set.tile_char(ta), set.tile_char(tb)));
        let (ra, rb) = (draw_rank(&set, ta), draw_rank(&set, tb));
        if ra != rb {
            return (ra < rb, draws);
        }
    }
    // Unreachable with 100 tiles (there are not 50 equal pairs), but stay total.
    (true, draws)
}

/// A generator for the draws of one round, from the division seed.
pub fn draw_rng(seed: u64, round: u32, a: PlayerId, b: PlayerId) -> Rng {
    let (lo, hi) = (a.min(b) as u64, a.max(b) as u64);
    Rng::new(
        seed ^ 0x000F_1257_D4A3_u64.wrapping_mul(round as u64 + 1)
            ^ lo.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ hi.wrapping_mul(0xC2B2_AE3D_27D4_EB4F),
    )
}

/// Decides who of `a` and `b` goes first. Returns (first, second, why).
pub fn decide(
    policy: &FirstsPolicy,
    tally: &FirstsTally,
    seed: u64,
    round: u32,
    a: PlayerId,
    b: PlayerId,
) -> (PlayerId, PlayerId, FirstReason) {
    let (fa, sa) = tally.get(a);
    let (fb, sb) = tally.get(b);
    let ordered = |a_first: bool, why: FirstReason| {
        if a_first {
            (a, b, why)
        } else {
            (b, a, why)
        }
    };
    match policy.rule {
        FirstPlayerRule::FewerFirstsThenDraw => {
            if fa != fb {
                return ordered(fa < fb, FirstReason::FewerFirsts);
            }
            if sa != sb {
                return ordered(sa > sb, FirstReason::MoreSeconds);
            }
        }
        FirstPlayerRule::BalancedThenDraw => {
            let (ba, bb) = (fa as i64 - sa as i64, fb as i64 - sb as i64);
            if ba != bb {
                return ordered(ba < bb, FirstReason::Balance);
            }
            if fa != fb {
                return ordered(fa < fb, FirstReason::FewerFirsts);
            }
        }
        FirstPlayerRule::TileDraw => {}
    }
    // Draw with the lower-numbered player drawing first, so the outcome does not depend on the
    // order the pairing listed them.
    let (lo, hi) = (a.min(b), a.max(b));
    let mut rng = draw_rng(seed, round, lo, hi);
    let (lo_starts, draws) = tile_draw(&mut rng);
    let draws = if lo_starts {
        draws
    } else {
        draws.into_iter().map(|(x, y)| (y, x)).collect()
    };
    let (first, second) = if lo_starts { (lo, hi) } else { (hi, lo) };
    (first, second, FirstReason::Draw { draws })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ByeFirsts;

    fn naspa() -> FirstsPolicy {
        FirstsPolicy {
            rule: FirstPlayerRule::FewerFirstsThenDraw,
            forfeiter_alternates: true,
            byes: ByeFirsts::Ignore,
        }
    }

    fn tally(rows: &[(u32, u32)]) -> FirstsTally {
        FirstsTally {
            firsts: rows.iter().map(|r| r.0).collect(),
            seconds: rows.iter().map(|r| r.1).collect(),
        }
    }

    #[test]
    fn naspa_iii_d_1_fewer_firsts_starts() {
        let t = tally(&[(3, 2), (2, 3)]);
        let (f, s, why) = decide(&naspa(), &t, 1, 6, 1, 2);
        assert_eq!((f, s, why), (2, 1, FirstReason::FewerFirsts));
    }

    #[test]
    fn naspa_iii_d_2_then_more_seconds() {
        // After a bye player 1 has 2 firsts 2 seconds, player 2 has 2 firsts 3 seconds.
        let t = tally(&[(2, 2), (2, 3)]);
        let (f, _, why) = decide(&naspa(), &t, 1, 6, 1, 2);
        assert_eq!((f, why), (2, FirstReason::MoreSeconds));
    }

    #[test]
    fn naspa_iii_d_3_tile_draw_blank_beats_a_and_is_seeded() {
        let t = tally(&[(1, 1), (1, 1)]);
        let d1 = decide(&naspa(), &t, 77, 3, 1, 2);
        let d2 = decide(&naspa(), &t, 77, 3, 2, 1);
        assert_eq!(d1, d2, "the draw does not depend on listing order");
        let FirstReason::Draw { draws } = &d1.2 else {
            panic!("a draw")
        };
        let (x, y) = *draws.last().unwrap();
        let rank = |c: char| if c == '?' { 0 } else { c as u8 - b'A' + 1 };
        assert!(
            rank(x) < rank(y),
            "the first player's tile is nearer A: {draws:?}"
        );
        for &(x, y) in &draws[..draws.len() - 1] {
            assert_eq!(rank(x), rank(y), "earlier draws were ties");
        }
        // Over many seeds a blank always wins against a letter.
        let mut blank_seen = false;
        for seed in 0..2000 {
            let mut rng = draw_rng(seed, 1, 1, 2);
            let (a_starts, draws) = tile_draw(&mut rng);
            let (ta, tb) = *draws.last().unwrap();
            if ta == '?' || tb == '?' {
                blank_seen = true;
                assert_eq!(a_starts, ta == '?', "a blank beats any letter, A included");
            }
        }
        assert!(blank_seen);
    }

    #[test]
    fn wespa_2_1_b_balances_starts() {
        let p = FirstsPolicy {
            rule: FirstPlayerRule::BalancedThenDraw,
            forfeiter_alternates: false,
            byes: ByeFirsts::Ignore,
        };
        // Player 1 started 3 of 7 (-1), player 2 started 2 of 4 (0): NASPA would start player 2
        // (fewer firsts); WESPA's balance starts player 1, who is further below half.
        let t = tally(&[(3, 4), (2, 2)]);
        assert_eq!(decide(&p, &t, 1, 8, 1, 2).0, 1);
        assert_eq!(decide(&naspa(), &t, 1, 8, 1, 2).0, 2);
    }

    #[test]
    fn literacy_always_draws() {
        let p = FirstsPolicy {
            rule: FirstPlayerRule::TileDraw,
            forfeiter_alternates: false,
            byes: ByeFirsts::Ignore,
        };
        let t = tally(&[(0, 3), (3, 0)]);
        assert!(matches!(
            decide(&p, &t, 5, 4, 1, 2).2,
            FirstReason::Draw { .. }
        ));
    }
}
