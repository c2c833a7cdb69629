//! Note kind detection (contract §4.2 "Note kind detection").

use super::error::PlanError;
use super::world::WorldNote;

/// Kinds accepted from the `data-zs-note-kind` attribute.
const ACCEPTED: &[&str] = &[
    "digest",
    "references",
    "citation-analysis",
    "literature-score",
    "conversation-note",
    "custom",
];

/// Managed-note issues that make planning fail.
const FATAL_ISSUES: &[&str] = &["invalid_artifact", "legacy_artifact_requires_migration"];

/// Normalises an attribute value (`citation_analysis` → `citation-analysis`,
/// `literature-digest` / `literature-analysis` → `digest`); `None` when not accepted.
fn normalise(raw: &str) -> Option<&'static str> {
    let value = raw.trim();
    let value = match value {
        "citation_analysis" => "citation-analysis",
        "literature-digest" | "literature-analysis" => "digest",
        other => other,
    };
    ACCEPTED.iter().copied().find(|k| *k == value)
}

/// The value of the `data-zs-note-kind` attribute, if any.
fn attribute(html: &str) -> Option<&str> {
    const NAME: &str = "data-zs-note-kind";
    let start = html.find(NAME)? + NAME.len();
    let rest = html[start..].trim_start().strip_prefix('=')?.trim_start();
    let quote = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
    let body = &rest[1..];
    body.find(quote).map(|end| &body[..end])
}

/// The text of the first `<h1>`–`<h6>` element, tags stripped and trimmed.
fn first_heading(html: &str) -> Option<String> {
    let lower = html.to_ascii_lowercase();
    let open = (1..=6)
        .filter_map(|n| lower.find(&format!("<h{n}")).map(|at| (at, n)))
        .min()?;
    let (at, level) = open;
    let content_start = at + lower[at..].find('>')? + 1;
    let content_end = content_start + lower[content_start..].find(&format!("</h{level}"))?;
    let mut text = String::new();
    let mut in_tag = false;
    for c in html[content_start..content_end].chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => text.push(c),
            _ => {}
        }
    }
    Some(text.trim().to_owned())
}

/// Heading heuristics: `Digest`, `References` / `References JSON`, `Citation Analysis`.
fn from_heading(html: &str) -> Option<&'static str> {
    match first_heading(html)?.to_ascii_lowercase().as_str() {
        "digest" => Some("digest"),
        "references" | "references json" => Some("references"),
        "citation analysis" => Some("citation-analysis"),
        _ => None,
    }
}

/// Which host a note comes from, which decides how an unmanaged note is named.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Generation {
    /// A current host (canonical selections): a note is managed by its payload,
    /// every other note is `ordinary`.
    Current,
    /// An older host (grouped selections): the `data-zs-note-kind` attribute,
    /// else the first heading, else `custom`.
    Older,
}

impl Generation {
    /// The generation of a selection in the grouped shape (`true`) or the
    /// canonical one.
    pub(crate) fn of(grouped: bool) -> Self {
        if grouped { Self::Older } else { Self::Current }
    }
}

/// Detects the kind of `note`: the host's managed `noteKind`; else, on a current
/// host, `ordinary`, and on an older one the HTML attribute, else the first
/// heading, else `custom`. A fatal managed-note issue fails planning (on a
/// current host also a reserved marker without a payload, a legacy artifact).
pub(crate) fn detect(
    note: &WorldNote,
    identity: &str,
    generation: Generation,
) -> Result<String, PlanError> {
    let current = generation == Generation::Current;
    if let Some(issue) = note.issue_on(current).filter(|i| FATAL_ISSUES.contains(i)) {
        return Err(PlanError::InvalidNoteArtifact {
            note: identity.to_owned(),
            issue: issue.to_owned(),
        });
    }
    if let Some(kind) = &note.note_kind {
        return Ok(kind.clone());
    }
    if current {
        return Ok("ordinary".to_owned());
    }
    let html = note.html.as_deref().unwrap_or_default();
    let kind = attribute(html)
        .and_then(normalise)
        .or_else(|| from_heading(html))
        .unwrap_or("custom");
    Ok(kind.to_owned())
}

