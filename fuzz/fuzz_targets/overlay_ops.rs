//! The overlay of a run's file writes: any sequence of writes, directories and
//! removals, checked after every step against a plain model of what each path
//! holds (`hookrun_contract::host::overlay_model`).
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(why) = hookrun_contract::host::overlay_model::check(data) {
        panic!("{why}");
    }
});
