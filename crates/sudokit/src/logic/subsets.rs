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

/// The houses in the order subsets are looked for: the geometry's (rows, columns,
/// boxes, then a variant's) for Sudoku Explainer (`se`), else HoDoKu's: boxes and the
/// other houses first, then rows, then columns.
fn house_order(houses: usize, n: usize, se: bool) -> impl Iterator<Item = usize> {
    let lines = if se { 0 } else { 2 * n };
    (lines..houses).chain(0..lines)
}

/// Naked subsets of size `k`. With `se`, only houses with at least `2k` empty cells and
/// eliminations in that house only (Sudoku Explainer); else every shared house is
/// cleared (on the human path [`locked`] has taken the sets that clear two first).
pub fn naked(s: &State, k: usize, se: bool, emit: Emit) -> bool {
    let g = s.geometry().clone();
    let mut small: Vec<Cell> = Vec::with_capacity(g.size());
    for h in house_order(g.houses().len(), g.size(), se) {
        let cells = s.house_cells(h);
        let empty = cells.iter().filter(|&&c| s.value(c) == 0).count();
        if empty < 2 * k && (se || empty <= k) {
            continue;
        }
        let keep_going = naked_sets(
            s,
            cells.iter().copied(),
            k,
            &mut small,
            &mut |set, union| {
                // Houses to clear: this one, or every house holding all the cells.
                let targets = if se { vec![h] } else { shared_houses(s, set) };
                let (technique, rating) = naked_technique(k);
                let step = naked_step(s, technique, rating, set, union, targets);
                step.eliminations.is_empty() || emit(step)
            },
        );
        if !keep_going {
            return false;
        }
    }
    true
}

/// Calls `f` with every `k` of `cells` (empty, with 2 to `k` candidates) whose
/// candidates together are `k` digits, and those digits; `small` is scratch space.
/// Returns false when `f` asked to stop.
fn naked_sets(
    s: &State,
    cells: impl Iterator<Item = Cell>,
    k: usize,
    small: &mut Vec<Cell>,
    f: &mut dyn FnMut(&[Cell], DigitSet) -> bool,
) -> bool {
    small.clear();
    small.extend(cells.filter(|&c| s.value(c) == 0 && (2..=k).contains(&s.cands(c).len())));
    if small.len() < k {
        return true;
    }
    combinations(small, k, &mut |set| {
        let union = set.iter().fold(DigitSet::EMPTY, |u, &c| u | s.cands(c));
        union.len() != k || f(set, union)
    })
}

/// Every house holding all the cells of `set`.
fn shared_houses(s: &State, set: &[Cell]) -> Vec<usize> {
    let g = s.geometry();
    g.houses_of(set[0])
        .filter(|&x| set.iter().all(|&c| g.houses()[x].contains(c)))
        .collect()
}

/// HoDoKu's locked pair or triple (`k` 2 or 3): a naked set whose cells lie where a
/// box (or region) crosses a line, clearing both, and only when both lose candidates
/// (the line outside the box); HoDoKu looks for these before locked candidates, and
/// scores them below the plain naked set, which clears one house. The step clears
/// every house holding all the cells.
pub fn locked(s: &State, k: usize, emit: Emit) -> bool {
    let g = s.geometry().clone();
    let houses = g.houses();
    let mut small: Vec<Cell> = Vec::with_capacity(g.size());
    for &(a, b, in_a, _) in s.locks(true) {
        let (a, b) = (a as usize, b as usize);
        let crossing = s
            .house_cells(a)
            .iter()
            .enumerate()
            .filter(|&(i, _)| in_a >> i & 1 == 1)
            .map(|(_, &c)| c);
        let keep_going = naked_sets(s, crossing, k, &mut small, &mut |set, union| {
            let clears = |h: usize, skip: Option<usize>| {
                union.iter().any(|d| {
                    s.positions(h, d)
                        .any(|c| !set.contains(&c) && skip.is_none_or(|x| !houses[x].contains(c)))
                })
            };
            if !clears(a, None) || !clears(b, Some(a)) {
                return true;
            }
            let (technique, rating) = if k == 2 {
                (Technique::LockedPair, 30)
            } else {
                (Technique::LockedTriple, 36)
            };
            emit(naked_step(
                s,
                technique,
                rating,
                set,
                union,
                shared_houses(s, set),
            ))
        });
        if !keep_going {
            return false;
        }
    }
    true
}

