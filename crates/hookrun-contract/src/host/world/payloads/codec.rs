//! Payload blocks as the reference host's codec reads them: inline blocks of a
//! note's HTML (`<span data-zs-payload=… data-zs-value=…>`) and the envelope a
//! payload carrier attachment holds (the JSON of its PNG's `zsPL` chunk).

use base64::Engine as _;
use base64::engine::{DecodePaddingMode, GeneralPurpose, GeneralPurposeConfig};
use serde_json::{Value, json};

use super::super::dto::digest;
use super::html::{note_kind, payload_spans, span_attribute};
use super::text::{is_truthy, js_json, js_number, js_string, js_text, js_trim, utf16_len};

/// Most bytes of a note's HTML, of an encoded or decoded payload and of a
/// carrier attachment (the reference host's limit).
pub(in crate::host::world) const MAX_PAYLOAD_BYTES: u64 = 1_048_576;

/// The `kind` of a carrier's envelope.
const ENVELOPE_KIND: &str = "zotero-skills-workbench-note-payload";

/// How a payload's value is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::host::world) enum Format {
    /// A JSON value.
    Json,
    /// Markdown text.
    Markdown,
    /// Plain text.
    Text,
}

impl Format {
    /// `json`, `markdown` or `text`.
    pub(in crate::host::world) fn as_str(self) -> &'static str {
        match self {
            Format::Json => "json",
            Format::Markdown => "markdown",
            Format::Text => "text",
        }
    }

    /// The format `name` names, if any.
    pub(in crate::host::world) fn parse(name: &str) -> Option<Format> {
        [Format::Json, Format::Markdown, Format::Text]
            .into_iter()
            .find(|f| f.as_str() == name)
    }

    /// The format a payload type's suffix names (`-markdown`, `-json`), else text.
    fn by_suffix(payload_type: &str) -> Format {
        if payload_type.ends_with("-markdown") {
            Format::Markdown
        } else if payload_type.ends_with("-json") {
            Format::Json
        } else {
            Format::Text
        }
    }
}

/// Whether a carrier's payload is the one its note's anchor of that type names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::host::world) enum Anchor {
    /// An inline block.
    NotApplicable,
    /// The anchor names this carrier.
    Present,
    /// The anchor names another attachment.
    Stale,
    /// No anchor of the type.
    Missing,
}

/// One payload block of a note.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::host::world) struct Block {
    /// The carrier attachment's key; `None` for an inline block.
    pub(in crate::host::world) attachment: Option<String>,
    /// The carrier's `payloadStorageVersion`.
    pub(in crate::host::world) storage_version: Option<u64>,
    /// The carrier's `logicalSchemaVersion`.
    pub(in crate::host::world) logical_version: Option<String>,
    /// The carrier's anchor status.
    pub(in crate::host::world) anchor: Anchor,
    pub(in crate::host::world) payload_type: String,
    pub(in crate::host::world) note_kind: String,
    pub(in crate::host::world) version: String,
    pub(in crate::host::world) encoding: String,
    pub(in crate::host::world) format: Format,
    /// The decoded text's length (UTF-16 units), or the encoded one's on errors.
    pub(in crate::host::world) estimated_size: u64,
    /// The decoded value (`None`: undefined).
    pub(in crate::host::world) payload: Option<Value>,
    pub(in crate::host::world) markdown: Option<String>,
    pub(in crate::host::world) decoded: Option<String>,
    /// Why the block cannot be read.
    pub(in crate::host::world) errors: Vec<String>,
}

/// A read past [`MAX_PAYLOAD_BYTES`], naming the input (`html`, `encoded`,
/// `decoded`, `attachment`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::host::world) struct TooLarge(pub(in crate::host::world) &'static str);

impl TooLarge {
    /// The reference codec's message.
    pub(in crate::host::world) fn message(self) -> String {
        format!("note payload {} exceeds {MAX_PAYLOAD_BYTES} bytes", self.0)
    }
}

/// A decoding that failed with `Err(message)` inside the limits.
type Decoded<T> = Result<Result<T, String>, TooLarge>;

