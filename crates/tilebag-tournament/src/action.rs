//! Director actions: every change to a tournament is one [`Action`] appended to a log. The state
//! is a pure function of the log ([`Tournament::replay`]); undo is replaying the log without its
//! last action. Actions record facts (the pairings posted, the scores reported), not requests,
//! so a log stays valid whatever later versions of the pairing code would compute.
//!
//! [`Tournament::apply`] checks an action completely before changing anything: a refused action
//! leaves the tournament as it was.

use serde::{Deserialize, Serialize};
use tilebag_core::ruleset::Ruleset;

use crate::error::{Result, TournamentError};
use crate::model::{
    AdjustmentReason, Correction, Division, DivisionConfig, FirstReason, FirstsPolicy, FontesDraw,
    Format, Game, GameResult, GibsonConfig, OnlineGame, Pairing, Player, PlayerId, ResultSource,
    Round, Slip, SpreadAdjustment, TieBreak, Tournament, WithdrawnResult,
};
use crate::ratings::RatingSystem;
use crate::schedule::{Method, Schedule};

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
    /// `; key …` fields verbatim and the `p12` codes as read.
    KeepTshFields {
        division: String,
        player: PlayerId,
        fields: Vec<String>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        p12: Vec<u8>,
    },
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
    ClassPrizes(crate::prizes::ClassPrizes),
    /// Chew pairings' flight cap (tsh's variants).
    FlightCap(crate::model::FlightCap),
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
            Action::CreateTournament { .. } => None,
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
            | Action::AdjustSpread { division, .. } => Some(division),
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

    /// Applies one action, or refuses it and changes nothing.
    pub fn apply(&mut self, action: &Action) -> Result<()> {
        if let Action::CreateTournament { name, date } = action {
            if !self.name.is_empty() || !self.divisions.is_empty() {
                return Err(TournamentError::AlreadyCreated {
                    name: self.name.clone(),
                });
            }
            self.name = name.clone();
            self.date = date.clone();
            return Ok(());
        }
        if self.name.is_empty() {
            return Err(TournamentError::NotCreated);
        }
        if let Action::AddDivision {
            division,
            preset,
            schedule,
            seed,
        } = action
        {
            if self.divisions.iter().any(|d| &d.name == division) {
                return Err(TournamentError::DuplicateDivision {
                    division: division.clone(),
                });
            }
            let rules = Ruleset::preset(preset).map_err(|source| TournamentError::Preset {
                division: division.clone(),
                source,
            })?;
            let schedule =
                Schedule::parse(schedule).map_err(|source| TournamentError::Schedule {
                    division: division.clone(),
                    source,
                })?;
            self.divisions.push(Division {
                name: division.clone(),
                preset: preset.clone(),
                config: DivisionConfig::from_ruleset(&rules),
                schedule,
                seed: *seed,
                players: Vec::new(),
                rounds: Vec::new(),
                adjustments: Vec::new(),
                online: Vec::new(),
            });
            return Ok(());
        }
        let name = action.division().unwrap_or_default().to_string();
        self.division_mut(&name)?.apply(action)
    }
}

/// Whether an online game is between these two players (in either seat).
fn same_players(o: &OnlineGame, a: PlayerId, b: PlayerId) -> bool {
    (o.first == a && o.second == b) || (o.first == b && o.second == a)
}

fn check_score(d: &Division, round: u32, p: PlayerId, scores: &[i32]) -> Result<()> {
    for &s in scores {
        if !SCORE_RANGE.contains(&s) {
            return Err(TournamentError::BadScore {
                division: d.name.clone(),
                round,
                player: d.who(p),
                score: s,
            });
        }
    }
    Ok(())
}

impl Division {
    fn check_player(&self, p: PlayerId) -> Result<()> {
        if self.player(p).is_none() {
            return Err(TournamentError::NoPlayer {
                division: self.name.clone(),
                player: p,
            });
        }
        Ok(())
    }

