//! Canonical forms: one representative per equivalence class, so that "are these two
//! the same puzzle?" is a comparison of two strings.
//!
//! # The group
//!
//! Two puzzles of box shape `R`x`C` are *equivalent* when a [`Transform`] maps one onto
//! the other: any permutation of the bands and of the rows within each band, of the
//! stacks and of the columns within each stack, any relabelling of the digits, and, for
//! square boxes (2x2, 3x3, 4x4, ...), transposition (hence also the quarter turns and
//! the diagonal reflections). For rectangular boxes (2x3, 3x4, ...) transposition is
//! **not** in the group: it turns `R`x`C` boxes into `C`x`R` boxes, a different shape, so
//! a 2x3 puzzle and its transpose (a 3x2 puzzle) are never compared. Half turns and
//! flips are band and stack reversals, so every shape has them.
//! [`crate::transform::group_order`] gives the group's size (1,218,998,108,160 for 9x9).
//!
//! # The canonical form
//!
//! The *minlex* form: of all the grids equivalent to the input, the one whose cells,
//! read row by row as a string with 0 for an empty cell, is lexicographically smallest.
//! Its digits appear in order of first appearance (1 first, then 2, ...), so relabelling
//! is never searched: for a fixed arrangement of cells the smallest labelling is "number
//! the digits as they first appear". The same definition serves puzzles and complete
//! grids (a complete 9x9 grid's form starts `123456789`). Published counts this
//! reproduces (see the tests): the 288 complete 4x4 grids form 2 classes, the 28,200,960
//! complete 6x6 (2x3) grids 49 classes. For 9x9 there are 5,472,730,538 essentially
//! different complete grids (Russell and Jarvis, 2006): a count no enumeration here can
//! reach, but every one of them has exactly one canonical form under this definition.
//!
//! Some published collections use another minlex, one that minimises the pattern of
//! givens first and the digits second (Dobrichev's minlexing tool): the 17-clue
//! collection is printed that way, and 1,505 of its 49,158 lines have an equivalent
//! string that is smaller digit by digit. For complete grids the two definitions agree.
//!
//! # The search
//!
//! The form is built row by row. A *state* is a partial transformation that produces
//! the smallest prefix found so far: transposition, the input rows chosen for the
//! canonical rows so far, the stacks placed so far, and the columns as an *ordered
//! partition*: columns still interchangeable (equal on every row so far, up to the
//! labels the partition itself decides) share a cell and are not ordered yet. Each step
//! tries every input row the band structure allows in every surviving state, fills the
//! next canonical row left to right, and keeps only the states whose row equals the
//! smallest one seen (a branch is dropped at its first cell that is larger: the pruning
//! that makes this fast). Within a row, a cell's columns sort themselves: empty cells
//! first (they stay one cell), then digits seen before in increasing label order (which
//! decides a column, and the column where that digit first appeared), then new digits,
//! which get the next labels and stay one cell whose labels follow its eventual order.
//! Three refinements keep ties from multiplying:
//!
//! * stacks are placed only when a row tells them apart: a row that is empty, or all
//!   new digits, across the unplaced stacks leaves their order open (so an empty row,
//!   and a complete grid's first row, cost one state, not one per stack order);
//! * a run of tied columns whose digits first appeared in one cell does not branch: the
//!   run and those first columns become two *linked* cells whose orders stay equal;
//! * completely empty rows, bands and stacks are interchangeable and searched once, with
//!   a multiplicity.
//!
//! The states that survive the last row are exactly the transformations onto the
//! canonical form, counted with their multiplicities and the orderings of the cells
//! left over; their number is the size of the puzzle's stabiliser (its automorphisms).
//! The search is exact for every shape; sparse grids of many stacks (8x8 boxes) are the
//! slow case, since rows that tell stacks apart one by one branch over stack orders.

mod latin;
mod variant;

use std::cmp::Ordering;

use crate::geometry::Geometry;
use crate::grid::Grid;
use crate::shape::Shape;
use crate::transform::Transform;

/// A puzzle's canonical form, the transformation that produces it, and its symmetry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Canonical {
    /// The canonical (minlex) representative.
    pub grid: Grid,
    /// A transformation mapping the input onto `grid`.
    pub transform: Transform,
    /// The size of the input's stabiliser: how many transformations map it onto itself
    /// (1 for an asymmetric puzzle), or `None` when it exceeds `u128::MAX` (nearly empty
    /// grids of 25x25 and beyond).
    pub automorphisms: Option<u128>,
}

/// Why a grid has no canonical form here.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CanonError {
    /// A variant without a canonical form here (sides above 9, Latin puzzles without a
    /// unique solution).
    #[error("no canonical form for a {0} grid: {1}")]
    Variant(String, String),
    /// Two givens break the rules.
    #[error("{0}")]
    Conflict(String),
    /// So many partial transformations tie that the search would exhaust memory (highly
    /// symmetric complete grids of 36x36 and beyond).
    #[error(
        "more than {MAX_STATES} partial transformations tie at one row: this grid is too symmetric for the canonical search"
    )]
    TooSymmetric,
}

/// The most tied states one row may keep (tens of megabytes for the largest sides); no
/// 9x9, 16x16 or 25x25 grid comes near it.
pub const MAX_STATES: usize = 1 << 16;

/// The canonical form of a puzzle or complete grid.
///
/// Variants (X-sudoku, windoku, jigsaw, Latin squares with diagonals) take the part of
/// the group that keeps their houses, when it is not too large to run through (see
/// `canon/variant.rs`); Latin squares up to order 10 with a unique solution go through
/// it (see `canon/latin.rs`).
pub fn canonical(grid: &Grid) -> Result<Canonical, CanonError> {
    let g = grid.geometry();
    if let Some(c) = grid.first_conflict() {
        return Err(CanonError::Conflict(c.describe(g)));
    }
    let shape = match g.shape() {
        Some(s) if g.is_standard() => s,
        None if g.variant().is_latin_square() => return latin::canonical(grid),
        // A jigsaw whose regions are boxes is a sudoku: its whole group, far too large
        // to run through (9x9: 3.4 million maps), is the one the search below knows.
        _ => match variant::boxes_of_jigsaw(g) {
            Some(s) => s,
            None => return variant::canonical(grid),
        },
    };
    let n = shape.size();
    if n <= 9 {
        Search::<9>::new(shape, grid.cells()).run(g)
    } else if n <= 16 {
        Search::<16>::new(shape, grid.cells()).run(g)
    } else if n <= 32 {
        Search::<32>::new(shape, grid.cells()).run(g)
    } else {
        Search::<64>::new(shape, grid.cells()).run(g)
    }
}

