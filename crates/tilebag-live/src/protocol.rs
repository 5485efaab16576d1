//! The WebSocket messages (JSON, one per text frame). `API.md` has an example of each.
//!
//! Client → server: `play`, `exchange`, `pass`, `hold`, `challenge`, `accept`, `resign`,
//! `honour-resignation`, `play-on`, `leave`, `end-after-six-zeros`, `call-director`, `preview`
//! (score a tentative play; nothing changes), `state` (ask for a fresh view); each may carry an
//! `id` (a string or a number) that the server echoes in its `ack`, `preview` or `error`.
//!
//! Server → client: `state` (the view for this connection's audience; sent on connect and after
//! every change; a seat connected with `history=new` is sent only the score-sheet lines it has
//! not had, see [`crate::view::SheetFeed`]), `ack` (the action was committed; its effects),
//! `error` (nothing changed).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tilebag_core::game::Effect;

/// An action a client asks for.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ClientMessage {
    /// `position` in GCG notation (`8D` across, `D8` down); `word` the whole word formed along
    /// it, lowercase for a blank, `.` (or the letter) for a tile already on the board.
    Play {
        position: String,
        word: String,
    },
    /// The tiles to return, `?` for a blank.
    Exchange {
        tiles: String,
    },
    Pass,
    Hold,
    /// The words challenged (empty: all the words the play formed).
    Challenge {
        #[serde(default)]
        words: Vec<String>,
    },
    Accept,
    Resign,
    /// Honour the opponent's request to resign (NASPA I.B, NSA I.B, where the organiser allows
    /// it).
    HonourResignation,
    /// Insist on playing on after the opponent asked to resign (NASPA I.B).
    PlayOn,
    /// Leave the game in progress (NASPA V.K.2, NSA V.J.2, WESPA 5.7(c), SANSPA 19.3).
    Leave,
    EndAfterSixZeros,
    /// Call the director: the clocks stop until the director restarts them (NASPA II.A,
    /// WESPA 4.1(e), SANSPA 14). Only in a game an event's director looks after: a casual game
    /// has nobody to restart the clocks, so there the call is refused (`not-allowed`).
    CallDirector,
    /// Score a tentative play by the game's rules (the words it forms and their scores), as the
    /// player places tiles. Nothing changes and no word is judged: the answer says only what
    /// the board already shows anyone who counts.
    Preview {
        position: String,
        word: String,
    },
    /// Send me the current view again.
    State,
}

/// Error codes, stable for clients to switch on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorCode {
    /// Not JSON.
    BadJson,
    /// JSON, but not a message or request we know (unknown type, missing or wrong field).
    BadMessage,
    /// A request field has a value we cannot accept (unknown preset or lexicon, bad name ...).
    BadRequest,
    TooLarge,
    RateLimited,
    UnknownGame,
    WrongToken,
    /// An observer tried to act.
    NotASeat,
    NotFound,
    WebsocketRequired,
    OutOfTurn,
    GameOver,
    /// The action is not allowed in this phase (hold with no play pending, ...).
    NotAllowed,
    /// A coordinate that cannot be read.
    BadPosition,
    /// A placement the rules refuse (gap, not connected, occupied square ...).
    IllegalPlay,
    TilesNotOnRack,
    BagTooSmall,
    /// Void challenge rule: the play forms an unacceptable word and is refused.
    UnacceptablePlay,
    /// A challenged word the play did not form.
    NotFormed,
    /// The database or the server failed; nothing was changed.
    Internal,
    /// The database is down (nothing was changed; the message says so), or the server is
    /// shutting down or the game's task has stopped.
    Unavailable,
    /// A client chose the bag's seed on a server that does not allow it (`serve --allow-seeds`).
    SeedNotAllowed,
    /// Nobody started the game in time: it can no longer be joined.
    Expired,
    /// The server holds as many games waiting for their players as it takes.
    TooManyGames,
    /// The game could not be restored and is kept out of play (see the director's pages).
    Damaged,
    /// The game has as many watchers as it takes.
    TooManyWatchers,
    /// The seat was opened on a newer connection, which replaced this one.
    Replaced,
}