/// The inline payload blocks of `html`, in document order.
pub(in crate::host::world) fn inline_blocks(html: &str) -> Result<Vec<Block>, TooLarge> {
    if html.len() as u64 > MAX_PAYLOAD_BYTES {
        return Err(TooLarge("html"));
    }
    let kind = note_kind(html);
    payload_spans(html)
        .into_iter()
        .map(|tag| inline_block(tag, &kind))
        .collect()
}

/// The inline block of the span `tag`.
fn inline_block(tag: &str, kind: &str) -> Result<Block, TooLarge> {
    let payload_type = span_attribute(tag, "data-zs-payload");
    let version = Some(span_attribute(tag, "data-zs-version")).filter(|v| !v.is_empty());
    let encoding = Some(span_attribute(tag, "data-zs-encoding")).filter(|v| !v.is_empty());
    let encoded = span_attribute(tag, "data-zs-value");
    let mut block = Block {
        attachment: None,
        storage_version: None,
        logical_version: None,
        anchor: Anchor::NotApplicable,
        format: Format::by_suffix(&payload_type),
        payload_type,
        note_kind: kind.to_owned(),
        version: version.unwrap_or_else(|| "1".into()),
        encoding: encoding.unwrap_or_else(|| "base64".into()).to_lowercase(),
        estimated_size: 0,
        payload: None,
        markdown: None,
        decoded: None,
        errors: Vec::new(),
    };
    let read = decode(&encoded, &block.encoding)?
        .and_then(|text| project(&block.payload_type, &text).map(|p| (text, p)));
    match read {
        Ok((text, (format, payload, markdown))) => {
            block.estimated_size = utf16_len(&text);
            block.format = format;
            block.payload = Some(payload);
            block.markdown = markdown;
            block.decoded = Some(text);
        }
        Err(message) => {
            block.errors = vec![message];
            block.estimated_size = utf16_len(&encoded);
        }
    }
    Ok(block)
}

/// The text of a block's `data-zs-value` in `encoding` (`base64`, or `plain` /
/// `utf8` as it is).
fn decode(encoded: &str, encoding: &str) -> Decoded<String> {
    match encoding {
        "base64" => decode_base64(encoded),
        "plain" | "utf8" => Ok(Ok(encoded.to_owned())),
        other => Ok(Err(format!("Unsupported payload encoding: {other}"))),
    }
}

/// Base64 of UTF-8, read as the reference host reads it: the alphabet and
/// padding checked, the encoded and decoded sizes bounded.
fn decode_base64(value: &str) -> Decoded<String> {
    let normalized = js_trim(value);
    let body = normalized.trim_end_matches('=');
    let padding = normalized.len() - body.len();
    let alphabet = body
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'+' || b == b'/');
    if !alphabet || padding > 2 || normalized.len() % 4 == 1 {
        return Ok(Err("Invalid base64 payload value".into()));
    }
    if normalized.len() as u64 > MAX_PAYLOAD_BYTES {
        return Err(TooLarge("encoded"));
    }
    if (body.len() as u64 * 3) / 4 > MAX_PAYLOAD_BYTES {
        return Err(TooLarge("decoded"));
    }
    // Leftover bits and a dangling last character are ignored, as Node's
    // decoder ignores them.
    let usable = &body[..body.len() - usize::from(body.len() % 4 == 1)];
    let config = GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(true);
    let engine = GeneralPurpose::new(&base64::alphabet::STANDARD, config);
    let bytes = engine.decode(usable).unwrap_or_default();
    let text = String::from_utf8_lossy(&bytes).into_owned();
    if text.len() as u64 > MAX_PAYLOAD_BYTES {
        return Err(TooLarge("decoded"));
    }
    Ok(Ok(text))
}

