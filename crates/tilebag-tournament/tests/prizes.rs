//! Issue 13: the prize table, on a small event worked by hand.
//!
//! Four players, a round robin (3 rounds, NASPA 2013): Ann 1900, Bob 1750, Cat 1620, Dan 1500.
//! Every game, whatever round the Berger table puts it in:
//!
//! | game    | result           | winner's rating deficit |
//! |---------|------------------|-------------------------|
//! | Ann–Bob | Bob 450, Ann 430 | 1900 − 1750 = 150 (upset) |
//! | Ann–Cat | Ann 400, Cat 350 | — |
//! | Ann–Dan | Ann 500, Dan 300 | — |
//! | Bob–Cat | Cat 480, Bob 470 | 1750 − 1620 = 130 (upset) |
//! | Bob–Dan | Bob 420, Dan 380 | — |
//! | Cat–Dan | Dan 390, Cat 360 | 1620 − 1500 = 120 (upset) |
//!
//! Records, per game: Ann −20 (v Bob), +50 (v Cat), +200 (v Dan): 2–1 +230. Bob +20, −10, +40: 2–1 +50. Cat −50, +10, −30: 1–2 −70. Dan −200, −40, +30:
//! 1–2 −210 (the spreads add to 0). Standings: Ann, Bob, Cat, Dan.
//!
//! - Places (prize-bands 2): 1st Ann, 2nd Bob.
//! - Class prizes by rating band (`rating:1700,1550`): "1550–1699" is Cat alone;
//!   "under 1550" is Dan. With `rating:1700` only, "under 1700" holds Cat and Dan: Cat (3rd)
//!   places higher.
//! - High game: Ann's 500 (v Dan). High loss: the losing scores are 430, 350, 300, 470, 380, 360:
//!   Bob's 470 (v Cat). Biggest upset: Bob over Ann, 150 rating points.

mod common;

use common::Event;
use tilebag_tournament::prizes::prize_table;
use tilebag_tournament::*;

fn event() -> Event {
    let mut e = Event::new("naspa-2013", "RR", 1);
    for (n, r) in [("Ann", 1900), ("Bob", 1750), ("Cat", 1620), ("Dan", 1500)] {
        e.add(n, r);
    }
    // (winner, winner's score, loser's score) by the pair.
    let result = |a: u32, b: u32| -> (u32, i32, i32) {
        match (a, b) {
            (1, 2) => (2, 450, 430),
            (1, 3) => (1, 400, 350),
            (1, 4) => (1, 500, 300),
            (2, 3) => (3, 480, 470),
            (2, 4) => (2, 420, 380),
            (3, 4) => (4, 390, 360),
            _ => unreachable!(),
        }
    };
    for r in 1..=3 {
        e.pair(r);
        for (a, b) in e.pairs(r) {
            let (w, ws, ls) = result(a, b);
            e.score(r, w, ws, ls);
        }
    }
    assert_eq!(e.order(3), vec![1, 2, 3, 4]);
    assert_eq!(e.standing(3, 1).spread, 230);
    assert_eq!(e.standing(3, 4).spread, -210);
    e
}

fn set(e: &mut Event, key: &str, value: &str) {
    let s = Setting::parse(e.d(), key, value).unwrap_or_else(|err| panic!("{key}: {err}"));
    e.set(s);
}

fn rows(e: &Event) -> Vec<(String, String, String)> {
    prize_table(e.d(), 3)
        .rows
        .into_iter()
        .map(|r| (r[0].clone(), r[1].clone(), r[2].clone()))
        .collect()
}

#[test]
fn prize_table_worked_by_hand() {
    let mut e = event();
    set(&mut e, "prize-bands", "2");
    set(&mut e, "class-prizes", "rating:1700,1550");
    let got = rows(&e);
    let want = [
        ("1st place", "Ann", "2-1 +230"),
        ("2nd place", "Bob", "2-1 +50"),
        ("Class: 1550–1699", "Cat", "3rd, 1-2 -70"),
        ("Class: under 1550", "Dan", "4th, 1-2 -210"),
        ("High game", "Ann", "500 v Dan"),
        ("High loss", "Bob", "470 v Cat"),
        ("Biggest upset", "Bob", "1750 beat Ann 1900: 150"),
    ];
    assert_eq!(got.len(), want.len(), "{got:#?}");
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g.0, w.0, "{got:#?}");
        assert_eq!(g.1, w.1, "{got:#?}");
        assert!(g.2.starts_with(w.2), "{:?} should start {:?}", g.2, w.2);
    }
    // Round numbers follow the Berger table: the detail names it.
    assert!(got[4].2.contains("round "), "{got:#?}");
}