impl ErrorCode {
    /// The HTTP status that fits.
    pub fn http_status(self) -> u16 {
        use ErrorCode::*;
        match self {
            BadJson | BadMessage | WebsocketRequired => 400,
            WrongToken | NotASeat | SeedNotAllowed => 403,
            UnknownGame | NotFound => 404,
            OutOfTurn | GameOver | NotAllowed | BagTooSmall => 409,
            TooLarge => 413,
            BadRequest | BadPosition | IllegalPlay | TilesNotOnRack | UnacceptablePlay
            | NotFormed => 422,
            RateLimited => 429,
            Internal => 500,
            Expired => 410,
            Unavailable | TooManyGames | Damaged | TooManyWatchers => 503,
            Replaced => 409,
        }
    }
}

/// A message the server sends.
#[derive(Debug, Clone, Serialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum ServerMessage<'a, V: Serialize> {
    /// `seq`: the number of events in the game's log after this action.
    Ack {
        id: Option<&'a Value>,
        effects: &'a [Effect],
        seq: u64,
    },
    Error {
        id: Option<&'a Value>,
        code: ErrorCode,
        message: &'a str,
    },
    /// `effects`: what the change that caused this view did (empty on connect).
    State { effects: &'a [Effect], view: &'a V },
}

/// A message without a view.
type NoView<'a> = ServerMessage<'a, ()>;

/// A parsed client message with its echo id.
#[derive(Debug, Clone)]
pub struct Incoming {
    pub id: Option<Value>,
    pub message: ClientMessage,
}

/// Why a text frame is not a message; carries the `id` if one could be read.
#[derive(Debug, Clone)]
pub struct ParseError {
    pub id: Option<Value>,
    pub code: ErrorCode,
    pub message: String,
}

/// Read one client message.
pub fn parse_client(text: &str) -> Result<Incoming, ParseError> {
    let value: Value = serde_json::from_str(text).map_err(|e| ParseError {
        id: None,
        code: ErrorCode::BadJson,
        message: format!("not JSON: {e}"),
    })?;
    let id = match value.get("id") {
        None | Some(Value::Null) => None,
        Some(v @ (Value::String(_) | Value::Number(_))) => Some(v.clone()),
        Some(_) => {
            return Err(ParseError {
                id: None,
                code: ErrorCode::BadMessage,
                message: "\"id\" must be a string or a number".into(),
            })
        }
    };
    if let Some(Value::String(s)) = &id {
        if s.len() > 128 {
            return Err(ParseError {
                id: None,
                code: ErrorCode::BadMessage,
                message: "\"id\" is longer than 128 bytes".into(),
            });
        }
    }
    if !value.is_object() {
        return Err(ParseError {
            id,
            code: ErrorCode::BadMessage,
            message: "a message is a JSON object with a \"type\"".into(),
        });
    }
    let mut obj = value;
    if let Some(map) = obj.as_object_mut() {
        map.remove("id");
        // A field we do not know is refused, not ignored (a misspelt `words` must not
        // challenge every word).
        let fields: &[&str] = match map.get("type").and_then(Value::as_str) {
            Some("play") | Some("preview") => &["type", "position", "word"],
            Some("exchange") => &["type", "tiles"],
            Some("challenge") => &["type", "words"],
            _ => &["type"],
        };
        if let Some(k) = map.keys().find(|k| !fields.contains(&k.as_str())) {
            let kind = map.get("type").and_then(Value::as_str).unwrap_or("");
            let takes: Vec<String> = fields[1..]
                .iter()
                .chain(["id"].iter())
                .map(|f| format!("{f:?}"))
                .collect();
            return Err(ParseError {
                id,
                code: ErrorCode::BadMessage,
                message: format!(
                    "unknown field {k:?} in a {kind:?} message (it takes {})",
                    takes.join(", ")
                ),
            });
        }
    }
    match serde_json::from_value::<ClientMessage>(obj) {
        Ok(message) => Ok(Incoming { id, message }),
        Err(e) => Err(ParseError {
            id,
            code: ErrorCode::BadMessage,
            message: format!("not a message: {e}"),
        }),
    }
}

