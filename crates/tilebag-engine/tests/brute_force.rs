//! Completeness: on a thousand random positions, and on boards made to have board tiles beside
//! the anchors in every way, the generator finds exactly the placements a simple brute-force
//! search finds (every word of the lexicon tried at every square in both directions, blanks both
//! ways), each with the score the core gives it.

use std::collections::{BTreeMap, HashSet};
use tilebag_core::bag::Rng;
use tilebag_core::play::score_placement;
use tilebag_core::{Layout, Placement, Square, TileSet};
use tilebag_engine::grid::{decode, BLANK_BIT, CODE_MASK, N};
use tilebag_engine::movegen::best_by_score;
use tilebag_engine::{
    generate, CgpPosition, GenOptions, Graphs, Grid, Move, Prepared, Rack, Tables,
};
use tilebag_lexicon::Lexicon;

type Key = Vec<(u8, u8, u8)>;

fn key_of(p: &Placement) -> Key {
    let mut k: Key = p
        .tiles
        .iter()
        .map(|(s, t)| {
            (
                s.row,
                s.col,
                (t.letter + 1) | if t.blank { BLANK_BIT } else { 0 },
            )
        })
        .collect();
    k.sort_unstable();
    k
}

/// Every placement by brute force: placement key -> score.
fn brute(grid: &Grid, rack: &Rack, words: &[Vec<u8>], lex: &Lexicon) -> BTreeMap<Key, i32> {
    let board = grid.to_board();
    let layout = Layout::standard();
    let set = TileSet::english();
    let empty = grid.is_empty();
    let mut out = BTreeMap::new();
    let at = |dir: usize, line: usize, i: usize| if dir == 0 { (line, i) } else { (i, line) };
    for dir in 0..2 {
        for line in 0..N {
            for start in 0..N {
                for w in words {
                    let len = w.len();
                    if start + len > N {
                        continue;
                    }
                    if start > 0 {
                        let (r, c) = at(dir, line, start - 1);
                        if grid.get(r, c) != 0 {
                            continue;
                        }
                    }
                    if start + len < N {
                        let (r, c) = at(dir, line, start + len);
                        if grid.get(r, c) != 0 {
                            continue;
                        }
                    }
                    // Squares to fill, and a quick check of the board's letters.
                    let mut fill = Vec::new();
                    let mut ok = true;
                    for (i, &ch) in w.iter().enumerate() {
                        let (r, c) = at(dir, line, start + i);
                        let v = grid.get(r, c);
                        if v == 0 {
                            fill.push((r, c, ch));
                        } else if v & CODE_MASK != ch {
                            ok = false;
                            break;
                        }
                    }
                    if !ok || fill.is_empty() || fill.len() > rack.len() {
                        continue;
                    }
                    // Every way to take the tiles from the rack: the blanks (at most two) may
                    // stand on any of the squares to fill.
                    let blanks = usize::from(rack.counts[0]);
                    let mut blank_sets: Vec<Vec<usize>> = vec![Vec::new()];
                    if blanks >= 1 {
                        for i in 0..fill.len() {
                            blank_sets.push(vec![i]);
                        }
                    }
                    if blanks >= 2 {
                        for i in 0..fill.len() {
                            for j in i + 1..fill.len() {
                                blank_sets.push(vec![i, j]);
                            }
                        }
                    }
                    let choices: Vec<Vec<(usize, usize, u8)>> = blank_sets
                        .iter()
                        .map(|bs| {
                            fill.iter()
                                .enumerate()
                                .map(|(i, &(r, c, ch))| {
                                    (r, c, if bs.contains(&i) { ch | BLANK_BIT } else { ch })
                                })
                                .collect()
                        })
                        .collect();
                    for tiles in choices {
                        let mut need = Rack::default();
                        for &(_, _, t) in &tiles {
                            need.add(if t & BLANK_BIT != 0 { 0 } else { t });
                        }
                        if !rack.contains(&need) {
                            continue;
                        }
                        if empty {
                            if !tiles.iter().any(|&(r, c, _)| r == 7 && c == 7) {
                                continue;
                            }
                        } else {
                            let through = tiles.len() < len;
                            let touches = tiles.iter().any(|&(r, c, _)| {
                                [(0i32, 1i32), (0, -1), (1, 0), (-1, 0)]
                                    .iter()
                                    .any(|(dr, dc)| {
                                        let (rr, cc) = (r as i32 + dr, c as i32 + dc);
                                        (0..N as i32).contains(&rr)
                                            && (0..N as i32).contains(&cc)
                                            && grid.get(rr as usize, cc as usize) != 0
                                    })
                            });
                            if !through && !touches {
                                continue;
                            }
                        }
                        let p = Placement {
                            tiles: tiles
                                .iter()
                                .map(|&(r, c, t)| (Square::new(r as u8, c as u8), decode(t)))
                                .collect(),
                            direction: Some(if dir == 0 {
                                tilebag_core::Direction::Across
                            } else {
                                tilebag_core::Direction::Down
                            }),
                        };
                        let Ok(sp) = score_placement(&board, &layout, &set, &p, 7) else {
                            continue;
                        };
                        if sp.words.iter().all(|fw| lex.contains(&fw.word)) {
                            out.insert(key_of(&p), sp.score);
                        }
                    }
                }
            }
        }
    }
    out
}

