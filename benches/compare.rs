//! hookrun side by side with its peers, measured in the same run.
//!
//! `cargo bench --bench compare` (or `bench/run.sh`, which installs the peers
//! first) prints Markdown tables of medians and the ratios hookrun/peer:
//!
//! 1. a warm hook call with a ~10 KB selection in and a small object out;
//! 2. a ready runtime (prelude installed, limits armed), started and pooled;
//! 3. a pass-through run of 1, 100 and 10,000 units through all four hooks
//!    (`fixtures/bench/pass-through`), in process;
//! 4. `hookrun run` as a whole process on one unit;
//!
//! and the memory: peak RSS of the 10,000-unit run and the resident cost of
//! one idle ready runtime. A last table compares the two isolation modes
//! (`Isolation::Process` against in process, same run): the warm call of case 1
//! and a 1,000-unit pass-through run, with the worker's peak RSS.
//!
//! The peers are Node.js importing the same hook modules and calling them
//! directly, without a sandbox (`bench/peers/node-harness.mjs`), and one fresh
//! `deno run` process per hook call with read access to the workflow directory
//! only (`bench/peers/deno-call.mjs`, Deno installed by npm into
//! `bench/peers/node_modules`). Without Deno its column shows `n/a`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hookrun::host::world::HostWorld;
use hookrun::manifest::{Workflow, discover};
use hookrun::run::{NoResults, RunInput, RunOptions, Settings, run};
use hookrun::sandbox::{
    CallResult, Isolation, PoolOptions, Sandbox, SandboxOptions, SandboxPool, set_worker_binary,
};
use hookrun::selection::SelectionContext;
use serde_json::{Value, json};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[(samples.len() - 1) / 2]
}

fn time<F: FnMut()>(n: usize, mut f: F) -> Duration {
    median(
        (0..n)
            .map(|_| {
                let start = Instant::now();
                f();
                start.elapsed()
            })
            .collect(),
    )
}

/// Runs `command` to completion, its standard input from `input`; panics with
/// its error output when it fails, since a failed peer would skew the table.
fn finish(command: &mut Command, input: Option<&Path>) -> String {
    let stdin = match input {
        Some(path) => Stdio::from(fs::File::open(path).expect("argument file")),
        None => Stdio::null(),
    };
    let out = command
        .stdin(stdin)
        .stderr(Stdio::piped())
        .output()
        .expect("the command starts");
    assert!(
        out.status.success(),
        "{command:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn process_time(n: usize, mut command: impl FnMut() -> Command, input: Option<&Path>) -> Duration {
    time(n, || {
        finish(&mut command(), input);
    })
}

/// A canonical selection of `n` attachments with their parents' refs.
fn selection(n: usize) -> Value {
    let items: Vec<Value> = (0..n)
        .map(|i| {
            json!({
                "kind": "attachment",
                "ref": {"libraryId": 1, "key": format!("ATT{i:05}")},
                "itemType": "attachment",
                "title": format!("Attachment number {i} with a reasonably long title"),
                "parentRef": {"libraryId": 1, "key": format!("PAR{i:05}")},
                "filename": format!("paper-{i}.pdf"),
                "contentType": "application/pdf",
                "createdAt": "2026-02-01T10:05:00Z",
                "fileState": "available"
            })
        })
        .collect();
    json!({"items": items, "sampledAt": "2026-03-01T09:00:00.000Z"})
}

struct Row {
    case: String,
    hookrun: Duration,
    node: Option<Duration>,
    deno: Option<Duration>,
}

fn show(d: Duration) -> String {
    let us = d.as_secs_f64() * 1e6;
    if us < 1_000.0 {
        format!("{us:.1} µs")
    } else if us < 1_000_000.0 {
        format!("{:.2} ms", us / 1e3)
    } else {
        format!("{:.2} s", us / 1e6)
    }
}

fn ratio(hookrun: Duration, peer: Option<Duration>) -> String {
    peer.map_or("n/a".into(), |p| {
        format!("{:.3}", hookrun.as_secs_f64() / p.as_secs_f64())
    })
}

fn print_rows(rows: &[Row]) {
    println!(
        "| case | hookrun | Node.js, no sandbox | hookrun/Node | deno run per hook call | hookrun/deno |"
    );
    println!("|---|---:|---:|---:|---:|---:|");
    for r in rows {
        let cell = |d: Option<Duration>| d.map_or("n/a".into(), show);
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            r.case,
            show(r.hookrun),
            cell(r.node),
            ratio(r.hookrun, r.node),
            cell(r.deno),
            ratio(r.hookrun, r.deno),
        );
    }
}

