//! [`Board`]: a [`State`] of side up to 32 as bitboards, for the techniques beyond
//! subsets and fish (wings, chains, uniqueness, ALS, forcing chains).
//!
//! A set of cells is a fixed-width bit set (bit `cell`), so "the cells that see both
//! ends" or "the cells of column 3 where 7 is possible" are one `&` each, and nothing
//! allocates. Three widths, behind the [`Bits`] trait: a `u128` for grids up to 9x9,
//! [`Wide`] (four words) for grids up to 16x16 and [`Huge`] (sixteen words) for grids
//! up to 32x32 (25x25 among them). Techniques are written once over `Board<S: Bits>`,
//! and each width is compiled on its own, so the 9x9 paths pay nothing for the wide
//! ones. The house tables are derived from the shared [`Geometry`]:
//! cells and houses are numbered as there (rows, then columns, then boxes or regions,
//! then diagonals or windows), so cell and house numbers in steps mean the same thing
//! on every path. Every geometry up to 32x32 gets a board (4x4 to 8x8, X-sudoku,
//! windoku, jigsaw, Latin squares, 10x10 to 25x25 and on to 32x32); the techniques
//! that lean on the classic layout (SE's unique loops and chaining engine) take the
//! classic board only ([`as_classic`], [`Board::classic`]) and use the static classic
//! [`tables`].

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Index, IndexMut, Not};
use std::sync::{Arc, OnceLock};

use crate::geometry::{Geometry, HouseKind};

use super::State;

/// A set of cells of a grid up to 9x9 (bit `cell`).
pub type CellSet = u128;

/// All 81 cells.
pub const ALL_CELLS: CellSet = (1u128 << 81) - 1;

/// A set of digits: bit `d - 1` for digit `d` (up to 32 digits).
pub type Digits = u32;

/// In [`Tables::box_of`]: the cell has no box or region (a Latin square).
pub const NO_HOUSE: u8 = u8::MAX;

/// A cell set as a fixed-width bitboard: `u128` for grids up to 9x9, [`Wide`] for grids
/// up to 16x16, [`Huge`] for grids up to 32x32. Techniques are written once over this
/// trait, and each width gets its own compiled copy, so the 9x9 paths keep their `u128`
/// speed.
pub trait Bits:
    Copy
    + Eq
    + Default
    + std::hash::Hash
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
{
    /// The empty set.
    const ZERO: Self;
    /// Most cells a board of this width holds (81 or 256).
    const CELLS: usize;
    /// Most digits a board of this width holds (9 or 16), and most cells in a house.
    const DIGITS: usize;
    /// One value per cell.
    type PerCell<T: Copy + Eq + Debug>: Copy
        + Eq
        + Debug
        + Index<usize, Output = T>
        + IndexMut<usize>
        + AsRef<[T]>;
    /// One value per digit (or per cell of a house).
    type PerDigit<T: Copy + Eq + Debug>: Copy
        + Eq
        + Debug
        + Index<usize, Output = T>
        + IndexMut<usize>
        + AsRef<[T]>;
    /// Every cell holding `v`.
    fn per_cell<T: Copy + Eq + Debug>(v: T) -> Self::PerCell<T>;
    /// Every digit holding `v`.
    fn per_digit<T: Copy + Eq + Debug>(v: T) -> Self::PerDigit<T>;
    /// The set of one cell.
    fn bit(c: usize) -> Self;
    /// The smallest cell (the set must not be empty).
    fn first(self) -> usize;
    /// Number of cells.
    fn count(self) -> u32;
    /// The set without its smallest cell (`x & (x - 1)`).
    fn drop_first(self) -> Self;
    /// Whether cell `c` is in the set.
    fn has(self, c: usize) -> bool;
    /// The cells after `c` (all the set's possible cells numbered above it).
    fn above(c: usize) -> Self;
    /// An iterator over the cells, smallest first.
    type Cells: Iterator<Item = usize>;
    /// The cells, smallest first.
    fn cells(self) -> Self::Cells;
    /// Whether the set is empty.
    #[inline]
    fn is_empty(self) -> bool {
        self == Self::ZERO
    }
}

