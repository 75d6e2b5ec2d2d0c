//! The fast engine for classic 9x9 sudoku.
//!
//! Representation: for every digit and every band (three rows), a 27-bit mask of the
//! cells of the band where the digit may still go (bit `9 * row + col`). A band is
//! three boxes, so for one digit its mask splits into nine *triads* (a row's three cells
//! within a box). The digit occupies exactly one triad per row and per box of the band:
//! the set of occupied triads is a 3x3 permutation matrix. Intersecting the triads still
//! possible with the union of the permutation matrices they contain (a 512-entry table)
//! removes, in one step, everything that pointing and claiming (locked candidates) would
//! remove along rows. The same is done across the three bands for each stack, which
//! covers columns. A box left with one cell for a digit is a placement (this subsumes
//! hidden singles); a cell left with one digit is a naked single.
//!
//! The whole state is 57 words, copied on each branch rather than undone. Branching
//! follows tdoku's idea in triad terms: a digit's *configuration* in a band is which of
//! the six permutation matrices its triads take; the search picks the band (of rows or
//! of columns) with the fewest open configurations over all digits, and in it the digit
//! with the fewest, and tries each. A configuration fixes three triads at once, which
//! roughly halves the guesses compared with branching on a two-candidate cell.

// Index loops over digits, bands and boxes read more clearly than iterator chains here.
#![allow(clippy::needless_range_loop)]

use super::{Budget, Limits, Report, Stop};

/// Cells of row `r` of a band.
const ROW: [u32; 3] = [0x1ff, 0x1ff << 9, 0x1ff << 18];
/// Column `c` of a band (three cells).
const COL: [u32; 9] = {
    let mut t = [0u32; 9];
    let mut c = 0;
    while c < 9 {
        t[c] = 0x40201 << c;
        c += 1;
    }
    t
};
/// Box `k` of a band (nine cells).
const BOX: [u32; 3] = [0x1c0e07, 0x1c0e07 << 3, 0x1c0e07 << 6];
/// All 27 cells of a band.
const BAND: u32 = 0x7ff_ffff;

/// The six 3x3 permutation matrices, bit `3 * row + column`.
const PERMS: [u16; 6] = [0x111, 0x0a1, 0x10a, 0x062, 0x08c, 0x054];

/// For a 9-bit row of a band: which of its three box segments are non-empty.
const SEGMENTS: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = ((m & 7 != 0) as u8)
            | (((m >> 3 & 7 != 0) as u8) << 1)
            | (((m >> 6 & 7 != 0) as u8) << 2);
        m += 1;
    }
    t
};

/// For a 3x3 occupancy matrix: the union of the permutation matrices inside it.
const PERM_UNION: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut u = 0;
        let mut p = 0;
        while p < 6 {
            if m as u16 & PERMS[p] == PERMS[p] {
                u |= PERMS[p];
            }
            p += 1;
        }
        t[m] = u;
        m += 1;
    }
    t
};

/// For a 3x3 occupancy matrix: how many permutation matrices it contains.
const PERM_COUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        let mut p = 0;
        while p < 6 {
            if m as u16 & PERMS[p] == PERMS[p] {
                t[m] += 1;
            }
            p += 1;
        }
        m += 1;
    }
    t
};

/// For a 3x3 matrix: the bits that are alone in their column.
const SOLE_IN_COLUMN: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut k = 0;
        while k < 3 {
            let col = m & (0x49 << k);
            if col != 0 && col & (col - 1) == 0 {
                t[m] |= col as u16;
            }
            k += 1;
        }
        m += 1;
    }
    t
};

/// For a 3x3 matrix: the bits that are alone in their row.
const SOLE_IN_ROW: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut r = 0;
        while r < 3 {
            let row = m & (7 << (3 * r));
            if row != 0 && row & (row - 1) == 0 {
                t[m] |= row as u16;
            }
            r += 1;
        }
        m += 1;
    }
    t
};

