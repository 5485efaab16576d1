//! Reading a `.t` file's player lines: each line on its own (its head, scores and fields), then
//! the lines against each other (opponents and forfeits name each other back).

use super::{is_int, numeric_ish, parse_reason, ForfeitMark, TshError};
use crate::action::{SCORE_RANGE, SPREAD_RANGE};
use crate::model::{PlayerId, SpreadAdjustment};

/// One player line of a `.t` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TshPlayer {
    pub line: usize,
    pub name: String,
    pub member_id: Option<String>,
    pub rating: i32,
    pub opponents: Vec<PlayerId>,
    pub scores: Vec<i32>,
    pub p12: Vec<u8>,
    pub off: Option<i32>,
    pub lifeg: Option<u32>,
    /// `tbwithdrawn`: the first round a withdrawn player misses.
    pub withdrawn_from: Option<u32>,
    /// `tbforfeit`, per round (shorter than `opponents` when the field ends early).
    pub forfeits: Vec<Option<ForfeitMark>>,
    /// `tbleft`, per round: this player left the game in progress.
    pub left: Vec<bool>,
    /// `tbabsent`, per round: an automatic result outside the withdrawal.
    pub absent: Vec<bool>,
    /// `tbunpaired`, per round: no entry at all in this round.
    pub unpaired: Vec<bool>,
    /// `tbejected`: ejected (WESPA 6.2.4(a)).
    pub ejected: bool,
    /// `tbadjust`, with `player` set to this line's player number.
    pub adjustments: Vec<SpreadAdjustment>,
    /// Whether the line has a `p12` field.
    pub has_p12: bool,
    /// Fields tilebag does not read (`board 1 3 2`, `class A`, …), verbatim.
    pub extra: Vec<String>,
    /// The comment (`#`) and blank lines just before this line, verbatim.
    pub lines_before: Vec<String>,
    /// The comment and blank lines after this line at the end of the file (the last player's).
    pub lines_after: Vec<String>,
}

impl TshPlayer {
    /// The `tbforfeit` mark of round `r` (from 0), if any.
    pub(super) fn forfeit(&self, r: usize) -> Option<ForfeitMark> {
        self.forfeits.get(r).copied().flatten()
    }

    /// Whether `tbleft` says this player left their round-`r` game.
    pub(super) fn left_in(&self, r: usize) -> bool {
        self.left.get(r).copied().unwrap_or(false)
    }
}

/// Reads the player lines of a `.t` file, checking that opponents (and both sides of each
/// forfeit) refer to each other. Comment (`#`) and blank lines are kept with the player line
/// after them (or, at the end of the file, the last one).
pub fn parse_t(text: &str) -> Result<Vec<TshPlayer>, TshError> {
    let mut players: Vec<TshPlayer> = Vec::new();
    let mut pending: Vec<String> = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            pending.push(raw.to_string());
            continue;
        }
        let number = players.len() as PlayerId + 1;
        let mut p = parse_player_line(t, i + 1, number)?;
        p.lines_before = std::mem::take(&mut pending);
        players.push(p);
    }
    if let Some(last) = players.last_mut() {
        last.lines_after = pending;
    }
    check_opponents(&players)?;
    Ok(players)
}

fn line_error(line: usize, reason: String) -> TshError {
    TshError::Line { line, reason }
}

/// One player line (`t`, trimmed, line number `line`, player number `number`): the name and
/// numbers before the first `;`, the scores after it, then the `; key …` fields.
fn parse_player_line(t: &str, line: usize, number: PlayerId) -> Result<TshPlayer, TshError> {
    let mut parts = t.split(';');
    let head = parse_head(parts.next().unwrap_or(""), line)?;
    let scores = parse_scores(parts.next(), line)?;
    let mut p = TshPlayer {
        line,
        name: head.name,
        member_id: head.member_id,
        rating: head.rating,
        opponents: head.opponents,
        scores,
        p12: Vec::new(),
        off: None,
        lifeg: None,
        withdrawn_from: None,
        forfeits: Vec::new(),
        left: Vec::new(),
        absent: Vec::new(),
        unpaired: Vec::new(),
        ejected: false,
        adjustments: Vec::new(),
        has_p12: false,
        extra: Vec::new(),
        lines_before: Vec::new(),
        lines_after: Vec::new(),
    };
    for field in parts {
        read_field(&mut p, field, number)?;
    }
    check_rows(&p)?;
    Ok(p)
}

