//! Leave tables from files: the reference `.klv2` beside the project (`../shared/leaves`, read
//! only to check the reader and the writer: its values are never kept, compared with ours or
//! used to make ours), tilebag's own files through the writer, and the static player using a
//! table read from a file.

mod common;

use tilebag_core::gcg::GcgPlayer;
use tilebag_core::replay::{game_to_gcg, verify_record};
use tilebag_core::Ruleset;
use tilebag_engine::selfplay::play_game_with;
use tilebag_engine::{
    Engine, LeaveFormat, LeaveShape, LeaveTable, Leaves, Level, MoveKind, Rack, SimConfig,
    Situation, Tables,
};
use tilebag_lexicon::Lexicon;

fn r(s: &str) -> Rack {
    Rack::parse(s).unwrap()
}

fn reference() -> Option<Vec<u8>> {
    let path = common::shared("leaves/reference-TWL06.klv2")?;
    Some(std::fs::read(path).expect("the reference .klv2 reads"))
}

/// The facts `../shared/leaves/README.md` gives for the file: its size, nodes and leaves, the
/// values of fourteen leaves (to the three decimals given), and the order of its leaves, which
/// is tilebag's rank: the file's k-th value lands on rank k (k = 1, 2, …), so the table's
/// values are the file's values in the file's order.
#[test]
fn reads_the_readme_facts_from_shared_reference_klv2() {
    let Some(bytes) = reference() else { return };
    assert_eq!(bytes.len(), 3_667_340);
    assert_eq!(LeaveFormat::sniff(&bytes), LeaveFormat::Klv2);
    let nodes = u32::from_le_bytes(bytes[..4].try_into().unwrap()) as usize;
    assert_eq!(nodes, 2209);
    let t = LeaveTable::from_bytes(&bytes).unwrap();
    assert_eq!(t.known(), 914_624);
    let facts = [
        ("?", 28.873),
        ("S", 8.501),
        ("E", 0.502),
        ("Q", -6.149),
        ("V", -5.551),
        ("U", -5.405),
        ("QU", 3.029),
        ("SS", 8.987),
        ("ERS", 16.737),
        ("?S", 35.699),
        ("??", 42.942),
        ("ADEINR", 19.101),
        ("AEINST", 33.595),
        ("AEIOU", -20.491),
    ];
    for (leave, v) in facts {
        let got = t.value(&r(leave));
        assert!((got - v).abs() < 0.0005, "{leave}: {got}, README {v}");
    }
    // The file's values in its own order are the table's by rank: `?`, `??`, `??A`, … `Z`.
    let values_at = 8 + 4 * nodes;
    let file_value = |k: usize| {
        let b = &bytes[values_at + 4 * k..values_at + 4 * k + 4];
        f32::from_le_bytes(b.try_into().unwrap())
    };
    let shape = t.shape();
    for (k, leave) in ["?", "??", "A??", "AA??", "AAA??"].iter().enumerate() {
        assert_eq!(shape.rank(&r(leave)), Some(k + 1));
        assert_eq!(
            t.value(&r(leave)).to_bits(),
            file_value(k).to_bits(),
            "{leave}"
        );
    }
    assert_eq!(shape.rank(&r("Z")), Some(914_624));
    assert_eq!(t.value(&r("Z")).to_bits(), file_value(914_623).to_bits());
    for k in 0..914_624 {
        assert_eq!(
            t.values()[k + 1].to_bits(),
            file_value(k).to_bits(),
            "leave {k}"
        );
    }
}

/// tilebag's writer lays the DAWG out as the file does: reading the reference and writing it
/// again gives the same 3,667,340 bytes.
#[test]
fn rewrites_shared_reference_klv2_byte_for_byte() {
    let Some(bytes) = reference() else { return };
    let t = LeaveTable::from_bytes(&bytes).unwrap();
    let again = t.to_klv2();
    assert_eq!(again.len(), bytes.len());
    assert!(again == bytes, "the rewritten file differs");
}

/// The reference through the other forms: `.klv` keeps each value to 1/256 of a point (and is
/// 1,829,248 bytes shorter: 2 bytes a value instead of 4), text keeps it exactly.
#[test]
fn converts_shared_reference_klv2_to_klv_and_text_and_back() {
    let Some(bytes) = reference() else { return };
    let t = LeaveTable::from_bytes(&bytes).unwrap();
    let klv = t.to_klv();
    assert_eq!(klv.len(), bytes.len() - 2 * 914_624);
    assert_eq!(LeaveFormat::sniff(&klv), LeaveFormat::Klv);
    let from_klv = LeaveTable::from_bytes(&klv).unwrap();
    for (a, b) in t.values().iter().zip(from_klv.values()) {
        assert!((a - b).abs() <= 0.5 / 256.0 + 1e-6, "{a} {b}");
    }
    assert_eq!(from_klv.to_klv(), klv, ".klv rewrites the same bytes");
    let text = t.to_text();
    let from_text = LeaveTable::from_bytes(text.as_bytes()).unwrap();
    assert_eq!(from_text.values(), t.values());
    assert_eq!(from_text.to_klv2(), bytes);
}

