//! What each audience may see, built at the source. This module is the only place that turns a
//! [`Game`] into something a client receives, and it does so into separate types per audience:
//!
//! - [`SeatView`]: a seat's own rack, the opponent's rack *size*, the unseen tiles (bag plus the
//!   opponent's rack, sorted: never the bag's order), the score sheet with the opponent's racks
//!   and exchanged tiles left out while the game is on.
//! - [`ObserverView`]: no rack of either seat, no unseen-tile list, no rack on any score-sheet
//!   line, exchanges by count only.
//!
//! None of these types has a field that could hold the bag's order, and the only functions that
//! fill the rack fields are [`seat_view`] (with the seat's own rack) and the end-of-game reveal.
//! While the game is on nobody sees another's rack; once it is over the seats' score sheets show
//! both racks, as the GCG record (and the physical game, where the racks are counted openly) do.
//! Observers get racks only through the GCG record of a finished game.

use crate::meta::GameMeta;
use serde::Serialize;
use std::fmt::Write as _;
use tilebag_core::citation::Rule;
use tilebag_core::game::{Adjustment, EndReason, Turn, TurnKind};
use tilebag_core::ruleset::{ChallengeRule, ClockRule, EndRackRule};
use tilebag_core::{Game, Phase, Square, Tile, TileSet};

/// Who a view is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Audience {
    Seat(usize),
    Observer,
}

impl Audience {
    /// Which of the three score sheets (seat 0's, seat 1's, the observers') this audience sees.
    pub fn sheet_index(self) -> usize {
        match self {
            Audience::Seat(s) => s.min(1),
            Audience::Observer => 2,
        }
    }
}

/// The rule numbers a game page shows beside its buttons, in the game's own book.
#[derive(Debug, Clone, Serialize)]
pub struct CitationsView {
    /// Asking to resign, and the opponent's choice (NASPA I.B, NSA I.B, ...).
    pub resigning: &'static str,
    /// Leaving a game in progress and its margin (NASPA V.K.2, WESPA 5.7(c), ...).
    pub leaving: &'static str,
}

/// What everyone at the table may see. Private to the views: it is always sent inside a
/// [`SeatView`] or an [`ObserverView`].
#[derive(Debug, Clone, Serialize)]
pub struct TableView {
    pub game_id: String,
    pub players: [PlayerView; 2],
    pub preset: String,
    pub lexicon: String,
    /// The creator chose the bag's seed (a server started with `--allow-seeds`): a game for
    /// tests or analysis, not a fair one, since whoever knows the seed knows every rack.
    pub seeded: bool,
    pub challenge: ChallengeRule,
    pub time_control: ClockRule,
    /// How the player who goes out is credited (WESPA 5.1.4 lets the organiser choose).
    pub end_rack: EndRackRule,
    /// The organiser's choices applied to the preset (`end-rack=double`, ...); empty for the
    /// preset as published.
    pub rules: Vec<String>,
    /// The rules the page names, in the book of the game's own preset (issue 27 item 5).
    pub citations: CitationsView,
    /// A seat that has asked to resign, awaiting the opponent's answer (NASPA I.B).
    pub resignation_offer: Option<usize>,
    /// The game is one of an event's, so a director looks after it: `call-director` is
    /// offered. A casual game has nobody who could restart stopped clocks, so it refuses the
    /// call.
    pub director: bool,
    /// The game time this view shows (ms since the game began); clocks are as of this time.
    pub at_ms: i64,
    /// Events in the game's log: a client can tell an old view from a new one.
    pub seq: u64,
    /// Whether the game's clock has started. A new game waits (game time stands at 0, the clocks
    /// are full and none runs) until both seats have connected or a seat's first action is
    /// accepted, as over the board (NASPA III.F, WESPA 2.2).
    pub started: bool,
    /// The game is neutralised (the director stopped it, or `called_by` seat called the
    /// director): no clock runs and no move may be made until the director restarts it. While
    /// stopped a seat's view holds no rack and no unseen tiles (NASPA II.A: no studying the rack
    /// while the clock is stopped).
    pub paused: Option<tilebag_core::Pause>,
    /// The server cannot reach its database: nothing can be stored, so every action is refused
    /// (`unavailable`) and no clock runs until it is back, as when the server is down (WESPA
    /// 4.1(f)).
    pub database_down: bool,
    /// 15 rows, top to bottom; `.` is empty, uppercase a tile, lowercase a blank.
    pub board: Vec<String>,
    pub bag_count: usize,
    pub to_move: usize,
    pub clocks: ClockView,
    pub phase: PhaseView,
    /// Successive scoreless turns so far (NASPA V.B, WESPA 5.2).
    pub zero_run: u32,
    pub result: Option<ResultView>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PlayerView {
    pub name: String,
    pub score: i32,
    /// How many tiles are on this seat's rack (never which).
    pub rack_count: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct ClockView {
    /// Per-player clocks: ms left per seat (negative is overtime); `null` under a game clock.
    pub remaining_ms: Option<[i64; 2]>,
    /// The shared game clock (Literacy 2018), ms left.
    pub game_remaining_ms: Option<i64>,
    /// Under a per-turn limit: ms left in this turn.
    pub turn_remaining_ms: Option<i64>,
    /// Whose clock runs, if any.
    pub running: Option<usize>,
}

#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum PhaseView {
    AwaitingMove,
    /// `player`'s play stands unless the opponent (`to_move`) challenges.
    PlayPending {
        player: usize,
        held: bool,
        out: bool,
        play: PendingPlayView,
    },
    Ended {
        reason: EndReason,
    },
}

#[derive(Debug, Clone, Serialize)]
pub struct PendingPlayView {
    pub position: String,
    pub word: String,
    /// Every word formed, main word first (the words a challenge may name).
    pub words: Vec<String>,
    pub score: i32,
}

#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct ResultView {
    pub reason: EndReason,
    pub scores: [i32; 2],
    /// The winning seat; `null` for a tie.
    pub winner: Option<usize>,
    /// Seat 0's score minus seat 1's.
    pub spread: i32,
    pub adjustments: Vec<Adjustment>,
}

