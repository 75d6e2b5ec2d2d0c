//! Complete grids built by formula, for geometries whose empty grid defeats search
//! (36x36 and 49x49 disjoint groups, 36x36 windoku: neither the propagating search nor
//! clause learning fills them in a minute). Generation draws its grid from here when
//! search fails ([`crate::generate`]), and the solver answers an empty grid with one
//! ([`crate::solve`]).
//!
//! * [`pattern_grid`]: each digit a linear function of the cell's band, row in band,
//!   stack and column in stack (disjoint groups, the centre dot, diagonals).
//! * [`window_grid`]: windoku (with diagonals or groups where labels for them turn
//!   up), whose windows straddle bands and fit no linear pattern.

use std::sync::Arc;

use crate::geometry::{Cell, Geometry, HouseKind};
use crate::grid::Grid;
use crate::rng::Rng;

/// A complete grid of `geometry` built by [`window_grid`] or, failing that,
/// [`pattern_grid`]; `None` when neither fits. Not random beyond `rng`'s choice of
/// coefficients or labels: relabel it for a random-looking grid.
pub fn complete_grid(geometry: &Arc<Geometry>, rng: &mut Rng) -> Option<Grid> {
    window_grid(geometry, rng).or_else(|| pattern_grid(geometry, rng))
}

/// A complete grid whose digits are a linear function of each cell's band, row in the
/// band, stack and column in the stack, for geometries whose empty grid defeats search
/// (36x36 and 49x49 with disjoint groups: no grid in 20 s, by restarts or clause
/// learning). The digit is `a.(band, row, stack, column) mod n` (the textbook pattern
/// `(box_cols * row + band + column) mod n` is one), or on square boxes of side `b` the
/// pair of two such functions mod `b`; random coefficients are tried until one makes
/// every house of the geometry whole. Disjoint groups, the centre dot and the diagonals
/// have such grids; windoku's windows straddle bands and never do. `None` when
/// `PATTERN_TRIES` (20,000) coefficients fail or the geometry has no box shape.
pub fn pattern_grid(geometry: &Arc<Geometry>, rng: &mut Rng) -> Option<Grid> {
    let shape = geometry.shape()?;
    let (rows, cols) = (shape.box_rows(), shape.box_cols());
    let n = geometry.size();
    let coordinates: Vec<[usize; 4]> = (0..n * n)
        .map(|c| {
            let (r, c) = (c / n, c % n);
            [r / rows, r % rows, c / cols, c % cols]
        })
        .collect();
    let square = rows == cols;
    let mut cells = vec![0u8; n * n];
    for t in 0..PATTERN_TRIES {
        let pairs = square && t % 2 == 0;
        let modulus = if pairs { rows } else { n } as u64;
        let a: [usize; 8] = std::array::from_fn(|_| rng.below(modulus) as usize);
        let dot = |k: &[usize], v: &[usize; 4]| {
            k.iter().zip(v).map(|(k, v)| k * v).sum::<usize>() % modulus as usize
        };
        for (cell, v) in cells.iter_mut().zip(&coordinates) {
            let d = match pairs {
                true => dot(&a[..4], v) * rows + dot(&a[4..], v),
                false => dot(&a[..4], v),
            };
            *cell = d as u8 + 1;
        }
        if fills_every_house(geometry, &cells) {
            return Grid::from_cells(geometry.clone(), cells).ok();
        }
    }
    None
}

/// Whether every house of `geometry` holds each digit once in `cells`.
fn fills_every_house(geometry: &Geometry, cells: &[u8]) -> bool {
    geometry.houses().iter().all(|house| {
        let seen = house.cells().fold(0u64, |m, c| m | 1 << (cells[c] - 1));
        seen == geometry.digit_mask()
    })
}

