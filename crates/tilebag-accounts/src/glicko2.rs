//! Online ratings: Glicko-2, exactly as in Mark Glickman's "Example of the Glicko-2 system"
//! (the steps below are numbered as his), with each game its own rating period as online sites
//! do, and one rating per category: (lexicon, time-control class).
//!
//! # The algorithm
//!
//! A rating is (r, RD, σ): rating, rating deviation, volatility; a new player starts at
//! (1500, 350, 0.06). On the Glicko-2 scale μ = (r − 1500) / 173.7178 and φ = RD / 173.7178
//! (173.7178 = 400 / ln 10). For a period with games against opponents j with scores s_j:
//!
//! - g(φ) = 1 / √(1 + 3φ² / π²), E_j = 1 / (1 + exp(−g(φ_j)(μ − μ_j)));
//! - step 3: v = [Σ g(φ_j)² E_j (1 − E_j)]⁻¹, the estimated variance from the games alone;
//! - step 4: Δ = v Σ g(φ_j)(s_j − E_j), the estimated improvement;
//! - step 5: the new volatility σ' solves f(x) = 0 with
//!   f(x) = eˣ(Δ² − φ² − v − eˣ) / (2(φ² + v + eˣ)²) − (x − ln σ²) / τ², found by the Illinois
//!   algorithm (regula falsi that halves the stale end) to ε = 0.000001; σ' = e^(A/2);
//! - step 6: φ* = √(φ² + σ'²); step 7: φ' = 1 / √(1/φ*² + 1/v), μ' = μ + φ'² Σ g(φ_j)(s_j − E_j);
//! - step 8: back to r' = 173.7178 μ' + 1500, RD' = 173.7178 φ'.
//!
//! A period without games only widens the deviation: φ' = √(φ² + σ²), μ and σ unchanged.
//!
//! τ (tau) limits how fast the volatility moves; Glickman suggests 0.3–1.2, we default to 0.5
//! (his example's).
//!
//! # Online use
//!
//! Each rated game is its own rating period for both players, rated against each other's
//! rating before the game ([`Glicko2::rate_game`]). Between games a player's deviation grows as
//! if one empty period passed per [`Glicko2::period_ms`] (a day by default, as a fraction for
//! part of a day): 30 idle days take an RD of 50 to 76, a year to 205
//! ([`Glicko2::aged`]). RD never exceeds a newcomer's 350 nor goes below
//! [`Glicko2::min_deviation`] (30), so a settled rating still moves when its owner improves.
//! (With one game per period the deviation of a regular player levels out near 60 anyway:
//! each game's σ² widening balances the information one game brings.)
//!
//! # Provisional ratings
//!
//! A rating is provisional while its RD is above [`PROVISIONAL_RD`] = 110 (as on lichess):
//! then its 95% interval, r ± 2 RD, is wider than ±220 points — more than the gap between a
//! club player and an expert — so it is shown with a "?" ([`Rating::display`]) and kept off
//! leaderboards ([`CategoryRating::is_provisional`] tells the caller). A newcomer who plays established players leaves it after about ten games (see the
//! test `a_newcomer_is_provisional_for_about_ten_games`), and a player idle for about three
//! months returns to it.
//!
//! # Categories
//!
//! Ratings are kept per [`RatingCategory`]: the lexicon (a CSW player's rating says little of
//! their NWL play) and the [`TimeControlClass`], from an estimate of each player's total time:
//! `initial + 15 × increment + maximum overtime` (a crossword game has 12–15 turns per player;
//! 15 counts an increment fully), classed as
//!
//! | class | estimated time per player | e.g. |
//! |---|---|---|
//! | ultrablitz | under 3 minutes | 1+0, 2 min + 2 s |
//! | blitz | 3 to under 8 minutes | 5+0, 3 min + 5 s |
//! | rapid | 8 to under 18 minutes | 10+0, 15+0, 12 min + 10 s |
//! | regular | 18 minutes or more | 20+0, a tournament's 25 min + 10 min overtime |
//! | correspondence | a deadline per turn (hours or days), not a clock | 1 day per turn |

use serde::{Deserialize, Serialize};
use std::f64::consts::PI;
use std::fmt;

