//! Rules of the turn, the clock and the end of the game that each book states for itself, proved
//! under that book's own preset (a test under another preset proves only that preset):
//! the tile set, the first draw, passing, letting a phony stand, Literacy's challenge, 25 minutes
//! a player, and SANSPA's endings.

use std::collections::HashSet;
use tilebag_core::bag::Bag;
use tilebag_core::game::{Effect, EndReason, TurnKind};
use tilebag_core::{
    Action, Actor, Event, Game, Phase, Placement, Position, Ruleset, Tile, TileSet,
};

const MIN: i64 = 60_000;

fn tiles(s: &str) -> Vec<Tile> {
    TileSet::english().parse_tiles(s).unwrap()
}

fn judge(words: &[&str]) -> HashSet<String> {
    words.iter().map(|w| w.to_string()).collect()
}

/// A game with chosen racks and a bag drawn in the order given.
fn game(r: Ruleset, rack0: &str, rack1: &str, bag: &str) -> Game {
    Game::custom(r, 7, [tiles(rack0), tiles(rack1)], tiles(bag))
}

fn act(g: &mut Game, seat: usize, at_ms: i64, action: Action, j: &HashSet<String>) -> Vec<Effect> {
    g.apply(
        &Event {
            actor: Actor::Seat(seat),
            at_ms,
            action,
        },
        j,
    )
    .unwrap()
}

fn play(
    g: &mut Game,
    seat: usize,
    at_ms: i64,
    pos: &str,
    word: &str,
    j: &HashSet<String>,
) -> Vec<Effect> {
    let placement = Placement::from_gcg(
        g.board(),
        g.layout(),
        g.tile_set(),
        Position::parse(pos, 15).unwrap(),
        word,
    )
    .unwrap();
    act(g, seat, at_ms, Action::Play { placement }, j)
}

const BAG20: &str = "EEEEIIIIOOOOAAAANNNN";

#[test]
fn naspa_iii_a_2_and_a_ii_a_the_standard_set_letter_by_letter() {
    // The standard English set: (letter, tiles, value). 98 letters and 2 blanks worth 0.
    let expected: [(char, u8, i32); 26] = [
        ('A', 9, 1),
        ('B', 2, 3),
        ('C', 2, 3),
        ('D', 4, 2),
        ('E', 12, 1),
        ('F', 2, 4),
        ('G', 3, 2),
        ('H', 2, 4),
        ('I', 9, 1),
        ('J', 1, 8),
        ('K', 1, 5),
        ('L', 4, 1),
        ('M', 2, 3),
        ('N', 6, 1),
        ('O', 8, 1),
        ('P', 2, 3),
        ('Q', 1, 10),
        ('R', 6, 1),
        ('S', 4, 1),
        ('T', 6, 1),
        ('U', 4, 1),
        ('V', 2, 4),
        ('W', 2, 4),
        ('X', 1, 8),
        ('Y', 2, 4),
        ('Z', 1, 10),
    ];
    let set = TileSet::english();
    for (ch, count, value) in expected {
        let t = Tile::Letter(set.letter_index(ch).unwrap());
        assert_eq!((set.count(t), set.value(t)), (count, value), "{ch}");
    }
    assert_eq!(set.count(Tile::Blank), 2);
    assert_eq!(set.value(Tile::Blank), 0);
    let all = set.all_tiles();
    assert_eq!(all.len(), 100);
    assert_eq!(all.iter().filter(|&&t| t == Tile::Blank).count(), 2);
    // 98 letters + 2 blanks; 187 points in all.
    let total: i32 = expected.iter().map(|&(_, n, v)| n as i32 * v).sum();
    assert_eq!(total, 187);
    assert_eq!(set.tiles_value(&all), 187);
}

