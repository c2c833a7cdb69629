//! Finding hook source lines that use what only pre-v2 hosts gave hooks: the
//! `runtime.helpers`, `runtime.handlers` and `runtime.zotero` objects, Zotero's own
//! globals and item methods, and the Gecko file APIs. v2 hooks get only `hostApi`
//! (`__zsHostApi`), so each use is named with its v2 replacement where there is one.

use serde::Serialize;

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

/// Where [`code_only`] is in the source: in code, or in a comment or literal of one kind.
#[derive(Clone, Copy, PartialEq)]
enum State {
    Code,
    LineComment,
    BlockComment,
    Quoted(char),
    Template,
    Regex { in_class: bool },
}

/// `c` blanked out: a line break stays, every other character becomes a space.
fn blank(c: char) -> char {
    if c == '\n' { '\n' } else { ' ' }
}

/// `source` with every comment, string literal, template literal text and regular
/// expression literal replaced by spaces, character for character (line breaks
/// kept), so that lines and columns of the code stay where they were.
fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut scan = Blanking {
        out: String::with_capacity(source.len()),
        state: State::Code,
        templates: Vec::new(),
        last_code: None,
    };
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        let took_next = match scan.state {
            State::Code => scan.code(c, next),
            State::LineComment => scan.line_comment(c),
            State::BlockComment => scan.block_comment(c, next),
            State::Quoted(quote) => scan.quoted(quote, c, next),
            State::Template => scan.template(c, next),
            State::Regex { in_class } => scan.regex(in_class, c, next),
        };
        scan.note(c);
        i += if took_next { 2 } else { 1 };
    }
    scan.out
}

/// The state of [`code_only`]'s scan: what it wrote, and what it must remember of
/// what it read. Each step reads one character `c` (with `next` after it, which
/// some steps take too) in its state and says whether it took `next`.
struct Blanking {
    out: String,
    state: State,
    /// Open `${` of templates: the brace depth inside each, innermost last.
    templates: Vec<usize>,
    /// The last character of code that is not white space, to tell a division
    /// from a regular expression.
    last_code: Option<char>,
}

impl Blanking {
    /// A character of code: kept, unless it starts a comment or a literal or ends a
    /// template's `${}`.
    fn code(&mut self, c: char, next: Option<char>) -> bool {
        match (c, next) {
            ('/', Some('/')) => {
                self.state = State::LineComment;
                self.out.push(' ');
            }
            ('/', Some('*')) => {
                self.state = State::BlockComment;
                self.out.push_str("  ");
                return true;
            }
            ('/', _)
                if self
                    .last_code
                    .is_none_or(|p| "(,=:[!&|?{};+-*%<>~^".contains(p)) =>
            {
                self.state = State::Regex { in_class: false };
                self.out.push(' ');
            }
            ('\'' | '"', _) => {
                self.state = State::Quoted(c);
                self.out.push(' ');
            }
            ('`', _) => {
                self.state = State::Template;
                self.out.push(' ');
            }
            ('{', _) => {
                if let Some(depth) = self.templates.last_mut() {
                    *depth += 1;
                }
                self.out.push(c);
            }
            ('}', _) if self.templates.last() == Some(&0) => {
                self.templates.pop();
                self.state = State::Template;
                self.out.push(' ');
            }
            ('}', _) => {
                if let Some(depth) = self.templates.last_mut() {
                    *depth -= 1;
                }
                self.out.push(c);
            }
            _ => self.out.push(c),
        }
        false
    }

    /// A character of a `//` comment, which a line break ends.
    fn line_comment(&mut self, c: char) -> bool {
        if c == '\n' {
            self.state = State::Code;
        }
        self.out.push(blank(c));
        false
    }

    /// A character of a `/* */` comment.
    fn block_comment(&mut self, c: char, next: Option<char>) -> bool {
        if c == '*' && next == Some('/') {
            self.state = State::Code;
            self.out.push_str("  ");
            return true;
        }
        self.out.push(blank(c));
        false
    }

    /// A character of a string literal quoted with `quote`.
    fn quoted(&mut self, quote: char, c: char, next: Option<char>) -> bool {
        if c == '\\' && next.is_some_and(|n| n != '\n') {
            self.out.push_str("  ");
            return true;
        }
        if c == quote || c == '\n' {
            self.state = State::Code;
        }
        self.out.push(blank(c));
        false
    }

    /// A character of a regular expression literal.
    fn regex(&mut self, in_class: bool, c: char, next: Option<char>) -> bool {
        if c == '\\' && next.is_some_and(|n| n != '\n') {
            self.out.push_str("  ");
            return true;
        }
        self.state = match c {
            '\n' => State::Code,
            '[' => State::Regex { in_class: true },
            ']' => State::Regex { in_class: false },
            '/' if !in_class => State::Code,
            _ => self.state,
        };
        self.out.push(blank(c));
        false
    }

    /// A character of a template literal's text, which `${` leaves for code.
    fn template(&mut self, c: char, next: Option<char>) -> bool {
        if c == '\\'
            && let Some(escaped) = next
        {
            self.out.push(' ');
            self.out.push(blank(escaped));
            return true;
        }
        if c == '`' {
            self.state = State::Code;
            self.out.push(' ');
            return false;
        }
        if c == '$' && next == Some('{') {
            self.templates.push(0);
            self.state = State::Code;
            self.out.push_str("  ");
            return true;
        }
        self.out.push(blank(c));
        false
    }

    /// Remembers, after `c` was read, what a following `/` would be.
    fn note(&mut self, c: char) {
        if self.state == State::Code && !c.is_whitespace() && !matches!(c, '`' | '\'' | '"') {
            self.last_code = Some(c);
        }
        if matches!(
            self.state,
            State::Quoted(_) | State::Template | State::Regex { .. }
        ) {
            // A literal is a value: what follows it divides.
            self.last_code = Some('a');
        }
    }
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
