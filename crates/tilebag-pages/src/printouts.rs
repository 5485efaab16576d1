//! What the director prints: pairings by player in alphabetical order (for the wall, where each
//! player looks for their own name), and scorecards with the coming rounds' opponents filled in
//! where the schedule fixes them (a round robin), so a player knows whom they meet next.

use maud::{html, Markup, DOCTYPE};
use tilebag_tournament::standings::fmt_half;
use tilebag_tournament::tables::name_of;
use tilebag_tournament::{Division, Pairing, PlayerId, Round, Seat, Tournament};

fn layout(t: &Tournament, d: &Division, title: &str, body: Markup) -> Markup {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                meta name="viewport" content="width=device-width, initial-scale=1";
                title { (t.name) " — " (title) }
                link rel="stylesheet" href="/assets/td.css";
            }
            body.printout {
                main {
                    h1 { (t.name) }
                    h2 { "Division " (d.name) " · " (title) }
                    (body)
                }
            }
        }
    }
}

/// A round's pairings by board, for the wall: first, second, why the first goes first, and the
/// result once it is in (the server's own page of `tilebag_tournament::report::pairings_html`, in
/// the printouts' layout: it fits a phone, and its table scrolls in its own box).
// For director.rs's `export` (`pairings.html`), in place of tilebag-tournament's page.
pub fn pairings(t: &Tournament, d: &Division, round: u32) -> Markup {
    let mut entries: Vec<&Pairing> = d
        .round(round)
        .map(|r| r.pairings.iter().collect())
        .unwrap_or_default();
    entries.sort_by_key(|p| match p {
        Pairing::Game(g) => (0, g.board, 0),
        Pairing::Bye { player, .. } => (1, 0, *player),
        Pairing::Absent { player, .. } => (2, 0, *player),
    });
    let body = html! {
        div.scroll tabindex="0" { table #pairings {
            thead { tr {
                th scope="col" { "Board" } th scope="col" { "First" } th scope="col" { "Second" }
                th scope="col" { "Firsts" } th scope="col" { "Result" }
            } }
            tbody { @for p in &entries {
                @match p {
                    Pairing::Game(g) => tr {
                        td.n { (g.board) }
                        td { (name_of(d, g.first)) " (#" (g.first) ")" }
                        td { (name_of(d, g.second)) " (#" (g.second) ")" }
                        td { (tilebag_tournament::report::why_first(&g.first_by)) }
                        td { (super::result_words(d, g, None)) }
                    },
                    Pairing::Bye { player, spread, forfeit, pending, .. } => tr {
                        td {}
                        td { (name_of(d, *player)) " (#" (player) ")" }
                        td { em { @if *forfeit { "forfeit loss" } @else { "bye" } } }
                        td {}
                        td { @if !*pending { (format!("{spread:+}")) } }
                    },
                    Pairing::Absent { player, spread } => tr {
                        td {}
                        td { (name_of(d, *player)) " (#" (player) ")" }
                        td { em { "withdrawn" } }
                        td {}
                        td { (format!("{spread:+}")) }
                    },
                }
            } }
        } }
    };
    layout(t, d, &format!("Round {round} pairings"), body)
}

