//! Move generation over the shared corpus of real positions (`../shared/positions/corpus.cgp`,
//! 893 positions from real games) with the built-in ENABLE list. Reads `../shared`: skips, and
//! says so, when it is absent.

mod common;
use common::shared;
use std::collections::HashSet;
use std::path::PathBuf;
use tilebag_core::gcg::GcgEventKind;
use tilebag_core::play::score_placement;
use tilebag_core::replay::Replayer;
use tilebag_core::{Layout, TileSet};
use tilebag_engine::movegen::best_by_score;
use tilebag_engine::{
    generate, CgpPosition, GenOptions, Graphs, Grid, Move, Prepared, Rack, Tables,
};
use tilebag_lexicon::Lexicon;

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

/// The best placement by score ([`best_by_score`], which prunes anchors by an upper bound) scores
/// exactly what the best of all generated placements scores, on every corpus position.
#[test]
fn shared_corpus_best_by_score_equals_the_best_of_every_placement() {
    let Some(positions) = corpus() else { return };
    let lex = Lexicon::builtin_enable();
    let g = &Graphs::of(lex);
    let t = Tables::english();
    for (i, p) in positions.iter().enumerate() {
        let prep = Prepared::new(&p.grid, g, &t);
        let mut best: Option<i32> = None;
        generate(&prep, &p.rack, g, &t, GenOptions::default(), &mut |c| {
            best = Some(best.map_or(c.score, |b| b.max(c.score)));
        });
        let found = best_by_score(&prep, &p.rack, g, &t, GenOptions::default());
        assert_eq!(found.map(|m| m.score), best, "position {}", i + 1);
        if let Some(m) = found {
            // The move itself is one the generator lists, with that score.
            let mut listed = false;
            generate(&prep, &p.rack, g, &t, GenOptions::default(), &mut |c| {
                listed |= Move::from_candidate(c) == m;
            });
            assert!(listed, "position {}: {}", i + 1, m.notation());
        }
    }
}

/// Every `.gcg` under `dir`, recursively, in a stable order.
fn gcg_files(dir: &std::path::Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            gcg_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "gcg") {
            out.push(p);
        }
    }
}

/// The move actually played in each corpus position is among the generated placements, with the
/// score the record gives it, whenever every word it formed is in ENABLE.
///
/// The corpus lines were taken from the shared GCG games (the board before each move whose rack
/// the record gives). Replaying those games with the core's replayer gives, for each such
/// position, the board, the rack, the scores, the tiles the move placed (the board after its
/// event less the board before) and the recorded score; a corpus line is matched to its game
/// position by board, rack and scores. Plays forming a word ENABLE lacks (the Collins games'
/// words, phonies) cannot be generated and are counted apart.
#[test]
fn shared_corpus_played_moves_are_generated_with_their_recorded_scores() {
    let Some(positions) = corpus() else { return };
    let Some(gcg_dir) = shared("gcg") else { return };
    let lex = Lexicon::builtin_enable();
    let g = &Graphs::of(lex);
    let t = Tables::english();
    // (board, rack, scores) -> (tiles placed as (square, byte), recorded score, words, where).
    type Played = (Vec<(usize, u8)>, i32, Vec<String>, String);
    let mut played: std::collections::HashMap<(Vec<u8>, Rack, [i32; 2]), Played> =
        std::collections::HashMap::new();
    let mut files = Vec::new();
    gcg_files(&gcg_dir, &mut files);
    for f in &files {
        let Ok(record) = tilebag_core::gcg::parse_gcg(&std::fs::read(f).unwrap()) else {
            continue;
        };
        let mut r = Replayer::new(&record);
        while let Some(ev) = r.peek() {
            let before = Grid::from_board(&r.board);
            let scores = [r.scores[ev.player], r.scores[1 - ev.player]];
            let rack = ev.rack.as_deref().and_then(|s| Rack::parse(s).ok());
            let is_play = matches!(ev.kind, GcgEventKind::Play { .. });
            let (line, score) = (ev.line, ev.score);
            match r.step() {
                Ok(true) => {}
                _ => break,
            }
            let Some(rack) = rack else {
                continue;
            };
            let after = Grid::from_board(&r.board);
            let tiles: Vec<(usize, u8)> = (0..225)
                .filter(|&i| before.cells[i] != after.cells[i])
                .map(|i| (i, after.cells[i]))
                .collect();
            // Exchanges and passes are corpus positions too; they place nothing.
            let words = if is_play {
                r.events.last().map(|e| e.words.clone()).unwrap_or_default()
            } else {
                Vec::new()
            };
            played.insert(
                (before.cells.to_vec(), rack, scores),
                (tiles, score, words, format!("{}:{line}", f.display())),
            );
        }
    }
    let (mut matched, mut in_enable, mut not_enable, mut not_play) = (0usize, 0, 0, 0);
    for (i, p) in positions.iter().enumerate() {
        let key = (p.grid.cells.to_vec(), p.rack, p.scores);
        let Some((tiles, score, words, place)) = played.get(&key) else {
            continue;
        };
        matched += 1;
        if tiles.is_empty() {
            not_play += 1;
            continue;
        }
        if !words.iter().all(|w| lex.contains(w)) {
            not_enable += 1;
            continue;
        }
        in_enable += 1;
        let prep = Prepared::new(&p.grid, g, &t);
        let mut found: Option<i32> = None;
        generate(&prep, &p.rack, g, &t, GenOptions::default(), &mut |c| {
            let m = Move::from_candidate(c);
            // The move's new tiles: `tiles[i]` is the byte of the i-th square of the main word
            // (0 where the board already had a tile), the grid's own encoding.
            let mut mine: Vec<(usize, u8)> = (0..usize::from(m.len))
                .filter(|&k| m.tiles[k] != 0)
                .map(|k| {
                    let (r, c) = match m.direction {
                        tilebag_core::Direction::Across => {
                            (usize::from(m.row), usize::from(m.col) + k)
                        }
                        tilebag_core::Direction::Down => {
                            (usize::from(m.row) + k, usize::from(m.col))
                        }
                    };
                    (r * 15 + c, m.tiles[k])
                })
                .collect();
            mine.sort_unstable();
            if &mine == tiles {
                found = Some(m.score);
            }
        });
        assert_eq!(
            found,
            Some(*score),
            "corpus line {} ({place}): the move played ({words:?}) is not generated with its recorded score {score}",
            i + 1
        );
    }
    eprintln!(
        "{matched} of {} corpus positions matched to their game; {in_enable} played moves in ENABLE all generated with their recorded scores; left out: {not_enable} plays forming a word not in ENABLE, {not_play} exchanges and passes",
        positions.len()
    );
    // Every corpus position comes from these games.
    assert_eq!(matched, positions.len());
    // 504 + 334 + 55 = 893 on the shared corpus.
    assert_eq!((in_enable, not_enable, not_play), (504, 334, 55));
}

