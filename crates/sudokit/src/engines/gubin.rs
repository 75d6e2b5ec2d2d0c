//! Sergey Gubin's compatibility-matrix method ("A Sudoku Solver", seed 004), in its
//! per-digit form with "curve" coordinates.
//!
//! **Coordinates.** For a digit `n`, band `i` carries a permutation `π_i` (the row of the
//! band holding `n` in each of the band's three blocks) and stack `j` a permutation `σ_j`
//! (the column of the stack holding `n` in each of its blocks). The box `C[n][i][j]` is a
//! 6x6 Boolean matrix: entry `(π, σ)` is true while `n` may sit at row `π(j)` of band `i`,
//! column `σ(i)` of stack `j`. One true entry per box with all boxes agreeing is exactly
//! one of the 6⁶ = 46,656 placements ("templates") of a digit, so the 9 x 9 x 36 = 2,916
//! scalars of the paper describe every solution.
//!
//! **Input rule.** A clue `n` at a cell keeps, in `C[n]`, only the four entries of that
//! cell in its block's box, and makes the cell false in every other `C[m]`.
//!
//! **Depletion** (formula 6): for bands `i ≠ m` and stacks `j ≠ k`,
//! `C[n][i][j] ← C[n][i][j] ∧ (C[n][i][k] · C[n][m][k]ᵀ · C[n][m][j])` (Boolean
//! products), to a fixed point; each application of the formula to all quadruples is
//! the "three rotations" too, since it ranges over every ordered choice. It is path
//! consistency on the band/stack graph, so it never removes an entry a solution uses.
//! When a digit's position in a block becomes certain, the input rule goes to the other
//! digits, and depletion resumes. A box left all false is the paper's "pattern of
//! unsatisfiability": no solution.
//!
//! **Templates** (§4): for each digit, every template still allowed is entered as input
//! and the matrices depleted; templates that nil some matrix are dropped, and the box
//! keeps the union of the survivors. Repeated until stable.
//!
//! **Outcomes.** No solution; one template per digit (unique, found by pure deduction);
//! or uncertainty. Depletion is incomplete (it can keep values no solution uses), so the
//! engine then guesses as the paper suggests: a digit's position in a block, each
//! possibility in turn, depleting after each. The exact general solution tests every
//! surviving (cell, digit) for membership in a solution ([`general_solution`]).
//!
//! The paper's "straight" coordinates (3x3 boxes over row-in-band x column-in-stack)
//! cannot represent a digit sitting in different rows of a band's three blocks, so
//! formula 6 taken literally there deletes positions that solutions use; they are not
//! implemented. Classic 9x9 only, as the paper.

// Bands, stacks and boxes are indices of the paper's formulas; loops over them read as
// the formulas do.
#![allow(clippy::needless_range_loop)]

use super::{Fields, Reason, Run};
use crate::geometry::Cell;
use crate::grid::{DigitSet, Grid};

/// Calls are depletion-and-branch nodes; steps are positions made certain and guesses.
pub(crate) const FIELDS: Fields = Fields::ALL;

/// The six permutations of three rows (or columns): `PERMS[p][b]` is the row-in-band
/// (column-in-stack) for block `b`.
const PERMS: [[u8; 3]; 6] = crate::perm::THREE;

/// A 6x6 Boolean box: row `π`, bit `σ`.
type Box6 = [u8; 6];

const EMPTY: Box6 = [0; 6];
const FULL: Box6 = [0x3f; 6];

/// Templates a digit may have for the §4 phase to test them all; above this the phase
/// leaves the digit to guessing (an almost empty grid has 46,656 per digit).
const MAX_TEMPLATES: usize = 4096;

/// `CELL[i][j][r][c]`: the entries of box `(i, j)` that put the digit at row `r`,
/// column `c` of the block.
const CELL: [[[[Box6; 3]; 3]; 3]; 3] = {
    let mut t = [[[[EMPTY; 3]; 3]; 3]; 3];
    let mut i = 0;
    while i < 3 {
        let mut j = 0;
        while j < 3 {
            let mut r = 0;
            while r < 3 {
                let mut c = 0;
                while c < 3 {
                    let mut p = 0;
                    while p < 6 {
                        if PERMS[p][j] as usize == r {
                            let mut s = 0;
                            while s < 6 {
                                if PERMS[s][i] as usize == c {
                                    t[i][j][r][c][p] |= 1 << s;
                                }
                                s += 1;
                            }
                        }
                        p += 1;
                    }
                    c += 1;
                }
                r += 1;
            }
            j += 1;
        }
        i += 1;
    }
    t
};

