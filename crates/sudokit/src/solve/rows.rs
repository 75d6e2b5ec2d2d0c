//! Counting and enumerating puzzles with very many solutions (standard grids up to
//! 16x16): fill the grid row by row, remember counts, and use digit symmetry.
//!
//! The propagating engines ([`super::classic`], [`super::general`]) reach every solution
//! one by one, which costs a few hundred nanoseconds per solution at best. When a puzzle
//! has hundreds of thousands of solutions (Moler's `kron(eye(3),magic(3))`) or tens of
//! millions (the empty 6x6 grid), two observations do much better:
//!
//! * **Memoisation at row boundaries.** Filling row-major, the rows still to fill depend
//!   on the rows already filled only through the digits each column holds and, inside
//!   the current band, the digits each box holds. Different fillings of the upper rows
//!   often leave the same masks (the order of digits within a column is forgotten), so
//!   the number of completions from such a state is computed once and looked up after.
//! * **Digit symmetry.** Digits that appear in no given are interchangeable: relabelling
//!   them maps solutions to solutions, and every orbit has `k!` members (`k` such
//!   digits). So the search only places them in increasing order of first appearance and
//!   multiplies the count by `k!` (enumeration expands each canonical solution into its
//!   `k!` relabellings). The empty 6x6 grid becomes 39,168 canonical grids.
//!
//! The row-major order has no propagation, so on a hard puzzle with few solutions it
//! explores far more than the propagating engines; [`super::count_solutions`] and
//! [`super::enumerate`] only come here after a short probe found many solutions.

use rustc_hash::FxHashMap;

use super::{Budget, Limits, Report, Stop};
use crate::geometry::Geometry;
use crate::grid::Grid;
use crate::shape::Shape;

/// The widest side handled: digit masks are 16 bits.
pub const MAX_SIDE: usize = 16;

/// Memo entries kept at most (beyond this, counts are recomputed rather than stored).
const MAX_MEMO: usize = 1 << 21;

/// Whether this engine handles the geometry: standard boxes or a Latin square, side at
/// most 16.
pub fn supports(geometry: &Geometry) -> bool {
    boxes(geometry).is_some() && geometry.size() <= MAX_SIDE
}

/// The box shape the row filling works with: a standard grid's, or for a Latin square
/// boxes of one row (`1xn`), which ask nothing a row does not.
fn boxes(geometry: &Geometry) -> Option<Shape> {
    if geometry.is_standard() {
        geometry.shape()
    } else if geometry.variant().is_latin_square() {
        Shape::new(1, geometry.size()).ok()
    } else {
        None
    }
}

/// Counts per state. FxHash: the keys are already well mixed bit masks, and SipHash
/// would cost more than the lookups save.
type Memo<const K: usize> = FxHashMap<[u64; K], u64>;

/// The fixed part of a puzzle, shared by counting and enumeration.
struct Layout {
    n: usize,
    box_rows: usize,
    box_cols: usize,
    all: u16,
    /// Per row, its empty cells as (column, stack).
    free: Vec<Vec<(u8, u8)>>,
    /// Per row, the digits given in it.
    row_given: Vec<u16>,
    /// Per band, the digits given in each of its boxes.
    band_boxes: Vec<[u16; 8]>,
    /// Per column, the digits given anywhere in it.
    col_given: [u16; MAX_SIDE],
    /// Digits that appear in no given (interchangeable).
    symmetric: u16,
    /// Per row, every filling of its empty cells that the givens allow, when there are
    /// few enough to list ([`MAX_FILLINGS`]).
    fillings: Vec<Option<Vec<Filling>>>,
}

/// Row fillings listed per row at most: beyond this, rows are filled cell by cell.
const MAX_FILLINGS: usize = 4096;

/// One way to fill a row's empty cells: the digit of its `i`-th empty cell is bit
/// `16 * i + digit - 1` of `bits`, so a whole filling is tested against the column and
/// box masks with four ANDs.
///
/// Fillings are listed in lexicographic order, so those sharing the digits of the first
/// `j + 1` cells are consecutive: when a filling clashes first at cell `j`, the search
/// jumps to `skip[j]`, the next filling that differs somewhere in cells `0..=j`.
#[derive(Clone, Debug)]
struct Filling {
    bits: [u64; 4],
    digits: [u16; MAX_SIDE],
    skip: [u16; MAX_SIDE],
}