fn generated(grid: &Grid, rack: &Rack, g: &Graphs<'_>, t: &Tables) -> BTreeMap<Key, i32> {
    let prep = Prepared::new(grid, g, t);
    let mut out = BTreeMap::new();
    let mut seen = HashSet::new();
    generate(&prep, rack, g, t, GenOptions::default(), &mut |c| {
        let m = Move::from_candidate(c);
        let k = key_of(&m.placement());
        assert!(seen.insert(k.clone()), "found twice: {}", m.notation());
        out.insert(k, m.score);
    });
    out
}

/// The generator's placements for `grid` and `rack`, asserted equal to the brute force's `want`
/// (`what` names the position), and the pruned best-by-score search asserted to find the brute
/// force's best score.
fn generated_equals(
    grid: &Grid,
    rack: &Rack,
    want: &BTreeMap<Key, i32>,
    g: &Graphs<'_>,
    t: &Tables,
    what: &str,
) -> BTreeMap<Key, i32> {
    let got = generated(grid, rack, g, t);
    assert_eq!(
        got.len(),
        want.len(),
        "{what}: rack {rack}\n{grid:?}\nmissing: {:?}\nextra: {:?}",
        want.keys()
            .filter(|k| !got.contains_key(*k))
            .take(5)
            .collect::<Vec<_>>(),
        got.keys()
            .filter(|k| !want.contains_key(*k))
            .take(5)
            .collect::<Vec<_>>()
    );
    assert_eq!(&got, want, "{what}: rack {rack}\n{grid:?}");
    let prep = Prepared::new(grid, g, t);
    let best = best_by_score(&prep, rack, g, t, GenOptions::default());
    assert_eq!(
        best.map(|m| m.score),
        want.values().copied().max(),
        "{what}: rack {rack}\n{grid:?}"
    );
    got
}