/// A score-sheet line as the public may see it.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum LineKind {
    Play {
        position: String,
        word: String,
        words: Vec<String>,
    },
    /// `tiles` only for the exchanger (and for everyone once the game is over).
    Exchange {
        count: usize,
        #[serde(skip_serializing_if = "Option::is_none")]
        tiles: Option<String>,
    },
    Pass,
    LostChallenge,
    TimedOut,
    Withdrawal,
    ChallengeBonus,
    TimePenalty,
    /// An end-of-game rack adjustment: the tiles are counted openly when the game ends.
    EndRack {
        tiles: String,
    },
    Adjustment {
        why: String,
    },
}

/// A score-sheet line for an observer: never a rack.
#[derive(Debug, Clone, Serialize)]
pub struct PublicLine {
    pub seat: usize,
    #[serde(flatten)]
    pub kind: LineKind,
    pub score: i32,
    pub cumulative: i32,
}

/// A score-sheet line for a seat: the rack before the turn only on the seat's own lines (both
/// seats' once the game is over).
#[derive(Debug, Clone, Serialize)]
pub struct SeatLine {
    pub seat: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rack: Option<String>,
    #[serde(flatten)]
    pub kind: LineKind,
    pub score: i32,
    pub cumulative: i32,
}

/// What a seat sees.
#[derive(Debug, Clone, Serialize)]
pub struct SeatView {
    /// Always `"seat"`.
    pub audience: &'static str,
    pub seat: usize,
    #[serde(flatten)]
    pub table: TableView,
    /// The seat's own rack, sorted (`?` is a blank).
    pub rack: String,
    /// The tiles this seat cannot see: the bag and the opponent's rack together, sorted.
    pub unseen: String,
    pub history: Vec<SeatLine>,
}

/// What an observer sees: no racks.
#[derive(Debug, Clone, Serialize)]
pub struct ObserverView {
    /// Always `"observer"`.
    pub audience: &'static str,
    #[serde(flatten)]
    pub table: TableView,
    pub history: Vec<PublicLine>,
}

/// A view for one audience.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub enum View {
    Seat(Box<SeatView>),
    Observer(Box<ObserverView>),
}

/// Where a game stands in time: the events so far, the game time of the view, and whether the
/// clock has started.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moment {
    pub seq: u64,
    pub at_ms: i64,
    pub started: bool,
    /// The database is down: the clocks are held.
    pub database_down: bool,
    /// The game belongs to an event, whose director can be called (and restarts the clocks).
    pub director: bool,
}

/// The view for `audience`: the one entry point the server uses.
pub fn view_for(game: &Game, meta: &GameMeta, now: Moment, audience: Audience) -> View {
    match audience {
        Audience::Seat(s) => View::Seat(Box::new(seat_view(game, meta, now, s))),
        Audience::Observer => View::Observer(Box::new(observer_view(game, meta, now))),
    }
}

