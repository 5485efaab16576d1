//! The minimal DAWG (deterministic acyclic word graph), and the incremental minimisation that
//! builds it and the GADDAG.
//!
//! # Encoding
//!
//! The graph is one array of `u32` edges in the encoding of `edge.rs` (letter, `LAST`, `ACCEPTS`,
//! arc), which the GADDAG shares. A node is a run of contiguous sibling edges sorted by letter;
//! the last edge of a run has the `LAST` bit. Letters are 1..=26 for A..=Z (0 only in edge 0).
//!
//! Edge 0 is a sentinel whose arc points at the root node (0 for the empty lexicon). Nodes are laid
//! out parents first, so every arc points strictly forward (`arc > index`): a walk can never loop,
//! and loading (`Dawg::from_edges`) checks this together with every other invariant, so lookups and
//! enumeration on a loaded file can neither loop nor index out of bounds.
//!
//! The idea of one-`u32`-per-edge with contiguous siblings follows the KWG format of wolges
//! (andy-k); the bit layout and the code here are our own.
//!
//! # Building
//!
//! `build` takes the sorted word list and minimises incrementally (Daciuk, Mihov, Watson and
//! Watson, "Incremental construction of minimal acyclic finite-state automata", 2000): once the
//! next word leaves a branch, the branch's nodes can never change again, so each is replaced by an
//! equal node already registered (same edges: letters, accept bits and children) or registered
//! itself. Each node is hashed once, so the build is linear in the size of the list.

use crate::edge::{ACCEPTS, ARC_MASK, LAST, LETTER_SHIFT, SEPARATOR};
use crate::error::LexiconError;
use std::borrow::Cow;

/// The edge encoding's limit, public here as before.
pub use crate::edge::MAX_EDGES;

/// The longest playable word: a 15x15 board holds at most 15 letters in a line.
pub const MAX_WORD_LEN: usize = 15;

#[inline]
fn letter(e: u32) -> u8 {
    (e >> LETTER_SHIFT) as u8
}
#[inline]
fn arc(e: u32) -> usize {
    (e & ARC_MASK) as usize
}
#[inline]
fn accepts(e: u32) -> bool {
    e & ACCEPTS != 0
}
#[inline]
fn is_last(e: u32) -> bool {
    e & LAST != 0
}

/// Letter code 1..=26 of an ASCII letter in either case; 0 for anything else.
#[inline]
fn code(b: u8) -> u8 {
    match b {
        b'A'..=b'Z' => b - b'A' + 1,
        b'a'..=b'z' => b - b'a' + 1,
        _ => 0,
    }
}

/// A validated minimal DAWG.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Dawg {
    /// Built or read from a file, or (the built-in list's) read in place from the image
    /// embedded in the program.
    edges: Cow<'static, [u32]>,
    /// For each letter code, the index of the root's edge for it (0: none). Derived from
    /// `edges`, not stored: it saves scanning the widest node (up to 26 edges) on every lookup.
    root_index: [u32; 27],
}

impl std::fmt::Debug for Dawg {
    // A summary: the edges of a real lexicon run to hundreds of thousands.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Dawg")
            .field("edges", &self.edges.len())
            .field("nodes", &self.node_count())
            .finish()
    }
}

/// What validation learns about a graph.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Summary {
    pub word_count: u64,
    pub counts_by_length: [u32; 16],
}

impl Dawg {
    /// The graph of no words: just the sentinel.
    pub(crate) fn empty() -> Dawg {
        Dawg::with_edges(Cow::Owned(vec![LAST]))
    }

    /// Wraps edges that are known to be valid (built here, or checked by `from_edges`).
    fn with_edges(edges: Cow<'static, [u32]>) -> Dawg {
        let mut root_index = [0u32; 27];
        let root = edges.first().map_or(0, |&e| arc(e));
        if root != 0 {
            for (i, &e) in edges.iter().enumerate().skip(root) {
                root_index[usize::from(letter(e)).min(26)] = i as u32;
                if is_last(e) {
                    break;
                }
            }
        }
        Dawg { edges, root_index }
    }

    /// The raw edges (for writing a file).
    pub(crate) fn edges(&self) -> &[u32] {
        &self.edges
    }

