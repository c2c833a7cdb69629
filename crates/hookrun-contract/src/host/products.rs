//! Workflow products: what `productStorage.registerProduct` records, by the
//! reference host's rules (its v12 product store), without an engine.
//!
//! A registration names a product (`<requestId>:<productKey>`, sanitised),
//! resolves each asset's content (a result artifact, a local file or inline
//! text), places it at a managed relative path and answers a receipt. With the
//! `atomic` failure policy an asset that cannot be resolved fails the whole
//! registration; otherwise (`record-missing`, the default) it is recorded as
//! `missing` with the reason. A bad path or two assets at one path fail the
//! registration under either policy. A failed registration leaves the product
//! as it was; a successful one replaces it, keeping its creation date.
//!
//! The bytes are not kept: a record holds each asset's size and digest.

use std::collections::BTreeMap;

use serde_json::{Map, Value, json};
use sha2::{Digest, Sha256};

use crate::host::HostError;

/// The record's `schemaVersion`.
pub const RECORD_SCHEMA_VERSION: u64 = 2;

/// Longest managed relative path, in characters.
pub const MAX_RELATIVE_PATH: usize = 220;

/// Longest segment of a managed relative path, in characters.
pub const MAX_SEGMENT: usize = 96;

/// Windows device names no segment may start with.
const RESERVED: &[&str] = &[
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8",
    "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

/// `String(value || "").trim()` as the reference reads a field.
pub fn clean_string(value: Option<&Value>) -> String {
    match value {
        None | Some(Value::Null) | Some(Value::Bool(false)) => String::new(),
        Some(Value::String(s)) => s.trim().to_string(),
        Some(Value::Number(n)) if n.as_f64() == Some(0.0) => String::new(),
        Some(Value::Number(n)) => n.to_string(),
        Some(Value::Bool(true)) => "true".into(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|v| clean_string(Some(v)))
            .collect::<Vec<_>>()
            .join(","),
        Some(Value::Object(_)) => "[object Object]".into(),
    }
}

/// Replaces every run of characters `keep` refuses with one `-`.
fn dash_runs(text: &str, keep: impl Fn(char) -> bool) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_run = false;
    for c in text.chars() {
        if keep(c) {
            out.push(c);
            in_run = false;
        } else if !in_run {
            out.push('-');
            in_run = true;
        }
    }
    out
}

/// A product or asset id: runs of characters outside `[A-Za-z0-9._:-]` become
/// `-`, leading and trailing `-` go; `fallback` when nothing is left.
pub fn safe_id(value: &str, fallback: &str) -> String {
    let kept = dash_runs(value.trim(), |c| {
        c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | ':' | '-')
    });
    let trimmed = kept.trim_matches('-');
    if trimmed.is_empty() {
        fallback.to_string()
    } else {
        trimmed.to_string()
    }
}

/// A relative path made safe: `\` as `/`, runs of dots as one, other characters
/// outside `[A-Za-z0-9._/-]` as `-`, empty, `.` and `..` segments dropped;
/// `fallback` when nothing is left.
pub fn safe_segment(value: &str, fallback: &str) -> String {
    let slashed = value.trim().replace('\\', "/");
    let mut dots = String::with_capacity(slashed.len());
    for c in slashed.chars() {
        if !(c == '.' && dots.ends_with('.')) {
            dots.push(c);
        }
    }
    let kept = dash_runs(&dots, |c| {
        c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '/' | '-')
    });
    let joined = kept
        .split('/')
        .filter(|p| !p.is_empty() && *p != "." && *p != "..")
        .collect::<Vec<_>>()
        .join("/");
    if joined.is_empty() {
        fallback.to_string()
    } else {
        joined
    }
}

/// Why a managed relative path was refused: the first rule it broke.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PathPolicyError {
    /// `managed_path_invalid`, `managed_relative_path_too_long`, …
    pub code: &'static str,
    /// The rule's message.
    pub message: &'static str,
}

impl PathPolicyError {
    /// The error a hook gets: a `ManagedPathPolicyError` with its `code`.
    pub fn to_host_error(&self) -> HostError {
        let mut error = HostError::plain("ManagedPathPolicyError", self.message);
        error.fields.insert("code".into(), json!(self.code));
        error
    }
}

const INVALID: &str = "managed_path_invalid";

/// Whether a path reads as absolute: a leading `/` or a drive letter.
fn absolute_like(path: &str) -> bool {
    let b = path.as_bytes();
    path.starts_with('/') || (b.len() >= 2 && b[0].is_ascii_alphabetic() && b[1] == b':')
}

