// Copyright 2019-2021 the Deno authors. All rights reserved. MIT license.
//! A JSON Parser and Stringifier.

use crate::Context;
use crate::Local;
use crate::String;
use crate::Value;
use crate::scope::PinScope;

unsafe extern "C" {
  fn v8__JSON__Parse(
    context: *const Context,
    json_string: *const String,
  ) -> *const Value;
  fn v8__JSON__Stringify(
    context: *const Context,
    json_object: *const Value,
  ) -> *const String;
  #[cfg(feature = "engine_quickjs")]
  fn v8__JSON__StringifyChecked(
    context: *const Context,
    json_object: *const Value,
    budget: i64,
    max_depth: std::os::raw::c_int,
    kept: *const Value,
    call: f64,
    marker: *const Value,
    out: *mut CheckedOut,
  ) -> *const Value;
}

/// What `v8__JSON__StringifyChecked` found besides the text.
#[cfg(feature = "engine_quickjs")]
#[repr(C)]
struct CheckedOut {
  refs: i32,
  failure: i32,
  failed_key: *const Value,
  failed_number: f64,
}

/// What [`stringify_checked`] checks as it writes.
#[cfg(feature = "engine_quickjs")]
pub struct JsonChecks<'a> {
  /// What the text may take: each string spends its length and 2, each
  /// reference the kept value's `bytes`, its key's length and 4, any other
  /// value its key's length and 4.
  pub budget: i64,
  /// The deepest nesting of objects and arrays.
  pub max_depth: u32,
  /// A `WeakMap` from kept objects to entries `{id, bytes, depth, call}`: an
  /// object whose entry has `call` equal to [`call`](Self::call) is written
  /// as the string [`marker`](Self::marker) followed by its id, weighed as
  /// `bytes` and nested `depth` levels deep.
  pub kept: Option<Local<'a, Value>>,
  /// The `call` an entry must have.
  pub call: f64,
  /// What a reference starts with.
  pub marker: Option<Local<'a, Value>>,
}

/// Why [`stringify_checked`] refused a value.
#[cfg(feature = "engine_quickjs")]
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum JsonRefusal {
  /// Nested deeper than [`JsonChecks::max_depth`].
  TooDeep,
  /// A number JSON cannot write (`NaN`, an infinity): this one.
  NotFinite(f64),
  /// A function.
  Function,
  /// A symbol.
  Symbol,
  /// A BigInt.
  BigInt,
  /// Past [`JsonChecks::budget`].
  TooLarge,
}

/// What [`stringify_checked`] made of a value.
#[cfg(feature = "engine_quickjs")]
pub enum CheckedJson<'s> {
  /// The text (`undefined` where `JSON.stringify` answers it) and the
  /// references written.
  Written(Local<'s, Value>, u32),
  /// A value failed a check; `Local` is its key (`""` for the value itself).
  Refused(JsonRefusal, Local<'s, Value>),
  /// An exception was thrown (a getter's, a `toJSON`'s, a cycle's): it is
  /// pending, as after [`stringify`].
  Threw,
}

/// Tries to parse the string `json_string` and returns it as value if
/// successful.
#[inline(always)]
pub fn parse<'s>(
  scope: &PinScope<'s, '_>,
  json_string: Local<'_, String>,
) -> Option<Local<'s, Value>> {
  unsafe {
    scope
      .cast_local(|sd| v8__JSON__Parse(sd.get_current_context(), &*json_string))
  }
}

/// Tries to stringify the JSON-serializable object `json_object` and returns
/// it as string if successful.
#[inline(always)]
pub fn stringify<'s>(
  scope: &PinScope<'s, '_>,
  json_object: Local<'_, Value>,
) -> Option<Local<'s, String>> {
  unsafe {
    scope.cast_local(|sd| {
      v8__JSON__Stringify(sd.get_current_context(), &*json_object)
    })
  }
}

/// `JSON.stringify(value)` checking each value, after its `toJSON`, where a
/// replacer function would see it: refusing functions, symbols, BigInts and
/// numbers JSON cannot write, nesting past `checks.max_depth` and text past
/// `checks.budget`, and writing kept objects as references (QuickJS only:
/// `JS_JSONStringifyChecked`).
#[cfg(feature = "engine_quickjs")]
#[inline(always)]
pub fn stringify_checked<'s>(
  scope: &PinScope<'s, '_>,
  value: Local<'_, Value>,
  checks: &JsonChecks<'_>,
) -> CheckedJson<'s> {
  let mut out = CheckedOut {
    refs: 0,
    failure: 0,
    failed_key: std::ptr::null(),
    failed_number: 0.0,
  };
  let raw = |v: Option<Local<'_, Value>>| {
    v.map_or(std::ptr::null(), |v| &*v as *const Value)
  };
  let max_depth = std::os::raw::c_int::try_from(checks.max_depth)
    .unwrap_or(std::os::raw::c_int::MAX);
  let text = unsafe {
    scope.cast_local(|sd| {
      v8__JSON__StringifyChecked(
        sd.get_current_context(),
        &*value,
        checks.budget,
        max_depth,
        raw(checks.kept),
        checks.call,
        raw(checks.marker),
        &mut out,
      )
    })
  };
  if let Some(text) = text {
    return CheckedJson::Written(text, u32::try_from(out.refs).unwrap_or(0));
  }
  let refusal = match out.failure {
    1 => JsonRefusal::TooDeep,
    2 => JsonRefusal::NotFinite(out.failed_number),
    3 => JsonRefusal::Function,
    4 => JsonRefusal::Symbol,
    5 => JsonRefusal::BigInt,
    6 => JsonRefusal::TooLarge,
    _ => return CheckedJson::Threw,
  };
  let key = unsafe { scope.cast_local(|_| out.failed_key) };
  match key {
    Some(key) => CheckedJson::Refused(refusal, key),
    None => CheckedJson::Threw,
  }
}
