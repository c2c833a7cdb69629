//! Reading JSON inputs named on the command line (`-` is standard input).

use std::io::Read;
use std::path::Path;

use anyhow::{Context, Result};
use hookrun::input::{Limited, MAX_JSON_BYTES, MAX_SELECTION_BYTES, open_regular, read_text};
use hookrun::selection::{ReadError, SelectionContext, SelectionError};
use serde_json::Value;

/// Refuses `-` (standard input) for more than one of `flags`: standard input
/// can be read only once.
pub fn one_stdin(flags: &[(&str, Option<&Path>)]) -> Result<()> {
    let stdin: Vec<&str> = flags
        .iter()
        .filter(|(_, path)| *path == Some(Path::new("-")))
        .map(|(flag, _)| *flag)
        .collect();
    if stdin.len() > 1 {
        anyhow::bail!(
            "{} each read standard input (`-`), which can be read only once; give all but one of them a file",
            stdin.join(" and ")
        );
    }
    Ok(())
}

/// Reads and parses a JSON file, or standard input for `-`.
pub fn read_json(path: &Path) -> Result<Value> {
    let text = if path == Path::new("-") {
        let mut s = String::new();
        Limited::new(std::io::stdin(), MAX_JSON_BYTES)
            .read_to_string(&mut s)
            .context("cannot read JSON from standard input")?;
        s
    } else {
        read_text(path, MAX_JSON_BYTES)
            .with_context(|| format!("cannot read {}", path.display()))?
    };
    serde_json::from_str(&text).with_context(|| {
        format!(
            "{} is not valid JSON; fix the file and try again",
            path.display()
        )
    })
}

/// The file a selection is read from: the regular file at `path`, or for `-`
/// standard input when it is one (`< selection.json`); `None` for a pipe or a
/// terminal, which can be read only once.
fn selection_file(path: &Path) -> Result<Option<std::fs::File>> {
    if path != Path::new("-") {
        let (file, _) =
            open_regular(path).with_context(|| format!("cannot read {}", path.display()))?;
        return Ok(Some(file));
    }
    #[cfg(unix)]
    {
        use std::os::fd::AsFd;
        if let Ok(fd) = std::io::stdin().as_fd().try_clone_to_owned() {
            let file = std::fs::File::from(fd);
            if file.metadata().is_ok_and(|m| m.is_file()) {
                return Ok(Some(file));
            }
        }
    }
    Ok(None)
}

/// Reads a selection file, or standard input for `-`, without holding its JSON
/// whole: a file (standard input redirected from one too) with each grouped
/// entry parsed from its own slice of the text (see
/// `SelectionContext::from_seekable`), a pipe as it arrives
/// (`SelectionContext::from_reader`). `threaded` checks a file's entries on a
/// second thread (`SelectionContext::from_seekable_threaded`). A JSON error is
/// reported as [`read_json`] reports it; a selection error is returned for the
/// caller to place.
pub fn read_selection(
    path: &Path,
    threaded: bool,
) -> Result<Result<SelectionContext, SelectionError>> {
    let read = match selection_file(path)? {
        Some(file) => {
            let file = Limited::new(file, MAX_SELECTION_BYTES);
            match threaded {
                true => SelectionContext::from_seekable_threaded(file),
                false => SelectionContext::from_seekable(file),
            }
        }
        None => SelectionContext::from_reader(Limited::new(
            std::io::stdin().lock(),
            MAX_SELECTION_BYTES,
        )),
    };
    match read {
        Ok(selection) => Ok(Ok(selection)),
        Err(ReadError::Selection(e)) => Ok(Err(e)),
        Err(ReadError::Json(e)) if e.is_io() => Err(e).with_context(|| match path.to_str() {
            Some("-") => "cannot read JSON from standard input".to_string(),
            _ => format!("cannot read {}", path.display()),
        }),
        Err(ReadError::Json(e)) => Err(e).with_context(|| {
            format!(
                "{} is not valid JSON; fix the file and try again",
                path.display()
            )
        }),
        Err(other) => Err(other).with_context(|| format!("cannot read {}", path.display())),
    }
}
