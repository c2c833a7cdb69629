//! Reports that write a repeated value once.
//!
//! A run report repeats each unit's selection: a candidate's scoped context
//! and value and the unit's context in the plan, then the request, the result
//! and the response of each of its jobs. With references (`hookrun run --json
//! --refs`, [`JsonReportWriter::with_refs`](super::JsonReportWriter::with_refs)),
//! an object or array of [`MIN_SHARED_BYTES`] to [`MAX_SHARED_BYTES`] bytes of
//! compact JSON is written in full where it first occurs and as
//!
//! ```json
//! {"$ref": "/plan/candidates/0/value"}
//! ```
//!
//! wherever the same value occurs again: the member is an RFC 6901 JSON
//! Pointer to the first occurrence, in the report as it reads with every
//! reference resolved. A reference always points backwards, to a place
//! written before it, and never into a place that is itself a reference. So
//! that no value a hook returns reads as a reference, an object whose first
//! member is named `$ref` or `$literal` is written as `{"$literal": <the
//! object>}`. [`resolve_refs`] turns a report with references back into the
//! report written without them:
//!
//! ```
//! use hookrun::run::refs::{RefEncoder, resolve_refs};
//! use serde_json::json;
//!
//! let selection = json!({"items": [{"key": "A0000000", "title": "A study of things, part 0",
//!     "abstractNote": "We study the convergence of things under mild assumptions."}]});
//! let report = json!({"plan": {"context": selection}, "request": {"selection": selection}});
//! let mut text = Vec::new();
//! RefEncoder::new().write(&mut text, &[], &report, true)?;
//! let written: serde_json::Value = serde_json::from_slice(&text)?;
//! assert_eq!(written["request"]["selection"], json!({"$ref": "/plan/context"}));
//! assert_eq!(resolve_refs(&written)?, report);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Values are told apart by a digest of their compact JSON (64 bits of SHA-256
//! keyed with a secret of the encoder's), so equal values are found however
//! far apart they are. The encoder writes as the
//! value is serialised, holding back at most the open values that may still
//! turn out to be repeats (each at most [`MAX_SHARED_BYTES`]), and remembers
//! the first [`MAX_SHARED_VALUES`] values it meets (a digest and a place,
//! about 30 bytes, each); it writes later new values in full.

use std::collections::{HashMap, VecDeque};
use std::hash::BuildHasher;
use std::io::{self, Write};

use serde::Serialize;

mod places;
mod resolve;
mod scan;

pub use resolve::{RefError, resolve_refs};

/// The fewest bytes of compact JSON an object or array has for a repeat of
/// it to be written as a reference.
pub const MIN_SHARED_BYTES: usize = 128;

/// The most bytes of compact JSON an object or array has for a repeat of it
/// to be written as a reference; larger values are written in full.
pub const MAX_SHARED_BYTES: usize = 1 << 20;

/// The most values a [`RefEncoder`] remembers; it writes values it meets after
/// that in full unless they repeat one it remembers.
pub const MAX_SHARED_VALUES: usize = 7 << 18;

/// Bytes are scanned, and those that may be written out are, once there are
/// this many.
const WRITE_OUT_BYTES: usize = 16 << 10;

/// A value's digest: the first 64 bits of SHA-256 of a secret of the encoder's
/// and the value's compact JSON, in which each shared-size descendant's text
/// stands as `0xFF` and that descendant's digest. Without the secret, values
/// cannot be made to share one on purpose.
type Fingerprint = u64;

type FastMap<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// One step of a place: a member name (interned) or an array index.
#[derive(Clone, Copy)]
enum Step {
    Member(u32),
    Index(u32),
}

/// Marks an index in a [`Place`]'s step.
const INDEX_STEP: u32 = 1 << 31;

/// A place in the document: its parent place and the step from there (an
/// index or'ed with [`INDEX_STEP`], or a name's id). Place 0 is the document
/// itself.
#[derive(Clone, Copy)]
struct Place {
    parent: u32,
    step: u32,
}

