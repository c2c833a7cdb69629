//! Zip result bundles: any bytes as a bundle, listed, extracted and read entry by
//! entry under small limits. Nothing may be written outside the reader's directory.
#![no_main]

use hookrun_contract::bundle::{ZipBundle, ZipLimits, ZipOptions};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let temp = tempfile::tempdir().expect("a temporary directory");
    let options = ZipOptions {
        limits: ZipLimits {
            max_entries: 64,
            max_entry_size: 1 << 20,
            max_total_size: 4 << 20,
            ..ZipLimits::default()
        },
        temp_root: temp.path().to_path_buf(),
    };
    let Ok(bundle) = ZipBundle::from_bytes("fuzz", data, options) else {
        return;
    };
    if let Ok(names) = bundle.list() {
        for name in names {
            let _ = bundle.read_bytes(&name);
        }
    }
    if let Ok(dir) = bundle.extracted_dir() {
        assert!(dir.starts_with(temp.path()), "extracted outside: {dir:?}");
    }
    drop(bundle);
    let left: Vec<_> = std::fs::read_dir(temp.path())
        .expect("the temporary directory")
        .collect();
    assert!(left.is_empty(), "the reader left files behind: {left:?}");
});
