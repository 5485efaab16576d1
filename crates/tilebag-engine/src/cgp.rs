//! CGP (Crossword Game Position): the one-line position format macondo, MAGPIE and wolges read.
//!
//! ```text
//! BOARD RACK/OPPRACK SCORE/OPPSCORE ZEROS [op value; ...]
//! ```
//!
//! BOARD is 15 rows from row 1 separated by `/`; in a row a number is a run of empty squares, an
//! uppercase letter a tile, a lowercase letter a blank standing for it. RACK is the rack of the
//! player on turn (`?` a blank); OPPRACK may be empty (unknown). Scores are the player on turn's
//! first. ZEROS is the count of consecutive scoreless turns. Operations such as `lex NWL23;` may
//! follow. Every error names the field that is wrong.

use crate::grid::{Grid, Tables, BLANK_BIT, CODE_MASK, N};
use crate::rack::Rack;

/// A position read from (or to be written as) CGP.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CgpPosition {
    pub grid: Grid,
    pub rack: Rack,
    /// The opponent's rack if known (empty: unknown).
    pub opp_rack: Rack,
    pub scores: [i32; 2],
    pub zeros: u32,
    /// `op value;` fields in order (e.g. `("lex", "NWL23")`).
    pub ops: Vec<(String, String)>,
}

/// What is wrong with a CGP line, naming the field.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CgpError {
    #[error("CGP: the line is empty")]
    Empty,
    #[error("CGP: missing field {0} (a CGP line is BOARD RACK/OPPRACK SCORE/OPPSCORE ZEROS)")]
    Missing(&'static str),
    #[error("CGP board: {0}")]
    Board(String),
    #[error("CGP racks field {field:?}: {why}")]
    Rack { field: String, why: String },
    #[error("CGP scores field {0:?}: expected two whole numbers as SCORE/OPPSCORE")]
    Scores(String),
    #[error(
        "CGP zeros field {0:?}: expected the count of consecutive scoreless turns (0 or more)"
    )]
    Zeros(String),
    #[error("CGP operations {0:?}: each must be `op value;`")]
    Ops(String),
    #[error("CGP position is not reachable: {0}")]
    Unreachable(String),
}

impl CgpPosition {
    /// Reads one CGP line and checks that the tiles fit the set of `tables` (no letter more often
    /// than the bag holds, counting a blank for each lowercase board letter).
    pub fn parse(line: &str, tables: &Tables) -> Result<CgpPosition, CgpError> {
        let line = line.trim();
        if line.is_empty() {
            return Err(CgpError::Empty);
        }
        let mut fields = line.splitn(5, char::is_whitespace);
        let board = fields.next().ok_or(CgpError::Missing("BOARD"))?;
        let racks = fields.next().ok_or(CgpError::Missing("RACK/OPPRACK"))?;
        let scores = fields.next().ok_or(CgpError::Missing("SCORE/OPPSCORE"))?;
        let zeros = fields.next().ok_or(CgpError::Missing("ZEROS"))?;
        let rest = fields.next().unwrap_or("").trim();

        let grid = parse_board(board)?;
        let (r1, r2) = racks.split_once('/').ok_or_else(|| CgpError::Rack {
            field: racks.into(),
            why: "expected RACK/OPPRACK (the opponent's part may be empty)".into(),
        })?;
        let rack_of = |s: &str| {
            Rack::parse(s).map_err(|e| CgpError::Rack {
                field: racks.into(),
                why: e.to_string(),
            })
        };
        let rack = rack_of(r1)?;
        let opp_rack = rack_of(r2)?;
        for (r, who) in [(&rack, "the rack"), (&opp_rack, "the opponent's rack")] {
            if r.len() > tables.rack_size {
                return Err(CgpError::Rack {
                    field: racks.into(),
                    why: format!(
                        "{who} holds {} tiles; a rack holds at most {}",
                        r.len(),
                        tables.rack_size
                    ),
                });
            }
        }
        let (s1, s2) = scores
            .split_once('/')
            .ok_or_else(|| CgpError::Scores(scores.into()))?;
        let s1: i32 = s1.parse().map_err(|_| CgpError::Scores(scores.into()))?;
        let s2: i32 = s2.parse().map_err(|_| CgpError::Scores(scores.into()))?;
        let zeros: u32 = zeros.parse().map_err(|_| CgpError::Zeros(zeros.into()))?;
        let mut ops = Vec::new();
        for op in rest.split(';') {
            let op = op.trim();
            if op.is_empty() {
                continue;
            }
            let (k, v) = op
                .split_once(char::is_whitespace)
                .ok_or_else(|| CgpError::Ops(op.into()))?;
            ops.push((k.to_owned(), v.trim().to_owned()));
        }
        let pos = CgpPosition {
            grid,
            rack,
            opp_rack,
            scores: [s1, s2],
            zeros,
            ops,
        };
        pos.check_reachable(tables)?;
        Ok(pos)
    }

    /// The tiles not on the board and not on the player's own rack (the opponent's rack and
    /// the bag, as the player on turn sees them).
    pub fn unseen(&self, tables: &Tables) -> Rack {
        let mut left = Rack {
            counts: tables.counts,
        };
        for &v in self.grid.cells.iter().filter(|&&v| v != 0) {
            let code = if v & BLANK_BIT != 0 { 0 } else { v & CODE_MASK };
            left.counts[usize::from(code)] = left.counts[usize::from(code)].saturating_sub(1);
        }
        left.minus(&self.rack)
    }

