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
    let mut base_set = S::ZERO;
    let mut base_at = vec![0; t.peers.as_ref().len()];
    for (k, &(c, _)) in base.iter().enumerate() {
        base_set |= S::bit(c);
        base_at[c] = k;
    }
    let mut excluders: Vec<Digits> = Vec::new();
    // Lexicographic order over the base cells, as `combinations` would give, but a
    // pair with fewer than two common excluders is dropped before any third cell is
    // tried: on 25x25 grids most pairs have none, and the triples were most of `rate`.
    for i in 0..base.len() {
        for j in i + 1..base.len() {
            let pair = base[i].1 & base[j].1;
            if board::count(pair) < 2 {
                continue;
            }
            if degree == 2 {
                let cells = [base[i].0, base[j].0];
                if let Some(st) = exclude(b, &cells, pair, &mut excluders)
                    && !emit(st)
                {
                    return false;
                }
                continue;
            }
            let linked_ij = t.peers[base[i].0].has(base[j].0);
            // A third cell with two of the pair's excluders in common sees one of them
            // other than the last: only those cells need trying.
            let mut near = S::ZERO;
            let mut rest = pair;
            while rest.drop_first() != S::ZERO {
                near |= t.peers[rest.first()];
                rest = rest.drop_first();
            }
            for c in board::cells(near & base_set & S::above(base[j].0)) {
                let k = base_at[c];
                let common = pair & base[k].1;
                if board::count(common) < 2 {
                    continue;
                }
                let cells = [base[i].0, base[j].0, base[k].0];
                // SE's triplets: the three cells must share a box or line pairwise with
                // at least one other (keep the search small and aligned).
                if !(linked_ij
                    || t.peers[cells[0]].has(cells[2])
                    || t.peers[cells[1]].has(cells[2]))
                {
                    continue;
                }
                if let Some(st) = exclude(b, &cells, common, &mut excluders)
                    && !emit(st)
                {
                    return false;
                }
            }
        }
    }
    true
}

/// The aligned-exclusion step for these base cells and their common excluders, if it
/// eliminates anything. `excluders` is scratch space.
fn exclude<S: Bits>(
    b: &Board<S>,
    cells: &[usize],
    common: S,
    excluders: &mut Vec<Digits>,
) -> Option<Step> {
    excluders.clear();
    excluders.extend(board::cells(common).map(|c| b.cand[c]));
    // A combination holding at most one digit of the excluders leaves each of them a
    // candidate (they have two or more). When every cell has as many such free digits
    // as there are cells, any candidate completes to one (the others pick free digits
    // apart from it and from each other), so nothing can go.
    let held = excluders.iter().fold(0, |m, &e| m | e);
    if cells
        .iter()
        .all(|&c| (b.cand[c] & !held).count_ones() as usize >= cells.len())
    {
        return None;
    }
    // A candidate survives when some possible combination uses it. Rather than list
    // every combination (up to 32^3 on large grids), look for one witness per candidate
    // not yet known to survive; a witness vouches for all of its digits at once.
    let search = Witness {
        b,
        cells,
        excluders,
        held,
    };
    let mut allowed = [0 as Digits; 3];
    let mut combo = [0u8; 3];
    for (k, &c) in cells.iter().enumerate() {
        for d in board::digits(b.cand[c] & !allowed[k]) {
            if search.find((k, d), 0, 0, &mut combo) {
                for (j, &e) in combo[..cells.len()].iter().enumerate() {
                    allowed[j] |= 1 << (e - 1);
                }
            }
        }
    }
    let mut elims = Vec::new();
    for (k, &c) in cells.iter().enumerate() {
        for d in board::digits(b.cand[c] & !allowed[k]) {
            elims.push((c, d));
        }
    }
    if elims.is_empty() {
        return None;
    }
    let (technique, rating) = if cells.len() == 2 {
        (Technique::AlignedPairExclusion, 62)
    } else {
        (Technique::AlignedTripleExclusion, 75)
    };
    let mut st = Step::new(technique);
    st.cells = cells.to_vec();
    st.fins = board::cells(common).collect();
    st.eliminations = elims;
    st.rating = rating;
    Some(st)
}

/// The search for one possible combination of the base cells' digits.
struct Witness<'a, S: Bits> {
    b: &'a Board<S>,
    cells: &'a [usize],
    excluders: &'a [Digits],
    /// The union of the excluders' candidates.
    held: Digits,
}

