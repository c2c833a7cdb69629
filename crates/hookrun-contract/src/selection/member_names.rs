//! Member names an item's text holds as two-byte codes.
//!
//! Zotero's export repeats the same member names in every item (`key`,
//! `itemType`, `data`, `abstractNote`, `creators`, …): in a selection of
//! attachments with their parents they are about two fifths of the text. An
//! [`ItemJson`](super::ItemJson) writes a member whose name is listed here as two
//! bytes instead of `"name":`: a byte below `0x20`, which compact JSON never holds
//! (a string writes control characters escaped), then a printable ASCII byte. The
//! text stays UTF-8, a string member's characters stay where they were written,
//! and the text is written out in full whenever it leaves the item.

use std::borrow::Cow;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::LazyLock;

/// Zotero's fields (every item type's, and the base fields), its export's other
/// members, the members of creators, tags and annotations, and a selection item's
/// own members.
const NAMES: [&str; 162] = [
    "DOI",
    "ISBN",
    "ISSN",
    "abstractNote",
    "accessDate",
    "annotationAuthorName",
    "annotationColor",
    "annotationComment",
    "annotationIsExternal",
    "annotationPageLabel",
    "annotationPosition",
    "annotationSortIndex",
    "annotationText",
    "annotationType",
    "applicationNumber",
    "archive",
    "archiveID",
    "archiveLocation",
    "artworkMedium",
    "artworkSize",
    "assignee",
    "attachments",
    "audioFileType",
    "audioRecordingFormat",
    "authority",
    "billNumber",
    "blogTitle",
    "bookTitle",
    "callNumber",
    "caseName",
    "charset",
    "children",
    "citationKey",
    "code",
    "codeNumber",
    "codePages",
    "codeVolume",
    "collections",
    "committee",
    "company",
    "conferenceName",
    "contentType",
    "country",
    "court",
    "creatorType",
    "creators",
    "data",
    "date",
    "dateAdded",
    "dateDecided",
    "dateEnacted",
    "dateModified",
    "deleted",
    "dictionaryTitle",
    "distributor",
    "docketNumber",
    "documentNumber",
    "edition",
    "encyclopediaTitle",
    "episodeNumber",
    "extra",
    "filePath",
    "filename",
    "filingDate",
    "firstName",
    "firstPage",
    "format",
    "forumTitle",
    "genre",
    "history",
    "id",
    "identifier",
    "inPublications",
    "institution",
    "interviewMedium",
    "issue",
    "issueDate",
    "issuingAuthority",
    "item",
    "itemType",
    "journalAbbreviation",
    "key",
    "kind",
    "label",
    "language",
    "lastName",
    "legalStatus",
    "legislativeBody",
    "letterType",
    "libraryCatalog",
    "libraryID",
    "libraryId",
    "linkMode",
    "manuscriptType",
    "mapType",
    "md5",
    "medium",
    "meetingName",
    "mimeType",
    "mtime",
    "name",
    "nameOfAct",
    "network",
    "note",
    "notes",
    "numPages",
    "number",
    "numberOfVolumes",
    "organization",
    "pages",
    "parent",
    "parentItem",
    "parentItemID",
    "parentRef",
    "patentNumber",
    "path",
    "place",
    "postType",
    "presentationType",
    "priorityNumbers",
    "proceedingsTitle",
    "programTitle",
    "programmingLanguage",
    "publicLawNumber",
    "publicationTitle",
    "publisher",
    "ref",
    "references",
    "relations",
    "reportNumber",
    "reportType",
    "reporter",
    "reporterVolume",
    "repository",
    "repositoryLocation",
    "rights",
    "runningTime",
    "scale",
    "section",
    "series",
    "seriesNumber",
    "seriesText",
    "seriesTitle",
    "session",
    "shortTitle",
    "status",
    "studio",
    "subject",
    "system",
    "tag",
    "tags",
    "thesisType",
    "title",
    "type",
    "university",
    "url",
    "version",
    "versionNumber",
    "videoRecordingFormat",
    "volume",
    "websiteTitle",
    "websiteType",
];

