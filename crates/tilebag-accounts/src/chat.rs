//! Chat: what a message may be, how fast one may send, and who may send and read where.
//!
//! # Rooms
//!
//! - **The lobby**: everyone signed in may read; anyone in good standing may send.
//! - **A game's players' chat**: the two players talk; watchers may read it (so nothing is said
//!   in private that a director could not see). In a casual game it is open while the game is
//!   on unless either player has asked for silence; after the game it is always open.
//! - **A tournament event's game** (NASPA I.D): while the game is on there is no chat between
//!   the opponents at all. Talk that the game does not need distracts the opponent, and either
//!   player may ask the other for silence; online, where the only talk a game needs (holds,
//!   challenges, blanks, scores) is made by the board itself, the players' chat is simply shut
//!   until the game ends, and opens then.
//! - **A game's watchers' chat**: the watchers talk among themselves, apart from the players.
//!   While the game is on the players can neither read nor write it (a watcher's remark could
//!   tell a player something about the board or the opponent's rack); when it ends they may
//!   join in.
//! - **Direct messages**: between two accounts; refused while either of them is playing an
//!   event game (outside help, the same concern as the watchers' chat), and never to oneself.
//!
//! Muted accounts (until a time, or indefinitely) and banned accounts cannot send anywhere.
//! A message from a user whom the recipient has blocked is not delivered to the recipient
//! ([`delivers`]); the sender is not told, so blocking cannot be probed.
//!
//! # Messages and rate
//!
//! A message is trimmed, its control characters (line breaks included) become spaces, and it
//! must then have 1 to [`MAX_MESSAGE_CHARS`] characters. Each account has a token bucket
//! ([`ChatBucket`]): [`ChatLimit::burst`] messages at once, then one per
//! [`ChatLimit::refill_ms`].

use serde::{Deserialize, Serialize};

pub use crate::AccountId;

/// The longest message, in characters after trimming.
pub const MAX_MESSAGE_CHARS: usize = 500;

/// Why a message is refused. The messages speak to the sender.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, Serialize, Deserialize)]
pub enum ChatError {
    #[error("the message is empty")]
    Empty,
    #[error("a message may have at most {max} characters (this one has {len})")]
    TooLong { max: usize, len: usize },
    #[error("too many messages: wait {retry_after_ms} ms")]
    TooFast { retry_after_ms: u64 },
    #[error("your account is muted")]
    Muted { until_ms: Option<u64> },
    #[error("your account is banned")]
    Banned,
    #[error("only the two players write in the players' chat")]
    NotAPlayer,
    #[error("NASPA I.D: no chat between the opponents while an event game is on; it opens when the game ends")]
    EventGameInProgress,
    #[error("a player asked for silence: the players' chat opens again when the game ends")]
    SilenceRequested,
    #[error("players join the watchers' chat when their game ends")]
    PlayersWaitForTheEnd,
    #[error("direct messages wait until the event game is over")]
    DirectDuringEventGame,
    #[error("you cannot send a message to yourself")]
    ToYourself,
}

/// Trims a message and turns its control characters into spaces; refuses it empty or over
/// [`MAX_MESSAGE_CHARS`] characters. Returns the text to store and send.
pub fn clean_message(text: &str) -> Result<String, ChatError> {
    let spaced: String = text
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect();
    let trimmed = spaced.trim();
    let len = trimmed.chars().count();
    if len == 0 {
        return Err(ChatError::Empty);
    }
    if len > MAX_MESSAGE_CHARS {
        return Err(ChatError::TooLong {
            max: MAX_MESSAGE_CHARS,
            len,
        });
    }
    Ok(trimmed.to_string())
}

/// How fast one account may send.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLimit {
    /// Messages at once.
    pub burst: u32,
    /// One message comes back per this many ms.
    pub refill_ms: u64,
}

impl Default for ChatLimit {
    /// 5 at once, then one every 2 seconds (30 a minute): more than anyone types, too few to
    /// flood a room.
    fn default() -> Self {
        ChatLimit {
            burst: 5,
            refill_ms: 2_000,
        }
    }
}

/// One account's chat token bucket, as time credit in whole ms: a message costs `refill_ms`
/// of credit; credit grows one ms per ms up to `burst × refill_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatBucket {
    pub credit_ms: u64,
    pub updated_ms: u64,
}

impl ChatBucket {
    /// A full bucket.
    pub fn new(limit: &ChatLimit, now_ms: u64) -> ChatBucket {
        ChatBucket {
            credit_ms: u64::from(limit.burst).saturating_mul(limit.refill_ms),
            updated_ms: now_ms,
        }
    }

