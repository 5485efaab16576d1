//! Group commit on PostgreSQL: the events that games append while other appends are out are
//! written together, in one statement (one commit, one flush of PostgreSQL's log), instead of
//! one round trip and one commit each. Under load a pool of 16 connections otherwise caps
//! the moves a second a process can commit; at rest an append goes out alone, at once, as the
//! single-row statement it always was.
//!
//! No task of its own: the first append that finds a free slot (at most [`MAX_WRITERS`] at
//! once) takes everything queued and writes it, and hands each its answer; the others wait for
//! theirs, or for a slot. Each row keeps its own answer: its fence is checked for its game
//! alone (a row whose process lost the lease is refused, the others are written), and a batch
//! that fails as a statement is written again row by row, so that one bad row fails alone.
//!
//! The leases a batch checks are locked in the order of their game ids, as the renewal locks
//! them (`leases.rs`), so the two never wait for each other in a circle.

use super::PostgresStore;
use crate::{Fence, StoreError};
use std::future::Future;
use std::pin::Pin;
use std::sync::Mutex;
use std::task::Poll;
use tokio::sync::{oneshot, Notify};
use tokio_postgres::types::Type;

/// Batches out at once, at most.
const MAX_WRITERS: usize = 4;
/// Rows in one batch, at most.
const MAX_ROWS: usize = 256;

/// One event to append.
pub(super) struct Row {
    pub game_id: String,
    pub seq: i64,
    pub at_ms: i64,
    pub wall_ms: i64,
    pub json: String,
    pub ended: Option<String>,
    pub fence: Option<Fence>,
}

struct Pending {
    row: Row,
    reply: oneshot::Sender<Result<(), StoreError>>,
}

/// The appends waiting to be written, and the slots of the batches out.
#[derive(Default)]
pub(super) struct Appends {
    state: Mutex<Queue>,
    freed: Notify,
}

/// Under one lock, so that a writer giving its slot back and an append finding none never
/// miss each other.
#[derive(Default)]
struct Queue {
    pending: Vec<Pending>,
    writers: usize,
}

/// A writer's slot, given back when dropped; the waiting appends are told if any is still
/// queued (telling them when nothing is would only wake them to find nothing).
struct Slot<'a>(&'a Appends);

impl Drop for Slot<'_> {
    fn drop(&mut self) {
        let queued = {
            let mut q = self.0.queue();
            q.writers -= 1;
            !q.pending.is_empty()
        };
        if queued {
            self.0.freed.notify_waiters();
        }
    }
}

impl Appends {
    fn queue(&self) -> std::sync::MutexGuard<'_, Queue> {
        self.state.lock().expect("appends lock")
    }

    fn slot(&self) -> Option<Slot<'_>> {
        let mut q = self.queue();
        if q.writers >= MAX_WRITERS {
            return None;
        }
        q.writers += 1;
        Some(Slot(self))
    }

    fn take(&self) -> Vec<Pending> {
        let mut q = self.queue();
        let n = q.pending.len().min(MAX_ROWS);
        q.pending.drain(..n).collect()
    }
}

/// What the database said of one row of a batch.
struct Outcome {
    inserted: bool,
    stored: Option<String>,
    fenced: bool,
}

impl PostgresStore {
    /// Appends `row` with the others queued meanwhile; its own answer.
    pub(super) async fn append_grouped(&self, row: Row) -> Result<(), StoreError> {
        let (reply, mut answer) = oneshot::channel();
        self.appends.queue().pending.push(Pending { row, reply });
        loop {
            // Listening before looking for a slot: a slot freed in between is not missed.
            let mut freed = std::pin::pin!(self.appends.freed.notified());
            freed.as_mut().enable();
            if let Some(slot) = self.appends.slot() {
                let batch = self.appends.take();
                if !batch.is_empty() {
                    self.write_batch(batch).await;
                }
                drop(slot);
            }
            // Its answer, or a slot freed (`None`): whichever comes first.
            let came = std::future::poll_fn(|cx| {
                if let Poll::Ready(r) = Pin::new(&mut answer).poll(cx) {
                    return Poll::Ready(Some(r));
                }
                freed.as_mut().poll(cx).map(|()| None)
            })
            .await;
            if let Some(r) = came {
                return r.unwrap_or_else(|_| {
                    Err(StoreError::Uncertain(
                        "the write that carried this event was stopped before it answered".into(),
                    ))
                });
            }
        }
    }

