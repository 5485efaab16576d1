//! COP's simulation (Woogles/JVC's "Castellano O'Connor Pairings", research §3.3): how likely
//! each player is to finish in the prize bands, estimated by playing the remaining rounds many
//! times over.
//!
//! Each simulated tournament pairs the remaining rounds with Woogles' "factor" pairings (with
//! `k` rounds left, including the one being played, the standings are cut into blocks of `2k`
//! and 1 meets 1+k within a block: 1v4/2v5/3v6 with three left, 1v3/2v4 with two, King of the
//! Hill in the last), an odd field giving the bye (a win by the division's bye spread) to the
//! lowest player. Each game's spread is drawn from a bell-shaped model without ratings (the sum
//! of four uniform draws, mean 0, standard deviation about 110 points; Woogles draws from an
//! empirical table): above 0 the higher-standing player wins, below 0 the other, 0 is a tie.
//! Final places sort by wins, then spread, then the current standing.
//!
//! Deterministic: the random numbers come from the seed.

/// One player's standing, in standings order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SimStanding {
    /// Twice the wins (a tie is 1).
    pub wins2: i32,
    pub spread: i32,
}

/// Woogles' default hopefulness: the chance a player needs to count as a contender, by rounds
/// left (1, 2, 3, 4, 5 or more).
pub const HOPEFULNESS: [f64; 5] = [0.1, 0.1, 0.05, 0.02, 0.01];

/// Woogles' default number of simulated tournaments.
pub const DEFAULT_SIMS: u32 = 100_000;

struct SplitMix(u64);

impl SplitMix {
    #[inline]
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

/// A game's spread for the higher-standing player: four 16-bit uniforms summed and centred
/// (standard deviation 65536·√(4/12) ≈ 37837), scaled by 190/65536: about 110 points.
#[inline]
fn spread(rng: &mut SplitMix) -> i32 {
    let x = rng.next();
    let sum = (x & 0xFFFF) + ((x >> 16) & 0xFFFF) + ((x >> 32) & 0xFFFF) + (x >> 48);
    ((sum as i64 - 131_070) * 190 / 65_536) as i32
}

/// Woogles' default number of control-loss simulations.
pub const CONTROL_LOSS_SIMS: u32 = 10_000;

/// Woogles' default control-loss threshold.
pub const CONTROL_LOSS_THRESHOLD: f64 = 0.3;

/// Woogles' control-loss check starts `R − 3` (counted from 1) in an event of `R` rounds: with
/// this many rounds left, the one being paired included, or fewer.
pub const CONTROL_LOSS_ROUNDS_LEFT: u32 = 4;

/// The chance of each player (in `field`'s order, which must be the standings) finishing in the
/// top `bands` places after `rounds_left` more rounds, from `sims` simulated tournaments.
/// The chances add up to `bands` (fewer if the field is smaller).
pub fn place_chances(
    field: &[SimStanding],
    rounds_left: u32,
    bands: usize,
    sims: u32,
    seed: u64,
    bye_spread: i32,
) -> Vec<f64> {
    simulate(field, rounds_left, bands, sims, seed, bye_spread, false)
}

/// Control loss (Woogles' CL, research §3.3): how often the leader (the first of `field`) does
/// not finish first even though it wins every remaining game (each by the model's margin), from
/// `sims` simulated tournaments. Above [`CONTROL_LOSS_THRESHOLD`] the leader no longer controls
/// its destiny, and COP pairs it with the lowest contender who can still finish first. (Our
/// reading of the constraint from its description; Woogles' own figures were not available.)
pub fn control_loss(
    field: &[SimStanding],
    rounds_left: u32,
    sims: u32,
    seed: u64,
    bye_spread: i32,
) -> f64 {
    if field.len() < 2 {
        return 0.0;
    }
    1.0 - simulate(field, rounds_left, 1, sims, seed, bye_spread, true)[0]
}

fn simulate(
    field: &[SimStanding],
    rounds_left: u32,
    bands: usize,
    sims: u32,
    seed: u64,
    bye_spread: i32,
    leader_wins: bool,
) -> Vec<f64> {
    let n = field.len();
    let mut hits = vec![0u64; n];
    if n == 0 || sims == 0 {
        return vec![0.0; n];
    }
    let bands = bands.min(n);
    let mut rng = SplitMix(seed ^ 0xC0B5_1A7E_D00D_F00D);
    let mut w = vec![0i32; n];
    let mut s = vec![0i32; n];
    let mut order: Vec<u32> = Vec::with_capacity(n);
    for _ in 0..sims {
        for i in 0..n {
            w[i] = field[i].wins2;
            s[i] = field[i].spread;
        }
        order.clear();
        order.extend(0..n as u32);
        for k in (1..=rounds_left as usize).rev() {
            // The current order, then this round's games.
            order.sort_unstable_by(|&a, &b| {
                let (a, b) = (a as usize, b as usize);
                w[b].cmp(&w[a]).then(s[b].cmp(&s[a])).then(a.cmp(&b))
            });
            let mut m = n;
            if m % 2 == 1 {
                let p = order[m - 1] as usize;
                w[p] += 2;
                s[p] += bye_spread;
                m -= 1;
            }
            let mut start = 0;
            while start < m {
                let f = k.min((m - start) / 2);
                for i in start..start + f {
                    let (a, b) = (order[i] as usize, order[i + f] as usize);
                    let mut d = spread(&mut rng);
                    if leader_wins && (a == 0 || b == 0) {
                        // The leader wins: by the drawn margin, at least 1.
                        let m = d.abs().max(1);
                        d = if a == 0 { m } else { -m };
                    }
                    match d.cmp(&0) {
                        std::cmp::Ordering::Greater => w[a] += 2,
                        std::cmp::Ordering::Less => w[b] += 2,
                        std::cmp::Ordering::Equal => {
                            w[a] += 1;
                            w[b] += 1;
                        }
                    }
                    s[a] += d;
                    s[b] -= d;
                }
                start += 2 * f;
            }
        }
        if bands == n {
            for h in hits.iter_mut() {
                *h += 1;
            }
            continue;
        }
        order.clear();
        order.extend(0..n as u32);
        let cmp = |a: &u32, b: &u32| {
            let (a, b) = (*a as usize, *b as usize);
            w[b].cmp(&w[a]).then(s[b].cmp(&s[a])).then(a.cmp(&b))
        };
        order.select_nth_unstable_by(bands - 1, cmp);
        for &p in &order[..bands] {
            hits[p as usize] += 1;
        }
    }
    hits.iter().map(|&h| h as f64 / sims as f64).collect()
}
