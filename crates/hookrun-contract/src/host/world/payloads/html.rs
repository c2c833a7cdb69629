//! The note HTML the reference host reads payload blocks, payload anchors and
//! managed note kinds from, scanned as its patterns scan it: tag and attribute
//! names without regard to ASCII case, attribute values quoted or bare.

use super::MANAGED;
use super::text::{is_js_space, js_trim};

/// Whether `byte` is a word character (`\w`).
fn is_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// Whether `hay` has `needle` (ASCII) at byte `at`, ignoring ASCII case.
fn at_ci(hay: &str, at: usize, needle: &str) -> bool {
    hay.as_bytes()
        .get(at..at + needle.len())
        .is_some_and(|b| b.eq_ignore_ascii_case(needle.as_bytes()))
}

/// The byte offsets where `needle` (ASCII) starts in `hay`, ignoring ASCII case.
fn positions<'a>(hay: &'a str, needle: &'a str) -> impl Iterator<Item = usize> + 'a {
    (0..hay.len().saturating_sub(needle.len() - 1)).filter(move |&i| at_ci(hay, i, needle))
}

/// `text` from byte `at` without the JavaScript white space it starts with.
fn skip_spaces(text: &str, at: usize) -> usize {
    at + text[at..]
        .char_indices()
        .find(|(_, c)| !is_js_space(*c))
        .map_or(text.len() - at, |(i, _)| i)
}

/// The tags `<name …>` of `html`, each up to its first `>`, in document order;
/// `keep` picks the tags a pattern matches, a tag it does not pick letting the
/// scan go on inside it.
pub(in crate::host::world) fn tags<'a>(
    html: &'a str,
    name: &str,
    keep: impl Fn(&str) -> bool,
) -> Vec<&'a str> {
    let open = format!("<{name}");
    let mut found = Vec::new();
    let mut at = 0;
    while let Some(start) = positions(&html[at..], &open).next().map(|i| i + at) {
        let after = start + open.len();
        let bounded = html.as_bytes().get(after).is_some_and(|b| !is_word(*b));
        let Some(end) = html[after..].find('>').map(|i| after + i + 1) else {
            break;
        };
        if bounded && keep(&html[start..end]) {
            found.push(&html[start..end]);
            at = end;
        } else {
            at = start + 1;
        }
    }
    found
}

/// How an attribute is looked for.
#[derive(Clone, Copy)]
pub(super) struct Lookup {
    /// The name starts a word (`\bname`).
    pub(super) word_start: bool,
    /// A quoted value has at least one character (`"[^"]+"`).
    pub(super) filled: bool,
}

/// Any attribute position, a quoted value possibly empty.
pub(super) const ANYWHERE: Lookup = Lookup {
    word_start: false,
    filled: false,
};

/// The value of the first `name\s*=\s*value` in `text` (`"…"`, `'…'` or a bare
/// run of characters other than white space and `>`), as the pattern finds it.
pub(in crate::host::world) fn attribute<'a>(
    text: &'a str,
    name: &str,
    lookup: Lookup,
) -> Option<&'a str> {
    positions(text, name).find_map(|at| {
        let word_ok = !lookup.word_start || at == 0 || !is_word(text.as_bytes()[at - 1]);
        let eq = skip_spaces(text, at + name.len());
        if !word_ok || text.as_bytes().get(eq) != Some(&b'=') {
            return None;
        }
        value_at(text, skip_spaces(text, eq + 1), lookup.filled)
    })
}

/// The attribute value that starts at byte `at` of `text`.
fn value_at(text: &str, at: usize, filled: bool) -> Option<&str> {
    let rest = &text[at..];
    for quote in ['"', '\''] {
        if let Some(inner) = rest.strip_prefix(quote)
            && let Some(close) = inner.find(quote)
            && (close > 0 || !filled)
        {
            return Some(&inner[..close]);
        }
    }
    let end = rest
        .char_indices()
        .find(|(_, c)| is_js_space(*c) || *c == '>')
        .map_or(rest.len(), |(i, _)| i);
    (end > 0).then(|| &rest[..end])
}

