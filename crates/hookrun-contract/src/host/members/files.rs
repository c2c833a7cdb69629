//! The request types of the `file.*` members, read as the reference host reads
//! them: a path is `String(value || "")`, at most [`HostPath::MAX_CHARS`]
//! characters, and a path that names nothing is "Workflow file path is invalid".

use base64::Engine as _;
use std::sync::Arc;

use serde_json::{Value, json};

use super::Member;
use super::request::{Request, arg};
use crate::host::{HostError, HostPath, PathError};

/// Most levels a `file.list` descends (the reference host's limit).
pub const MAX_LIST_DEPTH: u64 = 64;

/// `value` as the reference host's `String(value || "")` makes a path of it.
fn path_text(value: &Value) -> String {
    match value {
        Value::Null | Value::Bool(false) => String::new(),
        Value::Number(n) if n.as_f64() == Some(0.0) => String::new(),
        Value::String(s) => s.trim().to_string(),
        Value::Number(n) => n.to_string(),
        Value::Bool(true) => "true".into(),
        Value::Array(items) => items
            .iter()
            .map(|v| match v {
                Value::Null => String::new(),
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect::<Vec<_>>()
            .join(","),
        Value::Object(_) => "[object Object]".into(),
    }
}

/// The path in `field` of a file read, refused as the reference host refuses it;
/// `.` is the files root.
pub fn parse_path(value: &Value, field: &str) -> Result<FilePath, HostError> {
    let raw = path_text(value);
    let parsed = if raw.is_empty() {
        Err(PathError::Empty)
    } else {
        HostPath::parse(&raw)
    };
    parsed
        .map(|path| FilePath {
            path,
            raw: raw.clone(),
        })
        .map_err(|e| path_error(e, field))
}

/// The path in `field` of a file write: as [`parse_path`], and never the files
/// root or `/` itself.
pub fn parse_target(value: &Value, field: &str) -> Result<FilePath, HostError> {
    let raw = path_text(value);
    HostPath::parse_named(&raw)
        .map(|path| FilePath {
            path,
            raw: raw.clone(),
        })
        .map_err(|e| path_error(e, field))
}

/// The reference host's refusal of a path.
fn path_error(error: PathError, field: &str) -> HostError {
    match error {
        PathError::TooLong(observed) => HostError::workflow(
            "resource_limited",
            "Workflow file operation exceeds a fixed limit",
            json!({"resource": "path_length", "limit": HostPath::MAX_CHARS, "observed": observed}),
        ),
        PathError::TooDeep(observed) => HostError::workflow(
            "resource_limited",
            "Workflow file operation exceeds a fixed limit",
            json!({"resource": "depth", "limit": HostPath::MAX_DEPTH, "observed": observed}),
        ),
        PathError::Empty | PathError::Climbs | PathError::Nul => HostError::workflow(
            "invalid_request",
            "Workflow file path is invalid",
            json!({"reason": "invalid_value", "field": field}),
        ),
    }
}

/// A path a file member was given: parsed, and as given (what answers show).
#[derive(Debug, Clone)]
pub struct FilePath {
    /// The parsed path.
    pub path: HostPath,
    /// The path as given (trimmed).
    pub raw: String,
}

/// A `file.*` read.
#[derive(Debug)]
pub enum FileRead {
    /// `readText(path)`, `readBytes(path)`, `stat(path)`.
    Path(FilePath),
    /// `exists(path)`: `None` for a path the host cannot inspect (it answers
    /// `false`, never an error).
    Exists(Option<FilePath>),
    /// `list({path, recursive?, maxDepth?})`.
    List {
        /// The directory.
        dir: FilePath,
        /// Whether to descend.
        recursive: bool,
        /// How many levels to descend at most.
        max_depth: Option<usize>,
    },
}

impl Request for FileRead {
    fn decode(member: Member, args: &Value) -> Result<FileRead, HostError> {
        let first = arg(args, 0);
        match member {
            Member::FileExists => Ok(FileRead::Exists(parse_path(first, "path").ok())),
            Member::FileList => {
                let max_depth = match first.get("maxDepth") {
                    None | Some(Value::Null) => None,
                    Some(depth) => {
                        let depth = depth.as_u64().filter(|d| *d < 1 << 53).ok_or_else(|| {
                            HostError::workflow(
                                "invalid_request",
                                "Workflow file list maxDepth must be a non-negative integer",
                                json!({"reason": "invalid_value", "field": "maxDepth"}),
                            )
                        })?;
                        if depth > MAX_LIST_DEPTH {
                            return Err(HostError::workflow(
                                "resource_limited",
                                "Workflow file operation exceeds a fixed limit",
                                json!({"resource": "depth", "limit": MAX_LIST_DEPTH, "observed": depth}),
                            ));
                        }
                        Some(depth as usize)
                    }
                };
                Ok(FileRead::List {
                    dir: parse_path(first.get("path").unwrap_or(&Value::Null), "path")?,
                    recursive: first.get("recursive").and_then(Value::as_bool) == Some(true),
                    max_depth,
                })
            }
            _ => parse_path(first, "path").map(FileRead::Path),
        }
    }
}

/// A file write (`file.*`, `archive.writeZipAtomic`).
#[derive(Debug)]
pub enum FileWrite {
    /// `writeText(path, content)`: the UTF-8 bytes of `String(content ?? "")`,
    /// copied once from the arguments, in the form the run's files keep.
    Text(FilePath, Arc<[u8]>),
    /// `writeBytes(path, bytes)`.
    Bytes(FilePath, Vec<u8>),
    /// `copy({sourcePath, targetPath, overwrite?})` or `move(…)`.
    Transfer {
        /// The source.
        source: FilePath,
        /// The target.
        target: FilePath,
        /// Whether an existing target is replaced.
        overwrite: bool,
    },
    /// `makeDirectory({path, recursive?})`.
    MakeDirectory {
        /// The directory.
        dir: FilePath,
        /// Whether missing parents are made (default yes).
        recursive: bool,
    },
    /// `remove({path, recursive?, missing?})`.
    Remove {
        /// What to remove.
        path: FilePath,
        /// Whether a directory that holds files may go.
        recursive: bool,
        /// Whether a missing path is fine (`missing: "ignore"`).
        ignore_missing: bool,
    },
    /// `archive.writeZipAtomic({targetPath, entries})`: the entries are read by
    /// the handler, against the run's files.
    Zip {
        /// The archive to write.
        target: FilePath,
        /// The request, entries and all.
        request: Value,
    },
}

impl Request for FileWrite {
    fn decode(member: Member, args: &Value) -> Result<FileWrite, HostError> {
        let first = arg(args, 0);
        let field = |name: &str| first.get(name).unwrap_or(&Value::Null);
        Ok(match member {
            Member::FileWriteText => {
                let text: Arc<[u8]> = match arg(args, 1) {
                    Value::Null => Arc::from(&[][..]),
                    Value::String(s) => Arc::from(s.as_bytes()),
                    other => Arc::from(other.to_string().as_bytes()),
                };
                FileWrite::Text(parse_target(first, "path")?, text)
            }
            Member::FileWriteBytes => {
                let path = parse_target(first, "path")?;
                let bytes = decode_bytes(arg(args, 1)).ok_or_else(|| {
                    HostError::workflow(
                        "invalid_request",
                        "Workflow file bytes are invalid",
                        json!({"reason": "invalid_type", "field": "bytes"}),
                    )
                })?;
                FileWrite::Bytes(path, bytes)
            }
            Member::FileCopy | Member::FileMove => FileWrite::Transfer {
                source: parse_target(field("sourcePath"), "sourcePath")?,
                target: parse_target(field("targetPath"), "targetPath")?,
                overwrite: field("overwrite").as_bool() == Some(true),
            },
            Member::FileMakeDirectory => FileWrite::MakeDirectory {
                dir: parse_target(field("path"), "path")?,
                recursive: field("recursive").as_bool() != Some(false),
            },
            Member::FileRemove => FileWrite::Remove {
                path: parse_target(field("path"), "path")?,
                recursive: field("recursive").as_bool() == Some(true),
                ignore_missing: field("missing").as_str() == Some("ignore"),
            },
            _ => FileWrite::Zip {
                target: parse_target(field("targetPath"), "targetPath").map_err(|_| {
                    HostError::workflow(
                        "invalid_request",
                        "Archive target path is required",
                        json!({"reason": "missing_field", "field": "targetPath"}),
                    )
                })?,
                request: first.clone(),
            },
        })
    }
}

/// Bytes as a hook passed them: `{"$bytes": "<base64>"}` (a typed array), or an
/// array of byte values.
pub fn decode_bytes(value: &Value) -> Option<Vec<u8>> {
    match value {
        Value::Array(items) => items
            .iter()
            .map(|v| v.as_u64().and_then(|b| u8::try_from(b).ok()))
            .collect(),
        _ => base64::engine::general_purpose::STANDARD
            .decode(value.get("$bytes")?.as_str()?)
            .ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(member: Member, args: Value) -> Result<FileRead, HostError> {
        FileRead::decode(member, &args)
    }

    #[test]
    fn paths_are_made_as_the_reference_host_makes_them() {
        assert_eq!(path_text(&json!(42)), "42");
        assert_eq!(path_text(&json!(null)), "");
        assert_eq!(path_text(&json!(0)), "");
        assert_eq!(path_text(&json!({})), "[object Object]");
        assert_eq!(path_text(&json!(" a.md ")), "a.md");
        let error = parse_path(&json!(""), "sourcePath").unwrap_err();
        assert_eq!(error.message, "Workflow file path is invalid");
        assert_eq!(error.fields["details"]["field"], "sourcePath");
        let error = parse_path(&json!("a".repeat(4097)), "path").unwrap_err();
        assert_eq!(error.fields["details"]["resource"], "path_length");
        assert!(matches!(
            read(Member::FileExists, json!([null])),
            Ok(FileRead::Exists(None))
        ));
    }

    #[test]
    fn list_depths_are_checked_as_the_reference_host_checks_them() {
        let depth = |d: Value| read(Member::FileList, json!([{"path": "a", "maxDepth": d}]));
        assert!(depth(json!(3)).is_ok());
        assert_eq!(
            depth(json!(-1)).unwrap_err().message,
            "Workflow file list maxDepth must be a non-negative integer"
        );
        assert_eq!(
            depth(json!(65)).unwrap_err().fields["details"],
            json!({"resource": "depth", "limit": 64, "observed": 65})
        );
        assert!(
            read(Member::FileList, json!(["a"])).is_err(),
            "a list takes an object"
        );
    }

    #[test]
    fn writes_read_their_arguments() {
        let write = |m: Member, args: Value| FileWrite::decode(m, &args);
        assert!(matches!(
            write(Member::FileWriteText, json!(["a", 5])),
            Ok(FileWrite::Text(_, text)) if &*text == b"5"
        ));
        assert!(matches!(
            write(Member::FileWriteBytes, json!(["a", [1, 2]])),
            Ok(FileWrite::Bytes(_, bytes)) if bytes == [1, 2]
        ));
        assert!(write(Member::FileWriteBytes, json!(["a", "text"])).is_err());
        assert!(matches!(
            write(Member::FileMakeDirectory, json!([{"path": "d"}])),
            Ok(FileWrite::MakeDirectory {
                recursive: true,
                ..
            })
        ));
        let error = write(Member::ArchiveWriteZipAtomic, json!([{"entries": []}])).unwrap_err();
        assert_eq!(error.message, "Archive target path is required");
    }
}
