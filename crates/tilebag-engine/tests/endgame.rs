//! The empty-bag endgame is solved exactly for two plies: [`Engine::endgame_best`] finds the
//! same value as brute force, which tries every move of ours (every placement and the pass; no
//! exchange with the bag empty, NASPA IV.E.2.a, WESPA 3.2.1) against every reply of the
//! opponent's known rack (every placement and the pass), scoring the rack adjustment of
//! whoever goes out as twice the other's tiles (NASPA V.G.1, WESPA 5.1.4) and, where neither
//! goes out, counting the tiles each still holds against them.
//!
//! Positions: the bag-empty turns of self-play games, and (when `../shared` is present) the
//! shared corpus, whose positions with tiles in the bag are made bag-empty by giving the
//! opponent seven of the unseen tiles.

mod common;
use common::shared;
use tilebag_core::bag::Rng;
use tilebag_core::{Action, Actor, Event, Game, Phase, Ruleset};
use tilebag_engine::bot::{choose, Level, SimConfig};
use tilebag_engine::engine::apply;
use tilebag_engine::movegen::LeaveIndex;
use tilebag_engine::{
    generate, CgpPosition, Engine, GenOptions, Graphs, Grid, Leaves, Move, MoveKind, Prepared,
    Rack, Situation, Tables,
};
use tilebag_lexicon::Lexicon;

/// The best reply's value to the opponent (`opp` to move on `grid`, we kept `kept`): every
/// placement generated, and the pass.
fn brute_reply(grid: &Grid, opp: &Rack, kept: &Rack, g: &Graphs<'_>, t: &Tables) -> i32 {
    let values = &t.values;
    let kept_value = kept.value(values);
    let opp_total = opp.value(values);
    // Passing: they keep every tile, we keep ours.
    let mut best = -opp_total + kept_value;
    let prep = Prepared::new(grid, g, t);
    let index = LeaveIndex::new(opp);
    generate(&prep, opp, g, t, GenOptions::default(), &mut |c| {
        let used = index.used_rack(opp, c.used);
        let left = opp.minus(&used);
        let v = if left.is_empty() {
            c.score + 2 * kept_value
        } else {
            c.score - left.value(values) + kept_value
        };
        best = best.max(v);
    });
    best
}

/// The value of each of our moves by brute force: every placement generated and the pass.
fn brute_moves(s: &Situation, g: &Graphs<'_>, t: &Tables) -> Vec<(Move, i32)> {
    let values = &t.values;
    let opp = s.unseen;
    let prep = Prepared::new(&s.grid, g, t);
    let mut mine = vec![Move::pass()];
    generate(&prep, &s.rack, g, t, GenOptions::default(), &mut |c| {
        mine.push(Move::from_candidate(c));
    });
    mine.into_iter()
        .map(|m| {
            let kept = s.rack.minus(&m.used());
            let v = if m.kind == MoveKind::Place && kept.is_empty() {
                m.score + 2 * opp.value(values)
            } else {
                let mut grid = s.grid.clone();
                apply(&mut grid, &m);
                m.score - brute_reply(&grid, &opp, &kept, g, t)
            };
            (m, v)
        })
        .collect()
}

