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
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

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

impl Edit {
    fn at(&self) -> usize {
        match *self {
            Edit::Reference { start, .. } => start,
            Edit::OpenLiteral { at } | Edit::CloseLiteral { at } => at,
        }
    }
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
            let scan = &mut self.scan;
            if scan.in_string && !scan.escaped && byte != b'"' && byte != b'\\' {
                // Most of a piece is string contents: skip to their next quote or escape.
                let rest = &scan.text[pos + 1 - scan.base..];
                scan.scanned = memchr::memchr2(b'"', b'\\', rest).map_or(end, |i| pos + 1 + i);
                continue;
            }
            if scan.in_string {
                if scan.escaped {
                    scan.escaped = false;
                } else if byte == b'\\' {
                    scan.escaped = true;
                } else if byte == b'"' {
                    scan.in_string = false;
                    if scan.string_is_name {
                        scan.name_read(pos);
                    }
                }
                continue;
            }
            match byte {
                b'{' | b'[' => scan.open_value(pos, byte == b'{'),
                b'}' | b']' => {
                    if let Some(closed) = scan.open.pop() {
                        self.close(closed, pos + 1, at, remember);
                    }
                }
                b',' => {
                    if let Some(top) = scan.open.last_mut() {
                        top.before += 1;
                        top.want_name = top.object;
                    }
                }
                b'"' => {
                    scan.in_string = true;
                    scan.string_start = pos;
                    scan.string_is_name = false;
                    if let Some(top) = scan.open.last_mut()
                        && top.want_name
                    {
                        top.want_name = false;
                        scan.string_is_name = true;
                    }
                }
                _ => {}
            }
        }
    }

    /// Handles the object or array `closed` that ends at `end`.
    fn close(&mut self, closed: Open, end: usize, at: &[&str], remember: bool) {
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

    /// The place of the value just closed: the piece's own, or one step from
    /// the value still open around it.
    fn place_of_closed(&mut self, at: &[&str]) -> u32 {
        match self.scan.open.len() {
            0 => self.piece_place(at),
            depth => {
                let parent = self.place_of_open(at, depth - 1);
                let step = self.step(depth - 1);
                self.new_place(parent, step)
            }
        }
    }

    /// The place of the open value at `depth` (0: the piece's outermost).
    fn place_of_open(&mut self, at: &[&str], depth: usize) -> u32 {
        if let Some(place) = self.scan.open[depth].place {
            return place;
        }
        let place = match depth {
            0 => self.piece_place(at),
            _ => {
                let parent = self.place_of_open(at, depth - 1);
                let step = self.step(depth - 1);
                self.new_place(parent, step)
            }
        };
        self.scan.open[depth].place = Some(place);
        place
    }

    /// The step from the open value at `depth` to its current member or element.
    fn step(&mut self, depth: usize) -> Step {
        let open = &self.scan.open[depth];
        if !open.object {
            return Step::Index(open.before);
        }
        let raw = &self.scan.open_names[open.name_from..open.name_from + open.name_len];
        let name: String = match std::str::from_utf8(raw) {
            Ok(plain) if !plain.contains('\\') => plain.to_string(),
            _ => {
                let mut quoted = Vec::with_capacity(raw.len() + 2);
                quoted.push(b'"');
                quoted.extend_from_slice(raw);
                quoted.push(b'"');
                serde_json::from_slice(&quoted).unwrap_or_default()
            }
        };
        Step::Member(self.name_id(name))
    }

    fn name_id(&mut self, name: String) -> u32 {
        if let Some(&id) = self.name_ids.get(name.as_str()) {
            return id;
        }
        let id = self.names.len() as u32;
        let name: Box<str> = name.into();
        self.names.push(name.clone());
        self.name_ids.insert(name, id);
        id
    }

    fn piece_place(&mut self, at: &[&str]) -> u32 {
        if let Some(place) = self.scan.place {
            return place;
        }
        let mut place = 0;
        for token in at {
            let step = match token.parse::<u32>() {
                Ok(index) if index < INDEX_STEP => Step::Index(index),
                _ => Step::Member(self.name_id(token.to_string())),
            };
            place = self.new_place(place, step);
        }
        self.scan.place = Some(place);
        place
    }

    fn new_place(&mut self, parent: u32, step: Step) -> u32 {
        let step = match step {
            Step::Index(index) => index | INDEX_STEP,
            Step::Member(id) => id,
        };
        self.places.push(Place { parent, step });
        (self.places.len() - 1) as u32
    }

    /// The JSON Pointer of `place`.
    fn pointer(&self, mut place: u32) -> String {
        let mut steps = Vec::new();
        while place != 0 {
            let Place { parent, step } = self.places[place as usize];
            steps.push(step);
            place = parent;
        }
        let mut pointer = String::new();
        for step in steps.iter().rev() {
            pointer.push('/');
            match *step {
                index if index & INDEX_STEP != 0 => {
                    pointer.push_str(&(index & !INDEX_STEP).to_string())
                }
                id => push_token(&mut pointer, &self.names[id as usize]),
            }
        }
        pointer
    }
}

