//! Worker processes: with [`Isolation::Process`](super::Isolation::Process) a sandbox's
//! engine runs in a child process (the `hookrun` binary started with [`WORKER_ARG`]),
//! so an engine defect ends one call with
//! [`CallResult::EngineCrash`](super::CallResult::EngineCrash) instead of the host.
//!
//! The two sides speak length-prefixed frames over the worker's standard input and
//! output: a 4-byte little-endian length and a JSON header, then a 4-byte length and
//! an attachment of raw bytes (a call's argument in the engine's own encoding, so the
//! worker does not parse it again; empty otherwise). The headers are typed
//! (`protocol.rs`): the parent sends `init`, `call`, `exports`, `reset` and
//! `release`; during a call the worker sends `host` for every host call of the hook
//! and waits for the parent's `host-reply`, so host state (the world, the effect
//! log) stays in the parent and the worker gets no more authority than an
//! in-process sandbox. A worker's exit status is one of `WorkerExit`'s.

mod child;
mod parent;
mod protocol;

use std::io::{self, Read, Write};
use std::os::fd::RawFd;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use serde::de::{DeserializeOwned, IgnoredAny};

pub use child::serve;
pub(crate) use parent::Worker;

/// The first argument that starts the `hookrun` binary as a worker.
pub const WORKER_ARG: &str = "__hookrun-worker";

/// The largest frame either side accepts; a longer length is a protocol error.
const MAX_FRAME: u32 = 1 << 30;

static WORKER_BINARY: Mutex<Option<PathBuf>> = Mutex::new(None);

/// Names the `hookrun` binary that worker processes run. Without it the library uses
/// `$HOOKRUN_WORKER`, the running executable when it is `hookrun`, a `hookrun` next to
/// it (or one directory up, as for test binaries), then `hookrun` on `$PATH`.
pub fn set_worker_binary(path: impl Into<PathBuf>) {
    if let Ok(mut slot) = WORKER_BINARY.lock() {
        *slot = Some(path.into());
    }
}

/// The binary workers run, found as [`set_worker_binary`] describes.
fn worker_binary() -> Option<PathBuf> {
    if let Some(path) = WORKER_BINARY.lock().ok().and_then(|slot| slot.clone()) {
        return Some(path);
    }
    if let Some(path) = std::env::var_os("HOOKRUN_WORKER") {
        return Some(PathBuf::from(path));
    }
    let exe = std::env::current_exe().ok();
    let named = |p: &PathBuf| p.file_stem().is_some_and(|n| n == "hookrun");
    if let Some(exe) = exe.as_ref().filter(|e| named(e)) {
        return Some(exe.clone());
    }
    let beside = exe
        .iter()
        .flat_map(|e| e.ancestors().skip(1).take(2))
        .map(|d| d.join("hookrun"));
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join("hookrun"));
    beside.chain(on_path).find(|p| p.is_file())
}

/// How long a side keeps checking for the other's answer before it sleeps in the
/// kernel: a round trip is far shorter than waking a sleeping process on a busy
/// machine.
const SPIN: Duration = Duration::from_micros(200);

/// Waits until `fd` is readable (or closed): first by checking without blocking for
/// up to [`SPIN`], yielding the processor between checks, then in `poll` for up to
/// `millis`. Returns what `poll` returns: 1 when readable, 0 on timeout, -1 on error.
fn wait_readable(fd: RawFd, millis: i32) -> i32 {
    let mut poll = libc::pollfd {
        fd,
        events: libc::POLLIN,
        revents: 0,
    };
    let spin_until = Instant::now() + SPIN;
    loop {
        // SAFETY: one valid pollfd for the duration of the call.
        let ready = unsafe { libc::poll(&mut poll, 1, 0) };
        if ready != 0 || Instant::now() >= spin_until {
            if ready != 0 {
                return ready;
            }
            break;
        }
        std::thread::yield_now();
    }
    // SAFETY: as above.
    unsafe { libc::poll(&mut poll, 1, millis) }
}

/// A frame as read: its header and the attachment.
type Frame<T> = (T, Vec<u8>);

/// The kind of the error of a header that is JSON but not one of the frames
/// the reader expects (any other bad header is [`io::ErrorKind::Other`]).
const NOT_A_FRAME: io::ErrorKind = io::ErrorKind::InvalidInput;

fn length(len: usize) -> io::Result<[u8; 4]> {
    u32::try_from(len)
        .ok()
        .filter(|len| *len <= MAX_FRAME)
        .map(u32::to_le_bytes)
        .ok_or_else(|| io::Error::other(format!("a frame part of {len} bytes is too large")))
}

/// Writes one frame (header and attachment) in one write.
fn write_frame(
    out: &mut impl Write,
    header: &impl serde::Serialize,
    attachment: &[u8],
) -> io::Result<()> {
    let mut frame = vec![0u8; 4];
    serde_json::to_writer(&mut frame, header).map_err(io::Error::other)?;
    let header_len = length(frame.len() - 4)?;
    frame[..4].copy_from_slice(&header_len);
    frame.extend_from_slice(&length(attachment.len())?);
    frame.extend_from_slice(attachment);
    out.write_all(&frame)?;
    out.flush()
}

