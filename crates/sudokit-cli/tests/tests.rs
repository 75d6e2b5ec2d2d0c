//! Integration tests of the `sudokit` binary: one test binary, one module per area.

mod util;

mod bench;
mod logic;
mod puzzles;
mod solve;
