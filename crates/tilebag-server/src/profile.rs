//! A player's public profile (issue 30 item 2): `GET /u/NAME` (the page,
//! `tilebag-pages::profile`) and `GET /api/users/NAME` (the same as JSON): their online ratings
//! per category with each rating's history, their newest games (opponent, result and score,
//! date, rules and lexicon, rated or not; links to the game, its GCG and its analysis) and their
//! record against each level of the computer.
//!
//! Anybody may look: nothing private is shown (no seat token, no e-mail, nothing of a game's
//! hidden racks: the links lead to the game's own pages, which decide what an observer sees).
//! A name that is not a valid username, an unknown name and a banned account all answer 404
//! with the same words.

use crate::api_error::ApiError;
use crate::ratings::{finish_of, outcome_for};
use crate::respond::{html_response, public_error};
use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::net::SocketAddr;
use std::sync::Arc;
use tilebag_accounts::glicko2::{CategoryRating, Glicko2, Outcome, Rating as GlickoRating};
use tilebag_accounts::username::Username;
use tilebag_core::game::EndReason;
use tilebag_live::health::Monitored;
use tilebag_live::protocol::ErrorCode;
use tilebag_live::quota::PerAddress;
use tilebag_pages::profile::{
    self as tpl, ComputerRecord, HistoryPoint, ProfileGame, ProfileRating,
};
use tilebag_store::{Account, AccountGame, GameStatus, Store};

/// The newest games a profile lists (and counts against the computer).
pub(crate) const GAMES_SHOWN: usize = 200;
/// The most points of each rating's history drawn.
pub(crate) const HISTORY_SHOWN: usize = 200;
/// The most categories shown (there are five time-control classes per lexicon).
const MAX_CATEGORIES: usize = 50;

/// Profile lookups (page or JSON) one address may make per minute: each reads several tables,
/// so a client looping over names is slowed down, not a person browsing.
pub(crate) const VIEWS_PER_MINUTE: u32 = 300;

pub(crate) struct Profiles {
    store: Arc<Monitored>,
    system: Glicko2,
    views: PerAddress,
}

impl Profiles {
    pub(crate) fn new(store: Arc<Monitored>) -> Profiles {
        Profiles {
            store,
            system: Glicko2::default(),
            views: PerAddress::new(VIEWS_PER_MINUTE),
        }
    }
}

type ProfilesState = Arc<Profiles>;

pub(crate) fn router(profiles: Arc<Profiles>) -> Router {
    Router::new()
        .route("/u/{name}", get(page))
        .route("/api/users/{name}", get(api))
        .with_state(profiles)
}

fn now_ms() -> i64 {
    tilebag_store::wall_ms()
}

/// `2026-11-27` of a Unix time in milliseconds.
fn date(ms: i64) -> String {
    let text = tilebag_core::civil::utc_text(ms.max(0) / 1000);
    text.split('T').next().unwrap_or("").to_string()
}

/// A category key (`ENABLE.blitz`) for people: `ENABLE · blitz`.
fn category_name(key: &str) -> String {
    key.replace('.', " · ")
}

/// Why the profile cannot be shown.
enum NotShown {
    NoSuchPlayer,
    StoreDown,
    /// Too many lookups from the address: seconds until the next.
    TooMany(u64),
}

/// One rating with its history, as both answers use it.
struct RatingFigures {
    key: String,
    now: GlickoRating,
    games: u32,
    history: Vec<tilebag_store::RatingPoint>,
}

/// One game as both answers use it.
struct GameFigures {
    g: AccountGame,
    opponent: String,
    computer_level: Option<String>,
    outcome: Option<Outcome>,
    scores: Option<(i32, i32)>,
    reason: Option<EndReason>,
}

struct Figures {
    account: Account,
    ratings: Vec<RatingFigures>,
    games: Vec<GameFigures>,
    /// Level → (wins, losses, ties).
    computer: BTreeMap<String, (u32, u32, u32)>,
}

