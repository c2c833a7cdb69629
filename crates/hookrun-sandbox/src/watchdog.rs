//! A per-runtime watchdog thread that terminates JS execution at a deadline.
//!
//! Each call arms the watchdog with a fresh generation number and disarms it when
//! it ends. The watchdog only terminates execution for the generation that is still
//! armed, so a deadline left over from an earlier call can never stop a later one.
//!
//! Arming wakes the watchdog thread only when it would otherwise sleep past the
//! new deadline; a thread already waiting for an earlier deadline rechecks then.
//! So a run of short calls does not switch to the watchdog thread on every call.

use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use deno_core::v8::IsolateHandle;

#[derive(Default)]
struct State {
    armed: Option<(u64, Instant)>,
    generation: u64,
    fired: Option<u64>,
    shutdown: bool,
    /// When the watchdog thread wakes up by itself; `None` while it sleeps
    /// until notified.
    wakes_at: Option<Instant>,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Terminates an isolate's execution when an armed deadline passes.
pub(crate) struct Watchdog {
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// Starts the watchdog thread for `isolate`.
    pub fn start(isolate: IsolateHandle) -> std::io::Result<Watchdog> {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
        });
        let worker = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name("hookrun-watchdog".into())
            .spawn(move || watch(&worker, &isolate))?;
        Ok(Watchdog {
            shared,
            thread: Some(thread),
        })
    }

    /// Arms the watchdog for a call that may run for `limit`.
    pub fn arm(&self, limit: Duration) {
        let mut state = self.shared.lock();
        state.generation += 1;
        let deadline = Instant::now()
            .checked_add(limit)
            .unwrap_or_else(|| Instant::now() + Duration::from_secs(86_400 * 365));
        state.armed = Some((state.generation, deadline));
        state.fired = None;
        if state.wakes_at.is_none_or(|wakes| wakes > deadline) {
            self.shared.wake.notify_one();
        }
    }

    /// Disarms the watchdog; returns whether it fired for the current call.
    pub fn disarm(&self) -> bool {
        let mut state = self.shared.lock();
        state.armed = None;
        let fired = state.fired == Some(state.generation);
        state.fired = None;
        fired
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.shared.lock().shutdown = true;
        self.shared.wake.notify_one();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn watch(shared: &Shared, isolate: &IsolateHandle) {
    let mut state = shared.lock();
    loop {
        if state.shutdown {
            return;
        }
        match state.armed {
            None => {
                state.wakes_at = None;
                state = shared
                    .wake
                    .wait(state)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            Some((generation, deadline)) => {
                let now = Instant::now();
                if now >= deadline {
                    state.fired = Some(generation);
                    state.armed = None;
                    isolate.terminate_execution();
                } else {
                    state.wakes_at = Some(deadline);
                    state = shared
                        .wake
                        .wait_timeout(state, deadline - now)
                        .unwrap_or_else(PoisonError::into_inner)
                        .0;
                }
            }
        }
    }
}