    fn check_reachable(&self, tables: &Tables) -> Result<(), CgpError> {
        let mut used = [0u32; 27];
        for &v in self.grid.cells.iter().filter(|&&v| v != 0) {
            let code = if v & BLANK_BIT != 0 { 0 } else { v & CODE_MASK };
            used[usize::from(code)] += 1;
        }
        for r in [&self.rack, &self.opp_rack] {
            for (u, &c) in used.iter_mut().zip(&r.counts) {
                *u += u32::from(c);
            }
        }
        for (code, &n) in used.iter().enumerate() {
            let have = u32::from(tables.counts[code]);
            if n > have {
                let name = if code == 0 {
                    "blanks".to_string()
                } else {
                    format!("{}s", (b'A' + code as u8 - 1) as char)
                };
                return Err(CgpError::Unreachable(format!(
                    "{n} {name} on the board and racks; the set has {have}"
                )));
            }
        }
        Ok(())
    }

    /// The CGP line (ops written back as given).
    pub fn to_cgp(&self) -> String {
        let mut s = board_to_cgp(&self.grid);
        s.push(' ');
        s.push_str(&format!(
            "{}/{} {}/{} {}",
            self.rack, self.opp_rack, self.scores[0], self.scores[1], self.zeros
        ));
        for (k, v) in &self.ops {
            s.push_str(&format!(" {k} {v};"));
        }
        s
    }

    /// The value of an op such as `lex`.
    pub fn op(&self, key: &str) -> Option<&str> {
        self.ops
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }
}

/// The board part of a CGP line.
pub fn board_to_cgp(grid: &Grid) -> String {
    let mut s = String::with_capacity(64);
    for r in 0..N {
        if r > 0 {
            s.push('/');
        }
        let mut run = 0;
        for c in 0..N {
            let v = grid.get(r, c);
            if v == 0 {
                run += 1;
                continue;
            }
            if run > 0 {
                s.push_str(&run.to_string());
                run = 0;
            }
            s.push(crate::grid::letter_char(v));
        }
        if run > 0 {
            s.push_str(&run.to_string());
        }
    }
    s
}

fn parse_board(board: &str) -> Result<Grid, CgpError> {
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != N {
        return Err(CgpError::Board(format!(
            "{} rows; a board has {N} rows separated by '/'",
            rows.len()
        )));
    }
    let mut g = Grid::default();
    for (r, row) in rows.iter().enumerate() {
        let mut c = 0usize;
        let bytes = row.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if b.is_ascii_digit() {
                let mut n = 0usize;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    n = n * 10 + usize::from(bytes[i] - b'0');
                    i += 1;
                    if n > N {
                        break;
                    }
                }
                if n == 0 {
                    return Err(CgpError::Board(format!(
                        "row {} ({row:?}): a run of 0 empty squares",
                        r + 1
                    )));
                }
                c += n;
                if c > N {
                    break;
                }
                continue;
            }
            let v = match b {
                b'A'..=b'Z' => b - b'A' + 1,
                b'a'..=b'z' => (b - b'a' + 1) | BLANK_BIT,
                _ => {
                    return Err(CgpError::Board(format!(
                        "row {} ({row:?}): {:?} is neither a letter nor a count of empty squares",
                        r + 1,
                        row[i..].chars().next().unwrap_or('?')
                    )))
                }
            };
            if c >= N {
                c += 1;
                break;
            }
            g.set(r, c, v);
            c += 1;
            i += 1;
        }
        if c != N {
            return Err(CgpError::Board(format!(
                "row {} ({row:?}) covers {c} squares; each row covers {N}",
                r + 1
            )));
        }
    }
    Ok(g)
}

#[cfg(test)]
mod tests {
    use super::*;

    const EMPTY: &str = "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15";

    #[test]
    fn round_trip_and_fields() {
        let t = Tables::english();
        let line = "10F4/10U4/10T4/1F8u4/1U8R4/1R7WE4/1B3GAB1IS4/PAVE2GIEN5/1L1LOCATED5/1L13/1s13/15/15/15/15 DIKLNOR/ 119/179 0 lex NWL23;";
        let p = CgpPosition::parse(line, &t).unwrap();
        assert_eq!(p.rack.to_string(), "DIKLNOR");
        assert_eq!(p.scores, [119, 179]);
        assert_eq!(p.op("lex"), Some("NWL23"));
        assert_eq!(p.grid.get(3, 10), (b'U' - b'A' + 1) | BLANK_BIT);
        assert_eq!(p.to_cgp(), line);
    }

    #[test]
    fn errors_name_the_field() {
        let t = Tables::english();
        let e = |s: &str| CgpPosition::parse(s, &t).unwrap_err().to_string();
        assert!(e("").contains("empty"));
        assert!(e("15/15 A/ 0/0 0").contains("2 rows"));
        assert!(e("15/15").contains("RACK/OPPRACK"));
        assert!(e(&format!("{EMPTY} AB")).contains("SCORE/OPPSCORE"));
        assert!(e(&format!("{EMPTY} A1/ 0/0 0")).contains("racks field"));
        assert!(e(&format!("{EMPTY} AB/ 0-0 0")).contains("scores field"));
        assert!(e(&format!("{EMPTY} AB/ 0/0 x")).contains("zeros field"));
        assert!(e(&format!("{EMPTY} ZZ/ 0/0 0")).contains("2 Zs"));
        assert!(e(&format!("{EMPTY} ABCDEFGH/ 0/0 0")).contains("at most 7"));
        let bad_row = EMPTY.replacen("15", "14", 1);
        assert!(e(&format!("{bad_row} A/ 0/0 0")).contains("row 1"));
        let bad_row = EMPTY.replacen("15", "1$13", 1);
        assert!(e(&format!("{bad_row} A/ 0/0 0")).contains("neither"));
        let long_row = EMPTY.replacen("15", "16", 1);
        assert!(e(&format!("{long_row} A/ 0/0 0")).contains("row 1"));
    }
}
