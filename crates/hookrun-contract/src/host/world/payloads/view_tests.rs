//! The views managed notes carry, as the reference host's owners render them:
//! markdown, the structured template, and the tables of References, Citation
//! Analysis and Literature Score notes.

use serde_json::json;

use super::markdown::render;
use super::views::artifact_note;

#[test]
fn markdown_renders_blocks_and_inline_marks() {
    let markdown = "# Title\n\nSome *em* and **strong** with `code` and [a link](https://x.org/a?b=1&c=2)\n\
                    - a\n- b\n1. one\n```rust\nlet x = <1>;\n```\n####### seven\n#no\n  ";
    assert_eq!(
        render(markdown),
        "<h1>Title</h1>\n<p>Some <em>em</em> and <strong>strong</strong> with <code>code</code> and \
         <a href=\"https://x.org/a?b=1&amp;amp;c=2\">a link</a></p>\n<ul>\n<li>a</li>\n<li>b</li>\n\
         </ul>\n<ol>\n<li>one</li>\n</ol>\n<pre><code>let x = &lt;1&gt;;</code></pre>\n\
         <p>####### seven</p>\n<p>#no</p>"
    );
    assert_eq!(
        render("``\n**a*b**\n*\n[x](ftp://y)"),
        "<p>``</p>\n<p>*<em>a</em>b**</p>\n<p>*</p>\n<p>[x](ftp://y)</p>"
    );
    assert_eq!(
        render("```\nopen"),
        "<pre><code>open</code></pre>",
        "an open fence is closed"
    );
}

#[test]
fn a_digest_drops_its_title_heading_and_holds_its_markdown_inline() {
    let digest = artifact_note("digest", &json!({"markdown": "\n# Digest\n\n\nBody"})).unwrap();
    assert_eq!(digest.payload.value, "Body");
    assert_eq!(
        (
            digest.payload.payload_type.as_str(),
            digest.payload.schema_version.as_str()
        ),
        ("digest-markdown", "literature_digest.v1")
    );
    assert_eq!(
        digest.content,
        "<div data-zs-note-kind=\"digest\">\n<h1>Digest</h1>\n<div data-zs-view=\"digest-html\">\n<p>Body</p>\n\
         </div>\n<span data-zs-block=\"payload\" data-zs-payload=\"digest-markdown\" data-zs-version=\"1\" \
         data-zs-encoding=\"base64\" data-zs-value=\"Qm9keQ==\"></span>\n</div>"
    );
    let kept = artifact_note("digest", &json!({"markdown": "## Digest\nBody"})).unwrap();
    assert_eq!(
        kept.payload.value, "## Digest\nBody",
        "only a first-level heading of the title goes"
    );
}

#[test]
fn references_and_citations_are_tables_of_their_entries() {
    let references = json!({"references": [{"bibliography": {"title": "A <b>", "authors": ["X", null, "Y"],
        "year": 2020, "publicationTitle": "", "conferenceName": "Conf", "volume": "3", "pages": "1-2"}}]});
    let note = artifact_note("references", &references).unwrap();
    assert!(
        note.content.contains(
            "<tbody><tr><td>1</td><td>2020</td><td>A &lt;b&gt;</td><td>X; ; Y</td><td>Conf</td>\
             <td>Vol. 3; pp. 1-2</td></tr></tbody></table>"
        ),
        "{}",
        note.content
    );
    let citation = json!({"summary": "S", "timeline": {"late": {"summary": "L", "sourceReferenceIds": ["r2"]},
        "2019": {"summary": "E"}}, "items": [{"sourceReferenceId": "r1", "function": "f"}]});
    let note = artifact_note("citation-analysis", &citation).unwrap();
    let view = "<p data-zs-view=\"citation-summary\">S</p>\n<table data-zs-view=\"citation-timeline\"><thead>\
        <tr><th>Period</th><th>Summary</th><th>References</th></tr></thead><tbody><tr><td>2019</td><td>E</td>\
        <td></td></tr><tr><td>late</td><td>L</td><td>r2</td></tr></tbody></table>\n<table \
        data-zs-view=\"citation-items\"><thead><tr><th>Reference</th><th>Function</th><th>Role</th><th>Topic</th>\
        <th>Usage</th><th>Summary</th></tr></thead><tbody><tr><td>r1</td><td>f</td><td></td><td></td><td></td>\
        <td></td></tr></tbody></table>";
    assert!(note.content.contains(view), "{}", note.content);
    assert_eq!(note.payload.format.as_str(), "json");
}

#[test]
fn a_score_shows_its_stars_radar_and_dimensions() {
    let dimension =
        |name: &str| json!({"name": name, "score": 50, "confidence": null, "summary": "s"});
    let score = json!({"overall_score": 73, "paper_type": "empirical", "confidence": 0.8,
        "confidence_adjusted_score": 70,
        "dimensions": [dimension("a"), dimension("b"), dimension("c"), dimension("d")]});
    let note = artifact_note("literature-score", &score).unwrap();
    for part in [
        "<p><strong>73/100</strong> (3.5/5 stars)</p>",
        "<p>Paper type: empirical · Confidence: 0.8 · Confidence-adjusted score: 70</p>",
        "<polygon points=\"320,162.5 407.5,250 320,337.5 232.5,250\" fill=\"#d28a00\"",
        "<tr><td>a</td><td>50</td><td>N/A</td><td>s</td></tr>",
    ] {
        assert!(note.content.contains(part), "{part}\n{}", note.content);
    }
    let bare = artifact_note("literature-score", &json!({"total": 3})).unwrap();
    assert!(
        bare.content.contains("<pre>{\"total\":3}</pre>"),
        "{}",
        bare.content
    );
}
