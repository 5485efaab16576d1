//! Reporting online results: when a server game linked to a pairing (a `StartOnline` action)
//! ends, its final scores go into the event as a `ReportOnline` action. Games that ended while
//! nothing was listening are collected at startup and whenever a division page is shown.
//!
//! A result is never dropped silently: one the event refuses (the pairing got a result by slip
//! or by the director meanwhile) is logged and shown to the director on the division page
//! ([`conflicts`]), with both results side by side, until the director settles it.
//!
//! This module knows nothing of pages: the director's pages ask it, the live games tell it.
//!
//! # Several processes (issue 31)
//!
//! The event files are the truth, shared by every process (one events folder); what a process
//! keeps in memory is only its index of which games are linked to which event, which tells the
//! live games that they wait for their players without expiring and that a director can be
//! called to them, and which games' ends to report. A game is reported by the process that runs
//! it, which need not be the one whose page started it (a director on another process; a game
//! taken over). So, when the hub is one of several, the index is kept in step:
//! - a process that links or unlinks games tells the others at once on NATS
//!   ([`SUBJECT`], `tilebag.director`);
//! - a game that ends unlinked here is looked up again in the event files that changed since
//!   they were last read ([`Reporter::reread_changed`]), and so are they on every no-show sweep
//!   (`online_events`, every 15 s): a message lost while NATS was out of reach costs a
//!   few seconds, never a result;
//! - reporting is idempotent: the event file is read in the same transaction, a game already
//!   reported (by another process) is not reported twice, and a game no longer linked (forfeited
//!   for a no-show, undone) reports nothing.
//!
//! With one process alone, nothing of this runs: the index is filled at start and by the pages.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use tilebag_core::game::EndReason;
use tilebag_events::EventsDir;
use tilebag_live::live::{Ended, Final, Hub};
use tilebag_pages::td::Conflict;
use tilebag_tournament::OnlineEnding;
use tilebag_tournament::{Action, Division, GameResult, ResultSource, Tournament};
use tokio::sync::mpsc;

/// The NATS subject on which the processes of a service tell each other of the director's
/// changes their memory holds (games linked to events, and unlinked).
pub(crate) const SUBJECT: &str = "tilebag.director";

/// The most games one message links (a round's games; more is not a message of ours).
const MAX_GAMES_A_MESSAGE: usize = 1000;

/// What one process tells the others on [`SUBJECT`].
#[derive(serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum News {
    /// These games are `event`'s, in `division`.
    Linked {
        event: String,
        division: String,
        games: Vec<String>,
    },
    /// This game reports nothing any more.
    Unlinked { game: String },
}

/// An event file's size and modification time.
type Stamp = (u64, std::time::SystemTime);

/// Reports ended online games into their events.
pub(crate) struct Reporter {
    events: EventsDir,
    /// Online game id → (event id, division).
    links: Mutex<HashMap<String, (String, String)>>,
    /// The event files as they were when last indexed, by event id.
    stamps: Mutex<HashMap<String, Stamp>>,
    /// Of several processes: where to tell the others of links (set once, when this process
    /// starts hearing them).
    news: OnceLock<tilebag_nats::Client>,
}

impl Reporter {
    pub(crate) fn new(events: EventsDir) -> Reporter {
        Reporter {
            events,
            links: Mutex::new(HashMap::new()),
            stamps: Mutex::new(HashMap::new()),
            news: OnceLock::new(),
        }
    }

    /// Whether a server game is linked to a pairing of an event.
    pub(crate) fn is_linked(&self, game_id: &str) -> bool {
        self.links.lock().expect("links lock").contains_key(game_id)
    }

    /// Remembers that these games belong to `event`'s `division` (and tells the other
    /// processes, if any).
    pub(crate) fn link(&self, event: &str, division: &str, ids: impl IntoIterator<Item = String>) {
        let ids: Vec<String> = ids.into_iter().collect();
        self.remember(event, division, ids.iter().cloned());
        for chunk in ids.chunks(MAX_GAMES_A_MESSAGE) {
            self.tell(&News::Linked {
                event: event.to_string(),
                division: division.to_string(),
                games: chunk.to_vec(),
            });
        }
    }

    /// Remembers links here only.
    fn remember(&self, event: &str, division: &str, ids: impl IntoIterator<Item = String>) {
        let mut links = self.links.lock().expect("links lock");
        for id in ids {
            links.insert(id, (event.to_string(), division.to_string()));
        }
    }

    /// Forgets a game: its end reports nothing (an online event's game forfeited for a no-show,
    /// whose pairing already has its result: `online_events`). The other processes forget it
    /// too.
    pub(crate) fn unlink(&self, game_id: &str) {
        self.links.lock().expect("links lock").remove(game_id);
        self.tell(&News::Unlinked {
            game: game_id.to_string(),
        });
    }

