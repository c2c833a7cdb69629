//! The sandbox's integration tests, one module per subject, linked into one
//! binary; `platform` counts references to the process-wide engine platform
//! and keeps a binary of its own.

mod checked_json;
mod host_arrays;
mod live;
mod object_keyed_maps;
mod shallow_copy;
