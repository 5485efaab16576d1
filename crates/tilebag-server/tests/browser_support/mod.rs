//! A tiny WebDriver client (W3C protocol over HTTP/1.1 on a `TcpStream`, JSON with serde_json)
//! for driving headless Chromium in the browser tests, plus the server they talk to.
//!
//! `Browser::start()` returns `None` when Chromium or chromedriver is not installed: the tests
//! then print "skipping: chromium/chromedriver not installed" and pass. Paths can be overridden
//! with `TILEBAG_CHROMIUM` and `TILEBAG_CHROMEDRIVER`.

#![allow(dead_code)]

use serde_json::{json, Value};
use std::collections::HashSet;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tilebag_core::WordJudge;

/// How long to wait for anything the page should do.
pub const WAIT: Duration = Duration::from_secs(20);

/// The W3C element reference key.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

pub mod keys {
    pub const BACKSPACE: &str = "\u{E003}";
    pub const TAB: &str = "\u{E004}";
    pub const ENTER: &str = "\u{E007}";
    pub const SHIFT: &str = "\u{E008}";
    pub const ESCAPE: &str = "\u{E00C}";
    pub const SPACE: &str = "\u{E00D}";
    pub const LEFT: &str = "\u{E012}";
    pub const UP: &str = "\u{E013}";
    pub const RIGHT: &str = "\u{E014}";
    pub const DOWN: &str = "\u{E015}";
    pub const RIGHT_SHIFT: &str = "\u{E050}";
}

// ---------------------------------------------------------------------------------------------
// HTTP/1.1, just enough for chromedriver and the tilebag server

pub struct HttpReply {
    pub status: u16,
    pub body: Vec<u8>,
}

impl HttpReply {
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// One request on a fresh connection (`Connection: close`), read to the end.
pub fn http(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&[u8]>,
) -> std::io::Result<HttpReply> {
    let mut s = TcpStream::connect_timeout(&addr, Duration::from_secs(10))?;
    s.set_read_timeout(Some(Duration::from_secs(120)))?;
    let body = body.unwrap_or(b"");
    let head = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nAccept: application/json\r\n\
         Content-Type: application/json; charset=utf-8\r\nContent-Length: {}\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes())?;
    s.write_all(body)?;
    // Read the head, then exactly the body (chromedriver may keep the connection open).
    let mut raw = Vec::new();
    let mut buf = [0u8; 16 * 1024];
    let split = loop {
        if let Some(p) = raw.windows(4).position(|w| w == b"\r\n\r\n") {
            break p;
        }
        let n = s.read(&mut buf)?;
        if n == 0 {
            return Err(std::io::Error::other(
                "the connection closed before the headers ended",
            ));
        }
        raw.extend_from_slice(&buf[..n]);
    };
    let head = String::from_utf8_lossy(&raw[..split]).into_owned();
    let mut rest = raw[split + 4..].to_vec();
    let status: u16 = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| std::io::Error::other(format!("bad status line in {head:?}")))?;
    let header = |name: &str| {
        head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim()
                .eq_ignore_ascii_case(name)
                .then(|| v.trim().to_string())
        })
    };
    let chunked =
        header("transfer-encoding").is_some_and(|v| v.to_ascii_lowercase().contains("chunked"));
    if let Some(len) = header("content-length").and_then(|v| v.parse::<usize>().ok()) {
        while rest.len() < len {
            let n = s.read(&mut buf)?;
            if n == 0 {
                break;
            }
            rest.extend_from_slice(&buf[..n]);
        }
        rest.truncate(len);
    } else if chunked {
        while !rest.ends_with(b"0\r\n\r\n") {
            let n = s.read(&mut buf)?;
            if n == 0 {
                break;
            }
            rest.extend_from_slice(&buf[..n]);
        }
        rest = dechunk(&rest);
    } else {
        s.read_to_end(&mut rest)?;
    }
    Ok(HttpReply { status, body: rest })
}

fn dechunk(mut data: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = data.windows(2).position(|w| w == b"\r\n") {
        let size_text = String::from_utf8_lossy(&data[..eol]);
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .unwrap_or(0);
        data = &data[eol + 2..];
        if size == 0 || size > data.len() {
            break;
        }
        out.extend_from_slice(&data[..size]);
        data = &data[(size + 2).min(data.len())..];
    }
    out
}

pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// Standard base64 (what WebDriver screenshots are).
pub fn base64_decode(text: &str) -> Vec<u8> {
    let val = |c: u8| -> Option<u32> {
        Some(match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            _ => return None,
        } as u32)
    };
    let mut out = Vec::with_capacity(text.len() * 3 / 4);
    let mut acc = 0u32;
    let mut bits = 0;
    for c in text.bytes() {
        let Some(v) = val(c) else { continue };
        acc = (acc << 6) | v;
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    out
}

// ---------------------------------------------------------------------------------------------
// chromedriver and sessions

fn tool(env: &str, default: &str) -> PathBuf {
    std::env::var_os(env)
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(default))
}

/// A running chromedriver. Dropping it stops it.
pub struct Browser {
    child: Child,
    addr: SocketAddr,
    chromium: PathBuf,
}

