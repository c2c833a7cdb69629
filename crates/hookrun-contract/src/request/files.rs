//! What the declarative compiler asks the host about attachment files.

use crate::selection::PortableItemRef;

/// An attachment whose local file an upload selector matched.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttachmentRef<'a> {
    /// Canonical selections: the attachment's portable ref. The host answers from
    /// `library.getItemDetail(ref)`: `file.path` when `file.state` is `available`.
    Ref(&'a PortableItemRef),
    /// Grouped selections: the entry's `filePath` (else `item.data.path`), as written. The
    /// host answers with the local path it designates (often the same text).
    FilePath(&'a str),
}

/// The host's answer to "where is this attachment's file?".
///
/// Closures `Fn(&AttachmentRef<'_>, bool) -> Option<String>` implement it.
pub trait AttachmentFiles {
    /// The local path of `attachment`'s file when it is available, else `None` (reported
    /// as `Source attachment file is unavailable`). In `handoff` mode the host answers
    /// from the bridge's selection bundle instead of its library.
    fn local_path(&self, attachment: &AttachmentRef<'_>, handoff: bool) -> Option<String>;
}

impl<F> AttachmentFiles for F
where
    F: Fn(&AttachmentRef<'_>, bool) -> Option<String>,
{
    fn local_path(&self, attachment: &AttachmentRef<'_>, handoff: bool) -> Option<String> {
        self(attachment, handoff)
    }
}
