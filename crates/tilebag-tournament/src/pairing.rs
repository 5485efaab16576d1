//! Pairing a round. Every method is deterministic given the division's seed, and every pairing is
//! made "based on" a chosen round: standings come from that round, while repeats, byes and firsts
//! count every round already paired, so round N+1 can be posted from the standings after round
//! N−1 while round N is being played (tsh's BasedOnRound).
//!
//! [`Division::propose`] computes a [`Proposal`]; posting it is the action
//! [`crate::Action::Pair`], which records the pairings themselves, so the log stays valid even if
//! an algorithm changes.
//!
//! Common steps, whatever the method:
//! - withdrawn players get their automatic result (an [`Pairing::Absent`] entry) and are not paired;
//! - an odd field gives one bye, to the lowest-ranked player among those with the fewest byes
//!   (tsh `bottom_up`; NASPA V.K.4 scores it);
//! - seat order follows the rulebook's firsts rule ([`crate::firsts`]);
//! - boards are numbered from the top of the standings.

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};
use tilebag_core::bag::Rng;

use crate::error::{Result, TournamentError};
use crate::firsts;
use crate::matching::min_cost_perfect_matching;
use crate::model::{Division, FontesDraw, Game, GibsonConfig, Pairing, PlayerId, WithdrawnResult};
use crate::schedule::Method;
use crate::standings::Standing;

/// Pairings computed for a round, ready to post.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Proposal {
    pub round: u32,
    pub method: Method,
    pub based_on: u32,
    pub pairings: Vec<Pairing>,
    /// What the director should know: Gibsons, repeats, relaxed constraints.
    pub notes: Vec<String>,
}

/// A pair, or a bye when the second is `None`.
type Pair = (PlayerId, Option<PlayerId>);

struct Ctx<'a> {
    div: &'a Division,
    round: u32,
    based_on: u32,
    stand: Vec<Standing>,
    /// Position in `stand`, by player index.
    pos: Vec<usize>,
    /// Earlier opponents, sorted, with repetition, by player index.
    met: Vec<Vec<PlayerId>>,
    byes: Vec<u32>,
    notes: Vec<String>,
}

impl<'a> Ctx<'a> {
    fn new(div: &'a Division, round: u32, based_on: u32) -> Ctx<'a> {
        let stand = div.standings(based_on);
        let n = div.players.len();
        let mut pos = vec![0; n];
        for (i, s) in stand.iter().enumerate() {
            pos[s.player as usize - 1] = i;
        }
        let mut met = vec![Vec::new(); n];
        let mut byes = vec![0; n];
        for r in div.rounds.iter().take(round as usize - 1) {
            for p in &r.pairings {
                match p {
                    Pairing::Game(g) => {
                        met[g.first as usize - 1].push(g.second);
                        met[g.second as usize - 1].push(g.first);
                    }
                    Pairing::Bye {
                        player,
                        forfeit: false,
                        ..
                    } => byes[*player as usize - 1] += 1,
                    Pairing::Bye { .. } | Pairing::Absent { .. } => {}
                }
            }
        }
        for m in &mut met {
            m.sort_unstable();
        }
        Ctx {
            div,
            round,
            based_on,
            stand,
            pos,
            met,
            byes,
            notes: Vec::new(),
        }
    }

    fn met(&self, a: PlayerId, b: PlayerId) -> u32 {
        let list = &self.met[a as usize - 1];
        let lo = list.partition_point(|&x| x < b);
        let hi = list.partition_point(|&x| x <= b);
        (hi - lo) as u32
    }

    fn standing(&self, p: PlayerId) -> &Standing {
        &self.stand[self.pos[p as usize - 1]]
    }

    /// Sorts players by the based-on standings.
    fn order(&self, players: &[PlayerId]) -> Vec<PlayerId> {
        let mut v = players.to_vec();
        v.sort_by_key(|&p| self.pos[p as usize - 1]);
        v
    }

    /// The bye goes to the lowest-ranked player among those with the fewest byes.
    fn choose_bye(&self, order: &[PlayerId]) -> PlayerId {
        let fewest = order
            .iter()
            .map(|&p| self.byes[p as usize - 1])
            .min()
            .unwrap_or(0);
        *order
            .iter()
            .rev()
            .find(|&&p| self.byes[p as usize - 1] == fewest)
            .expect("a non-empty field")
    }

    fn fail(&self, method: Method, reason: impl Into<String>) -> TournamentError {
        TournamentError::PairingFailed {
            division: self.div.name.clone(),
            round: self.round,
            method,
            reason: reason.into(),
        }
    }

    fn rng(&self, purpose: u64, round: u32) -> Rng {
        Rng::new(
            self.div.seed
                ^ purpose.wrapping_mul(0x2545_F491_4F6C_DD1D)
                ^ (round as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15),
        )
    }
}

/// Players sorted by seed: rating (highest first), then player number.
pub fn seeds(div: &Division, players: &[PlayerId]) -> Vec<PlayerId> {
    let mut v = players.to_vec();
    v.sort_by_key(|&p| {
        let r = div.player(p).map_or(0, |x| x.rating);
        (std::cmp::Reverse(r), p)
    });
    v
}

/// Round `k` (from 0) of the circle method (Berger tables) for `n` seats, `n` even: seat `n−1`
/// is fixed, the others rotate. Past `n−2` the table repeats, giving a double round robin.
pub fn berger_round(n: usize, k: usize) -> Vec<(usize, usize)> {
    if n < 2 {
        return Vec::new();
    }
    let m = n - 1;
    let k = k % m;
    let mut v = vec![(k, m)];
    for i in 1..n / 2 {
        v.push(((k + i) % m, (k + m - i) % m));
    }
    v
}

impl Division {
    /// `#3 (Surname, Given)`.
    pub fn who(&self, p: PlayerId) -> String {
        match self.player(p) {
            Some(x) => format!("#{} ({})", p, x.name),
            None => format!("#{p}"),
        }
    }

    /// The method and based-on round for `round`, from the schedule unless given.
    pub fn resolve_method(
        &self,
        round: u32,
        method: Option<Method>,
        based_on: Option<u32>,
    ) -> Result<(Method, u32)> {
        let block = self.schedule.block_for(round, self.players.len());
        let method = match (method, block) {
            (Some(m), _) => m,
            (None, Some((b, _, _))) => b.method,
            (None, None) => {
                return Err(TournamentError::PastSchedule {
                    division: self.name.clone(),
                    round,
                    schedule: self.schedule.text.clone(),
                })
            }
        };
        let lag = block.map_or(0, |b| b.0.lag);
        let based_on = based_on.unwrap_or_else(|| round.saturating_sub(1 + lag));
        Ok((method, based_on))
    }

    /// Checks that `round` is a posted round or the next one.
    pub(crate) fn check_round_in_order(&self, round: u32) -> Result<()> {
        let next = self.rounds.len() as u32 + 1;
        if round == 0 || round > next {
            return Err(TournamentError::RoundOutOfOrder {
                division: self.name.clone(),
                round,
                next,
            });
        }
        Ok(())
    }

