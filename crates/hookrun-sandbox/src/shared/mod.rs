//! Values that recur across the calls of one runtime ([`Call::shared`](super::Call::shared)).
//!
//! A shared value crosses into the engine once: the engine keeps it, deeply
//! frozen, under an id. A part of a later argument equal to it (same keys in the
//! same order, same values) crosses as a hole the prelude fills with the kept
//! object, and a result that returns the kept object crosses back as a marker
//! the host replaces with its own copy. So a unit's selection, handed to three
//! hooks and echoed in requests and results, is written, read and frozen once
//! instead of at every crossing.
//!
//! A copied value ([`Call::copied`](super::Call::copied): a manifest) is kept
//! the same way but as a template: not frozen, never handed out, and each hole
//! it fills gets a fresh copy the engine makes natively. No result can return
//! the template, so copies cross back by value.
//!
//! The [`Keeper`] mirrors the engine's table: which values it holds under
//! which id. It holds the caller's `Arc` of each kept value, so a value is
//! recognised by its address (which cannot be reused while it is held); a
//! caller that hands the same `Arc` again gets the kept object, a new `Arc`
//! crosses and is kept anew. A value whose last other `Arc` the caller dropped
//! can never be shared again: the engine lets go of it when the next value is
//! kept. Beyond [`CAPACITY`] values, or the keeper's byte budget (a share of the
//! heap cap, see [`Keeper::new`]), the least recently used go too, and a value
//! larger than the whole budget is never kept: kept values must not crowd out
//! the calls' own heap.
//! Markers carry a per-runtime secret, so no hook can forge one.

use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasher, RandomState};
use std::sync::Arc;

use serde_json::Value;

use crate::Placed;

mod search;

pub(crate) use search::same;
use search::{Candidates, Step, big, find, measure};

/// Kept values per runtime; older ones are dropped, and cross again when used.
pub(crate) const CAPACITY: usize = 512;

/// Values with fewer JSON nodes are not worth keeping: they cross as they are.
pub(crate) const MIN_NODES: usize = 8;

/// Values nested deeper are not kept (freezing them recurses), nor returned
/// by reference deeper than the output's own limit.
pub(crate) const MAX_DEPTH: usize = 64;

/// Paths to holes the engine knows by number; past this many the table
/// starts over (paths come from arguments, and results a hook shaped).
pub(crate) const PATH_CAPACITY: usize = 1024;

/// The address that names a kept value while the keeper holds it.
type Address = *const Value;

/// What the engine holds of one kept value.
struct Entry {
    id: u32,
    /// While it is held, no other value can have its address; once it is the
    /// only `Arc` left, the value is dead.
    held: Arc<Value>,
    /// The call that last used it.
    used: u64,
    /// What it weighs against the budget ([`Measure::weight`]).
    weight: usize,
}

/// The size of a shared value, as the prelude weighs a returned reference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Measure {
    /// JSON nodes.
    pub nodes: usize,
    /// The length of its JSON text.
    pub bytes: usize,
    /// Nesting of objects and arrays (a scalar is 0).
    pub depth: usize,
    /// Whether the engine writes it back exactly as the host has it: no key
    /// the engine orders as an array index, no float (`1.0` comes back as
    /// `1`), no integer beyond 2^53. Only such values are kept, so a result
    /// is the same whether it crossed back by reference or by value.
    pub canonical: bool,
}

impl Measure {
    /// What the value weighs against the keeper's budget: its JSON text and
    /// about what the engine spends per value besides.
    fn weight(&self) -> usize {
        self.bytes + 40 * self.nodes
    }
}

