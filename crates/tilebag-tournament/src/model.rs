//! The tournament state: a tournament has divisions; a division has players and rounds; a round
//! has pairings, each a game (seat order = who goes first), a bye, or a withdrawn player's
//! automatic result. The state is only ever changed by [`crate::Action`]s.

use serde::{Deserialize, Serialize};
use tilebag_core::ruleset::{FirstPlayerRule, Ruleset};

use crate::schedule::{Method, Schedule};

/// A player's number in a division: 1-based, in the order players were added (tsh's line
/// numbers in a `.t` file).
pub type PlayerId = u32;

/// A whole event.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
pub struct Tournament {
    pub name: String,
    /// The date the event starts, `YYYY-MM-DD` (for `.TOU` headers and reports).
    pub date: Option<String>,
    pub divisions: Vec<Division>,
    /// An imported `.tsh` archive's lines outside its files (`config …`, `division NAME FILE`,
    /// comments), verbatim and in order: written back at the head of the event's archive, and
    /// its `division` lines name each division's file as the archive did.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tsh_config: Vec<String>,
}

/// Which rules the division is run under and how it is scored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Format {
    /// Individual play, ranked by wins.
    Individual,
    /// Scrabble for Literacy 2018: teams, ranked by total team word score, then spread; round 3
    /// pairs the leader with the middle team; playoffs and finals for the top four.
    Literacy2018Teams,
}

/// Who goes first under each rulebook, and how unplayed games count.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FirstsPolicy {
    pub rule: FirstPlayerRule,
    /// NASPA III.D note: a player who forfeits before the game begins is considered to have gone
    /// first, then second for the next forfeited game, and so on; their opponent gets neither.
    pub forfeiter_alternates: bool,
    /// How a bye counts (NASPA III.D note: neither; tsh `bye_firsts=alternate`: alternately).
    pub byes: ByeFirsts,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ByeFirsts {
    Ignore,
    Alternate,
}

/// Standings keys, applied in order after each other; player number breaks the last tie.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum TieBreak {
    /// More wins (a tie counts half).
    Wins,
    /// Fewer losses (a tie counts half).
    Losses,
    /// Higher spread (capped per game when the division has a spread cap).
    Spread,
    /// Higher pre-event rating.
    Rating,
    /// More points scored (Literacy 2018: total team word score).
    PointsFor,
}

/// Gibsonization: a player nobody can catch is kept away from contenders (tsh, Woogles).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct GibsonConfig {
    /// The spread a chaser is assumed to gain in each remaining round (tsh `gibson_spread`; the
    /// NSA allowed 500 a round, a 2016 NASPA AB ruling 1000, the 2007 PC 250).
    pub spread_per_round: i32,
    /// Places that carry prizes: an odd Gibson plays the highest-ranked player who can no longer
    /// finish in these places (or the lowest-ranked player when everyone still can).
    pub prize_places: u32,
}

/// What a withdrawn player is given for each round they miss.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum WithdrawnResult {
    /// A forfeit loss by the division's forfeit spread (NASPA V.K.1, SANSPA 19.2; tsh `off`).
    ForfeitLoss,
    /// No result: neither a win nor a loss, no spread (tsh `off 0`; Woogles VOID).
    Void,
}

/// How Initial Fontes draws one player per seed band into each group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FontesDraw {
    /// At random from the seed (tsh's default).
    Random,
    /// Boustrophedon by seed (tsh `initial_snaked`): group 1 takes seeds 1, 2g, 2g+1, 4g, …
    Snaked,
}

/// Which rating system estimates a division's ratings.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "system", rename_all = "kebab-case")]
pub enum RatingSystem {
    None,
    /// NASPA; `club` for local club tournaments rated at one third.
    Naspa {
        club: bool,
    },
    Wespa,
}

/// How class prizes are given.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "kebab-case")]
pub enum ClassPrizes {
    #[default]
    None,
    /// By the tsh `class` field (`; class B`).
    TshClass,
    /// By pre-event rating: each threshold starts a class "under T" down to the next threshold.
    RatingBands { thresholds: Vec<i32> },
}

impl ClassPrizes {
    pub fn is_none(&self) -> bool {
        *self == ClassPrizes::None
    }