#[test]
fn one_rating_band_gives_the_best_placed_of_it() {
    let mut e = event();
    set(&mut e, "prize-bands", "1");
    set(&mut e, "class-prizes", "rating:1700");
    let got = rows(&e);
    assert_eq!(got[0].1, "Ann");
    // Bob is not in the band (1750); Cat (3rd) beats Dan (4th).
    let class: Vec<_> = got.iter().filter(|r| r.0.starts_with("Class")).collect();
    assert_eq!(class.len(), 1, "{got:#?}");
    assert_eq!(class[0].1, "Cat");
}

/// Class prizes by the tsh `class` field an imported `.t` file keeps (`; class B`): one prize a
/// class, to the best-placed player of the class who has not already won a place prize.
#[test]
fn class_prizes_by_the_tsh_class_field() {
    let mut e = event();
    for (p, c) in [(1, "A"), (2, "A"), (3, "B"), (4, "B")] {
        e.act(Action::KeepTshFields {
            division: "A".into(),
            player: p,
            fields: vec![format!("; class {c}")],
            p12: Vec::new(),
            lines_before: Vec::new(),
            lines_after: Vec::new(),
            one_sided: Vec::new(),
        });
    }
    set(&mut e, "prize-bands", "1");
    set(&mut e, "class-prizes", "class");
    let got = rows(&e);
    let class: Vec<_> = got.iter().filter(|r| r.0.starts_with("Class")).collect();
    // Class A: Ann took 1st place, so Bob. Class B: Cat (3rd) before Dan.
    assert_eq!(class.len(), 2, "{got:#?}");
    assert_eq!(
        (class[0].0.as_str(), class[0].1.as_str()),
        ("Class A", "Bob")
    );
    assert_eq!(
        (class[1].0.as_str(), class[1].1.as_str()),
        ("Class B", "Cat")
    );
}

#[test]
fn class_prize_setting_errors_name_the_problem() {
    let e = event();
    for (v, says) in [
        ("rating:lots", "class-prizes"),
        ("ratings", "class-prizes"),
        ("rating:", "class-prizes"),
    ] {
        let err = Setting::parse(e.d(), "class-prizes", v).unwrap_err();
        assert!(err.contains(says), "{v}: {err}");
    }
    assert!(settings::current(e.d()).contains(&("class-prizes", "none".to_string())));
}

/// Before any result there is no high game, loss or upset, and places are still listed.
#[test]
fn an_event_without_results_lists_places_only() {
    let mut e = Event::new("naspa-2013", "RR", 1);
    for (n, r) in [("Ann", 1900), ("Bob", 1750)] {
        e.add(n, r);
    }
    let t = prize_table(e.d(), 0);
    assert_eq!(
        t.rows.len(),
        2,
        "default 3 places, capped by the field of 2: {:?}",
        t.rows
    );
    e.pair(1);
    assert!(prize_table(e.d(), 1)
        .rows
        .iter()
        .all(|r| !r[0].starts_with("High")));
}