    fn check_spreads(&self, spreads: &[i32]) -> Result<()> {
        match spreads.iter().find(|x| !SPREAD_RANGE.contains(x)) {
            Some(x) => Err(TournamentError::BadSetting {
                division: self.name.clone(),
                reason: format!("a spread of {x} is out of range"),
            }),
            None => Ok(()),
        }
    }

    fn check_round(&self, round: u32) -> Result<()> {
        if self.round(round).is_none() {
            return Err(TournamentError::RoundNotPaired {
                division: self.name.clone(),
                round,
            });
        }
        Ok(())
    }

    /// The index of `p`'s game in round `round`.
    fn game_index(&self, round: u32, p: PlayerId) -> Result<usize> {
        self.check_player(p)?;
        self.check_round(round)?;
        let r = self.round(round).expect("checked");
        r.pairings
            .iter()
            .position(|x| matches!(x, Pairing::Game(g) if g.first == p || g.second == p))
            .ok_or_else(|| TournamentError::NoGame {
                division: self.name.clone(),
                round,
                player: self.who(p),
            })
    }

    /// `p`'s game in `round` when it has no result yet, with `p`'s scores checked and put in seat
    /// order (first, second). Online reports and tally slips both start here.
    fn game_awaiting_result(
        &mut self,
        round: u32,
        p: PlayerId,
        own: i32,
        opp: i32,
    ) -> Result<(&mut Game, i32, i32)> {
        let i = self.game_index(round, p)?;
        check_score(self, round, p, &[own, opp])?;
        let who = self.who(p);
        let name = self.name.clone();
        let g = self.game_mut(round, i);
        if g.result.is_some() {
            return Err(TournamentError::ResultFinal {
                division: name,
                round,
                player: who,
            });
        }
        let (f, s) = seat_scores(g, p, own, opp);
        Ok((g, f, s))
    }

    fn game_mut(&mut self, round: u32, idx: usize) -> &mut Game {
        match &mut self.rounds[round as usize - 1].pairings[idx] {
            Pairing::Game(g) => g,
            _ => unreachable!("game_index found a game"),
        }
    }

    /// Checks a whole round's pairings.
    fn check_pairings(&self, round: u32, pairings: &[Pairing]) -> Result<()> {
        let mut seen = std::collections::BTreeSet::new();
        for entry in pairings {
            for p in entry.players() {
                self.check_player(p)?;
                if !seen.insert(p) {
                    return Err(TournamentError::PairedTwice {
                        division: self.name.clone(),
                        round,
                        player: self.who(p),
                    });
                }
                let active = self.player(p).expect("checked").active_in(round);
                if !active && !matches!(entry, Pairing::Absent { .. }) {
                    return Err(TournamentError::Withdrawn {
                        division: self.name.clone(),
                        round,
                        player: self.who(p),
                    });
                }
            }
            if let Pairing::Bye { spread, .. } | Pairing::Absent { spread, .. } = entry {
                self.check_spreads(&[*spread])?;
            }
            if let Pairing::Game(g) = entry {
                if g.first == g.second {
                    return Err(TournamentError::SelfPairing {
                        division: self.name.clone(),
                        round,
                        player: self.who(g.first),
                    });
                }
                if g.result.is_some() || g.slip.is_some() {
                    return Err(TournamentError::RoundHasResults {
                        division: self.name.clone(),
                        round,
                    });
                }
            }
        }
        Ok(())
    }

