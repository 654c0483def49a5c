//! A position: the tiles left, where the penguins stand, how many are still
//! to be placed, whose turn it is and the points each player has collected
//! in order; with the legal moves, playing one, skipped turns and the result.
//!
//! The rules, as the assignment's examples fix them:
//! - a penguin starts on a free 1-point tile; the first player places first
//!   and the players alternate until every penguin stands;
//! - a move goes any distance along a row, a column or a diagonal, over and
//!   onto tiles with no penguin on them;
//! - the tile a penguin leaves is taken and its points go to its player; the
//!   tile it stands on when the game ends is not collected (see the module
//!   documentation of `fish` for the evidence);
//! - a player who cannot move is skipped, and the game ends when neither can.

use std::fmt;

use super::board::{Board, Tiles};
use super::geometry::{neighbours, queen_moves};
use super::square::Named;
use crate::games::Outcome;
use crate::games::grid::{Square, squares};

/// The most penguins a player may have.
pub const MAX_PENGUINS: u8 = 4;

sides! {
    /// One of the two players: `P` places and moves first, `A` second.
    ///
    /// The names are the letters the board shows, as the assignment has them
    /// (P for the player, A for the AI); in a log they read as the first and the
    /// second player whoever sits in each seat.
    #[derive(PartialOrd, Ord)]
    pub enum Side {
        /// The first player, shown as `P`.
        P = "P" | "first",
        /// The second player, shown as `A`.
        A = "A" | "second",
    }
}

impl Side {
    /// Both sides, the first player first.
    pub const BOTH: [Side; 2] = [Side::P, Side::A];

    /// The other side.
    pub const fn other(self) -> Side {
        match self {
            Side::P => Side::A,
            Side::A => Side::P,
        }
    }

    /// 0 for `P`, 1 for `A`.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter on the board and in notation.
    pub const fn letter(self) -> char {
        match self {
            Side::P => 'P',
            Side::A => 'A',
        }
    }
}

/// A move: placing a penguin, or sliding one along a line.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// A penguin placed on a free 1-point tile.
    Place(Square),
    /// A penguin slid from one square to another; the tile on `from` is taken.
    Slide {
        /// Where the penguin stood.
        from: Square,
        /// Where it stops.
        to: Square,
    },
}

impl Move {
    /// Where the penguin ends up.
    pub fn to(self) -> Square {
        match self {
            Move::Place(to) | Move::Slide { to, .. } => to,
        }
    }

    /// Where the penguin started, for a slide.
    pub fn from(self) -> Option<Square> {
        match self {
            Move::Place(_) => None,
            Move::Slide { from, .. } => Some(from),
        }
    }

    /// The squares a player names: `[to]` to place, `[from, to]` to slide.
    pub fn path(self) -> Vec<Square> {
        match self {
            Move::Place(to) => vec![to],
            Move::Slide { from, to } => vec![from, to],
        }
    }
}

/// The log's notation, rows and columns from 1 at the top left: `2,1` places
/// a penguin on row 2, column 1; `1,2-2,3` slides one from (1,2) to (2,3).
impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Place(to) => write!(f, "{:#}", Named(to)),
            Move::Slide { from, to } => write!(f, "{:#}-{:#}", Named(from), Named(to)),
        }
    }
}

/// The points one player has collected, in the order collected.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Haul {
    // Two bits a tile, the first tile in the lowest bits: a game collects
    // at most 64 tiles, so 128 bits always suffice and a position stays `Copy`.
    packed: u128,
    len: u8,
}

impl Haul {
    /// The most tiles a haul can hold: every square of the largest board.
    pub const CAPACITY: usize = 64;

    /// A haul of these points, if each is 1 to 3 and they fit.
    pub fn from_points(points: &[u8]) -> Option<Haul> {
        if points.len() > Haul::CAPACITY || points.iter().any(|p| !(1..=3).contains(p)) {
            return None;
        }
        Some(points.iter().fold(Haul::default(), |haul, &p| haul.with(p)))
    }

