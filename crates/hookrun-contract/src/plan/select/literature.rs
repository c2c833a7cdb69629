//! `literature-source`: one representative source attachment per paper.

use std::cmp::Ordering;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use crate::plan::candidate::Candidate;
use crate::plan::mime::{is_markdown, is_pdf};
use crate::plan::source::Source;
use crate::plan::world::World;

/// "Earliest" order: ascending date added (unknown dates last), ties by file name
/// compared case-insensitively, then exactly.
fn earliest_first(a: &Candidate, b: &Candidate) -> Ordering {
    let by_date = match (a.created_at(), b.created_at()) {
        (Some(x), Some(y)) => x.cmp(y),
        (Some(_), None) => Ordering::Less,
        (None, Some(_)) => Ordering::Greater,
        (None, None) => Ordering::Equal,
    };
    let (x, y) = (
        a.filename().unwrap_or_default(),
        b.filename().unwrap_or_default(),
    );
    by_date
        .then_with(|| x.to_lowercase().cmp(&y.to_lowercase()))
        .then_with(|| x.cmp(y))
}

/// Lower-cased file stem.
fn stem(c: &Candidate) -> String {
    let name = c.filename().unwrap_or_default();
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    stem.to_lowercase()
}

/// The representative of one paper's attachments.
fn representative(group: Vec<Candidate>) -> Option<Candidate> {
    let (mut markdown, rest): (Vec<_>, Vec<_>) = group.into_iter().partition(is_markdown);
    let mut pdfs: Vec<Candidate> = rest.into_iter().filter(is_pdf).collect();
    markdown.sort_by(earliest_first);
    pdfs.sort_by(earliest_first);
    if markdown.is_empty() {
        return pdfs.into_iter().next();
    }
    let chosen = pdfs
        .first()
        .map(stem)
        .and_then(|pdf_stem| markdown.iter().position(|m| stem(m) == pdf_stem))
        .unwrap_or(0);
    Some(markdown.swap_remove(chosen))
}

/// Groups: each selected parent's attachments, then selected attachments of
/// unselected parents grouped by parent in first-seen order; parentless attachments
/// are dropped.
pub(crate) fn select(source: &dyn Source, world: &dyn World) -> Vec<Candidate> {
    let mut groups: Vec<Vec<Candidate>> = Vec::new();
    let mut selected_parents = HashSet::new();
    for (parent, attachments) in source.parents_with_attachments(world) {
        selected_parents.extend(parent.parent_identity);
        groups.push(attachments);
    }
    let mut by_parent: HashMap<Arc<str>, usize> = HashMap::new();
    for attachment in source.selected(crate::selection::ItemKind::Attachment, world) {
        let Some(parent) = attachment.parent_identity.clone() else {
            continue;
        };
        if selected_parents.contains(&parent) {
            continue;
        }
        match by_parent.get(&parent).and_then(|i| groups.get_mut(*i)) {
            Some(group) => group.push(attachment),
            None => {
                by_parent.insert(parent, groups.len());
                groups.push(vec![attachment]);
            }
        }
    }
    super::dedupe(groups.into_iter().filter_map(representative).collect())
}
