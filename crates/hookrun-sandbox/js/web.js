// Web-platform globals for hooks: URL and URLSearchParams (WHATWG URL), TextEncoder
// and TextDecoder (WHATWG Encoding, UTF-8), structuredClone, btoa and atob (HTML). The parsing,
// serialising and decoding are the `url`, `form_urlencoded` and `encoding_rs` crates
// behind ops; this file only gives them the standard shapes. Its completion value is
// the installer the prelude's `configure` calls with those ops.
(function () {
  "use strict";
  const ObjectDefineProperty = Object.defineProperty;
  const ObjectFreeze = Object.freeze;
  const JSONParse = JSON.parse;
  const JSONStringify = JSON.stringify;
  const StringCtor = String;
  const TypeErrorCtor = TypeError;
  const RangeErrorCtor = RangeError;
  const ErrorCtor = Error;
  const Uint8ArrayCtor = Uint8Array;
  const ArrayBufferCtor = ArrayBuffer;
  const ArrayBufferIsView = ArrayBuffer.isView;
  const SymbolIterator = Symbol.iterator;
  const SymbolToStringTag = Symbol.toStringTag;
  const StringPrototypeToWellFormed = String.prototype.toWellFormed;
  const ArrayPrototypeJoin = Array.prototype.join;
  const StringFromCharCode = String.fromCharCode;
  const StringPrototypeCharCodeAt = String.prototype.charCodeAt;

  // The base64 alphabet, and each character's value by its code (-1: none).
  const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  const BASE64_VALUE = new Int16Array(128).fill(-1);
  for (let i = 0; i < 64; i++) BASE64_VALUE[StringPrototypeCharCodeAt.call(BASE64, i)] = i;

  // The longest URL parsed, in UTF-16 code units (Firefox's default
  // `network.standard-url.max-length`): parsing a URL and splitting it into its
  // parts is native work no interrupt reaches, so its size is bounded here.
  const MAX_URL_LENGTH = 1024 * 1024;

  const PARTS = ["href", "origin", "protocol", "username", "password", "host",
    "hostname", "port", "pathname", "search", "hash"];

  return function installWeb(global, ops) {
    const { urlParse, urlSet, formParse, formSerialize, utf8Encode, encodingName, textDecode,
      utf8Tail, structuredClone: clone } = ops;

    // Defines `value` on `target` the way the web does: writable, configurable, not
    // enumerable.
    const define = (target, name, value) =>
      ObjectDefineProperty(target, name, { __proto__: null, value, writable: true, configurable: true, enumerable: false });

    // A USVString: lone surrogates become U+FFFD, as Web IDL converts them.
    const toUSV = (value) => StringPrototypeToWellFormed.call(StringCtor(value));

    // Form data is parsed and serialised natively, beyond the interrupt's reach:
    // a query to parse, and each name-value pair, are bounded as URLs are, and a
    // list is serialised in pieces of about that size, the timeout free to end
    // the call between them.
    const tooLong = (text) => text.length > MAX_URL_LENGTH;
    const formText = (value, what) => {
      const text = toUSV(value);
      if (tooLong(text)) {
        throw new TypeErrorCtor(`URLSearchParams: ${what} longer than ${MAX_URL_LENGTH} characters`);
      }
      return text;
    };
    const formPair = (name, value) => [formText(name, "a name"), formText(value, "a value")];

    // The name-value pairs of a query, with or without its leading `?`.
    const queryPairs = (query) => {
      const text = formText(query, "a query");
      return JSONParse(formParse(text.startsWith("?") ? text.slice(1) : text));
    };

    // The query string of a list of pairs.
    const serialize = (list) => {
      let query = "";
      for (let from = 0; from < list.length; ) {
        let to = from;
        for (let size = 0; to < list.length && (to === from || size < MAX_URL_LENGTH); to++) {
          size += list[to][0].length + list[to][1].length;
        }
        const piece = formSerialize(JSONStringify(list.slice(from, to)));
        query = from === 0 ? piece : `${query}&${piece}`;
        from = to;
      }
      return query;
    };

    // ---- URLSearchParams ---------------------------------------------------
    const paramsOf = new WeakMap();
    class URLSearchParams {
      constructor(init = "") {
        const state = { list: [], url: null };
        paramsOf.set(this, state);
        if (init !== null && typeof init === "object") {
          if (typeof init[SymbolIterator] === "function") {
            for (const pair of init) {
              const items = [...pair];
              if (items.length !== 2) {
                throw new TypeErrorCtor("URLSearchParams: each pair must have exactly two items");
              }
              state.list.push(formPair(items[0], items[1]));
            }
          } else {
            for (const key of Reflect.ownKeys(init)) {
              const desc = Reflect.getOwnPropertyDescriptor(init, key);
              if (desc !== undefined && desc.enumerable && typeof key === "string") {
                state.list.push(formPair(key, init[key]));
              }
            }
          }
        } else {
          state.list = queryPairs(init);
        }
      }
      get size() { return state(this).list.length; }
      append(name, value) {
        const s = state(this);
        s.list.push(formPair(name, value));
        update(s);
      }
      delete(name, value) {
        const s = state(this);
        name = toUSV(name);
        if (value === undefined) {
          s.list = s.list.filter((p) => p[0] !== name);
        } else {
          value = toUSV(value);
          s.list = s.list.filter((p) => !(p[0] === name && p[1] === value));
        }
        update(s);
      }
      get(name) {
        name = toUSV(name);
        const found = state(this).list.find((p) => p[0] === name);
        return found === undefined ? null : found[1];
      }
      getAll(name) {
        name = toUSV(name);
        return state(this).list.filter((p) => p[0] === name).map((p) => p[1]);
      }
      has(name, value) {
        name = toUSV(name);
        const list = state(this).list;
        if (value === undefined) return list.some((p) => p[0] === name);
        value = toUSV(value);
        return list.some((p) => p[0] === name && p[1] === value);
      }
      set(name, value) {
        const s = state(this);
        [name, value] = formPair(name, value);
        const at = s.list.findIndex((p) => p[0] === name);
        if (at === -1) {
          s.list.push([name, value]);
        } else {
          s.list[at][1] = value;
          s.list = s.list.filter((p, i) => i <= at || p[0] !== name);
        }
        update(s);
      }
      sort() {
        const s = state(this);
        // Stable, by UTF-16 code units of the names.
        s.list = s.list
          .map((p, i) => [p, i])
          .sort((a, b) => (a[0][0] < b[0][0] ? -1 : a[0][0] > b[0][0] ? 1 : a[1] - b[1]))
          .map((e) => e[0]);
        update(s);
      }
      forEach(callback, thisArg) {
        if (typeof callback !== "function") throw new TypeErrorCtor("URLSearchParams.forEach: callback is not a function");
        const list = state(this).list;
        for (let i = 0; i < list.length; i++) callback.call(thisArg, list[i][1], list[i][0], this);
      }
      *entries() { for (const p of state(this).list) yield [p[0], p[1]]; }
      *keys() { for (const p of state(this).list) yield p[0]; }
      *values() { for (const p of state(this).list) yield p[1]; }
      [SymbolIterator]() { return this.entries(); }
      toString() { return serialize(state(this).list); }
    }
    define(URLSearchParams.prototype, SymbolToStringTag, "URLSearchParams");
    function state(params) {
      const s = paramsOf.get(params);
      if (s === undefined) throw new TypeErrorCtor("not a URLSearchParams");
      return s;
    }
    // A URL's own params push their changes to it.
    function update(s) {
      if (s.url !== null) {
        const u = urlOf(s.url);
        u.parts = setPart(u.parts[0], "search", serialize(s.list));
      }
    }

    // ---- URL --------------------------------------------------------------
    const urls = new WeakMap();
    function urlOf(url) {
      const u = urls.get(url);
      if (u === undefined) throw new TypeErrorCtor("not a URL");
      return u;
    }
    // An input as an error names it: whole, unless it is too long to parse.
    const shown = (text) => (tooLong(text) ? `longer than ${MAX_URL_LENGTH} characters` : text);
    const invalidUrl = (text) => new TypeErrorCtor(`Invalid URL: ${shown(text)}`);
    function parse(input, base) {
      const text = toUSV(input);
      const baseText = base === undefined ? undefined : toUSV(base);
      if (tooLong(text) || (baseText !== undefined && tooLong(baseText))) return null;
      const parts = baseText === undefined ? urlParse(text, "", false) : urlParse(text, baseText, true);
      return parts === "null" ? null : JSONParse(parts);
    }
    function setPart(href, part, value) {
      const text = toUSV(value);
      if (tooLong(text)) throw invalidUrl(text);
      const parts = urlSet(href, part, text);
      if (parts === "null") throw invalidUrl(text);
      return JSONParse(parts);
    }
    class URL {
      constructor(url, base) {
        const parts = parse(url, base);
        if (parts === null) {
          throw new TypeErrorCtor(`Invalid URL: ${shown(toUSV(url))}${base === undefined ? "" : ` (base ${shown(toUSV(base))})`}`);
        }
        const params = new URLSearchParams(parts[9]);
        paramsOf.get(params).url = this;
        urls.set(this, { parts, params });
      }
      static canParse(url, base) { return parse(url, base) !== null; }
      static parse(url, base) {
        try { return new URL(url, base); } catch { return null; }
      }
      get searchParams() { return urlOf(this).params; }
      toString() { return urlOf(this).parts[0]; }
      toJSON() { return urlOf(this).parts[0]; }
    }
    for (let i = 0; i < PARTS.length; i++) {
      const name = PARTS[i];
      const get = function () { return urlOf(this).parts[i]; };
      const accessor = { __proto__: null, get, configurable: true, enumerable: true };
      if (name !== "origin") {
        accessor.set = function (value) {
          const u = urlOf(this);
          if (name === "href") {
            const parts = parse(value);
            if (parts === null) throw invalidUrl(toUSV(value));
            u.parts = parts;
          } else {
            u.parts = setPart(u.parts[0], name, value);
          }
          if (name === "href" || name === "search") {
            paramsOf.get(u.params).list = queryPairs(u.parts[9]);
          }
        };
      }
      ObjectDefineProperty(URL.prototype, name, accessor);
    }
    define(URL.prototype, SymbolToStringTag, "URL");

    // ---- TextEncoder / TextDecoder ------------------------------------------
    // `text` as UTF-8, converted natively a piece at a time (never splitting a
    // surrogate pair), the timeout free to end the call between pieces.
    const ENCODE_PIECE = 1 << 20;
    const utf8 = (text) => {
      if (text.length <= ENCODE_PIECE) return utf8Encode(text);
      const pieces = [];
      let total = 0;
      for (let at = 0; at < text.length; ) {
        let end = at + ENCODE_PIECE < text.length ? at + ENCODE_PIECE : text.length;
        const last = text.charCodeAt(end - 1);
        if (end < text.length && last >= 0xD800 && last <= 0xDBFF) end -= 1;
        const bytes = utf8Encode(text.slice(at, end));
        pieces[pieces.length] = bytes;
        total += bytes.length;
        at = end;
      }
      const out = new Uint8ArrayCtor(total);
      for (let i = 0, offset = 0; i < pieces.length; offset += pieces[i].length, i++) {
        out.set(pieces[i], offset);
      }
      return out;
    };

    class TextEncoder {
      get encoding() { return "utf-8"; }
      encode(input = "") { return utf8(toUSV(input)); }
      encodeInto(source, destination) {
        if (!(destination instanceof Uint8ArrayCtor)) throw new TypeErrorCtor("TextEncoder.encodeInto: destination is not a Uint8Array");
        source = toUSV(source);
        let read = 0;
        let written = 0;
        const room = destination.length;
        for (const ch of source) {
          const code = ch.codePointAt(0);
          const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
          if (written + size > room) break;
          written += size;
          read += ch.length;
        }
        destination.set(utf8(source.slice(0, read)));
        return { read, written };
      }
    }
    define(TextEncoder.prototype, SymbolToStringTag, "TextEncoder");

    const MULTI_BYTE = ["utf-16le", "utf-16be", "gbk", "gb18030", "big5", "euc-jp", "iso-2022-jp", "shift_jis", "euc-kr"];
    const bytesOf = (input) => {
      if (input === undefined) return new Uint8ArrayCtor(0);
      if (input instanceof ArrayBufferCtor) return new Uint8ArrayCtor(input);
      if (ArrayBufferIsView(input)) return new Uint8ArrayCtor(input.buffer, input.byteOffset, input.byteLength);
      throw new TypeErrorCtor("TextDecoder.decode: input is not an ArrayBuffer or a view of one");
    };
    // Decodes `bytes` natively a piece at a time where pieces are independent
    // (UTF-8 cut before an incomplete last sequence, UTF-16 before a lone high
    // surrogate, single-byte encodings anywhere), the timeout free to end the
    // call between pieces; the stateful multi-byte encodings in one call, which
    // watches the clock itself.
    const DECODE_PIECE = 1 << 20;
    const decodePieces = (bytes, name, fatal, stripBom) => {
      const utf16 = name === "utf-16le" || name === "utf-16be";
      if (bytes.length <= DECODE_PIECE || (!utf16 && MULTI_BYTE.includes(name))) {
        return textDecode(bytes, name, fatal, stripBom);
      }
      const texts = [];
      for (let at = 0; at < bytes.length; ) {
        let end = at + DECODE_PIECE < bytes.length ? at + DECODE_PIECE : bytes.length;
        if (end < bytes.length) {
          if (name === "utf-8") {
            end -= utf8Tail(bytes.subarray(at, end));
          } else if (utf16) {
            const high = name === "utf-16le" ? bytes[end - 1] : bytes[end - 2];
            if (high >= 0xD8 && high <= 0xDB) end -= 2;
          }
        }
        texts[texts.length] = textDecode(bytes.subarray(at, end), name, fatal, stripBom && at === 0);
        at = end;
      }
      return ArrayPrototypeJoin.call(texts, "");
    };
    const decoders = new WeakMap();
    class TextDecoder {
      constructor(label = "utf-8", options = {}) {
        // The Encoding Standard's labels, through encoding_rs.
        const name = encodingName(toUSV(label).toLowerCase());
        if (name === "") {
          throw new RangeErrorCtor(`TextDecoder: the encoding ${toUSV(label)} is not supported`);
        }
        const fatal = Boolean(options !== null && typeof options === "object" && options.fatal);
        const ignoreBOM = Boolean(options !== null && typeof options === "object" && options.ignoreBOM);
        decoders.set(this, { name, fatal, ignoreBOM, pending: new Uint8ArrayCtor(0), atStart: true });
      }
      get encoding() { return decoder(this).name; }
      get fatal() { return decoder(this).fatal; }
      get ignoreBOM() { return decoder(this).ignoreBOM; }
      decode(input, options = {}) {
        const d = decoder(this);
        const stream = Boolean(options !== null && typeof options === "object" && options.stream);
        let bytes = bytesOf(input);
        if (d.pending.length > 0) {
          const joined = new Uint8ArrayCtor(d.pending.length + bytes.length);
          joined.set(d.pending, 0);
          joined.set(bytes, d.pending.length);
          bytes = joined;
        }
        d.pending = new Uint8ArrayCtor(0);
        if (stream) {
          // A UTF-8 stream keeps only an incomplete last sequence for the next
          // chunk; other multi-byte encodings keep their bytes until the stream ends.
          const single = d.name !== "utf-8" && !MULTI_BYTE.includes(d.name);
          const tail = d.name === "utf-8" ? utf8Tail(bytes) : single ? 0 : bytes.length;
          if (tail > 0) {
            d.pending = bytes.slice(bytes.length - tail);
            bytes = bytes.subarray(0, bytes.length - tail);
          }
        }
        const stripBom = !d.ignoreBOM && d.atStart;
        if (bytes.length > 0) d.atStart = false;
        let text;
        try {
          text = decodePieces(bytes, d.name, d.fatal, stripBom);
        } catch (e) {
          d.atStart = true;
          throw new TypeErrorCtor(`TextDecoder.decode: ${e && e.message}`);
        }
        if (!stream) d.atStart = true;
        return text;
      }
    }
    define(TextDecoder.prototype, SymbolToStringTag, "TextDecoder");
    function decoder(d) {
      const s = decoders.get(d);
      if (s === undefined) throw new TypeErrorCtor("not a TextDecoder");
      return s;
    }

    // ---- structuredClone ----------------------------------------------------
    function structuredClone(value, options) {
      if (options !== undefined && options !== null && options.transfer !== undefined && options.transfer.length > 0) {
        throw new TypeErrorCtor("structuredClone: transferring is not supported");
      }
      try {
        return clone(value);
      } catch (e) {
        const error = new ErrorCtor(`structuredClone: ${e && e.message}`);
        define(error, "name", "DataCloneError");
        throw error;
      }
    }

    // ---- btoa / atob (HTML's forgiving base64) -----------------------------
    const invalidCharacter = (message) => {
      const error = new ErrorCtor(message);
      define(error, "name", "InvalidCharacterError");
      return error;
    };
    // Joins the pieces of a long result a chunk at a time.
    const joined = (pieces) => ArrayPrototypeJoin.call(pieces, "");

    function btoa(data) {
      if (arguments.length < 1) throw new TypeErrorCtor("btoa: 1 argument required, but only 0 present");
      const text = StringCtor(data);
      const pieces = [];
      for (let i = 0; i < text.length; i += 3) {
        const a = StringPrototypeCharCodeAt.call(text, i);
        const b = i + 1 < text.length ? StringPrototypeCharCodeAt.call(text, i + 1) : 0;
        const c = i + 2 < text.length ? StringPrototypeCharCodeAt.call(text, i + 2) : 0;
        if (a > 0xff || b > 0xff || c > 0xff) {
          throw invalidCharacter("btoa: the string contains characters outside of the Latin1 range");
        }
        const n = (a << 16) | (b << 8) | c;
        pieces.push(BASE64[n >> 18], BASE64[(n >> 12) & 63],
          i + 1 < text.length ? BASE64[(n >> 6) & 63] : "=",
          i + 2 < text.length ? BASE64[n & 63] : "=");
      }
      return joined(pieces);
    }

    function atob(data) {
      if (arguments.length < 1) throw new TypeErrorCtor("atob: 1 argument required, but only 0 present");
      const text = StringCtor(data);
      const values = [];
      for (let i = 0; i < text.length; i++) {
        const code = StringPrototypeCharCodeAt.call(text, i);
        // ASCII white space is skipped.
        if (code === 0x09 || code === 0x0a || code === 0x0c || code === 0x0d || code === 0x20) continue;
        values.push(code);
      }
      if (values.length % 4 === 0 && values.length > 0 && values[values.length - 1] === 0x3d) {
        values.length -= values[values.length - 2] === 0x3d ? 2 : 1;
      }
      if (values.length % 4 === 1) throw invalidCharacter("atob: the string to be decoded is not correctly encoded");
      const pieces = [];
      let buffer = 0;
      let bits = 0;
      for (let i = 0; i < values.length; i++) {
        const value = values[i] < 128 ? BASE64_VALUE[values[i]] : -1;
        if (value < 0) throw invalidCharacter("atob: the string to be decoded is not correctly encoded");
        buffer = (buffer << 6) | value;
        bits += 6;
        if (bits >= 8) {
          bits -= 8;
          pieces.push(StringFromCharCode((buffer >> bits) & 0xff));
        }
      }
      return joined(pieces);
    }

    for (const [name, value] of [["URL", URL], ["URLSearchParams", URLSearchParams],
      ["TextEncoder", TextEncoder], ["TextDecoder", TextDecoder], ["structuredClone", structuredClone],
      ["btoa", btoa], ["atob", atob]]) {
      define(global, name, value);
    }
    ObjectFreeze(PARTS);
  };
})();
