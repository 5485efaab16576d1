//! The director's pages (`/td`): create an event, add divisions and players, pair a round
//! (preview, then post), enter and confirm results, start a round's games online, undo (after
//! saying in words what it undoes), show standings and print or export everything. The pages are
//! plain HTML forms (they work with no script); the division page's one script (`td.js`) only
//! brings calls for the director in as they happen, with a sound.
//!
//! The HTML is in `pages::td` and `pages::printouts` (maud templates); this module gathers the
//! data, checks access and applies the changes. Online results are reported by
//! `online_results`, not here.
//!
//! Each event is an event file of `tilebag-events` in the events folder, the same file
//! `tilebag td` works on: a director may use the pages and the terminal side by side, and every
//! change is an action in the event's log.
//!
//! Access: the pages need the director key ([`crate::ServeConfig::director_key`]); signing in
//! sets an `HttpOnly`, `SameSite=Strict` cookie, and a form posted from another site (an `Origin`
//! that is not this server) is refused.

use crate::director_access::{cookie_token, Access, Checked, SignIn, COOKIE, SIGN_OUTS_FILE};
use crate::online_results::{self, Reporter};
use crate::origin::same_origin;
use crate::respond::{back, director_error, html_response, login_page};
use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Form, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;
use tilebag_events::{EventFile, EventsDir};
use tilebag_live::live::{Hub, NewGame};
use tilebag_pages::td::{self as tpl, div_url, Call, OnlineCell, OnlineStatus, Tab};
use tilebag_pages::{based_on_text, enc, printouts, Flash};
use tilebag_tournament::report;
use tilebag_tournament::tables::{name_of, why_first, Table};
use tilebag_tournament::{
    tou, tsh, Action, Division, Method, Pairing, PlayerId, ResultEntry, Round, Setting, Tournament,
};

/// The director's side of the server.
pub(crate) struct Director {
    events: EventsDir,
    /// The key, its sessions, and the brake on guessing it (`director_access`).
    pub(crate) access: Access,
    /// Reports ended online games into their events.
    pub(crate) reporter: Arc<Reporter>,
}

#[derive(Clone)]
pub(crate) struct DirectorState {
    pub(crate) director: Arc<Director>,
    pub(crate) hub: Arc<Hub>,
    /// The connection limits (a live page's stream keeps itself inside the idle timeout).
    pub(crate) net: crate::net::NetLimits,
}

impl Director {
    pub(crate) fn events(&self) -> &EventsDir {
        &self.events
    }

    /// The director's side over the events folder (its online games are indexed by
    /// [`Reporter::collect_all`]).
    pub(crate) fn new(events: EventsDir, key: String) -> Director {
        Director {
            reporter: Arc::new(Reporter::new(events.clone())),
            access: Access::new(key, Some(&events.root().join(SIGN_OUTS_FILE))),
            events,
        }
    }
}

/// The director's routes (`/td/...`). The players' pages are `player_pages::router`.
pub(crate) fn router(state: DirectorState) -> Router {
    Router::new()
        .route("/td", get(home))
        .route("/td/", get(home))
        .route("/td/login", post(login))
        .route("/td/logout", post(logout))
        .route("/td/logout-everywhere", post(logout_everywhere))
        .route("/td/new", post(new_event))
        .route("/td/{event}", get(event_page))
        .route("/td/{event}/details", post(edit_event))
        .route("/td/{event}/submit-wespa.tou", get(submit_event_tou))
        .route("/td/{event}/division", post(add_division))
        .route("/td/{event}/undo", get(undo_page).post(undo))
        .route("/td/{event}/d/{division}", get(division_page))
        .route("/td/{event}/d/{division}/calls", get(calls_json))
        .route("/td/{event}/d/{division}/calls/stream", get(calls_stream))
        .route("/td/{event}/d/{division}/player", post(add_player))
        .route(
            "/td/{event}/d/{division}/pair",
            get(pair_preview).post(pair_post),
        )
        .route("/td/{event}/d/{division}/result", post(enter_result))
        .route("/td/{event}/d/{division}/online", post(start_online))
        .route("/td/{event}/d/{division}/entries", post(entries_post))
        .route("/td/{event}/d/{division}/game", post(game_act))
        .route("/td/{event}/d/{division}/act", post(director_act))
        .route("/td/{event}/d/{division}/export/{what}", get(export))
        .route("/td/{event}/d/{division}/links", get(links_page))
        .layer(axum::middleware::from_fn_with_state(
            state.clone(),
            renew_session,
        ))
        .with_state(state)
}

/// Gives a director whose session cookie is a few minutes old a fresh one (the same session),
/// so that a session ends when it is left unused, wherever it is presented
/// (`director_access`). An answer that sets the cookie itself (sign-in, sign-out) is left alone.
async fn renew_session(
    State(s): State<DirectorState>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let token = cookie_token(req.headers());
    let mut r = next.run(req).await;
    if r.headers().contains_key(header::SET_COOKIE) {
        return r;
    }
    if let Some(Checked::Renew(fresh)) = token.map(|t| s.director.access.check(&t, Instant::now()))
    {
        if let Ok(v) = HeaderValue::from_str(&session_cookie(&fresh)) {
            r.headers_mut().insert(header::SET_COOKIE, v);
        }
    }
    r
}

/// The `Set-Cookie` value of a session token.
fn session_cookie(token: &str) -> String {
    format!("{COOKIE}={token}; Path=/td; HttpOnly; SameSite=Strict")
}

// ---------------------------------------------------------------------------------------------
// Access.

fn signed_in(s: &DirectorState, headers: &HeaderMap) -> bool {
    cookie_token(headers).is_some_and(|t| s.director.access.session(&t, Instant::now()))
}

/// Why a request is refused before it does anything.
pub(crate) fn guard(s: &DirectorState, headers: &HeaderMap, posting: bool) -> Option<Response> {
    if posting && !same_origin(headers) {
        return Some(director_error(
            StatusCode::FORBIDDEN,
            "This form was posted from another site, so it was refused.",
        ));
    }
    if !signed_in(s, headers) {
        return Some(if posting {
            director_error(
                StatusCode::FORBIDDEN,
                "Sign in with the director key first (at /td).",
            )
        } else {
            login_page(StatusCode::OK, None)
        });
    }
    None
}

/// A director's form: refused (like [`guard`]) without the key or from another site, and sent
/// back to the page it came from (the path's parent) when it does not read.
pub(crate) struct Posted<T>(pub T);

impl<T: serde::de::DeserializeOwned + Send> axum::extract::FromRequest<DirectorState>
    for Posted<T>
{
    type Rejection = Response;

    async fn from_request(
        req: axum::extract::Request,
        s: &DirectorState,
    ) -> Result<Self, Response> {
        if let Some(r) = guard(s, req.headers(), true) {
            return Err(r);
        }
        let path = req.uri().path().to_string();
        let parent = path.rsplit_once('/').map_or("/td", |(p, _)| p).to_string();
        match Form::<T>::from_request(req, s).await {
            Ok(Form(v)) => Ok(Posted(v)),
            Err(_) => Err(back(&parent, Err("the form was incomplete".into()))),
        }
    }
}

#[derive(Deserialize)]
struct LoginForm {
    key: String,
}

async fn login(
    State(s): State<DirectorState>,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<std::net::SocketAddr>,
    headers: HeaderMap,
    form: Result<Form<LoginForm>, FormRejection>,
) -> Response {
    if !same_origin(&headers) {
        return director_error(
            StatusCode::FORBIDDEN,
            "This form was posted from another site.",
        );
    }
    let Ok(Form(f)) = form else {
        return login_page(StatusCode::BAD_REQUEST, Some("Enter the director key."));
    };
    let token = match s
        .director
        .access
        .sign_in(peer.ip(), f.key.trim(), Instant::now())
    {
        SignIn::Session(t) => t,
        SignIn::Throttled(why) => return login_page(StatusCode::TOO_MANY_REQUESTS, Some(why)),
        SignIn::Wrong => {
            // The form again, with the reason (a 200, as a page re-shown to a person).
            return login_page(StatusCode::OK, Some("That is not the director key."));
        }
    };
    let mut r = Redirect::to("/td").into_response();
    if let Ok(v) = HeaderValue::from_str(&session_cookie(&token)) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    r
}

/// Sign out: this browser's session ends.
async fn logout(State(s): State<DirectorState>, headers: HeaderMap) -> Response {
    if !same_origin(&headers) {
        return director_error(
            StatusCode::FORBIDDEN,
            "This form was posted from another site.",
        );
    }
    if let Some(t) = cookie_token(&headers) {
        if let Err(e) = s.director.access.end(&t, Instant::now()) {
            // This browser's cookie is cleared all the same, and this process forgets the
            // session; the others may take the old cookie until the file can be written.
            tracing::error!(error = %e, "a director's sign-out could not be recorded for the other processes");
        }
    }
    signed_out()
}