/// Checks one position; returns the number of our moves brute force tried, and whether the
/// best value is found only outside our 40 highest-scoring moves (moves going out first: the
/// search's former cut).
fn check(engine: &Engine<'_>, s: &Situation, what: &str) -> (usize, bool) {
    let all = brute_moves(s, &engine.graphs, engine.tables);
    let best = all.iter().map(|&(_, v)| v).max().unwrap();
    let mut by_score: Vec<&(Move, i32)> = all.iter().collect();
    let out = |m: &Move| i32::from(usize::from(m.tiles_played) == s.rack.len()) * 1000;
    by_score.sort_by_key(|(m, _)| -(m.score + out(m)));
    let beyond_40 = by_score.iter().take(40).all(|&&(_, v)| v < best);
    let chosen = engine.endgame_best(s);
    assert_eq!(
        chosen.equity,
        best as f32,
        "{what}: endgame_best chose {} worth {}, brute force finds {best}",
        chosen.notation(),
        chosen.equity
    );
    // The chosen move is one of ours, and brute force gives it the value the engine claims.
    let (_, v) = all
        .iter()
        .find(|(m, _)| m.same_as(&chosen))
        .unwrap_or_else(|| panic!("{what}: {} is not a move of ours", chosen.notation()));
    assert_eq!(*v, best, "{what}: {}", chosen.notation());
    assert_eq!(engine.endgame_value(s, &chosen), best as f32, "{what}");
    // And `best` (the static player) takes the endgame search with the bag empty.
    assert_eq!(engine.best(s).equity, best as f32, "{what}");
    (all.len(), beyond_40)
}

/// The bag-empty turns of self-play games (NASPA rules, the static and beginner levels).
fn selfplay_endgames(engine: &Engine<'_>, games: u64) -> Vec<Situation> {
    let ruleset = Ruleset::preset("naspa-2013").unwrap();
    let mut out = Vec::new();
    for seed in 0..games {
        let mut game = Game::new(ruleset.clone(), 9000 + seed);
        let mut rng = Rng::new(seed);
        // A beginner in one seat makes the endgames less alike.
        let levels = if seed % 2 == 0 {
            [Level::Static, Level::Beginner]
        } else {
            [Level::Beginner, Level::Static]
        };
        let mut at_ms = 0;
        for _ in 0..200 {
            if game.is_over() {
                break;
            }
            at_ms += 1000;
            let seat = game.to_move();
            let action = match game.phase() {
                Phase::Ended { .. } => break,
                Phase::PlayPending { out: true, .. } => Action::Accept,
                _ => {
                    let s = Situation::from_game(&game, seat);
                    if s.bag_len == 0 && !s.unseen.is_empty() && !s.rack.is_empty() {
                        out.push(s.clone());
                    }
                    let m = choose(engine, &s, levels[seat], &mut rng, SimConfig::default());
                    m.action()
                }
            };
            let ev = Event {
                actor: Actor::Seat(seat),
                at_ms,
                action,
            };
            if game.apply(&ev, engine.lexicon).is_err() {
                let pass = Event {
                    actor: Actor::Seat(seat),
                    at_ms,
                    action: Action::Pass,
                };
                if game.apply(&pass, engine.lexicon).is_err() {
                    break;
                }
            }
        }
    }
    out
}

#[test]
fn endgame_best_equals_brute_force_on_selfplay_endgames() {
    let lex = Lexicon::builtin_enable();
    let t = Tables::english();
    let engine = Engine::new(lex, &t, Leaves::enable(), 7);
    let positions = selfplay_endgames(&engine, 80);
    assert!(
        positions.len() >= 150,
        "{} bag-empty positions",
        positions.len()
    );
    let (mut moves, mut beyond, mut full_racks) = (0, 0, 0);
    for (i, s) in positions.iter().enumerate() {
        let (n, b) = check(&engine, s, &format!("self-play endgame {i}"));
        moves += n;
        beyond += usize::from(b);
        full_racks += usize::from(s.rack.len() == 7 && s.unseen.len() == 7);
    }
    eprintln!(
        "{} positions, {moves} moves of ours, {beyond} whose best lies beyond the 40 highest-scoring",
        positions.len()
    );
    // Some positions have many moves (both racks full, just after the bag emptied).
    assert!(
        full_racks >= 10,
        "{full_racks} positions with two full racks"
    );
    assert!(moves > positions.len() * 20, "{moves} moves tried");
}

/// A position with hundreds of moves of ours and an opponent who can go out in one: our rack
/// `QAEIRST` (the Q is a burden if we do not go out) against `ZX` unseen, the bag empty.
const MANY_MOVES: &str = "15/15/15/15/15/15/15/3HOUSE7/15/15/15/15/15/15/15 QAEIRST/ZX 100/100 0";

