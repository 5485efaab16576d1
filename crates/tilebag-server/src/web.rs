//! The web UI: its files, embedded in the binary (plain HTML, CSS and ES modules; no build step,
//! no external fonts or scripts), and the two endpoints only the over-the-board tools need:
//!
//! - `POST /api/judge` `{"words": [..], "lexicon"?: name}` → `{"acceptable": bool}`: the word
//!   judge kiosk (NASPA IV.J.1). One verdict for the whole play, never naming a word; every
//!   adjudication is appended to a log ([`JudgeLogFile`], `tilebag-judge.log` beside the database).
//! - `POST /api/gcg/verify` `{"gcg": text}` (or the GCG text itself) → the replay of the record,
//!   line by line: the score the engine computed, the words formed, and where the record differs
//!   ([`verify_gcg`]). The over-the-board score sheet checks every announced score with it.
//!
//! Pages: `/` (lobby), `/game/ID` and `/games/ID` (a seat with `?token=`, else an observer),
//! `/clock`, `/judge`, `/scoresheet`. Everything else the pages load is under `/assets/`.
//!
//! The handlers here are plain functions (no HTTP types) so they can be tested directly; `http.rs`
//! routes to them.

use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{SystemTime, UNIX_EPOCH};
use tilebag_core::gcg::{parse_gcg, ExchangedTiles, GcgEventKind, GcgRecord};
use tilebag_core::replay::{Completion, Replayer};
use tilebag_core::{Square, WordJudge};
use tilebag_live::protocol::ErrorCode;

const HTML: &str = "text/html; charset=utf-8";
const CSS: &str = "text/css; charset=utf-8";
const JS: &str = "text/javascript; charset=utf-8";
const SVG: &str = "image/svg+xml";

/// `assets![name => type, ...]`: the files of `web/assets/`, served as `/assets/NAME`.
macro_rules! assets {
    ($($name:literal => $ct:expr),* $(,)?) => {
        &[$((
            concat!("/assets/", $name),
            $ct,
            include_bytes!(concat!("../web/assets/", $name)) as &[u8],
        )),*]
    };
}

/// Files under `/assets/`, by path.
const ASSETS: &[(&str, &str, &[u8])] = assets![
    "style.css" => CSS,
    "common.js" => JS,
    "board.js" => JS,
    "game.js" => JS,
    "analysis.js" => JS,
    "lobby.js" => JS,
    "rematch.js" => JS,
    "chat.js" => JS,
    "clock.js" => JS,
    "judge.js" => JS,
    "scoresheet.js" => JS,
    "td.js" => JS,
    "td.css" => CSS,
    "favicon.svg" => SVG,
];

const INDEX: &[u8] = include_bytes!("../web/index.html");
const GAME: &[u8] = include_bytes!("../web/game.html");
const CLOCK: &[u8] = include_bytes!("../web/clock.html");
const JUDGE: &[u8] = include_bytes!("../web/judge.html");
const SCORESHEET: &[u8] = include_bytes!("../web/scoresheet.html");

/// The embedded file for a request path (without the query string): its content type and bytes.
/// `None` for anything that is not a page or an asset (the caller answers 404).
pub fn asset(path: &str) -> Option<(&'static str, &'static [u8])> {
    let page = |bytes: &'static [u8]| Some((HTML, bytes));
    match path {
        "/" | "/index.html" => return page(INDEX),
        "/clock" | "/clock/" | "/clock.html" => return page(CLOCK),
        "/judge" | "/judge/" | "/judge.html" => return page(JUDGE),
        "/scoresheet" | "/scoresheet/" | "/scoresheet.html" => return page(SCORESHEET),
        "/favicon.ico" => return Some((SVG, include_bytes!("../web/assets/favicon.svg"))),
        _ => {}
    }
    if let Some(rest) = path
        .strip_prefix("/game/")
        .or_else(|| path.strip_prefix("/games/"))
    {
        // One path segment: the game id (the page reads it from the address).
        let id = rest.strip_suffix('/').unwrap_or(rest);
        let plausible = !id.is_empty()
            && id.len() <= 64
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        return plausible.then_some((HTML, GAME));
    }
    ASSETS
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|(_, ct, bytes)| (*ct, *bytes))
}

/// Every embedded file's path (for tests and the docs).
pub fn asset_paths() -> impl Iterator<Item = &'static str> {
    ["/", "/clock", "/judge", "/scoresheet"]
        .into_iter()
        .chain(ASSETS.iter().map(|(p, _, _)| *p))
}

