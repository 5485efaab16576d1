//! Move generation over the shared corpus of real positions (`../shared/positions/corpus.cgp`,
//! 893 positions from real games) with the built-in ENABLE list. Reads `../shared`: skips, and
//! says so, when it is absent.

use std::collections::HashSet;
use std::path::PathBuf;
use tilebag_core::play::score_placement;
use tilebag_core::{Layout, TileSet};
use tilebag_engine::{generate, CgpPosition, GenOptions, Graphs, Move, Prepared, Tables};
use tilebag_lexicon::Lexicon;

fn shared(rel: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared")
        .join(rel);
    if p.exists() {
        Some(p)
    } else {
        eprintln!(
            "skipping: {} is absent (the shared corpus sits beside the project in CI)",
            p.display()
        );
        None
    }
}

fn corpus() -> Option<Vec<CgpPosition>> {
    let path = shared("positions/corpus.cgp")?;
    let text = std::fs::read_to_string(path).unwrap();
    let t = Tables::english();
    Some(
        text.lines()
            .filter(|l| !l.trim().is_empty())
            .enumerate()
            .map(|(i, l)| {
                CgpPosition::parse(l, &t).unwrap_or_else(|e| panic!("line {}: {e}", i + 1))
            })
            .collect(),
    )
}

/// The oracle figures in `../shared/positions/README.md`: 640,709 distinct placements counting
/// both directions on an empty board, 619,035 listing only across plays there.
#[test]
fn shared_corpus_placement_counts_match_the_oracle() {
    let Some(positions) = corpus() else { return };
    assert_eq!(positions.len(), 893);
    let lex = Lexicon::builtin_enable();
    let g = &Graphs::of(lex);
    let t = Tables::english();
    for (opts, want) in [
        (
            GenOptions {
                empty_board_down: true,
            },
            640_709usize,
        ),
        (
            GenOptions {
                empty_board_down: false,
            },
            619_035,
        ),
    ] {
        let mut total = 0usize;
        for p in &positions {
            let prep = Prepared::new(&p.grid, g, &t);
            let mut seen = HashSet::new();
            let mut n = 0usize;
            generate(&prep, &p.rack, g, &t, opts, &mut |c| {
                n += 1;
                let m = Move::from_candidate(c);
                let mut key: Vec<_> = m.placement().tiles;
                key.sort_by_key(|(s, _)| (s.row, s.col));
                assert!(seen.insert(key), "placement found twice: {}", m.notation());
            });
            total += n;
        }
        assert_eq!(total, want, "{opts:?}");
    }
}

/// Every generated placement is legal by the core's own rules, forms only ENABLE words, and has
/// the core's score (one scoring rule for the whole project).
#[test]
fn shared_corpus_every_move_is_legal_and_scored_as_the_core_scores_it() {
    let Some(positions) = corpus() else { return };
    let lex = Lexicon::builtin_enable();
    let g = &Graphs::of(lex);
    let t = Tables::english();
    let layout = Layout::standard();
    let set = TileSet::english();
    let mut checked = 0usize;
    for (i, p) in positions.iter().enumerate() {
        let board = p.grid.to_board();
        let prep = Prepared::new(&p.grid, g, &t);
        let mut moves = Vec::new();
        generate(&prep, &p.rack, g, &t, GenOptions::default(), &mut |c| {
            moves.push(Move::from_candidate(c))
        });
        for m in &moves {
            let sp = score_placement(&board, &layout, &set, &m.placement(), 7)
                .unwrap_or_else(|e| panic!("position {}: {} refused: {e}", i + 1, m.notation()));
            assert_eq!(sp.score, m.score, "position {}: {}", i + 1, m.notation());
            for w in &sp.words {
                assert!(lex.contains(&w.word), "position {}: {}", i + 1, w.word);
            }
            assert!(p.rack.contains(&m.used()));
            checked += 1;
        }
    }
    assert!(checked > 600_000, "{checked}");
}
