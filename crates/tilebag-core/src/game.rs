//! The game as a state machine. A game is (ruleset, seed, events): [`Game::apply`] takes one event
//! and either changes the state and says what happened, or returns a typed error and changes
//! nothing. Time enters only as `at_ms` on events (milliseconds since the game started).

use crate::bag::Bag;
use crate::board::{Board, Layout};
use crate::citation::Rule;
use crate::play::{self, Placement, PlayError, ScoredPlay};
use crate::ruleset::{
    ChallengeRule, ClockRule, EndRackRule, OutPlayClock, OvertimeConsequence, Ruleset,
    SixZeroEnding,
};
use crate::tiles::{Tile, TileSet};
use serde::{Deserialize, Serialize};

/// Answers whether a word is acceptable. The engine never does I/O; the shell passes a lexicon.
pub trait WordJudge {
    fn is_valid(&self, word: &str) -> bool;
}

/// A judge that accepts every word (for records replayed without a lexicon).
pub struct AcceptAll;
impl WordJudge for AcceptAll {
    fn is_valid(&self, _: &str) -> bool {
        true
    }
}

impl<S: std::hash::BuildHasher> WordJudge for std::collections::HashSet<String, S> {
    fn is_valid(&self, word: &str) -> bool {
        self.contains(word)
    }
}

/// Who acts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Actor {
    Seat(usize),
    Director,
    /// No one: time passing (flags falling, windows closing).
    Clock,
}

/// What someone does.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Action {
    Play {
        placement: Placement,
    },
    Exchange {
        tiles: Vec<Tile>,
    },
    Pass,
    /// Ask the opponent not to draw while you consider a challenge (NASPA IV.I.2, WESPA 3.10.5).
    Hold,
    /// Challenge the pending play. `words` names the challenged words; empty means all of them
    /// (NASPA IV.J.1.a).
    Challenge {
        words: Vec<String>,
    },
    /// Accept the pending play (NASPA IV.I.2, WESPA 3.10.1).
    Accept,
    /// Resign. Scored as leaving (below) unless the ruleset has the resignation option (NASPA
    /// I.B, NSA I.B), when it is a request the opponent answers with `HonourResignation` or
    /// `PlayOn`; it is made on one's own time (one's turn).
    Resign,
    /// The opponent honours a resignation: the game ends at the current score less any time
    /// penalties (NASPA I.B, NSA I.B).
    HonourResignation,
    /// The opponent insists that the game continue (NASPA I.B, NSA I.B).
    PlayOn,
    /// Leave the game in progress: a loss by the margin or the deficit plus the margin (NASPA
    /// V.K.2, NSA V.J.2, WESPA 5.7(c), SANSPA 19.3).
    Leave,
    /// End the game after the run of scoreless turns (NASPA V.B).
    EndAfterSixZeros,
    /// The director stops the game (NASPA V.F, NSA V.E).
    DirectorEnd,
    /// Neutralise the game: the clocks stop and no move may be made until the director resumes
    /// it. From the director, a pause; from a seat, a call for the director, which stops the
    /// clock too (NASPA II.A, WESPA 4.1(e), SANSPA 14).
    Pause,
    /// The director restarts a neutralised game (only the director may).
    Resume,
    /// Only let time pass.
    Tick,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Event {
    pub actor: Actor,
    pub at_ms: i64,
    pub action: Action,
}

/// Why an event is refused. The game is unchanged.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GameError {
    #[error("the game is over")]
    GameOver,
    #[error("it is not seat {0}'s turn to do that")]
    OutOfTurn(usize),
    #[error("no such seat {0}")]
    NoSuchSeat(usize),
    #[error("{0} is not allowed now: {1}")]
    NotAllowed(&'static str, &'static str),
    #[error("the tiles {0} are not on the rack")]
    TilesNotOnRack(String),
    #[error("an exchange needs at least {need} tiles in the bag; it holds {have} ({rule})")]
    ExchangeBagTooSmall {
        need: usize,
        have: usize,
        rule: &'static str,
    },
    /// `hint` says what to do instead where the book allows exchanging none of the letters.
    #[error("an exchange must return at least one tile{hint}")]
    EmptyExchange { hint: &'static str },
    /// A placement the board's rules refuse, with the rule of the game's own book.
    #[error("{error} ({rule})")]
    Play {
        error: PlayError,
        rule: &'static str,
    },
    #[error("the play is not acceptable (void rule): it is refused and the turn goes on")]
    VoidRefused,
    #[error("{0:?} is not a word formed by the play")]
    NotFormed(String),
    #[error("time went backwards: event at {at} ms after one at {last} ms")]
    TimeWentBackwards { at: i64, last: i64 },
    #[error("fewer than {turns} successive scoreless turns have been made ({rule})")]
    SixZeroNotReached { turns: u32, rule: &'static str },
    #[error("the game is neutralised until the director resumes it ({rule})")]
    Paused { rule: &'static str },
    #[error("resigning is not allowed now: a resignation is asked for on one's own turn ({rule})")]
    ResignOffTurn { rule: &'static str },
}

/// What an accepted event did, for the shell to report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Effect {
    Played {
        seat: usize,
        score: i32,
        out: bool,
    },
    Exchanged {
        seat: usize,
        count: usize,
    },
    Passed {
        seat: usize,
    },
    Held {
        seat: usize,
    },
    PlayFinal {
        seat: usize,
    },
    /// The verdict on a challenge: one for the whole play; it never says which word failed.
    Verdict {
        acceptable: bool,
    },
    Withdrawn {
        seat: usize,
    },
    ChallengeBonus {
        seat: usize,
        points: i32,
    },
    TurnLost {
        seat: usize,
    },
    TurnTimedOut {
        seat: usize,
    },
    /// The hold ran out and the play was accepted (SANSPA 13.1).
    HoldExpired {
        seat: usize,
    },
    /// A player asked to resign; the opponent may honour it or play on (NASPA I.B).
    ResignationOffered {
        seat: usize,
    },
    /// The opponent insisted on playing on; the offer lapses.
    ResignationDeclined {
        seat: usize,
    },
    /// The event came after time had already ended the game; only the time passing was applied.
    TooLate,
    /// The clocks stopped: the director paused the game, or a seat called the director.
    Paused {
        called_by: Option<usize>,
    },
    /// The director restarted the clocks.
    Resumed,
    Ended {
        reason: EndReason,
    },
}

/// Why the game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum EndReason {
    WentOut {
        seat: usize,
    },
    SixZeros,
    OvertimeLimit {
        seat: usize,
    },
    GameClockExpired,
    Resigned {
        seat: usize,
    },
    /// The player left the game in progress (NASPA V.K.2, NSA V.J.2, SANSPA 19.3).
    Left {
        seat: usize,
    },
    DirectorEnded,
}

/// One line of the score sheet, in GCG terms.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    pub seat: usize,
    /// The rack before the turn (for adjustment lines: the rack concerned).
    pub rack: Vec<Tile>,
    pub kind: TurnKind,
    pub score: i32,
    pub cumulative: i32,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum TurnKind {
    Play {
        position: String,
        word: String,
        words: Vec<String>,
    },
    Exchange {
        tiles: Vec<Tile>,
    },
    Pass,
    /// An unsuccessful double challenge: the challenger's lost turn (written as a pass in GCG).
    LostChallenge,
    /// The turn ran out (Literacy 2018: two minutes a turn).
    TimedOut,
    Withdrawal,
    ChallengeBonus,
    TimePenalty,
    /// Points for the opponent's rack (positive) or the loss of one's own (negative).
    EndRack {
        tiles: Vec<Tile>,
    },
    /// A result adjustment with no GCG line of its own (resignation, overtime limit).
    Adjustment {
        why: String,
    },
}

/// The phase of the game: who may do what.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Phase {
    /// `to_move` may play, exchange or pass.
    AwaitingMove,
    /// The play of `player` stands unless challenged: `to_move` (the opponent) may hold,
    /// challenge or accept, or make a move of their own (which accepts it).
    PlayPending {
        player: usize,
        held: bool,
        out: bool,
    },
    Ended {
        reason: EndReason,
    },
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Pending {
    play: ScoredPlay,
    drawn: Vec<Tile>,
    rack_before: Vec<Tile>,
    /// The history index of the play's line.
    line: usize,
    since_ms: i64,
    /// The zero run before this play (restored if it is withdrawn).
    zero_run_before: u32,
    /// When the opponent held the play, if they did (SANSPA 13.1 limits a hold).
    held_since_ms: Option<i64>,
}

/// The clocks. Values only: the engine never reads a clock of its own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Clocks {
    /// Time left per seat (per-player clocks) — negative is overtime.
    pub remaining_ms: [i64; 2],
    /// The shared game clock (Literacy), if any.
    pub game_remaining_ms: Option<i64>,
    /// Whose clock runs, if any.
    pub running: Option<usize>,
    pub last_ms: i64,
    /// When the current turn began (for a per-turn limit).
    pub turn_started_ms: i64,
}

