//! What a fixture answers for the members a simulated world cannot compute
//! honestly: identifier look-ups (`metadata.translateIdentifier`), and the
//! members `js/host-api.json` declares `fixture` (bibliography, synthesis,
//! research bundles, resources, prepared images) or `person` (asked in
//! interactive runs).
//!
//! A case's `hostAnswers` member lists, per member, the calls it answers:
//!
//! ```json
//! { "bibliography.render": [
//!     { "args": [{"itemRefs": [{"libraryId": 1, "key": "ABCD2345"}], "formatPreference": [{"id": "bibtex"}]}],
//!       "answer": {"content": "@article{…}", "usedFormat": {"id": "bibtex"}} },
//!     { "args": [{"itemRefs": []}],
//!       "error": {"code": "invalid_request", "message": "itemRefs must not be empty"} } ] }
//! ```
//!
//! A call matches an entry when each of the entry's `args` equals the call's
//! argument at the same position; later arguments (the call-control object) are
//! not compared. The first matching entry answers.
//!
//! Answers of the pickers (a path or `null`; `file.pickFiles` a list of paths or
//! `null`) and of `clipboard.readText` (text or `null`) and `clipboard.hasText`
//! (a boolean) are checked when the fixture is read.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use crate::host::api::{Answer, host_api};

/// One answered call.
#[derive(Debug, Clone, PartialEq)]
pub struct FixtureAnswer {
    /// The leading arguments the call must have.
    pub args: Vec<Value>,
    /// The value the member answers, or the host error (`{code, message, details?}`)
    /// it fails with.
    pub reply: Result<Value, Map<String, Value>>,
}

/// The fixture's answers for one run.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HostAnswers {
    /// Answers of `metadata.translateIdentifier`, keyed `<type>:<value>`.
    pub identifiers: Map<String, Value>,
    /// Answers of the `fixture` and `person` members, by member path.
    pub members: BTreeMap<String, Vec<FixtureAnswer>>,
}

/// Why a `hostAnswers` member cannot be used: the JSON pointer below it and what
/// is wrong.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{pointer}: {message}")]
pub struct AnswersError {
    /// Pointer relative to the `hostAnswers` member.
    pub pointer: String,
    /// What is wrong and what to do.
    pub message: String,
}

impl HostAnswers {
    /// Checks a `hostAnswers` value: an object keyed by `fixture` or `person` member,
    /// each a list of `{args, answer}` or `{args, error}`.
    pub fn parse_members(
        value: &Value,
    ) -> Result<BTreeMap<String, Vec<FixtureAnswer>>, AnswersError> {
        let err = |pointer: String, message: String| AnswersError { pointer, message };
        let Some(members) = value.as_object() else {
            return Err(err(
                String::new(),
                "expected an object keyed by Host API member".into(),
            ));
        };
        let mut found = BTreeMap::new();
        for (name, entries) in members {
            let at = crate::pointer::child("", name);
            match host_api().member(name).map(|m| m.answer) {
                Some(Answer::Fixture | Answer::Person) => {}
                Some(_) => {
                    return Err(err(
                        at,
                        format!(
                            "{name} is answered by the simulated world; hostAnswers covers only the members that need a service or a person"
                        ),
                    ));
                }
                None => return Err(err(at, format!("{name} is not a Host API v12 member"))),
            }
            let Some(entries) = entries.as_array() else {
                return Err(err(at, "expected a list of {args, answer} entries".into()));
            };
            let parsed: Vec<FixtureAnswer> = entries
                .iter()
                .enumerate()
                .map(|(i, entry)| parse_entry(entry).map_err(|m| err(format!("{at}/{i}"), m)))
                .collect::<Result<_, _>>()?;
            if let Some(shape) = Shape::of(name) {
                for (i, entry) in parsed.iter().enumerate() {
                    if let Some(below) = entry.reply.as_ref().ok().and_then(|a| shape.fault(a)) {
                        let message = format!("{name} answers {}", shape.expected());
                        return Err(err(format!("{at}/{i}/answer{below}"), message));
                    }
                }
            }
            found.insert(name.clone(), parsed);
        }
        Ok(found)
    }

    /// The fixture's reply to `member` called with `args`, if it has one.
    pub fn find(&self, member: &str, args: &Value) -> Option<&FixtureAnswer> {
        let call = args.as_array().map(Vec::as_slice).unwrap_or_default();
        self.members.get(member)?.iter().find(|entry| {
            entry.args.len() <= call.len()
                && entry.args.iter().zip(call).all(|(want, got)| want == got)
        })
    }
}

/// What some members that need a person answer, checked when the fixture is read.
#[derive(Debug, Clone, Copy)]
enum Shape {
    /// `file.pickDirectory`, `pickFile`, `pickSaveFile`.
    PathOrNull,
    /// `file.pickFiles`.
    PathsOrNull,
    /// `clipboard.readText`.
    TextOrNull,
    /// `clipboard.hasText`.
    Boolean,
}

impl Shape {
    /// The shape `member`'s answers have, if it has one.
    fn of(member: &str) -> Option<Shape> {
        Some(match member {
            "file.pickDirectory" | "file.pickFile" | "file.pickSaveFile" => Shape::PathOrNull,
            "file.pickFiles" => Shape::PathsOrNull,
            "clipboard.readText" => Shape::TextOrNull,
            "clipboard.hasText" => Shape::Boolean,
            _ => return None,
        })
    }