    /// This haul and one more tile. A full haul stays as it is: no real
    /// game collects more tiles than the board holds.
    pub fn with(self, points: u8) -> Haul {
        if usize::from(self.len) >= Haul::CAPACITY {
            return self;
        }
        Haul {
            packed: self.packed | (u128::from(points & 3) << (2 * self.len)),
            len: self.len + 1,
        }
    }

    /// The points of each tile, first collected first.
    pub fn iter(self) -> impl Iterator<Item = u8> {
        (0..self.len).map(move |i| ((self.packed >> (2 * i)) & 3) as u8)
    }

    /// How many tiles.
    pub fn len(self) -> usize {
        self.len.into()
    }

    /// Whether no tile was collected.
    pub fn is_empty(self) -> bool {
        self.len == 0
    }

    /// The sum of the points.
    pub fn total(self) -> u32 {
        self.iter().map(u32::from).sum()
    }

    /// The sum as the assignment prints it: `1+3+1+1+2+3 = 11`, or `0` for no tiles.
    pub fn sum_line(self) -> String {
        if self.is_empty() {
            return "0".to_string();
        }
        let terms: Vec<String> = self.iter().map(|p| p.to_string()).collect();
        format!("{} = {}", terms.join("+"), self.total())
    }
}

/// Everything that decides the rest of the game, and the points so far.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    board: Board,
    tiles: Tiles,
    penguins: [u64; 2],
    to_place: [u8; 2],
    to_move: Side,
    hauls: [Haul; 2],
}

/// Why a set of parts is not a position.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PositionError {
    /// A penguin off the board.
    OffBoard(Square),
    /// A penguin on a square whose tile is taken.
    NoTile(Square),
    /// Two penguins on one square.
    Shared(Square),
    /// Too many penguins for one side.
    TooMany {
        /// The side concerned.
        side: Side,
        /// How many there are.
        count: u32,
    },
    /// A tile off the board.
    TileOffBoard,
    /// The named side cannot act but the other can.
    WrongTurn {
        /// The side the position names.
        named: Side,
        /// The side whose turn it is.
        next: Side,
    },
    /// Penguins still to place, with no free 1-point tile left for them.
    NowhereToPlace,
    /// The players have different numbers of penguins, placed and to place
    /// together: every game gives both the same number.
    Unequal {
        /// P's penguins.
        p: u32,
        /// A's penguins.
        a: u32,
    },
    /// No penguin at all, placed or to place: every game has at least one each.
    NoPenguins,
    /// `A` has placed more penguins than `P`, or `P` two more than `A`, or the
    /// turn to place is not the one alternation gives: `P` places first and
    /// the players alternate, so `next` must be `P` when both have as many
    /// left to place, `A` when `A` has one more.
    PlacingOrder {
        /// The penguins still to place, P's first.
        to_place: [u8; 2],
        /// The side the position names.
        named: Side,
    },
    /// More tiles collected than are taken from the board.
    Collected {
        /// The points collected.
        collected: u32,
        /// The tiles taken.
        taken: u32,
    },
    /// Points collected while penguins are still being placed: no tile is
    /// taken before every penguin stands.
    CollectedWhilePlacing,
    /// Penguins stand off 1-point tiles that cannot have got there: a
    /// penguin is placed on a 1-point tile, and each move it makes takes
    /// one tile (collected by its side, where points are given).
    Unmoved {
        /// The side, where its own points tell (else both together).
        side: Option<Side>,
        /// How many of its penguins stand off 1-point tiles.
        off: u32,
        /// The tiles its moves could have taken.
        moves: u32,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::OffBoard(sq) => {
                write!(f, "a penguin on {} is off the board", Named(*sq))
            }
            PositionError::NoTile(sq) => write!(
                f,
                "a penguin on {} stands where the tile is taken",
                Named(*sq)
            ),
            PositionError::Shared(sq) => write!(f, "two penguins stand on {}", Named(*sq)),
            PositionError::TooMany { side, count } => write!(
                f,
                "{side} has {count} penguins: a player has at most {MAX_PENGUINS}"
            ),
            PositionError::TileOffBoard => write!(f, "a tile lies off the board"),
            PositionError::WrongTurn { named, next } => write!(
                f,
                "{named} cannot move here, so it is {next}'s turn: write next:{next}"
            ),
            PositionError::NowhereToPlace => write!(
                f,
                "penguins are still to be placed but no free 1-point tile is left: write place:0/0"
            ),
            PositionError::Unequal { p, a } => write!(
                f,
                "P has {p} {} and A has {a}, placed and to place: no game gives the players different numbers",
                if *p == 1 { "penguin" } else { "penguins" }
            ),
            PositionError::NoPenguins => write!(
                f,
                "no penguin stands and none is to be placed: every game gives each player at least one"
            ),
            PositionError::PlacingOrder { to_place, named } => {
                let [p, a] = *to_place;
                if p == a {
                    write!(
                        f,
                        "both have {p} to place, so it is P's turn: P places first and the players alternate"
                    )
                } else if a == p + 1 && *named == Side::P {
                    write!(
                        f,
                        "A has one more to place than P, so it is A's turn: P places first and the players alternate"
                    )
                } else if p > a {
                    write!(
                        f,
                        "P has {p} to place and A {a}: A cannot have placed more than P, since P places first and the players alternate"
                    )
                } else {
                    write!(
                        f,
                        "P has {p} to place and A {a}: P cannot be two placements ahead, since the players alternate"
                    )
                }
            }
            PositionError::Collected { collected, taken } => write!(
                f,
                "{collected} {} collected but {taken} {} taken from the board: every tile collected is a tile taken",
                if *collected == 1 {
                    "tile is"
                } else {
                    "tiles are"
                },
                if *taken == 1 { "is" } else { "are" }
            ),
            PositionError::CollectedWhilePlacing => write!(
                f,
                "points are collected but penguins are still to be placed: no tile is taken before every penguin stands"
            ),
            PositionError::Unmoved { side, off, moves } => {
                let penguins = if *off == 1 { "penguin" } else { "penguins" };
                let tiles = if *moves == 1 { "tile" } else { "tiles" };
                match side {
                    Some(side) => write!(
                        f,
                        "{side} has {off} {penguins} on tiles worth more than 1 point but has collected {moves} {tiles}: a penguin is placed on a 1-point tile, and each move collects the tile it leaves"
                    ),
                    None => write!(
                        f,
                        "{off} {penguins} {} on tiles worth more than 1 point but {moves} {tiles} {} taken: a penguin is placed on a 1-point tile, and each move takes the tile it leaves",
                        if *off == 1 { "stands" } else { "stand" },
                        if *moves == 1 { "is" } else { "are" }
                    ),
                }
            }
        }
    }
}

