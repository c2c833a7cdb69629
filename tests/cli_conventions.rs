//! The command line's conventions: which stream carries what, exit statuses,
//! standard input read once, `--version` everywhere, completions and man pages.

use crate::common;

use std::os::unix::process::CommandExt;
use std::process::Command as StdCommand;

use assert_cmd::Command;
use predicates::prelude::*;

fn hookrun() -> Command {
    Command::cargo_bin("hookrun").unwrap()
}

const SUBCOMMANDS: [&str; 11] = [
    "call",
    "check",
    "plan",
    "run",
    "test",
    "new",
    "migrate",
    "list",
    "lock",
    "completions",
    "man",
];

#[test]
fn every_subcommand_answers_version() {
    let version = env!("CARGO_PKG_VERSION");
    hookrun()
        .arg("--version")
        .assert()
        .code(0)
        .stdout(format!("hookrun {version}\n"));
    for sub in SUBCOMMANDS {
        hookrun()
            .args([sub, "--version"])
            .assert()
            .code(0)
            .stdout(predicate::str::contains(version));
    }
}

#[test]
fn standard_input_is_given_to_one_flag_at_most() {
    hookrun()
        .current_dir(common::fixture(""))
        .args([
            "run",
            "workflows/export-summary",
            "--selection",
            "-",
            "--settings",
            "-",
        ])
        .write_stdin("{}")
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "--selection and --settings each read standard input",
        ));
    // One of them is fine.
    hookrun()
        .current_dir(common::fixture(""))
        .args([
            "plan",
            "workflows/export-summary",
            "--selection",
            "-",
            "--json",
        ])
        .write_stdin(std::fs::read(common::fixture("selections/canonical-parent.json")).unwrap())
        .assert()
        .code(0);
}

