//! Cleve Moler's `sudoku_basic` and `sudoku_all` (Experiments with MATLAB, ch. 14).
//!
//! ```text
//! [C,N] = candidates(X);
//! while all(N>0) & any(N==1)
//!     s = find(N==1,1);  X(s) = C{s};  steps = steps + 1;  [C,N] = candidates(X);
//! end
//! if all(N>0)
//!    Y = X;  s = find(N==min(N),1);
//!    for t = [C{s}]
//!       X = Y;  X(s) = t;  steps = steps + 1;
//!       [X,steps] = sudoku_basic(X,steps);
//!       if all(X(:) > 0), break, end
//!    end
//! end
//! ```
//!
//! Candidates are recomputed from scratch after every single fill, and MATLAB's `find`
//! scans column-major, so "the first singleton" is the first in column-major order.
//! A step is every filled singleton and every tentative value, failed branches included:
//! 50 on the Lo-Shu puzzle (figure 14.12). `sudoku_all` is the same program without the
//! `break`: here, a solution limit above one. Exercise 14.11's strategies are [`Pick`].
//! The chapter's programs are 9x9 (exercise 14.14 asks for 16x16, the Shidoku figures
//! use 4x4); this one works on every geometry, peers taken from it.

use super::{Fields, Pick, Reason, Run, column_major};
use crate::grid::{DigitSet, Grid, open_digits};

/// The statistics Moler's program keeps (steps) and what recursion gives for free.
pub(crate) const FIELDS: Fields = Fields::ALL;

/// Runs `sudoku_basic` (or `sudoku_all`, by the run's solution limit).
pub(crate) fn search(grid: &Grid, pick: Pick, run: &mut Run) {
    let m = Moler {
        geometry: grid.geometry(),
        order: column_major(grid.size()).collect(),
        pick,
    };
    let mut x = grid.cells().to_vec();
    m.basic(&mut x, 1, run);
}

struct Moler<'g> {
    geometry: &'g crate::geometry::Geometry,
    /// Cells in MATLAB's linear (column-major) order.
    order: Vec<usize>,
    pick: Pick,
}

impl Moler<'_> {
    /// `[C,N] = candidates(X)`: for every empty cell its candidates; `None` for filled.
    fn candidates(&self, x: &[u8], c: &mut [Option<DigitSet>]) {
        for (cell, slot) in c.iter_mut().enumerate() {
            *slot = (x[cell] == 0).then(|| open_digits(self.geometry, x, cell));
        }
    }

    /// One call of `sudoku_basic`; returns whether `x` ends complete (solved).
    fn basic(&self, x: &mut Vec<u8>, depth: u32, run: &mut Run) -> bool {
        if !run.call(depth) {
            return false;
        }
        let mut c = vec![None; x.len()];
        self.candidates(x, &mut c);
        // while all(N>0) & any(N==1): fill the first singleton, recompute.
        loop {
            let dead = self
                .order
                .iter()
                .any(|&k| c[k].is_some_and(|s| s.is_empty()));
            let single = self
                .order
                .iter()
                .copied()
                .find(|&k| c[k].is_some_and(|s| s.len() == 1));
            match (dead, single) {
                (false, Some(s)) => {
                    let v = c[s].and_then(|d| d.single_digit()).expect("a singleton");
                    x[s] = v;
                    run.step(s, v, Reason::Singleton, depth);
                    self.candidates(x, &mut c);
                }
                _ => break,
            }
        }
        // if all(N>0): otherwise some cell has no candidate and this branch fails.
        if let Some(&e) = self
            .order
            .iter()
            .find(|&&k| c[k].is_some_and(|s| s.is_empty()))
        {
            run.step(e, 0, Reason::DeadEnd, depth);
            return false;
        }
        if x.iter().all(|&v| v != 0) {
            run.solution(x, depth);
            return true;
        }
        let s = self.choose(&c);
        let y = x.clone();
        let mut solved = false;
        for t in c[s].expect("an empty cell").iter() {
            x.clone_from(&y);
            x[s] = t;
            run.step(s, t, Reason::Guess, depth);
            solved = self.basic(x, depth + 1, run);
            if run.stopped() {
                return solved;
            }
            run.step(s, t, Reason::Backtrack, depth);
        }
        solved
    }

    /// The cell to branch on (exercise 14.11's three strategies).
    fn choose(&self, c: &[Option<DigitSet>]) -> usize {
        let len = |k: usize| c[k].map_or(usize::MAX, |s| s.len());
        let min = self.order.iter().map(|&k| len(k)).min().unwrap_or(0);
        let mut empty = self.order.iter().copied().filter(|&k| c[k].is_some());
        match self.pick {
            Pick::FirstMin => empty.find(|&k| len(k) == min),
            Pick::LastMin => empty.rfind(|&k| len(k) == min),
            Pick::FirstEmpty => empty.next(),
        }
        .expect("an empty cell when the grid is not complete")
    }
}
