//! The web-platform globals hooks get: `URL` against the Web Platform Tests URL data that
//! the `url` crate ships (`urltestdata.json`, `setters_tests.json`, less the crate's own
//! listed expected failures), `URLSearchParams`, `TextEncoder`/`TextDecoder` and
//! `structuredClone`.

use crate::common;

use std::path::{Path, PathBuf};

use hookrun::sandbox::{CallResult, Limits, Sandbox};
use serde_json::{Value, json};

/// The `tests` directory of the `url` crate this build uses.
fn url_crate_tests() -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    let metadata: Value = serde_json::from_slice(&out.stdout).expect("cargo metadata prints JSON");
    let url = metadata["packages"]
        .as_array()
        .and_then(|p| p.iter().find(|p| p["name"] == "url"))
        .expect("the url crate is a dependency");
    Path::new(url["manifest_path"].as_str().unwrap())
        .parent()
        .unwrap()
        .join("tests")
}

fn read_json(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

const FIELDS: [&str; 10] = [
    "href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search",
    "hash",
];

/// Runs `export` of a module written for the test with `arg`.
fn run_hook(source: &str, export: &str, arg: Value) -> Value {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("hook.mjs"), source).unwrap();
    let options = common::sandbox_options().limits(Limits::default().timeout_ms(60_000));
    let mut sb = Sandbox::new(dir.path(), options).unwrap();
    match sb.call(Path::new("hook.mjs"), export, &arg).result {
        CallResult::Ok(value) => value,
        other => panic!("{other:?}"),
    }
}

const WPT_HOOK: &str = r#"
const FIELDS = ["href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash", "origin"];
const read = (u) => Object.fromEntries(FIELDS.map((f) => [f, u[f]]));
export function parse(cases) {
  return cases.map((c) => {
    try { return read(c.base === null ? new URL(c.input) : new URL(c.input, c.base)); }
    catch (e) { return { failure: e instanceof TypeError }; }
  });
}
export function set(cases) {
  return cases.map((c) => {
    const u = new URL(c.href);
    u[c.setter] = c.new_value;
    return read(u);
  });
}
"#;

fn escaped(s: &str) -> String {
    s.escape_default().to_string()
}

#[test]
fn url_passes_the_web_platform_tests_data() {
    let dir = url_crate_tests();
    let expected_failures = std::fs::read_to_string(dir.join("expected_failures.txt")).unwrap();
    let known: Vec<&str> = expected_failures.lines().collect();

    let cases: Vec<Value> = read_json(&dir.join("urltestdata.json"))
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c.is_object())
        .cloned()
        .collect();
    let results = run_hook(WPT_HOOK, "parse", json!(cases));
    let mut checked = 0;
    let mut wrong = Vec::new();
    for (case, got) in cases.iter().zip(results.as_array().unwrap()) {
        let mut name = format!("<{}>", escaped(case["input"].as_str().unwrap()));
        if let Some(base) = case["base"].as_str() {
            name.push_str(&format!(" against <{}>", escaped(base)));
        }
        if known.contains(&name.as_str()) {
            continue;
        }
        checked += 1;
        if case["failure"] == true {
            if got["failure"] != true {
                wrong.push(format!("{name}: parsed as {got}, a TypeError expected"));
            }
            continue;
        }
        for field in FIELDS.iter().chain(["origin"].iter()) {
            if let Some(want) = case.get(*field)
                && got.get(*field) != Some(want)
            {
                wrong.push(format!("{name}: {field} {} instead of {want}", got[*field]));
            }
        }
    }
    assert!(checked > 700, "only {checked} cases");
    assert!(
        wrong.is_empty(),
        "{} of {checked} cases differ:\n{}",
        wrong.len(),
        wrong.join("\n")
    );

    let mut setters = Vec::new();
    for (setter, tests) in read_json(&dir.join("setters_tests.json"))
        .as_object()
        .unwrap()
    {
        if setter == "comment" {
            continue;
        }
        for test in tests.as_array().unwrap() {
            let name = format!(
                "<{}> set {setter} to <{}>",
                escaped(test["href"].as_str().unwrap()),
                escaped(test["new_value"].as_str().unwrap())
            );
            if !known.contains(&name.as_str()) {
                let mut case = test.clone();
                case["setter"] = json!(setter);
                case["name"] = json!(name);
                setters.push(case);
            }
        }
    }
    let results = run_hook(WPT_HOOK, "set", json!(setters));
    let mut wrong = Vec::new();
    for (case, got) in setters.iter().zip(results.as_array().unwrap()) {
        for (field, want) in case["expected"].as_object().unwrap() {
            if got.get(field) != Some(want) {
                wrong.push(format!(
                    "{}: {field} {} instead of {want}",
                    case["name"], got[field]
                ));
            }
        }
    }
    assert!(setters.len() > 200, "only {} setter cases", setters.len());
    assert!(
        wrong.is_empty(),
        "{} of {} setter cases differ:\n{}",
        wrong.len(),
        setters.len(),
        wrong.join("\n")
    );
}

