//! The two MATLAB programs of "Solving Soduko in Matlab" (seed 003).
//!
//! **The professor's one-liner** (`search`):
//!
//! ```text
//! K = kron(E,O) | kron(O,E) | kron(e,kron(o,kron(e,o)));   % 81x81: same column, row, box
//! P = 1.0*K*(X(:)*o(:)' == O(:)*(1:9));                     % P(k,i): peers of k holding i
//! [m,k] = min(~P*o(:) + 10*X(:));                            % fewest candidates, column-major
//! Y = X*(m>9);
//! for i = find(m>0 & m<10 & ~P(k,:)), Y = sudoku(X+i*(E==k)); if Y, return, end, end
//! ```
//!
//! Each call counts, for every cell, the digits absent from its Kronecker neighbourhood
//! (filled cells score `10*value` more, so they never win), takes the first minimum in
//! column-major order, and recurses on each of its candidates in turn: one value per
//! call, so a singleton costs a call like a guess does. `m > 9` means no empty cell: a
//! solution; `m == 0` a dead end. Its figure is its number of calls. The one-liner
//! returns at the first solution; a solution limit above one keeps it going.
//!
//! **The `sudoku.m` listing** ([`listing`], [`fiendish`]): all naked singles placed at
//! once, else hidden singles per 3x3 field (with a check that every digit is available
//! or placed in each field), else branch on the first cell with fewest candidates,
//! printing "fiendish". A puzzle is fiendish when branching is necessary.
//!
//! Both are written for 9x9; here they take peers and boxes from the geometry (the
//! "10" becomes `n + 1`), so they also run on Shidoku.

use super::{Fields, Reason, Run, column_major};
use crate::geometry::{Geometry, HouseKind};
use crate::grid::{DigitSet, Grid, open_digits};

/// The one-liner's figure is its calls (steps and guesses are counted too).
pub(crate) const FIELDS: Fields = Fields::ALL;

/// Runs the one-liner on `grid` (whose givens do not conflict).
pub(crate) fn search(grid: &Grid, run: &mut Run) {
    let k = OneLiner {
        geometry: grid.geometry(),
        order: column_major(grid.size()).collect(),
    };
    let mut x = grid.cells().to_vec();
    k.call(&mut x, 1, run);
}

struct OneLiner<'g> {
    geometry: &'g Geometry,
    order: Vec<usize>,
}

impl OneLiner<'_> {
    /// One call of `sudoku(X)`; returns whether `Y` is a solution.
    fn call(&self, x: &mut [u8], depth: u32, run: &mut Run) -> bool {
        if !run.call(depth) {
            return false;
        }
        // [m,k] = min(~P*o(:)+10*X(:)): only empty cells can be the minimum.
        let mut best: Option<(usize, DigitSet)> = None;
        for &k in &self.order {
            if x[k] != 0 {
                continue;
            }
            let open = open_digits(self.geometry, x, k);
            if best.is_none_or(|(_, b)| open.len() < b.len()) {
                best = Some((k, open));
            }
        }
        let Some((k, open)) = best else {
            run.solution(x, depth);
            return true;
        };
        if open.is_empty() {
            run.step(k, 0, Reason::DeadEnd, depth);
            return false;
        }
        let reason = if open.len() == 1 {
            Reason::Singleton
        } else {
            Reason::Guess
        };
        let mut solved = false;
        for i in open.iter() {
            x[k] = i;
            run.step(k, i, reason, depth);
            solved = self.call(x, depth + 1, run);
            x[k] = 0;
            if run.stopped() {
                return solved;
            }
            if reason == Reason::Guess {
                run.step(k, i, Reason::Backtrack, depth);
            }
        }
        solved
    }
}

/// What the `sudoku.m` listing finds.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    /// Every valid solution, in the order found.
    pub solutions: Vec<Vec<u8>>,
    /// How many times it printed "fiendish" (branched).
    pub fiendish: u64,
    /// Complete grids it recorded that break the rules. The listing never checks a
    /// completed grid; on branches without solution, naked singles placed all at once
    /// or hidden singles from stale candidates can fill a grid with repeated digits.
    /// On branches that contain a solution every placement is forced, so no solution
    /// is lost.
    pub invalid: u64,
}

