//! [`Candidate`]: a placement as the move generator has it at the moment it finds it (a borrowed
//! view of its line). `movegen` reports each one to its caller; `moves` turns one into a
//! [`crate::Move`] that can be kept. Here, apart from both, so that neither needs the other for
//! it.

use crate::grid::N;
use tilebag_core::Direction;

/// A complete placement, as the generator has it at the moment it is found.
#[derive(Debug)]
pub struct Candidate<'a> {
    pub direction: Direction,
    /// Row of an across play, column of a down play.
    pub line: u8,
    /// First and last square of the main word along the line (inclusive).
    pub start: u8,
    pub end: u8,
    /// Per square of the line: the new tile's byte, 0 where none was placed.
    pub placed: &'a [u8; N],
    pub score: i32,
    pub tiles: u8,
    /// Index of the rack's sub-multiset that was used (see [`crate::movegen::LeaveIndex`]).
    pub used: u16,
}
