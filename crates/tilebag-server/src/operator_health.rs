//! `GET /api/health`: for everyone, whether this process can serve (`http::readiness`: `503` with
//! the reason when the database or NATS is out of reach). With the director key (a bearer token,
//! or a director's session), also the operator's view of the service (issue 31 item 5). For one process alone: this process, its database and its games. For
//! several: every process that has beaten recently (alive or not, by the database's clock),
//! and the games each one owns by lease, with this process's own view of the database and of
//! NATS. An outage says so here (`"database": "down"`, `"nats": "down"`) while the players are
//! refused with `unavailable`.

use crate::ops::{refused_unless_operator, OpsState};
use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use serde_json::json;
use std::collections::BTreeMap;
use std::net::SocketAddr;
use tilebag_live::health::DbState;
use tilebag_store::Store;

/// A process is counted alive if it beat within this long (it beats every second).
const ALIVE_WITHIN_MS: i64 = 5_000;

pub(crate) fn router(state: OpsState) -> Router {
    Router::new()
        .route("/api/health", get(health))
        .with_state(state)
}

#[derive(Serialize)]
struct ProcessView {
    name: String,
    address: String,
    alive: bool,
    seen_ms_ago: i64,
    started_at_ms: i64,
    /// The live games it holds the lease of.
    games: Vec<String>,
}

async fn health(
    State(s): State<OpsState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Response {
    let (ok, mut ready) = crate::http::readiness(&s.hub).await;
    let status = if ok {
        StatusCode::OK
    } else {
        StatusCode::SERVICE_UNAVAILABLE
    };
    let asked = headers.contains_key(header::AUTHORIZATION)
        || crate::director_access::cookie_token(&headers).is_some();
    if !asked {
        return (status, Json(ready)).into_response();
    }
    if let Some(refusal) = refused_unless_operator(&s, peer, &headers, "the operator's health view")
    {
        return refusal;
    }
    let operator = operator_view(&s).await;
    if let (Some(r), Some(o)) = (ready.as_object_mut(), operator.as_object()) {
        for (k, v) in o {
            r.entry(k.clone()).or_insert_with(|| v.clone());
        }
    }
    (status, Json(ready)).into_response()
}

/// The processes, the games each owns, and this process's view of the database and NATS.
async fn operator_view(s: &OpsState) -> serde_json::Value {
    let database = match s.hub.database().state() {
        DbState::Up => json!({"state": "up"}),
        DbState::Down { since, reason } => json!({
            "state": "down",
            "reason": reason,
            "down_for_ms": since.elapsed().as_millis() as u64,
        }),
    };
    let Some(cluster) = s.hub.cluster() else {
        return json!({
            "mode": "one process",
            "database_state": database,
            "games_in_memory": s.hub.games_in_memory(),
        });
    };
    let nats = match &*cluster.nats.state().borrow() {
        tilebag_nats::ConnState::Connected => json!({"state": "up"}),
        tilebag_nats::ConnState::Disconnected { since, reason } => json!({
            "state": "down",
            "reason": reason,
            "down_for_ms": since.elapsed().as_millis() as u64,
        }),
    };
    let mut processes = Vec::new();
    let mut unowned = Vec::new();
    if let Some(leases) = s.hub.database().leases() {
        let (procs, all) = match (leases.processes().await, leases.leases().await) {
            (Ok(p), Ok(l)) => (p, l),
            (Err(e), _) | (_, Err(e)) => {
                return json!({
                    "mode": "several processes",
                    "this_process": cluster.process,
                    "database_state": database,
                    "nats_state": nats,
                    "error": format!("the processes and leases cannot be read: {e}"),
                })
            }
        };
        let mut owned: BTreeMap<String, Vec<String>> = BTreeMap::new();
        for l in all {
            if l.expires_in_ms > 0 {
                owned.entry(l.owner).or_default().push(l.game_id);
            } else {
                unowned.push(l.game_id);
            }
        }
        for p in procs {
            processes.push(ProcessView {
                games: owned.remove(&p.name).unwrap_or_default(),
                alive: p.seen_ms_ago < ALIVE_WITHIN_MS,
                name: p.name,
                address: p.address,
                seen_ms_ago: p.seen_ms_ago,
                started_at_ms: p.started_at_ms,
            });
        }
    }
    json!({
        "mode": "several processes",
        "this_process": cluster.process,
        "database_state": database,
        "nats_state": nats,
        "takeovers": cluster.takeovers.load(std::sync::atomic::Ordering::Relaxed),
        "processes": processes,
        "games_between_owners": unowned,
    })
}
