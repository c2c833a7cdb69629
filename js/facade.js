// The objects hooks receive besides plain data: the `runtime` object with its
// Host API facade, bundle readers and result contexts. Evaluated with the
// prelude, before any hook module; its completion value is a factory the
// prelude's `configure` calls with its internals.
//
// Every member answers through `hostCall`, which the Rust host bridge serves.
// Calls made after the hook returned are refused (`canceled`), like the
// reference host's per-call cancellation signal.
(function hookrunFacade() {
  "use strict";

  const ObjectCreate = Object.create;
  const ObjectFreeze = Object.freeze;
  const ObjectKeys = Object.keys;
  const ObjectIsFrozen = Object.isFrozen;
  const ObjectDefineProperty = Object.defineProperty;
  const ArrayIsArray = Array.isArray;
  const JSONParse = JSON.parse;
  const PromiseCtor = Promise;
  const Uint8ArrayCtor = Uint8Array;
  const StringFromCharCode = String.fromCharCode;
  const ErrorCtor = Error;

  // A prototype-less copy of `source`'s own enumerable properties.
  function ownCopy(source) {
    const copy = ObjectCreate(null);
    const keys = ObjectKeys(source);
    for (let i = 0; i < keys.length; i++) copy[keys[i]] = source[keys[i]];
    return copy;
  }

  // Host API members a sandboxed hook may call, by namespace (contract 03 §8).
  const HOST_MEMBERS = {
    library: ["getItemDetail", "getItemAttachments", "getItemNotes", "getNoteDetail"],
    metadata: ["translateIdentifier"],
    file: [
      "readText", "readBytes", "exists", "stat", "list",
      "writeText", "makeDirectory", "copy", "move", "remove",
    ],
    notes: ["create", "updateContent", "remove", "upsertPayload"],
    managedNotes: ["writeCustom", "writeConversation"],
    literatureArtifacts: [
      "applyAnalysis", "upsertDigest", "upsertReferences",
      "upsertCitationAnalysis", "upsertScore",
    ],
    attachments: ["create", "replaceFile", "updateMetadata", "move", "remove"],
    statusTags: ["transition"],
    mutations: ["preview", "execute", "getOperation"],
    context: ["getSelectedItems"],
  };

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

  function deepFreeze(value) {
    if (value === null || typeof value !== "object" || ObjectIsFrozen(value)) return value;
    ObjectFreeze(value);
    const keys = ObjectKeys(value);
    for (let i = 0; i < keys.length; i++) deepFreeze(value[keys[i]]);
    return value;
  }

  // `__zsHostApi` and `__zsHostApiVersion`: the Host API of the current call, for
  // libraries that are not handed `runtime`. Accessors defined once, so a hook that
  // freezes the global or pollutes prototypes does not break later calls.
  let currentHostApi;
  function defineHostApiGlobals() {
    let versionOverride;
    let apiOverride;
    ObjectDefineProperty(globalThis, "__zsHostApi", {
      __proto__: null,
      get: () => (apiOverride === undefined ? currentHostApi : apiOverride),
      set: (value) => { apiOverride = value; },
      enumerable: false,
      configurable: false,
    });
    ObjectDefineProperty(globalThis, "__zsHostApiVersion", {
      __proto__: null,
      get: () => (versionOverride === undefined ? (currentHostApi === undefined ? undefined : 12) : versionOverride),
      set: (value) => { versionOverride = value; },
      enumerable: false,
      configurable: false,
    });
  }

  // `hostCall` answers host members; `put` (defines an own property without running
  // setters a hook put on the prototype chain) and `promiseThen` (the captured
  // `Promise.prototype.then`) are the prelude's.
  return function facade(hostCall, { put, promiseThen }) {
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

    function member(callId, name) {
      return function hostMember(...args) {
        return new PromiseCtor((resolve) => {
          if (callId !== activeCall) {
            const err = new ErrorCtor(`${name} was called after the hook returned`);
            put(err, "name", "WorkflowHostError");
            put(err, "code", "canceled");
            put(err, "retryable", false);
            put(err, "details", { reason: "caller_signal" });
            throw err;
          }
          resolve(revive(hostCall(name, args)));
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
    const namespaceNames = ObjectKeys(HOST_MEMBERS);

    function makeNamespace(callId, ns) {
      const group = ObjectCreate(null);
      const names = HOST_MEMBERS[ns];
      for (let j = 0; j < names.length; j++) {
        group[names[j]] = member(callId, `${ns}.${names[j]}`);
      }
      return ObjectFreeze(group);
    }

    function makeHostApi(callId, spec) {
      const api = ObjectCreate(null);
      api.version = 12;
      api.interactionMode = spec.interactionMode || "non_interactive";
      const built = ObjectCreate(null);
      for (let i = 0; i < namespaceNames.length; i++) {
        const ns = namespaceNames[i];
        ObjectDefineProperty(api, ns, {
          __proto__: null,
          enumerable: true,
          get: () => built[ns] || (built[ns] = makeNamespace(callId, ns)),
        });
      }
      return ObjectFreeze(api);
    }

    function makeRuntime(callId, spec) {
      const hostApi = makeHostApi(callId, spec);
      const runtime = ObjectCreate(null);
      runtime.hostApi = hostApi;
      runtime.hostApiVersion = 12;
      runtime.invocationMode = spec.invocationMode || "non-interactive";
      runtime.debugMode = !!spec.debugMode;
      runtime.workflowId = spec.workflowId || "";
      runtime.packageId = spec.packageId || "";
      runtime.workflowRootDir = spec.workflowRootDir || "";
      runtime.packageRootDir = spec.packageRootDir || "";
      runtime.workflowSourceKind = spec.workflowSourceKind || "";
      runtime.hookName = spec.hookName || "";
      runtime.locale = spec.locale || "en-US";
      runtime.signal = makeSignal(callId);
      runtime.fetch = null;
      runtime.Buffer = null;
      runtime.btoa = btoa;
      runtime.atob = atob;
      runtime.TextEncoder = null;
      runtime.TextDecoder = null;
      runtime.FileReader = null;
      return ObjectFreeze(runtime);
    }

    function makeBundleReader(callId, spec) {
      const reader = ObjectCreate(null);
      const call = (op) => member(callId, `bundle.${op}`);
      const bound = (op) => {
        const f = call(op);
        return (...args) => f(spec.id, ...args);
      };
      reader.readText = bound("readText");
      if (spec.readerKind !== "unavailable") {
        reader.readBytes = bound("readBytes");
        reader.getExtractedDir = bound("getExtractedDir");
        reader.list = bound("list");
      }
      const readText = reader.readText;
      reader.readJson = (entry) => promiseThen(readText(entry), (text) => JSONParse(text));
      return ObjectFreeze(reader);
    }

    function makeResultContext(callId, spec, reader) {
      const context = spec.data;
      const resolve = member(callId, "result.resolveArtifact");
      const resolveBytes = member(callId, "result.resolveArtifactBytes");
      const resolveArtifact = (options) => resolve(spec.id, options);
      put(context, "bundleReader", reader);
      put(context, "resolveArtifact", resolveArtifact);
      put(context, "readArtifactText", resolveArtifact);
      put(context, "resolveArtifactBytes", (options) => resolveBytes(spec.id, options));
      return context;
    }

    // Replaces the value at `path` inside `root` with `value`.
    function setAt(root, path, value) {
      let node = root;
      for (let i = 0; i < path.length - 1; i++) node = node[path[i]];
      put(node, path[path.length - 1], value);
    }

    function getAt(root, path) {
      let node = root;
      for (let i = 0; i < path.length; i++) node = node[path[i]];
      return node;
    }

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
      // Becomes a plain data property, unless the hook froze or sealed the
      // object meanwhile: then the accessor keeps answering with the value.
      const settle = (value, writable) => {
        try {
          ObjectDefineProperty(parent, key, { __proto__: null, value, writable, enumerable: true, configurable: true });
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

    // Turns a hook argument's plain JSON into the live objects the contract
    // promises. `live` lists {path, kind, ...spec}; readers come before the
    // result contexts that refer to them.
    function animate(arg, live) {
      callCounter += 1;
      activeCall = callCounter;
      const callId = activeCall;
      const readers = ObjectCreate(null);
      for (let i = 0; i < live.length; i++) {
        // The host's specs, read by own property only: a hook may have put getters on
        // `Object.prototype` for the options a spec leaves out.
        const item = ownCopy(live[i]);
        switch (item.kind) {
          case "runtime": {
            const runtime = makeRuntime(callId, item);
            setAt(arg, item.path, runtime);
            currentHostApi = runtime.hostApi;
            break;
          }
          case "bundleReader": {
            const reader = makeBundleReader(callId, item);
            readers[item.id] = reader;
            setAt(arg, item.path, reader);
            break;
          }
          case "resultContext":
            makeResultContext(callId, { id: item.id, data: getAt(arg, item.path) }, readers[item.reader]);
            break;
          case "frozen":
            deepFreeze(getAt(arg, item.path));
            break;
          case "deferred":
            defer(callId, arg, item);
            break;
          default:
            throw new ErrorCtor(`unknown live value kind ${item.kind}`);
        }
      }
      return arg;
    }

    function finish() {
      activeCall = 0;
    }

    return ObjectFreeze({ animate, finish, btoa, atob });
  };
})();
