//! Leave files: the `.klv2` and `.klv` files of wolges and MAGPIE, a plain text form, and
//! tilebag's weights text; read wherever tilebag takes leaves (`--leaves FILE`), written by
//! `tilebag leaves convert`.
//!
//! **`.klv2`** (all integers little-endian): `u32 N`, then `N` 32-bit DAWG nodes (tile in bits
//! 24–31, "a leave ends here" bit 23, "last child of its parent" bit 22, first child's index in
//! bits 0–21, 0 = none; node 0's child index is the root list, node 1 an empty GADDAG root);
//! then `u32 L` and `L` values as `f32` points, the `k`-th belonging to the `k`-th leave a
//! depth-first walk meets (children in node order, a leave counted when its last tile's node
//! is reached). **`.klv`** is the same with `i16` values in 1/256 points; the file's length says
//! which. The empty leave is not in the file (its value is 0).
//!
//! The reader walks the DAWG and puts each value at its leave's rank, so any DAWG layout reads;
//! every index is checked, so a damaged file is an error, never a panic. The writer lays the
//! DAWG out as MAGPIE's files are: each distinct list of children once (lists with the same
//! tiles and the same subtrees shared), in the order a depth-first walk first meets them, after
//! the two root nodes. Since tilebag's rank is that walk's order, the values are written as
//! they are stored.
//!
//! **Text**: `LEAVE VALUE` a line (`ERS 12.5`; `?` a blank; a comma may separate them),
//! `#` comments; written in rank order with the shortest decimal that reads back to the same
//! `f32`. A leave the text leaves out is worth 0.
//!
//! **Weights**: tilebag's weights model ([`crate::leaves`]), evaluated on every leave.

use crate::leave_table::{LeaveShape, LeaveTable};

/// The built-in leave table for ENABLE: every English leave of 1 to 6 tiles, made from nothing
/// by `tilebag leaves train` (the README gives the command line), as a `.klv2` file.
pub const ENABLE_TABLE: &[u8] = include_bytes!("../data/enable.klv2");
use crate::leaves::Leaves;
use crate::rack::Rack;
use std::collections::HashMap;
use std::path::Path;

/// A leave file that cannot be read (the message names the line or the part of the file).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct LeaveFileError(pub String);

fn err<T>(msg: impl Into<String>) -> Result<T, LeaveFileError> {
    Err(LeaveFileError(msg.into()))
}

/// The forms a leave file may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaveFormat {
    /// wolges/MAGPIE, `f32` values.
    Klv2,
    /// wolges/MAGPIE, `i16` values in 1/256 points.
    Klv,
    /// `LEAVE VALUE` a line.
    Text,
    /// tilebag's weights model (`A1 1.5`, `bal 2 3 1.0`, `QU 6.0` …).
    Weights,
}

impl LeaveFormat {
    pub fn name(self) -> &'static str {
        match self {
            LeaveFormat::Klv2 => "klv2",
            LeaveFormat::Klv => "klv",
            LeaveFormat::Text => "text",
            LeaveFormat::Weights => "weights",
        }
    }

    /// The form to write for a file name: `.klv2`, `.klv`, otherwise text.
    pub fn for_path(path: &Path) -> LeaveFormat {
        match path
            .extension()
            .and_then(|e| e.to_str())
            .map(|e| e.to_ascii_lowercase())
            .as_deref()
        {
            Some("klv2") => LeaveFormat::Klv2,
            Some("klv") => LeaveFormat::Klv,
            _ => LeaveFormat::Text,
        }
    }

    /// The form of a file's bytes: binary (a DAWG and values whose length says `.klv2` or
    /// `.klv`), tilebag's weights (a line naming a weight: `games`, `bal`, `A1` …), or text.
    pub fn sniff(bytes: &[u8]) -> LeaveFormat {
        if let Some(f) = klv_kind(bytes) {
            return f;
        }
        let text = String::from_utf8_lossy(bytes);
        let weights = text.lines().any(|line| {
            let first = line.split_whitespace().next().unwrap_or("");
            let b = first.as_bytes();
            first == "games"
                || first == "bal"
                || (b.len() == 2
                    && (b[0] == b'?' || b[0].is_ascii_uppercase())
                    && b[1].is_ascii_digit())
        });
        if weights {
            LeaveFormat::Weights
        } else {
            LeaveFormat::Text
        }
    }
}

