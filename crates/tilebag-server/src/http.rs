//! The HTTP JSON API (documented in `API.md`) and, optionally, static files for the web UI.

use crate::api_error::ApiError;
use crate::app_state::AppState;
use crate::config::ServeConfig;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::ConnectInfo;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use tilebag_core::Ruleset;
use tilebag_live::live::Hub;
use tilebag_live::live::NewGame;
use tilebag_live::protocol::ErrorCode;
use tilebag_live::quota::PerAddress;
use tilebag_live::view::ObserverView;

/// The largest request body (creating a game needs a few hundred bytes).
const MAX_BODY: usize = 16 * 1024;
const MAX_NAME: usize = 40;

pub(crate) fn router(hub: Arc<Hub>, config: &ServeConfig) -> Router {
    let state = AppState {
        hub,
        static_dir: config.static_dir.clone().map(Arc::new),
        lexicons: Arc::new(config.lexicons.clone()),
        judge_log: Arc::new(crate::web::JudgeLogFile::beside_database(&config.database)),
        quota_games: Arc::new(PerAddress::new(config.quotas.games_per_minute)),
        quota_judge: Arc::new(PerAddress::new(config.quotas.judge_per_minute)),
        quota_verify: Arc::new(PerAddress::new(config.quotas.verify_per_minute)),
        net: config.net,
    };
    Router::new()
        .route("/api/games", get(list_games).post(create_game))
        .route("/api/lobby/changes", get(lobby_changes))
        .route("/api/games/{id}", get(get_game))
        .route("/api/games/{id}/gcg", get(get_gcg))
        .route(
            "/api/games/{id}/analysis",
            get(crate::analysis::get_analysis),
        )
        .route("/api/games/{id}/ws", get(crate::ws::upgrade))
        .route("/api/presets", get(presets))
        .route("/api/lexicons", get(lexicons))
        .route("/api/judge", post(judge))
        .route("/api/gcg/verify", post(verify_gcg))
        .route(
            "/api/live",
            get(|| async { Json(serde_json::json!({"ok": true})) }),
        )
        .fallback(fallback)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

/// How long `/api/health` waits for the database.
const HEALTH_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// `GET /api/health`: whether the server can serve, its database included (checked now: a round
/// trip to PostgreSQL, a small committed write to SQLite). 200 when it can, 503 with the reason
/// when it cannot, so that a load balancer or an orchestrator can act.
/// `GET /api/health` for everyone (a load balancer's readiness probe): the database checked now,
/// and whether this process can reach the others (NATS), `503` with the reason when it cannot
/// serve. The operator's view (`operator_health.rs`) adds the processes and their games.
pub(crate) async fn readiness(hub: &tilebag_live::live::Hub) -> (bool, serde_json::Value) {
    let db = hub.database();
    let checked = tokio::time::timeout(HEALTH_TIMEOUT, tilebag_store::Store::ping(&**db)).await;
    let error = match checked {
        Ok(Ok(())) => None,
        Ok(Err(e)) => Some(e.to_string()),
        Err(_) => Some(format!(
            "the database did not answer within {} s",
            HEALTH_TIMEOUT.as_secs()
        )),
    };
    let kind = tilebag_store::Store::kind(&**db);
    let mut body = match &error {
        None => serde_json::json!({"ok": true, "database": {"kind": kind, "ok": true}}),
        Some(error) => serde_json::json!({
            "ok": false,
            "database": {"kind": kind, "ok": false, "error": error},
        }),
    };
    let mut ok = error.is_none();
    if let Some(c) = hub.cluster() {
        let nats = match &*c.nats.state().borrow() {
            tilebag_nats::ConnState::Connected => serde_json::json!({"ok": true}),
            tilebag_nats::ConnState::Disconnected { reason, .. } => {
                ok = false;
                serde_json::json!({"ok": false, "error": reason})
            }
        };
        body["nats"] = nats;
        body["ok"] = serde_json::json!(ok);
    }
    (ok, body)
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateRequest {
    preset: Option<String>,
    /// The organiser's choices of the rules the book leaves open, e.g.
    /// `{"end-rack": "double", "challenge": "per-word:10"}` (WESPA 5.1.4, 3.10.15(b)), or the
    /// same as the list a view returns, `["end-rack=double", "challenge=per-word:10"]`.
    #[serde(default, deserialize_with = "rules_as_map_or_list")]
    rules: std::collections::BTreeMap<String, String>,
    lexicon: Option<String>,
    initial_minutes: Option<f64>,
    players: Vec<String>,
    seed: Option<u64>,
    /// Play the computer: `{"level": "static", "seat": 1}` (seat omitted or `"random"`: drawn).
    bot: Option<BotRequest>,
}

/// The organiser's choices, given as a map (`{"end-rack": "double"}`) or as the list every
/// view returns (`["end-rack=double"]`), so a view's `rules` can be sent back as they are
/// (issue 27 item 6). A list item without `=`, or a choice given twice, is refused by name.
fn rules_as_map_or_list<'de, D>(
    d: D,
) -> Result<std::collections::BTreeMap<String, String>, D::Error>
where
    D: serde::Deserializer<'de>,
{
    use serde::de::Error;
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Rules {
        Map(std::collections::BTreeMap<String, String>),
        List(Vec<String>),
    }
    match Rules::deserialize(d).map_err(|_| {
        D::Error::custom(
            "rules: expected a map such as {\"end-rack\": \"double\"} or a list such as [\"end-rack=double\"]",
        )
    })? {
        Rules::Map(m) => Ok(m),
        Rules::List(list) => {
            let mut m = std::collections::BTreeMap::new();
            for item in list {
                let Some((k, v)) = item.split_once('=') else {
                    return Err(D::Error::custom(format!(
                        "rules: {item:?} is not a choice of the form name=value"
                    )));
                };
                if m.insert(k.trim().to_string(), v.trim().to_string()).is_some() {
                    return Err(D::Error::custom(format!(
                        "rules: {:?} is chosen twice",
                        k.trim()
                    )));
                }
            }
            Ok(m)
        }
    }
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct BotRequest {
    level: String,
    #[serde(default)]
    seat: Option<Value>,
}

#[derive(Serialize)]
struct BotInfo {
    seat: usize,
    level: &'static str,
    name: String,
}

#[derive(Serialize)]
struct Created {
    id: String,
    preset: String,
    /// The game's rules: the preset with the organiser's choices (recorded with the game).
    ruleset: Ruleset,
    lexicon: String,
    /// The seats people play (both, or only the human's in a game against the computer).
    seats: Vec<SeatLink>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bot: Option<BotInfo>,
    observer_link: String,
    observer_ws: String,
}

#[derive(Serialize)]
struct SeatLink {
    seat: usize,
    name: String,
    /// Secret: whoever has it plays this seat.
    token: String,
    link: String,
    ws: String,
}

fn clean_name(raw: &str, seat: usize) -> Result<String, ApiError> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            format!("player {} has an empty name", seat + 1),
        ));
    }
    if name.chars().count() > MAX_NAME || name.chars().any(char::is_control) {
        return Err(ApiError::new(
            ErrorCode::BadRequest,
            format!(
                "player {}'s name must be at most {MAX_NAME} printable characters",
                seat + 1
            ),
        ));
    }
    Ok(name.to_string())
}

