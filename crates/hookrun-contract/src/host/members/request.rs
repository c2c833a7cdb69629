//! The request types of the member table: each reads a call's positional
//! arguments into a typed request, or refuses them with the reference host's
//! error before any handler runs.

use serde_json::{Map, Value, json};

use super::Member;
use crate::host::HostError;
use crate::host::api::Answer;
use crate::host::world::{NoteFormat, PageRequest};
use crate::selection::PortableItemRef;

/// A member's request, read from the JSON array of a call's arguments.
pub trait Request: Sized {
    /// Whether any arguments fit: the member takes none, or its answer comes
    /// from the fixture for whatever it is asked.
    const OPEN: bool = false;

    /// Reads the request of a call of `member`; `Err` refuses the call with the
    /// reference host's error.
    fn decode(member: Member, args: &Value) -> Result<Self, HostError>;
}

/// The `i`th argument (`null` when absent).
pub fn arg(args: &Value, i: usize) -> &Value {
    args.get(i).unwrap_or(&Value::Null)
}

/// A member whose arguments are not checked: it takes none, or is answered
/// from the fixture for the arguments as given.
#[derive(Debug)]
pub struct Open;

impl Request for Open {
    const OPEN: bool = true;

    fn decode(_: Member, _: &Value) -> Result<Open, HostError> {
        Ok(Open)
    }
}

/// A member whose request its handler reads, checked against what the world
/// holds as the reference host checks it against its library and files (list
/// and traversal criteria, paths, archive entries): any JSON arguments reach the
/// handler, which refuses what does not fit.
#[derive(Debug)]
pub struct Checked;

impl Request for Checked {
    fn decode(_: Member, _: &Value) -> Result<Checked, HostError> {
        Ok(Checked)
    }
}

/// A portable ref as the reference host asserts it (`assertPortableRef`):
/// exactly `{libraryId, key}`, a positive integer id and an eight-character key
/// of capitals and digits. `kind` names what the ref must identify.
pub fn portable_ref(value: &Value, kind: &str) -> Result<PortableItemRef, HostError> {
    let refused = |reason: &str, what: &str| {
        HostError::capability(
            "invalid_ref",
            format!("{kind} ref {what}"),
            json!({"kind": kind, "reason": reason}),
        )
    };
    let Value::Object(map) = value else {
        return Err(refused("invalid_shape", "must be portable"));
    };
    if map.len() != 2 || !map.contains_key("libraryId") || !map.contains_key("key") {
        return Err(refused("invalid_shape", "has an invalid shape"));
    }
    let library_id = map["libraryId"]
        .as_u64()
        .filter(|id| (1..=MAX_SAFE_INTEGER).contains(id))
        .ok_or_else(|| refused("invalid_library_id", "has an invalid library id"))?;
    let key = map["key"]
        .as_str()
        .filter(|k| {
            k.len() == 8
                && k.bytes()
                    .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
        })
        .ok_or_else(|| refused("invalid_key", "has an invalid key"))?;
    Ok(PortableItemRef {
        library_id,
        key: key.to_string(),
    })
}

/// The largest integer JavaScript represents exactly.
const MAX_SAFE_INTEGER: u64 = (1 << 53) - 1;

/// `(ref, page?)`: a read about one item (`getItemDetail`, `getItemNotes`,
/// `getItemAttachments`, `listAnnotations`, `listNotePayloads`).
#[derive(Debug)]
pub struct ItemRead {
    /// The item.
    pub item: PortableItemRef,
    /// The page asked for.
    pub page: PageRequest,
}

impl Request for ItemRead {
    fn decode(member: Member, args: &Value) -> Result<ItemRead, HostError> {
        let kind = if member == Member::LibraryListNotePayloads {
            "note"
        } else {
            "item"
        };
        Ok(ItemRead {
            item: portable_ref(arg(args, 0), kind)?,
            page: PageRequest::from_value(args.get(1)),
        })
    }
}