/// A uniformly random member of the equivalence group of a grid's geometry (for a
/// variant, the part of its shape's group that keeps its houses), drawing from
/// `next_u64`; an error where [`canonical`] has none.
pub fn random_transform(
    grid: &Grid,
    next_u64: &mut dyn FnMut() -> u64,
) -> Result<Transform, CanonError> {
    let g = grid.geometry();
    match g.shape() {
        Some(shape) if g.is_standard() => Ok(Transform::random(shape, next_u64)),
        // A Latin square: any rows, any columns (bands of one row), transposed or not.
        None if g.variant().is_latin_square() => {
            let shape = Shape::new(1, g.size()).expect("a geometry's side");
            let t = Transform::random(shape, next_u64);
            Ok(if next_u64() & 1 == 1 {
                t.then(&Transform::transposition(shape).expect("1xN transposes"))
            } else {
                t
            })
        }
        _ => match variant::boxes_of_jigsaw(g) {
            Some(shape) => Ok(Transform::random(shape, next_u64)),
            None => variant::random(g, next_u64),
        },
    }
}

/// Whether two puzzles are equivalent; if so, a transformation mapping `a` onto `b`.
pub fn equivalence(a: &Grid, b: &Grid) -> Result<Option<Transform>, CanonError> {
    equivalence_by(a, b, &|| canonical(a), &|| canonical(b))
}

/// [`equivalence`] with the canonical forms made (only when needed) by `ca` and `cb`,
/// for a caller that shows them too. Puzzles of different geometries are never
/// equivalent and a puzzle is equivalent to itself, whether or not their geometry has
/// canonical forms (a Latin square of order 11 has none here).
pub fn equivalence_by(
    a: &Grid,
    b: &Grid,
    ca: &dyn Fn() -> Result<Canonical, CanonError>,
    cb: &dyn Fn() -> Result<Canonical, CanonError>,
) -> Result<Option<Transform>, CanonError> {
    if a.geometry() != b.geometry() {
        return Ok(None);
    }
    if a == b && a.first_conflict().is_none() {
        return Ok(Some(identity(a)));
    }
    let (ca, cb) = (ca()?, cb()?);
    Ok((ca.grid == cb.grid).then(|| ca.transform.then(&cb.transform.inverse())))
}

/// The transformation that leaves every puzzle of `grid`'s geometry as it is.
fn identity(grid: &Grid) -> Transform {
    let shape = grid.geometry().shape().unwrap_or_else(|| {
        // A Latin square moves as a sudoku of 1xN boxes (see [`random_transform`]).
        Shape::new(1, grid.size()).expect("a geometry's side")
    });
    Transform::identity(shape)
}

const NONE: u8 = u8::MAX;

/// One partial transformation (see the module documentation). `N` bounds the side, so
/// the 9x9 search copies small fixed arrays.
#[derive(Clone, Copy)]
struct State<const N: usize> {
    transposed: bool,
    /// Labels handed out so far.
    labels: u8,
    /// Stack slots `0..placed_slots` hold their final stacks; the stacks in the slots
    /// after them are still interchangeable (every row so far was empty, or all new
    /// digits, across them), so their order is left open.
    placed_slots: u8,
    used_rows: u64,
    used_bands: u64,
    /// Bit `p` set: position `p` starts a cell; bit `n` is a sentinel (when `n < 64`).
    cell_start: u64,
    /// How many equivalent paths this state stands for (empty rows, bands, stacks).
    weight: u128,
    rows: [u8; N],
    col_at: [u8; N],
    pos_of: [u8; N],
    /// For digit `d` (index `d - 1`): the column where it first appeared, or `NONE`.
    origin: [u8; N],
    /// Its label is `pos_of[origin] + offset`: a group of new digits takes consecutive
    /// labels in the order its columns end up in.
    offset: [i8; N],
    /// Linked columns: two cells of equal size whose orders must match (column `j` of
    /// one goes with column `j` of the other), or `NONE`. A tie between columns whose
    /// digits first appeared in columns of one cell links them instead of branching.
    mate: [u8; N],
}

impl<const N: usize> State<N> {
    /// First position of the cell holding position `p`.
    #[inline]
    fn cell_first(&self, p: usize) -> usize {
        let below = self.cell_start & (u64::MAX >> (63 - p));
        63 - below.leading_zeros() as usize
    }

    /// First position after the cell starting at `p`.
    #[inline]
    fn cell_end(&self, p: usize, n: usize) -> usize {
        if p + 1 >= 64 {
            return n;
        }
        let above = self.cell_start & (u64::MAX << (p + 1));
        (above.trailing_zeros() as usize).min(n)
    }

    #[inline]
    fn split_at(&mut self, p: usize) {
        if p < 64 {
            self.cell_start |= 1 << p;
        }
    }

    #[inline]
    fn put(&mut self, col: u8, p: usize) {
        let from = self.pos_of[col as usize] as usize;
        let other = self.col_at[p];
        self.col_at[p] = col;
        self.col_at[from] = other;
        self.pos_of[col as usize] = p as u8;
        self.pos_of[other as usize] = from as u8;
    }

    /// Where the partner of the cell starting at `start` starts, if it is linked.
    #[inline]
    fn partner(&self, start: usize) -> Option<usize> {
        let m = self.mate[self.col_at[start] as usize];
        (m != NONE).then(|| self.pos_of[m as usize] as usize)
    }

