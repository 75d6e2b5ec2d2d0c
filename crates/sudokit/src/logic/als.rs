//! Almost locked sets (ALS), on grids up to 32x32: `n` cells of one house holding `n + 1` digits
//! between them (a bivalue cell is the smallest). Remove any one digit and the rest is
//! locked. Techniques: ALS-XZ, ALS-XY-Wing, Death Blossom, Sue de Coq.
//!
//! Two ALS are joined by a restricted common candidate `x` when every `x` of one sees
//! every `x` of the other: they cannot both keep `x`, so one of them is locked without
//! `x`, and each other common digit `z` is then held by one of them: `z` leaves every
//! cell seeing all the `z`s of both.

use super::board::{self, Bits, Board, CellSet, Digits};
use super::{Emit, Step, Technique, combinations};

/// One almost locked set.
#[derive(Clone, Copy, Debug)]
pub struct Als<S: Bits = CellSet> {
    /// Its cells.
    pub cells: S,
    /// Its digits (n + 1 of them).
    pub digits: Digits,
    /// The house it was found in.
    pub house: usize,
    /// For each digit (index `d - 1`), the cells seeing all the ALS's cells holding it:
    /// two ALS are linked by `d` when one's `d`s all lie in the other's `seen`.
    seen: S::PerDigit<S>,
}

impl<S: Bits> Als<S> {
    /// Cells of the ALS holding `d`.
    fn holders(&self, b: &Board<S>, d: u8) -> S {
        self.cells & b.digit(d)
    }
}

/// Every ALS of up to `max` cells (each set once, found in its first house).
pub fn all_als<S: Bits>(b: &Board<S>, max: usize) -> Vec<Als<S>> {
    let t = b.tables();
    let mut out: Vec<Als<S>> = Vec::new();
    let mut known = std::collections::HashSet::new();
    for h in 0..t.houses {
        let cells: Vec<usize> = t
            .cells_of(h)
            .iter()
            .map(|&c| c as usize)
            .filter(|&c| b.cand[c] != 0)
            .collect();
        for n in 1..=max.min(cells.len().saturating_sub(1)) {
            combinations(&cells, n, &mut |set| {
                let digits = b.digits_of(set);
                if digits.count_ones() as usize == n + 1 {
                    let mask = set.iter().fold(S::ZERO, |m, &c| m | S::bit(c));
                    if known.insert(mask) {
                        let mut seen = S::per_digit(S::ZERO);
                        for d in board::digits(digits) {
                            seen[d as usize - 1] = t.seen_by_all(mask & b.digit(d));
                        }
                        out.push(Als {
                            cells: mask,
                            digits,
                            house: h,
                            seen,
                        });
                    }
                }
                true
            });
        }
    }
    out
}

/// Restricted common candidates between two disjoint ALS.
fn rccs<S: Bits>(b: &Board<S>, a: &Als<S>, z: &Als<S>) -> Digits {
    let mut out = 0;
    for d in board::digits(a.digits & z.digits) {
        if (z.holders(b, d) & !a.seen[d as usize - 1]).is_empty() {
            out |= 1 << (d - 1);
        }
    }
    out
}

fn als_step<S: Bits>(
    technique: Technique,
    sets: &[&Als<S>],
    digits: Digits,
    elims: Vec<(usize, u8)>,
) -> Step {
    let mut st = Step::new(technique);
    st.digits = board::digits(digits).collect();
    st.cells = sets.iter().flat_map(|a| board::cells(a.cells)).collect();
    st.houses = sets.iter().map(|a| a.house).collect();
    st.eliminations = elims;
    st.rating = match technique {
        Technique::AlsXz => 68,
        Technique::AlsXyWing => 70,
        Technique::DeathBlossom => 72,
        _ => 60,
    };
    st
}

/// ALS-XZ (including the doubly linked case).
pub fn als_xz<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    let list = all_als(b, 4);
    let mut found = Vec::new();
    for i in 0..list.len() {
        for j in i + 1..list.len() {
            let (a, z) = (&list[i], &list[j]);
            if a.cells & z.cells != S::ZERO {
                continue;
            }
            let r = rccs(b, a, z);
            if r == 0 {
                continue;
            }
            let mut elims: Vec<(usize, u8)> = Vec::new();
            for d in board::digits(a.digits & z.digits & !if r.count_ones() == 1 { r } else { 0 }) {
                if r.count_ones() == 1 && r >> (d - 1) & 1 == 1 {
                    continue;
                }
                let holders = a.holders(b, d) | z.holders(b, d);
                for v in board::cells(b.seen_by_all(holders) & b.digit(d)) {
                    elims.push((v, d));
                }
            }
            if r.count_ones() >= 2 {
                // Doubly linked: each ALS is locked; its other digits leave its houses.
                for s in [a, z] {
                    for d in board::digits(s.digits & !r) {
                        for v in board::cells(b.seen_by_all(s.holders(b, d)) & b.digit(d)) {
                            if !elims.contains(&(v, d)) {
                                elims.push((v, d));
                            }
                        }
                    }
                }
            }
            elims.retain(|&(c, _)| !(a.cells | z.cells).has(c));
            elims.sort_unstable();
            elims.dedup();
            if elims.is_empty() {
                continue;
            }
            found.push(als_step(Technique::AlsXz, &[a, z], r, elims));
        }
    }
    emit_in_hodoku_order(b, found, emit)
}

