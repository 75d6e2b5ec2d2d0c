//! The house-based engine for every geometry: candidates as 64-bit digit sets, naked and
//! hidden singles over the geometry's houses, minimum-remaining-values branching.
//!
//! Changes are recorded on a trail and undone on backtracking, so memory stays
//! `O(cells * n)` even for 64x64 grids, and the search is an explicit loop: no recursion,
//! whatever the depth. Hidden singles are looked for only in houses where a candidate
//! was removed since the last look (a list of dirty houses): rescanning every house
//! after each placement made a 64x64 grid cost seconds.

use super::{Budget, Limits, Report, Stop};
use crate::grid::Grid;
use crate::rng::Rng;

/// Search state over one geometry.
struct Engine {
    n: usize,
    all: u64,
    /// `peers[peer_start[c]..peer_start[c + 1]]`.
    peers: Vec<u16>,
    peer_start: Vec<u32>,
    /// Houses flattened: house `h` is `house_cells[h * n..(h + 1) * n]`.
    house_cells: Vec<u16>,
    /// The houses of cell `c`: `cell_houses[cell_house_start[c]..cell_house_start[c + 1]]`.
    cell_houses: Vec<u32>,
    cell_house_start: Vec<u32>,
    /// Houses with candidates removed since their last hidden-single scan.
    dirty: Vec<u32>,
    is_dirty: Vec<bool>,
    cand: Vec<u64>,
    trail: Vec<(u16, u64)>,
    queue: Vec<u16>,
}

impl Engine {
    fn new(grid: &Grid) -> Engine {
        let g = grid.geometry();
        let n = g.size();
        let cells = g.cell_count();
        let mut peers = Vec::new();
        let mut peer_start = vec![0u32];
        for c in 0..cells {
            peers.extend_from_slice(g.peers(c));
            peer_start.push(peers.len() as u32);
        }
        let house_cells = g
            .houses()
            .iter()
            .flat_map(|h| h.cells().map(|c| c as u16))
            .collect();
        let all = g.digit_mask();
        let mut cell_houses = Vec::new();
        let mut cell_house_start = vec![0u32];
        for c in 0..cells {
            cell_houses.extend(g.houses_of(c).map(|h| h as u32));
            cell_house_start.push(cell_houses.len() as u32);
        }
        let houses = g.houses().len();
        Engine {
            n,
            all,
            peers,
            peer_start,
            house_cells,
            cell_houses,
            cell_house_start,
            // Every house is looked at once at the start.
            dirty: (0..houses as u32).collect(),
            is_dirty: vec![true; houses],
            cand: vec![all; cells],
            trail: Vec::new(),
            queue: Vec::new(),
        }
    }

    #[inline]
    fn set(&mut self, cell: usize, mask: u64) {
        self.trail.push((cell as u16, self.cand[cell]));
        self.cand[cell] = mask;
        let (a, b) = (
            self.cell_house_start[cell] as usize,
            self.cell_house_start[cell + 1] as usize,
        );
        for k in a..b {
            let h = self.cell_houses[k] as usize;
            if !self.is_dirty[h] {
                self.is_dirty[h] = true;
                self.dirty.push(h as u32);
            }
        }
    }

