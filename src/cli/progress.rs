//! A progress bar on standard error, for runs with many units on a terminal.

use std::io::{IsTerminal, Write};
use std::sync::Arc;

use hookrun::run::{Progress, ProgressHook};

/// Runs with fewer units than this show no bar.
const MIN_UNITS: usize = 10;
const WIDTH: usize = 30;

/// A bar when standard error is a terminal, else nothing.
pub fn terminal_bar() -> Option<ProgressHook> {
    std::io::stderr()
        .is_terminal()
        .then(|| ProgressHook(Arc::new(draw)))
}

fn draw(p: Progress) {
    if p.total < MIN_UNITS {
        return;
    }
    let filled = WIDTH * p.done / p.total.max(1);
    let mut err = std::io::stderr().lock();
    let _ = write!(
        err,
        "\r{:<9} [{}{}] {}/{} units",
        p.phase.as_str(),
        "#".repeat(filled),
        " ".repeat(WIDTH - filled),
        p.done,
        p.total
    );
    if p.done == p.total && p.phase == hookrun::run::Phase::Apply {
        let _ = write!(err, "\r{}\r", " ".repeat(WIDTH + 30));
    }
    let _ = err.flush();
}
