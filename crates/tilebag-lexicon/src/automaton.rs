//! The move generator's in-memory form of the GADDAG and the DAWG: one flat `u32` table of nodes
//! with a bitset of children per node, so a child is found by letter in a few register operations
//! instead of a scan of its siblings.
//!
//! # Layout
//!
//! A node at index `n` takes `2 + k` words, for its `k` children:
//!
//! - `table[n]`: the child set, bit `l` set when there is a child for letter code `l`
//!   (0 = the GADDAG separator, 1..=26 = A..=Z);
//! - `table[n + 1]`: the accepting set, bit `l` set when the path ending with that child spells
//!   a complete entry;
//! - `table[n + 2 + i]`: the node of the `i`-th child in letter order (0: it has no children).
//!
//! The child for letter `l` is therefore `table[n + 2 + popcount(set & ((1 << l) - 1))]`. Index 0
//! is an empty node (both sets 0) standing for "no node". The GADDAG's nodes come first (their
//! order in the file: parents before children), then the DAWG's; a GADDAG separator's child is a
//! DAWG node, in the same table, so the walk from an anchor goes left and then right without
//! switching arrays. Built from the edge arrays in one pass each (a few milliseconds for
//! ENABLE); it costs `4 × (2 × nodes + edges)` bytes.

use crate::edge::{accepts, arc, is_last, letter};
use std::borrow::Cow;

/// See the module documentation.
#[derive(Clone, PartialEq, Eq)]
pub struct Automaton {
    /// Made here, or (the built-in list's) read in place from the image embedded in the program.
    table: Cow<'static, [u32]>,
    gaddag_root: u32,
    dawg_root: u32,
}

impl std::fmt::Debug for Automaton {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Automaton")
            .field("words", &self.table.len())
            .finish()
    }
}

/// Appends the runs of `edges` (a [`crate::dawg`]-style edge array) to `table` as nodes, with
/// their children left as the old run indices; returns the map from old run start to new node.
fn append_runs(edges: &[u32], table: &mut Vec<u32>) -> Vec<u32> {
    let mut map = vec![0u32; edges.len() + 1];
    let mut i = 1;
    while i < edges.len() {
        let start = i;
        let node = table.len();
        map[start] = node as u32;
        table.push(0);
        table.push(0);
        loop {
            let e = edges[i];
            let l = letter(e);
            if l < 32 {
                table[node] |= 1 << l;
                if accepts(e) {
                    table[node + 1] |= 1 << l;
                }
            }
            table.push(arc(e));
            i += 1;
            if is_last(e) || i >= edges.len() {
                break;
            }
        }
    }
    map
}

/// Rewrites the children of the nodes in `table[from..to]` from old run indices to nodes:
/// through `sep_map` for the separator (letter 0) when given, else through `map`.
fn fix_arcs(table: &mut [u32], from: usize, to: usize, map: &[u32], sep_map: Option<&[u32]>) {
    let mut n = from;
    while n < to {
        let set = table[n];
        let k = set.count_ones() as usize;
        for i in 0..k {
            let old = table[n + 2 + i] as usize;
            let m = if i == 0 && set & 1 != 0 {
                sep_map.unwrap_or(map)
            } else {
                map
            };
            table[n + 2 + i] = m.get(old).copied().unwrap_or(0);
        }
        n += 2 + k;
    }
}

impl Automaton {
    /// The table for a GADDAG (whose separators point into `dawg`) and its DAWG, both as
    /// validated edge arrays.
    pub fn new(gaddag: &[u32], dawg: &[u32]) -> Automaton {
        let mut table = Vec::with_capacity(gaddag.len() + dawg.len() + 200_000);
        table.push(0);
        table.push(0);
        let g_from = table.len();
        let gmap = append_runs(gaddag, &mut table);
        let d_from = table.len();
        let dmap = append_runs(dawg, &mut table);
        let d_to = table.len();
        fix_arcs(&mut table, g_from, d_from, &gmap, Some(&dmap));
        fix_arcs(&mut table, d_from, d_to, &dmap, None);
        let root = |edges: &[u32], map: &[u32]| {
            edges
                .first()
                .and_then(|&e| map.get(arc(e) as usize))
                .copied()
                .unwrap_or(0)
        };
        let (table, roots) = breadth_first(&table, &[root(gaddag, &gmap), root(dawg, &dmap)]);
        // The move generator reads the table without bounds checks, on the strength of this
        // (`breadth_first` lays every node out so; checked here, in one pass, all the same).
        assert!(
            well_formed(&table, &roots),
            "the automaton's node table is malformed"
        );
        Automaton {
            gaddag_root: roots[0],
            dawg_root: roots[1],
            table: Cow::Owned(table),
        }
    }

