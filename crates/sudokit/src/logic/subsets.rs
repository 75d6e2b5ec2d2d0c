//! Naked and hidden subsets (pairs, triples, quads), on any geometry.
//!
//! Naked: `k` cells of a house whose candidates together are `k` digits; those digits
//! leave the other cells of every house holding all `k` cells. Hidden: `k` digits of a
//! house whose places together are `k` cells; those cells lose every other digit.
//! Sudoku Explainer only looks at houses with enough empty cells (twice the size for
//! naked sets, more than twice for hidden ones) and clears only the house itself: the
//! `se` flag reproduces that.

use crate::geometry::Cell;
use crate::grid::DigitSet;

use super::{Emit, State, Step, Technique, combinations};

fn naked_technique(k: usize) -> (Technique, u16) {
    match k {
        2 => (Technique::NakedPair, 30),
        3 => (Technique::NakedTriple, 36),
        _ => (Technique::NakedQuad, 50),
    }
}

fn hidden_technique(k: usize) -> (Technique, u16) {
    match k {
        2 => (Technique::HiddenPair, 34),
        3 => (Technique::HiddenTriple, 40),
        _ => (Technique::HiddenQuad, 54),
    }
}

/// Naked subsets of size `k`. With `se`, only houses with at least `2k` empty cells and
/// eliminations in that house only (Sudoku Explainer); else every shared house is
/// cleared (HoDoKu's locked pairs and triples).
pub fn naked(s: &State, k: usize, se: bool, emit: Emit) -> bool {
    let g = s.geometry().clone();
    let houses = g.houses();
    for (h, house) in houses.iter().enumerate() {
        let empty: Vec<Cell> = house.cells().filter(|&c| s.value(c) == 0).collect();
        if empty.len() < 2 * k && (se || empty.len() <= k) {
            continue;
        }
        let small: Vec<Cell> = empty
            .iter()
            .copied()
            .filter(|&c| (2..=k).contains(&s.cands(c).len()))
            .collect();
        let keep_going = combinations(&small, k, &mut |set| {
            let union = set.iter().fold(DigitSet::EMPTY, |u, &c| u | s.cands(c));
            if union.len() != k {
                return true;
            }
            // Houses to clear: this one, or every house holding all the cells.
            let targets: Vec<usize> = if se {
                vec![h]
            } else {
                g.houses_of(set[0])
                    .filter(|&x| set.iter().all(|&c| houses[x].contains(c)))
                    .collect()
            };
            let mut eliminations = Vec::new();
            for &t in &targets {
                for c in houses[t].cells() {
                    if s.value(c) != 0 || set.contains(&c) {
                        continue;
                    }
                    for d in (s.cands(c) & union).iter() {
                        if !eliminations.contains(&(c, d)) {
                            eliminations.push((c, d));
                        }
                    }
                }
            }
            if eliminations.is_empty() {
                return true;
            }
            let (technique, rating) = naked_technique(k);
            let mut step = Step::new(technique);
            step.digits = union.iter().collect();
            step.cells = set.to_vec();
            step.houses = targets;
            step.eliminations = eliminations;
            step.rating = rating;
            emit(step)
        });
        if !keep_going {
            return false;
        }
    }
    true
}

/// Hidden subsets of size `k`. With `se`, only houses with more than `2k` empty cells.
pub fn hidden(s: &State, k: usize, se: bool, emit: Emit) -> bool {
    let g = s.geometry().clone();
    for (h, house) in g.houses().iter().enumerate() {
        let empty = house.cells().filter(|&c| s.value(c) == 0).count();
        if (se && empty <= 2 * k) || empty <= k {
            continue;
        }
        if !hidden_in_house(s, h, k, emit) {
            return false;
        }
    }
    true
}