    /// Tells the other processes, if this is one of several. A message that cannot be sent
    /// (NATS out of reach) is made up for by the others' reading of the event files.
    fn tell(&self, news: &News) {
        let Some(nats) = self.news.get() else {
            return;
        };
        let body = serde_json::to_vec(news).expect("news serialises");
        if let Err(e) = nats.publish(SUBJECT, body) {
            tracing::warn!(error = %e, "could not tell the other processes of a director's change; they will read it from the event files");
        }
    }

    /// Takes in what another process said (anything else is ignored: a peer may be broken).
    fn hear(&self, payload: &[u8]) {
        match serde_json::from_slice::<News>(payload) {
            Ok(News::Linked {
                event,
                division,
                games,
            }) if EventsDir::check_id(&event).is_ok()
                && division.len() <= 200
                && games.len() <= MAX_GAMES_A_MESSAGE
                && games.iter().all(|g| tilebag_live::ids::plausible_id(g)) =>
            {
                self.remember(&event, &division, games);
            }
            Ok(News::Unlinked { game }) => {
                self.links.lock().expect("links lock").remove(&game);
            }
            _ => tracing::warn!(
                bytes = payload.len(),
                "a message on {SUBJECT} that is not one of ours was ignored"
            ),
        }
    }

    fn index(&self, event: &str, t: &Tournament) {
        for d in &t.divisions {
            self.remember(event, &d.name, d.online.iter().map(|o| o.game_id.clone()));
        }
    }

    /// Event `id`'s file's size and time now.
    fn stamp(&self, id: &str) -> Option<Stamp> {
        let m = std::fs::metadata(self.events.path(id).ok()?).ok()?;
        Some((m.len(), m.modified().ok()?))
    }

    /// Indexes again the event files that changed since they were last indexed (blocking: a
    /// look at each file's size and time, and a read of those that changed).
    pub(crate) fn reread_changed(&self) {
        let Ok(list) = self.events.list() else { return };
        for e in list {
            let Some(stamp) = self.stamp(&e.id) else {
                continue;
            };
            if self.stamps.lock().expect("stamps lock").get(&e.id) == Some(&stamp) {
                continue;
            }
            if let Ok(t) = self.events.open_read(&e.id).and_then(|f| f.load()) {
                self.index(&e.id, &t);
                // The stamp from before the read: a change meanwhile is read next time.
                self.stamps
                    .lock()
                    .expect("stamps lock")
                    .insert(e.id.clone(), stamp);
            }
        }
    }

    /// Of several processes: tells the others of this process's links from now on, and hears
    /// theirs until `stop`, after indexing the event files again (links made while this
    /// process was starting). Does nothing when the hub is one process alone.
    pub(crate) fn hear_the_others(
        self: &Arc<Self>,
        hub: &Hub,
        mut stop: tokio::sync::watch::Receiver<bool>,
    ) {
        let Some(cluster) = hub.cluster() else {
            return;
        };
        let nats = cluster.nats.clone();
        let mut sub = match nats.subscribe(SUBJECT) {
            Ok(s) => s,
            Err(e) => {
                tracing::error!(error = %e, "cannot hear the other processes' director changes (NATS); the event files are read every few seconds instead");
                return;
            }
        };
        if self.news.set(nats).is_err() {
            return;
        }
        let me = self.clone();
        tokio::spawn(async move {
            let again = me.clone();
            let _ = tokio::task::spawn_blocking(move || again.reread_changed()).await;
            loop {
                tokio::select! {
                    m = sub.next() => match m {
                        Some(m) => me.hear(&m.payload),
                        None => return,
                    },
                    _ = tilebag_live::shutdown::stopped(&mut stop) => return,
                }
            }
        });
    }

    /// Whether this process is one of several (and so may have missed a link).
    fn of_several(&self) -> bool {
        self.news.get().is_some()
    }

    /// Reports a finished online game into its event, if it belongs to one.
    pub(crate) fn report(&self, game_id: &str, end: Final) -> Option<Result<(), String>> {
        let scores = end.scores;
        let known = || self.links.lock().expect("links lock").get(game_id).cloned();
        let (event, division) = match known() {
            Some(x) => x,
            // Of several processes, the link may have been made by another one.
            None if self.of_several() => {
                self.reread_changed();
                known()?
            }
            None => return None,
        };
        let several = self.of_several();
        let mut unlinked = false;
        let done = self.events.open(&event).and_then(|mut f| {
            f.append(|t| {
                let d = t.division(&division)?;
                let Some(link) = d.online.iter().find(|o| o.game_id == game_id) else {
                    if several {
                        // Forfeited for a no-show or undone, perhaps by another process.
                        unlinked = true;
                        return Ok(vec![]);
                    }
                    anyhow::bail!("game {game_id} is no longer linked to a pairing");
                };
                let reported = d
                    .player_round(link.round, link.first)
                    .and_then(|pr| pr.pairing.game())
                    .is_some_and(|g| {
                        matches!(&g.result, Some(GameResult::Played {
                            source: ResultSource::Online { game_id: from }, ..
                        }) if from == game_id)
                    });
                if reported {
                    // Already in (by another process, or by a division page's collection).
                    return Ok(vec![]);
                }
                Ok(vec![Action::ReportOnline {
                    division: division.clone(),
                    round: link.round,
                    game_id: game_id.to_string(),
                    player: link.first,
                    score: scores[0],
                    opponent_score: scores[1],
                    // The game's first seat is the link's `first` player.
                    ending: match end.reason {
                        Some(EndReason::Resigned { seat }) => Some(OnlineEnding::Resigned {
                            player: if seat == 0 { link.first } else { link.second },
                        }),
                        Some(EndReason::Left { seat }) => Some(OnlineEnding::Left {
                            player: if seat == 0 { link.first } else { link.second },
                        }),
                        _ => None,
                    },
                }])
            })
        });
        if unlinked {
            self.links.lock().expect("links lock").remove(game_id);
            return None;
        }
        Some(
            done.map(|_| ())
                .map_err(|e| format!("event {event}, division {division}: game {game_id}: {e:#}")),
        )
    }

