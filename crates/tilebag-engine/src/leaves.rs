//! Leave values: what the tiles kept on the rack are worth for the turns to come.
//!
//! The model is small and learnable: each tile has a value for its first, second and third (or
//! later) copy on the rack, plus a term for the balance of vowels and consonants, and a bonus for
//! Q with U. `tilebag leaves train` learns the weights by self-play (see [`crate::train`]); the
//! weights learned for the ENABLE list ship in `data/enable-leaves.txt` (generation 0 of
//! `tilebag leaves train --start weights`); the players' built-in leaves are the full table
//! `data/enable.klv2` ([`crate::klv::ENABLE_TABLE`]).
//!
//! The file format is text, one weight per line (`A1 1.5`, `A2 -2.0`, `?1 24.0`, `bal 2 3 1.0`,
//! `QU 6.0`), `#` comments; unknown lines are an error naming the line.

use crate::leave_table::{LeaveModel, LeaveShape, LeaveTable};
use crate::rack::Rack;
use std::sync::OnceLock;

/// Vowels by code (A, E, I, O, U).
const VOWELS: [usize; 5] = [1, 5, 9, 15, 21];

/// The learned weights. The engine reads leaves from a full table: the weights evaluated on
/// every leave ([`LeaveModel::leave_table`], made the first time it is asked and kept; the
/// weights can only change through [`Leaves::set_weights`], which drops it).
pub struct Leaves {
    /// `copy[code][k]`: the value of the (k+1)-th copy of a tile (k = 2 for the third and
    /// later). Code 0 is the blank.
    copy: [[f32; 3]; 27],
    /// `balance[v][c]`: adjustment for v vowels and c consonants kept (blanks count as neither).
    balance: [[f32; 8]; 8],
    /// Q kept together with a U.
    qu: f32,
    /// Games of self-play these weights were trained on (0: the hand-set defaults).
    pub games: u64,
    /// The weights on every English leave, made on first use.
    table: OnceLock<LeaveTable>,
}

impl Clone for Leaves {
    /// The weights (the table is made again when the copy is first asked for it).
    fn clone(&self) -> Leaves {
        Leaves {
            copy: self.copy,
            balance: self.balance,
            qu: self.qu,
            games: self.games,
            table: OnceLock::new(),
        }
    }
}

impl PartialEq for Leaves {
    fn eq(&self, other: &Leaves) -> bool {
        self.weights() == other.weights() && self.games == other.games
    }
}

impl std::fmt::Debug for Leaves {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Leaves")
            .field("games", &self.games)
            .field("weights", &self.weights())
            .finish()
    }
}

impl LeaveTable {
    /// The weights model evaluated on every leave of `shape`.
    ///
    /// The leaves are walked in their numbering's order (as [`LeaveShape::for_each_leave`]), each
    /// one a tile more than the one it extends, so its value is built on its parent's: the
    /// copies' values are added in the order [`Leaves::value`] adds them (codes ascending), and
    /// the two are equal to the bit. About ten times faster than valuing each leave afresh,
    /// which matters because `tilebag moves` makes this table at every start.
    pub fn from_model(model: &Leaves, shape: LeaveShape) -> LeaveTable {
        struct Walk<'m> {
            model: &'m Leaves,
            bag: [u8; 27],
            counts: [u8; 27],
            values: Vec<f32>,
        }
        impl Walk<'_> {
            fn go(&mut self, from: usize, left: usize, copies: f32, vowels: usize, others: usize) {
                if left == 0 {
                    return;
                }
                for code in from..27 {
                    let held = self.counts[code];
                    if held >= self.bag[code] {
                        continue;
                    }
                    let copies = copies + self.model.copy[code][usize::from(held).min(2)];
                    let (v, o) = match code {
                        0 => (vowels, others),
                        c if VOWELS.contains(&c) => (vowels + 1, others),
                        _ => (vowels, others + 1),
                    };
                    self.counts[code] += 1;
                    let mut value = copies + self.model.balance[v.min(7)][o.min(7)];
                    if self.counts[17] > 0 && self.counts[21] > 0 {
                        value += self.model.qu;
                    }
                    self.values.push(value);
                    self.go(code, left - 1, copies, v, o);
                    self.counts[code] -= 1;
                }
            }
        }
        let mut walk = Walk {
            model,
            bag: *shape.counts(),
            counts: [0; 27],
            values: Vec::with_capacity(shape.len()),
        };
        walk.values.push(0.0);
        walk.go(0, shape.max_len(), 0.0, 0, 0);
        let values = walk.values;
        let known = values.len() - 1;
        LeaveTable::from_values(shape, values, known).expect("one value a leave")
    }
}

