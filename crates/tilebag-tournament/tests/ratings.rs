//! Rating worked examples, with the arithmetic written out. Figures are rounded in comments;
//! assertions allow 0.001.

mod common;

use common::Event;
use tilebag_tournament::ratings::*;
use tilebag_tournament::*;

fn close(a: f64, b: f64) {
    assert!((a - b).abs() < 1e-3, "{a} != {b}");
}

fn vet(rating: f64) -> RatingPlayer {
    RatingPlayer {
        rating,
        career_games: 200,
    }
}

fn game(round: u32, a: usize, b: usize, a_score: f64) -> RatedGame {
    RatedGame {
        round,
        a,
        b,
        a_score,
    }
}

#[test]
fn naspa_expectation_and_one_upset() {
    // A (1500, 200 career games) beats B (1600, 200 games), one game.
    // Expected for A = 1 / (1 + e^(0.0031879 × (1600 − 1500))) = 1 / (1 + e^0.31879)
    //                = 1 / (1 + 1.375462) = 0.420971; for B 0.579029.
    close(naspa_expectation(1500.0, 1600.0), 0.420971);
    let out = rate(
        RatingSystem::Naspa { club: false },
        &[vet(1500.0), vet(1600.0)],
        &[game(1, 0, 1, 1.0)],
    );
    // A: multiplier 20 (below 1800, 50+ games); change = 20 × (1 − 0.420971) = 11.580587.
    // That is more than 5 points for 1 game: acceleration bonus = 11.580587 − 5 = 6.580587.
    // New A = 1500 + 11.580587 + 6.580587 = 1518.161174.
    close(out[0].new, 1518.161174);
    close(out[0].bonus, 6.580587);
    assert_eq!(out[0].rounded(), 1518);
    // B: change = 20 × (0 − 0.579029) = −11.580587; feedback = A's bonus / 20 = 0.329029.
    // New B = 1600 − 11.580587 + 0.329029 = 1588.748443.
    close(out[1].new, 1588.748443);
    close(out[1].feedback, 0.329029);
    assert_eq!(out[1].rounded(), 1589);
}

#[test]
fn naspa_club_events_count_one_third() {
    // The same game at a local club tournament: A's change = 11.580587 / 3 = 3.860196, under
    // 5 a game, so no bonus: 1503.860196; B: 1600 − 3.860196 = 1596.139804.
    let out = rate(
        RatingSystem::Naspa { club: true },
        &[vet(1500.0), vet(1600.0)],
        &[game(1, 0, 1, 1.0)],
    );
    close(out[0].new, 1503.860196);
    close(out[0].bonus, 0.0);
    close(out[1].new, 1596.139804);
}

#[test]
fn naspa_multiplier_table_and_proration_across_1800() {
    // The table: under 50 career games 30 / 24 / 15, else 20 / 16 / 10, for < 1800 /
    // 1800–1999 / 2000+.
    assert_eq!(multiplier(1799.0, 49), 30.0);
    assert_eq!(multiplier(1800.0, 49), 24.0);
    assert_eq!(multiplier(2000.0, 49), 15.0);
    assert_eq!(multiplier(1799.0, 50), 20.0);
    assert_eq!(multiplier(1999.0, 50), 16.0);
    assert_eq!(multiplier(2000.0, 50), 10.0);
    // A 1790 veteran beats three 1790s: expected 3 × 0.5 = 1.5, surplus 1.5.
    // The first 10 points reach 1800 at 20 a win: 0.5 of the surplus. The remaining 1.0 is
    // worth 16 above 1800: 1800 + 16 = 1816 (change 26; without proration it would be 30).
    close(prorated_change(1790.0, 1.5, 100, 1.0), 26.0);
    // Downwards: a 2005 veteran 1.0 win short: 6 points to 1999 (tsh's edge going down) at 10
    // a win (0.6), the remaining 0.4 at 16 = 6.4: 2005 − 6 − 6.4 = 1992.6.
    close(prorated_change(2005.0, -1.0, 100, 1.0), -12.4);
    let out = rate(
        RatingSystem::Naspa { club: false },
        &[vet(1790.0), vet(1790.0), vet(1790.0), vet(1790.0)],
        &[game(1, 0, 1, 1.0), game(2, 0, 2, 1.0), game(3, 0, 3, 1.0)],
    );
    // Change 26 for 3 games is 11 over 5 a game: bonus 11, new 1790 + 26 + 11 = 1827.
    // Each opponent: 20 × (0 − 0.5) = −10, plus 11/20 = 0.55 feedback: 1780.55.
    close(out[0].new, 1827.0);
    for o in &out[1..] {
        close(o.new, 1780.55);
    }
}

