//! Training a full leave table from nothing by self-play (`tilebag leaves train --full`).
//!
//! **Generations.** Generation 0's table is all zeros (the static player then plays for score
//! alone) or, if asked, tilebag's own weights model evaluated on every leave. Each generation
//! the static player plays `games_per_generation` games against itself with the previous
//! generation's table; leaves are valued by what they were worth on the turn after (by
//! rollout, or as the game went), and at the end of the generation those values, blended with
//! an estimate for rare leaves, become the next table.
//!
//! **By rollout** ([`rollout_samples`], the default). At each turn with 14 or more tiles in the
//! bag, up to 32 leaves the mover's rack could keep (keeping nothing always among them) are each
//! filled up from the unseen tiles, and the static player's best move with that rack on that
//! board is the sample: its score plus the previous table's value of what it keeps
//! ([`outcome`]). A leave's value is its mean sample less the mean of keeping nothing (which a
//! table reads as 0: [`Sums::baseline`]). This is the same one-step lookahead as below, but every
//! leave a player could keep is sampled, not only the one kept, and rare leaves as often as
//! common ones: about four times as many samples an hour, spread over far more leaves.
//!
//! **As the game went** (`rollouts` 0; [`outcome`]). For each move a player makes while the bag holds tiles
//! (a placement or an exchange, not a pass: a pass keeps seven tiles, which no table values),
//! the sample is (the leave kept, `y`), where `y` is the points that player scores on their
//! next turn plus the previous table's value of the leave that next turn keeps (0 if that turn
//! leaves the bag empty: an endgame leave is valued by the endgame search, not the table). A
//! leave's value is then the mean of `y` over its samples less the mean of `y` over all
//! samples. This is one step of temporal-difference learning of "the points to come, compared
//! with an average rack": the next turn's score measures what the leave is worth at once, and
//! the next leave's value carries what it is worth later (a blank kept through a turn to make a
//! bingo two turns on), which the next turn's score alone would miss. The spread change (our
//! points less the opponent's) was the alternative; the opponent's score hardly depends on what
//! we keep but adds its own variance (a bingo is 50 points either way), so it would need several
//! times as many games for the same precision.
//!
//! **Rare leaves** ([`blend`], [`fit_model`], [`prior_weight`]). Of 914,624 English leaves most
//! six-tile ones are never kept in thousands of games, many are kept a handful of times, and
//! even single tiles are rare leaves (kept only by six-tile plays). Each leave's mean is shrunk
//! towards a prior, weighted by its count (a credibility, or Bayesian normal–normal, blend):
//! `v = (n·m + k·p) / (n + k)`, where `n` is the leave's number of samples, `m` its centred
//! mean, `p` the prior and `k` the prior's weight in samples. The prior has two parts:
//! - what all the samples say about the leave's tiles: tilebag's small weights model (each
//!   tile's first, second and third copy, the vowel–consonant balance, Q with U) fitted by
//!   weighted least squares to every leave's mean ([`fit_model`]); a leave never seen still
//!   has its tiles seen thousands of times in other leaves;
//! - what its sub-leaves learned beyond the model: `mean over the distinct tiles t of
//!   (v(L−t) − model(L−t))`, so a leave inherits its sub-leaves' synergies (a bingo-prone
//!   five-tile leave passes its excess to its six-tile extensions).
//!
//! Leaves are valued shortest first, so the sub-leaves are already blended; a leave never seen
//! gets its prior. `k` is estimated for each leave length from the data (Bühlmann–Straub: the
//! variance of a sample within a leave over the variance of the leaves' true values around
//! their priors, at most [`MAX_PRIOR_WEIGHT`]) unless given. For leaves one or two tiles short
//! of a full rack the prior also has a bingo term ([`bingo_chances`]): a line in the share of
//! draws that make a seven-letter word, fitted to what the samples say beyond the rest of the
//! prior.
//!
//! **Carry.** At the start of a generation the sums and counts are multiplied by `carry`
//! (0: each generation starts afresh; 0.5: the previous generation's samples count half), so
//! rare leaves keep some of what earlier generations saw.
//!
//! **Resumable.** [`TrainState`] holds the generation, the games played in it, the table being
//! played with and the sums and counts; it is written to a file ([`TrainState::save`]) and read
//! back ([`TrainState::load`]). Game `i` of generation `g` always has the same bag and the same
//! rollout draws (their seed is made from the training seed, `g` and `i`) and each game's
//! samples are added in game order, so a run that is stopped and resumed ends with exactly the
//! table an uninterrupted run makes. That holds only under the same settings, so the state also
//! keeps those that shape what is learned ([`RunSettings`]: games a generation, rollouts, carry,
//! prior weight, bingo prior) and a run under others is refused ([`TrainState::check_settings`]);
//! threads and batches change nothing learned.
//!
//! It never reads any leave file: generation 0 is zeros or tilebag's own weights.

use crate::engine::{sub_racks, Engine, Situation};
use crate::grid::Tables;
use crate::leave_table::{LeaveModel, LeaveShape, LeaveTable, MAX_LEAVE};
use crate::leaves::Leaves;
use crate::movegen::Prepared;
use crate::moves::{Move, MoveKind};
use crate::rack::Rack;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use tilebag_core::bag::Rng;
use tilebag_core::{Action, Actor, Event, Game, Phase, Ruleset};
use tilebag_lexicon::Lexicon;

/// What generation 0 plays with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// Every leave worth 0: the static player plays for score alone.
    Zero,
    /// tilebag's built-in weights model, evaluated on every leave.
    Weights,
}

