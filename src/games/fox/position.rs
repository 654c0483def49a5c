//! A position: where the fox and the hounds stand and who moves next,
//! with the legal moves from it and the ending rules that judge it.
//!
//! Under the capture rules (the Python project's game) a piece may step onto
//! one of the other side: the fox eats a hound, a hound takes the fox. A
//! position then also says which hounds are left and whether the fox is
//! still on the board; see [`Rules::Capture`] for every choice made.

use std::fmt;
use std::str::FromStr;

use super::board::{Board, Square, squares};
use crate::games::names::UnknownChoice;

sides! {
    /// One of the two sides.
    pub enum Side {
        /// The single fox, moving diagonally either way.
        Fox = "fox" | "f",
        /// The hounds, moving diagonally forward only.
        Hounds = "hounds" | "hound" | "h",
    }
}

impl Side {
    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::Fox => Side::Hounds,
            Side::Hounds => Side::Fox,
        }
    }
}

/// The rules in force: how the game ends and, for `Capture`, how pieces move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Rules {
    /// The fox wins on reaching row 1; a side that cannot move loses.
    Standard,
    /// Standard, plus the coursework's early win when the fox has got past the hounds.
    #[default]
    Coursework,
    /// The early win replaces the row-1 rule (the published analyses' rule).
    Escape,
    /// The Python project's game. The fox steps one square diagonally either
    /// way onto an empty square or onto a hound, which it eats; a hound steps
    /// one square diagonally forward onto an empty square or onto the fox,
    /// which it takes. Nobody jumps. The fox wins on reaching row 1. The
    /// hounds win when they take the fox, or when the fox is boxed in: every
    /// square diagonally next to it on the board holds a hound, although it
    /// could eat one. That is checked after every move, as the project's code
    /// does; a fox that has just moved always has the square it left, so in
    /// play it only happens after a hound's move. A side to move with no move
    /// loses (the project's own code loops for ever there): with every hound
    /// eaten or stuck, the fox wins. The coursework's early win does not apply.
    /// The fox reaching row 1 comes first, eating a hound there too. Once the
    /// fox is taken the hounds stay where they stand, the capturer on the
    /// fox's square, and the position has no fox (`x` in notation).
    Capture,
}

impl Rules {
    /// Every rule set, in the order the documents introduce them.
    pub const ALL: [Rules; 4] = [
        Rules::Standard,
        Rules::Coursework,
        Rules::Escape,
        Rules::Capture,
    ];

    /// The name used on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            Rules::Standard => "standard",
            Rules::Coursework => "coursework",
            Rules::Escape => "escape",
            Rules::Capture => "capture",
        }
    }

    /// Whether a piece may step onto one of the other side and take it.
    pub const fn captures(self) -> bool {
        matches!(self, Rules::Capture)
    }

    /// Whether the fox wins on reaching row 1.
    pub(super) const fn row_one_wins(self) -> bool {
        !matches!(self, Rules::Escape)
    }

    /// Whether the coursework's early win (the fox out of every hound's reach) applies.
    pub(super) const fn early_win(self) -> bool {
        matches!(self, Rules::Coursework | Rules::Escape)
    }

    /// Whether a fox with a hound on every square next to it has lost.
    pub(super) const fn boxed_in_loses(self) -> bool {
        matches!(self, Rules::Capture)
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Rules {
    type Err = UnknownChoice;

    fn from_str(text: &str) -> Result<Rules, UnknownChoice> {
        Rules::ALL
            .into_iter()
            .find(|r| r.name().eq_ignore_ascii_case(text.trim()))
            .ok_or_else(|| UnknownChoice {
                text: text.to_string(),
                what: "rule set",
                names: &["standard", "coursework", "escape", "capture"],
            })
    }
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Ending {
    /// The fox reached row 1.
    FoxHome,
    /// The fox got past the hounds: it and a square next to it are out of every hound's reach.
    FoxEscaped,
    /// The fox, to move, had no move.
    FoxTrapped,
    /// The hounds, to move, had no move.
    HoundsStuck,
    /// A hound stepped onto the fox (capture rules).
    FoxCaptured,
    /// Every square next to the fox holds a hound (capture rules).
    FoxBoxedIn,
}

impl Ending {
    /// The side this ending gives the game to.
    pub const fn winner(self) -> Side {
        match self {
            Ending::FoxTrapped | Ending::FoxCaptured | Ending::FoxBoxedIn => Side::Hounds,
            Ending::FoxHome | Ending::FoxEscaped | Ending::HoundsStuck => Side::Fox,
        }
    }

    /// A short machine name, used in the game log.
    pub const fn name(self) -> &'static str {
        match self {
            Ending::FoxHome => "fox-home",
            Ending::FoxEscaped => "fox-escaped",
            Ending::FoxTrapped => "fox-trapped",
            Ending::HoundsStuck => "hounds-stuck",
            Ending::FoxCaptured => "fox-captured",
            Ending::FoxBoxedIn => "fox-boxed-in",
        }
    }
}

/// A move of one piece one square diagonally, onto an empty square or, under
/// the capture rules, onto a piece of the other side (see
/// [`Position::is_capture`]). Only the move generator makes them.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    from: Square,
    to: Square,
}

