//! [`Board`]: a [`State`] of side up to 9 as bitboards, for the techniques beyond
//! subsets and fish (wings, chains, uniqueness, ALS, forcing chains).
//!
//! A set of cells is a `u128` (bit `cell`), so "the cells that see both ends" or "the
//! cells of column 3 where 7 is possible" are one `&` each, and nothing allocates. The
//! house tables are derived from the shared [`Geometry`]: cells and houses are numbered
//! as there (rows, then columns, then boxes or regions, then diagonals or windows), so
//! cell and house numbers in steps mean the same thing on every path. Every geometry up
//! to 9x9 gets a board (4x4 to 8x8, X-sudoku, windoku, jigsaw, Latin squares); the
//! techniques that lean on the classic layout (strong-link patterns, SE's chaining
//! engine) check [`Board::classic`] and use the static classic [`tables`].

use std::sync::{Arc, OnceLock};

use crate::geometry::{Geometry, HouseKind};

use super::State;

/// A set of cells of a 9x9 grid.
pub type CellSet = u128;

/// All 81 cells.
pub const ALL_CELLS: CellSet = (1u128 << 81) - 1;

/// Most houses a geometry has here (9x9 X plus windoku: 27 + 2 + 4).
pub const MAX_HOUSES: usize = 33;

/// In [`Tables::box_of`]: the cell has no box or region (a Latin square).
pub const NO_HOUSE: u8 = u8::MAX;

/// House and peer tables of one geometry of side up to 9 (cells numbered as in the
/// geometry, row by row; on a smaller grid the bits from `n * n` on stay empty).
#[derive(Clone, PartialEq, Eq)]
pub struct Tables {
    /// The side.
    pub n: usize,
    /// Number of rows and columns: houses `0..lines` are the lines (rows, then columns).
    pub lines: usize,
    /// Number of houses (27 for classic sudoku); the arrays below are used up to it.
    pub houses: usize,
    /// Cells of each house.
    pub house: [CellSet; MAX_HOUSES],
    /// Cells of each house, in increasing order (the first `n` entries; see
    /// [`Tables::cells_of`]).
    pub house_cells: [[u8; 9]; MAX_HOUSES],
    /// Peers of each cell (not the cell itself).
    pub peers: [CellSet; 81],
    /// Row, column and box house of each cell (the box is the row where there is none).
    pub houses_of: [[u8; 3]; 81],
    /// The box or region house of each cell, [`NO_HOUSE`] where there is none.
    pub box_of: [u8; 81],
    /// The box or region houses.
    pub boxes: Vec<usize>,
    /// The cells of the grid (all 81 on 9x9).
    pub cells: CellSet,
}