    /// The `AUTO` section's payload (see [`crate::format`]): the two roots, then the table, each
    /// word a little-endian u32.
    pub(crate) fn to_le_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(8 + 4 * self.table.len());
        out.extend_from_slice(&self.gaddag_root.to_le_bytes());
        out.extend_from_slice(&self.dawg_root.to_le_bytes());
        for w in self.table.iter() {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// Reads what [`Automaton::to_le_bytes`] wrote, in place where it can (see
    /// [`crate::format::le_words`]): `None` unless it is a whole number of words and the table is
    /// well formed, so the generator's unchecked reads stay in bounds whatever the bytes.
    /// (Whether it is the automaton of a given DAWG and GADDAG is not checked: the built-in
    /// image, the only source of such bytes, is compared with a fresh build by a test.)
    pub(crate) fn from_le_bytes(bytes: &'static [u8]) -> Option<Automaton> {
        let (head, table) = bytes.split_at_checked(8)?;
        let root = |i: usize| u32::from_le_bytes([head[i], head[i + 1], head[i + 2], head[i + 3]]);
        let (gaddag_root, dawg_root) = (root(0), root(4));
        let table = crate::format::le_words(table)?;
        if !well_formed(&table, &[gaddag_root, dawg_root]) {
            return None;
        }
        Some(Automaton {
            table,
            gaddag_root,
            dawg_root,
        })
    }

    /// Whether the table is read in place (from the built-in image), not copied.
    #[cfg(test)]
    pub(crate) fn in_place(&self) -> bool {
        matches!(self.table, Cow::Borrowed(_))
    }

    /// The flat table (see the module documentation).
    #[inline(always)]
    pub fn table(&self) -> &[u32] {
        &self.table
    }

    /// The GADDAG's root node (0 when it has no words).
    #[inline(always)]
    pub fn gaddag_root(&self) -> u32 {
        self.gaddag_root
    }

    /// The DAWG's root node (0 when it has no words).
    #[inline(always)]
    pub fn dawg_root(&self) -> u32 {
        self.dawg_root
    }

    /// The child of `node` for letter code `l`: `Some((child node, accepts))`, None if absent.
    #[inline(always)]
    pub fn child(&self, node: u32, l: u8) -> Option<(u32, bool)> {
        child(&self.table, node, l)
    }

    /// Bytes the table takes (in memory, or for the built-in list in the program's image, mapped
    /// from the executable and read in as the generator touches it).
    pub fn memory_bytes(&self) -> usize {
        self.table.len() * 4
    }

    /// Whether the DAWG part accepts `word` (letter codes 1..=26).
    pub fn dawg_contains(&self, word: &[u8]) -> bool {
        let mut node = self.dawg_root;
        let mut ok = false;
        for &l in word {
            match self.child(node, l) {
                Some((next, acc)) => {
                    node = next;
                    ok = acc;
                }
                None => return false,
            }
        }
        ok
    }
}

/// Whether `table` is a sequence of whole nodes from index 0 (each `2 + popcount(set)` words)
/// whose children, and `roots`, are all 0 or the start of a node: then every index a walk
/// makes (a node, `node + 1`, and `node + 2 + i` for each child `i` its set has) is in bounds.
/// The move generator relies on it to read the table unchecked.
pub(crate) fn well_formed(table: &[u32], roots: &[u32]) -> bool {
    let len = table.len();
    // The nodes' starts as bits (ENABLE's 1.6 million words: 200 KB, which the cache holds
    // while the children are checked against it).
    let mut starts = vec![0u64; len.div_ceil(64)];
    let mut n = 0;
    while n < len {
        starts[n / 64] |= 1 << (n % 64);
        if n + 1 >= len {
            return false;
        }
        n += 2 + table[n].count_ones() as usize;
    }
    if n != len || len < 2 || table[0] != 0 {
        return false;
    }
    let is_node = |c: u32| {
        let c = c as usize;
        c < len && starts[c / 64] >> (c % 64) & 1 != 0
    };
    // The nodes tile the table, so its children are the words that are neither a node's start
    // nor the word after one: found 64 at a time from the bits, without walking the nodes again.
    let mut ok = true;
    let mut carry = 0u64;
    for (w, &bits) in starts.iter().enumerate() {
        let mut children = !(bits | bits << 1 | carry);
        carry = bits >> 63;
        let base = w * 64;
        if len - base < 64 {
            children &= (1u64 << (len - base)) - 1;
        }
        while children != 0 {
            ok &= is_node(table[base + children.trailing_zeros() as usize]);
            children &= children - 1;
        }
    }
    ok && roots.iter().all(|&r| is_node(r))
}

/// The same nodes laid out breadth first from `roots` (the first root's levels, with the nodes
/// its separators lead to, as they are reached): the levels near the roots, which every walk
/// passes through, then sit together at the start of the table. Returns the new table and the
/// roots' new indices.
fn breadth_first(table: &[u32], roots: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let mut map = vec![u32::MAX; table.len()];
    map[0] = 0;
    let mut order: Vec<u32> = Vec::new();
    let mut next_free = 2u32;
    let mut visit = |n: u32, map: &mut [u32], order: &mut Vec<u32>| {
        if map[n as usize] == u32::MAX {
            map[n as usize] = next_free;
            next_free += 2 + table[n as usize].count_ones();
            order.push(n);
        }
    };
    for &r in roots {
        visit(r, &mut map, &mut order);
    }
    let mut i = 0;
    while i < order.len() {
        let n = order[i] as usize;
        for c in 0..table[n].count_ones() as usize {
            visit(table[n + 2 + c], &mut map, &mut order);
        }
        i += 1;
    }
    let mut out: Vec<u32> = Vec::with_capacity(table.len());
    out.extend_from_slice(&[0, 0]);
    for &n in &order {
        let n = n as usize;
        let k = table[n].count_ones() as usize;
        out.push(table[n]);
        out.push(table[n + 1]);
        out.extend(table[n + 2..n + 2 + k].iter().map(|&c| map[c as usize]));
    }
    let roots = roots.iter().map(|&r| map[r as usize]).collect();
    (out, roots)
}

/// The child of `node` for letter code `l` in `table`: `Some((child node, accepts))`.
#[inline(always)]
pub fn child(table: &[u32], node: u32, l: u8) -> Option<(u32, bool)> {
    let n = node as usize;
    let set = table[n];
    if l >= 32 || set >> l & 1 == 0 {
        return None;
    }
    let i = (set & ((1u32 << l) - 1)).count_ones() as usize;
    Some((table[n + 2 + i], table[n + 1] >> l & 1 != 0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Gaddag;

    #[test]
    fn a_table_is_well_formed_only_when_every_index_a_walk_makes_is_in_bounds() {
        let (g, dawg) = Gaddag::build(&["CAT", "CATS", "AT"]).unwrap();
        let a = Automaton::new(g.edges(), &dawg);
        let roots = [a.gaddag_root(), a.dawg_root()];
        assert!(well_formed(a.table(), &roots));
        // Cut short: the last node's children are missing.
        let t = a.table();
        assert!(!well_formed(&t[..t.len() - 1], &roots));
        // A child into the middle of a node (index 1 is the empty node's second word).
        let mut bad = t.to_vec();
        let root = a.gaddag_root() as usize;
        assert_ne!(bad[root], 0, "the root has children");
        bad[root + 2] = 1;
        assert!(!well_formed(&bad, &roots));
        // A root past the end.
        assert!(!well_formed(t, &[t.len() as u32]));
    }

    /// The check agrees with a plain one (walk the nodes, then look each child up among their
    /// starts) on every table one word away from a real one, across 64-word boundaries: each
    /// child bent to every index, each child set given one more or one fewer letter, every cut.
    #[test]
    fn the_bitwise_check_agrees_with_a_plain_walk() {
        fn plain(table: &[u32], roots: &[u32]) -> bool {
            let mut starts = Vec::new();
            let mut n = 0;
            while n < table.len() {
                starts.push(n as u32);
                n += 2 + table[n].count_ones() as usize;
            }
            if n != table.len() || table.len() < 2 || table[0] != 0 {
                return false;
            }
            let is_node = |c: u32| starts.binary_search(&c).is_ok();
            starts.iter().all(|&s| {
                let (s, k) = (s as usize, table[s as usize].count_ones() as usize);
                table[s + 2..s + 2 + k].iter().all(|&c| is_node(c))
            }) && roots.iter().all(|&r| is_node(r))
        }
        let words = [
            "CAT", "CATS", "SCAT", "ACT", "ACTS", "TACO", "COAT", "COATS", "COST", "SCOT", "DOG",
            "GOD", "GODS", "DOGS", "ZA", "QI", "AX", "XI", "JO", "OX", "BOX", "FOX", "EXAM",
        ];
        let (g, dawg) = Gaddag::build(&words).unwrap();
        let a = Automaton::new(g.edges(), &dawg);
        let t = a.table();
        assert!(
            t.len() > 4 * 64,
            "{} words: several 64-word blocks",
            t.len()
        );
        let roots = [a.gaddag_root(), a.dawg_root()];
        assert!(well_formed(t, &roots));
        let mut node = 0;
        let mut checked = 0;
        while node < t.len() {
            let k = t[node].count_ones() as usize;
            for slot in node + 2..node + 2 + k {
                for c in 0..t.len() as u32 + 2 {
                    let mut bent = t.to_vec();
                    bent[slot] = c;
                    assert_eq!(
                        well_formed(&bent, &roots),
                        plain(&bent, &roots),
                        "{slot} {c}"
                    );
                    checked += 1;
                }
            }
            for bit in [0, 1, 13, 26, 31] {
                let mut bent = t.to_vec();
                bent[node] ^= 1 << bit;
                assert_eq!(well_formed(&bent, &roots), plain(&bent, &roots));
            }
            node += 2 + k;
        }
        assert!(checked > 10_000);
        for cut in 0..t.len() {
            assert_eq!(
                well_formed(&t[..cut], &roots),
                plain(&t[..cut], &roots),
                "cut {cut}"
            );
        }
    }

    /// The `AUTO` section's bytes read back to the same table; anything else is refused.
    #[test]
    fn the_table_reads_back_from_its_bytes() {
        let (g, dawg) = Gaddag::build(&["CAT", "CATS", "AT", "TA"]).unwrap();
        let a = Automaton::new(g.edges(), &dawg);
        let bytes: &'static [u8] = Box::leak(a.to_le_bytes().into_boxed_slice());
        assert_eq!(Automaton::from_le_bytes(bytes), Some(a.clone()));
        assert_eq!(Automaton::from_le_bytes(&bytes[..bytes.len() - 4]), None);
        assert_eq!(Automaton::from_le_bytes(&bytes[..bytes.len() - 1]), None);
        assert_eq!(Automaton::from_le_bytes(&bytes[..7]), None);
        let mut bad = bytes.to_vec();
        bad[..4].copy_from_slice(&(a.table().len() as u32).to_le_bytes());
        assert_eq!(
            Automaton::from_le_bytes(Box::leak(bad.into_boxed_slice())),
            None
        );
    }

    #[test]
    fn finds_what_the_edges_hold() {
        let words = ["CAT", "CATS", "CAR", "AT", "TA", "QI", "ZZZ"];
        let (g, dawg) = Gaddag::build(&words).unwrap();
        let a = Automaton::new(g.edges(), &dawg);
        let code = |w: &str| w.bytes().map(|b| b - b'A' + 1).collect::<Vec<u8>>();
        for w in words {
            assert!(a.dawg_contains(&code(w)), "{w}");
        }
        for w in ["CA", "C", "CATSS", "ZZ", "Q", "TAT"] {
            assert!(!a.dawg_contains(&code(w)), "{w}");
        }
        // GADDAG: "CAT" split after A is A C ^ T: reversed prefix, separator, then the DAWG.
        let (n1, acc1) = a.child(a.gaddag_root(), 1).unwrap();
        assert!(!acc1);
        let (n2, acc2) = a.child(n1, 3).unwrap();
        assert!(!acc2, "CA is not a word");
        let (d, _) = a.child(n2, 0).unwrap();
        let (t_node, t_acc) = a.child(d, 20).unwrap();
        assert!(t_acc, "CA^T is CAT");
        assert_eq!(
            a.child(t_node, 19),
            Some((0, true)),
            "CA^TS is CATS, a leaf"
        );
        let (_, r_acc) = a.child(d, 18).unwrap();
        assert!(r_acc, "CA^R is CAR");
        assert_eq!(a.child(d, 2), None, "no word starts CAB");
    }
}
