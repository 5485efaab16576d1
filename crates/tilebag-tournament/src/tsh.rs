//! tsh `.t` division files and `.tsh` archives.
//!
//! A `.t` line is one player (its line number among player lines is the player number):
//!
//! ```text
//! Surname, Given[:MEMBERID] RATING OPP1 OPP2 … ; SCORE1 SCORE2 … [; KEY V1 V2 …]*
//! ```
//!
//! Opponents are player numbers, `0` for no opponent; scores are the player's own, or on a row
//! with no opponent the spread (a bye `50`, a forfeit loss `-50`). tsh's own fields we write:
//! `p12` for firsts (1 first, 2 second, 0 neither), `off` for a withdrawn player's automatic
//! spread, and `lifeg` for career games. Reading is tolerant (comments, blank lines, unknown keys,
//! one-sided scores); errors give the line number.
//!
//! ## Forfeits, and what else tsh has no field for
//!
//! tsh writes a forfeit as rows without an opponent: `0` in both players' pairings, the winner's
//! score `+spread` and the loser's `-spread` (its ForfeitLOSS command does this, NASPA's results
//! submission examples do too, and tsh refuses a paired 0–50 result as "enter it as a bye";
//! research notes §1.7). We keep that, so tsh reads our files as it reads its own: the win, the
//! loss and the spread count, and nothing is rated (NASPA V.K.1, WESPA 2.3.6(b)). What tsh's rows
//! lose, we add as fields of our own; tsh keeps `; key …` fields it does not know and ignores
//! them. All start with `tb`:
//!
//! | Field | Values | Meaning |
//! |---|---|---|
//! | `tbforfeit` | one per round | `+N`: won by forfeit against player N; `-N`: forfeited to N (both players of a double forfeit, NASPA III.C, have `-`); `0`: no forfeit. |
//! | `tbleft` | one per round | `1`: this player left the game in progress (NASPA V.K.2, WESPA 5.7(c), SANSPA 19.3); the scores are the adjusted ones. |
//! | `tbabsent` | one per round | `1`: a withdrawn player's automatic result in a round the withdrawal no longer covers (the player was reinstated). |
//! | `tbwithdrawn` | a round | The first round a withdrawn player misses (tsh's `off` gives only the spread). |
//! | `tbunpaired` | one per round | `1`: the player has no entry in this round (a late entry, or a round still being paired); written as tsh pads a late entry's rounds (no opponent, score 0), which tsh reads as a bye of 0. A player's rounds after their last entry are left off the line instead. |
//! | `tbejected` | `1` | The player was ejected (WESPA 6.2.4(a)): ranked below everyone else; their earlier results are already the ones the ejection gave. |
//! | `tbadjust` | triples | `ROUND AMOUNT REASON` per spread adjustment (NASPA IV.B.5, IV.K.5): `draw-order`, `adjudication:PLAYSCORE` or `other:NOTE` with the note percent-encoded. tsh's standings leave these out. |
//!
//! A field is written only on the lines of players it concerns. Reading checks that both sides of
//! a forfeit name each other and that their spreads agree.
//!
//! An archive is `division NAME FILE` lines plus each file between `#begin_file name=FILE` and
//! `#end_file name=FILE` (Woogles' tsh export).

use tilebag_core::ruleset::Ruleset;

use crate::action::{Action, ResultEntry, SCORE_RANGE, SPREAD_RANGE};
use crate::model::{
    AdjustmentReason, Division, DivisionConfig, FirstReason, Game, GameResult, Pairing, PlayerId,
    Seat, SpreadAdjustment, Tournament, WithdrawnResult,
};
use crate::schedule::Method;

/// A `.t` file that cannot be read, or a division that cannot be written as one.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TshError {
    #[error("line {line}: {reason}")]
    Line { line: usize, reason: String },
    #[error("{what}: {reason}")]
    Archive { what: String, reason: String },
    #[error("division {division:?}: a .t file lists each player's scores in round order, so a missing result cannot be skipped; enter these first: {}", games.join("; "))]
    Missing {
        division: String,
        /// One line per game (or bye) without a result that has later results after it.
        games: Vec<String>,
    },
    #[error("division {division:?}: player #{player} ({name}): {reason}, so it cannot be written to a .t file unambiguously")]
    AmbiguousName {
        division: String,
        player: PlayerId,
        name: String,
        reason: String,
    },
}

/// One side of a forfeit between two paired players, as its row's `tbforfeit` value records it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForfeitMark {
    /// Won by forfeit against this player.
    Won(PlayerId),
    /// Forfeited to this player (both sides of a double forfeit).
    Lost(PlayerId),
}

impl ForfeitMark {
    pub fn opponent(self) -> PlayerId {
        match self {
            ForfeitMark::Won(p) | ForfeitMark::Lost(p) => p,
        }
    }
}