    /// Where `answer` breaks the shape, as a JSON pointer below it (`""`: the
    /// answer itself), if it does.
    fn fault(self, answer: &Value) -> Option<String> {
        match (self, answer) {
            (Shape::PathOrNull | Shape::TextOrNull, Value::String(_) | Value::Null)
            | (Shape::PathsOrNull, Value::Null)
            | (Shape::Boolean, Value::Bool(_)) => None,
            (Shape::PathsOrNull, Value::Array(paths)) => paths
                .iter()
                .position(|p| !p.is_string())
                .map(|i| format!("/{i}")),
            _ => Some(String::new()),
        }
    }

    /// What the answers are, for the refusal.
    fn expected(self) -> &'static str {
        match self {
            Shape::PathOrNull => "a path (a string), or null when the person cancels",
            Shape::PathsOrNull => {
                "a list of paths (strings; [] for an empty selection), or null when the person cancels"
            }
            Shape::TextOrNull => "the clipboard's text (a string), or null when it holds none",
            Shape::Boolean => "true or false",
        }
    }
}

fn parse_entry(entry: &Value) -> Result<FixtureAnswer, String> {
    let Some(obj) = entry.as_object() else {
        return Err("expected {args, answer} or {args, error}".into());
    };
    if let Some(extra) = obj
        .keys()
        .find(|k| !["args", "answer", "error"].contains(&k.as_str()))
    {
        return Err(format!(
            "unknown member {extra}; an entry has args and answer or error"
        ));
    }
    let args = match obj.get("args") {
        None => Vec::new(),
        Some(Value::Array(args)) => args.clone(),
        Some(_) => return Err("args: expected the list of the call's arguments".into()),
    };
    let reply = match (obj.get("answer"), obj.get("error")) {
        (Some(answer), None) => Ok(answer.clone()),
        (None, Some(Value::Object(error)))
            if error.get("code").is_some_and(Value::is_string)
                && error.get("message").is_some_and(Value::is_string) =>
        {
            Err(error.clone())
        }
        (None, Some(_)) => return Err("error: expected {code, message, details?}".into()),
        _ => return Err("expected exactly one of answer and error".into()),
    };
    Ok(FixtureAnswer { args, reply })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn a_call_matches_its_leading_arguments_and_ignores_the_control_argument() {
        let members = HostAnswers::parse_members(&json!({
            "bibliography.render": [
                {"args": [{"itemRefs": ["a"]}], "answer": {"content": "A"}},
                {"args": [], "error": {"code": "unavailable", "message": "none"}}
            ]
        }))
        .unwrap();
        let answers = HostAnswers {
            members,
            ..HostAnswers::default()
        };
        let hit = answers
            .find(
                "bibliography.render",
                &json!([{"itemRefs": ["a"]}, {"signal": {}}]),
            )
            .unwrap();
        assert_eq!(hit.reply, Ok(json!({"content": "A"})));
        let fallback = answers
            .find("bibliography.render", &json!([{"itemRefs": ["b"]}]))
            .unwrap();
        assert_eq!(fallback.reply.as_ref().unwrap_err()["code"], "unavailable");
        assert!(
            answers
                .find("bibliography.listFormats", &json!([]))
                .is_none()
        );
    }

    #[test]
    fn answers_for_world_members_or_unknown_members_are_refused_with_a_pointer() {
        let err = HostAnswers::parse_members(&json!({"library.getItemDetail": []})).unwrap_err();
        assert_eq!(err.pointer, "/library.getItemDetail");
        assert!(err.message.contains("answered by the simulated world"));
        let err = HostAnswers::parse_members(&json!({"library.nope": []})).unwrap_err();
        assert!(err.message.contains("not a Host API v12 member"));
        let err = HostAnswers::parse_members(
            &json!({"bibliography.render": [{"args": [], "answer": 1, "error": {}}]}),
        )
        .unwrap_err();
        assert_eq!(err.pointer, "/bibliography.render/0");
    }

    #[test]
    fn picker_and_clipboard_answers_of_another_shape_are_refused_with_a_pointer() {
        let refused = |answers: Value| {
            let err = HostAnswers::parse_members(&answers).unwrap_err();
            (err.pointer, err.message)
        };
        assert_eq!(
            refused(json!({"file.pickFile": [{"args": [], "answer": null},
                                             {"args": [{}], "answer": 42}]})),
            (
                "/file.pickFile/1/answer".into(),
                "file.pickFile answers a path (a string), or null when the person cancels".into()
            )
        );
        assert_eq!(
            refused(json!({"file.pickFiles": [{"answer": ["/a.md", 1]}]})),
            (
                "/file.pickFiles/0/answer/1".into(),
                "file.pickFiles answers a list of paths (strings; [] for an empty selection), or null when the person cancels".into()
            )
        );
        assert_eq!(
            refused(json!({"file.pickSaveFile": [{"answer": ["/a.zip"]}]})).0,
            "/file.pickSaveFile/0/answer"
        );
        assert_eq!(
            refused(json!({"clipboard.readText": [{"answer": 5}]})).1,
            "clipboard.readText answers the clipboard's text (a string), or null when it holds none"
        );
        assert_eq!(
            refused(json!({"clipboard.hasText": [{"answer": "yes"}]})).1,
            "clipboard.hasText answers true or false"
        );
        let accepted = HostAnswers::parse_members(&json!({
            "file.pickDirectory": [{"answer": "/out"}],
            "file.pickFiles": [{"args": [{"title": "a"}], "answer": []}, {"answer": null}],
            "file.pickFile": [{"error": {"code": "unavailable", "message": "no picker"}}],
            "clipboard.hasText": [{"answer": false}]
        }));
        assert_eq!(accepted.map(|m| m.len()), Ok(4));
    }
}