/// A complete windoku grid (windows alone or with other extra houses), which no linear
/// [`pattern_grid`] gives and search cannot find from the empty 36x36 grid. The windows'
/// rows, with the rows no window covers, split the rows into `b` blocks of `b` (the
/// rows outside the windows make the implied windows); likewise the columns. Each
/// cell's digit is the pair `(A[band(r)][t(c)], B[s(r)][block(c)])` for two Latin
/// squares `A`, `B` of order `b`, where the row label `s` takes every value once in
/// each band and in each row block, and the column label `t` once in each stack and
/// each column block. A row is whole because `(t, block)` runs over every pair along
/// it, a column because `(band, s)` does down it; in a box the first half differs
/// across its columns and the second down each column, and in a window the first half
/// differs along each row and the second across its rows. The labels are searched for
/// (`LabelSearch`, random squares each time) with the other extra houses (X-sudoku's
/// diagonals, disjoint groups) kept all different as cells get their digits. `None`
/// when there are no windows or `LABEL_TRIES` (100) searches fail.
pub fn window_grid(geometry: &Arc<Geometry>, rng: &mut Rng) -> Option<Grid> {
    let shape = geometry.shape()?;
    let b = shape.box_rows();
    let n = geometry.size();
    let blocks = [
        window_blocks(geometry, b, |c| geometry.row(c))?,
        window_blocks(geometry, b, |c| geometry.col(c))?,
    ];
    let mut search = LabelSearch::new(geometry, b, blocks);
    for _ in 0..LABEL_TRIES {
        if !search.run(rng) {
            continue;
        }
        let cells: Vec<u8> = (0..n * n)
            .map(|cell| search.digit(cell / n, cell % n) as u8 + 1)
            .collect();
        if fills_every_house(geometry, &cells) {
            return Grid::from_cells(geometry.clone(), cells).ok();
        }
    }
    None
}

/// The block (`0..b`) of each row, or each column when `line` gives columns, that the
/// windows of `geometry` make: one per distinct line set of a window, and the lines no
/// window covers as the last. `None` unless there are windows and every block has `b`
/// lines.
fn window_blocks(
    geometry: &Geometry,
    b: usize,
    line: impl Fn(Cell) -> usize,
) -> Option<Vec<usize>> {
    let n = geometry.size();
    let mut firsts: Vec<usize> = geometry
        .houses()
        .iter()
        .filter(|h| h.kind() == HouseKind::Window)
        .map(|h| h.cells().map(&line).min().expect("a window has cells"))
        .collect();
    firsts.sort_unstable();
    firsts.dedup();
    if firsts.len() + 1 != b {
        return None;
    }
    let mut blocks = vec![b - 1; n];
    for (k, &first) in firsts.iter().enumerate() {
        blocks.get_mut(first..first + b)?.fill(k);
    }
    let whole = (0..b).all(|k| blocks.iter().filter(|&&x| x == k).count() == b);
    whole.then_some(blocks)
}

/// A backtracking search for [`window_grid`]'s row labels `s` and column labels `t`:
/// each takes every value `0..b` once in each band (stack) and each window block, and
/// the extra houses that are not windows (diagonals, groups) stay all different as
/// their cells' digits become known. Lines are labelled from the outside in (rows and
/// columns 0, n-1, 1, n-2, ...) so that both diagonals' cells get digits early.
struct LabelSearch {
    /// Box side.
    b: usize,
    /// Grid side.
    n: usize,
    /// The window block of each row (`[0]`) and column (`[1]`).
    blocks: [Vec<usize>; 2],
    /// The geometry whose houses are filled.
    geometry: Arc<Geometry>,
    /// Per house of the geometry, whether the search keeps it all different (the
    /// extra houses other than windows; rows, columns, boxes and windows are whole by
    /// construction).
    checked: Vec<bool>,
    /// Labels so far, rows then columns (`usize::MAX`: none yet).
    labels: [Vec<usize>; 2],
    /// Values taken in each band and each block, rows then columns.
    band_used: [Vec<u64>; 2],
    block_used: [Vec<u64>; 2],
    /// Digits taken in each checked house (indexed as the geometry's houses).
    house_used: Vec<u64>,
    /// The Latin squares (`b * b`, row-major) combining band with column label (`[0]`)
    /// and row label with column block (`[1]`) into the digit's two halves.
    squares: [Vec<usize>; 2],
    /// (house, digit bit) set since the search began, to undo.
    trail: Vec<(usize, u64)>,
    /// Nodes left in this run.
    budget: usize,
}

