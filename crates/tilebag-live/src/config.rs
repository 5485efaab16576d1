//! What the live games are told: the lexicons they judge and play with, the defaults of a new
//! game, the limits on each connection and the quotas on waiting games ([`LiveConfig`], filled
//! from `tilebag serve`'s own configuration).

use crate::quota::Quotas;
use std::collections::HashMap;
use std::sync::Arc;
use tilebag_core::WordJudge;

/// A lexicon the server can judge words with.
pub type Judge = Arc<dyn WordJudge + Send + Sync>;

/// What the live games are told.
#[derive(Clone)]
pub struct LiveConfig {
    /// The lexicons games may name, by name.
    pub lexicons: HashMap<String, Judge>,
    /// The lexicon of a game created without one. Must be a key of `lexicons`.
    pub default_lexicon: String,
    /// The preset of a game created without one.
    pub default_preset: String,
    /// The lexicons the computer can play with and analyse games in, by the same names.
    pub word_sources: HashMap<String, Arc<tilebag_lexicon::WordSource>>,
    /// The leave tables of the lexicons that have their own (by the same names); the others
    /// play with the built-in values.
    pub leaves: HashMap<String, Arc<tilebag_engine::LeaveTable>>,
    /// Game milliseconds per real millisecond (1.0; only tests change it).
    pub time_scale: f64,
    /// Per-connection limits.
    pub limits: Limits,
    /// The cap on games waiting for players, and their expiry.
    pub quotas: Quotas,
    /// `POST /api/games` may choose the bag's seed (tests, benchmarks and analysis only).
    pub allow_seeds: bool,
}

/// Limits on each WebSocket connection.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The largest message a client may send (16 KiB).
    pub max_message_bytes: usize,
    /// Token bucket: messages per second refilled (10) and the burst allowed (20). Past it the
    /// server sends a `rate-limited` error and closes with 1008 (policy violation).
    pub messages_per_second: f64,
    pub burst: f64,
    /// Watchers (observer connections) of one game at most (5,000); past it a new one is
    /// refused `too-many-watchers`. 0 = no cap.
    pub max_watchers_per_game: usize,
    /// Connections on one seat at most (4): a new one replaces the oldest, which is told
    /// `replaced` and closed. 0 = no cap.
    pub max_connections_per_seat: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_message_bytes: 16 * 1024,
            messages_per_second: 10.0,
            burst: 20.0,
            max_watchers_per_game: 5000,
            max_connections_per_seat: 4,
        }
    }
}
