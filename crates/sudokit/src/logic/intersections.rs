//! Locked candidates, on any geometry: when the places of a digit in house A all lie in
//! house B, the digit goes in A ∩ B, so it leaves the rest of B. A box (or any
//! non-line house) as A is "pointing", a line as A is "claiming".
//!
//! Pairs are visited with A in the geometry's house order, then B in the house order of
//! A's first cell; digits increasing. SE's "direct" variants (the elimination leaves a
//! hidden single in a third house) are found by [`direct`].

use crate::geometry::Cell;

use super::{Emit, State, Step, Technique};

/// One intersection found: digit, house A (where it is locked), house B (cleared),
/// eliminations in B outside A.
struct Lock {
    digit: u8,
    a: usize,
    b: usize,
    cells: Vec<Cell>,
    eliminations: Vec<(Cell, u8)>,
}

/// Calls `f` for every useful intersection; `pointing` selects A = non-line houses,
/// else A = lines. Digit by digit (Sudoku Explainer's order), or with `house_first`
/// house A by house A, each one's digits in turn (HoDoKu's). Returns false when `f`
/// asked to stop.
fn each_lock(
    s: &State,
    pointing: bool,
    house_first: bool,
    f: &mut dyn FnMut(Lock) -> bool,
) -> bool {
    let locks = s.locks(pointing);
    let mut visit = |d: u8, &(a, b, in_a, in_b): &(u32, u32, u64, u64)| {
        let (a, b) = (a as usize, b as usize);
        let pa = s.pos(a, d);
        if pa.count_ones() < 2 || pa & !in_a != 0 {
            return true;
        }
        let victims = s.pos(b, d) & !in_b;
        if victims == 0 {
            return true;
        }
        f(Lock {
            digit: d,
            a,
            b,
            cells: s.positions(a, d).collect(),
            eliminations: mask_cells(s.house_cells(b), victims)
                .map(|c| (c, d))
                .collect(),
        })
    };
    let digits = 1..=s.size() as u8;
    if !house_first {
        return digits
            .into_iter()
            .all(|d| locks.iter().all(|lock| visit(d, lock)));
    }
    // Locks come grouped by house A.
    locks.chunk_by(|x, y| x.0 == y.0).all(|run| {
        digits
            .clone()
            .all(|d| run.iter().all(|lock| visit(d, lock)))
    })
}

fn mask_cells(cells: &[Cell], mut m: u64) -> impl Iterator<Item = Cell> + '_ {
    std::iter::from_fn(move || {
        if m == 0 {
            None
        } else {
            let i = m.trailing_zeros() as usize;
            m &= m - 1;
            Some(cells[i])
        }
    })
}

fn step_of(lock: Lock, technique: Technique, rating: u16) -> Step {
    let mut step = Step::new(technique);
    step.digits = vec![lock.digit];
    step.cells = lock.cells;
    step.houses = vec![lock.a];
    step.cover = vec![lock.b];
    step.eliminations = lock.eliminations;
    step.rating = rating;
    step
}

/// Pointing: a digit of a box (or other non-line house) locked in one line, digit by
/// digit (Sudoku Explainer's order; see [`locked_candidates`] for HoDoKu's).
pub fn pointing(s: &State, emit: Emit) -> bool {
    each_lock(s, true, false, &mut |lock| {
        emit(step_of(lock, Technique::LockedCandidatesPointing, 26))
    })
}

/// Claiming: a digit of a line locked in one box, digit by digit.
pub fn claiming(s: &State, emit: Emit) -> bool {
    each_lock(s, false, false, &mut |lock| {
        emit(step_of(lock, Technique::LockedCandidatesClaiming, 28))
    })
}

/// Pointing (`pointing`) or claiming in HoDoKu's order: house by house (boxes; rows,
/// then columns), each house's digits in turn.
pub fn locked_candidates(s: &State, pointing: bool, emit: Emit) -> bool {
    each_lock(s, pointing, true, &mut |lock| {
        emit(if pointing {
            step_of(lock, Technique::LockedCandidatesPointing, 26)
        } else {
            step_of(lock, Technique::LockedCandidatesClaiming, 28)
        })
    })
}

