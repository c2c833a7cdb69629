//! The rules that do not concern input planning: versions, provider, backend settings,
//! request and result shapes, execution modes, sequence hand-offs, trigger and hooks.

use serde_json::{Map, Value, json};

use super::{Migrator, insert_after, lookup, object_slot};
use crate::pointer::escape;

const JOB_KIND: &str = "skillrunner.job.v1";
const SEQUENCE_KIND: &str = "skillrunner.sequence.v1";

pub(super) fn run(m: &mut Migrator) {
    schema_version(m);
    provider(m);
    backend(m);
    defaults(m);
    legacy_create(m);
    result_fetch(m);
    modes(m);
    handoffs(m);
    trigger(m);
    hooks(m);
}

fn text<'a>(doc: &'a Map<String, Value>, pointer: &str) -> Option<&'a str> {
    lookup(doc, pointer).and_then(Value::as_str)
}

fn has_hook(doc: &Map<String, Value>, name: &str) -> bool {
    doc.get("hooks").and_then(|h| h.get(name)).is_some()
}

/// Legacy manifests have no `schemaVersion`; it goes first.
fn schema_version(m: &mut Migrator) {
    m.doc.shift_insert(0, "schemaVersion".into(), json!(2));
    m.change(
        "/schemaVersion",
        Value::Null,
        json!(2),
        "schema-version",
        "declared schema version 2".into(),
    );
}

/// The provider a legacy manifest meant: the `request.kind` prefix, else Skill-Runner
/// when it names a `backend`, else pass-through.
fn provider(m: &mut Migrator) {
    if text(&m.doc, "/provider").is_some_and(|p| !p.trim().is_empty()) {
        return;
    }
    let kind = text(&m.doc, "/request/kind").map(str::to_string);
    let from_kind = kind.as_deref().and_then(|kind| {
        let prefix = kind.split('.').next().unwrap_or_default();
        ["skillrunner", "acp", "generic-http", "pass-through"]
            .into_iter()
            .find(|p| *p == prefix)
    });
    let (provider, why) = match (from_kind, &kind) {
        (Some(p), Some(kind)) => (p, format!("from the request kind {kind}")),
        (None, Some(kind)) => {
            m.manual(
                "/provider",
                format!(
                    "no provider, and the request kind {kind} names none: add \"provider\" \
                     (pass-through, skillrunner, acp or generic-http)"
                ),
            );
            return;
        }
        (_, None) if m.doc.contains_key("backend") => {
            ("skillrunner", "from the legacy backend block".to_string())
        }
        _ => (
            "pass-through",
            "no request is declared, so the workflow passes its input through".to_string(),
        ),
    };
    m.doc.shift_remove("provider");
    insert_after(&mut m.doc, &["label", "id"], "provider", json!(provider));
    m.change(
        "/provider",
        Value::Null,
        json!(provider),
        "provider-from-kind",
        format!("provider {provider}, {why}"),
    );
}

/// `backend.skillId` becomes `request.create.skill_id`; the rest of `backend` (the
/// engine) is a backend setting in v2 and is dropped.
fn backend(m: &mut Migrator) {
    let Some(backend) = m.doc.shift_remove("backend") else {
        return;
    };
    let mut rest = backend.clone();
    let skill = rest
        .as_object_mut()
        .and_then(|b| b.shift_remove("skillId"))
        .and_then(|s| s.as_str().map(str::to_string));
    if let Some(skill) = skill {
        let build_hook = has_hook(&m.doc, "buildRequest");
        let Some(request) = object_slot(&mut m.doc, "request", &["validateSelection", "inputs"])
        else {
            return;
        };
        if !request.contains_key("kind") && !build_hook {
            request.insert("kind".into(), json!(JOB_KIND));
        }
        if let Some(create) = object_slot(request, "create", &["kind"])
            && !create.contains_key("skill_id")
        {
            create.shift_insert(0, "skill_id".into(), json!(skill));
            m.change(
                "/request/create/skill_id",
                json!(skill),
                json!(skill),
                "backend-skill-id",
                "moved from /backend/skillId".into(),
            );
        }
    }
    m.lossy(
        "/backend",
        backend,
        Value::Null,
        "backend-dropped",
        format!(
            "removed the backend block{}: engines and models are backend settings of the host in v2",
            if rest.as_object().is_some_and(|r| !r.is_empty()) {
                format!(" ({rest})")
            } else {
                String::new()
            }
        ),
    );
}

