//! Chris Fallin's solver ("Sudoku and Recursive Algorithms"): a grid of possibility
//! lists, `reduce` and a recursive `solve`.
//!
//! `reduce` sets `known = 0` and walks the cells row by row: a cell with one
//! possibility counts as known and is skipped; any other gets the digits no *known*
//! cell of its row, column and box holds (so a cell made known earlier in the same pass
//! already counts), fails the whole reduce when none is left, and counts as known when
//! one is. It returns 1 after processing all cells. `solve(start)` repeats `reduce`
//! until a pass adds no known cell, succeeds when all cells are known, else takes the
//! first undecided cell at or after `start` and tries its possibilities in ascending
//! order (Python 2's dictionary order for small integer keys), each on a copy of the
//! grid, recursing with `start` just past that cell.
//!
//! The published listing lost its indentation: `return 1` belongs after the cell loop of
//! `reduce` (the prose: "If all cells undergo this processing without returning a zero
//! ... we return a result of one"), and `if flag == 1: break` to the row loop of
//! `solve`. The constructor is not printed; here `known` starts as the number of givens.
//! The original returns at the first solution; a solution limit above one keeps going,
//! which makes the same program enumerate.

use super::{Fields, Reason, Run};
use crate::geometry::Geometry;
use crate::grid::{DigitSet, Grid};

/// Calls, depth, guesses and steps (cells made known by `reduce`, plus guesses).
pub(crate) const FIELDS: Fields = Fields::ALL;

/// The solver's state: `cells` (possibility lists; the listing's `count` is their
/// length) and `known`.
#[derive(Clone)]
struct State {
    cells: Vec<DigitSet>,
    known: usize,
}

/// Runs `solve()` on `grid` (whose givens do not conflict).
pub(crate) fn search(grid: &Grid, run: &mut Run) {
    let g = grid.geometry();
    let all = DigitSet::all(g.size());
    let state = State {
        cells: grid
            .cells()
            .iter()
            .map(|&v| if v == 0 { all } else { DigitSet::single(v) })
            .collect(),
        known: grid.filled(),
    };
    let f = Fallin { geometry: g, all };
    f.solve(state, 0, 1, run);
}

struct Fallin<'g> {
    geometry: &'g Geometry,
    all: DigitSet,
}

impl Fallin<'_> {
    /// Listing 1: false when some cell is left without possibilities.
    fn reduce(&self, s: &mut State, depth: u32, run: &mut Run) -> bool {
        s.known = 0;
        for cell in 0..s.cells.len() {
            if s.cells[cell].len() == 1 {
                s.known += 1;
                continue;
            }
            let mut possible = self.all;
            for &p in self.geometry.peers(cell) {
                if let Some(x) = s.cells[p as usize].single_digit() {
                    possible.remove(x);
                }
            }
            if possible.is_empty() {
                run.step(cell, 0, Reason::DeadEnd, depth);
                return false;
            }
            if let Some(v) = possible.single_digit() {
                s.known += 1;
                run.step(cell, v, Reason::Singleton, depth);
            }
            s.cells[cell] = possible;
        }
        true
    }

    /// Listing 2; returns whether a solution was found below this call.
    fn solve(&self, mut s: State, start: usize, depth: u32, run: &mut Run) -> bool {
        if !run.call(depth) {
            return false;
        }
        loop {
            let current = s.known;
            if !self.reduce(&mut s, depth, run) {
                return false;
            }
            if s.known == current {
                break;
            }
        }
        let cells = s.cells.len();
        if s.known == cells {
            let solution: Vec<u8> = s.cells.iter().map(|d| d.first().unwrap_or(0)).collect();
            run.solution(&solution, depth);
            return true;
        }
        // The first cell with more than one possibility, at or after `start`.
        let Some(x) = (start..cells).find(|&c| s.cells[c].len() > 1) else {
            // "shouldn't happen!"
            return false;
        };
        let mut found = false;
        for p in s.cells[x].iter() {
            let mut t = s.clone();
            t.cells[x] = DigitSet::single(p);
            run.step(x, p, Reason::Guess, depth);
            if self.solve(t, x + 1, depth + 1, run) {
                found = true;
            }
            if run.stopped() {
                return found;
            }
            run.step(x, p, Reason::Backtrack, depth);
        }
        found
    }
}
