//! Manifest parsing and validation: any bytes as a `workflow.json`, through JSON
//! parsing, schema and semantic validation, and the typed planning model.
#![no_main]

use std::path::Path;

use hookrun_contract::manifest::model::PlanningSpec;
use hookrun_contract::manifest::{check_semantics, parse_json, validate_document, validate_manifest};
use libfuzzer_sys::fuzz_target;
use serde::Deserialize;

fuzz_target!(|data: &[u8]| {
    let Ok(manifest) = parse_json(data, Path::new("workflow.json")) else {
        return;
    };
    let problems = validate_document(&manifest);
    if validate_manifest(&manifest).is_empty()
        && let Ok(planning) = PlanningSpec::deserialize(&manifest)
    {
        let semantic = check_semantics(&manifest, &planning);
        assert_eq!(problems.is_empty(), semantic.is_empty());
    }
});
