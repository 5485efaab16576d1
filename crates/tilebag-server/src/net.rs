//! The accept loop. axum's own `serve` keeps every connection for ever: an idle or half-sent
//! HTTP connection holds a file descriptor until the client leaves, so enough of them (about as
//! many as the process may open) stop the server answering anyone. Here:
//!
//! - a cap on concurrent connections in total and per source address: past it a new connection
//!   gets a one-line `503` written without waiting and is closed at once;
//! - a header-read timeout: from the first byte of a request to the end of its headers;
//! - an idle timeout: a connection with no request in progress and no byte read or written for
//!   that long is closed (keep-alive connections nobody uses);
//! - WebSocket connections leave this watch when they are upgraded: `ws.rs` pings them and closes
//!   those that stay silent ([`NetLimits::ws_silence`]).
//!
//! A connection's slot is held by its socket, so an upgraded WebSocket counts until it closes.

use crate::request_body;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::TokioIo;
use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;

/// Limits on connections (`tilebag serve --help` lists them with these defaults).
#[derive(Debug, Clone, Copy)]
pub struct NetLimits {
    /// Concurrent connections in all (HTTP and WebSocket), default 10,000; lowered at start-up to
    /// what the file-descriptor limit allows.
    pub max_connections: usize,
    /// Concurrent connections from one source address, default 256; 0 = no per-address cap
    /// (behind a reverse proxy every connection comes from the proxy).
    pub max_connections_per_address: usize,
    /// From the first byte of a request to the end of its headers (default 10 s).
    pub header_timeout: Duration,
    /// An HTTP connection with no request in progress and no traffic for this long is closed
    /// (default 30 s).
    pub idle_timeout: Duration,
    /// From the first byte of a request to the last byte of its body (default 20 s): past it the
    /// request is answered `408` and the connection closed.
    pub request_timeout: Duration,
    /// Bytes a second a request body must average once it has taken three seconds (default
    /// 1,000; 0 = no minimum): slower, it is answered `408` and the connection closed.
    pub min_body_rate: u64,
    /// The largest request body (default 16 KiB; every route's bodies are small forms or JSON).
    /// A larger one is refused with `413` as soon as its length is known or passes this.
    pub max_body_bytes: usize,
    /// The server pings each WebSocket this often (default 20 s) ...
    pub ws_ping_every: Duration,
    /// ... and closes one from which nothing (not even a pong) has come for this long (60 s).
    pub ws_silence: Duration,
}

impl Default for NetLimits {
    fn default() -> NetLimits {
        NetLimits {
            max_connections: 10_000,
            max_connections_per_address: 256,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(30),
            request_timeout: Duration::from_secs(20),
            min_body_rate: 1000,
            max_body_bytes: 16 * 1024,
            ws_ping_every: Duration::from_secs(20),
            ws_silence: Duration::from_secs(60),
        }
    }
}

/// File descriptors kept back from the connection cap for the database, event files, logs and
/// the listener.
const FD_RESERVE: u64 = 256;

/// Raises the soft limit on open files to the hard limit; returns the soft limit now in force
/// (`None` where it cannot be read).
pub fn raise_fd_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        let mut lim = libc::rlimit {
            rlim_cur: 0,
            rlim_max: 0,
        };
        // SAFETY: getrlimit and setrlimit only read and write the struct we pass.
        unsafe {
            if libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) != 0 {
                return None;
            }
            if lim.rlim_cur < lim.rlim_max {
                let want = libc::rlimit {
                    rlim_cur: lim.rlim_max,
                    rlim_max: lim.rlim_max,
                };
                if libc::setrlimit(libc::RLIMIT_NOFILE, &want) == 0 {
                    lim.rlim_cur = lim.rlim_max;
                }
            }
        }
        // `rlim_t` is not u64 on every Unix.
        #[allow(clippy::unnecessary_cast)]
        Some(lim.rlim_cur as u64)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The connection cap in force: the configured one, lowered so that the process cannot run out
/// of file descriptors before it is reached.
pub(crate) fn effective_cap(configured: usize, fd_limit: Option<u64>) -> usize {
    match fd_limit {
        Some(fds) => {
            let room = fds.saturating_sub(FD_RESERVE).max(16);
            configured.min(usize::try_from(room).unwrap_or(usize::MAX))
        }
        None => configured,
    }
}

/// Counts connections in all and per address.
pub(crate) struct Gate {
    total: AtomicUsize,
    per_ip: Mutex<HashMap<IpAddr, usize>>,
    max_total: usize,
    max_per_ip: usize,
}

