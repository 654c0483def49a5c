//! Conversations a game brings whole, instead of the shell's match: the 1978
//! program's, whose order of questions is its own. Its words are the face's.

pub mod classic;
