//! Malformed and hostile inputs through the CLI: truncated, mistyped, deeply
//! nested, huge and non-UTF-8 manifests, selections, settings and fixture cases,
//! and result bundles that try to write outside their directory. Each ends with
//! a message naming the file and what is wrong, never a panic.

use crate::common;

use std::io::Write;
use std::path::Path;

use assert_cmd::Command;

fn hookrun(dir: &Path) -> Command {
    let mut cmd = Command::cargo_bin("hookrun").unwrap();
    cmd.current_dir(dir);
    cmd
}

fn export_summary() -> String {
    common::fixture("workflows/export-summary")
        .display()
        .to_string()
}

/// Asserts `args` exit with `code` and print every `needle`.
fn assert_refused(dir: &Path, args: &[&str], code: i32, needles: &[&str]) {
    let assert = hookrun(dir).args(args).assert().code(code);
    let output = assert.get_output();
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(!printed.contains("panicked"), "{args:?}: {printed}");
    for needle in needles {
        assert!(
            printed.contains(needle),
            "{args:?}: missing {needle:?} in {printed}"
        );
    }
}

fn nested(depth: usize) -> String {
    format!("{}{}", "[".repeat(depth), "]".repeat(depth))
}

#[test]
fn malformed_selections_name_the_file_and_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, bytes: &[u8]| std::fs::write(dir.path().join(name), bytes).unwrap();
    write("truncated.json", br#"{"items": ["#);
    write("deep.json", nested(10_000).as_bytes());
    write("mistyped.json", br#"{"items": 5, "sampledAt": 7}"#);
    write("binary.json", b"\xff\xfe{");
    let workflow = export_summary();
    for (file, problem) in [
        (
            "truncated.json",
            "EOF while parsing a list at line 1 column 11",
        ),
        ("deep.json", "recursion limit exceeded"),
        ("mistyped.json", "not a valid SelectionContext"),
        ("binary.json", "stream did not contain valid UTF-8"),
    ] {
        assert_refused(
            dir.path(),
            &["plan", &workflow, "--selection", file],
            2,
            &[
                if file == "mistyped.json" {
                    "the --selection input"
                } else {
                    file
                },
                problem,
            ],
        );
    }
}

#[test]
fn mistyped_settings_name_the_member() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("settings.json"),
        br#"{"workflowParams": 5}"#,
    )
    .unwrap();
    let selection = common::fixture("selections/canonical-parent.json");
    assert_refused(
        dir.path(),
        &[
            "run",
            &export_summary(),
            "--selection",
            &selection.display().to_string(),
            "--settings",
            "settings.json",
        ],
        2,
        &["the --settings input at /settings/workflowParams: expected an object"],
    );
}

