//! Errors. Each names the division, the round and the player it is about; a player is shown as
//! `#3 (Surname, Given)`.

use tilebag_core::ruleset::UnknownPreset;

use crate::schedule::{Method, ScheduleError};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TournamentError {
    #[error("the tournament has already been created (as {name:?})")]
    AlreadyCreated { name: String },
    #[error("the log must start by creating the tournament")]
    NotCreated,
    #[error("no division named {division:?}")]
    NoDivision { division: String },
    #[error("division {division:?} already exists")]
    DuplicateDivision { division: String },
    #[error("division {division:?}: {source}")]
    Preset {
        division: String,
        #[source]
        source: UnknownPreset,
    },
    /// An organiser's choice of rules the division's rulebook does not allow.
    #[error("division {division:?}: {message}")]
    Rules { division: String, message: String },
    #[error("division {division:?}: {source}")]
    Schedule {
        division: String,
        #[source]
        source: ScheduleError,
    },
    #[error("division {division:?}: no player #{player}")]
    NoPlayer { division: String, player: u32 },
    #[error("division {division:?}: a player needs a name")]
    EmptyName { division: String },
    #[error("division {division:?}: round {round} cannot be paired before round {next}")]
    RoundOutOfOrder {
        division: String,
        round: u32,
        next: u32,
    },
    #[error("division {division:?}: round {round} has not been paired")]
    RoundNotPaired { division: String, round: u32 },
    #[error("division {division:?}, round {round}: results are in, so the round cannot be re-paired or unpaired")]
    RoundHasResults { division: String, round: u32 },
    #[error("division {division:?}, round {round}: only the last round can be unpaired")]
    NotLastRound { division: String, round: u32 },
    #[error("division {division:?}, round {round}: {player} is paired more than once")]
    PairedTwice {
        division: String,
        round: u32,
        player: String,
    },
    #[error("division {division:?}, round {round}: {player} has withdrawn and cannot be paired")]
    Withdrawn {
        division: String,
        round: u32,
        player: String,
    },
    #[error("division {division:?}, round {round}: {player} cannot play themselves")]
    SelfPairing {
        division: String,
        round: u32,
        player: String,
    },
    #[error("division {division:?}, round {round}: {player} has no game this round")]
    NoGame {
        division: String,
        round: u32,
        player: String,
    },
    #[error("division {division:?}, round {round}: {player} has no bye in round {round}, so it has no bye spread to change: {has}")]
    NotABye {
        division: String,
        round: u32,
        player: String,
        /// What the player has in the round instead.
        has: String,
    },
    #[error("division {division:?}, round {round}: {player}'s game already has a final result; only the director can correct it (NASPA V.J, WESPA 5.4.1)")]
    ResultFinal {
        division: String,
        round: u32,
        player: String,
    },
    #[error(
        "division {division:?}, round {round}: no tally slip is waiting for {player} to confirm"
    )]
    NoSlip {
        division: String,
        round: u32,
        player: String,
    },
    #[error("division {division:?}, round {round}: {player} submitted this tally slip; the opponent must confirm it (NASPA V.J)")]
    OwnSlip {
        division: String,
        round: u32,
        player: String,
    },
    #[error("division {division:?}, round {round}: {player}: score {score} is out of range")]
    BadScore {
        division: String,
        round: u32,
        player: String,
        score: i32,
    },
    #[error("division {division:?}: round {round} is paired based on round {based_on}, which has games without results")]
    IncompleteRound {
        division: String,
        round: u32,
        based_on: u32,
    },
    #[error("division {division:?}: round {round} must be based on an earlier round, not round {based_on}")]
    BasedOnTooLate {
        division: String,
        round: u32,
        based_on: u32,
    },
    #[error("division {division:?}: the schedule {schedule:?} has no round {round}; name a pairing method")]
    PastSchedule {
        division: String,
        round: u32,
        schedule: String,
    },
    #[error("division {division:?}, round {round}: the schedule pairs this round by hand")]
    ManualRound { division: String, round: u32 },
    #[error("division {division:?}, round {round}: {method} pairing failed: {reason}")]
    PairingFailed {
        division: String,
        round: u32,
        method: Method,
        reason: String,
    },
    #[error("division {division:?}: {reason}")]
    BadSetting { division: String, reason: String },
    /// About the event itself (its name or date), not a division.
    #[error("event {name:?}: {reason}")]
    BadEvent { name: String, reason: String },
    /// Refused for a reason the message gives (online links, who submits a slip).
    #[error("division {division:?}, round {round}: {reason}")]
    Refused {
        division: String,
        round: u32,
        reason: String,
    },
}

pub type Result<T, E = TournamentError> = std::result::Result<T, E>;