/// A seat's own rack and the tiles it cannot see, as a seat's view shows them.
fn seat_tiles(game: &Game, now: Moment, seat: usize) -> (String, String) {
    let set = game.tile_set();
    // NASPA II.A: nobody studies a rack while the clock is stopped. Nor before it has started:
    // the first player's clock starts as soon as they have seen a tile (NASPA III.F, WESPA 2.2,
    // SANSPA 6.5), so a seat sees its rack only once the game has started.
    let stopped = game.paused().is_some() || (!now.started && !game.is_over());
    if stopped {
        return (String::new(), String::new());
    }
    (
        sorted_tiles(set, game.rack(seat)),
        set.tiles_to_string(&game.unseen_for(seat)),
    )
}

pub fn seat_view(game: &Game, meta: &GameMeta, now: Moment, seat: usize) -> SeatView {
    let set = game.tile_set();
    let over = game.is_over();
    let (rack, unseen) = seat_tiles(game, now, seat);
    SeatView {
        audience: "seat",
        seat,
        table: table(game, meta, now),
        rack,
        unseen,
        history: game
            .history()
            .iter()
            .map(|t| {
                // During play a seat sees only its own racks and its own exchanged tiles.
                let reveal = over || t.seat == seat;
                SeatLine {
                    seat: t.seat,
                    rack: (reveal && !t.rack.is_empty()).then(|| sorted_tiles(set, &t.rack)),
                    kind: line_kind(set, t, reveal),
                    score: t.score,
                    cumulative: t.cumulative,
                }
            })
            .collect(),
    }
}

pub fn observer_view(game: &Game, meta: &GameMeta, now: Moment) -> ObserverView {
    let set = game.tile_set();
    ObserverView {
        audience: "observer",
        table: table(game, meta, now),
        history: game
            .history()
            .iter()
            .map(|t| PublicLine {
                seat: t.seat,
                kind: line_kind(set, t, false),
                score: t.score,
                cumulative: t.cumulative,
            })
            .collect(),
    }
}

/// The public summary of a game (the HTTP API's game and list entries).
pub fn result_view(game: &Game) -> Option<ResultView> {
    let Phase::Ended { reason } = game.phase() else {
        return None;
    };
    let scores = game.scores();
    Some(ResultView {
        reason: *reason,
        scores,
        winner: match scores[0].cmp(&scores[1]) {
            std::cmp::Ordering::Greater => Some(0),
            std::cmp::Ordering::Less => Some(1),
            std::cmp::Ordering::Equal => None,
        },
        spread: scores[0] - scores[1],
        adjustments: game.adjustments().to_vec(),
    })
}

fn sorted_tiles(set: &TileSet, tiles: &[Tile]) -> String {
    let mut v = tiles.to_vec();
    v.sort();
    set.tiles_to_string(&v)
}

fn line_kind(set: &TileSet, t: &Turn, reveal_exchange: bool) -> LineKind {
    match &t.kind {
        TurnKind::Play {
            position,
            word,
            words,
        } => LineKind::Play {
            position: position.clone(),
            word: word.clone(),
            words: words.clone(),
        },
        TurnKind::Exchange { tiles } => LineKind::Exchange {
            count: tiles.len(),
            tiles: reveal_exchange.then(|| set.tiles_to_string(tiles)),
        },
        TurnKind::Pass => LineKind::Pass,
        TurnKind::LostChallenge => LineKind::LostChallenge,
        TurnKind::TimedOut => LineKind::TimedOut,
        TurnKind::Withdrawal => LineKind::Withdrawal,
        TurnKind::ChallengeBonus => LineKind::ChallengeBonus,
        TurnKind::TimePenalty => LineKind::TimePenalty,
        TurnKind::EndRack { tiles } => LineKind::EndRack {
            tiles: set.tiles_to_string(tiles),
        },
        TurnKind::Adjustment { why } => LineKind::Adjustment { why: why.clone() },
    }
}