fn defaults(m: &mut Migrator) {
    if let Some(defaults) = m.doc.shift_remove("defaults") {
        m.lossy(
            "/defaults",
            defaults,
            Value::Null,
            "defaults-dropped",
            "removed: v2 takes defaults from parameters.*.default and the host's backend settings"
                .into(),
        );
    }
}

/// `request.create.{engine, model, runtime_options}` are dropped; `parameter {k: v}`
/// becomes declared parameters with `v` as their default.
fn legacy_create(m: &mut Migrator) {
    let Some(create) = m
        .doc
        .get_mut("request")
        .and_then(|r| r.get_mut("create"))
        .and_then(Value::as_object_mut)
    else {
        return;
    };
    let dropped: Vec<(String, Value)> = ["engine", "model", "runtime_options"]
        .into_iter()
        .filter_map(|k| create.shift_remove(k).map(|v| (k.to_string(), v)))
        .collect();
    let parameter = create.shift_remove("parameter");
    for (key, value) in dropped {
        m.lossy(
            &format!("/request/create/{key}"),
            value,
            Value::Null,
            "create-engine-dropped",
            format!("removed request.create.{key}: a backend setting of the host in v2"),
        );
    }
    if let Some(parameter) = parameter {
        create_parameters(m, &parameter);
    }
}

/// `request.create.parameter {k: v}` as declared parameters with `v` as their default
/// (a parameter already declared stays as it is).
fn create_parameters(m: &mut Migrator, parameter: &Value) {
    let Some(values) = parameter.as_object() else {
        m.manual(
            "/request/create/parameter",
            format!("request.create.parameter {parameter} is not an object; declare its values under \"parameters\""),
        );
        return;
    };
    for (key, value) in values {
        let pointer = format!("/parameters/{}", escape(key));
        let Some(kind) = parameter_type(value) else {
            m.manual(
                &pointer,
                format!("request.create.parameter.{key} is {value}, which no v2 parameter type holds: declare parameters.{key} by hand"),
            );
            continue;
        };
        let Some(parameters) =
            object_slot(&mut m.doc, "parameters", &["trigger", "provider", "label"])
        else {
            return;
        };
        if parameters.contains_key(key) {
            m.change(
                &pointer,
                value.clone(),
                Value::Null,
                "create-parameter",
                format!(
                    "request.create.parameter.{key} removed: parameters.{key} already declares it"
                ),
            );
            continue;
        }
        let declared = json!({"type": kind, "default": value});
        parameters.insert(key.clone(), declared.clone());
        m.change(
            &pointer,
            value.clone(),
            declared,
            "create-parameter",
            format!("request.create.parameter.{key} declared as a {kind} parameter with its value as default"),
        );
    }
}

fn parameter_type(value: &Value) -> Option<&'static str> {
    match value {
        Value::String(_) => Some("string"),
        Value::Number(_) => Some("number"),
        Value::Bool(_) => Some("boolean"),
        Value::Array(items) if items.iter().all(Value::is_string) => Some("array"),
        _ => None,
    }
}

/// `request.result.fetch` (and a string `result.fetch`) become `result.fetch.type`.
fn result_fetch(m: &mut Migrator) {
    let legacy = m
        .doc
        .get_mut("request")
        .and_then(Value::as_object_mut)
        .and_then(|r| r.shift_remove("result"));
    if let Some(legacy) = legacy {
        let fetch = match legacy.get("fetch") {
            Some(Value::String(s)) => Some(s.clone()),
            Some(Value::Object(f)) => f.get("type").and_then(Value::as_str).map(str::to_string),
            _ => None,
        };
        let declared = lookup(&m.doc, "/result/fetch/type").is_some();
        if let Some(fetch) = fetch.filter(|_| !declared) {
            set_fetch_type(m, &fetch);
            m.change(
                "/result/fetch/type",
                legacy.clone(),
                json!(fetch),
                "result-fetch",
                "moved from /request/result/fetch".into(),
            );
        } else {
            m.change(
                "/request/result",
                legacy,
                Value::Null,
                "result-fetch",
                "removed request.result: the fetch type lives in result.fetch.type".into(),
            );
        }
    }
    if let Some(Value::String(fetch)) = lookup(&m.doc, "/result/fetch").cloned() {
        set_fetch_type(m, &fetch);
        m.change(
            "/result/fetch",
            json!(fetch),
            json!({"type": fetch}),
            "result-fetch",
            "result.fetch is an object with a type in v2".into(),
        );
    }
}

