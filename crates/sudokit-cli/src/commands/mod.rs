//! One module per subcommand; each turns parsed arguments into library calls and
//! returns the process exit code.

pub mod bench;
pub mod explain;
pub mod hint;
pub mod puzzles;
pub mod rate;
pub mod solve;
