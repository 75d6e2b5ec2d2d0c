//! One module per subcommand; each turns parsed arguments into library calls and
//! returns the process exit code.

pub mod bench;
pub mod canon;
pub mod dedupe;
pub mod equiv;
pub mod export;
pub mod generate;
pub mod puzzles;
pub mod render;
pub mod shuffle;
pub mod solve;
pub mod transform;
