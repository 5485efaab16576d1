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
//! Deterministic: the random numbers come from the seed. The simulations are shared among the
//! machine's cores, each starting the random stream where a single run would be at that
//! simulation (each simulation draws one number a game), so the chances are the same on any
//! machine. Each simulated round re-sorts the standings as packed integer keys (wins, spread,
//! current place), and follows only the players who can still finish in the places paid.

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

/// SplitMix64's increment.
const GAMMA: u64 = 0x9E37_79B9_7F4A_7C15;

struct SplitMix(u64);

impl SplitMix {
    #[inline]
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(GAMMA);
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

/// A player's place in the simulated standings as one sortable number: ascending order is
/// more wins first, then more spread, then the lower index (the current standing).
#[inline]
fn key(wins2: i32, spread: i32, i: usize) -> u64 {
    let w = (MAX_WINS2 - wins2) as u64;
    let s = (i32::MAX as i64 - spread as i64) as u64;
    (w << 48) | (s << 16) | i as u64
}

/// What [`key`] can hold: 16 bits of wins, 32 of spread, 16 of index.
const MAX_WINS2: i32 = 0xFFFF;
const MAX_FIELD: usize = 0x1_0000;

/// The wins (in halves) a key holds.
#[inline]
fn wins_of(k: u64) -> i32 {
    MAX_WINS2 - (k >> 48) as i32
}

/// Simulated tournaments run on up to this many threads (the results do not depend on it:
/// each thread starts its random stream where the sequential run would be).
const MAX_THREADS: usize = 8;

/// Below this much work (simulations × players × rounds) one thread does it all.
const PARALLEL_WORK: u64 = 2_000_000;

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
    if n == 0 || sims == 0 {
        return vec![0.0; n];
    }
    let cap = MAX_WINS2 as i64 - 2 * rounds_left as i64;
    let fits = n < MAX_FIELD && field.iter().all(|f| f.wins2 >= 0 && (f.wins2 as i64) < cap);
    if !fits {
        // Beyond what the packed keys hold (65,536 players, or 32,000 wins): the plain way.
        return simulate_plain(
            field,
            rounds_left,
            bands,
            sims,
            seed,
            bye_spread,
            leader_wins,
        );
    }
    let start = SplitMix(seed ^ 0xC0B5_1A7E_D00D_F00D);
    // Every simulated tournament draws one number a game: this many.
    let per_sim = rounds_left as u64 * (n / 2) as u64;
    let work = sims as u64 * n as u64 * rounds_left.max(1) as u64;
    let threads = if work < PARALLEL_WORK {
        1
    } else {
        std::thread::available_parallelism()
            .map_or(1, |t| t.get())
            .min(MAX_THREADS)
            .min(sims as usize)
    };
    let run = |from: u32, to: u32| {
        // SplitMix's state after k draws is the start plus k golden gammas.
        let rng = SplitMix(
            start
                .0
                .wrapping_add((from as u64).wrapping_mul(per_sim).wrapping_mul(GAMMA)),
        );
        simulate_range(
            field,
            rounds_left,
            bands,
            to - from,
            rng,
            bye_spread,
            leader_wins,
        )
    };
    let hits = if threads <= 1 {
        run(0, sims)
    } else {
        let chunk = sims.div_ceil(threads as u32);
        std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads as u32)
                .map(|t| {
                    let at = |t: u32| (t as u64 * chunk as u64).min(sims as u64) as u32;
                    let (from, to) = (at(t), at(t + 1));
                    let run = &run;
                    scope.spawn(move || run(from, to))
                })
                .collect();
            let mut total = vec![0u64; n];
            for h in handles {
                for (t, x) in total.iter_mut().zip(h.join().expect("a simulation thread")) {
                    *t += x;
                }
            }
            total
        })
    };
    hits.iter().map(|&h| h as f64 / sims as f64).collect()
}