/// A connection's place under the caps; given back when dropped (with its socket).
pub(crate) struct Slot {
    gate: Arc<Gate>,
    ip: IpAddr,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.gate.total.fetch_sub(1, Ordering::AcqRel);
        let mut m = self.gate.per_ip.lock().expect("gate lock");
        if let Some(n) = m.get_mut(&self.ip) {
            *n -= 1;
            if *n == 0 {
                m.remove(&self.ip);
            }
        }
    }
}

impl Gate {
    pub(crate) fn new(max_total: usize, max_per_ip: usize) -> Arc<Gate> {
        Arc::new(Gate {
            total: AtomicUsize::new(0),
            per_ip: Mutex::new(HashMap::new()),
            max_total,
            max_per_ip,
        })
    }

    /// A slot for a connection from `ip`, or why not.
    pub(crate) fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<Slot, &'static str> {
        let mut m = self.per_ip.lock().expect("gate lock");
        if self.total.load(Ordering::Acquire) >= self.max_total {
            return Err("the server has as many connections as it takes");
        }
        let n = m.entry(ip).or_insert(0);
        if self.max_per_ip > 0 && *n >= self.max_per_ip {
            if *n == 0 {
                m.remove(&ip);
            }
            return Err("too many connections from your address");
        }
        *n += 1;
        self.total.fetch_add(1, Ordering::AcqRel);
        Ok(Slot {
            gate: self.clone(),
            ip,
        })
    }

    /// Connections open now.
    pub(crate) fn open(&self) -> usize {
        self.total.load(Ordering::Acquire)
    }
}

/// What the watchdog of a connection needs to know: milliseconds since the connection opened.
#[derive(Default)]
struct Activity {
    /// Last byte read or written.
    last: AtomicU64,
    /// First byte of a request whose headers are not complete yet (ms + 1; 0 = none).
    head_since: AtomicU64,
    /// Requests being answered.
    busy: AtomicUsize,
    /// Told when a request's first byte starts the header clock.
    head_started: tokio::sync::Notify,
}

/// The socket, noting its traffic, and holding the connection's slot.
struct Io {
    inner: TcpStream,
    act: Arc<Activity>,
    opened: Instant,
    _slot: Slot,
}

impl Io {
    fn now(&self) -> u64 {
        self.opened.elapsed().as_millis() as u64
    }
}

impl AsyncRead for Io {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let me = self.get_mut();
        let before = buf.filled().len();
        let r = Pin::new(&mut me.inner).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            let now = me.now();
            me.act.last.store(now, Ordering::Release);
            if me.act.busy.load(Ordering::Acquire) == 0
                && me
                    .act
                    .head_since
                    .compare_exchange(0, now + 1, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok()
            {
                me.act.head_started.notify_one();
            }
        }
        r
    }
}

impl AsyncWrite for Io {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let me = self.get_mut();
        let r = Pin::new(&mut me.inner).poll_write(cx, buf);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            me.act.last.store(me.now(), Ordering::Release);
        }
        r
    }
    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let me = self.get_mut();
        let r = Pin::new(&mut me.inner).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            me.act.last.store(me.now(), Ordering::Release);
        }
        r
    }
    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_flush(cx)
    }
    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().inner).poll_shutdown(cx)
    }
}

/// Marks a request in progress until dropped.
struct Busy {
    act: Arc<Activity>,
    opened: Instant,
}

impl Drop for Busy {
    fn drop(&mut self) {
        self.act.busy.fetch_sub(1, Ordering::AcqRel);
        self.act
            .last
            .store(self.opened.elapsed().as_millis() as u64, Ordering::Release);
    }
}

