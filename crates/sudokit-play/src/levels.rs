//! New puzzles by level: the library's generator with an acceptance test that rates
//! each candidate on the human path (HoDoKu-style level, [`rate::hodoku`]).
//!
//! Only the human path is run, not Sudoku Explainer's: the level is all the player
//! asks for, and the SE path would multiply the cost of every rejected candidate.
//!
//! Clues are removed only while the puzzle stays within the level asked for, so easy
//! and medium puzzles come at once on every shape and variant (minimal X-sudoku or
//! 16x16 puzzles are seldom easy). Some levels are still rare or missing for some
//! shapes (20,000 4x4 candidates gave no hard one; beyond 9x9 the engine has only its
//! house-based techniques and forcing chains). So the search has a time budget: once
//! it is spent, the next candidate is taken whatever its level, and the caller is told
//! which level it got.

use std::sync::Arc;
use std::time::{Duration, Instant};

use sudokit::generate::{self, GenerateError, Generated, Options, Target};
use sudokit::geometry::Geometry;
use sudokit::grid::Grid;
use sudokit::logic::{Level, State, explain, rate};
use sudokit::rng::Rng;

/// The HoDoKu-style level of a puzzle.
pub fn level_of(puzzle: &Grid) -> Level {
    rate::hodoku(&explain(&State::from_grid(puzzle))).0
}

/// How long the player may be kept waiting for a puzzle of the exact level.
pub const BUDGET: Duration = Duration::from_secs(3);

/// A unique puzzle of `level` for `geometry`, or, when `budget` runs out first, of
/// whatever level the next candidate has; with the level it has. Clues are removed
/// only while the puzzle stays within the level, so it is minimal under that bound:
/// easy X-sudoku and windoku come at once, where minimal ones are seldom easy.
pub fn new_puzzle(
    geometry: &Arc<Geometry>,
    level: Level,
    rng: &mut Rng,
    budget: Duration,
) -> Result<(Generated, Level), GenerateError> {
    let start = Instant::now();
    let accept = move |p: &Grid, _: &Grid| start.elapsed() > budget || level_of(p) == level;
    let target = Target {
        level: Some(level),
        ..Target::default()
    };
    let within = |p: &Grid| target.within(p);
    let options = Options {
        accept: Some(&accept),
        bound: Some(&within),
        ..Options::default()
    };
    let made = generate::generate(geometry, &options, rng)?;
    let got = level_of(&made.puzzle);
    Ok((made, got))
}