impl Move {
    /// Where the piece stood.
    pub const fn from(self) -> Square {
        self.from
    }

    /// Where the piece goes.
    pub const fn to(self) -> Square {
        self.to
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}-{}", self.from, self.to)
    }
}

/// At most eight legal moves: four hounds (ceil(8 / 2)) with two steps each, or a fox with four.
#[derive(Clone, Copy, Debug)]
pub struct MoveList {
    moves: [Move; 8],
    len: usize,
}

impl MoveList {
    fn new() -> MoveList {
        let none = Move {
            from: Square::new(0, 0),
            to: Square::new(0, 0),
        };
        MoveList {
            moves: [none; 8],
            len: 0,
        }
    }

    fn push(&mut self, from: Square, to: Square) {
        self.moves[self.len] = Move { from, to };
        self.len += 1;
    }

    /// The moves, in generation order: by piece square, then by destination.
    pub fn as_slice(&self) -> &[Move] {
        &self.moves[..self.len]
    }

    /// How many moves there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there is no move.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The moves as a vector.
    pub fn to_vec(&self) -> Vec<Move> {
        self.as_slice().to_vec()
    }
}

impl PartialEq for MoveList {
    fn eq(&self, other: &MoveList) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl Eq for MoveList {}

impl std::ops::Deref for MoveList {
    type Target = [Move];

    fn deref(&self) -> &[Move] {
        self.as_slice()
    }
}

/// Why a square cannot be the piece to move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PickError {
    /// Nothing can stand on a light square.
    Light(Square),
    /// Nothing stands there.
    Empty(Square),
    /// It is the fox, on the hounds' turn.
    Fox(Square),
    /// It is a hound, on the fox's turn.
    Hound(Square),
    /// The piece there has no legal move.
    Stuck(Square),
}

/// The fox's four diagonal steps, forward (toward row 1) first.
pub const FOX_STEPS: [(i8, i8); 4] = [(-1, -1), (1, -1), (-1, 1), (1, 1)];
/// The hounds' two forward steps.
pub const HOUND_STEPS: [(i8, i8); 2] = [(-1, 1), (1, 1)];

/// Where the fox and the hounds stand, on which board, and who moves next;
/// and whether pieces take each other (the capture rules), which decides the moves.
///
/// Without captures the fox and every hound are always on the board. With
/// them, the fox may have eaten hounds, and once a hound has taken the fox
/// there is no fox: the hounds stay where they stand.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    board: Board,
    fox: Option<Square>,
    hounds: u64,
    to_move: Side,
    captures: bool,
}

/// Why a placement is not a position of its board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlacementError {
    /// A piece on a square outside the board.
    OffBoard(Square),
    /// A piece on a light square.
    Light(Square),
    /// Two pieces on one square.
    Shared(Square),
    /// Not one hound per dark square of row 1.
    HoundCount {
        /// The hounds this board starts with.
        expected: usize,
        /// The hounds given.
        found: usize,
    },
    /// More hounds than the board starts with (capture rules).
    TooManyHounds {
        /// The hounds this board starts with.
        most: usize,
        /// The hounds given.
        found: usize,
    },
    /// The fox taken, under rules without captures.
    FoxCaptured,
    /// The fox taken, but no hound on the board to have taken it.
    NoCaptor,
}

