//! Fuzz target: see `checks::parse_matrix`.
#![no_main]

#[path = "../checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::parse_matrix(data));
