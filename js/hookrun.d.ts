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
  parentRef: PortableItemRef | null;
  revision: string;
  title: string;
  filename: string | null;
  contentType: string | null;
  charset: string | null;
  url: string | null;
  linkMode: "stored_file" | "stored_url" | "linked_file" | "linked_url" | "embedded_image";
  role: "ordinary" | "note_image" | "note_payload";
  createdAt: string;
  file:
    | { state: "available"; path: string; sizeBytes: number; modifiedAt: null }
    | { state: "missing" }
    | { state: "not_applicable" };
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
  receipt?: {
    schema: "zotero-agents.mutation-receipt.v1";
    receiptId: string;
    operationId: string;
    operation: string;
    outcome: "committed" | "unchanged";
    committedAt: string;
    effectDigest: string;
    changes: { entity: { kind: string; ref: PortableItemRef }; effect: "created" | "updated" | "deleted" | "unchanged"; before: unknown; after: unknown }[];
  };
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

/** A host read whose shape the fixture decides (`hostAnswers`). */
export type FixtureAnswer = Promise<unknown>;

/** The paging members of a Synthesis lexical search (`limit` at most `maxResults`; 25 and 100 by default). */
export interface SearchRequest {
  query: string;
  limit?: number;
  maxResults?: number;
  cursor?: string;
}

/** One item a tag-audit run's writer appends: tags in ascending UTF-16 code-unit order. */
export interface TagAuditEntry {
  target: { libraryId: number; itemKey: string };
  auditedRevision: string;
  auditedTagDigest: string;
  auditedTags: string[];
  evaluation: { state: "compliant" } | { state: "needs_regulation"; nonCompliantTags: string[] };
}

/** One page of a paged library read. */
export interface PageInfo {
  limit: number;
  total: number | null;
  returned: number;
  hasMore: boolean;
  nextCursor: string | null;
}

/** A regular item's summary (`listItems`, `traverseItems` batches). */
export interface RegularSummary {
  ref: PortableItemRef;
  kind: "regular";
  itemType: string;
  title: string;
  parentRef: null;
  state: "active" | "trashed";
  revision: string;
  tags: string[];
  collectionRefs: PortableItemRef[];
  creators: CanonicalCreator[];
  date: string;
  year: string | null;
  publicationTitle: string;
}

export type CanonicalCreator =
  | { representation: "two_field"; creatorType: string; firstName: string; lastName: string }
  | { representation: "single_field"; creatorType: string; name: string };

/** The archive `archive.withExtractedZip` hands its callback, readable until the callback settles. */
export interface ExtractedArchive {
  readonly rootPath: string;
  readonly entries: readonly string[];
  resolvePath(name: string): string;
  readText(name: string): Promise<string>;
  readBytes(name: string): Promise<Uint8Array>;
  measureEntries(names: string[]): Promise<ArchiveMeasure>;
}

export interface ArchiveMeasure {
  files: Record<string, { sizeBytes: number; sha256: string }>;
  totalEntries: number;
  totalBytes: number;
}

export type ArchiveEntry = {
  name: string;
  content: { kind: "file"; sourcePath: string } | { kind: "text"; text: string } | { kind: "bytes"; bytes: Uint8Array };
};

/** What a picker asks the person (`file.pickDirectory`, `pickFile`, `pickFiles`). */
export interface FilePickerRequest {
  title?: string;
  initialDirectory?: string;
  /**
   * At most 32 groups, each a label and 1 to 64 extensions (`"md"`, `".md"` or
   * `"*.md"`); in an interactive run a refusal of them is thrown where the picker
   * is called, not a rejected promise.
   */
  filters?: Array<{ label: string; extensions: string[] }>;
}

/** What `editor.openSession` takes; `initialState` and `context` are bounded strict JSON. */
export interface EditorSessionInput<State = unknown, Context = unknown> {
  title?: string;
  initialState: State;
  context?: Context;
  rendererId?: string;
  renderer?: {
    render(args: { doc: unknown; root: unknown; state: State; context?: Context; host: unknown }): void;
    serialize?(args: { state: State; context?: Context }): unknown;
  };
  layout?: { width?: number; height?: number; minWidth?: number; minHeight?: number; maxWidth?: number; maxHeight?: number; padding?: number };
  labels?: { save?: string; cancel?: string };
  actions?: Array<{ id: string; label: string; noClose?: boolean; onClick?(args: unknown): void }>;
  closeActionId?: string;
  detached?: boolean;
  autoClose?: { afterMs: number; actionId: string };
}

