//! Reading a grouped selection with each entry parsed from its own slice of the
//! text.
//!
//! `serde_json` reading from a reader takes every byte through a
//! position-counting iterator; reading from a slice is about twice as fast. The
//! splitter reads the text in blocks and cuts each entry of the grouped `items`
//! arrays out as a slice, parsed and read on its own; everything else (the
//! top-level members, each array left empty) is kept as text, the *skeleton*,
//! and read as [`stream`](super::stream) reads it. The text is never held whole:
//! only the skeleton and the entry being cut.
//!
//! It declines whatever it might not read exactly as the one-pass reader does:
//! text that is not JSON, an entry in error, a key of the root or `items` object
//! written with an escape, a repeated `items` or array member, nesting within
//! reach of `serde_json`'s limit, a skeleton beyond [`SKELETON_LIMIT`], a failed
//! read. The caller then reads the text again the one-pass way, so the result
//! and every error are that reader's.

use std::io::Read;

use serde_json::Value;

use super::SelectionContext;
use super::grouped::{GroupedEntry, GroupedSelection};
use super::json::{as_object, child, index};
use super::refs::ItemKind;
use super::stream::ReadError;

/// How much is read at a time.
const BLOCK: usize = 256 << 10;

/// The most text kept outside the entries (a canonical selection is all
/// skeleton): beyond it the one-pass reader, which holds no text, is used.
const SKELETON_LIMIT: usize = 32 << 20;

/// Nesting declined: well below `serde_json`'s limit of 128, which counts from
/// the root where an entry's own parse counts from the entry.
const MAX_DEPTH: usize = 100;

/// Entries handed to the helper thread at a time.
const BATCH: usize = 256;

/// Batches waiting for the helper thread at most: what is parsed ahead of its
/// checking is bounded.
const QUEUE: usize = 8;

/// Reads a SelectionContext from `reader`, or `None` where the one-pass reader
/// must (see the module's description). With `helper`, a second thread checks
/// the entries and builds what is kept of them while this one parses the text.
pub(crate) fn read(reader: impl Read, helper: bool) -> Option<Result<SelectionContext, ReadError>> {
    let (skeleton, arrays) = match helper {
        true => with_helper(reader)?,
        false => here(reader)?,
    };
    let skeleton = String::from_utf8(skeleton).ok()?;
    if arrays.is_empty() {
        // An error is the one-pass reader's to report: `serde_json` places some
        // (a number out of range) a column apart reading from a slice.
        return SelectionContext::from_text(&skeleton).ok().map(Ok);
    }
    let value: Value = serde_json::from_str(&skeleton).ok()?;
    let read = arrays.into_iter().map(|(k, e)| (k, Ok(e))).collect();
    as_object(&value, "")
        .and_then(|obj| GroupedSelection::parse_read(obj, read))
        .ok()
        .map(|g| Ok(SelectionContext::Grouped(g)))
}

/// [`read`]'s splitting, the entries checked on this thread.
fn here(reader: impl Read) -> Option<(Vec<u8>, Arrays)> {
    let mut checker = Checker::default();
    let skeleton = Splitter::new(Sink::Here(&mut checker)).run(reader)?;
    Some((skeleton, checker.finish()))
}

/// [`read`]'s splitting, the entries checked on a helper thread ([`here`] when
/// no thread can be started).
fn with_helper(reader: impl Read) -> Option<(Vec<u8>, Arrays)> {
    std::thread::scope(|scope| {
        let (to, from) = std::sync::mpsc::sync_channel::<Vec<Piece>>(QUEUE);
        let checking = std::thread::Builder::new()
            .name("hookrun-selection".into())
            .spawn_scoped(scope, move || {
                let mut checker = Checker::default();
                for piece in from.into_iter().flatten() {
                    checker.piece(piece)?;
                }
                Some(checker.finish())
            });
        let Ok(checking) = checking else {
            return here(reader);
        };
        let sink = Sink::Helper {
            batch: Vec::with_capacity(BATCH),
            to,
        };
        // The splitter's end drops the sender: the helper then finishes.
        let skeleton = Splitter::new(sink).run(reader);
        let arrays = checking.join().ok()??;
        Some((skeleton?, arrays))
    })
}

/// The entries read, array by array in the text's order.
type Arrays = Vec<(ItemKind, Vec<GroupedEntry>)>;

/// What the splitter hands on: an array's start, or one of its entries.
enum Piece {
    Array(ItemKind),
    Entry(Value),
}