impl Tables {
    /// The tables of a geometry of side up to 9 with at most [`MAX_HOUSES`] houses.
    pub fn new(g: &Geometry) -> Option<Tables> {
        let n = g.size();
        if n > 9 || g.houses().len() > MAX_HOUSES {
            return None;
        }
        let mut t = Tables {
            n,
            lines: 2 * n,
            houses: g.houses().len(),
            house: [0; MAX_HOUSES],
            house_cells: [[0; 9]; MAX_HOUSES],
            peers: [0; 81],
            houses_of: [[0; 3]; 81],
            box_of: [NO_HOUSE; 81],
            boxes: Vec::new(),
            cells: 0,
        };
        for (h, house) in g.houses().iter().enumerate() {
            let mut cells: Vec<usize> = house.cells().collect();
            cells.sort_unstable();
            for (i, &c) in cells.iter().enumerate() {
                t.house[h] |= 1u128 << c;
                t.house_cells[h][i] = c as u8;
            }
            if matches!(house.kind(), HouseKind::Box | HouseKind::Region) {
                t.boxes.push(h);
                for &c in &cells {
                    t.box_of[c] = h as u8;
                }
            }
        }
        for c in 0..n * n {
            t.cells |= 1u128 << c;
            for &p in g.peers(c) {
                t.peers[c] |= 1u128 << p;
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
    pub fn cells_of(&self, h: usize) -> &[u8] {
        &self.house_cells[h][..self.n]
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
    pub fn house_sets(&self) -> &[CellSet] {
        &self.house[..self.houses]
    }

    /// The cells seeing every cell of `set` (and not in it).
    #[inline]
    pub fn seen_by_all(&self, set: CellSet) -> CellSet {
        let mut acc = ALL_CELLS;
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
pub fn cells(mut set: CellSet) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            Some(c)
        }
    })
}

/// The smallest cell of a set.
#[inline]
pub fn first(set: CellSet) -> usize {
    set.trailing_zeros() as usize
}

/// Number of cells in a set.
#[inline]
pub fn count(set: CellSet) -> u32 {
    set.count_ones()
}

/// Whether a set holds exactly two cells: two bit operations, where counting takes a
/// dozen on a baseline x86-64 build (no `popcnt`) and links are tested by the million.
#[inline]
pub fn is_pair(set: CellSet) -> bool {
    let rest = set & set.wrapping_sub(1);
    rest != 0 && rest & (rest - 1) == 0
}

/// Whether a set holds at most one cell (see [`is_pair`]).
#[inline]
pub fn at_most_one(set: CellSet) -> bool {
    set & set.wrapping_sub(1) == 0
}

/// Whether a set holds at most two cells (see [`is_pair`]).
#[inline]
pub fn at_most_two(set: CellSet) -> bool {
    at_most_one(set & set.wrapping_sub(1))
}

/// Whether a digit mask holds exactly two digits (see [`is_pair`]).
#[inline]
pub fn is_digit_pair(mask: u16) -> bool {
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

/// A 9x9 position as bitboards: candidates per cell (bit `d - 1`) and cells per digit.
#[derive(Clone, PartialEq, Eq)]
pub struct Board {
    /// Candidates of each unplaced cell; 0 for placed cells.
    pub cand: [u16; 81],
    /// Placed values (0 = empty).
    pub value: [u8; 81],
    /// For digit `d` (index `d - 1`), the unplaced cells where it is a candidate.
    pub dcells: [CellSet; 9],
    /// Whether the geometry is classic sudoku (rows, columns, 3x3 boxes only).
    pub classic: bool,
    /// The geometry's houses and peers.
    tables: Arc<Tables>,
}

impl Board {
    /// An empty classic board.
    pub fn empty() -> Board {
        Board {
            cand: [0; 81],
            value: [0; 81],
            dcells: [0; 9],
            classic: true,
            tables: classic_tables().clone(),
        }
    }

    /// The bitboards of a state of side up to 9; None for larger grids.
    pub fn for_state(state: &State) -> Option<Board> {
        let g = state.geometry();
        let tables = if g.is_classic() {
            classic_tables().clone()
        } else {
            Arc::new(Tables::new(g)?)
        };
        let mut b = Board {
            classic: g.is_classic(),
            tables,
            ..Board::empty()
        };
        for c in 0..g.cell_count() {
            b.value[c] = state.value(c);
            let set = state.cands(c).0 as u16;
            b.cand[c] = set;
            let mut s = set;
            while s != 0 {
                let d = s.trailing_zeros() as usize;
                b.dcells[d] |= 1u128 << c;
                s &= s - 1;
            }
        }
        Some(b)
    }

    /// The bitboards of a classic state.
    pub fn from_state(state: &State) -> Board {
        debug_assert!(state.geometry().is_classic());
        Board::for_state(state).expect("a classic state is 9x9")
    }

    /// The house and peer tables of the board's geometry.
    #[inline]
    pub fn tables(&self) -> &Tables {
        &self.tables
    }

    /// The cells seeing every cell of `set` (and not in it).
    #[inline]
    pub fn seen_by_all(&self, set: CellSet) -> CellSet {
        self.tables.seen_by_all(set)
    }

    /// Cells (unplaced) where digit `d` (1-9) is a candidate.
    #[inline]
    pub fn digit(&self, d: u8) -> CellSet {
        self.dcells[d as usize - 1]
    }

    /// Unplaced cells.
    pub fn unsolved(&self) -> CellSet {
        self.dcells.iter().fold(0, |a, &s| a | s)
    }

    /// Cells with exactly two candidates.
    pub fn bivalue(&self) -> CellSet {
        let mut s = 0;
        for c in 0..81 {
            if self.cand[c].count_ones() == 2 {
                s |= 1u128 << c;
            }
        }
        s
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
        self.dcells[d as usize - 1] &= !(1u128 << c);
    }

    /// Places a value and removes it from the peers.
    pub fn place(&mut self, c: usize, d: u8) {
        let mut s = self.cand[c];
        while s != 0 {
            let e = s.trailing_zeros() as usize;
            self.dcells[e] &= !(1u128 << c);
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

/// Iterates over the digits (1-9) of a 9-bit candidate mask.
#[inline]
pub fn digits(mut m: u16) -> impl Iterator<Item = u8> {
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
}
