//! Turning engine errors and the prelude's result envelopes into typed results,
//! with stacks reduced to the hook's own frames and root-relative paths.

use deno_core::error::{CoreError, CoreErrorKind, JsError, format_stack_trace};
use deno_core::v8;
use serde::Deserialize;

use super::loader::SCHEME_PREFIX;
use super::outcome::{CallResult, JsFailure, SourceLocation};

/// A failure with no stack.
pub(crate) fn plain(name: &str, message: &str) -> JsFailure {
    JsFailure {
        name: name.to_string(),
        message: message.to_string(),
        stack: String::new(),
        location: None,
    }
}

/// A deno_core error (module load, evaluation, rejected call) as a failure.
pub(crate) fn from_core(error: &CoreError) -> JsFailure {
    from_kind(&error.0)
}

fn from_kind(kind: &CoreErrorKind) -> JsFailure {
    match kind {
        CoreErrorKind::Js(js) => from_js_error(js),
        CoreErrorKind::CouldNotExecute { error, .. } => from_kind(error),
        CoreErrorKind::PendingPromiseResolution => never_settled(),
        other => plain("Error", &strip_scheme(&other.to_string())),
    }
}

fn from_js_error(js: &JsError) -> JsFailure {
    let name = js.name.clone().unwrap_or_else(|| "Error".to_string());
    let message = js
        .message
        .clone()
        .unwrap_or_else(|| js.exception_message.clone());
    let location = js.frames.iter().find_map(|f| {
        let file = f.file_name.as_deref()?.strip_prefix(SCHEME_PREFIX)?;
        Some(SourceLocation {
            file: file.to_string(),
            line: u32::try_from(f.line_number?).ok()?,
            column: u32::try_from(f.column_number?).ok()?,
        })
    });
    let stack = js.stack.as_deref().map(hook_frames).unwrap_or_default();
    JsFailure {
        name,
        message: strip_scheme(&message),
        location: location.or_else(|| top_frame(&stack)),
        stack,
    }
}

/// The engine's stack formatter for every error: the `stack` a hook reads holds
/// only hook frames, with root-relative paths (see [`hook_frames`]).
///
/// It replaces deno_core's formatter, which would call a hook-defined
/// `Error.prepareStackTrace` with the engine's call-site objects: hooks never
/// receive those. It runs no JavaScript, so an error raised while the heap is
/// exhausted is formatted without allocating inside the hook's realm again.
pub(crate) fn hook_stack_trace<'s>(
    scope: &mut v8::PinScope<'s, '_>,
    error: v8::Local<'s, v8::Value>,
    sites: v8::Local<'s, v8::Array>,
) -> v8::Local<'s, v8::Value> {
    // Called by the engine from C: a panic must not unwind out of it (that aborts the
    // process). A stack that cannot be formatted is an empty one.
    let formatted = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let full = format_stack_trace(scope, error, sites);
        let text = full.to_rust_string_lossy(scope);
        v8::String::new(scope, &reduce_stack(&text))
            .map(Into::into)
            .unwrap_or(full)
    }));
    match formatted {
        Ok(stack) => stack,
        Err(_) => v8::String::empty(scope).into(),
    }
}

/// A full stack reduced to its header (`Name: message`, possibly several lines)
/// and the hook's own frames.
fn reduce_stack(stack: &str) -> String {
    let header_end = stack.find("\n    at ").unwrap_or(stack.len());
    let frames = hook_frames(&stack[header_end..]);
    if frames.is_empty() {
        stack[..header_end].to_string()
    } else {
        format!("{}\n{frames}", &stack[..header_end])
    }
}