/// For a set of positions in a 3x3 matrix: every position sharing a row or a column
/// with one of them.
const LINES_THROUGH: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut b = 0;
        while b < 9 {
            if m >> b & 1 == 1 {
                t[m] |= (7 << (3 * (b / 3))) | (0x49 << (b % 3));
            }
            b += 1;
        }
        m += 1;
    }
    t
};

/// For a row-triad matrix of a band (bit `3 * row + box`): the cells of those triads.
const TRIAD_CELLS: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut cells = 0;
        let mut b = 0;
        while b < 9 {
            if m >> b & 1 == 1 {
                cells |= 7 << (9 * (b / 3) + 3 * (b % 3));
            }
            b += 1;
        }
        t[m] = cells;
        m += 1;
    }
    t
};

/// Row-direction triads of one digit in one band: keeps only cells of triads that lie on
/// a permutation matrix. Returns 0 when none does (contradiction).
#[inline(always)]
fn shrink_rows(s: u32) -> u32 {
    let t = SEGMENTS[(s & 0x1ff) as usize] as usize
        | (SEGMENTS[(s >> 9 & 0x1ff) as usize] as usize) << 3
        | (SEGMENTS[(s >> 18) as usize] as usize) << 6;
    s & TRIAD_CELLS[PERM_UNION[t] as usize]
}

/// The row-triad matrix of one digit in one band (bit `3 * row + box`).
#[inline(always)]
fn row_triads(s: u32) -> usize {
    SEGMENTS[(s & 0x1ff) as usize] as usize
        | (SEGMENTS[(s >> 9 & 0x1ff) as usize] as usize) << 3
        | (SEGMENTS[(s >> 18) as usize] as usize) << 6
}

/// The column-triad matrix of one digit in one stack (bit `3 * band + column`), from
/// the digit's three band masks.
#[inline(always)]
fn stack_triads(s: [u32; 3], stack: usize) -> usize {
    let sh = 3 * stack;
    ((columns(s[0]) >> sh & 7) | (columns(s[1]) >> sh & 7) << 3 | (columns(s[2]) >> sh & 7) << 6)
        as usize
}

/// Which of a band's nine columns hold the digit somewhere.
#[inline(always)]
fn columns(s: u32) -> u32 {
    (s | s >> 9 | s >> 18) & 0x1ff
}

/// Search state: candidate masks and unsolved cells.
#[derive(Clone, Copy)]
struct State {
    /// `cand[3 * digit + band]`, digit from 0.
    cand: [u32; 27],
    /// The masks as last propagated, to skip unchanged digits.
    seen: [u32; 27],
    /// Cells not yet fixed, per band.
    unsolved: [u32; 3],
}

impl State {
    fn new() -> State {
        State {
            cand: [BAND; 27],
            seen: [0; 27],
            unsolved: [BAND; 3],
        }
    }

    /// Fixes digit `d` at bit `i` of band `b`: removes it from the cell's row, column and
    /// box, and every other digit from the cell. The caller guarantees the candidate.
    #[inline(always)]
    fn assign(&mut self, b: usize, i: u32, d: usize) {
        let bit = 1u32 << i;
        let (r, c) = ((i / 9) as usize, (i % 9) as usize);
        let k = c / 3;
        let base = 3 * d;
        self.cand[base + b] &= !(ROW[r] | BOX[k] | COL[c]) | bit;
        self.cand[base + (b + 1) % 3] &= !COL[c];
        self.cand[base + (b + 2) % 3] &= !COL[c];
        for e in 0..9 {
            self.cand[3 * e + b] &= !bit;
        }
        self.cand[base + b] |= bit;
        self.unsolved[b] &= !bit;
    }

