//! Game analysis: for each move of a record, the move played, its equity, the best moves found
//! and the equity lost.

use crate::engine::{Engine, Situation};
use crate::grid::Grid;
use crate::moves::{Move, MoveKind};
use crate::rack::Rack;
use tilebag_core::gcg::{ExchangedTiles, GcgEventKind, GcgRecord};
use tilebag_core::replay::Replayer;
use tilebag_core::{Placement, Position};

/// One analysed move.
#[derive(Clone, Debug)]
pub struct TurnAnalysis {
    /// The record's line.
    pub line: usize,
    pub player: usize,
    pub rack: Rack,
    /// The move as the record writes it.
    pub played_text: String,
    /// The move played, if it could be read as one (a phony is still a placement).
    pub played: Option<Move>,
    /// Its equity, by the engine's own evaluation (a phony: its score and leave).
    pub played_equity: f32,
    /// Whether the move played forms only words of the lexicon (false for a phony).
    pub valid: bool,
    /// The best moves found (best first).
    pub best: Vec<Move>,
    /// Best equity minus the played move's (0 when the best was played).
    pub equity_lost: f32,
    /// A bingo was available and not played.
    pub missed_bingo: bool,
    /// The board before the move.
    pub grid: Grid,
}

/// Per player totals.
#[derive(Clone, Debug, Default)]
pub struct Totals {
    pub moves: [usize; 2],
    pub equity_lost: [f32; 2],
    pub missed_bingos: [usize; 2],
    pub best_played: [usize; 2],
}

/// Why a record cannot be analysed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct AnalysisError {
    pub line: usize,
    pub message: String,
}

/// Analyses every move whose full rack the record gives (a partial or `UNKNOWN` rack is
/// skipped: the alternatives cannot be known).
pub fn analyze(
    record: &GcgRecord,
    engine: &Engine<'_>,
    top: usize,
) -> Result<(Vec<TurnAnalysis>, Totals), AnalysisError> {
    let mut r = Replayer::new(record);
    let mut out = Vec::new();
    let mut totals = Totals::default();
    let rack_size = engine.tables.rack_size;
    while let Some(ev) = r.peek() {
        let analysable = matches!(
            ev.kind,
            GcgEventKind::Play { .. } | GcgEventKind::Exchange(_) | GcgEventKind::Pass
        );
        let rack = ev
            .rack
            .as_deref()
            .and_then(|s| Rack::parse(s).ok())
            .filter(|rk| !rk.is_empty());
        if let (true, Some(rack)) = (analysable, rack) {
            let grid = Grid::from_board(&r.board);
            let unseen_all = Rack::from_tiles(&r.unseen());
            let full = rack.len() == rack_size || unseen_all.len() <= rack_size * 2;
            if full && unseen_all.contains(&rack) {
                let unseen = unseen_all.minus(&rack);
                let me = ev.player;
                let s = Situation {
                    grid: grid.clone(),
                    rack,
                    unseen,
                    bag_len: unseen.len().saturating_sub(rack_size),
                    scores: [r.scores[me], r.scores[1 - me]],
                    zeros: 0,
                };
                let moves = engine.moves(&s);
                let best_move = engine.best(&s);
                let mut best: Vec<Move> = Vec::with_capacity(top + 1);
                best.push(best_move);
                // On the empty board a down play is the mirror of an across play (same word,
                // same score): list one of the two, so the alternatives are real choices.
                let first_move = grid.is_empty();
                for m in &moves {
                    if best.len() >= top.max(1) {
                        break;
                    }
                    let mirrored = first_move && best.iter().any(|b| mirrors(b, m));
                    if !m.same_as(&best_move) && !mirrored {
                        best.push(*m);
                    }
                }
                let played = played_move(&r, &ev.kind, &grid, ev.score);
                let found = played
                    .as_ref()
                    .and_then(|p| moves.iter().find(|m| m.same_as(p)).copied());
                let endgame = s.bag_len == 0;
                let played_equity = match (&found, endgame) {
                    (Some(m), false) => m.equity,
                    (Some(m), true) => engine.endgame_value(&s, m),
                    (None, _) => played.map_or(0.0, |p| {
                        p.score as f32 + engine.leaves.value(&rack.minus(&p.used()))
                    }),
                };
                let best_equity = best_move.equity.max(played_equity);
                let lost = (best_equity - played_equity).max(0.0);
                let missed_bingo = moves
                    .iter()
                    .any(|m| m.kind == MoveKind::Place && usize::from(m.tiles_played) == rack_size)
                    && played.is_none_or(|p| usize::from(p.tiles_played) != rack_size);
                totals.moves[me] += 1;
                totals.equity_lost[me] += lost;
                totals.missed_bingos[me] += usize::from(missed_bingo);
                totals.best_played[me] += usize::from(lost < 0.01);
                out.push(TurnAnalysis {
                    line: ev.line,
                    player: me,
                    rack,
                    played_text: event_text(&ev.kind),
                    played: found.or(played),
                    played_equity,
                    valid: found.is_some() || !matches!(ev.kind, GcgEventKind::Play { .. }),
                    best,
                    equity_lost: lost,
                    missed_bingo,
                    grid,
                });
            }
        }
        match r.step() {
            Ok(true) => {}
            Ok(false) => break,
            Err(e) => {
                return Err(AnalysisError {
                    line: e.line,
                    message: e.message,
                })
            }
        }
    }
    Ok((out, totals))
}

fn played_move(r: &Replayer<'_>, kind: &GcgEventKind, grid: &Grid, score: i32) -> Option<Move> {
    match kind {
        GcgEventKind::Play { position, word } => {
            let pos = Position::parse(position, r.layout.size).ok()?;
            let p: Placement = Placement::from_gcg(&r.board, &r.layout, &r.set, pos, word).ok()?;
            Move::from_placement(&p, grid, score)
        }
        GcgEventKind::Exchange(ExchangedTiles::Known(tiles)) => {
            Some(Move::exchange(&Rack::parse(tiles).ok()?))
        }
        GcgEventKind::Pass => Some(Move::pass()),
        _ => None,
    }
}

fn event_text(kind: &GcgEventKind) -> String {
    match kind {
        GcgEventKind::Play { position, word } => format!("{position} {word}"),
        GcgEventKind::Exchange(ExchangedTiles::Known(t)) => format!("-{t}"),
        GcgEventKind::Exchange(ExchangedTiles::Count(n)) => format!("-{n}"),
        GcgEventKind::Pass => "-".into(),
        _ => String::new(),
    }
}

/// Whether two placements are each other's mirror image across the board's diagonal: the same
/// tiles in the same order, one across and one down from the transposed square.
pub fn mirrors(a: &Move, b: &Move) -> bool {
    a.kind == MoveKind::Place
        && b.kind == MoveKind::Place
        && a.direction != b.direction
        && (a.row, a.col) == (b.col, b.row)
        && a.len == b.len
        && a.tiles[..usize::from(a.len)] == b.tiles[..usize::from(b.len)]
}
