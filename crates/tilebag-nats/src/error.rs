//! The one error type of the crate: every refusal names its problem.

use std::time::Duration;

/// Why a NATS operation failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum NatsError {
    /// The URL given to [`crate::Client::connect`] cannot be used.
    #[error("bad NATS URL {url:?}: {problem}")]
    BadUrl { url: String, problem: String },
    /// The TCP connection failed (connect, read or write).
    #[error("NATS connection to {addr} failed: {problem}")]
    Io { addr: String, problem: String },
    /// The server answered `-ERR` (for instance `Authorization Violation`).
    #[error("the NATS server refused: -ERR {0}")]
    Server(String),
    /// The server sent something that is not NATS's protocol.
    #[error("NATS protocol error: {0}")]
    Protocol(String),
    /// The client is not connected now (the connection is being re-established);
    /// nothing is queued while disconnected.
    #[error("not connected to the NATS server: {reason}")]
    Disconnected { reason: String },
    /// The payload is larger than the server's `max_payload` (from its INFO).
    #[error(
        "payload of {size} bytes exceeds the NATS server's max_payload of {max_payload} bytes"
    )]
    PayloadTooLarge { size: usize, max_payload: usize },
    /// A subject, reply subject or queue group name is not acceptable.
    #[error("bad NATS subject {subject:?}: {problem}")]
    BadSubject { subject: String, problem: String },
    /// No reply came within the request's timeout.
    #[error("no reply to a request on {subject:?} within {timeout:?}")]
    Timeout { subject: String, timeout: Duration },
    /// The message answered has no reply subject.
    #[error("cannot respond to a message on {subject:?}: it has no reply subject")]
    NoReplySubject { subject: String },
    /// The outgoing queue is full: the server does not read as fast as we write.
    #[error("the outgoing queue to the NATS server is full ({queued_bytes} bytes waiting, limit {limit}): the server is not reading")]
    QueueFull { queued_bytes: usize, limit: usize },
    /// The client's connection task has ended (every `Client` handle was dropped).
    #[error("the NATS client is closed")]
    Closed,
}
