//! Games of accounts: which account sat at which seat of a live game, and how the game counts
//! (rated online, a game of a tournament event, correspondence). Plain rows and one trait,
//! [`SeatStore`], implemented by both stores (a holder of a [`super::Store`] reaches it with
//! `Store::seats`). A guest's seat has no row: a game with no row at all is a guests' game.
//!
//! Table (migration 3, both databases):
//!
//! ```text
//! game_seats (game_id → games, seat 0|1, account_id → accounts, rated, event, correspondence,
//!             category, created_ms)   PK (game_id, seat)
//!             indexed by (account_id, created_ms) and by created_ms
//! ```
//!
//! A rated game is never an event's game: a director's event is rated by the rating body's own
//! estimates (NASPA/WESPA), kept apart from the online Glicko-2 ratings, so a row with both
//! `rated` and `event` set is refused.

use super::{GameRecord, StoreError, StoreFuture};

/// One seat of a live game held by an account (guests' seats have no row).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatLink {
    pub game_id: String,
    /// 0 (moves first) or 1.
    pub seat: u8,
    pub account_id: i64,
    /// Counts for the online Glicko-2 rating.
    pub rated: bool,
    /// A game of a tournament event (NASPA I.D, I.G).
    pub event: bool,
    pub correspondence: bool,
    /// `tilebag_accounts::glicko2::RatingCategory::key()`, e.g. `ENABLE1.blitz`.
    pub category: String,
    /// Wall clock, Unix milliseconds.
    pub created_ms: i64,
}

/// A game an account sat at, with the game's stored record (names, status, result, bot seat).
#[derive(Debug, Clone)]
pub struct AccountGame {
    pub link: SeatLink,
    pub game: GameRecord,
}

/// The longest category key kept (`lexicon/class`; lexicon names are short).
pub const MAX_CATEGORY_LEN: usize = 64;

/// Where the seats of accounts' games last. Every write is durable when its future resolves.
pub trait SeatStore: Send + Sync {
    /// Record the accounts at a game's seats (one or two rows); sending the same rows again is a
    /// no-op. Rows that disagree with what a seat already holds are refused, and nothing of the
    /// call is written. The game and the accounts must exist (foreign keys).
    fn link_seats<'a>(&'a self, links: &'a [SeatLink]) -> StoreFuture<'a, ()>;
    /// A game's rows, by seat.
    fn seats_of_game<'a>(&'a self, game_id: &'a str) -> StoreFuture<'a, Vec<SeatLink>>;
    /// The account's games, newest first, at most `limit`. A game whose stored row cannot be
    /// read is left out (it is reported at start-up).
    fn games_of_account(&self, account_id: i64, limit: usize) -> StoreFuture<'_, Vec<AccountGame>>;
    /// The account's games whose status is still live (for NASPA I.G), oldest first.
    fn unfinished_games_of_account(&self, account_id: i64) -> StoreFuture<'_, Vec<SeatLink>>;
    /// Ended games with two rated seats where some seat's account has no point of rating
    /// history for the game yet (they ended while nothing was rating them): their ids, in the
    /// order they ended, at most `limit`.
    fn unrated_ended_games(&self, limit: usize) -> StoreFuture<'_, Vec<String>>;
}

/// The columns both backends read, in the order their row readers expect.
pub(crate) const SEAT_COLUMNS: &str =
    "game_id, seat, account_id, rated, event, correspondence, category, created_ms";

/// The same columns of the table aliased `s`.
pub(crate) const S_SEAT_COLUMNS: &str = "s.game_id, s.seat, s.account_id, s.rated, s.event, \
     s.correspondence, s.category, s.created_ms";

/// What a call to `link_seats` may hold: one game's seats, one row each, at most two, each
/// well formed. Every problem is named.
pub(crate) fn check_links(links: &[SeatLink]) -> Result<(), StoreError> {
    let bad = |m: String| Err(StoreError::Other(m));
    let Some(first) = links.first() else {
        return bad("no seat to link: a game's seats are one or two rows".into());
    };
    if links.len() > 2 {
        return bad(format!(
            "{} seats to link for game {}: a game has two seats",
            links.len(),
            first.game_id
        ));
    }
    for l in links {
        if l.game_id != first.game_id {
            return bad(format!(
                "seats of two games ({} and {}) in one call: link one game's seats at a time",
                first.game_id, l.game_id
            ));
        }
        if l.seat > 1 {
            return bad(format!(
                "game {}: seat {} does not exist (seats are 0 and 1)",
                l.game_id, l.seat
            ));
        }
        if l.rated && l.event {
            return bad(format!(
                "game {} seat {}: an event's game is never rated online (the event's own \
                 rating body rates it)",
                l.game_id, l.seat
            ));
        }
        if l.category.is_empty() || l.category.len() > MAX_CATEGORY_LEN {
            return bad(format!(
                "game {} seat {}: a rating category of {} bytes (1 to {MAX_CATEGORY_LEN})",
                l.game_id,
                l.seat,
                l.category.len()
            ));
        }
    }
    if let [a, b] = links {
        if a.seat == b.seat {
            return bad(format!("game {}: seat {} given twice", a.game_id, a.seat));
        }
        if a.rated && b.rated && a.account_id == b.account_id {
            return bad(format!(
                "game {}: account {} at both seats cannot be rated against itself",
                a.game_id, a.account_id
            ));
        }
    }
    Ok(())
}

/// After writing, the stored rows must be the ones asked for: a seat already held by another
/// row is an error naming it.
pub(crate) fn check_stored(links: &[SeatLink], stored: &[SeatLink]) -> Result<(), StoreError> {
    for l in links {
        match stored.iter().find(|s| s.seat == l.seat) {
            Some(s) if s == l => {}
            Some(s) => {
                return Err(StoreError::Other(format!(
                    "game {} seat {} is linked already to account {} ({}); it cannot be \
                     linked again as {:?}",
                    l.game_id, l.seat, s.account_id, s.category, l
                )))
            }
            None => {
                return Err(StoreError::Other(format!(
                    "game {} seat {}: the link was not stored",
                    l.game_id, l.seat
                )))
            }
        }
    }
    Ok(())
}