/// Accept connections until `stop` says so, then wait for the HTTP connections to finish
/// (WebSockets close themselves on the same signal).
pub(crate) async fn serve(
    listener: TcpListener,
    app: Router,
    limits: NetLimits,
    gate: Arc<Gate>,
    mut stop: watch::Receiver<bool>,
) {
    let (close_tx, close_rx) = watch::channel(());
    loop {
        let (stream, peer) = tokio::select! {
            r = listener.accept() => match r {
                Ok(x) => x,
                Err(e) => {
                    // Out of file descriptors, or a connection reset before it was accepted:
                    // wait a little rather than spin.
                    if !matches!(e.kind(), std::io::ErrorKind::ConnectionAborted
                        | std::io::ErrorKind::ConnectionReset) {
                        tokio::time::sleep(Duration::from_millis(50)).await;
                    }
                    continue;
                }
            },
            _ = tilebag_live::shutdown::stopped(&mut stop) => break,
        };
        let slot = match gate.admit(peer.ip()) {
            Ok(s) => s,
            Err(why) => {
                refuse(stream, why);
                continue;
            }
        };
        // Small messages (an ack, then a view) must not wait for Nagle's algorithm.
        let _ = stream.set_nodelay(true);
        let app = app.clone();
        let stop = stop.clone();
        let close_rx = close_rx.clone();
        tokio::spawn(async move {
            connection(stream, peer, slot, app, limits, stop).await;
            drop(close_rx);
        });
    }
    drop(listener);
    drop(close_rx);
    // Requests in progress get a moment to finish; a client that keeps one open is not waited
    // for longer.
    let _ = tokio::time::timeout(Duration::from_secs(5), close_tx.closed()).await;
}

/// Refused connections being closed gently at once, at most (each holds a descriptor for up
/// to [`LINGER`]); past it a refusal is written and the socket dropped at once.
const MAX_LINGERING: usize = 128;
/// How long a refused connection is read from (and what it sent thrown away) before it closes.
const LINGER: Duration = Duration::from_secs(2);
static LINGERING: AtomicUsize = AtomicUsize::new(0);

/// Over a cap: say so in one write that never waits (a client that does not read gets nothing),
/// and close. Closing a socket whose request was never read makes the kernel answer with a reset,
/// which can destroy the `503` before the client reads it; so the write side is shut first and
/// what the client sent is read and thrown away for a moment (bounded in time, bytes and count).
fn refuse(stream: TcpStream, why: &str) {
    let body = format!("{{\"type\":\"error\",\"code\":\"unavailable\",\"message\":\"{why}\"}}");
    let text = format!(
        "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nRetry-After: 10\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    write_now(&stream, text.as_bytes());
    // What the client has sent already goes now: a socket closed with nothing unread ends with
    // a FIN, which leaves the answer readable.
    discard_unread(&stream);
    if LINGERING.fetch_add(1, Ordering::AcqRel) >= MAX_LINGERING {
        LINGERING.fetch_sub(1, Ordering::AcqRel);
        return;
    }
    tokio::spawn(async move {
        linger(stream).await;
        LINGERING.fetch_sub(1, Ordering::AcqRel);
    });
}

/// One write straight to the socket, which never waits: a new socket's send buffer is empty, so
/// it takes the whole answer at once. (tokio's `try_write` refuses until the runtime has seen the
/// socket become writable.)
fn write_now(stream: &TcpStream, bytes: &[u8]) {
    #[cfg(unix)]
    {
        use std::os::fd::AsRawFd as _;
        // SAFETY: a plain non-blocking send from a live buffer on a socket we own.
        unsafe {
            libc::send(
                stream.as_raw_fd(),
                bytes.as_ptr().cast(),
                bytes.len(),
                libc::MSG_NOSIGNAL,
            );
        }
    }
    #[cfg(not(unix))]
    {
        let _ = stream.try_write(bytes);
    }
}

/// Reads and throws away whatever the socket holds now, without waiting (at most 64 KiB).
fn discard_unread(stream: &TcpStream) {
    let mut sink = [0u8; 4096];
    for _ in 0..16 {
        #[cfg(unix)]
        let n = {
            use std::os::fd::AsRawFd as _;
            // SAFETY: a non-blocking receive into a live buffer of the given length.
            unsafe {
                libc::recv(
                    stream.as_raw_fd(),
                    sink.as_mut_ptr().cast(),
                    sink.len(),
                    libc::MSG_DONTWAIT,
                )
            }
        };
        #[cfg(not(unix))]
        let n = stream.try_read(&mut sink).map_or(-1, |n| n as isize);
        if n <= 0 {
            break;
        }
    }
}

/// Shut the write side (the client reads the answer, then the end), then read and discard for
/// at most [`LINGER`] or 64 KiB, until the client closes.
async fn linger(mut stream: TcpStream) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let _ = stream.shutdown().await;
    let mut sink = [0u8; 4096];
    let mut left = 64 * 1024usize;
    let _ = tokio::time::timeout(LINGER, async {
        while left > 0 {
            match stream.read(&mut sink).await {
                Ok(0) | Err(_) => break,
                Ok(n) => left = left.saturating_sub(n),
            }
        }
    })
    .await;
}