/// `.klv2` or `.klv` if the bytes have that shape (the node count and value count agree with
/// the length).
fn klv_kind(bytes: &[u8]) -> Option<LeaveFormat> {
    let n = read_u32(bytes, 0)? as usize;
    let values_at = n.checked_mul(4)?.checked_add(4)?;
    let l = read_u32(bytes, values_at)? as usize;
    let rest = bytes.len().checked_sub(values_at + 4)?;
    if l.checked_mul(4) == Some(rest) {
        Some(LeaveFormat::Klv2)
    } else if l.checked_mul(2) == Some(rest) {
        Some(LeaveFormat::Klv)
    } else {
        None
    }
}

fn read_u32(bytes: &[u8], at: usize) -> Option<u32> {
    let b = bytes.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// The letter of a tile code (`?` for the blank).
fn tile_char(code: usize) -> char {
    if code == 0 {
        '?'
    } else {
        (b'A' + code as u8 - 1) as char
    }
}

impl LeaveTable {
    /// Reads a leave file of any form (see [`LeaveFormat::sniff`]) for English; errors name the
    /// file. This is what `--leaves FILE` reads.
    pub fn read_file(path: &Path) -> Result<LeaveTable, LeaveFileError> {
        LeaveTable::read_file_for(path, LeaveShape::english())
    }

    /// The built-in table for ENABLE ([`ENABLE_TABLE`]), read once.
    pub fn enable() -> &'static LeaveTable {
        static T: std::sync::OnceLock<LeaveTable> = std::sync::OnceLock::new();
        // A test reads the embedded file, so the fallback is never taken.
        T.get_or_init(|| {
            LeaveTable::in_rank_order(ENABLE_TABLE, LeaveShape::english())
                .or_else(|| LeaveTable::from_bytes(ENABLE_TABLE).ok())
                .unwrap_or_else(|| LeaveTable::zeros(LeaveShape::english()))
        })
    }

    /// A `.klv2` written by tilebag ([`LeaveTable::to_klv2`]: its values in rank order, every
    /// leave of `shape`) read without walking its DAWG: the values copied as they stand. Only
    /// for the embedded table, whose walk a test checks gives the same values; `None` if the
    /// value count is not the shape's.
    fn in_rank_order(bytes: &[u8], shape: LeaveShape) -> Option<LeaveTable> {
        let n = read_u32(bytes, 0)? as usize;
        let at = 4usize.checked_add(n.checked_mul(4)?)?;
        let l = read_u32(bytes, at)? as usize;
        if l + 1 != shape.len() || bytes.len() != at + 4 + 4 * l {
            return None;
        }
        let mut values = Vec::with_capacity(l + 1);
        values.push(0.0);
        values.extend(
            bytes[at + 4..]
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        );
        LeaveTable::from_values(shape, values, l)
    }

    /// As [`LeaveTable::read_file`], for the leaves of `shape`.
    pub fn read_file_for(path: &Path, shape: LeaveShape) -> Result<LeaveTable, LeaveFileError> {
        let bytes =
            std::fs::read(path).map_err(|e| LeaveFileError(format!("{}: {e}", path.display())))?;
        LeaveTable::from_bytes_for(&bytes, shape)
            .map_err(|e| LeaveFileError(format!("{}: {e}", path.display())))
    }

    /// Reads a leave file's bytes of any form, for English.
    pub fn from_bytes(bytes: &[u8]) -> Result<LeaveTable, LeaveFileError> {
        LeaveTable::from_bytes_for(bytes, LeaveShape::english())
    }

    /// Reads a leave file's bytes of any form, for the leaves of `shape`.
    pub fn from_bytes_for(bytes: &[u8], shape: LeaveShape) -> Result<LeaveTable, LeaveFileError> {
        match LeaveFormat::sniff(bytes) {
            LeaveFormat::Klv2 | LeaveFormat::Klv => LeaveTable::from_klv(bytes, shape),
            LeaveFormat::Weights => {
                let text = std::str::from_utf8(bytes)
                    .map_err(|_| LeaveFileError("the weights are not UTF-8 text".into()))?;
                let model = Leaves::parse(text).map_err(LeaveFileError)?;
                Ok(LeaveTable::from_model(&model, shape))
            }
            LeaveFormat::Text => {
                let text = std::str::from_utf8(bytes).map_err(|_| {
                    LeaveFileError(
                        "neither a .klv2/.klv file (its length does not fit) nor UTF-8 text".into(),
                    )
                })?;
                LeaveTable::parse_text(text, shape)
            }
        }
    }

    /// Reads a `.klv2` or `.klv` file (told apart by its length).
    pub fn from_klv(bytes: &[u8], shape: LeaveShape) -> Result<LeaveTable, LeaveFileError> {
        let Some(kind) = klv_kind(bytes) else {
            return err(format!(
                "not a .klv2/.klv file: {} bytes do not hold a node count, the nodes, a value \
                 count and the values (4 bytes each for .klv2, 2 for .klv)",
                bytes.len()
            ));
        };
        let n = read_u32(bytes, 0).unwrap_or(0) as usize;
        let nodes: Vec<u32> = (0..n)
            .map(|i| read_u32(bytes, 4 + 4 * i).unwrap_or(0))
            .collect();
        let values_at = 8 + 4 * n;
        let l = read_u32(bytes, 4 + 4 * n).unwrap_or(0) as usize;
        let value = |k: usize| -> f32 {
            match kind {
                LeaveFormat::Klv2 => {
                    let b = &bytes[values_at + 4 * k..values_at + 4 * k + 4];
                    f32::from_le_bytes([b[0], b[1], b[2], b[3]])
                }
                _ => {
                    let b = &bytes[values_at + 2 * k..values_at + 2 * k + 2];
                    f32::from(i16::from_le_bytes([b[0], b[1]])) / 256.0
                }
            }
        };
        if n == 0 {
            return err("the DAWG has no nodes (node 0 points to its root list)");
        }
        let mut table = LeaveTable::zeros(shape);
        let mut seen = vec![false; table.shape().len()];
        let mut k = 0usize; // leaves met so far
        let mut visits = 0usize;
        let max_visits = 64usize.saturating_mul(l + 1).saturating_add(n);
        // Depth-first, children in node order. `stack[d]`: the node being visited at depth d
        // (its tile is on `path` while its subtree is walked).
        let mut path = Rack::default();
        let mut stack: Vec<usize> = Vec::new();
        let root = (nodes[0] & 0x3F_FFFF) as usize;
        if root != 0 {
            stack.push(root);
        }
        let node_at = |i: usize| {
            nodes
                .get(i)
                .copied()
                .ok_or_else(|| LeaveFileError(format!("node {i} is past the {n} nodes")))
        };
        while let Some(&i) = stack.last() {
            visits += 1;
            if visits > max_visits {
                return err("the DAWG's walk does not end (a cycle?)");
            }
            let node = node_at(i)?;
            let tile = (node >> 24) as usize;
            if tile > 26 {
                return err(format!(
                    "node {i}: tile {tile} is not a tile of the English set (0 = ?, 1..26 = A..Z)"
                ));
            }
            path.counts[tile] += 1;
            if node & (1 << 23) != 0 {
                if k >= l {
                    return err(format!("the DAWG holds more leaves than the {l} values"));
                }
                let Some(rank) = table.shape().rank(&path).filter(|&r| r > 0) else {
                    return err(format!(
                        "leave {} (leave {} of the file) is not a leave of this tile set \
                         (at most {} tiles, no more of a tile than the bag holds)",
                        path,
                        k + 1,
                        table.shape().max_len()
                    ));
                };
                if seen[rank] {
                    return err(format!("leave {path} is in the file twice"));
                }
                seen[rank] = true;
                let v = value(k);
                if !v.is_finite() {
                    return err(format!("leave {path}: its value is not a number"));
                }
                table.values_mut()[rank] = v;
                k += 1;
            }
            let child = (node & 0x3F_FFFF) as usize;
            if child != 0 {
                if stack.len() >= 16 {
                    return err("the DAWG is deeper than 16 tiles (a cycle?)");
                }
                stack.push(child);
                continue;
            }
            // Node i's subtree is done: take its tile off; go to its next sibling, or finish
            // the list and its parent (whose tile comes off too), and so on up.
            path.counts[tile] -= 1;
            while let Some(top) = stack.last_mut() {
                let node = node_at(*top)?;
                if node & (1 << 22) == 0 {
                    *top += 1;
                    break;
                }
                stack.pop();
                if let Some(&parent) = stack.last() {
                    path.counts[(node_at(parent)? >> 24) as usize] -= 1;
                }
            }
        }
        if k != l {
            return err(format!("the file has {l} values but its DAWG {k} leaves"));
        }
        table.set_known(k);
        Ok(table)
    }

    /// The `.klv2` file (values as `f32`).
    pub fn to_klv2(&self) -> Vec<u8> {
        self.to_klv_bytes(LeaveFormat::Klv2)
    }

    /// The `.klv` file (values as `i16` in 1/256 points, rounded and held within ±128 points).
    pub fn to_klv(&self) -> Vec<u8> {
        self.to_klv_bytes(LeaveFormat::Klv)
    }

    fn to_klv_bytes(&self, kind: LeaveFormat) -> Vec<u8> {
        let nodes = leave_dawg(self.shape());
        let values = &self.values()[1..];
        let width = if kind == LeaveFormat::Klv2 { 4 } else { 2 };
        let mut out = Vec::with_capacity(8 + 4 * nodes.len() + width * values.len());
        out.extend_from_slice(&(nodes.len() as u32).to_le_bytes());
        for node in &nodes {
            out.extend_from_slice(&node.to_le_bytes());
        }
        out.extend_from_slice(&(values.len() as u32).to_le_bytes());
        for &v in values {
            if kind == LeaveFormat::Klv2 {
                out.extend_from_slice(&v.to_le_bytes());
            } else {
                let q = (f64::from(v) * 256.0)
                    .round()
                    .clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16;
                out.extend_from_slice(&q.to_le_bytes());
            }
        }
        out
    }

    /// The text form: `LEAVE VALUE` a line, in rank order.
    pub fn to_text(&self) -> String {
        let mut s = format!(
            "# tilebag leave table: LEAVE VALUE, one leave a line ({} leaves of 1-{} tiles; ? is a blank)\n",
            self.shape().len() - 1,
            self.shape().max_len()
        );
        let values = self.values();
        let mut i = 0usize;
        self.shape().for_each_leave(|leave| {
            i += 1;
            // Letters in code order, the blank first, as the DAWG has them.
            for _ in 0..leave.counts[0] {
                s.push('?');
            }
            for code in 1..27 {
                for _ in 0..leave.counts[code] {
                    s.push(tile_char(code));
                }
            }
            s.push(' ');
            s.push_str(&values[i].to_string());
            s.push('\n');
        });
        s
    }

    /// Reads the text form; errors name the line. Leaves not listed are worth 0.
    pub fn parse_text(text: &str, shape: LeaveShape) -> Result<LeaveTable, LeaveFileError> {
        let mut table = LeaveTable::zeros(shape);
        let mut seen = vec![false; table.shape().len()];
        let mut known = 0usize;
        for (i, raw) in text.lines().enumerate() {
            let line = raw.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = |why: &str| LeaveFileError(format!("line {}: {why}: {line:?}", i + 1));
            let parts: Vec<&str> = line
                .split(|c: char| c.is_whitespace() || c == ',')
                .filter(|p| !p.is_empty())
                .collect();
            let [leave, value] = parts.as_slice() else {
                return Err(bad("expected a leave and its value"));
            };
            let rack = Rack::parse(leave).map_err(|e| bad(&e.to_string()))?;
            let v: f32 = value
                .parse()
                .ok()
                .filter(|v: &f32| v.is_finite())
                .ok_or_else(|| bad("the value is not a number"))?;
            let Some(rank) = table.shape().rank(&rack).filter(|&r| r > 0) else {
                return Err(bad(&format!(
                    "not a leave of this tile set (1 to {} tiles, no more of a tile than the bag holds)",
                    table.shape().max_len()
                )));
            };
            if seen[rank] {
                return Err(bad("the leave is listed twice"));
            }
            seen[rank] = true;
            table.values_mut()[rank] = v;
            known += 1;
        }
        table.set_known(known);
        Ok(table)
    }

    /// Writes the table in `format` (not [`LeaveFormat::Weights`], which a table cannot be
    /// turned back into: it is written as text).
    pub fn to_bytes(&self, format: LeaveFormat) -> Vec<u8> {
        match format {
            LeaveFormat::Klv2 => self.to_klv2(),
            LeaveFormat::Klv => self.to_klv(),
            LeaveFormat::Text | LeaveFormat::Weights => self.to_text().into_bytes(),
        }
    }
}

