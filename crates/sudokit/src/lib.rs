//! sudokit: a Sudoku toolkit.
//!
//! The data path is `text -> Grid -> engine -> result -> text`:
//!
//! * [`shape`] and [`geometry`]: box shapes and the houses they induce (as data, so
//!   variants add houses rather than code paths);
//! * [`grid`]: [`Grid`] (cells, 0 = empty) and [`Candidates`] (per-cell digit sets), the
//!   one model every module shares;
//! * [`symbols`] and [`format`]: reading and writing every supported text format;
//! * [`puzzles`]: the puzzles printed in the seed documents, by name;
//! * [`logic`]: human-style techniques as [`logic::Step`]s, the easiest-first solver, and
//!   SE/HoDoKu-style ratings;
//! * [`solve`]: exact search (first solution, counting up to a limit, enumeration), with
//!   a specialised engine for classic 9x9 and a house-based one for every geometry.
//!
//! The library does no I/O beyond parsing and formatting text.

#![deny(missing_docs)]

pub mod format;
pub mod geometry;
pub mod grid;
pub mod logic;
pub mod puzzles;
pub mod shape;
pub mod solve;
pub mod symbols;

pub use format::{ReadOptions, Record, parse_grid};
pub use geometry::{Cell, Geometry, House, HouseKind};
pub use grid::{Candidates, DigitSet, Grid};
pub use shape::Shape;
pub use symbols::Symbols;
