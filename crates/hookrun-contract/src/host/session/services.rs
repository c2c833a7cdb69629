//! Host services: the add-on and environment facts, the status tag policy, the
//! runtime log, members that need a person or a service (answered from the
//! fixture or refused as the reference host refuses them), the archive members
//! and the mutation reads (`preview`, `getOperation`).

use serde_json::{Map, Value, json};

use super::{HookHost, Plan, unsupported};
use crate::host::HostError;
use crate::host::js_value::{JsonBounds, js_json, js_string, js_trim, json_bytes, utf16_len};
use crate::host::members::Member;
use crate::host::members::request::{Checked, Open, OperationLookup};
use crate::host::world::STATUS_KEYS;

/// The runtime log's largest message, in bytes.
const MAX_LOG_MESSAGE: usize = 16 * 1024;

/// The runtime log's longest stage, operation or phase, in UTF-16 code units.
const MAX_LOG_NAME: u64 = 128;

/// The runtime log's largest `details`, in bytes of JSON.
const MAX_LOG_DETAILS: u64 = 64 * 1024;

/// How many values (containers included) the runtime log's `details` may hold.
const MAX_LOG_NODES: usize = 512;

/// The strict-JSON bounds of `details`: 8 levels below its top, 512 entries per
/// array or object, 65,536 UTF-16 code units per string or member name.
const DETAILS_BOUNDS: JsonBounds = JsonBounds {
    depth: 8,
    entries: 512,
    characters: 64 * 1024,
};

impl HookHost {
    /// `addon.getConfig`, `environment.getInfo`, `statusTags.getPolicy`.
    pub(crate) fn service(
        &mut self,
        member: Member,
        _: Value,
        _: Open,
    ) -> Result<Value, HostError> {
        match member {
            Member::AddonGetConfig => Ok(json!({"addonName": "hookrun", "addonRef": "hookrun",
                "addonVersion": env!("CARGO_PKG_VERSION")})),
            Member::EnvironmentGetInfo => Ok(json!({"zoteroVersion": "unknown",
                "platform": match std::env::consts::OS { "windows" => "win32", "macos" => "darwin", "linux" => "linux", _ => "unknown" },
                "locale": self.locale})),
            Member::StatusTagsGetPolicy => Ok(Value::Object(
                STATUS_KEYS
                    .iter()
                    .map(|k| ((*k).to_string(), format!("status:{k}").into()))
                    .collect::<Map<_, _>>(),
            )),
            _ => Err(unsupported(member.name())),
        }
    }

    /// A member that needs a person: refused in non-interactive runs, checked and
    /// answered as the reference's interactive host does in interactive ones (see
    /// [`interact`](Self::interact)). A refused toast is still recorded.
    pub(crate) fn person(
        &mut self,
        member: Member,
        args: Value,
        _: Open,
    ) -> Result<Value, HostError> {
        if member == Member::ClipboardWriteText {
            // The reference's clipboard checks the text before it asks for a person.
            super::interaction::check_clipboard_text(&args)?;
        }
        if self.interactive {
            return self.interact(member, args);
        }
        let name = member.name();
        let mut error = HostError::workflow(
            "interaction_required",
            format!("{name} requires an interactive Workflow Host"),
            json!({"member": name}),
        );
        if let Some(error_name) = member.declaration().and_then(|d| d.error_name.as_ref()) {
            error.name = error_name.clone();
        }
        if member == Member::NotificationsToast {
            self.effects
                .refused(&self.site, name, args, error.to_json());
        }
        Err(error)
    }

    /// A member answered from the fixture's `hostAnswers`; one that `records`
    /// (js/host-api.json) is recorded as an effect with its answer, or as a
    /// refused one with its error.
    pub(crate) fn fixture(
        &mut self,
        member: Member,
        args: Value,
        _: Open,
    ) -> Result<Value, HostError> {
        self.recorded_fixture(member, args, None)
    }

    /// `researchBundles.importPapers(request)`: answered from the fixture and
    /// recorded like a library write, idempotent by its `operationId` (a repeat
    /// replays the first answer; the same id with another request is a
    /// `conflict`).
    pub(crate) fn import_papers(
        &mut self,
        member: Member,
        args: Value,
        request: OperationLookup,
    ) -> Result<Value, HostError> {
        let (name, id) = (member.name(), request.operation_id);
        if let Some(reply) = self.effects.replayed(name, &args, &id) {
            return Ok(reply);
        }
        self.effects.refuse_if_bound(&self.site, name, &args, &id)?;
        self.recorded_fixture(member, args, Some(id))
    }

