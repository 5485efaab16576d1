//! `tilebag serve` as a child process, for the tests that need the real process: killed with
//! SIGKILL (`serve_kill.rs`), or measured from outside (`serve_hostile.rs`).

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::Path;
use std::process::{Child, Command, Stdio};

/// A `tilebag serve` child process; killed when dropped.
pub struct Server {
    pub child: Child,
    pub addr: SocketAddr,
    /// Every line the server printed before it listened and just after (its start-up log).
    pub log: Vec<String>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    /// `tilebag serve` on a free port with the SQLite file `t.db` in `dir`, and `extra` options;
    /// returns once its start-up log is read.
    pub fn start(dir: &Path, extra: &[&str]) -> Server {
        let mut args = vec!["--database", "t.db"];
        args.extend_from_slice(extra);
        Server::start_with(dir, &args)
    }

    /// `tilebag serve` on a free port with exactly `args` after `serve --port 0` (its
    /// `--database` among them).
    pub fn start_with(dir: &Path, args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tilebag"))
            .args(["serve", "--port", "0"])
            .args(args)
            .current_dir(dir)
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start tilebag serve");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut log = Vec::new();
        // The start-up log ends with the line on limits.
        loop {
            let mut line = String::new();
            if out.read_line(&mut line).unwrap() == 0 {
                panic!("the server stopped: {log:?}");
            }
            let done = line.contains("at most");
            log.push(line.trim_end().to_string());
            if done {
                break;
            }
        }
        let addr = log
            .iter()
            .find_map(|l| l.split("listening on http://").nth(1))
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in {log:?}"))
            .parse()
            .unwrap();
        // Keep reading its output, so that it never blocks on a full pipe.
        std::thread::spawn(move || for _ in out.lines() {});
        Server { child, addr, log }
    }

    /// Resident memory in MB.
    pub fn rss_mb(&self) -> f64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("the server's /proc status");
        let kb: f64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .and_then(|v| v.parse().ok())
            .expect("VmRSS");
        kb / 1024.0
    }
}
