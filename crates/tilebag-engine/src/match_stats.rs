//! The statistics of a match between two bots played in pairs of games (`tilebag selfplay`).
//!
//! Each bag (seed) is played twice with the seats swapped: the first bot sits first in one game
//! and second in the other, and both games start from the same tiles in the same order. A game
//! scores 1 for a win of the first bot, ½ for a tie, 0 for a loss; its spread is the first
//! bot's score less the second's.
//!
//! **The intervals are computed over pairs, not games.** The two games of a pair share their
//! bag, so their results are not independent: a bag that favours whoever sits first (or is
//! dealt the blanks) tends to give each bot one win, and the pair cancels that luck. Pairs are
//! independent of each other (each has its own seed), so the honest sampling unit is the pair:
//! each pair's mean result (0, ¼, ½, ¾ or 1) and mean spread are the samples, and the interval
//! is their mean ± 1.96 standard errors (the normal approximation; with hundreds of pairs
//! Student's t would differ in the third decimal). The point estimate is the same either way
//! (the mean of the pair means is the mean of the games); counting the 2n games as independent
//! samples would misstate the spread of the estimate, usually making the interval too wide
//! because the two games of a pair are negatively correlated.

/// One game as the first bot saw it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameResult {
    /// Final scores: the first bot's, then the second's.
    pub scores: [i32; 2],
    /// Bingos: the first bot's, then the second's.
    pub bingos: [u32; 2],
}

impl GameResult {
    /// 1 for a win of the first bot, ½ for a tie, 0 for a loss.
    pub fn win(&self) -> f64 {
        match self.scores[0].cmp(&self.scores[1]) {
            std::cmp::Ordering::Greater => 1.0,
            std::cmp::Ordering::Equal => 0.5,
            std::cmp::Ordering::Less => 0.0,
        }
    }

    /// The first bot's score less the second's.
    pub fn spread(&self) -> f64 {
        f64::from(self.scores[0]) - f64::from(self.scores[1])
    }
}

/// A mean and its 95% interval (`None` with fewer than two samples).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    pub mean: f64,
    pub ci95: Option<(f64, f64)>,
}

/// The two-sided 95% point of the normal distribution (1.95996…, rounded as is usual).
pub const Z95: f64 = 1.96;

impl Estimate {
    /// The mean of `samples` ± [`Z95`] standard errors, the standard error being the sample
    /// standard deviation (n − 1 in the denominator) over √n.
    pub fn of(samples: &[f64]) -> Estimate {
        let n = samples.len() as f64;
        if samples.is_empty() {
            return Estimate {
                mean: 0.0,
                ci95: None,
            };
        }
        let mean = samples.iter().sum::<f64>() / n;
        if samples.len() < 2 {
            return Estimate { mean, ci95: None };
        }
        let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
        let half = Z95 * (var / n).sqrt();
        Estimate {
            mean,
            ci95: Some((mean - half, mean + half)),
        }
    }
}

/// A match's figures.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchSummary {
    pub pairs: usize,
    pub games: usize,
    /// The first bot's share of the points (ties count half), over pairs; its interval held
    /// within 0..1.
    pub win_rate: Estimate,
    /// The first bot's mean spread a game, over pairs.
    pub spread: Estimate,
    /// Mean scores a game: the first bot's, the second's.
    pub mean_scores: [f64; 2],
    /// Bingos a game: the first bot's, the second's.
    pub bingos: [f64; 2],
}