/// Reads the pieces into entries.
#[derive(Default)]
struct Checker {
    arrays: Arrays,
    /// The pointer of the array being read, as the one-pass reader makes it.
    ptr: String,
}

impl Checker {
    fn piece(&mut self, piece: Piece) -> Option<()> {
        match piece {
            Piece::Array(kind) => {
                self.shrink_last();
                self.arrays.push((kind, Vec::new()));
                self.ptr = child(&child("", "items"), kind.array_name());
            }
            Piece::Entry(value) => {
                let (kind, entries) = self.arrays.last_mut()?;
                let ptr = index(&self.ptr, entries.len());
                entries.push(GroupedEntry::parse(*kind, &value, &ptr).ok()?);
            }
        }
        Some(())
    }

    /// Kept for the whole run: without the room they grew into.
    fn shrink_last(&mut self) {
        if let Some((_, entries)) = self.arrays.last_mut() {
            entries.shrink_to_fit();
        }
    }

    fn finish(mut self) -> Arrays {
        self.shrink_last();
        self.arrays
    }
}

/// Where the splitter's pieces go.
enum Sink<'a> {
    /// Read on this thread.
    Here(&'a mut Checker),
    /// Sent to the helper thread in batches.
    Helper {
        batch: Vec<Piece>,
        to: std::sync::mpsc::SyncSender<Vec<Piece>>,
    },
}

impl Sink<'_> {
    fn put(&mut self, piece: Piece) -> Option<()> {
        match self {
            Self::Here(checker) => checker.piece(piece),
            Self::Helper { batch, to } => {
                batch.push(piece);
                if batch.len() >= BATCH {
                    // A helper gone has declined an entry.
                    to.send(std::mem::replace(batch, Vec::with_capacity(BATCH)))
                        .ok()?;
                }
                Some(())
            }
        }
    }

    /// Hands on what is batched.
    fn flush(&mut self) -> Option<()> {
        if let Self::Helper { batch, to } = self
            && !batch.is_empty()
        {
            to.send(std::mem::take(batch)).ok()?;
        }
        Some(())
    }
}

/// What a container on the stack is.
#[derive(Clone, Copy, PartialEq)]
enum Role {
    /// The root object.
    Root,
    /// The root's `items` object.
    Items,
    /// One of the `items` arrays, cut into entries.
    Entries(ItemKind),
    /// Anything else.
    Other,
}

#[derive(Clone, Copy)]
struct Frame {
    role: Role,
    object: bool,
    /// In an object: the next string is a member name.
    expect_key: bool,
}

/// Where an `items` array is between its entries.
#[derive(Clone, Copy, PartialEq)]
enum Between {
    /// After `[`: an entry or `]`.
    Open,
    /// After an entry: `,` or `]`.
    Entry,
    /// After `,`: an entry.
    Comma,
}

struct Splitter<'a> {
    /// The text read and not yet dropped: `buf[..filled]`.
    buf: Vec<u8>,
    filled: usize,
    /// Where scanning goes on: before it, the skeleton's text is copied out
    /// and the entries are read.
    scanned: usize,
    /// The reader has no more.
    at_end: bool,
    stack: Vec<Frame>,
    in_string: bool,
    /// In a string, after a backslash: the next byte is escaped.
    escaped: bool,
    /// The name being read of a member of the root or `items` object.
    key: Option<Vec<u8>>,
    /// The last member name of the root and of the `items` object.
    names: [Vec<u8>; 2],
    seen_items: bool,
    seen_arrays: [bool; 4],
    between: Option<Between>,
    /// How much text an entry whose end was not read yet waits for before it
    /// is parsed again (twice what it had: each entry is parsed a bounded
    /// number of times whatever the blocks).
    retry_at: usize,
    /// Where in `buf` the skeleton's next text starts, while not in an array.
    copy_from: Option<usize>,
    skeleton: Vec<u8>,
    sink: Sink<'a>,
}

/// How scanning goes on after an `items` array's byte.
enum Flow {
    /// From this position.
    At(usize),
    /// Once more text is read.
    More,
}

impl<'a> Splitter<'a> {
    fn new(sink: Sink<'a>) -> Self {
        Self {
            buf: Vec::new(),
            filled: 0,
            scanned: 0,
            at_end: false,
            stack: Vec::new(),
            in_string: false,
            escaped: false,
            key: None,
            names: Default::default(),
            seen_items: false,
            seen_arrays: [false; 4],
            between: None,
            retry_at: 0,
            copy_from: Some(0),
            skeleton: Vec::new(),
            sink,
        }
    }

