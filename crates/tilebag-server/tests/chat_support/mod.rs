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

/// A room's Server-Sent Events (read with the server crate's own client).
pub struct Stream {
    client: Option<tilebag_server::lobby_bench::SseClient>,
    pub status: u16,
}

impl Stream {
    pub async fn open(v: &Visitor, room: &str) -> Stream {
        let cookie = v
            .cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ");
        let path = format!("/api/chat/stream?room={room}");
        match tilebag_server::lobby_bench::SseClient::open_answered(
            v.addr,
            &path,
            &[("Cookie", &cookie)],
        )
        .await
        .expect("an answer to the stream")
        {
            Ok(client) => Stream {
                client: Some(client),
                status: 200,
            },
            Err(status) => Stream {
                client: None,
                status,
            },
        }
    }

    /// The next event (`name`, `data`) within `wait`, keep-alive comments skipped.
    pub async fn next(&mut self, wait: Duration) -> Option<(String, String)> {
        let ev = self.client.as_mut()?.next(wait).await.ok()??;
        Some((ev.event, ev.data))
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