/// Keeps only the stack lines that point into hook modules, with relative paths.
///
/// The prelude's stack formatter already writes hook frames only, as relative
/// paths; frames the engine formatted itself still carry the module scheme, and
/// anything naming another script (`hookrun:prelude`, `ext:…`, an absolute
/// path) is dropped.
pub(crate) fn hook_frames(stack: &str) -> String {
    stack
        .lines()
        .map(|l| strip_scheme(l.trim()))
        .filter(|l| parse_frame(l).is_some_and(|f| is_hook_file(&f.file)))
        .map(|l| format!("    {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Whether a frame's file is a root-relative module path.
fn is_hook_file(file: &str) -> bool {
    !file.is_empty() && !file.starts_with('/') && !file.contains(':') && !file.contains('\\')
}

/// The first `file:line:col` in a reduced stack.
pub(crate) fn top_frame(stack: &str) -> Option<SourceLocation> {
    stack.lines().find_map(parse_frame)
}

fn parse_frame(line: &str) -> Option<SourceLocation> {
    let body = line.trim().strip_prefix("at ")?;
    let inner = match (body.rfind('('), body.ends_with(')')) {
        (Some(open), true) => &body[open + 1..body.len() - 1],
        _ => body,
    };
    let mut parts = inner.rsplitn(3, ':');
    let column = parts.next()?.parse().ok()?;
    let line = parts.next()?.parse().ok()?;
    let file = parts.next()?.to_string();
    Some(SourceLocation { file, line, column })
}

fn strip_scheme(text: &str) -> String {
    text.replace(SCHEME_PREFIX, "")
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
enum Envelope {
    HookError { error: ThrownError },
    InvalidOutput { message: String },
    OutputTooLarge,
    Promise,
}

#[derive(Deserialize)]
struct ThrownError {
    name: String,
    message: String,
    stack: String,
}

/// Warning logged when a synchronously called hook returns a promise.
pub(crate) const IGNORED_PROMISE: &str = "the hook returned a Promise, but it is called synchronously: the result is ignored; return a plain value";

/// The failure of a call whose hook returned a promise that never settles.
pub(crate) fn never_settled() -> JsFailure {
    plain(
        "PendingPromiseError",
        "the hook returned a promise that never settles: nothing is left that could resolve or reject it; resolve it or return a value",
    )
}

/// What the engine answered for one call, before any limit it breached.
#[derive(Debug, PartialEq)]
pub(crate) struct Answer {
    /// How the call ended.
    pub result: CallResult,
    /// A synchronous call's hook returned a promise, which was not awaited
    /// (the value is then `null`).
    pub ignored_promise: bool,
    /// How many references to kept shared values the value holds.
    pub shared_refs: usize,
}

impl From<CallResult> for Answer {
    fn from(result: CallResult) -> Answer {
        Answer {
            result,
            ignored_promise: false,
            shared_refs: 0,
        }
    }
}

/// How the prelude starts the envelope of a value: `{"kind":"ok","refs":`,
/// the count, `,"value":`, the value's JSON and `}`.
const OK_PREFIX: &str = r#"{"kind":"ok","refs":"#;

/// The value and reference count of an `ok` envelope, read without buffering
/// the value twice as a tagged enum would.
fn ok_envelope(text: &str) -> Option<Result<(serde_json::Value, usize), serde_json::Error>> {
    let rest = text.strip_prefix(OK_PREFIX)?;
    let digits = rest.find(|c: char| !c.is_ascii_digit())?;
    let refs = rest[..digits].parse().ok()?;
    let value = rest[digits..]
        .strip_prefix(r#","value":"#)?
        .strip_suffix('}')?;
    Some(serde_json::from_str(value).map(|value| (value, refs)))
}

/// Reads the prelude's result envelope (see `invoke` in `js/prelude.js`).
pub(crate) fn from_envelope(text: &str, max_output_bytes: u64) -> Answer {
    if text.len() as u64 > max_output_bytes.saturating_add(64) {
        return Answer::from(CallResult::OutputTooLarge {
            limit_bytes: max_output_bytes,
        });
    }
    match ok_envelope(text) {
        Some(Ok((value, shared_refs))) => {
            return Answer {
                result: CallResult::Ok(value),
                ignored_promise: false,
                shared_refs,
            };
        }
        Some(Err(e)) => {
            return Answer::from(CallResult::InvalidOutput {
                message: format!("the hook's result could not be read back: {e}"),
            });
        }
        None => {}
    }
    let result = match serde_json::from_str::<Envelope>(text) {
        Ok(Envelope::Promise) => {
            return Answer {
                result: CallResult::Ok(serde_json::Value::Null),
                ignored_promise: true,
                shared_refs: 0,
            };
        }
        Ok(Envelope::HookError { error }) => {
            let stack = hook_frames(&error.stack);
            CallResult::HookError(JsFailure {
                name: error.name,
                message: strip_scheme(&error.message),
                location: top_frame(&stack),
                stack,
            })
        }
        Ok(Envelope::InvalidOutput { message }) => CallResult::InvalidOutput { message },
        Ok(Envelope::OutputTooLarge) => CallResult::OutputTooLarge {
            limit_bytes: max_output_bytes,
        },
        Err(e) => CallResult::InvalidOutput {
            message: format!("the hook's result could not be read back: {e}"),
        },
    };
    Answer::from(result)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stacks_keep_only_hook_frames() {
        let stack = "Error: boom\n    at inner (hookrun:///hooks/a.mjs:8:51)\n    at invoke (hookrun:prelude:200:3)\n    at ext:core/01_core.js:1:1\n    at hookrun:///lib/x.mjs:2:3\n    at outer (lib/y.mjs:4:5)\n    at host (/etc/hosts.mjs:1:1)\n    at Array.map (native)";
        let reduced = hook_frames(stack);
        assert_eq!(
            reduced,
            "    at inner (hooks/a.mjs:8:51)\n    at lib/x.mjs:2:3\n    at outer (lib/y.mjs:4:5)"
        );
        assert_eq!(
            top_frame(&reduced),
            Some(SourceLocation {
                file: "hooks/a.mjs".into(),
                line: 8,
                column: 51
            })
        );
    }

    #[test]
    fn full_stacks_keep_a_multi_line_header_and_hook_frames() {
        let stack = "Error: two\nlines\n    at invoke (hookrun:prelude:1:1)\n    at run (hookrun:///a.mjs:3:4)";
        assert_eq!(
            reduce_stack(stack),
            "Error: two\nlines\n    at run (a.mjs:3:4)"
        );
        assert_eq!(reduce_stack("Error: plain"), "Error: plain");
        assert_eq!(
            reduce_stack("Error: inner\n    at ext:core/01_core.js:1:1"),
            "Error: inner"
        );
    }

    #[test]
    fn envelopes_map_to_results() {
        assert_eq!(
            from_envelope(r#"{"kind":"ok","refs":0,"value":[1]}"#, 100),
            Answer::from(CallResult::Ok(serde_json::json!([1])))
        );
        let referring = from_envelope(r#"{"kind":"ok","refs":12,"value":{"a":"x"}}"#, 100);
        assert_eq!(referring.shared_refs, 12);
        assert_eq!(
            referring.result,
            CallResult::Ok(serde_json::json!({"a": "x"}))
        );
        assert!(matches!(
            from_envelope(r#"{"kind":"ok","refs":0,"value":[1}"#, 100).result,
            CallResult::InvalidOutput { .. }
        ));
        assert!(matches!(
            from_envelope(r#"{"kind":"output-too-large","limit":5}"#, 5),
            Answer {
                result: CallResult::OutputTooLarge { limit_bytes: 5 },
                ignored_promise: false,
                shared_refs: 0
            }
        ));
        assert!(matches!(
            from_envelope("not json", 100),
            Answer {
                result: CallResult::InvalidOutput { .. },
                ignored_promise: false,
                shared_refs: 0
            }
        ));
        assert_eq!(
            from_envelope(r#"{"kind":"promise","ignored":true}"#, 100),
            Answer {
                result: CallResult::Ok(serde_json::Value::Null),
                ignored_promise: true,
                shared_refs: 0
            }
        );
    }
}