/// A code's first byte: `0x01` to `0x1f`.
const FIRST: u8 = 0x01;
/// A code's second byte: `0x20` to `0x7e`.
const SECOND: u8 = 0x20;
/// How many second bytes there are.
const SECONDS: usize = 0x7f - SECOND as usize;

const _: () = assert!(NAMES.len() <= (0x20 - FIRST as usize) * SECONDS);

/// FNV-1a: the names are short and few, and not chosen by whoever writes the
/// selection (its names only look names up).
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        let mut hash = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for byte in bytes {
            hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = hash;
    }
}

/// The code of each listed name.
static CODES: LazyLock<HashMap<&'static str, [u8; 2], BuildHasherDefault<Fnv>>> =
    LazyLock::new(|| {
        NAMES
            .iter()
            .enumerate()
            .map(|(i, name)| {
                // Both fit a byte: `NAMES` is checked against the codes there are.
                let first = FIRST + (i / SECONDS) as u8;
                let second = SECOND + (i % SECONDS) as u8;
                (*name, [first, second])
            })
            .collect()
    });

/// Each listed name as JSON writes it as a key: `"name":`.
static KEYS: LazyLock<Vec<Box<str>>> = LazyLock::new(|| {
    NAMES
        .iter()
        .map(|name| format!("\"{name}\":").into())
        .collect()
});

/// The code of member name `name`, when it is listed.
fn code(name: &str) -> Option<[u8; 2]> {
    CODES.get(name).copied()
}

/// The number of the name whose code starts `bytes`.
fn index(bytes: &[u8]) -> Option<usize> {
    match *bytes {
        [first @ FIRST..=0x1f, second @ SECOND..=0x7e, ..] => {
            let i = usize::from(first - FIRST) * SECONDS + usize::from(second - SECOND);
            (i < NAMES.len()).then_some(i)
        }
        _ => None,
    }
}

/// Writes a member's key and its colon: the name's code when it is listed,
/// else `"name":` as JSON writes it.
pub(super) fn write_key(out: &mut Vec<u8>, key: &str) {
    match code(key) {
        Some(code) => out.extend_from_slice(&code),
        None => {
            // Writing a string into a vector cannot fail.
            let _ = serde_json::to_writer(&mut *out, key);
            out.push(b':');
        }
    }
}

/// The JSON text of `packed`, its codes written out as `"name":`.
pub(super) fn unpack(packed: &str) -> Cow<'_, str> {
    let Some(mut at) = next_code(packed.as_bytes(), 0) else {
        return Cow::Borrowed(packed);
    };
    let mut out = String::with_capacity(packed.len() + packed.len() / 2);
    let mut from = 0;
    loop {
        out.push_str(&packed[from..at]);
        let Some(key) = index(&packed.as_bytes()[at..]).and_then(|i| KEYS.get(i)) else {
            // Not written by `write_key`: kept as it is.
            out.push_str(&packed[at..]);
            return Cow::Owned(out);
        };
        out.push_str(key);
        // Both bytes of a code are ASCII.
        from = at + 2;
        match next_code(packed.as_bytes(), from) {
            Some(next) => at = next,
            None => break,
        }
    }
    out.push_str(&packed[from..]);
    Cow::Owned(out)
}

/// Where the first byte of a code is in `bytes`, from `from` on: eight bytes at
/// a time, since an item's text is mostly values.
fn next_code(bytes: &[u8], from: usize) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([0x01; 8]);
    const HIGH: u64 = u64::from_ne_bytes([0x80; 8]);
    let rest = bytes.get(from..)?;
    let mut chunks = rest.chunks_exact(8);
    let mut offset = from;
    for chunk in chunks.by_ref() {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let word = u64::from_ne_bytes(word);
        // A byte below `SECOND` (0x20) sets its high bit here; a byte at or
        // above 0x80 (part of a UTF-8 character) is masked out by `!word`.
        if word.wrapping_sub(ONES * u64::from(SECOND)) & !word & HIGH != 0 {
            break;
        }
        offset += 8;
    }
    bytes[offset..]
        .iter()
        .position(|b| *b < SECOND)
        .map(|i| offset + i)
}

