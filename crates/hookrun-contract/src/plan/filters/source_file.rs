//! Source path resolution and `source-file-exists`.

use crate::plan::candidate::Candidate;
use crate::plan::world::World;
use crate::selection::FileState;

/// The local path of an attachment candidate: the host's `getItemDetail` path when
/// its file is `available`, else (grouped) `filePath` / `item.data.path`. World
/// errors count as unresolved.
pub(super) fn source_path(candidate: &Candidate, world: &dyn World) -> Option<String> {
    let from_world = candidate
        .locator()
        .and_then(|l| world.attachment_detail(&l).ok())
        .filter(|d| d.file_state == FileState::Available)
        .and_then(|d| d.path);
    from_world.or_else(|| candidate.path().map(str::to_owned))
}

/// Whether the candidate's source file resolves and exists.
pub(super) fn exists(candidate: &Candidate, world: &dyn World) -> bool {
    source_path(candidate, world).is_some_and(|p| world.file_exists(&p))
}