fn parse_body<T: serde::de::DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
) -> Result<T, ApiError> {
    let body = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                ErrorCode::TooLarge,
                format!("a request body may hold at most {MAX_BODY} bytes"),
            )
        } else {
            ApiError::new(ErrorCode::BadMessage, e.body_text())
        }
    })?;
    let value: Value = serde_json::from_slice(&body)
        .map_err(|e| ApiError::new(ErrorCode::BadJson, format!("the body is not JSON: {e}")))?;
    serde_json::from_value(value).map_err(|e| {
        ApiError::new(
            ErrorCode::BadMessage,
            format!("the body is not a request: {e}"),
        )
    })
}

/// `429 rate-limited` with `Retry-After`, if `ip` has used its quota of `what`.
fn quota(q: &PerAddress, ip: std::net::IpAddr, what: &str) -> Option<Response> {
    q.take(ip).err().map(|wait| {
        let mut r = ApiError::new(
            ErrorCode::RateLimited,
            format!(
                "at most {} {what} a minute from one address: try again in {wait} s",
                q.per_minute()
            ),
        )
        .into_response();
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(wait));
        r
    })
}

async fn create_game(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, Response> {
    if let Some(r) = quota(&app.quota_games, peer.ip(), "new games") {
        return Err(r);
    }
    create_game_checked(app, peer.ip(), body)
        .await
        .map_err(IntoResponse::into_response)
}

async fn create_game_checked(
    app: AppState,
    creator: std::net::IpAddr,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req: CreateRequest = parse_body(body)?;
    let bot = match &req.bot {
        None => None,
        Some(b) => {
            let level = tilebag_live::bot::parse_level(&b.level)
                .map_err(|e| ApiError::new(ErrorCode::BadRequest, e))?;
            let seat = match &b.seat {
                None | Some(Value::Null) => random_seat(),
                Some(Value::String(s)) if s == "random" => random_seat(),
                Some(Value::Number(n)) if n.as_u64() == Some(0) || n.as_u64() == Some(1) => {
                    n.as_u64().unwrap_or(0) as usize
                }
                Some(other) => {
                    return Err(ApiError::new(
                        ErrorCode::BadRequest,
                        format!("bot.seat is 0, 1 or \"random\", not {other}"),
                    ))
                }
            };
            Some((seat, level))
        }
    };
    let names = match bot {
        None => {
            if req.players.len() != 2 {
                return Err(ApiError::new(
                    ErrorCode::BadRequest,
                    format!("a game has two players; {} were named", req.players.len()),
                ));
            }
            [
                clean_name(&req.players[0], 0)?,
                clean_name(&req.players[1], 1)?,
            ]
        }
        Some((seat, level)) => {
            if req.players.len() != 1 {
                return Err(ApiError::new(
                    ErrorCode::BadRequest,
                    format!(
                        "against the computer, name one player (you); {} were named",
                        req.players.len()
                    ),
                ));
            }
            let human = clean_name(&req.players[0], 1 - seat)?;
            let mut names = [human.clone(), human];
            names[seat] = tilebag_live::bot::bot_name(level);
            names
        }
    };
    let initial_ms = match req.initial_minutes {
        None => None,
        // At least one second: less would round to a clock of 0 ms.
        Some(m) if m.is_finite() && m * 60.0 >= 1.0 && m <= 600.0 => {
            Some((m * 60_000.0).round() as i64)
        }
        Some(m) => {
            return Err(ApiError::new(
                ErrorCode::BadRequest,
                format!(
                    "initial_minutes must be at least one second (1/60 of a minute) and at \
                     most 600, not {m}"
                ),
            ))
        }
    };
    let rules: Vec<String> = req.rules.iter().map(|(k, v)| format!("{k}={v}")).collect();
    let handle = app
        .hub
        .create(NewGame {
            preset: req.preset,
            rules: rules.clone(),
            lexicon: req.lexicon,
            initial_ms,
            names,
            seed: req.seed,
            public: true,
            creator: Some(creator),
            bot,
        })
        .await?;
    let m = &handle.meta;
    let id = &m.id;
    // The hub has already checked the choices against the preset's book.
    let mut ruleset = Ruleset::preset(&m.preset)
        .ok()
        .and_then(|r| r.with_overrides(&rules).ok())
        .unwrap_or_default();
    if let (Some(ms), tilebag_core::ruleset::ClockRule::PerPlayer { .. }) =
        (initial_ms, ruleset.clock)
    {
        ruleset.clock = tilebag_core::ruleset::ClockRule::PerPlayer { initial_ms: ms };
    }
    let created = Created {
        id: id.clone(),
        preset: m.preset.clone(),
        ruleset,
        lexicon: m.lexicon.clone(),
        seats: (0..2)
            .filter(|&s| bot.is_none_or(|(b, _)| b != s))
            .map(|s| SeatLink {
                seat: s,
                name: m.names[s].clone(),
                token: m.tokens[s].clone(),
                link: format!("/games/{id}?token={}", m.tokens[s]),
                ws: format!("/api/games/{id}/ws?token={}", m.tokens[s]),
            })
            .collect(),
        bot: bot.map(|(seat, level)| BotInfo {
            seat,
            level: level.name(),
            name: m.names[seat].clone(),
        }),
        observer_link: format!("/games/{id}"),
        observer_ws: format!("/api/games/{id}/ws"),
    };
    let mut resp = (StatusCode::CREATED, Json(created)).into_response();
    if let Ok(v) = HeaderValue::from_str(&format!("/api/games/{id}")) {
        resp.headers_mut().insert(header::LOCATION, v);
    }
    Ok(resp)
}

/// The computer's seat when the player leaves it to chance.
fn random_seat() -> usize {
    let mut b = [0u8; 1];
    let _ = getrandom::fill(&mut b);
    usize::from(b[0] & 1)
}

#[derive(Debug, Deserialize)]
struct ListQuery {
    limit: Option<usize>,
}

/// `GET /api/lobby/changes`: a Server-Sent Events stream with an event `games` whenever the
/// games list may have changed (at most one every two seconds); the lobby then asks
/// `GET /api/games` again. Nothing is sent while nothing changes.
async fn lobby_changes(State(s): State<AppState>) -> Response {
    let ask: crate::push::Ask = Arc::new(|| {
        Box::pin(async {
            Some(
                axum::response::sse::Event::default()
                    .event("games")
                    .data("changed"),
            )
        })
    });
    crate::push::stream(
        &s.hub,
        s.net.idle_timeout,
        std::time::Duration::from_secs(2),
        false,
        ask,
    )
    .into_response()
}

async fn list_games(
    State(app): State<AppState>,
    query: Result<Query<ListQuery>, QueryRejection>,
) -> Result<Response, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::new(ErrorCode::BadRequest, e.body_text()))?;
    let limit = q.limit.unwrap_or(100).clamp(1, 1000);
    let games = app.hub.list(limit).await?;
    Ok(Json(serde_json::json!({ "games": games })).into_response())
}

