//! The bridge between the prelude's host calls and whatever the embedder offers.
//!
//! The sandbox itself grants hooks nothing: without a bridge every host call
//! fails with `unavailable`. Higher layers implement [`HostBridge`] to answer
//! reads from their world and to record writes.

use serde_json::Value;

pub use hookrun_contract::host::{HOST_ERROR_SCHEMA, HostError};

/// Answers host calls made by hook code (`runtime.hostApi.*`, bundle readers, …).
pub trait HostBridge {
    /// Handles `member` (e.g. `library.getItemDetail`) called with the JSON `args`.
    fn call(&mut self, member: &str, args: Value) -> Result<Value, HostError>;

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
