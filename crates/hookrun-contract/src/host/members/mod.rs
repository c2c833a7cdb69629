//! The Host API, declared once: every member's name, how it is answered, the
//! type its request must fit and its handler, in one table.
//!
//! [`Member`] is the table's enum. A call names its member as text only at the
//! edge ([`Member::parse`]); from there on the member is this enum, and
//! [`HookHost`] hands it to `dispatch`, which reads the request with the
//! member's [`Request`] type (refusing it before any handler runs) and calls the
//! member's handler. The `match` the table expands to has an arm per member, so a
//! member declared without a handler does not compile.
//!
//! What the JS facade needs besides (synchronous members, callbacks, bytes,
//! frozen answers, error names) is declared in `js/host-api.json`, which the
//! build hands to the facade; a test checks that it declares exactly this
//! table's members, in this order, answered the same way, and so do
//! `js/hookrun.d.ts` and the member table of `docs/host-api.md`.
//!
//! Adding a member: a line here (name, variant, answer, request type, handler),
//! its line in `js/host-api.json`, its type in `js/hookrun.d.ts` and its row in
//! `docs/host-api.md`; the tests name whichever is missing.

pub mod files;
mod identifier;
pub mod request;
pub mod search;
pub mod synthesis;

use serde_json::Value;

use files::{FileRead, FileWrite};
pub(crate) use identifier::strip_any;
pub use request::Request;
use request::{
    Canonical, Checked, Identifier, ItemRead, NoteDetail, NotePayload, Open, OperationLookup,
};
use search::SearchRequest;
use synthesis::{AuditRun, SynthesisSearch};

use crate::host::HostError;
use crate::host::api::{Answer, Declaration, host_api};
use crate::host::session::HookHost;

/// A member's handler: the host, the member, the call's arguments and its
/// request as its type read it.
type Handler<R> = fn(&mut HookHost, Member, Value, R) -> Result<Value, HostError>;

macro_rules! members {
    ($( $name:literal => $variant:ident: $answer:ident, $request:ty, $handler:expr; )*) => {
        /// A member of the Host API (version 12), as the table declares it.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
        #[non_exhaustive]
        pub enum Member {
            $(
                #[doc = concat!("`", $name, "`")]
                $variant,
            )*
        }

        impl Member {
            /// Every member, in declaration order.
            pub const ALL: &'static [Member] = &[$(Member::$variant),*];

            /// The member's path, `namespace.member` (or `synthesis.tags.member`).
            pub fn name(self) -> &'static str {
                match self {
                    $(Member::$variant => $name,)*
                }
            }

            /// The member at `path`, if the table declares one.
            pub fn parse(path: &str) -> Option<Member> {
                match path {
                    $($name => Some(Member::$variant),)*
                    _ => None,
                }
            }

            /// How the member is answered.
            pub fn answer(self) -> Answer {
                match self {
                    $(Member::$variant => Answer::$answer,)*
                }
            }

            /// Whether the member's request type takes any arguments (see
            /// [`Request::OPEN`]).
            pub fn takes_any_request(self) -> bool {
                match self {
                    $(Member::$variant => <$request as Request>::OPEN,)*
                }
            }

            /// Reads `args` as the member's request, without answering it: `Err` is
            /// the refusal a call with them gets.
            pub fn check(self, args: &Value) -> Result<(), HostError> {
                match self {
                    $(Member::$variant => <$request as Request>::decode(self, args).map(drop),)*
                }
            }
        }

        /// Answers a call of `member`: its request read by the member's type, then
        /// its handler.
        pub(crate) fn dispatch(host: &mut HookHost, member: Member, args: Value) -> Result<Value, HostError> {
            match member {
                $(Member::$variant => {
                    let request = <$request as Request>::decode(member, &args)?;
                    let handler: Handler<$request> = $handler;
                    handler(host, member, args, request)
                })*
            }
        }
    };
}

