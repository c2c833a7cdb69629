//! Members that need a person, in an interactive run: each request checked as
//! the reference host's interactive Workflow Host checks it, then answered from
//! the fixture (pickers, the editor, `context.*`) or by the run itself (the
//! clipboard, toasts). Clipboard writes, toasts and editor sessions are recorded
//! as effects.
//!
//! - Pickers: `filters`, when given, is a list of at most 32 groups, each with a
//!   label and at most 64 extensions (`*.` and leading dots dropped, empty ones
//!   not counted).
//! - The clipboard is the run's: a fixture answer of `clipboard.readText`
//!   (without arguments) is what it holds at first; `writeText` replaces it,
//!   `clear` empties it, `readText` answers it (`null` when empty) and `hasText`
//!   whether it holds text (`""` included). Its text is at most 16 MiB of UTF-8.
//! - Toasts: trimmed text, a type of `default`, `success` or `error`, at most
//!   4,096 characters; a hook call (the reference's caller) has at most five
//!   visible at once, each visible for two seconds (under a frozen clock, for
//!   the whole call).
//! - The editor: `initialState`, `context` (when given) and the fixture's
//!   `result` must be bounded strict JSON (16 levels, 10,000 entries per
//!   collection, 256,000 characters per string or key).

use crate::host::js_value::{JsonBounds, js_text, js_trim};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::HookHost;
use crate::host::HostError;
use crate::host::members::Member;
use crate::host::members::request::Open;

/// Filter groups a picker takes.
const PICKER_GROUPS: usize = 32;

/// Extensions one filter group takes.
const PICKER_EXTENSIONS: usize = 64;

/// The clipboard's largest text, in bytes of UTF-8.
const CLIPBOARD_BYTES: usize = 16 * 1024 * 1024;

/// A toast's longest text, in UTF-16 code units.
const TOAST_CHARACTERS: usize = 4096;

/// Toasts one caller may have visible at once.
const VISIBLE_TOASTS: usize = 5;

/// How long a toast stays visible.
const TOAST_VISIBLE_FOR: Duration = Duration::from_millis(2000);

/// The bounds of an editor value: 16 levels, 10,000 entries per array or
/// object, 256,000 UTF-16 code units per string or key.
const EDITOR_BOUNDS: JsonBounds = JsonBounds {
    depth: 16,
    entries: 10_000,
    characters: 256_000,
};

/// What the interactive members keep between calls.
#[derive(Debug, Clone, Default)]
pub(super) struct Interaction {
    /// What the run's clipboard holds once a hook wrote or cleared it (`Some(None)`:
    /// empty); `None` until then.
    clipboard: Option<Option<String>>,
    /// When the current caller's toasts were shown.
    toasts: Vec<Instant>,
}

impl Interaction {
    /// A hook call is a caller of its own: none of its toasts are visible yet
    /// (the clipboard stays the run's).
    pub(super) fn next_caller(&mut self) {
        self.toasts.clear();
    }
}

impl HookHost {
    /// A member that needs a person, in an interactive run: its request checked
    /// as the reference's interactive host checks it, then answered.
    pub(super) fn interact(&mut self, member: Member, args: Value) -> Result<Value, HostError> {
        match member {
            Member::FilePickDirectory
            | Member::FilePickFile
            | Member::FilePickSaveFile
            | Member::FilePickFiles => {
                check_picker(args.get(0).unwrap_or(&Value::Null))?;
                self.fixture(member, args, Open)
            }
            Member::NotificationsToast => self.toast(args),
            Member::EditorOpenSession => self.editor_session(args),
            Member::ClipboardReadText | Member::ClipboardHasText => {
                self.read_clipboard(member, &args)
            }
            Member::ClipboardWriteText => {
                let text = args.get(0).and_then(Value::as_str).map(str::to_string);
                self.write_clipboard(member, args, text)
            }
            Member::ClipboardClear => self.write_clipboard(member, args, None),
            _ => self.fixture(member, args, Open),
        }
    }

