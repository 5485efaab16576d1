//! A division's schedule as a short string, e.g. `IF:3 SW:9 KOTH:1`: one token per block of
//! rounds, `CODE[:ROUNDS][@LAG]`.
//!
//! - `CODE` is a pairing method (see [`Method::code`]); `RR` and `DRR` without a count mean one or
//!   two full round-robin cycles, however many players there are.
//! - `ROUNDS` (default 1) is how many rounds the block has.
//! - `LAG` (default 0) is how many completed rounds the pairing may lag behind: round `r` is paired
//!   "based on" round `r - 1 - LAG`, so with `@1` the next round can be posted while the current one
//!   is still being played (tsh's BasedOnRound; the 2007 PC's session pairings).

use std::fmt;

use serde::{Deserialize, Serialize};

/// How a round is paired.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Method {
    /// Berger tables (the circle method); past one cycle the table repeats (double round robin).
    RoundRobin,
    /// 1v2, 3v4 … by standings (tsh KOTH, Woogles KING_OF_THE_HILL).
    KingOfTheHill,
    /// Minimum-cost perfect matching: no repeats if avoidable, equal wins together, top half of a
    /// win group against its bottom half.
    Swiss,
    /// tsh's Initial Fontes: round-robin groups of n+1 drawn one player per seed band.
    InitialFontes,
    /// AUPAIR's Australian Draw: the top remaining player meets the highest-standing opponent
    /// not yet met that still leaves the rest pairable; round 1 is a casement draw.
    AustralianDraw,
    /// Random pairing from the seed, avoiding repeats.
    Random,
    /// Literacy 2018 round 3: the leader plays the middle team, 2nd the next, and so on.
    LeaderVsMiddle,
    /// Literacy 2018 playoffs: 1st v 3rd and 2nd v 4th; the rest King of the Hill.
    Playoff,
    /// Literacy 2018 finals: playoff winners for 1st-2nd, losers for 3rd-4th; the rest KOTH.
    Final,
    /// The director pairs by hand.
    Manual,
    /// tsh's Chew pairings (ChewPair): players whose best possible finish still reaches a prize
    /// band (the division's `prize-bands`), up to tsh's flight cap, are paired among themselves;
    /// the others by their own standing.
    ChewPair,
    /// Woogles/JVC's COP: who is still in contention for the prize bands is decided by
    /// simulating the remaining rounds ([`crate::cop`]); contenders are paired among
    /// themselves (King of the Hill in the last round), the others by their own standing.
    Cop,
}

impl Method {
    pub const ALL: [Method; 12] = [
        Method::RoundRobin,
        Method::KingOfTheHill,
        Method::Swiss,
        Method::InitialFontes,
        Method::AustralianDraw,
        Method::Random,
        Method::LeaderVsMiddle,
        Method::Playoff,
        Method::Final,
        Method::Manual,
        Method::ChewPair,
        Method::Cop,
    ];

    /// The schedule code.
    pub fn code(self) -> &'static str {
        match self {
            Method::RoundRobin => "RR",
            Method::KingOfTheHill => "KOTH",
            Method::Swiss => "SW",
            Method::InitialFontes => "IF",
            Method::AustralianDraw => "AD",
            Method::Random => "RAND",
            Method::LeaderVsMiddle => "LIT3",
            Method::Playoff => "PO",
            Method::Final => "FIN",
            Method::Manual => "MAN",
            Method::ChewPair => "CP",
            Method::Cop => "COP",
        }
    }

    /// A method from its code or a common alias, in any case.
    pub fn from_code(code: &str) -> Option<Method> {
        Some(match code.to_ascii_uppercase().as_str() {
            "RR" | "DRR" | "ROUNDROBIN" => Method::RoundRobin,
            "KOTH" | "KH" => Method::KingOfTheHill,
            "SW" | "SWISS" | "NS" => Method::Swiss,
            "IF" | "FONTES" => Method::InitialFontes,
            "AD" | "AUS" => Method::AustralianDraw,
            "RAND" | "RANDOM" => Method::Random,
            "LIT3" => Method::LeaderVsMiddle,
            "PO" | "PLAYOFF" => Method::Playoff,
            "FIN" | "FINAL" => Method::Final,
            "MAN" | "MANUAL" => Method::Manual,
            "CP" | "CHEW" | "CHEWPAIR" => Method::ChewPair,
            "COP" => Method::Cop,
            _ => return None,
        })
    }

    /// Whether the method reads standings (and so Gibsonization applies).
    pub fn uses_standings(self) -> bool {
        matches!(
            self,
            Method::KingOfTheHill
                | Method::Swiss
                | Method::AustralianDraw
                | Method::ChewPair
                | Method::Cop
        )
    }
}

impl fmt::Display for Method {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// How long a block is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum BlockLength {
    Rounds(u32),
    /// Whole round-robin cycles (`RR`, `DRR` without a count).
    Cycles(u32),
}

/// One token of a schedule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Block {
    pub method: Method,
    pub length: BlockLength,
    pub lag: u32,
}