/// Tally slips for a round's games, to be filled in and signed by both players (NASPA V.J,
/// WESPA 5.4, SANSPA 18.10), in the printouts' layout (each slip fits a phone's width).
// For director.rs's `export` (`slips.html`), in place of tilebag-tournament's page.
pub fn tally_slips(t: &Tournament, d: &Division, round: u32) -> Markup {
    let mut games: Vec<&tilebag_tournament::Game> = d
        .round(round)
        .map(|r| r.pairings.iter().filter_map(Pairing::game).collect())
        .unwrap_or_default();
    games.sort_by_key(|g| g.board);
    let body = html! {
        @for g in games {
            section.slip aria-label=(format!("Board {}", g.board)) {
                h3 { "Round " (round) " · Board " (g.board) }
                div.scroll tabindex="0" { table {
                    thead { tr { th scope="col" { "Seat" } th scope="col" { "Player" } th scope="col" { "Score" } th scope="col" { "Signature" } } }
                    tbody {
                        // A seat the file did not record is not printed as one (NASPA III.D
                        // counts only known firsts).
                        @let (a, b) = if g.first_known() { ("First", "Second") } else { ("", "") };
                        tr { td { (a) } td { (name_of(d, g.first)) " (#" (g.first) ")" } td.box {} td.sig {} }
                        tr { td { (b) } td { (name_of(d, g.second)) " (#" (g.second) ")" } td.box {} td.sig {} }
                    }
                } }
                @if !g.first_known() { p.small { "Who starts was not recorded." } }
                p.small { "Both players sign to certify the result; the winner (or the first player after a tie) hands it in." }
            }
        }
    };
    layout(t, d, &format!("Round {round} tally slips"), body)
}

/// One line per player, sorted by name: their board, opponent and seat (or bye).
pub fn pairings_by_name(t: &Tournament, d: &Division, round: u32) -> Markup {
    let mut lines: Vec<(String, PlayerId, String, String, String)> = Vec::new();
    if let Some(r) = d.round(round) {
        for p in &r.pairings {
            match p {
                Pairing::Game(g) => {
                    for (me, other) in [(g.first, g.second), (g.second, g.first)] {
                        // A seat a file did not record is not invented from the order of the
                        // players (NASPA III.D counts only known firsts).
                        let seat = match g.seat_of(me) {
                            Some(Seat::First) => "first",
                            Some(Seat::Second) => "second",
                            None => "unknown",
                        };
                        lines.push((
                            name_of(d, me),
                            me,
                            g.board.to_string(),
                            format!("{} (#{other})", name_of(d, other)),
                            seat.into(),
                        ));
                    }
                }
                Pairing::Bye { player, spread, .. } => lines.push((
                    name_of(d, *player),
                    *player,
                    String::new(),
                    format!("bye ({spread:+})"),
                    String::new(),
                )),
                Pairing::Absent { player, .. } => lines.push((
                    name_of(d, *player),
                    *player,
                    String::new(),
                    "not playing (withdrawn)".into(),
                    String::new(),
                )),
            }
        }
    }
    lines.sort_by(|a, b| {
        a.0.to_lowercase()
            .cmp(&b.0.to_lowercase())
            .then(a.1.cmp(&b.1))
    });
    let body = html! {
        div.scroll tabindex="0" { table #by-name {
            thead { tr { th scope="col" { "Player" } th scope="col" { "Board" } th scope="col" { "Opponent" } th scope="col" { "Goes" } } }
            tbody { @for (name, id, board, opp, seat) in &lines {
                tr { td { (name) " (#" (id) ")" } td.n { (board) } td { (opp) } td { (seat) } }
            } }
        } }
    };
    layout(t, d, &format!("Round {round} pairings by player"), body)
}

/// The standings for the wall, headed by what is really in ("after round N" only when round N
/// is complete).
pub fn standings(t: &Tournament, d: &Division) -> Markup {
    let (through, heading) = super::standings_through(d);
    let table = tilebag_tournament::tables::standings_table(d, through);
    let body = html! {
        div.scroll tabindex="0" { table #standings {
            thead { tr { @for c in &table.cols { th scope="col" { (c.0) } } } }
            tbody { @for r in &table.rows {
                tr { @for (i, c) in r.iter().enumerate() { td class=[table.cols[i].2.then_some("n")] { (c) } } }
            } }
        } }
    };
    layout(t, d, &heading, body)
}