impl Start {
    fn code(self) -> u8 {
        match self {
            Start::Zero => 0,
            Start::Weights => 1,
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct TableTrainConfig {
    /// Generations to train in all (counting those already in the state).
    pub generations: u32,
    pub games_per_generation: u64,
    /// Games between two calls of the progress callback (and so between two saves).
    pub batch: u64,
    pub threads: usize,
    /// The prior's weight in samples; `None`: estimated per leave length ([`prior_weight`]).
    pub prior_weight: Option<f64>,
    /// What the sums and counts keep of the previous generations (0 to 1).
    pub carry: f64,
    pub seed: u64,
    pub start: Start,
    /// Leaves valued by rollout at each turn ([`rollout_samples`]); 0: each leave is valued by
    /// the turn that followed it in the game ([`outcome`]).
    pub rollouts: usize,
    /// Whether the prior of the leaves one or two tiles short of a full rack has a bingo term
    /// ([`bingo_chances`], [`next_table`]).
    pub bingo_prior: bool,
}

impl Default for TableTrainConfig {
    fn default() -> TableTrainConfig {
        TableTrainConfig {
            generations: 4,
            games_per_generation: 20_000,
            batch: 200,
            threads: 1,
            prior_weight: None,
            carry: 0.5,
            seed: 0x7AB1E,
            start: Start::Zero,
            rollouts: DEFAULT_ROLLOUTS,
            bingo_prior: true,
        }
    }
}

/// The settings that shape what a run learns (not how fast it goes: threads and batches change
/// nothing it learns). A state keeps them, so that a run stopped and resumed with other settings
/// is refused rather than mixing two runs' samples in one table.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RunSettings {
    pub games_per_generation: u64,
    pub rollouts: usize,
    pub carry: f64,
    pub prior_weight: Option<f64>,
    pub bingo_prior: bool,
}

impl RunSettings {
    pub fn of(cfg: &TableTrainConfig) -> RunSettings {
        RunSettings {
            games_per_generation: cfg.games_per_generation,
            rollouts: cfg.rollouts,
            carry: cfg.carry,
            prior_weight: cfg.prior_weight,
            bingo_prior: cfg.bingo_prior,
        }
    }

    /// Each setting where `asked` differs from these, as `tilebag leaves train` names it:
    /// `--rollouts 32 (this run: 16)`.
    pub fn differences(&self, asked: &RunSettings) -> Vec<String> {
        let mut out = Vec::new();
        let mut differs = |name: &str, had: String, now: String| {
            if had != now {
                out.push(format!("{name} {had} (this run: {now})"));
            }
        };
        differs(
            "--games-per-generation",
            self.games_per_generation.to_string(),
            asked.games_per_generation.to_string(),
        );
        differs(
            "--rollouts",
            self.rollouts.to_string(),
            asked.rollouts.to_string(),
        );
        differs("--carry", self.carry.to_string(), asked.carry.to_string());
        let weight = |w: Option<f64>| w.map_or_else(|| "estimated".to_string(), |w| w.to_string());
        differs(
            "--prior-weight",
            weight(self.prior_weight),
            weight(asked.prior_weight),
        );
        let bingo = |b: bool| if b { "with" } else { "without" }.to_string();
        differs(
            "the bingo prior",
            bingo(self.bingo_prior),
            bingo(asked.bingo_prior),
        );
        out
    }

    /// Bytes in a state file.
    const LEN: usize = 8 + 8 + 8 + 1 + 8 + 1;

    fn write(&self, b: &mut Vec<u8>) {
        b.extend_from_slice(&self.games_per_generation.to_le_bytes());
        b.extend_from_slice(&(self.rollouts as u64).to_le_bytes());
        b.extend_from_slice(&self.carry.to_le_bytes());
        b.push(u8::from(self.prior_weight.is_some()));
        b.extend_from_slice(&self.prior_weight.unwrap_or(0.0).to_le_bytes());
        b.push(u8::from(self.bingo_prior));
    }

    fn read(b: &[u8]) -> Option<RunSettings> {
        let u64_at = |at: usize| Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?));
        let flag = |at: usize| match b.get(at) {
            Some(0) => Some(false),
            Some(1) => Some(true),
            _ => None,
        };
        let weight = f64::from_bits(u64_at(25)?);
        Some(RunSettings {
            games_per_generation: u64_at(0)?,
            rollouts: usize::try_from(u64_at(8)?).ok()?,
            carry: f64::from_bits(u64_at(16)?),
            prior_weight: flag(24)?.then_some(weight),
            bingo_prior: flag(33)?,
        })
    }
}

/// The samples gathered so far, by leave rank: `y`'s sum, sum of squares and count.
#[derive(Clone, Debug, PartialEq)]
pub struct Sums {
    pub sum: Vec<f64>,
    pub sumsq: Vec<f64>,
    pub count: Vec<f64>,
    /// Over every sample.
    pub total_sum: f64,
    pub total_count: f64,
}

impl Sums {
    pub fn new(len: usize) -> Sums {
        Sums {
            sum: vec![0.0; len],
            sumsq: vec![0.0; len],
            count: vec![0.0; len],
            total_sum: 0.0,
            total_count: 0.0,
        }
    }

    pub fn add(&mut self, rank: usize, y: f64) {
        self.sum[rank] += y;
        self.sumsq[rank] += y * y;
        self.count[rank] += 1.0;
        self.total_sum += y;
        self.total_count += 1.0;
    }

    /// Multiplies everything by `f` (what a new generation keeps of the old samples).
    pub fn scale(&mut self, f: f64) {
        for v in self
            .sum
            .iter_mut()
            .chain(self.sumsq.iter_mut())
            .chain(self.count.iter_mut())
        {
            *v *= f;
        }
        self.total_sum *= f;
        self.total_count *= f;
    }

    /// What a leave's value is measured from: the mean of `y` after keeping nothing where that
    /// was sampled (rollouts value the empty leave too, and a table reads it as 0), else the
    /// mean over every sample.
    pub fn baseline(&self) -> f64 {
        match (self.count.first(), self.sum.first()) {
            (Some(&n), Some(&sum)) if n >= 1.0 => sum / n,
            _ => self.mean(),
        }
    }

    /// The mean of `y` over every sample (0 if none).
    pub fn mean(&self) -> f64 {
        if self.total_count > 0.0 {
            self.total_sum / self.total_count
        } else {
            0.0
        }
    }
}

/// The leave kept after `m` from `rack`.
fn kept(rack: &Rack, m: &Move) -> Rack {
    rack.minus(&m.used())
}

/// A sample's outcome (see the module): the points of the next turn, plus the value of the
/// leave it keeps if the bag still holds tiles after it (`bag_after`).
pub fn outcome(next_score: i32, next_leave_value: f32, bag_after: usize) -> f64 {
    let later = if bag_after > 0 {
        f64::from(next_leave_value)
    } else {
        0.0
    };
    f64::from(next_score) + later
}

/// Tiles in the bag after `m` is made with `bag` tiles in it (a play draws what it placed, an
/// exchange draws as many as it returns).
fn bag_after(bag: usize, m: &Move) -> usize {
    match m.kind {
        MoveKind::Place => bag.saturating_sub(usize::from(m.tiles_played)),
        MoveKind::Exchange | MoveKind::Pass => bag,
    }
}

/// Leaves valued by rollout at each turn, by default: about a quarter of a rack's 127.
pub const DEFAULT_ROLLOUTS: usize = 32;

/// Turns with fewer tiles than this in the bag are not rolled out ([`rollout_samples`]).
pub const ROLLOUT_MIN_BAG: usize = 14;

/// The tiles a rollout takes the opponent to draw between our two turns (about what a play
/// uses), so that the bag a rolled-out turn sees is about what our next turn would see.
const ROLLOUT_OPPONENT_DRAW: usize = 4;

/// Rollout samples for the position `s` (the player on turn's view, the bag holding at least
/// [`ROLLOUT_MIN_BAG`] tiles): up to `per_turn` distinct leaves of the player's rack, the empty
/// one always among them, each valued by what keeping it is worth on the next turn. The leave
/// is filled up to a full rack with tiles drawn at random from the unseen ones, and the static
/// player's best move with that rack on this board gives `y` ([`outcome`]: its score plus the
/// value of what it keeps). Every leave a player could have kept is valued this way, not only
/// the one kept, and rare leaves are valued as often as common ones; the board is the one the
/// leave would be kept on (the opponent's move in between is not played).
pub fn rollout_samples(
    engine: &Engine<'_>,
    s: &Situation,
    per_turn: usize,
    rng: &mut Rng,
    out: &mut Vec<(u32, f32)>,
) {
    if per_turn == 0 || s.bag_len < ROLLOUT_MIN_BAG {
        return;
    }
    let table = engine.leaves;
    let shape = table.shape();
    let rack_size = engine.tables.rack_size;
    let mut leaves: Vec<Rack> = sub_racks(&s.rack)
        .into_iter()
        .filter(|l| l.len() <= shape.max_len() && l.len() < rack_size)
        .collect();
    // A random `per_turn - 1` of them, after the empty leave.
    let take = per_turn.saturating_sub(1).min(leaves.len());
    shuffle_front(&mut leaves, take, rng);
    leaves.truncate(take);
    let prep = Prepared::new(&s.grid, &engine.graphs, engine.tables);
    let mut pool = s.unseen.codes();
    let mut next = s.clone();
    let mut value_of = |leave: Rack| -> Option<f64> {
        let draw = rack_size - leave.len();
        if pool.len() < draw {
            return None;
        }
        shuffle_front(&mut pool, draw, rng);
        next.rack = leave;
        next.unseen = s.unseen;
        for &c in &pool[..draw] {
            next.rack.add(c);
            next.unseen.take(c);
        }
        next.bag_len = s.bag_len - draw - ROLLOUT_OPPONENT_DRAW;
        let m = engine.best_static_prepared(&next, &prep);
        let left = kept(&next.rack, &m);
        Some(outcome(
            m.score,
            table.value(&left),
            bag_after(next.bag_len, &m),
        ))
    };
    if let Some(y) = value_of(Rack::default()) {
        out.push((0, y as f32));
    }
    for leave in leaves {
        let Some(rank) = shape.rank(&leave) else {
            continue;
        };
        if let Some(y) = value_of(leave) {
            out.push((rank as u32, y as f32));
        }
    }
}