    /// [`State::put`] that keeps a linked cell's partner in step.
    #[inline]
    fn put_linked(&mut self, col: u8, q: usize) {
        let m = self.mate[col as usize];
        if m == NONE {
            return self.put(col, q);
        }
        let start = self.cell_first(q);
        let partner = self.partner(start).expect("linked cells have partners");
        self.put(col, q);
        self.put(m, partner + q - start);
    }

    /// Makes `q` start a cell (no-op at `n` or at a cell start), splitting a linked
    /// cell's partner at the same place.
    #[inline]
    fn split(&mut self, q: usize, n: usize) {
        if q >= n || self.cell_start >> q & 1 == 1 {
            return;
        }
        let start = self.cell_first(q);
        let partner = self.partner(start);
        self.split_at(q);
        if let Some(ps) = partner {
            self.split_at(ps + q - start);
        }
    }

    /// Moves the stack now in slot `from` to slot `to` (both unplaced), with its cells.
    fn swap_slots(&mut self, from: usize, to: usize, width: usize) {
        if from == to {
            return;
        }
        for j in 0..width {
            let (a, b) = (from * width + j, to * width + j);
            self.col_at.swap(a, b);
            self.pos_of[self.col_at[a] as usize] = a as u8;
            self.pos_of[self.col_at[b] as usize] = b as u8;
        }
        let mask = (1u64 << width) - 1;
        let (fa, ta) = (
            self.cell_start >> (from * width) & mask,
            self.cell_start >> (to * width) & mask,
        );
        self.cell_start &= !(mask << (from * width)) & !(mask << (to * width));
        self.cell_start |= fa << (to * width) | ta << (from * width);
    }

    /// Puts the stack now in slot `from` in the first unplaced slot.
    fn place_stack(&mut self, from: usize, width: usize, stacks: usize) {
        let to = self.placed_slots as usize;
        self.swap_slots(from, to, width);
        self.placed_slots += 1;
        if self.placed_slots as usize + 1 == stacks {
            self.placed_slots += 1;
        }
    }

    fn cells_factorial(&self, n: usize) -> Option<u128> {
        let mut total = 1u128;
        let mut p = 0;
        while p < n {
            let e = self.cell_end(p, n);
            // A linked pair of cells has one order between them.
            if self.partner(p).is_none_or(|ps| ps > p) {
                total = total.checked_mul(factorial(e - p)?)?;
            }
            p = e;
        }
        Some(total)
    }
}

fn factorial(k: usize) -> Option<u128> {
    (1..=k as u128).try_fold(1u128, |a, b| a.checked_mul(b))
}

/// The row-by-row search for one grid.
struct Search<const N: usize> {
    shape: Shape,
    n: usize,
    /// The grid, and its transpose for square boxes.
    mats: Vec<u8>,
    /// How many matrices (2 with the transpose).
    orientations: usize,
    /// Per matrix: bit `r` set when row `r` is empty.
    empty_rows: [u64; 2],
    /// Per matrix: bit `s` set when stack `s` is empty.
    empty_stacks: [u64; 2],
    /// The stack slot of each position.
    slot_of: [u8; 64],
    /// The smallest row found at the current level.
    best: [u8; N],
    has_best: bool,
    /// Bumped whenever `best` changes, so sibling branches know their prefix now equals it.
    version: u64,
    row: [u8; N],
    /// The input row being tried, and what it stands for.
    src: [u8; N],
    src_row: u8,
    multiplicity: u128,
    level: usize,
    children: Vec<State<N>>,
    overflow: bool,
    /// More than [`MAX_STATES`] children: the search gives up.
    too_many: bool,
}

impl<const N: usize> Search<N> {
    fn new(shape: Shape, cells: &[u8]) -> Search<N> {
        let n = shape.size();
        let orientations = if shape.box_rows() == shape.box_cols() {
            2
        } else {
            1
        };
        let mut mats = Vec::with_capacity(orientations * n * n);
        mats.extend_from_slice(cells);
        if orientations == 2 {
            mats.extend((0..n * n).map(|k| cells[(k % n) * n + k / n]));
        }
        let width = shape.box_cols();
        let mut empty_rows = [0u64; 2];
        let mut empty_stacks = [0u64; 2];
        for t in 0..orientations {
            let m = &mats[t * n * n..(t + 1) * n * n];
            let (mut rows, mut stacks) = (u64::MAX, u64::MAX);
            for (k, &v) in m.iter().enumerate() {
                if v != 0 {
                    rows &= !(1 << (k / n));
                    stacks &= !(1 << (k % n / width));
                }
            }
            empty_rows[t] = rows;
            empty_stacks[t] = stacks;
        }
        Search {
            shape,
            n,
            mats,
            orientations,
            empty_rows,
            empty_stacks,
            slot_of: std::array::from_fn(|p| (p / width) as u8),
            best: [0; N],
            has_best: false,
            version: 0,
            row: [0; N],
            src: [0; N],
            src_row: 0,
            multiplicity: 1,
            level: 0,
            children: Vec::with_capacity(32),
            overflow: false,
            too_many: false,
        }
    }

    /// One state per transposition, every stack still unplaced.
    fn roots(&self) -> Vec<State<N>> {
        let (n, stacks, width) = (self.n, self.shape.box_rows(), self.shape.box_cols());
        (0..self.orientations)
            .map(|t| {
                let mut st = State::<N> {
                    transposed: t == 1,
                    labels: 0,
                    placed_slots: if stacks == 1 { 1 } else { 0 },
                    used_rows: 0,
                    used_bands: 0,
                    cell_start: 0,
                    weight: 1,
                    rows: [0; N],
                    col_at: [0; N],
                    pos_of: [0; N],
                    origin: [NONE; N],
                    offset: [0; N],
                    mate: [NONE; N],
                };
                for c in 0..n {
                    st.col_at[c] = c as u8;
                    st.pos_of[c] = c as u8;
                }
                for slot in 0..stacks {
                    st.split_at(slot * width);
                }
                st.split_at(n);
                st
            })
            .collect()
    }

