//! The lobby's, the rematches' and the chat's notes shared among several processes (issue 31
//! item 1: a client may reach any process, with no sticky sessions). What the database keeps
//! (seeks, messages, mutes, blocks, sanctions, sessions) every process reads for itself; what
//! lives in a process's memory (the lobby's list of open seeks and its streams, started games'
//! seat links waiting for a stream, rematch offers, the chat's live streams, requests for
//! silence) is told to the others here, over NATS:
//!
//! - [`LOBBY`]: seeks listed and withdrawn, seat links, private lobby events, who has a lobby
//!   stream open (`lobby.rs`);
//! - [`REMATCH`]: where each rematch offer stands (`lobby.rs`), and `tilebag.rematch.PROCESS`:
//!   an answer to an offer, forwarded to the process that holds it (`rematch.rs`);
//! - [`CHAT`]: messages, deletions, notices, changed mutes and blocks, silence (`chat.rs`).
//!
//! Each note is JSON, `{"from": PROCESS, "note": …}`; a process ignores its own. A note that does
//! not read is logged and skipped, never a panic. One process alone has no fan-out
//! ([`Fanout::new`] is `None`) and keeps everything in its memory as before.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use std::future::Future;
use std::time::Duration;
use tilebag_live::live::Hub;
use tilebag_nats::Client;

/// The lobby's notes.
pub(crate) const LOBBY: &str = "tilebag.lobby";
/// Where rematch offers stand.
pub(crate) const REMATCH: &str = "tilebag.rematch";
/// The chat's notes.
pub(crate) const CHAT: &str = "tilebag.chat";

#[derive(Serialize)]
struct Outgoing<'a, T> {
    from: &'a str,
    note: &'a T,
}

#[derive(Deserialize)]
struct Incoming<T> {
    from: String,
    note: T,
}

/// This process's link to the others' lobbies and chats.
#[derive(Clone)]
pub(crate) struct Fanout {
    nats: Client,
    process: String,
}

impl Fanout {
    /// The fan-out of a process that is one of several; `None` for one alone.
    pub(crate) fn new(hub: &Hub) -> Option<Fanout> {
        let cluster = hub.cluster()?;
        Some(Fanout {
            nats: cluster.nats.clone(),
            process: cluster.process.clone(),
        })
    }

    /// This process's name.
    pub(crate) fn process(&self) -> &str {
        &self.process
    }

    /// Tells the other processes `note` on `subject`. Not connected, the note is lost (logged):
    /// the others' lists are then put right by the database (a seek that is gone cannot be
    /// accepted; a message is stored) and their streams by the next note.
    pub(crate) fn publish<T: Serialize>(&self, subject: &str, note: &T) {
        let body = match serde_json::to_vec(&Outgoing {
            from: &self.process,
            note,
        }) {
            Ok(b) => b,
            Err(e) => {
                tracing::error!(subject, error = %e, "fan-out: a note could not be written");
                return;
            }
        };
        if let Err(e) = self.nats.publish(subject, body) {
            tracing::warn!(subject, error = %e, "fan-out: a note could not be sent to the other processes");
        }
    }

    /// Hands every note of the other processes on `subject` to `heard`, one after the other (in
    /// the order each process sent them), until `stop` is set.
    pub(crate) fn listen<T, F, Fut>(
        &self,
        subject: &str,
        mut stop: tokio::sync::watch::Receiver<bool>,
        mut heard: F,
    ) where
        T: DeserializeOwned + Send + 'static,
        F: FnMut(T) -> Fut + Send + 'static,
        Fut: Future<Output = ()> + Send,
    {
        let mut sub = match self.nats.subscribe(subject) {
            Ok(s) => s,
            Err(e) => {
                tracing::error!(subject, error = %e, "fan-out: cannot hear the other processes");
                return;
            }
        };
        let me = self.process.clone();
        let subject = subject.to_string();
        tokio::spawn(async move {
            loop {
                let msg = tokio::select! {
                    m = sub.next() => match m { Some(m) => m, None => return },
                    _ = tilebag_live::shutdown::stopped(&mut stop) => return,
                };
                match serde_json::from_slice::<Incoming<T>>(&msg.payload) {
                    Ok(n) if n.from == me => {}
                    Ok(n) => heard(n.note).await,
                    Err(e) => tracing::warn!(
                        subject = %subject,
                        error = %e,
                        "fan-out: a note no process should send; skipped"
                    ),
                }
            }
        });
    }

    /// The subject on which `process` answers forwarded requests of `kind`.
    pub(crate) fn subject_of(kind: &str, process: &str) -> String {
        format!("{kind}.{process}")
    }

    /// Asks `process` (on `kind`'s subject for it) and waits up to `timeout` for its answer.
    pub(crate) async fn ask<Q: Serialize, A: DeserializeOwned>(
        &self,
        kind: &str,
        process: &str,
        question: &Q,
        timeout: Duration,
    ) -> Result<A, String> {
        let body = serde_json::to_vec(&Outgoing {
            from: &self.process,
            note: question,
        })
        .map_err(|e| format!("the question could not be written: {e}"))?;
        let subject = Fanout::subject_of(kind, process);
        let reply = self
            .nats
            .request(&subject, body, timeout)
            .await
            .map_err(|e| format!("process {process:?} did not answer: {e}"))?;
        serde_json::from_slice(&reply.payload)
            .map_err(|e| format!("process {process:?} answered something unreadable: {e}"))
    }

    /// Answers the questions sent to this process on `kind`'s subject with `answer`, one after
    /// the other, until `stop` is set.
    pub(crate) fn answer<Q, A, F, Fut>(
        &self,
        kind: &str,
        mut stop: tokio::sync::watch::Receiver<bool>,
        mut answer: F,
    ) where
        Q: DeserializeOwned + Send + 'static,
        A: Serialize,
        F: FnMut(Q) -> Fut + Send + 'static,
        Fut: Future<Output = A> + Send,
    {
        let subject = Fanout::subject_of(kind, &self.process);
        let mut sub = match self.nats.subscribe(&subject) {
            Ok(s) => s,
            Err(e) => {
                tracing::error!(subject, error = %e, "fan-out: cannot answer the other processes");
                return;
            }
        };
        let nats = self.nats.clone();
        tokio::spawn(async move {
            loop {
                let msg = tokio::select! {
                    m = sub.next() => match m { Some(m) => m, None => return },
                    _ = tilebag_live::shutdown::stopped(&mut stop) => return,
                };
                if msg.reply.is_none() {
                    tracing::warn!(subject = %subject, "fan-out: a question with nowhere to answer; skipped");
                    continue;
                }
                let question = match serde_json::from_slice::<Incoming<Q>>(&msg.payload) {
                    Ok(q) => q.note,
                    Err(e) => {
                        tracing::warn!(
                            subject = %subject,
                            error = %e,
                            "fan-out: a question no process should send; skipped"
                        );
                        continue;
                    }
                };
                let a = answer(question).await;
                match serde_json::to_vec(&a) {
                    Ok(body) => {
                        if let Err(e) = nats.respond(&msg, body) {
                            tracing::warn!(subject = %subject, error = %e, "fan-out: an answer could not be sent");
                        }
                    }
                    Err(e) => {
                        tracing::error!(subject = %subject, error = %e, "fan-out: an answer could not be written")
                    }
                }
            }
        });
    }
}