/// The row-filling bit set of per-cell digit masks (cell `i` at bits `16 * i..`).
#[inline]
fn spread(masks: &[u16]) -> [u64; 4] {
    let mut bits = [0u64; 4];
    for (i, &m) in masks.iter().enumerate() {
        bits[i / 4] |= (m as u64) << (16 * (i % 4));
    }
    bits
}

impl Layout {
    /// `None` when the givens conflict.
    fn new(grid: &Grid) -> Option<Layout> {
        if grid.first_conflict().is_some() {
            return None;
        }
        let g = grid.geometry();
        let shape = boxes(g).expect("supported geometries have boxes");
        let (n, br, bc) = (g.size(), shape.box_rows(), shape.box_cols());
        let mut layout = Layout {
            n,
            box_rows: br,
            box_cols: bc,
            all: ((1u32 << n) - 1) as u16,
            free: vec![Vec::new(); n],
            row_given: vec![0; n],
            band_boxes: vec![[0; 8]; n / br],
            col_given: [0; MAX_SIDE],
            symmetric: 0,
            fillings: Vec::new(),
        };
        let mut present = 0u16;
        for r in 0..n {
            for c in 0..n {
                match grid.get(r * n + c) {
                    0 => layout.free[r].push((c as u8, (c / bc) as u8)),
                    d => {
                        let bit = 1u16 << (d - 1);
                        present |= bit;
                        layout.row_given[r] |= bit;
                        layout.col_given[c] |= bit;
                        layout.band_boxes[r / br][c / bc] |= bit;
                    }
                }
            }
        }
        layout.symmetric = layout.all & !present;
        layout.fillings = (0..n).map(|r| layout.list_fillings(r)).collect();
        Some(layout)
    }

    /// Every filling of row `r` the givens allow, or `None` beyond [`MAX_FILLINGS`].
    fn list_fillings(&self, r: usize) -> Option<Vec<Filling>> {
        let cells = &self.free[r];
        let band = &self.band_boxes[r / self.box_rows];
        let allowed: Vec<u16> = cells
            .iter()
            .map(|&(c, s)| {
                self.all & !(self.row_given[r] | self.col_given[c as usize] | band[s as usize])
            })
            .collect();
        let mut out = Vec::new();
        let mut digits = [0u16; MAX_SIDE];
        fn extend(
            i: usize,
            row: u16,
            allowed: &[u16],
            digits: &mut [u16; MAX_SIDE],
            out: &mut Vec<Filling>,
        ) -> bool {
            if i == allowed.len() {
                if out.len() >= MAX_FILLINGS {
                    return false;
                }
                out.push(Filling {
                    bits: spread(&digits[..i]),
                    digits: *digits,
                    skip: [0; MAX_SIDE],
                });
                return true;
            }
            let mut cand = allowed[i] & !row;
            while cand != 0 {
                let bit = cand & cand.wrapping_neg();
                cand &= !bit;
                digits[i] = bit;
                if !extend(i + 1, row | bit, allowed, digits, out) {
                    return false;
                }
            }
            true
        }
        if !extend(0, self.row_given[r], &allowed, &mut digits, &mut out) {
            return None;
        }
        // skip[j]: the first later filling whose cells 0..=j differ (scan backwards).
        let len = out.len();
        for idx in (0..len).rev() {
            for j in 0..cells.len() {
                out[idx].skip[j] = if idx + 1 == len {
                    len as u16
                } else if out[idx + 1].digits[..=j] != out[idx].digits[..=j] {
                    (idx + 1) as u16
                } else {
                    out[idx + 1].skip[j]
                };
            }
        }
        Some(out)
    }

    /// `k!` for the `k` interchangeable digits, saturating.
    fn symmetry_factor(&self) -> u64 {
        (1..=self.symmetric.count_ones() as u64).fold(1u64, |f, k| f.saturating_mul(k))
    }

    /// The digits cell `(c, s)` may take, given the row so far, the column and box
    /// masks, and (digit symmetry) the interchangeable digits already used.
    #[inline]
    fn candidates(&self, row: u16, col: u16, bx: u16, used: u16) -> u16 {
        let mut cand = self.all & !(row | col | bx);
        let unused = self.symmetric & !used;
        if unused != 0 {
            // Only the smallest unused interchangeable digit may appear first.
            cand &= !(unused & (unused - 1));
        }
        cand
    }
}

