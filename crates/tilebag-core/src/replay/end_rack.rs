//! The end-of-game rack lines: the player who went out is credited with the opponent's rack
//! (twice its value, or its value under add-and-subtract), or a player loses the value of their
//! own rack (add-and-subtract, six zeros, a game the director or the clock ended).

use super::{err, ReplayError, Replayer};
use crate::gcg::GcgEvent;
use crate::tiles::Tile;

impl Replayer<'_> {
    /// A `>nick: RACK (TILES) ±value cumulative` line. After it the game is over.
    pub(super) fn replay_end_rack(
        &mut self,
        ev: &GcgEvent,
        tiles: &str,
    ) -> Result<(), ReplayError> {
        let t = self
            .set
            .parse_tiles(tiles)
            .map_err(|e| err(ev.line, format!("rack ({tiles}): {e}")))?;
        self.check_rack_size_of(ev.line, "the rack in parentheses", tiles)?;
        let v = self.set.tiles_value(&t);
        // A zero-point line (a rack of blanks) without a rack is the credit of the player
        // who went out, unless the opponent is the one who went out.
        let received =
            ev.score > 0 || (ev.score == 0 && ev.rack.is_none() && !self.went_out(1 - ev.player));
        if received {
            self.credit_opponents_rack(ev, tiles, &t, v)?;
        } else {
            self.deduct_own_rack(ev, tiles, &t, v)?;
        }
        self.add_recorded_score(ev)?;
        self.ended = true;
        Ok(())
    }

    /// Whether a standing play of `p` went out (the bag empty and `p`'s rack used up).
    pub(super) fn went_out(&self, p: usize) -> bool {
        self.out.is_some_and(|(who, _)| who == p)
    }

    /// The player went out and receives the opponent's rack: twice its value (NASPA V.G.1,
    /// SANSPA 18.4, WESPA 5.1.4(b)) or its value (WESPA 5.1.4(a)).
    fn credit_opponents_rack(
        &mut self,
        ev: &GcgEvent,
        tiles: &str,
        t: &[Tile],
        v: i32,
    ) -> Result<(), ReplayError> {
        let line = ev.line;
        let nick = &self.record.players[ev.player].nick;
        let clock_ran_out = self
            .record
            .ending
            .as_ref()
            .is_some_and(|e| e.reason == "game-clock-expired");
        if !self.went_out(ev.player) && !clock_ran_out {
            return Err(err(
                line,
                format!(
                    "{nick} is credited with the opponent's rack ({tiles}), but {nick} has not gone out (the bag empty and the rack used up by a play that stands)"
                ),
            ));
        }
        if self.credit.is_some() {
            return Err(err(line, "a second credit for the opponent's rack"));
        }
        if ev.score != 2 * v && ev.score != v {
            return Err(err(
                line,
                format!(
                    "the record says {:+} for the rack ({tiles}) worth {v}; the engine expects {:+} (twice, NASPA V.G.1) or {:+} (WESPA 5.1.4(a))",
                    ev.score,
                    2 * v,
                    v
                ),
            ));
        }
        if let Some(r) = ev.rack.as_deref().filter(|r| !r.is_empty()) {
            return Err(err(
                line,
                format!("{nick} went out and has no tiles left, but the line shows the rack {r}"),
            ));
        }
        self.check_credited_rack_is_the_unseen_tiles(line, tiles, t)?;
        self.credit = Some((line, ev.player, ev.score, v));
        Ok(())
    }

    /// With the bag empty, the opponent's rack is exactly the tiles not yet played.
    fn check_credited_rack_is_the_unseen_tiles(
        &self,
        line: usize,
        tiles: &str,
        t: &[Tile],
    ) -> Result<(), ReplayError> {
        if self.bag_len() != 0 {
            return Ok(());
        }
        let mut unseen = self.unseen();
        unseen.sort();
        let mut claimed = t.to_vec();
        claimed.sort();
        if unseen != claimed {
            return Err(err(
                line,
                format!(
                    "the opponent's rack ({tiles}) does not match the tiles left unplayed ({})",
                    self.set.tiles_to_string(&unseen)
                ),
            ));
        }
        Ok(())
    }

    /// The player loses the value of their own rack, once, and only when the game has ended in
    /// a way that deducts it.
    fn deduct_own_rack(
        &mut self,
        ev: &GcgEvent,
        tiles: &str,
        t: &[Tile],
        v: i32,
    ) -> Result<(), ReplayError> {
        let line = ev.line;
        let nick = &self.record.players[ev.player].nick;
        // The rack and the tiles in parentheses are the same tiles.
        if let Some(rack) = self.rack_of(ev)? {
            let (mut a, mut b) = (rack, t.to_vec());
            a.sort();
            b.sort();
            if a != b {
                return Err(err(
                    line,
                    format!(
                        "the rack {} and the tiles in parentheses ({tiles}) disagree",
                        ev.rack.as_deref().unwrap_or("")
                    ),
                ));
            }
        }
        if ev.score != -v {
            return Err(err(
                line,
                format!(
                    "the record says {:+} for the player's own rack ({tiles}) worth {v}; the engine computed {:+}",
                    ev.score, -v
                ),
            ));
        }
        self.check_possible(line, &format!("the rack ({tiles})"), t)?;
        if self.deductions.iter().any(|d| d.1 == ev.player) {
            return Err(err(
                line,
                format!("a second deduction of {nick}'s own rack"),
            ));
        }
        self.check_game_ended_for_deduction(ev, tiles)?;
        self.deductions.push((line, ev.player, v));
        Ok(())
    }

    /// What lets a player's own rack be deducted: the opponent went out under add-and-subtract,
    /// six zeros, the game clock ran out, or the director ended the game (a warning). Without
    /// tilebag's `#tilebag-end director-ended`, other programs show a game the director stopped
    /// as scoreless turns followed by each player's own rack deducted (NASPA V.F); such a
    /// deduction stands for now and [`Replayer::conclude`] checks that both players have one.
    fn check_game_ended_for_deduction(
        &mut self,
        ev: &GcgEvent,
        tiles: &str,
    ) -> Result<(), ReplayError> {
        let line = ev.line;
        let nick = &self.record.players[ev.player].nick;
        let ending = self.record.ending.as_ref().map(|e| e.reason.as_str());
        if self.went_out(1 - ev.player) || self.zero_run >= 6 {
            // Add-and-subtract (WESPA 5.1.4(a)), or six zeros (NASPA V.B,
            // WESPA 5.2).
        } else if ending == Some("game-clock-expired") {
            // Literacy 2018: the game ends when time runs out and each side loses
            // its own rack.
        } else if ending == Some("director-ended") {
            self.warnings.push(format!(
                "line {line}: own-rack deductions after only {} successive scoreless turns: the director ended the game (NASPA V.F), not six zeros",
                self.zero_run
            ));
        } else {
            let not_ended = err(
                line,
                format!(
                    "{nick} loses the value of the rack ({tiles}), but the game has not ended: that needs the opponent to go out, or six successive scoreless turns (NASPA V.B, WESPA 5.2) and there were only {}",
                    self.zero_run
                ),
            );
            // NSA V.E: when the NSA director stops a game the scores stand, racks undeducted.
            let director_deducts = self
                .preset
                .as_ref()
                .is_none_or(|p| p.director_shortened.deduct_own_rack);
            let stopped_after_scoreless_turns = self.zero_run > 0
                && director_deducts
                && ending.is_none()
                && self.deductions.is_empty();
            if !stopped_after_scoreless_turns && self.unended_deduction.is_none() {
                return Err(not_ended);
            }
            self.unended_deduction.get_or_insert(not_ended);
        }
        Ok(())
    }

    /// After the last move: own-rack deductions the moves had not ended the game for stand when
    /// both players have one (the director stopped the game, NASPA V.F), with a warning that the
    /// record was read so; otherwise the first of them is the error.
    pub(super) fn check_director_stopped_game(&mut self) -> Result<(), ReplayError> {
        let Some(not_ended) = self.unended_deduction.take() else {
            return Ok(());
        };
        let both = [0, 1]
            .iter()
            .all(|p| self.deductions.iter().any(|d| d.1 == *p));
        if !both {
            return Err(not_ended);
        }
        self.warnings.push(format!(
            "line {}: the game stops after {} with each player's own rack deducted, and no #tilebag-end says why: read as a game the director ended (NASPA V.F: each player loses their own rack), not six zeros",
            not_ended.line,
            match self.zero_run {
                1 => "a scoreless turn".to_string(),
                n => format!("{n} scoreless turns in a row"),
            }
        ));
        self.ending = Some("director-ended".to_string());
        Ok(())
    }
}
