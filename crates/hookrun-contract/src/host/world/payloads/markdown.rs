//! Markdown as the reference host renders it into a managed note's view: fenced
//! code, headings, bullet and numbered lists and paragraphs, with links, code,
//! strong and emphasis inside a line.

use super::html::{escape_attribute, escape_html};
use super::text::is_js_space;

/// The lists open while rendering.
#[derive(Default)]
struct Open {
    bullets: bool,
    numbers: bool,
    code: Option<Vec<String>>,
}

impl Open {
    /// Closes the open lists into `blocks`.
    fn close_lists(&mut self, blocks: &mut Vec<String>) {
        if std::mem::take(&mut self.bullets) {
            blocks.push("</ul>".into());
        }
        if std::mem::take(&mut self.numbers) {
            blocks.push("</ol>".into());
        }
    }
}

/// `markdown` as the view's HTML blocks, one per line.
pub(in crate::host::world) fn render(markdown: &str) -> String {
    let text = markdown.replace("\r\n", "\n").replace('\r', "\n");
    let mut blocks = Vec::new();
    let mut open = Open::default();
    for line in text.split('\n') {
        if is_fence(line) {
            open.close_lists(&mut blocks);
            match open.code.take() {
                None => open.code = Some(Vec::new()),
                Some(lines) => blocks.push(code_block(&lines)),
            }
        } else if let Some(lines) = open.code.as_mut() {
            lines.push(line.to_owned());
        } else {
            render_line(line, &mut open, &mut blocks);
        }
    }
    open.close_lists(&mut blocks);
    if let Some(lines) = open.code.filter(|l| !l.is_empty()) {
        blocks.push(code_block(&lines));
    }
    blocks.join("\n")
}

/// Renders one line outside code into `blocks`.
fn render_line(line: &str, open: &mut Open, blocks: &mut Vec<String>) {
    if line.chars().all(is_js_space) {
        open.close_lists(blocks);
    } else if let Some((level, text)) = heading(line) {
        open.close_lists(blocks);
        blocks.push(format!("<h{level}>{}</h{level}>", inline(text)));
    } else if let Some(text) = item(line, false) {
        if !open.bullets {
            open.close_lists(blocks);
            blocks.push("<ul>".into());
            open.bullets = true;
        }
        blocks.push(format!("<li>{}</li>", inline(text)));
    } else if let Some(text) = item(line, true) {
        if !open.numbers {
            open.close_lists(blocks);
            blocks.push("<ol>".into());
            open.numbers = true;
        }
        blocks.push(format!("<li>{}</li>", inline(text)));
    } else {
        open.close_lists(blocks);
        blocks.push(format!("<p>{}</p>", inline(line)));
    }
}

/// A fenced code block of `lines`.
fn code_block(lines: &[String]) -> String {
    format!("<pre><code>{}</code></pre>", escape_html(&lines.join("\n")))
}

/// Whether `line` is a fence: three backticks, a word, then only white space.
fn is_fence(line: &str) -> bool {
    line.strip_prefix("```").is_some_and(|rest| {
        rest.trim_start_matches(|c: char| c.is_ascii_alphanumeric() || c == '_')
            .chars()
            .all(is_js_space)
    })
}

/// The text after white space that leaves at least one character (`\s+(.+)`),
/// or `None` when `rest` does not start with white space.
fn after_space(rest: &str) -> Option<&str> {
    let first = rest.chars().next().filter(|c| is_js_space(*c))?;
    let trimmed = rest.trim_start_matches(is_js_space);
    if !trimmed.is_empty() {
        return Some(trimmed);
    }
    // Only white space: the last character is the text.
    let last = rest.char_indices().last()?;
    (last.0 >= first.len_utf8()).then(|| &rest[last.0..])
}

/// `# text` … `###### text`: the level and the text.
fn heading(line: &str) -> Option<(usize, &str)> {
    let hashes = line.len() - line.trim_start_matches('#').len();
    (1..=hashes.min(6))
        .rev()
        .find_map(|level| after_space(&line[level..]).map(|text| (level, text)))
}

