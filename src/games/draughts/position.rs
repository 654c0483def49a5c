//! A position: where the men and kings of each side stand and who moves
//! next, checked on the way in, and the position after a move.

use std::fmt;

use super::bitboard::{BLACK_HOME, Bits, WHITE_HOME, rotate};
use super::moves::Move;
use super::square::PdnSquare;

sides! {
    /// One of the two sides. Black moves first.
    pub enum Side {
        /// Starts on squares 1-12 (rows 1-3) and moves first.
        Black = "black" | "b",
        /// Starts on squares 21-32 (rows 6-8).
        White = "white" | "w",
    }
}

impl Side {
    /// Both sides, Black first.
    pub const ALL: [Side; 2] = [Side::Black, Side::White];

    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    /// `Black` or `White`, as a sentence names the side; its `Display` is
    /// the lower-case word that JSON and the command line use.
    pub const fn title(self) -> &'static str {
        match self {
            Side::Black => "Black",
            Side::White => "White",
        }
    }

    /// `B` or `W`, as FEN writes it.
    pub const fn letter(self) -> char {
        match self {
            Side::Black => 'B',
            Side::White => 'W',
        }
    }

    /// The row where this side's men are crowned.
    pub const fn crown_row(self) -> Bits {
        match self {
            Side::Black => WHITE_HOME,
            Side::White => BLACK_HOME,
        }
    }
}

/// What stands on a square.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Piece {
    /// A man: moves and jumps forward only.
    Man(Side),
    /// A king: moves and jumps both ways.
    King(Side),
}

impl Piece {
    /// Whose piece it is.
    pub const fn side(self) -> Side {
        match self {
            Piece::Man(s) | Piece::King(s) => s,
        }
    }
}

/// The most pieces a side starts with, and so may ever have.
pub const MAX_PIECES: u32 = 12;

/// Everything that decides what may happen next: the pieces and the side to
/// move. The draw rules look back over the game's positions, so they need no
/// counters here.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    black: Bits,
    white: Bits,
    kings: Bits,
    to_move: Side,
}

/// Why some pieces do not make a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PlacementError {
    /// A square holds a black and a white piece.
    Overlap(PdnSquare),
    /// A side has more than twelve pieces.
    TooMany {
        /// The side concerned.
        side: Side,
        /// How many there are.
        count: u32,
    },
    /// A man stands on the row where it would have been crowned.
    UncrownedMan {
        /// The side concerned.
        side: Side,
        /// The square.
        square: PdnSquare,
    },
}

impl fmt::Display for PlacementError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlacementError::Overlap(sq) => {
                write!(
                    f,
                    "square {sq} ({}) holds a black and a white piece",
                    sq.grid()
                )
            }
            PlacementError::TooMany { side, count } => {
                write!(
                    f,
                    "{side} has {count} pieces: a side has at most {MAX_PIECES}"
                )
            }
            PlacementError::UncrownedMan { side, square } => write!(
                f,
                "a {side} man stands on {square} ({}), its crowning row: make it a king (K{square})",
                square.grid()
            ),
        }
    }
}

impl std::error::Error for PlacementError {}

impl Position {
    /// The start: Black's men on 1-12, White's on 21-32, Black to move.
    pub const START: Position = Position {
        black: 0x0000_0FFF,
        white: 0xFFF0_0000,
        kings: 0,
        to_move: Side::Black,
    };

    /// A position from masks of each side's pieces and of the kings among
    /// them, checked: no square twice, at most twelve a side, no man on its
    /// crowning row. Kings not covered by a side are dropped.
    pub fn new(
        black: Bits,
        white: Bits,
        kings: Bits,
        to_move: Side,
    ) -> Result<Position, PlacementError> {
        if let Some(sq) = PdnSquare::from_index((black & white).trailing_zeros() as u8) {
            return Err(PlacementError::Overlap(sq));
        }
        for (side, pieces) in [(Side::Black, black), (Side::White, white)] {
            if pieces.count_ones() > MAX_PIECES {
                return Err(PlacementError::TooMany {
                    side,
                    count: pieces.count_ones(),
                });
            }
            let stuck = pieces & !kings & side.crown_row();
            if let Some(square) = PdnSquare::from_index(stuck.trailing_zeros() as u8) {
                return Err(PlacementError::UncrownedMan { side, square });
            }
        }
        Ok(Position {
            black,
            white,
            kings: kings & (black | white),
            to_move,
        })
    }

    /// A position from parts the caller has already checked (the move
    /// generator, the endgame database's unranking).
    #[inline(always)]
    pub(crate) const fn from_parts(
        black: Bits,
        white: Bits,
        kings: Bits,
        to_move: Side,
    ) -> Position {
        Position {
            black,
            white,
            kings,
            to_move,
        }
    }

    /// The side to move.
    pub const fn to_move(&self) -> Side {
        self.to_move
    }

    /// Every piece of one side.
    pub const fn pieces(&self, side: Side) -> Bits {
        match side {
            Side::Black => self.black,
            Side::White => self.white,
        }
    }

    /// The men of one side.
    pub const fn men(&self, side: Side) -> Bits {
        self.pieces(side) & !self.kings
    }

    /// The kings of one side.
    pub const fn kings(&self, side: Side) -> Bits {
        self.pieces(side) & self.kings
    }

    /// Every king on the board.
    pub const fn all_kings(&self) -> Bits {
        self.kings
    }

    /// Every occupied square.
    pub const fn occupied(&self) -> Bits {
        self.black | self.white
    }

    /// Every empty playing square.
    pub const fn empty(&self) -> Bits {
        !(self.black | self.white)
    }

    /// The piece on a square, if any.
    pub fn piece(&self, sq: PdnSquare) -> Option<Piece> {
        let b = sq.bit();
        let side = if self.black & b != 0 {
            Side::Black
        } else if self.white & b != 0 {
            Side::White
        } else {
            return None;
        };
        Some(if self.kings & b != 0 {
            Piece::King(side)
        } else {
            Piece::Man(side)
        })
    }

    /// How many pieces stand on the board.
    pub const fn piece_count(&self) -> u32 {
        (self.black | self.white).count_ones()
    }

    /// The same position with the other side to move (for analysis tools;
    /// the rules never pass).
    pub const fn with_side(self, to_move: Side) -> Position {
        Position { to_move, ..self }
    }

    /// The position after a move the generator made for this position.
    #[inline]
    pub fn play(&self, mv: &Move) -> Position {
        let from = 1u32 << mv.from_index();
        let to = 1u32 << mv.to_index();
        let side = self.to_move;
        let was_king = self.kings & from != 0;
        let captured = mv.captured();
        let mine = (self.pieces(side) & !from) | to;
        let theirs = self.pieces(side.other()) & !captured;
        let mut kings = self.kings & !captured;
        if was_king {
            kings = (kings & !from) | to;
        } else if to & side.crown_row() != 0 {
            kings |= to;
        }
        let (black, white) = match side {
            Side::Black => (mine, theirs),
            Side::White => (theirs, mine),
        };
        Position {
            black,
            white,
            kings,
            to_move: side.other(),
        }
    }

    /// The same game seen from the other side: the board turned half round
    /// and the colours swapped. Black to move becomes White to move.
    pub const fn flipped(&self) -> Position {
        Position {
            black: rotate(self.white),
            white: rotate(self.black),
            kings: rotate(self.kings),
            to_move: self.to_move.other(),
        }
    }
}

impl Default for Position {
    fn default() -> Position {
        Position::START
    }
}
