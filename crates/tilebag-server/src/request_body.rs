//! Reading a request's body, before any handler sees it, into one buffer that never outgrows
//! the body limit, under a deadline for the whole request and a minimum rate.
//!
//! Why here and not in the handlers: hyper hands a body over in the pieces the client sent.
//! Collecting them (as axum's extractors do) keeps each piece alive until the body ends, and each
//! piece holds on to the read buffer it was cut from: a body sent one byte per TCP segment cost
//! about 3.8 KB of memory per byte until the request ended. Here each piece is copied into one
//! buffer and dropped at once, so hyper reuses its read buffer, and a body costs its own length.
//!
//! And a body that drips (a byte every few seconds) must not hold a connection for ever: the idle
//! timeout restarts with every byte. A request has `request_timeout` from its first byte to its
//! last, and once its body has taken `BODY_GRACE` it must have come at `min_body_rate` on average.

use axum::body::{Body, Bytes};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use hyper::body::Incoming;
use std::time::{Duration, Instant};

/// The time a body may take before its rate counts (a phone on a poor network sends a small
/// body in one or two segments, well within this).
pub(crate) const BODY_GRACE: Duration = Duration::from_secs(3);

/// The rules a body is read under (from [`crate::NetLimits`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct BodyRules {
    /// The largest body any route takes.
    pub max_bytes: usize,
    /// When the whole request (headers and body) must have arrived.
    pub deadline: Instant,
    /// Bytes a second, on average, once the body has taken [`BODY_GRACE`].
    pub min_rate: u64,
}

/// Why a body was refused; answered with `Connection: close`.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum BodyRefusal {
    /// Over the limit (said by `Content-Length`, or found while reading).
    TooLarge(usize),
    /// The deadline passed, or the body came slower than the minimum rate.
    TooSlow(&'static str),
    /// The client closed the connection or sent a malformed body.
    Broken,
}

impl IntoResponse for BodyRefusal {
    fn into_response(self) -> Response {
        let (status, code, message) = match self {
            BodyRefusal::TooLarge(max) => (
                StatusCode::PAYLOAD_TOO_LARGE,
                "too-large",
                format!("a request body may hold at most {max} bytes"),
            ),
            BodyRefusal::TooSlow(why) => (StatusCode::REQUEST_TIMEOUT, "too-slow", why.to_string()),
            BodyRefusal::Broken => (
                StatusCode::BAD_REQUEST,
                "bad-message",
                "the request body could not be read".to_string(),
            ),
        };
        let body = serde_json::json!({"type": "error", "code": code, "message": message});
        let mut r = (status, axum::Json(body)).into_response();
        r.headers_mut()
            .insert(header::CONNECTION, HeaderValue::from_static("close"));
        r
    }
}

/// Reads the whole body into one buffer, or says why not.
pub(crate) async fn read(mut body: Incoming, rules: BodyRules) -> Result<Body, BodyRefusal> {
    use hyper::body::Body as _;
    if body.is_end_stream() {
        return Ok(Body::empty());
    }
    // hyper reads the length from `Content-Length` (none for a chunked body).
    let declared = body.size_hint().exact();
    if declared.is_some_and(|n| n > rules.max_bytes as u64) {
        return Err(BodyRefusal::TooLarge(rules.max_bytes));
    }
    // One allocation when the length is declared; otherwise growth up to the limit only.
    let mut buf: Vec<u8> = Vec::with_capacity(declared.unwrap_or(0) as usize);
    let began = Instant::now();
    loop {
        let due = rate_deadline(began, buf.len(), rules).min(rules.deadline);
        let frame = std::future::poll_fn(|cx| std::pin::Pin::new(&mut body).poll_frame(cx));
        let frame = match tokio::time::timeout_at(due.into(), frame).await {
            Err(_) if due >= rules.deadline => {
                return Err(BodyRefusal::TooSlow(
                    "the request did not arrive in time: send it whole, at a normal pace",
                ))
            }
            Err(_) => {
                return Err(BodyRefusal::TooSlow(
                    "the request body came too slowly: send it whole, at a normal pace",
                ))
            }
            Ok(None) => break,
            Ok(Some(Err(_))) => return Err(BodyRefusal::Broken),
            Ok(Some(Ok(f))) => f,
        };
        if let Ok(data) = frame.into_data() {
            if buf.len() + data.len() > rules.max_bytes {
                return Err(BodyRefusal::TooLarge(rules.max_bytes));
            }
            buf.extend_from_slice(&data);
            // `data` is dropped here: its share of hyper's read buffer goes back at once.
        }
    }
    Ok(Body::from(Bytes::from(buf)))
}

/// When a body that has brought `received` bytes since `began` falls below the minimum rate.
fn rate_deadline(began: Instant, received: usize, rules: BodyRules) -> Instant {
    if rules.min_rate == 0 {
        return rules.deadline;
    }
    let earned = Duration::from_secs_f64(received as f64 / rules.min_rate as f64);
    began + BODY_GRACE + earned
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rate_deadline_moves_on_with_every_byte_received() {
        let now = Instant::now();
        let rules = BodyRules {
            max_bytes: 16_384,
            deadline: now + Duration::from_secs(20),
            min_rate: 1000,
        };
        // Nothing yet: the grace alone.
        assert_eq!(rate_deadline(now, 0, rules), now + BODY_GRACE);
        // 500 bytes at 1,000 a second buy half a second more.
        assert_eq!(
            rate_deadline(now, 500, rules),
            now + BODY_GRACE + Duration::from_millis(500)
        );
        // No minimum rate: only the request's deadline.
        let none = BodyRules {
            min_rate: 0,
            ..rules
        };
        assert_eq!(rate_deadline(now, 0, none), rules.deadline);
    }

    #[test]
    fn refusals_close_the_connection_with_a_status_that_names_them() {
        let r = BodyRefusal::TooLarge(16_384).into_response();
        assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!(r.headers()[header::CONNECTION], "close");
        let r = BodyRefusal::TooSlow("slow").into_response();
        assert_eq!(r.status(), StatusCode::REQUEST_TIMEOUT);
    }
}