    /// Back to an earlier, fully propagated state: nothing is pending there.
    fn undo_to(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let (cell, old) = self.trail.pop().expect("trail entry");
            self.cand[cell as usize] = old;
        }
        self.queue.clear();
        for h in self.dirty.drain(..) {
            self.is_dirty[h as usize] = false;
        }
    }

    /// Fixes `cell` to the digit bit `bit`; false on contradiction.
    #[inline]
    fn assign(&mut self, cell: usize, bit: u64) -> bool {
        let m = self.cand[cell];
        if m & bit == 0 {
            return false;
        }
        if m != bit {
            self.set(cell, bit);
            self.queue.push(cell as u16);
        }
        true
    }

    /// Removes the digit bit `bit` from `cell`'s candidates (queueing the cell when one
    /// is left); false when none is left.
    #[inline]
    fn exclude(&mut self, cell: usize, bit: u64) -> bool {
        let m = self.cand[cell];
        if m & bit == 0 {
            return true;
        }
        let left = m & !bit;
        if left == 0 {
            return false;
        }
        self.set(cell, left);
        if left & (left - 1) == 0 {
            self.queue.push(cell as u16);
        }
        true
    }

    /// Naked singles, then hidden singles, until nothing changes; false on contradiction.
    fn propagate(&mut self) -> bool {
        loop {
            while let Some(cell) = self.queue.pop() {
                let cell = cell as usize;
                let bit = self.cand[cell];
                let (a, b) = (
                    self.peer_start[cell] as usize,
                    self.peer_start[cell + 1] as usize,
                );
                for k in a..b {
                    if !self.exclude(self.peers[k] as usize, bit) {
                        return false;
                    }
                }
            }
            let Some(h) = self.dirty.pop() else {
                return true;
            };
            let h = h as usize;
            self.is_dirty[h] = false;
            let (mut once, mut twice, mut fixed) = (0u64, 0u64, 0u64);
            for k in h * self.n..(h + 1) * self.n {
                let m = self.cand[self.house_cells[k] as usize];
                twice |= once & m;
                once |= m;
                if m & (m - 1) == 0 {
                    fixed |= m;
                }
            }
            if once != self.all {
                return false;
            }
            // Placed digits are alone in the house too, but need no placing (looking
            // for their cells was most of the work of filling a 9x9 from empty).
            let mut hidden = once & !twice & !fixed;
            while hidden != 0 {
                let bit = hidden & hidden.wrapping_neg();
                hidden &= hidden - 1;
                for k in h * self.n..(h + 1) * self.n {
                    let cell = self.house_cells[k] as usize;
                    if self.cand[cell] & bit != 0 {
                        if self.cand[cell] != bit && !self.assign(cell, bit) {
                            return false;
                        }
                        break;
                    }
                }
            }
        }
    }

    /// The unfixed cell with the fewest candidates, or `None` when all are fixed.
    fn choose(&self) -> Option<usize> {
        let mut best = None;
        let mut best_len = u32::MAX;
        for (cell, &m) in self.cand.iter().enumerate() {
            let len = m.count_ones();
            if len > 1 && len < best_len {
                best_len = len;
                best = Some(cell);
                if len == 2 {
                    break;
                }
            }
        }
        best
    }

    /// The digits placed (a cell's only candidate) somewhere.
    fn placed_digits(&self) -> u64 {
        self.cand
            .iter()
            .filter(|m| m.count_ones() == 1)
            .fold(0, |acc, m| acc | m)
    }

    fn solution(&self, out: &mut Vec<u8>) {
        out.clear();
        out.extend(self.cand.iter().map(|m| m.trailing_zeros() as u8 + 1));
    }
}

/// One pending choice: the cell, the digits not yet tried, where to undo to, and what
/// each solution below it stands for (see [`count_interchangeable`]).
struct Frame {
    cell: usize,
    left: u64,
    mark: usize,
    /// Solutions each solution below this choice stands for.
    weight: u64,
    /// The one interchangeable digit tried for all of them, and how many it stands for.
    stand_in: u64,
    stand_ins: u64,
}

/// Searches any geometry; see [`super::search`].
pub fn search(grid: &Grid, limits: &Limits, on_solution: &mut dyn FnMut(&[u8]) -> bool) -> Report {
    search_excluding(grid, &[], limits, on_solution)
}

/// [`search`] for the solutions in which no cell holds the digit `excluded` pairs it
/// with (`(cell, digit)`).
pub fn search_excluding(
    grid: &Grid,
    excluded: &[(usize, u8)],
    limits: &Limits,
    on_solution: &mut dyn FnMut(&[u8]) -> bool,
) -> Report {
    run(grid, excluded, limits, 0, None, on_solution)
}

/// A random solution of `grid` within `limits`: [`search`] with each choice's digits
/// tried in random order (the search of [`crate::generate::random_grid`]). The cell is
/// chosen as ever, the first with fewest candidates: choosing at random among those
/// scatters the choices over the grid, and two of three 64x64 draws then ran out of
/// all 32 restarts, where in reading order a run that succeeds needs about one node per
/// cell. The report's `stop` says why it ended without one (exhausted: there is none).
pub fn random_solution(grid: &Grid, limits: &Limits, rng: &mut Rng) -> (Option<Vec<u8>>, Report) {
    let mut found = None;
    let limits = Limits {
        solutions: 1,
        ..*limits
    };
    let report = run(grid, &[], &limits, 0, Some(rng), &mut |cells| {
        found = Some(cells.to_vec());
        false
    });
    (found, report)
}

