//! A small neural net whose value is added to the linear evaluation's: what
//! the linear terms leave unexplained.
//!
//! Its inputs are the board as the side to move sees it: the mover's men,
//! the mover's kings, the other side's men and the other side's kings, each
//! on 32 squares counted from the mover's home row (128 inputs, at most 24
//! of them on). One hidden layer of [`HIDDEN`] rectified units feeds a single
//! output in hundredths of a man. The arithmetic is in integers, so every
//! machine gives the same value: the first layer's weights are kept in
//! 1/1024ths, the output's in 1/1024ths of a hundredth of a man per unit.
//!
//! The weights were learnt from the engine's own games
//! (`examples/draughts_train.rs --net`, README "How the evaluation was
//! trained") and are kept in `data/draughts_net.txt`.

use std::sync::OnceLock;

use super::DataError;
use super::position::{Position, Side};

/// The net's inputs: four kinds of piece on 32 squares.
pub const INPUTS: usize = 128;
/// The hidden layer's units.
pub const HIDDEN: usize = 256;
/// The fixed-point scale of the weights.
pub const SCALE: i64 = 1024;
/// The most the net may add or take away: fifty men.
const LIMIT: i64 = 5000;
/// The largest weight a file may give the hidden layer (32 men); the
/// output's may be up to 2^24. Then a hidden sum of a bias and a row for
/// each of 32 squares stays under 33 * 2^15, and the output's products and
/// their sum under 2^53, so [`Net::output`] adds them exactly in `f64`.
const FIRST_LAYER_MOST: u32 = 1 << 15;

/// The net's weights, in 1/[`SCALE`]ths.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Net {
    /// A row of the hidden layer's weights for each input.
    pub input: Vec<[i32; HIDDEN]>,
    /// The hidden layer's biases.
    pub bias: [i32; HIDDEN],
    /// The output's weight for each hidden unit, in hundredths of a man.
    pub output: [i32; HIDDEN],
    /// The output's bias, in hundredths of a man.
    pub output_bias: i32,
}

/// The hidden layer's sums before rectifying, for one side's view of a
/// position: what the search keeps from ply to ply and mends move by move
/// ([`Net::update`]) instead of summing every piece's row again.
pub type Hidden = [i32; HIDDEN];

/// The board as `view` sees it: its men, its kings, the other side's men
/// and the other side's kings.
#[inline]
fn planes(pos: &Position, view: Side) -> [u32; 4] {
    let them = view.other();
    [
        pos.men(view),
        pos.kings(view),
        pos.men(them),
        pos.kings(them),
    ]
}

/// Calls `visit` with each input among `bits` of plane `kind` as `view`
/// sees them: the kind times 32, plus the square counted from `view`'s home
/// row.
#[inline]
fn each_input(view: Side, kind: usize, bits: u32, mut visit: impl FnMut(usize)) {
    let mut b = bits;
    while b != 0 {
        let i = b.trailing_zeros() as usize;
        b &= b - 1;
        let square = match view {
            Side::Black => i,
            Side::White => 31 - i,
        };
        visit(kind * 32 + square);
    }
}

/// Calls `visit` with each input that is on: a piece's kind (the mover's
/// men, the mover's kings, the other side's men, the other side's kings)
/// times 32, plus its square counted from the mover's home row.
#[inline]
pub fn inputs(pos: &Position, mut visit: impl FnMut(usize)) {
    let view = pos.to_move();
    for (kind, bits) in planes(pos, view).into_iter().enumerate() {
        each_input(view, kind, bits, &mut visit);
    }
}

impl Net {
    /// A net that adds nothing.
    pub fn zero() -> Net {
        Net {
            input: vec![[0; HIDDEN]; INPUTS],
            bias: [0; HIDDEN],
            output: [0; HIDDEN],
            output_bias: 0,
        }
    }

    /// The net's value for the side to move, in hundredths of a man.
    #[inline]
    pub fn value(&self, pos: &Position) -> i32 {
        self.output(&self.hidden(pos, pos.to_move()))
    }

    /// The hidden sums of `pos` as `view` sees it, whoever is to move.
    #[inline]
    pub fn hidden(&self, pos: &Position, view: Side) -> Hidden {
        let mut hidden = self.bias;
        for (kind, bits) in planes(pos, view).into_iter().enumerate() {
            each_input(view, kind, bits, |i| self.add(&mut hidden, i));
        }
        hidden
    }