members! {
    "addon.getConfig" => AddonGetConfig: Host, Open, HookHost::service;
    "environment.getInfo" => EnvironmentGetInfo: Host, Open, HookHost::service;
    "context.getCurrentView" => ContextGetCurrentView: Person, Open, HookHost::person;
    "context.getSelectedItems" => ContextGetSelectedItems: Person, Open, HookHost::person;
    "library.listItems" => LibraryListItems: Host, Checked, HookHost::library_query;
    "library.traverseItems" => LibraryTraverseItems: Host, Checked, HookHost::library_query;
    "library.withItemSnapshot" => LibraryWithItemSnapshot: Host, Checked, HookHost::library_query;
    "library.listCollections" => LibraryListCollections: Host, Checked, HookHost::library_query;
    "library.listSavedSearches" => LibraryListSavedSearches: Host, Checked, HookHost::library_query;
    "library.getItemDetail" => LibraryGetItemDetail: Host, ItemRead, HookHost::item_read;
    "library.getItemNotes" => LibraryGetItemNotes: Host, ItemRead, HookHost::item_read;
    "library.getNoteDetail" => LibraryGetNoteDetail: Host, NoteDetail, HookHost::note_detail;
    "library.listNotePayloads" => LibraryListNotePayloads: Host, ItemRead, HookHost::item_read;
    "library.getNotePayload" => LibraryGetNotePayload: Host, NotePayload, HookHost::note_payload;
    "library.getItemAttachments" => LibraryGetItemAttachments: Host, ItemRead, HookHost::item_read;
    "library.listAnnotations" => LibraryListAnnotations: Host, ItemRead, HookHost::item_read;
    "library.exportPortableItems" => LibraryExportPortableItems: Host, Checked, HookHost::library_query;
    "library.searchItems" => LibrarySearchItems: Host, SearchRequest, HookHost::search_items;
    "metadata.translateIdentifier" => MetadataTranslateIdentifier: Host, Identifier, HookHost::translate_identifier;
    "mutations.preview" => MutationsPreview: Host, Canonical, HookHost::preview;
    "mutations.execute" => MutationsExecute: Write, Canonical, HookHost::library_write;
    "mutations.getOperation" => MutationsGetOperation: Host, OperationLookup, HookHost::operation;
    "managedNotes.writeCustom" => ManagedNotesWriteCustom: Write, Canonical, HookHost::library_write;
    "managedNotes.writeConversation" => ManagedNotesWriteConversation: Write, Canonical, HookHost::library_write;
    "literatureArtifacts.applyAnalysis" => LiteratureArtifactsApplyAnalysis: Write, Canonical, HookHost::library_write;
    "literatureArtifacts.upsertDigest" => LiteratureArtifactsUpsertDigest: Write, Canonical, HookHost::library_write;
    "literatureArtifacts.upsertReferences" => LiteratureArtifactsUpsertReferences: Write, Canonical, HookHost::library_write;
    "literatureArtifacts.upsertCitationAnalysis" => LiteratureArtifactsUpsertCitationAnalysis: Write, Canonical, HookHost::library_write;
    "literatureArtifacts.upsertScore" => LiteratureArtifactsUpsertScore: Write, Canonical, HookHost::library_write;
    "notes.create" => NotesCreate: Write, Canonical, HookHost::library_write;
    "notes.updateContent" => NotesUpdateContent: Write, Canonical, HookHost::library_write;
    "notes.remove" => NotesRemove: Write, Canonical, HookHost::library_write;
    "notes.upsertPayload" => NotesUpsertPayload: Write, Canonical, HookHost::library_write;
    "images.prepareForNoteEmbedding" => ImagesPrepareForNoteEmbedding: Fixture, Open, HookHost::fixture;
    "attachments.create" => AttachmentsCreate: Write, Canonical, HookHost::library_write;
    "attachments.updateMetadata" => AttachmentsUpdateMetadata: Write, Canonical, HookHost::library_write;
    "attachments.replaceFile" => AttachmentsReplaceFile: Write, Canonical, HookHost::library_write;
    "attachments.move" => AttachmentsMove: Write, Canonical, HookHost::library_write;
    "attachments.remove" => AttachmentsRemove: Write, Canonical, HookHost::library_write;
    "bibliography.listFormats" => BibliographyListFormats: Fixture, Open, HookHost::fixture;
    "bibliography.render" => BibliographyRender: Fixture, Open, HookHost::fixture;
    "researchBundles.materializePapers" => ResearchBundlesMaterializePapers: Fixture, Open, HookHost::fixture;
    "researchBundles.importPapers" => ResearchBundlesImportPapers: Fixture, OperationLookup, HookHost::import_papers;
    "statusTags.getPolicy" => StatusTagsGetPolicy: Host, Open, HookHost::service;
    "statusTags.transition" => StatusTagsTransition: Write, Canonical, HookHost::library_write;
    "file.readText" => FileReadText: Host, FileRead, HookHost::file;
    "file.writeText" => FileWriteText: FileWrite, FileWrite, HookHost::file_write;
    "file.readBytes" => FileReadBytes: Host, FileRead, HookHost::file;
    "file.writeBytes" => FileWriteBytes: FileWrite, FileWrite, HookHost::file_write;
    "file.copy" => FileCopy: FileWrite, FileWrite, HookHost::file_write;
    "file.exists" => FileExists: Host, FileRead, HookHost::file;
    "file.makeDirectory" => FileMakeDirectory: FileWrite, FileWrite, HookHost::file_write;
    "file.materializeWorkflowInputFile" => FileMaterializeWorkflowInputFile: Host, Checked, HookHost::materialize;
    "file.getTempDirectoryPath" => FileGetTempDirectoryPath: Host, Open, HookHost::temp_directory;
    "file.pickDirectory" => FilePickDirectory: Person, Open, HookHost::person;
    "file.pickFile" => FilePickFile: Person, Open, HookHost::person;
    "file.pickSaveFile" => FilePickSaveFile: Person, Open, HookHost::person;
    "file.pickFiles" => FilePickFiles: Person, Open, HookHost::person;
    "file.stat" => FileStat: Host, FileRead, HookHost::file;
    "file.list" => FileList: Host, FileRead, HookHost::file;
    "file.move" => FileMove: FileWrite, FileWrite, HookHost::file_write;
    "file.remove" => FileRemove: FileWrite, FileWrite, HookHost::file_write;
    "archive.measureEntries" => ArchiveMeasureEntries: Host, Checked, HookHost::archive;
    "archive.writeZipAtomic" => ArchiveWriteZipAtomic: FileWrite, FileWrite, HookHost::file_write;
    "archive.withExtractedZip" => ArchiveWithExtractedZip: Host, Checked, HookHost::archive;
    "resources.getInput" => ResourcesGetInput: Fixture, Open, HookHost::fixture;
    "resources.getInputs" => ResourcesGetInputs: Fixture, Open, HookHost::fixture;
    "resources.get" => ResourcesGet: Fixture, Open, HookHost::fixture;
    "resources.materializeFile" => ResourcesMaterializeFile: Fixture, Open, HookHost::fixture;
    "resources.allocateOutput" => ResourcesAllocateOutput: Fixture, Open, HookHost::fixture;
    "resources.publishOutput" => ResourcesPublishOutput: Fixture, Open, HookHost::fixture;
    "resources.listOutputs" => ResourcesListOutputs: Fixture, Open, HookHost::fixture;
    "clipboard.readText" => ClipboardReadText: Person, Open, HookHost::person;
    "clipboard.writeText" => ClipboardWriteText: Person, Open, HookHost::person;
    "clipboard.hasText" => ClipboardHasText: Person, Open, HookHost::person;
    "clipboard.clear" => ClipboardClear: Person, Open, HookHost::person;
    "editor.openSession" => EditorOpenSession: Person, Open, HookHost::person;
    "notifications.toast" => NotificationsToast: Person, Open, HookHost::person;
    "logging.appendRuntimeLog" => LoggingAppendRuntimeLog: Log, Checked, HookHost::runtime_log;
    "synthesis.searchEvidence" => SynthesisSearchEvidence: Fixture, SynthesisSearch, HookHost::synthesis_search;
    "synthesis.workflowApply.applyLiteratureDigest" => SynthesisApplyLiteratureDigest: Fixture, Open, HookHost::fixture;
    "synthesis.workflowApply.applyTopicPlan" => SynthesisApplyTopicPlan: Fixture, Open, HookHost::fixture;
    "synthesis.workflowApply.applyTopicSynthesisResult" => SynthesisApplyTopicSynthesisResult: Fixture, Open, HookHost::fixture;
    "synthesis.topics.getReport" => SynthesisTopicsGetReport: Fixture, Open, HookHost::fixture;
    "synthesis.topics.search" => SynthesisTopicsSearch: Fixture, SynthesisSearch, HookHost::synthesis_search;
    "synthesis.topics.getContext" => SynthesisTopicsGetContext: Fixture, Open, HookHost::fixture;
    "synthesis.artifacts.readPaperArtifacts" => SynthesisReadPaperArtifacts: Fixture, Open, HookHost::fixture;
    "synthesis.tags.loadVocabulary" => SynthesisTagsLoadVocabulary: Fixture, Open, HookHost::fixture;
    "synthesis.tags.saveVocabulary" => SynthesisTagsSaveVocabulary: Fixture, Open, HookHost::fixture;
    "synthesis.tags.exportVocabularyForRegulator" => SynthesisTagsExportVocabularyForRegulator: Fixture, Open, HookHost::fixture;
    "synthesis.tags.listStagedSuggestions" => SynthesisTagsListStagedSuggestions: Fixture, Open, HookHost::fixture;
    "synthesis.tags.stageSuggestions" => SynthesisTagsStageSuggestions: Fixture, Open, HookHost::fixture;
    "synthesis.tags.promoteStagedSuggestions" => SynthesisTagsPromoteStagedSuggestions: Fixture, Open, HookHost::fixture;
    "synthesis.tags.discardStagedSuggestions" => SynthesisTagsDiscardStagedSuggestions: Fixture, Open, HookHost::fixture;
    "synthesis.tags.withAuditRun" => SynthesisTagsWithAuditRun: Fixture, AuditRun, HookHost::audit_run;
    "synthesis.tags.acknowledgeRegulation" => SynthesisTagsAcknowledgeRegulation: Fixture, Open, HookHost::fixture;
}

