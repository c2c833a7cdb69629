// Peer harness without a sandbox: imports a workflow's hook modules into
// Node.js and calls them directly (driver.mjs has the commands and what they
// print).
//
//   node node-harness.mjs call <module> <export> <arg.json> <iterations>
//   node node-harness.mjs run <workflow dir> <selection.json>
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { main } from "./driver.mjs";

await main(() => async (file, name) => (await import(pathToFileURL(resolve(file)).href))[name]);
