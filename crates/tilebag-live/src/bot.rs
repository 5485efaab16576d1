//! The computer opponent: a seat actor beside the game's task.
//!
//! A game against the computer has a [`BotSeat`] (stored with the game, so the computer plays on
//! after a restart). Its actor is a task of its own that joins the game exactly as a player's
//! WebSocket does: it subscribes to the game as `Audience::Seat(seat)` and receives the same
//! serialised [`crate::view::SeatView`] text a browser gets, and it sends its moves as
//! [`ClientMessage`]s through the game's command channel, which applies, commits and broadcasts
//! them like anybody's. It never holds the `Game`: its [`Situation`] is read from the seat's view
//! ([`situation_from_view`]): its own rack, the unseen tiles as a sorted multiset, the board, the
//! scores, the bag's size. The view has no field for the opponent's rack or the bag's order, so
//! the computer cannot learn them.
//!
//! Moves are computed on a blocking thread (`spawn_blocking`). The simulating level thinks for
//! `min(time left / (moves left × 2), 3 s)`; with little time the static level plays instead, so
//! the computer never loses on time. When the opponent's play is pending the computer first
//! holds it, as a tournament player does while checking it (NASPA IV.I.2, WESPA 3.10.5(a)),
//! where the rules give a hold a meaning and it costs nothing ([`holds_before_verdict`]); then it
//! challenges only a phony (it knows the lexicon: `should_challenge`), and otherwise accepts (by
//! moving, or by `accept` after an out play). If its move is refused (never expected) it passes
//! and says why in the server log.
//!
//! [`Engines`] holds each lexicon's generator form (`WordSource::generator_lexicon`), its GADDAG
//! built once on a blocking thread and kept; the analysis of ended games uses it too.

use crate::game_handle::{Command, GameHandle};
use crate::protocol::ClientMessage;
use crate::view::{Audience, SheetFeed};
use serde::Deserialize;
use serde_json::Value;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;
use tilebag_core::bag::Rng;
use tilebag_core::ruleset::{ChallengeRule, OutPlayClock};
use tilebag_core::Ruleset;
use tilebag_engine::{
    Engine, LeaveTable, Level, Move, MoveKind, Rack, SimConfig, Situation, Tables,
};
use tilebag_lexicon::{Lexicon, WordSource};
use tilebag_store::BotSeat;
use tokio::sync::{mpsc, watch};

/// The longest the simulating level thinks about one move.
const MAX_THINK: Duration = Duration::from_secs(3);
/// Below this budget the simulating level plays the static move instead.
const MIN_SIM: Duration = Duration::from_millis(150);

/// A level as the API names it: `beginner`, `static` (or `strong`), `sim` (or `simulating`).
pub fn parse_level(s: &str) -> Result<Level, String> {
    Level::parse(s.trim()).ok_or_else(|| {
        format!(
            "unknown level {s:?}: the computer plays at beginner, static (strong) or simulating"
        )
    })
}

/// The name the computer's seat gets.
pub fn bot_name(level: Level) -> String {
    match level {
        Level::Beginner => "Computer (beginner)",
        Level::Static => "Computer (strong)",
        Level::Simulating => "Computer (simulating)",
    }
    .to_string()
}

/// A lexicon in the form the generator needs, with the leave values the computer plays it with.
pub struct GenLexicon {
    words: GenWords,
    /// The lexicon's own leave table (`tilebag serve --leaves NAME=FILE`), or `None` for the
    /// built-in values.
    leaves: Option<Arc<LeaveTable>>,
}

enum GenWords {
    /// A single lexicon: the word source's own.
    Source(Arc<WordSource>),
    /// A layered source compiled with its windows.
    Owned(Box<Lexicon>),
}

impl GenLexicon {
    /// A word source's own lexicon, with the built-in leave values.
    pub fn of(source: Arc<WordSource>) -> GenLexicon {
        GenLexicon {
            words: GenWords::Source(source),
            leaves: None,
        }
    }

    pub fn lexicon(&self) -> &Lexicon {
        static EMPTY: OnceLock<Lexicon> = OnceLock::new();
        match &self.words {
            GenWords::Source(s) => s
                .lexicon()
                .unwrap_or_else(|| EMPTY.get_or_init(|| Lexicon::empty("empty"))),
            GenWords::Owned(l) => l,
        }
    }

