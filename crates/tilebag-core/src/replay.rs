//! Replaying a GCG record against the rules: every placement, score and cumulative score is
//! checked against the board. A record is what players wrote, so the checker is exact about what
//! changes the result and lenient about what does not (a mis-added score on a play that was later
//! withdrawn is a warning).

use crate::board::{Board, Layout, Position};
use crate::game::{EndReason, Game, Phase, Turn, TurnKind};
use crate::gcg::{
    ExchangedTiles, GcgAdjustment, GcgEnding, GcgEvent, GcgEventKind, GcgPlayer, GcgRecord,
};
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
    /// How the game ended, when the record says so (`#tilebag-end`): `resigned NICK`, ...
    pub ending: Option<String>,
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
    /// How many tiles each rack holds.
    rack_len: [usize; 2],
    /// The player's rack size before the last play (restored if it is withdrawn).
    rack_len_before_play: usize,
    pub warnings: Vec<String>,
    pub events: Vec<ReplayedEvent>,
    rack_size: usize,
    /// Successive scoreless turns so far, and the run before the last play (restored, plus one,
    /// if it is withdrawn).
    zero_run: u32,
    zero_before_play: u32,
    /// The rack recorded on the last play (a withdrawal must show the same rack).
    last_play_rack: Option<String>,
    /// A standing play that went out (bag empty, rack empty): (player, line).
    out: Option<(usize, usize)>,
    /// The end-of-game credit for the opponent's rack: (line, player, score, rack value).
    credit: Option<(usize, usize, i32, i32)>,
    /// Own-rack deductions: (line, player, rack value).
    deductions: Vec<(usize, usize, i32)>,
    /// The players who have had a time penalty, and whether one has been seen at all.
    time_penalised: [bool; 2],
    ending: Option<String>,
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
            zero_run: 0,
            zero_before_play: 0,
            rack_len: [7, 7],
            rack_len_before_play: 7,
            last_play_rack: None,
            out: None,
            credit: None,
            deductions: Vec::new(),
            time_penalised: [false; 2],
            ending: None,
        }
    }

    /// A rack (or a list of tiles) must fit the tiles that are not on the board: three Zs, or a
    /// second K once one is on the board, cannot be on anyone's rack.
    fn check_possible(&self, line: usize, what: &str, tiles: &[Tile]) -> Result<(), ReplayError> {
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

    /// Check the rack field of an event, if it has one.
    fn check_rack_possible(&self, ev: &GcgEvent) -> Result<(), ReplayError> {
        if let Some(rack) = self.rack_of(ev)? {
            let shown = ev.rack.as_deref().unwrap_or("");
            self.check_possible(ev.line, &format!("the rack {shown}"), &rack)?;
        }
        Ok(())
    }

    /// Whether a standing play of `p` went out (the bag empty and `p`'s rack used up).
    fn went_out(&self, p: usize) -> bool {
        self.out.is_some_and(|(who, _)| who == p)
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

    /// The tiles in the bag: the set less the board and both racks (whose sizes are followed
    /// exactly: each draws after a play while the bag lasts).
    fn bag_len(&self) -> usize {
        (self.set.total_tiles())
            .saturating_sub(self.board.tile_count())
            .saturating_sub(self.rack_len[0] + self.rack_len[1])
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
        if let Some((who, at)) = self.out {
            let allowed = match ev.kind {
                GcgEventKind::ChallengeBonus | GcgEventKind::Withdrawal => ev.player == who,
                GcgEventKind::EndRack { .. } | GcgEventKind::TimePenalty => true,
                // A lost double challenge of the out play is written as the challenger's pass,
                // right after it.
                GcgEventKind::Pass => {
                    ev.player != who && idx > 0 && self.record.events[idx - 1].line == at
                }
                _ => false,
            };
            if !allowed {
                return Err(err(
                    line,
                    format!(
                        "the game ended on line {at} when {} went out (bag empty, rack empty); after that only a challenge of that play, its withdrawal, the end-rack lines and time penalties may follow",
                        self.record.players[who].nick
                    ),
                ));
            }
        }
        if self.time_penalised.iter().any(|&t| t) && !matches!(ev.kind, GcgEventKind::TimePenalty) {
            return Err(err(
                line,
                "only time penalties may follow a time penalty: they come last, after the rack adjustments",
            ));
        }
        match &ev.kind {
            // A play's rack is checked once its word has been read (an unknown tile in the word
            // is the clearer error).
            GcgEventKind::Play { .. } | GcgEventKind::Withdrawal | GcgEventKind::TimePenalty => {}
            GcgEventKind::EndRack { .. } if ev.score < 0 => {}
            _ => self.check_rack_possible(ev)?,
        }
        match &ev.kind {
            GcgEventKind::Play { position, word } => {
                self.check_turn_order(ev)?;
                let pos = Position::parse(position, self.layout.size)
                    .map_err(|e| err(line, e.to_string()))?;
                let placement =
                    Placement::from_gcg(&self.board, &self.layout, &self.set, pos, word)
                        .map_err(|e| err(line, format!("{position} {word}: {e}")))?;
                let sp = play::score_placement_off_centre_allowed(
                    &self.board,
                    &self.layout,
                    &self.set,
                    &placement,
                    self.rack_size,
                )
                .map_err(|e| err(line, format!("{position} {word}: {e}")))?;
                self.check_rack_possible(ev)?;
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
                let withdrawn_next = matches!(
                    self.record.events.get(idx + 1),
                    Some(GcgEvent { kind: GcgEventKind::Withdrawal, player, .. }) if *player == ev.player
                );
                if sp.off_centre && !withdrawn_next {
                    self.warnings.push(format!(
                        "line {line}: the first play {position} {word} does not cover the centre square {}; it could have been challenged off (NASPA III.G.1, NSA III.F.1, SANSPA 5.1.2, WESPA 3.10.16(d)) and it stands because it was not",
                        self.layout.centre
                    ));
                }
                let shown = sp.gcg_word(&self.board, &self.layout, &self.set);
                play::place(&mut self.board, &sp);
                self.scores[ev.player] += sp.score;
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
                // The player draws what the bag holds, up to a full rack; with the bag empty and
                // the rack used up, the player is out.
                let n = sp.placement.tiles.len();
                let p = ev.player;
                self.rack_len_before_play = self.rack_len[p];
                if n > self.rack_len[p] {
                    return Err(err(
                        line,
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
                    self.out = Some((p, line));
                }
                self.last_play = Some((idx, sp, score));
                self.last_play_rack = ev.rack.clone();
                self.zero_before_play = self.zero_run;
                self.zero_run = 0;
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
                // The withdrawal shows the rack of the play it withdraws.
                if let (Some(a), Some(b)) = (&self.last_play_rack, &ev.rack) {
                    let sorted = |r: &str| {
                        let mut v: Vec<char> = r.chars().collect();
                        v.sort_unstable();
                        v
                    };
                    if a != "UNKNOWN" && b != "UNKNOWN" && sorted(a) != sorted(b) {
                        return Err(err(
                            line,
                            format!("the withdrawal shows the rack {b}, but the play it withdraws was made from {a}"),
                        ));
                    }
                }
                play::unplace(&mut self.board, &sp);
                self.scores[ev.player] -= score;
                self.zero_run = self.zero_before_play + 1;
                self.out = None;
                self.rack_len[ev.player] = self.rack_len_before_play;
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
                self.zero_run += 1;
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
                self.zero_run += 1;
                self.check_cumulative(ev, 0)?;
                self.push(ev, 0, Vec::new(), None, None);
            }
            GcgEventKind::ChallengeBonus => {
                // Only for the play just made, before the opponent's next move.
                match &self.last_play {
                    Some((pidx, _, _))
                        if self.record.events[*pidx].player == ev.player && pidx + 1 == idx => {}
                    _ => {
                        return Err(err(
                            line,
                            "a challenge bonus belongs right after the challenged play of the same player, before the opponent's next move",
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
                if ev.score % 10 != 0 {
                    return Err(err(
                        line,
                        format!(
                            "a time penalty of {} is not a multiple of 10 (10 points per started minute: NASPA V.G.2, WESPA 5.3.2)",
                            ev.score
                        ),
                    ));
                }
                if self.time_penalised[ev.player] {
                    return Err(err(
                        line,
                        format!(
                            "a second time penalty for {}: one per player, at the end",
                            self.record.players[ev.player].nick
                        ),
                    ));
                }
                // A game the director ended has ended there, with or without rack lines
                // (NASPA V.F deducts each player's own rack; under NSA V.E the scores stand).
                let director_ended = self
                    .record
                    .ending
                    .as_ref()
                    .is_some_and(|e| e.reason == "director-ended");
                if !self.ended && self.out.is_none() && self.zero_run < 6 && !director_ended {
                    return Err(err(
                        line,
                        "a time penalty before the end of the game: penalties come at the end, after the rack adjustments",
                    ));
                }
                if director_ended {
                    // Nothing but the end's lines may follow.
                    self.ended = true;
                }
                self.time_penalised[ev.player] = true;
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
                let nick = &self.record.players[ev.player].nick;
                // A zero-point line (a rack of blanks) without a rack is the credit of the player
                // who went out, unless the opponent is the one who went out.
                let received = ev.score > 0
                    || (ev.score == 0 && ev.rack.is_none() && !self.went_out(1 - ev.player));
                if received {
                    // The player went out and receives the opponent's rack: twice its value
                    // (NASPA V.G.1, SANSPA 18.4, WESPA 5.1.4(b)) or its value (WESPA 5.1.4(a)).
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
                    self.credit = Some((line, ev.player, ev.score, v));
                } else {
                    // The rack and the tiles in parentheses are the same tiles.
                    if let Some(rack) = self.rack_of(ev)? {
                        let (mut a, mut b) = (rack, t.clone());
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
                    self.check_possible(line, &format!("the rack ({tiles})"), &t)?;
                    if self.deductions.iter().any(|d| d.1 == ev.player) {
                        return Err(err(
                            line,
                            format!("a second deduction of {nick}'s own rack"),
                        ));
                    }
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
                        return Err(err(
                            line,
                            format!(
                                "{nick} loses the value of the rack ({tiles}), but the game has not ended: that needs the opponent to go out, or six successive scoreless turns (NASPA V.B, WESPA 5.2) and there were only {}",
                                self.zero_run
                            ),
                        ));
                    }
                    self.deductions.push((line, ev.player, v));
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
            ending: self.ending,
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
    check_header(record)?;
    let mut r = Replayer::new(record);
    while r.step()? {}
    r.conclude()?;
    Ok(r.finish())
}

/// What must hold of a record before its moves are replayed.
fn check_header(record: &GcgRecord) -> Result<(), ReplayError> {
    if record.events.is_empty()
        && record.players.iter().all(|p| p.nick.is_empty())
        && record.ending.is_none()
    {
        return Err(err(
            1,
            "the file holds no game: no #player pragma and no move",
        ));
    }
    if let Some((line, game_type)) = &record.game_type {
        if !game_type.trim().eq_ignore_ascii_case("classic") {
            return Err(err(
                *line,
                format!(
                    "the game type {:?} cannot be verified: only classic games can",
                    game_type.trim()
                ),
            ));
        }
    }
    Ok(())
}

impl Replayer<'_> {
    /// After the last move: the end-of-game conventions, the last racks, tilebag's result
    /// adjustments and its record of how the game ended.
    pub fn conclude(&mut self) -> Result<(), ReplayError> {
        let record = self.record;
        // One convention per game, with both of its lines.
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
        for (slot, rack) in record.last_racks.iter().enumerate() {
            let Some(rack) = rack.as_deref().filter(|r| *r != "UNKNOWN") else {
                continue;
            };
            let line = record.last_rack_lines[slot];
            let tiles = self
                .set
                .parse_tiles(rack)
                .map_err(|e| err(line, format!("#rack{} {rack}: {e}", slot + 1)))?;
            self.check_possible(line, &format!("#rack{} {rack}", slot + 1), &tiles)?;
        }
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

/// The GCG record of a game played through the engine: the strict form of its score sheet.
pub fn game_to_gcg(game: &Game, players: [GcgPlayer; 2]) -> GcgRecord {
    let set = game.tile_set();
    let mut events: Vec<GcgEvent> = Vec::new();
    let mut adjustments: Vec<GcgAdjustment> = Vec::new();
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
                // GCG has no line for a result adjustment: tilebag's own pragma.
                adjustments.push(GcgAdjustment {
                    line: 0,
                    player: *seat,
                    score: *score,
                    cumulative: *cumulative,
                    why: why.clone(),
                });
                continue;
            }
        };
        // An end-rack line shows a rack only when it is the player's own (a deduction); the
        // player who went out has none.
        let rack = rack_s;
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
    let ending = match game.phase() {
        Phase::Ended { reason } => {
            let (reason, player) = match *reason {
                EndReason::WentOut { seat } => ("went-out", Some(seat)),
                EndReason::SixZeros => ("six-zeros", None),
                EndReason::OvertimeLimit { seat } => ("overtime-limit", Some(seat)),
                EndReason::GameClockExpired => ("game-clock-expired", None),
                EndReason::Resigned { seat } => ("resigned", Some(seat)),
                EndReason::Left { seat } => ("left", Some(seat)),
                EndReason::DirectorEnded => ("director-ended", None),
            };
            Some(GcgEnding {
                line: 0,
                reason: reason.to_string(),
                player,
            })
        }
        _ => None,
    };
    GcgRecord {
        players,
        lexicon: Some(game.ruleset().word_source.clone()),
        incomplete: !game.is_over(),
        last_racks,
        events,
        adjustments,
        ending,
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
        assert!(e.message.contains("the rack ZO is impossible"), "{e}");
        // Without a rack, the placement itself is checked.
        let e = verify("#player1 a a\n#player2 b b\n>a: ZAX 8G ZAX +38 38\n>b: 7G ZO +31 31\n")
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
        // Six passes, then each loses their own rack: QI is worth 10 + 1 = 11.
        let six = "#player1 a a\n#player2 b b\n>a: - +0 0\n>b: - +0 0\n>a: - +0 0\n>b: - +0 0\n>a: - +0 0\n>b: - +0 0\n";
        let e = verify(&format!("{six}>b: QI (QI) -10 -10\n")).unwrap_err();
        assert!(e.message.contains("worth 11"), "{e}");
        let r = verify(&format!("{six}>b: QI (QI) -11 -11\n")).unwrap();
        assert_eq!(r.completion, Completion::Complete);
    }

    #[test]
    fn naspa_iii_g_1_verify_accepts_an_off_centre_first_play_with_a_warning() {
        // 7G CAT: C on G7 (DL) 6 + A 1 + T on I7 (DL) 2 = 9. Then H7 .T: T on the centre,
        // still a double word: (1 + 1) × 2 = 4.
        let r =
            verify("#player1 a a\n#player2 b b\n>a: CAT 7G CAT +9 9\n>b: T H7 .T +4 4\n").unwrap();
        assert_eq!(r.scores, [9, 4]);
        assert_eq!(r.warnings.len(), 1, "{:?}", r.warnings);
        assert!(r.warnings[0].starts_with("line 3:"), "{:?}", r.warnings);
        assert!(
            r.warnings[0].contains("centre square H8"),
            "{:?}",
            r.warnings
        );
        // Challenged off: no warning, the board is empty again, so the next play must cover H8.
        let r = verify(
            "#player1 a a\n#player2 b b\n>a: CAT 7G CAT +9 9\n>a: CAT -- -9 0\n>b: AT 8G AT +4 4\n",
        )
        .unwrap();
        assert!(r.warnings.is_empty(), "{:?}", r.warnings);
    }

    /// A record's header and the given lines, numbered from 3.
    fn game(lines: &[&str]) -> String {
        let mut s = String::from("#player1 a a\n#player2 b b\n");
        for l in lines {
            s.push_str(l);
            s.push('\n');
        }
        s
    }

    fn fails_at(text: &str, line: usize, words: &str) {
        let e = verify(text).unwrap_err();
        assert_eq!(e.line, line, "{e}");
        assert!(e.message.contains(words), "{e}");
    }

    #[test]
    fn gcg_racks_must_be_possible() {
        // Three Zs: the set has one.
        fails_at(
            &game(&[">a: ZZZABCD 8G ZA +22 22"]),
            3,
            "holds 3 Z but only 1 Z is not on the board",
        );
        // A second K once the only K is on the board (8G KA: K 5×2 + A 1×... on H8).
        fails_at(
            &game(&[">a: KAEIOUT 8G KA +12 12", ">b: KEIOUTR -  +0 0"]),
            4,
            "holds 1 K but only 0 K are not on the board",
        );
        // On an exchange and on #rack1 too.
        fails_at(&game(&[">a: QQABCDE -QQ +0 0"]), 3, "holds 2 Q");
        fails_at(
            &game(&[">a: ABC 8G CAB +14 14", "#rack2 XX", "#incomplete"]),
            4,
            "#rack2 XX is impossible",
        );
    }

    #[test]
    fn gcg_a_withdrawal_shows_the_rack_of_the_play_it_withdraws() {
        fails_at(
            &game(&[">a: CATSDOG 8G CAT +10 10", ">a: CATSDOX -- -10 0"]),
            4,
            "the play it withdraws was made from CATSDOG",
        );
        verify(&game(&[
            ">a: CATSDOG 8G CAT +10 10",
            ">a: GODSTAC -- -10 0",
        ]))
        .unwrap();
    }

    #[test]
    fn gcg_end_rack_lines_only_once_the_game_has_ended() {
        // A credit for the opponent's rack by a player who has not gone out.
        fails_at(
            &game(&[">a: CATSDOG 8G CAT +10 10", ">a: (QI) +22 32"]),
            4,
            "has not gone out",
        );
        // An own-rack deduction after two scoreless turns.
        fails_at(
            &game(&[
                ">a: CATSDOG - +0 0",
                ">b: QIEEEEE - +0 0",
                ">b: QI (QI) -11 -11",
            ]),
            5,
            "only 2",
        );
        // The rack and the tiles in parentheses must agree.
        let mut six: Vec<String> = (0..6)
            .map(|i| {
                if i % 2 == 0 {
                    ">a: CATSDOG - +0 0".to_string()
                } else {
                    ">b: QIEEEEE - +0 0".to_string()
                }
            })
            .collect();
        six.push(">a: CATSDOG (CATSDOX) -19 -19".into());
        let lines: Vec<&str> = six.iter().map(String::as_str).collect();
        fails_at(&game(&lines), 9, "disagree");
        // Six zeros: each loses their own rack. CATSDOG = 3+1+1+1+2+1+2 = 11; QIEEEEE = 10+1+5 = 16.
        six.pop();
        six.push(">a: CATSDOG (CATSDOG) -11 -11".into());
        six.push(">b: QIEEEEE (QIEEEEE) -16 -16".into());
        let lines: Vec<&str> = six.iter().map(String::as_str).collect();
        let r = verify(&game(&lines)).unwrap();
        assert_eq!((r.scores, r.completion), ([-11, -16], Completion::Complete));
    }

    #[test]
    fn naspa_v_f_own_rack_deductions_before_six_zeros_only_when_the_director_ended_it() {
        let text = game(&[
            ">a: CATSDOG 8G CAT +10 10",
            ">b: QIEEEEE - +0 0",
            // S 1 + D 2 + O 1 + G 2 + E 1 + E 1 + E 1 = 9; Q 10 + I 1 + 5 × E 1 = 16.
            ">a: SDOGEEE (SDOGEEE) -9 1",
            ">b: QIEEEEE (QIEEEEE) -16 -16",
            "#tilebag-end director-ended",
        ]);
        let r = verify(&text).unwrap();
        assert_eq!(r.scores, [1, -16]);
        // Without the director's end the same lines are refused.
        let plain = text.replace("#tilebag-end director-ended\n", "");
        assert!(verify(&plain)
            .unwrap_err()
            .message
            .contains("has not ended"));
        assert_eq!(r.ending.as_deref(), Some("director-ended"));
        assert!(
            r.warnings
                .iter()
                .any(|w| w.contains("the director ended the game (NASPA V.F), not six zeros")),
            "{:?}",
            r.warnings
        );
    }

    /// NSA V.E: when the director ends a game the scores stand, so no rack lines come before
    /// the time penalties (found by the random-games property test: an NSA 2011 game ended by
    /// the director with a player over time was written, then refused by its own verifier).
    #[test]
    fn nsa_v_e_time_penalty_in_a_director_ended_game_without_rack_lines() {
        let text = game(&[
            ">a: CATSDOG 8G CAT +10 10",
            ">b: QIEEEEE - +0 0",
            ">b: QIEEEEE (time) -20 -20",
            "#tilebag-end director-ended",
        ]);
        let r = verify(&text).unwrap();
        assert_eq!(r.scores, [10, -20]);
        assert_eq!(r.ending.as_deref(), Some("director-ended"));
        // Without the director's end the penalty comes too early.
        let plain = text.replace("#tilebag-end director-ended\n", "");
        assert!(verify(&plain)
            .unwrap_err()
            .message
            .contains("a time penalty before the end of the game"));
        // And after the penalty the game is over: no play may follow it.
        let late = text.replace(
            "#tilebag-end director-ended",
            ">a: SDOGEEE 9G DOG +5 15\n#tilebag-end director-ended",
        );
        assert!(verify(&late)
            .unwrap_err()
            .message
            .contains("an event after the end of the game"));
    }

    #[test]
    fn gcg_challenge_bonuses_only_for_the_play_just_made() {
        fails_at(
            &game(&[
                ">a: CATSDOG 8G CAT +10 10",
                ">b: EEIIOUR - +0 0",
                ">a: (challenge) +5 15",
            ]),
            5,
            "right after the challenged play",
        );
        verify(&game(&[
            ">a: CATSDOG 8G CAT +10 10",
            ">a: (challenge) +5 15",
        ]))
        .unwrap();
    }

    #[test]
    fn gcg_time_penalties_only_at_the_end_once_each_in_tens() {
        fails_at(
            &game(&[">a: CATSDOG 8G CAT +10 10", ">a: (time) -10 0"]),
            4,
            "before the end of the game",
        );
        let mut six: Vec<String> = (0..6)
            .map(|i| {
                if i % 2 == 0 {
                    ">a: CATSDOG - +0 0".to_string()
                } else {
                    ">b: QIEEEEE - +0 0".to_string()
                }
            })
            .collect();
        six.push(">a: CATSDOG (CATSDOG) -11 -11".into());
        let base = six.clone();
        six.push(">a: (time) -15 -26".into());
        let lines: Vec<&str> = six.iter().map(String::as_str).collect();
        fails_at(&game(&lines), 10, "not a multiple of 10");
        let mut twice = base.clone();
        twice.push(">a: (time) -10 -21".into());
        twice.push(">a: (time) -10 -31".into());
        let lines: Vec<&str> = twice.iter().map(String::as_str).collect();
        fails_at(&game(&lines), 11, "a second time penalty");
        let mut before = base.clone();
        before.insert(6, ">a: (time) -10 -10".into());
        before[7] = ">a: CATSDOG (CATSDOG) -11 -21".into();
        let lines: Vec<&str> = before.iter().map(String::as_str).collect();
        fails_at(&game(&lines), 10, "only time penalties may follow");
    }

    #[test]
    fn gcg_pragmas_an_empty_file_and_unknown_game_types() {
        fails_at("", 1, "no game");
        fails_at(
            "#game-type wordsmog\n#player1 a a\n#player2 b b\n>a: CATSDOG 8G CAT +10 10\n",
            1,
            "only classic",
        );
        verify("#game-type classic\n#player1 a a\n#player2 b b\n>a: CATSDOG 8G CAT +10 10\n")
            .unwrap();
        // Harmless variations: a note before the first move, a description after the moves,
        // an encoding pragma in an ASCII file, a repeated title.
        verify("#character-encoding UTF-8\n#title t\n#title t\n#player1 a a\n#player2 b b\n#note hello\n>a: CATSDOG 8G CAT +10 10\n#description later\n").unwrap();
    }

    #[test]
    fn gcg_a_finished_games_record_carries_its_ending() {
        use crate::game::{Action, Actor, Event};
        // WESPA 5.7(c): resigning at 0–0 raises the opponent to 50.
        let mut g = Game::new(crate::ruleset::Ruleset::wespa_2010(), 3);
        g.apply(
            &Event {
                actor: Actor::Seat(0),
                at_ms: 0,
                action: Action::Resign,
            },
            &crate::game::AcceptAll,
        )
        .unwrap();
        let rec = game_to_gcg(
            &g,
            [
                GcgPlayer {
                    nick: "a".into(),
                    name: "A".into(),
                },
                GcgPlayer {
                    nick: "b".into(),
                    name: "B".into(),
                },
            ],
        );
        let text = crate::gcg::write_gcg(&rec);
        assert!(text.contains("#tilebag-adjust b +50 50 "), "{text}");
        assert!(text.contains("#tilebag-end resigned a\n"), "{text}");
        let r = verify(&text).unwrap();
        assert_eq!((r.scores, r.completion), ([0, 50], Completion::Complete));
        assert_eq!(r.ending.as_deref(), Some("resigned a"));
        // A changed adjustment fails at its line.
        let bad = text.replace("+50 50", "+50 60");
        let e = verify(&bad).unwrap_err();
        assert!(
            e.message
                .contains("cumulative score is 60 but the engine computed 50"),
            "{e}"
        );
        // An adjustment with no ending is refused.
        let bad = text.replace("#tilebag-end resigned a\n", "");
        assert!(verify(&bad)
            .unwrap_err()
            .message
            .contains("without a #tilebag-end"));
    }
}
