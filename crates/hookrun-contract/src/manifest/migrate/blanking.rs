//! A JavaScript source reduced to its code: every comment, string literal, template
//! literal text and regular expression literal blanked out character for character, so
//! that a scan of what is left finds only names used as code, at the lines and columns
//! they have in the source.
//!
//! This is a lexer's first pass and no more: it tells literals from code the way a
//! JavaScript lexer does (a `/` is a regular expression where an expression may start,
//! a division after a value; a template's `${…}` is code, however deeply nested), and
//! it never fails. Source that is not valid JavaScript (an unterminated literal, a
//! stray brace) is blanked as far as it can be read and the scan goes on. `<!--` and
//! `-->` are not comments in a module, so they are code here.

/// Where the scan is: in code, or in a comment or literal of one kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum State {
    Code,
    LineComment,
    BlockComment,
    Quoted(char),
    Template,
    Regex {
        in_class: bool,
    },
    /// The flags after a regular expression's closing `/`.
    RegexFlags,
}

/// Keywords after which a `/` starts a regular expression rather than divides.
const BEFORE_EXPRESSION: &[&str] = &[
    "return",
    "typeof",
    "instanceof",
    "in",
    "new",
    "delete",
    "void",
    "throw",
    "case",
    "do",
    "else",
    "yield",
    "await",
];

/// Keywords whose parenthesised head is followed by a statement, so that a `/` after
/// its `)` starts a regular expression (`if (x) /re/.test(s)`).
const STATEMENT_HEADS: &[&str] = &["if", "while", "for", "with"];

/// Punctuators after which a `/` starts a regular expression.
const BEFORE_OPERAND: &str = "(,=:[!&|?{};+-*%<>~^/";

/// Whether `c` ends a line in JavaScript.
pub(super) fn is_line_break(c: char) -> bool {
    matches!(c, '\n' | '\r' | '\u{2028}' | '\u{2029}')
}

/// Whether `c` may be part of an identifier.
fn is_ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$'
}

/// `c` blanked out: a line break stays, every other character becomes a space.
fn blank(c: char) -> char {
    if is_line_break(c) { c } else { ' ' }
}

/// `source` with every comment, string literal, template literal text and regular
/// expression literal (flags included) replaced by spaces, character for character
/// (line breaks kept), so that lines and columns of the code stay where they were.
pub(super) fn code_only(source: &str) -> String {
    let chars: Vec<char> = source.chars().collect();
    let mut scan = Blanking::new(source.len());
    if source.starts_with("#!") {
        // A hashbang line is a comment.
        scan.state = State::LineComment;
    }
    let mut i = 0;
    while i < chars.len() {
        // Each step takes at least one character and at most those that are left.
        i += scan.step(&chars[i..]);
    }
    scan.out
}

/// The state of [`code_only`]'s scan: what it wrote, and what it must remember of
/// what it read.
struct Blanking {
    out: String,
    state: State,
    /// Open `${` of templates: the brace depth inside each, innermost last.
    templates: Vec<usize>,
    /// Open `(` in code: whether each is the head of `if`, `while`, `for` or `with`.
    parens: Vec<bool>,
    /// Whether a `/` in code here starts a regular expression (else it divides).
    regex_next: bool,
    /// The last identifier or keyword read in code.
    word: String,
    /// Whether [`Self::word`] followed a `.` (a property name, never a keyword).
    word_is_property: bool,
    /// Whether the last token of code was [`Self::word`].
    after_word: bool,
    /// Whether the character before was part of [`Self::word`].
    in_word: bool,
    /// Whether the last token of code was a `.`.
    after_dot: bool,
    /// The character before, in any state.
    prev: Option<char>,
}

impl Blanking {
    fn new(capacity: usize) -> Self {
        Blanking {
            out: String::with_capacity(capacity),
            state: State::Code,
            templates: Vec::new(),
            parens: Vec::new(),
            regex_next: true,
            word: String::new(),
            word_is_property: false,
            after_word: false,
            in_word: false,
            after_dot: false,
            prev: None,
        }
    }

