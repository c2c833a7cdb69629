//! The parent side: start workers with no authority beyond their pipes and kernel
//! limits of their own, serve their host calls, turn a dead or garbled worker into
//! [`CallResult::EngineCrash`], and keep idle workers for reuse.

use std::borrow::Cow;
use std::cell::RefCell;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::fd::AsRawFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, ExitStatus, Stdio};
use std::rc::Rc;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde_json::Value;

use super::protocol::{FromWorker, ToWorker, WorkerExit};
use super::{parse_frame, worker_binary, write_frame};
use crate::outcome::{CallResult, Outcome, Usage};
use crate::{BridgeError, Call, Fault, HostBridge, ProcessLimits, SandboxError, SandboxOptions};

/// Bytes of a worker's standard error shown in a crash report.
const STDERR_TAIL: u64 = 4096;
/// The largest file a worker may write (its standard error is one); past it the
/// kernel stops the worker.
const MAX_STDERR_BYTES: u64 = 1024 * 1024;
/// Idle workers kept for reuse, at most.
const MAX_IDLE: usize = 8;
/// How long a worker may take to start and warm up.
const START_TIMEOUT: Duration = Duration::from_secs(30);

/// A worker process held by a sandbox; when the sandbox lets it go, a healthy one is
/// kept for reuse.
pub(crate) struct Worker {
    process: Option<Proc>,
}

/// A running worker process, bound to one root and options while a sandbox holds it.
struct Proc {
    child: Child,
    input: ChildStdin,
    frames: FrameReader,
    /// The worker's standard error: an unlinked file only the two share.
    stderr: File,
    options: SandboxOptions,
    limits: ProcessLimits,
    calls: u32,
    /// Set when the worker died or broke the protocol; it must be replaced.
    poisoned: bool,
    /// Whether the worker's runtime survived the last call (a breach discards it,
    /// and the sandbox must then let the worker go, as it drops an in-process one).
    warm: bool,
}

/// Workers whose sandbox let them go, with the options they were started with.
static IDLE: Mutex<Vec<Proc>> = Mutex::new(Vec::new());

impl Worker {
    /// A worker serving `root` with `options`: an idle one started with the same
    /// options, or a new process.
    pub fn start(
        root: &Path,
        options: SandboxOptions,
        process: ProcessLimits,
    ) -> Result<Worker, SandboxError> {
        let idle = IDLE.lock().ok().and_then(|mut idle| {
            let at = idle.iter().position(|w| w.options == options)?;
            Some(idle.swap_remove(at))
        });
        // An idle worker that cannot take the new root (it died while waiting) is
        // replaced by a new one.
        if let Some(mut proc) = idle {
            if proc.init(root).is_ok() {
                return Ok(Worker {
                    process: Some(proc),
                });
            }
            proc.kill();
        }
        let mut proc = Proc::spawn(options, process)?;
        if let Err(e) = proc.init(root) {
            proc.kill();
            return Err(e);
        }
        Ok(Worker {
            process: Some(proc),
        })
    }

    /// Whether the sandbox must let this worker go: it died, broke the protocol, or
    /// its runtime breached a limit.
    pub fn poisoned(&self) -> bool {
        self.process.as_ref().is_none_or(|p| p.poisoned || !p.warm)
    }

    /// The worker's process id.
    pub fn pid(&self) -> Option<u32> {
        self.process.as_ref().map(|p| p.child.id())
    }

    /// Runs one call in the worker, answering its host calls with `call.host`.
    pub fn call(&mut self, call: Call<'_>) -> Outcome {
        match self.process.as_mut() {
            Some(process) => process.call(call),
            None => gone().outcome(Instant::now()),
        }
    }

    /// Lists the exports of `module` in the worker.
    pub fn exports(&mut self, module: &Path) -> Result<Vec<(String, bool)>, CallResult> {
        match self.process.as_mut() {
            Some(process) => process.exports(module),
            None => Err(gone().outcome(Instant::now()).result),
        }
    }
}