/// Sign out everywhere: every session ends (a lost laptop, a key that was shared). Only a
/// signed-in director may do it.
async fn logout_everywhere(State(s): State<DirectorState>, headers: HeaderMap) -> Response {
    if let Some(r) = guard(&s, &headers, true) {
        return r;
    }
    if let Err(e) = s.director.access.end_all(Instant::now()) {
        tracing::error!(error = %e, "signing out everywhere could not be recorded");
        return director_error(
            StatusCode::INTERNAL_SERVER_ERROR,
            &format!(
                "Signing out everywhere could not be recorded for the server's other processes \
                 ({e}); sessions may still be open there. Try again, or change the director key."
            ),
        );
    }
    signed_out()
}

/// Back to the sign-in page, with the cookie cleared.
fn signed_out() -> Response {
    let mut r = Redirect::to("/td").into_response();
    r.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static(
            "tilebag_director=; Path=/td; HttpOnly; SameSite=Strict; Max-Age=0",
        ),
    );
    r
}

// ---------------------------------------------------------------------------------------------
// Shared steps.

/// Runs blocking event-file work off the async threads.
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> anyhow::Result<T> + Send + 'static,
) -> Result<T, String> {
    match tokio::task::spawn_blocking(f).await {
        Ok(r) => r.map_err(|e| format!("{e:#}")),
        Err(_) => Err("the request failed inside the server".into()),
    }
}

fn clean_text(what: &str, raw: &str, max: usize) -> Result<String, String> {
    let v = raw.trim();
    if v.is_empty() {
        return Err(format!("the {what} is empty"));
    }
    if v.chars().count() > max || v.chars().any(char::is_control) {
        return Err(format!(
            "the {what} must be at most {max} printable characters"
        ));
    }
    Ok(v.to_string())
}

pub(crate) async fn load(s: &DirectorState, event: &str) -> Result<(Tournament, String), String> {
    let dir = s.director.clone();
    let event = event.to_string();
    blocking(move || dir.events.open_read(&event)?.load_versioned()).await
}

/// The event, if it has the division; else the director's page that says what is missing.
async fn load_division(
    s: &DirectorState,
    event: &str,
    division: &str,
) -> Result<Tournament, Response> {
    let (t, _) = load(s, event)
        .await
        .map_err(|e| director_error(StatusCode::NOT_FOUND, &e))?;
    if t.division(division).is_err() {
        return Err(director_error(
            StatusCode::NOT_FOUND,
            &format!("event {event:?} has no division {division:?}"),
        ));
    }
    Ok(t)
}

/// Appends the actions `build` makes to the event's log (refused as a whole, or written).
pub(crate) async fn change(
    s: &DirectorState,
    event: &str,
    expected: Option<String>,
    build: impl FnOnce(&Tournament) -> anyhow::Result<Vec<Action>> + Send + 'static,
) -> Result<Tournament, String> {
    let dir = s.director.clone();
    let event = event.to_string();
    blocking(move || {
        let mut f: EventFile = dir.events.open(&event)?;
        match expected {
            Some(v) => f.append_at(&v, build),
            None => f.append(build),
        }
    })
    .await
}

// ---------------------------------------------------------------------------------------------
// Events.

async fn home(
    State(s): State<DirectorState>,
    headers: HeaderMap,
    flash_q: Result<Query<Flash>, QueryRejection>,
) -> Response {
    if let Some(r) = guard(&s, &headers, false) {
        return r;
    }
    let f = flash_q.map(|q| q.0).unwrap_or_default();
    let dir = s.director.clone();
    let list = match blocking(move || dir.events.list()).await {
        Ok(l) => l,
        Err(e) => return director_error(StatusCode::INTERNAL_SERVER_ERROR, &e),
    };
    let paths: Vec<String> = list
        .iter()
        .map(|e| {
            s.director
                .events
                .path(&e.id)
                .map(|p| p.display().to_string())
                .unwrap_or_default()
        })
        .collect();
    let damaged: Vec<tpl::Damaged> = s
        .hub
        .damaged()
        .into_iter()
        .map(|d| tpl::Damaged {
            id: d.id.clone(),
            reason: d.reason.clone(),
        })
        .collect();
    html_response(StatusCode::OK, tpl::home(&f, &list, &paths, &damaged))
}

#[derive(Deserialize)]
struct NewEventForm {
    id: String,
    name: String,
    #[serde(default)]
    date: String,
}

async fn new_event(State(s): State<DirectorState>, Posted(f): Posted<NewEventForm>) -> Response {
    let id = f.id.trim().to_string();
    let name = match clean_text("event name", &f.name, 80) {
        Ok(n) => n,
        Err(e) => return back("/td", Err(e)),
    };
    let date = Some(f.date.trim().to_string()).filter(|d| !d.is_empty());
    let dir = s.director.clone();
    let id2 = id.clone();
    match blocking(move || dir.events.create(&id2, &name, date).map(|_| ())).await {
        Ok(()) => back(&format!("/td/{}", enc(&id)), Ok("Event created.".into())),
        Err(e) => back("/td", Err(e)),
    }
}

async fn event_page(
    State(s): State<DirectorState>,
    headers: HeaderMap,
    Path(event): Path<String>,
    flash_q: Result<Query<Flash>, QueryRejection>,
) -> Response {
    if let Some(r) = guard(&s, &headers, false) {
        return r;
    }
    let f = flash_q.map(|q| q.0).unwrap_or_default();
    let (t, _) = match load(&s, &event).await {
        Ok(x) => x,
        Err(e) => return director_error(StatusCode::NOT_FOUND, &e),
    };
    html_response(
        StatusCode::OK,
        tpl::event_page(&f, &event, &t, &s.hub.default_preset),
    )
}

/// `GET /td/{event}/submit-wespa.tou`: the whole event as one AUPAIR `.TOU` file, a section
/// per division (what `tilebag td submit --to wespa` writes); refused, naming the division,
/// while any division still has games without a result.
async fn submit_event_tou(
    State(s): State<DirectorState>,
    headers: HeaderMap,
    Path(event): Path<String>,
) -> Response {
    if let Some(r) = guard(&s, &headers, false) {
        return r;
    }
    let (t, _) = match load(&s, &event).await {
        Ok(x) => x,
        Err(e) => return director_error(StatusCode::NOT_FOUND, &e),
    };
    for d in &t.divisions {
        if let Some(why) = tilebag_tournament::checks::submission_refusal(d) {
            return director_error(
                StatusCode::UNPROCESSABLE_ENTITY,
                &format!(
                    "division {}: {why}; nothing to submit yet (its Reports tab lists the games still missing)",
                    d.name
                ),
            );
        }
    }
    match tou::write_tou_event(&t) {
        Ok(body) => download(
            "text/plain; charset=utf-8",
            body,
            Some(&format!("{event}.TOU")),
        ),
        Err(e) => director_error(StatusCode::UNPROCESSABLE_ENTITY, &e.to_string()),
    }
}

/// A file to download: its type, its body and, for `Content-Disposition`, its name with every
/// character but letters, digits, `.` and `-` made `_` (a name cannot break out of the header).
fn download(content_type: &'static str, body: String, name: Option<&str>) -> Response {
    let mut r = ([(header::CONTENT_TYPE, content_type)], body).into_response();
    if let Some(name) = name {
        let safe: String = name
            .chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '.' || c == '-' {
                    c
                } else {
                    '_'
                }
            })
            .collect();
        if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{safe}\"")) {
            r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
        }
    }
    r
}

#[derive(Deserialize)]
struct EventForm {
    name: String,
    #[serde(default)]
    date: String,
}

/// The event page's name and date form: logs an `EditEvent` with what changed (an empty date
/// keeps the one set).
async fn edit_event(
    State(s): State<DirectorState>,
    Path(event): Path<String>,
    Posted(f): Posted<EventForm>,
) -> Response {
    let here = format!("/td/{}", enc(&event));
    let name = match clean_text("event name", &f.name, 80) {
        Ok(n) => n,
        Err(e) => return back(&here, Err(e)),
    };
    let date = Some(f.date.trim().to_string()).filter(|d| !d.is_empty());
    let done = change(&s, &event, None, move |t| {
        let name = Some(name).filter(|n| *n != t.name);
        let date = date.filter(|d| t.date.as_deref() != Some(d.as_str()));
        if name.is_none() && date.is_none() {
            anyhow::bail!("the event already has this name and date");
        }
        Ok(vec![Action::EditEvent { name, date }])
    })
    .await;
    back(
        &here,
        done.map(|_| "Event name and date saved.".to_string()),
    )
}

#[derive(Deserialize)]
struct DivisionForm {
    name: String,
    preset: String,
    schedule: String,
    #[serde(default)]
    seed: String,
}

