//! The client: one supervising task per [`Client`] that connects, reads, watches the connection
//! and reconnects; one writer task per socket that batches the queued frames into few writes.

use std::collections::hash_map::RandomState;
use std::collections::{HashMap, VecDeque};
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use bytes::{Buf, Bytes, BytesMut};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::tcp::OwnedWriteHalf;
use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot, watch};

use crate::error::NatsError;
use crate::protocol::{self, ServerAddress, ServerOp};

/// Messages waiting in one subscription before further ones are dropped (slow consumer). The
/// bound is in messages, not bytes: a stalled reader of large payloads holds up to this many.
pub const SUBSCRIPTION_CAPACITY: usize = 8192;
/// Bytes waiting to be written before publishing is refused (the server is not reading).
pub const OUTGOING_LIMIT: usize = 64 * 1024 * 1024;
/// A PING is sent this often while connected.
const PING_EVERY: Duration = Duration::from_secs(1);
/// Hearing nothing for this long means the connection is lost.
const SILENCE_LIMIT: Duration = Duration::from_secs(2);
/// How often the silence is checked.
const WATCH_EVERY: Duration = Duration::from_millis(250);
/// Connecting (TCP, INFO, CONNECT … PONG) must finish within this.
const CONNECT_LIMIT: Duration = Duration::from_secs(5);
/// Reconnection attempts: the first waits this, then twice as long each time, up to the most.
const RETRY_FIRST: Duration = Duration::from_millis(250);
const RETRY_MOST: Duration = Duration::from_secs(1);
/// The sid of the client's one request inbox subscription; others start above it.
const INBOX_SID: u64 = 1;
/// Each queued frame counts this much beyond its bytes against [`OUTGOING_LIMIT`].
const FRAME_OVERHEAD: usize = 64;
/// The reader keeps at least half of this free before each read.
const READ_ROOM: usize = 64 * 1024;
/// The writer sends at most about this many bytes in one write.
const WRITE_BATCH: usize = 256 * 1024;

/// A message received on a subscription (or a reply to a request).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    pub subject: String,
    pub reply: Option<String>,
    pub payload: Bytes,
}

/// The state of the connection to the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConnState {
    Connected,
    /// Not connected since `since` (the first moment of this outage), for `reason` (the latest
    /// failure); the client is reconnecting in the background unless it was closed.
    Disconnected {
        since: Instant,
        reason: String,
    },
}

/// A handle to a NATS connection; cheap to clone. The connection closes when the last handle is
/// dropped (subscriptions then end: their [`Subscription::next`] returns `None`).
#[derive(Clone)]
pub struct Client {
    handle: Arc<Handle>,
}

struct Handle {
    shared: Arc<Shared>,
    /// Dropped with the last `Client`: the connection task sees it and ends.
    _shutdown: watch::Sender<()>,
}

/// A subscription; dropping it sends UNSUB (if connected) and forgets it (so it is not renewed
/// on reconnection).
pub struct Subscription {
    sid: u64,
    subject: String,
    rx: mpsc::Receiver<Message>,
    shared: Arc<Shared>,
}

/// What the connection task and the handles share.
struct Shared {
    address: ServerAddress,
    name: String,
    /// `_INBOX.<random>.`: each request's reply subject is this and a number.
    inbox_prefix: String,
    state: watch::Sender<ConnState>,
    max_payload: AtomicUsize,
    dropped: AtomicU64,
    next_sid: AtomicU64,
    next_request: AtomicU64,
    core: Mutex<Core>,
}

/// Guarded together so that frames are queued in the order the PONGs are expected and so that
/// a subscription made during a reconnection is sent exactly once.
struct Core {
    /// The handshake's PONG has come and the socket is up.
    connected: bool,
    /// Why not connected (meaningful while `connected` is false).
    reason: String,
    /// The current socket's writer queue, from the start of the handshake until it is lost.
    writer: Option<Writer>,
    subs: HashMap<u64, SubEntry>,
    pongs: VecDeque<PongWaiter>,
    requests: HashMap<u64, oneshot::Sender<Message>>,
    closed: bool,
}

struct SubEntry {
    subject: String,
    queue: Option<String>,
    tx: mpsc::Sender<Message>,
}