    /// Whether the edges are read in place (from the built-in image), not copied.
    #[cfg(test)]
    pub(crate) fn in_place(&self) -> bool {
        matches!(self.edges, Cow::Borrowed(_))
    }

    /// Number of nodes (sibling runs), not counting the sentinel.
    pub(crate) fn node_count(&self) -> usize {
        self.edges.iter().skip(1).filter(|&&e| is_last(e)).count()
    }

    /// Checks every invariant of the encoding and counts the words by length.
    ///
    /// `base` is the byte offset of edge 0 in the file, so errors can name the byte.
    pub(crate) fn from_edges(
        edges: Vec<u32>,
        base: usize,
    ) -> Result<(Dawg, Summary), LexiconError> {
        check_edges(&edges, base)?;
        let summary = count_words(&edges, base)?;
        Ok((Dawg::with_edges(Cow::Owned(edges)), summary))
    }

    /// The built-in image's DAWG, read in place: every invariant of the encoding checked but the
    /// paths' lengths (a linear pass; lookups and enumeration never rely on those), the words not
    /// counted (a test compares the image, its counts included, with a fresh build; counting
    /// costs a few milliseconds of scattered reads).
    pub(crate) fn from_image_edges(
        edges: Cow<'static, [u32]>,
        base: usize,
    ) -> Result<Dawg, LexiconError> {
        check_edges(&edges, base)?;
        Ok(Dawg::with_edges(edges))
    }
}

/// Checks every invariant of the encoding but the paths' lengths: the sentinel, forward arcs
/// inside the edges, letters 1..=26 in strictly increasing order within a run, runs that end,
/// no dead edges. `base` is the byte offset of edge 0 in the file, for errors.
fn check_edges(edges: &[u32], base: usize) -> Result<(), LexiconError> {
    let at = |i: usize| base + 4 * i;
    let n = edges.len();
    check_root(edges, base, "DAWG", "")?;
    for (i, &e) in edges.iter().enumerate() {
        let a = arc(e);
        if a != 0 && (a <= i || a >= n) {
            return Err(LexiconError::corrupt(
                at(i),
                format!(
                    "edge {i} points to edge {a}: arcs must point forward, inside the {n} edges"
                ),
            ));
        }
        if i == 0 {
            continue;
        }
        let l = letter(e);
        if !(1..=26).contains(&l) {
            return Err(LexiconError::corrupt(
                at(i),
                format!("edge {i} has letter code {l}; codes are 1..=26"),
            ));
        }
        if a == 0 && !accepts(e) {
            return Err(LexiconError::corrupt(
                at(i),
                format!("edge {i} leads nowhere and accepts nothing"),
            ));
        }
        if !is_last(e) {
            match edges.get(i + 1) {
                Some(&next) if letter(next) > l => {}
                Some(_) => {
                    return Err(LexiconError::corrupt(
                        at(i + 1),
                        format!(
                            "edge {} is not in letter order after its sibling {i}",
                            i + 1
                        ),
                    ))
                }
                None => {
                    return Err(LexiconError::corrupt(
                        at(i),
                        "the last edge does not end its sibling run",
                    ))
                }
            }
        }
    }
    Ok(())
}

/// Counts the words of checked edges by length, and checks that no path is longer than
/// [`MAX_WORD_LEN`].
fn count_words(edges: &[u32], base: usize) -> Result<Summary, LexiconError> {
    let at = |i: usize| base + 4 * i;
    let n = edges.len();
    // Count words by length, from the last edge back: arcs point forward, so each child run
    // is complete before any edge that points at it. Only arc targets need their run's
    // counts kept.
    let mut slot = vec![u32::MAX; n];
    let mut targets = 0u32;
    for &e in edges {
        let a = arc(e);
        if a != 0 && slot[a] == u32::MAX {
            slot[a] = 0;
            targets += 1;
        }
    }
    let mut next_slot = 0u32;
    for s in slot.iter_mut().filter(|s| **s == 0) {
        *s = next_slot;
        next_slot += 1;
    }
    debug_assert_eq!(next_slot, targets);
    let mut runs = vec![[0u32; 16]; targets as usize];
    let mut acc = [0u32; 16];
    for i in (1..n).rev() {
        let e = edges[i];
        if is_last(e) {
            acc = [0; 16];
        }
        if accepts(e) {
            acc[1] = acc[1].saturating_add(1);
        }
        let a = arc(e);
        if a != 0 {
            let child = runs[slot[a] as usize];
            if child[MAX_WORD_LEN] != 0 {
                return Err(LexiconError::corrupt(
                    at(i),
                    format!("edge {i} starts paths longer than {MAX_WORD_LEN} letters"),
                ));
            }
            for len in 1..MAX_WORD_LEN {
                acc[len + 1] = acc[len + 1].saturating_add(child[len]);
            }
        }
        if slot[i] != u32::MAX {
            runs[slot[i] as usize] = acc;
        }
    }
    let root = arc(edges[0]);
    let counts_by_length = if root == 0 {
        [0; 16]
    } else {
        runs[slot[root] as usize]
    };
    let word_count = counts_by_length.iter().map(|&c| u64::from(c)).sum();
    Ok(Summary {
        word_count,
        counts_by_length,
    })
}

