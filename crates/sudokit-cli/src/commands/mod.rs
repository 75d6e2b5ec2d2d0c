//! One module per subcommand; each turns parsed arguments into library calls and
//! returns the process exit code.

pub mod all;
pub mod bench;
pub mod check;
pub mod count;
pub mod engine;
pub mod general;
pub mod puzzles;
pub mod solve;
