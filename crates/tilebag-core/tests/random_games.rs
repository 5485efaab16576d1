//! Property tests: random legal games from random seeds under every preset. At every step all
//! 100 tiles are accounted for and the scores equal the sum of the events; at the end the GCG
//! written for the game parses back and verifies with the same result.

use proptest::prelude::*;
use tilebag_core::bag::Rng;
use tilebag_core::game::{Action, Actor, Event, Game, Phase, WordJudge};
use tilebag_core::gcg::{parse_gcg, write_gcg, GcgPlayer};
use tilebag_core::replay::{game_to_gcg, verify_record, Completion};
use tilebag_core::ruleset::Ruleset;
use tilebag_core::{Direction, PlacedTile, Placement, Square, Tile};

/// A judge that finds about one word in twelve unacceptable, deterministically.
struct HashJudge;
impl WordJudge for HashJudge {
    fn is_valid(&self, word: &str) -> bool {
        let mut h: u64 = 0xcbf29ce484222325;
        for b in word.bytes() {
            h = (h ^ b as u64).wrapping_mul(0x100000001b3);
        }
        h % 12 != 0
    }
}

fn random_placement(g: &Game, rng: &mut Rng) -> Option<Placement> {
    let size = g.layout().size as i32;
    let board = g.board();
    let rack = g.rack(g.to_move());
    if rack.is_empty() {
        return None;
    }
    let anchors: Vec<Square> = if board.is_empty() {
        vec![g.layout().centre]
    } else {
        let mut v = Vec::new();
        for r in 0..size {
            for c in 0..size {
                let sq = Square::new(r as u8, c as u8);
                if board.get(sq).is_some() {
                    continue;
                }
                let near = [(0, 1), (0, -1), (1, 0), (-1, 0)].iter().any(|(dr, dc)| {
                    let (rr, cc) = (r + dr, c + dc);
                    rr >= 0
                        && cc >= 0
                        && rr < size
                        && cc < size
                        && board.get(Square::new(rr as u8, cc as u8)).is_some()
                });
                if near {
                    v.push(sq);
                }
            }
        }
        v
    };
    let anchor = anchors[rng.below(anchors.len())];
    let dir = if rng.below(2) == 0 {
        Direction::Across
    } else {
        Direction::Down
    };
    let min = if board.is_empty() { 2 } else { 1 };
    if rack.len() < min {
        return None;
    }
    let k = min + rng.below(rack.len() - min + 1);
    let (dr, dc) = match dir {
        Direction::Across => (0, 1),
        Direction::Down => (1, 0),
    };
    // Walk back over up to `back` empty squares, then lay tiles forward on empty squares.
    let back = rng.below(k);
    let (mut r, mut c) = (anchor.row as i32, anchor.col as i32);
    let mut stepped = 0;
    while stepped < back {
        r -= dr;
        c -= dc;
        if r < 0 || c < 0 {
            return None;
        }
        if board.get(Square::new(r as u8, c as u8)).is_none() {
            stepped += 1;
        }
    }
    let mut pool: Vec<Tile> = rack.to_vec();
    let mut tiles = Vec::new();
    while tiles.len() < k {
        if r >= size || c >= size {
            return None;
        }
        let sq = Square::new(r as u8, c as u8);
        if board.get(sq).is_none() {
            let t = pool.swap_remove(rng.below(pool.len()));
            let placed = match t {
                Tile::Letter(l) => PlacedTile {
                    letter: l,
                    blank: false,
                },
                Tile::Blank => PlacedTile {
                    letter: rng.below(26) as u8,
                    blank: true,
                },
            };
            tiles.push((sq, placed));
        }
        r += dr;
        c += dc;
    }
    let p = Placement {
        tiles,
        direction: Some(dir),
    };
    g.check_play(&p).ok().map(|_| p)
}

