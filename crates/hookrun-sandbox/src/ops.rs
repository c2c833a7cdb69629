//! The ops hook code can reach (through the prelude only): console capture and
//! the host bridge. Per-call bookkeeping lives in [`CallState`] in the `OpState`.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Instant;

use deno_core::{OpState, op2, v8};
use serde_json::{Value, json};

use super::host::{HostBreach, HostBridge};
use super::outcome::{LogEntry, LogLevel};
use super::startup::{BridgeError, Fault};

/// Marker appended once when the log limit is reached.
pub(crate) const TRUNCATION_MARKER: &str = "[hookrun: log output truncated at the log size limit]";

/// What each kept entry costs against the log limit besides its text: about the size
/// of its record in a report (`{"level":"warn","message":""}`), so a flood of empty
/// messages is capped like a flood of long ones.
pub(crate) const LOG_ENTRY_COST: u64 = 32;

/// What one call accumulates while it runs.
pub(crate) struct CallState {
    pub logs: Vec<LogEntry>,
    pub log_bytes: u64,
    kept_bytes: u64,
    pub log_limit: u64,
    pub truncated: bool,
    pub op_calls: u64,
    /// Bytes the argument crossed in as.
    pub arg_bytes: u64,
    pub host: Option<Rc<RefCell<dyn HostBridge>>>,
    /// The errors of host calls the sandbox answers itself ([`Startup::fault`](super::Startup::fault)).
    pub fault: fn(&str, Fault<'_>) -> BridgeError,
    /// The limit a host call of this call passed, if any.
    pub breach: Option<HostBreach>,
    /// When the call's time is up; host calls get it.
    pub deadline: Instant,
}

impl CallState {
    pub fn new(log_limit: u64, fault: fn(&str, Fault<'_>) -> BridgeError) -> CallState {
        CallState {
            logs: Vec::new(),
            log_bytes: 0,
            kept_bytes: 0,
            log_limit,
            truncated: false,
            op_calls: 0,
            arg_bytes: 0,
            host: None,
            fault,
            breach: None,
            deadline: Instant::now(),
        }
    }

    /// Starts a new call served by `host`: clears what the previous one left
    /// (its deadline and limits passed are the engine's `start_clock`'s).
    pub fn reset(&mut self, host: Option<Rc<RefCell<dyn HostBridge>>>) {
        self.logs.clear();
        self.log_bytes = 0;
        self.kept_bytes = 0;
        self.truncated = false;
        self.op_calls = 0;
        self.arg_bytes = 0;
        self.host = host;
    }

    /// Records a console message; returns whether more messages are accepted.
    fn log(&mut self, level: LogLevel, message: String) -> bool {
        self.log_bytes += message.len() as u64;
        if self.truncated {
            return false;
        }
        // Room for this entry's text, if there is room for an entry at all.
        let room = self.log_limit.checked_sub(self.kept_bytes + LOG_ENTRY_COST);
        if room.is_some_and(|room| message.len() as u64 <= room) {
            self.kept_bytes += message.len() as u64 + LOG_ENTRY_COST;
            self.logs.push(LogEntry { level, message });
            return true;
        }
        let mut cut = (room.unwrap_or(0) as usize).min(message.len());
        while !message.is_char_boundary(cut) {
            cut -= 1;
        }
        if cut > 0 {
            self.kept_bytes += cut as u64 + LOG_ENTRY_COST;
            self.logs.push(LogEntry {
                level,
                message: message[..cut].to_string(),
            });
        }
        self.logs.push(LogEntry {
            level: LogLevel::Warn,
            message: TRUNCATION_MARKER.to_string(),
        });
        self.truncated = true;
        false
    }
}

#[op2(fast)]
fn op_hookrun_log(state: &mut OpState, #[smi] level: u32, #[string] message: String) -> bool {
    state
        .borrow_mut::<CallState>()
        .log(LogLevel::from_code(level), message)
}

/// Nesting beyond this many levels is frozen or copied by the prelude's own
/// walk.
#[cfg(feature = "quickjs")]
const NATIVE_WALK_DEPTH: u32 = 10_000;

/// Freezes `value` and the plain objects and arrays it holds in one native
/// walk (`JS_DeepFreeze`, QuickJS): true once done. False when it could not
/// (nesting deeper than [`NATIVE_WALK_DEPTH`], the heap exhausted) or the
/// engine has no such walk (V8): the prelude then walks the value itself.
#[op2(fast)]
fn op_hookrun_deep_freeze(scope: &mut v8::PinScope, value: v8::Local<v8::Value>) -> bool {
    #[cfg(feature = "quickjs")]
    return match v8::Local::<v8::Object>::try_from(value) {
        Ok(object) => object.deep_freeze(scope, NATIVE_WALK_DEPTH).is_some(),
        Err(_) => true,
    };
    #[cfg(not(feature = "quickjs"))]
    {
        let _ = (scope, value);
        false
    }
}

/// A copy of `value` with fresh plain objects and arrays all the way down, in
/// one native walk (`JS_DeepCopy`, QuickJS); `undefined` when it could not
/// (a sparse or frozen array, nesting deeper than [`NATIVE_WALK_DEPTH`], the
/// heap exhausted) or the engine has no such walk (V8): the prelude then
/// copies the value itself.
#[op2]
fn op_hookrun_deep_copy<'s>(
    scope: &mut v8::PinScope<'s, '_>,
    value: v8::Local<'s, v8::Value>,
) -> v8::Local<'s, v8::Value> {
    #[cfg(feature = "quickjs")]
    if let Ok(object) = v8::Local::<v8::Object>::try_from(value)
        && let Some(copy) = object.deep_copy(scope, NATIVE_WALK_DEPTH)
    {
        return copy;
    }
    #[cfg(not(feature = "quickjs"))]
    let _ = value;
    v8::undefined(scope).into()
}