    /// Reads `none`, `class` or `rating:T1,T2,…` (thresholds, any order).
    pub fn parse(value: &str) -> Result<ClassPrizes, String> {
        let v = value.trim().to_ascii_lowercase();
        let bad = || {
            format!(
                "class-prizes takes none, class (the tsh class field) or rating:T1,T2,… \
                 (rating thresholds, e.g. rating:1800,1600), not {value:?}"
            )
        };
        Ok(match v.as_str() {
            "none" | "off" => ClassPrizes::None,
            "class" => ClassPrizes::TshClass,
            _ => {
                let list = v.strip_prefix("rating:").ok_or_else(bad)?;
                let mut thresholds = list
                    .split(',')
                    .map(|t| t.trim().parse::<i32>().map_err(|_| bad()))
                    .collect::<Result<Vec<_>, _>>()?;
                if thresholds.is_empty() {
                    return Err(bad());
                }
                thresholds.sort_unstable_by(|a, b| b.cmp(a));
                thresholds.dedup();
                ClassPrizes::RatingBands { thresholds }
            }
        })
    }

    /// As [`ClassPrizes::parse`] reads it.
    pub fn text(&self) -> String {
        match self {
            ClassPrizes::None => "none".into(),
            ClassPrizes::TshClass => "class".into(),
            ClassPrizes::RatingBands { thresholds } => format!(
                "rating:{}",
                thresholds
                    .iter()
                    .map(|t| t.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        }
    }
}

/// Everything about a division that the director may set; defaults come from the preset.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DivisionConfig {
    pub format: Format,
    /// NASPA V.K.4, SANSPA 19.1: a bye is a win by this much.
    pub bye_spread: i32,
    /// NASPA V.K.1, SANSPA 19.2: a no-show forfeit is by 50; WESPA 2.3.6(a): by 75.
    pub forfeit_spread: i32,
    /// NASPA V.K.2, WESPA 5.7(c), SANSPA 19.3: a player who leaves a game in progress loses by
    /// the greater of this and their deficit plus this.
    pub resignation_margin: i32,
    pub firsts: FirstsPolicy,
    pub tie_breaks: Vec<TieBreak>,
    /// Spread counted per game in the standings is capped at this (tsh `spread_cap`).
    pub spread_cap: Option<i32>,
    pub gibson: Option<GibsonConfig>,
    pub withdrawn_result: WithdrawnResult,
    pub fontes: FontesDraw,
    pub ratings: RatingSystem,
    /// WESPA 5.4.2, SANSPA 18.7: the winner hands in the result and the loser signs it, so a
    /// tally slip is submitted by the winner (either player after a tie).
    #[serde(default)]
    pub winner_submits: bool,
    /// The organiser's choices applied to the preset (`end-rack=double`, ...), validated against
    /// the book when set.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rules: Vec<String>,
    /// The most times two players may be paired again (tsh's maximum repeats argument): 0 never
    /// twice. Unset, the Swiss avoids every repeat it can and King of the Hill ignores them.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_repeats: Option<u32>,
    /// Places paid (tsh `prize_bands`, Woogles `place_prizes`): who is a contender for the
    /// contender-aware pairings (`CP`, `COP`) and how many places the prize table lists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prize_bands: Option<u32>,
    /// Class prizes for the prize table (`prizes.rs`).
    #[serde(default, skip_serializing_if = "ClassPrizes::is_none")]
    pub class_prizes: ClassPrizes,
    /// How many contenders Chew pairings pair among themselves (tsh's flight cap variants).
    #[serde(default, skip_serializing_if = "FlightCap::is_tsh")]
    pub flight_cap: FlightCap,
}

/// tsh's flight cap for Chew pairings (research §1.5, `PairingCommand`): the most contenders
/// paired among themselves, by the rounds left (counting the one being paired).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum FlightCap {
    /// tsh's default: 2 with one round left, 4·(r−1) with two or three, 12 with more.
    #[default]
    Tsh,
    /// `FlightCapNSC`: 4 with one round left, 8 with two, 12 with three or more (4·r, at most 12).
    Nsc,
    /// `FlightCapNSC2008`: 2, 4 and 6 with one, two and three rounds left, 12 with more.
    Nsc2008,
    /// `FlightCapNone`: every contender.
    None,
}

impl FlightCap {
    fn is_tsh(&self) -> bool {
        *self == FlightCap::Tsh
    }

