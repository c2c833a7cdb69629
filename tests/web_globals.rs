//! The web-platform globals hooks get: `URL` against the Web Platform Tests URL data that
//! the `url` crate ships (`urltestdata.json`, `setters_tests.json`, less the crate's own
//! listed expected failures), `URLSearchParams`, `TextEncoder`/`TextDecoder` and
//! `structuredClone`.

mod common;

use std::path::{Path, PathBuf};

use hookrun::sandbox::{CallResult, Limits, Sandbox, SandboxOptions};
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
    let options = SandboxOptions {
        limits: Limits {
            timeout_ms: 60_000,
            ..Limits::default()
        },
        ..common::sandbox_options()
    };
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