/// 400 / ln 10: from the Glicko scale to the Glicko-2 scale.
pub const SCALE: f64 = 173.7178;
/// A newcomer's rating.
pub const INITIAL_RATING: f64 = 1500.0;
/// A newcomer's deviation, and the most any rating's deviation grows to.
pub const INITIAL_DEVIATION: f64 = 350.0;
/// A newcomer's volatility.
pub const INITIAL_VOLATILITY: f64 = 0.06;
/// A rating with a deviation above this is provisional (see the module documentation).
pub const PROVISIONAL_RD: f64 = 110.0;

/// A Glicko-2 rating on the Glicko scale: r, RD and σ.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Rating {
    /// r, around 1500.
    pub rating: f64,
    /// RD: the rating's standard deviation.
    pub deviation: f64,
    /// σ: how erratic the player's results are.
    pub volatility: f64,
}

impl Default for Rating {
    fn default() -> Self {
        Rating {
            rating: INITIAL_RATING,
            deviation: INITIAL_DEVIATION,
            volatility: INITIAL_VOLATILITY,
        }
    }
}

impl Rating {
    /// A rating from its three numbers.
    pub fn new(rating: f64, deviation: f64, volatility: f64) -> Rating {
        Rating {
            rating,
            deviation,
            volatility,
        }
    }

    /// μ = (r − 1500) / 173.7178.
    pub fn mu(&self) -> f64 {
        (self.rating - INITIAL_RATING) / SCALE
    }

    /// φ = RD / 173.7178.
    pub fn phi(&self) -> f64 {
        self.deviation / SCALE
    }

    /// Whether the deviation is above [`PROVISIONAL_RD`].
    pub fn is_provisional(&self) -> bool {
        self.deviation > PROVISIONAL_RD
    }

    /// The rating rounded for display, with "?" when provisional: `1464` or `1612?`.
    pub fn display(&self) -> String {
        format!(
            "{}{}",
            self.rating.round() as i64,
            if self.is_provisional() { "?" } else { "" }
        )
    }
}

/// One game's score for the player rated: 1 a win, 0.5 a tie, 0 a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    Win,
    Tie,
    Loss,
}

impl Outcome {
    /// s_j.
    pub fn score(self) -> f64 {
        match self {
            Outcome::Win => 1.0,
            Outcome::Tie => 0.5,
            Outcome::Loss => 0.0,
        }
    }

    /// The opponent's outcome.
    pub fn reversed(self) -> Outcome {
        match self {
            Outcome::Win => Outcome::Loss,
            Outcome::Tie => Outcome::Tie,
            Outcome::Loss => Outcome::Win,
        }
    }
}

/// A game in a rating period: the opponent's rating (before the period) and the outcome.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameResult {
    pub opponent: Rating,
    pub outcome: Outcome,
}

/// The intermediate figures of one period's update (Glickman's steps 2–7), for tests and for
/// anyone checking a rating by hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Workings {
    pub mu: f64,
    pub phi: f64,
    /// Step 3's v.
    pub v: f64,
    /// Step 4's Δ.
    pub delta: f64,
    /// Step 5's σ'.
    pub volatility: f64,
    /// Step 6's φ*.
    pub phi_star: f64,
    /// Step 7's φ'.
    pub phi_new: f64,
    /// Step 7's μ'.
    pub mu_new: f64,
}

/// The system's constants.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Glicko2 {
    /// τ: how fast volatility may change (Glickman: 0.3 to 1.2).
    pub tau: f64,
    /// Step 5's convergence tolerance.
    pub epsilon: f64,
    /// One empty rating period per this many ms of idleness between games.
    pub period_ms: u64,
    /// The least deviation a rating keeps after a game.
    pub min_deviation: f64,
    /// The most deviation a rating grows to.
    pub max_deviation: f64,
}

impl Default for Glicko2 {
    fn default() -> Self {
        Glicko2 {
            tau: 0.5,
            epsilon: 0.000_001,
            period_ms: 24 * 60 * 60 * 1000,
            min_deviation: 30.0,
            max_deviation: INITIAL_DEVIATION,
        }
    }
}

fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