/// The common reports (issue 13), on the same event.
/// High wins, by winning score: Ann 500, Cat 480, Bob 450, Bob 420, Ann 400, Dan 390.
/// High losses: Bob 470, Ann 430, Dan 380, Cat 360, Cat 350, Dan 300.
/// Upsets by the rating gap: Bob over Ann 150, Cat over Bob 130, Dan over Cat 120.
#[test]
fn high_win_high_loss_and_upset_lists_worked_by_hand() {
    use tilebag_tournament::prizes::{high_losses_table, high_wins_table, upsets_table};
    let e = event();
    let col = |t: tables::Table, i: usize, j: usize| -> Vec<String> {
        t.rows
            .iter()
            .map(|r| format!("{} {}", r[i], r[j]))
            .collect()
    };
    assert_eq!(
        col(high_wins_table(e.d(), 3, 10), 1, 2),
        ["500 Ann", "480 Cat", "450 Bob", "420 Bob", "400 Ann", "390 Dan"]
    );
    assert_eq!(
        col(high_losses_table(e.d(), 3, 3), 1, 2),
        ["470 Bob", "430 Ann", "380 Dan"]
    );
    assert_eq!(
        col(upsets_table(e.d(), 3, 10), 1, 2),
        ["150 Bob", "130 Cat", "120 Dan"]
    );
}

/// Alphabetical pairings by player: every player once, sorted by name, with board, opponent and
/// seat; a bye says so.
#[test]
fn alphabetical_pairings_list_every_player_by_name() {
    use tilebag_tournament::prizes::alpha_pairings_table;
    let mut e = Event::new("naspa-2013", "SW:1", 1);
    for (n, r) in [("Zed", 1900), ("Amy", 1750), ("Moe", 1620)] {
        e.add(n, r);
    }
    e.pair(1);
    let t = alpha_pairings_table(e.d(), 1);
    let names: Vec<&str> = t.rows.iter().map(|r| r[0].as_str()).collect();
    assert_eq!(names, ["Amy", "Moe", "Zed"]);
    // The Swiss seeds Zed, Amy, Moe: the bye goes to the lowest, Moe; Zed meets Amy.
    let row = |n: &str| t.rows.iter().find(|r| r[0] == n).unwrap().clone();
    assert_eq!(row("Moe")[2], "bye");
    assert_eq!(row("Zed")[2], "Amy");
    assert_eq!(row("Amy")[2], "Zed");
    let seats: Vec<String> = ["Amy", "Zed"].iter().map(|n| row(n)[3].clone()).collect();
    assert!(seats.contains(&"first".to_string()) && seats.contains(&"second".to_string()));
}

/// Rating estimates after each round: the figure after round r equals the ratings table after
/// round r (the same computation, tsh's RoundRATings), and the last equals `ratings_table`.
#[test]
fn rating_by_round_matches_each_rounds_estimate() {
    use tilebag_tournament::prizes::rating_by_round_table;
    let e = event();
    let t = rating_by_round_table(e.d(), 3);
    assert_eq!(t.rows.len(), 4);
    for r in 1..=3u32 {
        let est = e.d().rating_estimates(r);
        for (row, (p, c)) in t.rows.iter().zip(est) {
            assert_eq!(row[0], p.to_string());
            let cell = &row[2 + r as usize];
            assert_eq!(cell, &c.rounded().to_string(), "player {p} after round {r}");
        }
    }
    // #, Player, Old, then one column a round.
    assert_eq!(t.cols.len(), 3 + 3);
    assert_eq!(t.cols[3].0, "R1");
}