    /// An engine over this lexicon and its leave values.
    pub fn engine<'a>(&'a self, tables: &'a Tables, exchange_min_bag: usize) -> Engine<'a> {
        match &self.leaves {
            Some(table) => Engine::new(self.lexicon(), tables, &**table, exchange_min_bag),
            None => Engine::new(
                self.lexicon(),
                tables,
                LeaveTable::enable(),
                exchange_min_bag,
            ),
        }
    }
}

type Ready = Arc<tokio::sync::OnceCell<Arc<GenLexicon>>>;

/// The lexicons the computer can play with (and analyse games in), each prepared once.
pub struct Engines {
    sources: HashMap<String, Arc<WordSource>>,
    leaves: HashMap<String, Arc<LeaveTable>>,
    ready: Mutex<HashMap<String, Ready>>,
}

impl Engines {
    /// The word sources by name, and the leave tables of those that have their own.
    pub fn new(
        sources: HashMap<String, Arc<WordSource>>,
        leaves: HashMap<String, Arc<LeaveTable>>,
    ) -> Engines {
        Engines {
            sources,
            leaves,
            ready: Mutex::new(HashMap::new()),
        }
    }

    /// The lexicons the computer can play with, sorted.
    pub fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.sources.keys().cloned().collect();
        v.sort();
        v
    }

    /// The lexicon `name` ready for move generation (its GADDAG built, once, off the async
    /// threads).
    pub async fn prepare(&self, name: &str) -> Result<Arc<GenLexicon>, String> {
        let Some(source) = self.sources.get(name).cloned() else {
            let mut known: Vec<&String> = self.sources.keys().collect();
            known.sort();
            return Err(format!(
                "the computer cannot play with the lexicon {name:?}: it was not loaded as a word \
                 list (the computer knows {known:?})"
            ));
        };
        let cell = self
            .ready
            .lock()
            .expect("engines lock")
            .entry(name.to_string())
            .or_default()
            .clone();
        let leaves = self.leaves.get(name).cloned();
        let name = name.to_string();
        cell.get_or_try_init(|| async move {
            tokio::task::spawn_blocking(move || {
                let words = match source.generator_lexicon() {
                    Ok(std::borrow::Cow::Borrowed(_)) => GenWords::Source(source.clone()),
                    Ok(std::borrow::Cow::Owned(l)) => GenWords::Owned(Box::new(l)),
                    Err(e) => return Err(format!("lexicon {name:?}: {e}")),
                };
                let g = GenLexicon { words, leaves };
                // What the generator walks (the node table), made here on a blocking thread, not at the
                // first move.
                let _ = g.lexicon().automaton();
                Ok(Arc::new(g))
            })
            .await
            .map_err(|e| format!("preparing the lexicon failed: {e}"))?
        })
        .await
        .cloned()
    }
}

/// Checks that the computer can play this ruleset (the engine knows the standard board and the
/// English tiles only).
pub fn check_ruleset(ruleset: &Ruleset) -> Result<(), String> {
    Engine::tables_for(ruleset)
        .map(|_| ())
        .map_err(|e| format!("the computer cannot play these rules: {e}"))
}

// -------------------------------------------------------------------------------------------
// What the computer reads: a seat's view, as sent to any player.

#[derive(Debug, Deserialize)]
pub struct SeatState {
    pub audience: String,
    pub seat: usize,
    pub seq: u64,
    pub started: bool,
    pub paused: Option<Value>,
    pub board: Vec<String>,
    pub bag_count: usize,
    pub to_move: usize,
    pub players: Vec<PlayerState>,
    pub phase: PhaseState,
    pub zero_run: u32,
    pub rack: String,
    pub unseen: String,
    pub clocks: ClockState,
}

#[derive(Debug, Deserialize)]
pub struct PlayerState {
    pub score: i32,
}