    /// Mends `hidden`, the sums of `from` as `view` sees it, into those of
    /// `to`: only the rows of the pieces that moved, were taken or crowned.
    #[inline]
    pub fn update(&self, hidden: &mut Hidden, view: Side, from: &Position, to: &Position) {
        let (before, after) = (planes(from, view), planes(to, view));
        for kind in 0..4 {
            each_input(view, kind, before[kind] & !after[kind], |i| {
                self.sub(hidden, i);
            });
            each_input(view, kind, after[kind] & !before[kind], |i| {
                self.add(hidden, i);
            });
        }
    }

    /// Writes into `into` the sums of `to` as `view` sees it, mended from
    /// `sums`, those of `from`: as [`Net::update`], without first copying
    /// the sums where a move only steps a piece (one row out, one in).
    #[inline]
    pub fn mend(
        &self,
        sums: &Hidden,
        into: &mut Hidden,
        view: Side,
        from: &Position,
        to: &Position,
    ) {
        let (before, after) = (planes(from, view), planes(to, view));
        let (mut gone, mut came) = (None, None);
        let mut rows = 0;
        for kind in 0..4 {
            each_input(view, kind, before[kind] & !after[kind], |i| {
                gone = Some(i);
                rows += 1;
            });
            each_input(view, kind, after[kind] & !before[kind], |i| {
                came = Some(i);
                rows += 1;
            });
        }
        match (gone, came) {
            (Some(g), Some(c)) if rows == 2 => {
                let (out, inn) = (&self.input[g], &self.input[c]);
                for (((d, s), o), n) in into.iter_mut().zip(sums).zip(out).zip(inn) {
                    *d = s - o + n;
                }
            }
            _ => {
                *into = *sums;
                self.update(into, view, from, to);
            }
        }
    }

    #[inline]
    fn add(&self, hidden: &mut Hidden, input: usize) {
        for (h, w) in hidden.iter_mut().zip(&self.input[input]) {
            *h += w;
        }
    }

    #[inline]
    fn sub(&self, hidden: &mut Hidden, input: usize) {
        for (h, w) in hidden.iter_mut().zip(&self.input[input]) {
            *h -= w;
        }
    }

    /// The value of hidden sums for the side whose view they are.
    #[inline]
    pub fn output(&self, hidden: &Hidden) -> i32 {
        // Whole numbers under 2^53 (FIRST_LAYER_MOST): exact in f64, in any
        // order, so eight lanes of sums vectorise as integers would not.
        let mut lanes = [0.0f64; 8];
        for (h, w) in hidden.chunks_exact(8).zip(self.output.chunks_exact(8)) {
            for ((lane, h), w) in lanes.iter_mut().zip(h).zip(w) {
                *lane += f64::from((*h).max(0)) * f64::from(*w);
            }
        }
        let out = lanes.iter().sum::<f64>() as i64 + i64::from(self.output_bias) * SCALE;
        // A net from a bad file must not reach the search's win scores.
        (out / (SCALE * SCALE)).clamp(-LIMIT, LIMIT) as i32
    }
}

/// A row's name in the net file: an input, or `bias` or `output`.
fn input_name(i: usize) -> String {
    let kind = ["my-man", "my-king", "their-man", "their-king"][i / 32];
    format!("{kind}{}", i % 32 + 1)
}