    /// Spends one message if the bucket allows it.
    pub fn try_send(&mut self, limit: &ChatLimit, now_ms: u64) -> Result<(), ChatError> {
        let cap = u64::from(limit.burst).saturating_mul(limit.refill_ms);
        let elapsed = now_ms.saturating_sub(self.updated_ms);
        self.credit_ms = self.credit_ms.saturating_add(elapsed).min(cap);
        self.updated_ms = self.updated_ms.max(now_ms);
        if self.credit_ms >= limit.refill_ms {
            self.credit_ms -= limit.refill_ms;
            Ok(())
        } else {
            Err(ChatError::TooFast {
                retry_after_ms: limit.refill_ms - self.credit_ms,
            })
        }
    }
}

/// An account's standing with the moderators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Standing {
    Good,
    /// May read, may not send; `until_ms: None` is until lifted.
    Muted {
        until_ms: Option<u64>,
    },
    /// May not send (nor, at the server, sign in).
    Banned,
}

/// Who is sending.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chatter {
    pub id: AccountId,
    pub standing: Standing,
}

/// A game, as its chat sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameChat {
    /// The accounts in the two seats (a guest seat has an id of its own from the caller).
    pub players: [AccountId; 2],
    /// A game of a tournament event (NASPA I.D applies).
    pub event_game: bool,
    /// The game has ended.
    pub over: bool,
    /// A player asked for silence (casual games; until the game ends).
    pub silence_requested: bool,
}

impl GameChat {
    /// Whether `id` sits at this game.
    pub fn is_player(&self, id: AccountId) -> bool {
        self.players.contains(&id)
    }
}

/// Where a message is sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Room {
    Lobby,
    /// The players' chat of a game.
    GamePlayers(GameChat),
    /// The watchers' chat of a game.
    GameWatchers(GameChat),
    /// A direct message to `to`.
    Direct {
        to: AccountId,
        /// The sender is playing an event game now.
        sender_in_event_game: bool,
        /// The recipient is playing an event game now.
        recipient_in_event_game: bool,
    },
}

/// Whether `sender` may send in `room` at `now_ms` (standing and the room's rules; not the
/// text or the rate: [`check_message`] does all).
pub fn may_send(sender: &Chatter, room: &Room, now_ms: u64) -> Result<(), ChatError> {
    match sender.standing {
        Standing::Good => {}
        Standing::Muted { until_ms } => {
            if until_ms.is_none_or(|until| now_ms < until) {
                return Err(ChatError::Muted { until_ms });
            }
        }
        Standing::Banned => return Err(ChatError::Banned),
    }
    match room {
        Room::Lobby => Ok(()),
        Room::GamePlayers(game) => {
            if !game.is_player(sender.id) {
                Err(ChatError::NotAPlayer)
            } else if game.over {
                Ok(())
            } else if game.event_game {
                // NASPA I.D: conversation the game does not need distracts the opponent.
                Err(ChatError::EventGameInProgress)
            } else if game.silence_requested {
                Err(ChatError::SilenceRequested)
            } else {
                Ok(())
            }
        }
        Room::GameWatchers(game) => {
            if game.is_player(sender.id) && !game.over {
                Err(ChatError::PlayersWaitForTheEnd)
            } else {
                Ok(())
            }
        }
        Room::Direct {
            to,
            sender_in_event_game,
            recipient_in_event_game,
        } => {
            if *to == sender.id {
                Err(ChatError::ToYourself)
            } else if *sender_in_event_game || *recipient_in_event_game {
                Err(ChatError::DirectDuringEventGame)
            } else {
                Ok(())
            }
        }
    }
}

/// Whether `reader` may see the messages of `room` (the lobby and a game's players' chat:
/// everyone; a game's watchers' chat: not its players while it is on; a direct message: its
/// two ends, `sender` and `to`).
pub fn may_read(reader: AccountId, room: &Room, sender: AccountId) -> bool {
    match room {
        Room::Lobby | Room::GamePlayers(_) => true,
        Room::GameWatchers(game) => game.over || !game.is_player(reader),
        Room::Direct { to, .. } => reader == *to || reader == sender,
    }
}

/// Whether a message from `sender` is delivered to `recipient`, given the accounts the
/// recipient has blocked. A blocked sender's messages are dropped for that recipient only
/// (others still see them), and the sender is not told.
pub fn delivers(sender: AccountId, recipient: AccountId, recipient_blocks: &[AccountId]) -> bool {
    sender == recipient || !recipient_blocks.contains(&sender)
}