/// The static player's pruned search ([`tilebag_engine::Engine::best_static`]) finds the equity
/// of the first move of the full, sorted move list, and a move that is in that list with that
/// equity, for every corpus position whose bag holds tiles.
#[test]
fn shared_corpus_static_best_equals_the_top_of_the_full_move_list() {
    let Some(positions) = corpus() else { return };
    let lex = Lexicon::builtin_enable();
    let t = Tables::english();
    let leaves = tilebag_engine::Leaves::enable();
    let engine = tilebag_engine::Engine::new(lex, &t, leaves, 7);
    let mut checked = 0;
    let mut exchanges = 0;
    for (i, p) in positions.iter().enumerate() {
        let s = tilebag_engine::Situation::from_cgp(p, &t);
        if s.bag_len == 0 {
            continue;
        }
        let all = engine.moves(&s);
        let fast = engine.best_static(&s);
        assert_eq!(
            fast.equity,
            all[0].equity,
            "line {}: pruned {fast:?}, full list {:?}",
            i + 1,
            all[0]
        );
        assert!(
            all.contains(&fast),
            "line {}: {fast:?} is not in the full list",
            i + 1
        );
        exchanges += usize::from(fast.kind == tilebag_engine::MoveKind::Exchange);
        checked += 1;
    }
    assert!(checked > 700, "{checked} positions with tiles in the bag");
    assert!(exchanges > 0, "some corpus rack is worth exchanging");
}

/// The endgame's reply search (pruned, with a bound per number of tiles played) finds the same
/// value as the best of every reply: for corpus positions whose bag is empty, and each of our
/// ten highest-scoring moves that does not go out, `endgame_value` equals our score less the
/// best of the opponent's replies (all of them generated) or their pass, where a reply that
/// goes out gains twice what we kept, and one that does not loses what its player keeps and
/// gains what we keep.
#[test]
fn shared_corpus_endgame_reply_search_equals_the_best_of_every_reply() {
    let Some(positions) = corpus() else { return };
    let lex = Lexicon::builtin_enable();
    let g = &Graphs::of(lex);
    let t = Tables::english();
    let engine = tilebag_engine::Engine::new(lex, &t, tilebag_engine::Leaves::enable(), 7);
    let values = &t.values;
    let mut checked = 0;
    for (i, p) in positions.iter().enumerate() {
        let s = tilebag_engine::Situation::from_cgp(p, &t);
        if s.bag_len != 0 || s.unseen.is_empty() {
            continue;
        }
        let mut mine: Vec<Move> = engine
            .moves(&s)
            .into_iter()
            .filter(|m| m.kind == tilebag_engine::MoveKind::Place)
            .filter(|m| usize::from(m.tiles_played) < s.rack.len())
            .collect();
        mine.sort_by_key(|m| -m.score);
        for m in mine.iter().take(10) {
            let kept = s.rack.minus(&m.used());
            let kept_value = kept.value(values) as f32;
            let opp = s.unseen;
            let opp_total = opp.value(values);
            let mut grid = s.grid.clone();
            tilebag_engine::engine::apply(&mut grid, m);
            let prep = Prepared::new(&grid, g, &t);
            let index = tilebag_engine::movegen::LeaveIndex::new(&opp);
            let mut best = -(opp_total as f32) + kept_value;
            generate(&prep, &opp, g, &t, GenOptions::default(), &mut |c| {
                let v = if usize::from(c.tiles) == opp.len() {
                    c.score as f32 + 2.0 * kept_value
                } else {
                    let used = index.used_rack(&opp, c.used);
                    c.score as f32 - (opp_total - used.value(values)) as f32 + kept_value
                };
                best = best.max(v);
            });
            assert_eq!(
                engine.endgame_value(&s, m),
                m.score as f32 - best,
                "line {}: {m:?}",
                i + 1
            );
            checked += 1;
        }
    }
    assert!(checked >= 50, "{checked} endgame moves checked");
}
