//! The engine's side of host calls: decodes a call the sandbox hands over, gives
//! it to the engine-free [`HookHost`] and encodes its answer or error. Nothing
//! here knows what a member means.

use std::ops::{Deref, DerefMut};
use std::time::Instant;

use serde_json::Value;

use crate::host::{Breach, HookHost};
use crate::sandbox::{BridgeError, HostBreach, HostBridge};

/// A [`HookHost`] as the sandbox's [`HostBridge`].
pub struct Bridge(HookHost);

impl Bridge {
    /// The bridge to `host`.
    pub fn new(host: HookHost) -> Bridge {
        Bridge(host)
    }
}

impl Deref for Bridge {
    type Target = HookHost;

    fn deref(&self) -> &HookHost {
        &self.0
    }
}

impl DerefMut for Bridge {
    fn deref_mut(&mut self) -> &mut HookHost {
        &mut self.0
    }
}

impl HostBridge for Bridge {
    fn take_breach(&mut self) -> Option<HostBreach> {
        Some(match self.0.take_breach()? {
            Breach::Writes(limit_bytes) => HostBreach::Writes { limit_bytes },
            Breach::Deadline => HostBreach::Deadline,
            Breach::Bytes(limit_bytes) => HostBreach::Bytes { limit_bytes },
        })
    }

    fn call(&mut self, member: &str, args: Value, deadline: Instant) -> Result<Value, BridgeError> {
        self.0
            .call(member, args, Some(deadline))
            .map_err(super::bridge_error)
    }
}