#[test]
fn search_params_encoders_and_clones_behave_as_the_standards_say() {
    let got = run_hook(
        r#"
export function probe() {
  const u = new URL("https://arxiv.org/abs/2401.01234?b=2&a=1&a=3");
  const p = u.searchParams;
  p.sort();
  const sorted = u.search;
  p.delete("a", "3");
  p.set("c", "x y&z");
  const params = [...p], size = p.size;
  const fromPairs = new URLSearchParams([["k", "v"], ["k", "w"]]).getAll("k");
  const d = new TextDecoder();
  const streamed = d.decode(new Uint8Array([0xE2, 0x82]), { stream: true }) + d.decode(new Uint8Array([0xAC]));
  let fatal = null;
  try { new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array([0xC3])); } catch (e) { fatal = e.name; }
  let label = null;
  try { new TextDecoder("x-unknown"); } catch (e) { label = e.name; }
  const latin1 = new TextDecoder("latin1");
  const legacy = [latin1.encoding, latin1.decode(new Uint8Array([0x63, 0x61, 0x66, 0xE9, 0x80])),
    new TextDecoder("utf-16le").decode(new Uint8Array([0xFF, 0xFE, 0x68, 0x00, 0x69, 0x00]))];
  const bom = [new TextDecoder().decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x41])), new TextDecoder("utf-8", { ignoreBOM: true }).decode(new Uint8Array([0xEF, 0xBB, 0xBF, 0x41])).length];
  const into = new Uint8Array(4);
  const short = new TextEncoder().encodeInto("a€b", new Uint8Array(3));
  const encoded = new TextEncoder().encodeInto("a€b", into);
  const lone = Array.from(new TextEncoder().encode("\uD800"));
  const source = { list: [1, { deep: true }], when: new Date(0), map: new Map([["k", 1]]) };
  source.self = source;
  const copy = structuredClone(source);
  let cloneError = null;
  try { structuredClone(() => 1); } catch (e) { cloneError = e.name; }
  return { short, sorted, href: u.href, params, size, fromPairs, streamed, fatal, label, legacy, bom, encoded, bytes: Array.from(into), lone,
    clone: [copy !== source, copy.self === copy, copy.list[1].deep, copy.when instanceof Date, copy.map.get("k")], cloneError,
    arxiv: /^\/abs\/(\d{4}\.\d{5})/.exec(new URL("https://arxiv.org/abs/2401.01234v2").pathname)[1] };
}
"#,
        "probe",
        Value::Null,
    );
    assert_eq!(
        got,
        json!({
            "short": {"read": 1, "written": 1},
            "sorted": "?a=1&a=3&b=2",
            "href": "https://arxiv.org/abs/2401.01234?a=1&b=2&c=x+y%26z",
            "params": [["a", "1"], ["b", "2"], ["c", "x y&z"]],
            "size": 3,
            "fromPairs": ["v", "w"],
            "streamed": "€",
            "fatal": "TypeError",
            "label": "RangeError",
            "legacy": ["windows-1252", "café€", "hi"],
            "bom": ["A", 2],
            "encoded": {"read": 2, "written": 4},
            "bytes": [97, 226, 130, 172],
            "lone": [239, 191, 189],
            "clone": [true, true, true, true, 1],
            "cloneError": "DataCloneError",
            "arxiv": "2401.01234"
        })
    );
}

