//! Replays the fuzzing corpus and every crash case committed under `fuzz/` through the
//! same checks the fuzz targets run, so a parser regression fails `cargo test` without
//! a nightly toolchain or a fuzzing run.

#[path = "../../../fuzz/checks.rs"]
mod checks;

use std::path::Path;

/// A fuzz target's check.
type Check = fn(&[u8]);

/// Runs `check` on every file of `fuzz/corpus/TARGET`, `fuzz/artifacts/TARGET` and
/// `fuzz/regressions/TARGET`; returns how many inputs it replayed.
fn replay(target: &str, check: Check) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut replayed = 0;
    for dir in ["corpus", "artifacts", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        for entry in entries.flatten() {
            let data = std::fs::read(entry.path()).unwrap();
            check(&data);
            replayed += 1;
        }
    }
    replayed
}

#[test]
fn corpus_replays_cleanly() {
    let targets: [(&str, Check); 5] = [
        ("parse_text", checks::parse_text),
        ("parse_candidates", checks::parse_candidates),
        ("parse_matrix", checks::parse_matrix),
        ("parse_variant", checks::parse_variant),
        ("hint_state", checks::hint_state),
    ];
    for (name, check) in targets {
        let n = replay(name, check);
        assert!(n > 0, "no corpus committed for {name}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(512))]

    /// The human path on pencil-mark states struck at random from the built-in puzzles
    /// (`checks::hint_state`): random inputs on every run, besides the corpus.
    #[test]
    fn hint_state_holds_on_random_strikes(
        data in proptest::collection::vec(proptest::prelude::any::<u8>(), 1..400),
    ) {
        checks::hint_state(&data);
    }
}
