//! Issue 13: contender-aware pairing — tsh's Chew pairings (`CP`) and Woogles/JVC's COP (`COP`).
//!
//! The event: 8 players seeded 1–8 (rated 1990 … 1920), `KOTH:2` then two contender rounds; the
//! better seed always wins 400–300 (+100).
//! - Round 1 (KOTH by seed): 1v2, 3v4, 5v6, 7v8; 1, 3, 5, 7 win.
//! - Round 2 (KOTH): the winners by rating 1, 3, 5, 7, then 2, 4, 6, 8: 1v3, 5v7, 2v4, 6v8;
//!   1, 5, 2, 6 win.
//! - After round 2: 1 and 5 are 2–0 +200; 2, 3, 6, 7 are 1–1 +0 (by rating: 2, 3, 6, 7); 4 and 8
//!   are 0–2 −200. Standings: 1, 5, 2, 3, 6, 7, 4, 8.

mod common;

use common::Event;
use tilebag_tournament::*;

fn two_rounds(schedule: &str, settings: &[(&str, &str)]) -> Event {
    let mut e = Event::new("naspa-2013", schedule, 1);
    e.add_seeded(8);
    for (k, v) in settings {
        let s = Setting::parse(e.d(), k, v).unwrap();
        e.set(s);
    }
    for r in 1..=2 {
        e.pair(r);
        e.better_seed_wins(r);
    }
    assert_eq!(e.pairs(1), vec![(1, 2), (3, 4), (5, 6), (7, 8)]);
    assert_eq!(e.pairs(2), vec![(1, 3), (2, 4), (5, 7), (6, 8)]);
    assert_eq!(e.order(2), vec![1, 5, 2, 3, 6, 7, 4, 8]);
    e
}

#[test]
fn schedule_tokens_name_the_contender_methods() {
    let s = Schedule::parse("IF:3 SW:4 CP:2 COP:1").unwrap();
    assert_eq!(s.block_for(8, 10).unwrap().0.method, Method::ChewPair);
    assert_eq!(s.block_for(10, 10).unwrap().0.method, Method::Cop);
    assert_eq!(Method::from_code("chewpair"), Some(Method::ChewPair));
    assert!(Method::ChewPair.uses_standings() && Method::Cop.uses_standings());
}

#[test]
fn prize_bands_is_a_division_setting() {
    let e = two_rounds("KOTH:2 CP:2", &[("prize-bands", "3")]);
    assert!(settings::current(e.d()).contains(&("prize-bands", "3".to_string())));
    let e = two_rounds("KOTH:2 CP:2", &[]);
    assert!(settings::current(e.d()).contains(&("prize-bands", "none".to_string())));
    for bad in ["0", "many", "-2"] {
        let err = Setting::parse(e.d(), "prize-bands", bad).unwrap_err();
        assert!(err.contains("prize-bands"), "{bad}: {err}");
    }
}

/// Plain Swiss after round 2: 1v5 (the 2–0 group), the 1–1 group 2, 3, 6, 7 folded top half
/// against bottom half (2v6, 3v7), and 4v8; no pair has met.
#[test]
fn swiss_reference_for_the_event() {
    let mut e = two_rounds("KOTH:2 SW:2", &[]);
    e.pair(3);
    assert_eq!(e.pairs(3), vec![(1, 5), (2, 6), (3, 7), (4, 8)]);
}