/// Puts a uniformly random `k` of `v`'s items, in random order, at its front (the first `k`
/// steps of a Fisher–Yates shuffle).
fn shuffle_front<T>(v: &mut [T], k: usize, rng: &mut Rng) {
    for i in 0..k.min(v.len()) {
        let j = i + rng.below(v.len() - i);
        v.swap(i, j);
    }
}

/// The (leave rank, outcome) samples of one game of the static player against itself: each
/// leave kept valued by the turn that followed it ([`outcome`]), or with `rollouts` above 0,
/// that many leaves of each turn's rack valued by rollout ([`rollout_samples`]).
pub fn samples_of_game(
    engine: &Engine<'_>,
    ruleset: &Ruleset,
    seed: u64,
    rollouts: usize,
) -> Vec<(u32, f32)> {
    let table = engine.leaves;
    let shape = table.shape();
    let mut rng = Rng::new(seed ^ 0x5EED_0FA1_10E7);
    let mut game = Game::new(ruleset.clone(), seed);
    // Per seat: the rank of the leave kept last turn, awaiting that seat's next turn.
    let mut waiting: [Option<usize>; 2] = [None, None];
    let mut out = Vec::with_capacity(32);
    let mut at = 0i64;
    for _ in 0..1000 {
        if game.is_over() {
            break;
        }
        at += 1000;
        let seat = game.to_move();
        let action = match game.phase() {
            Phase::PlayPending { out: true, .. } => Action::Accept,
            Phase::Ended { .. } => break,
            _ => {
                let s = Situation::from_game(&game, seat);
                let m = engine.best(&s);
                let leave = kept(&s.rack, &m);
                if rollouts > 0 {
                    rollout_samples(engine, &s, rollouts, &mut rng, &mut out);
                } else if let Some(rank) = waiting[seat].take() {
                    let after = bag_after(s.bag_len, &m);
                    let y = outcome(m.score, table.value(&leave), after);
                    out.push((rank as u32, y as f32));
                }
                if s.bag_len > 0 && m.kind != MoveKind::Pass {
                    waiting[seat] = shape.rank(&leave).filter(|&r| r > 0);
                }
                m.action()
            }
        };
        let ev = Event {
            actor: Actor::Seat(seat),
            at_ms: at,
            action,
        };
        if game.apply(&ev, engine.lexicon).is_err() {
            let pass = Event {
                actor: Actor::Seat(seat),
                at_ms: at,
                action: Action::Pass,
            };
            if game.apply(&pass, engine.lexicon).is_err() {
                break;
            }
        }
    }
    out
}

/// The credibility blend: `n` samples of mean `m`, a prior `p` worth `k` samples.
pub fn blend(n: f64, m: f64, p: f64, k: f64) -> f64 {
    if n + k <= 0.0 {
        return p;
    }
    (n * m + k * p) / (n + k)
}

/// The most (and least) a prior may weigh, in samples.
pub const MAX_PRIOR_WEIGHT: f64 = 1000.0;

/// Bühlmann–Straub's estimate of the prior's weight for a group of leaves, from each leave's
/// (count, sum, sum of squares, prior), the outcomes already centred: the within-leave variance
/// `σ²` (pooled over the leaves of two samples or more) over the variance `τ²` of the leaves'
/// true values around their priors. A leave of `n` samples whose mean is `d` from its prior and
/// whose samples vary by `s²` about their mean has `E[n·d² − s²] = n·τ²`, so
/// `τ² = Σ (n·d² − s²) / Σ n` over the leaves seen twice or more (the well-sampled leaves, whose
/// `d` is precise, weigh most). Each leave's own `s²` is used, not the pooled `σ²`: the
/// outcomes of a bingo-prone leave (a bingo or not) vary far more than a poor leave's, and
/// subtracting a pooled variance from the quiet leaves would hide the spread of the leaves'
/// values. `None` if fewer than 5 leaves were seen twice; otherwise from 1 to
/// [`MAX_PRIOR_WEIGHT`] (also when `τ²` comes out as 0 or less: the data cannot tell the leaves
/// from their priors).
pub fn prior_weight(groups: &[(f64, f64, f64, f64)]) -> Option<f64> {
    let mut ss = 0.0;
    let mut dof = 0.0;
    let mut twice = 0usize;
    let (mut signal, mut total) = (0.0, 0.0);
    for &(n, sum, sumsq, p) in groups {
        if n >= 2.0 {
            let own_ss = (sumsq - sum * sum / n).max(0.0);
            ss += own_ss;
            dof += n - 1.0;
            twice += 1;
            let d = sum / n - p;
            signal += n * d * d - own_ss / (n - 1.0);
            total += n;
        }
    }
    if twice < 5 || dof <= 0.0 {
        return None;
    }
    let sigma2 = ss / dof;
    let tau2 = signal / total;
    let k = if tau2 <= 0.0 {
        MAX_PRIOR_WEIGHT
    } else {
        sigma2 / tau2
    };
    Some(k.clamp(1.0, MAX_PRIOR_WEIGHT))
}

/// A least-squares fit of tilebag's weights model (each tile's first, second and third copy,
/// the vowel–consonant balance, Q with U: [`Leaves::features`]) to every leave's centred mean
/// outcome, weighted by its count: what all the samples say about a leave, however rare it is.
/// Solved exactly (normal equations, 146 weights, with a ridge of one sample's weight so that
/// a feature never seen gets 0).
pub fn fit_model(shape: &LeaveShape, sums: &Sums) -> Leaves {
    const W: usize = Leaves::WEIGHTS;
    let mean = sums.baseline();
    let mut a = vec![0f64; W * W];
    let mut b = vec![0f64; W];
    let mut feats = Vec::new();
    shape.for_each_leave(|leave| {
        let Some(i) = shape.rank(leave) else { return };
        let n = sums.count[i];
        if n <= 0.0 {
            return;
        }
        let m = sums.sum[i] / n - mean;
        Leaves::features(leave, &mut feats);
        for &(p, x) in &feats {
            b[p] += n * m * f64::from(x);
            for &(q, y) in &feats {
                a[p * W + q] += n * f64::from(x) * f64::from(y);
            }
        }
    });
    for p in 0..W {
        a[p * W + p] += 1.0;
    }
    let w = solve_spd(&mut a, &b, W);
    let mut model = Leaves::defaults();
    model.set_weights(&w.iter().map(|&x| x as f32).collect::<Vec<_>>());
    model.games = 0;
    model
}

/// Solves `A x = b` for a symmetric positive definite `A` (`n`×`n`, row major) by Cholesky.
fn solve_spd(a: &mut [f64], b: &[f64], n: usize) -> Vec<f64> {
    // A = L Lᵀ, L kept in the lower triangle.
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        let d = d.max(1e-12).sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / d;
        }
    }
    let mut y = vec![0f64; n];
    for i in 0..n {
        let mut s = b[i];
        for k in 0..i {
            s -= a[i * n + k] * y[k];
        }
        y[i] = s / a[i * n + i];
    }
    let mut x = vec![0f64; n];
    for i in (0..n).rev() {
        let mut s = y[i];
        for k in i + 1..n {
            s -= a[k * n + i] * x[k];
        }
        x[i] = s / a[i * n + i];
    }
    x
}

