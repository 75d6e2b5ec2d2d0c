//! Fuzz target: see `checks::hint_state`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::hint_state(data));