struct Peers {
    dir: PathBuf,
    deno: Option<PathBuf>,
    scratch: tempfile::TempDir,
}

impl Peers {
    fn new() -> Peers {
        let dir = repo().join("bench/peers");
        let deno = Some(dir.join("node_modules/.bin/deno")).filter(|d| d.exists());
        Peers {
            dir,
            deno,
            scratch: tempfile::tempdir().expect("a scratch directory"),
        }
    }

    fn write(&self, name: &str, value: &Value) -> PathBuf {
        let path = self.scratch.path().join(name);
        fs::write(&path, value.to_string()).expect("scratch file");
        path
    }

    fn node(&self, args: &[&Path]) -> Command {
        let mut command = Command::new("node");
        command.arg(self.dir.join("node-harness.mjs")).args(args);
        command
    }

    /// One `deno run` process calling `export` of `module` with read access to
    /// `jail` only.
    fn deno_call(&self, jail: &Path, module: &Path, export: &str) -> Option<Command> {
        let mut command = Command::new(self.deno.as_ref()?);
        command
            .args(["run", "--quiet", "--no-prompt", "--no-config", "--no-lock"])
            .arg(format!("--allow-read={}", jail.display()))
            .arg(self.dir.join("deno-call.mjs"))
            .arg(module)
            .arg(export);
        Some(command)
    }

    fn deno_time(
        &self,
        n: usize,
        jail: &Path,
        module: &Path,
        export: &str,
        input: &Path,
    ) -> Option<Duration> {
        self.deno_call(jail, module, export)?;
        Some(process_time(
            n,
            || {
                self.deno_call(jail, module, export)
                    .expect("deno is installed")
            },
            Some(input),
        ))
    }

    /// A `deno run` process evaluating `module` alone.
    fn deno_bare(&self, module: &Path) -> Command {
        let mut command = Command::new(self.deno.as_ref().map_or(Path::new("deno"), |d| d));
        command
            .args(["run", "--quiet", "--no-prompt", "--no-config", "--no-lock"])
            .arg(module);
        command
    }

    fn node_json(&self, args: &[&Path]) -> Value {
        serde_json::from_str(&finish(&mut self.node(args), None)).expect("the harness prints JSON")
    }

    /// Peak resident set of `command` in bytes, through GNU time.
    fn peak_rss(&self, program: &Path, args: &[&Path]) -> Option<u64> {
        let out = self.scratch.path().join("rss");
        let mut command = Command::new("/usr/bin/time");
        command
            .args(["-f", "%M", "-o"])
            .arg(&out)
            .arg(program)
            .args(args)
            .stdout(Stdio::null());
        finish(&mut command, None);
        let kib: u64 = fs::read_to_string(&out).ok()?.trim().parse().ok()?;
        Some(kib * 1024)
    }
}

/// The argument of the warm call: a selection of 40 attachments (about 12 KB).
fn warm_arg() -> Value {
    json!({"selectionContext": selection(40)})
}

/// The median warm call of `summarise` in a sandbox with `isolation`, and the
/// sandbox (for its worker's pid).
fn time_warm_call(isolation: Isolation, arg: &Value) -> (Duration, Sandbox) {
    let root = repo().join("fixtures/sandbox");
    let module = root.join("bench.mjs");
    let options = SandboxOptions::default().isolation(isolation);
    let mut sandbox = Sandbox::new(&root, options).expect("sandbox");
    sandbox.call(&module, "summarise", arg);
    let took = time(2_000, || {
        let out = sandbox.call(&module, "summarise", arg);
        assert!(matches!(out.result, CallResult::Ok(_)), "{:?}", out.result);
    });
    (took, sandbox)
}

fn warm_call(peers: &Peers) -> Row {
    let root = repo().join("fixtures/sandbox");
    let module = root.join("bench.mjs");
    let arg = warm_arg();
    let arg_file = peers.write("warm-call.json", &arg);
    let (hookrun, _) = time_warm_call(Isolation::InProcess, &arg);
    let node = peers.node_json(&[
        Path::new("call"),
        &module,
        Path::new("summarise"),
        &arg_file,
        Path::new("2000"),
    ])["medianNs"]
        .as_u64()
        .map(Duration::from_nanos);
    Row {
        case: format!(
            "1. warm hook call, {:.1} KB selection in, small object out",
            arg.to_string().len() as f64 / 1024.0
        ),
        hookrun,
        node,
        deno: peers.deno_time(15, &root, &module, "summarise", &arg_file),
    }
}

