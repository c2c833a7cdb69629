//! The Host API hooks see as `runtime.hostApi`, declared once.
//!
//! `js/host-api.json` lists every member of the reference host's API version 12
//! with how hookrun answers it. The JS facade builds `runtime.hostApi` from the
//! same file (`build.rs` hands it to `js/facade.js`), the effect
//! recorder takes its list of writes from it, the host bridge dispatches on it,
//! and a test checks `js/hookrun.d.ts` and `docs/host-api.md` against it. Adding a
//! member is one line there, its answer in the bridge (or the world) and its type
//! in `js/hookrun.d.ts`.

use std::sync::LazyLock;

use serde::Deserialize;
use serde_json::Value;

/// The declaration, as the facade reads it too.
pub const SOURCE: &str = include_str!("../../../../js/host-api.json");

/// How hookrun answers a member.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Answer {
    /// A read or a service the host computes from its world.
    Host,
    /// A library write: it needs an `operationId`, is recorded as an effect and
    /// changes what later reads see.
    Write,
    /// A file write: recorded as an effect without an `operationId`, and seen by
    /// later file reads.
    FileWrite,
    /// Needs a person: `interaction_required` in non-interactive runs, answered
    /// from the fixture in interactive ones.
    Person,
    /// Needs a service a simulated world cannot stand in for: answered from the
    /// fixture's `hostAnswers`, else an `unavailable` error naming the key to add.
    Fixture,
    /// `logging.appendRuntimeLog`: a line of the hook's log.
    Log,
}

/// One member of the Host API.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Declaration {
    /// How it is answered.
    pub answer: Answer,
    /// Whether it answers synchronously (a value, not a promise), as on the
    /// reference host.
    #[serde(default)]
    pub sync: bool,
    /// The position of its callback argument, for members that call back into the
    /// hook (`library.traverseItems`, `archive.withExtractedZip`, …).
    #[serde(default)]
    pub callback: Option<usize>,
    /// Whether its answer is deep-frozen, as the reference host's is.
    #[serde(default)]
    pub frozen: bool,
    /// Whether its arguments may carry bytes (typed arrays cross as base64).
    #[serde(default)]
    pub bytes: bool,
    /// The argument that must be bytes: anything else is made a `Uint8Array` of it.
    #[serde(default)]
    pub bytes_arg: Option<usize>,
    /// The object a callback member hands its callback, when the facade builds one
    /// (`archive`: the extracted archive's scope; `auditRun`: a tag-audit run's
    /// writer).
    #[serde(default)]
    pub scope: Option<String>,
    /// For [`Answer::Fixture`] and [`Answer::Person`] members that change
    /// something on the reference host: whatever the fixture answers is recorded
    /// as an effect (an error or the `unavailable` fallback as a refused one).
    #[serde(default)]
    pub records: bool,
    /// The `name` of its errors when it is not `WorkflowHostError`.
    #[serde(default)]
    pub error_name: Option<String>,
    /// For [`Answer::Person`] members: the runtime log line the reference host
    /// writes when it refuses the member in a non-interactive run.
    #[serde(default)]
    pub denied_log: Option<DeniedLog>,
    /// For [`Answer::Person`] members answering a promise: in an interactive run a
    /// refusal of the request (`invalid_request`, `resource_limited`) is thrown
    /// where the member is called, as the reference's pickers check their filters
    /// before they return the picker's promise.
    #[serde(default)]
    pub sync_checks: bool,
    /// For [`Answer::Fixture`] members: what it answers when the fixture has no
    /// answer, as the reference host's stand-in does (`resources.getInputs()` is `[]`).
    #[serde(default, deserialize_with = "present")]
    pub absent: Option<Value>,
    /// For [`Answer::Fixture`] members: the message of the `unavailable` error the
    /// reference host raises when it has no such service (default: "Workflow Host
    /// owner is unavailable").
    #[serde(default)]
    pub unavailable_message: Option<String>,
    /// For [`Answer::Fixture`] members: the `details` of the `unavailable` error the
    /// reference host raises when it has no such service.
    #[serde(default)]
    pub unavailable: Option<Value>,
}

/// The runtime log line a refused member writes: the hook's log shows it at
/// `level` as `[stage] message`, as it shows `logging.appendRuntimeLog` lines
/// (every line of a hook's log is the hook's own, the reference's scope `hook`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DeniedLog {
    /// `warn`.
    pub level: String,
    /// The reference's log stage, `workflow-host.notifications`.
    pub stage: String,
    /// The line's text.
    pub message: String,
}

/// A member that is present, `null` included.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Value>, D::Error> {
    Value::deserialize(d).map(Some)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Table {
    version: u32,
    members: serde_json::Map<String, Value>,
}

/// The declared API: its version and members in declaration order.
pub struct HostApi {
    /// `hostApi.version`.
    pub version: u32,
    members: Vec<(String, Declaration)>,
}

impl HostApi {
    /// Every member as `(path, member)`, `path` being `namespace.member` (or
    /// `synthesis.tags.member`), in declaration order.
    pub fn members(&self) -> impl Iterator<Item = (&str, &Declaration)> {
        self.members.iter().map(|(name, m)| (name.as_str(), m))
    }

    /// The member at `path`.
    pub fn member(&self, path: &str) -> Option<&Declaration> {
        self.members
            .iter()
            .find(|(name, _)| name == path)
            .map(|(_, m)| m)
    }
}

/// The Host API as `js/host-api.json` declares it.
pub fn host_api() -> &'static HostApi {
    static API: LazyLock<HostApi> = LazyLock::new(|| {
        // The file is part of the build; a test parses it, so this cannot fail in a
        // tested build.
        let table: Table = serde_json::from_str(SOURCE).expect("js/host-api.json is valid");
        let members = table
            .members
            .into_iter()
            .map(|(name, value)| {
                let member = serde_json::from_value(value)
                    .unwrap_or_else(|e| panic!("js/host-api.json: {name}: {e}"));
                (name, member)
            })
            .collect();
        HostApi {
            version: table.version,
            members,
        }
    });
    &API
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_declaration_parses_and_is_version_12() {
        let api = host_api();
        assert_eq!(api.version, 12);
        assert!(api.members().count() > 90);
        let answer = |path: &str| api.member(path).map(|m| m.answer);
        assert_eq!(answer("notes.create"), Some(Answer::Write));
        assert_eq!(answer("file.writeBytes"), Some(Answer::FileWrite));
        assert_eq!(answer("mutations.preview"), Some(Answer::Host));
        assert_eq!(answer("library.nope"), None);
        let callbacks: Vec<_> = api
            .members()
            .filter(|(_, m)| m.callback.is_some())
            .map(|(name, _)| name)
            .collect();
        assert_eq!(
            callbacks,
            [
                "library.traverseItems",
                "library.withItemSnapshot",
                "archive.withExtractedZip",
                "synthesis.tags.withAuditRun"
            ]
        );
    }

    #[test]
    fn fixture_members_say_how_they_are_unavailable_or_what_they_answer() {
        for (name, member) in host_api().members() {
            if member.answer == Answer::Fixture {
                assert!(
                    member.absent.is_some() ^ member.unavailable.is_some(),
                    "{name} needs either `absent` or `unavailable`"
                );
            } else {
                assert!(
                    member.absent.is_none() && member.unavailable.is_none(),
                    "{name}"
                );
            }
        }
    }
}
