//! Reports: CSV standings, and printable HTML pages (pairings, standings, scorecards, tally
//! slips) as self-contained strings: inline CSS, no scripts, no external assets. The pages are
//! maud templates: checked by the compiler, and every interpolated value is escaped unless it is
//! wrapped in `PreEscaped` (only the constant style sheet is).

use std::fmt::Write as _;

use maud::{html, Markup, PreEscaped, DOCTYPE};

use crate::model::{Division, FirstReason, GameResult, Pairing, PlayerId, Seat, Tournament};
use crate::standings::fmt_half;

/// Quotes a CSV field when needed (RFC 4180). A text that a spreadsheet would take for a
/// formula (starting with `=`, `+`, `-`, `@`, a tab or a carriage return, and not a plain number
/// such as a spread of `-35`) is neutralised as spreadsheet programs expect: a leading `'`, the
/// field quoted (OWASP, "CSV injection").
pub fn csv_field(s: &str) -> String {
    let formula = s.starts_with(['=', '+', '-', '@', '\t', '\r']) && !plain_number(s);
    if formula {
        format!("\"'{}\"", s.replace('"', "\"\""))
    } else if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// `-35`, `+12`, `1.5`: digits with an optional sign and decimal point.
fn plain_number(s: &str) -> bool {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    let mut parts = digits.splitn(2, '.');
    let whole = parts.next().unwrap_or("");
    let frac = parts.next();
    !whole.is_empty()
        && whole.bytes().all(|b| b.is_ascii_digit())
        && frac.is_none_or(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
}

/// Standings after `through` as CSV, one row per player, with a header row.
pub fn standings_csv(div: &Division, through: u32) -> String {
    let tally = div.firsts_tally(through + 1);
    let mut out = String::from(
        "division,rank,player,name,member_id,rating,wins,losses,spread,points_for,points_against,firsts,seconds,byes,withdrawn\n",
    );
    for s in div.standings(through) {
        let p = div.player(s.player).expect("a player");
        let (f, sc) = tally.get(s.player);
        let _ = writeln!(
            out,
            "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
            csv_field(&div.name),
            s.rank,
            s.player,
            csv_field(&s.name),
            csv_field(p.member_id.as_deref().unwrap_or("")),
            s.rating,
            fmt_half(s.wins2),
            fmt_half(s.losses2),
            s.spread,
            s.points_for,
            s.points_against,
            f,
            sc,
            s.byes,
            if p.withdrawn_from.is_some() {
                "yes"
            } else {
                "no"
            }
        );
    }
    out
}

const CSS: &str = "body{font-family:Georgia,serif;margin:1.5em;color:#111}\
h1{font-size:1.4em;margin:0 0 .2em}h2{font-size:1.1em;margin:.2em 0 1em;font-weight:normal}\
table{border-collapse:collapse;margin-bottom:1.5em}th,td{border:1px solid #999;padding:.2em .5em;text-align:left}\
th{background:#eee}td.n{text-align:right}.slip,.card{page-break-inside:avoid;border:1px solid #444;padding:.6em;margin:0 0 1em}\
.sig{display:inline-block;width:14em;border-bottom:1px solid #000;height:1.4em;margin-right:2em}\
.box{display:inline-block;width:5em;border-bottom:1px solid #000;height:1.4em}\
@media print{body{margin:0}.slip,.card{page-break-inside:avoid}}";

/// A self-contained printable page: the event's name, the division and `title` over `body`,
/// with the style sheet `css` inline.
pub(crate) fn page_with(
    t: &Tournament,
    div: &Division,
    title: &str,
    css: &'static str,
    body: Markup,
) -> String {
    html! {
        (DOCTYPE)
        html lang="en" {
            head {
                meta charset="utf-8";
                title { (t.name) " — " (title) }
                style { (PreEscaped(css)) }
            }
            body {
                h1 { (t.name) }
                h2 { "Division " (div.name) " · " (title) }
                (body)
            }
        }
    }
    .into_string()
}

fn page(t: &Tournament, div: &Division, title: &str, body: Markup) -> String {
    page_with(t, div, title, CSS, body)
}

fn name(div: &Division, p: PlayerId) -> String {
    div.player(p).map_or(format!("#{p}"), |x| x.name.clone())
}

/// Pairings for a round: board, first, second, and why the first goes first.
pub fn pairings_html(t: &Tournament, div: &Division, round: u32) -> String {
    let pairings = div.round(round).map_or(&[][..], |r| &r.pairings[..]);
    let body = html! {
        table {
            tr { th { "Board" } th { "First" } th { "Second" } th { "Firsts" } th { "Result" } }
            @for p in pairings {
                @match p {
                    Pairing::Game(g) => {
                        tr {
                            td.n { (g.board) }
                            td { (name(div, g.first)) " (#" (g.first) ")" }
                            td { (name(div, g.second)) " (#" (g.second) ")" }
                            td { (why_first(&g.first_by)) }
                            td {
                                @match &g.result {
                                    Some(GameResult::Played { first_score, second_score, .. }) => {
                                        (first_score) "–" (second_score)
                                    }
                                    Some(GameResult::Forfeit { loser, .. }) => {
                                        "forfeit by " (name(div, *loser))
                                    }
                                    Some(GameResult::DoubleForfeit { .. }) => "double forfeit",
                                    Some(GameResult::Void) => "void",
                                    None => {}
                                }
                            }
                        }
                    }
                    Pairing::Bye { player, spread, forfeit, pending, .. } => {
                        tr {
                            td {}
                            td { (name(div, *player)) " (#" (player) ")" }
                            td { em { @if *forfeit { "forfeit loss" } @else { "bye" } } }
                            td {}
                            td { @if !*pending { (format!("{spread:+}")) } }
                        }
                    }
                    Pairing::Absent { player, spread } => {
                        tr {
                            td {}
                            td { (name(div, *player)) " (#" (player) ")" }
                            td { em { "withdrawn" } }
                            td {}
                            td { (format!("{spread:+}")) }
                        }
                    }
                }
            }
        }
    };
    page(t, div, &format!("Round {round} pairings"), body)
}

/// Standings after `through`.
pub fn standings_html(t: &Tournament, div: &Division, through: u32) -> String {
    let body = html! {
        table {
            tr { th { "Rank" } th { "Player" } th { "Rating" } th { "Won" } th { "Lost" } th { "Spread" } th { "Points" } }
            @for s in div.standings(through) {
                tr {
                    td.n { (s.rank) }
                    td { (s.name) @if !s.active { " " em { "(withdrawn)" } } }
                    td.n { (s.rating) }
                    td.n { (fmt_half(s.wins2)) }
                    td.n { (fmt_half(s.losses2)) }
                    td.n { (format!("{:+}", s.spread)) }
                    td.n { (s.points_for) }
                }
            }
        }
    };
    page(t, div, &format!("Standings after round {through}"), body)
}

/// One scorecard row: round, opponent (or what stands in for one), seat, scores, result, and
/// the running record and spread; `None` for a round the player is not paired in.
struct CardRow {
    round: u32,
    line: Option<(
        Markup,
        &'static str,
        String,
        String,
        &'static str,
        String,
        i32,
    )>,
}

fn card_rows(div: &Division, seats: &[Vec<Option<Seat>>], p: PlayerId) -> Vec<CardRow> {
    let (mut w2, mut l2, mut spread) = (0u32, 0u32, 0i32);
    let mut out = Vec::new();
    for r in &div.rounds {
        let Some(pr) = div.player_round(r.number, p) else {
            out.push(CardRow {
                round: r.number,
                line: None,
            });
            continue;
        };
        let opp = match (pr.pairing, pr.opponent) {
            (_, Some(o)) => html! { (name(div, o)) " (#" (o) ")" },
            (Pairing::Bye { forfeit: true, .. }, _) => html! { em { "forfeit loss" } },
            (Pairing::Bye { .. }, _) => html! { em { "bye" } },
            _ => html! { em { "withdrawn" } },
        };
        let seat = match seats
            .get(r.number as usize - 1)
            .and_then(|row| row.get(p as usize - 1))
            .copied()
            .flatten()
        {
            Some(Seat::First) => "1st",
            Some(Seat::Second) => "2nd",
            None => "",
        };
        let (own, their, res) = match pr.outcome {
            Some(o) => {
                w2 += o.wins2;
                l2 += o.losses2;
                spread += o.spread;
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
                (a, b, res)
            }
            None => (String::new(), String::new(), ""),
        };
        out.push(CardRow {
            round: r.number,
            line: Some((
                opp,
                seat,
                own,
                their,
                res,
                format!("{}–{}", fmt_half(w2), fmt_half(l2)),
                spread,
            )),
        });
    }
    out
}

/// One scorecard per player: every round with opponent, seat, scores, and the running record.
pub fn scorecards_html(t: &Tournament, div: &Division) -> String {
    let seats = div.firsts_by_round();
    let body = html! {
        @for p in &div.players {
            div.card {
                strong { "#" (p.id) " " (p.name) } " · rating " (p.rating)
                @if let Some(m) = &p.member_id { " · " (m) }
                table {
                    tr {
                        th { "Round" } th { "Opponent" } th { "1st/2nd" } th { "Score" } th { "Opp." }
                        th { "Result" } th { "Record" } th { "Spread" }
                    }
                    @for row in card_rows(div, &seats, p.id) {
                        tr {
                            td.n { (row.round) }
                            @match row.line {
                                None => { td colspan="7" { em { "not paired" } } }
                                Some((opp, seat, own, their, res, record, spread)) => {
                                    td { (opp) } td { (seat) } td.n { (own) } td.n { (their) }
                                    td { (res) } td.n { (record) } td.n { (format!("{spread:+}")) }
                                }
                            }
                        }
                    }
                }
            }
        }
    };
    page(t, div, "Scorecards", body)
}

/// Tally slips for a round's games, to be filled in and signed by both players (NASPA V.J,
/// WESPA 5.4, SANSPA 18.10).
pub fn tally_slips_html(t: &Tournament, div: &Division, round: u32) -> String {
    let games: Vec<_> = div
        .round(round)
        .map(|r| r.pairings.iter().filter_map(|p| p.game()).collect())
        .unwrap_or_default();
    let body = html! {
        @for g in games {
            div.slip {
                strong { "Round " (round) " · Board " (g.board) }
                table {
                    tr { th {} th { "Player" } th { "Score" } th { "Signature" } }
                    @let (a, b) = if g.first_known() { ("First", "Second") } else { ("", "") };
                    tr { td { (a) } td { (name(div, g.first)) " (#" (g.first) ")" } td { span.box {} } td { span.sig {} } }
                    tr { td { (b) } td { (name(div, g.second)) " (#" (g.second) ")" } td { span.box {} } td { span.sig {} } }
                }
                @if !g.first_known() {
                    // NASPA III.D counts only known firsts: a seat the file did not record is
                    // not printed as one.
                    small { "Who starts was not recorded. " }
                }
                small { "Both players sign to certify the result; the winner (or the first player after a tie) hands it in." }
            }
        }
    };
    page(t, div, &format!("Round {round} tally slips"), body)
}

/// Why a game's first player goes first, in a word or two (pairings tables and scorecards).
pub fn why_first(r: &FirstReason) -> String {
    match r {
        FirstReason::FewerFirsts => "fewer firsts".into(),
        FirstReason::MoreSeconds => "more seconds".into(),
        FirstReason::Balance => "balance".into(),
        FirstReason::Draw { draws } => tile_draw(draws),
        FirstReason::Director => "director".into(),
        FirstReason::Imported => "imported".into(),
        FirstReason::Unknown { .. } => "unknown (not in the file)".into(),
    }
}

/// A tile draw in words, the first player's tile first (NASPA III.D.3, WESPA 2.1(a): nearest to
/// A starts, a blank before A, drawn again on a tie): `tile draw: first drew a blank, second N`;
/// `tile draw: both drew E, then first drew A, second C`.
fn tile_draw(draws: &[(char, char)]) -> String {
    let tile = |c: char| {
        if c == '?' {
            "a blank".to_string()
        } else {
            c.to_string()
        }
    };
    let steps: Vec<String> = draws
        .iter()
        .map(|&(a, b)| {
            if a == b {
                format!("both drew {}", tile(a))
            } else {
                format!("first drew {}, second {}", tile(a), tile(b))
            }
        })
        .collect();
    if steps.is_empty() {
        return "tile draw".into();
    }
    format!("tile draw: {}", steps.join(", then "))
}

#[cfg(test)]
mod csv_tests {
    use super::csv_field;

    #[test]
    fn formulas_are_neutralised_and_numbers_kept() {
        assert_eq!(csv_field("=HYPERLINK(\"x\")"), "\"'=HYPERLINK(\"\"x\"\")\"");
        assert_eq!(csv_field("+1+cmd"), "\"'+1+cmd\"");
        assert_eq!(csv_field("-2+3"), "\"'-2+3\"");
        assert_eq!(csv_field("@SUM(A1)"), "\"'@SUM(A1)\"");
        assert_eq!(csv_field("\tx"), "\"'\tx\"");
        assert_eq!(csv_field("-35"), "-35");
        assert_eq!(csv_field("+12"), "+12");
        assert_eq!(csv_field("1.5"), "1.5");
        assert_eq!(csv_field("Ann, Able"), "\"Ann, Able\"");
        assert_eq!(csv_field("Ann"), "Ann");
    }
}