/// What one call tells the engine about kept values.
#[derive(Debug, Default)]
pub(crate) struct Sharing<'v> {
    /// Nodes of the argument (by address, sorted) that cross as `null`, to be
    /// filled.
    pub holes: Vec<*const Value>,
    /// Where kept values fill the holes.
    pub refs: Vec<Ref>,
    /// The number of each ref's path in the engine's table of paths.
    path_ids: Vec<u32>,
    /// Paths the engine does not know yet: their number, the ref that names
    /// them and their [`path_key`].
    new_paths: Vec<(u32, usize, Vec<u8>)>,
    /// Whether the engine's table of paths starts over before `new_paths`.
    clear_paths: bool,
    /// Values the engine does not hold yet.
    pub keep: Vec<Kept<'v>>,
    /// Ids the engine lets go of.
    pub drop: Vec<u32>,
    /// The values the call uses, with their id: a result may refer to these
    /// (and only these).
    used: Vec<(u32, &'v Arc<Value>)>,
}

/// A kept value in a hole of a call's argument.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Ref {
    /// The kept value's id.
    pub id: u32,
    /// Where the hole is: an array of keys and indexes (empty: the whole
    /// argument).
    pub path: Value,
}

/// A value the engine is to keep.
#[derive(Debug)]
pub(crate) struct Kept<'v> {
    /// Its id.
    pub id: u32,
    /// The value.
    pub value: &'v Arc<Value>,
    /// Its size.
    pub measure: Measure,
    /// Kept as a template each reference gets a fresh copy of
    /// ([`Call::copied`](crate::Call::copied)), neither frozen nor handed out.
    pub copied: bool,
}

/// A value a call may share: its `Arc`, its measure when the engine does not
/// keep it yet, and whether it is copied ([`Kept::copied`]).
type Candidate<'v> = (&'v Arc<Value>, Option<Measure>, bool);

impl Sharing<'_> {
    /// Whether the call involves no kept value at all.
    pub fn is_empty(&self) -> bool {
        self.refs.is_empty() && self.drop.is_empty()
    }

    /// The description the prelude reads, which crosses before the values to
    /// keep (in `keep` order) and the [`new_paths`](Self::new_paths).
    ///
    /// It is one array of integers, so that it crosses as little more than
    /// its bytes: `clear` (1 when the table of paths starts over), then a
    /// count and that many groups of each of these in turn: new paths
    /// `[number]`, refs `[id, path number]`, kept values `[id, bytes, depth,
    /// copied]` and dropped ids `[id]`. A result may refer to the values the
    /// refs name, and to no other.
    pub fn describe(&self) -> Value {
        let mut ints: Vec<u64> = vec![u64::from(self.clear_paths)];
        ints.push(self.new_paths.len() as u64);
        ints.extend(self.new_paths.iter().map(|(number, ..)| u64::from(*number)));
        ints.push(self.refs.len() as u64);
        for (r, path_id) in self.refs.iter().zip(&self.path_ids) {
            ints.extend([u64::from(r.id), u64::from(*path_id)]);
        }
        ints.push(self.keep.len() as u64);
        for k in &self.keep {
            let m = &k.measure;
            ints.extend([
                u64::from(k.id),
                m.bytes as u64,
                m.depth as u64,
                u64::from(k.copied),
            ]);
        }
        ints.push(self.drop.len() as u64);
        ints.extend(self.drop.iter().map(|id| u64::from(*id)));
        Value::Array(ints.into_iter().map(Value::from).collect())
    }

    /// The paths the engine does not know yet, in the description's order:
    /// each an array of keys and indexes.
    pub fn new_paths(&self) -> impl Iterator<Item = &Value> {
        self.new_paths.iter().map(|(_, at, _)| &self.refs[*at].path)
    }

    /// Replaces every reference in a call's result to a value the call used
    /// with a copy of it. `count` is how many the prelude wrote, after
    /// `marker`; a reference to any other id (it cannot happen) becomes `null`.
    pub fn resolve(&self, value: &mut Value, count: usize, marker: &str) {
        let mut left = count;
        self.resolve_in(value, &mut left, marker);
    }

    fn resolve_in(&self, value: &mut Value, left: &mut usize, marker: &str) {
        if *left == 0 {
            return;
        }
        match value {
            Value::String(text) => {
                if let Some(id) = text.strip_prefix(marker) {
                    *left -= 1;
                    let id = id.parse::<u32>().ok();
                    *value = self
                        .used
                        .iter()
                        .find(|(used, _)| Some(*used) == id)
                        .map_or(Value::Null, |(_, v)| Value::clone(v));
                }
            }
            Value::Array(items) => items
                .iter_mut()
                .for_each(|v| self.resolve_in(v, left, marker)),
            Value::Object(members) => members
                .values_mut()
                .for_each(|v| self.resolve_in(v, left, marker)),
            _ => {}
        }
    }
}

