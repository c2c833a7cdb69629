//! `artifact-absent`: the target artifact next to the source file must not exist.

use super::FilterEnv;
use super::source_file::source_path;
use crate::manifest::model::ArtifactTarget;
use crate::plan::candidate::Candidate;

/// Characters replaced by `-` in a translator suffix.
const RESERVED: &[char] = &['\\', '/', ':', '*', '?', '"', '<', '>', '|'];

/// Sanitises a translator suffix: trim; runs of reserved characters and whitespace
/// become `-`; repeated `-` collapse; leading/trailing `-` are trimmed.
pub(crate) fn sanitise_suffix(raw: &str) -> String {
    let mut out = String::new();
    for c in raw.trim().chars() {
        let c = if RESERVED.contains(&c) || c.is_whitespace() {
            '-'
        } else {
            c
        };
        if !(c == '-' && out.ends_with('-')) {
            out.push(c);
        }
    }
    out.trim_matches('-').to_owned()
}

/// The target file next to `source`; `None` when it cannot be computed. A source
/// written with backslashes only yields a backslash-separated target.
pub(crate) fn target_path(
    source: &str,
    target: ArtifactTarget,
    suffix: Option<&str>,
) -> Option<String> {
    let split = source.rfind(['/', '\\']);
    let (dir, name) = match split {
        Some(i) => (&source[..=i], &source[i + 1..]),
        None => ("", source),
    };
    let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
    if stem.is_empty() {
        return None;
    }
    let file = match target {
        ArtifactTarget::DeepReadingHtml => format!("{stem}.html"),
        ArtifactTarget::MineruMarkdown => format!("{stem}.md"),
        ArtifactTarget::TranslatorMarkdown => {
            let suffix = sanitise_suffix(suffix?);
            if suffix.is_empty() {
                return None;
            }
            format!("{stem}_{suffix}.md")
        }
    };
    let windows = source.contains('\\') && !source.contains('/');
    let path = format!("{dir}{file}");
    Some(if windows {
        path.replace('/', "\\")
    } else {
        path
    })
}

/// Keeps a candidate whose source resolves and whose target does not exist.
pub(super) fn absent(
    candidate: &Candidate,
    target: ArtifactTarget,
    parameter: Option<&str>,
    env: &FilterEnv<'_>,
) -> bool {
    let suffix = parameter
        .and_then(|p| env.params.get(p))
        .and_then(|v| v.as_str());
    source_path(candidate, env.world)
        .and_then(|source| target_path(&source, target, suffix))
        .is_some_and(|t| !env.world.file_exists(&t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn suffix_sanitising() {
        assert_eq!(sanitise_suffix("  zh CN  "), "zh-CN");
        assert_eq!(sanitise_suffix("a/\\:b"), "a-b");
        assert_eq!(sanitise_suffix("--x  *?y--"), "x-y");
        assert_eq!(sanitise_suffix("<>|"), "");
    }

    #[test]
    fn targets() {
        let t = |s, k, x| target_path(s, k, x);
        assert_eq!(
            t("a/b/p.pdf", ArtifactTarget::MineruMarkdown, None).as_deref(),
            Some("a/b/p.md")
        );
        assert_eq!(
            t("p.v2.pdf", ArtifactTarget::DeepReadingHtml, None).as_deref(),
            Some("p.v2.html")
        );
        assert_eq!(
            t(
                "a/p.pdf",
                ArtifactTarget::TranslatorMarkdown,
                Some(" zh CN ")
            )
            .as_deref(),
            Some("a/p_zh-CN.md")
        );
        assert_eq!(t("a/p.pdf", ArtifactTarget::TranslatorMarkdown, None), None);
        assert_eq!(
            t("a/p.pdf", ArtifactTarget::TranslatorMarkdown, Some("//")),
            None
        );
        assert_eq!(
            t(r"C:\d\p.pdf", ArtifactTarget::MineruMarkdown, None).as_deref(),
            Some(r"C:\d\p.md")
        );
        assert_eq!(t("dir/", ArtifactTarget::MineruMarkdown, None), None);
    }
}
