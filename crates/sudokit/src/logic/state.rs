//! [`State`]: a puzzle in the middle of being solved by logic: the placed values plus the
//! shared [`Candidates`] model, for any geometry.
//!
//! Placed cells keep their value as a single candidate (the model's convention), so every
//! technique skips cells whose value is set; a cell that is empty with one candidate left
//! is a naked single waiting to be placed. Applying a [`Step`] places values (and removes
//! them from the peers, which is the basic rule, not a separate step) and removes
//! eliminated candidates.
//!
//! For speed the state also keeps, for every house and digit, the places of the digit
//! among the house's unplaced cells as a bit mask (bit `i` = the house's `i`-th cell),
//! updated with every change: hidden singles, subsets, intersections and fish then work
//! on masks instead of scanning cells.

use std::sync::Arc;

use crate::geometry::{Cell, Geometry};
use crate::grid::{Candidates, DigitSet, Grid};

use super::Step;

/// Placed values and remaining candidates.
#[derive(Clone)]
pub struct State {
    values: Vec<u8>,
    cands: Candidates,
    /// `pos[h * n + d - 1]`: places of digit `d` among the unplaced cells of house `h`.
    pos: Vec<u64>,
    layout: Arc<Layout>,
    /// The cells placed when the state was made (the givens, as far as it knows):
    /// avoidable rectangles need to tell them from cells solved since.
    given: Arc<[bool]>,
}

impl PartialEq for State {
    fn eq(&self, other: &State) -> bool {
        self.values == other.values && self.cands == other.cands
    }
}

impl Eq for State {}

/// Where each cell sits in each of its houses, and each house's cells.
#[derive(Debug)]
struct Layout {
    /// `slots[slot_start[c]..slot_start[c + 1]]`: (house, index in the house) of cell c.
    slots: Vec<(u32, u8)>,
    slot_start: Vec<u32>,
    /// Cells of each house, in order.
    house_cells: Vec<Vec<Cell>>,
    /// Pairs of houses sharing two or more cells: (a, b, cells of a in b as a mask over
    /// a's cells, the same cells as a mask over b's cells).
    crossings: Vec<(u32, u32, u64, u64)>,
    /// The crossings split by whether `a` is a line and `b` is not (claiming, index 0)
    /// or `a` is not a line (pointing, index 1).
    locks: [Vec<(u32, u32, u64, u64)>; 2],
}

impl Layout {
    /// The layout of `g`: built once for the classic 9x9 grid (rating a puzzle starts
    /// from a fresh state, and building costs more than rating an easy puzzle).
    fn of(g: &Geometry) -> Arc<Layout> {
        static CLASSIC: std::sync::OnceLock<Arc<Layout>> = std::sync::OnceLock::new();
        if g.is_classic() {
            CLASSIC
                .get_or_init(|| Arc::new(Layout::new(&Geometry::classic())))
                .clone()
        } else {
            Arc::new(Layout::new(g))
        }
    }

    fn new(g: &Geometry) -> Layout {
        let house_cells: Vec<Vec<Cell>> = g.houses().iter().map(|h| h.cells().collect()).collect();
        let mut slots = Vec::new();
        let mut slot_start = vec![0u32];
        for c in 0..g.cell_count() {
            for h in g.houses_of(c) {
                let i = house_cells[h]
                    .iter()
                    .position(|&x| x == c)
                    .expect("cell in house");
                slots.push((h as u32, i as u8));
            }
            slot_start.push(slots.len() as u32);
        }
        let mut crossings = Vec::new();
        for (a, ca) in house_cells.iter().enumerate() {
            for (b, cb) in house_cells.iter().enumerate() {
                if a == b {
                    continue;
                }
                let (mut ma, mut mb) = (0u64, 0u64);
                for (i, c) in ca.iter().enumerate() {
                    if let Some(j) = cb.iter().position(|x| x == c) {
                        ma |= 1 << i;
                        mb |= 1 << j;
                    }
                }
                if ma.count_ones() >= 2 {
                    crossings.push((a as u32, b as u32, ma, mb));
                }
            }
        }
        // A diagonal acts as a line; a box, window or region as an area. A lock from an
        // area points (into a line or another area: an X-sudoku's box into its
        // diagonal, a windoku's window into a box); a lock from a line into an area
        // claims. Two lines never share two cells.
        let line = |h: u32| {
            matches!(
                g.houses()[h as usize].kind(),
                crate::HouseKind::Row | crate::HouseKind::Column | crate::HouseKind::Diagonal
            )
        };
        let mut locks = [Vec::new(), Vec::new()];
        for &x in &crossings {
            if !line(x.0) || !line(x.1) {
                locks[!line(x.0) as usize].push(x);
            }
        }
        Layout {
            slots,
            slot_start,
            house_cells,
            crossings,
            locks,
        }
    }
}

