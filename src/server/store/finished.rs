//! Finished games: kept in the database with their rating changes, then
//! in `history.jsonl`; and on start, the log given what it missed.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};
use skillratings::Outcomes;

use super::error::log_failure;
use super::games::{not_in_progress, parse_record, seats_of};
use super::ratings::{player_name, rate, rated_pair, read_rating, write_rating};
use super::{AccountId, GameId, PlayerRef, Rating, SeatInfo, StoreError, Unseen, sql};
use crate::shell::log::{Log, Record, warn};

/// The first half of finishing a game, in the writer: keeps the finished
/// game, drops it from the games in progress, moves the ratings.
pub(super) fn keep_finished(
    conn: &Connection,
    db: &Path,
    id: GameId,
    record: &Record,
    rated: bool,
) -> Result<Vec<(String, Rating, Rating)>, StoreError> {
    let game: Option<String> = conn
        .query_row("SELECT game FROM games WHERE id = ?1", [id.0], |row| {
            row.get(0)
        })
        .optional()
        .map_err(sql(db, "look up a game"))?;
    let game = game.ok_or_else(|| not_in_progress(conn, db, id))?;
    let seats = seats_of(conn, db, id)?;
    let pair = if rated {
        rated_pair(id, &seats, record.outcome.winner.as_deref())?
    } else {
        None
    };
    let changes = match pair {
        Some((one, two, outcome)) => move_ratings(conn, db, &game, [one, two], outcome)?,
        None => Vec::new(),
    };
    let json = serde_json::to_string(record).map_err(|e| StoreError::Unreadable {
        path: db.to_path_buf(),
        what: format!("game {id}'s record"),
        detail: e.to_string(),
    })?;
    let ratings_json = serde_json::Value::Array(
        changes
            .iter()
            .map(|(name, before, after)| {
                serde_json::json!({
                    "name": name,
                    "before": [before.rating, before.deviation, before.volatility, before.games],
                    "after": [after.rating, after.deviation, after.volatility, after.games],
                })
            })
            .collect(),
    )
    .to_string();
    let account = |seat: &SeatInfo| match &seat.player {
        Some(PlayerRef::Account(id)) => Some(id.0),
        _ => None,
    };
    conn.execute(
        "INSERT INTO finished (id, game, ended, rated, account0, account1, record, ratings)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        params![
            id.0,
            game,
            record.date,
            !changes.is_empty(),
            account(&seats[0]),
            account(&seats[1]),
            json,
            ratings_json
        ],
    )
    .map_err(sql(db, "keep a finished game"))?;
    conn.execute_batch(&format!(
        "DELETE FROM moves WHERE game = {0}; DELETE FROM seats WHERE game = {0};
         DELETE FROM games WHERE id = {0};",
        id.0
    ))
    .map_err(sql(db, "drop a finished game from the games in progress"))?;
    Ok(changes)
}

/// Moves the ratings of a rated game's two players in `game`: each one's
/// name, rating before and after.
fn move_ratings(
    conn: &Connection,
    db: &Path,
    game: &str,
    players: [PlayerRef; 2],
    outcome: Outcomes,
) -> Result<Vec<(String, Rating, Rating)>, StoreError> {
    let [one, two] = players;
    let rating_sql = sql(db, "move the players' ratings");
    let before_one = read_rating(conn, &one, game)
        .map_err(&rating_sql)?
        .unwrap_or_default();
    let before_two = read_rating(conn, &two, game)
        .map_err(&rating_sql)?
        .unwrap_or_default();
    let (after_one, after_two) = rate(&before_one, &before_two, outcome);
    write_rating(conn, &one, game, &after_one).map_err(&rating_sql)?;
    write_rating(conn, &two, game, &after_two).map_err(&rating_sql)?;
    Ok(vec![
        (
            player_name(conn, &one).map_err(&rating_sql)?,
            before_one,
            after_one,
        ),
        (
            player_name(conn, &two).map_err(&rating_sql)?,
            before_two,
            after_two,
        ),
    ])
}

/// The second half: where the log put the game, or why it could not.
pub(super) fn note_logged(
    conn: &Connection,
    db: &Path,
    id: GameId,
    number: Option<u64>,
    error: Option<String>,
) -> Result<(), StoreError> {
    let number = number.and_then(|n| i64::try_from(n).ok());
    conn.execute(
        "UPDATE finished SET log_number = ?2, log_error = ?3 WHERE id = ?1",
        params![id.0, number, error],
    )
    .map_err(sql(db, "note a finished game's number in the game log"))
    .map(drop)
}