impl Dawg {
    /// Whether `word` (ASCII letters, either case) is in the lexicon. Anything else is not.
    pub(crate) fn contains(&self, word: &[u8]) -> bool {
        matches!(self.walk(word), Some(e) if accepts(e))
    }

    /// Whether some word of the lexicon starts with `prefix` (the empty prefix: any word at all).
    pub(crate) fn has_prefix(&self, prefix: &[u8]) -> bool {
        if prefix.is_empty() {
            return self.root() != 0;
        }
        self.walk(prefix).is_some()
    }

    fn root(&self) -> usize {
        self.edges.first().map_or(0, |&e| arc(e))
    }

    /// Follows `word` from the root; the edge of its last letter, if the path exists.
    #[inline]
    fn walk(&self, word: &[u8]) -> Option<u32> {
        let (&first, rest) = word.split_first()?;
        if word.len() > MAX_WORD_LEN {
            return None;
        }
        let c = code(first);
        if c == 0 {
            return None;
        }
        let mut edge = match self.root_index[usize::from(c)] {
            0 => return None,
            i => *self.edges.get(i as usize)?,
        };
        for &b in rest {
            let c = code(b);
            let run = arc(edge);
            if run == 0 || c == 0 {
                return None;
            }
            let siblings = self.edges.get(run..)?;
            edge = 0;
            for &e in siblings {
                let l = letter(e);
                if l == c {
                    edge = e;
                    break;
                }
                if l > c || is_last(e) {
                    return None;
                }
            }
            if edge == 0 {
                return None;
            }
        }
        Some(edge)
    }

    /// Every word, in sorted order.
    pub(crate) fn words(&self) -> Words<'_> {
        let mut w = Words {
            edges: &self.edges[..],
            stack: [0; MAX_WORD_LEN],
            depth: 0,
            word: [0; MAX_WORD_LEN],
            step: Step::Visit,
        };
        let root = self.root();
        if root != 0 {
            w.stack[0] = root as u32;
            w.depth = 1;
        }
        w
    }
}

#[derive(Debug, Clone, Copy)]
enum Step {
    /// Look at the edge on top of the stack.
    Visit,
    /// Go down into the top edge's child, if any.
    Descend,
    /// Move to the next sibling, popping finished runs.
    Advance,
}

/// Depth-first enumeration of a lexicon's words in sorted order ([`crate::Lexicon::words`]).
///
/// The stack has room for [`MAX_WORD_LEN`] edges and descent stops there, so even a graph that
/// slipped past validation could not make it index out of bounds or loop.
#[derive(Debug, Clone)]
pub struct Words<'a> {
    edges: &'a [u32],
    stack: [u32; MAX_WORD_LEN],
    depth: usize,
    word: [u8; MAX_WORD_LEN],
    step: Step,
}

impl Iterator for Words<'_> {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        loop {
            if self.depth == 0 {
                return None;
            }
            let top = self.depth - 1;
            let i = self.stack[top] as usize;
            let Some(&e) = self.edges.get(i) else {
                self.depth = 0;
                return None;
            };
            match self.step {
                Step::Visit => {
                    self.word[top] = b'@' + letter(e);
                    self.step = Step::Descend;
                    if accepts(e) {
                        let w = &self.word[..self.depth];
                        return Some(w.iter().map(|&b| b as char).collect());
                    }
                }
                Step::Descend => {
                    let a = arc(e);
                    if a != 0 && self.depth < MAX_WORD_LEN {
                        self.stack[self.depth] = a as u32;
                        self.depth += 1;
                        self.step = Step::Visit;
                    } else {
                        self.step = Step::Advance;
                    }
                }
                Step::Advance => {
                    if is_last(e) {
                        self.depth -= 1;
                    } else {
                        self.stack[top] += 1;
                        self.step = Step::Visit;
                    }
                }
            }
        }
    }
}