impl fmt::Display for PlacementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlacementError::OffBoard(sq) => write!(f, "{sq} is off the board"),
            PlacementError::Light(sq) => {
                write!(
                    f,
                    "{sq} is a light square: pieces stand only on dark squares"
                )
            }
            PlacementError::Shared(sq) => write!(f, "two pieces stand on {sq}"),
            PlacementError::HoundCount { expected, found } => {
                write!(f, "this board needs {expected} hounds, not {found}")
            }
            PlacementError::TooManyHounds { most, found } => {
                write!(f, "this board has at most {most} hounds, not {found}")
            }
            PlacementError::FoxCaptured => write!(
                f,
                "x stands for a captured fox: only the capture rules take pieces"
            ),
            PlacementError::NoCaptor => write!(
                f,
                "the fox is captured (x), so a hound must stand where it was taken"
            ),
        }
    }
}

impl Position {
    /// The start position without captures: hounds on row 1, the fox on
    /// `fox`, `first` to move. See [`Position::start_under`] for the capture rules.
    pub fn start(board: Board, fox: Square, first: Side) -> Result<Position, PlacementError> {
        Position::start_under(board, Rules::Standard, fox, first)
    }

    /// The start position under `rules`: hounds on row 1, the fox on `fox`, `first` to move.
    pub fn start_under(
        board: Board,
        rules: Rules,
        fox: Square,
        first: Side,
    ) -> Result<Position, PlacementError> {
        Position::new_under(
            board,
            rules,
            Some(fox),
            squares(board.hounds_start()),
            first,
        )
    }

    /// A position without captures from explicit squares, checked against the
    /// board: the fox and one hound for every dark square of row 1.
    pub fn new(
        board: Board,
        fox: Square,
        hounds: impl IntoIterator<Item = Square>,
        to_move: Side,
    ) -> Result<Position, PlacementError> {
        Position::new_under(board, Rules::Standard, Some(fox), hounds, to_move)
    }

    /// A position under `rules` from explicit squares, checked against the
    /// board. Without captures the fox (`Some`) and every hound must be there;
    /// with them, any number of hounds up to the start's, and `None` for a fox
    /// a hound has taken.
    pub fn new_under(
        board: Board,
        rules: Rules,
        fox: Option<Square>,
        hounds: impl IntoIterator<Item = Square>,
        to_move: Side,
    ) -> Result<Position, PlacementError> {
        let check = |sq: Square| {
            if !board.contains(sq) {
                Err(PlacementError::OffBoard(sq))
            } else if !board.is_dark(sq) {
                Err(PlacementError::Light(sq))
            } else {
                Ok(())
            }
        };
        if let Some(fox) = fox {
            check(fox)?;
        } else if !rules.captures() {
            return Err(PlacementError::FoxCaptured);
        }
        let mut mask = 0u64;
        let mut found = 0;
        for sq in hounds {
            check(sq)?;
            if Some(sq) == fox || mask & sq.bit() != 0 {
                return Err(PlacementError::Shared(sq));
            }
            mask |= sq.bit();
            found += 1;
        }
        let most = board.hound_count();
        if rules.captures() {
            if found > most {
                return Err(PlacementError::TooManyHounds { most, found });
            }
            if fox.is_none() && found == 0 {
                return Err(PlacementError::NoCaptor);
            }
        } else if found != most {
            return Err(PlacementError::HoundCount {
                expected: most,
                found,
            });
        }
        Ok(Position {
            board,
            fox,
            hounds: mask,
            to_move,
            captures: rules.captures(),
        })
    }

    /// The same placement and side to move under other rules, if it is a
    /// position of theirs: a position from a capture game with a hound eaten
    /// or the fox taken is not one of the other rules'.
    pub fn under(&self, rules: Rules) -> Result<Position, PlacementError> {
        Position::new_under(self.board, rules, self.fox, self.hounds(), self.to_move)
    }