/// `sims` simulated tournaments from `rng`: how often each player finished in the top `bands`.
///
/// Only the players who can still reach the places paid are followed, which changes no result.
/// With `k` rounds left, a player more than `2k` half-wins behind the player now at the last paid
/// place cannot finish in the places (everyone now in them keeps at least that many wins).
/// Standings sort by wins first, so those who can are a prefix of the order, and they stay above
/// everyone dropped (who gains at most 2 half-wins a round while the cut rises by 2 each round).
/// Their games are played as usual; the games below them only advance the random stream. After
/// each round the players are counted by wins, which gives the next cut, and only those still
/// followed are sorted. Each round drops more of a large field, and the last rounds cost little.
fn simulate_range(
    field: &[SimStanding],
    rounds_left: u32,
    bands: usize,
    sims: u32,
    mut rng: SplitMix,
    bye_spread: i32,
    leader_wins: bool,
) -> Vec<u64> {
    let n = field.len();
    let bands = bands.min(n);
    let mut hits = vec![0u64; n];
    if bands == 0 {
        return hits;
    }
    let mut w = vec![0i32; n];
    let mut s = vec![0i32; n];
    // The standings as keys, sorted; the player is the key's low 16 bits.
    let mut keys: Vec<u64> = Vec::with_capacity(n);
    let mut start_keys: Vec<u64> = (0..n)
        .map(|i| key(field[i].wins2, field[i].spread, i))
        .collect();
    start_keys.sort_unstable();
    let player = |k: u64| (k & 0xFFFF) as usize;
    // Who can still reach the places with `k` rounds left: at least the wins of the player at the
    // last paid place, less 2k.
    let cut = |at_last_place: i32, k: usize| at_last_place - 2 * k as i32;
    let first_cut = cut(wins_of(start_keys[bands - 1]), rounds_left as usize);
    let live_at_start = start_keys.partition_point(|&x| wins_of(x) >= first_cut);
    // Players by wins, counted from the most any followed player can have.
    let span = wins_of(start_keys[0]) - wins_of(start_keys[n - 1]);
    let mut counts = vec![0usize; span as usize + 2 * rounds_left as usize + 1];
    for _ in 0..sims {
        for i in 0..n {
            w[i] = field[i].wins2;
            s[i] = field[i].spread;
        }
        keys.clear();
        keys.extend_from_slice(&start_keys);
        // The players followed, in standings order: `keys[..live]`.
        let mut live = live_at_start;
        for k in (1..=rounds_left as usize).rev() {
            play_round(
                |i| player(keys[i]),
                n,
                live,
                k,
                (&mut w, &mut s),
                &mut rng,
                bye_spread,
                leader_wins,
            );
            // The new keys, and the wins now at the last paid place.
            let most = wins_of(keys[0]) + 2;
            counts.iter_mut().for_each(|c| *c = 0);
            for x in keys[..live].iter_mut() {
                let p = player(*x);
                *x = key(w[p], s[p], p);
                counts[(most - w[p]) as usize] += 1;
            }
            let mut seen = 0;
            let below = counts
                .iter()
                .position(|&c| {
                    seen += c;
                    seen >= bands
                })
                .expect("the places are followed");
            // Those who can still reach the places (after the last round: who reached the last
            // paid place's wins) are kept, and only they are sorted.
            let next = cut(most - below as i32, k - 1);
            let mut kept = 0;
            for i in 0..live {
                let x = keys[i];
                keys[kept] = x;
                kept += (wins_of(x) >= next) as usize;
            }
            live = kept;
            if k == 1 && bands < live {
                // After the last round only who is in the places paid matters.
                keys[..live].select_nth_unstable(bands - 1);
            } else {
                keys[..live].sort_unstable();
            }
        }
        if bands == n {
            for h in hits.iter_mut() {
                *h += 1;
            }
            continue;
        }
        for &x in &keys[..bands] {
            hits[player(x)] += 1;
        }
    }
    hits
}