/// What comes before a line's first `;`.
struct LineHead {
    name: String,
    member_id: Option<String>,
    rating: i32,
    opponents: Vec<PlayerId>,
}

/// `Surname, Given[:MEMBERID] RATING OPP1 OPP2 …`.
fn parse_head(head: &str, line: usize) -> Result<LineHead, TshError> {
    let err = line_error;
    let toks: Vec<&str> = head.split_whitespace().collect();
    if toks.is_empty() {
        return Err(err(line, "the line has no player name".into()));
    }
    let k = name_end(&toks);
    if k == toks.len() {
        return Err(err(line, format!("no rating after the name in {head:?}")));
    }
    if k == 0 {
        return Err(err(line, "the line has no player name".into()));
    }
    let mut nums: Vec<i64> = Vec::new();
    for (f, tok) in toks[k..].iter().enumerate() {
        let n = tok.parse::<i64>().map_err(|_| {
            err(
                line,
                if f == 0 {
                    format!("rating {tok:?} is not a whole number")
                } else {
                    format!("round {f}: opponent {tok:?} is not a player number")
                },
            )
        })?;
        nums.push(n);
    }
    let name_part = toks[..k].join(" ");
    let (name, member_id) = match name_part.rsplit_once(':') {
        Some((n, id)) if !id.trim().is_empty() => {
            (n.trim().to_string(), Some(id.trim().to_string()))
        }
        _ => (name_part.clone(), None),
    };
    if name.is_empty() {
        return Err(err(line, "the line has no player name".into()));
    }
    let rating = i32::try_from(nums[0])
        .map_err(|_| err(line, format!("rating {} is out of range", nums[0])))?;
    let mut opponents = Vec::new();
    for (r, &o) in nums[1..].iter().enumerate() {
        if o < 0 || o > u32::MAX as i64 {
            return Err(err(
                line,
                format!("round {}: opponent {o} is not a player number", r + 1),
            ));
        }
        opponents.push(o as PlayerId);
    }
    Ok(LineHead {
        name,
        member_id,
        rating,
        opponents,
    })
}

/// Where the name ends among a line's first tokens: the rating and opponents follow.
fn name_end(toks: &[&str]) -> usize {
    // The name ends at its last token that is not meant as a number; everything after it is
    // the rating, then one opponent per round. A name whose last word is a number is not
    // written by us (it would read as the rating).
    let mut k = toks
        .iter()
        .rposition(|t| !numeric_ish(t))
        .map_or(0, |i| i + 1);
    if k == toks.len() {
        // Something after the numbers is not one ("Ann 1800 x"): start at the run of numbers
        // before it, so the bad token is named as the field it stands in.
        if let Some(j) = toks[..toks.len() - 1].iter().rposition(|t| is_int(t)) {
            let mut s = j;
            while s > 0 && numeric_ish(toks[s - 1]) {
                s -= 1;
            }
            if s > 0 {
                k = s;
            }
        }
    }
    k
}

/// The scores after the first `;`, one a round.
fn parse_scores(scores: Option<&str>, line: usize) -> Result<Vec<i32>, TshError> {
    let Some(sc) = scores else {
        return Ok(Vec::new());
    };
    sc.split_whitespace()
        .enumerate()
        .map(|(r, tok)| {
            tok.parse().map_err(|_| {
                line_error(
                    line,
                    format!("round {}: score {tok:?} is not a number", r + 1),
                )
            })
        })
        .collect()
}