/// Why a request to one of these endpoints was refused: an [`ErrorCode`] and a message naming
/// the thing at fault.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{message}")]
pub struct WebError {
    pub code: ErrorCode,
    pub message: String,
}

impl WebError {
    fn new(code: ErrorCode, message: impl Into<String>) -> WebError {
        WebError {
            code,
            message: message.into(),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// The word judge

/// `POST /api/judge`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JudgeRequest {
    pub words: Vec<String>,
    #[serde(default)]
    pub lexicon: Option<String>,
}

/// The one verdict for the play. Deliberately nothing else: NASPA IV.J.1 never names the word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct JudgeResponse {
    pub acceptable: bool,
}

/// One adjudication, as the log records it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Adjudication<'a> {
    pub words: &'a [String],
    pub acceptable: bool,
    pub lexicon: &'a str,
}

impl Adjudication<'_> {
    /// `ACCEPTABLE` or `NOT ACCEPTABLE`, as the kiosk shows it.
    pub fn verdict(&self) -> &'static str {
        if self.acceptable {
            "ACCEPTABLE"
        } else {
            "NOT ACCEPTABLE"
        }
    }
}

/// Where adjudications are kept.
pub trait JudgeLog: Send + Sync {
    fn record(&self, entry: &Adjudication<'_>) -> std::io::Result<()>;
}

/// The judge log file: one line per adjudication, `UTC time<TAB>words<TAB>verdict<TAB>lexicon`
/// (the same lines `tilebag judge` writes), appended.
#[derive(Debug)]
pub struct JudgeLogFile {
    path: PathBuf,
    lock: Mutex<()>,
}

impl JudgeLogFile {
    pub fn new(path: impl Into<PathBuf>) -> JudgeLogFile {
        JudgeLogFile {
            path: path.into(),
            lock: Mutex::new(()),
        }
    }

    /// `tilebag-judge.log` beside the SQLite database file; in the working directory for a
    /// PostgreSQL URL.
    pub fn beside_database(database: &str) -> JudgeLogFile {
        JudgeLogFile::new(judge_log_path(database))
    }

    pub fn path(&self) -> &Path {
        &self.path
    }
}

/// The default judge log path for a database setting (see [`JudgeLogFile::beside_database`]).
pub fn judge_log_path(database: &str) -> PathBuf {
    beside_database(database, "tilebag-judge.log")
}

/// `name` in the SQLite database file's folder; in the working directory for a PostgreSQL URL.
pub fn beside_database(database: &str, name: &str) -> PathBuf {
    if database.starts_with("postgres://") || database.starts_with("postgresql://") {
        return PathBuf::from(name);
    }
    let db = Path::new(database.strip_prefix("sqlite://").unwrap_or(database));
    match db.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir.join(name),
        _ => PathBuf::from(name),
    }
}

impl JudgeLog for JudgeLogFile {
    fn record(&self, e: &Adjudication<'_>) -> std::io::Result<()> {
        let line = format!(
            "{}\t{}\t{}\t{}\n",
            utc_timestamp(SystemTime::now()),
            e.words.join(" "),
            e.verdict(),
            e.lexicon
        );
        let _guard = self.lock.lock().unwrap_or_else(|p| p.into_inner());
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)?;
        // One write per line, so concurrent writers (two servers, the CLI) never interleave.
        f.write_all(line.as_bytes())
    }
}

/// A log kept in memory (tests, or a server run without a writable directory).
#[derive(Debug, Default)]
pub struct MemoryJudgeLog {
    pub lines: Mutex<Vec<String>>,
}

impl JudgeLog for MemoryJudgeLog {
    fn record(&self, e: &Adjudication<'_>) -> std::io::Result<()> {
        self.lines
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .push(format!(
                "{}\t{}\t{}",
                e.words.join(" "),
                e.verdict(),
                e.lexicon
            ));
        Ok(())
    }
}

/// `YYYY-MM-DDTHH:MM:SSZ`.
pub fn utc_timestamp(t: SystemTime) -> String {
    let secs = t
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    tilebag_core::civil::utc_text(secs)
}

