//! The parts of a unit's selection a request is built from, in either shape: its
//! attachments, its sources and its target parent.

use serde_json::{Value, json};

use crate::request::files::AttachmentRef;
use crate::selection::{
    GroupedEntry, GroupedSelection, ItemFact, ItemKind, PortableItemRef, SelectionContext,
};

/// One attachment of the unit.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Attachment<'a> {
    /// A canonical attachment fact.
    Fact(&'a ItemFact),
    /// A grouped `items.attachments` entry.
    Entry(&'a GroupedEntry),
}

impl<'a> Attachment<'a> {
    /// The file name (grouped: base name of the file path).
    pub fn name(&self) -> Option<&'a str> {
        match self {
            Self::Fact(fact) => fact.filename.as_deref().filter(|n| !n.is_empty()),
            Self::Entry(entry) => entry.filename(),
        }
    }

    /// The content type as recorded.
    pub fn content_type(&self) -> Option<&'a str> {
        match self {
            Self::Fact(fact) => fact.content_type.as_deref(),
            Self::Entry(entry) => entry.content_type(),
        }
    }

    /// What the host is asked about; `None` for a grouped entry without a file path.
    pub fn file(&self) -> Option<AttachmentRef<'a>> {
        match self {
            Self::Fact(fact) => Some(AttachmentRef::Ref(&fact.reference)),
            Self::Entry(entry) => entry_path(entry).map(AttachmentRef::FilePath),
        }
    }
}

/// A grouped entry's trimmed, non-empty file path.
fn entry_path(entry: &GroupedEntry) -> Option<&str> {
    entry.path().map(str::trim).filter(|p| !p.is_empty())
}

/// The target parent of a unit: a ref (canonical) or a numeric item id (grouped).
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Target {
    /// Canonical: the target ref of the selection.
    Ref(PortableItemRef),
    /// Grouped: the numeric id of the target parent item.
    Id(i64),
}

impl Target {
    /// The request field: `targetParentRef` or `targetParentID`.
    pub fn field(&self) -> &'static str {
        match self {
            Self::Ref(_) => "targetParentRef",
            Self::Id(_) => "targetParentID",
        }
    }

    /// The snake-case field of HTTP bodies and step contexts: `target_parent_ref` or
    /// `target_parent_id`.
    pub fn body_field(&self) -> &'static str {
        match self {
            Self::Ref(_) => "target_parent_ref",
            Self::Id(_) => "target_parent_id",
        }
    }

    /// The JSON value.
    pub fn value(&self) -> Value {
        match self {
            Self::Ref(reference) => reference.to_value(),
            Self::Id(id) => json!(id),
        }
    }
}

/// A unit's selection seen by the request builders.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Unit<'a>(pub &'a SelectionContext);

impl<'a> Unit<'a> {
    /// Whether the selection has the grouped shape.
    pub fn is_grouped(&self) -> bool {
        matches!(self.0, SelectionContext::Grouped(_))
    }

    /// The unit's attachments: canonical attachment facts, or grouped
    /// `items.attachments`, in selection order.
    pub fn attachments(&self) -> Vec<Attachment<'a>> {
        match self.0 {
            SelectionContext::Canonical(c) => c
                .items
                .iter()
                .filter(|fact| fact.kind == ItemKind::Attachment)
                .map(Attachment::Fact)
                .collect(),
            SelectionContext::Grouped(g) => g.attachments.iter().map(Attachment::Entry).collect(),
        }
    }

    /// The attachment names and stems describe: the first one (grouped: the first one
    /// with a file path, else the first one).
    pub fn primary(&self) -> Option<Attachment<'a>> {
        let attachments = self.attachments();
        let with_path = attachments.iter().find(|a| match a {
            Attachment::Fact(_) => true,
            Attachment::Entry(entry) => entry_path(entry).is_some(),
        });
        with_path.or(attachments.first()).copied()
    }

    /// The request field naming the sources: `sourceAttachmentRefs` or
    /// `sourceAttachmentPaths`.
    pub fn sources_field(&self) -> &'static str {
        if self.is_grouped() {
            "sourceAttachmentPaths"
        } else {
            "sourceAttachmentRefs"
        }
    }

    /// The snake-case body field of HTTP requests: `attachment_refs` or `attachment_paths`.
    pub fn sources_body_field(&self) -> &'static str {
        if self.is_grouped() {
            "attachment_paths"
        } else {
            "attachment_refs"
        }
    }

    /// The sources: the attachment refs, or the de-duplicated attachment file paths.
    pub fn sources(&self) -> Value {
        let mut sources: Vec<Value> = Vec::new();
        for attachment in self.attachments() {
            let source = match attachment {
                Attachment::Fact(fact) => Some(fact.reference.to_value()),
                Attachment::Entry(entry) => entry_path(entry).map(Value::from),
            };
            if let Some(source) = source
                && !sources.contains(&source)
            {
                sources.push(source);
            }
        }
        Value::Array(sources)
    }

    /// The target parent: canonical, the selection's target ref; grouped, the numeric id
    /// of the first attachment's parent, else the first parent, else the first child's
    /// parent or the child itself, else the first note's parent or the note itself.
    pub fn target(&self) -> Option<Target> {
        match self.0 {
            SelectionContext::Canonical(_) => self.0.target_ref().map(Target::Ref),
            SelectionContext::Grouped(g) => grouped_target_id(g).map(Target::Id),
        }
    }
}

fn grouped_target_id(selection: &GroupedSelection) -> Option<i64> {
    [
        ItemKind::Attachment,
        ItemKind::Parent,
        ItemKind::Child,
        ItemKind::Note,
    ]
    .into_iter()
    .find_map(|kind| {
        let first = selection.entries(kind).first()?;
        match kind {
            ItemKind::Attachment => first.target_parent_id(),
            _ => first.target_parent_id().or(first.item.id),
        }
    })
}

/// A file name without its last extension (a leading dot is not an extension).
pub(crate) fn stem(name: &str) -> &str {
    match name.rfind('.') {
        Some(dot) if dot > 0 => &name[..dot],
        _ => name,
    }
}