fn gone() -> Dead {
    Dead {
        cause: "the worker is gone".into(),
        stderr_tail: String::new(),
        timeout_ms: None,
    }
}

impl Drop for Worker {
    /// A healthy worker with calls left goes back to the idle list without its
    /// runtime; any other is killed.
    fn drop(&mut self) {
        let Some(mut process) = self.process.take() else {
            return;
        };
        let reusable = !process.poisoned
            && process.calls < process.limits.max_calls
            && process.send(&ToWorker::Release).is_ok();
        if reusable
            && let Ok(mut idle) = IDLE.lock()
            && idle.len() < MAX_IDLE
        {
            idle.push(process);
            return;
        }
        process.kill();
    }
}

/// The command that starts a worker from `binary` in `dir`, its standard
/// error going to `stderr`, confined to the address space and CPU time that
/// `options` and `process` allow.
fn worker_command(
    binary: &Path,
    dir: &Path,
    stderr: File,
    options: &SandboxOptions,
    process: &ProcessLimits,
) -> Command {
    let address_space = options
        .limits
        .max_heap_bytes
        .saturating_add(process.address_space_margin_bytes);
    let cpu_seconds = (options.limits.timeout_ms + process.cpu_margin_ms).div_ceil(1000) + 1;
    let mut command = Command::new(binary);
    command
        .arg(super::WORKER_ARG)
        .env_clear()
        // The hookrun binary allocates with mimalloc, which reserves address
        // space a gigabyte at a time: under the address-space cap below that
        // would leave the engine nothing. Reserved a little at a time it
        // fits, and the cap still holds.
        .env("MIMALLOC_ARENA_RESERVE", "16MiB")
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::from(stderr));
    // SAFETY: the closure runs in the forked child before exec and only makes
    // async-signal-safe system calls on values copied into it.
    unsafe {
        command.pre_exec(move || confine(address_space, cpu_seconds));
    }
    command
}

impl Proc {
    fn spawn(options: SandboxOptions, process: ProcessLimits) -> Result<Proc, SandboxError> {
        let binary = worker_binary().ok_or_else(|| {
            SandboxError::Engine(
                "no hookrun binary to run workers with: name it with set_worker_binary or $HOOKRUN_WORKER".into(),
            )
        })?;
        let dir = tempfile::Builder::new()
            .prefix("hookrun-worker-")
            .tempdir()
            .map_err(|e| SandboxError::Engine(format!("cannot make a worker directory: {e}")))?;
        let stderr = tempfile::tempfile()
            .and_then(|f| Ok((f.try_clone()?, f)))
            .map_err(|e| SandboxError::Engine(format!("cannot make a worker log: {e}")))?;
        let mut command = worker_command(&binary, dir.path(), stderr.0, &options, &process);
        let spawned = command.spawn();
        // The worker keeps its (now empty and unlinked) working directory; nothing
        // is left behind on disk.
        drop(dir);
        let mut child = spawned.map_err(|e| {
            SandboxError::Engine(format!("cannot start the worker {}: {e}", binary.display()))
        })?;
        let (Some(input), Some(output)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            let _ = child.wait();
            return Err(SandboxError::Engine("the worker has no pipes".into()));
        };
        Ok(Proc {
            child,
            input,
            frames: FrameReader {
                output,
                buf: Vec::new(),
            },
            stderr: stderr.1,
            options,
            limits: process,
            calls: 0,
            poisoned: false,
            warm: true,
        })
    }

