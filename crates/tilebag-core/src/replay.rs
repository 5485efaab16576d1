//! Replaying a GCG record against the rules: every placement, score and cumulative score is
//! checked against the board. A record is what players wrote, so the checker is exact about what
//! changes the result and lenient about what does not (a mis-added score on a play that was later
//! withdrawn is a warning).

use crate::board::{Board, Layout, Position};
use crate::game::{Game, Turn, TurnKind};
use crate::gcg::{ExchangedTiles, GcgEvent, GcgEventKind, GcgPlayer, GcgRecord};
use crate::play::{self, Placement, ScoredPlay};
use crate::tiles::{Tile, TileSet};

/// A disagreement between a record and the rules, at a line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct ReplayError {
    pub line: usize,
    pub message: String,
}

/// What one event did, as the engine computed it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReplayedEvent {
    pub line: usize,
    pub player: usize,
    /// For a play: the words formed, main word first.
    pub words: Vec<String>,
    /// The tiles placed, as the GCG word shows them (`.` for played-through).
    pub played: Option<String>,
    pub position: Option<Position>,
    pub score: i32,
    pub cumulative: i32,
}

/// How a replayed game ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Completion {
    /// The record reaches the end of the game (a player went out, or the racks were counted).
    Complete,
    /// The record stops before the end of the game.
    Incomplete,
}

#[derive(Debug, Clone)]
pub struct ReplayReport {
    pub completion: Completion,
    pub scores: [i32; 2],
    pub warnings: Vec<String>,
    pub events: Vec<ReplayedEvent>,
}

/// The state of a record being replayed. Step through it one event at a time (for `gcg show`) or
/// all at once with [`verify_record`].
pub struct Replayer<'r> {
    record: &'r GcgRecord,
    pub set: TileSet,
    pub layout: Layout,
    pub board: Board,
    pub scores: [i32; 2],
    next: usize,
    /// The last play that stands or is pending, by player: (event index, play).
    last_play: Option<(usize, ScoredPlay, i32)>,
    /// The last move-making player (for turn order).
    last_mover: Option<usize>,
    ended: bool,
    pub warnings: Vec<String>,
    pub events: Vec<ReplayedEvent>,
    rack_size: usize,
}

fn err(line: usize, message: impl Into<String>) -> ReplayError {
    ReplayError {
        line,
        message: message.into(),
    }
}