    fn run(mut self, geometry: &std::sync::Arc<Geometry>) -> Result<Canonical, CanonError> {
        let n = self.n;
        let (height, bands) = (self.shape.box_rows(), self.shape.box_cols());
        let mut states = self.roots();
        let mut canon = Vec::with_capacity(n * n);
        let mut candidates: Vec<(u8, u128)> = Vec::with_capacity(n);
        let mut work: Vec<(u32, u8, u128)> = Vec::with_capacity(64);
        for level in 0..n {
            self.level = level;
            self.has_best = false;
            self.children.clear();
            work.clear();
            for (index, st) in states.iter().enumerate() {
                candidates.clear();
                let empty = self.empty_rows[st.transposed as usize];
                let mut push_band = |band: usize, mult: u128, used: u64| {
                    let rows = (band * height..(band + 1) * height).filter(|r| used & 1 << r == 0);
                    let empties = rows.clone().filter(|r| empty & 1 << r != 0).count() as u128;
                    let mut empty_done = false;
                    for r in rows {
                        if empty & 1 << r != 0 {
                            if !std::mem::replace(&mut empty_done, true) {
                                candidates.push((r as u8, mult * empties));
                            }
                        } else {
                            candidates.push((r as u8, mult));
                        }
                    }
                };
                if level % height == 0 {
                    let band_empty = |b: usize| {
                        (empty >> (b * height)) & ((1 << height) - 1) == (1 << height) - 1
                    };
                    let free: Vec<usize> =
                        (0..bands).filter(|b| st.used_bands & 1 << b == 0).collect();
                    let empty_bands = free.iter().filter(|&&b| band_empty(b)).count() as u128;
                    let mut empty_done = false;
                    for &b in &free {
                        if band_empty(b) {
                            if !std::mem::replace(&mut empty_done, true) {
                                push_band(b, empty_bands, st.used_rows);
                            }
                        } else {
                            push_band(b, 1, st.used_rows);
                        }
                    }
                } else {
                    let band = st.rows[level - level % height] as usize / height;
                    push_band(band, 1, st.used_rows);
                }
                work.extend(candidates.iter().map(|&(r, mult)| (index as u32, r, mult)));
            }
            for &(index, r, mult) in &work {
                let st = &states[index as usize];
                let (t, r_us) = (st.transposed as usize, r as usize);
                let (src, mats) = (&mut self.src, &self.mats);
                let row = (t * n + r_us) * n;
                src[..n].copy_from_slice(&mats[row..row + n]);
                self.src_row = r;
                self.multiplicity = mult;
                let less = !self.has_best;
                self.emit(*st, 0, less);
            }
            if self.too_many {
                return Err(CanonError::TooSymmetric);
            }
            std::mem::swap(&mut states, &mut self.children);
            canon.extend_from_slice(&self.best[..n]);
        }
        let first = states[0];
        let mut automorphisms = Some(0u128);
        for st in &states {
            let unused = factorial(n - st.labels as usize)
                .zip(factorial(self.shape.box_rows() - st.placed_slots as usize))
                .and_then(|(a, b)| a.checked_mul(b));
            let count = st
                .cells_factorial(n)
                .zip(unused)
                .and_then(|(a, b)| a.checked_mul(b))
                .and_then(|x| x.checked_mul(st.weight));
            automorphisms = automorphisms.zip(count).and_then(|(a, b)| a.checked_add(b));
        }
        if self.overflow {
            automorphisms = None;
        }
        Ok(Canonical {
            grid: Grid::from_cells(geometry.clone(), canon).expect("canonical grid fits"),
            transform: self.transform_of(&first),
            automorphisms,
        })
    }

    fn transform_of(&self, st: &State<N>) -> Transform {
        let n = self.n;
        let mut digits = vec![0u8; n];
        let mut taken = vec![false; n + 1];
        for (d, digit) in digits.iter_mut().enumerate() {
            if st.origin[d] != NONE {
                let label = st.pos_of[st.origin[d] as usize] as i16 + st.offset[d] as i16;
                *digit = label as u8;
                taken[label as usize] = true;
            }
        }
        // Digits the grid lacks take the labels left over, in order.
        let mut free = (1..=n as u8).filter(|&l| !taken[l as usize]);
        for d in digits.iter_mut().filter(|d| **d == 0) {
            *d = free.next().expect("as many labels as digits");
        }
        Transform::from_valid_parts(
            self.shape,
            st.transposed,
            st.rows[..n].to_vec(),
            st.col_at[..n].to_vec(),
            digits,
        )
    }

