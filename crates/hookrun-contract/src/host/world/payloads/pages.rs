//! `library.listNotePayloads`: a note's payload blocks page by page, its inline
//! blocks first, then its attachments, under cursors bound to the note.

use base64::Engine as _;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde_json::{Value, json};

use super::super::dto::digest;
use super::super::paging::PageRequest;
use super::super::record::Record;
use super::super::{DEFAULT_PAGE_LIMIT, HostResult, HostWorld, HostWorldError};
use super::codec::{self, Block, MAX_PAYLOAD_BYTES, TooLarge};
use super::{html, text};
use crate::selection::PortableItemRef;

/// Largest page of `listNotePayloads` (the reference host's limit).
const MAX_PAYLOAD_PAGE: f64 = 100.0;

/// One page of a note's payload blocks.
struct Page {
    blocks: Vec<Block>,
    scanned: usize,
    has_more: bool,
    next_cursor: Option<String>,
}

/// Why a payload page cannot be read.
enum PageError {
    /// An input past the codec's limit.
    TooLarge,
    /// The cursor, with the reference's message.
    Cursor(&'static str),
}

impl From<TooLarge> for PageError {
    fn from(_: TooLarge) -> PageError {
        PageError::TooLarge
    }
}

/// Where a payload page starts: the stage (`html` or `attachments`) and the
/// indexes reached in the note's inline blocks and its attachments.
#[derive(Clone, Copy)]
struct Position {
    in_html: bool,
    html: usize,
    attachments: usize,
}

impl HostWorld {
    /// What a payload cursor of `note` is bound to: the note, its HTML and its
    /// attachments.
    fn payload_basis(&self, note: &Record) -> String {
        let attachments: Vec<Value> = self
            .note_attachments(note)
            .iter()
            .map(|a| json!([a.reference.as_ref().map(|r| r.key.clone()), a.revision()]))
            .collect();
        digest(
            &json!({"ref": note.reference.as_ref().map(PortableItemRef::to_value),
            "revision": note.revision(), "html": note.html, "attachments": attachments}),
        )
    }

    /// One page of `note`'s payload blocks of at most `limit`: inline blocks
    /// first, then its attachments (each looked at counts as scanned, whether it
    /// holds a payload or not).
    fn payload_page(
        &self,
        note: &Record,
        limit: usize,
        cursor: Option<&str>,
    ) -> Result<Page, PageError> {
        let html = note.html.as_deref().unwrap_or_default();
        let inline = codec::inline_blocks(html)?;
        let attachments = self.note_attachments(note);
        let basis = self.payload_basis(note);
        let mut at = match cursor.filter(|c| !c.is_empty()) {
            None => Position {
                in_html: true,
                html: 0,
                attachments: 0,
            },
            Some(cursor) => decode_cursor(cursor, &basis)?,
        };
        let misplaced = if at.in_html {
            at.html >= inline.len()
        } else {
            at.html != inline.len() || at.attachments > attachments.len()
        };
        if cursor.is_some_and(|c| !c.is_empty()) && misplaced {
            return Err(PageError::Cursor("payload cursor position is invalid"));
        }
        let mut page = Page {
            blocks: Vec::new(),
            scanned: 0,
            has_more: true,
            next_cursor: None,
        };
        if at.in_html {
            let end = inline.len().min(at.html + limit);
            page.blocks.extend(inline[at.html..end].iter().cloned());
            page.scanned += end - at.html;
            at.html = end;
            if end < inline.len() {
                page.next_cursor = Some(encode_cursor(&basis, at));
                return Ok(page);
            }
            at.in_html = false;
        }
        let remaining = limit - page.blocks.len();
        let end = attachments.len().min(at.attachments + remaining);
        if remaining > 0 {
            let anchors = html::anchors(html);
            for attachment in &attachments[at.attachments..end] {
                page.scanned += 1;
                page.blocks
                    .extend(Self::carrier_block(attachment, &anchors)?);
            }
            page.has_more = end < attachments.len();
            at.attachments = end;
        }
        page.next_cursor = page.has_more.then(|| encode_cursor(&basis, at));
        Ok(page)
    }