/// A CGP line's position with the bag empty (the opponent holds the line's second rack).
fn bag_empty(line: &str, t: &Tables) -> Situation {
    let p = CgpPosition::parse(line, t).unwrap();
    Situation {
        grid: p.grid.clone(),
        rack: p.rack,
        unseen: p.opp_rack,
        bag_len: 0,
        scores: p.scores,
        zeros: 0,
    }
}

#[test]
fn endgame_best_equals_brute_force_with_many_moves() {
    let lex = Lexicon::builtin_enable();
    let t = Tables::english();
    let engine = Engine::new(lex, &t, Leaves::enable(), 7);
    let line = MANY_MOVES;
    let s = bag_empty(line, &t);
    let (n, _) = check(&engine, &s, line);
    assert!(n > 200, "{n} moves");
}

/// Corpus positions: those whose bag is empty as they stand, and every eighth of the others
/// made bag-empty (the opponent holds seven of the unseen tiles, drawn with a fixed seed; the
/// rest leave the game). In some of them the best move is none of our 40 highest-scoring
/// moves, where the search used to stop.
#[test]
fn shared_corpus_endgame_best_equals_brute_force() {
    let Some(path) = shared("positions/corpus.cgp") else {
        return;
    };
    let lex = Lexicon::builtin_enable();
    let t = Tables::english();
    let engine = Engine::new(lex, &t, Leaves::enable(), 7);
    let text = std::fs::read_to_string(path).unwrap();
    let mut rng = Rng::new(10);
    let (mut natural, mut made, mut beyond) = (0, 0, 0);
    for (i, line) in text.lines().filter(|l| !l.trim().is_empty()).enumerate() {
        let p = CgpPosition::parse(line, &t).unwrap_or_else(|e| panic!("line {}: {e}", i + 1));
        let mut s = Situation::from_cgp(&p, &t);
        if s.rack.is_empty() || s.unseen.is_empty() {
            continue;
        }
        if s.bag_len == 0 {
            natural += 1;
        } else {
            if i % 8 != 4 {
                continue;
            }
            let mut tiles = s.unseen.codes();
            rng.shuffle(&mut tiles);
            let mut opp = Rack::default();
            for &c in tiles.iter().take(7) {
                opp.add(c);
            }
            s.unseen = opp;
            s.bag_len = 0;
            made += 1;
        }
        let (_, b) = check(&engine, &s, &format!("corpus line {}", i + 1));
        beyond += usize::from(b);
    }
    eprintln!("{natural} bag-empty and {made} made bag-empty; {beyond} whose best lies beyond the 40 highest-scoring");
    assert!(
        natural >= 10,
        "{natural} corpus positions with the bag empty"
    );
    assert!(made >= 90, "{made} corpus positions made bag-empty");
    assert!(
        beyond >= 1,
        "a position whose best lies beyond the 40 highest-scoring"
    );
}

/// The value for the side to move (`me` against `opp`) with `depth` plies left, by plain
/// search over every move at every ply (every placement generated, and the pass), in the deeper
/// search's model: going out gains twice the other's rack, the horizon counts each rack against
/// its holder, and a pass right after a pass ends the line with both racks held.
fn brute_deep(
    grid: &Grid,
    me: &Rack,
    opp: &Rack,
    depth: usize,
    after_pass: bool,
    g: &Graphs<'_>,
    t: &Tables,
) -> i32 {
    let prep = Prepared::new(grid, g, t);
    let mut moves = vec![Move::pass()];
    generate(&prep, me, g, t, GenOptions::default(), &mut |c| {
        moves.push(Move::from_candidate(c));
    });
    moves
        .iter()
        .map(|m| brute_deep_move(grid, me, opp, m, depth, after_pass, g, t))
        .max()
        .unwrap()
}