impl LeaveModel for Leaves {
    /// The weights evaluated on every English leave ([`LeaveTable::from_model`]; ~0.1 s the
    /// first time, then kept with the weights).
    fn leave_table(&self) -> &LeaveTable {
        self.table
            .get_or_init(|| LeaveTable::from_model(self, LeaveShape::english()))
    }
}

/// tilebag's weights for ENABLE, learned by `tilebag leaves train --games 4000` (the weights
/// model). The players' built-in leaves are the full table [`crate::klv::ENABLE_TABLE`]; these
/// weights are where `leaves train --start weights` begins.
pub const ENABLE_LEAVES: &str = include_str!("../data/enable-leaves.txt");

impl Leaves {
    /// Hand-set starting weights (in the spirit of published leave tables): the blank and S are
    /// worth keeping, Q, V, W and duplicates are not, and a balanced rack is better.
    pub fn defaults() -> Leaves {
        let single: [(char, f32); 27] = [
            ('?', 24.0),
            ('A', 1.0),
            ('B', -2.0),
            ('C', 0.5),
            ('D', 0.5),
            ('E', 3.5),
            ('F', -2.0),
            ('G', -2.0),
            ('H', 1.0),
            ('I', -0.5),
            ('J', -2.5),
            ('K', -2.0),
            ('L', -0.5),
            ('M', 0.5),
            ('N', 0.5),
            ('O', -1.0),
            ('P', -0.5),
            ('Q', -7.0),
            ('R', 1.5),
            ('S', 8.0),
            ('T', 0.5),
            ('U', -3.0),
            ('V', -5.0),
            ('W', -3.5),
            ('X', 3.5),
            ('Y', -0.5),
            ('Z', 2.5),
        ];
        let mut copy = [[0f32; 3]; 27];
        for (ch, v) in single {
            let code = if ch == '?' {
                0
            } else {
                (ch as u8 - b'A' + 1) as usize
            };
            copy[code] = [v, v.min(0.0) - 4.0, v.min(0.0) - 6.0];
        }
        copy[0] = [24.0, 12.0, 0.0];
        copy[19] = [8.0, 3.0, -2.0];
        let mut balance = [[0f32; 8]; 8];
        for (v, row) in balance.iter_mut().enumerate() {
            for (c, b) in row.iter_mut().enumerate() {
                if v + c > 7 || v + c == 0 {
                    continue;
                }
                // Best near 40% vowels; penalise lopsided racks.
                let n = (v + c) as f32;
                let ideal = 0.4 * n;
                *b = -1.5 * (v as f32 - ideal).powi(2);
            }
        }
        Leaves {
            copy,
            balance,
            qu: 6.0,
            games: 0,
            table: OnceLock::new(),
        }
    }

