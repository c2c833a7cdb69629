//! Stored text as Zotero hands it out: notes without their storage wrapper, dates
//! in ISO 8601, multipart dates as written.

/// The note HTML Zotero shows for the stored `note`: without the
/// `<div class="zotero-note znv1">…</div>` wrapper Zotero stores it in. A stored
/// note without the wrapper is plain text from an old version: it is escaped and
/// made into paragraphs, one per line, as Zotero does on reading it.
pub(crate) fn unwrap_note(stored: &str) -> String {
    if stored.is_empty() {
        return String::new();
    }
    match wrapper_len(stored) {
        Some(len) => {
            let inner = &stored[len..];
            inner.strip_suffix("</div>").unwrap_or(inner).to_owned()
        }
        None => plain_text_note(stored),
    }
}

/// The length of the `<div class="zotero-note znv<N>">` wrapper `stored` starts
/// with, if it does.
fn wrapper_len(stored: &str) -> Option<usize> {
    const OPEN: &str = "<div class=\"zotero-note znv";
    let rest = stored.strip_prefix(OPEN)?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let after = rest.get(digits..)?;
    (digits > 0 && after.starts_with("\">")).then_some(OPEN.len() + digits + 2)
}

/// An old plain-text note as HTML paragraphs.
fn plain_text_note(text: &str) -> String {
    let escaped = text
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\t', "&nbsp;&nbsp;&nbsp;&nbsp;")
        .replace("  ", "&nbsp;&nbsp;");
    escaped
        .split('\n')
        .map(|line| {
            if line.trim().is_empty() {
                "<p>&nbsp;</p>".to_owned()
            } else {
                format!("<p>{line}</p>")
            }
        })
        .collect()
}

/// Whether `bytes` at `at..at + n` are ASCII digits.
fn digits(bytes: &[u8], at: usize, n: usize) -> bool {
    bytes
        .get(at..at + n)
        .is_some_and(|b| b.iter().all(u8::is_ascii_digit))
}

/// Whether `s` starts with `YYYY-MM-DD`.
fn starts_with_sql_date(s: &str) -> bool {
    let b = s.as_bytes();
    digits(b, 0, 4)
        && b.get(4) == Some(&b'-')
        && digits(b, 5, 2)
        && b.get(7) == Some(&b'-')
        && digits(b, 8, 2)
}

/// `2024-01-02T03:04:05Z` for Zotero's UTC timestamp `2024-01-02 03:04:05`; other
/// text unchanged.
pub(crate) fn iso_from_sql(timestamp: &str) -> String {
    let b = timestamp.as_bytes();
    let is_sql = b.len() == 19
        && starts_with_sql_date(timestamp)
        && b[10] == b' '
        && digits(b, 11, 2)
        && b[13] == b':'
        && digits(b, 14, 2)
        && b[16] == b':'
        && digits(b, 17, 2);
    if is_sql {
        format!("{}T{}Z", &timestamp[..10], &timestamp[11..])
    } else {
        timestamp.to_owned()
    }
}

/// The date as the user wrote it, from Zotero's multipart form
/// `2020-05-01 May 1, 2020` (an SQL date, a space, the text); other text unchanged.
pub(crate) fn multipart_to_str(value: &str) -> &str {
    if starts_with_sql_date(value) && value.as_bytes().get(10) == Some(&b' ') {
        &value[11..]
    } else {
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notes_lose_their_storage_wrapper_only() {
        assert_eq!(
            unwrap_note("<div class=\"zotero-note znv1\"><h1>Cats</h1><p>x</p></div>"),
            "<h1>Cats</h1><p>x</p>"
        );
        assert_eq!(
            unwrap_note("<div class=\"zotero-note znv12\"><p>a</p></div>"),
            "<p>a</p>"
        );
        // Newer notes keep the editor's own wrapper inside.
        assert_eq!(
            unwrap_note(
                "<div class=\"zotero-note znv1\"><div data-schema-version=\"9\"><p>a</p></div></div>"
            ),
            "<div data-schema-version=\"9\"><p>a</p></div>"
        );
        assert_eq!(
            unwrap_note("<div data-schema-version=\"9\"><p>a</p></div>"),
            "<p>&lt;div data-schema-version=&quot;9&quot;&gt;&lt;p&gt;a&lt;/p&gt;&lt;/div&gt;</p>"
        );
        assert_eq!(unwrap_note(""), "");
        assert_eq!(
            unwrap_note("<div class=\"zotero-note znv\">x"),
            "<p>&lt;div class=&quot;zotero-note znv&quot;&gt;x</p>"
        );
    }

    #[test]
    fn plain_text_notes_become_paragraphs() {
        assert_eq!(
            unwrap_note("a < b\n\nc\td"),
            "<p>a &lt; b</p><p>&nbsp;</p><p>c&nbsp;&nbsp;&nbsp;&nbsp;d</p>"
        );
    }

    #[test]
    fn timestamps_and_multipart_dates_convert() {
        assert_eq!(iso_from_sql("2024-01-02 03:04:05"), "2024-01-02T03:04:05Z");
        assert_eq!(iso_from_sql("2024-01-02"), "2024-01-02");
        assert_eq!(iso_from_sql("yesterday at noon!!"), "yesterday at noon!!");
        assert_eq!(multipart_to_str("2020-05-01 May 1, 2020"), "May 1, 2020");
        assert_eq!(multipart_to_str("2020-00-00 2020"), "2020");
        assert_eq!(multipart_to_str("May 2020"), "May 2020");
        assert_eq!(multipart_to_str("2020-05-01"), "2020-05-01");
        assert_eq!(multipart_to_str("é"), "é");
    }
}