#[derive(Serialize)]
struct GameDoc<'a> {
    status: &'static str,
    created_at_ms: i64,
    #[serde(flatten)]
    view: &'a ObserverView,
}

async fn get_game(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let handle = app.hub.get(&id).await?;
    let snap = handle.snapshot().await?;
    Ok(Json(GameDoc {
        status: snap.status.as_str(),
        created_at_ms: handle.meta.created_at_ms,
        view: &snap.view,
    })
    .into_response())
}

async fn get_gcg(
    State(app): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let handle = app.hub.get(&id).await?;
    let text = handle.gcg().await?;
    let disposition = format!("attachment; filename=\"tilebag-{id}.gcg\"");
    let mut resp = text.into_response();
    let h = resp.headers_mut();
    h.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/plain; charset=utf-8"),
    );
    if let Ok(v) = HeaderValue::from_str(&disposition) {
        h.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(resp)
}

async fn presets(State(app): State<AppState>) -> Response {
    let list: Vec<Value> = Ruleset::PRESETS
        .iter()
        .filter_map(|name| Ruleset::preset(name).ok())
        .map(|r| {
            serde_json::json!({
                "name": r.name,
                "title": r.title,
                "default": r.name == app.hub.default_preset,
                "ruleset": r,
            })
        })
        .collect();
    Json(serde_json::json!({ "presets": list, "allow_seeds": app.hub.allow_seeds })).into_response()
}