/// A leave's prior (see the module): the model's value, plus what its sub-leaves (already set in
/// `v`) were found to be worth beyond the model, averaged over the distinct tiles taken away.
fn prior_of(shape: &LeaveShape, v: &[f32], model: &dyn Fn(&Rack) -> f64, leave: &Rack) -> f64 {
    let own = model(leave);
    if leave.len() <= 1 {
        return own;
    }
    let mut total = 0.0;
    let mut distinct = 0usize;
    for t in 0..27 {
        if leave.counts[t] == 0 {
            continue;
        }
        let mut rest = *leave;
        rest.counts[t] -= 1;
        let learned = shape.rank(&rest).map_or(0.0, |i| f64::from(v[i]));
        total += learned - model(&rest);
        distinct += 1;
    }
    own + total / distinct as f64
}

/// For each leave (by rank), the chance that the tiles drawn to fill it up to a full rack make
/// the letters of a word of the rack's length (a bingo waiting on the rack), drawing from the
/// bag less the leave: computed for the leaves one or two tiles short of a full rack, 0 for
/// the others. A property of the lexicon, not of any game: the prior's bingo term
/// ([`next_table`]) uses it to tell a six-tile leave that most draws make a word of from one that
/// few do, which the weights model, adding up one term a tile, cannot.
pub fn bingo_chances(shape: &LeaveShape, lex: &Lexicon, rack_size: usize) -> Vec<f32> {
    let anagrams = lex.anagrams();
    let counts = shape.counts();
    let full: u32 = counts.iter().map(|&n| u32::from(n)).sum();
    let holds = |r: &Rack| -> bool {
        let mut letters = r.counts;
        let blanks = letters[0];
        letters[0] = 0;
        anagrams.may_hold(&letters, blanks)
    };
    let mut out = vec![0f32; shape.len()];
    shape.for_each_leave(|leave| {
        let len = leave.len();
        if len + 2 < rack_size || len >= rack_size {
            return;
        }
        let Some(i) = shape.rank(leave) else { return };
        let left = |t: usize, r: &Rack| f64::from(counts[t]) - f64::from(r.counts[t]);
        let pool = f64::from(full) - len as f64;
        let mut chance = 0.0;
        if len + 1 == rack_size {
            for t in 0..27 {
                let c = left(t, leave);
                if c > 0.0 {
                    let mut r = *leave;
                    r.counts[t] += 1;
                    if holds(&r) {
                        chance += c / pool;
                    }
                }
            }
        } else {
            let pairs = pool * (pool - 1.0) / 2.0;
            for t in 0..27 {
                let c = left(t, leave);
                if c <= 0.0 {
                    continue;
                }
                for u in t..27 {
                    let d = left(u, leave);
                    let ways = if u == t { c * (c - 1.0) / 2.0 } else { c * d };
                    if ways <= 0.0 {
                        continue;
                    }
                    let mut r = *leave;
                    r.counts[t] += 1;
                    r.counts[u] += 1;
                    if holds(&r) {
                        chance += ways / pairs;
                    }
                }
            }
        }
        out[i] = chance as f32;
    });
    out
}

/// The weighted least-squares line `r ≈ a + b·x` through points `(weight, x, r)`; `(0, 0)` if
/// the weights are 0 or every `x` is the same.
fn fit_line(points: &[(f64, f64, f64)]) -> (f64, f64) {
    let (mut sw, mut sx, mut sr) = (0.0, 0.0, 0.0);
    for &(w, x, r) in points {
        sw += w;
        sx += w * x;
        sr += w * r;
    }
    if sw <= 0.0 {
        return (0.0, 0.0);
    }
    let (mx, mr) = (sx / sw, sr / sw);
    let (mut sxx, mut sxr) = (0.0, 0.0);
    for &(w, x, r) in points {
        sxx += w * (x - mx) * (x - mx);
        sxr += w * (x - mx) * (r - mr);
    }
    if sxx <= 1e-12 {
        return (0.0, 0.0);
    }
    let b = sxr / sxx;
    (mr - b * mx, b)
}

/// The next generation's table from the sums (see the module); also the prior weight used for
/// each leave length (index 1..=6). With `bingo` (from [`bingo_chances`]), the prior of the
/// leaves one or two tiles short of a full rack gains a bingo term: a line in the leave's bingo
/// chance, fitted to what the samples say beyond the prior (weighted by their counts), so a
/// leave seldom or never sampled is valued by how often its draws make a word.
pub fn next_table(
    shape: &LeaveShape,
    sums: &Sums,
    fixed_k: Option<f64>,
    bingo: Option<&[f32]>,
) -> (LeaveTable, Vec<f64>) {
    let fitted = fit_model(shape, sums);
    let model = |r: &Rack| f64::from(fitted.value(r));
    let mean = sums.baseline();
    let mut v = vec![0f32; shape.len()];
    // Index 0 (the empty leave) unused.
    let mut ks = vec![0.0];
    for len in 1..=shape.max_len() {
        // This length's leaves: (rank, prior), the shorter ones being final already.
        let mut group = Vec::new();
        shape.for_each_leave(|leave| {
            if leave.len() == len {
                if let Some(i) = shape.rank(leave) {
                    group.push((i, prior_of(shape, &v, &model, leave)));
                }
            }
        });
        let centred = |i: usize| {
            let n = sums.count[i];
            // The sum of (y − mean) and of its square.
            let sum = sums.sum[i] - n * mean;
            let sumsq = sums.sumsq[i] - 2.0 * mean * sums.sum[i] + n * mean * mean;
            (n, sum, sumsq)
        };
        if let Some(chance) = bingo {
            let points: Vec<(f64, f64, f64)> = group
                .iter()
                .filter_map(|&(i, p)| {
                    let (n, sum, _) = centred(i);
                    (n > 0.0).then(|| (n, f64::from(chance[i]), sum / n - p))
                })
                .collect();
            if points.iter().any(|&(_, x, _)| x > 0.0) {
                let (a, b) = fit_line(&points);
                for (i, p) in group.iter_mut() {
                    *p += a + b * f64::from(chance[*i]);
                }
            }
        }
        let stats: Vec<(f64, f64, f64, f64)> = group
            .iter()
            .map(|&(i, p)| {
                let (n, sum, sumsq) = centred(i);
                (n, sum, sumsq, p)
            })
            .collect();
        let k = fixed_k.or_else(|| prior_weight(&stats)).unwrap_or(50.0);
        ks.push(k);
        for (&(i, _), &(n, sum, _, p)) in group.iter().zip(&stats) {
            let m = if n > 0.0 { sum / n } else { 0.0 };
            v[i] = blend(n, m, p, k) as f32;
        }
    }
    let known = shape.len() - 1;
    let table = LeaveTable::from_values(shape.clone(), v, known).expect("one value a leave");
    (table, ks)
}

#[derive(Clone, Debug, PartialEq)]
pub struct TrainState {
    pub seed: u64,
    pub start: Start,
    /// Generations finished: `table` is generation `generation`'s table.
    pub generation: u32,
    /// Games of the generation being played, done.
    pub games_done: u64,
    /// Games played in all.
    pub total_games: u64,
    pub table: LeaveTable,
    pub sums: Sums,
    /// The settings of the run that made the state (none: not yet trained, or a state written
    /// before states kept them).
    pub settings: Option<RunSettings>,
}

/// A state file: its settings after the counts (`TBLVTRN2`), or none (`TBLVTRN1`, read).
const MAGIC: &[u8; 8] = b"TBLVTRN2";
const MAGIC_WITHOUT_SETTINGS: &[u8; 8] = b"TBLVTRN1";

