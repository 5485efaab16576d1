//! Rating estimates: NASPA's Elo-style system (as tsh implements it) and WESPA's (tsh's `wespa`).
//!
//! NASPA (scrabbleplayers.org "Rating system overview"; tsh `Ratings::Elo`):
//! - expected wins against each opponent: 1 / (1 + e^(0.0031879 · (opponent − you)));
//! - change = multiplier × (actual wins − expected wins), the multiplier by career games and
//!   rating band: fewer than 50 games 30 / 24 / 15, otherwise 20 / 16 / 10, for ratings below
//!   1800 / 1800–1999 / 2000 and over; a change that crosses 1800 or 2000 is prorated: the part
//!   beyond the boundary is converted at the next band's multiplier;
//! - acceleration bonus: a gain of more than 5 points per game earns the excess again, and each
//!   opponent (per game played against the player) gets 1/20 of the bonus as feedback;
//! - events are rated in segments: up to 16 rounds one, 17–35 two, more than 35 three; ratings
//!   and career games carry from one segment to the next;
//! - local club tournaments count one third (the multiplier is divided by 3).
//! - unrated players get a performance rating: the rating at which their expected wins equal their
//!   actual wins (clipped to 5%–95% of games), at least 500, at most the best opponent + 400 ×
//!   wins/games; opponents are rated against that figure.
//!
//! WESPA as tsh's `wespa` system: expectation 1 / (1 + e^((opponent − you) / 172)), the same
//! multiplier table without proration (the band of the starting rating applies), the acceleration
//! bonus times 2/3, and no segments.
//!
//! Byes and forfeits are not rated (NASPA V.K.1, V.K.4; WESPA 2.3.6(b)).

use serde::{Deserialize, Serialize};

use crate::model::{Division, GameResult, Pairing, PlayerId};

/// Which rating system estimates a division's ratings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "system", rename_all = "kebab-case")]
pub enum RatingSystem {
    None,
    /// NASPA; `club` for local club tournaments rated at one third.
    Naspa {
        club: bool,
    },
    Wespa,
}

/// A player going into the calculation.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatingPlayer {
    /// 0 for an unrated player.
    pub rating: f64,
    pub career_games: u32,
}

/// A rated game: `a` against `b` (indices into the players), `a_score` 1 for a win, 0.5 a tie,
/// 0 a loss.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RatedGame {
    pub round: u32,
    pub a: usize,
    pub b: usize,
    pub a_score: f64,
}

/// One player's result.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct RatingChange {
    pub old: f64,
    /// The new rating, unrounded.
    pub new: f64,
    pub games: u32,
    /// Expected and actual wins, summed over segments.
    pub expected: f64,
    pub actual: f64,
    /// Acceleration bonus earned, and feedback received from opponents' bonuses.
    pub bonus: f64,
    pub feedback: f64,
}

impl RatingChange {
    pub fn rounded(&self) -> i32 {
        self.new.round() as i32
    }
}

/// NASPA expectation of `you` against `opp`.
pub fn naspa_expectation(you: f64, opp: f64) -> f64 {
    1.0 / (1.0 + (0.0031879 * (opp - you)).exp())
}

/// WESPA (tsh `wespa`) expectation of `you` against `opp`.
pub fn wespa_expectation(you: f64, opp: f64) -> f64 {
    1.0 / (1.0 + ((opp - you) / 172.0).exp())
}

/// The multiplier for a rating and career games (NASPA table; tsh `Multiplier`).
pub fn multiplier(rating: f64, career_games: u32) -> f64 {
    let newish = career_games < 50;
    if rating < 1800.0 {
        if newish {
            30.0
        } else {
            20.0
        }
    } else if rating < 2000.0 {
        if newish {
            24.0
        } else {
            16.0
        }
    } else if newish {
        15.0
    } else {
        10.0
    }
}

