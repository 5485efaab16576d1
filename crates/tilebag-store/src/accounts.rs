//! Players online, as stored: accounts, their sessions, their ratings and the history of those
//! ratings. Plain rows and one trait, [`AccountStore`], implemented by both stores (a holder of a
//! [`super::Store`] reaches it with `Store::accounts`). The rules (usernames and their
//! look-alike skeletons, password hashing, session tokens and expiry, Glicko-2) live in
//! `tilebag-accounts`; the store keeps what they compute and never sees a password or a token:
//!
//! - an account's `skeleton` is computed by the caller from the username, and is unique: a
//!   second account whose name looks like the first is refused by the database's unique index
//!   ([`AccountStore::create_account`] answers `None`), so two sign-ups at once cannot both win;
//! - `password_hash` is a PHC string (`$argon2id$v=19$...`), stored as given;
//! - a session is stored under the hash of its token (`token_hash`), never the token itself.
//!
//! Tables (migration 2, both databases):
//!
//! ```text
//! accounts (id PK (assigned), username, skeleton UNIQUE, password_hash, email NULL,
//!           created_ms, role 'player'|'moderator', muted_until_ms NULL, banned)
//! sessions (token_hash PK, account_id → accounts, created_ms, last_seen_ms)
//!           indexed by account_id and by last_seen_ms
//! ratings (account_id → accounts, category, rating, deviation, volatility, games,
//!          updated_ms)   PK (account_id, category)
//! rating_history (account_id → accounts, category, game_id, rating, deviation, at_ms)
//!          PK (account_id, category, game_id), indexed by (account_id, category, at_ms)
//! ```

use super::{StoreError, StoreFuture};

/// What an account may do beyond playing.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Role {
    Player,
    /// May mute and ban players.
    Moderator,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Player => "player",
            Role::Moderator => "moderator",
        }
    }

    pub fn parse(s: &str) -> Option<Role> {
        match s {
            "player" => Some(Role::Player),
            "moderator" => Some(Role::Moderator),
            _ => None,
        }
    }
}

/// A stored role; one the server does not know is an error, never taken for a player's (the
/// tables' `CHECK` keeps any other out, so only a hand-edited database has one).
pub(crate) fn decode_role(account_id: i64, role: &str) -> Result<Role, StoreError> {
    Role::parse(role).ok_or_else(|| {
        StoreError::Other(format!(
            "account {account_id}: its role {role:?} is none the server knows (player, moderator)"
        ))
    })
}

/// An account to create. It starts as a player, neither muted nor banned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewAccount {
    /// As the player typed it (shown to others).
    pub username: String,
    /// The username's look-alike skeleton (`tilebag_accounts::username::skeleton`): unique.
    pub skeleton: String,
    /// The password's PHC string.
    pub password_hash: String,
    pub email: Option<String>,
    /// Wall clock, Unix milliseconds.
    pub created_ms: i64,
}

/// An account's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Account {
    /// Assigned by the database, never reused.
    pub id: i64,
    pub username: String,
    pub skeleton: String,
    pub password_hash: String,
    pub email: Option<String>,
    pub created_ms: i64,
    pub role: Role,
    /// Muted (may not chat) until then, Unix milliseconds; `None`: never muted or unmuted.
    pub muted_until_ms: Option<i64>,
    pub banned: bool,
}

impl Account {
    /// Whether this row is the one `new` made: every field it was created with is the same (the
    /// password hash carries a random salt, so another sign-up never matches). A write retried
    /// after its answer was lost finds its own row this way, and is not told the name is taken.
    pub(crate) fn was_made_by(&self, new: &NewAccount) -> bool {
        self.username == new.username
            && self.skeleton == new.skeleton
            && self.password_hash == new.password_hash
            && self.email == new.email
            && self.created_ms == new.created_ms
    }
}

/// A session's row: the account signed in, under the hash of the cookie's token.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRow {
    /// `tilebag_accounts::session::TokenHash` as text (the token itself is never stored).
    pub token_hash: String,
    pub account_id: i64,
    /// Wall clock, Unix milliseconds.
    pub created_ms: i64,
    /// When it was last used, as last written back ([`AccountStore::touch_session`]).
    pub last_seen_ms: i64,
}

/// An account's rating in one category.
#[derive(Debug, Clone, PartialEq)]
pub struct Rating {
    pub account_id: i64,
    /// Lexicon and time-control class, e.g. `enable1/blitz`.
    pub category: String,
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games in this category.
    pub games: u32,
    /// When it last changed, Unix milliseconds.
    pub updated_ms: i64,
}

/// One step of a rating's history: the rating after a game.
#[derive(Debug, Clone, PartialEq)]
pub struct RatingPoint {
    pub account_id: i64,
    pub category: String,
    /// The rated game (`games.id`). A game changes an account's rating in a category once.
    pub game_id: String,
    pub rating: f64,
    pub deviation: f64,
    /// Unix milliseconds.
    pub at_ms: i64,
}

