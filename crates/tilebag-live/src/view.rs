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

pub fn seat_view(game: &Game, meta: &GameMeta, now: Moment, seat: usize) -> SeatView {
    let set = game.tile_set();
    let over = game.is_over();
    // NASPA II.A: nobody studies a rack while the clock is stopped. Nor before it has started:
    // the first player's clock starts as soon as they have seen a tile (NASPA III.F, WESPA 2.2,
    // SANSPA 6.5), so a seat sees its rack only once the game has started.
    let stopped = game.paused().is_some() || (!now.started && !over);
    SeatView {
        audience: "seat",
        seat,
        table: table(game, meta, now),
        rack: if stopped {
            String::new()
        } else {
            sorted_tiles(set, game.rack(seat))
        },
        unseen: if stopped {
            String::new()
        } else {
            set.tiles_to_string(&game.unseen_for(seat))
        },
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
        at_ms,
        started,
        database_down,
        director,
    } = now;
    let set = game.tile_set();
    let scores = game.scores();
    let size = game.board().size();
    let board = (0..size)
        .map(|r| {
            (0..size)
                .map(|c| {
                    game.board()
                        .get(Square::new(r as u8, c as u8))
                        .map_or('.', |t| set.placed_char(t))
                })
                .collect()
        })
        .collect();
    let at_ms = at_ms.max(game.clocks().last_ms);
    let c = if game.is_over() {
        game.clocks()
    } else {
        game.clocks_at(at_ms)
    };
    // Until the game starts no clock runs (game time stands at 0, so the clocks are full), nor
    // while it is neutralised or the database is down.
    let running = if started && game.paused().is_none() && !database_down {
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
    let phase = match game.phase() {
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
    };
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
        citations: CitationsView {
            resigning: game.ruleset().citation(Rule::Resigning),
            leaving: game.ruleset().citation(Rule::LeavingTheGame),
        },
        resignation_offer: game.resignation_offer(),
        director,
        at_ms,
        seq,
        started,
        paused: game.paused(),
        database_down,
        board,
        bag_count: game.bag_len(),
        to_move: game.to_move(),
        clocks,
        phase,
        zero_run: game.zero_run(),
        result: result_view(game),
    }
}
