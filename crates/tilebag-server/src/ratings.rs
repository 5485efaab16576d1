//! Online ratings (issue 30 item 3): when a live game between two accounts ends and its seats
//! say it is rated, both players' Glicko-2 ratings in the game's category change, each game its
//! own rating period (`tilebag_accounts::glicko2`), and are stored with a point of history keyed
//! by the game (`AccountStore::record_rating`: a game counts once).
//!
//! - Who won: the higher score, a tie half each; but a resignation (NASPA I.B), leaving the game
//!   (NASPA V.K.2) and a forfeit on time (the overtime limit, NASPA V.G.3, WESPA 5.3.3) lose,
//!   whatever the scores (the scores are adjusted to say so already; this makes sure).
//! - When: the game's last event's wall time, so a game rated at start-up (it ended while no
//!   rater listened, or the database was down then) gets the very numbers it would have got at
//!   once.
//! - Event games never count here: the lobby and the events link them with `rated` false (the
//!   store refuses a rated event game): a director's event is rated by its rating body's own
//!   estimates (NASPA, WESPA), kept apart.
//!
//! One task rates every game, one after another, so two games ending at once for one player
//! both count (no lost update). At start-up it first rates the rated games that ended with no
//! point of history ([`SeatStore::unrated_ended_games`]), in the order they ended.

use std::sync::Arc;
use tilebag_accounts::glicko2::{CategoryRating, Glicko2, Outcome, Rating as GlickoRating};
use tilebag_core::game::EndReason;
use tilebag_live::health::Monitored;
use tilebag_live::live::Ended;
use tilebag_store::{GameRecord, GameStatus, Rating, RatingPoint, SeatLink, Store};
use tokio::sync::{mpsc, watch};

/// Games rated per look at the store at start-up (then the next batch).
const CATCH_UP_BATCH: usize = 200;
/// After the store failed to rate a game, how long before the unrated games are looked for
/// again.
const RETRY_AFTER: std::time::Duration = std::time::Duration::from_secs(60);
/// How far back a player's history is read to find a game's point (a game is rated moments
/// after it ends, so its point is among the newest).
const HISTORY_LOOKBACK: usize = 64;

/// A finished game's final scores and why it ended, as its stored result says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Finish {
    pub scores: [i32; 2],
    pub reason: Option<EndReason>,
}

/// Reads a stored result (`result_json`: `{"scores": [a, b], "reason": {...}, ...}`).
pub(crate) fn finish_of(rec: &GameRecord) -> Option<Finish> {
    let v: serde_json::Value = serde_json::from_str(rec.result_json.as_deref()?).ok()?;
    let s = v.get("scores")?.as_array()?;
    let score = |i: usize| s.get(i)?.as_i64().and_then(|x| i32::try_from(x).ok());
    let reason = v
        .get("reason")
        .and_then(|r| serde_json::from_value(r.clone()).ok());
    Some(Finish {
        scores: [score(0)?, score(1)?],
        reason,
    })
}

/// The outcome of a finished game for `seat`: a resignation (NASPA I.B), leaving the game
/// (NASPA V.K.2) or reaching the overtime limit (NASPA V.G.3, WESPA 5.3.3) loses; otherwise
/// the higher score wins and equal scores tie.
pub(crate) fn outcome_for(seat: usize, f: &Finish) -> Outcome {
    let loser = match f.reason {
        Some(EndReason::Resigned { seat: s })
        | Some(EndReason::Left { seat: s })
        | Some(EndReason::OvertimeLimit { seat: s }) => Some(s),
        _ => None,
    };
    match loser {
        Some(s) if s == seat => Outcome::Loss,
        Some(_) => Outcome::Win,
        None => match f.scores[seat].cmp(&f.scores[1 - seat]) {
            std::cmp::Ordering::Greater => Outcome::Win,
            std::cmp::Ordering::Less => Outcome::Loss,
            std::cmp::Ordering::Equal => Outcome::Tie,
        },
    }
}

/// What rating a game did.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Verdict {
    /// Both ratings were stored (or the missing one of the two).
    Rated,
    /// Both had been stored already.
    Already,
    /// The game does not count: why.
    Skipped(&'static str),
}