impl std::error::Error for PositionError {}

impl Position {
    /// The start of a game: every tile, no penguin placed yet, `P` to place first.
    pub fn start(board: Board, tiles: Tiles, penguins: u8) -> Position {
        let penguins = penguins.min(MAX_PENGUINS);
        Position {
            board,
            tiles: tiles.within(board.mask()),
            penguins: [0, 0],
            to_place: [penguins; 2],
            to_move: Side::P,
            hauls: [Haul::default(); 2],
        }
        .settled(Side::P)
    }

    /// A position from its parts, checked: every penguin on a tile of the
    /// board, none shared, at most four a side counting those to place, as
    /// many for each side and at least one, placements in the order the
    /// rules give them (P first, then alternately), no more tiles collected
    /// than taken (none while placing), no penguin off a 1-point tile
    /// that no move of its side could have taken there, and `to_move` the
    /// side whose turn it really is. So only positions a game can reach
    /// pass, as far as the parts can tell (the points of taken tiles are
    /// not known).
    pub fn from_parts(
        board: Board,
        tiles: Tiles,
        penguins: [u64; 2],
        to_place: [u8; 2],
        to_move: Side,
        hauls: [Haul; 2],
    ) -> Result<Position, PositionError> {
        check_penguins(board, tiles, penguins)?;
        check_counts(penguins, to_place)?;
        let placing = to_place != [0, 0];
        if placing {
            check_placing_order(to_place, to_move)?;
        }
        let collected = (hauls[0].len() + hauls[1].len()) as u32;
        if placing && collected > 0 {
            return Err(PositionError::CollectedWhilePlacing);
        }
        let taken = board.area() - tiles.present().count_ones();
        if collected > taken {
            return Err(PositionError::Collected { collected, taken });
        }
        // Each penguin off a 1-point tile has moved at least once.
        let off = penguins.map(|mask| (mask & !tiles.worth(1)).count_ones());
        if collected > 0 {
            for side in Side::BOTH {
                let moves = hauls[side.index()].len() as u32;
                if off[side.index()] > moves {
                    return Err(PositionError::Unmoved {
                        side: Some(side),
                        off: off[side.index()],
                        moves,
                    });
                }
            }
        } else if off[0] + off[1] > taken {
            return Err(PositionError::Unmoved {
                side: None,
                off: off[0] + off[1],
                moves: taken,
            });
        }
        let pos = Position {
            board,
            tiles,
            penguins,
            to_place,
            to_move,
            hauls,
        };
        let settled = pos.settled(to_move);
        if settled.to_place != to_place {
            return Err(PositionError::NowhereToPlace);
        }
        if settled.to_move != to_move {
            return Err(PositionError::WrongTurn {
                named: to_move,
                next: settled.to_move,
            });
        }
        Ok(pos)
    }

