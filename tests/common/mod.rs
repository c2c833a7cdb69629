//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::PathBuf;

/// `fixtures/<rel>` in the repository.
pub fn fixture(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("fixtures")
        .join(rel)
}
