//! The unavailable reader: a run that delivered no bundle.

use std::path::Path;

use crate::bundle::error::BundleError;

/// The reader of a run without bundle content (`04-requests-and-bundles.md` §6.5):
/// result-only runs, pass-through, short-circuit and aggregate applies.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnavailableBundle {
    request_id: String,
}

impl UnavailableBundle {
    /// The reader for run `request_id`.
    pub fn new(request_id: impl Into<String>) -> Self {
        Self {
            request_id: request_id.into(),
        }
    }

    /// The run's request id.
    pub fn request_id(&self) -> &str {
        &self.request_id
    }

    /// Always `Run <requestId> does not provide bundle content; entry unavailable: <entry>`.
    pub fn read_bytes(&self, entry: &str) -> Result<Vec<u8>, BundleError> {
        Err(BundleError::Unavailable {
            request_id: self.request_id.clone(),
            entry: entry.to_string(),
        })
    }

    /// Always an error: there is nothing extracted.
    pub fn extracted_dir(&self) -> Result<&Path, BundleError> {
        Err(BundleError::NoExtractedDir {
            request_id: self.request_id.clone(),
        })
    }

    /// Always empty.
    pub fn list(&self) -> Vec<String> {
        Vec::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rejects_every_read() {
        let reader = UnavailableBundle::new("pass-through-abc-123456");
        assert_eq!(
            reader
                .read_bytes("result/result.json")
                .expect_err("unavailable")
                .to_string(),
            "Run pass-through-abc-123456 does not provide bundle content; entry unavailable: result/result.json"
        );
        assert!(reader.extracted_dir().is_err());
        assert!(reader.list().is_empty());
    }
}
