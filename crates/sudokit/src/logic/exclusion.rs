//! Aligned exclusion (Sudoku Explainer), on grids up to 32x32: for two (three) cells, try every
//! combination of their candidates; a combination is impossible when two cells that
//! see each other get the same digit, or when some cell seeing all of them would be
//! left without candidates (its candidates are all taken by the combination). A
//! candidate that appears in no possible combination is eliminated.
//!
//! Aligned Pair Exclusion rates 6.2, Aligned Triplet Exclusion 7.5. As in SE, only
//! cells with two (three) candidates serve as excluders, and a base cell whose houses
//! still hold a naked single is skipped.

use super::board::{self, Bits, Board, Digits};
use super::{Emit, Step, Technique};

/// Base cells and their excluders (cells in their houses with 2..=`degree` candidates).
fn bases<S: Bits>(b: &Board<S>, degree: u32) -> Vec<(usize, S)> {
    let t = b.tables();
    let mut out = Vec::new();
    for c in b.cell_range() {
        if b.cand[c].count_ones() < 2 {
            continue;
        }
        let mut excl = S::ZERO;
        let mut single = false;
        for p in board::cells(t.peers[c]) {
            let n = b.cand[p].count_ones();
            if n == 1 {
                single = true;
            } else if n >= 2 && n <= degree {
                excl |= S::bit(p);
            }
        }
        if !single && excl != S::ZERO {
            out.push((c, excl));
        }
    }
    out
}

/// Aligned Pair Exclusion.
pub fn aligned_pairs<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    aligned(b, 2, emit)
}

/// Aligned Triplet Exclusion.
pub fn aligned_triples<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    aligned(b, 3, emit)
}

fn aligned<S: Bits>(b: &Board<S>, degree: usize, emit: Emit) -> bool {
    let t = b.tables();
    let base = bases(b, degree as u32);
    let idx: Vec<usize> = (0..base.len()).collect();
    super::combinations(&idx, degree, &mut |pick| {
        // Cheap test first: enough common excluders.
        let common = pick.iter().fold(t.cells, |m, &i| m & base[i].1);
        if board::count(common) < 2 {
            return true;
        }
        let mut cells = [0usize; 3];
        for (k, &i) in pick.iter().enumerate() {
            cells[k] = base[i].0;
        }
        let cells = &cells[..degree];
        if degree == 3 {
            // SE's triplets: the three cells must share a box or line pairwise with at
            // least one other (keep the search small and aligned).
            let linked = |x: usize, y: usize| t.peers[x].has(y);
            if !(linked(cells[0], cells[1])
                || linked(cells[0], cells[2])
                || linked(cells[1], cells[2]))
            {
                return true;
            }
        }
        let mut excluders = S::per_cell(0 as Digits);
        let mut ne = 0;
        for c in board::cells(common) {
            excluders[ne] = b.cand[c];
            ne += 1;
        }
        let excluders = &excluders.as_ref()[..ne];
        let mut allowed = [0 as Digits; 3];
        let mut combo = [0u8; 3];
        fn go<S: Bits>(
            b: &Board<S>,
            cells: &[usize],
            excluders: &[Digits],
            i: usize,
            combo: &mut [u8],
            allowed: &mut [Digits],
        ) {
            let t = b.tables();
            if i == cells.len() {
                let mask = combo[..cells.len()]
                    .iter()
                    .fold(0 as Digits, |m, &d| m | 1 << (d - 1));
                if excluders.iter().any(|&e| e & !mask == 0) {
                    return;
                }
                for (k, &d) in combo[..cells.len()].iter().enumerate() {
                    allowed[k] |= 1 << (d - 1);
                }
                return;
            }
            for d in board::digits(b.cand[cells[i]]) {
                if (0..i).any(|j| combo[j] == d && t.peers[cells[j]].has(cells[i])) {
                    continue;
                }
                combo[i] = d;
                go(b, cells, excluders, i + 1, combo, allowed);
            }
        }
        go(b, cells, excluders, 0, &mut combo, &mut allowed);
        if cells
            .iter()
            .enumerate()
            .all(|(k, &c)| b.cand[c] & !allowed[k] == 0)
        {
            return true;
        }
        let mut elims = Vec::new();
        for (k, &c) in cells.iter().enumerate() {
            for d in board::digits(b.cand[c] & !allowed[k]) {
                elims.push((c, d));
            }
        }
        if elims.is_empty() {
            return true;
        }
        let (technique, rating) = if degree == 2 {
            (Technique::AlignedPairExclusion, 62)
        } else {
            (Technique::AlignedTripleExclusion, 75)
        };
        let mut st = Step::new(technique);
        st.cells = cells.to_vec();
        st.fins = board::cells(common).collect();
        st.eliminations = elims;
        st.rating = rating;
        emit(st)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{SAMPLES, check_sound, state};

    #[test]
    fn exclusion_is_sound_on_samples() {
        for p in SAMPLES {
            let b = Board::from_state(&state(p));
            aligned_pairs(&b, &mut |st| {
                check_sound(p, &st);
                true
            });
        }
    }
}
