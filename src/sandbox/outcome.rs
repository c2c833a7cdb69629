//! The typed result of one sandboxed call, with its logs and resource usage.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

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
    /// many bytes (see [`HostError::write_limit`](super::HostError::write_limit)).
    WriteLimit {
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
            CallResult::EngineCrash { .. } => OutcomeKind::EngineCrash,
        }
    }

    /// The outcome's name as printed in `--json` output.
    pub fn name(&self) -> &'static str {
        self.kind().as_str()
    }

    /// Whether a runtime that produced this result may be used again.
    pub(crate) fn breaches_limit(&self) -> bool {
        matches!(
            self,
            CallResult::Timeout { .. }
                | CallResult::MemoryLimit { .. }
                | CallResult::WriteLimit { .. }
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
    /// on demand are not counted.
    pub arg_bytes: u64,
    /// Heap in use at the end of the call, where the engine reports it and
    /// [`super::SandboxOptions::measure_heap`] asks for it.
    pub heap_used_bytes: Option<u64>,
}

/// The complete outcome of one call.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
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

    /// The machine-readable form printed by `hookrun call --json`.
    pub fn to_json(&self) -> Value {
        let mut out = Map::new();
        out.insert("outcome".into(), json!(self.result.name()));
        match &self.result {
            CallResult::Ok(v) => {
                out.insert("value".into(), v.clone());
            }
            CallResult::HookError(f) | CallResult::LoadError(f) => {
                let mut error = Map::new();
                error.insert("name".into(), json!(f.name));
                error.insert("message".into(), json!(f.message));
                if !f.stack.is_empty() {
                    error.insert("stack".into(), json!(f.stack));
                }
                if let Some(loc) = &f.location {
                    error.insert("file".into(), json!(loc.file));
                    error.insert("line".into(), json!(loc.line));
                    error.insert("column".into(), json!(loc.column));
                }
                out.insert("error".into(), Value::Object(error));
            }
            other => {
                let name = match other {
                    CallResult::Timeout { .. } => "TimeoutError",
                    CallResult::MemoryLimit { .. } => "MemoryLimitError",
                    CallResult::OutputTooLarge { .. } => "OutputTooLargeError",
                    CallResult::WriteLimit { .. } => "WriteLimitError",
                    CallResult::EngineCrash { .. } => "EngineCrashError",
                    CallResult::InvalidOutput { .. }
                    | CallResult::Ok(_)
                    | CallResult::HookError(_)
                    | CallResult::LoadError(_) => "InvalidOutputError",
                };
                out.insert(
                    "error".into(),
                    json!({"name": name, "message": other.error_message()}),
                );
            }
        }
        out.insert("logs".into(), json!(self.logs));
        out.insert("usage".into(), json!(self.usage));
        Value::Object(out)
    }
}
