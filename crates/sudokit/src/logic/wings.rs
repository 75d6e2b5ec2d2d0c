//! Wings, on grids up to 32x32: XY-Wing, XYZ-Wing, W-Wing, and Sukaku Explainer's WXYZ- to
//! TUVWXYZ-wings (an almost locked set of mutually visible cells plus one bivalue
//! cell).
//!
//! XY-Wing: a pivot `xy` sees two pincers `xz` and `yz`; whichever digit the pivot
//! takes, one pincer is `z`, so `z` leaves every cell that sees both pincers. XYZ-Wing:
//! the pivot also holds `z`, so the victims must see it too. W-Wing: two equal bivalue
//! cells `xy` whose `x`s are joined by a strong link on `x`: one of them is `y`.

use super::board::{self, Bits, Board, Digits};
use super::{Emit, Step, Technique};

/// XY-Wings, pivots in cell order (SE's order).
pub fn xy_wing<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    wing(b, false, emit)
}

/// XYZ-Wings, pivots in cell order.
pub fn xyz_wing<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    wing(b, true, emit)
}

fn wing<S: Bits>(b: &Board<S>, xyz: bool, emit: Emit) -> bool {
    let t = b.tables();
    let target = if xyz { 3 } else { 2 };
    for pivot in b.cell_range() {
        let pv = b.cand[pivot];
        if pv.count_ones() != target {
            continue;
        }
        let peers: Vec<usize> = board::cells(t.peers[pivot])
            .filter(|&c| b.cand[c].count_ones() == 2)
            .collect();
        for &xz in &peers {
            let a = b.cand[xz];
            if (pv & !a).count_ones() != 1 {
                continue;
            }
            for &yz in &peers {
                let c = b.cand[yz];
                let union = pv | a | c;
                let inter = pv & a & c;
                let ok = if xyz {
                    union.count_ones() == 3 && inter.count_ones() == 1
                } else {
                    union.count_ones() == 3 && inter == 0 && yz != xz
                };
                if !ok || yz == xz {
                    continue;
                }
                let z = (a & c).trailing_zeros() as u8 + 1;
                let mut victims = t.peers[xz] & t.peers[yz];
                if xyz {
                    victims &= t.peers[pivot];
                }
                victims &= b.digit(z) & !S::bit(pivot);
                if victims.is_empty() {
                    continue;
                }
                let (technique, rating) = if xyz {
                    (Technique::XYZWing, 44)
                } else {
                    (Technique::XYWing, 42)
                };
                let mut step = Step::new(technique);
                step.digits = board::digits(union).collect();
                step.cells = vec![pivot, xz, yz];
                step.eliminations = board::cells(victims).map(|v| (v, z)).collect();
                step.rating = rating;
                if !emit(step) {
                    return false;
                }
            }
        }
    }
    true
}

/// W-Wings: two cells with the same two candidates `xy`, and a strong link on `x` (a
/// house where `x` has exactly two places) with one end seeing each cell and neither
/// seeing both: `y` leaves the cells seeing both. In HoDoKu's order: cells in order,
/// the smaller digit cleared first, houses rows, columns, boxes.
pub fn w_wing<S: Bits>(b: &Board<S>, emit: Emit) -> bool {
    let t = b.tables();
    let bi: Vec<usize> = b
        .cell_range()
        .filter(|&c| b.cand[c].count_ones() == 2)
        .collect();
    for (i, &c1) in bi.iter().enumerate() {
        for &c2 in &bi[i + 1..] {
            if b.cand[c1] != b.cand[c2] {
                continue;
            }
            let pair: Vec<u8> = board::digits(b.cand[c1]).collect();
            for (x, y) in [(pair[1], pair[0]), (pair[0], pair[1])] {
                let victims = t.peers[c1] & t.peers[c2] & b.digit(y);
                if victims.is_empty() {
                    continue;
                }
                for h in 0..t.houses {
                    let pos = b.digit(x) & t.house[h];
                    if !board::is_pair(pos) || !(pos & (S::bit(c1) | S::bit(c2))).is_empty() {
                        continue;
                    }
                    let (e1, e2) = (board::first(pos), board::first(pos.drop_first()));
                    let sees = |e: usize, c: usize| t.peers[e].has(c);
                    let both = |e: usize| sees(e, c1) && sees(e, c2);
                    if both(e1)
                        || both(e2)
                        || !((sees(e1, c1) && sees(e2, c2)) || (sees(e1, c2) && sees(e2, c1)))
                    {
                        continue;
                    }
                    let mut step = Step::new(Technique::WWing);
                    step.digits = vec![x, y];
                    step.cells = vec![c1, c2];
                    step.fins = vec![e1, e2];
                    step.houses = vec![h];
                    step.eliminations = board::cells(victims).map(|v| (v, y)).collect();
                    step.rating = 44;
                    if !emit(step) {
                        return false;
                    }
                    break;
                }
            }
        }
    }
    true
}

/// The technique and SE rating (tenths) of a Sukaku wing with an ALS of `k` cells whose
/// largest cell has `biggest` candidates.
fn als_wing_rating(k: usize, biggest: u32) -> (Technique, u16) {
    let diff = |base: i32, size: i32| -> u16 {
        let mid = (size + 2) / 2;
        (base + (size - mid) - (mid - biggest as i32).abs()) as u16
    };
    match k {
        3 => (Technique::WXYZWing, diff(55, 4)),
        4 => (Technique::VWXYZWing, diff(62, 5)),
        5 => (Technique::UVWXYZWing, 66),
        _ => (Technique::TUVWXYZWing, 75),
    }
}