enum PongWaiter {
    Handshake,
    Liveness,
    Flush(oneshot::Sender<()>),
}

struct Writer {
    tx: mpsc::UnboundedSender<Bytes>,
    /// Bytes (plus overhead) queued and not yet written.
    queued: Arc<AtomicUsize>,
}

impl Writer {
    /// Queues a frame. A published frame (`limited`) is refused past [`OUTGOING_LIMIT`]; control
    /// frames (SUB, UNSUB, PING, PONG) always go.
    fn send(&self, frame: Bytes, limited: bool) -> Result<(), NatsError> {
        let cost = frame.len() + FRAME_OVERHEAD;
        let before = self.queued.fetch_add(cost, Ordering::AcqRel);
        if limited && before + cost > OUTGOING_LIMIT {
            self.queued.fetch_sub(cost, Ordering::AcqRel);
            return Err(NatsError::QueueFull {
                queued_bytes: before,
                limit: OUTGOING_LIMIT,
            });
        }
        self.tx.send(frame).map_err(|_| {
            self.queued.fetch_sub(cost, Ordering::AcqRel);
            NatsError::Disconnected {
                reason: "the connection was lost while writing".to_string(),
            }
        })
    }
}

impl Shared {
    fn core(&self) -> MutexGuard<'_, Core> {
        // A panic while holding the lock cannot leave `Core` half-changed in a way that matters
        // more than stopping would: keep going with what is there.
        self.core
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn disconnected_error(core: &Core) -> NatsError {
        if core.closed {
            NatsError::Closed
        } else {
            NatsError::Disconnected {
                reason: core.reason.clone(),
            }
        }
    }

    /// Queues a PUB, refusing at once when disconnected or too large.
    fn publish(&self, subject: &str, reply: Option<&str>, payload: &[u8]) -> Result<(), NatsError> {
        protocol::check_subject(subject, false)?;
        if let Some(reply) = reply {
            protocol::check_subject(reply, false)?;
        }
        let max_payload = self.max_payload.load(Ordering::Acquire);
        if payload.len() > max_payload {
            return Err(NatsError::PayloadTooLarge {
                size: payload.len(),
                max_payload,
            });
        }
        let frame = protocol::pub_frame(subject, reply, payload);
        let core = self.core();
        match (&core.writer, core.connected) {
            (Some(writer), true) => writer.send(frame, true),
            _ => Err(Self::disconnected_error(&core)),
        }
    }

    fn subscribe(
        self: &Arc<Self>,
        subject: &str,
        queue: Option<&str>,
    ) -> Result<Subscription, NatsError> {
        protocol::check_subject(subject, true)?;
        if let Some(queue) = queue {
            protocol::check_queue_group(queue)?;
        }
        let sid = self.next_sid.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = mpsc::channel(SUBSCRIPTION_CAPACITY);
        let mut core = self.core();
        if core.closed {
            return Err(NatsError::Closed);
        }
        if let Some(writer) = &core.writer {
            // A lost socket's queue refuses it: the reconnection sends it with the others.
            let _ = writer.send(protocol::sub_frame(subject, queue, sid), false);
        }
        core.subs.insert(
            sid,
            SubEntry {
                subject: subject.to_string(),
                queue: queue.map(str::to_string),
                tx,
            },
        );
        drop(core);
        Ok(Subscription {
            sid,
            subject: subject.to_string(),
            rx,
            shared: Arc::clone(self),
        })
    }

    /// Records that the connection is lost (or never came): refuses what waits on it.
    fn mark_disconnected(&self, reason: &str) {
        let mut core = self.core();
        core.connected = false;
        core.writer = None;
        core.reason = reason.to_string();
        // Dropping the waiters tells `flush` and `request` at once.
        core.pongs.clear();
        core.requests.clear();
        drop(core);
        self.state.send_modify(|state| {
            let since = match state {
                ConnState::Disconnected { since, .. } => *since,
                ConnState::Connected => Instant::now(),
            };
            *state = ConnState::Disconnected {
                since,
                reason: reason.to_string(),
            };
        });
    }
}