/// Chew pairings, 2 rounds left (rounds 3 and 4), 1 prize band, best possible finish at 100 a
/// round (`gibson 100:1`; nobody is a Gibson, since 5 is level with 1).
/// - BPF: a player is a contender when they can still catch the player now 1st (1: 2–0, +200).
///   Two rounds are 4 half-wins: 5 (gap 0) and 2, 3, 6, 7 (gap 2 half-wins) can; 4 and 8 are
///   exactly 4 half-wins behind, so spread decides: −200 + 2·100 = 0 < +200, so they cannot.
///   Contenders: 1, 5, 2, 3, 6, 7 — six.
/// - tsh's flight cap with 2 rounds left is 4·(2−1) = 4: the flight is the top four, 1, 5, 2, 3,
///   paired among themselves (Swiss: 1v5, then 2v3), and the rest 6, 7, 4, 8 by their own
///   standing (6v7, 4v8). Different from the Swiss above, which crosses 2v6 and 3v7.
#[test]
fn chew_pairs_the_flight_of_contenders_among_themselves() {
    let mut e = two_rounds("KOTH:2 CP:2", &[("prize-bands", "1"), ("gibson", "100:1")]);
    let notes = e.pair(3);
    assert_eq!(e.pairs(3), vec![(1, 5), (2, 3), (4, 8), (6, 7)]);
    let said = notes.join("\n");
    assert!(said.contains("6 contender"), "{said}");
    assert!(said.contains("flight cap 4"), "{said}");
}

/// With 3 prize bands, the contenders are those who can still reach 3rd (now 2, 1–1 +0): with 2
/// rounds left 4 and 8 are 2 half-wins behind (< 4) and can; all 8 contend, the flight cap of 4
/// keeps the top four together again.
/// tsh's flight cap variants (research §1.5), by rounds left 1, 2, 3, 4, 5:
/// - tsh (default): 2, then 4·(r−1) = 4, 8, then 12, 12;
/// - NSC: 4·r up to 12 = 4, 8, 12, 12, 12;
/// - NSC 2008: 2·r up to 3 rounds = 2, 4, 6, then 12, 12;
/// - none: no cap.
#[test]
fn flight_cap_variants_worked_by_hand() {
    let caps = |f: FlightCap| (1..=5).map(|r| f.cap(r)).collect::<Vec<_>>();
    assert_eq!(caps(FlightCap::Tsh), vec![2, 4, 8, 12, 12]);
    assert_eq!(caps(FlightCap::Nsc), vec![4, 8, 12, 12, 12]);
    assert_eq!(caps(FlightCap::Nsc2008), vec![2, 4, 6, 12, 12]);
    assert_eq!(caps(FlightCap::None), vec![usize::MAX; 5]);
    let e = two_rounds("KOTH:2 CP:2", &[]);
    assert!(settings::current(e.d()).contains(&("flight-cap", "tsh".to_string())));
    let err = Setting::parse(e.d(), "flight-cap", "wide").unwrap_err();
    assert!(err.contains("flight-cap takes"), "{err}");
}

/// The same event as above with the NSC cap: 2 rounds left allow 8, so all six contenders (1, 5,
/// 2, 3, 6, 7; standings in that order) fly together, and 4, 8 are the rest. tsh's leaders
/// choose (research §1.5 step 4), with no repeat needed (limit 0):
/// - 1 (2–0 +200) may meet 5, 6, 7 (it met 2 and 3); all can still catch it; none was its last
///   opponent; the lowest ranked is 7: 1v7.
/// - 5 (2–0 +200) may meet 2, 3 (it met 6 and 7); both can catch it; the lower ranked is 3: 5v3.
/// - 2 and 6 are left (they never met): 2v6. The rest: 4v8.
///
/// With no cap, the same.
#[test]
fn chew_with_the_nsc_flight_cap_takes_every_contender() {
    for cap in ["nsc", "none"] {
        let mut e = two_rounds(
            "KOTH:2 CP:2",
            &[
                ("prize-bands", "1"),
                ("gibson", "100:1"),
                ("flight-cap", cap),
            ],
        );
        let notes = e.pair(3);
        assert_eq!(e.pairs(3), vec![(1, 7), (2, 6), (3, 5), (4, 8)], "{cap}");
        let said = notes.join("\n");
        assert!(said.contains("6 contender"), "{said}");
        assert!(!said.contains("flight cap"), "{said}");
    }
}