impl LabelSearch {
    /// A search for the windows' `blocks` (rows, columns) of `geometry`.
    fn new(geometry: &Arc<Geometry>, b: usize, blocks: [Vec<usize>; 2]) -> LabelSearch {
        let n = geometry.size();
        let checked: Vec<bool> = geometry
            .houses()
            .iter()
            .map(|h| {
                !matches!(
                    h.kind(),
                    HouseKind::Row | HouseKind::Column | HouseKind::Box | HouseKind::Window
                )
            })
            .collect();
        LabelSearch {
            b,
            n,
            blocks,
            geometry: geometry.clone(),
            house_used: vec![0; checked.len()],
            checked,
            labels: [vec![usize::MAX; n], vec![usize::MAX; n]],
            band_used: [vec![0; b], vec![0; b]],
            block_used: [vec![0; b], vec![0; b]],
            squares: [Vec::new(), Vec::new()],
            trail: Vec::new(),
            budget: 0,
        }
    }

    /// The digit (`0..n`) of row `r`, column `c` once both are labelled.
    fn digit(&self, r: usize, c: usize) -> usize {
        let (s, t) = (self.labels[0][r], self.labels[1][c]);
        let b = self.b;
        self.squares[0][r / b * b + t] * b + self.squares[1][s * b + self.blocks[1][c]]
    }

    /// One randomised search of [`LABEL_NODES`] nodes a line; whether it labelled
    /// every line.
    fn run(&mut self, rng: &mut Rng) -> bool {
        let n = self.n;
        for side in 0..2 {
            self.labels[side].fill(usize::MAX);
            self.band_used[side].fill(0);
            self.block_used[side].fill(0);
        }
        self.house_used.fill(0);
        self.trail.clear();
        self.budget = LABEL_NODES * n;
        self.squares = [random_square(self.b, rng), random_square(self.b, rng)];
        let order: Vec<(usize, usize)> = (0..n)
            .map(|k| if k % 2 == 0 { k / 2 } else { n - 1 - k / 2 })
            .flat_map(|line| [(0, line), (1, line)])
            .collect();
        self.place(&order, rng)
    }

    /// Labels `order[0]` and the rest after it, backtracking; false when there is no
    /// way on or the budget ran out.
    fn place(&mut self, order: &[(usize, usize)], rng: &mut Rng) -> bool {
        let Some(&(side, line)) = order.first() else {
            return true;
        };
        if self.budget == 0 {
            return false;
        }
        self.budget -= 1;
        let (band, block) = (line / self.b, self.blocks[side][line]);
        let mut free =
            ((1u64 << self.b) - 1) & !self.band_used[side][band] & !self.block_used[side][block];
        while free != 0 {
            let bit = rng.pick_bit(free);
            free &= !bit;
            self.labels[side][line] = bit.trailing_zeros() as usize;
            let mark = self.trail.len();
            if self.digits_fit(side, line) {
                self.band_used[side][band] |= bit;
                self.block_used[side][block] |= bit;
                if self.place(&order[1..], rng) {
                    return true;
                }
                self.band_used[side][band] &= !bit;
                self.block_used[side][block] &= !bit;
            }
            for (house, digit) in self.trail.drain(mark..) {
                self.house_used[house] &= !digit;
            }
            if self.budget == 0 {
                break;
            }
        }
        self.labels[side][line] = usize::MAX;
        false
    }