fn is_int(tok: &str) -> bool {
    tok.parse::<i64>().is_ok()
}

/// A token that is meant as a number (a digit, or a sign and a digit, first): the rating and
/// opponents after a name.
fn numeric_ish(tok: &str) -> bool {
    let t = tok.strip_prefix(['-', '+']).unwrap_or(tok);
    t.starts_with(|c: char| c.is_ascii_digit())
}

/// The text of a `.t` file or `.tsh` archive from its bytes: a UTF-8 byte-order mark is dropped,
/// UTF-8 is read as such, anything else as Latin-1 (tsh files from older events). Bytes that are
/// text in neither (NUL, the C1 controls 0x80–0x9F of a Latin-1 reading) are refused with their
/// line number.
pub fn decode_text(bytes: &[u8]) -> Result<String, TshError> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let line_of = |i: usize| bytes[..i].iter().filter(|&&b| b == b'\n').count() + 1;
    if let Some(i) = bytes.iter().position(|&b| b == 0) {
        return Err(TshError::Line {
            line: line_of(i),
            reason: "the line contains a NUL byte: this is not a text file".into(),
        });
    }
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Ok(s.to_string());
    }
    if let Some(i) = bytes.iter().position(|b| (0x80..0xA0).contains(b)) {
        return Err(TshError::Line {
            line: line_of(i),
            reason: format!(
                "byte 0x{:02X} is neither UTF-8 nor a Latin-1 letter; save the file as UTF-8",
                bytes[i]
            ),
        });
    }
    Ok(bytes.iter().map(|&b| b as char).collect())
}

/// Why a name or member id cannot be written to a `.t` line so that it reads back the same.
fn unwritable(name: &str, member_id: Option<&str>) -> Option<String> {
    if name.split_whitespace().last().is_some_and(is_int) {
        return Some("the name ends in a number (it would read as the rating)".into());
    }
    if let Some(c) = name
        .chars()
        .find(|c| matches!(c, ';' | ':') || c.is_control())
    {
        return Some(format!("the name contains {c:?}"));
    }
    if name.starts_with('#') {
        return Some("the name starts with '#' (a comment line)".into());
    }
    if let Some(id) = member_id {
        if id.is_empty()
            || id
                .chars()
                .any(|c| c.is_whitespace() || matches!(c, ';' | ':'))
        {
            return Some(format!(
                "the member id {id:?} is empty or contains a space, ';' or ':'"
            ));
        }
    }
    None
}