impl State {
    /// The state of a fresh puzzle: its givens placed, every other cell holding the
    /// digits no peer holds.
    pub fn from_grid(grid: &Grid) -> State {
        State::build(grid.cells().to_vec(), Candidates::from_grid(grid))
    }

    fn build(values: Vec<u8>, cands: Candidates) -> State {
        let g = cands.geometry().clone();
        let n = g.size();
        let layout = Layout::of(&g);
        let mut pos = vec![0u64; g.houses().len() * n];
        for (c, &v) in values.iter().enumerate() {
            if v != 0 {
                continue;
            }
            for &(h, i) in
                &layout.slots[layout.slot_start[c] as usize..layout.slot_start[c + 1] as usize]
            {
                for d in cands.get(c).iter() {
                    pos[h as usize * n + d as usize - 1] |= 1 << i;
                }
            }
        }
        State {
            given: values.iter().map(|&v| v != 0).collect(),
            values,
            cands,
            pos,
            layout,
        }
    }

    /// A state from a grid's entries and pencil marks for its empty cells: the filled
    /// cells are placed (a given whose digit a peer's marks still hold is not a single
    /// to place again), and each empty cell keeps the marks its placed peers allow.
    pub fn from_entries(grid: &Grid, marks: &Candidates) -> State {
        let mut s = State::from_grid(grid);
        for c in (0..grid.cells().len()).filter(|&c| grid.get(c) == 0) {
            for d in s.cands(c).iter() {
                if !marks.get(c).contains(d) {
                    s.eliminate(c, d);
                }
            }
        }
        s
    }

    /// A state from explicit candidates (a pencil-mark grid). A cell with one candidate
    /// counts as placed unless a peer still has that digit as a candidate (then it is a
    /// naked single still to be placed).
    pub fn from_candidates(cands: Candidates) -> State {
        let g = cands.geometry().clone();
        let values = (0..g.cell_count())
            .map(|cell| match cands.get(cell).single_digit() {
                Some(d)
                    if g.peers(cell)
                        .iter()
                        .all(|&p| !cands.get(p as usize).contains(d)) =>
                {
                    d
                }
                _ => 0,
            })
            .collect();
        State::build(values, cands)
    }

    /// The geometry.
    pub fn geometry(&self) -> &Arc<Geometry> {
        self.cands.geometry()
    }

    /// Side length.
    pub fn size(&self) -> usize {
        self.geometry().size()
    }

    /// The value of a cell, 0 when not placed yet.
    #[inline]
    pub fn value(&self, cell: Cell) -> u8 {
        self.values[cell]
    }

    /// Whether the cell was placed when the state was made (a given, or an entry of a
    /// position taken as one): only cells placed since count as solved.
    #[inline]
    pub fn is_given(&self, cell: Cell) -> bool {
        self.given[cell]
    }

    /// The candidates of an unplaced cell (the empty set for a placed one).
    #[inline]
    pub fn cands(&self, cell: Cell) -> DigitSet {
        if self.values[cell] != 0 {
            DigitSet::EMPTY
        } else {
            self.cands.get(cell)
        }
    }

    /// The shared candidates model (placed cells hold their value).
    pub fn candidates(&self) -> &Candidates {
        &self.cands
    }

    /// The placed values as a grid.
    pub fn grid(&self) -> Grid {
        Grid::from_cells(self.geometry().clone(), self.values.clone()).expect("values fit")
    }

    /// Placed values, row-major.
    pub fn values(&self) -> &[u8] {
        &self.values
    }