    /// Receives ended games from the live games and reports them, until the server stops.
    pub(crate) fn spawn(self: &Arc<Self>, mut rx: mpsc::UnboundedReceiver<Ended>) {
        let me = self.clone();
        tokio::spawn(async move {
            while let Some((id, end)) = rx.recv().await {
                let me = me.clone();
                let done = tokio::task::spawn_blocking(move || me.report(&id, end)).await;
                if let Ok(Some(Err(e))) = done {
                    // Also shown on the division page (`conflicts`).
                    tracing::error!(error = %e, "could not report an online result");
                }
            }
        });
    }

    /// Reports every linked game of the event that has ended but whose pairing has no result
    /// (a game that ended while the server was down, or before a report could be written).
    /// Returns whether anything was reported.
    pub(crate) async fn collect(self: &Arc<Self>, hub: &Hub, event: &str, t: &Tournament) -> bool {
        let mut reported = false;
        for d in &t.divisions {
            for o in &d.online {
                let waiting = d
                    .player_round(o.round, o.first)
                    .and_then(|pr| pr.pairing.game().cloned())
                    .is_some_and(|g| {
                        g.result.is_none() && g.opponent_of(o.first) == Some(o.second)
                    });
                if !waiting {
                    continue;
                }
                if let Some(end) = hub.ended_scores(&o.game_id).await {
                    self.link(event, &d.name, [o.game_id.clone()]);
                    let (me, id) = (self.clone(), o.game_id.clone());
                    match tokio::task::spawn_blocking(move || me.report(&id, end)).await {
                        Ok(Some(Ok(()))) => reported = true,
                        Ok(Some(Err(e))) => {
                            tracing::error!(error = %e, "could not report an online result")
                        }
                        _ => {}
                    }
                }
            }
        }
        reported
    }

    /// At startup: index every linked online game, and report those that ended while the
    /// server was down.
    pub(crate) async fn collect_all(self: &Arc<Self>, hub: &Hub) {
        let Ok(list) = self.events.list() else { return };
        for e in list {
            let stamp = self.stamp(&e.id);
            if let Ok(t) = self.events.open_read(&e.id).and_then(|f| f.load()) {
                self.index(&e.id, &t);
                if let Some(stamp) = stamp {
                    self.stamps
                        .lock()
                        .expect("stamps lock")
                        .insert(e.id.clone(), stamp);
                }
                self.collect(hub, &e.id, &t).await;
            }
        }
    }
}

/// Every ended online game of the division whose result the event does not hold.
pub(crate) async fn conflicts(hub: &Hub, d: &Division) -> Vec<Conflict> {
    let mut out = Vec::new();
    for o in &d.online {
        let Some(g) = d
            .player_round(o.round, o.first)
            .and_then(|pr| pr.pairing.game().cloned())
            .filter(|g| g.opponent_of(o.first) == Some(o.second))
        else {
            continue;
        };
        let Some(kept) = g.result.clone() else {
            continue;
        };
        let from_this_game = matches!(
            &kept,
            GameResult::Played { source: ResultSource::Online { game_id }, .. } if *game_id == o.game_id
        );
        if from_this_game {
            continue;
        }
        // A later online game of the same pairing replaces this one.
        let replaced = d
            .online
            .iter()
            .any(|x| x.round == o.round && x.first == o.first && x.game_id != o.game_id)
            && d.online
                .iter()
                .rposition(|x| x.round == o.round && x.first == o.first)
                != d.online.iter().position(|x| x.game_id == o.game_id);
        if replaced {
            continue;
        }
        if let Some(s) = hub.ended_scores(&o.game_id).await.map(|f| f.scores) {
            let online = if g.first == o.first {
                (s[0], s[1])
            } else {
                (s[1], s[0])
            };
            out.push(Conflict {
                round: o.round,
                board: g.board,
                game_id: o.game_id.clone(),
                online,
                kept,
            });
        }
    }
    out
}