/// What every edge table must start with, whichever automaton it holds (`what`: "DAWG" or
/// "GADDAG"; `edge0` prefixes the sentinel's message): at least one edge, no more than can be
/// addressed, and edge 0 the root sentinel. `base` is the byte offset of edge 0 in the file.
pub(crate) fn check_root(
    edges: &[u32],
    base: usize,
    what: &str,
    edge0: &str,
) -> Result<(), LexiconError> {
    let n = edges.len();
    if n == 0 {
        return Err(LexiconError::corrupt(
            base,
            format!("the {what} section holds no edges"),
        ));
    }
    if n > MAX_EDGES {
        return Err(LexiconError::corrupt(
            base,
            format!("the {what} holds {n} edges; at most {MAX_EDGES} can be addressed"),
        ));
    }
    let e0 = edges[0];
    if letter(e0) != 0 || !is_last(e0) || accepts(e0) {
        return Err(LexiconError::corrupt(
            base,
            format!("{edge0}edge 0 must be the root sentinel (letter 0, last, not accepting)"),
        ));
    }
    Ok(())
}

/// Builder edge (while building, before layout): letter code in bits 27..32, accept in bit 26,
/// and in bits 0..26 the child node's id + 1 (0: no child), or, for a GADDAG separator, its DAWG
/// arc as it is.
#[inline]
pub(crate) fn builder_edge(c: u8, accept: bool) -> u32 {
    (u32::from(c) << 27) | (u32::from(accept) << 26)
}
/// The child field of a builder edge.
pub(crate) const B_CHILD: u32 = (1 << 26) - 1;
const B_ACCEPT: u32 = 1 << 26;

/// The most edges a node can have while building: the separator and 26 letters, with room for
/// the odd codes a malformed DAWG handed to [`crate::gaddag::Gaddag::from_dawg`] could hold.
pub(crate) const MAX_FANOUT: usize = 32;

/// The multiplier of FxHash (rustc's hasher): one rotate, xor and multiply per edge.
const FX: u64 = 0x51_7c_c1_b7_27_22_0a_95;

#[inline]
fn node_hash(edges: &[u32]) -> u64 {
    let mut h = 0u64;
    for &e in edges {
        h = (h.rotate_left(5) ^ u64::from(e)).wrapping_mul(FX);
    }
    h
}

/// The nodes registered so far, each stored once, side by side in one arena (no allocation per
/// node), and found again by their edges.
///
/// Most nodes have a single edge (87% of the GADDAG's): those are found in `single`, indexed by
/// their edge's child, where a slot holds the whole edge and so settles a lookup in one read
/// (and a node whose child was just registered finds its slot still in the cache). The rest are
/// found through an open-addressing table (linear probing) of `hash << 32 | arena position`: the
/// arena keeps each node's id and length next to its edges, so a lookup reads two places.
pub(crate) struct Register {
    /// Entry 0 unused, then per node a header (`id | edge count << 26`) and its edges.
    arena: Vec<u32>,
    /// `starts[id]`: where node `id`'s header is in the arena; one more entry for the end.
    starts: Vec<u32>,
    /// By an edge's child field (letter edges): the first single-edge node registered with that
    /// child, as its edge's letter and accept bit (bits 26..32) and its id + 1 (bits 0..26);
    /// 0 for none.
    single: Vec<u32>,
    /// The same for separator edges, by their DAWG arc.
    single_sep: Vec<u32>,
    /// Multi-edge nodes and single-edge nodes whose `single` slot was taken: 0 for empty, or the
    /// node's hash (top 32 bits) and arena position (low 32).
    table: Vec<u64>,
    entries: usize,
    /// 64 - log2(table.len()): a hash's top bits are its home slot.
    shift: u32,
    edge_total: usize,
    /// Ids have outgrown the builder edge's child field; `lay_out` reports the list too large.
    overflow: bool,
}

