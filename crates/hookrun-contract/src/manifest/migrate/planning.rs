//! The input-planning rules: `inputs.unit`, `accepts` and `per_parent`, and the legacy
//! `validateSelection` (`select.policy`, `require.counts`, `exclude`, `derive`) become
//! `inputs {member, grouping}` and `validateSelection {require.selection, select,
//! filters}`.

use serde_json::{Map, Value, json};

use super::{Migrator, insert_after, lookup};
use crate::pointer::escape;

/// What a legacy unit or selector policy plans, in v2 terms.
struct Plan {
    member: &'static str,
    grouping: &'static str,
    select: Value,
    /// Filters the legacy selector applied implicitly.
    implied: Vec<Value>,
    /// Whether the members must accept PDF files.
    pdf: bool,
    /// Whether the legacy host applied `exclude` under this selector.
    applies_exclude: bool,
    /// Why the v2 form may differ from what the legacy host did.
    caveat: Option<&'static str>,
}

impl Plan {
    fn new(member: &'static str, grouping: &'static str, select: Value) -> Plan {
        Plan {
            member,
            grouping,
            select,
            implied: Vec::new(),
            pdf: false,
            applies_exclude: false,
            caveat: None,
        }
    }
}

fn input_member(source: &str) -> Value {
    json!({"policy": "input-member", "source": source})
}

/// The plan of a legacy `unit` under the default policy, `input-unit`.
fn unit_plan(unit: Option<&str>) -> Option<Plan> {
    Some(match unit {
        Some("attachment") => Plan {
            caveat: Some(
                "legacy attachment units were the selected attachments, or, when none was \
                 selected, the attachments of the selected parents; v2 related takes both",
            ),
            ..Plan::new("attachment", "each", input_member("related"))
        },
        Some("parent") => Plan::new("parent", "each", input_member("selected")),
        Some("note") => Plan::new("note", "each", input_member("selected")),
        Some("workflow") => Plan::new("selection", "all", json!({"policy": "selection"})),
        None => Plan {
            caveat: Some(
                "a legacy workflow without inputs ran once on the whole selection, except that \
                 a selection of only notes or only parents was split into one unit per item",
            ),
            ..Plan::new("selection", "all", json!({"policy": "selection"}))
        },
        Some(_) => return None,
    })
}

fn policy_plan(policy: &str, unit: Option<&str>) -> Option<Plan> {
    Some(match policy {
        "input-unit" => return unit_plan(unit),
        "literature-source" => Plan {
            applies_exclude: true,
            ..Plan::new("attachment", "each", json!({"policy": "literature-source"}))
        },
        "pdf-attachment" => Plan {
            implied: vec![json!({"kind": "source-file-exists", "phase": "availability"})],
            pdf: true,
            applies_exclude: true,
            ..Plan::new("attachment", "each", input_member("related"))
        },
        "selected-parent" => Plan::new("parent", "each", input_member("selected")),
        "literature-parent" => Plan::new("parent", "each", input_member("related")),
        "generated-note-candidates" => Plan::new(
            "generated-note",
            "all",
            json!({"policy": "generated-note-candidates"}),
        ),
        "digest-representative-image" => Plan::new(
            "digest-image-target",
            "all",
            json!({"policy": "digest-representative-image"}),
        ),
        _ => return None,
    })
}

/// Whether the manifest still plans the legacy way.
fn is_legacy(doc: &Map<String, Value>) -> bool {
    let has = |pointer: &str| lookup(doc, pointer).is_some();
    !has("/inputs/member")
        || has("/inputs/unit")
        || !has("/validateSelection")
        || has("/validateSelection/exclude")
        || has("/validateSelection/derive")
        || has("/validateSelection/require/counts")
        || has("/validateSelection/require/allowMixed")
        || has("/validateSelection/select/unit")
        || !has("/validateSelection/filters")
}

