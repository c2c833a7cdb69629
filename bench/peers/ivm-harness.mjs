// Sandboxed peer: the hooks run in a V8 isolate of isolated-vm, set up the way
// hookrun sets up its runtime. One isolate with one context per process, its
// heap capped at 128 MiB; the hook modules compiled in it as ES modules, which
// import only relative paths inside the root (the workflow directory); each
// hook call copies its argument in and its result out (structured clone, a
// promise awaited first) and is stopped after 5 s. The commands, their inputs
// and what they print are node-harness.mjs's (driver.mjs), so the two differ
// only by the sandbox: starting the isolate, compiling the modules in it and
// the copies across its boundary.
//
// isolated-vm needs --no-node-snapshot on Node.js 20 and later:
//
//   node --no-node-snapshot ivm-harness.mjs call <module> <export> <arg.json> <iterations>
//   node --no-node-snapshot ivm-harness.mjs run <workflow dir> <selection.json>
import { readFileSync } from "node:fs";
import { dirname, extname, isAbsolute, relative, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import ivm from "isolated-vm";
import { main } from "./driver.mjs";

const MEMORY_LIMIT_MIB = 128;
const TIMEOUT_MS = 5000;
const CROSSING = { arguments: { copy: true }, result: { copy: true, promise: true }, timeout: TIMEOUT_MS };

/** A new isolate whose hooks are modules inside `root`, each compiled once. */
function open(root) {
  const isolate = new ivm.Isolate({ memoryLimit: MEMORY_LIMIT_MIB });
  const context = isolate.createContextSync();
  const modules = new Map(); // path → Module
  const paths = new Map(); // Module → path

  const compile = (path) => {
    const inside = relative(root, path);
    if (!inside || inside.startsWith("..") || isAbsolute(inside) || ![".mjs", ".js"].includes(extname(path))) {
      throw new Error(`${path}: not a module inside ${root}`);
    }
    if (!modules.has(path)) {
      const module = isolate.compileModuleSync(readFileSync(path, "utf8"), { filename: pathToFileURL(path).href });
      modules.set(path, module);
      paths.set(module, path);
    }
    return modules.get(path);
  };
  const link = (specifier, referrer) => {
    if (!/^\.\.?\//.test(specifier)) throw new Error(`${specifier}: only relative imports`);
    return compile(resolve(dirname(paths.get(referrer)), specifier));
  };

  return async (file, name) => {
    const module = compile(resolve(file));
    module.instantiateSync(context, link);
    module.evaluateSync({ timeout: TIMEOUT_MS });
    const hook = module.namespace.getSync(name, { reference: true });
    if (hook.typeof !== "function") throw new Error(`${file}: no function export ${name}`);
    return (arg) => hook.applySync(undefined, [arg], CROSSING);
  };
}

await main(open);