/// Applies a surplus of wins (actual − expected) to a rating, prorating across 1800 and 2000:
/// the surplus is spent at each band's multiplier until the band's edge, then at the next
/// band's (tsh `ConvertExcessToPoints`).
pub fn prorated_change(rating: f64, surplus: f64, career_games: u32, divisor: f64) -> f64 {
    const EDGES: [f64; 2] = [1800.0, 2000.0];
    let mut r = rating;
    let mut left = surplus;
    // At most one step per band.
    for _ in 0..4 {
        if left == 0.0 {
            break;
        }
        let up = left > 0.0;
        // Going down from exactly 1800 is already in the band below it.
        let band_rating = if up { r } else { r - 1e-6 };
        let m = multiplier(band_rating, career_games) / divisor;
        let points = left * m;
        let edge = if up {
            EDGES.iter().copied().find(|&e| e > r)
        } else {
            EDGES.iter().rev().copied().find(|&e| e < r)
        };
        match edge {
            Some(e) if (up && r + points > e) || (!up && r + points < e) => {
                left -= (e - r) / m;
                r = e;
            }
            _ => {
                r += points;
                left = 0.0;
            }
        }
    }
    r - rating
}

struct Seg<'a> {
    games: Vec<&'a RatedGame>,
}

/// Rates an event.
pub fn rate(
    system: RatingSystem,
    players: &[RatingPlayer],
    games: &[RatedGame],
) -> Vec<RatingChange> {
    let mut out: Vec<RatingChange> = players
        .iter()
        .map(|p| RatingChange {
            old: p.rating,
            new: p.rating,
            games: 0,
            expected: 0.0,
            actual: 0.0,
            bonus: 0.0,
            feedback: 0.0,
        })
        .collect();
    if matches!(system, RatingSystem::None) {
        return out;
    }
    let rounds = games.iter().map(|g| g.round).max().unwrap_or(0);
    let segments = match system {
        RatingSystem::Naspa { .. } => {
            if rounds <= 16 {
                1
            } else if rounds <= 35 {
                2
            } else {
                3
            }
        }
        _ => 1,
    };
    let size = rounds.div_ceil(segments).max(1);
    let segs: Vec<Seg> = (0..segments)
        .map(|s| Seg {
            games: games
                .iter()
                .filter(|g| g.round > s * size && g.round <= (s + 1) * size)
                .collect(),
        })
        .collect();
    let mut rating: Vec<f64> = players.iter().map(|p| p.rating).collect();
    let mut career: Vec<u32> = players.iter().map(|p| p.career_games).collect();
    for seg in segs {
        let n = players.len();
        let mut expected = vec![0.0; n];
        let mut actual = vec![0.0; n];
        let mut count = vec![0u32; n];
        // Opponent lists per player, one entry per game.
        let mut opps: Vec<Vec<usize>> = vec![Vec::new(); n];
        for g in &seg.games {
            if g.a >= n || g.b >= n || g.a == g.b {
                continue;
            }
            opps[g.a].push(g.b);
            opps[g.b].push(g.a);
            actual[g.a] += g.a_score;
            actual[g.b] += 1.0 - g.a_score;
            count[g.a] += 1;
            count[g.b] += 1;
        }
        // Unrated players first get a performance rating (against rated opponents' ratings).
        let mut start = rating.clone();
        for i in 0..n {
            if rating[i] <= 0.0 && count[i] > 0 {
                start[i] = performance_rating(system, &rating, &opps[i], actual[i]);
            }
        }
        let mut new = start.clone();
        let mut bonus = vec![0.0; n];
        for i in 0..n {
            if count[i] == 0 {
                continue;
            }
            let e: f64 = opps[i]
                .iter()
                .map(|&o| expectation(system, start[i], start[o]))
                .sum();
            expected[i] = e;
            if rating[i] <= 0.0 {
                // A newcomer's rating is their performance rating.
                continue;
            }
            let change = match system {
                RatingSystem::Naspa { club } => prorated_change(
                    start[i],
                    actual[i] - e,
                    career[i],
                    if club { 3.0 } else { 1.0 },
                ),
                _ => multiplier(start[i], career[i]) * (actual[i] - e),
            };
            new[i] = start[i] + change;
            let excess = change - 5.0 * count[i] as f64;
            if excess > 0.0 {
                bonus[i] = match system {
                    RatingSystem::Wespa => excess * 2.0 / 3.0,
                    _ => excess,
                };
            }
        }
        let mut feedback = vec![0.0; n];
        for i in 0..n {
            if bonus[i] > 0.0 {
                new[i] += bonus[i];
                for &o in &opps[i] {
                    feedback[o] += bonus[i] / 20.0;
                }
            }
        }
        for i in 0..n {
            // A newcomer's rating is their performance rating, without feedback.
            if rating[i] <= 0.0 {
                feedback[i] = 0.0;
            }
            new[i] += feedback[i];
            out[i].games += count[i];
            out[i].expected += expected[i];
            out[i].actual += actual[i];
            out[i].bonus += bonus[i];
            out[i].feedback += feedback[i];
            if count[i] > 0 {
                rating[i] = new[i];
                career[i] += count[i];
            }
        }
    }
    for (i, o) in out.iter_mut().enumerate() {
        o.new = rating[i];
    }
    out
}