/** How an editor session ended; `result` is bounded strict JSON. */
export type EditorSessionResult =
  | { saved: true; result: unknown; actionId: "save" }
  | { saved: false; reason: "discarded"; actionId: "discard" }
  | { saved: false; reason: "canceled"; actionId: "cancel" }
  | { saved: false; reason: "action"; result: unknown; actionId: string };

/** Host API version 12, as the reference host declares it (`js/host-api.json`). */
export interface HostApi {
  readonly version: 12;
  readonly interactionMode: "interactive" | "non_interactive";
  addon: {
    /** Synchronous. */
    getConfig(): { addonName: string; addonRef: string; addonVersion: string };
  };
  environment: {
    /** Synchronous. */
    getInfo(): { zoteroVersion: string; platform: "win32" | "darwin" | "linux" | "unknown"; locale: string };
  };
  context: {
    /** Synchronous; throws `interaction_required` in non-interactive runs. */
    getCurrentView(): unknown;
    /** Rejects with `interaction_required` in non-interactive runs. */
    getSelectedItems(page?: Page): Promise<unknown>;
  };
  library: {
    listItems(input?: {
      /** The library listed: this, else the `collectionRef`'s, else the user library. */
      libraryId?: number;
      collectionRef?: PortableItemRef;
      tag?: string;
      itemType?: string;
      /** A literal, case-insensitive criterion over key, title, date, publication, abstract, creators and tags. */
      filter?: string;
      limit?: number;
      cursor?: string;
    }): Promise<PageInfo & { items: RegularSummary[]; totalScanned: number; criteria: Record<string, unknown> }>;
    traverseItems(
      input: { scope: "top-level-regular"; pageSize?: number; maxItems?: number; maxPages?: number; filter?: string } & Record<string, unknown>,
      control: unknown,
      onBatch: (batch: { batchIndex: number; items: (RegularSummary & { tagDigest: string })[] }) => unknown,
    ): Promise<{ outcome: "completed" | "resource_limited" | "canceled"; visitedItems: number; visitedBatches: number } & Record<string, unknown>>;
    withItemSnapshot(
      request: { libraryId: number; batchSize?: number },
      control: { signal?: unknown },
      onBatch: (batch: { snapshotId: string; batchIndex: number; items: RegularSummary[] }) => unknown,
    ): Promise<{ outcome: "completed" | "canceled" } & Record<string, unknown>>;
    listCollections(input?: { libraryId?: number; limit?: number; cursor?: string }): Promise<PageInfo & { collections: unknown[] }>;
    listSavedSearches(input?: { libraryId?: number; limit?: number; cursor?: string }): Promise<PageInfo & { savedSearches: unknown[] }>;
    getItemDetail(ref: PortableItemRef): Promise<ItemDetail>;
    getItemNotes(ref: PortableItemRef, page?: Page): Promise<PageInfo & { notes: NoteSummary[] }>;
    /** `format` is required, as on the reference host. */
    getNoteDetail(ref: PortableItemRef, options: { format: "html" | "text" }): Promise<NoteDetail>;
    listNotePayloads(ref: PortableItemRef, page?: Page): Promise<PageInfo & { payloads: unknown[] }>;
    getNotePayload(ref: PortableItemRef, options: { payloadType: string }): Promise<{ summary: unknown; value: unknown }>;
    getItemAttachments(ref: PortableItemRef, page?: Page): Promise<PageInfo & { attachments: AttachmentItem[] }>;
    listAnnotations(ref: PortableItemRef, page?: Page): Promise<PageInfo & { annotations: unknown[] }>;
    exportPortableItems(refs: PortableItemRef[]): Promise<
      { schema: "zotero-agents.portable-regular-item.v1"; itemType: string; fields: Record<string, string>; creators: CanonicalCreator[]; tags: string[] }[]
    >;
    /** A lexical search over metadata, the text of text attachments and analyses; no scores, in stable order. */
    searchItems(request: {
      query: string;
      limit?: number;
      maxResults?: number;
      cursor?: string;
      libraryIds?: number[];
      itemRefs?: PortableItemRef[];
      collectionRef?: PortableItemRef;
      tag?: string;
      itemType?: string;
      sourceKinds?: ("metadata" | "fulltext" | "analysis")[];
    }): Promise<{
      results: { item: RegularSummary; matches: Record<string, unknown>[] }[];
      status: "completed" | "limited" | "unavailable";
      method: "lexical";
      coverage: Record<string, unknown>;
      issues: Record<string, unknown>[];
      nextCursor: string | null;
      hasMore: boolean;
      total: number | null;
    }>;
  };
  metadata: {
    translateIdentifier(query: { type: string; value: string }): Promise<{
      outcome: "matched" | "ambiguous" | "not_found" | string;
      item?: Record<string, unknown>;
      evidence?: unknown;
      reason?: string;
    }>;
  };
  mutations: {
    /** Takes no `operationId`. */
    preview(request: { operation: string } & Record<string, unknown>): Promise<{
      schema: "zotero-agents.mutation-preview.v1";
      operation: string;
      outcome: "would_change" | "unchanged";
      /** When the host looked, as an ISO time. */
      observedAt: string;
      /** `sha256:` digest of the operation, its input, what it observed and the plan. */
      domainPlanDigest: string;
      plan: Record<string, unknown>;
    }>;
    execute(request: { operation: string; operationId: string } & Record<string, unknown>): Promise<WriteOutcome>;
    getOperation(request: { operationId: string }): Promise<{ state: "settled"; result: WriteOutcome } | { state: "running" | "unavailable" }>;
  };
  managedNotes: {
    writeCustom(request: {
      operationId: string;
      target: { kind: "create"; parentRef: PortableItemRef } | { kind: "update"; noteRef: PortableItemRef };
      content: { title: string; markdown: string };
    }): Promise<WriteOutcome<{ note: NoteDetail }>>;
    writeConversation(request: {
      operationId: string;
      target: { kind: "create"; parentRef: PortableItemRef } | { kind: "update"; noteRef: PortableItemRef };
      content: { title: string; markdown: string };
    }): Promise<WriteOutcome<{ note: NoteDetail }>>;
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
    }): Promise<WriteOutcome<{ notes: NoteDetail[] }>>;
    upsertDigest(request: { operationId: string; parentRef: PortableItemRef; markdown: string }): Promise<WriteOutcome<{ note: NoteDetail }>>;
    upsertReferences(request: { operationId: string; parentRef: PortableItemRef; references: unknown }): Promise<WriteOutcome<{ note: NoteDetail }>>;
    upsertCitationAnalysis(request: { operationId: string; parentRef: PortableItemRef; citationAnalysis: unknown }): Promise<WriteOutcome<{ note: NoteDetail }>>;
    upsertScore(request: { operationId: string; parentRef: PortableItemRef; score: unknown }): Promise<WriteOutcome<{ note: NoteDetail }>>;
  };
  notes: {
    /** Under a parent, or top-level in a library (and its collections), as the reference host places notes. */
    create(request: {
      operationId: string;
      placement:
        | { kind: "child"; parentRef: PortableItemRef }
        | { kind: "top_level"; libraryId?: number; collectionRefs?: PortableItemRef[] };
      content: HtmlContent | { format: "text"; value: string };
      initialTags?: string[];
    }): Promise<WriteOutcome<{ note: NoteResult }>>;
    updateContent(request: {
      operationId: string;
      noteRef: PortableItemRef;
      content: HtmlContent | { format: "text"; value: string };
    }): Promise<WriteOutcome<{ note: NoteResult }>>;
    remove(request: { operationId: string; noteRef: PortableItemRef; disposition: "permanent" }): Promise<WriteOutcome<{ noteRef: PortableItemRef; outcome: "permanently_deleted" }>>;
    upsertPayload(request: {
      operationId: string;
      noteRef: PortableItemRef;
      payload: { payloadType: string; noteKind: string; schemaVersion: string; format: "json" | "markdown" | "text"; value: unknown };
    }): Promise<WriteOutcome<{ note: NoteSummary; payload: unknown; outcome: "created" | "replaced" | "unchanged" }>>;
  };
  images: {
    /** Answered from the fixture (`hostAnswers`). */
    prepareForNoteEmbedding(input: Record<string, unknown>): FixtureAnswer;
  };
  attachments: {
    create(request: {
      operationId: string;
      placement: { kind: "child"; parentRef: PortableItemRef };
      source:
        | { kind: "linked_file"; path: string }
        | { kind: "stored_file"; main: { source: { kind: "local_path"; path: string } | { kind: "resource"; resourceRef: unknown }; targetFilename?: string }; companions?: unknown[] }
        | { kind: "linked_url"; url: string }
        | { kind: "stored_url"; url: string };
      metadata?: { title?: string; contentType?: string; charset?: string } & Record<string, unknown>;
    }): Promise<WriteOutcome<{ attachment: AttachmentItem }>>;
    updateMetadata(request: {
      operationId: string;
      attachmentRef: PortableItemRef;
      patch: { title?: string | null; url?: string | null; contentType?: string | null; charset?: string | null };
    }): Promise<WriteOutcome<{ attachment: AttachmentItem }>>;
    replaceFile(request: { operationId: string; attachmentRef: PortableItemRef; source: Record<string, unknown> }): Promise<WriteOutcome<{ attachment: AttachmentItem; outcome: "replaced" | "unchanged" }>>;
    move(request: { operationId: string; attachmentRef: PortableItemRef; placement: { kind: "child"; parentRef: PortableItemRef } }): Promise<WriteOutcome<{ attachment: AttachmentItem; outcome: "moved" | "unchanged" }>>;
    remove(request: { operationId: string; attachmentRef: PortableItemRef; disposition: "permanent" }): Promise<WriteOutcome<{ attachmentRef: PortableItemRef; outcome: "permanently_deleted" }>>;
  };
  bibliography: {
    /** Answered from the fixture (`hostAnswers`). */
    listFormats(control?: unknown): FixtureAnswer;
    /** Answered from the fixture (`hostAnswers`). */
    render(input: Record<string, unknown>): FixtureAnswer;
  };
  researchBundles: {
    /** Answered from the fixture (`hostAnswers`). */
    materializePapers(input: Record<string, unknown>): FixtureAnswer;
    /** Answered from the fixture (`hostAnswers`). */
    importPapers(input: Record<string, unknown>): FixtureAnswer;
  };
  statusTags: {
    /** Synchronous; a frozen `{key: "status:key"}` map of the five built-in keys. */
    getPolicy(): Readonly<Record<StatusKey, string>>;
    transition(request: {
      operationId: string;
      itemRef: PortableItemRef;
      add?: StatusKey[];
      remove?: StatusKey[];
    }): Promise<WriteOutcome<{ itemRef: PortableItemRef; added: string[]; removed: string[]; unchanged: string[]; revision: string }>>;
  };
  file: {
    readText(path: string): Promise<string>;
    writeText(path: string, content: string): Promise<void>;
    readBytes(path: string): Promise<Uint8Array>;
    writeBytes(path: string, bytes: Uint8Array | ArrayBuffer): Promise<void>;
    copy(request: { sourcePath: string; targetPath: string; overwrite?: boolean }): Promise<void>;
    exists(path: string): Promise<boolean>;
    makeDirectory(request: { path: string; recursive?: boolean }): Promise<void>;
    materializeWorkflowInputFile(request: {
      key: string;
      fileName?: string;
      content: { kind: "text"; text: string } | { kind: "bytes"; bytes: Uint8Array };
    }): Promise<{ path: string; sizeBytes: number; sha256: string }>;
    /** Synchronous. */
    getTempDirectoryPath(): string;
    /** The chosen directory, `null` when canceled; rejects with `interaction_required` in non-interactive runs. */
    pickDirectory(request?: FilePickerRequest): Promise<string | null>;
    /** The chosen file, `null` when canceled; rejects with `interaction_required` in non-interactive runs. */
    pickFile(request?: FilePickerRequest): Promise<string | null>;
    /** The chosen target, `null` when canceled; rejects with `interaction_required` in non-interactive runs. */
    pickSaveFile(request?: FilePickerRequest & { suggestedName?: string }): Promise<string | null>;
    /** The chosen files (`[]` for an empty selection), `null` when canceled; rejects with `interaction_required` in non-interactive runs. */
    pickFiles(request?: FilePickerRequest): Promise<string[] | null>;
    stat(path: string): Promise<FileStat>;
    list(request: { path: string; recursive?: boolean; maxDepth?: number }): Promise<FileListing>;
    move(request: { sourcePath: string; targetPath: string; overwrite?: boolean }): Promise<void>;
    remove(request: { path: string; recursive?: boolean; missing?: "error" | "ignore" }): Promise<{ removed: boolean }>;
  };
  archive: {
    measureEntries(input: { entries: ArchiveEntry[] }): Promise<ArchiveMeasure>;
    writeZipAtomic(input: { targetPath: string; entries: ArchiveEntry[] }): Promise<ArchiveMeasure & { targetPath: string }>;
    withExtractedZip<T>(input: { sourcePath: string }, control: unknown, callback: (archive: ExtractedArchive) => T | Promise<T>): Promise<T>;
  };
  resources: {
    /** Synchronous; `null` unless the fixture answers it. */
    getInput(key?: string): unknown;
    /** Synchronous; `[]` unless the fixture answers it. */
    getInputs(): unknown[];
    /** Answered from the fixture (`hostAnswers`). */
    get(input: unknown): FixtureAnswer;
    /** Answered from the fixture (`hostAnswers`). */
    materializeFile(input: unknown): FixtureAnswer;
    /** Answered from the fixture (`hostAnswers`). */
    allocateOutput(input: unknown): FixtureAnswer;
    /** Answered from the fixture (`hostAnswers`). */
    publishOutput(input: unknown): FixtureAnswer;
    /** Synchronous; `[]` unless the fixture answers it. */
    listOutputs(): unknown[];
  };
  clipboard: {
    /** The clipboard's text, `null` when it holds none; rejects with `interaction_required` in non-interactive runs. */
    readText(): Promise<string | null>;
    /** At most 16 MiB of UTF-8, checked in every run; rejects with `interaction_required` in non-interactive runs. */
    writeText(text: string): Promise<void>;
    /** Rejects with `interaction_required` in non-interactive runs. */
    hasText(): Promise<boolean>;
    /** Rejects with `interaction_required` in non-interactive runs. */
    clear(): Promise<void>;
  };
  editor: {
    /** Rejects with `interaction_required` in non-interactive runs; a `null` input rejects with a `TypeError`. */
    openSession<State = unknown, Context = unknown>(input: EditorSessionInput<State, Context>): Promise<EditorSessionResult>;
  };
  notifications: {
    /**
     * Synchronous; at most 4,096 characters and five visible toasts per hook
     * call. Throws `interaction_required` in non-interactive runs (and logs a warning).
     */
    toast(input: { text: string; type?: "default" | "success" | "error" }): void;
  };
  logging: {
    /** Synchronous; a line of the hook's log. */
    appendRuntimeLog(input: {
      level: "debug" | "info" | "warn" | "error";
      stage: string;
      message: string;
      operation?: string;
      phase?: string;
      details?: unknown;
    }): void;
  };
  /**
   * Answered from the fixture (`hostAnswers`), else `unavailable` "The Synthesis runtime is
   * unavailable" as a host without a Synthesis runtime answers. The searches' requests are
   * checked first (`invalid_request` "The Synthesis request is invalid"); `tags.withAuditRun`
   * runs its callback on the simulated host.
   */
  synthesis: {
    searchEvidence(request: SearchRequest & {
      libraryIds?: number[];
      itemRefs?: { libraryId: number; key: string }[];
      collectionRef?: { libraryId: number; key: string };
      tag?: string;
      itemType?: string;
      sourceKinds?: ("metadata" | "fulltext" | "analysis")[];
    }): FixtureAnswer;
    workflowApply: {
      applyLiteratureDigest(input: unknown): FixtureAnswer;
      applyTopicPlan(input: unknown): FixtureAnswer;
      applyTopicSynthesisResult(input: unknown): FixtureAnswer;
    };
    topics: {
      getReport(input: unknown): FixtureAnswer;
      search(request: SearchRequest & { sections?: string[] }): FixtureAnswer;
      getContext(input: unknown): FixtureAnswer;
    };
    artifacts: {
      readPaperArtifacts(input: unknown): FixtureAnswer;
    };
    tags: {
      loadVocabulary(input?: unknown): FixtureAnswer;
      saveVocabulary(input: unknown): FixtureAnswer;
      exportVocabularyForRegulator(input?: unknown): FixtureAnswer;
      listStagedSuggestions(input?: unknown): FixtureAnswer;
      stageSuggestions(input: unknown): FixtureAnswer;
      promoteStagedSuggestions(input: unknown): FixtureAnswer;
      discardStagedSuggestions(input: unknown): FixtureAnswer;
      /**
       * Runs `callback` with a writer whose appends are checked and recorded; the run settles
       * from the `library.traverseItems` result the callback returns: `published` for one
       * whole, unfiltered traversal whose every item was appended (the fixture's answer, else
       * a snapshot of the appends), `conflicted` otherwise, or `canceled` / `resource_limited`
       * as the traversal ended. A fixture error fails the run before the callback runs.
       */
      withAuditRun(
        input: { libraryId: number; vocabularyHash: string },
        control: { signal?: unknown },
        callback: (run: { append(entries: TagAuditEntry[]): Promise<void> }) => unknown,
      ): Promise<
        | { outcome: "published"; snapshot: Record<string, unknown> & { auditedItems: number; needsRegulation: number } }
        | { outcome: "canceled"; auditedItems: number }
        | { outcome: "resource_limited"; auditedItems: number; limit: "items" | "pages" | "duration" }
        | { outcome: "conflicted"; auditedItems: number; conflictCount: number; conflicts: unknown[]; retryable: true }
      >;
      acknowledgeRegulation(input: unknown): FixtureAnswer;
    };
  };
}

