//! What the tiles allow: a rack (or any list of tiles) must fit the tiles not on the board, a
//! move uses only tiles of its rack, and the bag's size follows from the board and the racks.

use super::{err, ReplayError, Replayer};
use crate::gcg::{GcgEvent, GcgEventKind};
use crate::tiles::Tile;

impl Replayer<'_> {
    /// A rack (or a list of tiles) must fit the tiles that are not on the board: three Zs, or a
    /// second K once one is on the board, cannot be on anyone's rack.
    pub(super) fn check_possible(
        &self,
        line: usize,
        what: &str,
        tiles: &[Tile],
    ) -> Result<(), ReplayError> {
        let mut free_of = vec![0i32; self.set.letters.len() + 1];
        for t in self.set.all_tiles() {
            free_of[self.tile_slot(t)] += 1;
        }
        for (_, b) in self.board.tiles() {
            free_of[self.tile_slot(b.tile())] -= 1;
        }
        let mut left = free_of.clone();
        for &t in tiles {
            let slot = self.tile_slot(t);
            left[slot] -= 1;
            if left[slot] < 0 {
                let want = tiles.iter().filter(|&&x| x == t).count();
                let free = free_of[slot];
                return Err(err(
                    line,
                    format!(
                        "{what} is impossible: it holds {want} {c} but only {free} {c} {is} not on the board (the set has {n})",
                        c = self.set.tile_char(t),
                        is = if free == 1 { "is" } else { "are" },
                        n = self.set.count(t)
                    ),
                ));
            }
        }
        Ok(())
    }

    /// A rack holds at most seven tiles. An overdrawn rack is put right at the board before
    /// anyone plays from it (NASPA IV.B.4.a, WESPA 3.9.5), so a record never shows more. `what`
    /// names the rack in the error ("the rack", "#rack1"); a rack that cannot be read is left to
    /// the check that reads it.
    pub(super) fn check_rack_size_of(
        &self,
        line: usize,
        what: &str,
        rack: &str,
    ) -> Result<(), ReplayError> {
        if rack == "UNKNOWN" {
            return Ok(());
        }
        let Ok(tiles) = self.set.parse_tiles(rack) else {
            return Ok(());
        };
        if tiles.len() > self.rack_size {
            return Err(err(
                line,
                format!(
                    "{what} {rack} holds {} tiles, but a rack holds at most {}: an overdrawn rack is put right at the board before anyone plays from it (NASPA IV.B.4.a, WESPA 3.9.5)",
                    tiles.len(),
                    self.rack_size
                ),
            ));
        }
        Ok(())
    }

    /// The rack field of an event holds at most seven tiles.
    pub(super) fn check_rack_size(&self, ev: &GcgEvent) -> Result<(), ReplayError> {
        match ev.rack.as_deref() {
            Some(rack) => self.check_rack_size_of(ev.line, "the rack", rack),
            None => Ok(()),
        }
    }

    /// Check the rack field of an event, if it has one.
    pub(super) fn check_rack_possible(&self, ev: &GcgEvent) -> Result<(), ReplayError> {
        if let Some(rack) = self.rack_of(ev)? {
            let shown = ev.rack.as_deref().unwrap_or("");
            self.check_possible(ev.line, &format!("the rack {shown}"), &rack)?;
        }
        Ok(())
    }

    /// The rack an event shows is checked before the move, except where the move itself is the
    /// clearer error or the rack is not the player's to check.
    pub(super) fn check_rack_before_the_move(&self, ev: &GcgEvent) -> Result<(), ReplayError> {
        match &ev.kind {
            // A play's rack is checked once its word has been read (an unknown tile in the word
            // is the clearer error).
            GcgEventKind::Play { .. } | GcgEventKind::Withdrawal | GcgEventKind::TimePenalty => {
                Ok(())
            }
            GcgEventKind::EndRack { .. } if ev.score < 0 => Ok(()),
            _ => self.check_rack_possible(ev),
        }
    }

    /// Tiles neither on the board nor known: the bag and both racks together.
    pub fn unseen(&self) -> Vec<Tile> {
        let mut on_board = vec![0u8; self.set.letters.len() + 1];
        for (_, t) in self.board.tiles() {
            on_board[self.tile_slot(t.tile())] += 1;
        }
        self.set
            .all_tiles()
            .into_iter()
            .filter(|&t| {
                let slot = &mut on_board[self.tile_slot(t)];
                let seen = *slot > 0;
                *slot = slot.saturating_sub(1);
                !seen
            })
            .collect()
    }

    pub(super) fn tile_slot(&self, t: Tile) -> usize {
        match t {
            Tile::Letter(i) => (i as usize).min(self.set.letters.len()),
            Tile::Blank => self.set.letters.len(),
        }
    }

    /// The tiles in the bag: the set less the board and both racks (whose sizes are followed
    /// exactly: each draws after a play while the bag lasts).
    pub(super) fn bag_len(&self) -> usize {
        (self.set.total_tiles())
            .saturating_sub(self.board.tile_count())
            .saturating_sub(self.rack_len[0] + self.rack_len[1])
    }

    pub(super) fn rack_of(&self, ev: &GcgEvent) -> Result<Option<Vec<Tile>>, ReplayError> {
        match ev.rack.as_deref() {
            None | Some("UNKNOWN") => Ok(None),
            Some(r) => self
                .set
                .parse_tiles(r)
                .map(Some)
                .map_err(|e| err(ev.line, format!("rack {r:?}: {e}"))),
        }
    }

    /// The tiles a move uses must all be on its recorded rack. `what` names the move in an
    /// error; it is only built when there is one.
    pub(super) fn check_subset(
        &self,
        ev: &GcgEvent,
        used: &[Tile],
        what: impl Fn() -> String,
    ) -> Result<(), ReplayError> {
        let Some(mut rack) = self.rack_of(ev)? else {
            return Ok(());
        };
        for t in used {
            match rack.iter().position(|r| r == t) {
                Some(i) => {
                    rack.remove(i);
                }
                None => {
                    return Err(err(
                        ev.line,
                        format!(
                            "{} uses {} but the rack {:?} has no such tile",
                            what(),
                            self.set.tile_char(*t),
                            ev.rack.as_deref().unwrap_or("")
                        ),
                    ))
                }
            }
        }
        Ok(())
    }
}
