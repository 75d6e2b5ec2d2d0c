//! The puzzle model shared by every module: [`Grid`] (the cells, 0 = empty) and
//! [`Candidates`] (per-cell digit sets), both tied to a [`Geometry`].
//!
//! Digits are `1..=n`; a digit set is a 64-bit mask with bit `d - 1` for digit `d`,
//! which covers every supported side (up to 64).

use std::fmt;
use std::sync::Arc;

use crate::geometry::{Cell, Geometry};
use crate::symbols::Digits;

/// A set of digits `1..=64`, bit `d - 1` for digit `d`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct DigitSet(pub u64);

impl DigitSet {
    /// The empty set.
    pub const EMPTY: DigitSet = DigitSet(0);

    /// All digits `1..=n`.
    pub fn all(n: usize) -> DigitSet {
        DigitSet(if n >= 64 { u64::MAX } else { (1u64 << n) - 1 })
    }

    /// The set holding only `digit`.
    pub fn single(digit: u8) -> DigitSet {
        debug_assert!((1..=64).contains(&digit));
        DigitSet(1u64 << (digit - 1))
    }

    /// Whether `digit` is in the set.
    pub fn contains(self, digit: u8) -> bool {
        digit >= 1 && self.0 >> (digit - 1) & 1 == 1
    }

    /// Adds `digit`.
    pub fn insert(&mut self, digit: u8) {
        self.0 |= 1u64 << (digit - 1);
    }

    /// Removes `digit`; returns whether it was present.
    pub fn remove(&mut self, digit: u8) -> bool {
        let had = self.contains(digit);
        self.0 &= !(1u64 << (digit - 1));
        had
    }

    /// Number of digits.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The smallest digit, if any.
    pub fn first(self) -> Option<u8> {
        (self.0 != 0).then(|| self.0.trailing_zeros() as u8 + 1)
    }

    /// The only digit, if the set has exactly one.
    pub fn single_digit(self) -> Option<u8> {
        (self.0 != 0 && self.0 & (self.0 - 1) == 0).then(|| self.0.trailing_zeros() as u8 + 1)
    }

    /// The digits in increasing order.
    pub fn iter(self) -> DigitIter {
        DigitIter(self.0)
    }
}

impl std::ops::BitOr for DigitSet {
    type Output = DigitSet;
    fn bitor(self, rhs: DigitSet) -> DigitSet {
        DigitSet(self.0 | rhs.0)
    }
}

impl std::ops::BitAnd for DigitSet {
    type Output = DigitSet;
    fn bitand(self, rhs: DigitSet) -> DigitSet {
        DigitSet(self.0 & rhs.0)
    }
}

impl std::ops::Not for DigitSet {
    type Output = DigitSet;
    fn not(self) -> DigitSet {
        DigitSet(!self.0)
    }
}

impl fmt::Debug for DigitSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl FromIterator<u8> for DigitSet {
    fn from_iter<I: IntoIterator<Item = u8>>(iter: I) -> DigitSet {
        let mut s = DigitSet::EMPTY;
        for d in iter {
            s.insert(d);
        }
        s
    }
}

/// Iterator over the digits of a [`DigitSet`], smallest first.
#[derive(Clone, Debug)]
pub struct DigitIter(u64);

impl Iterator for DigitIter {
    type Item = u8;
    fn next(&mut self) -> Option<u8> {
        if self.0 == 0 {
            return None;
        }
        let d = self.0.trailing_zeros() as u8 + 1;
        self.0 &= self.0 - 1;
        Some(d)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for DigitIter {}

/// A puzzle or (partial) solution: one digit per cell, 0 for an empty cell.
#[derive(Clone, PartialEq, Eq)]
pub struct Grid {
    geometry: Arc<Geometry>,
    cells: Vec<u8>,
}

/// Why cell values do not make a grid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum GridError {
    /// Wrong number of cells for the geometry.
    #[error("expected {expected} cells, got {got}")]
    Length {
        /// Cells the geometry has.
        expected: usize,
        /// Cells given.
        got: usize,
    },
    /// A value above the side.
    #[error("value {value} at {cell} is larger than {size}")]
    Value {
        /// The `r1c1` name of the cell.
        cell: String,
        /// The value found.
        value: usize,
        /// The largest digit allowed.
        size: usize,
    },
}

/// Two givens that break the rules: equal digits in one house.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The earlier cell (row-major).
    pub first: Cell,
    /// The later cell.
    pub second: Cell,
    /// The digit they share.
    pub digit: u8,
}

