//! Fuzz target: see `web_checks::web_request`.
#![no_main]

#[path = "../web_checks.rs"]
mod web_checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| web_checks::web_request(data));