    /// This position with the turn given to `candidate` if it can act, else
    /// to the other side if that can, else left with `candidate` (the game
    /// is over). Penguins that can no longer be placed are dropped.
    fn settled(mut self, candidate: Side) -> Position {
        if self.placeable() == 0 {
            self.to_place = [0, 0];
        }
        self.to_move = if self.can_act(candidate) || !self.can_act(candidate.other()) {
            candidate
        } else {
            candidate.other()
        };
        self
    }

    /// Whether `side` has something to do now: a penguin to place while
    /// placing lasts, else a penguin with a move.
    fn can_act(&self, side: Side) -> bool {
        if self.placing() {
            self.to_place[side.index()] > 0
        } else {
            self.can_move(side)
        }
    }

    /// The board's size.
    pub fn board(&self) -> Board {
        self.board
    }

    /// The tiles still on the board, with their points.
    pub fn tiles(&self) -> Tiles {
        self.tiles
    }

    /// The squares of one side's penguins, as a mask.
    pub fn penguin_mask(&self, side: Side) -> u64 {
        self.penguins[side.index()]
    }

    /// One side's penguins, in square order.
    pub fn penguins(&self, side: Side) -> impl Iterator<Item = Square> {
        squares(self.penguins[side.index()])
    }

    /// The side whose penguin stands on `sq`, if any.
    pub fn penguin_on(&self, sq: Square) -> Option<Side> {
        Side::BOTH
            .into_iter()
            .find(|s| self.penguins[s.index()] & sq.bit() != 0)
    }

    /// How many penguins `side` has still to place.
    pub fn to_place(&self, side: Side) -> u8 {
        self.to_place[side.index()]
    }

    /// Whether penguins are still being placed.
    pub fn placing(&self) -> bool {
        self.to_place != [0, 0]
    }

    /// The side to move (when the game is over: the side that would have).
    pub fn to_move(&self) -> Side {
        self.to_move
    }

    /// The points `side` has collected, in order.
    pub fn haul(&self, side: Side) -> Haul {
        self.hauls[side.index()]
    }

    /// `side`'s points so far.
    pub fn score(&self, side: Side) -> u32 {
        self.haul(side).total()
    }

    /// Tiles with no penguin on them.
    pub fn free(&self) -> u64 {
        self.tiles.present() & !(self.penguins[0] | self.penguins[1])
    }

    /// Free tiles worth 1 point: where a penguin may be placed.
    pub fn placeable(&self) -> u64 {
        self.tiles.worth(1) & self.free()
    }

    /// How many tiles are left, those under penguins included.
    pub fn tiles_left(&self) -> u32 {
        self.tiles.present().count_ones()
    }

    /// Whether one of `side`'s penguins has a move. A move always begins
    /// with one step onto a neighbouring free tile, so a neighbour suffices.
    pub fn can_move(&self, side: Side) -> bool {
        neighbours(self.penguins[side.index()]) & self.free() != 0
    }

    /// Whether the game is over: nothing to place and neither side can move.
    pub fn is_over(&self) -> bool {
        !self.placing() && !self.can_move(Side::P) && !self.can_move(Side::A)
    }

