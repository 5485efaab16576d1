//! Writing a game played through the engine as a GCG record (the other direction from the
//! verifier: the record this writes must replay to the same scores).

use crate::game::{EndReason, Game, Phase, Turn, TurnKind};
use crate::gcg::{
    ExchangedTiles, GcgAdjustment, GcgEnding, GcgEvent, GcgEventKind, GcgPlayer, GcgRecord,
};

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