/// The most words one adjudication may name (a play forms at most 8; NASPA lets the challenger
/// name any of them).
pub const MAX_JUDGE_WORDS: usize = 16;
/// Longer than any word that fits on a board, with room for typing slips.
pub const MAX_JUDGE_WORD_LEN: usize = 32;

/// Pick the lexicon a request names (or the default), with a message listing the loaded ones.
pub fn resolve_lexicon<'a, J>(
    lexicons: &'a HashMap<String, J>,
    default: &'a str,
    requested: Option<&'a str>,
) -> Result<(&'a str, &'a J), WebError> {
    let name = requested.unwrap_or(default);
    match lexicons.get_key_value(name) {
        Some((k, j)) => Ok((k.as_str(), j)),
        None => {
            let mut names: Vec<&String> = lexicons.keys().collect();
            names.sort();
            Err(WebError::new(
                ErrorCode::BadRequest,
                format!("unknown lexicon {name:?}; loaded: {names:?}"),
            ))
        }
    }
}

/// Judge a play: acceptable only if every word is (NASPA IV.J.1: one verdict for the whole play,
/// never saying which word failed). The words are checked for shape, uppercased, judged, and the
/// adjudication is logged before the verdict is returned: a verdict the log did not keep is not
/// given.
pub fn judge_words(
    words: &[String],
    lexicon_name: &str,
    lexicon: &dyn WordJudge,
    log: &dyn JudgeLog,
) -> Result<JudgeResponse, WebError> {
    if words.is_empty() {
        return Err(WebError::new(
            ErrorCode::BadRequest,
            "name at least one challenged word",
        ));
    }
    if words.len() > MAX_JUDGE_WORDS {
        return Err(WebError::new(
            ErrorCode::BadRequest,
            format!(
                "at most {MAX_JUDGE_WORDS} words may be judged at once; {} were named",
                words.len()
            ),
        ));
    }
    let mut clean = Vec::with_capacity(words.len());
    for (i, w) in words.iter().enumerate() {
        let w = w.trim();
        if w.is_empty() {
            return Err(WebError::new(
                ErrorCode::BadRequest,
                format!("word {} is empty", i + 1),
            ));
        }
        if w.chars().count() > MAX_JUDGE_WORD_LEN {
            return Err(WebError::new(
                ErrorCode::BadRequest,
                format!("word {} is longer than {MAX_JUDGE_WORD_LEN} letters", i + 1),
            ));
        }
        if let Some(bad) = w.chars().find(|c| !c.is_ascii_alphabetic()) {
            return Err(WebError::new(
                ErrorCode::BadRequest,
                format!("word {} is not a word: {bad:?} is not a letter", i + 1),
            ));
        }
        clean.push(w.to_ascii_uppercase());
    }
    let acceptable = clean.iter().all(|w| lexicon.is_valid(w));
    let entry = Adjudication {
        words: &clean,
        acceptable,
        lexicon: lexicon_name,
    };
    log.record(&entry).map_err(|e| {
        WebError::new(
            ErrorCode::Internal,
            format!("the adjudication could not be logged, so no verdict is given: {e}"),
        )
    })?;
    Ok(JudgeResponse { acceptable })
}

/// Read a `POST /api/judge` body and judge it with the lexicon it names (or the default).
pub fn judge_request<J: AsRef<dyn WordJudge + Send + Sync>>(
    body: &[u8],
    lexicons: &HashMap<String, J>,
    default_lexicon: &str,
    log: &dyn JudgeLog,
) -> Result<JudgeResponse, WebError> {
    let req: JudgeRequest = serde_json::from_slice(body).map_err(|e| {
        WebError::new(
            ErrorCode::BadMessage,
            format!("expected {{\"words\": [...], \"lexicon\"?: name}}: {e}"),
        )
    })?;
    let (name, lexicon) = resolve_lexicon(lexicons, default_lexicon, req.lexicon.as_deref())?;
    judge_words(&req.words, name, lexicon.as_ref(), log)
}

// ---------------------------------------------------------------------------------------------
// Checking a score sheet

