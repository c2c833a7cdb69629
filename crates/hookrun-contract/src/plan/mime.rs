//! MIME compatibility (contract §5) and the Markdown/PDF tests of `literature-source`.

use super::candidate::Candidate;

/// Markdown content types.
const MARKDOWN_TYPES: &[&str] = &["text/markdown", "text/x-markdown"];
/// Types a `.md` file name satisfies in `accepts.mime`.
const MD_COMPATIBLE: &[&str] = &["text/markdown", "text/x-markdown", "text/plain"];
/// The PDF content type.
const PDF: &str = "application/pdf";

/// Whether `name` ends in `ext` (ASCII case-insensitive, `ext` with the dot).
fn has_extension(name: Option<&str>, ext: &str) -> bool {
    name.is_some_and(|n| {
        n.len() >= ext.len()
            && n.is_char_boundary(n.len() - ext.len())
            && n[n.len() - ext.len()..].eq_ignore_ascii_case(ext)
    })
}

/// The file name MIME checks look at: the grouped path, else the file name.
fn mime_name(c: &Candidate) -> Option<&str> {
    c.path().or(c.filename())
}

/// Whether `candidate` passes `accepts.mime` = `accepted`.
pub(crate) fn accepts(accepted: &[String], candidate: &Candidate) -> bool {
    if candidate.kind != "attachment" {
        return false;
    }
    let listed = |types: &[&str]| accepted.iter().any(|a| types.contains(&a.as_str()));
    let name = mime_name(candidate);
    candidate
        .content_type()
        .is_some_and(|t| accepted.iter().any(|a| a == t))
        || (has_extension(name, ".md") && listed(MD_COMPATIBLE))
        || (has_extension(name, ".pdf") && listed(&[PDF]))
}

/// Markdown: `text/markdown`, `text/x-markdown`, or a `.md` file name.
pub(crate) fn is_markdown(c: &Candidate) -> bool {
    c.content_type()
        .is_some_and(|t| MARKDOWN_TYPES.contains(&t))
        || has_extension(c.filename(), ".md")
}

/// PDF: `application/pdf` or a `.pdf` file name.
pub(crate) fn is_pdf(c: &Candidate) -> bool {
    c.content_type() == Some(PDF) || has_extension(c.filename(), ".pdf")
}
