//! sudokit: a Sudoku toolkit.
//!
//! The data path is `text -> Grid -> engine -> result -> text`:
//!
//! * [`shape`] and [`geometry`]: box shapes and the houses they induce (as data, so
//!   variants add houses rather than code paths);
//! * [`variant`]: the house-based variants (latin, x, windoku, jigsaw, disjoint groups,
//!   centre dot, asterisk, girandola) as data;
//! * [`grid`]: [`Grid`] (cells, 0 = empty) and [`Candidates`] (per-cell digit sets), the
//!   one model every module shares;
//! * [`symbols`] and [`format`](mod@format): reading and writing every supported text format;
//! * [`cnf`]: the puzzle as DIMACS CNF for SAT solvers, and their models read back;
//! * [`construct`]: complete grids built by formula where search cannot fill an empty grid;
//! * [`generate`]: random complete grids, digging with symmetry, patterns and bounds;
//! * [`puzzles`]: the puzzles printed in the seed documents, by name;
//! * [`render`]: grids laid out as drawing marks, and SVG;
//! * [`rng`]: the seeded random numbers every randomised feature shares;
//! * [`logic`]: human-style techniques as [`logic::Step`]s, the easiest-first solver, and
//!   SE/HoDoKu-style ratings;
//! * [`solve`]: exact search (first solution, counting up to a limit, enumeration), with
//!   a specialised engine for classic 9x9 and a house-based one for every geometry.
//! * [`transform`] and [`canon`]: the validity-preserving transformations (relabel,
//!   transpose, rotate, flip, permute bands, stacks, rows, columns) and canonical forms,
//!   automorphism counts and equivalence tests built on them.
//!
//! The library does no I/O beyond parsing and formatting text.

#![deny(missing_docs)]

pub mod canon;
pub mod check;
pub mod cnf;
pub mod construct;
pub mod engines;
pub mod format;
pub mod generate;
pub mod geometry;
pub mod grid;
pub mod logic;
mod perm;
pub mod puzzles;
pub mod render;
pub mod rng;
pub mod shape;
pub mod solve;
pub mod symbols;
pub mod transform;
pub mod variant;

pub use format::{ReadOptions, Record, parse_grid};
pub use geometry::{Cell, Geometry, House, HouseKind};
pub use grid::{Candidates, DigitSet, Grid};
pub use shape::Shape;
pub use symbols::Symbols;
pub use transform::Transform;
pub use variant::Variant;
