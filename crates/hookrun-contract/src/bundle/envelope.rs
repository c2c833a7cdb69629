//! The Skill-Runner result envelope.

use serde_json::Value;

/// The data part of a Skill-Runner envelope, or `None` when `value` is not one.
///
/// Rule: an envelope is a JSON object with a string `status`, an object `data` and no
/// `kind` member (request-kind payloads such as a pass-through result carry `kind` and are
/// never unwrapped). Everything else is left as it is.
pub fn unwrap_skill_runner_envelope(value: &Value) -> Option<&Value> {
    let object = value.as_object()?;
    let status = object.get("status")?;
    let data = object.get("data")?;
    (status.is_string() && data.is_object() && !object.contains_key("kind")).then_some(data)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn unwraps_only_envelopes() {
        let envelope = json!({"status": "success", "data": {"digest_path": "x"}, "artifacts": []});
        assert_eq!(
            unwrap_skill_runner_envelope(&envelope),
            Some(&json!({"digest_path": "x"}))
        );
        for other in [
            json!({"kind": "pass-through.run.v1", "status": "success", "data": {}}),
            json!({"status": "failed", "data": null}),
            json!({"status": 1, "data": {}}),
            json!({"data": {}}),
            json!([1, 2]),
        ] {
            assert_eq!(unwrap_skill_runner_envelope(&other), None, "{other}");
        }
    }
}