#[test]
fn naspa_newer_players_use_the_higher_multiplier() {
    // 10 career games, 1500, loses to a 1500: 30 × (0 − 0.5) = −15 → 1485 before feedback.
    let out = rate(
        RatingSystem::Naspa { club: false },
        &[
            RatingPlayer {
                rating: 1500.0,
                career_games: 10,
            },
            vet(1500.0),
        ],
        &[game(1, 0, 1, 0.0)],
    );
    // The veteran wins: 20 × 0.5 = 10, over 5 for its 1 game, so a bonus of 5:
    // 1500 + 10 + 5 = 1515; the newer player gets 5/20 = 0.25 of feedback: 1485.25.
    close(out[1].new, 1515.0);
    close(out[0].new, 1485.25);
    close(out[0].feedback, 0.25);
}

#[test]
fn naspa_events_over_16_rounds_are_rated_in_segments() {
    // Two 1500 veterans play 17 times; A wins every game. 17 rounds: n − 1 = 16,
    // two segments, the first ending at 0-based round 16 div 2 = 8: rounds 1–9 and 10–17.
    // Segment 1: expected 9 × 0.5 = 4.5, actual 9, change 20 × 4.5 = 90, bonus 90 − 45 = 45:
    //   A = 1500 + 90 + 45 = 1635; B = 1500 − 90 + 9 × 45/20 = 1430.25.
    // Ratings are rounded between segments (tsh): B starts segment 2 at 1430.
    // Segment 2: e^(0.0031879 × (1430 − 1635)) = 0.520212, E = 1/1.520212 = 0.657803 a game,
    //   8 games 5.262425; change = 20 × (8 − 5.262425) = 54.751498; bonus 14.751498;
    //   A = 1635 + 54.751498 + 14.751498 = 1704.502997;
    //   B = 1430 − 54.751498 + 8 × 14.751498 / 20 = 1381.149101.
    let games: Vec<RatedGame> = (1..=17).map(|r| game(r, 0, 1, 1.0)).collect();
    let out = rate(
        RatingSystem::Naspa { club: false },
        &[vet(1500.0), vet(1500.0)],
        &games,
    );
    close(out[0].new, 1704.502997);
    close(out[1].new, 1381.149101);
    // Rated as one segment it would differ: 20 × (17 − 8.5) = 170, bonus 85 → 1755.
    let one: Vec<RatedGame> = (1..=16).map(|r| game(r, 0, 1, 1.0)).collect();
    let out = rate(
        RatingSystem::Naspa { club: false },
        &[vet(1500.0), vet(1500.0)],
        &one,
    );
    // 16 rounds is one segment: 20 × (16 − 8) = 160, bonus 160 − 80 = 80 → 1740.
    close(out[0].new, 1740.0);
}

#[test]
fn naspa_unrated_players_get_a_performance_rating() {
    // A newcomer beats one 1500 and loses to another: 1 win of 2, so the rating where the
    // expectation against two 1500s is 1.0, i.e. 1500 (cap: 1500 + 400 × 1/2 = 1700; floor
    // 500).
    let out = rate(
        RatingSystem::Naspa { club: false },
        &[
            RatingPlayer {
                rating: 0.0,
                career_games: 0,
            },
            vet(1500.0),
            vet(1500.0),
        ],
        &[game(1, 0, 1, 1.0), game(2, 0, 2, 0.0)],
    );
    close(out[0].new, 1500.0);
}