#[test]
fn a_selection_on_standard_input_reads_as_the_same_file_does() {
    // Piped, redirected from the file, and named: one plan, and one error for
    // a file that is not a selection, naming standard input where it was read.
    use std::io::Write;
    use std::process::Stdio;
    let plan = |path: &std::path::Path, how: &str| {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_hookrun"));
        cmd.current_dir(common::fixture(""))
            .args(["plan", "workflows/export-summary", "--json", "--selection"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        match how {
            "named" => cmd.arg(path),
            "redirected" => cmd.arg("-").stdin(std::fs::File::open(path).unwrap()),
            _ => cmd.arg("-").stdin(Stdio::piped()),
        };
        let mut child = cmd.spawn().unwrap();
        if let Some(mut stdin) = child.stdin.take() {
            stdin.write_all(&std::fs::read(path).unwrap()).unwrap();
        }
        let out = child.wait_with_output().unwrap();
        (
            out.status.code(),
            out.stdout,
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.json");
    std::fs::write(
        &bad,
        r#"{"items": {"attachments": [{"item": {"id": 2}},]}}"#,
    )
    .unwrap();
    for path in [
        common::fixture("selections/grouped-mixed-same-parent.json"),
        bad,
    ] {
        let named = plan(&path, "named");
        let redirected = plan(&path, "redirected");
        let piped = plan(&path, "piped");
        let name = path.display().to_string();
        assert_eq!(redirected, piped, "{name}");
        assert_eq!(named.0, piped.0, "{name}");
        assert_eq!(named.1, piped.1, "{name}");
        assert_eq!(named.2.replace(&name, "-"), piped.2, "{name}");
    }
}

#[test]
fn output_that_cannot_be_written_is_a_failure_not_a_usage_error() {
    if std::fs::metadata("/dev/full").is_err() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    hookrun()
        .arg("lock")
        .arg(common::fixture("workflows"))
        .args(["--out", "/dev/full"])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("cannot write /dev/full"));
    // The device is written, never replaced.
    assert!(!std::fs::metadata("/dev/full").unwrap().is_file());
    // Unreadable input stays a usage error.
    hookrun()
        .arg("lock")
        .arg(dir.path().join("missing"))
        .arg("--out")
        .arg(dir.path().join("lock.json"))
        .assert()
        .code(2);
}

#[test]
fn a_bless_that_cannot_be_written_fails_its_case_and_keeps_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("demo");
    hookrun().arg("new").arg(&root).assert().code(0);
    let case = root.join("cases/example.json");
    let before = std::fs::read(&case).unwrap();
    let limit = (before.len() / 2) as libc::rlim_t;
    let mut command = StdCommand::new(env!("CARGO_BIN_EXE_hookrun"));
    command.args(["test", "--bless"]).arg(&root);
    // SAFETY: only async-signal-safe calls between fork and exec. Files may
    // not grow past half the case, and a write past that fails with EFBIG
    // instead of ending the process.
    unsafe {
        command.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let cap = libc::rlimit {
                rlim_cur: limit,
                rlim_max: limit,
            };
            if libc::setrlimit(libc::RLIMIT_FSIZE, &cap) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = command.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(stdout.contains("FAIL    demo/example"), "{stdout}");
    assert!(stdout.contains("cannot write"), "{stdout}");
    assert!(stdout.contains("0 passed, 1 failed"), "{stdout}");
    assert_eq!(std::fs::read(&case).unwrap(), before);
    let left: Vec<_> = std::fs::read_dir(root.join("cases"))
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["example.json"]);
}

#[test]
fn a_blessed_case_keeps_its_permissions_and_its_links() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("demo");
    hookrun().arg("new").arg(&root).assert().code(0);
    let case = root.join("cases/example.json");
    std::fs::set_permissions(&case, std::fs::Permissions::from_mode(0o640)).unwrap();
    // A case reached through a link inside the workflow is written where the
    // link points.
    let outside = root.join("kept.json");
    std::fs::rename(&case, &outside).unwrap();
    std::os::unix::fs::symlink(&outside, &case).unwrap();
    hookrun()
        .args(["test", "--bless"])
        .arg(&root)
        .assert()
        .code(0);
    assert!(
        std::fs::symlink_metadata(&case)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    let mode = std::fs::metadata(&outside).unwrap().permissions().mode();
    assert_eq!(mode & 0o777, 0o640);
    hookrun().arg("test").arg(&root).assert().code(0);
}

#[test]
fn completions_and_man_pages_cover_every_subcommand() {
    let script = hookrun()
        .args(["completions", "bash"])
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let script = String::from_utf8(script).unwrap();
    for sub in SUBCOMMANDS {
        assert!(script.contains(&format!("hookrun,{sub})")), "{sub}");
    }
    for shell in ["zsh", "fish", "elvish", "powershell"] {
        hookrun().args(["completions", shell]).assert().code(0);
    }
    hookrun().args(["completions", "tcsh"]).assert().code(2);

    let page = hookrun()
        .arg("man")
        .assert()
        .code(0)
        .get_output()
        .stdout
        .clone();
    let page = String::from_utf8(page).unwrap();
    assert!(page.starts_with(".ie"), "{page}");
    assert!(page.contains(".TH hookrun 1"), "{page}");
    for sub in SUBCOMMANDS {
        assert!(page.contains(&format!("hookrun\\-{sub}(1)")), "{sub}");
        let sub_page = hookrun().args(["man", sub]).assert().code(0);
        let text = String::from_utf8_lossy(&sub_page.get_output().stdout).to_string();
        assert!(text.contains(&format!(".TH hookrun-{sub} 1")), "{text}");
        assert!(text.contains(env!("CARGO_PKG_VERSION")), "{text}");
    }
    hookrun()
        .args(["man", "nope"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("no subcommand \"nope\""));
}

#[test]
fn new_workflows_point_editors_at_the_shipped_schema() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("demo");
    hookrun().arg("new").arg(&root).assert().code(0);
    let manifest: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("workflow.json")).unwrap()).unwrap();
    let pointed = root.join(manifest["$schema"].as_str().unwrap());
    assert_eq!(
        std::fs::read(pointed).unwrap(),
        std::fs::read(common::fixture("../schema/workflow.v2.schema.json")).unwrap()
    );
}

/// Every fixture case of the repository, and the scaffold's, is valid against
/// the case schema `hookrun new` ships, and the scaffold's case points at it.
#[test]
fn fixture_cases_validate_against_the_case_schema() {
    let schema: serde_json::Value = serde_json::from_slice(
        &std::fs::read(common::fixture("../schema/case.schema.json")).unwrap(),
    )
    .unwrap();
    let validator = jsonschema::validator_for(&schema).unwrap();
    let cases = common::fixture_cases();
    assert!(cases.len() >= 10, "{} cases", cases.len());
    for (_, case) in &cases {
        let value: serde_json::Value =
            serde_json::from_slice(&std::fs::read(case).unwrap()).unwrap();
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{}: {errors:?}", case.display());
    }
    // And a case the reader refuses is refused by the schema too.
    for bad in [
        serde_json::json!({"selections": {}}),
        serde_json::json!({"mode": "preview"}),
        serde_json::json!({"results": {"unit-1": {"result": {}}}}),
        serde_json::json!({"hostAnswers": {"library.listItems": []}}),
        serde_json::json!({"expect": {"unit": []}}),
    ] {
        assert!(!validator.is_valid(&bad), "{bad}");
    }
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().join("demo");
    hookrun().arg("new").arg(&root).assert().code(0);
    let case: serde_json::Value =
        serde_json::from_slice(&std::fs::read(root.join("cases/example.json")).unwrap()).unwrap();
    let pointed = root.join("cases").join(case["$schema"].as_str().unwrap());
    assert_eq!(
        std::fs::read(pointed).unwrap(),
        std::fs::read(common::fixture("../schema/case.schema.json")).unwrap()
    );
    assert!(validator.is_valid(&case));
}