/// A part's length from its four bytes, refused past [`MAX_FRAME`].
fn part_length(head: [u8; 4]) -> io::Result<usize> {
    let len = u32::from_le_bytes(head);
    if len > MAX_FRAME {
        return Err(io::Error::other(format!("a frame length of {len} bytes")));
    }
    Ok(len as usize)
}

/// A frame's header from its bytes, read straight into the frame type `T`.
fn parse_header<T: DeserializeOwned>(bytes: &[u8]) -> io::Result<T> {
    serde_json::from_slice(bytes).map_err(|e| {
        if serde_json::from_slice::<IgnoredAny>(bytes).is_ok() {
            io::Error::new(NOT_A_FRAME, "a frame that is not one of the protocol's")
        } else {
            io::Error::other(format!("a frame that is not JSON ({e})"))
        }
    })
}

/// Reads a part's length; `Ok(None)` at a clean end of input.
fn read_length(input: &mut impl Read) -> io::Result<Option<usize>> {
    let mut head = [0u8; 4];
    match input.read_exact(&mut head) {
        Ok(()) => part_length(head).map(Some),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(None),
        Err(e) => Err(e),
    }
}

/// Reads one frame; `Ok(None)` at a clean end of input.
pub(super) fn read_frame<T: DeserializeOwned>(
    input: &mut impl Read,
) -> io::Result<Option<Frame<T>>> {
    let Some(len) = read_length(input)? else {
        return Ok(None);
    };
    let mut text = vec![0u8; len];
    input.read_exact(&mut text)?;
    let header = parse_header(&text)?;
    let len =
        read_length(input)?.ok_or_else(|| io::Error::other("a frame without its attachment"))?;
    let mut attachment = vec![0u8; len];
    input.read_exact(&mut attachment)?;
    Ok(Some((header, attachment)))
}

/// Parses one whole frame at the start of `buf`: `Ok(None)` until all of it is there,
/// else the frame and the bytes it took.
fn parse_frame<T: DeserializeOwned>(buf: &[u8]) -> io::Result<Option<(Frame<T>, usize)>> {
    let part = |at: usize| -> io::Result<Option<(usize, usize)>> {
        let Some(head) = buf
            .get(at..at + 4)
            .and_then(|h| <[u8; 4]>::try_from(h).ok())
        else {
            return Ok(None);
        };
        let end = at + 4 + part_length(head)?;
        Ok((buf.len() >= end).then_some((at + 4, end)))
    };
    let Some((start, end)) = part(0)? else {
        return Ok(None);
    };
    let Some((bin_start, bin_end)) = part(end)? else {
        return Ok(None);
    };
    let header = parse_header(&buf[start..end])?;
    Ok(Some(((header, buf[bin_start..bin_end].to_vec()), bin_end)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    #[test]
    fn frames_round_trip_and_garbage_is_an_error() {
        let mut buf = Vec::new();
        write_frame(&mut buf, &json!({"op": "call", "n": 1}), b"wire").unwrap_or_default();
        write_frame(&mut buf, &json!([1, 2]), &[]).unwrap_or_default();
        let (first, first_len) = parse_frame(&buf).ok().flatten().unwrap_or_default();
        assert_eq!(first, (json!({"op": "call", "n": 1}), b"wire".to_vec()));
        assert_eq!(
            parse_frame::<Value>(&buf[..first_len - 1]).ok().flatten(),
            None,
            "a partial frame waits"
        );
        let mut input = buf.as_slice();
        assert_eq!(read_frame(&mut input).ok().flatten(), Some(first));
        assert_eq!(
            read_frame(&mut input).ok().flatten(),
            Some((json!([1, 2]), Vec::new()))
        );
        assert!(matches!(read_frame::<Value>(&mut input), Ok(None)));

        for garbage in [
            &[0xff, 0xff, 0xff, 0xff, b'x'][..],
            &[3, 0, 0, 0, b'a', b'b', b'c', 0, 0, 0, 0],
            &[2, 0, 0, 0, b'{', b'}', 0xff, 0xff, 0xff, 0xff],
        ] {
            assert!(
                read_frame::<Value>(&mut &garbage[..]).is_err(),
                "{garbage:?}"
            );
            assert!(parse_frame::<Value>(garbage).is_err(), "{garbage:?}");
        }
        let mut cut: &[u8] = &[9, 0, 0, 0, b'{'];
        assert!(read_frame::<Value>(&mut cut).is_err());
        // JSON that is not a frame of the expected type is told apart.
        let mut buf = Vec::new();
        write_frame(&mut buf, &json!({"op": "fork"}), &[]).unwrap_or_default();
        let refused = parse_frame::<protocol::ToWorker<'static>>(&buf).map(|_| ());
        assert_eq!(refused.map_err(|e| e.kind()), Err(NOT_A_FRAME));
    }
}
