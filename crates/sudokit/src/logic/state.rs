//! [`State`]: a puzzle in the middle of being solved by logic: the placed values plus the
//! shared [`Candidates`] model, for any geometry.
//!
//! Placed cells keep their value as a single candidate (the model's convention), so every
//! technique skips cells whose value is set; a cell that is empty with one candidate left
//! is a naked single waiting to be placed. Applying a [`Step`] places values (and removes
//! them from the peers, which is the basic rule, not a separate step) and removes
//! eliminated candidates.

use std::sync::Arc;

use crate::geometry::{Cell, Geometry};
use crate::grid::{Candidates, DigitSet, Grid};

use super::Step;

/// Placed values and remaining candidates.
#[derive(Clone, PartialEq, Eq)]
pub struct State {
    values: Vec<u8>,
    cands: Candidates,
}

impl State {
    /// The state of a fresh puzzle: its givens placed, every other cell holding the
    /// digits no peer holds.
    pub fn from_grid(grid: &Grid) -> State {
        State {
            values: grid.cells().to_vec(),
            cands: Candidates::from_grid(grid),
        }
    }

    /// A state from explicit candidates (a pencil-mark grid). A cell with one candidate
    /// counts as placed unless a peer still has that digit as a candidate (then it is a
    /// naked single still to be placed).
    pub fn from_candidates(cands: Candidates) -> State {
        let g = cands.geometry().clone();
        let values = (0..g.cell_count())
            .map(|cell| match cands.get(cell).single_digit() {
                Some(d)
                    if g.peers(cell)
                        .iter()
                        .all(|&p| !cands.get(p as usize).contains(d)) =>
                {
                    d
                }
                _ => 0,
            })
            .collect();
        State { values, cands }
    }

    /// The geometry.
    pub fn geometry(&self) -> &Arc<Geometry> {
        self.cands.geometry()
    }

    /// Side length.
    pub fn size(&self) -> usize {
        self.geometry().size()
    }

    /// The value of a cell, 0 when not placed yet.
    #[inline]
    pub fn value(&self, cell: Cell) -> u8 {
        self.values[cell]
    }

    /// The candidates of an unplaced cell (the empty set for a placed one).
    #[inline]
    pub fn cands(&self, cell: Cell) -> DigitSet {
        if self.values[cell] != 0 {
            DigitSet::EMPTY
        } else {
            self.cands.get(cell)
        }
    }

    /// The shared candidates model (placed cells hold their value).
    pub fn candidates(&self) -> &Candidates {
        &self.cands
    }

    /// The placed values as a grid.
    pub fn grid(&self) -> Grid {
        Grid::from_cells(self.geometry().clone(), self.values.clone()).expect("values fit")
    }

    /// Placed values, row-major.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// Number of unplaced cells.
    pub fn unsolved(&self) -> usize {
        self.values.iter().filter(|&&v| v == 0).count()
    }

    /// Whether every cell is placed.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Whether the state is visibly broken: an unplaced cell without candidates, or a
    /// house where some digit is neither placed nor possible.
    pub fn is_broken(&self) -> bool {
        let g = self.geometry();
        let n = g.size();
        if (0..g.cell_count()).any(|c| self.values[c] == 0 && self.cands.get(c).is_empty()) {
            return true;
        }
        let all = DigitSet::all(n);
        g.houses().iter().any(|h| {
            let mut seen = DigitSet::EMPTY;
            for c in h.cells() {
                seen = seen
                    | if self.values[c] != 0 {
                        DigitSet::single(self.values[c])
                    } else {
                        self.cands.get(c)
                    };
            }
            seen != all
        })
    }

    /// Places `digit` in `cell` and removes it from the peers' candidates.
    pub fn place(&mut self, cell: Cell, digit: u8) {
        self.values[cell] = digit;
        self.cands.set(cell, DigitSet::single(digit));
        let g = self.cands.geometry().clone();
        for &p in g.peers(cell) {
            let p = p as usize;
            if self.values[p] == 0 {
                self.cands.remove(p, digit);
            }
        }
    }

    /// Removes a candidate from an unplaced cell; returns whether it was there.
    pub fn eliminate(&mut self, cell: Cell, digit: u8) -> bool {
        self.values[cell] == 0 && self.cands.remove(cell, digit)
    }

    /// Applies a step: its eliminations, then its placements.
    pub fn apply(&mut self, step: &Step) {
        for &(cell, d) in &step.eliminations {
            self.eliminate(cell, d);
        }
        for &(cell, d) in &step.placements {
            if self.values[cell] == 0 {
                self.place(cell, d);
            }
        }
    }

    /// The positions of `digit` among the unplaced cells of house `h`.
    pub fn positions(&self, h: usize, digit: u8) -> impl Iterator<Item = Cell> + '_ {
        self.geometry().houses()[h]
            .cells()
            .filter(move |&c| self.values[c] == 0 && self.cands.get(c).contains(digit))
    }

    /// Whether `digit` is placed in house `h`.
    pub fn is_placed_in(&self, h: usize, digit: u8) -> bool {
        self.geometry().houses()[h]
            .cells()
            .any(|c| self.values[c] == digit)
    }
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "State({:?})", self.grid())
    }
}
