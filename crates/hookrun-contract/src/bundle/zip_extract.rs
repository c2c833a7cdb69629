//! Extraction of validated zip entries into a fresh temporary directory.

use std::fs::{self, File};
use std::io::{self, BufWriter, Read, Seek, Write};
use std::path::Path;
use std::time::{SystemTime, UNIX_EPOCH};

use tempfile::TempDir;
use zip::ZipArchive;

use crate::bundle::error::BundleError;
use crate::bundle::zip_index::IndexedEntry;

/// Milliseconds since the Unix epoch, for temporary names.
pub(crate) fn millis_now() -> u128 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or_default()
}

/// Extracts `entries` (already validated by
/// [`index_archive`](crate::bundle::zip_index::index_archive)) into a new directory
/// `<temp_root>/zotero-skills-bundle-<ms>-<8 random chars>`.
///
/// Each entry's decompressed data is counted as it is written: more bytes than the
/// central directory declared is an error, so a lying header cannot inflate past the
/// limits (the `zip` crate refuses such data too; the count keeps the guarantee whatever
/// the crate does). On any error the directory is removed before returning.
pub(crate) fn extract<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    entries: &[IndexedEntry],
    temp_root: &Path,
) -> Result<TempDir, BundleError> {
    let dir = tempfile::Builder::new()
        .prefix(&format!("zotero-skills-bundle-{}-", millis_now()))
        .rand_bytes(8)
        .tempdir_in(temp_root)
        .map_err(|e| BundleError::extract(format!("cannot create a temporary directory: {e}")))?;
    for entry in entries {
        extract_entry(archive, entry, dir.path())?;
    }
    Ok(dir)
}

/// Writes one entry below `root`.
fn extract_entry<R: Read + Seek>(
    archive: &mut ZipArchive<R>,
    entry: &IndexedEntry,
    root: &Path,
) -> Result<(), BundleError> {
    let target = entry.path.under(root);
    let failed = |e: io::Error| BundleError::extract(format!("{}: {e}", entry.path));
    if entry.is_dir {
        return fs::create_dir_all(&target).map_err(failed);
    }
    if let Some(parent) = target.parent() {
        fs::create_dir_all(parent).map_err(failed)?;
    }
    let mut source = archive
        .by_index(entry.index)
        .map_err(|e| failed(e.into()))?;
    let mut sink = BufWriter::new(File::create_new(&target).map_err(failed)?);
    let written = io::copy(
        &mut (&mut source).take(entry.size.saturating_add(1)),
        &mut sink,
    )
    .map_err(failed)?;
    if written > entry.size {
        return Err(BundleError::EntrySizeTooLarge {
            name: entry.path.to_string(),
            detail: format!(
                "decompressed data exceeds the declared size of {} bytes",
                entry.size
            ),
        });
    }
    sink.flush().map_err(failed)
}
