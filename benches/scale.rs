//! Runs at library scale: the pass-through workflow of `fixtures/bench` over
//! grouped-shape selections of 1, 1,000, 10,000 and 100,000 attachments (each
//! with its parent and an abstract in `data`), as whole `hookrun run --json`
//! processes, next to the peer harnesses over the same hooks, measured in the
//! same run, the commands taking turns run by run: the hooks in an isolated-vm
//! isolate (`bench/peers/ivm-harness.mjs`: one isolate per run, arguments and
//! results copied across, 128 MiB heap, 5 s per call; left out with a note
//! when isolated-vm is not installed in `bench/peers`) and Node.js calling
//! them without a sandbox (`bench/peers/node-harness.mjs`). Prints units/s,
//! the ratio to each peer and the peak RSS of each process, a `--jobs 2` row,
//! and `hookrun plan` of 10,000 units (planning time in process, peak RSS of
//! the `hookrun plan --json` process), then the same 10,000-unit run with and
//! without `--refs` (time, peak RSS, report size). Needs GNU time
//! (`/usr/bin/time`, Debian's `time` package).
//!
//! `cargo bench --bench scale` (or `bench/run.sh scale`, which installs the
//! peers); sizes can be given: `cargo bench --bench scale -- 1000 10000`.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use hookrun::host::world::HostWorld;
use hookrun::manifest::discover;
use hookrun::plan::{Mode, plan};
use hookrun::selection::SelectionContext;
use serde_json::{Map, Value, json};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `n` selected attachments in the grouped shape, each with its parent.
fn selection(n: usize) -> Value {
    let abstract_note = "We study the convergence of things under mild assumptions. ".repeat(4);
    let attachments: Vec<Value> = (0..n)
        .map(|i| {
            let (parent, key) = (format!("P{i:07}"), format!("A{i:07}"));
            json!({
                "item": {"id": 2 * i + 2, "key": key, "itemType": "attachment",
                         "title": format!("Paper {i}.pdf"), "libraryID": 1, "parentItemID": 2 * i + 1,
                         "data": {"key": key, "version": 0, "itemType": "attachment",
                                  "title": format!("Paper {i}.pdf"), "parentItem": parent,
                                  "linkMode": "imported_file", "contentType": "application/pdf",
                                  "path": format!("attachments/{key}/paper-{i}.pdf"),
                                  "tags": [], "relations": {}}},
                "parent": {"id": 2 * i + 1, "key": parent, "itemType": "journalArticle",
                           "title": format!("A study of things, part {i}"), "libraryID": 1,
                           "parentItemID": null,
                           "data": {"key": parent, "version": 0, "itemType": "journalArticle",
                                    "title": format!("A study of things, part {i}"), "date": "2022",
                                    "abstractNote": abstract_note,
                                    "creators": [{"firstName": "Ada", "lastName": "Lovelace",
                                                  "creatorType": "author"}],
                                    "tags": [], "collections": [], "relations": {}}},
                "filePath": format!("attachments/{key}/paper-{i}.pdf"),
                "mimeType": "application/pdf"
            })
        })
        .collect();
    json!({
        "selectionType": "attachment",
        "items": {"parents": [], "children": [], "attachments": attachments, "notes": []},
        "summary": {"parentCount": 0, "childCount": 0, "attachmentCount": n, "noteCount": 0},
        "warnings": [],
        "sampledAt": "2026-03-01T09:00:00.000Z"
    })
}

/// Wall time and peak resident set of one process.
#[derive(Clone, Copy)]
struct Sample {
    wall: Duration,
    rss: u64,
}

/// Runs `command` to its end with standard output discarded, under GNU time
/// (`/usr/bin/time`), whose small process is what the measured program forks
/// from: a child of this process would count this process's pages, which
/// Linux carries into the peak RSS of a forked child across `exec`.
fn measure(command: &mut Command) -> Sample {
    let figures = tempfile::NamedTempFile::new().expect("a scratch file");
    let mut timed = Command::new("/usr/bin/time");
    timed
        .args(["-f", "%M", "-o"])
        .arg(figures.path())
        .arg(command.get_program())
        .args(command.get_args())
        .stdout(Stdio::null());
    let start = Instant::now();
    let status = timed
        .status()
        .expect("GNU time runs (apt-get install time)");
    let wall = start.elapsed();
    assert!(status.success(), "{command:?} failed: {status}");
    let kib: u64 = fs::read_to_string(figures.path())
        .ok()
        .and_then(|text| text.trim().parse().ok())
        .expect("GNU time prints the peak RSS");
    Sample {
        wall,
        rss: kib * 1024,
    }
}

/// How many runs of each command a row of `n` units takes: more where starting
/// the process is most of the time, one where a run takes seconds.
fn runs(n: usize) -> usize {
    match n {
        0..=100 => 15,
        101..=10_000 => 5,
        _ => 1,
    }
}

