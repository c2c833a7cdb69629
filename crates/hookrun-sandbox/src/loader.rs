//! The module jail: a `ModuleLoader` that only loads `.mjs`/`.js` files inside one
//! root directory, reached through relative specifiers.
//!
//! Modules are named `hookrun:///<path relative to the root>`, so neither
//! `import.meta.url` nor error stacks reveal where the root lives on the host.
//! Only specifiers this loader resolved itself can be loaded.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Component, Path, PathBuf};

use deno_core::error::ModuleLoaderError;
use deno_core::{
    ModuleLoadOptions, ModuleLoadReferrer, ModuleLoadResponse, ModuleLoader, ModuleSource,
    ModuleSourceCode, ModuleSpecifier, ModuleType, RequestedModuleType, ResolutionKind,
};
use deno_error::JsErrorBox;

/// URL scheme of jailed modules.
pub(crate) const SCHEME_PREFIX: &str = "hookrun:///";

/// Why a module path or specifier was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImportRefusal {
    /// A bare name such as `lodash`.
    #[error(
        "import of \"{specifier}\" from {importer} refused: bare module names are not available in the sandbox; import a file with a relative path such as \"./lib.mjs\""
    )]
    Bare {
        /// The specifier as written.
        specifier: String,
        /// The importing module, relative to the root.
        importer: String,
    },
    /// A URL (`http:`, `data:`, `node:`, `npm:`, `file:` …).
    #[error(
        "import of \"{specifier}\" from {importer} refused: URL imports are not allowed in the sandbox; import a file inside the workflow with a relative path"
    )]
    Url {
        /// The specifier as written.
        specifier: String,
        /// The importing module, relative to the root.
        importer: String,
    },
    /// An absolute path.
    #[error(
        "import of \"{specifier}\" from {importer} refused: absolute paths are not allowed; use a relative path inside the workflow"
    )]
    Absolute {
        /// The specifier as written.
        specifier: String,
        /// The importing module, relative to the root.
        importer: String,
    },
    /// A path leading out of the root, lexically or through a symlink.
    #[error(
        "import of \"{specifier}\" from {importer} refused: it leaves the workflow root; keep shared modules inside the workflow (or package) directory"
    )]
    Escape {
        /// The specifier as written.
        specifier: String,
        /// The importing module, relative to the root.
        importer: String,
    },
    /// Not a `.mjs` or `.js` file.
    #[error(
        "import of \"{specifier}\" from {importer} refused: only .mjs and .js modules can be imported"
    )]
    Extension {
        /// The specifier as written.
        specifier: String,
        /// The importing module, relative to the root.
        importer: String,
    },
    /// The target does not exist.
    #[error(
        "cannot find module \"{specifier}\" imported from {importer} (looked for {looked_for})"
    )]
    NotFound {
        /// The specifier as written.
        specifier: String,
        /// The importing module, relative to the root.
        importer: String,
        /// The path looked for, relative to the root.
        looked_for: String,
    },
    /// Import attributes (`with {type: "json"}`) are not supported.
    #[error(
        "import of \"{specifier}\" refused: import attributes are not supported; import a .mjs or .js module"
    )]
    Attributes {
        /// The specifier.
        specifier: String,
    },
}

/// A module that passed the jail: its canonical path and its root-relative name.
#[derive(Debug, Clone)]
pub(crate) struct JailedModule {
    pub path: PathBuf,
    pub relative: String,
}

/// Resolves specifiers inside one root.
#[derive(Debug)]
pub(crate) struct Jail {
    root: PathBuf,
    resolved: RefCell<HashMap<String, JailedModule>>,
}

impl Jail {
    /// A jail for `root`, which must already be canonical.
    pub fn new(root: PathBuf) -> Jail {
        Jail {
            root,
            resolved: RefCell::new(HashMap::new()),
        }
    }

    /// Admits a module named by a host path (the entry module of a call).
    pub fn admit_path(&self, path: &Path) -> Result<ModuleSpecifier, ImportRefusal> {
        let shown = path.display().to_string();
        let importer = "the caller".to_string();
        let lexical = if path.is_absolute() {
            path.to_path_buf()
        } else {
            self.root.join(path)
        };
        let relative = match lexical.strip_prefix(&self.root) {
            Ok(rel) => normalise(rel).ok_or_else(|| ImportRefusal::Escape {
                specifier: shown.clone(),
                importer: importer.clone(),
            })?,
            // The root itself may have been reached through a symlink: compare canonically.
            Err(_) => match lexical.canonicalize() {
                Ok(c) => c
                    .strip_prefix(&self.root)
                    .ok()
                    .and_then(normalise)
                    .ok_or_else(|| ImportRefusal::Escape {
                        specifier: shown.clone(),
                        importer: importer.clone(),
                    })?,
                Err(_) => {
                    return Err(ImportRefusal::NotFound {
                        specifier: shown.clone(),
                        importer,
                        looked_for: shown,
                    });
                }
            },
        };
        self.admit(&relative, &shown, &importer)
    }