    /// `notifications.toast(input)`: checked, then shown (recorded) unless the
    /// caller already has five visible.
    fn toast(&mut self, args: Value) -> Result<Value, HostError> {
        check_toast(args.get(0).unwrap_or(&Value::Null))?;
        let now = Instant::now();
        let frozen = self.clock_ms.is_some();
        let toasts = &mut self.interaction.toasts;
        // Under a frozen clock (`--deterministic`) no time passes within a call:
        // its toasts stay visible, so a run limits them the same way each time.
        if !frozen {
            toasts.retain(|shown| now.duration_since(*shown) < TOAST_VISIBLE_FOR);
        }
        if toasts.len() >= VISIBLE_TOASTS {
            return Err(HostError::workflow(
                "resource_limited",
                "Workflow caller already has five visible toasts",
                json!({"resource": "entries", "limit": VISIBLE_TOASTS, "observed": toasts.len()}),
            ));
        }
        let shown = self.settle_own(Member::NotificationsToast, args)?;
        self.interaction.toasts.push(now);
        Ok(shown)
    }

    /// `clipboard.writeText(text)` (`text` already checked) and `clipboard.clear()`
    /// (`text` is `None`): recorded, then what the clipboard holds.
    fn write_clipboard(
        &mut self,
        member: Member,
        args: Value,
        text: Option<String>,
    ) -> Result<Value, HostError> {
        let done = self.settle_own(member, args)?;
        self.interaction.clipboard = Some(text);
        Ok(done)
    }

    /// `clipboard.readText()` and `clipboard.hasText()`: what the run's clipboard
    /// holds, else what the fixture answers.
    fn read_clipboard(&self, member: Member, args: &Value) -> Result<Value, HostError> {
        let Some(held) = self.clipboard() else {
            return self.fixture_reply(member, args);
        };
        if member == Member::ClipboardHasText {
            return Ok(Value::Bool(held.is_some()));
        }
        match held {
            Some(text) => check_clipboard_bytes(&text).map(|()| Value::String(text)),
            None => Ok(Value::Null),
        }
    }

    /// What the run's clipboard holds: what a hook last wrote (`None` once
    /// cleared), else the fixture's answer of `clipboard.readText()`; not known
    /// without either.
    fn clipboard(&self) -> Option<Option<String>> {
        if let Some(held) = &self.interaction.clipboard {
            return Some(held.clone());
        }
        match &self.answers.find("clipboard.readText", &json!([]))?.reply {
            Ok(Value::String(text)) => Some(Some(text.clone())),
            Ok(_) => Some(None),
            Err(_) => None,
        }
    }

    /// A call the run answers itself (`undefined`), recorded; unless the fixture
    /// answers it with an error, which it then fails with, recorded as refused.
    fn settle_own(&mut self, member: Member, args: Value) -> Result<Value, HostError> {
        let reply = match self.answers.find(member.name(), &args) {
            Some(_) => self.fixture_reply(member, &args).map(|_| Value::Null),
            None => Ok(Value::Null),
        };
        self.record(member, args, None, reply)
    }

    /// `editor.openSession(input)`: `initialState` and `context` checked, the
    /// session answered from the fixture, its `result` checked; recorded.
    fn editor_session(&mut self, args: Value) -> Result<Value, HostError> {
        let input = match args.get(0) {
            None => return Err(no_input("undefined")),
            Some(Value::Null) => return Err(no_input("null")),
            Some(input) => input,
        };
        check_editor_value(input.get("initialState"), "initialState")?;
        if let Some(context) = input.get("context") {
            check_editor_value(Some(context), "context")?;
        }
        let member = Member::EditorOpenSession;
        let reply =
            self.fixture_reply(member, &args)
                .and_then(|session| match session.get("result") {
                    Some(result) => check_editor_value(Some(result), "result").map(|()| session),
                    None => Ok(session),
                });
        self.record(member, args, None, reply)
    }
}

/// The `TypeError` of reading `initialState` from a missing input.
fn no_input(what: &str) -> HostError {
    HostError::plain(
        "TypeError",
        format!("Cannot read properties of {what} (reading 'initialState')"),
    )
}

/// `clipboard.writeText(text)`'s argument: a string of at most 16 MiB.
pub(super) fn check_clipboard_text(args: &Value) -> Result<(), HostError> {
    let text = args.get(0).and_then(Value::as_str).ok_or_else(|| {
        HostError::workflow(
            "invalid_request",
            "Clipboard text must be a string",
            json!({"reason": "invalid_type", "field": "text"}),
        )
    })?;
    check_clipboard_bytes(text)
}

