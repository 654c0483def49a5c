//! Games in progress as kept: their seats, their moves, and why a game is
//! not there.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension};

use super::{AccountId, GameId, PlayerRef, SeatInfo, StoreError, StoredGame, sql};
use crate::shell::log::Record;

/// Refuses a seat's account that does not exist.
pub(super) fn account_exists(
    conn: &Connection,
    db: &Path,
    id: AccountId,
) -> Result<(), StoreError> {
    let found = conn
        .query_row("SELECT 1 FROM accounts WHERE id = ?1", [id.0], |_| Ok(()))
        .optional()
        .map_err(sql(db, "look up an account"))?;
    found.ok_or(StoreError::NoAccount(id))
}

/// Why a game is not in progress: finished, or never begun.
pub(super) fn not_in_progress(conn: &Connection, db: &Path, id: GameId) -> StoreError {
    let finished = conn
        .query_row("SELECT 1 FROM finished WHERE id = ?1", [id.0], |_| Ok(()))
        .optional();
    match finished {
        Ok(Some(())) => StoreError::AlreadyFinished(id),
        Ok(None) => StoreError::NoGame(id),
        Err(e) => StoreError::sqlite(db, "look up a game", e),
    }
}

/// How many moves a game in progress has kept.
pub(super) fn moves_stored(conn: &Connection, db: &Path, id: GameId) -> Result<u32, StoreError> {
    let count: Option<i64> = conn
        .query_row(
            "SELECT (SELECT count(*) FROM moves WHERE game = ?1) FROM games WHERE id = ?1",
            [id.0],
            |row| row.get(0),
        )
        .optional()
        .map_err(sql(db, "count a game's moves"))?;
    let count = count.ok_or_else(|| not_in_progress(conn, db, id))?;
    Ok(u32::try_from(count).unwrap_or(u32::MAX))
}

/// Reads a kept record.
pub(super) fn parse_record(db: &Path, id: GameId, json: &str) -> Result<Record, StoreError> {
    serde_json::from_str(json).map_err(|e| StoreError::Unreadable {
        path: db.to_path_buf(),
        what: format!("finished game {id}'s record"),
        detail: e.to_string(),
    })
}

/// A seat as kept.
pub(super) fn seat_of(
    handle: String,
    side: String,
    account: Option<i64>,
    level: Option<String>,
) -> SeatInfo {
    let player = match (account, level) {
        (Some(id), _) => Some(PlayerRef::Account(AccountId(id))),
        (None, Some(level)) => Some(PlayerRef::Computer { level }),
        (None, None) => None,
    };
    SeatInfo {
        handle,
        side,
        player,
    }
}

/// A game's two seats.
pub(super) fn seats_of(
    conn: &Connection,
    db: &Path,
    id: GameId,
) -> Result<[SeatInfo; 2], StoreError> {
    let mut statement = conn
        .prepare_cached(
            "SELECT handle, side, account, level FROM seats WHERE game = ?1 ORDER BY seat",
        )
        .map_err(sql(db, "read a game's seats"))?;
    let seats = statement
        .query_map([id.0], |row| {
            Ok(seat_of(row.get(0)?, row.get(1)?, row.get(2)?, row.get(3)?))
        })
        .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
        .map_err(sql(db, "read a game's seats"))?;
    <[SeatInfo; 2]>::try_from(seats).map_err(|seats| StoreError::Unreadable {
        path: db.to_path_buf(),
        what: format!("game {id}'s seats"),
        detail: format!("{} seats kept, not 2", seats.len()),
    })
}

/// Every game in progress, oldest first.
pub(super) fn unfinished_games(
    conn: &Connection,
    db: &Path,
) -> Result<Vec<StoredGame>, StoreError> {
    let mut statement = conn
        .prepare_cached(
            "SELECT id, game, flow, setup, start, rated, adjourned FROM games ORDER BY id",
        )
        .map_err(sql(db, "read the games in progress"))?;
    type Row = (i64, String, String, String, String, bool, bool);
    let rows: Vec<Row> = statement
        .query_map([], |row| {
            Ok((
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
                row.get(5)?,
                row.get(6)?,
            ))
        })
        .and_then(|rows| rows.collect())
        .map_err(sql(db, "read the games in progress"))?;
    let mut moves = conn
        .prepare_cached("SELECT notation FROM moves WHERE game = ?1 ORDER BY ply")
        .map_err(sql(db, "read a game's moves"))?;
    let mut games = Vec::with_capacity(rows.len());
    for (id, game, flow, setup, start, rated, adjourned) in rows {
        let id = GameId(id);
        let setup = serde_json::from_str(&setup).map_err(|e| StoreError::Unreadable {
            path: db.to_path_buf(),
            what: format!("game {id}'s setup"),
            detail: e.to_string(),
        })?;
        let seats = seats_of(conn, db, id)?;
        let moves = moves
            .query_map([id.0], |row| row.get(0))
            .and_then(|rows| rows.collect::<Result<Vec<String>, _>>())
            .map_err(sql(db, "read a game's moves"))?;
        games.push(StoredGame {
            id,
            game,
            flow,
            setup,
            start,
            seats,
            rated,
            moves,
            adjourned,
        });
    }
    Ok(games)
}