fn table(game: &Game, meta: &GameMeta, now: Moment) -> TableView {
    let Moment {
        seq,
        started,
        database_down,
        director,
        ..
    } = now;
    let scores = game.scores();
    let (at_ms, clocks) = clocks_view(game, now);
    TableView {
        game_id: meta.id.clone(),
        players: [0, 1].map(|s| PlayerView {
            name: meta.names[s].clone(),
            score: scores[s],
            rack_count: game.rack(s).len(),
        }),
        preset: meta.preset.clone(),
        lexicon: meta.lexicon.clone(),
        seeded: meta.seeded,
        challenge: game.ruleset().challenge,
        time_control: game.ruleset().clock,
        end_rack: game.ruleset().end_rack,
        rules: game.ruleset().overrides.clone(),
        citations: citations(game),
        resignation_offer: game.resignation_offer(),
        director,
        at_ms,
        seq,
        started,
        paused: game.paused(),
        database_down,
        board: board_rows(game),
        bag_count: game.bag_len(),
        to_move: game.to_move(),
        clocks,
        phase: phase_view(game),
        zero_run: game.zero_run(),
        result: result_view(game),
    }
}

fn citations(game: &Game) -> CitationsView {
    CitationsView {
        resigning: game.ruleset().citation(Rule::Resigning),
        leaving: game.ruleset().citation(Rule::LeavingTheGame),
    }
}

/// The board's rows, top to bottom: `.` empty, uppercase a tile, lowercase a blank.
fn board_rows(game: &Game) -> Vec<String> {
    let size = game.board().size();
    (0..size)
        .map(|r| {
            let mut row = String::with_capacity(size);
            push_board_row(game, r, &mut row);
            row
        })
        .collect()
}

fn push_board_row(game: &Game, r: usize, row: &mut String) {
    let set = game.tile_set();
    for c in 0..game.board().size() {
        row.push(
            game.board()
                .get(Square::new(r as u8, c as u8))
                .map_or('.', |t| set.placed_char(t)),
        );
    }
}

/// The game time a view shows and its clocks then.
fn clocks_view(game: &Game, now: Moment) -> (i64, ClockView) {
    let at_ms = now.at_ms.max(game.clocks().last_ms);
    let c = if game.is_over() {
        game.clocks()
    } else {
        game.clocks_at(at_ms)
    };
    // Until the game starts no clock runs (game time stands at 0, so the clocks are full), nor
    // while it is neutralised or the database is down.
    let running = if now.started && game.paused().is_none() && !now.database_down {
        c.running
    } else {
        None
    };
    let per_turn = match game.ruleset().clock {
        ClockRule::SharedGame {
            per_turn_max_ms, ..
        } if running.is_some() && !game.is_over() => {
            let left = c.turn_started_ms + per_turn_max_ms - at_ms;
            Some(left.clamp(0, c.game_remaining_ms.unwrap_or(left).max(0)))
        }
        _ => None,
    };
    let clocks = ClockView {
        remaining_ms: c.game_remaining_ms.is_none().then_some(c.remaining_ms),
        game_remaining_ms: c.game_remaining_ms,
        turn_remaining_ms: per_turn,
        running,
    };
    (at_ms, clocks)
}

fn phase_view(game: &Game) -> PhaseView {
    match game.phase() {
        Phase::AwaitingMove => PhaseView::AwaitingMove,
        Phase::Ended { reason } => PhaseView::Ended { reason: *reason },
        Phase::PlayPending { player, held, out } => {
            let play = game.pending_play();
            let line = game.history().iter().rev().find_map(|t| match &t.kind {
                TurnKind::Play { position, word, .. } if t.seat == *player => {
                    Some((position.clone(), word.clone()))
                }
                _ => None,
            });
            let (position, word) = line.unwrap_or_default();
            PhaseView::PlayPending {
                player: *player,
                held: *held,
                out: *out,
                play: PendingPlayView {
                    position,
                    word,
                    words: play
                        .map(|p| p.words.iter().map(|w| w.word.clone()).collect())
                        .unwrap_or_default(),
                    score: play.map_or(0, |p| p.score),
                },
            }
        }
    }
}

/// The table's fields that never change during a game (see [`TableView`]), borrowed: written
/// once per game by [`ViewText`].
#[derive(Serialize)]
struct FixedFacts<'a> {
    game_id: &'a str,
    preset: &'a str,
    lexicon: &'a str,
    seeded: bool,
    challenge: ChallengeRule,
    time_control: ClockRule,
    end_rack: EndRackRule,
    rules: &'a [String],
    citations: CitationsView,
}

/// The table's fields that may change at any event (see [`TableView`]), borrowed where they
/// can be; all but the board, which [`ViewText`] keeps.
#[derive(Serialize)]
struct Moving<'a> {
    players: [PlayerRef<'a>; 2],
    resignation_offer: Option<usize>,
    director: bool,
    at_ms: i64,
    seq: u64,
    started: bool,
    paused: Option<tilebag_core::Pause>,
    database_down: bool,
    bag_count: usize,
    to_move: usize,
    clocks: ClockView,
    phase: PhaseView,
    zero_run: u32,
    result: Option<ResultView>,
}