const HASH_BITS: u64 = !0xFFFF_FFFF;
const ID_BITS: u32 = (1 << 26) - 1;

impl Register {
    /// A register expecting about `nodes` nodes of `edges` edges in all.
    /// (Room reserved but never used costs address space only.)
    pub(crate) fn with_capacity(nodes: usize, edges: usize) -> Register {
        // Most nodes have one edge and live in `single`, not the table.
        let slots = (nodes / 2).next_power_of_two().max(64);
        let mut starts = Vec::with_capacity(nodes + 1);
        starts.push(1);
        let mut single = Vec::with_capacity(nodes + 1);
        single.push(0);
        let mut arena = Vec::with_capacity(nodes + edges + 1);
        arena.push(0);
        Register {
            arena,
            starts,
            single,
            single_sep: Vec::new(),
            table: vec![0; slots],
            entries: 0,
            shift: 64 - slots.trailing_zeros(),
            edge_total: 0,
            overflow: false,
        }
    }

    /// Number of nodes registered.
    pub(crate) fn len(&self) -> usize {
        self.starts.len() - 1
    }

    /// The id of the node equal to `edges` (1 to 63 of them), registering it if it is new.
    /// Children always get smaller ids than their parents, because a node is registered only
    /// after its children. `known_new`: the caller knows no equal node exists (one of its
    /// children was registered after the node was begun), so the search is skipped.
    #[inline]
    pub(crate) fn intern(&mut self, edges: &[u32], known_new: bool) -> u32 {
        if let [e] = *edges {
            let id = self.len() as u32;
            let child = (e & B_CHILD) as usize;
            let slots = if e >> 27 == u32::from(SEPARATOR) {
                if child >= self.single_sep.len() {
                    self.single_sep.resize(child + 1, 0);
                }
                &mut self.single_sep
            } else {
                &mut self.single
            };
            if let Some(slot) = slots.get_mut(child) {
                let s = *slot;
                if s == 0 {
                    *slot = (e & !B_CHILD) | (id + 1);
                    self.push(edges);
                    return id;
                }
                if !known_new && s >> 26 == e >> 26 {
                    return (s & B_CHILD) - 1;
                }
            }
        }
        let h = node_hash(edges);
        let tag = h & HASH_BITS;
        let mask = self.table.len() - 1;
        let mut i = (h >> self.shift) as usize;
        loop {
            let s = self.table[i];
            if s == 0 {
                break;
            }
            if !known_new && s & HASH_BITS == tag {
                let at = (s as u32) as usize;
                let head = self.arena[at];
                let n = (head >> 26) as usize;
                if n == edges.len() && self.arena.get(at + 1..at + 1 + n) == Some(edges) {
                    return head & ID_BITS;
                }
            }
            i = (i + 1) & mask;
        }
        self.table[i] = tag | self.arena.len() as u64;
        let id = self.push(edges);
        self.entries += 1;
        if self.entries * 2 > self.table.len() {
            self.grow();
        }
        id
    }

    #[inline]
    fn push(&mut self, edges: &[u32]) -> u32 {
        let id = self.len() as u32;
        let n = edges.len().min(63);
        let mut node = [0u32; 64];
        node[0] = ((n as u32) << 26) | (id & ID_BITS);
        node[1..=n].copy_from_slice(&edges[..n]);
        self.arena.extend_from_slice(&node[..=n]);
        self.starts.push(self.arena.len() as u32);
        self.single.push(0);
        self.edge_total += n;
        // Ids must fit the child field (as id + 1) and the header; positions a u32.
        self.overflow |= id >= ID_BITS - 1 || self.arena.len() >= 1 << 31;
        id
    }

    fn grow(&mut self) {
        let slots = self.table.len() * 2;
        let shift = self.shift - 1;
        let mask = slots - 1;
        let mut table = vec![0u64; slots];
        for &s in &self.table {
            if s != 0 {
                let mut i = (s >> shift) as usize;
                while table[i] != 0 {
                    i = (i + 1) & mask;
                }
                table[i] = s;
            }
        }
        self.table = table;
        self.shift = shift;
    }
}