/// The first rule a segment breaks, in the reference's order.
fn segment_refusal(segment: &str) -> Option<PathPolicyError> {
    let refuse = |code, message| Some(PathPolicyError { code, message });
    let base = segment.split('.').next().unwrap_or_default();
    if segment.chars().count() > MAX_SEGMENT {
        refuse(
            "managed_path_segment_too_long",
            "Managed path segment exceeds the configured budget.",
        )
    } else if RESERVED.iter().any(|r| r.eq_ignore_ascii_case(base)) {
        refuse(
            "managed_path_reserved_name",
            "Managed path segment uses a reserved device name.",
        )
    } else if segment.ends_with('.') || segment.ends_with(' ') {
        refuse(
            INVALID,
            "Managed path segment must not end with a dot or space.",
        )
    } else if !segment
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-'))
    {
        refuse(
            INVALID,
            "Managed path segment contains unsupported characters.",
        )
    } else {
        None
    }
}

/// Checks a managed relative path as the reference's runtime persistence does
/// and answers it with empty segments dropped; the error is the first rule
/// broken.
pub fn managed_relative_path(value: &str) -> Result<String, PathPolicyError> {
    let refuse = |code, message| Err(PathPolicyError { code, message });
    let input = value.trim().replace('\\', "/");
    if input.is_empty() {
        return refuse(INVALID, "Managed relative path must be non-empty.");
    }
    if absolute_like(&input) {
        return refuse(INVALID, "Managed relative path must not be absolute.");
    }
    let raw: Vec<&str> = input.split('/').collect();
    let parts: Vec<&str> = raw.iter().copied().filter(|p| !p.is_empty()).collect();
    let normalized = parts.join("/");
    if parts.is_empty() || raw.iter().skip(1).any(|p| p.is_empty()) {
        return refuse(INVALID, "Managed relative path contains empty segments.");
    }
    if parts.iter().any(|p| *p == "." || *p == "..") {
        return refuse(
            INVALID,
            "Managed relative path must not traverse directories.",
        );
    }
    if normalized.chars().count() > MAX_RELATIVE_PATH {
        return refuse(
            "managed_relative_path_too_long",
            "Managed relative path exceeds the configured budget.",
        );
    }
    match parts.iter().find_map(|s| segment_refusal(s)) {
        Some(error) => Err(error),
        None => Ok(normalized),
    }
}

/// The first non-empty string among `keys` of `value`.
fn first_of(value: &Value, keys: &[&str]) -> String {
    keys.iter()
        .map(|k| clean_string(value.get(*k)))
        .find(|s| !s.is_empty())
        .unwrap_or_default()
}

/// Who a product storage registers for: fixed when it is handed to a hook.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ProductOwner {
    /// The run's request id, the first part of product ids.
    pub request_id: String,
    /// The backend's run id, if the run result gives one.
    pub run_id: String,
    /// The backend's run key, if the run result gives one.
    pub run_key: String,
    /// The backend id, if the run result gives one.
    pub backend_id: String,
    /// The backend type (or the provider).
    pub backend_type: String,
    /// The manifest's id.
    pub workflow_id: String,
    /// The manifest's label, else its id.
    pub workflow_label: String,
}

impl ProductOwner {
    /// The owner of a product storage handed with `request` and `run_result`
    /// to an `applyResult` hook of the workflow `workflow_id`/`label`;
    /// `now_ms` names the request when neither gives its id.
    pub fn of(
        workflow: (&str, &str),
        request: &Value,
        run_result: &Value,
        now_ms: i64,
    ) -> ProductOwner {
        let response = run_result.get("responseJson").unwrap_or(&Value::Null);
        let ids = ["requestId", "request_id"];
        let mut request_id = first_of(run_result, &ids);
        if request_id.is_empty() {
            request_id = first_of(request, &ids);
        }
        if request_id.is_empty() {
            request_id = format!("request-{now_ms}");
        }
        let both = |keys: &[&str]| {
            let found = first_of(run_result, keys);
            if found.is_empty() {
                first_of(response, keys)
            } else {
                found
            }
        };
        let mut backend_type = first_of(run_result, &["backendType"]);
        if backend_type.is_empty() {
            backend_type = first_of(response, &["backendType", "provider"]);
        }
        let workflow_id = workflow.0.trim().to_string();
        let label = workflow.1.trim();
        ProductOwner {
            request_id,
            run_id: both(&["runId", "run_id"]),
            run_key: both(&["runKey", "run_key"]),
            backend_id: both(&["backendId", "backend_id"]),
            backend_type,
            workflow_label: if label.is_empty() {
                workflow_id.clone()
            } else {
                label.to_string()
            },
            workflow_id,
        }
    }
}