pub(super) fn run(m: &mut Migrator) {
    if !is_legacy(&m.doc) {
        return;
    }
    let old_inputs = m.doc.get("inputs").cloned().unwrap_or(Value::Null);
    let old_selection = m
        .doc
        .get("validateSelection")
        .cloned()
        .unwrap_or(Value::Null);
    let unit = old_inputs
        .get("unit")
        .and_then(Value::as_str)
        .map(str::to_string);
    let unit = unit.as_deref();
    let policy = old_selection
        .pointer("/select/policy")
        .and_then(Value::as_str)
        .unwrap_or("input-unit");
    let Some(plan) = policy_plan(policy, unit) else {
        no_equivalent(m, policy, unit);
        return;
    };
    let inputs = new_inputs(m, &old_inputs, &plan);
    let selection = new_selection(m, &old_inputs, &old_selection, &plan);
    set_inputs(m, old_inputs, inputs, &plan, unit.is_some());
    dropped_members(m, &old_selection);
    let old_select = old_selection.get("select").cloned().unwrap_or(Value::Null);
    set_top(m, "validateSelection", &["inputs"], selection);
    m.change(
        "/validateSelection/select",
        old_select,
        plan.select,
        "select-policy",
        format!("legacy policy {policy} as a v2 selector"),
    );
}

/// Leaves to a person a legacy unit or selector policy that no v2 plan matches.
fn no_equivalent(m: &mut Migrator, policy: &str, unit: Option<&str>) {
    let (pointer, what) = if policy == "input-unit" {
        (
            "/inputs/unit",
            format!("inputs.unit {}", unit.unwrap_or_default()),
        )
    } else {
        (
            "/validateSelection/select/policy",
            format!("selector policy {policy}"),
        )
    };
    m.manual(
        pointer,
        format!(
            "{what} has no v2 equivalent: write inputs.member, inputs.grouping and \
             validateSelection.select by hand (contract 01-manifest §3–4)"
        ),
    );
}

/// The v2 `validateSelection`: the moved `require`, the plan's `select`, and as filters
/// those the plan implies, `per_parent`, `exclude`, then those already declared.
fn new_selection(
    m: &mut Migrator,
    old_inputs: &Value,
    old_selection: &Value,
    plan: &Plan,
) -> Value {
    let mut filters = plan.implied.clone();
    filters.extend(per_parent(m, old_inputs, plan));
    filters.extend(exclusions(m, old_selection, plan));
    if let Some(existing) = old_selection.get("filters").and_then(Value::as_array) {
        filters.extend(existing.iter().cloned());
    }
    let require = requirements(m, old_selection);
    let mut selection = Map::new();
    if let Some(require) = require {
        selection.insert("require".into(), require);
    }
    selection.insert("select".into(), plan.select.clone());
    selection.insert("filters".into(), Value::Array(filters));
    Value::Object(selection)
}

/// Puts the v2 `inputs` in place of `old_inputs` and records it, with the plan's caveat
/// (`had_unit`: whether the legacy manifest named its unit).
fn set_inputs(m: &mut Migrator, old_inputs: Value, inputs: Value, plan: &Plan, had_unit: bool) {
    let message = match plan.caveat {
        Some(caveat) => format!(
            "{} member, grouped {}; {caveat}",
            plan.member, plan.grouping
        ),
        None => format!("{} member, grouped {}", plan.member, plan.grouping),
    };
    set_top(
        m,
        "inputs",
        &["parameters", "trigger", "provider", "label"],
        inputs.clone(),
    );
    m.record(
        "/inputs",
        old_inputs,
        inputs,
        if had_unit {
            "inputs-unit"
        } else {
            "inputs-default"
        },
        message,
        plan.caveat.is_some(),
    );
}

