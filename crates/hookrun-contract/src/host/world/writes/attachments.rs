//! Attachments: `attachments.create` from a stored file, a linked file or a URL,
//! and the metadata, file, parent and removal writes.

use serde_json::{Value, json};

use super::super::HostWorld;
use super::super::record::{DetailKind, Fields, Record};
use super::notes::Placement;
use super::{Keys, Prepared, StoredFile, invalid, ref_at, text_at};
use crate::host::HostError;
use crate::selection::grouped::base_name;

impl HostWorld {
    pub(super) fn attachment_create(
        &self,
        op: &str,
        request: &Value,
        keys: &mut Keys,
    ) -> Result<Prepared, HostError> {
        let (parent, library_id, collections) = match self.placement(op, request)? {
            Placement::Child(parent) => {
                self.of_kind(op, &parent, DetailKind::Regular)?;
                let library_id = parent.library_id;
                (Some(parent), library_id, Vec::new())
            }
            Placement::TopLevel {
                library_id,
                collections,
            } => (None, library_id, collections),
        };
        let source = request
            .get("source")
            .ok_or_else(|| invalid(op, "missing_field", "source"))?;
        let reference = keys.next(library_id);
        let metadata = request.get("metadata").cloned().unwrap_or(json!({}));
        let mut record = Record {
            reference: Some(reference.clone()),
            kind: Some(DetailKind::Attachment),
            parent_ref: parent,
            fields: Fields {
                item_type: Some("attachment".into()),
                content_type: text_at(&metadata, "/contentType").map(str::to_owned),
                title: text_at(&metadata, "/title").map(str::to_owned),
                ..Fields::default()
            }
            .into(),
            ..Record::default()
        };
        record.zotero.get_mut().charset = text_at(&metadata, "/charset").map(str::to_owned);
        record.zotero.get_mut().collections = collections;
        let mut prepared = Prepared::new(op);
        match source.get("kind").and_then(Value::as_str) {
            Some("stored_file") => {
                let key = reference.key.as_str();
                prepared.files = store_file(op, source, key, &mut record)?;
            }
            Some("linked_file") => link_file(op, source, &mut record)?,
            Some(kind @ ("linked_url" | "stored_url")) => link_url(op, kind, source, &mut record)?,
            _ => return Err(invalid(op, "invalid_value", "source.kind")),
        }
        prepared.result = json!({"attachment": self.attachment_detail(&record)});
        prepared.put(None, record);
        Ok(prepared)
    }

    pub(super) fn attachment_metadata(
        &self,
        op: &str,
        request: &Value,
    ) -> Result<Prepared, HostError> {
        let before = match self.ordinary_attachment(op, request)? {
            Ok(record) => record,
            Err(failed) => return Ok(failed),
        };
        let Some(patch) = request
            .get("patch")
            .and_then(Value::as_object)
            .filter(|p| !p.is_empty())
        else {
            let error = invalid(op, "missing_field", "patch");
            return Ok(Prepared::failed(op, "validation", error));
        };
        let mut after = before.clone();
        for (key, value) in patch {
            let value = value.as_str().map(str::to_owned);
            match key.as_str() {
                "title" => after.title = value,
                "contentType" => after.content_type = value,
                "charset" => after.zotero.get_mut().charset = value,
                "url" => {
                    match value {
                        Some(url) => after
                            .zotero
                            .get_mut()
                            .fields
                            .insert("url".into(), url.into()),
                        None => after.zotero.get_mut().fields.remove("url"),
                    };
                }
                _ => return Err(invalid(op, "invalid_schema", &format!("patch.{key}"))),
            }
        }
        let (mut prepared, after) = Prepared::update(op, before, after);
        prepared.result = json!({"attachment": self.attachment_detail(&after)});
        Ok(prepared)
    }

    pub(super) fn attachment_file(&self, op: &str, request: &Value) -> Result<Prepared, HostError> {
        // The reference refuses a linked file as the replacement before anything else.
        if text_at(request, "/source/kind") == Some("linked_file") {
            return Err(HostError::capability(
                "unsupported_operation",
                "linked-file replacement is unsupported",
                json!({"memberOrOperation": "attachments.replaceFile"}),
            ));
        }
        let before = match self.ordinary_attachment(op, request)? {
            Ok(record) => record,
            Err(failed) => return Ok(failed),
        };
        let reference = ref_at(request, "attachmentRef")?;
        let path = text_at(request, "/source/main/source/path")
            .filter(|p| !p.is_empty())
            .ok_or_else(|| invalid(op, "missing_field", "source.main.source.path"))?;
        let filename = text_at(request, "/source/main/targetFilename")
            .map(str::to_owned)
            .or_else(|| before.filename.clone())
            .unwrap_or_else(|| base_name(path).to_owned());
        let target = format!("attachments/{}/{filename}", reference.key);
        let mut after = before.clone();
        after.filename = Some(filename);
        after.path = Some(target.clone());
        after.stored = true;
        // A new file is a new revision, even with the same name.
        after.edits = before.edits.saturating_add(1);
        let mut prepared = Prepared::new(op);
        prepared.files.push(StoredFile {
            source: path.to_owned(),
            target,
        });
        prepared.put(Some(before), after.clone());
        prepared.changed = true;
        prepared.result =
            json!({"attachment": self.attachment_detail(&after), "outcome": "replaced"});
        Ok(prepared)
    }