fn choose_action(g: &Game, rng: &mut Rng, chaotic: bool) -> (Actor, Action) {
    let s = g.to_move();
    let roll = rng.below(1000);
    if roll == 0 {
        return (Actor::Seat(rng.below(2)), Action::Resign);
    }
    if roll == 1 {
        return (Actor::Director, Action::DirectorEnd);
    }
    if roll < 30 {
        return (Actor::Clock, Action::Tick);
    }
    if g.zero_run() >= g.ruleset().six_zero.turns && rng.below(2) == 0 {
        return (Actor::Seat(rng.below(2)), Action::EndAfterSixZeros);
    }
    if let Phase::PlayPending { held, out, .. } = g.phase() {
        match rng.below(10) {
            0 if !held => return (Actor::Seat(s), Action::Hold),
            1 | 2 => {
                let words: Vec<String> = g
                    .pending_play()
                    .map(|p| {
                        p.words
                            .iter()
                            .filter(|_| rng.below(2) == 0)
                            .map(|w| w.word.clone())
                            .collect()
                    })
                    .unwrap_or_default();
                return (Actor::Seat(s), Action::Challenge { words });
            }
            3 | 4 => return (Actor::Seat(s), Action::Accept),
            _ if *out => return (Actor::Seat(s), Action::Accept),
            _ => {}
        }
    }
    let r = rng.below(100);
    if r < if chaotic { 45 } else { 4 } {
        return (Actor::Seat(s), Action::Pass);
    }
    if r < 8 && g.bag_len() >= 7 {
        let rack = g.rack(s);
        let n = 1 + rng.below(rack.len());
        let mut pool = rack.to_vec();
        let tiles = (0..n)
            .map(|_| pool.swap_remove(rng.below(pool.len())))
            .collect();
        return (Actor::Seat(s), Action::Exchange { tiles });
    }
    for _ in 0..60 {
        if let Some(p) = random_placement(g, rng) {
            return (Actor::Seat(s), Action::Play { placement: p });
        }
    }
    if g.bag_len() >= 7 && rng.below(2) == 0 {
        let tiles = g.rack(s).to_vec();
        return (Actor::Seat(s), Action::Exchange { tiles });
    }
    (Actor::Seat(s), Action::Pass)
}

fn full_census() -> Vec<Tile> {
    let mut v = tilebag_core::TileSet::english().all_tiles();
    v.sort();
    v
}

fn play_random_game(preset: &str, seed: u64) -> Result<Game, TestCaseError> {
    let ruleset = Ruleset::preset(preset).unwrap();
    let mut g = Game::new(ruleset, seed);
    let mut rng = Rng::new(seed.wrapping_mul(31).wrapping_add(7));
    let census = full_census();
    // One game in three passes a lot and thinks for long: six-zero and overtime endings.
    let chaotic = seed % 3 == 0;
    let mut at = 0i64;
    let mut steps = 0;
    while !g.is_over() {
        steps += 1;
        prop_assert!(steps < 3000, "{preset} seed {seed}: the game did not end");
        at += match rng.below(10) {
            0 | 1 if chaotic => rng.below(600_000) as i64,
            0 => rng.below(240_000) as i64,
            _ => 1_000 + rng.below(50_000) as i64,
        };
        let (actor, action) = choose_action(&g, &mut rng, chaotic);
        let before = g.clone();
        let ev = Event {
            actor,
            at_ms: at,
            action,
        };
        if g.apply(&ev, &HashJudge).is_err() {
            prop_assert!(g == before, "a refused event changed the game: {ev:?}");
        }
        prop_assert_eq!(
            g.tile_census(),
            census.clone(),
            "tiles not accounted for after {:?}",
            ev
        );
        for s in 0..2 {
            prop_assert!(g.rack(s).len() <= 7);
            let sum: i32 = g
                .history()
                .iter()
                .filter(|t| t.seat == s)
                .map(|t| t.score)
                .sum();
            prop_assert_eq!(
                sum,
                g.scores()[s],
                "scores must equal the sum of the events"
            );
        }
    }
    if std::env::var("RG_DEBUG").is_ok() {
        eprintln!(
            "{preset} {seed}: steps {steps} turns {} board {} {:?} {:?}",
            g.history().len(),
            g.board().tile_count(),
            g.phase(),
            g.scores()
        );
    }
    let players = [
        GcgPlayer {
            nick: "alice".into(),
            name: "Alice A".into(),
        },
        GcgPlayer {
            nick: "bob".into(),
            name: "Bob B".into(),
        },
    ];
    let record = game_to_gcg(&g, players);
    let text = write_gcg(&record);
    let parsed =
        parse_gcg(text.as_bytes()).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
    let report = verify_record(&parsed)
        .map_err(|e| TestCaseError::fail(format!("{preset} seed {seed}: {e}\n{text}")))?;
    // Every finished game verifies as finished with its real final score, however it ended
    // (resignation, overtime limit, director, game clock: #tilebag-adjust and #tilebag-end).
    prop_assert_eq!(report.scores, g.scores(), "{}", text);
    prop_assert_eq!(report.completion, Completion::Complete, "{}", text);
    Ok(g)
}

fn players() -> [GcgPlayer; 2] {
    [
        GcgPlayer {
            nick: "alice".into(),
            name: "Alice A".into(),
        },
        GcgPlayer {
            nick: "bob".into(),
            name: "Bob B".into(),
        },
    ]
}

