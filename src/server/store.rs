//! The server's store: accounts, ratings, games in progress and finished
//! games, in SQLite, written by one thread. (Being written.)
