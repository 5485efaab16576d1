//! Helpers for the server tests: a server on port 0 with a temporary SQLite file, and a table of
//! real WebSocket clients (two seats and an observer) that records every message.

#![allow(dead_code)]

use serde_json::{json, Value};
use std::collections::HashSet;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tilebag_core::bag::Rng;
use tilebag_core::gcg::{parse_gcg, GcgRecord};
use tilebag_core::replay::{verify_record, Completion};
use tilebag_server::bench::choose_action;
use tilebag_server::client::{http, post_json, WsClient};
use tilebag_server::ServeConfig;

pub const WAIT: Duration = Duration::from_secs(20);

/// 12 random hex digits.
pub fn random_tag() -> String {
    let mut b = [0u8; 6];
    getrandom::fill(&mut b).unwrap();
    b.iter().map(|x| format!("{x:02x}")).collect()
}

/// A fresh directory for a test's database.
pub fn temp_dir(name: &str) -> PathBuf {
    let tag = random_tag();
    let dir =
        std::env::temp_dir().join(format!("tilebag-test-{name}-{}-{tag}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A config on port 0 with the lexicon `test` made of `words`.
pub fn config(database: &str, words: &[&str]) -> ServeConfig {
    let set: HashSet<String> = words.iter().map(|w| w.to_uppercase()).collect();
    let mut c = ServeConfig {
        port: 0,
        database: database.to_string(),
        default_lexicon: "test".into(),
        // Set, so that no test writes a key file (beside the working directory for PostgreSQL).
        director_key: Some("common-test-director-key".into()),
        // The tests choose seeds, to know the racks.
        allow_seeds: true,
        ..ServeConfig::default()
    };
    c.lexicons.insert("test".into(), Arc::new(set));
    // The test clients play far faster than people: only the rate-limit test keeps the limit.
    c.limits.messages_per_second = 1000.0;
    c.limits.burst = 1000.0;
    // Every test client is on loopback, and some create many games at once: the per-address
    // quotas are tested on their own (`exposure.rs`).
    c.quotas.games_per_minute = 0;
    c.quotas.judge_per_minute = 0;
    c.quotas.verify_per_minute = 0;
    c.quotas.signups_per_minute = 0;
    c.quotas.max_waiting_per_address = 0;
    c
}

pub async fn create(addr: SocketAddr, body: Value) -> Value {
    let r = post_json(addr, "/api/games", &body).await.unwrap();
    assert_eq!(r.status, 201, "{}", r.text());
    r.json().unwrap()
}

/// `view` with the whole score sheet: a connection opened with `history=new` is sent only the
/// lines from `history_from` on, which follow the lines of the view before (as the game page
/// joins them).
pub fn joined(before: Option<&Value>, view: &Value) -> Value {
    let from = view["history_from"].as_u64().unwrap_or(0) as usize;
    let mut v = view.clone();
    if from > 0 {
        let had = before
            .and_then(|b| b["history"].as_array())
            .cloned()
            .unwrap_or_default();
        assert!(
            had.len() >= from,
            "lines from {from} on, but only {} before",
            had.len()
        );
        let mut lines: Vec<Value> = had[..from].to_vec();
        lines.extend(view["history"].as_array().unwrap().iter().cloned());
        v["history"] = Value::Array(lines);
    }
    v
}

/// One connection and the last view it received (its score sheet whole).
pub struct Conn {
    pub ws: WsClient,
    pub view: Option<Value>,
}

impl Conn {
    pub async fn open(addr: SocketAddr, path: &str) -> Conn {
        let mut c = Conn {
            ws: WsClient::connect(addr, path).await.unwrap(),
            view: None,
        };
        c.wait_seq(0).await;
        c
    }

    /// The next message; states update `view`.
    pub async fn next(&mut self) -> Value {
        let m = self
            .ws
            .recv_timeout(WAIT)
            .await
            .unwrap()
            .unwrap_or_else(|| panic!("connection closed: {:?}", self.ws.closed));
        if m["type"] == "state" {
            self.view = Some(joined(self.view.as_ref(), &m["view"]));
        }
        m
    }

    /// Read until the view shows at least `seq` events.
    pub async fn wait_seq(&mut self, seq: u64) -> Value {
        loop {
            if let Some(v) = &self.view {
                if v["seq"].as_u64().unwrap() >= seq {
                    return v.clone();
                }
            }
            self.next().await;
        }
    }

    /// Read until the view says the game has started (a new game starts when both seats have
    /// connected; a connection opened before that gets one more `state` then).
    pub async fn wait_started(&mut self) -> Value {
        loop {
            if let Some(v) = &self.view {
                if v["started"] == true {
                    return v.clone();
                }
            }
            self.next().await;
        }
    }

    /// Read whatever has arrived, without waiting.
    pub async fn drain(&mut self) {
        while let Ok(Ok(Some(m))) =
            tokio::time::timeout(Duration::from_millis(1), self.ws.recv()).await
        {
            if m["type"] == "state" {
                self.view = Some(joined(self.view.as_ref(), &m["view"]));
            }
        }
    }

    pub fn view(&self) -> &Value {
        self.view.as_ref().unwrap()
    }
}

/// Two seats and (optionally) an observer on one game.
pub struct Table {
    pub addr: SocketAddr,
    pub id: String,
    pub seats: Vec<Conn>,
    pub observer: Option<Conn>,
    next_id: u64,
}

impl Table {
    pub async fn open(addr: SocketAddr, created: &Value, observer: bool) -> Table {
        let id = created["id"].as_str().unwrap().to_string();
        let mut seats = Vec::new();
        for s in 0..2 {
            seats.push(Conn::open(addr, created["seats"][s]["ws"].as_str().unwrap()).await);
        }
        // Both seats are here, so the game has started: seat 1's first view says so, and seat 0
        // (here first) is told. Read that, so that every view is current and no `state` is
        // left unread.
        assert_eq!(seats[1].view()["started"], true, "{}", seats[1].view());
        seats[0].wait_started().await;
        let observer = if observer {
            Some(Conn::open(addr, created["observer_ws"].as_str().unwrap()).await)
        } else {
            None
        };
        Table {
            addr,
            id,
            seats,
            observer,
            next_id: 0,
        }
    }

    /// A table of connections opened elsewhere (on several processes of one service); `addr`
    /// is where its GCG and snapshot are asked for.
    pub fn of(addr: SocketAddr, id: &str, seats: Vec<Conn>, observer: Option<Conn>) -> Table {
        Table {
            addr,
            id: id.to_string(),
            seats,
            observer,
            next_id: 0,
        }
    }

    /// Send an action from `seat`; return its `ack` or `error`. After an ack, every connection
    /// has received the new view.
    pub async fn act(&mut self, seat: usize, mut action: Value) -> Value {
        self.next_id += 1;
        let id = format!("t{}", self.next_id);
        action["id"] = json!(id);
        self.seats[seat].ws.send_json(&action).await.unwrap();
        let reply = loop {
            let m = self.seats[seat].next().await;
            if (m["type"] == "ack" || m["type"] == "error") && m["id"] == json!(id) {
                break m;
            }
        };
        if reply["type"] == "ack" {
            let seq = reply["seq"].as_u64().unwrap();
            self.wait_all(seq).await;
        }
        reply
    }

    /// Like `act`, but the action must be acknowledged.
    pub async fn ok(&mut self, seat: usize, action: Value) -> Value {
        let r = self.act(seat, action.clone()).await;
        assert_eq!(r["type"], "ack", "{action} was refused: {r}");
        r
    }

    pub async fn wait_all(&mut self, seq: u64) {
        for c in self.seats.iter_mut().chain(self.observer.iter_mut()) {
            c.wait_seq(seq).await;
        }
    }

    pub fn view(&self, seat: usize) -> &Value {
        self.seats[seat].view()
    }

    /// Let the two seats play `n` random legal moves (fewer if the game ends first).
    pub async fn autoplay_some(&mut self, seed: u64, max_tiles: usize, n: usize) {
        let mut rng = Rng::new(seed);
        let mut done = 0;
        while done < n && self.view(0)["phase"]["type"] != "ended" {
            let Some((s, a)) = (0..2)
                .find_map(|s| choose_action(self.view(s), &mut rng, max_tiles).map(|a| (s, a)))
            else {
                break;
            };
            if self.act(s, a).await["type"] == "ack" {
                done += 1;
            }
        }
    }

    /// Let the two seats play random legal moves until the game is over (or `max` actions).
    pub async fn autoplay(&mut self, seed: u64, max_tiles: usize, think: Duration, max: usize) {
        let mut rng = Rng::new(seed);
        for _ in 0..max {
            for c in self.seats.iter_mut().chain(self.observer.iter_mut()) {
                c.drain().await;
            }
            if self.view(0)["phase"]["type"] == "ended" {
                let seq = self.view(0)["seq"].as_u64().unwrap();
                self.wait_all(seq).await;
                return;
            }
            let mut acted = false;
            for s in 0..2 {
                if let Some(a) = choose_action(self.view(s), &mut rng, max_tiles) {
                    if !think.is_zero() {
                        tokio::time::sleep(think).await;
                    }
                    let r = self.act(s, a.clone()).await;
                    if r["type"] == "error" {
                        // Time may have moved the game on (a turn timed out): look again.
                        eprintln!("refused {a}: {r}");
                    }
                    acted = true;
                    break;
                }
            }
            if !acted {
                // Nobody to move (e.g. an out play waiting for its window): wait for news.
                let _ =
                    tokio::time::timeout(Duration::from_millis(200), self.seats[0].next()).await;
            }
        }
        panic!(
            "the game did not end within {max} actions: {}",
            self.view(0)
        );
    }

    pub async fn gcg(&self) -> String {
        let r = http(
            self.addr,
            "GET",
            &format!("/api/games/{}/gcg", self.id),
            None,
        )
        .await
        .unwrap();
        assert_eq!(r.status, 200, "{}", r.text());
        assert!(r.header("content-type").unwrap().starts_with("text/plain"));
        r.text()
    }

    pub async fn get(&self) -> Value {
        let r = http(self.addr, "GET", &format!("/api/games/{}", self.id), None)
            .await
            .unwrap();
        assert_eq!(r.status, 200, "{}", r.text());
        r.json().unwrap()
    }
}

/// Check a finished game's GCG as `tilebag gcg verify` does: it parses, replays without error,
/// is complete and ends with the server's final scores.
pub fn verify_gcg(text: &str, scores: [i64; 2]) -> GcgRecord {
    let record = parse_gcg(text.as_bytes()).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let report = verify_record(&record).unwrap_or_else(|e| panic!("{e}\n{text}"));
    assert_eq!(report.completion, Completion::Complete, "{text}");
    assert_eq!(
        [report.scores[0] as i64, report.scores[1] as i64],
        scores,
        "{text}"
    );
    record
}

pub fn final_scores(view: &Value) -> [i64; 2] {
    [0, 1].map(|s| view["players"][s]["score"].as_i64().unwrap())
}

/// Effects of an ack, by type.
pub fn effect_types(ack: &Value) -> Vec<String> {
    ack["effects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["type"].as_str().unwrap().to_string())
        .collect()
}

/// The running clock's time left in a seat view.
pub fn running_left(view: &Value) -> i64 {
    let s = view["clocks"]["running"].as_u64().expect("a clock runs") as usize;
    view["clocks"]["remaining_ms"][s].as_i64().unwrap()
}

/// What must survive a restart exactly (everything but the time of the view).
pub fn position(view: &Value) -> Value {
    json!({
        "board": view["board"], "rack": view["rack"], "unseen": view["unseen"],
        "players": view["players"], "history": view["history"], "seq": view["seq"],
        "phase": view["phase"], "to_move": view["to_move"], "bag_count": view["bag_count"],
    })
}

/// Play part of a game, stop the server as a crash would, wait, start a new server on the same
/// database, reconnect, check that everything came back (clocks included, the downtime not
/// charged), and finish the game.
pub async fn restart_scenario(database: &str) {
    let mut cfg = config(database, &[]);
    cfg.checkpoint_every = Duration::from_millis(100);
    let server = tilebag_server::start(cfg.clone()).await.unwrap();
    let addr = server.addr();
    let created = create(
        addr,
        json!({"preset": "naspa-2013", "players": ["Gil", "Hal"], "initial_minutes": 10, "seed": 77}),
    )
    .await;
    let mut t = Table::open(addr, &created, false).await;
    let mut rng = Rng::new(3);
    for _ in 0..6 {
        for s in 0..2 {
            if let Some(a) = choose_action(t.view(s), &mut rng, 3) {
                t.ok(s, a).await;
                break;
            }
        }
    }
    // Let the clock run a little, with checkpoints, then take a fresh view.
    tokio::time::sleep(Duration::from_millis(400)).await;
    let mover = t.view(0)["to_move"].as_u64().unwrap() as usize;
    t.seats[mover]
        .ws
        .send_json(&json!({"type": "state"}))
        .await
        .unwrap();
    let seq = t.view(mover)["seq"].as_u64().unwrap();
    let before_left;
    loop {
        let m = t.seats[mover].next().await;
        if m["type"] == "state" {
            before_left = running_left(&m["view"]);
            break;
        }
    }
    let before = [position(t.view(0)), position(t.view(1))];
    assert_eq!(before[0]["seq"], seq);
    assert!(
        before_left < 10 * 60_000 - 300,
        "the clock ran: {before_left}"
    );
    server.kill();
    drop(t);

    // Down for two seconds: WESPA 4.1(f) — the time the server was down is not charged.
    tokio::time::sleep(Duration::from_millis(2000)).await;
    let server = tilebag_server::start(cfg).await.unwrap();
    let addr = server.addr();
    let mut t = Table::open(addr, &created, true).await;
    let after = [position(t.view(0)), position(t.view(1))];
    assert_eq!(before, after, "the game came back exactly");
    let after_left = running_left(t.view(mover));
    let lost = before_left - after_left;
    eprintln!(
        "restart on {}: the running clock was charged {lost} ms across 2 s of downtime",
        tilebag_server::store::redact_url(database)
    );
    assert!(
        (-300..700).contains(&lost),
        "the clock should resume where it stopped (charged {lost} ms for 2 s of downtime)"
    );
    // The listing shows the game live, without secrets.
    let list = http(addr, "GET", "/api/games", None)
        .await
        .unwrap()
        .json()
        .unwrap();
    let entry = list["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == created["id"])
        .expect("listed")
        .clone();
    assert_eq!(entry["status"], "live");
    assert!(!entry
        .to_string()
        .contains(created["seats"][0]["token"].as_str().unwrap()));

    t.autoplay(21, 4, Duration::ZERO, 400).await;
    let end = t.view(0).clone();
    verify_gcg(&t.gcg().await, final_scores(&end));
    server.shutdown().await;
}

// ---------------------------------------------------------------------------------------------
// Clients at the TCP level, as an attacker (or a test of the limits) would be.

/// A TCP connection to `addr` from the loopback address `from` (all of 127/8 is this machine), so
/// that one test can be several clients.
pub async fn connect_from(from: &str, addr: SocketAddr) -> tokio::net::TcpStream {
    let ip: std::net::IpAddr = from.parse().unwrap();
    let sock = tokio::net::TcpSocket::new_v4().unwrap();
    sock.bind(SocketAddr::new(ip, 0)).unwrap();
    sock.connect(addr).await.unwrap()
}

/// Reads until the peer closes (or `wait` passes): the bytes read and whether it closed.
pub async fn read_until_closed(s: &mut tokio::net::TcpStream, wait: Duration) -> (Vec<u8>, bool) {
    use tokio::io::AsyncReadExt;
    let mut out = Vec::new();
    let mut buf = [0u8; 1024];
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        match tokio::time::timeout_at(deadline, s.read(&mut buf)).await {
            Err(_) => return (out, false),
            Ok(Ok(0)) => return (out, true),
            Ok(Err(e)) => {
                eprintln!("read error after {} bytes: {e}", out.len());
                return (out, true);
            }
            Ok(Ok(n)) => out.extend_from_slice(&buf[..n]),
        }
    }
}

/// A GET of `/api/health` on a new connection: the time it took.
pub async fn health(addr: SocketAddr) -> Duration {
    let t = std::time::Instant::now();
    let r = http(addr, "GET", "/api/health", None).await.unwrap();
    assert_eq!(r.status, 200, "{}", r.text());
    assert_eq!(r.json().unwrap()["ok"], true);
    t.elapsed()
}

/// Milliseconds, for the figures the tests print.
pub fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// One request from the loopback address `from` with these extra headers (the body is JSON
/// unless they name another type): the status, the head and the body.
pub async fn request_from(
    from: &str,
    addr: SocketAddr,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = connect_from(from, addr).await;
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n");
    if !headers
        .iter()
        .any(|(k, _)| k.eq_ignore_ascii_case("content-type"))
    {
        head.push_str("Content-Type: application/json\r\n");
    }
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    let req = format!("{head}Content-Length: {}\r\n\r\n{body}", body.len());
    s.write_all(req.as_bytes()).await.unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).await.unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head.to_string(), body.to_string())
}

/// Signs in on the director's pages with the key of [`config`]: the cookie to send.
pub async fn sign_in_as_director(addr: SocketAddr) -> String {
    let r = tilebag_server::client::request(
        addr,
        "POST",
        "/td/login",
        &[],
        Some((
            "application/x-www-form-urlencoded",
            b"key=common-test-director-key",
        )),
    )
    .await
    .unwrap();
    assert_eq!(r.status, 303, "{}", r.text());
    let set = r.header("set-cookie").expect("a session cookie");
    set.split(';').next().unwrap().to_string()
}

// ---------------------------------------------------------------------------------------------
// Games against the computer, and servers on a fresh database, as the tests start them.

/// A player's situation, read from that seat's own view (as a client, or its page, holds it).
pub fn situation_of_view(v: &Value) -> tilebag_engine::Situation {
    use tilebag_engine::{grid::BLANK_BIT, Grid, Rack};
    let mut grid = Grid::default();
    for (r, row) in v["board"].as_array().unwrap().iter().enumerate() {
        for (c, ch) in row.as_str().unwrap().chars().enumerate() {
            let cell = match ch {
                'A'..='Z' => ch as u8 - b'A' + 1,
                'a'..='z' => (ch as u8 - b'a' + 1) | BLANK_BIT,
                _ => 0,
            };
            grid.set(r, c, cell);
        }
    }
    let me = v["seat"].as_u64().unwrap() as usize;
    let score = |s: usize| v["players"][s]["score"].as_i64().unwrap() as i32;
    tilebag_engine::Situation {
        grid,
        rack: Rack::parse(v["rack"].as_str().unwrap()).unwrap(),
        unseen: Rack::parse(v["unseen"].as_str().unwrap()).unwrap(),
        bag_len: v["bag_count"].as_u64().unwrap() as usize,
        scores: [score(me), score(1 - me)],
        zeros: v["zero_run"].as_u64().unwrap() as u32,
    }
}

/// A server started on `t.db` in a fresh directory ([`temp_dir`]), with the config `config`
/// makes for that database path. [`Served::stop`] shuts it down and removes the directory.
pub struct Served {
    pub server: tilebag_server::RunningServer,
    pub addr: SocketAddr,
    pub dir: PathBuf,
    pub db: String,
}

impl Served {
    pub async fn start(name: &str, config: impl FnOnce(&str) -> ServeConfig) -> Served {
        let dir = temp_dir(name);
        let db = dir.join("t.db").to_str().unwrap().to_string();
        let server = tilebag_server::start(config(&db)).await.unwrap();
        let addr = server.addr();
        Served {
            server,
            addr,
            dir,
            db,
        }
    }

    /// Shuts the server down and removes its directory.
    pub async fn stop(self) {
        self.server.shutdown().await;
        let _ = std::fs::remove_dir_all(self.dir);
    }
}

/// The text between `start` and the next `end` after it.
pub fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let i = text.find(start)? + start.len();
    let j = text[i..].find(end)? + i;
    Some(&text[i..j])
}

/// The online game pages of a round, from the director's division page: (game id, seat
/// tokens).
pub fn online_games(page: &str) -> Vec<(String, [String; 2])> {
    let mut out = Vec::new();
    let mut rest = page;
    while let Some(i) = rest.find("<a href=\"/games/") {
        rest = &rest[i + "<a href=\"/games/".len()..];
        let id = &rest[..rest.find('"').unwrap()];
        if id.contains('?') {
            continue;
        }
        let t0 = between(rest, &format!("/games/{id}?token="), "\"")
            .unwrap()
            .to_string();
        let after = &rest[rest.find(&t0).unwrap()..];
        let t1 = between(after, &format!("/games/{id}?token="), "\"")
            .unwrap()
            .to_string();
        out.push((id.to_string(), [t0, t1]));
    }
    out
}