    /// The cap with `rounds_left` rounds left (`usize::MAX` for no cap).
    pub fn cap(self, rounds_left: u32) -> usize {
        let r = rounds_left.max(1) as usize;
        match self {
            FlightCap::Tsh => match r {
                1 => 2,
                2 | 3 => 4 * (r - 1),
                _ => 12,
            },
            FlightCap::Nsc => (4 * r).min(12),
            FlightCap::Nsc2008 => {
                if r <= 3 {
                    2 * r
                } else {
                    12
                }
            }
            FlightCap::None => usize::MAX,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            FlightCap::Tsh => "tsh",
            FlightCap::Nsc => "nsc",
            FlightCap::Nsc2008 => "nsc2008",
            FlightCap::None => "none",
        }
    }
}

impl DivisionConfig {
    /// The defaults a preset implies.
    pub fn from_ruleset(r: &Ruleset) -> DivisionConfig {
        let naspa_note = matches!(
            r.name.as_str(),
            "naspa-2013" | "naspa-2013-csw" | "nsa-2011"
        );
        let literacy = r.name == "literacy-2018";
        DivisionConfig {
            format: if literacy {
                Format::Literacy2018Teams
            } else {
                Format::Individual
            },
            bye_spread: r.bye_spread,
            forfeit_spread: r.forfeit_spread,
            resignation_margin: r.resignation.margin,
            firsts: FirstsPolicy {
                rule: r.first_player,
                forfeiter_alternates: naspa_note,
                byes: ByeFirsts::Ignore,
            },
            tie_breaks: if literacy {
                // Literacy 2018 "Playoffs": team word scores, then point spread.
                vec![TieBreak::PointsFor, TieBreak::Spread]
            } else {
                // tsh's default order.
                vec![
                    TieBreak::Wins,
                    TieBreak::Losses,
                    TieBreak::Spread,
                    TieBreak::Rating,
                ]
            },
            spread_cap: None,
            gibson: None,
            withdrawn_result: WithdrawnResult::ForfeitLoss,
            fontes: FontesDraw::Random,
            ratings: match r.name.as_str() {
                "wespa-2010" => RatingSystem::Wespa,
                "literacy-2018" => RatingSystem::None,
                _ => RatingSystem::Naspa { club: false },
            },
            winner_submits: matches!(r.name.as_str(), "wespa-2010" | "sanspa-1999"),
            rules: r.overrides.clone(),
            max_repeats: None,
            prize_bands: None,
            flight_cap: FlightCap::Tsh,
            class_prizes: ClassPrizes::None,
        }
    }
}

/// A division: its rules, schedule, players and rounds.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Division {
    pub name: String,
    /// The ruleset preset the division is played under (`naspa-2013`, `wespa-2010`, …).
    pub preset: String,
    pub config: DivisionConfig,
    pub schedule: Schedule,
    /// Every random choice (draws, groups, tile draws for firsts) derives from this.
    pub seed: u64,
    pub players: Vec<Player>,
    /// Round `r` is `rounds[r - 1]`.
    pub rounds: Vec<Round>,
    /// Spread penalties and compensations (NASPA IV.B.5, IV.K.5).
    pub adjustments: Vec<SpreadAdjustment>,
    /// Games the server is playing online for this division's pairings, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub online: Vec<OnlineGame>,
    /// Online entries by players' accounts, once the director opened the division to them
    /// (`entries.rs`; not part of tsh's or AUPAIR's files).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entries: Option<crate::entries::OnlineEntries>,
}

/// A pairing played online: the server's game id and the two players (in the server game's seat
/// order, which is the pairing's order when the game was started).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OnlineGame {
    pub round: u32,
    pub first: PlayerId,
    pub second: PlayerId,
    pub game_id: String,
}

/// A player (or, in a team format, a team).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Player {
    pub id: PlayerId,
    pub name: String,
    /// Pre-event rating; 0 means unrated.
    pub rating: i32,
    pub member_id: Option<String>,
    /// Career rated games before the event (tsh `lifeg`), for the ratings multiplier.
    pub career_games: Option<u32>,
    /// Team members, in a team format.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub members: Vec<String>,
    /// The first round the player misses after withdrawing.
    pub withdrawn_from: Option<u32>,
    /// Ejected for cheating or abusive behaviour (WESPA 6.2.4(a)): out of the pairings and
    /// ranked below everyone else.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ejected: bool,
    /// `; key …` fields of an imported `.t` line that tilebag does not read (`board`, `class`,
    /// `rtime`, `time`, `excwins`, `newr`, …), verbatim, written back on export.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tsh_fields: Vec<String>,
    /// The `p12` codes of an imported `.t` line, as read: a withdrawn player's codes for absent
    /// rounds are written back unchanged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tsh_p12: Vec<u8>,
    /// The comment (`#`) and blank lines an imported `.t` file had just before this player's
    /// line, verbatim, written back in their place.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tsh_lines_before: Vec<String>,
    /// The comment and blank lines after this player's line at the end of an imported file.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tsh_lines_after: Vec<String>,
    /// Scores an imported `.t` line had for a game whose opponent's line has none, as (round,
    /// score): not a result (it counts for nobody), written back in the line while the game has
    /// no result.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tsh_one_sided: Vec<(u32, i32)>,
}

