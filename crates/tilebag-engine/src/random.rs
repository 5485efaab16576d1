//! Random moves, for load tests and the server's tests: the clients of `tilebag bench serve` and
//! the test tables play through these.
//!
//! - [`phony_play`]: a random placement of the rack's tiles that the rules accept as a play,
//!   with any letters, so most are phonies. Tests of challenges, holds and the load on the
//!   server's validator want exactly that.
//! - [`word_play`]: a random play of real words, chosen uniformly among every placement the
//!   generator finds for the rack (so the lexicon accepts it), for games that look like games.
//!
//! Both read the board as a seat's view gives it: 15 rows, `.` for an empty square, capitals for
//! tiles, lower case for blanks.

use crate::grid::{Grid, BLANK_BIT, N};
use crate::movegen::{generate, GenOptions, Prepared};
use crate::moves::Move;
use crate::rack::Rack;
use crate::Engine;
use tilebag_core::bag::Rng;
use tilebag_core::play::score_placement;
use tilebag_core::{Board, Layout, PlacedTile, Placement, Position, Square, TileSet};

/// The generator's grid for a board given as rows (see the module); the error names the row
/// and what is wrong with it.
pub fn grid_from_rows(rows: &[String]) -> Result<Grid, String> {
    if rows.len() != N {
        return Err(format!("the board has {} rows, not {N}", rows.len()));
    }
    let mut grid = Grid::default();
    for (r, row) in rows.iter().enumerate() {
        let chars: Vec<char> = row.chars().collect();
        if chars.len() != N {
            return Err(format!("board row {} has {} squares", r + 1, chars.len()));
        }
        for (c, ch) in chars.into_iter().enumerate() {
            let cell = match ch {
                '.' => 0,
                'A'..='Z' => ch as u8 - b'A' + 1,
                'a'..='z' => (ch as u8 - b'a' + 1) | BLANK_BIT,
                _ => {
                    return Err(format!(
                        "board row {} holds {ch:?}, which the engine cannot read",
                        r + 1
                    ))
                }
            };
            grid.set(r, c, cell);
        }
    }
    Ok(grid)
}

/// A random play of real words using at most `max_tiles` tiles of `rack`, chosen uniformly
/// among every placement the generator finds (reservoir sampling: nothing is collected), as
/// (GCG coordinate, GCG word); `None` if the board or rack cannot be read or there is no play.
pub fn word_play(
    engine: &Engine<'_>,
    rows: &[String],
    rack: &str,
    max_tiles: usize,
    rng: &mut Rng,
) -> Option<(String, String)> {
    let grid = grid_from_rows(rows).ok()?;
    let rack = Rack::parse(rack).ok()?;
    let prep = Prepared::new(&grid, &engine.graphs, engine.tables);
    let mut seen = 0usize;
    let mut chosen: Option<Move> = None;
    generate(
        &prep,
        &rack,
        &engine.graphs,
        engine.tables,
        GenOptions::default(),
        &mut |c| {
            if usize::from(c.tiles) > max_tiles.max(1) {
                return;
            }
            seen += 1;
            if rng.below(seen) == 0 {
                chosen = Some(Move::from_candidate(c));
            }
        },
    );
    chosen.map(|m| (m.coordinate(), m.gcg_word()))
}