    /// Checks that `round` may be (re-)paired.
    pub(crate) fn check_pairable(&self, round: u32) -> Result<()> {
        self.check_round_in_order(round)?;
        if let Some(r) = self.round(round) {
            let has_results = r.pairings.iter().any(|p| match p {
                Pairing::Game(g) => g.result.is_some() || g.slip.is_some(),
                _ => false,
            });
            if has_results {
                return Err(TournamentError::RoundHasResults {
                    division: self.name.clone(),
                    round,
                });
            }
        }
        Ok(())
    }

    /// Computes the pairings of `round` by `method` (default: the schedule's) based on round
    /// `based_on` (default: the previous round, less the schedule's lag).
    pub fn propose(
        &self,
        round: u32,
        method: Option<Method>,
        based_on: Option<u32>,
    ) -> Result<Proposal> {
        self.check_pairable(round)?;
        let (method, based_on) = self.resolve_method(round, method, based_on)?;
        if based_on >= round {
            return Err(TournamentError::BasedOnTooLate {
                division: self.name.clone(),
                round,
                based_on,
            });
        }
        if method == Method::Manual {
            return Err(TournamentError::ManualRound {
                division: self.name.clone(),
                round,
            });
        }
        if method.uses_standings()
            || matches!(
                method,
                Method::LeaderVsMiddle | Method::Playoff | Method::Final
            )
        {
            for r in 1..=based_on {
                if !self.round_complete(r) {
                    return Err(TournamentError::IncompleteRound {
                        division: self.name.clone(),
                        round,
                        based_on: r,
                    });
                }
            }
        }
        let mut ctx = Ctx::new(self, round, based_on);
        let active = self.active_players(round);
        let pairs = match method {
            Method::KingOfTheHill
            | Method::Swiss
            | Method::AustralianDraw
            | Method::ChewPair
            | Method::Cop => standings_method(&mut ctx, method, &active)?,
            Method::RoundRobin | Method::InitialFontes => table_method(&mut ctx, method, &active)?,
            Method::Random => {
                let mut order = active.clone();
                let mut rng = ctx.rng(0x52414E44, round);
                rng.shuffle(&mut order);
                let mut out = Vec::new();
                if order.len() % 2 == 1 {
                    let b = ctx.choose_bye(&ctx.order(&order));
                    order.retain(|&p| p != b);
                    out.push((b, None));
                }
                let noise: Vec<i64> = (0..order.len() * order.len())
                    .map(|_| rng.below(1000) as i64)
                    .collect();
                let m = order.len();
                let r = 1000 * (m as i64 / 2 + 1);
                let cost =
                    |i: usize, j: usize| r * ctx.met(order[i], order[j]) as i64 + noise[i * m + j];
                let all = |i: usize| (0..m).filter(|&j| j != i).collect::<Vec<_>>();
                let (mate, _) = min_cost_perfect_matching(m, &cost, &all)
                    .ok_or_else(|| ctx.fail(method, "an odd number of players to pair"))?;
                for i in 0..m {
                    if mate[i] > i {
                        out.push((order[i], Some(order[mate[i]])));
                    }
                }
                out
            }
            Method::LeaderVsMiddle => {
                // Literacy 2018: "Lead position will play middle position and descending order
                // will follow for 2nd Lead etc."
                let mut order = ctx.order(&active);
                let mut out = Vec::new();
                if order.len() % 2 == 1 {
                    let b = ctx.choose_bye(&order);
                    order.retain(|&p| p != b);
                    out.push((b, None));
                }
                let half = order.len() / 2;
                for i in 0..half {
                    out.push((order[i], Some(order[i + half])));
                }
                out
            }
            Method::Playoff => {
                // Literacy 2018: "1st plays 3rd, 2nd plays 4th"; the rest play on, KOTH.
                let mut order = ctx.order(&active);
                if order.len() < 4 {
                    return Err(ctx.fail(method, "playoffs need four teams"));
                }
                let mut out = Vec::new();
                if order.len() % 2 == 1 {
                    let b = ctx.choose_bye(&order[4..]);
                    order.retain(|&p| p != b);
                    out.push((b, None));
                }
                out.push((order[0], Some(order[2])));
                out.push((order[1], Some(order[3])));
                for c in order[4..].chunks_exact(2) {
                    out.push((c[0], Some(c[1])));
                }
                out
            }
            Method::Final => final_method(&mut ctx, &active)?,
            Method::Manual => unreachable!("refused above"),
        };
        let pairings = seat_and_number(&mut ctx, pairs)?;
        Ok(Proposal {
            round,
            method,
            based_on,
            pairings,
            notes: ctx.notes,
        })
    }

