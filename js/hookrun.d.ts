// Types of what hookrun passes to workflow hooks (schema v2 of the workflow
// contract). Reference them from JavaScript hooks with JSDoc, e.g.
//
//   // @ts-check
//   /** @param {import("./types/hookrun").PreflightArgs} args
//       @returns {Promise<import("./types/hookrun").PreflightOutcome>} */
//   export async function preflight(args) { … }

/** A portable item reference. */
export interface PortableItemRef {
  libraryId: number;
  key: string;
}

// ---- Selection contexts ----------------------------------------------------

/** One selected item in the canonical shape. */
export interface SelectionItemFact {
  kind: "parent" | "child" | "attachment" | "note";
  ref: PortableItemRef;
  itemType: string;
  title?: string;
  parentRef?: PortableItemRef;
  filename?: string | null;
  contentType?: string | null;
  createdAt?: string;
  fileState?: "available" | "missing" | "not_applicable";
}

/** A generated-note candidate (canonical shape). */
export interface GeneratedNoteCandidate {
  ref: PortableItemRef;
  parentRef?: PortableItemRef;
  noteKind: string;
  parentTitle?: string;
}

/** The canonical SelectionContext. */
export interface CanonicalSelectionContext {
  items: readonly SelectionItemFact[];
  sampledAt: string;
  exportCandidates?: readonly GeneratedNoteCandidate[];
  digestRepresentativeImageTarget?: GeneratedNoteCandidate;
}

/** An item of the grouped shape (the item's JSON export is in `data`). */
export interface ItemBase {
  id: number;
  key: string;
  itemType: string;
  title: string;
  libraryID: number;
  parentItemID: number | null;
  data: Record<string, unknown> | null;
}

export interface NoteLite extends ItemBase {
  note: string;
}

export interface Tag {
  tag: string;
  type?: number;
}

export interface AttachmentContext {
  item: ItemBase;
  parent: ItemBase | null;
  filePath: string | null;
  mimeType: string | null;
}

export interface ParentContext {
  item: ItemBase;
  attachments: readonly AttachmentContext[];
  notes: readonly NoteLite[];
  tags: readonly Tag[];
  collections: readonly string[];
  children: readonly ItemBase[];
}

export interface ChildContext {
  item: ItemBase;
  parent: ItemBase | null;
  attachments: readonly AttachmentContext[];
  notes: readonly NoteLite[];
  tags: readonly Tag[];
  collections: readonly string[];
}

export interface NoteContext {
  item: ItemBase;
  parent: ItemBase | null;
  tags: readonly Tag[];
  collections: readonly string[];
}

/** The grouped SelectionContext. */
export interface GroupedSelectionContext {
  selectionType: "parent" | "child" | "attachment" | "note" | "mixed" | "none";
  items: {
    parents: readonly ParentContext[];
    children: readonly ChildContext[];
    attachments: readonly AttachmentContext[];
    notes: readonly NoteContext[];
  };
  summary: { parentCount: number; childCount: number; attachmentCount: number; noteCount: number };
  warnings: readonly string[];
  sampledAt: string;
}

/** A unit's selection keeps the shape of the user's selection. */
export type SelectionContext = CanonicalSelectionContext | GroupedSelectionContext;

// ---- Host API (runtime.hostApi, version 12) ---------------------------------

export interface Page {
  limit?: number;
  cursor?: string;
}

export interface AttachmentItem {
  ref: PortableItemRef;
  parentRef?: PortableItemRef;
  title?: string;
  filename?: string;
  contentType?: string;
  createdAt?: string;
  file: { state: "available" | "missing" | "not_applicable"; path?: string };
}

export interface ItemDetail {
  kind: "regular" | "attachment" | "note" | "annotation";
  item: AttachmentItem & Record<string, unknown>;
}

/** `library.getNoteDetail`: an ordinary note's content in the asked format, or a managed note's payload. */
export type NoteDetail =
  | {
      kind: "ordinary";
      ref: PortableItemRef;
      parentRef?: PortableItemRef;
      title: string;
      format: "html" | "text";
      content: string;
      revision: string;
    }
  | {
      kind: "managed";
      noteKind?: string;
      ref: PortableItemRef;
      parentRef?: PortableItemRef;
      title: string;
      payload: unknown;
      payloadBytes: number;
      detailBytes: number;
      health: { state: "current" | "stale" };
      revision: string;
    };

