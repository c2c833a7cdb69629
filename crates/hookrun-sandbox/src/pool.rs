//! A pool of warm sandboxes, kept per root directory and options, so a host that
//! runs the same workflow again gets a runtime with the prelude installed and
//! the hook modules already loaded instead of starting one.
//!
//! A runtime that breached a limit, or whose prelude failed, is never kept: a
//! [`Sandbox`] drops such a runtime itself, and the pool only takes back
//! sandboxes that still hold one.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

use super::{Sandbox, SandboxError, SandboxOptions};

/// How many warm sandboxes a [`SandboxPool`] keeps, and for how long.
///
/// When a sandbox comes back and a bound is exceeded, the least recently
/// returned sandbox is evicted first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolOptions {
    /// Idle sandboxes kept in all.
    pub max_idle: usize,
    /// Idle sandboxes kept for one root directory (one workflow).
    pub max_idle_per_root: usize,
    /// An idle sandbox older than this is evicted.
    pub idle_timeout: Duration,
    /// Times one runtime is lent out before it is retired, bounding how long
    /// module state and heap growth of one runtime can last.
    pub max_loans: u32,
    /// Take lent runtimes back for further loans. When false, a runtime is
    /// used by one loan only: the pool lends runtimes that
    /// [`SandboxPool::prewarm`] started and no hook has run in, so every loan
    /// starts from a clean module state without waiting for a runtime to start.
    pub reuse: bool,
}

impl Default for PoolOptions {
    /// 8 idle sandboxes, 2 per root, 5 minutes idle, 1,000 loans per runtime,
    /// reused.
    fn default() -> PoolOptions {
        PoolOptions {
            max_idle: 8,
            max_idle_per_root: 2,
            idle_timeout: Duration::from_secs(300),
            max_loans: 1_000,
            reuse: true,
        }
    }
}

/// What a pool did so far.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PoolStats {
    /// Loans served by a warm sandbox.
    pub hits: u64,
    /// Loans served by a new sandbox.
    pub misses: u64,
    /// Warm sandboxes dropped by the eviction policy.
    pub evicted: u64,
    /// Sandboxes not taken back: no runtime left (a limit was breached, the
    /// engine did not start, or it was reset), too many loans, or a pool that
    /// does not reuse runtimes.
    pub discarded: u64,
    /// Runtimes started ahead of their loan by [`SandboxPool::prewarm`].
    pub prewarmed: u64,
}

struct Idle {
    sandbox: Sandbox,
    returned: Instant,
    loans: u32,
}

struct Inner {
    options: PoolOptions,
    idle: VecDeque<Idle>,
    stats: PoolStats,
}

impl Inner {
    fn evict_expired(&mut self, now: Instant) {
        let timeout = self.options.idle_timeout;
        let before = self.idle.len();
        self.idle
            .retain(|i| now.saturating_duration_since(i.returned) < timeout);
        self.stats.evicted += (before - self.idle.len()) as u64;
    }

    fn take_back(&mut self, sandbox: Sandbox, loans: u32) {
        self.evict_expired(Instant::now());
        if !self.options.reuse || !sandbox.is_warm() || loans >= self.options.max_loans {
            self.stats.discarded += 1;
            return;
        }
        self.keep(sandbox, loans);
    }

    /// Makes `sandbox` the most recently returned idle one, evicting as the
    /// bounds require.
    fn keep(&mut self, sandbox: Sandbox, loans: u32) {
        let now = Instant::now();
        let per_root = self.options.max_idle_per_root;
        if per_root == 0 || self.options.max_idle == 0 {
            self.stats.evicted += 1;
            return;
        }
        let same_root = |i: &Idle| i.sandbox.root() == sandbox.root();
        if self.idle.iter().filter(|i| same_root(i)).count() >= per_root
            && let Some(oldest) = self.idle.iter().position(same_root)
        {
            self.idle.remove(oldest);
            self.stats.evicted += 1;
        }
        self.idle.push_back(Idle {
            sandbox,
            returned: now,
            loans,
        });
        while self.idle.len() > self.options.max_idle {
            self.idle.pop_front();
            self.stats.evicted += 1;
        }
    }
}

/// Warm sandboxes for reuse, per root directory and [`SandboxOptions`].
///
/// A loaned sandbox keeps the module state of earlier loans, as one run's hooks
/// do between units, and with [`SandboxOptions::determinism`] its seeded
/// `Math.random()` continues where the last loan left it. Hosts that need a
/// clean module state on every loan turn [`PoolOptions::reuse`] off and
/// [`prewarm`](SandboxPool::prewarm) runtimes while idle. Cloning a pool gives
/// another handle to the same sandboxes. A pool belongs to one thread, like
/// the runtimes it holds.
///
/// ```no_run
/// use hookrun_sandbox::{PoolOptions, SandboxOptions, SandboxPool};
///
/// let pool = SandboxPool::new(PoolOptions::default());
/// for _ in 0..2 {
///     let mut sandbox = pool.acquire("fixtures/sandbox", SandboxOptions::default())?;
///     sandbox.call("happy.mjs".as_ref(), "greet", &serde_json::json!({"name": "Ada"}));
/// } // the second loan reuses the first runtime, with happy.mjs loaded
/// assert_eq!(pool.stats().hits, 1);
/// # Ok::<(), hookrun_sandbox::SandboxError>(())
/// ```
#[derive(Clone)]
pub struct SandboxPool {
    inner: Rc<RefCell<Inner>>,
}