impl Browser {
    /// Start chromedriver on a free port, or `None` (with the skip message printed) when Chromium
    /// or chromedriver is not installed.
    pub fn start() -> Option<Browser> {
        let chromium = tool("TILEBAG_CHROMIUM", "/usr/bin/chromium");
        let driver = tool("TILEBAG_CHROMEDRIVER", "/usr/bin/chromedriver");
        if !chromium.exists() || !driver.exists() {
            println!("skipping: chromium/chromedriver not installed");
            return None;
        }
        // The port is picked before chromedriver binds it, so another process may take it
        // first: try a few.
        for _ in 0..3 {
            let port = free_port();
            let child = Command::new(&driver)
                .arg(format!("--port={port}"))
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("start chromedriver");
            let addr: SocketAddr = ([127, 0, 0, 1], port).into();
            let b = Browser {
                child,
                addr,
                chromium: chromium.clone(),
            };
            let t0 = Instant::now();
            while t0.elapsed() < Duration::from_secs(10) {
                if let Ok(r) = http(addr, "GET", "/status", None) {
                    let v: Value = serde_json::from_slice(&r.body).unwrap_or(Value::Null);
                    if v["value"]["ready"] == true {
                        return Some(b);
                    }
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        panic!("chromedriver did not become ready");
    }

    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Result<Value, String> {
        let bytes = body.map(|b| serde_json::to_vec(&b).unwrap());
        let r = http(self.addr, method, path, bytes.as_deref())
            .map_err(|e| format!("{method} {path}: {e}"))?;
        let v: Value = serde_json::from_slice(&r.body)
            .map_err(|e| format!("{method} {path}: not JSON ({e}): {}", r.text()))?;
        if r.status >= 400 {
            return Err(format!(
                "{method} {path}: {} {}: {}",
                r.status, v["value"]["error"], v["value"]["message"]
            ));
        }
        Ok(v["value"].clone())
    }

    /// A new browser window with its own profile (cookies, localStorage).
    pub fn session(&self) -> Session<'_> {
        let profile = std::env::temp_dir().join(format!(
            "tilebag-chromium-{}-{}",
            std::process::id(),
            free_port()
        ));
        std::fs::create_dir_all(&profile).unwrap();
        let args = vec![
            "--headless".to_string(),
            "--no-sandbox".into(),
            "--disable-gpu".into(),
            "--disable-quic".into(),
            "--no-first-run".into(),
            "--disable-background-networking".into(),
            "--disable-component-update".into(),
            "--disable-sync".into(),
            "--disable-dev-shm-usage".into(),
            "--window-size=1280,1000".into(),
            format!("--user-data-dir={}", profile.display()),
        ];
        let caps = json!({
            "capabilities": {
                "alwaysMatch": {
                    "browserName": "chrome",
                    "goog:loggingPrefs": { "browser": "ALL" },
                    "goog:chromeOptions": {
                        "binary": self.chromium.to_string_lossy(),
                        "args": args,
                        "prefs": {
                            "download.default_directory": profile.join("downloads").to_string_lossy(),
                            "download.prompt_for_download": false,
                        },
                    }
                }
            }
        });
        let v = self
            .call("POST", "/session", Some(caps))
            .expect("start a Chromium session");
        let id = v["sessionId"].as_str().expect("session id").to_string();
        Session {
            browser: self,
            id,
            profile,
        }
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An element reference.
#[derive(Debug, Clone)]
pub struct El(pub String);

/// One browser window.
pub struct Session<'b> {
    browser: &'b Browser,
    pub id: String,
    profile: PathBuf,
}

impl Session<'_> {
    fn call(&self, method: &str, rest: &str, body: Option<Value>) -> Result<Value, String> {
        self.browser
            .call(method, &format!("/session/{}{rest}", self.id), body)
    }

    pub fn goto(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })))
            .unwrap();
    }

    /// How long a navigation (`goto`, a click that loads a page) may take before WebDriver
    /// reports an error instead of waiting (its default is five minutes).
    pub fn page_load_timeout(&self, t: Duration) {
        self.call(
            "POST",
            "/timeouts",
            Some(json!({ "pageLoad": t.as_millis() as u64 })),
        )
        .unwrap();
    }

    /// Clicks the element matching `css`; an error (what the browser said) if the page the click
    /// loads has not loaded within the [`Session::page_load_timeout`].
    pub fn try_click_css(&self, css: &str) -> Result<(), String> {
        let el = self
            .try_find(css)
            .ok_or_else(|| format!("no element {css}"))?;
        self.call("POST", &format!("/element/{}/click", el.0), Some(json!({})))
            .map(|_| ())
    }

    pub fn refresh(&self) {
        self.call("POST", "/refresh", Some(json!({}))).unwrap();
    }

    pub fn set_window_size(&self, width: u32, height: u32) {
        self.call(
            "POST",
            "/window/rect",
            Some(json!({ "width": width, "height": height })),
        )
        .unwrap();
    }

    pub fn try_find(&self, css: &str) -> Option<El> {
        self.call(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        )
        .ok()
        .and_then(|v| v[ELEMENT].as_str().map(|s| El(s.to_string())))
    }

    /// The first element matching `css`, waiting for it to appear.
    pub fn find(&self, css: &str) -> El {
        self.wait(&format!("an element {css}"), || self.try_find(css))
    }

    pub fn find_all(&self, css: &str) -> Vec<El> {
        self.call(
            "POST",
            "/elements",
            Some(json!({ "using": "css selector", "value": css })),
        )
        .unwrap()
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|v| v[ELEMENT].as_str().map(|s| El(s.to_string())))
        .collect()
    }

    pub fn click(&self, el: &El) {
        self.call("POST", &format!("/element/{}/click", el.0), Some(json!({})))
            .unwrap();
    }

    /// Click the element matching `css` (waiting for it to exist and be enabled).
    pub fn click_css(&self, css: &str) {
        self.wait(&format!("{css} to be clickable"), || {
            let el = self.try_find(css)?;
            let enabled = self.call("GET", &format!("/element/{}/enabled", el.0), None);
            (enabled.ok()? == true).then_some(el)
        });
        let el = self.find(css);
        self.click(&el);
    }

    pub fn clear(&self, el: &El) {
        self.call("POST", &format!("/element/{}/clear", el.0), Some(json!({})))
            .unwrap();
    }

    pub fn send_keys(&self, el: &El, text: &str) {
        self.call(
            "POST",
            &format!("/element/{}/value", el.0),
            Some(json!({ "text": text })),
        )
        .unwrap();
    }

    /// Replace the value of the input matching `css`.
    pub fn fill(&self, css: &str, text: &str) {
        let el = self.find(css);
        self.clear(&el);
        self.send_keys(&el, text);
    }

    /// Type to whatever has the focus (key down and up for each key, in order).
    pub fn type_keys(&self, text: &str) {
        let mut actions = Vec::new();
        for ch in text.chars() {
            let k = ch.to_string();
            actions.push(json!({ "type": "keyDown", "value": k }));
            actions.push(json!({ "type": "keyUp", "value": k }));
        }
        self.key_actions(actions);
    }

    /// Press `key` with Shift held.
    pub fn shifted(&self, key: &str) {
        self.key_actions(vec![
            json!({ "type": "keyDown", "value": keys::SHIFT }),
            json!({ "type": "keyDown", "value": key }),
            json!({ "type": "keyUp", "value": key }),
            json!({ "type": "keyUp", "value": keys::SHIFT }),
        ]);
    }

    fn key_actions(&self, actions: Vec<Value>) {
        self.call(
            "POST",
            "/actions",
            Some(json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] })),
        )
        .unwrap();
        let _ = self.call("DELETE", "/actions", None);
    }

    pub fn text(&self, el: &El) -> String {
        self.call("GET", &format!("/element/{}/text", el.0), None)
            .unwrap()
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    /// The visible text of the element matching `css` ("" if there is none).
    pub fn text_of(&self, css: &str) -> String {
        self.try_find(css)
            .map(|e| self.text(&e))
            .unwrap_or_default()
    }

    pub fn property(&self, el: &El, name: &str) -> Value {
        self.call("GET", &format!("/element/{}/property/{name}", el.0), None)
            .unwrap()
    }

    /// Run `script` (a function body; `arguments` holds `args`) and return what it returns.
    pub fn js(&self, script: &str, args: Value) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": args })),
        )
        .unwrap_or_else(|e| panic!("script failed: {e}\n{script}"))
    }

    /// Wait until `f` gives something, failing the test after [`WAIT`] with `what` and a
    /// screenshot of the page.
    pub fn wait<T>(&self, what: &str, mut f: impl FnMut() -> Option<T>) -> T {
        let t0 = Instant::now();
        loop {
            if let Some(v) = f() {
                return v;
            }
            if t0.elapsed() > WAIT {
                let shot = self.screenshot("timeout");
                let text = self
                    .call(
                        "POST",
                        "/execute/sync",
                        Some(json!({ "script": "return document.body.innerText", "args": [] })),
                    )
                    .unwrap_or(Value::Null);
                panic!(
                    "timed out waiting for {what} (screenshot {}); the page says:\n{}",
                    shot.display(),
                    text.as_str().unwrap_or("")
                );
            }
            std::thread::sleep(Duration::from_millis(40));
        }
    }

    /// Wait until the script returns a truthy value; returns it.
    pub fn wait_js(&self, what: &str, script: &str) -> Value {
        self.wait(what, || {
            let v = self.js(script, json!([]));
            let truthy = match &v {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::Number(n) => n.as_f64() != Some(0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            truthy.then_some(v)
        })
    }

    /// Errors the page logged to its console since the last call (script errors, failed loads).
    pub fn console_errors(&self) -> Vec<String> {
        let v = self
            .call("POST", "/se/log", Some(json!({ "type": "browser" })))
            .unwrap_or(Value::Null);
        v.as_array()
            .map(|entries| {
                entries
                    .iter()
                    .filter(|e| e["level"] == "SEVERE")
                    .map(|e| e["message"].as_str().unwrap_or("").to_string())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Run axe-core on the page (every rule tagged WCAG 2.0 or 2.1 A or AA, 2.2 AA with its
    /// `target-size` and the visible-label rule `label-content-name-mismatch`, and the
    /// best-practice rules) and return its violations as `rule: nodes` lines; `None` (with a
    /// note) when axe-core is not installed (`npm install -g axe-core`, or `TILEBAG_AXE` naming
    /// `axe.min.js`).
    pub fn axe_violations(&self) -> Option<Vec<String>> {
        let path = std::env::var_os("TILEBAG_AXE")
            .map(PathBuf::from)
            .into_iter()
            .chain([
                PathBuf::from("/usr/lib/node_modules/axe-core/axe.min.js"),
                PathBuf::from("/usr/local/lib/node_modules/axe-core/axe.min.js"),
            ])
            .find(|p| p.exists());
        let Some(path) = path else {
            println!("note: axe-core not installed; the accessibility check is skipped");
            return None;
        };
        let source = std::fs::read_to_string(&path).expect("read axe.min.js");
        self.js(&format!("{source}\nreturn true;"), json!([]));
        let v = self
            .call(
                "POST",
                "/execute/async",
                Some(json!({
                    "script": "const done = arguments[arguments.length - 1];\
                        axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']}, \
                            rules: {'label-content-name-mismatch': {enabled: true}}})\
                        .then(r => done(r.violations.map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', '))))\
                        .catch(e => done(['axe failed: ' + e]));",
                    "args": []
                })),
            )
            .expect("run axe-core");
        Some(
            v.as_array()
                .unwrap()
                .iter()
                .map(|x| x.as_str().unwrap_or("").to_string())
                .collect(),
        )
    }

    /// Fail if axe-core finds a violation (when it is installed).
    pub fn assert_accessible(&self, what: &str) {
        if let Some(v) = self.axe_violations() {
            assert!(v.is_empty(), "{what}: axe-core finds {v:#?}");
        }
    }

    /// Fail if the page logged an error.
    pub fn assert_no_console_errors(&self) {
        let errors = self.console_errors();
        assert!(errors.is_empty(), "the page logged errors: {errors:#?}");
    }

    /// Where this window's downloads go.
    pub fn downloads(&self) -> PathBuf {
        self.profile.join("downloads")
    }

    /// On the score sheet (`/scoresheet`): enter a move and its announced score, press Enter,
    /// and wait until the sheet has one more line.
    pub fn add_sheet_line(&self, mv: &str, score: &str) {
        let lines = || {
            self.js("return window.tilebagSheet.sheet.lines.length", json!([]))
                .as_u64()
                .unwrap()
        };
        self.fill("#entry-move", mv);
        self.fill("#entry-score", score);
        let n = lines();
        self.type_keys(keys::ENTER);
        self.wait("the line to be added", || (lines() == n + 1).then_some(()));
    }

    /// Save a PNG under `target/browser-screenshots/NAME.png` and return its path.
    pub fn screenshot(&self, name: &str) -> PathBuf {
        let dir = screenshot_dir();
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("{name}.png"));
        if let Ok(v) = self.call("GET", "/screenshot", None) {
            let png = base64_decode(v.as_str().unwrap_or(""));
            std::fs::write(&path, png).unwrap();
        }
        path
    }
}

impl Drop for Session<'_> {
    fn drop(&mut self) {
        let _ = self.call("DELETE", "", None);
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

pub fn screenshot_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target"));
    target.join("browser-screenshots")
}

// ---------------------------------------------------------------------------------------------
// The server under test

/// A lexicon that takes every word except the ones the test names phonies, so a test can play
/// whatever its rack holds and still lose a challenge on purpose.
#[derive(Default)]
pub struct Phonies(pub Mutex<HashSet<String>>);

impl Phonies {
    pub fn add(&self, word: &str) {
        self.0.lock().unwrap().insert(word.to_uppercase());
    }
}

impl WordJudge for Phonies {
    fn is_valid(&self, word: &str) -> bool {
        !self.0.lock().unwrap().contains(&word.to_uppercase())
    }
}

/// A server on port 0 with a fresh SQLite file, on its own runtime, with two lexicons: `test`
/// ([`Phonies`], the default) and `tiny` (a handful of real words).
pub struct TestServer {
    pub rt: tokio::runtime::Runtime,
    pub server: Option<tilebag_server::RunningServer>,
    pub addr: SocketAddr,
    pub dir: PathBuf,
    pub phonies: Arc<Phonies>,
}

pub const TINY: &[&str] = &["CAT", "DOG", "CATS", "DOGS", "QI", "ZA", "AT", "TA"];

impl TestServer {
    pub fn start(name: &str) -> TestServer {
        let dir = std::env::temp_dir().join(format!(
            "tilebag-browser-{name}-{}-{}",
            std::process::id(),
            free_port()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let phonies = Arc::new(Phonies::default());
        let tiny: HashSet<String> = TINY.iter().map(|s| s.to_string()).collect();
        let mut config = tilebag_server::ServeConfig {
            port: 0,
            database: dir.join("tilebag.db").to_string_lossy().into_owned(),
            default_lexicon: "test".into(),
            // The tests choose seeds in the lobby, to know the racks.
            allow_seeds: true,
            ..tilebag_server::ServeConfig::default()
        };
        config.lexicons.insert("test".into(), phonies.clone());
        config.lexicons.insert("tiny".into(), Arc::new(tiny));
        // A real word list, for games against the computer and their analysis.
        config.add_word_source("enable1", tilebag_lexicon::WordSource::builtin());
        let rt = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .unwrap();
        let server = rt
            .block_on(tilebag_server::start(config))
            .expect("start the server");
        let addr = server.addr();
        TestServer {
            rt,
            server: Some(server),
            addr,
            dir,
            phonies,
        }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    pub fn get(&self, path: &str) -> HttpReply {
        http(self.addr, "GET", path, None).unwrap()
    }

    pub fn get_json(&self, path: &str) -> Value {
        let r = self.get(path);
        assert_eq!(r.status, 200, "{path}: {}", r.text());
        serde_json::from_slice(&r.body).unwrap()
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if let Some(s) = self.server.take() {
            self.rt.block_on(s.shutdown());
        }
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

// ---------------------------------------------------------------------------------------------
// Games and events on the server under test

impl TestServer {
    /// Creates a game through the API (`POST /api/games`): the server's answer (id, seat links).
    pub fn create_game(&self, body: Value) -> Value {
        let r = http(
            self.addr,
            "POST",
            "/api/games",
            Some(body.to_string().as_bytes()),
        )
        .unwrap();
        assert_eq!(r.status, 201, "{}", r.text());
        serde_json::from_slice(&r.body).unwrap()
    }

    /// The game page of seat `seat` of game `g` (as [`TestServer::create_game`] returned it).
    pub fn seat_url(&self, g: &Value, seat: usize) -> String {
        self.url(
            &g["seats"][seat]["link"]
                .as_str()
                .unwrap()
                .replace("/games/", "/game/"),
        )
    }

    /// The director's key the server wrote beside its database.
    pub fn director_key(&self) -> String {
        let key = std::fs::read_to_string(self.dir.join("tilebag-director.key")).unwrap();
        key.trim().to_string()
    }

    /// Creates event `club` ("Club Night": division A, `preset`, `schedule`) with the players,
    /// through the event file the pages read.
    pub fn create_event(&self, preset: &str, schedule: &str, players: &[(&str, i32)]) {
        let dir = tilebag_events::EventsDir::new(self.dir.join("tilebag-events"));
        let mut f = dir.create("club", "Club Night", None).unwrap();
        let (preset, schedule) = (preset.to_string(), schedule.to_string());
        f.append(move |_| {
            Ok(vec![tilebag_tournament::Action::AddDivision {
                division: "A".into(),
                preset,
                schedule,
                seed: 7,
            }])
        })
        .unwrap();
        for (name, rating) in players {
            let (name, rating) = (name.to_string(), *rating);
            f.append(move |_| {
                Ok(vec![tilebag_tournament::Action::AddPlayer {
                    division: "A".into(),
                    name,
                    rating,
                    member_id: None,
                    career_games: None,
                    members: vec![],
                }])
            })
            .unwrap();
        }
    }

    /// The event file of event `club` (see [`TestServer::create_event`]).
    pub fn event_file(&self) -> tilebag_events::EventFile {
        tilebag_events::EventFile::open(&self.dir.join("tilebag-events/club.tbev")).unwrap()
    }

    /// Pairs round `round` of division A as the schedule says, through the event file.
    pub fn pair_round(&self, round: u32) {
        self.event_file()
            .append(move |t| Ok(vec![t.pair("A", round, None, None)?.0]))
            .unwrap();
    }
}

// ---------------------------------------------------------------------------------------------
// What a person does and sees on the pages

impl Browser {
    /// Both seats of game `g` opened in two new browser windows, each connected with a full
    /// rack.
    pub fn open_both_seats(&self, server: &TestServer, g: &Value) -> (Session<'_>, Session<'_>) {
        let alice = self.session();
        let bob = self.session();
        sit_both(&alice, &bob, server, g);
        (alice, bob)
    }

    /// A new browser window signed in on the director's pages.
    pub fn director_session(&self, server: &TestServer) -> Session<'_> {
        let s = self.session();
        s.sign_in_on_the_page(server);
        s
    }
}

/// Seat 0 of game `g` in window `first`, seat 1 in `second`; waits until both are connected
/// with a full rack.
pub fn sit_both(first: &Session<'_>, second: &Session<'_>, server: &TestServer, g: &Value) {
    first.open_game_as(server, g, 0);
    second.open_game_as(server, g, 1);
    first.wait_for_seat();
    second.wait_for_seat();
}

/// The game of round `round` of division `d` on board `board`.
pub fn game_on_board(
    d: &tilebag_tournament::model::Division,
    round: u32,
    board: u32,
) -> &tilebag_tournament::model::Game {
    d.rounds[round as usize - 1]
        .pairings
        .iter()
        .filter_map(tilebag_tournament::model::Pairing::game)
        .find(|g| g.board == board)
        .unwrap()
}

/// The path of `name`'s page among the links of [`Session::player_links`].
pub fn link_of<'l>(links: &'l [(String, String)], name: &str) -> &'l str {
    &links
        .iter()
        .find(|(n, _)| n == name)
        .unwrap_or_else(|| panic!("{name}'s link in {links:?}"))
        .1
}

impl Session<'_> {
    // --- the game page

    /// The page's current view (the JSON the server sent), as the page holds it.
    pub fn game_view(&self) -> Value {
        self.js("return window.tilebag.state.view", json!([]))
    }

    /// How many lines the game's history has, as the page holds it.
    pub fn history_len(&self) -> usize {
        self.game_view()["history"]
            .as_array()
            .map_or(0, |h| h.len())
    }

    /// Waits until the page's history has `n` lines.
    pub fn wait_history(&self, n: usize, what: &str) {
        self.wait(what, || (self.history_len() == n).then_some(()));
    }

    /// Opens the game page of seat `seat` of game `g`.
    pub fn open_game_as(&self, server: &TestServer, g: &Value, seat: usize) {
        self.goto(&server.seat_url(g, seat));
    }

    /// Waits until the game page is connected, the game started, with a full rack.
    pub fn wait_for_seat(&self) {
        self.wait_js(
            "the game page to connect with a full rack",
            "return document.querySelector('#conn').dataset.state === 'connected' \
             && window.tilebag.state.view !== null && window.tilebag.state.view.started \
             && document.querySelectorAll('#rack .rack-tile').length === 7",
        );
    }

    /// Waits until the game page is connected with a view; and, for a seat (not an observer),
    /// until its rack is full.
    pub fn wait_for_game_page(&self, seat: bool) {
        self.wait_js(
            "the game page to connect",
            "return document.querySelector('#conn').dataset.state === 'connected' \
             && window.tilebag.state.view !== null",
        );
        if seat {
            self.wait_js(
                "a full rack",
                "return document.querySelectorAll('#rack .rack-tile').length === 7",
            );
        }
    }

    /// The rack as the page shows it, in order: `(tile id, letter)`.
    pub fn rack_tiles(&self) -> Vec<(u64, String)> {
        let v = self.js(
            "return [...document.querySelectorAll('#rack .rack-tile')]\
             .map(b => [Number(b.dataset.tileId), b.dataset.letter])",
            json!([]),
        );
        v.as_array()
            .unwrap()
            .iter()
            .map(|p| (p[0].as_u64().unwrap(), p[1].as_str().unwrap().to_string()))
            .collect()
    }

    /// `n` tiles of the rack that are not blanks: `(tile id, letter)`.
    pub fn lettered_tiles(&self, n: usize) -> Vec<(u64, String)> {
        let r: Vec<_> = self
            .rack_tiles()
            .into_iter()
            .filter(|(_, l)| l != "?")
            .collect();
        assert!(r.len() >= n, "the rack {r:?} has fewer than {n} letters");
        r.into_iter().take(n).collect()
    }

    /// The letters of the rack that are not blanks, in order.
    pub fn rack_letters(&self) -> Vec<String> {
        self.js_strings(
            "return [...document.querySelectorAll('#rack .rack-tile')].map(b => b.dataset.letter).filter(l => l !== '?')",
        )
    }

    /// Runs `script` (no arguments), which returns an array of strings, and returns them.
    pub fn js_strings(&self, script: &str) -> Vec<String> {
        self.js(script, json!([]))
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_str().unwrap().to_string())
            .collect()
    }

    /// Drags a rack tile onto a square with real DOM drag events (WebDriver's own pointer drags
    /// do not start HTML5 drags in Chromium).
    pub fn drag_tile(&self, tile_id: u64, r: usize, c: usize) {
        self.js(
            "const src = document.querySelector(`#rack .rack-tile[data-tile-id=\"${arguments[0]}\"]`);
             const dst = document.querySelector(arguments[1]);
             const dt = new DataTransfer();
             src.dispatchEvent(new DragEvent('dragstart', {bubbles: true, dataTransfer: dt}));
             dst.dispatchEvent(new DragEvent('dragover', {bubbles: true, cancelable: true, dataTransfer: dt}));
             dst.dispatchEvent(new DragEvent('drop', {bubbles: true, cancelable: true, dataTransfer: dt}));
             src.dispatchEvent(new DragEvent('dragend', {bubbles: true, dataTransfer: dt}));",
            json!([tile_id, format!("#board-sq-{r}-{c}")]),
        );
    }

    /// Types a word with the keyboard from the board's cursor, put on square (`r`, `c`) going
    /// across or `down`.
    pub fn type_on_board(&self, r: usize, c: usize, down: bool, letters: &str) {
        self.click_css(&format!("#board-sq-{r}-{c}"));
        if down {
            self.click_css(&format!("#board-sq-{r}-{c}"));
        }
        let dir = self.js("return window.tilebag.state.cursor.dir", json!([]));
        assert_eq!(dir, if down { "down" } else { "across" });
        self.type_keys(&letters.to_lowercase());
    }

    /// The tiles placed on the board and not yet played, as `row,column,letter`.
    pub fn placed_tiles(&self) -> Vec<String> {
        self.js_strings(
            "return [...window.tilebag.state.placed.values()].map(t => t.r + ',' + t.c + ',' + t.letter)",
        )
    }

    /// The score of `seat` the page shows.
    pub fn score_shown(&self, seat: usize) -> i64 {
        self.text_of(&format!("[data-testid=score-{seat}]"))
            .trim()
            .parse()
            .unwrap_or_else(|_| panic!("score-{seat} is not a number"))
    }

    /// Presses a two-step button (the first press asks, the second does it).
    pub fn confirm_click(&self, css: &str) {
        self.click_css(css);
        self.wait_js(
            "the button to ask for confirmation",
            &format!("return document.querySelector('{css}').textContent.startsWith('Confirm')"),
        );
        self.click_css(css);
    }

    // --- what the page looks like

    /// Whether the element matching `css` is shown.
    pub fn is_visible(&self, css: &str) -> bool {
        self.js(
            "const e = document.querySelector(arguments[0]); \
             return !!e && e.offsetParent !== null && e.getClientRects().length > 0",
            json!([css]),
        )
        .as_bool()
        .unwrap()
    }

    /// How many pixels the page is wider than the window (0 or less: it fits).
    pub fn overflow_px(&self) -> Value {
        self.js(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth",
            json!([]),
        )
    }

    /// Nothing on the page is wider than the window (a phone-sized one in the tests).
    pub fn assert_no_overflow(&self) {
        let overflow = self.overflow_px();
        assert!(
            overflow.as_i64().unwrap() <= 0,
            "the page is {overflow} px wider than the window"
        );
    }

    /// Nothing on the page `what` is wider than the window.
    pub fn assert_fits(&self, what: &str) {
        let overflow = self.overflow_px();
        assert!(
            overflow.as_i64().unwrap() <= 0,
            "{what}: the page is {overflow} px wider than the window"
        );
    }

    /// Resizes the window and lets the page lay itself out again.
    pub fn resize_and_settle(&self, width: u32, height: u32) {
        self.set_window_size(width, height);
        std::thread::sleep(Duration::from_millis(300));
    }

    /// The window's own bars (width, height): what the window has beyond its viewport.
    pub fn window_bars(&self) -> (u32, u32) {
        let bars = self.js(
            "return [window.outerWidth - window.innerWidth, window.outerHeight - window.innerHeight]",
            json!([]),
        );
        (
            bars[0].as_u64().unwrap() as u32,
            bars[1].as_u64().unwrap() as u32,
        )
    }

    /// Sizes the window so that its viewport is `width` x `height` (the bars come on top).
    pub fn set_viewport(&self, width: u32, height: u32) {
        let (bw, bh) = self.window_bars();
        self.set_window_size(width + bw, height + bh);
    }

    /// Prints the elements wider than the window (what to look at when the page overflows).
    pub fn log_wide_elements(&self) {
        let wide = self.js(
            "return [document.documentElement.clientWidth, document.documentElement.scrollWidth, ...[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5 && ![...e.children].some(c => c.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)).map(e => e.tagName + '#' + e.id + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right))]",
            json!([]),
        );
        eprintln!("wider than the window: {wide}");
    }

    /// Each page (name, path), at a 360 px phone's size and then at a desktop's: it loads, fits
    /// the phone, and axe-core finds nothing; a screenshot `{prefix}{name}-{size}` of each.
    pub fn check_pages_fit_and_pass_axe(
        &self,
        server: &TestServer,
        prefix: &str,
        pages: &[(&str, &str)],
    ) {
        for (width, height, size) in [(360, 780, "phone"), (1280, 900, "desktop")] {
            self.set_window_size(width, height);
            for (name, path) in pages {
                self.goto(&server.url(path));
                self.find("main h1");
                std::thread::sleep(Duration::from_millis(100));
                if size == "phone" {
                    self.assert_fits(name);
                }
                self.screenshot(&format!("{prefix}{name}-{size}"));
                self.assert_accessible(&format!("{name} ({size})"));
            }
        }
    }

    // --- the lobby and the tools

    /// Opens the lobby and waits for its rulebooks.
    pub fn open_lobby(&self, server: &TestServer) {
        self.goto(&server.url("/"));
        self.wait_js(
            "the presets",
            "return document.querySelectorAll('#preset option').length >= 6",
        );
    }

    /// Opens the score sheet (`/scoresheet`) with the two players' names, the move field
    /// focused.
    pub fn open_scoresheet(&self, server: &TestServer, first: &str, second: &str) {
        self.goto(&server.url("/scoresheet"));
        self.find("#entry-move");
        self.fill("#name-0", first);
        self.fill("#name-1", second);
        // `change` fires when the field loses focus.
        self.click_css("#entry-move");
    }

    // --- the director's pages

    /// On the director's sign-in page: types the server's key and signs in; waits for the
    /// events page.
    pub fn enter_director_key(&self, server: &TestServer) {
        self.fill("#key", &server.director_key());
        self.click_css("#sign-in");
        self.wait_js(
            "the events page",
            "return !!document.querySelector('#create-event')",
        );
    }

    /// Signs in on the director's pages with the server's key.
    pub fn sign_in_on_the_page(&self, server: &TestServer) {
        self.goto(&server.url("/td"));
        self.enter_director_key(server);
    }

    /// Waits for the page's banner (`#message` or `#error`) to say `text` exactly; returns it.
    pub fn wait_for_banner(&self, text: &str) -> String {
        self.wait(&format!("the banner {text:?}"), || {
            let now = self.js(
                "return document.querySelector('#message, #error')?.textContent ?? ''",
                json!([]),
            );
            (now.as_str() == Some(text)).then(|| text.to_string())
        })
    }

    /// Waits for the page's `#message` or `#error` banner to contain `text`; returns the banner.
    pub fn wait_for_banner_containing(&self, text: &str) -> String {
        self.wait(&format!("a banner with {text:?}"), || {
            let now = self.js(
                "return document.querySelector('#message, #error')?.textContent ?? ''",
                json!([]),
            );
            let now = now.as_str().unwrap_or_default();
            now.contains(text).then(|| now.to_string())
        })
    }

    /// Waits for the page's `#error` to say something; returns it.
    pub fn wait_for_error(&self, what: &str) -> String {
        self.wait(what, || {
            let e = self.text_of("#error");
            (!e.is_empty()).then_some(e)
        })
    }

    /// On the division page's round: fills in board `board`'s final scores (not entered yet).
    pub fn fill_result(&self, board: u32, first: &str, second: &str) {
        self.fill(&format!("#score-{board}-first"), first);
        self.fill(&format!("#score-{board}-second"), second);
        self.js(
            &format!("document.querySelector('#entry-{board}').value = 'final'"),
            json!([]),
        );
    }

    /// On the division page's round: enters board `board`'s final scores.
    pub fn enter_result(&self, board: u32, first: &str, second: &str) {
        self.fill_result(board, first, second);
        self.click_css(&format!("#enter-{board}"));
    }

    /// Starts round `round`'s online games from division A's page; waits until the page says
    /// `games` were started.
    pub fn start_online_games(&self, server: &TestServer, round: u32, games: usize) {
        self.goto(&server.url(&format!("/td/club/d/A?round={round}")));
        self.click_css("#start-online");
        self.wait_for_banner(&format!("Started {games} online games."));
    }

    /// The path of the first seat's page of the online game on board `board`, from the link on
    /// the division page's round.
    pub fn seat_link_on_board(&self, board: u32) -> String {
        self.js(
            &format!("return document.querySelector('#board-{board} a.seat').getAttribute('href')"),
            json!([]),
        )
        .as_str()
        .unwrap()
        .to_string()
    }

    /// The player pages' links, from the director's links page: (name, path).
    pub fn player_links(&self, server: &TestServer) -> Vec<(String, String)> {
        self.goto(&server.url("/td/club/d/A/links"));
        let v = self.js(
            "return [...document.querySelectorAll('#links tbody tr')].map(r => [r.cells[1].textContent, r.querySelector('a').getAttribute('href')])",
            json!([]),
        );
        v.as_array()
            .unwrap()
            .iter()
            .map(|x| {
                (
                    x[0].as_str().unwrap().to_string(),
                    x[1].as_str().unwrap().to_string(),
                )
            })
            .collect()
    }
}

// ---------------------------------------------------------------------------------------------
// Issue 29 (the game page, second pass): what the system tells the page

impl Session<'_> {
    /// Runs a Chrome DevTools Protocol command (chromedriver's `goog/cdp/execute`).
    pub fn cdp(&self, cmd: &str, params: Value) -> Value {
        self.call(
            "POST",
            "/goog/cdp/execute",
            Some(json!({ "cmd": cmd, "params": params })),
        )
        .unwrap_or_else(|e| panic!("{cmd}: {e}"))
    }

    /// The colour scheme the system prefers, as the page's `prefers-color-scheme` sees it
    /// (`"dark"`, `"light"`, or `""` for the browser's own).
    pub fn prefer_color_scheme(&self, scheme: &str) {
        self.cdp(
            "Emulation.setEmulatedMedia",
            json!({ "features": [{ "name": "prefers-color-scheme", "value": scheme }] }),
        );
    }
}

/// Both seats of a game driven over the API (by the test, not a page).
pub struct Driver {
    pub seats: Vec<tilebag_server::client::WsClient>,
    pub views: Vec<Value>,
}

impl Driver {
    pub fn open(server: &TestServer, g: &Value) -> Driver {
        server.rt.block_on(async {
            let mut seats = Vec::new();
            for s in 0..2 {
                let ws = g["seats"][s]["ws"].as_str().unwrap();
                seats.push(
                    tilebag_server::client::WsClient::connect(server.addr, ws)
                        .await
                        .unwrap(),
                );
            }
            let mut d = Driver {
                seats,
                views: vec![Value::Null, Value::Null],
            };
            d.settle().await;
            d
        })
    }

    /// Reads what has arrived until every view is quiet for a moment.
    pub async fn settle(&mut self) {
        for s in 0..2 {
            while let Ok(Ok(Some(m))) =
                tokio::time::timeout(Duration::from_millis(150), self.seats[s].recv()).await
            {
                if m["type"] == "state" {
                    self.views[s] = m["view"].clone();
                }
            }
        }
    }

    /// Sends `msg` from `seat`; the answer (`ack` or `error`).
    pub fn act(&mut self, server: &TestServer, seat: usize, msg: Value) -> Value {
        server.rt.block_on(async {
            self.seats[seat].send_json(&msg).await.unwrap();
            let reply = loop {
                let m = self.seats[seat]
                    .recv_timeout(Duration::from_secs(10))
                    .await
                    .unwrap()
                    .unwrap();
                if m["type"] == "state" {
                    self.views[seat] = m["view"].clone();
                    continue;
                }
                break m;
            };
            self.settle().await;
            reply
        })
    }

    pub fn ok(&mut self, server: &TestServer, seat: usize, msg: Value) {
        let reply = self.act(server, seat, msg.clone());
        assert_eq!(reply["type"], "ack", "{msg} -> {reply}");
    }

    pub fn close(self, server: &TestServer) {
        server.rt.block_on(async move { drop(self) });
    }
}

/// Sizes the window so that its viewport is `width` × `height`, and checks that it is.
pub fn viewport(s: &Session<'_>, width: u32, height: u32) {
    let inner = || {
        let v = s.js("return [window.innerWidth, window.innerHeight]", json!([]));
        (v[0].as_i64().unwrap(), v[1].as_i64().unwrap())
    };
    s.set_viewport(width, height);
    std::thread::sleep(Duration::from_millis(250));
    // The window's bars are measured from the window as it was: after a size the window could
    // not take, measure again and correct.
    for _ in 0..3 {
        let (w, h) = inner();
        if (w, h) == (width as i64, height as i64) {
            return;
        }
        let (bw, bh) = s.window_bars();
        let (ow, oh) = (w + bw as i64, h + bh as i64);
        s.set_window_size(
            (ow + width as i64 - w) as u32,
            (oh + height as i64 - h) as u32,
        );
        std::thread::sleep(Duration::from_millis(250));
    }
    assert_eq!(inner(), (width as i64, height as i64), "the viewport");
}

// ---------------------------------------------------------------------------------------------
// Issue 30: two people online (the lobby, a game's players' chat, rematches, profiles)

/// The password the online tests sign up with.
pub const ONLINE_PASSWORD: &str = "a long enough secret";

/// A rating as a profile's table shows it.
#[derive(Debug, Clone)]
pub struct ShownRating {
    pub category: String,
    /// `1662?` while provisional.
    pub text: String,
    pub rating: i64,
    pub provisional: bool,
}

/// What to type for a word of `words` made from `rack` (its letters, no blanks) on `board` (15
/// rows, `.` empty): `(row, column, down, word, letters to type)`. On an empty board the word
/// goes across from the centre square (the first word covers it: NASPA III.G.1); otherwise it goes
/// down through a letter alone in its column, its new tiles touching nothing else, so the only
/// word it makes is itself. The longest such word, or `None`.
pub fn a_word_to_play(
    words: &tilebag_lexicon::WordSource,
    rack: &[String],
    board: &[String],
) -> Option<(usize, usize, bool, String, String)> {
    let at = |r: usize, c: usize| board.get(r).and_then(|row| row.as_bytes().get(c).copied());
    let empty = |r: usize, c: usize| at(r, c).is_none_or(|b| b == b'.');
    let mut have = [0u8; 26];
    for l in rack {
        if let Some(b) = l.bytes().next().filter(u8::is_ascii_uppercase) {
            have[(b - b'A') as usize] += 1;
        }
    }
    // Whether `word` less its letter at `skip` comes from the rack.
    let from_rack = |word: &[u8], skip: Option<usize>| {
        let mut left = have;
        word.iter().enumerate().all(|(i, b)| {
            if Some(i) == skip {
                return true;
            }
            let k = (b - b'A') as usize;
            let ok = left[k] > 0;
            left[k] = left[k].saturating_sub(1);
            ok
        })
    };
    let board_empty = (0..15).all(|r| (0..15).all(|c| empty(r, c)));
    let mut best: Option<(usize, usize, bool, String, String)> = None;
    let mut consider = |cand: (usize, usize, bool, String, String)| {
        if best.as_ref().is_none_or(|b| cand.3.len() > b.3.len()) {
            best = Some(cand);
        }
    };
    for word in words.words() {
        let w = word.to_ascii_uppercase();
        let bytes = w.as_bytes();
        if !(2..=8).contains(&bytes.len()) || !bytes.iter().all(u8::is_ascii_uppercase) {
            continue;
        }
        if board_empty {
            if bytes.len() <= 7 && from_rack(bytes, None) {
                consider((7, 7, false, w.clone(), w.clone()));
            }
            continue;
        }
        for c in 0..15 {
            let lettered: Vec<usize> = (0..15).filter(|&r| !empty(r, c)).collect();
            let [r] = lettered[..] else { continue };
            let l = at(r, c).unwrap();
            for k in 1..bytes.len() {
                if bytes[k] != l || k > r || r - k + bytes.len() > 15 {
                    continue;
                }
                let start = r - k;
                let rows = start..start + bytes.len();
                let alone = rows
                    .clone()
                    .filter(|&row| row != r)
                    .all(|row| (c == 0 || empty(row, c - 1)) && empty(row, c + 1));
                if alone && from_rack(bytes, Some(k)) {
                    let mut typed = w.clone();
                    typed.remove(k);
                    consider((start, c, true, w.clone(), typed));
                }
            }
        }
    }
    best
}

impl Session<'_> {
    /// Signs up as `name` on the sign-up page and comes back to the lobby, signed in, with its
    /// seek form ready.
    pub fn sign_up_to_the_lobby(&self, server: &TestServer, name: &str) {
        self.goto(&server.url("/signup?next=/"));
        self.fill("#username", name);
        self.fill("#password", ONLINE_PASSWORD);
        self.click_css("#create");
        self.wait_js(
            "the lobby's seek form",
            "return !!document.querySelector('#seek-form') \
             && !document.querySelector('#seek-form').hidden \
             && document.querySelectorAll('#seek-preset option').length >= 6 \
             && document.querySelectorAll('#seek-lexicon option').length >= 1",
        );
    }

    /// Chooses `value` in the select matching `css`, as a person picking it would.
    pub fn choose(&self, css: &str, value: &str) {
        let chosen = self.js(
            "const s = document.querySelector(arguments[0]); \
             if (![...s.options].some((o) => o.value === arguments[1])) return false; \
             s.value = arguments[1]; s.dispatchEvent(new Event('change', {bubbles: true})); \
             return true",
            json!([css, value]),
        );
        assert_eq!(chosen, json!(true), "{css} has no option {value:?}");
    }

    /// In the lobby's seek form: seeks a game with this lexicon, minutes each, rated or not;
    /// waits until the seek is listed with its Cancel button and returns the listing's text.
    pub fn seek_a_game(&self, lexicon: &str, minutes: u32, rated: bool) -> String {
        self.choose("#seek-lexicon", lexicon);
        self.fill("#seek-minutes", &minutes.to_string());
        self.choose("#seek-rated", if rated { "true" } else { "false" });
        self.click_css("#seek-create");
        self.wait_js(
            "the seek, listed with its Cancel button",
            "return document.querySelectorAll('#seeks [data-testid=seek-cancel]').length === 1",
        );
        self.text_of("#seeks [data-testid=seek]")
    }

    /// Waits for another player's seek to arrive in the lobby (no reload); returns its text.
    pub fn wait_for_a_seek(&self) -> String {
        self.wait_js(
            "another player's seek with its Accept button",
            "return document.querySelectorAll('#seeks [data-testid=seek-accept]').length === 1",
        );
        self.text_of("#seeks [data-testid=seek]")
    }

    /// Accepts the seek listed in the lobby with one click.
    pub fn accept_the_seek(&self) {
        self.click_css("#seeks [data-testid=seek-accept]");
    }

    /// Waits until this page is at its seat of a game, connected with a full rack: the seat.
    pub fn seat_at_the_game(&self) -> usize {
        self.wait_js(
            "the game page",
            "return location.pathname.startsWith('/game') && !!document.querySelector('#conn') \
             && !!window.tilebag",
        );
        self.wait_for_seat();
        self.js("return window.tilebag.state.seat", json!([]))
            .as_u64()
            .unwrap() as usize
    }

    /// The game this page shows.
    pub fn game_id(&self) -> String {
        self.js("return window.tilebag.state.view.game_id", json!([]))
            .as_str()
            .unwrap()
            .to_string()
    }

    /// The players' names by seat, as the page shows them.
    pub fn player_names(&self) -> Vec<String> {
        self.js_strings("return window.tilebag.state.view.players.map((p) => p.name)")
    }

    /// On its turn, plays the longest word of `words` its rack makes where it fits (see
    /// [`a_word_to_play`]) and waits until the game's sheet has it: the word; or, with no word
    /// to play, passes (`None`).
    pub fn play_a_word(&self, words: &tilebag_lexicon::WordSource) -> Option<String> {
        let lines = self.history_len();
        let board = self.js_strings("return window.tilebag.state.view.board");
        let found = a_word_to_play(words, &self.rack_letters(), &board);
        match &found {
            Some((r, c, down, _, typed)) => {
                self.type_on_board(*r, *c, *down, typed);
                self.click_css("#btn-play");
            }
            None => self.confirm_click("#btn-pass"),
        }
        self.wait_history(lines + 1, "the move on the game's sheet");
        found.map(|f| f.3)
    }

    /// Says `text` in the game's players' chat.
    pub fn say_in_the_game_chat(&self, text: &str) {
        self.find("#game-chat .chat-form:not([hidden]) input");
        self.fill("#game-chat-text", text);
        self.click_css("#game-chat .chat-form button[type=submit]");
    }

    /// Waits until the game's chat shows `NAME TEXT` (without reloading).
    pub fn wait_for_game_chat_line(&self, line: &str) {
        let script = "return [...document.querySelectorAll('#game-chat .chat-log .chat-line')]\
             .filter((li) => li.querySelector('.chat-sender'))\
             .map((li) => li.querySelector('.chat-sender').textContent + ' ' \
                  + li.querySelector('.chat-text').textContent)";
        self.wait(&format!("the chat line {line:?}"), || {
            self.js_strings(script)
                .iter()
                .any(|l| l == line)
                .then_some(())
        });
    }

    /// Waits until the game page shows the game's result: the result's line and why it ended.
    pub fn wait_for_the_result(&self) -> (String, String) {
        self.wait_js(
            "the game's result",
            "return !document.querySelector('#result').hidden \
             && !!document.querySelector('#result [data-testid=result]')",
        );
        let why = self.js(
            "return document.querySelector('#result [data-testid=result]').nextElementSibling.textContent",
            json!([]),
        );
        (
            self.text_of("#result [data-testid=result]"),
            why.as_str().unwrap_or_default().to_string(),
        )
    }

    /// Offers the opponent a rematch from the game page; waits until the page says it waits.
    pub fn offer_a_rematch(&self) {
        self.click_css("[data-testid=rematch-offer]");
        self.wait_js(
            "the offer, waiting for an answer",
            "return document.querySelector('#rematch-status').textContent.includes('waiting')",
        );
    }

    /// Waits for the opponent's rematch offer on the game page; returns what the page says.
    pub fn wait_for_a_rematch_offer(&self) -> String {
        self.wait_js(
            "the opponent's rematch offer",
            "return !!document.querySelector('[data-testid=rematch-accept]')",
        );
        self.text_of("#rematch-status")
    }

    /// Waits until this page has gone on to a game other than `previous`, at its seat: the seat.
    pub fn seat_at_the_next_game(&self, previous: &str) -> usize {
        self.wait_js(
            "the next game's page",
            &format!(
                "return !!window.tilebag && !!window.tilebag.state.view \
                 && window.tilebag.state.view.game_id !== '{previous}'"
            ),
        );
        self.seat_at_the_game()
    }

    /// Opens `/u/NAME`, again until its ratings table has a row (a game is rated moments
    /// after it ends).
    pub fn open_profile_once_rated(&self, server: &TestServer, name: &str) {
        self.goto(&server.url(&format!("/u/{name}")));
        self.wait("a rating on the profile", || {
            if self.try_find("#ratings tbody tr").is_some() {
                return Some(());
            }
            std::thread::sleep(Duration::from_millis(200));
            self.refresh();
            None
        });
    }

    /// The ratings the profile shows.
    pub fn ratings_shown(&self) -> Vec<ShownRating> {
        let rows = self.js(
            "return [...document.querySelectorAll('#ratings tbody tr')].map((tr) => \
             [tr.cells[0].textContent, tr.cells[1].innerText, tr.classList.contains('provisional')])",
            json!([]),
        );
        rows.as_array()
            .unwrap()
            .iter()
            .map(|r| {
                let text = r[1].as_str().unwrap().trim().to_string();
                let digits: String = text.chars().filter(char::is_ascii_digit).collect();
                ShownRating {
                    category: r[0].as_str().unwrap().to_string(),
                    rating: digits.parse().unwrap_or_else(|_| panic!("rating {text:?}")),
                    provisional: r[2].as_bool().unwrap(),
                    text,
                }
            })
            .collect()
    }

    /// The line of game `id` in the profile's list of games.
    pub fn profile_game_line(&self, id: &str) -> String {
        self.text_of(&format!("#games li[data-game='{id}']"))
    }

    /// Follows the profile's "Analysis" link of game `id`; waits until the game page shows the
    /// analysis of every move.
    pub fn open_analysis_from_profile(&self, id: &str) {
        let link = format!("#games li[data-game='{id}'] a[href='/games/{id}#analysis']");
        self.js(
            "document.querySelector(arguments[0]).scrollIntoView({block: 'center'}); return true",
            json!([link]),
        );
        self.click_css(&link);
        self.wait_js(
            "the game's analysis",
            "return location.hash === '#analysis' && !!document.querySelector('#analysis') \
             && !document.querySelector('#analysis').hidden \
             && document.querySelectorAll('#analysis [data-testid=analysis-turn]').length > 0",
        );
    }
}