    /// Runs the triad logic of digit `d` to a fixed point, then fixes the digit in every
    /// box where one cell is left. False on contradiction.
    #[inline(always)]
    fn update_digit(&mut self, d: usize) -> bool {
        let base = 3 * d;
        let (mut s0, mut s1, mut s2) = (self.cand[base], self.cand[base + 1], self.cand[base + 2]);
        loop {
            let (o0, o1, o2) = (s0, s1, s2);
            s0 = shrink_rows(s0);
            s1 = shrink_rows(s1);
            s2 = shrink_rows(s2);
            let (c0, c1, c2) = (columns(s0), columns(s1), columns(s2));
            let (mut a0, mut a1, mut a2) = (0u32, 0u32, 0u32);
            for stack in 0..3 {
                let sh = 3 * stack;
                let m = (c0 >> sh & 7) | (c1 >> sh & 7) << 3 | (c2 >> sh & 7) << 6;
                let allowed = PERM_UNION[m as usize] as u32;
                a0 |= (allowed & 7) << sh;
                a1 |= (allowed >> 3 & 7) << sh;
                a2 |= (allowed >> 6 & 7) << sh;
            }
            s0 &= a0 * 0x40201;
            s1 &= a1 * 0x40201;
            s2 &= a2 * 0x40201;
            if s0 == 0 || s1 == 0 || s2 == 0 {
                return false;
            }
            if (s0, s1, s2) == (o0, o1, o2) {
                break;
            }
        }
        self.cand[base] = s0;
        self.cand[base + 1] = s1;
        self.cand[base + 2] = s2;
        self.seen[base] = s0;
        self.seen[base + 1] = s1;
        self.seen[base + 2] = s2;
        // Boxes with a single cell left: after the triad step the digit is already gone
        // from that cell's row and column, so only the cell's other digits remain.
        for b in 0..3 {
            let s = self.cand[base + b];
            let mut fixed = 0;
            for k in 0..3 {
                let m = s & BOX[k];
                if m & (m - 1) == 0 {
                    fixed |= m;
                }
            }
            let new = fixed & self.unsolved[b];
            if new != 0 {
                for e in 0..9 {
                    self.cand[3 * e + b] &= !new;
                }
                self.cand[base + b] |= new;
                self.unsolved[b] &= !new;
            }
        }
        true
    }

    /// Triad capacity in band `b`: a triad (a row's three cells within a box) holds
    /// exactly three digits. More than three digits confined to it is a contradiction;
    /// three confined to it fill it; three possible in it are confined to it. Returns
    /// `None` on contradiction, else whether anything changed.
    fn row_triad_capacity(&mut self, b: usize) -> Option<bool> {
        let mut open = [0usize; 9];
        let mut forced = [0usize; 9];
        let (mut f1, mut f2, mut f3, mut f4) = (0, 0, 0, 0);
        let (mut p1, mut p2, mut p3, mut p4) = (0, 0, 0, 0);
        for d in 0..9 {
            let t = row_triads(self.cand[3 * d + b]);
            // In the row-triad matrix a box is a column: a triad alone in its column is
            // where the digit must be in that box.
            let f = SOLE_IN_COLUMN[t] as usize;
            open[d] = t;
            forced[d] = f;
            f4 |= f3 & f;
            f3 |= f2 & f;
            f2 |= f1 & f;
            f1 |= f;
            p4 |= p3 & t;
            p3 |= p2 & t;
            p2 |= p1 & t;
            p1 |= t;
        }
        if f4 != 0 || p3 != 0x1ff {
            return None;
        }
        let full = f3;
        let only = p3 & !p4;
        if full | only == 0 {
            return Some(false);
        }
        let mut changed = false;
        for d in 0..9 {
            let must = only & open[d];
            let drop = (full & !forced[d]) | (LINES_THROUGH[must] as usize & !must);
            let i = 3 * d + b;
            let kept = self.cand[i] & !TRIAD_CELLS[drop & 0x1ff];
            changed |= kept != self.cand[i];
            self.cand[i] = kept;
        }
        Some(changed)
    }

