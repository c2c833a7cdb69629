//! The typed result of one sandboxed call, with its logs and resource usage.

use std::borrow::Cow;

use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Where a JS error happened, relative to the sandbox root.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SourceLocation {
    /// Path of the module relative to the root, with `/` separators.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
}

/// A JS error as plain data: what a hook threw, or why a module failed to load.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsFailure {
    /// The error's `name` (`TypeError`, `SyntaxError`, …).
    pub name: String,
    /// The error's `message`.
    pub message: String,
    /// The stack, reduced to the hook's own frames, paths relative to the root.
    pub stack: String,
    /// The top frame inside a hook module, when known.
    pub location: Option<SourceLocation>,
}

/// How a call ended.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum CallResult {
    /// The export returned (or resolved to) this value.
    Ok(Value),
    /// The export threw or rejected.
    HookError(JsFailure),
    /// The wall-clock limit was reached.
    Timeout {
        /// The limit in milliseconds.
        limit_ms: u64,
    },
    /// The heap cap was reached.
    MemoryLimit {
        /// The cap in bytes.
        limit_bytes: u64,
    },
    /// The returned value's JSON exceeded the output limit.
    OutputTooLarge {
        /// The limit in bytes.
        limit_bytes: u64,
    },
    /// The returned value cannot cross the boundary as JSON.
    InvalidOutput {
        /// What is wrong with it.
        message: String,
    },
    /// The module or export could not be loaded.
    LoadError(JsFailure),
    /// The host refused a write because the run's recorded writes would pass this
    /// many bytes (see [`HostBridge::take_breach`](super::HostBridge::take_breach)).
    WriteLimit {
        /// The limit in bytes.
        limit_bytes: u64,
    },
    /// A host call would have held more than this many bytes outside the engine
    /// (see [`HostBridge::take_breach`](super::HostBridge::take_breach)).
    HostLimit {
        /// The limit in bytes.
        limit_bytes: u64,
    },
    /// The worker process running the engine died during the call (only with
    /// [`Isolation::Process`](super::Isolation::Process)): a signal, an abort, a
    /// kernel limit, or a reply that was not the protocol.
    EngineCrash {
        /// What ended it: `signal 11 (SIGSEGV)`, `exit status 134`, a protocol error.
        cause: String,
        /// The last lines the worker wrote to standard error.
        stderr_tail: String,
    },
}

/// How a call ended, without what it ended with: the `outcome` of reports and
/// `--json` output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
#[non_exhaustive]
pub enum OutcomeKind {
    /// [`CallResult::Ok`].
    Ok,
    /// [`CallResult::HookError`].
    HookError,
    /// [`CallResult::Timeout`].
    Timeout,
    /// [`CallResult::MemoryLimit`].
    MemoryLimit,
    /// [`CallResult::OutputTooLarge`].
    OutputTooLarge,
    /// [`CallResult::InvalidOutput`].
    InvalidOutput,
    /// [`CallResult::LoadError`].
    LoadError,
    /// [`CallResult::WriteLimit`].
    WriteLimit,
    /// [`CallResult::HostLimit`].
    HostLimit,
    /// [`CallResult::EngineCrash`].
    EngineCrash,
}

impl OutcomeKind {
    /// The name as printed: `ok`, `hook-error`, `timeout`, …
    pub fn as_str(self) -> &'static str {
        match self {
            OutcomeKind::Ok => "ok",
            OutcomeKind::HookError => "hook-error",
            OutcomeKind::Timeout => "timeout",
            OutcomeKind::MemoryLimit => "memory-limit",
            OutcomeKind::OutputTooLarge => "output-too-large",
            OutcomeKind::InvalidOutput => "invalid-output",
            OutcomeKind::LoadError => "load-error",
            OutcomeKind::WriteLimit => "write-limit",
            OutcomeKind::HostLimit => "host-limit",
            OutcomeKind::EngineCrash => "engine-crash",
        }
    }
}

impl std::fmt::Display for OutcomeKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl CallResult {
    /// How the call ended.
    pub fn kind(&self) -> OutcomeKind {
        match self {
            CallResult::Ok(_) => OutcomeKind::Ok,
            CallResult::HookError(_) => OutcomeKind::HookError,
            CallResult::Timeout { .. } => OutcomeKind::Timeout,
            CallResult::MemoryLimit { .. } => OutcomeKind::MemoryLimit,
            CallResult::OutputTooLarge { .. } => OutcomeKind::OutputTooLarge,
            CallResult::InvalidOutput { .. } => OutcomeKind::InvalidOutput,
            CallResult::LoadError(_) => OutcomeKind::LoadError,
            CallResult::WriteLimit { .. } => OutcomeKind::WriteLimit,
            CallResult::HostLimit { .. } => OutcomeKind::HostLimit,
            CallResult::EngineCrash { .. } => OutcomeKind::EngineCrash,
        }
    }