/// Below this many items of work, the builds stay on one thread.
pub(crate) const PARALLEL_MIN: usize = 1 << 17;

/// Runs `a` and `b`, on two threads if `parallel` (std's scoped threads; on one if a thread
/// cannot be started).
pub(crate) fn in_parallel<A: Send, B: Send>(
    parallel: bool,
    a: impl FnOnce() -> A + Send,
    b: impl FnOnce() -> B + Send,
) -> (A, B) {
    if !parallel {
        return (a(), b());
    }
    let mut b = Some(b);
    let mut rb = None;
    let ra = std::thread::scope(|s| {
        let (b, rb) = (&mut b, &mut rb);
        let spawned = std::thread::Builder::new().spawn_scoped(s, move || {
            if let Some(b) = b.take() {
                *rb = Some(b());
            }
        });
        let ra = a();
        if let Ok(handle) = spawned {
            // `b` panicking is a bug: carry its panic over rather than hide it.
            if let Err(panic) = handle.join() {
                std::panic::resume_unwind(panic);
            }
        }
        ra
    });
    match (rb, b) {
        (Some(rb), _) => (ra, rb),
        // The thread could not be started: `b` is still here.
        (None, Some(b)) => (ra, b()),
        (None, None) => unreachable!("the thread ran b, or panicked"),
    }
}

/// Lays the registered nodes out as edges: the sentinel, then nodes by decreasing id (parents
/// before children, so arcs point forward). With `separator_arcs`, an edge of letter code 0 keeps
/// its builder child field as the arc itself (the GADDAG's separators, which point into the
/// DAWG). `root`: the root's id, `None` for no root (the empty lexicon).
pub(crate) fn lay_out(
    reg: &Register,
    root: Option<u32>,
    separator_arcs: bool,
) -> Result<Vec<u32>, LexiconError> {
    let total = 1 + reg.edge_total;
    if total > MAX_EDGES || reg.overflow {
        return Err(LexiconError::TooLarge {
            edges: total,
            max: MAX_EDGES,
        });
    }
    // Node id sits after every node of a larger id: at 1 + (edges of ids > id). The edges of ids
    // <= id end at starts[id + 1], after the unused entry and id + 1 headers; so for a child
    // field c = id + 1 the position is edge_total + 2 + c - starts[c].
    let end = reg.edge_total as u32 + 2;
    let starts = &reg.starts;
    let pos = |c: u32| (end + c - starts[c as usize]) as usize;
    let convert = |b: u32| {
        let c = b >> 27;
        let child = b & B_CHILD;
        let mut e = (c << LETTER_SHIFT) | ((b & B_ACCEPT) >> 1);
        if separator_arcs && c == 0 {
            e |= child & ARC_MASK;
        } else if child != 0 {
            e |= pos(child) as u32;
        }
        e
    };
    // Nodes `ids`, by decreasing id, into `out` (exactly their edges).
    let write = |ids: std::ops::Range<usize>, out: &mut [u32]| {
        let mut rest = out;
        for w in starts[ids.start..=ids.end].windows(2).rev() {
            let node = &reg.arena[w[0] as usize + 1..w[1] as usize];
            let Some((run, tail)) = std::mem::take(&mut rest).split_at_mut_checked(node.len())
            else {
                break;
            };
            for (o, &b) in run.iter_mut().zip(node) {
                *o = convert(b);
            }
            if let Some(last) = run.last_mut() {
                *last |= LAST;
            }
            rest = tail;
        }
    };
    let mut edges = vec![0u32; total];
    edges[0] = LAST | root.map_or(0, |r| pos(r + 1) as u32);
    // Two threads write a half of the nodes each: the upper ids first in the table.
    let n = reg.len();
    let mid = n / 2;
    let split = if mid == 0 { total } else { pos(mid as u32) };
    let (upper, lower) = edges[1..].split_at_mut(split - 1);
    in_parallel(
        total >= PARALLEL_MIN,
        || write(mid..n, upper),
        || write(0..mid, lower),
    );
    Ok(edges)
}

