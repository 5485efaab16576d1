//! Director actions: every change to a tournament is one [`Action`] appended to a log. The state
//! is a pure function of the log ([`Tournament::replay`]); undo is replaying the log without its
//! last action. Actions record facts (the pairings posted, the scores reported), not requests,
//! so a log stays valid whatever later versions of the pairing code would compute.
//!
//! [`Tournament::apply`] checks an action completely before changing anything: a refused action
//! leaves the tournament as it was. It is a table: one handler per action, each in the file named
//! after what it handles:
//!
//! - `setup.rs`: the tournament (its name and date), its divisions and their settings;
//! - `players.rs`: entering, editing, withdrawing, reinstating and ejecting players, and what an
//!   imported `.t` line keeps (`KeepTshFields`, a player's tsh `class` too);
//! - `pairings.rs`: posting, hand-pairing, reseating and removing pairings;
//! - `online.rs`: games played on the server;
//! - `results.rs`: tally slips, results the director enters or corrects, spread adjustments;
//! - `entries.rs`: online entries by players' accounts (registration, check-in, no-shows);
//! - `validate.rs`: the look-ups and range checks the handlers share;
//! - `../tsh/archive.rs`: an imported `.tsh` archive's lines outside its files (`KeepTshConfig`).

mod entries;
mod online;
mod pairings;
mod players;
mod results;
mod setup;
mod validate;

use serde::{Deserialize, Serialize};

use crate::entries::EntryChange;
use crate::error::{Result, TournamentError};
use crate::model::{
    AdjustmentReason, ClassPrizes, Division, FirstReason, FirstsPolicy, FlightCap, FontesDraw,
    Format, GibsonConfig, Pairing, PlayerId, RatingSystem, TieBreak, Tournament, WithdrawnResult,
};
use crate::schedule::Method;

/// Scores outside this range are refused as typing errors.
pub const SCORE_RANGE: std::ops::RangeInclusive<i32> = -500..=2000;

/// Spreads (byes, forfeits, margins, caps, adjustments) outside this range are refused.
pub const SPREAD_RANGE: std::ops::RangeInclusive<i32> = -10_000..=10_000;