#[test]
fn sanspa_6_5_the_first_player_draws_seven_then_the_opponent_draws_seven() {
    for name in Ruleset::PRESETS {
        let r = Ruleset::preset(name).unwrap();
        let g = Game::new(r, 2024);
        // The same bag, shuffled from the same seed: the first seven tiles out go to the player
        // who starts (seat 0), the next seven to the opponent.
        let mut bag = Bag::new(TileSet::english().all_tiles(), 2024);
        let mut first = bag.draw(7);
        let mut second = bag.draw(7);
        let (mut r0, mut r1) = (g.rack(0).to_vec(), g.rack(1).to_vec());
        for v in [&mut first, &mut second, &mut r0, &mut r1] {
            v.sort();
        }
        assert_eq!((r0, r1), (first, second), "{name}");
        assert_eq!(g.bag_len(), 86, "{name}");
        assert_eq!(g.to_move(), 0, "{name}");
    }
}

#[test]
fn naspa_iv_e_1_a_pass_is_allowed_at_any_time_and_scores_zero() {
    let j = judge(&["CAT"]);
    for bag in [BAG20, ""] {
        let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", bag);
        let fx = act(&mut g, 0, 3000, Action::Pass, &j);
        assert!(fx.contains(&Effect::Passed { seat: 0 }));
        let t = g.history().last().unwrap();
        assert_eq!(
            (t.seat, &t.kind, t.score, t.cumulative),
            (0, &TurnKind::Pass, 0, 0)
        );
        assert_eq!(g.scores(), [0, 0]);
        assert_eq!(
            g.rack(0),
            tiles("CATSDOG").as_slice(),
            "the rack is unchanged"
        );
        assert_eq!(g.zero_run(), 1);
        assert_eq!((g.to_move(), g.clocks().running), (1, Some(1)));
    }
    // Also after scoring: seat 1 passes in answer to CAT, which accepts it; the pass scores 0.
    let mut g = game(Ruleset::naspa_2013(), "CATSDOG", "EEEIIOU", BAG20);
    play(&mut g, 0, 1000, "8G", "CAT", &j);
    act(&mut g, 1, 2000, Action::Pass, &j);
    assert_eq!(g.scores(), [10, 0]);
    assert_eq!(g.history().last().unwrap().kind, TurnKind::Pass);
}

#[test]
fn wespa_3_2_an_exchange_of_some_or_all_tiles_is_recorded_and_scores_zero() {
    let j = judge(&[]);
    let mut g = game(Ruleset::wespa_2010(), "CATSDOG", "EEEIIOU", BAG20);
    let census = g.tile_census();
    // Seat 0 exchanges two tiles: two new ones are drawn, the two go back into the bag.
    let fx = act(&mut g, 0, 1000, Action::Exchange { tiles: tiles("CG") }, &j);
    assert!(fx.contains(&Effect::Exchanged { seat: 0, count: 2 }));
    let t = g.history().last().unwrap();
    assert_eq!(
        (t.seat, &t.kind, t.score, t.cumulative),
        (0, &TurnKind::Exchange { tiles: tiles("CG") }, 0, 0)
    );
    assert_eq!((g.rack(0).len(), g.bag_len()), (7, 20));
    // Seat 1 exchanges all seven.
    let fx = act(
        &mut g,
        1,
        2000,
        Action::Exchange {
            tiles: tiles("EEEIIOU"),
        },
        &j,
    );
    assert!(fx.contains(&Effect::Exchanged { seat: 1, count: 7 }));
    assert_eq!(g.history().last().unwrap().score, 0);
    assert_eq!((g.rack(1).len(), g.bag_len()), (7, 20));
    assert_eq!(g.scores(), [0, 0]);
    assert_eq!(g.zero_run(), 2, "both exchanges are scoreless turns");
    assert_eq!(g.tile_census(), census, "no tile is lost or made");
}