#[test]
fn generator_equals_brute_force_on_a_thousand_random_positions() {
    // A small lexicon keeps the brute force quick: every two-letter word of ENABLE and a few
    // hundred longer ones chosen at random.
    let enable = Lexicon::builtin_enable();
    let mut rng = Rng::new(2026);
    let all: Vec<String> = enable.words().collect();
    let mut chosen: Vec<String> = all.iter().filter(|w| w.len() == 2).cloned().collect();
    while chosen.len() < 500 {
        let w = &all[rng.below(all.len())];
        if w.len() <= 8 {
            chosen.push(w.clone());
        }
    }
    let lex = Lexicon::from_words(&chosen, "small").unwrap();
    let words: Vec<Vec<u8>> = lex
        .words()
        .map(|w| w.bytes().map(|b| b - b'A' + 1).collect())
        .collect();
    let graphs = Graphs::of(&lex);
    let t = Tables::english();
    let mut positions = 0;
    let mut total = 0usize;
    let mut game = 0u64;
    while positions < 1000 {
        game += 1;
        // A random game: racks from a shuffled bag, a random legal placement each turn.
        let mut bag: Vec<u8> = Vec::new();
        for (code, &n) in t.counts.iter().enumerate() {
            for _ in 0..n {
                bag.push(code as u8);
            }
        }
        let mut brng = Rng::new(game);
        brng.shuffle(&mut bag);
        let mut grid = Grid::default();
        let mut rack = Rack::default();
        for _turn in 0..12 {
            while rack.len() < 7 {
                match bag.pop() {
                    Some(c) => rack.add(c),
                    None => break,
                }
            }
            let want = brute(&grid, &rack, &words, &lex);
            let got = generated_equals(&grid, &rack, &want, &graphs, &t, &format!("game {game}"));
            total += got.len();
            positions += 1;
            if got.is_empty() {
                // Change a tile and go on.
                if let Some(c) = bag.pop() {
                    let codes = rack.codes();
                    let drop = codes[brng.below(codes.len())];
                    rack.take(drop);
                    rack.add(c);
                }
                continue;
            }
            let keys: Vec<&Key> = got.keys().collect();
            let k = keys[brng.below(keys.len())].clone();
            for (r, c, tile) in k {
                grid.set(usize::from(r), usize::from(c), tile);
                rack.take(if tile & BLANK_BIT != 0 {
                    0
                } else {
                    tile & CODE_MASK
                });
            }
            if positions >= 1000 {
                break;
            }
        }
    }
    assert!(
        total > 10_000,
        "only {total} placements in all: the test is too easy"
    );
}

/// The walk begins on the board tiles beside its anchor (read right to left from the GADDAG's
/// root) when there are any. Boards made to have every such case, with the whole ENABLE list:
/// tiles right of the anchor, left of it, on both sides (a gap of one square between two
/// words), and words against each edge of the board, across and down, so the walk's right part
/// begins after the tiles, on the anchor, or off the board. The generator finds exactly the
/// placements the brute force finds, with the same scores.
#[test]
fn generator_equals_brute_force_where_board_tiles_touch_the_anchors() {
    let lex = Lexicon::builtin_enable();
    let words: Vec<Vec<u8>> = lex
        .words()
        .map(|w| w.bytes().map(|b| b - b'A' + 1).collect())
        .collect();
    let graphs = Graphs::of(lex);
    let t = Tables::english();
    // (CGP boards: rows top to bottom, a number for a run of empty squares, a small letter
    // for a blank.)
    let boards = [
        "QI9OX2/15/15/15/10J4/10A4/15/4CAR1ON5/15/15/15/15/15/R13E/E8FAR1ZA",
        "10ZAX1T/14O/14E/15/7H7/7E7/7N7/15/7LEAD1ER1/15/10S4/10T4/15/S14/Ow13",
    ]
    .map(|b| {
        CgpPosition::parse(&format!("{b} / 0/0 0"), &t)
            .unwrap()
            .grid
    });
    let racks = ["ENSTIAL", "AEIORT?", "DGRUBS?", "Q"];
    let mut total = 0;
    for (b, grid) in boards.iter().enumerate() {
        for rack in racks {
            let rack = Rack::parse(rack).unwrap();
            // Only the words the rack's tiles and the board's letters could make (the brute
            // force would reject the others, slowly).
            let mut have = rack.counts;
            for r in 0..N {
                for c in 0..N {
                    let v = grid.get(r, c);
                    if v != 0 {
                        have[usize::from(v & CODE_MASK)] += 1;
                    }
                }
            }
            let words: Vec<Vec<u8>> = words
                .iter()
                .filter(|w| {
                    let mut need = [0u8; 27];
                    for &l in w.iter() {
                        need[usize::from(l)] += 1;
                    }
                    let short: u8 = (1..27).map(|l| need[l].saturating_sub(have[l])).sum();
                    short <= rack.counts[0]
                })
                .cloned()
                .collect();
            let want = brute(grid, &rack, &words, lex);
            let got = generated_equals(grid, &rack, &want, &graphs, &t, &format!("board {b}"));
            total += got.len();
        }
    }
    assert!(total > 2_000, "only {total} placements in all");
}