/// The wall chart of the event above, every cell checked against the game table in the module
/// comment (the round robin's Berger table puts Ann–Dan and Bob–Cat in round 1, Ann–Cat and
/// Bob–Dan in round 2, Ann–Bob and Cat–Dan in round 3; the seats are the ones it posted):
/// e.g. round 1, Dan goes first against Ann, Ann wins 500–300: Ann's cell `2nd v #4 W 500-300
/// +200` (500 − 300 = 200), Dan's `1st v #1 L 300-500 -200`. The last two columns are the
/// records above: Ann 2–1, +200 + 50 − 20 = +230.
#[test]
fn wall_chart_worked_by_hand() {
    let e = event();
    let t = tilebag_tournament::prizes::wallchart_table(e.d(), 3);
    let heads: Vec<&str> = t.cols.iter().map(|c| c.0).collect();
    assert_eq!(heads, ["#", "Player", "R1", "R2", "R3", "Record", "Spread"]);
    let want = [
        [
            "1",
            "Ann",
            "2nd v #4 W 500-300 +200",
            "1st v #3 W 400-350 +50",
            "2nd v #2 L 430-450 -20",
            "2-1",
            "+230",
        ],
        [
            "2",
            "Bob",
            "2nd v #3 L 470-480 -10",
            "1st v #4 W 420-380 +40",
            "1st v #1 W 450-430 +20",
            "2-1",
            "+50",
        ],
        [
            "3",
            "Cat",
            "1st v #2 W 480-470 +10",
            "2nd v #1 L 350-400 -50",
            "1st v #4 L 360-390 -30",
            "1-2",
            "-70",
        ],
        [
            "4",
            "Dan",
            "1st v #1 L 300-500 -200",
            "2nd v #2 L 380-420 -40",
            "2nd v #3 W 390-360 +30",
            "1-2",
            "-210",
        ],
    ];
    assert_eq!(t.rows, want.map(|r| r.map(String::from).to_vec()).to_vec());
    // Through round 1 only: one round column, the records after round 1.
    let t1 = tilebag_tournament::prizes::wallchart_table(e.d(), 1);
    assert_eq!(t1.cols.len(), 5);
    assert_eq!(
        t1.rows[3],
        ["4", "Dan", "1st v #1 L 300-500 -200", "0-1", "-200"]
    );
}

/// Byes, a forfeit and a result still out, on three players (a round robin gives a bye a
/// round). A bye shows its spread: `bye +50`.
#[test]
fn wall_chart_byes_forfeits_and_pending_results() {
    let mut e = Event::new("naspa-2013", "RR", 1);
    for (n, r) in [("Ann", 1900), ("Bob", 1750), ("Cat", 1620)] {
        e.add(n, r);
    }
    e.pair(1);
    let (a, b) = e.pairs(1)[0];
    let bye = e.byes(1)[0];
    e.try_act(Action::SetResult {
        division: "A".into(),
        round: 1,
        player: a,
        result: ResultEntry::Forfeit { spread: None },
        note: String::new(),
    })
    .expect("forfeit");
    e.pair(2);
    let t = tilebag_tournament::prizes::wallchart_table(e.d(), 2);
    let cell = |p: u32, r: usize| t.rows[p as usize - 1][1 + r].clone();
    let spread = -e.standing(1, b).spread;
    assert!(spread < 0, "the forfeit is a loss for #{a}");
    assert!(
        cell(a, 1).ends_with(&format!("L forfeit {spread:+}")),
        "{}",
        cell(a, 1)
    );
    assert!(
        cell(b, 1).ends_with(&format!("W forfeit {:+}", -spread)),
        "{}",
        cell(b, 1)
    );
    let bye_spread = e.standing(1, bye).spread;
    assert_eq!(cell(bye, 1), format!("bye {bye_spread:+}"));
    // Round 2: the game has no result yet: seat and opponent only.
    let (c, d) = e.pairs(2)[0];
    assert!(cell(c, 2).starts_with("1st v #") || cell(c, 2).starts_with("2nd v #"));
    assert!(cell(c, 2).ends_with(&format!("v #{d}")), "{}", cell(c, 2));
}

/// The roster: by number, rating ("unrated" for 0), class by rating band: with
/// `rating:1700,1550`, 1900 is in no class, 1620 is "1550–1699", 1500
/// "under 1550"; an unrated player (0) is below every band.
#[test]
fn roster_by_number_with_classes() {
    let mut e = event();
    e.add("Eve", 0);
    set(&mut e, "class-prizes", "rating:1700,1550");
    let t = tilebag_tournament::prizes::roster_table(e.d());
    let got: Vec<(String, String, String, String)> = t
        .rows
        .iter()
        .map(|r| (r[0].clone(), r[1].clone(), r[2].clone(), r[3].clone()))
        .collect();
    let want = [
        ("1", "Ann", "1900", ""),
        ("2", "Bob", "1750", ""),
        ("3", "Cat", "1620", "1550–1699"),
        ("4", "Dan", "1500", "under 1550"),
        ("5", "Eve", "unrated", "under 1550"),
    ];
    assert_eq!(
        got,
        want.map(|(a, b, c, d)| (a.into(), b.into(), c.into(), d.into()))
    );
}
