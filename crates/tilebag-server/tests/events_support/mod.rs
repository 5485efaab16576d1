//! Plumbing for the online events' tests (issue 30 item 6): the director's pages posted as a
//! browser posts them, players with accounts on their entry pages, and the event file read back
//! as `tilebag td` reads it.

#![allow(dead_code)]

use crate::accounts_support::Visitor;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use tilebag_events::EventFile;
use tilebag_server::client::{request, HttpResponse};
use tilebag_tournament::{Division, Tournament};

/// Percent-decoding, for reading messages out of redirect addresses.
pub fn decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' && i + 2 < b.len() {
            out.push(u8::from_str_radix(&s[i + 1..i + 3], 16).unwrap());
            i += 3;
        } else {
            out.push(if b[i] == b'+' { b' ' } else { b[i] });
            i += 1;
        }
    }
    String::from_utf8(out).unwrap()
}

pub use crate::common::between;

/// The director, signed in on `/td`.
pub struct Director {
    pub addr: SocketAddr,
    pub cookie: String,
    /// The server's folder of event files.
    pub events: PathBuf,
}

impl Director {
    pub async fn sign_in(addr: SocketAddr, server_dir: &Path) -> Director {
        Director {
            addr,
            cookie: crate::common::sign_in_as_director(addr).await,
            events: server_dir.join("tilebag-events"),
        }
    }

    pub async fn get(&self, path: &str) -> HttpResponse {
        request(self.addr, "GET", path, &[("Cookie", &self.cookie)], None)
            .await
            .unwrap()
    }

    /// Posts a form; returns where the page sent the browser next (decoded: its message or
    /// error is readable).
    pub async fn post(&self, path: &str, body: &str) -> String {
        let r = request(
            self.addr,
            "POST",
            path,
            &[("Cookie", &self.cookie)],
            Some(("application/x-www-form-urlencoded", body.as_bytes())),
        )
        .await
        .unwrap();
        assert_eq!(r.status, 303, "{path}: {}", r.text());
        decode(r.header("location").unwrap())
    }

    /// Creates event `id` with one division `A`.
    pub async fn create_event(&self, id: &str, preset: &str, schedule: &str) {
        let to = self
            .post("/td/new", &format!("id={id}&name=Online+Open"))
            .await;
        assert_eq!(to, format!("/td/{id}?msg=Event created."));
        let to = self
            .post(
                &format!("/td/{id}/division"),
                &format!("name=A&preset={preset}&schedule={schedule}&seed=5"),
            )
            .await;
        assert_eq!(to, format!("/td/{id}/d/A?msg=Division A added."));
    }

    /// Opens division A of `event` to online entries (check-in from `check_in_from`, UTC
    /// `YYYY-MM-DDTHH:MM`, empty for now); the page's message.
    pub async fn open_entries(&self, event: &str, check_in_from: &str, minutes: u32) -> String {
        self.post(
            &format!("/td/{event}/d/A/entries"),
            &format!("do=open&check_in_from={check_in_from}&no_show_minutes={minutes}&lexicon="),
        )
        .await
    }

    pub async fn close_entries(&self, event: &str) -> String {
        self.post(&format!("/td/{event}/d/A/entries"), "do=close")
            .await
    }

    /// Previews round `round` of division A and posts it: the page's message.
    pub async fn pair(&self, event: &str, round: u32) -> String {
        let preview = self
            .get(&format!("/td/{event}/d/A/pair?round={round}"))
            .await
            .text();
        let version = between(&preview, "name=\"version\" value=\"", "\"")
            .unwrap_or_else(|| panic!("no pairing preview: {preview}"))
            .to_string();
        self.post(
            &format!("/td/{event}/d/A/pair"),
            &format!("round={round}&method=&based_on=&version={version}"),
        )
        .await
    }

    /// The event as its file holds it.
    pub fn load(&self, event: &str) -> Tournament {
        EventFile::open_read(&self.events.join(format!("{event}.tbev")))
            .unwrap()
            .load()
            .unwrap()
    }

    pub fn division(&self, event: &str) -> Division {
        self.load(event).division("A").unwrap().clone()
    }
}

