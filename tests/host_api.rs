//! Host API version 12 in full: the facade passes the reference host's own
//! conformance rule, `hookrun.d.ts` declares exactly the members of
//! `js/host-api.json`, and each kind of member behaves as the reference host's
//! does (synchronous services, members that need a person, members answered from
//! the fixture, the runtime log, callbacks, bytes, and writes later reads see).

use crate::common;

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::{Value, json};

use hookrun::hooks::InvocationMode;
use hookrun::host::answers::HostAnswers;
use hookrun::host::api::host_api;
use hookrun::run::{NoResults, RunOptions, RunReport, run};

fn fixture(name: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(name)).unwrap()
}

/// Runs `apply` as the `applyResult` of a one-parent probe workflow.
fn apply_with(apply: &str, answers: HostAnswers, options: &RunOptions) -> (RunReport, Value) {
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(dir.path(), &[("applyResult", apply)]);
    let mut input = common::probe_input(&["Cats"]);
    input.answers = answers;
    let report = run(&workflow, input, &mut NoResults, options);
    let value = serde_json::to_value(&report.units[0].jobs[0].apply).unwrap()["value"].clone();
    (report, value)
}

fn apply(source: &str) -> (RunReport, Value) {
    apply_with(source, HostAnswers::default(), &common::run_options())
}

#[test]
fn the_facade_passes_the_reference_conformance_rule_in_both_modes() {
    let source = format!(
        "const MANIFEST = {};\n{}",
        fixture("fixtures/host-api/v12-manifest.json"),
        fixture("fixtures/host-api/conformance.mjs")
    );
    for (mode, expected) in [
        (InvocationMode::NonInteractive, "non_interactive"),
        (InvocationMode::Interactive, "interactive"),
    ] {
        let mut options = common::run_options();
        options.runtime.invocation_mode = mode;
        let (report, found) = apply_with(&source, HostAnswers::default(), &options);
        assert!(report.ok(), "{:?}", report.errors);
        assert_eq!(found["ok"], true, "{found}");
        assert_eq!(found["version"], 12);
        assert_eq!(found["interactionMode"], expected);
    }
}

#[test]
fn the_conformance_rule_notices_a_missing_or_unexpected_member() {
    // The rule itself must be able to fail: a manifest with one member more and
    // one less than the facade.
    let mut manifest: Value =
        serde_json::from_str(&fixture("fixtures/host-api/v12-manifest.json")).unwrap();
    manifest["library"]["notAMember"] = json!("function");
    manifest["addon"]
        .as_object_mut()
        .unwrap()
        .remove("getConfig");
    let source = format!(
        "const MANIFEST = {manifest};\n{}",
        fixture("fixtures/host-api/conformance.mjs")
    );
    let (_, found) = apply(&source);
    assert_eq!(found["ok"], false);
    assert_eq!(found["missingPaths"], json!(["library.notAMember"]));
    assert_eq!(found["unexpectedPaths"], json!(["addon.getConfig"]));
}

/// The member paths `interface HostApi` declares in `js/hookrun.d.ts`.
fn declared_paths() -> BTreeSet<String> {
    let source = fixture("js/hookrun.d.ts");
    let start = source.find("export interface HostApi {").unwrap();
    let body = &source[start + "export interface HostApi ".len()..];
    // Comments out, then a scan that keeps the namespace path by brace depth.
    let mut text = String::new();
    for line in body.lines() {
        let code = line.trim();
        if !(code.starts_with("/**") || code.starts_with('*') || code.starts_with("//")) {
            text.push_str(line);
            text.push('\n');
        }
    }
    let (mut paths, mut stack) = (BTreeSet::new(), Vec::<Option<String>>::new());
    let (mut parens, mut angle) = (0usize, 0usize);
    let mut word = String::new();
    let mut last_word = String::new();
    // The member a generic parameter list (`name<T>(`) belongs to.
    let mut generic_owner = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            last_word = std::mem::take(&mut word);
        }
        match c {
            '(' => {
                if parens == 0
                    && angle == 0
                    && stack.len() >= 2
                    && stack.iter().all(Option::is_some)
                {
                    let mut path: Vec<String> = stack[1..].iter().flatten().cloned().collect();
                    let generic =
                        chars[..i].iter().rev().find(|c| !c.is_whitespace()) == Some(&'>');
                    path.push(if generic {
                        generic_owner.clone()
                    } else {
                        last_word.clone()
                    });
                    paths.insert(path.join("."));
                }
                parens += 1;
            }
            ')' => parens -= 1,
            '<' if parens == 0 => {
                if angle == 0 {
                    generic_owner = last_word.clone();
                }
                angle += 1
            }
            '>' if parens == 0 && chars.get(i.wrapping_sub(1)) != Some(&'=') => {
                angle = angle.saturating_sub(1)
            }
            '{' => {
                // A namespace is `name: {` outside any parameter list.
                let before: String = chars[..i]
                    .iter()
                    .rev()
                    .take_while(|c| c.is_whitespace() || **c == ':')
                    .collect();
                let namespace = parens == 0 && angle == 0 && before.contains(':');
                stack.push(
                    if stack.is_empty() || namespace && stack.iter().all(Option::is_some) {
                        Some(last_word.clone())
                    } else {
                        None
                    },
                );
            }
            '}' => {
                stack.pop();
                if stack.is_empty() {
                    break;
                }
            }
            _ => {}
        }
    }
    paths
}