impl Player {
    /// Whether the player takes part in round `round`.
    pub fn active_in(&self, round: u32) -> bool {
        self.withdrawn_from.is_none_or(|w| round < w)
    }
}

/// One round's pairings.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Round {
    pub number: u32,
    pub method: Method,
    /// The round whose standings the pairing used (0: before any round).
    pub based_on: u32,
    pub pairings: Vec<Pairing>,
}

/// A seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Seat {
    First,
    Second,
}

/// One entry of a round.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Pairing {
    Game(Game),
    /// NASPA V.K.4: present but not assigned an opponent. A positive spread is a win, a negative
    /// one a loss, zero neither (tsh's convention for `.t` bye rows).
    Bye {
        player: PlayerId,
        spread: i32,
        /// How the bye counts for firsts when set explicitly (e.g. read from a `.t` file);
        /// otherwise the division's policy decides.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        counts_as: Option<Seat>,
        /// Not a bye but a forfeit loss with no opponent (tsh's ForfeitLOSS row: opponent 0, a
        /// negative score; NASPA V.K.1): a loss by `-spread`, not counted as a bye.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        forfeit: bool,
        /// Paired but its result is not in yet (a tsh bye row with no score): no win, no
        /// spread, and the round is not complete until it is entered.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        pending: bool,
    },
    /// A withdrawn player's automatic result (tsh `off`).
    Absent {
        player: PlayerId,
        spread: i32,
    },
}

impl Pairing {
    /// The players of this entry.
    pub fn players(&self) -> Vec<PlayerId> {
        match self {
            Pairing::Game(g) => vec![g.first, g.second],
            Pairing::Bye { player, .. } | Pairing::Absent { player, .. } => vec![*player],
        }
    }

    pub fn involves(&self, p: PlayerId) -> bool {
        match self {
            Pairing::Game(g) => g.first == p || g.second == p,
            Pairing::Bye { player, .. } | Pairing::Absent { player, .. } => *player == p,
        }
    }

    pub fn game(&self) -> Option<&Game> {
        match self {
            Pairing::Game(g) => Some(g),
            _ => None,
        }
    }
}

/// Why the first player goes first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "by", rename_all = "kebab-case")]
pub enum FirstReason {
    /// NASPA III.D.1, SANSPA 6.4, WESPA 2.1(b)(ii): fewer firsts.
    FewerFirsts,
    /// NASPA III.D.2: equal firsts, more seconds.
    MoreSeconds,
    /// WESPA 2.1(b): the start/reply balance is further behind.
    Balance,
    /// NASPA III.D.3, WESPA 2.1(a), SANSPA 6.4, Literacy 2018: a tile draw, nearest to A starts,
    /// a blank beats A, drawn again on a tie. Each pair is (first's tile, second's tile), `?` for
    /// a blank.
    Draw { draws: Vec<(char, char)> },
    /// Set by the director.
    Director,
    /// Read from a file.
    Imported,
    /// Read from a file that does not say who went first (tsh `p12` 3 "must draw", 4 "unknown",
    /// 0, or no `p12` at all; `code` keeps the value read). The seat order is then only the
    /// order of the players, and neither player is charged a first or a second (NASPA III.D
    /// counts only known firsts).
    Unknown { code: u8 },
}

/// A game between two players.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Game {
    /// Table number, from 1.
    pub board: u32,
    pub first: PlayerId,
    pub second: PlayerId,
    pub first_by: FirstReason,
    pub result: Option<GameResult>,
    /// A tally slip submitted by one player and awaiting the other's confirmation (NASPA V.J,
    /// WESPA 5.4, SANSPA 18.10).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub slip: Option<Slip>,
    /// Results the director replaced, oldest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub corrections: Vec<Correction>,
}

impl Game {
    /// Whether `p` plays in this game.
    pub fn involves(&self, p: PlayerId) -> bool {
        self.first == p || self.second == p
    }

