//! Finding hook source lines that use what only pre-v2 hosts gave hooks: the
//! `runtime.helpers`, `runtime.handlers` and `runtime.zotero` objects, Zotero's own
//! globals and item methods, and the Gecko file APIs. v2 hooks get only `hostApi`
//! (`__zsHostApi`), so each use is named with its v2 replacement where there is one.

use serde::Serialize;

use super::blanking::code_only;

/// One use of a member v2 hosts do not provide.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct LegacyUse {
    /// 1-based line.
    pub line: usize,
    /// 1-based column (in characters).
    pub column: usize,
    /// The member as written, e.g. `runtime.helpers.resolveItemRef`.
    pub member: String,
    /// The v2 replacement, when there is one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub replacement: Option<&'static str>,
}

impl LegacyUse {
    /// `<member> is not provided by v2 hosts; use <replacement>` (or what to do instead).
    pub fn message(&self) -> String {
        match self.replacement {
            Some(replacement) => format!(
                "{} is not provided by v2 hosts; use {replacement}",
                self.member
            ),
            None => format!(
                "{} is not provided by v2 hosts and has no v2 replacement; move the logic into the hook or a package module",
                self.member
            ),
        }
    }
}

/// A legacy member: what precedes the name, and the replacement by name (`*` for any).
struct Family {
    prefix: &'static str,
    /// `(name, replacement)`; a `None` replacement means there is none.
    members: &'static [(&'static str, Option<&'static str>)],
}

const LIBRARY_DETAIL: Option<&str> = Some("hostApi.library.getItemDetail(ref)");
const PURE: Option<&str> = None;

const FAMILIES: &[Family] = &[
    Family {
        prefix: "helpers.",
        members: &[
            ("resolveItemRef", LIBRARY_DETAIL),
            (
                "getAttachmentParentId",
                Some(
                    "the selection fact's parentRef (or hostApi.library.getItemDetail(ref).item.parentRef)",
                ),
            ),
            (
                "getAttachmentFilePath",
                Some("hostApi.library.getItemDetail(ref).item.file.path"),
            ),
            (
                "getAttachmentFileName",
                Some("the selection fact's filename"),
            ),
            (
                "getAttachmentDateAdded",
                Some("the selection fact's createdAt"),
            ),
            (
                "withFilteredAttachments",
                Some("validateSelection.filters, or a preflight that returns {kind: \"skip\"}"),
            ),
            (
                "pickEarliestPdfAttachment",
                Some("the literature-source selector"),
            ),
            (
                "inspectGeneratedNoteReadiness",
                Some("the generated-note-readiness filter"),
            ),
            (
                "cloneSelectionContext",
                Some("structuredClone(selectionContext)"),
            ),
            ("getAttachmentFileStem", PURE),
            ("isMarkdownAttachment", PURE),
            ("isPdfAttachment", PURE),
            ("basenameOrFallback", PURE),
            ("toHtmlNote", PURE),
            ("*", PURE),
        ],
    },
    Family {
        prefix: "handlers.",
        members: &[
            (
                "parent.addNote",
                Some(
                    "hostApi.notes.create({operationId, placement: {kind: \"child\", parentRef}, content})",
                ),
            ),
            (
                "note.update",
                Some("hostApi.notes.updateContent({operationId, noteRef, content})"),
            ),
            ("note.remove", Some("hostApi.notes.remove")),
            (
                "attachment.createFromPath",
                Some("hostApi.attachments.create({operationId, placement, source, metadata})"),
            ),
            ("attachment.create", Some("hostApi.attachments.create")),
            (
                "attachment.update",
                Some("hostApi.attachments.updateMetadata"),
            ),
            ("attachment.remove", Some("hostApi.attachments.remove")),
            (
                "tag.",
                Some(
                    "hostApi.statusTags.transition for status tags, hostApi.mutations.execute for others",
                ),
            ),
            (
                "collection.",
                Some("hostApi.library.listCollections to read, hostApi.mutations.execute to write"),
            ),
            ("parent.", Some("hostApi.mutations.execute")),
            ("item.", Some("hostApi.mutations.execute")),
            ("*", Some("the hostApi member of the same job")),
        ],
    },
    Family {
        prefix: "runtime.zotero",
        members: &[(
            "*",
            Some("hostApi.library reads and hostApi.mutations writes"),
        )],
    },
    Family {
        prefix: "runtime.addon",
        members: &[("*", Some("hostApi.addon.getConfig()"))],
    },
    Family {
        prefix: "Zotero.",
        members: &[
            ("Items.get", LIBRARY_DETAIL),
            ("Items.getByLibraryAndKey", LIBRARY_DETAIL),
            (
                "getTempDirectory",
                Some("hostApi.file.getTempDirectoryPath()"),
            ),
            ("Prefs.", PURE),
            ("File.", Some("hostApi.file")),
            (
                "*",
                Some("hostApi (numeric item ids and Zotero objects do not exist in v2)"),
            ),
        ],
    },
    Family {
        prefix: "IOUtils.",
        members: &[
            ("readUTF8", Some("hostApi.file.readText")),
            ("writeUTF8", Some("hostApi.file.writeText")),
            ("read", Some("hostApi.file.readBytes")),
            ("write", Some("hostApi.file.writeBytes")),
            ("exists", Some("hostApi.file.exists")),
            ("makeDirectory", Some("hostApi.file.makeDirectory({path})")),
            ("stat", Some("hostApi.file.stat")),
            ("remove", Some("hostApi.file.remove")),
            ("move", Some("hostApi.file.move")),
            (
                "copy",
                Some("hostApi.file.copy({sourcePath, targetPath, overwrite})"),
            ),
            ("getChildren", Some("hostApi.file.list")),
            ("*", Some("the hostApi.file member of the same job")),
        ],
    },
    Family {
        prefix: "PathUtils.",
        members: &[("*", PURE)],
    },
    Family {
        prefix: "Services.",
        members: &[("*", PURE)],
    },
    Family {
        prefix: "ChromeUtils.",
        members: &[("*", PURE)],
    },
    Family {
        prefix: "Components.",
        members: &[("*", PURE)],
    },
    Family {
        prefix: "addon.data.",
        members: &[("*", Some("hostApi.addon.getConfig()"))],
    },
    Family {
        prefix: ".getField(",
        members: &[("*", Some("hostApi.library.getItemDetail(ref).item.fields"))],
    },
    Family {
        prefix: ".getNotes(",
        members: &[("*", Some("hostApi.library.getItemNotes(ref)"))],
    },
    Family {
        prefix: ".getAttachments(",
        members: &[("*", Some("hostApi.library.getItemAttachments(ref)"))],
    },
    Family {
        prefix: ".getFilePathAsync(",
        members: &[(
            "*",
            Some("hostApi.library.getItemDetail(ref).item.file.path"),
        )],
    },
    Family {
        prefix: ".getCreators(",
        members: &[(
            "*",
            Some("hostApi.library.getItemDetail(ref).item.creators"),
        )],
    },
];

fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// The identifier path (letters, digits, `_`, `$`, `.`) at the start of `text`.
fn path_at(text: &str) -> &str {
    let end = text
        .char_indices()
        .find(|&(_, c)| !(is_ident(c) || c == '.'))
        .map_or(text.len(), |(i, _)| i);
    text[..end].trim_end_matches('.')
}

/// Every line of `source` that uses a member v2 hosts do not provide, at most one per
/// family and line. Only code counts: comments, string and template literal text and
/// regular expression literals never do.
pub fn scan_source(source: &str) -> Vec<LegacyUse> {
    let mut found = Vec::new();
    let code = code_only(source);
    for (index, line) in code.lines().enumerate() {
        for family in FAMILIES {
            if let Some(hit) = find(line, family) {
                let (at, member, replacement) = hit;
                let column = line[..at].chars().count() + 1;
                found.push(LegacyUse {
                    line: index + 1,
                    column,
                    member,
                    replacement,
                });
            }
        }
    }
    found
}

/// The first use of `family` in `line`: byte offset, member as written, replacement.
fn find(line: &str, family: &Family) -> Option<(usize, String, Option<&'static str>)> {
    let prefix = family.prefix;
    let mut from = 0;
    while let Some(offset) = line[from..].find(prefix) {
        let at = from + offset;
        from = at + prefix.len();
        let before = &line[..at];
        if prefix.starts_with('.') {
            // An item method: name it with its receiver.
            let receiver = before
                .char_indices()
                .rev()
                .take_while(|&(_, c)| is_ident(c) || c == '.')
                .last()
                .map_or(at, |(i, _)| i);
            if receiver == at {
                continue;
            }
            let member = format!("{}{prefix})", &line[receiver..at]);
            return Some((receiver, member, family.members[0].1));
        }
        let start = if matches!(prefix, "helpers." | "handlers.") && before.ends_with("runtime.") {
            at - "runtime.".len()
        } else if before
            .chars()
            .next_back()
            .is_none_or(|c| !is_ident(c) && c != '.')
        {
            at
        } else {
            continue;
        };
        if !prefix.ends_with('.') && line[from..].chars().next().is_some_and(is_ident) {
            continue;
        }
        let rest = if prefix.ends_with('.') {
            path_at(&line[from..])
        } else {
            ""
        };
        let known = family.members.iter().find(|(name, _)| {
            *name != "*"
                && (rest == *name
                    || (name.ends_with('.') && rest.starts_with(name))
                    || rest.starts_with(&format!("{name}.")))
        });
        let any = family.members.iter().find(|(name, _)| *name == "*");
        let (_, replacement) = known.or(any)?;
        let member = format!("{}{rest}", &line[start..from]);
        return Some((
            start,
            member.trim_end_matches('.').to_string(),
            *replacement,
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(source: &str) -> Vec<(usize, String)> {
        scan_source(source)
            .into_iter()
            .map(|u| (u.line, u.member))
            .collect()
    }

    #[test]
    fn names_helpers_with_their_replacement() {
        let uses = scan_source("const item = runtime.helpers.resolveItemRef(parent);\n");
        assert_eq!(uses.len(), 1);
        assert_eq!(uses[0].member, "runtime.helpers.resolveItemRef");
        assert_eq!(uses[0].column, 14);
        assert_eq!(
            uses[0].replacement,
            Some("hostApi.library.getItemDetail(ref)")
        );
        assert!(
            uses[0]
                .message()
                .contains("use hostApi.library.getItemDetail(ref)")
        );
    }

    #[test]
    fn finds_destructured_helpers_zotero_gecko_and_item_methods() {
        let source = "const { helpers } = runtime;\n\
                      const p = helpers.getAttachmentFilePath(a);\n\
                      const item = Zotero.Items.get(id);\n\
                      await IOUtils.writeUTF8(path, text);\n\
                      const notes = item.getNotes();\n\
                      const dir = PathUtils.join(a, b);\n";
        assert_eq!(
            members(source),
            [
                (2, "helpers.getAttachmentFilePath".to_string()),
                (3, "Zotero.Items.get".to_string()),
                (4, "IOUtils.writeUTF8".to_string()),
                (5, "item.getNotes()".to_string()),
                (6, "PathUtils.join".to_string()),
            ]
        );
    }

    #[test]
    fn ignores_comments_v2_members_and_lookalikes() {
        let source = "// runtime.helpers.resolveItemRef(parent)\n\
                      const d = await hostApi.library.getItemDetail(ref);\n\
                      const myZotero.x = 1; const s = options.helpers.x; notZotero.Items.get(1);\n";
        assert!(members(source).is_empty(), "{:?}", members(source));
    }

    #[test]
    fn strings_templates_regexes_and_block_comments_are_not_code() {
        let source = "const a = \"runtime.helpers.resolveItemRef(x)\";\n\
                      const b = 'Zotero.Items.get(1)';\n\
                      const c = `IOUtils.writeUTF8 ${x} helpers.toHtmlNote`;\n\
                      /* runtime.zotero.Items\n   Zotero.Items.get(2) */ const d = 1;\n\
                      const e = /Zotero\\.Items\\.get/.test(s) ? 1 : 0;\n\
                      const f = 'it\\'s runtime.helpers.x';\n";
        assert!(members(source).is_empty(), "{:?}", members(source));
        // Code inside a template's `${}` is code, and what follows a literal is too.
        let source = "const c = `${Zotero.Items.get(1)}`;\n\
                      const q = \"x\"; const i = Zotero.Items.get(2);\n\
                      const r = a / b / Zotero.Items.get(3);\n";
        assert_eq!(
            members(source),
            [
                (1, "Zotero.Items.get".to_string()),
                (2, "Zotero.Items.get".to_string()),
                (3, "Zotero.Items.get".to_string()),
            ]
        );
        let uses = scan_source("const q = \"x\"; const i = Zotero.Items.get(2);");
        assert_eq!(uses[0].column, 26, "columns are those of the source");
    }

    /// `(source, members)`: the legacy members [`scan_source`] names in each source, by
    /// line. Every source mentions legacy names; only those in code are named.
    const WARNINGS: &[(&str, &[(usize, &str)])] = &[
        // Comments, `//` and `/*` in literals, `<!--`.
        ("// Zotero.Items.get(1)\nx;", &[]),
        ("/* Zotero.Items.get(1)\n runtime.helpers.x */ y;", &[]),
        (
            "a /* c */ / 2; Zotero.Items.get(1);",
            &[(1, "Zotero.Items.get")],
        ),
        ("s = '//'; Zotero.Items.get(1);", &[(1, "Zotero.Items.get")]),
        (
            "s = \"/*\"; Zotero.Items.get(1); // */",
            &[(1, "Zotero.Items.get")],
        ),
        ("s = '<!-- Zotero.Items.get(1) -->';", &[]),
        // Strings: escaped quotes, line continuations.
        ("s = 'it\\'s Zotero.Items.get(1)';", &[]),
        ("s = \"say \\\"Zotero.Items.get(1)\\\"\";", &[]),
        (
            "s = 'a\\\nZotero.Items.get(1)';\nZotero.Items.get(2);",
            &[(3, "Zotero.Items.get")],
        ),
        ("s = \"a\\\r\nruntime.helpers.x\";\r\n", &[]),
        (
            "s = 'a\\\\'; Zotero.Items.get(1);",
            &[(1, "Zotero.Items.get")],
        ),
        // Templates: text is not code, `${}` is, at any depth.
        ("t = `IOUtils.read ${x}`;", &[]),
        (
            "t = `a \\` Zotero.Items.get(1) \\${Zotero.Items.get(2)}`;",
            &[],
        ),
        ("t = `${Zotero.Items.get(1)}`;", &[(1, "Zotero.Items.get")]),
        (
            "t = `a ${`b ${`c ${Zotero.Items.get(1)}`}`}`;",
            &[(1, "Zotero.Items.get")],
        ),
        (
            "t = `a ${`b ${'Zotero.Items.get(1)'}`} Zotero.Items.get(2)`;",
            &[],
        ),
        ("t = `${ {a: 1}.a } Zotero.Items.get(1)`;", &[]),
        (
            "t = `${'}'} IOUtils.read`; IOUtils.write(p);",
            &[(1, "IOUtils.write")],
        ),
        (
            "t = `a\nZotero.Items.get(1)\n${b}`;\nZotero.Items.get(2);",
            &[(4, "Zotero.Items.get")],
        ),
        // Regular expressions and divisions.
        ("ok = /Zotero.Items.get/.test(s);", &[]),
        ("function f(s) { return /Zotero.Items.get/.test(s); }", &[]),
        ("if (ok) /runtime.helpers.x/.test(s);", &[]),
        ("x = typeof /Zotero.Items/;", &[]),
        ("x = /[/]Zotero.Items.get/;", &[]),
        ("x = /\\/*Zotero.Items.get/;", &[]),
        (
            "r = a / b / Zotero.Items.get(3);",
            &[(1, "Zotero.Items.get")],
        ),
        (
            "h = n++ / 2; i = Zotero.Items.get(1);",
            &[(1, "Zotero.Items.get")],
        ),
        (
            "h = f(n) / 2; i = Zotero.Items.get(1);",
            &[(1, "Zotero.Items.get")],
        ),
        (
            "h = o.return / 2; i = Zotero.Items.get(1);",
            &[(1, "Zotero.Items.get")],
        ),
        ("x = /`/; Zotero.Items.get(1);", &[(1, "Zotero.Items.get")]),
        // Left open at the end of the file.
        (
            "Zotero.Items.get(1); s = 'Zotero.Items.get(2)",
            &[(1, "Zotero.Items.get")],
        ),
        (
            "Zotero.Items.get(1); /* Zotero.Items.get(2)",
            &[(1, "Zotero.Items.get")],
        ),
        ("t = `${Zotero.Items.get(1)", &[(1, "Zotero.Items.get")]),
        ("t = `Zotero.Items.get(1)", &[]),
        (
            "x = /Zotero.Items.get(1)\nZotero.Items.get(2);",
            &[(2, "Zotero.Items.get")],
        ),
    ];

    #[test]
    fn only_code_is_scanned() {
        for (source, expected) in WARNINGS {
            let got = members(source);
            let expected: Vec<(usize, String)> =
                expected.iter().map(|&(l, m)| (l, m.to_string())).collect();
            assert_eq!(got, expected, "source {source:?}");
        }
    }

    #[test]
    fn unknown_members_of_a_legacy_object_are_still_named() {
        let uses = scan_source("runtime.zotero.Items.get(1); runtime.handlers.command.run();");
        let got: Vec<_> = uses
            .iter()
            .map(|u| (u.member.as_str(), u.replacement))
            .collect();
        assert_eq!(
            got,
            [
                (
                    "runtime.handlers.command.run",
                    Some("the hostApi member of the same job")
                ),
                (
                    "runtime.zotero",
                    Some("hostApi.library reads and hostApi.mutations writes")
                ),
            ]
        );
    }
}
