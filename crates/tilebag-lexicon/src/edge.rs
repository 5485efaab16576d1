//! The edge encoding the DAWG and the GADDAG share: one `u32` per edge.
//!
//! ```text
//!  31      27 26    25      24                   0
//! +----------+-----+--------+---------------------+
//! |  letter  | LAST| ACCEPTS|   arc (25 bits)     |
//! +----------+-----+--------+---------------------+
//! ```
//!
//! - `letter`: 1..=26 for A..=Z; 0 is the GADDAG's separator (and the letter of edge 0, the
//!   root sentinel, in both graphs).
//! - `LAST`: this edge ends its run of siblings (a node).
//! - `ACCEPTS`: the path ending with this edge spells a word (an entry, for the GADDAG).
//! - `arc`: index of the first edge of the child node, or 0 for no children.
//!
//! `dawg` and `gaddag` each describe how their graphs use it; both take it from here, so neither
//! needs the other for it.

const ARC_BITS: u32 = 25;
pub(crate) const ARC_MASK: u32 = (1 << ARC_BITS) - 1;
pub(crate) const ACCEPTS: u32 = 1 << 25;
pub(crate) const LAST: u32 = 1 << 26;
pub(crate) const LETTER_SHIFT: u32 = 27;

/// The most edges the encoding can address.
pub const MAX_EDGES: usize = ARC_MASK as usize + 1;

/// The separator's letter code: after it, a path runs rightwards from the anchor.
pub const SEPARATOR: u8 = 0;

/// The letter code of an edge (0 = separator, 1..=26 = A..=Z).
#[inline(always)]
pub fn letter(e: u32) -> u8 {
    (e >> LETTER_SHIFT) as u8
}
/// Whether the path ending with this edge spells a complete entry.
#[inline(always)]
pub fn accepts(e: u32) -> bool {
    e & ACCEPTS != 0
}
/// Whether this edge ends its sibling run.
#[inline(always)]
pub fn is_last(e: u32) -> bool {
    e & LAST != 0
}
/// Index of the first edge of the child run (0: no children).
#[inline(always)]
pub fn arc(e: u32) -> u32 {
    e & ARC_MASK
}