/// A parsed schedule, keeping its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Schedule {
    pub text: String,
    pub blocks: Vec<Block>,
}

/// A schedule string that does not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ScheduleError {
    #[error("schedule token {token:?}: unknown pairing method {code:?} (known: RR, DRR, KOTH, SW, IF, AD, RAND, LIT3, PO, FIN, MAN, CP, COP)")]
    UnknownMethod { token: String, code: String },
    #[error("schedule token {token:?}: {what} must be a whole number")]
    BadNumber { token: String, what: &'static str },
    #[error("schedule token {token:?}: a block needs at least one round")]
    EmptyBlock { token: String },
}

impl Schedule {
    pub fn parse(text: &str) -> Result<Schedule, ScheduleError> {
        let mut blocks = Vec::new();
        for token in text.split_whitespace() {
            let (body, lag) = match token.split_once('@') {
                Some((b, l)) => (
                    b,
                    l.parse::<u32>().map_err(|_| ScheduleError::BadNumber {
                        token: token.into(),
                        what: "the lag after '@'",
                    })?,
                ),
                None => (token, 0),
            };
            let (code, count) = match body.split_once(':') {
                Some((c, n)) => (
                    c,
                    Some(n.parse::<u32>().map_err(|_| ScheduleError::BadNumber {
                        token: token.into(),
                        what: "the round count after ':'",
                    })?),
                ),
                None => (body, None),
            };
            let method = Method::from_code(code).ok_or_else(|| ScheduleError::UnknownMethod {
                token: token.into(),
                code: code.into(),
            })?;
            let double = code.eq_ignore_ascii_case("DRR");
            let length = match (count, method) {
                (Some(0), _) => {
                    return Err(ScheduleError::EmptyBlock {
                        token: token.into(),
                    })
                }
                (Some(n), _) => BlockLength::Rounds(n),
                (None, Method::RoundRobin) => BlockLength::Cycles(if double { 2 } else { 1 }),
                (None, _) => BlockLength::Rounds(1),
            };
            blocks.push(Block {
                method,
                length,
                lag,
            });
        }
        Ok(Schedule {
            text: text.split_whitespace().collect::<Vec<_>>().join(" "),
            blocks,
        })
    }

    /// Rounds in a round-robin cycle for `players` players (an odd field adds a bye seat).
    pub fn cycle_rounds(players: usize) -> u32 {
        let n = players + players % 2;
        n.saturating_sub(1).max(1) as u32
    }

    fn block_rounds(block: &Block, players: usize) -> u32 {
        match block.length {
            BlockLength::Rounds(n) => n,
            BlockLength::Cycles(c) => c.saturating_mul(Schedule::cycle_rounds(players)),
        }
    }

    /// Total rounds for a field of `players`.
    pub fn total_rounds(&self, players: usize) -> u32 {
        self.blocks
            .iter()
            .map(|b| Schedule::block_rounds(b, players))
            .fold(0u32, |a, b| a.saturating_add(b))
    }

    /// The block that round `round` (1-based) belongs to, with the round where the block starts
    /// and the block's length; `None` past the end of the schedule.
    pub fn block_for(&self, round: u32, players: usize) -> Option<(Block, u32, u32)> {
        let mut start: u32 = 1;
        for b in &self.blocks {
            let len = Schedule::block_rounds(b, players);
            if round < start.saturating_add(len) {
                return Some((*b, start, len));
            }
            start = start.saturating_add(len);
        }
        None
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_issue_example() {
        let s = Schedule::parse("IF:3 SW:9 KOTH:1").unwrap();
        assert_eq!(s.total_rounds(24), 13);
        assert_eq!(s.block_for(1, 24).unwrap().0.method, Method::InitialFontes);
        assert_eq!(s.block_for(3, 24).unwrap().1, 1);
        assert_eq!(s.block_for(4, 24).unwrap().0.method, Method::Swiss);
        assert_eq!(s.block_for(4, 24).unwrap().1, 4);
        assert_eq!(s.block_for(13, 24).unwrap().0.method, Method::KingOfTheHill);
        assert!(s.block_for(14, 24).is_none());
    }

    #[test]
    fn round_robin_cycles_and_lag() {
        let s = Schedule::parse("drr  sw:2@1").unwrap();
        assert_eq!(s.text, "drr sw:2@1");
        // 7 players: a bye seat makes 8, so 7 rounds a cycle, 14 for a double round robin.
        assert_eq!(s.total_rounds(7), 16);
        assert_eq!(s.block_for(15, 7).unwrap().0.lag, 1);
    }

    #[test]
    fn errors_name_the_token() {
        let e = Schedule::parse("IF:3 XX:2").unwrap_err();
        assert!(e.to_string().contains("\"XX:2\""), "{e}");
        assert!(Schedule::parse("SW:x").is_err());
        assert!(Schedule::parse("SW:0").is_err());
        assert!(Schedule::parse("SW:2@z").is_err());
    }
}