impl Client {
    /// Connects to `url` (`nats://[user:pass@|token@]host[:port]`, port 4222 by default; the
    /// `nats://` may be left out), naming the connection `name`. Returns once the server has
    /// sent INFO and answered CONNECT + PING with PONG; a `-ERR` instead (such as
    /// `Authorization Violation`) is the error. Needs a tokio runtime (with time and I/O).
    pub async fn connect(url: &str, name: &str) -> Result<Client, NatsError> {
        let (first_tx, first) = oneshot::channel();
        let client = Client::spawn(url, name, Some(first_tx))?;
        match first.await {
            Ok(Ok(())) => Ok(client),
            Ok(Err(err)) => Err(err),
            Err(_) => Err(NatsError::Closed),
        }
    }

    /// Like [`Client::connect`], but returns at once, connected or not: a server that is not
    /// there yet (or refuses this client) is tried again and again, as after a lost connection,
    /// and [`Client::state`] says how it stands. Subscriptions made meanwhile are sent once
    /// connected. Only a malformed `url` is an error.
    pub fn start(url: &str, name: &str) -> Result<Client, NatsError> {
        Client::spawn(url, name, None)
    }

    /// The client and its supervising task; told the first connection's outcome on `first`
    /// when given (after which a failure ends the task).
    fn spawn(
        url: &str,
        name: &str,
        first: Option<oneshot::Sender<Result<(), NatsError>>>,
    ) -> Result<Client, NatsError> {
        let address = ServerAddress::parse(url)?;
        let (state, _) = watch::channel(ConnState::Disconnected {
            since: Instant::now(),
            reason: "connecting".to_string(),
        });
        let shared = Arc::new(Shared {
            address,
            name: name.to_string(),
            inbox_prefix: format!("_INBOX.{}.", random_token()),
            state,
            max_payload: AtomicUsize::new(protocol::DEFAULT_MAX_PAYLOAD),
            dropped: AtomicU64::new(0),
            next_sid: AtomicU64::new(INBOX_SID + 1),
            next_request: AtomicU64::new(1),
            core: Mutex::new(Core {
                connected: false,
                reason: "connecting".to_string(),
                writer: None,
                subs: HashMap::new(),
                pongs: VecDeque::new(),
                requests: HashMap::new(),
                closed: false,
            }),
        });
        let (shutdown_tx, shutdown_rx) = watch::channel(());
        tokio::spawn(supervise(Arc::clone(&shared), shutdown_rx, first));
        Ok(Client {
            handle: Arc::new(Handle {
                shared,
                _shutdown: shutdown_tx,
            }),
        })
    }

    /// Publishes `payload` on `subject` (no wildcards). Refused at once, never queued, when
    /// disconnected or when the payload exceeds the server's `max_payload`. Returns once queued:
    /// the writer task sends queued frames in batches.
    pub fn publish(&self, subject: &str, payload: impl AsRef<[u8]>) -> Result<(), NatsError> {
        self.handle.shared.publish(subject, None, payload.as_ref())
    }

    /// Publishes with a reply subject, for a responder to answer on.
    pub fn publish_with_reply(
        &self,
        subject: &str,
        reply: &str,
        payload: impl AsRef<[u8]>,
    ) -> Result<(), NatsError> {
        self.handle
            .shared
            .publish(subject, Some(reply), payload.as_ref())
    }

    /// Subscribes to `subject` (`*` and `>` wildcards allowed). Works while disconnected too: a
    /// subscription lives until dropped and is renewed on every reconnection. Use
    /// [`Client::flush`] to be sure the server has it before relying on it.
    pub fn subscribe(&self, subject: &str) -> Result<Subscription, NatsError> {
        self.handle.shared.subscribe(subject, None)
    }

    /// Subscribes as a member of queue group `group`: each message goes to one member only.
    pub fn subscribe_queue(&self, subject: &str, group: &str) -> Result<Subscription, NatsError> {
        self.handle.shared.subscribe(subject, Some(group))
    }