    /// Points the worker at `root` (a fresh sandbox there, warmed up).
    fn init(&mut self, root: &Path) -> Result<(), SandboxError> {
        let frame = ToWorker::Init {
            root: Cow::Borrowed(root),
            options: self.options,
            startup: Cow::Borrowed(self.options.startup.name),
        };
        let reply = self
            .send(&frame)
            .and_then(|()| self.receive(Instant::now() + START_TIMEOUT))
            .map_err(|e| SandboxError::Engine(format!("the worker did not start: {}", e.cause)))?;
        match reply {
            FromWorker::Ready { error: Some(error) } => Err(SandboxError::Engine(error)),
            FromWorker::Ready { error: None } => {
                self.warm = true;
                Ok(())
            }
            _ => Err(SandboxError::Engine(
                self.garbled("an answer to init that is not one").cause,
            )),
        }
    }

    fn call(&mut self, call: Call<'_>) -> Outcome {
        self.calls += 1;
        // The argument crosses in the engine's encoding, made here once, so the
        // worker reads it straight into the engine; as JSON when there is none.
        // Shared values are not kept across a worker's calls: they cross with
        // the argument, as copies (`Call::shared`).
        let encoded = crate::crossing::encode(call.arg, call.placed);
        let frame = ToWorker::Call {
            module: Cow::Borrowed(call.module),
            export: Cow::Borrowed(call.export),
            arg: if encoded.is_some() {
                Cow::Owned(Value::Null)
            } else if call.placed.is_empty() {
                Cow::Borrowed(call.arg)
            } else {
                Cow::Owned(crate::crossing::filled(call.arg, call.placed, &[]))
            },
            encoded: encoded.is_some(),
            live: call.live.map(Cow::Borrowed),
            sync: call.sync,
            host: call.host.is_some(),
        };
        let started = Instant::now();
        let deadline = started
            + Duration::from_millis(self.options.limits.timeout_ms + self.limits.wall_margin_ms);
        if let Err(dead) = self.send_with(&frame, encoded.as_deref().unwrap_or_default()) {
            return dead.outcome(started);
        }
        loop {
            let reply = match self.receive(deadline) {
                Ok(reply) => reply,
                Err(dead) => return dead.outcome(started),
            };
            match reply {
                FromWorker::Host {
                    member,
                    args,
                    left_ms,
                } => {
                    let latest = started + Duration::from_millis(self.options.limits.timeout_ms);
                    let asked = Asked {
                        member: &member,
                        args,
                        left_ms,
                    };
                    let answer = answer_host(&call.host, asked, latest, self.options.startup.fault);
                    if let Err(dead) = self.send(&answer) {
                        return dead.outcome(started);
                    }
                }
                FromWorker::Outcome { outcome, warm } => {
                    self.warm = warm;
                    return outcome;
                }
                _ => return self.garbled("an unexpected frame").outcome(started),
            }
        }
    }

    fn exports(&mut self, module: &Path) -> Result<Vec<(String, bool)>, CallResult> {
        let started = Instant::now();
        let deadline = started
            + Duration::from_millis(self.options.limits.timeout_ms + self.limits.wall_margin_ms);
        let reply = self
            .send(&ToWorker::Exports {
                module: Cow::Borrowed(module),
            })
            .and_then(|()| self.receive(deadline))
            .map_err(|dead| dead.outcome(started).result)?;
        match reply {
            FromWorker::Exports { exports, warm } => {
                self.warm = warm;
                exports
            }
            _ => Err(self
                .garbled("an export list that is not one")
                .outcome(started)
                .result),
        }
    }

    fn send(&mut self, frame: &ToWorker<'_>) -> Result<(), Dead> {
        self.send_with(frame, &[])
    }

    fn send_with(&mut self, frame: &ToWorker<'_>, attachment: &[u8]) -> Result<(), Dead> {
        if write_frame(&mut self.input, frame, attachment).is_err() {
            return Err(self.died("the worker stopped reading"));
        }
        Ok(())
    }

    fn receive(&mut self, deadline: Instant) -> Result<FromWorker, Dead> {
        match self.frames.next(deadline) {
            Ok(frame) => Ok(frame),
            Err(Unread::Garbled(what)) => Err(self.garbled(&what)),
            Err(Unread::Closed) => Err(self.died("the worker closed its output")),
            Err(Unread::Timeout) => {
                self.kill();
                Err(Dead {
                    cause: "killed at the wall timeout".into(),
                    stderr_tail: self.stderr_tail(),
                    timeout_ms: Some(self.options.limits.timeout_ms),
                })
            }
        }
    }

