//! Integration tests of the `sudokit` binary: one test binary, one module per area.

mod util;

mod bench;
mod counting;
mod equivalence;
mod generating;
mod logic;
mod play;
mod puzzles;
mod readme;
mod reliability;
mod render;
mod sat;
mod serve;
mod solve;
mod variants;
