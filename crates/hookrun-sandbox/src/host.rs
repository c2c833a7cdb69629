//! The bridge between the prelude's host calls and whatever the embedder offers.
//!
//! The sandbox itself grants hooks nothing: without a bridge every host call
//! fails with the startup's [`Fault::Unavailable`](super::Fault::Unavailable)
//! error. Higher layers implement [`HostBridge`] to answer reads from their
//! world and to record writes.

use serde_json::Value;

use super::startup::BridgeError;

/// Answers host calls made by hook code (through the startup's animator).
pub trait HostBridge {
    /// Handles `member` (as the animator names it) called with the JSON `args`.
    fn call(&mut self, member: &str, args: Value) -> Result<Value, BridgeError>;

    /// Asked after every call: the write limit in bytes if that call was refused a
    /// write for passing it, cleared by asking. The sandbox then ends the hook call with
    /// [`CallResult::WriteLimit`], which no hook can catch. `None` (the default) while
    /// writes are within bounds.
    ///
    /// [`CallResult::WriteLimit`]: super::CallResult::WriteLimit
    fn take_write_limit(&mut self) -> Option<u64> {
        None
    }
}