/// Reads a net file: a line `hidden N` (N must be [`HIDDEN`]), and for each
/// input a line of its name and its [`HIDDEN`] weights, a line `bias` and
/// one `output` with as many, and `output-bias B`, each once, in any order;
/// `#` starts a comment. The hidden layer's weights are at most 2^15 in
/// size, the output's 2^24.
pub fn parse(text: &str) -> Result<Net, DataError> {
    let mut net = Net::zero();
    let mut seen = [false; INPUTS + 3];
    let mut hidden_seen = false;
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let bad = |reason: String| DataError::Line {
            line: n + 1,
            reason,
        };
        let mut words = line.split_whitespace();
        let name = words.next().unwrap_or("");
        let most = if name.starts_with("output") {
            1 << 24
        } else {
            FIRST_LAYER_MOST
        };
        let numbers: Vec<i32> = words
            .map(|t| {
                t.parse::<i32>()
                    .ok()
                    .filter(|v| v.unsigned_abs() <= most)
                    .ok_or_else(|| bad(format!("{t} is not a weight")))
            })
            .collect::<Result<_, _>>()?;
        let row = |numbers: &[i32]| -> Result<[i32; HIDDEN], DataError> {
            numbers
                .try_into()
                .map_err(|_| bad(format!("{name} needs {HIDDEN} weights")))
        };
        let slot = match name {
            "hidden" => {
                if numbers != [HIDDEN as i32] {
                    return Err(bad(format!("the net must have {HIDDEN} hidden units")));
                }
                hidden_seen = true;
                continue;
            }
            "bias" => {
                net.bias = row(&numbers)?;
                INPUTS
            }
            "output" => {
                net.output = row(&numbers)?;
                INPUTS + 1
            }
            "output-bias" => {
                let [b] = numbers[..] else {
                    return Err(bad("output-bias needs one weight".to_string()));
                };
                net.output_bias = b;
                INPUTS + 2
            }
            _ => {
                let i = (0..INPUTS)
                    .find(|&i| input_name(i) == name)
                    .ok_or_else(|| bad(format!("no row named {name}")))?;
                net.input[i] = row(&numbers)?;
                i
            }
        };
        if std::mem::replace(&mut seen[slot], true) {
            return Err(bad(format!("a second {name} line")));
        }
    }
    if !hidden_seen {
        return Err(DataError::Missing("hidden line".to_string()));
    }
    match seen.iter().position(|&s| !s) {
        Some(i) if i < INPUTS => Err(DataError::Missing(format!("row {}", input_name(i)))),
        Some(i) => Err(DataError::Missing(
            ["bias", "output", "output-bias"][i - INPUTS].to_string(),
        )),
        None => Ok(net),
    }
}

/// Writes a net as [`parse`] reads it.
pub fn format(net: &Net) -> String {
    let line = |name: &str, row: &[i32]| {
        let words: Vec<String> = row.iter().map(i32::to_string).collect();
        format!("{name} {}\n", words.join(" "))
    };
    let mut out = format!("hidden {HIDDEN}\n");
    for (i, row) in net.input.iter().enumerate() {
        out.push_str(&line(&input_name(i), row));
    }
    out.push_str(&line("bias", &net.bias));
    out.push_str(&line("output", &net.output));
    out.push_str(&line("output-bias", &[net.output_bias]));
    out
}

