//! What a caller adds to the runtimes it starts: a start-up script that makes
//! call arguments live, a startup snapshot holding it, and the errors host calls
//! fail with when the sandbox cannot pass them on.
//!
//! The sandbox's own scripts (the prelude and the web-platform globals) always
//! run first. A caller's *animator* script is evaluated after them; its
//! completion value is a factory `(hostCall, tools) => ({animate, finish, prepare})`
//! (`prepare` optional):
//! - `hostCall(member, args)` calls the [`HostBridge`](crate::HostBridge)
//!   and returns its answer, or throws the [`BridgeError`] it failed with;
//! - `tools` holds `put(object, key, value)` (an own, writable property),
//!   `setAt(root, path, value)` (`put` at the end of a path of keys and
//!   indexes), `promiseThen(promise, onFulfilled, onRejected)`, `log(level, text)` and
//!   `deepFreeze(value)` (the freezing [shared values](crate::Call::shared)
//!   get), all taken before any hook code ran;
//! - `animate(arg, live)` is called with a call's argument and its
//!   [`Call::live`](crate::Call::live) JSON, and returns the argument the export
//!   gets; `finish()` is called once the call settled;
//! - `prepare(live)` is called once per runtime for each distinct
//!   [`Call::live`](crate::Call::live) JSON, and what it returns is what
//!   `animate` gets as `live` in every call with that JSON. Without it,
//!   `animate` gets the JSON itself, deeply frozen: the same object for every
//!   call with that JSON.
//!
//! ```
//! use hookrun_sandbox::{Call, CallResult, Sandbox, SandboxOptions, Script, Startup};
//! use serde_json::json;
//!
//! // Wraps the argument in an object naming the live description.
//! static STARTUP: Startup = Startup {
//!     animator: Some(Script {
//!         name: "example:animator",
//!         source: "(hostCall, tools) => ({ animate: (arg, live) => ({ arg, live }), finish() {} })",
//!     }),
//!     ..Startup::BARE
//! };
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::write(dir.path().join("echo.mjs"), "export const echo = (x) => x;")?;
//! let options = SandboxOptions::default().startup(&STARTUP);
//! let mut sandbox = Sandbox::new(dir.path(), options)?;
//! let live = json!({"kind": "tag"});
//! let outcome = sandbox.run(Call::new("echo.mjs".as_ref(), "echo", &json!(1)).live(&live));
//! assert_eq!(outcome.result, CallResult::Ok(json!({"arg": 1, "live": {"kind": "tag"}})));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use serde_json::{Map, Value, json};

/// A script evaluated while a runtime starts: its name (as stack traces show it)
/// and its source.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Script<'a> {
    /// The script's name, e.g. `myhost:animator`.
    pub name: &'a str,
    /// Its JavaScript source (a script, not a module).
    pub source: &'a str,
}

/// Why the sandbox answered a host call itself instead of passing it on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fault<'a> {
    /// No bridge is attached to the call, or it is busy with another host call.
    Unavailable,
    /// The arguments could not be read as JSON.
    InvalidRequest(&'a str),
    /// The bridge panicked while answering; the panic's text.
    Internal(&'a str),
}

/// The error a host call fails with: thrown in the hook as an `Error` with this
/// `name` and `message` and `fields` as further own properties.
#[derive(Debug, Clone, PartialEq)]
pub struct BridgeError {
    /// The error's `name`.
    pub name: String,
    /// The error's `message`.
    pub message: String,
    /// Further properties of the thrown error (`code`, `details`, …).
    pub fields: Map<String, Value>,
}

impl BridgeError {
    /// The JSON form the prelude throws: `fields` with `name` and `message`.
    pub fn to_json(&self) -> Value {
        let mut out = self.fields.clone();
        out.insert("name".into(), json!(self.name));
        out.insert("message".into(), json!(self.message));
        Value::Object(out)
    }

    /// The error from its [`BridgeError::to_json`] form; anything but an object
    /// becomes the message.
    pub fn from_json(value: Value) -> BridgeError {
        let mut fields = match value {
            Value::Object(fields) => fields,
            other => Map::from_iter([("message".to_string(), other)]),
        };
        let mut text = |key: &str| match fields.remove(key) {
            Some(Value::String(s)) => s,
            Some(other) => other.to_string(),
            None => String::new(),
        };
        let name = text("name");
        let message = text("message");
        BridgeError {
            name,
            message,
            fields,
        }
    }
}

/// What the runtimes of a sandbox start with beyond the sandbox's own scripts
/// (described with the module that defines it).
///
/// Startups are `static`s: [`SandboxOptions::startup`](crate::SandboxOptions::startup)
/// refers to one, and a worker process is started with the same one
/// ([`worker::serve`](crate::worker::serve)), matched by [`Startup::name`].
#[derive(Clone, Copy)]
pub struct Startup {
    /// Names this startup; two startups with one name must be the same.
    pub name: &'static str,
    /// The script whose completion value is the animator factory; without one a
    /// call with [`Call::live`](crate::Call::live) set fails to load.
    pub animator: Option<Script<'static>>,
    /// A snapshot made by [`snapshot::make`](crate::snapshot::make) from the same
    /// animator and this build of the sandbox, which runtimes restore instead of
    /// evaluating the scripts (QuickJS only; a snapshot made from other scripts
    /// is refused when a runtime starts).
    pub snapshot: Option<&'static [u8]>,
    /// The error of a host call the sandbox answers itself, given the member called.
    pub fault: fn(&str, Fault<'_>) -> BridgeError,
}

impl Startup {
    /// Nothing beyond the sandbox's own scripts; host calls the sandbox answers
    /// fail with plain errors named `HostError`.
    pub const BARE: Startup = Startup {
        name: "bare",
        animator: None,
        snapshot: None,
        fault: plain_fault,
    };
}

impl Default for &'static Startup {
    fn default() -> &'static Startup {
        &Startup::BARE
    }
}

impl PartialEq for Startup {
    fn eq(&self, other: &Startup) -> bool {
        self.name == other.name
    }
}

impl Eq for Startup {}

impl std::fmt::Debug for Startup {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Startup")
            .field("name", &self.name)
            .field("animator", &self.animator.map(|s| s.name))
            .field("snapshot_bytes", &self.snapshot.map(<[u8]>::len))
            .finish()
    }
}

/// [`Startup::BARE`]'s faults.
fn plain_fault(member: &str, fault: Fault<'_>) -> BridgeError {
    let message = match fault {
        Fault::Unavailable => format!("{member} is unavailable: no host is attached to this call"),
        Fault::InvalidRequest(why) => format!("{member}: invalid request: {why}"),
        Fault::Internal(why) => format!("{member} failed inside the host ({why})"),
    };
    BridgeError {
        name: "HostError".into(),
        message,
        fields: Map::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_cross_as_json_and_back() {
        let error = BridgeError {
            name: "E".into(),
            message: "m".into(),
            fields: Map::from_iter([("code".to_string(), json!("x"))]),
        };
        assert_eq!(BridgeError::from_json(error.to_json()), error);
        let text = BridgeError::from_json(json!("plain"));
        assert_eq!((text.name.as_str(), text.message.as_str()), ("", "plain"));
    }
}