    async fn write_batch(&self, batch: Vec<Pending>) {
        if batch.len() == 1 {
            for p in batch {
                let r = self.append_one(&p.row).await;
                let _ = p.reply.send(r);
            }
            return;
        }
        match self.append_many(&batch).await {
            Ok(outcomes) => {
                for (p, o) in batch.into_iter().zip(outcomes) {
                    let r = verdict(&p.row, o);
                    let _ = p.reply.send(r);
                }
            }
            Err(StoreError::Unavailable(why)) => {
                for p in batch {
                    let _ = p.reply.send(Err(StoreError::Unavailable(why.clone())));
                }
            }
            Err(StoreError::Uncertain(why)) => {
                for p in batch {
                    let _ = p.reply.send(Err(StoreError::Uncertain(why.clone())));
                }
            }
            Err(e) => {
                // A statement error (a row the database refuses, two writers waiting on each
                // other): each row again on its own, so that only a bad one fails.
                tracing::warn!(error = %e, rows = batch.len(),
                    "PostgreSQL: a batch of events was refused; writing them one by one");
                for p in batch {
                    let r = self.append_one(&p.row).await;
                    let _ = p.reply.send(r);
                }
            }
        }
    }

    /// One row, in one statement (see [`PostgresStore::append`] for what it does).
    async fn append_one(&self, row: &Row) -> Result<(), StoreError> {
        let owner = row.fence.as_ref().map(|f| f.owner.as_str());
        let generation = row.fence.as_ref().map(|f| f.generation as i64);
        let (game_id, seq, json) = (row.game_id.as_str(), &row.seq, row.json.as_str());
        let (at_ms, wall_ms, ended) = (&row.at_ms, &row.wall_ms, &row.ended);
        let (owner, generation) = (&owner, &generation);
        // One statement: the event and (when the game ends) its result, atomically. The
        // primary key (game, seq) makes it idempotent: if the row is there already (the
        // first attempt committed but its answer was lost), `stored` holds it (the main
        // query sees the table as it was before the statement) and nothing is written.
        // With a fence, `lease` locks the game's lease row and the event is written only if
        // the lease still has this owner and generation; a process taking the lease waits for
        // this statement to commit (see `leases.rs`).
        // Typed parameters: parse, bind and execute go in one round trip (no separate
        // prepare), so the statement is out as soon as it is sent.
        let outcome = self
            .run(true, |c| async move {
                let row = c
                    .query_typed_one(
                        "WITH lease AS (UPDATE game_leases SET generation = generation \
                                        WHERE game_id = $1 AND owner = $7 AND generation = $8 \
                                        RETURNING 1), \
                              ins AS (INSERT INTO events (game_id, seq, at_ms, wall_ms, event_json) \
                                      SELECT $1, $2, $3, $4, $5 \
                                      WHERE $7::text IS NULL OR EXISTS (SELECT 1 FROM lease) \
                                      ON CONFLICT (game_id, seq) DO NOTHING RETURNING 1), \
                              upd AS (UPDATE games SET status = 'ended', result_json = $6, \
                                      ended_at_ms = $4 \
                                      WHERE id = $1 AND $6::text IS NOT NULL \
                                      AND EXISTS (SELECT 1 FROM ins)) \
                         SELECT (SELECT count(*) FROM ins) > 0, \
                                (SELECT event_json FROM events WHERE game_id = $1 AND seq = $2), \
                                $7::text IS NOT NULL AND NOT EXISTS (SELECT 1 FROM lease)",
                        &[
                            (&game_id, Type::TEXT),
                            (seq, Type::INT8),
                            (at_ms, Type::INT8),
                            (wall_ms, Type::INT8),
                            (&json, Type::TEXT),
                            (ended, Type::TEXT),
                            (owner, Type::TEXT),
                            (generation, Type::INT8),
                        ],
                    )
                    .await?;
                Ok(Outcome {
                    inserted: row.get(0),
                    stored: row.get(1),
                    fenced: row.get(2),
                })
            })
            .await?;
        verdict(row, outcome)
    }