/// Counts the solutions within `limits` using digit symmetry: digits that appear in no
/// given are interchangeable (relabelling them maps solutions to solutions, whatever
/// the houses), so where a choice could place any of `k` digits that appear nowhere yet,
/// one of them is tried and its solutions count `k` times. The house-based twin of the
/// row engine's symmetry ([`super::rows`]), for the geometries that engine does not
/// take: jigsaw, X, windoku, grids wider than 16. The count may pass
/// `limits.solutions` when it stops there.
pub fn count_interchangeable(grid: &Grid, limits: &Limits) -> Report {
    run(
        grid,
        &[],
        limits,
        interchangeable_digits(grid),
        None,
        &mut |_| true,
    )
}

/// The digits no given uses, as a digit set.
pub fn interchangeable_digits(grid: &Grid) -> u64 {
    let present = grid
        .cells()
        .iter()
        .filter(|&&v| v != 0)
        .fold(0u64, |m, &v| m | 1 << (v - 1));
    grid.geometry().digit_mask() & !present
}

/// The search loop: `interchangeable` digits are tried once for all of them (0: every
/// digit is tried, each solution counts once); with `rng`, digits are tried in random
/// order (see [`random_solution`]); `on_solution` gets each solution found.
fn run(
    grid: &Grid,
    excluded: &[(usize, u8)],
    limits: &Limits,
    interchangeable: u64,
    mut rng: Option<&mut Rng>,
    on_solution: &mut dyn FnMut(&[u8]) -> bool,
) -> Report {
    // Ruling digits out of cells breaks their symmetry.
    debug_assert!(interchangeable == 0 || excluded.is_empty());
    let mut budget = Budget::new(limits);
    let mut solutions = 0u64;
    let report = |solutions, budget: &Budget, stop| Report {
        solutions,
        guesses: budget.nodes(),
        stop,
    };
    if limits.solutions == 0 {
        return report(0, &budget, Stop::SolutionLimit);
    }
    let mut e = Engine::new(grid);
    let _ = e.n;
    for (cell, v) in grid.givens() {
        if !e.assign(cell, 1u64 << (v - 1)) {
            return report(0, &budget, Stop::Exhausted);
        }
    }
    for &(cell, v) in excluded {
        if !e.exclude(cell, 1u64 << (v - 1)) {
            return report(0, &budget, Stop::Exhausted);
        }
    }
    if !e.propagate() {
        return report(0, &budget, Stop::Exhausted);
    }
    let mut stack: Vec<Frame> = Vec::new();
    let mut buffer = Vec::with_capacity(grid.cells().len());
    // What each solution below the current state stands for.
    let mut weight = 1u64;
    loop {
        // Descend: the state is consistent and propagated here.
        match e.choose() {
            None => {
                solutions = solutions.saturating_add(weight);
                e.solution(&mut buffer);
                if !on_solution(&buffer) || solutions >= limits.solutions {
                    return report(solutions, &budget, Stop::SolutionLimit);
                }
            }
            Some(cell) => {
                let mut left = e.cand[cell];
                let (mut stand_in, mut stand_ins) = (0, 1);
                // Interchangeable digits placed nowhere yet: the state is the same
                // under any relabelling of them (it follows from the placements made,
                // none of which uses them), so their subtrees are alike.
                // (Looked at only where two could be: the plain search pays nothing.)
                let unplaced = match left & interchangeable {
                    m if m.count_ones() > 1 => m & !e.placed_digits(),
                    _ => 0,
                };
                if unplaced.count_ones() > 1 {
                    stand_in = unplaced & unplaced.wrapping_neg();
                    stand_ins = unplaced.count_ones() as u64;
                    left &= !unplaced | stand_in;
                }
                stack.push(Frame {
                    cell,
                    left,
                    mark: e.trail.len(),
                    weight,
                    stand_in,
                    stand_ins,
                });
            }
        }
        // Try the next alternative of the innermost choice that has one.
        loop {
            let Some(top) = stack.last_mut() else {
                return report(solutions, &budget, Stop::Exhausted);
            };
            if top.left == 0 {
                stack.pop();
                continue;
            }
            let bit = match rng.as_deref_mut() {
                Some(rng) => rng.pick_bit(top.left),
                None => top.left & top.left.wrapping_neg(),
            };
            top.left &= !bit;
            weight = if bit == top.stand_in {
                top.weight.saturating_mul(top.stand_ins)
            } else {
                top.weight
            };
            let (cell, mark) = (top.cell, top.mark);
            e.undo_to(mark);
            if !budget.node() {
                let stop = budget.stopped().unwrap_or(Stop::NodeLimit);
                return report(solutions, &budget, stop);
            }
            if e.assign(cell, bit) && e.propagate() {
                break;
            }
        }
    }
}