#[derive(Debug, Deserialize)]
pub struct ClockState {
    pub remaining_ms: Option<[i64; 2]>,
    pub game_remaining_ms: Option<i64>,
    pub turn_remaining_ms: Option<i64>,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum PhaseState {
    AwaitingMove,
    PlayPending {
        player: usize,
        #[serde(default)]
        held: bool,
        out: bool,
        play: PendingState,
    },
    Ended {},
}

#[derive(Debug, Deserialize)]
pub struct PendingState {
    pub words: Vec<String>,
}

/// The computer's situation, read from its seat's view and nothing else.
pub fn situation_from_view(v: &SeatState) -> Result<Situation, String> {
    if v.audience != "seat" || v.players.len() != 2 || v.seat > 1 {
        return Err("not a seat's view".into());
    }
    let grid = tilebag_engine::random::grid_from_rows(&v.board)?;
    let rack = Rack::parse(&v.rack).map_err(|e| format!("rack: {e}"))?;
    let unseen = Rack::parse(&v.unseen).map_err(|e| format!("unseen tiles: {e}"))?;
    let me = v.seat;
    Ok(Situation {
        grid,
        rack,
        unseen,
        bag_len: v.bag_count,
        scores: [v.players[me].score, v.players[1 - me].score],
        zeros: v.zero_run,
    })
}

/// How long the computer may think: a share of its time left, at most [`MAX_THINK`].
pub fn think_budget(v: &SeatState) -> Duration {
    let mut left = i64::MAX;
    if let Some(r) = v.clocks.remaining_ms {
        left = left.min(r[v.seat.min(1)]);
    }
    if let Some(g) = v.clocks.game_remaining_ms {
        left = left.min(g);
    }
    if let Some(t) = v.clocks.turn_remaining_ms {
        left = left.min(t);
    }
    // The computer's own moves still to come, roughly: the bag empties 7 tiles a move or so.
    let moves_left = (v.bag_count / 7 + 3) as i64;
    let share = (left.max(0) / moves_left / 2).max(0) as u64;
    Duration::from_millis(share).min(MAX_THINK)
}

/// The computer's move as a client would send it.
pub fn to_message(m: &Move) -> ClientMessage {
    match m.kind {
        MoveKind::Place => ClientMessage::Play {
            position: m.coordinate(),
            word: m.gcg_word(),
        },
        MoveKind::Exchange => ClientMessage::Exchange {
            tiles: m.used().to_string(),
        },
        MoveKind::Pass => ClientMessage::Pass,
    }
}

/// What the computer does about a view: nothing (wait), or one action.
#[derive(Debug, PartialEq, Eq)]
enum Decision {
    Wait,
    Stop,
    /// Hold the opponent's pending play while deciding (the verdict follows on the next view).
    Hold,
    Challenge,
    Accept,
    /// Choose a move (a pending play of the opponent's is accepted by it).
    Move,
}

/// Whether the computer holds the opponent's pending play before its verdict, as a tournament
/// player does while checking a play (NASPA IV.I.2, WESPA 3.10.5(a)). Only where the rules give
/// a hold a meaning and it costs the computer nothing:
/// - not under a void challenge rule: every play is checked as it is made and nothing can be
///   challenged, so there is nothing to hold for;
/// - not an out play while the clock is stopped for it (NASPA V.E, NSA V.D, WESPA 5.1.2): a hold
///   starts the holder's clock ("If the play is held, start your opponent's clock"), so it
///   would spend the computer's time. Where the opponent's clock runs after an out play as
///   after any turn (SANSPA 18.2, Literacy), and after any other play, the computer's clock is
///   running anyway and a hold runs it on (NASPA IV.I.2: "your clock continues to run").
///
/// A limited hold (SANSPA 13.1: about 20 seconds) is no cost either: the verdict follows at
/// once, and the computer thinks about its own move for at most [`MAX_THINK`].
pub fn holds_before_verdict(ruleset: &Ruleset, out: bool) -> bool {
    if ruleset.challenge == ChallengeRule::Void {
        return false;
    }
    !out || ruleset.out_play_clock == OutPlayClock::OpponentRuns
}

/// The computer's decision about a view. `may_hold` is false once a hold of this view's pending
/// play was refused (never expected), so the verdict follows without one.
fn decide(v: &SeatState, gen: &GenLexicon, ruleset: &Ruleset, may_hold: bool) -> Decision {
    if matches!(v.phase, PhaseState::Ended {}) {
        return Decision::Stop;
    }
    if !v.started || v.paused.is_some() || v.to_move != v.seat {
        return Decision::Wait;
    }
    match &v.phase {
        PhaseState::PlayPending {
            player, held, out, ..
        } if *player != v.seat && !*held && may_hold && holds_before_verdict(ruleset, *out) => {
            Decision::Hold
        }
        PhaseState::PlayPending {
            player, out, play, ..
        } if *player != v.seat => {
            let tables = match Engine::tables_for(ruleset) {
                Ok(t) => t,
                Err(_) => return Decision::Accept,
            };
            let engine = gen.engine(&tables, 7);
            if tilebag_engine::bot::should_challenge(&engine, &play.words) {
                Decision::Challenge
            } else if *out {
                Decision::Accept
            } else {
                Decision::Move
            }
        }
        PhaseState::PlayPending { .. } => Decision::Wait,
        _ => Decision::Move,
    }
}

/// Chooses the computer's move for a view (on a blocking thread).
fn choose_move(
    v: &SeatState,
    gen: &GenLexicon,
    ruleset: &Ruleset,
    level: Level,
    rng: &mut Rng,
) -> Result<(Move, bool), String> {
    let s = situation_from_view(v)?;
    let tables = Engine::tables_for(ruleset).map_err(|e| e.to_string())?;
    let engine = gen.engine(&tables, ruleset.exchange_min_bag);
    let budget = think_budget(v);
    let level = if level == Level::Simulating && budget < MIN_SIM {
        Level::Static
    } else {
        level
    };
    let sim = SimConfig {
        budget,
        ..SimConfig::default()
    };
    let m = tilebag_engine::bot::choose(&engine, &s, level, rng, sim);
    // NASPA V.B: after the run of scoreless turns either player may end the game; the computer
    // does when it cannot score or leads, so a game of passes never stalls.
    let six = ruleset.six_zero;
    let end = six.ending == tilebag_core::ruleset::SixZeroEnding::EitherPlayerMayEnd
        && v.zero_run >= six.turns
        && tilebag_engine::bot::ends_after_zeros(&engine, &s, &m);
    Ok((m, end))
}

/// Everything the computer's actor needs.
pub struct BotActor {
    pub handle: GameHandle,
    pub bot: BotSeat,
    pub level: Level,
    pub ruleset: Ruleset,
    pub engines: Arc<Engines>,
    pub lexicon: String,
    pub shutdown: watch::Receiver<bool>,
}

impl BotActor {
    /// Start the actor (it prepares the lexicon first).
    pub fn spawn(self) {
        tokio::spawn(self.run());
    }