fn expected(mu: f64, mu_j: f64, phi_j: f64) -> f64 {
    1.0 / (1.0 + (-g(phi_j) * (mu - mu_j)).exp())
}

impl Glicko2 {
    /// The system with another τ.
    pub fn with_tau(tau: f64) -> Glicko2 {
        Glicko2 {
            tau,
            ..Glicko2::default()
        }
    }

    /// Glickman's algorithm for one rating period, unclamped, with its workings. With no
    /// games, only step 6 applies (φ' = √(φ² + σ²)).
    pub fn period_workings(&self, player: Rating, games: &[GameResult]) -> Workings {
        // Step 2.
        let mu = player.mu();
        let phi = player.phi();
        let sigma = player.volatility;
        if games.is_empty() {
            let phi_star = (phi * phi + sigma * sigma).sqrt();
            return Workings {
                mu,
                phi,
                v: f64::INFINITY,
                delta: 0.0,
                volatility: sigma,
                phi_star,
                phi_new: phi_star,
                mu_new: mu,
            };
        }
        // Steps 3 and 4.
        let mut v_inv = 0.0;
        let mut sum = 0.0;
        for game in games {
            let mu_j = game.opponent.mu();
            let phi_j = game.opponent.phi();
            let g_j = g(phi_j);
            let e_j = expected(mu, mu_j, phi_j);
            v_inv += g_j * g_j * e_j * (1.0 - e_j);
            sum += g_j * (game.outcome.score() - e_j);
        }
        let v = 1.0 / v_inv;
        let delta = v * sum;
        // Step 5.
        let volatility = self.new_volatility(phi, sigma, v, delta);
        // Steps 6 and 7.
        let phi_star = (phi * phi + volatility * volatility).sqrt();
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * sum;
        Workings {
            mu,
            phi,
            v,
            delta,
            volatility,
            phi_star,
            phi_new,
            mu_new,
        }
    }