impl SandboxPool {
    /// An empty pool.
    pub fn new(options: PoolOptions) -> SandboxPool {
        SandboxPool {
            inner: Rc::new(RefCell::new(Inner {
                options,
                idle: VecDeque::new(),
                stats: PoolStats::default(),
            })),
        }
    }

    /// Lends a sandbox for `root` with `options`: the most recently returned
    /// warm one, or a new one. It comes back to the pool when the loan is
    /// dropped.
    pub fn acquire(
        &self,
        root: impl AsRef<Path>,
        options: SandboxOptions,
    ) -> Result<PooledSandbox, SandboxError> {
        let canonical = canonical_root(root.as_ref())?;
        let mut inner = self.inner.borrow_mut();
        inner.evict_expired(Instant::now());
        let found = inner
            .idle
            .iter()
            .rposition(|i| i.sandbox.root() == canonical && *i.sandbox.options() == options);
        let (sandbox, loans) = match found.and_then(|at| inner.idle.remove(at)) {
            Some(idle) => {
                inner.stats.hits += 1;
                (idle.sandbox, idle.loans)
            }
            None => {
                inner.stats.misses += 1;
                (Sandbox::new(&canonical, options)?, 0)
            }
        };
        Ok(PooledSandbox {
            sandbox,
            loans: loans + 1,
            pool: Rc::clone(&self.inner),
        })
    }

    /// Starts runtimes for `root` with `options` until `count` idle ones are
    /// ready to be lent (within the pool's bounds), so that later loans do not
    /// wait for a runtime to start; returns how many it started. Call it when
    /// the host is idle: it takes as long as starting that many runtimes.
    pub fn prewarm(
        &self,
        root: impl AsRef<Path>,
        options: SandboxOptions,
        count: usize,
    ) -> Result<usize, SandboxError> {
        let canonical = canonical_root(root.as_ref())?;
        let target = {
            let bounds = self.inner.borrow().options;
            count.min(bounds.max_idle_per_root).min(bounds.max_idle)
        };
        let ready = |inner: &Inner| {
            inner
                .idle
                .iter()
                .filter(|i| i.sandbox.root() == canonical && *i.sandbox.options() == options)
                .count()
        };
        let mut started = 0;
        while ready(&self.inner.borrow()) < target {
            let mut sandbox = Sandbox::new(&canonical, options)?;
            sandbox.warm_up()?;
            let mut inner = self.inner.borrow_mut();
            inner.stats.prewarmed += 1;
            inner.keep(sandbox, 0);
            started += 1;
        }
        Ok(started)
    }

    /// Sandboxes waiting to be lent.
    pub fn idle(&self) -> usize {
        self.inner.borrow().idle.len()
    }

    /// Idle sandboxes for `root`.
    pub fn idle_for(&self, root: &Path) -> usize {
        let root = root.canonicalize().unwrap_or_else(|_| PathBuf::from(root));
        let inner = self.inner.borrow();
        inner
            .idle
            .iter()
            .filter(|i| i.sandbox.root() == root)
            .count()
    }

    /// Counters of loans, evictions and discards.
    pub fn stats(&self) -> PoolStats {
        self.inner.borrow().stats
    }

    /// Drops every idle sandbox.
    pub fn clear(&self) {
        let mut inner = self.inner.borrow_mut();
        inner.stats.evicted += inner.idle.len() as u64;
        inner.idle.clear();
    }
}

/// The canonical form of a pool root, so that two spellings of one directory
/// share their sandboxes.
fn canonical_root(given: &Path) -> Result<PathBuf, SandboxError> {
    given.canonicalize().map_err(|source| SandboxError::Root {
        path: given.to_path_buf(),
        source,
    })
}

impl fmt::Debug for SandboxPool {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let inner = self.inner.borrow();
        f.debug_struct("SandboxPool")
            .field("options", &inner.options)
            .field("idle", &inner.idle.len())
            .field("stats", &inner.stats)
            .finish()
    }
}

/// A sandbox lent by a [`SandboxPool`]; use it as a [`Sandbox`]. Dropping it
/// returns it to the pool when its runtime can serve further calls.
pub struct PooledSandbox {
    sandbox: Sandbox,
    loans: u32,
    pool: Rc<RefCell<Inner>>,
}

impl Deref for PooledSandbox {
    type Target = Sandbox;

    fn deref(&self) -> &Sandbox {
        &self.sandbox
    }
}

impl DerefMut for PooledSandbox {
    fn deref_mut(&mut self) -> &mut Sandbox {
        &mut self.sandbox
    }
}

impl Drop for PooledSandbox {
    fn drop(&mut self) {
        if let Ok(mut pool) = self.pool.try_borrow_mut() {
            pool.take_back(self.sandbox.take_runtime(), self.loans);
        }
    }
}