    pub fn opponent_of(&self, p: PlayerId) -> Option<PlayerId> {
        if self.first == p {
            Some(self.second)
        } else if self.second == p {
            Some(self.first)
        } else {
            None
        }
    }
    /// Whether the game records who started: not when it was read from a file that does not
    /// say ([`FirstReason::Unknown`]).
    pub fn first_known(&self) -> bool {
        !matches!(self.first_by, FirstReason::Unknown { .. })
    }

    /// The seat `p` started from: `None` when `p` is not in the game, and when the first is not
    /// known ([`FirstReason::Unknown`]: `first` is then only the order of the players, not a
    /// start; NASPA III.D counts only known firsts, so nothing may show or export it as one).
    pub fn seat_of(&self, p: PlayerId) -> Option<Seat> {
        if !self.first_known() {
            None
        } else if self.first == p {
            Some(Seat::First)
        } else if self.second == p {
            Some(Seat::Second)
        } else {
            None
        }
    }
}

/// A submitted, unconfirmed tally slip.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Slip {
    pub submitted_by: PlayerId,
    pub first_score: i32,
    pub second_score: i32,
}

/// A replaced result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Correction {
    pub previous: Option<GameResult>,
    pub note: String,
}

/// Where a result came from.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "from", rename_all = "kebab-case")]
pub enum ResultSource {
    /// Reported by the server when an online game ended.
    Online { game_id: String },
    /// A tally slip signed by both players.
    Slip {
        submitted_by: PlayerId,
        confirmed_by: PlayerId,
    },
    /// Entered or corrected by the director.
    Director,
}

/// The result of a game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum GameResult {
    /// A game that was played (a rated game), with final adjusted scores.
    Played {
        first_score: i32,
        second_score: i32,
        source: ResultSource,
        /// NASPA V.K.2, WESPA 5.7, SANSPA 19.3: this player left the game in progress; the
        /// scores already carry the adjustment.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        left_by: Option<PlayerId>,
        /// This player resigned (NASPA I.B; the margin of NASPA V.K.2 is in the scores): the
        /// result is a played game, but a 0–0 start is not a tie.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        resigned_by: Option<PlayerId>,
    },
    /// NASPA V.K.1 (no-show), WESPA 2.3.6 (lateness), SANSPA 19.2: not rated.
    Forfeit { loser: PlayerId, spread: i32 },
    /// Neither player played: a loss for both (NASPA III.C).
    DoubleForfeit { spread: i32 },
    /// The game does not count for either player (WESPA 6.2.4(a)(i): an ejected player's games
    /// in a round robin).
    Void,
}

/// A player's view of one result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Outcome {
    /// Twice the wins earned: 2 for a win, 1 for a tie.
    pub wins2: u32,
    /// Twice the losses: 2 for a loss, 1 for a tie.
    pub losses2: u32,
    pub spread: i32,
    /// Own and opponent's score, for a played game.
    pub scores: Option<(i32, i32)>,
    pub rated: bool,
}

impl GameResult {
    /// The result as `p` sees it (p must be in the game).
    pub fn outcome_for(&self, game: &Game, p: PlayerId) -> Outcome {
        match self {
            GameResult::Played {
                first_score,
                second_score,
                ..
            } => {
                let (own, opp) = if game.first == p {
                    (*first_score, *second_score)
                } else {
                    (*second_score, *first_score)
                };
                let (w, l) = match own.cmp(&opp) {
                    std::cmp::Ordering::Greater => (2, 0),
                    std::cmp::Ordering::Equal => (1, 1),
                    std::cmp::Ordering::Less => (0, 2),
                };
                Outcome {
                    wins2: w,
                    losses2: l,
                    spread: own - opp,
                    scores: Some((own, opp)),
                    rated: true,
                }
            }
            GameResult::Forfeit { loser, spread } => {
                let won = *loser != p;
                Outcome {
                    wins2: if won { 2 } else { 0 },
                    losses2: if won { 0 } else { 2 },
                    spread: if won { *spread } else { -*spread },
                    scores: None,
                    rated: false,
                }
            }
            GameResult::DoubleForfeit { spread } => Outcome {
                wins2: 0,
                losses2: 2,
                spread: -*spread,
                scores: None,
                rated: false,
            },
            GameResult::Void => Outcome {
                wins2: 0,
                losses2: 0,
                spread: 0,
                scores: None,
                rated: false,
            },
        }
    }
}

/// An outcome for a one-player entry with this spread (tsh: positive is a win, negative a loss).
pub fn solo_outcome(spread: i32) -> Outcome {
    Outcome {
        wins2: if spread > 0 { 2 } else { 0 },
        losses2: if spread < 0 { 2 } else { 0 },
        spread,
        scores: None,
        rated: false,
    }
}