async fn connection(
    stream: TcpStream,
    peer: SocketAddr,
    slot: Slot,
    app: Router,
    limits: NetLimits,
    mut stop: watch::Receiver<bool>,
) {
    let opened = Instant::now();
    let act = Arc::new(Activity::default());
    let io = Io {
        inner: stream,
        act: act.clone(),
        opened,
        _slot: slot,
    };
    let svc_act = act.clone();
    let svc = hyper::service::service_fn(move |req: hyper::Request<Incoming>| {
        // The request began with its first byte (0: read while the last one was answered).
        let head = svc_act.head_since.swap(0, Ordering::AcqRel);
        svc_act.busy.fetch_add(1, Ordering::AcqRel);
        let busy = Busy {
            act: svc_act.clone(),
            opened,
        };
        let began = match head {
            0 => Instant::now(),
            h => opened + Duration::from_millis(h - 1),
        };
        let rules = request_body::BodyRules {
            max_bytes: limits.max_body_bytes,
            deadline: began + limits.request_timeout,
            min_rate: limits.min_body_rate,
        };
        let mut app = app.clone();
        async move {
            let (mut parts, body) = req.into_parts();
            let body = match request_body::read(body, rules).await {
                Ok(b) => b,
                Err(refused) => {
                    drop(busy);
                    return Ok(axum::response::IntoResponse::into_response(refused));
                }
            };
            parts.extensions.insert(ConnectInfo(peer));
            let r = tower_service::Service::call(&mut app, hyper::Request::from_parts(parts, body))
                .await;
            drop(busy);
            r
        }
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .serve_connection(TokioIo::new(io), svc)
        .with_upgrades();
    tokio::pin!(conn);
    let mut stopping = false;
    loop {
        let wake = next_check(&act, opened, &limits);
        tokio::select! {
            _ = conn.as_mut() => break,
            _ = act.head_started.notified(), if !stopping => {}
            _ = tokio::time::sleep_until(wake.into()), if !stopping => {
                if expired(&act, opened, &limits) {
                    // Dropping the connection closes the socket.
                    break;
                }
            }
            _ = tilebag_live::shutdown::stopped(&mut stop), if !stopping => {
                stopping = true;
                conn.as_mut().graceful_shutdown();
            }
        }
    }
}

fn ms(d: Duration) -> u64 {
    d.as_millis() as u64
}

/// Whether the connection has outstayed a timeout.
fn expired(act: &Activity, opened: Instant, limits: &NetLimits) -> bool {
    let now = opened.elapsed().as_millis() as u64;
    let head = act.head_since.load(Ordering::Acquire);
    if head > 0 && act.busy.load(Ordering::Acquire) == 0 {
        return now.saturating_sub(head - 1) >= ms(limits.header_timeout);
    }
    let last = act.last.load(Ordering::Acquire);
    now.saturating_sub(last) >= ms(limits.idle_timeout)
}

/// When to look again.
fn next_check(act: &Activity, opened: Instant, limits: &NetLimits) -> Instant {
    let head = act.head_since.load(Ordering::Acquire);
    let last = act.last.load(Ordering::Acquire);
    let at = if head > 0 && act.busy.load(Ordering::Acquire) == 0 {
        (head - 1) + ms(limits.header_timeout)
    } else {
        // A request's first byte starting the header clock meanwhile wakes the watchdog.
        last + ms(limits.idle_timeout)
    };
    opened + Duration::from_millis(at)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_follows_the_descriptor_limit() {
        assert_eq!(effective_cap(10_000, Some(1024)), 768);
        assert_eq!(effective_cap(500, Some(20_000)), 500);
        assert_eq!(effective_cap(10_000, None), 10_000);
        assert_eq!(effective_cap(10_000, Some(10)), 16);
    }

    #[test]
    fn the_gate_counts_per_address_and_in_all() {
        let g = Gate::new(3, 2);
        let a: IpAddr = "10.0.0.1".parse().unwrap();
        let b: IpAddr = "10.0.0.2".parse().unwrap();
        let s1 = g.admit(a).unwrap();
        let _s2 = g.admit(a).unwrap();
        assert!(g.admit(a).is_err(), "a third from one address");
        let _s3 = g.admit(b).unwrap();
        assert!(g.admit(b).is_err(), "a fourth in all");
        drop(s1);
        assert_eq!(g.open(), 2);
        assert!(g.admit(a).is_ok());
    }
}