fn set_fetch_type(m: &mut Migrator, fetch: &str) {
    let after = ["request", "execution", "hooks"];
    if let Some(result) = object_slot(&mut m.doc, "result", &after) {
        result.insert("fetch".into(), json!({"type": fetch}));
    }
}

/// The execution mode moves from `execution` to `request.create.mode` (jobs) or each
/// step's `mode` (sequences), `"auto"` when the manifest named none.
fn modes(m: &mut Migrator) {
    let mode = execution_mode(m).unwrap_or_else(|| "auto".into());
    let kind = text(&m.doc, "/request/kind").map(str::to_string);
    let build_hook = has_hook(&m.doc, "buildRequest");
    let Some(request) = m.doc.get_mut("request").and_then(Value::as_object_mut) else {
        return;
    };
    let mut set = Vec::new();
    let needs_create = kind.as_deref() == Some(JOB_KIND) && !build_hook;
    if (request.get("create").is_some_and(Value::is_object) || needs_create)
        && let Some(create) = object_slot(request, "create", &["kind"])
        && !create.contains_key("mode")
    {
        create.insert("mode".into(), json!(mode));
        set.push("/request/create/mode".to_string());
    }
    if kind.as_deref() == Some(SEQUENCE_KIND)
        && let Some(steps) = request
            .get_mut("sequence")
            .and_then(|s| s.get_mut("steps"))
            .and_then(Value::as_array_mut)
    {
        for (i, step) in steps.iter_mut().enumerate() {
            if let Some(step) = step.as_object_mut()
                && !step.contains_key("mode")
            {
                insert_after(step, &["skill_id", "id"], "mode", json!(mode));
                set.push(format!("/request/sequence/steps/{i}/mode"));
            }
        }
    }
    for pointer in set {
        m.change(
            &pointer,
            Value::Null,
            json!(mode),
            "create-mode",
            format!("execution mode {mode} declared where v2 reads it"),
        );
    }
}

/// Removes the legacy mode settings from `execution` (and `execution` when nothing else
/// is left in it) and returns its `skillrunner_mode`, when it named one.
fn execution_mode(m: &mut Migrator) -> Option<String> {
    let execution = m.doc.get_mut("execution").and_then(Value::as_object_mut)?;
    let mut mode = None;
    let mut removed = Vec::new();
    for key in ["skillrunner_mode", "mode", "supportedBackends"] {
        if let Some(value) = execution.shift_remove(key) {
            if key == "skillrunner_mode" {
                mode = value.as_str().map(str::to_string);
            }
            removed.push((key, value));
        }
    }
    let empty = execution.is_empty();
    if empty {
        m.doc.shift_remove("execution");
    }
    for (key, value) in removed {
        let message = match key {
            "skillrunner_mode" => {
                "moved to request.create.mode or each sequence step's mode".to_string()
            }
            "mode" => "removed: v2 hosts decide between synchronous and asynchronous runs".into(),
            _ => "removed: backend compatibility follows provider alone in v2".into(),
        };
        m.change(
            &format!("/execution/{key}"),
            value,
            Value::Null,
            "execution-mode",
            message,
        );
    }
    mode
}

/// A legacy sequence hand-off `{from_step, required, input: {target: source}}` becomes
/// value bindings; its other forms are left to a person.
fn handoffs(m: &mut Migrator) {
    let Some(steps) = m
        .doc
        .get_mut("request")
        .and_then(|r| r.get_mut("sequence"))
        .and_then(|s| s.get_mut("steps"))
        .and_then(Value::as_array_mut)
    else {
        return;
    };
    let mut changes = Vec::new();
    let mut manual = Vec::new();
    for (i, step) in steps.iter_mut().enumerate() {
        let Some(step) = step.as_object_mut() else {
            continue;
        };
        let Some(old) = step.get("handoff").and_then(Value::as_object).cloned() else {
            continue;
        };
        if old.contains_key("bindings") {
            continue;
        }
        let pointer = format!("/request/sequence/steps/{i}/handoff");
        manual.extend(handoff_leftovers(&old, &pointer));
        let bindings = value_bindings(&old);
        let new = if bindings.is_empty() {
            step.shift_remove("handoff");
            Value::Null
        } else {
            let new = json!({"bindings": bindings});
            step.insert("handoff".into(), new.clone());
            new
        };
        changes.push((pointer, Value::Object(old), new));
    }
    for (pointer, from, to) in changes {
        m.change(
            &pointer,
            from,
            to,
            "handoff-bindings",
            "legacy hand-off written as handoff.bindings".into(),
        );
    }
    for (pointer, message) in manual {
        m.manual(&pointer, message);
    }
}

