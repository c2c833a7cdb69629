//! Upload selectors of `skillrunner.job.v1` (`04-requests-and-bundles.md` §4.2 step 3–4).

use serde_json::{Map, Value, json};

use super::context::Context;
use crate::request::error::RequestError;
use crate::request::unit::Attachment;
use crate::selection::grouped::base_name;

/// The request's `input` (inline fields plus upload paths) and `upload_files`.
pub(super) struct Uploads {
    /// `request.input` without `upload`, plus `<key>: inputs/<key>/<name>` per upload.
    pub input: Map<String, Value>,
    /// `[{key, path: <local path>}]`.
    pub files: Vec<Value>,
}

/// Resolves `request.input.upload.files[]` over the unit's attachments.
pub(super) fn resolve(ctx: &Context<'_>) -> Result<Uploads, RequestError> {
    let declared = ctx.spec("input");
    let mut input = declared.as_object().cloned().unwrap_or_default();
    input.shift_remove("upload");
    let mut files = Vec::new();
    let empty = Vec::new();
    let entries = declared["upload"]["files"].as_array().unwrap_or(&empty);
    for entry in entries {
        let key = entry["key"]
            .as_str()
            .filter(|key| !key.is_empty())
            .ok_or_else(|| invalid("request.input.upload.files[].key is required"))?;
        if files.iter().any(|f: &Value| f["key"] == key) {
            return Err(invalid(format!("Duplicated upload file key: {key}")));
        }
        if input.contains_key(key) {
            return Err(invalid(format!(
                "request.input field conflict: {key} is declared by both inline input and upload selector"
            )));
        }
        let from = entry["from"].as_str().unwrap_or_default();
        let path = local_path(ctx, from)?;
        input.insert(key.into(), upload_path(key, &path).into());
        files.push(json!({"key": key, "path": path}));
    }
    Ok(Uploads { input, files })
}

/// The local path of the single attachment `from` selects.
fn local_path(ctx: &Context<'_>, from: &str) -> Result<String, RequestError> {
    let selects: fn(&Attachment<'_>) -> bool = match from {
        "selected.markdown" => is_markdown,
        "selected.pdf" => is_pdf,
        "selected.source" => |_| true,
        _ => return Err(invalid(format!("Unsupported upload selector: {from}"))),
    };
    let matched: Vec<Attachment<'_>> = ctx.unit.attachments().into_iter().filter(selects).collect();
    let [attachment] = matched.as_slice() else {
        return Err(invalid(format!(
            "Selector {from} requires exactly 1 matched attachment, got {}",
            matched.len()
        )));
    };
    let file = attachment.file().ok_or_else(|| {
        invalid(format!(
            "Selector {from} resolved attachment without filePath"
        ))
    })?;
    ctx.files
        .local_path(&file, ctx.handoff)
        .filter(|path| !path.trim().is_empty())
        .ok_or_else(|| invalid("Source attachment file is unavailable"))
}

fn has_type(attachment: &Attachment<'_>, mimes: &[&str], extension: &str) -> bool {
    let mime = attachment.content_type().unwrap_or_default().to_lowercase();
    let name = attachment.name().unwrap_or_default().to_lowercase();
    mimes.contains(&mime.as_str()) || name.ends_with(extension)
}

fn is_markdown(attachment: &Attachment<'_>) -> bool {
    has_type(attachment, &["text/markdown", "text/x-markdown"], ".md")
}

fn is_pdf(attachment: &Attachment<'_>) -> bool {
    has_type(attachment, &["application/pdf"], ".pdf")
}

/// `inputs/<sanitised key>/<base name of path>` (`upload.bin` when the path has no base
/// name). See [`sanitize_key`].
pub fn upload_path(key: &str, path: &str) -> String {
    let name = base_name(path.trim());
    let name = if name.is_empty() { "upload.bin" } else { name };
    format!("inputs/{}/{name}", sanitize_key(key))
}

/// The key reduced to `[A-Za-z0-9._-]`: it is trimmed, every run of other characters
/// becomes one `-`, and an empty result becomes `file`.
pub fn sanitize_key(key: &str) -> String {
    let mut out = String::with_capacity(key.len());
    let mut in_run = false;
    for c in key.trim().chars() {
        if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-') {
            out.push(c);
            in_run = false;
        } else if !in_run {
            out.push('-');
            in_run = true;
        }
    }
    if out.is_empty() { "file".into() } else { out }
}

fn invalid(message: impl Into<String>) -> RequestError {
    RequestError::Invalid(message.into())
}