async fn figures(p: &Profiles, peer: SocketAddr, name: &str) -> Result<Figures, NotShown> {
    p.views.take(peer.ip()).map_err(NotShown::TooMany)?;
    let Ok(parsed) = Username::parse(name) else {
        return Err(NotShown::NoSuchPlayer);
    };
    let store: &dyn Store = &*p.store;
    let account = match store
        .accounts()
        .account_by_skeleton(&parsed.skeleton())
        .await
    {
        Ok(Some(a)) if !a.banned => a,
        Ok(_) => return Err(NotShown::NoSuchPlayer),
        Err(_) => return Err(NotShown::StoreDown),
    };
    let down = |_| NotShown::StoreDown;
    let now = now_ms();
    let mut ratings = Vec::new();
    for r in store
        .accounts()
        .ratings_of(account.id)
        .await
        .map_err(down)?
        .into_iter()
        .take(MAX_CATEGORIES)
    {
        let mut history = store
            .accounts()
            .rating_history(account.id, &r.category, HISTORY_SHOWN)
            .await
            .map_err(down)?;
        history.reverse();
        let stored = CategoryRating {
            rating: GlickoRating::new(r.rating, r.deviation, r.volatility),
            games: r.games,
            last_game_ms: Some(r.updated_ms.max(0) as u64),
        };
        ratings.push(RatingFigures {
            // As it stands today: the deviation grows while the player is away.
            now: p.system.aged(&stored, now.max(0) as u64),
            games: r.games,
            key: r.category,
            history,
        });
    }
    let mut games = Vec::new();
    let mut computer: BTreeMap<String, (u32, u32, u32)> = BTreeMap::new();
    for g in store
        .seats()
        .games_of_account(account.id, GAMES_SHOWN)
        .await
        .map_err(down)?
    {
        let seat = usize::from(g.link.seat.min(1));
        let other = 1 - seat;
        let computer_level = g
            .game
            .bot
            .as_ref()
            .filter(|b| b.seat == other)
            .map(|b| b.level.clone());
        let finish = (g.game.status == GameStatus::Ended)
            .then(|| finish_of(&g.game))
            .flatten();
        let outcome = finish.as_ref().map(|f| outcome_for(seat, f));
        if let (Some(level), Some(o)) = (&computer_level, outcome) {
            let e = computer.entry(level.clone()).or_default();
            match o {
                Outcome::Win => e.0 += 1,
                Outcome::Loss => e.1 += 1,
                Outcome::Tie => e.2 += 1,
            }
        }
        games.push(GameFigures {
            opponent: g.game.names[other].clone(),
            computer_level,
            outcome,
            scores: finish.map(|f| (f.scores[seat], f.scores[other])),
            reason: finish.and_then(|f| f.reason),
            g,
        });
    }
    Ok(Figures {
        account,
        ratings,
        games,
        computer,
    })
}

fn retry_after(mut r: Response, secs: u64) -> Response {
    r.headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(secs.max(1)));
    r
}

fn not_shown(n: NotShown) -> Response {
    match n {
        NotShown::NoSuchPlayer => public_error(StatusCode::NOT_FOUND, "There is no such player."),
        NotShown::StoreDown => public_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "The database is not answering just now; try again in a minute.",
        ),
        NotShown::TooMany(wait_s) => retry_after(
            public_error(
                StatusCode::TOO_MANY_REQUESTS,
                "Too many profiles looked at from this address; please wait a minute.",
            ),
            wait_s,
        ),
    }
}

fn result_word(status: GameStatus, outcome: Option<Outcome>) -> &'static str {
    match (status, outcome) {
        (_, Some(Outcome::Win)) => "Won",
        (_, Some(Outcome::Loss)) => "Lost",
        (_, Some(Outcome::Tie)) => "Tied",
        (GameStatus::Expired, None) => "Not started",
        (GameStatus::Ended, None) => "Ended",
        (GameStatus::Live, None) => "Playing",
    }
}

/// How a game ended, from the player's side, when it was not the usual end.
fn how(reason: Option<EndReason>, seat: usize) -> Option<String> {
    let who = |s: usize| if s == seat { "you" } else { "the opponent" };
    Some(match reason? {
        EndReason::Resigned { seat: s } => format!("{} resigned", who(s)),
        EndReason::Left { seat: s } => format!("{} left the game", who(s)),
        EndReason::OvertimeLimit { seat: s } => format!("{} reached the overtime limit", who(s)),
        EndReason::SixZeros => "six scoreless turns".into(),
        EndReason::GameClockExpired => "the game clock ran out".into(),
        EndReason::DirectorEnded => "ended by the director".into(),
        EndReason::WentOut { .. } => return None,
    })
}

fn reason_key(reason: Option<EndReason>) -> Value {
    match reason {
        Some(r) => serde_json::to_value(r).unwrap_or(Value::Null),
        None => Value::Null,
    }
}

fn outcome_key(o: Option<Outcome>) -> Value {
    match o {
        Some(Outcome::Win) => json!("win"),
        Some(Outcome::Loss) => json!("loss"),
        Some(Outcome::Tie) => json!("tie"),
        None => Value::Null,
    }
}

/// The computer's name at a level, as its games name it: `Computer (strong)`.
fn computer_name(level: &str) -> String {
    match tilebag_engine::Level::parse(level) {
        Some(l) => tilebag_live::bot::bot_name(l),
        None => format!("Computer ({level})"),
    }
}

fn opponent_name(g: &GameFigures) -> String {
    match &g.computer_level {
        Some(level) => computer_name(level),
        None => g.opponent.clone(),
    }
}

