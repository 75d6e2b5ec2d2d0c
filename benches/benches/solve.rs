//! Criterion benchmarks: sudokit's engine against the `sudoku` crate, same run.
fn main() {}
