//! tilebag-live: the live games. One task owns each game in memory and is the only one to change
//! it; every accepted event is committed to the store before anybody hears of it; time acts on
//! its own (flags, the out-play window, the game clock); the computer plays its seats.
//!
//! - [`live`]: the [`live::Hub`] of every game in memory, creating, restoring and checkpointing
//!   them; [`game_handle`]: the commands a game's task takes and what it answers;
//!   [`clock`]: game time from real time.
//! - [`view`]: what each audience may see, built at the source: a seat sees its own rack, an
//!   observer sees no rack, nobody sees the bag's order. [`protocol`]: the typed JSON messages
//!   of the WebSocket, and [`meta`]: what a game is besides its events (names, lexicon, links).
//! - [`bot`]: the computer's seats; [`analysis_cache`]: analyses of ended games.
//! - [`health`]: the store, watched (actions are refused while the database is down);
//!   [`quota`]: per-address quotas and the cap on games waiting for players; [`config`]: what the
//!   live games are told; [`ids`]: game ids, seat tokens and seeds; [`metrics`]: the figures
//!   an operator graphs.
//! - [`cluster`]: several processes on one PostgreSQL database and one NATS server: leases on
//!   games ([`fences`] fence their writes), takeovers, and the bridge that serves a game to the
//!   other processes; [`remote`]: a game owned by another process, driven over NATS;
//!   [`summaries`]: the other processes' games as the lists show them.
//!
//! Depends on `tilebag-store` below it; knows nothing of HTTP but the WebSocket text type.

pub mod analysis_cache;
pub mod bot;
pub mod clock;
pub mod cluster;
pub mod config;
pub mod fences;
pub mod game_handle;
pub mod health;
pub mod ids;
pub mod live;
pub mod meta;
pub mod metrics;
pub mod protocol;
pub mod quota;
pub mod remote;
pub mod server_error;
pub mod shutdown;
pub mod summaries;
pub mod view;

pub use server_error::ServerError;
