//! The product rules without a host: ids, paths, policies, replacement.

use super::*;

fn owner() -> ProductOwner {
    ProductOwner::of(
        ("wf", "Workflow"),
        &json!({}),
        &json!({"requestId": "R"}),
        0,
    )
}

/// Resolves inline text; any other source is missing with `why`.
fn inline_only(
    why: &'static str,
) -> impl FnMut(&AssetSource, &Value) -> Result<Resolved, HostError> {
    move |source, asset| match source {
        AssetSource::InlineText(text) => Ok(Resolved {
            bytes: text.as_bytes().to_vec(),
            entry_path: asset["productAssetPath"].as_str().unwrap_or("asset").into(),
        }),
        _ => Err(HostError::plain("Error", why)),
    }
}

fn inline(path: &str, text: &str) -> Value {
    json!({"productAssetPath": path, "source": {"kind": "inline-text", "text": text}})
}

#[test]
fn ids_are_sanitised_and_fall_back() {
    assert_eq!(safe_id("my key/x", "product"), "my-key-x");
    assert_eq!(safe_id("  --a:b.c_d--  ", "product"), "a:b.c_d");
    assert_eq!(safe_id("!!!", "product"), "product");
    assert_eq!(safe_segment("a\\b/../c//d...e", "asset"), "a/b/c/d.e");
    assert_eq!(safe_segment("x y/./z", "asset"), "x-y/z");
    assert_eq!(safe_segment(" / ", "fallback"), "fallback");
}

#[test]
fn managed_paths_follow_the_reference_rules_in_order() {
    let code = |p: &str| managed_relative_path(p).map_err(|e| (e.code, e.message));
    assert_eq!(code("a/b.txt"), Ok("a/b.txt".into()));
    assert_eq!(code("a\\b.txt"), Ok("a/b.txt".into()));
    let cases: &[(&str, &str, &str)] = &[
        ("", INVALID, "Managed relative path must be non-empty."),
        (
            "/absolute.txt",
            INVALID,
            "Managed relative path must not be absolute.",
        ),
        (
            "C:\\absolute.txt",
            INVALID,
            "Managed relative path must not be absolute.",
        ),
        (
            "//host/share",
            INVALID,
            "Managed relative path must not be absolute.",
        ),
        (
            "a//b",
            INVALID,
            "Managed relative path contains empty segments.",
        ),
        (
            "../escape.txt",
            INVALID,
            "Managed relative path must not traverse directories.",
        ),
        (
            "a/./b",
            INVALID,
            "Managed relative path must not traverse directories.",
        ),
        (
            "CON.txt",
            "managed_path_reserved_name",
            "Managed path segment uses a reserved device name.",
        ),
        (
            "dir/lpt9",
            "managed_path_reserved_name",
            "Managed path segment uses a reserved device name.",
        ),
        (
            "a./b",
            INVALID,
            "Managed path segment must not end with a dot or space.",
        ),
        (
            "a b",
            INVALID,
            "Managed path segment contains unsupported characters.",
        ),
    ];
    for (path, c, m) in cases {
        assert_eq!(code(path), Err((*c, *m)), "{path}");
    }
    let long = format!("{}/{}", "a".repeat(110), "b".repeat(110));
    assert_eq!(long.len(), 221);
    assert_eq!(code(&long).unwrap_err().0, "managed_relative_path_too_long");
    assert_eq!(
        code(&"s".repeat(97)).unwrap_err().0,
        "managed_path_segment_too_long"
    );
    let deep = format!("papers/paper-001/Images_IX5R2J7K/{}.jpg", "0".repeat(64));
    assert_eq!(code(&deep), Ok(deep.clone()));
    let error = managed_relative_path("..").unwrap_err().to_host_error();
    assert_eq!(error.name, "ManagedPathPolicyError");
    assert_eq!(error.fields["code"], "managed_path_invalid");
}

#[test]
fn the_owner_takes_ids_in_the_reference_order() {
    let o = ProductOwner::of(
        ("wf", ""),
        &json!({"requestId": "from-request"}),
        &json!({"request_id": "", "responseJson": {"run_id": "run", "provider": "p", "backend_id": "b"}}),
        7,
    );
    assert_eq!(o.request_id, "from-request");
    assert_eq!((o.run_id.as_str(), o.backend_id.as_str()), ("run", "b"));
    assert_eq!(o.backend_type, "p");
    assert_eq!(o.workflow_label, "wf");
    let none = ProductOwner::of(("wf", "L"), &json!(null), &json!({}), 7);
    assert_eq!(none.request_id, "request-7");
    assert_eq!(none.workflow_label, "L");
}

#[test]
fn a_registration_answers_a_receipt_and_keeps_a_record() {
    let mut products = Products::default();
    let input = json!({"productKey": "my key/x", "kind": "writing.test", "title": "T",
        "assets": [inline("draft/intro.md", "# Intro")], "metadata": {"a": 1}});
    let (receipt, record) = products
        .register(&owner(), &input, "NOW", &mut inline_only("gone"))
        .unwrap();
    assert_eq!(
        receipt,
        json!({"productId": "R:my-key-x", "assetCount": 1, "availableAssetCount": 1, "missingAssetCount": 0})
    );
    assert_eq!(record["schemaVersion"], 2);
    assert_eq!(record["workflowId"], "wf");
    assert_eq!(record["metadata"], json!({"a": 1}));
    let asset = &record["assets"][0];
    assert_eq!(asset["relativePath"], "draft/intro.md");
    assert_eq!(asset["assetId"], "draft-intro.md");
    assert_eq!(asset["size"], 7);
    let digest = asset["sha256"].as_str().unwrap();
    assert!(digest.starts_with("sha256:") && digest.len() == 71);
    assert!(record.get("cacheDir").is_none() && asset.get("localPath").is_none());
    assert_eq!(products.get("R:my-key-x"), Some(&record));
}