    /// [`fixture`](Self::fixture), binding `operation_id` to a recorded answer.
    fn recorded_fixture(
        &mut self,
        member: Member,
        args: Value,
        operation_id: Option<String>,
    ) -> Result<Value, HostError> {
        let reply = self.fixture_reply(member, &args);
        if !member.declaration().is_some_and(|d| d.records) {
            return reply;
        }
        self.record(member, args, operation_id, reply)
    }

    /// Records `reply` to a call of `member`: an answer as an effect (bound to
    /// `operation_id`), an error as a refused one.
    pub(super) fn record(
        &mut self,
        member: Member,
        args: Value,
        operation_id: Option<String>,
        reply: Result<Value, HostError>,
    ) -> Result<Value, HostError> {
        let name = member.name();
        match reply {
            Ok(value) => {
                let effects = &mut self.effects;
                effects.commit(&self.site, name, args, operation_id, value.clone())?;
                Ok(value)
            }
            Err(error) => {
                self.effects
                    .refused(&self.site, name, args, error.to_json());
                Err(error)
            }
        }
    }

    /// What the fixture answers `member`, else its stand-in's answer or error.
    pub(super) fn fixture_reply(&self, member: Member, args: &Value) -> Result<Value, HostError> {
        let Some(declared) = member.declaration() else {
            return Err(unsupported(member.name()));
        };
        let member = member.name();
        if let Some(found) = self.answers.find(member, args) {
            return match &found.reply {
                Ok(value) => Ok(value.clone()),
                Err(fields) => {
                    let mut error = HostError::workflow(
                        fields["code"].as_str().unwrap_or("execution_failed"),
                        fields["message"].as_str().unwrap_or_default(),
                        fields.get("details").cloned().unwrap_or(json!({})),
                    );
                    if let Some(name) = declared.error_name.as_ref() {
                        error.name = name.clone();
                    }
                    Err(error)
                }
            };
        }
        if let Some(absent) = &declared.absent {
            return Ok(absent.clone());
        }
        let shown: Vec<&Value> = args
            .as_array()
            .map(|a| a.iter().take_while(|v| !v.is_null()).collect())
            .unwrap_or_default();
        let reason = declared
            .unavailable_message
            .as_deref()
            .unwrap_or("Workflow Host owner is unavailable");
        let mut error = HostError::workflow(
            "unavailable",
            format!(
                "{reason}: {member} needs a service this simulated host does not have; answer it in the case's hostAnswers: {{\"{member}\": [{{\"args\": {}, \"answer\": …}}]}}",
                serde_json::to_string(&shown).unwrap_or_default()
            ),
            declared
                .unavailable
                .clone()
                .unwrap_or(json!({"reason": "runtime"})),
        );
        // As on the reference host, which retries only when the caller asks.
        error.fields.insert("retryable".into(), false.into());
        Err(error)
    }

    /// `archive.measureEntries` and `archive.withExtractedZip`.
    pub(crate) fn archive(
        &mut self,
        member: Member,
        args: Value,
        _: Checked,
    ) -> Result<Value, HostError> {
        let input = args.get(0).unwrap_or(&Value::Null);
        match member {
            Member::ArchiveMeasureEntries => self.measure_entries(input),
            Member::ArchiveWithExtractedZip => {
                if args.get(2).is_some_and(Value::is_string) {
                    return Err(HostError::workflow(
                        "invalid_request",
                        "Archive callback is required",
                        json!({"reason": "missing_field", "field": "callback"}),
                    ));
                }
                let source = input
                    .get("sourcePath")
                    .and_then(Value::as_str)
                    .filter(|s| !s.trim().is_empty())
                    .ok_or_else(|| {
                        HostError::workflow(
                            "invalid_request",
                            "Archive source path is required",
                            json!({"reason": "missing_field", "field": "sourcePath"}),
                        )
                    })?;
                let scope = self.extract_zip(source)?;
                Ok(Plan::callback(vec![json!([scope.view])], scope.root))
            }
            _ => Err(unsupported(member.name())),
        }
    }

    /// The end of a callback member: an extracted archive's directory goes away.
    pub(super) fn finish_callback(
        &mut self,
        member: Member,
        args: &Value,
    ) -> Result<Value, HostError> {
        // Only a directory this host extracted and has not let go of yet.
        if member == Member::ArchiveWithExtractedZip
            && let Some(root) = args.get(0).and_then(Value::as_str)
            && let Ok(root) = crate::host::HostPath::parse(root)
            && self.live_roots.remove(&root)
        {
            self.overlay.remove(&root);
        }
        Ok(Value::Null)
    }