#[test]
fn wespa_logistic_172_and_two_thirds_bonus() {
    // A (1500) beats B (1600) under WESPA: expectation = 1 / (1 + e^(100/172))
    //   = 1 / (1 + 1.788532) = 0.358612.
    close(wespa_expectation(1500.0, 1600.0), 0.358612);
    let out = rate(
        RatingSystem::Wespa,
        &[vet(1500.0), vet(1600.0)],
        &[game(1, 0, 1, 1.0)],
    );
    // change = 20 × (1 − 0.358612) = 12.827768; bonus = (12.827768 − 5) × 2/3 = 5.218512;
    // A = 1500 + 12.827768 + 5.218512 = 1518.046280.
    // B = 1600 − 12.827768 + 5.218512/20 = 1587.433157.
    close(out[0].new, 1518.046280);
    close(out[1].new, 1587.433157);
    // No proration under WESPA: a 1790 beating three 1790s gains 20 × 1.5 = 30 (not 26), and
    // (30 − 15) × 2/3 = 10 bonus: 1830.
    let out = rate(
        RatingSystem::Wespa,
        &[vet(1790.0), vet(1790.0), vet(1790.0), vet(1790.0)],
        &[game(1, 0, 1, 1.0), game(2, 0, 2, 1.0), game(3, 0, 3, 1.0)],
    );
    close(out[0].new, 1830.0);
    // WESPA does not split long events.
    let games: Vec<RatedGame> = (1..=17).map(|r| game(r, 0, 1, 1.0)).collect();
    let out = rate(RatingSystem::Wespa, &[vet(1500.0), vet(1500.0)], &games);
    // One segment: 20 × (17 − 8.5) = 170, bonus (170 − 85) × 2/3 = 56.666667 → 1726.666667.
    close(out[0].new, 1726.666667);
}

#[test]
fn rating_estimates_after_each_round_skip_byes_and_forfeits() {
    // NASPA V.K.1, V.K.4: forfeits and byes are not rated.
    let mut e = Event::new("naspa-2013", "RR:3", 1);
    e.add("Upset, Ann", 1500);
    e.add("Fav, Bob", 1600);
    e.add("Odd, Cy", 1550);
    e.pair(1);
    // Round 1: A plays B or C; someone has a bye.
    let g = e.games(1)[0].clone();
    e.score(1, g.first, 400, 300);
    let est = e.d().rating_estimates(1);
    let rated: Vec<_> = est.iter().filter(|(_, c)| c.games > 0).collect();
    assert_eq!(rated.len(), 2, "the bye is not rated");
    e.pair(2);
    let g2 = e.games(2)[0].clone();
    e.act(Action::SetResult {
        division: "A".into(),
        round: 2,
        player: g2.first,
        result: ResultEntry::Forfeit { spread: None },
        note: String::new(),
    });
    let est2 = e.d().rating_estimates(2);
    assert_eq!(
        est2.iter().map(|(_, c)| c.games).sum::<u32>(),
        2,
        "the forfeit is not rated either"
    );
    // Round 1 alone reproduces the worked single-game figures when it was A v B.
    let d = e.d();
    let (a, b) = (g.first, g.second);
    let ra = d.player(a).unwrap().rating as f64;
    let rb = d.player(b).unwrap().rating as f64;
    // No career-games figure was entered: tsh's ratings code takes that as 100 career games
    // (issue 27 item 9).
    let new = |rating| RatingPlayer {
        rating,
        career_games: UNKNOWN_CAREER_GAMES,
    };
    let want = rate(
        RatingSystem::Naspa { club: false },
        &[new(ra), new(rb)],
        &[game(1, 0, 1, 1.0)],
    );
    close(est[a as usize - 1].1.new, want[0].new);
    close(est[b as usize - 1].1.new, want[1].new);
}