/// One director action.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "kebab-case")]
pub enum Action {
    /// Starts the log.
    CreateTournament { name: String, date: Option<String> },
    /// Renames the event or sets its first day (`YYYY-MM-DD`), at any time; a field left out is
    /// kept.
    EditEvent {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        name: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        date: Option<String>,
    },
    /// A division under a ruleset preset, with its schedule and seed.
    AddDivision {
        division: String,
        preset: String,
        schedule: String,
        seed: u64,
    },
    /// Changes one division setting.
    Configure { division: String, setting: Setting },
    AddPlayer {
        division: String,
        name: String,
        rating: i32,
        #[serde(default)]
        member_id: Option<String>,
        #[serde(default)]
        career_games: Option<u32>,
        /// Team members, in a team format.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        members: Vec<String>,
    },
    EditPlayer {
        division: String,
        player: PlayerId,
        #[serde(default)]
        name: Option<String>,
        #[serde(default)]
        rating: Option<i32>,
        #[serde(default)]
        member_id: Option<String>,
    },
    /// The player misses every round from `from_round` on: unplayed games they were already paired
    /// in become forfeits (NASPA V.K.1), byes become automatic results, and later pairings leave
    /// them out.
    Withdraw {
        division: String,
        player: PlayerId,
        from_round: u32,
    },
    /// The player may be paired again.
    Reinstate { division: String, player: PlayerId },
    /// What an imported `.t` line carries that tilebag does not read, kept for export: unknown
    /// `; key …` fields verbatim and the `p12` codes as read; the comment (and blank) lines
    /// before the player's line, and after it at the end of the file; scores the line has for
    /// games whose opponent's line has none, as (round, score) (not a result: kept only for the
    /// file while the game has none). Replaces what was kept before.
    KeepTshFields {
        division: String,
        player: PlayerId,
        fields: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        p12: Vec<u8>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        lines_before: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        lines_after: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        one_sided: Vec<(u32, i32)>,
    },
    /// The lines of an imported `.tsh` archive outside its files (`config …`, `division NAME
    /// FILE`, comments, …), verbatim and in order, kept for the archive tilebag writes.
    KeepTshConfig { lines: Vec<String> },
    /// WESPA 6.2.4(a): the player is ejected for cheating or abusive behaviour, from round
    /// `from_round` on (their unplayed games become forfeits and they leave the pairings, as for a
    /// withdrawal). Their earlier games: in a round robin all are void (6.2.4(a)(i)); otherwise
    /// each becomes a 150-point win for the opponent unless the opponent did better
    /// (6.2.4(a)(ii)). They rank below everyone else. Every changed result keeps its old one in
    /// the game's corrections.
    Eject {
        division: String,
        player: PlayerId,
        from_round: u32,
    },
    /// Posts a round's pairings (usually from [`Division::propose`]).
    Pair {
        division: String,
        round: u32,
        method: Method,
        based_on: u32,
        pairings: Vec<Pairing>,
    },
    /// Pairs two players (or gives a bye) by hand; their previous entries in the round are
    /// removed, leaving their old opponents unpaired.
    ManualPair {
        division: String,
        round: u32,
        first: PlayerId,
        second: Option<PlayerId>,
        first_by: FirstReason,
    },
    /// Swaps who goes first in a player's game.
    SwapSeats {
        division: String,
        round: u32,
        player: PlayerId,
    },
    /// Removes the last round's pairings (before any result).
    Unpair { division: String, round: u32 },
    /// The server started an online game for `player`'s pairing in `round` (it replaces an
    /// earlier online game of the same pairing, e.g. one abandoned and restarted).
    StartOnline {
        division: String,
        round: u32,
        player: PlayerId,
        game_id: String,
    },
    /// The server reports an online game's final scores, from `player`'s side.
    ReportOnline {
        division: String,
        round: u32,
        game_id: String,
        player: PlayerId,
        score: i32,
        opponent_score: i32,
        /// How the game ended when the scores alone would mislead: a player resigned (NASPA
        /// I.B, V.K.2) or left it (NASPA V.K.2, WESPA 5.7, SANSPA 19.3). The scores already carry
        /// the rule's margin; this keeps the fact (a resignation at 0–0 is not a tie).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ending: Option<OnlineEnding>,
    },
    /// One player submits a tally slip (NASPA V.J, WESPA 5.4, SANSPA 18.10).
    SubmitSlip {
        division: String,
        round: u32,
        player: PlayerId,
        score: i32,
        opponent_score: i32,
    },
    /// The other player confirms it; the result is then final.
    ConfirmSlip {
        division: String,
        round: u32,
        player: PlayerId,
    },
    /// The director enters or corrects a result; a replaced result is kept in the game's
    /// corrections with the note.
    SetResult {
        division: String,
        round: u32,
        player: PlayerId,
        result: ResultEntry,
        #[serde(default)]
        note: String,
    },
    /// A spread penalty or compensation (NASPA IV.B.5, IV.K.5). Without an amount, the rule's:
    /// −50 for drawing out of order, the play's score + 25 for an erroneous adjudication.
    AdjustSpread {
        division: String,
        player: PlayerId,
        round: u32,
        reason: AdjustmentReason,
        #[serde(default)]
        amount: Option<i32>,
    },
    /// A change to the division's online entries by players' accounts (`entries.rs`).
    Entry {
        division: String,
        change: EntryChange,
    },
}

/// A division setting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "setting", content = "value", rename_all = "kebab-case")]
pub enum Setting {
    Schedule(String),
    ByeSpread(i32),
    ForfeitSpread(i32),
    ResignationMargin(i32),
    SpreadCap(Option<i32>),
    TieBreaks(Vec<TieBreak>),
    Gibson(Option<GibsonConfig>),
    Firsts(FirstsPolicy),
    WithdrawnResult(WithdrawnResult),
    Fontes(FontesDraw),
    Ratings(RatingSystem),
    Format(Format),
    /// WESPA 5.4.2, SANSPA 18.7: only the winner submits a tally slip.
    WinnerSubmits(bool),
    /// The organiser's choices of rules (`end-rack=double`, ...), applied to the preset for the
    /// division's games; each must be one its book leaves open (WESPA 5.1.4, 3.10.15(b),
    /// NASPA VI.B.3, I.B).
    Rules(Vec<String>),
    /// The most times two players may be paired again (None: the method's own rule).
    MaxRepeats(Option<u32>),
    /// Places paid (None: unset).
    PrizeBands(Option<u32>),
    /// Class prizes for the prize table.
    ClassPrizes(ClassPrizes),
    /// Chew pairings' flight cap (tsh's variants).
    FlightCap(FlightCap),
}