    /// The automatic entry of a player who has withdrawn.
    pub(crate) fn absent_entry(&self, p: PlayerId) -> Pairing {
        Pairing::Absent {
            player: p,
            spread: match self.config.withdrawn_result {
                WithdrawnResult::ForfeitLoss => -self.config.forfeit_spread,
                WithdrawnResult::Void => 0,
            },
        }
    }
}

/// Firsts, boards, byes and withdrawn players' entries.
fn seat_and_number(ctx: &mut Ctx, pairs: Vec<Pair>) -> Result<Vec<Pairing>> {
    let div = ctx.div;
    let tally = div.firsts_tally(ctx.round);
    let mut seen = BTreeSet::new();
    for &(a, b) in &pairs {
        for p in std::iter::once(a).chain(b) {
            if !seen.insert(p) {
                return Err(TournamentError::PairedTwice {
                    division: div.name.clone(),
                    round: ctx.round,
                    player: div.who(p),
                });
            }
        }
    }
    let mut games: Vec<(usize, Game)> = Vec::new();
    let mut byes = Vec::new();
    for (a, b) in pairs {
        match b {
            Some(b) => {
                let (first, second, first_by) =
                    firsts::decide(&div.config.firsts, &tally, div.seed, ctx.round, a, b);
                let top = ctx.pos[a as usize - 1].min(ctx.pos[b as usize - 1]);
                games.push((
                    top,
                    Game {
                        board: 0,
                        first,
                        second,
                        first_by,
                        result: None,
                        slip: None,
                        corrections: Vec::new(),
                    },
                ));
            }
            None => byes.push(Pairing::Bye {
                player: a,
                spread: div.config.bye_spread,
                counts_as: None,
                forfeit: false,
                pending: false,
            }),
        }
    }
    games.sort_by_key(|g| g.0);
    let mut out: Vec<Pairing> = games
        .into_iter()
        .enumerate()
        .map(|(i, (_, mut g))| {
            g.board = i as u32 + 1;
            Pairing::Game(g)
        })
        .collect();
    out.extend(byes);
    for p in &div.players {
        if !p.active_in(ctx.round) {
            out.push(div.absent_entry(p.id));
        }
    }
    Ok(out)
}

/// King of the Hill, Swiss and the Australian Draw, after Gibsonization and the bye.
fn standings_method(ctx: &mut Ctx, method: Method, active: &[PlayerId]) -> Result<Vec<Pair>> {
    let order = ctx.order(active);
    let mut out = Vec::new();
    let mut rest = order.clone();
    let mut bye_given = false;
    if let Some(cfg) = ctx.div.config.gibson {
        let (pairs, left, bye) = gibsonize(ctx, &order, cfg);
        out.extend(pairs);
        rest = left;
        bye_given = bye;
    }
    if rest.len() % 2 == 1 && !bye_given {
        let b = ctx.choose_bye(&rest);
        rest.retain(|&p| p != b);
        out.push((b, None));
    }
    let pairs: Vec<Pair> = match method {
        Method::KingOfTheHill => match ctx.div.config.max_repeats {
            None => rest.chunks_exact(2).map(|c| (c[0], Some(c[1]))).collect(),
            Some(limit) => koth_limited(ctx, &rest, limit)
                .into_iter()
                .map(|(a, b)| (a, Some(b)))
                .collect(),
        },
        Method::Swiss => swiss(ctx, &rest)
            .into_iter()
            .map(|(a, b)| (a, Some(b)))
            .collect(),
        Method::ChewPair | Method::Cop => contenders_method(ctx, method, &rest)
            .into_iter()
            .map(|(a, b)| (a, Some(b)))
            .collect(),
        _ => australian(ctx, &rest)?
            .into_iter()
            .map(|(a, b)| (a, Some(b)))
            .collect(),
    };
    out.extend(pairs);
    let repeats = out
        .iter()
        .filter(|(a, b)| b.is_some_and(|b| ctx.met(*a, b) > 0))
        .count();
    if repeats > 0 {
        ctx.notes.push(format!("{repeats} repeat pairing(s)"));
    }
    Ok(out)
}

/// tsh's default flight cap (research §1, PairingCommand): how many contenders may be paired
/// among themselves: 2 with one round left, 4·(r−1) with 2–3 rounds left, 12 otherwise. The
/// division's `flight-cap` setting chooses another of tsh's variants ([`FlightCap`]).
pub fn flight_cap(rounds_left: u32) -> usize {
    crate::model::FlightCap::Tsh.cap(rounds_left)
}

/// The best-possible-finish spread a round (tsh's `gibson_spread`, default 500): the division's
/// Gibson spread when set.
fn bpf_spread(ctx: &Ctx) -> i32 {
    ctx.div.config.gibson.map_or(500, |g| g.spread_per_round)
}

/// Chew pairings and COP, after Gibsons and the bye: `order` (standings order, even count) is
/// split into the contenders for the prize bands, taken from the top and rounded up to an even
/// group, and the rest; each group is paired on its own ([`pair_groups_apart`]). Chew: the flight
/// of contenders by the leaders' preferences ([`chew_flight`]; Swiss when everyone contends), the
/// rest Swiss. COP: Swiss, with King of the Hill among the contenders in the last round.
/// Under `max-repeats`, when that would pair anyone beyond the limit, the field is paired as a
/// whole instead ([`pair_within_limit`]).
fn contenders_method(
    ctx: &mut Ctx,
    method: Method,
    order: &[PlayerId],
) -> Vec<(PlayerId, PlayerId)> {
    let rounds_left = ctx.div.total_rounds().saturating_sub(ctx.based_on).max(1);
    let bands = match ctx.div.config.prize_bands {
        Some(b) => b as usize,
        None => {
            ctx.notes
                .push("prize-bands is not set: 1 place assumed for the contenders".into());
            1
        }
    };
    let bands = bands.clamp(1, order.len().max(1));
    // COP's simulated field and seed, kept for the control-loss check.
    let mut cop_field: Option<(Vec<crate::cop::SimStanding>, u64)> = None;
    let contender: Vec<bool> = if method == Method::ChewPair {
        // Best possible finish: in the bands already, or able to catch the player now at the
        // last paid place, winning every remaining game by the BPF spread.
        let spread = bpf_spread(ctx);
        let target = ctx.standing(order[bands - 1]).clone();
        order
            .iter()
            .enumerate()
            .map(|(i, &p)| i < bands || can_catch(ctx.standing(p), &target, rounds_left, spread))
            .collect()
    } else {
        let field: Vec<crate::cop::SimStanding> = order
            .iter()
            .map(|&p| {
                let s = ctx.standing(p);
                crate::cop::SimStanding {
                    wins2: s.wins2 as i32,
                    spread: s.ranking_spread(),
                }
            })
            .collect();
        let seed = ctx.rng(0x434F50, ctx.round).next_u64();
        let chances = crate::cop::place_chances(
            &field,
            rounds_left,
            bands,
            crate::cop::DEFAULT_SIMS,
            seed,
            ctx.div.config.bye_spread,
        );
        let need = crate::cop::HOPEFULNESS[(rounds_left as usize - 1).min(4)];
        cop_field = Some((field, seed));
        chances.iter().map(|&c| c >= need).collect()
    };
    let count = contender.iter().filter(|&&c| c).count();
    let mut k = contender.iter().rposition(|&c| c).map_or(0, |i| i + 1);
    k += k % 2;
    let mut cap_note = String::new();
    if method == Method::ChewPair {
        let variant = ctx.div.config.flight_cap;
        let cap = variant.cap(rounds_left);
        if k > cap {
            k = cap;
            cap_note = format!(", flight cap {cap} ({})", variant.name());
        }
    }
    let k = k.min(order.len());
    let names = |v: &[PlayerId]| {
        v.iter()
            .map(|&p| ctx.div.who(p))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let listed: Vec<PlayerId> = order
        .iter()
        .zip(&contender)
        .filter(|(_, &c)| c)
        .map(|(&p, _)| p)
        .collect();
    ctx.notes.push(format!(
        "{} contenders for {} prize band(s) ({} round(s) left): {count} contender(s){cap_note}: {}",
        if method == Method::Cop { "COP" } else { "Chew" },
        bands,
        rounds_left,
        names(&listed)
    ));
    let (top, rest) = order.split_at(k);
    // COP's control loss (Woogles' CL): the leader who could win out and still not finish first
    // plays the lowest contender who can still finish first (in any simulation).
    let control = match cop_field.as_ref() {
        Some((field, seed))
            if rounds_left <= crate::cop::CONTROL_LOSS_ROUNDS_LEFT && top.len() >= 4 =>
        {
            let bye = ctx.div.config.bye_spread;
            let sims = crate::cop::CONTROL_LOSS_SIMS;
            let lost = crate::cop::control_loss(field, rounds_left, sims, seed ^ 0xC1, bye);
            (lost > crate::cop::CONTROL_LOSS_THRESHOLD).then(|| ControlLoss {
                lost,
                first: crate::cop::place_chances(field, rounds_left, 1, sims, seed ^ 0xF1, bye),
            })
        }
        _ => None,
    };
    let mark = ctx.notes.len();
    let everyone = k == order.len();
    let out = pair_groups_apart(
        ctx,
        method,
        top,
        rest,
        rounds_left,
        control.as_ref(),
        everyone,
    );
    // The repeat limit is the whole field's: tsh's repeats argument bounds every pair a pairing
    // command makes (research §1.5), Woogles makes a pair beyond max_repeats all but impossible
    // (§3.2) and COP weighs repeats in one matching of the whole field (§3.3). So when pairing the
    // contenders and the rest apart breaks the limit, the field is paired as a whole.
    match ctx.div.config.max_repeats {
        Some(limit) if out.iter().any(|&(a, b)| ctx.met(a, b) > limit) => {
            ctx.notes.truncate(mark);
            pair_within_limit(ctx, method, top, rest, rounds_left, control.as_ref(), limit)
        }
        _ => out,
    }
}

/// COP's control-loss figures, when the leader has lost control: how often it did not finish
/// first though it won every game, and each contender's chance of finishing first (by place in
/// the standings).
struct ControlLoss {
    lost: f64,
    first: Vec<f64>,
}

impl ControlLoss {
    /// The contenders (places in `top`, from the lowest up) who can still finish first.
    fn opponents(&self, top: &[PlayerId]) -> Vec<usize> {
        (1..top.len())
            .rev()
            .filter(|&i| self.first[i] > 0.0)
            .collect()
    }

    fn note(&self, ctx: &Ctx, leader: PlayerId, opponent: PlayerId, lowest: bool) -> String {
        format!(
            "COP control loss: {} would not finish first in {:.0}% of {} simulations in which \
             it wins every game (threshold {:.0}%): paired with {}, the lowest contender who can \
             still finish first{}",
            ctx.div.who(leader),
            self.lost * 100.0,
            crate::cop::CONTROL_LOSS_SIMS,
            crate::cop::CONTROL_LOSS_THRESHOLD * 100.0,
            ctx.div.who(opponent),
            if lowest {
                ""
            } else {
                " and whom it can play within max-repeats"
            }
        )
    }
}

/// The contenders (`top`) and the rest paired each on their own. Chew: the flight by the leaders'
/// preferences ([`chew_flight`]), or Swiss when `everyone` contends; COP: King of the Hill among
/// the contenders in the last round, else Swiss. The rest: Swiss.
fn pair_groups_apart(
    ctx: &mut Ctx,
    method: Method,
    top: &[PlayerId],
    rest: &[PlayerId],
    rounds_left: u32,
    control: Option<&ControlLoss>,
    everyone: bool,
) -> Vec<(PlayerId, PlayerId)> {
    let mut forced: Option<(PlayerId, PlayerId)> = None;
    if let Some(c) = control {
        if let Some(&i) = c.opponents(top).first() {
            forced = Some((top[0], top[i]));
            let note = c.note(ctx, top[0], top[i], true);
            ctx.notes.push(note);
        }
    }
    let rest_of_top: Vec<PlayerId>;
    let top: &[PlayerId] = match forced {
        Some((a, b)) => {
            rest_of_top = top.iter().copied().filter(|&p| p != a && p != b).collect();
            &rest_of_top
        }
        None => top,
    };
    let mut out = if method == Method::Cop && rounds_left == 1 {
        match ctx.div.config.max_repeats {
            Some(limit) => koth_limited(ctx, top, limit),
            None => top.chunks_exact(2).map(|c| (c[0], c[1])).collect(),
        }
    } else if method == Method::ChewPair && !everyone {
        match chew_flight(ctx, top, rounds_left, bpf_spread(ctx)) {
            Some((pairs, repeats)) => {
                if repeats > 0 {
                    ctx.notes.push(format!(
                        "the flight needs up to {repeats} repeat(s) to pair (the fewest that do)"
                    ));
                }
                pairs
            }
            None => swiss(ctx, top),
        }
    } else {
        // Everyone contends: Swiss for all (tsh: all contenders go to the Swiss).
        swiss(ctx, top)
    };
    out.extend(swiss(ctx, rest));
    out.extend(forced);
    out
}

/// Chew pairings and COP when the contenders (`top`) and the rest, each paired on its own, would
/// break the repeat limit: the limit holds for the whole field, and the leaders' constraints are
/// met as far as it allows. Every choice below is kept only if the players still unpaired can be
/// paired as well as the whole field could ([`FieldCheck`]): first with the fewest repeats beyond
/// the limit (none, whenever the field allows it, as Swiss finds), then with the fewest
/// contenders paired outside their group.
/// - COP's control loss: the leader plays the lowest contender who can still finish first and
///   whom it can play so.
/// - Leaders, from the top of the contenders: in COP's last round King of the Hill (each meets
///   the nearest-ranked contender below that it may meet); in Chew, when not everyone contends,
///   tsh's preferences ([`chew_preference`]). A leader with no such contender is paired with the
///   rest.
/// - Everyone else: Swiss, contenders kept among themselves as far as the limit allows.
fn pair_within_limit(
    ctx: &mut Ctx,
    method: Method,
    top: &[PlayerId],
    rest: &[PlayerId],
    rounds_left: u32,
    control: Option<&ControlLoss>,
    limit: u32,
) -> Vec<(PlayerId, PlayerId)> {
    let mut in_top = vec![false; ctx.div.players.len()];
    for &p in top {
        in_top[p as usize - 1] = true;
    }
    let all: Vec<PlayerId> = top.iter().chain(rest).copied().collect();
    let mut field = FieldCheck::new(ctx, limit, in_top, &all);
    let mut notes = Vec::new();
    let mut pairs = Vec::new();
    if let Some(c) = control {
        let opponents = c.opponents(top);
        match opponents
            .iter()
            .position(|&i| field.take(ctx, top[0], top[i]))
        {
            Some(at) => {
                let i = opponents[at];
                pairs.push((top[0], top[i]));
                notes.push(c.note(ctx, top[0], top[i], at == 0));
            }
            None if !opponents.is_empty() => notes.push(format!(
                "COP control loss: {} has lost control, but no contender who can still finish \
                 first can play it within max-repeats {limit}",
                ctx.div.who(top[0])
            )),
            None => {}
        }
    }
    let koth = method == Method::Cop && rounds_left == 1;
    let chew = method == Method::ChewPair && !rest.is_empty();
    if koth || chew {
        let prefer = chew_preference(ctx, rounds_left, bpf_spread(ctx));
        for (i, &leader) in top.iter().enumerate() {
            if !field.is_left(leader) {
                continue;
            }
            // Contenders who found no partner above are paired outside the group in every
            // pairing as good as the field's, so only those below are asked.
            let mut options: Vec<PlayerId> = top[i + 1..]
                .iter()
                .copied()
                .filter(|&o| field.is_left(o) && ctx.met(leader, o) <= limit)
                .collect();
            if chew {
                options.sort_by_key(|&o| prefer(leader, o));
            }
            if let Some(o) = options.into_iter().find(|&o| field.take(ctx, leader, o)) {
                pairs.push((leader, o));
            }
        }
    }
    let grouped = |p: PlayerId| field.in_top[p as usize - 1];
    let others = swiss_grouped(ctx, &field.left, Some(&grouped));
    let mut outside: Vec<PlayerId> = others
        .iter()
        .filter(|&&(a, b)| grouped(a) != grouped(b))
        .map(|&(a, b)| if grouped(a) { a } else { b })
        .collect();
    outside.sort_by_key(|&p| ctx.pos[p as usize - 1]);
    pairs.extend(others);
    if !outside.is_empty() {
        let names: Vec<String> = outside.iter().map(|&p| ctx.div.who(p)).collect();
        notes.push(format!(
            "the contenders cannot all be paired among themselves within max-repeats {limit} \
             (the limit holds for the whole field): {} paired outside the group",
            names.join(", ")
        ));
    }
    if pairs.iter().any(|&(a, b)| ctx.met(a, b) > limit) {
        notes.push(format!(
            "no pairing of the whole field keeps within max-repeats {limit}: the fewest repeats \
             beyond it"
        ));
    }
    ctx.notes.extend(notes);
    pairs
}

/// The check behind [`pair_within_limit`]: can the players not yet paired still be paired as
/// well as the whole field could? "As well" counts, first, the repeats beyond the limit (squared
/// meetings, as the Swiss counts them) and then the contenders paired outside their group, as one
/// cost where a single repeat beyond the limit outweighs every crossing. Each check is a
/// minimum-cost perfect matching of the players left; a witness (the last such matching) answers
/// without one when the pair asked for is in it.
struct FieldCheck {
    limit: u32,
    in_top: Vec<bool>,
    /// The weight of a repeat beyond the limit: more than all crossings together.
    heavy: i64,
    /// The players not yet paired, in standings order.
    left: Vec<PlayerId>,
    /// The whole field's best cost, and what the pairs taken so far cost.
    target: i64,
    spent: i64,
    /// A best pairing of the players left, by player index.
    witness: Vec<Option<PlayerId>>,
}

impl FieldCheck {
    fn new(ctx: &Ctx, limit: u32, in_top: Vec<bool>, all: &[PlayerId]) -> FieldCheck {
        let mut f = FieldCheck {
            limit,
            in_top,
            heavy: all.len() as i64 / 2 + 1,
            left: all.to_vec(),
            target: 0,
            spent: 0,
            witness: vec![None; ctx.div.players.len()],
        };
        let (target, pairs) = f.best(ctx, all);
        f.target = target;
        for (a, b) in pairs {
            f.witness[a as usize - 1] = Some(b);
            f.witness[b as usize - 1] = Some(a);
        }
        f
    }

    fn cost(&self, ctx: &Ctx, a: PlayerId, b: PlayerId) -> i64 {
        let rep = ctx.met(a, b);
        let beyond = if rep > self.limit { rep as i64 } else { 0 };
        let across = self.in_top[a as usize - 1] != self.in_top[b as usize - 1];
        self.heavy * beyond * beyond + across as i64
    }

    fn is_left(&self, p: PlayerId) -> bool {
        self.left.contains(&p)
    }

    /// The least cost of pairing `players` (an even number, in standings order), and a pairing
    /// that costs that. Among equal costs the matching prefers neighbours in the standings, so
    /// the witness tends to hold the pairs King of the Hill asks for first.
    fn best(&self, ctx: &Ctx, players: &[PlayerId]) -> (i64, Vec<(PlayerId, PlayerId)>) {
        let m = players.len();
        let scale = (m * m) as i64 + 1;
        let cost = |i: usize, j: usize| {
            self.cost(ctx, players[i], players[j]) * scale + i.abs_diff(j) as i64
        };
        let near = |i: usize| -> Vec<usize> {
            (i.saturating_sub(6)..(i + 7).min(m))
                .filter(|&j| j != i)
                .collect()
        };
        let Some((mate, _)) = min_cost_perfect_matching(m, &cost, &near) else {
            return (i64::MAX, Vec::new());
        };
        let pairs: Vec<(PlayerId, PlayerId)> = (0..m)
            .filter(|&i| mate[i] > i)
            .map(|i| (players[i], players[mate[i]]))
            .collect();
        let total = pairs.iter().map(|&(a, b)| self.cost(ctx, a, b)).sum();
        (total, pairs)
    }

    /// Pairs `a` with `b` if the players left can then still be paired as well as the field.
    fn take(&mut self, ctx: &Ctx, a: PlayerId, b: PlayerId) -> bool {
        if a == b || !self.is_left(a) || !self.is_left(b) {
            return false;
        }
        let cost = self.cost(ctx, a, b);
        if self.witness[a as usize - 1] != Some(b) {
            let others: Vec<PlayerId> = self
                .left
                .iter()
                .copied()
                .filter(|&p| p != a && p != b)
                .collect();
            let (rest, pairs) = self.best(ctx, &others);
            if rest == i64::MAX || self.spent + cost + rest != self.target {
                return false;
            }
            for (x, y) in pairs {
                self.witness[x as usize - 1] = Some(y);
                self.witness[y as usize - 1] = Some(x);
            }
        }
        self.witness[a as usize - 1] = None;
        self.witness[b as usize - 1] = None;
        self.spent += cost;
        self.left.retain(|&p| p != a && p != b);
        true
    }
}

/// tsh's Chew pairing of a flight of contenders (research §1.5, steps 3 and 4), `flight` in
/// standings order and even: the fewest repeats that let the flight pair at all is found first
/// (no pair may have met more often than that); then, from the top, each leader takes the
/// opponent it prefers, in order: one who can still catch up with it (BPF at `spread` a round),
/// fewer meetings so far, not last round's opponent, the lowest ranked. A choice that would
/// leave the others unable to pair is passed over. Returns the pairs and the repeat limit used.
fn chew_flight(
    ctx: &Ctx,
    flight: &[PlayerId],
    rounds_left: u32,
    spread: i32,
) -> Option<(Vec<(PlayerId, PlayerId)>, u32)> {
    fn pick(
        ctx: &Ctx,
        left: &mut Vec<PlayerId>,
        limit: u32,
        prefer: &dyn Fn(PlayerId, PlayerId) -> ChewKey,
        out: &mut Vec<(PlayerId, PlayerId)>,
    ) -> bool {
        let Some(&leader) = left.first() else {
            return true;
        };
        let mut options: Vec<PlayerId> = left[1..]
            .iter()
            .copied()
            .filter(|&o| ctx.met(leader, o) <= limit)
            .collect();
        options.sort_by_key(|&o| prefer(leader, o));
        for o in options {
            let keep = left.clone();
            left.retain(|&x| x != leader && x != o);
            out.push((leader, o));
            if pick(ctx, left, limit, prefer, out) {
                return true;
            }
            out.pop();
            *left = keep;
        }
        false
    }
    let prefer = chew_preference(ctx, rounds_left, spread);
    let most = flight
        .iter()
        .flat_map(|&a| flight.iter().map(move |&b| (a, b)))
        .filter(|(a, b)| a != b)
        .map(|(a, b)| ctx.met(a, b))
        .max()
        .unwrap_or(0);
    for limit in 0..=most {
        if ctx.div.config.max_repeats.is_some_and(|m| limit > m) {
            break;
        }
        let mut left = flight.to_vec();
        let mut out = Vec::new();
        if pick(ctx, &mut left, limit, &prefer, &mut out) {
            return Some((out, limit));
        }
    }
    None
}

/// A Chew leader's preferences (research §1.5 step 4), as a key to sort its possible opponents
/// by: first one who can still catch up with it (BPF at `spread` a round), then fewer meetings so
/// far, then not last round's opponent, then the lowest ranked.
fn chew_preference<'c>(
    ctx: &'c Ctx,
    rounds_left: u32,
    spread: i32,
) -> impl Fn(PlayerId, PlayerId) -> ChewKey + 'c {
    let last = move |p: PlayerId| -> Option<PlayerId> {
        let r = ctx.round.checked_sub(2)?;
        ctx.div
            .rounds
            .get(r as usize)?
            .pairings
            .iter()
            .find_map(|x| {
                let g = x.game()?;
                g.opponent_of(p)
            })
    };
    move |leader: PlayerId, o: PlayerId| {
        (
            !can_catch(ctx.standing(o), ctx.standing(leader), rounds_left, spread),
            ctx.met(leader, o),
            last(leader) == Some(o),
            std::cmp::Reverse(ctx.pos[o as usize - 1]),
        )
    }
}

