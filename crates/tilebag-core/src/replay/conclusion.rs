//! After the last move: what must hold of the game as a whole (one end-of-game convention with
//! both of its lines), the last racks, tilebag's result adjustments and how the game ended.

use super::{err, ReplayError, Replayer};

impl Replayer<'_> {
    /// After the last move: the end-of-game conventions, the last racks, tilebag's result
    /// adjustments and its record of how the game ended.
    pub fn conclude(&mut self) -> Result<(), ReplayError> {
        self.check_director_stopped_game()?;
        self.check_one_end_rack_convention()?;
        self.check_last_racks_possible()?;
        self.apply_adjustments()?;
        self.check_recorded_ending()
    }

    /// One convention per game, with both of its lines: doubling the opponent's rack (NASPA
    /// V.G.1, WESPA 5.1.4(b)) leaves that rack undeducted; crediting its value (WESPA
    /// 5.1.4(a)) needs the matching deduction.
    fn check_one_end_rack_convention(&self) -> Result<(), ReplayError> {
        if let Some((line, p, score, v)) = self.credit.filter(|c| c.3 != 0) {
            let opponent_deduction = self.deductions.iter().find(|d| d.1 == 1 - p);
            if score == 2 * v {
                if let Some(&(dline, _, _)) = opponent_deduction {
                    return Err(err(
                        dline,
                        format!("the record doubles the opponent's rack on line {line} (NASPA V.G.1, WESPA 5.1.4(b)), so the opponent's rack is not also deducted"),
                    ));
                }
            } else if opponent_deduction.is_none_or(|d| d.2 != v) {
                return Err(err(
                    line,
                    format!("a credit of the rack's value ({score:+}) needs the matching deduction of {} from the opponent (WESPA 5.1.4(a)); without it this is neither convention", -v),
                ));
            }
        }
        Ok(())
    }

    /// The racks an unfinished record ends with (`#rack1`, `#rack2`) must be possible.
    fn check_last_racks_possible(&self) -> Result<(), ReplayError> {
        let record = self.record;
        for (slot, rack) in record.last_racks.iter().enumerate() {
            let Some(rack) = rack.as_deref().filter(|r| *r != "UNKNOWN") else {
                continue;
            };
            let line = record.last_rack_lines[slot];
            self.check_rack_size_of(line, &format!("#rack{}", slot + 1), rack)?;
            let tiles = self
                .set
                .parse_tiles(rack)
                .map_err(|e| err(line, format!("#rack{} {rack}: {e}", slot + 1)))?;
            self.check_possible(line, &format!("#rack{} {rack}", slot + 1), &tiles)?;
        }
        Ok(())
    }

    /// tilebag's result adjustments (`#tilebag-adjust`: a resignation, a forfeit) come after
    /// the last move, each with the running total it leads to.
    fn apply_adjustments(&mut self) -> Result<(), ReplayError> {
        let record = self.record;
        let last_line = record.events.last().map_or(0, |e| e.line);
        for a in &record.adjustments {
            if a.line != 0 && a.line < last_line {
                return Err(err(
                    a.line,
                    "a #tilebag-adjust comes after the last move of the game",
                ));
            }
            self.scores[a.player] += a.score;
            if a.cumulative != self.scores[a.player] {
                return Err(err(
                    a.line,
                    format!(
                        "after the adjustment of {:+} the record's cumulative score is {} but the engine computed {}",
                        a.score, a.cumulative, self.scores[a.player]
                    ),
                ));
            }
        }
        Ok(())
    }

    /// How the record says the game ended (`#tilebag-end`) must agree with the moves; result
    /// adjustments need it.
    fn check_recorded_ending(&mut self) -> Result<(), ReplayError> {
        let record = self.record;
        if let Some(end) = &record.ending {
            let who = end
                .player
                .map(|p| record.players[p].nick.as_str())
                .unwrap_or("");
            match end.reason.as_str() {
                "went-out"
                    if !end.player.is_some_and(|p| {
                        self.went_out(p) || self.credit.is_some_and(|c| c.1 == p)
                    }) =>
                {
                    return Err(err(
                        end.line,
                        format!("the record says {who} went out, but the moves do not"),
                    ));
                }
                "six-zeros" if self.zero_run < 6 => {
                    return Err(err(
                        end.line,
                        format!("the record says six scoreless turns ended the game, but the last run was {}", self.zero_run),
                    ));
                }
                _ => {}
            }
            self.ending = Some(match end.player {
                Some(_) => format!("{} {who}", end.reason),
                None => end.reason.clone(),
            });
            self.ended = true;
        } else if !record.adjustments.is_empty() {
            return Err(err(
                record.adjustments[0].line,
                "a result adjustment without a #tilebag-end saying how the game ended",
            ));
        }
        Ok(())
    }
}