#[test]
fn wespa_6_3_2_e_a_phony_nobody_challenges_stands() {
    // The judge knows no word at all: CTA is a phony. Seat 1 lets it stand.
    let j = judge(&[]);
    for r in [
        Ruleset::wespa_2010(),
        Ruleset::naspa_2013(),
        Ruleset::sanspa_1999(),
    ] {
        let name = r.name.clone();
        let mut g = game(r, "CATSDOG", "EEEIIOU", BAG20);
        play(&mut g, 0, 1000, "8G", "CTA", &j);
        let fx = act(&mut g, 1, 2000, Action::Accept, &j);
        assert!(fx.contains(&Effect::PlayFinal { seat: 0 }), "{name}");
        // 8G CTA: C 3 + T 1 (the centre, DW) + A 1 = 5×2 = 10, and the tiles stay.
        assert_eq!(g.scores(), [10, 0], "{name}");
        assert_eq!(g.board().tile_count(), 3, "{name}");
        assert_eq!(*g.phase(), Phase::AwaitingMove, "{name}");
        assert_eq!(g.to_move(), 1, "{name}");
    }
}

#[test]
fn literacy_play_12_the_loser_of_a_challenge_loses_a_turn_and_the_whole_play_is_judged() {
    // 9G AT under CAT forms AT, CA and AT; CA is not a word, so the whole play is unacceptable.
    let j = judge(&["CAT", "AT"]);
    let mut g = game(Ruleset::literacy_2018(), "CATSDOG", "ATEIIOU", BAG20);
    play(&mut g, 0, 1000, "8G", "CAT", &j);
    play(&mut g, 1, 2000, "9G", "AT", &j);
    let fx = act(&mut g, 0, 3000, Action::Challenge { words: vec![] }, &j);
    assert!(fx.contains(&Effect::Verdict { acceptable: false }));
    assert!(fx.contains(&Effect::Withdrawn { seat: 1 }));
    assert_eq!(
        g.board().tile_count(),
        3,
        "the challenged player takes the tiles back"
    );
    assert_eq!(g.scores(), [10, 0]);
    assert_eq!(g.to_move(), 0, "and loses that turn");
    // An acceptable play challenged: the challenger loses the next turn.
    let mut g = game(Ruleset::literacy_2018(), "CATSDOG", "EEEIIOU", BAG20);
    play(&mut g, 0, 1000, "8G", "CAT", &j);
    let fx = act(&mut g, 1, 2000, Action::Challenge { words: vec![] }, &j);
    assert!(fx.contains(&Effect::Verdict { acceptable: true }));
    assert!(fx.contains(&Effect::TurnLost { seat: 1 }));
    assert_eq!(g.scores(), [10, 0]);
    assert_eq!(g.to_move(), 0);
    assert_eq!(g.history().last().unwrap().kind, TurnKind::LostChallenge);
}

#[test]
fn naspa_iii_a_3_wespa_5_3_5_and_sanspa_4_4_twenty_five_minutes_a_player_and_no_limit_a_turn() {
    let j = judge(&[]);
    for r in [
        Ruleset::naspa_2013(),
        Ruleset::nsa_2011(),
        Ruleset::wespa_2010(),
        Ruleset::sanspa_1999(),
    ] {
        let name = r.name.clone();
        let g = Game::new(r.clone(), 5);
        let c = g.clocks();
        assert_eq!(c.remaining_ms, [25 * MIN; 2], "{name}");
        assert_eq!(c.game_remaining_ms, None, "{name}: a clock per player");
        // One turn may take 24:59 of the 25 minutes: nothing times it out.
        let mut g = game(r, "CATSDOG", "EEEIIOU", BAG20);
        act(&mut g, 0, 25 * MIN - 1000, Action::Pass, &j);
        assert_eq!(g.history().last().unwrap().kind, TurnKind::Pass, "{name}");
        assert_eq!(g.clocks().remaining_ms, [1000, 25 * MIN], "{name}");
        assert!(!g.is_over(), "{name}");
    }
}

/// Seat 0 holds AT, the bag is empty: 8H AT goes out for (1+1)×2 = 4; seat 1 keeps QZ (20).
fn sanspa_out_play() -> Game {
    game(Ruleset::sanspa_1999(), "AT", "QZ", "")
}