/// A player with an account, in their own browser.
pub struct Player {
    pub name: String,
    pub visitor: Visitor,
}

impl Player {
    /// Signs up as `name` (from its own loopback address).
    pub async fn sign_up(addr: SocketAddr, n: u8, name: &str) -> Player {
        let mut visitor = Visitor::at(&format!("127.0.0.{}", 10 + n), addr);
        let r = visitor.sign_up(name, "a long enough password").await;
        assert_eq!(r.status, 303, "{}", r.text());
        Player {
            name: name.to_string(),
            visitor,
        }
    }

    fn entry_path(event: &str) -> String {
        format!("/events/{event}/A/entry")
    }

    /// The player's entry page for division A of `event`.
    pub async fn entry_page(&mut self, event: &str) -> String {
        let r = self.visitor.get(&Self::entry_path(event)).await;
        assert_eq!(r.status, 200, "{}", r.text());
        r.text()
    }

    /// Presses a button of the entry page (`register`, `check-in`, `withdraw`): where the page
    /// went next, decoded.
    pub async fn press(&mut self, event: &str, what: &str) -> String {
        let page = self.entry_page(event).await;
        let csrf = between(&page, "name=\"csrf\" value=\"", "\"")
            .unwrap_or_else(|| panic!("no form on the entry page: {page}"))
            .to_string();
        self.post(event, what, &csrf).await
    }

    /// Posts the entry form with this CSRF token: where the page went next, decoded.
    pub async fn post(&mut self, event: &str, what: &str, csrf: &str) -> String {
        let r = self
            .visitor
            .post(&Self::entry_path(event), &[("do", what), ("csrf", csrf)])
            .await;
        assert_eq!(r.status, 303, "{}", r.text());
        decode(r.header("location").unwrap())
    }

    /// The player's seat link on their entry page, if it shows one: (game id, token).
    pub async fn seat_link(&mut self, event: &str) -> Option<(String, String)> {
        let page = self.entry_page(event).await;
        let link = between(&page, "href=\"/games/", "\"")?;
        let (id, token) = link.split_once("?token=")?;
        Some((id.to_string(), token.to_string()))
    }
}

/// The message (`msg=`) or error (`err=`) a redirect carries.
pub fn said(location: &str) -> &str {
    location
        .split_once("msg=")
        .or_else(|| location.split_once("err="))
        .map_or("", |(_, m)| m)
}

impl Director {
    /// The event's log as `tilebag td` keeps it: each action's JSON, oldest first.
    pub fn log(&self, event: &str) -> Vec<String> {
        EventFile::open_read(&self.events.join(format!("{event}.tbev")))
            .unwrap()
            .rows()
            .unwrap()
            .into_iter()
            .map(|r| r.action)
            .collect()
    }
}

/// Where a test's server keeps its games.
#[derive(Clone, Copy, Debug)]
pub enum Db {
    Sqlite,
    Postgres,
}

/// A server on `db` (the event files in a fresh directory either way), or `None` when the
/// database is PostgreSQL and `TILEBAG_TEST_POSTGRES` is not set. A PostgreSQL server gets a
/// schema of its own (as `restart.rs`'s), dropped by [`Backend::stop`].
pub struct Backend {
    pub served: crate::common::Served,
    config: tilebag_server::ServeConfig,
    schema: Option<(tokio_postgres::Client, String)>,
}