/// `(ref, {format})`: `library.getNoteDetail`.
#[derive(Debug)]
pub struct NoteDetail {
    /// The note.
    pub note: PortableItemRef,
    /// `html` or `text`.
    pub format: NoteFormat,
}

impl Request for NoteDetail {
    fn decode(_: Member, args: &Value) -> Result<NoteDetail, HostError> {
        // The format is checked before the note, as the reference checks them.
        let format = arg(args, 1)
            .get("format")
            .and_then(Value::as_str)
            .and_then(NoteFormat::parse)
            .ok_or_else(|| {
                HostError::capability(
                    "invalid_request",
                    "note format is required",
                    json!({"reason": "invalid_value", "field": "format"}),
                )
            })?;
        let note = portable_ref(arg(args, 0), "note")?;
        Ok(NoteDetail { note, format })
    }
}

/// `(ref, {payloadType})`: `library.getNotePayload`.
#[derive(Debug)]
pub struct NotePayload {
    /// The note.
    pub note: PortableItemRef,
    /// The payload type asked for.
    pub payload_type: String,
}

impl Request for NotePayload {
    /// The reference host checks the payload type (`String(payloadType || "")`,
    /// trimmed) before the ref.
    fn decode(_: Member, args: &Value) -> Result<NotePayload, HostError> {
        let payload_type = match arg(args, 1).get("payloadType") {
            Some(Value::String(s)) => s.trim().to_string(),
            Some(Value::Bool(true)) => "true".into(),
            Some(Value::Number(n)) if n.as_f64() != Some(0.0) => n.to_string(),
            _ => String::new(),
        };
        if payload_type.is_empty() {
            return Err(HostError::capability(
                "invalid_request",
                "payload type is required",
                json!({"reason": "missing_field", "field": "payloadType"}),
            ));
        }
        Ok(NotePayload {
            note: portable_ref(arg(args, 0), "note")?,
            payload_type,
        })
    }
}

/// An identifier type `metadata.translateIdentifier` looks up.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum IdentifierType {
    /// `DOI`.
    Doi,
    /// `ISBN`.
    Isbn,
    /// `arXiv`.
    Arxiv,
    /// `PMID`.
    Pmid,
}

impl IdentifierType {
    /// The type as requests spell it.
    pub fn as_str(self) -> &'static str {
        match self {
            IdentifierType::Doi => "DOI",
            IdentifierType::Isbn => "ISBN",
            IdentifierType::Arxiv => "arXiv",
            IdentifierType::Pmid => "PMID",
        }
    }
}

/// `{type, value}`: `metadata.translateIdentifier`, checked as the reference
/// host checks it (exactly these two members, a known type, a non-blank value
/// of at most [`Identifier::MAX_CHARS`] characters).
#[derive(Debug)]
pub struct Identifier {
    /// Its type.
    pub kind: IdentifierType,
    /// Its value as given, trimmed.
    pub value: String,
}

impl Identifier {
    /// Most characters of a value.
    pub const MAX_CHARS: usize = 2048;

    /// The value's normal form, the identifier a candidate must carry to match
    /// (a decoded request always has one).
    pub fn normalized(&self) -> String {
        super::identifier::normalized(self.kind, &self.value).unwrap_or_default()
    }
}