/// A new ordinary object with the own properties of `value` (an ordinary
/// object): the same prototype and keys in the same order, each with its
/// attributes and its value or accessor functions, and the same extensibility,
/// made natively (`JS_ShallowCopy`, QuickJS). `undefined` when it could not (any
/// other object, private fields, the heap exhausted) or the engine has no such
/// copy (V8): the prelude then copies the object itself.
#[op2]
fn op_hookrun_shallow_copy<'s>(
    scope: &mut v8::PinScope<'s, '_>,
    value: v8::Local<'s, v8::Value>,
) -> v8::Local<'s, v8::Value> {
    #[cfg(feature = "quickjs")]
    if let Ok(object) = v8::Local::<v8::Object>::try_from(value)
        && let Some(copy) = object.shallow_copy(scope)
    {
        return copy.into();
    }
    #[cfg(not(feature = "quickjs"))]
    let _ = value;
    v8::undefined(scope).into()
}

/// `JSON.stringify(value)` with the checks the prelude makes of a hook's
/// result (`serialize` in `js/prelude.js`) in one native walk
/// (`JS_JSONStringifyChecked`, QuickJS): `[text, refs]` once written,
/// `[code, key, number]` when a value failed a check (the codes of
/// `JS_JSON_CHECK_*`, 1 to 6), and no answer, the exception pending, when it
/// threw. `undefined` when the engine has no such walk (V8): the prelude then
/// checks in JavaScript. Getters and `toJSON` methods run during the walk and
/// may call other ops.
#[op2(reentrant)]
fn op_hookrun_checked_json<'s>(
    scope: &mut v8::PinScope<'s, '_>,
    value: v8::Local<'s, v8::Value>,
    budget: f64,
    #[smi] max_depth: u32,
    kept: v8::Local<'s, v8::Value>,
    call: f64,
    marker: v8::Local<'s, v8::Value>,
) -> v8::Local<'s, v8::Value> {
    #[cfg(feature = "quickjs")]
    {
        use v8::json::{CheckedJson, JsonChecks, JsonRefusal};
        let checks = JsonChecks {
            budget: budget as i64,
            max_depth,
            kept: Some(kept),
            call,
            marker: Some(marker),
        };
        let items: [v8::Local<v8::Value>; 3] =
            match v8::json::stringify_checked(scope, value, &checks) {
                CheckedJson::Written(text, refs) => {
                    let refs = v8::Integer::new_from_unsigned(scope, refs).into();
                    return v8::Array::new_with_elements(scope, &[text, refs]).into();
                }
                CheckedJson::Refused(refusal, key) => {
                    let (code, number) = match refusal {
                        JsonRefusal::TooDeep => (1, 0.0),
                        JsonRefusal::NotFinite(number) => (2, number),
                        JsonRefusal::Function => (3, 0.0),
                        JsonRefusal::Symbol => (4, 0.0),
                        JsonRefusal::BigInt => (5, 0.0),
                        JsonRefusal::TooLarge => (6, 0.0),
                    };
                    [
                        v8::Integer::new(scope, code).into(),
                        key,
                        v8::Number::new(scope, number).into(),
                    ]
                }
                CheckedJson::Threw => return v8::undefined(scope).into(),
            };
        v8::Array::new_with_elements(scope, &items).into()
    }
    #[cfg(not(feature = "quickjs"))]
    {
        let _ = (value, budget, max_depth, kept, call, marker);
        v8::undefined(scope).into()
    }
}

