//! The general solution of a puzzle, in Gubin's sense: for every cell, the set of values
//! it takes over all solutions (the union of the solutions); and the cells that are the
//! same in all of them (Moler's exercise 14.8).
//!
//! Puzzles with few solutions are enumerated. Beyond [`ENUMERATE`] solutions (an empty
//! grid has 6.7e21), every candidate not yet seen in a solution is tested instead: the
//! puzzle with that value entered is searched for one solution, and each solution found
//! marks all of its values, so most candidates are settled by earlier finds. At most
//! one search per candidate, whatever the number of solutions.

use super::{Limits, Stop, enumerate, search};
use crate::geometry::Cell;
use crate::grid::{Candidates, DigitSet, Grid};

/// Solutions enumerated before switching to testing candidates one by one.
const ENUMERATE: u64 = 1024;

/// A general solution, possibly cut short by a limit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneralSolution {
    /// Per cell, the values it takes in the solutions found (all of them when
    /// `complete`); `None` when the puzzle has no solution.
    pub union: Option<Candidates>,
    /// Whether a node or time limit left candidates untested.
    pub complete: bool,
}

impl GeneralSolution {
    /// The empty cells of `puzzle` that hold the same value in every solution (Moler's
    /// exercise 14.8: "what values are the same in all the solutions?"). None when a
    /// limit cut the search short: a value shared by the solutions found so far is not
    /// known to be in every one.
    pub fn fixed_cells(&self, puzzle: &Grid) -> Vec<(Cell, u8)> {
        let Some(union) = self.union.as_ref().filter(|_| self.complete) else {
            return Vec::new();
        };
        (0..puzzle.cells().len())
            .filter(|&c| puzzle.get(c) == 0)
            .filter_map(|c| union.get(c).single_digit().map(|d| (c, d)))
            .collect()
    }
}

/// The general solution of `grid` within the node and time bounds of `limits` (its
/// solution bound is ignored).
pub fn general_solution(grid: &Grid, limits: &Limits) -> GeneralSolution {
    let g = grid.geometry();
    let mut union = vec![DigitSet::EMPTY; g.cell_count()];
    let add = |union: &mut Vec<DigitSet>, cells: &[u8]| {
        for (u, &v) in union.iter_mut().zip(cells) {
            u.insert(v);
        }
    };
    let first = Limits {
        solutions: ENUMERATE,
        ..*limits
    };
    let report = enumerate(grid, &first, &mut |cells| {
        add(&mut union, cells);
        true
    });
    let done = |union: Vec<DigitSet>, complete: bool, any: bool| GeneralSolution {
        union: any.then(|| Candidates::from_sets(g.clone(), union).expect("one set per cell")),
        complete,
    };
    match report.stop {
        Stop::Exhausted => return done(union, true, report.solutions > 0),
        Stop::NodeLimit | Stop::Timeout => return done(union, false, report.solutions > 0),
        Stop::SolutionLimit => {}
    }
    let open = Candidates::from_grid(grid);
    let mut trial = grid.clone();
    let one = Limits {
        solutions: 1,
        ..*limits
    };
    for cell in 0..g.cell_count() {
        if grid.get(cell) != 0 {
            continue;
        }
        for d in open.get(cell).iter() {
            if union[cell].contains(d) {
                continue;
            }
            trial.set(cell, d);
            let mut found: Option<Vec<u8>> = None;
            let r = search(&trial, &one, &mut |cells| {
                found = Some(cells.to_vec());
                false
            });
            if let Some(cells) = found {
                add(&mut union, &cells);
            }
            if matches!(r.stop, Stop::NodeLimit | Stop::Timeout) {
                return done(union, false, true);
            }
        }
        trial.set(cell, 0);
    }
    done(union, true, true)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Geometry;
    use crate::puzzles::builtin;

    fn general(name: &str) -> GeneralSolution {
        general_solution(&builtin(name).unwrap().grid(), &Limits::solutions(1))
    }

    #[test]
    fn unique_none_and_two_solutions() {
        let lo_shu = builtin("lo-shu").unwrap().grid();
        let g = general("lo-shu");
        assert!(g.complete);
        let union = g.union.as_ref().unwrap();
        assert!(union.sets().iter().all(|s| s.len() == 1));
        assert_eq!(g.fixed_cells(&lo_shu).len(), 81 - lo_shu.filled());
        assert_eq!(general("lo-shu-7").union, None);
        // diag(1:4): two solutions, transposes of each other, that share only the
        // diagonal: no empty cell is fixed.
        let diag = builtin("diag4").unwrap().grid();
        let g = general("diag4");
        assert!(g.fixed_cells(&diag).is_empty());
        assert!(
            (0..16)
                .filter(|&c| diag.get(c) == 0)
                .all(|c| g.union.as_ref().unwrap().get(c).len() == 2)
        );
    }

    #[test]
    fn empty_grids_take_every_value_everywhere() {
        for shape in [crate::Shape::SHIDOKU, crate::Shape::CLASSIC] {
            let empty = Grid::empty(Geometry::standard(shape));
            let g = general_solution(&empty, &Limits::solutions(1));
            let n = shape.size();
            assert!(g.complete);
            assert!(g.union.unwrap().sets().iter().all(|s| s.len() == n));
        }
    }
}