fn ready_runtime(peers: &Peers) -> Vec<Row> {
    let root = repo().join("fixtures/sandbox");
    let cold = time(30, || {
        let mut sandbox = Sandbox::new(&root, SandboxOptions::default()).expect("sandbox");
        sandbox.warm_up().expect("the runtime starts");
    });
    let pool = SandboxPool::new(PoolOptions::default());
    pool.acquire(&root, SandboxOptions::default())
        .and_then(|mut s| s.warm_up())
        .expect("the runtime starts");
    let pooled = time(500, || {
        let sandbox = pool
            .acquire(&root, SandboxOptions::default())
            .expect("loan");
        assert!(sandbox.is_warm());
    });
    // Never reused: each loan is a runtime prewarm started and no hook ran in.
    let fresh = SandboxPool::new(PoolOptions {
        reuse: false,
        max_idle_per_root: 1,
        ..PoolOptions::default()
    });
    let mut loans = Vec::with_capacity(30);
    for _ in 0..30 {
        fresh
            .prewarm(&root, SandboxOptions::default(), 1)
            .expect("the runtime starts");
        let start = Instant::now();
        let sandbox = fresh
            .acquire(&root, SandboxOptions::default())
            .expect("loan");
        loans.push(start.elapsed());
        assert!(sandbox.is_warm());
    }
    let prewarmed = median(loans);
    let noop = peers.dir.join("noop.mjs");
    let node = process_time(
        10,
        || {
            let mut command = Command::new("node");
            command.arg(&noop);
            command
        },
        None,
    );
    let deno = peers
        .deno
        .as_ref()
        .map(|_| process_time(10, || peers.deno_bare(&noop), None));
    vec![
        Row {
            case: "2. ready runtime, started (peers: empty process)".into(),
            hookrun: cold,
            node: Some(node),
            deno,
        },
        Row {
            case: "2. ready runtime, lent by the pool (peers: empty process)".into(),
            hookrun: pooled,
            node: Some(node),
            deno,
        },
        Row {
            case: "2. ready runtime, prewarmed and never reused (peers: empty process)".into(),
            hookrun: prewarmed,
            node: Some(node),
            deno,
        },
    ]
}

/// The pass-through workload: its workflow and the selections of each size.
struct Workload {
    workflow: Workflow,
    dir: PathBuf,
    files: Vec<(usize, PathBuf, SelectionContext)>,
}

impl Workload {
    fn new(peers: &Peers, sizes: &[usize]) -> Workload {
        let dir = repo().join("fixtures/bench/pass-through");
        let mut found = discover(&dir);
        assert!(found.diagnostics.is_empty(), "{:?}", found.diagnostics);
        let workflow = found.workflows.remove(0);
        let files = sizes
            .iter()
            .map(|&n| {
                let value = selection(n);
                let path = peers.write(&format!("selection-{n}.json"), &value);
                let parsed = SelectionContext::from_value(&value).expect("a valid selection");
                (n, path, parsed)
            })
            .collect();
        Workload {
            workflow,
            dir,
            files,
        }
    }

    fn run_in_process(&self, selection: &SelectionContext, units: usize, jobs: usize) -> Duration {
        self.run_isolated(selection, units, jobs, Isolation::InProcess)
    }

    fn run_isolated(
        &self,
        selection: &SelectionContext,
        units: usize,
        jobs: usize,
        isolation: Isolation,
    ) -> Duration {
        let start = Instant::now();
        let input = RunInput {
            world: HostWorld::from_selection(selection),
            selection: selection.clone(),
            settings: Settings::default(),
            answers: Default::default(),
        };
        let options = RunOptions::default()
            .jobs(jobs)
            .sandbox(SandboxOptions::default().isolation(isolation));
        let report = run(&self.workflow, input, &mut NoResults, &options);
        let elapsed = start.elapsed();
        assert!(report.ok(), "{:?}", report.errors);
        assert_eq!(report.summary.succeeded, units);
        elapsed
    }