/// What the facade itself calls besides the Host API: bundle readers, result
/// contexts, argument members handed on demand and the end of a member that
/// called back into the hook.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Internal {
    /// `bundle.readText(id, entry)`.
    BundleReadText,
    /// `bundle.readBytes(id, entry)`.
    BundleReadBytes,
    /// `bundle.list(id)`.
    BundleList,
    /// `bundle.getExtractedDir(id)`.
    BundleExtractedDir,
    /// `result.resolveArtifact(id, request)`.
    ResolveArtifact,
    /// `result.resolveArtifactBytes(id, request)`.
    ResolveArtifactBytes,
    /// `deferred.take(id)`.
    DeferredTake,
    /// `productStorage.registerProduct(id, input)`: the `applyResult`
    /// argument's product storage.
    ProductRegister,
    /// `<member>#finish(token)`: a callback member is done.
    Finish(Member),
    /// `<member>#append(token, entries)`: what a tag-audit run's writer appends.
    Append(Member),
}

impl Internal {
    /// The internal call at `path`, if there is one.
    pub fn parse(path: &str) -> Option<Internal> {
        if let Some(member) = path.strip_suffix("#finish") {
            return Member::parse(member).map(Internal::Finish);
        }
        if let Some(member) = path.strip_suffix("#append") {
            return Member::parse(member).map(Internal::Append);
        }
        Some(match path {
            "bundle.readText" => Internal::BundleReadText,
            "bundle.readBytes" => Internal::BundleReadBytes,
            "bundle.list" => Internal::BundleList,
            "bundle.getExtractedDir" => Internal::BundleExtractedDir,
            "result.resolveArtifact" => Internal::ResolveArtifact,
            "result.resolveArtifactBytes" => Internal::ResolveArtifactBytes,
            "deferred.take" => Internal::DeferredTake,
            "productStorage.registerProduct" => Internal::ProductRegister,
            _ => return None,
        })
    }
}

