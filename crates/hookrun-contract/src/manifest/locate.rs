//! Finding where a JSON pointer points in a document's text, so problems can be
//! shown with a line and column.

/// The 1-based line and column where the value at `pointer` starts in `text`
/// (for a missing member, where its parent object starts). `None` when the text
/// does not parse far enough.
pub fn locate(text: &str, pointer: &str) -> Option<(usize, usize)> {
    // Diagnostics name the whole document `/`.
    let segments = if pointer == "/" {
        Vec::new()
    } else {
        crate::pointer::segments(pointer)?
    };
    let bytes = text.as_bytes();
    let mut scanner = Scanner { bytes, pos: 0 };
    let mut found = scanner.skip_ws();
    for segment in &segments {
        match scanner.child(segment) {
            Some(pos) => found = pos,
            None => break,
        }
    }
    let before = &text[..found.min(text.len())];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1;
    Some((line, column))
}

struct Scanner<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Scanner<'_> {
    fn skip_ws(&mut self) -> usize {
        while self.pos < self.bytes.len() && self.bytes[self.pos].is_ascii_whitespace() {
            self.pos += 1;
        }
        self.pos
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    /// Moves to the value of `segment` inside the container at the cursor.
    fn child(&mut self, segment: &str) -> Option<usize> {
        self.skip_ws();
        match self.peek()? {
            b'{' => {
                self.pos += 1;
                loop {
                    self.skip_ws();
                    if self.peek()? == b'}' {
                        return None;
                    }
                    let key = self.string()?;
                    self.skip_ws();
                    if self.peek()? != b':' {
                        return None;
                    }
                    self.pos += 1;
                    let start = self.skip_ws();
                    if key == segment {
                        return Some(start);
                    }
                    self.skip_value()?;
                    self.skip_ws();
                    if self.peek()? == b',' {
                        self.pos += 1;
                    }
                }
            }
            b'[' => {
                let index: usize = segment.parse().ok()?;
                self.pos += 1;
                for _ in 0..index {
                    self.skip_ws();
                    if self.peek()? == b']' {
                        return None;
                    }
                    self.skip_value()?;
                    self.skip_ws();
                    if self.peek()? == b',' {
                        self.pos += 1;
                    }
                }
                let start = self.skip_ws();
                (self.peek()? != b']').then_some(start)
            }
            _ => None,
        }
    }

    /// Reads a string at the cursor (escapes kept simple: `\"` and `\\`).
    fn string(&mut self) -> Option<String> {
        if self.peek()? != b'"' {
            return None;
        }
        self.pos += 1;
        let start = self.pos;
        while self.peek()? != b'"' {
            self.pos += if self.peek()? == b'\\' { 2 } else { 1 };
        }
        let raw = std::str::from_utf8(&self.bytes[start..self.pos]).ok()?;
        self.pos += 1;
        serde_json::from_str(&format!("\"{raw}\"")).ok()
    }

    /// Skips one value, containers included, without recursion.
    fn skip_value(&mut self) -> Option<()> {
        let mut depth = 0usize;
        loop {
            self.skip_ws();
            match self.peek()? {
                b'"' => {
                    self.string()?;
                }
                b'{' | b'[' => {
                    depth += 1;
                    self.pos += 1;
                    continue;
                }
                b'}' | b']' => {
                    depth = depth.checked_sub(1)?;
                    self.pos += 1;
                }
                b',' | b':' if depth > 0 => {
                    self.pos += 1;
                    continue;
                }
                _ => {
                    while self.peek().is_some_and(|b| {
                        !matches!(b, b',' | b'}' | b']') && !b.is_ascii_whitespace()
                    }) {
                        self.pos += 1;
                    }
                }
            }
            if depth == 0 {
                return Some(());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DOC: &str = "{\n  \"id\": \"x\",\n  \"inputs\": {\n    \"member\": {\"kind\": \"parent\"},\n    \"grouping\": {\"mode\": \"every\"}\n  },\n  \"list\": [1, {\"a/b\": [true, null]}]\n}\n";

    #[test]
    fn pointers_map_to_lines_and_columns() {
        assert_eq!(locate(DOC, "/inputs/grouping/mode"), Some((5, 26)));
        assert_eq!(locate(DOC, "/id"), Some((2, 9)));
        assert_eq!(locate(DOC, "/list/1/a~1b/1"), Some((7, 30)));
        assert_eq!(locate(DOC, "/"), Some((1, 1)));
        assert_eq!(
            locate(DOC, "/inputs/missing"),
            Some((3, 13)),
            "a missing member points at its parent"
        );
        assert_eq!(locate("{\"a\": [", "/a/3"), Some((1, 7)));
    }
}