/// Runs the listing's `jisudoku` on `grid` (whose givens do not conflict; a geometry
/// with boxes) and collects what it finds.
pub fn listing(grid: &Grid) -> Listing {
    let l = JiSudoku::new(grid.geometry());
    let mut out = Listing::default();
    l.run(grid.cells().to_vec(), &mut out, true);
    out
}

/// Whether the listing has to branch ("fiendish"): naked singles and hidden singles in
/// the boxes, applied as the listing applies them, stall before the grid is complete.
/// False when they solve the puzzle or find it contradictory.
pub fn fiendish(grid: &Grid) -> bool {
    let l = JiSudoku::new(grid.geometry());
    let mut out = Listing::default();
    l.run(grid.cells().to_vec(), &mut out, false);
    out.fiendish > 0
}

/// Where naked singles and hidden singles in boxes, applied to a fixed point, lead.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Singles {
    /// They complete the grid: the puzzle's unique solution (every move was forced).
    Solved(Vec<u8>),
    /// They stop with empty cells left (the grid as far as they got).
    Stalled(Vec<u8>),
    /// A cell or a box digit has no place left: the puzzle has no solution.
    Contradiction,
}

/// Naked singles and hidden singles in boxes to a fixed point.
///
/// On a puzzle that has a solution, "stalled" is [`fiendish`]'s answer, computed with
/// incremental digit masks instead of the listing's full recomputation: every single
/// the listing places (even all at once, even from candidates computed before other
/// placements of the same round) is forced in every solution, and the rules only gain
/// from more placements, so any order of application reaches the same fixed point.
/// Without a solution the listing's simultaneous placements can behave differently:
/// use [`fiendish`] there.
pub fn singles(grid: &Grid) -> Singles {
    if grid.geometry().is_classic() {
        return classic_singles(grid.cells());
    }
    any_singles(grid)
}

/// [`singles`] on any geometry with boxes, with per-cell digit masks.
fn any_singles(grid: &Grid) -> Singles {
    let g = grid.geometry();
    let n = g.size();
    let all = DigitSet::all(n).0;
    let cells = grid.cells();
    let mut used = vec![0u64; g.houses().len()];
    for (c, &v) in cells.iter().enumerate() {
        if v != 0 {
            for h in g.houses_of(c) {
                used[h] |= 1u64 << (v - 1);
            }
        }
    }
    let mut cand: Vec<u64> = (0..cells.len())
        .map(|c| match cells[c] {
            0 => all & !g.houses_of(c).fold(0, |m, h| m | used[h]),
            v => 1u64 << (v - 1),
        })
        .collect();
    let mut placed: Vec<bool> = cells.iter().map(|&v| v != 0).collect();
    let boxes: Vec<&crate::geometry::House> = g
        .houses()
        .iter()
        .filter(|h| h.kind() == HouseKind::Box)
        .collect();
    let mut queue: Vec<usize> = Vec::new();
    let place = |cand: &mut Vec<u64>, placed: &mut Vec<bool>, queue: &mut Vec<usize>, c: usize| {
        placed[c] = true;
        let bit = cand[c];
        for &p in g.peers(c) {
            let p = p as usize;
            if !placed[p] && cand[p] & bit != 0 {
                cand[p] &= !bit;
                queue.push(p);
            }
        }
    };
    let mut left = placed.iter().filter(|&&p| !p).count();
    // Naked singles among the open cells, then as eliminations create them.
    queue.extend((0..cells.len()).filter(|&c| !placed[c]));
    loop {
        while let Some(c) = queue.pop() {
            if placed[c] {
                continue;
            }
            match cand[c].count_ones() {
                0 => return Singles::Contradiction,
                1 => {
                    place(&mut cand, &mut placed, &mut queue, c);
                    left -= 1;
                }
                _ => {}
            }
        }
        let grid_of = |cand: &[u64], placed: &[bool]| -> Vec<u8> {
            (0..cand.len())
                .map(|c| {
                    if placed[c] {
                        cand[c].trailing_zeros() as u8 + 1
                    } else {
                        0
                    }
                })
                .collect()
        };
        if left == 0 {
            return Singles::Solved(grid_of(&cand, &placed));
        }
        let mut progress = false;
        for h in &boxes {
            let (mut once, mut twice, mut done) = (0u64, 0u64, 0u64);
            for c in h.cells() {
                if placed[c] {
                    done |= cand[c];
                } else {
                    twice |= once & cand[c];
                    once |= cand[c];
                }
            }
            if (once | done) != all {
                return Singles::Contradiction;
            }
            let mut hidden = once & !twice & !done;
            while hidden != 0 {
                let bit = hidden & hidden.wrapping_neg();
                hidden &= hidden - 1;
                if let Some(c) = h.cells().find(|&c| !placed[c] && cand[c] & bit != 0) {
                    cand[c] = bit;
                    place(&mut cand, &mut placed, &mut queue, c);
                    left -= 1;
                    progress = true;
                }
            }
        }
        if !progress {
            return Singles::Stalled(grid_of(&cand, &placed));
        }
    }
}

