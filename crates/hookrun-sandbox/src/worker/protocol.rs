//! The frames parent and worker exchange, typed, and how a worker ends.
//!
//! Each frame's JSON header is one of these enums, tagged by `op`; a call's
//! argument in the engine's encoding travels as the frame's attachment.

use std::borrow::Cow;
use std::path::Path;
use std::process::ExitCode;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::{CallResult, HostBreach, Outcome, SandboxOptions};

/// What the parent sends a worker.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub(super) enum ToWorker<'a> {
    /// Start a sandbox over `root` (answered with [`FromWorker::Ready`]).
    Init {
        /// The sandbox's root.
        root: Cow<'a, Path>,
        /// Its options (the startup travels by name).
        options: SandboxOptions,
        /// The name of its [`Startup`](crate::Startup).
        startup: Cow<'a, str>,
    },
    /// Call `export` of `module` (answered with [`FromWorker::Outcome`], after
    /// any number of [`FromWorker::Host`] calls).
    Call {
        /// The module.
        module: Cow<'a, Path>,
        /// The export.
        export: Cow<'a, str>,
        /// The argument, unless it is the frame's attachment.
        arg: Cow<'a, Value>,
        /// Whether the argument is the frame's attachment.
        encoded: bool,
        /// The live objects the call describes.
        live: Option<Cow<'a, Value>>,
        /// Whether the export is called without awaiting.
        sync: bool,
        /// Whether host calls are served (else they fail as unavailable).
        host: bool,
    },
    /// List `module`'s exports (answered with [`FromWorker::Exports`]).
    Exports {
        /// The module.
        module: Cow<'a, Path>,
    },
    /// The answer to a [`FromWorker::Host`] call.
    HostReply {
        /// The member's answer, or the host error it raised.
        answer: Result<Value, Value>,
        /// The limit the call passed, which ends the hook call.
        breach: Option<HostBreach>,
    },
    /// Drop the runtime's state (no answer).
    Reset,
    /// Drop the sandbox; the worker waits for another `Init` (no answer).
    Release,
}

/// What a worker sends its parent.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "kebab-case", rename_all_fields = "camelCase")]
pub(super) enum FromWorker {
    /// The sandbox of an `Init` started, or why not.
    Ready {
        /// Why it did not start.
        error: Option<String>,
    },
    /// A call's outcome.
    Outcome {
        /// The outcome.
        outcome: Outcome,
        /// Whether the runtime is still warm (its modules loaded).
        warm: bool,
    },
    /// A module's exports (name, is-function), or why they could not be listed.
    Exports {
        /// The list.
        exports: Result<Vec<(String, bool)>, CallResult>,
        /// Whether the runtime is still warm.
        warm: bool,
    },
    /// A host call of the running hook, for the parent to serve (answered with
    /// [`ToWorker::HostReply`]).
    Host {
        /// The member.
        member: String,
        /// Its arguments.
        args: Value,
        /// The milliseconds left until the hook call's deadline.
        left_ms: u64,
    },
}

/// How a worker process ends: its exit status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum WorkerExit {
    /// Its input ended or its parent went away: nothing is left to serve.
    Done = 0,
    /// Its protocol descriptor could not be set up, or a frame was unreadable.
    Broken = 3,
    /// A frame it did not expect: one it does not know, a call before `Init`,
    /// or anything but a `HostReply` while a host call waits.
    Confused = 4,
}

impl WorkerExit {
    /// The status as the process's exit code.
    pub(crate) fn code(self) -> ExitCode {
        ExitCode::from(self as u8)
    }

    /// Ends the worker process with this status.
    pub(crate) fn exit(self) -> ! {
        std::process::exit(self as i32)
    }

    /// What an exit status of a worker means, when it is one of these.
    pub(crate) fn meaning(code: i32) -> Option<&'static str> {
        [
            (WorkerExit::Done, "done"),
            (WorkerExit::Broken, "unreadable frame"),
            (WorkerExit::Confused, "unexpected frame"),
        ]
        .into_iter()
        .find(|(exit, _)| *exit as i32 == code)
        .map(|(_, meaning)| meaning)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The headers keep the shape the two sides have always exchanged:
    /// `op` in kebab case, members in camel case.
    #[test]
    fn frames_are_tagged_by_op_with_camel_case_members() {
        let host = FromWorker::Host {
            member: "library.listItems".into(),
            args: json!([{}]),
            left_ms: 250,
        };
        assert_eq!(
            serde_json::to_value(&host).unwrap(),
            json!({"op": "host", "member": "library.listItems", "args": [{}], "leftMs": 250})
        );
        let reply = ToWorker::HostReply {
            answer: Ok(json!({"items": []})),
            breach: None,
        };
        let text = serde_json::to_value(&reply).unwrap();
        assert_eq!(text["op"], "host-reply");
        match serde_json::from_value::<ToWorker<'_>>(text).unwrap() {
            ToWorker::HostReply { answer, breach } => {
                assert_eq!((answer, breach), (Ok(json!({"items": []})), None));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            serde_json::to_value(ToWorker::Release).unwrap(),
            json!({"op": "release"})
        );
        assert!(serde_json::from_value::<ToWorker<'_>>(json!({"op": "fork"})).is_err());
        assert_eq!(WorkerExit::meaning(4), Some("unexpected frame"));
        assert_eq!(WorkerExit::meaning(9), None);
    }
}