/// How a Chew leader ranks an opponent: smaller is preferred ([`chew_preference`]).
type ChewKey = (bool, u32, bool, std::cmp::Reverse<usize>);

/// Whether `chaser` can still catch `leader` with `rounds` left, gaining `spread` a round
/// (tsh's assumption: the chaser wins every remaining game by that much, the leader loses).
fn can_catch(chaser: &Standing, leader: &Standing, rounds: u32, spread: i32) -> bool {
    let gap2 = leader.wins2 as i64 - chaser.wins2 as i64;
    let reach2 = 2 * rounds as i64;
    if gap2 < reach2 {
        true
    } else if gap2 == reach2 {
        chaser.ranking_spread() as i64 + rounds as i64 * spread as i64
            >= leader.ranking_spread() as i64
    } else {
        false
    }
}

/// Gibsonization (tsh, Woogles): from the top, each player nobody below can catch is a Gibson.
/// Gibsons play each other 1v2; an odd Gibson takes the bye if the field is odd, else plays the
/// highest-ranked player who can no longer reach the prize places (fewest meetings with the
/// Gibson first), or the lowest-ranked player when everyone still can. Returns the pairs, the
/// players left to pair, and whether the bye was used.
fn gibsonize(
    ctx: &mut Ctx,
    order: &[PlayerId],
    cfg: GibsonConfig,
) -> (Vec<Pair>, Vec<PlayerId>, bool) {
    let rounds_left = ctx.div.total_rounds().saturating_sub(ctx.based_on);
    if rounds_left == 0 || order.len() < 2 {
        return (Vec::new(), order.to_vec(), false);
    }
    let mut gibsons = Vec::new();
    for (k, &p) in order.iter().enumerate() {
        let leader = ctx.standing(p);
        let safe = order[k + 1..]
            .iter()
            .all(|&q| !can_catch(ctx.standing(q), leader, rounds_left, cfg.spread_per_round));
        if safe && k == gibsons.len() && k + 1 < order.len() {
            gibsons.push(p);
        } else {
            break;
        }
    }
    if gibsons.is_empty() {
        return (Vec::new(), order.to_vec(), false);
    }
    ctx.notes.push(format!(
        "Gibsonized ({} round(s) left at {} spread a round): {}",
        rounds_left,
        cfg.spread_per_round,
        gibsons
            .iter()
            .map(|&g| ctx.div.who(g))
            .collect::<Vec<_>>()
            .join(", ")
    ));
    let mut out: Vec<Pair> = gibsons
        .chunks_exact(2)
        .map(|c| (c[0], Some(c[1])))
        .collect();
    let mut rest: Vec<PlayerId> = order[gibsons.len()..].to_vec();
    let mut bye = false;
    if gibsons.len() % 2 == 1 {
        let g = *gibsons.last().expect("a Gibson");
        if order.len() % 2 == 1 {
            out.push((g, None));
            bye = true;
        } else {
            let places = cfg.prize_places.max(1) as usize;
            let target = order.get(places - 1).map(|&t| ctx.standing(t).clone());
            let contender = |q: PlayerId| -> bool {
                let idx = order.iter().position(|&x| x == q).unwrap_or(usize::MAX);
                if idx < places {
                    return true;
                }
                match &target {
                    Some(t) => can_catch(ctx.standing(q), t, rounds_left, cfg.spread_per_round),
                    None => true,
                }
            };
            let opponent = rest
                .iter()
                .enumerate()
                .filter(|(_, &q)| !contender(q))
                .min_by_key(|(i, &q)| (ctx.met(g, q), *i))
                .map(|(_, &q)| q)
                .unwrap_or(*rest.last().expect("someone left"));
            rest.retain(|&q| q != opponent);
            out.push((g, Some(opponent)));
        }
    }
    (out, rest, bye)
}