fn expectation(system: RatingSystem, you: f64, opp: f64) -> f64 {
    match system {
        RatingSystem::Wespa => wespa_expectation(you, opp),
        _ => naspa_expectation(you, opp),
    }
}

/// The rating at which expected wins against `opps` equal `wins` (clipped to 5%–95%), at least
/// 500, at most the best opponent + 400 × wins/games.
fn performance_rating(system: RatingSystem, ratings: &[f64], opps: &[usize], wins: f64) -> f64 {
    let rated: Vec<f64> = opps
        .iter()
        .map(|&o| ratings[o])
        .filter(|&r| r > 0.0)
        .collect();
    if rated.is_empty() {
        return 1500.0;
    }
    let g = opps.len() as f64;
    let target = wins.clamp(0.05 * g, 0.95 * g) * rated.len() as f64 / g;
    let (mut lo, mut hi) = (0.0f64, 4000.0f64);
    for _ in 0..60 {
        let mid = (lo + hi) / 2.0;
        let e: f64 = rated.iter().map(|&r| expectation(system, mid, r)).sum();
        if e < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let best = rated.iter().copied().fold(0.0, f64::max);
    let cap = best + 400.0 * wins / g;
    ((lo + hi) / 2.0).min(cap).max(500.0)
}

impl Division {
    /// Rated games of rounds 1..=through (played games only; byes and forfeits are not rated).
    pub fn rated_games(&self, through: u32) -> Vec<RatedGame> {
        let mut v = Vec::new();
        for r in self.rounds.iter().take(through as usize) {
            for p in &r.pairings {
                if let Pairing::Game(g) = p {
                    if let Some(GameResult::Played {
                        first_score,
                        second_score,
                        ..
                    }) = g.result
                    {
                        let a_score = match first_score.cmp(&second_score) {
                            std::cmp::Ordering::Greater => 1.0,
                            std::cmp::Ordering::Equal => 0.5,
                            std::cmp::Ordering::Less => 0.0,
                        };
                        v.push(RatedGame {
                            round: r.number,
                            a: g.first as usize - 1,
                            b: g.second as usize - 1,
                            a_score,
                        });
                    }
                }
            }
        }
        v
    }

    /// Rating estimates after round `through`, one per player (tsh `prat`/RoundRATings).
    pub fn rating_estimates(&self, through: u32) -> Vec<(PlayerId, RatingChange)> {
        let players: Vec<RatingPlayer> = self
            .players
            .iter()
            .map(|p| RatingPlayer {
                rating: p.rating as f64,
                career_games: p.career_games.unwrap_or(100),
            })
            .collect();
        let changes = rate(self.config.ratings, &players, &self.rated_games(through));
        self.players.iter().map(|p| p.id).zip(changes).collect()
    }
}