/** A note as `notes.create` and `notes.updateContent` answer it. */
export interface NoteResult {
  id?: number;
  key: string;
  libraryId: number;
  title: string;
  html: string;
  text: string;
  textExcerpt: string;
  textLength: number;
  htmlLength: number;
  parent?: { key: string };
  ref: PortableItemRef;
  revision: string;
}

/** A note's summary (`getItemNotes`, note details). */
export interface NoteSummary {
  ref: PortableItemRef;
  parentRef: PortableItemRef | null;
  title: string;
  textExcerpt: string;
  textLength: number;
  htmlLength: number;
  revision: string;
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
  /** The object `runResult.resultJson` holds (a Skill-Runner envelope's `data`), or parsed from its text. */
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

/** Where a product asset's content comes from. */
export type ProductAssetSource =
  /** A result artifact, found as `resultContext.resolveArtifactBytes` finds it. */
  | { kind: "result-artifact"; rawPath?: unknown; fallbackPath?: string }
  /** A file the run can read (`file.readBytes`), by path or `file://` URL. */
  | { kind: "local-file"; path: string }
  /** Text, stored as UTF-8. */
  | { kind: "inline-text"; text: string };

export interface ProductAssetInput {
  /** Sanitised to `[A-Za-z0-9._:-]`; defaults to `label`, then `productAssetPath`, then `"product"`. */
  assetId?: string;
  label?: string;
  /** The asset's managed relative path (segments of `[A-Za-z0-9._-]`, at most 96 characters each, 220 in all). */
  productAssetPath?: string;
  contentType?: string;
  /** Defaults to a result artifact from `rawPath`/`fallbackPath`. */
  source?: ProductAssetSource;
  rawPath?: unknown;
  fallbackPath?: string;
}

export interface RegisterProductInput {
  /** The product id is `<requestId>:<productKey>`; defaults to `kind`, then `"default"`. */
  productKey?: string;
  kind: string;
  title: string;
  assets: ProductAssetInput[];
  /** Kept as a shallow copy when a plain object. */
  metadata?: Record<string, unknown>;
  /**
   * `"atomic"`: an asset whose content cannot be resolved fails the registration;
   * otherwise it is recorded as missing, with the reason.
   */
  failurePolicy?: "record-missing" | "atomic";
}

export interface ProductRegistrationReceipt {
  productId: string;
  assetCount: number;
  availableAssetCount: number;
  missingAssetCount: number;
}

/**
 * The product storage of an `applyResult` call. Failures are plain `Error`s
 * (path rule failures a `ManagedPathPolicyError`), some with a `code`.
 */
export interface ProductStorage {
  registerProduct(input: RegisterProductInput): Promise<ProductRegistrationReceipt>;
}

export interface ApplyResultArgs {
  /** The target parent; `null` for workflows that run without a selection. */
  parent: PortableItemRef | null;
  bundleReader: BundleReader;
  resultContext: ResultContext;
  productStorage: ProductStorage;
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
