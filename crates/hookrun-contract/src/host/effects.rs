//! Host writes, recorded instead of performed.
//!
//! Every write member a hook calls (the `write` and `file-write` members of
//! `js/host-api.json`) is recorded as an [`Effect`] in call order, with the reply
//! the hook got. Library writes are idempotent by `operationId`: an id repeated
//! with the same member and the same request replays the first reply and records
//! nothing new; repeated with another member or request it fails with the
//! reference host's `conflict` error (`idempotency_conflict`), the first write
//! stays bound to the id, and the refused attempt is recorded as an effect with
//! an `error`. What a write changes and answers is worked out by the host world
//! (`crate::host::world`); this log keeps the order, the bindings and the limit.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;
use serde_json::{Value, json};

use crate::host::HostError;

/// One recorded write.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Effect {
    /// 1-based position among the run's effects.
    pub seq: u64,
    /// The unit whose hook made the call.
    pub unit_id: String,
    /// The hook that made the call.
    pub hook: String,
    /// The member, e.g. `notes.create`.
    pub call: String,
    /// The arguments as passed (the call-control argument included, if any).
    pub args: Value,
    /// What the hook was answered (`null` for a refused attempt).
    pub result: Value,
    /// The host error a refused attempt got; an effect with an error changed nothing
    /// and is not to be applied.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Value>,
    /// The product record a `productStorage.registerProduct` call kept, for the
    /// run report's `products` (not part of the effect's JSON).
    #[serde(skip)]
    pub product: Option<Value>,
}

/// The write an `operationId` is bound to.
#[derive(Debug, Clone)]
struct Binding {
    member: String,
    request: Value,
    reply: Value,
}

/// What an `operationId` binds of a write: the request, without where a
/// stored-file source's files are (`source.main.source`, each companion's
/// `source`), as the reference host looks a stored attachment up before it reads
/// them; their target names stay.
fn without_file_sources(request: &Value) -> std::borrow::Cow<'_, Value> {
    if request.pointer("/source/kind").and_then(Value::as_str) != Some("stored_file") {
        return std::borrow::Cow::Borrowed(request);
    }
    let mut semantic = request.clone();
    if let Some(main) = semantic
        .pointer_mut("/source/main")
        .and_then(Value::as_object_mut)
    {
        main.remove("source");
    }
    let companions = semantic
        .pointer_mut("/source/companions")
        .and_then(Value::as_array_mut);
    for companion in companions.into_iter().flatten() {
        if let Some(companion) = companion.as_object_mut() {
            companion.remove("source");
        }
    }
    std::borrow::Cow::Owned(semantic)
}

/// Who is calling: set by the runner before each hook call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallSite {
    /// Unit id of the current hook call.
    pub unit_id: String,
    /// Hook name of the current hook call.
    pub hook: String,
}

/// Default of [`EffectLog::with_write_limit`]: 256 MiB of recorded write arguments.
pub const DEFAULT_MAX_WRITE_BYTES: u64 = 256 * 1024 * 1024;

/// The effects of one run.
#[derive(Debug)]
pub struct EffectLog {
    effects: Vec<Effect>,
    /// Effects [`take`](Self::take)n out so far.
    taken: u64,
    bindings: HashMap<String, Binding>,
    created: u64,
    /// Bytes of write arguments recorded so far, shared with the run's branches.
    written: Arc<AtomicU64>,
    max_write_bytes: u64,
    /// Set once a write was refused for passing `max_write_bytes`.
    limit_reached: bool,
}

impl Default for EffectLog {
    fn default() -> EffectLog {
        EffectLog::with_write_limit(DEFAULT_MAX_WRITE_BYTES)
    }
}

impl EffectLog {
    /// An empty log whose run may record at most `max_write_bytes` of write arguments
    /// (as JSON); the write that would pass it fails with [`HostError::write_limit`],
    /// which ends the call.
    pub fn with_write_limit(max_write_bytes: u64) -> EffectLog {
        EffectLog {
            effects: Vec::new(),
            taken: 0,
            bindings: HashMap::new(),
            created: 0,
            written: Arc::new(AtomicU64::new(0)),
            max_write_bytes,
            limit_reached: false,
        }
    }

    /// The write limit if a write was refused for passing it since the last time this
    /// was asked.
    pub fn take_write_limit(&mut self) -> Option<u64> {
        std::mem::take(&mut self.limit_reached).then_some(self.max_write_bytes)
    }

    /// The recorded effects, in call order.
    pub fn effects(&self) -> &[Effect] {
        &self.effects
    }

    /// Takes the recorded effects out of the log; they still count for
    /// [`recorded`](Self::recorded).
    pub fn take(&mut self) -> Vec<Effect> {
        self.taken += self.effects.len() as u64;
        std::mem::take(&mut self.effects)
    }

    /// How many effects this log recorded, those taken out included.
    pub fn recorded(&self) -> u64 {
        self.taken + self.effects.len() as u64
    }

