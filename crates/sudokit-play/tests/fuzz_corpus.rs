//! Replays the saved-game fuzzing corpus (`fuzz/corpus/parse_save`, and any crash case
//! under `fuzz/artifacts` or `fuzz/regressions`) through the fuzz target's own check, so
//! a parser regression fails `cargo test` without a nightly toolchain.

#[path = "../../../fuzz/play_checks.rs"]
mod play_checks;

use std::path::Path;

#[test]
fn saved_game_corpus_replays_cleanly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fuzz");
    let mut replayed = 0;
    for dir in ["corpus", "artifacts", "regressions"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join("parse_save")) else {
            continue;
        };
        for entry in entries.flatten() {
            play_checks::parse_save(&std::fs::read(entry.path()).unwrap());
            replayed += 1;
        }
    }
    assert!(replayed > 0, "no corpus committed for parse_save");
}
