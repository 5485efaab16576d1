//! tilebag-engine: move generation, equity, bots and analysis.
//!
//! - [`grid`]: the generator's board (225 bytes) and the rules' tables (values, premiums).
//! - [`movegen`]: every legal placement, walking the lexicon's GADDAG from each anchor, with
//!   cross-checks and scores computed as it goes (see the module for why it is fast).
//! - [`moves`]: a move (24 bytes, `Copy`) and its core and GCG forms.
//! - [`cgp`]: the CGP position format.
//! - [`leave_table`]: a value for every leave (914,624 for English), by the leave's rank;
//!   [`klv`]: the `.klv2`/`.klv` files of wolges and MAGPIE and a text form, read and written;
//!   [`leaves`]: tilebag's small weights model, which becomes a full table; the built-in
//!   ENABLE table ([`klv::ENABLE_TABLE`]) is made by [`table_train`].
//! - [`match_stats`]: the statistics of a match of paired games (`tilebag selfplay`).
//!
//! Depends on `tilebag-core` (the rules: scoring is checked against its one scoring rule in the
//! tests) and `tilebag-lexicon` (the GADDAG) only.

mod candidate;
pub mod cgp;
pub mod grid;
pub mod movegen;
pub mod moves;
pub mod rack;
pub mod random;

pub use cgp::{CgpError, CgpPosition};
pub use grid::{Grid, Tables};
pub use movegen::{generate, Candidate, GenOptions, Graphs, Prepared};
pub use moves::{Move, MoveKind};
pub use rack::Rack;
pub mod analysis;
pub mod bot;
pub mod endgame;
pub mod engine;
pub mod klv;
pub mod leave_table;
pub mod leaves;
pub mod match_stats;
pub mod selfplay;
pub mod sim;
pub mod static_best;
pub mod table_train;
pub mod train;

pub use bot::{Level, SimConfig};
pub use engine::{Engine, Situation};
pub use klv::{LeaveFileError, LeaveFormat};
pub use leave_table::{LeaveModel, LeaveShape, LeaveTable};
pub use leaves::Leaves;