    /// Number of unplaced cells.
    pub fn unsolved(&self) -> usize {
        self.values.iter().filter(|&&v| v == 0).count()
    }

    /// Whether every cell is placed.
    pub fn is_solved(&self) -> bool {
        self.values.iter().all(|&v| v != 0)
    }

    /// Whether the state is visibly broken: an unplaced cell without candidates, or a
    /// house where some digit is neither placed nor possible.
    pub fn is_broken(&self) -> bool {
        let g = self.geometry();
        let n = g.size();
        if (0..g.cell_count()).any(|c| self.values[c] == 0 && self.cands.get(c).is_empty()) {
            return true;
        }
        let all = DigitSet::all(n);
        g.houses().iter().any(|h| {
            let mut seen = DigitSet::EMPTY;
            for c in h.cells() {
                seen = seen
                    | if self.values[c] != 0 {
                        DigitSet::single(self.values[c])
                    } else {
                        self.cands.get(c)
                    };
            }
            seen != all
        })
    }

    /// Places `digit` in `cell` and removes it from the peers' candidates.
    pub fn place(&mut self, cell: Cell, digit: u8) {
        for d in self.cands.get(cell).iter() {
            self.clear_pos(cell, d);
        }
        self.values[cell] = digit;
        self.cands.set(cell, DigitSet::single(digit));
        let g = self.cands.geometry().clone();
        for &p in g.peers(cell) {
            self.eliminate(p as usize, digit);
        }
    }

    /// Removes a candidate from an unplaced cell; returns whether it was there.
    pub fn eliminate(&mut self, cell: Cell, digit: u8) -> bool {
        if self.values[cell] == 0 && self.cands.remove(cell, digit) {
            self.clear_pos(cell, digit);
            true
        } else {
            false
        }
    }

    fn clear_pos(&mut self, cell: Cell, digit: u8) {
        let n = self.size();
        let l = &self.layout;
        for &(h, i) in &l.slots[l.slot_start[cell] as usize..l.slot_start[cell + 1] as usize] {
            self.pos[h as usize * n + digit as usize - 1] &= !(1u64 << i);
        }
    }

    /// The places of `digit` among the unplaced cells of house `h`, as a mask over the
    /// house's cells (bit `i` = [`State::house_cells`]`(h)[i]`).
    #[inline]
    pub fn pos(&self, h: usize, digit: u8) -> u64 {
        self.pos[h * self.size() + digit as usize - 1]
    }

    /// Pairs of houses sharing at least two cells, with the shared cells as masks over
    /// each house's cells: `(a, b, in_a, in_b)`.
    pub fn crossings(&self) -> &[(u32, u32, u64, u64)] {
        &self.layout.crossings
    }

    /// The crossings where A is not a line and B is (`pointing`), or A is a line and B
    /// is not, in the order of [`State::crossings`].
    pub fn locks(&self, pointing: bool) -> &[(u32, u32, u64, u64)] {
        &self.layout.locks[pointing as usize]
    }

    /// The cells of house `h`, in order (the bit order of [`State::pos`]).
    #[inline]
    pub fn house_cells(&self, h: usize) -> &[Cell] {
        &self.layout.house_cells[h]
    }

    /// Applies a step: its eliminations, then its placements.
    pub fn apply(&mut self, step: &Step) {
        for &(cell, d) in &step.eliminations {
            self.eliminate(cell, d);
        }
        for &(cell, d) in &step.placements {
            if self.values[cell] == 0 {
                self.place(cell, d);
            }
        }
    }

    /// The positions of `digit` among the unplaced cells of house `h`.
    pub fn positions(&self, h: usize, digit: u8) -> impl Iterator<Item = Cell> + '_ {
        let cells = self.house_cells(h);
        let mut m = self.pos(h, digit);
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

    /// Whether `digit` is placed in house `h`.
    pub fn is_placed_in(&self, h: usize, digit: u8) -> bool {
        self.geometry().houses()[h]
            .cells()
            .any(|c| self.values[c] == digit)
    }
}

impl std::fmt::Debug for State {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "State({:?})", self.grid())
    }
}