/// Boolean product: `(a·b)[r] = ∨_k a[r][k] ∧ b[k]`.
#[inline]
fn mul(a: &Box6, b: &Box6) -> Box6 {
    let mut out = EMPTY;
    for r in 0..6 {
        let mut bits = a[r];
        while bits != 0 {
            let k = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out[r] |= b[k];
        }
    }
    out
}

#[inline]
fn transpose(a: &Box6) -> Box6 {
    let mut out = EMPTY;
    for (r, &row) in a.iter().enumerate() {
        let mut bits = row;
        while bits != 0 {
            let c = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            out[c] |= 1 << r;
        }
    }
    out
}

#[inline]
fn and(a: &Box6, b: &Box6) -> Box6 {
    std::array::from_fn(|r| a[r] & b[r])
}

#[inline]
fn is_empty(a: &Box6) -> bool {
    a.iter().all(|&r| r == 0)
}

/// The cells of a block (bit `3r + c`) that box `(i, j)` still allows.
#[inline]
fn block_cells(a: &Box6, i: usize, j: usize) -> u16 {
    let mut cells = 0u16;
    for (p, &row) in a.iter().enumerate() {
        let mut bits = row;
        while bits != 0 {
            let s = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            cells |= 1 << (3 * PERMS[p][j] + PERMS[s][i]);
        }
    }
    cells
}

/// The grid cell of row `r`, column `c` of block `(i, j)`.
#[inline]
fn grid_cell(i: usize, j: usize, r: usize, c: usize) -> Cell {
    (3 * i + r) * 9 + 3 * j + c
}

/// The nine matrices `C[n]` and which certain positions were already propagated.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct Matrices {
    c: [[[Box6; 3]; 3]; 9],
    propagated: [u16; 9],
}

/// Why depletion stopped early: digit `n` has no place in block `(i, j)`.
#[derive(Clone, Copy, Debug)]
struct Nil {
    i: usize,
    j: usize,
}

impl Matrices {
    fn full() -> Matrices {
        Matrices {
            c: [[[FULL; 3]; 3]; 9],
            propagated: [0; 9],
        }
    }

    /// The input rule: digit `n` at row `r`, column `c` of block `(i, j)`.
    fn input(&mut self, n: usize, i: usize, j: usize, r: usize, c: usize) -> Result<(), Nil> {
        let here = CELL[i][j][r][c];
        self.c[n][i][j] = and(&self.c[n][i][j], &here);
        if is_empty(&self.c[n][i][j]) {
            return Err(Nil { i, j });
        }
        for m in (0..9).filter(|&m| m != n) {
            let b = &mut self.c[m][i][j];
            *b = std::array::from_fn(|p| b[p] & !here[p]);
            if is_empty(b) {
                return Err(Nil { i, j });
            }
        }
        Ok(())
    }

    /// Formula 6 for digit `n`, to a fixed point; whether anything changed.
    fn deplete_digit(&mut self, n: usize) -> Result<bool, Nil> {
        let mut changed = false;
        loop {
            let mut again = false;
            for i in 0..3 {
                for m in (0..3).filter(|&m| m != i) {
                    for k in 0..3 {
                        let ik_mk = mul(&self.c[n][i][k], &transpose(&self.c[n][m][k]));
                        for j in (0..3).filter(|&j| j != k) {
                            let path = mul(&ik_mk, &self.c[n][m][j]);
                            let new = and(&self.c[n][i][j], &path);
                            if new != self.c[n][i][j] {
                                if is_empty(&new) {
                                    return Err(Nil { i, j });
                                }
                                self.c[n][i][j] = new;
                                again = true;
                            }
                        }
                    }
                }
            }
            if !again {
                return Ok(changed);
            }
            changed = true;
        }
    }

