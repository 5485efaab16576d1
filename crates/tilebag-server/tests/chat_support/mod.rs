//! The chat as a signed-in person meets it, for the chat tests: a visitor who signs up, opens a
//! room (its recent messages, whether they may send and why not), sends, mutes, blocks,
//! reports, and listens to a room's stream (Server-Sent Events, read off the socket as a
//! browser's `EventSource` would); and the store, opened beside the server, for what the site
//! has no page for yet (linking a game's seats to accounts, making a moderator).

#![allow(dead_code)]

use crate::accounts_support::Visitor;
use serde_json::Value;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tilebag_accounts::username::Username;
use tilebag_server::client::HttpResponse;
use tilebag_server::store::{self, Role, SeatLink, Store};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

pub const PASSWORD: &str = "correct horse battery";

/// A signed-in person with their chat token.
pub struct Person {
    pub name: String,
    pub web: Visitor,
    pub csrf: String,
}

impl Person {
    /// Signs up `name` at the server and opens the lobby's chat (to learn the token).
    pub async fn sign_up(addr: SocketAddr, name: &str) -> Person {
        let mut web = Visitor::new(addr);
        let r = web.sign_up(name, PASSWORD).await;
        assert_eq!(r.status, 303, "{}", r.text());
        let mut p = Person {
            name: name.to_string(),
            web,
            csrf: String::new(),
        };
        p.csrf = p.room("lobby").await["csrf"]
            .as_str()
            .expect("a chat token")
            .to_string();
        p
    }

    /// `GET /api/chat?room=…`: the room as this person sees it.
    pub async fn room(&mut self, room: &str) -> Value {
        let r = self.web.get(&format!("/api/chat?room={room}")).await;
        assert_eq!(r.status, 200, "{}", r.text());
        r.json().unwrap()
    }

    /// The texts of the room's recent messages this person sees, as `NAME: TEXT`.
    pub async fn sees(&mut self, room: &str) -> Vec<String> {
        said(&self.room(room).await["messages"])
    }

    /// Sends a message; the server's answer.
    pub async fn say(&mut self, room: &str, text: &str) -> HttpResponse {
        let csrf = self.csrf.clone();
        self.web
            .post(
                "/api/chat/send",
                &[("room", room), ("text", text), ("csrf", &csrf)],
            )
            .await
    }

    /// Sends a message that must be accepted; its id.
    pub async fn says(&mut self, room: &str, text: &str) -> i64 {
        let r = self.say(room, text).await;
        assert_eq!(
            r.status,
            200,
            "{} could not say {text:?}: {}",
            self.name,
            r.text()
        );
        r.json().unwrap()["id"].as_i64().unwrap()
    }

    /// Posts one of the chat's forms with the chat token.
    pub async fn chat_form(&mut self, path: &str, fields: &[(&str, &str)]) -> HttpResponse {
        let csrf = self.csrf.clone();
        let mut all = fields.to_vec();
        all.push(("csrf", &csrf));
        self.web.post(path, &all).await
    }

    pub async fn mute(&mut self, user: &str, set: &str) -> HttpResponse {
        self.chat_form(
            "/api/chat/relation",
            &[("user", user), ("kind", "mute"), ("set", set)],
        )
        .await
    }

    pub async fn block(&mut self, user: &str, set: &str) -> HttpResponse {
        self.chat_form(
            "/api/chat/relation",
            &[("user", user), ("kind", "block"), ("set", set)],
        )
        .await
    }

    pub async fn report(&mut self, message: i64, reason: &str) -> HttpResponse {
        self.chat_form(
            "/api/chat/report",
            &[("message", &message.to_string()), ("reason", reason)],
        )
        .await
    }

    pub async fn ask_silence(&mut self, room: &str) -> HttpResponse {
        self.chat_form("/api/chat/silence", &[("room", room)]).await
    }

    /// Opens the room's stream.
    pub async fn listen(&self, room: &str) -> Stream {
        Stream::open(&self.web, room).await
    }
}

/// Messages as `NAME: TEXT`.
pub fn said(messages: &Value) -> Vec<String> {
    messages
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            format!(
                "{}: {}",
                m["sender"].as_str().unwrap(),
                m["text"].as_str().unwrap()
            )
        })
        .collect()
}

/// The refusal's words in a chat answer.
pub fn error_of(r: &HttpResponse) -> String {
    r.json()
        .ok()
        .and_then(|v| v["error"].as_str().map(String::from))
        .unwrap_or_else(|| r.text())
}