#[test]
fn chew_with_wider_prize_bands_still_caps_the_flight() {
    let mut e = two_rounds("KOTH:2 CP:2", &[("prize-bands", "3"), ("gibson", "100:1")]);
    let notes = e.pair(3).join("\n");
    assert!(notes.contains("8 contender"), "{notes}");
    assert_eq!(e.pairs(3), vec![(1, 5), (2, 3), (4, 8), (6, 7)]);
}

/// COP's simulation: chances of finishing in the prize bands, from the standings.
/// Each simulated tournament puts exactly `bands` players in the bands, so the chances add up to
/// `bands`; a player who cannot catch the leader on wins has no chance; the leaders' chances are
/// the highest; and the same seed gives the same figures.
#[test]
fn cop_simulation_chances() {
    use tilebag_tournament::cop::{place_chances, SimStanding};
    // 1 round left: A 4–0, B 3–1, C 2–2 (+400: 2 half-wins short, so not even a win is enough),
    // D 3–1 with much lower spread.
    let field = [
        SimStanding {
            wins2: 8,
            spread: 300,
        },
        SimStanding {
            wins2: 6,
            spread: 100,
        },
        SimStanding {
            wins2: 4,
            spread: 400,
        },
        SimStanding {
            wins2: 6,
            spread: -300,
        },
    ];
    let p = place_chances(&field, 1, 1, 20_000, 7, 50);
    let total: f64 = p.iter().sum();
    assert!((total - 1.0).abs() < 1e-9, "{p:?}");
    // C cannot reach 8 half-wins in one round.
    assert_eq!(p[2], 0.0, "{p:?}");
    // Factor pairing with 1 round left is KOTH: A v B, C v D. B catches A only by winning by
    // 200+ (the tie-break is spread); D would need A to lose too and 600+ of spread: nearly never.
    assert!(
        p[0] > 0.5 && p[1] > 0.0 && p[0] > p[1] && p[1] >= p[3],
        "{p:?}"
    );
    assert_eq!(p, place_chances(&field, 1, 1, 20_000, 7, 50));
    let p3 = place_chances(&field, 1, 3, 20_000, 7, 50);
    assert!((p3.iter().sum::<f64>() - 3.0).abs() < 1e-9, "{p3:?}");
}

/// COP pairing: the contenders (chance of a prize band at least Woogles' hopefulness for the
/// rounds left) are paired among themselves, the others among themselves; the note lists them.
#[test]
fn cop_pairs_contenders_among_themselves() {
    let mut e = two_rounds("KOTH:2 COP:2", &[("prize-bands", "1")]);
    let notes = e.pair(3).join("\n");
    let line = notes
        .lines()
        .find(|l| l.starts_with("COP contenders"))
        .unwrap_or_else(|| panic!("no contender note: {notes}"));
    // 1 and 5 are 2–0: at least they contend; 4 and 8 (0–2) need both leaders to lose twice.
    assert!(line.contains("Seed01") && line.contains("Seed05"), "{line}");
    assert!(
        !line.contains("Seed04") && !line.contains("Seed08"),
        "{line}"
    );
    let contenders: Vec<u32> = (1..=8)
        .filter(|i| line.contains(&format!("Seed{i:02}")))
        .collect();
    let group: std::collections::BTreeSet<u32> = {
        // Rounded up to an even group from the top of the standings.
        let order = e.order(2);
        let last = order.iter().rposition(|p| contenders.contains(p)).unwrap();
        let k = (last + 1 + (last + 1) % 2).min(order.len());
        order[..k].iter().copied().collect()
    };
    for (a, b) in e.pairs(3) {
        assert_eq!(
            group.contains(&a),
            group.contains(&b),
            "{a}v{b} crosses {group:?}"
        );
    }
    // Deterministic: the same event pairs the same way.
    let mut again = two_rounds("KOTH:2 COP:2", &[("prize-bands", "1")]);
    again.pair(3);
    assert_eq!(again.pairs(3), e.pairs(3));
}