#[test]
fn sanspa_18_4_going_out_adds_double_the_opponents_rack_and_the_opponent_keeps_their_score() {
    let j = judge(&["AT"]);
    let mut g = sanspa_out_play();
    let fx = play(&mut g, 0, 1000, "8H", "AT", &j);
    assert!(fx.contains(&Effect::Played {
        seat: 0,
        score: 4,
        out: true
    }));
    act(&mut g, 1, 2000, Action::Accept, &j);
    assert_eq!(
        *g.phase(),
        Phase::Ended {
            reason: EndReason::WentOut { seat: 0 }
        }
    );
    // 4 + 2×(10 + 10) = 44; the opponent's 0 stays 0.
    assert_eq!(g.scores(), [44, 0]);
}

#[test]
fn naspa_v_g_2_nsa_v_f_2_wespa_5_3_2_and_sanspa_18_5_overtime_costs_10_points_a_started_minute() {
    let j = judge(&["AT"]);
    // Seat 0 holds AT, seat 1 QZ (20), the bag is empty. Seat 0 takes 25:00 + 1:01 to pass,
    // seat 1 passes at once, seat 0 goes out with 8H AT (4) a second later: seat 0's clock
    // shows −1:02, two started minutes: −20. The rack adjustment is each book's own.
    for (r, scores) in [
        // NASPA V.G.1, NSA V.F.1, SANSPA 18.4: 4 + 2×20 − 20; the opponent keeps 0.
        (Ruleset::naspa_2013(), [4 + 40 - 20, 0]),
        (Ruleset::nsa_2011(), [4 + 40 - 20, 0]),
        (Ruleset::sanspa_1999(), [4 + 40 - 20, 0]),
        // WESPA 5.1.4(a): 4 + 20 − 20; the opponent loses 20.
        (Ruleset::wespa_2010(), [4 + 20 - 20, -20]),
    ] {
        let name = r.name.clone();
        let mut g = game(r, "AT", "QZ", "");
        act(&mut g, 0, 25 * MIN + 61_000, Action::Pass, &j);
        act(&mut g, 1, 25 * MIN + 62_000, Action::Pass, &j);
        play(&mut g, 0, 25 * MIN + 63_000, "8H", "AT", &j);
        act(&mut g, 1, 25 * MIN + 64_000, Action::Accept, &j);
        assert!(g.is_over(), "{name}");
        assert_eq!(g.scores(), scores, "{name}");
        assert!(
            g.history()
                .iter()
                .any(|t| t.seat == 0 && t.kind == TurnKind::TimePenalty && t.score == -20),
            "{name}"
        );
    }
}

#[test]
fn sanspa_11_and_18_1_six_successive_zeros_end_the_game_by_themselves() {
    let j = judge(&[]);
    let mut g = game(Ruleset::sanspa_1999(), "CATSDOG", "EEEIIOU", BAG20);
    // An exchange and passes all score zero: exchange, then four passes...
    act(&mut g, 0, 1000, Action::Exchange { tiles: tiles("CG") }, &j);
    for (i, seat) in [1, 0, 1, 0].into_iter().enumerate() {
        act(&mut g, seat, 2000 + i as i64 * 1000, Action::Pass, &j);
    }
    assert_eq!(g.zero_run(), 5);
    assert!(!g.is_over());
    // ...and the sixth zero ends the game with no one asking.
    let fx = act(&mut g, 1, 9000, Action::Pass, &j);
    assert!(fx.contains(&Effect::Ended {
        reason: EndReason::SixZeros
    }));
    // Each player loses their own rack's value.
    let set = TileSet::english();
    assert_eq!(
        g.scores(),
        [-set.tiles_value(g.rack(0)), -set.tiles_value(g.rack(1))]
    );
    assert!(g.scores()[0] < 0 && g.scores()[1] < 0);
}