/// An open object or array while a piece is scanned. Positions count bytes
/// from the piece's start; `*_from` fields count the entries of a list pushed
/// before this value opened.
struct Open {
    start: usize,
    object: bool,
    /// Members or elements before the current one.
    before: u32,
    /// An object's current member name: where it starts in `open_names` and its
    /// length (JSON string contents, escapes as written).
    name_from: usize,
    name_len: usize,
    /// Whether the next string is a member name.
    want_name: bool,
    /// Whether the object is written inside `{"$literal": …}`.
    literal: bool,
    /// The place of this value, once needed.
    place: Option<u32>,
    descendants_from: usize,
    edits_from: usize,
    remembered_from: usize,
}

/// A closed descendant of shared size, with its digest.
struct Descendant {
    start: usize,
    end: usize,
    fingerprint: Fingerprint,
}

/// A change to a piece's compact JSON as it is written.
enum Edit {
    /// Replace `start..end` by a reference to `pointer`.
    Reference {
        start: usize,
        end: usize,
        pointer: String,
    },
    /// Insert `{"$literal":` at `at`.
    OpenLiteral { at: usize },
    /// Insert `}` at `at`.
    CloseLiteral { at: usize },
}

/// Writes the pieces of one JSON document, each value that repeats one
/// written before as a reference to it; see the module docs.
pub struct RefEncoder {
    seen: FastMap<Fingerprint, u32>,
    /// The secret every digest starts with.
    salt: [u8; 16],
    places: Vec<Place>,
    names: Vec<Box<str>>,
    name_ids: FastMap<Box<str>, u32>,
    scan: Scan,
}

/// The state of writing one piece.
#[derive(Default)]
struct Scan {
    /// The piece's bytes from `base` on: those not yet written out and those
    /// written out but kept until there are enough to let go of.
    text: Vec<u8>,
    base: usize,
    /// The piece's bytes written out, and those scanned.
    written: usize,
    scanned: usize,
    /// Inside a string; after its backslash; where it started; whether it
    /// is a member name.
    in_string: bool,
    escaped: bool,
    string_start: usize,
    string_is_name: bool,
    open: Vec<Open>,
    /// The open values' current member names, outermost first.
    open_names: Vec<u8>,
    /// Descendants a value still open may need for its digest, and how many
    /// were let go of before.
    descendants: VecDeque<Descendant>,
    descendants_done: usize,
    /// Edits not yet applied, in order, and how many were applied before.
    edits: VecDeque<Edit>,
    edits_done: usize,
    /// Values this piece remembered that a later reference to an open value
    /// may still take back (by start), and how many were let go of before.
    remembered: VecDeque<(usize, Fingerprint)>,
    remembered_done: usize,
    /// The place of the piece, once needed.
    place: Option<u32>,
}

impl Default for RefEncoder {
    fn default() -> Self {
        RefEncoder::new()
    }
}

/// A [`RefEncoder`] writing one piece to `out`.
struct Piece<'e, 'p, W: Write> {
    encoder: &'e mut RefEncoder,
    out: &'e mut W,
    at: &'p [&'p str],
    remember: bool,
}

