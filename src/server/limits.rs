//! Limits applied to a connection before it may say who it is: how many
//! connections one address may hold, how fast it may open new ones, and how
//! many sessions the server holds in all; and how fast an address may talk.

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The limits a server applies.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Connections one address may hold at once.
    pub per_address: usize,
    /// New connections one address may open in a burst...
    pub burst: u32,
    /// ...and then one every this long.
    pub refill: Duration,
    /// Connections the server holds in all.
    pub total: usize,
    /// A connection that says nothing for this long is closed.
    pub idle: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            per_address: 16,
            burst: 20,
            refill: Duration::from_secs(3),
            total: 2000,
            idle: Duration::from_secs(30 * 60),
        }
    }
}

/// Why a connection was turned away.
#[derive(Clone, Copy, PartialEq, Eq, Debug, thiserror::Error)]
pub enum Refused {
    /// The address holds its share of connections.
    #[error("too many connections from your address; close one and try again")]
    TooManyFromAddress,
    /// The address opened too many connections too fast.
    #[error("too many new connections from your address; wait a few seconds")]
    TooFast,
    /// The server is full.
    #[error("the server is full; try again later")]
    Full,
}

#[derive(Default)]
struct Counts {
    total: usize,
    addresses: HashMap<IpAddr, Address>,
}

struct Address {
    open: usize,
    tokens: f64,
    checked: Instant,
}

/// The server's count of connections, shared by its doors, and how fast
/// each address may talk.
#[derive(Clone)]
pub struct Gate {
    limits: Limits,
    counts: Arc<Mutex<Counts>>,
    talkers: Talkers,
}

/// A connection let in: dropping it gives its place back.
pub struct Permit {
    ip: IpAddr,
    counts: Arc<Mutex<Counts>>,
}

impl Gate {
    /// A gate applying `limits`.
    pub fn new(limits: Limits) -> Gate {
        Gate {
            limits,
            counts: Arc::default(),
            talkers: Talkers::default(),
        }
    }

    /// Takes one line said (`say`, `tell`) at `now` by a connection from
    /// `peer`, or says how long to wait: every connection from one address
    /// shares one [`Talk`], so many connections cannot flood where one may
    /// not.
    pub fn talk(&self, peer: IpAddr, now: Instant) -> Result<(), Duration> {
        self.talkers.allow(peer, now)
    }

    /// The limits applied.
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Lets a connection from `peer` in, or says why not.
    pub fn admit(&self, peer: SocketAddr, now: Instant) -> Result<Permit, Refused> {
        let ip = peer.ip();
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if counts.total >= self.limits.total {
            return Err(Refused::Full);
        }
        let burst = f64::from(self.limits.burst);
        let refill = self.limits.refill.as_secs_f64().max(1e-3);
        // Forget quiet addresses, so the table stays as small as the traffic.
        if counts.addresses.len() > 4 * self.limits.total {
            counts.addresses.retain(|_, a| a.open > 0);
        }
        let address = counts.addresses.entry(ip).or_insert(Address {
            open: 0,
            tokens: burst,
            checked: now,
        });
        let waited = now.saturating_duration_since(address.checked).as_secs_f64();
        address.tokens = (address.tokens + waited / refill).min(burst);
        address.checked = now;
        if address.open >= self.limits.per_address {
            return Err(Refused::TooManyFromAddress);
        }
        if address.tokens < 1.0 {
            return Err(Refused::TooFast);
        }
        address.tokens -= 1.0;
        address.open += 1;
        counts.total += 1;
        Ok(Permit {
            ip,
            counts: Arc::clone(&self.counts),
        })
    }

    /// How many connections are held.
    pub fn open(&self) -> usize {
        self.counts.lock().unwrap_or_else(|e| e.into_inner()).total
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        counts.total = counts.total.saturating_sub(1);
        if let Some(address) = counts.addresses.get_mut(&self.ip) {
            address.open = address.open.saturating_sub(1);
        }
    }
}

/// How fast one address may talk to others (`say`, `tell`): a burst of
/// [`Talk::BURST`] lines, then one every [`Talk::REFILL`]. A line past that
/// is refused to its sender, never queued: a flood cannot fill another
/// player's outbox and have them dropped. The caller gives the time.
#[derive(Debug)]
pub struct Talk {
    tokens: f64,
    checked: Option<Instant>,
}

impl Default for Talk {
    fn default() -> Talk {
        Talk {
            tokens: f64::from(Talk::BURST),
            checked: None,
        }
    }
}

impl Talk {
    /// Lines one may say at once.
    pub const BURST: u32 = 5;
    /// Then one line this often.
    pub const REFILL: Duration = Duration::from_secs(1);

    /// Takes one line said at `now`, or says how long to wait for the next.
    pub fn allow(&mut self, now: Instant) -> Result<(), Duration> {
        let refill = Talk::REFILL.as_secs_f64();
        if let Some(checked) = self.checked {
            let waited = now.saturating_duration_since(checked).as_secs_f64();
            self.tokens = (self.tokens + waited / refill).min(f64::from(Talk::BURST));
        }
        self.checked = Some(now);
        if self.tokens < 1.0 {
            return Err(Duration::from_secs_f64((1.0 - self.tokens) * refill));
        }
        self.tokens -= 1.0;
        Ok(())
    }