/// The best of Sukaku Explainer's ALS wings with `k` ALS cells (WXYZ for 3, VWXYZ for
/// 4, UVWXYZ for 5, TUVWXYZ for 6): `k` mutually visible cells holding `k + 1` digits
/// together, and a bivalue cell `xz` outside them with both digits among theirs. When
/// every ALS cell holding `x` sees the bivalue cell, `z` leaves the cells that see the
/// bivalue cell and every ALS cell holding `z`; when both digits qualify, every ALS
/// digit is eliminated from the cells seeing all its holders.
pub fn als_wing_best<S: Bits>(b: &Board<S>, k: usize) -> Option<Step> {
    let t = b.tables();
    let mut best: Option<(u16, usize, String, Step)> = None;
    let cands: S = b
        .cell_range()
        .filter(|&c| {
            let n = b.cand[c].count_ones() as usize;
            n >= 2 && n <= k + 1
        })
        .fold(S::ZERO, |m, c| m | S::bit(c));
    let bivalue: Vec<usize> = b
        .cell_range()
        .filter(|&c| b.cand[c].count_ones() == 2)
        .collect();
    let mut set: Vec<usize> = Vec::with_capacity(k);
    /// Grows `set` with cells of `avail` (the candidates after the last one that see
    /// every cell so far), in increasing order.
    fn grow<S: Bits>(
        b: &Board<S>,
        k: usize,
        avail: S,
        set: &mut Vec<usize>,
        union: Digits,
        f: &mut dyn FnMut(&[usize], Digits),
    ) {
        if set.len() == k {
            if union.count_ones() as usize == k + 1 {
                f(set, union);
            }
            return;
        }
        let t = b.tables();
        for c in board::cells(avail) {
            let u = union | b.cand[c];
            if u.count_ones() as usize > k + 1 {
                continue;
            }
            set.push(c);
            let after = S::above(c);
            grow(b, k, avail & t.peers[c] & after, set, u, f);
            set.pop();
        }
    }
    grow(b, k, cands, &mut set, 0, &mut |als, union| {
        let cells: S = als.iter().fold(S::ZERO, |m, &c| m | S::bit(c));
        let biggest = als
            .iter()
            .map(|&c| b.cand[c].count_ones())
            .max()
            .unwrap_or(0);
        let holders = |d: u8| cells & b.digit(d);
        for &pv in &bivalue {
            if cells.has(pv) || b.cand[pv] & !union != 0 {
                continue;
            }
            let sees_all = |d: u8| (holders(d) & !t.peers[pv]).is_empty();
            let d0 = b.cand[pv].trailing_zeros() as u8 + 1;
            let d1 = Digits::BITS as u8 - b.cand[pv].leading_zeros() as u8;
            let ds = [d0, d1];
            let rcc = [sees_all(d0), sees_all(d1)];
            if !rcc[0] && !rcc[1] {
                continue;
            }
            let double = rcc[0] && rcc[1];
            let mut elims: Vec<(usize, u8)> = Vec::new();
            let mut add = |victims: S, d: u8| {
                for v in board::cells(victims & b.digit(d) & !cells & !S::bit(pv)) {
                    if !elims.contains(&(v, d)) {
                        elims.push((v, d));
                    }
                }
            };
            for (i, &d) in ds.iter().enumerate() {
                // A digit of the bivalue cell is eliminated when the other is the RCC.
                if rcc[1 - i] || double {
                    add(t.peers[pv] & b.seen_by_all(holders(d)), d);
                }
            }
            if double {
                for d in board::digits(union & !b.cand[pv]) {
                    add(b.seen_by_all(holders(d)), d);
                }
            }
            if elims.is_empty() {
                continue;
            }
            let (technique, rating) = als_wing_rating(k, biggest);
            let suffix = format!("{}{}", if double { 2 } else { 1 }, biggest);
            let better = match &best {
                None => true,
                Some((r, n, s, _)) => {
                    (
                        rating,
                        std::cmp::Reverse(elims.len()),
                        std::cmp::Reverse(&suffix),
                    ) < (*r, std::cmp::Reverse(*n), std::cmp::Reverse(s))
                }
            };
            if !better {
                continue;
            }
            elims.sort_unstable();
            let mut step = Step::new(technique);
            step.digits = board::digits(union).collect();
            step.cells = als.to_vec();
            step.fins = vec![pv];
            step.eliminations = elims.clone();
            step.rating = rating;
            best = Some((rating, elims.len(), suffix, step));
        }
    });
    best.map(|b| b.3)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::logic::testing::{SAMPLES, check_sound, state};

    #[test]
    fn wings_are_sound_on_samples() {
        for p in SAMPLES {
            let b = Board::from_state(&state(p));
            for f in [xy_wing as fn(&Board, Emit) -> bool, xyz_wing, w_wing] {
                f(&b, &mut |st| {
                    check_sound(p, &st);
                    true
                });
            }
            for k in 3..=5 {
                if let Some(st) = als_wing_best(&b, k) {
                    check_sound(p, &st);
                }
            }
        }
    }

    #[test]
    fn sukaku_wing_ratings() {
        assert_eq!(als_wing_rating(3, 3).1, 56);
        assert_eq!(als_wing_rating(3, 4).1, 55);
        assert_eq!(als_wing_rating(3, 2).1, 55);
        assert_eq!(als_wing_rating(4, 3).1, 64);
        assert_eq!(als_wing_rating(4, 2).1, 63);
        assert_eq!(als_wing_rating(4, 5).1, 62);
    }
}