    /// The outcome's name as printed in `--json` output.
    pub fn name(&self) -> &'static str {
        self.kind().as_str()
    }

    /// Whether the call ended because it passed one of its limits (time,
    /// heap, writes, host bytes); the runtime that ran it is then discarded.
    pub fn breaches_limit(&self) -> bool {
        matches!(
            self,
            CallResult::Timeout { .. }
                | CallResult::MemoryLimit { .. }
                | CallResult::WriteLimit { .. }
                | CallResult::HostLimit { .. }
        )
    }

    /// The error of a failed call as one readable sentence.
    pub fn error_message(&self) -> Option<String> {
        Some(match self {
            CallResult::Ok(_) => return None,
            CallResult::HookError(f) | CallResult::LoadError(f) => {
                if f.message.is_empty() {
                    f.name.clone()
                } else {
                    format!("{}: {}", f.name, f.message)
                }
            }
            CallResult::Timeout { limit_ms } => format!(
                "the hook did not finish within {limit_ms} ms; make it faster or raise the time limit"
            ),
            CallResult::MemoryLimit { limit_bytes } => format!(
                "the hook exceeded the heap cap of {} MiB; use less memory or raise the heap cap",
                limit_bytes / (1024 * 1024)
            ),
            CallResult::OutputTooLarge { limit_bytes } => format!(
                "the returned value is larger than {limit_bytes} bytes of JSON; return less or raise the output limit"
            ),
            CallResult::InvalidOutput { message } => message.clone(),
            CallResult::WriteLimit { limit_bytes } => format!(
                "the run's recorded writes would pass {} MiB; write less or raise the write limit",
                limit_bytes / (1024 * 1024)
            ),
            CallResult::HostLimit { limit_bytes } => format!(
                "a host call of the hook would have held more than {} MiB outside the engine; ask the host for less at a time or raise the host call budget",
                limit_bytes / (1024 * 1024)
            ),
            CallResult::EngineCrash { cause, stderr_tail } => {
                let tail = stderr_tail.trim();
                if tail.is_empty() {
                    format!(
                        "the engine process died during the call ({cause}); the next call gets a new one"
                    )
                } else {
                    format!(
                        "the engine process died during the call ({cause}); the next call gets a new one; its last output: {tail}"
                    )
                }
            }
        })
    }
}

/// Severity of a captured console message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// `console.debug`, `console.trace`
    Debug,
    /// `console.log`
    Log,
    /// `console.info`
    Info,
    /// `console.warn`
    Warn,
    /// `console.error`
    Error,
}

impl LogLevel {
    /// The level's name (`debug`, `log`, `info`, `warn`, `error`).
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Log => "log",
            LogLevel::Info => "info",
            LogLevel::Warn => "warn",
            LogLevel::Error => "error",
        }
    }

    pub(crate) fn from_code(code: u32) -> LogLevel {
        match code {
            0 => LogLevel::Debug,
            1 => LogLevel::Log,
            2 => LogLevel::Info,
            3 => LogLevel::Warn,
            _ => LogLevel::Error,
        }
    }
}

/// One captured console message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LogEntry {
    /// Its level.
    pub level: LogLevel,
    /// The formatted text.
    pub message: String,
}

/// What a call consumed.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Usage {
    /// Wall-clock milliseconds, module loading included.
    pub wall_ms: u64,
    /// Bytes of console output captured (before truncation).
    pub log_bytes: u64,
    /// Calls the hook made into the host.
    pub op_calls: u64,
    /// Bytes the argument crossed into the engine as (the engine's binary
    /// object format under QuickJS, JSON text under V8); members handed over
    /// on demand and parts that refer to kept [shared](super::Call::shared) or
    /// [copied](super::Call::copied) values are not counted.
    pub arg_bytes: u64,
    /// Heap in use at the end of the call, where the engine reports it and
    /// [`super::SandboxOptions::measure_heap`] asks for it.
    pub heap_used_bytes: Option<u64>,
}

/// The complete outcome of one call. Its JSON (what `hookrun call --json`
/// prints, and what a worker process sends back) is
/// `{"outcome", "value"? , "error"? {name, message, stack?, file?, line?, column?},
/// "limitMs"?, "limitBytes"?, "cause"?, "stderrTail"?, "logs", "usage"}`.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// How the call ended.
    pub result: CallResult,
    /// Console output, capped by the log limit.
    pub logs: Vec<LogEntry>,
    /// Resource usage.
    pub usage: Usage,
}

