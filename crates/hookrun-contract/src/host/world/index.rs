//! The world's records by their ref, found through the records themselves: a
//! world of 200,000 items keeps each ref once, in its record, instead of a
//! second copy as a map key.

use std::hash::{BuildHasher, RandomState};

use hashbrown::HashTable;
use hashbrown::hash_table::Entry;

use super::record::Record;
use crate::selection::PortableItemRef;

/// Indexes of records, each found by the ref its record holds.
#[derive(Debug, Clone, Default)]
pub(super) struct RefIndex {
    table: HashTable<usize>,
    hasher: RandomState,
}

/// The ref record `i` holds, if any.
fn ref_of(records: &[Record], i: usize) -> Option<&PortableItemRef> {
    records.get(i).and_then(|r| r.reference.as_ref())
}

impl RefIndex {
    /// Room for `additional` more refs.
    pub(super) fn reserve(&mut self, additional: usize, records: &[Record]) {
        let hasher = &self.hasher;
        self.table
            .reserve(additional, |i| hasher.hash_one(ref_of(records, *i)));
    }

    /// The record with `reference`, the first one listed under it.
    pub(super) fn get(&self, reference: &PortableItemRef, records: &[Record]) -> Option<usize> {
        let hash = self.hasher.hash_one(Some(reference));
        self.table
            .find(hash, |i| ref_of(records, *i) == Some(reference))
            .copied()
    }

    /// Whether a record has `reference`.
    pub(super) fn contains(&self, reference: &PortableItemRef, records: &[Record]) -> bool {
        self.get(reference, records).is_some()
    }

    /// Lists record `i` under its ref, unless a record is listed under it
    /// already (the first one keeps it).
    pub(super) fn insert(&mut self, i: usize, records: &[Record]) {
        let Some(reference) = ref_of(records, i) else {
            return;
        };
        let hasher = &self.hasher;
        let hash = hasher.hash_one(Some(reference));
        let listed = |j: &usize| ref_of(records, *j) == Some(reference);
        let rehash = |j: &usize| hasher.hash_one(ref_of(records, *j));
        if let Entry::Vacant(slot) = self.table.entry(hash, listed, rehash) {
            slot.insert(i);
        }
    }

    /// Lists no record.
    pub(super) fn clear(&mut self) {
        self.table.clear();
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
}
