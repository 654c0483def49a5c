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

/// Calls `visit` with each input that is on: a piece's kind (the mover's
/// men, the mover's kings, the other side's men, the other side's kings)
/// times 32, plus its square counted from the mover's home row.
#[inline]
pub fn inputs(pos: &Position, mut visit: impl FnMut(usize)) {
    let me = pos.to_move();
    let them = me.other();
    let kinds = [pos.men(me), pos.kings(me), pos.men(them), pos.kings(them)];
    for (kind, bits) in kinds.into_iter().enumerate() {
        let mut b = bits;
        while b != 0 {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            let square = match me {
                Side::Black => i,
                Side::White => 31 - i,
            };
            visit(kind * 32 + square);
        }
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
        let mut hidden = self.bias;
        inputs(pos, |i| {
            for (h, w) in hidden.iter_mut().zip(&self.input[i]) {
                *h += w;
            }
        });
        let mut out = i64::from(self.output_bias) * SCALE;
        for (h, w) in hidden.iter().zip(&self.output) {
            out += i64::from((*h).max(0)) * i64::from(*w);
        }
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
/// `#` starts a comment.
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
        let numbers: Vec<i32> = words
            .map(|t| {
                t.parse::<i32>()
                    .ok()
                    .filter(|v| v.unsigned_abs() <= 1 << 24)
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