/// Rates ended games.
pub(crate) struct OnlineRatings {
    store: Arc<Monitored>,
    system: Glicko2,
}

impl OnlineRatings {
    pub(crate) fn new(store: Arc<Monitored>) -> OnlineRatings {
        OnlineRatings {
            store,
            system: Glicko2::default(),
        }
    }

    /// Rates the unrated ended games, then every game that ends (`rx`), until shutdown.
    pub(crate) fn spawn(
        self: Arc<Self>,
        mut rx: mpsc::UnboundedReceiver<Ended>,
        mut stop: watch::Receiver<bool>,
    ) -> tokio::task::JoinHandle<()> {
        tokio::spawn(async move {
            let mut behind = self.catch_up().await.is_err();
            loop {
                let retry = async {
                    if behind {
                        tokio::time::sleep(RETRY_AFTER).await;
                    } else {
                        std::future::pending::<()>().await;
                    }
                };
                tokio::select! {
                    ended = rx.recv() => {
                        let Some((id, _)) = ended else { return };
                        if let Err(e) = self.rate(&id).await {
                            tracing::warn!(game = %id, error = %e,
                                "online ratings: the game could not be rated now; it will be \
                                 rated when the database answers");
                            behind = true;
                        }
                    }
                    _ = retry => behind = self.catch_up().await.is_err(),
                    _ = tilebag_live::shutdown::stopped(&mut stop) => return,
                }
            }
        })
    }

    /// Rates every rated game that ended without its ratings, in the order they ended: how
    /// many were rated now.
    pub(crate) async fn catch_up(&self) -> Result<usize, String> {
        let mut done = 0;
        let mut skipped = std::collections::HashSet::new();
        loop {
            let ids = self
                .store
                .seats()
                .unrated_ended_games(CATCH_UP_BATCH + skipped.len())
                .await
                .map_err(|e| e.to_string())?;
            let fresh: Vec<String> = ids.into_iter().filter(|i| !skipped.contains(i)).collect();
            if fresh.is_empty() {
                return Ok(done);
            }
            for id in fresh {
                match self.rate(&id).await? {
                    Verdict::Rated => done += 1,
                    // Seats that cannot be rated (linked wrongly): not asked for again.
                    Verdict::Skipped(why) => {
                        tracing::warn!(game = %id, why, "online ratings: not rated");
                        skipped.insert(id);
                    }
                    Verdict::Already => {
                        skipped.insert(id);
                    }
                }
            }
        }
    }

    /// Rates one ended game if its seats say it is rated.
    pub(crate) async fn rate(&self, game_id: &str) -> Result<Verdict, String> {
        let store: &dyn Store = &*self.store;
        let links = store
            .seats()
            .seats_of_game(game_id)
            .await
            .map_err(|e| e.to_string())?;
        let [a, b] = links.as_slice() else {
            return Ok(Verdict::Skipped("not two accounts at the seats"));
        };
        if !(a.rated && b.rated) {
            return Ok(Verdict::Skipped("not a rated game"));
        }
        if a.event || b.event {
            return Ok(Verdict::Skipped("an event's game"));
        }
        if a.account_id == b.account_id || a.category != b.category || a.seat == b.seat {
            return Ok(Verdict::Skipped(
                "seats that cannot be rated against each other",
            ));
        }
        let Some((rec, events)) = store.load_game(game_id).await.map_err(|e| e.to_string())? else {
            return Ok(Verdict::Skipped("no such game"));
        };
        if rec.status != GameStatus::Ended {
            return Ok(Verdict::Skipped("the game has not ended"));
        }
        let Some(finish) = finish_of(&rec) else {
            return Ok(Verdict::Skipped("the game's result cannot be read"));
        };
        let at_ms = events
            .last()
            .map(|e| e.wall_ms)
            .unwrap_or(rec.created_at_ms)
            .max(0);
        let (first, second) = if a.seat == 0 { (a, b) } else { (b, a) };
        let before = [
            self.before_game(first).await?,
            self.before_game(second).await?,
        ];
        if before.iter().all(|s| s.rated_already) {
            return Ok(Verdict::Already);
        }
        let (new0, new1) = self.system.rate_game(
            &before[0].rating,
            &before[1].rating,
            outcome_for(0, &finish),
            at_ms as u64,
        );
        for (link, (was, new)) in [first, second]
            .into_iter()
            .zip(before.iter().zip([new0, new1]))
        {
            if was.rated_already {
                continue;
            }
            let rating = Rating {
                account_id: link.account_id,
                category: link.category.clone(),
                rating: new.rating.rating,
                deviation: new.rating.deviation,
                volatility: new.rating.volatility,
                games: new.games,
                updated_ms: at_ms,
            };
            let point = RatingPoint {
                account_id: link.account_id,
                category: link.category.clone(),
                game_id: game_id.to_string(),
                rating: new.rating.rating,
                deviation: new.rating.deviation,
                at_ms,
            };
            let stored = store
                .accounts()
                .record_rating(&rating, &point)
                .await
                .map_err(|e| e.to_string())?;
            if !stored {
                tracing::warn!(game = %game_id, account = link.account_id,
                    "online ratings: the game had changed this rating already");
            }
        }
        Ok(Verdict::Rated)
    }

