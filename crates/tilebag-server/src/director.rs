//! The director's pages (`/td`): create an event, add divisions and players, pair a round
//! (preview, then post), enter and confirm results, start a round's games online, undo, show
//! standings and print or export everything. Pages are plain HTML forms rendered here (no
//! script), so they work on any browser a tournament room has.
//!
//! Each event is an event file of `tilebag-events` in the events folder, the same file
//! `tilebag td` works on: a director may use the pages and the terminal side by side, and every
//! change is an action in the event's log.
//!
//! Access: the pages need the director key ([`crate::ServeConfig::director_key`]); signing in
//! sets an `HttpOnly`, `SameSite=Strict` cookie, and a form posted from another site (an `Origin`
//! that is not this server) is refused.
//!
//! Online games: "Start online games" creates a server game for each pairing of a round that has
//! no result yet and logs a `StartOnline` action linking it. When a linked game ends, its final
//! scores are reported into the event (`ReportOnline`); at startup, and whenever a division page
//! is shown, linked games that ended while nothing was listening are reported too.

use crate::ids::same_secret;
use crate::live::{Hub, NewGame};
use axum::extract::rejection::{FormRejection, QueryRejection};
use axum::extract::{Form, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::Router;
use serde::Deserialize;
use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::{Arc, Mutex};
use tilebag_core::Ruleset;
use tilebag_events::{EventFile, EventsDir};
use tilebag_tournament::report::{self, esc};
use tilebag_tournament::tables::{
    firsts_table, name_of, players_table, ratings_table, result_text, standings_table, why_first,
    Table,
};
use tilebag_tournament::{
    tou, tsh, Action, Division, Method, Pairing, PlayerId, ResultEntry, Setting, Tournament,
};
use tokio::sync::mpsc;

/// The cookie that carries the director key.
const COOKIE: &str = "tilebag_director";

/// A game that ended: its id and final scores in seat order.
pub(crate) type Ended = (String, [i32; 2]);

/// The director's side of the server.
pub(crate) struct Director {
    events: EventsDir,
    key: String,
    /// Online game id → (event id, division), for reporting results.
    links: Mutex<HashMap<String, (String, String)>>,
    /// Recent wrong keys, by address and in all, to slow down guessing.
    failures: Mutex<Failures>,
}

#[derive(Default)]
struct Failures {
    by_address: HashMap<std::net::IpAddr, Vec<std::time::Instant>>,
    all: std::collections::VecDeque<std::time::Instant>,
}

/// The outcome of checking a key someone presented (a form or a cookie).
pub(crate) enum KeyCheck {
    Right,
    Wrong,
    /// Not checked: too many wrong keys lately (the reason, for the page).
    Throttled(&'static str),
}

/// Wrong director keys allowed from all addresses together per [`LOGIN_WINDOW`]: past it every
/// check is refused until the window has passed (guessing from many addresses).
const GLOBAL_TRIES: usize = 100;

/// Wrong director keys allowed from one address per [`LOGIN_WINDOW`].
const LOGIN_TRIES: usize = 10;
const LOGIN_WINDOW: std::time::Duration = std::time::Duration::from_secs(60);

#[derive(Clone)]
pub(crate) struct DirectorState {
    pub(crate) director: Arc<Director>,
    pub(crate) hub: Arc<Hub>,
}

impl Director {
    pub(crate) fn events(&self) -> &EventsDir {
        &self.events
    }

    /// Opens the events folder and indexes every linked online game.
    /// The director's side over the events folder (indexed by [`Director::collect_all`]).
    pub(crate) fn new(events: EventsDir, key: String) -> Director {
        Director {
            events,
            key,
            links: Mutex::new(HashMap::new()),
            failures: Mutex::new(Failures::default()),
        }
    }

    /// Checks a key presented from `ip`, whatever carried it. After [`LOGIN_TRIES`] wrong keys
    /// from one address, or [`GLOBAL_TRIES`] from all, within [`LOGIN_WINDOW`], no key is checked
    /// (not even the right one) until the window has passed.
    pub(crate) fn check_key(&self, ip: std::net::IpAddr, key: &str) -> KeyCheck {
        let now = std::time::Instant::now();
        let mut f = self.failures.lock().expect("failures lock");
        f.by_address.retain(|_, v| {
            v.retain(|t| now.duration_since(*t) < LOGIN_WINDOW);
            !v.is_empty()
        });
        while f
            .all
            .front()
            .is_some_and(|t| now.duration_since(*t) >= LOGIN_WINDOW)
        {
            f.all.pop_front();
        }
        if f.by_address
            .get(&ip)
            .is_some_and(|v| v.len() >= LOGIN_TRIES)
        {
            return KeyCheck::Throttled(
                "Too many wrong keys from this address: wait a minute and try again.",
            );
        }
        if f.all.len() >= GLOBAL_TRIES {
            return KeyCheck::Throttled(
                "Too many wrong keys from everywhere lately (someone is guessing): wait a minute \
                 and try again.",
            );
        }
        if same_secret(key, &self.key) {
            return KeyCheck::Right;
        }
        f.by_address.entry(ip).or_default().push(now);
        f.all.push_back(now);
        KeyCheck::Wrong
    }

    /// Whether a server game is linked to a pairing of an event.
    pub(crate) fn is_linked(&self, game_id: &str) -> bool {
        self.links.lock().expect("links lock").contains_key(game_id)
    }

    fn index(&self, event: &str, t: &Tournament) {
        let mut links = self.links.lock().expect("links lock");
        for d in &t.divisions {
            for o in &d.online {
                links.insert(o.game_id.clone(), (event.to_string(), d.name.clone()));
            }
        }
    }

    /// Reports a finished online game into its event, if it belongs to one. Returns what was
    /// done, for the log.
    pub(crate) fn report(&self, game_id: &str, scores: [i32; 2]) -> Option<Result<(), String>> {
        let (event, division) = self.links.lock().expect("links lock").get(game_id)?.clone();
        let done = self.events.open(&event).and_then(|mut f| {
            f.append(|t| {
                let d = t.division(&division)?;
                let Some(link) = d.online.iter().find(|o| o.game_id == game_id) else {
                    anyhow::bail!("game {game_id} is no longer linked to a pairing");
                };
                Ok(vec![Action::ReportOnline {
                    division: division.clone(),
                    round: link.round,
                    game_id: game_id.to_string(),
                    player: link.first,
                    score: scores[0],
                    opponent_score: scores[1],
                }])
            })
        });
        Some(
            done.map(|_| ())
                .map_err(|e| format!("event {event}, division {division}: game {game_id}: {e:#}")),
        )
    }

    /// Receives ended games from the live games and reports them, until the server stops.
    pub(crate) fn spawn_reporter(self: &Arc<Self>, mut rx: mpsc::UnboundedReceiver<Ended>) {
        let me = self.clone();
        tokio::spawn(async move {
            while let Some((id, scores)) = rx.recv().await {
                let me = me.clone();
                let done = tokio::task::spawn_blocking(move || me.report(&id, scores)).await;
                if let Ok(Some(Err(e))) = done {
                    eprintln!("tilebag-server: could not report an online result: {e}");
                }
            }
        });
    }

    /// Reports every linked game of the division that has ended but whose pairing has no
    /// result (a game that ended while the server was down, or before a report could be written).
    async fn collect(self: &Arc<Self>, hub: &Hub, event: &str, t: &Tournament) -> bool {
        let mut reported = false;
        for d in &t.divisions {
            for o in &d.online {
                let waiting = d
                    .player_round(o.round, o.first)
                    .and_then(|pr| pr.pairing.game().cloned())
                    .is_some_and(|g| {
                        g.result.is_none() && g.opponent_of(o.first) == Some(o.second)
                    });
                if !waiting {
                    continue;
                }
                if let Some(scores) = hub.ended_scores(&o.game_id).await {
                    self.links
                        .lock()
                        .expect("links lock")
                        .insert(o.game_id.clone(), (event.to_string(), d.name.clone()));
                    let (me, id) = (self.clone(), o.game_id.clone());
                    match tokio::task::spawn_blocking(move || me.report(&id, scores)).await {
                        Ok(Some(Ok(()))) => reported = true,
                        Ok(Some(Err(e))) => {
                            eprintln!("tilebag-server: could not report an online result: {e}")
                        }
                        _ => {}
                    }
                }
            }
        }
        reported
    }

    /// At startup: index every linked online game, and report those that ended while the
    /// server was down.
    pub(crate) async fn collect_all(self: &Arc<Self>, hub: &Hub) {
        let Ok(list) = self.events.list() else { return };
        for e in list {
            if let Ok(t) = self.events.open_read(&e.id).and_then(|f| f.load()) {
                self.index(&e.id, &t);
                self.collect(hub, &e.id, &t).await;
            }
        }
    }
}

pub(crate) fn router(director: Arc<Director>, hub: Arc<Hub>) -> Router {
    Router::new()
        .route("/td", get(home))
        .route("/td/", get(home))
        .route("/td/login", post(login))
        .route("/td/logout", post(logout))
        .route("/td/new", post(new_event))
        .route("/td/{event}", get(event_page))
        .route("/td/{event}/division", post(add_division))
        .route("/td/{event}/undo", post(undo))
        .route("/td/{event}/d/{division}", get(division_page))
        .route("/td/{event}/d/{division}/player", post(add_player))
        .route(
            "/td/{event}/d/{division}/pair",
            get(pair_preview).post(pair_post),
        )
        .route("/td/{event}/d/{division}/result", post(enter_result))
        .route("/td/{event}/d/{division}/online", post(start_online))
        .route("/td/{event}/d/{division}/game", post(game_act))
        .route("/td/{event}/d/{division}/act", post(director_act))
        .route("/td/{event}/d/{division}/export/{what}", get(export))
        .route(
            "/td/{event}/d/{division}/links",
            get(crate::player_pages::links_page),
        )
        .route("/p/{event}/{key}", get(crate::player_pages::player_page))
        .route(
            "/p/{event}/{key}/slip",
            post(crate::player_pages::submit_slip),
        )
        .route(
            "/p/{event}/{key}/confirm",
            post(crate::player_pages::confirm_slip),
        )
        .route("/events/{event}", get(public_event))
        .route("/events/{event}/{division}", get(public_division))
        .layer(axum::middleware::from_fn_with_state(
            director.clone(),
            throttle_cookie,
        ))
        .with_state(DirectorState { director, hub })
}

/// Every request carrying the director's cookie has its key checked here, under the same
/// throttle as the sign-in form: a wrong one counts as a wrong try, and while the throttle holds
/// the request is refused (429) before any page looks at the cookie.
async fn throttle_cookie(
    State(director): State<Arc<Director>>,
    axum::extract::ConnectInfo(peer): axum::extract::ConnectInfo<std::net::SocketAddr>,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    if let Some(key) = cookie_key(req.headers()) {
        if let KeyCheck::Throttled(why) = director.check_key(peer.ip(), &key) {
            return login_page(StatusCode::TOO_MANY_REQUESTS, Some(why));
        }
    }
    next.run(req).await
}

// ---------------------------------------------------------------------------------------------
// Access.

fn cookie_key(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|c| c.trim().split_once('='))
        .find(|(k, _)| *k == COOKIE)
        .map(|(_, v)| v.to_string())
}

fn signed_in(s: &DirectorState, headers: &HeaderMap) -> bool {
    cookie_key(headers).is_some_and(|k| same_secret(&k, &s.director.key))
}

/// A form must come from this server's own pages: an `Origin` naming another host is refused.
pub(crate) fn same_origin(headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let origin_host = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"))
        .unwrap_or("");
    !host.is_empty() && origin_host == host
}

/// Why a request is refused before it does anything.
pub(crate) fn guard(s: &DirectorState, headers: &HeaderMap, posting: bool) -> Option<Response> {
    if posting && !same_origin(headers) {
        return Some(error_page(
            StatusCode::FORBIDDEN,
            "This form was posted from another site, so it was refused.",
        ));
    }
    if !signed_in(s, headers) {
        return Some(if posting {
            error_page(
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
        return error_page(
            StatusCode::FORBIDDEN,
            "This form was posted from another site.",
        );
    }
    let Ok(Form(f)) = form else {
        return login_page(StatusCode::BAD_REQUEST, Some("Enter the director key."));
    };
    let key = f.key.trim();
    match s.director.check_key(peer.ip(), key) {
        KeyCheck::Right => {}
        KeyCheck::Throttled(why) => return login_page(StatusCode::TOO_MANY_REQUESTS, Some(why)),
        KeyCheck::Wrong => {
            // The form again, with the reason (a 200, as a page re-shown to a person).
            return login_page(StatusCode::OK, Some("That is not the director key."));
        }
    }
    let mut r = Redirect::to("/td").into_response();
    if let Ok(v) = HeaderValue::from_str(&format!(
        "{COOKIE}={key}; Path=/td; HttpOnly; SameSite=Strict"
    )) {
        r.headers_mut().insert(header::SET_COOKIE, v);
    }
    r
}

async fn logout(headers: HeaderMap) -> Response {
    if !same_origin(&headers) {
        return error_page(
            StatusCode::FORBIDDEN,
            "This form was posted from another site.",
        );
    }
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
// Page pieces.

/// Percent-encodes a path segment or query value.
pub(crate) fn enc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

pub(crate) fn page(title: &str, crumbs: &[(String, String)], body: &str) -> String {
    let mut nav = String::from("<a href=\"/td\">Events</a>");
    for (href, text) in crumbs {
        let _ = write!(nav, " › <a href=\"{}\">{}</a>", esc(href), esc(text));
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<title>{t} · tilebag director</title><link rel=\"stylesheet\" href=\"/assets/style.css\">\
<style>main.td{{max-width:72rem;margin:0 auto;padding:1rem}}main.td section{{background:var(--card);\
border:1px solid var(--line);border-radius:6px;padding:.75rem 1rem;margin:0 0 1rem}}\
main.td table{{border-collapse:collapse;margin:.25rem 0}}main.td th,main.td td{{border-bottom:1px solid var(--line);\
padding:.25rem .5rem;text-align:left;vertical-align:top}}main.td td.n{{text-align:right}}\
main.td form.inline{{display:inline}}main.td input[type=number]{{width:5.5em}}\
main.td .flash{{padding:.5rem .75rem;border-radius:4px;margin:0 0 1rem}}\
main.td .ok{{background:#e3f3e7;color:var(--ok)}}main.td .err{{background:#f8e1e1;color:var(--danger)}}\
main.td nav{{margin:0 0 .75rem}}main.td .call{{color:var(--danger)}}main.td label{{margin-right:.75rem}}</style></head>\
<body><main class=\"td\"><nav>{nav}</nav><h1>{t}</h1>\n{body}\n\
<form method=\"post\" action=\"/td/logout\"><button>Sign out</button></form></main></body></html>\n",
        t = esc(title),
    )
}

pub(crate) fn html(status: StatusCode, text: String) -> Response {
    (status, [(header::CACHE_CONTROL, "no-store")], Html(text)).into_response()
}

pub(crate) fn error_page(status: StatusCode, message: &str) -> Response {
    html(
        status,
        page(
            "Refused",
            &[],
            &format!("<p class=\"flash err\" id=\"error\">{}</p>", esc(message)),
        ),
    )
}

fn login_page(status: StatusCode, error: Option<&str>) -> Response {
    let err = error
        .map(|e| format!("<p class=\"flash err\" id=\"error\">{}</p>", esc(e)))
        .unwrap_or_default();
    html(
        status,
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Director sign-in · tilebag</title>\
<link rel=\"stylesheet\" href=\"/assets/style.css\"></head><body><main style=\"max-width:30rem;margin:2rem auto\">\
<h1>Director sign-in</h1>{err}<form method=\"post\" action=\"/td/login\">\
<label>Director key <input type=\"password\" name=\"key\" id=\"key\" autocomplete=\"current-password\" required></label> \
<button id=\"sign-in\">Sign in</button></form>\
<p>The key is printed when <code>tilebag serve</code> starts (or set with <code>--director-key</code>).</p>\
</main></body></html>\n"
        ),
    )
}

/// The `?msg=`/`?err=` a redirect carries back, as a banner.
#[derive(Deserialize, Default)]
pub(crate) struct Flash {
    msg: Option<String>,
    err: Option<String>,
    round: Option<u32>,
}

pub(crate) fn flash(f: &Flash) -> String {
    let mut out = String::new();
    if let Some(m) = &f.msg {
        let _ = write!(out, "<p class=\"flash ok\" id=\"message\">{}</p>", esc(m));
    }
    if let Some(e) = &f.err {
        let _ = write!(out, "<p class=\"flash err\" id=\"error\">{}</p>", esc(e));
    }
    out
}

pub(crate) fn back(to: &str, ok: Result<String, String>) -> Response {
    let sep = if to.contains('?') { '&' } else { '?' };
    let url = match ok {
        Ok(m) if m.is_empty() => to.to_string(),
        Ok(m) => format!("{to}{sep}msg={}", enc(&m)),
        Err(e) => format!("{to}{sep}err={}", enc(&e)),
    };
    Redirect::to(&url).into_response()
}

fn table_html(t: &Table, id: &str) -> String {
    let mut out = format!("<table id=\"{id}\"><tr>");
    for c in &t.cols {
        let _ = write!(out, "<th>{}</th>", esc(c.0));
    }
    out.push_str("</tr>");
    for r in &t.rows {
        out.push_str("<tr>");
        for (i, c) in r.iter().enumerate() {
            let class = if t.cols[i].2 { " class=\"n\"" } else { "" };
            let _ = write!(out, "<td{class}>{}</td>", esc(c));
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>");
    out
}

/// Runs blocking event-file work off the async threads.
pub(crate) async fn blocking<T: Send + 'static>(
    f: impl FnOnce() -> anyhow::Result<T> + Send + 'static,
) -> Result<T, String> {
    match tokio::task::spawn_blocking(f).await {
        Ok(r) => r.map_err(|e| format!("{e:#}")),
        Err(_) => Err("the request failed inside the server".into()),
    }
}

/// "round N", or the seeding for round 0.
pub(crate) fn based_on_text(round: u32) -> String {
    if round == 0 {
        "the seeding (ratings)".into()
    } else {
        format!("round {round}")
    }
}

fn div_url(event: &str, division: &str) -> String {
    format!("/td/{}/d/{}", enc(event), enc(division))
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
        Err(e) => return error_page(StatusCode::INTERNAL_SERVER_ERROR, &e),
    };
    let mut body = flash(&f);
    body.push_str("<section><h2>Events</h2>");
    if list.is_empty() {
        body.push_str("<p>No events yet.</p>");
    } else {
        body.push_str("<table id=\"events\"><tr><th>Event</th><th>Date</th><th>Divisions</th><th>File</th></tr>");
        for e in &list {
            let _ = write!(
                body,
                "<tr><td><a href=\"/td/{}\">{}</a></td><td>{}</td><td class=\"n\">{}</td><td><code>{}</code></td></tr>",
                enc(&e.id),
                esc(&e.name),
                esc(e.date.as_deref().unwrap_or("")),
                e.divisions,
                esc(&s.director.events.path(&e.id).map(|p| p.display().to_string()).unwrap_or_default()),
            );
        }
        body.push_str("</table>");
    }
    let damaged = s.hub.damaged();
    if !damaged.is_empty() {
        body.push_str(
            "</section><section id=\"damaged\"><h2>Games kept out of play</h2>\
<p>These unfinished games could not be restored when the server started. Nothing was deleted: \
once the cause is put right (a lexicon loaded again, a row repaired), restart the server.</p>\
<table><tr><th>Game</th><th>Why</th></tr>",
        );
        for d in &damaged {
            let _ = write!(
                body,
                "<tr><td><code>{}</code></td><td>{}</td></tr>",
                esc(&d.id),
                esc(&d.reason)
            );
        }
        body.push_str("</table>");
    }
    body.push_str(
        "</section><section><h2>New event</h2><form method=\"post\" action=\"/td/new\">\
<label>Id <input name=\"id\" id=\"new-id\" required pattern=\"[a-z0-9][a-z0-9\\-]{0,39}\" placeholder=\"spring-open\"></label>\
<label>Name <input name=\"name\" id=\"new-name\" required maxlength=\"80\"></label>\
<label>Date <input type=\"date\" name=\"date\" id=\"new-date\"></label>\
<button id=\"create-event\">Create event</button></form></section>",
    );
    html(StatusCode::OK, page("Tournament direction", &[], &body))
}

#[derive(Deserialize)]
struct NewEventForm {
    id: String,
    name: String,
    #[serde(default)]
    date: String,
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

/// The event, if it has the division; else the page that says what is missing.
pub(crate) async fn load_division(
    s: &DirectorState,
    event: &str,
    division: &str,
) -> Result<Tournament, Response> {
    let (t, _) = load(s, event)
        .await
        .map_err(|e| error_page(StatusCode::NOT_FOUND, &e))?;
    if t.division(division).is_err() {
        return Err(error_page(
            StatusCode::NOT_FOUND,
            &format!("event {event:?} has no division {division:?}"),
        ));
    }
    Ok(t)
}

pub(crate) async fn load(s: &DirectorState, event: &str) -> Result<(Tournament, String), String> {
    let dir = s.director.clone();
    let event = event.to_string();
    blocking(move || dir.events.open_read(&event)?.load_versioned()).await
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
        Err(e) => return error_page(StatusCode::NOT_FOUND, &e),
    };
    let mut body = flash(&f);
    let _ = write!(
        body,
        "<p>{}</p><section><h2>Divisions</h2>",
        esc(t.date.as_deref().unwrap_or("No date set"))
    );
    if t.divisions.is_empty() {
        body.push_str("<p>No divisions yet: add one below.</p>");
    } else {
        body.push_str("<table id=\"divisions\"><tr><th>Division</th><th>Rules</th><th>Schedule</th><th>Players</th><th>Rounds paired</th></tr>");
        for d in &t.divisions {
            let _ = write!(
                body,
                "<tr><td><a href=\"{}\">{}</a></td><td>{}</td><td><code>{}</code></td><td class=\"n\">{}</td><td class=\"n\">{} of {}</td></tr>",
                div_url(&event, &d.name),
                esc(&d.name),
                esc(&rules_text(d)),
                esc(&d.schedule.to_string()),
                d.players.len(),
                d.rounds.len(),
                d.total_rounds(),
            );
        }
        body.push_str("</table>");
    }
    let mut presets = String::new();
    for p in Ruleset::PRESETS {
        let title = Ruleset::preset(p).map(|r| r.title).unwrap_or_default();
        let _ = write!(
            presets,
            "<option value=\"{p}\"{}>{} ({p})</option>",
            if p == s.hub.default_preset {
                " selected"
            } else {
                ""
            },
            esc(&title)
        );
    }
    let _ = write!(
        body,
        "</section><section><h2>Add a division</h2><form method=\"post\" action=\"/td/{}/division\">\
<label>Name <input name=\"name\" id=\"division-name\" required maxlength=\"20\" placeholder=\"A\"></label>\
<label>Rules <select name=\"preset\" id=\"division-preset\">{presets}</select></label>\
<label>Schedule <input name=\"schedule\" id=\"division-schedule\" required placeholder=\"IF:3 SW:9 KOTH:1\"></label>\
<label>Seed <input type=\"number\" name=\"seed\" min=\"0\" placeholder=\"random\"></label>\
<button id=\"add-division\">Add division</button></form>\
<p>Schedule: methods with round counts — RR (round robin), KOTH, SW (Swiss), IF (Initial Fontes), \
AD (Australian Draw), RAND, MAN (by hand); e.g. <code>RR:2</code> is a double round robin.</p></section>",
        enc(&event)
    );
    body.push_str(&undo_form(&event));
    html(
        StatusCode::OK,
        page(
            &t.name,
            &[(format!("/td/{}", enc(&event)), t.name.clone())],
            &body,
        ),
    )
}

fn undo_form(event: &str) -> String {
    format!(
        "<section><h2>Undo</h2><form method=\"post\" action=\"/td/{}/undo\">\
<button id=\"undo\">Undo the last action</button></form>\
<p>Every change is an action in the event's log; undo removes the newest one.</p></section>",
        enc(event)
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

async fn undo(
    State(s): State<DirectorState>,
    headers: HeaderMap,
    Path(event): Path<String>,
) -> Response {
    if let Some(r) = guard(&s, &headers, true) {
        return r;
    }
    let dir = s.director.clone();
    let ev = event.clone();
    let here = format!("/td/{}", enc(&event));
    match blocking(move || dir.events.open(&ev)?.undo()).await {
        Ok((seq, action)) => back(&here, Ok(format!("Undid action #{seq}: {action}"))),
        Err(e) => back(&here, Err(e)),
    }
}

// ---------------------------------------------------------------------------------------------
// A division.

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
        Err(e) => return error_page(StatusCode::NOT_FOUND, &e),
    };
    // Results of online games that ended unheard are collected first.
    let t = if s.director.collect(&s.hub, &event, &t).await {
        match load(&s, &event).await {
            Ok((t, _)) => t,
            Err(e) => return error_page(StatusCode::NOT_FOUND, &e),
        }
    } else {
        t
    };
    let Ok(d) = t.division(&division) else {
        return error_page(
            StatusCode::NOT_FOUND,
            &format!("event {event:?} has no division {division:?}"),
        );
    };
    let last = d.rounds.len() as u32;
    let shown = f.round.filter(|r| (1..=last).contains(r)).unwrap_or(last);
    let url = div_url(&event, &division);
    let mut body = flash(&f);
    let _ = write!(
        body,
        "<p>Rules <b>{}</b> · schedule <code>{}</code> · {} players · {} of {} rounds paired</p>",
        esc(&rules_text(d)),
        esc(&d.schedule.to_string()),
        d.players.len(),
        last,
        d.total_rounds()
    );

    // The round shown, with result entry.
    if shown > 0 {
        body.push_str(&round_section(&s, &event, d, shown).await);
    }

    // Pairing the next round.
    let next = last + 1;
    let mut methods = String::from("<option value=\"\">as the schedule says</option>");
    for m in ["RR", "KOTH", "SW", "IF", "AD", "RAND", "LIT3", "PO", "FIN"] {
        if let Some(method) = Method::from_code(m) {
            let _ = write!(
                methods,
                "<option value=\"{m}\">{}</option>",
                esc(&method.to_string())
            );
        }
    }
    let _ = write!(
        body,
        "<section><h2>Pair a round</h2><form method=\"get\" action=\"{url}/pair\">\
<label>Round <input type=\"number\" name=\"round\" id=\"pair-round\" min=\"1\" value=\"{next}\" required></label>\
<label>Method <select name=\"method\" id=\"pair-method\">{methods}</select></label>\
<label>Based on round <input type=\"number\" name=\"based_on\" id=\"pair-based-on\" min=\"0\" placeholder=\"schedule\"></label>\
<button id=\"propose\">Show pairings</button></form>\
<p>The pairings are shown first; nothing is posted until you post them. A round may be paired \
on an earlier round's standings, so it can be posted before the current round ends.</p></section>"
    );

    // Standings.
    let _ = write!(
        body,
        "<section><h2>Standings after round {last}</h2>{}</section>",
        table_html(&standings_table(d, last), "standings")
    );
    let _ = write!(
        body,
        "<section><h2>Firsts and seconds</h2>{}</section>",
        table_html(&firsts_table(d, last), "firsts")
    );
    if last > 0 {
        let _ = write!(
            body,
            "<section><h2>Rating estimates</h2>{}</section>",
            table_html(&ratings_table(d, last), "ratings")
        );
    }

    // Changes by hand.
    let _ = write!(
        body,
        "<section id=\"by-hand\"><h2>By hand</h2>\
<form method=\"post\" action=\"{url}/act\"><input type=\"hidden\" name=\"do\" value=\"manual\">\
<label>Round <input type=\"number\" name=\"round\" min=\"1\" value=\"{r}\" required></label>\
<label>Pair # <input type=\"number\" name=\"player\" id=\"manual-player\" min=\"1\" required></label>\
<label>with # <input name=\"opponent\" id=\"manual-opponent\" size=\"4\" placeholder=\"or bye\" required></label>\
<button id=\"manual-pair\">Pair</button> (their earlier games in the round are removed; firsts by the division's rule)</form>\
<form method=\"post\" action=\"{url}/act\"><input type=\"hidden\" name=\"do\" value=\"swap\">\
<label>Round <input type=\"number\" name=\"round\" min=\"1\" value=\"{r}\" required></label>\
<label>Swap who goes first in #<input type=\"number\" name=\"player\" min=\"1\" required>'s game</label>\
<button>Swap</button></form>\
<form method=\"post\" action=\"{url}/act\"><input type=\"hidden\" name=\"do\" value=\"unpair\">\
<input type=\"hidden\" name=\"round\" value=\"{last}\"><button id=\"unpair\">Unpair round {last}</button> (only before any result)</form>\
<form method=\"post\" action=\"{url}/act\"><input type=\"hidden\" name=\"do\" value=\"withdraw\">\
<label>Withdraw # <input type=\"number\" name=\"player\" min=\"1\" required></label>\
<label>from round <input type=\"number\" name=\"round\" min=\"1\" value=\"{next}\" required></label>\
<button>Withdraw</button> (unplayed games already paired become forfeits, NASPA V.K.1)</form>\
<form method=\"post\" action=\"{url}/act\"><input type=\"hidden\" name=\"do\" value=\"reinstate\">\
<label>Reinstate # <input type=\"number\" name=\"player\" min=\"1\" required></label><button>Reinstate</button></form>\
<form method=\"post\" action=\"{url}/act\"><input type=\"hidden\" name=\"do\" value=\"eject\">\
<label>Eject # <input type=\"number\" name=\"player\" min=\"1\" required></label>\
<label>from round <input type=\"number\" name=\"round\" min=\"1\" value=\"{next}\" required></label>\
<button>Eject</button> (WESPA 6.2.4(a): earlier games void in a round robin, else 150-point wins for the opponents; ranked last)</form>\
<form method=\"post\" action=\"{url}/act\"><input type=\"hidden\" name=\"do\" value=\"adjust\">\
<label>Spread adjustment for # <input type=\"number\" name=\"player\" min=\"1\" required></label>\
<label>round <input type=\"number\" name=\"round\" min=\"1\" value=\"{r}\" required></label>\
<select name=\"reason\"><option value=\"drawing-out-of-order\">drawing out of order (NASPA IV.B.5)</option>\
<option value=\"erroneous-adjudication\">erroneous adjudication (NASPA IV.K.5)</option>\
<option value=\"other\">other</option></select>\
<label>amount <input type=\"number\" name=\"amount\" placeholder=\"the rule's\"></label>\
<label>play score <input type=\"number\" name=\"play_score\" min=\"0\" placeholder=\"IV.K.5\"></label>\
<input name=\"note\" placeholder=\"note\" maxlength=\"200\"> <button>Adjust</button></form></section>",
        r = shown.max(1),
    );

    // Settings.
    let mut rows = String::new();
    let mut keys = String::new();
    for (k, v) in tilebag_tournament::settings::current(d) {
        let _ = write!(
            rows,
            "<tr><td>{k}</td><td><code>{}</code></td></tr>",
            esc(&v)
        );
        let _ = write!(keys, "<option value=\"{k}\">{k}</option>");
    }
    let _ = write!(
        body,
        "<section id=\"settings\"><h2>Settings</h2><table id=\"settings-table\">{rows}</table>\
<form method=\"post\" action=\"{url}/act\"><input type=\"hidden\" name=\"do\" value=\"set\">\
<label>Set <select name=\"key\" id=\"setting-key\">{keys}</select></label> \
<label>to <input name=\"value\" id=\"setting-value\" required maxlength=\"200\"></label> \
<button id=\"set\">Set</button></form>\
<p>Values as <code>tilebag td division set</code> takes them, e.g. tie-breaks \
<code>wins,losses,spread,rating</code>, gibson <code>250:3</code>, spread-cap <code>none</code>.</p></section>"
    );

    // Players (teams in the Literacy 2018 format).
    let team = d.config.format == tilebag_tournament::Format::Literacy2018Teams;
    let _ = write!(
        body,
        "<section><h2>Players</h2>{}<form method=\"post\" action=\"{url}/player\">\
<label>Name <input name=\"name\" id=\"player-name\" required maxlength=\"40\"></label>\
<label>Rating <input type=\"number\" name=\"rating\" id=\"player-rating\" min=\"0\" max=\"3000\" value=\"0\"></label>\
<label>Member id <input name=\"member_id\" id=\"player-member\" maxlength=\"20\"></label>{members}\
<button id=\"add-player\">Add {who}</button></form>\
<form method=\"post\" action=\"{url}/act\"><input type=\"hidden\" name=\"do\" value=\"edit-player\">\
<label>Change # <input type=\"number\" name=\"player\" min=\"1\" required></label> \
<label>name <input name=\"name\" maxlength=\"40\"></label> \
<label>rating <input type=\"number\" name=\"rating\" min=\"0\" max=\"3000\"></label> \
<button>Change</button></form></section>",
        table_html(&players_table(d), "players"),
        members = if team {
            "<label>Team members <input name=\"members\" id=\"player-members\" maxlength=\"200\" \
placeholder=\"Ann Lee, Bo Chen\"></label>"
        } else {
            ""
        },
        who = if team { "team" } else { "player" },
    );

    // Printing and export.
    let ex = format!("{url}/export");
    let _ = write!(
        body,
        "<section><h2>Print and export</h2><ul>\
<li><a href=\"{ex}/pairings.html?round={shown}\">Pairings, round {shown}</a> · \
<a href=\"{ex}/slips.html?round={shown}\">tally slips, round {shown}</a></li>\
<li><a href=\"{ex}/standings.html\">Standings</a> · <a href=\"{ex}/standings.csv\">standings CSV</a> · \
<a href=\"{ex}/scorecards.html\">scorecards</a></li>\
<li><a href=\"{ex}/division.t\">tsh .t file</a> · <a href=\"{ex}/event.tsh\">tsh archive</a> · \
<a href=\"{ex}/aupair.tou\">AUPAIR .TOU</a></li>\
<li><a href=\"/events/{pe}/{pd}\" id=\"public-link\">The players' page</a> (pairings and standings; no key needed)</li>\
<li><a href=\"{url}/links\" id=\"player-links\">Each player's own link</a> (their game, and tally slips they submit and confirm themselves)</li></ul></section>",
        pe = enc(&event),
        pd = enc(&division),
    );
    body.push_str(&undo_form(&event));
    html(
        StatusCode::OK,
        page(
            &format!("{} · Division {}", t.name, d.name),
            &[
                (format!("/td/{}", enc(&event)), t.name.clone()),
                (url.clone(), format!("Division {}", d.name)),
            ],
            &body,
        ),
    )
}

async fn round_section(s: &DirectorState, event: &str, d: &Division, round: u32) -> String {
    let url = div_url(event, &d.name);
    let Some(r) = d.round(round) else {
        return String::new();
    };
    let mut out = format!("<section id=\"round\"><h2>Round {round}</h2><p>Rounds: ");
    for n in 1..=d.rounds.len() as u32 {
        if n == round {
            let _ = write!(out, "<b>{n}</b> ");
        } else {
            let _ = write!(out, "<a href=\"{url}?round={n}\">{n}</a> ");
        }
    }
    let _ = write!(
        out,
        "</p><p>{} pairings, based on {}</p><table id=\"games\"><tr><th>Board</th><th>First</th>\
<th>Second</th><th>Why first</th><th>Result</th><th>Enter or correct</th><th>Online</th></tr>",
        esc(&r.method.to_string()),
        based_on_text(r.based_on)
    );
    let mut entries: Vec<&Pairing> = r.pairings.iter().collect();
    entries.sort_by_key(|p| match p {
        Pairing::Game(g) => (0, g.board, 0),
        Pairing::Bye { player, .. } => (1, 0, *player),
        Pairing::Absent { player, .. } => (2, 0, *player),
    });
    let mut can_start = false;
    for p in entries {
        match p {
            Pairing::Game(g) => {
                let link = d
                    .online
                    .iter()
                    .find(|o| o.round == round && g.opponent_of(o.first) == Some(o.second));
                let who = |p: PlayerId| format!("#{p} {}", name_of(d, p));
                let mut entry = String::new();
                if let (None, Some(slip)) = (&g.result, &g.slip) {
                    let other = g.opponent_of(slip.submitted_by).unwrap_or(g.first);
                    let _ = write!(
                        entry,
                        "Slip {}–{} from {}. <form class=\"inline\" method=\"post\" action=\"{url}/result\">\
<input type=\"hidden\" name=\"round\" value=\"{round}\"><input type=\"hidden\" name=\"player\" value=\"{other}\">\
<input type=\"hidden\" name=\"entry\" value=\"confirm\">\
<button id=\"confirm-{}\">Confirm for {}</button></form><br>",
                        slip.first_score,
                        slip.second_score,
                        esc(&who(slip.submitted_by)),
                        g.board,
                        esc(&who(other)),
                    );
                }
                let form = format!(
                    "<form class=\"inline\" method=\"post\" action=\"{url}/result\" id=\"result-{b}\">\
<input type=\"hidden\" name=\"round\" value=\"{round}\"><input type=\"hidden\" name=\"player\" value=\"{f}\">\
<input type=\"number\" name=\"score\" id=\"score-{b}-first\" aria-label=\"first's score\" min=\"-500\" max=\"2000\"> – \
<input type=\"number\" name=\"opponent_score\" id=\"score-{b}-second\" aria-label=\"second's score\" min=\"-500\" max=\"2000\"> \
<select name=\"entry\" id=\"entry-{b}\">\
<option value=\"slip-first\">tally slip from {fw}</option>\
<option value=\"slip-second\">tally slip from {sw}</option>\
<option value=\"final\">final (director)</option>\
<option value=\"left-first\">{fw} left the game</option>\
<option value=\"left-second\">{sw} left the game</option>\
<option value=\"forfeit-first\">forfeit by {fw}</option>\
<option value=\"forfeit-second\">forfeit by {sw}</option>\
<option value=\"double-forfeit\">double forfeit</option>\
<option value=\"clear\">clear the result</option></select> \
<input name=\"note\" placeholder=\"note\" maxlength=\"200\" size=\"10\"> \
<button id=\"enter-{b}\">Enter</button></form>",
                    b = g.board,
                    f = g.first,
                    fw = esc(&format!("#{}", g.first)),
                    sw = esc(&format!("#{}", g.second)),
                );
                if g.result.is_some() {
                    let _ = write!(entry, "<details><summary>Correct</summary>{form}</details>");
                } else {
                    entry.push_str(&form);
                }
                let online = match link {
                    Some(o) => online_cell(s, &url, &o.game_id, d, o.first, o.second).await,
                    None => {
                        if g.result.is_none() {
                            can_start = true;
                        }
                        String::new()
                    }
                };
                let _ = write!(
                    out,
                    "<tr id=\"board-{}\"><td class=\"n\">{}</td><td>{}</td><td>{}</td><td>{}</td><td class=\"outcome\">{}</td><td>{entry}</td><td>{online}</td></tr>",
                    g.board,
                    g.board,
                    esc(&who(g.first)),
                    esc(&who(g.second)),
                    esc(&why_first(&g.first_by)),
                    esc(&result_text(d, g.result.as_ref(), g.slip.is_some())),
                );
            }
            Pairing::Bye { player, spread, .. } => {
                let _ = write!(
                    out,
                    "<tr><td></td><td>#{player} {}</td><td>bye</td><td></td><td>{spread:+}</td><td></td><td></td></tr>",
                    esc(&name_of(d, *player))
                );
            }
            Pairing::Absent { player, spread } => {
                let _ = write!(
                    out,
                    "<tr><td></td><td>#{player} {}</td><td>withdrawn</td><td></td><td>{spread:+}</td><td></td><td></td></tr>",
                    esc(&name_of(d, *player))
                );
            }
        }
    }
    out.push_str("</table>");
    if can_start {
        let mut lexicons = String::new();
        for name in s.hub.lexicon_names() {
            let _ = write!(
                lexicons,
                "<option value=\"{n}\"{sel}>{n}</option>",
                n = esc(&name),
                sel = if name == s.hub.default_lexicon {
                    " selected"
                } else {
                    ""
                }
            );
        }
        let _ = write!(
            out,
            "<form method=\"post\" action=\"{url}/online\"><input type=\"hidden\" name=\"round\" value=\"{round}\">\
<label>Lexicon <select name=\"lexicon\" id=\"online-lexicon\">{lexicons}</select></label> \
<button id=\"start-online\">Start online games for round {round}</button></form>\
<p>Each game without a result gets a game on this server under the division's rules and the \
lexicon chosen (the event's word source: NASPA III.A, WESPA Appendix 2); hand each player their seat \
link. Results come back here when the games end.</p>"
        );
    }
    out.push_str("</section>");
    out
}

async fn online_cell(
    s: &DirectorState,
    url: &str,
    id: &str,
    d: &Division,
    first: PlayerId,
    second: PlayerId,
) -> String {
    let Ok(h) = s.hub.get(id).await else {
        return format!("game {} (not found)", esc(id));
    };
    let snapshot = h.snapshot().await.ok();
    let ended = h.is_ended();
    let paused = snapshot.as_ref().and_then(|x| x.view.table.paused);
    let started = snapshot.as_ref().is_some_and(|x| x.view.table.started);
    let seat_name = |seat: usize| {
        let p = if seat == 0 { first } else { second };
        format!("#{p} {}", name_of(d, p))
    };
    let status = match (ended, paused, started) {
        (true, _, _) => "ended".to_string(),
        (false, Some(p), _) => match p.called_by {
            Some(seat) => format!(
                "<b class=\"call\">clocks stopped: {} called the director</b>",
                esc(&seat_name(seat))
            ),
            None => "<b>clocks stopped by the director</b>".to_string(),
        },
        (false, None, false) => "waiting for both players".to_string(),
        (false, None, true) => "live".to_string(),
    };
    let button = |what: &str, label: &str, bid: &str| {
        format!(
            "<form class=\"inline\" method=\"post\" action=\"{url}/game\">\
<input type=\"hidden\" name=\"game\" value=\"{id}\"><input type=\"hidden\" name=\"do\" value=\"{what}\">\
<button id=\"{bid}-{id}\">{label}</button></form>",
            id = esc(id),
        )
    };
    let controls = match (ended, paused) {
        (true, _) => String::new(),
        (false, Some(_)) => format!(
            "<br>{} {}",
            button("resume", "Restart the clocks", "resume"),
            button("end", "End the game (NASPA V.F)", "end")
        ),
        (false, None) => format!(
            "<br>{} {}",
            button("pause", "Stop the clocks", "pause"),
            button("end", "End the game (NASPA V.F)", "end")
        ),
    };
    format!(
        "<a href=\"/games/{id}\">game {id}</a> ({status})<br>\
<a class=\"seat\" href=\"/games/{id}?token={t0}\">seat link: {n0}</a><br>\
<a class=\"seat\" href=\"/games/{id}?token={t1}\">seat link: {n1}</a>{controls}",
        id = esc(id),
        t0 = enc(&h.meta.tokens[0]),
        t1 = enc(&h.meta.tokens[1]),
        n0 = esc(&seat_name(0)),
        n1 = esc(&seat_name(1)),
    )
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
        Ok(Err(r)) if r.code == crate::protocol::ErrorCode::Unavailable => {
            error_page(StatusCode::SERVICE_UNAVAILABLE, &r.message)
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
    let here = div_url(&event, &division);
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
        Err(e) => return error_page(StatusCode::NOT_FOUND, &e),
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
    let mut body = format!(
        "<section><h2>Proposed pairings: round {} ({}, based on {})</h2>{}",
        q.round,
        esc(&r.method.to_string()),
        based_on_text(r.based_on),
        table_html(&rows, "proposal")
    );
    for n in &notes {
        let _ = write!(body, "<p>Note: {}</p>", esc(n));
    }
    let _ = write!(
        body,
        "<form method=\"post\" action=\"{here}/pair\">\
<input type=\"hidden\" name=\"round\" value=\"{}\"><input type=\"hidden\" name=\"method\" value=\"{}\">\
<input type=\"hidden\" name=\"based_on\" value=\"{}\"><input type=\"hidden\" name=\"version\" value=\"{}\">\
<button id=\"post-pairings\">Post these pairings</button> <a href=\"{here}\">Cancel</a></form></section>",
        q.round,
        esc(q.method.trim()),
        esc(q.based_on.trim()),
        esc(&version),
    );
    html(
        StatusCode::OK,
        page(
            &format!(
                "{} · Division {} · pair round {}",
                t.name, division, q.round
            ),
            &[
                (format!("/td/{}", enc(&event)), t.name.clone()),
                (here.clone(), format!("Division {division}")),
            ],
            &body,
        ),
    )
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
    back(
        &format!("{here}?round={round}"),
        done.map(|_| format!("Round {round} pairings posted.")),
    )
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
    let div = division.clone();
    let done = change(&s, &event, None, move |t| {
        let d = t.division(&div)?;
        let g = d
            .player_round(f.round, f.player)
            .and_then(|pr| pr.pairing.game().cloned())
            .ok_or_else(|| anyhow::anyhow!("#{} has no game in round {}", f.player, f.round))?;
        Ok(vec![result_action(&div, &g, &f)?])
    })
    .await;
    let here_round = format!("{here}?round={round}");
    back(&here_round, done.map(|_| "Result entered.".to_string()))
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
    let mut actions = Vec::new();
    for g in r.pairings.iter().filter_map(Pairing::game) {
        let linked = d
            .online
            .iter()
            .any(|o| o.round == round && g.opponent_of(o.first) == Some(o.second));
        if g.result.is_some() || linked {
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
            Err(e) if e.code() == crate::protocol::ErrorCode::Unavailable => {
                return error_page(
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
            Err("every game of the round has a result or a game already".into()),
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
        let mut links = s.director.links.lock().expect("links lock");
        for id in ids {
            links.insert(id, (event.clone(), division.clone()));
        }
    }
    back(&here, done.map(|_| format!("Started {n} online games.")))
}

#[derive(Deserialize)]
struct ExportQuery {
    round: Option<u32>,
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
    let d = t.division(&division).expect("checked");
    let last = d.rounds.len() as u32;
    let round = q.ok().and_then(|q| q.0.round).unwrap_or(last);
    let paired = (1..=last).contains(&round);
    const HTML: &str = "text/html; charset=utf-8";
    const TEXT: &str = "text/plain; charset=utf-8";
    let (ct, body, file): (&str, Result<String, String>, Option<String>) = match what.as_str() {
        "pairings.html" if paired => (HTML, Ok(report::pairings_html(&t, d, round)), None),
        "slips.html" if paired => (HTML, Ok(report::tally_slips_html(&t, d, round)), None),
        "pairings.html" | "slips.html" => (
            TEXT,
            Err(format!("round {round} has not been paired")),
            None,
        ),
        "standings.html" => (HTML, Ok(report::standings_html(&t, d, last)), None),
        "standings.csv" => (
            "text/csv; charset=utf-8",
            Ok(report::standings_csv(d, last)),
            Some(format!("{}-standings.csv", event)),
        ),
        "scorecards.html" => (HTML, Ok(report::scorecards_html(&t, d)), None),
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
        _ => return error_page(StatusCode::NOT_FOUND, &format!("no export named {what:?}")),
    };
    match body {
        Ok(b) => {
            let mut r = ([(header::CONTENT_TYPE, ct)], b).into_response();
            if let Some(name) = file {
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
        Err(e) => error_page(StatusCode::UNPROCESSABLE_ENTITY, &e),
    }
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
    let here = div_url(&event, &division);
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

// ---------------------------------------------------------------------------------------------
// The public pages: what a tournament posts on the wall (pairings and standings), for players'
// phones. No key; nothing the director's pages add (seat links, forms, the log).

pub(crate) fn public_page(title: &str, body: &str) -> Response {
    html(
        StatusCode::OK,
        format!(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><meta http-equiv=\"refresh\" content=\"60\">\
<title>{t}</title><link rel=\"stylesheet\" href=\"/assets/style.css\">\
<style>main{{max-width:60rem;margin:0 auto;padding:1rem}}table{{border-collapse:collapse}}\
th,td{{border-bottom:1px solid var(--line);padding:.25rem .5rem;text-align:left}}td.n{{text-align:right}}</style>\
</head><body><main><h1>{t}</h1>{body}</main></body></html>\n",
            t = esc(title)
        ),
    )
}

async fn public_event(State(s): State<DirectorState>, Path(event): Path<String>) -> Response {
    let (t, _) = match load(&s, &event).await {
        Ok(x) => x,
        Err(e) => return error_page(StatusCode::NOT_FOUND, &e),
    };
    let mut body = String::from("<ul id=\"divisions\">");
    for d in &t.divisions {
        let _ = write!(
            body,
            "<li><a href=\"/events/{}/{}\">Division {}</a> ({} players, {} of {} rounds paired)</li>",
            enc(&event),
            enc(&d.name),
            esc(&d.name),
            d.players.len(),
            d.rounds.len(),
            d.total_rounds()
        );
    }
    body.push_str("</ul>");
    public_page(&t.name, &body)
}

async fn public_division(
    State(s): State<DirectorState>,
    Path((event, division)): Path<(String, String)>,
    q: Result<Query<ExportQuery>, QueryRejection>,
) -> Response {
    let t = match load_division(&s, &event, &division).await {
        Ok(t) => t,
        Err(r) => return r,
    };
    let d = t.division(&division).expect("checked");
    let last = d.rounds.len() as u32;
    let round = q
        .ok()
        .and_then(|q| q.0.round)
        .filter(|r| (1..=last).contains(r))
        .unwrap_or(last);
    let mut body = String::new();
    if round > 0 {
        let _ = write!(body, "<p>Rounds: ");
        for n in 1..=last {
            if n == round {
                let _ = write!(body, "<b>{n}</b> ");
            } else {
                let _ = write!(
                    body,
                    "<a href=\"/events/{}/{}?round={n}\">{n}</a> ",
                    enc(&event),
                    enc(&division)
                );
            }
        }
        let _ = write!(
            body,
            "</p><h2>Round {round} pairings</h2>{}",
            table_html(
                &tilebag_tournament::tables::pairings_table(d, round),
                "pairings"
            )
        );
    }
    let _ = write!(
        body,
        "<h2>Standings after round {last}</h2>{}",
        table_html(&standings_table(d, last), "standings")
    );
    public_page(&format!("{} · Division {}", t.name, d.name), &body)
}

/// A division's rules as the pages show them: the preset, and the organiser's choices if any.
fn rules_text(d: &tilebag_tournament::Division) -> String {
    if d.config.rules.is_empty() {
        d.preset.clone()
    } else {
        format!("{} with {}", d.preset, d.config.rules.join(", "))
    }
}