    /// The board this position is on.
    pub const fn board(&self) -> Board {
        self.board
    }

    /// Whether pieces take each other by stepping onto them (the capture rules).
    pub const fn captures(&self) -> bool {
        self.captures
    }

    /// The fox's square, or `None` once a hound has taken it (capture rules).
    pub const fn fox(&self) -> Option<Square> {
        self.fox
    }

    /// How many hounds are on the board.
    pub const fn hound_count(&self) -> usize {
        self.hounds.count_ones() as usize
    }

    /// The hounds' squares as a bit mask (bit `row * 8 + col`).
    pub const fn hound_mask(&self) -> u64 {
        self.hounds
    }

    /// The hounds' squares, lowest first.
    pub fn hounds(&self) -> impl Iterator<Item = Square> {
        squares(self.hounds)
    }

    /// The side to move.
    pub const fn to_move(&self) -> Side {
        self.to_move
    }

    /// The piece on a square, if any.
    pub fn piece_at(&self, sq: Square) -> Option<Side> {
        if Some(sq) == self.fox {
            Some(Side::Fox)
        } else if self.hounds & sq.bit() != 0 {
            Some(Side::Hounds)
        } else {
            None
        }
    }

    fn fox_mask(&self) -> u64 {
        self.fox.map_or(0, Square::bit)
    }

    /// The legal moves of the piece on `from`, whoever's turn it is.
    fn moves_from(&self, from: Square, list: &mut MoveList) {
        let (steps, prey): (&[(i8, i8)], u64) = if Some(from) == self.fox {
            (&FOX_STEPS, self.hounds)
        } else {
            (&HOUND_STEPS, self.fox_mask())
        };
        // Own pieces always block; the other side's only without captures.
        let blocked = (self.hounds | self.fox_mask()) & !if self.captures { prey } else { 0 };
        for &(dc, dr) in steps {
            if let Some(to) = self.board.offset(from, dc, dr)
                && blocked & to.bit() == 0
            {
                list.push(from, to);
            }
        }
    }