/// Why a state file cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct StateError(pub String);

impl TrainState {
    /// A new run: generation 0's table and no samples.
    pub fn new(shape: LeaveShape, start: Start, seed: u64) -> TrainState {
        let table = match start {
            Start::Zero => LeaveTable::zeros(shape.clone()),
            Start::Weights => LeaveTable::from_model(Leaves::enable(), shape.clone()),
        };
        let len = shape.len();
        TrainState {
            seed,
            start,
            generation: 0,
            games_done: 0,
            total_games: 0,
            table,
            sums: Sums::new(len),
            settings: None,
        }
    }

    /// Why this state cannot go on under `cfg`: a setting that shapes what the run learns is
    /// not the one the state was made with.
    pub fn check_settings(&self, cfg: &TableTrainConfig) -> Result<(), StateError> {
        let Some(had) = self.settings else {
            return Ok(());
        };
        let differ = had.differences(&RunSettings::of(cfg));
        if differ.is_empty() {
            return Ok(());
        }
        Err(StateError(format!(
            "the state was made with {}: give the same to go on",
            differ.join(", ")
        )))
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let len = self.table.shape().len();
        let mut b = Vec::with_capacity(64 + RunSettings::LEN + len * 28);
        match &self.settings {
            Some(_) => b.extend_from_slice(MAGIC),
            None => b.extend_from_slice(MAGIC_WITHOUT_SETTINGS),
        }
        b.extend_from_slice(&self.seed.to_le_bytes());
        b.push(self.start.code());
        b.extend_from_slice(&self.generation.to_le_bytes());
        b.extend_from_slice(&self.games_done.to_le_bytes());
        b.extend_from_slice(&self.total_games.to_le_bytes());
        b.extend_from_slice(&(len as u64).to_le_bytes());
        b.extend_from_slice(&self.sums.total_sum.to_le_bytes());
        b.extend_from_slice(&self.sums.total_count.to_le_bytes());
        if let Some(settings) = &self.settings {
            settings.write(&mut b);
        }
        for &x in self.table.values() {
            b.extend_from_slice(&x.to_le_bytes());
        }
        for arr in [&self.sums.sum, &self.sums.sumsq, &self.sums.count] {
            for &x in arr.iter() {
                b.extend_from_slice(&x.to_le_bytes());
            }
        }
        b
    }

    /// Reads a state written by [`TrainState::to_bytes`] for leaves of `shape`.
    pub fn from_bytes(bytes: &[u8], shape: LeaveShape) -> Result<TrainState, StateError> {
        let bad = |m: &str| StateError(format!("not a training state: {m}"));
        let counts = 8 + 8 + 1 + 4 + 8 + 8 + 8 + 8 + 8;
        let with_settings = match bytes.get(..8) {
            Some(m) if m == MAGIC => true,
            Some(m) if m == MAGIC_WITHOUT_SETTINGS => false,
            _ => return Err(bad("no TBLVTRN2 (or TBLVTRN1) header")),
        };
        let head = counts + if with_settings { RunSettings::LEN } else { 0 };
        if bytes.len() < head {
            return Err(bad("the file is cut short"));
        }
        let mut at = 8;
        let mut take = |n: usize| {
            let s = &bytes[at..at + n];
            at += n;
            s
        };
        let u64_of = |s: &[u8]| u64::from_le_bytes(s.try_into().unwrap_or([0; 8]));
        let seed = u64_of(take(8));
        let start = match take(1)[0] {
            0 => Start::Zero,
            1 => Start::Weights,
            _ => return Err(bad("unknown start")),
        };
        let generation = u32::from_le_bytes(take(4).try_into().unwrap_or([0; 4]));
        let games_done = u64_of(take(8));
        let total_games = u64_of(take(8));
        let len = u64_of(take(8)) as usize;
        let total_sum = f64::from_bits(u64_of(take(8)));
        let total_count = f64::from_bits(u64_of(take(8)));
        let settings = if with_settings {
            Some(
                RunSettings::read(take(RunSettings::LEN))
                    .ok_or_else(|| bad("unreadable settings"))?,
            )
        } else {
            None
        };
        if len != shape.len() {
            return Err(bad(&format!(
                "{len} leaves, but the tile set has {}",
                shape.len()
            )));
        }
        if bytes.len() != head + len * 28 {
            return Err(bad("the file is cut short or too long"));
        }
        let f32s = &bytes[head..head + 4 * len];
        let values: Vec<f32> = f32s
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap_or([0; 4])))
            .collect();
        let f64s = |k: usize| -> Vec<f64> {
            let from = head + 4 * len + 8 * len * k;
            bytes[from..from + 8 * len]
                .chunks_exact(8)
                .map(|c| f64::from_le_bytes(c.try_into().unwrap_or([0; 8])))
                .collect()
        };
        let table = LeaveTable::from_values(shape, values, len - 1)
            .ok_or_else(|| bad("wrong number of values"))?;
        Ok(TrainState {
            seed,
            start,
            generation,
            games_done,
            total_games,
            table,
            sums: Sums {
                sum: f64s(0),
                sumsq: f64s(1),
                count: f64s(2),
                total_sum,
                total_count,
            },
            settings,
        })
    }

    /// Writes the state to `path` (through a temporary file renamed into place, so a run killed
    /// while saving leaves the previous state whole).
    pub fn save(&self, path: &Path) -> std::io::Result<()> {
        let mut tmp = path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = std::path::PathBuf::from(tmp);
        std::fs::write(&tmp, self.to_bytes())?;
        std::fs::rename(&tmp, path)
    }

    pub fn load(path: &Path, shape: LeaveShape) -> Result<TrainState, StateError> {
        let bytes =
            std::fs::read(path).map_err(|e| StateError(format!("{}: {e}", path.display())))?;
        TrainState::from_bytes(&bytes, shape)
            .map_err(|e| StateError(format!("{}: {e}", path.display())))
    }
}

/// What the progress callback is told.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Step {
    /// A batch of games was added to the sums.
    Batch,
    /// A generation ended: the state's table is the new one; the prior weights used per leave
    /// length (1..=6).
    Generation { ks: [f64; MAX_LEAVE + 1] },
}

/// The seed of game `i` of generation `g`.
fn game_seed(seed: u64, g: u32, i: u64) -> u64 {
    let mut x = seed
        ^ u64::from(g).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ i.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^= x >> 31;
    x = x.wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 29)
}