/// The replay of a GCG record, line by line.
#[derive(Debug, Clone, Serialize)]
pub struct VerifyResponse {
    /// No line differs and the record could be read.
    pub ok: bool,
    /// The record could not be read at all (the reader's error, with its line).
    pub error: Option<LineError>,
    /// The players' names as the record gives them (the nick when it gives no full name).
    pub players: [String; 2],
    /// One entry per event line, in order.
    pub lines: Vec<VerifiedLine>,
    /// Every line that differs from the board, in order.
    pub errors: Vec<LineError>,
    pub warnings: Vec<String>,
    /// The scores as the engine computed them.
    pub scores: [i32; 2],
    /// The record reaches the end of the game.
    pub complete: bool,
    /// The tiles not on the board (the bag and both racks), sorted, `?` for a blank.
    pub unseen: String,
    /// The board after the lines the engine could replay: 15 rows, `.` empty, lowercase a blank.
    pub board: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LineError {
    /// 1-based line of the GCG text.
    pub line: usize,
    pub message: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct VerifiedLine {
    /// 1-based line of the GCG text.
    pub line: usize,
    pub player: usize,
    /// The move as recorded, in GCG notation (`8D WORD`, `-`, `-ABC`, `--`, `(challenge)` ...).
    pub r#move: String,
    pub recorded_score: i32,
    pub recorded_cumulative: i32,
    /// What the engine computed; `null` when the line could not be replayed.
    pub score: Option<i32>,
    pub cumulative: Option<i32>,
    /// For a play: every word formed, main word first.
    pub words: Vec<String>,
    /// The line was replayed (false for lines after one the engine could not replay).
    pub checked: bool,
    /// Where this line differs from the board.
    pub error: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VerifyRequest {
    gcg: String,
}

/// Read a `POST /api/gcg/verify` body: `{"gcg": "..."}`, or the GCG text itself.
pub fn verify_request(body: &[u8]) -> Result<VerifyResponse, WebError> {
    let first = body.iter().find(|b| !b.is_ascii_whitespace());
    if first == Some(&b'{') {
        let req: VerifyRequest = serde_json::from_slice(body).map_err(|e| {
            WebError::new(
                ErrorCode::BadMessage,
                format!("expected {{\"gcg\": text}} or the GCG text itself: {e}"),
            )
        })?;
        return Ok(verify_gcg(req.gcg.as_bytes()));
    }
    Ok(verify_gcg(body))
}

fn move_text(kind: &GcgEventKind) -> String {
    match kind {
        GcgEventKind::Play { position, word } => format!("{position} {word}"),
        GcgEventKind::Exchange(ExchangedTiles::Known(t)) => format!("-{t}"),
        GcgEventKind::Exchange(ExchangedTiles::Count(n)) => format!("-{n}"),
        GcgEventKind::Pass => "-".into(),
        GcgEventKind::Withdrawal => "--".into(),
        GcgEventKind::ChallengeBonus => "(challenge)".into(),
        GcgEventKind::TimePenalty => "(time)".into(),
        GcgEventKind::EndRack { tiles } => format!("({tiles})"),
    }
}

/// Replay a GCG record against the board and say, line by line, what the engine computed and
/// where the record differs.
///
/// A score sheet written at the board is checked as it grows, so one wrong score must not hide
/// the lines after it: when a line's score or cumulative score is wrong but its move is legal,
/// that line is reported and the replay goes on as if the right score had been written (later
/// cumulative scores are shifted by the same amount, so they are judged on their own). A move the
/// engine cannot replay (an illegal placement, a move out of turn ...) stops the check there:
/// what follows it depends on a board nobody can know.
pub fn verify_gcg(text: &[u8]) -> VerifyResponse {
    let record = match parse_gcg(text) {
        Ok(r) => r,
        Err(e) => {
            let empty = GcgRecord::default();
            let r = Replayer::new(&empty);
            return VerifyResponse {
                ok: false,
                error: Some(LineError {
                    line: e.line(),
                    message: e.to_string(),
                }),
                players: [String::new(), String::new()],
                lines: Vec::new(),
                errors: Vec::new(),
                warnings: Vec::new(),
                scores: [0, 0],
                complete: false,
                unseen: r.set.tiles_to_string(&r.unseen()),
                board: board_rows(&r),
            };
        }
    };
    let n = record.events.len();
    let mut lines: Vec<VerifiedLine> = record
        .events
        .iter()
        .map(|e| VerifiedLine {
            line: e.line,
            player: e.player,
            r#move: move_text(&e.kind),
            recorded_score: e.score,
            recorded_cumulative: e.cumulative,
            score: None,
            cumulative: None,
            words: Vec::new(),
            checked: false,
            error: None,
        })
        .collect();
    // The record as the engine would have written it so far: corrected scores for lines already
    // reported, so each replay reports the next difference.
    let mut patched = record.clone();
    // Each pass either finishes or corrects one line further on; bound it all the same.
    for _ in 0..=(2 * n + 2) {
        let mut r = Replayer::new(&patched);
        let mut idx = 0usize;
        let mut failure = None;
        loop {
            let before_scores = r.scores;
            let before_tiles = r.board.tile_count();
            match r.step() {
                Ok(true) => {
                    if let Some(done) = r.events.last() {
                        let l = &mut lines[idx];
                        l.score = Some(done.score);
                        l.cumulative = Some(done.cumulative);
                        l.words = done.words.clone();
                        l.checked = true;
                    }
                    idx += 1;
                }
                Ok(false) => break,
                Err(e) => {
                    failure = Some((idx, e, before_scores, before_tiles));
                    break;
                }
            }
        }
        let Some((k, err, before_scores, before_tiles)) = failure else {
            return finish(record, lines, r, false);
        };
        let ev = &patched.events[k];
        let p = ev.player.min(1);
        // What the engine would have written on this line, if the move itself is legal.
        let engine_score = match &ev.kind {
            GcgEventKind::Play { .. } if r.board.tile_count() != before_tiles => {
                Some(r.scores[p] - before_scores[p])
            }
            GcgEventKind::Pass | GcgEventKind::Exchange(_) => Some(0),
            GcgEventKind::ChallengeBonus | GcgEventKind::TimePenalty => Some(ev.score),
            _ => None,
        };
        let fixable = engine_score
            .map(|s| (s, r.scores[p]))
            .filter(|&(s, cum)| (s, cum) != (ev.score, ev.cumulative));
        let l = &mut lines[k];
        l.error = Some(err.message.clone());
        match fixable {
            Some((score, cum)) => {
                l.score = Some(score);
                l.cumulative = Some(cum);
                l.checked = true;
                let shift = cum - ev.cumulative;
                let e = &mut patched.events[k];
                e.score = score;
                e.cumulative = cum;
                for later in patched.events.iter_mut().skip(k + 1) {
                    if later.player.min(1) == p {
                        later.cumulative += shift;
                    }
                }
            }
            None => {
                // The lines after it cannot be checked; the board stays as it was before it.
                return finish(record, lines, r, true);
            }
        }
    }
    // Not reached in practice (each pass fixes one more line); report what is known.
    let r = Replayer::new(&record);
    finish(record.clone(), lines, r, true)
}

fn finish(
    record: GcgRecord,
    lines: Vec<VerifiedLine>,
    r: Replayer<'_>,
    stopped: bool,
) -> VerifyResponse {
    let errors: Vec<LineError> = lines
        .iter()
        .filter_map(|l| {
            l.error.as_ref().map(|m| LineError {
                line: l.line,
                message: m.clone(),
            })
        })
        .collect();
    let unseen = r.set.tiles_to_string(&sorted(r.unseen()));
    let board = board_rows(&r);
    let report = r.finish();
    VerifyResponse {
        ok: errors.is_empty(),
        error: None,
        players: record.players.clone().map(|p| {
            if p.name.trim().is_empty() {
                p.nick
            } else {
                p.name
            }
        }),
        lines,
        errors,
        warnings: report.warnings,
        scores: report.scores,
        complete: !stopped && report.completion == Completion::Complete,
        unseen,
        board,
    }
}

fn sorted(mut v: Vec<tilebag_core::Tile>) -> Vec<tilebag_core::Tile> {
    v.sort();
    v
}

fn board_rows(r: &Replayer<'_>) -> Vec<String> {
    let size = r.board.size();
    (0..size)
        .map(|row| {
            (0..size)
                .map(|col| {
                    r.board
                        .get(Square::new(row as u8, col as u8))
                        .map_or('.', |t| r.set.placed_char(t))
                })
                .collect()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn serves_pages_and_assets() {
        assert_eq!(asset("/").unwrap().0, HTML);
        assert_eq!(asset("/game/abc123").unwrap().1, GAME);
        assert_eq!(asset("/games/abc123").unwrap().1, GAME);
        assert_eq!(asset("/clock").unwrap().1, CLOCK);
        assert_eq!(asset("/judge").unwrap().1, JUDGE);
        assert_eq!(asset("/scoresheet").unwrap().1, SCORESHEET);
        assert_eq!(asset("/assets/game.js").unwrap().0, JS);
        assert_eq!(asset("/assets/style.css").unwrap().0, CSS);
        for bad in [
            "/game/",
            "/game/a/b",
            "/game/..",
            "/assets/nope.js",
            "/assets/../web.rs",
            "/x",
        ] {
            assert!(asset(bad).is_none(), "{bad}");
        }
    }

    /// Every `/assets/...` a page or a module names is embedded, and every module a module
    /// imports too: a missing file would only show as a blank page in a browser.
    #[test]
    fn every_referenced_asset_is_embedded() {
        let texts: Vec<&[u8]> = [INDEX, GAME, CLOCK, JUDGE, SCORESHEET]
            .into_iter()
            .chain(ASSETS.iter().map(|(_, _, b)| *b))
            .collect();
        for t in texts {
            let t = std::str::from_utf8(t).unwrap();
            for part in t.split("\"/assets/").skip(1) {
                let name = &part[..part.find('"').unwrap()];
                assert!(asset(&format!("/assets/{name}")).is_some(), "{name}");
            }
            for part in t.split("from './").skip(1) {
                let name = &part[..part.find('\'').unwrap()];
                assert!(asset(&format!("/assets/{name}")).is_some(), "{name}");
            }
        }
    }

    fn lexicon() -> HashSet<String> {
        ["CAT", "BAD", "AT"].iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn one_verdict_for_the_play_and_a_log_line() {
        let log = MemoryJudgeLog::default();
        let lex = lexicon();
        let words = |w: &[&str]| w.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let r = judge_words(&words(&["cat", "Bad"]), "tiny", &lex, &log).unwrap();
        assert!(r.acceptable);
        let r = judge_words(&words(&["CAT", "BADX", "AT"]), "tiny", &lex, &log).unwrap();
        assert!(!r.acceptable);
        // The answer has no field that could name the word.
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"acceptable":false}"#
        );
        let lines = log.lines.lock().unwrap().clone();
        assert_eq!(
            lines,
            [
                "CAT BAD\tACCEPTABLE\ttiny",
                "CAT BADX AT\tNOT ACCEPTABLE\ttiny"
            ]
        );
        let e = judge_words(&words(&["C4T"]), "tiny", &lex, &log).unwrap_err();
        assert_eq!(e.code, ErrorCode::BadRequest);
        assert!(e.message.contains("'4'"), "{}", e.message);
        assert!(judge_words(&[], "tiny", &lex, &log).is_err());
        assert_eq!(
            log.lines.lock().unwrap().len(),
            2,
            "refusals are not adjudications"
        );
    }

    #[test]
    fn judge_request_picks_the_lexicon_and_logs_to_a_file() {
        let dir = std::env::temp_dir().join(format!("tilebag-web-judge-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("tilebag.db");
        let log = JudgeLogFile::beside_database(db.to_str().unwrap());
        assert_eq!(log.path(), dir.join("tilebag-judge.log"));
        let _ = std::fs::remove_file(log.path());
        let mut lexicons: HashMap<String, std::sync::Arc<dyn WordJudge + Send + Sync>> =
            HashMap::new();
        lexicons.insert("tiny".into(), std::sync::Arc::new(lexicon()));
        let r = judge_request(br#"{"words":["cat","zzz"]}"#, &lexicons, "tiny", &log).unwrap();
        assert!(!r.acceptable);
        let e = judge_request(
            br#"{"words":["cat"],"lexicon":"csw"}"#,
            &lexicons,
            "tiny",
            &log,
        )
        .unwrap_err();
        assert!(
            e.message.contains("csw") && e.message.contains("tiny"),
            "{}",
            e.message
        );
        let e = judge_request(br#"{"word":"cat"}"#, &lexicons, "tiny", &log).unwrap_err();
        assert_eq!(e.code, ErrorCode::BadMessage);
        let text = std::fs::read_to_string(log.path()).unwrap();
        let fields: Vec<&str> = text.trim_end().split('\t').collect();
        assert_eq!(fields.len(), 4, "{text}");
        assert!(fields[0].ends_with('Z') && fields[0].len() == 20, "{text}");
        assert_eq!(&fields[1..], ["CAT ZZZ", "NOT ACCEPTABLE", "tiny"]);
        assert_eq!(
            judge_log_path("postgres://u@h/db"),
            PathBuf::from("tilebag-judge.log")
        );
        assert_eq!(
            judge_log_path("tilebag.db"),
            PathBuf::from("tilebag-judge.log")
        );
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn utc_timestamps() {
        let t = UNIX_EPOCH + std::time::Duration::from_secs(951_782_400 + 3_723); // 2000-02-29
        assert_eq!(utc_timestamp(t), "2000-02-29T01:02:03Z");
    }

    const HEAD: &str = "#player1 ann Ann\n#player2 bob Bob\n";

    #[test]
    fn a_correct_sheet_agrees_line_by_line() {
        let text = format!("{HEAD}>ann: 8G CAT +10 10\n>bob: H7 B.D +6 6\n>ann: - +0 10\n");
        let r = verify_gcg(text.as_bytes());
        assert!(r.ok, "{:?}", r.errors);
        assert_eq!(r.players, ["Ann", "Bob"]);
        assert_eq!(r.scores, [10, 6]);
        assert_eq!(r.lines.len(), 3);
        assert_eq!(r.lines[0].score, Some(10));
        assert_eq!(r.lines[0].words, ["CAT"]);
        assert_eq!(r.lines[1].r#move, "H7 B.D");
        assert_eq!(r.lines[1].words, ["BAD"]);
        assert!(r.lines.iter().all(|l| l.checked && l.error.is_none()));
        assert_eq!(r.board[7], "......CAT......");
        assert_eq!(r.board[6].chars().nth(7), Some('B'));
        assert_eq!(r.unseen.len(), 100 - 5);
        assert_eq!(r.unseen.matches('A').count(), 8);
        assert!(!r.complete);
    }

    #[test]
    fn a_wrong_score_is_named_and_the_lines_after_it_are_still_checked() {
        // Bob announces 7 for BAD (it is 6); his later cumulative scores follow his own sum.
        let text = format!(
            "{HEAD}>ann: 8G CAT +10 10\n>bob: H7 B.D +7 7\n>ann: - +0 10\n>bob: - +0 7\n>ann: - +1 11\n"
        );
        let r = verify_gcg(text.as_bytes());
        assert!(!r.ok);
        assert_eq!(r.errors.len(), 2, "{:?}", r.errors);
        assert_eq!(r.errors[0].line, 4);
        assert!(r.errors[0].message.contains("+7") && r.errors[0].message.contains("+6"));
        assert!(
            r.errors[0].message.contains("H7 B.D"),
            "{}",
            r.errors[0].message
        );
        assert_eq!(r.lines[1].score, Some(6));
        assert_eq!(r.lines[1].recorded_score, 7);
        assert_eq!(r.lines[1].words, ["BAD"]);
        assert!(
            r.lines[3].error.is_none(),
            "bob's pass is right given his sheet"
        );
        assert_eq!(r.lines[3].cumulative, Some(6));
        assert_eq!(r.errors[1].line, 7, "a pass scored +1");
        assert_eq!(r.lines[4].score, Some(0));
        assert_eq!(r.scores, [10, 6]);
    }

    #[test]
    fn an_illegal_move_stops_the_check_there() {
        let text = format!("{HEAD}>ann: 8G CAT +10 10\n>bob: A1 ZO +11 11\n>ann: - +0 10\n");
        let r = verify_gcg(text.as_bytes());
        assert!(!r.ok);
        assert_eq!(r.errors.len(), 1);
        assert_eq!(r.errors[0].line, 4);
        assert_eq!(r.lines[1].score, None);
        assert!(!r.lines[2].checked);
        assert_eq!(r.board[0], "...............");
    }

    #[test]
    fn unreadable_records_name_the_line_and_bodies_may_be_json_or_text() {
        let r = verify_gcg(format!("{HEAD}>ann: 8G CAT 10 10\n").as_bytes());
        assert_eq!(r.error.as_ref().unwrap().line, 3);
        assert!(!r.ok);
        assert_eq!(r.unseen.len(), 100);
        let body = serde_json::json!({ "gcg": format!("{HEAD}>ann: 8G CAT +10 10\n") });
        let r = verify_request(body.to_string().as_bytes()).unwrap();
        assert!(r.ok);
        let r = verify_request(format!("{HEAD}>ann: 8G CAT +10 10\n").as_bytes()).unwrap();
        assert!(r.ok);
        assert_eq!(
            verify_request(br#"{"text": ""}"#).unwrap_err().code,
            ErrorCode::BadMessage
        );
    }
}