    /// An empty log for another thread of the same run, numbering its created
    /// items after this log's and `offset` more, so that their keys do not
    /// collide with this log's or with other branches' (as long as each
    /// creates fewer than the offsets between them).
    pub fn branch(&self, offset: u64) -> EffectLog {
        EffectLog {
            effects: Vec::new(),
            taken: 0,
            bindings: HashMap::new(),
            created: self.created.saturating_add(offset),
            written: Arc::clone(&self.written),
            max_write_bytes: self.max_write_bytes,
            limit_reached: false,
        }
    }

    /// How many items the run's writes created so far (the last `NEW…` key's number).
    pub fn created(&self) -> u64 {
        self.created
    }

    /// Notes that the run's writes have created items up to number `created`.
    pub fn set_created(&mut self, created: u64) {
        self.created = self.created.max(created);
    }

    /// The reply a write bound to `operation_id` got, if any.
    pub fn bound(&self, operation_id: &str) -> Option<&Value> {
        self.bindings.get(operation_id).map(|b| &b.reply)
    }

    /// The reply of a write repeating the one `operation_id` is bound to (the same
    /// member and request, the call-control argument aside, keys in any order).
    pub fn replayed(&self, member: &str, args: &Value, operation_id: &str) -> Option<Value> {
        let request = args.get(0).unwrap_or(&Value::Null);
        self.bindings
            .get(operation_id)
            .filter(|bound| {
                bound.member == member
                    && without_file_sources(&bound.request) == without_file_sources(request)
            })
            .map(|bound| bound.reply.clone())
    }

    /// The `conflict` error (recorded as a refused attempt) when `operation_id` is
    /// bound to another write than this one.
    pub fn refuse_if_bound(
        &mut self,
        site: &CallSite,
        member: &str,
        args: &Value,
        operation_id: &str,
    ) -> Result<(), HostError> {
        if !self.bindings.contains_key(operation_id)
            || self.replayed(member, args, operation_id).is_some()
        {
            return Ok(());
        }
        let error = conflict();
        self.refused(site, member, args.clone(), error.to_json());
        Err(error)
    }

    /// Records a write and the reply it got, binding `operation_id` to it; fails
    /// with [`HostError::write_limit`] when it would pass the run's write limit.
    pub fn commit(
        &mut self,
        site: &CallSite,
        member: &str,
        args: Value,
        operation_id: Option<String>,
        reply: Value,
    ) -> Result<(), HostError> {
        self.count(member, &args)?;
        if let Some(id) = operation_id {
            let binding = Binding {
                member: member.to_string(),
                request: args.get(0).cloned().unwrap_or(Value::Null),
                reply: reply.clone(),
            };
            self.bindings.insert(id, binding);
        }
        self.push(site, member, args, reply, None);
        Ok(())
    }

    /// Records a product registration, its receipt and the record kept, like
    /// [`commit`](Self::commit) without an `operationId`.
    pub fn commit_product(
        &mut self,
        site: &CallSite,
        member: &str,
        args: Value,
        receipt: Value,
        record: Value,
    ) -> Result<(), HostError> {
        self.commit(site, member, args, None, receipt)?;
        if let Some(effect) = self.effects.last_mut() {
            effect.product = Some(record);
        }
        Ok(())
    }

    /// The write limit's error for `member`, whose files would make the run hold
    /// `observed` bytes; ends the call like a write past the limit.
    pub fn past_limit(&mut self, member: &str, observed: u64) -> HostError {
        self.limit_reached = true;
        HostError::write_limit(member, self.max_write_bytes, observed)
    }

    /// The run's write limit, in bytes.
    pub fn max_write_bytes(&self) -> u64 {
        self.max_write_bytes
    }

    /// Records a call the host refused with `error`. Its arguments count against
    /// the write limit like a write's: a record past the limit is not kept, and the
    /// call ends as a write past it does.
    pub fn refused(&mut self, site: &CallSite, member: &str, args: Value, error: Value) {
        let size = json_len(&error);
        if self.count(member, &args).is_ok() && self.count_bytes(member, size).is_ok() {
            self.push(site, member, args, Value::Null, Some(error));
        }
    }

    /// Counts what recording `args` holds against the write limit.
    fn count(&mut self, member: &str, args: &Value) -> Result<(), HostError> {
        self.count_bytes(member, json_len(args))
    }

    fn count_bytes(&mut self, member: &str, size: u64) -> Result<(), HostError> {
        let before = self.written.fetch_add(size, Ordering::Relaxed);
        if before + size > self.max_write_bytes {
            self.written.fetch_sub(size, Ordering::Relaxed);
            self.limit_reached = true;
            return Err(HostError::write_limit(
                member,
                self.max_write_bytes,
                before + size,
            ));
        }
        Ok(())
    }

    fn push(
        &mut self,
        site: &CallSite,
        member: &str,
        args: Value,
        result: Value,
        error: Option<Value>,
    ) {
        self.effects.push(Effect {
            seq: self.recorded() + 1,
            unit_id: site.unit_id.clone(),
            hook: site.hook.clone(),
            call: member.to_string(),
            args,
            result,
            error,
            product: None,
        });
    }
}

