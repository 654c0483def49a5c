//! The ssh door. (Being written.)
