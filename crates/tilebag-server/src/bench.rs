//! The load tool: N concurrent games over loopback, each played by two real WebSocket clients
//! making legal moves, timing every action from its sending to its acknowledgement.
//!
//! The clients play the engine's random moves (`tilebag_engine::random`) from their own rack and
//! their view of the board: by default random placements the rules accept with any letters (most
//! form phonies, which are legal moves under a challenge rule; nobody challenges, so they stand,
//! and the server's validator is exercised hardest); with `words`, random plays of real ENABLE
//! words found by the engine's generator (games that look like games, at a higher cost to the
//! clients' CPU, which shares the machine with the server).
//! When no placement is found a client exchanges or passes; it goes out, accepts an out play, and
//! claims the end after six scoreless turns (NASPA V.B), so every game ends.

use crate::client::{post_json, ClientError, WsClient};
use crate::config::ServeConfig;
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tilebag_core::bag::Rng;
use tilebag_engine::random::{phony_play, word_play};
use tilebag_live::server_error::ServerError;

/// How the load tool plays.
#[derive(Debug, Clone)]
pub struct BenchOptions {
    /// The preset of every game.
    pub preset: String,
    /// Mean time a client thinks before each action (uniform in 0.5×–1.5×); 0 plays flat out.
    pub think: Duration,
    /// The most tiles a client places in one play (fewer tiles make longer games).
    pub max_tiles: usize,
    /// Games set up at once (creating the game and connecting its two clients).
    pub setup_concurrency: usize,
    /// Give up after this long.
    pub timeout: Duration,
    /// Seeds the games' bags and the clients' choices.
    pub seed: u64,
    /// Play real words (the engine's generator, built-in ENABLE list) rather than phonies.
    pub words: bool,
    /// The director key of the server(s) played against: each one's `GET /metrics` is read
    /// before and after the run, and the report gives each process's CPU time per action.
    pub metrics_key: Option<String>,
}