    /// Takes the digits of the cells on `line` (a row when `side` is 0) whose other
    /// line is labelled into their extra houses; false at the first repeat.
    fn digits_fit(&mut self, side: usize, line: usize) -> bool {
        for other in 0..self.n {
            if self.labels[1 - side][other] == usize::MAX {
                continue;
            }
            let (r, c) = if side == 0 {
                (line, other)
            } else {
                (other, line)
            };
            let digit = 1u64 << self.digit(r, c);
            for house in self.geometry.houses_of(r * self.n + c) {
                if !self.checked[house] {
                    continue;
                }
                if self.house_used[house] & digit != 0 {
                    return false;
                }
                self.house_used[house] |= digit;
                self.trail.push((house, digit));
            }
        }
        true
    }
}

/// A random Latin square of order `b` (row-major), filled cell by cell with random
/// digits, backtracking.
fn random_square(b: usize, rng: &mut Rng) -> Vec<usize> {
    fn fill(square: &mut [usize], k: usize, b: usize, rng: &mut Rng) -> bool {
        if k == b * b {
            return true;
        }
        let (r, c) = (k / b, k % b);
        let mut free = (1u64 << b) - 1;
        for i in 0..c {
            free &= !(1 << square[r * b + i]);
        }
        for i in 0..r {
            free &= !(1 << square[i * b + c]);
        }
        while free != 0 {
            let bit = rng.pick_bit(free);
            free &= !bit;
            square[k] = bit.trailing_zeros() as usize;
            if fill(square, k + 1, b, rng) {
                return true;
            }
        }
        false
    }
    let mut square = vec![0; b * b];
    let filled = fill(&mut square, 0, b, rng);
    debug_assert!(filled, "every Latin rectangle completes");
    square
}

/// Searches [`window_grid`] may start.
const LABEL_TRIES: usize = 100;

/// Nodes a line one [`LabelSearch`] run may take.
const LABEL_NODES: usize = 1_000;

