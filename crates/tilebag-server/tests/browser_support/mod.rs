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

    /// Run axe-core (WCAG 2 A and AA rules; not the experimental `label-content-name-mismatch`,
    /// which the board's squares and rack tiles fail by design: their labels name the square and
    /// premium in words where the face shows `TW`) on the page and return its violations as
    /// `rule: nodes` lines; `None` (with a note) when axe-core is not installed
    /// (`npm install -g axe-core`, or `TILEBAG_AXE` naming `axe.min.js`).
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
                        axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}, \
                            rules: {'label-content-name-mismatch': {enabled: false}}})\
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