impl Request for Identifier {
    fn decode(_: Member, args: &Value) -> Result<Identifier, HostError> {
        let invalid = |message: &str, details: Value| {
            HostError::capability("invalid_request", message.to_string(), details)
        };
        let Value::Object(map) = arg(args, 0) else {
            return Err(invalid(
                "metadata lookup is invalid",
                json!({"reason": "invalid_type"}),
            ));
        };
        if let Some(extra) = map.keys().find(|k| *k != "type" && *k != "value") {
            return Err(invalid(
                "metadata lookup is invalid",
                json!({"reason": "invalid_schema", "field": extra}),
            ));
        }
        if map.len() != 2 {
            return Err(invalid(
                "metadata lookup is invalid",
                json!({"reason": "invalid_schema"}),
            ));
        }
        let kind = match map["type"].as_str() {
            Some("DOI") => IdentifierType::Doi,
            Some("ISBN") => IdentifierType::Isbn,
            Some("arXiv") => IdentifierType::Arxiv,
            Some("PMID") => IdentifierType::Pmid,
            _ => {
                return Err(invalid(
                    "metadata type is invalid",
                    json!({"reason": "unsupported_value", "field": "type"}),
                ));
            }
        };
        let value = match &map["value"] {
            Value::String(s) if !s.trim().is_empty() => s.trim().to_string(),
            Value::String(_) => {
                return Err(invalid(
                    "metadata value is invalid",
                    json!({"reason": "invalid_value", "field": "value"}),
                ));
            }
            _ => {
                return Err(invalid(
                    "metadata value is invalid",
                    json!({"reason": "invalid_type", "field": "value"}),
                ));
            }
        };
        if value.chars().count() > Identifier::MAX_CHARS {
            return Err(invalid(
                "metadata value is too long",
                json!({"reason": "invalid_value", "field": "value"}),
            ));
        }
        has_normal_form(kind, &value)?;
        Ok(Identifier { kind, value })
    }
}

/// Refuses an identifier the reference cannot normalise (an ISBN whose check
/// digit fails: `checksum_failed`; any other: `invalid_format`).
fn has_normal_form(kind: IdentifierType, value: &str) -> Result<(), HostError> {
    if super::identifier::normalized(kind, value).is_some() {
        return Ok(());
    }
    let reason = match kind {
        IdentifierType::Isbn => "checksum_failed",
        _ => "invalid_format",
    };
    Err(HostError::capability(
        "invalid_request",
        "metadata value is invalid",
        json!({"reason": reason, "field": "value"}),
    ))
}

/// `{operationId}`: `mutations.getOperation`.
#[derive(Debug)]
pub struct OperationLookup {
    /// The id asked about.
    pub operation_id: String,
}

impl Request for OperationLookup {
    fn decode(_: Member, args: &Value) -> Result<OperationLookup, HostError> {
        let id = arg(args, 0)
            .get("operationId")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|id| (1..=MAX_OPERATION_ID_CHARS).contains(&id.chars().count()));
        match id {
            Some(id) => Ok(OperationLookup {
                operation_id: id.to_string(),
            }),
            // The reference host rejects with its mutation authority's own error.
            None => {
                let mut error = HostError::plain(
                    "MutationAuthorityAdmissionError",
                    "operationId must contain between 1 and 128 characters",
                );
                error.fields.insert("code".into(), json!("invalid_request"));
                error.fields.insert(
                    "details".into(),
                    json!({"reason": "invalid_value", "field": "operationId"}),
                );
                Err(error)
            }
        }
    }
}

/// Most characters of an `operationId`.
pub const MAX_OPERATION_ID_CHARS: usize = 128;

/// A library write's request: one object, checked against the top-level members
/// the reference host's canonical schema declares for it (unknown members are
/// refused, as its schema refuses them), with an `operationId` when the member
/// records a write. What lies inside each member is checked by the world,
/// against what it holds.
#[derive(Debug)]
pub struct Canonical {
    /// The request object.
    pub request: Map<String, Value>,
    /// Its `operationId`, which a write must carry (1 to
    /// [`MAX_OPERATION_ID_CHARS`] characters, trimmed).
    pub operation_id: Option<String>,
}