    /// Every legal move of the side to move, ignoring whether the game is over.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        match self.to_move {
            Side::Fox => {
                if let Some(fox) = self.fox {
                    self.moves_from(fox, &mut list);
                }
            }
            Side::Hounds => {
                for hound in self.hounds() {
                    self.moves_from(hound, &mut list);
                }
            }
        }
        list
    }

    /// The squares of the pieces that can move, lowest first.
    pub fn movable_pieces(&self) -> Vec<Square> {
        let mut pieces: Vec<Square> = self.legal_moves().iter().map(|m| m.from()).collect();
        pieces.dedup();
        pieces
    }

    /// The legal moves of the piece on `sq`, or why it cannot be the piece to move.
    pub fn pick(&self, sq: Square) -> Result<MoveList, PickError> {
        if !self.board.is_dark(sq) {
            return Err(PickError::Light(sq));
        }
        match (self.piece_at(sq), self.to_move) {
            (None, _) => return Err(PickError::Empty(sq)),
            (Some(Side::Fox), Side::Hounds) => return Err(PickError::Fox(sq)),
            (Some(Side::Hounds), Side::Fox) => return Err(PickError::Hound(sq)),
            _ => {}
        }
        let mut list = MoveList::new();
        self.moves_from(sq, &mut list);
        if list.is_empty() {
            Err(PickError::Stuck(sq))
        } else {
            Ok(list)
        }
    }

    /// The legal move from `from` to `to`, if there is one.
    pub fn find_move(&self, from: Square, to: Square) -> Option<Move> {
        self.legal_moves()
            .iter()
            .copied()
            .find(|m| m.from == from && m.to == to)
    }

    /// Whether a legal move steps onto a piece of the other side and takes it.
    pub fn is_capture(&self, mv: Move) -> bool {
        self.piece_at(mv.to).is_some()
    }

    /// The position after a move from [`Position::legal_moves`]. A fox that
    /// steps onto a hound eats it; a hound that steps onto the fox takes it.
    pub fn play(&self, mv: Move) -> Position {
        let mut next = *self;
        if Some(mv.from) == self.fox {
            next.fox = Some(mv.to);
            next.hounds &= !mv.to.bit();
        } else {
            next.hounds = (self.hounds & !mv.from.bit()) | mv.to.bit();
            if Some(mv.to) == self.fox {
                next.fox = None;
            }
        }
        next.to_move = self.to_move.other();
        next
    }

    /// The same placement with the other side to move.
    pub fn with_side(&self, to_move: Side) -> Position {
        Position { to_move, ..*self }
    }

    /// Every square some hound could still reach, however the hounds move:
    /// the forward cone of each hound, clipped to the board.
    pub fn hound_reach(&self) -> u64 {
        let board = self.board;
        let mut reach = 0;
        for hound in self.hounds() {
            for row in hound.row()..board.height() {
                let spread = row - hound.row();
                let lo = hound.col().saturating_sub(spread);
                let hi = (hound.col() + spread).min(board.width() - 1);
                for col in lo..=hi {
                    reach |= Square::new(col, row).bit();
                }
            }
        }
        reach
    }

    /// The coursework's early win: the fox's square and at least one square
    /// diagonally next to it are out of every hound's reach for good.
    pub fn fox_escaped(&self) -> bool {
        let Some(fox) = self.fox else {
            return false;
        };
        let reach = self.hound_reach();
        reach & fox.bit() == 0
            && FOX_STEPS.iter().any(|&(dc, dr)| {
                self.board
                    .offset(fox, dc, dr)
                    .is_some_and(|sq| reach & sq.bit() == 0)
            })
    }

    /// Whether a hound stands on every square diagonally next to the fox that
    /// is on the board (the capture rules' loss, even though the fox could eat one).
    pub fn fox_boxed_in(&self) -> bool {
        self.fox.is_some_and(|fox| {
            FOX_STEPS
                .iter()
                .filter_map(|&(dc, dr)| self.board.offset(fox, dc, dr))
                .all(|sq| self.hounds & sq.bit() != 0)
        })
    }

    /// How the game ended at this position under `rules`, or `None` if it goes on.
    ///
    /// The checks go in this order: the fox taken; the fox on row 1; the
    /// early win; the fox boxed in; the side to move without a move. The
    /// moves are the position's own (see [`Position::captures`]).
    pub fn ending(&self, rules: Rules) -> Option<Ending> {
        let Some(fox) = self.fox else {
            return Some(Ending::FoxCaptured);
        };
        if rules.row_one_wins() && fox.row() == 0 {
            return Some(Ending::FoxHome);
        }
        if rules.early_win() && self.fox_escaped() {
            return Some(Ending::FoxEscaped);
        }
        if rules.boxed_in_loses() && self.fox_boxed_in() {
            return Some(Ending::FoxBoxedIn);
        }
        if self.legal_moves().is_empty() {
            return Some(match self.to_move {
                Side::Fox => Ending::FoxTrapped,
                Side::Hounds => Ending::HoundsStuck,
            });
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        let b = name.as_bytes();
        Square::new(b[0] - b'A', b[1] - b'1')
    }

    #[test]
    fn start_moves_match_the_coursework() {
        let start = Position::start(Board::STANDARD, sq("A8"), Side::Fox).unwrap();
        let moves: Vec<String> = start.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(moves, ["A8-B7"]);
        let after = start.play(start.legal_moves()[0]);
        let names: Vec<String> = after
            .movable_pieces()
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(names, ["B1", "D1", "F1", "H1"]);
        assert_eq!(after.pick(sq("H1")).unwrap().len(), 1);
        assert_eq!(after.pick(sq("B7")), Err(PickError::Fox(sq("B7"))));
        assert_eq!(after.pick(sq("E4")), Err(PickError::Empty(sq("E4"))));
        assert_eq!(after.pick(sq("A1")), Err(PickError::Light(sq("A1"))));
    }

    #[test]
    fn endings_follow_the_rule_sets() {
        let board = Board::STANDARD;
        let home = Position::new(
            board,
            sq("D1"),
            [sq("B3"), sq("D3"), sq("F3"), sq("H3")],
            Side::Hounds,
        )
        .unwrap();
        assert_eq!(home.ending(Rules::Standard), Some(Ending::FoxHome));
        assert_eq!(home.ending(Rules::Escape), Some(Ending::FoxEscaped));
        let trapped = Position::new(
            board,
            sq("A4"),
            [sq("B3"), sq("B5"), sq("F1"), sq("H1")],
            Side::Fox,
        )
        .unwrap();
        assert_eq!(trapped.ending(Rules::Coursework), Some(Ending::FoxTrapped));
        let past = Position::new(
            board,
            sq("D3"),
            [sq("A4"), sq("C4"), sq("E4"), sq("G4")],
            Side::Fox,
        )
        .unwrap();
        assert_eq!(past.ending(Rules::Standard), None);
        assert_eq!(past.ending(Rules::Coursework), Some(Ending::FoxEscaped));
        let stuck = Position::new(
            board,
            sq("A2"),
            [sq("A8"), sq("C8"), sq("E8"), sq("G8")],
            Side::Hounds,
        )
        .unwrap();
        assert_eq!(stuck.ending(Rules::Standard), Some(Ending::HoundsStuck));
    }

    #[test]
    fn captures_take_pieces_and_end_games() {
        let board = Board::new(7, 8).unwrap();
        let at = |t: &str| Position::parse_under(t, board, Rules::Capture).unwrap();
        let names = |p: &Position| -> Vec<String> {
            p.legal_moves().iter().map(|m| m.to_string()).collect()
        };
        // The fox may step onto a hound, backward too; without captures it may not.
        let fox = at("D4/C3,E5,A1,G1/fox");
        assert_eq!(names(&fox), ["D4-C3", "D4-E3", "D4-C5", "D4-E5"]);
        let plain = fox.under(Rules::Standard).unwrap();
        assert_eq!(names(&plain), ["D4-E3", "D4-C5"]);
        let ate = fox.play(fox.find_move(sq("D4"), sq("E5")).unwrap());
        assert_eq!(ate.notation(), "E5/A1,G1,C3/hounds");
        assert!(ate.under(Rules::Standard).is_err());
        // A hound steps onto the fox and takes it; the hounds stay where they stand.
        let hounds = at("D4/C3,A1,E1,G1/hounds");
        let take = hounds.find_move(sq("C3"), sq("D4")).unwrap();
        assert!(hounds.is_capture(take));
        let taken = hounds.play(take);
        assert_eq!(taken.notation(), "x/A1,E1,G1,D4/fox");
        assert_eq!(taken.ending(Rules::Capture), Some(Ending::FoxCaptured));
        assert!(taken.legal_moves().is_empty());
        // Boxed in, although it could eat a hound; on the edge two hounds do it.
        let boxed = at("D4/C3,E3,C5,E5/fox");
        assert_eq!(boxed.legal_moves().len(), 4);
        assert_eq!(boxed.ending(Rules::Capture), Some(Ending::FoxBoxedIn));
        assert_eq!(
            boxed
                .under(Rules::Standard)
                .unwrap()
                .ending(Rules::Standard),
            Some(Ending::FoxTrapped)
        );
        assert_eq!(at("A7/B8,A1/hounds").ending(Rules::Capture), None);
        assert_eq!(at("A7/B6/fox").ending(Rules::Capture), None);
        assert_eq!(
            at("G7/F8,F6/fox").ending(Rules::Capture),
            Some(Ending::FoxBoxedIn)
        );
        // Home on row 1, eating or not; no hounds left to move loses.
        assert_eq!(
            at("C1/A5/hounds").ending(Rules::Capture),
            Some(Ending::FoxHome)
        );
        assert_eq!(
            at("C5//hounds").ending(Rules::Capture),
            Some(Ending::HoundsStuck)
        );
        // The coursework's early win does not apply.
        assert_eq!(at("D4/A5,C5,E5,G5/fox").ending(Rules::Capture), None);
        assert_eq!(
            at("D4/A5,C5,E5,G5/fox").ending(Rules::Coursework),
            Some(Ending::FoxEscaped)
        );
    }
}