/// Where an asset's content comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AssetSource {
    /// A result artifact, as `resultContext.resolveArtifactBytes` finds it.
    ResultArtifact {
        /// The path the result gave.
        raw_path: Value,
        /// A second path to try.
        fallback_path: Value,
    },
    /// A file of the run, by path or `file://` URL.
    LocalFile(String),
    /// Text, stored as UTF-8.
    InlineText(String),
}

impl AssetSource {
    /// The source an asset input names: its `source`, else a result artifact
    /// from its top-level `rawPath`/`fallbackPath`.
    pub fn of(asset: &Value) -> AssetSource {
        let artifact = |from: &Value| AssetSource::ResultArtifact {
            raw_path: from.get("rawPath").cloned().unwrap_or(Value::Null),
            fallback_path: from.get("fallbackPath").cloned().unwrap_or(Value::Null),
        };
        let Some(source) = asset.get("source").filter(|s| truthy(s)) else {
            return artifact(asset);
        };
        let text = |key: &str| match source.get(key) {
            Some(Value::String(s)) => s.clone(),
            Some(Value::Null) | None => String::new(),
            Some(other) => other.to_string(),
        };
        match source.get("kind").and_then(Value::as_str) {
            Some("inline-text") => AssetSource::InlineText(text("text")),
            Some("local-file") => AssetSource::LocalFile(text("path")),
            _ => artifact(source),
        }
    }
}

/// Whether a JSON value is truthy as JavaScript reads it.
fn truthy(value: &Value) -> bool {
    !clean_string(Some(value)).is_empty() || value.is_object() || value.is_array()
}

/// What resolving an asset found: its bytes and the entry they came from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The content.
    pub bytes: Vec<u8>,
    /// The bundle entry, file path or inline path it came from.
    pub entry_path: String,
}

/// Resolves an asset's content for [`Products::register`]; the error's
/// message becomes a missing asset's diagnostic (or, atomic, the failure).
pub type Resolve<'a> = dyn FnMut(&AssetSource, &Value) -> Result<Resolved, HostError> + 'a;

/// The asset id of an asset input: its `assetId`, `label` or
/// `productAssetPath`, sanitised, else `product`.
fn asset_id(asset: &Value) -> String {
    let named = first_truthy(asset, &["assetId", "label", "productAssetPath"]);
    safe_id(&named, "product")
}

/// `a || b || c` over string fields, as text.
fn first_truthy(value: &Value, keys: &[&str]) -> String {
    keys.iter()
        .find_map(|k| value.get(*k).filter(|v| truthy(v)))
        .map(|v| clean_string(Some(v)))
        .unwrap_or_default()
}

/// The record of one asset of a registration, or the error that fails it.
fn asset_record(
    input: &Value,
    atomic: bool,
    resolve: &mut Resolve<'_>,
) -> Result<Value, HostError> {
    let id = asset_id(input);
    let resolved = match resolve(&AssetSource::of(input), input) {
        Ok(found) => Ok(found),
        Err(error) if atomic => return Err(error),
        Err(error) => Err(error.message),
    };
    let entry = resolved.as_ref().map(|r| r.entry_path.as_str()).ok();
    let fallback = clean_string(input.get("fallbackPath"));
    let inferred = if !fallback.is_empty() {
        fallback
    } else {
        entry
            .filter(|e| !e.is_empty())
            .unwrap_or(id.as_str())
            .to_string()
    };
    let given = clean_string(input.get("productAssetPath"));
    let chosen = if given.is_empty() {
        safe_segment(&inferred, &id)
    } else {
        given
    };
    let relative = managed_relative_path(&chosen).map_err(|e| e.to_host_error())?;
    let label = clean_string(input.get("label"));
    let mut record = json!({
        "assetId": id,
        "label": if label.is_empty() { id.clone() } else { label },
        "relativePath": relative,
    });
    let content_type = clean_string(input.get("contentType"));
    if !content_type.is_empty() {
        record["contentType"] = content_type.into();
    }
    match resolved {
        Ok(found) => {
            record["availability"] = "available".into();
            record["size"] = found.bytes.len().into();
            record["sha256"] = format!("sha256:{:x}", Sha256::digest(&found.bytes)).into();
        }
        Err(message) => {
            record["availability"] = "missing".into();
            record["diagnostics"] = json!([message]);
        }
    }
    Ok(record)
}