/// Peer and box masks of the classic grid as 81-bit sets, from its geometry.
struct ClassicMasks {
    peers: [u128; 81],
    boxes: [u128; 9],
    box_of: [u8; 81],
}

fn classic_masks() -> &'static ClassicMasks {
    static MASKS: std::sync::OnceLock<ClassicMasks> = std::sync::OnceLock::new();
    MASKS.get_or_init(|| {
        let g = Geometry::classic();
        let mut m = ClassicMasks {
            peers: [0; 81],
            boxes: [0; 9],
            box_of: [0; 81],
        };
        for (c, peers) in m.peers.iter_mut().enumerate() {
            *peers = g.peers(c).iter().fold(0, |a, &p| a | 1u128 << p);
        }
        for (b, h) in g
            .houses()
            .iter()
            .filter(|h| h.kind() == HouseKind::Box)
            .enumerate()
        {
            for c in h.cells() {
                m.boxes[b] |= 1u128 << c;
                m.box_of[c] = b as u8;
            }
        }
        m
    })
}

/// [`singles`] for 9x9 with one 81-bit set of possible cells per digit: a placement is
/// ten ANDs, naked singles come from counting digits bit-parallel, hidden singles from
/// one AND per box and digit.
fn classic_singles(cells: &[u8]) -> Singles {
    let m = classic_masks();
    let mut grid = [0u8; 81];
    grid.copy_from_slice(cells);
    let mut empty = 0u128;
    let mut pos = [0u128; 9];
    let mut boxes_done = [0u16; 9];
    for (c, &v) in cells.iter().enumerate() {
        if v == 0 {
            empty |= 1 << c;
        }
    }
    for p in pos.iter_mut() {
        *p = empty;
    }
    for (c, &v) in cells.iter().enumerate() {
        if v != 0 {
            pos[v as usize - 1] &= !m.peers[c];
            boxes_done[v as usize - 1] |= 1 << m.box_of[c];
        }
    }
    let place = |grid: &mut [u8; 81],
                 empty: &mut u128,
                 pos: &mut [u128; 9],
                 boxes_done: &mut [u16; 9],
                 c: usize,
                 d: usize| {
        grid[c] = d as u8 + 1;
        *empty &= !(1 << c);
        for p in pos.iter_mut() {
            *p &= !(1 << c);
        }
        pos[d] &= !m.peers[c];
        boxes_done[d] |= 1 << m.box_of[c];
    };
    while empty != 0 {
        let (mut once, mut twice) = (0u128, 0u128);
        for &p in &pos {
            twice |= once & p;
            once |= p;
        }
        if empty & !once != 0 {
            return Singles::Contradiction;
        }
        let mut naked = once & !twice;
        if naked != 0 {
            while naked != 0 {
                let c = naked.trailing_zeros() as usize;
                naked &= naked - 1;
                match pos.iter().position(|p| p >> c & 1 == 1) {
                    Some(d) => place(&mut grid, &mut empty, &mut pos, &mut boxes_done, c, d),
                    None => return Singles::Contradiction,
                }
            }
            continue;
        }
        let mut progress = false;
        for (b, &bm) in m.boxes.iter().enumerate() {
            for d in 0..9 {
                if boxes_done[d] >> b & 1 == 1 {
                    continue;
                }
                let here = pos[d] & bm;
                if here == 0 {
                    return Singles::Contradiction;
                }
                if here & (here - 1) == 0 {
                    let c = here.trailing_zeros() as usize;
                    place(&mut grid, &mut empty, &mut pos, &mut boxes_done, c, d);
                    progress = true;
                }
            }
        }
        if !progress {
            return Singles::Stalled(grid.to_vec());
        }
    }
    Singles::Solved(grid.to_vec())
}