    /// Whether at `now` the whole burst has come back: such a talker is
    /// the same as one never heard, and may be forgotten.
    fn rested(&self, now: Instant) -> bool {
        self.checked.is_none_or(|checked| {
            let waited = now.saturating_duration_since(checked).as_secs_f64();
            self.tokens + waited / Talk::REFILL.as_secs_f64() >= f64::from(Talk::BURST)
        })
    }
}

/// One [`Talk`] an address, in bounded memory: an address whose burst has
/// come back is forgotten once the table is full, and a table still full
/// of talkers after that (thousands of addresses each heard in the last
/// few seconds) starts again empty rather than grow.
#[derive(Clone, Default)]
struct Talkers {
    table: Arc<Mutex<HashMap<IpAddr, Talk>>>,
}

impl Talkers {
    /// The most addresses remembered.
    const MAX: usize = 4096;

    fn allow(&self, peer: IpAddr, now: Instant) -> Result<(), Duration> {
        let mut table = self.table.lock().unwrap_or_else(|e| e.into_inner());
        if table.len() >= Talkers::MAX && !table.contains_key(&peer) {
            table.retain(|_, talk| !talk.rested(now));
            if table.len() >= Talkers::MAX {
                table.clear();
            }
        }
        table.entry(peer).or_default().allow(now)
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.table.lock().unwrap_or_else(|e| e.into_inner()).len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn peer(last: u8) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, last], 5000))
    }

    #[test]
    fn an_address_gets_its_share_and_its_rate() {
        let gate = Gate::new(Limits {
            per_address: 2,
            burst: 3,
            refill: Duration::from_secs(10),
            total: 100,
            idle: Duration::from_secs(60),
        });
        let t = Instant::now();
        let a = gate.admit(peer(1), t).unwrap();
        let _b = gate.admit(peer(1), t).unwrap();
        assert_eq!(
            gate.admit(peer(1), t).err(),
            Some(Refused::TooManyFromAddress)
        );
        // Another address is not held back.
        let _c = gate.admit(peer(2), t).unwrap();
        drop(a);
        // One token left of three; then the burst is spent.
        let d = gate.admit(peer(1), t).unwrap();
        drop(d);
        assert_eq!(gate.admit(peer(1), t).err(), Some(Refused::TooFast));
        // Ten seconds later one more is let in.
        assert!(gate.admit(peer(1), t + Duration::from_secs(10)).is_ok());
    }

    #[test]
    fn the_server_holds_no_more_than_its_total() {
        let gate = Gate::new(Limits {
            total: 2,
            ..Limits::default()
        });
        let t = Instant::now();
        let _a = gate.admit(peer(1), t).unwrap();
        let _b = gate.admit(peer(2), t).unwrap();
        assert_eq!(gate.admit(peer(3), t).err(), Some(Refused::Full));
        assert_eq!(gate.open(), 2);
    }

    #[test]
    fn talk_takes_a_burst_then_a_line_a_second() {
        let mut talk = Talk::default();
        let t = Instant::now();
        for _ in 0..Talk::BURST {
            assert_eq!(talk.allow(t), Ok(()));
        }
        assert_eq!(talk.allow(t), Err(Duration::from_secs(1)));
        // Refused lines cost nothing: half a second later, half to wait.
        let half = t + Duration::from_millis(500);
        assert_eq!(talk.allow(half), Err(Duration::from_millis(500)));
        assert_eq!(talk.allow(t + Duration::from_secs(1)), Ok(()));
        assert!(talk.allow(t + Duration::from_secs(1)).is_err());
        // A quiet minute gives back the burst, and no more.
        let later = t + Duration::from_secs(60);
        for _ in 0..Talk::BURST {
            assert_eq!(talk.allow(later), Ok(()));
        }
        assert!(talk.allow(later).is_err());
    }

    #[test]
    fn connections_from_one_address_share_its_talk() {
        let gate = Gate::new(Limits::default());
        let t = Instant::now();
        let (one, other) = (peer(1).ip(), peer(2).ip());
        for _ in 0..Talk::BURST {
            assert_eq!(gate.talk(one, t), Ok(()));
        }
        // Whichever connection of the address says it, the next line waits.
        assert_eq!(gate.talk(one, t), Err(Duration::from_secs(1)));
        // Another address has a burst of its own.
        assert_eq!(gate.talk(other, t), Ok(()));
        assert_eq!(gate.talk(one, t + Talk::REFILL), Ok(()));
    }

    #[test]
    fn the_talkers_remembered_are_bounded() {
        let talkers = Talkers::default();
        let t = Instant::now();
        let address = |i: usize| IpAddr::from(std::net::Ipv6Addr::from(i as u128));
        for i in 0..Talkers::MAX {
            assert_eq!(talkers.allow(address(i), t), Ok(()));
        }
        assert_eq!(talkers.len(), Talkers::MAX);
        // Once their bursts have come back, they are forgotten to make room.
        let rested = t + Talk::REFILL * Talk::BURST;
        assert_eq!(talkers.allow(address(Talkers::MAX), rested), Ok(()));
        assert_eq!(talkers.len(), 1);
        // A table full of talkers heard just now starts again, never grows.
        for i in 0..Talkers::MAX {
            let _ = talkers.allow(address(Talkers::MAX + 1 + i), rested);
        }
        assert!(talkers.len() <= Talkers::MAX);
    }
}
