//! Sizing the values a call may share, and finding the parts of an argument
//! equal to one.

use std::collections::HashMap;

use serde_json::Value;

use super::{MIN_NODES, Measure};

/// Whether `value` has at least [`MIN_NODES`] nodes.
pub(super) fn big(value: &Value) -> bool {
    fn count(value: &Value, budget: &mut usize) {
        if *budget == 0 {
            return;
        }
        *budget -= 1;
        match value {
            Value::Array(items) => items.iter().for_each(|v| count(v, budget)),
            Value::Object(members) => members.values().for_each(|v| count(v, budget)),
            _ => {}
        }
    }
    let mut budget = MIN_NODES;
    count(value, &mut budget);
    budget == 0
}

/// The size of `value`.
pub(super) fn measure(value: &Value) -> Measure {
    fn walk(value: &Value, m: &mut Measure, depth: usize) {
        m.nodes += 1;
        m.depth = m.depth.max(depth);
        match value {
            Value::Number(n) => {
                let exact = n
                    .as_i64()
                    .or_else(|| n.as_u64().and_then(|u| i64::try_from(u).ok()));
                m.canonical &= exact.is_some_and(|i| i.unsigned_abs() <= 1 << 53);
            }
            Value::Array(items) => {
                m.depth = m.depth.max(depth + 1);
                items.iter().for_each(|v| walk(v, m, depth + 1));
            }
            Value::Object(members) => {
                m.depth = m.depth.max(depth + 1);
                for (key, item) in members {
                    m.canonical &= key.is_empty() || !key.bytes().all(|b| b.is_ascii_digit());
                    walk(item, m, depth + 1);
                }
            }
            _ => {}
        }
    }
    let mut m = Measure {
        nodes: 0,
        bytes: 0,
        depth: 0,
        canonical: true,
    };
    walk(value, &mut m, 0);
    // Once per kept value; its text is as long as what crossing it writes,
    // counted as it is written rather than kept.
    let mut counted = Counted(0);
    m.bytes = match serde_json::to_writer(&mut counted, value) {
        Ok(()) => counted.0,
        Err(_) => 0,
    };
    m
}

/// A writer that keeps only how many bytes were written to it.
struct Counted(usize);

impl std::io::Write for Counted {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0 += bytes.len();
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// One step into a value, borrowed while it is searched.
#[derive(Clone, Copy)]
pub(super) enum Step<'v> {
    Key(&'v str),
    Index(usize),
}

/// What tells values apart at a glance: object or array, length, first key.
type Shape<'v> = (bool, usize, Option<&'v str>);

fn shape(value: &Value) -> Shape<'_> {
    match value {
        Value::Object(members) => (
            true,
            members.len(),
            members.keys().next().map(String::as_str),
        ),
        Value::Array(items) => (false, items.len(), None),
        _ => (false, usize::MAX, None),
    }
}

/// A call's shared values, as the search looks them up: by scanning a few, by
/// shape when there are many (an aggregate's children), so that the search
/// stays linear in the argument's size.
pub(super) enum Candidates<'c> {
    Few(&'c [&'c Value]),
    Many(HashMap<Shape<'c>, Vec<(usize, &'c Value)>>),
}

impl<'c> Candidates<'c> {
    /// Up to this many are scanned.
    const FEW: usize = 8;

    pub(super) fn new(values: &'c [&'c Value]) -> Candidates<'c> {
        if values.len() <= Self::FEW {
            return Candidates::Few(values);
        }
        let mut index: HashMap<Shape<'c>, Vec<(usize, &'c Value)>> = HashMap::new();
        for (i, value) in values.iter().enumerate() {
            index.entry(shape(value)).or_default().push((i, value));
        }
        Candidates::Many(index)
    }

    /// The index of the candidate `value` equals, if any.
    fn matching(&self, value: &Value) -> Option<usize> {
        match self {
            Candidates::Few(values) => values.iter().position(|candidate| same(value, candidate)),
            Candidates::Many(index) => index.get(&shape(value)).and_then(|alike| {
                alike
                    .iter()
                    .find(|(_, candidate)| same(value, candidate))
                    .map(|(i, _)| *i)
            }),
        }
    }
}

/// Collects the nodes of `value` equal to a candidate, with their path (as
/// JSON: keys and indexes) and the candidate's index; does not look inside a
/// node it collected.
pub(super) fn find<'v>(
    value: &'v Value,
    candidates: &Candidates<'_>,
    path: &mut Vec<Step<'v>>,
    found: &mut Vec<(*const Value, Vec<Value>, usize)>,
) {
    let matched = match value {
        Value::Object(_) | Value::Array(_) => candidates.matching(value),
        _ => None,
    };
    if let Some(index) = matched {
        let json = path
            .iter()
            .map(|step| match step {
                Step::Key(key) => Value::from(*key),
                Step::Index(i) => Value::from(*i),
            })
            .collect();
        found.push((value as *const Value, json, index));
        return;
    }
    match value {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                path.push(Step::Index(i));
                find(item, candidates, path, found);
                path.pop();
            }
        }
        Value::Object(members) => {
            for (key, item) in members {
                path.push(Step::Key(key));
                find(item, candidates, path, found);
                path.pop();
            }
        }
        _ => {}
    }
}

/// Equal as the engine would build them: the same keys in the same order. A
/// value is the same as itself at a glance (a placed member that is a shared
/// value).
pub(crate) fn same(a: &Value, b: &Value) -> bool {
    if std::ptr::eq(a, b) {
        return true;
    }
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y)
                    .all(|((kx, vx), (ky, vy))| kx == ky && same(vx, vy))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(vx, vy)| same(vx, vy))
        }
        _ => a == b,
    }
}
