//! `productStorage.registerProduct`: the product storage an `applyResult` hook
//! receives, registering products for the run (see [`crate::host::products`]).
//! Asset content comes from the call's result context (result artifacts) or
//! the run's files (local files, as `file.readBytes` reads them); every call is
//! recorded as an effect, a refused one with its error.

use base64::Engine as _;
use serde_json::{Value, json};

use super::HookHost;
use crate::host::HostError;
use crate::host::members::Internal;
use crate::host::products::{AssetSource, ProductOwner, Products, Resolved};

/// The internal call a product storage's `registerProduct` makes.
pub const REGISTER_PRODUCT: &str = "productStorage.registerProduct";

impl HookHost {
    /// Hands the product storage of the result context `id` to a hook: its
    /// registrations belong to `owner`.
    pub fn add_product_storage(&mut self, id: &str, owner: ProductOwner) {
        self.owners.insert(id.to_string(), owner);
    }

    /// The products the run registered so far.
    pub fn products(&self) -> &Products {
        &self.products
    }

    /// `registerProduct(input)` of the product storage `args[0]`.
    pub(super) fn register_product(&mut self, args: &Value) -> Result<Value, HostError> {
        let id = args.get(0).and_then(Value::as_str).unwrap_or_default();
        let owner =
            self.owners.get(id).cloned().ok_or_else(|| {
                HostError::plain("Error", "workflow resultContext is unavailable")
            })?;
        let input = args.get(1).cloned().unwrap_or(Value::Null);
        let now = self.now_iso();
        let mut products = self.products.clone();
        let outcome = products.register(&owner, &input, &now, &mut |source, asset| {
            self.product_content(id, source, asset)
        });
        let recorded = json!([input]);
        match outcome {
            Ok((receipt, record)) => {
                self.effects.commit_product(
                    &self.site,
                    REGISTER_PRODUCT,
                    recorded,
                    receipt.clone(),
                    record,
                )?;
                self.products = products;
                Ok(receipt)
            }
            Err(error) => {
                self.effects
                    .refused(&self.site, REGISTER_PRODUCT, recorded, error.to_json());
                Err(error)
            }
        }
    }

    /// The content of one asset of a registration through the storage `id`.
    fn product_content(
        &mut self,
        id: &str,
        source: &AssetSource,
        asset: &Value,
    ) -> Result<Resolved, HostError> {
        if !self.contexts.contains_key(id) {
            return Err(HostError::plain(
                "Error",
                "workflow resultContext is unavailable",
            ));
        }
        match source {
            AssetSource::InlineText(text) => {
                let named = ["productAssetPath", "assetId"].iter().find_map(|k| {
                    asset
                        .get(*k)
                        .and_then(Value::as_str)
                        .filter(|s| !s.is_empty())
                });
                Ok(Resolved {
                    bytes: text.as_bytes().to_vec(),
                    entry_path: named.unwrap_or("asset").to_string(),
                })
            }
            AssetSource::LocalFile(path) => self.local_asset(path),
            AssetSource::ResultArtifact {
                raw_path,
                fallback_path,
            } => {
                let field = ["assetId", "label"]
                    .iter()
                    .find_map(|k| {
                        asset
                            .get(*k)
                            .and_then(Value::as_str)
                            .filter(|s| !s.is_empty())
                    })
                    .unwrap_or("product asset");
                let text = |v: &Value| v.as_str().map_or(Value::Null, |s| s.into());
                let request = json!({"fieldName": field, "rawPath": text(raw_path),
                    "fallbackPath": text(fallback_path)});
                let found = self.result(Internal::ResolveArtifactBytes, &json!([id, request]))?;
                Ok(Resolved {
                    bytes: decoded(&found["bytes"]),
                    entry_path: found["entryPath"].as_str().unwrap_or_default().to_string(),
                })
            }
        }
    }

    /// A local file's content, read as `file.readBytes` reads it; a path or
    /// `file://` URL the run cannot read does not exist for the hook.
    fn local_asset(&mut self, given: &str) -> Result<Resolved, HostError> {
        let path = local_path(given)
            .ok_or_else(|| HostError::plain("Error", "local product asset path is invalid"))?;
        let missing = || {
            HostError::plain(
                "Error",
                format!("local product asset does not exist: {given}"),
            )
        };
        let read = self
            .dispatch("file.readBytes", json!([path]))
            .map_err(|_| missing())?;
        Ok(Resolved {
            bytes: decoded(&read),
            entry_path: path,
        })
    }
}

/// A native path of a local-file source: the path, or a `file://` URL's path
/// (percent-decoded); `None` when there is none.
fn local_path(given: &str) -> Option<String> {
    let trimmed = given.trim();
    let Some(url) = trimmed.strip_prefix("file://") else {
        return (!trimmed.is_empty()).then(|| trimmed.to_string());
    };
    let path = url.strip_prefix("localhost").unwrap_or(url);
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (bytes[i], hex) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok().filter(|p| !p.is_empty())
}

/// The bytes of a `{"$bytes": "<base64>"}` answer.
fn decoded(value: &Value) -> Vec<u8> {
    let text = value["$bytes"].as_str().unwrap_or_default();
    base64::engine::general_purpose::STANDARD
        .decode(text)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::local_path;

    #[test]
    fn local_paths_accept_file_urls() {
        assert_eq!(local_path(" /a/b.pdf "), Some("/a/b.pdf".into()));
        assert_eq!(
            local_path("file:///a/my%20b.pdf"),
            Some("/a/my b.pdf".into())
        );
        assert_eq!(local_path("file://localhost/x"), Some("/x".into()));
        assert_eq!(local_path("  "), None);
        assert_eq!(local_path("file://"), None);
    }
}
