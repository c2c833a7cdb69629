//! Colour in the human output: the `--color` choice, and the styles of
//! verdicts, diffs and code frames.
//!
//! Styled text is printed through `anstream`, which drops the escape codes when
//! colour is off: `--color never`, or `auto` (the default) when `NO_COLOR` is
//! set or the stream is not a terminal; `CLICOLOR_FORCE` turns it on where
//! `auto` would not. An explicit `always` or `never` wins over both variables.

use std::fmt::Display;

use anstyle::{AnsiColor, Effects, Style};
use clap::ValueEnum;

/// When the human output is coloured.
#[derive(Clone, Copy, Debug, Default, ValueEnum)]
pub enum ColorChoice {
    /// On a terminal, unless `NO_COLOR` is set; anywhere when `CLICOLOR_FORCE` is.
    #[default]
    Auto,
    /// Always, whatever the variables say.
    Always,
    /// Never, whatever the variables say.
    Never,
}

/// Applies `choice` to everything printed afterwards.
pub fn init(choice: ColorChoice) {
    anstream::ColorChoice::write_global(match choice {
        ColorChoice::Auto => anstream::ColorChoice::Auto,
        ColorChoice::Always => anstream::ColorChoice::Always,
        ColorChoice::Never => anstream::ColorChoice::Never,
    });
}

/// A passed case.
pub const PASSED: Style = AnsiColor::Green.on_default();
/// A failed case, an error.
pub const FAILED: Style = AnsiColor::Red.on_default().effects(Effects::BOLD);
/// A case whose expectations were written.
pub const BLESSED: Style = AnsiColor::Yellow.on_default();
/// Lines only the expectation has.
pub const REMOVED: Style = AnsiColor::Red.on_default();
/// Lines only the run has.
pub const ADDED: Style = AnsiColor::Green.on_default();
/// The words that changed inside a removed line.
pub const REMOVED_WORDS: Style = AnsiColor::Red.on_default().effects(Effects::INVERT);
/// The words that changed inside an added line.
pub const ADDED_WORDS: Style = AnsiColor::Green.on_default().effects(Effects::INVERT);
/// Line numbers, gutters and arrows of code frames.
pub const GUTTER: Style = AnsiColor::Blue.on_default().effects(Effects::BOLD);
/// The caret under a failing column.
pub const CARET: Style = AnsiColor::Red.on_default().effects(Effects::BOLD);

/// `text` in `style`.
pub fn paint(style: Style, text: impl Display) -> String {
    format!("{style}{text}{style:#}")
}