/// One simulated round on `n` players in standings order (`at(i)`: the player in place `i`):
/// the last takes the bye if `n` is odd, then each group of `2k` plays top half against bottom
/// half (`k`: rounds left), each game's spread drawn from the model;
/// with `leader_wins`, the leader (player 0) wins its game. Wins are counted in halves.
/// Only the places before `live` are followed: a game below them draws its number unplayed.
#[allow(clippy::too_many_arguments)]
fn play_round(
    at: impl Fn(usize) -> usize,
    n: usize,
    live: usize,
    k: usize,
    (w, s): (&mut [i32], &mut [i32]),
    rng: &mut SplitMix,
    bye_spread: i32,
    leader_wins: bool,
) {
    let mut m = n;
    if m % 2 == 1 {
        if m - 1 < live {
            let p = at(m - 1);
            w[p] += 2;
            s[p] += bye_spread;
        }
        m -= 1;
    }
    let games = m / 2;
    let mut drawn = 0;
    let mut start = 0;
    'blocks: while start < m {
        let f = k.min((m - start) / 2);
        for i in start..start + f {
            if i >= live {
                break 'blocks;
            }
            drawn += 1;
            let a = at(i);
            let b = if i + f < live { at(i + f) } else { usize::MAX };
            let mut d = spread(rng);
            if leader_wins && (a == 0 || b == 0) {
                // The leader wins: by the drawn margin, at least 1.
                let m = d.abs().max(1);
                d = if a == 0 { m } else { -m };
            }
            // Half-wins: 2 for a win, 1 for a tie.
            let got = 2 * (d > 0) as i32 + (d == 0) as i32;
            w[a] += got;
            s[a] += d;
            if b != usize::MAX {
                w[b] += 2 - got;
                s[b] -= d;
            }
        }
        start += 2 * f;
    }
    // The games not played still draw their numbers (one each).
    rng.0 = rng
        .0
        .wrapping_add(((games - drawn) as u64).wrapping_mul(GAMMA));
}

/// The simulation with a comparison sort, for fields the packed keys cannot hold (and, in the
/// tests, as the reference the fast one must match exactly).
fn simulate_plain(
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
            play_round(
                |i| order[i] as usize,
                n,
                n,
                k,
                (&mut w, &mut s),
                &mut rng,
                bye_spread,
                leader_wins,
            );
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The packed keys, following only who can still reach the places, and the threads change
    /// nothing: every chance equals the plain simulation's exactly, odd and even fields, with
    /// ties, in both modes.
    #[test]
    fn fast_simulation_equals_the_plain_one() {
        let mut rng = SplitMix(5);
        for (n, rounds, bands, sims) in [
            (2, 1, 1, 3_000),
            (7, 3, 2, 3_000),
            (24, 5, 3, 20_000),
            (25, 4, 3, 20_000),
            (101, 2, 5, 30_000),
            (41, 6, 2, 20_000),
        ] {
            let mut field: Vec<SimStanding> = (0..n)
                .map(|_| SimStanding {
                    wins2: (rng.next() % 9) as i32,
                    spread: (rng.next() % 801) as i32 - 400,
                })
                .collect();
            field.sort_by(|a, b| b.wins2.cmp(&a.wins2).then(b.spread.cmp(&a.spread)));
            // A tie on wins and spread: decided by the current standing.
            if n > 3 {
                field[2] = field[1];
            }
            for leader_wins in [false, true] {
                let fast = simulate(&field, rounds, bands, sims, 11, 50, leader_wins);
                let plain = simulate_plain(&field, rounds, bands, sims, 11, 50, leader_wins);
                assert_eq!(
                    fast, plain,
                    "{n} players, {rounds} rounds, leader wins {leader_wins}"
                );
                // The chances add up to the places (each simulation fills each place once).
                let total: f64 = fast.iter().sum();
                assert!((total - bands.min(n) as f64).abs() < 1e-9, "{total}");
            }
        }
    }
}