impl Bits for u128 {
    const ZERO: u128 = 0;
    type Cells = NarrowCells;
    #[inline]
    fn cells(self) -> NarrowCells {
        NarrowCells(self)
    }
    const CELLS: usize = 81;
    const DIGITS: usize = 9;
    type PerCell<T: Copy + Eq + Debug> = [T; 81];
    type PerDigit<T: Copy + Eq + Debug> = [T; 9];
    #[inline]
    fn per_cell<T: Copy + Eq + Debug>(v: T) -> [T; 81] {
        [v; 81]
    }
    #[inline]
    fn per_digit<T: Copy + Eq + Debug>(v: T) -> [T; 9] {
        [v; 9]
    }
    #[inline]
    fn bit(c: usize) -> u128 {
        1u128 << c
    }
    #[inline]
    fn first(self) -> usize {
        self.trailing_zeros() as usize
    }
    #[inline]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn drop_first(self) -> u128 {
        self & self.wrapping_sub(1)
    }
    #[inline]
    fn has(self, c: usize) -> bool {
        self >> c & 1 == 1
    }
    #[inline]
    fn above(c: usize) -> u128 {
        !((2u128 << c) - 1)
    }
}

/// The cells of a `u128` set, smallest first.
pub struct NarrowCells(u128);

impl Iterator for NarrowCells {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            None
        } else {
            let c = self.0.trailing_zeros() as usize;
            self.0 &= self.0 - 1;
            Some(c)
        }
    }
}

/// The cells of a multi-word set ([`Wide`], [`Huge`]), smallest first (word by word,
/// so each step looks at one word).
pub struct WordCells<const W: usize>([u64; W], usize);

impl<const W: usize> Iterator for WordCells<W> {
    type Item = usize;
    #[inline]
    fn next(&mut self) -> Option<usize> {
        while self.1 < W {
            let w = &mut self.0[self.1];
            if *w != 0 {
                let c = self.1 * 64 + w.trailing_zeros() as usize;
                *w &= *w - 1;
                return Some(c);
            }
            self.1 += 1;
        }
        None
    }
}