/// Trains from `state` until `cfg.generations` generations are done, calling `progress` after
/// every batch and every generation; it may stop the run (`Break`), leaving `state` at a batch's
/// end, ready to be saved and resumed. The state takes `cfg`'s settings as its own: a caller
/// going on from a saved state checks them first ([`TrainState::check_settings`]).
pub fn train_tables(
    lex: &Lexicon,
    tables: &Tables,
    cfg: &TableTrainConfig,
    state: &mut TrainState,
    progress: &mut dyn FnMut(&TrainState, Step) -> ControlFlow<()>,
) {
    let ruleset = Ruleset::preset("naspa-2013").unwrap_or_else(|_| Ruleset::naspa_2013());
    let per_gen = cfg.games_per_generation.max(1);
    state.settings = Some(RunSettings::of(cfg));
    let mut chances: Option<Vec<f32>> = None;
    while state.generation < cfg.generations {
        if state.games_done >= per_gen {
            let bingo = cfg.bingo_prior.then(|| {
                &**chances.get_or_insert_with(|| {
                    bingo_chances(state.table.shape(), lex, tables.rack_size)
                })
            });
            let (table, ks) = next_table(state.table.shape(), &state.sums, cfg.prior_weight, bingo);
            state.table = table;
            state.generation += 1;
            state.games_done = 0;
            state.sums.scale(cfg.carry.clamp(0.0, 1.0));
            let mut k6 = [0.0; MAX_LEAVE + 1];
            for (d, s) in k6.iter_mut().zip(&ks) {
                *d = *s;
            }
            if progress(state, Step::Generation { ks: k6 }).is_break() {
                return;
            }
            continue;
        }
        let batch = cfg.batch.max(1).min(per_gen - state.games_done);
        let first = state.games_done;
        let g = state.generation;
        let seed = state.seed;
        let engine = Engine::new(lex, tables, &state.table, ruleset.exchange_min_bag);
        let next = AtomicU64::new(0);
        let results: Mutex<Vec<Vec<(u32, f32)>>> = Mutex::new(vec![Vec::new(); batch as usize]);
        std::thread::scope(|scope| {
            for _ in 0..cfg.threads.max(1) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= batch {
                        break;
                    }
                    let samples = samples_of_game(
                        &engine,
                        &ruleset,
                        game_seed(seed, g, first + i),
                        cfg.rollouts,
                    );
                    results.lock().unwrap_or_else(|e| e.into_inner())[i as usize] = samples;
                });
            }
        });
        // In game order, so the sums do not depend on which thread finished first.
        for game in results.into_inner().unwrap_or_else(|e| e.into_inner()) {
            for (rank, y) in game {
                state.sums.add(rank as usize, f64::from(y));
            }
        }
        state.games_done += batch;
        state.total_games += batch;
        if progress(state, Step::Batch).is_break() {
            return;
        }
    }
}