#[test]
fn hookrun_d_ts_declares_exactly_the_members_of_the_declaration() {
    let table: BTreeSet<String> = host_api().members().map(|(p, _)| p.to_string()).collect();
    let declared = declared_paths();
    let missing: Vec<_> = table.difference(&declared).collect();
    let extra: Vec<_> = declared.difference(&table).collect();
    assert!(
        missing.is_empty() && extra.is_empty(),
        "missing from hookrun.d.ts: {missing:?}; not in js/host-api.json: {extra:?}"
    );
}

#[test]
fn synchronous_members_answer_values_and_the_policy_is_frozen() {
    let (report, found) = apply(
        r#"export async function applyResult({ runtime }) {
  const api = runtime.hostApi;
  const policy = api.statusTags.getPolicy();
  const sync = [api.addon.getConfig(), api.environment.getInfo(), policy, api.file.getTempDirectoryPath(),
    api.resources.getInput(), api.resources.getInputs(), api.resources.listOutputs()];
  return { promises: sync.filter((v) => v instanceof Promise).length, frozen: Object.isFrozen(policy),
    policy, temp: sync[3], input: sync[4], inputs: sync[5], platform: sync[1].platform,
    logged: api.logging.appendRuntimeLog({ level: "warn", stage: "apply", message: "half done", details: { n: 1 } }) };
}"#,
    );
    assert!(report.ok(), "{:?}", report.errors);
    assert_eq!(found["promises"], 0);
    assert_eq!(found["frozen"], true);
    assert_eq!(found["policy"]["need-markdown"], "status:need-markdown");
    assert_eq!(found["temp"], "/tmp/hookrun");
    assert_eq!(found["input"], Value::Null);
    assert_eq!(found["inputs"], json!([]));
    assert_eq!(
        found.get("logged"),
        None,
        "appendRuntimeLog returns undefined"
    );
    let logs = &report.hooks[0].logs;
    assert!(
        logs.iter()
            .any(|l| l.message == "[apply] half done {\"n\":1}"),
        "{logs:?}"
    );
}

#[test]
fn members_that_need_a_person_fail_as_the_reference_host_fails_them() {
    let (report, found) = apply(
        r#"export async function applyResult({ runtime }) {
  const api = runtime.hostApi;
  const out = {};
  for (const [name, call] of Object.entries({
    pickFile: () => api.file.pickFile(), clipboard: () => api.clipboard.readText(),
    editor: () => api.editor.openSession({}), selected: () => api.context.getSelectedItems(),
  })) {
    try { await call(); out[name] = "answered"; } catch (e) { out[name] = [e.name, e.code, e.message, e.details.member]; }
  }
  try { api.notifications.toast({ text: "hi" }); out.toast = "answered"; } catch (e) { out.toast = [e.name, e.code, "sync"]; }
  try { api.context.getCurrentView(); } catch (e) { out.view = [e.name, e.code, "sync"]; }
  return out;
}"#,
    );
    assert!(report.ok(), "{:?}", report.errors);
    assert_eq!(
        found["pickFile"],
        json!([
            "WorkflowHostError",
            "interaction_required",
            "file.pickFile requires an interactive Workflow Host",
            "file.pickFile"
        ])
    );
    assert_eq!(found["selected"][0], "ZoteroHostCapabilityError");
    assert_eq!(
        found["toast"],
        json!(["WorkflowHostError", "interaction_required", "sync"])
    );
    assert_eq!(
        found["view"],
        json!(["ZoteroHostCapabilityError", "interaction_required", "sync"])
    );
    let logs = &report.hooks[0].logs;
    assert!(logs.iter().any(|l| l.message
        == "[workflow-host.notifications] Denied non-interactive workflow toast request"));
    let toast = report
        .effects
        .iter()
        .find(|e| e.call == "notifications.toast")
        .unwrap();
    assert_eq!(
        toast.error.as_ref().unwrap()["code"],
        "interaction_required"
    );
}