/// In the last round COP plays King of the Hill among the contenders (Woogles' KH constraint).
#[test]
fn cop_last_round_is_king_of_the_hill_among_contenders() {
    let mut e = two_rounds("KOTH:2 SW:1 COP:1", &[("prize-bands", "2")]);
    e.pair(3);
    e.better_seed_wins(3);
    let order = e.order(3);
    e.pair(4);
    let pairs = e.pairs(4);
    let top = (order[0].min(order[1]), order[0].max(order[1]));
    if e.d().times_met(order[0], order[1], 4) == 0 {
        assert!(pairs.contains(&top), "{pairs:?} (order {order:?})");
    }
}

/// COP's control loss (Woogles' CL, research §3.3), our reading: the leader who wins every
/// remaining game and still does not finish first in more than 30% of the simulations has lost
/// control of its destiny. The simulation pairs by factor (with two rounds left 1v3, 2v4, then
/// King of the Hill), so the leader meets the players just below it:
/// - Two rounds left, a leader 8 half-wins +50 and three chasers at 6: the leader, winning out,
///   reaches 12 and nobody else can (the chasers reach 10 at most): control kept, 0%.
/// - Two rounds left, six players level at 8 half-wins (+50, +40, … +0) and two at 4: the leader
///   beats #3 and then #2, but #4, #5 or #6 may also win twice and finish level on wins; spread
///   then decides, so control is lost in well over 30% of the simulations.
/// - The same with the leader +900 on spread: nobody makes up 860 or more in two games of the
///   model (about ±110 each): control kept.
#[test]
fn cop_control_loss_worked_examples() {
    use tilebag_tournament::cop::{control_loss, SimStanding};
    let st = |wins2, spread| SimStanding { wins2, spread };
    let clear = [st(8, 50), st(6, 40), st(6, 30), st(6, 20)];
    assert_eq!(control_loss(&clear, 2, 10_000, 3, 50), 0.0);
    // Twelve level at the top (+50 for the leader, then +40 down to −60), four below.
    let level = |lead| {
        let mut v = vec![st(8, lead)];
        v.extend((1..12).map(|i| st(8, 50 - 10 * i)));
        v.extend((0..4).map(|i| st(4, -100 * i)));
        v
    };
    for r in 2..=4 {
        eprintln!("rounds {r}: {}", control_loss(&level(50), r, 10_000, 3, 50));
    }
    let lost = control_loss(&level(50), 2, 10_000, 3, 50);
    assert!(lost > 0.3, "{lost}");
    assert!(control_loss(&level(900), 2, 10_000, 3, 50) < 0.01);
}

/// The pairing: 24 players, King of the Hill in round 1 (the better seed wins 400–300), then
/// COP for two rounds with two places paid. After round 1 the twelve odd seeds are 1–0 +100 (in
/// seed order, by rating), the even ones 0–1. Each 1–0 player's chance of a paid place is about
/// 2/12, above the 10% hopefulness: the twelve contend. Winning out, 1 meets the third and then
/// the second, and one of the nine others may also win twice and tie it on wins (the worked
/// example above: about 44%): 1 has lost control, and plays the lowest contender who can still
/// finish first: 23.
#[test]
fn cop_pairs_a_leader_who_lost_control_with_the_lowest_who_can_still_win() {
    let mut e = Event::new("naspa-2013", "KOTH:1 COP:2", 1);
    e.add_seeded(24);
    e.set(Setting::parse(e.d(), "prize-bands", "2").unwrap());
    e.pair(1);
    e.better_seed_wins(1);
    assert_eq!(
        e.order(1)[..12],
        [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23]
    );
    let notes = e.pair(2).join("\n");
    let line = notes
        .lines()
        .find(|l| l.starts_with("COP control loss"))
        .unwrap_or_else(|| panic!("no control-loss note: {notes}"));
    assert!(line.contains("#1 ") && line.contains("#23 "), "{line}");
    assert!(e.pairs(2).contains(&(1, 23)), "{:?}", e.pairs(2));
    // The rest of the contenders are paired among themselves.
    for (a, b) in e.pairs(2) {
        assert_eq!(a % 2, b % 2, "{a}v{b} crosses the 1–0 and 0–1 groups");
    }
}