    /// The skeleton, the entries handed to the sink.
    fn run(mut self, mut reader: impl Read) -> Option<Vec<u8>> {
        while !self.at_end {
            self.make_room();
            let len = self.filled;
            let n = loop {
                match reader.read(&mut self.buf[len..]) {
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                    other => break other.ok()?,
                }
            };
            self.filled += n;
            self.at_end = n == 0;
            self.scan()?;
            self.copy_skeleton()?;
        }
        if !self.stack.is_empty() || self.in_string || self.scanned < self.filled {
            return None;
        }
        self.sink.flush()?;
        Some(self.skeleton)
    }

    /// Moves the skeleton's text scanned so far out of `buf`.
    fn copy_skeleton(&mut self) -> Option<()> {
        if let Some(from) = self.copy_from {
            self.skeleton
                .extend_from_slice(&self.buf[from..self.scanned]);
            self.copy_from = Some(self.scanned);
            if self.skeleton.len() > SKELETON_LIMIT {
                return None;
            }
        }
        Some(())
    }

    /// Makes room for a block's read, dropping what is scanned, and growing
    /// `buf` only for an entry longer than it.
    fn make_room(&mut self) {
        if self.buf.len() - self.filled >= BLOCK / 2 {
            return;
        }
        let keep = self.scanned;
        self.buf.copy_within(keep..self.filled, 0);
        self.filled -= keep;
        self.scanned = 0;
        if let Some(from) = &mut self.copy_from {
            *from -= keep;
        }
        if self.buf.len() - self.filled < BLOCK / 2 {
            self.buf.resize(self.filled + BLOCK, 0);
        }
    }

    /// Scans `buf` from where scanning stopped.
    fn scan(&mut self) -> Option<()> {
        let mut pos = self.scanned;
        while pos < self.filled {
            if self.in_string {
                pos = self.string(pos)?;
                continue;
            }
            let byte = self.buf[pos];
            match self.between {
                Some(between) => match self.between(between, byte, pos)? {
                    Flow::At(next) => pos = next,
                    Flow::More => break,
                },
                None => {
                    self.structure(byte, pos)?;
                    pos += 1;
                }
            }
        }
        self.scanned = pos;
        Some(())
    }

    /// Inside a string from `pos`: where scanning goes on.
    fn string(&mut self, pos: usize) -> Option<usize> {
        if self.escaped {
            self.escaped = false;
            return Some(pos + 1);
        }
        let rest = &self.buf[pos..self.filled];
        let Some(at) = memchr::memchr2(b'"', b'\\', rest) else {
            if let Some(key) = &mut self.key {
                key.extend_from_slice(rest);
            }
            return Some(self.filled);
        };
        if let Some(key) = &mut self.key {
            key.extend_from_slice(&rest[..at]);
        }
        if rest[at] == b'\\' {
            // An escaped name could equal `items` or an array's name.
            if self.key.is_some() {
                return None;
            }
            self.escaped = true;
            return Some(pos + at + 1);
        }
        self.in_string = false;
        if let Some(key) = self.key.take() {
            self.named(key)?;
        }
        Some(pos + at + 1)
    }

    /// A member name of the root or `items` object was read.
    fn named(&mut self, key: Vec<u8>) -> Option<()> {
        let top = self.stack.last()?;
        match top.role {
            Role::Root => {
                if key == b"items" {
                    if self.seen_items {
                        return None;
                    }
                    self.seen_items = true;
                }
                self.names[0] = key;
            }
            _ => {
                if let Some(i) = ItemKind::ALL
                    .iter()
                    .position(|k| k.array_name().as_bytes() == key)
                {
                    if self.seen_arrays[i] {
                        return None;
                    }
                    self.seen_arrays[i] = true;
                }
                self.names[1] = key;
            }
        }
        Some(())
    }

    /// Outside strings and the `items` arrays.
    fn structure(&mut self, byte: u8, pos: usize) -> Option<()> {
        match byte {
            b'"' => {
                self.in_string = true;
                if let Some(top) = self.stack.last()
                    && top.expect_key
                    && matches!(top.role, Role::Root | Role::Items)
                {
                    self.key = Some(Vec::new());
                }
            }
            b'{' | b'[' => self.open(byte == b'{', pos)?,
            b'}' | b']' => {
                let frame = self.stack.pop()?;
                if frame.object != (byte == b'}') {
                    return None;
                }
            }
            b':' => {
                if let Some(top) = self.stack.last_mut() {
                    top.expect_key = false;
                }
            }
            b',' => {
                if let Some(top) = self.stack.last_mut() {
                    top.expect_key = top.object;
                }
            }
            _ => {}
        }
        Some(())
    }