    async fn run(mut self) {
        let id = self.handle.meta.id.clone();
        let gen = match self.engines.prepare(&self.lexicon).await {
            Ok(g) => g,
            Err(e) => {
                tracing::error!(game = %id, error = %e, "the computer cannot play");
                return;
            }
        };
        let mut seed = [0u8; 8];
        let _ = getrandom::fill(&mut seed);
        // The computer's own randomness, apart from the game's bag.
        let mut rng = Rng::new(u64::from_le_bytes(seed));
        let mut next_id = 1u64;
        let mut backoff = Duration::from_millis(100);
        loop {
            let (out, mut rx) = mpsc::channel(64);
            let conn = match self
                .handle
                .connect(Audience::Seat(self.bot.seat), SheetFeed::NewLines, out)
                .await
            {
                Ok(c) => c,
                // The game's task has stopped: the game is over or the server is stopping.
                Err(_) => return,
            };
            let ended = self
                .play_connection(conn, &mut rx, &gen, &mut rng, &mut next_id)
                .await;
            let _ = self.handle.send(Command::Disconnect { conn }).await;
            if ended || *self.shutdown.borrow() {
                return;
            }
            // Dropped as a slow subscriber (never expected): join again.
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_secs(5));
        }
    }

    /// Plays over one subscription; true when the game is over (or the server stops).
    async fn play_connection(
        &mut self,
        conn: u64,
        rx: &mut mpsc::Receiver<axum::extract::ws::Utf8Bytes>,
        gen: &Arc<GenLexicon>,
        rng: &mut Rng,
        next_id: &mut u64,
    ) -> bool {
        let id = self.handle.meta.id.clone();
        let seat = self.bot.seat;
        let mut latest: Option<SeatState> = None;
        // The seq of the view the computer last acted on (it acts at most once per view).
        let mut acted_at: Option<u64> = None;
        // The seq of a view whose hold was refused: its verdict follows without a hold.
        let mut hold_refused_at: Option<u64> = None;
        // Decide again on the view at hand, without waiting for another.
        let mut again = false;
        loop {
            // Read whatever has arrived; wait for something if nothing has.
            let mut msgs = Vec::new();
            if !std::mem::take(&mut again) {
                let first = tokio::select! {
                    m = rx.recv() => m,
                    _ = crate::shutdown::stopped(&mut self.shutdown) => return true,
                };
                let Some(first) = first else { return false };
                msgs.push(first);
            }
            while let Ok(m) = rx.try_recv() {
                msgs.push(m);
            }
            for text in msgs {
                let Ok(m) = serde_json::from_str::<Value>(&text) else {
                    continue;
                };
                match m.get("type").and_then(Value::as_str) {
                    Some("state") => match serde_json::from_value::<SeatState>(m["view"].clone()) {
                        Ok(v) => latest = Some(v),
                        Err(e) => {
                            tracing::error!(game = %id, error = %e, "the computer cannot read its view")
                        }
                    },
                    Some("error") => tracing::warn!(
                        game = %id,
                        why = m["message"].as_str().unwrap_or("?"),
                        "the computer's action was refused"
                    ),
                    _ => {}
                }
            }
            let Some(v) = latest.as_ref() else { continue };
            if acted_at == Some(v.seq) {
                continue;
            }
            let may_hold = hold_refused_at != Some(v.seq);
            let message = match decide(v, gen, &self.ruleset, may_hold) {
                Decision::Stop => return true,
                Decision::Wait => continue,
                Decision::Hold => ClientMessage::Hold,
                Decision::Challenge => ClientMessage::Challenge { words: Vec::new() },
                Decision::Accept => ClientMessage::Accept,
                Decision::Move => {
                    let v2 = latest.take().expect("a view");
                    let seq = v2.seq;
                    let (gen2, ruleset, level) = (gen.clone(), self.ruleset.clone(), self.level);
                    let mut r = Rng::new(rng.next_u64());
                    let job = tokio::task::spawn_blocking(move || {
                        let m = choose_move(&v2, &gen2, &ruleset, level, &mut r);
                        (v2, m)
                    });
                    let (v2, chosen) = match job.await {
                        Ok(x) => x,
                        Err(e) => {
                            tracing::error!(
                                game = %id,
                                error = %e,
                                "the computer's search failed"
                            );
                            return false;
                        }
                    };
                    latest = Some(v2);
                    // Newer views that arrived meanwhile: if the game moved on, think again.
                    let mut moved_on = false;
                    while let Ok(text) = rx.try_recv() {
                        if let Ok(m) = serde_json::from_str::<Value>(&text) {
                            if m["type"] == "state" {
                                if let Ok(nv) =
                                    serde_json::from_value::<SeatState>(m["view"].clone())
                                {
                                    moved_on |= nv.seq != seq;
                                    latest = Some(nv);
                                }
                            }
                        }
                    }
                    if moved_on {
                        continue;
                    }
                    match chosen {
                        Ok((_, true)) => ClientMessage::EndAfterSixZeros,
                        Ok((m, false)) => to_message(&m),
                        Err(e) => {
                            tracing::warn!(
                                game = %id,
                                error = %e,
                                "the computer cannot read its position; it passes"
                            );
                            ClientMessage::Pass
                        }
                    }
                }
            };
            let seq = latest.as_ref().map_or(0, |v| v.seq);
            acted_at = Some(seq);
            match self
                .submit(conn, seat, rx, message, next_id, &mut latest)
                .await
            {
                Submitted::Gone => return false,
                Submitted::Done => {}
                Submitted::HoldRefused => {
                    // The game did not change: give the verdict on the same view, unheld.
                    hold_refused_at = Some(seq);
                    acted_at = None;
                    again = true;
                }
            }
        }
    }