    /// Depletion of all digits with the input rule for positions that become
    /// certain, to a fixed point. `on_place` hears each newly certain position.
    fn deplete(&mut self, on_place: &mut dyn FnMut(usize, Cell)) -> Result<(), Nil> {
        let mut dirty = [true; 9];
        while let Some(n) = dirty.iter().position(|&d| d) {
            dirty[n] = false;
            self.deplete_digit(n)?;
            for i in 0..3 {
                for j in 0..3 {
                    let cells = block_cells(&self.c[n][i][j], i, j);
                    let bit = 1u16 << (3 * i + j);
                    if cells.count_ones() == 1 && self.propagated[n] & bit == 0 {
                        self.propagated[n] |= bit;
                        let at = cells.trailing_zeros() as usize;
                        let (r, c) = (at / 3, at % 3);
                        on_place(n, grid_cell(i, j, r, c));
                        self.input(n, i, j, r, c)?;
                        for (m, d) in dirty.iter_mut().enumerate() {
                            *d |= m != n;
                        }
                    }
                }
            }
        }
        Ok(())
    }

    /// Whether every digit has one position per block (a solution grid).
    fn is_solution(&self) -> bool {
        (0..9).all(|n| {
            (0..3).all(|i| (0..3).all(|j| block_cells(&self.c[n][i][j], i, j).count_ones() == 1))
        })
    }

    /// The digits each cell may still hold.
    pub(crate) fn candidates(&self) -> Vec<DigitSet> {
        let mut out = vec![DigitSet::EMPTY; 81];
        for n in 0..9 {
            for i in 0..3 {
                for j in 0..3 {
                    let mut cells = block_cells(&self.c[n][i][j], i, j);
                    while cells != 0 {
                        let at = cells.trailing_zeros() as usize;
                        cells &= cells - 1;
                        out[grid_cell(i, j, at / 3, at % 3)].insert(n as u8 + 1);
                    }
                }
            }
        }
        out
    }

    /// The solution grid the matrices hold (when [`Self::is_solution`]).
    fn grid(&self) -> Vec<u8> {
        self.candidates()
            .iter()
            .map(|s| s.first().unwrap_or(0))
            .collect()
    }

    /// Every template digit `n` still allows, as `(π_0..π_2, σ_0..σ_2)`; `None` when
    /// there are more than `max`.
    fn templates(&self, n: usize, max: usize) -> Option<Vec<[u8; 6]>> {
        let c = &self.c[n];
        let mut out = Vec::new();
        for p0 in 0..6 {
            let (r0, r1, r2) = (c[0][0][p0], c[0][1][p0], c[0][2][p0]);
            for s0 in bits(r0) {
                for s1 in bits(r1) {
                    for s2 in bits(r2) {
                        let fits = |i: usize, p: usize| {
                            c[i][0][p] >> s0 & 1 == 1
                                && c[i][1][p] >> s1 & 1 == 1
                                && c[i][2][p] >> s2 & 1 == 1
                        };
                        for p1 in (0..6).filter(|&p| fits(1, p)) {
                            for p2 in (0..6).filter(|&p| fits(2, p)) {
                                if out.len() == max {
                                    return None;
                                }
                                out.push([p0 as u8, p1 as u8, p2 as u8, s0, s1, s2]);
                            }
                        }
                    }
                }
            }
        }
        Some(out)
    }