    /// Every legal move, in a stable order: placements by square, slides by
    /// penguin then destination (squares in row order from the top left).
    pub fn legal_moves(&self) -> Vec<Move> {
        let side = self.to_move.index();
        if self.placing() {
            if self.to_place[side] == 0 {
                return Vec::new();
            }
            return squares(self.placeable()).map(Move::Place).collect();
        }
        let free = self.free();
        squares(self.penguins[side])
            .flat_map(|from| {
                squares(queen_moves(from, free)).map(move |to| Move::Slide { from, to })
            })
            .collect()
    }

    /// Whether `mv` is one of the legal moves.
    pub fn is_legal(&self, mv: Move) -> bool {
        match mv {
            Move::Place(to) => {
                self.placing()
                    && self.to_place[self.to_move.index()] > 0
                    && self.placeable() & to.bit() != 0
            }
            Move::Slide { from, to } => {
                !self.placing()
                    && self.penguins[self.to_move.index()] & from.bit() != 0
                    && queen_moves(from, self.free()) & to.bit() != 0
            }
        }
    }

    /// The position after a legal move: the tile left is taken and scored,
    /// then the turn passes to the next side that can act. A move that is
    /// not legal leaves the position as it is.
    pub fn play(&self, mv: Move) -> Position {
        if !self.is_legal(mv) {
            return *self;
        }
        let side = self.to_move;
        let mut next = *self;
        let mine = &mut next.penguins[side.index()];
        match mv {
            Move::Place(to) => {
                *mine |= to.bit();
                next.to_place[side.index()] -= 1;
            }
            Move::Slide { from, to } => {
                *mine ^= from.bit() | to.bit();
                let points = self.tiles.points(from);
                next.hauls[side.index()] = next.hauls[side.index()].with(points);
                next.tiles = next.tiles.without(from.bit());
            }
        }
        next.settled(side.other())
    }

    /// The result, once the game is over: most points wins, equal points draw.
    pub fn outcome(&self) -> Option<Outcome<Side>> {
        if !self.is_over() {
            return None;
        }
        let (p, a) = (self.score(Side::P), self.score(Side::A));
        Some(match p.cmp(&a) {
            std::cmp::Ordering::Greater => Outcome::Win {
                winner: Side::P,
                how: "most-points",
            },
            std::cmp::Ordering::Less => Outcome::Win {
                winner: Side::A,
                how: "most-points",
            },
            std::cmp::Ordering::Equal => Outcome::Draw {
                how: "equal-points",
            },
        })
    }

    /// `P`'s points minus `A`'s so far.
    pub fn difference(&self) -> i32 {
        self.score(Side::P) as i32 - self.score(Side::A) as i32
    }
}

/// The side that had no move and was skipped between two consecutive
/// positions of a game, if one was: the side that moved moves again while
/// the game goes on. When the game has just ended nobody is "skipped".
pub fn skipped(before: &Position, after: &Position) -> Option<Side> {
    let mover = before.to_move();
    (!after.is_over() && after.to_move() == mover).then(|| mover.other())
}

/// Checks that every tile is on `board` and every penguin stands alone on
/// a tile of it.
fn check_penguins(board: Board, tiles: Tiles, penguins: [u64; 2]) -> Result<(), PositionError> {
    if tiles.present() & !board.mask() != 0 {
        return Err(PositionError::TileOffBoard);
    }
    if let Some(sq) = squares(penguins[0] & penguins[1]).next() {
        return Err(PositionError::Shared(sq));
    }
    for sq in squares(penguins[0] | penguins[1]) {
        if !board.contains(sq) {
            return Err(PositionError::OffBoard(sq));
        }
        if tiles.points(sq) == 0 {
            return Err(PositionError::NoTile(sq));
        }
    }
    Ok(())
}