/// King of the Hill under a repeat limit (tsh KOTH's repeats argument): from the top, each player
/// meets the nearest-ranked player below whom they have met no more than `limit` times before,
/// such that everyone below can still be paired that way (depth-first, the first such draw in
/// rank order). When no draw keeps the limit, plain rank-adjacent pairs, with a note.
fn koth_limited(ctx: &mut Ctx, order: &[PlayerId], limit: u32) -> Vec<(PlayerId, PlayerId)> {
    fn go(
        ctx: &Ctx,
        left: &mut Vec<PlayerId>,
        limit: u32,
        out: &mut Vec<(PlayerId, PlayerId)>,
        budget: &mut u32,
    ) -> bool {
        if left.is_empty() {
            return true;
        }
        if *budget == 0 {
            return false;
        }
        *budget -= 1;
        let top = left.remove(0);
        for i in 0..left.len() {
            let q = left[i];
            if ctx.met(top, q) > limit {
                continue;
            }
            left.remove(i);
            out.push((top, q));
            if go(ctx, left, limit, out, budget) {
                return true;
            }
            out.pop();
            left.insert(i, q);
        }
        left.insert(0, top);
        false
    }
    let mut left = order.to_vec();
    let mut out = Vec::new();
    let mut budget = 100_000;
    if go(ctx, &mut left, limit, &mut out, &mut budget) {
        return out;
    }
    ctx.notes.push(format!(
        "no King of the Hill draw keeps every pair within {limit} repeat(s): paired by rank"
    ));
    order.chunks_exact(2).map(|c| (c[0], c[1])).collect()
}

