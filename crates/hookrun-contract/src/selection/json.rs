//! Pointer-aware readers used by the shape parsers.

use serde_json::{Map, Value};

use super::error::SelectionError;

/// Result of a selection reader.
pub(crate) type Read<T> = Result<T, SelectionError>;

/// A JSON object together with the pointer it was found at.
#[derive(Clone, Copy)]
pub(crate) struct Obj<'a> {
    /// The object.
    pub map: &'a Map<String, Value>,
    /// Its JSON pointer.
    pub ptr: &'a str,
}

pub(crate) use crate::pointer::{child, index};

/// Reads `value` as an object.
pub(crate) fn as_object<'a>(value: &'a Value, ptr: &'a str) -> Read<Obj<'a>> {
    value
        .as_object()
        .map(|map| Obj { map, ptr })
        .ok_or_else(|| SelectionError::invalid(ptr, "expected an object"))
}

/// Reads `value` as an array.
pub(crate) fn as_array<'a>(value: &'a Value, ptr: &str) -> Read<&'a Vec<Value>> {
    value
        .as_array()
        .ok_or_else(|| SelectionError::invalid(ptr, "expected an array"))
}

impl<'a> Obj<'a> {
    /// The value of `key`, if present.
    pub fn get(&self, key: &str) -> Option<&'a Value> {
        self.map.get(key)
    }

    /// A required member.
    pub fn required(&self, key: &str) -> Read<&'a Value> {
        self.get(key)
            .ok_or_else(|| SelectionError::invalid(&child(self.ptr, key), "is required"))
    }

    /// An optional string member (`null` reads as absent).
    pub fn opt_str(&self, key: &str) -> Read<Option<&'a str>> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s)),
            Some(_) => Err(SelectionError::invalid(
                &child(self.ptr, key),
                "expected a string",
            )),
        }
    }

    /// A required string member.
    pub fn req_str(&self, key: &str) -> Read<&'a str> {
        match self.required(key)? {
            Value::String(s) => Ok(s),
            _ => Err(SelectionError::invalid(
                &child(self.ptr, key),
                "expected a string",
            )),
        }
    }

    /// An optional integer member (`null` reads as absent).
    pub fn opt_int(&self, key: &str) -> Read<Option<i64>> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => v.as_i64().map(Some).ok_or_else(|| {
                SelectionError::invalid(&child(self.ptr, key), "expected an integer")
            }),
        }
    }

    /// An optional object member (`null` reads as absent).
    pub fn opt_obj(&self, key: &str) -> Read<Option<&'a Map<String, Value>>> {
        match self.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Object(m)) => Ok(Some(m)),
            Some(_) => Err(SelectionError::invalid(
                &child(self.ptr, key),
                "expected an object",
            )),
        }
    }

    /// An optional array member (absent reads as empty).
    pub fn opt_array(&self, key: &str) -> Read<&'a [Value]> {
        match self.get(key) {
            None => Ok(&[]),
            Some(Value::Array(list)) => Ok(list),
            Some(_) => Err(SelectionError::invalid(
                &child(self.ptr, key),
                "expected an array",
            )),
        }
    }

    /// An optional array of strings (absent reads as empty).
    pub fn opt_strings(&self, key: &str) -> Read<Vec<String>> {
        self.opt_array(key)?
            .iter()
            .enumerate()
            .map(|(i, v)| {
                v.as_str().map(str::to_owned).ok_or_else(|| {
                    SelectionError::invalid(&index(&child(self.ptr, key), i), "expected a string")
                })
            })
            .collect()
    }

    /// Rejects members not listed in `allowed` (closed objects).
    pub fn closed(&self, allowed: &[&str]) -> Read<()> {
        match self.map.keys().find(|k| !allowed.contains(&k.as_str())) {
            Some(k) => Err(SelectionError::invalid(
                &child(self.ptr, k),
                "unknown field",
            )),
            None => Ok(()),
        }
    }
}