/// The host's mirror of the values one engine keeps.
pub(crate) struct Keeper {
    /// The most the values kept at once may weigh ([`Measure::weight`]).
    budget: usize,
    /// What the values kept now weigh.
    kept_bytes: usize,
    entries: HashMap<Address, Entry>,
    /// Addresses by the call that last used them, oldest first.
    by_use: BTreeMap<u64, Vec<Address>>,
    next_id: u32,
    calls: u64,
    /// The paths the engine knows, by [`path_key`] ([`PATH_CAPACITY`]).
    paths: HashMap<Vec<u8>, u32, foldhash::fast::RandomState>,
    /// What a returned reference starts with: NUL, the runtime's secret, `:`.
    marker: String,
}

/// 128 bits from the operating system's random source (from a randomly keyed
/// hash, should that source fail).
fn secret() -> u128 {
    let mut bytes = [0u8; 16];
    match getrandom::fill(&mut bytes) {
        Ok(()) => u128::from_le_bytes(bytes),
        Err(_) => {
            let keyed = RandomState::new();
            (u128::from(keyed.hash_one(0u8)) << 64) | u128::from(keyed.hash_one(1u8))
        }
    }
}

impl Keeper {
    /// An empty table with a fresh secret, keeping values that weigh at most
    /// `budget` ([`Measure::weight`]: JSON bytes and 40 per value) at once.
    pub fn new(budget: usize) -> Keeper {
        Keeper {
            budget,
            kept_bytes: 0,
            entries: HashMap::new(),
            by_use: BTreeMap::new(),
            next_id: 1,
            calls: 0,
            paths: HashMap::default(),
            marker: format!("\u{0}{:032x}:", secret()),
        }
    }

    /// The prefix of a returned reference, which the prelude is configured with.
    pub fn marker(&self) -> &str {
        &self.marker
    }