    /// `library.listNotePayloads(ref, page)`: one page of the note's payload
    /// summaries, with `scanned` and `total: null`.
    pub fn list_note_payloads(
        &self,
        note: &PortableItemRef,
        page: &PageRequest,
    ) -> HostResult<Value> {
        let record = self.payload_note(note)?;
        let limit = payload_page_limit(page.limit.as_ref())?;
        let found = self
            .payload_page(record, limit, page.cursor.as_deref())
            .map_err(|error| match error {
                PageError::TooLarge => HostWorldError::ResourceLimited {
                    resource: "bytes".into(),
                    limit: MAX_PAYLOAD_BYTES,
                    observed: Value::Null,
                },
                PageError::Cursor(message) => HostWorldError::InvalidField {
                    message: message.into(),
                    reason: "invalid_value",
                    field: "cursor",
                },
            })?;
        let payloads: Vec<Value> = found
            .blocks
            .iter()
            .map(|b| self.payload_summary(b, record, None))
            .collect();
        let returned = payloads.len();
        Ok(
            json!({"payloads": payloads, "limit": limit, "scanned": found.scanned,
            "total": null, "returned": returned, "hasMore": found.has_more,
            "nextCursor": found.next_cursor}),
        )
    }
}

/// A payload page size as the reference host reads it (`Number(limit)`, default
/// 25): a whole number from 1 to 100, else `resource_limited` on `items`.
fn payload_page_limit(limit: Option<&Value>) -> HostResult<usize> {
    let Some(limit) = limit else {
        return Ok(DEFAULT_PAGE_LIMIT);
    };
    let n = text::js_number(limit);
    if n.fract() == 0.0 && (1.0..=MAX_PAYLOAD_PAGE).contains(&n) {
        return Ok(n as usize);
    }
    let observed = match n {
        n if !n.is_finite() => Value::Null,
        n if n.fract() == 0.0 && n.abs() < 9e15 => Value::from(n as i64),
        n => json!(n),
    };
    Err(HostWorldError::ResourceLimited {
        resource: "items".into(),
        limit: MAX_PAYLOAD_PAGE as u64,
        observed,
    })
}

/// A payload cursor: base64url of `{version, basis, stage, htmlIndex,
/// attachmentIndex}`.
fn encode_cursor(basis: &str, at: Position) -> String {
    let cursor = json!({"version": 1, "basis": basis,
        "stage": if at.in_html { "html" } else { "attachments" },
        "htmlIndex": at.html, "attachmentIndex": at.attachments});
    URL_SAFE_NO_PAD.encode(cursor.to_string())
}

/// The position a payload cursor names, checked against the note's `basis`.
fn decode_cursor(cursor: &str, basis: &str) -> Result<Position, PageError> {
    let well_formed = cursor
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !well_formed {
        return Err(PageError::Cursor("payload cursor is malformed"));
    }
    let decoded: Value = URL_SAFE_NO_PAD
        .decode(cursor)
        .ok()
        .and_then(|bytes| serde_json::from_slice(&bytes).ok())
        .ok_or(PageError::Cursor("payload cursor is invalid"))?;
    let index = |key: &str| decoded.get(key).and_then(Value::as_u64);
    let keys = ["version", "basis", "stage", "htmlIndex", "attachmentIndex"];
    let stage = decoded.get("stage").and_then(Value::as_str);
    match (index("htmlIndex"), index("attachmentIndex")) {
        (Some(html), Some(attachments))
            if decoded.as_object().is_some_and(|o| o.len() == keys.len())
                && decoded["version"] == 1
                && decoded["basis"] == basis
                && matches!(stage, Some("html" | "attachments")) =>
        {
            Ok(Position {
                in_html: stage == Some("html"),
                html: html as usize,
                attachments: attachments as usize,
            })
        }
        _ => Err(PageError::Cursor("payload cursor does not match source")),
    }
}