impl<'a> Moving<'a> {
    fn of(game: &'a Game, meta: &'a GameMeta, now: Moment) -> Moving<'a> {
        let scores = game.scores();
        let (at_ms, clocks) = clocks_view(game, now);
        Moving {
            players: [0, 1].map(|s| PlayerRef {
                name: &meta.names[s],
                score: scores[s],
                rack_count: game.rack(s).len(),
            }),
            resignation_offer: game.resignation_offer(),
            director: now.director,
            at_ms,
            seq: now.seq,
            started: now.started,
            paused: game.paused(),
            database_down: now.database_down,
            bag_count: game.bag_len(),
            to_move: game.to_move(),
            clocks,
            phase: phase_view(game),
            zero_run: game.zero_run(),
            result: result_view(game),
        }
    }
}

/// [`PlayerView`], borrowed.
#[derive(Serialize)]
struct PlayerRef<'a> {
    name: &'a str,
    score: i32,
    rack_count: usize,
}

/// The board as [`TableView::board`] has it, written row by row through one buffer.
struct BoardRows<'a>(&'a Game);

impl Serialize for BoardRows<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let size = self.0.board().size();
        let mut seq = serializer.serialize_seq(Some(size))?;
        let mut row = String::with_capacity(size * 4);
        for r in 0..size {
            row.clear();
            push_board_row(self.0, r, &mut row);
            seq.serialize_element(row.as_str())?;
        }
        seq.end()
    }
}

/// What a game's views are made of that lasts from one view to the next, as JSON: the fixed
/// facts of the table, written once, and the score sheet as each audience sees it (the lines
/// of a view's `history`), kept as the game goes on. While the game is on a line never changes
/// once written (the sheet only grows, and who may see which rack on it does not change), so
/// each line is written once per audience rather than at every view; when the game ends the
/// racks are revealed and the sheet is written again, once.
#[derive(Debug, Default)]
pub struct ViewText {
    /// The fixed facts' fields, without braces (empty until the first view).
    fixed: String,
    /// The board's rows as JSON, and the score sheet's length and tiles on the board it was
    /// written at (only a line on the sheet, a play or a withdrawn play, changes the board).
    board: String,
    board_at: Option<(usize, usize)>,
    /// Written for a game that is over (racks revealed).
    over: bool,
    /// Lines written so far on each audience's sheet: seat 0's, seat 1's, the observers'
    /// (each written only when a view for it is asked for).
    lines: [usize; 3],
    sheet: [String; 3],
    /// Where each line of each sheet starts (a byte offset into `sheet`): a connection that
    /// takes only new lines is sent the sheet from one of them on.
    starts: [Vec<usize>; 3],
    /// How many times the sheets were written again from the start (the racks revealed at the
    /// end): lines sent before that are not the lines now.
    epoch: u64,
}

/// How a connection is sent the score sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SheetFeed {
    /// Every `state` holds the whole score sheet.
    #[default]
    Whole,
    /// A `state` holds only the lines this connection has not been sent yet; its
    /// `history_from` says which line they start at (the lines before it are the ones the
    /// connection has). The score sheet only grows while a game is on, so the message stays
    /// the same size however long the game; when the game ends (the racks revealed) the whole
    /// sheet is sent again, from line 0.
    NewLines,
}

/// What a connection fed [`SheetFeed::NewLines`] has been sent of its score sheet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SheetMark {
    epoch: u64,
    lines: usize,
}

impl ViewText {
    /// Bring what all audiences share up to `game`.
    fn update(&mut self, game: &Game, meta: &GameMeta) {
        if self.fixed.is_empty() {
            let fixed = serde_json::to_string(&FixedFacts {
                game_id: &meta.id,
                preset: &meta.preset,
                lexicon: &meta.lexicon,
                seeded: meta.seeded,
                challenge: game.ruleset().challenge,
                time_control: game.ruleset().clock,
                end_rack: game.ruleset().end_rack,
                rules: &game.ruleset().overrides,
                citations: citations(game),
            })
            .expect("views serialise");
            // `{...}`: a struct's object is never empty.
            self.fixed = fixed[1..fixed.len() - 1].to_string();
        }
        let at = (game.history().len(), game.board().tile_count());
        if self.board_at != Some(at) {
            self.board = serde_json::to_string(&BoardRows(game)).expect("boards serialise");
            self.board_at = Some(at);
        }
        let over = game.is_over();
        if over != self.over || self.lines.iter().any(|&n| game.history().len() < n) {
            self.lines = [0; 3];
            self.over = over;
            self.sheet.iter_mut().for_each(String::clear);
            self.starts.iter_mut().for_each(Vec::clear);
            self.epoch += 1;
        }
    }

