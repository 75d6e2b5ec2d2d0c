//! Singles, on any geometry: full house (the last empty cell of a house), hidden single
//! (a digit with one place left in a house), naked single (a cell with one candidate
//! left).
//!
//! Each finder reports steps to `emit` in a fixed order (houses in the geometry's
//! order, digits increasing) and stops as soon as `emit` returns false.

use std::collections::VecDeque;

use crate::geometry::{Cell, HouseKind};
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

/// HoDoKu's order of singles along a path. HoDoKu does not scan for singles: it queues
/// them as candidates go (a cell left with one candidate; a house left with one place
/// for a digit), takes full houses and naked singles from the first queue and hidden
/// singles from the second, and gives up on hidden singles at the first stale entry
/// (its path then goes on to the other techniques). Which singles a path takes, and so
/// its HoDoKu score (4 points a naked single or full house, 14 a hidden single),
/// follows from that.
pub struct Queues {
    /// The candidates as HoDoKu's grid holds them, changed in its order (a placed
    /// cell keeps its candidates until its peers have lost its digit).
    cands: Vec<DigitSet>,
    naked: VecDeque<(Cell, u8)>,
    hidden: VecDeque<(Cell, u8)>,
}

impl Queues {
    /// The queues at the start of a path: HoDoKu's after placing the givens cell by
    /// cell, when `start`'s candidates are what its values leave; otherwise (pencil
    /// marks) every single of `start`, naked ones by cell, hidden ones by house.
    pub fn new(start: &State) -> Queues {
        let g = start.geometry().clone();
        let mut q = Queues {
            cands: vec![DigitSet::all(g.size()); g.cell_count()],
            naked: VecDeque::new(),
            hidden: VecDeque::new(),
        };
        for cell in 0..g.cell_count() {
            if start.value(cell) != 0 {
                q.place(start, cell, start.value(cell));
            }
        }
        let same = (0..g.cell_count()).all(|c| start.value(c) != 0 || q.cands[c] == start.cands(c));
        if !same {
            q.naked.clear();
            q.hidden.clear();
            for c in 0..g.cell_count() {
                q.cands[c] = if start.value(c) != 0 {
                    DigitSet::default()
                } else {
                    start.cands(c)
                };
                if let Some(d) = q.cands[c].single_digit() {
                    q.naked.push_back((c, d));
                }
            }
            for h in 0..g.houses().len() {
                for d in 1..=g.size() as u8 {
                    if let (Some(c), None) = {
                        let mut at = start.positions(h, d);
                        (at.next(), at.next())
                    } {
                        q.hidden.push_back((c, d));
                    }
                }
            }
        }
        q
    }

    /// Records a step as HoDoKu applies it: placements first (each clears its digit
    /// from the peers, in cell order, then the cell's other candidates), then the
    /// eliminations in the step's order.
    pub fn apply(&mut self, s: &State, step: &Step) {
        for &(cell, d) in &step.placements {
            self.place(s, cell, d);
        }
        for &(cell, d) in &step.eliminations {
            self.remove(s, cell, d);
        }
    }

    /// The next single HoDoKu takes on `s` (the state the path has reached), consuming
    /// queue entries as it does; None when it takes none.
    pub fn next(&mut self, s: &State) -> Option<Step> {
        let g = s.geometry().clone();
        let last_empty = |h: usize, cell: Cell| {
            s.house_cells(h)
                .iter()
                .all(|&c| c == cell || s.value(c) != 0)
        };
        let single = |technique, cell: Cell, d: u8, house: Option<usize>| {
            let mut step = Step::new(technique);
            step.digits = vec![d];
            step.cells = vec![cell];
            step.houses = house.into_iter().collect();
            step.placements = vec![(cell, d)];
            step.rating = match (technique, house) {
                (Technique::FullHouse, _) => FULL_HOUSE,
                (Technique::HiddenSingle, Some(h)) if is_line(g.houses()[h].kind()) => HIDDEN_LINE,
                (Technique::HiddenSingle, _) => HIDDEN_BOX,
                _ => NAKED,
            };
            step
        };
        // Full houses: the naked-single queue read, not consumed.
        for &(cell, d) in &self.naked {
            if s.value(cell) == 0 && s.cands(cell).contains(d) {
                if let Some(h) = g.houses_of(cell).find(|&h| last_empty(h, cell)) {
                    return Some(single(Technique::FullHouse, cell, d, Some(h)));
                }
            }
        }
        while let Some((cell, d)) = self.naked.pop_front() {
            if s.value(cell) == 0 && s.cands(cell).contains(d) {
                return Some(single(Technique::NakedSingle, cell, d, None));
            }
        }
        while let Some((cell, d)) = self.hidden.pop_front() {
            if s.value(cell) != 0 {
                continue;
            }
            let only_here = |h: usize| {
                let mut at = s.positions(h, d);
                at.next() == Some(cell) && at.next().is_none()
            };
            // A stale entry ends the search (HoDoKu's).
            return g
                .houses_of(cell)
                .find(|&h| only_here(h))
                .map(|h| single(Technique::HiddenSingle, cell, d, Some(h)));
        }
        None
    }

    /// HoDoKu's `setCell`.
    fn place(&mut self, s: &State, cell: Cell, d: u8) {
        let g = s.geometry().clone();
        for &p in g.peers(cell) {
            self.remove(s, p as usize, d);
        }
        let old = std::mem::take(&mut self.cands[cell]);
        for other in old.iter() {
            for h in g.houses_of(cell) {
                if other != d {
                    self.queue_hidden(s, h, other);
                }
            }
        }
    }

    /// HoDoKu's `delCandidate`.
    fn remove(&mut self, s: &State, cell: Cell, d: u8) {
        if !self.cands[cell].remove(d) {
            return;
        }
        let g = s.geometry().clone();
        for h in g.houses_of(cell) {
            self.queue_hidden(s, h, d);
        }
        if let Some(last) = self.cands[cell].single_digit() {
            self.naked.push_back((cell, last));
        }
    }

    /// Queues the one place left for `d` in house `h`, if one is left.
    fn queue_hidden(&mut self, s: &State, h: usize, d: u8) {
        let mut at = s
            .house_cells(h)
            .iter()
            .filter(|&&c| self.cands[c].contains(d));
        if let (Some(&c), None) = (at.next(), at.next()) {
            self.hidden.push_back((c, d));
        }
    }
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

    #[test]
    fn queues_give_hodokus_first_singles() {
        // Row 1 misses only 9 (a full house at r1c8, queued when r1c8 lost its eighth
        // candidate); HoDoKu takes it first, then has nothing left to take.
        let s = state(
            "1234567.8........................................................................",
        );
        let mut q = Queues::new(&s);
        let st = q.next(&s).expect("a single");
        assert_eq!(st.technique, Technique::FullHouse);
        assert_eq!(st.placements, vec![(7, 9)]);
        let mut s = s;
        q.apply(&s, &st);
        s.apply(&st);
        assert!(q.next(&s).is_none());
    }

    #[test]
    fn queues_from_pencil_marks_hold_their_singles() {
        // Not a fresh puzzle (r9c9 lost a candidate its values allow): the queues start
        // from the position's own singles, naked by cell, then hidden by house.
        let mut s = state(
            "1234567.8........................................................................",
        );
        s.eliminate(80, 9);
        let mut q = Queues::new(&s);
        let st = q.next(&s).expect("a single");
        assert_eq!(st.placements, vec![(7, 9)]);
        assert_eq!(st.technique, Technique::FullHouse);
    }
}
