//! A small client of NATS's plain-text protocol (docs.nats.io, "Client Protocol"), for several
//! `tilebag serve` processes sharing one `nats-server`: request/reply (forwarding a player's
//! action to the process that owns the game) and publish/subscribe (fanning a game's events out).
//!
//! What it does: INFO, CONNECT, PUB, SUB (with queue groups), UNSUB, MSG, PING, PONG, +OK, -ERR;
//! optional `user:pass` or token from the URL. What it does not: TLS, NKeys/JWT, JetStream,
//! headers (HPUB/HMSG).
//!
//! The connection is watched ([`Client::state`]): a PING every second, and if nothing is heard
//! for 2 s, or the socket fails, the client is [`ConnState::Disconnected`] at once and reconnects
//! in the background, re-sending CONNECT and every live subscription (same sids). While
//! disconnected, publishing is refused with an error, never queued.
//!
//! Modules import one way: `client` → `protocol` → `error`; `test_server` stands alone.

mod client;
mod error;
mod protocol;
pub mod test_server;

pub use client::{Client, ConnState, Message, Subscription, OUTGOING_LIMIT, SUBSCRIPTION_CAPACITY};
pub use error::NatsError;