impl Default for BenchOptions {
    fn default() -> BenchOptions {
        BenchOptions {
            preset: "naspa-2013".into(),
            think: Duration::from_millis(1000),
            max_tiles: 4,
            setup_concurrency: 32,
            timeout: Duration::from_secs(900),
            seed: 2013,
            words: false,
            metrics_key: None,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum BenchError {
    #[error("starting the server: {0}")]
    Server(#[from] ServerError),
    #[error("{0}")]
    Client(#[from] ClientError),
    #[error("{0}")]
    Setup(String),
}

/// What the load tool measured.
#[derive(Debug, Clone)]
pub struct LoadReport {
    pub games: usize,
    pub games_completed: usize,
    pub connections: usize,
    /// Actions sent and answered (ack or error).
    pub actions: u64,
    /// `error` answers, failed connections and games that did not finish.
    pub errors: u64,
    pub error_samples: Vec<String>,
    /// From the first game set up to the last game over.
    pub elapsed: Duration,
    pub setup: Duration,
    pub throughput: f64,
    pub p50: Duration,
    pub p90: Duration,
    pub p99: Duration,
    pub max: Duration,
    pub think: Duration,
    pub target: String,
    /// `ack` answers (actions committed), of `actions`.
    pub acks: u64,
    /// What each process's `/metrics` said changed over the run (with `metrics_key`).
    pub processes: Vec<ProcessFigures>,
}

/// One server process's figures over a run, from its `GET /metrics` before and after.
#[derive(Debug, Clone)]
pub struct ProcessFigures {
    pub addr: SocketAddr,
    /// `process_cpu_seconds_total` after less before.
    pub cpu_seconds: f64,
    /// Of that, the kernel's (`tilebag_cpu_system_seconds_total` after less before); `None`
    /// for a server that does not say.
    pub system_seconds: Option<f64>,
    /// `tilebag_actions_total` after less before (events this process committed, time's
    /// included).
    pub actions: u64,
}

/// The figures of a `/metrics` page the bench reads.
#[derive(Debug, Clone, Copy)]
struct Readings {
    cpu_seconds: f64,
    system_seconds: Option<f64>,
    actions: u64,
}

/// Read `process_cpu_seconds_total` and `tilebag_actions_total` from `addr`'s `/metrics`.
async fn read_metrics(addr: SocketAddr, key: &str) -> Result<Readings, BenchError> {
    let auth = format!("Bearer {key}");
    let resp =
        crate::client::request(addr, "GET", "/metrics", &[("Authorization", &auth)], None).await?;
    if resp.status != 200 {
        return Err(BenchError::Setup(format!(
            "GET /metrics on {addr}: {} {}",
            resp.status,
            resp.text().trim()
        )));
    }
    let page = resp.text();
    let value = |name: &str| -> Result<f64, BenchError> {
        page.lines()
            .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
            .and_then(|v| v.trim().parse::<f64>().ok())
            .ok_or_else(|| {
                BenchError::Setup(format!(
                    "GET /metrics on {addr} has no {name} (an older server?)"
                ))
            })
    };
    Ok(Readings {
        cpu_seconds: value("process_cpu_seconds_total")?,
        system_seconds: value("tilebag_cpu_system_seconds_total").ok(),
        actions: value("tilebag_actions_total")? as u64,
    })
}

impl std::fmt::Display for LoadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        writeln!(f, "tilebag bench serve ({})", self.target)?;
        writeln!(
            f,
            "  games        {} concurrent, {} completed, {} WebSocket clients (think {} ms)",
            self.games,
            self.games_completed,
            self.connections,
            self.think.as_millis()
        )?;
        writeln!(
            f,
            "  actions      {} in {:.1} s = {:.0} actions/s (setup {:.1} s)",
            self.actions,
            self.elapsed.as_secs_f64(),
            self.throughput,
            self.setup.as_secs_f64()
        )?;
        writeln!(
            f,
            "  send → ack   p50 {:.2} ms, p90 {:.2} ms, p99 {:.2} ms, max {:.2} ms",
            ms(self.p50),
            ms(self.p90),
            ms(self.p99),
            ms(self.max)
        )?;
        if !self.processes.is_empty() {
            let acks = self.acks.max(1) as f64;
            // The kernel's part, where every server says (its sockets, its database file).
            let kernel = |system: Option<f64>| {
                system.map_or(String::new(), |s| {
                    format!(" (in the kernel {:.1} µs)", s * 1e6 / acks)
                })
            };
            let mut total = 0.0;
            let mut system = Some(0.0);
            for p in &self.processes {
                total += p.cpu_seconds;
                system = system.zip(p.system_seconds).map(|(a, b)| a + b);
                writeln!(
                    f,
                    "  process {:<21} CPU {:.2} s, {} events committed, {:.1} µs CPU per action acknowledged{}",
                    p.addr,
                    p.cpu_seconds,
                    p.actions,
                    p.cpu_seconds * 1e6 / acks,
                    kernel(p.system_seconds)
                )?;
            }
            writeln!(
                f,
                "  server CPU   {:.2} s in all for {} actions acknowledged = {:.1} µs per action{}",
                total,
                self.acks,
                total * 1e6 / acks,
                kernel(system)
            )?;
        }
        write!(f, "  errors       {}", self.errors)?;
        for s in &self.error_samples {
            write!(f, "\n    {s}")?;
        }
        Ok(())
    }
}

/// Play `games` concurrent games against the server at `addr`, or, if `None`, against a server
/// started here on a free port with a temporary SQLite file (removed afterwards).
pub async fn bench_serve(
    addr: Option<SocketAddr>,
    games: usize,
    options: BenchOptions,
) -> Result<LoadReport, BenchError> {
    let addrs: Vec<SocketAddr> = addr.into_iter().collect();
    bench_serve_at(&addrs, games, options).await
}

/// Play `games` concurrent games against the processes of one service at `addrs` (each game is
/// created on one address and its two seats connect to the next ones, round robin, so with three
/// addresses a game's creation and its two players reach three processes), or, if `addrs` is
/// empty, against a server started here on a free port with a temporary SQLite file (removed
/// afterwards). With `options.metrics_key`, each address's `/metrics` is read before and after.
pub async fn bench_serve_at(
    addrs: &[SocketAddr],
    games: usize,
    options: BenchOptions,
) -> Result<LoadReport, BenchError> {
    let mut own = None;
    let mut temp_dir = None;
    let (addrs, lexicon, target) = match addrs {
        [a] => (vec![*a], None, format!("server at {a}")),
        [_, ..] => (
            addrs.to_vec(),
            None,
            format!(
                "{} processes at {}",
                addrs.len(),
                addrs
                    .iter()
                    .map(ToString::to_string)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        ),
        [] => {
            let dir = std::env::temp_dir().join(format!(
                "tilebag-bench-{}-{}",
                std::process::id(),
                tilebag_live::ids::game_id()
            ));
            std::fs::create_dir_all(&dir)
                .map_err(|e| BenchError::Setup(format!("{}: {e}", dir.display())))?;
            let db = dir.join("bench.db");
            let config = bench_config(&db.to_string_lossy());
            let server = crate::server::start(config).await?;
            let a = server.addr();
            own = Some(server);
            temp_dir = Some(dir);
            (
                vec![a],
                Some("accept-all"),
                format!("in-process server, SQLite {}", db.display()),
            )
        }
    };
    // The in-process server shares this process's CPU with the clients: only servers of their
    // own are measured.
    let key = options.metrics_key.as_deref().filter(|_| own.is_none());
    let mut before = Vec::new();
    if let Some(key) = key {
        for &a in &addrs {
            before.push(read_metrics(a, key).await?);
        }
    }
    let result = run_games(&addrs, lexicon, games, &options).await;
    let mut processes = Vec::new();
    if let (Some(key), Ok(_)) = (key, &result) {
        for (&a, b) in addrs.iter().zip(&before) {
            let after = read_metrics(a, key).await?;
            processes.push(ProcessFigures {
                addr: a,
                cpu_seconds: after.cpu_seconds - b.cpu_seconds,
                system_seconds: after
                    .system_seconds
                    .zip(b.system_seconds)
                    .map(|(a, b)| a - b),
                actions: after.actions.saturating_sub(b.actions),
            });
        }
    }
    if let Some(server) = own {
        server.shutdown().await;
    }
    if let Some(dir) = temp_dir {
        let _ = std::fs::remove_dir_all(dir);
    }
    let (stats, setup, elapsed) = result?;
    let mut lat: Vec<u32> = Vec::new();
    let mut errors = 0;
    let mut samples = Vec::new();
    let mut completed = 0;
    let mut acks = 0;
    for s in stats {
        lat.extend_from_slice(&s.latencies_us);
        acks += s.acks;
        errors += s.errors;
        if s.completed {
            completed += 1;
        }
        for e in s.samples {
            if samples.len() < 10 {
                samples.push(e);
            }
        }
    }
    lat.sort_unstable();
    let pct = |p: f64| -> Duration {
        if lat.is_empty() {
            return Duration::ZERO;
        }
        let i = ((lat.len() as f64 * p).ceil() as usize).clamp(1, lat.len()) - 1;
        Duration::from_micros(lat[i] as u64)
    };
    let actions = lat.len() as u64;
    Ok(LoadReport {
        games,
        games_completed: completed,
        connections: 2 * games,
        actions,
        errors,
        error_samples: samples,
        elapsed,
        setup,
        throughput: actions as f64 / elapsed.as_secs_f64().max(1e-9),
        p50: pct(0.50),
        p90: pct(0.90),
        p99: pct(0.99),
        max: pct(1.0),
        think: options.think,
        target,
        acks,
        processes,
    })
}

/// The in-process server's configuration: a SQLite file, every word accepted, seeds allowed
/// (reproducible bags), and no limit meant for people (every client is on loopback, one
/// address, and clients that think for 0 ms outrun any human).
fn bench_config(database: &str) -> ServeConfig {
    let mut config = ServeConfig {
        port: 0,
        database: database.to_string(),
        default_lexicon: "accept-all".into(),
        limits: tilebag_live::config::Limits {
            messages_per_second: 1000.0,
            burst: 1000.0,
            ..tilebag_live::config::Limits::default()
        },
        allow_seeds: true,
        net: crate::net::NetLimits {
            max_connections_per_address: 0,
            ..crate::net::NetLimits::default()
        },
        quotas: tilebag_live::quota::Quotas {
            games_per_minute: 0,
            max_waiting_games: 0,
            max_waiting_per_address: 0,
            ..tilebag_live::quota::Quotas::default()
        },
        ..ServeConfig::default()
    };
    config
        .lexicons
        .insert("accept-all".into(), Arc::new(tilebag_core::game::AcceptAll));
    config
}

#[derive(Default)]
struct GameStats {
    latencies_us: Vec<u32>,
    acks: u64,
    errors: u64,
    samples: Vec<String>,
    completed: bool,
}

async fn run_games(
    addrs: &[SocketAddr],
    lexicon: Option<&str>,
    games: usize,
    options: &BenchOptions,
) -> Result<(Vec<GameStats>, Duration, Duration), BenchError> {
    let started = Instant::now();
    let setup_gate = Arc::new(tokio::sync::Semaphore::new(
        options.setup_concurrency.max(1),
    ));
    let set_up = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let setup_done = Arc::new(std::sync::Mutex::new(None::<Instant>));
    let mut tasks = Vec::with_capacity(games);
    for g in 0..games {
        let gate = setup_gate.clone();
        let opts = options.clone();
        let lexicon = lexicon.map(str::to_string);
        let set_up = set_up.clone();
        let setup_done = setup_done.clone();
        // Round robin: the game on one process, its seats on the next two.
        let at = |k: usize| addrs[(g + k) % addrs.len()];
        let spread = [at(0), at(1), at(2)];
        tasks.push(tokio::spawn(async move {
            let mut stats = GameStats::default();
            let permit = gate.acquire_owned().await;
            let seats = setup_game(spread, lexicon.as_deref(), g, &opts).await;
            drop(permit);
            if set_up.fetch_add(1, std::sync::atomic::Ordering::SeqCst) + 1 == games {
                *setup_done.lock().expect("lock") = Some(Instant::now());
            }
            let (c0, c1) = match seats {
                Ok(s) => s,
                Err(e) => {
                    stats.errors += 1;
                    stats.samples.push(format!("game {g}: setup: {e}"));
                    return stats;
                }
            };
            let seed = opts.seed ^ (g as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            let (a, b) = tokio::join!(
                play_seat(c0, seed, &opts),
                play_seat(c1, seed.rotate_left(17), &opts)
            );
            for s in [a, b] {
                stats.latencies_us.extend(s.latencies_us);
                stats.acks += s.acks;
                stats.errors += s.errors;
                stats
                    .samples
                    .extend(s.samples.into_iter().map(|e| format!("game {g}: {e}")));
                stats.completed |= s.completed;
            }
            if !stats.completed {
                stats.errors += 1;
                stats.samples.push(format!("game {g}: did not finish"));
            }
            stats
        }));
    }
    let all = async {
        let mut out = Vec::with_capacity(games);
        for t in tasks {
            match t.await {
                Ok(s) => out.push(s),
                Err(e) => out.push(GameStats {
                    errors: 1,
                    samples: vec![format!("a game's task failed: {e}")],
                    ..GameStats::default()
                }),
            }
        }
        out
    };
    let stats = tokio::time::timeout(options.timeout, all)
        .await
        .map_err(|_| BenchError::Setup(format!("gave up after {:?}", options.timeout)))?;
    let elapsed = started.elapsed();
    let setup = setup_done
        .lock()
        .expect("lock")
        .map_or(elapsed, |t| t.duration_since(started));
    Ok((stats, setup, elapsed))
}

async fn setup_game(
    [addr, seat0, seat1]: [SocketAddr; 3],
    lexicon: Option<&str>,
    g: usize,
    opts: &BenchOptions,
) -> Result<(WsClient, WsClient), ClientError> {
    let mut req = json!({
        "preset": opts.preset,
        "players": [format!("bot{g}a"), format!("bot{g}b")],
    });
    // The bench's own server allows seeds (reproducible bags); another server need not, so its
    // games get random bags.
    if let Some(l) = lexicon {
        req["lexicon"] = json!(l);
        req["seed"] = json!(opts.seed.wrapping_add(g as u64));
    }
    let resp = post_json(addr, "/api/games", &req).await?;
    if resp.status != 201 {
        return Err(ClientError::BadResponse(format!(
            "creating a game: {} {}",
            resp.status,
            resp.text()
        )));
    }
    let created = resp.json()?;
    // Only the score-sheet lines not sent yet, as the game page takes them.
    let path = |s: usize| {
        let ws = created["seats"][s]["ws"].as_str().unwrap_or("");
        format!("{ws}&history=new")
    };
    let mut c0 = WsClient::connect(seat0, &path(0)).await?;
    let mut c1 = WsClient::connect(seat1, &path(1)).await?;
    c0.keep = false;
    c1.keep = false;
    Ok((c0, c1))
}

/// One client playing its seat to the end of the game.
async fn play_seat(mut c: WsClient, seed: u64, opts: &BenchOptions) -> GameStats {
    let mut stats = GameStats::default();
    let mut rng = Rng::new(seed);
    let mut in_flight: Option<(u64, Instant)> = None;
    let mut next_id = 0u64;
    let mut acted_on: Option<u64> = None;
    let mut force_pass = false;
    let mut latest: Option<BotView> = None;
    loop {
        let text = match tokio::time::timeout(Duration::from_secs(180), c.recv_text()).await {
            Ok(Ok(Some(t))) => t,
            Ok(Ok(None)) => {
                stats.errors += 1;
                stats
                    .samples
                    .push(format!("connection closed early: {:?}", c.closed));
                break;
            }
            Ok(Err(e)) => {
                stats.errors += 1;
                stats.samples.push(e.to_string());
                break;
            }
            Err(_) => {
                stats.errors += 1;
                stats.samples.push("no message for 180 s".into());
                break;
            }
        };
        let msg: BotMessage = match serde_json::from_str(&text) {
            Ok(m) => m,
            Err(e) => {
                stats.errors += 1;
                stats.samples.push(format!("unreadable message: {e}"));
                break;
            }
        };
        let mut decide = false;
        match msg.kind.as_str() {
            "state" => {
                latest = msg.view;
                decide = true;
            }
            kind @ ("ack" | "error") => {
                if let Some((id, sent)) = in_flight {
                    if msg.id == Some(id) {
                        stats
                            .latencies_us
                            .push(sent.elapsed().as_micros().min(u32::MAX as u128) as u32);
                        in_flight = None;
                        if kind == "ack" {
                            stats.acks += 1;
                        }
                    }
                }
                if kind == "error" {
                    stats.errors += 1;
                    if stats.samples.len() < 3 {
                        stats.samples.push(text.clone());
                    }
                    // Try something that cannot fail on the same view.
                    acted_on = None;
                    force_pass = true;
                    decide = true;
                }
            }
            _ => {}
        }
        let Some(view) = &latest else { continue };
        if view.phase.kind == "ended" {
            stats.completed = true;
            break;
        }
        if !decide || in_flight.is_some() {
            continue;
        }
        if acted_on == Some(view.seq) {
            continue;
        }
        let action = if force_pass && view.seat == Some(view.to_move) {
            force_pass = false;
            Some(json!({"type": "pass"}))
        } else {
            decide_action(view, &mut rng, opts.max_tiles, opts.words)
        };
        let Some(mut action) = action else { continue };
        if !opts.think.is_zero() {
            let f = 0.5 + (rng.below(1001) as f64) / 1000.0;
            tokio::time::sleep(opts.think.mul_f64(f)).await;
        }
        next_id += 1;
        action["id"] = json!(next_id);
        acted_on = Some(view.seq);
        in_flight = Some((next_id, Instant::now()));
        if let Err(e) = c.send_json(&action).await {
            stats.errors += 1;
            stats.samples.push(format!("send: {e}"));
            break;
        }
    }
    c.close().await;
    stats
}

/// The parts of a server message a client needs (the rest is skipped unread).
#[derive(Debug, serde::Deserialize)]
struct BotMessage {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    id: Option<u64>,
    #[serde(default)]
    view: Option<BotView>,
}

/// The parts of a seat view a client needs to choose its action.
#[derive(Debug, Clone, serde::Deserialize)]
struct BotView {
    #[serde(default)]
    seat: Option<usize>,
    to_move: usize,
    seq: u64,
    board: Vec<String>,
    #[serde(default)]
    rack: String,
    bag_count: usize,
    zero_run: u32,
    phase: BotPhase,
}

#[derive(Debug, Clone, serde::Deserialize)]
struct BotPhase {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    out: bool,
}

/// The action a client makes on this seat view, or `None` when it is not its turn.
pub fn choose_action(view: &Value, rng: &mut Rng, max_tiles: usize) -> Option<Value> {
    let v: BotView = serde_json::from_value(view.clone()).ok()?;
    decide_action(&v, rng, max_tiles, false)
}

/// The engine the clients find real words with: the built-in ENABLE list, made once.
fn words_engine() -> &'static tilebag_engine::Engine<'static> {
    static TABLES: std::sync::OnceLock<tilebag_engine::Tables> = std::sync::OnceLock::new();
    static ENGINE: std::sync::OnceLock<tilebag_engine::Engine<'static>> =
        std::sync::OnceLock::new();
    ENGINE.get_or_init(|| {
        let t = TABLES.get_or_init(tilebag_engine::Tables::english);
        tilebag_engine::Engine::new(
            tilebag_lexicon::Lexicon::builtin_enable(),
            t,
            tilebag_engine::LeaveTable::enable(),
            7,
        )
    })
}

fn decide_action(view: &BotView, rng: &mut Rng, max_tiles: usize, words: bool) -> Option<Value> {
    let phase = view.phase.kind.as_str();
    if phase == "ended" || view.seat != Some(view.to_move) {
        return None;
    }
    if phase == "play-pending" && view.phase.out {
        return Some(json!({"type": "accept"}));
    }
    if view.zero_run >= 6 && phase == "awaiting-move" {
        return Some(json!({"type": "end-after-six-zeros"}));
    }
    let rack = view.rack.as_str();
    let play = if words {
        word_play(words_engine(), &view.board, rack, max_tiles, rng)
    } else {
        phony_play(&view.board, rack, max_tiles, rng)
    };
    if let Some((position, word)) = play {
        return Some(json!({"type": "play", "position": position, "word": word}));
    }
    if view.bag_count >= 7 && !rack.is_empty() {
        let mut tiles: Vec<char> = rack.chars().collect();
        rng.shuffle(&mut tiles);
        let n = 1 + rng.below(tiles.len());
        let t: String = tiles[..n].iter().collect();
        return Some(json!({"type": "exchange", "tiles": t}));
    }
    Some(json!({"type": "pass"}))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Against a server of its own (here in this process), with the director key: the bench
    /// reads `/metrics` before and after, and every event the server committed is an action the
    /// bench saw acknowledged.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn reads_the_servers_cpu_and_actions_from_its_metrics() {
        let dir = std::env::temp_dir().join(format!(
            "tilebag-bench-test-{}-{}",
            std::process::id(),
            tilebag_live::ids::game_id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let key = "bench-metrics-key-0123456789";
        let config = ServeConfig {
            director_key: Some(key.into()),
            ..bench_config(&dir.join("bench.db").to_string_lossy())
        };
        let server = crate::server::start(config).await.unwrap();
        let addr = server.addr();
        let options = BenchOptions {
            think: Duration::ZERO,
            metrics_key: Some(key.into()),
            ..BenchOptions::default()
        };
        let report = bench_serve_at(&[addr], 4, options.clone()).await.unwrap();
        assert_eq!(report.errors, 0, "{report}");
        assert_eq!(report.processes.len(), 1, "{report}");
        let p = &report.processes[0];
        assert_eq!(p.addr, addr);
        assert_eq!(p.actions, report.acks, "{report}");
        assert!(report.acks > 4 * 20, "{report}");
        assert!(p.cpu_seconds > 0.0, "{report}");
        let system = p.system_seconds.expect("the server says its kernel time");
        assert!(system > 0.0 && system <= p.cpu_seconds, "{report}");
        let text = report.to_string();
        assert!(text.contains("µs per action (in the kernel "), "{text}");

        // A wrong key is refused before any game is played, naming what failed.
        let wrong = BenchOptions {
            metrics_key: Some("not-the-key-at-all-000".into()),
            ..options
        };
        let e = bench_serve_at(&[addr], 1, wrong).await.unwrap_err();
        assert!(e.to_string().contains("/metrics"), "{e}");
        assert!(e.to_string().contains("401"), "{e}");
        server.shutdown().await;
        let _ = std::fs::remove_dir_all(dir);
    }
}