    /// Resolves `specifier` imported by the module named `referrer`.
    pub fn resolve(
        &self,
        specifier: &str,
        referrer: &str,
    ) -> Result<ModuleSpecifier, ImportRefusal> {
        if self.resolved.borrow().contains_key(specifier) {
            // An entry module admitted by the host, or a module resolved before.
            return ModuleSpecifier::parse(specifier).map_err(|_| ImportRefusal::Url {
                specifier: specifier.to_string(),
                importer: referrer.to_string(),
            });
        }
        let importer = self
            .resolved
            .borrow()
            .get(referrer)
            .map(|m| m.relative.clone())
            .unwrap_or_else(|| referrer.to_string());
        let refuse_as = |kind: fn(String, String) -> ImportRefusal| {
            Err(kind(specifier.to_string(), importer.clone()))
        };
        if !(specifier.starts_with("./") || specifier.starts_with("../")) {
            if specifier.starts_with('/') || specifier.starts_with('\\') {
                return refuse_as(|specifier, importer| ImportRefusal::Absolute {
                    specifier,
                    importer,
                });
            }
            if has_scheme(specifier) {
                return refuse_as(|specifier, importer| ImportRefusal::Url {
                    specifier,
                    importer,
                });
            }
            return refuse_as(|specifier, importer| ImportRefusal::Bare {
                specifier,
                importer,
            });
        }
        // `%XX` escapes decode as a URL's path does (malformed ones stay as
        // written); a result that is not UTF-8 names no file.
        let decoded = percent_encoding::percent_decode_str(specifier)
            .decode_utf8()
            .map_err(|_| ImportRefusal::Escape {
                specifier: specifier.to_string(),
                importer: importer.clone(),
            })?;
        if decoded.contains('\\') || decoded.contains('\0') {
            return refuse_as(|specifier, importer| ImportRefusal::Escape {
                specifier,
                importer,
            });
        }
        let base = Path::new(&importer).parent().unwrap_or(Path::new(""));
        let relative = normalise(&base.join(&*decoded)).ok_or_else(|| ImportRefusal::Escape {
            specifier: specifier.to_string(),
            importer: importer.clone(),
        })?;
        self.admit(&relative, specifier, &importer)
    }

    /// Checks extension, existence and containment of a root-relative path.
    fn admit(
        &self,
        relative: &str,
        specifier: &str,
        importer: &str,
    ) -> Result<ModuleSpecifier, ImportRefusal> {
        if !(relative.ends_with(".mjs") || relative.ends_with(".js")) {
            return Err(ImportRefusal::Extension {
                specifier: specifier.to_string(),
                importer: importer.to_string(),
            });
        }
        let canonical =
            self.root
                .join(relative)
                .canonicalize()
                .map_err(|_| ImportRefusal::NotFound {
                    specifier: specifier.to_string(),
                    importer: importer.to_string(),
                    looked_for: relative.to_string(),
                })?;
        let canonical_relative = canonical
            .strip_prefix(&self.root)
            .ok()
            .and_then(normalise)
            .filter(|_| canonical.is_file())
            .ok_or_else(|| ImportRefusal::Escape {
                specifier: specifier.to_string(),
                importer: importer.to_string(),
            })?;
        let url = module_url(&canonical_relative);
        self.resolved.borrow_mut().insert(
            url.to_string(),
            JailedModule {
                path: canonical,
                relative: canonical_relative,
            },
        );
        Ok(url)
    }

    /// The module behind a specifier this jail resolved.
    pub fn lookup(&self, specifier: &str) -> Option<JailedModule> {
        self.resolved.borrow().get(specifier).cloned()
    }
}

/// `hookrun:///<relative>` for a root-relative path.
fn module_url(relative: &str) -> ModuleSpecifier {
    let mut url = ModuleSpecifier::parse(SCHEME_PREFIX).expect("constant URL parses");
    url.set_path(relative);
    url
}