impl Conflict {
    /// `r1c1 and r1c5 both hold 8`.
    pub fn describe(&self, geometry: &Geometry) -> String {
        self.describe_in(geometry, Digits::NUMBERS)
    }

    /// The same, the digit written as `digits` says (`both hold H` under `--symbols
    /// ABCDEFGHI`).
    pub fn describe_in(&self, geometry: &Geometry, digits: Digits) -> String {
        format!(
            "{} and {} both hold {}",
            geometry.cell_name(self.first),
            geometry.cell_name(self.second),
            digits.show(self.digit)
        )
    }
}

impl Grid {
    /// An empty grid.
    pub fn empty(geometry: Arc<Geometry>) -> Grid {
        let cells = vec![0; geometry.cell_count()];
        Grid { geometry, cells }
    }

    /// A grid from row-major cell values (0 = empty).
    pub fn from_cells(geometry: Arc<Geometry>, cells: Vec<u8>) -> Result<Grid, GridError> {
        if cells.len() != geometry.cell_count() {
            return Err(GridError::Length {
                expected: geometry.cell_count(),
                got: cells.len(),
            });
        }
        let n = geometry.size();
        // The maximum first: a loop without early exit vectorises.
        if cells.iter().fold(0, |m, &v| m.max(v)) as usize > n
            && let Some((cell, &v)) = cells.iter().enumerate().find(|&(_, &v)| v as usize > n)
        {
            return Err(GridError::Value {
                cell: geometry.cell_name(cell),
                value: v as usize,
                size: geometry.size(),
            });
        }
        Ok(Grid { geometry, cells })
    }

    /// The geometry the grid lives in.
    pub fn geometry(&self) -> &Arc<Geometry> {
        &self.geometry
    }

    /// Side length `n`.
    pub fn size(&self) -> usize {
        self.geometry.size()
    }

    /// Row-major cell values, 0 = empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value of a cell, 0 when empty.
    pub fn get(&self, cell: Cell) -> u8 {
        self.cells[cell]
    }

    /// Sets a cell (0 empties it).
    pub fn set(&mut self, cell: Cell, value: u8) {
        debug_assert!(value as usize <= self.size());
        self.cells[cell] = value;
    }

    /// The filled cells with their digits, in cell order.
    pub fn givens(&self) -> impl Iterator<Item = (Cell, u8)> + '_ {
        self.cells
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v != 0)
            .map(|(cell, &v)| (cell, v))
    }

    /// Number of filled cells.
    pub fn filled(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Whether every cell is filled.
    pub fn is_complete(&self) -> bool {
        self.cells.iter().all(|&v| v != 0)
    }

    /// The first pair of filled cells that share a house and a digit, scanning cells
    /// row-major and each cell's peers in order.
    pub fn first_conflict(&self) -> Option<Conflict> {
        for cell in 0..self.cells.len() {
            let d = self.cells[cell];
            if d == 0 {
                continue;
            }
            if let Some(&p) = self
                .geometry
                .peers(cell)
                .iter()
                .find(|&&p| p as usize > cell && self.cells[p as usize] == d)
            {
                return Some(Conflict {
                    first: cell,
                    second: p as usize,
                    digit: d,
                });
            }
        }
        None
    }

    /// Whether this grid is complete, obeys every house and keeps every given of `puzzle`.
    pub fn solves(&self, puzzle: &Grid) -> bool {
        self.geometry == puzzle.geometry
            && self.is_complete()
            && self.first_conflict().is_none()
            && puzzle
                .cells
                .iter()
                .zip(&self.cells)
                .all(|(&given, &v)| given == 0 || given == v)
    }
}

impl fmt::Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text: String = self
            .cells
            .iter()
            .map(|&v| match v {
                0 => '.',
                1..=9 => (b'0' + v) as char,
                _ => (b'A' + v - 10) as char,
            })
            .collect();
        write!(f, "Grid({} {})", self.geometry.name(), text)
    }
}

/// The digits that no peer of `cell` holds in `cells` (row-major values, 0 = empty):
/// the basic candidate rule, for engines that work on raw cell arrays.
pub fn open_digits(geometry: &Geometry, cells: &[u8], cell: Cell) -> DigitSet {
    let mut taken = 0u64;
    for &p in geometry.peers(cell) {
        let v = cells[p as usize];
        if v != 0 {
            taken |= 1u64 << (v - 1);
        }
    }
    DigitSet(DigitSet::all(geometry.size()).0 & !taken)
}

