//! The director's guards, shared by `tilebag td` and the director's pages (issue 13): the games
//! of a round still missing a result (tsh's `missing`), the rounds that keep a division from
//! being submitted for rating, and scores unusual enough to ask the director to confirm them.

use crate::model::{Division, Pairing, PlayerId};

/// A game (or bye) of a round whose result is not in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Missing {
    /// The board, for a game; `None` for a bye with no score yet.
    pub board: Option<u32>,
    pub players: Vec<PlayerId>,
    /// `board 3: #5 (Eve) v #6 (Fay)` or `bye: #7 (Gil) (no score yet)`.
    pub text: String,
}

/// The games of `round` with no result, by board, then the byes with no score yet; empty when
/// the round is complete or not paired.
pub fn missing(d: &Division, round: u32) -> Vec<Missing> {
    let Some(r) = d.round(round) else {
        return Vec::new();
    };
    let mut out: Vec<Missing> = r
        .pairings
        .iter()
        .filter_map(|p| match p {
            Pairing::Game(g) if g.result.is_none() => Some(Missing {
                board: Some(g.board),
                players: vec![g.first, g.second],
                text: format!(
                    "board {}: {} v {}",
                    g.board,
                    d.who(g.first),
                    d.who(g.second)
                ),
            }),
            Pairing::Bye {
                player,
                pending: true,
                ..
            } => Some(Missing {
                board: None,
                players: vec![*player],
                text: format!("bye: {} (no score yet)", d.who(*player)),
            }),
            _ => None,
        })
        .collect();
    out.sort_by_key(|m| (m.board.is_none(), m.board, m.players.clone()));
    out
}

/// The paired rounds with a result still out, which keep the division from being submitted for
/// rating (a rating authority rates complete rounds).
pub fn incomplete_rounds(d: &Division) -> Vec<u32> {
    (1..=d.rounds.len() as u32)
        .filter(|&r| !d.round_complete(r))
        .collect()
}

/// Why the division cannot be submitted for rating yet, naming the rounds; `None` when it can.
pub fn submission_refusal(d: &Division) -> Option<String> {
    if d.rounds.is_empty() {
        return Some(format!("division {}: no round has been played", d.name));
    }
    let open = incomplete_rounds(d);
    if open.is_empty() {
        return None;
    }
    let list: Vec<String> = open.iter().map(|r| format!("round {r}")).collect();
    Some(format!(
        "division {}: results are missing in {}",
        d.name,
        list.join(", ")
    ))
}

/// What is unusual about a game's scores, for the director to confirm before they are entered:
/// a score under 100 or over 800, a spread over 500 (tsh asks the same). Empty when nothing is.
pub fn unusual_scores(score: i32, opponent_score: i32) -> Vec<String> {
    let mut odd = Vec::new();
    for s in [score, opponent_score] {
        if s < 100 {
            odd.push(format!("a score of {s} is under 100"));
        } else if s > 800 {
            odd.push(format!("a score of {s} is over 800"));
        }
    }
    let spread = (score - opponent_score).abs();
    if spread > 500 {
        odd.push(format!("a spread of {spread} is over 500"));
    }
    odd
}

#[cfg(test)]
mod tests {
    use super::unusual_scores;

    #[test]
    fn unusual_scores_name_each_reason() {
        assert!(unusual_scores(400, 300).is_empty());
        // The limits themselves are fine: 100, 800, and a spread of exactly 500.
        assert!(unusual_scores(100, 600).is_empty());
        assert!(unusual_scores(800, 300).is_empty());
        assert_eq!(unusual_scores(99, 300), ["a score of 99 is under 100"]);
        // 850 − 320 = 530 > 500.
        assert_eq!(
            unusual_scores(850, 320),
            ["a score of 850 is over 800", "a spread of 530 is over 500"]
        );
        // 620 − 110 = 510 > 500, both scores in range.
        assert_eq!(unusual_scores(110, 620), ["a spread of 510 is over 500"]);
    }
}