    /// Reads the characters at the start of `rest` (never empty) that make one step in
    /// the current state, writes them kept or blanked, and says how many it took.
    fn step(&mut self, rest: &[char]) -> usize {
        let taken = match self.state {
            State::Code => self.code(rest),
            State::LineComment => self.line_comment(rest),
            State::BlockComment => self.block_comment(rest),
            State::Quoted(quote) => self.quoted(quote, rest),
            State::Template => self.template(rest),
            State::Regex { in_class } => self.regex(in_class, rest),
            State::RegexFlags => self.regex_flags(rest),
        };
        self.prev = Some(rest[taken - 1]);
        taken
    }

    /// Writes the first `n` characters of `rest` blanked out; returns `n`.
    fn blank(&mut self, rest: &[char], n: usize) -> usize {
        self.out.extend(rest[..n].iter().map(|&c| blank(c)));
        n
    }

    /// Enters `state` on the first `n` characters of `rest`, blanked.
    fn enter(&mut self, state: State, rest: &[char], n: usize) -> usize {
        self.state = state;
        self.in_word = false;
        self.blank(rest, n)
    }

    /// Leaves a literal for code on the first `n` characters of `rest`, blanked: what
    /// follows a literal divides.
    fn leave_literal(&mut self, rest: &[char], n: usize) -> usize {
        self.state = State::Code;
        self.expect(false);
        self.blank(rest, n)
    }

    /// A token other than a word was read: a `/` after it starts a regular expression
    /// when `regex_next`.
    fn expect(&mut self, regex_next: bool) {
        self.regex_next = regex_next;
        self.after_word = false;
        self.in_word = false;
        self.after_dot = false;
    }

    /// Code: kept, unless it starts a comment or a literal or ends a template's `${}`.
    fn code(&mut self, rest: &[char]) -> usize {
        match rest {
            ['/', '/', ..] => self.enter(State::LineComment, rest, 2),
            ['/', '*', ..] => self.enter(State::BlockComment, rest, 2),
            ['/', ..] if self.regex_next => self.enter(State::Regex { in_class: false }, rest, 1),
            [quote @ ('\'' | '"'), ..] => self.enter(State::Quoted(*quote), rest, 1),
            ['`', ..] => self.enter(State::Template, rest, 1),
            ['}', ..] if self.templates.last() == Some(&0) => {
                self.templates.pop();
                self.enter(State::Template, rest, 1)
            }
            [c, ..] => {
                self.out.push(*c);
                self.token(*c);
                1
            }
            [] => unreachable!("a step reads at least one character"),
        }
    }

    /// Remembers, after the character `c` of code was kept, what a `/` after it is.
    fn token(&mut self, c: char) {
        if c.is_whitespace() {
            self.in_word = false;
        } else if is_ident(c) {
            if !self.in_word {
                self.word.clear();
                self.word_is_property = self.after_dot;
            }
            self.word.push(c);
            self.regex_next =
                !self.word_is_property && BEFORE_EXPRESSION.contains(&self.word.as_str());
            self.after_word = true;
            self.in_word = true;
            self.after_dot = false;
        } else {
            self.punctuator(c);
        }
    }

    /// Remembers what a `/` after the punctuator `c` of code is.
    fn punctuator(&mut self, c: char) {
        let regex_next = match c {
            '(' => {
                let head = self.after_word
                    && !self.word_is_property
                    && STATEMENT_HEADS.contains(&self.word.as_str());
                self.parens.push(head);
                true
            }
            ')' => self.parens.pop().unwrap_or(false),
            '{' | '}' => {
                if let Some(depth) = self.templates.last_mut() {
                    *depth = if c == '{' { *depth + 1 } else { *depth - 1 };
                }
                true
            }
            // `a++ / 2` and `a-- / 2` divide.
            '+' | '-' if self.prev == Some(c) => false,
            _ => BEFORE_OPERAND.contains(c),
        };
        self.expect(regex_next);
        self.after_dot = c == '.';
    }

    /// A `//` comment, which a line break ends.
    fn line_comment(&mut self, rest: &[char]) -> usize {
        if is_line_break(rest[0]) {
            self.state = State::Code;
        }
        self.blank(rest, 1)
    }