/// Whether `packed` may have a member named `name` (a name JSON writes without
/// escapes) at any depth: its code is there, or `"name":` is (a listed name is
/// always written as its code).
pub(super) fn may_have_key(packed: &str, name: &str) -> bool {
    match code(name) {
        // A code's first byte is nowhere else, so the pair is a code.
        Some(code) => packed.as_bytes().windows(2).any(|w| w == code),
        None => packed.contains(&format!("\"{name}\":")),
    }
}

/// Whether `packed` may have a member named `name` (as for
/// [`may_have_key`]) that holds anything but an empty array, at any depth;
/// read without parsing.
pub(super) fn may_have_filled(packed: &str, name: &str) -> bool {
    let Some(code) = code(name) else {
        return may_have_key(packed, name);
    };
    let bytes = packed.as_bytes();
    // A code stands for `"name":`, so the member's value follows it.
    bytes
        .windows(2)
        .enumerate()
        .any(|(at, pair)| pair == code && bytes.get(at + 2..at + 4) != Some(b"[]".as_slice()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_has_its_own_code_and_reads_back() {
        assert_eq!(CODES.len(), NAMES.len());
        for listed in NAMES {
            let code = code(listed).unwrap();
            assert!(code[0] < SECOND && (SECOND..=0x7e).contains(&code[1]));
            assert_eq!(index(&code).map(|i| NAMES[i]), Some(listed));
        }
        assert_eq!(code("notListed"), None);
        assert_eq!(index(b"\x1f~"), None);
        assert_eq!(index(b"\x01"), None);
    }

    #[test]
    fn keys_pack_and_unpack_to_the_json_text() {
        let mut out = b"{".to_vec();
        write_key(&mut out, "key");
        out.extend_from_slice(b"\"K\",");
        write_key(&mut out, "own");
        out.extend_from_slice(b"[],");
        write_key(&mut out, "odd \"one\"");
        out.extend_from_slice(b"1}");
        let packed = String::from_utf8(out).unwrap();
        assert_eq!(packed.len(), r#"{??"K","own":[],"odd \"one\"":1}"#.len());
        assert_eq!(unpack(&packed), r#"{"key":"K","own":[],"odd \"one\"":1}"#);
        assert!(may_have_key(&packed, "key"));
        assert!(may_have_key(&packed, "own"));
        assert!(!may_have_key(&packed, "tags"));
        assert!(!may_have_key(&packed, "K"));
        assert!(may_have_filled(&packed, "key"));
        assert!(!may_have_filled(&packed, "tags"));
    }

    #[test]
    fn a_member_holding_an_empty_array_is_told_from_a_filled_one() {
        let pack = |members: &[(&str, &str)]| {
            let mut out = b"{".to_vec();
            for (i, (key, value)) in members.iter().enumerate() {
                if i > 0 {
                    out.push(b',');
                }
                write_key(&mut out, key);
                out.extend_from_slice(value.as_bytes());
            }
            out.push(b'}');
            String::from_utf8(out).unwrap()
        };
        let empty = pack(&[("collections", "[]"), ("tags", "[]")]);
        assert!(!may_have_filled(&empty, "collections"));
        let inner = pack(&[("collections", r#"["C1"]"#)]);
        let nested = pack(&[("collections", "[]"), ("data", &inner)]);
        assert!(may_have_filled(&nested, "collections"));
        assert!(may_have_filled(
            &pack(&[("collections", "null")]),
            "collections"
        ));
        assert!(!may_have_filled(&pack(&[("tags", "[1]")]), "collections"));
        // A name without a code: whether it is there at all.
        assert!(may_have_filled(&pack(&[("own", "[]")]), "own"));
        assert!(matches!(unpack("{\"a\":1}"), Cow::Borrowed(_)));
    }

    #[test]
    fn finds_a_code_past_any_text() {
        for len in 0..40 {
            let text = "é".repeat(len / 2) + &"a~".repeat(len % 3);
            let packed = format!("{text}\x01!{text}");
            assert_eq!(next_code(packed.as_bytes(), 0), Some(text.len()));
            assert_eq!(next_code(packed.as_bytes(), text.len() + 1), None);
            assert_eq!(next_code(packed.as_bytes(), packed.len() + 1), None);
        }
    }
}