impl Member {
    /// What `js/host-api.json` declares for the member besides its answer (what
    /// the facade needs); a test checks that every member has its declaration.
    pub fn declaration(self) -> Option<&'static Declaration> {
        host_api().member(self.name())
    }

    /// The member's last segment (`readText` of `file.readText`).
    pub fn operation(self) -> &'static str {
        let name = self.name();
        name.rsplit_once('.').map_or(name, |(_, op)| op)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declaration_file_declares_exactly_the_table_in_order_and_answered_alike() {
        let declared: Vec<(&str, Answer)> =
            host_api().members().map(|(n, d)| (n, d.answer)).collect();
        let table: Vec<(&str, Answer)> =
            Member::ALL.iter().map(|m| (m.name(), m.answer())).collect();
        assert_eq!(declared, table);
        for member in Member::ALL {
            assert_eq!(Member::parse(member.name()), Some(*member));
        }
        assert_eq!(Member::parse("library.nope"), None);
    }

    #[test]
    fn the_member_table_of_the_host_api_document_is_the_table() {
        let doc = include_str!("../../../../../docs/host-api.md");
        let section = doc
            .split("## How each member is answered")
            .nth(1)
            .and_then(|rest| rest.split("\n## ").next())
            .unwrap_or_default();
        let documented: Vec<&str> = section
            .lines()
            .filter_map(|line| line.strip_prefix("| `"))
            .filter_map(|line| line.split('`').next())
            .collect();
        let table: Vec<&str> = Member::ALL.iter().map(|m| m.name()).collect();
        assert_eq!(
            documented, table,
            "docs/host-api.md lists the table's members in order"
        );
    }
}

