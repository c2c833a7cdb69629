//! The world's records by their ref and by their grouped id, found through the
//! records themselves (a world of 200,000 items keeps each ref once, in its
//! record, instead of a second copy as a map key), and each record's children.

use std::hash::{BuildHasher, Hash, RandomState};
use std::marker::PhantomData;

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;

use super::record::Record;
use crate::selection::PortableItemRef;

/// What an [`Index`] finds records by.
pub(super) trait Keyed {
    /// The key.
    type Key: Hash + Eq;

    /// `record`'s key, if it has one.
    fn key(record: &Record) -> Option<&Self::Key>;
}

/// Records by their ref.
#[derive(Debug, Clone, Default)]
pub(super) struct ByRef;

impl Keyed for ByRef {
    type Key = PortableItemRef;

    fn key(record: &Record) -> Option<&PortableItemRef> {
        record.reference.as_ref()
    }
}

/// Records by their grouped id.
#[derive(Debug, Clone, Default)]
pub(super) struct ById;

impl Keyed for ById {
    type Key = i64;

    fn key(record: &Record) -> Option<&i64> {
        record.id.as_ref()
    }
}

/// Indexes of records, each found by the key its record holds.
#[derive(Debug, Clone, Default)]
pub(super) struct Index<K> {
    table: HashTable<u32>,
    hasher: RandomState,
    by: PhantomData<K>,
}

/// The records by their ref.
pub(super) type RefIndex = Index<ByRef>;
/// The records by their grouped id.
pub(super) type IdIndex = Index<ById>;

impl<K: Keyed> Index<K> {
    /// The key record `i` holds, if any.
    fn key_of(records: &[Record], i: u32) -> Option<&K::Key> {
        records.get(i as usize).and_then(K::key)
    }

    /// Room for `additional` more keys.
    pub(super) fn reserve(&mut self, additional: usize, records: &[Record]) {
        let hasher = &self.hasher;
        self.table
            .reserve(additional, |i| hasher.hash_one(Self::key_of(records, *i)));
    }

    /// The record with `key`, the first one listed under it.
    pub(super) fn get(&self, key: &K::Key, records: &[Record]) -> Option<usize> {
        let hash = self.hasher.hash_one(Some(key));
        self.table
            .find(hash, |i| Self::key_of(records, *i) == Some(key))
            .map(|i| *i as usize)
    }

    /// Whether a record has `key`.
    pub(super) fn contains(&self, key: &K::Key, records: &[Record]) -> bool {
        self.get(key, records).is_some()
    }

    /// Lists record `i` under its key, unless a record is listed under it
    /// already (the first one keeps it).
    pub(super) fn insert(&mut self, i: usize, records: &[Record]) {
        let Ok(i) = u32::try_from(i) else {
            return;
        };
        let Some(key) = Self::key_of(records, i) else {
            return;
        };
        let hasher = &self.hasher;
        let hash = hasher.hash_one(Some(key));
        let listed = |j: &u32| Self::key_of(records, *j) == Some(key);
        let rehash = |j: &u32| hasher.hash_one(Self::key_of(records, *j));
        if let Entry::Vacant(slot) = self.table.entry(hash, listed, rehash) {
            slot.insert(i);
        }
    }

    /// Lists no record.
    pub(super) fn clear(&mut self) {
        self.table.clear();
    }
}

/// No record.
const NONE: u32 = u32::MAX;

/// Where a record stands among its parent's children and where its own are.
#[derive(Debug, Clone, Copy)]
struct Links {
    parent: u32,
    first: u32,
    last: u32,
    next: u32,
}

impl Default for Links {
    fn default() -> Self {
        Self {
            parent: NONE,
            first: NONE,
            last: NONE,
            next: NONE,
        }
    }
}

/// Each record's children in record order, as lists threaded through the
/// records' numbers: 16 bytes a record, where a map of vectors takes
/// about 40 a parent and an allocation.
#[derive(Debug, Clone, Default)]
pub(super) struct ChildIndex {
    links: Vec<Links>,
}

impl ChildIndex {
    /// Lists no child.
    pub(super) fn clear(&mut self) {
        self.links.clear();
    }

    fn links(&mut self, i: u32) -> &mut Links {
        let at = i as usize;
        if self.links.len() <= at {
            self.links.resize(at + 1, Links::default());
        }
        &mut self.links[at]
    }

    fn get(&self, i: u32) -> Links {
        self.links.get(i as usize).copied().unwrap_or_default()
    }

