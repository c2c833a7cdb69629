//! A simple model of [`FileOverlay`], for the fuzz target and the tests: a map
//! from path to file or directory, changed the plainest way, checked against
//! the overlay after every operation.

use std::collections::BTreeMap;

use super::overlay::{FileOverlay, Seen};
use super::{Budget, HostPath};

/// What the model holds at a path.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Node {
    File(Vec<u8>),
    Directory,
}

/// The paths a run of operations works on: up to three segments of `a`, `b`, `c`.
fn path(code: u8) -> HostPath {
    const SEGMENTS: [&str; 3] = ["a", "b", "c"];
    let depth = 1 + (code % 3) as usize;
    let mut text = String::new();
    let mut rest = code / 3;
    for i in 0..depth {
        if i > 0 {
            text.push('/');
        }
        text.push_str(SEGMENTS[(rest % 3) as usize]);
        rest /= 3;
    }
    HostPath::parse(&text).unwrap_or_default()
}

/// Most operations one run checks: longer inputs add nothing a fuzzer needs.
const MAX_STEPS: usize = 128;

/// Runs the operations `bytes` encode (three bytes each: operation, path,
/// size) on an overlay and on the model, and checks after each that they
/// agree: what every path holds, the bytes held, and the root's listing.
/// `Err` describes the first disagreement.
pub fn check(bytes: &[u8]) -> Result<(), String> {
    let universe: Vec<HostPath> = {
        let mut paths: Vec<HostPath> = (0..=u8::MAX).map(path).collect();
        paths.sort();
        paths.dedup();
        paths
    };
    let mut overlay = FileOverlay::default();
    let mut model: BTreeMap<String, Node> = BTreeMap::new();
    let nothing_on_disk = |_: &str| false;
    for (step, op) in bytes.chunks(3).take(MAX_STEPS).enumerate() {
        let [kind, at, size] = [op[0], *op.get(1).unwrap_or(&0), *op.get(2).unwrap_or(&0)];
        let at = path(at);
        let key = at.as_str().to_string();
        let under = at.below_prefix();
        match kind % 3 {
            0 => {
                let data = vec![size; usize::from(size % 8)];
                overlay.write(&at, data.clone().into(), &nothing_on_disk);
                model.retain(|k, _| !k.starts_with(&under));
                for parent in at.ancestors() {
                    model.insert(parent.to_string(), Node::Directory);
                }
                model.insert(key, Node::File(data));
            }
            1 => {
                overlay.make_directory(&at, &nothing_on_disk);
                if model.get(&key) != Some(&Node::Directory) {
                    model.retain(|k, _| !k.starts_with(&under));
                    for parent in at.ancestors() {
                        model.insert(parent.to_string(), Node::Directory);
                    }
                    model.insert(key, Node::Directory);
                }
            }
            _ => {
                overlay.remove(&at);
                model.retain(|k, _| *k != key && !k.starts_with(&under));
            }
        }
        agree(&overlay, &model, &universe)
            .map_err(|why| format!("after step {step} ({kind} {at}): {why}"))?;
    }
    Ok(())
}

/// Whether `overlay` holds what `model` does at every path of `universe`.
fn agree(
    overlay: &FileOverlay,
    model: &BTreeMap<String, Node>,
    universe: &[HostPath],
) -> Result<(), String> {
    for at in universe {
        let seen = match overlay.seen(at) {
            Some(Seen::File(bytes)) => Some(Node::File(bytes.to_vec())),
            Some(Seen::Directory) => Some(Node::Directory),
            Some(Seen::Absent) | None => None,
        };
        let expected = model.get(at.as_str()).cloned();
        if seen != expected {
            return Err(format!(
                "{at}: the overlay holds {seen:?}, the model {expected:?}"
            ));
        }
    }
    let held: u64 = model
        .values()
        .map(|n| match n {
            Node::File(bytes) => bytes.len() as u64,
            Node::Directory => 0,
        })
        .sum();
    if overlay.stored_bytes() != held {
        return Err(format!(
            "holds {} bytes, the model {held}",
            overlay.stored_bytes()
        ));
    }
    let root = HostPath::default();
    let listed = overlay
        .list(&root, "", None, None, &Budget::unlimited())
        .map_err(|e| e.message)?;
    let names: Vec<&str> = listed["entries"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|e| e["relativePath"].as_str())
        .collect();
    let expected: Vec<&str> = model.keys().map(String::as_str).collect();
    if names != expected {
        return Err(format!("lists {names:?}, the model {expected:?}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_overlay_agrees_with_the_model_over_pseudo_random_runs() {
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..200 {
            let bytes: Vec<u8> = (0..60)
                .map(|_| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    state as u8
                })
                .collect();
            check(&bytes).unwrap_or_else(|why| panic!("{why}: {bytes:?}"));
        }
    }
}