async fn lexicons(State(app): State<AppState>) -> Response {
    Json(serde_json::json!({
        "default": app.hub.default_lexicon,
        "lexicons": app.hub.lexicon_names(),
        // The ones the computer can play with (and analyse games in).
        "computer": app.hub.engines.names(),
    }))
    .into_response()
}

async fn fallback(State(app): State<AppState>, uri: Uri) -> Response {
    let path = uri.path();
    if path.starts_with("/api/") || path == "/api" {
        return ApiError::new(
            ErrorCode::NotFound,
            format!("no endpoint {path}; see API.md"),
        )
        .into_response();
    }
    let Some(dir) = &app.static_dir else {
        if let Some((content_type, bytes)) = crate::web::asset(path) {
            return (
                [
                    (header::CONTENT_TYPE, content_type),
                    (header::CACHE_CONTROL, "no-cache"),
                ],
                bytes,
            )
                .into_response();
        }
        if path == "/" {
            return (
                [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
                "tilebag server. The API is under /api (GET /api/presets, POST /api/games).\n",
            )
                .into_response();
        }
        return ApiError::new(ErrorCode::NotFound, format!("nothing at {path}")).into_response();
    };
    serve_static(dir, path).await
}

/// A file of the static directory; unknown paths without an extension get `index.html` (the
/// page's own router decides, e.g. `/games/ID`).
async fn serve_static(dir: &std::path::Path, path: &str) -> Response {
    let mut rel = PathBuf::new();
    for part in path.split('/').filter(|p| !p.is_empty()) {
        if part == ".." || part == "." || part.contains('\\') || part.starts_with('.') {
            return ApiError::new(ErrorCode::NotFound, "no such file").into_response();
        }
        rel.push(part);
    }
    let mut file = dir.join(&rel);
    if rel.as_os_str().is_empty() || file.is_dir() {
        file = file.join("index.html");
    }
    let bytes = match tokio::fs::read(&file).await {
        Ok(b) => b,
        Err(_) if rel.extension().is_none() => {
            match tokio::fs::read(dir.join("index.html")).await {
                Ok(b) => {
                    file = dir.join("index.html");
                    b
                }
                Err(_) => {
                    return ApiError::new(ErrorCode::NotFound, "no such file").into_response()
                }
            }
        }
        Err(_) => return ApiError::new(ErrorCode::NotFound, "no such file").into_response(),
    };
    let ct = match file.extension().and_then(|e| e.to_str()).unwrap_or("") {
        "html" => "text/html; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "json" => "application/json",
        "svg" => "image/svg+xml",
        "png" => "image/png",
        "ico" => "image/x-icon",
        "woff2" => "font/woff2",
        "txt" | "gcg" => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    };
    ([(header::CONTENT_TYPE, ct)], bytes).into_response()
}

fn body_bytes(body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                ErrorCode::TooLarge,
                format!("a request body may hold at most {MAX_BODY} bytes"),
            )
        } else {
            ApiError::new(ErrorCode::BadMessage, e.body_text())
        }
    })
}

