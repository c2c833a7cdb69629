//! Localisation (`01-manifest.md` §8): inline messages and package locale files.

use std::path::Path;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::manifest::diagnostic::Diagnostic;
use crate::manifest::parse::read_json;
use crate::manifest::schema::pointer_child;

/// One source of translations: per-locale flat `key → text` tables plus a fallback locale.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Messages {
    /// The fallback locale of this source.
    pub default_locale: Option<String>,
    /// `(locale, table)` pairs in declaration order.
    pub locales: Vec<(String, Map<String, Value>)>,
}

impl Messages {
    /// Reads `i18n` of a schema-valid manifest (inline messages).
    pub fn inline(manifest: &Value) -> Self {
        let i18n = manifest.get("i18n");
        let locales = i18n
            .and_then(|i| i.get("messages"))
            .and_then(Value::as_object)
            .map(|m| {
                m.iter()
                    .filter_map(|(locale, table)| {
                        Some((locale.clone(), table.as_object()?.clone()))
                    })
                    .collect()
            })
            .unwrap_or_default();
        Messages {
            default_locale: default_locale(i18n),
            locales,
        }
    }

    /// The text of `key` for `locale`: exact tag, then language subtag, then the default
    /// locale (the first of these locales that defines the key).
    pub fn lookup<'a>(&'a self, key: &str, locale: &'a str) -> Option<&'a str> {
        self.candidates(locale)
            .find_map(|table| table.get(key).and_then(Value::as_str))
    }

    fn candidates<'a>(&'a self, locale: &'a str) -> impl Iterator<Item = &'a Map<String, Value>> {
        let wanted = language(locale);
        let exact = self
            .locales
            .iter()
            .filter(move |(l, _)| l.eq_ignore_ascii_case(locale));
        let bare = self
            .locales
            .iter()
            .filter(move |(l, _)| l.eq_ignore_ascii_case(wanted));
        let same_language = self
            .locales
            .iter()
            .filter(move |(l, _)| language(l).eq_ignore_ascii_case(wanted));
        let fallback = self
            .locales
            .iter()
            .filter(move |(l, _)| Some(l.as_str()) == self.default_locale.as_deref());
        exact
            .chain(bare)
            .chain(same_language)
            .chain(fallback)
            .map(|(_, table)| table)
    }
}

fn language(locale: &str) -> &str {
    locale.split(['-', '_']).next().unwrap_or(locale)
}

fn default_locale(i18n: Option<&Value>) -> Option<String> {
    i18n.and_then(|i| i.get("defaultLocale"))
        .and_then(Value::as_str)
        .map(str::to_string)
}

/// Loads the locale files declared in `workflow-package.json` `i18n.locales`. A bad path,
/// a non-string path, an unreadable file or a non-string value yields a
/// `manifest_validation_error` and disables that locale only.
pub fn load_package_locales(
    package_root: &Path,
    package_file: &Path,
    package: &Value,
) -> (Messages, Vec<Diagnostic>) {
    let i18n = package.get("i18n");
    let mut messages = Messages {
        default_locale: default_locale(i18n),
        locales: Vec::new(),
    };
    let mut diagnostics = Vec::new();
    let declared = i18n
        .and_then(|i| i.get("locales"))
        .and_then(Value::as_object);
    for (locale, path) in declared.into_iter().flatten() {
        let pointer = pointer_child("/i18n/locales", locale);
        match locale_table(package_root, &pointer, path) {
            Ok(table) => messages.locales.push((locale.clone(), table)),
            Err(diagnostic) => diagnostics.push(diagnostic.with_path(package_file)),
        }
    }
    (messages, diagnostics)
}

fn locale_table(
    root: &Path,
    pointer: &str,
    path: &Value,
) -> Result<Map<String, Value>, Box<Diagnostic>> {
    let fail = |text: &str| Box::new(Diagnostic::validation(pointer, text));
    let Some(relative) = path.as_str() else {
        return Err(fail("must be string"));
    };
    if !is_package_relative(relative) {
        return Err(fail(&format!(
            "must be a package-relative path without \"..\" or a drive letter: {relative}"
        )));
    }
    let table = read_json(&root.join(relative)).map_err(|d| {
        let mut problem = fail(&format!("locale file cannot be read: {relative}"));
        problem.reason = d.reason;
        problem
    })?;
    let Some(table) = table.as_object() else {
        return Err(fail(&format!(
            "locale file must hold a JSON object: {relative}"
        )));
    };
    if let Some((key, _)) = table.iter().find(|(_, v)| !v.is_string()) {
        return Err(fail(&format!(
            "locale file {relative} has a non-string value at key \"{key}\""
        )));
    }
    Ok(table.clone())
}

/// Not absolute, no drive letter, no `..` segment.
pub(crate) fn is_package_relative(path: &str) -> bool {
    let bytes = path.as_bytes();
    let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
    !path.is_empty()
        && !path.starts_with(['/', '\\'])
        && !drive
        && !path.split(['/', '\\']).any(|segment| segment == "..")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn source() -> Messages {
        Messages::inline(&json!({"i18n": {
            "defaultLocale": "en-US",
            "messages": {
                "en-US": {"label": "Digest", "taskNameTemplate": "Digest {x}"},
                "zh": {"label": "摘要"},
                "pt-BR": {"label": "Resumo"}
            }
        }}))
    }

    #[test]
    fn matches_exact_then_language_then_default() {
        let m = source();
        assert_eq!(m.lookup("label", "en-US"), Some("Digest"));
        assert_eq!(m.lookup("label", "zh-CN"), Some("摘要"));
        assert_eq!(m.lookup("label", "pt-PT"), Some("Resumo"));
        assert_eq!(m.lookup("label", "fr"), Some("Digest"));
        assert_eq!(m.lookup("taskNameTemplate", "zh-CN"), Some("Digest {x}"));
        assert_eq!(m.lookup("missing", "zh-CN"), None);
    }

    #[test]
    fn package_relative_paths() {
        for ok in ["locales/fr.json", "fr.json", "a/./b.json"] {
            assert!(is_package_relative(ok), "{ok}");
        }
        for bad in [
            "/abs.json",
            "\\x.json",
            "C:\\x.json",
            "c:x.json",
            "../x.json",
            "a/../../x.json",
            "",
        ] {
            assert!(!is_package_relative(bad), "{bad}");
        }
    }
}
