//! Tracing of runs (feature `tracing`, on by default): a span for each run
//! (workflow id, units), window of units, unit apply and hook call (workflow
//! id, hook, unit id; then outcome, wall time, heap used, op calls), and
//! events for a limit a call passed and for a worker that crashed. A host
//! sees them through whatever `tracing` subscriber it installs. Without the
//! feature these helpers compile to nothing.

#[cfg(feature = "tracing")]
use crate::sandbox::CallResult;
use crate::sandbox::Outcome;

/// An entered span; it ends when dropped.
#[cfg(feature = "tracing")]
pub(crate) type Entered = tracing::span::EnteredSpan;
/// Nothing, without the feature.
#[cfg(not(feature = "tracing"))]
pub(crate) struct Entered;

/// The span of one run.
pub(crate) fn run(workflow: &str) -> Entered {
    #[cfg(feature = "tracing")]
    return tracing::info_span!("run", workflow).entered();
    #[cfg(not(feature = "tracing"))]
    {
        let _ = workflow;
        Entered
    }
}

/// The span of the `index`th window of units, of `units` units.
pub(crate) fn window(index: usize, units: usize) -> Entered {
    #[cfg(feature = "tracing")]
    return tracing::info_span!("window", index, units).entered();
    #[cfg(not(feature = "tracing"))]
    {
        let _ = (index, units);
        Entered
    }
}

/// The span of a unit's apply.
pub(crate) fn unit(unit: &str) -> Entered {
    #[cfg(feature = "tracing")]
    return tracing::info_span!("unit", unit).entered();
    #[cfg(not(feature = "tracing"))]
    {
        let _ = unit;
        Entered
    }
}

/// The span of a hook call, its outcome recorded by [`hook_done`].
pub(crate) fn hook(workflow: &str, hook: &str, unit: &str) -> Entered {
    #[cfg(feature = "tracing")]
    return tracing::info_span!(
        "hook",
        workflow,
        hook,
        unit,
        outcome = tracing::field::Empty,
        wall_ms = tracing::field::Empty,
        heap_used = tracing::field::Empty,
        op_calls = tracing::field::Empty,
    )
    .entered();
    #[cfg(not(feature = "tracing"))]
    {
        let _ = (workflow, hook, unit);
        Entered
    }
}

/// Records a hook call's `outcome` in its span, with an event when it passed
/// a limit or its worker crashed.
pub(crate) fn hook_done(span: &Entered, outcome: &Outcome) {
    #[cfg(feature = "tracing")]
    {
        let usage = &outcome.usage;
        span.record("outcome", outcome.result.name());
        span.record("wall_ms", usage.wall_ms);
        span.record("op_calls", usage.op_calls);
        if let Some(heap) = usage.heap_used_bytes {
            span.record("heap_used", heap);
        }
        match &outcome.result {
            CallResult::EngineCrash { cause, .. } => {
                tracing::error!(
                    cause = cause.as_str(),
                    "the worker running the hook crashed"
                );
            }
            result if result.breaches_limit() => {
                tracing::warn!(
                    limit = result.name(),
                    message = result.error_message().unwrap_or_default().as_str(),
                    "the hook call passed a limit"
                );
            }
            _ => {}
        }
    }
    #[cfg(not(feature = "tracing"))]
    let _ = (span, outcome);
}

/// How the caller of a run traces: its subscriber and current span, for a run
/// started on another thread to be traced as if it ran where it was asked for.
pub(crate) struct Context {
    #[cfg(feature = "tracing")]
    dispatch: tracing::Dispatch,
    #[cfg(feature = "tracing")]
    span: tracing::Span,
}

/// The calling thread's tracing context.
pub(crate) fn context() -> Context {
    Context {
        #[cfg(feature = "tracing")]
        dispatch: tracing::dispatcher::get_default(Clone::clone),
        #[cfg(feature = "tracing")]
        span: tracing::Span::current(),
    }
}

impl Context {
    /// Runs `work` traced as the context's thread would trace it.
    pub(crate) fn within<R>(self, work: impl FnOnce() -> R) -> R {
        #[cfg(feature = "tracing")]
        return tracing::dispatcher::with_default(&self.dispatch, || self.span.in_scope(work));
        #[cfg(not(feature = "tracing"))]
        work()
    }
}
