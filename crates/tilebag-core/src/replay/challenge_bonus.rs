//! The bonus a player receives when the opponent challenged a play that stood (points per word
//! or per turn, as the ruleset chooses: NASPA VI.B.3, WESPA 3.10.15(b)).
//!
//! The bonus must be one a rulebook gives. A record that names its preset (`#game-type
//! naspa-2013-csw`) is held to the choices that preset's book leaves to the organiser; a record
//! that names none may have been played under any of them:
//!
//! - 5 or 10 points for each word challenged (NASPA VI.B.3, NSA VI.B.2, WESPA 3.10.15(b)(ii) and
//!   (iv)). The challenger may challenge any of the words a play formed (NASPA IV.I.3, WESPA
//!   3.10.3(a)), so a play of n words earns the points times 1 up to n.
//! - 5 or 10 points for the turn, whatever its words (WESPA 3.10.15(b)(iii) and (iv)).
//! - Nothing under the single challenge (WESPA 3.10.15(b)(i), SANSPA 13.4) or the double
//!   challenge (NASPA IV.I.3, WESPA 3.10.15(b)(v), Literacy 2018), so no `(challenge)` line.

use std::collections::BTreeSet;

use super::{err, ReplayError, Replayer};
use crate::gcg::GcgEvent;
use crate::ruleset::{ChallengeRule, Ruleset};

/// Every challenge rule an organiser may choose, as `with_override` names them.
const CHALLENGE_CHOICES: [&str; 6] = [
    "single",
    "double",
    "per-word:5",
    "per-word:10",
    "per-turn:5",
    "per-turn:10",
];

/// The challenge rules a book allows, each with the rule that allows it.
fn allowed_rules(presets: &[Ruleset]) -> Vec<(ChallengeRule, &'static str)> {
    let mut out: Vec<(ChallengeRule, &'static str)> = Vec::new();
    for preset in presets {
        for choice in CHALLENGE_CHOICES {
            let mut r = preset.clone();
            if r.with_override("challenge", choice).is_err() {
                continue;
            }
            let cite = citation(r.book(), r.challenge);
            if !out.contains(&(r.challenge, cite)) {
                out.push((r.challenge, cite));
            }
        }
    }
    out
}

/// Where a book allows a challenge rule.
fn citation(book: &str, rule: ChallengeRule) -> &'static str {
    match (book, rule) {
        ("NASPA", ChallengeRule::PointsPerWord { .. }) => "NASPA VI.B.3",
        ("NSA", ChallengeRule::PointsPerWord { .. }) => "NSA VI.B.2",
        ("NASPA", _) => "NASPA IV.I.3",
        ("NSA", _) => "NSA IV.I.3",
        ("WESPA", ChallengeRule::Single) => "WESPA 3.10.15(b)(i)",
        ("WESPA", ChallengeRule::PointsPerWord { .. }) => "WESPA 3.10.15(b)(ii)/(iv)",
        ("WESPA", ChallengeRule::PointsPerTurn { .. }) => "WESPA 3.10.15(b)(iii)/(iv)",
        ("WESPA", _) => "WESPA 3.10.15(b)(v)",
        ("SANSPA", _) => "SANSPA 13.4",
        _ => "Literacy 2018 \"Play\"",
    }
}