impl Backend {
    pub async fn start(name: &str, db: Db, words: &[&str]) -> Option<Backend> {
        let schema = match db {
            Db::Sqlite => None,
            Db::Postgres => {
                let Ok(url) = std::env::var("TILEBAG_TEST_POSTGRES") else {
                    println!("skipping: TILEBAG_TEST_POSTGRES not set");
                    return None;
                };
                let (client, conn) = tokio_postgres::connect(&url, tokio_postgres::NoTls)
                    .await
                    .expect("connect to TILEBAG_TEST_POSTGRES");
                tokio::spawn(conn);
                let schema = format!("tilebag_test_{}", crate::common::random_tag());
                client
                    .batch_execute(&format!("CREATE SCHEMA {schema}"))
                    .await
                    .unwrap();
                let sep = if url.contains('?') { '&' } else { '?' };
                let scoped = format!("{url}{sep}options=-c%20search_path%3D{schema}");
                Some((client, schema, scoped))
            }
        };
        let dir = crate::common::temp_dir(name);
        let db = match &schema {
            Some((_, _, url)) => url.clone(),
            None => dir.join("t.db").to_str().unwrap().to_string(),
        };
        let mut cfg = crate::common::config(&db, words);
        cfg.events_dir = Some(dir.join("tilebag-events"));
        let server = tilebag_server::start(cfg.clone()).await.unwrap();
        let addr = server.addr();
        Some(Backend {
            config: cfg,
            served: crate::common::Served {
                server,
                addr,
                dir,
                db,
            },
            schema: schema.map(|(c, s, _)| (c, s)),
        })
    }

    /// Stops the server and starts it again on the same database and event files (on the
    /// same port: the players' and the director's cookies stay good).
    pub async fn restart(self) -> Backend {
        let Backend {
            served,
            config,
            schema,
        } = self;
        let crate::common::Served {
            server,
            addr,
            dir,
            db,
        } = served;
        server.shutdown().await;
        let mut cfg = config.clone();
        cfg.port = addr.port();
        let server = tilebag_server::start(cfg)
            .await
            .unwrap_or_else(|e| panic!("restart: {e}"));
        Backend {
            served: crate::common::Served {
                server,
                addr,
                dir,
                db,
            },
            config,
            schema,
        }
    }

    pub async fn stop(self) {
        self.served.stop().await;
        if let Some((client, schema)) = self.schema {
            client
                .batch_execute(&format!("DROP SCHEMA {schema} CASCADE"))
                .await
                .unwrap();
        }
    }
}

/// What the server logged at WARN and above while this test process ran (every test of the
/// file shares it: look for what names your own games).
pub fn logged() -> String {
    let buf = log_buffer();
    let b = buf.lock().unwrap();
    String::from_utf8_lossy(&b).into_owned()
}

fn log_buffer() -> &'static std::sync::Arc<std::sync::Mutex<Vec<u8>>> {
    static BUF: std::sync::OnceLock<std::sync::Arc<std::sync::Mutex<Vec<u8>>>> =
        std::sync::OnceLock::new();
    BUF.get_or_init(|| std::sync::Arc::new(std::sync::Mutex::new(Vec::new())))
}

/// Starts keeping what the server logs (see [`logged`]); call before starting a server.
pub fn capture_log() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let buf = log_buffer().clone();
        let subscriber = tracing_subscriber::fmt()
            .with_max_level(tracing::Level::WARN)
            .with_ansi(false)
            .with_writer(move || LogWriter(buf.clone()))
            .finish();
        let _ = tracing::subscriber::set_global_default(subscriber);
    });
}

struct LogWriter(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for LogWriter {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A page's live stream (Server-Sent Events), read with the server crate's own client.
pub struct LiveStream {
    client: Option<tilebag_server::lobby_bench::SseClient>,
    pub status: u16,
}

impl LiveStream {
    /// Opens `path` with the visitor's cookies.
    pub async fn open(v: &Visitor, path: &str) -> LiveStream {
        let cookie = v
            .cookies
            .iter()
            .map(|(k, v)| format!("{k}={v}"))
            .collect::<Vec<_>>()
            .join("; ");
        match tilebag_server::lobby_bench::SseClient::open_answered(
            v.addr,
            path,
            &[("Cookie", &cookie)],
        )
        .await
        .expect("an answer to the stream")
        {
            Ok(client) => LiveStream {
                client: Some(client),
                status: 200,
            },
            Err(status) => LiveStream {
                client: None,
                status,
            },
        }
    }

    /// The HTML of the next `page` event within `wait` (keep-alive comments skipped).
    pub async fn next_page(&mut self, wait: std::time::Duration) -> Option<String> {
        let ev = self
            .client
            .as_mut()?
            .next_named("page", wait)
            .await
            .ok()??;
        let v: serde_json::Value = serde_json::from_str(&ev.data).unwrap();
        Some(v["html"].as_str().unwrap().to_string())
    }
}