    /// Step 5: σ' by the Illinois algorithm.
    fn new_volatility(&self, phi: f64, sigma: f64, v: f64, delta: f64) -> f64 {
        let tau = self.tau;
        let a = (sigma * sigma).ln();
        let phi2 = phi * phi;
        let delta2 = delta * delta;
        let f = |x: f64| {
            let ex = x.exp();
            ex * (delta2 - phi2 - v - ex) / (2.0 * (phi2 + v + ex).powi(2)) - (x - a) / (tau * tau)
        };
        // (a) Initial bracket.
        let mut big_a = a;
        let mut big_b = if delta2 > phi2 + v {
            (delta2 - phi2 - v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 {
                k += 1.0;
            }
            a - k * tau
        };
        let mut f_a = f(big_a);
        let mut f_b = f(big_b);
        // (b) Narrow it until it is within ε.
        while (big_b - big_a).abs() > self.epsilon {
            let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(big_c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = big_c;
            f_b = f_c;
        }
        (big_a / 2.0).exp()
    }

    /// One rating period (Glickman's steps 1–8), the deviation kept within
    /// [`min_deviation`](Self::min_deviation) and [`max_deviation`](Self::max_deviation).
    pub fn rate_period(&self, player: Rating, games: &[GameResult]) -> Rating {
        let w = self.period_workings(player, games);
        Rating {
            rating: SCALE * w.mu_new + INITIAL_RATING,
            deviation: (SCALE * w.phi_new).clamp(self.min_deviation, self.max_deviation),
            volatility: w.volatility,
        }
    }

    /// A rating after `periods` empty rating periods (a fraction allowed):
    /// φ' = √(φ² + periods × σ²), at most [`max_deviation`](Self::max_deviation).
    pub fn after_idle_periods(&self, player: Rating, periods: f64) -> Rating {
        let phi = player.phi();
        let sigma = player.volatility;
        let phi_new = (phi * phi + periods.max(0.0) * sigma * sigma).sqrt();
        Rating {
            deviation: (SCALE * phi_new).min(self.max_deviation),
            ..player
        }
    }

    /// A category rating as it stands at `now_ms`: its deviation grown for the time since its
    /// last game (one empty period per [`period_ms`](Self::period_ms)). Used both to show it
    /// and before rating a game.
    pub fn aged(&self, player: &CategoryRating, now_ms: u64) -> Rating {
        match player.last_game_ms {
            None => player.rating,
            Some(last) => {
                let periods = now_ms.saturating_sub(last) as f64 / self.period_ms.max(1) as f64;
                self.after_idle_periods(player.rating, periods)
            }
        }
    }

    /// Rates one game as its own rating period for both players, each against the other's
    /// rating as it stood when the game ended (aged to `now_ms`). Returns both new records.
    pub fn rate_game(
        &self,
        a: &CategoryRating,
        b: &CategoryRating,
        outcome_for_a: Outcome,
        now_ms: u64,
    ) -> (CategoryRating, CategoryRating) {
        let ra = self.aged(a, now_ms);
        let rb = self.aged(b, now_ms);
        let new_a = self.rate_period(
            ra,
            &[GameResult {
                opponent: rb,
                outcome: outcome_for_a,
            }],
        );
        let new_b = self.rate_period(
            rb,
            &[GameResult {
                opponent: ra,
                outcome: outcome_for_a.reversed(),
            }],
        );
        (
            CategoryRating {
                rating: new_a,
                games: a.games + 1,
                last_game_ms: Some(now_ms),
            },
            CategoryRating {
                rating: new_b,
                games: b.games + 1,
                last_game_ms: Some(now_ms),
            },
        )
    }
}

/// An account's rating in one category, as stored: the rating after its last game, how many
/// rated games it has, and when the last was.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CategoryRating {
    pub rating: Rating,
    pub games: u32,
    pub last_game_ms: Option<u64>,
}

impl CategoryRating {
    /// Whether the rating, aged to `now_ms`, is provisional.
    pub fn is_provisional(&self, system: &Glicko2, now_ms: u64) -> bool {
        system.aged(self, now_ms).is_provisional()
    }
}

/// A time control as a seek or a game states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum TimeControl {
    /// A clock per player: `initial_ms` to start, `increment_ms` added after each turn, and
    /// `max_overtime_ms` of overtime (with the rulebook's penalty) before the game ends.
    Clock {
        initial_ms: u64,
        increment_ms: u64,
        max_overtime_ms: u64,
    },
    /// A deadline per turn (correspondence play).
    Correspondence { per_turn_ms: u64 },
}

/// Turns per player counted for an increment in [`TimeControl::estimated_ms_per_player`].
pub const TURNS_PER_PLAYER: u64 = 15;

const MINUTE: u64 = 60_000;

impl TimeControl {
    /// A clock without increment or overtime, in minutes.
    pub fn minutes(initial: u64) -> TimeControl {
        TimeControl::Clock {
            initial_ms: initial * MINUTE,
            increment_ms: 0,
            max_overtime_ms: 0,
        }
    }

    /// Each player's estimated total time: `initial + 15 × increment + max overtime` (None
    /// for correspondence).
    pub fn estimated_ms_per_player(&self) -> Option<u64> {
        match *self {
            TimeControl::Clock {
                initial_ms,
                increment_ms,
                max_overtime_ms,
            } => Some(
                initial_ms
                    .saturating_add(increment_ms.saturating_mul(TURNS_PER_PLAYER))
                    .saturating_add(max_overtime_ms),
            ),
            TimeControl::Correspondence { .. } => None,
        }
    }

    /// The class (see the module documentation's table).
    pub fn class(&self) -> TimeControlClass {
        match self.estimated_ms_per_player() {
            None => TimeControlClass::Correspondence,
            Some(t) if t < 3 * MINUTE => TimeControlClass::UltraBlitz,
            Some(t) if t < 8 * MINUTE => TimeControlClass::Blitz,
            Some(t) if t < 18 * MINUTE => TimeControlClass::Rapid,
            Some(_) => TimeControlClass::Regular,
        }
    }
}

/// Time-control classes, each rated apart (see the module documentation's table).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeControlClass {
    UltraBlitz,
    Blitz,
    Rapid,
    Regular,
    Correspondence,
}

