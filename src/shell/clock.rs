//! The shell's clock as the core sees it: a [`Deadline`] at a moment, that
//! may also end early when the player asks (Ctrl-C).

use std::time::{Duration, Instant};

use crate::games::Deadline;

/// Time is up at a moment, or sooner when `stop` says so.
pub struct Until<'a> {
    end: Instant,
    stop: Option<&'a dyn Fn() -> bool>,
}

impl Until<'static> {
    /// A deadline `wait` from now.
    pub fn after(wait: Duration) -> Until<'static> {
        Until {
            end: Instant::now() + wait,
            stop: None,
        }
    }

    /// A deadline `millis` milliseconds from now.
    pub fn after_millis(millis: u64) -> Until<'static> {
        Until::after(Duration::from_millis(millis))
    }
}

impl<'a> Until<'a> {
    /// The same deadline, passed early whenever `stop` returns true.
    pub fn or_when<'b>(self, stop: &'b dyn Fn() -> bool) -> Until<'b> {
        Until {
            end: self.end,
            stop: Some(stop),
        }
    }
}

impl Deadline for Until<'_> {
    fn passed(&self) -> bool {
        Instant::now() >= self.end || self.stop.is_some_and(|stop| stop())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_deadline_passes_at_its_moment_or_when_stopped() {
        assert!(Until::after(Duration::ZERO).passed());
        assert!(!Until::after_millis(60_000).passed());
        let stop = || true;
        assert!(Until::after_millis(60_000).or_when(&stop).passed());
    }
}