#[test]
fn service_members_answer_from_the_fixture_or_name_the_key_to_add() {
    let members = HostAnswers::parse_members(&json!({
        "bibliography.render": [{"args": [{"itemRefs": [{"libraryId": 1, "key": "P0000000"}]}],
                                 "answer": {"content": "@book{cats}"}}]
    }))
    .unwrap();
    let answers = HostAnswers {
        members,
        ..HostAnswers::default()
    };
    let (report, found) = apply_with(
        r#"export async function applyResult({ runtime, parent }) {
  const api = runtime.hostApi;
  const rendered = await api.bibliography.render({ itemRefs: [parent] });
  let missing;
  try { await api.synthesis.topics.getReport({ topic: "cats" }); } catch (e) { missing = [e.code, e.message, e.details]; }
  return { rendered, missing };
}"#,
        answers,
        &common::run_options(),
    );
    assert!(report.ok(), "{:?}", report.errors);
    assert_eq!(found["rendered"]["content"], "@book{cats}");
    assert_eq!(found["missing"][0], "unavailable");
    assert_eq!(found["missing"][2], json!({"reason": "runtime"}));
    let message = found["missing"][1].as_str().unwrap();
    assert!(
        message.contains(r#"hostAnswers: {"synthesis.topics.getReport": [{"args": [{"topic":"cats"}], "answer": …}]}"#),
        "{message}"
    );
}

#[test]
fn bytes_callbacks_and_archives_round_trip_through_the_run() {
    let (report, found) = apply(
        r#"export async function applyResult({ runtime }) {
  const { file, archive, library } = runtime.hostApi;
  await file.writeBytes("out/data.bin", new Uint8Array([0, 1, 2, 255]));
  const back = Array.from(await file.readBytes("out/data.bin"));
  const zip = await archive.writeZipAtomic({ targetPath: "out/pack.zip", entries: [
    { name: "a.txt", content: { kind: "text", text: "alpha" } },
    { name: "dir/b.bin", content: { kind: "bytes", bytes: new Uint8Array([7, 8]) } } ] });
  const inside = await archive.withExtractedZip({ sourcePath: "out/pack.zip" }, undefined, async (scope) => {
    return { entries: [...scope.entries], a: await scope.readText("a.txt"), b: Array.from(await scope.readBytes("dir/b.bin")) };
  });
  const batches = [];
  const traversal = await library.traverseItems({ scope: "top-level-regular", pageSize: 1 }, undefined,
    async (batch) => { batches.push(batch.items.map((i) => i.title)); });
  return { back, zipFiles: Object.keys(zip.files), inside, batches, traversal: traversal.outcome };
}"#,
    );
    assert!(report.ok(), "{:?}", report.errors);
    assert_eq!(found["back"], json!([0, 1, 2, 255]));
    assert_eq!(found["zipFiles"], json!(["a.txt", "dir/b.bin"]));
    assert_eq!(
        found["inside"],
        json!({"entries": ["a.txt", "dir/b.bin"], "a": "alpha", "b": [7, 8]})
    );
    assert_eq!(found["batches"], json!([["Cats"]]));
    assert_eq!(found["traversal"], "completed");
}