/// The median wall time of `runs` runs, with the highest peak RSS.
fn repeat(runs: usize, command: impl Fn() -> Command) -> Sample {
    interleaved(runs, &[&command]).remove(0)
}

/// For each of `commands`, the median wall time of `runs` runs and the
/// highest peak RSS, the commands taking turns run by run: the ratios between
/// them come from the same minutes of a machine whose speed drifts.
fn interleaved(runs: usize, commands: &[&dyn Fn() -> Command]) -> Vec<Sample> {
    let mut samples: Vec<Vec<Sample>> = commands.iter().map(|_| Vec::new()).collect();
    for _ in 0..runs {
        for (command, taken) in commands.iter().zip(&mut samples) {
            taken.push(measure(&mut command()));
        }
    }
    samples
        .into_iter()
        .map(|mut taken| {
            taken.sort_by_key(|s| s.wall);
            Sample {
                wall: taken[taken.len() / 2].wall,
                rss: taken.iter().map(|s| s.rss).max().unwrap_or(0),
            }
        })
        .collect()
}

/// A wall time in milliseconds below a second, else in seconds.
fn duration(wall: Duration) -> String {
    if wall < Duration::from_secs(1) {
        format!("{:.1} ms", wall.as_secs_f64() * 1e3)
    } else {
        format!("{:.2} s", wall.as_secs_f64())
    }
}

/// `a` over `b`, as the tables print ratios.
fn ratio(a: Duration, b: Duration) -> String {
    format!("{:.2}x", a.as_secs_f64() / b.as_secs_f64())
}

/// A Markdown table row of `cells`.
fn table_row(cells: &[String]) -> String {
    format!("| {} |", cells.join(" | "))
}

fn mib(bytes: u64) -> String {
    format!("{:.0} MiB", bytes as f64 / 1048576.0)
}

fn per_second(units: usize, wall: Duration) -> String {
    format!("{:.0}", units as f64 / wall.as_secs_f64())
}

/// A peer harness over the same hooks, run as
/// `node <flags> bench/peers/<script> run <workflow> <selection>`.
struct Peer {
    /// Its name in the table's head.
    name: &'static str,
    /// Node.js's own flags, before the script.
    flags: &'static [&'static str],
    script: &'static str,
}

impl Peer {
    /// The peers whose harness can run here, in the table's order.
    fn installed() -> Vec<Peer> {
        let mut peers = Vec::new();
        let addon = "bench/peers/node_modules/isolated-vm/out/isolated_vm.node";
        if repo().join(addon).exists() {
            peers.push(Peer {
                name: "isolated-vm",
                flags: &["--no-node-snapshot"],
                script: "ivm-harness.mjs",
            });
        } else {
            eprintln!(
                "isolated-vm is not installed: run `npm install` in bench/peers (bench/run.sh does)"
            );
        }
        peers.push(Peer {
            name: "Node.js",
            flags: &[],
            script: "node-harness.mjs",
        });
        peers
    }

    fn run(&self, workflow: &Path, file: &Path) -> Command {
        let mut command = Command::new("node");
        command
            .args(self.flags)
            .arg(repo().join("bench/peers").join(self.script))
            .arg("run")
            .arg(workflow)
            .arg(file);
        command
    }
}

struct Bench {
    workflow: PathBuf,
    peers: Vec<Peer>,
    scratch: tempfile::TempDir,
}

impl Bench {
    fn hookrun(&self, file: &Path, jobs: usize) -> Command {
        let mut command = Command::new(env!("CARGO_BIN_EXE_hookrun"));
        command
            .arg("run")
            .arg(&self.workflow)
            .arg("--selection")
            .arg(file)
            .args(["--json", "--jobs", &jobs.to_string()]);
        command
    }

    /// The selection of `n` units as a file, written when first asked.
    fn selection_file(&self, n: usize) -> PathBuf {
        let path = self.scratch.path().join(format!("selection-{n}.json"));
        if !path.exists() {
            fs::write(&path, selection(n).to_string()).expect("scratch file");
        }
        path
    }