/// Where accounts, sessions and ratings last. Every write is durable when its future resolves.
/// A method that names an account that does not exist answers `false`/`None`/empty for reads
/// and updates; creating a session or recording a rating for one fails (a foreign key).
pub trait AccountStore: Send + Sync {
    /// Create an account; its id, or `None` when its skeleton is taken (the unique index decides,
    /// so of two sign-ups at once exactly one gets the name). Sending the very same `NewAccount`
    /// again (a retry) answers the id it was given.
    fn create_account<'a>(&'a self, new: &'a NewAccount) -> StoreFuture<'a, Option<i64>>;
    /// The account whose username has this skeleton (how a sign-in finds it).
    fn account_by_skeleton<'a>(&'a self, skeleton: &'a str) -> StoreFuture<'a, Option<Account>>;
    fn account_by_id(&self, id: i64) -> StoreFuture<'_, Option<Account>>;
    /// Replace the password's hash; whether the account exists.
    fn set_password<'a>(&'a self, id: i64, password_hash: &'a str) -> StoreFuture<'a, bool>;
    /// Make an account a moderator or a player again; whether the account exists.
    fn set_role(&self, id: i64, role: Role) -> StoreFuture<'_, bool>;
    /// Set both sanctions at once (`None` and `false` lift them); whether the account exists.
    fn set_moderation(
        &self,
        id: i64,
        muted_until_ms: Option<i64>,
        banned: bool,
    ) -> StoreFuture<'_, bool>;
    /// Store a new session. A token hash already stored for another session is an error (the
    /// same row sent again, a retry, is not).
    fn create_session<'a>(&'a self, session: &'a SessionRow) -> StoreFuture<'a, ()>;
    /// The session stored under this token hash, with its account.
    fn session<'a>(&'a self, token_hash: &'a str)
        -> StoreFuture<'a, Option<(SessionRow, Account)>>;
    /// Record a use of the session (`last_seen_ms` never moves backwards); whether it exists.
    fn touch_session<'a>(&'a self, token_hash: &'a str, now_ms: i64) -> StoreFuture<'a, bool>;
    /// Sign out one session; whether it existed.
    fn delete_session<'a>(&'a self, token_hash: &'a str) -> StoreFuture<'a, bool>;
    /// Sign out every session of an account but `except_token_hash` (sign out everywhere, or
    /// everywhere else); how many were deleted.
    fn delete_sessions_of<'a>(
        &'a self,
        account_id: i64,
        except_token_hash: Option<&'a str>,
    ) -> StoreFuture<'a, usize>;
    /// Delete every session last seen before `before_ms` (idle expiry); how many.
    fn delete_sessions_idle_since(&self, before_ms: i64) -> StoreFuture<'_, usize>;
    fn rating<'a>(&'a self, account_id: i64, category: &'a str) -> StoreFuture<'a, Option<Rating>>;
    /// Every category's rating of an account, by category.
    fn ratings_of(&self, account_id: i64) -> StoreFuture<'_, Vec<Rating>>;
    /// Store a rating after a game and its point of history, in one transaction. `false` when
    /// this game already changed this account's rating in this category with other numbers:
    /// nothing is written (the same point sent again, a retry, answers `true`). The point must
    /// be the rating's account and category.
    fn record_rating<'a>(
        &'a self,
        rating: &'a Rating,
        point: &'a RatingPoint,
    ) -> StoreFuture<'a, bool>;
    /// The newest `limit` points of a rating's history, newest first.
    fn rating_history<'a>(
        &'a self,
        account_id: i64,
        category: &'a str,
        limit: usize,
    ) -> StoreFuture<'a, Vec<RatingPoint>>;
}

/// The columns both backends read, in the order their row readers expect.
pub(crate) const ACCOUNT_COLUMNS: &str =
    "id, username, skeleton, password_hash, email, created_ms, \
     role, muted_until_ms, banned";
/// A session `s` and its account `a` ([`ACCOUNT_COLUMNS`] of `a` after the session's).
pub(crate) const JOINED_COLUMNS: &str = "s.token_hash, s.account_id, s.created_ms, \
     s.last_seen_ms, a.id, a.username, a.skeleton, a.password_hash, a.email, a.created_ms, \
     a.role, a.muted_until_ms, a.banned";
pub(crate) const RATING_COLUMNS: &str =
    "account_id, category, rating, deviation, volatility, games, updated_ms";
pub(crate) const POINT_COLUMNS: &str = "account_id, category, game_id, rating, deviation, at_ms";

/// The point must belong to the rating it is recorded with.
pub(crate) fn check_rating_pair(rating: &Rating, point: &RatingPoint) -> Result<(), StoreError> {
    if rating.account_id != point.account_id || rating.category != point.category {
        return Err(StoreError::Other(format!(
            "a rating of account {} in {:?} cannot be recorded with a point of account {} in {:?}",
            rating.account_id, rating.category, point.account_id, point.category
        )));
    }
    Ok(())
}

/// A `LIMIT` as the databases take it.
pub(crate) fn sql_limit(limit: usize) -> i64 {
    i64::try_from(limit).unwrap_or(i64::MAX)
}