/// Percent-encodes a note so it is one `.t` token: everything but ASCII letters, digits and
/// `-._~` becomes `%XX` (UTF-8 bytes).
fn encode_note(note: &str) -> String {
    let mut out = String::new();
    for b in note.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

fn decode_note(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

fn reason_token(r: &AdjustmentReason) -> String {
    match r {
        AdjustmentReason::DrawingOutOfOrder => "draw-order".into(),
        AdjustmentReason::ErroneousAdjudication { play_score } => {
            format!("adjudication:{play_score}")
        }
        AdjustmentReason::Other { note } => format!("other:{}", encode_note(note)),
    }
}

fn parse_reason(tok: &str) -> Option<AdjustmentReason> {
    if tok == "draw-order" {
        return Some(AdjustmentReason::DrawingOutOfOrder);
    }
    if let Some(n) = tok.strip_prefix("adjudication:") {
        return Some(AdjustmentReason::ErroneousAdjudication {
            play_score: n.parse().ok()?,
        });
    }
    let note = decode_note(tok.strip_prefix("other:")?)?;
    Some(AdjustmentReason::Other { note })
}

fn push_field(line: &mut String, key: &str, vals: &[String]) {
    line.push_str("; ");
    line.push_str(key);
    for v in vals {
        line.push(' ');
        line.push_str(v);
    }
}

/// Writes a division as a `.t` file.
///
/// A `.t` line lists a player's scores in round order with no way to skip one, so a game with no
/// result followed by a later result cannot be written: the export is refused, naming every such
/// game, rather than dropping the later results. Unentered games at the end of a line are fine
/// (the scores list stops there).
pub fn write_t(div: &Division) -> Result<String, TshError> {
    let seats = div.firsts_by_round();
    let mut out = String::new();
    let mut missing: Vec<String> = Vec::new();
    for p in &div.players {
        if let Some(reason) = unwritable(&p.name, p.member_id.as_deref()) {
            return Err(TshError::AmbiguousName {
                division: div.name.clone(),
                player: p.id,
                name: p.name.clone(),
                reason,
            });
        }
        let withdrawn = |round: u32| p.withdrawn_from.is_some_and(|w| round >= w);
        let mut opps = Vec::new();
        let mut scores: Vec<Option<i32>> = Vec::new();
        let mut unscored: Vec<String> = Vec::new();
        let mut p12 = Vec::new();
        let mut forfeits = Vec::new();
        let mut left = Vec::new();
        let mut absent = Vec::new();
        let mut unpaired = Vec::new();
        for (ri, r) in div.rounds.iter().enumerate() {
            let mut forfeit: i64 = 0;
            let mut left_here = false;
            let mut absent_here = false;
            // The p12 code as read from a file, where tilebag has no seat of its own.
            let kept = p.tsh_p12.get(ri).copied();
            let mut code: Option<u8> = None;
            let entry = r.pairings.iter().find(|x| x.involves(p.id));
            unpaired.push(entry.is_none());
            let (opp, score): (PlayerId, Option<i32>) = match entry {
                // No entry: as tsh pads a late entry (tbunpaired says it is none).
                None => (0, Some(0)),
                Some(Pairing::Bye {
                    spread, pending, ..
                }) => {
                    if *pending {
                        unscored.push(format!(
                            "round {}: {}'s bye has no score",
                            r.number,
                            div.who(p.id)
                        ));
                        (0, None)
                    } else {
                        (0, Some(*spread))
                    }
                }
                Some(Pairing::Absent { spread, .. }) => {
                    absent_here = !withdrawn(r.number);
                    code = kept;
                    (0, Some(*spread))
                }
                Some(Pairing::Game(g)) => {
                    let opp = g.opponent_of(p.id).unwrap_or(0);
                    if let FirstReason::Unknown { code: c } = g.first_by {
                        code = Some(kept.unwrap_or(c));
                    }
                    match &g.result {
                        None => {
                            unscored.push(format!(
                                "round {}: {} v {} has no result",
                                r.number,
                                div.who(g.first),
                                div.who(g.second)
                            ));
                            (opp, None)
                        }
                        Some(GameResult::Void) => {
                            return Err(TshError::Archive {
                                what: format!("division {:?}, round {}", div.name, r.number),
                                reason: format!(
                                    "the game of #{} and #{} is void (WESPA 6.2.4(a)(i)); a .t file has no void game",
                                    g.first, g.second
                                ),
                            })
                        }
                        Some(res @ GameResult::Played { left_by, .. }) => {
                            left_here = *left_by == Some(p.id);
                            (opp, res.outcome_for(g, p.id).scores.map(|s| s.0))
                        }
                        // tsh's convention: a forfeit is a row without an opponent, the spread
                        // as the score; `tbforfeit` keeps the opponent.
                        Some(res) => {
                            let won =
                                matches!(res, GameResult::Forfeit { loser, .. } if *loser != p.id);
                            forfeit = if won { opp as i64 } else { -(opp as i64) };
                            (0, Some(res.outcome_for(g, p.id).spread))
                        }
                    }
                }
            };
            opps.push(opp.to_string());
            if score.is_some() && entry.is_some() {
                // Every unscored entry before a scored one is a gap a .t file cannot hold.
                for u in unscored.drain(..) {
                    if !missing.contains(&u) {
                        missing.push(u);
                    }
                }
            }
            scores.push(score);
            p12.push(
                code.unwrap_or(match seats[ri].get(p.id as usize - 1).copied().flatten() {
                    Some(Seat::First) => 1,
                    Some(Seat::Second) => 2,
                    None => 0,
                }),
            );
            forfeits.push(forfeit);
            left.push(left_here);
            absent.push(absent_here);
        }
        // Rounds after the player's last entry are left off the line (a late round still being
        // paired, or a player added after the last round): no opponent, no score, no field.
        let entered = unpaired.iter().rposition(|&u| !u).map_or(0, |i| i + 1);
        opps.truncate(entered);
        scores.truncate(entered);
        p12.truncate(entered);
        forfeits.truncate(entered);
        left.truncate(entered);
        absent.truncate(entered);
        unpaired.truncate(entered);
        let mut line = p.name.clone();
        if let Some(id) = &p.member_id {
            line.push(':');
            line.push_str(id);
        }
        line.push(' ');
        line.push_str(&p.rating.to_string());
        for o in &opps {
            line.push(' ');
            line.push_str(o);
        }
        line.push_str("; ");
        let written: Vec<String> = scores
            .iter()
            .map_while(|s| s.map(|s| s.to_string()))
            .collect();
        line.push_str(&written.join(" "));
        // A line that came without p12 and says nothing known goes out without it too.
        if !p12.is_empty()
            && (!p.tsh_p12.is_empty() || p12.iter().any(|&c| c == 1 || c == 2 || c == 3))
        {
            let vals: Vec<String> = p12.iter().map(|c| c.to_string()).collect();
            push_field(&mut line, "p12", &vals);
        }
        if p.withdrawn_from.is_some() {
            let off = match div.config.withdrawn_result {
                WithdrawnResult::ForfeitLoss => -div.config.forfeit_spread,
                WithdrawnResult::Void => 0,
            };
            push_field(&mut line, "off", &[off.to_string()]);
        }
        if let Some(g) = p.career_games {
            push_field(&mut line, "lifeg", &[g.to_string()]);
        }
        if let Some(from) = p.withdrawn_from {
            push_field(&mut line, "tbwithdrawn", &[from.to_string()]);
        }
        let flags = |v: &[bool]| -> Vec<String> {
            v.iter()
                .map(|&x| if x { "1" } else { "0" }.into())
                .collect()
        };
        if absent.contains(&true) {
            push_field(&mut line, "tbabsent", &flags(&absent));
        }
        if unpaired.contains(&true) {
            push_field(&mut line, "tbunpaired", &flags(&unpaired));
        }
        if p.ejected {
            push_field(&mut line, "tbejected", &["1".to_string()]);
        }
        if forfeits.iter().any(|&f| f != 0) {
            let vals: Vec<String> = forfeits
                .iter()
                .map(|&f| match f {
                    0 => "0".to_string(),
                    f if f > 0 => format!("+{f}"),
                    f => f.to_string(),
                })
                .collect();
            push_field(&mut line, "tbforfeit", &vals);
        }
        if left.contains(&true) {
            push_field(&mut line, "tbleft", &flags(&left));
        }
        let adjust: Vec<String> = div
            .adjustments
            .iter()
            .filter(|a| a.player == p.id)
            .flat_map(|a| {
                [
                    a.round.to_string(),
                    a.amount.to_string(),
                    reason_token(&a.reason),
                ]
            })
            .collect();
        if !adjust.is_empty() {
            push_field(&mut line, "tbadjust", &adjust);
        }
        for f in &p.tsh_fields {
            // A kept field as tsh writes it, whether or not it was given with its `;`.
            let f = f.trim().trim_start_matches(';').trim();
            if !f.is_empty() {
                line.push_str("; ");
                line.push_str(f);
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    if !missing.is_empty() {
        return Err(TshError::Missing {
            division: div.name.clone(),
            games: missing,
        });
    }
    Ok(out)
}

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
}

impl TshPlayer {
    fn forfeit(&self, r: usize) -> Option<ForfeitMark> {
        self.forfeits.get(r).copied().flatten()
    }
    fn left_in(&self, r: usize) -> bool {
        self.left.get(r).copied().unwrap_or(false)
    }
}

/// Reads the player lines of a `.t` file, checking that opponents (and both sides of each
/// forfeit) refer to each other.
pub fn parse_t(text: &str) -> Result<Vec<TshPlayer>, TshError> {
    let err = |line: usize, reason: String| TshError::Line { line, reason };
    let mut players = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        let mut parts = t.split(';');
        let head = parts.next().unwrap_or("");
        let toks: Vec<&str> = head.split_whitespace().collect();
        if toks.is_empty() {
            return Err(err(line, "the line has no player name".into()));
        }
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
        let rounds = opponents.len();
        let mut scores = Vec::new();
        if let Some(sc) = parts.next() {
            for (r, tok) in sc.split_whitespace().enumerate() {
                let s: i32 = tok.parse().map_err(|_| {
                    err(
                        line,
                        format!("round {}: score {tok:?} is not a number", r + 1),
                    )
                })?;
                scores.push(s);
            }
        }
        let mut p12 = Vec::new();
        let mut off = None;
        let mut lifeg = None;
        let mut withdrawn_from = None;
        let mut forfeits = Vec::new();
        let mut left = Vec::new();
        let mut absent = Vec::new();
        let mut unpaired = Vec::new();
        let mut ejected = false;
        let mut adjustments = Vec::new();
        let mut extra = Vec::new();
        let mut has_p12 = false;
        for extra_text in parts {
            let mut kv = extra_text.split_whitespace();
            let Some(key) = kv.next() else { continue };
            let vals: Vec<&str> = kv.collect();
            let num = |v: &str| -> Result<i64, TshError> {
                v.parse()
                    .map_err(|_| err(line, format!("{key}: {v:?} is not a number")))
            };
            let per_round = |what: &str| -> Result<(), TshError> {
                if vals.len() > rounds {
                    return Err(err(
                        line,
                        format!("{key}: {} {what} for {rounds} rounds", vals.len()),
                    ));
                }
                Ok(())
            };
            let flags = || -> Result<Vec<bool>, TshError> {
                per_round("flags")?;
                vals.iter()
                    .map(|v| match num(v)? {
                        0 => Ok(false),
                        1 => Ok(true),
                        x => Err(err(line, format!("{key}: {x} is neither 0 nor 1"))),
                    })
                    .collect()
            };
            match key {
                "p12" => {
                    per_round("values")?;
                    has_p12 = true;
                    for v in &vals {
                        let x = num(v)?;
                        if !(0..=4).contains(&x) {
                            return Err(err(
                                line,
                                format!("p12: {x} is not 0 (no game), 1 (first), 2 (second), 3 (must draw) or 4 (unknown)"),
                            ));
                        }
                        p12.push(x as u8);
                    }
                }
                "off" => off = Some(vals.first().map(|v| num(v)).transpose()?.unwrap_or(0) as i32),
                "lifeg" => {
                    lifeg = vals
                        .first()
                        .map(|v| num(v))
                        .transpose()?
                        .map(|x| x.max(0) as u32)
                }
                "tbwithdrawn" => {
                    let r = match vals.as_slice() {
                        [v] => num(v)?,
                        _ => return Err(err(line, format!("{key} takes one round number"))),
                    };
                    if r < 1 || r > u32::MAX as i64 {
                        return Err(err(line, format!("{key}: {r} is not a round number")));
                    }
                    withdrawn_from = Some(r as u32);
                }
                "tbforfeit" => {
                    per_round("values")?;
                    forfeits = vals
                        .iter()
                        .map(|v| {
                            let x = num(v)?;
                            if x.unsigned_abs() > u32::MAX as u64 {
                                return Err(err(
                                    line,
                                    format!("{key}: {x} is not a player number"),
                                ));
                            }
                            let p = x.unsigned_abs() as PlayerId;
                            Ok(match x.signum() {
                                0 => None,
                                1 => Some(ForfeitMark::Won(p)),
                                _ => Some(ForfeitMark::Lost(p)),
                            })
                        })
                        .collect::<Result<_, _>>()?;
                }
                "tbleft" => left = flags()?,
                "tbabsent" => absent = flags()?,
                "tbunpaired" => unpaired = flags()?,
                "tbejected" => {
                    ejected = match vals.as_slice() {
                        [v] if num(v)? == 1 => true,
                        [v] if num(v)? == 0 => false,
                        _ => return Err(err(line, format!("{key} takes 1 or 0"))),
                    }
                }
                "tbadjust" => {
                    if vals.len() % 3 != 0 {
                        return Err(err(
                            line,
                            format!(
                                "{key} takes ROUND AMOUNT REASON triples, not {} values",
                                vals.len()
                            ),
                        ));
                    }
                    adjustments.clear();
                    for t in vals.chunks(3) {
                        let round = num(t[0])?;
                        if round < 1 || round > u32::MAX as i64 {
                            return Err(err(line, format!("{key}: {round} is not a round number")));
                        }
                        let amount = i32::try_from(num(t[1])?)
                            .ok()
                            .filter(|a| SPREAD_RANGE.contains(a))
                            .ok_or_else(|| {
                                err(line, format!("{key}: spread {} is out of range", t[1]))
                            })?;
                        let reason = parse_reason(t[2]).ok_or_else(|| {
                            err(
                                line,
                                format!(
                                    "{key}: {:?} is not draw-order, adjudication:SCORE or other:NOTE",
                                    t[2]
                                ),
                            )
                        })?;
                        adjustments.push(SpreadAdjustment {
                            player: players.len() as PlayerId + 1,
                            round: round as u32,
                            amount,
                            reason,
                        });
                    }
                }
                // Anything else (board, class, rtime, time, excwins, newr, rrank, …) is kept
                // verbatim for export.
                _ => extra.push(extra_text.trim().to_string()),
            }
        }
        if let Some(s) = scores
            .iter()
            .chain(off.iter())
            .find(|s| !SPREAD_RANGE.contains(s))
        {
            return Err(err(line, format!("score or spread {s} is out of range")));
        }
        if scores.len() > rounds {
            return Err(err(
                line,
                format!("{} scores for {} rounds of opponents", scores.len(), rounds),
            ));
        }
        for (r, &o) in opponents.iter().enumerate() {
            let round = r + 1;
            let mark = forfeits.get(r).copied().flatten();
            if let Some(m) = mark.filter(|_| o != 0) {
                return Err(err(
                    line,
                    format!(
                        "round {round}: tbforfeit names #{}, but the row is paired with #{o} (a forfeit is a row without an opponent)",
                        m.opponent()
                    ),
                ));
            }
            if left.get(r) == Some(&true) && o == 0 {
                return Err(err(
                    line,
                    format!("round {round}: tbleft marks a game, but the row has no opponent"),
                ));
            }
            if unpaired.get(r) == Some(&true)
                && (o != 0 || mark.is_some() || absent.get(r) == Some(&true))
            {
                return Err(err(
                    line,
                    format!("round {round}: tbunpaired marks a round with no entry, but the row has one"),
                ));
            }
            if absent.get(r) == Some(&true) && (o != 0 || mark.is_some()) {
                return Err(err(
                    line,
                    format!("round {round}: tbabsent marks an automatic result, but the row is a game or a forfeit"),
                ));
            }
        }
        players.push(TshPlayer {
            line,
            name,
            member_id,
            rating,
            opponents,
            scores,
            p12,
            off,
            lifeg,
            withdrawn_from,
            forfeits,
            left,
            absent,
            unpaired,
            ejected,
            adjustments,
            has_p12,
            extra,
        });
    }
    let n = players.len() as PlayerId;
    for (i, p) in players.iter().enumerate() {
        let me = i as PlayerId + 1;
        for (r, &o) in p.opponents.iter().enumerate() {
            if o == 0 {
                if let Some(m) = p.forfeit(r) {
                    check_forfeit(&players, p, me, r, m)?;
                }
                continue;
            }
            if let Some(&s) = p.scores.get(r) {
                if !SCORE_RANGE.contains(&s) {
                    return Err(err(
                        p.line,
                        format!("round {}: score {s} is out of range", r + 1),
                    ));
                }
            }
            if o > n {
                return Err(err(
                    p.line,
                    format!(
                        "round {}: opponent #{o}, but the file has {n} players",
                        r + 1
                    ),
                ));
            }
            if o == me {
                return Err(err(
                    p.line,
                    format!("round {}: {} is paired with themselves", r + 1, p.name),
                ));
            }
            let other = &players[o as usize - 1];
            let back = other.opponents.get(r).copied();
            if back != Some(me) {
                return Err(err(
                    p.line,
                    format!(
                        "round {}: {} plays #{o} ({}), whose line has {}",
                        r + 1,
                        p.name,
                        other.name,
                        match back {
                            Some(0) => "a bye".to_string(),
                            Some(x) => format!("#{x}"),
                            None => "no pairing".to_string(),
                        }
                    ),
                ));
            }
            if p.left_in(r) && other.left_in(r) {
                return Err(err(
                    p.line,
                    format!(
                        "round {}: tbleft says both {} and #{o} ({}) left the game",
                        r + 1,
                        p.name,
                        other.name
                    ),
                ));
            }
        }
    }
    Ok(players)
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

/// The entry that, under a resignation margin of `margin`, gives a player who left the game in
/// progress the final scores (`own`, `opp`) (NASPA V.K.2: ahead or level, the opponent's score
/// becomes the leaver's plus the margin; behind, the margin comes off the leaver's score).
fn left_entry(own: i32, opp: i32, margin: i32) -> Option<ResultEntry> {
    let (score, opponent_score) = match (opp - own).cmp(&margin) {
        std::cmp::Ordering::Equal => (own, own),
        std::cmp::Ordering::Greater => (own + margin, opp),
        std::cmp::Ordering::Less => return None,
    };
    Some(ResultEntry::LeftInProgress {
        score,
        opponent_score,
    })
}

/// The actions that rebuild a `.t` file as division `division` (the tournament must already
/// exist): the division, its players, each round's pairings and results, withdrawals and spread
/// adjustments.
pub fn division_actions(
    text: &str,
    division: &str,
    preset: &str,
    schedule: &str,
    seed: u64,
) -> Result<Vec<Action>, TshError> {
    let players = parse_t(text)?;
    if players.is_empty() {
        return Err(TshError::Archive {
            what: format!("division {division}"),
            reason: "the file has no player lines".into(),
        });
    }
    // The margin the division will apply to a left game; an unknown preset is refused when the
    // division is added.
    let config = Ruleset::preset(preset).map(|r| DivisionConfig::from_ruleset(&r));
    let margin = config.as_ref().map_or(50, |c| c.resignation_margin);
    let bye_spread = config.as_ref().map_or(50, |c| c.bye_spread);
    let mut out = vec![Action::AddDivision {
        division: division.into(),
        preset: preset.into(),
        schedule: schedule.into(),
        seed,
    }];
    for (i, p) in players.iter().enumerate() {
        out.push(Action::AddPlayer {
            division: division.into(),
            name: p.name.clone(),
            rating: p.rating,
            member_id: p.member_id.clone(),
            career_games: p.lifeg,
            members: Vec::new(),
        });
        if !p.extra.is_empty() || p.has_p12 {
            out.push(Action::KeepTshFields {
                division: division.into(),
                player: i as PlayerId + 1,
                fields: p.extra.clone(),
                p12: p.p12.clone(),
            });
        }
    }
    // The first round a withdrawn player misses: `tbwithdrawn`, or (a file from tsh) the trailing
    // rows with no opponent and the `off` spread.
    let withdrawn_from: Vec<Option<u32>> = players
        .iter()
        .map(|p| {
            p.withdrawn_from.or_else(|| {
                p.off.map(|off| {
                    let mut from = p.opponents.len();
                    while from > 0
                        && p.opponents[from - 1] == 0
                        && p.forfeit(from - 1).is_none()
                        && p.scores.get(from - 1) == Some(&off)
                    {
                        from -= 1;
                    }
                    from as u32 + 1
                })
            })
        })
        .collect();
    let rounds = players.iter().map(|p| p.opponents.len()).max().unwrap_or(0);
    let p12 = |p: &TshPlayer, r: usize| p.p12.get(r).copied().unwrap_or(0);
    let note = || "imported from a .t file".to_string();
    // Each withdrawal (or ejection) goes into the log before the first round it can precede: the
    // round it starts from or, when the player has games in later rounds (paired before the
    // withdrawal, with their results in the file), the round after the last of them. So a round
    // the file gives the player no entry in stays without one, as it was when posted.
    let leave_at: Vec<Option<u32>> = players
        .iter()
        .zip(&withdrawn_from)
        .map(|(p, w)| {
            let from = match (w, p.ejected) {
                (Some(from), _) => *from,
                (None, true) => rounds as u32 + 1,
                (None, false) => return None,
            };
            let last_game = (0..p.opponents.len())
                .rev()
                .find(|&r| p.opponents[r] != 0 || p.forfeit(r).is_some())
                .map_or(0, |r| r as u32 + 1);
            Some(from.max(last_game + 1))
        })
        .collect();
    let leave = |out: &mut Vec<Action>, i: usize| {
        let player = i as PlayerId + 1;
        if players[i].ejected {
            // WESPA 6.2.4(a): the earlier results in the file are already the ejection's, so
            // ejecting again changes none of them; it withdraws the player and ranks them last.
            out.push(Action::Eject {
                division: division.into(),
                player,
                from_round: withdrawn_from[i].unwrap_or(rounds as u32 + 1),
            });
        } else if let Some(from) = withdrawn_from[i] {
            out.push(Action::Withdraw {
                division: division.into(),
                player,
                from_round: from,
            });
        }
    };
    for r in 0..rounds {
        let round = r as u32 + 1;
        for (i, at) in leave_at.iter().enumerate() {
            if *at == Some(round) {
                leave(&mut out, i);
            }
        }
        let mut pairings = Vec::new();
        let mut results = Vec::new();
        for (i, p) in players.iter().enumerate() {
            let me = i as PlayerId + 1;
            let Some(&opp) = p.opponents.get(r) else {
                continue;
            };
            if p.unpaired.get(r) == Some(&true) {
                continue;
            }
            let mark = p.forfeit(r);
            if opp == 0 && mark.is_none() {
                let score = p.scores.get(r).copied();
                let absent =
                    p.absent.get(r) == Some(&true) || withdrawn_from[i].is_some_and(|w| round >= w);
                if absent {
                    pairings.push(Pairing::Absent {
                        player: me,
                        spread: score.unwrap_or(0),
                    });
                } else {
                    // A row with no opponent: a bye (a positive or zero score), a forfeit loss
                    // (a negative one: tsh's ForfeitLOSS), or a bye not scored yet.
                    pairings.push(Pairing::Bye {
                        player: me,
                        spread: score.unwrap_or(bye_spread),
                        counts_as: match p12(p, r) {
                            1 => Some(Seat::First),
                            2 => Some(Seat::Second),
                            _ => None,
                        },
                        forfeit: score.is_some_and(|s| s < 0),
                        pending: score.is_none(),
                    });
                }
                continue;
            }
            // A game, or a forfeit between paired players (checked by `parse_t`).
            let opp = mark.map_or(opp, ForfeitMark::opponent);
            if me > opp {
                continue;
            }
            let o = &players[opp as usize - 1];
            // Who started, when either line says; otherwise unknown (never invented: NASPA
            // III.D counts only known firsts), in player order.
            let (me_first, first_by) = match (p12(p, r), p12(o, r)) {
                (1, _) | (_, 2) => (true, FirstReason::Imported),
                (2, _) | (_, 1) => (false, FirstReason::Imported),
                (code, _) => (
                    true,
                    FirstReason::Unknown {
                        code: if p.has_p12 { code } else { 4 },
                    },
                ),
            };
            let (first, second) = if me_first { (me, opp) } else { (opp, me) };
            pairings.push(Pairing::Game(Game {
                board: 0,
                first,
                second,
                first_by,
                result: None,
                slip: None,
                corrections: Vec::new(),
            }));
            let (Some(&a), Some(&b)) = (p.scores.get(r), o.scores.get(r)) else {
                continue;
            };
            let (player, result) = match (mark, o.forfeit(r)) {
                (Some(ForfeitMark::Won(_)), _) => (opp, ResultEntry::Forfeit { spread: Some(a) }),
                (Some(ForfeitMark::Lost(_)), Some(ForfeitMark::Won(_))) => {
                    (me, ResultEntry::Forfeit { spread: Some(b) })
                }
                (Some(ForfeitMark::Lost(_)), _) => {
                    (me, ResultEntry::DoubleForfeit { spread: Some(-a) })
                }
                (None, _) => {
                    let leaver = if p.left_in(r) {
                        Some((p, me, a, b))
                    } else if o.left_in(r) {
                        Some((o, opp, b, a))
                    } else {
                        None
                    };
                    match leaver {
                        None => (
                            me,
                            ResultEntry::Scores {
                                score: a,
                                opponent_score: b,
                            },
                        ),
                        Some((lp, id, own, other)) => {
                            let entry = left_entry(own, other, margin).ok_or_else(|| {
                                TshError::Line {
                                    line: lp.line,
                                    reason: format!(
                                        "round {round}: {} left the game in progress, so loses by at least {margin} (NASPA V.K.2), but the scores are {own}–{other}",
                                        lp.name
                                    ),
                                }
                            })?;
                            (id, entry)
                        }
                    }
                }
            };
            results.push(Action::SetResult {
                division: division.into(),
                round,
                player,
                result,
                note: note(),
            });
        }
        let mut board = 0;
        for x in pairings.iter_mut() {
            if let Pairing::Game(g) = x {
                board += 1;
                g.board = board;
            }
        }
        out.push(Action::Pair {
            division: division.into(),
            round,
            method: Method::Manual,
            based_on: round - 1,
            pairings,
        });
        out.extend(results);
    }
    for (i, at) in leave_at.iter().enumerate() {
        if at.is_some_and(|at| at as usize > rounds) {
            leave(&mut out, i);
        }
    }
    for p in &players {
        for a in &p.adjustments {
            out.push(Action::AdjustSpread {
                division: division.into(),
                player: a.player,
                round: a.round,
                reason: a.reason.clone(),
                amount: Some(a.amount),
            });
        }
    }
    Ok(out)
}

/// The file name a division gets in an archive.
pub fn file_name(division: &str) -> String {
    let safe: String = division
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("{safe}.t")
}

/// Writes a whole tournament as a `.tsh` archive.
pub fn write_tsh_archive(t: &Tournament) -> Result<String, TshError> {
    let mut out = String::new();
    out.push_str(&format!("# {}\n", t.name));
    for d in &t.divisions {
        out.push_str(&format!("division {} {}\n", d.name, file_name(&d.name)));
    }
    for d in &t.divisions {
        let f = file_name(&d.name);
        out.push_str(&format!("#begin_file name={f}\n"));
        out.push_str(&write_t(d)?);
        out.push_str(&format!("#end_file name={f}\n"));
    }
    Ok(out)
}

/// Reads a `.tsh` archive into (division name, `.t` text) pairs, in `division` line order.
pub fn read_tsh_archive(text: &str) -> Result<Vec<(String, String)>, TshError> {
    let mut divisions = Vec::new();
    let mut files: Vec<(String, String)> = Vec::new();
    let mut current: Option<(String, String, usize)> = None;
    for (i, line) in text.lines().enumerate() {
        let t = line.trim();
        if let Some(name) = t.strip_prefix("#begin_file name=") {
            current = Some((name.trim().to_string(), String::new(), i + 1));
        } else if let Some(name) = t.strip_prefix("#end_file name=") {
            match current.take() {
                Some((n, body, _)) if n == name.trim() => files.push((n, body)),
                _ => {
                    return Err(TshError::Line {
                        line: i + 1,
                        reason: format!("#end_file for {:?} without its #begin_file", name.trim()),
                    })
                }
            }
        } else if let Some((_, body, _)) = &mut current {
            body.push_str(line);
            body.push('\n');
        } else if let Some(rest) = t.strip_prefix("division ") {
            let mut w = rest.split_whitespace();
            if let (Some(d), Some(f)) = (w.next(), w.next()) {
                divisions.push((d.to_string(), f.to_string()));
            }
        }
    }
    if let Some((n, _, line)) = current {
        return Err(TshError::Line {
            line,
            reason: format!("#begin_file for {n:?} is never closed"),
        });
    }
    if divisions.is_empty() {
        return Err(TshError::Archive {
            what: "the archive".into(),
            reason: match files.first() {
                Some((f, _)) => format!(
                    "names no division (no `division NAME FILE` line), so file {f} belongs to none"
                ),
                None => "names no division (no `division NAME FILE` line)".into(),
            },
        });
    }
    if let Some((f, _)) = files
        .iter()
        .find(|(f, _)| !divisions.iter().any(|(_, df)| df == f))
    {
        return Err(TshError::Archive {
            what: format!("file {f}"),
            reason: "no `division NAME FILE` line names it".into(),
        });
    }
    divisions
        .into_iter()
        .map(|(d, f)| {
            files
                .iter()
                .find(|(n, _)| *n == f)
                .map(|(_, body)| (d.clone(), body.clone()))
                .ok_or(TshError::Archive {
                    what: format!("division {d}"),
                    reason: format!("file {f} is not in the archive"),
                })
        })
        .collect()
}