/// The products a run registered, by product id.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Products {
    records: BTreeMap<String, Value>,
    /// Registrations made, for storage revisions.
    made: u64,
}

impl Products {
    /// The record of `product_id`, if registered.
    pub fn get(&self, product_id: &str) -> Option<&Value> {
        self.records.get(product_id)
    }

    /// Every record, by product id.
    pub fn records(&self) -> &BTreeMap<String, Value> {
        &self.records
    }

    /// Registers `input` for `owner` at `now` (an ISO date), resolving asset
    /// content with `resolve`; answers the receipt and the record kept.
    pub fn register(
        &mut self,
        owner: &ProductOwner,
        input: &Value,
        now: &str,
        resolve: &mut Resolve<'_>,
    ) -> Result<(Value, Value), HostError> {
        let key_source = first_truthy(input, &["productKey", "kind"]);
        let product_key = safe_id(
            if key_source.is_empty() {
                "default"
            } else {
                &key_source
            },
            "product",
        );
        let product_id = safe_id(&format!("{}:{product_key}", owner.request_id), "product");
        let atomic = input.get("failurePolicy").and_then(Value::as_str) == Some("atomic");
        let mut assets = Vec::new();
        let inputs = input.get("assets").and_then(Value::as_array);
        for asset in inputs.into_iter().flatten() {
            let record = asset_record(asset, atomic, resolve)?;
            let path = record["relativePath"].as_str().unwrap_or_default();
            if assets.iter().any(|a: &Value| a["relativePath"] == path) {
                return Err(HostError::plain(
                    "Error",
                    format!("duplicate product asset path: {path}"),
                ));
            }
            assets.push(record);
        }
        self.made += 1;
        let revision = format!(
            "{:x}",
            Sha256::digest(format!("revision\0{product_id}\0{}", self.made))
        );
        let record = self.record(
            owner,
            input,
            (&product_id, &product_key),
            assets,
            (now, &revision[..16]),
        );
        let available = record["assets"].as_array().map_or(0, |a| {
            a.iter()
                .filter(|a| a["availability"] == "available")
                .count()
        });
        let count = record["assets"].as_array().map_or(0, Vec::len);
        self.records.insert(product_id.clone(), record.clone());
        let receipt = json!({"productId": product_id, "assetCount": count,
            "availableAssetCount": available, "missingAssetCount": count - available});
        Ok((receipt, record))
    }

    /// The record of a registration that succeeded.
    fn record(
        &self,
        owner: &ProductOwner,
        input: &Value,
        (product_id, product_key): (&str, &str),
        assets: Vec<Value>,
        (now, revision): (&str, &str),
    ) -> Value {
        let or = |value: String, fallback: &str| {
            if value.is_empty() {
                fallback.to_string()
            } else {
                value
            }
        };
        let metadata = match input.get("metadata") {
            Some(Value::Object(m)) => m.clone(),
            _ => Map::new(),
        };
        let created = self
            .records
            .get(product_id)
            .and_then(|r| r["createdAt"].as_str())
            .unwrap_or(now);
        let mut record = json!({
            "schemaVersion": RECORD_SCHEMA_VERSION, "productId": product_id,
            "productKey": product_key,
            "kind": or(clean_string(input.get("kind")), "workflow.product"),
            "title": or(clean_string(input.get("title")), product_id),
            "workflowId": owner.workflow_id, "workflowLabel": owner.workflow_label,
            "backendType": owner.backend_type, "requestId": owner.request_id,
            "storageRevision": revision, "assets": assets, "metadata": metadata,
            "createdAt": created, "updatedAt": now,
        });
        for (key, value) in [
            ("backendId", &owner.backend_id),
            ("runKey", &owner.run_key),
            ("runId", &owner.run_id),
        ] {
            if !value.is_empty() {
                record[key] = value.as_str().into();
            }
        }
        record
    }
}

/// Keeps the latest record of each product as a run's report shows them: a
/// record replacing another keeps the first's creation date.
pub fn merge_record(records: &mut BTreeMap<String, Value>, mut record: Value) {
    let id = record["productId"].as_str().unwrap_or_default().to_string();
    if let Some(created) = records.get(&id).map(|r| r["createdAt"].clone()) {
        record["createdAt"] = created;
    }
    records.insert(id, record);
}

#[cfg(test)]
#[path = "products_tests.rs"]
mod tests;
