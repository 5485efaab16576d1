//! Pages as answers: the HTML of `tilebag-pages` with a status, never cached (every page shows
//! live state), and the redirect a form answers with.

use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use maud::Markup;

/// A page as an answer (never cached: every page shows live state).
pub(crate) fn html_response(status: StatusCode, page: Markup) -> Response {
    (
        status,
        [(header::CACHE_CONTROL, "no-store")],
        Html(page.into_string()),
    )
        .into_response()
}

/// Back to `to` with a message (`Ok`) or an error (`Err`) to show there.
pub(crate) fn back(to: &str, ok: Result<String, String>) -> Response {
    Redirect::to(&tilebag_pages::back_url(to, ok)).into_response()
}

/// A refusal on a director's page.
pub(crate) fn director_error(status: StatusCode, message: &str) -> Response {
    html_response(status, tilebag_pages::director_error(message))
}

/// A refusal on a players' page, in the public layout (no file path, no server detail).
pub(crate) fn public_error(status: StatusCode, message: &str) -> Response {
    html_response(status, tilebag_pages::public_error(message))
}

/// The director's sign-in page.
pub(crate) fn login_page(status: StatusCode, error: Option<&str>) -> Response {
    html_response(status, tilebag_pages::login_page(error))
}
