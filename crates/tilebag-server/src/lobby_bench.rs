//! The lobby's figure (issue 30): a lobby of N open seeks seen by M watchers, and the time from
//! a new seek to every watcher seeing it (`tilebag bench lobby --seeks 1000 --watchers 1000`).
//!
//! The bench starts its own server (SQLite in a temporary folder, connection caps raised for
//! the watchers, the lobby's limits raised for the seeks), makes the seekers' accounts and
//! sessions in the store before it starts (signing up hundreds of accounts would measure
//! Argon2id, not the lobby), opens the watchers' streams (`GET /api/lobby/stream`, read as
//! Server-Sent Events over plain TCP), then makes the seeks one after another over HTTP as the
//! page does (`POST /api/seeks`, with the session's cookie, `Origin` and CSRF token). Each
//! watcher notes when each `seek-added` arrives; a seek's time is from just before its request
//! was sent to the moment the last watcher saw it. [`SseClient`] is also what the tests read the
//! lobby's stream with.

use crate::client::{request, ClientError};
use crate::config::ServeConfig;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::{Duration, Instant};
use tilebag_accounts::session::{cookie_name, Token, SESSION_COOKIE};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// One Server-Sent Events stream, read over plain TCP (HTTP/1.1, chunked).
pub struct SseClient {
    stream: TcpStream,
    /// Bytes read and not yet taken apart (the body after de-chunking: `decoded`).
    raw: Vec<u8>,
    decoded: Vec<u8>,
    /// Bytes of the current chunk still to come.
    chunk_left: usize,
}

/// One event of a stream.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    pub event: String,
    pub data: String,
}

impl SseEvent {
    /// The data as JSON.
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.data).unwrap_or(Value::Null)
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

impl SseClient {
    /// Opens `path` with these extra headers (e.g. `Cookie`); fails unless the answer is `200`.
    pub async fn open(
        addr: SocketAddr,
        path: &str,
        headers: &[(&str, &str)],
    ) -> Result<SseClient, ClientError> {
        match SseClient::open_answered(addr, path, headers).await? {
            Ok(c) => Ok(c),
            Err(status) => Err(ClientError::BadResponse(format!(
                "the stream was refused: {status}"
            ))),
        }
    }

    /// As [`SseClient::open`], but a refusal is its status (`Ok(Err(401))`), for tests that
    /// expect one.
    pub async fn open_answered(
        addr: SocketAddr,
        path: &str,
        headers: &[(&str, &str)],
    ) -> Result<Result<SseClient, u16>, ClientError> {
        let mut stream = TcpStream::connect(addr).await?;
        stream.set_nodelay(true)?;
        let mut req =
            format!("GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n");
        for (k, v) in headers {
            req.push_str(&format!("{k}: {v}\r\n"));
        }
        req.push_str("\r\n");
        stream.write_all(req.as_bytes()).await?;
        let mut c = SseClient {
            stream,
            raw: Vec::new(),
            decoded: Vec::new(),
            chunk_left: 0,
        };
        let head_end = loop {
            if let Some(at) = find(&c.raw, b"\r\n\r\n") {
                break at;
            }
            if !c.read_more().await? {
                return Err(ClientError::BadResponse("closed before the headers".into()));
            }
        };
        let head = String::from_utf8_lossy(&c.raw[..head_end]).into_owned();
        c.raw.drain(..head_end + 4);
        if !head.starts_with("HTTP/1.1 200") {
            let status = head.get(9..12).and_then(|s| s.parse().ok());
            return match status {
                Some(status) => Ok(Err(status)),
                None => Err(ClientError::BadResponse(format!(
                    "not an HTTP answer: {}",
                    head.lines().next().unwrap_or("")
                ))),
            };
        }
        if !head
            .to_ascii_lowercase()
            .contains("transfer-encoding: chunked")
        {
            return Err(ClientError::BadResponse(
                "the stream is not chunked".to_string(),
            ));
        }
        Ok(Ok(c))
    }

    async fn read_more(&mut self) -> Result<bool, ClientError> {
        let mut buf = [0u8; 16 * 1024];
        let n = self.stream.read(&mut buf).await?;
        self.raw.extend_from_slice(&buf[..n]);
        Ok(n > 0)
    }

