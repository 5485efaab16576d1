//! Each player's own page (`/p/{event}/{key}`): their current game, and the tally slip they
//! submit and their opponent confirms (NASPA V.J, WESPA 5.4, SANSPA 18.10), so a result is final
//! only when both players have signed it, without the director typing either side. The key is a
//! secret per player, made when the director prints the players' links
//! (`/td/{event}/d/{division}/links`); it is kept in the event file beside the log.

use crate::director::{
    back, based_on_text, blocking, change, enc, error_page, guard, html, load_division,
    public_page, same_origin, DirectorState,
};
use axum::extract::rejection::FormRejection;
use axum::extract::{Form, Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::Deserialize;
use std::fmt::Write as _;
use tilebag_tournament::report::esc;
use tilebag_tournament::tables::name_of;
use tilebag_tournament::{Action, Division, Pairing, PlayerId, Seat, Tournament};

fn unknown_link() -> Response {
    error_page(
        StatusCode::NOT_FOUND,
        "This player link is not known. Ask the director for yours.",
    )
}

/// Keys are made by `crate::ids::token`: letters and digits, 16 to 64 of them.
fn plausible_key(key: &str) -> bool {
    (16..=64).contains(&key.len()) && key.bytes().all(|b| b.is_ascii_alphanumeric())
}

/// The division and player a key opens, and the event's state (read from one opening of the
/// event file); or a refusal page.
async fn who(
    s: &DirectorState,
    event: &str,
    key: &str,
) -> Result<(String, PlayerId, Tournament), Response> {
    if !plausible_key(key) {
        return Err(unknown_link());
    }
    let dir = s.director.clone();
    let (event, key) = (event.to_string(), key.to_string());
    let found = blocking(move || {
        let f = dir.events().open_read(&event)?;
        Ok(match f.player_for_key(&key)? {
            Some((division, player)) => Some((division, player, f.load()?)),
            None => None,
        })
    })
    .await;
    match found {
        Ok(Some(x)) => Ok(x),
        _ => Err(unknown_link()),
    }
}

/// The round a player's page is about: the latest round they are paired in.
fn current_round(d: &Division, p: PlayerId) -> Option<u32> {
    d.rounds
        .iter()
        .rev()
        .find(|r| r.pairings.iter().any(|x| x.involves(p)))
        .map(|r| r.number)
}

pub(crate) async fn player_page(
    State(s): State<DirectorState>,
    Path((event, key)): Path<(String, String)>,
    flash: Result<
        axum::extract::Query<crate::director::Flash>,
        axum::extract::rejection::QueryRejection,
    >,
) -> Response {
    let (division, me, t) = match who(&s, &event, &key).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let Ok(d) = t.division(&division) else {
        return error_page(StatusCode::NOT_FOUND, "this player's division is gone");
    };
    let here = format!("/p/{}/{}", enc(&event), enc(&key));
    let mut body = flash
        .map(|q| crate::director::flash(&q.0))
        .unwrap_or_default();
    let _ = write!(
        body,
        "<p>Division {} · <a href=\"/events/{}/{}\">pairings and standings</a></p>",
        esc(&d.name),
        enc(&event),
        enc(&d.name)
    );
    let last = d.rounds.len() as u32;
    if let Some(st) = d.standings(last).into_iter().find(|x| x.player == me) {
        let _ = write!(
            body,
            "<p id=\"standing\">After round {last}: place {} of {}, {}–{}, spread {:+}.</p>",
            st.rank,
            d.players.len(),
            tilebag_tournament::standings::fmt_half(st.wins2),
            tilebag_tournament::standings::fmt_half(st.losses2),
            st.spread
        );
    }
    let Some(round) = current_round(d, me) else {
        body.push_str("<p id=\"game\">You have not been paired yet.</p>");
        return public_page(&format!("{} · {}", t.name, name_of(d, me)), &body);
    };
    let pr = d.player_round(round, me).expect("paired this round");
    match pr.pairing {
        Pairing::Bye { spread, .. } => {
            let _ = write!(
                body,
                "<p id=\"game\">Round {round}: you have a bye ({spread:+}).</p>"
            );
        }
        Pairing::Absent { .. } => {
            let _ = write!(
                body,
                "<p id=\"game\">Round {round}: you are not playing (withdrawn).</p>"
            );
        }
        Pairing::Game(g) => {
            let opp = g.opponent_of(me).expect("in the game");
            let seat = match g.seat_of(me) {
                Some(Seat::First) => "you go first",
                _ => "you go second",
            };
            let r = d.round(round).expect("paired");
            let _ = write!(
                body,
                "<p id=\"game\">Round {round}, board {}: you ({}) v #{opp} {}; {seat}. \
({} pairings, based on {}.)</p>",
                g.board,
                esc(&name_of(d, me)),
                esc(&name_of(d, opp)),
                esc(&r.method.to_string()),
                based_on_text(r.based_on),
            );
            // A game started online: the player's own seat link.
            if let Some(o) = d
                .online
                .iter()
                .find(|o| o.round == round && g.opponent_of(o.first) == Some(o.second))
            {
                if let Ok(h) = s.hub.get(&o.game_id).await {
                    let seat = usize::from(o.first != me);
                    let _ = write!(
                        body,
                        "<p id=\"online\"><a href=\"/games/{id}?token={t}\" id=\"play-online\">Play this game online</a>{ended}</p>",
                        id = esc(&o.game_id),
                        t = enc(&h.meta.tokens[seat]),
                        ended = if h.is_ended() { " (over)" } else { "" },
                    );
                }
            }
            let mine = |first: i32, second: i32| {
                if g.first == me {
                    (first, second)
                } else {
                    (second, first)
                }
            };
            match (&g.result, &g.slip) {
                (Some(_), _) => {
                    let o = pr.outcome.expect("a result");
                    let text = match o.scores {
                        Some((own, theirs)) => format!("{own}–{theirs}"),
                        None => format!("{:+}", o.spread),
                    };
                    let _ = write!(
                        body,
                        "<p id=\"slip\">The result is in: {} ({text}). If it is wrong, see the director.</p>",
                        match o.wins2 {
                            2 => "you won",
                            1 => "a tie",
                            _ => "you lost",
                        }
                    );
                }
                (None, Some(slip)) if slip.submitted_by == me => {
                    let (own, theirs) = mine(slip.first_score, slip.second_score);
                    let _ = write!(
                        body,
                        "<p id=\"slip\">You submitted {own}–{theirs}. It counts once #{opp} {} confirms it.</p>",
                        esc(&name_of(d, opp))
                    );
                }
                (None, Some(slip)) => {
                    let (own, theirs) = mine(slip.first_score, slip.second_score);
                    let _ = write!(
                        body,
                        "<p id=\"slip\">#{opp} {} submitted: you {own}, them {theirs}.</p>\
<form method=\"post\" action=\"{here}/confirm\"><input type=\"hidden\" name=\"round\" value=\"{round}\">\
<button id=\"confirm\">Confirm: the scores are right</button></form>\
<p>If they are wrong, do not confirm: submit the right scores below, or see the director.</p>",
                        esc(&name_of(d, opp))
                    );
                    body.push_str(&slip_form(&here, round, d.config.winner_submits));
                }
                (None, None) => body.push_str(&slip_form(&here, round, d.config.winner_submits)),
            }
        }
    }
    body.push_str(&scorecard(d, me));
    public_page(&format!("{} · {}", t.name, name_of(d, me)), &body)
}

/// The player's rounds so far: opponent, seat, result and running record.
fn scorecard(d: &Division, me: PlayerId) -> String {
    let mut out = String::from(
        "<h2>Your rounds</h2><table id=\"scorecard\"><tr><th>Round</th><th>Opponent</th>\
<th>Seat</th><th>Result</th><th>Won</th><th>Spread</th></tr>",
    );
    let (mut wins2, mut spread) = (0u32, 0i32);
    for r in &d.rounds {
        let Some(pr) = d.player_round(r.number, me) else {
            continue;
        };
        let opponent = match pr.pairing {
            Pairing::Bye { .. } => "bye".to_string(),
            Pairing::Absent { .. } => "(not playing)".to_string(),
            Pairing::Game(_) => pr
                .opponent
                .map(|o| format!("#{o} {}", name_of(d, o)))
                .unwrap_or_default(),
        };
        let seat = match pr.seat {
            Some(Seat::First) => "1st",
            Some(Seat::Second) => "2nd",
            None => "",
        };
        let result = match pr.outcome {
            Some(o) => {
                wins2 += o.wins2;
                spread += o.spread;
                let wl = match o.wins2 {
                    2 => "W",
                    1 => "T",
                    _ => "L",
                };
                match o.scores {
                    Some((own, theirs)) => format!("{wl} {own}–{theirs}"),
                    None => format!("{wl} {:+}", o.spread),
                }
            }
            None => "—".to_string(),
        };
        let _ = write!(
            out,
            "<tr><td class=\"n\">{}</td><td>{}</td><td>{seat}</td><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{:+}</td></tr>",
            r.number,
            esc(&opponent),
            esc(&result),
            tilebag_tournament::standings::fmt_half(wins2),
            spread
        );
    }
    out.push_str("</table>");
    out
}

fn slip_form(here: &str, round: u32, winner_submits: bool) -> String {
    let who = if winner_submits {
        " Under these rules the winner submits the slip and the loser confirms it (WESPA 5.4.2, \
SANSPA 18.7); after a tie either may."
    } else {
        ""
    };
    format!(
        "<form method=\"post\" action=\"{here}/slip\"><input type=\"hidden\" name=\"round\" value=\"{round}\">\
<label>Your final score <input type=\"number\" name=\"score\" id=\"my-score\" min=\"-500\" max=\"2000\" required></label> \
<label>Your opponent's <input type=\"number\" name=\"opponent_score\" id=\"their-score\" min=\"-500\" max=\"2000\" required></label> \
<button id=\"submit-slip\">Submit the tally slip</button></form>\
<p>Final scores after the racks are counted. Your opponent confirms them on their page.{who}</p>"
    )
}

#[derive(Deserialize)]
pub(crate) struct SlipForm {
    round: u32,
    #[serde(default)]
    score: String,
    #[serde(default)]
    opponent_score: String,
}

async fn player_post(
    s: DirectorState,
    headers: HeaderMap,
    event: String,
    key: String,
    form: Result<Form<SlipForm>, FormRejection>,
    confirm: bool,
) -> Response {
    if !same_origin(&headers) {
        return error_page(
            StatusCode::FORBIDDEN,
            "This form was posted from another site.",
        );
    }
    let (division, me, _) = match who(&s, &event, &key).await {
        Ok(x) => x,
        Err(r) => return r,
    };
    let here = format!("/p/{}/{}", enc(&event), enc(&key));
    let Ok(Form(f)) = form else {
        return back(&here, Err("the form was incomplete".into()));
    };
    let action = if confirm {
        Action::ConfirmSlip {
            division,
            round: f.round,
            player: me,
        }
    } else {
        let score = |v: &str| v.trim().parse::<i32>().ok();
        let (Some(score), Some(opponent_score)) = (score(&f.score), score(&f.opponent_score))
        else {
            return back(
                &here,
                Err("enter both final scores as whole numbers".into()),
            );
        };
        Action::SubmitSlip {
            division,
            round: f.round,
            player: me,
            score,
            opponent_score,
        }
    };
    let done = change(&s, &event, None, move |_| Ok(vec![action])).await;
    back(
        &here,
        done.map(|_| {
            if confirm {
                "Confirmed: the result is in.".to_string()
            } else {
                "Submitted: your opponent confirms it on their page.".to_string()
            }
        }),
    )
}

pub(crate) async fn submit_slip(
    State(s): State<DirectorState>,
    headers: HeaderMap,
    Path((event, key)): Path<(String, String)>,
    form: Result<Form<SlipForm>, FormRejection>,
) -> Response {
    player_post(s, headers, event, key, form, false).await
}

pub(crate) async fn confirm_slip(
    State(s): State<DirectorState>,
    headers: HeaderMap,
    Path((event, key)): Path<(String, String)>,
    form: Result<Form<SlipForm>, FormRejection>,
) -> Response {
    player_post(s, headers, event, key, form, true).await
}

/// The director's printable list of every player's link (keys are made on first view).
pub(crate) async fn links_page(
    State(s): State<DirectorState>,
    headers: HeaderMap,
    Path((event, division)): Path<(String, String)>,
) -> Response {
    if let Some(r) = guard(&s, &headers, false) {
        return r;
    }
    let t = match load_division(&s, &event, &division).await {
        Ok(t) => t,
        Err(r) => return r,
    };
    let d = t.division(&division).expect("checked");
    let players: Vec<(PlayerId, String)> =
        d.players.iter().map(|p| (p.id, p.name.clone())).collect();
    let dir = s.director.clone();
    let (ev, div) = (event.clone(), division.clone());
    let keys = blocking(move || {
        let mut f = dir.events().open(&ev)?;
        players
            .iter()
            .map(|(id, _)| f.player_key(&div, *id, crate::ids::token))
            .collect::<anyhow::Result<Vec<String>>>()
    })
    .await;
    let keys = match keys {
        Ok(k) => k,
        Err(e) => return error_page(StatusCode::INTERNAL_SERVER_ERROR, &e),
    };
    let host = headers
        .get(axum::http::header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let mut body = String::from(
        "<p>Hand each player their own link (it is their password: keep the sheet safe). On it \
they see their game and submit and confirm tally slips (NASPA V.J, WESPA 5.4).</p>\
<table id=\"links\"><tr><th>#</th><th>Player</th><th>Link</th></tr>",
    );
    for (p, key) in d.players.iter().zip(&keys) {
        let path = format!("/p/{}/{}", enc(&event), enc(key));
        let _ = write!(
            body,
            "<tr><td class=\"n\">{}</td><td>{}</td><td><a href=\"{path}\">http://{}{path}</a></td></tr>",
            p.id,
            esc(&p.name),
            esc(host),
        );
    }
    body.push_str("</table>");
    html(
        StatusCode::OK,
        crate::director::page(
            &format!("{} · Division {} · player links", t.name, d.name),
            &[],
            &body,
        ),
    )
}
