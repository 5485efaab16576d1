//! For tests only (this crate's and other crates'): a `nats-server` child process on a free
//! loopback port, killed on drop, that can be stopped and restarted on the same port to test
//! outages.
//!
//! ```no_run
//! let Some(server) = tilebag_nats::test_server::NatsServer::start() else { return };
//! let url = server.url(); // nats://127.0.0.1:PORT
//! ```

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a started server has to accept connections.
const READY_WITHIN: Duration = Duration::from_secs(10);

/// A running `nats-server` (Debian's package: `apt install nats-server`), killed on drop.
#[derive(Debug)]
pub struct NatsServer {
    port: u16,
    program: PathBuf,
    args: Vec<String>,
    child: Option<Child>,
}

impl NatsServer {
    /// Starts `nats-server -a 127.0.0.1 -p PORT` on a free port and waits until it accepts
    /// connections. `None` (with "skipping: nats-server is not installed …" printed) when it is
    /// not on the PATH. Panics (it is for tests) if it is installed but does not start.
    pub fn start() -> Option<NatsServer> {
        NatsServer::start_with(&[])
    }

    /// Like [`NatsServer::start`], with more arguments for `nats-server` (for instance
    /// `["--auth", "s3cret"]`), kept for restarts.
    pub fn start_with(args: &[&str]) -> Option<NatsServer> {
        let Some(program) = program() else {
            eprintln!("skipping: nats-server is not installed (apt install nats-server)");
            return None;
        };
        // Another process may take the port between our probe and the server's bind: retry.
        let mut last_error = String::new();
        for _ in 0..5 {
            let port = free_port();
            let mut server = NatsServer {
                port,
                program: program.clone(),
                args: args.iter().map(|a| a.to_string()).collect(),
                child: None,
            };
            match server.spawn() {
                Ok(()) => return Some(server),
                Err(err) => last_error = err,
            }
        }
        panic!("nats-server did not start: {last_error}");
    }

    /// `nats://127.0.0.1:PORT`.
    pub fn url(&self) -> String {
        format!("nats://127.0.0.1:{}", self.port)
    }

    /// The port it listens on (kept across [`NatsServer::stop`] and [`NatsServer::restart`]).
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Kills the server (abruptly, as a crash would), keeping the port for
    /// [`NatsServer::restart`].
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Starts the server again on the same port (stopping it first if it runs) and waits until
    /// it accepts connections. Panics (it is for tests) if it does not start.
    pub fn restart(&mut self) {
        self.stop();
        let mut last_error = String::new();
        // The old socket may linger for a moment.
        for _ in 0..5 {
            match self.spawn() {
                Ok(()) => return,
                Err(err) => last_error = err,
            }
        }
        panic!(
            "nats-server did not restart on port {}: {last_error}",
            self.port
        );
    }

    fn spawn(&mut self) -> Result<(), String> {
        let mut child = Command::new(&self.program)
            .args(["-a", "127.0.0.1", "-p", &self.port.to_string()])
            .args(&self.args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", self.program.display()))?;
        let addr = SocketAddr::from(([127, 0, 0, 1], self.port));
        let began = Instant::now();
        loop {
            if let Ok(Some(status)) = child.try_wait() {
                return Err(format!(
                    "nats-server exited at once ({status}) on port {}",
                    self.port
                ));
            }
            if TcpStream::connect_timeout(&addr, Duration::from_millis(200)).is_ok() {
                self.child = Some(child);
                return Ok(());
            }
            if began.elapsed() > READY_WITHIN {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!(
                    "nats-server did not accept connections on port {} within {READY_WITHIN:?}",
                    self.port
                ));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

impl Drop for NatsServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// `nats-server` on the PATH, or where Debian puts it (`/usr/sbin`, not on every user's PATH).
fn program() -> Option<PathBuf> {
    let runs = |p: &Path| {
        Command::new(p)
            .arg("--version")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success())
    };
    [
        "nats-server",
        "/usr/sbin/nats-server",
        "/usr/bin/nats-server",
    ]
    .into_iter()
    .map(PathBuf::from)
    .find(|p| runs(p))
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or(4222)
}