    /// The same capacity rule for the column triads of stack `s` (a column's three
    /// cells within a box).
    fn column_triad_capacity(&mut self, stack: usize) -> Option<bool> {
        let mut open = [0usize; 9];
        let mut forced = [0usize; 9];
        let (mut f1, mut f2, mut f3, mut f4) = (0, 0, 0, 0);
        let (mut p1, mut p2, mut p3, mut p4) = (0, 0, 0, 0);
        for d in 0..9 {
            let sd = [self.cand[3 * d], self.cand[3 * d + 1], self.cand[3 * d + 2]];
            let t = stack_triads(sd, stack);
            // In a stack matrix (rows = bands) a box is a row.
            let f = SOLE_IN_ROW[t] as usize;
            open[d] = t;
            forced[d] = f;
            f4 |= f3 & f;
            f3 |= f2 & f;
            f2 |= f1 & f;
            f1 |= f;
            p4 |= p3 & t;
            p3 |= p2 & t;
            p2 |= p1 & t;
            p1 |= t;
        }
        if f4 != 0 || p3 != 0x1ff {
            return None;
        }
        let full = f3;
        let only = p3 & !p4;
        if full | only == 0 {
            return Some(false);
        }
        let sh = 3 * stack;
        let mut changed = false;
        for d in 0..9 {
            let must = only & open[d];
            let drop = (full & !forced[d]) | (LINES_THROUGH[must] as usize & !must);
            for b in 0..3 {
                let cols = ((drop >> (3 * b) & 7) as u32) << sh;
                let i = 3 * d + b;
                let kept = self.cand[i] & !(cols * 0x40201);
                changed |= kept != self.cand[i];
                self.cand[i] = kept;
            }
        }
        Some(changed)
    }

    /// Triad capacity over all bands and stacks.
    fn triad_capacity(&mut self) -> Option<bool> {
        let mut changed = false;
        for b in 0..3 {
            changed |= self.row_triad_capacity(b)?;
            changed |= self.column_triad_capacity(b)?;
        }
        Some(changed)
    }

    /// Propagates to a fixed point: triads for every changed digit, then naked singles,
    /// then (when those stall) triad capacity.
    /// False on contradiction.
    #[inline(always)]
    fn propagate(&mut self) -> bool {
        loop {
            let mut changed = true;
            while changed {
                changed = false;
                for d in 0..9 {
                    let base = 3 * d;
                    if self.cand[base] == self.seen[base]
                        && self.cand[base + 1] == self.seen[base + 1]
                        && self.cand[base + 2] == self.seen[base + 2]
                    {
                        continue;
                    }
                    if !self.update_digit(d) {
                        return false;
                    }
                    changed = true;
                }
            }
            // Naked singles: cells of exactly one candidate, counted bit-sliced.
            let mut found = false;
            for b in 0..3 {
                let u = self.unsolved[b];
                if u == 0 {
                    continue;
                }
                let (mut one, mut two) = (0u32, 0u32);
                for d in 0..9 {
                    let x = self.cand[3 * d + b];
                    two |= one & x;
                    one |= x;
                }
                if u & !one != 0 {
                    return false;
                }
                let mut singles = u & !two;
                if singles != 0 {
                    found = true;
                    while singles != 0 {
                        let i = singles.trailing_zeros();
                        singles &= singles - 1;
                        // An earlier single of this pass may have taken the digit.
                        let digits = self.digits_at(b, i);
                        if digits == 0 {
                            return false;
                        }
                        self.assign(b, i, digits.trailing_zeros() as usize);
                    }
                }
            }
            if !found {
                match self.triad_capacity() {
                    None => return false,
                    Some(false) => return true,
                    Some(true) => {}
                }
            }
        }
    }

    fn is_solved(&self) -> bool {
        self.unsolved[0] | self.unsolved[1] | self.unsolved[2] == 0
    }

    fn write_solution(&self, out: &mut [u8; 81]) {
        for d in 0..9 {
            for b in 0..3 {
                let mut m = self.cand[3 * d + b];
                while m != 0 {
                    let i = m.trailing_zeros() as usize;
                    m &= m - 1;
                    out[27 * b + i] = d as u8 + 1;
                }
            }
        }
    }