    /// §4: keeps, for every digit, the union of the templates that survive being
    /// entered and depleted; repeated until stable.
    fn filter_templates(&mut self, on_place: &mut dyn FnMut(usize, Cell)) -> Result<(), Nil> {
        loop {
            let before = self.c;
            for n in 0..9 {
                let Some(templates) = self.templates(n, MAX_TEMPLATES) else {
                    continue;
                };
                let mut union = [[EMPTY; 3]; 3];
                for t in &templates {
                    let mut trial = self.clone();
                    let entered = (0..3).all(|i| {
                        (0..3).all(|j| {
                            let (r, c) = (PERMS[t[i] as usize][j], PERMS[t[3 + j] as usize][i]);
                            trial.input(n, i, j, r as usize, c as usize).is_ok()
                        })
                    });
                    if entered && trial.deplete(&mut |_, _| {}).is_ok() {
                        for (i, band) in union.iter_mut().enumerate() {
                            for (j, b) in band.iter_mut().enumerate() {
                                b[t[i] as usize] |= 1 << t[3 + j];
                            }
                        }
                    }
                }
                for i in 0..3 {
                    for j in 0..3 {
                        self.c[n][i][j] = and(&self.c[n][i][j], &union[i][j]);
                        if is_empty(&self.c[n][i][j]) {
                            return Err(Nil { i, j });
                        }
                    }
                }
            }
            if self.c == before {
                return Ok(());
            }
            self.deplete(on_place)?;
        }
    }
}

fn bits(mask: u8) -> impl Iterator<Item = u8> {
    (0..6u8).filter(move |&b| mask >> b & 1 == 1)
}

/// The matrices after the input of `grid`'s clues.
fn entered(grid: &Grid) -> Result<Matrices, Nil> {
    let mut m = Matrices::full();
    for (cell, v) in grid.givens() {
        let (row, col) = (cell / 9, cell % 9);
        let (n, i, j) = (v as usize - 1, row / 3, col / 3);
        m.input(n, i, j, row % 3, col % 3)?;
        m.propagated[n] |= 1 << (3 * i + j);
    }
    Ok(m)
}

/// The three outcomes of the paper, after depletion and the template phase.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Some digit has no place: the puzzle has no solution.
    NoSolution,
    /// One template per digit: the unique solution, found without guessing.
    Unique(Vec<u8>),
    /// Uncertainty remains (the puzzle may still have one solution, none or many:
    /// only guessing tells).
    Uncertain,
}

/// What depletion and the template phase leave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    /// The outcome.
    pub outcome: Outcome,
    /// The digits each cell may still hold (empty sets after a nil): the paper's
    /// "general solution", a superset of the union of all solutions.
    pub candidates: Vec<DigitSet>,
}

/// Depletion and the template phase on a 9x9 `grid` whose givens do not conflict.
pub fn analyse(grid: &Grid) -> Analysis {
    let nil = || Analysis {
        outcome: Outcome::NoSolution,
        candidates: vec![DigitSet::EMPTY; 81],
    };
    let Ok(mut m) = entered(grid) else {
        return nil();
    };
    if m.deplete(&mut |_, _| {}).is_err() || m.filter_templates(&mut |_, _| {}).is_err() {
        return nil();
    }
    Analysis {
        outcome: if m.is_solution() {
            Outcome::Unique(m.grid())
        } else {
            Outcome::Uncertain
        },
        candidates: m.candidates(),
    }
}

/// Depletion alone (formula 6 with the input rule), without the template phase: the
/// candidates it leaves, or `None` when a matrix nils.
pub fn deplete(grid: &Grid) -> Option<Vec<DigitSet>> {
    let mut m = entered(grid).ok()?;
    m.deplete(&mut |_, _| {}).ok()?;
    Some(m.candidates())
}

/// The exact general solution: for every cell, the digits it takes over all solutions
/// (`None` when there is none). Depletion and templates first; then every surviving
/// (cell, digit) not yet seen in a solution is entered as input and searched for a
/// solution grid, and each solution found marks all of its values.
pub fn general_solution(grid: &Grid) -> Option<Vec<DigitSet>> {
    let analysis = analyse(grid);
    if analysis.outcome == Outcome::NoSolution {
        return None;
    }
    let mut union = vec![DigitSet::EMPTY; 81];
    let mut any = false;
    for cell in 0..81 {
        for d in analysis.candidates[cell].iter() {
            if union[cell].contains(d) {
                continue;
            }
            let mut trial = grid.clone();
            trial.set(cell, d);
            if trial.first_conflict().is_some() {
                continue;
            }
            if let Some(solution) = first_solution(&trial) {
                any = true;
                for (u, &v) in union.iter_mut().zip(&solution) {
                    u.insert(v);
                }
            }
        }
    }
    any.then_some(union)
}

