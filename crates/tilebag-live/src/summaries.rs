//! The other processes' games as the lists show them (several processes, `cluster.rs`): each
//! process publishes, a few times a second at most, the summaries of its games that changed
//! (`tilebag.summaries`: scores, whose turn, the result, whether it started), and keeps the
//! others' in a map, so that `GET /api/games`, the lobby and the director's pages show a game's
//! live scores on every process, and their live pages are told of every change, wherever the
//! game runs.

use crate::game_handle::Summary;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::sync::Mutex;

/// The subject the summaries go out on.
pub const SUBJECT: &str = "tilebag.summaries";

/// At most this many games in one message (a process with more changed sends several).
pub const PER_MESSAGE: usize = 200;

/// One game's line in the lists.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Line {
    pub id: String,
    pub summary: Summary,
    pub started: bool,
    pub ended: bool,
}

/// What a process sends.
#[derive(Debug, Serialize, Deserialize)]
pub struct Note {
    pub from: String,
    pub games: Vec<Line>,
}

/// The games other processes run, as they last said.
#[derive(Default)]
pub struct Elsewhere {
    games: Mutex<HashMap<String, Line>>,
}

impl Elsewhere {
    /// Takes in another process's note (a note of this process's own is ignored); whether
    /// anything changed.
    pub fn take(&self, me: &str, note: Note) -> bool {
        if note.from == me || note.games.is_empty() {
            return false;
        }
        let mut games = self.games.lock().expect("elsewhere lock");
        for line in note.games {
            games.insert(line.id.clone(), line);
        }
        true
    }

    pub fn get(&self, id: &str) -> Option<Line> {
        self.games.lock().expect("elsewhere lock").get(id).cloned()
    }

    /// Forgets `id` (this process runs it now: its own summary is the truth).
    pub fn forget(&self, id: &str) {
        self.games.lock().expect("elsewhere lock").remove(id);
    }

    /// Forgets the ended games (they are read from the store like any finished game).
    pub fn forget_ended(&self) {
        self.games
            .lock()
            .expect("elsewhere lock")
            .retain(|_, l| !l.ended);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(id: &str, seq: u64) -> Line {
        Line {
            id: id.into(),
            summary: Summary {
                scores: [10, 20],
                to_move: 1,
                seq,
                result: None,
                paused: None,
            },
            started: true,
            ended: false,
        }
    }

    #[test]
    fn another_process_s_note_is_kept_and_one_s_own_is_not() {
        let e = Elsewhere::default();
        let mine = Note {
            from: "alpha".into(),
            games: vec![line("g1", 3)],
        };
        assert!(!e.take("alpha", mine));
        assert!(e.get("g1").is_none());
        let theirs = Note {
            from: "beta".into(),
            games: vec![line("g1", 4)],
        };
        assert!(e.take("alpha", theirs));
        assert_eq!(e.get("g1").unwrap().summary.seq, 4);
        // The wire form reads back as it was sent.
        let text = serde_json::to_string(&Note {
            from: "beta".into(),
            games: vec![line("g2", 9)],
        })
        .unwrap();
        let back: Note = serde_json::from_str(&text).unwrap();
        assert_eq!(
            (back.games[0].id.as_str(), back.games[0].summary.scores),
            ("g2", [10, 20])
        );
        e.forget("g1");
        assert!(e.get("g1").is_none());
    }
}