/// The bonuses the rules give for a play of `words` words.
fn amounts(rules: &[(ChallengeRule, &'static str)], words: usize) -> BTreeSet<i32> {
    let mut out = BTreeSet::new();
    for (rule, _) in rules {
        match *rule {
            ChallengeRule::PointsPerWord { points } => {
                out.extend((1..=words.max(1) as i32).map(|k| points * k));
            }
            ChallengeRule::PointsPerTurn { points } => {
                out.insert(points);
            }
            ChallengeRule::Single | ChallengeRule::Double | ChallengeRule::Void => {}
        }
    }
    out
}

/// `5, 10 or 20`.
fn or_list(items: &[String]) -> String {
    match items {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

/// What the rules give, for the message: "5 or 10 points a word challenged: NASPA VI.B.3, ...;
/// 5 or 10 a turn: WESPA 3.10.15(b)(iii)/(iv)".
fn describe(rules: &[(ChallengeRule, &'static str)]) -> String {
    let mut per_word: (BTreeSet<i32>, Vec<&str>) = Default::default();
    let mut per_turn: (BTreeSet<i32>, Vec<&str>) = Default::default();
    for &(rule, cite) in rules {
        let (points, cites) = match rule {
            ChallengeRule::PointsPerWord { points } => (points, &mut per_word),
            ChallengeRule::PointsPerTurn { points } => (points, &mut per_turn),
            _ => continue,
        };
        points_and_cites(cites, points, cite);
    }
    let mut parts = Vec::new();
    for ((points, mut cites), what) in
        [(per_word, "points a word challenged"), (per_turn, "a turn")]
    {
        if points.is_empty() {
            continue;
        }
        let points: Vec<String> = points.iter().map(i32::to_string).collect();
        cites.sort_unstable();
        parts.push(format!("{} {what}: {}", or_list(&points), cites.join(", ")));
    }
    parts.join("; ")
}

fn points_and_cites(
    into: &mut (BTreeSet<i32>, Vec<&'static str>),
    points: i32,
    cite: &'static str,
) {
    into.0.insert(points);
    if !into.1.contains(&cite) {
        into.1.push(cite);
    }
}

impl Replayer<'_> {
    /// A `>nick: RACK (challenge) +bonus cumulative` line.
    pub(super) fn replay_challenge_bonus(
        &mut self,
        idx: usize,
        ev: &GcgEvent,
    ) -> Result<(), ReplayError> {
        let line = ev.line;
        // Only for the play just made, before the opponent's next move.
        let words: Vec<String> = match &self.last_play {
            Some((pidx, play, _))
                if self.record.events[*pidx].player == ev.player && pidx + 1 == idx =>
            {
                play.words.iter().map(|w| w.word.clone()).collect()
            }
            _ => {
                return Err(err(
                    line,
                    "a challenge bonus belongs right after the challenged play of the same player, before the opponent's next move",
                ))
            }
        };
        if ev.score < 0 {
            return Err(err(line, "a negative challenge bonus"));
        }
        self.check_bonus_is_one_a_book_gives(ev, &words)?;
        self.add_recorded_score(ev)
    }

    /// The bonus must be one the record's preset gives (or, when it names none, one any book
    /// gives) for a play of these words.
    fn check_bonus_is_one_a_book_gives(
        &self,
        ev: &GcgEvent,
        words: &[String],
    ) -> Result<(), ReplayError> {
        let presets: Vec<Ruleset> = match &self.preset {
            Some(p) => vec![p.clone()],
            None => Ruleset::PRESETS
                .iter()
                .filter_map(|name| Ruleset::preset(name).ok())
                .collect(),
        };
        let rules = allowed_rules(&presets);
        let allowed = amounts(&rules, words.len());
        if allowed.contains(&ev.score) {
            return Ok(());
        }
        let play = format!(
            "a play of {} word{} ({})",
            words.len(),
            if words.len() == 1 { "" } else { "s" },
            words.join(", ")
        );
        let message = match &self.preset {
            Some(p) if allowed.is_empty() => {
                let cites: Vec<&str> = rules.iter().map(|r| r.1).collect();
                format!(
                    "a challenge bonus of {:+} after {play}, but under {} (the record's #game-type) an unsuccessful challenge earns no challenge bonus ({})",
                    ev.score,
                    p.name,
                    cites.join(", ")
                )
            }
            _ => {
                let amounts: Vec<String> = allowed.iter().map(i32::to_string).collect();
                let who = match &self.preset {
                    Some(p) => format!("{} (the record's #game-type)", p.name),
                    None => "a rulebook".to_string(),
                };
                format!(
                    "a challenge bonus of {:+} after {play} is not one {who} gives: it would be {} ({})",
                    ev.score,
                    or_list(&amounts),
                    describe(&rules)
                )
            }
        };
        Err(err(ev.line, message))
    }
}
