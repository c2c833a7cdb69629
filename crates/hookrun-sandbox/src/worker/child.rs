//! The worker side: serve the parent's frames with an in-process sandbox, forwarding
//! the hook's host calls to the parent.

use std::cell::RefCell;
use std::fs::File;
use std::io::{BufReader, BufWriter, Stdin};
use std::os::fd::FromRawFd;
use std::path::Path;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Instant;

use serde_json::Value;

use super::protocol::{FromWorker, ToWorker, WorkerExit};
use super::{read_frame, write_frame};
use crate::{BridgeError, Call, HostBreach, HostBridge, Isolation, Sandbox, Startup};

/// The worker's two pipes.
struct Pipes {
    input: BufReader<Stdin>,
    output: BufWriter<File>,
}

impl Pipes {
    fn send(&mut self, frame: &FromWorker) {
        if write_frame(&mut self.output, frame, &[]).is_err() {
            // The parent is gone: nobody is left to serve.
            WorkerExit::Done.exit();
        }
    }

    /// The parent's next frame; `None` once its input ends.
    fn receive(&mut self) -> Option<(ToWorker<'static>, Vec<u8>)> {
        if self.input.buffer().is_empty() {
            super::wait_readable(0, -1);
        }
        match read_frame(&mut self.input) {
            Ok(frame) => frame,
            Err(e) if e.kind() == super::NOT_A_FRAME => WorkerExit::Confused.exit(),
            Err(_) => WorkerExit::Broken.exit(),
        }
    }
}

/// Forwards host calls to the parent and waits for its answer.
struct ParentHost {
    pipes: Rc<RefCell<Pipes>>,
    breach: Option<HostBreach>,
}

impl HostBridge for ParentHost {
    fn call(&mut self, member: &str, args: Value, deadline: Instant) -> Result<Value, BridgeError> {
        let mut pipes = self.pipes.borrow_mut();
        // The parent serves the call on its own clock: it gets the time left.
        let left_ms = deadline
            .saturating_duration_since(Instant::now())
            .as_millis() as u64;
        pipes.send(&FromWorker::Host {
            member: member.to_string(),
            args,
            left_ms,
        });
        match pipes.receive() {
            None => WorkerExit::Done.exit(),
            Some((ToWorker::HostReply { answer, breach }, _)) => {
                self.breach = breach;
                answer.map_err(BridgeError::from_json)
            }
            Some(_) => WorkerExit::Confused.exit(),
        }
    }

    fn take_breach(&mut self) -> Option<HostBreach> {
        self.breach.take()
    }
}