async fn page(
    State(p): State<ProfilesState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(name): Path<String>,
) -> Response {
    let f = match figures(&p, peer, &name).await {
        Ok(f) => f,
        Err(n) => return not_shown(n),
    };
    let profile = tpl::Profile {
        username: f.account.username.clone(),
        since: date(f.account.created_ms),
        ratings: f
            .ratings
            .iter()
            .map(|r| ProfileRating {
                category: category_name(&r.key),
                rating: r.now.display(),
                deviation: r.now.deviation.round() as i64,
                games: u64::from(r.games),
                provisional: r.now.is_provisional(),
                history: r
                    .history
                    .iter()
                    .map(|h| HistoryPoint {
                        date: date(h.at_ms),
                        game_id: h.game_id.clone(),
                        rating: h.rating,
                        deviation: h.deviation,
                    })
                    .collect(),
                // A newcomer's rating before the first game, when the history goes back that far.
                start: (r.history.len() as u64 == u64::from(r.games)).then_some((
                    tilebag_accounts::glicko2::INITIAL_RATING,
                    tilebag_accounts::glicko2::INITIAL_DEVIATION,
                )),
            })
            .collect(),
        games: f
            .games
            .iter()
            .map(|g| ProfileGame {
                id: g.g.game.id.clone(),
                opponent: opponent_name(g),
                result: result_word(g.g.game.status, g.outcome),
                scores: g.scores,
                how: how(g.reason, usize::from(g.g.link.seat.min(1))),
                date: date(g.g.link.created_ms),
                // The preset's title for people, not its id (`naspa-2013`).
                rules: tilebag_core::ruleset::Ruleset::preset(&g.g.game.preset)
                    .map(|r| r.title)
                    .unwrap_or_else(|_| g.g.game.preset.clone()),
                lexicon: g.g.game.lexicon.clone(),
                rated: g.g.link.rated,
                event: g.g.link.event,
                correspondence: g.g.link.correspondence,
                ended: g.g.game.status == GameStatus::Ended,
            })
            .collect(),
        games_considered: GAMES_SHOWN,
        computer: f
            .computer
            .iter()
            .map(|(level, (w, l, t))| ComputerRecord {
                level: computer_name(level),
                wins: *w,
                losses: *l,
                ties: *t,
            })
            .collect(),
    };
    html_response(StatusCode::OK, tpl::profile_page(&profile))
}

/// `GET /api/users/NAME`: the profile as JSON.
async fn api(
    State(p): State<ProfilesState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Path(name): Path<String>,
) -> Response {
    let f = match figures(&p, peer, &name).await {
        Ok(f) => f,
        Err(NotShown::NoSuchPlayer) => {
            return ApiError::new(ErrorCode::NotFound, "there is no such player").into_response()
        }
        Err(NotShown::TooMany(wait_s)) => {
            return retry_after(
                ApiError::new(
                    ErrorCode::RateLimited,
                    "too many profiles looked at from this address; wait a minute",
                )
                .into_response(),
                wait_s,
            )
        }
        Err(NotShown::StoreDown) => {
            return ApiError::new(
                ErrorCode::Unavailable,
                "the database is not answering just now",
            )
            .into_response()
        }
    };
    let ratings: Vec<Value> = f
        .ratings
        .iter()
        .map(|r| {
            json!({
                "category": r.key,
                "rating": r.now.rating,
                "deviation": r.now.deviation,
                "volatility": r.now.volatility,
                "games": r.games,
                "provisional": r.now.is_provisional(),
                "history": r.history.iter().map(|h| json!({
                    "game_id": h.game_id,
                    "rating": h.rating,
                    "deviation": h.deviation,
                    "at_ms": h.at_ms,
                })).collect::<Vec<_>>(),
            })
        })
        .collect();
    let games: Vec<Value> = f
        .games
        .iter()
        .map(|g| {
            let id = &g.g.game.id;
            let ended = g.g.game.status == GameStatus::Ended;
            let enc = tilebag_pages::enc(id);
            json!({
                "id": id,
                "seat": g.g.link.seat,
                "opponent": g.opponent,
                "computer_level": g.computer_level,
                "status": g.g.game.status.as_str(),
                "result": outcome_key(g.outcome),
                "score": g.scores.map(|(a, _)| a),
                "opponent_score": g.scores.map(|(_, b)| b),
                "reason": reason_key(g.reason),
                "created_ms": g.g.link.created_ms,
                "preset": g.g.game.preset,
                "lexicon": g.g.game.lexicon,
                "category": g.g.link.category,
                "rated": g.g.link.rated,
                "event": g.g.link.event,
                "correspondence": g.g.link.correspondence,
                "links": {
                    "game": format!("/games/{enc}"),
                    "gcg": ended.then(|| format!("/api/games/{enc}/gcg")),
                    "analysis": ended.then(|| format!("/api/games/{enc}/analysis")),
                },
            })
        })
        .collect();
    let computer: Vec<Value> = f
        .computer
        .iter()
        .map(|(level, (w, l, t))| json!({"level": level, "wins": w, "losses": l, "ties": t}))
        .collect();
    (
        [(header::CACHE_CONTROL, "no-store")],
        axum::Json(json!({
            "username": f.account.username,
            "since_ms": f.account.created_ms,
            "ratings": ratings,
            "games": games,
            "computer": computer,
        })),
    )
        .into_response()
}
