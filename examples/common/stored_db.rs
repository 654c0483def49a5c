//! The stored endgame database an example is pointed at, read the one way
//! the draughts examples read it.

use tallyho::engines::draughts::store::EndgameStore;
use tallyho::games::draughts::Setup;
use tallyho::games::draughts::endgame::Endgame;

/// The database of `pieces` pieces stored in `dir`; when it is missing or
/// unreadable, says so and exits with `status`.
pub fn load_or_exit(dir: &str, pieces: u32, rules: Setup, status: i32) -> Endgame {
    match EndgameStore::new(dir).load(pieces, rules) {
        Ok(Some(db)) => db,
        Ok(None) => {
            eprintln!("{dir}: no {pieces}-piece database (draughts_build_db builds it)");
            std::process::exit(status);
        }
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(status);
        }
    }
}
