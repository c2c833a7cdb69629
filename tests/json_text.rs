//! The JSON text hookrun writes (reports, plans, hook arguments) through its
//! patched `serde_json` (docs/engine-patches.md): strings are escaped exactly as
//! RFC 8259 and the published crate escape them, wherever the characters that
//! need escaping sit, and maps keep their members in insertion order.

use serde_json::{Map, Value};

/// The escaping of the published crate: short escapes for `\b \t \n \f \r " \`,
/// `\u00xx` (lower-case hex) for the other control characters, everything else
/// as is.
fn reference(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '\u{8}' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\u{c}' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[test]
fn every_character_class_is_escaped_at_every_offset_of_a_word() {
    let specials: Vec<char> = (0u8..0x20)
        .map(char::from)
        .chain([
            '"', '\\', ' ', '!', '#', '[', ']', '~', '\u{7f}', 'é', '€', '😀',
        ])
        .collect();
    for &special in &specials {
        for before in 0..18 {
            for after in [0, 1, 7, 8, 9, 16] {
                let s = format!("{}{special}{}", "a".repeat(before), "b".repeat(after));
                assert_eq!(serde_json::to_string(&s).unwrap(), reference(&s), "{s:?}");
            }
        }
    }
    // Two at once in one word, and runs of them.
    for (a, b) in [('"', '\\'), ('\n', '"'), ('\u{1f}', '\u{0}')] {
        for gap in 0..9 {
            let s = format!("xy{a}{}{b}{}", "z".repeat(gap), "w".repeat(12));
            assert_eq!(serde_json::to_string(&s).unwrap(), reference(&s), "{s:?}");
        }
    }
    let long: String = (0..600).map(|i| specials[i % specials.len()]).collect();
    assert_eq!(serde_json::to_string(&long).unwrap(), reference(&long));
    // Bytes just above and below the classes: 0x1f/0x20, 0x21/0x22/0x23, 0x5b/0x5c/0x5d.
    for byte in 0x18u8..0x60 {
        let s: String = std::iter::repeat_n(char::from(byte), 11).collect();
        assert_eq!(
            serde_json::to_string(&s).unwrap(),
            reference(&s),
            "{byte:#x}"
        );
    }
}

#[test]
fn maps_keep_insertion_order_and_find_every_key() {
    let mut map = Map::new();
    let keys: Vec<String> = (0..2_000)
        .map(|i| format!("k{}", (i * 7_919) % 2_000))
        .collect();
    for (i, key) in keys.iter().enumerate() {
        map.insert(key.clone(), Value::from(i));
    }
    assert_eq!(map.keys().cloned().collect::<Vec<_>>(), keys);
    for (i, key) in keys.iter().enumerate() {
        assert_eq!(map[key], i);
    }
    let text = serde_json::to_string(&map).unwrap();
    let back: Map<String, Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(back.keys().cloned().collect::<Vec<_>>(), keys);
}