/// Everything at once: the sender's standing, the room, the text, then the rate (a refused
/// message costs no rate). Returns the cleaned text to store and fan out (through
/// [`may_read`] and [`delivers`] per recipient).
pub fn check_message(
    sender: &Chatter,
    room: &Room,
    text: &str,
    bucket: &mut ChatBucket,
    limit: &ChatLimit,
    now_ms: u64,
) -> Result<String, ChatError> {
    may_send(sender, room, now_ms)?;
    let text = clean_message(text)?;
    bucket.try_send(limit, now_ms)?;
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const ALICE: AccountId = 1;
    const BOB: AccountId = 2;
    const WATCHER: AccountId = 3;

    fn good(id: AccountId) -> Chatter {
        Chatter {
            id,
            standing: Standing::Good,
        }
    }

    fn game(event_game: bool, over: bool, silence_requested: bool) -> GameChat {
        GameChat {
            players: [ALICE, BOB],
            event_game,
            over,
            silence_requested,
        }
    }

    #[test]
    fn messages_are_trimmed_and_limited_to_500_characters() {
        assert_eq!(clean_message("  gg  "), Ok("gg".to_string()));
        assert_eq!(
            clean_message("line one\nline two\t!"),
            Ok("line one line two !".to_string())
        );
        assert_eq!(clean_message("   \n\t "), Err(ChatError::Empty));
        assert_eq!(clean_message(""), Err(ChatError::Empty));
        // 500 characters (multi-byte ones count once each) pass; 501 do not.
        let ok = "é".repeat(500);
        assert_eq!(clean_message(&format!("  {ok}  ")), Ok(ok.clone()));
        assert_eq!(
            clean_message(&format!("{ok}x")),
            Err(ChatError::TooLong { max: 500, len: 501 })
        );
        assert_eq!(
            ChatError::TooLong { max: 500, len: 501 }.to_string(),
            "a message may have at most 500 characters (this one has 501)"
        );
    }

    #[test]
    fn the_rate_limit_allows_a_burst_then_one_every_two_seconds() {
        let limit = ChatLimit::default();
        let mut b = ChatBucket::new(&limit, 0);
        for _ in 0..5 {
            assert_eq!(b.try_send(&limit, 0), Ok(()));
        }
        assert_eq!(
            b.try_send(&limit, 0),
            Err(ChatError::TooFast {
                retry_after_ms: 2_000
            })
        );
        // 1.5 s later: 1,500 ms of the 2,000 needed.
        assert_eq!(
            b.try_send(&limit, 1_500),
            Err(ChatError::TooFast {
                retry_after_ms: 500
            })
        );
        assert_eq!(b.try_send(&limit, 2_000), Ok(()));
        assert_eq!(
            b.try_send(&limit, 2_000),
            Err(ChatError::TooFast {
                retry_after_ms: 2_000
            })
        );
        // A quiet minute refills to the burst, no further.
        for _ in 0..5 {
            assert_eq!(b.try_send(&limit, 62_000), Ok(()));
        }
        assert!(b.try_send(&limit, 62_000).is_err());
    }

    #[test]
    fn casual_game_chat_is_between_the_players_unless_one_asks_for_silence() {
        let g = game(false, false, false);
        assert_eq!(may_send(&good(ALICE), &Room::GamePlayers(g), 0), Ok(()));
        assert_eq!(
            may_send(&good(WATCHER), &Room::GamePlayers(g), 0),
            Err(ChatError::NotAPlayer)
        );
        // Watchers may read the players' chat.
        assert!(may_read(WATCHER, &Room::GamePlayers(g), ALICE));
        let quiet = game(false, false, true);
        assert_eq!(
            may_send(&good(BOB), &Room::GamePlayers(quiet), 0),
            Err(ChatError::SilenceRequested)
        );
        // After the game it opens again.
        assert_eq!(
            may_send(&good(BOB), &Room::GamePlayers(game(false, true, true)), 0),
            Ok(())
        );
    }

    #[test]
    fn event_games_have_no_opponent_chat_until_they_end() {
        let on = game(true, false, false);
        let err = may_send(&good(ALICE), &Room::GamePlayers(on), 0).unwrap_err();
        assert_eq!(err, ChatError::EventGameInProgress);
        assert!(err.to_string().starts_with("NASPA I.D:"));
        let over = game(true, true, false);
        assert_eq!(may_send(&good(ALICE), &Room::GamePlayers(over), 0), Ok(()));
        assert_eq!(may_send(&good(BOB), &Room::GamePlayers(over), 0), Ok(()));
    }

    #[test]
    fn watchers_chat_apart_from_the_players_while_the_game_is_on() {
        for event in [false, true] {
            let on = game(event, false, false);
            let room = Room::GameWatchers(on);
            assert_eq!(may_send(&good(WATCHER), &room, 0), Ok(()));
            assert!(may_read(WATCHER, &room, WATCHER));
            // The players neither read nor write it while playing.
            assert!(!may_read(ALICE, &room, WATCHER));
            assert!(!may_read(BOB, &room, WATCHER));
            assert_eq!(
                may_send(&good(ALICE), &room, 0),
                Err(ChatError::PlayersWaitForTheEnd)
            );
            // When it ends they may.
            let room = Room::GameWatchers(game(event, true, false));
            assert!(may_read(ALICE, &room, WATCHER));
            assert_eq!(may_send(&good(ALICE), &room, 0), Ok(()));
        }
    }

    #[test]
    fn muted_and_banned_accounts_cannot_send() {
        let muted = Chatter {
            id: WATCHER,
            standing: Standing::Muted {
                until_ms: Some(10_000),
            },
        };
        assert_eq!(
            may_send(&muted, &Room::Lobby, 9_999),
            Err(ChatError::Muted {
                until_ms: Some(10_000)
            })
        );
        // A mute with an end lifts by itself.
        assert_eq!(may_send(&muted, &Room::Lobby, 10_000), Ok(()));
        let forever = Chatter {
            id: WATCHER,
            standing: Standing::Muted { until_ms: None },
        };
        assert!(may_send(&forever, &Room::Lobby, u64::MAX).is_err());
        let banned = Chatter {
            id: ALICE,
            standing: Standing::Banned,
        };
        assert_eq!(may_send(&banned, &Room::Lobby, 0), Err(ChatError::Banned));
        // Even a player in their own casual game.
        assert_eq!(
            may_send(&banned, &Room::GamePlayers(game(false, false, false)), 0),
            Err(ChatError::Banned)
        );
    }

    #[test]
    fn a_blocked_users_messages_are_not_delivered_to_the_blocker() {
        // Bob has blocked the watcher.
        let bobs_blocks = [WATCHER];
        assert!(!delivers(WATCHER, BOB, &bobs_blocks));
        // Others still get them; Bob still gets Alice's.
        assert!(delivers(WATCHER, ALICE, &[]));
        assert!(delivers(ALICE, BOB, &bobs_blocks));
        // One always sees one's own message.
        assert!(delivers(BOB, BOB, &[BOB]));
    }

    #[test]
    fn direct_messages() {
        let dm = |to, s, r| Room::Direct {
            to,
            sender_in_event_game: s,
            recipient_in_event_game: r,
        };
        assert_eq!(may_send(&good(ALICE), &dm(BOB, false, false), 0), Ok(()));
        assert_eq!(
            may_send(&good(ALICE), &dm(ALICE, false, false), 0),
            Err(ChatError::ToYourself)
        );
        assert_eq!(
            may_send(&good(ALICE), &dm(BOB, false, true), 0),
            Err(ChatError::DirectDuringEventGame)
        );
        assert_eq!(
            may_send(&good(ALICE), &dm(BOB, true, false), 0),
            Err(ChatError::DirectDuringEventGame)
        );
        assert!(may_read(BOB, &dm(BOB, false, false), ALICE));
        assert!(may_read(ALICE, &dm(BOB, false, false), ALICE));
        assert!(!may_read(WATCHER, &dm(BOB, false, false), ALICE));
    }

    #[test]
    fn check_message_does_everything_and_a_refusal_costs_no_rate() {
        let limit = ChatLimit {
            burst: 1,
            refill_ms: 1_000,
        };
        let mut bucket = ChatBucket::new(&limit, 0);
        let on = Room::GamePlayers(game(true, false, false));
        // Refused by the room: the bucket is untouched.
        assert_eq!(
            check_message(&good(ALICE), &on, "hi", &mut bucket, &limit, 0),
            Err(ChatError::EventGameInProgress)
        );
        assert_eq!(
            check_message(&good(ALICE), &Room::Lobby, "   ", &mut bucket, &limit, 0),
            Err(ChatError::Empty)
        );
        assert_eq!(
            check_message(
                &good(ALICE),
                &Room::Lobby,
                " hi all ",
                &mut bucket,
                &limit,
                0
            ),
            Ok("hi all".to_string())
        );
        assert_eq!(
            check_message(&good(ALICE), &Room::Lobby, "again", &mut bucket, &limit, 10),
            Err(ChatError::TooFast {
                retry_after_ms: 990
            })
        );
    }
}