/// `test --bless` and `migrate --write` write only inside the directory they
/// were pointed at: a case file, a `cases` directory or a manifest that is a
/// symbolic link leading out is refused (exit 2, naming the path) and nothing
/// outside changes.
#[test]
fn writes_never_follow_symbolic_links_out_of_the_tree() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("outside");
    std::fs::create_dir(&outside).unwrap();
    // A case file leading out.
    let root = dir.path().join("demo");
    hookrun().arg("new").arg(&root).assert().code(0);
    let case = root.join("cases/example.json");
    std::fs::rename(&case, outside.join("example.json")).unwrap();
    std::os::unix::fs::symlink(outside.join("example.json"), &case).unwrap();
    let before = std::fs::read(outside.join("example.json")).unwrap();
    let out = hookrun()
        .args(["test", "--bless"])
        .arg(&root)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(
        stderr.contains("example.json") && stderr.contains("outside"),
        "{stderr}"
    );
    assert_eq!(std::fs::read(outside.join("example.json")).unwrap(), before);
    // The whole `cases` directory leading out.
    std::fs::remove_file(&case).unwrap();
    std::fs::rename(outside.join("example.json"), &case).unwrap();
    std::fs::rename(root.join("cases"), outside.join("cases")).unwrap();
    std::os::unix::fs::symlink(outside.join("cases"), root.join("cases")).unwrap();
    hookrun()
        .args(["test", "--bless"])
        .arg(&root)
        .assert()
        .code(2);
    assert_eq!(
        std::fs::read(outside.join("cases/example.json")).unwrap(),
        before
    );
    // A legacy manifest leading out of the tree `migrate --write` was given.
    let tree = dir.path().join("tree");
    std::fs::create_dir_all(tree.join("wf")).unwrap();
    let legacy = std::fs::read(common::fixture("legacy/g1-tag-suggest/workflow.json")).unwrap();
    std::fs::write(outside.join("workflow.json"), &legacy).unwrap();
    std::os::unix::fs::symlink(outside.join("workflow.json"), tree.join("wf/workflow.json"))
        .unwrap();
    let out = hookrun()
        .args(["migrate", "--write"])
        .arg(tree.join("wf/workflow.json"))
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("outside"), "{stderr}");
    assert_eq!(
        std::fs::read(outside.join("workflow.json")).unwrap(),
        legacy
    );
}

/// A lock names its paths as JSON text: a workflow under a path that is not
/// UTF-8 is refused (exit 2, naming it), never written lossily.
#[test]
fn a_lock_refuses_paths_that_are_not_utf_8() {
    use std::os::unix::ffi::OsStrExt;
    let dir = tempfile::tempdir().unwrap();
    let odd = dir.path().join(std::ffi::OsStr::from_bytes(b"wf-\xff"));
    hookrun().arg("new").arg(&odd).assert().code(0);
    let out = dir.path().join("lock.json");
    let assert = hookrun()
        .arg("lock")
        .arg(dir.path())
        .arg("--out")
        .arg(&out)
        .assert()
        .code(2);
    let stderr = String::from_utf8_lossy(&assert.get_output().stderr).to_string();
    assert!(stderr.contains("not valid UTF-8"), "{stderr}");
    assert!(!out.exists(), "nothing is written");
}

/// A long run shows its progress with rate and time left on a terminal (a
/// pseudo-terminal through `script`), and nothing of it when standard error is
/// not one.
#[test]
fn progress_shows_on_a_terminal_only() {
    let dir = tempfile::tempdir().unwrap();
    let selection = common::attachments_selection(dir.path(), 30);
    let workflow = common::fixture("bench/pass-through");
    let plain = hookrun()
        .arg("run")
        .arg(&workflow)
        .arg("--selection")
        .arg(&selection)
        .assert()
        .code(0);
    let stderr = String::from_utf8_lossy(&plain.get_output().stderr).to_string();
    assert!(!stderr.contains("ETA"), "{stderr}");
    if !std::path::Path::new("/usr/bin/script").exists() {
        return;
    }
    let command = format!(
        "{} run {} --selection {}",
        env!("CARGO_BIN_EXE_hookrun"),
        workflow.display(),
        selection.display()
    );
    let out = std::process::Command::new("/usr/bin/script")
        .args(["-qec", &command, "/dev/null"])
        .output()
        .unwrap();
    let terminal = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{terminal}");
    for shown in ["preflight [", "/30 units", "/s", "ETA"] {
        assert!(terminal.contains(shown), "{shown}: {terminal}");
    }
}
