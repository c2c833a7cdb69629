//! Schema of `workflow-package.json` (`01-manifest.md` §11).

use serde_json::Value;

use crate::manifest::diagnostic::Diagnostic;
use crate::manifest::schema::checker::{Checker, Shape};

const PACKAGE: Shape = Shape::closed(&["id", "version", "workflows"], &["i18n"]);
const PACKAGE_I18N: Shape = Shape::closed(&[], &["defaultLocale", "locales"]);

/// Validates a parsed `workflow-package.json`, returning every error. The values of
/// `i18n.locales` are checked one by one when the locale files are read, so that a bad
/// entry only disables its own locale.
pub fn validate_package(package: &Value) -> Vec<Diagnostic> {
    let mut c = Checker::default();
    let p = "/";
    let Some(map) = c.shape(p, package, &PACKAGE) else {
        return c.into_errors();
    };
    for key in ["id", "version"] {
        c.field(map, p, key, |c, p, v| {
            c.non_empty(p, v);
        });
    }
    c.field(map, p, "workflows", |c, p, v| c.string_list(p, v, 1, false));
    c.field(map, p, "i18n", |c, p, v| {
        let Some(i18n) = c.shape(p, v, &PACKAGE_I18N) else {
            return;
        };
        c.field(i18n, p, "defaultLocale", |c, p, v| {
            c.non_empty(p, v);
        });
        c.field(i18n, p, "locales", |c, p, v| {
            c.object(p, v);
        });
    });
    c.into_errors()
}