    /// Sends one action and waits for its answer; a refused move is replaced by a pass (a
    /// refused hold is not: the verdict follows instead).
    async fn submit(
        &mut self,
        conn: u64,
        seat: usize,
        rx: &mut mpsc::Receiver<axum::extract::ws::Utf8Bytes>,
        message: ClientMessage,
        next_id: &mut u64,
        latest: &mut Option<SeatState>,
    ) -> Submitted {
        let game = self.handle.meta.id.clone();
        let mut message = message;
        for attempt in 0..2 {
            let id = format!("bot-{}", *next_id);
            *next_id += 1;
            let sent = self
                .handle
                .send(Command::Act {
                    conn,
                    seat,
                    id: Some(Value::from(id.clone())),
                    message: message.clone(),
                })
                .await;
            if sent.is_err() {
                return Submitted::Gone;
            }
            // Wait for the answer to this action (views that arrive meanwhile are kept).
            let refused = loop {
                let text = tokio::select! {
                    m = rx.recv() => m,
                    _ = crate::shutdown::stopped(&mut self.shutdown) => return Submitted::Gone,
                };
                let Some(text) = text else {
                    return Submitted::Gone;
                };
                let Ok(m) = serde_json::from_str::<Value>(&text) else {
                    continue;
                };
                match m.get("type").and_then(Value::as_str) {
                    Some("state") => {
                        if let Ok(v) = serde_json::from_value::<SeatState>(m["view"].clone()) {
                            *latest = Some(v);
                        }
                    }
                    Some("ack") if m["id"] == id.as_str() => break None,
                    Some("error") if m["id"] == id.as_str() => {
                        break Some(m["message"].as_str().unwrap_or("?").to_string())
                    }
                    _ => {}
                }
            };
            let Some(why) = refused else {
                return Submitted::Done;
            };
            if matches!(message, ClientMessage::Hold) {
                tracing::warn!(
                    game = %game,
                    why = %why,
                    "the computer's hold was refused; it gives its verdict without one"
                );
                return Submitted::HoldRefused;
            }
            if attempt == 0 && !matches!(message, ClientMessage::Pass) {
                // Never expected: the generator makes only legal moves. Pass rather than stall.
                tracing::warn!(
                    game = %game,
                    why = %why,
                    "the computer's {message:?} was refused; it passes instead"
                );
                message = ClientMessage::Pass;
            } else {
                tracing::warn!(
                    game = %game,
                    why = %why,
                    "the computer's {message:?} was refused"
                );
                return Submitted::Done;
            }
        }
        Submitted::Done
    }
}