impl Scan {
    fn reset(&mut self) {
        self.text.clear();
        self.base = 0;
        self.written = 0;
        self.scanned = 0;
        self.in_string = false;
        self.escaped = false;
        self.open.clear();
        self.open_names.clear();
        self.descendants.clear();
        self.descendants_done = 0;
        self.edits.clear();
        self.edits_done = 0;
        self.remembered.clear();
        self.remembered_done = 0;
        self.place = None;
    }

    fn open_value(&mut self, pos: usize, object: bool) {
        self.open.push(Open {
            start: pos,
            object,
            before: 0,
            name_from: self.open_names.len(),
            name_len: 0,
            want_name: object,
            literal: false,
            place: None,
            descendants_from: self.descendants_done + self.descendants.len(),
            edits_from: self.edits_done + self.edits.len(),
            remembered_from: self.remembered_done + self.remembered.len(),
        });
    }

    /// Takes the member name whose closing quote is at `pos`.
    fn name_read(&mut self, pos: usize) {
        let Some(top) = self.open.last_mut() else {
            return;
        };
        let name = &self.text[self.string_start + 1 - self.base..pos - self.base];
        self.open_names.truncate(top.name_from);
        self.open_names.extend_from_slice(name);
        top.name_len = name.len();
        if top.before == 0 && (name == b"$ref" || name == b"$literal") {
            top.literal = true;
            self.edits.push_back(Edit::OpenLiteral { at: top.start });
        }
    }

    /// The digest of the value `closed` that ends at `end`: its text, each
    /// descendant of shared size standing as `0xFF` and its digest.
    fn fingerprint(&self, salt: &[u8; 16], closed: &Open, end: usize) -> Fingerprint {
        let mut hash = Sha256::new();
        hash.update(salt);
        let mut from = closed.start;
        let first = closed.descendants_from - self.descendants_done;
        for descendant in self.descendants.range(first..) {
            hash.update(&self.text[from - self.base..descendant.start - self.base]);
            hash.update([0xFF]);
            hash.update(descendant.fingerprint.to_le_bytes());
            from = descendant.end;
        }
        hash.update(&self.text[from - self.base..end - self.base]);
        let digest: [u8; 32] = hash.finalize().into();
        let mut first = [0; 8];
        first.copy_from_slice(&digest[..8]);
        u64::from_le_bytes(first)
    }

    /// Where the bytes that may still change start: at the outermost open
    /// value small enough to become a reference, or at a member name being
    /// read.
    fn hold(&self) -> usize {
        let end = self.base + self.text.len();
        let open = self
            .open
            .iter()
            .find(|open| end - open.start <= MAX_SHARED_BYTES)
            .map_or(end, |open| open.start);
        match self.in_string && self.string_is_name {
            true => open.min(self.string_start),
            false => open,
        }
    }