#[test]
fn a_tag_audit_run_calls_back_appends_and_settles_from_its_traversal() {
    let (report, found) = apply(
        r#"export async function applyResult({ runtime }) {
  const host = runtime.hostApi;
  const entryOf = (item, libraryId) => ({ target: { libraryId, itemKey: item.ref.key },
    auditedRevision: item.revision, auditedTagDigest: item.tagDigest, auditedTags: item.tags,
    evaluation: { state: "compliant" } });
  let writer;
  const outcome = await host.synthesis.tags.withAuditRun({ libraryId: 1, vocabularyHash: "v1" }, {}, (run) => {
    writer = run;
    return host.library.traverseItems({ scope: "top-level-regular" }, {}, async (batch) => {
      await run.append(batch.items.map((item) => entryOf(item, item.ref.libraryId)));
    });
  });
  let late;
  try { await writer.append([]); } catch (e) { late = e.code; }
  let foreign;
  try {
    await host.synthesis.tags.withAuditRun({ libraryId: 1, vocabularyHash: "v1" }, {}, (run) =>
      host.library.traverseItems({ scope: "top-level-regular" }, {}, (batch) =>
        run.append(batch.items.map((item) => entryOf(item, 2)))));
  } catch (e) { foreign = [e.code, e.message]; }
  const partial = await host.synthesis.tags.withAuditRun({ libraryId: 1, vocabularyHash: "v1" }, {},
    () => host.library.traverseItems({ scope: "top-level-regular" }, {}, () => {}));
  let search;
  try { await host.synthesis.searchEvidence({ query: " " }); } catch (e) { search = [e.code, e.message]; }
  return { outcome: outcome.outcome, audited: outcome.snapshot.auditedItems, late, foreign,
    partial: partial.outcome, search };
}"#,
    );
    assert!(report.ok(), "{:?}", report.errors);
    assert_eq!(found["outcome"], "published", "{found}");
    assert_eq!(found["audited"], 1);
    assert_eq!(found["late"], "conflict");
    assert_eq!(
        found["foreign"],
        json!([
            "invalid_request",
            "Tag-audit entry targets a different library"
        ])
    );
    assert_eq!(found["partial"], "conflicted");
    assert_eq!(
        found["search"],
        json!(["invalid_request", "The Synthesis request is invalid"])
    );
    let audits: Vec<&Value> = report
        .effects
        .iter()
        .filter(|e| e.call == "synthesis.tags.withAuditRun")
        .map(|e| &e.result)
        .collect();
    assert_eq!(audits.len(), 3, "{audits:?}");
    assert_eq!(audits[0]["outcome"], "appended");
    assert_eq!(audits[1]["outcome"], "published");
    assert_eq!(audits[2]["outcome"], "conflicted");
}