/// SE's direct hidden pair / triple: a hidden subset (in a house with more than `k`
/// empty cells) whose eliminations leave a hidden single of another digit in the same
/// house; the step places it.
pub fn direct_hidden(s: &State, k: usize, emit: Emit) -> bool {
    let g = s.geometry().clone();
    for (h, house) in g.houses().iter().enumerate() {
        let empty: Vec<Cell> = house.cells().filter(|&c| s.value(c) == 0).collect();
        if empty.len() <= k {
            continue;
        }
        let mut stop = false;
        hidden_in_house(s, h, k, &mut |step: Step| {
            let set_cells = &step.cells;
            let digits: DigitSet = step.digits.iter().copied().collect();
            for d in 1..=g.size() as u8 {
                if digits.contains(d) {
                    continue;
                }
                let pos: Vec<Cell> = s.positions(h, d).collect();
                if pos.len() < 2 {
                    continue;
                }
                let rest: Vec<Cell> = pos
                    .iter()
                    .copied()
                    .filter(|c| !set_cells.contains(c))
                    .collect();
                if rest.len() == 1 {
                    let mut step = step.clone();
                    step.technique = if k == 2 {
                        Technique::DirectHiddenPair
                    } else {
                        Technique::DirectHiddenTriple
                    };
                    step.rating = if k == 2 { 20 } else { 25 };
                    step.placements = vec![(rest[0], d)];
                    step.fins = vec![rest[0]];
                    if !emit(step) {
                        stop = true;
                        return false;
                    }
                    return true;
                }
            }
            true
        });
        if stop {
            return false;
        }
    }
    true
}

/// Hidden subsets of size `k` in one house, eliminations or not (used by the direct
/// variants, which also accept subsets that only produce a single).
fn hidden_in_house(s: &State, h: usize, k: usize, f: &mut dyn FnMut(Step) -> bool) -> bool {
    let g = s.geometry().clone();
    let house = &g.houses()[h];
    let empty: Vec<Cell> = house.cells().filter(|&c| s.value(c) == 0).collect();
    let mut places: Vec<(u8, Vec<Cell>)> = Vec::new();
    for d in 1..=g.size() as u8 {
        let pos: Vec<Cell> = empty
            .iter()
            .copied()
            .filter(|&c| s.cands(c).contains(d))
            .collect();
        if !pos.is_empty() && pos.len() <= k {
            places.push((d, pos));
        }
    }
    let idx: Vec<usize> = (0..places.len()).collect();
    combinations(&idx, k, &mut |set| {
        let mut cells: Vec<Cell> = Vec::new();
        for &i in set {
            for &c in &places[i].1 {
                if !cells.contains(&c) {
                    cells.push(c);
                }
            }
        }
        if cells.len() != k {
            return true;
        }
        cells.sort_unstable();
        let digits: DigitSet = set.iter().map(|&i| places[i].0).collect();
        let mut eliminations = Vec::new();
        for &c in &cells {
            for d in (s.cands(c) & !digits).iter() {
                eliminations.push((c, d));
            }
        }
        if eliminations.is_empty() {
            return true;
        }
        let (technique, rating) = hidden_technique(k);
        let mut step = Step::new(technique);
        step.digits = digits.iter().collect();
        step.cells = cells;
        step.houses = vec![h];
        step.eliminations = eliminations;
        step.rating = rating;
        f(step)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{check_sound, collect, state};

    const PUZZLE: &str =
        "4.....938.32.941...953..24.37.6.9..4529..16736.47.3.9.957..83....39..4..24..3.7.9";

    #[test]
    fn subsets_are_sound_and_found() {
        let s = state(PUZZLE);
        let mut total = 0;
        for k in 2..=4 {
            for se in [false, true] {
                for step in collect(&s, |s, e| naked(s, k, se, e)) {
                    check_sound(PUZZLE, &step);
                    assert_eq!(step.cells.len(), k);
                    total += 1;
                }
                for step in collect(&s, |s, e| hidden(s, k, se, e)) {
                    check_sound(PUZZLE, &step);
                    total += 1;
                }
            }
        }
        assert!(total > 0);
    }
}