impl MatchSummary {
    /// The figures of complete pairs (each: the same bag with the seats one way, then the
    /// other).
    pub fn of_pairs(pairs: &[[GameResult; 2]]) -> MatchSummary {
        let wins: Vec<f64> = pairs
            .iter()
            .map(|p| (p[0].win() + p[1].win()) / 2.0)
            .collect();
        let spreads: Vec<f64> = pairs
            .iter()
            .map(|p| (p[0].spread() + p[1].spread()) / 2.0)
            .collect();
        let mut win_rate = Estimate::of(&wins);
        win_rate.ci95 = win_rate
            .ci95
            .map(|(lo, hi)| (lo.clamp(0.0, 1.0), hi.clamp(0.0, 1.0)));
        let games = 2 * pairs.len();
        let per_game = |f: &dyn Fn(&GameResult) -> f64| {
            pairs.iter().flatten().map(f).sum::<f64>() / games.max(1) as f64
        };
        MatchSummary {
            pairs: pairs.len(),
            games,
            win_rate,
            spread: Estimate::of(&spreads),
            mean_scores: [
                per_game(&|g| f64::from(g.scores[0])),
                per_game(&|g| f64::from(g.scores[1])),
            ],
            bingos: [
                per_game(&|g| f64::from(g.bingos[0])),
                per_game(&|g| f64::from(g.bingos[1])),
            ],
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(a: i32, b: i32, bingos: [u32; 2]) -> GameResult {
        GameResult {
            scores: [a, b],
            bingos,
        }
    }

    #[test]
    fn a_worked_example_of_four_pairs() {
        let pairs = [
            // Won both: result 1, spreads +50 and +30 (mean 40).
            [game(450, 400, [2, 0]), game(430, 400, [1, 1])],
            // Won one, lost one: ½; +20 and -10 (mean 5).
            [game(420, 400, [1, 0]), game(390, 400, [0, 1])],
            // Tied one, lost one: ¼; 0 and -40 (mean -20).
            [game(400, 400, [0, 0]), game(360, 400, [0, 2])],
            // Won one, lost one: ½; +10 and -25 (mean -7.5).
            [game(410, 400, [1, 0]), game(375, 400, [0, 0])],
        ];
        let s = MatchSummary::of_pairs(&pairs);
        assert_eq!((s.pairs, s.games), (4, 8));
        // Win rate: the pairs' results 1, ½, ¼, ½ have mean 2.25 / 4 = 0.5625; deviations
        // .4375, -.0625, -.3125, -.0625, whose squares sum to .296875; variance .296875 / 3 =
        // .0989583, standard deviation .3145764, standard error .3145764 / √4 = .1572882;
        // 1.96 of them is .3082849: the interval is .2542151 to .8707849.
        assert!((s.win_rate.mean - 0.5625).abs() < 1e-12);
        let (lo, hi) = s.win_rate.ci95.unwrap();
        assert!((lo - 0.254_215_1).abs() < 1e-6, "{lo}");
        assert!((hi - 0.870_784_9).abs() < 1e-6, "{hi}");
        // Spread: pair means 40, 5, -20, -7.5, mean 17.5 / 4 = 4.375; squared deviations
        // 1269.140625 + .390625 + 594.140625 + 141.015625 = 2004.6875; variance 668.2292,
        // standard deviation 25.85013, standard error 12.92506; ± 25.33313: -20.95813 to
        // 29.70813.
        assert!((s.spread.mean - 4.375).abs() < 1e-12);
        let (lo, hi) = s.spread.ci95.unwrap();
        assert!((lo + 20.958_13).abs() < 1e-4, "{lo}");
        assert!((hi - 29.708_13).abs() < 1e-4, "{hi}");
        // Bingos a game: the first bot 5 in 8 games, the second 4.
        assert_eq!(s.bingos, [5.0 / 8.0, 4.0 / 8.0]);
        assert_eq!(s.mean_scores, [3235.0 / 8.0, 400.0]);
    }

    #[test]
    fn pairs_that_cancel_give_a_narrow_interval_where_games_would_not() {
        // Each bag is won by whoever sits first: every pair is one win and one loss. Over
        // pairs the result is exactly ½ every time (no spread of the estimate); counted as 20
        // independent games of 1 and 0 it would be ½ ± 0.23.
        let pairs = vec![[game(400, 380, [0, 0]), game(380, 400, [0, 0])]; 10];
        let s = MatchSummary::of_pairs(&pairs);
        assert_eq!(s.win_rate.mean, 0.5);
        assert_eq!(s.win_rate.ci95, Some((0.5, 0.5)));
        let games: Vec<f64> = pairs.iter().flatten().map(GameResult::win).collect();
        let (lo, hi) = Estimate::of(&games).ci95.unwrap();
        assert!(lo < 0.28 && hi > 0.72, "{lo} {hi}");
    }

    #[test]
    fn the_win_interval_stays_within_0_and_1_and_one_pair_has_none() {
        let pairs = [
            [game(500, 300, [0, 0]), game(500, 300, [0, 0])],
            [game(500, 300, [0, 0]), game(300, 500, [0, 0])],
            [game(500, 300, [0, 0]), game(500, 300, [0, 0])],
        ];
        let (lo, hi) = MatchSummary::of_pairs(&pairs).win_rate.ci95.unwrap();
        assert!(lo > 0.5 && hi == 1.0, "{lo} {hi}");
        let one = MatchSummary::of_pairs(&pairs[..1]);
        assert_eq!(one.win_rate.mean, 1.0);
        assert_eq!(one.win_rate.ci95, None);
        assert_eq!(MatchSummary::of_pairs(&[]).win_rate.ci95, None);
    }
}
