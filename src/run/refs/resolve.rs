//! Reading a report with references back as the report written without them.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::push_token;

/// Why a report's references could not be resolved.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum RefError {
    /// An object whose only member is `$ref` or `$literal` holds something
    /// else than a pointer or an object.
    #[error(
        "{at}: `{member}` must hold {expected}; an object of the data with only this member is written as {{\"$literal\": …}}"
    )]
    Malformed {
        /// Where, as a JSON Pointer.
        at: String,
        /// `$ref` or `$literal`.
        member: &'static str,
        /// What the member must hold.
        expected: &'static str,
    },
    /// A reference's pointer names no value written before it.
    #[error("{at}: reference to {pointer}: {reason}")]
    Unresolved {
        /// Where the reference is, as a JSON Pointer.
        at: String,
        /// The pointer it holds.
        pointer: String,
        /// What is wrong with it.
        reason: &'static str,
    },
}

/// How many references a resolution may follow inside one another: a
/// report's references never nest, so this only stops a loop.
const MAX_REF_DEPTH: usize = 64;

/// The report `report` with every reference replaced by a copy of what it
/// refers to and every `$literal` wrapper unwrapped: the report as written
/// without references. A report without references comes back as it is.
pub fn resolve_refs(report: &Value) -> Result<Value, RefError> {
    Resolver {
        root: report,
        resolved: HashMap::new(),
        path: Vec::new(),
        following: 0,
    }
    .resolve(report)
}

/// What an object of a report with references stands for.
enum Shape<'a> {
    Reference(&'a str),
    Literal(&'a Map<String, Value>),
    Object(&'a Map<String, Value>),
}

/// A step of the path to the value being resolved, written out only for an
/// error.
#[derive(Clone, Copy)]
enum Token<'a> {
    Name(&'a str),
    Index(usize),
    /// A token of a pointer the report holds, escaped already.
    Escaped(&'a str),
}

struct Resolver<'a> {
    root: &'a Value,
    /// Targets already resolved, by pointer.
    resolved: HashMap<String, Value>,
    /// Where the value being resolved is.
    path: Vec<Token<'a>>,
    following: usize,
}

impl<'a> Resolver<'a> {
    fn resolve(&mut self, value: &'a Value) -> Result<Value, RefError> {
        match value {
            Value::Object(map) => match self.shape(map)? {
                Shape::Reference(pointer) => self.follow(pointer),
                Shape::Literal(map) | Shape::Object(map) => {
                    let mut out = Map::with_capacity(map.len());
                    for (name, member) in map {
                        self.path.push(Token::Name(name));
                        let member = self.resolve(member);
                        self.path.pop();
                        out.insert(name.clone(), member?);
                    }
                    Ok(Value::Object(out))
                }
            },
            Value::Array(items) => {
                let mut out = Vec::with_capacity(items.len());
                for (index, item) in items.iter().enumerate() {
                    self.path.push(Token::Index(index));
                    let item = self.resolve(item);
                    self.path.pop();
                    out.push(item?);
                }
                Ok(Value::Array(out))
            }
            scalar => Ok(scalar.clone()),
        }
    }

    fn shape(&self, map: &'a Map<String, Value>) -> Result<Shape<'a>, RefError> {
        if map.len() != 1 {
            return Ok(Shape::Object(map));
        }
        match map.iter().next() {
            Some((name, held)) if name == "$ref" => match held {
                Value::String(pointer) => Ok(Shape::Reference(pointer)),
                _ => Err(self.malformed("$ref", "a JSON Pointer string")),
            },
            Some((name, held)) if name == "$literal" => match held {
                Value::Object(map) => Ok(Shape::Literal(map)),
                _ => Err(self.malformed("$literal", "an object")),
            },
            _ => Ok(Shape::Object(map)),
        }
    }

    fn malformed(&self, member: &'static str, expected: &'static str) -> RefError {
        RefError::Malformed {
            at: self.here(),
            member,
            expected,
        }
    }

    fn here(&self) -> String {
        let mut at = String::new();
        for token in &self.path {
            at.push('/');
            match *token {
                Token::Name(name) => push_token(&mut at, name),
                Token::Index(index) => at.push_str(&index.to_string()),
                Token::Escaped(token) => at.push_str(token),
            }
        }
        at
    }

    fn follow(&mut self, pointer: &'a str) -> Result<Value, RefError> {
        if let Some(done) = self.resolved.get(pointer) {
            return Ok(done.clone());
        }
        let unresolved = |reason| RefError::Unresolved {
            at: self.here(),
            pointer: pointer.to_string(),
            reason,
        };
        if self.following == MAX_REF_DEPTH {
            return Err(unresolved("the references refer to each other in a loop"));
        }
        let target = self.find(pointer).map_err(unresolved)?;
        self.following += 1;
        let saved = std::mem::replace(
            &mut self.path,
            pointer.split('/').skip(1).map(Token::Escaped).collect(),
        );
        let value = self.resolve(target);
        self.path = saved;
        self.following -= 1;
        let value = value?;
        self.resolved.insert(pointer.to_string(), value.clone());
        Ok(value)
    }

    /// The written value `pointer` names in the resolved report.
    fn find(&self, pointer: &str) -> Result<&'a Value, &'static str> {
        let tokens = pointer
            .strip_prefix('/')
            .ok_or("a pointer starts with `/`")?;
        let mut here = self.root;
        for token in tokens.split('/') {
            let token = token.replace("~1", "/").replace("~0", "~");
            here = match here {
                Value::Object(map) => {
                    let map = match self.shape(map) {
                        Ok(Shape::Literal(map) | Shape::Object(map)) => map,
                        Ok(Shape::Reference(_)) => return Err("it goes through a reference"),
                        Err(_) => return Err("it goes through a malformed wrapper"),
                    };
                    map.get(&token).ok_or("no such member")?
                }
                Value::Array(items) => token
                    .parse::<usize>()
                    .ok()
                    .and_then(|index| items.get(index))
                    .ok_or("no such element")?,
                _ => return Err("it goes into a string, number, boolean or null"),
            };
        }
        Ok(here)
    }
}