    /// The worker broke the protocol: it is killed and reported as crashed.
    fn garbled(&mut self, what: &str) -> Dead {
        self.kill();
        Dead {
            cause: format!("the worker wrote {what}"),
            stderr_tail: self.stderr_tail(),
            timeout_ms: None,
        }
    }

    /// The worker is gone (or going): how it ended.
    fn died(&mut self, fallback: &str) -> Dead {
        self.poisoned = true;
        let status = wait_briefly(&mut self.child);
        if status.is_none() {
            self.kill();
        }
        Dead {
            cause: status.map_or_else(|| fallback.to_string(), describe),
            stderr_tail: self.stderr_tail(),
            timeout_ms: None,
        }
    }

    fn kill(&mut self) {
        self.poisoned = true;
        let _ = self.child.kill();
        let _ = self.child.wait();
    }

    /// The last [`STDERR_TAIL`] bytes the worker wrote to standard error.
    fn stderr_tail(&mut self) -> String {
        let len = self.stderr.seek(SeekFrom::End(0)).unwrap_or(0);
        let mut tail = Vec::new();
        if self
            .stderr
            .seek(SeekFrom::Start(len.saturating_sub(STDERR_TAIL)))
            .is_ok()
        {
            let _ = (&self.stderr).take(STDERR_TAIL).read_to_end(&mut tail);
        }
        String::from_utf8_lossy(&tail).into_owned()
    }
}

/// Why a worker could not finish a call.
struct Dead {
    cause: String,
    stderr_tail: String,
    /// Set when it was killed at the wall timeout.
    timeout_ms: Option<u64>,
}

impl Dead {
    fn outcome(self, started: Instant) -> Outcome {
        let result = match self.timeout_ms {
            Some(limit_ms) => CallResult::Timeout { limit_ms },
            None => CallResult::EngineCrash {
                cause: self.cause,
                stderr_tail: self.stderr_tail,
            },
        };
        Outcome {
            result,
            logs: Vec::new(),
            usage: Usage {
                wall_ms: started.elapsed().as_millis() as u64,
                ..Usage::default()
            },
        }
    }
}

/// A host call a worker asks its parent to serve.
struct Asked<'a> {
    member: &'a str,
    args: Value,
    /// Milliseconds left until the hook call's deadline, on the worker's clock.
    left_ms: u64,
}

/// The parent's answer to a worker's `host` frame, served by `latest` at the
/// latest (the worker's call is killed then).
fn answer_host(
    host: &Option<Rc<RefCell<dyn HostBridge>>>,
    asked: Asked<'_>,
    latest: Instant,
    fault: fn(&str, Fault<'_>) -> BridgeError,
) -> ToWorker<'static> {
    let Asked {
        member,
        args,
        left_ms,
    } = asked;
    let deadline = Instant::now()
        .checked_add(Duration::from_millis(left_ms))
        .map_or(latest, |d| d.min(latest));
    let (reply, breach) = match host.as_ref().map(|h| h.try_borrow_mut()) {
        None | Some(Err(_)) => (Err(fault(member, Fault::Unavailable)), None),
        Some(Ok(mut host)) => {
            let reply = crate::ops::ask(&mut *host, member, args, deadline, fault);
            (reply, host.take_breach())
        }
    };
    ToWorker::HostReply {
        answer: reply.map_err(|error| error.to_json()),
        breach,
    }
}

/// The exit status, if the child ends within a moment.
fn wait_briefly(child: &mut Child) -> Option<ExitStatus> {
    let until = Instant::now() + Duration::from_millis(500);
    loop {
        match child.try_wait() {
            Ok(Some(status)) => return Some(status),
            Ok(None) if Instant::now() < until => std::thread::sleep(Duration::from_millis(5)),
            _ => return None,
        }
    }
}