    /// A player's rating as it stood before the game: the stored one; or, when this game has
    /// been rated for them already (a rating stopped half-way), the one before it in their
    /// history (their opponent is rated against it).
    async fn before_game(&self, link: &SeatLink) -> Result<Before, String> {
        let accounts = self.store.accounts();
        let stored = accounts
            .rating(link.account_id, &link.category)
            .await
            .map_err(|e| e.to_string())?;
        let history = accounts
            .rating_history(link.account_id, &link.category, HISTORY_LOOKBACK)
            .await
            .map_err(|e| e.to_string())?;
        let Some(at) = history.iter().position(|p| p.game_id == link.game_id) else {
            return Ok(Before {
                rating: match stored {
                    Some(r) => CategoryRating {
                        rating: GlickoRating::new(r.rating, r.deviation, r.volatility),
                        games: r.games,
                        last_game_ms: Some(r.updated_ms.max(0) as u64),
                    },
                    None => CategoryRating::default(),
                },
                rated_already: false,
            });
        };
        // Newest first: the point after `at` is the one before the game (`at` points are
        // newer than the game's). The volatility is not in the history: the stored one stands
        // in (an opponent's volatility plays no part in a player's new rating).
        let volatility = stored
            .as_ref()
            .map_or(GlickoRating::default().volatility, |r| r.volatility);
        let games = stored.as_ref().map_or(0, |r| r.games);
        let rating = match history.get(at + 1) {
            Some(p) => CategoryRating {
                rating: GlickoRating::new(p.rating, p.deviation, volatility),
                games: games.saturating_sub(at as u32 + 1),
                last_game_ms: Some(p.at_ms.max(0) as u64),
            },
            None => CategoryRating::default(),
        };
        Ok(Before {
            rating,
            rated_already: true,
        })
    }
}

/// A player's rating before a game, and whether the game is in their history already.
struct Before {
    rating: CategoryRating,
    rated_already: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn finish(scores: [i32; 2], reason: Option<EndReason>) -> Finish {
        Finish { scores, reason }
    }

    #[test]
    fn the_higher_score_wins_and_equal_scores_tie() {
        let f = finish([400, 380], Some(EndReason::WentOut { seat: 1 }));
        assert_eq!(outcome_for(0, &f), Outcome::Win);
        assert_eq!(outcome_for(1, &f), Outcome::Loss);
        let t = finish([390, 390], Some(EndReason::SixZeros));
        assert_eq!(outcome_for(0, &t), Outcome::Tie);
        assert_eq!(outcome_for(1, &t), Outcome::Tie);
    }

    #[test]
    fn resigning_leaving_or_the_overtime_limit_lose_whatever_the_scores() {
        for reason in [
            EndReason::Resigned { seat: 0 },
            EndReason::Left { seat: 0 },
            EndReason::OvertimeLimit { seat: 0 },
        ] {
            let f = finish([500, 100], Some(reason));
            assert_eq!(outcome_for(0, &f), Outcome::Loss, "{reason:?}");
            assert_eq!(outcome_for(1, &f), Outcome::Win, "{reason:?}");
        }
    }
}
