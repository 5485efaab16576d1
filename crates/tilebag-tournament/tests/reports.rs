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