impl<W: Write> Write for Piece<'_, '_, W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.encoder.scan.text.extend_from_slice(bytes);
        let scan = &self.encoder.scan;
        if scan.base + scan.text.len() - scan.scanned >= WRITE_OUT_BYTES {
            self.encoder.scan_new(self.at, self.remember);
            let scan = &mut self.encoder.scan;
            let hold = scan.hold();
            if hold.saturating_sub(scan.written) >= WRITE_OUT_BYTES {
                scan.write_out(self.out, hold)?;
            }
        }
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl RefEncoder {
    /// An encoder that has seen nothing yet.
    pub fn new() -> RefEncoder {
        RefEncoder {
            seen: FastMap::default(),
            places: vec![Place { parent: 0, step: 0 }],
            salt: {
                let random = std::collections::hash_map::RandomState::new();
                let mut salt = [0; 16];
                salt[..8].copy_from_slice(&random.hash_one(1u8).to_le_bytes());
                salt[8..].copy_from_slice(&random.hash_one(2u8).to_le_bytes());
                salt
            },
            names: Vec::new(),
            name_ids: FastMap::default(),
            scan: Scan::default(),
        }
    }

    /// Writes `value` as the piece of the document at `at` (its pointer's
    /// tokens, document first: `&["units", "3"]`), repeats of values written
    /// before as references. With `remember`, the values of this piece can be
    /// referred to by later pieces; a piece that the document places after
    /// pieces written later (a list kept aside) must not be remembered.
    pub fn write(
        &mut self,
        out: &mut impl Write,
        at: &[&str],
        value: &impl Serialize,
        remember: bool,
    ) -> io::Result<()> {
        self.scan.reset();
        let mut piece = Piece {
            encoder: self,
            out,
            at,
            remember,
        };
        crate::selection::write_compact(&mut piece, value).map_err(io::Error::from)?;
        self.scan_new(at, remember);
        let end = self.scan.base + self.scan.text.len();
        self.scan.write_out(out, end)
    }

    /// Scans the bytes added since the last scan.
    fn scan_new(&mut self, at: &[&str], remember: bool) {
        let end = self.scan.base + self.scan.text.len();
        while self.scan.scanned < end {
            let pos = self.scan.scanned;
            let byte = self.scan.text[pos - self.scan.base];
            self.scan.scanned += 1;
            if self.scan.in_string {
                self.scan.string_byte(pos, byte, end);
                continue;
            }
            match byte {
                b'{' | b'[' => self.scan.open_value(pos, byte != b'['),
                b'}' | b']' => self.close(pos + 1, at, remember),
                b',' => self.scan.next_entry(),
                b'"' => self.scan.open_string(pos),
                _ => {}
            }
        }
    }

    /// Handles the innermost open object or array, which ends at `end`.
    fn close(&mut self, end: usize, at: &[&str], remember: bool) {
        let Some(closed) = self.scan.open.pop() else {
            return;
        };
        let start = closed.start;
        let shared = (MIN_SHARED_BYTES..=MAX_SHARED_BYTES).contains(&(end - start));
        let parent_holds = self
            .scan
            .open
            .last()
            .is_none_or(|parent| end - parent.start <= MAX_SHARED_BYTES);
        let fingerprint = shared.then(|| self.scan.fingerprint(&self.salt, &closed, end));
        let scan = &mut self.scan;
        scan.descendants.truncate(
            closed
                .descendants_from
                .saturating_sub(scan.descendants_done),
        );
        if let Some(fingerprint) = fingerprint {
            if parent_holds {
                self.scan.descendants.push_back(Descendant {
                    start,
                    end,
                    fingerprint,
                });
            }
            if let Some(&first) = self.seen.get(&fingerprint) {
                let pointer = self.pointer(first);
                if pointer.len() + 12 < end - start {
                    self.refer(&closed, end, pointer);
                    return;
                }
            } else if remember
                && self.seen.len() < MAX_SHARED_VALUES
                && self.places.len() < 4 * MAX_SHARED_VALUES
                && self.scan.open.iter().all(|open| open.before < INDEX_STEP)
            {
                let place = self.place_of_closed(at);
                self.seen.insert(fingerprint, place);
                self.scan.remembered.push_back((start, fingerprint));
            }
        }
        if closed.literal {
            self.scan.edits.push_back(Edit::CloseLiteral { at: end });
        }
    }

    /// Writes `closed`, which ends at `end`, as a reference to `pointer`:
    /// what was remembered or changed inside it is not written.
    fn refer(&mut self, closed: &Open, end: usize, pointer: String) {
        let scan = &mut self.scan;
        scan.edits
            .truncate(closed.edits_from.saturating_sub(scan.edits_done));
        let keep = closed.remembered_from.saturating_sub(scan.remembered_done);
        for (_, inner) in scan.remembered.drain(keep.min(scan.remembered.len())..) {
            self.seen.remove(&inner);
        }
        scan.edits.push_back(Edit::Reference {
            start: closed.start,
            end,
            pointer,
        });
    }
}