/// A URL longer than 1 Mi characters (Firefox's bound) is not parsed: parsing
/// one is native work the timeout cannot interrupt, so a hook could otherwise
/// hold a call past its deadline with one `new URL`. The refusal names the
/// bound, not the input.
#[test]
fn urls_past_the_length_bound_are_refused_without_being_parsed() {
    let got = run_hook(
        r#"
export function probe() {
  const bound = 1024 * 1024;
  const longest = "https://a.example/" + "p".repeat(bound - 18);
  const host = (n) => "https://" + Array.from({ length: n }, () => "\u00e9a".repeat(20)).join(".") + "/";
  const outcome = (f) => { try { return f(); } catch (e) { return `${e.name}: ${e.message}`; } };
  const u = new URL("https://a.example/");
  return {
    longest: new URL(longest).href.length,
    tooLong: outcome(() => new URL(longest + "q")),
    hosts: outcome(() => new URL(host(30_000))),
    base: outcome(() => new URL("x", longest + "q")),
    canParse: [URL.canParse(longest), URL.canParse(longest + "q"), URL.canParse("/x", longest + "q")],
    parse: URL.parse(longest + "q"),
    setter: outcome(() => { u.pathname = "p".repeat(bound + 1); }),
    unchanged: u.href,
    href: outcome(() => { u.href = longest + "q"; }),
  };
}
"#,
        "probe",
        Value::Null,
    );
    let refused = "TypeError: Invalid URL: longer than 1048576 characters";
    assert_eq!(
        got,
        json!({
            "longest": 1024 * 1024,
            "tooLong": refused,
            "hosts": refused,
            "base": "TypeError: Invalid URL: x (base longer than 1048576 characters)",
            "canParse": [true, false, false],
            "parse": null,
            "setter": refused,
            "unchanged": "https://a.example/",
            "href": refused,
        })
    );
}

/// Long texts are encoded and decoded natively a piece at a time (so the
/// timeout can end the call between pieces) and long form lists serialised in
/// groups: the answers are those of one piece, whatever a boundary splits.
#[test]
fn texts_and_forms_handled_in_pieces_match_the_whole() {
    let got = run_hook(
        r#"
export function probe() {
  const piece = 1 << 20;
  const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
  // A surrogate pair across the encoder's piece boundary (UTF-16 code units).
  const text = "a".repeat(piece - 1) + "\u{1F600}" + "é".repeat(piece) + "z";
  const bytes = new TextEncoder().encode(text);
  const expected = [];
  for (const ch of text) {
    const c = ch.codePointAt(0);
    if (c < 0x80) expected.push(c);
    else if (c < 0x800) expected.push(0xC0 | (c >> 6), 0x80 | (c & 63));
    else expected.push(0xF0 | (c >> 18), 0x80 | ((c >> 12) & 63), 0x80 | ((c >> 6) & 63), 0x80 | (c & 63));
  }
  // UTF-16 with a pair across the decoder's boundary, either byte order.
  const utf16 = (le) => {
    const out = new Uint8Array(piece + 4);
    for (let i = 0; i < piece - 2; i += 2) out[le ? i : i + 1] = 0x61;
    const units = [0xD83D, 0xDE00, 0x41];
    units.forEach((u, k) => { const at = piece - 2 + 2 * k; out[at + (le ? 0 : 1)] = u & 255; out[at + (le ? 1 : 0)] = u >> 8; });
    return out;
  };
  const tail16 = (s) => [s.length, s.slice(-3)];
  // Malformed UTF-8 across the boundary: one U+FFFD per maximal subpart.
  const broken = new Uint8Array(piece + 2).fill(0x61);
  broken.set([0xE2, 0x82], piece - 1);
  const decodedBroken = new TextDecoder().decode(broken);
  let fatal = null;
  try { new TextDecoder("utf-8", { fatal: true }).decode(broken); } catch (e) { fatal = e.name; }
  const withBom = new Uint8Array(piece + 8).fill(0x62);
  withBom.set([0xEF, 0xBB, 0xBF], 0);
  const params = new URLSearchParams();
  for (let i = 0; i < 12; i++) params.append(`k${i}`, "é & ".repeat(60_000));
  const serialized = params.toString();
  const one = (i) => new URLSearchParams([[`k${i}`, "é & ".repeat(60_000)]]).toString();
  let tooLong = null;
  try { params.append("k", "x".repeat(piece + 1)); } catch (e) { tooLong = e.message; }
  return {
    encoded: same(Array.from(bytes), expected),
    roundTrip: new TextDecoder().decode(bytes) === text,
    utf16le: tail16(new TextDecoder("utf-16le").decode(utf16(true))),
    utf16be: tail16(new TextDecoder("utf-16be").decode(utf16(false))),
    broken: [decodedBroken.length, decodedBroken.slice(piece - 2, piece + 2)],
    fatal,
    bom: new TextDecoder().decode(withBom).length,
    latin1: new TextDecoder("latin1").decode(new Uint8Array(2 * piece + 1).fill(0xE9)) === "é".repeat(2 * piece + 1),
    serialized: serialized === Array.from({ length: 12 }, (_, i) => one(i)).join("&"),
    reparsed: new URLSearchParams(one(3)).get("k3") === "é & ".repeat(60_000),
    tooLong,
  };
}
"#,
        "probe",
        Value::Null,
    );
    assert_eq!(
        got,
        json!({
            "encoded": true,
            "roundTrip": true,
            "utf16le": [(1 << 19) + 2, "😀A"],
            "utf16be": [(1 << 19) + 2, "😀A"],
            "broken": [(1 << 20) + 1, "a\u{FFFD}a"],
            "fatal": "TypeError",
            "bom": (1 << 20) + 5,
            "latin1": true,
            "serialized": true,
            "reparsed": true,
            "tooLong": "URLSearchParams: a value longer than 1048576 characters",
        })
    );
}