/// A row of a scorecard.
enum Line {
    /// A paired round (played or not).
    Known {
        opponent: String,
        seat: &'static str,
        result: Option<(String, String, &'static str, tilebag_tournament::Outcome)>,
    },
    /// A coming round whose pairing is fixed by the schedule, not posted yet.
    Coming {
        opponent: String,
        seat: &'static str,
    },
    /// A round whose pairing depends on results still to come.
    Open,
}

/// A scorecard's 1st/2nd: blank for a bye, and for a game whose first a file did not record
/// ([`tilebag_tournament::Game::seat_of`] is then `None`; NASPA III.D counts only known firsts).
fn seat_text(s: Option<Seat>) -> &'static str {
    match s {
        Some(Seat::First) => "1st",
        Some(Seat::Second) => "2nd",
        None => "",
    }
}

/// One scorecard per player: every round of the schedule, the played ones with scores and the
/// running record, the coming ones with the opponent when it is known (`coming`: the rounds the
/// schedule fixes, paired ahead on a copy of the event), blank lines to fill in otherwise.
pub fn scorecards(t: &Tournament, d: &Division, coming: &[Round]) -> Markup {
    let total = d
        .total_rounds()
        .max(d.rounds.len() as u32 + coming.len() as u32);
    let body = html! {
        @for p in &d.players {
            @let lines = (1..=total).map(|n| (n, line(d, coming, p.id, n))).collect::<Vec<_>>();
            div.card {
                p { strong { "#" (p.id) " " (p.name) } " · rating " (p.rating)
                    @if let Some(m) = &p.member_id { " · " (m) } }
                div.scroll tabindex="0" { table {
                    thead { tr {
                        th scope="col" { "Round" } th scope="col" { "Opponent" } th scope="col" { "1st/2nd" }
                        th scope="col" { "Score" } th scope="col" { "Opp." } th scope="col" { "Result" }
                        th scope="col" { "Record" } th scope="col" { "Spread" }
                    } }
                    tbody { (card_rows(&lines)) }
                } }
            }
        }
    };
    let body = html! {
        p.note { "Rounds in italics are still to come: their opponents and seats are the ones the schedule \
                  fixes (a round robin) until the director posts them; blank rows depend on results still to come." }
        (body)
    };
    layout(t, d, "Scorecards", body)
}

fn line(d: &Division, coming: &[Round], me: PlayerId, n: u32) -> Line {
    if let Some(pr) = d.player_round(n, me) {
        let opponent = match (pr.pairing, pr.opponent) {
            (_, Some(o)) => format!("{} (#{o})", name_of(d, o)),
            (Pairing::Bye { .. }, _) => "bye".into(),
            _ => "withdrawn".into(),
        };
        let result = pr.outcome.map(|o| {
            let (a, b) = o
                .scores
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .unwrap_or_default();
            let res = match (o.wins2, o.losses2) {
                (2, _) => "W",
                (_, 2) => "L",
                (1, 1) => "T",
                _ => "–",
            };
            (a, b, res, o)
        });
        return Line::Known {
            opponent,
            seat: seat_text(pr.seat),
            result,
        };
    }
    if let Some(r) = coming.iter().find(|r| r.number == n) {
        if let Some(p) = r.pairings.iter().find(|x| x.involves(me)) {
            return match p {
                Pairing::Game(g) => {
                    let o = g.opponent_of(me).unwrap_or(me);
                    Line::Coming {
                        opponent: format!("{} (#{o})", name_of(d, o)),
                        seat: seat_text(g.seat_of(me)),
                    }
                }
                _ => Line::Coming {
                    opponent: "bye".into(),
                    seat: "",
                },
            };
        }
    }
    Line::Open
}

