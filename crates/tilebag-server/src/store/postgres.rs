//! PostgreSQL (no TLS: for a database on the same host or a private network). One client,
//! shared: tokio-postgres pipelines concurrent queries over the connection. Each write is a
//! single statement, hence atomic without an explicit transaction; with the default
//! `synchronous_commit = on` it is durable when it returns.

use super::{
    decode_bot, decode_event, decode_ruleset, encode_bot, encode_event, encode_ruleset, GameRecord,
    GameStatus, StoreError, StoreFuture, StoredEvent,
};
use tokio_postgres::{Client, NoTls, Row};

pub struct PostgresStore {
    client: Client,
}

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS games (
    id            TEXT PRIMARY KEY,
    seat0_token   TEXT NOT NULL,
    seat1_token   TEXT NOT NULL,
    player0       TEXT NOT NULL,
    player1       TEXT NOT NULL,
    preset        TEXT NOT NULL,
    ruleset_json  TEXT NOT NULL,
    seed          BIGINT NOT NULL,
    lexicon       TEXT NOT NULL,
    created_at_ms BIGINT NOT NULL,
    status        TEXT NOT NULL DEFAULT 'live',
    result_json   TEXT,
    ended_at_ms   BIGINT,
    checkpoint_ms BIGINT NOT NULL DEFAULT 0
);
ALTER TABLE games ADD COLUMN IF NOT EXISTS bot_json TEXT;
CREATE INDEX IF NOT EXISTS games_status ON games (status);
CREATE INDEX IF NOT EXISTS games_created ON games (created_at_ms);
CREATE TABLE IF NOT EXISTS events (
    game_id    TEXT NOT NULL REFERENCES games (id),
    seq        BIGINT NOT NULL,
    at_ms      BIGINT NOT NULL,
    wall_ms    BIGINT NOT NULL,
    event_json TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
";

const GAME_COLUMNS: &str = "id, seat0_token, seat1_token, player0, player1, preset, ruleset_json, \
     seed, lexicon, created_at_ms, status, result_json, checkpoint_ms, bot_json";

impl PostgresStore {
    pub async fn connect(url: &str) -> Result<PostgresStore, StoreError> {
        let (client, connection) = tokio_postgres::connect(url, NoTls).await?;
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                eprintln!("tilebag-server: PostgreSQL connection lost: {e}");
            }
        });
        // Two servers starting at once must not race on CREATE TABLE IF NOT EXISTS.
        client
            .batch_execute(&format!(
                "SELECT pg_advisory_lock(7115); {SCHEMA} SELECT pg_advisory_unlock(7115);"
            ))
            .await?;
        Ok(PostgresStore { client })
    }
}

fn game_from_row(r: &Row) -> Result<GameRecord, StoreError> {
    let id: String = r.try_get(0)?;
    let ruleset_json: String = r.try_get(6)?;
    let status: String = r.try_get(10)?;
    Ok(GameRecord {
        ruleset: decode_ruleset(&id, &ruleset_json)?,
        tokens: [r.try_get(1)?, r.try_get(2)?],
        names: [r.try_get(3)?, r.try_get(4)?],
        preset: r.try_get(5)?,
        seed: r.try_get::<_, i64>(7)? as u64,
        lexicon: r.try_get(8)?,
        created_at_ms: r.try_get(9)?,
        status: GameStatus::parse(&status),
        result_json: r.try_get(11)?,
        checkpoint_ms: r.try_get(12)?,
        bot: decode_bot(&id, r.try_get(13)?)?,
        id,
    })
}

impl PostgresStore {
    async fn events(&self, id: &str) -> Result<Vec<StoredEvent>, StoreError> {
        let rows = self
            .client
            .query(
                "SELECT seq, wall_ms, event_json FROM events WHERE game_id = $1 ORDER BY seq",
                &[&id],
            )
            .await?;
        rows.iter()
            .map(|r| {
                let seq: i64 = r.try_get(0)?;
                let json: String = r.try_get(2)?;
                Ok(StoredEvent {
                    seq: seq as u64,
                    wall_ms: r.try_get(1)?,
                    event: decode_event(id, seq, &json)?,
                })
            })
            .collect()
    }
}