/// How an online game ended, when it ended early (see [`Action::ReportOnline`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum OnlineEnding {
    Resigned { player: PlayerId },
    Left { player: PlayerId },
}

/// A result as the director enters it, from `player`'s side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum ResultEntry {
    /// Final adjusted scores.
    Scores { score: i32, opponent_score: i32 },
    /// NASPA V.K.2, WESPA 5.7(c), SANSPA 19.3: the player left the game in progress with these
    /// scores on the board. If ahead (or level), the opponent's score becomes the player's plus
    /// the margin; if behind, the margin comes off the player's score.
    LeftInProgress { score: i32, opponent_score: i32 },
    /// The player forfeits (NASPA V.K.1 no-show; WESPA 2.3.6 lateness; SANSPA 19.2), by the
    /// division's forfeit spread unless given (NASPA V.K.3: the director may increase it).
    Forfeit { spread: Option<i32> },
    /// Neither player played (NASPA III.C): a loss for both.
    DoubleForfeit { spread: Option<i32> },
    /// Changes the spread of the player's bye.
    Bye { spread: i32 },
    /// Removes the result.
    Clear,
}

/// A log that does not replay: which action failed and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("action {index} of the log: {error}")]
pub struct ReplayError {
    pub index: usize,
    #[source]
    pub error: TournamentError,
}

impl Action {
    /// The division the action is about, if any.
    pub fn division(&self) -> Option<&str> {
        match self {
            Action::CreateTournament { .. }
            | Action::EditEvent { .. }
            | Action::KeepTshConfig { .. } => None,
            Action::AddDivision { division, .. }
            | Action::Configure { division, .. }
            | Action::AddPlayer { division, .. }
            | Action::EditPlayer { division, .. }
            | Action::Withdraw { division, .. }
            | Action::Reinstate { division, .. }
            | Action::KeepTshFields { division, .. }
            | Action::Eject { division, .. }
            | Action::Pair { division, .. }
            | Action::ManualPair { division, .. }
            | Action::SwapSeats { division, .. }
            | Action::Unpair { division, .. }
            | Action::StartOnline { division, .. }
            | Action::ReportOnline { division, .. }
            | Action::SubmitSlip { division, .. }
            | Action::ConfirmSlip { division, .. }
            | Action::SetResult { division, .. }
            | Action::AdjustSpread { division, .. }
            | Action::Entry { division, .. } => Some(division),
        }
    }
}

impl Tournament {
    /// Rebuilds a tournament from its log.
    pub fn replay(log: &[Action]) -> std::result::Result<Tournament, ReplayError> {
        let mut t = Tournament::default();
        for (index, a) in log.iter().enumerate() {
            t.apply(a).map_err(|error| ReplayError { index, error })?;
        }
        Ok(t)
    }

    pub fn division(&self, name: &str) -> Result<&Division> {
        self.divisions
            .iter()
            .find(|d| d.name == name)
            .ok_or_else(|| TournamentError::NoDivision {
                division: name.into(),
            })
    }

    fn division_mut(&mut self, name: &str) -> Result<&mut Division> {
        self.divisions
            .iter_mut()
            .find(|d| d.name == name)
            .ok_or_else(|| TournamentError::NoDivision {
                division: name.into(),
            })
    }

    /// Applies one action, or refuses it and changes nothing.
    pub fn apply(&mut self, action: &Action) -> Result<()> {
        match action {
            Action::CreateTournament { name, date } => self.create_tournament(name, date),
            _ if self.name.is_empty() => Err(TournamentError::NotCreated),
            Action::EditEvent { name, date } => self.edit_event(name.as_deref(), date.as_deref()),
            Action::KeepTshConfig { lines } => {
                self.keep_tsh_config(lines);
                Ok(())
            }
            Action::AddDivision {
                division,
                preset,
                schedule,
                seed,
            } => self.add_division(division, preset, schedule, *seed),
            _ => {
                let name = action.division().unwrap_or_default();
                self.division_mut(name)?.apply(action)
            }
        }
    }