/// How an action of the computer's went.
enum Submitted {
    /// Accepted (or refused and replaced, or refused twice: the computer moves on).
    Done,
    /// Its hold was refused: the verdict follows without one.
    HoldRefused,
    /// The connection or the server is gone.
    Gone,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meta::GameMeta;
    use crate::view::{seat_view, Moment};
    use tilebag_core::{Action, Actor, Event, Game};

    fn meta() -> GameMeta {
        GameMeta {
            id: "g".into(),
            tokens: ["a".into(), "b".into()],
            names: ["A".into(), "B".into()],
            preset: "naspa-2013".into(),
            lexicon: "enable1".into(),
            created_at_ms: 0,
            seeded: false,
            bot: None,
            notes: Vec::new(),
        }
    }

    fn state_of(game: &Game, seat: usize) -> SeatState {
        let v = seat_view(
            game,
            &meta(),
            Moment {
                seq: 0,
                at_ms: 0,
                started: true,
                database_down: false,
                director: false,
            },
            seat,
        );
        serde_json::from_value(serde_json::to_value(&v).unwrap()).unwrap()
    }

    /// The situation read from a seat's view is exactly the engine's own reading of the seat
    /// (`Situation::from_game`), move after move of a whole game: the computer loses nothing by
    /// seeing only the view, and the view holds nothing more.
    #[test]
    fn the_view_gives_the_seats_situation() {
        let lex = Lexicon::builtin_enable();
        let ruleset = Ruleset::preset("naspa-2013").unwrap();
        let tables = Engine::tables_for(&ruleset).unwrap();
        let engine = Engine::new(lex, &tables, LeaveTable::enable(), 7);
        for seed in [1u64, 77, 4242] {
            let mut game = Game::new(ruleset.clone(), seed);
            let mut at = 0;
            let mut checked = 0;
            while !game.is_over() && checked < 60 {
                let seat = game.to_move();
                for s in 0..2 {
                    let from_view = situation_from_view(&state_of(&game, s)).unwrap();
                    assert_eq!(from_view, Situation::from_game(&game, s), "seed {seed}");
                }
                checked += 1;
                at += 1000;
                let s = Situation::from_game(&game, seat);
                let m = engine.best(&s);
                let action = match m.kind {
                    MoveKind::Place => Action::Play {
                        placement: m.placement(),
                    },
                    MoveKind::Exchange => Action::Exchange {
                        tiles: m.exchanged(),
                    },
                    MoveKind::Pass => Action::Pass,
                };
                let ev = Event {
                    actor: Actor::Seat(seat),
                    at_ms: at,
                    action,
                };
                game.apply(&ev, lex).unwrap();
                if let tilebag_core::Phase::PlayPending { out: true, .. } = game.phase() {
                    let ev = Event {
                        actor: Actor::Seat(game.to_move()),
                        at_ms: at,
                        action: Action::Accept,
                    };
                    game.apply(&ev, lex).unwrap();
                }
            }
            assert!(checked > 10);
        }
    }

