//! Fitting the evaluation's net (`tallyho::games::draughts::net`) on top of
//! the linear model: `draughts_train --net`.
//!
//! The model's value for a position is the engine's evaluation without the
//! net (kept fixed) plus the net's output, read as a probability of winning
//! `1 / (1 + e^(-v/K))`. The net is fitted in floating point by Adam on the
//! mean cross-entropy against the labels, in batches of 256 positions taken
//! in an order shuffled each pass (seeded), with a step that falls from
//! [`NetFit::rate`] towards nothing along half a cosine over the passes,
//! then rounded to the fixed-point weights the engine reads.

use rand::rngs::ChaCha8Rng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};

use tallyho::games::draughts::Position;
use tallyho::games::draughts::eval;
use tallyho::games::draughts::net::{self, HIDDEN, INPUTS, Net, SCALE};

/// What the fit is asked to do.
pub struct NetFit {
    /// The scale of the probability, in hundredths of a man.
    pub k: f64,
    /// Full passes over the positions.
    pub epochs: usize,
    /// Adam's step size at the first pass; it falls along half a cosine.
    pub rate: f32,
    /// Seeds the starting weights and the order of the positions.
    pub seed: u64,
    /// Start from this net (the one compiled in, to refine it) instead of
    /// seeded random weights.
    pub start: Option<Net>,
}

/// The positions, as the fit reads them.
pub struct Samples {
    /// Each position's inputs that are on, one after another.
    inputs: Vec<u8>,
    /// Where each position's inputs start in `inputs` (one more at the end).
    starts: Vec<u32>,
    /// The evaluation without the net.
    base: Vec<f32>,
    /// The game's result for the side to move: 1, 1/2 or 0.
    result: Vec<f32>,
    /// The depth-bound search's score, where the engine searched.
    score: Vec<Option<f32>>,
    /// The label: the probability of winning the model should give.
    label: Vec<f32>,
}

impl Samples {
    /// Positions with their results and scores.
    pub fn new<'a>(labelled: impl Iterator<Item = (&'a Position, f64, Option<i32>)>) -> Samples {
        let mut s = Samples {
            inputs: Vec::new(),
            starts: vec![0],
            base: Vec::new(),
            result: Vec::new(),
            score: Vec::new(),
            label: Vec::new(),
        };
        for (pos, y, score) in labelled {
            net::inputs(pos, |i| s.inputs.push(i as u8));
            s.starts.push(s.inputs.len() as u32);
            let without = eval::evaluate(pos) - net::learnt().value(pos);
            s.base.push(without as f32);
            s.result.push(y as f32);
            s.score.push(score.map(|v| v as f32));
        }
        s.label = s.result.clone();
        s
    }

    /// How many positions there are.
    pub fn len(&self) -> usize {
        self.base.len()
    }

    fn inputs_of(&self, i: usize) -> &[u8] {
        &self.inputs[self.starts[i] as usize..self.starts[i + 1] as usize]
    }

    /// The K that makes the evaluation without the net predict the results
    /// best.
    pub fn fit_k(&self) -> f64 {
        let loss = |k: f32| {
            let total: f64 = (0..self.len())
                .map(|i| cross_entropy(self.result[i], sigmoid(self.base[i] / k)))
                .sum();
            total / self.len().max(1) as f64
        };
        f64::from(least(20.0, 2000.0, loss))
    }

    /// Labels each position `lambda * result + (1 - lambda) * the score
    /// read as a probability`, where it has a score; the result elsewhere.
    pub fn blend(&mut self, k: f64, lambda: f64) {
        let (k, lambda) = (k as f32, lambda as f32);
        for i in 0..self.len() {
            self.label[i] = match self.score[i] {
                Some(v) => lambda * self.result[i] + (1.0 - lambda) * sigmoid(v / k),
                None => self.result[i],
            };
        }
    }
}

