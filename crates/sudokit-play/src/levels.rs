//! New puzzles by level: the library's generator with an acceptance test that rates
//! each candidate on the human path (HoDoKu-style level, [`rate::hodoku`]).
//!
//! Only the human path is run, not Sudoku Explainer's: the level is all the player
//! asks for, and the SE path would multiply the cost of every rejected candidate.

use std::sync::Arc;

use sudokit::generate::{self, GenerateError, Generated, Options};
use sudokit::geometry::Geometry;
use sudokit::grid::Grid;
use sudokit::logic::{Level, State, explain, rate};
use sudokit::rng::Rng;

/// The HoDoKu-style level of a puzzle.
pub fn level_of(puzzle: &Grid) -> Level {
    rate::hodoku(&explain(&State::from_grid(puzzle))).0
}

/// Candidate puzzles tried before giving up on a level.
pub const ATTEMPTS: u64 = 2000;

/// A unique, minimal puzzle of `level` for `geometry`.
pub fn new_puzzle(
    geometry: &Arc<Geometry>,
    level: Level,
    rng: &mut Rng,
) -> Result<Generated, GenerateError> {
    let accept = move |p: &Grid, _: &Grid| level_of(p) == level;
    let options = Options {
        accept: Some(&accept),
        attempts: ATTEMPTS,
        ..Options::default()
    };
    generate::generate(geometry, &options, rng)
}