async fn add_division(
    State(s): State<DirectorState>,
    Path(event): Path<String>,
    Posted(f): Posted<DivisionForm>,
) -> Response {
    let here = format!("/td/{}", enc(&event));
    let name = match clean_text("division name", &f.name, 20) {
        Ok(n)
            if n.chars()
                .all(|c| c.is_alphanumeric() || c == ' ' || c == '-') =>
        {
            n
        }
        Ok(_) => {
            return back(
                &here,
                Err("a division name has letters, digits, spaces and hyphens only".into()),
            )
        }
        Err(e) => return back(&here, Err(e)),
    };
    let seed = match f.seed.trim() {
        "" => tilebag_events::fresh_seed(),
        v => match v.parse::<u64>() {
            Ok(n) => n,
            Err(_) => {
                return back(
                    &here,
                    Err(format!("the seed must be a whole number, not {v:?}")),
                )
            }
        },
    };
    let (preset, schedule) = (f.preset.trim().to_string(), f.schedule.trim().to_string());
    let n2 = name.clone();
    let done = change(&s, &event, None, move |_| {
        Ok(vec![Action::AddDivision {
            division: n2,
            preset,
            schedule,
            seed,
        }])
    })
    .await;
    match done {
        Ok(_) => back(
            &div_url(&event, &name),
            Ok(format!("Division {name} added.")),
        ),
        Err(e) => back(&here, Err(e)),
    }
}

/// The newest action of the log, in words, with the log's version.
async fn newest(
    s: &DirectorState,
    event: &str,
) -> Result<(Tournament, Option<(i64, String)>, String), String> {
    let dir = s.director.clone();
    let event = event.to_string();
    blocking(move || {
        let f = dir.events.open_read(&event)?;
        let rows = f.rows()?;
        let (t, version) = f.load_versioned()?;
        let last = rows.last().map(|r| {
            let words = match serde_json::from_str::<Action>(&r.action) {
                Ok(a) => describe(&t, &a),
                Err(_) => "a change this server cannot read".to_string(),
            };
            (r.seq, words)
        });
        Ok((t, last, version))
    })
    .await
}

/// What an action did, in the director's words.
pub(crate) fn describe(t: &Tournament, a: &Action) -> String {
    match a {
        Action::CreateTournament { .. }
        | Action::EditEvent { .. }
        | Action::AddDivision { .. }
        | Action::Configure { .. } => describe_setup(t, a),
        Action::KeepTshConfig { lines } => format!(
            "keeping the {} line(s) of an imported .tsh archive outside its files (config, division lines, comments)",
            lines.len()
        ),
        Action::AddPlayer { .. }
        | Action::EditPlayer { .. }
        | Action::Withdraw { .. }
        | Action::KeepTshFields { .. }
        | Action::Reinstate { .. }
        | Action::Eject { .. } => describe_roster_change(t, a),
        Action::Pair { .. }
        | Action::ManualPair { .. }
        | Action::SwapSeats { .. }
        | Action::Unpair { .. } => describe_pairing(t, a),
        Action::StartOnline { .. } | Action::ReportOnline { .. } => describe_online_game(t, a),
        Action::SubmitSlip { .. }
        | Action::ConfirmSlip { .. }
        | Action::SetResult { .. }
        | Action::AdjustSpread { .. } => describe_result(t, a),
        // Online entries (issue 30 item 6): `tilebag_tournament::entries`.
        Action::Entry { division, change } => change.words(t.division(division).ok()),
    }
}

/// A player as the log names them: `#3 Jane Doe` (`#3` if the division is gone).
fn named_player(t: &Tournament, division: &str, p: PlayerId) -> String {
    match t.division(division) {
        Ok(d) => format!("#{p} {}", name_of(d, p)),
        Err(_) => format!("#{p}"),
    }
}

/// `, board 4` for a player's game of a round that has a board, else nothing.
fn board_suffix(t: &Tournament, division: &str, round: u32, p: PlayerId) -> String {
    t.division(division)
        .ok()
        .and_then(|d| d.player_round(round, p))
        .and_then(|pr| pr.pairing.game().map(|g| g.board))
        .map(|b| format!(", board {b}"))
        .unwrap_or_default()
}

/// The event, its divisions and their settings.
fn describe_setup(t: &Tournament, a: &Action) -> String {
    match a {
        Action::CreateTournament { name, .. } => format!("creating the event {name}"),
        Action::EditEvent { name, date } => match (name, date) {
            (Some(n), Some(d)) => format!("renaming the event {n} and dating it {d}"),
            (Some(n), None) => format!("renaming the event {n}"),
            (None, Some(d)) => format!("dating the event {d}"),
            (None, None) => "changing nothing about the event".into(),
        },
        Action::AddDivision {
            division,
            preset,
            schedule,
            ..
        } => {
            format!("adding division {division} ({preset}, schedule {schedule})")
        }
        Action::Configure { division, setting } => {
            // The value as the director types it: the setting applied (again, if `t` already
            // has it) to a copy, read back the way the settings form shows it.
            let key = setting.key();
            let mut after = t.clone();
            let value = after
                .apply(a)
                .ok()
                .and_then(|_| after.division(division).ok())
                .or_else(|| t.division(division).ok())
                .and_then(|d| {
                    tilebag_tournament::settings::current(d)
                        .into_iter()
                        .find(|(k, _)| *k == key)
                        .map(|(_, v)| v)
                })
                .unwrap_or_default();
            format!("setting {key} of division {division} to {value}")
        }
        _ => unreachable!("describe_setup is called for the event and its divisions only"),
    }
}

/// A player added, changed, withdrawn, reinstated or ejected.
fn describe_roster_change(t: &Tournament, a: &Action) -> String {
    match a {
        Action::AddPlayer {
            division,
            name,
            rating,
            ..
        } => {
            format!("adding {name} (rating {rating}) to division {division}")
        }
        Action::EditPlayer {
            division, player, ..
        } => {
            format!(
                "changing the details of {} in division {division}",
                named_player(t, division, *player)
            )
        }
        Action::Withdraw {
            division,
            player,
            from_round,
        } => {
            format!(
                "withdrawing {} from round {from_round} of division {division}",
                named_player(t, division, *player)
            )
        }
        Action::KeepTshFields {
            division, player, ..
        } => {
            format!(
                "keeping the tsh fields tilebag does not read for {} in division {division}",
                named_player(t, division, *player)
            )
        }
        Action::Reinstate { division, player } => {
            format!(
                "reinstating {} in division {division}",
                named_player(t, division, *player)
            )
        }
        Action::Eject {
            division,
            player,
            from_round,
        } => {
            format!(
                "ejecting {} from round {from_round} of division {division}",
                named_player(t, division, *player)
            )
        }
        _ => unreachable!("describe_roster_change is called for the players' entries only"),
    }
}

/// Pairings posted, made by hand, swapped or taken back.
fn describe_pairing(t: &Tournament, a: &Action) -> String {
    match a {
        Action::Pair {
            division,
            round,
            method,
            ..
        } => {
            format!("posting the round {round} pairings of division {division} ({method})")
        }
        Action::ManualPair {
            division,
            round,
            first,
            second,
            ..
        } => match second {
            Some(b) => format!(
                "pairing {} with {} by hand in round {round} of division {division}",
                named_player(t, division, *first),
                named_player(t, division, *b)
            ),
            None => format!(
                "giving {} a bye in round {round} of division {division}",
                named_player(t, division, *first)
            ),
        },
        Action::SwapSeats {
            division,
            round,
            player,
        } => format!(
            "swapping who goes first in {}'s round {round} game (division {division})",
            named_player(t, division, *player)
        ),
        Action::Unpair { division, round } => {
            format!("unpairing round {round} of division {division}")
        }
        _ => unreachable!("describe_pairing is called for pairings only"),
    }
}

/// An online game started, or its result reported.
fn describe_online_game(t: &Tournament, a: &Action) -> String {
    let score = tilebag_pages::score;
    match a {
        Action::StartOnline {
            division,
            round,
            player,
            game_id,
        } => format!(
            "starting online game {game_id} for {}'s round {round} game{} (division {division})",
            named_player(t, division, *player),
            board_suffix(t, division, *round, *player)
        ),
        Action::ReportOnline {
            division,
            round,
            player,
            score: a,
            opponent_score: b,
            game_id,
            ending,
        } => format!(
            "the online result of game {game_id}, {} {} in round {round}{}{} (division {division})",
            named_player(t, division, *player),
            score(*a, *b),
            board_suffix(t, division, *round, *player),
            match ending {
                Some(tilebag_tournament::OnlineEnding::Resigned { player }) =>
                    format!(", {} resigned", named_player(t, division, *player)),
                Some(tilebag_tournament::OnlineEnding::Left { player }) =>
                    format!(", {} left the game", named_player(t, division, *player)),
                None => String::new(),
            }
        ),
        _ => unreachable!("describe_online_game is called for online games only"),
    }
}