/// Swiss by minimum-cost perfect matching over the players (standings order, even count).
///
/// Cost of pairing the players ranked `i < j`:
/// `R·repeats² + G·(difference in half-wins)² + minor`, where `minor` is `|j − i − h|` within a
/// win group of size `2h` or `2h+1` (top half against bottom half: 1v(h+1), 2v(h+2) …) and `j − i`
/// across groups (a floater meets the nearest player of the next group). `G` exceeds the sum of
/// all minor terms and `R` the sum of all group terms, so the matching first avoids repeats
/// entirely whenever a repeat-free pairing exists, then keeps players with equal wins together,
/// then folds each group. The matching is exact (see [`crate::matching`]).
fn swiss(ctx: &Ctx, order: &[PlayerId]) -> Vec<(PlayerId, PlayerId)> {
    swiss_grouped(ctx, order, None)
}

/// [`swiss`], with players marked by `group` (the contenders) kept among themselves as far as
/// the repeat limit allows: a pair across the mark costs more than all the win-group and minor
/// terms together, and less than any repeat beyond the limit. So the fewest repeats beyond the
/// limit come first, then the fewest players paired across, then the Swiss.
fn swiss_grouped(
    ctx: &Ctx,
    order: &[PlayerId],
    group: Option<&dyn Fn(PlayerId) -> bool>,
) -> Vec<(PlayerId, PlayerId)> {
    let m = order.len();
    if m == 0 {
        return Vec::new();
    }
    let w2: Vec<i64> = order
        .iter()
        .map(|&p| ctx.standing(p).wins2 as i64)
        .collect();
    let mut group_size = std::collections::BTreeMap::new();
    for &w in &w2 {
        *group_size.entry(w).or_insert(0i64) += 1;
    }
    let h: Vec<i64> = w2.iter().map(|w| group_size[w] / 2).collect();
    let dmax = w2.iter().max().unwrap_or(&0) - w2.iter().min().unwrap_or(&0);
    let mi = m as i64;
    let limit = ctx.div.config.max_repeats;
    let g = mi * mi / 2 + 1;
    let mut r = (mi / 2 + 1) * (g * dmax * dmax + mi) + 1;
    let side: Vec<bool> = match group {
        Some(f) => order.iter().map(|&p| f(p)).collect(),
        None => Vec::new(),
    };
    // A pair across the group mark (only with a group): `c` exceeds everything below it.
    let c = r;
    if group.is_some() {
        r = (mi / 2 + 1).saturating_mul(c).saturating_add(1);
    }
    let cost = |a: usize, b: usize| -> i64 {
        let (i, j) = (a.min(b), a.max(b));
        let rep = ctx.met(order[i], order[j]) as i64;
        let d = (w2[i] - w2[j]).abs();
        let span = (j - i) as i64;
        let mut minor = if d == 0 { (span - h[i]).abs() } else { span };
        // Under a repeat limit (tsh NewSwiss's repeats argument), repeats within it cost only a
        // preference below the win groups; beyond it they are avoided whenever possible.
        let forbidden = match limit {
            Some(l) if rep <= l as i64 => {
                minor = minor.saturating_add(mi * rep);
                0
            }
            Some(_) => rep,
            None => rep,
        };
        let across = !side.is_empty() && side[i] != side[j];
        r.saturating_mul(forbidden * forbidden)
            .saturating_add(if across { c } else { 0 })
            .saturating_add(g * d * d)
            .saturating_add(minor)
    };
    const K: i64 = 6;
    let candidates = |i: usize| -> Vec<usize> {
        let mut v = Vec::new();
        let ii = i as i64;
        for centre in [ii, ii + h[i], ii - h[i]] {
            for j in centre - K..=centre + K {
                if j >= 0 && j < mi && j != ii {
                    v.push(j as usize);
                }
            }
        }
        v
    };
    let Some((mate, _)) = min_cost_perfect_matching(m, &cost, &candidates) else {
        // Callers always pass an even field; pair neighbours rather than fail.
        return order.chunks_exact(2).map(|c| (c[0], c[1])).collect();
    };
    (0..m)
        .filter(|&i| mate[i] > i)
        .map(|i| (order[i], order[mate[i]]))
        .collect()
}