    /// The hook calls of a one-unit run as `deno run` processes: the two
    /// `normalizeSettings` phases once per run, then preflight, buildRequest
    /// and applyResult per unit. Returns the per-run and per-unit medians.
    fn deno_hooks(&self, peers: &Peers) -> Option<(Duration, Duration)> {
        let unit = selection(1);
        let key = "ATT00000";
        let params = json!({"label": "bench"});
        let calls = [
            (
                "normalizeSettings",
                json!({"phase": "persisted", "merged": {"workflowParams": {}, "providerOptions": {}}}),
                true,
            ),
            (
                "normalizeSettings",
                json!({"phase": "execution", "normalizedWorkflowParams": params}),
                true,
            ),
            ("preflight", json!({"selectionContext": unit}), false),
            (
                "buildRequest",
                json!({"selectionContext": unit, "preflight": {"context": {"key": key}}, "executionOptions": {"workflowParams": params}}),
                false,
            ),
            (
                "applyResult",
                json!({"resultContext": {"resultJson": {"parameter": params}, "preflight": {"context": {"key": key}}}}),
                false,
            ),
        ];
        let (mut per_run, mut per_unit) = (Duration::ZERO, Duration::ZERO);
        for (i, (hook, arg, once)) in calls.iter().enumerate() {
            let input = peers.write(&format!("deno-{i}.json"), arg);
            let module = self.dir.join(format!("hooks/{hook}.mjs"));
            let took = peers.deno_time(5, &self.dir, &module, hook, &input)?;
            *if *once { &mut per_run } else { &mut per_unit } += took;
        }
        Some((per_run, per_unit))
    }

    /// Rows of case 3; `deno` is what [`Workload::deno_hooks`] measured. The
    /// largest selection also runs on two worker threads (`RunOptions::jobs`).
    fn rows(&self, peers: &Peers, deno: Option<(Duration, Duration)>) -> Vec<Row> {
        let largest = self.files.iter().map(|(n, ..)| *n).max().unwrap_or(0);
        let mut rows = Vec::new();
        for (n, path, parsed) in &self.files {
            let repeats = if *n >= 10_000 { 3 } else { 10 };
            let node = median(
                (0..repeats)
                    .map(|_| {
                        let out = peers.node_json(&[Path::new("run"), &self.dir, path]);
                        assert_eq!(out["units"], json!(n));
                        Duration::from_nanos(out["elapsedNs"].as_u64().unwrap_or_default())
                    })
                    .collect(),
            );
            let estimated = if *n > 1 {
                " (deno: estimated from 1 unit)"
            } else {
                ""
            };
            for jobs in if *n == largest { vec![1, 2] } else { vec![1] } {
                let hookrun = median(
                    (0..repeats)
                        .map(|_| self.run_in_process(parsed, *n, jobs))
                        .collect(),
                );
                let threads = if jobs > 1 {
                    format!(", {jobs} worker threads")
                } else {
                    String::new()
                };
                rows.push(Row {
                    case: format!(
                        "3. pass-through run, {n} unit(s), 4 hooks, in process{threads}: {:.0} units/s{estimated}",
                        *n as f64 / hookrun.as_secs_f64()
                    ),
                    hookrun,
                    node: Some(node),
                    deno: deno.map(|(run, unit)| run + unit * *n as u32),
                });
            }
        }
        rows
    }

    fn whole_process(&self, peers: &Peers, deno: Option<(Duration, Duration)>) -> Row {
        let (_, one, _) = &self.files[0];
        let hookrun = process_time(
            20,
            || {
                let mut command = Command::new(env!("CARGO_BIN_EXE_hookrun"));
                command
                    .arg("run")
                    .arg(&self.dir)
                    .arg("--selection")
                    .arg(one)
                    .arg("--json");
                command
            },
            None,
        );
        let node = process_time(20, || peers.node(&[Path::new("run"), &self.dir, one]), None);
        Row {
            case: "4. whole process, 1 unit (deno: 5 processes)".into(),
            hookrun,
            node: Some(node),
            deno: deno.map(|(run, unit)| run + unit),
        }
    }