/// Counts (with memoisation) or enumerates (with a memo of dead ends) row by row.
///
/// The state at the start of a row is the column masks (givens included) and the
/// current band's box masks; `K` is the memo key width in words ([`key_words`]).
struct Walker<'a, 'f, const K: usize> {
    layout: &'a Layout,
    cols: [u16; MAX_SIDE],
    boxes: [u16; 8],
    budget: Budget,
    stopped: Option<Stop>,
    /// Completions (canonical) from a state at a row start. When enumerating, only
    /// zeros are used: a state known to have no completion is not explored again.
    memo: Memo<K>,
    /// Stop once this many canonical solutions are certain.
    limit: u64,
    /// Canonical solutions certain so far (leaves reached plus memo hits).
    found: u64,
    /// When enumerating: the grid being filled, and where solutions go.
    enumerate: Option<Emitter<'f>>,
    /// A trial: after this many nodes, `judge(solutions so far, nodes)` decides
    /// whether to go on; `abandoned` records a no.
    trial: Option<(u64, Judge<'f>)>,
    abandoned: bool,
    /// `k!` for the interchangeable digits (solutions per canonical solution).
    factor: u64,
}

/// Decides, from (solutions found, nodes spent), whether a trial goes on.
pub type Judge<'f> = &'f dyn Fn(u64, u64) -> bool;

/// The enumeration side of a [`Walker`].
struct Emitter<'f> {
    cells: Vec<u8>,
    relabelled: Vec<u8>,
    /// The interchangeable digits, ascending.
    symmetric: Vec<u8>,
    limit: u64,
    solutions: u64,
    on_solution: &'f mut dyn FnMut(&[u8]) -> bool,
}

impl<'a, 'f, const K: usize> Walker<'a, 'f, K> {
    fn new(layout: &'a Layout, limits: &Limits, enumerate: Option<Emitter<'f>>) -> Self {
        Walker {
            layout,
            cols: layout.col_given,
            boxes: layout.band_boxes[0],
            budget: Budget::new(limits),
            stopped: None,
            memo: Memo::default(),
            limit: u64::MAX,
            found: 0,
            enumerate,
            trial: None,
            abandoned: false,
            factor: layout.symmetry_factor(),
        }
    }

    /// Counts a node; false when a limit (or a failed trial) stops the walk.
    #[inline]
    fn node(&mut self) -> bool {
        if !self.budget.node() {
            self.stopped = self.budget.stopped();
            return false;
        }
        if let Some((at, judge)) = self.trial {
            if self.budget.nodes() == at && !judge(self.found.saturating_mul(self.factor), at) {
                self.abandoned = true;
                self.stopped = Some(Stop::NodeLimit);
                return false;
            }
        }
        true
    }

    /// Digits used so far anywhere (the columns hold them all).
    fn used(&self) -> u16 {
        self.cols[..self.layout.n].iter().fold(0, |a, &m| a | m)
    }

    /// The memo key of the state at the start of row `r`: the row index, then the
    /// column and box masks, four 16-bit lanes per word.
    #[inline]
    fn key(&self, r: usize) -> [u64; K] {
        let n = self.layout.n;
        let mut key = [0u64; K];
        key[0] = r as u64;
        let masks = self.cols[..n]
            .iter()
            .chain(&self.boxes[..n / self.layout.box_cols]);
        for (lane, &m) in masks.enumerate() {
            key[(lane + 1) / 4] |= (m as u64) << (16 * ((lane + 1) % 4));
        }
        key
    }

    /// Places `bit` at `(r, c)` in stack `s`.
    #[inline]
    fn place(&mut self, r: usize, c: usize, s: usize, bit: u16) {
        self.cols[c] |= bit;
        self.boxes[s] |= bit;
        if let Some(e) = &mut self.enumerate {
            e.cells[r * self.layout.n + c] = bit.trailing_zeros() as u8 + 1;
        }
    }

    #[inline]
    fn unplace(&mut self, c: usize, s: usize, bit: u16) {
        self.cols[c] &= !bit;
        self.boxes[s] &= !bit;
    }