/// A list item's text: `- text`, `* text`, `+ text`, or (`numbered`) `1. text`.
fn item(line: &str, numbered: bool) -> Option<&str> {
    let rest = line.trim_start_matches(is_js_space);
    let rest = if numbered {
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        rest.get(digits..)
            .filter(|_| digits > 0)?
            .strip_prefix('.')?
    } else {
        rest.strip_prefix(['-', '*', '+'])?
    };
    after_space(rest)
}

/// A line's HTML: escaped, then its links, code, strong and emphasis.
fn inline(text: &str) -> String {
    let html = links(&escape_html(text));
    let html = delimited(&html, "`", "code");
    let html = delimited(&html, "**", "strong");
    delimited(&html, "*", "em")
}

/// `text` with each `MARK…MARK` (at least one character, none of the mark's
/// first character) in `<tag>…</tag>`.
fn delimited(text: &str, mark: &str, tag: &str) -> String {
    let stop = mark.chars().next().unwrap_or('*');
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(mark) {
        let inner_start = at + mark.len();
        let inner_len = rest[inner_start..].find(stop);
        match inner_len {
            Some(len) if len > 0 && rest[inner_start + len..].starts_with(mark) => {
                out.push_str(&rest[..at]);
                out.push_str(&format!(
                    "<{tag}>{}</{tag}>",
                    &rest[inner_start..inner_start + len]
                ));
                rest = &rest[inner_start + len + mark.len()..];
            }
            _ => {
                let step = at + stop.len_utf8();
                out.push_str(&rest[..step]);
                rest = &rest[step..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// `text` with each `[label](http…)` as a link.
fn links(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('[') {
        match link_at(&rest[at..]) {
            Some((html, used)) => {
                out.push_str(&rest[..at]);
                out.push_str(&html);
                rest = &rest[at + used..];
            }
            None => {
                out.push_str(&rest[..at + 1]);
                rest = &rest[at + 1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The link `text` starts with, and how many bytes it takes.
fn link_at(text: &str) -> Option<(String, usize)> {
    let close = text.find(']').filter(|i| *i > 1)?;
    let label = &text[1..close];
    let after = text[close + 1..].strip_prefix('(')?;
    let scheme = ["http://", "https://"]
        .into_iter()
        .find(|s| after.starts_with(s))?;
    let url_len = after
        .find(|c: char| is_js_space(c) || c == ')')
        .filter(|end| *end > scheme.len())?;
    after[url_len..].strip_prefix(')')?;
    let url = &after[..url_len];
    let html = format!(
        "<a href=\"{}\">{}</a>",
        escape_attribute(url),
        escape_html(label)
    );
    Some((html, close + 2 + url_len + 1))
}

/// A managed note's HTML as the reference host builds it: a `<div>` of the note
/// kind with the title, the view (`body`), and the inline payload block.
pub(in crate::host::world) fn structured_note(
    kind: &str,
    title: &str,
    view: &str,
    body: &str,
    payload_block: &str,
) -> String {
    [
        format!("<div data-zs-note-kind=\"{}\">", escape_attribute(kind)),
        format!("<h1>{}</h1>", escape_html(title)),
        format!("<div data-zs-view=\"{}\">", escape_attribute(view)),
        body.to_owned(),
        "</div>".into(),
        payload_block.to_owned(),
        "</div>".into(),
    ]
    .join("\n")
}

/// The inline payload block of `payload_type` holding `raw` (base64 of UTF-8).
pub(in crate::host::world) fn payload_span(payload_type: &str, raw: &str) -> String {
    use base64::Engine as _;
    let encoded = base64::engine::general_purpose::STANDARD.encode(raw.as_bytes());
    format!(
        "<span data-zs-block=\"payload\" data-zs-payload=\"{}\" data-zs-version=\"1\" \
         data-zs-encoding=\"base64\" data-zs-value=\"{}\"></span>",
        escape_attribute(payload_type),
        escape_attribute(&encoded)
    )
}