/// A result: a tally slip, its confirmation, a result set by the director, a spread
/// adjustment.
fn describe_result(t: &Tournament, a: &Action) -> String {
    let score = tilebag_pages::score;
    match a {
        Action::SubmitSlip {
            division,
            round,
            player,
            score: a,
            opponent_score: b,
        } => format!(
            "a tally slip from {}: {} in round {round}{} (division {division})",
            named_player(t, division, *player),
            score(*a, *b),
            board_suffix(t, division, *round, *player)
        ),
        Action::ConfirmSlip {
            division,
            round,
            player,
        } => format!(
            "{} confirming the tally slip of round {round}{} (division {division})",
            named_player(t, division, *player),
            board_suffix(t, division, *round, *player)
        ),
        Action::SetResult {
            division,
            round,
            player,
            result,
            ..
        } => {
            let what = match result {
                ResultEntry::Scores {
                    score: a,
                    opponent_score: b,
                } => {
                    format!(
                        "the result {} for {}",
                        score(*a, *b),
                        named_player(t, division, *player)
                    )
                }
                ResultEntry::LeftInProgress {
                    score: a,
                    opponent_score: b,
                } => format!(
                    "{} leaving the game at {}",
                    named_player(t, division, *player),
                    score(*a, *b)
                ),
                ResultEntry::Forfeit { .. } => {
                    format!("a forfeit by {}", named_player(t, division, *player))
                }
                ResultEntry::DoubleForfeit { .. } => "a double forfeit".into(),
                ResultEntry::Bye { spread } => {
                    format!(
                        "{}'s bye spread of {spread:+}",
                        named_player(t, division, *player)
                    )
                }
                ResultEntry::Clear => "clearing the result".into(),
            };
            format!(
                "{what} in round {round}{} (division {division})",
                board_suffix(t, division, *round, *player)
            )
        }
        Action::AdjustSpread {
            division,
            player,
            round,
            ..
        } => format!(
            "a spread adjustment for {} in round {round} (division {division})",
            named_player(t, division, *player)
        ),
        _ => unreachable!("describe_result is called for results only"),
    }
}

async fn undo_page(
    State(s): State<DirectorState>,
    headers: HeaderMap,
    Path(event): Path<String>,
) -> Response {
    if let Some(r) = guard(&s, &headers, false) {
        return r;
    }
    match newest(&s, &event).await {
        Ok((t, last, version)) => html_response(
            StatusCode::OK,
            tpl::undo_confirm(&event, &t, last, &version),
        ),
        Err(e) => director_error(StatusCode::NOT_FOUND, &e),
    }
}

#[derive(Deserialize, Default)]
struct UndoForm {
    /// The log's version the confirmation was shown for: undo only that action.
    #[serde(default)]
    version: String,
}

async fn undo(
    State(s): State<DirectorState>,
    headers: HeaderMap,
    Path(event): Path<String>,
    form: Result<Form<UndoForm>, FormRejection>,
) -> Response {
    if let Some(r) = guard(&s, &headers, true) {
        return r;
    }
    let version = form.map(|f| f.0.version).unwrap_or_default();
    let here = format!("/td/{}", enc(&event));
    let (_, last, now) = match newest(&s, &event).await {
        Ok(x) => x,
        Err(e) => return back(&here, Err(e)),
    };
    if !version.is_empty() && version != now {
        return back(
            &here,
            Err("the event changed since the confirmation was shown: nothing was undone; look again".into()),
        );
    }
    let words = last.map(|l| l.1).unwrap_or_default();
    let dir = s.director.clone();
    let ev = event.clone();
    match blocking(move || dir.events.open(&ev)?.undo()).await {
        Ok((seq, _)) => back(&here, Ok(format!("Undid action #{seq}: {words}."))),
        Err(e) => back(&here, Err(e)),
    }
}

// ---------------------------------------------------------------------------------------------
// A division.

/// The online game of a pairing, if one was started (the latest).
fn online_of<'a>(
    d: &'a Division,
    round: u32,
    g: &tilebag_tournament::Game,
) -> Option<&'a tilebag_tournament::OnlineGame> {
    d.online
        .iter()
        .rev()
        .find(|o| o.round == round && g.opponent_of(o.first) == Some(o.second))
}

/// Where each online game of a round stands, and how the ended ones ended (by board).
async fn online_cells(
    s: &DirectorState,
    d: &Division,
    round: u32,
) -> (HashMap<u32, OnlineCell>, HashMap<u32, String>) {
    let mut cells = HashMap::new();
    let mut endings = HashMap::new();
    let Some(r) = d.round(round) else {
        return (cells, endings);
    };
    // The division's own book for ending a game early (NASPA V.F, NSA V.E, ...).
    let end_rule = d
        .ruleset()
        .citation(tilebag_core::citation::Rule::DirectorEndsTheGame);
    for g in r.pairings.iter().filter_map(Pairing::game) {
        let Some(o) = online_of(d, round, g) else {
            continue;
        };
        let seat_name = |p: PlayerId| format!("#{p} {}", name_of(d, p));
        let Ok(h) = s.hub.get(&o.game_id).await else {
            cells.insert(
                g.board,
                OnlineCell {
                    game_id: o.game_id.clone(),
                    seats: [
                        (String::new(), String::new()),
                        (String::new(), String::new()),
                    ],
                    status: OnlineStatus::NotFound,
                    end_rule,
                },
            );
            continue;
        };
        let snapshot = h.snapshot().await.ok();
        let paused = snapshot.as_ref().and_then(|x| x.view.table.paused);
        let started = snapshot.as_ref().is_some_and(|x| x.view.table.started);
        let from_it = matches!(&g.result, Some(tilebag_tournament::GameResult::Played {
            source: tilebag_tournament::ResultSource::Online { game_id }, .. }) if *game_id == o.game_id);
        if let Some(res) = snapshot
            .as_ref()
            .and_then(|x| x.view.table.result.as_ref())
            .filter(|_| from_it)
        {
            if let Some(e) = tilebag_pages::ending_words(d, g, o.first, res) {
                endings.insert(g.board, e);
            }
        }
        let status = match (h.is_ended(), paused) {
            (true, _) => OnlineStatus::Ended,
            (false, Some(p)) => match p.called_by {
                Some(seat) => {
                    OnlineStatus::Called(seat_name(if seat == 0 { o.first } else { o.second }))
                }
                None => OnlineStatus::Stopped,
            },
            (false, None) if !started => OnlineStatus::Waiting,
            (false, None) => OnlineStatus::Live,
        };
        cells.insert(
            g.board,
            OnlineCell {
                game_id: o.game_id.clone(),
                seats: [
                    (h.meta.tokens[0].clone(), seat_name(o.first)),
                    (h.meta.tokens[1].clone(), seat_name(o.second)),
                ],
                status,
                end_rule,
            },
        );
    }
    (cells, endings)
}

/// The calls for the director waiting in the division's online games that have no result yet.
async fn calls(s: &DirectorState, d: &Division) -> Vec<Call> {
    let mut out = Vec::new();
    for r in &d.rounds {
        for g in r.pairings.iter().filter_map(Pairing::game) {
            if g.result.is_some() {
                continue;
            }
            let Some(o) = online_of(d, r.number, g) else {
                continue;
            };
            let Ok(h) = s.hub.get(&o.game_id).await else {
                continue;
            };
            if h.is_ended() {
                continue;
            }
            let Ok(snap) = h.snapshot().await else {
                continue;
            };
            if let Some(seat) = snap.view.table.paused.and_then(|p| p.called_by) {
                let p = if seat == 0 { o.first } else { o.second };
                out.push(Call {
                    round: r.number,
                    board: g.board,
                    who: format!("#{p} {}", name_of(d, p)),
                });
            }
        }
    }
    out
}

async fn division_page(
    State(s): State<DirectorState>,
    headers: HeaderMap,
    Path((event, division)): Path<(String, String)>,
    flash_q: Result<Query<Flash>, QueryRejection>,
) -> Response {
    if let Some(r) = guard(&s, &headers, false) {
        return r;
    }
    let f = flash_q.map(|q| q.0).unwrap_or_default();
    let (t, _) = match load(&s, &event).await {
        Ok(x) => x,
        Err(e) => return director_error(StatusCode::NOT_FOUND, &e),
    };
    // Results of online games that ended unheard are collected first.
    let t = if s.director.reporter.collect(&s.hub, &event, &t).await {
        match load(&s, &event).await {
            Ok((t, _)) => t,
            Err(e) => return director_error(StatusCode::NOT_FOUND, &e),
        }
    } else {
        t
    };
    let Ok(d) = t.division(&division) else {
        return director_error(
            StatusCode::NOT_FOUND,
            &format!("event {event:?} has no division {division:?}"),
        );
    };
    let last = d.rounds.len() as u32;
    let shown = f.round.filter(|r| (1..=last).contains(r)).unwrap_or(last);
    let tab = Tab::from_query(f.tab.as_deref(), d);
    let (online, endings) = if tab == Tab::Round {
        online_cells(&s, d, shown).await
    } else {
        Default::default()
    };
    let page = tpl::DivisionPage {
        event: &event,
        t: &t,
        d,
        tab,
        shown,
        flash: &f,
        online,
        endings,
        conflicts: online_results::conflicts(&s.hub, d).await,
        calls: calls(&s, d).await,
        lexicons: s.hub.lexicon_names(),
        default_lexicon: &s.hub.default_lexicon,
    };
    html_response(StatusCode::OK, tpl::division_page(&page))
}

/// The calls for the director now waiting, for the division page's script: `{"calls": [{round,
/// board, who}], "html": "..."}`.
async fn calls_json(
    State(s): State<DirectorState>,
    headers: HeaderMap,
    Path((event, division)): Path<(String, String)>,
) -> Response {
    if !signed_in(&s, &headers) {
        return (StatusCode::FORBIDDEN, "sign in first").into_response();
    }
    let Ok((t, _)) = load(&s, &event).await else {
        return (StatusCode::NOT_FOUND, "no such event").into_response();
    };
    let Ok(d) = t.division(&division) else {
        return (StatusCode::NOT_FOUND, "no such division").into_response();
    };
    let body = calls_body(&calls(&s, d).await);
    ([(header::CACHE_CONTROL, "no-store")], axum::Json(body)).into_response()
}