    /// Moves whole or partial chunks from `raw` to `decoded`.
    fn dechunk(&mut self) -> Result<(), ClientError> {
        loop {
            if self.chunk_left > 0 {
                let n = self.chunk_left.min(self.raw.len());
                if n == 0 {
                    return Ok(());
                }
                self.decoded.extend(self.raw.drain(..n));
                self.chunk_left -= n;
                continue;
            }
            // The CRLF after a chunk, then the next chunk's size line.
            if self.raw.starts_with(b"\r\n") {
                self.raw.drain(..2);
            }
            let Some(eol) = find(&self.raw, b"\r\n") else {
                return Ok(());
            };
            let line = String::from_utf8_lossy(&self.raw[..eol]).into_owned();
            let size = usize::from_str_radix(line.split(';').next().unwrap_or("").trim(), 16)
                .map_err(|_| ClientError::BadResponse(format!("bad chunk size {line:?}")))?;
            self.raw.drain(..eol + 2);
            if size == 0 {
                return Err(ClientError::BadResponse("the stream ended".into()));
            }
            self.chunk_left = size;
        }
    }

    /// The next event (keep-alive comments skipped); `None` if none comes within `wait`.
    pub async fn next(&mut self, wait: Duration) -> Result<Option<SseEvent>, ClientError> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            self.dechunk()?;
            while let Some(end) = find(&self.decoded, b"\n\n") {
                let block: Vec<u8> = self.decoded.drain(..end + 2).collect();
                let text = String::from_utf8_lossy(&block).into_owned();
                let mut ev = SseEvent {
                    event: "message".into(),
                    data: String::new(),
                };
                let mut any = false;
                for line in text.lines() {
                    if let Some(v) = line.strip_prefix("event:") {
                        ev.event = v.trim_start().to_string();
                        any = true;
                    } else if let Some(v) = line.strip_prefix("data:") {
                        if !ev.data.is_empty() {
                            ev.data.push('\n');
                        }
                        ev.data.push_str(v.strip_prefix(' ').unwrap_or(v));
                        any = true;
                    }
                }
                if any {
                    return Ok(Some(ev));
                }
            }
            match tokio::time::timeout_at(deadline, self.read_more()).await {
                Err(_) => return Ok(None),
                Ok(Ok(true)) => {}
                Ok(Ok(false)) => return Err(ClientError::BadResponse("the stream closed".into())),
                Ok(Err(e)) => return Err(e),
            }
        }
    }

    /// The next event called `name` (others skipped); `None` if none comes within `wait`.
    pub async fn next_named(
        &mut self,
        name: &str,
        wait: Duration,
    ) -> Result<Option<SseEvent>, ClientError> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(tokio::time::Instant::now());
            match self.next(left).await? {
                Some(ev) if ev.event == name => return Ok(Some(ev)),
                Some(_) => {}
                None => return Ok(None),
            }
        }
    }
}

/// What `tilebag bench lobby` does.
#[derive(Debug, Clone)]
pub struct LobbyBenchOptions {
    /// Seeks made, one after another.
    pub seeks: usize,
    /// Streams watching the lobby.
    pub watchers: usize,
    /// Give up waiting for the watchers after this long.
    pub timeout: Duration,
}

impl Default for LobbyBenchOptions {
    fn default() -> Self {
        LobbyBenchOptions {
            seeks: 1000,
            watchers: 1000,
            timeout: Duration::from_secs(300),
        }
    }
}

/// What the lobby's bench measured.
#[derive(Debug, Clone)]
pub struct LobbyReport {
    pub seeks: usize,
    pub watchers: usize,
    /// Seeks every watcher saw.
    pub seen_by_all: usize,
    /// `seek-added` events that never arrived (watchers × seeks − arrivals).
    pub missing: u64,
    /// From a seek's request to the last watcher seeing it: median, 99th percentile, largest.
    pub all_p50: Duration,
    pub all_p99: Duration,
    pub all_max: Duration,
    /// From a seek's request to one watcher seeing it, over every arrival.
    pub each_p50: Duration,
    pub each_p99: Duration,
    /// The seek requests' answers.
    pub create_p50: Duration,
    pub create_p99: Duration,
    /// Making the seeks, first to last.
    pub elapsed: Duration,
    /// Open seeks the lobby listed at the end (`GET /api/lobby`).
    pub listed: usize,
}