/// The GCG text of the first random game under `preset` that ends with a player going out.
fn out_game(preset: &str) -> (Game, String) {
    for seed in 1..200 {
        let g = play_random_game(preset, seed).unwrap();
        if matches!(
            g.phase(),
            Phase::Ended {
                reason: tilebag_core::game::EndReason::WentOut { .. }
            }
        ) {
            let text = write_gcg(&game_to_gcg(&g, players()));
            return (g, text);
        }
    }
    panic!("no game under {preset} went out");
}

fn verify_text(text: &str) -> Result<tilebag_core::replay::ReplayReport, String> {
    let parsed = parse_gcg(text.as_bytes()).map_err(|e| e.to_string())?;
    verify_record(&parsed).map_err(|e| e.to_string())
}

#[test]
fn gcg_end_rack_lines_follow_one_convention_with_both_of_its_lines() {
    // WESPA 5.1.4(a): the player out adds the rack's value and the opponent loses it.
    let (g, text) = out_game("wespa-2010");
    assert_eq!(verify_text(&text).unwrap().scores, g.scores());
    let lines: Vec<&str> = text.lines().collect();
    let credit = lines
        .iter()
        .position(|l| l.starts_with('>') && l.contains(": (") && !l.contains("(challenge)"))
        .expect("a credit line");
    let deduction = lines
        .iter()
        .rposition(|l| l.starts_with('>') && l.contains(" (") && l.contains(") -"))
        .expect("a deduction line");
    // Without the matching deduction, a single-value credit is neither convention.
    let mut cut = lines.clone();
    cut.remove(deduction);
    let e = verify_text(&cut.join("\n")).unwrap_err();
    assert!(
        e.starts_with(&format!("line {}:", credit + 1)) && e.contains("neither convention"),
        "{e}"
    );
    // NASPA V.G.1: double the rack, and the opponent keeps their score; a deduction as well is
    // not a convention.
    let (_, text) = out_game("naspa-2013");
    let lines: Vec<&str> = text.lines().collect();
    let credit = lines
        .iter()
        .position(|l| l.starts_with('>') && l.contains(": (") && !l.contains("(challenge)"))
        .unwrap();
    let out_nick = lines[credit][1..].split(':').next().unwrap();
    let other = if out_nick == "alice" { "bob" } else { "alice" };
    let tiles =
        &lines[credit][lines[credit].find('(').unwrap() + 1..lines[credit].find(')').unwrap()];
    let value = tilebag_core::TileSet::english()
        .tiles_value(&tilebag_core::TileSet::english().parse_tiles(tiles).unwrap());
    let last_cum: i32 = lines
        .iter()
        .rfind(|l| l.starts_with(&format!(">{other}:")))
        .unwrap()
        .split_whitespace()
        .last()
        .unwrap()
        .parse()
        .unwrap();
    let mut extra = lines.clone();
    let deduction = format!(
        ">{other}: {tiles} ({tiles}) {:+} {}",
        -value,
        last_cum - value
    );
    extra.insert(credit + 1, &deduction);
    let e = verify_text(&extra.join("\n")).unwrap_err();
    assert!(e.contains("not also deducted"), "{e}");
}

#[test]
fn gcg_the_game_ends_when_a_player_goes_out() {
    let (_, text) = out_game("naspa-2013");
    let lines: Vec<&str> = text.lines().collect();
    let credit = lines
        .iter()
        .position(|l| l.starts_with('>') && l.contains(": (") && !l.contains("(challenge)"))
        .unwrap();
    let out_nick = lines[credit][1..].split(':').next().unwrap();
    let other = if out_nick == "alice" { "bob" } else { "alice" };
    let last_cum = lines
        .iter()
        .rfind(|l| l.starts_with(&format!(">{other}:")))
        .unwrap()
        .split_whitespace()
        .last()
        .unwrap()
        .to_string();
    // A pass right after the out play is how a lost double challenge of it is written; a
    // second move after that is a move after the end of the game.
    let mut more = lines.clone();
    let pass = format!(">{other}: - +0 {last_cum}");
    let out_nick_line = format!(">{out_nick}: - +0 0");
    more.insert(credit, &pass);
    assert!(verify_text(&more.join("\n")).is_ok());
    more.insert(credit + 1, &out_nick_line);
    let e = verify_text(&more.join("\n")).unwrap_err();
    assert!(
        e.starts_with(&format!("line {}:", credit + 2)) && e.contains("went out"),
        "{e}"
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, .. ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_invariant_under_every_preset(preset in 0usize..6, seed in any::<u64>()) {
        play_random_game(Ruleset::PRESETS[preset], seed)?;
    }
}

#[test]
fn many_seeds_under_each_preset() {
    for preset in Ruleset::PRESETS {
        for seed in 0..25 {
            if let Err(e) = play_random_game(preset, seed).map(|_| ()) {
                panic!("{preset} seed {seed}: {e}");
            }
        }
    }
}
