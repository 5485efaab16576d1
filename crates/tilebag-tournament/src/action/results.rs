//! Results: tally slips (NASPA V.J, WESPA 5.4), results the director enters or corrects, and
//! spread adjustments (NASPA IV.B.5, IV.K.5).

use super::validate::seat_scores;
use super::ResultEntry;
use crate::error::{Result, TournamentError};
use crate::model::{
    AdjustmentReason, Correction, Division, Game, GameResult, Pairing, PlayerId, ResultSource,
    Slip, SpreadAdjustment,
};

impl Division {
    /// `SubmitSlip` (NASPA V.J, WESPA 5.4, SANSPA 18.10): one player's scores await the other's
    /// confirmation; where the winner submits (WESPA 5.4.2, SANSPA 18.7) the loser may not.
    pub(super) fn submit_slip(
        &mut self,
        round: u32,
        player: PlayerId,
        score: i32,
        opponent_score: i32,
    ) -> Result<()> {
        if self.config.winner_submits && score < opponent_score {
            return Err(TournamentError::Refused {
                division: self.name.clone(),
                round,
                reason: format!(
                    "{} lost this game, so the winner submits the tally slip and {} confirms it (WESPA 5.4.2, SANSPA 18.7)",
                    self.who(player),
                    self.who(player)
                ),
            });
        }
        let (g, f, s) = self.game_awaiting_result(round, player, score, opponent_score)?;
        g.slip = Some(Slip {
            submitted_by: player,
            first_score: f,
            second_score: s,
        });
        Ok(())
    }

    /// `ConfirmSlip`: the other player agrees with the slip, and its scores become the result.
    pub(super) fn confirm_slip(&mut self, round: u32, player: PlayerId) -> Result<()> {
        let i = self.game_index(round, player)?;
        let who = self.who(player);
        let name = self.name.clone();
        let g = self.game_mut(round, i);
        let Some(slip) = g.slip.clone() else {
            return Err(TournamentError::NoSlip {
                division: name,
                round,
                player: who,
            });
        };
        if slip.submitted_by == player {
            return Err(TournamentError::OwnSlip {
                division: name,
                round,
                player: who,
            });
        }
        g.slip = None;
        g.result = Some(GameResult::Played {
            first_score: slip.first_score,
            second_score: slip.second_score,
            source: ResultSource::Slip {
                submitted_by: slip.submitted_by,
                confirmed_by: player,
            },
            left_by: None,
            resigned_by: None,
        });
        Ok(())
    }

    /// `SetResult`: the director enters, corrects or clears a result; a replaced result is kept
    /// in the game's corrections with `note`.
    pub(super) fn set_result(
        &mut self,
        round: u32,
        p: PlayerId,
        entry: &ResultEntry,
        note: &str,
    ) -> Result<()> {
        self.check_player(p)?;
        self.check_round(round)?;
        match entry {
            ResultEntry::Bye { spread }
            | ResultEntry::Forfeit {
                spread: Some(spread),
            }
            | ResultEntry::DoubleForfeit {
                spread: Some(spread),
            } => self.check_spreads(&[*spread])?,
            _ => {}
        }
        if let ResultEntry::Bye { spread } = entry {
            return self.set_bye_spread(round, p, *spread);
        }
        let i = self.game_index(round, p)?;
        let new = self.entered_result(round, p, self.game_at(round, i), entry)?;
        let gm = self.game_mut(round, i);
        if gm.result.is_some() {
            gm.corrections.push(Correction {
                previous: gm.result.clone(),
                note: note.to_string(),
            });
        }
        gm.slip = None;
        gm.result = new;
        Ok(())
    }

    /// Changes the spread of `p`'s bye in `round` (a negative one makes it a forfeit loss).
    fn set_bye_spread(&mut self, round: u32, p: PlayerId, spread: i32) -> Result<()> {
        let r = &mut self.rounds[round as usize - 1];
        let Some(Pairing::Bye {
            spread: s,
            forfeit,
            pending,
            ..
        }) = r
            .pairings
            .iter_mut()
            .find(|x| matches!(x, Pairing::Bye { player, .. } if *player == p))
        else {
            return Err(TournamentError::NotABye {
                division: self.name.clone(),
                round,
                player: self.who(p),
                has: self.entry_in(round, p),
            });
        };
        *s = spread;
        // A negative one-player result is a forfeit loss, not a bye (tsh ForfeitLOSS).
        *forfeit = spread < 0;
        *pending = false;
        Ok(())
    }