/// A neutralised game (NASPA II.A, WESPA 1.4.3 and 4.1): since when, and which seat called the
/// director (`None`: the director paused it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pause {
    pub since_ms: i64,
    pub called_by: Option<usize>,
}

/// A finished game's adjustments and result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Adjustment {
    pub seat: usize,
    pub points: i32,
    pub why: String,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    ruleset: Ruleset,
    seed: u64,
    set: TileSet,
    layout: Layout,
    board: Board,
    bag: Bag,
    racks: [Vec<Tile>; 2],
    scores: [i32; 2],
    to_move: usize,
    phase: Phase,
    pending: Option<Pending>,
    zero_run: u32,
    clocks: Clocks,
    history: Vec<Turn>,
    adjustments: Vec<Adjustment>,
    paused: Option<Pause>,
    /// A resignation the opponent has not answered yet (NASPA I.B, NSA I.B).
    resignation_offer: Option<usize>,
}

/// What putting a game back as it was before an event takes: everything an event may change,
/// except the score sheet and the adjustments, which only ever grow (kept as their lengths).
/// Made by [`Game::apply_rewindable`], used by [`Game::rewind`]; far cheaper than a copy of the
/// game, whose score sheet grows with every turn.
#[derive(Debug, Clone)]
pub struct Rewind {
    board: Board,
    bag: Bag,
    racks: [Vec<Tile>; 2],
    scores: [i32; 2],
    to_move: usize,
    phase: Phase,
    pending: Option<Pending>,
    zero_run: u32,
    clocks: Clocks,
    history_len: usize,
    adjustments_len: usize,
    paused: Option<Pause>,
    resignation_offer: Option<usize>,
}

/// Overtime penalty for a clock showing `remaining_ms`: `per_minute` for each started minute
/// past zero; 0:00 and −0:00 cost nothing, −0:01 costs one minute's worth (NASPA V.G.2,
/// WESPA 5.3.1(a), SANSPA 18.5).
pub fn overtime_penalty(remaining_ms: i64, per_minute: i32) -> i32 {
    if remaining_ms >= 0 {
        return 0;
    }
    let secs = (-remaining_ms) / 1000;
    if secs == 0 {
        return 0;
    }
    let minutes = (secs + 59) / 60;
    minutes as i32 * per_minute
}

/// The clock reading at which the overtime limit ends the game. NASPA V.G.3 ends it once a
/// player *exceeds* the limit: the display shows −10:01. WESPA 5.3.3 and SANSPA 18.5 end it when
/// the limit is *reached* (−10:00, −15:00), and the margin is taken at that moment, with the
/// time penalty of exactly the limit (100, 150).
pub fn overtime_trip_ms(limit: crate::ruleset::OvertimeLimit) -> i64 {
    let at_limit = -(limit.minutes * 60_000);
    match limit.consequence {
        OvertimeConsequence::LossWithDeduction { .. } => at_limit - 1000,
        OvertimeConsequence::Forfeit { .. } => at_limit,
    }
}

impl Game {
    /// A new game: the bag shuffled from `seed`, seat 0 (who plays first) draws, then seat 1.
    pub fn new(ruleset: Ruleset, seed: u64) -> Game {
        let set = TileSet::english();
        let layout = Layout::standard();
        let mut bag = Bag::new(set.all_tiles(), seed);
        let r0 = bag.draw(ruleset.rack_size);
        let r1 = bag.draw(ruleset.rack_size);
        let (remaining, game) = match ruleset.clock {
            ClockRule::PerPlayer { initial_ms } => ([initial_ms; 2], None),
            ClockRule::SharedGame { total_ms, .. } => ([0; 2], Some(total_ms)),
        };
        Game {
            board: Board::new(layout.size),
            ruleset,
            seed,
            set,
            layout,
            bag,
            racks: [r0, r1],
            scores: [0; 2],
            to_move: 0,
            phase: Phase::AwaitingMove,
            pending: None,
            zero_run: 0,
            clocks: Clocks {
                remaining_ms: remaining,
                game_remaining_ms: game,
                running: Some(0),
                last_ms: 0,
                turn_started_ms: 0,
            },
            history: Vec::new(),
            adjustments: Vec::new(),
            paused: None,
            resignation_offer: None,
        }
    }

    /// A game from a chosen position: the two racks and the bag's tiles in the order they will
    /// be drawn. For tests, puzzles and endgames; `new` is the normal start.
    pub fn custom(
        ruleset: Ruleset,
        seed: u64,
        racks: [Vec<Tile>; 2],
        draw_order: Vec<Tile>,
    ) -> Game {
        let mut g = Game::new(ruleset, seed);
        let mut bag = draw_order;
        bag.reverse();
        g.bag = Bag::from_order(bag, seed);
        g.racks = racks;
        g
    }