impl<'r> Replayer<'r> {
    pub fn new(record: &'r GcgRecord) -> Replayer<'r> {
        let layout = Layout::standard();
        Replayer {
            record,
            set: TileSet::english(),
            board: Board::new(layout.size),
            layout,
            scores: [0; 2],
            next: 0,
            last_play: None,
            last_mover: None,
            ended: false,
            warnings: Vec::new(),
            events: Vec::new(),
            rack_size: 7,
        }
    }

    pub fn done(&self) -> bool {
        self.next >= self.record.events.len()
    }

    /// The event about to be replayed.
    pub fn peek(&self) -> Option<&'r GcgEvent> {
        self.record.events.get(self.next)
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

    fn tile_slot(&self, t: Tile) -> usize {
        match t {
            Tile::Letter(i) => (i as usize).min(self.set.letters.len()),
            Tile::Blank => self.set.letters.len(),
        }
    }

    fn bag_len(&self) -> usize {
        (self.set.total_tiles())
            .saturating_sub(self.board.tile_count())
            .saturating_sub(2 * self.rack_size)
    }

    fn rack_of(&self, ev: &GcgEvent) -> Result<Option<Vec<Tile>>, ReplayError> {
        match ev.rack.as_deref() {
            None | Some("UNKNOWN") => Ok(None),
            Some(r) => self
                .set
                .parse_tiles(r)
                .map(Some)
                .map_err(|e| err(ev.line, format!("rack {r:?}: {e}"))),
        }
    }

    /// `what` names the move in an error; it is only built when there is one.
    fn check_subset(
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

    fn check_turn_order(&mut self, ev: &GcgEvent) -> Result<(), ReplayError> {
        if self.last_mover == Some(ev.player) {
            return Err(err(
                ev.line,
                format!(
                    "{} moves twice in a row",
                    self.record.players[ev.player].nick
                ),
            ));
        }
        self.last_mover = Some(ev.player);
        Ok(())
    }

    fn check_cumulative(&self, ev: &GcgEvent, computed_score: i32) -> Result<(), ReplayError> {
        let cum = self.scores[ev.player];
        if ev.score != computed_score {
            return Err(err(
                ev.line,
                format!(
                    "the record says {:+} but the engine computed {:+}",
                    ev.score, computed_score
                ),
            ));
        }
        if ev.cumulative != cum {
            return Err(err(
                ev.line,
                format!(
                    "the record's cumulative score is {} but the engine computed {}",
                    ev.cumulative, cum
                ),
            ));
        }
        Ok(())
    }

    fn push(
        &mut self,
        ev: &GcgEvent,
        score: i32,
        words: Vec<String>,
        play: Option<&ScoredPlay>,
        word: Option<String>,
    ) {
        self.events.push(ReplayedEvent {
            line: ev.line,
            player: ev.player,
            words,
            played: word,
            position: play.map(|p| p.position),
            score,
            cumulative: self.scores[ev.player],
        });
    }

    /// Replay the next event. Returns `Ok(false)` when there are no more events.
    pub fn step(&mut self) -> Result<bool, ReplayError> {
        let Some(ev) = self.record.events.get(self.next) else {
            return Ok(false);
        };
        let idx = self.next;
        self.next += 1;
        let line = ev.line;
        let is_end_line = matches!(
            ev.kind,
            GcgEventKind::EndRack { .. } | GcgEventKind::TimePenalty
        );
        if self.ended && !is_end_line {
            return Err(err(line, "an event after the end of the game"));
        }
        match &ev.kind {
            GcgEventKind::Play { position, word } => {
                self.check_turn_order(ev)?;
                let pos = Position::parse(position, self.layout.size)
                    .map_err(|e| err(line, e.to_string()))?;
                let placement =
                    Placement::from_gcg(&self.board, &self.layout, &self.set, pos, word)
                        .map_err(|e| err(line, format!("{position} {word}: {e}")))?;
                let sp = play::score_placement(
                    &self.board,
                    &self.layout,
                    &self.set,
                    &placement,
                    self.rack_size,
                )
                .map_err(|e| err(line, format!("{position} {word}: {e}")))?;
                self.check_subset(ev, &sp.tiles_used(), || format!("{position} {word}"))?;
                // The set holds only so many of each tile.
                let used = sp.tiles_used();
                let mut taken = vec![0usize; self.set.letters.len() + 1];
                for (_, b) in self.board.tiles() {
                    taken[self.tile_slot(b.tile())] += 1;
                }
                for &t in &used {
                    taken[self.tile_slot(t)] += 1;
                }
                for &t in &used {
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
                let shown = sp.gcg_word(&self.board, &self.layout, &self.set);
                play::place(&mut self.board, &sp);
                self.scores[ev.player] += sp.score;
                let withdrawn_next = matches!(
                    self.record.events.get(idx + 1),
                    Some(GcgEvent { kind: GcgEventKind::Withdrawal, player, .. }) if *player == ev.player
                );
                if ev.score != sp.score || ev.cumulative != self.scores[ev.player] {
                    if withdrawn_next {
                        self.warnings.push(format!(
                            "line {line}: {position} {word} is recorded as {:+} (cumulative {}) but scores {:+} (cumulative {}); the play was withdrawn, so the result is unchanged",
                            ev.score, ev.cumulative, sp.score, self.scores[ev.player]
                        ));
                    } else {
                        let shown_score = sp.score;
                        self.check_cumulative(ev, shown_score).map_err(|mut e| {
                            e.message = format!("{position} {word}: {}", e.message);
                            e
                        })?;
                    }
                }
                let words = sp.words.iter().map(|w| w.word.clone()).collect();
                self.push(ev, sp.score, words, Some(&sp), Some(shown));
                let score = sp.score;
                self.last_play = Some((idx, sp, score));
            }
            GcgEventKind::Withdrawal => {
                let Some((pidx, sp, score)) = self.last_play.take() else {
                    return Err(err(line, "a withdrawal (--) with no play before it"));
                };
                if self.record.events[pidx].player != ev.player || pidx + 1 != idx {
                    return Err(err(
                        line,
                        "a withdrawal (--) must directly follow the withdrawn play of the same player",
                    ));
                }
                play::unplace(&mut self.board, &sp);
                self.scores[ev.player] -= score;
                // Old records write "+0"; newer ones "-SCORE". Both mean the play is gone.
                if ev.cumulative != self.scores[ev.player] {
                    return Err(err(
                        line,
                        format!(
                            "after the withdrawal the record's cumulative score is {} but the engine computed {}",
                            ev.cumulative, self.scores[ev.player]
                        ),
                    ));
                }
                // The withdrawal line itself should say what is taken away: -SCORE (or +0 in
                // old records). The cumulative decides the result; a wrong amount is a warning.
                if ev.score != -score && ev.score != 0 {
                    self.warnings.push(format!(
                        "line {line}: the withdrawal is recorded as {:+} but the withdrawn play scored {score}; expected {:+} (or +0)",
                        ev.score, -score
                    ));
                }
                self.push(ev, -score, Vec::new(), None, None);
            }
            GcgEventKind::Pass => {
                self.check_turn_order(ev)?;
                self.check_cumulative(ev, 0)?;
                self.push(ev, 0, Vec::new(), None, None);
            }
            GcgEventKind::Exchange(tiles) => {
                self.check_turn_order(ev)?;
                let n = match tiles {
                    ExchangedTiles::Known(s) => {
                        let t = self
                            .set
                            .parse_tiles(s)
                            .map_err(|e| err(line, format!("exchange -{s}: {e}")))?;
                        self.check_subset(ev, &t, || format!("exchange -{s}"))?;
                        t.len()
                    }
                    ExchangedTiles::Count(n) => *n as usize,
                };
                if n == 0 || n > self.rack_size {
                    return Err(err(line, format!("an exchange of {n} tiles")));
                }
                let bag = self.bag_len();
                if bag < 7 {
                    return Err(err(
                        line,
                        format!("an exchange with only {bag} tiles in the bag (NASPA IV.E.2.a: at least 7)"),
                    ));
                }
                self.check_cumulative(ev, 0)?;
                self.push(ev, 0, Vec::new(), None, None);
            }
            GcgEventKind::ChallengeBonus => {
                match &self.last_play {
                    Some((pidx, _, _)) if self.record.events[*pidx].player == ev.player => {}
                    _ => {
                        return Err(err(
                            line,
                            "a challenge bonus for a player whose play is not the last one",
                        ))
                    }
                }
                if ev.score < 0 {
                    return Err(err(line, "a negative challenge bonus"));
                }
                self.scores[ev.player] += ev.score;
                self.check_cumulative(ev, ev.score)?;
                self.push(ev, ev.score, Vec::new(), None, None);
            }
            GcgEventKind::TimePenalty => {
                if ev.score > 0 {
                    return Err(err(line, "a time penalty must not be positive"));
                }
                self.scores[ev.player] += ev.score;
                self.check_cumulative(ev, ev.score)?;
                self.push(ev, ev.score, Vec::new(), None, None);
            }
            GcgEventKind::EndRack { tiles } => {
                let t = self
                    .set
                    .parse_tiles(tiles)
                    .map_err(|e| err(line, format!("rack ({tiles}): {e}")))?;
                let v = self.set.tiles_value(&t);
                let received = ev.score > 0 || (ev.score == 0 && ev.rack.is_none());
                if received {
                    // The player went out and receives the opponent's rack: twice its value
                    // (NASPA V.G.1, SANSPA 18.4) or its value (WESPA 5.1.4(a)).
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
                    if self.bag_len() == 0 {
                        let mut unseen = self.unseen();
                        unseen.sort();
                        let mut claimed = t.clone();
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
                    }
                } else if ev.score != -v {
                    return Err(err(
                        line,
                        format!(
                            "the record says {:+} for the player's own rack ({tiles}) worth {v}; the engine computed {:+}",
                            ev.score, -v
                        ),
                    ));
                }
                self.scores[ev.player] += ev.score;
                self.check_cumulative(ev, ev.score)?;
                self.push(ev, ev.score, Vec::new(), None, None);
                self.ended = true;
            }
        }
        Ok(true)
    }

    pub fn finish(self) -> ReplayReport {
        ReplayReport {
            completion: if self.ended {
                Completion::Complete
            } else {
                Completion::Incomplete
            },
            scores: self.scores,
            warnings: self.warnings,
            events: self.events,
        }
    }
}

/// Replay a whole record.
pub fn verify_record(record: &GcgRecord) -> Result<ReplayReport, ReplayError> {
    let mut r = Replayer::new(record);
    while r.step()? {}
    Ok(r.finish())
}

/// The GCG record of a game played through the engine: the strict form of its score sheet.
pub fn game_to_gcg(game: &Game, players: [GcgPlayer; 2]) -> GcgRecord {
    let set = game.tile_set();
    let mut events: Vec<GcgEvent> = Vec::new();
    for turn in game.history() {
        let Turn {
            seat,
            rack,
            kind,
            score,
            cumulative,
        } = turn;
        let rack_s = (!rack.is_empty()).then(|| set.tiles_to_string(rack));
        let kind = match kind {
            TurnKind::Play { position, word, .. } => GcgEventKind::Play {
                position: position.clone(),
                word: word.clone(),
            },
            TurnKind::Exchange { tiles } => {
                GcgEventKind::Exchange(ExchangedTiles::Known(set.tiles_to_string(tiles)))
            }
            TurnKind::Pass | TurnKind::LostChallenge | TurnKind::TimedOut => GcgEventKind::Pass,
            TurnKind::Withdrawal => GcgEventKind::Withdrawal,
            TurnKind::ChallengeBonus => GcgEventKind::ChallengeBonus,
            TurnKind::TimePenalty => GcgEventKind::TimePenalty,
            TurnKind::EndRack { tiles } => GcgEventKind::EndRack {
                tiles: set.tiles_to_string(tiles),
            },
            TurnKind::Adjustment { why } => {
                // GCG has no line for a result adjustment; keep it as a note.
                let note = format!(
                    "{}: {score:+} ({why}); final {cumulative}",
                    players[*seat].nick
                );
                if let Some(e) = events.last_mut() {
                    e.notes.push(note);
                }
                continue;
            }
        };
        let rack = match (&kind, *score < 0) {
            (GcgEventKind::EndRack { .. }, false) => None,
            _ => rack_s,
        };
        events.push(GcgEvent {
            line: 0,
            player: *seat,
            rack,
            kind,
            score: *score,
            cumulative: *cumulative,
            trailing: Vec::new(),
            notes: Vec::new(),
        });
    }
    let last_racks = if game.is_over() {
        [None, None]
    } else {
        [0, 1].map(|s| Some(set.tiles_to_string(game.rack(s))).filter(|r| !r.is_empty()))
    };
    GcgRecord {
        players,
        lexicon: Some(game.ruleset().word_source.clone()),
        incomplete: !game.is_over(),
        last_racks,
        events,
        ..GcgRecord::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gcg::parse_gcg;

    fn verify(text: &str) -> Result<ReplayReport, ReplayError> {
        verify_record(&parse_gcg(text.as_bytes()).unwrap())
    }

    #[test]
    fn a_record_cannot_use_more_tiles_than_the_set_holds() {
        let e = verify("#player1 a a\n#player2 b b\n>a: ZAX 8G ZAX +38 38\n>b: ZO 7G ZO +31 31\n")
            .unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.message.contains("no Z is left"), "{e}");
    }

    #[test]
    fn a_played_tile_must_be_on_the_recorded_rack() {
        let e = verify("#player1 a a\n#player2 b b\n>a: ABCDEFG 8G ZAX +38 38\n").unwrap_err();
        assert!(e.message.contains("no such tile"), "{e}");
    }

    #[test]
    fn moves_alternate_and_bonuses_follow_the_players_own_play() {
        let e =
            verify("#player1 a a\n#player2 b b\n>a: ZAX 8G ZAX +38 38\n>a: - +0 38\n").unwrap_err();
        assert!(e.message.contains("twice in a row"), "{e}");
        let e = verify("#player1 a a\n#player2 b b\n>a: ZAX 8G ZAX +38 38\n>b: (challenge) +5 5\n")
            .unwrap_err();
        assert!(e.message.contains("challenge bonus"), "{e}");
    }

    #[test]
    fn end_rack_lines_are_checked_against_the_rack_value() {
        let e = verify("#player1 a a\n#player2 b b\n>a: ZAX 8G ZAX +38 38\n>b: (QI) +5 5\n")
            .unwrap_err();
        assert!(e.message.contains("worth 11"), "{e}");
        let r = verify("#player1 a a\n#player2 b b\n>a: ZAX 8G ZAX +38 38\n>b: QI (QI) -11 -11\n")
            .unwrap();
        assert_eq!(r.completion, Completion::Complete);
    }
}
