//! The error answer of the HTTP API: `{"type":"error","code":"...","message":"..."}` with a
//! fitting status, and how a game's or the web helpers' errors become one.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use tilebag_live::game_handle::HubError;
use tilebag_live::protocol::ErrorCode;

/// An error answer: `{"type":"error","code":"...","message":"..."}` with a fitting status.
#[derive(Debug)]
pub(crate) struct ApiError {
    code: ErrorCode,
    message: String,
}

impl ApiError {
    pub(crate) fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
        }
    }
}

impl From<HubError> for ApiError {
    fn from(e: HubError) -> ApiError {
        // An outage is logged once, when it starts (see `health.rs`), not with every refusal.
        let outage = matches!(&e, HubError::Store(s) if s.is_unavailable());
        if matches!(e, HubError::Store(_) | HubError::Restore(_)) && !outage {
            tracing::error!(error = %e, "internal error");
        }
        ApiError::new(e.code(), e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.code.http_status())
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = serde_json::json!({
            "type": "error",
            "code": self.code,
            "message": self.message,
        });
        (status, Json(body)).into_response()
    }
}

impl From<crate::web::WebError> for ApiError {
    fn from(e: crate::web::WebError) -> ApiError {
        ApiError::new(e.code, e.message)
    }
}