/// A random placement of up to `max_tiles` tiles of `rack` that the rules accept (any letters:
/// most are phonies), in GCG notation (coordinate, word with `.` for tiles played through),
/// found by trying random spots; `None` if 300 tries fail. Its legality is the core's own
/// (`Placement::from_gcg` and `score_placement`): only the words are not checked.
pub fn phony_play(
    rows: &[String],
    rack: &str,
    max_tiles: usize,
    rng: &mut Rng,
) -> Option<(String, String)> {
    let set = TileSet::english();
    let layout = Layout::standard();
    let size = layout.size;
    let mut board = Board::new(size);
    for (r, row) in rows.iter().enumerate().take(size) {
        for (c, ch) in row.chars().enumerate().take(size) {
            if ch == '.' {
                continue;
            }
            let letter = set.letter_index(ch).ok()?;
            board.set(
                Square::new(r as u8, c as u8),
                PlacedTile {
                    letter,
                    blank: ch.is_lowercase(),
                },
            );
        }
    }
    let rack: Vec<char> = rack.chars().collect();
    if rack.is_empty() {
        return None;
    }
    // Empty squares next to a tile (or the centre on an empty board).
    let mut anchors = Vec::new();
    if board.is_empty() {
        anchors.push(layout.centre);
    } else {
        for r in 0..size {
            for c in 0..size {
                let sq = Square::new(r as u8, c as u8);
                if board.get(sq).is_some() {
                    continue;
                }
                let near = [(0i32, 1i32), (0, -1), (1, 0), (-1, 0)]
                    .iter()
                    .any(|(dr, dc)| {
                        let (nr, nc) = (r as i32 + dr, c as i32 + dc);
                        nr >= 0
                            && nc >= 0
                            && (nr as usize) < size
                            && (nc as usize) < size
                            && board.get(Square::new(nr as u8, nc as u8)).is_some()
                    });
                if near {
                    anchors.push(sq);
                }
            }
        }
    }
    if anchors.is_empty() {
        return None;
    }
    let most = rack.len().min(max_tiles.max(1));
    for _ in 0..300 {
        let anchor = anchors[rng.below(anchors.len())];
        let dir = if rng.below(2) == 0 {
            tilebag_core::Direction::Across
        } else {
            tilebag_core::Direction::Down
        };
        let min = if board.is_empty() { 2 } else { 1 };
        if most < min {
            return None;
        }
        let k = min + rng.below(most - min + 1);
        let before = rng.below(k);
        // Squares for the new tiles: `before` empty squares back from the anchor, the anchor,
        // and the rest forward, skipping squares that hold tiles.
        let mut squares = vec![anchor];
        let mut n = 0i32;
        let mut ok = true;
        while squares.len() < before + 1 {
            n -= 1;
            match layout.offset(anchor, dir, n) {
                Some(q) if board.get(q).is_none() => squares.push(q),
                Some(_) => {}
                None => {
                    ok = false;
                    break;
                }
            }
        }
        n = 0;
        while ok && squares.len() < k {
            n += 1;
            match layout.offset(anchor, dir, n) {
                Some(q) if board.get(q).is_none() => squares.push(q),
                Some(_) => {}
                None => ok = false,
            }
        }
        if !ok {
            continue;
        }
        let mut tiles = rack.clone();
        rng.shuffle(&mut tiles);
        let mut placed: Vec<(Square, char)> = Vec::new();
        for (i, &sq) in squares.iter().enumerate() {
            let t = tiles[i];
            let ch = if t == '?' {
                (b'a' + rng.below(26) as u8) as char
            } else {
                t
            };
            placed.push((sq, ch));
        }
        let key = |q: Square| match dir {
            tilebag_core::Direction::Across => q.col as i32,
            tilebag_core::Direction::Down => q.row as i32,
        };
        placed.sort_by_key(|&(q, _)| key(q));
        // The whole word along `dir`: extend through tiles on either side.
        let mut start = placed[0].0;
        while let Some(p) = layout.offset(start, dir, -1) {
            if board.get(p).is_none() {
                break;
            }
            start = p;
        }
        let mut word = String::new();
        let mut i = 0;
        while let Some(q) = layout.offset(start, dir, i) {
            if let Some(&(_, ch)) = placed.iter().find(|(p, _)| *p == q) {
                word.push(ch);
            } else if board.get(q).is_some() {
                word.push('.');
            } else {
                break;
            }
            i += 1;
        }
        if word.chars().filter(|&c| c != '.').count() != placed.len() {
            continue;
        }
        let pos = Position {
            square: start,
            direction: dir,
        };
        let Ok(placement) = Placement::from_gcg(&board, &layout, &set, pos, &word) else {
            continue;
        };
        if score_placement(&board, &layout, &set, &placement, 7).is_ok() {
            return Some((pos.to_string(), word));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn phony_plays_are_legal_on_an_empty_and_a_busy_board() {
        let mut rng = Rng::new(5);
        let empty: Vec<String> = (0..15).map(|_| ".".repeat(15)).collect();
        let (pos, word) = phony_play(&empty, "AEINRS?", 7, &mut rng).unwrap();
        assert!(word.len() >= 2, "{pos} {word}");
        let mut rows = empty.clone();
        rows[7] = ".......CAT.....".into();
        for _ in 0..50 {
            let (pos, word) = phony_play(&rows, "QZXJK", 3, &mut rng).unwrap();
            assert!(!word.is_empty(), "{pos}");
        }
    }

    #[test]
    fn a_board_that_cannot_be_read_is_named() {
        let mut rows: Vec<String> = (0..15).map(|_| ".".repeat(15)).collect();
        rows[3] = "....#..........".into();
        assert_eq!(
            grid_from_rows(&rows).unwrap_err(),
            "board row 4 holds '#', which the engine cannot read"
        );
        rows.pop();
        assert_eq!(
            grid_from_rows(&rows).unwrap_err(),
            "the board has 14 rows, not 15"
        );
    }
}