/// The DAWG of every leave of `shape`, laid out as MAGPIE's files are (see the module).
pub fn leave_dawg(shape: &LeaveShape) -> Vec<u32> {
    /// A list of children: (tile, the child's list or `NONE`).
    type List = Vec<(u8, u32)>;
    const NONE: u32 = u32::MAX;
    struct Builder<'s> {
        shape: &'s LeaveShape,
        /// Lists by content.
        ids: HashMap<List, u32>,
        lists: Vec<List>,
        /// (last code + 1, copies of it, tiles left) -> the list of that node's children.
        memo: HashMap<(usize, usize, usize), u32>,
    }
    impl Builder<'_> {
        /// The children of a node whose last tile is code `p - 1` (p = 0: the root), held `n`
        /// times, with `left` tiles still allowed.
        fn list(&mut self, p: usize, n: usize, left: usize) -> u32 {
            if let Some(&id) = self.memo.get(&(p, n, left)) {
                return id;
            }
            let mut list: List = Vec::new();
            if left > 0 {
                let from = p.saturating_sub(1);
                for c in from..27 {
                    let copies = if p > 0 && c == p - 1 { n + 1 } else { 1 };
                    if copies > usize::from(self.shape.counts()[c]) {
                        continue;
                    }
                    let child = self.list(c + 1, copies, left - 1);
                    list.push((c as u8, child));
                }
            }
            let id = if list.is_empty() {
                NONE
            } else if let Some(&id) = self.ids.get(&list) {
                id
            } else {
                let id = self.lists.len() as u32;
                self.lists.push(list.clone());
                self.ids.insert(list, id);
                id
            };
            self.memo.insert((p, n, left), id);
            id
        }
    }
    let mut b = Builder {
        shape,
        ids: HashMap::new(),
        lists: Vec::new(),
        memo: HashMap::new(),
    };
    let root = b.list(0, 0, shape.max_len());
    // Lay the lists out in the order a depth-first walk first meets them.
    let mut at = vec![0u32; b.lists.len()];
    let mut order = Vec::with_capacity(b.lists.len());
    let mut next = 2u32;
    fn place(id: u32, lists: &[List], at: &mut [u32], order: &mut Vec<u32>, next: &mut u32) {
        if id == NONE || at[id as usize] != 0 {
            return;
        }
        at[id as usize] = *next;
        *next += lists[id as usize].len() as u32;
        order.push(id);
        for &(_, child) in &lists[id as usize] {
            place(child, lists, at, order, next);
        }
    }
    place(root, &b.lists, &mut at, &mut order, &mut next);
    let pos = |id: u32| if id == NONE { 0 } else { at[id as usize] };
    let last = 1u32 << 22;
    let mut nodes = vec![last | pos(root), last];
    for &id in &order {
        let list = &b.lists[id as usize];
        for (j, &(tile, child)) in list.iter().enumerate() {
            let end = if j + 1 == list.len() { last } else { 0 };
            nodes.push((u32::from(tile) << 24) | (1 << 23) | end | pos(child));
        }
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(s: &str) -> Rack {
        Rack::parse(s).unwrap()
    }

    /// A table whose values are easy to tell apart: each leave's rank / 1000, less 200.
    fn numbered() -> LeaveTable {
        let shape = LeaveShape::english();
        let values: Vec<f32> = (0..shape.len())
            .map(|i| i as f32 / 1000.0 - 200.0)
            .collect();
        LeaveTable::from_values(shape, values, 914_624).unwrap()
    }

    #[test]
    fn klv2_round_trip_keeps_every_value_and_rewrites_the_same_bytes() {
        let t = numbered();
        let bytes = t.to_klv2();
        assert_eq!(LeaveFormat::sniff(&bytes), LeaveFormat::Klv2);
        let back = LeaveTable::from_bytes(&bytes).unwrap();
        assert_eq!(back.values(), t.values());
        assert_eq!(back.known(), 914_624);
        assert_eq!(back.to_klv2(), bytes);
        // 2 root nodes + the lists, then 914,624 values of 4 bytes.
        let n = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize;
        assert_eq!(bytes.len(), 4 + 4 * n + 4 + 4 * 914_624);
    }

    #[test]
    fn the_built_in_table_reads_with_every_leave_and_values_leaves_as_players_do() {
        let bytes = ENABLE_TABLE;
        assert_eq!(LeaveFormat::sniff(bytes), LeaveFormat::Klv2);
        let t = LeaveTable::from_bytes(bytes).expect("the embedded table reads");
        assert_eq!(t.known(), 914_624);
        // Read as it is at run time (its values in rank order, the DAWG not walked): the same.
        assert_eq!(LeaveTable::enable().values(), t.values());
        assert_eq!(LeaveTable::enable().known(), 914_624);
        // tilebag's writer puts the values in rank order, so whatever table it writes reads
        // the same way; a file cut short does not read.
        let numbered = numbered();
        let fast = LeaveTable::in_rank_order(&numbered.to_klv2(), LeaveShape::english());
        assert_eq!(fast.unwrap().values(), numbered.values());
        assert!(
            LeaveTable::in_rank_order(&bytes[..bytes.len() - 4], LeaveShape::english()).is_none()
        );
        assert!(t.values().iter().all(|v| v.is_finite()));
        // Against keeping nothing (0): a blank and an S are worth keeping, a Q or two Vs not,
        // and a bingo-prone six more than its five.
        assert!(t.value(&r("?")) > 10.0, "? {}", t.value(&r("?")));
        assert!(t.value(&r("S")) > 3.0);
        assert!(t.value(&r("Q")) < 0.0);
        assert!(t.value(&r("VV")) < t.value(&r("V")));
        assert!(t.value(&r("AEINST")) > t.value(&r("AEINS")));
        assert!(t.value(&r("QU")) > t.value(&r("Q")));
    }

    #[test]
    fn klv_keeps_values_to_a_256th_of_a_point() {
        let mut t = LeaveTable::zeros(LeaveShape::english());
        t.set(&r("?"), 12.345);
        t.set(&r("Q"), -3.21);
        t.set(&r("AEIOU"), -500.0); // beyond an i16: held at -128 points
        let bytes = t.to_klv();
        assert_eq!(LeaveFormat::sniff(&bytes), LeaveFormat::Klv);
        let back = LeaveTable::from_bytes(&bytes).unwrap();
        assert_eq!(back.value(&r("?")), 3160.0 / 256.0); // 12.345 * 256 = 3160.32 -> 3160
        assert_eq!(back.value(&r("Q")), -822.0 / 256.0); // -3.21 * 256 = -821.76 -> -822
        assert_eq!(back.value(&r("AEIOU")), -128.0);
        assert_eq!(back.value(&r("S")), 0.0);
        // The same DAWG as .klv2: only the values' width differs.
        assert_eq!(bytes.len(), t.to_klv2().len() - 2 * 914_624);
    }

    #[test]
    fn text_round_trip_is_exact_and_errors_name_the_line() {
        let t = numbered();
        let text = t.to_text();
        assert!(text.lines().nth(1).unwrap().starts_with("? "), "{text:.80}");
        assert_eq!(LeaveFormat::sniff(text.as_bytes()), LeaveFormat::Text);
        let back = LeaveTable::parse_text(&text, LeaveShape::english()).unwrap();
        assert_eq!(back.values(), t.values());
        // Commas, lower case, blanks anywhere; leaves left out are 0.
        let small =
            LeaveTable::parse_text("# x\n\nqu, 3.5\nS? 30\n", LeaveShape::english()).unwrap();
        assert_eq!(small.value(&r("QU")), 3.5);
        assert_eq!(small.value(&r("?S")), 30.0);
        assert_eq!(small.value(&r("S")), 0.0);
        assert_eq!(small.known(), 2);
        let e = |s: &str| {
            LeaveTable::parse_text(s, LeaveShape::english())
                .unwrap_err()
                .0
        };
        assert!(
            e("S 1\nQQ 2").starts_with("line 2: not a leave"),
            "{}",
            e("S 1\nQQ 2")
        );
        assert!(e("S 1\n\nS 2").starts_with("line 3: the leave is listed twice"));
        assert!(e("S NaN").starts_with("line 1: the value"));
        assert!(e("S1 2 3").starts_with("line 1: expected"));
        assert!(e("AEINRST 1").contains("not a leave"), "seven tiles");
    }

    #[test]
    fn weights_are_recognised_and_evaluated_on_every_leave() {
        let model = Leaves::enable();
        let text = model.to_text();
        assert_eq!(LeaveFormat::sniff(text.as_bytes()), LeaveFormat::Weights);
        let t = LeaveTable::from_bytes(text.as_bytes()).unwrap();
        let parsed = Leaves::parse(&text).unwrap();
        for s in ["?", "S", "QU", "AEINST", "VVW"] {
            assert_eq!(t.value(&r(s)), parsed.value(&r(s)), "{s}");
        }
        assert_eq!(t.known(), 914_624);
    }

    #[test]
    fn damaged_klv_files_are_errors() {
        let good = numbered().to_klv2();
        // Cut short: the length fits neither width; read as text it is not UTF-8 either.
        assert!(LeaveTable::from_bytes(&good[..good.len() - 3]).is_err());
        // A node pointing past the end.
        let mut bad = good.clone();
        bad[4 + 4 * 2..4 + 4 * 3].copy_from_slice(&((1u32 << 23) | 0x3F_FFFF).to_le_bytes());
        let e = LeaveTable::from_klv(&bad, LeaveShape::english()).unwrap_err();
        assert!(e.0.contains("past the"), "{e}");
        // A cycle: node 2 (the root list's first node) points back to the root list.
        let mut cyc = good.clone();
        cyc[12..16].copy_from_slice(&((1u32 << 23) | 2).to_le_bytes());
        assert!(LeaveTable::from_klv(&cyc, LeaveShape::english()).is_err());
        // A value that is not a number.
        let mut nan = good.clone();
        let at = nan.len() - 4;
        nan[at..].copy_from_slice(&f32::NAN.to_le_bytes());
        let e = LeaveTable::from_klv(&nan, LeaveShape::english()).unwrap_err();
        assert!(e.0.contains("leave Z"), "{e}");
        // Fewer values than leaves (the length still fits: one value less, as .klv2).
        let mut short = good[..good.len() - 4].to_vec();
        let n = u32::from_le_bytes(short[..4].try_into().unwrap()) as usize;
        short[4 + 4 * n..8 + 4 * n].copy_from_slice(&914_623u32.to_le_bytes());
        let e = LeaveTable::from_klv(&short, LeaveShape::english()).unwrap_err();
        assert!(e.0.contains("more leaves than"), "{e}");
        assert!(
            LeaveTable::from_bytes(&[]).is_ok(),
            "empty text: every leave 0"
        );
    }

    #[test]
    fn a_small_dawg_is_laid_out_by_hand() {
        // One blank, two A, one B, leaves of at most 2 tiles: ?, ?A, ?B, A, AA, AB, B.
        let mut counts = [0u8; 27];
        counts[0] = 1;
        counts[1] = 2;
        counts[2] = 1;
        let shape = LeaveShape::new(counts, 2);
        let nodes = leave_dawg(&shape);
        let node = |tile: u32, last: bool, child: u32| {
            (tile << 24) | (1 << 23) | (u32::from(last) << 22) | child
        };
        let end = 1 << 22;
        // ? and A have the same children (A, B, neither with children): one list, shared.
        assert_eq!(
            nodes,
            vec![
                end | 2,           // the root list at 2
                end,               // no GADDAG
                node(0, false, 5), // 2: ? -> [A, B] at 5
                node(1, false, 5), // 3: A -> the same list
                node(2, true, 0),  // 4: B
                node(1, false, 0), // 5: A
                node(2, true, 0),  // 6: B
            ]
        );
        let t =
            LeaveTable::from_values(shape.clone(), (0..8).map(|i| i as f32).collect(), 7).unwrap();
        let back = LeaveTable::from_klv(&t.to_klv2(), shape).unwrap();
        assert_eq!(back.values(), t.values());
    }
}
