//! Players in the lobby, for the lobby's tests: a signed-up account with its cookies and the
//! page's CSRF token, its requests as the lobby page sends them (JSON, this site's `Origin`,
//! `X-CSRF-Token`), its lobby stream, and its seat at a game.

#![allow(dead_code)]

use crate::accounts_support::Visitor;
use crate::common::{Conn, Table};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;
use tilebag_server::client::{request, HttpResponse};
use tilebag_server::lobby_bench::{SseClient, SseEvent};

pub const PASSWORD: &str = "correct horse battery";
/// How long a test waits for something that should come.
pub const WAIT: Duration = Duration::from_secs(10);
/// How long a test waits for something that should not come.
pub const QUIET: Duration = Duration::from_millis(1500);

/// A signed-in player.
pub struct Player {
    pub v: Visitor,
    pub name: String,
    pub csrf: String,
}

impl Player {
    /// Signs up as `name` from the loopback address `from`.
    pub async fn sign_up(addr: SocketAddr, from: &str, name: &str) -> Player {
        let mut v = Visitor::at(from, addr);
        let r = v.sign_up(name, PASSWORD).await;
        assert_eq!(r.status, 303, "{}", r.text());
        let mut p = Player {
            v,
            name: name.into(),
            csrf: String::new(),
        };
        let me = p.lobby().await["me"].clone();
        assert_eq!(me["username"], name);
        p.csrf = me["csrf"].as_str().unwrap().to_string();
        p
    }

    fn cookie(&self) -> String {
        self.v
            .cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// `GET /api/lobby` as this player.
    pub async fn lobby(&mut self) -> Value {
        let r = self.v.get("/api/lobby").await;
        assert_eq!(r.status, 200, "{}", r.text());
        r.json().unwrap()
    }

    /// A request as the lobby page sends it.
    pub async fn post(&self, path: &str, body: &Value) -> HttpResponse {
        let origin = format!("http://{}", self.v.addr);
        self.post_with(path, body, &origin, &self.csrf).await
    }

    /// A request with this `Origin` and CSRF token.
    pub async fn post_with(
        &self,
        path: &str,
        body: &Value,
        origin: &str,
        csrf: &str,
    ) -> HttpResponse {
        let cookie = self.cookie();
        let text = body.to_string();
        request(
            self.v.addr,
            "POST",
            path,
            &[
                ("Cookie", &cookie),
                ("Origin", origin),
                ("X-CSRF-Token", csrf),
            ],
            Some(("application/json", text.as_bytes())),
        )
        .await
        .unwrap()
    }

    /// Seeks a game; the seek as listed.
    pub async fn seek(&self, body: Value) -> Value {
        let r = self.post("/api/seeks", &body).await;
        assert_eq!(r.status, 201, "{}", r.text());
        r.json().unwrap()["seek"].clone()
    }

    /// Accepts a seek; the acceptor's seat (`{game_id, url, seat, opponent}`).
    pub async fn accept(&self, seek: &Value) -> Value {
        let r = self.accept_answer(seek).await;
        assert_eq!(r.status, 201, "{}", r.text());
        r.json().unwrap()["game"].clone()
    }

    pub async fn accept_answer(&self, seek: &Value) -> HttpResponse {
        self.post(&format!("/api/seeks/{}/accept", seek["id"]), &json!({}))
            .await
    }

    /// Answers a rematch (`offer`, `accept`, `decline`, `withdraw`).
    pub async fn rematch(&self, game_id: &str, action: &str) -> HttpResponse {
        self.post(
            &format!("/api/games/{game_id}/rematch"),
            &json!({ "action": action }),
        )
        .await
    }

    /// Opens this player's lobby stream and reads its first list.
    pub async fn stream(&self) -> Watcher {
        let cookie = self.cookie();
        watch(self.v.addr, &[("Cookie", &cookie)]).await
    }
}

/// A lobby stream, its first `seeks` read.
pub struct Watcher {
    pub sse: SseClient,
    pub first: Value,
}

/// Opens a lobby stream with these headers (none: a guest's).
pub async fn watch(addr: SocketAddr, headers: &[(&str, &str)]) -> Watcher {
    let mut sse = SseClient::open(addr, "/api/lobby/stream", headers)
        .await
        .unwrap();
    let first = sse.next_named("seeks", WAIT).await.unwrap().unwrap().json();
    Watcher { sse, first }
}

impl Watcher {
    /// The next event called `name` (others skipped); fails if none comes.
    pub async fn wait(&mut self, name: &str) -> Value {
        self.sse
            .next_named(name, WAIT)
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("no {name} event came"))
            .json()
    }

    /// Every event that comes within [`QUIET`].
    pub async fn rest(&mut self) -> Vec<SseEvent> {
        let mut out = Vec::new();
        let until = tokio::time::Instant::now() + QUIET;
        loop {
            let left = until.saturating_duration_since(tokio::time::Instant::now());
            match self.sse.next(left).await.unwrap() {
                Some(ev) => out.push(ev),
                None => return out,
            }
        }
    }
}

/// The seat link's WebSocket path: `/games/ID?token=T` → `/api/games/ID/ws?token=T`.
pub fn ws_path(url: &str) -> String {
    let (game, token) = url
        .strip_prefix("/games/")
        .and_then(|r| r.split_once("?token="))
        .unwrap_or_else(|| panic!("not a seat link: {url}"));
    format!("/api/games/{game}/ws?token={token}")
}

/// Both seats of a game at the table, from their links (in any order).
pub async fn sit_down(addr: SocketAddr, a: &Value, b: &Value) -> Table {
    let mut by_seat = [a, b];
    by_seat.sort_by_key(|s| s["seat"].as_u64().unwrap());
    let id = a["game_id"].as_str().unwrap();
    assert_eq!(id, b["game_id"].as_str().unwrap());
    let created = json!({
        "id": id,
        "seats": [
            {"ws": ws_path(by_seat[0]["url"].as_str().unwrap())},
            {"ws": ws_path(by_seat[1]["url"].as_str().unwrap())},
        ],
        "observer_ws": format!("/api/games/{id}/ws"),
    });
    Table::open(addr, &created, false).await
}

/// One seat's connection, and its first view.
pub async fn seat(addr: SocketAddr, seated: &Value) -> Conn {
    Conn::open(addr, &ws_path(seated["url"].as_str().unwrap())).await
}