#[test]
fn malformed_manifests_are_diagnostics_with_positions_or_pointers() {
    let dir = tempfile::tempdir().unwrap();
    for (name, text, problem) in [
        ("truncated", r#"{"schemaVersion": 2, "id": "x""#.to_string(), "line 1"),
        ("deep", format!(r#"{{"schemaVersion": 2, "x": {}}}"#, nested(10_000)), "recursion limit exceeded"),
        ("mistyped", r#"{"schemaVersion": 2, "id": "x", "label": "X", "provider": "pass-through", "hooks": 5}"#.to_string(), "/hooks"),
        ("huge", format!(r#"{{"schemaVersion": 2, "id": "x", "label": "{}", "provider": 7}}"#, "x".repeat(8 << 20)), "/provider"),
    ] {
        let workflow = dir.path().join(name);
        std::fs::create_dir_all(&workflow).unwrap();
        std::fs::write(workflow.join("workflow.json"), text).unwrap();
        assert_refused(dir.path(), &["check", name], 1, &[problem]);
    }
    std::fs::create_dir_all(dir.path().join("binary")).unwrap();
    std::fs::write(dir.path().join("binary/workflow.json"), b"\xff\xfe{}").unwrap();
    assert_refused(dir.path(), &["check", "binary"], 1, &["workflow.json"]);
}

#[test]
fn malformed_fixture_cases_name_the_case_and_the_member() {
    let dir = tempfile::tempdir().unwrap();
    let selection = common::fixture("selections/canonical-parent.json");
    let selection = selection.display().to_string();
    for (name, text, problem) in [
        (
            "truncated.json",
            r#"{"selection": "sel.json""#.to_string(),
            "truncated.json is not valid JSON".to_string(),
        ),
        (
            "pointer.json",
            format!(r#"{{"selection": "{selection}#/missing/pointer"}}"#),
            "has nothing at /missing/pointer".to_string(),
        ),
        (
            "results.json",
            format!(r#"{{"selection": "{selection}", "results": 7}}"#),
            "results.json at /results: expected an object keyed by unit id".to_string(),
        ),
        (
            "missing.json",
            r#"{"selection": "does-not-exist.json"}"#.to_string(),
            "does-not-exist.json".to_string(),
        ),
    ] {
        std::fs::write(dir.path().join(name), text).unwrap();
        assert_refused(
            dir.path(),
            &["run", &export_summary(), "--fixture", name],
            2,
            &[&problem],
        );
    }
}

/// A zip holding one entry named `name` (any bytes, unchecked by the writer).
fn zip_with(name: &str, data: &[u8]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    zip.start_file(name, zip::write::SimpleFileOptions::default())
        .unwrap();
    zip.write_all(data).unwrap();
    zip.finish().unwrap().into_inner()
}

#[test]
fn hostile_result_bundles_fail_the_unit_and_write_nothing_outside() {
    let dir = tempfile::tempdir().unwrap();
    let temp = dir.path().join("tmp");
    std::fs::create_dir_all(&temp).unwrap();
    let case_dir = dir.path().join("case");
    std::fs::create_dir_all(&case_dir).unwrap();
    // The digest workflow with an applyResult that lists the bundle.
    let digest = dir.path().join("digest");
    std::fs::create_dir_all(digest.join("hooks")).unwrap();
    std::fs::copy(
        common::fixture("workflows/literature-digest/workflow.json"),
        digest.join("workflow.json"),
    )
    .unwrap();
    std::fs::write(
        digest.join("hooks/applyResult.mjs"),
        "export async function applyResult({ bundleReader }) { return await bundleReader.list(); }",
    )
    .unwrap();
    let original = common::fixture("workflows/literature-digest/cases/markdown-paper.json");
    let mut case: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&original).unwrap()).unwrap();
    let cases_dir = original.parent().unwrap();
    for member in ["selection", "library", "files"] {
        let path = cases_dir.join(case[member].as_str().unwrap());
        case[member] = path.display().to_string().into();
    }
    let escaped = dir.path().join("escaped.txt");
    for (name, bundle, problem) in [
        (
            "slip",
            zip_with("../../escaped.txt", b"x"),
            "Unsafe zip entry path: ../../escaped.txt",
        ),
        (
            "absolute",
            zip_with(&escaped.display().to_string(), b"x"),
            "Unsafe zip entry path",
        ),
        (
            "ratio",
            zip_with("result/result.json", &vec![b' '; 8 << 20]),
            "a ratio above 200:1",
        ),
        (
            "corrupt",
            b"PK\x03\x04 not really a zip".to_vec(),
            "Failed to extract workflow bundle",
        ),
    ] {
        std::fs::write(case_dir.join(format!("{name}.zip")), bundle).unwrap();
        case["results"]["unit-1"]["bundle"] = format!("{name}.zip").into();
        let case_file = case_dir.join(format!("{name}.json"));
        std::fs::write(&case_file, case.to_string()).unwrap();
        let assert = hookrun(dir.path())
            .env("TMPDIR", &temp)
            .args(["run", &digest.display().to_string(), "--fixture"])
            .arg(&case_file)
            .args(["--json"])
            .assert()
            .code(1);
        let stdout = String::from_utf8_lossy(&assert.get_output().stdout).into_owned();
        assert!(stdout.contains(problem), "{name}: {stdout}");
        assert!(!escaped.exists(), "{name} wrote outside its directory");
        assert_eq!(
            std::fs::read_dir(&temp).unwrap().count(),
            0,
            "{name} left temporary files"
        );
    }
}

/// Every file-reading entry point of the CLI, given a FIFO, `/dev/zero` (through
/// a symlink too) or a directory where a file is meant: each refuses at once,
/// naming the input, instead of hanging or reading until memory runs out.
#[test]
fn inputs_that_are_not_regular_files_are_refused_without_hanging() {
    let dir = tempfile::tempdir().unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(dir.path().join("fifo"))
        .status()
        .unwrap();
    assert!(made.success());
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero")).unwrap();
    std::fs::create_dir(dir.path().join("adir")).unwrap();
    let workflow = export_summary();
    let selection = common::fixture("selections/canonical-parent.json")
        .display()
        .to_string();
    for bad in ["fifo", "zero", "/dev/zero", "adir"] {
        for flags in [
            vec!["--selection", bad],
            vec!["--selection", &selection, "--settings", bad],
            vec!["--fixture", bad],
        ] {
            let mut args = vec!["plan", workflow.as_str()];
            args.extend(flags.iter().copied());
            let assert = hookrun(dir.path())
                .args(&args)
                .timeout(std::time::Duration::from_secs(60))
                .assert()
                .code(2);
            let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
            assert!(stderr.contains(bad), "{args:?}: {stderr}");
            assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        }
        // A case member naming it.
        let case = format!(r#"{{"selection": "{selection}", "settings": "{bad}"}}"#);
        std::fs::write(dir.path().join("case.json"), case).unwrap();
        hookrun(dir.path())
            .args(["run", &workflow, "--fixture", "case.json"])
            .timeout(std::time::Duration::from_secs(60))
            .assert()
            .code(2);
    }
}

/// Standard input that never ends is an error once it passes the input limit,
/// not a read that runs until memory runs out.
#[test]
fn an_endless_standard_input_ends_with_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let selection = common::fixture("selections/canonical-parent.json")
        .display()
        .to_string();
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("hookrun"))
        .args([
            "plan",
            &export_summary(),
            "--selection",
            &selection,
            "--settings",
            "-",
        ])
        .current_dir(dir.path())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let feeder = std::thread::spawn(move || {
        let chunk = vec![b' '; 1 << 20];
        // Stops once hookrun closes its end.
        while stdin.write_all(&chunk).is_ok() {}
    });
    let output = child.wait_with_output().unwrap();
    feeder.join().unwrap();
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("larger than"), "{stderr}");
}