    /// Counts one more certain canonical solution batch; false once the limit is hit.
    #[inline]
    fn add_found(&mut self, count: u64) {
        self.found = self.found.saturating_add(count);
        if self.found >= self.limit {
            self.stopped.get_or_insert(Stop::SolutionLimit);
        }
    }

    /// Completions (canonical) from the start of row `r`, after the rows above.
    fn rows_from(&mut self, r: usize, used: u16) -> u64 {
        let layout = self.layout;
        if r == layout.n {
            if self.enumerate.is_some() {
                self.emit();
            }
            self.add_found(1);
            return 1;
        }
        // The first row has one state; the last is forced by its columns.
        let memoise = r > 0 && r + 1 < layout.n;
        let key = if memoise {
            let key = self.key(r);
            match self.memo.get(&key) {
                Some(&count) if self.enumerate.is_none() => {
                    self.add_found(count);
                    return count;
                }
                Some(&0) => return 0,
                _ => Some(key),
            }
        } else {
            None
        };
        let saved = self.boxes;
        if r % layout.box_rows == 0 {
            self.boxes = layout.band_boxes[r / layout.box_rows];
        }
        let total = match &layout.fillings[r] {
            Some(fillings) if layout.symmetric & !used == 0 => self.fill_listed(r, fillings, used),
            _ => self.fill_cells(r, used),
        };
        self.boxes = saved;
        if let Some(key) = key {
            if self.stopped.is_none() && self.memo.len() < MAX_MEMO {
                self.memo.insert(key, total);
            }
        }
        total
    }

    /// Row `r` over its listed fillings, each tested at once against the masks of its
    /// cells' columns and boxes.
    fn fill_listed(&mut self, r: usize, fillings: &[Filling], used: u16) -> u64 {
        let cells = &self.layout.free[r];
        let mut forbidden = [0u16; MAX_SIDE];
        for (f, &(c, s)) in forbidden.iter_mut().zip(cells) {
            *f = self.cols[c as usize] | self.boxes[s as usize];
        }
        let forbidden = spread(&forbidden[..cells.len()]);
        let mut total = 0u64;
        let mut idx = 0;
        while idx < fillings.len() {
            let filling = &fillings[idx];
            if let Some(w) = (0..4).find(|&w| filling.bits[w] & forbidden[w] != 0) {
                let lane = (filling.bits[w] & forbidden[w]).trailing_zeros() as usize / 16;
                idx = filling.skip[4 * w + lane] as usize;
                continue;
            }
            idx += 1;
            if !self.node() {
                return total;
            }
            for (&d, &(c, s)) in filling.digits.iter().zip(cells) {
                self.place(r, c as usize, s as usize, d);
            }
            total += self.rows_from(r + 1, used);
            for (&d, &(c, s)) in filling.digits.iter().zip(cells) {
                self.unplace(c as usize, s as usize, d);
            }
            if self.stopped.is_some() {
                return total;
            }
        }
        total
    }

    /// Row `r` cell by cell (rows with too many fillings to list, and the first row
    /// while interchangeable digits are unused).
    fn fill_cells(&mut self, r: usize, used: u16) -> u64 {
        let layout = self.layout;
        let cells = &layout.free[r];
        let k = cells.len();
        if k == 0 {
            return self.rows_from(r + 1, used);
        }
        let mut total = 0u64;
        // Per position in the row: candidates left, the digit placed, the row mask and
        // the interchangeable digits used before it.
        let mut left = [0u16; MAX_SIDE];
        let mut placed = [0u16; MAX_SIDE];
        let mut row_before = [0u16; MAX_SIDE];
        let mut used_before = [0u16; MAX_SIDE];
        let mut i = 0;
        row_before[0] = layout.row_given[r];
        used_before[0] = used;
        let (c, s) = cells[0];
        left[0] = layout.candidates(
            row_before[0],
            self.cols[c as usize],
            self.boxes[s as usize],
            used,
        );
        loop {
            let (c, s) = (cells[i].0 as usize, cells[i].1 as usize);
            if placed[i] != 0 {
                self.unplace(c, s, placed[i]);
                placed[i] = 0;
            }
            if left[i] == 0 || self.stopped.is_some() {
                if i == 0 {
                    return total;
                }
                i -= 1;
                continue;
            }
            if !self.node() {
                continue;
            }
            let bit = left[i] & left[i].wrapping_neg();
            left[i] &= !bit;
            placed[i] = bit;
            self.place(r, c, s, bit);
            let row = row_before[i] | bit;
            let used = used_before[i] | bit;
            if i + 1 == k {
                total += self.rows_from(r + 1, used);
                continue;
            }
            i += 1;
            row_before[i] = row;
            used_before[i] = used;
            let (c, s) = cells[i];
            left[i] = layout.candidates(row, self.cols[c as usize], self.boxes[s as usize], used);
        }
    }

