//! What a runtime does when a call reaches its heap cap.
//!
//! The near-heap-limit callback decides the heap limit the engine continues
//! with while the termination it requested takes effect.
//!
//! On QuickJS that limit is the hard allocation cap, and one more thing must
//! happen: QuickJS-ng (as deno_core 0.413 builds it) frees a value twice when an
//! allocation fails while it stores the call-site objects it hands to the
//! embedder's stack formatter. Once the cap is reached, the runtime therefore
//! detaches that formatter (again at every later breach, in case the engine put
//! it back meanwhile), so every later error of the call gets the engine's
//! plain text backtrace, whose builder survives running out of memory. The
//! first breach also grants a small grace, so a backtrace already being built
//! with call sites can finish.
//!
//! Until the requested termination takes effect (the next host call, or the
//! engine's next interrupt poll) the hook keeps running in a runtime that is
//! discarded afterwards: stacks it reads in that window may show other frames
//! or the engine's call-site objects, but host calls are refused and the call
//! ends with `memory-limit` whatever the hook returns.

use deno_core::v8;

/// The runtime-specific half of the heap cap.
pub(crate) struct HeapCap {
    #[cfg(feature = "quickjs")]
    context: quickjs::RawContext,
    breached: bool,
}

impl HeapCap {
    /// The cap of the runtime whose main context is `context`.
    pub(crate) fn new(context: &v8::Context) -> HeapCap {
        #[cfg(not(feature = "quickjs"))]
        let _ = context;
        HeapCap {
            #[cfg(feature = "quickjs")]
            context: quickjs::RawContext::of(context),
            breached: false,
        }
    }

    /// Called by the engine when the heap reaches `current`; returns the limit
    /// to continue with until the requested termination takes effect.
    pub(crate) fn on_breach(&mut self, current: usize) -> usize {
        let first = !self.breached;
        self.breached = true;
        self.limit_after(first, current)
    }

    /// QuickJS moves its hard allocation cap to the returned limit: after the
    /// first breach's grace the limit must not grow again.
    #[cfg(feature = "quickjs")]
    fn limit_after(&self, first: bool, current: usize) -> usize {
        self.context.detach_stack_formatter();
        if first {
            current.saturating_add(grace(current))
        } else {
            current
        }
    }

    /// V8 needs room to unwind the termination or it aborts the process.
    #[cfg(not(feature = "quickjs"))]
    fn limit_after(&self, _first: bool, current: usize) -> usize {
        current.saturating_mul(2)
    }
}

/// The one-off room the first breach grants: enough for a backtrace under
/// construction to finish, small next to the cap.
#[cfg(feature = "quickjs")]
fn grace(current: usize) -> usize {
    const MIN_GRACE: usize = 2 * 1024 * 1024;
    (current / 16).max(MIN_GRACE)
}

#[cfg(all(feature = "quickjs", not(target_pointer_width = "64")))]
compile_error!("the QuickJS value layout in breach.rs assumes a 64-bit target");

#[cfg(feature = "quickjs")]
mod quickjs {
    use std::ffi::c_void;

    use deno_core::v8;

    /// A QuickJS value as the C API passes it on 64-bit targets.
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct RawValue {
        payload: u64,
        tag: i64,
    }

    const TAG_UNDEFINED: i64 = 3;
    /// The tag the engine's `v8::Context` handles carry around the
    /// `JSContext` pointer.
    const TAG_CONTEXT_HANDLE: i64 = 0x7632;

    unsafe extern "C" {
        fn JS_SetPrepareStackTraceCallback(ctx: *mut c_void, callback: RawValue);
    }

    /// The `JSContext` behind a runtime's main context.
    pub(super) struct RawContext(*mut c_void);

    impl RawContext {
        pub(super) fn of(context: &v8::Context) -> RawContext {
            let handle = std::ptr::from_ref(context).cast::<RawValue>();
            // SAFETY: on QuickJS a `v8::Context` reference points either at a
            // handle slot holding a value tagged `TAG_CONTEXT_HANDLE` whose
            // payload is the `JSContext`, or at the `JSContext` itself, which is
            // far larger than a value; both are readable for 16 bytes.
            let value = unsafe { handle.read_unaligned() };
            if value.tag == TAG_CONTEXT_HANDLE {
                RawContext(value.payload as *mut c_void)
            } else {
                RawContext(handle.cast_mut().cast())
            }
        }

        /// Stops the engine from building call sites for its stack formatter.
        pub(super) fn detach_stack_formatter(&self) {
            let undefined = RawValue {
                payload: 0,
                tag: TAG_UNDEFINED,
            };
            // SAFETY: the context lives as long as its runtime, which owns the
            // near-heap-limit callback this is called from; replacing the
            // callback with `undefined` is what QuickJS does for a context that
            // never had one.
            unsafe { JS_SetPrepareStackTraceCallback(self.0, undefined) };
        }
    }
}