#[test]
fn library_writes_are_seen_by_later_reads_and_repeats_are_unchanged() {
    let (report, found) = apply(
        r#"export async function applyResult({ runtime, parent }) {
  const api = runtime.hostApi;
  const policy = api.statusTags.getPolicy();
  const first = await api.statusTags.transition({ operationId: "s1", itemRef: parent, add: ["need-markdown"] });
  const again = await api.statusTags.transition({ operationId: "s2", itemRef: parent, add: ["need-markdown"] });
  const tags = (await api.library.getItemDetail(parent)).item.tags;
  const note = await api.notes.create({ operationId: "n1", placement: { kind: "child", parentRef: parent },
    content: { format: "html", value: "<h1>Summary</h1><p>cats</p>" } });
  const notes = (await api.library.getItemNotes(parent)).notes.map((n) => n.title);
  const same = await api.notes.updateContent({ operationId: "n2", noteRef: note.result.note.ref,
    content: { format: "html", value: "<h1>Summary</h1><p>cats</p>" } });
  const updated = await api.mutations.execute({ operation: "item.updateMetadata", operationId: "m1",
    itemRef: parent, patch: { fields: { ISBN: "978-0-00", issue: "7" }, creators: [{ creatorType: "author", firstName: "Ada", lastName: "Lovelace" }] } });
  const detail = (await api.library.getItemDetail(parent)).item;
  const preview = await api.mutations.preview({ operation: "item.updateMetadata", itemRef: parent, patch: { fields: { ISBN: "978-0-00" } } });
  const settled = await api.mutations.getOperation({ operationId: "m1" });
  return { first: [first.outcome, first.result.added], again: [again.outcome, again.result.unchanged], tags,
    noteTitle: note.result.note.title, notes, same: same.outcome, receipt: note.receipt.schema,
    updated: [updated.outcome, updated.result.item.fields.ISBN, updated.result.item.creators],
    isbn: detail.fields.ISBN, issue: detail.fields.issue ?? null, creators: detail.creators, revision: detail.revision,
    preview: preview.outcome, settled: settled.state, policyKeys: Object.keys(policy).length };
}"#,
    );
    assert!(report.ok(), "{:?}", report.errors);
    assert_eq!(
        found["first"],
        json!(["committed", ["status:need-markdown"]])
    );
    assert_eq!(
        found["again"],
        json!(["unchanged", ["status:need-markdown"]])
    );
    assert_eq!(found["tags"], json!(["status:need-markdown"]));
    assert_eq!(found["noteTitle"], "Summary");
    assert_eq!(found["notes"], json!(["Summary"]));
    assert_eq!(found["same"], "unchanged");
    assert_eq!(found["receipt"], "zotero-agents.mutation-receipt.v1");
    assert_eq!(
        found["updated"],
        json!(["committed", "978-0-00", ["Ada Lovelace"]])
    );
    assert_eq!(found["isbn"], "978-0-00");
    assert_eq!(
        found["issue"],
        Value::Null,
        "a book has no issue field: Zotero drops it"
    );
    assert_eq!(found["creators"][0]["representation"], "two_field");
    assert_eq!(found["revision"], "3", "two writes changed the item");
    assert_eq!(found["preview"], "unchanged");
    assert_eq!(found["settled"], "settled");
    // Every write is recorded, the unchanged ones too, in call order.
    let calls: Vec<&str> = report.effects.iter().map(|e| e.call.as_str()).collect();
    assert_eq!(
        calls,
        [
            "statusTags.transition",
            "statusTags.transition",
            "notes.create",
            "notes.updateContent",
            "mutations.execute"
        ]
    );
}

/// A zip whose entries inflate past the host's bound fails with `resource_limited`
/// instead of filling the host's memory, and the run's other files are intact.
#[test]
fn an_archive_that_inflates_past_the_bound_is_refused() {
    use std::io::Write as _;
    let dir = tempfile::tempdir().unwrap();
    let files = dir.path().join("files");
    std::fs::create_dir_all(&files).unwrap();
    let mut zip = zip::ZipWriter::new(std::fs::File::create(files.join("bomb.zip")).unwrap());
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .compression_level(Some(1))
        .large_file(true);
    zip.start_file("zeros.bin", options).unwrap();
    let chunk = vec![0u8; 1 << 20];
    for _ in 0..257 {
        zip.write_all(&chunk).unwrap();
    }
    zip.finish().unwrap();
    let workflow = common::probe_workflow(
        &dir.path().join("wf"),
        &[(
            "applyResult",
            r#"export async function applyResult({ runtime }) {
  const { file, archive } = runtime.hostApi;
  await file.writeText("keep.txt", "kept");
  let refused;
  try { await archive.withExtractedZip({ sourcePath: "bomb.zip" }, undefined, async () => "opened"); }
  catch (e) { refused = [e.code, e.details.resource]; }
  return { refused, kept: await file.readText("keep.txt") };
}"#,
        )],
    );
    let mut input = common::probe_input(&["Cats"]);
    input.world = input.world.with_files_dir(&files);
    let report = run(&workflow, input, &mut NoResults, &common::run_options());
    assert!(report.ok(), "{:?}", report.errors);
    let value = serde_json::to_value(&report.units[0].jobs[0].apply).unwrap()["value"].clone();
    assert_eq!(
        value,
        json!({"refused": ["resource_limited", "bytes"], "kept": "kept"})
    );
}