/// On open: appends to the log every finished game it has not taken (the
/// server stopped between the two writes, or the log failed), unless it is
/// there already. A log that cannot be read or written is warned about;
/// the games it did not take are returned, oldest first, to try again.
pub(super) fn relog(
    conn: &Connection,
    db: &Path,
    log: &Log,
) -> Result<Vec<(GameId, Record)>, StoreError> {
    let mut statement = conn
        .prepare("SELECT id, record FROM finished WHERE log_number IS NULL ORDER BY id")
        .map_err(sql(db, "read the games the log has not taken"))?;
    let rows = statement
        .query_map([], |row| {
            Ok((row.get::<_, i64>(0)?, row.get::<_, String>(1)?))
        })
        .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
        .map_err(sql(db, "read the games the log has not taken"))?;
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let mut waiting: Vec<(GameId, Record, Option<u64>)> = Vec::new();
    for (id, json) in rows {
        match parse_record(db, GameId(id), &json) {
            Ok(record) => waiting.push((GameId(id), record, None)),
            Err(e) => warn(&e.to_string()),
        }
    }
    // Which of them the log has already: the server stopped after
    // appending but before noting the number.
    match log.stream() {
        Ok(mut records) => loop {
            match records.next_record() {
                Ok(Some(found)) => {
                    let bare = Record {
                        number: 0,
                        ..found.clone()
                    };
                    if let Some(entry) = waiting
                        .iter_mut()
                        .find(|(_, record, number)| number.is_none() && *record == bare)
                    {
                        entry.2 = Some(found.number);
                    }
                }
                Ok(None) => break,
                Err(e) => {
                    warn(&format!("finished games wait for the game log: {e}"));
                    return Ok(unlogged(waiting));
                }
            }
        },
        Err(e) => {
            warn(&format!("finished games wait for the game log: {e}"));
            return Ok(unlogged(waiting));
        }
    }
    let mut left = Vec::new();
    for (id, record, number) in waiting {
        // Once one is not taken, the rest wait behind it, in order.
        if !left.is_empty() && number.is_none() {
            left.push((id, record));
            continue;
        }
        let (number, error) = match number {
            Some(number) => (Some(number), None),
            None => match log.append(&record, &mut || ()) {
                Ok(number) => (Some(number), None),
                Err(e) => {
                    let said = log_failure(&e);
                    warn(&format!("game {id}: {said}"));
                    left.push((id, record));
                    (None, Some(said))
                }
            },
        };
        note_logged(conn, db, id, number, error)?;
    }
    Ok(left)
}

/// The games of `waiting` the log has not taken, oldest first.
fn unlogged(waiting: Vec<(GameId, Record, Option<u64>)>) -> Vec<(GameId, Record)> {
    waiting
        .into_iter()
        .filter(|(_, _, number)| number.is_none())
        .map(|(id, record, _)| (id, record))
        .collect()
}

/// An account's last `limit` finished games: see [`super::Store::history`].
pub(super) fn history_of(
    conn: &Connection,
    db: &Path,
    account: AccountId,
    limit: i64,
) -> Result<Vec<Record>, StoreError> {
    let mut statement = conn
        .prepare_cached(
            "SELECT id, record, log_number FROM finished
             WHERE account0 = ?1 OR account1 = ?1 ORDER BY id DESC LIMIT ?2",
        )
        .map_err(sql(db, "read an account's games"))?;
    let rows = statement
        .query_map(params![account.0, limit], |row| {
            Ok((
                row.get::<_, i64>(0)?,
                row.get::<_, String>(1)?,
                row.get::<_, Option<i64>>(2)?,
            ))
        })
        .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
        .map_err(sql(db, "read an account's games"))?;
    let mut records = Vec::with_capacity(rows.len());
    for (id, json, number) in rows.into_iter().rev() {
        let mut record = parse_record(db, GameId(id), &json)?;
        record.number = number.and_then(|n| u64::try_from(n).ok()).unwrap_or(0);
        records.push(record);
    }
    Ok(records)
}

/// The endings of an account's games it has not been told of: see
/// [`super::Store::take_unseen`].
pub(super) fn take_unseen(
    conn: &Connection,
    db: &Path,
    account: AccountId,
) -> Result<Vec<Unseen>, StoreError> {
    let read = sql(db, "read the endings a player has not seen");
    let rows = conn
        .prepare_cached(
            "SELECT f.id, f.record, f.ratings, f.log_number FROM unseen u
             JOIN finished f ON f.id = u.game WHERE u.account = ?1 ORDER BY f.id",
        )
        .and_then(|mut statement| {
            statement
                .query_map([account.0], |row| {
                    Ok((
                        row.get::<_, i64>(0)?,
                        row.get::<_, String>(1)?,
                        row.get::<_, String>(2)?,
                        row.get::<_, Option<i64>>(3)?,
                    ))
                })
                .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
        })
        .map_err(&read)?;
    // Only those read: an ending still waiting to be stored stays unseen.
    conn.execute(
        "DELETE FROM unseen WHERE account = ?1 AND game IN (SELECT id FROM finished)",
        [account.0],
    )
    .map_err(sql(db, "forget the endings a player has now seen"))?;
    let mut unseen = Vec::with_capacity(rows.len());
    for (id, json, ratings, number) in rows {
        let mut record = parse_record(db, GameId(id), &json)?;
        record.number = number.and_then(|n| u64::try_from(n).ok()).unwrap_or(0);
        unseen.push(Unseen {
            game: GameId(id),
            record,
            ratings: ratings_said(&ratings),
        });
    }
    Ok(unseen)
}

/// The rating changes kept with a finished game, as its players were told
/// them; none if the column cannot be read.
fn ratings_said(json: &str) -> Vec<(String, f64, f64)> {
    let Ok(serde_json::Value::Array(changes)) = serde_json::from_str::<serde_json::Value>(json)
    else {
        return Vec::new();
    };
    changes
        .iter()
        .filter_map(|change| {
            let name = change.get("name")?.as_str()?.to_string();
            let before = change.get("before")?.get(0)?.as_f64()?;
            let after = change.get("after")?.get(0)?.as_f64()?;
            Some((name, before, after))
        })
        .collect()
}
