//! `archive.withExtractedZip` through a hook, after the reference host's archive
//! facade suite (`tests/workflows/91-workflow-host-api-archive.test.ts`): a zip
//! of file, text and byte entries read back with its integrity, the extracted
//! directory gone once the callback settled, the scope refusing afterwards
//! (`resolvePath` throwing, the reading members rejecting), and the names an
//! extracted measurement refuses.

use crate::common;

use serde_json::{Value, json};

use hookrun::run::{NoResults, RunReport, run};

/// Runs `apply` as the `applyResult` of a one-parent probe workflow.
fn apply(apply: &str) -> (RunReport, Value) {
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(dir.path(), &[("applyResult", apply)]);
    let report = run(
        &workflow,
        common::probe_input(&["Cats"]),
        &mut NoResults,
        &common::run_options(),
    );
    let value = serde_json::to_value(&report.units[0].jobs[0].apply).unwrap()["value"].clone();
    (report, value)
}

#[test]
fn a_zip_of_file_text_and_byte_entries_reads_back_with_its_integrity() {
    let (report, found) = apply(
        r#"export async function applyResult({ runtime }) {
  const { file, archive } = runtime.hostApi;
  await file.writeBytes("in/source.bin", new Uint8Array([1, 2, 3, 4]));
  const written = await archive.writeZipAtomic({ targetPath: "out/bundle.zip", entries: [
    { name: "manifest.json", content: { kind: "text", text: '{"kind":"test"}' } },
    { name: "files/source.bin", content: { kind: "file", sourcePath: "in/source.bin" } },
    { name: "files/bytes.bin", content: { kind: "bytes", bytes: new Uint8Array([5, 6, 7]) } } ] });
  let root;
  const inside = await archive.withExtractedZip({ sourcePath: "out/bundle.zip" }, {}, async (x) => {
    root = x.rootPath;
    return { entries: [...x.entries].sort(), manifest: await x.readText("manifest.json"),
      source: Array.from(await x.readBytes("files/source.bin")),
      resolved: x.resolvePath("files/bytes.bin") === `${x.rootPath}/files/bytes.bin`,
      remeasured: (await x.measureEntries(["files/source.bin", "files/bytes.bin"])).files };
  });
  const same = JSON.stringify(inside.remeasured) === JSON.stringify({
    "files/source.bin": written.files["files/source.bin"], "files/bytes.bin": written.files["files/bytes.bin"] });
  return { inside: { ...inside, remeasured: same }, sizes: Object.values(written.files).map((f) => f.sizeBytes),
    rootGone: !(await file.exists(root)) };
}"#,
    );
    assert!(report.ok(), "{:?}", report.errors);
    assert_eq!(
        found,
        json!({"inside": {"entries": ["files/bytes.bin", "files/source.bin", "manifest.json"],
            "manifest": "{\"kind\":\"test\"}", "source": [1, 2, 3, 4], "resolved": true,
            "remeasured": true},
            "sizes": [15, 4, 3], "rootGone": true})
    );
}

#[test]
fn an_extracted_scope_refuses_once_its_callback_settled() {
    let (report, found) = apply(
        r#"export async function applyResult({ runtime }) {
  const { archive } = runtime.hostApi;
  await archive.writeZipAtomic({ targetPath: "out/scoped.zip",
    entries: [{ name: "payload.txt", content: { kind: "text", text: "scoped" } }] });
  let scope;
  const read = await archive.withExtractedZip({ sourcePath: "out/scoped.zip" }, {}, (x) => {
    scope = x;
    return x.readText("payload.txt");
  });
  const outcome = (fn) => {
    let returned;
    try { returned = fn(); } catch (e) { return ["thrown", e.code, e.message, e.details]; }
    return returned.then(() => "resolved", (e) => ["rejected", e.code, e.message, e.details]);
  };
  return { read, resolve: await outcome(() => scope.resolvePath("payload.txt")),
    bytes: await outcome(() => scope.readBytes("payload.txt")),
    text: await outcome(() => scope.readText("payload.txt")),
    measure: await outcome(() => scope.measureEntries(["payload.txt"])) };
}"#,
    );
    assert!(report.ok(), "{:?}", report.errors);
    let ended = |how: &str| json!([how, "invalid_request", "Extracted archive scope has ended", {"reason": "invalid_value"}]);
    assert_eq!(
        found,
        json!({"read": "scoped", "resolve": ended("thrown"), "bytes": ended("rejected"),
            "text": ended("rejected"), "measure": ended("rejected")})
    );
}

#[test]
fn an_extracted_measurement_refuses_unsafe_repeated_and_unknown_names() {
    let (report, found) = apply(
        r#"export async function applyResult({ runtime }) {
  const { archive } = runtime.hostApi;
  await archive.writeZipAtomic({ targetPath: "out/measure.zip",
    entries: [{ name: "known.bin", content: { kind: "bytes", bytes: new Uint8Array([1]) } }] });
  return archive.withExtractedZip({ sourcePath: "out/measure.zip" }, {}, async (x) => {
    const refused = [];
    for (const names of [["../escape.bin"], ["known.bin", "known.bin"], ["unknown.bin"]]) {
      try { await x.measureEntries(names); refused.push("measured"); }
      catch (e) { refused.push([e.code, e.details]); }
    }
    return refused;
  });
}"#,
    );
    assert!(report.ok(), "{:?}", report.errors);
    assert_eq!(
        found,
        json!([
            ["invalid_request", {"reason": "unsafe_path", "field": "name"}],
            ["invalid_request", {"reason": "duplicate_value", "field": "name"}],
            ["not_found", {"kind": "resource"}]
        ])
    );
}