export interface FileStat {
  path: string;
  kind: "file" | "directory" | "other";
  sizeBytes: number;
  modifiedAt: string;
}

export interface FileListing {
  rootPath: string;
  entries: { relativePath: string; kind: "file" | "directory" | "other"; sizeBytes: number; modifiedAt: string }[];
  totalEntries: number;
  totalFileBytes: number;
}

/** What a write resolves to; `committed` and `unchanged` mean success. */
export interface WriteOutcome<T = Record<string, unknown>> {
  outcome: "committed" | "unchanged" | string;
  result?: T;
  receipt?: { operationId: string };
  attempt?: { error?: { message: string } };
}

export interface HtmlContent {
  format: "html";
  value: string;
}

export type StatusKey =
  | "need-metadata-curation"
  | "need-fulltext"
  | "need-markdown"
  | "need-analysis"
  | "need-deep-reading";

/**
 * Host errors reject with this shape. Errors of the Zotero broker behind writes (an
 * `operationId` bound to another write: code `conflict`, `details.reason`
 * `idempotency_conflict`) are named `ZoteroHostCapabilityError`, as on the reference host.
 */
export interface WorkflowHostError extends Error {
  name: "WorkflowHostError" | "ZoteroHostCapabilityError";
  schema: "zotero-agents.workflow-host-error.v1";
  code:
    | "invalid_request"
    | "invalid_ref"
    | "not_found"
    | "unsupported_operation"
    | "interaction_required"
    | "permission_denied"
    | "resource_limited"
    | "conflict"
    | "unavailable"
    | "canceled"
    | "execution_failed";
  retryable: boolean;
  details: Record<string, unknown>;
}