/// What a decoded text holds, by the payload type: markdown (the `content` of a
/// JSON object that has one), JSON, or text that is not JSON.
fn project(payload_type: &str, text: &str) -> Result<(Format, Value, Option<String>), String> {
    let parsed = serde_json::from_str::<Value>(text);
    if payload_type.ends_with("-markdown") {
        return Ok(match parsed {
            Ok(Value::Object(members)) if members.contains_key("content") => {
                let markdown = js_text(members.get("content"));
                (Format::Markdown, Value::Object(members), Some(markdown))
            }
            _ => (
                Format::Markdown,
                Value::String(text.into()),
                Some(text.into()),
            ),
        });
    }
    match parsed {
        Ok(value) => Ok((Format::Json, value, None)),
        Err(e) if payload_type.ends_with("-json") => Err(e.to_string()),
        Err(_) => Ok((Format::Text, Value::String(text.into()), None)),
    }
}

/// The block the carrier attachment `key` holds in `envelope` (its `zsPL`
/// chunk's JSON); `None` when the chunk holds nothing (a falsy value).
pub(in crate::host::world) fn envelope_block(
    envelope: &Value,
    key: &str,
) -> Result<Option<Block>, TooLarge> {
    let chunk = js_json(envelope).len() as u64;
    if chunk > MAX_PAYLOAD_BYTES {
        return Err(TooLarge("attachment"));
    }
    if !is_truthy(Some(envelope)) {
        return Ok(None);
    }
    let text = |name: &str| js_trim(&js_text(envelope.get(name))).to_owned();
    let storage = envelope.get("payloadStorageVersion").map_or(0.0, js_number);
    let mut block = Block {
        attachment: Some(key.to_owned()),
        storage_version: Some(if storage.is_finite() && storage != 0.0 {
            storage as u64
        } else {
            2
        }),
        logical_version: Some(text("logicalSchemaVersion")).filter(|v| !v.is_empty()),
        anchor: Anchor::NotApplicable,
        payload_type: String::new(),
        note_kind: String::new(),
        version: "1".into(),
        encoding: "embedded-image-attachment".into(),
        format: Format::Text,
        estimated_size: 0,
        payload: None,
        markdown: None,
        decoded: None,
        errors: Vec::new(),
    };
    if let Err(message) = read_envelope(envelope, &mut block) {
        block.errors = vec![message];
        block.estimated_size = chunk;
    }
    Ok(Some(block))
}

/// Fills `block` from `envelope`, or says why it cannot.
fn read_envelope(envelope: &Value, block: &mut Block) -> Result<(), String> {
    if envelope.get("schemaVersion").map_or(f64::NAN, js_number) != 1.0 {
        return Err("unsupported workbench embedded payload schema version".into());
    }
    if envelope.get("kind").and_then(Value::as_str) != Some(ENVELOPE_KIND) {
        return Err("unsupported workbench embedded payload kind".into());
    }
    let payload_type = js_trim(&js_text(envelope.get("payloadType"))).to_owned();
    if payload_type.is_empty() {
        return Err("workbench embedded payload type is missing".into());
    }
    let payload = envelope.get("payload");
    let logical = block.logical_version.is_some();
    let named = [
        envelope.get("format"),
        payload.and_then(|p| p.get("format")),
    ]
    .into_iter()
    .find(|v| is_truthy(*v))
    .flatten();
    let format_name = js_trim(&js_text(named)).to_owned();
    let format_name = match format_name.as_str() {
        "" => Format::by_suffix(&payload_type).as_str().to_owned(),
        _ => format_name,
    };
    let content = || js_text(payload.and_then(|p| p.get("content")));
    let present = payload.filter(|p| !p.is_null());
    let decoded = match (logical, format_name.as_str()) {
        (true, "json") => js_json(present.unwrap_or(&Value::Null)),
        (true, _) => present.map(js_string).unwrap_or_default(),
        (false, "json") => match payload.filter(|p| is_truthy(Some(p))) {
            Some(p) => js_json(p),
            None => "{}".into(),
        },
        (false, _) => content(),
    };
    if decoded.len() as u64 > MAX_PAYLOAD_BYTES {
        return Err(TooLarge("decoded").message());
    }
    block.format = Format::parse(&format_name).unwrap_or(Format::Text);
    if block.format == Format::Markdown {
        block.markdown = Some(if logical {
            present.map(js_string).unwrap_or_default()
        } else {
            content()
        });
    }
    block.payload_type = payload_type;
    block.note_kind = js_trim(&js_text(envelope.get("noteKind"))).to_owned();
    block.version = block.logical_version.clone().unwrap_or_else(|| "1".into());
    block.estimated_size = utf16_len(&decoded);
    block.decoded = Some(decoded);
    block.payload = payload.cloned();
    Ok(())
}

