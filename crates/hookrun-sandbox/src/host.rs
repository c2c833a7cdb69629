//! The bridge between the prelude's host calls and whatever the embedder offers.
//!
//! The sandbox itself grants hooks nothing: without a bridge every host call
//! fails with the startup's [`Fault::Unavailable`](super::Fault::Unavailable)
//! error. Higher layers implement [`HostBridge`] to answer reads from their
//! world and to record writes.

use std::time::Instant;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::startup::BridgeError;

/// Answers host calls made by hook code (through the startup's animator).
pub trait HostBridge {
    /// Handles `member` (as the animator names it) called with the JSON `args`.
    ///
    /// `deadline` is the hook call's: work the call does past it is wasted, since
    /// the hook call ends with `timeout` anyway. A bridge whose work is long
    /// checks it and stops, reporting [`HostBreach::Deadline`].
    fn call(&mut self, member: &str, args: Value, deadline: Instant) -> Result<Value, BridgeError>;

    /// Asked after every call: the limit that call passed, if any, cleared by
    /// asking. The sandbox then ends the hook call with that limit's outcome
    /// ([`CallResult::WriteLimit`], [`CallResult::Timeout`] or
    /// [`CallResult::HostLimit`]), which no hook can catch. `None` (the default)
    /// while the host calls stay within bounds.
    ///
    /// [`CallResult::WriteLimit`]: super::CallResult::WriteLimit
    /// [`CallResult::Timeout`]: super::CallResult::Timeout
    /// [`CallResult::HostLimit`]: super::CallResult::HostLimit
    fn take_breach(&mut self) -> Option<HostBreach> {
        None
    }
}

/// A limit a host call passed; it ends the hook call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind")]
#[non_exhaustive]
pub enum HostBreach {
    /// A write was refused: the run's recorded writes would pass this many bytes.
    Writes {
        /// The limit in bytes.
        limit_bytes: u64,
    },
    /// The hook call's deadline passed while the host worked: the call ends with
    /// `timeout`.
    Deadline,
    /// The host call would have held more than this many bytes outside the
    /// engine (read buffers, archive entries, replies).
    Bytes {
        /// The limit in bytes.
        limit_bytes: u64,
    },
}