    /// A row per size: `hookrun run --json` and each peer (times, then peak
    /// RSS), and at 10,000 units `--jobs 2`, the commands taking turns.
    fn run_rows(&self, sizes: &[usize]) {
        let mut head = vec![
            "units".to_string(),
            "hookrun run --json".into(),
            "units/s".into(),
        ];
        for peer in &self.peers {
            head.push(format!("{} harness", peer.name));
            head.push(format!("hookrun/{}", peer.name));
        }
        head.push("hookrun peak RSS".into());
        head.extend(
            self.peers
                .iter()
                .map(|peer| format!("{} peak RSS", peer.name)),
        );
        println!("{}", table_row(&head));
        println!("{}|", "|---:".repeat(head.len()));
        for &n in sizes {
            let file = self.selection_file(n);
            let file = file.as_path();
            let serial = || self.hookrun(file, 1);
            let two = || self.hookrun(file, 2);
            let peers: Vec<Box<dyn Fn() -> Command + '_>> = self
                .peers
                .iter()
                .map(|peer| Box::new(move || peer.run(&self.workflow, file)) as _)
                .collect();
            let mut commands: Vec<&dyn Fn() -> Command> = vec![&serial];
            commands.extend(peers.iter().map(|peer| &**peer));
            if n == 10_000 {
                commands.push(&two);
            }
            let samples = interleaved(runs(n), &commands);
            let (hookrun, peers) = (samples[0], &samples[1..=self.peers.len()]);
            let mut cells = vec![
                n.to_string(),
                duration(hookrun.wall),
                per_second(n, hookrun.wall),
            ];
            for peer in peers {
                cells.push(duration(peer.wall));
                cells.push(ratio(hookrun.wall, peer.wall));
            }
            cells.push(mib(hookrun.rss));
            cells.extend(peers.iter().map(|peer| mib(peer.rss)));
            println!("{}", table_row(&cells));
            if let Some(two) = samples.get(1 + self.peers.len()) {
                let mut cells = vec![
                    format!("{n}, `--jobs 2`"),
                    duration(two.wall),
                    per_second(n, two.wall),
                ];
                // The speed-up over the serial run in the first ratio column.
                cells.resize(3 + 2 * self.peers.len(), String::new());
                cells[4] = format!("{} serial", ratio(hookrun.wall, two.wall));
                cells.push(mib(two.rss));
                cells.resize(head.len(), String::new());
                println!("{}", table_row(&cells));
            }
        }
    }

    /// A run of `n` units written in full and with references, in turns.
    fn refs_rows(&self, n: usize) {
        let file = self.selection_file(n);
        let full = || self.hookrun(&file, 1);
        let refs = || {
            let mut command = self.hookrun(&file, 1);
            command.arg("--refs");
            command
        };
        let samples = interleaved(5, &[&full, &refs]);
        println!();
        println!("| `hookrun run --json`, {n} units | time | peak RSS | report |");
        println!("|---|---:|---:|---:|");
        for ((name, command), sample) in [
            ("in full", &full as &dyn Fn() -> Command),
            ("`--refs`", &refs),
        ]
        .into_iter()
        .zip(samples)
        {
            let report = command()
                .stderr(Stdio::null())
                .output()
                .expect("hookrun runs")
                .stdout
                .len();
            println!(
                "| {name} | {:.2} s | {} | {:.1} MB |",
                sample.wall.as_secs_f64(),
                mib(sample.rss),
                report as f64 / 1e6
            );
        }
    }

    fn plan_row(&self, n: usize) {
        let value = selection(n);
        let selection = SelectionContext::from_value(&value).expect("a valid selection");
        let world = HostWorld::from_selection(&selection);
        let mut found = discover(&self.workflow);
        let workflow = found.workflows.remove(0);
        let mut times: Vec<Duration> = (0..5)
            .map(|_| {
                let start = Instant::now();
                let planned = plan(
                    &workflow.planning,
                    &selection,
                    Mode::Execute,
                    &Map::new(),
                    &world,
                )
                .expect("a plan");
                let elapsed = start.elapsed();
                assert_eq!(planned.units.len(), n);
                elapsed
            })
            .collect();
        times.sort();
        let file = self.selection_file(n);
        let process = repeat(3, || {
            let mut command = Command::new(env!("CARGO_BIN_EXE_hookrun"));
            command
                .arg("plan")
                .arg(&self.workflow)
                .arg("--selection")
                .arg(&file)
                .arg("--json");
            command
        });
        println!();
        println!(
            "| `hookrun plan`, {n} units | planning (in process) | whole process | peak RSS |"
        );
        println!("|---|---:|---:|---:|");
        println!(
            "| | {:.1} ms | {:.2} s | {} |",
            times[times.len() / 2].as_secs_f64() * 1e3,
            process.wall.as_secs_f64(),
            mib(process.rss)
        );
    }
}

fn main() {
    let sizes: Vec<usize> = std::env::args()
        .skip(1)
        .filter_map(|a| a.parse().ok())
        .collect();
    let sizes = if sizes.is_empty() {
        vec![1, 1_000, 10_000, 100_000]
    } else {
        sizes
    };
    let bench = Bench {
        workflow: repo().join("fixtures/bench/pass-through"),
        peers: Peer::installed(),
        scratch: tempfile::tempdir().expect("a scratch directory"),
    };
    bench.run_rows(&sizes);
    bench.plan_row(10_000);
    bench.refs_rows(10_000);
}