/// Joins path components lexically; `None` when `..` climbs above the start.
fn normalise(path: &Path) -> Option<String> {
    let mut parts: Vec<String> = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(p) => parts.push(p.to_str()?.to_string()),
            Component::CurDir => {}
            Component::ParentDir => {
                parts.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    if parts.is_empty() {
        return None;
    }
    Some(parts.join("/"))
}

/// Whether a specifier starts with a URL scheme (`name:`).
fn has_scheme(specifier: &str) -> bool {
    match specifier.split_once(':') {
        Some((scheme, _)) => {
            !scheme.is_empty()
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'))
        }
        None => false,
    }
}

/// The `ModuleLoader` deno_core drives.
pub(crate) struct JailLoader(pub std::rc::Rc<Jail>);

impl ModuleLoader for JailLoader {
    fn resolve(
        &self,
        specifier: &str,
        referrer: &str,
        _kind: ResolutionKind,
    ) -> Result<ModuleSpecifier, ModuleLoaderError> {
        self.0
            .resolve(specifier, referrer)
            .map_err(|e| JsErrorBox::generic(e.to_string()))
    }

    fn load(
        &self,
        specifier: &ModuleSpecifier,
        _referrer: Option<&ModuleLoadReferrer>,
        options: ModuleLoadOptions,
    ) -> ModuleLoadResponse {
        let result = if options.requested_module_type != RequestedModuleType::None {
            Err(JsErrorBox::generic(
                ImportRefusal::Attributes {
                    specifier: specifier.to_string(),
                }
                .to_string(),
            ))
        } else {
            match self.0.lookup(specifier.as_str()) {
                Some(module) => std::fs::read(&module.path)
                    .map(|code| {
                        ModuleSource::new(
                            ModuleType::JavaScript,
                            ModuleSourceCode::Bytes(code.into_boxed_slice().into()),
                            specifier,
                            None,
                        )
                    })
                    .map_err(|e| {
                        JsErrorBox::generic(format!("cannot read {}: {e}", module.relative))
                    }),
                None => Err(JsErrorBox::generic(format!(
                    "module {specifier} was not admitted by the sandbox"
                ))),
            }
        };
        ModuleLoadResponse::Sync(result)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn jail() -> (tempfile::TempDir, Jail) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("hooks")).unwrap();
        std::fs::write(dir.path().join("hooks/a.mjs"), "").unwrap();
        std::fs::write(dir.path().join("lib.js"), "").unwrap();
        let root = dir.path().canonicalize().unwrap();
        (dir, Jail::new(root))
    }

    #[test]
    fn relative_imports_inside_the_root_resolve() {
        let (_d, jail) = jail();
        let a = jail.admit_path(Path::new("hooks/a.mjs")).unwrap();
        assert_eq!(a.as_str(), "hookrun:///hooks/a.mjs");
        let lib = jail.resolve("../lib.js", a.as_str()).unwrap();
        assert_eq!(lib.as_str(), "hookrun:///lib.js");
        let escaped = jail.resolve("./%2e%2e/%6Cib.js", a.as_str()).unwrap();
        assert_eq!(escaped.as_str(), "hookrun:///lib.js");
        assert_eq!(jail.lookup(lib.as_str()).unwrap().relative, "lib.js");
    }

    #[test]
    fn every_escape_form_is_refused() {
        let (_d, jail) = jail();
        let a = jail.admit_path(Path::new("hooks/a.mjs")).unwrap();
        type Check = fn(&ImportRefusal) -> bool;
        let cases: &[(&str, Check)] = &[
            ("lodash", |e| matches!(e, ImportRefusal::Bare { .. })),
            ("node:fs", |e| matches!(e, ImportRefusal::Url { .. })),
            ("npm:left-pad", |e| matches!(e, ImportRefusal::Url { .. })),
            ("https://x.test/a.mjs", |e| {
                matches!(e, ImportRefusal::Url { .. })
            }),
            ("data:text/javascript,1", |e| {
                matches!(e, ImportRefusal::Url { .. })
            }),
            ("file:///etc/passwd", |e| {
                matches!(e, ImportRefusal::Url { .. })
            }),
            ("/etc/passwd", |e| {
                matches!(e, ImportRefusal::Absolute { .. })
            }),
            ("../../x.mjs", |e| matches!(e, ImportRefusal::Escape { .. })),
            ("./%2e%2e/%2e%2e/x.mjs", |e| {
                matches!(e, ImportRefusal::Escape { .. })
            }),
            ("./%2E%2e%2f%2e%2E/x.mjs", |e| {
                matches!(e, ImportRefusal::Escape { .. })
            }),
            ("./%5c..%5cx.mjs", |e| {
                matches!(e, ImportRefusal::Escape { .. })
            }),
            ("./%ff.mjs", |e| matches!(e, ImportRefusal::Escape { .. })),
            // Not an escape: `%+1` is no hex number and stays as written.
            ("./%+1.mjs", |e| matches!(e, ImportRefusal::NotFound { .. })),
            ("./..\\..\\x.mjs", |e| {
                matches!(e, ImportRefusal::Escape { .. })
            }),
            ("./a.json", |e| matches!(e, ImportRefusal::Extension { .. })),
            ("./missing.mjs", |e| {
                matches!(e, ImportRefusal::NotFound { .. })
            }),
        ];
        for (spec, check) in cases {
            let err = jail.resolve(spec, a.as_str()).unwrap_err();
            assert!(check(&err), "{spec}: {err}");
            assert!(err.to_string().contains(spec), "{spec}: {err}");
            assert!(
                err.to_string().contains("hooks/a.mjs")
                    || matches!(err, ImportRefusal::Attributes { .. })
            );
        }
    }

    #[test]
    fn symlinks_out_of_the_root_are_refused() {
        let (dir, jail) = jail();
        let outside = tempfile::tempdir().unwrap();
        std::fs::write(outside.path().join("evil.mjs"), "").unwrap();
        std::os::unix::fs::symlink(
            outside.path().join("evil.mjs"),
            dir.path().join("hooks/evil.mjs"),
        )
        .unwrap();
        let a = jail.admit_path(Path::new("hooks/a.mjs")).unwrap();
        let err = jail.resolve("./evil.mjs", a.as_str()).unwrap_err();
        assert!(matches!(err, ImportRefusal::Escape { .. }), "{err}");
    }
}
