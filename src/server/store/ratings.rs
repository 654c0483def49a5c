//! Ratings: Glicko-2 through `skillratings`, one rating per player and
//! game, for accounts and for the server's computer levels.

use std::path::Path;

use rusqlite::{Connection, OptionalExtension, params};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2};

use super::{GameId, LEADERBOARD, PlayerRef, Rating, RatingRow, SeatInfo, StoreError, sql};

/// A rated player's rating, if they have one in this game.
pub(super) fn read_rating(
    conn: &Connection,
    player: &PlayerRef,
    game: &str,
) -> rusqlite::Result<Option<Rating>> {
    let row = |row: &rusqlite::Row<'_>| {
        Ok(Rating {
            rating: row.get(0)?,
            deviation: row.get(1)?,
            volatility: row.get(2)?,
            games: row.get(3)?,
        })
    };
    match player {
        PlayerRef::Account(id) => conn
            .query_row(
                "SELECT rating, deviation, volatility, games FROM account_ratings
                 WHERE account = ?1 AND game = ?2",
                params![id.0, game],
                row,
            )
            .optional(),
        PlayerRef::Computer { level } => conn
            .query_row(
                "SELECT rating, deviation, volatility, games FROM computer_ratings
                 WHERE level = ?1 AND game = ?2",
                params![level, game],
                row,
            )
            .optional(),
    }
}

/// Keeps a rated player's new rating.
pub(super) fn write_rating(
    conn: &Connection,
    player: &PlayerRef,
    game: &str,
    rating: &Rating,
) -> rusqlite::Result<()> {
    match player {
        PlayerRef::Account(id) => conn.execute(
            "INSERT INTO account_ratings (account, game, rating, deviation, volatility, games)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (account, game) DO UPDATE SET rating = excluded.rating,
                 deviation = excluded.deviation, volatility = excluded.volatility,
                 games = excluded.games",
            params![
                id.0,
                game,
                rating.rating,
                rating.deviation,
                rating.volatility,
                rating.games
            ],
        ),
        PlayerRef::Computer { level } => conn.execute(
            "INSERT INTO computer_ratings (level, game, rating, deviation, volatility, games)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)
             ON CONFLICT (level, game) DO UPDATE SET rating = excluded.rating,
                 deviation = excluded.deviation, volatility = excluded.volatility,
                 games = excluded.games",
            params![
                level,
                game,
                rating.rating,
                rating.deviation,
                rating.volatility,
                rating.games
            ],
        ),
    }
    .map(drop)
}

/// A rated player's name: the account's handle, or the level's name.
pub(super) fn player_name(conn: &Connection, player: &PlayerRef) -> rusqlite::Result<String> {
    match player {
        PlayerRef::Account(id) => {
            conn.query_row("SELECT handle FROM accounts WHERE id = ?1", [id.0], |row| {
                row.get(0)
            })
        }
        PlayerRef::Computer { level } => Ok(level.clone()),
    }
}

/// Glicko-2 after one game between `one` and `two`, from `one`'s side.
pub(super) fn rate(one: &Rating, two: &Rating, outcome: Outcomes) -> (Rating, Rating) {
    let glicko = |r: &Rating| Glicko2Rating {
        rating: r.rating,
        deviation: r.deviation,
        volatility: r.volatility,
    };
    let (a, b) = glicko2(&glicko(one), &glicko(two), &outcome, &Glicko2Config::new());
    let back = |g: Glicko2Rating, before: &Rating| Rating {
        rating: g.rating,
        deviation: g.deviation,
        volatility: g.volatility,
        games: before.games.saturating_add(1),
    };
    (back(a, one), back(b, two))
}

