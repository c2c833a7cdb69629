//! Building the host world of a run from a selection, a library description
//! and a files directory, with an optional explicit shape conversion.

use std::path::PathBuf;
use std::sync::Arc;

use serde_json::Value;

use crate::host::world::{HostWorld, HostWorldError, LibrarySource};
use crate::selection::{SelectionContext, SelectionError};

/// Why the world of a run could not be built.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum WorldSpecError {
    /// `convert` asked for the canonical shape, which the selection cannot take.
    #[error("the selection cannot be converted to the canonical shape: {0}")]
    Convert(SelectionError),
    /// The library description is not one.
    #[error("invalid library description: {0}")]
    Library(HostWorldError),
    /// `files` names no directory.
    #[error("{} is not a directory", .0.display())]
    NotADirectory(PathBuf),
}

/// A SelectionContext shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Shape {
    /// The canonical flat shape (`items: [{kind, ref, …}]`).
    Canonical,
    /// The grouped shape (`items.parents/children/attachments/notes`).
    Grouped,
}

/// What the host world is made of.
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct WorldSpec {
    /// Directory attachment paths resolve against.
    pub files: Option<PathBuf>,
    /// Library description (see [`HostWorld::with_library`]).
    pub library: Option<Value>,
    /// Convert the selection to this shape first (never done silently).
    pub convert: Option<Shape>,
    /// A library the world reads on demand (see [`HostWorld::with_source`]).
    pub source: Option<SharedSource>,
}

hookrun_sandbox::option_setters!(WorldSpec {
    files: Option<PathBuf>,
    library: Option<Value>,
    convert: Option<Shape>,
    source: Option<SharedSource>,
});

/// A library a world reads on demand, shared by the worlds that read it
/// (equal when it is the same library).
#[derive(Debug, Clone)]
pub struct SharedSource(pub Arc<dyn LibrarySource>);

impl PartialEq for SharedSource {
    fn eq(&self, other: &SharedSource) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl WorldSpec {
    /// Converts `selection` as asked, then builds the world knowing it.
    pub fn build(
        &self,
        selection: SelectionContext,
    ) -> Result<(HostWorld, SelectionContext), WorldSpecError> {
        let selection = match self.convert {
            None => selection,
            Some(Shape::Grouped) => SelectionContext::Grouped(selection.to_grouped()),
            Some(Shape::Canonical) => {
                let world = self.world(&selection)?;
                let exists = |path: &str| world.file_exists(path);
                let canonical = selection
                    .to_canonical(&exists)
                    .map_err(WorldSpecError::Convert)?;
                SelectionContext::Canonical(canonical)
            }
        };
        Ok((self.world(&selection)?, selection))
    }

    fn world(&self, selection: &SelectionContext) -> Result<HostWorld, WorldSpecError> {
        let mut world = HostWorld::from_selection(selection);
        if let Some(source) = &self.source {
            world = world
                .with_source(Arc::clone(&source.0))
                .map_err(WorldSpecError::Library)?;
        }
        if let Some(library) = &self.library {
            world = world
                .with_library(library)
                .map_err(WorldSpecError::Library)?;
        }
        if let Some(dir) = &self.files {
            if !dir.is_dir() {
                return Err(WorldSpecError::NotADirectory(dir.clone()));
            }
            world = world.with_files_dir(dir);
        }
        Ok(world)
    }
}
