//! The pass-through provider (`04-requests-and-bundles.md` §5): no remote call, an
//! immediate result echoing the request.

use serde_json::{Map, Value};

use crate::manifest::PASS_THROUGH_KIND;

/// The request fields copied into `requestMeta`, when present on the request: grouped
/// requests carry `targetParentID` (and `targetParentRef` when known) and
/// `sourceAttachmentPaths`, canonical ones `targetParentRef` and `sourceAttachmentRefs`.
pub const REQUEST_META_FIELDS: [&str; 5] = [
    "targetParentID",
    "targetParentRef",
    "taskName",
    "sourceAttachmentPaths",
    "sourceAttachmentRefs",
];

/// The provider result of a pass-through `request`: `{status: "succeeded", requestId,
/// fetchType: "result", resultJson, responseJson}` where `resultJson` (and the identical
/// `responseJson`) is `{kind: "pass-through.run.v1", selectionContext, parameter,
/// requestMeta}`. `selectionContext` and `parameter` are copied when the request has
/// them; `requestMeta` holds the [`REQUEST_META_FIELDS`] the request has.
pub fn pass_through_result(request: &Value, request_id: String) -> Value {
    let copy = |fields: &[&str]| -> Map<String, Value> {
        fields
            .iter()
            .filter_map(|field| Some(((*field).to_string(), request.get(field)?.clone())))
            .collect()
    };
    let mut result = Map::new();
    result.insert("kind".into(), PASS_THROUGH_KIND.into());
    result.extend(copy(&["selectionContext", "parameter"]));
    result.insert(
        "requestMeta".into(),
        Value::Object(copy(&REQUEST_META_FIELDS)),
    );
    let result = Value::Object(result);
    let mut out = Map::new();
    out.insert("status".into(), "succeeded".into());
    out.insert("requestId".into(), request_id.into());
    out.insert("fetchType".into(), "result".into());
    out.insert("resultJson".into(), result.clone());
    out.insert("responseJson".into(), result);
    Value::Object(out)
}

/// `pass-through-<now_ms in base 36>-<random6>`; `random6` is used as given (the
/// contract's six random characters; deterministic runs pass a fixed value).
pub fn pass_through_request_id(now_ms: u64, random6: &str) -> String {
    format!("pass-through-{}-{random6}", base36(now_ms))
}

fn base36(mut n: u64) -> String {
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut digits = Vec::new();
    loop {
        digits.push(DIGITS[(n % 36) as usize]);
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.iter().rev().map(|d| char::from(*d)).collect()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn request_id_is_base36_timestamp_and_suffix() {
        assert_eq!(
            pass_through_request_id(0, "abcdef"),
            "pass-through-0-abcdef"
        );
        assert_eq!(
            pass_through_request_id(1_767_225_600_000, "x1y2z3"),
            "pass-through-mjuohs00-x1y2z3"
        );
        assert_eq!(pass_through_request_id(35, "q"), "pass-through-z-q");
    }

    #[test]
    fn result_echoes_selection_parameter_and_meta() {
        let request = json!({"kind": PASS_THROUGH_KIND, "taskName": "cats.pdf",
            "sourceAttachmentPaths": ["a/cats.pdf"], "selectionContext": {"items": []},
            "parameter": {"x": 1}, "targetParentID": 10, "targetParentRef": {"libraryId": 1, "key": "P"}});
        let result = pass_through_result(&request, "pass-through-1-abcdef".into());
        let expected_json = json!({"kind": PASS_THROUGH_KIND, "selectionContext": {"items": []},
            "parameter": {"x": 1}, "requestMeta": {"targetParentID": 10,
            "targetParentRef": {"libraryId": 1, "key": "P"}, "taskName": "cats.pdf",
            "sourceAttachmentPaths": ["a/cats.pdf"]}});
        assert_eq!(
            result,
            json!({"status": "succeeded", "requestId": "pass-through-1-abcdef",
                "fetchType": "result", "resultJson": expected_json, "responseJson": expected_json})
        );
    }

    #[test]
    fn canonical_meta_uses_refs_and_skips_absent_fields() {
        let request = json!({"kind": PASS_THROUGH_KIND, "taskName": "t",
            "sourceAttachmentRefs": [], "selectionContext": {"items": []}});
        let result = pass_through_result(&request, "id".into());
        assert_eq!(
            result["resultJson"],
            json!({"kind": PASS_THROUGH_KIND, "selectionContext": {"items": []},
                "requestMeta": {"taskName": "t", "sourceAttachmentRefs": []}})
        );
    }
}