    /// Publishes `payload` on `subject` with a unique reply subject and waits up to `timeout`
    /// for the first reply. No responder gives [`NatsError::Timeout`]; losing the connection
    /// while waiting gives [`NatsError::Disconnected`] at once.
    pub async fn request(
        &self,
        subject: &str,
        payload: impl AsRef<[u8]>,
        timeout: Duration,
    ) -> Result<Message, NatsError> {
        let shared = &self.handle.shared;
        let token = shared.next_request.fetch_add(1, Ordering::Relaxed);
        let reply = format!("{}{token}", shared.inbox_prefix);
        let (tx, rx) = oneshot::channel();
        {
            let mut core = shared.core();
            if !core.connected {
                return Err(Shared::disconnected_error(&core));
            }
            core.requests.insert(token, tx);
        }
        let forget = || {
            shared.core().requests.remove(&token);
        };
        if let Err(err) = shared.publish(subject, Some(&reply), payload.as_ref()) {
            forget();
            return Err(err);
        }
        match tokio::time::timeout(timeout, rx).await {
            Ok(Ok(message)) => Ok(message),
            Ok(Err(_)) => Err(Shared::disconnected_error(&shared.core())),
            Err(_) => {
                forget();
                Err(NatsError::Timeout {
                    subject: subject.to_string(),
                    timeout,
                })
            }
        }
    }

    /// Answers `msg` on its reply subject.
    pub fn respond(&self, msg: &Message, payload: impl AsRef<[u8]>) -> Result<(), NatsError> {
        let Some(reply) = &msg.reply else {
            return Err(NatsError::NoReplySubject {
                subject: msg.subject.clone(),
            });
        };
        self.handle.shared.publish(reply, None, payload.as_ref())
    }

    /// A round trip to the server: when it returns, the server has processed every frame this
    /// client queued before (subscriptions included).
    pub async fn flush(&self) -> Result<(), NatsError> {
        let shared = &self.handle.shared;
        let (tx, rx) = oneshot::channel();
        {
            let mut core = shared.core();
            match (&core.writer, core.connected) {
                (Some(writer), true) => writer.send(Bytes::from_static(protocol::PING), false)?,
                _ => return Err(Shared::disconnected_error(&core)),
            }
            core.pongs.push_back(PongWaiter::Flush(tx));
        }
        rx.await
            .map_err(|_| Shared::disconnected_error(&shared.core()))
    }

    /// The connection's state, watched: `Connected`, or `Disconnected { since, reason }`.
    pub fn state(&self) -> watch::Receiver<ConnState> {
        self.handle.shared.state.subscribe()
    }

    /// Whether connected now.
    pub fn is_connected(&self) -> bool {
        self.handle.shared.core().connected
    }

    /// Messages dropped in total because a subscription's queue was full (a slow consumer).
    pub fn dropped(&self) -> u64 {
        self.handle.shared.dropped.load(Ordering::Relaxed)
    }

    /// The server's largest accepted payload, from its INFO.
    pub fn max_payload(&self) -> usize {
        self.handle.shared.max_payload.load(Ordering::Acquire)
    }
}

impl std::fmt::Debug for Client {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Client")
            .field("server", &self.handle.shared.address.addr)
            .field("name", &self.handle.shared.name)
            .field("connected", &self.is_connected())
            .finish()
    }
}

impl Subscription {
    /// The next message; `None` once the client is closed. Messages that arrived while this
    /// subscription's queue was full were dropped (counted by [`Client::dropped`]).
    pub async fn next(&mut self) -> Option<Message> {
        self.rx.recv().await
    }

    /// A message already waiting, if any, without waiting.
    pub fn try_next(&mut self) -> Option<Message> {
        self.rx.try_recv().ok()
    }

    /// The subject subscribed to.
    pub fn subject(&self) -> &str {
        &self.subject
    }
}

impl std::fmt::Debug for Subscription {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Subscription")
            .field("sid", &self.sid)
            .field("subject", &self.subject)
            .finish()
    }
}

impl Drop for Subscription {
    fn drop(&mut self) {
        let mut core = self.shared.core();
        core.subs.remove(&self.sid);
        // Also during a handshake: its SUBs may have included this one.
        if let Some(writer) = &core.writer {
            let _ = writer.send(protocol::unsub_frame(self.sid), false);
        }
    }
}

/// A fresh 128-bit token in hex, from the standard library's randomly keyed hasher (no
/// dependency for so little).
fn random_token() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut out = String::with_capacity(32);
    for _ in 0..2 {
        let mut hasher = RandomState::new().build_hasher();
        hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
        hasher.write_u32(std::process::id());
        if let Ok(now) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
            hasher.write_u128(now.as_nanos());
        }
        out.push_str(&format!("{:016x}", hasher.finish()));
    }
    out
}

