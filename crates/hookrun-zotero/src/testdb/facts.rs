//! The item types, fields and creator types test databases know: a part of
//! Zotero's public schema, enough for every rule the tests check (base fields,
//! multipart dates, fields newer than Zotero 7's first schema).

/// Item types and their fields, in editor order.
pub(super) const ITEM_TYPES: &[(&str, &[&str])] = &[
    ("annotation", &[]),
    ("attachment", &["title", "accessDate", "url"]),
    ("note", &[]),
    (
        "journalArticle",
        &[
            "title",
            "abstractNote",
            "publicationTitle",
            "volume",
            "issue",
            "pages",
            "date",
            "language",
            "DOI",
            "ISSN",
            "shortTitle",
            "url",
            "accessDate",
            "PMID",
            "PMCID",
            "extra",
        ],
    ),
    (
        "book",
        &[
            "title",
            "abstractNote",
            "series",
            "edition",
            "place",
            "publisher",
            "date",
            "numPages",
            "ISBN",
            "url",
            "accessDate",
            "extra",
        ],
    ),
    (
        "bookSection",
        &[
            "title",
            "bookTitle",
            "publisher",
            "date",
            "pages",
            "ISBN",
            "url",
            "extra",
        ],
    ),
    (
        "case",
        &[
            "caseName",
            "court",
            "dateDecided",
            "docketNumber",
            "url",
            "extra",
        ],
    ),
    (
        "conferencePaper",
        &[
            "title",
            "proceedingsTitle",
            "conferenceName",
            "eventPlace",
            "date",
            "DOI",
            "url",
            "extra",
        ],
    ),
    (
        "patent",
        &["title", "filingDate", "issueDate", "patentNumber", "extra"],
    ),
    (
        "webpage",
        &[
            "title",
            "websiteTitle",
            "date",
            "url",
            "accessDate",
            "extra",
        ],
    ),
];

/// (item type, field, base field) for the type-specific fields above.
pub(super) const BASE_FIELDS: &[(&str, &str, &str)] = &[
    ("bookSection", "bookTitle", "publicationTitle"),
    ("case", "caseName", "title"),
    ("case", "court", "authority"),
    ("case", "dateDecided", "date"),
    ("case", "docketNumber", "number"),
    ("conferencePaper", "proceedingsTitle", "publicationTitle"),
    ("patent", "issueDate", "date"),
    ("patent", "patentNumber", "number"),
    ("webpage", "websiteTitle", "publicationTitle"),
];

/// Creator types.
pub(super) const CREATOR_TYPES: &[&str] = &[
    "author",
    "contributor",
    "editor",
    "translator",
    "seriesEditor",
    "bookAuthor",
    "inventor",
    "reviewedAuthor",
];

/// Every field name: the types' fields, then base fields no type lists, each once.
pub(super) fn field_names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = Vec::new();
    let listed = ITEM_TYPES
        .iter()
        .flat_map(|(_, fields)| fields.iter().copied());
    let bases = BASE_FIELDS.iter().map(|(_, _, base)| *base);
    for name in listed.chain(bases) {
        if !names.contains(&name) {
            names.push(name);
        }
    }
    names
}
