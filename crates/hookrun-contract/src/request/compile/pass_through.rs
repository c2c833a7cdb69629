//! `pass-through.run.v1` (`04-requests-and-bundles.md` §4.6).

use serde_json::{Map, Value};

use super::context::{Context, with_target};
use crate::request::error::RequestError;

/// `{kind, taskName, <sources>, selectionContext, parameter, <target>?}`; the target parent
/// is never required.
pub(super) fn compile(ctx: &Context<'_>) -> Result<Map<String, Value>, RequestError> {
    let target = ctx.unit.target();
    let mut request = ctx.head(target.as_ref());
    request.insert("selectionContext".into(), ctx.unit.0.to_value());
    request.insert("parameter".into(), Value::Object(ctx.params.clone()));
    Ok(with_target(request, target.as_ref()))
}