#[test]
fn replays_answer_after_the_world_changed_and_hostile_arguments_stay_typed() {
    let (report, found) = apply(
        r#"export async function applyResult({ runtime, parent }) {
  const api = runtime.hostApi;
  const note = await api.notes.create({ operationId: "n", placement: { kind: "child", parentRef: parent },
    content: { format: "html", value: "<p>x</p>" } });
  const remove = { operationId: "r", noteRef: note.result.note.ref, disposition: "permanent" };
  const first = await api.notes.remove(remove);
  const replay = await api.notes.remove(remove);
  const notes = (await api.library.getItemNotes(parent)).total;
  // A zip of a file the run wrote itself.
  await api.file.writeText("in/a.txt", "alpha");
  await api.archive.writeZipAtomic({ targetPath: "out/a.zip", entries: [{ name: "a.txt", content: { kind: "file", sourcePath: "in/a.txt" } }] });
  const zipped = await api.archive.withExtractedZip({ sourcePath: "out/a.zip" }, undefined, (z) => z.readText("a.txt"));
  // Arguments that refer to themselves end with a typed error, not a hang.
  const loop = []; for (let i = 0; i < 50; i++) loop.push(loop);
  let looped; try { await api.archive.measureEntries({ entries: loop }); } catch (e) { looped = e.name; }
  // Polluted prototypes and a faked `instanceof` do not redirect the facade.
  Object.defineProperty(ArrayBuffer, Symbol.hasInstance, { value: () => true, configurable: true });
  await api.file.writeBytes("in/b.bin", [1, 2]);
  const plainArray = Array.from(await api.file.readBytes("in/b.bin"));
  delete ArrayBuffer[Symbol.hasInstance];
  Object.prototype.answer = "log"; Object.prototype.finish = "in";
  Array.prototype[0] = "polluted";
  const listed = (await api.file.list({ path: "in" })).entries.length;
  const batches = [];
  await api.library.traverseItems({ scope: "top-level-regular" }, undefined, (b) => { batches.push(b.batchIndex); });
  delete Object.prototype.answer; delete Object.prototype.finish; delete Array.prototype[0];
  const stillThere = await api.file.readText("in/a.txt");
  return { same: JSON.stringify(first) === JSON.stringify(replay), notes, zipped, looped, listed, batches, stillThere, plainArray };
}"#,
    );
    assert!(report.ok(), "{:?}", report.errors);
    assert_eq!(
        found,
        json!({"same": true, "notes": 0, "zipped": "alpha", "looped": "TypeError", "listed": 2,
               "batches": [0], "stillThere": "alpha", "plainArray": [1, 2]})
    );
}

#[test]
fn copies_that_would_hold_more_than_the_write_limit_are_refused() {
    let mut options = common::run_options();
    options.max_write_bytes = Some(64 * 1024);
    let (report, found) = apply_with(
        r#"export async function applyResult({ runtime }) {
  const file = runtime.hostApi.file;
  await file.writeText("big.txt", "x".repeat(20000));
  let copies = 0, refused;
  try { for (let i = 0; i < 100; i++) { await file.copy({ sourcePath: "big.txt", targetPath: `c${i}.txt` }); copies++; } }
  catch (e) { refused = e.code; }
  return { copies, refused };
}"#,
        HostAnswers::default(),
        &options,
    );
    // The write past the limit ends the call with `write-limit`.
    assert!(!report.ok());
    assert_eq!(found, Value::Null);
    let copies: Vec<bool> = report
        .effects
        .iter()
        .filter(|e| e.call == "file.copy")
        .map(|e| e.error.is_none())
        .collect();
    assert_eq!(
        copies,
        [true, true, false],
        "two copies fit next to the original; the third is refused"
    );
    assert_eq!(
        report.hooks[0].outcome,
        hookrun::sandbox::OutcomeKind::WriteLimit
    );
}

/// Every member, called with arguments of every wrong shape, answers or fails with
/// a typed host error: none reaches a panic inside the host.
#[test]
fn every_member_survives_arguments_of_every_shape() {
    let members: Vec<&str> = host_api().members().map(|(p, _)| p).collect();
    let source = format!(
        r#"const MEMBERS = {};
export async function applyResult({{ runtime, parent }}) {{
  const shapes = [[], [null], [42], ["x"], [[]], [{{}}], [{{ operationId: "o" }}], [parent, null, "x"],
    [{{ operationId: "p", itemRef: parent, noteRef: parent, attachmentRef: parent, parentRef: parent,
        placement: {{ kind: "child", parentRef: parent }}, path: "a", sourcePath: "a", targetPath: "b",
        operation: "item.updateMetadata", patch: {{ fields: {{ title: 1 }} }}, scope: "top-level-regular",
        entries: [{{ name: "../x", content: {{ kind: "text", text: "t" }} }}] }}, {{ signal: null }}, () => 1]];
  const failures = [];
  for (const path of MEMBERS) {{
    const [ns, ...rest] = path.split(".");
    let fn = runtime.hostApi[ns];
    for (const part of rest) fn = fn[part];
    for (const args of shapes) {{
      try {{ await fn(...args); }}
      catch (e) {{
        if (String(e.message).includes("please report it")) failures.push(`${{path}}(${{JSON.stringify(args)}}): ${{e.message}}`);
      }}
    }}
  }}
  return {{ failures, called: MEMBERS.length }};
}}"#,
        serde_json::to_string(&members).unwrap()
    );
    let (report, found) = apply(&source);
    assert!(report.ok(), "{:?}", report.errors);
    assert_eq!(found["called"], members.len());
    assert_eq!(found["failures"], json!([]), "{found}");
}