/// Records the legacy `select.unit` and `derive`, which the v2 `validateSelection` drops.
fn dropped_members(m: &mut Migrator, old_selection: &Value) {
    if let Some(unit) = old_selection.pointer("/select/unit") {
        m.change(
            "/validateSelection/select/unit",
            unit.clone(),
            Value::Null,
            "select-unit-dropped",
            "removed: the unit follows inputs.member in v2".into(),
        );
    }
    if let Some(derive) = old_selection.get("derive") {
        m.change(
            "/validateSelection/derive",
            derive.clone(),
            Value::Null,
            "derive-dropped",
            "removed: the selector derives what it needs in v2".into(),
        );
    }
}

fn set_top(m: &mut Migrator, key: &str, after: &[&str], value: Value) {
    match m.doc.get_mut(key) {
        Some(slot) => *slot = value,
        None => insert_after(&mut m.doc, after, key, value),
    }
}

fn new_inputs(m: &mut Migrator, old: &Value, plan: &Plan) -> Value {
    let mut member = Map::new();
    member.insert("kind".into(), json!(plan.member));
    let mut mime: Vec<Value> = old
        .pointer("/accepts/mime")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    if plan.pdf && !mime.iter().any(|t| t == "application/pdf") {
        mime.push(json!("application/pdf"));
        m.change(
            "/inputs/member/accepts/mime",
            Value::Null,
            json!("application/pdf"),
            "pdf-attachment",
            "the legacy pdf-attachment policy took PDF attachments only".into(),
        );
    }
    if !mime.is_empty() {
        if plan.member == "attachment" {
            member.insert("accepts".into(), json!({"mime": mime}));
        } else {
            m.lossy(
                "/inputs/accepts",
                Value::Array(mime),
                Value::Null,
                "inputs-accepts",
                format!(
                    "removed: v2 accepts MIME types on attachment members only, not {}",
                    plan.member
                ),
            );
        }
    }
    json!({"member": member, "grouping": {"mode": plan.grouping}})
}

/// A count as a v2 integer, or `None` when it is not a whole number ≥ 0.
fn whole(value: &Value) -> Option<Value> {
    if let Some(n) = value.as_u64() {
        return Some(json!(n));
    }
    let f = value.as_f64()?;
    (f >= 0.0 && f.fract() == 0.0 && f <= u32::MAX as f64).then(|| json!(f as u64))
}

/// A CountRule with whole-number bounds; every other bound is left to a person.
fn count_rule(m: &mut Migrator, pointer: &str, rule: &Value) -> Option<Value> {
    let Some(rule) = rule.as_object() else {
        m.manual(
            pointer,
            format!("count rule {rule} is not an object {{min, max, exact}}"),
        );
        return None;
    };
    let mut out = Map::new();
    for (key, value) in rule {
        match whole(value) {
            Some(n) => {
                out.insert(key.clone(), n);
            }
            None => {
                m.manual(
                    &crate::pointer::child(pointer, key),
                    format!("count {key} = {value} is not a whole number ≥ 0, which v2 requires"),
                );
                return None;
            }
        }
    }
    Some(Value::Object(out))
}

fn per_parent(m: &mut Migrator, old: &Value, plan: &Plan) -> Option<Value> {
    let rule = old.get("per_parent")?;
    if matches!(plan.member, "selection" | "digest-image-target") {
        m.lossy(
            "/inputs/per_parent",
            rule.clone(),
            Value::Null,
            "per-parent",
            format!(
                "removed: {} members have no parent to count per",
                plan.member
            ),
        );
        return None;
    }
    let counts = count_rule(m, "/inputs/per_parent", rule)?;
    let filter =
        json!({"kind": "candidates-per-parent", "phase": "availability", "counts": counts});
    m.change(
        "/validateSelection/filters",
        rule.clone(),
        filter.clone(),
        "per-parent",
        "inputs.per_parent as a candidates-per-parent filter".into(),
    );
    Some(filter)
}

