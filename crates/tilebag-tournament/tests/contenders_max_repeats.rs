//! Issue 27, item 10: `max-repeats 0` holds for the whole field under the contender methods.
//!
//! tsh's pairing commands take a maximum number of repeats, and every pair they make respects it
//! (research §1.5); Woogles makes a pair beyond `max_repeats` all but impossible (§3.2), and COP
//! pairs the whole field in one matching (§3.3). The contenders' own rules (Chew's flight, COP's
//! last-round King of the Hill and control loss) are met among the pairings that keep the limit,
//! not at its expense.
//!
//! Each test runs a whole event as a director does: players seeded by rating (#1 the highest),
//! `max-repeats 0` and the prize bands set, each round paired by the schedule and its results
//! entered (the better-rated player wins about two games in three, by a random margin). After
//! pairing each round the director sees:
//! - nobody meets an opponent again, whenever the field can be paired without a repeat (Swiss,
//!   asked for the same round, finds such a pairing);
//! - the contenders (the group the contender note lists, from the top of the standings to its
//!   lowest contender, made even and, for Chew, capped by the flight cap) stay together as far as
//!   the limit allows: no two of them paired outside the group could have played each other
//!   instead, their opponents playing each other, without a repeat;
//! - the leader plays in the group unless no such exchange puts it there; in COP's last round
//!   (King of the Hill among the contenders) it plays the nearest-ranked contender it can, or the
//!   opponent a control-loss note names.
//!
//! Each test prints its repeats and Swiss's (`--nocapture`), the figures of the table.

mod common;

use std::collections::BTreeMap;

use common::Event;
use tilebag_core::bag::Rng;
use tilebag_tournament::*;

#[test]
fn chew_at_24_players_never_repeats_a_pairing_the_field_can_avoid() {
    director_runs("Chew", 24, "CP:10", 3, 3);
}

#[test]
fn chew_at_100_players_never_repeats_a_pairing_the_field_can_avoid() {
    director_runs("Chew", 100, "CP:14", 3, 10);
}

#[test]
fn chew_at_300_players_never_repeats_a_pairing_the_field_can_avoid() {
    director_runs("Chew", 300, "CP:12", 3, 4);
}

#[test]
fn cop_at_24_players_never_repeats_a_pairing_the_field_can_avoid() {
    director_runs("COP", 24, "SW:6 COP:6", 3, 4);
}

#[test]
fn cop_at_100_players_never_repeats_a_pairing_the_field_can_avoid() {
    director_runs("COP", 100, "SW:10 COP:4", 1, 4);
}

#[test]
fn cop_at_300_players_never_repeats_a_pairing_the_field_can_avoid() {
    director_runs("COP", 300, "SW:10 COP:4", 1, 9);
}

/// Eight players, three rounds paired by hand (every game won 400–300), for the worked examples
/// below. 2, 3 and 4 have all met one another (a triangle) and each won twice; 1 won all three
/// games against the players below.
///
/// | round | games (winner first)           |
/// |-------|--------------------------------|
/// | 1     | 1–6, 2–3, 4–5, 7–8             |
/// | 2     | 1–5, 2–7, 3–4, 6–8             |
/// | 3     | 1–7, 4–2, 3–8, 5–6             |
///
/// After round 3: 1 is 3–0 (+300); 2, 3 and 4 are 2–1 (+100, in rating order); 5, 6 and 7 are
/// 1–2 (−100); 8 is 0–3 (−300). Standings: 1, 2, 3, 4, 5, 6, 7, 8. Earlier opponents: 1 met 5,
/// 6, 7; 2 met 3, 4, 7; 3 met 2, 4, 8; 4 met 2, 3, 5; 5 met 1, 4, 6; 6 met 1, 5, 8; 7 met 1, 2,
/// 8; 8 met 3, 6, 7.
fn triangle(schedule: &str, bands: &str) -> Event {
    let mut e = Event::new("naspa-2013", schedule, 1);
    e.add_seeded(8);
    e.set(Setting::parse(e.d(), "prize-bands", bands).unwrap());
    e.set(Setting::parse(e.d(), "max-repeats", "0").unwrap());
    let rounds = [
        [(1, 6), (2, 3), (4, 5), (7, 8)],
        [(1, 5), (2, 7), (3, 4), (6, 8)],
        [(1, 7), (4, 2), (3, 8), (5, 6)],
    ];
    for (i, games) in rounds.iter().enumerate() {
        let r = i as u32 + 1;
        for &(winner, loser) in games {
            e.manual(r, winner, Some(loser));
            e.score(r, winner, 400, 300);
        }
    }
    assert_eq!(e.order(3), vec![1, 2, 3, 4, 5, 6, 7, 8]);
    e
}

