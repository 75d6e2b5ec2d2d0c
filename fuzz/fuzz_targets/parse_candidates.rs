//! Fuzz target: see `checks::parse_candidates`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::parse_candidates(data));