#[test]
fn defaults_name_the_product_and_its_assets() {
    let mut products = Products::default();
    let input = json!({"assets": [{"source": {"kind": "inline-text", "text": "x"}}]});
    let (receipt, record) = products
        .register(&owner(), &input, "NOW", &mut inline_only("gone"))
        .unwrap();
    assert_eq!(receipt["productId"], "R:default");
    assert_eq!(record["kind"], "workflow.product");
    assert_eq!(record["title"], "R:default");
    assert_eq!(record["assets"][0]["assetId"], "product");
    assert_eq!(record["assets"][0]["relativePath"], "asset");
}

#[test]
fn a_missing_asset_is_recorded_unless_atomic() {
    let mut products = Products::default();
    let asset = json!({"assetId": "plan", "rawPath": "result/none.json"});
    let input = json!({"productKey": "k", "assets": [asset]});
    let (receipt, record) = products
        .register(&owner(), &input, "NOW", &mut inline_only("not found"))
        .unwrap();
    assert_eq!(receipt["missingAssetCount"], 1);
    assert_eq!(receipt["availableAssetCount"], 0);
    let recorded = &record["assets"][0];
    assert_eq!(recorded["availability"], "missing");
    assert_eq!(recorded["diagnostics"], json!(["not found"]));
    assert_eq!(recorded["relativePath"], "plan");
    let atomic = json!({"productKey": "a", "failurePolicy": "atomic", "assets": [asset]});
    let error = products
        .register(&owner(), &atomic, "NOW", &mut inline_only("not found"))
        .unwrap_err();
    assert_eq!(error.message, "not found");
    assert!(products.get("R:a").is_none());
}

#[test]
fn bad_and_duplicate_paths_fail_under_either_policy() {
    for policy in ["record-missing", "atomic"] {
        let mut products = Products::default();
        let twice = json!({"productKey": "dup", "failurePolicy": policy,
            "assets": [inline("same.txt", "a"), inline("same.txt", "b")]});
        let error = products
            .register(&owner(), &twice, "NOW", &mut inline_only("x"))
            .unwrap_err();
        assert_eq!(error.message, "duplicate product asset path: same.txt");
        assert_eq!(error.name, "Error");
        let unsafe_path = json!({"productKey": "u", "failurePolicy": policy,
            "assets": [inline("../escape.txt", "a")]});
        let error = products
            .register(&owner(), &unsafe_path, "NOW", &mut inline_only("x"))
            .unwrap_err();
        assert_eq!(
            error.message,
            "Managed relative path must not traverse directories."
        );
        assert!(products.records().is_empty());
    }
}

#[test]
fn the_path_comes_from_the_fallback_then_the_resolved_entry() {
    let mut products = Products::default();
    let mut entry = |_: &AssetSource, _: &Value| -> Result<Resolved, HostError> {
        Ok(Resolved {
            bytes: b"x".to_vec(),
            entry_path: "result/shared.txt".into(),
        })
    };
    let input = json!({"productKey": "f", "assets": [{"assetId": "intro",
        "rawPath": "D:/remote/run/result/introduction.tex", "fallbackPath": "result/introduction.tex"}]});
    let (_, record) = products
        .register(&owner(), &input, "NOW", &mut entry)
        .unwrap();
    assert_eq!(
        record["assets"][0]["relativePath"],
        "result/introduction.tex"
    );
    let both = json!({"productKey": "s", "assets": [{"assetId": "a", "rawPath": "result/first.txt"},
        {"assetId": "b", "rawPath": "result/second.txt"}]});
    let error = products
        .register(&owner(), &both, "NOW", &mut entry)
        .unwrap_err();
    assert_eq!(
        error.message,
        "duplicate product asset path: result/shared.txt"
    );
}

#[test]
fn re_registering_replaces_the_product_and_keeps_its_creation_date() {
    let mut products = Products::default();
    let first =
        json!({"productKey": "same", "title": "First", "assets": [inline("a.txt", "first")]});
    let (_, one) = products
        .register(&owner(), &first, "T1", &mut inline_only("x"))
        .unwrap();
    let broken = json!({"productKey": "same", "title": "Broken", "failurePolicy": "atomic",
        "assets": [{"source": {"kind": "local-file", "path": "/missing.png"}}]});
    assert!(
        products
            .register(&owner(), &broken, "T2", &mut inline_only("gone"))
            .is_err()
    );
    assert_eq!(products.get("R:same"), Some(&one));
    let second =
        json!({"productKey": "same", "title": "Fast", "assets": [inline("b.txt", "fast")]});
    let (_, two) = products
        .register(&owner(), &second, "T3", &mut inline_only("x"))
        .unwrap();
    assert_eq!(two["title"], "Fast");
    assert_eq!(two["createdAt"], "T1");
    assert_eq!(two["updatedAt"], "T3");
    assert_ne!(two["storageRevision"], one["storageRevision"]);
    assert_eq!(two["storageRevision"].as_str().unwrap().len(), 16);
    let mut shown = BTreeMap::new();
    merge_record(&mut shown, one);
    merge_record(
        &mut shown,
        json!({"productId": "R:same", "createdAt": "later"}),
    );
    assert_eq!(shown["R:same"]["createdAt"], "T1");
}