impl Outcome {
    /// Whether the call returned a value.
    pub fn is_ok(&self) -> bool {
        matches!(self.result, CallResult::Ok(_))
    }

    /// The JSON form (see [`Outcome`]).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// [`Outcome`]'s JSON form, borrowing the outcome's value and logs when it is
/// written.
#[derive(Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
struct OutcomeJson<'a> {
    outcome: OutcomeKind,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    value: Option<Cow<'a, Value>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    error: Option<ErrorJson>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    limit_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    limit_bytes: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cause: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stderr_tail: Option<String>,
    logs: Cow<'a, [LogEntry]>,
    usage: Usage,
}

/// The `error` of a failed call: the JS error of a hook or load error, else
/// the limit's error name and message.
#[derive(Serialize, Deserialize)]
struct ErrorJson {
    name: String,
    message: String,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    stack: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    line: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    column: Option<u32>,
}

impl ErrorJson {
    fn of_js(f: &JsFailure) -> ErrorJson {
        ErrorJson {
            name: f.name.clone(),
            message: f.message.clone(),
            stack: f.stack.clone(),
            file: f.location.as_ref().map(|l| l.file.clone()),
            line: f.location.as_ref().map(|l| l.line),
            column: f.location.as_ref().map(|l| l.column),
        }
    }

    fn into_js(self) -> JsFailure {
        let location = match (self.file, self.line, self.column) {
            (Some(file), Some(line), Some(column)) => Some(SourceLocation { file, line, column }),
            _ => None,
        };
        JsFailure {
            name: self.name,
            message: self.message,
            stack: self.stack,
            location,
        }
    }
}

/// The error name of a limit's outcome.
fn limit_error_name(kind: OutcomeKind) -> &'static str {
    match kind {
        OutcomeKind::Timeout => "TimeoutError",
        OutcomeKind::MemoryLimit => "MemoryLimitError",
        OutcomeKind::OutputTooLarge => "OutputTooLargeError",
        OutcomeKind::WriteLimit => "WriteLimitError",
        OutcomeKind::HostLimit => "HostLimitError",
        OutcomeKind::EngineCrash => "EngineCrashError",
        OutcomeKind::InvalidOutput
        | OutcomeKind::Ok
        | OutcomeKind::HookError
        | OutcomeKind::LoadError => "InvalidOutputError",
    }
}