    /// Opens an object or array at `pos`.
    fn open(&mut self, object: bool, pos: usize) -> Option<()> {
        if self.stack.len() >= MAX_DEPTH {
            return None;
        }
        let role = match self.stack.last() {
            None if object => Role::Root,
            Some(top) if top.role == Role::Root && !top.expect_key && object => {
                match self.names[0] == b"items" {
                    true => Role::Items,
                    false => Role::Other,
                }
            }
            Some(top) if top.role == Role::Items && !top.expect_key && !object => ItemKind::ALL
                .into_iter()
                .find(|k| k.array_name().as_bytes() == self.names[1])
                .map_or(Role::Other, Role::Entries),
            _ => Role::Other,
        };
        if let Role::Entries(kind) = role {
            // The skeleton keeps `[`; the entries are cut until `]`.
            let from = self.copy_from.take()?;
            self.skeleton.extend_from_slice(&self.buf[from..=pos]);
            self.between = Some(Between::Open);
            self.sink.put(Piece::Array(kind))?;
        }
        self.stack.push(Frame {
            role,
            object,
            expect_key: object,
        });
        Some(())
    }

    /// In an `items` array, before an entry or after one.
    fn between(&mut self, between: Between, byte: u8, pos: usize) -> Option<Flow> {
        match (byte, between) {
            (b' ' | b'\t' | b'\n' | b'\r', _) => {}
            (b'{', Between::Open | Between::Comma) => return self.entry(pos),
            (b',', Between::Entry) => self.between = Some(Between::Comma),
            (b']', Between::Open | Between::Entry) => {
                self.stack.pop();
                self.between = None;
                self.copy_from = Some(pos);
            }
            _ => return None,
        }
        Some(Flow::At(pos + 1))
    }

    /// The entry starting at `pos`: parsed from its slice once its end is read.
    fn entry(&mut self, pos: usize) -> Option<Flow> {
        let available = self.filled - pos;
        if available < self.retry_at && !self.at_end {
            return Some(Flow::More);
        }
        let mut values =
            serde_json::Deserializer::from_slice(&self.buf[pos..self.filled]).into_iter::<Value>();
        let (value, end) = match values.next()? {
            Ok(value) => (value, pos + values.byte_offset()),
            Err(e) if e.is_eof() => {
                self.retry_at = available.saturating_mul(2);
                return Some(Flow::More);
            }
            Err(_) => return None,
        };
        self.retry_at = 0;
        // The one-pass reader counts nesting from the root.
        if depth(&value) + self.stack.len() > MAX_DEPTH {
            return None;
        }
        self.sink.put(Piece::Entry(value))?;
        self.between = Some(Between::Entry);
        Some(Flow::At(end))
    }
}