impl Canonical {
    /// The members a request of `member` may have besides `operationId`: `None`
    /// when they depend on its `operation` (`mutations.*`).
    fn declared(member: Member) -> Option<&'static [&'static str]> {
        Some(match member {
            Member::NotesCreate => &["placement", "content", "initialTags"],
            Member::NotesUpdateContent => &["noteRef", "content"],
            Member::NotesRemove => &["noteRef", "disposition"],
            Member::NotesUpsertPayload => &["noteRef", "payload"],
            Member::AttachmentsCreate => &["placement", "source", "metadata"],
            Member::AttachmentsUpdateMetadata => &["attachmentRef", "patch"],
            Member::AttachmentsReplaceFile => &["attachmentRef", "source"],
            Member::AttachmentsMove => &["attachmentRef", "placement"],
            Member::AttachmentsRemove => &["attachmentRef", "disposition"],
            Member::StatusTagsTransition => &["itemRef", "add", "remove"],
            Member::ManagedNotesWriteCustom | Member::ManagedNotesWriteConversation => {
                &["target", "content"]
            }
            Member::LiteratureArtifactsUpsertDigest => &["parentRef", "markdown"],
            Member::LiteratureArtifactsUpsertReferences => &["parentRef", "references"],
            Member::LiteratureArtifactsUpsertCitationAnalysis => &["parentRef", "citationAnalysis"],
            Member::LiteratureArtifactsUpsertScore => &["parentRef", "score"],
            _ => return None,
        })
    }
}

impl Request for Canonical {
    fn decode(member: Member, args: &Value) -> Result<Canonical, HostError> {
        let Value::Object(request) = arg(args, 0) else {
            return Err(schema_refusal(member, None));
        };
        if let Some(declared) = Canonical::declared(member)
            && let Some(extra) = request
                .keys()
                .find(|k| *k != "operationId" && !declared.contains(&k.as_str()))
        {
            return Err(schema_refusal(member, Some(extra)));
        }
        let operation_id = request
            .get("operationId")
            .and_then(Value::as_str)
            .filter(|id| (1..=MAX_OPERATION_ID_CHARS).contains(&id.trim().chars().count()))
            .map(str::to_string);
        if operation_id.is_none() && member.answer() == Answer::Write {
            // applyAnalysis checks the id in its own owner; the others in the schema.
            return Err(if member == Member::LiteratureArtifactsApplyAnalysis {
                HostError::workflow(
                    "invalid_request",
                    format!("{}: operationId must be 1 to 128 characters", member.name()),
                    json!({"reason": "invalid_value", "field": "operationId"}),
                )
            } else {
                canonical_refusal(Some("/operationId"))
            });
        }
        Ok(Canonical {
            request: request.clone(),
            operation_id,
        })
    }
}

/// The reference host's refusal of a write request its canonical schema does
/// not accept, naming the member at `pointer` (a JSON pointer) when there is one.
pub fn canonical_refusal(pointer: Option<&str>) -> HostError {
    let details = match pointer {
        Some(pointer) => json!({"reason": "invalid_schema", "field": pointer}),
        None => json!({"reason": "invalid_schema"}),
    };
    HostError::capability(
        "invalid_request",
        "mutation request does not match the canonical schema",
        details,
    )
}

/// [`canonical_refusal`] of a request of `member`; `extra` is a top-level member
/// its schema does not declare. A preview's refusal names the preview schema.
pub fn schema_refusal(member: Member, extra: Option<&str>) -> HostError {
    let mut error = canonical_refusal(extra.map(|field| format!("/{field}")).as_deref());
    if member == Member::MutationsPreview {
        error.message = "mutation preview request does not match the canonical schema".into();
    }
    error
}

#[cfg(test)]
mod tests {
    use super::*;

    fn code(error: &HostError) -> (&str, &Value) {
        (
            error.fields["code"].as_str().unwrap_or_default(),
            &error.fields["details"],
        )
    }

    #[test]
    fn a_note_detail_checks_its_format_before_its_note() {
        let refused = NoteDetail::decode(
            Member::LibraryGetNoteDetail,
            &json!([{"libraryId": 0, "key": "bad"}, {"format": "pdf"}]),
        )
        .unwrap_err();
        assert_eq!(refused.message, "note format is required");
        assert_eq!(
            code(&refused),
            (
                "invalid_request",
                &json!({"reason": "invalid_value", "field": "format"})
            )
        );
        let bad_ref = NoteDetail::decode(
            Member::LibraryGetNoteDetail,
            &json!([{"libraryId": 0, "key": "bad"}, {"format": "html"}]),
        )
        .unwrap_err();
        assert_eq!(code(&bad_ref).0, "invalid_ref");
    }