/// A cell set of `$words` 64-bit words, for grids of side up to `$digits`.
macro_rules! word_set {
    ($(#[$doc:meta])* $name:ident, $words:literal, $digits:literal) => {
        $(#[$doc])*
        #[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Hash)]
        pub struct $name([u64; $words]);

        impl BitAnd for $name {
            type Output = $name;
            #[inline]
            fn bitand(self, o: $name) -> $name {
                $name(std::array::from_fn(|i| self.0[i] & o.0[i]))
            }
        }

        impl BitOr for $name {
            type Output = $name;
            #[inline]
            fn bitor(self, o: $name) -> $name {
                $name(std::array::from_fn(|i| self.0[i] | o.0[i]))
            }
        }

        impl BitXor for $name {
            type Output = $name;
            #[inline]
            fn bitxor(self, o: $name) -> $name {
                $name(std::array::from_fn(|i| self.0[i] ^ o.0[i]))
            }
        }

        impl BitAndAssign for $name {
            #[inline]
            fn bitand_assign(&mut self, o: $name) {
                *self = *self & o;
            }
        }

        impl BitOrAssign for $name {
            #[inline]
            fn bitor_assign(&mut self, o: $name) {
                *self = *self | o;
            }
        }

        impl Not for $name {
            type Output = $name;
            #[inline]
            fn not(self) -> $name {
                $name(self.0.map(|w| !w))
            }
        }

        impl Bits for $name {
            const ZERO: $name = $name([0; $words]);
            type Cells = WordCells<$words>;
            #[inline]
            fn cells(self) -> WordCells<$words> {
                WordCells(self.0, 0)
            }
            const CELLS: usize = 64 * $words;
            const DIGITS: usize = $digits;
            type PerCell<T: Copy + Eq + Debug> = [T; 64 * $words];
            type PerDigit<T: Copy + Eq + Debug> = [T; $digits];
            #[inline]
            fn per_cell<T: Copy + Eq + Debug>(v: T) -> [T; 64 * $words] {
                [v; 64 * $words]
            }
            #[inline]
            fn per_digit<T: Copy + Eq + Debug>(v: T) -> [T; $digits] {
                [v; $digits]
            }
            #[inline]
            fn bit(c: usize) -> $name {
                let mut w = [0; $words];
                w[c >> 6] = 1 << (c & 63);
                $name(w)
            }
            #[inline]
            fn first(self) -> usize {
                for (i, &w) in self.0.iter().enumerate() {
                    if w != 0 {
                        return i * 64 + w.trailing_zeros() as usize;
                    }
                }
                64 * $words
            }
            #[inline]
            fn count(self) -> u32 {
                self.0.iter().map(|w| w.count_ones()).sum()
            }
            #[inline]
            fn drop_first(mut self) -> $name {
                for w in self.0.iter_mut() {
                    if *w != 0 {
                        *w &= *w - 1;
                        break;
                    }
                }
                self
            }
            #[inline]
            fn has(self, c: usize) -> bool {
                self.0[c >> 6] >> (c & 63) & 1 == 1
            }
            #[inline]
            fn is_empty(self) -> bool {
                // One OR over the words, where `==` on the array calls `memcmp`.
                self.0.iter().fold(0, |a, &w| a | w) == 0
            }
            #[inline]
            fn above(c: usize) -> $name {
                let (w, b) = (c >> 6, c & 63);
                $name(std::array::from_fn(|i| match i.cmp(&w) {
                    std::cmp::Ordering::Less => 0,
                    std::cmp::Ordering::Equal => (!0u64).checked_shl(b as u32 + 1).unwrap_or(0),
                    std::cmp::Ordering::Greater => !0,
                }))
            }
        }
    };
}

word_set!(
    /// A set of cells of a grid up to 16x16 (256 bits, four words).
    Wide,
    4,
    16
);

word_set!(
    /// A set of cells of a grid up to 32x32 (1,024 bits, sixteen words): 25x25 and the
    /// sizes up to 32 (28x28, 30x30, 32x32).
    Huge,
    16,
    32
);

/// House and peer tables of one geometry (cells numbered as in the geometry, row by
/// row; bits from `n * n` on stay empty).
#[derive(Clone, PartialEq, Eq)]
pub struct Tables<S: Bits = CellSet> {
    /// The side.
    pub n: usize,
    /// Number of rows and columns: houses `0..lines` are the lines (rows, then columns).
    pub lines: usize,
    /// Number of houses (27 for classic sudoku).
    pub houses: usize,
    /// Cells of each house.
    pub house: Vec<S>,
    /// Cells of each house, in increasing order (see [`Tables::cells_of`]).
    pub house_cells: Vec<S::PerDigit<u16>>,
    /// Peers of each cell (not the cell itself).
    pub peers: S::PerCell<S>,
    /// Row, column and box house of each cell (the box is the row where there is none).
    pub houses_of: S::PerCell<[u8; 3]>,
    /// The box or region house of each cell, [`NO_HOUSE`] where there is none.
    pub box_of: S::PerCell<u8>,
    /// The box or region houses.
    pub boxes: Vec<usize>,
    /// The cells of the grid (all 81 on 9x9).
    pub cells: S,
}

impl<S: Bits> Tables<S> {
    /// The tables of a geometry that fits this width (side up to [`Bits::DIGITS`]).
    pub fn new(g: &Geometry) -> Option<Tables<S>> {
        let n = g.size();
        if n > S::DIGITS || n * n > S::CELLS || g.houses().len() > usize::from(NO_HOUSE) {
            return None;
        }
        let houses = g.houses().len();
        let mut t = Tables {
            n,
            lines: 2 * n,
            houses,
            house: vec![S::ZERO; houses],
            house_cells: vec![S::per_digit(0); houses],
            peers: S::per_cell(S::ZERO),
            houses_of: S::per_cell([0; 3]),
            box_of: S::per_cell(NO_HOUSE),
            boxes: Vec::new(),
            cells: S::ZERO,
        };
        for (h, house) in g.houses().iter().enumerate() {
            let mut cells: Vec<usize> = house.cells().collect();
            cells.sort_unstable();
            for (i, &c) in cells.iter().enumerate() {
                t.house[h] |= S::bit(c);
                t.house_cells[h][i] = c as u16;
            }
            if matches!(house.kind(), HouseKind::Box | HouseKind::Region) {
                t.boxes.push(h);
                for &c in &cells {
                    t.box_of[c] = h as u8;
                }
            }
        }
        for c in 0..n * n {
            t.cells |= S::bit(c);
            for &p in g.peers(c) {
                t.peers[c] |= S::bit(p as usize);
            }
            // Rows come first, then columns, in every geometry.
            let (r, col) = (c / n, n + c % n);
            let bx = if t.box_of[c] == NO_HOUSE {
                r
            } else {
                t.box_of[c] as usize
            };
            t.houses_of[c] = [r as u8, col as u8, bx as u8];
        }
        Some(t)
    }

    /// The cells of house `h`, in increasing order.
    pub fn cells_of(&self, h: usize) -> &[u16] {
        &self.house_cells[h].as_ref()[..self.n]
    }

    /// Number of cells of the grid.
    #[inline]
    pub fn cell_count(&self) -> usize {
        self.n * self.n
    }

    /// The row of cell `c` (0-based).
    #[inline]
    pub fn row(&self, c: usize) -> usize {
        c / self.n
    }

    /// The column of cell `c` (0-based).
    #[inline]
    pub fn col(&self, c: usize) -> usize {
        c % self.n
    }

    /// The houses, as cell sets.
    pub fn house_sets(&self) -> &[S] {
        &self.house[..self.houses]
    }

    /// The cells seeing every cell of `set` (and not in it).
    #[inline]
    pub fn seen_by_all(&self, set: S) -> S {
        let mut acc = self.cells;
        for c in cells(set) {
            acc &= self.peers[c];
        }
        acc & !set
    }
}

/// The classic 9x9 tables, shared.
pub fn tables() -> &'static Tables {
    classic_tables()
}

fn classic_tables() -> &'static Arc<Tables> {
    static T: OnceLock<Arc<Tables>> = OnceLock::new();
    T.get_or_init(|| Arc::new(Tables::new(&Geometry::classic()).expect("classic is 9x9")))
}