/// Every member of the table, driven through [`HookHost::call`] without an
/// engine: a malformed request is refused before its handler with the
/// reference host's refusal, and a well-formed one reaches its handler.
#[cfg(test)]
mod sweep {
    use serde_json::{Value, json};

    use super::Member;
    use crate::host::answers::HostAnswers;
    use crate::host::error::reply_code;
    use crate::host::session::HookHost;
    use crate::host::world::HostWorld;
    use crate::selection::SelectionContext;

    fn host(files: &std::path::Path) -> HookHost {
        let selection = SelectionContext::from_value(&json!({"items": [
            {"kind": "parent", "ref": {"libraryId": 1, "key": "PARENT01"}, "itemType": "book", "title": "Cats"}
        ], "sampledAt": "2026-01-01T00:00:00Z"}))
        .unwrap();
        let world = HostWorld::from_selection(&selection).with_files_dir(files);
        HookHost::new(world, HostAnswers::default())
    }

    /// A request each member's type accepts.
    fn well_formed(member: Member) -> Value {
        let parent = json!({"libraryId": 1, "key": "PARENT01"});
        let op = "op-1";
        match member {
            Member::LibraryGetNoteDetail => json!([parent, {"format": "html"}]),
            Member::LibraryGetNotePayload => json!([parent, {"payloadType": "x"}]),
            Member::LibraryGetItemDetail
            | Member::LibraryGetItemNotes
            | Member::LibraryListNotePayloads
            | Member::LibraryGetItemAttachments
            | Member::LibraryListAnnotations => json!([parent]),
            Member::LibraryTraverseItems => json!([{"scope": "top-level-regular"}, {}, null]),
            Member::LibraryWithItemSnapshot => json!([{"libraryId": 1}, {}, null]),
            Member::LibraryExportPortableItems => json!([[parent]]),
            Member::LibrarySearchItems
            | Member::SynthesisSearchEvidence
            | Member::SynthesisTopicsSearch => json!([{"query": "cats"}]),
            Member::SynthesisTagsWithAuditRun => {
                json!([{"libraryId": 1, "vocabularyHash": "v1"}, {}, null])
            }
            Member::MetadataTranslateIdentifier => json!([{"type": "DOI", "value": "10.1000/x"}]),
            Member::MutationsGetOperation | Member::ResearchBundlesImportPapers => {
                json!([{"operationId": op}])
            }
            Member::MutationsPreview => {
                json!([{"operation": "item.updateTags", "itemRef": parent, "add": ["x"], "remove": []}])
            }
            Member::MutationsExecute => json!([{"operationId": op, "operation": "item.updateTags",
                "itemRef": parent, "add": ["x"], "remove": []}]),
            Member::StatusTagsTransition => {
                json!([{"operationId": op, "itemRef": parent, "add": ["need-analysis"]}])
            }
            Member::FileReadText
            | Member::FileReadBytes
            | Member::FileExists
            | Member::FileStat => json!(["a.txt"]),
            Member::FileList => json!([{"path": "."}]),
            Member::FileWriteText => json!(["b.txt", "text"]),
            Member::FileWriteBytes => json!(["b.bin", {"$bytes": "AQI="}]),
            Member::FileCopy | Member::FileMove => {
                json!([{"sourcePath": "a.txt", "targetPath": "c.txt"}])
            }
            Member::FileMakeDirectory => json!([{"path": "d"}]),
            Member::FileRemove => json!([{"path": "a.txt"}]),
            Member::FileMaterializeWorkflowInputFile => {
                json!([{"key": "k", "content": {"kind": "text", "text": "t"}}])
            }
            Member::ArchiveMeasureEntries => {
                json!([{"entries": [{"name": "a", "content": {"kind": "text", "text": "t"}}]}])
            }
            Member::ArchiveWriteZipAtomic => json!([{"targetPath": "a.zip",
                "entries": [{"name": "a", "content": {"kind": "text", "text": "t"}}]}]),
            Member::ArchiveWithExtractedZip => json!([{"sourcePath": "a.zip"}, {}, null]),
            Member::LoggingAppendRuntimeLog => {
                json!([{"level": "info", "stage": "s", "message": "m"}])
            }
            // Library writes: a request of the right shape (the world may still
            // refuse what it names).
            m if m.answer() == super::Answer::Write => json!([{"operationId": op}]),
            _ => json!([]),
        }
    }