/// Chew's fewest repeats (research §1.5 step 3): six players play a round robin (five rounds,
/// the better seed winning 400–300), then one Chew round with one place paid. 1 is 5–0 +500, 2
/// is 4–1 +300; with one round left only 2 can still catch 1 (one win behind, and +300 + 500 of
/// BPF spread ≥ +500), so the flight is 1 and 2, who have met once: no pairing without a repeat
/// exists, the limit rises to 1, and 1v2 is paired, with a note. The others are paired by
/// Swiss among themselves.
#[test]
fn chew_finds_the_fewest_repeats_that_let_the_flight_pair() {
    let mut e = Event::new("naspa-2013", "RR:5 CP:1", 1);
    e.add_seeded(6);
    e.set(Setting::parse(e.d(), "prize-bands", "1").unwrap());
    for r in 1..=5 {
        e.pair(r);
        e.better_seed_wins(r);
    }
    assert_eq!(e.order(5), vec![1, 2, 3, 4, 5, 6]);
    let notes = e.pair(6).join("\n");
    assert!(notes.contains("2 contender"), "{notes}");
    assert!(notes.contains("the flight needs up to 1 repeat"), "{notes}");
    assert!(e.pairs(6).contains(&(1, 2)), "{:?}", e.pairs(6));
}

/// Under `max-repeats 0` the limit holds for the whole field: tsh's repeats argument bounds every
/// pair a pairing command makes, so the flight is paired among itself only as far as the field
/// allows. Six players, King of the Hill for two rounds (the better seed winning 400–300), then
/// one Chew round with one place paid:
/// - round 1: 1v2, 3v4, 5v6; after it the standings are 1, 3, 5, 2, 4, 6; round 2: 1v3, 2v5, 4v6;
/// - after round 2, 1 is 2–0 (+200), 2, 3, 4 and 5 are 1–1 (+0), 6 is 0–2. With one round left
///   2–5 can all still catch 1 (one win behind, and 0 + 500 of BPF spread ≥ 200), but tsh's
///   flight cap with one round left is 2: the flight is 1 and 2, who met in round 1.
///
/// Without a limit, tsh's fewest repeats pair them again (the test above). With max-repeats 0,
/// 1 and 2 each play someone they have not met, the other four are paired without a repeat too,
/// and the note names the two contenders paired outside the flight.
#[test]
fn chew_flight_that_cannot_pair_within_max_repeats_plays_the_field() {
    let mut e = Event::new("naspa-2013", "KOTH:2 CP:1", 1);
    e.add_seeded(6);
    e.set(Setting::parse(e.d(), "prize-bands", "1").unwrap());
    e.set(Setting::parse(e.d(), "max-repeats", "0").unwrap());
    for r in 1..=2 {
        e.pair(r);
        e.better_seed_wins(r);
    }
    assert_eq!(e.pairs(2), vec![(1, 3), (2, 5), (4, 6)]);
    assert_eq!(e.order(2), vec![1, 2, 3, 4, 5, 6]);
    let notes = e.pair(3).join("\n");
    assert!(notes.contains("flight cap 2"), "{notes}");
    for (a, b) in e.pairs(3) {
        assert_eq!(e.d().times_met(a, b, 3), 0, "{a}v{b} again\n{notes}");
    }
    let line = notes
        .lines()
        .find(|l| l.starts_with("the contenders cannot all be paired"))
        .unwrap_or_else(|| panic!("no note: {notes}"));
    assert!(line.contains("max-repeats 0"), "{line}");
    assert!(line.contains("#1 (") && line.contains("#2 ("), "{line}");
}
