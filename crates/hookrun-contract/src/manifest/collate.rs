//! The order the reference host sorts names and ids in: JavaScript's `localeCompare`
//! with no locale and no options, that is Unicode root collation (punctuation before
//! digits before letters, `_` before `-`, case only breaking ties, accented letters
//! beside their base letters). Byte order breaks the remaining ties, so the order is
//! total and deterministic.

use std::cmp::Ordering;
use std::sync::OnceLock;

use icu_collator::options::CollatorOptions;
use icu_collator::{Collator, CollatorBorrowed};

fn collator() -> Option<&'static CollatorBorrowed<'static>> {
    static COLLATOR: OnceLock<Option<CollatorBorrowed<'static>>> = OnceLock::new();
    COLLATOR
        .get_or_init(|| Collator::try_new(Default::default(), CollatorOptions::default()).ok())
        .as_ref()
}

/// Compares `a` and `b` as `a.localeCompare(b)` does on the reference host, then by bytes.
pub fn locale_cmp(a: &str, b: &str) -> Ordering {
    collator()
        .map_or(Ordering::Equal, |c| c.compare(a, b))
        .then_with(|| a.cmp(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted(names: &[&str]) -> Vec<String> {
        let mut v: Vec<String> = names.iter().map(|s| s.to_string()).collect();
        v.sort_by(|a, b| locale_cmp(a, b));
        v
    }

    #[test]
    fn orders_as_locale_compare_does() {
        // Byte order would give ["B", "Tag-manager", "a", "tag10", "tag2", "tag_manager", "é"].
        assert_eq!(
            sorted(&["tag_manager", "Tag-manager", "tag10", "tag2", "a", "B", "é"]),
            ["a", "B", "é", "tag_manager", "Tag-manager", "tag10", "tag2"]
        );
        assert_eq!(sorted(&["A", "a"]), ["a", "A"]);
        assert_eq!(sorted(&["_x", "-x", "1x", "x"]), ["_x", "-x", "1x", "x"]);
    }
}