/// The unfinished nodes along the last path added to an incremental build (one per depth), with
/// what is needed to finish them: `Pending` is shared by the DAWG and GADDAG builds.
pub(crate) struct Pending<const DEPTH: usize> {
    edges: [[u32; MAX_FANOUT]; DEPTH],
    lens: [u8; DEPTH],
    /// The register's size when the node at this depth got its first edge.
    begun: [u32; DEPTH],
    /// The largest child field (id + 1) among its edges.
    newest: [u32; DEPTH],
}

impl<const DEPTH: usize> Pending<DEPTH> {
    pub(crate) fn new() -> Self {
        Pending {
            edges: [[0; MAX_FANOUT]; DEPTH],
            lens: [0; DEPTH],
            begun: [0; DEPTH],
            newest: [0; DEPTH],
        }
    }

    /// Adds an edge to the node at depth `d` (the node's edges come in increasing letter order).
    #[inline]
    pub(crate) fn push(&mut self, reg: &Register, d: usize, e: u32) {
        let n = usize::from(self.lens[d]);
        if n == 0 {
            self.begun[d] = reg.len() as u32;
            self.newest[d] = 0;
        }
        if n < MAX_FANOUT {
            self.edges[d][n] = e;
            self.lens[d] += 1;
        }
    }

    /// Registers the node at depth `d >= 1` and points its parent's last edge at it.
    #[inline]
    pub(crate) fn finish(&mut self, reg: &mut Register, d: usize) {
        let n = usize::from(self.lens[d]);
        if n == 0 {
            return;
        }
        self.lens[d] = 0;
        // A node with a child registered since the node was begun cannot equal any earlier node
        // (none of those refer to that child) nor any node of its own subtree (they are shorter).
        let known_new = self.newest[d] > self.begun[d];
        let id = reg.intern(&self.edges[d][..n], known_new);
        let p = usize::from(self.lens[d - 1]);
        if p > 0 {
            let child = (id + 1) & B_CHILD;
            self.edges[d - 1][p - 1] |= child;
            self.newest[d - 1] = self.newest[d - 1].max(child);
        }
    }

    /// Registers the root (depth 0); `None` if it has no edges.
    pub(crate) fn finish_root(&mut self, reg: &mut Register) -> Option<u32> {
        let n = usize::from(self.lens[0]);
        if n == 0 {
            return None;
        }
        let known_new = self.newest[0] > self.begun[0];
        Some(reg.intern(&self.edges[0][..n], known_new))
    }
}