/// SE's direct pointing / claiming: an intersection whose eliminations leave a hidden
/// single of the digit in another house of A's kind crossing B; the step also places it.
pub fn direct(s: &State, pointing: bool, emit: Emit) -> bool {
    let g = s.geometry().clone();
    let houses = g.houses();
    each_lock(s, pointing, false, &mut |lock| {
        let d = lock.digit;
        let kind = houses[lock.a].kind();
        // Third houses: same kind as A, crossing B.
        let mut thirds: Vec<usize> = Vec::new();
        for c in houses[lock.b].cells() {
            for h in g.houses_of(c) {
                if h != lock.a && houses[h].kind() == kind && !thirds.contains(&h) {
                    thirds.push(h);
                }
            }
        }
        thirds.sort_unstable();
        for h3 in thirds {
            let pos: Vec<Cell> = s.positions(h3, d).collect();
            if pos.len() < 2 {
                continue;
            }
            let rest: Vec<Cell> = pos
                .iter()
                .copied()
                .filter(|&c| !houses[lock.b].contains(c))
                .collect();
            if rest.len() == 1 {
                let (technique, rating) = if pointing {
                    (Technique::DirectPointing, 17)
                } else {
                    (Technique::DirectClaiming, 19)
                };
                let mut step = step_of(
                    Lock {
                        digit: d,
                        a: lock.a,
                        b: lock.b,
                        cells: lock.cells.clone(),
                        eliminations: lock.eliminations.clone(),
                    },
                    technique,
                    rating,
                );
                step.placements = vec![(rest[0], d)];
                step.fins = vec![rest[0]];
                if !emit(step) {
                    return false;
                }
            }
        }
        true
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{check_sound, collect, state};

    #[test]
    fn pointing_and_claiming_are_sound() {
        let mut found = 0;
        for p in crate::logic::testing::SAMPLES {
            let s = state(p);
            for step in collect(&s, pointing).iter().chain(&collect(&s, claiming)) {
                check_sound(p, step);
                found += 1;
            }
        }
        assert!(found > 0);
    }

    #[test]
    fn pointing_on_a_six_by_six() {
        // 6x6 with 2x3 boxes: box 1 = r1-2 c1-3. Placing 1 at r3c1... checked for
        // soundness on a planted puzzle.
        let puzzle = "1...........23....................45";
        let s = state(puzzle);
        for step in collect(&s, pointing) {
            assert!(!step.eliminations.is_empty());
        }
    }

    fn variant_state(name: &str) -> State {
        let v: crate::Variant = name.parse().unwrap();
        let g = std::sync::Arc::new(crate::Geometry::for_variant(9, None, &v).unwrap());
        State::from_grid(&crate::Grid::empty(g))
    }

    #[test]
    fn a_box_locks_a_digit_into_its_diagonal() {
        // 1 leaves box 1 but for its diagonal cells r1c1, r2c2, r3c3: the main
        // diagonal's other cells lose it (the diagonal is a line here).
        let mut s = variant_state("x");
        for c in [1, 2, 9, 11, 18, 19] {
            s.eliminate(c, 1);
        }
        let steps = collect(&s, pointing);
        let on_diagonal = steps
            .iter()
            .find(|st| st.eliminations.contains(&(40, 1)))
            .expect("box 1 points into the diagonal");
        assert_eq!(on_diagonal.cells, vec![0, 10, 20]);
        assert!(on_diagonal.eliminations.iter().all(|&(c, _)| c % 10 == 0));
        // And the other way: 2 only on the diagonal's cells of box 5 claims box 5.
        let mut s = variant_state("x");
        for c in (0..81).filter(|&c| c % 10 == 0 && !(30..=50).contains(&c)) {
            s.eliminate(c, 2);
        }
        let steps = collect(&s, claiming);
        assert!(
            steps.iter().any(|st| st.eliminations.contains(&(41, 2))),
            "the diagonal claims box 5"
        );
    }

    #[test]
    fn a_window_locks_a_digit_into_a_box() {
        // Windoku's first window is r2-4 c2-4; 3 kept only where it meets box 1
        // (r2c2, r2c3, r3c2, r3c3) leaves box 1's other cells.
        let mut s = variant_state("windoku");
        for c in [12, 21, 28, 29, 30] {
            s.eliminate(c, 3);
        }
        let steps = collect(&s, pointing);
        assert!(
            steps.iter().any(|st| st.eliminations.contains(&(0, 3))),
            "the window points into box 1"
        );
    }
}
