//! Managed notes as the reference host recognises them from their payload
//! blocks: the kind, the value its owner keeps, and the one note of a kind a
//! parent may have.

use serde_json::{Value, json};

use super::super::HostWorld;
use super::super::record::{DetailKind, Record};
use super::codec::{Block, MAX_PAYLOAD_BYTES, TooLarge};
use super::html::{kind_hint, reserved_marker, text_from_html, title_from_html};
use super::normalize::{legacy_storage, normalize};
use super::text::{js_trim, json_bytes};
use super::validators::references_basis;
use super::{MANAGED, managed_kind};
use crate::host::HostError;
use crate::plan::{ItemLocator, WorldNote};
use crate::selection::PortableItemRef;

/// Most child notes a managed-note scan of a parent reads.
const MAX_SCANNED_NOTES: usize = 100;

/// What a note is.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::host::world) enum Inspection {
    /// An ordinary note.
    Ordinary {
        /// Its title.
        title: String,
    },
    /// A managed note: its kind, title and the value its owner keeps.
    Managed {
        kind: String,
        title: String,
        payload: Value,
    },
}

/// Why a note cannot be read as an ordinary or a managed note.
#[derive(Debug, Clone, PartialEq)]
pub(in crate::host::world) enum InspectError {
    /// The managed-note owner's refusal: its code, message and details.
    Owner {
        code: &'static str,
        message: &'static str,
        details: Value,
    },
    /// A payload past the codec's limit.
    TooLarge(TooLarge),
}

impl InspectError {
    /// The owner's refusal `code` "`message`" with `details`.
    pub(super) fn owner(code: &'static str, message: &'static str, details: Value) -> InspectError {
        InspectError::Owner {
            code,
            message,
            details,
        }
    }

    /// An unreadable managed artifact of `kind` (`invalid_artifact`).
    pub(super) fn invalid(kind: &str, message: &'static str) -> InspectError {
        Self::owner(
            "invalid_artifact",
            message,
            json!({"managedType": kind, "noteKind": kind}),
        )
    }

    /// `conflict` "`message`" on an ambiguous note.
    fn ambiguous(message: &'static str) -> InspectError {
        Self::owner(
            "conflict",
            message,
            json!({"reason": "ambiguous_state", "kind": "note"}),
        )
    }

    /// The error as `library.getNoteDetail` raises it: the owner's codes pass,
    /// an unreadable or legacy artifact is the broker's diagnostic (not a host
    /// error code).
    pub(in crate::host::world) fn into_read_error(self) -> HostError {
        match self {
            InspectError::TooLarge(e) => HostError::capability(
                "resource_limited",
                e.message(),
                json!({"resource": "bytes", "limit": MAX_PAYLOAD_BYTES}),
            ),
            InspectError::Owner {
                code: code @ ("invalid_artifact" | "legacy_artifact_requires_migration"),
                message,
                details,
            } => {
                let mut error = HostError::plain("ZoteroManagedArtifactDiagnostic", message);
                error.fields.insert("code".into(), code.into());
                error.fields.insert("details".into(), details);
                error.fields.insert("retryable".into(), false.into());
                error
            }
            InspectError::Owner {
                code,
                message,
                details,
            } => HostError::capability(code, message, details),
        }
    }

    /// The error as a managed-note write raises it: the owner's request, ref,
    /// lookup, limit and conflict codes pass, others fail the read; a payload past
    /// the limit is the Broker's.
    pub(in crate::host::world) fn into_write_error(self) -> HostError {
        match self {
            InspectError::TooLarge(_) => HostError::capability(
                "resource_limited",
                "managed note payload exceeds the Broker limit",
                json!({"resource": "bytes", "limit": MAX_PAYLOAD_BYTES}),
            ),
            InspectError::Owner {
                code:
                    code @ ("invalid_request" | "invalid_ref" | "not_found" | "resource_limited"
                    | "conflict"),
                message,
                details,
            } => HostError::capability(code, message, details),
            InspectError::Owner { message, .. } => HostError::capability(
                "execution_failed",
                message,
                json!({"phase": "read", "recovery": "refresh_and_retry_new_operation"}),
            ),
        }
    }