/// Whether `tag` has `name` followed by `\s*=\s*` and a value (as the patterns
/// that find payload spans and anchors require).
fn has_valued(tag: &str, name: &str, word_start: bool) -> bool {
    attribute(
        tag,
        name,
        Lookup {
            word_start,
            filled: true,
        },
    )
    .is_some()
}

/// `&quot;`, `&#39;`, `&apos;`, `&lt;`, `&gt;` and `&amp;` decoded, in that order.
pub(in crate::host::world) fn decode_entities(text: &str) -> String {
    text.replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&apos;", "'")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&amp;", "&")
}

/// `&`, `<` and `>` escaped.
pub(in crate::host::world) fn escape_html(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// [`escape_html`], and the quotes too.
pub(in crate::host::world) fn escape_attribute(text: &str) -> String {
    escape_html(text)
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The `<span … data-zs-payload=…>` tags of `html`: its inline payload blocks.
pub(in crate::host::world) fn payload_spans(html: &str) -> Vec<&str> {
    tags(html, "span", |tag| {
        has_valued(tag, "data-zs-payload", false)
    })
}

/// The attribute `name` of a payload span, entities decoded (`""` when absent).
pub(in crate::host::world) fn span_attribute(tag: &str, name: &str) -> String {
    attribute(tag, name, ANYWHERE)
        .map(decode_entities)
        .unwrap_or_default()
}

/// The attribute that anchors a payload on an attachment.
const ANCHOR: &str = "data-zs-payload-anchor";

/// The payload anchors of `html`: (payload type, attachment key) of each
/// `<img data-zs-payload-anchor=…>`, in document order.
pub(in crate::host::world) fn anchors(html: &str) -> Vec<(String, String)> {
    let bare = |tag: &str, name: &str| {
        attribute(tag, name, ANYWHERE)
            .map(|v| js_trim(v).to_owned())
            .unwrap_or_default()
    };
    tags(html, "img", |tag| {
        has_valued(tag, "data-zs-payload-anchor", true)
    })
    .into_iter()
    .map(|tag| {
        let payload_type = bare(tag, "data-zs-payload-anchor");
        (payload_type, bare(tag, "data-attachment-key"))
    })
    .filter(|(payload_type, _)| !payload_type.is_empty())
    .collect()
}

/// Whether `html` anchors a payload on the attachment `key`: an `<img>` with a
/// `data-zs-payload-anchor` whose `data-attachment-key` is `key` (what makes an
/// attachment of a note its payload carrier).
pub(in crate::host::world) fn anchors_attachment(html: &str, key: &str) -> bool {
    tags(html, "img", |_| true).into_iter().any(|tag| {
        let marked = positions(tag, ANCHOR).any(|at| {
            (at == 0 || !is_word(tag.as_bytes()[at - 1]))
                && tag.as_bytes().get(skip_spaces(tag, at + ANCHOR.len())) == Some(&b'=')
        });
        let lookup = Lookup {
            word_start: true,
            filled: false,
        };
        marked && attribute(tag, "data-attachment-key", lookup).map(js_trim) == Some(key)
    })
}

/// `html` without the empty `<span …></span>` inline blocks of `payload_type`.
pub(in crate::host::world) fn strip_inline(html: &str, payload_type: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    for tag in tags(html, "span", |tag| {
        names_type(tag, "data-zs-payload", payload_type)
    }) {
        let start = tag.as_ptr() as usize - rest.as_ptr() as usize;
        let after = start + tag.len();
        if at_ci(rest, after, "</span>") {
            out.push_str(&rest[..start]);
            rest = &rest[after + "</span>".len()..];
        }
    }
    out.push_str(rest);
    out
}

/// `html` without the payload anchors of `payload_type`.
fn strip_anchor(html: &str, payload_type: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    for tag in tags(html, "img", |tag| {
        names_type(tag, "data-zs-payload-anchor", payload_type)
    }) {
        let start = tag.as_ptr() as usize - rest.as_ptr() as usize;
        out.push_str(&rest[..start]);
        rest = &rest[start + tag.len()..];
    }
    out.push_str(rest);
    out
}

/// Whether `tag` has `\bname\s*=\s*` followed by `"T"`, `'T'` or `T`.
fn names_type(tag: &str, name: &str, payload_type: &str) -> bool {
    positions(tag, name).any(|at| {
        let bounded = at == 0 || !is_word(tag.as_bytes()[at - 1]);
        let eq = skip_spaces(tag, at + name.len());
        if !bounded || tag.as_bytes().get(eq) != Some(&b'=') {
            return false;
        }
        quoted_or_bare(&tag[skip_spaces(tag, eq + 1)..], payload_type)
    })
}

/// Whether `value` starts with `"T"`, `'T'` or `T`.
fn quoted_or_bare(value: &str, payload_type: &str) -> bool {
    value.starts_with(payload_type)
        || ['"', '\''].iter().any(|q| {
            value
                .strip_prefix(*q)
                .and_then(|v| v.strip_prefix(payload_type))
                .is_some_and(|v| v.starts_with(*q))
        })
}

/// `html` with its anchor of `payload_type` naming the attachment `key`: an
/// earlier anchor of the type taken out, the new one in a paragraph before the
/// closing `</div>` (else at the end).
pub(in crate::host::world) fn append_anchor(html: &str, payload_type: &str, key: &str) -> String {
    let stripped = strip_anchor(html, payload_type);
    let block = format!(
        "<p data-zs-payload-anchor-container=\"1\"><img data-attachment-key=\"{}\" \
         data-zs-payload-anchor=\"{}\" alt=\"ZA\" title=\"Zotero Agents artifact payload\" \
         width=\"32\" height=\"32\"></p>",
        escape_attribute(key),
        escape_attribute(payload_type)
    );
    let body = stripped.trim_end_matches(is_js_space);
    if body.len() >= 6 && at_ci(body, body.len() - 6, "</div>") {
        format!("{}{block}</div>", &body[..body.len() - 6])
    } else {
        format!("{stripped}\n{block}")
    }
}

/// The note kind `html` names: that of the first managed payload type a
/// `data-zs-payload="…"` names, else its `data-zs-note-kind`, else `""`.
pub(in crate::host::world) fn note_kind(html: &str) -> String {
    let named = MANAGED.iter().find(|m| {
        ['"', '\''].iter().any(|q| {
            let needle = format!("data-zs-payload={q}{}{q}", m.payload_type);
            positions(html, &needle).next().is_some()
        })
    });
    if let Some(m) = named {
        return m.kind.to_owned();
    }
    let lookup = Lookup {
        word_start: false,
        filled: true,
    };
    attribute(html, "data-zs-note-kind", lookup)
        .unwrap_or_default()
        .to_owned()
}

/// Every value of `name\s*=\s*value` in `html`.
fn all_values<'a>(html: &'a str, name: &'a str) -> impl Iterator<Item = &'a str> + 'a {
    let lookup = Lookup {
        word_start: false,
        filled: true,
    };
    positions(html, name).filter_map(move |at| attribute(&html[at..], name, lookup))
}

/// The managed kind a managed payload type or kind names.
pub(in crate::host::world) fn kind_named(value: &str) -> Option<&'static str> {
    MANAGED
        .iter()
        .find(|m| m.kind == value || m.payload_type == value)
        .map(|m| m.kind)
}

