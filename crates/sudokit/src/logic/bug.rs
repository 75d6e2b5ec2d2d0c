//! Bivalue Universal Grave, on grids up to 32x32 (uniqueness): if every unsolved cell had two
//! candidates and every digit two places in each house, the puzzle would have two
//! solutions (or none): taking every cell's other candidate turns a solution into
//! another, on any set of houses. So it holds on variants too, with all their houses
//! checked. The few "BUG cells" with extra candidates must break that pattern.
//!
//! BUG+1 (one BUG cell): it takes its extra digit. Sudoku Explainer's types 2-4 (several
//! BUG cells) are found by [`se_bug`] with SE's ratings (5.6 type 1, 5.7 types 2 and 4,
//! 5.6 + 0.1 per subset size for type 3).

use super::board::{self, Bits, Board, Digits};
use super::{Emit, Step, Technique, combinations};

/// BUG cells and their BUG digits, or None when the grid is not a BUG pattern plus
/// extras (SE's detection, in box / row / column order, then a variant's diagonals or
/// windows).
fn detect<S: Bits>(b: &Board<S>) -> Option<(Vec<usize>, Vec<Digits>, Digits, S)> {
    let t = b.tables();
    let extra = (t.lines..t.houses).filter(|h| !t.boxes.contains(h));
    let mut temp = b.clone();
    let mut cells: Vec<usize> = Vec::new();
    let mut values: Vec<Digits> = Vec::new();
    let mut all: Digits = 0;
    let mut common: Option<S> = None;
    for h in t.boxes.iter().copied().chain(0..t.lines).chain(extra) {
        for d in b.digit_range() {
            let pos = b.digit(d) & t.house[h];
            let n = board::count(pos);
            if n == 0 || n == 2 {
                continue;
            }
            let big: Vec<usize> = board::cells(pos)
                .filter(|&c| b.cand[c].count_ones() >= 3)
                .collect();
            if big.is_empty() {
                return None;
            }
            if big.len() == 1 {
                let c = big[0];
                let i = match cells.iter().position(|&x| x == c) {
                    Some(i) => i,
                    None => {
                        cells.push(c);
                        values.push(0);
                        cells.len() - 1
                    }
                };
                values[i] |= 1 << (d - 1);
                all |= 1 << (d - 1);
                temp.remove(c, d);
                let mut cm = common.unwrap_or(t.peers[c]) & t.peers[c];
                for &x in &cells {
                    cm &= !S::bit(x);
                }
                common = Some(cm);
                if cells.len() > 1 && all.count_ones() > 1 && cm == S::ZERO {
                    return None;
                }
            }
        }
    }
    if cells.is_empty() {
        return None;
    }
    if board::cells(t.cells).any(|c| temp.value[c] == 0 && temp.cand[c].count_ones() != 2) {
        return None;
    }
    for h in 0..t.houses {
        for d in b.digit_range() {
            let n = board::count(temp.digit(d) & t.house[h]);
            if n != 0 && n != 2 {
                return None;
            }
        }
    }
    Some((cells, values, all, common.unwrap_or(S::ZERO)))
}

/// BUG+1: the single BUG cell keeps only its BUG digit. As in HoDoKu, the step removes
/// the cell's other candidates and the naked single that places the digit follows
/// (its 4 points are part of HoDoKu's score).
pub fn bug_plus_one<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    let Some((cells, _, all, _)) = detect(b) else {
        return true;
    };
    if cells.len() != 1 || all.count_ones() != 1 {
        return true;
    }
    let c = cells[0];
    let d = all.trailing_zeros() as u8 + 1;
    let mut st = Step::new(Technique::BugPlusOne);
    st.digits = vec![d];
    st.cells = vec![c];
    st.eliminations = board::digits(b.cand[c] & !all).map(|e| (c, e)).collect();
    st.rating = 56;
    emit(st)
}