/// `{"calls": [{round, board, who}], "html": "..."}` (the banner as the page shows it).
fn calls_body(calls: &[Call]) -> serde_json::Value {
    let list: Vec<serde_json::Value> = calls
        .iter()
        .map(|c| serde_json::json!({"round": c.round, "board": c.board, "who": c.who}))
        .collect();
    serde_json::json!({
        "calls": list,
        "html": tpl::calls_banner(calls).into_string(),
    })
}

/// The calls for the director, pushed: a Server-Sent Events stream whose `calls` events carry
/// the same JSON as [`calls_json`], sent when the page opens it and again whenever the calls
/// change (a new call, or one the director has answered), within a second.
async fn calls_stream(
    State(s): State<DirectorState>,
    headers: HeaderMap,
    Path((event, division)): Path<(String, String)>,
) -> Response {
    if !signed_in(&s, &headers) {
        return (StatusCode::FORBIDDEN, "sign in first").into_response();
    }
    match load(&s, &event).await {
        Ok((t, _)) if t.division(&division).is_ok() => {}
        Ok(_) => return (StatusCode::NOT_FOUND, "no such division").into_response(),
        Err(_) => return (StatusCode::NOT_FOUND, "no such event").into_response(),
    }
    let hub = s.hub.clone();
    let idle = s.net.idle_timeout;
    let last: Arc<Mutex<Option<String>>> = Arc::default();
    let ask: crate::push::Ask = Arc::new(move || {
        let (s, event, division, last) = (s.clone(), event.clone(), division.clone(), last.clone());
        Box::pin(async move {
            let (t, _) = load(&s, &event).await.ok()?;
            let d = t.division(&division).ok()?;
            let body = calls_body(&calls(&s, d).await).to_string();
            let mut last = last.lock().unwrap_or_else(|e| e.into_inner());
            if last.as_deref() == Some(body.as_str()) {
                return None;
            }
            *last = Some(body.clone());
            Some(
                axum::response::sse::Event::default()
                    .event("calls")
                    .data(body),
            )
        })
    });
    crate::push::stream(&hub, idle, std::time::Duration::from_secs(1), true, ask).into_response()
}

#[derive(Deserialize)]
struct GameForm {
    game: String,
    #[serde(rename = "do")]
    what: String,
}

/// The director acts on a live online game of the division: stop the clocks (NASPA II.A,
/// WESPA 4.1), restart them, or end the game (NASPA V.F).
async fn game_act(
    State(s): State<DirectorState>,
    Path((event, division)): Path<(String, String)>,
    Posted(f): Posted<GameForm>,
) -> Response {
    let here = div_url(&event, &division);
    let (t, _) = match load(&s, &event).await {
        Ok(x) => x,
        Err(e) => return back(&here, Err(e)),
    };
    let Some(link) = t
        .division(&division)
        .ok()
        .and_then(|d| d.online.iter().find(|o| o.game_id == f.game))
    else {
        return back(
            &here,
            Err(format!(
                "game {:?} is not one of this division's online games",
                f.game
            )),
        );
    };
    let here = format!("{here}?round={}", link.round);
    let (action, said) = match f.what.as_str() {
        "pause" => (tilebag_core::Action::Pause, "Clocks stopped."),
        "resume" => (tilebag_core::Action::Resume, "Clocks restarted."),
        "end" => (
            tilebag_core::Action::DirectorEnd,
            "Game ended by the director.",
        ),
        other => return back(&here, Err(format!("unknown game action {other:?}"))),
    };
    let Ok(h) = s.hub.get(&f.game).await else {
        return back(&here, Err(format!("game {} is not on this server", f.game)));
    };
    match h.director(action).await {
        Ok(Ok(())) => back(&here, Ok(said.to_string())),
        // The database is down: a refusal of its own (503), not a redirect that looks like a
        // page answered normally.
        Ok(Err(r)) if r.code == tilebag_live::protocol::ErrorCode::Unavailable => {
            director_error(StatusCode::SERVICE_UNAVAILABLE, &r.message)
        }
        Ok(Err(r)) => back(&here, Err(format!("refused: {}", r.message))),
        Err(e) => back(&here, Err(e.to_string())),
    }
}

#[derive(Deserialize)]
struct PlayerForm {
    name: String,
    #[serde(default)]
    rating: String,
    #[serde(default)]
    member_id: String,
    /// Team members, comma-separated (a team format).
    #[serde(default)]
    members: String,
}

async fn add_player(
    State(s): State<DirectorState>,
    Path((event, division)): Path<(String, String)>,
    Posted(f): Posted<PlayerForm>,
) -> Response {
    // Back to the Players tab (the page opens on it until a round is paired), where the name
    // field has the focus for the next entry.
    let paired = load(&s, &event)
        .await
        .ok()
        .and_then(|(t, _)| t.division(&division).ok().map(|d| !d.rounds.is_empty()))
        .unwrap_or(false);
    let here = if paired {
        format!("{}?tab=players", div_url(&event, &division))
    } else {
        div_url(&event, &division)
    };
    let name = match clean_text("player's name", &f.name, 40) {
        Ok(n) => n,
        Err(e) => return back(&here, Err(e)),
    };
    let rating = match f.rating.trim() {
        "" => 0,
        v => match v.parse::<i32>() {
            Ok(r) if (0..=3000).contains(&r) => r,
            _ => return back(&here, Err(format!("a rating is 0 to 3000, not {v:?}"))),
        },
    };
    let member_id = Some(f.member_id.trim().to_string()).filter(|m| !m.is_empty());
    let mut members = Vec::new();
    for m in f
        .members
        .split(',')
        .map(str::trim)
        .filter(|m| !m.is_empty())
    {
        match clean_text("team member's name", m, 40) {
            Ok(m) => members.push(m),
            Err(e) => return back(&here, Err(e)),
        }
    }
    let (div, n2) = (division.clone(), name.clone());
    let done = change(&s, &event, None, move |_| {
        Ok(vec![Action::AddPlayer {
            division: div,
            name: n2,
            rating,
            member_id,
            career_games: None,
            members,
        }])
    })
    .await;
    back(
        &here,
        done.map(|t| {
            let n = t.division(&division).map(|d| d.players.len()).unwrap_or(0);
            format!("Added #{n} {name}.")
        }),
    )
}

#[derive(Deserialize)]
struct PairQuery {
    round: u32,
    #[serde(default)]
    method: String,
    #[serde(default)]
    based_on: String,
    /// The log version the preview was computed from (posting only).
    #[serde(default)]
    version: String,
}

fn pair_args(q: &PairQuery) -> Result<(Option<Method>, Option<u32>), String> {
    let method = match q.method.trim() {
        "" => None,
        m => Some(Method::from_code(m).ok_or_else(|| format!("unknown pairing method {m:?}"))?),
    };
    let based_on = match q.based_on.trim() {
        "" => None,
        b => Some(
            b.parse::<u32>()
                .map_err(|_| format!("\"based on\" is a round number, not {b:?}"))?,
        ),
    };
    Ok((method, based_on))
}

async fn pair_preview(
    State(s): State<DirectorState>,
    headers: HeaderMap,
    Path((event, division)): Path<(String, String)>,
    q: Result<Query<PairQuery>, QueryRejection>,
) -> Response {
    if let Some(r) = guard(&s, &headers, false) {
        return r;
    }
    let here = div_url(&event, &division);
    let Ok(Query(q)) = q else {
        return back(&here, Err("name the round to pair".into()));
    };
    let (method, based_on) = match pair_args(&q) {
        Ok(x) => x,
        Err(e) => return back(&here, Err(e)),
    };
    let (t, version) = match load(&s, &event).await {
        Ok(x) => x,
        Err(e) => return director_error(StatusCode::NOT_FOUND, &e),
    };
    let proposed = t
        .pair(&division, q.round, method, based_on)
        .and_then(|(a, notes)| {
            let mut after = t.clone();
            after.apply(&a)?;
            Ok((after, notes))
        });
    let (after, notes) = match proposed {
        Ok(x) => x,
        Err(e) => return back(&here, Err(format!("refused: {e}"))),
    };
    let Some((d, r)) = after
        .division(&division)
        .ok()
        .and_then(|d| Some((d, d.round(q.round)?)))
    else {
        return back(&here, Err(format!("round {} could not be paired", q.round)));
    };
    let mut rows = Table {
        cols: vec![
            ("Board", "board", true),
            ("First", "first", false),
            ("Second", "second", false),
            ("Why first", "first_by", false),
        ],
        rows: Vec::new(),
    };
    for p in &r.pairings {
        rows.rows.push(match p {
            Pairing::Game(g) => vec![
                g.board.to_string(),
                format!("#{} {}", g.first, name_of(d, g.first)),
                format!("#{} {}", g.second, name_of(d, g.second)),
                why_first(&g.first_by),
            ],
            Pairing::Bye { player, spread, .. } => vec![
                String::new(),
                format!("#{player} {}", name_of(d, *player)),
                format!("bye ({spread:+})"),
                String::new(),
            ],
            Pairing::Absent { player, spread } => vec![
                String::new(),
                format!("#{player} {}", name_of(d, *player)),
                format!("withdrawn ({spread:+})"),
                String::new(),
            ],
        });
    }
    rows.rows
        .sort_by_key(|r| r[0].parse::<u32>().unwrap_or(u32::MAX));
    let preview = tpl::Preview {
        event: &event,
        t: &t,
        division: &division,
        round: q.round,
        method: r.method.to_string(),
        based_on_text: based_on_text(r.based_on),
        rows,
        notes,
        form_method: q.method.trim(),
        form_based_on: q.based_on.trim(),
        version: &version,
    };
    html_response(StatusCode::OK, tpl::pair_preview(&preview))
}