    /// Fills the current row from position `p` on. `less`: the row so far is already
    /// smaller than `best` (or there is no best yet).
    fn emit(&mut self, mut st: State<N>, mut p: usize, mut less: bool) {
        let n = self.n;
        let (width, stacks) = (self.shape.box_cols(), self.shape.box_rows());
        'fill: loop {
            if self.too_many {
                return;
            }
            if p == n {
                self.finish(st, less);
                return;
            }
            let placed = st.placed_slots as usize;
            if p == placed * width && placed < stacks {
                // The unplaced stacks stay unordered through a row that is empty, or all
                // new digits, across all of them; otherwise the next slot is chosen here.
                let (mut zeros, mut news) = (0, 0);
                for q in p..n {
                    let v = self.src[st.col_at[q] as usize];
                    if v == 0 {
                        zeros += 1;
                    } else if st.origin[v as usize - 1] == NONE {
                        news += 1;
                    }
                }
                if zeros == n - p {
                    if !less && self.best[p..n].iter().any(|&b| b > 0) {
                        less = true;
                    }
                    self.row[p..n].fill(0);
                    p = n;
                    continue;
                }
                if news == n - p {
                    if !self.emit_new(&mut st, p, n, &mut less) {
                        return;
                    }
                    p = n;
                    continue;
                }
                let empty = self.empty_stacks[st.transposed as usize];
                let slot_of = self.slot_of;
                let stack_at =
                    |st: &State<N>, slot: usize| slot_of[st.col_at[slot * width] as usize] as usize;
                let empties = (placed..stacks)
                    .filter(|&s| empty >> stack_at(&st, s) & 1 == 1)
                    .count();
                let mut tries = [0u8; 64];
                let mut count = 0;
                let mut empty_taken = false;
                for slot in placed..stacks {
                    if empty >> stack_at(&st, slot) & 1 == 1
                        && std::mem::replace(&mut empty_taken, true)
                    {
                        continue;
                    }
                    tries[count] = slot as u8;
                    count += 1;
                }
                let version = self.version;
                for (i, &slot) in tries[..count].iter().enumerate() {
                    let mut child = st;
                    if empty >> stack_at(&st, slot as usize) & 1 == 1 {
                        // Empty stacks are interchangeable: one stands for all.
                        match child.weight.checked_mul(empties as u128) {
                            Some(w) => child.weight = w,
                            None => self.overflow = true,
                        }
                    }
                    child.place_stack(slot as usize, width, stacks);
                    let child_less = less && self.version == version;
                    if i + 1 == count {
                        st = child;
                        less = child_less;
                        continue 'fill;
                    }
                    self.emit(child, p, child_less);
                }
                return;
            }
            let end = st.cell_end(p, n);
            if end == p + 1 {
                // A decided column: its value needs no choice, unless its digit's first
                // column is still undecided.
                let v = self.src[st.col_at[p] as usize];
                let val = if v == 0 {
                    Some(0)
                } else {
                    let o = st.origin[v as usize - 1];
                    if o == NONE {
                        None
                    } else {
                        let po = st.pos_of[o as usize] as usize;
                        (st.cell_start >> po & 1 == 1
                            && st.cell_end(po, n) == po + 1
                            && (self.slot_of[po] as usize) < placed)
                            .then(|| (po as i16 + st.offset[v as usize - 1] as i16) as u8)
                    }
                };
                if let Some(val) = val {
                    if !less {
                        match val.cmp(&self.best[p]) {
                            Ordering::Greater => return,
                            Ordering::Less => less = true,
                            Ordering::Equal => {}
                        }
                    }
                    self.row[p] = val;
                    p += 1;
                    continue;
                }
            }
            let new_label = st.labels + 1;
            // Where the column holding a digit's first appearance can go at the earliest:
            // the first position of its cell (after `p` if that cell is this one), or the
            // first unplaced slot for a column of an unplaced stack.
            let slot_of = &self.slot_of;
            // The partner of this cell, if linked: putting a column at `p` puts its mate
            // at the partner's start.
            let partner = st.partner(p);
            let earliest = |st: &State<N>, c: u8, o: usize| -> usize {
                let po = st.pos_of[o] as usize;
                let first = st.cell_first(po);
                let slot = slot_of[po] as usize;
                if slot >= placed {
                    placed * width + first - slot * width
                } else if first == p {
                    p + 1
                } else if Some(first) == partner && st.mate[c as usize] != o as u8 {
                    first + 1
                } else {
                    first
                }
            };
            // The smallest value this cell can put at `p`, and the columns that give it
            // (with, for a digit seen before, where its first column goes).
            let mut vmin = u8::MAX;
            // The smallest value above `vmin`.
            let mut next = u8::MAX;
            let mut zeros = 0;
            let mut ties = 0;
            let mut tied = [(0u8, 0u8, 0u8); N];
            for q in p..end {
                let c = st.col_at[q];
                let v = self.src[c as usize];
                let (val, o, at) = if v == 0 {
                    zeros += 1;
                    (0, 0, 0)
                } else {
                    let o = st.origin[v as usize - 1];
                    if o == NONE {
                        (new_label, 0, 0)
                    } else {
                        let at = earliest(&st, c, o as usize);
                        (
                            (at as i16 + st.offset[v as usize - 1] as i16) as u8,
                            o,
                            at as u8,
                        )
                    }
                };
                if val < vmin {
                    next = vmin;
                    vmin = val;
                    ties = 0;
                } else if val > vmin && val < next {
                    next = val;
                }
                if val == vmin {
                    tied[ties] = (c, o, at);
                    ties += 1;
                }
            }
            if vmin == 0 {
                // Empty cells first, still interchangeable.
                if !less && self.best[p..p + zeros].iter().any(|&b| b > 0) {
                    less = true;
                }
                self.row[p..p + zeros].fill(0);
                if zeros < end - p {
                    for (w, &(c, _, _)) in tied[..zeros].iter().enumerate() {
                        st.put_linked(c, p + w);
                    }
                    st.split(p + zeros, n);
                }
                p += zeros;
                continue;
            }
            if vmin == new_label {
                // Every column brings a new digit: consecutive labels, order left open.
                if !self.emit_new(&mut st, p, end, &mut less) {
                    return;
                }
                p = end;
                continue;
            }
            // A digit seen before: the column at `p`, and the column where the digit first
            // appeared, are decided.
            if !less {
                match vmin.cmp(&self.best[p]) {
                    Ordering::Greater => return,
                    Ordering::Less => less = true,
                    Ordering::Equal => {}
                }
            }
            self.row[p] = vmin;
            if ties == 1 {
                // No choice: the column, and its digit's first column, are decided.
                let (c, o, at) = tied[0];
                st.put_linked(c, p);
                st.split(p + 1, n);
                let at = at as usize;
                let slot = self.slot_of[st.pos_of[o as usize] as usize] as usize;
                if slot >= placed {
                    st.place_stack(slot, width, stacks);
                }
                if st.pos_of[o as usize] as usize != at || st.cell_end(at, n) != at + 1 {
                    st.put_linked(o, at);
                    st.split(at, n);
                    st.split(at + 1, n);
                }
                p += 1;
                continue;
            }
            // Tied columns whose digits first appeared in one cell form a group. A group
            // of two or more, none linked, need not branch: whichever goes first, the
            // others follow with the next labels (values only grow as positions fill,
            // so nothing else can take one of the group's values when the next smallest
            // is beyond them); it and its first columns become two linked cells.
            let mut actions = [(0u8, 0u8); N]; // (first tie index, group size; 0 = single)
            let mut count = 0;
            let mut group_of = [u8::MAX; N];
            for i in 0..ties {
                if group_of[i] != u8::MAX {
                    continue;
                }
                let cell = |o: u8| st.cell_first(st.pos_of[o as usize] as usize);
                let y = cell(tied[i].1);
                let mut k = 0;
                let mut linkable = partner.is_none() && y != p && st.partner(y).is_none();
                for j in i..ties {
                    if cell(tied[j].1) == y {
                        group_of[j] = i as u8;
                        k += 1;
                        linkable &= st.mate[tied[j].0 as usize] == NONE;
                    }
                }
                if k > 1 && linkable && next as usize > vmin as usize + k - 1 {
                    actions[count] = (i as u8, k as u8);
                    count += 1;
                } else {
                    for (j, &g) in group_of.iter().enumerate().take(ties).skip(i) {
                        if g == i as u8 {
                            actions[count] = (j as u8, 0);
                            count += 1;
                        }
                    }
                }
            }
            let version = self.version;
            for (a, &(i, k)) in actions[..count].iter().enumerate() {
                let last = a + 1 == count;
                let mut child = st;
                let mut child_less = less && self.version == version;
                let step;
                if k > 0 {
                    let (_, o0, at0) = tied[i as usize];
                    let slot = self.slot_of[child.pos_of[o0 as usize] as usize] as usize;
                    if slot >= placed {
                        child.place_stack(slot, width, stacks);
                    }
                    let at0 = at0 as usize;
                    let mut j = 0;
                    for (g, &(c, o, _)) in tied[..ties].iter().enumerate() {
                        if group_of[g] != i {
                            continue;
                        }
                        child.put(c, p + j);
                        child.put(o, at0 + j);
                        child.mate[c as usize] = o;
                        child.mate[o as usize] = c;
                        j += 1;
                    }
                    let k = k as usize;
                    child.split_at(at0);
                    child.split_at(p + k);
                    child.split_at(at0 + k);
                    let mut lost = false;
                    for j in 1..k {
                        let val = vmin + j as u8;
                        if !child_less {
                            match val.cmp(&self.best[p + j]) {
                                Ordering::Greater => {
                                    lost = true;
                                    break;
                                }
                                Ordering::Less => child_less = true,
                                Ordering::Equal => {}
                            }
                        }
                        self.row[p + j] = val;
                    }
                    if lost {
                        if last {
                            return;
                        }
                        continue;
                    }
                    step = k;
                } else {
                    let (c, o, at) = tied[i as usize];
                    child.put_linked(c, p);
                    child.split(p + 1, n);
                    let at = at as usize;
                    let slot = self.slot_of[child.pos_of[o as usize] as usize] as usize;
                    if slot >= placed {
                        child.place_stack(slot, width, stacks);
                    }
                    if child.pos_of[o as usize] as usize != at || child.cell_end(at, n) != at + 1 {
                        child.put_linked(o, at);
                        child.split(at, n);
                        child.split(at + 1, n);
                    }
                    step = 1;
                }
                if last {
                    st = child;
                    less = child_less;
                    p += step;
                    continue 'fill;
                }
                self.emit(child, p + step, child_less);
            }
            return;
        }
    }

    /// Positions `p..end` all bring new digits: they take the next labels in position
    /// order, whatever order their columns end in. False when that loses to `best`.
    fn emit_new(&mut self, st: &mut State<N>, p: usize, end: usize, less: &mut bool) -> bool {
        let new_label = st.labels + 1;
        for q in p..end {
            let val = new_label + (q - p) as u8;
            if !*less {
                match val.cmp(&self.best[q]) {
                    Ordering::Greater => return false,
                    Ordering::Less => *less = true,
                    Ordering::Equal => {}
                }
            }
            self.row[q] = val;
            let v = self.src[st.col_at[q] as usize] as usize;
            st.origin[v - 1] = st.col_at[q];
            st.offset[v - 1] = (new_label as i16 - p as i16) as i8;
        }
        st.labels += (end - p) as u8;
        true
    }

    fn finish(&mut self, mut st: State<N>, less: bool) {
        let r = self.src_row as usize;
        let height = self.shape.box_rows();
        st.rows[self.level] = self.src_row;
        st.used_rows |= 1 << r;
        st.used_bands |= 1 << (r / height);
        match st.weight.checked_mul(self.multiplicity) {
            Some(w) => st.weight = w,
            None => self.overflow = true,
        }
        if less || !self.has_best {
            self.best = self.row;
            self.has_best = true;
            self.version += 1;
            self.children.clear();
        }
        self.children.push(st);
        self.too_many |= self.children.len() > MAX_STATES;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_grid;
    use crate::perm::all_permutations as permutations;
    use crate::solve;
    use crate::transform::group_order;
    use proptest::prelude::*;

    /// Every band-preserving permutation of `0..blocks*size` (blocks of `size`).
    fn block_perms(blocks: usize, size: usize) -> Vec<Vec<usize>> {
        let mut out = Vec::new();
        for outer in permutations(blocks) {
            let mut acc = vec![Vec::new()];
            for &b in &outer {
                let mut next = Vec::new();
                for prefix in &acc {
                    for inner in permutations(size) {
                        let mut p: Vec<usize> = prefix.clone();
                        p.extend(inner.iter().map(|&i| b * size + i));
                        next.push(p);
                    }
                }
                acc = next;
            }
            out.extend(acc);
        }
        out
    }

    /// The oracle: every geometric transformation written out by index arithmetic, each
    /// relabelled by first appearance; the smallest string, and how many transformations
    /// reach it (times the relabellings of the digits the grid lacks).
    fn brute_force(grid: &Grid) -> (Vec<u8>, u128) {
        let shape = grid.geometry().shape().unwrap();
        let (r, c, n) = (shape.box_rows(), shape.box_cols(), shape.size());
        let cells = grid.cells();
        let rows = block_perms(c, r);
        let cols = block_perms(r, c);
        let mut best: Option<Vec<u8>> = None;
        let mut hits = 0u128;
        for t in 0..if r == c { 2 } else { 1 } {
            for rp in &rows {
                for cp in &cols {
                    let mut label = vec![0u8; n + 1];
                    let mut next = 0;
                    let s: Vec<u8> = (0..n * n)
                        .map(|k| {
                            let (i, j) = (rp[k / n], cp[k % n]);
                            let v = if t == 1 {
                                cells[j * n + i]
                            } else {
                                cells[i * n + j]
                            };
                            if v != 0 && label[v as usize] == 0 {
                                next += 1;
                                label[v as usize] = next;
                            }
                            label[v as usize]
                        })
                        .collect();
                    match best.as_ref().map(|b| s.cmp(b)) {
                        None | Some(Ordering::Less) => {
                            best = Some(s);
                            hits = 1;
                        }
                        Some(Ordering::Equal) => hits += 1,
                        _ => {}
                    }
                }
            }
        }
        let used = cells
            .iter()
            .filter(|&&v| v != 0)
            .collect::<std::collections::HashSet<_>>()
            .len();
        (best.unwrap(), hits * factorial(n - used).unwrap())
    }

    /// A valid grid of `shape` drawn from `seed`: a few random non-conflicting givens,
    /// then the solver's first solution.
    fn random_grid(shape: Shape, seed: u64) -> Grid {
        let n = shape.size();
        let mut state = seed;
        let mut next = move || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) as usize
        };
        loop {
            let mut g = Grid::empty(Geometry::standard(shape));
            for _ in 0..n {
                let (cell, d) = (next() % (n * n), (next() % n + 1) as u8);
                g.set(cell, d);
                if g.first_conflict().is_some() {
                    g.set(cell, 0);
                }
            }
            if let Some(s) = solve::solve(&g) {
                return s;
            }
        }
    }

    fn blank(grid: &Grid, keep_one_in: usize, seed: u64) -> Grid {
        let mut g = grid.clone();
        let mut state = seed | 1;
        for cell in 0..g.cells().len() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            if state as usize % keep_one_in != 0 {
                g.set(cell, 0);
            }
        }
        g
    }

    #[test]
    fn matches_brute_force_on_small_shapes() {
        for (shape, trials) in [("2x2", 120), ("2x3", 40), ("3x2", 25)] {
            let shape: Shape = shape.parse().unwrap();
            for seed in 0..trials {
                let full = random_grid(shape, seed);
                for (i, keep) in [1usize, 2, 3, 5, 9, 40].into_iter().enumerate() {
                    let puzzle = blank(&full, keep, seed * 31 + i as u64);
                    let got = canonical(&puzzle).unwrap();
                    let (want, aut) = brute_force(&puzzle);
                    assert_eq!(got.grid.cells(), &want[..], "{shape} {puzzle:?}");
                    assert_eq!(got.automorphisms, Some(aut), "{shape} {puzzle:?}");
                    assert_eq!(got.transform.apply(&puzzle).unwrap(), got.grid);
                }
            }
        }
    }

    #[test]
    fn empty_grids_have_the_whole_group() {
        for shape in ["2x2", "2x3", "3x2", "3x3", "3x4", "4x4"] {
            let shape: Shape = shape.parse().unwrap();
            let c = canonical(&Grid::empty(Geometry::standard(shape))).unwrap();
            assert_eq!(c.automorphisms, group_order(shape), "{shape}");
            assert!(c.grid.cells().iter().all(|&v| v == 0));
        }
    }

    #[test]
    fn shidoku_grids_form_two_classes() {
        // Published: the 288 complete 4x4 grids are 2 essentially different ones.
        let empty = Grid::empty(Geometry::standard(Shape::SHIDOKU));
        let mut classes = std::collections::BTreeMap::new();
        let mut total = 0;
        solve::search(&empty, &solve::Limits::solutions(u64::MAX), &mut |cells| {
            total += 1;
            let g = Grid::from_cells(empty.geometry().clone(), cells.to_vec()).unwrap();
            let c = canonical(&g).unwrap();
            classes.insert(c.grid.cells().to_vec(), c.automorphisms.unwrap());
            true
        });
        assert_eq!(total, 288);
        assert_eq!(classes.len(), 2);
        // Orbit-stabiliser: the class sizes |G| / |Aut| add up to every grid.
        let order = group_order(Shape::SHIDOKU).unwrap();
        assert_eq!(classes.values().map(|a| order / a).sum::<u128>(), 288);
    }

    /// The classes of the complete 2x3 grids, from every grid `search` enumerates below
    /// `start`: canonical form -> automorphisms.
    fn six_by_six_classes(start: &Grid) -> (u64, std::collections::HashMap<Vec<u8>, u128>) {
        let mut classes = std::collections::HashMap::new();
        let mut count = 0;
        let first_row: Vec<u8> = (1..=6).collect();
        solve::search(start, &solve::Limits::solutions(u64::MAX), &mut |cells| {
            count += 1;
            // Relabelling gives every class a member whose first row is 123456.
            if cells[..6] == first_row[..] {
                let g = Grid::from_cells(start.geometry().clone(), cells.to_vec()).unwrap();
                let c = canonical(&g).unwrap();
                classes.insert(c.grid.cells().to_vec(), c.automorphisms.unwrap());
            }
            true
        });
        (count, classes)
    }

    #[test]
    fn six_by_six_grids_form_49_classes() {
        // Published: the 28,200,960 complete 6x6 (2x3) grids are 49 essentially different
        // ones. Every class has members whose first row is 123456; the class sizes
        // |G| / |Aut| must then add up to all 28,200,960 grids.
        let shape: Shape = "2x3".parse().unwrap();
        let mut start = Grid::empty(Geometry::standard(shape));
        for c in 0..6 {
            start.set(c, c as u8 + 1);
        }
        let (count, classes) = six_by_six_classes(&start);
        assert_eq!(count, 28_200_960 / 720);
        assert_eq!(classes.len(), 49);
        let order = group_order(shape).unwrap();
        assert_eq!(
            classes.values().map(|a| order / a).sum::<u128>(),
            28_200_960
        );
    }

    #[test]
    #[ignore = "enumerates all 28,200,960 6x6 grids: about 100 s in release mode, nearly all of it the enumeration (solve::search)"]
    fn all_six_by_six_grids() {
        let empty = Grid::empty(Geometry::standard("2x3".parse().unwrap()));
        let (count, classes) = six_by_six_classes(&empty);
        assert_eq!(count, 28_200_960);
        assert_eq!(classes.len(), 49);
    }

    #[test]
    fn seventeen_clue_puzzles_are_their_own_minlex_form() {
        // The 17-clue collection (Royle; completed by the Enjoy Sudoku Players Forum) is
        // published in minlex form: each line must be its own canonical form.
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../../shared/data/puzzles2_17_clue"
        );
        let Ok(text) = std::fs::read_to_string(path) else {
            eprintln!("skipped: {path} not found");
            return;
        };
        for line in text.lines().filter(|l| !l.starts_with('#')).take(300) {
            let g = parse_grid(line).unwrap();
            let c = canonical(&g).unwrap();
            assert_eq!(c.grid, g, "{line}");
        }
    }

    fn data_puzzles() -> Vec<&'static str> {
        vec![
            "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......",
            "816.....3357....8.4921.......3816......357......4921.......3816.2....3577.....492",
            ".................1.....2.3......3.2...1.4......5....6..3......4.7..8...962...7...",
            "417369825632158947958724316825437169791586432346912758289643571573291684164875293",
            "123456789456789123789123456231564897564897231897231564312645978645978312978312645",
            "1...............................................................................2",
            ".................................................................................",
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(64))]
        #[test]
        fn a_random_transformation_keeps_form_symmetry_and_solutions(
            which in 0usize..7,
            keep in prop::sample::select(vec![1usize, 2, 3, 4, 100]),
            seed in any::<u64>(),
        ) {
            let base = parse_grid(data_puzzles()[which]).unwrap();
            let puzzle = blank(&base, keep, seed);
            let mut s = seed;
            let t = Transform::random(Shape::CLASSIC, &mut || {
                s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let z = (s ^ (s >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z ^ (z >> 27)
            });
            let moved = t.apply(&puzzle).unwrap();
            let (a, b) = (canonical(&puzzle).unwrap(), canonical(&moved).unwrap());
            prop_assert_eq!(&a.grid, &b.grid);
            prop_assert_eq!(a.automorphisms, b.automorphisms);
            prop_assert_eq!(a.transform.apply(&puzzle).unwrap(), a.grid.clone());
            prop_assert_eq!(b.transform.apply(&moved).unwrap(), b.grid.clone());
            let map = equivalence(&puzzle, &moved).unwrap().expect("equivalent");
            prop_assert_eq!(map.apply(&puzzle).unwrap(), moved.clone());
            if puzzle.filled() >= 20 {
                prop_assert_eq!(solve::count_solutions(&puzzle, 50), solve::count_solutions(&moved, 50));
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(8))]
        #[test]
        fn a_random_transformation_keeps_the_rating(which in 0usize..3, seed in any::<u64>()) {
            // Unique puzzles from easy to extreme: Moler's Lo-Shu, a 17-clue and top1465
            // #1. SE's rating is what a person would face: looks must not change it.
            let puzzles = [
                "816.....3357....8.4921.......3816......357......4921.......3816.2....3571.....492",
                data_puzzles()[2],
                data_puzzles()[0],
            ];
            let puzzle = parse_grid(puzzles[which]).unwrap();
            let mut s = seed;
            let t = Transform::random(Shape::CLASSIC, &mut || {
                s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
                let z = (s ^ (s >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
                z ^ (z >> 27)
            });
            let moved = t.apply(&puzzle).unwrap();
            let (a, b) = (
                crate::logic::rate(&crate::logic::State::from_grid(&puzzle)),
                crate::logic::rate(&crate::logic::State::from_grid(&moved)),
            );
            prop_assert_eq!(a.er, b.er);
            // Not the HoDoKu-style level: the human path breaks ties between equally easy
            // steps by cell order, so a transformed puzzle can take another path with
            // another score (top1465 #1 went from hard to medium); as in HoDoKu, the
            // level is a property of the path, not of the puzzle.
        }
    }

    #[test]
    fn the_most_symmetric_grid_has_648_automorphisms() {
        // 648 is the largest automorphism count of a 9x9 grid (Russell and Jarvis); this
        // grid reaches it (it is also the `sudoku` crate's test case).
        let g = parse_grid(data_puzzles()[4]).unwrap();
        let c = canonical(&g).unwrap();
        assert_eq!(c.automorphisms, Some(648));
        assert_eq!(c.grid, g, "it is its own minlex form");
    }

    #[test]
    fn inequivalent_puzzles_are_told_apart() {
        let a = parse_grid(data_puzzles()[0]).unwrap();
        let b = parse_grid(data_puzzles()[2]).unwrap();
        assert_eq!(equivalence(&a, &b).unwrap(), None);
        let small = Grid::empty(Geometry::standard(Shape::SHIDOKU));
        assert_eq!(equivalence(&a, &small).unwrap(), None);
        let mut bad = a.clone();
        bad.set(1, 4);
        assert!(matches!(canonical(&bad), Err(CanonError::Conflict(_))));
        // Clashing givens have no canonical form, even when compared with themselves.
        assert!(equivalence(&bad, &bad).is_err());
    }

    #[test]
    fn a_puzzle_without_canonical_form_is_its_own_equivalent() {
        let mut a = Grid::empty(Geometry::latin(11).unwrap().into());
        a.set(0, 1);
        assert!(canonical(&a).is_err());
        let map = equivalence(&a, &a).unwrap().expect("itself");
        assert_eq!(map.to_string(), "identity");
        let mut b = a.clone();
        b.set(1, 2);
        assert!(equivalence(&a, &b).is_err(), "needs the forms");
        let small = Grid::empty(Geometry::standard(Shape::SHIDOKU));
        assert_eq!(equivalence(&a, &small).unwrap(), None);
    }
}
