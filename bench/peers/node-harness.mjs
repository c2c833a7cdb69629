// Peer harness without a sandbox: imports a workflow's hook modules into
// Node.js and calls them directly.
//
//   node node-harness.mjs call <module> <export> <arg.json> <iterations>
//     calls one export repeatedly with the parsed argument; prints
//     {"medianNs": …} of the individual calls.
//   node node-harness.mjs run <workflow dir> <selection.json>
//     a pass-through run of a selection (either shape), one unit per attachment,
//     through normalizeSettings, preflight, buildRequest and applyResult; prints
//     {"units": …, "elapsedNs": …}.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const load = async (file) => import(pathToFileURL(resolve(file)).href);
const median = (xs) => xs.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[Math.floor((xs.length - 1) / 2)];

async function call(module, name, argFile, iterations) {
  const fn = (await load(module))[name];
  const arg = JSON.parse(readFileSync(argFile, "utf8"));
  const samples = [];
  for (let i = 0; i < iterations; i++) {
    const start = process.hrtime.bigint();
    await fn(arg);
    samples.push(process.hrtime.bigint() - start);
  }
  return { medianNs: Number(median(samples)) };
}

async function run(dir, selectionFile) {
  const started = process.hrtime.bigint();
  const manifest = JSON.parse(readFileSync(join(dir, "workflow.json"), "utf8"));
  const hook = async (name) => (await load(join(dir, manifest.hooks[name])))[name];
  const [normalizeSettings, preflight, buildRequest, applyResult] = await Promise.all(
    ["normalizeSettings", "preflight", "buildRequest", "applyResult"].map(hook),
  );
  const selection = JSON.parse(readFileSync(selectionFile, "utf8"));
  const merged = { workflowParams: { label: "bench" }, providerOptions: {} };
  const persisted = normalizeSettings({ phase: "persisted", merged });
  const workflowParams = { ...merged.workflowParams, ...persisted.workflowParams };
  normalizeSettings({ phase: "execution", normalizedWorkflowParams: workflowParams });
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

const [mode, ...args] = process.argv.slice(2);
const out = mode === "call" ? await call(args[0], args[1], args[2], Number(args[3])) : await run(args[0], args[1]);
console.log(JSON.stringify(out));