/// The one managed kind `html`'s markers name (`data-zs-note-kind`,
/// `data-zs-payload`, `data-zs-payload-anchor`), when they name exactly one.
pub(in crate::host::world) fn kind_hint(html: &str) -> Option<&'static str> {
    let mut kinds: Vec<&'static str> = Vec::new();
    let values = all_values(html, "data-zs-note-kind")
        .chain(all_values(html, "data-zs-payload-anchor"))
        .chain(all_values(html, "data-zs-payload"));
    for value in values {
        if let Some(kind) = kind_named(js_trim(value))
            && !kinds.contains(&kind)
        {
            kinds.push(kind);
        }
    }
    (kinds.len() == 1).then(|| kinds[0])
}

/// Whether `html` carries a managed marker although it has no managed payload
/// block: an anchor of a managed payload type, a managed `data-zs-note-kind`, or
/// a `data-zs-payload=` naming a managed payload type.
pub(in crate::host::world) fn reserved_marker(html: &str) -> bool {
    let lookup = Lookup {
        word_start: false,
        filled: true,
    };
    let anchor = attribute(html, "data-zs-payload-anchor", lookup).map(js_trim);
    let kind = attribute(html, "data-zs-note-kind", lookup);
    MANAGED.iter().any(|m| {
        anchor == Some(m.payload_type)
            || kind == Some(m.kind)
            || positions(html, "data-zs-payload").any(|at| {
                let eq = skip_spaces(html, at + "data-zs-payload".len());
                html.as_bytes().get(eq) == Some(&b'=')
                    && quoted_or_bare(&html[skip_spaces(html, eq + 1)..], m.payload_type)
            })
    })
}