/// Builds the minimal DAWG of `words`, which must be sorted, without duplicates, uppercase A-Z,
/// and at most [`MAX_WORD_LEN`] letters (the caller, [`crate::Lexicon`], guarantees it).
pub(crate) fn build<S: AsRef<[u8]>>(words: &[S]) -> Result<Dawg, LexiconError> {
    let mut reg = Register::with_capacity(words.len() + 16, words.len() * 2 + 16);
    // pending.edges[d]: the edges of the unfinished node reached by the first d letters of the
    // previous word; its last edge is on that word's path.
    let mut pending = Pending::<{ MAX_WORD_LEN + 1 }>::new();
    let mut prev: &[u8] = &[];
    for w in words {
        let w = w.as_ref();
        if w.is_empty() || w.len() > MAX_WORD_LEN || w.iter().any(|b| !b.is_ascii_uppercase()) {
            return Err(LexiconError::BadWord {
                word: String::from_utf8_lossy(w).into_owned(),
            });
        }
        if w <= prev {
            debug_assert!(w == prev, "words must be sorted");
            continue;
        }
        let p = prev.iter().zip(w).take_while(|(a, b)| a == b).count();
        for d in (p + 1..=prev.len()).rev() {
            pending.finish(&mut reg, d);
        }
        for (d, &b) in w.iter().enumerate().skip(p) {
            pending.push(&reg, d, builder_edge(b - b'A' + 1, d + 1 == w.len()));
        }
        prev = w;
    }
    for d in (1..=prev.len()).rev() {
        pending.finish(&mut reg, d);
    }
    let root = pending.finish_root(&mut reg);
    let edges = lay_out(&reg, root, false)?;
    Ok(Dawg::with_edges(Cow::Owned(edges)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dawg(words: &[&str]) -> Dawg {
        let mut w: Vec<&str> = words.to_vec();
        w.sort_unstable();
        w.dedup();
        let d = build(&w).unwrap();
        // Whatever we build must pass our own validation.
        let (d2, s) = Dawg::from_edges(d.edges.to_vec(), 0).unwrap();
        assert_eq!(s.word_count, w.len() as u64);
        d2
    }

    #[test]
    fn small_set_round_trips() {
        let words = [
            "CAT", "CATS", "CAR", "CARS", "DOG", "DOGS", "A", "AA", "ZZZ",
        ];
        let d = dawg(&words);
        for w in words {
            assert!(d.contains(w.as_bytes()), "{w}");
        }
        for w in ["CA", "C", "DO", "CATSS", "B", "", "ZZ", "ZZZZ"] {
            assert!(!d.contains(w.as_bytes()), "{w}");
        }
        let mut sorted: Vec<String> = words.iter().map(|s| s.to_string()).collect();
        sorted.sort();
        assert_eq!(d.words().collect::<Vec<_>>(), sorted);
        assert!(d.has_prefix(b"CA") && d.has_prefix(b"") && !d.has_prefix(b"CB"));
    }

    #[test]
    fn suffixes_are_shared() {
        // CAT(S) and RAT(S) share the "AT", "S" tail after the root.
        let d = dawg(&["CAT", "CATS", "RAT", "RATS"]);
        // sentinel + root run (C, R) + A + T + S.
        assert_eq!(d.edges.len(), 6, "{:?}", d.edges);
    }

    #[test]
    fn empty_lexicon() {
        let d = dawg(&[]);
        assert_eq!(d.edges.len(), 1);
        assert_eq!(d.words().count(), 0);
        assert!(!d.contains(b"A"));
        assert!(!d.has_prefix(b""));
    }

    #[test]
    fn lowercase_and_odd_input_to_contains() {
        let d = dawg(&["QI"]);
        assert!(d.contains(b"qi") && d.contains(b"Qi"));
        assert!(!d.contains(b"Q\0") && !d.contains(b"Q") && !d.contains("QÏ".as_bytes()));
    }

    #[test]
    fn validation_rejects_backward_arcs_and_bad_letters() {
        let d = dawg(&["AB"]);
        let mut e = d.edges.to_vec();
        // Point the B edge's arc back to the root run.
        let last = e.len() - 1;
        e[last] |= 1;
        assert!(Dawg::from_edges(e.clone(), 0).is_err());
        assert!(Dawg::from_image_edges(Cow::Owned(e), 0).is_err());
        let mut e = d.edges.to_vec();
        e[1] = (e[1] & !(31 << LETTER_SHIFT)) | (27 << LETTER_SHIFT);
        assert!(Dawg::from_edges(e.clone(), 0).is_err());
        assert!(Dawg::from_image_edges(Cow::Owned(e), 0).is_err());
        assert!(Dawg::from_edges(vec![], 0).is_err());
        assert!(Dawg::from_image_edges(Cow::Owned(vec![]), 0).is_err());
    }

    /// The built-in image's check is the structure without the counts: a path over 15 letters
    /// passes it, and lookups and enumeration on such a graph still stop (at 15 letters).
    #[test]
    fn the_image_check_leaves_out_only_the_lengths() {
        let mut e = vec![LAST | 1];
        for i in 1..=16u32 {
            let arcv = if i < 16 { i + 1 } else { 0 };
            e.push((1 << LETTER_SHIFT) | LAST | ACCEPTS | arcv);
        }
        let d = Dawg::from_image_edges(Cow::Owned(e), 0).unwrap();
        assert!(d.contains(b"AAAAAAAAAAAAAAA"));
        assert!(!d.contains(b"AAAAAAAAAAAAAAAA"));
        let words: Vec<String> = d.words().collect();
        assert_eq!(words.len(), MAX_WORD_LEN);
        assert_eq!(words.last().unwrap().len(), MAX_WORD_LEN);
    }

    #[test]
    fn validation_rejects_paths_over_15() {
        // A chain of 16 edges, each accepting, hand-made.
        let mut e = vec![LAST | 1];
        for i in 1..=16u32 {
            let arcv = if i < 16 { i + 1 } else { 0 };
            e.push((1 << LETTER_SHIFT) | LAST | ACCEPTS | arcv);
        }
        let err = Dawg::from_edges(e, 0).unwrap_err().to_string();
        assert!(err.contains("longer than 15"), "{err}");
    }
}