    /// Writes out the bytes up to `upto` with their edits.
    fn write_out(&mut self, out: &mut impl Write, upto: usize) -> io::Result<()> {
        let mut from = self.written;
        // An edit at `upto` belongs to the bytes after it, but for the end of a
        // closed literal.
        let due = |edit: &Edit| match *edit {
            Edit::CloseLiteral { at } => at <= upto,
            _ => edit.at() < upto,
        };
        while self.edits.front().is_some_and(due) {
            let Some(edit) = self.edits.pop_front() else {
                break;
            };
            self.edits_done += 1;
            out.write_all(&self.text[from - self.base..edit.at() - self.base])?;
            from = match edit {
                Edit::Reference { end, pointer, .. } => {
                    out.write_all(b"{\"$ref\":")?;
                    serde_json::to_writer(&mut *out, &pointer)?;
                    out.write_all(b"}")?;
                    end
                }
                Edit::OpenLiteral { at } => {
                    out.write_all(b"{\"$literal\":")?;
                    at
                }
                Edit::CloseLiteral { at } => {
                    out.write_all(b"}")?;
                    at
                }
            };
        }
        out.write_all(&self.text[from - self.base..upto - self.base])?;
        self.written = upto;
        // What starts before `upto` is not inside a value that may still
        // become a reference or be hashed, so it is never taken back or needed.
        while self
            .remembered
            .front()
            .is_some_and(|&(start, _)| start < upto)
        {
            self.remembered.pop_front();
            self.remembered_done += 1;
        }
        while self.descendants.front().is_some_and(|d| d.start < upto) {
            self.descendants.pop_front();
            self.descendants_done += 1;
        }
        // Let go of the written bytes once they are most of the text, keeping
        // a member name being read.
        let keep = match self.in_string {
            true => self.string_start.min(upto),
            false => upto,
        };
        if keep - self.base >= WRITE_OUT_BYTES && keep - self.base >= self.text.len() / 2 {
            self.text.drain(..keep - self.base);
            self.base = keep;
        }
        Ok(())
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

/// Why a report's references could not be resolved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RefError {
    /// An object whose only member is `$ref` or `$literal` holds something
    /// else than a pointer or an object.
    #[error(
        "{at}: `{member}` must hold {expected}; an object of the data with only this member is written as {{\"$literal\": …}}"
    )]
    Malformed {
        /// Where, as a JSON Pointer.
        at: String,
        /// `$ref` or `$literal`.
        member: &'static str,
        /// What the member must hold.
        expected: &'static str,
    },
    /// A reference's pointer names no value written before it.
    #[error("{at}: reference to {pointer}: {reason}")]
    Unresolved {
        /// Where the reference is, as a JSON Pointer.
        at: String,
        /// The pointer it holds.
        pointer: String,
        /// What is wrong with it.
        reason: &'static str,
    },
}

/// How many references a resolution may follow inside one another: a
/// report's references never nest, so this only stops a loop.
const MAX_REF_DEPTH: usize = 64;

/// The report `report` with every reference replaced by a copy of what it
/// refers to and every `$literal` wrapper unwrapped: the report as written
/// without references. A report without references comes back as it is.
pub fn resolve_refs(report: &Value) -> Result<Value, RefError> {
    Resolver {
        root: report,
        resolved: HashMap::new(),
        path: Vec::new(),
        following: 0,
    }
    .resolve(report)
}