/// The Australian Draw (AUPAIR, as Woogles reimplements it): round 1 is a casement draw (top
/// half against bottom half by seed); later, the top remaining player meets the highest-standing
/// opponent not yet met that still leaves the rest pairable. When no such draw exists, meetings
/// before a reset point are forgiven, moving the point forward a round at a time.
fn australian(ctx: &mut Ctx, order: &[PlayerId]) -> Result<Vec<(PlayerId, PlayerId)>> {
    let m = order.len();
    if ctx.based_on == 0 {
        let seeded = seeds(ctx.div, order);
        let half = m / 2;
        return Ok((0..half).map(|i| (seeded[i], seeded[i + half])).collect());
    }
    for reset in 1..=ctx.round {
        let mut forbidden = BTreeSet::new();
        for r in ctx.div.rounds.iter().take(ctx.round as usize - 1) {
            if r.number < reset {
                continue;
            }
            for p in &r.pairings {
                if let Pairing::Game(g) = p {
                    forbidden.insert((g.first.min(g.second), g.first.max(g.second)));
                }
            }
        }
        let allowed = |a: PlayerId, b: PlayerId| !forbidden.contains(&(a.min(b), a.max(b)));
        let mut used = vec![false; m];
        let mut pairs = Vec::new();
        let mut budget = 200_000u64;
        if ad_search(order, &mut used, &allowed, &mut pairs, &mut budget) {
            if reset > 1 {
                ctx.notes.push(format!(
                    "Australian Draw: meetings before round {reset} forgiven to find a draw"
                ));
            }
            return Ok(pairs);
        }
    }
    Err(ctx.fail(Method::AustralianDraw, "no draw exists"))
}

fn ad_search(
    order: &[PlayerId],
    used: &mut [bool],
    allowed: &dyn Fn(PlayerId, PlayerId) -> bool,
    pairs: &mut Vec<(PlayerId, PlayerId)>,
    budget: &mut u64,
) -> bool {
    let Some(i) = used.iter().position(|u| !u) else {
        return true;
    };
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    used[i] = true;
    for j in i + 1..order.len() {
        if used[j] || !allowed(order[i], order[j]) {
            continue;
        }
        used[j] = true;
        // Prune: every player still unpaired needs a possible opponent.
        let stuck = (0..order.len()).any(|x| {
            !used[x] && !(0..order.len()).any(|y| y != x && !used[y] && allowed(order[x], order[y]))
        });
        if !stuck {
            pairs.push((order[i], order[j]));
            if ad_search(order, used, allowed, pairs, budget) {
                return true;
            }
            pairs.pop();
        }
        used[j] = false;
    }
    used[i] = false;
    false
}