/// Chew, two rounds left, one place paid (the example above, then `CP:2`). Everyone but 8 can
/// still catch 1 (the 1–2 players are two wins behind, −100 + 2 × 500 of BPF spread ≥ +300), and
/// tsh's flight cap with two rounds left is 4: the flight is 1, 2, 3, 4. It cannot pair among
/// itself without a repeat: any two of 2, 3 and 4 have met. Without a limit, tsh's fewest
/// repeats would pair it with one; under max-repeats 0 the field is paired as a whole:
/// - the leader 1 chooses first, among the flight (tsh's preferences: someone who can catch it,
///   fewest meetings, not last round's opponent, then the lowest ranked): 4;
/// - 2 and 3 have met, so both play outside the flight, and the note names them;
/// - Swiss for the rest, nobody meeting again: 2 (2–1) meets 5, 6 or 8, 3 meets 5, 6 or 7, the
///   two left must not have met; of those, 2v6, 3v7, 5v8 keeps the win groups closest (each
///   pair one win apart).
#[test]
fn chew_leader_chooses_within_the_repeat_limit_when_the_flight_cannot_pair() {
    let mut e = triangle("MAN:3 CP:2", "1");
    let notes = e.pair(4).join("\n");
    assert!(notes.contains("7 contender(s), flight cap 4"), "{notes}");
    assert_eq!(e.pairs(4), vec![(1, 4), (2, 6), (3, 7), (5, 8)], "{notes}");
    let line = notes
        .lines()
        .find(|l| l.starts_with("the contenders cannot all be paired"))
        .unwrap_or_else(|| panic!("no note: {notes}"));
    assert_eq!(named(line), vec![2, 3], "{line}");
}

/// COP's last round, two places paid (the example above, then `COP:1`): King of the Hill among
/// the contenders. In the simulations' last round (1v2, 3v4, 5v6, 7v8) 3 or 4 reaches at least
/// two and a half wins, more than the 1–2 players can, so only 1, 2, 3 and 4 can finish in the
/// top two: they are the contenders. King of the Hill among them needs a repeat (any two of 2,
/// 3 and 4 have met), and today it pairs by rank: 3v4 again. Under max-repeats 0 the field is
/// paired as a whole: 1 meets the nearest contender it may, 2; 3 and 4 play outside the group,
/// and the note names them; nobody meets again.
#[test]
fn cop_last_round_king_of_the_hill_within_the_repeat_limit() {
    let mut e = triangle("MAN:3 COP:1", "2");
    let notes = e.pair(4).join("\n");
    let contenders = notes
        .lines()
        .find(|l| l.starts_with("COP contenders"))
        .unwrap_or_else(|| panic!("no contender note: {notes}"));
    assert_eq!(
        named(contenders.split_once("): ").unwrap().1),
        vec![1, 2, 3, 4],
        "{notes}"
    );
    let pairs = e.pairs(4);
    assert!(pairs.contains(&(1, 2)), "{pairs:?}\n{notes}");
    for (a, b) in &pairs {
        assert_eq!(e.d().times_met(*a, *b, 4), 0, "{a}v{b} again\n{notes}");
    }
    let line = notes
        .lines()
        .find(|l| l.starts_with("the contenders cannot all be paired"))
        .unwrap_or_else(|| panic!("no note: {notes}"));
    assert_eq!(named(line), vec![3, 4], "{line}");
}

/// Runs the event and checks every round as the module says.
fn director_runs(method: &str, players: u32, schedule: &str, bands: u32, seed: u64) {
    let mut e = Event::new("naspa-2013", schedule, seed);
    for i in 1..=players {
        e.add(&format!("Player{i:03}, Test"), 2100 - 4 * i as i32);
    }
    e.set(Setting::parse(e.d(), "max-repeats", "0").unwrap());
    e.set(Setting::parse(e.d(), "prize-bands", &bands.to_string()).unwrap());
    let mut rng = Rng::new(seed);
    let total = e.d().total_rounds();
    let (mut repeats, mut swiss_repeats) = (0, 0);
    // What the director would object to, round by round.
    let mut wrong: Vec<String> = Vec::new();
    for r in 1..=total {
        // What Swiss would do with the same standings: is a repeat-free pairing there to find?
        let swiss = e.d().propose(r, Some(Method::Swiss), None).unwrap();
        let swiss_here = swiss
            .pairings
            .iter()
            .filter_map(Pairing::game)
            .filter(|g| e.d().times_met(g.first, g.second, r) > 0)
            .count();
        swiss_repeats += swiss_here;
        let notes = e.pair(r);
        let again: Vec<(u32, u32)> = e
            .pairs(r)
            .into_iter()
            .filter(|&(a, b)| e.d().times_met(a, b, r) > 0)
            .collect();
        repeats += again.len();
        if swiss_here == 0 && !again.is_empty() {
            wrong.push(format!(
                "round {r}: {again:?} meet again, though the field can be paired without a repeat"
            ));
        }
        wrong.extend(check_contenders(&e, r, &notes));
        enter_results(&mut e, r, &mut rng);
    }
    eprintln!(
        "{method}, {players} players ({schedule}, {bands} prize band(s), seed {seed}): \
         {repeats} repeat(s); Swiss on the same standings: {swiss_repeats}"
    );
    assert!(
        wrong.is_empty(),
        "{method}, {players} players:\n{}",
        wrong.join("\n")
    );
}