fn card_rows(lines: &[(u32, Line)]) -> Markup {
    let mut record = Vec::new();
    let (mut w2, mut l2, mut spread) = (0u32, 0u32, 0i32);
    for (_, l) in lines {
        if let Line::Known {
            result: Some((_, _, _, o)),
            ..
        } = l
        {
            w2 += o.wins2;
            l2 += o.losses2;
            spread += o.spread;
            record.push(Some((score_record(w2, l2), spread)));
        } else {
            record.push(None);
        }
    }
    html! {
        @for ((n, l), rec) in lines.iter().zip(&record) {
            tr.(match l { Line::Coming { .. } => "coming", Line::Open => "open", _ => "" }) {
                td.n { (n) }
                @match l {
                    Line::Known { opponent, seat, result } => {
                        td { (opponent) } td { (seat) }
                        @match result {
                            Some((a, b, res, _)) => { td.n { (a) } td.n { (b) } td { (res) } }
                            None => { td {} td {} td {} }
                        }
                    }
                    Line::Coming { opponent, seat } => { td { (opponent) } td { (seat) } td {} td {} td {} }
                    Line::Open => { td {} td {} td {} td {} td {} }
                }
                @match rec {
                    Some((r, s)) => { td.n { (r) } td.n { (format!("{s:+}")) } }
                    None => { td {} td {} }
                }
            }
        }
    }
}

fn score_record(w2: u32, l2: u32) -> String {
    format!("{}\u{2013}{}", fmt_half(w2), fmt_half(l2))
}

/// A report from the tournament crate's tables (prize table, wall chart, roster, high wins, …)
/// as a page for the wall, in the printouts' style (a wide one scrolls in its own box on a
/// phone, and prints whole).
pub fn report(
    t: &Tournament,
    d: &Division,
    title: &str,
    table: &tilebag_tournament::tables::Table,
    id: &str,
) -> Markup {
    layout(t, d, title, super::table(table, id))
}

#[cfg(test)]
mod tests {
    use super::*;
    use tilebag_tournament::{tsh, Action};

    /// Round 1 read from a `.t` file with p12 3 ("must draw"): who started is not known, and
    /// NASPA III.D counts only known firsts, so no printout shows a seat for it. Round 2 has
    /// known firsts (Ann and Bob started).
    fn imported() -> Tournament {
        let text = "\
Ann 1800 2 3; 400 410; p12 3 1
Bob 1700 1 4; 300 390; p12 3 1
Cy 1600 4 1; 350 380; p12 3 2
Di 1500 3 2; 340 370; p12 3 2
";
        let mut log = vec![Action::CreateTournament {
            name: "Test Open".into(),
            date: Some("2024-05-04".into()),
        }];
        log.extend(tsh::division_actions(text, "A", "naspa-2013", "MAN:2", 1).unwrap());
        Tournament::replay(&log).unwrap()
    }

    #[test]
    fn unknown_seats_print_as_unknown() {
        let t = imported();
        let d = t.division("A").unwrap();
        // Pairings by player: "unknown" in round 1, the seats in round 2.
        let r1 = pairings_by_name(&t, d, 1).into_string();
        assert_eq!(r1.matches("<td>unknown</td>").count(), 4, "{r1}");
        assert!(!r1.contains("<td>first</td>") && !r1.contains("<td>second</td>"));
        let r2 = pairings_by_name(&t, d, 2).into_string();
        assert_eq!(r2.matches("<td>first</td>").count(), 2, "{r2}");
        assert_eq!(r2.matches("<td>second</td>").count(), 2, "{r2}");
        // The pairings and the tally slips: no seat for round 1, the seats in round 2.
        let p1 = pairings(&t, d, 1).into_string();
        assert!(p1.contains("viewport") && p1.contains("<main>"), "{p1}");
        let s1 = tally_slips(&t, d, 1).into_string();
        assert!(!s1.contains("<td>First</td>") && s1.contains("Who starts was not recorded"));
        let s2 = tally_slips(&t, d, 2).into_string();
        assert_eq!(s2.matches("<td>First</td>").count(), 2, "{s2}");
        assert!(!s2.contains("Who starts was not recorded"));
        // Scorecards: no 1st/2nd for round 1; Ann 1st and Cy 2nd in round 2.
        for (p, seat2) in [(1, "1st"), (3, "2nd")] {
            let Line::Known { seat, .. } = line(d, &[], p, 1) else {
                panic!("round 1 is known");
            };
            assert_eq!(seat, "");
            let Line::Known { seat, .. } = line(d, &[], p, 2) else {
                panic!("round 2 is known");
            };
            assert_eq!(seat, seat2);
        }
    }
}
