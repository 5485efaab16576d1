//! Server push for pages that show many games at once: the lobby's list, the director's
//! division page (calls for the director) and the players' event pages (pairings, results and
//! standings as the director enters them). Each is a Server-Sent Events stream
//! (`text/event-stream`, read by the browser's `EventSource`, which reconnects by itself).
//!
//! Every game tells the hub when it changes ([`Hub::changes`]: created, joined, a move, a call,
//! an end, an expiry). A stream waits for such a change, lets further changes gather for a short
//! while (so a busy server sends a page at most one event per `gap`, however many games move),
//! then asks its page's question again and sends the answer if it says something new. While
//! nothing changes nothing is sent but a keep-alive comment, more often than the connection's
//! idle timeout, so the connection is not closed as idle. Streams end when the server stops.
//!
//! What is not a game (an event file the director's pages or `tilebag td` write) tells no hub:
//! a stream about it also asks every `tick` ([`stream_ticking`]), and its `ask` answers `None`
//! cheaply when its file has not changed.

use axum::response::sse::{Event, KeepAlive, Sse};
use futures_util::future::BoxFuture;
use futures_util::Stream;
use std::convert::Infallible;
use std::sync::Arc;
use std::time::Duration;
use tilebag_live::live::Hub;

/// What a stream sends after a change: `None` when there is nothing new to say.
pub(crate) type Ask = Arc<dyn Fn() -> BoxFuture<'static, Option<Event>> + Send + Sync>;

/// A stream that answers `ask` once at the start (if `initial`) and again after each change to
/// any game, at most once per `gap`.
pub(crate) fn stream(
    hub: &Hub,
    idle: Duration,
    gap: Duration,
    initial: bool,
    ask: Ask,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    stream_ticking(hub, idle, gap, None, initial, ask)
}

/// As [`stream`], and also asking every `tick` (if given) whether anything changed.
pub(crate) fn stream_ticking(
    hub: &Hub,
    idle: Duration,
    gap: Duration,
    tick: Option<Duration>,
    initial: bool,
    ask: Ask,
) -> Sse<impl Stream<Item = Result<Event, Infallible>>> {
    let changes = hub.changes();
    let stop = hub.shutdown.clone();
    let state = (changes, stop, ask, initial);
    let events = futures_util::stream::unfold(state, move |(mut changes, mut stop, ask, first)| {
        async move {
            if first {
                if let Some(ev) = ask().await {
                    return Some((Ok(ev), (changes, stop, ask, false)));
                }
            }
            loop {
                if *stop.borrow() {
                    return None;
                }
                let ticked = async {
                    match tick {
                        Some(t) => tokio::time::sleep(t).await,
                        None => std::future::pending().await,
                    }
                };
                let game_changed = tokio::select! {
                    r = changes.changed() => { if r.is_err() { return None; } true },
                    _ = ticked => false,
                    _ = stop.changed() => return None,
                };
                if game_changed {
                    // Let the changes of the next moment arrive too: one answer for all of them.
                    tokio::select! {
                        _ = tokio::time::sleep(gap) => {}
                        _ = stop.changed() => return None,
                    }
                    changes.borrow_and_update();
                }
                if let Some(ev) = ask().await {
                    return Some((Ok(ev), (changes, stop, ask, false)));
                }
            }
        }
    });
    // A comment line well inside the idle timeout keeps the connection from being closed as idle.
    let every = (idle / 2).clamp(Duration::from_millis(200), Duration::from_secs(15));
    Sse::new(events).keep_alive(KeepAlive::new().interval(every))
}

/// A live page drawn from an event file (the players' event pages, a player's entry): what its
/// stream last sent, so that an unchanged file is not drawn again and an unchanged body is not
/// sent again.
pub(crate) struct PageFeed {
    /// The event file (`None`: no file to watch; every ask draws the page).
    path: Option<std::path::PathBuf>,
    /// The file's size and time when last drawn, and the version of the body last sent.
    seen: std::sync::Mutex<(Option<FileStamp>, Option<String>)>,
}

/// An event file's size and modification time.
pub(crate) type FileStamp = (u64, std::time::SystemTime);

impl PageFeed {
    pub(crate) fn new(path: Option<std::path::PathBuf>) -> Arc<PageFeed> {
        Arc::new(PageFeed {
            path,
            seen: std::sync::Mutex::new((None, None)),
        })
    }

    /// The file's stamp now, or `Err(())` when the page need not be drawn again (the file is as
    /// it was when the last body was sent).
    pub(crate) async fn stamp(&self) -> Result<Option<FileStamp>, ()> {
        let stamp = match &self.path {
            Some(p) => tokio::fs::metadata(p)
                .await
                .ok()
                .and_then(|m| Some((m.len(), m.modified().ok()?))),
            None => None,
        };
        let seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        if stamp.is_some() && seen.0 == stamp && seen.1.is_some() {
            return Err(());
        }
        Ok(stamp)
    }

    /// The `page` event for `body` (drawn when the file had `stamp`), or `None` when that very
    /// body was sent last.
    pub(crate) fn page(&self, stamp: Option<FileStamp>, body: maud::Markup) -> Option<Event> {
        let version = tilebag_pages::live_version(&body);
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.0 = stamp;
        if seen.1.as_deref() == Some(version.as_str()) {
            return None;
        }
        seen.1 = Some(version.clone());
        let data = serde_json::json!({ "version": version, "html": body.into_string() });
        Some(Event::default().event("page").data(data.to_string()))
    }
}