    /// The sheet `audience` sees, brought up to `game`'s score sheet.
    fn sheet_for(&mut self, game: &Game, audience: Audience) -> &str {
        let i = audience.sheet_index();
        let history = game.history();
        let set = game.tile_set();
        let out = &mut self.sheet[i];
        for t in &history[self.lines[i].min(history.len())..] {
            if !out.is_empty() {
                out.push(',');
            }
            self.starts[i].push(out.len());
            // Written into the sheet's own buffer: no allocation but the lines' own.
            let written = if i < 2 {
                let reveal = self.over || t.seat == i;
                serde_json::to_writer(
                    SheetWriter(out),
                    &SeatLine {
                        seat: t.seat,
                        rack: (reveal && !t.rack.is_empty()).then(|| sorted_tiles(set, &t.rack)),
                        kind: line_kind(set, t, reveal),
                        score: t.score,
                        cumulative: t.cumulative,
                    },
                )
            } else {
                serde_json::to_writer(
                    SheetWriter(out),
                    &PublicLine {
                        seat: t.seat,
                        kind: line_kind(set, t, false),
                        score: t.score,
                        cumulative: t.cumulative,
                    },
                )
            };
            written.expect("score-sheet lines serialise");
        }
        self.lines[i] = history.len();
        &self.sheet[i]
    }
}

/// Appends serde_json's output (always UTF-8) to a `String`.
struct SheetWriter<'a>(&'a mut String);

impl std::io::Write for SheetWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let s = std::str::from_utf8(buf)
            .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))?;
        self.0.push_str(s);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The `state` messages of one moment of a game, for any audience, built at the cost of one:
/// what everyone at the table sees is written once, the table's fixed facts and the score
/// sheets come from a [`ViewText`]. Each text holds what `protocol::state_text` writes for the
/// audience's [`view_for`] (the same fields and values; the fixed facts first).
pub struct StateTexts<'a> {
    game: &'a Game,
    now: Moment,
    /// `"effects":[...]`.
    effects: String,
    /// The table's changing fields, without the braces.
    moving: String,
    cache: &'a mut ViewText,
}

impl<'a> StateTexts<'a> {
    /// `cache` is brought up to date with `game` first.
    pub fn new(
        game: &'a Game,
        meta: &GameMeta,
        now: Moment,
        effects: &[tilebag_core::game::Effect],
        cache: &'a mut ViewText,
    ) -> StateTexts<'a> {
        cache.update(game, meta);
        // Written into buffers sized for them at once (grown step by step, they were copied
        // several times over at every view).
        let mut moving = json_text(&Moving::of(game, meta, now), 600 + cache.board.len());
        // The braces off, the board (written when it changed) on.
        moving.pop();
        moving.push_str(",\"board\":");
        moving.push_str(&cache.board);
        moving.remove(0);
        let effects = json_text(effects, 256);
        StateTexts {
            game,
            now,
            effects,
            moving,
            cache,
        }
    }

    /// The `state` message for `audience`, with the whole score sheet.
    pub fn text(&mut self, audience: Audience) -> String {
        self.write(audience, None)
    }

    /// The first score-sheet line a connection fed [`SheetFeed::NewLines`] has not been sent,
    /// if it was sent `had` (none: nothing yet, so the whole sheet).
    pub fn new_lines_from(&self, had: Option<SheetMark>) -> usize {
        match had {
            Some(m) if m.epoch == self.cache.epoch && m.lines <= self.game.history().len() => {
                m.lines
            }
            _ => 0,
        }
    }

    /// What a connection fed [`SheetFeed::NewLines`] has once sent a text of this moment.
    pub fn mark(&self) -> SheetMark {
        SheetMark {
            epoch: self.cache.epoch,
            lines: self.game.history().len(),
        }
    }

    /// The `state` message for `audience` holding the score sheet from line `from` on, and
    /// saying so (`history_from`).
    pub fn text_from(&mut self, audience: Audience, from: usize) -> String {
        self.write(audience, Some(from))
    }

    fn write(&mut self, audience: Audience, from: Option<usize>) -> String {
        let tiles = match audience {
            Audience::Seat(seat) => Some(seat_tiles(self.game, self.now, seat)),
            Audience::Observer => None,
        };
        let sheet_len = self.cache.sheet_for(self.game, audience).len();
        let mut out = String::with_capacity(
            self.cache.fixed.len() + self.moving.len() + sheet_len + self.effects.len() + 300,
        );
        out.push_str("{\"type\":\"state\",\"effects\":");
        out.push_str(&self.effects);
        match audience {
            Audience::Seat(seat) => {
                let _ = write!(out, ",\"view\":{{\"audience\":\"seat\",\"seat\":{seat},");
            }
            Audience::Observer => out.push_str(",\"view\":{\"audience\":\"observer\","),
        }
        out.push_str(&self.cache.fixed);
        out.push(',');
        out.push_str(&self.moving);
        if let Some((rack, unseen)) = tiles {
            out.push_str(",\"rack\":");
            push_json_str(&mut out, &rack);
            out.push_str(",\"unseen\":");
            push_json_str(&mut out, &unseen);
        }
        let i = audience.sheet_index();
        let sheet = &self.cache.sheet[i];
        let lines = match from {
            None => sheet.as_str(),
            Some(from) => {
                let _ = write!(out, ",\"history_from\":{from}");
                match self.cache.starts[i].get(from) {
                    Some(&at) => &sheet[at..],
                    None => "",
                }
            }
        };
        out.push_str(",\"history\":[");
        out.push_str(lines);
        out.push_str("]}}");
        out
    }
}