/// How one connection ended.
enum Ended {
    /// The client was dropped.
    Shutdown,
    /// Lost (or never made); `connected` tells whether it got as far as the handshake's PONG.
    Lost { connected: bool, error: NatsError },
}

/// The connection task: connect, run, and on loss reconnect, until every handle is dropped.
async fn supervise(
    shared: Arc<Shared>,
    shutdown: watch::Receiver<()>,
    mut first: Option<oneshot::Sender<Result<(), NatsError>>>,
) {
    let mut wait = RETRY_FIRST;
    let mut ever_connected = false;
    loop {
        match connection(&shared, shutdown.clone(), &mut first).await {
            Ended::Shutdown => break,
            Ended::Lost { connected, error } => {
                let reason = error.to_string();
                shared.mark_disconnected(&reason);
                if let Some(first) = first.take() {
                    let _ = first.send(Err(error));
                    break;
                }
                if connected {
                    tracing::warn!(server = %shared.address.addr, %reason, "NATS connection lost; reconnecting");
                    wait = RETRY_FIRST;
                    ever_connected = true;
                } else if !ever_connected && wait == RETRY_FIRST {
                    tracing::warn!(server = %shared.address.addr, %reason, "NATS is not reachable yet; trying again");
                } else {
                    tracing::debug!(server = %shared.address.addr, %reason, "NATS reconnection failed");
                }
            }
        }
        let mut stop = shutdown.clone();
        tokio::select! {
            _ = stop.changed() => break,
            _ = tokio::time::sleep(wait) => {}
        }
        wait = (wait * 2).min(RETRY_MOST);
    }
    let mut core = shared.core();
    core.closed = true;
    core.connected = false;
    core.writer = None;
    core.reason = "the client was closed".to_string();
    core.subs.clear();
    core.pongs.clear();
    core.requests.clear();
    drop(core);
    shared.mark_disconnected("the client was closed");
}

