//! [`LeaseStore`] on PostgreSQL (see `leases.rs` for what the leases are). Every time is the
//! database's `clock_timestamp()`, so the processes' clocks never have to agree. Each statement
//! is safe to repeat (a statement whose connection was lost is tried once more): a heartbeat or
//! a renewal sets the same times again; a claim repeated after its answer was lost finds the
//! lease its own and takes it again, one generation on, which only fences the first answer
//! nobody received.

use super::super::leases::{Fence, LeaseRow, LeaseStore, ProcessRow};
use super::super::{Checkpoint, StoreError, StoreFuture, StoredEvent};
use super::PostgresStore;

impl LeaseStore for PostgresStore {
    fn heartbeat<'a>(
        &'a self,
        name: &'a str,
        address: &'a str,
        started_at_ms: i64,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            self.run(true, |c| async move {
                c.execute(
                    "INSERT INTO processes (name, address, started_at_ms, seen_at) \
                     VALUES ($1, $2, $3, clock_timestamp()) \
                     ON CONFLICT (name) DO UPDATE SET address = EXCLUDED.address, \
                     started_at_ms = EXCLUDED.started_at_ms, seen_at = EXCLUDED.seen_at",
                    &[&name, &address, &started_at_ms],
                )
                .await
            })
            .await?;
            Ok(())
        })
    }

    fn processes(&self) -> StoreFuture<'_, Vec<ProcessRow>> {
        Box::pin(async move {
            let rows = self
                .run(false, |c| async move {
                    c.query(
                        "SELECT name, address, started_at_ms, \
                         (EXTRACT(EPOCH FROM clock_timestamp() - seen_at) * 1000)::bigint \
                         FROM processes ORDER BY seen_at DESC, name",
                        &[],
                    )
                    .await
                })
                .await?;
            rows.iter()
                .map(|r| {
                    Ok(ProcessRow {
                        name: r.try_get(0)?,
                        address: r.try_get(1)?,
                        started_at_ms: r.try_get(2)?,
                        seen_ms_ago: r.try_get(3)?,
                    })
                })
                .collect()
        })
    }

    fn forget_processes(&self, older_than_ms: i64) -> StoreFuture<'_, u64> {
        Box::pin(async move {
            let older = &older_than_ms;
            self.run(true, |c| async move {
                c.execute(
                    "DELETE FROM processes p \
                     WHERE seen_at < clock_timestamp() - $1::bigint * interval '1 millisecond' \
                     AND NOT EXISTS (SELECT 1 FROM game_leases l WHERE l.owner = p.name \
                                     AND l.expires_at > clock_timestamp())",
                    &[older],
                )
                .await
            })
            .await
        })
    }

    fn claim<'a>(
        &'a self,
        game_id: &'a str,
        owner: &'a str,
        ttl_ms: i64,
    ) -> StoreFuture<'a, Option<u64>> {
        Box::pin(async move {
            let ttl = &ttl_ms;
            // Taking an expired lease waits for a write of the old owner under way (it holds
            // the row's lock) and then finds its generation unchanged: the old owner's event
            // committed before the taking, so the taker's read of the log sees it.
            let row = self
                .run(true, |c| async move {
                    c.query_opt(
                        "INSERT INTO game_leases (game_id, owner, generation, expires_at) \
                         SELECT id, $2, 1, clock_timestamp() + $3::bigint * interval '1 millisecond' \
                         FROM games WHERE id = $1 AND status = 'live' \
                         ON CONFLICT (game_id) DO UPDATE SET owner = EXCLUDED.owner, \
                             generation = game_leases.generation + 1, \
                             expires_at = EXCLUDED.expires_at \
                         WHERE game_leases.expires_at < clock_timestamp() \
                            OR game_leases.owner = EXCLUDED.owner \
                         RETURNING generation",
                        &[&game_id, &owner, ttl],
                    )
                    .await
                })
                .await?;
            Ok(row.map(|r| r.get::<_, i64>(0) as u64))
        })
    }

    fn renew<'a>(
        &'a self,
        owner: &'a str,
        held: &'a [(String, u64)],
        ttl_ms: i64,
    ) -> StoreFuture<'a, Vec<String>> {
        Box::pin(async move {
            if held.is_empty() {
                return Ok(Vec::new());
            }
            let ids: Vec<&str> = held.iter().map(|(g, _)| g.as_str()).collect();
            let gens: Vec<i64> = held.iter().map(|(_, n)| *n as i64).collect();
            let (ids, gens, ttl) = (&ids, &gens, &ttl_ms);
            let rows = self
                .run(true, |c| async move {
                    c.query(
                        // The rows are locked in the order of their games, as a batch of
                        // appends locks them (`appends.rs`): neither waits on the other in a
                        // circle.
                        "WITH mine AS (SELECT l.game_id FROM game_leases l \
                                       JOIN UNNEST($2::text[], $3::bigint[]) AS v(id, generation) \
                                       ON l.game_id = v.id AND l.generation = v.generation \
                                       WHERE l.owner = $1 ORDER BY l.game_id FOR UPDATE OF l) \
                         UPDATE game_leases AS l \
                         SET expires_at = clock_timestamp() + $4::bigint * interval '1 millisecond' \
                         FROM mine WHERE l.game_id = mine.game_id RETURNING l.game_id",
                        &[&owner, ids, gens, ttl],
                    )
                    .await
                })
                .await?;
            rows.iter()
                .map(|r| r.try_get::<_, String>(0).map_err(StoreError::from))
                .collect()
        })
    }

    fn release<'a>(&'a self, game_id: &'a str, fence: &'a Fence) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let generation = fence.generation as i64;
            let (owner, generation) = (&fence.owner, &generation);
            self.run(true, |c| async move {
                // Expired rather than deleted: a game given up is taken by the next sweep at
                // once (a game with no lease waits out the grace of a new game), and its
                // generation goes on counting.
                c.execute(
                    "UPDATE game_leases SET expires_at = clock_timestamp() - interval '1 millisecond' \
                     WHERE game_id = $1 AND owner = $2 AND generation = $3",
                    &[&game_id, owner, generation],
                )
                .await
            })
            .await?;
            Ok(())
        })
    }

    fn orphans(&self, grace_ms: i64, limit: usize) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            let limit = super::super::accounts::sql_limit(limit);
            let (grace, limit, now) = (&grace_ms, &limit, &super::super::wall_ms());
            let rows = self
                .run(false, |c| async move {
                    c.query(
                        "SELECT g.id FROM games g LEFT JOIN game_leases l ON l.game_id = g.id \
                         WHERE g.status = 'live' \
                         AND (l.expires_at < clock_timestamp() \
                              OR (l.game_id IS NULL AND g.created_at_ms < $3::bigint - $1::bigint)) \
                         ORDER BY g.created_at_ms LIMIT $2::bigint",
                        &[grace, limit, now],
                    )
                    .await
                })
                .await?;
            rows.iter()
                .map(|r| r.try_get::<_, String>(0).map_err(StoreError::from))
                .collect()
        })
    }

    fn lease<'a>(&'a self, game_id: &'a str) -> StoreFuture<'a, Option<LeaseRow>> {
        Box::pin(async move {
            let row = self
                .run(false, |c| async move {
                    c.query_opt(&format!("{LEASE_SELECT} WHERE game_id = $1"), &[&game_id])
                        .await
                })
                .await?;
            row.as_ref().map(lease_from_row).transpose()
        })
    }

    fn leases(&self) -> StoreFuture<'_, Vec<LeaseRow>> {
        Box::pin(async move {
            let rows = self
                .run(false, |c| async move {
                    c.query(
                        &format!(
                            "{LEASE_SELECT} WHERE game_id IN \
                             (SELECT id FROM games WHERE status = 'live') ORDER BY owner, game_id"
                        ),
                        &[],
                    )
                    .await
                })
                .await?;
            rows.iter().map(lease_from_row).collect()
        })
    }

    fn add_note<'a>(
        &'a self,
        game_id: &'a str,
        wall_ms: i64,
        text: &'a str,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            // Not repeated if its first answer was lost: the same note is not written twice.
            self.run(true, |c| async move {
                c.execute(
                    "INSERT INTO game_notes (game_id, wall_ms, text) SELECT $1, $2, $3 \
                     WHERE NOT EXISTS (SELECT 1 FROM game_notes \
                                       WHERE game_id = $1 AND wall_ms = $2 AND text = $3)",
                    &[&game_id, &wall_ms, &text],
                )
                .await
            })
            .await?;
            Ok(())
        })
    }

    fn notes<'a>(&'a self, game_id: &'a str) -> StoreFuture<'a, Vec<String>> {
        Box::pin(async move {
            let rows = self
                .run(false, |c| async move {
                    c.query(
                        "SELECT text FROM game_notes WHERE game_id = $1 ORDER BY wall_ms",
                        &[&game_id],
                    )
                    .await
                })
                .await?;
            rows.iter()
                .map(|r| r.try_get::<_, String>(0).map_err(StoreError::from))
                .collect()
        })
    }

    fn append_event_fenced<'a>(
        &'a self,
        game_id: &'a str,
        event: &'a StoredEvent,
        ended: Option<&'a str>,
        fence: &'a Fence,
    ) -> StoreFuture<'a, ()> {
        Box::pin(self.append(game_id, event, ended, Some(fence)))
    }

    fn checkpoint_fenced<'a>(
        &'a self,
        owner: &'a str,
        clocks: &'a [(Checkpoint, u64)],
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            if clocks.is_empty() {
                return Ok(());
            }
            let ids: Vec<&str> = clocks.iter().map(|(cp, _)| cp.id.as_str()).collect();
            let ms: Vec<i64> = clocks.iter().map(|(cp, _)| cp.game_ms).collect();
            let seen: Vec<i64> = clocks.iter().map(|(cp, _)| cp.events as i64).collect();
            let gens: Vec<i64> = clocks.iter().map(|(_, g)| *g as i64).collect();
            let (ids, ms, seen, gens) = (&ids, &ms, &seen, &gens);
            // Checkpoints only move forwards, and only the lease's holder moves them: a process
            // paused past its lease must not carry a game's time on by its pause.
            self.run(true, |c| async move {
                c.execute(
                    "UPDATE games AS g SET checkpoint_ms = GREATEST(g.checkpoint_ms, v.ms), \
                     events_seen = GREATEST(g.events_seen, v.seen) \
                     FROM UNNEST($1::text[], $2::bigint[], $3::bigint[], $4::bigint[]) \
                          AS v(id, ms, seen, generation), game_leases AS l \
                     WHERE g.id = v.id AND l.game_id = v.id AND l.owner = $5 \
                     AND l.generation = v.generation \
                     AND (g.checkpoint_ms < v.ms OR g.events_seen < v.seen)",
                    &[ids, ms, seen, gens, &owner],
                )
                .await
            })
            .await?;
            Ok(())
        })
    }
}

const LEASE_SELECT: &str = "SELECT game_id, owner, generation, \
     (EXTRACT(EPOCH FROM expires_at - clock_timestamp()) * 1000)::bigint FROM game_leases";

fn lease_from_row(r: &tokio_postgres::Row) -> Result<LeaseRow, StoreError> {
    Ok(LeaseRow {
        game_id: r.try_get(0)?,
        owner: r.try_get(1)?,
        generation: r.try_get::<_, i64>(2)? as u64,
        expires_in_ms: r.try_get(3)?,
    })
}