impl TimeControlClass {
    /// All classes, fastest first.
    pub const ALL: [TimeControlClass; 5] = [
        TimeControlClass::UltraBlitz,
        TimeControlClass::Blitz,
        TimeControlClass::Rapid,
        TimeControlClass::Regular,
        TimeControlClass::Correspondence,
    ];

    /// The lower-case name used in keys and URLs.
    pub fn name(self) -> &'static str {
        match self {
            TimeControlClass::UltraBlitz => "ultrablitz",
            TimeControlClass::Blitz => "blitz",
            TimeControlClass::Rapid => "rapid",
            TimeControlClass::Regular => "regular",
            TimeControlClass::Correspondence => "correspondence",
        }
    }

    /// The class named `name` (as [`name`](Self::name) writes it).
    pub fn from_name(name: &str) -> Option<TimeControlClass> {
        TimeControlClass::ALL.into_iter().find(|c| c.name() == name)
    }
}

impl fmt::Display for TimeControlClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What one rating is of: a lexicon and a time-control class.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct RatingCategory {
    /// The lexicon's name, upper case (`CSW24`, `NWL2023`, `ENABLE`).
    pub lexicon: String,
    pub class: TimeControlClass,
}

impl RatingCategory {
    /// The category of a game in `lexicon` under `time_control` (the lexicon's name is
    /// upper-cased, so `csw24` and `CSW24` share a rating).
    pub fn of(lexicon: &str, time_control: &TimeControl) -> RatingCategory {
        RatingCategory {
            lexicon: lexicon.to_ascii_uppercase(),
            class: time_control.class(),
        }
    }

    /// The key a store files the rating under: `CSW24.blitz`.
    pub fn key(&self) -> String {
        format!("{}.{}", self.lexicon, self.class)
    }