/// Appends `token` to `pointer`, `~` and `/` escaped as RFC 6901 says.
fn push_token(pointer: &mut String, token: &str) {
    if token.contains(['~', '/']) {
        pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
    } else {
        pointer.push_str(token);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn long(n: usize) -> String {
        "x".repeat(n)
    }

    /// The pieces written by one encoder as the members of one object.
    fn encode(pieces: &[(&str, Value, bool)]) -> Value {
        let mut encoder = RefEncoder::new();
        let mut text = b"{".to_vec();
        for (i, (name, value, remember)) in pieces.iter().enumerate() {
            if i > 0 {
                text.push(b',');
            }
            serde_json::to_writer(&mut text, name).unwrap();
            text.push(b':');
            encoder.write(&mut text, &[name], value, *remember).unwrap();
        }
        text.push(b'}');
        serde_json::from_slice(&text).unwrap_or_else(|error| {
            panic!(
                "{error}: {}\n{}",
                String::from_utf8_lossy(&text),
                plain(pieces)
            )
        })
    }

    fn plain(pieces: &[(&str, Value, bool)]) -> Value {
        Value::Object(
            pieces
                .iter()
                .map(|(name, value, _)| (name.to_string(), value.clone()))
                .collect(),
        )
    }

    fn round_trip(pieces: &[(&str, Value, bool)]) -> Value {
        let written = encode(pieces);
        assert_eq!(resolve_refs(&written).unwrap(), plain(pieces));
        written
    }

    #[test]
    fn a_repeat_refers_to_the_first_occurrence() {
        let entry = json!({"item": {"key": "A1", "title": long(150)}, "mime": "application/pdf"});
        let written = round_trip(&[
            ("plan", json!({"candidates": [{"value": entry}]}), true),
            ("units", json!([{"request": {"selection": entry}}]), true),
        ]);
        assert_eq!(
            written["units"][0]["request"]["selection"],
            json!({"$ref": "/plan/candidates/0/value"})
        );
        // The first occurrence is written in full.
        assert_eq!(written["plan"]["candidates"][0]["value"], entry);
    }

    #[test]
    fn the_largest_repeat_is_referred_to_not_its_parts() {
        let item = json!({"key": "A1", "title": long(150)});
        let context = json!({"items": [item], "count": 1});
        let written = round_trip(&[
            ("a", json!({"item": item, "context": context}), true),
            ("b", json!({"context": context}), true),
        ]);
        // Inside `a`, the item repeats; `b` repeats the whole context.
        assert_eq!(
            written["a"]["context"]["items"][0],
            json!({"$ref": "/a/item"})
        );
        assert_eq!(written["b"]["context"], json!({"$ref": "/a/context"}));
    }

    #[test]
    fn a_part_of_a_repeat_refers_to_its_first_occurrence() {
        let inner = json!({"title": long(200)});
        let outer = json!({"inner": inner, "more": long(10)});
        let written = round_trip(&[
            ("a", outer.clone(), true),
            ("b", outer.clone(), true),
            ("c", inner.clone(), true),
        ]);
        // `b` is a reference; `b/inner` exists only resolved, so `c` refers to `a/inner`.
        assert_eq!(written["b"], json!({"$ref": "/a"}));
        assert_eq!(written["c"], json!({"$ref": "/a/inner"}));
    }

    #[test]
    fn small_values_and_strings_are_written_in_full() {
        let small = json!({"key": "A1"});
        let text = json!(long(300));
        let written = round_trip(&[
            ("a", json!([small, text]), true),
            ("b", json!([small, text, 1]), true),
        ]);
        assert_eq!(written["b"][0], small);
        assert_eq!(written["b"][1], text);
    }

    #[test]
    fn values_of_a_piece_not_remembered_are_never_targets() {
        let value = json!({"title": long(200)});
        let written = round_trip(&[
            ("effects", json!([value, value]), false),
            ("units", json!([value]), true),
            ("errors", json!([value, 2]), false),
        ]);
        assert_eq!(written["effects"], json!([value, value]));
        assert_eq!(written["errors"][0], json!({"$ref": "/units/0"}));
    }

    #[test]
    fn data_that_looks_like_a_reference_stays_data() {
        let pieces = [
            (
                "a",
                json!({
                    "fake": {"$ref": "/a"},
                    "wrapper": {"$literal": {"$ref": 1}},
                    "nested": {"$ref": {"$literal": {}}},
                    "more": {"$ref": "/a", "other": 1},
                }),
                true,
            ),
            ("b", json!([{"$ref": "/a"}]), true),
        ];
        let written = round_trip(&pieces);
        assert_eq!(written["a"]["fake"], json!({"$literal": {"$ref": "/a"}}));
        assert_eq!(
            written["a"]["nested"],
            json!({"$literal": {"$ref": {"$literal": {"$literal": {}}}}})
        );
        assert_eq!(
            written["a"]["more"],
            json!({"$literal": {"$ref": "/a", "other": 1}})
        );
    }

    #[test]
    fn member_names_are_escaped_in_pointers() {
        let value = json!({"title": long(200)});
        let written = round_trip(&[
            ("a", json!({"x/y~z": value, "quote\"d\\": [value]}), true),
            ("b", json!({"q": {"quote\"d\\": [value]}}), true),
        ]);
        assert_eq!(written["a"]["quote\"d\\"][0], json!({"$ref": "/a/x~1y~0z"}));
        assert_eq!(
            written["b"]["q"]["quote\"d\\"],
            json!({"$ref": "/a/quote\"d\\"})
        );
    }

    #[test]
    fn strings_with_brackets_and_quotes_do_not_confuse_the_scan() {
        let value = json!({"a": "}]{[\",\"", "b": [long(150), "\\\""]});
        round_trip(&[("a", json!([value, value]), true), ("b", value, true)]);
    }

    #[test]
    fn equal_text_in_other_values_is_told_apart() {
        // Same members in another order, and a number against its string.
        let first = json!({"a": long(100), "b": long(100)});
        let second = json!({"b": long(100), "a": long(100)});
        let written = round_trip(&[
            ("x", json!([first, second, {"n": 1, "t": long(150)}]), true),
            ("y", json!([{"n": "1", "t": long(150)}]), true),
        ]);
        assert_eq!(written["x"][1], second);
        assert_eq!(written["y"][0], json!({"n": "1", "t": long(150)}));
    }

    #[test]
    fn resolution_errors_say_where() {
        let error = |value: Value| resolve_refs(&value).unwrap_err().to_string();
        assert_eq!(
            error(json!({"a": [{"$ref": "/nowhere"}]})),
            "/a/0: reference to /nowhere: no such member"
        );
        assert!(error(json!({"a": {"$ref": "/a"}})).ends_with("refer to each other in a loop"));
        assert!(
            error(json!({"a": {"$ref": 3}})).starts_with("/a: `$ref` must hold a JSON Pointer")
        );
        assert!(
            error(json!({"a": {"$literal": []}})).starts_with("/a: `$literal` must hold an object")
        );
        assert!(
            error(json!({"a": {"b": {"$ref": "/c"}}, "c": {"$ref": "/a/b"}}))
                .ends_with("refer to each other in a loop")
        );
        assert_eq!(
            error(json!({"a": {"$ref": "/b"}, "b": {"c": {"$ref": "/a/x"}}})),
            "/b/c: reference to /a/x: it goes through a reference"
        );
    }

    #[test]
    fn pieces_larger_than_what_is_held_back_keep_their_references() {
        // Many units, each over the write-out size, in one piece larger than
        // a value that may become a reference: written while it is serialised.
        let units: Vec<Value> = (0..160)
            .map(|i| {
                let selection = json!({"key": format!("A{i}"), "text": long(30_000)});
                json!({"context": selection, "request": {"selection": selection, "n": i}})
            })
            .collect();
        let plan = json!({"units": units, "tail": [units[3]["context"], units[3]]});
        assert!(serde_json::to_vec(&plan).unwrap().len() > 2 * MAX_SHARED_BYTES);
        let written = round_trip(&[("plan", plan, true), ("again", json!([units[7]]), true)]);
        assert_eq!(
            written["plan"]["units"][159]["request"]["selection"],
            json!({"$ref": "/plan/units/159/context"})
        );
        assert_eq!(written["plan"]["tail"][1], json!({"$ref": "/plan/units/3"}));
        assert_eq!(written["again"][0], json!({"$ref": "/plan/units/7"}));
    }

    #[test]
    fn a_value_larger_than_what_is_held_back_is_written_in_full() {
        let big = json!({"text": long(MAX_SHARED_BYTES)});
        let written = round_trip(&[("a", big.clone(), true), ("b", big.clone(), true)]);
        assert_eq!(written["b"], big);
    }

    /// Random documents with repeats at every depth, names that need escaping
    /// and data shaped like references resolve to what was written.
    #[test]
    fn random_documents_with_repeats_resolve_to_themselves() {
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        for _ in 0..200 {
            let mut pool: Vec<Value> = Vec::new();
            let mut pieces = Vec::new();
            for name in ["plan", "units", "effects"] {
                let value = random_value(&mut next, &mut pool, 4);
                pieces.push((name, value, name != "effects"));
            }
            round_trip(&pieces);
        }
    }

    fn random_value(next: &mut impl FnMut(u64) -> u64, pool: &mut Vec<Value>, depth: u32) -> Value {
        if !pool.is_empty() && next(4) == 0 {
            return pool[next(pool.len() as u64) as usize].clone();
        }
        let names = ["$ref", "$literal", "a/b", "t~", "q\"", "x", "y", "zzz"];
        let value = match (depth, next(6)) {
            // Now and then a string long enough that bytes are written out
            // and let go of while the piece is scanned.
            (0, _) | (_, 0) => json!(long(match next(20) {
                0 => 20_000,
                n => n as usize * 4,
            })),
            (_, 1) => json!(next(1000)),
            (_, 2) | (_, 3) => Value::Array(
                (0..next(5))
                    .map(|_| random_value(next, pool, depth - 1))
                    .collect(),
            ),
            _ => Value::Object(
                (0..next(5))
                    .map(|_| {
                        let name = names[next(names.len() as u64) as usize].to_string();
                        (name, random_value(next, pool, depth - 1))
                    })
                    .collect(),
            ),
        };
        pool.push(value.clone());
        value
    }

    #[test]
    fn each_encoder_keys_its_digests_with_its_own_secret() {
        let value = json!({"title": long(200)});
        let digests = || {
            let mut encoder = RefEncoder::new();
            encoder.write(&mut Vec::new(), &[], &value, true).unwrap();
            encoder.seen.keys().copied().collect::<Vec<_>>()
        };
        let (first, second) = (digests(), digests());
        assert_eq!(first.len(), 1);
        assert_ne!(first, second);
    }

    #[test]
    fn a_report_without_references_resolves_to_itself() {
        let report = json!({"units": [{"a": [1, 2, {"b": null}]}], "x": "y"});
        assert_eq!(resolve_refs(&report).unwrap(), report);
    }
}
