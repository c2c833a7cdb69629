// The objects hooks receive besides plain data: the `runtime` object with its
// Host API facade, bundle readers and result contexts. Evaluated with the
// prelude, before any hook module. This file is a function expression that
// `build.rs` applies to the Host API declaration
// (`js/host-api.json`); the completion value is a factory the prelude's
// `configure` calls with its internals.
//
// Every member answers through `hostCall`, which the Rust host bridge serves.
// Calls made after the hook returned are refused (`canceled`), like the
// reference host's per-call cancellation signal.
(function hookrunFacade(API) {
  "use strict";

  const ObjectCreate = Object.create;
  const ObjectFreeze = Object.freeze;
  const ObjectKeys = Object.keys;
  const ObjectAssign = Object.assign;
  const ObjectDefineProperty = Object.defineProperty;
  const ArrayIsArray = Array.isArray;
  const JSONParse = JSON.parse;
  const PromiseCtor = Promise;
  const Uint8ArrayCtor = Uint8Array;
  const StringFromCharCode = String.fromCharCode;
  const StringSplit = String.prototype.split;
  const ErrorCtor = Error;
  const ReflectApply = Reflect.apply;
  const ArrayBufferIsView = ArrayBuffer.isView;
  // Brand checks that a hook cannot fake (`instanceof` goes through
  // `Symbol.hasInstance`, which a hook may redefine).
  const ArrayBufferByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, "byteLength").get;
  function isArrayBuffer(value) {
    try {
      ReflectApply(ArrayBufferByteLength, value, []);
      return true;
    } catch {
      return false;
    }
  }
  const ObjectHasOwn = Object.hasOwn;
  const TypeErrorCtor = TypeError;

  // `object[key]` when it is the object's own property: what the host answers is
  // parsed JSON, whose prototype a hook may have given extra properties.
  const own = (object, key) => (ObjectHasOwn(object, key) ? object[key] : undefined);

  // The declarations of the members the facade itself uses (bundle readers,
  // result contexts), made once: a frozen object costs the engine a shape of
  // its own.
  function internalSpec(path) {
    const spec = ObjectCreate(null);
    spec.path = path;
    return ObjectFreeze(spec);
  }
  const INTERNAL = ObjectCreate(null);
  {
    const paths = ["bundle.readText", "bundle.readBytes", "bundle.getExtractedDir", "bundle.list",
      "result.resolveArtifact", "result.resolveArtifactBytes", "productStorage.registerProduct"];
    for (let i = 0; i < paths.length; i++) INTERNAL[paths[i]] = internalSpec(paths[i]);
  }

  // A prototype-less copy of `source`'s own enumerable properties (assigned
  // natively: the copy has no prototype whose setters could see them).
  function ownCopy(source) {
    return ObjectAssign(ObjectCreate(null), source);
  }

  // The Host API as a tree: namespace -> (member -> spec | sub-namespace). A
  // spec is the member's declaration plus its dotted `path`.
  const TREE = ObjectCreate(null);
  {
    const paths = ObjectKeys(API.members);
    for (let i = 0; i < paths.length; i++) {
      const parts = ReflectApply(StringSplit, paths[i], ["."]);
      let node = TREE;
      for (let j = 0; j < parts.length - 1; j++) {
        node = node[parts[j]] || (node[parts[j]] = ObjectCreate(null));
      }
      const spec = ownCopy(API.members[paths[i]]);
      spec.path = paths[i];
      node[parts[parts.length - 1]] = ObjectFreeze(spec);
    }
  }
  const isSpec = (node) => typeof node.path === "string";

  const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const B64_INDEX = ObjectCreate(null);
  for (let i = 0; i < 64; i++) B64_INDEX[B64[i]] = i;

  function bytesFromBase64(text) {
    let clean = "";
    for (let i = 0; i < text.length; i++) if (text[i] !== "=") clean += text[i];
    const out = new Uint8ArrayCtor((clean.length * 3) >> 2);
    let acc = 0, bits = 0, o = 0;
    for (let i = 0; i < clean.length; i++) {
      const v = B64_INDEX[clean[i]];
      if (v === undefined) throw new ErrorCtor("invalid base64 data");
      acc = (acc << 6) | v;
      bits += 6;
      if (bits >= 8) {
        bits -= 8;
        out[o++] = (acc >> bits) & 0xff;
      }
    }
    return out;
  }

  function base64FromBinaryString(text) {
    let out = "";
    let i = 0;
    for (; i + 2 < text.length; i += 3) {
      const n = (text.charCodeAt(i) << 16) | (text.charCodeAt(i + 1) << 8) | text.charCodeAt(i + 2);
      out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + B64[n & 63];
    }
    const rest = text.length - i;
    if (rest === 1) {
      const n = text.charCodeAt(i) << 16;
      out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + "==";
    } else if (rest === 2) {
      const n = (text.charCodeAt(i) << 16) | (text.charCodeAt(i + 1) << 8);
      out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + "=";
    }
    return out;
  }

  function base64FromBytes(bytes) {
    let out = "";
    let i = 0;
    for (; i + 2 < bytes.length; i += 3) {
      const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
      out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + B64[n & 63];
    }
    const rest = bytes.length - i;
    if (rest === 1) {
      const n = bytes[i] << 16;
      out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + "==";
    } else if (rest === 2) {
      const n = (bytes[i] << 16) | (bytes[i + 1] << 8);
      out += B64[(n >> 18) & 63] + B64[(n >> 12) & 63] + B64[(n >> 6) & 63] + "=";
    }
    return out;
  }

  function btoa(text) {
    text = `${text}`;
    for (let i = 0; i < text.length; i++) {
      if (text.charCodeAt(i) > 255) throw new ErrorCtor("btoa: the string contains characters outside Latin-1");
    }
    return base64FromBinaryString(text);
  }

  function atob(text) {
    const bytes = bytesFromBase64(`${text}`);
    let out = "";
    for (let i = 0; i < bytes.length; i++) out += StringFromCharCode(bytes[i]);
    return out;
  }

  // `__zsHostApi` and `__zsHostApiVersion`: the Host API of the current call, for
  // libraries that are not handed `runtime`. Accessors defined once, so a hook that
  // freezes the global or pollutes prototypes does not break later calls. The
  // current call's `runtime`, whose `hostApi` is built on first read.
  let currentRuntime;
  function defineHostApiGlobals() {
    let versionOverride;
    let apiOverride;
    ObjectDefineProperty(globalThis, "__zsHostApi", {
      __proto__: null,
      get: () => (apiOverride === undefined ? currentRuntime && currentRuntime.hostApi : apiOverride),
      set: (value) => { apiOverride = value; },
      enumerable: false,
      configurable: false,
    });
    ObjectDefineProperty(globalThis, "__zsHostApiVersion", {
      __proto__: null,
      get: () => (versionOverride === undefined ? (currentRuntime === undefined ? undefined : API.version) : versionOverride),
      set: (value) => { versionOverride = value; },
      enumerable: false,
      configurable: false,
    });
  }

  // `hostCall` answers host members; `put` (defines an own property without running
  // setters a hook put on the prototype chain), `promiseThen` (the captured
  // `Promise.prototype.then`), `log(level, message)` (a line of the hook's log),
  // `shallowCopy` (an object copied with its attributes, natively when the engine
  // can) and `newWeakMap` (a weak map no prototype patch reaches) are the prelude's.
  return function facade(hostCall, { put, promiseThen, log, deepFreeze, setAt, shallowCopy, newWeakMap }) {
    defineHostApiGlobals();
    let activeCall = 0;
    let callCounter = 0;

    // Bytes cross as {"$bytes": "<base64>"}; everything else as JSON.
    function revive(value) {
      if (value !== null && typeof value === "object" && !ArrayIsArray(value)) {
        const keys = ObjectKeys(value);
        if (keys.length === 1 && keys[0] === "$bytes" && typeof value.$bytes === "string") {
          return bytesFromBase64(value.$bytes);
        }
      }
      return value;
    }

    function refuseIfEnded(callId, name) {
      if (callId === activeCall) return;
      const err = new ErrorCtor(`${name} was called after the hook returned`);
      put(err, "name", "WorkflowHostError");
      put(err, "code", "canceled");
      put(err, "retryable", false);
      put(err, "details", { reason: "caller_signal" });
      throw err;
    }

    // Bytes cross as {"$bytes": "<base64>"} both ways: typed arrays and array
    // buffers inside the arguments (a few levels deep) are encoded. The walk visits
    // a bounded number of values, so arguments that refer to themselves end it.
    const ENCODE_BUDGET = 100000;
    function encodeBytes(value, depth, budget) {
      if (value === null || typeof value !== "object" || depth > 8) return value;
      if (--budget.left < 0) throw new TypeErrorCtor("the arguments hold too many values to send to the host");
      if (isArrayBuffer(value)) return { $bytes: base64FromBytes(new Uint8ArrayCtor(value)) };
      if (ArrayBufferIsView(value)) {
        return { $bytes: base64FromBytes(new Uint8ArrayCtor(value.buffer, value.byteOffset, value.byteLength)) };
      }
      let copy;
      if (ArrayIsArray(value)) {
        for (let i = 0; i < value.length; i++) {
          const v = value[i];
          const e = encodeBytes(v, depth + 1, budget);
          if (e !== v && copy === undefined) {
            copy = [];
            for (let j = 0; j < value.length; j++) put(copy, j, value[j]);
          }
          if (copy !== undefined) put(copy, i, e);
        }
      } else {
        const keys = ObjectKeys(value);
        for (let i = 0; i < keys.length; i++) {
          const v = value[keys[i]];
          const e = encodeBytes(v, depth + 1, budget);
          if (e !== v) {
            if (copy === undefined) copy = ownCopy(value);
            copy[keys[i]] = e;
          }
        }
      }
      return copy === undefined ? value : copy;
    }

    // Calls the host for `spec` (a declared member, or an `internalSpec`) and
    // returns its answer.
    function answer(spec, args) {
      if (spec.bytesArg !== undefined) {
        // Anything `new Uint8Array(x)` takes, as on the reference host.
        const given = args[spec.bytesArg];
        if (!isArrayBuffer(given) && !ArrayBufferIsView(given)) {
          put(args, spec.bytesArg, new Uint8ArrayCtor(given === undefined || given === null ? 0 : given));
        }
      }
      if (spec.bytes) args = encodeBytes(args, 0, { __proto__: null, left: ENCODE_BUDGET });
      if (spec.frozen) return deepFreeze(revive(hostCall(spec.path, args)));
      if (spec.answer === "log") {
        const line = hostCall(spec.path, args);
        log(own(line, "level"), own(line, "message"));
        return undefined;
      }
      if (spec.deniedLog !== undefined) {
        try {
          return revive(hostCall(spec.path, args));
        } catch (e) {
          // Shown as `logging.appendRuntimeLog` lines are: `[stage] message`.
          const denied = spec.deniedLog;
          if (e.code === "interaction_required") log(denied.level, `[${denied.stage}] ${denied.message}`);
          throw e;
        }
      }
      return revive(hostCall(spec.path, args));
    }

    // A member that calls back into the hook: the host answers with the calls to
    // make, `{calls: [[...args]], result, returns: "result" | "callback", finish}`;
    // each call is awaited in turn, then the host is told the member is done.
    async function withCallback(callId, spec, args) {
      const callback = args[spec.callback];
      const hostArgs = [];
      for (let i = 0; i < args.length; i++) put(hostArgs, i, i === spec.callback ? null : args[i]);
      // The host checks the callback; it only learns whether there is one.
      if (typeof callback !== "function") put(hostArgs, spec.callback, "not a function");
      const plan = hostCall(spec.path, hostArgs);
      const calls = own(plan, "calls");
      const finish = own(plan, "finish");
      let last;
      let ended = false;
      // `returns: "finish"`: the member resolves to what the host answers once
      // told what the callback returned (a tag-audit run settles from it).
      const settles = own(plan, "returns") === "finish";
      let returned = false;
      try {
        for (let i = 0; i < calls.length; i++) {
          // A callback still running once its hook call ended goes no further.
          refuseIfEnded(callId, spec.path);
          let callArgs = calls[i];
          if (spec.scope === "archive") callArgs = [archiveScope(callId, calls[i][0], () => ended)];
          if (spec.scope === "auditRun") callArgs = [auditWriter(callId, spec.path, finish, () => ended)];
          last = await ReflectApply(callback, undefined, callArgs);
        }
        returned = true;
      } finally {
        ended = true;
        if (finish !== undefined && callId === activeCall && !(settles && returned)) {
          hostCall(`${spec.path}#finish`, [finish]);
        }
      }
      if (settles) {
        refuseIfEnded(callId, spec.path);
        return revive(hostCall(`${spec.path}#finish`, [finish, { returned: last }]));
      }
      return own(plan, "returns") === "callback" ? last : own(plan, "result");
    }

    // What `synthesis.tags.withAuditRun` hands its callback: a writer whose
    // `append(entries)` the host checks and records, until the callback settles.
    function auditWriter(callId, path, token, isEnded) {
      const writer = ObjectCreate(null);
      writer.append = function append(entries) {
        return new PromiseCtor((resolve) => {
          refuseIfEnded(callId, path);
          if (isEnded()) {
            const err = new ErrorCtor("The Synthesis request conflicts with the current state");
            put(err, "name", "WorkflowHostError");
            put(err, "code", "conflict");
            put(err, "retryable", false);
            put(err, "details", { reason: "ambiguous_state" });
            throw err;
          }
          hostCall(`${path}#append`, [token, entries]);
          resolve(undefined);
        });
      };
      return ObjectFreeze(writer);
    }

    // What `archive.withExtractedZip` hands its callback: the extracted entries,
    // readable until the callback's promise settles.
    function archiveScope(callId, view, isEnded) {
      const root = own(view, "rootPath");
      const scope = ObjectCreate(null);
      const live = (fn) => (...args) => {
        refuseIfEnded(callId, "archive.withExtractedZip");
        if (isEnded()) {
          const err = new ErrorCtor("Extracted archive scope has ended");
          put(err, "name", "WorkflowHostError");
          put(err, "code", "invalid_request");
          put(err, "retryable", false);
          put(err, "details", { reason: "invalid_value" });
          throw err;
        }
        return ReflectApply(fn, undefined, args);
      };
      // The reading members are asynchronous: once the scope has ended they
      // reject, as the reference host's do, where `resolvePath` throws.
      const liveAsync = (fn) => (...args) => new PromiseCtor((resolve) => resolve(ReflectApply(live(fn), undefined, args)));
      const at = (name) => `${root}/${name}`;
      ObjectDefineProperty(scope, "rootPath", { __proto__: null, get: () => root, enumerable: true });
      scope.entries = ObjectFreeze(own(view, "entries"));
      scope.resolvePath = live(at);
      scope.readText = liveAsync((name) => hostCall("file.readText", [at(name)]));
      scope.readBytes = liveAsync((name) => revive(hostCall("file.readBytes", [at(name)])));
      scope.measureEntries = liveAsync((names) => new PromiseCtor((resolve) => {
        const entries = [];
        for (let i = 0; i < names.length; i++) {
          put(entries, i, { name: names[i], content: { kind: "file", sourcePath: at(names[i]) } });
        }
        resolve(hostCall("archive.measureEntries", [{ entries }]));
      }));
      return ObjectFreeze(scope);
    }

    // `interactive`: the member belongs to an interactive run's Host API.
    function member(callId, spec, interactive) {
      if (spec.sync) {
        return function hostMember(...args) {
          refuseIfEnded(callId, spec.path);
          return answer(spec, args);
        };
      }
      if (spec.callback !== undefined) {
        return function hostMember(...args) {
          return new PromiseCtor((resolve) => {
            refuseIfEnded(callId, spec.path);
            resolve(withCallback(callId, spec, args));
          });
        };
      }
      if (spec.syncChecks && interactive) {
        // The request's refusal is thrown here; the answer, or any other
        // failure, is the promise's.
        return function hostMember(...args) {
          let value;
          try {
            refuseIfEnded(callId, spec.path);
            value = answer(spec, args);
          } catch (e) {
            if (e.code === "invalid_request" || e.code === "resource_limited") throw e;
            return new PromiseCtor((_, reject) => reject(e));
          }
          return new PromiseCtor((resolve) => resolve(value));
        };
      }
      return function hostMember(...args) {
        return new PromiseCtor((resolve) => {
          refuseIfEnded(callId, spec.path);
          resolve(answer(spec, args));
        });
      };
    }

    function makeSignal(callId) {
      const signal = ObjectCreate(null);
      ObjectDefineProperty(signal, "aborted", { __proto__: null, get: () => callId !== activeCall, enumerable: true });
      signal.reason = undefined;
      signal.addEventListener = function addEventListener() {};
      signal.removeEventListener = function removeEventListener() {};
      signal.throwIfAborted = function throwIfAborted() {
        if (callId !== activeCall) throw new ErrorCtor("The hook run was aborted");
      };
      return ObjectFreeze(signal);
    }

    // A Host API facade's namespaces are built on first read: most hooks
    // touch few of them or none, and building every member of every
    // namespace cost more than the rest of a call. Each getter belongs to its
    // call, so a namespace first read from a facade kept past its call still
    // refuses to run, and reads through a proxy or a derived object work.
    const namespaceNames = ObjectKeys(TREE);

    function makeNamespace(callId, node, interactive) {
      const group = ObjectCreate(null);
      const names = ObjectKeys(node);
      for (let j = 0; j < names.length; j++) {
        const child = node[names[j]];
        group[names[j]] = isSpec(child) ? member(callId, child, interactive) : makeNamespace(callId, child, interactive);
      }
      return ObjectFreeze(group);
    }

    function makeHostApi(callId, interactionMode) {
      const api = ObjectCreate(null);
      api.version = API.version;
      api.interactionMode = interactionMode || "non_interactive";
      const interactive = api.interactionMode === "interactive";
      const built = ObjectCreate(null);
      for (let i = 0; i < namespaceNames.length; i++) {
        const ns = namespaceNames[i];
        ObjectDefineProperty(api, ns, {
          __proto__: null,
          enumerable: true,
          get: () => built[ns] || (built[ns] = makeNamespace(callId, TREE[ns], interactive)),
        });
      }
      return ObjectFreeze(api);
    }

    // The fields every call shares, which the host keeps in the engine where
    // the runtime goes (own properties only), read once per base: the base is
    // kept frozen, and the same object comes back call after call.
    let fieldsBase;
    let fieldsOfBase = null;
    function baseFields(base) {
      if (fieldsOfBase === null || base !== fieldsBase) {
        const fields = ObjectCreate(null);
        const isObject = base !== null && typeof base === "object";
        for (let i = 0; i < RUNTIME_FIELDS.length; i++) {
          fields[RUNTIME_FIELDS[i]] = isObject ? own(base, RUNTIME_FIELDS[i]) : undefined;
        }
        fieldsBase = base;
        fieldsOfBase = fields;
      }
      return fieldsOfBase;
    }
    const RUNTIME_FIELDS = ["interactionMode", "invocationMode", "debugMode", "workflowId", "packageId",
      "workflowRootDir", "packageRootDir", "workflowSourceKind", "hookName", "locale"];

    // A call's `runtime` is a copy of the frozen template for its spec and base
    // (`runtimeTemplate`): the same fields in the same order, frozen alike. Its
    // `hostApi` and `signal`, which most hooks never read, are getters every
    // copy shares; each builds its member once for the copy's call, found in
    // `runtimeCalls`. A native copy of the template takes a fraction of the
    // instructions of defining twenty fields and two getters per call.
    const runtimeCalls = newWeakMap();
    function makeRuntime(callId, spec, base) {
      const runtime = shallowCopy(runtimeTemplate(spec, base).template);
      runtimeCalls.set(runtime, { __proto__: null, callId, spec, base });
      return runtime;
    }
    // What a copy's getter builds, once per copy; `undefined` for any other object.
    function hostApiOf(runtime) {
      const call = runtimeCalls.get(runtime);
      if (call === undefined) return undefined;
      if (call.hostApi === undefined) {
        const spec = call.spec;
        const interactionMode = spec.interactionMode !== undefined ? spec.interactionMode : baseFields(call.base).interactionMode;
        call.hostApi = makeHostApi(call.callId, interactionMode);
      }
      return call.hostApi;
    }
    function signalOf(runtime) {
      const call = runtimeCalls.get(runtime);
      if (call === undefined) return undefined;
      if (call.signal === undefined) call.signal = makeSignal(call.callId);
      return call.signal;
    }

    // The templates made so far, each with the base fields and the spec it was
    // made from: a run's hooks alternate, and their bases are one object. Read
    // by index and by names written out, which the engine finds without
    // turning a string into a key. A spec the runtime holds (`prepare`) comes
    // back call after call: the template found for it is kept beside it.
    let runtimeTemplates = [];
    const templateOfSpec = newWeakMap();
    function runtimeTemplate(spec, base) {
      const f = baseFields(base);
      const known = templateOfSpec.get(spec);
      if (known !== undefined && known.fields === f) return known;
      for (let i = 0; i < runtimeTemplates.length; i++) {
        const entry = runtimeTemplates[i];
        if (entry.spec.hookName === spec.hookName && entry.fields === f && sameRuntimeSpec(entry.spec, spec)) {
          templateOfSpec.set(spec, entry);
          return entry;
        }
      }
      if (runtimeTemplates.length >= 16) runtimeTemplates = [];
      const made = ObjectCreate(null);
      made.fields = f;
      made.spec = ObjectCreate(null);
      for (let i = 0; i < RUNTIME_FIELDS.length; i++) made.spec[RUNTIME_FIELDS[i]] = spec[RUNTIME_FIELDS[i]];
      made.template = ObjectFreeze({
        __proto__: null,
        get hostApi() {
          return hostApiOf(this);
        },
        hostApiVersion: API.version,
        invocationMode: (spec.invocationMode !== undefined ? spec.invocationMode : f.invocationMode) || "non-interactive",
        debugMode: !!(spec.debugMode !== undefined ? spec.debugMode : f.debugMode),
        workflowId: (spec.workflowId !== undefined ? spec.workflowId : f.workflowId) || "",
        packageId: (spec.packageId !== undefined ? spec.packageId : f.packageId) || "",
        workflowRootDir: (spec.workflowRootDir !== undefined ? spec.workflowRootDir : f.workflowRootDir) || "",
        packageRootDir: (spec.packageRootDir !== undefined ? spec.packageRootDir : f.packageRootDir) || "",
        workflowSourceKind: (spec.workflowSourceKind !== undefined ? spec.workflowSourceKind : f.workflowSourceKind) || "",
        hookName: (spec.hookName !== undefined ? spec.hookName : f.hookName) || "",
        locale: (spec.locale !== undefined ? spec.locale : f.locale) || "en-US",
        get signal() {
          return signalOf(this);
        },
        fetch: null,
        Buffer: null,
        btoa,
        atob,
        TextEncoder: null,
        TextDecoder: null,
        FileReader: null,
      });
      put(runtimeTemplates, runtimeTemplates.length, made);
      templateOfSpec.set(spec, made);
      return made;
    }
    // Whether spec `b` gives the fields of `RUNTIME_FIELDS` that `a` gives.
    function sameRuntimeSpec(a, b) {
      return a.hookName === b.hookName && a.interactionMode === b.interactionMode &&
        a.invocationMode === b.invocationMode && a.debugMode === b.debugMode && a.workflowId === b.workflowId &&
        a.packageId === b.packageId && a.workflowRootDir === b.workflowRootDir &&
        a.packageRootDir === b.packageRootDir && a.workflowSourceKind === b.workflowSourceKind &&
        a.locale === b.locale;
    }

    // The members of readers and result contexts make their host member when
    // called: most hooks call none of them, and two functions per member cost
    // more than the rest of the object (one literal, defined in place).
    function makeBundleReader(callId, id, readerKind) {
      const run = (op, args) => member(callId, INTERNAL[`bundle.${op}`])(id, ...args);
      const readText = (...args) => run("readText", args);
      const readJson = (entry) => promiseThen(readText(entry), (text) => JSONParse(text));
      if (readerKind === "unavailable") return ObjectFreeze({ __proto__: null, readText, readJson });
      return ObjectFreeze({
        __proto__: null,
        readText,
        readBytes: (...args) => run("readBytes", args),
        getExtractedDir: (...args) => run("getExtractedDir", args),
        list: (...args) => run("list", args),
        readJson,
      });
    }

    // The context's functions hold its id, not the context: a function the
    // context holds that held the context back would make a cycle, which only
    // the engine's cycle collector frees, so every call's context (a copy of
    // its result) would stay in the heap until the next collection.
    function makeResultContext(callId, id, context, reader) {
      const resolveArtifact = (options) => member(callId, INTERNAL["result.resolveArtifact"])(id, options);
      put(context, "bundleReader", reader);
      put(context, "resolveArtifact", resolveArtifact);
      put(context, "readArtifactText", resolveArtifact);
      put(context, "resolveArtifactBytes", (options) => member(callId, INTERNAL["result.resolveArtifactBytes"])(id, options));
      return context;
    }

    // `productStorage` of an applyResult argument: one member, as on the
    // reference host; its failures are plain errors.
    function makeProductStorage(callId, id) {
      const register = member(callId, INTERNAL["productStorage.registerProduct"]);
      return ObjectFreeze({ __proto__: null, registerProduct: (input) => register(id, input) });
    }

    function getAt(root, path) {
      let node = root;
      for (let i = 0; i < path.length; i++) node = node[path[i]];
      return node;
    }

    // The objects holding the current call's deferred members, each in a
    // cell its accessor reads it from. The accessor is held by the object, so
    // holding the object directly would make a cycle that keeps the whole
    // argument in the heap until the engine's next cycle collection; `finish`
    // empties the cells instead.
    let deferredCells = [];

    // A large argument member stays on the host until the hook reads it: the
    // first read fetches and parses it (frozen when the contract says so) and
    // turns the accessor into a plain data property.
    function defer(callId, arg, item) {
      const path = item.path;
      let parent = arg;
      let name = "";
      for (let i = 0; i < path.length - 1; i++) {
        parent = parent[path[i]];
        name += `${path[i]}.`;
      }
      const key = path[path.length - 1];
      name += key;
      let fetched = false;
      let kept;
      const cell = { __proto__: null, parent };
      put(deferredCells, deferredCells.length, cell);
      // Becomes a plain data property, unless the hook froze or sealed the
      // object meanwhile, or the call has ended: then the accessor keeps
      // answering with the value.
      const settle = (value, writable) => {
        if (cell.parent === null) return value;
        try {
          ObjectDefineProperty(cell.parent, key, { __proto__: null, value, writable, enumerable: true, configurable: true });
        } catch {}
        return value;
      };
      ObjectDefineProperty(parent, key, {
        __proto__: null,
        enumerable: true,
        configurable: true,
        get() {
          if (fetched) return kept;
          if (activeCall !== callId) {
            throw new ErrorCtor(`${name} was handed to an earlier hook call and is no longer available: read it during the call that received it`);
          }
          const value = hostCall("deferred.take", [item.id]);
          kept = item.freeze ? deepFreeze(value) : value;
          fetched = true;
          return settle(kept, !item.freeze);
        },
        set(value) {
          fetched = true;
          kept = value;
          settle(value, true);
        },
      });
    }

    // A call's live description made ready for `animate`, once for every call
    // that has the same one: the host's specs, read by own property only (a
    // hook may have put getters on `Object.prototype` for the options a spec
    // leaves out).
    function prepare(live) {
      const items = [];
      for (let i = 0; i < live.length; i++) put(items, i, ObjectFreeze(ownCopy(live[i])));
      return ObjectFreeze(items);
    }

    // Turns a hook argument's plain JSON into the live objects the contract
    // promises. `live` lists {path, kind, ...spec} (`prepare`). Aliases are
    // made last, when any deferred member they point into is in place.
    function animate(arg, live) {
      callCounter += 1;
      activeCall = callCounter;
      const callId = activeCall;
      let aliases;
      for (let i = 0; i < live.length; i++) {
        const item = live[i];
        switch (item.kind) {
          case "runtime": {
            const runtime = makeRuntime(callId, item, getAt(arg, item.path));
            setAt(arg, item.path, runtime);
            currentRuntime = runtime;
            break;
          }
          case "resultContext": {
            // The argument holds the context's id where its reader goes.
            const id = getAt(arg, item.reader);
            const reader = makeBundleReader(callId, id, item.readerKind);
            setAt(arg, item.reader, reader);
            makeResultContext(callId, id, getAt(arg, item.path), reader);
            break;
          }
          case "productStorage":
            setAt(arg, item.path, makeProductStorage(callId, getAt(arg, item.path)));
            break;
          case "frozen":
            deepFreeze(getAt(arg, item.path));
            break;
          case "deferred":
            defer(callId, arg, item);
            break;
          case "alias":
            if (aliases === undefined) aliases = [];
            put(aliases, aliases.length, item);
            break;
          default:
            throw new ErrorCtor(`unknown live value kind ${item.kind}`);
        }
      }
      if (aliases !== undefined) {
        for (let i = 0; i < aliases.length; i++) setAt(arg, aliases[i].path, getAt(arg, aliases[i].target));
      }
      return arg;
    }

    function finish() {
      activeCall = 0;
      for (let i = 0; i < deferredCells.length; i++) deferredCells[i].parent = null;
      deferredCells = [];
    }

    return ObjectFreeze({ prepare, animate, finish, btoa, atob });
  };
})