/// A serialised `error` message.
pub fn error_text(id: Option<&Value>, code: ErrorCode, message: &str) -> String {
    serde_json::to_string(&NoView::Error { id, code, message }).expect("messages serialise")
}

/// A serialised `ack` message.
pub fn ack_text(id: Option<&Value>, effects: &[Effect], seq: u64) -> String {
    serde_json::to_string(&NoView::Ack { id, effects, seq }).expect("messages serialise")
}

/// A word of a previewed play, and what it scores.
#[derive(Debug, Clone, Serialize)]
pub struct PreviewWord {
    pub word: String,
    pub score: i32,
}

/// The answer to a `preview`: the play's coordinate, the words formed (main word first) and
/// the play's score (with any bingo bonus).
#[derive(Debug, Clone, Serialize)]
pub struct PreviewText<'a> {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub id: Option<&'a Value>,
    pub position: String,
    pub words: Vec<PreviewWord>,
    pub bingo: bool,
    pub score: i32,
}

/// A serialised `preview` answer.
pub fn preview_text(p: &PreviewText<'_>) -> String {
    serde_json::to_string(p).expect("messages serialise")
}

/// A serialised `state` message.
pub fn state_text<V: Serialize>(effects: &[Effect], view: &V) -> String {
    serde_json::to_string(&ServerMessage::State { effects, view }).expect("messages serialise")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_each_message_and_its_id() {
        let m = parse_client(r#"{"type":"play","id":"c1","position":"8D","word":"CAT"}"#).unwrap();
        assert_eq!(m.id, Some(Value::from("c1")));
        assert_eq!(
            m.message,
            ClientMessage::Play {
                position: "8D".into(),
                word: "CAT".into()
            }
        );
        let m = parse_client(r#"{"type":"challenge","id":7}"#).unwrap();
        assert_eq!(m.message, ClientMessage::Challenge { words: vec![] });
        for t in [
            "pass",
            "hold",
            "accept",
            "resign",
            "honour-resignation",
            "play-on",
            "leave",
            "end-after-six-zeros",
            "call-director",
            "state",
        ] {
            parse_client(&format!(r#"{{"type":"{t}"}}"#)).unwrap();
        }
    }

    #[test]
    fn names_what_is_wrong() {
        assert_eq!(parse_client("{").unwrap_err().code, ErrorCode::BadJson);
        let e = parse_client(r#"{"type":"plya","id":"x"}"#).unwrap_err();
        assert_eq!(e.code, ErrorCode::BadMessage);
        assert_eq!(e.id, Some(Value::from("x")));
        assert!(e.message.contains("plya"), "{}", e.message);
        let e = parse_client(r#"{"type":"play","position":"8D"}"#).unwrap_err();
        assert!(e.message.contains("word"), "{}", e.message);
        assert_eq!(parse_client("[1]").unwrap_err().code, ErrorCode::BadMessage);
    }

    #[test]
    fn unknown_fields_are_refused() {
        let e = parse_client(r#"{"type":"challenge","id":"c","word":["CAT"]}"#).unwrap_err();
        assert_eq!(e.code, ErrorCode::BadMessage);
        assert_eq!(e.id, Some(Value::from("c")));
        assert!(e.message.contains("\"word\""), "{}", e.message);
        let e = parse_client(r#"{"type":"pass","extra":1}"#).unwrap_err();
        assert_eq!(e.code, ErrorCode::BadMessage);
        let e = parse_client(r#"{"type":"play","position":"8D","word":"CAT","x":0}"#).unwrap_err();
        assert!(e.message.contains("\"x\""), "{}", e.message);
        // The fields a message takes are accepted.
        parse_client(r#"{"type":"challenge","words":["CAT"],"id":1}"#).unwrap();
        parse_client(r#"{"type":"exchange","tiles":"AE"}"#).unwrap();
    }
}