    #[test]
    fn portable_refs_are_asserted_as_the_reference_host_asserts_them() {
        assert!(portable_ref(&json!({"libraryId": 1, "key": "ABCD1234"}), "item").is_ok());
        for (value, reason) in [
            (json!("ABCD1234"), "invalid_shape"),
            (json!({"libraryId": 1}), "invalid_shape"),
            (
                json!({"libraryId": 1, "key": "ABCD1234", "x": 1}),
                "invalid_shape",
            ),
            (
                json!({"libraryId": 0, "key": "ABCD1234"}),
                "invalid_library_id",
            ),
            (
                json!({"libraryId": "1", "key": "ABCD1234"}),
                "invalid_library_id",
            ),
            (json!({"libraryId": 1, "key": "abcd1234"}), "invalid_key"),
            (json!({"libraryId": 1, "key": "ABCD123"}), "invalid_key"),
        ] {
            let error = portable_ref(&value, "note").unwrap_err();
            assert_eq!(code(&error).0, "invalid_ref", "{value}");
            assert_eq!(
                code(&error).1,
                &json!({"kind": "note", "reason": reason}),
                "{value}"
            );
        }
    }

    #[test]
    fn identifiers_are_checked_in_the_reference_host_s_order() {
        let decode =
            |v: Value| Identifier::decode(Member::MetadataTranslateIdentifier, &json!([v]));
        let ok = decode(json!({"type": "DOI", "value": " 10.1000/x "})).unwrap();
        assert_eq!(
            (ok.kind, ok.value.as_str()),
            (IdentifierType::Doi, "10.1000/x")
        );
        for (value, message, details) in [
            (
                json!(null),
                "metadata lookup is invalid",
                json!({"reason": "invalid_type"}),
            ),
            (
                json!({"type": "DOI", "value": "x", "y": 1}),
                "metadata lookup is invalid",
                json!({"reason": "invalid_schema", "field": "y"}),
            ),
            (
                json!({"type": "doi", "value": "x"}),
                "metadata type is invalid",
                json!({"reason": "unsupported_value", "field": "type"}),
            ),
            (
                json!({"type": "PMID", "value": 5}),
                "metadata value is invalid",
                json!({"reason": "invalid_type", "field": "value"}),
            ),
            (
                json!({"type": "PMID", "value": "x".repeat(2049)}),
                "metadata value is too long",
                json!({"reason": "invalid_value", "field": "value"}),
            ),
        ] {
            let error = decode(value.clone()).unwrap_err();
            assert_eq!(error.message, message, "{value}");
            assert_eq!(code(&error), ("invalid_request", &details), "{value}");
        }
    }

    #[test]
    fn canonical_writes_refuse_members_their_schema_does_not_declare() {
        let args =
            json!([{"operationId": "o", "noteRef": {}, "content": {}, "expectedRevision": "1"}]);
        let error = Canonical::decode(Member::NotesUpdateContent, &args).unwrap_err();
        assert_eq!(
            error.message,
            "mutation request does not match the canonical schema"
        );
        assert_eq!(
            code(&error).1,
            &json!({"reason": "invalid_schema", "field": "/expectedRevision"})
        );
        assert!(Canonical::decode(Member::NotesUpdateContent, &json!([5])).is_err());
        assert!(
            Canonical::decode(
                Member::MutationsExecute,
                &json!([{"operationId": "o", "x": 1}])
            )
            .is_ok()
        );
        let error = Canonical::decode(Member::NotesCreate, &json!([{}])).unwrap_err();
        assert_eq!(code(&error).1["field"], "/operationId");
        let long = "x".repeat(129);
        let error = Canonical::decode(
            Member::LiteratureArtifactsApplyAnalysis,
            &json!([{"operationId": long}]),
        )
        .unwrap_err();
        assert_eq!(error.name, "WorkflowHostError");
        assert!(
            Canonical::decode(Member::MutationsPreview, &json!([{"operation": "x"}])).is_ok(),
            "a preview carries no operationId"
        );
    }
}