impl<S: Bits> Witness<'_, S> {
    /// Whether cells `i..` can take digits that complete `combo[..i]` (whose digits
    /// are `mask`) with cell `fixed.0` holding `fixed.1`, leaving every excluder a
    /// candidate and giving no two linked cells the same digit; the combination is
    /// left in `combo`.
    fn find(&self, fixed: (usize, u8), i: usize, mask: Digits, combo: &mut [u8]) -> bool {
        let cells = self.cells;
        if i == cells.len() {
            return true;
        }
        let t = self.b.tables();
        let choices = if i == fixed.0 {
            1 << (fixed.1 - 1)
        } else {
            self.b.cand[cells[i]]
        };
        // Digits no excluder holds can never complete one: try them first, and most
        // witnesses come at once.
        let free = board::digits(choices & !self.held);
        for d in free.chain(board::digits(choices & self.held)) {
            if (0..i).any(|j| combo[j] == d && t.peers[cells[j]].has(cells[i])) {
                continue;
            }
            // A combination that already takes every candidate of an excluder is
            // impossible whatever the remaining cells hold.
            let m = mask | 1 << (d - 1);
            if self.excluders.iter().any(|&e| e & !m == 0) {
                continue;
            }
            combo[i] = d;
            if self.find(fixed, i + 1, m, combo) {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::board::Huge;
    use crate::logic::solver::explain_until;
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

    /// A step's base cells and eliminations.
    type Found = (Vec<usize>, Vec<(usize, u8)>);

    /// Aligned exclusion by its definition: every pair (triple) of base cells, every
    /// combination of their digits, no shortcut.
    fn by_definition<S: Bits>(b: &Board<S>, degree: usize) -> Vec<Found> {
        let t = b.tables();
        let base = bases(b, degree as u32);
        let mut out = Vec::new();
        let idx: Vec<usize> = (0..base.len()).collect();
        crate::logic::combinations(&idx, degree, &mut |pick| {
            let cells: Vec<usize> = pick.iter().map(|&i| base[i].0).collect();
            let common = pick.iter().fold(t.cells, |m, &i| m & base[i].1);
            let linked = |x: usize, y: usize| t.peers[x].has(y);
            if board::count(common) < 2
                || (degree == 3
                    && !(linked(cells[0], cells[1])
                        || linked(cells[0], cells[2])
                        || linked(cells[1], cells[2])))
            {
                return true;
            }
            let mut allowed = vec![0 as Digits; degree];
            let mut combos: Vec<Vec<u8>> = vec![vec![]];
            for &c in &cells {
                combos = combos
                    .into_iter()
                    .flat_map(|co| {
                        board::digits(b.cand[c]).map(move |d| [co.clone(), vec![d]].concat())
                    })
                    .collect();
            }
            for co in combos {
                let clash = (0..degree)
                    .any(|i| (0..i).any(|j| co[i] == co[j] && linked(cells[i], cells[j])));
                let mask = co.iter().fold(0 as Digits, |m, &d| m | 1 << (d - 1));
                if clash || board::cells(common).any(|e| b.cand[e] & !mask == 0) {
                    continue;
                }
                for (k, &d) in co.iter().enumerate() {
                    allowed[k] |= 1 << (d - 1);
                }
            }
            let elims: Vec<(usize, u8)> = cells
                .iter()
                .enumerate()
                .flat_map(|(k, &c)| board::digits(b.cand[c] & !allowed[k]).map(move |d| (c, d)))
                .collect();
            if !elims.is_empty() {
                out.push((cells, elims));
            }
            true
        });
        out
    }

    #[test]
    fn exclusion_finds_what_the_definition_does() {
        // The finder skips pairs without common excluders, third cells out of reach and
        // triples whose cells have free digits enough, and looks for one witness per
        // candidate: none of it may change a step. Huge boards, so the multi-word sets
        // are the ones exercised.
        let mut found = 0;
        for p in SAMPLES {
            for after in [0, 10, 20, 30] {
                let mut n = 0;
                let path = explain_until(&state(p), &mut |_| {
                    n += 1;
                    n > after
                });
                let b = Board::<Huge>::for_state(&path.end).unwrap();
                for degree in [2, 3] {
                    let mut fast = Vec::new();
                    aligned(&b, degree, &mut |st| {
                        fast.push((st.cells.clone(), st.eliminations.clone()));
                        true
                    });
                    assert_eq!(fast, by_definition(&b, degree), "{p} after {after}");
                    found += fast.len();
                }
            }
        }
        assert!(found > 0);
    }
}
