//! Posting a round's pairings, pairing players by hand, swapping seats and removing a round.

use crate::error::{Result, TournamentError};
use crate::model::{Division, FirstReason, Game, GameResult, Pairing, PlayerId, Round};
use crate::schedule::Method;

impl Division {
    /// `Pair`: posts (or re-posts) a whole round, after checking every entry.
    pub(super) fn pair_round(
        &mut self,
        round: u32,
        method: Method,
        based_on: u32,
        pairings: &[Pairing],
    ) -> Result<()> {
        self.check_pairable(round)?;
        if based_on >= round {
            return Err(TournamentError::BasedOnTooLate {
                division: self.name.clone(),
                round,
                based_on,
            });
        }
        self.check_pairings(round, pairings)?;
        let r = Round {
            number: round,
            method,
            based_on,
            pairings: pairings.to_vec(),
        };
        if (round as usize) <= self.rounds.len() {
            self.rounds[round as usize - 1] = r;
        } else {
            self.rounds.push(r);
        }
        Ok(())
    }

    /// Checks a whole round's pairings: known players, each once, none withdrawn (but for their
    /// automatic results), spreads in range, nobody against themselves, no results yet.
    fn check_pairings(&self, round: u32, pairings: &[Pairing]) -> Result<()> {
        let mut seen = std::collections::BTreeSet::new();
        for entry in pairings {
            for p in entry.players() {
                self.check_player(p)?;
                if !seen.insert(p) {
                    return Err(TournamentError::PairedTwice {
                        division: self.name.clone(),
                        round,
                        player: self.who(p),
                    });
                }
                let active = self.player(p).expect("checked").active_in(round);
                if !active && !matches!(entry, Pairing::Absent { .. }) {
                    return Err(TournamentError::Withdrawn {
                        division: self.name.clone(),
                        round,
                        player: self.who(p),
                    });
                }
            }
            if let Pairing::Bye { spread, .. } | Pairing::Absent { spread, .. } = entry {
                self.check_spreads(&[*spread])?;
            }
            if let Pairing::Game(g) = entry {
                if g.first == g.second {
                    return Err(TournamentError::SelfPairing {
                        division: self.name.clone(),
                        round,
                        player: self.who(g.first),
                    });
                }
                if g.result.is_some() || g.slip.is_some() {
                    return Err(TournamentError::RoundHasResults {
                        division: self.name.clone(),
                        round,
                    });
                }
            }
        }
        Ok(())
    }

    /// `ManualPair`: pairs `first` and `second` (or gives `first` a bye) in the next round or an
    /// earlier one; their previous entries in the round go, leaving old opponents unpaired.
    pub(super) fn pair_by_hand(
        &mut self,
        round: u32,
        first: PlayerId,
        second: Option<PlayerId>,
        first_by: &FirstReason,
    ) -> Result<()> {
        let players: Vec<PlayerId> = std::iter::once(first).chain(second).collect();
        self.check_hand_pairing(round, &players)?;
        let bye_spread = self.config.bye_spread;
        if round as usize == self.rounds.len() + 1 {
            self.rounds.push(Round {
                number: round,
                method: Method::Manual,
                based_on: round - 1,
                pairings: Vec::new(),
            });
        }
        let r = &mut self.rounds[round as usize - 1];
        r.pairings
            .retain(|x| !players.iter().any(|&p| x.involves(p)));
        let board = r
            .pairings
            .iter()
            .filter_map(|x| x.game().map(|g| g.board))
            .max()
            .unwrap_or(0)
            + 1;
        let entry = match second {
            Some(s) => Pairing::Game(Game {
                board,
                first,
                second: s,
                first_by: first_by.clone(),
                result: None,
                slip: None,
                corrections: Vec::new(),
            }),
            None => Pairing::Bye {
                player: first,
                spread: bye_spread,
                counts_as: None,
                forfeit: false,
                pending: false,
            },
        };
        r.pairings.push(entry);
        Ok(())
    }

    /// Whether `players` (the first, then the second if any) may be paired by hand in `round`:
    /// the round is posted or the next one, the two differ, each is known and active, and none
    /// has a result or a slip in the round already.
    fn check_hand_pairing(&self, round: u32, players: &[PlayerId]) -> Result<()> {
        self.check_round_in_order(round)?;
        if let [first, second] = players {
            if first == second {
                return Err(TournamentError::SelfPairing {
                    division: self.name.clone(),
                    round,
                    player: self.who(*first),
                });
            }
        }
        for &p in players {
            self.check_player(p)?;
            if !self.player(p).expect("checked").active_in(round) {
                return Err(TournamentError::Withdrawn {
                    division: self.name.clone(),
                    round,
                    player: self.who(p),
                });
            }
            if let Some(r) = self.round(round) {
                for x in &r.pairings {
                    if let Pairing::Game(g) = x {
                        if g.involves(p) && (g.result.is_some() || g.slip.is_some()) {
                            return Err(TournamentError::ResultFinal {
                                division: self.name.clone(),
                                round,
                                player: self.who(p),
                            });
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// `SwapSeats`: the other player goes first, by the director's decision; scores follow seats.
    pub(super) fn swap_seats(&mut self, round: u32, player: PlayerId) -> Result<()> {
        let i = self.game_index(round, player)?;
        let g = self.game_mut(round, i);
        std::mem::swap(&mut g.first, &mut g.second);
        g.first_by = FirstReason::Director;
        if let Some(GameResult::Played {
            first_score,
            second_score,
            ..
        }) = &mut g.result
        {
            std::mem::swap(first_score, second_score);
        }
        if let Some(s) = &mut g.slip {
            std::mem::swap(&mut s.first_score, &mut s.second_score);
        }
        Ok(())
    }

    /// `Unpair`: removes the last round, while it has no results.
    pub(super) fn unpair_round(&mut self, round: u32) -> Result<()> {
        self.check_round(round)?;
        if round as usize != self.rounds.len() {
            return Err(TournamentError::NotLastRound {
                division: self.name.clone(),
                round,
            });
        }
        self.check_pairable(round)?;
        self.rounds.pop();
        Ok(())
    }
}