    /// Whether the error is a damaged, legacy or ambiguous References note, which
    /// makes a citation analysis stale instead of failing its read.
    pub(in crate::host::world) fn is_reference_dependency(&self) -> bool {
        let InspectError::Owner { code, details, .. } = self else {
            return false;
        };
        let kind = details
            .get("noteKind")
            .or_else(|| details.get("managedType"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        match *code {
            "legacy_artifact_requires_migration" => true,
            "invalid_artifact" => kind == "references",
            "conflict" => {
                details["reason"] == "ambiguous_state" && (kind.is_empty() || kind == "references")
            }
            _ => false,
        }
    }
}

/// The managed kind a block's payload type belongs to.
fn known_kind(block: &Block) -> Option<&'static str> {
    MANAGED
        .iter()
        .find(|m| m.payload_type == block.payload_type)
        .map(|m| m.kind)
}

/// The block of `payload_type` the reference host reads first: a carrier of
/// the current storage version, else any carrier, else an inline block.
fn preferred<'a>(blocks: &'a [Block], payload_type: &str) -> Option<&'a Block> {
    let of_type: Vec<&Block> = blocks
        .iter()
        .filter(|b| b.payload_type == payload_type)
        .collect();
    of_type
        .iter()
        .find(|b| b.is_current_carrier())
        .or_else(|| of_type.iter().find(|b| b.attachment.is_some()))
        .or_else(|| of_type.iter().find(|b| b.attachment.is_none()))
        .copied()
}

impl HostWorld {
    /// What `note` is, from its HTML and payload blocks.
    pub(in crate::host::world) fn inspect(
        &self,
        note: &Record,
    ) -> Result<Inspection, InspectError> {
        let html = note.html.as_deref().unwrap_or_default();
        let bytes = json_bytes(&Value::String(html.to_owned()));
        if bytes > MAX_PAYLOAD_BYTES {
            return Err(InspectError::owner(
                "resource_limited",
                "note source exceeds the managed note limit",
                json!({"resource": "bytes", "limit": MAX_PAYLOAD_BYTES, "observed": bytes}),
            ));
        }
        let blocks = self.payload_blocks(note).map_err(InspectError::TooLarge)?;
        let title = note
            .title
            .as_deref()
            .map(js_trim)
            .filter(|t| !t.is_empty())
            .map_or_else(|| title_from_html(html), str::to_owned);
        classify(note, html, &blocks, title)
    }

    /// The managed note of `kind` under `parent` (a regular item), when it has
    /// one: at most 100 child notes are scanned, and two of the kind are
    /// ambiguous.
    pub(in crate::host::world) fn managed_singleton(
        &self,
        parent: &PortableItemRef,
        kind: &str,
    ) -> Result<Option<(&Record, Inspection)>, InspectError> {
        let record = self
            .find(&ItemLocator::Ref(parent.clone()))
            .ok_or_else(|| {
                InspectError::owner(
                    "not_found",
                    "item not found",
                    json!({"kind": "item", "opaqueKey": parent.key}),
                )
            })?;
        if record.kind.unwrap_or(DetailKind::Regular) != DetailKind::Regular {
            return Err(InspectError::owner(
                "invalid_ref",
                "artifact parent must be a regular item",
                json!({"kind": "item", "reason": "wrong_kind"}),
            ));
        }
        let notes: Vec<&Record> = self
            .child_records(record)
            .filter(|r| r.kind == Some(DetailKind::Note) && !r.zotero.get().deleted)
            .collect();
        if notes.len() > MAX_SCANNED_NOTES {
            return Err(InspectError::owner(
                "resource_limited",
                "managed note scan is too large",
                json!({"resource": "items", "limit": MAX_SCANNED_NOTES, "observed": notes.len()}),
            ));
        }
        let mut found = None;
        for note in notes {
            let hint = kind_hint(note.html.as_deref().unwrap_or_default());
            if hint.is_some_and(|h| h != kind) {
                continue;
            }
            let inspection = self.inspect(note)?;
            if matches!(&inspection, Inspection::Managed { kind: k, .. } if k == kind) {
                if found.is_some() {
                    return Err(InspectError::ambiguous("managed artifact is ambiguous"));
                }
                found = Some((note, inspection));
            }
        }
        Ok(found)
    }

    /// The managed kind of `note` as its owner recognises it; `None` for an
    /// ordinary note or one that cannot be read.
    pub(in crate::host::world) fn managed_kind(&self, note: &Record) -> Option<String> {
        match self.inspect(note) {
            Ok(Inspection::Managed { kind, .. }) => Some(kind),
            _ => None,
        }
    }