/// One `; key v1 v2 …` field of a line, being read.
struct Field<'a> {
    line: usize,
    key: &'a str,
    vals: Vec<&'a str>,
    /// The rounds the line has opponents for.
    rounds: usize,
}

impl Field<'_> {
    fn err(&self, reason: String) -> TshError {
        line_error(self.line, reason)
    }

    fn num(&self, v: &str) -> Result<i64, TshError> {
        v.parse()
            .map_err(|_| self.err(format!("{}: {v:?} is not a number", self.key)))
    }

    /// Refuses more values than rounds.
    fn per_round(&self, what: &str) -> Result<(), TshError> {
        if self.vals.len() > self.rounds {
            return Err(self.err(format!(
                "{}: {} {what} for {} rounds",
                self.key,
                self.vals.len(),
                self.rounds
            )));
        }
        Ok(())
    }

    /// A `0`/`1` value a round.
    fn flags(&self) -> Result<Vec<bool>, TshError> {
        self.per_round("flags")?;
        self.vals
            .iter()
            .map(|v| match self.num(v)? {
                0 => Ok(false),
                1 => Ok(true),
                x => Err(self.err(format!("{}: {x} is neither 0 nor 1", self.key))),
            })
            .collect()
    }

    /// A round number from 1.
    fn round(&self, v: &str) -> Result<u32, TshError> {
        let r = self.num(v)?;
        if r < 1 || r > u32::MAX as i64 {
            return Err(self.err(format!("{}: {r} is not a round number", self.key)));
        }
        Ok(r as u32)
    }

    /// `p12`: 0 no game, 1 first, 2 second, 3 must draw, 4 unknown.
    fn p12(&self) -> Result<Vec<u8>, TshError> {
        self.per_round("values")?;
        let mut codes = Vec::new();
        for v in &self.vals {
            let x = self.num(v)?;
            if !(0..=4).contains(&x) {
                return Err(self.err(
                    format!("p12: {x} is not 0 (no game), 1 (first), 2 (second), 3 (must draw) or 4 (unknown)"),
                ));
            }
            codes.push(x as u8);
        }
        Ok(codes)
    }

    /// `tbforfeit`: `+N` won by forfeit against N, `-N` forfeited to N, `0` none.
    fn forfeits(&self) -> Result<Vec<Option<ForfeitMark>>, TshError> {
        self.per_round("values")?;
        self.vals
            .iter()
            .map(|v| {
                let x = self.num(v)?;
                if x.unsigned_abs() > u32::MAX as u64 {
                    return Err(self.err(format!("{}: {x} is not a player number", self.key)));
                }
                let p = x.unsigned_abs() as PlayerId;
                Ok(match x.signum() {
                    0 => None,
                    1 => Some(ForfeitMark::Won(p)),
                    _ => Some(ForfeitMark::Lost(p)),
                })
            })
            .collect()
    }

    /// `tbadjust`: `ROUND AMOUNT REASON` triples, for player number `player`.
    fn adjustments(&self, player: PlayerId) -> Result<Vec<SpreadAdjustment>, TshError> {
        let key = self.key;
        if self.vals.len() % 3 != 0 {
            return Err(self.err(format!(
                "{key} takes ROUND AMOUNT REASON triples, not {} values",
                self.vals.len()
            )));
        }
        let mut adjustments = Vec::new();
        for t in self.vals.chunks(3) {
            let round = self.round(t[0])?;
            let amount = i32::try_from(self.num(t[1])?)
                .ok()
                .filter(|a| SPREAD_RANGE.contains(a))
                .ok_or_else(|| self.err(format!("{key}: spread {} is out of range", t[1])))?;
            let reason = parse_reason(t[2]).ok_or_else(|| {
                self.err(format!(
                    "{key}: {:?} is not draw-order, adjudication:SCORE or other:NOTE",
                    t[2]
                ))
            })?;
            adjustments.push(SpreadAdjustment {
                player,
                round,
                amount,
                reason,
            });
        }
        Ok(adjustments)
    }
}

