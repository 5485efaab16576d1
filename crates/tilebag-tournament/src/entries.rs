//! Online entries: a division that players enter themselves from their accounts on the server
//! (issue 30, item 6). The director opens the division for registration, with a time from which
//! players may check in and the minutes a player has to arrive at an online game before it is
//! forfeited (NASPA III.C, WESPA 2.3.5); players register, check in, or withdraw before the event
//! starts; the server starts each posted round's games with the two accounts' seats and records
//! the forfeits of players who never arrive.
//!
//! Everything here is data in the event's log ([`crate::Action::Entry`]), so `tilebag td` and the
//! pages see it; none of it is written to tsh's `.t` files or AUPAIR's `.TOU`, which know nothing
//! of accounts (a registered player is an ordinary player there).
//!
//! This file holds the types only (it imports nothing of the crate, so the model may hold them);
//! the handlers are `action/entries.rs`.

use serde::{Deserialize, Serialize};

/// The fewest and most minutes the director may give a player to arrive at an online game.
pub const NO_SHOW_MINUTES: std::ops::RangeInclusive<u32> = 1..=240;

/// NASPA III.C: "after 25 minutes ... the game is over and is forfeited"; WESPA 2.3.5: a player
/// who has not arrived when their game time (25 minutes in its preset) runs out forfeits.
pub const DEFAULT_NO_SHOW_MINUTES: u32 = 25;

/// The longest account name kept (the accounts' own rules allow fewer).
pub const MAX_USERNAME: usize = 40;

/// The most entrants one division takes.
pub const MAX_ENTRANTS: usize = 1000;

/// A division's online entries: whether registration is open, when check-in opens, how long a
/// player has to arrive, and who entered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OnlineEntries {
    /// Players may register (and check in, from `check_in_from_ms`).
    pub open: bool,
    /// Check-in opens at this time (Unix milliseconds).
    pub check_in_from_ms: i64,
    /// A player who has not opened their seat this many minutes after their round's games were
    /// started forfeits (NASPA III.C, WESPA 2.3.5).
    pub no_show_minutes: u32,
    /// The lexicon the division's games are played with (`None`: the server's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lexicon: Option<String>,
    /// Who registered, in order.
    pub entrants: Vec<Entrant>,
    /// When each round's online games were started (round, Unix milliseconds): the no-show
    /// deadline runs from here.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rounds_started: Vec<(u32, i64)>,
    /// Games forfeited because a player never arrived, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub no_shows: Vec<NoShow>,
}

/// A registered account and the tournament player it plays as.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entrant {
    pub account_id: i64,
    pub username: String,
    /// The division's player number (1-based).
    pub player: u32,
    pub checked_in: bool,
    /// Withdrew before the event started (the player is out of every round).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub withdrawn: bool,
}

/// A game forfeited because one or both players never opened their seat.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct NoShow {
    pub round: u32,
    pub game_id: String,
    /// The players who did not arrive (one: a forfeit; two: a double forfeit).
    pub absent: Vec<u32>,
}

/// A change to a division's online entries (the payload of [`crate::Action::Entry`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum EntryChange {
    /// The director opens the division for registration, or changes its times while it is open.
    Open {
        check_in_from_ms: i64,
        no_show_minutes: u32,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        lexicon: Option<String>,
    },
    /// The director closes registration and check-in. Before the first round is paired, every
    /// entrant who has not checked in is withdrawn (they are not paired).
    Close,
    /// An account registers: a new player named after it (or, if it withdrew before, the same
    /// player again).
    Register {
        account_id: i64,
        username: String,
        at_ms: i64,
    },
    /// A registered account checks in.
    CheckIn { account_id: i64, at_ms: i64 },
    /// A registered account withdraws before the event starts.
    Withdraw { account_id: i64 },
    /// The server started round `round`'s online games at `at_ms`.
    RoundStarted { round: u32, at_ms: i64 },
    /// The players `absent` of round `round`'s online game `game_id` never arrived: a forfeit
    /// (one absent) or a double forfeit (both) by the division's forfeit spread (NASPA III.C,
    /// V.K.1; WESPA 2.3.5, 2.3.6). The game no longer reports a result.
    NoShow {
        round: u32,
        game_id: String,
        absent: Vec<u32>,
    },
}

impl OnlineEntries {
    /// The entrant of an account (withdrawn or not).
    pub fn entrant(&self, account_id: i64) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.account_id == account_id)
    }

    /// The entrant registered under this account name.
    pub fn entrant_named(&self, username: &str) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.username == username)
    }

    /// The entrant who plays as `player`.
    pub fn of_player(&self, player: u32) -> Option<&Entrant> {
        self.entrants.iter().find(|e| e.player == player)
    }

    /// Whether check-in is open at `now_ms`.
    pub fn check_in_open(&self, now_ms: i64) -> bool {
        self.open && now_ms >= self.check_in_from_ms
    }

    /// When round `round`'s online games were started, if they were.
    pub fn round_started_ms(&self, round: u32) -> Option<i64> {
        self.rounds_started
            .iter()
            .rev()
            .find(|(r, _)| *r == round)
            .map(|(_, at)| *at)
    }

    /// When a player of round `round` who has not arrived forfeits (Unix milliseconds).
    pub fn no_show_deadline_ms(&self, round: u32) -> Option<i64> {
        self.round_started_ms(round)
            .map(|at| at.saturating_add(i64::from(self.no_show_minutes) * 60_000))
    }

    /// Registered and not withdrawn.
    pub fn active(&self) -> impl Iterator<Item = &Entrant> {
        self.entrants.iter().filter(|e| !e.withdrawn)
    }
}