/// Coefficient vectors [`pattern_grid`] tries: a random one works for disjoint groups
/// once in ~60 (36x36, pairs) to ~1,500 (36x36, one function) tries.
const PATTERN_TRIES: usize = 20_000;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shape::Shape;

    /// Whether `digits` are `1..=n`, each once.
    fn whole(n: usize, digits: impl IntoIterator<Item = u8>) -> bool {
        let mut seen: Vec<u8> = digits.into_iter().collect();
        seen.sort_unstable();
        seen == (1..=n as u8).collect::<Vec<_>>()
    }

    /// The geometry of `variant` on boxes of `rows` x `cols`, and the grid `draw` builds
    /// for it (seed 5).
    fn drawn(
        rows: usize,
        cols: usize,
        variant: &str,
        draw: fn(&Arc<Geometry>, &mut Rng) -> Option<Grid>,
    ) -> (Arc<Geometry>, Grid) {
        let v = variant.parse().unwrap();
        let shape = Shape::new(rows, cols).unwrap();
        let g = Arc::new(Geometry::for_variant(rows * cols, Some(shape), &v).unwrap());
        let grid = draw(&g, &mut Rng::new(5)).expect("a grid");
        (g, grid)
    }

    /// The checks both tests end each grid with: X variants' diagonals whole, then the
    /// geometry's own verdict on the grid.
    fn diagonals_and_rules_hold(g: Arc<Geometry>, grid: &Grid, variant: &str) {
        if variant.contains('x') {
            assert!(diagonals_whole(grid), "{variant}");
        }
        assert!(grid.solves(&Grid::empty(g)), "{variant}");
    }

    /// Whether `draw` builds nothing for `variant` on 16x16.
    fn builds_nothing(variant: &str, draw: fn(&Arc<Geometry>, &mut Rng) -> Option<Grid>) -> bool {
        let g = Arc::new(Geometry::for_variant(16, None, &variant.parse().unwrap()).unwrap());
        draw(&g, &mut Rng::new(5)).is_none()
    }

    /// Whether both main diagonals of `grid` are whole.
    fn diagonals_whole(grid: &Grid) -> bool {
        let n = grid.size();
        whole(n, (0..n).map(|i| grid.get(i * n + i)))
            && whole(n, (0..n).map(|i| grid.get(i * n + n - 1 - i)))
    }

    /// Pattern grids fill every house of geometries whose empty grids defeat search
    /// (36x36 and 49x49 disjoint groups), non-square boxes included; windoku's windows
    /// never fit a pattern. Every house is checked here from the cells' coordinates,
    /// not through the geometry that made the grid.
    #[test]
    fn pattern_grids_fill_every_house() {
        for (rows, cols, variant) in [
            (6, 6, "disjoint"),
            (7, 7, "disjoint"),
            (4, 5, "disjoint"),
            (5, 6, "disjoint"),
            (5, 5, "x,centre-dot"),
            (3, 3, "x,disjoint"),
        ] {
            let n = rows * cols;
            let (g, grid) = drawn(rows, cols, variant, pattern_grid);
            let at = |r: usize, c: usize| grid.get(r * n + c);
            for k in 0..n {
                assert!(whole(n, (0..n).map(|c| at(k, c))), "{variant} row {k}");
                assert!(whole(n, (0..n).map(|r| at(r, k))), "{variant} col {k}");
                let (top, left) = (k / rows * rows, k % rows * cols);
                let boxed = (0..n).map(|i| at(top + i / cols, left + i % cols));
                assert!(whole(n, boxed), "{variant} box {k}");
                // Group k: the k-th cell of every box.
                let (i, j) = (k / cols, k % cols);
                let group = (0..n).map(|b| at(b / rows * rows + i, b % rows * cols + j));
                if variant.contains("disjoint") {
                    assert!(whole(n, group), "{variant} group {k}");
                }
            }
            diagonals_and_rules_hold(g, &grid, variant);
        }
        assert!(builds_nothing("windoku", pattern_grid));
    }

    /// Window grids fill every window, the rows no window covers (the implied windows)
    /// and every row, column and box, from 9x9 to 64x64 (36x36 windoku's empty grid
    /// defeats search); X-sudoku's diagonals too where a draw has them (16x16). Checked
    /// from the cells' coordinates, not through the geometry.
    #[test]
    fn window_grids_fill_every_house() {
        for (b, variant) in [
            (3, "windoku"),
            (4, "windoku"),
            (5, "windoku"),
            (6, "windoku"),
            (8, "windoku"),
            (3, "x,windoku"),
            (4, "x,windoku"),
        ] {
            let n = b * b;
            let (g, grid) = drawn(b, b, variant, window_grid);
            let at = |r: usize, c: usize| grid.get(r * n + c);
            let square = |rows: &[usize], cols: &[usize]| {
                whole(
                    n,
                    rows.iter()
                        .flat_map(|&r| cols.iter().map(move |&c| at(r, c))),
                )
            };
            // Window blocks of lines: 1..=b, b+2..=2b+1, ..., then 0, b+1, 2b+2, ...
            let mut blocks: Vec<Vec<usize>> = (0..b - 1)
                .map(|k| (0..b).map(|i| 1 + k * (b + 1) + i).collect())
                .collect();
            blocks.push((0..b).map(|k| k * (b + 1)).collect());
            let bands: Vec<Vec<usize>> = (0..b).map(|k| (k * b..k * b + b).collect()).collect();
            let all: Vec<usize> = (0..n).collect();
            for k in 0..n {
                assert!(square(&[k], &all), "{variant} row {k}");
                assert!(square(&all, &[k]), "{variant} col {k}");
                assert!(square(&bands[k / b], &bands[k % b]), "{variant} box {k}");
                assert!(
                    square(&blocks[k / b], &blocks[k % b]),
                    "{variant} window {k}"
                );
            }
            diagonals_and_rules_hold(g, &grid, variant);
        }
        assert!(builds_nothing("disjoint", window_grid));
    }
}