/// Round robin and Initial Fontes: tables over the block's roster. Seats whose player withdrew,
/// and the bye seat of an odd table, free their opponent; free players (and active players not in
/// the roster) are then paired among themselves, Swiss-style, with one bye if odd.
fn table_method(ctx: &mut Ctx, method: Method, active: &[PlayerId]) -> Result<Vec<Pair>> {
    let div = ctx.div;
    let round = ctx.round;
    // The block: the schedule's if it has this method here, else the run of rounds before.
    let (start, len) = match div.schedule.block_for(round, div.players.len()) {
        Some((b, s, l)) if b.method == method => (s, l),
        _ => {
            let mut s = round;
            while s > 1 && div.round(s - 1).is_some_and(|r| r.method == method) {
                s -= 1;
            }
            (s, 3)
        }
    };
    let k = (round - start) as usize;
    // The roster: everyone in the block's first round, or everyone active now.
    let roster_ids: Vec<PlayerId> = match div.round(start).filter(|_| start < round) {
        Some(r) => r
            .pairings
            .iter()
            .filter(|p| !matches!(p, Pairing::Absent { .. }))
            .flat_map(|p| p.players())
            .collect(),
        None => active.to_vec(),
    };
    let mut roster: Vec<Option<PlayerId>> = seeds(div, &roster_ids).into_iter().map(Some).collect();
    if roster.len() % 2 == 1 {
        roster.push(None);
    }
    let groups: Vec<Vec<Option<PlayerId>>> = match method {
        Method::RoundRobin => vec![roster],
        _ => fontes_groups(ctx, roster, len, start),
    };
    let mut out = Vec::new();
    let mut free: Vec<PlayerId> = Vec::new();
    let is_active = |p: PlayerId| active.contains(&p);
    for group in &groups {
        for (x, y) in berger_round(group.len(), k) {
            match (group[x], group[y]) {
                (Some(a), Some(b)) if is_active(a) && is_active(b) => out.push((a, Some(b))),
                (a, b) => {
                    for p in [a, b].into_iter().flatten() {
                        if is_active(p) {
                            free.push(p);
                        }
                    }
                }
            }
        }
    }
    let in_roster: BTreeSet<PlayerId> = groups.iter().flatten().flatten().copied().collect();
    free.extend(active.iter().filter(|p| !in_roster.contains(p)));
    if !free.is_empty() {
        let mut order = ctx.order(&free);
        if order.len() % 2 == 1 {
            let b = ctx.choose_bye(&order);
            order.retain(|&p| p != b);
            out.push((b, None));
        }
        if !order.is_empty() {
            ctx.notes.push(format!(
                "{} player(s) outside the {} table paired Swiss",
                order.len(),
                method
            ));
        }
        out.extend(swiss(ctx, &order).into_iter().map(|(a, b)| (a, Some(b))));
    }
    Ok(out)
}

/// Initial Fontes groups (tsh InitFontes): with `n` rounds (made odd), groups of `n+1` players,
/// one drawn from each of `n+1` seed bands, at random from the seed or snaked. An odd field
/// already carries a bye seat at the bottom. The remainder (an even number of players spaced
/// evenly through the seeds) joins the last group, whose round robin is then longer than the
/// block, so nobody meets twice.
fn fontes_groups(
    ctx: &Ctx,
    roster: Vec<Option<PlayerId>>,
    len: u32,
    start: u32,
) -> Vec<Vec<Option<PlayerId>>> {
    let n = (len as usize) | 1;
    let s = n + 1;
    let p = roster.len();
    let g = p / s;
    if g <= 1 {
        return vec![roster];
    }
    let r = p % s;
    let remainder_idx: BTreeSet<usize> = (0..r).map(|k| (2 * k + 1) * p / (2 * r)).collect();
    let remainder: Vec<Option<PlayerId>> = remainder_idx.iter().map(|&i| roster[i]).collect();
    let main: Vec<Option<PlayerId>> = roster
        .iter()
        .enumerate()
        .filter(|(i, _)| !remainder_idx.contains(i))
        .map(|(_, x)| *x)
        .collect();
    let mut parts: Vec<Vec<Option<PlayerId>>> = main.chunks(g).map(|c| c.to_vec()).collect();
    let mut rng = ctx.rng(0x1F0E7E5, start);
    for (j, part) in parts.iter_mut().enumerate() {
        match ctx.div.config.fontes {
            FontesDraw::Random => rng.shuffle(part),
            FontesDraw::Snaked => {
                if j % 2 == 1 {
                    part.reverse();
                }
            }
        }
    }
    let mut groups: Vec<Vec<Option<PlayerId>>> = (0..g)
        .map(|i| parts.iter().map(|part| part[i]).collect())
        .collect();
    groups[g - 1].extend(remainder);
    groups
}

/// Literacy 2018 finals: the playoff winners play for 1st–2nd, the losers for 3rd–4th (a tied
/// playoff game goes to the higher cumulative spread); the rest play KOTH.
fn final_method(ctx: &mut Ctx, active: &[PlayerId]) -> Result<Vec<Pair>> {
    let div = ctx.div;
    let Some(po) = div.round(ctx.based_on) else {
        return Err(ctx.fail(Method::Final, "finals are based on the playoff round"));
    };
    if po.method != Method::Playoff {
        return Err(ctx.fail(
            Method::Final,
            format!("round {} was not a playoff round", ctx.based_on),
        ));
    }
    let Some(games) = div.literacy_playoff(po.number) else {
        return Err(ctx.fail(
            Method::Final,
            "the playoff round needs results for its 1v3 and 2v4 games",
        ));
    };
    let (w, l): (Vec<PlayerId>, Vec<PlayerId>) = games.into_iter().unzip();
    let mut out = vec![(w[0], Some(w[1])), (l[0], Some(l[1]))];
    let mut rest: Vec<PlayerId> = ctx
        .order(active)
        .into_iter()
        .filter(|p| !w.contains(p) && !l.contains(p))
        .collect();
    if rest.len() % 2 == 1 {
        let b = ctx.choose_bye(&rest);
        rest.retain(|&p| p != b);
        out.push((b, None));
    }
    out.extend(rest.chunks_exact(2).map(|c| (c[0], Some(c[1]))));
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn berger_tables_cover_every_pair_once_per_cycle() {
        for n in [2usize, 4, 6, 8, 10, 14] {
            let mut seen = BTreeSet::new();
            for k in 0..n - 1 {
                let round = berger_round(n, k);
                assert_eq!(round.len(), n / 2);
                let mut inround = BTreeSet::new();
                for (a, b) in round {
                    assert!(inround.insert(a) && inround.insert(b));
                    assert!(seen.insert((a.min(b), a.max(b))), "n={n} repeat {a}-{b}");
                }
            }
            assert_eq!(seen.len(), n * (n - 1) / 2);
            // A double round robin repeats the table.
            assert_eq!(berger_round(n, 0), berger_round(n, n - 1));
        }
    }
}