    /// tdoku's heuristic in triad terms: among the six bands (three of rows, three of
    /// columns) not yet fixed, the one whose digits have the fewest configurations in
    /// total; in it, the digit with the fewest (at least two).
    fn choose_configuration(&self) -> Branch {
        let mut counts = [[0u8; 9]; 6];
        let mut best_band = usize::MAX;
        let mut best_total = u32::MAX;
        for d in 0..9 {
            let sd = [self.cand[3 * d], self.cand[3 * d + 1], self.cand[3 * d + 2]];
            for b in 0..3 {
                counts[b][d] = PERM_COUNT[row_triads(sd[b])];
                counts[3 + b][d] = PERM_COUNT[stack_triads(sd, b)];
            }
        }
        for (band, c) in counts.iter().enumerate() {
            let total: u32 = c.iter().map(|&x| x as u32).sum();
            if total > 9 && total < best_total {
                best_total = total;
                best_band = band;
            }
        }
        if best_band == usize::MAX {
            return Branch::None;
        }
        let mut best_digit = 0;
        let mut best_count = u8::MAX;
        for d in 0..9 {
            let c = counts[best_band][d];
            if c >= 2 && c < best_count {
                best_count = c;
                best_digit = d;
            }
        }
        Branch::Configuration {
            band: best_band,
            digit: best_digit,
        }
    }

    /// Restricts `digit` to one configuration (a permutation matrix) of a row band
    /// (`band < 3`) or a stack (`band >= 3`).
    fn restrict_configuration(&mut self, band: usize, digit: usize, perm: u16) {
        let perm = perm as usize;
        if band < 3 {
            self.cand[3 * digit + band] &= TRIAD_CELLS[perm];
        } else {
            let sh = 3 * (band - 3);
            let stack_cols = 0x40201 * (7 << sh);
            for b in 0..3 {
                let allowed = ((perm >> (3 * b) & 7) as u32) << sh;
                self.cand[3 * digit + b] &= !stack_cols | (allowed * 0x40201);
            }
        }
    }

    /// The configurations (permutation matrices) still open to `digit` in `band`.
    fn configurations(&self, band: usize, digit: usize) -> u16 {
        let sd = [
            self.cand[3 * digit],
            self.cand[3 * digit + 1],
            self.cand[3 * digit + 2],
        ];
        let t = if band < 3 {
            row_triads(sd[band])
        } else {
            stack_triads(sd, band - 3)
        };
        PERM_UNION[t]
    }

    fn digits_at(&self, b: usize, i: u32) -> u32 {
        let mut digits = 0;
        for d in 0..9 {
            digits |= (self.cand[3 * d + b] >> i & 1) << d;
        }
        digits
    }
}

/// What to branch on.
enum Branch {
    /// Nothing: the grid is solved.
    None,
    /// The configurations of a digit in a band (0-2 rows, 3-5 stacks).
    Configuration { band: usize, digit: usize },
}

/// Depth-first search state shared along one search.
struct Search<'a> {
    limit: u64,
    solutions: u64,
    budget: Budget,
    done: Option<Stop>,
    on_solution: &'a mut dyn FnMut(&[u8]) -> bool,
    buffer: [u8; 81],
}

impl Search<'_> {
    /// Explores a propagated, consistent state. Depth is at most 81.
    fn explore(&mut self, state: &State) {
        if state.is_solved() {
            self.solutions += 1;
            state.write_solution(&mut self.buffer);
            if !(self.on_solution)(&self.buffer) || self.solutions >= self.limit {
                self.done = Some(Stop::SolutionLimit);
            }
            return;
        }
        let Branch::Configuration { band, digit } = state.choose_configuration() else {
            unreachable!("an unsolved, propagated state has a band left to fix")
        };
        let open = state.configurations(band, digit);
        for perm in PERMS {
            if open & perm != perm {
                continue;
            }
            if !self.budget.node() {
                self.done = Some(self.budget.stopped().unwrap_or(Stop::NodeLimit));
                return;
            }
            let mut next = *state;
            next.restrict_configuration(band, digit, perm);
            if next.propagate() {
                self.explore(&next);
                if self.done.is_some() {
                    return;
                }
            }
        }
    }
}

