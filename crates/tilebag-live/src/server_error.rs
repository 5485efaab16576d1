//! Why the server could not start or a request could not be served.

use std::net::SocketAddr;
use tilebag_store as store;

/// Why the server could not start or a request could not be served.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("configuration: {0}")]
    Config(String),
    #[error("database: {0}")]
    Store(#[from] store::StoreError),
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        addr: SocketAddr,
        source: std::io::Error,
    },
    #[error("I/O: {0}")]
    Io(#[from] std::io::Error),
    #[error("restoring game {game}: {message}")]
    Restore { game: String, message: String },
    #[error("{0}")]
    Other(String),
}
