//! What every compiler branch shares (`04-requests-and-bundles.md` §4.1).

use serde_json::{Map, Value};

use crate::manifest::Workflow;
use crate::request::ExecutionOptions;
use crate::request::error::RequestError;
use crate::request::files::AttachmentFiles;
use crate::request::task_name;
use crate::request::unit::{Target, Unit};

/// One compilation: the workflow, its declaration and the unit.
pub(super) struct Context<'a> {
    /// The workflow being compiled.
    pub workflow: &'a Workflow,
    /// The unit's selection.
    pub unit: Unit<'a>,
    /// Effective parameters: every default overlaid with the explicit values.
    pub params: Map<String, Value>,
    /// The host's attachment files.
    pub files: &'a dyn AttachmentFiles,
    /// Whether the run is a handoff (bridge) run.
    pub handoff: bool,
    kind: &'a str,
}

impl<'a> Context<'a> {
    /// A compilation of `kind` for `unit`.
    pub fn new(
        workflow: &'a Workflow,
        unit: Unit<'a>,
        execution: &ExecutionOptions,
        files: &'a dyn AttachmentFiles,
        handoff: bool,
        kind: &'a str,
    ) -> Self {
        Self {
            params: workflow.parameters.effective(&execution.workflow_params),
            workflow,
            unit,
            files,
            handoff,
            kind,
        }
    }

    /// `request.<field>` of the manifest.
    pub fn spec(&self, field: &str) -> &'a Value {
        &self.workflow.manifest["request"][field]
    }

    /// `execution.<field>` of the manifest.
    pub fn execution(&self, field: &str) -> &'a Value {
        &self.workflow.manifest["execution"][field]
    }

    /// `Workflow <id> <kind> requires <what>`.
    pub fn requires(&self, what: &str) -> RequestError {
        RequestError::Invalid(format!(
            "Workflow {} {} requires {what}",
            self.workflow.id, self.kind
        ))
    }

    /// The unit's target parent; required unless `trigger.requiresSelection` is `false`.
    pub fn required_target(&self) -> Result<Option<Target>, RequestError> {
        let target = self.unit.target();
        let optional = self.workflow.manifest["trigger"]["requiresSelection"] == Value::Bool(false);
        if target.is_none() && !optional {
            return Err(RequestError::MissingTargetParent);
        }
        Ok(target)
    }

    /// `{kind, taskName, <sources field>: sources}`, the head of every compiled request.
    pub fn head(&self, target: Option<&Target>) -> Map<String, Value> {
        let mut head = Map::new();
        head.insert("kind".into(), self.kind.into());
        let name = task_name::declarative(self.workflow, self.unit, target, &self.params);
        head.insert("taskName".into(), name.into());
        head.insert(self.unit.sources_field().into(), self.unit.sources());
        head
    }

    /// `{interval_ms, timeout_ms?}`: `request.poll.*`, else `execution.poll_interval_ms` /
    /// `execution.timeout_ms` (zero counts as unset); absent values are omitted.
    pub fn poll(&self, with_timeout: bool) -> Value {
        let poll = self.spec("poll");
        let mut out = Map::new();
        let mut fields = vec![("interval_ms", "poll_interval_ms")];
        if with_timeout {
            fields.push(("timeout_ms", "timeout_ms"));
        }
        for (field, fallback) in fields {
            let value = [&poll[field], self.execution(fallback)]
                .into_iter()
                .find(|v| v.as_f64().is_some_and(|n| n != 0.0));
            if let Some(value) = value {
                out.insert(field.into(), value.clone());
            }
        }
        Value::Object(out)
    }
}

/// Appends the target parent field, when there is a target.
pub(super) fn with_target(
    mut request: Map<String, Value>,
    target: Option<&Target>,
) -> Map<String, Value> {
    if let Some(target) = target {
        request.insert(target.field().into(), target.value());
    }
    request
}
