//! What an operator's tools read: `GET /metrics`, the figures in Prometheus' text format
//! (`tilebag_live::metrics`), behind the director key. A collector presents the key as
//! `Authorization: Bearer KEY` (Prometheus' `authorization` setting); a director signed in to
//! `/td` may open it in the browser. A wrong key counts against the director sign-in's throttle.

use crate::director::Director;
use crate::director_access::{cookie_token, SignIn};
use crate::net::Gate;
use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Instant;
use tilebag_live::health::DbState;
use tilebag_live::live::Hub;
use tilebag_live::metrics::Gauges;

#[derive(Clone)]
pub(crate) struct OpsState {
    pub hub: Arc<Hub>,
    pub director: Arc<Director>,
    pub gate: Arc<Gate>,
    /// Unix seconds when the process started.
    pub started_s: f64,
}

pub(crate) fn router(state: OpsState) -> Router {
    Router::new()
        .route("/metrics", get(metrics))
        .with_state(state)
}

fn bearer(headers: &HeaderMap) -> Option<&str> {
    let v = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, key) = v.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then_some(key.trim())
}

fn refused(status: StatusCode, why: &str) -> Response {
    let mut r = (status, format!("{why}\n")).into_response();
    r.headers_mut().insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static("Bearer realm=\"tilebag metrics\""),
    );
    r
}

async fn metrics(
    State(s): State<OpsState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Response {
    let now = Instant::now();
    let session = cookie_token(&headers).is_some_and(|t| s.director.access.session(&t, now));
    if !session {
        let Some(key) = bearer(&headers) else {
            return refused(
                StatusCode::UNAUTHORIZED,
                "the metrics need the director key: send `Authorization: Bearer KEY`",
            );
        };
        match s.director.access.check_key(peer.ip(), key, now) {
            Ok(()) => {}
            Err(SignIn::Throttled(why)) => return refused(StatusCode::TOO_MANY_REQUESTS, why),
            Err(_) => return refused(StatusCode::UNAUTHORIZED, "that is not the director key"),
        }
    }
    let page = s.hub.metrics.render(&Gauges {
        games: s.hub.games_in_memory(),
        connections: s.gate.open(),
        database_up: matches!(s.hub.database().state(), DbState::Up),
        started_s: s.started_s,
    });
    (
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"),
        )],
        page,
    )
        .into_response()
}