fn exclusions(m: &mut Migrator, old: &Value, plan: &Plan) -> Vec<Value> {
    let Some(entries) = old.get("exclude").and_then(Value::as_array) else {
        return Vec::new();
    };
    if !plan.applies_exclude {
        m.lossy(
            "/validateSelection/exclude",
            Value::Array(entries.clone()),
            Value::Null,
            "exclude",
            "removed: the legacy host applied exclude only under the literature-source and \
             pdf-attachment policies, so it had no effect here"
                .into(),
        );
        return Vec::new();
    }
    let mut filters = Vec::new();
    for (i, entry) in entries.iter().enumerate() {
        let pointer = format!("/validateSelection/exclude/{i}");
        if let Some(filter) = exclusion(m, &pointer, entry) {
            m.change(
                "/validateSelection/filters",
                entry.clone(),
                filter.clone(),
                "exclude",
                format!("exclude entry {i} as a filter"),
            );
            filters.push(filter);
        }
    }
    filters
}

fn exclusion(m: &mut Migrator, pointer: &str, entry: &Value) -> Option<Value> {
    let kind = entry
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or_default();
    let target = entry
        .get("target")
        .and_then(Value::as_str)
        .unwrap_or_default();
    match (kind, target) {
        ("generated-notes-all", _) => {
            let Some(kinds) = entry.get("noteKinds").filter(|k| k.is_array()) else {
                m.manual(pointer, "generated-notes-all without noteKinds: list the note kinds whose presence excludes a candidate");
                return None;
            };
            Some(
                json!({"kind": "generated-note-kinds-absent", "phase": "availability", "noteKinds": kinds}),
            )
        }
        ("artifact-exists", "deep-reading-html" | "mineru-markdown") => {
            Some(json!({"kind": "artifact-absent", "phase": "availability", "target": target}))
        }
        ("artifact-exists", "translator-markdown") => {
            let parameter = entry
                .get("parameter")
                .and_then(Value::as_str)
                .unwrap_or("target_language");
            if m.doc
                .get("parameters")
                .and_then(|p| p.get(parameter))
                .is_none()
            {
                m.manual(
                    pointer,
                    format!(
                        "the translator-markdown exclusion reads the parameter {parameter}, which \
                         the manifest does not declare: declare parameters.{parameter} (the legacy \
                         host used target_language, default zh-CN) and add {{\"kind\": \
                         \"artifact-absent\", \"phase\": \"execute\", \"target\": \
                         \"translator-markdown\", \"parameter\": \"{parameter}\"}} to the filters"
                    ),
                );
                return None;
            }
            Some(
                json!({"kind": "artifact-absent", "phase": "execute", "target": target, "parameter": parameter}),
            )
        }
        _ => {
            m.manual(pointer, format!("exclude entry {entry} has no v2 filter: rewrite it as a validateSelection filter or a preflight skip"));
            None
        }
    }
}

/// `require {counts, allowMixed}` moves under `require.selection`; `require.selection`
/// and `require.candidates` stay.
fn requirements(m: &mut Migrator, old: &Value) -> Option<Value> {
    let old = old.get("require")?.as_object()?;
    let mut require = old.clone();
    let counts = require.shift_remove("counts");
    let mixed = require.shift_remove("allowMixed");
    if counts.is_none() && mixed.is_none() {
        return Some(Value::Object(require));
    }
    let mut selection = require
        .get("selection")
        .and_then(Value::as_object)
        .cloned()
        .unwrap_or_default();
    if let Some(counts) = counts {
        let mut converted = Map::new();
        for (kind, rule) in counts.as_object().into_iter().flatten() {
            let pointer = format!("/validateSelection/require/counts/{}", escape(kind));
            if let Some(rule) = count_rule(m, &pointer, rule) {
                converted.insert(kind.clone(), rule);
            }
        }
        selection.insert("counts".into(), Value::Object(converted));
    }
    if let Some(mixed) = mixed {
        selection.insert("allowMixed".into(), mixed);
    }
    require.shift_insert(0, "selection".into(), Value::Object(selection));
    let new = Value::Object(require);
    m.change(
        "/validateSelection/require",
        Value::Object(old.clone()),
        new.clone(),
        "require-selection",
        "require.counts and require.allowMixed moved under require.selection".into(),
    );
    Some(new)
}