    fn memory(&self, peers: &Peers) {
        let Some((n, largest, _)) = self.files.last() else {
            return;
        };
        let hookrun = peers.peak_rss(
            Path::new(env!("CARGO_BIN_EXE_hookrun")),
            &[
                Path::new("run"),
                &self.dir,
                Path::new("--selection"),
                largest,
                Path::new("--json"),
            ],
        );
        let node = peers.peak_rss(
            Path::new("node"),
            &[
                &peers.dir.join("node-harness.mjs"),
                Path::new("run"),
                &self.dir,
                largest,
            ],
        );
        let mib =
            |b: Option<u64>| b.map_or("n/a".into(), |b| format!("{:.1} MiB", b as f64 / 1048576.0));
        println!(
            "| peak RSS, {n}-unit run as a process | {} | {} |",
            mib(hookrun),
            mib(node)
        );
    }
}

/// A memory figure of `/proc/<pid>/status` (`VmRSS`, `VmHWM`) in bytes.
fn status_bytes(pid: &str, field: &str) -> u64 {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix(field))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        .unwrap_or_default()
        * 1024
}

/// Resident memory of this process in bytes.
fn resident() -> u64 {
    status_bytes("self", "VmRSS:")
}

/// The isolation table: each workload in process and in a worker process, the
/// ratio worker/in-process, and the worker's peak RSS.
fn isolation_rows(workload: &Workload) {
    set_worker_binary(env!("CARGO_BIN_EXE_hookrun"));
    let arg = warm_arg();
    let (in_process, _) = time_warm_call(Isolation::InProcess, &arg);
    let (worker, sandbox) = time_warm_call(Isolation::process(), &arg);
    let worker_peak = sandbox
        .worker_pid()
        .map_or(0, |pid| status_bytes(&pid.to_string(), "VmHWM:"));
    drop(sandbox);
    println!(
        "| process isolation | in process | worker process | worker / in process | worker peak RSS |"
    );
    println!("|---|---:|---:|---:|---:|");
    let line = |case: &str, a: Duration, b: Duration, peak: String| {
        println!(
            "| {case} | {} | {} | {:.2}x | {peak} |",
            show(a),
            show(b),
            b.as_secs_f64() / a.as_secs_f64()
        );
    };
    line(
        "warm hook call (case 1)",
        in_process,
        worker,
        format!("{:.1} MiB", worker_peak as f64 / 1048576.0),
    );
    let Some((n, _, parsed)) = workload.files.iter().find(|(n, ..)| *n == 1_000) else {
        return;
    };
    let runs = |isolation| {
        median(
            (0..10)
                .map(|_| workload.run_isolated(parsed, *n, 1, isolation))
                .collect(),
        )
    };
    line(
        &format!("pass-through run, {n} units"),
        runs(Isolation::InProcess),
        runs(Isolation::process()),
        "n/a".into(),
    );
}

/// Resident cost of one idle ready runtime: the growth of this process while
/// it holds `N` more of them.
fn idle_runtime_cost() -> u64 {
    const N: usize = 16;
    let root = repo().join("fixtures/sandbox");
    let start = |_| {
        let mut sandbox = Sandbox::new(&root, SandboxOptions::default()).expect("sandbox");
        sandbox.warm_up().expect("the runtime starts");
        sandbox
    };
    let first: Vec<Sandbox> = (0..1).map(start).collect();
    let before = resident();
    let held: Vec<Sandbox> = (0..N).map(start).collect();
    let after = resident();
    drop((first, held));
    after.saturating_sub(before) / N as u64
}

fn main() {
    // First, while no runtime has run yet and freed memory cannot hide the cost.
    let idle_runtime = idle_runtime_cost();
    let peers = Peers::new();
    if std::env::args().any(|a| a == "isolation") {
        // `cargo bench --bench compare -- isolation`: only the isolation table.
        isolation_rows(&Workload::new(&peers, &[1_000]));
        return;
    }
    if peers.deno.is_none() {
        eprintln!("Deno is not installed: run `npm install` in bench/peers (bench/run.sh does)");
    }
    let workload = Workload::new(&peers, &[1, 100, 1_000, 10_000]);
    let mut rows = vec![warm_call(&peers)];
    rows.extend(ready_runtime(&peers));
    let deno = workload.deno_hooks(&peers);
    rows.extend(workload.rows(&peers, deno));
    rows.push(workload.whole_process(&peers, deno));
    print_rows(&rows);
    println!();
    println!("| memory | hookrun | Node.js, no sandbox |");
    println!("|---|---:|---:|");
    workload.memory(&peers);
    println!(
        "| one idle ready runtime, resident | {:.2} MiB | n/a |",
        idle_runtime as f64 / 1048576.0
    );
    println!();
    isolation_rows(&workload);
}
