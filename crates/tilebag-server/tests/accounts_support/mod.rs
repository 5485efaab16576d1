//! A visitor with a browser's cookie jar, for the account tests: it fills in forms, follows
//! nothing by itself, and keeps the cookies the server sets (as a browser does: a cookie with
//! `Max-Age=0` is forgotten).

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::net::SocketAddr;
use tilebag_server::client::{parse_response, HttpResponse};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

/// One request from the loopback address `from` (all of 127/8 is this machine, so one test can
/// be visitors at several addresses).
async fn request(
    from: &str,
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: Option<(&str, &[u8])>,
) -> HttpResponse {
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.bind(SocketAddr::new(from.parse().unwrap(), 0))
        .unwrap();
    let mut s = sock.connect(addr).await.unwrap();
    let mut req = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        req.push_str(&format!("{k}: {v}\r\n"));
    }
    if let Some((t, b)) = body {
        req.push_str(&format!(
            "Content-Type: {t}\r\nContent-Length: {}\r\n",
            b.len()
        ));
    }
    req.push_str("\r\n");
    let mut bytes = req.into_bytes();
    if let Some((_, b)) = body {
        bytes.extend_from_slice(b);
    }
    s.write_all(&bytes).await.unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.unwrap();
    parse_response(&raw).unwrap()
}

/// Percent-encodes a form value.
pub fn form_value(s: &str) -> String {
    let mut out = String::new();
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// One browser: its cookies, the server it asks and the address it asks from.
#[derive(Clone)]
pub struct Visitor {
    pub addr: SocketAddr,
    pub from: String,
    pub cookies: BTreeMap<String, String>,
}

impl Visitor {
    /// A browser at 127.0.0.1.
    pub fn new(addr: SocketAddr) -> Visitor {
        Visitor::at("127.0.0.1", addr)
    }

    /// A browser at another loopback address (`127.0.0.2`, ...).
    pub fn at(from: &str, addr: SocketAddr) -> Visitor {
        Visitor {
            addr,
            from: from.to_string(),
            cookies: BTreeMap::new(),
        }
    }

    fn cookie_header(&self) -> String {
        self.cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    fn keep_cookies(&mut self, r: &HttpResponse) {
        for (k, v) in &r.headers {
            if !k.eq_ignore_ascii_case("set-cookie") {
                continue;
            }
            let first = v.split(';').next().unwrap_or("");
            let Some((name, value)) = first.split_once('=') else {
                continue;
            };
            if v.contains("Max-Age=0") {
                self.cookies.remove(name.trim());
            } else {
                self.cookies
                    .insert(name.trim().to_string(), value.trim().to_string());
            }
        }
    }

    /// Opens a page.
    pub async fn get(&mut self, path: &str) -> HttpResponse {
        let cookie = self.cookie_header();
        let r = request(
            &self.from,
            self.addr,
            "GET",
            path,
            &[("Cookie", &cookie)],
            None,
        )
        .await;
        self.keep_cookies(&r);
        r
    }

    /// Posts a form (from this site's own page) with these fields.
    pub async fn post(&mut self, path: &str, fields: &[(&str, &str)]) -> HttpResponse {
        let origin = format!("http://{}", self.addr);
        self.post_from(&origin, path, fields).await
    }

    /// Posts a form from the page of the site `origin`.
    pub async fn post_from(
        &mut self,
        origin: &str,
        path: &str,
        fields: &[(&str, &str)],
    ) -> HttpResponse {
        let body = fields
            .iter()
            .map(|(k, v)| format!("{k}={}", form_value(v)))
            .collect::<Vec<_>>()
            .join("&");
        let cookie = self.cookie_header();
        let r = request(
            &self.from,
            self.addr,
            "POST",
            path,
            &[("Cookie", &cookie), ("Origin", origin)],
            Some(("application/x-www-form-urlencoded", body.as_bytes())),
        )
        .await;
        self.keep_cookies(&r);
        r
    }

    /// Signs up with this name and password: the server's answer.
    pub async fn sign_up(&mut self, name: &str, password: &str) -> HttpResponse {
        self.post("/signup", &[("username", name), ("password", password)])
            .await
    }

    /// Signs in with this name and password: the server's answer.
    pub async fn sign_in(&mut self, name: &str, password: &str) -> HttpResponse {
        self.post("/signin", &[("username", name), ("password", password)])
            .await
    }

    /// Who the server says is signed in (`GET /api/me`).
    pub async fn who(&mut self) -> Option<String> {
        let r = self.get("/api/me").await;
        assert_eq!(r.status, 200, "{}", r.text());
        r.json().unwrap()["username"].as_str().map(String::from)
    }

    /// The CSRF token of the account page's forms.
    pub async fn csrf(&mut self) -> String {
        let page = self.get("/account").await.text();
        let at = page.find("name=\"csrf\" value=\"").expect("a CSRF field");
        let rest = &page[at + "name=\"csrf\" value=\"".len()..];
        rest[..rest.find('"').unwrap()].to_string()
    }
}
