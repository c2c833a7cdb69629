//! The runtime log's redaction of a hook's message and details.

use serde_json::{Value, json};

use super::{redact_details, redact_message};

#[test]
fn assignments_to_credential_names_are_replaced_up_to_the_next_blank() {
    for (message, stored) in [
        ("token=abc def", "<redacted> def"),
        ("retry with api_key: xyz now", "retry with <redacted> now"),
        ("my-API-Key = v1 ok", "<redacted> ok"),
        ("Bearer token=abc rest", "<redacted> rest"),
        ("-token=abc", "-<redacted>"),
        ("the tokenizer ran", "the tokenizer ran"),
        ("password:", "password:"),
    ] {
        assert_eq!(redact_message(message), stored, "{message}");
    }
}

#[test]
fn bearer_values_are_replaced_whatever_the_case() {
    for (message, stored) in [
        ("auth bearer abc.def done", "auth Bearer <redacted> done"),
        ("BEARER   xyz", "Bearer <redacted>"),
        ("xBearer abc", "xBearer abc"),
        ("Bearer", "Bearer"),
    ] {
        assert_eq!(redact_message(message), stored, "{message}");
    }
}

#[test]
fn private_locations_are_replaced_up_to_the_next_blank() {
    for (message, stored) in [
        ("see file:///tmp/a.txt now", "see <redacted-path> now"),
        ("C:\\Users\\me\\a.txt done", "<redacted-path> done"),
        (
            "in /Users/bob/x and /usr/lib and /var/log/y",
            "in <redacted-path> and /usr/lib and <redacted-path>",
        ),
        ("data/tmp/x", "data<redacted-path>"),
        ("/home/ and /HOME/a", "/home/ and /HOME/a"),
    ] {
        assert_eq!(redact_message(message), stored, "{message}");
    }
}

#[test]
fn a_long_message_is_cut_at_4000_code_units() {
    let stored = format!("{}...<truncated>", "y".repeat(4000));
    assert_eq!(redact_message(&"y".repeat(4001)), stored);
    assert_eq!(redact_message(&"y".repeat(4000)), "y".repeat(4000));
    let stored = format!("{}...<truncated>", "\u{1f600}".repeat(2000));
    assert_eq!(redact_message(&"\u{1f600}".repeat(2001)), stored);
}

#[test]
fn members_named_like_credentials_or_locations_are_withheld_whatever_they_hold() {
    let details = json!({"Cookie": {"x": 1}, "fileURL": null, "errorStack": "s",
        "cause": "c", "list": [{"token": 1}], "kept": "/home/a"});
    assert_eq!(
        redact_details(&details),
        json!({"Cookie": "<redacted>", "fileURL": "<redacted>", "errorStack": "<redacted>",
            "cause": "<redacted>", "list": [{"token": "<redacted>"}], "kept": "/home/a"})
    );
}

#[test]
fn deep_values_long_arrays_wide_objects_and_long_strings_are_cut() {
    let deep = json!({"a": {"b": {"c": {"d": {"e": {"f": 1, "g": null, "h": []}}}}}});
    assert_eq!(
        redact_details(&deep),
        json!({"a": {"b": {"c": {"d": {"e": {"f": "[max-depth]", "g": null, "h": "[max-depth]"}}}}}})
    );
    let items: Vec<Value> = (0..101).map(Value::from).collect();
    let mut kept: Vec<Value> = (0..100).map(Value::from).collect();
    kept.push(json!("[... 1 more items]"));
    assert_eq!(redact_details(&json!(items)), json!(kept));
    let wide: serde_json::Map<String, Value> =
        (0..202).map(|i| (format!("k{i}"), json!(i))).collect();
    let mut kept: serde_json::Map<String, Value> =
        (0..200).map(|i| (format!("k{i}"), json!(i))).collect();
    kept.insert("__truncated_keys__".into(), json!(2));
    assert_eq!(redact_details(&Value::Object(wide)), Value::Object(kept));
    let long = json!(["z".repeat(4001)]);
    assert_eq!(
        redact_details(&long),
        json!([format!("{}...<truncated>", "z".repeat(4000))])
    );
}