    /// Reports the canonical solution being built and all its relabellings.
    fn emit(&mut self) {
        let n = self.layout.n;
        let Some(e) = &mut self.enumerate else { return };
        let k = e.symmetric.len();
        if k == 0 {
            e.solutions += 1;
            if !(e.on_solution)(&e.cells) || e.solutions >= e.limit {
                self.stopped = Some(Stop::SolutionLimit);
            }
            return;
        }
        // Heap's algorithm over the images of the interchangeable digits.
        let mut image = e.symmetric.clone();
        let mut counters = vec![0usize; k];
        let mut map = [0u8; MAX_SIDE + 1];
        for (d, m) in map.iter_mut().enumerate().take(n + 1) {
            *m = d as u8;
        }
        let mut j = 1;
        loop {
            for (&from, &to) in e.symmetric.iter().zip(&image) {
                map[from as usize] = to;
            }
            for (out, &d) in e.relabelled.iter_mut().zip(&e.cells) {
                *out = map[d as usize];
            }
            e.solutions += 1;
            if !(e.on_solution)(&e.relabelled) || e.solutions >= e.limit {
                self.stopped = Some(Stop::SolutionLimit);
                return;
            }
            // Next permutation.
            while j < k && counters[j] >= j {
                counters[j] = 0;
                j += 1;
            }
            if j >= k {
                return;
            }
            if j % 2 == 0 {
                image.swap(0, j);
            } else {
                image.swap(counters[j], j);
            }
            counters[j] += 1;
            j = 1;
        }
    }
}

/// Key width in 64-bit words for a layout: row index, column masks, box masks.
fn key_words(layout: &Layout) -> usize {
    (1 + layout.n + layout.n / layout.box_cols).div_ceil(4)
}

/// Counts the solutions of `grid` (which [`supports`] must accept), stopping once the
/// count reaches `limits.solutions`; `guesses` in the report are the row fillings and
/// cells tried.
pub fn count(grid: &Grid, limits: &Limits) -> Report {
    walk(grid, limits, None, None).expect("no trial to fail")
}

/// [`count`] on trial: after `nodes` nodes, `judge(solutions so far, nodes)` decides
/// whether to go on; `None` when it says no.
pub fn count_on_trial(
    grid: &Grid,
    limits: &Limits,
    nodes: u64,
    judge: Judge<'_>,
) -> Option<Report> {
    walk(grid, limits, None, Some((nodes, judge)))
}

/// Enumerates the solutions of `grid` (which [`supports`] must accept), calling
/// `on_solution` with each (row-major digits); the callback returns `false` to stop.
/// Solutions come in canonical order, each followed by its relabellings.
pub fn enumerate(
    grid: &Grid,
    limits: &Limits,
    on_solution: &mut dyn FnMut(&[u8]) -> bool,
) -> Report {
    walk(grid, limits, Some(on_solution), None).expect("no trial to fail")
}

/// Where enumerated solutions go.
type OnSolution<'f> = &'f mut dyn FnMut(&[u8]) -> bool;

fn walk<'f>(
    grid: &Grid,
    limits: &Limits,
    on_solution: Option<OnSolution<'f>>,
    trial: Option<(u64, Judge<'f>)>,
) -> Option<Report> {
    let Some(layout) = Layout::new(grid) else {
        return Some(Report {
            solutions: 0,
            guesses: 0,
            stop: Stop::Exhausted,
        });
    };
    if limits.solutions == 0 {
        return Some(Report {
            solutions: 0,
            guesses: 0,
            stop: Stop::SolutionLimit,
        });
    }
    let emitter = on_solution.map(|on_solution| Emitter {
        cells: grid.cells().to_vec(),
        relabelled: grid.cells().to_vec(),
        symmetric: (1..=layout.n as u8)
            .filter(|&d| layout.symmetric >> (d - 1) & 1 == 1)
            .collect(),
        limit: limits.solutions,
        solutions: 0,
        on_solution,
    });
    match key_words(&layout) {
        1 | 2 => walk_with::<2>(&layout, limits, emitter, trial),
        3 | 4 => walk_with::<4>(&layout, limits, emitter, trial),
        _ => walk_with::<7>(&layout, limits, emitter, trial),
    }
}

