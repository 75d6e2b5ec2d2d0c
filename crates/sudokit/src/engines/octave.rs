//! `sudoku01.m` by Víctor Luaña and Alberto Otero-de-la-Roza ("Solving sudokus with GNU
//! Octave (I)", Linux Gazette 174).
//!
//! `sudoku_trial` counts its calls (`ncall`) and recursion level (`levcall`, the first
//! call being level 1, `levmax` the deepest), then scans the cells row by row: a cell
//! with no candidate ends the call, a cell with one is filled at once (later cells of the
//! same pass see it), and otherwise the first cell with the fewest candidates
//! (`npos < minpos`, strictly) is remembered. Passes repeat until one fills nothing. With
//! cells left, every candidate of the remembered cell is tried in turn, recursively,
//! and the loop goes on after a solution: the program explores the whole tree. On the
//! article's puzzle it prints the first solution at call 46, level 8 (deepest so far 12),
//! and ends after 435 calls, deepest level 15.
//!
//! The row, column and block matrices become one used-digit mask per house of the
//! geometry, so the program runs on every geometry. One deviation: `minpos` starts at 9
//! (`n` here) and only cells with fewer candidates are remembered, so when every empty
//! cell has all `n` candidates (an empty grid) the original fails on an undefined
//! `minipos`; this engine then branches on the first empty cell.

// The scan reads and writes `sud` by index, as the original does.
#![allow(clippy::needless_range_loop)]

use super::{Fields, Reason, Run};
use crate::geometry::Geometry;
use crate::grid::Grid;

/// The article's statistics: trial calls and recursion depth (and steps, guesses).
pub(crate) const FIELDS: Fields = Fields::ALL;

/// Runs `sudoku_solve` / `sudoku_trial` on `grid` (whose givens do not conflict).
pub(crate) fn search(grid: &Grid, run: &mut Run) {
    let g = grid.geometry();
    let mut used = vec![0u64; g.houses().len()];
    for (cell, v) in grid.givens() {
        for h in g.houses_of(cell) {
            used[h] |= 1 << (v - 1);
        }
    }
    // sudoku_solve: `if (unknown > 0)` the trial starts; a full grid is returned as is
    // (and is then the solution).
    if grid.is_complete() {
        run.solution(grid.cells(), 0);
        return;
    }
    let octave = Octave {
        geometry: g,
        all: crate::grid::DigitSet::all(g.size()).0,
    };
    octave.trial(grid.cells().to_vec(), used, 1, run);
}

struct Octave<'g> {
    geometry: &'g Geometry,
    all: u64,
}

impl Octave<'_> {
    /// The digits open at `cell`: `row(r,:) | column(c,:) | block(b,:)` negated.
    fn open(&self, used: &[u64], cell: usize) -> u64 {
        let taken = self.geometry.houses_of(cell).fold(0, |m, h| m | used[h]);
        self.all & !taken
    }

    fn place(&self, used: &mut [u64], cell: usize, v: u8) {
        for h in self.geometry.houses_of(cell) {
            used[h] |= 1 << (v - 1);
        }
    }

    /// One call of `sudoku_trial` (arguments by value, as in Octave); returns `solved`.
    fn trial(&self, mut sud: Vec<u8>, mut used: Vec<u64>, level: u32, run: &mut Run) -> bool {
        if !run.call(level) {
            return false;
        }
        let n = self.geometry.size();
        let mut best: Option<(usize, u64)>;
        loop {
            let mut new = 0;
            let mut minpos = n as u32;
            best = None;
            for cell in 0..sud.len() {
                if sud[cell] != 0 {
                    continue;
                }
                let open = self.open(&used, cell);
                let npos = open.count_ones();
                if npos == 0 {
                    run.step(cell, 0, Reason::DeadEnd, level);
                    return false;
                } else if npos == 1 {
                    let v = open.trailing_zeros() as u8 + 1;
                    sud[cell] = v;
                    self.place(&mut used, cell, v);
                    new += 1;
                    run.step(cell, v, Reason::Singleton, level);
                } else if npos < minpos {
                    minpos = npos;
                    best = Some((cell, open));
                }
            }
            if new == 0 {
                break;
            }
        }
        let Some(first_empty) = sud.iter().position(|&v| v == 0) else {
            run.solution(&sud, level);
            return true;
        };
        let (cell, open) = best.unwrap_or((first_empty, self.all));
        let mut solved = false;
        let mut digits = open;
        while digits != 0 {
            let v = digits.trailing_zeros() as u8 + 1;
            digits &= digits - 1;
            let mut sud2 = sud.clone();
            let mut used2 = used.clone();
            sud2[cell] = v;
            self.place(&mut used2, cell, v);
            run.step(cell, v, Reason::Guess, level);
            if self.trial(sud2, used2, level + 1, run) {
                solved = true;
            }
            if run.stopped() {
                return solved;
            }
            run.step(cell, v, Reason::Backtrack, level);
        }
        solved
    }
}