    /// `note` as planning reads it: its managed kind and value (a citation
    /// analysis's without its stored References basis, which is kept beside
    /// it; a References note's with the basis it gives), or the issue that
    /// keeps it from being read, or the reserved marker that makes it a legacy
    /// artifact on a current host.
    pub(in crate::host::world) fn world_note(&self, note: &Record) -> WorldNote {
        let mut world = WorldNote {
            reference: note.reference.clone(),
            id: note.id,
            title: note.title.clone(),
            html: note.html.clone(),
            issue: note.issue.clone(),
            ..WorldNote::default()
        };
        match self.inspect(note) {
            Ok(Inspection::Managed { kind, payload, .. }) => {
                managed_facts(&mut world, kind, payload)
            }
            Ok(Inspection::Ordinary { .. }) => {}
            Err(InspectError::TooLarge(_)) => {
                world.issue.get_or_insert_with(|| "resource_limited".into());
            }
            // A note whose only managed trace is a marker: older hosts kept
            // managed notes so, a current host refuses it as a legacy artifact.
            Err(InspectError::Owner { details, .. }) if details["managedType"] == "unknown" => {
                world.legacy_marker = true;
            }
            Err(InspectError::Owner { code, details, .. }) => {
                world.note_kind = details
                    .get("noteKind")
                    .or_else(|| details.get("managedType"))
                    .and_then(Value::as_str)
                    .filter(|k| managed_kind(k).is_some())
                    .map(str::to_owned);
                let fatal = matches!(
                    code,
                    "invalid_artifact" | "legacy_artifact_requires_migration" | "resource_limited"
                );
                if fatal {
                    world.issue.get_or_insert_with(|| code.into());
                }
            }
        }
        world
    }
}

/// Records a managed note of `kind` keeping `payload` in `world`: a citation
/// analysis's stored References basis apart from its value, a References
/// note's current basis.
fn managed_facts(world: &mut WorldNote, kind: String, mut payload: Value) {
    match kind.as_str() {
        "citation-analysis" => {
            let basis = payload
                .as_object_mut()
                .and_then(|members| members.shift_remove("referencesBasis"));
            world.references_basis = basis.and_then(|b| b.as_str().map(str::to_owned));
        }
        "references" => world.current_basis = references_basis(&payload),
        _ => {}
    }
    world.note_kind = Some(kind).filter(|k| !k.is_empty());
    world.payload = Some(payload);
}

/// What a note with `blocks` is: ordinary, or managed of the one kind its managed
/// blocks agree on (a note a fixture declares managed without blocks is managed
/// as declared).
fn classify(
    note: &Record,
    html: &str,
    blocks: &[Block],
    title: String,
) -> Result<Inspection, InspectError> {
    let candidates: Vec<(&Block, &'static str)> = blocks
        .iter()
        .filter_map(|b| known_kind(b).map(|k| (b, k)))
        .collect();
    let title = if title.is_empty() {
        text_from_html(html).chars().take(80).collect()
    } else {
        title
    };
    let Some(&(first, kind)) = candidates.first() else {
        return unmanaged(note, html, title);
    };
    if candidates.iter().any(|(_, k)| *k != kind) {
        return Err(InspectError::ambiguous("managed note payload is ambiguous"));
    }
    if candidates.iter().any(|(b, _)| b.storage_version == Some(1)) {
        return Err(legacy_storage(kind));
    }
    let hashes: Vec<Option<String>> = candidates.iter().map(|(b, _)| semantic(b, kind)).collect();
    if hashes.iter().any(Option::is_none) {
        return Err(InspectError::invalid(
            kind,
            "managed note payload is unreadable",
        ));
    }
    if hashes.iter().any(|h| *h != hashes[0]) {
        return Err(InspectError::ambiguous("managed note payload is ambiguous"));
    }
    let block = preferred(blocks, &first.payload_type)
        .filter(|b| known_kind(b) == Some(kind))
        .ok_or_else(|| InspectError::invalid(kind, "managed note payload storage is invalid"))?;
    let payload = normalize(kind, block, &title)?;
    Ok(Inspection::Managed {
        kind: kind.to_owned(),
        title,
        payload,
    })
}

/// The semantic digest of `block` read as a payload of a note of `kind`.
fn semantic(block: &Block, kind: &str) -> Option<String> {
    if !block.errors.is_empty() {
        return None;
    }
    super::codec::semantic_hash(&block.payload_type, kind, block.payload.as_ref()?)
}

/// A note without managed blocks: managed as its fixture declares it, else a
/// legacy artifact when it carries a managed marker, else ordinary.
fn unmanaged(note: &Record, html: &str, title: String) -> Result<Inspection, InspectError> {
    if note.note_kind.is_some() || note.payload.is_some() {
        return Ok(Inspection::Managed {
            kind: note.note_kind.clone().unwrap_or_default(),
            title,
            payload: note.payload.clone().unwrap_or(Value::Null),
        });
    }
    if reserved_marker(html) {
        return Err(InspectError::owner(
            "legacy_artifact_requires_migration",
            "note contains a legacy managed artifact",
            json!({"managedType": "unknown", "noteKind": "unknown"}),
        ));
    }
    Ok(Inspection::Ordinary { title })
}
