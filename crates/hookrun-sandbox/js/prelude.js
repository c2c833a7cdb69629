// The hookrun prelude. Evaluated before any hook module: under QuickJS once, at
// build time, into the startup snapshot every runtime restores; under V8 once
// per runtime (crates/hookrun-sandbox/src/boot.rs).
//
// It captures the engine internals it needs in closures and returns
// `configure`, which each runtime calls: it binds the ops, removes every
// non-standard global (including `Deno`) from the hook's global scope, installs
// `console`, and returns the internal API the Rust side drives. Hook code can
// never reach that API: `configure` is the completion value of this script,
// which the host takes (from the snapshot's global, deleting it) before any
// hook code runs.
//
// All work done on behalf of the host uses intrinsics captured here, so a hook
// that patches `Array.prototype` or `Object.prototype` cannot change how its
// result is serialised or how its logs are recorded.
(function hookrunPrelude(globalThis) {
  "use strict";

  // Bound by `configure`: a runtime restored from the startup snapshot has
  // its ops only from then on.
  let op_hookrun_log;
  let op_hookrun_host;
  let op_hookrun_deep_freeze;
  let op_hookrun_checked_json;
  let op_hookrun_deep_copy;
  let op_hookrun_shallow_copy;

  const ObjectCreate = Object.create;
  const ObjectFreeze = Object.freeze;
  const ObjectIsFrozen = Object.isFrozen;
  const ObjectKeys = Object.keys;
  const ObjectValues = Object.values;
  const ObjectGetOwnPropertyNames = Object.getOwnPropertyNames;
  const ObjectGetOwnPropertySymbols = Object.getOwnPropertySymbols;
  const ObjectDefineProperty = Object.defineProperty;
  const ObjectGetOwnPropertyDescriptor = Object.getOwnPropertyDescriptor;
  const ObjectGetPrototypeOf = Object.getPrototypeOf;
  const ObjectSetPrototypeOf = Object.setPrototypeOf;
  const ObjectIsExtensible = Object.isExtensible;
  const ObjectPreventExtensions = Object.preventExtensions;
  const ReflectOwnKeys = Reflect.ownKeys;
  const ReflectDeleteProperty = Reflect.deleteProperty;
  const JSONParse = JSON.parse;
  const JSONStringify = JSON.stringify;
  const ObjectHasOwn = Object.hasOwn;
  const ArrayIsArray = Array.isArray;
  const ArrayPrototypeJoin = Array.prototype.join;
  const SetCtor = Set;
  const SetPrototypeHas = Set.prototype.has;
  const SetPrototypeAdd = Set.prototype.add;
  const SetPrototypeDelete = Set.prototype.delete;
  const MapCtor = Map;
  const MapPrototypeGet = Map.prototype.get;
  const MapPrototypeSet = Map.prototype.set;
  const MapPrototypeClear = Map.prototype.clear;
  const WeakMapCtor = WeakMap;
  const WeakMapPrototypeGet = WeakMap.prototype.get;
  const WeakMapPrototypeSet = WeakMap.prototype.set;
  const WeakMapPrototypeDelete = WeakMap.prototype.delete;
  const FunctionPrototypeCall = Function.prototype.call;
  const SymbolPrototypeToString = Symbol.prototype.toString;
  const ErrorCtor = Error;
  const StringCtor = String;
  const NumberIsFinite = Number.isFinite;
  const MathImul = Math.imul;
  const DateCtor = Date;
  const PromiseCtor = Promise;
  const PromisePrototypeThen = Promise.prototype.then;

  // `uncurry(Set.prototype.has)(set, value)` calls the captured method on
  // `set`; bound once here, so a call allocates nothing and later patches of
  // `Function.prototype.call` do not reach it.
  const uncurry = (fn) => FunctionPrototypeCall.bind(fn);
  const join = uncurry(ArrayPrototypeJoin);

  // Hook code may put setters on `Array.prototype` or `Object.prototype` and change
  // `Array[Symbol.species]`, so the prelude never assigns into fresh objects or arrays
  // and never lets a builtin create its result array: it defines own properties.
  // One descriptor serves every `put`: the engine reads it before it defines
  // anything, and no hook code ever sees it.
  const DATA = { __proto__: null, value: undefined, writable: true, enumerable: true, configurable: true };
  function put(target, key, value) {
    DATA.value = value;
    try {
      ObjectDefineProperty(target, key, DATA);
    } finally {
      DATA.value = undefined;
    }
  }
  // Replaces the value at `path` (keys and indexes, at least one) inside `root`.
  // The host's holes are own data properties, and assigning one reaches no
  // setter a hook put on a prototype; anything else is defined.
  function setAt(root, path, value) {
    let node = root;
    const last = path.length - 1;
    for (let i = 0; i < last; i++) node = node[path[i]];
    const key = path[last];
    if (ObjectHasOwn(node, key)) node[key] = value;
    else put(node, key, value);
  }
  function append(list, value) {
    put(list, list.length, value);
  }
  // `fn` over the elements of `list` (read by index), into a fresh array.
  function mapped(list, fn) {
    const out = [];
    const length = list.length;
    for (let i = 0; i < length; i++) append(out, fn(list[i]));
    return out;
  }
  const setHas = uncurry(SetPrototypeHas);
  const setAdd = uncurry(SetPrototypeAdd);
  const setDelete = uncurry(SetPrototypeDelete);
  // A map whose methods are its own properties, defined while no hook code
  // has run: its calls go straight to the captured intrinsics, which no later
  // patch of `Map.prototype` or `WeakMap.prototype` reaches.
  function ownMethods(map, methods) {
    const names = ObjectKeys(methods);
    for (let i = 0; i < names.length; i++) {
      ObjectDefineProperty(map, names[i], { __proto__: null, value: methods[names[i]] });
    }
    return map;
  }
  const symbolToString = uncurry(SymbolPrototypeToString);
  const promiseThen = uncurry(PromisePrototypeThen);

  // ---- Globals a hook may see --------------------------------------------
  // Standard ECMAScript globals only; everything the embedding added is removed.
  // Hooks have no threads, so SharedArrayBuffer and Atomics have no use but to block
  // (Atomics.wait is not interruptible) or to allocate memory outside the heap cap.
  const STANDARD_GLOBALS = new SetCtor([
    "globalThis", "Infinity", "NaN", "undefined", "eval", "isFinite", "isNaN",
    "parseFloat", "parseInt", "decodeURI", "decodeURIComponent", "encodeURI",
    "encodeURIComponent", "escape", "unescape", "Object", "Function", "Array",
    "Number", "Boolean", "String", "Symbol", "BigInt", "Date", "Promise",
    "RegExp", "Error", "AggregateError", "EvalError", "RangeError",
    "ReferenceError", "SyntaxError", "TypeError", "URIError",
    "SuppressedError", "JSON", "Math", "Reflect", "Proxy", "Map", "Set",
    "WeakMap", "WeakSet", "WeakRef", "FinalizationRegistry", "Iterator",
    "ArrayBuffer", "DataView", "Int8Array",
    "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array",
    "Int32Array", "Uint32Array", "Float16Array", "Float32Array",
    "Float64Array", "BigInt64Array", "BigUint64Array", "Intl",
    "queueMicrotask",
  ]);

  function removeNonStandardGlobals() {
    const names = ObjectGetOwnPropertyNames(globalThis);
    for (let i = 0; i < names.length; i++) {
      const name = names[i];
      if (!setHas(STANDARD_GLOBALS, name)) {
        ReflectDeleteProperty(globalThis, name);
      }
    }
    // Symbol-keyed globals are engine or embedding internals, never standard.
    const symbols = ObjectGetOwnPropertySymbols(globalThis);
    for (let i = 0; i < symbols.length; i++) {
      ReflectDeleteProperty(globalThis, symbols[i]);
    }
  }

  // ---- Stack formatting --------------------------------------------------
  // The host formats every stack (hook frames only), so the engine does not
  // hand call-site objects to hook code (crates/hookrun-sandbox/src/breach.rs says what
  // changes once a call breaches the heap cap). A hook may still assign
  // `Error.prepareStackTrace`: the value is kept for it to read back, but the
  // engine never sees it and never calls it.
  function detachPrepareStackTrace() {
    let assigned;
    ObjectDefineProperty(ErrorCtor, "prepareStackTrace", {
      __proto__: null,
      get() { return assigned; },
      set(value) { assigned = value; },
      enumerable: false,
      configurable: false,
    });
  }

  // ---- Determinism -------------------------------------------------------
  function installDeterminism(nowMs, seed) {
    let state = seed >>> 0;
    // mulberry32: small, fast, and good enough for reproducible fixtures.
    const random = function random() {
      state = (state + 0x6d2b79f5) >>> 0;
      let t = state;
      t = MathImul(t ^ (t >>> 15), t | 1);
      t ^= t + MathImul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    ObjectDefineProperty(Math, "random", { value: random, writable: true, configurable: true });

    const FrozenDate = function Date(...args) {
      if (new.target === undefined) {
        return new DateCtor(nowMs).toString();
      }
      return args.length === 0 ? new DateCtor(nowMs) : new DateCtor(...args);
    };
    FrozenDate.prototype = DateCtor.prototype;
    FrozenDate.now = function now() { return nowMs; };
    FrozenDate.parse = DateCtor.parse;
    FrozenDate.UTC = DateCtor.UTC;
    ObjectDefineProperty(DateCtor.prototype, "constructor", {
      value: FrozenDate, writable: true, configurable: true,
    });
    ObjectDefineProperty(globalThis, "Date", { value: FrozenDate, writable: true, configurable: true });
  }

  // ---- Console -----------------------------------------------------------
  const LEVELS = { debug: 0, log: 1, info: 2, warn: 3, error: 4 };
  let logsOpen = true;

  function describe(value, seen, depth) {
    switch (typeof value) {
      case "string": return JSONStringify(value);
      case "function": return `[Function ${value.name || "(anonymous)"}]`;
      case "symbol": return symbolToString(value);
      case "bigint": return `${StringCtor(value)}n`;
      case "undefined": return "undefined";
      case "object": break;
      default: return StringCtor(value);
    }
    if (value === null) return "null";
    if (setHas(seen, value)) return "[Circular]";
    if (depth > 4) return ArrayIsArray(value) ? "[Array]" : "[Object]";
    if (value instanceof ErrorCtor) return errorSummary(value);
    setAdd(seen, value);
    try {
      if (ArrayIsArray(value)) {
        return `[${join(mapped(value, (v) => describe(v, seen, depth + 1)), ", ")}]`;
      }
      const keys = ObjectKeys(value);
      const parts = mapped(keys, (k) => `${JSONStringify(k)}: ${describe(value[k], seen, depth + 1)}`);
      return `{${join(parts, ", ")}}`;
    } finally {
      setDelete(seen, value);
    }
  }

  function formatArgs(args) {
    const parts = [];
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      append(parts, typeof a === "string" ? a : safely(() => describe(a, new SetCtor(), 0), "[unprintable]"));
    }
    return join(parts, " ");
  }

  function makeLogger(level) {
    return function log(...args) {
      if (!logsOpen) return;
      logsOpen = op_hookrun_log(level, formatArgs(args));
    };
  }

  // A line of the hook's log from the Host API (`logging.appendRuntimeLog`).
  function runtimeLog(level, message) {
    if (!logsOpen) return;
    logsOpen = op_hookrun_log(LEVELS[level] === undefined ? LEVELS.log : LEVELS[level], `${message}`);
  }

  const consoleObject = ObjectCreate(null);
  consoleObject.debug = makeLogger(LEVELS.debug);
  consoleObject.trace = consoleObject.debug;
  consoleObject.log = makeLogger(LEVELS.log);
  consoleObject.info = makeLogger(LEVELS.info);
  consoleObject.warn = makeLogger(LEVELS.warn);
  consoleObject.error = makeLogger(LEVELS.error);

  // ---- Errors ------------------------------------------------------------
  function safely(fn, fallback) {
    try {
      return fn();
    } catch {
      return fallback;
    }
  }

  function errorSummary(e) {
    const name = safely(() => StringCtor(e.name), "Error");
    const message = safely(() => StringCtor(e.message), "");
    return message ? `${name}: ${message}` : name;
  }

  // Turns anything a hook threw into plain data. Getters and `toString` of the
  // thrown value may themselves throw; every read is guarded.
  function describeThrown(e) {
    const isObject = e !== null && (typeof e === "object" || typeof e === "function");
    if (!isObject) {
      return { __proto__: null, name: "Error", message: `Uncaught ${safely(() => describe(e, new SetCtor(), 0), "value")}`, stack: "", thrown: "value" };
    }
    const name = safely(() => { const n = e.name; return typeof n === "string" ? n : "Error"; }, "Error");
    const message = safely(() => { const m = e.message; return typeof m === "string" ? m : describe(e, new SetCtor(), 0); }, "");
    const stack = safely(() => { const s = e.stack; return typeof s === "string" ? s : ""; }, "");
    return { __proto__: null, name, message, stack, thrown: safely(() => e instanceof ErrorCtor, false) ? "error" : "object" };
  }

  // ---- Shared values -----------------------------------------------------
  // Values the host shares across calls (crates/hookrun-sandbox/src/shared.rs):
  // each arrives once, is deeply frozen and kept under its id; later arguments
  // refer to it by id, and a result that returns it is written as a reference
  // the host resolves: `sharedMarker` (a secret the host configures) and the id.
  // Read and written through captured intrinsics only, like everything the
  // prelude does: a hook that replaces `WeakMap.prototype.get` changes nothing
  // here. Entries by id are kept in an object without a prototype, read with
  // the language's own operators, which no hook can patch.
  const kept = ObjectCreate(null);
  // Made by `configure` with `ownMethods` (a startup snapshot keeps a map's
  // entries, not its own properties).
  let keptOf;
  let sharedMarker = "";
  // Counts calls; a kept value whose `call` is the current one is one the host
  // handed this call, and only those cross back as references.
  let sharingCall = 0;

  // The engine's native walk when it has one (the values are the host's
  // plain data). Where it stopped short, or without one, arrays by index and
  // objects by `Object.values`, through what is frozen already: a native walk
  // that ran out of depth froze the levels above the rest. A kept value was
  // frozen whole before it was kept (`share`), and stays so: a unit's
  // selection, frozen again by every hook that gets it, is not walked again.
  function deepFreeze(value) {
    if (value === null || typeof value !== "object") return value;
    if (keptOf.get(value) !== undefined) return value;
    if (op_hookrun_deep_freeze(value)) return value;
    return walkFreeze(value);
  }
  function walkFreeze(value) {
    if (value === null || typeof value !== "object") return value;
    if (!ObjectIsFrozen(value)) ObjectFreeze(value);
    const members = ArrayIsArray(value) ? value : ObjectValues(value);
    for (let i = 0; i < members.length; i++) walkFreeze(members[i]);
    return value;
  }

  // A fresh copy of a template (plain data): the engine's native walk when it
  // has one, else arrays by index and objects by their keys (not through JSON
  // text, whose `toJSON` lookups a hook could answer from `Object.prototype`).
  function copyOf(value) {
    const copy = op_hookrun_deep_copy(value);
    return copy !== undefined ? copy : copyData(value);
  }
  function copyData(value) {
    if (value === null || typeof value !== "object") return value;
    if (ArrayIsArray(value)) return mapped(value, copyData);
    const out = {};
    const keys = ObjectKeys(value);
    for (let i = 0; i < keys.length; i++) put(out, keys[i], copyData(value[keys[i]]));
    return out;
  }

  // A new object with the own properties of `value`, an ordinary object: the
  // same prototype and keys in the same order, each with its attributes and
  // its value or accessors, and the same extensibility. The engine's native
  // copy when it has one; else property by property, each descriptor without
  // a prototype, so that getters a hook put on `Object.prototype` do not
  // answer for the attributes it leaves out.
  function shallowCopy(value) {
    const copy = op_hookrun_shallow_copy(value);
    if (copy !== undefined) return copy;
    const out = ObjectCreate(ObjectGetPrototypeOf(value));
    const keys = ReflectOwnKeys(value);
    for (let i = 0; i < keys.length; i++) {
      const descriptor = ObjectGetOwnPropertyDescriptor(value, keys[i]);
      ObjectSetPrototypeOf(descriptor, null);
      ObjectDefineProperty(out, keys[i], descriptor);
    }
    if (!ObjectIsExtensible(value)) ObjectPreventExtensions(out);
    return out;
  }

  // A weak map whose `get`, `set` and `delete` are its own (`ownMethods`).
  // Made while a runtime starts (`configure`, the animator): a startup
  // snapshot keeps a map's entries, not its own properties.
  function newWeakMap() {
    return ownMethods(new WeakMapCtor(), {
      __proto__: null, get: WeakMapPrototypeGet, set: WeakMapPrototypeSet, delete: WeakMapPrototypeDelete,
    });
  }

  // Paths into arguments by number: the host sends each once, and starts the
  // table over when it tells to (crates/hookrun-sandbox/src/shared.rs).
  let paths = ObjectCreate(null);

  // Applies the host's `[description, ...new values, ...new paths]` to a
  // call's argument: drops and keeps values (a template is neither frozen nor
  // ever handed out), learns the new paths, then puts kept values (a
  // template: a copy of it) into the holes the refs name ([id, path number];
  // an empty path is the argument) and marks them as values the call may
  // return. The description is one array of integers (`Sharing::describe`):
  // `clear`, then counted groups of new path numbers, refs [id, path], kept
  // values [id, bytes, depth, copied] and dropped ids.
  function share(arg, shared) {
    sharingCall += 1;
    if (shared === undefined) return arg;
    const d = shared[0];
    const clear = d[0] === 1;
    const newPaths = 2;
    const newPathCount = d[1];
    const refs = newPaths + newPathCount + 1;
    const refCount = d[refs - 1];
    const keep = refs + 2 * refCount + 1;
    const keepCount = d[keep - 1];
    const drop = keep + 4 * keepCount + 1;
    const dropCount = d[drop - 1];
    // Everything that can throw comes first, so the tables change whole or
    // not at all.
    for (let i = 0; i < keepCount; i++) {
      if (d[keep + 4 * i + 3] !== 1) deepFreeze(shared[i + 1]);
    }
    for (let i = 0; i < dropCount; i++) {
      const entry = kept[d[drop + i]];
      if (entry !== undefined) {
        keptOf.delete(entry.value);
        delete kept[d[drop + i]];
      }
    }
    for (let i = 0; i < keepCount; i++) {
      const at = keep + 4 * i;
      const value = shared[i + 1];
      const template = d[at + 3] === 1;
      const entry = { __proto__: null, id: d[at], bytes: d[at + 1], depth: d[at + 2], value, call: 0, template };
      kept[entry.id] = entry;
      // A template is never handed out, so no result can return it.
      if (!template) keptOf.set(value, entry);
    }
    if (clear) paths = ObjectCreate(null);
    for (let i = 0; i < newPathCount; i++) paths[d[newPaths + i]] = shared[1 + keepCount + i];
    for (let at = refs, end = refs + 2 * refCount; at < end; at += 2) {
      const entry = kept[d[at]];
      if (entry === undefined) throw new ErrorCtor(`the shared value ${d[at]} is not kept in this runtime`);
      const path = paths[d[at + 1]];
      if (path === undefined) throw new ErrorCtor(`the path ${d[at + 1]} is not known in this runtime`);
      entry.call = sharingCall;
      const value = entry.template ? copyOf(entry.value) : entry.value;
      if (path.length === 0) arg = value;
      else setAt(arg, path, value);
    }
    return arg;
  }

  // ---- Results -----------------------------------------------------------
  // Serialises a hook's value to JSON text, refusing what JSON cannot carry
  // faithfully (functions, symbols, bigints, non-finite numbers, cycles) and
  // stopping as soon as the text would exceed `maxBytes`.
  class InvalidOutput {
    constructor(message) { put(this, "message", message); }
  }
  class OutputTooLarge {
    constructor(limit) { put(this, "limit", limit); }
  }

  // Deepest nesting of objects and arrays a result may have; the host reads results
  // back with a recursion limit of 128.
  const MAX_OUTPUT_DEPTH = 100;

  // References to kept values the last `serialize` wrote.
  let sharedRefs = 0;

  // The state of the `serialize` running now: what is left of the output's
  // bytes, its limit and the nesting of each object written so far. The
  // replacer is made once: it runs for every value of every result.
  let budget = 0;
  let budgetLimit = 0;
  let depths;

  // Names the offending value only when there is one.
  function where(key) {
    return key === "" ? "the returned value" : `property ${JSONStringify(key)}`;
  }

  // Why a value of a result was refused, by the codes the engine's checked
  // walk answers (`op_hookrun_checked_json`); `v` is the value.
  const TOO_DEEP = 1, NOT_FINITE = 2, FUNCTION = 3, SYMBOL = 4, BIGINT = 5, TOO_LARGE = 6;
  function refusal(code, key, v) {
    switch (code) {
      case TOO_DEEP: return new InvalidOutput(`${where(key)} is nested more than ${MAX_OUTPUT_DEPTH} levels deep; flatten the returned value`);
      case NOT_FINITE: return new InvalidOutput(`${where(key)} is ${StringCtor(v)}, which JSON cannot represent`);
      case FUNCTION: return new InvalidOutput(`${where(key)} is a function, which cannot cross the sandbox boundary as JSON`);
      case SYMBOL: return new InvalidOutput(`${where(key)} is a symbol, which cannot cross the sandbox boundary as JSON`);
      case BIGINT: return new InvalidOutput(`${where(key)} is a BigInt; convert it to a number or string first`);
      default: return new OutputTooLarge(budgetLimit);
    }
  }

  // The same checks in JavaScript, for an engine without the checked walk.
  function replacer(key, v) {
    const t = typeof v;
    if (t === "string") {
      budget -= v.length + 2;
    } else {
      if (t === "object" && v !== null) {
        const depth = (depths.get(this) || 0) + 1;
        if (depth > MAX_OUTPUT_DEPTH) throw refusal(TOO_DEEP, key);
        const entry = keptOf.get(v);
        if (entry !== undefined && entry.call === sharingCall) {
          // The host has the value: it crosses back as a reference, weighed as
          // the value itself.
          if (depth + entry.depth - 1 > MAX_OUTPUT_DEPTH) throw refusal(TOO_DEEP, key);
          budget -= entry.bytes + key.length + 4;
          if (budget < 0) throw refusal(TOO_LARGE, key);
          sharedRefs += 1;
          return `${sharedMarker}${entry.id}`;
        }
        depths.set(v, depth);
      } else if (t === "number") {
        if (!NumberIsFinite(v)) throw refusal(NOT_FINITE, key, v);
      } else if (t === "function") {
        throw refusal(FUNCTION, key);
      } else if (t === "symbol") {
        throw refusal(SYMBOL, key);
      } else if (t === "bigint") {
        throw refusal(BIGINT, key);
      }
      budget -= key.length + 4;
    }
    if (budget < 0) throw refusal(TOO_LARGE, key);
    return v;
  }

  // The text of a result, checked: the engine's checked walk (getters and
  // `toJSON` methods run as in `JSON.stringify`), or `JSON.stringify` with
  // the replacer above.
  function stringifyChecked(value, maxBytes) {
    const checked = op_hookrun_checked_json(value, maxBytes, MAX_OUTPUT_DEPTH, keptOf, sharingCall, sharedMarker);
    if (checked === undefined) {
      try {
        return JSONStringify(value, replacer);
      } finally {
        depths.clear();
      }
    }
    if (typeof checked[0] === "number") throw refusal(checked[0], checked[1], checked[2]);
    sharedRefs = checked[1];
    return checked[0];
  }

  function serialize(value, maxBytes) {
    sharedRefs = 0;
    if (value === undefined) return "null";
    budget = maxBytes;
    budgetLimit = maxBytes;
    let text;
    try {
      text = stringifyChecked(value, maxBytes);
    } catch (e) {
      if (e instanceof InvalidOutput || e instanceof OutputTooLarge) throw e;
      if (e instanceof TypeError) throw new InvalidOutput(`the returned value cannot be serialised as JSON: ${safely(() => e.message, "TypeError")}`);
      throw e;
    }
    return text === undefined ? "null" : text;
  }

  // `kind` is always a literal of this file that JSON writes as it is, so it
  // needs no `JSON.stringify` call (and its wrapper objects) per answer.
  function envelope(kind, body) {
    return `{"kind":"${kind}",${body}}`;
  }

  // Set by `configure`: the startup's animator (the sandbox's `Startup`), which
  // builds the live objects of call arguments; one that changes nothing without it.
  let animator = null;

  // Live descriptions by the number the host holds them under (the sandbox's
  // `LiveSpecs`): each crosses into a runtime once and is made ready once, by
  // the animator's `prepare` when it has one, else frozen as it came.
  const liveSpecs = ObjectCreate(null);
  let prepares = false;
  function heldLive(id) {
    const live = liveSpecs[id];
    if (live === undefined) throw new ErrorCtor(`the live description ${id} is not held in this runtime`);
    return live;
  }

  // Calls `fn` with the argument the host built from JSON (made live as
  // `live` describes, when given) and returns a JSON envelope: {kind: "ok", value} |
  // {kind: "hook-error", error} | {kind: "invalid-output", message} |
  // {kind: "output-too-large", limit}. A hook that returns a thenable is
  // awaited: the call answers `null` and the envelope is kept for `takeSettled`
  // once the event loop has run. Any other hook answers at once.
  //
  // With `sync`, a returned promise is not awaited: the call answers
  // {kind: "promise"} (the contract calls `normalizeSettings` synchronously).
  //
  // `shared` describes the shared values the argument refers to (`share`
  // above); `undefined` when it refers to none. `liveId` is the number of the
  // call's live description, `undefined` when it has none; `live` is the
  // description when the runtime does not hold it yet.
  function invoke(fn, arg, maxBytes, live, sync, shared, liveId) {
    logsOpen = true;
    settled = undefined;
    // Outside the hook's failures: the host holds a new description as taken
    // once this call answers.
    if (live !== undefined) liveSpecs[liveId] = prepares ? animator.prepare(live) : deepFreeze(live);
    let value;
    let pending = false;
    try {
      arg = share(arg, shared);
      if (liveId !== undefined) arg = animator.animate(arg, heldLive(liveId));
      value = fn(arg);
      if (sync && value instanceof PromiseCtor) {
        promiseThen(value, undefined, () => {});
        animator.finish();
        return envelope("promise", `"ignored":true`);
      }
      pending = !sync && isThenable(value);
    } catch (e) {
      animator.finish();
      return thrown(e);
    }
    if (pending) {
      promiseThen(settle(value, maxBytes), (text) => { settled = text; });
      return null;
    }
    animator.finish();
    return answer(value, maxBytes);
  }

  // The envelope of the current call whose hook returned a thenable, once it
  // settled; `undefined` before.
  let settled;

  function takeSettled() {
    const text = settled;
    settled = undefined;
    return text;
  }

  function isThenable(value) {
    return value !== null && (typeof value === "object" || typeof value === "function") &&
      typeof value.then === "function";
  }

  async function settle(promise, maxBytes) {
    let value;
    try {
      value = await promise;
    } catch (e) {
      return thrown(e);
    } finally {
      animator.finish();
    }
    return answer(value, maxBytes);
  }

  function thrown(e) {
    return envelope("hook-error", `"error":${JSONStringify(describeThrown(e))}`);
  }

  function answer(value, maxBytes) {
    try {
      const text = serialize(value, maxBytes);
      return envelope("ok", `"refs":${sharedRefs},"value":${text}`);
    } catch (e) {
      if (e instanceof InvalidOutput) return envelope("invalid-output", `"message":${JSONStringify(e.message)}`);
      if (e instanceof OutputTooLarge) return envelope("output-too-large", `"limit":${e.limit}`);
      return thrown(e);
    }
  }

  // Lists a module namespace's exports and whether each is a function.
  function exportsOf(namespace) {
    const names = ObjectKeys(namespace);
    const out = [];
    for (let i = 0; i < names.length; i++) {
      append(out, { __proto__: null, name: names[i], isFunction: typeof namespace[names[i]] === "function" });
    }
    return JSONStringify(out);
  }

  // ---- Host bridge -------------------------------------------------------
  // Calls a host member; the Rust side answers `{ok: value}` or `{error: {...}}`.
  function hostCall(member, args) {
    const reply = JSONParse(op_hookrun_host(member, JSONStringify(args === undefined ? null : args)));
    // Own properties only: a hook may have put getters on `Object.prototype`.
    if (ObjectHasOwn(reply, "error")) {
      const fields = reply.error;
      const err = new ErrorCtor(fields.message);
      const keys = ObjectKeys(fields);
      for (let i = 0; i < keys.length; i++) {
        if (keys[i] !== "message") put(err, keys[i], fields[keys[i]]);
      }
      throw err;
    }
    return ObjectHasOwn(reply, "ok") ? reply.ok : undefined;
  }

  // ---- Bootstrap ---------------------------------------------------------
  return function configure(config, makeAnimator, installWeb) {
    const ops = globalThis.Deno.core.ops;
    ({ op_hookrun_log, op_hookrun_host, op_hookrun_deep_freeze, op_hookrun_deep_copy, op_hookrun_shallow_copy,
      op_hookrun_checked_json } = ops);
    if (typeof op_hookrun_log !== "function" || typeof op_hookrun_host !== "function" ||
        typeof op_hookrun_deep_freeze !== "function" || typeof op_hookrun_deep_copy !== "function" ||
        typeof op_hookrun_shallow_copy !== "function" || typeof op_hookrun_checked_json !== "function") {
      throw new ErrorCtor("the hookrun ops are not bound in this runtime");
    }
    keptOf = newWeakMap();
    depths = ownMethods(new MapCtor(), {
      __proto__: null, get: MapPrototypeGet, set: MapPrototypeSet, clear: MapPrototypeClear,
    });
    removeNonStandardGlobals();
    // The web-platform globals (js/web.js), over the crates' ops, after the removal.
    installWeb(globalThis, {
      __proto__: null,
      urlParse: ops.op_hookrun_url_parse,
      urlSet: ops.op_hookrun_url_set,
      formParse: ops.op_hookrun_form_parse,
      formSerialize: ops.op_hookrun_form_serialize,
      utf8Encode: ops.op_hookrun_utf8_encode,
      encodingName: ops.op_hookrun_encoding_name,
      textDecode: ops.op_hookrun_text_decode,
      utf8Tail: ops.op_hookrun_utf8_tail,
      structuredClone: ops.op_structured_clone,
    });
    detachPrepareStackTrace();
    animator = makeAnimator === undefined
      ? { __proto__: null, animate: (arg) => arg, finish() {} }
      : makeAnimator(hostCall, { __proto__: null, put, setAt, promiseThen, log: runtimeLog, deepFreeze, shallowCopy, newWeakMap });
    if (animator === null || typeof animator !== "object" || typeof animator.animate !== "function" ||
        typeof animator.finish !== "function") {
      throw new ErrorCtor("the startup's animator factory returned no {animate, finish} object");
    }
    prepares = typeof animator.prepare === "function";
    sharedMarker = `${config.sharedMarker}`;
    if (config.deterministic) {
      installDeterminism(config.deterministic.nowMs, config.deterministic.seed);
    }
    ObjectDefineProperty(globalThis, "console", {
      value: ObjectFreeze(consoleObject), writable: true, configurable: true, enumerable: false,
    });
    const api = ObjectCreate(null);
    api.invoke = invoke;
    api.exportsOf = exportsOf;
    api.takeSettled = takeSettled;
    return ObjectFreeze(api);
  };
})(globalThis);