async fn pair_post(
    State(s): State<DirectorState>,
    Path((event, division)): Path<(String, String)>,
    Posted(q): Posted<PairQuery>,
) -> Response {
    let here = div_url(&event, &division);
    let (method, based_on) = match pair_args(&q) {
        Ok(x) => x,
        Err(e) => return back(&here, Err(e)),
    };
    let round = q.round;
    // The same state gives the same pairings (they are deterministic given the seed), and the
    // version check makes sure the state is the one previewed.
    let div = division.clone();
    let done = change(&s, &event, Some(q.version.clone()), move |t| {
        Ok(vec![t.pair(&div, round, method, based_on)?.0])
    })
    .await;
    // Online entries (issue 30 item 6): the round's games start at once with the accounts' seats.
    let done = match done {
        Ok(t) if t.division(&division).is_ok_and(|d| d.entries.is_some()) => {
            let reporter = s.director.reporter.clone();
            let started = crate::online_events::start_round(
                &s.hub,
                s.director.events(),
                &reporter,
                &event,
                &division,
                round,
            )
            .await;
            match started {
                Ok(n) => Ok(format!(
                    "Round {round} pairings posted; {n} online games started."
                )),
                Err(e) => Err(format!(
                    "Round {round} pairings posted, but its online games did not start: {e}"
                )),
            }
        }
        other => other.map(|_| format!("Round {round} pairings posted.")),
    };
    back(&format!("{here}?round={round}"), done)
}

/// Online entries (issue 30 item 6): the director opens or closes a division's registration.
async fn entries_post(
    State(s): State<DirectorState>,
    Path((event, division)): Path<(String, String)>,
    Posted(f): Posted<crate::online_events::DirectorEntriesForm>,
) -> Response {
    let here = format!("{}?tab=players", div_url(&event, &division));
    let entry = match crate::online_events::director_change(&f, &s.hub) {
        Ok(c) => c,
        Err(e) => return back(&here, Err(e)),
    };
    let said = match entry {
        tilebag_tournament::entries::EntryChange::Close => "Registration and check-in closed.",
        _ => "Registration is open.",
    };
    let div = division.clone();
    let done = change(&s, &event, None, move |_| {
        Ok(vec![Action::Entry {
            division: div,
            change: entry,
        }])
    })
    .await;
    back(&here, done.map(|_| said.to_string()))
}

#[derive(Deserialize)]
struct ResultForm {
    round: u32,
    player: PlayerId,
    entry: String,
    #[serde(default)]
    score: String,
    #[serde(default)]
    opponent_score: String,
    #[serde(default)]
    note: String,
    /// "1" from a board's Correct form: the result in is to be changed (tsh's EditScore).
    #[serde(default)]
    correct: String,
    /// "1" when the director ticked "unusual scores are right".
    #[serde(default)]
    yes: String,
}

/// The guards of score entry (tsh's Addscore vs EditScore, and its check of unusual scores):
/// a result over one already in is refused with a pointer to the board's Correct; a correction
/// of a game with no result is refused; a score under 100 or over 800, or a spread over 500,
/// is entered only when the director ticked "unusual scores are right".
fn result_guard(d: &Division, g: &tilebag_tournament::Game, f: &ResultForm) -> anyhow::Result<()> {
    let correcting = f.correct == "1";
    let sets = !matches!(f.entry.as_str(), "confirm" | "clear");
    let game = format!(
        "round {}, board {} ({} v {})",
        f.round,
        g.board,
        d.who(g.first),
        d.who(g.second)
    );
    match (&g.result, correcting) {
        (Some(res), false) if sets => anyhow::bail!(
            "{game} already has a result ({}); to change it, use Correct on board {} \
             (tilebag td correct)",
            match res {
                tilebag_tournament::GameResult::Played {
                    first_score,
                    second_score,
                    ..
                } => tilebag_pages::score(*first_score, *second_score),
                other => tilebag_tournament::tables::result_text(d, Some(other), false),
            },
            g.board
        ),
        (None, true) => {
            anyhow::bail!("{game} has no result to correct; enter it in the board's row")
        }
        _ => {}
    }
    let scored = matches!(
        f.entry.as_str(),
        "slip-first" | "slip-second" | "final" | "left-first" | "left-second"
    );
    if scored && f.yes != "1" {
        if let (Ok(a), Ok(b)) = (
            f.score.trim().parse::<i32>(),
            f.opponent_score.trim().parse::<i32>(),
        ) {
            let odd = tilebag_tournament::checks::unusual_scores(a, b);
            if !odd.is_empty() {
                anyhow::bail!(
                    "{game}: {}; check the scores, tick \"unusual scores are right\" and enter them again",
                    odd.join(", ")
                );
            }
        }
    }
    Ok(())
}

fn result_action(
    division: &str,
    g: &tilebag_tournament::Game,
    f: &ResultForm,
) -> anyhow::Result<Action> {
    let score = |v: &str, whose: &str| -> anyhow::Result<i32> {
        v.trim().parse::<i32>().map_err(|_| {
            anyhow::anyhow!("enter {whose} score (a whole number), not {:?}", v.trim())
        })
    };
    let (first, second) = (g.first, g.second);
    let scores = || -> anyhow::Result<(i32, i32)> {
        Ok((
            score(&f.score, "the first player's")?,
            score(&f.opponent_score, "the second player's")?,
        ))
    };
    let set = |player: PlayerId, result: ResultEntry| Action::SetResult {
        division: division.into(),
        round: f.round,
        player,
        result,
        note: f.note.trim().chars().take(200).collect(),
    };
    Ok(match f.entry.as_str() {
        "slip-first" | "slip-second" => {
            let (a, b) = scores()?;
            let (player, score, opponent_score) = if f.entry == "slip-first" {
                (first, a, b)
            } else {
                (second, b, a)
            };
            Action::SubmitSlip {
                division: division.into(),
                round: f.round,
                player,
                score,
                opponent_score,
            }
        }
        "confirm" => Action::ConfirmSlip {
            division: division.into(),
            round: f.round,
            player: f.player,
        },
        "final" => {
            let (a, b) = scores()?;
            set(
                first,
                ResultEntry::Scores {
                    score: a,
                    opponent_score: b,
                },
            )
        }
        "left-first" | "left-second" => {
            let (a, b) = scores()?;
            if f.entry == "left-first" {
                set(
                    first,
                    ResultEntry::LeftInProgress {
                        score: a,
                        opponent_score: b,
                    },
                )
            } else {
                set(
                    second,
                    ResultEntry::LeftInProgress {
                        score: b,
                        opponent_score: a,
                    },
                )
            }
        }
        "forfeit-first" => set(first, ResultEntry::Forfeit { spread: None }),
        "forfeit-second" => set(second, ResultEntry::Forfeit { spread: None }),
        "double-forfeit" => set(first, ResultEntry::DoubleForfeit { spread: None }),
        "clear" => set(first, ResultEntry::Clear),
        other => anyhow::bail!("unknown kind of result {other:?}"),
    })
}

async fn enter_result(
    State(s): State<DirectorState>,
    Path((event, division)): Path<(String, String)>,
    Posted(f): Posted<ResultForm>,
) -> Response {
    let here = div_url(&event, &division);
    let round = f.round;
    let player = f.player;
    let correcting = f.correct == "1";
    let div = division.clone();
    let done = change(&s, &event, None, move |t| {
        let d = t.division(&div)?;
        let g = d
            .player_round(f.round, f.player)
            .and_then(|pr| pr.pairing.game().cloned())
            .ok_or_else(|| anyhow::anyhow!("#{} has no game in round {}", f.player, f.round))?;
        result_guard(d, &g, &f)?;
        Ok(vec![result_action(&div, &g, &f)?])
    })
    .await;
    let here_round = format!("{here}?round={round}");
    let said = done.map(|t| what_was_recorded(&t, &division, round, player, correcting));
    back(&here_round, said)
}