/// The step of a naked set: `set`'s digits `union` leave the other cells of every
/// house in `targets` (none when there is nothing to clear).
fn naked_step(
    s: &State,
    technique: Technique,
    rating: u16,
    set: &[Cell],
    union: DigitSet,
    targets: Vec<usize>,
) -> Step {
    // In HoDoKu's order (house by house, cell by cell), which decides the singles its
    // path takes next.
    let mut eliminations = Vec::new();
    for &t in &targets {
        for &c in s.house_cells(t) {
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
    let mut step = Step::new(technique);
    step.digits = union.iter().collect();
    step.cells = set.to_vec();
    step.houses = targets;
    step.eliminations = eliminations;
    step.rating = rating;
    step
}

/// Hidden subsets of size `k`. With `se`, only houses with more than `2k` empty cells.
pub fn hidden(s: &State, k: usize, se: bool, emit: Emit) -> bool {
    let g = s.geometry().clone();
    for h in house_order(g.houses().len(), g.size(), se) {
        let empty = s
            .house_cells(h)
            .iter()
            .filter(|&&c| s.value(c) == 0)
            .count();
        if (se && empty <= 2 * k) || empty <= k {
            continue;
        }
        if !hidden_in_house(s, h, k, &mut |st, _| emit(st)) {
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
    let n = g.size();
    for h in 0..g.houses().len() {
        let cells = s.house_cells(h);
        let empty = cells.iter().filter(|&&c| s.value(c) == 0).count();
        if empty <= k {
            continue;
        }
        let go = hidden_in_house(s, h, k, &mut |step, (digits, places)| {
            for d in 1..=n as u8 {
                if digits.contains(d) {
                    continue;
                }
                let m = s.pos(h, d);
                if m.count_ones() < 2 {
                    continue;
                }
                let rest = m & !places;
                if rest.count_ones() == 1 {
                    let cell = cells[rest.trailing_zeros() as usize];
                    let mut step = step;
                    step.technique = if k == 2 {
                        Technique::DirectHiddenPair
                    } else {
                        Technique::DirectHiddenTriple
                    };
                    step.rating = if k == 2 { 20 } else { 25 };
                    step.placements = vec![(cell, d)];
                    step.fins = vec![cell];
                    return emit(step);
                }
            }
            true
        });
        if !go {
            return false;
        }
    }
    true
}

/// Hidden subsets of size `k` with eliminations in one house; `f` also gets the digits
/// and the places mask.
fn hidden_in_house(
    s: &State,
    h: usize,
    k: usize,
    f: &mut dyn FnMut(Step, (DigitSet, u64)) -> bool,
) -> bool {
    let n = s.size();
    let cells = s.house_cells(h);
    // Houses have at most 64 cells (places are u64 masks): no allocation per house.
    let mut buf = [(0u8, 0u64); 64];
    let mut len = 0;
    for d in 1..=n as u8 {
        let m = s.pos(h, d);
        if m != 0 && m.count_ones() as usize <= k {
            buf[len] = (d, m);
            len += 1;
        }
    }
    combinations(&buf[..len], k, &mut |set| {
        let places = set.iter().fold(0u64, |u, x| u | x.1);
        if places.count_ones() as usize != k {
            return true;
        }
        let ds: DigitSet = set.iter().map(|x| x.0).collect();
        let mut m = places;
        let mut any = false;
        while m != 0 && !any {
            any = !(s.cands(cells[m.trailing_zeros() as usize]) & !ds).is_empty();
            m &= m - 1;
        }
        if !any {
            return true;
        }
        let mut eliminations = Vec::new();
        let mut m = places;
        let mut pc = Vec::with_capacity(k);
        while m != 0 {
            let c = cells[m.trailing_zeros() as usize];
            m &= m - 1;
            pc.push(c);
            for d in (s.cands(c) & !ds).iter() {
                eliminations.push((c, d));
            }
        }
        if eliminations.is_empty() {
            return true;
        }
        let (technique, rating) = hidden_technique(k);
        let mut step = Step::new(technique);
        step.digits = ds.iter().collect();
        step.cells = pc;
        step.houses = vec![h];
        step.eliminations = eliminations;
        step.rating = rating;
        f(step, (ds, places))
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

    #[test]
    fn locked_sets_lie_where_a_box_crosses_a_line_and_clear_both() {
        let mut found = 0;
        for p in crate::logic::testing::SAMPLES.iter().chain([&PUZZLE]) {
            let s = state(p);
            let g = s.geometry().clone();
            for k in [2, 3] {
                for step in collect(&s, |s, e| locked(s, k, e)) {
                    check_sound(p, &step);
                    assert_eq!(step.cells.len(), k);
                    let kinds: Vec<_> = step.houses.iter().map(|&h| g.houses()[h].kind()).collect();
                    assert!(
                        kinds.contains(&crate::geometry::HouseKind::Box),
                        "{kinds:?}"
                    );
                    assert!(kinds.len() >= 2, "{kinds:?}");
                    let line = step
                        .houses
                        .iter()
                        .find(|&&h| g.houses()[h].kind() != crate::geometry::HouseKind::Box)
                        .unwrap();
                    let bx = step
                        .houses
                        .iter()
                        .find(|&&h| g.houses()[h].kind() == crate::geometry::HouseKind::Box)
                        .unwrap();
                    assert!(
                        step.eliminations
                            .iter()
                            .any(|&(c, _)| g.houses()[*bx].contains(c))
                    );
                    assert!(step.eliminations.iter().any(
                        |&(c, _)| g.houses()[*line].contains(c) && !g.houses()[*bx].contains(c)
                    ));
                    found += 1;
                }
            }
        }
        assert!(found > 0);
    }
}