/// ALS-XY-Wing: a pivot ALS `c` linked to `a` by `x` and to `b` by `y` (x ≠ y); a digit
/// `z` common to `a` and `b` leaves the cells seeing all their `z`s.
pub fn als_xy_wing<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    let list = all_als(b, 3);
    let n = list.len();
    let mut found = Vec::new();
    for ci in 0..n {
        let c = &list[ci];
        // The ALS linked to the pivot, with their links (pairs of others never qualify).
        let linked: Vec<(usize, Digits)> = (0..n)
            .filter(|&i| i != ci && (list[i].cells & c.cells).is_empty())
            .map(|i| (i, rccs(b, &list[i], c)))
            .filter(|&(_, r)| r != 0)
            .collect();
        for (k, &(ai, rx)) in linked.iter().enumerate() {
            for &(bi, ry) in &linked[k + 1..] {
                let (a, z) = (&list[ai], &list[bi]);
                if !(a.cells & z.cells).is_empty() || (rx | ry).count_ones() < 2 {
                    continue;
                }
                for x in board::digits(rx) {
                    for y in board::digits(ry) {
                        if x == y {
                            continue;
                        }
                        let mut elims = Vec::new();
                        for d in board::digits(a.digits & z.digits) {
                            if d == x || d == y {
                                continue;
                            }
                            let holders = a.holders(b, d) | z.holders(b, d);
                            for v in board::cells(b.seen_by_all(holders) & b.digit(d) & !c.cells) {
                                elims.push((v, d));
                            }
                        }
                        if elims.is_empty() {
                            continue;
                        }
                        let digits = (1 << (x - 1)) | (1 << (y - 1));
                        found.push(als_step(Technique::AlsXyWing, &[a, z, c], digits, elims));
                    }
                }
            }
        }
    }
    emit_in_hodoku_order(b, found, emit)
}

/// Emits `steps` as HoDoKu ranks ALS steps: one per set of eliminations (the fewest
/// cells), most eliminations first, then [`Step::hodoku_rank`]'s sum, then the fewest
/// sets and cells.
fn emit_in_hodoku_order<S: Bits>(b: &Board<S>, mut steps: Vec<Step>, emit: Emit) -> bool {
    let cells = b.tables().n * b.tables().n;
    for st in &mut steps {
        st.eliminations.sort_unstable();
    }
    steps.sort_by_cached_key(|st| (st.hodoku_rank(cells), st.houses.len(), st.cells.len()));
    let mut seen = std::collections::HashSet::new();
    steps.retain(|st| seen.insert(st.eliminations.clone()));
    steps.into_iter().all(emit)
}

/// Death Blossom: a stem cell whose every candidate `d` is linked (all `d`s of a petal
/// ALS see the stem) to a petal; a digit `z` in every petal (and not in the stem) leaves
/// the cells that see all petals' `z`s.
pub fn death_blossom<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    let t = b.tables();
    let list = all_als(b, 3);
    for stem in b.cell_range() {
        let sc = b.cand[stem];
        if !(2..=3).contains(&sc.count_ones()) {
            continue;
        }
        // Petals for each stem digit.
        let petals: Vec<Vec<usize>> = board::digits(sc)
            .map(|d| {
                (0..list.len())
                    .filter(|&i| {
                        let a = &list[i];
                        !a.cells.has(stem)
                            && a.digits >> (d - 1) & 1 == 1
                            && a.holders(b, d) & !t.peers[stem] == S::ZERO
                    })
                    .collect()
            })
            .collect();
        if petals.iter().any(|p| p.is_empty()) {
            continue;
        }
        let mut pick: Vec<usize> = Vec::new();
        if !blossom(b, stem, &list, &petals, &mut pick, emit) {
            return false;
        }
    }
    true
}

