//! `GET /api/games/{id}/analysis`: the engine's review of an ended game, turn by turn (the move
//! played, its equity, the best moves found with theirs, the equity lost, missed bingos) and per
//! player totals. Only for ended games: during a game it would be help for a player (409).
//!
//! The game's full GCG record (racks included, as anyone may download it once the game is over)
//! is analysed by `tilebag_engine::analysis::analyze` on a blocking thread, with the lexicon the
//! game was judged with; the answer is kept (an ended game never changes).

use crate::api_error::ApiError;
use crate::app_state::AppState;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::sync::Arc;
use tilebag_core::gcg::{parse_gcg, GcgEventKind, GcgRecord};
use tilebag_core::Ruleset;
use tilebag_engine::analysis::{analyze, TurnAnalysis};
use tilebag_engine::grid::{letter_char, N};
use tilebag_engine::{Engine, Move, MoveKind};
use tilebag_live::protocol::ErrorCode;

/// Alternatives listed per turn.
const TOP: usize = 5;

#[derive(Serialize)]
struct MoveDoc {
    /// `8D WORD`, `-ABC` (exchange), `-` (pass).
    text: String,
    kind: &'static str,
    /// The whole main word (blanks lowercase), for a placement.
    #[serde(skip_serializing_if = "Option::is_none")]
    word: Option<String>,
    score: i32,
    equity: f32,
    bingo: bool,
    /// The new tiles `[row, col, letter]` (0-based; lowercase a blank), to preview on the board.
    tiles: Vec<(usize, usize, String)>,
}

#[derive(Serialize)]
struct TurnDoc {
    /// 1-based, in the order of the record.
    n: usize,
    player: usize,
    rack: String,
    played: MoveDoc,
    /// False for a phony (a play forming a word the lexicon lacks).
    valid: bool,
    best: Vec<MoveDoc>,
    equity_lost: f32,
    missed_bingo: bool,
    /// The board before the move: 15 rows, `.` empty, lowercase a blank.
    board: Vec<String>,
    /// Each player's score before the move, as the record has it (issue 29: the page shows the
    /// position of that moment, not the final one).
    scores: [i32; 2],
    /// Each player's rack at that moment, where the record tells it: the mover's is `rack`;
    /// the opponent's is the rack written on its next move (a rack changes only with its
    /// owner's moves), or the rack counted at the end. `null` when the record does not say.
    racks: [Option<String>; 2],
}

#[derive(Serialize)]
struct TotalsDoc {
    moves: usize,
    equity_lost: f32,
    missed_bingos: usize,
    best_played: usize,
}

#[derive(Serialize)]
struct AnalysisDoc<'a> {
    game_id: &'a str,
    lexicon: &'a str,
    players: &'a [String; 2],
    top: usize,
    turns: Vec<TurnDoc>,
    totals: Vec<TotalsDoc>,
}

fn move_doc(m: &Move, grid: &tilebag_engine::Grid, rack_size: usize) -> MoveDoc {
    let tiles = match m.kind {
        MoveKind::Place => (0..usize::from(m.len))
            .filter(|&i| m.tiles[i] != 0)
            .map(|i| {
                let (r, c) = m.square(i);
                (r, c, letter_char(m.tiles[i]).to_string())
            })
            .collect(),
        _ => Vec::new(),
    };
    MoveDoc {
        text: m.notation(),
        kind: match m.kind {
            MoveKind::Place => "play",
            MoveKind::Exchange => "exchange",
            MoveKind::Pass => "pass",
        },
        word: (m.kind == MoveKind::Place).then(|| m.word_on(grid)),
        score: m.score,
        equity: round1(m.equity),
        bingo: m.kind == MoveKind::Place && usize::from(m.tiles_played) == rack_size,
        tiles,
    }
}

fn round1(x: f32) -> f32 {
    (x * 10.0).round() / 10.0
}

/// Each player's score just before record line `line`: the cumulative score of the last line
/// (move or adjustment) of theirs above it.
fn scores_before(record: &GcgRecord, line: usize) -> [i32; 2] {
    let mut last: [(usize, i32); 2] = [(0, 0), (0, 0)];
    let lines = record
        .events
        .iter()
        .map(|e| (e.line, e.player, e.cumulative))
        .chain(
            record
                .adjustments
                .iter()
                .map(|a| (a.line, a.player, a.cumulative)),
        );
    for (l, p, cumulative) in lines {
        if l < line && p < 2 && l >= last[p].0 {
            last[p] = (l, cumulative);
        }
    }
    [last[0].1, last[1].1]
}