/// How deeply `value`'s arrays and objects nest (a scalar: 0).
fn depth(value: &Value) -> usize {
    match value {
        Value::Array(list) => 1 + list.iter().map(depth).max().unwrap_or(0),
        Value::Object(map) => 1 + map.values().map(depth).max().unwrap_or(0),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: &str = "\"sampledAt\": \"2026-01-01T00:00:00.000Z\"";

    /// A grouped selection with `entries` as its attachments.
    fn grouped(entries: &str) -> String {
        format!(
            "{{\"items\": {{\"parents\": [], \"children\": [], \"notes\": [], \
             \"attachments\": [{entries}]}}, {T}}}"
        )
    }

    fn entry(key: &str, title: &str) -> String {
        format!(
            "{{\"item\": {{\"id\": 2, \"key\": \"{key}\", \"libraryID\": 1, \
             \"title\": {title}}}}}"
        )
    }

    /// What the splitter reads, in blocks of `chunk` bytes.
    fn split(text: &str, chunk: usize) -> Option<Result<SelectionContext, ReadError>> {
        struct Chunks<'a>(&'a [u8], usize);
        impl Read for Chunks<'_> {
            fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
                let n = buf.len().min(self.0.len()).min(self.1);
                buf[..n].copy_from_slice(&self.0[..n]);
                self.0 = &self.0[n..];
                Ok(n)
            }
        }
        let here = read(Chunks(text.as_bytes(), chunk), false);
        let helped = read(Chunks(text.as_bytes(), chunk), true);
        let shown = |r: &Option<Result<SelectionContext, ReadError>>| {
            r.as_ref()
                .map(|r| r.as_ref().map_err(ToString::to_string).cloned())
        };
        assert_eq!(shown(&here), shown(&helped), "with a helper thread: {text}");
        here
    }

    #[test]
    fn entries_are_cut_whatever_the_blocks_and_strings_hold() {
        let titles = [
            r#""plain""#,
            r#""a \"quoted\" ] } title""#,
            r#""ends in a backslash \\""#,
            r#""\\\"\\""#,
            r#""\u005d\u007d é → 𝄞""#,
            r#""[{\"items\": {\"attachments\": [}]""#,
        ];
        let entries: Vec<String> = titles
            .iter()
            .enumerate()
            .map(|(i, t)| entry(&format!("K{i}"), t))
            .collect();
        let text = grouped(&entries.join(" ,\n "));
        let want = SelectionContext::from_text(&text).unwrap();
        assert_eq!(want.counts().attachments, titles.len() as u64);
        for chunk in [1, 2, 3, 7, 64, text.len()] {
            let got = split(&text, chunk).expect("read, not declined").unwrap();
            assert_eq!(got, want, "blocks of {chunk}");
        }
    }

    #[test]
    fn many_batches_are_checked_and_a_late_error_declines() {
        let many = BATCH * QUEUE * 3;
        let mut entries: Vec<String> = (0..many)
            .map(|i| entry(&format!("K{i}"), "\"t\""))
            .collect();
        let text = grouped(&entries.join(","));
        let want = SelectionContext::from_text(&text).unwrap();
        assert_eq!(want.counts().attachments, many as u64);
        assert_eq!(split(&text, 4096).unwrap().unwrap(), want);
        entries[many - 10] = "{}".to_string();
        assert!(split(&grouped(&entries.join(",")), 4096).is_none());
        entries[10] = "{}".to_string();
        assert!(split(&grouped(&entries.join(",")), 4096).is_none());
    }

    #[test]
    fn selections_without_entries_are_read_from_their_text() {
        for text in [format!("{{\"items\": [], {T}}}"), grouped("")] {
            let got = split(&text, 5).expect("read from its text");
            assert_eq!(got.unwrap(), SelectionContext::from_text(&text).unwrap());
        }
        // Their errors are the one-pass reader's.
        for text in ["[1, 2]", "{\"items\": {}} x", "{\"items\": [1e999]}"] {
            assert!(split(text, 5).is_none(), "{text}");
        }
    }

    #[test]
    fn what_might_read_otherwise_is_declined() {
        let one = entry("K", "\"t\"");
        let deep = format!("{}1{}", "[".repeat(MAX_DEPTH), "]".repeat(MAX_DEPTH));
        for text in [
            // An escaped name, a repeated `items` or array.
            format!("{{\"it\\u0065ms\": {{\"attachments\": [{one}]}}, {T}}}"),
            format!("{{\"items\": {{\"att\\u0061chments\": [{one}]}}, {T}}}"),
            format!("{{\"items\": {{\"attachments\": [{one}]}}, \"items\": {{}}, {T}}}"),
            format!("{{\"items\": {{\"attachments\": [], \"attachments\": [{one}]}}, {T}}}"),
            // Not JSON, between entries, in one or after the root.
            grouped(&format!("{one} {one}")),
            grouped(&format!("{one},")),
            grouped(&format!(",{one}")),
            grouped("5"),
            grouped("{\"item\": }"),
            format!("{} x", grouped(&one)),
            // An entry in error; nesting near the limit; bytes that are not UTF-8.
            grouped("{}"),
            grouped(&format!("{{\"item\": {deep}}}")),
            grouped(&entry("K", "\"\u{1}\"")),
        ] {
            assert!(split(&text, 3).is_none(), "{text}");
        }
        let mut bytes = grouped(&entry("K", "\"x\"")).into_bytes();
        let at = bytes.iter().position(|b| *b == b'x').unwrap();
        bytes[at] = 0xff;
        assert!(read(bytes.as_slice(), false).is_none());
        assert!(read(bytes.as_slice(), true).is_none());
    }

    #[test]
    fn a_skeleton_beyond_its_limit_is_declined() {
        let long = "x".repeat(SKELETON_LIMIT);
        let text = format!("{{\"items\": [], \"warnings\": [\"{long}\"], {T}}}");
        assert!(read(text.as_bytes(), false).is_none());
    }
}
