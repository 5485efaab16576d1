//! `GET /api/games/{id}/analysis`: the engine's review of an ended game, turn by turn (the move
//! played, its equity, the best moves found with theirs, the equity lost, missed bingos) and per
//! player totals. Only for ended games: during a game it would be help for a player (409).
//!
//! The game's full GCG record (racks included, as anyone may download it once the game is over)
//! is analysed by `tilebag_engine::analysis::analyze` on a blocking thread, with the lexicon the
//! game was judged with; the answer is kept (an ended game never changes).

use crate::api_error::ApiError;
use crate::app_state::AppState;
use crate::protocol::ErrorCode;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use std::sync::Arc;
use tilebag_core::gcg::parse_gcg;
use tilebag_core::Ruleset;
use tilebag_engine::analysis::{analyze, TurnAnalysis};
use tilebag_engine::grid::{letter_char, N};
use tilebag_engine::{Engine, Leaves, Move, MoveKind};

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

fn turn_doc(n: usize, t: &TurnAnalysis, rack_size: usize) -> TurnDoc {
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
                let engine = Engine::new(
                    gen.lexicon(),
                    &tables,
                    Leaves::enable(),
                    ruleset.exchange_min_bag,
                );
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
                        .map(|(i, t)| turn_doc(i + 1, t, rack_size))
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
                eprintln!("tilebag-server: game {id}: {message}");
            }
            Err(ApiError::new(code, message))
        }
    }
}
