//! The hook authors' guide (docs/hook-authors.md) works as written: its files
//! make a workflow whose case passes, its commands succeed, and its preflight
//! outcome examples are valid.

use std::path::Path;

use assert_cmd::Command;
use serde_json::Value;

/// Fenced blocks of the guide: (info string, body).
fn blocks(markdown: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut current: Option<(String, String)> = None;
    for line in markdown.lines() {
        match (&mut current, line.strip_prefix("```")) {
            (None, Some(info)) => current = Some((info.trim().to_string(), String::new())),
            (Some(_), Some("")) => out.extend(current.take()),
            (Some((_, body)), _) => {
                body.push_str(line);
                body.push('\n');
            }
            (None, None) => {}
        }
    }
    out
}

fn guide() -> Vec<(String, String)> {
    let text =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/hook-authors.md"))
            .unwrap();
    blocks(&text)
}

/// Runs a `hookrun …` line of the guide in `dir`.
fn run_command(dir: &Path, line: &str) {
    let args: Vec<&str> = line.split_whitespace().skip(1).collect();
    let out = Command::cargo_bin("hookrun")
        .unwrap()
        .current_dir(dir)
        .args(&args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "`{line}` failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_guide_builds_a_workflow_whose_commands_and_case_pass() {
    let dir = tempfile::tempdir().unwrap();
    let blocks = guide();
    let commands: Vec<&str> = blocks
        .iter()
        .filter(|(info, _)| info == "sh")
        .flat_map(|(_, body)| body.lines())
        .filter(|l| l.starts_with("hookrun "))
        .collect();
    assert_eq!(
        commands[0], "hookrun new reading-list",
        "the guide starts from the scaffold"
    );
    run_command(dir.path(), commands[0]);
    let workflow = dir.path().join("reading-list");
    std::fs::remove_file(workflow.join("cases/example.json")).unwrap();
    let mut files = 0;
    for (info, body) in &blocks {
        if let Some(file) = info
            .split_whitespace()
            .find_map(|w| w.strip_prefix("file="))
        {
            std::fs::write(workflow.join(file), body).unwrap();
            files += 1;
        }
    }
    assert_eq!(files, 4, "workflow.json, two hooks and one case");
    for command in &commands[1..] {
        run_command(dir.path(), command);
    }
}

#[test]
fn the_guides_outcome_examples_are_valid_outcomes() {
    let outcomes: Vec<Value> = guide()
        .into_iter()
        .filter(|(info, _)| info == "json outcome")
        .map(|(_, body)| serde_json::from_str(&body).unwrap())
        .collect();
    assert_eq!(outcomes.len(), 2);
    for outcome in outcomes {
        hookrun::hooks::parse_outcome(&outcome).unwrap_or_else(|e| panic!("{outcome}: {e}"));
    }
}