/// A JSON string.
fn push_json_str(out: &mut String, s: &str) {
    out.push_str(&serde_json::to_string(s).expect("strings serialise"));
}

/// `value` as JSON, written into a buffer of `capacity` bytes to begin with.
fn json_text<T: Serialize + ?Sized>(value: &T, capacity: usize) -> String {
    let mut out = Vec::with_capacity(capacity);
    serde_json::to_writer(&mut out, value).expect("views serialise");
    String::from_utf8(out).expect("serde_json writes UTF-8")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::state_text;
    use tilebag_core::game::Effect;
    use tilebag_core::{Action, Actor, Event, Placement, Position, Ruleset};

    fn meta() -> GameMeta {
        GameMeta {
            id: "g1".into(),
            tokens: ["t0".into(), "t1".into()],
            names: ["Ann \"A\"".into(), "Bo\u{e9}".into()],
            preset: "naspa-2013".into(),
            lexicon: "enable1".into(),
            created_at_ms: 0,
            seeded: false,
            bot: None,
            notes: Vec::new(),
        }
    }

    fn now(seq: u64, at_ms: i64) -> Moment {
        Moment {
            seq,
            at_ms,
            started: true,
            database_down: false,
            director: false,
        }
    }

    fn seat(s: usize, at_ms: i64, action: Action) -> Event {
        Event {
            actor: Actor::Seat(s),
            at_ms,
            action,
        }
    }

    /// A short game that visits every kind of moment (a play pending, a challenge that takes
    /// it off the board, an exchange, a pass, the resignation that ends it), with `at_each`
    /// called at each (the event count and the effects of the last event). Returns the seat that
    /// exchanged and the tiles it exchanged.
    fn a_short_game(mut at_each: impl FnMut(&Game, u64, &[Effect])) -> (Game, usize, Vec<Tile>) {
        let set = TileSet::english();
        let tiles = |s: &str| set.parse_tiles(s).unwrap();
        let mut game = Game::custom(
            Ruleset::preset("naspa-2013").unwrap(),
            7,
            [tiles("CATSXYZ"), tiles("QQIIEE?")],
            tiles("AEIOURSTLNAEIOURSTLN"),
        );
        at_each(&game, 0, &[]);
        let play = Placement::from_gcg(
            game.board(),
            game.layout(),
            game.tile_set(),
            Position::parse("8D", 15).unwrap(),
            "CATS",
        )
        .unwrap();
        let actions = [
            Action::Play { placement: play },
            Action::Hold,
            Action::Challenge { words: vec![] },
            Action::Exchange { tiles: vec![] },
            Action::Pass,
            Action::Resign,
        ];
        let mut exchanged = (0, Vec::new());
        for (i, action) in actions.into_iter().enumerate() {
            // Each action by the seat whose turn it is (a hold and a challenge are the
            // opponent's, and so is the turn then).
            let by = game.to_move();
            let action = match action {
                // Three tiles of the mover's rack.
                Action::Exchange { .. } => {
                    exchanged = (by, game.rack(by)[..3].to_vec());
                    Action::Exchange {
                        tiles: exchanged.1.clone(),
                    }
                }
                a => a,
            };
            let ev = seat(by, 1000 * (i as i64 + 1), action);
            // A judge that knows no word: the challenge takes the play off the board.
            let effects = game
                .apply(&ev, &std::collections::HashSet::<String>::new())
                .unwrap_or_else(|e| panic!("{ev:?}: {e}"));
            if matches!(ev.action, Action::Challenge { .. }) {
                assert_eq!(game.board().tile_count(), 0, "the play was withdrawn");
            }
            at_each(&game, i as u64 + 1, &effects);
        }
        assert!(game.is_over());
        (game, exchanged.0, exchanged.1)
    }

    /// Every audience's text, built once for all, against the view built whole and written by
    /// serde: the same JSON (its fields in another order), at every moment of a game (a play
    /// pending, a challenge that takes it off the board, an exchange, the end that reveals the
    /// racks).
    #[test]
    fn texts_built_once_are_the_views_written_whole() {
        let meta = meta();
        let mut sheet = ViewText::default();
        let (game, by, swapped) = a_short_game(|game, seq, effects| {
            let moment = now(seq, 1000 * seq as i64);
            let mut texts = StateTexts::new(game, &meta, moment, effects, &mut sheet);
            for a in [Audience::Seat(0), Audience::Seat(1), Audience::Observer] {
                let whole = state_text(effects, &view_for(game, &meta, moment, a));
                let built = texts.text(a);
                let parsed: serde_json::Value = serde_json::from_str(&built).unwrap();
                let expected: serde_json::Value = serde_json::from_str(&whole).unwrap();
                assert_eq!(parsed, expected, "{a:?} at event {seq}");
            }
        });
        // The end reveals the exchanged tiles to the other seat: the sheet was written again.
        let set = game.tile_set();
        let swapped_text = format!(
            "\"tiles\":{}",
            serde_json::to_string(&set.tiles_to_string(&swapped)).unwrap()
        );
        let other = sheet.sheet_for(&game, Audience::Seat(1 - by)).to_string();
        assert!(other.contains(&swapped_text), "{other}");
        let observers = sheet.sheet_for(&game, Audience::Observer);
        assert!(!observers.contains(&swapped_text), "{observers}");
    }

    /// A connection fed only new score-sheet lines (`SheetFeed::NewLines`), joining each view's
    /// lines to those it has as the game page does, has at every moment the sheet a whole view
    /// shows; while the game is on each view holds only the lines since the last, and the end
    /// (the racks revealed) sends the whole sheet again.
    #[test]
    fn new_lines_joined_to_those_sent_are_the_whole_sheet_at_every_moment() {
        let meta = meta();
        let mut sheet = ViewText::default();
        let mut has: [Option<SheetMark>; 2] = [None, None];
        let mut joined: [Vec<serde_json::Value>; 2] = [Vec::new(), Vec::new()];
        a_short_game(|game, seq, effects| {
            let moment = now(seq, 1000 * seq as i64);
            let mut texts = StateTexts::new(game, &meta, moment, effects, &mut sheet);
            for s in 0..2 {
                let from = texts.new_lines_from(has[s]);
                let text = texts.text_from(Audience::Seat(s), from);
                has[s] = Some(texts.mark());
                let v: serde_json::Value = serde_json::from_str(&text).unwrap();
                let v = &v["view"];
                assert_eq!(v["history_from"], from, "seat {s} at event {seq}");
                let lines = v["history"].as_array().unwrap();
                joined[s].truncate(from);
                joined[s].extend(lines.iter().cloned());
                let whole = state_text(effects, &view_for(game, &meta, moment, Audience::Seat(s)));
                let whole: serde_json::Value = serde_json::from_str(&whole).unwrap();
                assert_eq!(
                    serde_json::Value::Array(joined[s].clone()),
                    whole["view"]["history"],
                    "seat {s} at event {seq}"
                );
                if game.is_over() {
                    assert_eq!(from, 0, "the end sends the whole sheet again");
                } else {
                    // Only what the last event added: the view no longer grows with the game.
                    assert!(lines.len() <= 1, "seat {s} at event {seq}: {lines:?}");
                }
            }
        });
    }
}
