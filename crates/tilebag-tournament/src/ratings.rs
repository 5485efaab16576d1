//! Rating estimates: NASPA's Elo-style system as tsh implements it, and WESPA's (tsh's `wespa`).
//! The algorithm step by step is in research/ratings.md; tests/ratings_tsh.rs works each case.
//!
//! NASPA (scrabbleplayers.org "Rating system overview"; tsh `Ratings::Elo`):
//! - expected wins against each opponent: 1 / (1 + e^(0.0031879 · (opponent − you)));
//! - change = multiplier × (actual wins − expected wins), the multiplier by career games and
//!   rating band: fewer than 50 games 30 / 24 / 15, otherwise 20 / 16 / 10, for ratings below
//!   1800 / 1800–1999 / 2000 and over; a player whose career games are not known (a `.t` line
//!   without `lifeg`, a player entered without them) counts as [`UNKNOWN_CAREER_GAMES`] = 100,
//!   as tsh's ratings code takes them; a change that would land in another band moves to its
//!   edge first (1800 or 2000 going up, 1999 or 1799 going down) and converts the rest at the
//!   new band's multiplier;
//! - acceleration bonus: a gain of more than 5 points per game earns the excess again, and each
//!   rated opponent (per game played against the player) gets 1/20 of the bonus as feedback;
//! - events are rated in segments by their scheduled length n (not the rounds played so far):
//!   n − 1 < 16 one, n − 1 < 35 two halves, otherwise thirds; ratings are rounded to whole points
//!   between segments, and career games carry over;
//! - local club tournaments (LCT): the multiplier is divided by 3, no acceleration, no feedback,
//!   and the change is capped at ±50;
//! - unrated players are rated from their results, all together (so a field of newcomers spreads
//!   out): the rating at which their expected wins equal their actual wins (clipped to 5%–95% of
//!   games), at least 500, at most the best rated opponent + 400 × wins/games.
//!
//! WESPA as tsh's `wespa` system: expectation 1 / (1 + e^((opponent − you) / 172)), the same
//! multiplier table without proration (the band of the starting rating applies), the acceleration
//! bonus times 2/3, and no segments.
//!
//! Byes and forfeits are not rated (NASPA V.K.1, V.K.4; WESPA 2.3.6(b)).

use serde::{Deserialize, Serialize};

// `RatingSystem` is a division setting, so it lives with the division's settings in `model`.
pub use crate::model::RatingSystem;
use crate::model::{Division, GameResult, Pairing, PlayerId};

/// The career games tsh's ratings code takes for a player whose career games it does not know
/// (a `.t` line without `lifeg`): 100, so the veteran multipliers (20 / 16 / 10) apply. A real
/// 2006 event of 109 players without `lifeg` differs in 108 estimates, by up to 126 points,
/// when 0 is taken instead (issue 27).
pub const UNKNOWN_CAREER_GAMES: u32 = 100;

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

/// Applies a surplus of wins (actual − expected) to a rating band by band (tsh
/// `ConvertExcessToPoints`): when the whole surplus at the current band's multiplier would land
/// in another band, the rating first moves to that band's edge (1800 or 2000 going up, 1999 or
/// 1799 going down), using up the matching part of the surplus, and the rest is converted at the
/// new band's multiplier.
pub fn prorated_change(rating: f64, surplus: f64, career_games: u32, divisor: f64) -> f64 {
    let mut r = rating;
    let mut left = surplus;
    // At most one step per band.
    for _ in 0..4 {
        if left == 0.0 {
            break;
        }
        let up = left > 0.0;
        let m = multiplier(r, career_games) / divisor;
        let points = left * m;
        // The edge of the next band in this direction, if the whole change would pass it.
        let edge = if up {
            [1800.0, 2000.0]
                .into_iter()
                .find(|&e| r < e && r + points > e)
        } else {
            [1999.0, 1799.0]
                .into_iter()
                .find(|&e| r > e + 1.0 - 1e-9 && r + points < e)
        };
        match edge {
            Some(e) => {
                left -= (e - r) / m;
                r = e;
            }
            None => {
                r += points;
                left = 0.0;
            }
        }
    }
    r - rating
}

