//! Helpers shared by the integration tests.

use std::path::PathBuf;

use assert_cmd::Command;
use sudokit::{Grid, format::parse_grid};

/// The `sudokit` binary under test.
pub fn sudokit() -> Command {
    Command::cargo_bin("sudokit").expect("binary built")
}

/// The shared benchmark data folder, when present (`../shared/data` beside the repo).
pub fn data(name: &str) -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data")
        .join(name);
    p.exists().then_some(p)
}

/// The first `n` non-comment lines of a data file.
pub fn data_lines(name: &str, n: usize) -> Option<Vec<String>> {
    let text = std::fs::read_to_string(data(name)?).ok()?;
    Some(
        text.lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
            .take(n)
            .map(str::to_string)
            .collect(),
    )
}

/// Asserts that `solution` (one line) is a valid solution of `puzzle` (one line).
pub fn assert_solves(solution: &str, puzzle: &str) {
    let s: Grid = parse_grid(solution).unwrap_or_else(|e| panic!("bad solution {solution:?}: {e}"));
    let p: Grid = parse_grid(puzzle).unwrap_or_else(|e| panic!("bad puzzle {puzzle:?}: {e}"));
    assert!(s.solves(&p), "{solution} does not solve {puzzle}");
}

/// Standard output of a command as lines.
pub fn stdout_lines(output: &std::process::Output) -> Vec<String> {
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_string)
        .collect()
}