    /// Many rows, in one statement: the same as [`PostgresStore::append_one`] for each, with
    /// the leases locked in the order of their games.
    async fn append_many(&self, batch: &[Pending]) -> Result<Vec<Outcome>, StoreError> {
        let k: Vec<i32> = (0..batch.len() as i32).collect();
        let ids: Vec<&str> = batch.iter().map(|p| p.row.game_id.as_str()).collect();
        let jsons: Vec<&str> = batch.iter().map(|p| p.row.json.as_str()).collect();
        let seqs: Vec<i64> = batch.iter().map(|p| p.row.seq).collect();
        let ats: Vec<i64> = batch.iter().map(|p| p.row.at_ms).collect();
        let walls: Vec<i64> = batch.iter().map(|p| p.row.wall_ms).collect();
        let endeds: Vec<Option<&str>> = batch.iter().map(|p| p.row.ended.as_deref()).collect();
        let owners: Vec<Option<&str>> = batch
            .iter()
            .map(|p| p.row.fence.as_ref().map(|f| f.owner.as_str()))
            .collect();
        let gens: Vec<Option<i64>> = batch
            .iter()
            .map(|p| p.row.fence.as_ref().map(|f| f.generation as i64))
            .collect();
        let params = (
            &k, &ids, &seqs, &ats, &walls, &jsons, &endeds, &owners, &gens,
        );
        let rows = self
            .run(true, |c| async move {
                let (k, ids, seqs, ats, walls, jsons, endeds, owners, gens) = params;
                c.query(
                    "WITH input AS (SELECT * FROM UNNEST($1::int4[], $2::text[], $3::int8[], \
                                    $4::int8[], $5::int8[], $6::text[], $7::text[], $8::text[], \
                                    $9::int8[]) \
                                    AS t(k, game_id, seq, at_ms, wall_ms, event_json, ended, \
                                         owner, generation)), \
                          lease AS (SELECT l.game_id FROM game_leases l JOIN input i \
                                    ON l.game_id = i.game_id AND l.owner = i.owner \
                                    AND l.generation = i.generation \
                                    ORDER BY l.game_id FOR UPDATE OF l), \
                          ins AS (INSERT INTO events (game_id, seq, at_ms, wall_ms, event_json) \
                                  SELECT i.game_id, i.seq, i.at_ms, i.wall_ms, i.event_json \
                                  FROM input i \
                                  WHERE i.owner IS NULL \
                                     OR i.game_id IN (SELECT game_id FROM lease) \
                                  ON CONFLICT (game_id, seq) DO NOTHING \
                                  RETURNING game_id, seq), \
                          upd AS (UPDATE games g SET status = 'ended', result_json = i.ended, \
                                  ended_at_ms = i.wall_ms FROM input i \
                                  WHERE g.id = i.game_id AND i.ended IS NOT NULL \
                                  AND EXISTS (SELECT 1 FROM ins \
                                              WHERE ins.game_id = i.game_id \
                                              AND ins.seq = i.seq)) \
                     SELECT i.k, \
                            EXISTS (SELECT 1 FROM ins \
                                    WHERE ins.game_id = i.game_id AND ins.seq = i.seq), \
                            (SELECT e.event_json FROM events e \
                             WHERE e.game_id = i.game_id AND e.seq = i.seq), \
                            i.owner IS NOT NULL \
                            AND NOT EXISTS (SELECT 1 FROM lease WHERE lease.game_id = i.game_id) \
                     FROM input i ORDER BY i.k",
                    &[k, ids, seqs, ats, walls, jsons, endeds, owners, gens],
                )
                .await
            })
            .await?;
        if rows.len() != batch.len() {
            return Err(StoreError::Other(format!(
                "a batch of {} events came back with {} answers",
                batch.len(),
                rows.len()
            )));
        }
        rows.iter()
            .map(|r| {
                Ok(Outcome {
                    inserted: r.try_get(1)?,
                    stored: r.try_get(2)?,
                    fenced: r.try_get(3)?,
                })
            })
            .collect()
    }
}

/// A row's answer from what the database said of it.
fn verdict(row: &Row, o: Outcome) -> Result<(), StoreError> {
    let (game_id, seq) = (&row.game_id, row.seq);
    match (&row.fence, o) {
        (Some(f), Outcome { fenced: true, .. }) => Err(StoreError::Fenced {
            game: game_id.clone(),
            generation: f.generation,
        }),
        (_, Outcome { inserted: true, .. }) => Ok(()),
        (
            _,
            Outcome {
                stored: Some(s), ..
            },
        ) if s == row.json => Ok(()),
        (
            _,
            Outcome {
                stored: Some(_), ..
            },
        ) => Err(StoreError::Other(format!(
            "event {seq} of game {game_id} is stored already with other content \
             (is another server playing this game?)"
        ))),
        (_, Outcome { stored: None, .. }) => Err(StoreError::Other(format!(
            "event {seq} of game {game_id} was neither stored nor found"
        ))),
    }
}
