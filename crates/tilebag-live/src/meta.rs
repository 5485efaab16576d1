//! A game's fixed facts, shared by the game's task (`live`) and the views (`view`).

use tilebag_store::BotSeat;

/// A game's fixed facts.
#[derive(Debug, Clone)]
pub struct GameMeta {
    pub id: String,
    pub tokens: [String; 2],
    pub names: [String; 2],
    pub preset: String,
    pub lexicon: String,
    pub created_at_ms: i64,
    /// The creator chose the seed (`serve --allow-seeds`): shown in every view and the GCG.
    pub seeded: bool,
    /// The computer's seat, in a game against the computer.
    pub bot: Option<BotSeat>,
    /// Notes for the game's record from the service itself (a takeover by another process:
    /// `live.rs`); its GCG shows them.
    pub notes: Vec<String>,
}

impl GameMeta {
    /// A stored game's fixed facts, with the service's notes for its record.
    pub fn of_record(rec: tilebag_store::GameRecord, notes: Vec<String>) -> GameMeta {
        GameMeta {
            id: rec.id,
            tokens: rec.tokens,
            names: rec.names,
            preset: rec.preset,
            lexicon: rec.lexicon,
            created_at_ms: rec.created_at_ms,
            seeded: rec.seeded,
            bot: rec.bot,
            notes,
        }
    }

    /// The seat a token opens, if any. The computer's seat opens to no token: only its actor
    /// (`bot.rs`) plays it.
    pub fn seat_for_token(&self, token: &str) -> Option<usize> {
        (0..2)
            .filter(|&s| self.bot.as_ref().is_none_or(|b| b.seat != s))
            .find(|&s| crate::ids::same_secret(&self.tokens[s], token))
    }
}