impl std::fmt::Display for LobbyReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        writeln!(
            f,
            "lobby: {} seeks made one after another, {} watchers (Server-Sent Events)",
            self.seeks, self.watchers
        )?;
        writeln!(
            f,
            "  a new seek seen by every watcher: p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms \
             ({} of {} seeks seen by all; {} arrivals missing)",
            ms(self.all_p50),
            ms(self.all_p99),
            ms(self.all_max),
            self.seen_by_all,
            self.seeks,
            self.missing
        )?;
        writeln!(
            f,
            "  one watcher seeing a seek: p50 {:.1} ms, p99 {:.1} ms",
            ms(self.each_p50),
            ms(self.each_p99)
        )?;
        writeln!(
            f,
            "  the seek request's answer: p50 {:.1} ms, p99 {:.1} ms; {} seeks in {:.1} s; {} \
             listed at the end",
            ms(self.create_p50),
            ms(self.create_p99),
            self.seeks,
            self.elapsed.as_secs_f64(),
            self.listed
        )
    }
}

fn quantile(sorted: &[Duration], q: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * q).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

/// Seeks one account may hold open in the bench (the server's own default).
const PER_ACCOUNT: usize = 3;

/// Runs the bench on its own server; see the module's documentation.
pub async fn bench_lobby(
    options: LobbyBenchOptions,
) -> Result<LobbyReport, crate::bench::BenchError> {
    let setup = |m: String| crate::bench::BenchError::Setup(m);
    let dir = std::env::temp_dir().join(format!(
        "tilebag-bench-lobby-{}-{}",
        std::process::id(),
        tilebag_store::wall_ms()
    ));
    std::fs::create_dir_all(&dir).map_err(|e| setup(format!("{}: {e}", dir.display())))?;
    let db = dir.join("lobby.db").to_string_lossy().into_owned();
    let result = run(&db, &options).await;
    let _ = std::fs::remove_dir_all(&dir);
    result
}

async fn run(db: &str, o: &LobbyBenchOptions) -> Result<LobbyReport, crate::bench::BenchError> {
    let setup = |m: String| crate::bench::BenchError::Setup(m);
    // The seekers: accounts and sessions made in the store.
    let seekers = o.seeks.div_ceil(PER_ACCOUNT).max(1);
    let mut sessions = Vec::with_capacity(seekers);
    {
        let store = tilebag_store::open(db)
            .await
            .map_err(|e| setup(e.to_string()))?;
        let now = tilebag_store::wall_ms();
        for i in 0..seekers {
            let name = format!("seeker{i}");
            let id = store
                .accounts()
                .create_account(&tilebag_store::NewAccount {
                    username: name.clone(),
                    skeleton: tilebag_accounts::username::Username::parse(&name)
                        .map_err(|e| setup(e.to_string()))?
                        .skeleton(),
                    // Nobody signs in with it: the sessions are made here.
                    password_hash: "$argon2id$v=19$m=32768,t=2,p=1$bm9uZQ$bm9uZQ".into(),
                    email: None,
                    created_ms: now,
                })
                .await
                .map_err(|e| setup(e.to_string()))?
                .ok_or_else(|| setup(format!("{name} exists")))?;
            let token = Token::generate().map_err(|e| setup(e.to_string()))?;
            store
                .accounts()
                .create_session(&tilebag_store::SessionRow {
                    token_hash: token.hash().to_hex(),
                    account_id: id,
                    created_ms: now,
                    last_seen_ms: now,
                })
                .await
                .map_err(|e| setup(e.to_string()))?;
            sessions.push(token);
        }
    }
    let mut config = ServeConfig {
        port: 0,
        database: db.to_string(),
        director_key: Some("lobby-bench-director-key".into()),
        ..ServeConfig::default()
    };
    // The seeks name the built-in list (the server's default lexicon); nobody plays.
    config.add_word_source("enable1", tilebag_lexicon::WordSource::builtin());
    let room = o.watchers + 256;
    config.net.max_connections = config.net.max_connections.max(room);
    config.net.max_connections_per_address = config.net.max_connections_per_address.max(room);
    config.lobby.open_total = config.lobby.open_total.max(o.seeks);
    // Nobody's seeks expire during the bench (their seekers hold no stream).
    config.lobby.abandoned_after = Duration::from_secs(24 * 3600);
    config.lobby.max_age = Duration::from_secs(24 * 3600);
    config.lobby.seeks_per_minute = PER_ACCOUNT as u32 * 4;
    let server = crate::server::start(config).await?;
    let addr = server.addr();
    let outcome = measure(addr, o, &sessions).await;
    server.shutdown().await;
    outcome
}

