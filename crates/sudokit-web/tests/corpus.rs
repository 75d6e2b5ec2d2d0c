//! The fuzz corpora of the web server's parsers (`fuzz/corpus/web_request`,
//! `fuzz/corpus/http_request`, and any crash case under `fuzz/artifacts` or
//! `fuzz/regressions`) replayed in a normal test through the fuzz targets' own checks.

#[path = "../../../fuzz/web_checks.rs"]
mod web_checks;

use std::path::Path;

/// Runs `check` on every committed input of `target`; returns how many.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut replayed = 0;
    for dir in ["corpus", "artifacts", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for entry in entries.flatten() {
            check(&std::fs::read(entry.path()).unwrap());
            replayed += 1;
        }
    }
    replayed
}

#[test]
fn fuzz_corpora_replay_cleanly() {
    for (target, check) in [
        ("web_request", web_checks::web_request as fn(&[u8])),
        ("http_request", web_checks::http_request),
    ] {
        assert!(
            replay(target, check) > 0,
            "no corpus committed for {target}"
        );
    }
}