    /// The shipped weights for ENABLE (falls back to [`Leaves::defaults`] if the embedded file
    /// could not be read, which a test rules out).
    pub fn enable() -> &'static Leaves {
        static L: std::sync::OnceLock<Leaves> = std::sync::OnceLock::new();
        L.get_or_init(|| Leaves::parse(ENABLE_LEAVES).unwrap_or_else(|_| Leaves::defaults()))
    }

    /// The value of keeping `leave`.
    pub fn value(&self, leave: &Rack) -> f32 {
        let mut v = 0f32;
        let mut vowels = 0usize;
        let mut consonants = 0usize;
        for code in 0..27 {
            let n = usize::from(leave.counts[code]);
            if n == 0 {
                continue;
            }
            for k in 0..n {
                v += self.copy[code][k.min(2)];
            }
            if code == 0 {
                continue;
            }
            if VOWELS.contains(&code) {
                vowels += n;
            } else {
                consonants += n;
            }
        }
        if vowels + consonants <= 7 {
            v += self.balance[vowels.min(7)][consonants.min(7)];
        }
        if leave.counts[17] > 0 && leave.counts[21] > 0 {
            v += self.qu;
        }
        v
    }

    /// The features of a leave, as (weight index, count) pairs, for training: the value is the
    /// dot product of these with [`Leaves::weights`].
    pub fn features(leave: &Rack, out: &mut Vec<(usize, f32)>) {
        out.clear();
        let mut vowels = 0usize;
        let mut consonants = 0usize;
        for code in 0..27 {
            let n = usize::from(leave.counts[code]);
            for k in 0..n {
                out.push((code * 3 + k.min(2), 1.0));
            }
            if code == 0 || n == 0 {
                continue;
            }
            if VOWELS.contains(&code) {
                vowels += n;
            } else {
                consonants += n;
            }
        }
        if vowels + consonants <= 7 {
            out.push((81 + vowels.min(7) * 8 + consonants.min(7), 1.0));
        }
        if leave.counts[17] > 0 && leave.counts[21] > 0 {
            out.push((81 + 64, 1.0));
        }
    }

    /// Number of weights.
    pub const WEIGHTS: usize = 81 + 64 + 1;

    /// The weights as one flat vector (the order of [`Leaves::features`]).
    pub fn weights(&self) -> Vec<f32> {
        let mut w = Vec::with_capacity(Self::WEIGHTS);
        for c in &self.copy {
            w.extend_from_slice(c);
        }
        for row in &self.balance {
            w.extend_from_slice(row);
        }
        w.push(self.qu);
        w
    }

    /// Sets the weights from a flat vector (the order of [`Leaves::weights`]).
    pub fn set_weights(&mut self, w: &[f32]) {
        self.table = OnceLock::new();
        for (i, c) in self.copy.iter_mut().enumerate() {
            c.copy_from_slice(&w[i * 3..i * 3 + 3]);
        }
        for (v, row) in self.balance.iter_mut().enumerate() {
            row.copy_from_slice(&w[81 + v * 8..81 + v * 8 + 8]);
        }
        self.qu = w[81 + 64];
    }

    /// The text form.
    pub fn to_text(&self) -> String {
        let mut s = String::from(
            "# tilebag leave weights: the value of the k-th copy of a tile kept (A1..Z3, ?1..?3),\n\
             # the vowel/consonant balance (bal VOWELS CONSONANTS), and Q with U.\n",
        );
        s.push_str(&format!("games {}\n", self.games));
        for (code, c) in self.copy.iter().enumerate() {
            let ch = if code == 0 {
                '?'
            } else {
                (b'A' + code as u8 - 1) as char
            };
            for (k, w) in c.iter().enumerate() {
                s.push_str(&format!("{ch}{} {w:.3}\n", k + 1));
            }
        }
        for (v, row) in self.balance.iter().enumerate() {
            for (c, w) in row.iter().enumerate() {
                if v + c <= 7 {
                    s.push_str(&format!("bal {v} {c} {w:.3}\n"));
                }
            }
        }
        s.push_str(&format!("QU {:.3}\n", self.qu));
        s
    }

    /// Reads the text form; errors name the line.
    pub fn parse(text: &str) -> Result<Leaves, String> {
        let mut l = Leaves::defaults();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || format!("leave weights line {}: cannot read {line:?}", i + 1);
            let parts: Vec<&str> = line.split_whitespace().collect();
            let num = |s: &str| s.parse::<f32>().ok().filter(|x| x.is_finite());
            match parts.as_slice() {
                ["games", n] => l.games = n.parse().map_err(|_| bad())?,
                ["QU", w] => l.qu = num(w).ok_or_else(bad)?,
                ["bal", v, c, w] => {
                    let v: usize = v.parse().map_err(|_| bad())?;
                    let c: usize = c.parse().map_err(|_| bad())?;
                    if v + c > 7 {
                        return Err(bad());
                    }
                    l.balance[v][c] = num(w).ok_or_else(bad)?;
                }
                [key, w] if key.len() == 2 => {
                    let mut ch = key.chars();
                    let t = ch.next().ok_or_else(bad)?;
                    let k = ch.next().and_then(|d| d.to_digit(10)).ok_or_else(bad)? as usize;
                    let code = match t {
                        '?' => 0,
                        'A'..='Z' => (t as u8 - b'A' + 1) as usize,
                        _ => return Err(bad()),
                    };
                    if !(1..=3).contains(&k) {
                        return Err(bad());
                    }
                    l.copy[code][k - 1] = num(w).ok_or_else(bad)?;
                }
                _ => return Err(bad()),
            }
        }
        Ok(l)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_round_trip_and_errors() {
        let l = Leaves::defaults();
        let back = Leaves::parse(&l.to_text()).unwrap();
        // Written to 3 decimals: equal to that precision, and stable from then on.
        for (a, b) in l.weights().iter().zip(back.weights()) {
            assert!((a - b).abs() < 1e-3, "{a} {b}");
        }
        assert_eq!(Leaves::parse(&back.to_text()).unwrap(), back);
        assert!(Leaves::parse("A9 1.0").unwrap_err().contains("line 1"));
        assert!(Leaves::parse("# x\nbal 5 5 1.0")
            .unwrap_err()
            .contains("line 2"));
        assert!(Leaves::parse("Q1 NaN").is_err());
    }

    #[test]
    fn features_agree_with_value() {
        let l = Leaves::enable();
        let w = l.weights();
        let mut f = Vec::new();
        for s in ["", "?", "S?", "QU", "EEEE", "AEINRST", "QVVWW"] {
            let r = Rack::parse(s).unwrap();
            Leaves::features(&r, &mut f);
            let dot: f32 = f.iter().map(|&(i, x)| w[i] * x).sum();
            assert!((dot - l.value(&r)).abs() < 1e-3, "{s}");
        }
    }

    #[test]
    fn the_model_table_gives_the_model_value_of_every_leave() {
        let model = Leaves::enable();
        let t = LeaveTable::from_model(model, LeaveShape::english());
        assert_eq!(t.known(), 914_624);
        let mut n = 0usize;
        t.shape().for_each_leave(|leave| {
            assert_eq!(t.value(leave), model.value(leave), "{leave}");
            n += 1;
        });
        assert_eq!(n, 914_624);
        for s in ["?", "S", "QU", "ERS", "AEINST", "??", "EEEEEE"] {
            let leave = Rack::parse(s).unwrap();
            assert_eq!(t.value(&leave), model.value(&leave), "{s}");
        }
        // The engine's table is the same, made once and kept.
        assert_eq!(model.leave_table().values(), t.values());
        assert!(std::ptr::eq(model.leave_table(), model.leave_table()));
        // A copy whose weights change makes its own table.
        let mut other = model.clone();
        let mut w = other.weights();
        w[19 * 3] += 1.0; // the first S
        other.set_weights(&w);
        let s = Rack::parse("S").unwrap();
        assert_eq!(other.leave_table().value(&s), model.value(&s) + 1.0);
    }

    #[test]
    fn shipped_weights_are_sensible() {
        let l = Leaves::enable();
        let v = |s: &str| l.value(&Rack::parse(s).unwrap());
        assert!(v("?") > v("S") && v("S") > v("Q"), "blank > S > Q");
        assert!(v("ERS") > v("UUV"));
        assert!(v("EE") < 2.0 * v("E") + 1e-3, "a duplicate is worth less");
    }
}