    /// What crossing `arg` (with its `placed` members) with `shared` and
    /// `copied` takes: the parts of `arg` equal to one of them become holes,
    /// and the values the engine lacks are kept. A value in both is shared.
    /// Nothing changes until [`commit`](Self::commit).
    pub fn plan<'v>(
        &self,
        arg: &'v Value,
        placed: Placed<'v>,
        shared: &'v [Arc<Value>],
        copied: &'v [Arc<Value>],
    ) -> Sharing<'v> {
        let mut sharing = Sharing::default();
        let candidates = self.candidates(shared, copied);
        if candidates.is_empty() {
            return sharing;
        }
        let mut found = Vec::new();
        let values: Vec<&Value> = candidates.iter().map(|(value, ..)| &***value).collect();
        let lookup = Candidates::new(&values);
        match arg {
            Value::Object(members) if !placed.is_empty() => {
                for (key, value) in crate::crossing::members_placing(members, placed) {
                    find(value, &lookup, &mut vec![Step::Key(key)], &mut found);
                }
            }
            _ => find(arg, &lookup, &mut Vec::new(), &mut found),
        }
        let mut next_id = self.next_id;
        for (node, path, index) in found {
            let id = self.id_of(&mut sharing, &mut next_id, candidates[index]);
            sharing.holes.push(node);
            sharing.refs.push(Ref {
                id,
                path: Value::Array(path),
            });
        }
        sharing.holes.sort_unstable();
        if !sharing.refs.is_empty() {
            sharing.drop = self.drops(&sharing);
            self.number_paths(&mut sharing);
        }
        sharing
    }

    /// The values of `shared` and `copied` the engine keeps or may keep, each
    /// once: kept ones, and those worth keeping that fit the budget, with
    /// their measure.
    fn candidates<'v>(
        &self,
        shared: &'v [Arc<Value>],
        copied: &'v [Arc<Value>],
    ) -> Vec<Candidate<'v>> {
        let mut candidates: Vec<Candidate<'v>> = Vec::new();
        let flagged = shared
            .iter()
            .map(|v| (v, false))
            .chain(copied.iter().map(|v| (v, true)));
        for (value, copy) in flagged {
            if candidates.iter().any(|(seen, ..)| Arc::ptr_eq(seen, value)) {
                continue;
            }
            if self.entries.contains_key(&Arc::as_ptr(value)) {
                candidates.push((value, None, copy));
            } else if big(value) {
                let measure = measure(value);
                if measure.canonical
                    && measure.depth <= MAX_DEPTH
                    && measure.weight() <= self.budget
                {
                    candidates.push((value, Some(measure), copy));
                }
            }
        }
        candidates
    }

    /// The id `candidate` fills a hole with: the one this call already uses
    /// it under, the one the engine keeps it under, or the next new id
    /// (`next_id`), the value then kept by this call.
    fn id_of<'v>(
        &self,
        sharing: &mut Sharing<'v>,
        next_id: &mut u32,
        (candidate, measured, copied): Candidate<'v>,
    ) -> u32 {
        if let Some((id, _)) = sharing.used.iter().find(|(_, v)| Arc::ptr_eq(v, candidate)) {
            return *id;
        }
        let id = match self.entries.get(&Arc::as_ptr(candidate)) {
            Some(entry) => entry.id,
            None => {
                let id = *next_id;
                *next_id += 1;
                let measure = measured.unwrap_or_else(|| measure(candidate));
                sharing.keep.push(Kept {
                    id,
                    value: candidate,
                    measure,
                    copied,
                });
                id
            }
        };
        sharing.used.push((id, candidate));
        id
    }

    /// Numbers each ref's path: as the engine's table does, or anew (the
    /// table starting over when it would grow past [`PATH_CAPACITY`]).
    fn number_paths(&self, sharing: &mut Sharing<'_>) {
        let keys: Vec<Vec<u8>> = sharing.refs.iter().map(|r| path_key(&r.path)).collect();
        let mut missing: Vec<&Vec<u8>> = keys
            .iter()
            .filter(|k| !self.paths.contains_key(*k))
            .collect();
        missing.sort_unstable();
        missing.dedup();
        let missing = missing.len();
        sharing.clear_paths = missing > 0 && self.paths.len() + missing > PATH_CAPACITY;
        let first = if sharing.clear_paths {
            0
        } else {
            self.paths.len()
        };
        for (at, key) in keys.into_iter().enumerate() {
            let known = match sharing.clear_paths {
                true => None,
                false => self.paths.get(&key).copied(),
            };
            let fresh = || {
                sharing
                    .new_paths
                    .iter()
                    .find(|(.., text)| *text == key)
                    .map(|(number, ..)| *number)
            };
            let number = match known.or_else(fresh) {
                Some(number) => number,
                None => {
                    let number = (first + sharing.new_paths.len()) as u32;
                    sharing.new_paths.push((number, at, key));
                    number
                }
            };
            sharing.path_ids.push(number);
        }
    }

    /// The ids to let go of before `sharing` keeps its new values: every dead
    /// value, then the least recently used while more than [`CAPACITY`]
    /// values or the byte budget would be kept.
    fn drops(&self, sharing: &Sharing<'_>) -> Vec<u32> {
        let in_use =
            |address: &Address| sharing.used.iter().any(|(_, v)| Arc::as_ptr(v) == *address);
        let dead = |entry: &Entry| Arc::strong_count(&entry.held) == 1;
        let mut drop = Vec::new();
        let mut count = self.entries.len() + sharing.keep.len();
        let mut bytes = self.kept_bytes
            + sharing
                .keep
                .iter()
                .map(|k| k.measure.weight())
                .sum::<usize>();
        for entry in self.entries.values().filter(|entry| dead(entry)) {
            drop.push(entry.id);
            count -= 1;
            bytes -= entry.weight;
        }
        let oldest = self
            .by_use
            .values()
            .flatten()
            .filter(|address| !in_use(address))
            .filter_map(|address| self.entries.get(address))
            .filter(|entry| !dead(entry));
        for entry in oldest {
            if count <= CAPACITY && bytes <= self.budget {
                break;
            }
            drop.push(entry.id);
            count -= 1;
            bytes -= entry.weight;
        }
        drop
    }

    /// Records that the engine now holds what `sharing` kept and let go of
    /// what it dropped; call once the engine has been handed `sharing`.
    pub fn commit(&mut self, sharing: &Sharing<'_>) {
        if sharing.is_empty() {
            return;
        }
        self.calls += 1;
        if sharing.clear_paths {
            self.paths.clear();
        }
        for (number, _, text) in &sharing.new_paths {
            self.paths.insert(text.clone(), *number);
        }
        for id in &sharing.drop {
            let address = self
                .entries
                .iter()
                .find(|(_, entry)| entry.id == *id)
                .map(|(address, _)| *address);
            if let Some(address) = address
                && let Some(entry) = self.entries.remove(&address)
            {
                self.kept_bytes -= entry.weight;
                self.forget_use(entry.used, address);
            }
        }
        for &(id, value) in &sharing.used {
            let address = Arc::as_ptr(value);
            let entry = self.entries.entry(address).or_insert_with(|| {
                let weight = sharing
                    .keep
                    .iter()
                    .find(|k| k.id == id)
                    .map_or(0, |k| k.measure.weight());
                self.kept_bytes += weight;
                Entry {
                    id,
                    held: Arc::clone(value),
                    used: 0,
                    weight,
                }
            });
            let before = std::mem::replace(&mut entry.used, self.calls);
            self.next_id = self.next_id.max(id + 1);
            self.forget_use(before, address);
            self.by_use.entry(self.calls).or_default().push(address);
        }
    }

    fn forget_use(&mut self, used: u64, address: Address) {
        if let Some(addresses) = self.by_use.get_mut(&used) {
            addresses.retain(|a| *a != address);
            if addresses.is_empty() {
                self.by_use.remove(&used);
            }
        }
    }
}