/// The kind the readiness filter matches artifacts by: on a current host the
/// managed `noteKind` of a note without an issue, else nothing (`""`), so that
/// unmanaged and unreadable notes match no artifact; on an older host as
/// [`detect`] names it.
pub(crate) fn readiness_kind(
    note: &WorldNote,
    identity: &str,
    generation: Generation,
) -> Result<String, PlanError> {
    match generation {
        Generation::Current if note.issue_on(true).is_some() => Ok(String::new()),
        Generation::Current => Ok(note.note_kind.clone().unwrap_or_default()),
        Generation::Older => detect(note, identity, generation),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An unmanaged note of HTML `h`.
    fn html(h: &str) -> WorldNote {
        WorldNote {
            html: Some(h.to_owned()),
            ..WorldNote::default()
        }
    }

    #[test]
    fn managed_kind_wins() {
        let note = WorldNote {
            note_kind: Some("ordinary".into()),
            html: Some("<h1>Digest</h1>".into()),
            ..WorldNote::default()
        };
        assert_eq!(detect(&note, "n", Generation::Older).unwrap(), "ordinary");
    }

    #[test]
    fn attribute_is_normalised() {
        let cases = [
            (
                r#"<div data-zs-note-kind="citation_analysis">x</div>"#,
                "citation-analysis",
            ),
            (
                r#"<div data-zs-note-kind='literature-digest'></div>"#,
                "digest",
            ),
            (
                r#"<div data-zs-note-kind="literature-analysis"></div>"#,
                "digest",
            ),
            (
                r#"<div data-zs-note-kind = "references"></div>"#,
                "references",
            ),
            (
                r#"<div data-zs-note-kind="conversation-note"></div>"#,
                "conversation-note",
            ),
            (
                r#"<div data-zs-note-kind="bogus"><h1>Digest</h1></div>"#,
                "digest",
            ),
        ];
        for (h, want) in cases {
            assert_eq!(
                detect(&html(h), "n", Generation::Older).unwrap(),
                want,
                "{h}"
            );
        }
    }

    #[test]
    fn headings_then_custom() {
        let cases = [
            ("<h1>Digest</h1><p>x</p>", "digest"),
            ("<h2><strong>References JSON</strong></h2>", "references"),
            ("<H1> References </H1>", "references"),
            ("<h3>Citation Analysis</h3>", "citation-analysis"),
            ("<h1>Welcome</h1><h2>Digest</h2>", "custom"),
            ("<p>plain</p>", "custom"),
            ("<h1 unterminated", "custom"),
            ("", "custom"),
        ];
        for (h, want) in cases {
            assert_eq!(
                detect(&html(h), "n", Generation::Older).unwrap(),
                want,
                "{h}"
            );
        }
    }

    #[test]
    fn fatal_issues_fail() {
        for issue in FATAL_ISSUES {
            let note = WorldNote {
                issue: Some((*issue).into()),
                ..WorldNote::default()
            };
            let err = detect(&note, "note:1:N", Generation::Current).unwrap_err();
            assert!(err.to_string().contains(issue));
        }
        let benign = WorldNote {
            issue: Some("other".into()),
            ..WorldNote::default()
        };
        assert_eq!(detect(&benign, "n", Generation::Older).unwrap(), "custom");
    }

    #[test]
    fn a_current_host_names_every_unmanaged_note_ordinary() {
        for h in [
            "<h1>Digest</h1><p>x</p>",
            r#"<div data-zs-note-kind="references"></div>"#,
            "<p>plain</p>",
            "",
        ] {
            assert_eq!(
                detect(&html(h), "n", Generation::Current).unwrap(),
                "ordinary",
                "{h}"
            );
        }
        let managed = WorldNote {
            note_kind: Some("conversation-note".into()),
            ..html("<p>x</p>")
        };
        assert_eq!(
            detect(&managed, "n", Generation::Current).unwrap(),
            "conversation-note"
        );
    }

    #[test]
    fn readiness_matches_only_readable_managed_notes_on_a_current_host() {
        let digest = WorldNote {
            note_kind: Some("digest".into()),
            ..WorldNote::default()
        };
        let broken = WorldNote {
            issue: Some("invalid_artifact".into()),
            ..digest.clone()
        };
        let kind = |note: &WorldNote, generation| readiness_kind(note, "n", generation).unwrap();
        assert_eq!(kind(&digest, Generation::Current), "digest");
        assert_eq!(kind(&broken, Generation::Current), "");
        assert_eq!(kind(&html("<h1>Digest</h1>"), Generation::Current), "");
        assert_eq!(kind(&html("<h1>Digest</h1>"), Generation::Older), "digest");
        assert!(readiness_kind(&broken, "n", Generation::Older).is_err());
    }
}