/// The members of the legacy hand-off `old` (at `pointer`) that have no direct v2 form,
/// each with what a person should write instead.
fn handoff_leftovers(old: &Map<String, Value>, pointer: &str) -> Vec<(String, String)> {
    let mut manual = Vec::new();
    for key in ["parameter", "defaults"] {
        if old.contains_key(key) {
            manual.push((
                format!("{pointer}/{key}"),
                format!("hand-off {key} has no direct v2 form: write handoff.bindings entries (kind value or file, target, source, step) for it"),
            ));
        }
    }
    if old.get("pass_through").and_then(Value::as_bool) == Some(true) {
        manual.push((
            format!("{pointer}/pass_through"),
            "hand-off pass_through has no direct v2 form: bind what the step needs with handoff.bindings".into(),
        ));
    }
    manual
}

/// The value bindings of the legacy hand-off `old`: one per `input` entry, from its
/// `from_step` and as `required` as it says.
fn value_bindings(old: &Map<String, Value>) -> Vec<Value> {
    let required = old.get("required").cloned();
    let from_step = old.get("from_step").cloned();
    old.get("input")
        .and_then(Value::as_object)
        .into_iter()
        .flatten()
        .map(|(target, source)| {
            let mut binding = Map::new();
            binding.insert("kind".into(), json!("value"));
            if let Some(step) = &from_step {
                binding.insert("step".into(), step.clone());
            }
            binding.insert("source".into(), source.clone());
            binding.insert("target".into(), json!(format!("/input/{}", escape(target))));
            if let Some(required) = &required {
                binding.insert("required".into(), required.clone());
            }
            Value::Object(binding)
        })
        .collect()
}

fn trigger(m: &mut Migrator) {
    let present = m.doc.get("trigger").is_some_and(Value::is_object);
    if present && lookup(&m.doc, "/trigger/requiresSelection").is_some() {
        return;
    }
    if let Some(trigger) = object_slot(&mut m.doc, "trigger", &["provider", "label"]) {
        trigger.insert("requiresSelection".into(), json!(true));
    }
    m.change(
        "/trigger/requiresSelection",
        Value::Null,
        json!(true),
        "trigger-default",
        "legacy workflows ran only on a selection".into(),
    );
}

/// `filterInputs` is not a v2 hook: it leaves the manifest (the file stays) and a person
/// rewrites it. Package hooks must be `.mjs`.
fn hooks(m: &mut Migrator) {
    let Some(hooks) = m.doc.get_mut("hooks").and_then(Value::as_object_mut) else {
        return;
    };
    let filter = hooks.shift_remove("filterInputs");
    let scripts: Vec<(String, String)> = hooks
        .iter()
        .filter_map(|(name, path)| Some((name.clone(), path.as_str()?.to_string())))
        .filter(|(_, path)| !path.ends_with(".mjs"))
        .collect();
    if let Some(filter) = filter {
        let file = filter.as_str().unwrap_or_default().to_string();
        m.lossy(
            "/hooks/filterInputs",
            filter,
            Value::Null,
            "filter-inputs-removed",
            "removed: v2 hosts never call filterInputs".into(),
        );
        m.manual(
            "/hooks/filterInputs",
            format!(
                "the filterInputs hook {file} was removed from the manifest (the file is kept): \
                 express what it keeps as validateSelection.filters (source-file-exists, \
                 candidates-per-parent, generated-note-kinds-absent, generated-note-readiness, \
                 artifact-absent), or move the test into a preflight hook that returns \
                 {{kind: \"skip\", reason}} for a unit to leave out"
            ),
        );
    }
    if m.in_package {
        for (name, path) in scripts {
            m.manual(
                &format!("/hooks/{name}"),
                format!(
                    "package hooks must be .mjs modules: rename {path} and update /hooks/{name}"
                ),
            );
        }
    }
}