    /// A `/* */` comment.
    fn block_comment(&mut self, rest: &[char]) -> usize {
        if let ['*', '/', ..] = rest {
            self.state = State::Code;
            return self.blank(rest, 2);
        }
        self.blank(rest, 1)
    }

    /// A string literal quoted with `quote`. A backslash escapes the character after it,
    /// a line break too (a line continuation); an unescaped line break ends a string
    /// left open.
    fn quoted(&mut self, quote: char, rest: &[char]) -> usize {
        match rest {
            ['\\', '\r', '\n', ..] => self.blank(rest, 3),
            ['\\', _, ..] => self.blank(rest, 2),
            [c, ..] if *c == quote => self.leave_literal(rest, 1),
            [c, ..] if *c == '\n' || *c == '\r' => {
                self.state = State::Code;
                self.blank(rest, 1)
            }
            _ => self.blank(rest, 1),
        }
    }

    /// A regular expression literal; a line break ends one left open.
    fn regex(&mut self, in_class: bool, rest: &[char]) -> usize {
        match rest {
            ['\\', c, ..] if !is_line_break(*c) => self.blank(rest, 2),
            ['/', ..] if !in_class => {
                self.leave_literal(rest, 1);
                self.state = State::RegexFlags;
                1
            }
            [c, ..] => {
                self.state = match c {
                    c if is_line_break(*c) => State::Code,
                    '[' => State::Regex { in_class: true },
                    ']' => State::Regex { in_class: false },
                    _ => self.state,
                };
                self.blank(rest, 1)
            }
            [] => unreachable!("a step reads at least one character"),
        }
    }

    /// The flags of a regular expression, up to the code after them.
    fn regex_flags(&mut self, rest: &[char]) -> usize {
        if is_ident(rest[0]) {
            return self.blank(rest, 1);
        }
        self.state = State::Code;
        self.code(rest)
    }

