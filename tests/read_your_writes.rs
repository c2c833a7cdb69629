//! A run sees its own file writes: what a hook makes, writes, copies, moves and
//! removes is what later `file.*` reads of the same run (and of later units) see, as
//! MinerU's apply stages images in a directory it creates, stats and moves. Nothing
//! on disk changes.

use crate::common;

use serde_json::{Value, json};

use hookrun::run::{NoResults, run};

const STAGE: &str = r##"
export async function applyResult({ parent, runtime }) {
  const file = runtime.hostApi.file;
  const seen = {};
  if (parent.key === "P0000000") {
    await file.makeDirectory({ path: "attachments/KEY1/.stage" });
    await file.copy({ sourcePath: "bundle/images", targetPath: "attachments/KEY1/.stage/Images_KEY1" });
    await file.writeText("attachments/KEY1/.stage/KEY1.md", "# Parsed\n");
    seen.stat = await file.stat("attachments/KEY1/.stage/Images_KEY1");
    seen.copied = await file.stat("attachments/KEY1/.stage/Images_KEY1/fig1.png");
    await file.move({ sourcePath: "attachments/KEY1/.stage", targetPath: "attachments/KEY1/parsed" });
    seen.stageGone = !(await file.exists("attachments/KEY1/.stage"));
    seen.markdown = await file.readText("attachments/KEY1/parsed/KEY1.md");
    seen.listed = (await file.list({ path: "attachments/KEY1", recursive: true })).entries.map((e) => `${e.kind} ${e.relativePath}`);
    await file.remove({ path: "bundle/images/fig2.png" });
    seen.removed = !(await file.exists("bundle/images/fig2.png"));
    try { await file.readText("attachments/KEY1/.stage/KEY1.md"); } catch (e) { seen.missing = e.code; }
  } else {
    // A later unit of the same run sees what the first one left.
    seen.laterUnit = await file.readText("attachments/KEY1/parsed/KEY1.md");
    seen.laterList = (await file.list({ path: "bundle/images" })).entries.map((e) => e.relativePath);
  }
  return seen;
}
"##;

#[test]
fn later_reads_of_a_run_see_its_file_writes_and_the_disk_is_untouched() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("files");
    std::fs::create_dir_all(files.join("bundle/images")).unwrap();
    std::fs::create_dir_all(files.join("attachments/KEY1")).unwrap();
    std::fs::write(files.join("bundle/images/fig1.png"), b"PNG1").unwrap();
    std::fs::write(files.join("bundle/images/fig2.png"), b"PNG22").unwrap();
    let workflow = common::probe_workflow(&dir.path().join("wf"), &[("applyResult", STAGE)]);
    let mut input = common::probe_input(&["first", "second"]);
    input.world = input.world.with_files_dir(&files);
    let report = run(&workflow, input, &mut NoResults, &common::run_options());
    assert!(report.ok(), "{:?}", report.errors);
    let value = |unit: usize| -> Value {
        serde_json::to_value(&report.units[unit].jobs[0].apply).unwrap()["value"].clone()
    };
    let first = value(0);
    assert_eq!(first["stat"]["kind"], "directory", "{first}");
    assert_eq!(first["copied"]["sizeBytes"], 4);
    assert_eq!(first["stageGone"], true);
    assert_eq!(first["markdown"], "# Parsed\n");
    assert_eq!(
        first["listed"],
        json!([
            "directory parsed",
            "directory parsed/Images_KEY1",
            "file parsed/Images_KEY1/fig1.png",
            "file parsed/Images_KEY1/fig2.png",
            "file parsed/KEY1.md"
        ])
    );
    assert_eq!(first["removed"], true);
    assert_eq!(first["missing"], "not_found");
    let second = value(1);
    assert_eq!(second["laterUnit"], "# Parsed\n");
    assert_eq!(second["laterList"], json!(["fig1.png"]));

    // Writes are recorded as effects, in call order, and never performed.
    let calls: Vec<&str> = report.effects.iter().map(|e| e.call.as_str()).collect();
    assert_eq!(
        calls,
        [
            "file.makeDirectory",
            "file.copy",
            "file.writeText",
            "file.move",
            "file.remove"
        ]
    );
    assert!(!files.join("attachments/KEY1/parsed").exists());
    assert!(files.join("bundle/images/fig2.png").exists());
}

