//! Loading the jail's modules once per engine and finding their exports.

use std::path::Path;

use deno_core::error::CoreError;
use deno_core::{ModuleId, PollEventLoopOptions, v8};

use super::Engine;
use crate::errors;
use crate::outcome::CallResult;

/// A loaded module's export, ready to be called.
pub(super) struct Export {
    pub(super) function: v8::Global<v8::Function>,
}

impl Engine {
    /// Lists the exports of `module` (name, is-function) without calling any.
    pub fn exports(&mut self, module: &Path) -> Result<Vec<(String, bool)>, CallResult> {
        self.start_clock();
        let listed = self.list_exports(module);
        let timed_out = self.watchdog.disarm();
        if let Some(outcome) = self.limit_outcome(timed_out) {
            self.poisoned = true;
            return Err(outcome);
        }
        listed
    }

    fn list_exports(&mut self, module: &Path) -> Result<Vec<(String, bool)>, CallResult> {
        let (id, _) = self.load(module)?;
        let namespace = self.namespace(id)?;
        let text = {
            deno_core::scope!(scope, &mut self.runtime);
            let f = v8::Local::new(scope, &self.exports_of);
            let ns = v8::Local::new(scope, namespace);
            let undefined = v8::undefined(scope).into();
            f.call(scope, undefined, &[ns.into()])
                .map(|v| v.to_rust_string_lossy(scope))
        };
        let text = text.ok_or_else(|| {
            CallResult::LoadError(errors::plain("Error", "cannot list the module's exports"))
        })?;
        let list: Vec<serde_json::Value> = serde_json::from_str(&text).unwrap_or_default();
        Ok(list
            .iter()
            .filter_map(|e| Some((e["name"].as_str()?.to_string(), e["isFunction"].as_bool()?)))
            .collect())
    }

    /// Loads and evaluates `module` once per engine; later calls reuse it.
    /// Returns the module id and its root-relative name.
    pub(super) fn load(&mut self, module: &Path) -> Result<(ModuleId, String), CallResult> {
        if let Some(entry) = self.entries.get(module) {
            return Ok(entry.clone());
        }
        let entry = self.load_new(module)?;
        self.entries.insert(module.to_path_buf(), entry.clone());
        Ok(entry)
    }

    fn load_new(&mut self, module: &Path) -> Result<(ModuleId, String), CallResult> {
        let specifier = self
            .jail
            .admit_path(module)
            .map_err(|e| CallResult::LoadError(errors::plain("ImportError", &e.to_string())))?;
        let admitted = self.jail.lookup(specifier.as_str());
        let (path, name) = match admitted {
            Some(m) => (m.path, m.relative),
            None => (module.to_path_buf(), module.display().to_string()),
        };
        if let Some(id) = self.modules.get(&path) {
            return Ok((*id, name));
        }
        let load_error = |e: CoreError| CallResult::LoadError(errors::from_core(&e));
        let runtime = &mut self.runtime;
        let id = self
            .tokio
            .block_on(runtime.load_side_es_module(&specifier))
            .map_err(load_error)?;
        let evaluation = runtime.mod_evaluate(id);
        let evaluated = self.tokio.block_on(async {
            runtime
                .run_event_loop(PollEventLoopOptions::default())
                .await?;
            evaluation.await
        });
        evaluated.map_err(load_error)?;
        self.modules.insert(path, id);
        Ok((id, name))
    }

    /// The namespace object of module `id`, a live view of its exports.
    fn namespace(&mut self, id: ModuleId) -> Result<v8::Global<v8::Object>, CallResult> {
        if let Some(namespace) = self.namespaces.get(&id) {
            return Ok(namespace.clone());
        }
        let namespace = self
            .runtime
            .get_module_namespace(id)
            .map_err(|e| CallResult::LoadError(errors::from_core(&e)))?;
        self.namespaces.insert(id, namespace.clone());
        Ok(namespace)
    }

    pub(super) fn export(
        &mut self,
        id: ModuleId,
        module: &str,
        name: &str,
    ) -> Result<Export, CallResult> {
        let namespace = self.namespace(id)?;
        deno_core::scope!(scope, &mut self.runtime);
        let namespace = v8::Local::new(scope, namespace);
        let missing = || {
            CallResult::LoadError(errors::plain(
                "ExportError",
                &format!(
                    "{module} has no exported function named {name}; export it with `export function {name}(…)` or `export async function {name}(…)`"
                ),
            ))
        };
        let key = v8::String::new(scope, name).ok_or_else(missing)?;
        let value = namespace.get(scope, key.into()).ok_or_else(missing)?;
        let function = v8::Local::<v8::Function>::try_from(value).map_err(|_| missing())?;
        Ok(Export {
            function: v8::Global::new(scope, function),
        })
    }
}
