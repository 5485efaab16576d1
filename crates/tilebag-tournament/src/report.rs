//! Reports: CSV standings, and printable HTML pages (pairings, standings, scorecards, tally
//! slips) as self-contained strings: inline CSS, no scripts, no external assets.

use std::fmt::Write as _;

use crate::model::{Division, GameResult, Pairing, PlayerId, Seat, Tournament};
use crate::standings::fmt_half;

/// Escapes text for HTML.
pub fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&#39;"),
            _ => o.push(c),
        }
    }
    o
}

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

fn page(t: &Tournament, div: &Division, title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>{} — {}</title><style>{}</style></head><body>\n<h1>{}</h1>\n<h2>Division {} · {}</h2>\n{}</body></html>\n",
        esc(&t.name),
        esc(title),
        CSS,
        esc(&t.name),
        esc(&div.name),
        esc(title),
        body
    )
}

fn name(div: &Division, p: PlayerId) -> String {
    div.player(p).map_or(format!("#{p}"), |x| x.name.clone())
}

/// Pairings for a round: board, first, second, and why the first goes first.
pub fn pairings_html(t: &Tournament, div: &Division, round: u32) -> String {
    let mut body = String::from(
        "<table><tr><th>Board</th><th>First</th><th>Second</th><th>Firsts</th><th>Result</th></tr>\n",
    );
    if let Some(r) = div.round(round) {
        for p in &r.pairings {
            match p {
                Pairing::Game(g) => {
                    let why = crate::tables::why_first(&g.first_by);
                    let res = match &g.result {
                        Some(GameResult::Played {
                            first_score,
                            second_score,
                            ..
                        }) => format!("{first_score}–{second_score}"),
                        Some(GameResult::Forfeit { loser, .. }) => {
                            format!("forfeit by {}", name(div, *loser))
                        }
                        Some(GameResult::DoubleForfeit { .. }) => "double forfeit".into(),
                        Some(GameResult::Void) => "void".into(),
                        None => String::new(),
                    };
                    let _ = writeln!(
                        body,
                        "<tr><td class=n>{}</td><td>{} (#{})</td><td>{} (#{})</td><td>{}</td><td>{}</td></tr>",
                        g.board,
                        esc(&name(div, g.first)),
                        g.first,
                        esc(&name(div, g.second)),
                        g.second,
                        esc(&why),
                        esc(&res)
                    );
                }
                Pairing::Bye {
                    player,
                    spread,
                    forfeit,
                    pending,
                    ..
                } => {
                    let _ = writeln!(
                        body,
                        "<tr><td></td><td>{} (#{})</td><td><em>{}</em></td><td></td><td>{}</td></tr>",
                        esc(&name(div, *player)),
                        player,
                        if *forfeit { "forfeit loss" } else { "bye" },
                        if *pending { String::new() } else { format!("{spread:+}") }
                    );
                }
                Pairing::Absent { player, spread } => {
                    let _ = writeln!(
                        body,
                        "<tr><td></td><td>{} (#{})</td><td><em>withdrawn</em></td><td></td><td>{:+}</td></tr>",
                        esc(&name(div, *player)),
                        player,
                        spread
                    );
                }
            }
        }
    }
    body.push_str("</table>\n");
    page(t, div, &format!("Round {round} pairings"), &body)
}

/// Standings after `through`.
pub fn standings_html(t: &Tournament, div: &Division, through: u32) -> String {
    let mut body = String::from(
        "<table><tr><th>Rank</th><th>Player</th><th>Rating</th><th>Won</th><th>Lost</th><th>Spread</th><th>Points</th></tr>\n",
    );
    for s in div.standings(through) {
        let _ = writeln!(
            body,
            "<tr><td class=n>{}</td><td>{}{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{}</td><td class=n>{:+}</td><td class=n>{}</td></tr>",
            s.rank,
            esc(&s.name),
            if s.active { "" } else { " <em>(withdrawn)</em>" },
            s.rating,
            fmt_half(s.wins2),
            fmt_half(s.losses2),
            s.spread,
            s.points_for
        );
    }
    body.push_str("</table>\n");
    page(t, div, &format!("Standings after round {through}"), &body)
}

/// One scorecard per player: every round with opponent, seat, scores, and the running record.
pub fn scorecards_html(t: &Tournament, div: &Division) -> String {
    let seats = div.firsts_by_round();
    let mut body = String::new();
    for p in &div.players {
        let _ = writeln!(
            body,
            "<div class=card><strong>#{} {}</strong> · rating {}{}\n<table><tr><th>Round</th><th>Opponent</th><th>1st/2nd</th><th>Score</th><th>Opp.</th><th>Result</th><th>Record</th><th>Spread</th></tr>",
            p.id,
            esc(&p.name),
            p.rating,
            p.member_id.as_deref().map(|m| format!(" · {}", esc(m))).unwrap_or_default()
        );
        let (mut w2, mut l2, mut spread) = (0u32, 0u32, 0i32);
        for r in &div.rounds {
            let Some(pr) = div.player_round(r.number, p.id) else {
                let _ = writeln!(
                    body,
                    "<tr><td class=n>{}</td><td colspan=7><em>not paired</em></td></tr>",
                    r.number
                );
                continue;
            };
            let opp = match (pr.pairing, pr.opponent) {
                (_, Some(o)) => format!("{} (#{o})", esc(&name(div, o))),
                (Pairing::Bye { forfeit: true, .. }, _) => "<em>forfeit loss</em>".into(),
                (Pairing::Bye { .. }, _) => "<em>bye</em>".into(),
                _ => "<em>withdrawn</em>".into(),
            };
            let seat = match seats
                .get(r.number as usize - 1)
                .and_then(|row| row.get(p.id as usize - 1))
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
            let _ = writeln!(
                body,
                "<tr><td class=n>{}</td><td>{}</td><td>{}</td><td class=n>{}</td><td class=n>{}</td><td>{}</td><td class=n>{}–{}</td><td class=n>{:+}</td></tr>",
                r.number, opp, seat, own, their, res, fmt_half(w2), fmt_half(l2), spread
            );
        }
        body.push_str("</table></div>\n");
    }
    page(t, div, "Scorecards", &body)
}

/// Tally slips for a round's games, to be filled in and signed by both players (NASPA V.J,
/// WESPA 5.4, SANSPA 18.10).
pub fn tally_slips_html(t: &Tournament, div: &Division, round: u32) -> String {
    let mut body = String::new();
    if let Some(r) = div.round(round) {
        for g in r.pairings.iter().filter_map(|p| p.game()) {
            let _ = writeln!(
                body,
                "<div class=slip><strong>Round {round} · Board {}</strong>\n<table><tr><th></th><th>Player</th><th>Score</th><th>Signature</th></tr>\
<tr><td>First</td><td>{} (#{})</td><td><span class=box></span></td><td><span class=sig></span></td></tr>\
<tr><td>Second</td><td>{} (#{})</td><td><span class=box></span></td><td><span class=sig></span></td></tr></table>\
<small>Both players sign to certify the result; the winner (or the first player after a tie) hands it in.</small></div>",
                g.board,
                esc(&name(div, g.first)),
                g.first,
                esc(&name(div, g.second)),
                g.second
            );
        }
    }
    page(t, div, &format!("Round {round} tally slips"), &body)
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
