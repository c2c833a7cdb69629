//! Invalid hook results and hostile hooks inside runs: each fails its own unit
//! with the contract's message and the hook file, and the other units go on.

use crate::common;

use hookrun::run::{NoResults, RunReport, UnitStatus, run};
use hookrun::sandbox::Limits;

use serde_json::json;

fn run_titles(
    workflow: &hookrun::manifest::Workflow,
    titles: &[&str],
    limits: Limits,
) -> RunReport {
    let input = common::probe_input(titles);
    let options = common::run_options().sandbox(
        common::sandbox_options()
            .limits(limits)
            .determinism(None)
            .measure_heap(false),
    );
    run(workflow, input, &mut NoResults, &options)
}

const APPLY: &str = "export function applyResult({ parent }) { return parent.key; }";
const PREFLIGHT_FROM_TITLE: &str = "export function preflight({ selectionContext }) {\n  return JSON.parse(selectionContext.items[0].title);\n}";

#[test]
fn every_invalid_preflight_outcome_fails_only_its_unit_with_the_contract_message() {
    let dir = tempfile::tempdir().unwrap();
    let wf = common::probe_workflow(
        dir.path(),
        &[("preflight", PREFLIGHT_FROM_TITLE), ("applyResult", APPLY)],
    );
    let cases = [
        (r#""text""#, "preflight must return an object outcome"),
        (
            r#"{"kind": "explode"}"#,
            "Unsupported preflight outcome kind: explode",
        ),
        (r#"{}"#, "Unsupported preflight outcome kind: <empty>"),
        (
            r#"{"kind": "replace-units"}"#,
            "preflight replace-units outcome requires units[]",
        ),
        (
            r#"{"kind": "replace-units", "units": [{"id": ""}]}"#,
            "preflight replace-units units[0].id must be non-empty",
        ),
        (
            r#"{"kind": "replace-units", "units": [{"id": "a"}], "aggregate": {"id": ""}}"#,
            "preflight aggregate.id must be non-empty",
        ),
        (
            r#"{"kind": "replace-units", "units": [{"id": "a"}], "aggregate": {"id": "x", "mode": "all"}}"#,
            "preflight aggregate.mode must be single-apply",
        ),
        (
            r#"{"kind": "replace-units", "units": [{"id": "a"}], "aggregate": {"id": "x", "mode": "single-apply"}}"#,
            "preflight aggregate.applyWhen must be all-succeeded",
        ),
        (
            r#"{"kind": "replace-units", "units": [{"id": "a"}], "aggregate": {"id": "x", "mode": "single-apply", "applyWhen": "all-succeeded"}}"#,
            "preflight aggregate.orderBy must be unit.order",
        ),
        (
            r#"{"kind": "short-circuit-apply"}"#,
            "preflight short-circuit-apply outcome requires apply",
        ),
    ];
    let mut titles: Vec<&str> = cases.iter().map(|(t, _)| *t).collect();
    titles.push(r#"{"kind": "continue"}"#);
    let report = run_titles(&wf, &titles, Limits::default());
    for (i, (_, message)) in cases.iter().enumerate() {
        let unit = &report.units[i];
        assert_eq!(unit.status, UnitStatus::Failed, "unit {i}");
        assert_eq!(unit.errors[0].message, *message, "unit {i}");
        let hook = unit.errors[0].hook.as_ref().unwrap();
        assert_eq!(
            (hook.hook.as_str(), hook.file.as_str()),
            ("preflight", "hooks/preflight.mjs")
        );
    }
    let last = report.units.last().unwrap();
    assert_eq!(last.status, UnitStatus::Succeeded, "{:?}", last.errors);
    assert_eq!(report.summary.failed, cases.len());
}

#[test]
fn build_request_results_are_checked_and_normalised() {
    let dir = tempfile::tempdir().unwrap();
    let build = "export function buildRequest({ selectionContext }) {\n  return JSON.parse(selectionContext.items[0].title);\n}";
    let wf = common::probe_workflow(
        dir.path(),
        &[("buildRequest", build), ("applyResult", APPLY)],
    );
    let report = run_titles(
        &wf,
        &[
            "[1, 2]",
            r#"{"kind": "pass-through.run.v1"}"#,
            r#"{"kind": "pass-through.run.v1", "selectionContext": {}}"#,
        ],
        Limits::default(),
    );
    assert_eq!(
        report.units[0].errors[0].message,
        "buildRequest must return an object request payload"
    );
    let contract = &report.units[1].errors[0];
    assert_eq!(contract.name, "ProviderRequestContractError");
    assert_eq!(contract.details["category"], "request_payload_invalid");
    assert!(contract.message.starts_with("Provider request contract error (category=request_payload_invalid, reason=invalid_request_payload, requestKind=pass-through.run.v1"), "{}", contract.message);
    let ok = &report.units[2];
    assert_eq!(ok.status, UnitStatus::Succeeded, "{:?}", ok.errors);
    let request = ok.jobs[0].request.as_ref().unwrap();
    assert_eq!(
        request["targetParentRef"],
        json!({"libraryId": 1, "key": "P0000002"})
    );
    assert_eq!(
        request["taskName"],
        json!(r#"{"kind": "pass-through.run.v1", "selectionContext": {}}"#)
    );
}

#[test]
fn hostile_hooks_fail_their_unit_and_the_run_goes_on() {
    let dir = tempfile::tempdir().unwrap();
    let preflight = r#"export function preflight({ selectionContext }) {
  const title = selectionContext.items[0].title;
  if (title === "loop") for (;;) {}
  if (title === "bomb") { const a = []; for (;;) a.push(new Array(100000).fill(1)); }
  if (title === "throw") throw new TypeError("bad paper");
  if (title === "mutate") selectionContext.items.push({});
  return { kind: "continue" };
}"#;
    let wf = common::probe_workflow(
        dir.path(),
        &[("preflight", preflight), ("applyResult", APPLY)],
    );
    let limits = Limits::default()
        .timeout_ms(300)
        .max_heap_bytes(64 * 1024 * 1024);
    let report = run_titles(
        &wf,
        &["loop", "fine", "bomb", "throw", "mutate", "also fine"],
        limits,
    );
    let outcomes: Vec<_> = report
        .units
        .iter()
        .map(|u| {
            u.errors
                .first()
                .and_then(|e| e.hook.as_ref())
                .map_or("ok", |h| h.outcome.as_str())
        })
        .collect();
    assert_eq!(
        outcomes,
        [
            "timeout",
            "ok",
            "memory-limit",
            "hook-error",
            "hook-error",
            "ok"
        ]
    );
    let thrown = report.units[3].errors[0].hook.as_ref().unwrap();
    assert_eq!(thrown.name, "TypeError");
    assert_eq!(
        thrown.location.as_ref().map(|l| (l.file.as_str(), l.line)),
        Some(("hooks/preflight.mjs", 5))
    );
    assert_eq!(report.units[1].status, UnitStatus::Succeeded);
    assert_eq!(report.units[5].status, UnitStatus::Succeeded);
}

/// Writes are bounded per run: the write that would pass the limit ends its call with
/// `write-limit` (a hook cannot catch it), nothing past the limit is recorded, and later
/// units meet the same bound.
#[test]
fn recorded_writes_past_the_run_limit_end_the_call() {
    let dir = tempfile::tempdir().unwrap();
    let apply = r#"export async function applyResult({ parent, runtime }) {
  const big = "x".repeat(40 * 1000);
  for (let i = 0; i < 300; i++) {
    try {
      await runtime.hostApi.notes.create({
        operationId: `${parent.key}:${i}`,
        placement: { kind: "child", parentRef: { libraryId: parent.libraryId, key: parent.key } },
        content: { format: "html", value: `<p>${big}</p>` },
      });
    } catch (e) {
      // Swallowing the refusal changes nothing: the call is already ending.
    }
  }
  return "wrote them all";
}"#;
    let wf = common::probe_workflow(dir.path(), &[("applyResult", apply)]);
    let limit = 400 * 1000;
    let options = common::run_options().max_write_bytes(Some(limit as u64));
    let report = run(
        &wf,
        common::probe_input(&["a", "b"]),
        &mut NoResults,
        &options,
    );
    for unit in &report.units {
        let hook = unit.errors[0].hook.as_ref().unwrap();
        assert_eq!(hook.outcome.as_str(), "write-limit", "{}", unit.unit_id);
        assert!(hook.message.contains("write limit"), "{}", hook.message);
    }
    assert_eq!(report.units[0].status, UnitStatus::Failed);
    let recorded: usize = report
        .effects
        .iter()
        .map(|e| serde_json::to_vec(&e.args).unwrap().len())
        .sum();
    let one = serde_json::to_vec(&report.effects[0].args).unwrap().len();
    assert!(recorded <= limit, "{recorded}");
    assert!(recorded + one > limit, "as many notes as fit: {recorded}");
    assert_eq!(report.effects.len(), limit / one, "{one} bytes a note");
}

/// Messages a hook reads name paths relative to the files root, never where the
/// files live on the host.
#[test]
fn host_errors_never_name_host_paths() {
    let dir = tempfile::tempdir().unwrap();
    let files = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(files.path().join("papers")).unwrap();
    std::fs::write(files.path().join("papers/cats.md"), "# Cats").unwrap();
    let apply = r#"export async function applyResult({ runtime }) {
  const seen = [];
  const attempts = [
    () => runtime.hostApi.file.list({ path: "papers/cats.md", recursive: true }),
    () => runtime.hostApi.file.readText("papers/missing.md"),
    () => runtime.hostApi.file.readText("papers"),
    () => runtime.hostApi.file.stat("../outside"),
  ];
  for (const attempt of attempts) {
    try {
      await attempt();
      seen.push("no error");
    } catch (e) {
      seen.push(JSON.stringify({ message: e.message, details: e.details }));
    }
  }
  return seen;
}"#;
    let wf = common::probe_workflow(dir.path(), &[("applyResult", apply)]);
    let mut input = common::probe_input(&["a"]);
    input.world = input.world.with_files_dir(files.path());
    let report = run(&wf, input, &mut NoResults, &common::run_options());
    let value = serde_json::to_value(&report.units[0].jobs[0].apply).unwrap()["value"].clone();
    let seen: Vec<String> = serde_json::from_value(value).unwrap();
    assert_eq!(seen.len(), 4);
    let host = files.path().canonicalize().unwrap();
    for text in &seen {
        assert_ne!(text, "no error");
        assert!(!text.contains(&*host.to_string_lossy()), "{text}");
        assert!(!text.contains(&*files.path().to_string_lossy()), "{text}");
        assert!(
            !text.contains(&*std::env::temp_dir().to_string_lossy()),
            "{text}"
        );
    }
    assert!(seen[0].contains("papers/cats.md"), "{}", seen[0]);
}

/// Getters and setters a hook puts on `Object.prototype` and `Array.prototype`, a
/// changed `Array[Symbol.species]` and a frozen global change nothing hookrun itself
/// does: host calls, console capture, results and the next unit's call all still work.
#[test]
fn polluted_prototypes_and_a_frozen_global_break_nothing_of_the_sandbox() {
    let dir = tempfile::tempdir().unwrap();
    let apply = r#"
function pollute() {
  for (const name of ["error", "ok", "message", "name", "code", "details", "runtime",
                      "bundleReader", "resolveArtifact", "limit", "value", "kind", "debugMode",
                      "interactionMode", "get", "set"]) {
    Object.defineProperty(Object.prototype, name, {
      __proto__: null,
      get() { return { message: "polluted " + name }; },
      set(v) {},
      configurable: true,
    });
  }
  for (const index of [0, 1, 2, 3]) {
    Object.defineProperty(Array.prototype, index, { __proto__: null, get() { return "polluted"; }, set(v) {}, configurable: true });
  }
  class Evil extends Array {}
  Object.defineProperty(Array, Symbol.species, { __proto__: null, get() { return Evil; }, configurable: true });
  Object.freeze(globalThis);
}
export async function applyResult({ parent, runtime }) {
  if (parent.key === "P0000000") pollute();
  const detail = await runtime.hostApi.library.getItemDetail(parent);
  console.log(["a", { b: 1 }], "and", [2]);
  let refused = "none";
  try {
    await runtime.hostApi.library.getItemDetail({ libraryId: 1, key: "NOPE0000" });
  } catch (e) {
    refused = e.code;
  }
  return { title: detail.item.title, list: [1, { x: 2 }], refused, api: typeof __zsHostApi.library,
           debug: runtime.debugMode, mode: runtime.hostApi.interactionMode };
}"#;
    let wf = common::probe_workflow(dir.path(), &[("applyResult", apply)]);
    let report = run(
        &wf,
        common::probe_input(&["first", "second"]),
        &mut NoResults,
        &common::run_options(),
    );
    for (unit, title) in report.units.iter().zip(["first", "second"]) {
        assert!(
            unit.errors.is_empty(),
            "{}: {:?}",
            unit.unit_id,
            unit.errors
        );
        let value = serde_json::to_value(&unit.jobs[0].apply).unwrap()["value"].clone();
        assert_eq!(
            value,
            json!({"title": title, "list": [1, {"x": 2}], "refused": "not_found", "api": "object",
                   "debug": false, "mode": "non_interactive"}),
            "{}",
            unit.unit_id
        );
    }
    let logs: Vec<String> = report
        .hooks
        .iter()
        .flat_map(|h| h.logs.iter().map(|l| l.message.clone()))
        .collect();
    assert!(
        logs.iter().all(|l| l == r#"["a", {"b": 1}] and [2]"#),
        "{logs:?}"
    );
}

/// Peak resident memory of `hookrun run` of `workflow` over `selection`, in
/// MiB, its report thrown away.
// The child is reaped by `wait4`, which also reports its peak resident size.
#[allow(clippy::zombie_processes)]
fn peak_rss_mib(workflow: &std::path::Path, selection: &std::path::Path, args: &[&str]) -> u64 {
    use std::os::unix::process::ExitStatusExt;
    let child = std::process::Command::new(env!("CARGO_BIN_EXE_hookrun"))
        .arg("run")
        .arg(workflow)
        .arg("--selection")
        .arg(selection)
        .args(["--timeout-ms", "120000"])
        .args(args)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let mut status = 0;
    // SAFETY: an all-zero `rusage` is valid; `wait4` fills it for this child only.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: `child.id()` is our own unwaited child; the pointers are to locals.
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t);
    let status = std::process::ExitStatus::from_raw(status);
    assert_eq!(status.code(), Some(0), "{}: {status:?}", workflow.display());
    usage.ru_maxrss as u64 / 1024
}

/// Resident memory stays within the budget SECURITY.md gives ("Resident
/// memory"): the heap cap, twice the largest host call argument while it is
/// served, and twice the run's write limit (the recorded arguments and the
/// files they leave), above what an empty run holds.
#[test]
fn resident_memory_stays_within_the_heap_cap_and_the_host_budgets() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty");
    common::probe_workflow(&empty, &[("applyResult", APPLY)]);
    let writer = dir.path().join("writer");
    // 50 files of 1 MiB, then one of 24 MiB: 74 MiB of writes under a 96 MiB
    // limit and a 64 MiB heap cap.
    common::probe_workflow(
        &writer,
        &[(
            "applyResult",
            r#"export async function applyResult({ runtime }) {
  const file = runtime.hostApi.file;
  const dir = await file.getTempDirectoryPath();
  const mib = "x".repeat(1 << 20);
  for (let i = 0; i < 50; i++) await file.writeText(`${dir}/small-${i}.txt`, mib + i);
  await file.writeText(`${dir}/large.txt`, "y".repeat(24 << 20));
  return (await file.stat(`${dir}/large.txt`)).sizeBytes;
}"#,
        )],
    );
    let limits = [
        "--json",
        "--max-heap-mb",
        "64",
        "--max-write-bytes",
        "100663296",
    ];
    let selection = common::fixture("selections/canonical-parent.json");
    let base = peak_rss_mib(&empty, &selection, &limits);
    let peak = peak_rss_mib(&writer, &selection, &limits);
    let (heap, largest_argument, writes) = (64, 24, 96);
    let budget = heap + 2 * largest_argument + 2 * writes;
    eprintln!("peak {peak} MiB, empty run {base} MiB");
    assert!(
        peak <= base + budget,
        "peak {peak} MiB, empty run {base} MiB, budget {budget} MiB"
    );
}

/// The human output of a run streams as `--json` does: each unit is printed
/// when it is done, so a large run holds no more for people than for machines.
#[test]
fn human_output_holds_no_more_than_json_output() {
    let dir = tempfile::tempdir().unwrap();
    let selection = common::attachments_selection(dir.path(), 4000);
    let workflow = common::fixture("bench/pass-through");
    let json = peak_rss_mib(&workflow, &selection, &["--json"]);
    let human = peak_rss_mib(&workflow, &selection, &[]);
    eprintln!("--json {json} MiB, human {human} MiB");
    assert!(
        human <= json + json / 5 + 8,
        "--json {json} MiB, human {human} MiB"
    );
}