impl super::Store for PostgresStore {
    fn kind(&self) -> &'static str {
        "postgres"
    }

    fn create_game<'a>(&'a self, g: &'a GameRecord) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let ruleset = encode_ruleset(&g.ruleset);
            let seed = g.seed as i64;
            let bot = encode_bot(&g.bot);
            self.client
                .execute(
                    &format!(
                        "INSERT INTO games ({GAME_COLUMNS}) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)"
                    ),
                    &[
                        &g.id,
                        &g.tokens[0],
                        &g.tokens[1],
                        &g.names[0],
                        &g.names[1],
                        &g.preset,
                        &ruleset,
                        &seed,
                        &g.lexicon,
                        &g.created_at_ms,
                        &g.status.as_str(),
                        &g.result_json,
                        &g.checkpoint_ms,
                        &bot,
                    ],
                )
                .await?;
            Ok(())
        })
    }

    fn append_event<'a>(
        &'a self,
        game_id: &'a str,
        ev: &'a StoredEvent,
        ended: Option<&'a str>,
    ) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            let json = encode_event(&ev.event);
            let seq = ev.seq as i64;
            // One statement: the event and (when the game ends) its result, atomically.
            self.client
                .execute(
                    "WITH ins AS (INSERT INTO events (game_id, seq, at_ms, wall_ms, event_json) \
                                  VALUES ($1, $2, $3, $4, $5)) \
                     UPDATE games SET status = 'ended', result_json = $6, ended_at_ms = $4 \
                     WHERE id = $1 AND $6::text IS NOT NULL",
                    &[&game_id, &seq, &ev.event.at_ms, &ev.wall_ms, &json, &ended],
                )
                .await?;
            Ok(())
        })
    }

    fn checkpoint<'a>(&'a self, clocks: &'a [(String, i64)]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            if clocks.is_empty() {
                return Ok(());
            }
            let ids: Vec<&str> = clocks.iter().map(|(id, _)| id.as_str()).collect();
            let ms: Vec<i64> = clocks.iter().map(|(_, ms)| *ms).collect();
            self.client
                .execute(
                    "UPDATE games AS g SET checkpoint_ms = v.ms \
                     FROM UNNEST($1::text[], $2::bigint[]) AS v(id, ms) \
                     WHERE g.id = v.id AND g.checkpoint_ms < v.ms",
                    &[&ids, &ms],
                )
                .await?;
            Ok(())
        })
    }

    fn list_games(&self, limit: usize) -> StoreFuture<'_, Vec<GameRecord>> {
        Box::pin(async move {
            let rows = self
                .client
                .query(
                    &format!(
                        "SELECT {GAME_COLUMNS} FROM games ORDER BY created_at_ms DESC, id LIMIT $1"
                    ),
                    &[&(limit as i64)],
                )
                .await?;
            rows.iter().map(game_from_row).collect()
        })
    }

    fn load_game<'a>(
        &'a self,
        id: &'a str,
    ) -> StoreFuture<'a, Option<(GameRecord, Vec<StoredEvent>)>> {
        Box::pin(async move {
            let row = self
                .client
                .query_opt(
                    &format!("SELECT {GAME_COLUMNS} FROM games WHERE id = $1"),
                    &[&id],
                )
                .await?;
            let Some(row) = row else { return Ok(None) };
            let g = game_from_row(&row)?;
            let events = self.events(id).await?;
            Ok(Some((g, events)))
        })
    }

    fn load_unfinished(&self) -> StoreFuture<'_, Vec<(GameRecord, Vec<StoredEvent>)>> {
        Box::pin(async move {
            let rows = self
                .client
                .query(
                    &format!(
                        "SELECT {GAME_COLUMNS} FROM games WHERE status = 'live' \
                         ORDER BY created_at_ms"
                    ),
                    &[],
                )
                .await?;
            let mut out = Vec::new();
            for r in &rows {
                let g = game_from_row(r)?;
                let events = self.events(&g.id).await?;
                out.push((g, events));
            }
            Ok(out)
        })
    }
}