    pub fn ruleset(&self) -> &Ruleset {
        &self.ruleset
    }
    pub fn seed(&self) -> u64 {
        self.seed
    }
    pub fn tile_set(&self) -> &TileSet {
        &self.set
    }
    pub fn layout(&self) -> &Layout {
        &self.layout
    }
    pub fn board(&self) -> &Board {
        &self.board
    }
    pub fn rack(&self, seat: usize) -> &[Tile] {
        &self.racks[seat]
    }
    pub fn bag_len(&self) -> usize {
        self.bag.len()
    }
    pub fn scores(&self) -> [i32; 2] {
        self.scores
    }
    pub fn to_move(&self) -> usize {
        self.to_move
    }
    pub fn phase(&self) -> &Phase {
        &self.phase
    }
    pub fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Ended { .. })
    }
    pub fn zero_run(&self) -> u32 {
        self.zero_run
    }
    pub fn clocks(&self) -> Clocks {
        self.clocks
    }
    pub fn history(&self) -> &[Turn] {
        &self.history
    }
    pub fn adjustments(&self) -> &[Adjustment] {
        &self.adjustments
    }
    /// The pending play, if one awaits acceptance.
    pub fn pending_play(&self) -> Option<&ScoredPlay> {
        self.pending.as_ref().map(|p| &p.play)
    }

    /// The seat whose resignation awaits the opponent's answer (NASPA I.B), if any.
    pub fn resignation_offer(&self) -> Option<usize> {
        self.resignation_offer
    }

    /// Whether the game is neutralised, since when and at whose call.
    pub fn paused(&self) -> Option<Pause> {
        self.paused
    }

    /// The game time at which time alone will next change the game (a flag past the overtime
    /// limit, the out-play window closing, a turn or the game clock running out), if any. A
    /// shell sleeps until then and applies a `Tick`. None while the game is neutralised.
    pub fn next_deadline_ms(&self) -> Option<i64> {
        if self.is_over() || self.paused.is_some() {
            return None;
        }
        let mut best: Option<i64> = None;
        let mut consider = |t: i64| best = Some(best.map_or(t, |b: i64| b.min(t)));
        if let (
            Phase::PlayPending {
                out: true,
                held: false,
                ..
            },
            Some(p),
        ) = (&self.phase, &self.pending)
        {
            match self.ruleset.out_play_clock {
                OutPlayClock::StoppedThenEnds { window_ms } => {
                    consider(p.since_ms + window_ms as i64)
                }
                OutPlayClock::StoppedThenOpponentRuns { window_ms }
                    if self.clocks.running.is_none() =>
                {
                    consider(p.since_ms + window_ms as i64)
                }
                _ => {}
            }
        }
        if let Some(end) = self.hold_ends_ms() {
            consider(end);
        }
        if let Some(s) = self.clocks.running {
            match self.ruleset.clock {
                ClockRule::PerPlayer { .. } => {
                    if let Some(limit) = self.ruleset.overtime.limit {
                        let trip = overtime_trip_ms(limit);
                        consider(self.clocks.last_ms + (self.clocks.remaining_ms[s] - trip));
                    }
                }
                ClockRule::SharedGame {
                    per_turn_max_ms, ..
                } => {
                    consider(self.clocks.turn_started_ms + per_turn_max_ms);
                    consider(self.clocks.last_ms + self.clocks.game_remaining_ms.unwrap_or(0));
                }
            }
        }
        best
    }

    /// When the current hold runs out, if the ruleset limits holds (SANSPA 13.1).
    pub fn hold_ends_ms(&self) -> Option<i64> {
        let limit = self.ruleset.hold_limit_ms?;
        let held = self.pending.as_ref()?.held_since_ms?;
        matches!(self.phase, Phase::PlayPending { held: true, .. }).then_some(held + limit as i64)
    }

    /// The clocks as they read at game time `at_ms` (for display), without changing the game.
    pub fn clocks_at(&self, at_ms: i64) -> Clocks {
        let mut c = self.clocks;
        if self.paused.is_some() {
            return c;
        }
        let elapsed = (at_ms - c.last_ms).max(0);
        if let Some(s) = c.running {
            match c.game_remaining_ms {
                Some(g) => c.game_remaining_ms = Some((g - elapsed).max(0)),
                None => c.remaining_ms[s] -= elapsed,
            }
        }
        c
    }

    /// The tiles `seat` cannot see: the bag plus the opponent's rack, sorted.
    pub fn unseen_for(&self, seat: usize) -> Vec<Tile> {
        self.bag.sorted_with(&self.racks[1 - seat])
    }

    /// Every tile of the set, counted where it is: on the board, on a rack or in the bag. The
    /// result must equal the set's own census (an invariant the tests check).
    pub fn tile_census(&self) -> Vec<Tile> {
        let mut v = self.bag.contents_sorted();
        v.extend(self.racks[0].iter().copied());
        v.extend(self.racks[1].iter().copied());
        v.extend(self.board.tiles().map(|(_, t)| t.tile()));
        v.sort();
        v
    }

    /// Validate and score a placement for the player to move, without changing anything.
    /// Under a challenge rule a first play off the centre square is accepted (marked
    /// `off_centre`): it may be challenged off (NASPA III.G.1, NSA III.F.1, SANSPA 5.1.2,
    /// WESPA 3.10.16(d)). Under the void rule it is refused.
    pub fn check_play(&self, placement: &Placement) -> Result<ScoredPlay, PlayError> {
        let score = if self.ruleset.challenge == ChallengeRule::Void {
            play::score_placement
        } else {
            play::score_placement_off_centre_allowed
        };
        score(
            &self.board,
            &self.layout,
            &self.set,
            placement,
            self.ruleset.rack_size,
        )
    }

    /// A placement the board's rules refuse, citing the rule of this game's own book.
    pub fn refused_placement(&self, error: PlayError) -> GameError {
        let rule = self.ruleset.citation(error.rule());
        GameError::Play { error, rule }
    }

    /// Apply one event. On error nothing changes.
    pub fn apply(&mut self, ev: &Event, judge: &dyn WordJudge) -> Result<Vec<Effect>, GameError> {
        self.apply_rewindable(ev, judge).map(|(effects, _)| effects)
    }

    /// [`Game::apply`], also returning what [`Game::rewind`] needs to take the event back (for a
    /// caller that must undo an event it could not store). A refused event changes nothing.
    pub fn apply_rewindable(
        &mut self,
        ev: &Event,
        judge: &dyn WordJudge,
    ) -> Result<(Vec<Effect>, Rewind), GameError> {
        if let Actor::Seat(s) = ev.actor {
            if s > 1 {
                return Err(GameError::NoSuchSeat(s));
            }
        }
        if ev.at_ms < self.clocks.last_ms {
            return Err(GameError::TimeWentBackwards {
                at: ev.at_ms,
                last: self.clocks.last_ms,
            });
        }
        if self.is_over() && ev.action != Action::Tick {
            return Err(GameError::GameOver);
        }
        // Work in place, keeping what the event may change, so that a refused action leaves
        // the game exactly as it was.
        let rewind = self.rewind_point();
        let mut effects = Vec::new();
        self.advance_time(ev.at_ms, &mut effects);
        if self.is_over() {
            if ev.action != Action::Tick {
                effects.push(Effect::TooLate);
            }
            return Ok((effects, rewind));
        }
        match self.act(ev, judge, &mut effects) {
            Ok(()) => Ok((effects, rewind)),
            Err(e) => {
                self.rewind(rewind);
                Err(e)
            }
        }
    }

    /// What [`Game::rewind`] needs to put the game back as it is now.
    fn rewind_point(&self) -> Rewind {
        // Named field by field: a field added to `Game` must be placed here or below.
        let Game {
            ruleset: _,
            seed: _,
            set: _,
            layout: _,
            board,
            bag,
            racks,
            scores,
            to_move,
            phase,
            pending,
            zero_run,
            clocks,
            history,
            adjustments,
            paused,
            resignation_offer,
        } = self;
        Rewind {
            board: board.clone(),
            bag: bag.clone(),
            racks: racks.clone(),
            scores: *scores,
            to_move: *to_move,
            phase: phase.clone(),
            pending: pending.clone(),
            zero_run: *zero_run,
            clocks: *clocks,
            history_len: history.len(),
            adjustments_len: adjustments.len(),
            paused: *paused,
            resignation_offer: *resignation_offer,
        }
    }

    /// Take back the event applied since `rewind` was made (by [`Game::apply_rewindable`]): the
    /// game is again exactly as it was before it. The score sheet and the adjustments only grow,
    /// so the lines the event added are dropped.
    pub fn rewind(&mut self, rewind: Rewind) {
        let Rewind {
            board,
            bag,
            racks,
            scores,
            to_move,
            phase,
            pending,
            zero_run,
            clocks,
            history_len,
            adjustments_len,
            paused,
            resignation_offer,
        } = rewind;
        self.board = board;
        self.bag = bag;
        self.racks = racks;
        self.scores = scores;
        self.to_move = to_move;
        self.phase = phase;
        self.pending = pending;
        self.zero_run = zero_run;
        self.clocks = clocks;
        self.history.truncate(history_len);
        self.adjustments.truncate(adjustments_len);
        self.paused = paused;
        self.resignation_offer = resignation_offer;
    }

    /// Apply one action to a game whose clocks are up to date: who may do what, then one
    /// function per action.
    fn act(
        &mut self,
        ev: &Event,
        judge: &dyn WordJudge,
        fx: &mut Vec<Effect>,
    ) -> Result<(), GameError> {
        let at = ev.at_ms;
        // NASPA II.A: while the clock is stopped nobody plays; only the director acts.
        if self.paused.is_some()
            && !matches!(
                ev.action,
                Action::Tick | Action::Resume | Action::DirectorEnd | Action::Pause
            )
        {
            return Err(GameError::Paused {
                rule: self.ruleset.citation(Rule::ClockNeutralised),
            });
        }
        match (&ev.action, ev.actor) {
            (Action::Tick, _) => Ok(()),
            (Action::Pause, Actor::Director | Actor::Seat(_)) => self.pause(ev.actor, at, fx),
            (Action::Resume, Actor::Director) => self.resume(at, fx),
            (Action::Resume, Actor::Seat(_)) => Err(GameError::NotAllowed(
                "restarting the clock",
                "only the director may restart a neutralised game",
            )),
            (Action::DirectorEnd, Actor::Director) => {
                self.end_by_director(fx);
                Ok(())
            }
            (Action::DirectorEnd, Actor::Seat(_)) => Err(GameError::NotAllowed(
                "ending the game",
                "only the director may stop a game",
            )),
            (_, Actor::Director) | (_, Actor::Clock) => Err(GameError::NotAllowed(
                "this action",
                "only a seat may make it",
            )),
            (Action::Resign, Actor::Seat(s)) if self.ruleset.resignation.opponent_may_honour => {
                self.offer_resignation(s, fx)
            }
            (Action::HonourResignation, Actor::Seat(o)) => self.answer_resignation(o, true, fx),
            (Action::PlayOn, Actor::Seat(o)) => self.answer_resignation(o, false, fx),
            (Action::Resign, Actor::Seat(s)) => {
                self.resign_or_leave(s, true, fx);
                Ok(())
            }
            (Action::Leave, Actor::Seat(s)) => {
                self.resign_or_leave(s, false, fx);
                Ok(())
            }
            (Action::EndAfterSixZeros, Actor::Seat(_)) => self.end_after_six_zeros(fx),
            (Action::Hold, Actor::Seat(s)) => self.hold(s, at, fx),
            (Action::Accept, Actor::Seat(s)) => self.accept(s, fx),
            (Action::Challenge { words }, Actor::Seat(s)) => {
                self.challenge(s, words, at, judge, fx)
            }
            (Action::Play { placement }, Actor::Seat(s)) => {
                self.prepare_move(s, fx)?;
                self.play(s, placement, at, judge, fx)
            }
            (Action::Exchange { tiles }, Actor::Seat(s)) => self.exchange(s, tiles, at, fx),
            (Action::Pass, Actor::Seat(s)) => self.pass(s, at, fx),
        }
    }

    /// The director, or a seat calling the director, neutralises the game: no time is charged
    /// until the director resumes it (NASPA II.A, WESPA 4.1).
    fn pause(&mut self, actor: Actor, at: i64, fx: &mut Vec<Effect>) -> Result<(), GameError> {
        if self.paused.is_some() {
            return Err(GameError::Paused {
                rule: self.ruleset.citation(Rule::ClockNeutralised),
            });
        }
        let called_by = match actor {
            Actor::Seat(s) => Some(s),
            _ => None,
        };
        self.paused = Some(Pause {
            since_ms: at,
            called_by,
        });
        fx.push(Effect::Paused { called_by });
        Ok(())
    }

    /// The director restarts a neutralised game.
    fn resume(&mut self, at: i64, fx: &mut Vec<Effect>) -> Result<(), GameError> {
        let Some(p) = self.paused.take() else {
            return Err(GameError::NotAllowed(
                "resuming",
                "the game is not neutralised",
            ));
        };
        // The stopped time belongs to nobody: a turn's cap and the out-play window
        // resume where they stopped.
        let stopped = at - p.since_ms;
        self.clocks.turn_started_ms += stopped;
        if let Some(pending) = &mut self.pending {
            pending.since_ms += stopped;
            if let Some(h) = &mut pending.held_since_ms {
                *h += stopped;
            }
        }
        fx.push(Effect::Resumed);
        Ok(())
    }

    /// The director ends the game where it stands; a pending play stands, and under NASPA V.F
    /// each player loses their own rack.
    fn end_by_director(&mut self, fx: &mut Vec<Effect>) {
        self.paused = None;
        self.accept_pending(fx);
        let deduct = self.ruleset.director_shortened.deduct_own_rack;
        if deduct {
            for s in 0..2 {
                let why = format!(
                    "director-shortened game ({})",
                    self.ruleset.citation(Rule::DirectorEndsTheGame)
                );
                self.own_rack_line(s, &why);
            }
        }
        self.finish(EndReason::DirectorEnded, true, fx);
    }

    /// Where the ruleset lets the opponent honour a resignation, resigning is a request.
    fn offer_resignation(&mut self, s: usize, fx: &mut Vec<Effect>) -> Result<(), GameError> {
        // NASPA I.B, NSA I.B: a request, made on one's own time; the opponent decides.
        if s != self.to_move {
            return Err(GameError::ResignOffTurn {
                rule: self.ruleset.citation(Rule::Resigning),
            });
        }
        if self.resignation_offer.is_some() {
            return Err(GameError::NotAllowed(
                "resigning",
                "the resignation already awaits the opponent's answer",
            ));
        }
        self.resignation_offer = Some(s);
        fx.push(Effect::ResignationOffered { seat: s });
        Ok(())
    }

    /// The opponent `o` honours the resignation asked for (the game ends) or plays on.
    fn answer_resignation(
        &mut self,
        o: usize,
        honour: bool,
        fx: &mut Vec<Effect>,
    ) -> Result<(), GameError> {
        let Some(s) = self.resignation_offer.filter(|&s| s != o) else {
            return Err(GameError::NotAllowed(
                "answering a resignation",
                "the opponent has not asked to resign",
            ));
        };
        self.resignation_offer = None;
        if !honour {
            fx.push(Effect::ResignationDeclined { seat: o });
            return Ok(());
        }
        // Honoured at the current score, less any time penalties (NASPA I.B); a
        // pending play of either side stands as made. No rack adjustment.
        self.accept_pending(fx);
        if !self.is_over() {
            self.finish(EndReason::Resigned { seat: s }, true, fx);
        }
        Ok(())
    }

    /// A resignation scored as leaving, or leaving the game.
    fn resign_or_leave(&mut self, s: usize, resigned: bool, fx: &mut Vec<Effect>) {
        // A pending play (of either side) stands as made.
        self.accept_pending(fx);
        if !self.is_over() {
            self.leave(s, resigned, fx);
        }
    }

    /// Where the ruleset lets a player end the game after the run of scoreless turns, a
    /// player claims it.
    fn end_after_six_zeros(&mut self, fx: &mut Vec<Effect>) -> Result<(), GameError> {
        let need = self.ruleset.six_zero.turns;
        if self.ruleset.six_zero.ending != SixZeroEnding::EitherPlayerMayEnd {
            return Err(GameError::NotAllowed(
                "ending after six zeros",
                "this ruleset ends the game automatically",
            ));
        }
        if self.zero_run < need || self.pending.is_some() {
            return Err(GameError::SixZeroNotReached {
                turns: need,
                rule: self.ruleset.citation(Rule::ScorelessTurns),
            });
        }
        self.end_six_zero(fx);
        Ok(())
    }

    /// The opponent of a pending play holds it while deciding whether to challenge.
    fn hold(&mut self, s: usize, at: i64, fx: &mut Vec<Effect>) -> Result<(), GameError> {
        let Phase::PlayPending { player, held, out } = self.phase.clone() else {
            return Err(GameError::NotAllowed("hold", "there is no play to hold"));
        };
        if s == player {
            return Err(GameError::OutOfTurn(s));
        }
        if held {
            return Err(GameError::NotAllowed("hold", "the play is already held"));
        }
        self.phase = Phase::PlayPending {
            player,
            held: true,
            out,
        };
        if let Some(p) = &mut self.pending {
            p.held_since_ms = Some(at);
        }
        // A hold runs the holder's clock (NASPA IV.I.2, V.E).
        self.set_running(Some(s));
        fx.push(Effect::Held { seat: s });
        Ok(())
    }

    /// The opponent of a pending play accepts it.
    fn accept(&mut self, s: usize, fx: &mut Vec<Effect>) -> Result<(), GameError> {
        let Phase::PlayPending { player, .. } = self.phase else {
            return Err(GameError::NotAllowed(
                "accept",
                "there is no play to accept",
            ));
        };
        if s == player {
            return Err(GameError::OutOfTurn(s));
        }
        self.accept_pending(fx);
        Ok(())
    }

    /// An exchange: only with enough tiles in the bag (NASPA IV.E.2.a, WESPA 3.2.1); the new
    /// tiles are drawn before the old go back. A scoreless turn.
    fn exchange(
        &mut self,
        s: usize,
        tiles: &[Tile],
        at: i64,
        fx: &mut Vec<Effect>,
    ) -> Result<(), GameError> {
        if tiles.is_empty() {
            // Literacy 2018 "Play" lets a player exchange none of the letters: that turn is a
            // pass, which is how it is made here.
            let hint = if self.ruleset.book() == "Literacy" {
                "; to exchange none of the letters (Literacy play), pass: it is the same turn"
            } else {
                ""
            };
            return Err(GameError::EmptyExchange { hint });
        }
        self.prepare_move(s, fx)?;
        let need = self.ruleset.exchange_min_bag;
        if self.bag.len() < need {
            return Err(GameError::ExchangeBagTooSmall {
                need,
                have: self.bag.len(),
                rule: self.ruleset.citation(Rule::ExchangeNeedsTilesInTheBag),
            });
        }
        let rack_before = self.racks[s].clone();
        self.take_from_rack(s, tiles)?;
        let drawn = self.bag.draw(tiles.len());
        self.racks[s].extend(drawn);
        self.bag.put_back(tiles);
        self.push_turn(
            s,
            rack_before,
            TurnKind::Exchange {
                tiles: tiles.to_vec(),
            },
            0,
        );
        fx.push(Effect::Exchanged {
            seat: s,
            count: tiles.len(),
        });
        self.zero_turn(fx);
        self.next_turn(at);
        Ok(())
    }

    /// A pass is always allowed on one's turn. A scoreless turn.
    fn pass(&mut self, s: usize, at: i64, fx: &mut Vec<Effect>) -> Result<(), GameError> {
        self.prepare_move(s, fx)?;
        let rack = self.racks[s].clone();
        self.push_turn(s, rack, TurnKind::Pass, 0);
        fx.push(Effect::Passed { seat: s });
        self.zero_turn(fx);
        self.next_turn(at);
        Ok(())
    }

    /// Before a seat moves: it must be its turn; a pending play of the opponent is accepted by
    /// moving (NASPA IV.I.1, WESPA 3.10.1). An out play cannot be answered by a move.
    fn prepare_move(&mut self, s: usize, fx: &mut Vec<Effect>) -> Result<(), GameError> {
        if s != self.to_move {
            return Err(GameError::OutOfTurn(s));
        }
        // Playing on withdraws one's own request to resign.
        if self.resignation_offer == Some(s) {
            self.resignation_offer = None;
        }
        if let Phase::PlayPending { out: true, .. } = self.phase {
            return Err(GameError::NotAllowed(
                "a move",
                "the opponent has gone out: accept or challenge",
            ));
        }
        self.accept_pending(fx);
        Ok(())
    }

    fn take_from_rack(&mut self, s: usize, tiles: &[Tile]) -> Result<(), GameError> {
        let mut rack = self.racks[s].clone();
        for t in tiles {
            match rack.iter().position(|r| r == t) {
                Some(i) => {
                    rack.remove(i);
                }
                None => return Err(GameError::TilesNotOnRack(self.set.tiles_to_string(tiles))),
            }
        }
        self.racks[s] = rack;
        Ok(())
    }

    fn play(
        &mut self,
        s: usize,
        placement: &Placement,
        at: i64,
        judge: &dyn WordJudge,
        fx: &mut Vec<Effect>,
    ) -> Result<(), GameError> {
        let sp = self
            .check_play(placement)
            .map_err(|e| self.refused_placement(e))?;
        if self.ruleset.challenge == ChallengeRule::Void
            && !sp.words.iter().all(|w| judge.is_valid(&w.word))
        {
            return Err(GameError::VoidRefused);
        }
        let rack_before = self.racks[s].clone();
        self.take_from_rack(s, &sp.tiles_used())?;
        let word = sp.gcg_word(&self.board, &self.layout, &self.set);
        play::place(&mut self.board, &sp);
        let drawn = self.bag.draw(sp.placement.tiles.len());
        self.racks[s].extend(drawn.iter().copied());
        self.scores[s] += sp.score;
        let out = self.racks[s].is_empty() && self.bag.is_empty();
        let line = self.history.len();
        self.push_turn(
            s,
            rack_before.clone(),
            TurnKind::Play {
                position: sp.position.to_string(),
                word,
                words: sp.words.iter().map(|w| w.word.clone()).collect(),
            },
            sp.score,
        );
        fx.push(Effect::Played {
            seat: s,
            score: sp.score,
            out,
        });
        let zero_run_before = self.zero_run;
        self.zero_run = 0;
        self.pending = Some(Pending {
            play: sp,
            drawn,
            rack_before,
            line,
            since_ms: at,
            zero_run_before,
            held_since_ms: None,
        });
        if self.ruleset.challenge == ChallengeRule::Void {
            // Void: the play was checked as it was made; nothing to challenge.
            self.pending = None;
            fx.push(Effect::PlayFinal { seat: s });
            if out {
                self.go_out(s, fx);
            } else {
                self.next_turn(at);
            }
            return Ok(());
        }
        self.phase = Phase::PlayPending {
            player: s,
            held: false,
            out,
        };
        self.to_move = 1 - s;
        self.clocks.turn_started_ms = at;
        let running = if out {
            match self.ruleset.out_play_clock {
                OutPlayClock::OpponentRuns => Some(1 - s),
                _ => None,
            }
        } else {
            Some(1 - s)
        };
        self.set_running(running);
        Ok(())
    }

    fn challenge(
        &mut self,
        s: usize,
        named: &[String],
        at: i64,
        judge: &dyn WordJudge,
        fx: &mut Vec<Effect>,
    ) -> Result<(), GameError> {
        let Phase::PlayPending { player, out, .. } = self.phase else {
            return Err(GameError::NotAllowed(
                "challenge",
                "there is no play to challenge",
            ));
        };
        if s == player {
            return Err(GameError::OutOfTurn(s));
        }
        let pending = self.pending.clone().expect("pending play in PlayPending");
        let formed: Vec<String> = pending.play.words.iter().map(|w| w.word.clone()).collect();
        let mut words: Vec<String> = Vec::new();
        for w in named {
            let up = w.trim().to_uppercase();
            if !formed.contains(&up) {
                return Err(GameError::NotFormed(w.clone()));
            }
            if !words.contains(&up) {
                words.push(up);
            }
        }
        if words.is_empty() {
            for w in formed {
                if !words.contains(&w) {
                    words.push(w);
                }
            }
        }
        // One verdict for the whole play, never naming the failing word (NASPA IV.J.1,
        // WESPA 3.10.7, SANSPA 13.3).
        // A first play off the centre square comes off when challenged, whatever its words
        // (NASPA III.G.1, NSA III.F.1, SANSPA 5.1.2, WESPA 3.10.16(a)(i)).
        let acceptable = !pending.play.off_centre && words.iter().all(|w| judge.is_valid(w));
        fx.push(Effect::Verdict { acceptable });
        if !acceptable {
            // The phony is withdrawn: tiles back to the rack, the drawn tiles back to the bag,
            // the bag reshuffled, the turn scores zero (NASPA IV.J.1.k, WESPA 3.10.15(a)).
            play::unplace(&mut self.board, &pending.play);
            self.bag.put_back(&pending.drawn);
            self.racks[player] = pending.rack_before.clone();
            self.scores[player] -= pending.play.score;
            self.pending = None;
            let rack = pending.rack_before.clone();
            self.push_turn(player, rack, TurnKind::Withdrawal, -pending.play.score);
            fx.push(Effect::Withdrawn { seat: player });
            self.zero_run = pending.zero_run_before;
            self.phase = Phase::AwaitingMove;
            self.to_move = s;
            self.zero_turn(fx);
            if !self.is_over() {
                self.clocks.turn_started_ms = at;
                self.set_running(Some(s));
            }
            return Ok(());
        }
        // The play stands.
        self.pending = None;
        let penalised = !out || self.ruleset.out_play_challenge_penalised;
        let mut lost_turn = false;
        if penalised {
            let bonus = match self.ruleset.challenge {
                ChallengeRule::PointsPerWord { points } => points * words.len() as i32,
                ChallengeRule::PointsPerTurn { points } => points,
                ChallengeRule::Double => {
                    lost_turn = true;
                    0
                }
                ChallengeRule::Single | ChallengeRule::Void => 0,
            };
            if bonus != 0 {
                self.scores[player] += bonus;
                let rack = self.racks[player].clone();
                self.push_turn(player, rack, TurnKind::ChallengeBonus, bonus);
                fx.push(Effect::ChallengeBonus {
                    seat: player,
                    points: bonus,
                });
            }
        }
        fx.push(Effect::PlayFinal { seat: player });
        if out {
            self.go_out(player, fx);
            return Ok(());
        }
        self.phase = Phase::AwaitingMove;
        self.to_move = s;
        if lost_turn {
            // Double challenge: the challenger loses the turn, a scoreless one (NASPA IV.I.3).
            let rack = self.racks[s].clone();
            self.push_turn(s, rack, TurnKind::LostChallenge, 0);
            fx.push(Effect::TurnLost { seat: s });
            self.zero_turn(fx);
            if self.is_over() {
                return Ok(());
            }
            self.to_move = player;
        }
        self.clocks.turn_started_ms = at;
        let m = self.to_move;
        self.set_running(Some(m));
        Ok(())
    }

    /// Make the pending play final, if there is one.
    fn accept_pending(&mut self, fx: &mut Vec<Effect>) {
        if self.pending.take().is_none() {
            return;
        }
        let Phase::PlayPending { player, out, .. } = self.phase else {
            return;
        };
        fx.push(Effect::PlayFinal { seat: player });
        self.phase = Phase::AwaitingMove;
        if out {
            self.go_out(player, fx);
        }
    }

    fn zero_turn(&mut self, fx: &mut Vec<Effect>) {
        self.zero_run += 1;
        let rule = self.ruleset.six_zero;
        if self.zero_run >= rule.turns && rule.ending == SixZeroEnding::Automatic {
            self.end_six_zero(fx);
        } else if self.ruleset.all_pass_twice_ends && self.last_four_are_passes() {
            // The standard rules' "everyone passed twice" ending (not in any preset: WESPA
            // 1.1(b)(ii)).
            self.end_six_zero(fx);
        }
    }

    fn last_four_are_passes(&self) -> bool {
        let passes: Vec<&Turn> = self
            .history
            .iter()
            .rev()
            .filter(|t| !matches!(t.kind, TurnKind::ChallengeBonus | TurnKind::TimePenalty))
            .take(4)
            .collect();
        passes.len() == 4 && passes.iter().all(|t| t.kind == TurnKind::Pass)
    }

    /// Six scoreless turns: each player loses the value of their own rack (NASPA V.B, NSA
    /// V.C, WESPA 5.2, SANSPA 18.1).
    fn end_six_zero(&mut self, fx: &mut Vec<Effect>) {
        let why = format!(
            "{} successive scoreless turns ({})",
            self.ruleset.six_zero.turns,
            self.ruleset.citation(Rule::ScorelessTurns)
        );
        for s in 0..2 {
            self.own_rack_line(s, &why);
        }
        self.finish(EndReason::SixZeros, true, fx);
    }

    fn own_rack_line(&mut self, s: usize, why: &str) {
        let v = self.set.tiles_value(&self.racks[s]);
        if v == 0 && self.racks[s].is_empty() {
            return;
        }
        self.scores[s] -= v;
        let rack = self.racks[s].clone();
        self.push_turn(s, rack.clone(), TurnKind::EndRack { tiles: rack }, -v);
        self.adjustments.push(Adjustment {
            seat: s,
            points: -v,
            why: why.to_string(),
        });
    }

    /// `s` went out: the end-of-game rack adjustment of the ruleset.
    fn go_out(&mut self, s: usize, fx: &mut Vec<Effect>) {
        let o = 1 - s;
        let v = self.set.tiles_value(&self.racks[o]);
        let tiles = self.racks[o].clone();
        match self.ruleset.end_rack {
            EndRackRule::DoubleToPlayerOut => {
                self.scores[s] += 2 * v;
                self.push_turn(s, Vec::new(), TurnKind::EndRack { tiles }, 2 * v);
                self.adjustments.push(Adjustment {
                    seat: s,
                    points: 2 * v,
                    why: format!(
                        "twice the opponent's unplayed tiles ({})",
                        self.ruleset.end_rack_citation()
                    ),
                });
            }
            EndRackRule::AddAndSubtract => {
                self.scores[s] += v;
                self.push_turn(
                    s,
                    Vec::new(),
                    TurnKind::EndRack {
                        tiles: tiles.clone(),
                    },
                    v,
                );
                self.scores[o] -= v;
                self.push_turn(o, tiles.clone(), TurnKind::EndRack { tiles }, -v);
                self.adjustments.push(Adjustment {
                    seat: s,
                    points: v,
                    why: format!(
                        "the opponent's unplayed tiles ({})",
                        self.ruleset.end_rack_citation()
                    ),
                });
                self.adjustments.push(Adjustment {
                    seat: o,
                    points: -v,
                    why: format!("own unplayed tiles ({})", self.ruleset.end_rack_citation()),
                });
            }
        }
        self.finish(EndReason::WentOut { seat: s }, true, fx);
    }

    /// `s` resigned (a forfeit under this ruleset) or left the game: they lose by the margin,
    /// or by their deficit plus the margin (NASPA V.K.2, NSA V.J.2, WESPA 5.7(c), SANSPA 19.3).
    fn leave(&mut self, s: usize, resigned: bool, fx: &mut Vec<Effect>) {
        let m = self.ruleset.resignation.margin;
        let rule = self.ruleset.citation(Rule::LeavingTheGame);
        let what = if resigned {
            "resigned"
        } else {
            "left the game"
        };
        let o = 1 - s;
        use std::cmp::Ordering;
        match self.scores[s].cmp(&self.scores[o]) {
            Ordering::Greater | Ordering::Equal => {
                let raise = self.scores[s] + m - self.scores[o];
                let when = if self.scores[s] == self.scores[o] {
                    "at a level score"
                } else {
                    "while ahead"
                };
                self.adjust(
                    o,
                    raise,
                    &format!("the opponent {what} {when}: raised to a {m}-point win ({rule})"),
                );
            }
            Ordering::Less => {
                self.adjust(
                    s,
                    -m,
                    &format!("{what} while behind: {m} points off ({rule})"),
                );
            }
        }
        let reason = if resigned {
            EndReason::Resigned { seat: s }
        } else {
            EndReason::Left { seat: s }
        };
        self.finish(reason, false, fx);
    }

    fn adjust(&mut self, s: usize, points: i32, why: &str) {
        self.scores[s] += points;
        let rack = self.racks[s].clone();
        self.push_turn(s, rack, TurnKind::Adjustment { why: why.into() }, points);
        self.adjustments.push(Adjustment {
            seat: s,
            points,
            why: why.into(),
        });
    }

    /// End the game: stop the clock, apply overtime penalties if asked, record the reason.
    fn finish(&mut self, reason: EndReason, time_penalties: bool, fx: &mut Vec<Effect>) {
        self.set_running(None);
        self.pending = None;
        self.resignation_offer = None;
        if time_penalties {
            self.apply_time_penalties();
        }
        self.phase = Phase::Ended { reason };
        fx.push(Effect::Ended { reason });
    }

    fn apply_time_penalties(&mut self) {
        if self.clocks.game_remaining_ms.is_some() {
            return;
        }
        let per = self.ruleset.overtime.penalty_per_minute;
        for s in 0..2 {
            let p = overtime_penalty(self.clocks.remaining_ms[s], per);
            if p > 0 {
                self.scores[s] -= p;
                let rack = self.racks[s].clone();
                self.push_turn(s, rack, TurnKind::TimePenalty, -p);
                self.adjustments.push(Adjustment {
                    seat: s,
                    points: -p,
                    why: format!(
                        "overtime: {per} points per started minute ({})",
                        self.ruleset.citation(Rule::OvertimePenalty)
                    ),
                });
            }
        }
    }

    fn push_turn(&mut self, seat: usize, rack: Vec<Tile>, kind: TurnKind, score: i32) {
        self.history.push(Turn {
            seat,
            rack,
            kind,
            score,
            cumulative: self.scores[seat],
        });
    }

    fn next_turn(&mut self, at: i64) {
        if self.is_over() {
            return;
        }
        self.phase = Phase::AwaitingMove;
        self.to_move = 1 - self.to_move;
        self.clocks.turn_started_ms = at;
        let m = self.to_move;
        self.set_running(Some(m));
    }

    fn set_running(&mut self, seat: Option<usize>) {
        self.clocks.running = seat;
    }

    /// Let time pass up to `at`, charging the running clock and ending the game if time says so.
    fn advance_time(&mut self, at: i64, fx: &mut Vec<Effect>) {
        if self.is_over() || self.paused.is_some() {
            self.advance_clocks(at, fx);
            return;
        }
        // SANSPA 13.1: a hold lasts about 20 seconds; then the holder must decide, and one who
        // has not challenged by then has accepted the play. Time up to that moment is charged
        // first (the hold runs the holder's clock), then the rest as usual.
        if let Some(end) = self.hold_ends_ms() {
            if at >= end {
                self.advance_clocks(end, fx);
                if self.is_over() || self.paused.is_some() {
                    return;
                }
                fx.push(Effect::HoldExpired { seat: self.to_move });
                self.accept_pending(fx);
                if self.is_over() {
                    return;
                }
                return self.advance_time(at, fx);
            }
        }
        self.advance_clocks(at, fx);
    }

    fn advance_clocks(&mut self, at: i64, fx: &mut Vec<Effect>) {
        if self.is_over() || self.paused.is_some() {
            // A neutralised game's clocks do not run (NASPA II.A, WESPA 1.4.3).
            self.clocks.last_ms = at.max(self.clocks.last_ms);
            return;
        }
        // The out-play window (NASPA V.E, WESPA 5.1.3).
        if let Phase::PlayPending {
            out: true,
            held: false,
            ..
        } = self.phase
        {
            if let Some(p) = &self.pending {
                let since = p.since_ms;
                match self.ruleset.out_play_clock {
                    OutPlayClock::StoppedThenEnds { window_ms }
                        if at >= since + window_ms as i64 =>
                    {
                        self.clocks.last_ms = since + window_ms as i64;
                        self.accept_pending(fx);
                        return;
                    }
                    OutPlayClock::StoppedThenOpponentRuns { window_ms }
                        if self.clocks.running.is_none() && at >= since + window_ms as i64 =>
                    {
                        self.clocks.last_ms = since + window_ms as i64;
                        let o = self.to_move;
                        self.set_running(Some(o));
                    }
                    _ => {}
                }
            }
        }
        let elapsed = at - self.clocks.last_ms;
        match self.ruleset.clock {
            ClockRule::SharedGame {
                per_turn_max_ms, ..
            } => {
                let game_left = self.clocks.game_remaining_ms.unwrap_or(0);
                let running = self.clocks.running.is_some();
                let turn_end = self.clocks.turn_started_ms + per_turn_max_ms;
                if running && turn_end <= at && turn_end - self.clocks.last_ms < game_left {
                    // Literacy 2018: at most two minutes a turn; the turn is lost as a pass.
                    let used = turn_end - self.clocks.last_ms;
                    self.clocks.game_remaining_ms = Some(game_left - used);
                    self.clocks.last_ms = turn_end;
                    self.time_out_turn(turn_end, fx);
                    return self.advance_time(at, fx);
                }
                if running {
                    if elapsed >= game_left {
                        self.clocks.game_remaining_ms = Some(0);
                        self.clocks.last_ms += game_left;
                        self.game_clock_expired(fx);
                        return;
                    }
                    self.clocks.game_remaining_ms = Some(game_left - elapsed);
                }
                self.clocks.last_ms = at;
            }
            ClockRule::PerPlayer { .. } => {
                if let Some(s) = self.clocks.running {
                    let before = self.clocks.remaining_ms[s];
                    let after = before - elapsed;
                    if let Some(limit) = self.ruleset.overtime.limit {
                        let trip = overtime_trip_ms(limit);
                        if after <= trip {
                            self.clocks.remaining_ms[s] = trip;
                            self.clocks.last_ms += before - trip;
                            self.overtime_limit(s, limit.consequence, fx);
                            return;
                        }
                    }
                    self.clocks.remaining_ms[s] = after;
                }
                self.clocks.last_ms = at;
            }
        }
    }

    fn time_out_turn(&mut self, at: i64, fx: &mut Vec<Effect>) {
        self.accept_pending(fx);
        if self.is_over() {
            return;
        }
        let s = self.to_move;
        let rack = self.racks[s].clone();
        self.push_turn(s, rack, TurnKind::TimedOut, 0);
        fx.push(Effect::TurnTimedOut { seat: s });
        self.zero_turn(fx);
        if !self.is_over() {
            self.next_turn(at);
        }
    }

    /// Literacy 2018: the game ends when time runs out; each side loses its own rack, and a side
    /// with no tiles gains the other's (Literacy 2018 "Play" and scoring 9).
    fn game_clock_expired(&mut self, fx: &mut Vec<Effect>) {
        self.accept_pending(fx);
        if self.is_over() {
            return;
        }
        for s in 0..2 {
            if self.racks[s].is_empty() {
                let v = self.set.tiles_value(&self.racks[1 - s]);
                let tiles = self.racks[1 - s].clone();
                self.scores[s] += v;
                self.push_turn(s, Vec::new(), TurnKind::EndRack { tiles }, v);
            }
        }
        for s in 0..2 {
            self.own_rack_line(s, "unplayed tiles when time ran out (Literacy 2018)");
        }
        self.finish(EndReason::GameClockExpired, false, fx);
    }

    fn overtime_limit(&mut self, s: usize, c: OvertimeConsequence, fx: &mut Vec<Effect>) {
        let o = 1 - s;
        // A pending play of either side stands as made.
        self.pending = None;
        let per = self.ruleset.overtime.penalty_per_minute;
        match c {
            OvertimeConsequence::LossWithDeduction { deduction } => {
                // NASPA V.G.3: the offender loses 100 (instead of the overtime penalty); the
                // opponent pays any usual overtime penalty; racks are ignored; the opponent is
                // raised to a 1-point win if needed.
                let op = overtime_penalty(self.clocks.remaining_ms[o], per);
                let penalty_rule = self.ruleset.citation(Rule::OvertimePenalty);
                let limit_rule = self.ruleset.citation(Rule::OvertimeLimit);
                let minutes = self.ruleset.overtime.limit.map_or(10, |l| l.minutes);
                if op > 0 {
                    self.adjust(o, -op, &format!("overtime penalty ({penalty_rule})"));
                }
                self.adjust(
                    s,
                    -deduction,
                    &format!("more than {minutes} minutes of overtime ({limit_rule})"),
                );
                if self.scores[s] >= self.scores[o] {
                    let raise = self.scores[s] + 1 - self.scores[o];
                    self.adjust(o, raise, &format!("raised to a 1-point win ({limit_rule})"));
                }
            }
            OvertimeConsequence::Forfeit { min_margin } => {
                // WESPA 5.3.3, SANSPA 18.5: forfeit by the margin then (after time penalties)
                // or the minimum, whichever is greater.
                for seat in 0..2 {
                    let p = overtime_penalty(self.clocks.remaining_ms[seat], per);
                    if p > 0 {
                        let why = format!(
                            "overtime penalty ({})",
                            self.ruleset.citation(Rule::OvertimePenalty)
                        );
                        self.adjust(seat, -p, &why);
                    }
                }
                let margin = self.scores[o] - self.scores[s];
                if margin < min_margin {
                    let cut = self.scores[o] - min_margin - self.scores[s];
                    let rule = self.ruleset.citation(Rule::OvertimeLimit);
                    self.adjust(
                        s,
                        cut,
                        &format!("forfeit at the overtime limit by at least {min_margin} ({rule})"),
                    );
                }
            }
        }
        self.finish(EndReason::OvertimeLimit { seat: s }, false, fx);
    }
}

#[cfg(test)]
#[path = "game_tests.rs"]
mod tests;