fn walk_with<'f, const K: usize>(
    layout: &Layout,
    limits: &Limits,
    emitter: Option<Emitter<'f>>,
    trial: Option<(u64, Judge<'f>)>,
) -> Option<Report> {
    let factor = layout.symmetry_factor();
    let enumerating = emitter.is_some();
    let mut walker = Walker::<K>::new(layout, limits, emitter);
    walker.trial = trial;
    if !enumerating {
        // The canonical count at which the real count reaches the limit.
        walker.limit = limits.solutions.div_ceil(factor).max(1);
    }
    let used = walker.used();
    let canonical = walker.rows_from(0, used);
    let stop = walker.stopped.unwrap_or(Stop::Exhausted);
    let solutions = match &walker.enumerate {
        Some(e) => e.solutions,
        None if stop == Stop::Exhausted => canonical.saturating_mul(factor),
        None => canonical.saturating_mul(factor).min(limits.solutions),
    };
    (!walker.abandoned).then_some(Report {
        solutions,
        guesses: walker.budget.nodes(),
        stop,
    })
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::format::parse_grid;
    use crate::shape::Shape;
    use crate::solve::tests::planted_puzzles;
    use std::sync::Arc;

    fn empty(r: usize, c: usize) -> Grid {
        Grid::empty(Geometry::standard(Shape::new(r, c).unwrap()))
    }

    #[test]
    fn published_grid_counts() {
        // 288 Shidoku grids; 28,200,960 6x6 grids with 2x3 boxes (OEIS A107739).
        let all = Limits::solutions(u64::MAX);
        assert_eq!(count(&empty(2, 2), &all).solutions, 288);
        assert_eq!(count(&empty(2, 3), &all).solutions, 28_200_960);
        assert_eq!(count(&empty(3, 2), &all).solutions, 28_200_960);
    }

    #[test]
    fn published_latin_square_counts() {
        // Latin squares of order 4, 5 and 6: 576, 161,280 and 812,851,200 (OEIS A002860).
        let all = Limits::solutions(u64::MAX);
        for (n, expected) in [(4, 576), (5, 161_280), (6, 812_851_200)] {
            let g = Geometry::for_variant(n, None, &latin()).unwrap();
            assert_eq!(
                count(&Grid::empty(Arc::new(g)), &all).solutions,
                expected,
                "order {n}"
            );
        }
    }

    /// Row-engine nodes a test allows before calling a case hopeless.
    const ROW_NODES: u64 = 1_000_000;

    fn latin() -> crate::Variant {
        "latin".parse().unwrap()
    }

    #[test]
    fn kron_count_and_limits() {
        let kron = parse_grid(
            "816000000357000000492000000000816000000357000000492000000000816000000357000000492",
        )
        .unwrap();
        let r = count(&kron, &Limits::solutions(u64::MAX));
        assert_eq!((r.solutions, r.stop), (283_576, Stop::Exhausted));
        let r = count(&kron, &Limits::solutions(1000));
        assert_eq!((r.solutions, r.stop), (1000, Stop::SolutionLimit));
    }

    #[test]
    fn enumeration_expands_symmetry_and_respects_limits() {
        let mut seen = std::collections::HashSet::new();
        let report = enumerate(&empty(2, 2), &Limits::solutions(u64::MAX), &mut |s| {
            assert!(seen.insert(s.to_vec()));
            true
        });
        assert_eq!((report.solutions, seen.len()), (288, 288));
        let g = empty(2, 2);
        for s in &seen {
            let s = Grid::from_cells(g.geometry().clone(), s.clone()).unwrap();
            assert!(s.solves(&g));
        }
        let report = enumerate(&empty(2, 3), &Limits::solutions(1000), &mut |_| true);
        assert_eq!((report.solutions, report.stop), (1000, Stop::SolutionLimit));
    }

    /// A partial Latin square of order 9 (a case the property test below drew, which ran
    /// for over ten minutes in CI) without a completion: propagation proves it at once,
    /// while the row engine fills eight rows in every way before the ninth fails. A node
    /// limit stops it, and `solve::count` hands over to the search.
    #[test]
    fn hopeless_row_by_row_counts_stop_at_the_node_limit() {
        let geometry = Arc::new(Geometry::for_variant(9, None, &latin()).unwrap());
        let cells =
            "..49.....3.......9.2.3.841..49...6....6..9....93.........4...95....97.3.....3.2.."
                .bytes()
                .map(|b| if b == b'.' { 0 } else { b - b'0' })
                .collect();
        let grid = Grid::from_cells(geometry, cells).unwrap();
        let limits = Limits {
            solutions: 500,
            nodes: Some(ROW_NODES),
            deadline: None,
        };
        let report = count(&grid, &limits);
        assert_eq!(report.stop, Stop::NodeLimit);
        // Digit 9 has only column 1 left in rows 3 and 9: hidden singles refute it.
        let searched = crate::solve::search(&grid, &Limits::solutions(500), &mut |_| true);
        assert_eq!((searched.solutions, searched.stop), (0, Stop::Exhausted));
        let counted = crate::solve::count(&grid, &Limits::solutions(500));
        assert_eq!((counted.solutions, counted.stop), (0, Stop::Exhausted));
    }

    #[test]
    fn sparse_scattered_clues_go_back_to_the_search() {
        // The first 17-clue puzzle of the data sets without its first clue: 16 clues,
        // thousands of solutions the search counts in milliseconds, hopeless row by
        // row. `solve::count` must notice within its trial and hand over.
        let mut grid = parse_grid(
            ".......1.4.........2...........5.4.7..8...3....1.9....3..4..2...5.1........8.6...",
        )
        .unwrap();
        grid.set(7, 0);
        let limits = Limits {
            solutions: u64::MAX,
            nodes: None,
            deadline: Some(std::time::Instant::now() + std::time::Duration::from_secs(60)),
        };
        let searched = crate::solve::search(&grid, &limits, &mut |_| true);
        let counted = crate::solve::count(&grid, &limits);
        assert_eq!(searched.stop, Stop::Exhausted);
        assert_eq!(
            (counted.solutions, counted.stop),
            (searched.solutions, Stop::Exhausted)
        );
        assert!(searched.solutions > 1000);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// Counting and enumeration agree with the propagating search, solution for
        /// solution, on random puzzles of every shape up to 9x9 (with and without
        /// solutions, with interchangeable digits or none).
        #[test]
        fn agrees_with_the_search((shape, _planted, cells) in planted_puzzles(), latin_square in proptest::bool::ANY) {
            // A sudoku solution is a Latin square too, so the same cells serve as a
            // partial Latin square.
            let geometry = if latin_square {
                Arc::new(Geometry::for_variant(shape.size(), None, &latin()).unwrap())
            } else {
                Geometry::standard(shape)
            };
            let grid = Grid::from_cells(geometry, cells).unwrap();
            let limits = Limits::solutions(500);
            let mut expected = Vec::new();
            let report = crate::solve::search(&grid, &limits, &mut |s| {
                expected.push(s.to_vec());
                true
            });
            // Some draws are hopeless row by row (see the test above); the row engine
            // may give up on them, as `solve::count`'s trial does, but not be wrong.
            let row_limits = Limits {
                nodes: Some(ROW_NODES),
                ..limits
            };
            let counted = count(&grid, &row_limits);
            if counted.stop == Stop::NodeLimit {
                return Ok(());
            }
            prop_assert_eq!(counted.solutions, report.solutions);
            prop_assert_eq!(counted.stop, report.stop);
            let mut found = Vec::new();
            let listed = enumerate(&grid, &row_limits, &mut |s| {
                found.push(s.to_vec());
                true
            });
            if listed.stop == Stop::NodeLimit {
                return Ok(());
            }
            prop_assert_eq!(listed.solutions, report.solutions);
            if report.stop == Stop::Exhausted {
                expected.sort();
                found.sort();
                prop_assert_eq!(found, expected);
            } else {
                let before = found.len();
                found.sort();
                found.dedup();
                prop_assert_eq!(found.len(), before);
                for s in &found {
                    let s = Grid::from_cells(grid.geometry().clone(), s.clone()).unwrap();
                    prop_assert!(s.solves(&grid));
                }
            }
        }
    }
}