#[test]
fn writes_that_would_lose_data_are_refused_and_leave_the_files_as_they_were() {
    let source = r#"export async function applyResult({ runtime }) {
  const { file } = runtime.hostApi;
  const seen = {};
  const code = async (f) => { try { await f(); return "ok"; } catch (e) { return `${e.code} ${e.details.field}`; } };
  await file.writeText("dir/a.txt", "A");
  await file.writeText("dir/sub/b.txt", "B");
  seen.intoItself = await code(() => file.move({ sourcePath: "dir", targetPath: "dir/sub/moved" }));
  seen.ontoItself = await code(() => file.move({ sourcePath: "dir/a.txt", targetPath: "dir/./a.txt", overwrite: true }));
  seen.copyOntoItself = await code(() => file.copy({ sourcePath: "dir", targetPath: "dir", overwrite: true }));
  seen.fileOverDir = await code(() => file.writeText("dir/.", "gone?"));
  seen.bytesOverDir = await code(() => file.writeBytes("dir/sub", new Uint8Array([1])));
  seen.climbing = await code(() => file.writeText("dir/../../escape.txt", "x"));
  seen.underAFile = await code(() => file.writeText("dir/a.txt/inner.txt", "x"));
  seen.dirUnderAFile = await code(() => file.makeDirectory({ path: "dir/a.txt/sub" }));
  seen.a = await file.readText("dir/a.txt");
  seen.b = await file.readText("dir/sub/b.txt");
  const input = await file.materializeWorkflowInputFile({ key: "..", fileName: "../x", content: { kind: "text", text: "t" } });
  seen.inputPath = input.path;
  seen.inputText = await file.readText(input.path);
  return seen;
}"#;
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(&dir.path().join("wf"), &[("applyResult", source)]);
    let report = run(
        &workflow,
        common::probe_input(&["one"]),
        &mut NoResults,
        &common::run_options(),
    );
    assert!(report.ok(), "{:?}", report.errors);
    let seen = serde_json::to_value(&report.units[0].jobs[0].apply).unwrap()["value"].clone();
    assert_eq!(seen["intoItself"], "invalid_request targetPath", "{seen}");
    assert_eq!(seen["ontoItself"], "invalid_request targetPath");
    assert_eq!(seen["copyOntoItself"], "invalid_request targetPath");
    assert_eq!(seen["fileOverDir"], "invalid_request path");
    assert_eq!(seen["bytesOverDir"], "invalid_request path");
    assert_eq!(seen["climbing"], "invalid_request path");
    assert_eq!(seen["underAFile"], "invalid_request path");
    assert_eq!(seen["dirUnderAFile"], "invalid_request path");
    assert_eq!((&seen["a"], &seen["b"]), (&json!("A"), &json!("B")));
    let input_path = seen["inputPath"].as_str().unwrap();
    assert!(
        !input_path.split('/').any(|s| s == ".." || s == "."),
        "{input_path}"
    );
    assert!(
        input_path.starts_with("/tmp/hookrun/workflow-inputs/input/"),
        "{input_path}"
    );
    assert_eq!(seen["inputText"], "t");
}

#[test]
fn files_that_are_not_regular_are_refused_without_hanging() {
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("files");
    std::fs::create_dir_all(&files).unwrap();
    let fifo = files.join("pipe");
    let made = std::process::Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(made.success());
    std::os::unix::fs::symlink("/dev/zero", files.join("zero")).unwrap();
    let source = r#"export async function applyResult({ runtime }) {
  const { file } = runtime.hostApi;
  const code = async (f) => { try { await f(); return "ok"; } catch (e) { return e.code; } };
  return {
    pipeText: await code(() => file.readText("pipe")),
    pipeBytes: await code(() => file.readBytes("pipe")),
    zero: await code(() => file.readBytes("zero")),
    copy: await code(() => file.copy({ sourcePath: "pipe", targetPath: "copied" })),
  };
}"#;
    let workflow = common::probe_workflow(&dir.path().join("wf"), &[("applyResult", source)]);
    let mut input = common::probe_input(&["one"]);
    input.world = input.world.with_files_dir(&files);
    let report = run(&workflow, input, &mut NoResults, &common::run_options());
    assert!(report.ok(), "{:?}", report.errors);
    let seen = serde_json::to_value(&report.units[0].jobs[0].apply).unwrap()["value"].clone();
    for key in ["pipeText", "pipeBytes", "zero"] {
        assert_ne!(seen[key], "ok", "{key}: {seen}");
    }
}
