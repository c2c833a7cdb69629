//! The worker side: serve the parent's frames with an in-process sandbox, forwarding
//! the hook's host calls to the parent.

use std::cell::RefCell;
use std::fs::File;
use std::io::{BufReader, BufWriter, Stdin};
use std::os::fd::FromRawFd;
use std::path::PathBuf;
use std::process::ExitCode;
use std::rc::Rc;
use std::time::Instant;

use serde_json::{Value, json};

use super::{read_frame, write_frame};
use crate::{
    BridgeError, Call, HostBreach, HostBridge, Isolation, Sandbox, SandboxOptions, Startup,
};

/// The worker's two pipes.
struct Pipes {
    input: BufReader<Stdin>,
    output: BufWriter<File>,
}

impl Pipes {
    fn send(&mut self, value: &Value) {
        if write_frame(&mut self.output, value, &[]).is_err() {
            // The parent is gone: nobody is left to serve.
            std::process::exit(0);
        }
    }

    fn receive(&mut self) -> Option<(Value, Vec<u8>)> {
        if self.input.buffer().is_empty() {
            super::wait_readable(0, -1);
        }
        match read_frame(&mut self.input) {
            Ok(frame) => frame,
            Err(_) => std::process::exit(3),
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
        pipes.send(&json!({"op": "host", "member": member, "args": args, "leftMs": left_ms}));
        let Some((mut reply, _)) = pipes.receive() else {
            std::process::exit(0);
        };
        self.breach = reply
            .get_mut("breach")
            .map(Value::take)
            .and_then(|b| serde_json::from_value(b).ok());
        match reply.get_mut("error").map(Value::take) {
            Some(error) if !error.is_null() => Err(BridgeError::from_json(error)),
            _ => Ok(reply.get_mut("ok").map(Value::take).unwrap_or(Value::Null)),
        }
    }

    fn take_breach(&mut self) -> Option<HostBreach> {
        self.breach.take()
    }
}

/// Runs the worker until its input ends, serving sandboxes whose startup is
/// [`Startup::BARE`] or one of `startups` (matched by name: the parent's
/// [`SandboxOptions::startup`] must be among them). Standard output carries only
/// frames: it is moved to a descriptor of its own and fd 1 is pointed at standard
/// error, so nothing else the process prints can corrupt the protocol.
pub fn serve(startups: &[&'static Startup]) -> ExitCode {
    // SAFETY: plain signal and descriptor calls on the process's own state, before any
    // other thread exists; the duplicate is owned by the `File` from here on. A fault
    // (or a SIGSEGV sent from outside) ends the worker at once with its signal, which
    // the parent reports; std's stack-overflow handler would swallow a sent one.
    let output = unsafe {
        libc::signal(libc::SIGSEGV, libc::SIG_DFL);
        libc::signal(libc::SIGBUS, libc::SIG_DFL);
        let protocol = libc::dup(1);
        if protocol < 0 || libc::dup2(2, 1) < 0 {
            return ExitCode::from(3);
        }
        File::from_raw_fd(protocol)
    };
    let pipes = Rc::new(RefCell::new(Pipes {
        input: BufReader::new(std::io::stdin()),
        output: BufWriter::new(output),
    }));
    let mut sandbox: Option<Sandbox> = None;
    let mut cpu_margin_ms = 0;
    loop {
        let Some((frame, attachment)) = pipes.borrow_mut().receive() else {
            return ExitCode::SUCCESS;
        };
        let op = frame.get("op").and_then(Value::as_str).unwrap_or_default();
        match op {
            "init" => {
                let started = start(&frame, startups);
                let error = started.as_ref().err().cloned();
                if let Ok((s, margin)) = started {
                    cpu_margin_ms = margin;
                    sandbox = Some(s);
                }
                pipes
                    .borrow_mut()
                    .send(&json!({"op": "ready", "error": error}));
            }
            "call" => {
                let Some(sandbox) = sandbox.as_mut() else {
                    return ExitCode::from(4);
                };
                arm_cpu_limit(sandbox.options().limits.timeout_ms + cpu_margin_ms);
                let host = frame.get("host").and_then(Value::as_bool).unwrap_or(false);
                let bridge: Option<Rc<RefCell<dyn HostBridge>>> = host.then(|| {
                    Rc::new(RefCell::new(ParentHost {
                        pipes: pipes.clone(),
                        breach: None,
                    })) as Rc<RefCell<dyn HostBridge>>
                });
                let module = PathBuf::from(text(&frame, "module"));
                let null = Value::Null;
                let encoded = frame.get("encoded").and_then(Value::as_bool) == Some(true);
                let call = Call {
                    module: &module,
                    export: text(&frame, "export"),
                    arg: frame.get("arg").unwrap_or(&null),
                    placed: &[],
                    live: frame.get("live").filter(|l| !l.is_null()),
                    host: bridge,
                    sync: frame.get("sync").and_then(Value::as_bool).unwrap_or(false),
                    shared: &[],
                    copied: &[],
                };
                let outcome = sandbox.run_encoded(call, encoded.then_some(attachment.as_slice()));
                let warm = sandbox.is_warm();
                pipes
                    .borrow_mut()
                    .send(&json!({"op": "outcome", "outcome": outcome, "warm": warm}));
            }
            "exports" => {
                let Some(sandbox) = sandbox.as_mut() else {
                    return ExitCode::from(4);
                };
                let module = PathBuf::from(text(&frame, "module"));
                let listed = sandbox.exports(&module);
                let warm = sandbox.is_warm();
                pipes
                    .borrow_mut()
                    .send(&json!({"op": "exports", "exports": listed, "warm": warm}));
            }
            "reset" => {
                if let Some(sandbox) = sandbox.as_mut() {
                    sandbox.reset();
                }
            }
            "release" => sandbox = None,
            _ => return ExitCode::from(4),
        }
    }
}

fn text<'a>(frame: &'a Value, key: &str) -> &'a str {
    frame.get(key).and_then(Value::as_str).unwrap_or_default()
}

/// The sandbox an `init` frame asks for, warmed up, and the CPU margin of its calls.
fn start(frame: &Value, startups: &[&'static Startup]) -> Result<(Sandbox, u64), String> {
    let mut options: SandboxOptions = frame
        .get("options")
        .cloned()
        .and_then(|o| serde_json::from_value(o).ok())
        .ok_or("the init frame carries no sandbox options")?;
    let margin = match options.isolation {
        Isolation::Process(limits) => limits.cpu_margin_ms,
        Isolation::InProcess => 0,
    };
    options.isolation = Isolation::InProcess;
    let name = text(frame, "startup");
    options.startup = std::iter::once(&&Startup::BARE)
        .chain(startups)
        .find(|startup| startup.name == name)
        .ok_or_else(|| format!("this worker binary has no startup named {name:?}"))?;
    let mut sandbox = Sandbox::new(text(frame, "root"), options).map_err(|e| e.to_string())?;
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