/// A room's Server-Sent Events, read off the socket.
pub struct Stream {
    sock: tokio::net::TcpStream,
    buf: String,
    pub status: u16,
}

impl Stream {
    pub async fn open(v: &Visitor, room: &str) -> Stream {
        let mut sock = tokio::net::TcpStream::connect(v.addr).await.unwrap();
        let cookie = v
            .cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ");
        let req = format!(
            "GET /api/chat/stream?room={room} HTTP/1.1\r\nHost: {}\r\nCookie: {cookie}\r\n\
             Accept: text/event-stream\r\n\r\n",
            v.addr
        );
        sock.write_all(req.as_bytes()).await.unwrap();
        let mut s = Stream {
            sock,
            buf: String::new(),
            status: 0,
        };
        while !s.buf.contains("\r\n\r\n") {
            assert!(
                s.read(Duration::from_secs(10)).await,
                "no answer to the stream"
            );
        }
        let end = s.buf.find("\r\n\r\n").unwrap();
        s.status = s.buf[9..12].parse().unwrap();
        s.buf = s.buf[end + 4..].to_string();
        s
    }

    /// Reads what arrives within `wait`; whether anything did.
    async fn read(&mut self, wait: Duration) -> bool {
        let mut chunk = [0u8; 8192];
        match tokio::time::timeout(wait, self.sock.read(&mut chunk)).await {
            Ok(Ok(n)) if n > 0 => {
                self.buf.push_str(&String::from_utf8_lossy(&chunk[..n]));
                true
            }
            _ => false,
        }
    }

    /// The next event (`name`, `data`) within `wait`, keep-alive comments skipped.
    pub async fn next(&mut self, wait: Duration) -> Option<(String, String)> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            if let Some(ev) = self.take_event() {
                return Some(ev);
            }
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            if left.is_zero() || !self.read(left).await {
                return None;
            }
        }
    }

    /// An event whole in the buffer: `event: NAME\ndata: DATA\n\n` (chunk-size lines of the
    /// chunked encoding fall between events, never inside one).
    fn take_event(&mut self) -> Option<(String, String)> {
        let at = self.buf.find("event: ")?;
        let rest = &self.buf[at..];
        let end = rest.find("\n\n")?;
        let block = rest[..end].to_string();
        self.buf = rest[end + 2..].to_string();
        let mut name = String::new();
        let mut data = String::new();
        for line in block.lines() {
            if let Some(n) = line.strip_prefix("event: ") {
                name = n.to_string();
            } else if let Some(d) = line.strip_prefix("data: ") {
                data = d.to_string();
            }
        }
        Some((name, data))
    }

    /// The next `message` event's `NAME: TEXT` within `wait`, other events skipped.
    pub async fn next_message(&mut self, wait: Duration) -> Option<String> {
        loop {
            let (name, data) = self.next(wait).await?;
            if name == "message" {
                let m: Value = serde_json::from_str(&data).unwrap();
                return Some(format!(
                    "{}: {}",
                    m["sender"].as_str().unwrap(),
                    m["text"].as_str().unwrap()
                ));
            }
        }
    }

    /// The next event of this kind within `wait`, others skipped.
    pub async fn next_of(&mut self, kind: &str, wait: Duration) -> Option<String> {
        loop {
            let (name, data) = self.next(wait).await?;
            if name == kind {
                return Some(data);
            }
        }
    }
}

/// The server's database, opened beside it.
pub async fn database(db: &str) -> Arc<dyn Store> {
    store::open(db).await.expect("open the server's database")
}

/// An account's id by its name.
pub async fn account_id(s: &dyn Store, name: &str) -> i64 {
    s.accounts()
        .account_by_skeleton(&Username::parse(name).unwrap().skeleton())
        .await
        .unwrap()
        .expect("the account")
        .id
}

/// Seats `first` and `second` at game `id` (an event game if `event`).
pub async fn seat(s: &dyn Store, id: &str, first: i64, second: i64, event: bool) {
    let link = |seat: u8, account_id: i64| SeatLink {
        game_id: id.to_string(),
        seat,
        account_id,
        rated: false,
        event,
        correspondence: false,
        category: "test/casual".into(),
        created_ms: 1,
    };
    s.seats()
        .link_seats(&[link(0, first), link(1, second)])
        .await
        .unwrap();
}

/// Makes an account a moderator (as `tilebag accounts moderator NAME` does).
pub async fn make_moderator(s: &dyn Store, name: &str) {
    let id = account_id(s, name).await;
    assert!(s.accounts().set_role(id, Role::Moderator).await.unwrap());
}