    #[test]
    fn moves_read_back_as_the_client_protocol() {
        let lex = Lexicon::builtin_enable();
        let ruleset = Ruleset::preset("naspa-2013").unwrap();
        let tables = Engine::tables_for(&ruleset).unwrap();
        let engine = Engine::new(lex, &tables, LeaveTable::enable(), 7);
        let game = Game::new(ruleset, 9);
        let s = Situation::from_game(&game, 0);
        let m = engine.best(&s);
        match to_message(&m) {
            ClientMessage::Play { position, word } => {
                assert!(position == "8H" || position.len() >= 2, "{position}");
                assert_eq!(word.chars().count(), usize::from(m.len));
            }
            other => panic!("the opening move is a play, not {other:?}"),
        }
        assert!(parse_level("nope").unwrap_err().contains("unknown level"));
        assert_eq!(parse_level("strong").unwrap(), Level::Static);
    }

    /// The computer holds a pending play before its verdict wherever a hold means something
    /// and costs it nothing (NASPA IV.I.2, WESPA 3.10.5(a)); never under a void challenge rule
    /// (nothing can be challenged), nor an out play while the clock is stopped for it (NASPA
    /// V.E, NSA V.D, WESPA 5.1.2: the hold would start its clock).
    #[test]
    fn holds_where_a_hold_is_meaningful_and_free() {
        for name in Ruleset::PRESETS {
            let r = Ruleset::preset(name).unwrap();
            assert!(holds_before_verdict(&r, false), "{name}: any other play");
            let out_runs = r.out_play_clock == OutPlayClock::OpponentRuns;
            assert_eq!(
                holds_before_verdict(&r, true),
                out_runs,
                "{name}: the out play"
            );
        }
        // NASPA V.E and WESPA 5.1.2 stop the clock for the out play; SANSPA 18.2 and Literacy
        // let the opponent's clock run.
        let out = |name: &str| holds_before_verdict(&Ruleset::preset(name).unwrap(), true);
        assert!(!out("naspa-2013") && !out("nsa-2011") && !out("wespa-2010"));
        assert!(out("sanspa-1999") && out("literacy-2018"));
        let mut void = Ruleset::preset("naspa-2013").unwrap();
        void.challenge = ChallengeRule::Void;
        assert!(!holds_before_verdict(&void, false));
        void.out_play_clock = OutPlayClock::OpponentRuns;
        assert!(!holds_before_verdict(&void, true));
    }