    fn apply(&mut self, action: &Action) -> Result<()> {
        match action {
            Action::CreateTournament { .. } | Action::AddDivision { .. } => {
                unreachable!("handled by the tournament")
            }
            Action::Configure { setting, .. } => {
                let spreads: Vec<i32> = match setting {
                    Setting::ByeSpread(x)
                    | Setting::ForfeitSpread(x)
                    | Setting::ResignationMargin(x) => vec![*x],
                    Setting::SpreadCap(x) => x.iter().copied().collect(),
                    Setting::Gibson(Some(g)) => vec![g.spread_per_round],
                    _ => Vec::new(),
                };
                self.check_spreads(&spreads)?;
                let c = &mut self.config;
                match setting {
                    Setting::Schedule(s) => {
                        self.schedule =
                            Schedule::parse(s).map_err(|source| TournamentError::Schedule {
                                division: self.name.clone(),
                                source,
                            })?;
                    }
                    Setting::ByeSpread(x) => c.bye_spread = *x,
                    Setting::ForfeitSpread(x) => c.forfeit_spread = *x,
                    Setting::ResignationMargin(x) => c.resignation_margin = *x,
                    Setting::SpreadCap(x) => {
                        if x.is_some_and(|x| x <= 0) {
                            return Err(TournamentError::BadSetting {
                                division: self.name.clone(),
                                reason: "a spread cap must be positive".into(),
                            });
                        }
                        c.spread_cap = *x
                    }
                    Setting::TieBreaks(x) => c.tie_breaks = x.clone(),
                    Setting::Gibson(x) => c.gibson = *x,
                    Setting::Firsts(x) => c.firsts = *x,
                    Setting::WithdrawnResult(x) => c.withdrawn_result = *x,
                    Setting::Fontes(x) => c.fontes = *x,
                    Setting::Ratings(x) => c.ratings = *x,
                    Setting::Format(x) => c.format = *x,
                    Setting::Rules(rules) => {
                        tilebag_core::Ruleset::preset(&self.preset)
                            .map_err(|source| TournamentError::Preset {
                                division: self.name.clone(),
                                source,
                            })?
                            .with_overrides(rules)
                            .map_err(|e| TournamentError::Rules {
                                division: self.name.clone(),
                                message: e.to_string(),
                            })?;
                        c.rules = rules.clone();
                    }
                    Setting::WinnerSubmits(x) => c.winner_submits = *x,
                    Setting::MaxRepeats(x) => c.max_repeats = *x,
                    Setting::PrizeBands(x) => c.prize_bands = *x,
                    Setting::FlightCap(x) => c.flight_cap = *x,
                    Setting::ClassPrizes(x) => c.class_prizes = x.clone(),
                }
                Ok(())
            }
            Action::AddPlayer {
                name,
                rating,
                member_id,
                career_games,
                members,
                ..
            } => {
                if name.trim().is_empty() {
                    return Err(TournamentError::EmptyName {
                        division: self.name.clone(),
                    });
                }
                self.players.push(Player {
                    id: self.players.len() as u32 + 1,
                    name: name.trim().to_string(),
                    rating: *rating,
                    member_id: member_id.clone(),
                    career_games: *career_games,
                    members: members.clone(),
                    withdrawn_from: None,
                    ejected: false,
                    tsh_fields: Vec::new(),
                    tsh_p12: Vec::new(),
                });
                Ok(())
            }
            Action::EditPlayer {
                player,
                name,
                rating,
                member_id,
                ..
            } => {
                self.check_player(*player)?;
                if name.as_ref().is_some_and(|n| n.trim().is_empty()) {
                    return Err(TournamentError::EmptyName {
                        division: self.name.clone(),
                    });
                }
                let p = &mut self.players[*player as usize - 1];
                if let Some(n) = name {
                    p.name = n.trim().to_string();
                }
                if let Some(r) = rating {
                    p.rating = *r;
                }
                if let Some(m) = member_id {
                    p.member_id = if m.is_empty() { None } else { Some(m.clone()) };
                }
                Ok(())
            }
            Action::Withdraw {
                player, from_round, ..
            } => {
                self.check_player(*player)?;
                let from = (*from_round).max(1);
                self.players[*player as usize - 1].withdrawn_from = Some(from);
                let spread = self.config.forfeit_spread;
                let absent = self.absent_entry(*player);
                for r in self.rounds.iter_mut().filter(|r| r.number >= from) {
                    match r.pairings.iter().position(|x| x.involves(*player)) {
                        Some(i) => match &mut r.pairings[i] {
                            // NASPA V.K.1: a no-show forfeits; the opponent wins by the spread.
                            Pairing::Game(g) if g.result.is_none() => {
                                g.slip = None;
                                g.result = Some(GameResult::Forfeit {
                                    loser: *player,
                                    spread,
                                });
                            }
                            Pairing::Bye { .. } => r.pairings[i] = absent.clone(),
                            _ => {}
                        },
                        None => r.pairings.push(absent.clone()),
                    }
                }
                Ok(())
            }
            Action::KeepTshFields {
                player,
                fields,
                p12,
                ..
            } => {
                self.check_player(*player)?;
                let p = &mut self.players[*player as usize - 1];
                p.tsh_fields = fields.clone();
                p.tsh_p12 = p12.clone();
                Ok(())
            }
            Action::Reinstate { player, .. } => {
                self.check_player(*player)?;
                if self.players[*player as usize - 1].ejected {
                    return Err(TournamentError::BadSetting {
                        division: self.name.clone(),
                        reason: format!("{} was ejected (WESPA 6.2.4) and cannot be reinstated; undo the ejection instead", self.who(*player)),
                    });
                }
                self.players[*player as usize - 1].withdrawn_from = None;
                Ok(())
            }
            Action::Eject {
                division,
                player,
                from_round,
            } => {
                self.check_player(*player)?;
                if self.players[*player as usize - 1].ejected {
                    return Err(TournamentError::BadSetting {
                        division: self.name.clone(),
                        reason: format!("{} is already ejected", self.who(*player)),
                    });
                }
                let from = (*from_round).max(1);
                // Later rounds as for a withdrawal (unplayed games are forfeited).
                self.apply(&Action::Withdraw {
                    division: division.clone(),
                    player: *player,
                    from_round: from,
                })?;
                // A round robin: every block of the schedule and every round posted.
                let round_robin = self
                    .schedule
                    .blocks
                    .iter()
                    .all(|b| b.method == Method::RoundRobin)
                    && self.rounds.iter().all(|r| r.method == Method::RoundRobin);
                const MARGIN: i32 = 150;
                for r in self.rounds.iter_mut().filter(|r| r.number < from) {
                    for pairing in &mut r.pairings {
                        let Pairing::Game(g) = pairing else { continue };
                        let Some(opponent) = g.opponent_of(*player) else {
                            continue;
                        };
                        let Some(old) = g.result.clone() else {
                            continue;
                        };
                        let new = if round_robin {
                            GameResult::Void
                        } else {
                            // The opponent keeps a better result: a win by more than 150.
                            let kept = old.outcome_for(g, opponent);
                            if kept.wins2 == 2 && kept.spread > MARGIN {
                                continue;
                            }
                            GameResult::Forfeit {
                                loser: *player,
                                spread: MARGIN,
                            }
                        };
                        if old == new {
                            // Already the ejection's result (an event read back from a file
                            // that records the ejection): nothing changes, nothing to correct.
                            continue;
                        }
                        g.corrections.push(Correction {
                            previous: Some(old),
                            note: format!(
                                "WESPA 6.2.4(a)({}): #{player} ejected",
                                if round_robin { "i" } else { "ii" }
                            ),
                        });
                        g.result = Some(new);
                    }
                }
                self.players[*player as usize - 1].ejected = true;
                Ok(())
            }
            Action::Pair {
                round,
                method,
                based_on,
                pairings,
                ..
            } => {
                self.check_pairable(*round)?;
                if *based_on >= *round {
                    return Err(TournamentError::BasedOnTooLate {
                        division: self.name.clone(),
                        round: *round,
                        based_on: *based_on,
                    });
                }
                self.check_pairings(*round, pairings)?;
                let r = Round {
                    number: *round,
                    method: *method,
                    based_on: *based_on,
                    pairings: pairings.clone(),
                };
                if (*round as usize) <= self.rounds.len() {
                    self.rounds[*round as usize - 1] = r;
                } else {
                    self.rounds.push(r);
                }
                Ok(())
            }
            Action::ManualPair {
                round,
                first,
                second,
                first_by,
                ..
            } => {
                let next = self.rounds.len() as u32 + 1;
                if *round == 0 || *round > next {
                    return Err(TournamentError::RoundOutOfOrder {
                        division: self.name.clone(),
                        round: *round,
                        next,
                    });
                }
                let players: Vec<PlayerId> = std::iter::once(*first).chain(*second).collect();
                if *second == Some(*first) {
                    return Err(TournamentError::SelfPairing {
                        division: self.name.clone(),
                        round: *round,
                        player: self.who(*first),
                    });
                }
                for &p in &players {
                    self.check_player(p)?;
                    if !self.player(p).expect("checked").active_in(*round) {
                        return Err(TournamentError::Withdrawn {
                            division: self.name.clone(),
                            round: *round,
                            player: self.who(p),
                        });
                    }
                    if let Some(r) = self.round(*round) {
                        for x in &r.pairings {
                            if let Pairing::Game(g) = x {
                                if g.involves(p) && (g.result.is_some() || g.slip.is_some()) {
                                    return Err(TournamentError::ResultFinal {
                                        division: self.name.clone(),
                                        round: *round,
                                        player: self.who(p),
                                    });
                                }
                            }
                        }
                    }
                }
                let bye_spread = self.config.bye_spread;
                if *round == next {
                    self.rounds.push(Round {
                        number: *round,
                        method: Method::Manual,
                        based_on: round - 1,
                        pairings: Vec::new(),
                    });
                }
                let r = &mut self.rounds[*round as usize - 1];
                r.pairings
                    .retain(|x| !players.iter().any(|&p| x.involves(p)));
                let board = r
                    .pairings
                    .iter()
                    .filter_map(|x| x.game().map(|g| g.board))
                    .max()
                    .unwrap_or(0)
                    + 1;
                let entry = match second {
                    Some(s) => Pairing::Game(Game {
                        board,
                        first: *first,
                        second: *s,
                        first_by: first_by.clone(),
                        result: None,
                        slip: None,
                        corrections: Vec::new(),
                    }),
                    None => Pairing::Bye {
                        player: *first,
                        spread: bye_spread,
                        counts_as: None,
                        forfeit: false,
                        pending: false,
                    },
                };
                r.pairings.push(entry);
                Ok(())
            }
            Action::SwapSeats { round, player, .. } => {
                let i = self.game_index(*round, *player)?;
                let g = self.game_mut(*round, i);
                std::mem::swap(&mut g.first, &mut g.second);
                g.first_by = FirstReason::Director;
                if let Some(GameResult::Played {
                    first_score,
                    second_score,
                    ..
                }) = &mut g.result
                {
                    std::mem::swap(first_score, second_score);
                }
                if let Some(s) = &mut g.slip {
                    std::mem::swap(&mut s.first_score, &mut s.second_score);
                }
                Ok(())
            }
            Action::Unpair { round, .. } => {
                self.check_round(*round)?;
                if *round as usize != self.rounds.len() {
                    return Err(TournamentError::NotLastRound {
                        division: self.name.clone(),
                        round: *round,
                    });
                }
                self.check_pairable(*round)?;
                self.rounds.pop();
                Ok(())
            }
            Action::StartOnline {
                round,
                player,
                game_id,
                ..
            } => {
                let i = self.game_index(*round, *player)?;
                let online_err = |reason: String| TournamentError::Refused {
                    division: self.name.clone(),
                    round: *round,
                    reason,
                };
                let id_ok = !game_id.is_empty()
                    && game_id.len() <= 64
                    && game_id
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-');
                if !id_ok {
                    return Err(online_err(format!("{game_id:?} is not a game id")));
                }
                if self.online.iter().any(|o| &o.game_id == game_id) {
                    return Err(online_err(format!("game {game_id} is already linked")));
                }
                let Pairing::Game(g) = &self.rounds[*round as usize - 1].pairings[i] else {
                    unreachable!("game_index found a game")
                };
                if g.result.is_some() {
                    return Err(TournamentError::ResultFinal {
                        division: self.name.clone(),
                        round: *round,
                        player: self.who(*player),
                    });
                }
                let (first, second) = (g.first, g.second);
                self.online
                    .retain(|o| !(o.round == *round && same_players(o, first, second)));
                self.online.push(OnlineGame {
                    round: *round,
                    first,
                    second,
                    game_id: game_id.clone(),
                });
                Ok(())
            }
            Action::ReportOnline {
                round,
                game_id,
                player,
                score,
                opponent_score,
                ending,
                ..
            } => {
                // A pairing started online takes its result from that game only.
                let i = self.game_index(*round, *player)?;
                let Pairing::Game(g) = &self.rounds[*round as usize - 1].pairings[i] else {
                    unreachable!("game_index found a game")
                };
                let (first, second) = (g.first, g.second);
                if let Some(o) = self
                    .online
                    .iter()
                    .find(|o| o.round == *round && same_players(o, first, second))
                {
                    if &o.game_id != game_id {
                        return Err(TournamentError::Refused {
                            division: self.name.clone(),
                            round: *round,
                            reason: format!(
                                "game {game_id} is not this pairing's online game ({} is)",
                                o.game_id
                            ),
                        });
                    }
                }
                let (g, f, s) =
                    self.game_awaiting_result(*round, *player, *score, *opponent_score)?;
                // Only a player of this game can have resigned or left it.
                let of_game = |p: PlayerId| p == first || p == second;
                let (left_by, resigned_by) = match ending {
                    Some(OnlineEnding::Left { player }) if of_game(*player) => {
                        (Some(*player), None)
                    }
                    Some(OnlineEnding::Resigned { player }) if of_game(*player) => {
                        (None, Some(*player))
                    }
                    _ => (None, None),
                };
                g.slip = None;
                g.result = Some(GameResult::Played {
                    first_score: f,
                    second_score: s,
                    source: ResultSource::Online {
                        game_id: game_id.clone(),
                    },
                    left_by,
                    resigned_by,
                });
                Ok(())
            }
            Action::SubmitSlip {
                round,
                player,
                score,
                opponent_score,
                ..
            } => {
                if self.config.winner_submits && score < opponent_score {
                    return Err(TournamentError::Refused {
                        division: self.name.clone(),
                        round: *round,
                        reason: format!(
                            "{} lost this game, so the winner submits the tally slip and {} confirms it (WESPA 5.4.2, SANSPA 18.7)",
                            self.who(*player),
                            self.who(*player)
                        ),
                    });
                }
                let (g, f, s) =
                    self.game_awaiting_result(*round, *player, *score, *opponent_score)?;
                g.slip = Some(Slip {
                    submitted_by: *player,
                    first_score: f,
                    second_score: s,
                });
                Ok(())
            }
            Action::ConfirmSlip { round, player, .. } => {
                let i = self.game_index(*round, *player)?;
                let who = self.who(*player);
                let name = self.name.clone();
                let g = self.game_mut(*round, i);
                let Some(slip) = g.slip.clone() else {
                    return Err(TournamentError::NoSlip {
                        division: name,
                        round: *round,
                        player: who,
                    });
                };
                if slip.submitted_by == *player {
                    return Err(TournamentError::OwnSlip {
                        division: name,
                        round: *round,
                        player: who,
                    });
                }
                g.slip = None;
                g.result = Some(GameResult::Played {
                    first_score: slip.first_score,
                    second_score: slip.second_score,
                    source: ResultSource::Slip {
                        submitted_by: slip.submitted_by,
                        confirmed_by: *player,
                    },
                    left_by: None,
                    resigned_by: None,
                });
                Ok(())
            }
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
            } => {
                self.check_player(*player)?;
                if *round == 0 {
                    return Err(TournamentError::RoundNotPaired {
                        division: self.name.clone(),
                        round: 0,
                    });
                }
                let amount = match (amount, reason) {
                    (Some(a), _) => *a,
                    // NASPA IV.B.5: "penalize either player 50 tournament spread points".
                    (None, AdjustmentReason::DrawingOutOfOrder) => -50,
                    // NASPA IV.K.5: "increased by the points scored for the play plus 25".
                    (None, AdjustmentReason::ErroneousAdjudication { play_score }) => {
                        play_score + 25
                    }
                    (None, AdjustmentReason::Other { .. }) => {
                        return Err(TournamentError::BadSetting {
                            division: self.name.clone(),
                            reason: format!(
                                "a spread adjustment for {} needs an amount",
                                self.who(*player)
                            ),
                        })
                    }
                };
                self.check_spreads(&[amount])?;
                self.adjustments.push(SpreadAdjustment {
                    player: *player,
                    round: *round,
                    amount,
                    reason: reason.clone(),
                });
                Ok(())
            }
        }
    }

    fn set_result(
        &mut self,
        round: u32,
        p: PlayerId,
        entry: &ResultEntry,
        note: &str,
    ) -> Result<()> {
        self.check_player(p)?;
        self.check_round(round)?;
        match entry {
            ResultEntry::Bye { spread }
            | ResultEntry::Forfeit {
                spread: Some(spread),
            }
            | ResultEntry::DoubleForfeit {
                spread: Some(spread),
            } => self.check_spreads(&[*spread])?,
            _ => {}
        }
        if let ResultEntry::Bye { spread } = entry {
            let r = &mut self.rounds[round as usize - 1];
            let Some(Pairing::Bye {
                spread: s,
                forfeit,
                pending,
                ..
            }) = r
                .pairings
                .iter_mut()
                .find(|x| matches!(x, Pairing::Bye { player, .. } if *player == p))
            else {
                return Err(TournamentError::NotABye {
                    division: self.name.clone(),
                    round,
                    player: self.who(p),
                });
            };
            *s = *spread;
            // A negative one-player result is a forfeit loss, not a bye (tsh ForfeitLOSS).
            *forfeit = *spread < 0;
            *pending = false;
            return Ok(());
        }
        let i = self.game_index(round, p)?;
        let margin = self.config.resignation_margin;
        let forfeit = self.config.forfeit_spread;
        let g = match &self.rounds[round as usize - 1].pairings[i] {
            Pairing::Game(g) => g.clone(),
            _ => unreachable!(),
        };
        let new = match entry {
            ResultEntry::Scores {
                score,
                opponent_score,
            } => {
                check_score(self, round, p, &[*score, *opponent_score])?;
                let (f, s) = seat_scores(&g, p, *score, *opponent_score);
                Some(GameResult::Played {
                    first_score: f,
                    second_score: s,
                    source: ResultSource::Director,
                    left_by: None,
                    resigned_by: None,
                })
            }
            ResultEntry::LeftInProgress {
                score,
                opponent_score,
            } => {
                check_score(self, round, p, &[*score, *opponent_score])?;
                // NASPA V.K.2: ahead, the opponent's score is raised to 50 more than the
                // leaver's; behind, 50 comes off the leaver's score. (WESPA 5.7(c) and
                // SANSPA 19.3 give the same margins.)
                let (own, opp) = if score >= opponent_score {
                    (*score, score + margin)
                } else {
                    (score - margin, *opponent_score)
                };
                let (f, s) = seat_scores(&g, p, own, opp);
                Some(GameResult::Played {
                    first_score: f,
                    second_score: s,
                    source: ResultSource::Director,
                    left_by: Some(p),
                    resigned_by: None,
                })
            }
            ResultEntry::Forfeit { spread } => Some(GameResult::Forfeit {
                loser: p,
                spread: spread.unwrap_or(forfeit),
            }),
            ResultEntry::DoubleForfeit { spread } => Some(GameResult::DoubleForfeit {
                spread: spread.unwrap_or(forfeit),
            }),
            ResultEntry::Clear => None,
            ResultEntry::Bye { .. } => unreachable!("handled above"),
        };
        let gm = self.game_mut(round, i);
        if gm.result.is_some() {
            gm.corrections.push(Correction {
                previous: gm.result.clone(),
                note: note.to_string(),
            });
        }
        gm.slip = None;
        gm.result = new;
        Ok(())
    }
}

impl Game {
    pub fn involves(&self, p: PlayerId) -> bool {
        self.first == p || self.second == p
    }
}

/// Scores from `p`'s side, in seat order.
fn seat_scores(g: &Game, p: PlayerId, own: i32, opp: i32) -> (i32, i32) {
    if g.first == p {
        (own, opp)
    } else {
        (opp, own)
    }
}
