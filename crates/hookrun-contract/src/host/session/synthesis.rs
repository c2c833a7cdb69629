//! The `synthesis.*` members the simulated host answers itself: the checked
//! searches (answered from the fixture once their request fits) and
//! `synthesis.tags.withAuditRun`, which runs the hook's callback with a writer,
//! records every batch it appends and settles the run from the traversal the
//! callback returns, as the reference host's Workflow facade does.

use std::collections::HashMap;

use serde_json::{Value, json};

use super::HookHost;
use crate::host::HostError;
use crate::host::members::Member;
use crate::host::members::request::{Open, arg};
use crate::host::members::synthesis::{
    AuditRun, SynthesisSearch, audit_entries, synthesis_failure,
};

/// A tag-audit run whose callback has not finished.
#[derive(Debug, Clone)]
pub(crate) struct AuditState {
    /// The run's request, `{libraryId, vocabularyHash}`.
    input: Value,
    library_id: u64,
    /// Entries appended so far.
    staged: u64,
    /// Of them, entries that need regulation.
    needs_regulation: u64,
    /// Batches appended so far.
    sequence: u64,
    /// What the fixture answers for the run's publication, if it answers.
    published: Option<Value>,
}

/// The tag-audit runs of one host and the traversal evidence they may consume.
#[derive(Debug, Clone, Default)]
pub(crate) struct AuditRuns {
    runs: HashMap<String, AuditState>,
    /// Completion evidence of unfiltered, whole traversals, by `evidenceId`:
    /// `(libraryId, visitedItems, visitedBatches)`.
    evidence: HashMap<String, (u64, u64, u64)>,
    begun: u64,
}

impl AuditRuns {
    /// Keeps the completion evidence of a traversal of `input` that ended as
    /// `ending`, when a tag audit may consume it: completed, unfiltered, not resumed.
    pub(crate) fn witness(&mut self, input: &Value, ending: &Value) {
        let blank = |key: &str| {
            input
                .get(key)
                .is_none_or(|v| v.is_null() || v.as_str().is_some_and(|s| s.trim().is_empty()))
        };
        let whole = ["filter", "tag", "itemType", "collectionRef", "resumeCursor"]
            .iter()
            .all(|k| blank(k));
        let evidence = ending.pointer("/completionEvidence/evidenceId");
        if let (true, "completed", Some(Value::String(id))) = (
            whole,
            ending["outcome"].as_str().unwrap_or_default(),
            evidence,
        ) {
            let count = |k: &str| ending[k].as_u64().unwrap_or_default();
            let library = count("libraryId");
            let counts = (library, count("visitedItems"), count("visitedBatches"));
            self.evidence.insert(id.clone(), counts);
        }
    }
}

impl HookHost {
    /// `synthesis.searchEvidence` and `synthesis.topics.search`: the request
    /// checked as the reference's Synthesis client checks it, then the fixture's
    /// answer or the unconfigured host's `unavailable`.
    pub(crate) fn synthesis_search(
        &mut self,
        member: Member,
        args: Value,
        _: SynthesisSearch,
    ) -> Result<Value, HostError> {
        self.fixture(member, args, Open)
    }

    /// `synthesis.tags.withAuditRun(input, control, callback)`: a fixture error
    /// fails the run before its callback runs (as a refused begin does); else the
    /// callback gets a writer (`audit.append`) and the run settles when it ends
    /// (`audit.finish`).
    pub(crate) fn audit_run(
        &mut self,
        member: Member,
        args: Value,
        run: AuditRun,
    ) -> Result<Value, HostError> {
        let published = match self.answers.find(member.name(), &args) {
            Some(found) => match &found.reply {
                Ok(value) => Some(value.clone()),
                Err(_) => return self.fixture(member, args, Open),
            },
            None => None,
        };
        if !run.has_callback {
            return Err(synthesis_failure());
        }
        self.audits.begun += 1;
        let token = format!("audit-run-{}", self.audits.begun);
        let state = AuditState {
            input: json!({"libraryId": run.library_id, "vocabularyHash": run.vocabulary_hash}),
            library_id: run.library_id,
            staged: 0,
            needs_regulation: 0,
            sequence: 0,
            published,
        };
        self.audits.runs.insert(token.clone(), state);
        Ok(json!({"calls": [[]], "returns": "finish", "finish": token}))
    }