/// The bytes `value` takes as JSON, counted without building the text.
fn json_len(value: &Value) -> u64 {
    struct Count(u64);
    impl std::io::Write for Count {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0 += bytes.len() as u64;
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let mut count = Count(0);
    // Writing a `Value` into a counter cannot fail.
    let _ = serde_json::to_writer(&mut count, value);
    count.0
}

/// The reference host's error for an `operationId` already bound to another write: its
/// broker's `ZoteroHostCapabilityError`, code `conflict`, never retryable.
fn conflict() -> HostError {
    HostError::capability(
        "conflict",
        "operationId is already bound to different semantic input",
        json!({"reason": "idempotency_conflict"}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> CallSite {
        CallSite {
            unit_id: "unit-1".into(),
            hook: "applyResult".into(),
        }
    }

    fn note(id: &str, html: &str) -> Value {
        json!([{"operationId": id, "parentRef": {"libraryId": 1, "key": "PARENT01"},
                "content": {"format": "html", "value": html}}])
    }

    #[test]
    fn writes_are_recorded_in_order_and_bound_to_their_operation_id() {
        let mut log = EffectLog::default();
        log.commit(
            &site(),
            "notes.create",
            note("op-1", "a"),
            Some("op-1".into()),
            json!({"outcome": "committed"}),
        )
        .unwrap();
        log.commit(
            &site(),
            "file.writeText",
            json!(["a.md", "x"]),
            None,
            Value::Null,
        )
        .unwrap();
        let calls: Vec<_> = log
            .effects()
            .iter()
            .map(|e| (e.seq, e.call.as_str()))
            .collect();
        assert_eq!(calls, [(1, "notes.create"), (2, "file.writeText")]);
        assert_eq!(log.bound("op-1"), Some(&json!({"outcome": "committed"})));
        assert_eq!(log.effects()[0].unit_id, "unit-1");
    }

    /// The reference host binds an id to its first write (member and request, the
    /// call-control argument aside, keys in any order) and refuses any other.
    #[test]
    fn a_repeated_id_replays_and_an_id_bound_to_another_write_is_a_conflict() {
        let mut log = EffectLog::default();
        log.commit(
            &site(),
            "notes.create",
            note("op", "a"),
            Some("op".into()),
            json!({"first": true}),
        )
        .unwrap();
        let reordered = json!([{"content": {"value": "a", "format": "html"},
            "parentRef": {"key": "PARENT01", "libraryId": 1}, "operationId": "op"}, {"signal": 1}]);
        assert_eq!(
            log.replayed("notes.create", &reordered, "op"),
            Some(json!({"first": true}))
        );
        for (member, args) in [
            ("notes.create", note("op", "b")),
            ("statusTags.transition", json!([{"operationId": "op"}])),
        ] {
            assert_eq!(log.replayed(member, &args, "op"), None);
            let err = log
                .refuse_if_bound(&site(), member, &args, "op")
                .unwrap_err();
            assert_eq!(err.name, "ZoteroHostCapabilityError");
            assert_eq!(
                err.message,
                "operationId is already bound to different semantic input"
            );
            assert_eq!(err.fields["code"], "conflict");
            assert_eq!(
                err.fields["details"],
                json!({"reason": "idempotency_conflict"})
            );
        }
        assert!(
            log.refuse_if_bound(&site(), "notes.create", &note("new", "a"), "new")
                .is_ok()
        );
        let effects = log.effects();
        assert_eq!(effects.len(), 3);
        assert!(effects[1..].iter().all(
            |e| e.result.is_null() && e.error.as_ref().is_some_and(|e| e["code"] == "conflict")
        ));
    }

    #[test]
    fn a_write_past_the_limit_is_refused_and_not_recorded() {
        let mut log = EffectLog::with_write_limit(10);
        let err = log
            .commit(
                &site(),
                "file.writeText",
                json!(["a.md", "0123456789"]),
                None,
                Value::Null,
            )
            .unwrap_err();
        assert_eq!(err.fields["code"], "resource_limited");
        assert!(log.effects().is_empty());
        assert_eq!(log.take_write_limit(), Some(10));
    }

    #[test]
    fn refused_calls_count_against_the_write_limit_too() {
        let mut log = EffectLog::with_write_limit(200);
        let error = json!({"code": "interaction_required"});
        log.refused(
            &site(),
            "notifications.toast",
            json!(["short"]),
            error.clone(),
        );
        assert_eq!(log.effects().len(), 1);
        assert_eq!(log.take_write_limit(), None);
        let long = "x".repeat(300);
        log.refused(&site(), "notifications.toast", json!([long]), error);
        assert_eq!(
            log.effects().len(),
            1,
            "a record past the limit is not kept"
        );
        assert_eq!(log.take_write_limit(), Some(200), "and it ends the call");
        let err = log
            .commit(
                &site(),
                "file.writeText",
                json!(["a", "0123456789".repeat(16)]),
                None,
                Value::Null,
            )
            .unwrap_err();
        assert_eq!(
            err.fields["code"], "resource_limited",
            "refusals used the room"
        );
    }
}
