//! Where a form came from. Every form that changes something must come from this server's own
//! pages: the cookies are `SameSite`, and a browser names the posting page's site in `Origin`,
//! so a form posted from another site (cross-site request forgery) is refused by its `Origin`
//! before anything is read. Forms of a signed-in player also carry a CSRF token.

use axum::http::{header, HeaderMap};

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