/// Iterates over the cells of a set, smallest first.
#[inline]
pub fn cells<S: Bits>(set: S) -> S::Cells {
    set.cells()
}

/// The smallest cell of a set.
#[inline]
pub fn first<S: Bits>(set: S) -> usize {
    set.first()
}

/// Number of cells in a set.
#[inline]
pub fn count<S: Bits>(set: S) -> u32 {
    set.count()
}

/// Whether a set holds exactly two cells: two bit operations, where counting takes a
/// dozen on a baseline x86-64 build (no `popcnt`) and links are tested by the million.
#[inline]
pub fn is_pair<S: Bits>(set: S) -> bool {
    let rest = set.drop_first();
    !rest.is_empty() && rest.drop_first().is_empty()
}

/// Whether a set holds at most one cell (see [`is_pair`]).
#[inline]
pub fn at_most_one<S: Bits>(set: S) -> bool {
    set.drop_first().is_empty()
}

/// Whether a set holds at most two cells (see [`is_pair`]).
#[inline]
pub fn at_most_two<S: Bits>(set: S) -> bool {
    at_most_one(set.drop_first())
}

/// Whether a digit mask holds exactly two digits (see [`is_pair`]).
#[inline]
pub fn is_digit_pair(mask: Digits) -> bool {
    is_pair(mask as CellSet)
}

/// Row of a cell (0-8).
#[inline]
pub fn row(c: usize) -> usize {
    c / 9
}

/// Column of a cell (0-8).
#[inline]
pub fn col(c: usize) -> usize {
    c % 9
}

/// Box of a cell (0-8).
#[inline]
pub fn boxn(c: usize) -> usize {
    (c / 27) * 3 + (c % 9) / 3
}

