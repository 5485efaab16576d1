//! Reporting online results: when a server game linked to a pairing (a `StartOnline` action)
//! ends, its final scores go into the event as a `ReportOnline` action. Games that ended while
//! nothing was listening are collected at startup and whenever a division page is shown.
//!
//! A result is never dropped silently: one the event refuses (the pairing got a result by slip
//! or by the director meanwhile) is logged and shown to the director on the division page
//! ([`conflicts`]), with both results side by side, until the director settles it.
//!
//! This module knows nothing of pages: the director's pages ask it, the live games tell it.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use tilebag_core::game::EndReason;
use tilebag_events::EventsDir;
use tilebag_live::live::{Ended, Final, Hub};
use tilebag_pages::td::Conflict;
use tilebag_tournament::OnlineEnding;
use tilebag_tournament::{Action, Division, GameResult, ResultSource, Tournament};
use tokio::sync::mpsc;

/// Reports ended online games into their events.
pub(crate) struct Reporter {
    events: EventsDir,
    /// Online game id → (event id, division).
    links: Mutex<HashMap<String, (String, String)>>,
}

impl Reporter {
    pub(crate) fn new(events: EventsDir) -> Reporter {
        Reporter {
            events,
            links: Mutex::new(HashMap::new()),
        }
    }

    /// Whether a server game is linked to a pairing of an event.
    pub(crate) fn is_linked(&self, game_id: &str) -> bool {
        self.links.lock().expect("links lock").contains_key(game_id)
    }

    /// Remembers that these games belong to `event`'s `division`.
    pub(crate) fn link(&self, event: &str, division: &str, ids: impl IntoIterator<Item = String>) {
        let mut links = self.links.lock().expect("links lock");
        for id in ids {
            links.insert(id, (event.to_string(), division.to_string()));
        }
    }

    /// Forgets a game: its end reports nothing (an online event's game forfeited for a no-show,
    /// whose pairing already has its result: `online_events`).
    pub(crate) fn unlink(&self, game_id: &str) {
        self.links.lock().expect("links lock").remove(game_id);
    }

    fn index(&self, event: &str, t: &Tournament) {
        for d in &t.divisions {
            self.link(event, &d.name, d.online.iter().map(|o| o.game_id.clone()));
        }
    }

    /// Reports a finished online game into its event, if it belongs to one.
    pub(crate) fn report(&self, game_id: &str, end: Final) -> Option<Result<(), String>> {
        let scores = end.scores;
        let (event, division) = self.links.lock().expect("links lock").get(game_id)?.clone();
        let done = self.events.open(&event).and_then(|mut f| {
            f.append(|t| {
                let d = t.division(&division)?;
                let Some(link) = d.online.iter().find(|o| o.game_id == game_id) else {
                    anyhow::bail!("game {game_id} is no longer linked to a pairing");
                };
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
            if let Ok(t) = self.events.open_read(&e.id).and_then(|f| f.load()) {
                self.index(&e.id, &t);
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