impl Serialize for Outcome {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let kind = self.result.kind();
        let mut json = OutcomeJson {
            outcome: kind,
            value: None,
            error: None,
            limit_ms: None,
            limit_bytes: None,
            cause: None,
            stderr_tail: None,
            logs: Cow::Borrowed(&self.logs),
            usage: self.usage,
        };
        match &self.result {
            CallResult::Ok(value) => json.value = Some(Cow::Borrowed(value)),
            CallResult::HookError(f) | CallResult::LoadError(f) => {
                json.error = Some(ErrorJson::of_js(f));
            }
            other => {
                json.error = Some(ErrorJson {
                    name: limit_error_name(kind).to_string(),
                    message: other.error_message().unwrap_or_default(),
                    stack: String::new(),
                    file: None,
                    line: None,
                    column: None,
                });
                match other {
                    CallResult::Timeout { limit_ms } => json.limit_ms = Some(*limit_ms),
                    CallResult::MemoryLimit { limit_bytes }
                    | CallResult::OutputTooLarge { limit_bytes }
                    | CallResult::WriteLimit { limit_bytes }
                    | CallResult::HostLimit { limit_bytes } => {
                        json.limit_bytes = Some(*limit_bytes);
                    }
                    CallResult::EngineCrash { cause, stderr_tail } => {
                        json.cause = Some(cause.clone());
                        json.stderr_tail = Some(stderr_tail.clone());
                    }
                    _ => {}
                }
            }
        }
        json.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Outcome {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let OutcomeJson {
            outcome,
            value,
            error,
            limit_ms,
            limit_bytes,
            cause,
            stderr_tail,
            logs,
            usage,
        } = OutcomeJson::deserialize(deserializer)?;
        let missing = |field: &str| {
            <D::Error as serde::de::Error>::custom(format!("{outcome} without {field}"))
        };
        let limit_bytes = || limit_bytes.ok_or_else(|| missing("limitBytes"));
        let result = match outcome {
            OutcomeKind::Ok => CallResult::Ok(value.map_or(Value::Null, Cow::into_owned)),
            OutcomeKind::HookError => {
                CallResult::HookError(error.ok_or_else(|| missing("error"))?.into_js())
            }
            OutcomeKind::LoadError => {
                CallResult::LoadError(error.ok_or_else(|| missing("error"))?.into_js())
            }
            OutcomeKind::InvalidOutput => CallResult::InvalidOutput {
                message: error.ok_or_else(|| missing("error"))?.message,
            },
            OutcomeKind::Timeout => CallResult::Timeout {
                limit_ms: limit_ms.ok_or_else(|| missing("limitMs"))?,
            },
            OutcomeKind::MemoryLimit => CallResult::MemoryLimit {
                limit_bytes: limit_bytes()?,
            },
            OutcomeKind::OutputTooLarge => CallResult::OutputTooLarge {
                limit_bytes: limit_bytes()?,
            },
            OutcomeKind::WriteLimit => CallResult::WriteLimit {
                limit_bytes: limit_bytes()?,
            },
            OutcomeKind::HostLimit => CallResult::HostLimit {
                limit_bytes: limit_bytes()?,
            },
            OutcomeKind::EngineCrash => CallResult::EngineCrash {
                cause: cause.ok_or_else(|| missing("cause"))?,
                stderr_tail: stderr_tail.unwrap_or_default(),
            },
        };
        Ok(Outcome {
            result,
            logs: logs.into_owned(),
            usage,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn outcome(result: CallResult) -> Outcome {
        Outcome {
            result,
            logs: vec![LogEntry {
                level: LogLevel::Warn,
                message: "careful".into(),
            }],
            usage: Usage::default(),
        }
    }

    #[test]
    fn every_result_survives_its_one_json_shape() {
        let failure = JsFailure {
            name: "TypeError".into(),
            message: "x is undefined".into(),
            stack: "at hooks/a.mjs:3:5".into(),
            location: Some(SourceLocation {
                file: "hooks/a.mjs".into(),
                line: 3,
                column: 5,
            }),
        };
        let results = [
            CallResult::Ok(json!({"a": [1, null]})),
            CallResult::Ok(Value::Null),
            CallResult::HookError(failure.clone()),
            CallResult::LoadError(JsFailure {
                location: None,
                stack: String::new(),
                ..failure
            }),
            CallResult::Timeout { limit_ms: 50 },
            CallResult::MemoryLimit {
                limit_bytes: 1 << 20,
            },
            CallResult::OutputTooLarge { limit_bytes: 10 },
            CallResult::InvalidOutput {
                message: "a function".into(),
            },
            CallResult::WriteLimit {
                limit_bytes: 1 << 20,
            },
            CallResult::HostLimit {
                limit_bytes: 1 << 28,
            },
            CallResult::EngineCrash {
                cause: "signal 9 (SIGKILL)".into(),
                stderr_tail: "bye".into(),
            },
        ];
        for result in results {
            let outcome = outcome(result);
            let json = outcome.to_json();
            assert_eq!(json["outcome"], outcome.result.name(), "{json}");
            let back: Outcome = serde_json::from_value(json.clone()).unwrap();
            assert_eq!(back, outcome, "{json}");
        }
    }

    #[test]
    fn outcome_names_are_the_serialised_names() {
        for kind in [
            OutcomeKind::Ok,
            OutcomeKind::HookError,
            OutcomeKind::Timeout,
            OutcomeKind::MemoryLimit,
            OutcomeKind::OutputTooLarge,
            OutcomeKind::InvalidOutput,
            OutcomeKind::LoadError,
            OutcomeKind::WriteLimit,
            OutcomeKind::HostLimit,
            OutcomeKind::EngineCrash,
        ] {
            assert_eq!(serde_json::to_value(kind).unwrap(), kind.as_str());
            assert_eq!(
                serde_json::from_value::<OutcomeKind>(json!(kind.as_str())).unwrap(),
                kind
            );
        }
    }

    #[test]
    fn limits_carry_their_error_and_their_number() {
        let json = outcome(CallResult::Timeout { limit_ms: 50 }).to_json();
        assert_eq!(json["error"]["name"], "TimeoutError");
        assert_eq!(json["limitMs"], 50);
        assert!(
            json["error"]["message"]
                .as_str()
                .unwrap()
                .contains("within 50 ms")
        );
        assert_eq!(json["logs"][0]["message"], "careful");
        assert!(json.get("value").is_none());
        let missing: Result<Outcome, _> = serde_json::from_value(
            json!({"outcome": "timeout", "logs": [], "usage": Usage::default()}),
        );
        assert!(
            missing
                .unwrap_err()
                .to_string()
                .contains("timeout without limitMs")
        );
    }
}