    /// Reads a key written by [`key`](Self::key).
    pub fn from_key(key: &str) -> Option<RatingCategory> {
        let (lexicon, class) = key.rsplit_once('.')?;
        if lexicon.is_empty() {
            return None;
        }
        Some(RatingCategory {
            lexicon: lexicon.to_string(),
            class: TimeControlClass::from_name(class)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// Glickman's worked example: a 1500/200/0.06 player beats a 1400/30, loses to a 1550/100
    /// and to a 1700/300, τ = 0.5.
    fn glickman_example() -> (Rating, [GameResult; 3]) {
        (
            Rating::new(1500.0, 200.0, 0.06),
            [
                GameResult {
                    opponent: Rating::new(1400.0, 30.0, 0.06),
                    outcome: Outcome::Win,
                },
                GameResult {
                    opponent: Rating::new(1550.0, 100.0, 0.06),
                    outcome: Outcome::Loss,
                },
                GameResult {
                    opponent: Rating::new(1700.0, 300.0, 0.06),
                    outcome: Outcome::Loss,
                },
            ],
        )
    }

    #[test]
    fn glickmans_worked_example() {
        let (player, games) = glickman_example();
        let system = Glicko2::with_tau(0.5);
        let w = system.period_workings(player, &games);
        // Step 2: μ = (1500 − 1500)/173.7178 = 0; φ = 200/173.7178 = 1.1513.
        assert!(close(w.mu, 0.0, 1e-12));
        assert!(close(w.phi, 1.1513, 1e-4), "phi {}", w.phi);
        // The opponents: μ_j = −0.5756, 0.2878, 1.1513; φ_j = 0.1727, 0.5756, 1.7269;
        // g(φ_j) = 0.9955, 0.9531, 0.7242; E = 0.639, 0.432, 0.303.
        let rows: Vec<(f64, f64, f64, f64)> = games
            .iter()
            .map(|gr| {
                let (mj, pj) = (gr.opponent.mu(), gr.opponent.phi());
                (mj, pj, g(pj), expected(0.0, mj, pj))
            })
            .collect();
        let want = [
            (-0.5756, 0.1727, 0.9955, 0.639),
            (0.2878, 0.5756, 0.9531, 0.432),
            (1.1513, 1.7269, 0.7242, 0.303),
        ];
        for (got, want) in rows.iter().zip(want) {
            assert!(close(got.0, want.0, 1e-4), "{got:?} {want:?}");
            assert!(close(got.1, want.1, 1e-4), "{got:?} {want:?}");
            assert!(close(got.2, want.2, 1e-4), "{got:?} {want:?}");
            assert!(close(got.3, want.3, 1e-3), "{got:?} {want:?}");
        }
        // Step 3: v = [0.9955²·0.639·0.361 + 0.9531²·0.432·0.568 + 0.7242²·0.303·0.697]⁻¹
        //           = [0.2286 + 0.2229 + 0.1108]⁻¹ = 1.7785 with Glickman's rounded E's;
        // unrounded 1.778977.
        assert!(close(w.v, 1.7785, 1e-3), "v {}", w.v);
        assert!(close(w.v, 1.778977, 1e-6), "v {}", w.v);
        // Step 4: Δ = 1.7785 × [0.9955(1 − 0.639) + 0.9531(0 − 0.432) + 0.7242(0 − 0.303)]
        //           = 1.7785 × (−0.2717) = −0.4834; unrounded −0.483933.
        assert!(close(w.delta, -0.4834, 1e-3), "delta {}", w.delta);
        assert!(close(w.delta, -0.483933, 1e-6), "delta {}", w.delta);
        // Step 5: σ' = 0.05999.
        assert!(close(w.volatility, 0.05999, 1e-5), "sigma {}", w.volatility);
        // Step 6: φ* = √(1.1513² + 0.05999²) = 1.152862.
        assert!(close(w.phi_star, 1.152862, 1e-5), "phi* {}", w.phi_star);
        // Step 7: φ' = 1/√(1/1.152862² + 1/1.7785) = 0.8722; μ' = 0 + 0.8722² × (−0.2717)
        //           = −0.2069.
        assert!(close(w.phi_new, 0.8722, 1e-4), "phi' {}", w.phi_new);
        assert!(close(w.mu_new, -0.2069, 1e-4), "mu' {}", w.mu_new);
        // Step 8: r' = 173.7178 × (−0.2069) + 1500 = 1464.06; RD' = 173.7178 × 0.8722 = 151.52.
        // (Glickman rounds at each step; unrounded, r' = 1464.0507, 0.0093 below his figure.)
        let r = system.rate_period(player, &games);
        assert!(close(r.rating, 1464.06, 0.01), "r' {}", r.rating);
        assert!(close(r.rating, 1464.0507, 1e-4), "r' {}", r.rating);
        assert!(close(r.deviation, 151.52, 0.01), "RD' {}", r.deviation);
        assert!(close(r.deviation, 151.5165, 1e-4), "RD' {}", r.deviation);
        assert!(
            close(r.volatility, 0.05999, 1e-5),
            "sigma' {}",
            r.volatility
        );
    }

    #[test]
    fn a_bigger_tau_lets_volatility_move_more_after_a_surprise() {
        // A 1500/50 player loses to a 1100/50: far more surprising than the model expects.
        let player = Rating::new(1500.0, 50.0, 0.06);
        let games = [GameResult {
            opponent: Rating::new(1100.0, 50.0, 0.06),
            outcome: Outcome::Loss,
        }];
        let low = Glicko2::with_tau(0.3)
            .rate_period(player, &games)
            .volatility;
        let high = Glicko2::with_tau(1.2)
            .rate_period(player, &games)
            .volatility;
        assert!(low > 0.06 && high > low, "{low} {high}");
    }

    #[test]
    fn a_period_without_games_only_widens_the_deviation() {
        // φ* = √(φ² + σ²): RD 200 → 173.7178 × √(1.151292² + 0.06²) = 173.7178 × √1.329074
        // = 173.7178 × 1.152855 = 200.2714.
        let system = Glicko2::default();
        let r = system.rate_period(Rating::new(1600.0, 200.0, 0.06), &[]);
        assert_eq!(r.rating, 1600.0);
        assert_eq!(r.volatility, 0.06);
        assert!(close(r.deviation, 200.2714, 1e-4), "{}", r.deviation);
        // Never past a newcomer's 350.
        let r = system.rate_period(Rating::new(1600.0, 349.9, 0.06), &[]);
        assert_eq!(r.deviation, 350.0);
    }

    #[test]
    fn idle_time_grows_the_deviation_by_whole_and_part_days() {
        let system = Glicko2::default();
        const DAY: u64 = 24 * 60 * 60 * 1000;
        let settled = CategoryRating {
            rating: Rating::new(1800.0, 50.0, 0.06),
            games: 100,
            last_game_ms: Some(1_000 * DAY),
        };
        // 30 days: φ = 50/173.7178 = 0.287823; φ' = √(0.287823² + 30 × 0.06²)
        //        = √(0.082842 + 0.108) = √0.190842 = 0.436855 → RD 75.89.
        let month = system.aged(&settled, 1_030 * DAY);
        assert!(close(month.deviation, 75.89, 0.01), "{}", month.deviation);
        assert_eq!(month.rating, 1800.0);
        // A year: √(0.082842 + 365 × 0.0036) = √1.396842 = 1.181881 → RD 205.31.
        let year = system.aged(&settled, 1_365 * DAY);
        assert!(close(year.deviation, 205.31, 0.01), "{}", year.deviation);
        // Half a day counts half: √(0.082842 + 0.5 × 0.0036) = 0.290938 → RD 50.54.
        let half = system.aged(&settled, 1_000 * DAY + DAY / 2);
        assert!(close(half.deviation, 50.54, 0.01), "{}", half.deviation);
        // Idle for about three months, a settled player is provisional again:
        // (110/173.7178)² = 0.400954; (0.400954 − 0.082842) / 0.0036 = 88.4 days.
        assert!(!settled.is_provisional(&system, 1_088 * DAY));
        assert!(settled.is_provisional(&system, 1_089 * DAY));
    }

    #[test]
    fn a_game_rates_both_players_against_each_others_rating_before_it() {
        let system = Glicko2::default();
        let a = CategoryRating {
            rating: Rating::new(1500.0, 200.0, 0.06),
            games: 3,
            last_game_ms: Some(5_000),
        };
        let b = CategoryRating {
            rating: Rating::new(1400.0, 30.0, 0.06),
            games: 40,
            last_game_ms: Some(5_000),
        };
        // Rated at the moment of the last game: no idle growth.
        let (a2, b2) = system.rate_game(&a, &b, Outcome::Win, 5_000);
        assert_eq!(a2.games, 4);
        assert_eq!(b2.games, 41);
        assert_eq!(a2.last_game_ms, Some(5_000));
        let a_direct = system.rate_period(
            a.rating,
            &[GameResult {
                opponent: b.rating,
                outcome: Outcome::Win,
            }],
        );
        let b_direct = system.rate_period(
            b.rating,
            &[GameResult {
                opponent: a.rating,
                outcome: Outcome::Loss,
            }],
        );
        assert_eq!(a2.rating, a_direct);
        assert_eq!(b2.rating, b_direct);
        // The uncertain winner gains much; the settled loser loses little.
        let gain = a2.rating.rating - 1500.0;
        let loss = 1400.0 - b2.rating.rating;
        assert!(
            gain > 50.0 && loss > 0.0 && loss < 5.0,
            "gain {gain} loss {loss}"
        );
        // A tie between equals changes neither rating.
        let (x, y) = system.rate_game(
            &CategoryRating::default(),
            &CategoryRating::default(),
            Outcome::Tie,
            0,
        );
        assert!(close(x.rating.rating, 1500.0, 1e-9) && close(y.rating.rating, 1500.0, 1e-9));
        assert!(x.rating.deviation < 350.0);
    }

    #[test]
    fn a_newcomer_is_provisional_for_about_ten_games() {
        let system = Glicko2::default();
        let mut me = CategoryRating::default();
        let opponent = CategoryRating {
            rating: Rating::new(1500.0, 50.0, 0.06),
            games: 500,
            last_game_ms: Some(0),
        };
        let mut games = 0;
        while me.is_provisional(&system, games * 1000) {
            let outcome = if games % 2 == 0 {
                Outcome::Win
            } else {
                Outcome::Loss
            };
            me = system.rate_game(&me, &opponent, outcome, games * 1000).0;
            games += 1;
        }
        // Each game against a settled equal adds about g² E(1 − E) = 0.976 × 0.25 = 0.244 to
        // 1/φ²; from 1/φ² = 0.246 (RD 350) to 2.494 (RD 110) needs (2.494 − 0.246) / 0.244
        // ≈ 9.2 games, so the 10th game ends it.
        assert_eq!(games, 10);
        assert!(me.rating.deviation <= PROVISIONAL_RD);
        assert_eq!(Rating::new(1612.4, 111.0, 0.06).display(), "1612?");
        assert_eq!(Rating::new(1464.05, 90.0, 0.06).display(), "1464");
    }

    #[test]
    fn per_game_periods_level_the_deviation_out_near_sixty_and_the_floor_holds() {
        let system = Glicko2::default();
        let tie = GameResult {
            opponent: Rating::new(1700.0, 30.0, 0.06),
            outcome: Outcome::Tie,
        };
        // One game per period: each adds σ² to φ² and one game's information to 1/φ², so φ
        // settles where 1/φ² − 1/(φ² + σ²) = g² E (1 − E) ≈ 0.245: φ² ≈ 0.12, RD ≈ 60. The
        // floor of 30 is not what holds it.
        let mut me = Rating::new(1700.0, 31.0, 0.06);
        for _ in 0..100 {
            me = system.rate_period(me, &[tie]);
        }
        assert!((55.0..62.0).contains(&me.deviation), "{}", me.deviation);
        // Twenty games in one period would take it below 30: the floor stops it there.
        let mut me = Rating::new(1700.0, 31.0, 0.06);
        for _ in 0..3 {
            me = system.rate_period(me, &[tie; 20]);
        }
        assert_eq!(me.deviation, 30.0);
    }

    #[test]
    fn time_control_classes() {
        let c = |initial_s: u64, increment_s: u64, overtime_s: u64| {
            TimeControl::Clock {
                initial_ms: initial_s * 1000,
                increment_ms: increment_s * 1000,
                max_overtime_ms: overtime_s * 1000,
            }
            .class()
        };
        use TimeControlClass::*;
        assert_eq!(c(60, 0, 0), UltraBlitz);
        // 2 min + 15 × 2 s = 2.5 min.
        assert_eq!(c(120, 2, 0), UltraBlitz);
        // 2 min + 15 × 4 s = 3 min: the first blitz.
        assert_eq!(c(120, 4, 0), Blitz);
        assert_eq!(c(5 * 60, 0, 0), Blitz);
        // 3 min + 15 × 5 s = 4.25 min.
        assert_eq!(c(180, 5, 0), Blitz);
        // 7 min + 1 min overtime = 8 min.
        assert_eq!(c(7 * 60, 0, 60), Rapid);
        assert_eq!(c(15 * 60, 0, 0), Rapid);
        // 12 min + 15 × 10 s = 14.5 min.
        assert_eq!(c(12 * 60, 10, 0), Rapid);
        assert_eq!(c(17 * 60 + 59, 0, 0), Rapid);
        assert_eq!(c(18 * 60, 0, 0), Regular);
        // A NASPA tournament clock: 25 minutes and up to 10 minutes of overtime = 35.
        assert_eq!(c(25 * 60, 0, 10 * 60), Regular);
        assert_eq!(
            TimeControl::Correspondence {
                per_turn_ms: 24 * 3600 * 1000
            }
            .class(),
            Correspondence
        );
        assert_eq!(
            TimeControl::minutes(10).estimated_ms_per_player(),
            Some(600_000)
        );
    }

    #[test]
    fn rating_categories_have_stable_keys() {
        let cat = RatingCategory::of("csw24", &TimeControl::minutes(5));
        assert_eq!(cat.key(), "CSW24.blitz");
        assert_eq!(RatingCategory::from_key("CSW24.blitz"), Some(cat));
        assert_eq!(
            RatingCategory::of("NWL2023", &TimeControl::minutes(25)).key(),
            "NWL2023.regular"
        );
        assert_eq!(RatingCategory::from_key("CSW24.bullet"), None);
        assert_eq!(RatingCategory::from_key(".blitz"), None);
        for class in TimeControlClass::ALL {
            assert_eq!(TimeControlClass::from_name(class.name()), Some(class));
        }
    }
}