/// What an object of a report with references stands for.
enum Shape<'a> {
    Reference(&'a str),
    Literal(&'a Map<String, Value>),
    Object(&'a Map<String, Value>),
}

/// A step of the path to the value being resolved, written out only for an
/// error.
#[derive(Clone, Copy)]
enum Token<'a> {
    Name(&'a str),
    Index(usize),
    /// A token of a pointer the report holds, escaped already.
    Escaped(&'a str),
}

struct Resolver<'a> {
    root: &'a Value,
    /// Targets already resolved, by pointer.
    resolved: HashMap<String, Value>,
    /// Where the value being resolved is.
    path: Vec<Token<'a>>,
    following: usize,
}

impl<'a> Resolver<'a> {
    fn resolve(&mut self, value: &'a Value) -> Result<Value, RefError> {
        match value {
            Value::Object(map) => match self.shape(map)? {
                Shape::Reference(pointer) => self.follow(pointer),
                Shape::Literal(map) | Shape::Object(map) => {
                    let mut out = Map::with_capacity(map.len());
                    for (name, member) in map {
                        self.path.push(Token::Name(name));
                        let member = self.resolve(member);
                        self.path.pop();
                        out.insert(name.clone(), member?);
                    }
                    Ok(Value::Object(out))
                }
            },
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (index, item) in items.iter().enumerate() {
                    self.path.push(Token::Index(index));
                    let item = self.resolve(item);
                    self.path.pop();
                    out.push(item?);
                }
                Ok(Value::Array(out))
            }
            scalar => Ok(scalar.clone()),
        }
    }

    fn shape(&self, map: &'a Map<String, Value>) -> Result<Shape<'a>, RefError> {
        if map.len() != 1 {
            return Ok(Shape::Object(map));
        }
        match map.iter().next() {
            Some((name, held)) if name == "$ref" => match held {
                Value::String(pointer) => Ok(Shape::Reference(pointer)),
                _ => Err(self.malformed("$ref", "a JSON Pointer string")),
            },
            Some((name, held)) if name == "$literal" => match held {
                Value::Object(map) => Ok(Shape::Literal(map)),
                _ => Err(self.malformed("$literal", "an object")),
            },
            _ => Ok(Shape::Object(map)),
        }
    }

    fn malformed(&self, member: &'static str, expected: &'static str) -> RefError {
        RefError::Malformed {
            at: self.here(),
            member,
            expected,
        }
    }

    fn here(&self) -> String {
        let mut at = String::new();
        for token in &self.path {
            at.push('/');
            match *token {
                Token::Name(name) => push_token(&mut at, name),
                Token::Index(index) => at.push_str(&index.to_string()),
                Token::Escaped(token) => at.push_str(token),
            }
        }
        at
    }

    fn follow(&mut self, pointer: &'a str) -> Result<Value, RefError> {
        if let Some(done) = self.resolved.get(pointer) {
            return Ok(done.clone());
        }
        let unresolved = |reason| RefError::Unresolved {
            at: self.here(),
            pointer: pointer.to_string(),
            reason,
        };
        if self.following == MAX_REF_DEPTH {
            return Err(unresolved("the references refer to each other in a loop"));
        }
        let target = self.find(pointer).map_err(unresolved)?;
        self.following += 1;
        let saved = std::mem::replace(
            &mut self.path,
            pointer.split('/').skip(1).map(Token::Escaped).collect(),
        );
        let value = self.resolve(target);
        self.path = saved;
        self.following -= 1;
        let value = value?;
        self.resolved.insert(pointer.to_string(), value.clone());
        Ok(value)
    }

    /// The written value `pointer` names in the resolved report.
    fn find(&self, pointer: &str) -> Result<&'a Value, &'static str> {
        let tokens = pointer
            .strip_prefix('/')
            .ok_or("a pointer starts with `/`")?;
        let mut here = self.root;
        for token in tokens.split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            here = match here {
                Value::Object(map) => {
                    let map = match self.shape(map) {
                        Ok(Shape::Literal(map) | Shape::Object(map)) => map,
                        Ok(Shape::Reference(_)) => return Err("it goes through a reference"),
                        Err(_) => return Err("it goes through a malformed wrapper"),
                    };
                    map.get(&token).ok_or("no such member")?
                }
                Value::Array(items) => token
                    .parse::<usize>()
                    .ok()
                    .and_then(|index| items.get(index))
                    .ok_or("no such element")?,
                _ => return Err("it goes into a string, number, boolean or null"),
            };
        }
        Ok(here)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

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
