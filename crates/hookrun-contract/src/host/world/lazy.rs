//! A record's parts that are read from the selection's JSON when first asked:
//! a world of 100,000 selected items keeps their JSON once (in the selection),
//! not a second time as parsed values it may never need.

use std::sync::OnceLock;

/// What a [`Lazy`] holds: read from a source, and filled from another of its
/// kind when the same item is known twice.
pub(super) trait Readable<S> {
    /// The value `source` describes (the default without one).
    fn read_from(source: Option<&S>) -> Self;

    /// Fills what this value lacks from `other`.
    fn absorb(&mut self, other: Self);
}

/// A value read from `source` when first asked, or owned once it is changed
/// or when it came from elsewhere.
#[derive(Debug, Clone)]
pub(super) struct Lazy<S, T> {
    /// What the value is read from, until it is changed.
    source: Option<S>,
    /// The value read from `source`.
    read: OnceLock<Box<T>>,
    /// The value, once changed or when it came from elsewhere.
    owned: Option<Box<T>>,
}

impl<S, T> Default for Lazy<S, T> {
    fn default() -> Self {
        Self {
            source: None,
            read: OnceLock::new(),
            owned: None,
        }
    }
}

impl<S: PartialEq, T: Readable<S>> Lazy<S, T> {
    /// The value `source` describes, read when first asked.
    pub(super) fn of(source: S) -> Self {
        Self {
            source: Some(source),
            ..Self::default()
        }
    }

    /// The value.
    pub(super) fn get(&self) -> &T {
        match &self.owned {
            Some(value) => value,
            None => self
                .read
                .get_or_init(|| Box::new(T::read_from(self.source.as_ref()))),
        }
    }

    /// The value, to change.
    pub(super) fn get_mut(&mut self) -> &mut T {
        let (read, source) = (&mut self.read, &mut self.source);
        self.owned.get_or_insert_with(|| {
            let value = read
                .take()
                .unwrap_or_else(|| Box::new(T::read_from(source.as_ref())));
            *source = None;
            value
        })
    }

    /// The value read (or changed) so far and the source it is read from.
    pub(super) fn parts(&self) -> (Option<&T>, Option<&S>) {
        let known = self.owned.as_deref().or(self.read.get().map(|b| &**b));
        (known, self.source.as_ref())
    }

    /// Whether the value was read (or changed) since it was made.
    #[cfg(test)]
    pub(super) fn is_read(&self) -> bool {
        self.parts().0.is_some()
    }

    /// The value, taken.
    fn into_value(self) -> T {
        match (self.owned, self.read.into_inner()) {
            (Some(value), _) | (None, Some(value)) => *value,
            (None, None) => T::read_from(self.source.as_ref()),
        }
    }

    /// Fills what this value lacks from `other`; the same source known twice
    /// stays unread.
    pub(super) fn absorb(&mut self, other: Self) {
        let unchanged = |l: &Self| l.owned.is_none();
        if unchanged(self) && unchanged(&other) && self.source == other.source {
            return;
        }
        self.get_mut().absorb(other.into_value());
    }
}

impl<S, T> From<T> for Lazy<S, T> {
    fn from(value: T) -> Self {
        Self {
            owned: Some(Box::new(value)),
            ..Self::default()
        }
    }
}

impl<S: PartialEq, T: Readable<S> + PartialEq> PartialEq for Lazy<S, T> {
    fn eq(&self, other: &Self) -> bool {
        self.get() == other.get()
    }
}
