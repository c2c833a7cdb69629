// The peer harnesses' driver, shared by node-harness.mjs and ivm-harness.mjs so
// that both run exactly the same steps. A harness hands `main` its way of
// loading hooks: `open(root)` returns `load(file, name)`, a promise of a
// function that calls export `name` of module `file` (whose imports stay
// inside `root`) with one argument.
//
//   <harness> call <module> <export> <arg.json> <iterations>
//     calls one export repeatedly with the parsed argument (root: the module's
//     directory); prints {"medianNs": …} of the individual calls.
//   <harness> run <workflow dir> <selection.json>
//     a pass-through run of a selection (either shape), one unit per attachment,
//     through normalizeSettings, preflight, buildRequest and applyResult (root:
//     the workflow directory); prints {"units": …, "elapsedNs": …}, the time
//     from before the hooks are loaded to the last result.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

const median = (xs) => xs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[Math.floor((xs.length - 1) / 2)];

async function call(open, module, name, argFile, iterations) {
  const fn = await open(dirname(resolve(module)))(module, name);
  const arg = JSON.parse(readFileSync(argFile, "utf8"));
  const samples = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    await fn(arg);
    samples.push(process.hrtime.bigint() - start);
  }
  return { medianNs: Number(median(samples)) };
}

async function run(open, dir, selectionFile) {
  const started = process.hrtime.bigint();
  const manifest = JSON.parse(readFileSync(join(dir, "workflow.json"), "utf8"));
  const load = open(resolve(dir));
  const hook = (name) => load(join(dir, manifest.hooks[name]), name);
  const [normalizeSettings, preflight, buildRequest, applyResult] = await Promise.all(
    ["normalizeSettings", "preflight", "buildRequest", "applyResult"].map(hook),
  );
  const selection = JSON.parse(readFileSync(selectionFile, "utf8"));
  const merged = { workflowParams: { label: "bench" }, providerOptions: {} };
  const persisted = await normalizeSettings({ phase: "persisted", merged });
  const workflowParams = { ...merged.workflowParams, ...persisted.workflowParams };
  await normalizeSettings({ phase: "execution", normalizedWorkflowParams: workflowParams });
  const executionOptions = { workflowParams, providerOptions: {} };
  const results = [];
  const units = Array.isArray(selection.items)
    ? selection.items.filter((item) => item.kind === "attachment").map((item) => ({ items: [item], sampledAt: selection.sampledAt }))
    : selection.items.attachments.map((entry) => ({
        ...selection,
        items: { parents: [], children: [], attachments: [entry], notes: [] },
        summary: { parentCount: 0, childCount: 0, attachmentCount: 1, noteCount: 0 },
      }));
  for (let i = 0; i < units.length; i++) {
    const selectionContext = units[i];
    const outcome = await preflight({ selectionContext, manifest, executionOptions });
    if (outcome.kind !== "continue") continue;
    const context = { planId: `unit-${i + 1}`, unitId: "main", unitOrder: 0, context: outcome.context };
    const request = await buildRequest({ selectionContext, preflight: context, manifest, executionOptions });
    const resultJson = { kind: request.kind, selectionContext: request.selectionContext, parameter: request.parameter };
    const resultContext = { resultJson, preflight: context };
    results.push(await applyResult({ resultContext, request, manifest, executionOptions }));
  }
  return { units: results.length, elapsedNs: Number(process.hrtime.bigint() - started) };
}

/** Runs the command of the process's arguments with `open` and prints its result. */
export async function main(open) {
  const [mode, ...args] = process.argv.slice(2);
  const out =
    mode === "call" ? await call(open, args[0], args[1], args[2], Number(args[3])) : await run(open, args[0], args[1]);
  console.log(JSON.stringify(out));
}