/// Sudoku Explainer's BUG types 1-4 (types 3 and 4 in a shared row, column or box).
pub fn se_bug<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    let t = b.tables();
    let Some((cells, values, all, common)) = detect(b) else {
        return true;
    };
    let mut out: Vec<Step> = Vec::new();
    if cells.len() == 1 {
        let c = cells[0];
        let mut st = Step::new(Technique::BugPlusOne);
        st.cells = vec![c];
        st.digits = board::digits(all).collect();
        st.eliminations = board::digits(b.cand[c] & !all).map(|e| (c, e)).collect();
        if all.count_ones() == 1 {
            st.placements = vec![(c, all.trailing_zeros() as u8 + 1)];
        }
        st.rating = 56;
        out.push(st);
    } else if all.count_ones() == 1 {
        let d = all.trailing_zeros() as u8 + 1;
        let victims = common & b.digit(d);
        if !victims.is_empty() {
            let mut st = Step::new(Technique::BugType2);
            st.cells = cells.clone();
            st.digits = vec![d];
            st.eliminations = board::cells(victims).map(|v| (v, d)).collect();
            st.rating = 57;
            out.push(st);
        }
        if cells.len() == 2 {
            out.extend(type4(b, &cells, &values, all));
        }
    } else if !common.is_empty() {
        if cells.len() == 2 {
            out.extend(type4(b, &cells, &values, all));
        }
        // Type 3: the BUG digits form a naked subset with other cells of a shared house.
        for &rt in house_kinds(t, cells[0]) {
            let h = t.houses_of[cells[0]][rt] as usize;
            if cells.iter().any(|&c| t.houses_of[c][rt] as usize != h) {
                continue;
            }
            let region_cells: Vec<usize> = board::cells(common & t.house[h]).collect();
            for degree in 2..=6usize {
                if region_cells.len() < degree {
                    continue;
                }
                combinations(&region_cells, degree - 1, &mut |naked| {
                    let other = b.digits_of(naked);
                    if other.count_ones() as usize != degree {
                        return true;
                    }
                    let union = other | all;
                    if union.count_ones() as usize != degree
                        || naked.iter().any(|&c| b.cand[c] == 0)
                    {
                        return true;
                    }
                    let mut elims = Vec::new();
                    for &c in &region_cells {
                        if naked.contains(&c) {
                            continue;
                        }
                        for d in board::digits(b.cand[c] & union) {
                            elims.push((c, d));
                        }
                    }
                    if !elims.is_empty() {
                        let mut st = Step::new(Technique::BugType3);
                        st.cells = cells.clone();
                        st.fins = naked.to_vec();
                        st.digits = board::digits(union).collect();
                        st.houses = vec![h];
                        st.eliminations = elims;
                        st.rating = 56 + degree as u16;
                        out.push(st);
                    }
                    true
                });
            }
        }
    }
    for st in out {
        if st.eliminations.is_empty() && st.placements.is_empty() {
            continue;
        }
        if !emit(st) {
            return false;
        }
    }
    true
}

/// SE's order of a cell's houses for types 3 and 4 (box, row, column; entries of
/// [`board::Tables::houses_of`]), without the box where there is none (Latin squares).
fn house_kinds<S: Bits>(t: &board::Tables<S>, c: usize) -> &'static [usize] {
    if t.box_of[c] == board::NO_HOUSE {
        &[0, 1]
    } else {
        &[2, 0, 1]
    }
}

/// BUG type 4: two BUG cells in one house sharing one non-BUG digit `u`. One of them
/// takes one of its BUG digits (else the grid is a deadly BUG), and `u`, confined to the
/// two cells in that house, is in the other: each cell keeps only its BUG digits and
/// `u`.
fn type4<S: Bits>(b: &Board<S>, cells: &[usize], values: &[Digits], all: Digits) -> Vec<Step> {
    let t = b.tables();
    let (c1, c2) = (cells[0], cells[1]);
    let shared = b.cand[c1] & b.cand[c2] & !all;
    if shared.count_ones() != 1 {
        return Vec::new();
    }
    let mut out = Vec::new();
    for &rt in house_kinds(t, c1) {
        if t.houses_of[c1][rt] != t.houses_of[c2][rt] {
            continue;
        }
        let mut elims = Vec::new();
        for (i, c) in [c1, c2].into_iter().enumerate() {
            for d in board::digits(b.cand[c] & !(values[i] | shared)) {
                elims.push((c, d));
            }
        }
        if !elims.is_empty() {
            let mut st = Step::new(Technique::BugType4);
            st.cells = cells.to_vec();
            st.digits = board::digits(all | shared).collect();
            st.houses = vec![t.houses_of[c1][rt] as usize];
            st.eliminations = elims;
            st.rating = 57;
            out.push(st);
        }
        break;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{SAMPLES, check_sound, state};

    #[test]
    fn bug_plus_one_on_an_x_sudoku_places_the_solution_s_digit() {
        // One of our generator's X-sudokus reaches a BUG+1 late in its path; the
        // placement must be the solution's digit (the solver decides, not the BUG).
        let v: crate::Variant = "x".parse().unwrap();
        let g = std::sync::Arc::new(crate::Geometry::for_variant(9, None, &v).unwrap());
        let options = crate::format::ReadOptions {
            geometry: Some(g),
            ..Default::default()
        };
        let text =
            "..7.83...3.....4..........14...6...3....9............9.6.....7.9......8...2...6..";
        let puzzle = crate::format::parse_one(text, &options).unwrap().grid;
        let solution = crate::solve::solve(&puzzle).unwrap();
        let path = crate::logic::explain(&crate::logic::State::from_grid(&puzzle));
        assert!(path.solved);
        let bug = path
            .steps
            .iter()
            .find(|st| st.technique == Technique::BugPlusOne)
            .expect("a BUG+1 step");
        assert!(!bug.eliminations.is_empty());
        for &(c, d) in &bug.eliminations {
            assert_ne!(solution.get(c), d);
        }
    }

    #[test]
    fn bug_is_sound_on_samples() {
        for p in SAMPLES {
            let b = Board::from_state(&state(p));
            se_bug(&b, &mut |st| {
                check_sound(p, &st);
                true
            });
        }
    }
}
