//! The static player's choice while the bag holds tiles, found without listing every move.
//!
//! [`Engine::moves`] lists every placement with its equity (score plus the value of the tiles
//! kept), every exchange and the pass, and sorts them; the static player only needs the first.
//! [`Engine::best_static`] finds the same equity with the pruned search of
//! [`best_by_value_per_tiles`]: each anchor's score bound is raised, per number of tiles played,
//! by the best leave that keeps the rest of the rack, anchors are searched from the highest bound
//! down, and the search stops at the first bound that cannot beat the best equity found. The
//! leave values of the rack's sub-multisets are looked up once in the full table
//! ([`crate::leave_table::LeaveTable::rack_leaves`]) into one array indexed by the sub-multiset
//! used (nothing is allocated per move). Exchanges and the pass are then compared from the same array.

use crate::engine::{Engine, Situation};
use crate::movegen::{best_by_value_per_tiles, GenOptions, LeaveIndex, Prepared};
use crate::moves::Move;

impl Engine<'_> {
    /// The move with the highest equity (placements first on ties, then exchanges, then the
    /// pass): the equity of the first move of [`Engine::moves`], for a position whose bag is
    /// not empty.
    pub fn best_static(&self, s: &Situation) -> Move {
        if s.bag_len == 0 {
            // Leave values do not count with the bag empty (see `Engine::moves`).
            return self.moves(s).into_iter().next().unwrap_or_else(Move::pass);
        }
        let prep = Prepared::new(&s.grid, &self.graphs, self.tables);
        self.best_static_prepared(s, &prep)
    }

    /// As [`Engine::best_static`], on `s`'s board already prepared (several racks on one board
    /// share the preparation), for a position whose bag is not empty.
    pub fn best_static_prepared(&self, s: &Situation, prep: &Prepared) -> Move {
        let index = LeaveIndex::new(&s.rack);
        let mut leave_vals = Vec::with_capacity(index.size);
        // The best leave per number of tiles played.
        let mut bonus = [f32::NEG_INFINITY; 16];
        self.leaves
            .rack_leaves(&s.rack, &mut leave_vals, &mut bonus);
        let mut best = best_by_value_per_tiles(
            prep,
            &s.rack,
            &self.graphs,
            self.tables,
            GenOptions::default(),
            &bonus,
            &mut |c| c.score as f32 + leave_vals[usize::from(c.used)],
        )
        .map(|(mut m, v)| {
            m.equity = v;
            m
        });
        let better = |best: &Option<Move>, v: f32| best.as_ref().is_none_or(|b| v > b.equity);
        if s.bag_len >= self.exchange_min_bag && !s.rack.is_empty() {
            // The first of the best exchanges, in the order of `Engine::moves`.
            let mut top: Option<usize> = None;
            for (u, &v) in leave_vals.iter().enumerate().skip(1) {
                if top.is_none_or(|t| v > leave_vals[t]) {
                    top = Some(u);
                }
            }
            if let Some(u) = top {
                if better(&best, leave_vals[u]) {
                    let mut m = Move::exchange(&index.used_rack(&s.rack, u as u16));
                    m.equity = leave_vals[u];
                    best = Some(m);
                }
            }
        }
        let pass = leave_vals[0] - 30.0;
        if better(&best, pass) {
            let mut m = Move::pass();
            m.equity = pass;
            best = Some(m);
        }
        best.unwrap_or_else(Move::pass)
    }
}

/// The bonus bound per number of tiles played for the endgame's reply search
/// ([`Engine::endgame_value`]): a reply of all `rack`'s tiles gains twice what we kept
/// (`kept_value`); one of `n` tiles gains what we kept less what the replier keeps, which is at
/// least its `len - n` least valuable tiles.
pub fn endgame_reply_bonus(
    rack: &crate::rack::Rack,
    kept_value: f32,
    values: &[i32; 27],
) -> [f32; 16] {
    let mut vals: Vec<i32> = Vec::with_capacity(rack.len());
    for (code, (&n, &v)) in rack.counts.iter().zip(values).enumerate() {
        // The blank (code 0) is worth nothing.
        let v = if code == 0 { 0 } else { v };
        vals.extend(std::iter::repeat_n(v, usize::from(n)));
    }
    vals.sort_unstable();
    let len = vals.len();
    let mut bonus = [f32::NEG_INFINITY; 16];
    for (n, b) in bonus.iter_mut().enumerate() {
        if n >= len {
            *b = 2.0 * kept_value;
            continue;
        }
        let min_left: i32 = vals[..len - n].iter().sum();
        *b = kept_value - min_left as f32;
    }
    bonus
}