/// Every call's `runtime` carries the run's fields and its own hook name,
/// whether a runtime serves every unit, each unit gets a fresh one, or two
/// worker threads share the units.
#[test]
fn every_call_s_runtime_carries_the_run_s_fields_and_its_hook_name() {
    let dir = tempfile::tempdir().unwrap();
    let describe = r#"
const describe = (runtime) => ({
  hookName: runtime.hookName, workflowId: runtime.workflowId, root: runtime.workflowRootDir,
  packageId: runtime.packageId, locale: runtime.locale, invocationMode: runtime.invocationMode,
  debugMode: runtime.debugMode, interactionMode: runtime.hostApi.interactionMode,
  frozen: Object.isFrozen(runtime),
});"#;
    let workflow = common::probe_workflow(
        dir.path(),
        &[
            (
                "preflight",
                &format!(
                    "{describe}\nexport function preflight({{ runtime }}) {{ return {{ kind: \"continue\", context: describe(runtime) }}; }}"
                ),
            ),
            (
                "applyResult",
                &format!(
                    "{describe}\nexport function applyResult({{ runtime, resultContext }}) {{ return [resultContext.preflight.context, describe(runtime)]; }}"
                ),
            ),
        ],
    );
    let expected = |hook: &str| {
        json!({"hookName": hook, "workflowId": "probe", "root": ".", "packageId": "",
               "locale": "en-US", "invocationMode": "non-interactive", "debugMode": false,
               "interactionMode": "non_interactive", "frozen": true})
    };
    for (fresh, jobs) in [(false, 1), (true, 1), (false, 2)] {
        let options = common::run_options()
            .fresh_runtime_per_unit(fresh)
            .jobs(jobs);
        let report = run(
            &workflow,
            common::probe_input(&["Cats", "Dogs", "Eels"]),
            &mut NoResults,
            &options,
        );
        assert!(report.ok(), "{:?}", report.errors);
        for unit in &report.units {
            let value = serde_json::to_value(&unit.jobs[0].apply).unwrap()["value"].clone();
            assert_eq!(
                value,
                json!([expected("preflight"), expected("applyResult")]),
                "fresh runtime per unit: {fresh}, jobs: {jobs}"
            );
        }
    }
}

/// The name and message of the run's one error (the probe's `applyResult` that
/// failed), or `ok`.
fn apply_outcome(report: &RunReport) -> (String, String) {
    match report.errors.as_slice() {
        [] => ("ok".into(), String::new()),
        [error] => (error.name.clone(), error.message.clone()),
        more => panic!("{more:?}"),
    }
}

#[test]
fn host_calls_end_with_the_hook_s_deadline() {
    // Each listing of a large overlay is long host work; the hook asks for it again
    // and again, catching every error. The call still ends with `timeout`, in
    // process and in a worker process (CI runs this binary both ways).
    let source = r#"export async function applyResult({ runtime }) {
  const { file } = runtime.hostApi;
  for (let i = 0; i < 3000; i++) await file.writeText(`big/d${i % 50}/f${i}.txt`, "x");
  for (;;) {
    try { await file.list({ path: "big", recursive: true }); } catch (e) {}
  }
}"#;
    let mut options = common::run_options();
    options.sandbox.limits.timeout_ms = 1_500;
    let (report, _) = apply_with(source, HostAnswers::default(), &options);
    assert_eq!(apply_outcome(&report).0, "timeout", "{:?}", report.errors);
}