#[test]
fn btoa_and_atob_follow_the_forgiving_base64_of_the_html_standard() {
    let hook = r#"
const attempt = (f) => { try { return f(); } catch (e) { return { error: e.name }; } };
export function codec(cases) {
  return {
    encoded: cases.encode.map((s) => attempt(() => btoa(s))),
    decoded: cases.decode.map((s) => attempt(() => atob(s))),
    utf8: new TextDecoder().decode(Uint8Array.from(atob(btoa(String.fromCharCode(...new TextEncoder().encode("é ✓")))), (c) => c.charCodeAt(0))),
    missing: attempt(() => atob()),
  };
}
"#;
    let latin1: String = (0u8..=255).map(char::from).collect();
    let out = run_hook(
        hook,
        "codec",
        json!({"encode": ["", "f", "fo", "foo", "foob", "fooba", "foobar", latin1, "✓"],
               "decode": ["Zm9vYmFy", " Zm9v\nYmE=\t", "Zm9vYg==", "Zm9vYg", "Zg=", "Zm9vY",
                          "Zm9v YmFy=", "Zm9v!", "", "===="]}),
    );
    let expected_latin1 = {
        use base64::Engine as _;
        let bytes: Vec<u8> = (0u8..=255).collect();
        base64::engine::general_purpose::STANDARD.encode(bytes)
    };
    assert_eq!(
        out["encoded"],
        json!(["", "Zg==", "Zm8=", "Zm9v", "Zm9vYg==", "Zm9vYmE=", "Zm9vYmFy", expected_latin1,
               {"error": "InvalidCharacterError"}])
    );
    assert_eq!(
        out["decoded"],
        json!(["foobar", "fooba", "foob", "foob",
               {"error": "InvalidCharacterError"}, {"error": "InvalidCharacterError"},
               {"error": "InvalidCharacterError"}, {"error": "InvalidCharacterError"}, "",
               {"error": "InvalidCharacterError"}])
    );
    assert_eq!(out["utf8"], "é ✓");
    assert_eq!(out["missing"], json!({"error": "TypeError"}));
}