/// A table of our own (no file beside the project needed): made from values that differ for
/// every leave, written as `.klv2` and `.klv` and text, read back with the same values.
#[test]
fn own_fixture_round_trips_through_every_form() {
    let shape = LeaveShape::english();
    // A fixed pseudo-random value for each leave, -40..40 points.
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let values: Vec<f32> = (0..shape.len())
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            (x % 80_000) as f32 / 1000.0 - 40.0
        })
        .collect();
    let t = LeaveTable::from_values(shape, values, 914_624).unwrap();
    let klv2 = t.to_klv2();
    let back = LeaveTable::from_bytes(&klv2).unwrap();
    assert_eq!(back.values()[1..], t.values()[1..]);
    assert_eq!(back.to_klv2(), klv2);
    let text = LeaveTable::from_bytes(t.to_text().as_bytes()).unwrap();
    assert_eq!(text.values()[1..], t.values()[1..]);
    let klv = LeaveTable::from_bytes(&t.to_klv()).unwrap();
    for (a, b) in t.values().iter().zip(klv.values()).skip(1) {
        assert!((a - b).abs() <= 0.5 / 256.0 + 1e-6, "{a} {b}");
    }
    // Through a file, as `--leaves FILE` reads it.
    let dir = std::env::temp_dir().join(format!("tilebag-leaves-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("own.klv2");
    std::fs::write(&path, &klv2).unwrap();
    assert_eq!(
        LeaveTable::read_file(&path).unwrap().values(),
        back.values()
    );
    let missing = dir.join("absent.klv2");
    let e = LeaveTable::read_file(&missing).unwrap_err();
    assert!(e.0.contains("absent.klv2"), "{e}");
    std::fs::remove_dir_all(&dir).ok();
}

/// The static player reads the table it was given: with a table where keeping a lone Q is
/// worth 100 points and every other leave nothing, AEIQRST plays six tiles and keeps the Q.
#[test]
fn the_static_player_follows_the_table_it_is_given() {
    let lex = Lexicon::builtin_enable();
    let t = Tables::english();
    let mut table = LeaveTable::zeros(LeaveShape::english());
    assert!(table.set(&r("Q"), 100.0));
    let engine = Engine::new(lex, &t, &table, 7);
    let s = Situation {
        grid: Default::default(),
        rack: r("AEIQRST"),
        unseen: Rack::default(),
        bag_len: 86,
        scores: [0, 0],
        zeros: 0,
    };
    let mut unseen = Rack::default();
    for (code, &n) in t.counts.iter().enumerate() {
        unseen.counts[code] = n - s.rack.counts[code];
    }
    let s = Situation { unseen, ..s };
    let best = engine.best(&s);
    assert_eq!(best.kind, MoveKind::Place);
    assert_eq!(s.rack.minus(&best.used()), r("Q"), "{best:?}");
    assert_eq!(best.equity, best.score as f32 + 100.0);
    // With the shipped weights it would not keep a lone Q.
    let model = Engine::new(lex, &t, Leaves::enable(), 7);
    assert_ne!(s.rack.minus(&model.best(&s).used()), r("Q"));
}

/// With a table read from a file, the pruned static search still finds the top of the full
/// move list (the leave values it reads per sub-rack are the ones `moves` reads), position
/// after position of self-play games.
#[test]
fn static_best_with_a_file_table_equals_the_top_of_the_full_move_list() {
    let lex = Lexicon::builtin_enable();
    let t = Tables::english();
    let shape = LeaveShape::english();
    let mut x = 12345u64;
    let values: Vec<f32> = (0..shape.len())
        .map(|_| {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((x >> 33) % 60_000) as f32 / 1000.0 - 30.0
        })
        .collect();
    let table = LeaveTable::from_bytes(
        &LeaveTable::from_values(shape, values, 914_624)
            .unwrap()
            .to_klv2(),
    )
    .unwrap();
    let engine = Engine::new(lex, &t, &table, 7);
    let ruleset = Ruleset::preset("naspa-2013").unwrap();
    let mut checked = 0;
    for seed in 0..4u64 {
        let mut game = tilebag_core::Game::new(ruleset.clone(), seed);
        let mut at = 0;
        while !game.is_over() && game.bag_len() > 0 {
            let seat = game.to_move();
            let s = Situation::from_game(&game, seat);
            let all = engine.moves(&s);
            let fast = engine.best_static(&s);
            assert_eq!(
                fast.equity, all[0].equity,
                "seed {seed}: {fast:?} {:?}",
                all[0]
            );
            assert!(all.contains(&fast));
            checked += 1;
            at += 1000;
            let ev = tilebag_core::Event {
                actor: tilebag_core::Actor::Seat(seat),
                at_ms: at,
                action: fast.action(),
            };
            game.apply(&ev, lex).unwrap();
            if matches!(game.phase(), tilebag_core::Phase::PlayPending { .. }) {
                let accept = tilebag_core::Event {
                    actor: tilebag_core::Actor::Seat(1 - seat),
                    at_ms: at,
                    action: tilebag_core::Action::Accept,
                };
                game.apply(&accept, lex).unwrap();
            }
        }
    }
    assert!(checked > 40, "{checked} positions");
}

/// Two static players with different tables (each seat its own engine) play whole games
/// whose records verify.
#[test]
fn seats_with_their_own_tables_play_games_that_verify() {
    let lex = Lexicon::builtin_enable();
    let t = Tables::english();
    let zeros = LeaveTable::zeros(LeaveShape::english());
    let ours = Engine::new(lex, &t, Leaves::enable(), 7);
    let plain = Engine::new(lex, &t, &zeros, 7);
    let ruleset = Ruleset::preset("naspa-2013").unwrap();
    for seed in 0..2u64 {
        let g = play_game_with(
            [&ours, &plain],
            &ruleset,
            [Level::Static, Level::Static],
            seed,
            SimConfig::default(),
        );
        assert!(g.notes.is_empty(), "{:?}", g.notes);
        assert!(g.game.is_over());
        let players = [
            GcgPlayer {
                nick: "a".into(),
                name: "A".into(),
            },
            GcgPlayer {
                nick: "b".into(),
                name: "B".into(),
            },
        ];
        let report = verify_record(&game_to_gcg(&g.game, players)).unwrap();
        assert_eq!(report.scores, g.game.scores());
    }
}