/// Reads one `; key …` field into `p` (player number `number`); a field tilebag does not read is
/// kept verbatim.
fn read_field(p: &mut TshPlayer, text: &str, number: PlayerId) -> Result<(), TshError> {
    let mut kv = text.split_whitespace();
    let Some(key) = kv.next() else {
        return Ok(());
    };
    let f = Field {
        line: p.line,
        key,
        vals: kv.collect(),
        rounds: p.opponents.len(),
    };
    let first = || f.vals.first().map(|v| f.num(v)).transpose();
    match key {
        "p12" => {
            let codes = f.p12()?;
            p.has_p12 = true;
            p.p12.extend(codes);
        }
        "off" => p.off = Some(first()?.unwrap_or(0) as i32),
        "lifeg" => p.lifeg = first()?.map(|x| x.max(0) as u32),
        "tbwithdrawn" => {
            p.withdrawn_from = Some(match f.vals.as_slice() {
                [v] => f.round(v)?,
                _ => return Err(f.err(format!("{key} takes one round number"))),
            });
        }
        "tbforfeit" => p.forfeits = f.forfeits()?,
        "tbleft" => p.left = f.flags()?,
        "tbabsent" => p.absent = f.flags()?,
        "tbunpaired" => p.unpaired = f.flags()?,
        "tbejected" => {
            p.ejected = match f.vals.as_slice() {
                [v] if f.num(v)? == 1 => true,
                [v] if f.num(v)? == 0 => false,
                _ => return Err(f.err(format!("{key} takes 1 or 0"))),
            }
        }
        "tbadjust" => p.adjustments = f.adjustments(number)?,
        // Anything else (board, class, rtime, time, excwins, newr, rrank, …) is kept
        // verbatim for export.
        _ => p.extra.push(text.trim().to_string()),
    }
    Ok(())
}

/// Checks a line on its own: scores and spreads in range, no more scores than rounds, and the
/// per-round fields agreeing with the row each marks.
fn check_rows(p: &TshPlayer) -> Result<(), TshError> {
    let err = |reason: String| line_error(p.line, reason);
    let rounds = p.opponents.len();
    if let Some(s) = p
        .scores
        .iter()
        .chain(p.off.iter())
        .find(|s| !SPREAD_RANGE.contains(s))
    {
        return Err(err(format!("score or spread {s} is out of range")));
    }
    if p.scores.len() > rounds {
        return Err(err(format!(
            "{} scores for {} rounds of opponents",
            p.scores.len(),
            rounds
        )));
    }
    for (r, &o) in p.opponents.iter().enumerate() {
        let round = r + 1;
        let mark = p.forfeit(r);
        if let Some(m) = mark.filter(|_| o != 0) {
            return Err(err(format!(
                "round {round}: tbforfeit names #{}, but the row is paired with #{o} (a forfeit is a row without an opponent)",
                m.opponent()
            )));
        }
        if p.left.get(r) == Some(&true) && o == 0 {
            return Err(err(format!(
                "round {round}: tbleft marks a game, but the row has no opponent"
            )));
        }
        if p.unpaired.get(r) == Some(&true)
            && (o != 0 || mark.is_some() || p.absent.get(r) == Some(&true))
        {
            return Err(err(format!(
                "round {round}: tbunpaired marks a round with no entry, but the row has one"
            )));
        }
        if p.absent.get(r) == Some(&true) && (o != 0 || mark.is_some()) {
            return Err(err(format!(
                "round {round}: tbabsent marks an automatic result, but the row is a game or a forfeit"
            )));
        }
    }
    Ok(())
}

