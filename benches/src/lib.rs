//! Shared helpers for the benchmarks: locating and loading the data sets.

use std::path::PathBuf;

/// The benchmark data folder (`../shared/data` beside the repository), or
/// `$SUDOKIT_DATA` when set.
pub fn data_dir() -> PathBuf {
    if let Ok(dir) = std::env::var("SUDOKIT_DATA") {
        return PathBuf::from(dir);
    }
    let here = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    here.join("../../shared/data")
}

/// The 9x9 data sets used for solver throughput, in the order of REFERENCE.md.
pub const SETS: &[&str] = &[
    "puzzles1_unbiased",
    "puzzles2_17_clue",
    "puzzles3_magictour_top1465",
    "puzzles5_forum_hardest_1905_11+",
    "puzzles6_forum_hardest_1106",
    "puzzles7_serg_benchmark",
];

/// The puzzle lines of a data set (comments and blank lines dropped), or `None` when
/// the data folder is missing.
pub fn load(set: &str) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(data_dir().join(set)).ok()?;
    Some(
        text.lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
            .map(|l| l.to_string())
            .collect(),
    )
}