/// What the director's entry recorded, read back from the event as it now stands (issue 29
/// item 3: never "Result entered." for a slip that still awaits a confirmation and stays out
/// of the standings).
fn what_was_recorded(
    t: &Tournament,
    division: &str,
    round: u32,
    player: PlayerId,
    correcting: bool,
) -> String {
    let Some((d, g)) = t.division(division).ok().and_then(|d| {
        d.player_round(round, player)
            .and_then(|pr| pr.pairing.game().cloned())
            .map(|g| (d, g))
    }) else {
        return "Saved.".into();
    };
    let game = format!(
        "Round {round}, board {} ({} v {})",
        g.board,
        d.who(g.first),
        d.who(g.second)
    );
    match (&g.result, &g.slip) {
        (Some(_), _) => format!(
            "{game}: {} {}; it counts in the standings.",
            if correcting {
                "corrected to"
            } else {
                "recorded as final,"
            },
            tilebag_pages::result_words(d, &g, None)
        ),
        (None, Some(slip)) => format!(
            "{game}: a tally slip from {} ({}) is recorded and awaits {}'s confirmation; \
             it is not in the standings until then. To record the result yourself, choose \
             \u{201c}final (director)\u{201d}.",
            d.who(slip.submitted_by),
            tilebag_pages::score(slip.first_score, slip.second_score),
            g.opponent_of(slip.submitted_by)
                .map_or_else(|| "the opponent".to_string(), |o| d.who(o)),
        ),
        (None, None) => format!("{game}: no result now."),
    }
}

#[derive(Deserialize)]
struct RoundForm {
    round: u32,
    /// The lexicon the games judge with (default: the server's).
    #[serde(default)]
    lexicon: String,
}

async fn start_online(
    State(s): State<DirectorState>,
    Path((event, division)): Path<(String, String)>,
    Posted(RoundForm { round, lexicon }): Posted<RoundForm>,
) -> Response {
    let here = div_url(&event, &division);
    let here = format!("{here}?round={round}");
    let lexicon = Some(lexicon.trim().to_string()).filter(|l| !l.is_empty());
    if let Some(l) = &lexicon {
        if !s.hub.lexicon_names().contains(l) {
            return back(&here, Err(format!("the server has no lexicon {l:?}")));
        }
    }
    let (t, _) = match load(&s, &event).await {
        Ok(x) => x,
        Err(e) => return back(&here, Err(e)),
    };
    let Ok(d) = t.division(&division) else {
        return back(&here, Err(format!("no division {division:?}")));
    };
    let Some(r) = d.round(round) else {
        return back(&here, Err(format!("round {round} has not been paired")));
    };
    // Online entries (issue 30 item 6): the games go to the entrants' accounts, as when the
    // round was posted (this button starts those that did not start then).
    if d.entries.is_some() {
        let reporter = s.director.reporter.clone();
        let started = crate::online_events::start_round(
            &s.hub,
            s.director.events(),
            &reporter,
            &event,
            &division,
            round,
        )
        .await;
        return back(
            &here,
            match started {
                Ok(0) => Err("every game of the round between two entrants has a result, a tally slip waiting or an online game already".into()),
                Ok(n) => Ok(format!("Started {n} online games.")),
                Err(e) => Err(e),
            },
        );
    }
    let mut actions = Vec::new();
    for g in r.pairings.iter().filter_map(Pairing::game) {
        // A board with a result, a tally slip waiting or a game already gets no game: its
        // result would have nowhere to go.
        if g.result.is_some() || g.slip.is_some() || online_of(d, round, g).is_some() {
            continue;
        }
        let name = |p: PlayerId| {
            let n = name_of(d, p);
            let n: String = n.chars().filter(|c| !c.is_control()).take(40).collect();
            if n.trim().is_empty() {
                format!("#{p}")
            } else {
                n
            }
        };
        let made = s
            .hub
            .create(NewGame {
                preset: Some(d.preset.clone()),
                rules: d.config.rules.clone(),
                lexicon: lexicon.clone(),
                initial_ms: None,
                names: [name(g.first), name(g.second)],
                seed: None,
                public: false,
                creator: None,
                bot: None,
            })
            .await;
        match made {
            Ok(h) => actions.push(Action::StartOnline {
                division: division.clone(),
                round,
                player: g.first,
                game_id: h.meta.id.clone(),
            }),
            Err(e) if e.code() == tilebag_live::protocol::ErrorCode::Unavailable => {
                return director_error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    &format!("could not start a game: {e}"),
                )
            }
            Err(e) => return back(&here, Err(format!("could not start a game: {e}"))),
        }
    }
    if actions.is_empty() {
        return back(
            &here,
            Err("every game of the round has a result, a tally slip waiting or an online game already".into()),
        );
    }
    let n = actions.len();
    let ids: Vec<String> = actions
        .iter()
        .filter_map(|a| match a {
            Action::StartOnline { game_id, .. } => Some(game_id.clone()),
            _ => None,
        })
        .collect();
    let done = change(&s, &event, None, move |_| Ok(actions)).await;
    if done.is_ok() {
        s.director.reporter.link(&event, &division, ids);
    }
    back(&here, done.map(|_| format!("Started {n} online games.")))
}

#[derive(Deserialize)]
struct ExportQuery {
    round: Option<u32>,
}

/// The rounds the schedule fixes beyond those posted (a round robin's), paired ahead on a copy
/// of the event; it stops at the first round whose pairing depends on results.
fn coming_rounds(t: &Tournament, division: &str) -> Vec<Round> {
    let mut copy = t.clone();
    let mut out = Vec::new();
    let Ok(d) = t.division(division) else {
        return out;
    };
    let (first, total) = (d.rounds.len() as u32 + 1, d.total_rounds());
    for n in first..=total {
        let Ok((a, _)) = copy.pair(division, n, None, None) else {
            break;
        };
        match &a {
            Action::Pair { method, .. } if !method.uses_standings() => {}
            _ => break,
        }
        if copy.apply(&a).is_err() {
            break;
        }
        match copy.division(division).ok().and_then(|d| d.round(n)) {
            Some(r) => out.push(r.clone()),
            None => break,
        }
    }
    out
}

async fn export(
    State(s): State<DirectorState>,
    headers: HeaderMap,
    Path((event, division, what)): Path<(String, String, String)>,
    q: Result<Query<ExportQuery>, QueryRejection>,
) -> Response {
    if let Some(r) = guard(&s, &headers, false) {
        return r;
    }
    let t = match load_division(&s, &event, &division).await {
        Ok(t) => t,
        Err(r) => return r,
    };
    let Ok(d) = t.division(&division) else {
        return director_error(StatusCode::NOT_FOUND, "no such division");
    };
    let last = d.rounds.len() as u32;
    let asked = q.ok().and_then(|q| q.0.round);
    let round = asked.unwrap_or(last);
    let paired = (1..=last).contains(&round);
    const HTML: &str = "text/html; charset=utf-8";
    const TEXT: &str = "text/plain; charset=utf-8";
    let (through, _) = tilebag_pages::standings_through(d);
    if let Some((name, ext)) = what.rsplit_once('.') {
        if ext == "html" || ext == "csv" {
            if let Some(r) = report_export(&t, d, &event, name, ext, asked.unwrap_or(through)) {
                return r;
            }
        }
    }
    let (ct, body, file): (&str, Result<String, String>, Option<String>) = match what.as_str() {
        "pairings.html" if paired => (
            HTML,
            Ok(printouts::pairings(&t, d, round).into_string()),
            None,
        ),
        "pairings-by-name.html" if paired => (
            HTML,
            Ok(printouts::pairings_by_name(&t, d, round).into_string()),
            None,
        ),
        "slips.html" if paired => (
            HTML,
            Ok(printouts::tally_slips(&t, d, round).into_string()),
            None,
        ),
        "pairings.html" | "slips.html" | "pairings-by-name.html" => (
            TEXT,
            Err(format!("round {round} has not been paired")),
            None,
        ),
        "standings.html" => (HTML, Ok(printouts::standings(&t, d).into_string()), None),
        "standings.csv" => (
            "text/csv; charset=utf-8",
            Ok(report::standings_csv(d, through)),
            Some(format!("{}-standings.csv", event)),
        ),
        "scorecards.html" => (
            HTML,
            Ok(printouts::scorecards(&t, d, &coming_rounds(&t, &division)).into_string()),
            None,
        ),
        "division.t" => (
            TEXT,
            tsh::write_t(d).map_err(|e| e.to_string()),
            Some(tsh::file_name(&d.name)),
        ),
        "event.tsh" => (
            TEXT,
            tsh::write_tsh_archive(&t).map_err(|e| e.to_string()),
            Some(format!("{event}.tsh")),
        ),
        "aupair.tou" => (
            TEXT,
            tou::write_tou(&t, &d.name).map_err(|e| e.to_string()),
            Some(format!("{event}.TOU")),
        ),
        // Rating submission (`tilebag td submit`): only when every paired round is complete.
        "submit-naspa.t" | "submit-wespa.tou" => {
            if let Some(why) = tilebag_tournament::checks::submission_refusal(d) {
                return director_error(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    &format!("{why}; nothing to submit yet (the Reports tab lists the games still missing)"),
                );
            }
            if what == "submit-naspa.t" {
                (
                    TEXT,
                    tsh::write_t(d).map_err(|e| e.to_string()),
                    Some(tsh::file_name(&d.name)),
                )
            } else {
                (
                    TEXT,
                    tou::write_tou(&t, &d.name).map_err(|e| e.to_string()),
                    Some(format!(
                        "{}.TOU",
                        tsh::file_name(&d.name).trim_end_matches(".t")
                    )),
                )
            }
        }
        _ => return director_error(StatusCode::NOT_FOUND, &format!("no export named {what:?}")),
    };
    match body {
        Ok(b) => download(ct, b, file.as_deref()),
        Err(e) => director_error(StatusCode::UNPROCESSABLE_ENTITY, &e),
    }
}