/// One connection, from TCP connect to its loss.
async fn connection(
    shared: &Arc<Shared>,
    mut shutdown: watch::Receiver<()>,
    first: &mut Option<oneshot::Sender<Result<(), NatsError>>>,
) -> Ended {
    let addr = shared.address.addr.clone();
    let io = |problem: String| NatsError::Io {
        addr: addr.clone(),
        problem,
    };
    let lost = |error| Ended::Lost {
        connected: false,
        error,
    };
    let started = tokio::time::Instant::now();
    let deadline = started + CONNECT_LIMIT;

    // TCP, then INFO.
    let stream = tokio::select! {
        _ = shutdown.changed() => return Ended::Shutdown,
        r = tokio::time::timeout_at(deadline, TcpStream::connect(&addr)) => match r {
            Ok(Ok(stream)) => stream,
            Ok(Err(err)) => return lost(io(err.to_string())),
            Err(_) => return lost(io(format!("no TCP connection within {CONNECT_LIMIT:?}"))),
        },
    };
    let _ = stream.set_nodelay(true);
    let (mut read, write) = stream.into_split();
    let mut buf = BytesMut::with_capacity(READ_ROOM);
    loop {
        match protocol::parse(&buf, shared.max_payload.load(Ordering::Acquire)) {
            Ok(Some((ServerOp::Info { max_payload }, used))) => {
                if let Some(max) = max_payload {
                    shared.max_payload.store(max, Ordering::Release);
                }
                buf.advance(used);
                break;
            }
            Ok(Some((ServerOp::Err(message), _))) => return lost(NatsError::Server(message)),
            Ok(Some((op, _))) => {
                return lost(NatsError::Protocol(format!(
                    "the server's first words must be INFO, got {}",
                    op_name(&op)
                )))
            }
            Ok(None) => {}
            Err(err) => return lost(err),
        }
        tokio::select! {
            _ = shutdown.changed() => return Ended::Shutdown,
            r = tokio::time::timeout_at(deadline, read.read_buf(&mut buf)) => match r {
                Ok(Ok(0)) => return lost(io("closed by the server before INFO".to_string())),
                Ok(Ok(_)) => {}
                Ok(Err(err)) => return lost(io(err.to_string())),
                Err(_) => return lost(io(format!("no INFO within {CONNECT_LIMIT:?}"))),
            },
        }
    }

    // CONNECT, the inbox and every live subscription, PING: queued at once with the writer
    // installed, so that a subscription made meanwhile is sent exactly once.
    let (tx, rx) = mpsc::unbounded_channel();
    let queued = Arc::new(AtomicUsize::new(0));
    let writer = Writer {
        tx,
        queued: Arc::clone(&queued),
    };
    {
        let mut core = shared.core();
        let mut frames = vec![
            protocol::connect_frame(&shared.address, &shared.name),
            protocol::sub_frame(&format!("{}*", shared.inbox_prefix), None, INBOX_SID),
        ];
        frames.extend(
            core.subs
                .iter()
                .map(|(sid, sub)| protocol::sub_frame(&sub.subject, sub.queue.as_deref(), *sid)),
        );
        frames.push(Bytes::from_static(protocol::PING));
        for frame in frames {
            let _ = writer.send(frame, false);
        }
        core.pongs.clear();
        core.pongs.push_back(PongWaiter::Handshake);
        core.connected = false;
        core.writer = Some(writer);
    }
    let mut write_task = tokio::spawn(write_loop(write, rx, queued));

    let mut connected = false;
    let mut last_heard = tokio::time::Instant::now();
    let mut last_ping = last_heard;
    let mut last_warning: Option<Instant> = None;
    let mut dropped_since_warning = 0u64;
    let mut watch = tokio::time::interval(WATCH_EVERY);
    watch.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);

    let error = loop {
        // Room for a good read: a large MSG arrives in few reads, not 64-byte ones.
        if buf.capacity() - buf.len() < READ_ROOM / 2 {
            buf.reserve(READ_ROOM);
        }
        tokio::select! {
            _ = shutdown.changed() => {
                // Let what was queued go out before closing.
                shared.core().writer = None;
                let _ = tokio::time::timeout(Duration::from_secs(1), &mut write_task).await;
                write_task.abort();
                return Ended::Shutdown;
            }
            r = read.read_buf(&mut buf) => match r {
                Ok(0) => break io("closed by the server".to_string()),
                Err(err) => break io(err.to_string()),
                Ok(_) => {
                    last_heard = tokio::time::Instant::now();
                    match handle_ops(shared, &mut buf, &mut connected, first) {
                        Ok(dropped) => dropped_since_warning += dropped,
                        Err(err) => break err,
                    }
                    if dropped_since_warning > 0
                        && last_warning.is_none_or(|at| at.elapsed() >= Duration::from_secs(1))
                    {
                        tracing::warn!(
                            dropped = dropped_since_warning,
                            total = shared.dropped.load(Ordering::Relaxed),
                            "NATS messages dropped: a subscriber is not keeping up (its queue of {SUBSCRIPTION_CAPACITY} is full)"
                        );
                        dropped_since_warning = 0;
                        last_warning = Some(Instant::now());
                    }
                }
            },
            r = &mut write_task => {
                break match r {
                    Ok(Err(problem)) => io(problem),
                    _ => io("the writer stopped".to_string()),
                };
            }
            _ = watch.tick() => {
                let now = tokio::time::Instant::now();
                if !connected && now >= deadline {
                    break io(format!("no answer to CONNECT within {CONNECT_LIMIT:?}"));
                }
                if now - last_heard > SILENCE_LIMIT {
                    break io(format!("nothing heard from the server for {SILENCE_LIMIT:?} (no PONG)"));
                }
                if connected && now - last_ping >= PING_EVERY {
                    last_ping = now;
                    let mut core = shared.core();
                    let sent = core
                        .writer
                        .as_ref()
                        .map(|w| w.send(Bytes::from_static(protocol::PING), false).is_ok());
                    if sent == Some(true) {
                        core.pongs.push_back(PongWaiter::Liveness);
                    }
                }
            }
        }
    };
    write_task.abort();
    Ended::Lost { connected, error }
}