    /// Requests each member refuses.
    fn malformed(member: Member) -> Vec<Value> {
        match member {
            Member::LibraryListItems => vec![json!([{"tag": 5}]), json!([{"filter": []}])],
            Member::LibraryListCollections => vec![json!([{"libraryId": "one"}])],
            Member::LibraryListSavedSearches => vec![json!([{"limit": 0}])],
            Member::LibraryTraverseItems => vec![json!([]), json!([{"scope": "all"}])],
            Member::LibraryWithItemSnapshot => vec![json!([{}, {}]), json!([{"libraryId": 0}, {}])],
            Member::LibraryExportPortableItems => vec![json!([42]), json!([[42]])],
            Member::ArchiveMeasureEntries | Member::ArchiveWriteZipAtomic => {
                vec![
                    json!([{"targetPath": "z.zip", "entries": 5}]),
                    json!([{"entries": [{"name": "../x"}]}]),
                ]
            }
            Member::ArchiveWithExtractedZip => vec![json!([{}, {}, null]), json!([42])],
            // Answers `false` for anything it cannot inspect, as the reference does.
            Member::FileExists => vec![],
            // A path is `String(value || "")`: a number names a file.
            Member::FileReadText
            | Member::FileReadBytes
            | Member::FileStat
            | Member::FileWriteText => vec![json!([]), json!([null]), json!(["../x"])],
            Member::FileWriteBytes => vec![json!(["a"]), json!(["a", "text"])],
            Member::FileList
            | Member::FileMakeDirectory
            | Member::FileRemove
            | Member::FileCopy
            | Member::FileMove => vec![json!([{}]), json!([{"path": "..", "sourcePath": ".."}])],
            _ => vec![json!([]), json!([42])],
        }
    }

