//! Replaying a GCG record against the rules: every placement, score and cumulative score is
//! checked against the board. A record is what players wrote, so the checker is exact about what
//! changes the result and lenient about what does not (a mis-added score on a play that was later
//! withdrawn is a warning).
//!
//! [`Replayer::step`] only dispatches: each kind of GCG event has its own file.
//!
//! - `order`: what may come after what (turns alternate; nothing after the end of the game).
//! - `racks`: what the tiles allow (a rack must be possible and hold at most seven tiles; the
//!   bag's size; unseen tiles).
//! - `placement`: a play of tiles on the board, its score and the draw after it.
//! - `withdrawal`: a phony withdrawn after a challenge (`--`).
//! - `scoreless_turn`: a pass (or a lost challenge) and an exchange.
//! - `challenge_bonus`: the bonus for a play that was challenged and stood (an amount a rulebook
//!   gives: the record's preset's, when its `#game-type` names one).
//! - `time_penalty`: the overtime penalty at the end.
//! - `end_rack`: the end-of-game rack lines (the credit of the opponent's rack, or a player's
//!   own rack deducted).
//! - `conclusion`: after the last move, what must hold of the game as a whole.
//! - `to_gcg`: writing a game played through the engine as a record.

mod challenge_bonus;
mod conclusion;
mod end_rack;
mod order;
mod placement;
mod racks;
mod scoreless_turn;
mod time_penalty;
mod to_gcg;
mod withdrawal;

#[cfg(test)]
mod tests;

pub use to_gcg::game_to_gcg;

use crate::board::{Board, Layout, Position};
use crate::gcg::{GcgEvent, GcgEventKind, GcgRecord};
use crate::play::ScoredPlay;
use crate::ruleset::Ruleset;
use crate::tiles::TileSet;

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
    /// The preset the record's `#game-type` names, if it names one: the rules the organiser
    /// could choose from (challenge bonuses, how a director's end scores).
    preset: Option<Ruleset>,
    /// An own-rack deduction before the game had ended by the moves and with no `#tilebag-end`:
    /// it stands only if the record turns out to be a game the director stopped (scoreless
    /// turns, then each player's own rack deducted: NASPA V.F). The error it is otherwise.
    unended_deduction: Option<ReplayError>,
}

/// The preset a `#game-type` names (`naspa-2013`, `WESPA-2010`, ...), as `tilebag rules list`
/// names them.
fn preset_named(game_type: &str) -> Option<Ruleset> {
    Ruleset::preset(&game_type.trim().to_ascii_lowercase()).ok()
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
            preset: record
                .game_type
                .as_ref()
                .and_then(|(_, game_type)| preset_named(game_type)),
            unended_deduction: None,
        }
    }

    pub fn done(&self) -> bool {
        self.next >= self.record.events.len()
    }

    /// The event about to be replayed.
    pub fn peek(&self) -> Option<&'r GcgEvent> {
        self.record.events.get(self.next)
    }

    /// Replay the next event. Returns `Ok(false)` when there are no more events.
    pub fn step(&mut self) -> Result<bool, ReplayError> {
        let Some(ev) = self.record.events.get(self.next) else {
            return Ok(false);
        };
        let idx = self.next;
        self.next += 1;
        self.check_game_not_over(ev)?;
        self.check_after_out_play(idx, ev)?;
        self.check_only_penalties_after_a_penalty(ev)?;
        self.check_rack_size(ev)?;
        self.check_rack_before_the_move(ev)?;
        match &ev.kind {
            GcgEventKind::Play { position, word } => {
                self.replay_placement(idx, ev, position, word)?
            }
            GcgEventKind::Withdrawal => self.replay_withdrawal(idx, ev)?,
            GcgEventKind::Pass => self.replay_pass(ev)?,
            GcgEventKind::Exchange(tiles) => self.replay_exchange(ev, tiles)?,
            GcgEventKind::ChallengeBonus => self.replay_challenge_bonus(idx, ev)?,
            GcgEventKind::TimePenalty => self.replay_time_penalty(ev)?,
            GcgEventKind::EndRack { tiles } => self.replay_end_rack(ev, tiles)?,
        }
        Ok(true)
    }

    /// The score line every event ends with: the score the engine computed must be the one
    /// recorded, and so must the player's running total.
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

    /// Record what an event did, for the report.
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

    /// An event that only adds to a score (a bonus, a penalty, a rack line): the amount is the
    /// recorded one, so only the running total can disagree.
    fn add_recorded_score(&mut self, ev: &GcgEvent) -> Result<(), ReplayError> {
        self.scores[ev.player] += ev.score;
        self.check_cumulative(ev, ev.score)?;
        self.push(ev, ev.score, Vec::new(), None, None);
        Ok(())
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
        if !game_type.trim().eq_ignore_ascii_case("classic") && preset_named(game_type).is_none() {
            return Err(err(
                *line,
                format!(
                    "the game type {:?} cannot be verified: only classic games can (\"classic\", or a preset the game was played under: {})",
                    game_type.trim(),
                    Ruleset::PRESETS.join(", ")
                ),
            ));
        }
    }
    check_last_racks_come_last(record)
}

/// `#rack1` / `#rack2` give the racks an unfinished record stops with, so no move may follow
/// them (read at the end, a rack given mid-record would be checked against the wrong board).
fn check_last_racks_come_last(record: &GcgRecord) -> Result<(), ReplayError> {
    for (slot, &rack_line) in record.last_rack_lines.iter().enumerate() {
        if rack_line == 0 || record.last_racks[slot].is_none() {
            continue;
        }
        if let Some(ev) = record.events.iter().find(|e| e.line > rack_line) {
            let nick = &record.players[slot].nick;
            let whose = if nick.is_empty() {
                format!("player {}", slot + 1)
            } else {
                nick.clone()
            };
            return Err(err(
                rack_line,
                format!(
                    "#rack{} gives {}'s rack where an unfinished record stops, so it belongs after the last move, but the move on line {} comes after it",
                    slot + 1,
                    whose,
                    ev.line
                ),
            ));
        }
    }
    Ok(())
}