/// The first solution the engine's search finds.
fn first_solution(grid: &Grid) -> Option<Vec<u8>> {
    let mut found = None;
    super::run(
        super::Engine::Gubin,
        grid,
        &crate::solve::Limits::solutions(1),
        super::Hooks {
            on_solution: &mut |cells, _| {
                found = Some(cells.to_vec());
                false
            },
            on_step: None,
        },
    );
    found
}

/// The search: depletion (and, at the root, the template phase), then guesses on the
/// position of a digit in a block, fewest possibilities first.
pub(crate) fn search(grid: &Grid, run: &mut Run) {
    if !run.call(1) {
        return;
    }
    let Ok(mut m) = entered(grid) else {
        run.step(0, 0, Reason::DeadEnd, 1);
        return;
    };
    let mut place = |n: usize, cell: Cell| run.step(cell, n as u8 + 1, Reason::HiddenSingle, 1);
    let ok = m.deplete(&mut place).is_ok() && m.filter_templates(&mut place).is_ok();
    if !ok {
        run.step(0, 0, Reason::DeadEnd, 1);
        return;
    }
    explore(m, 1, run);
}

/// One node below the root: `m` is depleted.
fn explore(m: Matrices, depth: u32, run: &mut Run) {
    if m.is_solution() {
        run.solution(&m.grid(), depth);
        return;
    }
    // The (digit, block) with the fewest (but several) possible cells.
    let mut best: Option<(u32, usize, usize, usize, u16)> = None;
    for n in 0..9 {
        for i in 0..3 {
            for j in 0..3 {
                let cells = block_cells(&m.c[n][i][j], i, j);
                let k = cells.count_ones();
                if k > 1 && best.is_none_or(|b| k < b.0) {
                    best = Some((k, n, i, j, cells));
                }
            }
        }
    }
    let (_, n, i, j, mut cells) = best.expect("an uncertain block when not solved");
    while cells != 0 && !run.stopped() {
        let at = cells.trailing_zeros() as usize;
        cells &= cells - 1;
        let (r, c) = (at / 3, at % 3);
        let cell = grid_cell(i, j, r, c);
        run.step(cell, n as u8 + 1, Reason::Guess, depth);
        if !run.call(depth + 1) {
            return;
        }
        let mut child = m.clone();
        child.propagated[n] |= 1 << (3 * i + j);
        let mut place =
            |d: usize, at: Cell| run.step(at, d as u8 + 1, Reason::HiddenSingle, depth + 1);
        let result = child
            .input(n, i, j, r, c)
            .and_then(|()| child.deplete(&mut place));
        match result {
            Ok(()) => explore(child, depth + 1, run),
            Err(nil) => run.step(grid_cell(nil.i, nil.j, 0, 0), 0, Reason::DeadEnd, depth + 1),
        }
        if run.stopped() {
            return;
        }
        run.step(cell, n as u8 + 1, Reason::Backtrack, depth);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn curve_coordinates_hold_the_papers_counts() {
        // "there are at most 6^6 = 46,656 solution grids in each matrix C_n in the case
        // of the curve coordinates", and "2,916 scalars to deplete".
        let m = Matrices::full();
        assert_eq!(m.templates(0, usize::MAX).unwrap().len(), 46_656);
        assert_eq!(m.c.len() * 9 * 36, 2_916);
        // Each template is a valid placement of a digit: one cell per row, column, box.
        for t in m.templates(0, usize::MAX).unwrap().iter().step_by(997) {
            let (mut rows, mut cols) = (0u16, 0u16);
            for i in 0..3 {
                for j in 0..3 {
                    rows |= 1 << (3 * i + PERMS[t[i] as usize][j] as usize);
                    cols |= 1 << (3 * j + PERMS[t[3 + j] as usize][i] as usize);
                }
            }
            assert_eq!((rows, cols), (0x1ff, 0x1ff));
        }
        // A clue keeps four entries of its block's box ("four values true").
        let mut m = Matrices::full();
        m.input(8, 0, 0, 0, 0).unwrap();
        let kept: u32 = m.c[8][0][0].iter().map(|r| r.count_ones()).sum();
        assert_eq!(kept, 4);
    }
}
