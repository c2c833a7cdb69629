//! The SQLite URI that opens a database file immutable: without locks, journals or
//! a change check.

use std::path::Path;

/// `file:<path>?mode=ro&immutable=1` for the absolute `path`, every byte but
/// unreserved ones and `/` percent-encoded (so `?`, `#`, `%` and spaces in
/// directory names stay part of the path).
pub(crate) fn immutable(path: &Path) -> String {
    let mut uri = String::from("file:");
    for &b in path_bytes(path).as_ref() {
        if b.is_ascii_alphanumeric() || matches!(b, b'/' | b'-' | b'.' | b'_' | b'~') {
            uri.push(char::from(b));
        } else {
            uri.push_str(&format!("%{b:02X}"));
        }
    }
    uri.push_str("?mode=ro&immutable=1");
    uri
}

#[cfg(unix)]
fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    use std::os::unix::ffi::OsStrExt;
    std::borrow::Cow::Borrowed(path.as_os_str().as_bytes())
}

/// Windows paths as SQLite's URIs write them: `/C:/dir/zotero.sqlite`.
#[cfg(not(unix))]
fn path_bytes(path: &Path) -> std::borrow::Cow<'_, [u8]> {
    let text = path.to_string_lossy().replace('\\', "/");
    let text = text.strip_prefix("//?/").unwrap_or(&text).to_owned();
    let text = if text.starts_with('/') {
        text
    } else {
        format!("/{text}")
    };
    std::borrow::Cow::Owned(text.into_bytes())
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn reserved_characters_are_encoded() {
        assert_eq!(
            immutable(Path::new("/home/a b/Zotero?#%/zotero.sqlite")),
            "file:/home/a%20b/Zotero%3F%23%25/zotero.sqlite?mode=ro&immutable=1"
        );
        assert_eq!(
            immutable(Path::new("/d/é")),
            "file:/d/%C3%A9?mode=ro&immutable=1"
        );
    }
}
