//! JSON pointers (RFC 6901): building them from keys and reading them back into
//! keys. Every layer that names a place in a document goes through here, so a key
//! holding `/` or `~` is escaped the same way everywhere.

use std::borrow::Cow;

/// A key as one pointer segment: `~` as `~0`, `/` as `~1`.
pub fn escape(key: &str) -> Cow<'_, str> {
    if key.contains(['~', '/']) {
        Cow::Owned(key.replace('~', "~0").replace('/', "~1"))
    } else {
        Cow::Borrowed(key)
    }
}

/// One pointer segment as the key it names (the inverse of [`escape`]).
pub fn unescape(segment: &str) -> Cow<'_, str> {
    if segment.contains('~') {
        Cow::Owned(segment.replace("~1", "/").replace("~0", "~"))
    } else {
        Cow::Borrowed(segment)
    }
}

/// The pointer of member `key` below `parent` (`""` is the whole document).
pub fn child(parent: &str, key: &str) -> String {
    format!("{parent}/{}", escape(key))
}

/// The pointer of element `index` below `parent`.
pub fn index(parent: &str, index: usize) -> String {
    format!("{parent}/{index}")
}

/// The keys `pointer` names, outermost first; `None` when it is neither empty
/// (the whole document) nor starts with `/`.
pub fn segments(pointer: &str) -> Option<Vec<Cow<'_, str>>> {
    if pointer.is_empty() {
        return Some(Vec::new());
    }
    Some(
        pointer
            .strip_prefix('/')?
            .split('/')
            .map(unescape)
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_with_slashes_and_tildes_round_trip() {
        for key in ["plain", "a/b", "~", "~1", "a~/b/~0", ""] {
            let pointer = child("/outer", key);
            assert_eq!(segments(&pointer).unwrap(), ["outer", key], "{pointer}");
        }
        assert_eq!(child("", "a/b~c"), "/a~1b~0c");
        assert_eq!(index("/list", 3), "/list/3");
    }

    #[test]
    fn escaping_order_keeps_tilde_one_a_key() {
        // "~01" is the key "~1", not "/".
        assert_eq!(unescape("~01"), "~1");
        assert_eq!(escape("~1"), "~01");
    }

    #[test]
    fn the_whole_document_and_malformed_pointers() {
        assert!(segments("").unwrap().is_empty());
        assert_eq!(segments("/").unwrap(), [""]);
        assert!(segments("no-slash").is_none());
    }

    #[test]
    fn plain_keys_are_not_copied() {
        assert!(matches!(escape("plain"), Cow::Borrowed(_)));
        assert!(matches!(unescape("plain"), Cow::Borrowed(_)));
    }
}
