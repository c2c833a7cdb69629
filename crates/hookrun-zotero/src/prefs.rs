//! Zotero's preferences that the data directory does not hold: they live in the
//! profile's `prefs.js` (`user_pref("name", value);` lines).

use std::path::PathBuf;

/// The preference naming the "Linked Attachment Base Directory".
pub const BASE_ATTACHMENT_PATH: &str = "extensions.zotero.baseAttachmentPath";

/// The base directory of linked files that the text of a profile's `prefs.js`
/// sets, if it sets one (to a non-empty string).
pub fn base_attachment_path(prefs_js: &str) -> Option<PathBuf> {
    prefs_js.lines().rev().find_map(|line| {
        let args = line.trim().strip_prefix("user_pref(")?;
        let (name, rest) = string_literal(args.trim_start())?;
        if name != BASE_ATTACHMENT_PATH {
            return None;
        }
        let (value, _) = string_literal(rest.trim_start().strip_prefix(',')?.trim_start())?;
        (!value.is_empty()).then(|| PathBuf::from(value))
    })
}

/// The JavaScript string literal `text` starts with, unescaped, and the text after it.
fn string_literal(text: &str) -> Option<(String, &str)> {
    let quote = text.chars().next().filter(|c| matches!(c, '"' | '\''))?;
    let mut out = String::new();
    let mut chars = text.char_indices().skip(1);
    while let Some((i, c)) = chars.next() {
        match c {
            c if c == quote => return Some((out, &text[i + 1..])),
            '\\' => {
                let (_, escaped) = chars.next()?;
                match escaped {
                    'n' => out.push('\n'),
                    'r' => out.push('\r'),
                    't' => out.push('\t'),
                    'u' => {
                        let hex: String = (0..4)
                            .filter_map(|_| chars.next().map(|(_, h)| h))
                            .collect();
                        out.push(char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?);
                    }
                    other => out.push(other),
                }
            }
            c => out.push(c),
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_base_directory_is_read_from_prefs_js() {
        let prefs = r#"// Mozilla User Preferences
user_pref("extensions.zotero.dataDir", "/home/me/Zotero");
user_pref("extensions.zotero.baseAttachmentPath", "/home/me/My \"Papers\"\\x");
user_pref("extensions.zotero.saveRelativeAttachmentPath", true);
"#;
        assert_eq!(
            base_attachment_path(prefs),
            Some(PathBuf::from("/home/me/My \"Papers\"\\x"))
        );
        let windows =
            r#"user_pref("extensions.zotero.baseAttachmentPath", "C:\\Users\\me\\Papers \u00e9");"#;
        assert_eq!(
            base_attachment_path(windows),
            Some(PathBuf::from("C:\\Users\\me\\Papers é"))
        );
    }

    #[test]
    fn absent_empty_or_broken_prefs_give_none() {
        for prefs in [
            "",
            r#"user_pref("extensions.zotero.baseAttachmentPath", "");"#,
            r#"user_pref("extensions.zotero.baseAttachmentPath", "/unterminated);"#,
            r#"user_pref("extensions.zotero.baseAttachmentPath" "/no-comma");"#,
            r#"user_pref("extensions.zotero.other", "/x");"#,
            r#"user_pref("extensions.zotero.baseAttachmentPath", "\u12");"#,
        ] {
            assert_eq!(base_attachment_path(prefs), None, "{prefs}");
        }
    }
}