export interface HostApi {
  readonly version: 12;
  readonly interactionMode: "interactive" | "non_interactive";
  library: {
    getItemDetail(ref: PortableItemRef): Promise<ItemDetail>;
    getItemAttachments(
      ref: PortableItemRef,
      page?: Page,
    ): Promise<{ attachments: AttachmentItem[]; hasMore: boolean; nextCursor?: string }>;
    getItemNotes(
      ref: PortableItemRef,
      page?: Page,
    ): Promise<{ notes: { ref: PortableItemRef; title?: string }[]; hasMore: boolean; nextCursor?: string }>;
    /** `format` is required, as on the reference host. */
    getNoteDetail(ref: PortableItemRef, options: { format: "html" | "text" }): Promise<NoteDetail>;
  };
  metadata: {
    translateIdentifier(query: { type: string; value: string }): Promise<{
      outcome: "matched" | "ambiguous" | string;
      item?: Record<string, unknown>;
      evidence?: unknown;
      reason?: string;
    }>;
  };
  file: {
    readText(path: string): Promise<string>;
    readBytes(path: string): Promise<Uint8Array>;
    exists(path: string): Promise<boolean>;
    stat(path: string): Promise<FileStat>;
    list(request: { path: string; recursive?: boolean; maxDepth?: number }): Promise<FileListing>;
    writeText(path: string, content: string): Promise<void>;
    makeDirectory(request: { path: string }): Promise<void>;
    copy(request: { sourcePath: string; targetPath: string; overwrite?: boolean }): Promise<void>;
    move(request: { sourcePath: string; targetPath: string; overwrite?: boolean }): Promise<void>;
    remove(request: { path: string; recursive?: boolean; missing?: "error" | "ignore" }): Promise<{ removed: boolean }>;
  };
  notes: {
    create(request: {
      operationId: string;
      parentRef: PortableItemRef;
      content: HtmlContent;
    }): Promise<WriteOutcome<{ note: { ref: PortableItemRef; parentRef: PortableItemRef } }>>;
    updateContent(request: {
      operationId: string;
      noteRef: PortableItemRef;
      content: HtmlContent;
    }): Promise<WriteOutcome<{ note: { ref: PortableItemRef } }>>;
    remove(request: { operationId: string } & Record<string, unknown>): Promise<WriteOutcome>;
    upsertPayload(request: { operationId: string } & Record<string, unknown>): Promise<WriteOutcome>;
  };
  managedNotes: {
    writeCustom(request: {
      operationId: string;
      target: { kind: "create"; parentRef: PortableItemRef };
      content: { title: string; markdown: string };
    }): Promise<WriteOutcome<{ note: { ref: PortableItemRef; parentRef: PortableItemRef } }>>;
    writeConversation(request: {
      operationId: string;
      target: { kind: "create"; parentRef: PortableItemRef };
    } & Record<string, unknown>): Promise<WriteOutcome>;
  };
  literatureArtifacts: {
    applyAnalysis(request: {
      operationId: string;
      parentRef: PortableItemRef;
      digest?: { markdown: string; sourceRef?: PortableItemRef; representativeImage?: { preparedImage: unknown; altText?: string } };
      score?: unknown;
      references?: unknown;
      citationAnalysis?: unknown;
      compactCitationSnippets?: boolean;
      matchingMetadata?: unknown;
    }): Promise<WriteOutcome>;
    upsertDigest(request: { operationId: string } & Record<string, unknown>): Promise<WriteOutcome>;
    upsertReferences(request: { operationId: string } & Record<string, unknown>): Promise<WriteOutcome>;
    upsertCitationAnalysis(request: { operationId: string } & Record<string, unknown>): Promise<WriteOutcome>;
    upsertScore(request: { operationId: string } & Record<string, unknown>): Promise<WriteOutcome>;
  };
  attachments: {
    create(request: {
      operationId: string;
      placement: { kind: "child"; parentRef: PortableItemRef };
      source:
        | { kind: "linked_file"; path: string }
        | { kind: "stored_file"; main: { source: unknown; targetFilename?: string }; companions?: unknown[] }
        | { kind: "linked_url"; url: string }
        | { kind: "stored_url"; url: string };
      metadata: { title: string; contentType: string } & Record<string, unknown>;
    }): Promise<WriteOutcome<{ attachment: { ref: PortableItemRef; parentRef: PortableItemRef } }>>;
    replaceFile(request: { operationId: string } & Record<string, unknown>): Promise<WriteOutcome>;
    updateMetadata(request: { operationId: string } & Record<string, unknown>): Promise<WriteOutcome>;
    move(request: { operationId: string } & Record<string, unknown>): Promise<WriteOutcome>;
    remove(request: { operationId: string } & Record<string, unknown>): Promise<WriteOutcome>;
  };
  statusTags: {
    transition(request: {
      operationId: string;
      itemRef: PortableItemRef;
      expectedRevision?: number;
      add?: StatusKey[];
      remove?: StatusKey[];
    }): Promise<WriteOutcome>;
  };
  mutations: {
    preview(request: { operationId: string } & Record<string, unknown>): Promise<WriteOutcome>;
    execute(request: { operationId: string } & Record<string, unknown>): Promise<WriteOutcome>;
    getOperation(request: Record<string, unknown>): Promise<WriteOutcome>;
  };
  context: {
    /** Rejects with `interaction_required` in non-interactive runs. */
    getSelectedItems(page?: Page): Promise<never>;
  };
}

/** The cancellation signal of one hook run; aborted once the hook returned. */
export interface HookSignal {
  readonly aborted: boolean;
  readonly reason: undefined;
  addEventListener(type: string, listener: () => void): void;
  removeEventListener(type: string, listener: () => void): void;
  throwIfAborted(): void;
}

/** The `runtime` argument of preflight, buildRequest and applyResult. */
export interface HookRuntime {
  readonly hostApi: HostApi;
  readonly hostApiVersion: 12;
  readonly invocationMode: "interactive" | "non-interactive";
  readonly debugMode: boolean;
  readonly workflowId: string;
  readonly packageId: string;
  readonly workflowRootDir: string;
  readonly packageRootDir: string;
  readonly workflowSourceKind: "official" | "dev-local" | "user" | "";
  readonly hookName: "preflight" | "buildRequest" | "applyResult";
  readonly locale: string;
  readonly signal: HookSignal;
  readonly fetch: null;
  readonly Buffer: null;
  readonly btoa: (text: string) => string;
  readonly atob: (base64: string) => string;
  readonly TextEncoder: null;
  readonly TextDecoder: null;
  readonly FileReader: null;
}