/// The listing's fixed data: cell order and the boxes ("fields") with their cells, both
/// column-major as MATLAB's `find` and `I` give them.
struct JiSudoku<'g> {
    geometry: &'g Geometry,
    order: Vec<usize>,
    fields: Vec<Vec<usize>>,
}

impl<'g> JiSudoku<'g> {
    fn new(geometry: &'g Geometry) -> JiSudoku<'g> {
        let n = geometry.size();
        let position = |cell: usize| (cell % n, cell / n); // (column, row): column-major
        let mut fields: Vec<Vec<usize>> = geometry
            .houses()
            .iter()
            .filter(|h| h.kind() == HouseKind::Box)
            .map(|h| {
                let mut cells: Vec<usize> = h.cells().collect();
                cells.sort_by_key(|&c| position(c));
                cells
            })
            .collect();
        fields.sort_by_key(|f| position(f[0]));
        JiSudoku {
            geometry,
            order: column_major(n).collect(),
            fields,
        }
    }

    /// One call of `jisudoku(PUZZLE)`; `branch` false stops at the first "fiendish".
    fn run(&self, mut p: Vec<u8>, out: &mut Listing, branch: bool) {
        let n = self.geometry.size();
        let a: Vec<DigitSet> = (0..p.len())
            .map(|c| {
                if p[c] == 0 {
                    open_digits(self.geometry, &p, c)
                } else {
                    DigitSet::EMPTY
                }
            })
            .collect();
        // A free entry with nothing available: quit.
        if (0..p.len()).any(|c| p[c] == 0 && a[c].is_empty()) {
            return;
        }
        // Exactly one available: put them all, then start over.
        let singles: Vec<usize> = self
            .order
            .iter()
            .copied()
            .filter(|&c| a[c].len() == 1)
            .collect();
        if !singles.is_empty() {
            for c in singles {
                p[c] = a[c].first().expect("one candidate");
            }
            return self.run(p, out, branch);
        }
        // Per field: a digit available in exactly one cell is put there.
        let mut count = 0;
        for field in &self.fields {
            let mut times = [0u8; 65];
            let mut seen = DigitSet::EMPTY;
            for &c in field {
                for d in a[c].iter() {
                    times[d as usize] = times[d as usize].saturating_add(1);
                }
                seen = seen | a[c];
                if p[c] != 0 {
                    seen.insert(p[c]);
                }
            }
            if seen != DigitSet::all(n) {
                return;
            }
            for d in 1..=n as u8 {
                if times[d as usize] == 1 {
                    for &c in field {
                        if a[c].contains(d) {
                            p[c] = d;
                            count += 1;
                        }
                    }
                }
            }
        }
        if count > 0 {
            return self.run(p, out, branch);
        }
        if p.iter().all(|&v| v != 0) {
            let g = self.geometry;
            let valid = (0..p.len()).all(|c| g.peers(c).iter().all(|&q| p[q as usize] != p[c]));
            if valid {
                out.solutions.push(p);
            } else {
                out.invalid += 1;
            }
            return;
        }
        // Branch on the first cell with the fewest available (filled cells score +10).
        let mp = self
            .order
            .iter()
            .copied()
            .filter(|&c| p[c] == 0)
            .min_by_key(|&c| a[c].len())
            .expect("an empty cell");
        out.fiendish += 1;
        if !branch {
            return;
        }
        for d in a[mp].iter() {
            p[mp] = d;
            self.run(p.clone(), out, branch);
        }
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::solve::tests::planted_puzzles;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(200))]

        /// The 9x9 bit-parallel singles reach the same fixed point as the general ones
        /// on puzzles that have a solution.
        #[test]
        fn classic_singles_match((shape, _planted, cells) in planted_puzzles()) {
            let grid = Grid::from_cells(crate::Geometry::standard(shape), cells).unwrap();
            if grid.geometry().is_classic()
                && grid.first_conflict().is_none()
                && crate::solve::count_solutions(&grid, 1).count == 1
            {
                prop_assert_eq!(classic_singles(grid.cells()), any_singles(&grid));
            }
        }
    }
}
