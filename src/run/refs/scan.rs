//! The scan of a piece's compact JSON as it is serialised: open values,
//! member names, digests, and writing out the bytes with their edits.

use std::io::{self, Write};

use sha2::{Digest, Sha256};

use super::{Edit, Fingerprint, MAX_SHARED_BYTES, Open, Scan, WRITE_OUT_BYTES};

impl Edit {
    fn at(&self) -> usize {
        match *self {
            Edit::Reference { start, .. } => start,
            Edit::OpenLiteral { at } | Edit::CloseLiteral { at } => at,
        }
    }
}

impl Scan {
    pub(super) fn reset(&mut self) {
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

    pub(super) fn open_value(&mut self, pos: usize, object: bool) {
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

    /// Reads the byte at `pos` of the string being scanned: skips plain
    /// contents to their next quote or escape, or ends the string.
    pub(super) fn string_byte(&mut self, pos: usize, byte: u8, end: usize) {
        if self.escaped {
            self.escaped = false;
        } else if byte == b'\\' {
            self.escaped = true;
        } else if byte == b'"' {
            self.in_string = false;
            if self.string_is_name {
                self.name_read(pos);
            }
        } else {
            // Most of a piece is string contents: skip to their next quote or escape.
            let rest = &self.text[pos + 1 - self.base..];
            self.scanned = memchr::memchr2(b'"', b'\\', rest).map_or(end, |i| pos + 1 + i);
        }
    }

    /// Moves the innermost open value on to its next member or element.
    pub(super) fn next_entry(&mut self) {
        if let Some(top) = self.open.last_mut() {
            top.before += 1;
            top.want_name = top.object;
        }
    }

    /// Starts the string whose quote is at `pos`: a member name if the
    /// innermost open object wants one.
    pub(super) fn open_string(&mut self, pos: usize) {
        self.in_string = true;
        self.string_start = pos;
        self.string_is_name = false;
        if let Some(top) = self.open.last_mut()
            && top.want_name
        {
            top.want_name = false;
            self.string_is_name = true;
        }
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
    pub(super) fn fingerprint(&self, salt: &[u8; 16], closed: &Open, end: usize) -> Fingerprint {
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
    pub(super) fn hold(&self) -> usize {
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
    pub(super) fn write_out(&mut self, out: &mut impl Write, upto: usize) -> io::Result<()> {
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
