//! [`SeatStore`] on PostgreSQL. `link_seats` is one statement (so both rows or neither, and safe
//! to repeat after a lost connection): it inserts the rows only when no seat they name holds
//! another row, then the stored rows are read back and compared with those asked for.

use super::super::accounts::sql_limit;
use super::super::game_seats::{
    check_links, check_stored, AccountGame, SeatLink, SeatStore, SEAT_COLUMNS, S_SEAT_COLUMNS,
};
use super::super::{StoreError, StoreFuture};
use super::{game_from_row_at, PostgresStore, SELECT_COLUMNS};
use tokio_postgres::types::ToSql;
use tokio_postgres::Row;

fn link_from_row(r: &Row, at: usize) -> Result<SeatLink, StoreError> {
    let game_id: String = r.try_get(at)?;
    let seat: i32 = r.try_get(at + 1)?;
    Ok(SeatLink {
        seat: u8::try_from(seat).map_err(|_| {
            StoreError::Other(format!(
                "game {game_id}: a stored seat {seat} is unreadable"
            ))
        })?,
        game_id,
        account_id: r.try_get(at + 2)?,
        rated: r.try_get(at + 3)?,
        event: r.try_get(at + 4)?,
        correspondence: r.try_get(at + 5)?,
        category: r.try_get(at + 6)?,
        created_ms: r.try_get(at + 7)?,
    })
}

/// The games' columns of the table aliased `g`, after a seat's.
fn g_columns() -> String {
    SELECT_COLUMNS
        .split(',')
        .map(|c| format!("g.{}", c.trim()))
        .collect::<Vec<_>>()
        .join(", ")
}

impl PostgresStore {
    async fn seats(&self, game_id: &str) -> Result<Vec<SeatLink>, StoreError> {
        let sql = format!("SELECT {SEAT_COLUMNS} FROM game_seats WHERE game_id = $1 ORDER BY seat");
        let sql = sql.as_str();
        let rows = self
            .run(false, |c| async move { c.query(sql, &[&game_id]).await })
            .await?;
        rows.iter().map(|r| link_from_row(r, 0)).collect()
    }
}

impl SeatStore for PostgresStore {
    fn link_seats<'a>(&'a self, links: &'a [SeatLink]) -> StoreFuture<'a, ()> {
        Box::pin(async move {
            check_links(links)?;
            let seats: Vec<i32> = links.iter().map(|l| i32::from(l.seat)).collect();
            let mut params: Vec<&(dyn ToSql + Sync)> = Vec::new();
            let mut values = Vec::new();
            for (i, l) in links.iter().enumerate() {
                let n = params.len();
                values.push(format!(
                    "(${}::text, ${}::integer, ${}::bigint, ${}::boolean, ${}::boolean, \
                     ${}::boolean, ${}::text, ${}::bigint)",
                    n + 1,
                    n + 2,
                    n + 3,
                    n + 4,
                    n + 5,
                    n + 6,
                    n + 7,
                    n + 8
                ));
                params.extend_from_slice(&[
                    &l.game_id,
                    &seats[i],
                    &l.account_id,
                    &l.rated,
                    &l.event,
                    &l.correspondence,
                    &l.category,
                    &l.created_ms,
                ]);
            }
            // A seat already holding a row that differs: nothing is inserted (the comparison
            // after says which).
            let sql = format!(
                "WITH v ({SEAT_COLUMNS}) AS (VALUES {}), \
                 clash AS (SELECT 1 FROM v JOIN game_seats AS s \
                     ON s.game_id = v.game_id AND s.seat = v.seat \
                     WHERE (s.account_id, s.rated, s.event, s.correspondence, s.category, \
                            s.created_ms) IS DISTINCT FROM \
                           (v.account_id, v.rated, v.event, v.correspondence, v.category, \
                            v.created_ms)) \
                 INSERT INTO game_seats ({SEAT_COLUMNS}) \
                 SELECT {SEAT_COLUMNS} FROM v WHERE NOT EXISTS (SELECT 1 FROM clash) \
                 ON CONFLICT (game_id, seat) DO NOTHING",
                values.join(", ")
            );
            let (sql, params) = (sql.as_str(), params.as_slice());
            self.run(true, |c| async move { c.execute(sql, params).await })
                .await?;
            let stored = self.seats(&links[0].game_id).await?;
            check_stored(links, &stored)
        })
    }

    fn seats_of_game<'a>(&'a self, game_id: &'a str) -> StoreFuture<'a, Vec<SeatLink>> {
        Box::pin(async move { self.seats(game_id).await })
    }

    fn games_of_account(&self, account_id: i64, limit: usize) -> StoreFuture<'_, Vec<AccountGame>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT {S_SEAT_COLUMNS}, {} FROM game_seats AS s \
                 JOIN games AS g ON g.id = s.game_id WHERE s.account_id = $1 \
                 ORDER BY s.created_ms DESC, s.game_id DESC LIMIT $2",
                g_columns()
            );
            let (sql, limit) = (sql.as_str(), sql_limit(limit));
            let rows = self
                .run(false, |c| async move {
                    c.query(sql, &[&account_id, &limit]).await
                })
                .await?;
            let mut out = Vec::with_capacity(rows.len());
            for r in &rows {
                let link = link_from_row(r, 0)?;
                // A damaged game row is left out (it is reported at start-up).
                if let Ok(game) = game_from_row_at(r, 8) {
                    out.push(AccountGame { link, game });
                }
            }
            Ok(out)
        })
    }

    fn unfinished_games_of_account(&self, account_id: i64) -> StoreFuture<'_, Vec<SeatLink>> {
        Box::pin(async move {
            let sql = format!(
                "SELECT {S_SEAT_COLUMNS} FROM game_seats AS s \
                 JOIN games AS g ON g.id = s.game_id \
                 WHERE s.account_id = $1 AND g.status = 'live' \
                 ORDER BY s.created_ms, s.game_id"
            );
            let sql = sql.as_str();
            let rows = self
                .run(false, |c| async move { c.query(sql, &[&account_id]).await })
                .await?;
            rows.iter().map(|r| link_from_row(r, 0)).collect()
        })
    }

    fn unrated_ended_games(&self, limit: usize) -> StoreFuture<'_, Vec<String>> {
        Box::pin(async move {
            let limit = sql_limit(limit);
            let rows = self
                .run(false, |c| async move {
                    c.query(
                        "SELECT g.id FROM games AS g WHERE g.status = 'ended' \
                         AND (SELECT count(*) FROM game_seats AS s \
                              WHERE s.game_id = g.id AND s.rated) = 2 \
                         AND EXISTS (SELECT 1 FROM game_seats AS s WHERE s.game_id = g.id \
                              AND NOT EXISTS (SELECT 1 FROM rating_history AS h \
                                  WHERE h.account_id = s.account_id \
                                  AND h.category = s.category AND h.game_id = s.game_id)) \
                         ORDER BY g.ended_at_ms, g.id LIMIT $1",
                        &[&limit],
                    )
                    .await
                })
                .await?;
            rows.iter()
                .map(|r| Ok(r.try_get::<_, String>(0)?))
                .collect()
        })
    }
}
