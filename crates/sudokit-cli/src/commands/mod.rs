//! One module per subcommand; each turns parsed arguments into library calls and
//! returns the process exit code.

pub mod all;
pub mod bench;
pub mod canon;
pub mod check;
pub mod count;
pub mod dedupe;
pub mod engine;
pub mod equiv;
pub mod explain;
pub mod export;
pub mod general;
pub mod generate;
pub mod hint;
pub mod play;
pub mod puzzles;
pub mod rate;
pub mod render;
pub mod serve;
pub mod shuffle;
pub mod solve;
pub mod transform;