fn blossom<S: Bits>(
    b: &Board<S>,
    stem: usize,
    list: &[Als<S>],
    petals: &[Vec<usize>],
    pick: &mut Vec<usize>,
    emit: Emit,
) -> bool {
    if pick.len() == petals.len() {
        let sets: Vec<&Als<S>> = pick.iter().map(|&i| &list[i]).collect();
        let mut used: S = S::ZERO;
        for s in &sets {
            if used & s.cells != S::ZERO {
                return true;
            }
            used |= s.cells;
        }
        let common = sets.iter().fold(Digits::MAX, |m, s| m & s.digits) & !b.cand[stem];
        let mut elims = Vec::new();
        for z in board::digits(common) {
            let holders = sets.iter().fold(S::ZERO, |m, s| m | s.holders(b, z));
            for v in board::cells(b.seen_by_all(holders) & b.digit(z) & !S::bit(stem)) {
                elims.push((v, z));
            }
        }
        if elims.is_empty() {
            return true;
        }
        let mut st = als_step(Technique::DeathBlossom, &sets, b.cand[stem], elims);
        st.fins = vec![stem];
        return emit(st);
    }
    for &i in &petals[pick.len()] {
        if !pick.is_empty()
            && pick
                .iter()
                .any(|&p| list[p].cells & list[i].cells != S::ZERO)
        {
            continue;
        }
        pick.push(i);
        let go = blossom(b, stem, list, petals, pick, emit);
        pick.pop();
        if !go {
            return false;
        }
    }
    true
}

/// Sue de Coq: two or three cells of a box-line intersection holding `n + 2` (or more)
/// digits, a line ALS and a box ALS outside the intersection with disjoint digits that
/// together cover them: every digit is locked, so the line's digits leave the rest of
/// the line and the box's the rest of the box.
pub fn sue_de_coq<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    let t = b.tables();
    for &bx in &t.boxes {
        for line in 0..t.lines {
            let inter = t.house[bx] & t.house[line];
            let cells: Vec<usize> = board::cells(inter).filter(|&c| b.cand[c] != 0).collect();
            for k in 2..=cells.len() {
                let ok = combinations(&cells, k, &mut |core| {
                    let core_mask = core.iter().fold(S::ZERO, |m, &c| m | S::bit(c));
                    let v = b.digits_of(core);
                    if (v.count_ones() as usize) < k + 2 {
                        return true;
                    }
                    let line_rest: Vec<usize> = board::cells(t.house[line] & !inter)
                        .filter(|&c| b.cand[c] != 0)
                        .collect();
                    let box_rest: Vec<usize> = board::cells(t.house[bx] & !inter)
                        .filter(|&c| b.cand[c] != 0)
                        .collect();
                    for nl in 1..=2 {
                        let go = combinations(&line_rest, nl, &mut |ls| {
                            let dl = b.digits_of(ls);
                            if dl & !v != 0 || dl.count_ones() as usize != nl + 1 {
                                return true;
                            }
                            for nb in 1..=2 {
                                let go = combinations(&box_rest, nb, &mut |bs| {
                                    let db = b.digits_of(bs);
                                    if db & !v != 0
                                        || db & dl != 0
                                        || db.count_ones() as usize != nb + 1
                                    {
                                        return true;
                                    }
                                    if (v & !(dl | db)).count_ones() as usize
                                        + dl.count_ones() as usize
                                        + db.count_ones() as usize
                                        != k + nl + nb
                                    {
                                        return true;
                                    }
                                    let lm = ls.iter().fold(S::ZERO, |m, &c| m | S::bit(c));
                                    let bm = bs.iter().fold(S::ZERO, |m, &c| m | S::bit(c));
                                    let rest = v & !(dl | db);
                                    let mut elims = Vec::new();
                                    for c in board::cells(t.house[line] & !core_mask & !lm) {
                                        for d in board::digits(b.cand[c] & (dl | rest)) {
                                            elims.push((c, d));
                                        }
                                    }
                                    for c in board::cells(t.house[bx] & !core_mask & !bm) {
                                        for d in board::digits(b.cand[c] & (db | rest)) {
                                            if !elims.contains(&(c, d)) {
                                                elims.push((c, d));
                                            }
                                        }
                                    }
                                    if elims.is_empty() {
                                        return true;
                                    }
                                    let mut st = Step::new(Technique::SueDeCoq);
                                    st.digits = board::digits(v).collect();
                                    st.cells = core.to_vec();
                                    st.fins = ls.iter().chain(bs.iter()).copied().collect();
                                    st.houses = vec![line, bx];
                                    st.eliminations = elims;
                                    st.rating = 60;
                                    emit(st)
                                });
                                if !go {
                                    return false;
                                }
                            }
                            true
                        });
                        if !go {
                            return false;
                        }
                    }
                    true
                });
                if !ok {
                    return false;
                }
            }
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{SAMPLES, check_sound, state};

    #[test]
    fn als_techniques_are_sound_on_samples() {
        for p in SAMPLES {
            let b = Board::from_state(&state(p));
            let mut n = 0;
            for f in [
                als_xz as fn(&Board, Emit) -> bool,
                als_xy_wing,
                death_blossom,
                sue_de_coq,
            ] {
                f(&b, &mut |st| {
                    check_sound(p, &st);
                    n += 1;
                    n < 50
                });
            }
        }
    }
}
