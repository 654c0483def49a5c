//! The solved game (being written).