    pub(super) fn attachment_move(&self, op: &str, request: &Value) -> Result<Prepared, HostError> {
        let before = match self.ordinary_attachment(op, request)? {
            Ok(record) => record,
            Err(failed) => return Ok(failed),
        };
        let mut after = before.clone();
        // A child belongs to no collection; a top-level attachment to those named.
        match self.placement(op, request)? {
            Placement::Child(parent) => {
                self.of_kind(op, &parent, DetailKind::Regular)?;
                after.parent_ref = Some(parent);
                after.zotero.get_mut().collections.clear();
            }
            Placement::TopLevel { collections, .. } => {
                after.parent_ref = None;
                after.parent_id = None;
                after.zotero.get_mut().collections = collections;
            }
        }
        let (mut prepared, after) = Prepared::update(op, before, after);
        prepared.result = json!({"attachment": self.attachment_detail(&after),
            "outcome": if prepared.changed { "moved" } else { "unchanged" }});
        Ok(prepared)
    }
}

impl HostWorld {
    /// The attachment `request.attachmentRef` names, for a write that needs an
    /// ordinary one. An attachment a note owns (an embedded image, a payload's
    /// carrier) is admitted and then fails the write, as the reference fails it
    /// when it reads the target: `Err` holds that failed write.
    pub(super) fn ordinary_attachment(
        &self,
        op: &str,
        request: &Value,
    ) -> Result<Result<&Record, Prepared>, HostError> {
        let reference = ref_at(request, "attachmentRef")?;
        let record = self.of_kind(op, &reference, DetailKind::Attachment)?;
        if self.attachment_detail(record)["role"] == "ordinary" {
            return Ok(Ok(record));
        }
        let error = HostError::capability(
            "invalid_ref",
            format!("{op} requires an ordinary attachment"),
            json!({"kind": "attachment", "reason": "wrong_kind"}),
        );
        Ok(Err(Prepared::failed(op, "read", error)))
    }
}

/// A `stored_file` source: the main file (and its companions) copied into
/// `attachments/<key>/`; the files to copy.
fn store_file(
    op: &str,
    source: &Value,
    key: &str,
    record: &mut Record,
) -> Result<Vec<StoredFile>, HostError> {
    let path = text_at(source, "/main/source/path")
        .filter(|p| !p.is_empty())
        .ok_or_else(|| match text_at(source, "/main/source/kind") {
            Some("resource") => HostError::workflow(
                "unavailable",
                "Workflow Host owner is unavailable",
                json!({"reason": "runtime", "kind": "resource"}),
            ),
            _ => invalid(op, "missing_field", "source.main.source.path"),
        })?;
    let filename = text_at(source, "/main/targetFilename")
        .map(str::to_owned)
        .unwrap_or_else(|| base_name(path).to_owned());
    let target = format!("attachments/{key}/{filename}");
    let mut files = vec![StoredFile {
        source: path.to_owned(),
        target: target.clone(),
    }];
    let companions = source.get("companions").and_then(Value::as_array);
    for companion in companions.into_iter().flatten() {
        if let (Some(from), Some(rel)) = (
            text_at(companion, "/source/path"),
            text_at(companion, "/targetRelativePath"),
        ) {
            files.push(StoredFile {
                source: from.to_owned(),
                target: format!("attachments/{key}/{rel}"),
            });
        }
    }
    record.zotero.get_mut().link_mode = Some("stored_file".into());
    record.title.get_or_insert_with(|| filename.clone());
    record.filename = Some(filename);
    record.path = Some(target);
    record.stored = true;
    Ok(files)
}

/// A `linked_file` source: the attachment points at the file where it is.
fn link_file(op: &str, source: &Value, record: &mut Record) -> Result<(), HostError> {
    let path = text_at(source, "/path")
        .filter(|p| !p.is_empty())
        .ok_or_else(|| invalid(op, "missing_field", "source.path"))?;
    let filename = base_name(path).to_owned();
    record.zotero.get_mut().link_mode = Some("linked_file".into());
    record.title.get_or_insert_with(|| filename.clone());
    record.filename = Some(filename);
    record.path = Some(path.to_owned());
    Ok(())
}

/// A `linked_url` or `stored_url` source: the attachment keeps its URL.
fn link_url(op: &str, kind: &str, source: &Value, record: &mut Record) -> Result<(), HostError> {
    let url = text_at(source, "/url")
        .filter(|u| !u.is_empty())
        .ok_or_else(|| invalid(op, "missing_field", "source.url"))?;
    let zotero = record.zotero.get_mut();
    zotero.link_mode = Some(kind.into());
    zotero.fields.insert("url".into(), url.into());
    record.title.get_or_insert_with(|| url.to_owned());
    Ok(())
}
