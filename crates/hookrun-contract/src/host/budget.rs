//! What one host call may spend: the deadline of the hook call it serves and a
//! byte budget for what it holds outside the engine.
//!
//! A hook's limits (its timeout, its heap cap) bound what runs inside the
//! engine; a host call runs outside it, in Rust, on the hook's behalf. Every
//! handler works under its call's [`Budget`]: loops whose length a hook or a
//! fixture chooses (listings, copies, archive walks, traversals) call
//! [`Budget::tick`], and every buffer a call fills (file reads, archive entries,
//! the bytes of its reply) is first [`spent`](Budget::spend). A call that runs
//! out stops with an error the hook never sees as an ordinary error: the
//! sandbox ends the hook call with `timeout` or `host-limit`
//! ([`HookHost::take_breach`](super::HookHost::take_breach)).

use std::cell::Cell;
use std::time::Instant;

use serde_json::json;

use super::HostError;

/// The default byte budget of one host call: 512 MiB, room for the largest
/// answer the reference host gives (a 256 MiB `file.readBytes`, as base64) and
/// for an archive with the 256 MiB its entries may inflate to.
/// `RunOptions::max_host_call_bytes` and `--max-host-call-bytes` change it.
pub const DEFAULT_HOST_CALL_BYTES: u64 = 512 * 1024 * 1024;

/// How many [`Budget::tick`]s pass between two looks at the clock.
const TICKS_PER_CHECK: u32 = 256;

/// A limit a host call ran into; it ends the hook call.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Breach {
    /// A write was refused: the run's recorded writes would pass this many bytes.
    Writes(u64),
    /// The hook call's deadline passed.
    Deadline,
    /// The call would have held more than this many bytes.
    Bytes(u64),
}

/// One host call's deadline and byte budget (see the module docs).
#[derive(Debug)]
pub struct Budget {
    deadline: Option<Instant>,
    limit: u64,
    spent: Cell<u64>,
    ticks: Cell<u32>,
    exhausted: Cell<Option<Breach>>,
}

impl Budget {
    /// A budget ending at `deadline` (none: no time limit) that may hold `limit`
    /// bytes.
    pub fn new(deadline: Option<Instant>, limit: u64) -> Budget {
        Budget {
            deadline,
            limit,
            spent: Cell::new(0),
            ticks: Cell::new(0),
            exhausted: Cell::new(None),
        }
    }

    /// No deadline and the default byte budget: for work outside a hook call.
    pub fn unlimited() -> Budget {
        Budget::new(None, DEFAULT_HOST_CALL_BYTES)
    }

    /// One step of a loop: every `TICKS_PER_CHECK` steps, whether the deadline
    /// passed (then the call stops with [`HostError`] and
    /// [`exhausted`](Self::exhausted) says why).
    pub fn tick(&self) -> Result<(), HostError> {
        let ticks = self.ticks.get().wrapping_add(1);
        self.ticks.set(ticks);
        if ticks.is_multiple_of(TICKS_PER_CHECK) {
            self.check()
        } else {
            self.stopped()
        }
    }

    /// Whether the deadline passed, looking at the clock now.
    pub fn check(&self) -> Result<(), HostError> {
        if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.exhausted.set(Some(Breach::Deadline));
        }
        self.stopped()
    }

    /// Counts `bytes` the call is about to hold; past the limit the call stops.
    pub fn spend(&self, bytes: u64) -> Result<(), HostError> {
        let spent = self.spent.get().saturating_add(bytes);
        self.spent.set(spent);
        if spent > self.limit && self.exhausted.get().is_none() {
            self.exhausted.set(Some(Breach::Bytes(self.limit)));
        }
        self.stopped()
    }

    /// The bytes still to be had.
    pub fn left(&self) -> u64 {
        self.limit.saturating_sub(self.spent.get())
    }

    /// The limit the call ran into, if any.
    pub fn exhausted(&self) -> Option<Breach> {
        self.exhausted.get()
    }

    fn stopped(&self) -> Result<(), HostError> {
        match self.exhausted.get() {
            None => Ok(()),
            Some(Breach::Deadline) => Err(HostError::workflow(
                "resource_limited",
                "the hook's time ran out while the host worked",
                json!({"resource": "duration_ms", "limit": 0}),
            )),
            Some(Breach::Writes(_)) => Ok(()),
            Some(Breach::Bytes(limit)) => Err(HostError::workflow(
                "resource_limited",
                format!("the host call would hold more than {limit} bytes"),
                json!({"resource": "bytes", "limit": limit, "observed": self.spent.get()}),
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_passed_deadline_stops_the_next_checked_tick() {
        let budget = Budget::new(Some(Instant::now() - Duration::from_millis(1)), 10);
        let stopped = (0..TICKS_PER_CHECK)
            .map(|_| budget.tick())
            .position(|t| t.is_err());
        assert_eq!(stopped, Some(TICKS_PER_CHECK as usize - 1));
        assert_eq!(budget.exhausted(), Some(Breach::Deadline));
        assert!(budget.spend(0).is_err(), "once stopped, every step stops");
    }

    #[test]
    fn bytes_past_the_limit_stop_the_call() {
        let budget = Budget::new(None, 10);
        assert!(budget.spend(6).is_ok());
        assert_eq!(budget.left(), 4);
        let error = budget.spend(5).unwrap_err();
        assert_eq!(error.fields["details"]["observed"], 11);
        assert_eq!(budget.exhausted(), Some(Breach::Bytes(10)));
        assert!(budget.check().is_err());
    }

    #[test]
    fn an_unlimited_budget_never_times_out() {
        let budget = Budget::unlimited();
        for _ in 0..10 * TICKS_PER_CHECK {
            budget.tick().unwrap();
        }
        assert_eq!(budget.exhausted(), None);
    }
}