/// Checks the penguins of each side, placed and to place: at most
/// `MAX_PENGUINS`, as many for each side, and at least one.
fn check_counts(penguins: [u64; 2], to_place: [u8; 2]) -> Result<(), PositionError> {
    let counts = Side::BOTH
        .map(|side| penguins[side.index()].count_ones() + u32::from(to_place[side.index()]));
    for side in Side::BOTH {
        let count = counts[side.index()];
        if count > u32::from(MAX_PENGUINS) {
            return Err(PositionError::TooMany { side, count });
        }
    }
    if counts[0] != counts[1] {
        return Err(PositionError::Unequal {
            p: counts[0],
            a: counts[1],
        });
    }
    if counts[0] == 0 {
        return Err(PositionError::NoPenguins);
    }
    Ok(())
}

/// Checks that `to_move` places next while penguins are still to place:
/// P first, then alternately.
fn check_placing_order(to_place: [u8; 2], to_move: Side) -> Result<(), PositionError> {
    let [p, a] = to_place;
    let next = if p == a {
        Some(Side::P)
    } else if a == p + 1 {
        Some(Side::A)
    } else {
        None
    };
    if next != Some(to_move) {
        return Err(PositionError::PlacingOrder {
            to_place,
            named: to_move,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fish::square::at;

    fn sq(r: u8, c: u8) -> Square {
        at(Board::STANDARD, r, c).unwrap()
    }

    #[test]
    fn placement_alternates_on_one_point_tiles_then_p_moves() {
        let start = Position::start(Board::STANDARD, Tiles::rings(Board::STANDARD), 2);
        assert_eq!(start.legal_moves().len(), 20);
        let mut p = start;
        for (i, s) in [sq(1, 1), sq(6, 6), sq(1, 6), sq(6, 1)]
            .into_iter()
            .enumerate()
        {
            assert_eq!(p.to_move(), Side::BOTH[i % 2]);
            assert!(p.placing());
            p = p.play(Move::Place(s));
        }
        assert!(!p.placing());
        assert_eq!(p.to_move(), Side::P);
        assert!(
            p.legal_moves()
                .iter()
                .all(|m| matches!(m, Move::Slide { .. }))
        );
    }

    #[test]
    fn a_slide_takes_the_tile_left_and_scores_it() {
        let mut p = Position::start(Board::STANDARD, Tiles::rings(Board::STANDARD), 1);
        p = p.play(Move::Place(sq(1, 2)));
        p = p.play(Move::Place(sq(6, 6)));
        let mv = Move::Slide {
            from: sq(1, 2),
            to: sq(3, 4),
        };
        assert!(p.is_legal(mv));
        assert_eq!(mv.to_string(), "1,2-3,4");
        let q = p.play(mv);
        assert_eq!(q.tiles().points(sq(1, 2)), 0);
        assert_eq!(q.haul(Side::P).sum_line(), "1 = 1");
        assert_eq!(q.haul(Side::A).sum_line(), "0");
        assert_eq!(q.to_move(), Side::A);
        assert_eq!(q.tiles().total() + 1, p.tiles().total());
        assert_eq!(skipped(&p, &q), None);
    }

    #[test]
    fn most_points_wins_and_equal_points_draw() {
        let over = |points: &str| {
            let text = format!("1..1/..../..../1..1 P:1,1 A:4,4 points:{points} next:P");
            Position::parse(&text).unwrap().outcome()
        };
        assert_eq!(
            over("3+1/2+1"),
            Some(Outcome::Win {
                winner: Side::P,
                how: "most-points"
            })
        );
        assert_eq!(
            over("1/2"),
            Some(Outcome::Win {
                winner: Side::A,
                how: "most-points"
            })
        );
        assert_eq!(
            over("1+2/3"),
            Some(Outcome::Draw {
                how: "equal-points"
            })
        );
        let going = Position::parse("1111/1221/1221/1111 P:1,1 A:4,4 next:P").unwrap();
        assert_eq!(going.outcome(), None);
    }

    #[test]
    fn hauls_keep_their_order() {
        let h = Haul::from_points(&[1, 3, 1, 1, 2, 3]).unwrap();
        assert_eq!(h.sum_line(), "1+3+1+1+2+3 = 11");
        assert_eq!(Haul::from_points(&[0]), None);
        let full = Haul::from_points(&[3; 64]).unwrap();
        assert_eq!(full.total(), 192);
        assert_eq!(full.with(1), full);
    }
}
