//! tilebag-core: the pure rules engine. No files, sockets, wall clock or global RNG: time enters
//! as values on events and the bag's order comes from a seed kept in the game.
//!
//! - [`tiles`]: tile sets (data), racks' tiles, placed tiles.
//! - [`board`]: the premium layout (data), the board, GCG coordinates.
//! - [`play`]: validating and scoring placements.
//! - [`bag`]: the seeded bag.
//! - [`ruleset`]: every parameter the rulebooks vary, and the presets; [`citation`]: which
//!   rule of the game's own book a message cites.
//! - [`game`]: the game state machine (holds, challenges, clocks, end of game).
//! - [`civil`]: seconds since 1970 as a UTC date and time, for log stamps.
//! - [`gcg`]: reading and writing GCG records; [`replay`]: checking a record against the rules.

pub mod bag;
pub mod board;
pub mod citation;
pub mod civil;
pub mod game;
pub mod gcg;
pub mod play;
pub mod replay;
pub mod ruleset;
pub mod tiles;

pub use board::{Board, Direction, Layout, Position, Square};
pub use game::{Action, Actor, Event, Game, GameError, Pause, Phase, WordJudge};
pub use play::{Placement, PlayError, ScoredPlay};
pub use ruleset::Ruleset;
pub use tiles::{PlacedTile, Tile, TileSet};