/// The table a state's training makes: the model the engine plays with.
impl LeaveModel for TrainState {
    fn leave_table(&self) -> &LeaveTable {
        &self.table
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Rack {
        Rack::parse(s).unwrap()
    }

    #[test]
    fn the_outcome_is_the_next_score_plus_the_next_leave_while_the_bag_lasts() {
        // Next turn scores 30 and keeps a leave worth 4.5: y = 30 + 4.5 = 34.5.
        assert_eq!(outcome(30, 4.5, 20), 34.5);
        // The same turn emptying the bag: its leave goes into the endgame, y = 30 + 0.
        assert_eq!(outcome(30, 4.5, 0), 30.0);
        // An exchange scores 0 and keeps a leave worth −2: y = −2.
        assert_eq!(outcome(0, -2.0, 50), -2.0);
    }

    #[test]
    fn a_leaves_value_is_its_mean_outcome_less_the_mean_of_all() {
        // Two leaves only (a tile set of one A and one B, leaves of 1 tile): A is kept 4 times
        // with outcomes 30, 34, 26, 30 (mean 30); B 4 times with 20, 22, 18, 20 (mean 20). The
        // mean of all 8 is 25, so A is worth +5 and B −5; with a prior weight of almost nothing
        // those are the values.
        let mut counts = [0u8; 27];
        counts[1] = 1;
        counts[2] = 1;
        let shape = LeaveShape::new(counts, 1);
        let mut sums = Sums::new(shape.len());
        let a = shape.rank(&r("A")).unwrap();
        let b = shape.rank(&r("B")).unwrap();
        for y in [30.0, 34.0, 26.0, 30.0] {
            sums.add(a, y);
        }
        for y in [20.0, 22.0, 18.0, 20.0] {
            sums.add(b, y);
        }
        assert_eq!(sums.mean(), 25.0);
        let (t, ks) = next_table(&shape, &sums, Some(1e-9), None);
        assert_eq!(ks[1], 1e-9);
        assert!((t.value(&r("A")) - 5.0).abs() < 1e-4);
        assert!((t.value(&r("B")) + 5.0).abs() < 1e-4);
    }

    #[test]
    fn the_blend_weighs_the_mean_by_its_count() {
        // 3 samples of mean 10 against a prior of 2 worth 5 samples: (3·10 + 5·2)/8 = 5.
        assert_eq!(blend(3.0, 10.0, 2.0, 5.0), 5.0);
        // Never seen: the prior.
        assert_eq!(blend(0.0, 0.0, 7.0, 5.0), 7.0);
        // Seen 995 times: (995·10 + 5·2)/1000 = 9.96, nearly the mean.
        assert!((blend(995.0, 10.0, 2.0, 5.0) - 9.96).abs() < 1e-9);
    }

    #[test]
    fn a_leaves_prior_is_the_model_plus_what_its_sub_leaves_learned_beyond_it() {
        // A model worth 1 a tile, and values already learned for the shorter leaves:
        // A 3, B 1, C 1, AA 4, AB 5, AC 2, BC −3.
        let shape = LeaveShape::english();
        let mut v = vec![0f32; shape.len()];
        for (s, x) in [
            ("A", 3.0),
            ("B", 1.0),
            ("C", 1.0),
            ("AA", 4.0),
            ("AB", 5.0),
            ("AC", 2.0),
            ("BC", -3.0),
        ] {
            v[shape.rank(&r(s)).unwrap()] = x;
        }
        let model = |l: &Rack| l.len() as f64;
        // A tile: the model alone. A: 1.
        assert_eq!(prior_of(&shape, &v, &model, &r("A")), 1.0);
        // AB: model 2, plus the sub-leaves' excess: B 1 − 1 = 0 and A 3 − 1 = 2, mean 1: 3.
        assert_eq!(prior_of(&shape, &v, &model, &r("AB")), 3.0);
        // ABC: model 3; excess of BC −3 − 2 = −5, AC 2 − 2 = 0, AB 5 − 2 = 3, mean −2/3:
        // 3 − 2/3 = 7/3.
        assert!((prior_of(&shape, &v, &model, &r("ABC")) - 7.0 / 3.0).abs() < 1e-12);
        // AAB (distinct tiles A and B): model 3; excess of AB 5 − 2 = 3 and AA 4 − 2 = 2:
        // 3 + 2.5 = 5.5.
        assert_eq!(prior_of(&shape, &v, &model, &r("AAB")), 5.5);
    }

    #[test]
    fn rare_and_unseen_leaves_are_valued_by_the_fitted_model() {
        // English tiles. A kept 10 times with outcome 10, B 10 times with outcome 0: the mean
        // is 5, so A's centred mean is +5 and B's −5. A's features are its first copy and the
        // balance "1 vowel, 0 consonants", B's its first copy and "0 vowels, 1 consonant",
        // each pair seen by one leave only. Least squares with a ridge of 1 on each weight:
        // minimise 10·(5 − w₁ − w₂)² + w₁² + w₂², so w₁ = w₂ = 10·5/(1 + 2·10) = 50/21 and the
        // model says A = 100/21 = 4.762 (B = −4.762).
        let shape = LeaveShape::english();
        let mut sums = Sums::new(shape.len());
        for _ in 0..10 {
            sums.add(shape.rank(&r("A")).unwrap(), 10.0);
            sums.add(shape.rank(&r("B")).unwrap(), 0.0);
        }
        let model = fit_model(&shape, &sums);
        assert!((model.value(&r("A")) - 100.0 / 21.0).abs() < 1e-4);
        assert!((model.value(&r("B")) + 100.0 / 21.0).abs() < 1e-4);
        // AB, never seen: the first A, the first B, and the balance "1 and 1" (never seen: 0),
        // 50/21 − 50/21 + 0 = 0 …
        assert!(model.value(&r("AB")).abs() < 1e-4);
        let (t, _) = next_table(&shape, &sums, Some(10.0), None);
        // … A in the table: its 10 samples of mean 5 against the prior 100/21 worth 10:
        // (10·5 + 10·4.762)/20 = 4.881.
        assert!((t.value(&r("A")) - (50.0 + 1000.0 / 21.0) / 20.0).abs() < 1e-4);
        // AB never seen: its prior, the model's 0 plus its sub-leaves' excess over the model:
        // A 4.881 − 4.762 = 0.119, B −0.119, mean 0.
        assert!(t.value(&r("AB")).abs() < 1e-4);
        // AA never seen: the model's first A (50/21; a second A and the balance "2 vowels" were
        // never seen: 0) plus A's excess over the model, 4.881 − 4.762 = 0.119: 2.5.
        let aa = t.value(&r("AA"));
        assert!((aa - 2.5).abs() < 1e-4, "{aa}");
        // AAB never seen: the model's 50/21 − 50/21 = 0, plus the mean excess of its sub-leaves
        // AB (0 − 0) and AA (2.5 − 50/21 = 0.119): 0.0595.
        let aab = t.value(&r("AAB"));
        assert!((aab - (2.5 - 50.0 / 21.0) / 2.0).abs() < 1e-4, "{aab}");
    }

    #[test]
    fn the_prior_weight_is_within_variance_over_between_variance() {
        // Six leaves, prior 0, each seen twice with outcomes m ± 1 (within variance: each
        // leave's squares about its mean are 1 + 1 = 2 on 1 degree of freedom, s² = σ² = 2).
        // Means 3, −3, …: Σ (n·d² − s²) = 6·(2·9 − 2) = 96, over Σ n = 12: τ² = 8.
        // k = σ²/τ² = 2/8 = 0.25, raised to the floor of 1.
        let group = |means: &[f64], spread: f64| -> Vec<(f64, f64, f64, f64)> {
            means
                .iter()
                .map(|&m| {
                    let (a, b) = (m - spread, m + spread);
                    (2.0, a + b, a * a + b * b, 0.0)
                })
                .collect()
        };
        let six = |x: f64| [x, -x, x, -x, x, -x];
        assert_eq!(prior_weight(&group(&six(3.0), 1.0)), Some(1.0));
        // Outcomes m ± 2 (s² = σ² = 2·2²/1 = 8), means ±1.5: n·d² − s² = 4.5 − 8 < 0 each,
        // τ² < 0: the data cannot tell the leaves from the prior, which gets the most weight.
        assert_eq!(prior_weight(&group(&six(1.5), 2.0)), Some(MAX_PRIOR_WEIGHT));
        // Means ±3, s² = 8: τ² = 6·(18 − 8)/12 = 5, k = 8/5 = 1.6.
        let mid = group(&six(3.0), 2.0);
        assert!((prior_weight(&mid).unwrap() - 1.6).abs() < 1e-12);
        // A seventh leave seen 100 times, 1 point off its prior, all samples alike (s² = 0; it
        // adds nothing to σ²'s sum of squares but 99 degrees of freedom): σ² = 48/105,
        // τ² = (60 + 100·1)/112 = 1.4286, k = (48/105)/1.4286 = 0.32 → 1. The well-sampled
        // leave weighs most.
        let mut more = mid.clone();
        more.push((100.0, 100.0, 100.0, 0.0));
        assert_eq!(prior_weight(&more), Some(1.0));
        // Quiet leaves do not hide the others' spread. Prior 0; five bingo-prone leaves, each
        // seen 4 times (outcomes m ± 20: s² = 1600/3 = 533.3) at means ±30; 100 quiet leaves
        // seen twice at their prior (outcomes ±1, s² = 2); 1,000 seen once, at their prior.
        // τ² = (5·(4·900 − 533.3) + 100·(0 − 2))/(20 + 200) = 15,133.3/220 = 68.79;
        // σ² = (5·1600 + 100·2)/(5·3 + 100) = 8,200/115 = 71.30; k = 71.30/68.79 = 1.04.
        // (Subtracting the pooled σ² from every leave seen, the single ones too, would give
        // (18,000 − 1,105·71.30)/1,220 < 0: the most weight to the prior.)
        let mut mixed: Vec<(f64, f64, f64, f64)> = (0..5)
            .map(|i| {
                let m = if i % 2 == 0 { 30.0 } else { -30.0 };
                let (a, b) = (m - 20.0, m + 20.0);
                (4.0, 2.0 * (a + b), 2.0 * (a * a + b * b), 0.0)
            })
            .collect();
        mixed.extend(std::iter::repeat_n((2.0, 0.0, 2.0, 0.0), 100));
        mixed.extend(std::iter::repeat_n((1.0, 0.0, 0.0, 0.0), 1000));
        let k = prior_weight(&mixed).unwrap();
        let expected: f64 = (8200.0 / 115.0) / ((5.0 * (3600.0 - 1600.0 / 3.0) - 200.0) / 220.0);
        assert!((expected - 1.0366).abs() < 1e-3, "{expected}");
        assert!((k - expected).abs() < 1e-9, "{k}");
        // Too few leaves seen twice: no estimate.
        assert_eq!(prior_weight(&mid[..3]), None);
    }

    #[test]
    fn a_state_reads_back_as_written_and_refuses_other_bytes() {
        let shape = LeaveShape::english();
        let mut st = TrainState::new(shape.clone(), Start::Zero, 42);
        st.generation = 2;
        st.games_done = 7;
        st.total_games = 107;
        st.table.set(&r("QU"), 3.25);
        st.sums.add(5, 12.5);
        st.sums.add(5, -1.0);
        let bytes = st.to_bytes();
        let back = TrainState::from_bytes(&bytes, shape.clone()).unwrap();
        assert_eq!(
            (
                back.seed,
                back.start,
                back.generation,
                back.games_done,
                back.total_games
            ),
            (42, Start::Zero, 2, 7, 107)
        );
        assert!(back.table.values() == st.table.values());
        assert_eq!(back.table.value(&r("QU")), 3.25);
        assert!(back.sums == st.sums, "the sums read back");
        assert_eq!((back.sums.total_sum, back.sums.total_count), (11.5, 2.0));
        assert!(TrainState::from_bytes(&bytes[..bytes.len() - 1], shape.clone()).is_err());
        assert!(
            TrainState::from_bytes(b"TBLVTRN0 and more bytes than the header needs..", shape)
                .is_err()
        );
    }

    /// A state keeps the settings of the run that made it; a run with other settings may not go
    /// on from it, and says which. A state written before states kept them is still read.
    #[test]
    fn a_state_keeps_its_runs_settings_and_refuses_a_run_with_others() {
        let shape = LeaveShape::english();
        let cfg = TableTrainConfig {
            games_per_generation: 12_000,
            prior_weight: Some(2.5),
            ..TableTrainConfig::default()
        };
        let mut st = TrainState::new(shape.clone(), Start::Zero, 42);
        // Not trained yet: any settings may start it.
        assert!(st.check_settings(&cfg).is_ok());
        let older = st.to_bytes();
        assert_eq!(&older[..8], b"TBLVTRN1");
        st.settings = Some(RunSettings::of(&cfg));
        let bytes = st.to_bytes();
        assert_eq!(&bytes[..8], b"TBLVTRN2");
        assert_eq!(bytes.len(), older.len() + RunSettings::LEN);
        let back = TrainState::from_bytes(&bytes, shape.clone()).unwrap();
        assert_eq!(back.settings, st.settings);
        assert!(back.table.values() == st.table.values() && back.sums == st.sums);
        assert!(back.check_settings(&cfg).is_ok());

        let other = TableTrainConfig {
            rollouts: 16,
            prior_weight: None,
            // How fast a run goes is not what it learns.
            threads: 7,
            batch: 3,
            ..cfg
        };
        let e = back.check_settings(&other).unwrap_err().to_string();
        assert_eq!(
            e,
            "the state was made with --rollouts 32 (this run: 16), --prior-weight 2.5 \
             (this run: estimated): give the same to go on"
        );
        // The older state has no settings, and says so by having none.
        let old = TrainState::from_bytes(&older, shape.clone()).unwrap();
        assert_eq!(old.settings, None);
        assert!(old.check_settings(&other).is_ok());
        // A settings block that is not one: refused by name.
        let mut broken = bytes.clone();
        broken[8 + 8 + 1 + 4 + 8 * 5 + 24] = 9;
        let e = TrainState::from_bytes(&broken, shape)
            .unwrap_err()
            .to_string();
        assert!(e.contains("unreadable settings"), "{e}");
    }

    fn tiny(generations: u32) -> TableTrainConfig {
        TableTrainConfig {
            generations,
            games_per_generation: 4,
            batch: 2,
            threads: 2,
            prior_weight: None,
            carry: 0.5,
            seed: 7,
            start: Start::Zero,
            rollouts: 8,
            bingo_prior: true,
        }
    }

    /// The empty board, `rack` on turn, a full bag less the rack and an opponent's rack.
    fn opening(rack: &str, tables: &Tables) -> Situation {
        let rack = r(rack);
        let mut unseen = Rack::default();
        for (code, &n) in tables.counts.iter().enumerate() {
            for _ in 0..n {
                unseen.add(code as u8);
            }
        }
        let unseen = unseen.minus(&rack);
        Situation {
            grid: crate::grid::Grid::default(),
            rack,
            bag_len: unseen.len() - 7,
            unseen,
            scores: [0, 0],
            zeros: 0,
        }
    }

    /// `f` with an engine whose every leave is worth 0, and the opening of AEINSTQ.
    fn on_the_opening(f: impl FnOnce(&Engine<'_>, &Situation)) {
        let tables = Tables::english();
        let table = LeaveTable::zeros(LeaveShape::english());
        let engine = Engine::new(Lexicon::builtin_enable(), &tables, &table, 7);
        f(&engine, &opening("AEINSTQ", &tables));
    }

    #[test]
    fn a_rollout_values_the_empty_leave_and_other_leaves_of_the_rack_and_only_them() {
        on_the_opening(|engine, s| {
            let shape = engine.leaves.shape();
            let mut rng = Rng::new(3);
            let mut out = Vec::new();
            rollout_samples(engine, s, 10, &mut rng, &mut out);
            assert_eq!(out.len(), 10);
            assert_eq!(out[0].0, 0, "the empty leave comes first");
            let mut ranks: Vec<u32> = out.iter().map(|&(r, _)| r).collect();
            ranks.sort_unstable();
            ranks.dedup();
            assert_eq!(ranks.len(), 10, "distinct leaves");
            let subs: Vec<usize> = sub_racks(&s.rack)
                .iter()
                .filter(|l| l.len() < 7)
                .filter_map(|l| shape.rank(l))
                .collect();
            assert!(out[1..].iter().all(|&(r, _)| subs.contains(&(r as usize))));
            // Asked for more than the rack has: each of its 126 leaves of 1 to 6 tiles once, and
            // the empty one.
            out.clear();
            rollout_samples(engine, s, 1000, &mut rng, &mut out);
            assert_eq!(out.len(), 127);
            // Near the end of the bag, none (the endgame values what is kept there).
            out.clear();
            let mut late = s.clone();
            late.bag_len = ROLLOUT_MIN_BAG - 1;
            rollout_samples(engine, &late, 10, &mut rng, &mut out);
            assert!(out.is_empty());
        });
    }

    #[test]
    fn rollouts_find_a_bingo_prone_leave_worth_more_than_keeping_nothing_and_a_q_worth_less() {
        on_the_opening(|engine, s| {
            let shape = engine.leaves.shape();
            let mut sums = Sums::new(shape.len());
            let mut rng = Rng::new(11);
            for _ in 0..40 {
                let mut out = Vec::new();
                rollout_samples(engine, s, 1000, &mut rng, &mut out);
                for (rank, y) in out {
                    sums.add(rank as usize, f64::from(y));
                }
            }
            let mean = |l: &str| {
                let i = shape.rank(&r(l)).unwrap();
                sums.sum[i] / sums.count[i] - sums.baseline()
            };
            // Keeping AEINST on the empty board, one tile drawn: mostly a bingo next turn.
            assert!(mean("AEINST") > 20.0, "AEINST {}", mean("AEINST"));
            assert!(mean("Q") < 0.0, "Q {}", mean("Q"));
            assert!(mean("AEINST") > mean("AEINS"));
            assert_eq!(sums.count[0], 40.0, "the empty leave once a turn");
        });
    }

    #[test]
    fn with_the_empty_leave_sampled_values_are_measured_from_keeping_nothing() {
        let mut sums = Sums::new(3);
        sums.add(1, 30.0);
        sums.add(2, 40.0);
        assert_eq!(sums.baseline(), 35.0, "no empty leave: the mean of all");
        sums.add(0, 20.0);
        sums.add(0, 24.0);
        assert_eq!(sums.baseline(), 22.0);
    }

    #[test]
    fn a_tiny_run_makes_a_table_and_a_resumed_run_ends_where_an_unbroken_one_does() {
        let lex = Lexicon::builtin_enable();
        let tables = Tables::english();
        // English tiles, leaves of at most 3 tiles (3,909 of them; longer leaves are worth 0 to
        // the player), so the test is quick.
        let shape = LeaveShape::new(tables.counts, 3);
        let cfg = tiny(2);
        // Unbroken: 2 generations of 4 games.
        let mut whole = TrainState::new(shape.clone(), Start::Zero, cfg.seed);
        let mut gens = 0;
        train_tables(lex, &tables, &cfg, &mut whole, &mut |_, step| {
            if matches!(step, Step::Generation { .. }) {
                gens += 1;
            }
            ControlFlow::Continue(())
        });
        assert_eq!(gens, 2);
        assert_eq!(whole.generation, 2);
        assert_eq!(whole.total_games, 8);
        // Every leave has a finite value, and the samples of 8 games (through the priors of
        // their extensions) give many leaves a value that is not 0.
        assert!(whole.sums.total_count > 0.0);
        assert!(whole.table.values().iter().all(|v| v.is_finite()));
        assert!(whole.table.values().iter().filter(|&&v| v != 0.0).count() > 1000);
        // The table writes as .klv2 and reads back with the same values.
        let back = LeaveTable::from_bytes_for(&whole.table.to_klv2(), shape.clone()).unwrap();
        assert_eq!(back.values(), whole.table.values());

        // Broken: stop after 6 games (in generation 1), save, load, go on.
        let mut part = TrainState::new(shape.clone(), Start::Zero, cfg.seed);
        train_tables(lex, &tables, &cfg, &mut part, &mut |s, _| {
            if s.total_games >= 6 {
                ControlFlow::Break(())
            } else {
                ControlFlow::Continue(())
            }
        });
        assert_eq!(
            (part.generation, part.games_done, part.total_games),
            (1, 2, 6)
        );
        let mut resumed = TrainState::from_bytes(&part.to_bytes(), shape).unwrap();
        let mut batches = 0;
        train_tables(lex, &tables, &cfg, &mut resumed, &mut |_, step| {
            if step == Step::Batch {
                batches += 1;
            }
            ControlFlow::Continue(())
        });
        assert_eq!(batches, 1, "only the 2 games left were played");
        assert_eq!(resumed.total_games, 8);
        assert_eq!(
            resumed, whole,
            "the same table and sums as the unbroken run"
        );
    }
}
