//! [`Board`]: a classic 9x9 [`State`] as bitboards, for the techniques that are defined
//! on 9x9 only (wings, chains, uniqueness, ALS, forcing chains).
//!
//! A set of cells is a `u128` (bit `cell`), so "the cells that see both ends" or "the
//! cells of column 3 where 7 is possible" are one `&` each, and nothing allocates. The
//! house tables are derived once from the shared [`Geometry`]: houses are numbered as
//! there (rows 0-8, columns 9-17, boxes 18-26), so house numbers in steps mean the same
//! thing on every path.

use std::sync::OnceLock;

use crate::geometry::Geometry;

use super::State;

/// A set of cells of a 9x9 grid.
pub type CellSet = u128;

/// All 81 cells.
pub const ALL_CELLS: CellSet = (1u128 << 81) - 1;

/// Static 9x9 tables, built from the classic geometry.
pub struct Tables {
    /// Cells of each house.
    pub house: [CellSet; 27],
    /// Cells of each house, in the geometry's order.
    pub house_cells: [[u8; 9]; 27],
    /// Peers of each cell (not the cell itself).
    pub peers: [CellSet; 81],
    /// Row, column and box house of each cell.
    pub houses_of: [[u8; 3]; 81],
}

/// The shared 9x9 tables.
pub fn tables() -> &'static Tables {
    static T: OnceLock<Tables> = OnceLock::new();
    T.get_or_init(|| {
        let g = Geometry::classic();
        let mut t = Tables {
            house: [0; 27],
            house_cells: [[0; 9]; 27],
            peers: [0; 81],
            houses_of: [[0; 3]; 81],
        };
        for (h, house) in g.houses().iter().enumerate() {
            for (i, c) in house.cells().enumerate() {
                t.house[h] |= 1u128 << c;
                t.house_cells[h][i] = c as u8;
            }
        }
        for c in 0..81 {
            for &p in g.peers(c) {
                t.peers[c] |= 1u128 << p;
            }
            let hs: Vec<usize> = g.houses_of(c).collect();
            // Rows come first, then columns, then boxes in the geometry's numbering.
            t.houses_of[c] = [hs[0] as u8, hs[1] as u8, hs[2] as u8];
        }
        t
    })
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

/// The cells seeing every cell of `set` (and not in it).
#[inline]
pub fn seen_by_all(set: CellSet) -> CellSet {
    let t = tables();
    let mut acc = ALL_CELLS;
    for c in cells(set) {
        acc &= t.peers[c];
    }
    acc & !set
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
}

impl Board {
    /// The bitboards of a classic state.
    pub fn from_state(state: &State) -> Board {
        debug_assert!(state.geometry().is_classic());
        let mut b = Board {
            cand: [0; 81],
            value: [0; 81],
            dcells: [0; 9],
        };
        for c in 0..81 {
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
        b
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
        let t = tables();
        let mut s = self.cand[c];
        while s != 0 {
            let e = s.trailing_zeros() as usize;
            self.dcells[e] &= !(1u128 << c);
            s &= s - 1;
        }
        self.cand[c] = 0;
        self.value[c] = d;
        let victims = self.dcells[d as usize - 1] & t.peers[c];
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
        for cells in &t.house_cells {
            assert!(cells.windows(2).all(|w| w[0] < w[1]));
        }
        assert_eq!(
            seen_by_all((1 << 0) | (1 << 8)) & t.house[0],
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
