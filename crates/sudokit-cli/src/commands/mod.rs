//! One module per subcommand; each turns parsed arguments into library calls and
//! returns the process exit code.

pub mod bench;
pub mod export;
pub mod puzzles;
pub mod render;
pub mod solve;