/// Why a spread adjustment was made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum AdjustmentReason {
    /// NASPA IV.B.5: drawing out of order late in the game; up to 50 points.
    DrawingOutOfOrder,
    /// NASPA IV.K.5: a turn lost to an erroneous manual adjudication; the play's score plus 25.
    ErroneousAdjudication { play_score: i32 },
    /// Any other penalty or compensation the director rules.
    Other { note: String },
}

/// A change to a player's cumulative spread, outside any game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SpreadAdjustment {
    pub player: PlayerId,
    /// Counted in standings from this round on.
    pub round: u32,
    pub amount: i32,
    pub reason: AdjustmentReason,
}

/// One player's entry in a round, derived from the pairings.
#[derive(Debug, Clone, PartialEq)]
pub struct PlayerRound<'a> {
    pub pairing: &'a Pairing,
    pub opponent: Option<PlayerId>,
    /// The seat in a game whose first is known ([`Game::seat_of`]); `None` for byes, absences
    /// and a game read from a file that does not say who started.
    pub seat: Option<Seat>,
    /// `None` while the result is not in.
    pub outcome: Option<Outcome>,
}

impl Division {
    pub fn player(&self, id: PlayerId) -> Option<&Player> {
        id.checked_sub(1).and_then(|i| self.players.get(i as usize))
    }

    pub fn round(&self, number: u32) -> Option<&Round> {
        number
            .checked_sub(1)
            .and_then(|i| self.rounds.get(i as usize))
    }

    /// Players still taking part in `round`, in player order.
    pub fn active_players(&self, round: u32) -> Vec<PlayerId> {
        self.players
            .iter()
            .filter(|p| p.active_in(round))
            .map(|p| p.id)
            .collect()
    }

    /// Total rounds the schedule gives this field.
    pub fn total_rounds(&self) -> u32 {
        self.schedule
            .total_rounds(self.players.len())
            .max(self.rounds.len() as u32)
    }

    /// A player's entry in a round.
    pub fn player_round(&self, round: u32, p: PlayerId) -> Option<PlayerRound<'_>> {
        let r = self.round(round)?;
        let pairing = r.pairings.iter().find(|x| x.involves(p))?;
        Some(match pairing {
            Pairing::Game(g) => PlayerRound {
                pairing,
                opponent: g.opponent_of(p),
                seat: g.seat_of(p),
                outcome: g.result.as_ref().map(|res| res.outcome_for(g, p)),
            },
            Pairing::Bye {
                spread, pending, ..
            } => PlayerRound {
                pairing,
                opponent: None,
                seat: None,
                outcome: (!pending).then(|| solo_outcome(*spread)),
            },
            Pairing::Absent { spread, .. } => PlayerRound {
                pairing,
                opponent: None,
                seat: None,
                outcome: Some(solo_outcome(*spread)),
            },
        })
    }

    /// Whether every entry of the round has a result.
    pub fn round_complete(&self, round: u32) -> bool {
        self.round(round).is_some_and(|r| {
            r.pairings.iter().all(|p| match p {
                Pairing::Game(g) => g.result.is_some(),
                Pairing::Bye { pending, .. } => !pending,
                Pairing::Absent { .. } => true,
            })
        })
    }

    /// Active players with no entry in a paired round.
    pub fn unpaired(&self, round: u32) -> Vec<PlayerId> {
        let Some(r) = self.round(round) else {
            return self.active_players(round);
        };
        self.active_players(round)
            .into_iter()
            .filter(|p| !r.pairings.iter().any(|x| x.involves(*p)))
            .collect()
    }

    /// How many times `a` and `b` were paired in rounds before `before`.
    pub fn times_met(&self, a: PlayerId, b: PlayerId, before: u32) -> u32 {
        self.rounds
            .iter()
            .take(before.saturating_sub(1) as usize)
            .flat_map(|r| r.pairings.iter())
            .filter(|p| match p {
                Pairing::Game(g) => {
                    (g.first == a && g.second == b) || (g.first == b && g.second == a)
                }
                _ => false,
            })
            .count() as u32
    }

    /// The ruleset the division records: its preset with the organiser's choices.
    pub fn ruleset(&self) -> Ruleset {
        let preset = Ruleset::preset(&self.preset).unwrap_or_default();
        preset
            .clone()
            .with_overrides(&self.config.rules)
            .unwrap_or(preset)
    }
}
