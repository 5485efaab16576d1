//! Printable HTML: self-contained pages with escaped text.

mod common;

use common::Event;
use tilebag_tournament::report::*;

fn event() -> Event {
    let mut e = Event::new("naspa-2013", "SW:2", 3);
    e.add_seeded(4);
    e.add("<script>alert(1)</script> & Co", 1500);
    e.pair(1);
    e.better_seed_wins(1);
    e
}

fn self_contained(html: &str) {
    assert!(html.starts_with("<!DOCTYPE html>"));
    assert!(html.contains("<style>"));
    for bad in ["<script", "<link", "src=", "http://", "https://", "@import"] {
        assert!(!html.contains(bad), "found {bad:?}");
    }
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; Co"));
}

#[test]
fn pairings_standings_scorecards_and_tally_slips() {
    let e = event();
    let d = e.d();
    let pairings = pairings_html(&e.t, d, 1);
    self_contained(&pairings);
    assert_eq!(
        pairings.matches("<tr><td class=\"n\">").count(),
        2,
        "two boards"
    );
    assert!(pairings.contains("<em>bye</em>"));
    assert!(pairings.contains("Round 1 pairings"));
    let standings = standings_html(&e.t, d, 1);
    self_contained(&standings);
    assert_eq!(standings.matches("<tr><td class=\"n\">").count(), 5);
    let cards = scorecards_html(&e.t, d);
    self_contained(&cards);
    assert_eq!(cards.matches("<div class=\"card\">").count(), 5);
    let slips = tally_slips_html(&e.t, d, 1);
    assert!(slips.starts_with("<!DOCTYPE html>"));
    assert_eq!(slips.matches("<div class=\"slip\">").count(), 2);
    assert_eq!(
        slips.matches("class=\"sig\"").count(),
        4,
        "both players sign (NASPA V.J)"
    );
}

/// The tables' HTML (here the roster and the wall chart) is a maud template: names are escaped,
/// the page is self-contained; their CSV neutralises a name a spreadsheet would take for a
/// formula (a leading `'`, the field quoted).
#[test]
fn table_pages_escape_and_csv_neutralises_formulas() {
    let mut e = event();
    e.add("=HYPERLINK(\"x\")", 1400);
    let d = e.d();
    for (table, title) in [
        (tilebag_tournament::prizes::roster_table(d), "Roster"),
        (
            tilebag_tournament::prizes::wallchart_table(d, 1),
            "Wall chart",
        ),
    ] {
        let html = table.html(&e.t, d, title);
        self_contained(&html);
        assert!(html.contains(&format!("<title>Test Open — {title}</title>")));
        assert_eq!(
            html.matches("<tr>").count(),
            1 + d.players.len(),
            "a heading row and a row a player"
        );
        let csv = table.csv();
        assert!(csv.contains("\"'=HYPERLINK(\"\"x\"\")\""), "{csv}");
    }
}

/// Issue 27 item 15: a class prize by rating band is labelled with the band it covers. With
/// `rating:1800,1600,1400`, "under 1600" meant 1400–1599 without saying so; the roster's class
/// column says the same as the prize table.
#[test]
fn class_prizes_by_rating_name_the_whole_band() {
    let mut e = Event::new("naspa-2013", "RR", 1);
    for (n, r) in [("Ann", 1700), ("Bob", 1500), ("Cat", 1300), ("Dan", 1900)] {
        e.add(n, r);
    }
    e.pair(1);
    e.better_seed_wins(1);
    let s =
        tilebag_tournament::Setting::parse(e.d(), "class-prizes", "rating:1800,1600,1400").unwrap();
    e.set(s);
    let d = e.d();
    let labels: Vec<String> = tilebag_tournament::prizes::prize_table(d, 1)
        .rows
        .iter()
        .map(|r| r[0].clone())
        .filter(|l| l.starts_with("Class"))
        .collect();
    assert_eq!(
        labels,
        ["Class: 1600–1799", "Class: 1400–1599", "Class: under 1400"]
    );
    let roster = tilebag_tournament::prizes::roster_table(d);
    let classes: Vec<&str> = roster.rows.iter().map(|r| r[3].as_str()).collect();
    assert_eq!(classes, ["1600–1799", "1400–1599", "under 1400", ""]);
}

/// Issue 27 item 15: the "Why first" column of a game decided by a tile draw says who drew what
/// (the first player's tile first) and writes a blank as a blank: `draw ?/N` explained nothing.
#[test]
fn why_first_spells_out_a_tile_draw() {
    use tilebag_tournament::FirstReason;
    assert_eq!(
        why_first(&FirstReason::Draw {
            draws: vec![('?', 'N')]
        }),
        "tile draw: first drew a blank, second N"
    );
    assert_eq!(
        why_first(&FirstReason::Draw {
            draws: vec![('E', 'E'), ('A', 'C')]
        }),
        "tile draw: both drew E, then first drew A, second C"
    );
    // Round 1 of a NASPA event is all tile draws (nobody has a first yet): each cell of the
    // director's pairings table reads so.
    let e = event();
    let t = tilebag_tournament::tables::pairings_table(e.d(), 1);
    let why: Vec<&str> = t
        .rows
        .iter()
        .filter(|r| !r[0].is_empty())
        .map(|r| r[5].as_str())
        .collect();
    assert_eq!(why.len(), 2);
    for w in why {
        assert!(
            w.starts_with("tile draw: ") && !w.contains('/') && !w.contains('?'),
            "{w}"
        );
    }
}