    /// `run.append(entries)` of a live run: the entries checked as the
    /// reference's Synthesis contract checks them, then recorded.
    pub(super) fn append_audit(
        &mut self,
        member: Member,
        args: &Value,
    ) -> Result<Value, HostError> {
        let token = arg(args, 0).as_str().unwrap_or_default();
        let Some(state) = self.audits.runs.get(token) else {
            return Err(HostError::workflow(
                "conflict",
                "The Synthesis request conflicts with the current state",
                json!({"reason": "ambiguous_state"}),
            ));
        };
        let entries = audit_entries(arg(args, 1), state.library_id)?;
        let needs = entries
            .iter()
            .filter(|e| e["evaluation"]["state"] == "needs_regulation")
            .count() as u64;
        let staged = state.staged + entries.len() as u64;
        let call = json!([state.input, {"sequence": state.sequence, "entries": entries}]);
        let reply = json!({"outcome": "appended", "stagedItems": staged});
        self.effects
            .commit(&self.site, member.name(), call, None, reply)?;
        if let Some(state) = self.audits.runs.get_mut(token) {
            state.staged = staged;
            state.needs_regulation += needs;
            state.sequence += 1;
        }
        Ok(Value::Null)
    }

    /// The end of a run's callback: `[token, {returned}]` when it returned (the
    /// run settles and is recorded), `[token]` when it threw (the run is dropped;
    /// the facade raises the callback's error).
    pub(super) fn finish_audit(
        &mut self,
        member: Member,
        args: &Value,
    ) -> Result<Value, HostError> {
        let token = arg(args, 0).as_str().unwrap_or_default();
        let Some(state) = self.audits.runs.remove(token) else {
            return Ok(Value::Null);
        };
        let Some(returned) = arg(args, 1).as_object() else {
            return Ok(Value::Null);
        };
        let traversal = returned.get("returned").filter(|t| t.is_object());
        let Some(traversal) = traversal else {
            return Err(synthesis_failure());
        };
        let outcome = self.settle(&state, traversal);
        self.effects.commit(
            &self.site,
            member.name(),
            json!([state.input]),
            None,
            outcome.clone(),
        )?;
        Ok(outcome)
    }

    /// What a run answers once its callback returned `traversal`.
    fn settle(&mut self, state: &AuditState, traversal: &Value) -> Value {
        let audited = state.staged;
        match traversal["outcome"].as_str() {
            Some("canceled") => return json!({"outcome": "canceled", "auditedItems": audited}),
            Some("resource_limited") => {
                let limit = match traversal["reason"].as_str() {
                    Some("max_items") => "items",
                    Some("max_pages") => "pages",
                    _ => "duration",
                };
                return json!({"outcome": "resource_limited", "auditedItems": audited, "limit": limit});
            }
            _ => {}
        }
        let count = |k: &str| traversal[k].as_u64();
        let evidence = traversal
            .pointer("/completionEvidence/evidenceId")
            .and_then(Value::as_str)
            .and_then(|id| self.audits.evidence.remove(id));
        let whole = evidence.is_some_and(|(library, items, batches)| {
            library == state.library_id
                && Some(items) == count("visitedItems")
                && Some(batches) == count("visitedBatches")
        });
        if !whole || count("visitedItems") != Some(audited) {
            return json!({"outcome": "conflicted", "auditedItems": audited,
                "conflictCount": 1, "conflicts": [], "retryable": true});
        }
        if let Some(published) = &state.published {
            return published.clone();
        }
        let coverage = traversal
            .pointer("/completionEvidence/coverageDigest")
            .cloned()
            .unwrap_or(Value::Null);
        let now = self.now_iso();
        let basis = crate::host::world::digest(&json!([state.input, coverage]));
        json!({"outcome": "published", "snapshot": {
            "schema": "zotero-agents.tag-audit-snapshot.v1",
            "libraryId": state.library_id,
            "snapshotRevision": format!("snapshot-{}", self.audits.begun),
            "vocabularyHash": state.input["vocabularyHash"],
            "basisDigest": basis,
            "coverageDigest": coverage,
            "auditedItems": audited,
            "needsRegulation": state.needs_regulation,
            "publishedAt": now,
            "updatedAt": now}})
    }
}
