//! Mirror images and quarter turns of a position, used to skip placements
//! that are images of one another: on a symmetric board, placing on any
//! corner is the same choice.

use super::board::Tiles;
use super::node::Node;
use crate::games::grid::{Square, squares};

/// One of the eight symmetries of a rectangle (four of them need a square),
/// applied within the box that holds every tile left.
#[derive(Clone, Copy, Debug)]
struct Image {
    col0: u8,
    row0: u8,
    /// Width and height of the box, less one.
    w: u8,
    h: u8,
    kind: u8,
}

impl Image {
    fn square(self, sq: Square) -> Square {
        let (x, y) = (sq.col() - self.col0, sq.row() - self.row0);
        let (w, h) = (self.w, self.h);
        let (x, y) = match self.kind {
            0 => (w - x, y),
            1 => (x, h - y),
            2 => (w - x, h - y),
            3 => (y, x),
            4 => (w - y, x),
            5 => (y, w - x),
            _ => (w - y, w - x),
        };
        Square::new(self.col0 + x, self.row0 + y)
    }

    fn mask(self, mask: u64) -> u64 {
        squares(mask).fold(0, |m, sq| m | self.square(sq).bit())
    }

    fn node(self, node: &Node) -> Node {
        let (lo, hi) = node.tiles.planes();
        let tiles = Tiles::from_planes(self.mask(lo), self.mask(hi));
        Node {
            tiles,
            pens: node.pens.map(|p| self.mask(p)),
            ..*node
        }
    }
}

/// The symmetries (other than doing nothing) that leave `node` as it is.
fn images_fixing(node: &Node) -> Vec<Image> {
    let present = node.tiles.present();
    if present == 0 {
        return Vec::new();
    }
    let (mut col0, mut col1, mut row0, mut row1) = (7, 0, 7, 0);
    for sq in squares(present) {
        col0 = col0.min(sq.col());
        col1 = col1.max(sq.col());
        row0 = row0.min(sq.row());
        row1 = row1.max(sq.row());
    }
    let (w, h) = (col1 - col0, row1 - row0);
    let kinds = if w == h { 0..7 } else { 0..3 };
    kinds
        .map(|kind| Image {
            col0,
            row0,
            w,
            h,
            kind,
        })
        .filter(|image| image.node(node) == *node)
        .collect()
}

/// The squares of `targets` that are not the image of a lower square of
/// `targets` under a symmetry of `node`: one placement per family of
/// mirror images. Costly, so the search asks only while placing.
pub fn distinct_targets(node: &Node, targets: u64) -> u64 {
    let images = images_fixing(node);
    if images.is_empty() {
        return targets;
    }
    squares(targets)
        .filter(|&sq| images.iter().all(|im| im.square(sq).index() >= sq.index()))
        .fold(0, |m, sq| m | sq.bit())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::fish::position::Position;

    #[test]
    fn the_4x4_start_has_two_kinds_of_placement() {
        let pos = Position::parse("1111/1221/1221/1111 place:1/1 next:P").unwrap();
        let node = Node::of(&pos);
        let ones = node.tiles.worth(1);
        let kept = distinct_targets(&node, ones);
        // A corner and an edge square.
        assert_eq!(kept.count_ones(), 2);
        // After a corner, the diagonal mirror is left: 11 squares, 6 families.
        let pos = pos.play(crate::games::fish::Move::Place(Square::new(0, 0)));
        let node = Node::of(&pos);
        let kept = distinct_targets(&node, node.tiles.worth(1) & node.free());
        assert_eq!(kept.count_ones(), 6);
        // A board with no symmetry keeps everything.
        let pos = Position::parse("1311/1221/1221/1111 place:1/1 next:P").unwrap();
        let node = Node::of(&pos);
        assert_eq!(
            distinct_targets(&node, node.tiles.worth(1)),
            node.tiles.worth(1)
        );
    }

    #[test]
    fn a_6x4_board_has_four_symmetries() {
        let pos = Position::parse("111111/122221/122221/111111 place:1/1 next:P").unwrap();
        let node = Node::of(&pos);
        assert_eq!(images_fixing(&node).len(), 3);
        // Corners, and the top edge's squares 2 and 3, and the left edge.
        assert_eq!(distinct_targets(&node, node.tiles.worth(1)).count_ones(), 4);
    }
}
