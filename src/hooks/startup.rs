//! What the hooks' sandboxes start with: the host facade (`js/facade.js` over
//! the Host API declaration `js/host-api.json`) as the sandbox's animator,
//! which builds `runtime.hostApi`, bundle readers and result contexts from a
//! call's [`Live`](super::Live) specs, and the contract's host errors for the
//! host calls the sandbox answers itself.

use crate::host::HostError;
use crate::sandbox::{BridgeError, Fault, SandboxOptions, Script, Startup};

/// The startup of every sandbox that runs workflow hooks. A host running
/// worker processes serves it from its worker binary
/// (`hookrun::sandbox::worker::serve(&[&hookrun::hooks::STARTUP])`, as the
/// `hookrun` binary does).
pub static STARTUP: Startup = Startup {
    name: "hookrun-facade",
    animator: Some(Script {
        name: "hookrun:facade",
        source: include_str!(concat!(env!("OUT_DIR"), "/facade.js")),
    }),
    snapshot: SNAPSHOT,
    fault,
};

/// The snapshot `build.rs` made of the sandbox's scripts and the facade.
#[cfg(hookrun_snapshot)]
const SNAPSHOT: Option<&[u8]> = Some(include_bytes!(concat!(env!("OUT_DIR"), "/startup.snap")));

/// No snapshot: V8, or a cross-compiled build.
#[cfg(not(hookrun_snapshot))]
const SNAPSHOT: Option<&[u8]> = None;

/// `options` for a sandbox that runs workflow hooks: with [`STARTUP`].
pub fn sandbox_options(options: SandboxOptions) -> SandboxOptions {
    options.startup(&STARTUP)
}

/// The contract's error for a host call the sandbox answers itself.
fn fault(member: &str, fault: Fault<'_>) -> BridgeError {
    bridge_error(match fault {
        Fault::Unavailable => HostError::unavailable(member),
        Fault::InvalidRequest(why) => HostError::invalid_request(member, why),
        Fault::Internal(why) => HostError::internal(member, why),
    })
}

/// A contract host error as the sandbox throws it in the hook.
pub fn bridge_error(error: HostError) -> BridgeError {
    BridgeError {
        name: error.name,
        message: error.message,
        fields: error.fields,
    }
}
