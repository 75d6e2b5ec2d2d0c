//! Singles, on any geometry: full house (the last empty cell of a house), hidden single
//! (a digit with one place left in a house), naked single (a cell with one candidate
//! left).
//!
//! Each finder reports steps to `emit` in a fixed order (houses in the geometry's
//! order, digits increasing) and stops as soon as `emit` returns false.

use crate::geometry::HouseKind;
use crate::grid::DigitSet;

use super::{Emit, State, Step, Technique};

/// SE ratings in tenths.
const FULL_HOUSE: u16 = 10;
const HIDDEN_BOX: u16 = 12;
const HIDDEN_LINE: u16 = 15;
const NAKED: u16 = 23;

/// Whether a house is a row or column (lines rate higher than boxes for hidden singles).
fn is_line(kind: HouseKind) -> bool {
    matches!(kind, HouseKind::Row | HouseKind::Column)
}

/// The full houses: houses with exactly one empty cell.
pub fn full_house(s: &State, emit: Emit) -> bool {
    let g = s.geometry().clone();
    for h in 0..g.houses().len() {
        let cells = s.house_cells(h);
        let mut empty = cells.iter().copied().filter(|&c| s.value(c) == 0);
        let (Some(cell), None) = (empty.next(), empty.next()) else {
            continue;
        };
        let placed: DigitSet = cells
            .iter()
            .map(|&c| s.value(c))
            .filter(|&v| v != 0)
            .collect();
        let Some(d) = (DigitSet::all(g.size()) & !placed).single_digit() else {
            continue;
        };
        if !s.cands(cell).contains(d) {
            continue;
        }
        let mut step = Step::new(Technique::FullHouse);
        step.digits = vec![d];
        step.cells = vec![cell];
        step.houses = vec![h];
        step.placements = vec![(cell, d)];
        step.rating = FULL_HOUSE;
        if !emit(step) {
            return false;
        }
    }
    true
}

/// Hidden singles in the houses of the given kinds (`lines` false: boxes and other
/// non-line houses; true: rows and columns).
pub fn hidden_single(s: &State, lines: bool, emit: Emit) -> bool {
    let g = s.geometry().clone();
    let n = g.size();
    for (h, house) in g.houses().iter().enumerate() {
        if is_line(house.kind()) != lines {
            continue;
        }
        let cells = s.house_cells(h);
        if cells.iter().filter(|&&c| s.value(c) == 0).count() < 2 {
            // The last empty cell is a full house.
            continue;
        }
        for d in 1..=n as u8 {
            let m = s.pos(h, d);
            if m.count_ones() != 1 {
                continue;
            }
            let cell = cells[m.trailing_zeros() as usize];
            let mut step = Step::new(Technique::HiddenSingle);
            step.digits = vec![d];
            step.cells = vec![cell];
            step.houses = vec![h];
            step.placements = vec![(cell, d)];
            step.rating = if lines { HIDDEN_LINE } else { HIDDEN_BOX };
            if !emit(step) {
                return false;
            }
        }
    }
    true
}

/// Naked singles, cells in row-major order.
pub fn naked_single(s: &State, emit: Emit) -> bool {
    for cell in 0..s.geometry().cell_count() {
        if s.value(cell) != 0 {
            continue;
        }
        if let Some(d) = s.cands(cell).single_digit() {
            let mut step = Step::new(Technique::NakedSingle);
            step.digits = vec![d];
            step.cells = vec![cell];
            step.placements = vec![(cell, d)];
            step.rating = NAKED;
            if !emit(step) {
                return false;
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{collect, state};

    #[test]
    fn full_house_in_a_row() {
        // Row 1 misses only 9, at r1c9.
        let s = state(
            "12345678.........................................................................",
        );
        let steps = collect(&s, full_house);
        assert_eq!(steps[0].placements, vec![(8, 9)]);
        assert_eq!(steps[0].rating, 10);
    }

    #[test]
    fn hidden_single_in_a_box_on_a_shidoku() {
        // 4x4: in box 1 (r1-2 c1-2), 1 can only go in r2c2 because of the 1s in r1 and c1.
        let s = state("..1.....1.......");
        let steps = collect(&s, |s, e| hidden_single(s, false, e));
        assert!(
            steps.iter().any(|st| st.placements == vec![(5, 1)]),
            "{steps:?}"
        );
    }

    #[test]
    fn naked_single_found() {
        let s = state(
            "1234567.8........................................................................",
        );
        let steps = collect(&s, super::naked_single);
        assert_eq!(steps[0].placements, vec![(7, 9)]);
    }
}
