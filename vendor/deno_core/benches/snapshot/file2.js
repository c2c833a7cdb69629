// Copyright 2018-2026 the Deno authors. MIT license.
export function ok() {}