// ---- Hook arguments and results ---------------------------------------------

/** The workflow manifest as declared (workflow.json). */
export interface Manifest {
  schemaVersion: 2;
  id: string;
  label: string;
  provider: string;
  [field: string]: unknown;
}

export interface ExecutionOptions {
  workflowParams: Record<string, unknown>;
  providerOptions: Record<string, unknown>;
  runOptions?: Record<string, unknown>;
}

export interface Diagnostic {
  code: string;
  message: string;
  details?: unknown;
}

export type PreflightOutcome =
  | { kind: "continue"; context?: Record<string, unknown>; diagnostics?: Diagnostic[] }
  | { kind: "skip"; reason?: string; diagnostics?: Diagnostic[] }
  | {
      kind: "short-circuit-apply" | "short-circuit";
      apply: {
        resultJson: unknown;
        request?: unknown;
        runResult?: Record<string, unknown>;
        parent?: PortableItemRef | number | string | null;
      };
      context?: Record<string, unknown>;
      diagnostics?: Diagnostic[];
    }
  | {
      kind: "replace-units" | "expand";
      units: {
        id: string;
        order?: number;
        label?: string;
        selectionContext?: SelectionContext;
        context?: Record<string, unknown>;
      }[];
      aggregate?: { id: string; mode: "single-apply"; applyWhen: "all-succeeded"; orderBy: "unit.order" };
      context?: Record<string, unknown>;
      diagnostics?: Diagnostic[];
    };

export interface PreflightArgs {
  selectionContext: SelectionContext;
  manifest: Manifest;
  executionOptions: ExecutionOptions;
  runtime: HookRuntime;
}

/** The preflight context handed to buildRequest and applyResult. */
export interface PreflightContext {
  planId: string;
  unitId: string;
  unitOrder: number;
  context?: Record<string, unknown>;
  aggregate?: { id: string; mode: "single-apply" };
}

export interface BuildRequestArgs {
  selectionContext: SelectionContext;
  /** Present only when the workflow declares a preflight hook. */
  preflight?: PreflightContext;
  manifest: Manifest;
  executionOptions: ExecutionOptions;
  runtime: HookRuntime;
}

/** A provider request; `kind` selects its payload contract. */
export interface RequestPayload {
  kind: string;
  taskName?: string;
  targetParentRef?: PortableItemRef;
  sourceAttachmentRefs?: PortableItemRef[];
  [field: string]: unknown;
}

export type NormalizeSettingsArgs =
  | {
      phase: "persisted";
      workflowId: string;
      manifest: Manifest;
      previous: SettingsPatch;
      incoming: SettingsPatch;
      merged: SettingsPatch;
    }
  | {
      phase: "execution";
      workflowId: string;
      manifest: Manifest;
      rawWorkflowParams: Record<string, unknown>;
      normalizedWorkflowParams: Record<string, unknown>;
    };

export interface SettingsPatch {
  backendId?: string;
  workflowParams?: Record<string, unknown>;
  providerOptions?: Record<string, unknown>;
  runOptions?: Record<string, unknown>;
}

/** Result bundle reader; feature-test the optional members. */
export interface BundleReader {
  readText(entryPath: string): Promise<string>;
  readJson(entryPath: string): Promise<unknown>;
  readBytes?(entryPath: string): Promise<Uint8Array>;
  getExtractedDir?(): Promise<string>;
  list?(): Promise<string[]>;
}

export interface ArtifactRequest {
  fieldName?: string;
  rawPath?: string;
  fallbackPath?: string;
}

export interface ArtifactLocation {
  entryPath: string;
  sourceKind: "local-path" | "bundle-entry";
  sourcePath?: string;
  candidates: string[];
}

export interface AggregateChild {
  unitId: string;
  order: number;
  context: Record<string, unknown> | null;
  request: RequestPayload;
  runResult: RunResult;
  resultContext: ResultContext;
  bundleReader: BundleReader;
}