/// A position as bitboards: candidates per cell (bit `d - 1`) and cells per digit.
/// `Board` (the default width) serves grids up to 9x9, `Board<Wide>` grids up to 16x16,
/// `Board<Huge>` grids up to 32x32.
#[derive(Clone, PartialEq, Eq)]
pub struct Board<S: Bits = CellSet> {
    /// Candidates of each unplaced cell; 0 for placed cells.
    pub cand: S::PerCell<Digits>,
    /// Placed values (0 = empty).
    pub value: S::PerCell<u8>,
    /// For digit `d` (index `d - 1`), the unplaced cells where it is a candidate.
    pub dcells: S::PerDigit<S>,
    /// Whether the geometry is classic sudoku (rows, columns, 3x3 boxes only).
    pub classic: bool,
    /// The geometry's houses and peers.
    tables: Arc<Tables<S>>,
}

impl Board {
    /// An empty classic board.
    pub fn empty() -> Board {
        Board::blank(classic_tables().clone(), true)
    }

    /// The bitboards of a classic state.
    pub fn from_state(state: &State) -> Board {
        debug_assert!(state.geometry().is_classic());
        Board::for_state(state).expect("a classic state is 9x9")
    }
}

impl<S: Bits> Board<S> {
    fn blank(tables: Arc<Tables<S>>, classic: bool) -> Board<S> {
        Board {
            cand: S::per_cell(0),
            value: S::per_cell(0),
            dcells: S::per_digit(S::ZERO),
            classic,
            tables,
        }
    }

    /// The bitboards of a state whose grid fits this width; None for larger grids.
    pub fn for_state(state: &State) -> Option<Board<S>> {
        let g = state.geometry();
        let classic = g.is_classic() && S::CELLS == 81;
        let tables = if classic {
            // The classic tables are the `u128` ones; the check above makes this a no-op
            // cast on that width and unreachable on the others.
            let any: &dyn std::any::Any = classic_tables();
            any.downcast_ref::<Arc<Tables<S>>>()?.clone()
        } else {
            Arc::new(Tables::new(g)?)
        };
        let mut b = Board::blank(tables, classic);
        for c in 0..g.cell_count() {
            b.value[c] = state.value(c);
            let set = state.cands(c).0 as Digits;
            b.cand[c] = set;
            let mut s = set;
            while s != 0 {
                let d = s.trailing_zeros() as usize;
                b.dcells[d] |= S::bit(c);
                s &= s - 1;
            }
        }
        Some(b)
    }

    /// The house and peer tables of the board's geometry.
    #[inline]
    pub fn tables(&self) -> &Tables<S> {
        &self.tables
    }

    /// The side of the grid (and number of digits).
    #[inline]
    pub fn n(&self) -> usize {
        self.tables.n
    }

    /// The cells of the grid, `0..n * n`.
    #[inline]
    pub fn cell_range(&self) -> std::ops::Range<usize> {
        0..self.tables.n * self.tables.n
    }

    /// The digits of the grid, `1..=n`.
    #[inline]
    pub fn digit_range(&self) -> std::ops::RangeInclusive<u8> {
        1..=self.tables.n as u8
    }

    /// The cells seeing every cell of `set` (and not in it).
    #[inline]
    pub fn seen_by_all(&self, set: S) -> S {
        self.tables.seen_by_all(set)
    }

    /// Cells (unplaced) where digit `d` (1-based) is a candidate.
    #[inline]
    pub fn digit(&self, d: u8) -> S {
        self.dcells[d as usize - 1]
    }

    /// Unplaced cells.
    pub fn unsolved(&self) -> S {
        self.dcells.as_ref().iter().fold(S::ZERO, |a, &s| a | s)
    }

    /// Cells with exactly two candidates.
    pub fn bivalue(&self) -> S {
        let mut s = S::ZERO;
        for c in self.cell_range() {
            if self.cand[c].count_ones() == 2 {
                s |= S::bit(c);
            }
        }
        s
    }

    /// The candidates of any of `cells`.
    #[inline]
    pub fn digits_of(&self, cells: &[usize]) -> Digits {
        cells.iter().fold(0, |m, &c| m | self.cand[c])
    }

    /// Whether `d` is a candidate of `c`.
    #[inline]
    pub fn has(&self, c: usize, d: u8) -> bool {
        self.cand[c] >> (d - 1) & 1 == 1
    }

    /// Removes a candidate (keeps both views in step).
    #[inline]
    pub fn remove(&mut self, c: usize, d: u8) {
        self.cand[c] &= !(1 << (d - 1));
        self.dcells[d as usize - 1] &= !S::bit(c);
    }