/// A payload as a caller writes it: `{payloadType, noteKind, schemaVersion,
/// format, value}`.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::host::world) struct Logical {
    pub(in crate::host::world) payload_type: String,
    pub(in crate::host::world) note_kind: String,
    pub(in crate::host::world) schema_version: String,
    pub(in crate::host::world) format: Format,
    pub(in crate::host::world) value: Value,
}

impl Logical {
    /// The canonical digest of the payload: what a carrier records as its
    /// `payloadHash`, and what decides that a write changes nothing.
    pub(in crate::host::world) fn hash(&self) -> String {
        digest(
            &json!({"payloadType": self.payload_type, "noteKind": self.note_kind,
            "schemaVersion": self.schema_version, "format": self.format.as_str(),
            "value": self.value}),
        )
    }

    /// The value's serialised text (JSON for `json`).
    pub(in crate::host::world) fn text(&self) -> String {
        match (&self.format, &self.value) {
            (Format::Json, value) => js_json(value),
            (_, value) => js_string(value),
        }
    }

    /// The envelope a carrier of this payload holds, for the note `note_key`
    /// (`note_id`, under `parent_id`).
    pub(in crate::host::world) fn envelope(
        &self,
        note_key: &str,
        note_id: Option<i64>,
        parent_id: Option<i64>,
    ) -> Value {
        json!({"schemaVersion": 1, "payloadStorageVersion": 2, "kind": ENVELOPE_KIND,
            "createdAt": Value::Null, "noteId": note_id, "noteKey": note_key,
            "parentId": parent_id, "noteKind": self.note_kind, "payloadType": self.payload_type,
            "logicalSchemaVersion": self.schema_version, "format": self.format.as_str(),
            "payloadHash": self.hash(), "payload": self.value})
    }
}

impl Block {
    /// The digest of the payload the block holds, as [`Logical::hash`] gives it;
    /// `None` for a block without a logical schema version (inline blocks).
    pub(in crate::host::world) fn logical_hash(&self) -> Option<String> {
        let version = self.logical_version.clone()?;
        let value = match (&self.format, &self.markdown) {
            (Format::Markdown, Some(markdown)) => Value::String(markdown.clone()),
            _ => self.payload.clone().unwrap_or(Value::Null),
        };
        Some(
            Logical {
                payload_type: self.payload_type.clone(),
                note_kind: self.note_kind.clone(),
                schema_version: version,
                format: self.format,
                value,
            }
            .hash(),
        )
    }

    /// The digest of the block's value as the managed owners compare values
    /// (a citation analysis without its `referencesBasis`); `None` when the
    /// block cannot be read.
    pub(in crate::host::world) fn semantic_hash(&self) -> Option<String> {
        if !self.errors.is_empty() {
            return None;
        }
        semantic_hash(&self.payload_type, &self.note_kind, self.payload.as_ref()?)
    }

    /// Whether the block is a carrier of the current storage version.
    pub(in crate::host::world) fn is_current_carrier(&self) -> bool {
        self.attachment.is_some() && self.storage_version == Some(2)
    }
}

/// The managed owners' digest of `value` as a payload of `payload_type` in a
/// note of `kind`.
pub(in crate::host::world) fn semantic_hash(
    payload_type: &str,
    kind: &str,
    value: &Value,
) -> Option<String> {
    let mut value = value.clone();
    if kind == "citation-analysis"
        && let Some(members) = value.as_object_mut()
    {
        members.shift_remove("referencesBasis");
    }
    Some(digest(
        &json!({"payloadType": payload_type, "value": value}),
    ))
}