    /// `mutations.getOperation({operationId})`: the answer a write bound to it got.
    pub(crate) fn operation(
        &mut self,
        _: Member,
        _: Value,
        request: OperationLookup,
    ) -> Result<Value, HostError> {
        Ok(match self.effects.bound(&request.operation_id) {
            Some(reply) => json!({"state": "settled", "result": reply}),
            None => json!({"state": "unavailable"}),
        })
    }
}

impl HookHost {
    /// `logging.appendRuntimeLog(input)`: checks the entry as the reference host
    /// does and answers the line for the hook's log, `{level, message}`, with
    /// the entry redacted as the reference's log stores it.
    pub(crate) fn runtime_log(
        &mut self,
        _: Member,
        args: Value,
        _: Checked,
    ) -> Result<Value, HostError> {
        runtime_log(&args)
    }
}

/// See [`HookHost::runtime_log`].
fn runtime_log(args: &Value) -> Result<Value, HostError> {
    let invalid = || {
        HostError::workflow(
            "invalid_request",
            "Workflow log request is invalid",
            json!({"reason": "invalid_schema", "field": "input"}),
        )
    };
    let input = args.get(0).and_then(Value::as_object).ok_or_else(invalid)?;
    const KEYS: &[&str] = &["level", "stage", "message", "operation", "phase", "details"];
    if input.keys().any(|k| !KEYS.contains(&k.as_str())) {
        return Err(invalid());
    }
    let level = input
        .get("level")
        .and_then(Value::as_str)
        .filter(|l| ["debug", "info", "warn", "error"].contains(l))
        .ok_or_else(invalid)?;
    let (Some(stage), Some(message)) = (
        input.get("stage").and_then(Value::as_str),
        input.get("message").and_then(Value::as_str),
    ) else {
        return Err(invalid());
    };
    check_log_names(input)?;
    if message.len() > MAX_LOG_MESSAGE {
        return Err(HostError::workflow(
            "resource_limited",
            "Workflow log message exceeds the byte limit",
            json!({"resource": "bytes", "limit": MAX_LOG_MESSAGE, "observed": message.len()}),
        ));
    }
    let stage = Some(js_trim(stage))
        .filter(|s| !s.is_empty())
        .unwrap_or("unknown");
    let mut line = format!("[{stage}] {}", log_redact::redact_message(message));
    if let Some(details) = input.get("details") {
        check_log_details(details)?;
        line.push(' ');
        line.push_str(&js_json(&log_redact::redact_details(details)));
    }
    Ok(json!({"level": level, "message": line}))
}

/// The stage, operation and phase of a log entry: each, when given, a string
/// of at most 128 code units (anything else is measured as `String(value)`).
fn check_log_names(input: &Map<String, Value>) -> Result<(), HostError> {
    for field in ["stage", "operation", "phase"] {
        let Some(value) = input.get(field) else {
            continue;
        };
        let observed = utf16_len(&js_string(value));
        if !value.is_string() || observed > MAX_LOG_NAME {
            return Err(HostError::workflow(
                "resource_limited",
                format!("Workflow log {field} exceeds the character limit"),
                json!({"resource": "characters", "limit": MAX_LOG_NAME, "observed": observed}),
            ));
        }
    }
    Ok(())
}

/// A log entry's `details`: bounded strict JSON, then at most 512 values, then
/// at most 64 KiB of JSON.
fn check_log_details(details: &Value) -> Result<(), HostError> {
    if !DETAILS_BOUNDS.hold(details) {
        return Err(HostError::workflow(
            "invalid_request",
            "Workflow log details must be bounded strict JSON",
            json!({"reason": "invalid_schema", "field": "details"}),
        ));
    }
    let nodes = node_count(details);
    if nodes > MAX_LOG_NODES {
        return Err(HostError::workflow(
            "resource_limited",
            "Workflow log details exceed the node limit",
            json!({"resource": "entries", "limit": MAX_LOG_NODES, "observed": nodes}),
        ));
    }
    let bytes = json_bytes(details);
    if bytes > MAX_LOG_DETAILS {
        return Err(HostError::workflow(
            "resource_limited",
            "Workflow log details exceed the byte limit",
            json!({"resource": "bytes", "limit": MAX_LOG_DETAILS, "observed": bytes}),
        ));
    }
    Ok(())
}

/// How many values `value` holds, itself and every container included.
fn node_count(value: &Value) -> usize {
    1 + match value {
        Value::Array(items) => items.iter().map(node_count).sum(),
        Value::Object(members) => members.values().map(node_count).sum(),
        _ => 0,
    }
}

#[path = "log_redact.rs"]
mod log_redact;

#[path = "preview.rs"]
mod preview;

#[cfg(test)]
#[path = "recorded_tests.rs"]
mod recorded_tests;

#[cfg(test)]
#[path = "ported_logging_tests.rs"]
mod ported_logging_tests;