    /// Places a value and removes it from the peers.
    pub fn place(&mut self, c: usize, d: u8) {
        let mut s = self.cand[c];
        while s != 0 {
            let e = s.trailing_zeros() as usize;
            self.dcells[e] &= !S::bit(c);
            s &= s - 1;
        }
        self.cand[c] = 0;
        self.value[c] = d;
        let victims = self.dcells[d as usize - 1] & self.tables.peers[c];
        for p in cells(victims) {
            self.cand[p] &= !(1 << (d - 1));
        }
        self.dcells[d as usize - 1] &= !victims;
    }
}

/// The board as the classic one when it is classic sudoku (the techniques written for
/// the 3x3 box layout take only that one), from code written over any width.
pub fn as_classic<S: Bits>(b: &Board<S>) -> Option<&Board> {
    let any: &dyn std::any::Any = b;
    any.downcast_ref::<Board>().filter(|b| b.classic)
}

/// Iterates over the digits (1-based) of a candidate mask.
#[inline]
pub fn digits(mut m: Digits) -> impl Iterator<Item = u8> {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let d = m.trailing_zeros() as u8 + 1;
            m &= m - 1;
            Some(d)
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_match_the_geometry() {
        let t = tables();
        assert_eq!(count(t.house[0]), 9);
        assert_eq!(count(t.peers[40]), 20);
        assert_eq!(t.houses_of[40], [4, 13, 22]);
        assert_eq!(boxn(40), 4);
        // Techniques iterate a house's cells as a cell set, in the house's order.
        assert_eq!(t.houses, 27);
        assert_eq!(t.boxes, (18..27).collect::<Vec<_>>());
        for cells in &t.house_cells[..27] {
            assert!(cells.windows(2).all(|w| w[0] < w[1]));
        }
        assert_eq!(
            t.seen_by_all((1 << 0) | (1 << 8)) & t.house[0],
            t.house[0] & !(1 | 1 << 8)
        );
    }

    #[test]
    fn small_set_tests_agree_with_counting() {
        let sets: [CellSet; 8] = [0, 1, 1 << 80, 3, 1 << 5 | 1 << 80, 7, ALL_CELLS, 1 << 127];
        for set in sets {
            assert_eq!(at_most_one(set), count(set) <= 1, "{set:#x}");
            assert_eq!(at_most_two(set), count(set) <= 2, "{set:#x}");
            assert_eq!(is_pair(set), count(set) == 2, "{set:#x}");
        }
    }

    /// Random sets of a multi-word width against the list of their cells.
    fn word_sets_agree_with_a_list_of_cells<S: Bits>() {
        let mut rng = crate::rng::Rng::new(7);
        for _ in 0..200 {
            let mut want: Vec<usize> = (0..S::CELLS).filter(|_| rng.below(5) == 0).collect();
            if rng.below(4) == 0 {
                want.truncate(2);
            }
            if rng.below(8) == 0 {
                want.clear();
            }
            let set = want.iter().fold(S::ZERO, |m, &c| m | S::bit(c));
            assert_eq!(cells(set).collect::<Vec<_>>(), want);
            assert_eq!(count(set) as usize, want.len());
            assert_eq!(set.is_empty(), want.is_empty());
            assert_eq!(is_pair(set), want.len() == 2);
            assert_eq!(at_most_two(set), want.len() <= 2);
            let c = rng.below(S::CELLS as u64) as usize;
            assert_eq!(set.has(c), want.contains(&c));
            let above: Vec<usize> = cells(set & S::above(c)).collect();
            assert_eq!(
                above,
                want.iter().copied().filter(|&x| x > c).collect::<Vec<_>>()
            );
            assert_eq!(cells(!set).count(), S::CELLS - want.len());
        }
    }

    #[test]
    fn wide_sets_agree_with_a_list_of_cells() {
        word_sets_agree_with_a_list_of_cells::<Wide>();
    }

    #[test]
    fn huge_sets_agree_with_a_list_of_cells() {
        word_sets_agree_with_a_list_of_cells::<Huge>();
    }
}