    /// Lists record `child` under record `parent`, in record order (once;
    /// taken from another parent's list first).
    pub(super) fn insert(&mut self, parent: usize, child: usize) {
        let (Ok(p), Ok(c)) = (u32::try_from(parent), u32::try_from(child)) else {
            return;
        };
        if p == NONE || c == NONE || self.get(c).parent == p {
            return;
        }
        self.remove(child);
        let Links { first, last, .. } = self.get(p);
        self.links(c).parent = p;
        if last == NONE {
            let links = self.links(p);
            (links.first, links.last) = (c, c);
        } else if c > last {
            self.links(last).next = c;
            self.links(p).last = c;
        } else if c < first {
            self.links(c).next = first;
            self.links(p).first = c;
        } else {
            // Between two children: after the last one before it.
            let mut before = first;
            while self.get(before).next < c {
                before = self.get(before).next;
            }
            let after = self.get(before).next;
            self.links(c).next = after;
            self.links(before).next = c;
        }
    }

    /// Takes record `child` out of its parent's list.
    pub(super) fn remove(&mut self, child: usize) {
        let Ok(c) = u32::try_from(child) else {
            return;
        };
        let Links {
            parent: p, next, ..
        } = self.get(c);
        if p == NONE {
            return;
        }
        let Links { first, last, .. } = self.get(p);
        let mut before = NONE;
        if first != c {
            before = first;
            while before != NONE && self.get(before).next != c {
                before = self.get(before).next;
            }
            if before == NONE {
                return;
            }
            self.links(before).next = next;
        } else {
            self.links(p).first = next;
        }
        if last == c {
            self.links(p).last = before;
        }
        let links = self.links(c);
        (links.parent, links.next) = (NONE, NONE);
    }

    /// The children of record `parent`, in record order.
    pub(super) fn of(&self, parent: usize) -> impl Iterator<Item = usize> + '_ {
        let first = u32::try_from(parent).map_or(NONE, |p| self.get(p).first);
        std::iter::successors(Some(first).filter(|c| *c != NONE), |c| {
            Some(self.get(*c).next).filter(|n| *n != NONE)
        })
        .map(|c| c as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(key: &str) -> Record {
        Record {
            reference: Some(PortableItemRef {
                library_id: 1,
                key: key.to_owned(),
            }),
            ..Record::default()
        }
    }

    fn key(k: &str) -> PortableItemRef {
        PortableItemRef {
            library_id: 1,
            key: k.to_owned(),
        }
    }

    #[test]
    fn the_first_record_of_a_ref_keeps_it_and_growing_keeps_every_ref() {
        let mut records: Vec<Record> = Vec::new();
        let mut index = RefIndex::default();
        for i in 0..1_000 {
            records.push(record(&format!("K{i}")));
            index.insert(records.len() - 1, &records);
        }
        records.push(record("K7"));
        index.insert(records.len() - 1, &records);
        records.push(Record::default());
        index.insert(records.len() - 1, &records);
        assert_eq!(index.get(&key("K7"), &records), Some(7));
        assert_eq!(index.get(&key("K999"), &records), Some(999));
        assert!(!index.contains(&key("K1000"), &records));
        assert!(!index.contains(
            &PortableItemRef {
                library_id: 2,
                key: "K7".into()
            },
            &records
        ));
        index.clear();
        assert_eq!(index.get(&key("K7"), &records), None);
    }

    #[test]
    fn ids_find_the_first_record_listed_under_them() {
        let records: Vec<Record> = [Some(7), None, Some(9), Some(7)]
            .into_iter()
            .map(|id| Record {
                id,
                ..Record::default()
            })
            .collect();
        let mut index = IdIndex::default();
        index.reserve(records.len(), &records);
        for i in 0..records.len() {
            index.insert(i, &records);
        }
        assert_eq!(index.get(&7, &records), Some(0));
        assert_eq!(index.get(&9, &records), Some(2));
        assert_eq!(index.get(&8, &records), None);
    }

    #[test]
    fn children_stay_in_record_order_whatever_order_they_come_in() {
        let mut children = ChildIndex::default();
        let listed = |c: &ChildIndex, p| c.of(p).collect::<Vec<_>>();
        for child in [5, 3, 9, 4, 7, 3, 1] {
            children.insert(2, child);
        }
        assert_eq!(listed(&children, 2), [1, 3, 4, 5, 7, 9]);
        assert_eq!(listed(&children, 0), Vec::<usize>::new());
        assert_eq!(listed(&children, 100), Vec::<usize>::new());
        // Moved: out of one list, into the other.
        children.insert(8, 4);
        assert_eq!(listed(&children, 2), [1, 3, 5, 7, 9]);
        assert_eq!(listed(&children, 8), [4]);
        // First, middle and last taken out; the list still grows at its end.
        for child in [1, 5, 9] {
            children.remove(child);
        }
        assert_eq!(listed(&children, 2), [3, 7]);
        children.insert(2, 11);
        children.insert(2, 0);
        assert_eq!(listed(&children, 2), [0, 3, 7, 11]);
        children.remove(6);
        children.clear();
        assert_eq!(listed(&children, 2), Vec::<usize>::new());
    }
}