/// Checks the lines against each other: every opponent exists, is not the player, and names the
/// player back; both sides of each forfeit agree; at most one side left a game.
fn check_opponents(players: &[TshPlayer]) -> Result<(), TshError> {
    let n = players.len() as PlayerId;
    for (i, p) in players.iter().enumerate() {
        let me = i as PlayerId + 1;
        let err = |reason: String| line_error(p.line, reason);
        for (r, &o) in p.opponents.iter().enumerate() {
            if o == 0 {
                if let Some(m) = p.forfeit(r) {
                    check_forfeit(players, p, me, r, m)?;
                }
                continue;
            }
            if let Some(&s) = p.scores.get(r) {
                if !SCORE_RANGE.contains(&s) {
                    return Err(err(format!("round {}: score {s} is out of range", r + 1)));
                }
            }
            if o > n {
                return Err(err(format!(
                    "round {}: opponent #{o}, but the file has {n} players",
                    r + 1
                )));
            }
            if o == me {
                return Err(err(format!(
                    "round {}: {} is paired with themselves",
                    r + 1,
                    p.name
                )));
            }
            let other = &players[o as usize - 1];
            let back = other.opponents.get(r).copied();
            if back != Some(me) {
                return Err(err(format!(
                    "round {}: {} plays #{o} ({}), whose line has {}",
                    r + 1,
                    p.name,
                    other.name,
                    match back {
                        Some(0) => "a bye".to_string(),
                        Some(x) => format!("#{x}"),
                        None => "no pairing".to_string(),
                    }
                )));
            }
            if p.left_in(r) && other.left_in(r) {
                return Err(err(format!(
                    "round {}: tbleft says both {} and #{o} ({}) left the game",
                    r + 1,
                    p.name,
                    other.name
                )));
            }
        }
    }
    Ok(())
}

/// Checks one side of a forfeit: the other player's row has no opponent either and names this
/// player back, at most one side won, and the spreads agree.
fn check_forfeit(
    players: &[TshPlayer],
    p: &TshPlayer,
    me: PlayerId,
    r: usize,
    mark: ForfeitMark,
) -> Result<(), TshError> {
    let round = r + 1;
    let fail = |reason: String| TshError::Line {
        line: p.line,
        reason: format!("round {round}: {reason}"),
    };
    let o = mark.opponent();
    if o == me {
        return Err(fail(format!("{} forfeits to themselves", p.name)));
    }
    let Some(other) = (o as usize).checked_sub(1).and_then(|i| players.get(i)) else {
        return Err(fail(format!(
            "tbforfeit names #{o}, but the file has {} players",
            players.len()
        )));
    };
    if other.opponents.get(r).copied() != Some(0) {
        return Err(fail(format!(
            "tbforfeit names #{o} ({}), whose row is not a forfeit",
            other.name
        )));
    }
    let back = other.forfeit(r);
    let agrees = match (mark, back) {
        (ForfeitMark::Won(_), Some(ForfeitMark::Lost(x)))
        | (ForfeitMark::Lost(_), Some(ForfeitMark::Won(x)))
        | (ForfeitMark::Lost(_), Some(ForfeitMark::Lost(x))) => x == me,
        _ => false,
    };
    if !agrees {
        return Err(fail(format!(
            "{} {} #{o} ({}) by forfeit, but that line's tbforfeit has {}",
            p.name,
            match mark {
                ForfeitMark::Won(_) => "beat",
                ForfeitMark::Lost(_) => "lost to",
            },
            other.name,
            match back {
                None => "no forfeit".to_string(),
                Some(ForfeitMark::Won(x)) => format!("+{x}"),
                Some(ForfeitMark::Lost(x)) => format!("-{x}"),
            }
        )));
    }
    if let (Some(&a), Some(&b)) = (p.scores.get(r), other.scores.get(r)) {
        let double = matches!(
            (mark, back),
            (ForfeitMark::Lost(_), Some(ForfeitMark::Lost(_)))
        );
        // A forfeit moves the spread from the loser to the winner (NASPA V.K.1); a double
        // forfeit charges both the same (NASPA III.C).
        let ok = if double { a == b } else { a == -b };
        if !ok {
            return Err(fail(format!(
                "the forfeit's spreads {a} and {b} (#{o}, {}) do not agree",
                other.name
            )));
        }
    }
    Ok(())
}