/// The byte offset of the first `needle` (ASCII) in `hay` at or after `from`,
/// ignoring ASCII case.
fn find_ci(hay: &str, needle: &str, from: usize) -> Option<usize> {
    positions(&hay[from..], needle).next().map(|i| i + from)
}

/// `html` with each `<name…>…</name>` element (the first closing tag after it)
/// replaced by a space.
fn drop_elements(html: &str, name: &str) -> String {
    let (open, close) = (format!("<{name}"), format!("</{name}>"));
    let mut out = String::with_capacity(html.len());
    let mut at = 0;
    while let Some(start) = find_ci(html, &open, at) {
        let Some(end) = find_ci(html, &close, start + open.len()) else {
            break;
        };
        out.push_str(&html[at..start]);
        out.push(' ');
        at = end + close.len();
    }
    out.push_str(&html[at..]);
    out
}

/// The text of `html` as the managed owner reads it: styles, scripts and tags
/// replaced by spaces, each run of white space one space, trimmed.
pub(in crate::host::world) fn text_from_html(html: &str) -> String {
    let html = drop_elements(&drop_elements(html, "style"), "script");
    let mut spaced = String::with_capacity(html.len());
    let mut rest = html.as_str();
    while let Some(open) = rest.find('<') {
        let tag_end = rest[open + 1..]
            .find('>')
            .filter(|len| *len > 0)
            .map(|len| open + 1 + len + 1);
        match tag_end {
            Some(end) => {
                spaced.push_str(&rest[..open]);
                spaced.push(' ');
                rest = &rest[end..];
            }
            None => {
                spaced.push_str(&rest[..=open]);
                rest = &rest[open + 1..];
            }
        }
    }
    spaced.push_str(rest);
    let words: Vec<&str> = spaced
        .split(is_js_space)
        .filter(|w| !w.is_empty())
        .collect();
    words.join(" ")
}

/// The text of `html`'s first `<h1>`, entities decoded (`""` without one).
pub(in crate::host::world) fn title_from_html(html: &str) -> String {
    let Some(open) = tags(html, "h1", |_| true).into_iter().next() else {
        return String::new();
    };
    let start = open.as_ptr() as usize - html.as_ptr() as usize + open.len();
    match find_ci(html, "</h1>", start) {
        Some(end) => decode_entities(&text_from_html(&html[start..end])),
        None => String::new(),
    }
}