export interface ResultContext {
  resultJson?: any;
  resultJsonSource: {
    kind: "run-result" | "local-path" | "bundle-entry" | "unavailable";
    path?: string;
    entryPath?: string;
  };
  workspaceDir?: string;
  resultJsonPath?: string;
  bundleReader: BundleReader;
  preflight?: PreflightContext;
  aggregate?: { id: string; mode: "single-apply"; children: AggregateChild[] };
  warnings: Diagnostic[];
  errors: Diagnostic[];
  resolveArtifact(request: ArtifactRequest): Promise<ArtifactLocation & { text: string }>;
  readArtifactText(request: ArtifactRequest): Promise<ArtifactLocation & { text: string }>;
  resolveArtifactBytes(request: ArtifactRequest): Promise<ArtifactLocation & { bytes: Uint8Array }>;
}

export interface RunResult {
  status: "succeeded";
  requestId: string;
  fetchType: "bundle" | "result";
  resultJson?: any;
  responseJson?: any;
  [field: string]: unknown;
}

export interface ApplyResultArgs {
  /** The target parent; `null` for workflows that run without a selection. */
  parent: PortableItemRef | null;
  bundleReader: BundleReader;
  resultContext: ResultContext;
  productStorage: null;
  request: RequestPayload;
  runResult: RunResult;
  manifest: Manifest;
  runtime: HookRuntime;
  executionOptions: ExecutionOptions;
}

// ---- Globals of the sandbox --------------------------------------------------

declare global {
  /** Console output is captured into the run report with its level, up to the log limit. */
  const console: {
    log(...values: unknown[]): void;
    info(...values: unknown[]): void;
    warn(...values: unknown[]): void;
    error(...values: unknown[]): void;
    debug(...values: unknown[]): void;
    trace(...values: unknown[]): void;
  };
  /** The Host API of the current hook call, for libraries that are not handed `runtime`. */
  const __zsHostApi: HostApi | undefined;
  const __zsHostApiVersion: 12 | undefined;

  /** A WHATWG URL. `new URL(input, base?)` throws a `TypeError` for an invalid URL. */
  class URL {
    constructor(url: string | URL, base?: string | URL);
    static canParse(url: string | URL, base?: string | URL): boolean;
    static parse(url: string | URL, base?: string | URL): URL | null;
    href: string;
    readonly origin: string;
    protocol: string;
    username: string;
    password: string;
    host: string;
    hostname: string;
    port: string;
    pathname: string;
    search: string;
    /** Live: changes are written back to `search`. */
    readonly searchParams: URLSearchParams;
    hash: string;
    toString(): string;
    toJSON(): string;
  }

  /** The name-value pairs of an `application/x-www-form-urlencoded` query. */
  class URLSearchParams implements Iterable<[string, string]> {
    constructor(init?: string | Iterable<[string, string]> | Record<string, string>);
    readonly size: number;
    append(name: string, value: string): void;
    delete(name: string, value?: string): void;
    get(name: string): string | null;
    getAll(name: string): string[];
    has(name: string, value?: string): boolean;
    set(name: string, value: string): void;
    sort(): void;
    forEach(callback: (value: string, name: string, params: URLSearchParams) => void, thisArg?: unknown): void;
    entries(): IterableIterator<[string, string]>;
    keys(): IterableIterator<string>;
    values(): IterableIterator<string>;
    [Symbol.iterator](): IterableIterator<[string, string]>;
    toString(): string;
  }

  /** UTF-8 encoding. */
  class TextEncoder {
    readonly encoding: "utf-8";
    encode(input?: string): Uint8Array;
    encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
  }

  /** UTF-8 decoding (the only encoding; other labels throw a `RangeError`). */
  class TextDecoder {
    constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
    readonly encoding: "utf-8";
    readonly fatal: boolean;
    readonly ignoreBOM: boolean;
    /** With `fatal`, malformed input throws a `TypeError`; `stream` keeps an incomplete sequence for the next call. */
    decode(input?: ArrayBuffer | ArrayBufferView, options?: { stream?: boolean }): string;
  }

  /** A deep copy of structured-cloneable data; functions and symbols throw a `DataCloneError`. */
  function structuredClone<T>(value: T): T;
}