/// Handles every complete operation in `buf`; returns how many messages were dropped for full
/// subscription queues. An error means the connection must be dropped.
fn handle_ops(
    shared: &Arc<Shared>,
    buf: &mut BytesMut,
    connected: &mut bool,
    first: &mut Option<oneshot::Sender<Result<(), NatsError>>>,
) -> Result<u64, NatsError> {
    let mut dropped = 0;
    loop {
        let max_payload = shared.max_payload.load(Ordering::Acquire);
        let Some((op, used)) = protocol::parse(buf, max_payload)? else {
            return Ok(dropped);
        };
        buf.advance(used);
        match op {
            ServerOp::Info { max_payload } => {
                if let Some(max) = max_payload {
                    shared.max_payload.store(max, Ordering::Release);
                }
            }
            ServerOp::Msg {
                subject,
                sid,
                reply,
                payload,
            } => {
                let message = Message {
                    subject,
                    reply,
                    payload,
                };
                let mut core = shared.core();
                if sid == INBOX_SID {
                    let token = message
                        .subject
                        .strip_prefix(&shared.inbox_prefix)
                        .and_then(|t| t.parse::<u64>().ok());
                    if let Some(waiter) = token.and_then(|t| core.requests.remove(&t)) {
                        let _ = waiter.send(message);
                    }
                } else if let Some(sub) = core.subs.get(&sid) {
                    if let Err(mpsc::error::TrySendError::Full(_)) = sub.tx.try_send(message) {
                        shared.dropped.fetch_add(1, Ordering::Relaxed);
                        dropped += 1;
                    }
                }
            }
            ServerOp::Ping => {
                let core = shared.core();
                if let Some(writer) = &core.writer {
                    let _ = writer.send(Bytes::from_static(protocol::PONG), false);
                }
            }
            ServerOp::Pong => {
                let mut core = shared.core();
                match core.pongs.pop_front() {
                    Some(PongWaiter::Handshake) => {
                        core.connected = true;
                        core.reason.clear();
                        drop(core);
                        *connected = true;
                        shared.state.send_replace(ConnState::Connected);
                        tracing::info!(server = %shared.address.addr, name = %shared.name, "NATS connected");
                        if let Some(first) = first.take() {
                            let _ = first.send(Ok(()));
                        }
                    }
                    Some(PongWaiter::Flush(waiter)) => {
                        let _ = waiter.send(());
                    }
                    Some(PongWaiter::Liveness) | None => {}
                }
            }
            ServerOp::Ok => {}
            ServerOp::Err(message) => {
                let lower = message.to_ascii_lowercase();
                // These leave the connection open; every other -ERR closes it.
                if *connected
                    && (lower.starts_with("permissions violation")
                        || lower.starts_with("invalid subject"))
                {
                    tracing::warn!(server = %shared.address.addr, error = %message, "NATS server refused an operation");
                } else {
                    return Err(NatsError::Server(message));
                }
            }
        }
    }
}

fn op_name(op: &ServerOp) -> &'static str {
    match op {
        ServerOp::Info { .. } => "INFO",
        ServerOp::Msg { .. } => "MSG",
        ServerOp::Ping => "PING",
        ServerOp::Pong => "PONG",
        ServerOp::Ok => "+OK",
        ServerOp::Err(_) => "-ERR",
    }
}

/// Writes queued frames: waits for one, takes every other one already queued (up to a batch),
/// and writes them with one `write_all`.
async fn write_loop(
    mut write: OwnedWriteHalf,
    mut rx: mpsc::UnboundedReceiver<Bytes>,
    queued: Arc<AtomicUsize>,
) -> Result<(), String> {
    let mut batch: Vec<u8> = Vec::with_capacity(WRITE_BATCH);
    while let Some(frame) = rx.recv().await {
        batch.clear();
        let mut cost = frame.len() + FRAME_OVERHEAD;
        batch.extend_from_slice(&frame);
        while batch.len() < WRITE_BATCH {
            match rx.try_recv() {
                Ok(frame) => {
                    cost += frame.len() + FRAME_OVERHEAD;
                    batch.extend_from_slice(&frame);
                }
                Err(_) => break,
            }
        }
        write.write_all(&batch).await.map_err(|e| e.to_string())?;
        queued.fetch_sub(cost, Ordering::AcqRel);
    }
    let _ = write.shutdown().await;
    Ok(())
}