/// Runs the worker until its input ends, serving sandboxes whose startup is
/// [`Startup::BARE`] or one of `startups` (matched by name: the parent's
/// [`SandboxOptions::startup`](crate::SandboxOptions::startup) must be among them). Standard output carries only
/// frames: it is moved to a descriptor of its own and fd 1 is pointed at standard
/// error, so nothing else the process prints can corrupt the protocol.
pub fn serve(startups: &[&'static Startup]) -> ExitCode {
    let Some(output) = protocol_output() else {
        return WorkerExit::Broken.code();
    };
    let mut worker = Worker {
        pipes: Rc::new(RefCell::new(Pipes {
            input: BufReader::new(std::io::stdin()),
            output: BufWriter::new(output),
        })),
        sandbox: None,
        cpu_margin_ms: 0,
    };
    loop {
        let Some((frame, attachment)) = worker.pipes.borrow_mut().receive() else {
            return WorkerExit::Done.code();
        };
        if let Err(exit) = worker.serve_frame(frame, &attachment, startups) {
            return exit.code();
        }
    }
}

/// Moves standard output to a descriptor of its own, the frames' (`None` if
/// it cannot be), and points fd 1 at standard error.
fn protocol_output() -> Option<File> {
    // SAFETY: plain signal and descriptor calls on the process's own state, before any
    // other thread exists; the duplicate is owned by the `File` from here on. A fault
    // (or a SIGSEGV sent from outside) ends the worker at once with its signal, which
    // the parent reports; std's stack-overflow handler would swallow a sent one.
    unsafe {
        libc::signal(libc::SIGSEGV, libc::SIG_DFL);
        libc::signal(libc::SIGBUS, libc::SIG_DFL);
        let protocol = libc::dup(1);
        if protocol < 0 || libc::dup2(2, 1) < 0 {
            return None;
        }
        Some(File::from_raw_fd(protocol))
    }
}

/// What the worker serves frames with: its pipes, and the sandbox the last
/// `Init` started with the CPU margin of its calls.
struct Worker {
    pipes: Rc<RefCell<Pipes>>,
    sandbox: Option<Sandbox>,
    cpu_margin_ms: u64,
}

impl Worker {
    /// Answers one frame of the parent's (`attachment`: the bytes that came
    /// with it); the status to end with when the frame was not expected.
    fn serve_frame(
        &mut self,
        frame: ToWorker<'static>,
        attachment: &[u8],
        startups: &[&'static Startup],
    ) -> Result<(), WorkerExit> {
        match frame {
            ToWorker::Init {
                root,
                options,
                startup,
            } => {
                self.init(&root, options, &startup, startups);
                Ok(())
            }
            ToWorker::Call {
                module,
                export,
                arg,
                encoded,
                live,
                sync,
                host,
            } => {
                let call = Call {
                    module: &module,
                    export: &export,
                    arg: &arg,
                    placed: &[],
                    live: live.as_deref().filter(|l| !l.is_null()),
                    host: host.then(|| self.parent_host()),
                    sync,
                    shared: &[],
                    copied: &[],
                };
                self.call(call, encoded.then_some(attachment))
            }
            ToWorker::Exports { module } => self.exports(&module),
            ToWorker::Reset => {
                if let Some(sandbox) = self.sandbox.as_mut() {
                    sandbox.reset();
                }
                Ok(())
            }
            ToWorker::Release => {
                self.sandbox = None;
                Ok(())
            }
            ToWorker::HostReply { .. } => Err(WorkerExit::Confused),
        }
    }

    /// Starts the sandbox an `Init` frame asks for and answers `Ready`.
    fn init(
        &mut self,
        root: &Path,
        options: crate::SandboxOptions,
        name: &str,
        startups: &[&'static Startup],
    ) {
        let started = start(root, options, name, startups);
        let error = started.as_ref().err().cloned();
        if let Ok((s, margin)) = started {
            self.cpu_margin_ms = margin;
            self.sandbox = Some(s);
        }
        self.pipes.borrow_mut().send(&FromWorker::Ready { error });
    }

    /// A bridge that forwards the hook's host calls to the parent.
    fn parent_host(&self) -> Rc<RefCell<dyn HostBridge>> {
        Rc::new(RefCell::new(ParentHost {
            pipes: self.pipes.clone(),
            breach: None,
        }))
    }

    /// Runs `call` (its argument `encoded` when the parent sent it so) under
    /// the CPU limit and answers its outcome; a call before `Init` confuses
    /// the worker.
    fn call(&mut self, call: Call<'_>, encoded: Option<&[u8]>) -> Result<(), WorkerExit> {
        let Some(sandbox) = self.sandbox.as_mut() else {
            return Err(WorkerExit::Confused);
        };
        arm_cpu_limit(sandbox.options().limits.timeout_ms + self.cpu_margin_ms);
        let outcome = sandbox.run_encoded(call, encoded);
        let warm = sandbox.is_warm();
        self.pipes
            .borrow_mut()
            .send(&FromWorker::Outcome { outcome, warm });
        Ok(())
    }

    /// Answers the exports of `module`; before `Init` it confuses the worker.
    fn exports(&mut self, module: &Path) -> Result<(), WorkerExit> {
        let Some(sandbox) = self.sandbox.as_mut() else {
            return Err(WorkerExit::Confused);
        };
        let exports = sandbox.exports(module);
        let warm = sandbox.is_warm();
        self.pipes
            .borrow_mut()
            .send(&FromWorker::Exports { exports, warm });
        Ok(())
    }
}

/// The sandbox an `Init` frame asks for, warmed up, and the CPU margin of its calls.
fn start(
    root: &Path,
    mut options: crate::SandboxOptions,
    name: &str,
    startups: &[&'static Startup],
) -> Result<(Sandbox, u64), String> {
    let margin = match options.isolation {
        Isolation::Process(limits) => limits.cpu_margin_ms,
        Isolation::InProcess => 0,
    };
    options.isolation = Isolation::InProcess;
    options.startup = std::iter::once(&&Startup::BARE)
        .chain(startups)
        .find(|startup| startup.name == name)
        .ok_or_else(|| format!("this worker binary has no startup named {name:?}"))?;
    let mut sandbox = Sandbox::new(root, options).map_err(|e| e.to_string())?;
    sandbox.warm_up().map_err(|e| e.to_string())?;
    Ok((sandbox, margin))
}

/// Lets the kernel stop this process once it has used `budget_ms` more CPU time than
/// it has so far (`RLIMIT_CPU`, soft limit), in case the watchdog does not.
fn arm_cpu_limit(budget_ms: u64) {
    // SAFETY: getrusage and setrlimit only read and write the structs passed.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        if libc::getrusage(libc::RUSAGE_SELF, &mut usage) != 0 {
            return;
        }
        let used = (usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) as u64;
        let mut limit: libc::rlimit = std::mem::zeroed();
        if libc::getrlimit(libc::RLIMIT_CPU, &mut limit) != 0 {
            return;
        }
        let soft = used + budget_ms.div_ceil(1000) + 1;
        limit.rlim_cur = if limit.rlim_max == libc::RLIM_INFINITY {
            soft
        } else {
            soft.min(limit.rlim_max)
        };
        libc::setrlimit(libc::RLIMIT_CPU, &limit);
    }
}