/// The players a finished game rates, with the outcome from the first's
/// side; `None` when it rates nobody.
pub(super) fn rated_pair(
    id: GameId,
    seats: &[SeatInfo; 2],
    winner: Option<&str>,
) -> Result<Option<(PlayerRef, PlayerRef, Outcomes)>, StoreError> {
    let (Some(one), Some(two)) = (&seats[0].player, &seats[1].player) else {
        return Ok(None);
    };
    let people = [one, two]
        .iter()
        .filter(|p| matches!(p, PlayerRef::Account(_)))
        .count();
    if people == 0 || one == two {
        return Ok(None);
    }
    let outcome = match winner {
        None => Outcomes::DRAW,
        Some(side) => match (seats[0].side == side, seats[1].side == side) {
            (true, false) => Outcomes::WIN,
            (false, true) => Outcomes::LOSS,
            _ => {
                return Err(StoreError::Winner {
                    game: id,
                    winner: side.to_string(),
                });
            }
        },
    };
    Ok(Some((one.clone(), two.clone(), outcome)))
}

/// The leaderboard query: see [`super::Store::ratings`].
pub(super) fn leaderboard(
    conn: &Connection,
    db: &Path,
    game: Option<&str>,
) -> Result<Vec<RatingRow>, StoreError> {
    let mut statement = conn
        .prepare_cached(
            "SELECT name, computer, game, rating, deviation, volatility, games FROM (
                 SELECT *, row_number() OVER
                     (PARTITION BY game ORDER BY rating DESC, name) AS place
                 FROM (
                     SELECT a.handle AS name, 0 AS computer, r.game, r.rating,
                            r.deviation, r.volatility, r.games
                     FROM account_ratings r JOIN accounts a ON a.id = r.account
                     WHERE ?1 IS NULL OR r.game = ?1
                     UNION ALL
                     SELECT level, 1, game, rating, deviation, volatility, games
                     FROM computer_ratings WHERE ?1 IS NULL OR game = ?1))
             WHERE place <= ?2
             ORDER BY game, rating DESC, name",
        )
        .map_err(sql(db, "read the ratings"))?;
    let rows = statement
        .query_map(params![game, LEADERBOARD], |row| {
            Ok(RatingRow {
                name: row.get(0)?,
                computer: row.get(1)?,
                game: row.get(2)?,
                rating: Rating {
                    rating: row.get(3)?,
                    deviation: row.get(4)?,
                    volatility: row.get(5)?,
                    games: row.get(6)?,
                },
            })
        })
        .and_then(|rows| rows.collect::<Result<Vec<_>, _>>())
        .map_err(sql(db, "read the ratings"))?;
    Ok(rows)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use crate::server::store::AccountId;

    fn seat(side: &str, player: Option<PlayerRef>) -> SeatInfo {
        SeatInfo {
            handle: String::new(),
            side: side.to_string(),
            player,
        }
    }

    #[test]
    fn the_outcome_is_read_from_the_first_seats_side() {
        let ann = Some(PlayerRef::Account(AccountId(1)));
        let bob = Some(PlayerRef::Account(AccountId(2)));
        let seats = [seat("fox", ann.clone()), seat("hounds", bob.clone())];
        let outcome = |winner| {
            rated_pair(GameId(1), &seats, winner)
                .unwrap()
                .map(|(_, _, o)| o)
        };
        assert_eq!(outcome(Some("fox")), Some(Outcomes::WIN));
        assert_eq!(outcome(Some("hounds")), Some(Outcomes::LOSS));
        assert_eq!(outcome(None), Some(Outcomes::DRAW));
        assert!(rated_pair(GameId(1), &seats, Some("geese")).is_err());
        let same = [seat("fox", ann.clone()), seat("fox", bob)];
        assert!(rated_pair(GameId(1), &same, Some("fox")).is_err());
        let guest = [seat("fox", ann), seat("hounds", None)];
        assert!(
            rated_pair(GameId(1), &guest, Some("fox"))
                .unwrap()
                .is_none()
        );
    }

    #[test]
    fn glicko2_moves_a_win_and_counts_the_game() {
        let start = Rating::default();
        let (win, loss) = rate(&start, &start, Outcomes::WIN);
        assert!(win.rating > 1500.0 && loss.rating < 1500.0);
        assert_eq!((win.games, loss.games), (1, 1));
    }
}