/// `POST /api/judge`: the word judge kiosk (see `web.rs`).
async fn judge(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, Response> {
    // Every adjudication is appended to the log: the quota also bounds its growth.
    if let Some(r) = quota(&app.quota_judge, peer.ip(), "adjudications") {
        return Err(r);
    }
    judge_checked(app, body)
        .await
        .map_err(IntoResponse::into_response)
}

async fn judge_checked(
    app: AppState,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let body = body_bytes(body)?;
    // Judging is quick; appending to the log is file I/O: keep it off the async workers.
    let verdict = tokio::task::spawn_blocking(move || {
        crate::web::judge_request(
            &body,
            &app.lexicons,
            &app.hub.default_lexicon,
            &*app.judge_log,
        )
    })
    .await
    .map_err(|e| ApiError::new(ErrorCode::Internal, e.to_string()))??;
    Ok(Json(verdict).into_response())
}

/// `POST /api/gcg/verify`: replay a score sheet and say where it differs (see `web.rs`).
async fn verify_gcg(
    State(app): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, Response> {
    if let Some(r) = quota(&app.quota_verify, peer.ip(), "score-sheet checks") {
        return Err(r);
    }
    verify_checked(body).map_err(IntoResponse::into_response)
}

fn verify_checked(body: Result<Bytes, BytesRejection>) -> Result<Response, ApiError> {
    let body = body_bytes(body)?;
    let report = crate::web::verify_request(&body)?;
    Ok(Json(report).into_response())
}