    #[test]
    fn a_malformed_request_is_refused_before_its_handler_and_a_well_formed_one_reaches_it() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "A").unwrap();
        let mut zip = zip::ZipWriter::new(std::fs::File::create(dir.path().join("a.zip")).unwrap());
        zip.start_file("x.txt", zip::write::SimpleFileOptions::default())
            .unwrap();
        std::io::Write::write_all(&mut zip, b"x").unwrap();
        zip.finish().unwrap();
        let mut checked = 0;
        for &member in Member::ALL {
            let code = |reply: &Result<Value, crate::host::HostError>| match reply {
                Ok(_) => "ok".to_string(),
                Err(e) => e.fields["code"].as_str().unwrap_or(&e.name).to_string(),
            };
            if !member.takes_any_request() {
                checked += 1;
                for malformed in malformed(member) {
                    let refused = host(dir.path()).call(member.name(), malformed.clone(), None);
                    // The reference's refusals: a request that does not fit, a ref
                    // that is not one, a list that is not a list of refs.
                    let refused_code = code(&refused);
                    if let Err(e) = &refused {
                        e.conformance()
                            .unwrap_or_else(|why| panic!("{}({malformed}): {why}", member.name()));
                    }
                    assert!(
                        ["invalid_request", "invalid_ref", "resource_limited"]
                            .contains(&refused_code.as_str()),
                        "{}({malformed}) answered {refused:?}",
                        member.name()
                    );
                }
            }
            let args = well_formed(member);
            member
                .check(&args)
                .unwrap_or_else(|e| panic!("{}({args}): {e:?}", member.name()));
            let reply = host(dir.path()).call(member.name(), args.clone(), None);
            if let Err(e) = &reply {
                e.conformance()
                    .unwrap_or_else(|why| panic!("{}({args}): {why}", member.name()));
            }
            assert_ne!(
                code(&reply),
                "unsupported_operation",
                "{}({args}) reached no handler: {reply:?}",
                member.name()
            );
        }
        assert!(checked > 40, "{checked} members checked");
    }

    /// `value` with every non-empty string about `bytes` long.
    fn long_strings(value: &Value, bytes: usize) -> Value {
        match value {
            Value::String(s) if !s.is_empty() => Value::String(s.repeat(bytes / s.len() + 1)),
            Value::Array(items) => items.iter().map(|v| long_strings(v, bytes)).collect(),
            Value::Object(members) => members
                .iter()
                .map(|(k, v)| (k.clone(), long_strings(v, bytes)))
                .collect(),
            other => other.clone(),
        }
    }

    /// `value` with every non-empty array inside an argument `count` long, its
    /// elements repeated (the arguments themselves stay as they are).
    fn long_arrays(value: &Value, count: usize, top: bool) -> Value {
        match value {
            Value::Array(items) if !top && !items.is_empty() => items
                .iter()
                .cycle()
                .take(count)
                .map(|v| long_arrays(v, count, false))
                .collect(),
            Value::Array(items) => items.iter().map(|v| long_arrays(v, count, false)).collect(),
            Value::Object(members) => members
                .iter()
                .map(|(k, v)| (k.clone(), long_arrays(v, count, false)))
                .collect(),
            other => other.clone(),
        }
    }

    /// Every member, asked with each string of its request made 4 MiB long and,
    /// apart, each list 50,000 long: its answer holds no more than the call's
    /// byte budget beyond what it was given, a refusal is one the reference
    /// could give, and what it records stays within the run's write limit.
    #[test]
    fn requests_of_any_size_are_answered_within_the_host_budgets() {
        const BUDGET: u64 = 1 << 20;
        const WRITES: u64 = 1 << 20;
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "A").unwrap();
        for &member in Member::ALL {
            let args = well_formed(member);
            for big in [
                long_strings(&args, 4 << 20),
                long_arrays(&args, 50_000, true),
            ] {
                let given = serde_json::to_vec(&big).unwrap().len() as u64;
                let mut host = host(dir.path())
                    .with_call_bytes(BUDGET)
                    .with_write_limit(WRITES);
                let deadline = std::time::Instant::now() + std::time::Duration::from_secs(600);
                let reply = host.call(member.name(), big, Some(deadline));
                match &reply {
                    Ok(answer) => {
                        let size = serde_json::to_vec(answer).unwrap().len() as u64;
                        assert!(
                            size <= BUDGET + given,
                            "{}: a {size}-byte answer to {given} bytes",
                            member.name()
                        );
                    }
                    Err(e) => e
                        .conformance()
                        .unwrap_or_else(|why| panic!("{}: {why}", member.name())),
                }
                let recorded: u64 = host
                    .take_effects()
                    .iter()
                    .map(|e| serde_json::to_vec(&e.args).unwrap().len() as u64)
                    .sum();
                assert!(
                    recorded <= WRITES,
                    "{}: {recorded} bytes recorded",
                    member.name()
                );
            }
        }
    }

    #[test]
    fn notes_are_created_as_the_reference_host_creates_them() {
        let dir = tempfile::tempdir().unwrap();
        let parent = json!({"libraryId": 1, "key": "PARENT01"});
        let content = json!({"format": "html", "value": "<p>hi</p>"});
        let create = |request: Value| {
            let mut request = request;
            request["operationId"] = json!("op");
            host(dir.path()).call("notes.create", json!([request]), None)
        };
        // A flat parentRef is not the reference's placement.
        let (code, details) = reply_code(&create(json!({"parentRef": parent, "content": content})));
        assert_eq!(
            (code.as_str(), &details["field"]),
            ("invalid_request", &json!("/parentRef"))
        );
        // Placements: the union, and nothing else.
        let child = json!({"kind": "child", "parentRef": parent});
        assert_eq!(
            reply_code(&create(json!({"placement": child, "content": content}))).0,
            "ok"
        );
        let top = create(json!({"placement": {"kind": "top_level"}, "content": content})).unwrap();
        assert_eq!(top["outcome"], "committed", "{top}");
        assert!(top["result"]["note"].get("parent").is_none(), "{top}");
        for (placement, field) in [
            (
                json!({"kind": "child", "parentRef": parent, "extra": 1}),
                "/placement/extra",
            ),
            (json!({"kind": "sibling"}), "/placement/kind"),
            (
                json!({"kind": "top_level", "libraryId": 0}),
                "/placement/libraryId",
            ),
            (
                json!({"kind": "top_level", "collectionRefs": "C1"}),
                "/placement/collectionRefs",
            ),
            (json!("child"), "/placement"),
        ] {
            let (code, details) =
                reply_code(&create(json!({"placement": placement, "content": content})));
            assert_eq!(
                (code.as_str(), details["field"].as_str()),
                ("invalid_request", Some(field))
            );
        }
        let missing =
            json!({"kind": "top_level", "collectionRefs": [{"libraryId": 1, "key": "NOCOLL01"}]});
        assert_eq!(
            reply_code(&create(json!({"placement": missing, "content": content}))).0,
            "not_found"
        );
        // A ref of the wrong form is the reference's invalid_ref.
        let short = json!({"kind": "child", "parentRef": {"libraryId": 1, "key": "PARENT1"}});
        let (code, details) = reply_code(&create(json!({"placement": short, "content": content})));
        assert_eq!(
            (code.as_str(), &details),
            (
                "invalid_ref",
                &json!({"kind": "item", "reason": "invalid_key"})
            )
        );
        // Content: bounded, no managed markers, no images in text.
        for (content, reason) in [
            (
                json!({"format": "html", "value": "x".repeat(50_001)}),
                "invalid_value",
            ),
            (
                json!({"format": "html", "value": "<p DATA-ZS-NOTE-KIND = \"x\">"}),
                "unsupported_value",
            ),
            (
                json!({"format": "text", "value": "t", "embeddedImages": [{"slot": "a"}]}),
                "invalid_combination",
            ),
        ] {
            let (code, details) =
                reply_code(&create(json!({"placement": child, "content": content})));
            assert_eq!(
                (code.as_str(), details["reason"].as_str()),
                ("invalid_request", Some(reason))
            );
        }
        // Tags: at most 100, non-blank, at most 200 characters, repeats dropped.
        let tags = |tags: Value| {
            create(json!({"placement": child, "content": content, "initialTags": tags}))
        };
        assert_eq!(
            reply_code(&tags(json!(vec!["t"; 101]))).1["resource"],
            "entries"
        );
        assert_eq!(
            reply_code(&tags(json!(["ok", " "]))).1["field"],
            "initialTags.1"
        );
        assert_eq!(
            reply_code(&tags(json!(["x".repeat(201)]))).1["resource"],
            "characters"
        );
        assert_eq!(reply_code(&tags(json!(["a", " a ", "b"]))).0, "ok");
    }

    #[test]
    fn removals_need_a_permanent_disposition() {
        let dir = tempfile::tempdir().unwrap();
        let note = json!({"libraryId": 1, "key": "NOTE0001"});
        let reply = host(dir.path()).call(
            "notes.remove",
            json!([{"operationId": "op", "noteRef": note}]),
            None,
        );
        let (code, details) = reply_code(&reply);
        assert_eq!(
            (code.as_str(), &details["field"]),
            ("invalid_request", &json!("/disposition"))
        );
    }

    #[test]
    fn library_search_finds_terms_in_metadata_with_their_places() {
        let dir = tempfile::tempdir().unwrap();
        let search =
            |request: Value| host(dir.path()).call("library.searchItems", json!([request]), None);
        let found = search(json!({"query": "cats", "sourceKinds": ["metadata"]})).unwrap();
        assert_eq!(found["method"], "lexical");
        assert_eq!(found["status"], "completed");
        assert_eq!(found["total"], 1);
        let result = &found["results"][0];
        assert_eq!(
            result["item"]["ref"],
            json!({"libraryId": 1, "key": "PARENT01"})
        );
        let title = &result["matches"][0];
        assert_eq!(
            title["source"],
            json!({"kind": "metadata", "field": "title"})
        );
        assert_eq!(title["location"]["range"], json!({"start": 0, "end": 4}));
        assert_eq!(title["matchedTerms"], json!(["cats"]));
        assert_eq!(title["phraseMatch"], true);
        assert_eq!(
            found["coverage"]["sources"]["fulltext"]["status"],
            "not_requested"
        );
        let none = search(json!({"query": "dogs"})).unwrap();
        assert_eq!(
            (none["total"].clone(), none["results"].clone()),
            (json!(0), json!([]))
        );
        for (request, field) in [
            (json!({"query": " "}), "query"),
            (json!({"query": "x", "limit": 0}), "limit"),
            (json!({"query": "x", "sourceKinds": ["web"]}), "sourceKinds"),
            (json!({"query": "x", "extra": 1}), "extra"),
        ] {
            let (code, details) = reply_code(&search(request.clone()));
            assert_eq!(
                (code.as_str(), details["field"].as_str()),
                ("invalid_request", Some(field)),
                "{request}"
            );
        }
        let (_, details) = reply_code(&search(
            json!({"query": "x", "limit": 50, "maxResults": 10}),
        ));
        assert_eq!(details["reason"], "invalid_combination");
    }
}
