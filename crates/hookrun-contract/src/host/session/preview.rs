//! `mutations.preview(request)`: the world works out the plan
//! ([`HostWorld::preview_write`](crate::host::world::HostWorld::preview_write));
//! the session gives it the host's clock and the run's files, which a stored
//! file's plan measures.

use serde_json::{Value, json};

use crate::host::members::Member;
use crate::host::members::request::{Canonical, canonical_refusal, schema_refusal};
use crate::host::session::HookHost;
use crate::host::world::{Keys, StoredFile};
use crate::host::{HostError, HostPath};

impl HookHost {
    /// `mutations.preview(request)`: what executing `request` would do, without
    /// changing anything. Its schema has no `operationId`; a request its schema
    /// refuses is refused in the preview schema's name.
    pub(crate) fn preview(
        &mut self,
        member: Member,
        _: Value,
        request: Canonical,
    ) -> Result<Value, HostError> {
        if request.request.contains_key("operationId") {
            return Err(schema_refusal(member, Some("operationId")));
        }
        let request = Value::Object(request.request);
        let mut keys = Keys {
            used: self.effects.created(),
        };
        let host: &HookHost = self;
        let facts = |file: &StoredFile| host.stored_facts(file);
        host.world
            .preview_write(&request, &mut keys, &facts, &host.now_iso())
            .map_err(|mut error| {
                if error.message == canonical_refusal(None).message {
                    error.message = schema_refusal(member, None).message;
                }
                error
            })
    }

    /// The size of the run's file a write would store, and whether the library
    /// already keeps the same bytes where the write would put them. A file the run
    /// does not have is `not_found`, as a write of it is.
    fn stored_facts(&self, file: &StoredFile) -> Result<(u64, bool), HostError> {
        let source = HostPath::parse(&file.source)
            .ok()
            .filter(|source| self.file_exists(source))
            .ok_or_else(|| {
                HostError::workflow(
                    "not_found",
                    format!("mutations.preview: {} was not found", file.source),
                    json!({"kind": "resource", "opaqueKey": file.source}),
                )
            })?;
        let Ok(target) = HostPath::parse(&file.target) else {
            let size = self.plan_stored_file(&source, &source)?.added_bytes();
            return Ok((size, false));
        };
        let stored = self.plan_stored_file(&source, &target)?;
        let kept = self.plan_stored_file(&target, &target)?;
        Ok((stored.added_bytes(), stored.files == kept.files))
    }
}
