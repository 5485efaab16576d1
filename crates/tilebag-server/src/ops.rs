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

/// Lets an operator in: a director signed in to `/td`, or the director key as a bearer token
/// (a wrong key counts against the sign-in's throttle). `Some`: the refusal to send instead.
pub(crate) fn refused_unless_operator(
    s: &OpsState,
    peer: SocketAddr,
    headers: &HeaderMap,
    what: &str,
) -> Option<Response> {
    let now = Instant::now();
    let session = cookie_token(headers).is_some_and(|t| s.director.access.session(&t, now));
    if session {
        return None;
    }
    let Some(key) = bearer(headers) else {
        return Some(refused(
            StatusCode::UNAUTHORIZED,
            &format!("{what} needs the director key: send `Authorization: Bearer KEY`"),
        ));
    };
    match s.director.access.check_key(peer.ip(), key, now) {
        Ok(()) => None,
        Err(SignIn::Throttled(why)) => Some(refused(StatusCode::TOO_MANY_REQUESTS, why)),
        Err(_) => Some(refused(
            StatusCode::UNAUTHORIZED,
            "that is not the director key",
        )),
    }
}

async fn metrics(
    State(s): State<OpsState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Response {
    if let Some(refusal) = refused_unless_operator(&s, peer, &headers, "the metrics") {
        return refusal;
    }
    let cpu = process_cpu();
    let page = s.hub.metrics.render(&Gauges {
        games: s.hub.games_in_memory(),
        connections: s.gate.open(),
        database_up: matches!(s.hub.database().state(), DbState::Up),
        started_s: s.started_s,
        cpu_seconds: cpu.map(|c| c.user + c.system),
        cpu_system_seconds: cpu.map(|c| c.system),
        cluster: s
            .hub
            .cluster()
            .map(|c| tilebag_live::metrics::ClusterGauges {
                leases_held: c.fences.count(),
                stand_ins: s.hub.stand_ins(),
                takeovers: c.takeovers.load(std::sync::atomic::Ordering::Relaxed),
                nats_up: c.nats.is_connected(),
            }),
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

/// The CPU time this process has used so far, in seconds.
#[derive(Debug, Clone, Copy)]
pub struct CpuTimes {
    /// In the process's own code.
    pub user: f64,
    /// In the kernel, for the process.
    pub system: f64,
}

/// The CPU time this process has used so far, user and system apart (their sum is Prometheus'
/// `process_cpu_seconds_total`); `None` if the system will not say.
pub fn process_cpu() -> Option<CpuTimes> {
    // SAFETY: `getrusage` only writes the `rusage` it is given, which lives on this stack and
    // is valid when zeroed (plain integers).
    let usage = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
            return None;
        }
        usage
    };
    let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    Some(CpuTimes {
        user: secs(usage.ru_utime),
        system: secs(usage.ru_stime),
    })
}

#[cfg(test)]
mod tests {
    #[test]
    fn cpu_time_grows_with_work() {
        let before = super::process_cpu()
            .expect("getrusage works on this system")
            .user;
        // Spin until the kernel's accounting (a tick, at worst 10 ms) shows the work.
        let mut x = 0u64;
        loop {
            for i in 0..1_000_000u64 {
                x = x.wrapping_mul(31).wrapping_add(i);
            }
            std::hint::black_box(x);
            if super::process_cpu().unwrap().user > before {
                break;
            }
        }
        assert!(before >= 0.0);
    }
}