/// A path's steps as bytes, each told apart from the next whatever it holds:
/// a key as `k`, its length and itself; an index as `i` and its value.
fn path_key(path: &Value) -> Vec<u8> {
    let mut key = Vec::with_capacity(64);
    for step in path.as_array().map(Vec::as_slice).unwrap_or_default() {
        match step {
            Value::String(name) => {
                key.push(b'k');
                key.extend_from_slice(&(name.len() as u64).to_le_bytes());
                key.extend_from_slice(name.as_bytes());
            }
            other => {
                key.push(b'i');
                key.extend_from_slice(&other.as_u64().unwrap_or(u64::MAX).to_le_bytes());
            }
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn selection(key: &str) -> Arc<Value> {
        Arc::new(
            json!({"selectionType": "attachment", "items": {"attachments": [
            {"item": {"key": key, "title": "Paper", "tags": []}}]},
            "warnings": [], "sampledAt": "2026-03-01"}),
        )
    }

    /// The refs as `[id, path]` arrays.
    fn refs(sharing: &Sharing<'_>) -> Vec<Value> {
        sharing.refs.iter().map(|r| json!([r.id, r.path])).collect()
    }

    #[test]
    fn equal_parts_become_holes_and_new_values_are_kept_once() {
        let keeper = Keeper::new(1 << 20);
        let shared = [selection("A")];
        let arg = json!({"selectionContext": *selection("A"), "request": {"copy": *selection("A")},
                         "other": *selection("B")});
        let sharing = keeper.plan(&arg, &[], &shared, &[]);
        assert_eq!(sharing.holes.len(), 2);
        assert_eq!(
            refs(&sharing),
            [
                json!([1, ["selectionContext"]]),
                json!([1, ["request", "copy"]])
            ]
        );
        assert_eq!(sharing.keep.len(), 1);
        assert!(sharing.drop.is_empty());
        assert!(
            sharing
                .holes
                .contains(&(&arg["selectionContext"] as *const Value))
        );
        assert!(sharing.holes.is_sorted());
    }

    #[test]
    fn placed_members_are_searched_in_place_of_their_stand_ins() {
        let keeper = Keeper::new(1 << 20);
        let shared = [selection("A")];
        let copy = json!({"copy": *selection("A")});
        // The stand-ins equal the shared value, the placed members decide.
        let arg = json!({"selectionContext": *selection("A"), "manifest": *selection("A"),
                         "request": null});
        let placed: &[(&str, &Value)] = &[
            ("selectionContext", &*shared[0]),
            ("manifest", &Value::Null),
            ("request", &copy),
        ];
        let sharing = keeper.plan(&arg, placed, &shared, &[]);
        assert_eq!(
            refs(&sharing),
            [
                json!([1, ["selectionContext"]]),
                json!([1, ["request", "copy"]])
            ]
        );
        let mut holes = vec![Arc::as_ptr(&shared[0]), &copy["copy"] as *const Value];
        holes.sort_unstable();
        assert_eq!(sharing.holes, holes);
    }

    #[test]
    fn a_kept_value_is_referred_to_without_crossing_again() {
        let mut keeper = Keeper::new(1 << 20);
        let shared = [selection("A")];
        let arg = json!({"selectionContext": *shared[0]});
        let first = keeper.plan(&arg, &[], &shared, &[]);
        keeper.commit(&first);
        let second = keeper.plan(&arg, &[], &shared, &[]);
        assert!(second.keep.is_empty());
        assert_eq!(refs(&second), [json!([1, ["selectionContext"]])]);
        // Equal content in another `Arc` is another value: it is kept anew.
        let again = [selection("A")];
        assert_eq!(keeper.plan(&arg, &[], &again, &[]).keep.len(), 1);
    }

    #[test]
    fn key_order_small_values_and_absent_values_are_not_shared() {
        let keeper = Keeper::new(1 << 20);
        let reordered = json!({"sampledAt": "2026-03-01", "warnings": [],
            "items": {"attachments": [{"item": {"key": "A", "title": "Paper", "tags": []}}]},
            "selectionType": "attachment"});
        let arg = json!({"a": reordered, "b": {"x": 1}});
        let shared = [selection("A"), Arc::new(json!({"x": 1}))];
        assert!(keeper.plan(&arg, &[], &shared, &[]).is_empty());
    }

    #[test]
    fn many_candidates_are_found_by_shape() {
        let keeper = Keeper::new(1 << 20);
        let shared: Vec<Arc<Value>> = (0..20).map(|i| selection(&format!("K{i}"))).collect();
        let arg = Value::Array(shared.iter().rev().map(|v| Value::clone(v)).collect());
        let sharing = keeper.plan(&arg, &[], &shared, &[]);
        assert_eq!(sharing.refs.len(), 20);
        assert_eq!(refs(&sharing)[0], json!([1, [0]]));
        assert_eq!(sharing.keep.len(), 20);
        assert!(Arc::ptr_eq(sharing.keep[0].value, &shared[19]));
    }

    #[test]
    fn the_whole_argument_can_be_a_kept_value() {
        let keeper = Keeper::new(1 << 20);
        let shared = [selection("A")];
        assert_eq!(
            refs(&keeper.plan(&shared[0], &[], &shared, &[])),
            [json!([1, []])]
        );
    }

    #[test]
    fn each_path_crosses_once_in_a_description_of_integers() {
        let mut keeper = Keeper::new(1 << 20);
        let shared = [selection("A")];
        let arg = json!({"selectionContext": *shared[0], "request": {"copy": *shared[0]}});
        let first = keeper.plan(&arg, &[], &shared, &[]);
        assert_eq!(
            first.new_paths().collect::<Vec<_>>(),
            [&json!(["selectionContext"]), &json!(["request", "copy"])]
        );
        keeper.commit(&first);
        let second = keeper.plan(&arg, &[], &shared, &[]);
        assert_eq!(second.new_paths().count(), 0);
        // No new paths; refs [1, path 0] and [1, path 1]; nothing kept or
        // dropped.
        assert_eq!(second.describe(), json!([0, 0, 2, 1, 0, 1, 1, 0, 0]));
    }

    #[test]
    fn the_table_of_paths_starts_over_when_full() {
        let mut keeper = Keeper::new(1 << 20);
        let shared = [selection("A")];
        for i in 0..PATH_CAPACITY {
            let arg = json!({ format!("k{i}"): *shared[0] });
            let sharing = keeper.plan(&arg, &[], &shared, &[]);
            assert!(!sharing.clear_paths);
            assert_eq!(sharing.path_ids, [i as u32]);
            keeper.commit(&sharing);
        }
        let again = json!({"k7": *shared[0]});
        let known = keeper.plan(&again, &[], &shared, &[]);
        assert_eq!((known.clear_paths, known.path_ids), (false, vec![7]));
        let over = json!({"k7": *shared[0], "new": *shared[0]});
        let sharing = keeper.plan(&over, &[], &shared, &[]);
        assert!(sharing.clear_paths);
        assert_eq!(sharing.path_ids, [0, 1]);
        assert_eq!(sharing.new_paths().count(), 2);
        keeper.commit(&sharing);
        assert_eq!(keeper.paths.len(), 2);
    }

    #[test]
    fn a_path_named_twice_in_one_call_takes_one_place_in_the_table() {
        let mut keeper = Keeper::new(1 << 20);
        let shared = [selection("A")];
        for i in 0..PATH_CAPACITY - 1 {
            let arg = json!({ format!("k{i}"): *shared[0] });
            let sharing = keeper.plan(&arg, &[], &shared, &[]);
            keeper.commit(&sharing);
        }
        let twice = Ref {
            id: 1,
            path: json!(["last"]),
        };
        let mut sharing = Sharing {
            refs: vec![twice.clone(), twice],
            ..Sharing::default()
        };
        keeper.number_paths(&mut sharing);
        assert!(!sharing.clear_paths);
        let last = (PATH_CAPACITY - 1) as u32;
        assert_eq!(sharing.path_ids, [last, last]);
        assert_eq!(sharing.new_paths().count(), 1);
    }

    #[test]
    fn the_least_recently_used_values_are_dropped_beyond_capacity() {
        let mut keeper = Keeper::new(1 << 20);
        let values: Vec<Arc<Value>> = (0..CAPACITY).map(|i| selection(&format!("K{i}"))).collect();
        for value in &values {
            let shared = [Arc::clone(value)];
            let sharing = keeper.plan(value, &[], &shared, &[]);
            keeper.commit(&sharing);
        }
        // The first is used again, so the second is the oldest.
        let again = [Arc::clone(&values[0])];
        let sharing = keeper.plan(&values[0], &[], &again, &[]);
        keeper.commit(&sharing);
        let fresh = [selection("new")];
        let sharing = keeper.plan(&fresh[0], &[], &fresh, &[]);
        assert_eq!(sharing.drop, [2]);
        keeper.commit(&sharing);
        assert_eq!(keeper.entries.len(), CAPACITY);
    }

    #[test]
    fn values_nobody_else_holds_are_dropped_when_the_next_is_kept() {
        let mut keeper = Keeper::new(1 << 20);
        let first = selection("A");
        let sharing = keeper.plan(&first, &[], std::slice::from_ref(&first), &[]);
        keeper.commit(&sharing);
        let kept = selection("B");
        let sharing = keeper.plan(&kept, &[], std::slice::from_ref(&kept), &[]);
        keeper.commit(&sharing);
        drop(first);
        let next = selection("C");
        let sharing = keeper.plan(&next, &[], std::slice::from_ref(&next), &[]);
        assert_eq!(sharing.drop, [1]);
        keeper.commit(&sharing);
        assert_eq!(keeper.entries.len(), 2);
    }

    #[test]
    fn the_byte_budget_bounds_what_is_kept() {
        let one = measure(&selection("K0")).weight();
        let mut keeper = Keeper::new(3 * one);
        let values: Vec<Arc<Value>> = (0..5).map(|i| selection(&format!("K{i}"))).collect();
        for value in &values {
            let sharing = keeper.plan(value, &[], std::slice::from_ref(value), &[]);
            keeper.commit(&sharing);
        }
        assert_eq!(keeper.entries.len(), 3);
        assert_eq!(keeper.kept_bytes, 3 * one);
        // A value larger than the whole budget is not kept: it crosses as it is.
        let mut small = Keeper::new(one - 1);
        assert!(small.plan(&values[0], &[], &values[..1], &[]).is_empty());
        let sharing = small.plan(&values[0], &[], &values[..1], &[]);
        small.commit(&sharing);
        assert!(small.entries.is_empty());
    }

    #[test]
    fn every_keeper_has_its_own_secret_marker() {
        let (a, b) = (Keeper::new(1 << 20), Keeper::new(1 << 20));
        assert_ne!(a.marker(), b.marker());
        for marker in [a.marker(), b.marker()] {
            let hex = marker
                .strip_prefix('\u{0}')
                .and_then(|m| m.strip_suffix(':'));
            assert!(hex.is_some_and(|h| h.len() == 32 && u128::from_str_radix(h, 16).is_ok()));
        }
    }

    #[test]
    fn references_resolve_to_copies_and_forged_markers_stay_strings() {
        let keeper = Keeper::new(1 << 20);
        let shared = [selection("A")];
        let sharing = keeper.plan(&shared[0], &[], &shared, &[]);
        let marker = format!("{}1", keeper.marker());
        let mut result = json!({"request": {"selectionContext": marker, "other": format!("{}2", keeper.marker())},
                                "forged": "\u{0}0000000000000000:1"});
        sharing.resolve(&mut result, 2, keeper.marker());
        assert_eq!(result["request"]["selectionContext"], *shared[0]);
        assert_eq!(result["request"]["other"], Value::Null);
        assert_eq!(result["forged"], json!("\u{0}0000000000000000:1"));
    }

    #[test]
    fn sizes_are_measured_for_the_output_limit() {
        let value = json!({"a": [1, "x\u{1}y"], "b": null});
        let m = measure(&value);
        assert_eq!((m.nodes, m.depth, m.canonical), (5, 2, true));
        assert_eq!(m.bytes, value.to_string().len());
    }

    #[test]
    fn values_the_engine_would_write_otherwise_are_not_kept() {
        let keeper = Keeper::new(1 << 20);
        let with = |member: Value| {
            let mut value = (*selection("A")).clone();
            value["extra"] = member;
            Arc::new(value)
        };
        for odd in [
            with(json!({"7": "index-like key"})),
            with(json!(1.0)),
            with(json!(-0.0)),
            with(json!(9_007_199_254_740_993_u64)),
        ] {
            assert!(!measure(&odd).canonical, "{odd}");
            assert!(
                keeper
                    .plan(&odd, &[], std::slice::from_ref(&odd), &[])
                    .is_empty(),
                "{odd}"
            );
        }
        let mut deep = json!("bottom");
        for _ in 0..MAX_DEPTH {
            deep = json!({"a": deep, "b": [1, 2, 3, 4, 5, 6, 7, 8]});
        }
        let deep = Arc::new(deep);
        assert!(
            keeper
                .plan(&deep, &[], std::slice::from_ref(&deep), &[])
                .is_empty()
        );
    }
}
