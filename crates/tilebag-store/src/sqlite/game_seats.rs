//! [`SeatStore`] on SQLite: through the store's one connection, so reading a game's seats and
//! writing the missing ones in one write (its own savepoint) cannot interleave with another.

use super::super::accounts::sql_limit;
use super::super::game_seats::{
    check_links, check_stored, AccountGame, SeatLink, SeatStore, SEAT_COLUMNS, S_SEAT_COLUMNS,
};
use super::super::StoreFuture;
use super::{game_from_row_at, SqliteStore, SELECT_COLUMNS};
use rusqlite::{params, Connection, Row};

fn link_from_row(r: &Row<'_>, at: usize) -> rusqlite::Result<SeatLink> {
    Ok(SeatLink {
        game_id: r.get(at)?,
        seat: r.get(at + 1)?,
        account_id: r.get(at + 2)?,
        rated: r.get(at + 3)?,
        event: r.get(at + 4)?,
        correspondence: r.get(at + 5)?,
        category: r.get(at + 6)?,
        created_ms: r.get(at + 7)?,
    })
}

fn seats(c: &Connection, game_id: &str) -> rusqlite::Result<Vec<SeatLink>> {
    c.prepare_cached(&format!(
        "SELECT {SEAT_COLUMNS} FROM game_seats WHERE game_id = ?1 ORDER BY seat"
    ))?
    .query_map([game_id], |r| link_from_row(r, 0))?
    .collect()
}

/// The games' columns of the table aliased `g`, after a seat's.
fn g_columns() -> String {
    SELECT_COLUMNS
        .split(',')
        .map(|c| format!("g.{}", c.trim()))
        .collect::<Vec<_>>()
        .join(", ")
}

impl SeatStore for SqliteStore {
    fn link_seats<'a>(&'a self, links: &'a [SeatLink]) -> StoreFuture<'a, ()> {
        if let Err(e) = check_links(links) {
            return Box::pin(async move { Err(e) });
        }
        let rows = links.to_vec();
        let written = self.write_value(move |c| {
            // Nothing is written when a seat is held by another row: checked first, on the
            // one connection, so no other write comes between.
            let stored = seats(c, &rows[0].game_id)?;
            if let Err(e) = check_stored(
                &rows
                    .iter()
                    .filter(|l| stored.iter().any(|s| s.seat == l.seat))
                    .cloned()
                    .collect::<Vec<_>>(),
                &stored,
            ) {
                return Ok(Err(e));
            }
            let mut insert = c.prepare_cached(&format!(
                "INSERT INTO game_seats ({SEAT_COLUMNS}) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) \
                 ON CONFLICT (game_id, seat) DO NOTHING"
            ))?;
            for l in &rows {
                insert.execute(params![
                    l.game_id,
                    l.seat,
                    l.account_id,
                    l.rated,
                    l.event,
                    l.correspondence,
                    l.category,
                    l.created_ms
                ])?;
            }
            Ok(Ok(()))
        });
        Box::pin(async move { written.await? })
    }

    fn seats_of_game<'a>(&'a self, game_id: &'a str) -> StoreFuture<'a, Vec<SeatLink>> {
        let id = game_id.to_string();
        self.read(move |c| Ok(seats(c, &id)?))
    }

    fn games_of_account(&self, account_id: i64, limit: usize) -> StoreFuture<'_, Vec<AccountGame>> {
        self.read(move |c| {
            let rows = c
                .prepare_cached(&format!(
                    "SELECT {S_SEAT_COLUMNS}, {} FROM game_seats AS s \
                     JOIN games AS g ON g.id = s.game_id WHERE s.account_id = ?1 \
                     ORDER BY s.created_ms DESC, s.game_id DESC LIMIT ?2",
                    g_columns()
                ))?
                .query_map(params![account_id, sql_limit(limit)], |r| {
                    Ok((link_from_row(r, 0)?, game_from_row_at(r, 8)?))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            // A damaged game row is left out (it is reported at start-up).
            Ok(rows
                .into_iter()
                .filter_map(|(link, raw)| {
                    Some(AccountGame {
                        link,
                        game: raw.decode().ok()?,
                    })
                })
                .collect())
        })
    }

    fn unfinished_games_of_account(&self, account_id: i64) -> StoreFuture<'_, Vec<SeatLink>> {
        self.read(move |c| {
            Ok(c.prepare_cached(&format!(
                "SELECT {S_SEAT_COLUMNS} FROM game_seats AS s \
                 JOIN games AS g ON g.id = s.game_id \
                 WHERE s.account_id = ?1 AND g.status = 'live' \
                 ORDER BY s.created_ms, s.game_id"
            ))?
            .query_map([account_id], |r| link_from_row(r, 0))?
            .collect::<rusqlite::Result<_>>()?)
        })
    }

    fn unrated_ended_games(&self, limit: usize) -> StoreFuture<'_, Vec<String>> {
        self.read(move |c| {
            Ok(c.prepare_cached(
                "SELECT g.id FROM games AS g WHERE g.status = 'ended' \
                 AND (SELECT count(*) FROM game_seats AS s \
                      WHERE s.game_id = g.id AND s.rated) = 2 \
                 AND EXISTS (SELECT 1 FROM game_seats AS s WHERE s.game_id = g.id \
                      AND NOT EXISTS (SELECT 1 FROM rating_history AS h \
                          WHERE h.account_id = s.account_id AND h.category = s.category \
                          AND h.game_id = s.game_id)) \
                 ORDER BY g.ended_at_ms, g.id LIMIT ?1",
            )?
            .query_map([sql_limit(limit)], |r| r.get(0))?
            .collect::<rusqlite::Result<_>>()?)
        })
    }
}