#[op2]
#[string]
fn op_hookrun_host(
    state: &mut OpState,
    #[string] member: String,
    #[string] args: String,
) -> String {
    let call = state.borrow_mut::<CallState>();
    call.op_calls += 1;
    let fault = call.fault;
    let deadline = call.deadline;
    // A call whose time is up starts no host work: the hook ends with `timeout`.
    let late = Instant::now() >= deadline;
    // The arguments' JSON text goes before the host works: a large argument is
    // then held once (as parsed), not twice.
    let parsed = serde_json::from_str::<Value>(&args);
    drop(args);
    let reply = match (&call.host, parsed) {
        (None, _) => Err(fault(&member, Fault::Unavailable)),
        (Some(_), _) if late => Err(fault(&member, Fault::Unavailable)),
        (Some(_), Err(e)) => Err(fault(&member, Fault::InvalidRequest(&e.to_string()))),
        (Some(host), Ok(args)) => match host.try_borrow_mut() {
            // Ops are called from the engine: a panic in the host must not unwind
            // through it (that aborts the process); it fails the host call instead.
            Ok(mut host) => ask(&mut *host, &member, args, deadline, fault),
            Err(_) => Err(fault(&member, Fault::Unavailable)),
        },
    };
    let breach = if late {
        Some(HostBreach::Deadline)
    } else {
        call.host
            .as_ref()
            .and_then(|host| host.try_borrow_mut().ok()?.take_breach())
    };
    if let Some(breach) = breach {
        end_call(state, breach);
    }
    match reply {
        Ok(value) => json!({ "ok": value }).to_string(),
        Err(error) => json!({ "error": error.to_json() }).to_string(),
    }
}

/// Ends the running call with `breach`'s outcome, which no hook can catch.
fn end_call(state: &mut OpState, breach: HostBreach) {
    state.borrow_mut::<CallState>().breach.get_or_insert(breach);
    if let Some(isolate) = state.try_borrow::<v8::IsolateHandle>() {
        isolate.terminate_execution();
    }
}

/// For native work an op does in pieces: whether the call's time is up, and if
/// so the call ends with `timeout`, as a host call past its deadline ends it.
pub(crate) fn out_of_time(state: &mut OpState) -> bool {
    let late = Instant::now() >= state.borrow::<CallState>().deadline;
    if late {
        end_call(state, HostBreach::Deadline);
    }
    late
}

/// `host`'s answer to a call of `member`; a panic in the host fails the call
/// with the [`Fault::Internal`] error instead of unwinding into the caller.
pub(crate) fn ask(
    host: &mut dyn HostBridge,
    member: &str,
    args: Value,
    deadline: Instant,
    fault: fn(&str, Fault<'_>) -> BridgeError,
) -> Result<Value, BridgeError> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        host.call(member, args, deadline)
    }))
    .unwrap_or_else(|panic| Err(fault(member, Fault::Internal(&panic_text(&*panic)))))
}

/// The message of a caught panic.
fn panic_text(panic: &(dyn std::any::Any + Send)) -> String {
    panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown failure".to_string())
}

deno_core::extension!(
    hookrun_sandbox,
    ops = [
        op_hookrun_log,
        op_hookrun_host,
        op_hookrun_deep_freeze,
        op_hookrun_deep_copy,
        op_hookrun_shallow_copy,
        op_hookrun_checked_json,
        super::web::op_hookrun_url_parse,
        super::web::op_hookrun_url_set,
        super::web::op_hookrun_form_parse,
        super::web::op_hookrun_form_serialize,
        super::web::op_hookrun_utf8_encode,
        super::web::op_hookrun_encoding_name,
        super::web::op_hookrun_text_decode,
        super::web::op_hookrun_utf8_tail,
    ],
    options = { log_limit: u64, fault: fn(&str, Fault<'_>) -> BridgeError },
    state = |state, options| {
        state.put(CallState::new(options.log_limit, options.fault));
    },
);

#[cfg(test)]
mod tests {
    use super::*;

    const BARE_FAULT: fn(&str, Fault<'_>) -> BridgeError = crate::Startup::BARE.fault;

    #[test]
    fn logs_are_capped_once_with_a_marker() {
        let mut s = CallState::new(10 + 2 * LOG_ENTRY_COST, BARE_FAULT);
        assert!(s.log(LogLevel::Log, "12345".into()));
        assert!(!s.log(LogLevel::Log, "6789012345".into()));
        assert!(!s.log(LogLevel::Log, "more".into()));
        let texts: Vec<_> = s.logs.iter().map(|l| l.message.as_str()).collect();
        assert_eq!(texts, ["12345", "67890", TRUNCATION_MARKER]);
        assert_eq!(s.log_bytes, 19);
    }

    #[test]
    fn truncation_respects_utf8_boundaries() {
        let mut s = CallState::new(4 + LOG_ENTRY_COST, BARE_FAULT);
        s.log(LogLevel::Info, "ééé".into());
        assert_eq!(s.logs[0].message, "éé");
    }

    #[test]
    fn empty_messages_count_against_the_limit_too() {
        let mut s = CallState::new(1024, BARE_FAULT);
        let kept = (0..1_000_000)
            .take_while(|_| s.log(LogLevel::Log, String::new()))
            .count();
        assert_eq!(kept as u64, 1024 / LOG_ENTRY_COST);
        assert_eq!(s.logs.len() as u64, 1024 / LOG_ENTRY_COST + 1);
        assert_eq!(
            s.logs.last().map(|l| l.message.as_str()),
            Some(TRUNCATION_MARKER)
        );
        assert!(!s.log(LogLevel::Log, String::new()));
    }
}
