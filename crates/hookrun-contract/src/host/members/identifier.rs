//! The normal forms of the identifiers `metadata.translateIdentifier` takes, as
//! the reference host normalises them before it asks a translator.

use super::request::IdentifierType;

/// `value` in `kind`'s normal form, or `None` when it is not one.
pub(super) fn normalized(kind: IdentifierType, value: &str) -> Option<String> {
    let value = value.trim();
    match kind {
        IdentifierType::Doi => doi(value),
        IdentifierType::Isbn => isbn(value),
        IdentifierType::Arxiv => arxiv(value),
        IdentifierType::Pmid => pmid(value),
    }
}

/// `value` without the first of `prefixes` it starts with (ASCII case ignored).
pub(crate) fn strip_any<'a>(value: &'a str, prefixes: &[&str]) -> &'a str {
    for prefix in prefixes {
        if value.len() >= prefix.len()
            && value.is_char_boundary(prefix.len())
            && value[..prefix.len()].eq_ignore_ascii_case(prefix)
        {
            return &value[prefix.len()..];
        }
    }
    value
}

/// `10.<4 to 9 digits>/<no spaces>`, lower-cased, without a resolver or `doi:`.
fn doi(value: &str) -> Option<String> {
    let value = strip_any(
        value,
        &[
            "https://dx.doi.org/",
            "http://dx.doi.org/",
            "https://doi.org/",
            "http://doi.org/",
            "doi:",
        ],
    )
    .trim()
    .to_lowercase();
    let (prefix, suffix) = value.split_once('/')?;
    let registrant = prefix.strip_prefix("10.")?;
    let fits = (4..=9).contains(&registrant.len())
        && registrant.bytes().all(|b| b.is_ascii_digit())
        && !suffix.is_empty()
        && !suffix.chars().any(char::is_whitespace);
    fits.then_some(value)
}

/// An ISBN-13 whose check digit holds (an ISBN-10 whose check holds becomes one).
fn isbn(value: &str) -> Option<String> {
    let value = strip_any(
        value,
        &[
            "https://openlibrary.org/isbn/",
            "https://isbnsearch.org/isbn/",
            "isbn-13:",
            "isbn-10:",
            "isbn:",
        ],
    );
    let digits: String = value
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .collect::<String>()
        .to_uppercase();
    let number = |c: char| c.to_digit(10);
    match digits.len() {
        13 => {
            let values: Vec<u32> = digits.chars().map(number).collect::<Option<_>>()?;
            let sum: u32 = values
                .iter()
                .enumerate()
                .map(|(i, d)| d * [1, 3][i % 2])
                .sum();
            sum.is_multiple_of(10).then_some(digits)
        }
        10 => {
            let mut sum = 0;
            for (i, c) in digits.chars().enumerate() {
                let d = match c {
                    'X' if i == 9 => 10,
                    c => number(c)?,
                };
                sum += d * (10 - i as u32);
            }
            if !sum.is_multiple_of(11) {
                return None;
            }
            let body = format!("978{}", &digits[..9]);
            let sum: u32 = body
                .chars()
                .filter_map(number)
                .enumerate()
                .map(|(i, d)| d * [1, 3][i % 2])
                .sum();
            Some(format!("{body}{}", (10 - sum % 10) % 10))
        }
        _ => None,
    }
}

/// A new-style (`2101.01234`) or old-style (`hep-th/9901001`) arXiv id, lower-cased,
/// without its prefix, `.pdf`, query or version.
fn arxiv(value: &str) -> Option<String> {
    let value = strip_any(
        value,
        &[
            "https://arxiv.org/abs/",
            "https://arxiv.org/pdf/",
            "http://arxiv.org/abs/",
            "http://arxiv.org/pdf/",
            "arxiv:",
        ],
    );
    let value = value.split(['?', '#']).next()?.to_lowercase();
    let value = value.strip_suffix(".pdf").unwrap_or(&value);
    let value = match value.rsplit_once('v') {
        Some((id, version))
            if !version.is_empty() && version.bytes().all(|b| b.is_ascii_digit()) =>
        {
            id
        }
        _ => value,
    };
    let digits = |s: &str, n: std::ops::RangeInclusive<usize>| {
        n.contains(&s.len()) && s.bytes().all(|b| b.is_ascii_digit())
    };
    let new_style = value
        .split_once('.')
        .is_some_and(|(a, b)| digits(a, 4..=4) && digits(b, 4..=5));
    let old_style = value.split_once('/').is_some_and(|(archive, number)| {
        let (name, subject) = archive.split_once('.').unwrap_or((archive, ""));
        !name.is_empty()
            && name.bytes().all(|b| b.is_ascii_lowercase() || b == b'-')
            && (subject.is_empty()
                || (subject.len() == 2 && subject.bytes().all(|b| b.is_ascii_lowercase())))
            && digits(number, 7..=7)
    });
    (new_style || old_style).then(|| value.to_owned())
}

/// One to twelve digits, without `pmid:` or a PubMed address.
fn pmid(value: &str) -> Option<String> {
    let value = strip_any(
        value,
        &[
            "https://pubmed.ncbi.nlm.nih.gov/",
            "http://pubmed.ncbi.nlm.nih.gov/",
            "pmid:",
        ],
    );
    let value = value.trim().trim_end_matches('/');
    ((1..=12).contains(&value.len()) && value.bytes().all(|b| b.is_ascii_digit()))
        .then(|| value.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identifiers_take_the_reference_host_s_normal_forms() {
        let n = normalized;
        assert_eq!(
            n(IdentifierType::Doi, "https://doi.org/10.1000/TARGET").as_deref(),
            Some("10.1000/target")
        );
        assert_eq!(n(IdentifierType::Doi, "10.10/x"), None);
        assert_eq!(
            n(IdentifierType::Isbn, "978-0-306-40615-7").as_deref(),
            Some("9780306406157")
        );
        assert_eq!(n(IdentifierType::Isbn, "978-0-306-40615-8"), None);
        assert_eq!(
            n(IdentifierType::Isbn, "0-306-40615-2").as_deref(),
            Some("9780306406157")
        );
        assert_eq!(
            n(IdentifierType::Arxiv, "arXiv:2101.01234v2").as_deref(),
            Some("2101.01234")
        );
        assert_eq!(
            n(IdentifierType::Arxiv, "hep-th/9901001").as_deref(),
            Some("hep-th/9901001")
        );
        assert_eq!(n(IdentifierType::Arxiv, "2101.1"), None);
        assert_eq!(
            n(IdentifierType::Pmid, "PMID:12345").as_deref(),
            Some("12345")
        );
        assert_eq!(n(IdentifierType::Pmid, "12a"), None);
    }
}