/// The rack of `player` at record line `line`, when the record tells it: the rack written on
/// that player's next move at or after it (a rack changes only with its owner's moves), else
/// the rack counted at the end of the game.
fn rack_at(record: &GcgRecord, player: usize, line: usize) -> Option<String> {
    let moves = record.events.iter().filter(|e| {
        e.line >= line
            && matches!(
                e.kind,
                GcgEventKind::Play { .. } | GcgEventKind::Exchange(_) | GcgEventKind::Pass
            )
    });
    let mut next = None;
    for e in moves {
        if e.player == player {
            next = e.rack.clone();
            break;
        }
    }
    let full = |r: &String| !r.is_empty() && r.chars().all(|c| c == '?' || c.is_ascii_uppercase());
    if let Some(r) = next.filter(full) {
        return Some(r);
    }
    let counted = record.events.iter().find_map(|e| match &e.kind {
        GcgEventKind::EndRack { tiles } if e.line >= line => {
            let own = e.player == player && e.score < 0;
            let opponents = e.player != player && e.score > 0;
            (own || opponents).then(|| tiles.clone())
        }
        _ => None,
    });
    counted
        .or_else(|| record.last_racks.get(player).cloned().flatten())
        .filter(full)
}

fn turn_doc(n: usize, t: &TurnAnalysis, rack_size: usize, record: &GcgRecord) -> TurnDoc {
    let played = match &t.played {
        Some(m) => {
            let mut d = move_doc(m, &t.grid, rack_size);
            d.equity = round1(t.played_equity);
            d.text = t.played_text.clone();
            d
        }
        None => MoveDoc {
            text: t.played_text.clone(),
            kind: "other",
            word: None,
            score: 0,
            equity: round1(t.played_equity),
            bingo: false,
            tiles: Vec::new(),
        },
    };
    TurnDoc {
        n,
        player: t.player,
        rack: t.rack.to_string(),
        played,
        valid: t.valid,
        best: t
            .best
            .iter()
            .map(|m| move_doc(m, &t.grid, rack_size))
            .collect(),
        equity_lost: round1(t.equity_lost),
        missed_bingo: t.missed_bingo,
        board: (0..N)
            .map(|r| (0..N).map(|c| letter_char(t.grid.get(r, c))).collect())
            .collect(),
        scores: scores_before(record, t.line),
        racks: {
            let mut racks = [None, None];
            for (p, slot) in racks.iter_mut().enumerate() {
                *slot = if p == t.player {
                    Some(t.rack.to_string())
                } else {
                    rack_at(record, p, t.line + 1)
                };
            }
            racks
        },
    }
}

/// `GET /api/games/{id}/analysis`.
pub(crate) async fn get_analysis(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let handle = app.hub.get(&id).await?;
    if !handle.is_ended() {
        return Err(ApiError::new(
            ErrorCode::NotAllowed,
            "a game is analysed once it is over (during the game it would help a player)",
        ));
    }
    let slot = app.hub.analyses.slot(&id);
    let hub = app.hub.clone();
    let result = slot
        .get_or_init(|| async move {
            let meta = handle.meta.clone();
            let gen = hub.engines.prepare(&meta.lexicon).await.map_err(|e| {
                (
                    ErrorCode::BadRequest,
                    format!("cannot analyse this game: {e}"),
                )
            })?;
            let gcg = handle
                .gcg()
                .await
                .map_err(|e| (ErrorCode::Unavailable, e.to_string()))?;
            let ruleset = Ruleset::preset(&meta.preset)
                .map_err(|e| (ErrorCode::BadRequest, e.to_string()))?;
            let job = tokio::task::spawn_blocking(move || {
                let tables = Engine::tables_for(&ruleset).map_err(|e| {
                    (
                        ErrorCode::BadRequest,
                        format!("the engine cannot analyse these rules: {e}"),
                    )
                })?;
                let record =
                    parse_gcg(gcg.as_bytes()).map_err(|e| (ErrorCode::Internal, e.to_string()))?;
                let engine = gen.engine(&tables, ruleset.exchange_min_bag);
                let (turns, totals) = analyze(&record, &engine, TOP).map_err(|e| {
                    (
                        ErrorCode::Internal,
                        format!("the record cannot be analysed: {e}"),
                    )
                })?;
                let rack_size = ruleset.rack_size;
                let doc = AnalysisDoc {
                    game_id: &meta.id,
                    lexicon: &meta.lexicon,
                    players: &meta.names,
                    top: TOP,
                    turns: turns
                        .iter()
                        .enumerate()
                        .map(|(i, t)| turn_doc(i + 1, t, rack_size, &record))
                        .collect(),
                    totals: (0..2)
                        .map(|p| TotalsDoc {
                            moves: totals.moves[p],
                            equity_lost: round1(totals.equity_lost[p]),
                            missed_bingos: totals.missed_bingos[p],
                            best_played: totals.best_played[p],
                        })
                        .collect(),
                };
                Ok(Arc::new(
                    serde_json::to_string(&doc).expect("analyses serialise"),
                ))
            });
            job.await
                .map_err(|e| (ErrorCode::Internal, format!("the analysis failed: {e}")))?
        })
        .await
        .clone();
    match result {
        Ok(text) => Ok((
            [(header::CONTENT_TYPE, "application/json")],
            text.as_str().to_string(),
        )
            .into_response()),
        Err((code, message)) => {
            if code == ErrorCode::Internal {
                tracing::error!(game = %id, "{message}");
            }
            Err(ApiError::new(code, message))
        }
    }
}