/// A report of the tournament crate's tables (`NAME.html` for the wall, `NAME.csv`) through
/// round `through` (the pairings by player: that round); `None` when `name` is no report.
fn report_export(
    t: &Tournament,
    d: &Division,
    event: &str,
    name: &str,
    ext: &str,
    through: u32,
) -> Option<Response> {
    use tilebag_tournament::prizes;
    let last = d.rounds.len() as u32;
    let through = through.min(last);
    let (table, title, id) = match name {
        "prizes" => (
            prizes::prize_table(d, through),
            format!("Prizes after round {through}"),
            "prizes",
        ),
        "alpha" => {
            if !(1..=last).contains(&through) {
                return Some(director_error(
                    StatusCode::UNPROCESSABLE_ENTITY,
                    &format!("round {through} has not been paired"),
                ));
            }
            (
                prizes::alpha_pairings_table(d, through),
                format!("Round {through} pairings by player"),
                "alpha",
            )
        }
        "wallchart" => (
            prizes::wallchart_table(d, through),
            format!("Wall chart through round {through}"),
            "wallchart",
        ),
        "roster" => (prizes::roster_table(d), "Roster".to_string(), "roster"),
        "performance" => (
            prizes::performance_by_round_table(d, through),
            format!("Performance ratings after each round through round {through}"),
            "performance",
        ),
        "high-wins" => (
            prizes::high_wins_table(d, through, 20),
            format!("High wins through round {through}"),
            "high-wins",
        ),
        "high-losses" => (
            prizes::high_losses_table(d, through, 20),
            format!("High losses through round {through}"),
            "high-losses",
        ),
        "upsets" => (
            prizes::upsets_table(d, through, 20),
            format!("Upsets through round {through}"),
            "upsets",
        ),
        "rating-by-round" => (
            prizes::rating_by_round_table(d, through),
            format!("Rating estimates after each round through round {through}"),
            "rating-by-round",
        ),
        _ => return None,
    };
    Some(if ext == "csv" {
        download(
            "text/csv; charset=utf-8",
            table.csv(),
            Some(&format!("{event}-{}-{name}.csv", d.name)),
        )
    } else {
        html_response(StatusCode::OK, printouts::report(t, d, &title, &table, id))
    })
}

/// The director's printable list of every player's link (keys are made on first view).
async fn links_page(
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
    let Ok(d) = t.division(&division) else {
        return director_error(StatusCode::NOT_FOUND, "no such division");
    };
    let players: Vec<PlayerId> = d.players.iter().map(|p| p.id).collect();
    let dir = s.director.clone();
    let (ev, div) = (event.clone(), division.clone());
    let keys = blocking(move || {
        let mut f = dir.events.open(&ev)?;
        players
            .iter()
            .map(|id| f.player_key(&div, *id, tilebag_live::ids::token))
            .collect::<anyhow::Result<Vec<String>>>()
    })
    .await;
    let keys = match keys {
        Ok(k) => k,
        Err(e) => return director_error(StatusCode::INTERNAL_SERVER_ERROR, &e),
    };
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    html_response(StatusCode::OK, tpl::links_page(&event, &t, d, host, &keys))
}

// ---------------------------------------------------------------------------------------------
// Changes by hand.

#[derive(Deserialize)]
struct ActForm {
    #[serde(rename = "do")]
    what: String,
    #[serde(default)]
    round: String,
    #[serde(default)]
    player: String,
    #[serde(default)]
    opponent: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    amount: String,
    #[serde(default)]
    play_score: String,
    #[serde(default)]
    note: String,
    /// A division setting (`do=set`).
    #[serde(default)]
    key: String,
    #[serde(default)]
    value: String,
    /// A player's new name and rating (`do=edit-player`).
    #[serde(default)]
    name: String,
    #[serde(default)]
    rating: String,
}

fn number<T: std::str::FromStr>(what: &str, v: &str) -> anyhow::Result<T> {
    v.trim()
        .parse::<T>()
        .map_err(|_| anyhow::anyhow!("{what} must be a whole number, not {:?}", v.trim()))
}

fn hand_action(t: &Tournament, division: &str, f: &ActForm) -> anyhow::Result<(Action, String)> {
    let round = || number::<u32>("the round", &f.round);
    let player = || number::<PlayerId>("the player", &f.player);
    let division = division.to_string();
    Ok(match f.what.as_str() {
        "manual" => {
            let (round, a) = (round()?, player()?);
            let b = match f.opponent.trim() {
                o if o.eq_ignore_ascii_case("bye") => None,
                o => Some(number::<PlayerId>("the opponent (a number or `bye`)", o)?),
            };
            let what = match b {
                Some(b) => format!("#{a} and #{b} paired in round {round}."),
                None => format!("#{a} has a bye in round {round}."),
            };
            (t.manual_pair(&division, round, a, b)?, what)
        }
        "swap" => {
            let (round, player) = (round()?, player()?);
            (
                Action::SwapSeats {
                    division,
                    round,
                    player,
                },
                format!("Seats swapped in #{player}'s round {round} game."),
            )
        }
        "unpair" => {
            let round = round()?;
            (
                Action::Unpair { division, round },
                format!("Round {round} unpaired."),
            )
        }
        "withdraw" => {
            let (from_round, player) = (round()?, player()?);
            (
                Action::Withdraw {
                    division,
                    player,
                    from_round,
                },
                format!("#{player} withdrawn from round {from_round}."),
            )
        }
        "eject" => {
            let (from_round, player) = (round()?, player()?);
            (
                Action::Eject {
                    division,
                    player,
                    from_round,
                },
                format!("#{player} ejected from round {from_round} (WESPA 6.2.4)."),
            )
        }
        "reinstate" => {
            let player = player()?;
            (
                Action::Reinstate { division, player },
                format!("#{player} reinstated."),
            )
        }
        "adjust" => {
            let (round, player) = (round()?, player()?);
            let amount = match f.amount.trim() {
                "" => None,
                a => Some(number::<i32>("the amount", a)?),
            };
            let reason = match f.reason.as_str() {
                "drawing-out-of-order" => tilebag_tournament::AdjustmentReason::DrawingOutOfOrder,
                "erroneous-adjudication" => {
                    tilebag_tournament::AdjustmentReason::ErroneousAdjudication {
                        play_score: number("the play's score", &f.play_score)?,
                    }
                }
                "other" => {
                    if amount.is_none() {
                        anyhow::bail!("an `other` adjustment needs an amount");
                    }
                    tilebag_tournament::AdjustmentReason::Other {
                        note: f.note.trim().chars().take(200).collect(),
                    }
                }
                r => anyhow::bail!("unknown adjustment reason {r:?}"),
            };
            (
                Action::AdjustSpread {
                    division,
                    player,
                    round,
                    reason,
                    amount,
                },
                format!("Spread adjusted for #{player} in round {round}."),
            )
        }
        "set" => {
            let d = t.division(&division)?;
            let setting =
                Setting::parse(d, f.key.trim(), f.value.trim()).map_err(|e| anyhow::anyhow!(e))?;
            (
                Action::Configure { division, setting },
                format!("{} set to {}.", f.key.trim(), f.value.trim()),
            )
        }
        "edit-player" => {
            let player = player()?;
            let name = match f.name.trim() {
                "" => None,
                n => Some(clean_text("player's name", n, 40).map_err(|e| anyhow::anyhow!(e))?),
            };
            let rating = match f.rating.trim() {
                "" => None,
                r => Some(number::<i32>("the rating", r)?),
            };
            if name.is_none() && rating.is_none() {
                anyhow::bail!("give a new name or a new rating");
            }
            (
                Action::EditPlayer {
                    division,
                    player,
                    name,
                    rating,
                    member_id: None,
                },
                format!("#{player} changed."),
            )
        }
        other => anyhow::bail!("unknown change {other:?}"),
    })
}

async fn director_act(
    State(s): State<DirectorState>,
    Path((event, division)): Path<(String, String)>,
    Posted(f): Posted<ActForm>,
) -> Response {
    let tab = match f.what.as_str() {
        "withdraw" | "eject" | "reinstate" | "edit-player" => "?tab=players",
        "adjust" => "?tab=standings",
        "set" => "?tab=settings",
        _ => "",
    };
    let here = format!("{}{tab}", div_url(&event, &division));
    let div = division.clone();
    let said = Arc::new(Mutex::new(String::new()));
    let said2 = said.clone();
    let done = change(&s, &event, None, move |t| {
        let (a, what) = hand_action(t, &div, &f)?;
        *said2.lock().expect("said lock") = what;
        Ok(vec![a])
    })
    .await;
    let what = said.lock().expect("said lock").clone();
    back(&here, done.map(|_| what))
}