/// The better-rated player (the lower number) wins about two games in three, 380–529 against a
/// lower score.
fn enter_results(e: &mut Event, r: u32, rng: &mut Rng) {
    for g in e.games(r) {
        let (a, b) = (g.first.min(g.second), g.first.max(g.second));
        let winner = if rng.below(100) < 35 { b } else { a };
        let score = 380 + rng.below(150) as i32;
        let other = 300 + rng.below((score - 300) as usize) as i32;
        e.score(r, winner, score, other);
    }
}

/// The player numbers a note names (`#12 (Surname, Given)`), in its order.
fn named(line: &str) -> Vec<u32> {
    line.split('#')
        .skip(1)
        .filter_map(|x| {
            let digits: String = x.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect()
}

/// The contenders' group and the leader, as the module says: what is wrong, if anything.
fn check_contenders(e: &Event, r: u32, notes: &[String]) -> Vec<String> {
    let mut wrong = Vec::new();
    let Some(line) = notes
        .iter()
        .find(|n| n.starts_with("Chew contenders") || n.starts_with("COP contenders"))
    else {
        return wrong; // a round paired by another method
    };
    let chew = line.starts_with("Chew");
    let order = e.order(r - 1);
    let place = |p: u32| order.iter().position(|&x| x == p).unwrap();
    let listed = named(line.split_once("): ").map_or("", |x| x.1));
    let lowest = listed.iter().map(|&p| place(p)).max();
    let mut k = lowest.map_or(0, |l| (l + 1).next_multiple_of(2));
    if let Some(cap) = line.split("flight cap ").nth(1) {
        let cap: usize = cap.split(' ').next().unwrap().parse().unwrap();
        k = k.min(cap);
    }
    let group = &order[..k.min(order.len())];
    let in_group = |p: u32| group.contains(&p);
    let opp: BTreeMap<u32, u32> = e
        .pairs(r)
        .into_iter()
        .flat_map(|(a, b)| [(a, b), (b, a)])
        .collect();
    let met = |a: u32, b: u32| e.d().times_met(a, b, r);
    let across = |a: u32, b: u32| (in_group(a) != in_group(b)) as u32;
    // Exchanging partners: a with b and their opponents with each other. Allowed when nobody
    // meets again and no more players are paired across the group's edge.
    let exchange_is_as_good = |a: u32, b: u32| {
        let (x, y) = (opp[&a], opp[&b]);
        x != b
            && met(a, b) == 0
            && met(x, y) == 0
            && across(a, b) + across(x, y) <= across(a, x) + across(b, y)
    };
    // Contenders paired outside the group could not have played each other instead.
    let outside: Vec<u32> = group
        .iter()
        .copied()
        .filter(|p| !in_group(opp[p]))
        .collect();
    for (i, &a) in outside.iter().enumerate() {
        for &b in &outside[i + 1..] {
            if met(a, b) == 0 && met(opp[&a], opp[&b]) == 0 {
                wrong.push(format!(
                    "round {r}: #{a} and #{b} both play outside the contenders {group:?}, though \
                     they could play each other"
                ));
            }
        }
    }
    let leader = order[0];
    let rounds_left = e.d().total_rounds() - (r - 1);
    if let Some(cl) = notes.iter().find(|n| n.starts_with("COP control loss")) {
        if cl.contains("paired with") && named(cl) != [leader, opp[&leader]] {
            wrong.push(format!("round {r}: the leader does not play as said: {cl}"));
        }
        return wrong;
    }
    let o = opp[&leader];
    if !chew && rounds_left == 1 {
        // King of the Hill: nobody nearer than its opponent was open to the leader.
        for &q in group.iter().filter(|&&q| q != leader && q != o) {
            if in_group(o) && place(q) > place(o) {
                continue;
            }
            if exchange_is_as_good(leader, q) {
                wrong.push(format!(
                    "round {r}: the leader #{leader} plays #{o}, but #{q} is nearer and open to it"
                ));
            }
        }
    } else if !in_group(o) {
        for &q in group.iter().filter(|&&q| q != leader) {
            if exchange_is_as_good(leader, q) {
                wrong.push(format!(
                    "round {r}: the leader #{leader} plays #{o} outside the contenders, but \
                     could play #{q}"
                ));
            }
        }
    }
    wrong
}