async fn measure(
    addr: SocketAddr,
    o: &LobbyBenchOptions,
    sessions: &[Token],
) -> Result<LobbyReport, crate::bench::BenchError> {
    let setup = |m: String| crate::bench::BenchError::Setup(m);
    // The watchers, each with its first `seeks` (the empty list) read.
    let mut watchers = Vec::with_capacity(o.watchers);
    for _ in 0..o.watchers {
        let mut c = SseClient::open(addr, "/api/lobby/stream", &[]).await?;
        c.next_named("seeks", Duration::from_secs(10))
            .await?
            .ok_or_else(|| setup("a watcher got no list".into()))?;
        watchers.push(c);
    }
    let want = o.seeks;
    let timeout = o.timeout;
    let tasks: Vec<_> = watchers
        .into_iter()
        .map(|mut c| {
            tokio::spawn(async move {
                let mut seen: Vec<(i64, Instant)> = Vec::with_capacity(want);
                let deadline = tokio::time::Instant::now() + timeout;
                while seen.len() < want {
                    let left = deadline.saturating_duration_since(tokio::time::Instant::now());
                    match c.next_named("seek-added", left).await {
                        Ok(Some(ev)) => {
                            let at = Instant::now();
                            if let Some(id) = ev.json()["id"].as_i64() {
                                seen.push((id, at));
                            }
                        }
                        _ => break,
                    }
                }
                seen
            })
        })
        .collect();
    let origin = format!("http://{addr}");
    let cookie_names = cookie_name(SESSION_COOKIE, false);
    let mut sent: Vec<(i64, Instant)> = Vec::with_capacity(o.seeks);
    let mut answers = Vec::with_capacity(o.seeks);
    let start = Instant::now();
    for i in 0..o.seeks {
        let token = &sessions[i / PER_ACCOUNT];
        let cookie = format!("{cookie_names}={}", token.to_text());
        let csrf = token.csrf_token(crate::lobby::CSRF_PURPOSE);
        let body = json!({"minutes": 10 + (i % 20) as u32, "rated": i % 2 == 0}).to_string();
        let t0 = Instant::now();
        let r = request(
            addr,
            "POST",
            "/api/seeks",
            &[
                ("Cookie", &cookie),
                ("Origin", &origin),
                ("X-CSRF-Token", &csrf),
            ],
            Some(("application/json", body.as_bytes())),
        )
        .await?;
        answers.push(t0.elapsed());
        if r.status != 201 {
            return Err(setup(format!("seek {i} was refused: {}", r.text())));
        }
        let id = r.json()?["seek"]["id"]
            .as_i64()
            .ok_or_else(|| setup("a seek without an id".into()))?;
        sent.push((id, t0));
    }
    let elapsed = start.elapsed();
    let mut last: std::collections::HashMap<i64, (Instant, usize)> = Default::default();
    let mut each = Vec::new();
    let sent_at: std::collections::HashMap<i64, Instant> = sent.iter().copied().collect();
    let mut arrivals = 0u64;
    for t in tasks {
        let seen = t.await.map_err(|e| setup(e.to_string()))?;
        for (id, at) in seen {
            let Some(t0) = sent_at.get(&id) else { continue };
            arrivals += 1;
            each.push(at.saturating_duration_since(*t0));
            let e = last.entry(id).or_insert((at, 0));
            e.0 = e.0.max(at);
            e.1 += 1;
        }
    }
    let mut all: Vec<Duration> = sent
        .iter()
        .filter_map(|(id, t0)| {
            last.get(id)
                .filter(|(_, n)| *n == o.watchers)
                .map(|(at, _)| at.saturating_duration_since(*t0))
        })
        .collect();
    all.sort();
    each.sort();
    answers.sort();
    let listed = request(addr, "GET", "/api/lobby", &[], None)
        .await?
        .json()?["seeks"]
        .as_array()
        .map_or(0, Vec::len);
    Ok(LobbyReport {
        seeks: o.seeks,
        watchers: o.watchers,
        seen_by_all: all.len(),
        missing: (o.seeks as u64 * o.watchers as u64).saturating_sub(arrivals),
        all_p50: quantile(&all, 0.5),
        all_p99: quantile(&all, 0.99),
        all_max: all.last().copied().unwrap_or_default(),
        each_p50: quantile(&each, 0.5),
        each_p99: quantile(&each, 0.99),
        create_p50: quantile(&answers, 0.5),
        create_p99: quantile(&answers, 0.99),
        elapsed,
        listed,
    })
}