#[test]
fn a_host_call_that_would_hold_more_than_its_budget_ends_the_hook_call() {
    let source = r#"export async function applyResult({ runtime }) {
  const { file } = runtime.hostApi;
  await file.writeText("big.txt", "x".repeat(3 * 1024 * 1024));
  try { await file.readBytes("big.txt"); } catch (e) { return "caught " + e.code; }
  return "read";
}"#;
    let mut options = common::run_options();
    options.max_host_call_bytes = Some(2 * 1024 * 1024);
    let (report, _) = apply_with(source, HostAnswers::default(), &options);
    let (outcome, message) = apply_outcome(&report);
    assert_eq!(outcome, "host-limit", "a hook cannot catch it");
    assert!(message.contains("2 MiB"), "{message}");
    // Within the budget the same read succeeds.
    options.max_host_call_bytes = Some(8 * 1024 * 1024);
    let (report, value) = apply_with(source, HostAnswers::default(), &options);
    assert!(report.ok(), "{:?}", report.errors);
    assert_eq!(value, "read");
}

#[test]
fn refused_calls_count_against_the_write_limit() {
    // Toasts refused in a non-interactive run are recorded with their arguments:
    // a flood of them ends the call like a flood of writes.
    let source = r#"export async function applyResult({ runtime }) {
  const big = "x".repeat(64 * 1024);
  for (let i = 0; i < 1000; i++) {
    try { runtime.hostApi.notifications.toast({ message: big }); } catch (e) {}
  }
  return "done";
}"#;
    let mut options = common::run_options();
    options.max_write_bytes = Some(1024 * 1024);
    let (report, _) = apply_with(source, HostAnswers::default(), &options);
    assert_eq!(
        apply_outcome(&report).0,
        "write-limit",
        "{:?}",
        report.errors
    );
}

/// A case asks for an interactive run with `invocationMode`, or `--interactive`
/// does: members that need a person are then answered from its `hostAnswers`;
/// otherwise they are refused with `interaction_required`.
#[test]
fn interactive_runs_answer_members_that_need_a_person_from_the_case() {
    let dir = tempfile::tempdir().unwrap();
    let workflow = common::probe_workflow(
        &dir.path().join("wf"),
        &[(
            "applyResult",
            r#"export async function applyResult({ runtime }) {
  try { return await runtime.hostApi.clipboard.readText(); } catch (e) { return e.code; }
}"#,
        )],
    );
    let case = |mode: Option<&str>| {
        let mut case = json!({
            "selection": {"items": [{"kind": "parent", "ref": {"libraryId": 1, "key": "P0000000"},
                "itemType": "book", "title": "Cats"}], "sampledAt": "2026-01-01T00:00:00Z"},
            "hostAnswers": {"clipboard.readText": [{"args": [], "answer": "from the clipboard"}]}
        });
        if let Some(mode) = mode {
            case["invocationMode"] = json!(mode);
        }
        let path = dir
            .path()
            .join(format!("case-{}.json", mode.unwrap_or("none")));
        std::fs::write(&path, case.to_string()).unwrap();
        path
    };
    let value = |case: &Path, extra: &[&str]| -> Value {
        let mut cmd = assert_cmd::Command::cargo_bin("hookrun").unwrap();
        cmd.arg("run")
            .arg(&workflow.manifest_path)
            .arg("--fixture")
            .arg(case)
            .args(["--json", "--deterministic"])
            .args(extra);
        let report = common::stdout_json(&mut cmd, 0);
        report["units"][0]["jobs"][0]["apply"]["value"].clone()
    };
    assert_eq!(value(&case(None), &[]), "interaction_required");
    assert_eq!(value(&case(Some("interactive")), &[]), "from the clipboard");
    assert_eq!(value(&case(None), &["--interactive"]), "from the clipboard");
    let bad = case(Some("sometimes"));
    let mut cmd = assert_cmd::Command::cargo_bin("hookrun").unwrap();
    cmd.arg("run")
        .arg(&workflow.manifest_path)
        .arg("--fixture")
        .arg(&bad);
    let out = cmd.assert().code(2);
    let stderr = String::from_utf8_lossy(&out.get_output().stderr).to_string();
    assert!(stderr.contains("/invocationMode"), "{stderr}");
}