/// Clipboard text within the clipboard's byte limit.
fn check_clipboard_bytes(text: &str) -> Result<(), HostError> {
    if text.len() > CLIPBOARD_BYTES {
        return Err(HostError::workflow(
            "resource_limited",
            "Clipboard text exceeds the byte limit",
            json!({"resource": "bytes", "limit": CLIPBOARD_BYTES, "observed": text.len()}),
        ));
    }
    Ok(())
}

/// A picker's request: its `filters`, when given.
fn check_picker(request: &Value) -> Result<(), HostError> {
    let Some(filters) = request.get("filters") else {
        return Ok(());
    };
    let Some(groups) = filters.as_array() else {
        return Err(picker_refusal(
            "invalid_type",
            "Workflow picker filters must be an array",
        ));
    };
    if groups.len() > PICKER_GROUPS {
        return Err(picker_limit(PICKER_GROUPS, groups.len()));
    }
    for group in groups {
        let label = js_text(group.get("label"));
        let extensions = group
            .get("extensions")
            .and_then(Value::as_array)
            .map_or(0, |list| {
                let named = |e: &&Value| !without_wildcard(js_trim(&js_text(Some(e)))).is_empty();
                list.iter().filter(named).count()
            });
        if js_trim(&label).is_empty() || extensions == 0 {
            return Err(picker_refusal(
                "invalid_value",
                "Workflow picker filters require a label and extensions",
            ));
        }
        if extensions > PICKER_EXTENSIONS {
            return Err(picker_limit(PICKER_EXTENSIONS, extensions));
        }
    }
    Ok(())
}

/// The picker's `invalid_request` about `filters`.
fn picker_refusal(reason: &str, message: &str) -> HostError {
    HostError::workflow(
        "invalid_request",
        message,
        json!({"reason": reason, "field": "filters"}),
    )
}

/// The picker's `resource_limited` for more than `limit` groups or extensions.
fn picker_limit(limit: usize, observed: usize) -> HostError {
    HostError::workflow(
        "resource_limited",
        "Workflow file operation exceeds a fixed limit",
        json!({"resource": "selection", "limit": limit, "observed": observed}),
    )
}

/// An extension without a leading `*.` or dots (`*` alone stays).
fn without_wildcard(extension: &str) -> &str {
    let dotted = extension
        .strip_prefix('*')
        .filter(|rest| rest.starts_with('.'))
        .unwrap_or(extension);
    if dotted.starts_with('.') {
        dotted.trim_start_matches('.')
    } else {
        extension
    }
}

/// A toast's `input`: non-blank text of a known type, within the character limit.
fn check_toast(input: &Value) -> Result<(), HostError> {
    let raw = input.get("text").and_then(Value::as_str);
    let text = raw.map_or("", js_trim);
    let known = match input.get("type") {
        None | Some(Value::Null) => true,
        Some(kind) => kind
            .as_str()
            .is_some_and(|k| ["default", "success", "error"].contains(&k)),
    };
    if text.is_empty() || !known {
        let field = if text.is_empty() { "text" } else { "type" };
        return Err(HostError::workflow(
            "invalid_request",
            "Workflow toast request is invalid",
            json!({"reason": "invalid_value", "field": field}),
        ));
    }
    let observed = raw.map_or(0, |t| t.encode_utf16().count());
    if observed > TOAST_CHARACTERS {
        return Err(HostError::workflow(
            "resource_limited",
            "Workflow toast text exceeds the character limit",
            json!({"resource": "characters", "limit": TOAST_CHARACTERS, "observed": observed}),
        ));
    }
    Ok(())
}

/// An editor value (`None`: not given) that must be bounded strict JSON.
fn check_editor_value(value: Option<&Value>, field: &str) -> Result<(), HostError> {
    if value.is_some_and(|v| EDITOR_BOUNDS.hold(v)) {
        return Ok(());
    }
    Err(HostError::workflow(
        "invalid_request",
        format!("Workflow editor {field} must be bounded strict JSON"),
        json!({"reason": "invalid_schema", "field": field}),
    ))
}

#[cfg(test)]
#[path = "interaction_tests.rs"]
mod interaction_tests;
