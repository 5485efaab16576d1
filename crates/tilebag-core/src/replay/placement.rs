//! A play of tiles on the board: where it goes, what it scores, that the rack and the set held
//! its tiles, and the draw after it (with the bag empty and the rack used up, the player is
//! out).

use super::{err, ReplayError, Replayer};
use crate::board::Position;
use crate::gcg::{GcgEvent, GcgEventKind};
use crate::play::{self, Placement, ScoredPlay};
use crate::tiles::Tile;

impl Replayer<'_> {
    /// A `>nick: RACK 8G WORD +score cumulative` line.
    pub(super) fn replay_placement(
        &mut self,
        idx: usize,
        ev: &GcgEvent,
        position: &str,
        word: &str,
    ) -> Result<(), ReplayError> {
        self.check_turn_order(ev)?;
        let sp = self.score_recorded_placement(ev, position, word)?;
        self.check_rack_possible(ev)?;
        self.check_subset(ev, &sp.tiles_used(), || format!("{position} {word}"))?;
        self.check_set_holds_the_tiles(ev.line, position, word, &sp.tiles_used())?;
        let withdrawn_next = self.is_withdrawn_next(idx, ev);
        if sp.off_centre && !withdrawn_next {
            self.warn_off_centre_first_play(ev.line, position, word);
        }
        let shown = sp.gcg_word(&self.board, &self.layout, &self.set);
        play::place(&mut self.board, &sp);
        self.scores[ev.player] += sp.score;
        self.check_placement_score(ev, &sp, position, word, withdrawn_next)?;
        let words = sp.words.iter().map(|w| w.word.clone()).collect();
        self.push(ev, sp.score, words, Some(&sp), Some(shown));
        let score = sp.score;
        self.draw_after_placement(ev, sp.placement.tiles.len(), withdrawn_next)?;
        self.last_play = Some((idx, sp, score));
        self.last_play_rack = ev.rack.clone();
        self.zero_before_play = self.zero_run;
        self.zero_run = 0;
        Ok(())
    }

    /// Read the coordinate and the word against the board and score the placement. A first
    /// play off the centre is scored here and warned about by the caller.
    fn score_recorded_placement(
        &self,
        ev: &GcgEvent,
        position: &str,
        word: &str,
    ) -> Result<ScoredPlay, ReplayError> {
        let line = ev.line;
        let pos =
            Position::parse(position, self.layout.size).map_err(|e| err(line, e.to_string()))?;
        let placement = Placement::from_gcg(&self.board, &self.layout, &self.set, pos, word)
            .map_err(|e| err(line, format!("{position} {word}: {e}")))?;
        play::score_placement_off_centre_allowed(
            &self.board,
            &self.layout,
            &self.set,
            &placement,
            self.rack_size,
        )
        .map_err(|e| err(line, format!("{position} {word}: {e}")))
    }

    /// The set holds only so many of each tile: the board and this play together may not use
    /// more.
    fn check_set_holds_the_tiles(
        &self,
        line: usize,
        position: &str,
        word: &str,
        used: &[Tile],
    ) -> Result<(), ReplayError> {
        let mut taken = vec![0usize; self.set.letters.len() + 1];
        for (_, b) in self.board.tiles() {
            taken[self.tile_slot(b.tile())] += 1;
        }
        for &t in used {
            taken[self.tile_slot(t)] += 1;
        }
        for &t in used {
            if taken[self.tile_slot(t)] > self.set.count(t) as usize {
                return Err(err(
                    line,
                    format!(
                        "{position} {word}: no {} is left: the set has only {}",
                        self.set.tile_char(t),
                        self.set.count(t)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// Whether the next line withdraws this play (the same player's `--`).
    fn is_withdrawn_next(&self, idx: usize, ev: &GcgEvent) -> bool {
        matches!(
            self.record.events.get(idx + 1),
            Some(GcgEvent { kind: GcgEventKind::Withdrawal, player, .. }) if *player == ev.player
        )
    }

    /// A first play that misses the centre stands when nobody challenges it (NASPA III.G.1,
    /// WESPA 3.10.16(d)); the verifier accepts it and says so.
    fn warn_off_centre_first_play(&mut self, line: usize, position: &str, word: &str) {
        self.warnings.push(format!(
            "line {line}: the first play {position} {word} does not cover the centre square {}; it could have been challenged off (NASPA III.G.1, NSA III.F.1, SANSPA 5.1.2, WESPA 3.10.16(d)) and it stands because it was not",
            self.layout.centre
        ));
    }

    /// The recorded score and running total must be the engine's, unless the play is withdrawn
    /// on the next line: then a mis-added score changes nothing and is only a warning. Called
    /// once the play's score has been added.
    fn check_placement_score(
        &mut self,
        ev: &GcgEvent,
        sp: &ScoredPlay,
        position: &str,
        word: &str,
        withdrawn_next: bool,
    ) -> Result<(), ReplayError> {
        if ev.score == sp.score && ev.cumulative == self.scores[ev.player] {
            return Ok(());
        }
        if withdrawn_next {
            let line = ev.line;
            self.warnings.push(format!(
                "line {line}: {position} {word} is recorded as {:+} (cumulative {}) but scores {:+} (cumulative {}); the play was withdrawn, so the result is unchanged",
                ev.score, ev.cumulative, sp.score, self.scores[ev.player]
            ));
            Ok(())
        } else {
            self.check_cumulative(ev, sp.score).map_err(|mut e| {
                e.message = format!("{position} {word}: {}", e.message);
                e
            })
        }
    }

    /// The player draws what the bag holds, up to a full rack; with the bag empty and the rack
    /// used up, the player is out (unless the play is withdrawn on the next line).
    fn draw_after_placement(
        &mut self,
        ev: &GcgEvent,
        n: usize,
        withdrawn_next: bool,
    ) -> Result<(), ReplayError> {
        let p = ev.player;
        self.rack_len_before_play = self.rack_len[p];
        if n > self.rack_len[p] {
            return Err(err(
                ev.line,
                format!(
                    "{} places {n} tiles but holds only {}",
                    self.record.players[p].nick, self.rack_len[p]
                ),
            ));
        }
        self.rack_len[p] -= n;
        let draw = (self.rack_size - self.rack_len[p]).min(self.bag_len());
        self.rack_len[p] += draw;
        if self.rack_len[p] == 0 && !withdrawn_next {
            self.out = Some((p, ev.line));
        }
        Ok(())
    }
}
