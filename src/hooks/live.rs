//! The live objects the facade (`js/facade.js`) builds inside a hook's
//! argument: the `runtime`, bundle readers, result contexts, frozen and
//! deferred members. Every spec the facade reads is made here, so its shape
//! has one definition on the host side.

use serde::Serialize;

/// One step of the path to a live object inside the argument.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum Step {
    /// A member of an object.
    Key(String),
    /// An element of an array.
    Index(usize),
}

/// A live object at `path` inside a hook's argument.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Live {
    /// Where the object goes (or which value it is made from).
    pub path: Vec<Step>,
    /// What the facade builds there.
    #[serde(flatten)]
    pub kind: LiveKind,
}

/// What the facade builds at a live object's path.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum LiveKind {
    /// The `runtime` object with the Host API facade.
    Runtime(RuntimeSpec),
    /// The value at the path becomes a result context, and the value at
    /// `reader`, the context's id, its bundle reader. The id is in the
    /// argument rather than here, so that calls of one hook describe their
    /// live objects alike and a runtime makes the description ready once.
    ResultContext {
        /// Where the bundle reader goes; the argument holds the context's id
        /// there.
        reader: Vec<Step>,
        /// `zip`, `directory` or `unavailable`: which members the reader has.
        reader_kind: &'static str,
    },
    /// The value at the path, a result context's id, becomes that context's
    /// product storage (`registerProduct`).
    ProductStorage,
    /// The value at the path is deeply frozen.
    Frozen,
    /// The value at the path is the one at `target`, the same object; made
    /// after every other kind, so `target` may be inside a deferred member.
    Alias {
        /// Where the value is in the argument.
        target: Vec<Step>,
    },
    /// The member stays on the host until the hook reads it (`deferred.take`).
    Deferred {
        /// The deferred member's id.
        id: String,
        /// Frozen when read.
        freeze: bool,
    },
}

/// The call-dependent fields of `runtime` (js/facade.js `makeRuntime`).
/// The others come from the [`RuntimeBase`] the argument holds where the
/// runtime goes; a field given here wins over the base's.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RuntimeSpec {
    /// `runtime.hookName`.
    pub hook_name: &'static str,
}

/// The fields of `runtime` that every call of a run shares (js/facade.js
/// `makeRuntime`). The argument holds them where the runtime goes, as a
/// shared value, so they cross into a runtime once rather than with every
/// call's live specs.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RuntimeBase {
    /// `runtime.workflowId`.
    pub workflow_id: String,
    /// `runtime.packageId` (empty outside a package).
    pub package_id: String,
    /// `runtime.workflowRootDir`, relative to the sandbox root.
    pub workflow_root_dir: String,
    /// `runtime.packageRootDir` (empty outside a package).
    pub package_root_dir: String,
    /// `runtime.workflowSourceKind`.
    pub workflow_source_kind: String,
    /// `runtime.locale`.
    pub locale: String,
    /// `runtime.invocationMode`.
    pub invocation_mode: super::InvocationMode,
    /// `runtime.debugMode`.
    pub debug_mode: bool,
    /// `hostApi.interactionMode`.
    pub interaction_mode: &'static str,
}

impl Live {
    /// The `runtime` member.
    pub fn runtime(spec: RuntimeSpec) -> Live {
        Live::at(["runtime"], LiveKind::Runtime(spec))
    }

    /// The top-level member `key`, frozen.
    pub fn frozen(key: &str) -> Live {
        Live::at([key], LiveKind::Frozen)
    }

    /// The top-level member `key`, kept on the host until read.
    pub fn deferred(key: &str, freeze: bool) -> Live {
        Live::at(
            [key],
            LiveKind::Deferred {
                id: key.to_string(),
                freeze,
            },
        )
    }

    /// The result context at `path`, with its bundle reader of kind
    /// `reader_kind` at `reader`, where the argument holds the context's id.
    pub fn result_context(path: Vec<Step>, reader: Vec<Step>, reader_kind: &'static str) -> Live {
        Live {
            path,
            kind: LiveKind::ResultContext {
                reader,
                reader_kind,
            },
        }
    }