/// Where in `lo..hi` a function that falls and then rises is least: sixty
/// steps of a ternary search.
pub fn least<T>(mut lo: T, mut hi: T, f: impl Fn(T) -> f64) -> T
where
    T: Copy + std::ops::Add<Output = T> + std::ops::Sub<Output = T> + std::ops::Div<Output = T>,
    T: From<u8>,
{
    let three = T::from(3);
    for _ in 0..60 {
        let a = lo + (hi - lo) / three;
        let b = hi - (hi - lo) / three;
        if f(a) < f(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / T::from(2)
}

fn cross_entropy(y: f32, q: f32) -> f64 {
    let q = q.clamp(1e-6, 1.0 - 1e-6);
    -f64::from(y * q.ln() + (1.0 - y) * (1.0 - q).ln())
}

/// The net's parameters in floating point, in one vector: the input rows,
/// the hidden biases, the output weights (in men) and the output bias.
struct Params(Vec<f32>);

const BIAS: usize = INPUTS * HIDDEN;
const OUTPUT: usize = BIAS + HIDDEN;
const OUTPUT_BIAS: usize = OUTPUT + HIDDEN;
const COUNT: usize = OUTPUT_BIAS + 1;

impl Params {
    /// The hidden layer before the rectifier, and the model's value.
    fn forward(&self, s: &Samples, i: usize, hidden: &mut [f32; HIDDEN]) -> f32 {
        let p = &self.0;
        hidden.copy_from_slice(&p[BIAS..OUTPUT]);
        for &f in s.inputs_of(i) {
            let row = &p[f as usize * HIDDEN..(f as usize + 1) * HIDDEN];
            for (h, w) in hidden.iter_mut().zip(row) {
                *h += w;
            }
        }
        let mut out = p[OUTPUT_BIAS];
        for (h, w) in hidden.iter().zip(&p[OUTPUT..OUTPUT_BIAS]) {
            out += w * h.max(0.0);
        }
        s.base[i] + 100.0 * out
    }

    /// Mean cross-entropy over the positions `which`.
    fn loss(&self, s: &Samples, which: &[usize], k: f32) -> f64 {
        let mut hidden = [0.0; HIDDEN];
        let total: f64 = which
            .iter()
            .map(|&i| cross_entropy(s.label[i], sigmoid(self.forward(s, i, &mut hidden) / k)))
            .sum();
        total / which.len().max(1) as f64
    }

    /// The parameters of a fixed-point net.
    fn from_net(net: &Net) -> Params {
        let real = |w: i32| w as f32 / SCALE as f32;
        let mut p = vec![0.0; COUNT];
        for (f, row) in net.input.iter().enumerate() {
            for (j, &w) in row.iter().enumerate() {
                p[f * HIDDEN + j] = real(w);
            }
        }
        for j in 0..HIDDEN {
            p[BIAS + j] = real(net.bias[j]);
            p[OUTPUT + j] = real(net.output[j]) / 100.0;
        }
        p[OUTPUT_BIAS] = real(net.output_bias) / 100.0;
        Params(p)
    }

    /// The fixed-point net the engine reads.
    fn to_net(&self) -> Net {
        let p = &self.0;
        let fixed = |x: f32| (f64::from(x) * SCALE as f64).round() as i32;
        let mut net = Net::zero();
        for (f, row) in net.input.iter_mut().enumerate() {
            for (j, w) in row.iter_mut().enumerate() {
                *w = fixed(p[f * HIDDEN + j]);
            }
        }
        for j in 0..HIDDEN {
            net.bias[j] = fixed(p[BIAS + j]);
            net.output[j] = fixed(100.0 * p[OUTPUT + j]);
        }
        net.output_bias = fixed(100.0 * p[OUTPUT_BIAS]);
        net
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// What the fit found: the net, and the losses without it and with it on
/// the fitted and the held-out positions.
pub struct Fitted {
    pub net: Net,
    pub epoch: usize,
    pub before: (f64, f64),
    pub after: (f64, f64),
}

/// Fits the net to the positions `fitted`, keeping the epoch that predicts
/// `held` best (the last, if `held` is empty).
pub fn fit(s: &Samples, mut fitted: Vec<usize>, held: &[usize], opts: &NetFit) -> Fitted {
    let k = opts.k as f32;
    let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
    let mut p = match &opts.start {
        Some(net) => {
            let p = Params::from_net(net);
            eprintln!(
                "from the net compiled in: held out {:.5}",
                p.loss(s, held, k)
            );
            p
        }
        None => {
            let mut p = Params(vec![0.0; COUNT]);
            for w in &mut p.0[..BIAS] {
                *w = (rng.random::<f32>() - 0.5) * 0.2;
            }
            for j in 0..HIDDEN {
                p.0[BIAS + j] = 0.1;
                p.0[OUTPUT + j] = (rng.random::<f32>() - 0.5) * 0.02;
            }
            p
        }
    };
    // The model without the net: every weight of the output zero.
    let without = Params({
        let mut z = p.0.clone();
        z[OUTPUT..].iter_mut().for_each(|w| *w = 0.0);
        z
    });
    let before = (without.loss(s, &fitted, k), without.loss(s, held, k));
    let (mut m, mut v, mut g) = (vec![0f32; COUNT], vec![0f32; COUNT], vec![0f32; COUNT]);
    let (beta1, beta2) = (0.9f32, 0.999f32);
    let mut steps = 0;
    let mut hidden = [0.0; HIDDEN];
    let mut best: Option<(f64, usize, Net)> = None;
    for epoch in 1..=opts.epochs {
        fitted.shuffle(&mut rng);
        let gone = (epoch - 1) as f32 / opts.epochs as f32;
        let rate = opts.rate * 0.5 * (1.0 + (std::f32::consts::PI * gone).cos());
        for batch in fitted.chunks(256) {
            g.iter_mut().for_each(|x| *x = 0.0);
            for &i in batch {
                let q = sigmoid(p.forward(s, i, &mut hidden) / k);
                // The loss's slope against the net's output (in men).
                let d = (q - s.label[i]) / k * 100.0;
                g[OUTPUT_BIAS] += d;
                for (j, &h) in hidden.iter().enumerate() {
                    if h > 0.0 {
                        g[OUTPUT + j] += d * h;
                        let dh = d * p.0[OUTPUT + j];
                        g[BIAS + j] += dh;
                        for &f in s.inputs_of(i) {
                            g[f as usize * HIDDEN + j] += dh;
                        }
                    }
                }
            }
            steps += 1;
            let scale = 1.0 / batch.len() as f32;
            let (c1, c2) = (1.0 - beta1.powi(steps), 1.0 - beta2.powi(steps));
            for t in 0..COUNT {
                let gt = g[t] * scale;
                m[t] = beta1 * m[t] + (1.0 - beta1) * gt;
                v[t] = beta2 * v[t] + (1.0 - beta2) * gt * gt;
                p.0[t] -= rate * (m[t] / c1) / ((v[t] / c2).sqrt() + 1e-8);
            }
        }
        let score = if held.is_empty() {
            -(epoch as f64)
        } else {
            p.loss(s, held, k)
        };
        eprintln!(
            "epoch {epoch}: loss {:.5}, held out {:.5}",
            p.loss(s, &fitted[..fitted.len().min(200_000)], k),
            p.loss(s, held, k)
        );
        if best.as_ref().is_none_or(|b| score < b.0) {
            best = Some((score, epoch, p.to_net()));
        }
    }
    let (_, epoch, net) = best.unwrap_or((0.0, 0, Net::zero()));
    // The losses with the weights rounded as the engine keeps them (its
    // integer division may differ from this by a hundredth of a man).
    let fixed = Params::from_net(&net);
    let after = (fixed.loss(s, &fitted, k), fixed.loss(s, held, k));
    Fitted {
        net,
        epoch,
        before,
        after,
    }
}