#[allow(clippy::too_many_arguments)]
fn brute_deep_move(
    grid: &Grid,
    me: &Rack,
    opp: &Rack,
    m: &Move,
    depth: usize,
    after_pass: bool,
    g: &Graphs<'_>,
    t: &Tables,
) -> i32 {
    let values = &t.values;
    let (me_total, opp_total) = (me.value(values), opp.value(values));
    if m.kind != MoveKind::Place {
        if after_pass || depth == 1 {
            return -me_total + opp_total;
        }
        return -brute_deep(grid, opp, me, depth - 1, true, g, t);
    }
    let kept = me.minus(&m.used());
    if kept.is_empty() {
        return m.score + 2 * opp_total;
    }
    if depth == 1 {
        return m.score - kept.value(values) + opp_total;
    }
    let mut child = grid.clone();
    apply(&mut child, m);
    m.score - brute_deep(&child, opp, &kept, depth - 1, false, g, t)
}

/// Three and four plies: [`Engine::endgame_deep`] (alpha-beta, the last ply by the pruned reply
/// search) finds the value of a plain search over every move at every ply, and its move is worth
/// that value. Positions: the self-play endgames with few tiles left (a plain four-ply search
/// over full racks would take minutes).
#[test]
fn deeper_endgame_search_equals_a_plain_search_over_every_move() {
    let lex = Lexicon::builtin_enable();
    let t = Tables::english();
    let engine = Engine::new(lex, &t, Leaves::enable(), 7);
    let g = &engine.graphs;
    let far = std::time::Instant::now() + std::time::Duration::from_secs(3600);
    let positions = selfplay_endgames(&engine, 60);
    let (mut checked, mut differs, mut transpositions) = (0, 0, 0);
    for (i, s) in positions.iter().enumerate() {
        let tiles = s.rack.len() + s.unseen.len();
        // Five plies are the first where a position comes again by another order of the same
        // moves (ours, theirs, ours), so the transposition table's values are checked too.
        let depths: &[usize] = if tiles <= 5 {
            &[3, 4, 5]
        } else if tiles <= 8 {
            &[3]
        } else {
            continue;
        };
        for &depth in depths {
            // One search thread or two, in turn: both must be exact.
            let deep = engine.endgame_deep_on(s, far, depth, 1 + i % 2);
            assert_eq!(deep.depth, depth, "position {i}: searched {}", deep.depth);
            transpositions += deep.transpositions;
            let want = brute_deep(&s.grid, &s.rack, &s.unseen, depth, s.zeros > 0, g, &t);
            assert_eq!(
                deep.best.equity,
                want as f32,
                "position {i}, {depth} plies: chose {} worth {}, plain search finds {want}",
                deep.best.notation(),
                deep.best.equity
            );
            let v = brute_deep_move(
                &s.grid,
                &s.rack,
                &s.unseen,
                &deep.best,
                depth,
                s.zeros > 0,
                g,
                &t,
            );
            assert_eq!(
                v,
                want,
                "position {i}, {depth} plies: {}",
                deep.best.notation()
            );
            differs += usize::from(!deep.best.same_as(&engine.endgame_best(s)));
            checked += 1;
        }
    }
    eprintln!(
        "{checked} searches checked; {differs} chose another move than the two-ply search; \
         {transpositions} values from the transposition table"
    );
    assert!(checked >= 30, "{checked} searches checked");
    assert!(transpositions > 0, "the transposition table was never used");
}

/// With no time to think, the deeper search keeps the two-ply choice.
#[test]
fn deeper_endgame_search_without_time_is_the_two_ply_search() {
    let lex = Lexicon::builtin_enable();
    let t = Tables::english();
    let engine = Engine::new(lex, &t, Leaves::enable(), 7);
    let s = bag_empty(MANY_MOVES, &t);
    let deep = engine.endgame_deep(&s, std::time::Instant::now(), 8);
    assert_eq!(deep.depth, 2);
    assert!(deep.best.same_as(&engine.endgame_best(&s)));
    assert_eq!(deep.best.equity, engine.endgame_best(&s).equity);
}