    /// A template literal's text, which `${` leaves for code.
    fn template(&mut self, rest: &[char]) -> usize {
        match rest {
            ['\\', _, ..] => self.blank(rest, 2),
            ['`', ..] => self.leave_literal(rest, 1),
            ['$', '{', ..] => {
                self.templates.push(0);
                self.state = State::Code;
                self.expect(true);
                self.blank(rest, 2)
            }
            _ => self.blank(rest, 1),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(source, code)`: what [`code_only`] leaves of each source, `·` for a blank.
    const CASES: &[(&str, &str)] = &[
        // Comments, a hashbang line.
        ("#!/usr/bin/env node\nx // y", "···················\nx ····"),
        ("x = 1 #!y", "x = 1 #!y"),
        ("a // b\nc", "a ····\nc"),
        ("a /* b\nc */ d", "a ····\n···· d"),
        ("a /* b */ / c / d", "a ······· / c / d"),
        ("/* a /*/ b", "········ b"),
        ("/*/ a */ b", "········ b"),
        ("x <!-- y --> z", "x <!-- y --> z"),
        // Strings: escaped quotes, `//` and `/*` inside, line continuations.
        ("a = 'b\\'c' + d", "a = ······ + d"),
        ("a = \"b\\\"c\" + d", "a = ······ + d"),
        ("a = '//b' + c", "a = ····· + c"),
        ("a = \"/*\" + b; // c", "a = ···· + b; ····"),
        ("a = 'b\\\nc' + d", "a = ···\n·· + d"),
        ("a = 'b\\\r\nc' + d", "a = ···\r\n·· + d"),
        ("a = 'b\\\\' + c", "a = ····· + c"),
        ("a = 'open\nb", "a = ·····\nb"),
        // Template literals: escapes, `${}` as code, nesting.
        ("`a\\`b` + c", "······ + c"),
        ("`a\\${b}` + c", "········ + c"),
        ("`a ${b} c`", "·····b····"),
        ("`${ {a: 1}.a }`", "··· {a: 1}.a ··"),
        ("`${'}'}`", "········"),
        ("`${`${`${x}`}`}`", "·········x······"),
        ("`${ a // b\n}`", "··· a ····\n··"),
        ("`${/}/.test(x)}`", "······.test(x)··"),
        // Regular expressions and divisions.
        ("a / b / c", "a / b / c"),
        ("x = /re/g.test(s)", "x = ·····.test(s)"),
        ("x = /[/*]/.source", "x = ······.source"),
        ("x = /\\/*/", "x = ·····"),
        ("x = a++ / 2 / b", "x = a++ / 2 / b"),
        ("x = a-- / 2 / b", "x = a-- / 2 / b"),
        ("x = (a) / b / c", "x = (a) / b / c"),
        ("x = a[0] / b / c", "x = a[0] / b / c"),
        ("x = 'a' / b / c", "x = ··· / b / c"),
        ("x = /a/ / b / c", "x = ··· / b / c"),
        ("return /a/.test(s)", "return ···.test(s)"),
        ("x = typeof /a/", "x = typeof ···"),
        ("x = y.return / a / b", "x = y.return / a / b"),
        ("if (f(a)) /b/.test(s)", "if (f(a)) ···.test(s)"),
        ("g(a) / b / c", "g(a) / b / c"),
        ("x => /a/", "x => ···"),
        ("} /a/", "} ···"),
        ("x = a\n/b/g", "x = a\n/b/g"),
        ("x = /a/gu/2", "x = ·····/2"),
        ("x = /a/g\n/b/", "x = ····\n/b/"),
        ("x = /a\nb/", "x = ··\nb/"),
        // Whatever is left open at the end.
        ("a /* b", "a ····"),
        ("a = 'b", "a = ··"),
        ("a = `b ${c", "a = ·····c"),
        ("a = /b", "a = ··"),
        ("a = 'b\\", "a = ···"),
        ("}}}))", "}}}))"),
    ];

    #[test]
    fn blanks_comments_and_literals_and_keeps_code() {
        let wrong: Vec<String> = CASES
            .iter()
            .filter(|(source, code)| code_only(source) != code.replace('·', " "))
            .map(|(source, _)| format!("{source:?} -> {:?}", code_only(source).replace(' ', "·")))
            .collect();
        assert!(wrong.is_empty(), "{wrong:#?}");
    }

    /// The property every input keeps: same characters, line breaks where they were,
    /// every other character either kept or blanked.
    fn assert_same_structure(source: &str) {
        let code = code_only(source);
        assert_eq!(code.chars().count(), source.chars().count(), "{source:?}");
        for (s, c) in source.chars().zip(code.chars()) {
            let ok = if is_line_break(s) {
                c == s
            } else {
                c == s || c == ' '
            };
            assert!(ok, "{s:?} became {c:?} in {source:?}");
        }
        assert_eq!(code.lines().count(), source.lines().count(), "{source:?}");
        super::super::legacy_api::scan_source(source);
    }

    const ALPHABET: &[char] = &[
        '/', '*', '\\', '\'', '"', '`', '$', '{', '}', '(', ')', '[', ']', '\n', '\r', '+', 'a',
        'i', 'f', ' ', 'é', '😀', '\u{2028}', '.', '<', '!', '-', '=',
    ];

    #[test]
    fn every_short_input_keeps_its_structure() {
        let mut source = String::new();
        let n = ALPHABET.len();
        for index in 0..n * n * n {
            source.clear();
            source.extend([index / (n * n), index / n % n, index % n].map(|i| ALPHABET[i]));
            for len in 1..=3 {
                assert_same_structure(&source[source.char_indices().nth(3 - len).unwrap().0..]);
            }
        }
    }

    #[test]
    fn random_inputs_keep_their_structure() {
        const PIECES: &[&str] = &[
            "/",
            "//",
            "/*",
            "*/",
            "\\",
            "'",
            "\"",
            "`",
            "${",
            "}",
            "{",
            "(",
            ")",
            "[",
            "]",
            "\n",
            "\r\n",
            "++",
            "return",
            "if",
            " ",
            "x",
            "é",
            "😀",
            "\u{2028}",
            "Zotero.Items.get(1)",
            "runtime.helpers.",
            ".getField(",
            "<!--",
        ];
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..20_000 {
            let len = next() % 40;
            let source: String = (0..len)
                .map(|_| PIECES[(next() % PIECES.len() as u64) as usize])
                .collect();
            assert_same_structure(&source);
        }
    }
}
