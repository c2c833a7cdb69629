//! Errors raised while reading a SelectionContext.

/// Why a JSON value is not an acceptable SelectionContext.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SelectionError {
    /// The value has neither an `items` array nor the grouped `items` object.
    #[error("Canonical locked selection is required")]
    CanonicalRequired,
    /// A value at `pointer` has the wrong type or is missing.
    #[error("{pointer}: {message}")]
    Invalid {
        /// JSON pointer of the first problem (`""` is the root).
        pointer: String,
        /// What was expected there.
        message: String,
    },
}

impl SelectionError {
    /// An [`SelectionError::Invalid`] at `pointer`.
    pub fn invalid(pointer: &str, message: impl Into<String>) -> Self {
        Self::Invalid {
            pointer: pointer.to_owned(),
            message: message.into(),
        }
    }
}