    /// The top-level member `key`, where the argument holds a result
    /// context's id, as that context's product storage.
    pub fn product_storage(key: &str) -> Live {
        Live::at([key], LiveKind::ProductStorage)
    }

    /// The value at `target` again at `path`, the same object.
    pub fn alias(path: Vec<Step>, target: Vec<Step>) -> Live {
        Live {
            path,
            kind: LiveKind::Alias { target },
        }
    }

    fn at<const N: usize>(keys: [&str; N], kind: LiveKind) -> Live {
        Live {
            path: keys.into_iter().map(Step::key).collect(),
            kind,
        }
    }

    /// Whether the object is at or below the top-level member `key`.
    pub fn is_under(&self, key: &str) -> bool {
        matches!(self.path.first(), Some(Step::Key(first)) if first == key)
    }

    /// Whether this freezes the whole top-level member `key`.
    pub fn freezes_member(&self, key: &str) -> bool {
        matches!(self.kind, LiveKind::Frozen) && self.path.len() == 1 && self.is_under(key)
    }
}

impl Step {
    /// A member step.
    pub fn key(key: &str) -> Step {
        Step::Key(key.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn specs_have_the_shape_the_facade_reads() {
        let path = vec![
            Step::key("resultContext"),
            Step::key("children"),
            Step::Index(2),
        ];
        let reader = vec![
            Step::key("resultContext"),
            Step::key("children"),
            Step::Index(2),
            Step::key("bundleReader"),
        ];
        assert_eq!(
            serde_json::to_value(Live::result_context(path, reader, "zip")).unwrap(),
            json!({"path": ["resultContext", "children", 2], "kind": "resultContext",
                   "reader": ["resultContext", "children", 2, "bundleReader"], "readerKind": "zip"})
        );
        let alias = Live::alias(
            vec![Step::key("resultContext"), Step::key("resultJson")],
            vec![Step::key("runResult"), Step::key("resultJson")],
        );
        assert_eq!(
            serde_json::to_value(alias).unwrap(),
            json!({"path": ["resultContext", "resultJson"], "kind": "alias", "target": ["runResult", "resultJson"]})
        );
        assert_eq!(
            serde_json::to_value(Live::product_storage("productStorage")).unwrap(),
            json!({"path": ["productStorage"], "kind": "productStorage"})
        );
        assert_eq!(
            serde_json::to_value(Live::frozen("selectionContext")).unwrap(),
            json!({"path": ["selectionContext"], "kind": "frozen"})
        );
        assert_eq!(
            serde_json::to_value(Live::deferred("selectionContext", true)).unwrap(),
            json!({"path": ["selectionContext"], "kind": "deferred", "id": "selectionContext", "freeze": true})
        );
    }

    #[test]
    fn runtime_fields_are_camel_case_the_call_s_beside_the_kind() {
        let value = serde_json::to_value(Live::runtime(RuntimeSpec {
            hook_name: "preflight",
        }))
        .unwrap();
        assert_eq!(
            value,
            json!({"path": ["runtime"], "kind": "runtime", "hookName": "preflight"})
        );
        let base = RuntimeBase {
            workflow_id: "w".into(),
            package_id: String::new(),
            workflow_root_dir: ".".into(),
            package_root_dir: String::new(),
            workflow_source_kind: String::new(),
            locale: "en-US".into(),
            invocation_mode: crate::hooks::InvocationMode::NonInteractive,
            debug_mode: false,
            interaction_mode: "non_interactive",
        };
        let value = serde_json::to_value(base).unwrap();
        assert_eq!(value["workflowId"], "w");
        assert_eq!(value["interactionMode"], "non_interactive");
    }

    #[test]
    fn membership_of_top_level_members() {
        let frozen = Live::frozen("selectionContext");
        assert!(frozen.is_under("selectionContext"));
        assert!(frozen.freezes_member("selectionContext"));
        assert!(!frozen.freezes_member("resultContext"));
        let nested = Live::result_context(
            vec![
                Step::key("resultContext"),
                Step::key("children"),
                Step::Index(0),
            ],
            vec![Step::key("bundleReader")],
            "zip",
        );
        assert!(nested.is_under("resultContext"));
        assert!(!nested.freezes_member("resultContext"));
    }
}