    /// What `p` has in `round`, in words, for a refusal that names something else.
    fn entry_in(&self, round: u32, p: PlayerId) -> String {
        match self.player_round(round, p) {
            None => "they are not paired in it (a late entry, or a round still being paired)"
                .to_string(),
            Some(pr) => match pr.pairing {
                Pairing::Game(g) => format!(
                    "they have a game against {}; enter its result instead",
                    self.who(g.opponent_of(p).unwrap_or(p))
                ),
                Pairing::Absent { .. } => {
                    "they have withdrawn; their automatic result is the division's".to_string()
                }
                Pairing::Bye { .. } => "they have a bye".to_string(),
            },
        }
    }

    /// The result a game's entry gives (`None` clears it), from `p`'s side, with the division's
    /// resignation margin and forfeit spread where the entry leaves them out.
    fn entered_result(
        &self,
        round: u32,
        p: PlayerId,
        g: &Game,
        entry: &ResultEntry,
    ) -> Result<Option<GameResult>> {
        let margin = self.config.resignation_margin;
        let forfeit = self.config.forfeit_spread;
        Ok(match entry {
            ResultEntry::Scores {
                score,
                opponent_score,
            } => {
                self.check_scores(round, p, &[*score, *opponent_score])?;
                let (f, s) = seat_scores(g, p, *score, *opponent_score);
                Some(GameResult::Played {
                    first_score: f,
                    second_score: s,
                    source: ResultSource::Director,
                    left_by: None,
                    resigned_by: None,
                })
            }
            ResultEntry::LeftInProgress {
                score,
                opponent_score,
            } => {
                self.check_scores(round, p, &[*score, *opponent_score])?;
                // NASPA V.K.2: ahead, the opponent's score is raised to 50 more than the
                // leaver's; behind, 50 comes off the leaver's score. (WESPA 5.7(c) and
                // SANSPA 19.3 give the same margins.)
                let (own, opp) = if score >= opponent_score {
                    (*score, score + margin)
                } else {
                    (score - margin, *opponent_score)
                };
                let (f, s) = seat_scores(g, p, own, opp);
                Some(GameResult::Played {
                    first_score: f,
                    second_score: s,
                    source: ResultSource::Director,
                    left_by: Some(p),
                    resigned_by: None,
                })
            }
            ResultEntry::Forfeit { spread } => Some(GameResult::Forfeit {
                loser: p,
                spread: spread.unwrap_or(forfeit),
            }),
            ResultEntry::DoubleForfeit { spread } => Some(GameResult::DoubleForfeit {
                spread: spread.unwrap_or(forfeit),
            }),
            ResultEntry::Clear => None,
            ResultEntry::Bye { .. } => unreachable!("set_result handles a bye"),
        })
    }

    /// `AdjustSpread` (NASPA IV.B.5, IV.K.5): a penalty or compensation outside any game, by the
    /// rule's amount unless one is given.
    pub(super) fn adjust_spread(
        &mut self,
        player: PlayerId,
        round: u32,
        reason: &AdjustmentReason,
        amount: Option<i32>,
    ) -> Result<()> {
        self.check_player(player)?;
        if round == 0 {
            return Err(TournamentError::RoundNotPaired {
                division: self.name.clone(),
                round: 0,
            });
        }
        let amount = match (amount, reason) {
            (Some(a), _) => a,
            // NASPA IV.B.5: "penalize either player 50 tournament spread points".
            (None, AdjustmentReason::DrawingOutOfOrder) => -50,
            // NASPA IV.K.5: "increased by the points scored for the play plus 25".
            (None, AdjustmentReason::ErroneousAdjudication { play_score }) => play_score + 25,
            (None, AdjustmentReason::Other { .. }) => {
                return Err(TournamentError::BadSetting {
                    division: self.name.clone(),
                    reason: format!(
                        "a spread adjustment for {} needs an amount",
                        self.who(player)
                    ),
                })
            }
        };
        self.check_spreads(&[amount])?;
        self.adjustments.push(SpreadAdjustment {
            player,
            round,
            amount,
            reason: reason.clone(),
        });
        Ok(())
    }
}