/// The digits still possible in every cell (a filled cell holds just its value).
#[derive(Clone, PartialEq, Eq)]
pub struct Candidates {
    geometry: Arc<Geometry>,
    cells: Vec<DigitSet>,
}

impl Candidates {
    /// Every digit in every cell.
    pub fn full(geometry: Arc<Geometry>) -> Candidates {
        let cells = vec![DigitSet::all(geometry.size()); geometry.cell_count()];
        Candidates { geometry, cells }
    }

    /// The candidates a grid leaves by the basic rule: a filled cell holds its value; an
    /// empty cell every digit that no peer holds.
    pub fn from_grid(grid: &Grid) -> Candidates {
        let g = grid.geometry();
        let cells = (0..g.cell_count())
            .map(|cell| match grid.get(cell) {
                0 => open_digits(g, grid.cells(), cell),
                v => DigitSet::single(v),
            })
            .collect();
        Candidates {
            geometry: g.clone(),
            cells,
        }
    }

    /// Candidates from explicit sets (a pencil-mark grid).
    pub fn from_sets(
        geometry: Arc<Geometry>,
        cells: Vec<DigitSet>,
    ) -> Result<Candidates, GridError> {
        if cells.len() != geometry.cell_count() {
            return Err(GridError::Length {
                expected: geometry.cell_count(),
                got: cells.len(),
            });
        }
        let all = DigitSet::all(geometry.size());
        let cells = cells.into_iter().map(|s| s & all).collect();
        Ok(Candidates { geometry, cells })
    }

    /// The geometry.
    pub fn geometry(&self) -> &Arc<Geometry> {
        &self.geometry
    }

    /// The candidates of a cell.
    pub fn get(&self, cell: Cell) -> DigitSet {
        self.cells[cell]
    }

    /// Replaces the candidates of a cell.
    pub fn set(&mut self, cell: Cell, digits: DigitSet) {
        self.cells[cell] = digits;
    }

    /// Removes one candidate; returns whether it was there.
    pub fn remove(&mut self, cell: Cell, digit: u8) -> bool {
        self.cells[cell].remove(digit)
    }

    /// All cells' sets, row-major.
    pub fn sets(&self) -> &[DigitSet] {
        &self.cells
    }

    /// The grid of cells that have a single candidate (others empty).
    pub fn singles(&self) -> Grid {
        Grid {
            geometry: self.geometry.clone(),
            cells: self
                .cells
                .iter()
                .map(|s| s.single_digit().unwrap_or(0))
                .collect(),
        }
    }
}

impl fmt::Debug for Candidates {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.cells.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digit_sets() {
        let mut s = DigitSet::EMPTY;
        s.insert(3);
        s.insert(64);
        assert!(s.contains(3) && s.contains(64) && !s.contains(1) && !s.contains(0));
        assert_eq!(s.iter().collect::<Vec<_>>(), vec![3, 64]);
        assert_eq!(s.len(), 2);
        assert!(s.remove(3) && !s.remove(3));
        assert_eq!(s.single_digit(), Some(64));
        assert_eq!(DigitSet::all(9).0, 0x1ff);
        assert_eq!(DigitSet::all(64).len(), 64);
    }

    #[test]
    fn fallin_top_left_cell_has_3_and_9() {
        // Fallin's figure 1: "The top left cell ... cannot contain any of 2, 8, 7, 5, 6,
        // 1, 4 ... This leaves only 3 and 9 as possibilities."
        let text =
            ".6.1.4.5...83.56..2.......18..4.7..6..6...3..7..9.1..45.......2..72.69...4.5.8.7.";
        let cells: Vec<u8> = text
            .bytes()
            .map(|b| if b == b'.' { 0 } else { b - b'0' })
            .collect();
        let grid = Grid::from_cells(Geometry::classic(), cells).unwrap();
        let cand = Candidates::from_grid(&grid);
        assert_eq!(cand.get(0).iter().collect::<Vec<_>>(), vec![3, 9]);
    }

    #[test]
    fn conflicts_and_verification() {
        let g = Geometry::classic();
        let mut cells = vec![0u8; 81];
        cells[3] = 5;
        cells[30] = 5; // same column as cell 3
        let grid = Grid::from_cells(g.clone(), cells).unwrap();
        let c = grid.first_conflict().unwrap();
        assert_eq!((c.first, c.second, c.digit), (3, 30, 5));
        assert_eq!(grid.givens().collect::<Vec<_>>(), [(3, 5), (30, 5)]);
        assert!(Grid::from_cells(g.clone(), vec![10; 81]).is_err());
        assert!(Grid::from_cells(g, vec![0; 80]).is_err());
    }
}
