//! Progress of long runs on standard error, with rate and time left, on a
//! terminal only (`indicatif`).

use std::io::IsTerminal;
use std::sync::{Arc, Mutex, MutexGuard};

use hookrun::run::{Phase, Progress, ProgressHook};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// Runs with fewer units than this show no bar.
const MIN_UNITS: usize = 10;

/// The bar on screen, if any, with the phase it counts: what is printed while
/// it shows goes through [`suspended`].
static SHOWN: Mutex<Option<(ProgressBar, Phase)>> = Mutex::new(None);

fn shown() -> MutexGuard<'static, Option<(ProgressBar, Phase)>> {
    SHOWN.lock().unwrap_or_else(|e| e.into_inner())
}

/// Runs `print` with the bar (if one shows) taken off the screen, so lines
/// printed during a run do not mix with it.
pub fn suspended<R>(print: impl FnOnce() -> R) -> R {
    let bar = shown().as_ref().map(|(bar, _)| bar.clone());
    match bar {
        Some(bar) => bar.suspend(print),
        None => print(),
    }
}

/// A bar when standard error is a terminal, else nothing.
pub fn terminal_bar() -> Option<ProgressHook> {
    if !std::io::stderr().is_terminal() {
        return None;
    }
    let style =
        ProgressStyle::with_template("{prefix:>9} [{bar:30}] {pos}/{len} units  {rate}  ETA {eta}")
            .ok()?
            .with_key(
                "rate",
                |state: &ProgressState, out: &mut dyn std::fmt::Write| {
                    let _ = write!(out, "{:.0}/s", state.per_sec());
                },
            )
            .progress_chars("#>-");
    Some(ProgressHook(Arc::new(move |p: Progress| {
        if p.total < MIN_UNITS {
            return;
        }
        let mut shown = shown();
        // Made when a run is long enough to show, and started again at each phase.
        if shown.as_ref().is_none_or(|(_, phase)| *phase != p.phase) {
            let bar = match shown.take() {
                Some((bar, _)) => {
                    bar.reset();
                    bar.set_prefix(p.phase.as_str());
                    bar.set_length(p.total as u64);
                    bar
                }
                None => ProgressBar::with_draw_target(
                    Some(p.total as u64),
                    ProgressDrawTarget::stderr(),
                )
                .with_style(style.clone())
                .with_prefix(p.phase.as_str()),
            };
            *shown = Some((bar, p.phase));
        }
        let Some((bar, _)) = &*shown else {
            return;
        };
        bar.set_position(p.done as u64);
        if p.done == p.total && p.phase == Phase::Apply {
            bar.finish_and_clear();
            *shown = None;
        }
    })))
}