/// The initial state of a puzzle (81 digits, 0 = empty), or `None` when givens conflict.
fn initial_state(cells: &[u8]) -> Option<State> {
    let mut state = State::new();
    for (cell, &v) in cells.iter().enumerate() {
        if v == 0 {
            continue;
        }
        let (b, i) = (cell / 27, (cell % 27) as u32);
        let d = v as usize - 1;
        if state.cand[3 * d + b] >> i & 1 == 0 {
            return None;
        }
        state.assign(b, i, d);
    }
    Some(state)
}

/// Searches a classic puzzle given as 81 digits (0 = empty); see [`super::search`].
pub fn search(cells: &[u8], limits: &Limits, on_solution: &mut dyn FnMut(&[u8]) -> bool) -> Report {
    search_excluding(cells, &[], limits, on_solution)
}

/// [`search`] with some candidates of empty cells ruled out first: `(cell, digit)`.
pub fn search_excluding(
    cells: &[u8],
    excluded: &[(usize, u8)],
    limits: &Limits,
    on_solution: &mut dyn FnMut(&[u8]) -> bool,
) -> Report {
    assert_eq!(cells.len(), 81, "classic engine needs 81 cells");
    let mut search = Search {
        limit: limits.solutions,
        solutions: 0,
        budget: Budget::new(limits),
        done: None,
        on_solution,
        buffer: [0; 81],
    };
    if limits.solutions == 0 {
        return Report {
            solutions: 0,
            guesses: 0,
            stop: Stop::SolutionLimit,
        };
    }
    if let Some(mut state) = initial_state(cells) {
        for &(cell, digit) in excluded {
            if cells[cell] == 0 && (1..=9).contains(&digit) {
                state.cand[3 * (digit as usize - 1) + cell / 27] &= !(1 << (cell % 27));
            }
        }
        if state.propagate() {
            search.explore(&state);
        }
    }
    Report {
        solutions: search.solutions,
        guesses: search.budget.nodes(),
        stop: search.done.unwrap_or(Stop::Exhausted),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_consistent() {
        // Every permutation matrix is its own union; the full matrix holds all six.
        for p in PERMS {
            assert_eq!(PERM_UNION[p as usize], p);
            assert_eq!(p.count_ones(), 3);
        }
        assert_eq!(PERM_UNION[0x1ff], 0x1ff);
        // A matrix holding one permutation and a stray bit keeps only the permutation.
        assert_eq!(PERM_UNION[0x111 | 0x002], 0x111);
        assert_eq!(PERM_UNION[0x0ff], 0x0ff); // every permutation avoiding (2,2)
        // Masks tile the band.
        assert_eq!(ROW.iter().fold(0, |a, r| a | r), BAND);
        assert_eq!(BOX.iter().fold(0, |a, r| a | r), BAND);
        assert_eq!(COL.iter().fold(0, |a, r| a | r), BAND);
        assert_eq!(TRIAD_CELLS[0x1ff], BAND);
    }

    #[test]
    fn permutation_matrices_are_distinct_permutations() {
        for (i, &p) in PERMS.iter().enumerate() {
            for r in 0..3 {
                assert!((p >> (3 * r)) & 7 != 0);
                assert_eq!(((p >> (3 * r)) & 7).count_ones(), 1);
            }
            for c in 0..3 {
                assert_eq!((0..3).filter(|r| p >> (3 * r + c) & 1 == 1).count(), 1);
            }
            assert!(!PERMS[..i].contains(&p));
        }
    }
}