    /// `tilebag serve --leaves NAME=FILE`: the computer values what it keeps by its lexicon's
    /// own table. Its first move with the built-in values keeps some leave; with a table that
    /// makes exactly that leave worth −10,000 points (every other leave 0), it keeps another.
    #[test]
    fn the_computer_plays_with_its_lexicons_own_leave_table() {
        let source = Arc::new(WordSource::builtin());
        let built_in = GenLexicon::of(source.clone());
        let naspa = Ruleset::preset("naspa-2013").unwrap();
        let game = Game::new(naspa.clone(), 11);
        let v = state_of(&game, game.to_move());
        let rack = Rack::parse(&v.rack).unwrap();
        let (first, _) =
            choose_move(&v, &built_in, &naspa, Level::Static, &mut Rng::new(1)).unwrap();
        let kept = rack.minus(&first.used());
        assert!(!kept.is_empty(), "a first move keeps something: {first:?}");
        let mut table = LeaveTable::zeros(tilebag_engine::LeaveShape::english());
        assert!(table.set(&kept, -10_000.0));
        let own = GenLexicon {
            words: GenWords::Source(source),
            leaves: Some(Arc::new(table)),
        };
        let (second, _) = choose_move(&v, &own, &naspa, Level::Static, &mut Rng::new(1)).unwrap();
        assert_ne!(
            rack.minus(&second.used()),
            kept,
            "{second:?} keeps the leave it must not"
        );
    }

    /// The decision on the opponent's pending play: hold first (where it holds), then the
    /// verdict on the held play: a phony is challenged, a good play accepted (by a move, or by
    /// `accept` after an out play).
    #[test]
    fn the_verdict_follows_the_hold() {
        let gen = GenLexicon::of(Arc::new(WordSource::builtin()));
        let naspa = Ruleset::preset("naspa-2013").unwrap();
        let sanspa = Ruleset::preset("sanspa-1999").unwrap();
        let game = Game::new(naspa.clone(), 5);
        let pending = |held: bool, out: bool, word: &str| {
            let mut v = state_of(&game, 1);
            v.to_move = 1;
            v.phase = PhaseState::PlayPending {
                player: 0,
                held,
                out,
                play: PendingState {
                    words: vec![word.to_string()],
                },
            };
            v
        };
        let d = |v: &SeatState, r: &Ruleset, may_hold: bool| decide(v, &gen, r, may_hold);
        // Not held yet: hold, whether the play is good or a phony.
        assert_eq!(
            d(&pending(false, false, "CAT"), &naspa, true),
            Decision::Hold
        );
        assert_eq!(
            d(&pending(false, false, "CATZ"), &naspa, true),
            Decision::Hold
        );
        // Held: the verdict.
        assert_eq!(
            d(&pending(true, false, "CAT"), &naspa, true),
            Decision::Move
        );
        assert_eq!(
            d(&pending(true, false, "CATZ"), &naspa, true),
            Decision::Challenge
        );
        // A hold refused (never expected): the verdict without it.
        assert_eq!(
            d(&pending(false, false, "CAT"), &naspa, false),
            Decision::Move
        );
        // NASPA's out play: the clock is stopped, so no hold; the verdict at once.
        assert_eq!(
            d(&pending(false, true, "CAT"), &naspa, true),
            Decision::Accept
        );
        assert_eq!(
            d(&pending(false, true, "CATZ"), &naspa, true),
            Decision::Challenge
        );
        // SANSPA's out play runs the computer's clock anyway: hold, then the verdict.
        assert_eq!(
            d(&pending(false, true, "CAT"), &sanspa, true),
            Decision::Hold
        );
        assert_eq!(
            d(&pending(true, true, "CAT"), &sanspa, true),
            Decision::Accept
        );
        // The computer's own pending play, or the opponent to move: wait.
        let mut own = pending(false, false, "CAT");
        own.phase = PhaseState::PlayPending {
            player: 1,
            held: false,
            out: false,
            play: PendingState { words: vec![] },
        };
        assert_eq!(d(&own, &naspa, true), Decision::Wait);
        let mut theirs = pending(false, false, "CAT");
        theirs.to_move = 0;
        assert_eq!(d(&theirs, &naspa, true), Decision::Wait);
    }

    #[test]
    fn budget_is_a_share_of_the_time_left() {
        let game = Game::new(Ruleset::preset("naspa-2013").unwrap(), 3);
        let mut v = state_of(&game, 0);
        v.clocks.remaining_ms = Some([25 * 60_000, 25 * 60_000]);
        assert_eq!(think_budget(&v), MAX_THINK);
        v.clocks.remaining_ms = Some([10_000, 25 * 60_000]);
        assert!(think_budget(&v) < Duration::from_millis(500));
        v.clocks.remaining_ms = Some([-5_000, 25 * 60_000]);
        assert_eq!(think_budget(&v), Duration::ZERO);
    }
}
