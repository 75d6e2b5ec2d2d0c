//! Fuzz target: see `play_checks::parse_save`.
#![no_main]

#[path = "../play_checks.rs"]
mod play_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| play_checks::parse_save(data));
