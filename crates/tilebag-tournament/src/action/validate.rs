//! The look-ups and range checks the handlers share: the player, round and game an action names
//! exist, and its scores and spreads are in range.

use super::{SCORE_RANGE, SPREAD_RANGE};
use crate::error::{Result, TournamentError};
use crate::model::{Division, Game, Pairing, PlayerId};

impl Division {
    pub(super) fn check_player(&self, p: PlayerId) -> Result<()> {
        if self.player(p).is_none() {
            return Err(TournamentError::NoPlayer {
                division: self.name.clone(),
                player: p,
            });
        }
        Ok(())
    }

    pub(super) fn check_spreads(&self, spreads: &[i32]) -> Result<()> {
        match spreads.iter().find(|x| !SPREAD_RANGE.contains(x)) {
            Some(x) => Err(TournamentError::BadSetting {
                division: self.name.clone(),
                reason: format!("a spread of {x} is out of range"),
            }),
            None => Ok(()),
        }
    }

    /// Refuses scores out of [`SCORE_RANGE`] as typing errors, naming `p` and the round.
    pub(super) fn check_scores(&self, round: u32, p: PlayerId, scores: &[i32]) -> Result<()> {
        for &s in scores {
            if !SCORE_RANGE.contains(&s) {
                return Err(TournamentError::BadScore {
                    division: self.name.clone(),
                    round,
                    player: self.who(p),
                    score: s,
                });
            }
        }
        Ok(())
    }

    pub(super) fn check_round(&self, round: u32) -> Result<()> {
        if self.round(round).is_none() {
            return Err(TournamentError::RoundNotPaired {
                division: self.name.clone(),
                round,
            });
        }
        Ok(())
    }

    /// The index of `p`'s game in round `round`.
    pub(super) fn game_index(&self, round: u32, p: PlayerId) -> Result<usize> {
        self.check_player(p)?;
        self.check_round(round)?;
        let r = self.round(round).expect("checked");
        r.pairings
            .iter()
            .position(|x| matches!(x, Pairing::Game(g) if g.first == p || g.second == p))
            .ok_or_else(|| TournamentError::NoGame {
                division: self.name.clone(),
                round,
                player: self.who(p),
            })
    }

    /// The game at `idx` in round `round` (an index [`Division::game_index`] found).
    pub(super) fn game_at(&self, round: u32, idx: usize) -> &Game {
        match &self.rounds[round as usize - 1].pairings[idx] {
            Pairing::Game(g) => g,
            _ => unreachable!("game_index found a game"),
        }
    }

    /// The same game, to change.
    pub(super) fn game_mut(&mut self, round: u32, idx: usize) -> &mut Game {
        match &mut self.rounds[round as usize - 1].pairings[idx] {
            Pairing::Game(g) => g,
            _ => unreachable!("game_index found a game"),
        }
    }

    /// `p`'s game in `round` when it has no result yet, with `p`'s scores checked and put in seat
    /// order (first, second). Online reports and tally slips both start here.
    pub(super) fn game_awaiting_result(
        &mut self,
        round: u32,
        p: PlayerId,
        own: i32,
        opp: i32,
    ) -> Result<(&mut Game, i32, i32)> {
        let i = self.game_index(round, p)?;
        self.check_scores(round, p, &[own, opp])?;
        let who = self.who(p);
        let name = self.name.clone();
        let g = self.game_mut(round, i);
        if g.result.is_some() {
            return Err(TournamentError::ResultFinal {
                division: name,
                round,
                player: who,
            });
        }
        let (f, s) = seat_scores(g, p, own, opp);
        Ok((g, f, s))
    }
}

/// Scores from `p`'s side, in seat order.
pub(super) fn seat_scores(g: &Game, p: PlayerId, own: i32, opp: i32) -> (i32, i32) {
    if g.first == p {
        (own, opp)
    } else {
        (opp, own)
    }
}