    /// The action that posts the pairings [`Division::propose`] computes, with its notes.
    pub fn pair(
        &self,
        division: &str,
        round: u32,
        method: Option<Method>,
        based_on: Option<u32>,
    ) -> Result<(Action, Vec<String>)> {
        let p = self.division(division)?.propose(round, method, based_on)?;
        Ok((
            Action::Pair {
                division: division.into(),
                round: p.round,
                method: p.method,
                based_on: p.based_on,
                pairings: p.pairings,
            },
            p.notes,
        ))
    }

    /// A manual pairing of `a` and `b` (or a bye for `a`), seated by the division's firsts rule.
    pub fn manual_pair(
        &self,
        division: &str,
        round: u32,
        a: PlayerId,
        b: Option<PlayerId>,
    ) -> Result<Action> {
        let d = self.division(division)?;
        let (first, second, first_by) = match b {
            Some(b) => {
                let tally = d.firsts_tally(round);
                let (f, s, why) =
                    crate::firsts::decide(&d.config.firsts, &tally, d.seed, round, a, b);
                (f, Some(s), why)
            }
            None => (a, None, FirstReason::Director),
        };
        Ok(Action::ManualPair {
            division: division.into(),
            round,
            first,
            second,
            first_by,
        })
    }
}

impl Division {
    /// Applies an action about this division: the table of handlers.
    fn apply(&mut self, action: &Action) -> Result<()> {
        match action {
            Action::CreateTournament { .. }
            | Action::EditEvent { .. }
            | Action::KeepTshConfig { .. }
            | Action::AddDivision { .. } => {
                unreachable!("handled by the tournament")
            }
            Action::Configure { setting, .. } => self.configure(setting),
            Action::AddPlayer {
                name,
                rating,
                member_id,
                career_games,
                members,
                ..
            } => self.add_player(name, *rating, member_id, *career_games, members),
            Action::EditPlayer {
                player,
                name,
                rating,
                member_id,
                ..
            } => self.edit_player(*player, name.as_deref(), *rating, member_id.as_deref()),
            Action::Withdraw {
                player, from_round, ..
            } => self.withdraw(*player, *from_round),
            Action::Reinstate { player, .. } => self.reinstate(*player),
            Action::KeepTshFields {
                player,
                fields,
                p12,
                lines_before,
                lines_after,
                one_sided,
                ..
            } => self.keep_tsh_fields(*player, fields, p12, [lines_before, lines_after], one_sided),
            Action::Eject {
                player, from_round, ..
            } => self.eject(*player, *from_round),
            Action::Pair {
                round,
                method,
                based_on,
                pairings,
                ..
            } => self.pair_round(*round, *method, *based_on, pairings),
            Action::ManualPair {
                round,
                first,
                second,
                first_by,
                ..
            } => self.pair_by_hand(*round, *first, *second, first_by),
            Action::SwapSeats { round, player, .. } => self.swap_seats(*round, *player),
            Action::Unpair { round, .. } => self.unpair_round(*round),
            Action::StartOnline {
                round,
                player,
                game_id,
                ..
            } => self.start_online(*round, *player, game_id),
            Action::ReportOnline {
                round,
                game_id,
                player,
                score,
                opponent_score,
                ending,
                ..
            } => self.report_online(*round, game_id, *player, (*score, *opponent_score), *ending),
            Action::SubmitSlip {
                round,
                player,
                score,
                opponent_score,
                ..
            } => self.submit_slip(*round, *player, *score, *opponent_score),
            Action::ConfirmSlip { round, player, .. } => self.confirm_slip(*round, *player),
            Action::SetResult {
                round,
                player,
                result,
                note,
                ..
            } => self.set_result(*round, *player, result, note),
            Action::AdjustSpread {
                player,
                round,
                reason,
                amount,
                ..
            } => self.adjust_spread(*player, *round, reason, *amount),
            Action::Entry { change, .. } => self.entry(change),
        }
    }
}
