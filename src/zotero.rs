//! Runs against a Zotero data directory (feature `zotero`): the selection made
//! as Zotero's item tree makes it, and a world that reads the library lazily,
//! read-only, from `zotero.sqlite` (see [`hookrun_zotero`] for how the database
//! is opened without locks and which Zotero versions are supported).
//!
//! ```no_run
//! use hookrun::manifest::discover;
//! use hookrun::run::{RunOptions, run};
//! use hookrun::zotero::{OpenOptions, ZoteroWorld};
//!
//! let specs = ["collection:To read".parse()?, "tag:cats".parse()?];
//! let zotero = ZoteroWorld::open("/home/me/Zotero".as_ref(), &OpenOptions::new(), &specs)?;
//! let found = discover("workflows/summary".as_ref());
//! let report = run(&found.workflows[0], zotero.run_input()?, &mut hookrun::run::NoResults, &RunOptions::default());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde_json::Value;

pub use hookrun_zotero::{Error, Library, LibraryChoice, OpenOptions, SelectSpec};

use crate::host::world::{LibrarySource, iso_from_millis};
use crate::run::{RunInput, Shape, SharedSource, WorldSpec, WorldSpecError};
use crate::selection::SelectionContext;

/// A Zotero library as a world's [`LibrarySource`]: one read-only connection,
/// used by one thread at a time.
#[derive(Debug)]
pub struct ZoteroSource {
    library: Mutex<Library>,
    library_id: u64,
    /// `<DATA_DIR>/storage`.
    storage: PathBuf,
    /// The keys of the items it gave.
    served: Mutex<BTreeSet<String>>,
}

impl ZoteroSource {
    /// `library` as a source.
    pub fn new(library: Library) -> ZoteroSource {
        ZoteroSource {
            library_id: library.library_id(),
            storage: library.storage_dir(),
            library: Mutex::new(library),
            served: Mutex::default(),
        }
    }

    /// The keys of the items worlds read from this source, in key order: what a
    /// capture of the run writes into its case.
    pub fn served_keys(&self) -> Vec<String> {
        self.served
            .lock()
            .map(|served| served.iter().cloned().collect())
            .unwrap_or_default()
    }

    /// The library's storage directory, where its stored files are.
    pub fn storage_dir(&self) -> PathBuf {
        self.storage.clone()
    }

    /// Runs `read` on the library.
    fn read<T>(&self, read: impl FnOnce(&Library) -> Result<T, Error>) -> Result<T, String> {
        let library = self
            .library
            .lock()
            .map_err(|_| "the library's connection was lost".to_string())?;
        read(&library).map_err(|e| e.to_string())
    }
}

impl LibrarySource for ZoteroSource {
    fn library_id(&self) -> u64 {
        self.library_id
    }

    fn keys(&self) -> Result<Vec<String>, String> {
        self.read(Library::item_keys)
    }

    fn item(&self, key: &str) -> Result<Option<Value>, String> {
        let item = self.read(|library| match library.item_json(key) {
            Ok(item) => Ok(Some(item)),
            Err(Error::ItemNotFound { .. }) => Ok(None),
            Err(e) => Err(e),
        })?;
        if item.is_some()
            && let Ok(mut served) = self.served.lock()
        {
            served.insert(key.to_string());
        }
        Ok(item)
    }

    fn children(&self, key: &str) -> Result<Vec<String>, String> {
        self.read(|library| library.children(key))
    }

    fn collections(&self) -> Result<Vec<Value>, String> {
        let id = self.library_id;
        self.read(|library| {
            let collections = library.collections()?;
            Ok(collections.iter().map(|c| c.to_json(id)).collect())
        })
    }
}

/// What a run over a Zotero library starts from: the selection its specs make,
/// the library's storage directory and the library itself, read lazily.
#[derive(Debug, Clone)]
pub struct ZoteroWorld {
    /// The canonical selection of the specs.
    pub selection: SelectionContext,
    /// The library the world reads on demand.
    pub source: Arc<ZoteroSource>,
    /// Bytes a running Zotero wrote to `zotero.sqlite-wal` and has not yet
    /// moved into the database: a read-only read does not see them.
    pub unread_wal_bytes: Option<u64>,
}

impl ZoteroWorld {
    /// Opens `data_dir` read-only as `options` say (which library, the base
    /// directory of linked files) and selects what `specs` name.
    /// The selection's `sampledAt` is the database's last modification, so the
    /// same database gives the same selection.
    pub fn open(
        data_dir: &Path,
        options: &OpenOptions,
        specs: &[SelectSpec],
    ) -> Result<ZoteroWorld, Error> {
        let library = options.open(data_dir)?;
        let selected = library.select(specs)?;
        let sampled_at = modified_at(library.database_path());
        let selection = library.selection_context(&selected, &sampled_at)?;
        Ok(ZoteroWorld {
            selection,
            unread_wal_bytes: library.unread_wal_bytes(),
            source: Arc::new(ZoteroSource::new(library)),
        })
    }

    /// The world a run reads (converted to `convert` when asked).
    pub fn world_spec(&self, convert: Option<Shape>) -> WorldSpec {
        WorldSpec {
            files: self.files_dir(),
            library: None,
            convert,
            source: Some(SharedSource(self.source.clone())),
        }
    }

    /// The directory attachment paths resolve against: the library's storage
    /// directory, when it has one.
    pub fn files_dir(&self) -> Option<PathBuf> {
        Some(self.source.storage_dir()).filter(|dir| dir.is_dir())
    }

    /// A run's input: the selection, the lazy world, default settings.
    pub fn run_input(&self) -> Result<RunInput, WorldSpecError> {
        let (world, selection) = self.world_spec(None).build(self.selection.clone())?;
        Ok(RunInput {
            selection,
            settings: Default::default(),
            world,
            answers: Default::default(),
        })
    }
}

/// When the file at `path` was last changed, as `sampledAt` shows it.
fn modified_at(path: &Path) -> String {
    let millis = std::fs::metadata(path)
        .and_then(|m| m.modified())
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map_or(0, |d| d.as_millis());
    iso_from_millis(millis)
}