/// The learnt net, from the committed data file.
pub fn learnt() -> &'static Net {
    static NET: OnceLock<Net> = OnceLock::new();
    NET.get_or_init(|| {
        parse(include_str!("../../../data/draughts_net.txt")).unwrap_or_else(|_| Net::zero())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::draughts::fen;

    #[test]
    fn the_committed_net_is_whole_and_reads_back() {
        let text = include_str!("../../../data/draughts_net.txt");
        let net = parse(text).unwrap();
        assert_ne!(net, Net::zero());
        assert_eq!(parse(&format(&net)).as_ref(), Ok(&net));
        let head = format!("hidden {HIDDEN}\n");
        assert_eq!(
            parse(&format!("{head}bias 1 2")).map_err(|e| e.to_string()),
            Err(format!("line 2: bias needs {HIDDEN} weights"))
        );
        assert_eq!(
            parse("hidden 8").map_err(|e| e.to_string()),
            Err(format!("line 1: the net must have {HIDDEN} hidden units"))
        );
        assert_eq!(
            parse(&head).map_err(|e| e.to_string()),
            Err("no row my-man1".to_string())
        );
        assert_eq!(
            parse(&format!("{head}my-pawn3 1")).map_err(|e| e.to_string()),
            Err("line 2: no row named my-pawn3".to_string())
        );
        // The hidden layer's weights stay small enough for exact sums.
        assert_eq!(
            parse(&format!("{head}my-man1 32769")).map_err(|e| e.to_string()),
            Err("line 2: 32769 is not a weight".to_string())
        );
        assert_eq!(
            parse(&format!("{head}output 32769")).map_err(|e| e.to_string()),
            Err(format!("line 2: output needs {HIDDEN} weights"))
        );
    }

    #[test]
    fn the_net_sees_the_board_from_the_movers_side() {
        // The same position with the colours and the move swapped, the
        // board turned half round, is the same to the mover.
        let net = learnt();
        let a = fen::parse("B:W18,22,K30:B5,9,10,K27").unwrap();
        let b = fen::parse("W:B15,11,K3:W28,24,23,K6").unwrap();
        assert_eq!(net.value(&a), net.value(&b));
        for pos in [a, b] {
            let mut seen = Vec::new();
            inputs(&pos, |i| seen.push(i));
            seen.sort_unstable();
            assert_eq!(seen, [4, 8, 9, 58, 81, 85, 125]);
        }
    }

    #[test]
    fn sums_mended_move_by_move_are_the_sums_made_anew() {
        // Whole games of moves picked at random with a fixed seed: steps,
        // captures of several pieces and crownings, each view mended along
        // the game in place (`update`) and into a second array (`mend`).
        use crate::games::draughts::movegen;
        use rand::rngs::ChaCha8Rng;
        use rand::{RngExt, SeedableRng};
        let net = learnt();
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut moves = Vec::new();
        let (mut captures, mut crownings) = (0, 0);
        for _game in 0..20 {
            let mut pos = Position::START;
            let mut sums = [Side::Black, Side::White].map(|view| net.hidden(&pos, view));
            for _ply in 0..200 {
                moves.clear();
                movegen::generate(&pos, true, &mut moves);
                if moves.is_empty() {
                    break;
                }
                let m = moves[rng.random_range(0..moves.len())];
                let next = pos.play(&m);
                captures += usize::from(m.is_capture());
                crownings +=
                    usize::from(next.all_kings().count_ones() > pos.all_kings().count_ones());
                for (sum, view) in sums.iter_mut().zip([Side::Black, Side::White]) {
                    let mut mended = [0; HIDDEN];
                    net.mend(sum, &mut mended, view, &pos, &next);
                    net.update(sum, view, &pos, &next);
                    assert_eq!(*sum, net.hidden(&next, view), "{m:?} from {pos:?}");
                    assert_eq!(mended, *sum, "mended apart: {m:?} from {pos:?}");
                }
                pos = next;
                assert_eq!(
                    net.output(&sums[usize::from(pos.to_move() == Side::White)]),
                    net.value(&pos)
                );
            }
        }
        assert!(
            captures > 100 && crownings > 10,
            "{captures} captures, {crownings} crownings"
        );
    }

    #[test]
    fn a_hand_made_net_gives_its_value() {
        // Unit 0 counts the mover's men, a man each, less half a man; unit 1
        // counts the other side's men and is turned off by its bias until
        // they have three, then costs the mover a man each past two.
        let mut net = Net::zero();
        let one = SCALE as i32;
        for square in 0..32 {
            net.input[square][0] = one;
            net.input[64 + square][1] = one;
        }
        net.bias[1] = -2 * one;
        net.output[0] = 100 * one;
        net.output[1] = -100 * one;
        net.output_bias = -50 * one;
        let two = fen::parse("B:W18,22:B5,9,10").unwrap();
        assert_eq!(net.value(&two), 3 * 100 - 50);
        assert_eq!(net.value(&two.with_side(Side::White)), 2 * 100 - 50 - 100);
        let three = fen::parse("W:W18,22,26:B5,9").unwrap();
        assert_eq!(net.value(&three), 3 * 100 - 50);
        // The net never says more than fifty men.
        net.output[0] = 1 << 24;
        assert_eq!(net.value(&two), 5000);
        assert_eq!(parse(&format(&net)).map(|n| n.value(&two)), Ok(5000));
    }

    #[test]
    fn a_row_given_twice_is_refused() {
        let mut text = format(&Net::zero());
        text.push_str("bias 0 0\n");
        let mut row = vec!["0"; HIDDEN];
        row.insert(0, "bias");
        let text = text.replace("bias 0 0\n", &format!("{}\n", row.join(" ")));
        let lines = text.lines().count();
        assert_eq!(
            parse(&text).map_err(|e| e.to_string()),
            Err(format!("line {lines}: a second bias line"))
        );
    }
}