/// The last round of each rating segment of an event of `rounds` rounds (tsh `MakeSplits`):
/// with n − 1 < 16 one segment; n − 1 < 35 two, the first ending at 0-based round
/// (n − 1) div 2; otherwise three, ending at 0-based rounds (n − 1) div 3 and
/// (2(n − 1) + 1) div 3. WESPA (tsh's `wespa`) does not split.
pub fn segment_ends(system: RatingSystem, rounds: u32) -> Vec<u32> {
    let n = rounds.max(1);
    let m = n - 1;
    match system {
        RatingSystem::Naspa { .. } if m >= 35 => vec![m / 3 + 1, (2 * m + 1) / 3 + 1, n],
        RatingSystem::Naspa { .. } if m >= 16 => vec![m / 2 + 1, n],
        _ => vec![n],
    }
}

/// Rates an event whose length is the last round played (see [`rate_event`]).
pub fn rate(
    system: RatingSystem,
    players: &[RatingPlayer],
    games: &[RatedGame],
) -> Vec<RatingChange> {
    let rounds = games.iter().map(|g| g.round).max().unwrap_or(0);
    rate_event(system, players, games, rounds)
}

/// Rates an event of `event_rounds` scheduled rounds from the games played so far: the event is
/// cut into segments by its full length ([`segment_ends`]), each segment starting from the
/// previous one's ratings rounded to whole points.
///
/// In a segment: unrated players get a performance rating ([`newcomer_ratings`]); each rated
/// player's surplus of wins is converted band by band ([`prorated_change`]); NASPA adds the
/// acceleration bonus (gain − 5 × games, when positive) and each rated opponent gets 1/20 of it
/// per game as feedback; WESPA the same with the bonus × 2/3 and no proration. NASPA club (LCT)
/// events divide the multiplier by 3, have no bonus and no feedback, and cap the change at ±50.
pub fn rate_event(
    system: RatingSystem,
    players: &[RatingPlayer],
    games: &[RatedGame],
    event_rounds: u32,
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
    let played = games.iter().map(|g| g.round).max().unwrap_or(0);
    let ends = segment_ends(system, event_rounds.max(played));
    let mut from = 0;
    let segs: Vec<Vec<&RatedGame>> = ends
        .iter()
        .map(|&end| {
            let seg = games
                .iter()
                .filter(|g| g.round > from && g.round <= end)
                .collect();
            from = end;
            seg
        })
        .collect();
    let last_with_games = segs.iter().rposition(|s| !s.is_empty()).unwrap_or(0);
    let club = matches!(system, RatingSystem::Naspa { club: true });
    let mut rating: Vec<f64> = players.iter().map(|p| p.rating).collect();
    let mut career: Vec<u32> = players.iter().map(|p| p.career_games).collect();
    let n = players.len();
    for (si, seg) in segs.iter().enumerate() {
        if seg.is_empty() {
            continue;
        }
        let mut expected = vec![0.0; n];
        let mut actual = vec![0.0; n];
        let mut count = vec![0u32; n];
        // Opponent lists per player, one entry per game.
        let mut opps: Vec<Vec<usize>> = vec![Vec::new(); n];
        for g in seg {
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
        // Unrated players first get a performance rating from their results.
        let start = newcomer_ratings(system, &rating, &opps, &actual);
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
            let mut change = match system {
                RatingSystem::Naspa { club } => prorated_change(
                    start[i],
                    actual[i] - e,
                    career[i],
                    if club { 3.0 } else { 1.0 },
                ),
                _ => multiplier(start[i], career[i]) * (actual[i] - e),
            };
            if club {
                change = change.clamp(-50.0, 50.0);
            }
            new[i] = start[i] + change;
            let excess = change - 5.0 * count[i] as f64;
            if excess > 0.0 && !club {
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
                // tsh rounds to whole points between segments.
                rating[i] = if si < last_with_games {
                    new[i].round()
                } else {
                    new[i]
                };
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

/// Where newcomers start, before their results move them.
pub const NEWCOMER_START: f64 = 1500.0;

/// Everyone's rating for a segment: rated players keep theirs (`rating > 0`); each unrated
/// player who played gets the rating their results imply, found together for all of them (so
/// a field of newcomers spreads out): starting from [`NEWCOMER_START`], every pass moves each
/// newcomer halfway to their performance rating against everyone's current figures, until
/// nothing moves. A performance rating is the rating at which the expected wins equal the
/// actual (clipped to 5%–95% of games), at least 500, and, against rated opponents, at most the
/// best of them + 400 × wins/games.
pub fn newcomer_ratings(
    system: RatingSystem,
    rating: &[f64],
    opps: &[Vec<usize>],
    wins: &[f64],
) -> Vec<f64> {
    let n = rating.len();
    let newcomer: Vec<bool> = (0..n)
        .map(|i| rating[i] <= 0.0 && !opps[i].is_empty())
        .collect();
    let mut est: Vec<f64> = (0..n)
        .map(|i| {
            if newcomer[i] {
                NEWCOMER_START
            } else {
                rating[i]
            }
        })
        .collect();
    if !newcomer.contains(&true) {
        return est;
    }
    for _ in 0..2000 {
        let mut moved = 0.0f64;
        let next: Vec<f64> = (0..n)
            .map(|i| {
                if !newcomer[i] {
                    return est[i];
                }
                let perf = performance_rating(system, rating, &est, &opps[i], wins[i]);
                let x = (est[i] + perf) / 2.0;
                moved = moved.max((x - est[i]).abs());
                x
            })
            .collect();
        est = next;
        if moved < 1e-9 {
            break;
        }
    }
    est
}

/// The rating at which expected wins against `opps` (at their figures in `est`) equal `wins`
/// clipped to 5%–95% of games; at least 500; at most the best rated opponent (by `rating`) +
/// 400 × wins/games.
fn performance_rating(
    system: RatingSystem,
    rating: &[f64],
    est: &[f64],
    opps: &[usize],
    wins: f64,
) -> f64 {
    let g = opps.len() as f64;
    let target = wins.clamp(0.05 * g, 0.95 * g);
    let (mut lo, mut hi) = (-10000.0f64, 10000.0f64);
    for _ in 0..100 {
        let mid = (lo + hi) / 2.0;
        let e: f64 = opps.iter().map(|&o| expectation(system, mid, est[o])).sum();
        if e < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let mut x = (lo + hi) / 2.0;
    let best_rated = opps
        .iter()
        .map(|&o| rating[o])
        .filter(|&r| r > 0.0)
        .fold(None, |m: Option<f64>, r| Some(m.map_or(r, |m| m.max(r))));
    if let Some(best) = best_rated {
        x = x.min(best + 400.0 * wins / g);
    }
    x.max(500.0)
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

    /// Each player's performance rating after round `through` (tsh's per-round performance
    /// rating): the rating at which their expected wins against the opponents they played
    /// equal their actual wins (clipped to 5%–95% of games), at least 500 and, against rated
    /// opponents, at most the best of them + 400 × wins/games; opponents at their pre-event
    /// ratings (an unrated one at the rating its own results imply). `None` for a player with
    /// no rated game yet. Played games only, as the ratings count them.
    pub fn performance_ratings(&self, through: u32) -> Vec<(PlayerId, Option<f64>)> {
        let n = self.players.len();
        let rating: Vec<f64> = self.players.iter().map(|p| p.rating as f64).collect();
        let mut opps: Vec<Vec<usize>> = vec![Vec::new(); n];
        let mut wins = vec![0.0f64; n];
        for g in self.rated_games(through) {
            opps[g.a].push(g.b);
            opps[g.b].push(g.a);
            wins[g.a] += g.a_score;
            wins[g.b] += 1.0 - g.a_score;
        }
        let system = self.config.ratings;
        let est = newcomer_ratings(system, &rating, &opps, &wins);
        self.players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let perf = (!opps[i].is_empty())
                    .then(|| performance_rating(system, &rating, &est, &opps[i], wins[i]));
                (p.id, perf)
            })
            .collect()
    }

    /// Rating estimates after round `through`, one per player (tsh `prat`/RoundRATings).
    pub fn rating_estimates(&self, through: u32) -> Vec<(PlayerId, RatingChange)> {
        let players: Vec<RatingPlayer> = self
            .players
            .iter()
            .map(|p| RatingPlayer {
                rating: p.rating as f64,
                // tsh takes unknown career games as 100 (the ratings table says so).
                career_games: p.career_games.unwrap_or(UNKNOWN_CAREER_GAMES),
            })
            .collect();
        let changes = rate_event(
            self.config.ratings,
            &players,
            &self.rated_games(through),
            self.total_rounds(),
        );
        self.players.iter().map(|p| p.id).zip(changes).collect()
    }
}
