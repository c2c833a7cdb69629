//! Shape adapters: what selectors read from a selection, for each shape.
//!
//! Selection policies are written once against [`Source`]; the two implementations
//! differ only where the contract makes the shapes differ (where nested data comes
//! from, how identities and scoped contexts look).

mod canonical;
mod grouped;

use super::candidate::Candidate;
use super::world::{World, WorldNote};
use crate::selection::{ItemKind, SelectionContext};

pub(crate) use canonical::CanonicalSource;
pub(crate) use grouped::GroupedSource;

/// A note the generated-note and digest policies may pick, with what kind detection
/// reads.
pub(crate) struct NoteSeed {
    /// The note as a `note` candidate (scoped to the note alone, parent links set).
    pub candidate: Candidate,
    /// Host facts and HTML of the note.
    pub record: WorldNote,
}

/// The single selected item `digest-representative-image` looks at.
pub(crate) enum DigestSubject {
    /// A selected parent and its notes.
    Parent(Vec<NoteSeed>),
    /// A selected note.
    Note(Box<NoteSeed>),
}

/// Shape-specific reads of one selection.
pub(crate) trait Source {
    /// The whole selection.
    fn context(&self) -> &SelectionContext;
    /// Selected items of `kind`, in selection order.
    fn selected(&self, kind: ItemKind, world: &dyn World) -> Vec<Candidate>;
    /// `input-member`/`related` parents.
    fn related_parents(&self) -> Vec<Candidate>;
    /// `input-member`/`related` attachments (before identity de-duplication).
    fn related_attachments(&self, world: &dyn World) -> Vec<Candidate>;
    /// Each selected parent with all its attachments.
    fn parents_with_attachments(&self, world: &dyn World) -> Vec<(Candidate, Vec<Candidate>)>;
    /// Each selected parent with all its notes.
    fn parents_with_notes(&self, world: &dyn World) -> Vec<(Candidate, Vec<NoteSeed>)>;
    /// Selected notes eligible as generated-note candidates.
    fn selected_note_seeds(&self, world: &dyn World) -> Vec<NoteSeed>;
    /// The single selected fact for `digest-representative-image`, if the shape's
    /// "exactly one" rule holds.
    fn digest_subject(&self, world: &dyn World) -> Option<DigestSubject>;
}

/// The adapter for `context`.
pub(crate) fn source_for(context: &SelectionContext) -> Box<dyn Source + '_> {
    match context {
        SelectionContext::Canonical(c) => Box::new(CanonicalSource::new(context, c)),
        SelectionContext::Grouped(g) => Box::new(GroupedSource::new(context, g)),
    }
}