/// `signal 11 (SIGSEGV)` or `exit status 3`.
fn describe(status: ExitStatus) -> String {
    match (status.signal(), status.code()) {
        (Some(signal), _) => {
            let name = match signal {
                libc::SIGSEGV => " (SIGSEGV)",
                libc::SIGABRT => " (SIGABRT)",
                libc::SIGKILL => " (SIGKILL)",
                libc::SIGBUS => " (SIGBUS)",
                libc::SIGXCPU => " (SIGXCPU: CPU time limit)",
                libc::SIGILL => " (SIGILL)",
                libc::SIGFPE => " (SIGFPE)",
                _ => "",
            };
            format!("signal {signal}{name}")
        }
        (None, Some(code)) => match WorkerExit::meaning(code) {
            Some(meaning) => format!("exit status {code} ({meaning})"),
            None => format!("exit status {code}"),
        },
        _ => "ended".to_string(),
    }
}

/// Confines the forked child before exec: no new privileges, no core files, the
/// address space and CPU time capped, and every inherited descriptor but the three
/// standard ones closed at exec.
fn confine(address_space: u64, cpu_seconds: u64) -> std::io::Result<()> {
    // SAFETY: async-signal-safe system calls with plain values.
    unsafe {
        if libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let cap = |resource, soft: u64, hard: u64| {
            let limit = libc::rlimit {
                rlim_cur: soft,
                rlim_max: hard,
            };
            libc::setrlimit(resource, &limit)
        };
        if cap(libc::RLIMIT_CORE, 0, 0) != 0
            || cap(libc::RLIMIT_AS, address_space, address_space) != 0
            || cap(libc::RLIMIT_FSIZE, MAX_STDERR_BYTES, MAX_STDERR_BYTES) != 0
        {
            return Err(std::io::Error::last_os_error());
        }
        cap(libc::RLIMIT_CPU, cpu_seconds, libc::RLIM_INFINITY);
        // Close-on-exec for every descriptor above standard error (Linux 5.11+);
        // older kernels keep only what the host left open without the flag.
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        );
    }
    Ok(())
}

/// Why no frame came.
enum Unread {
    Timeout,
    Closed,
    Garbled(String),
}

/// Reads frames from a worker's output against a deadline, without a thread: the
/// pipe is polled and bytes gathered until a whole frame is there.
struct FrameReader {
    output: ChildStdout,
    buf: Vec<u8>,
}

impl FrameReader {
    fn next(&mut self, deadline: Instant) -> Result<FromWorker, Unread> {
        loop {
            if let Some(frame) = self.take()? {
                return Ok(frame);
            }
            let wait = deadline.saturating_duration_since(Instant::now());
            if wait.is_zero() {
                return Err(Unread::Timeout);
            }
            let millis = i32::try_from(wait.as_millis().max(1)).unwrap_or(i32::MAX);
            let ready = super::wait_readable(self.output.as_raw_fd(), millis);
            if ready < 0 {
                if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                    continue;
                }
                return Err(Unread::Closed);
            }
            if ready == 0 {
                continue;
            }
            let mut chunk = [0u8; 64 * 1024];
            match self.output.read(&mut chunk) {
                Ok(0) | Err(_) => return Err(Unread::Closed),
                Ok(n) => self.buf.extend_from_slice(&chunk[..n]),
            }
        }
    }

    /// A whole frame from the buffer, if one is there.
    fn take(&mut self) -> Result<Option<FromWorker>, Unread> {
        match parse_frame(&self.buf) {
            Ok(Some(((header, _), used))) => {
                self.buf.drain(..used);
                Ok(Some(header))
            }
            Ok(None) => Ok(None),
            Err(e) => Err(Unread::Garbled(e.to_string())),
        }
    }
}
