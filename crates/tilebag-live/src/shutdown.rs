//! The shutdown signal every long-running task watches.

use tokio::sync::watch;

/// Resolves once shutdown is signalled (or the sender is gone).
pub async fn stopped(rx: &mut watch::Receiver<bool>) {
    let _ = rx.wait_for(|stop| *stop).await;
}
