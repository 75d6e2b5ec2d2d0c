//! Validity-preserving transformations: the operations of Moler's chapter ("Sudoku",
//! *Experiments with MATLAB*, ch. 14) that change how a puzzle looks but not what it is.
//!
//! Every transformation of a standard sudoku of box shape `R`x`C` (side `n = R*C`, `C`
//! bands of `R` rows, `R` stacks of `C` columns) is held in one normal form, a
//! [`Transform`]:
//!
//! 1. an optional **transposition** (only for square boxes: transposing a grid of
//!    `R`x`C` boxes gives one of `C`x`R` boxes, a different shape);
//! 2. a **row permutation** that keeps bands together (a permutation of the bands and,
//!    within each band, of its rows);
//! 3. a **column permutation** that keeps stacks together;
//! 4. a **relabelling** of the digits (any permutation of `1..=n`).
//!
//! `out[i][j] = digits[src[rows[i]][cols[j]]]`, where `src` is the input, transposed
//! first when `transpose` is set. Rotations and flips are members of this group (a
//! quarter turn is a transposition followed by a column reversal), so they need no
//! representation of their own, and composition and inversion stay closed-form. Keeping
//! one normal form is what lets [`crate::canon`] report "the" transformation to the
//! canonical form and lets `sudokit transform` print any transformation back as
//! operations (its [`fmt::Display`]) that [`Transform::parse`] reads.
//!
//! The group has `n! * (R!^C * C!) * (C!^R * R!)` elements, twice that for square
//! boxes ([`group_order`]): 1,218,998,108,160 for 9x9.
//!
//! A variant's grid takes the members that carry each of its houses onto one of its
//! houses ([`Transform::keeps`]), the subgroup that maps its solutions to solutions:
//! for X-sudoku the square's symmetries, relabellings and row permutations that
//! commute with reversal (applied to columns too). A Latin square, without boxes, is
//! read in the `1xN` shape (bands of one row), where transposition is allowed too.

use std::collections::HashSet;
use std::fmt;

use crate::geometry::Geometry;
use crate::grid::{Candidates, DigitSet, Grid};
use crate::shape::Shape;
use crate::symbols::Symbols;

/// A validity-preserving transformation of a standard sudoku of one box shape.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Transform {
    shape: Shape,
    transpose: bool,
    /// `rows[i]`: the (possibly transposed) input row that becomes row `i`.
    rows: Vec<u8>,
    /// `cols[j]`: the input column that becomes column `j`.
    cols: Vec<u8>,
    /// `digits[d]`: the new digit for input digit `d` (`digits[0] == 0`).
    digits: Vec<u8>,
}

/// Why a transformation could not be built, parsed or applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TransformError {
    /// Transposition (and quarter turns) need square boxes.
    #[error(
        "{op} needs square boxes: transposing {shape} boxes gives {}, a different shape",
        shape.transposed()
    )]
    NotSquare {
        /// The operation asked for.
        op: String,
        /// The shape it was asked of.
        shape: Shape,
    },
    /// A permutation is malformed (wrong length, repeats, out of range) or breaks bands
    /// or stacks apart.
    #[error("{0}")]
    Permutation(String),
    /// An operation name or argument the parser does not know.
    #[error("{0}")]
    Syntax(String),
    /// The grid is not a standard sudoku of the transformation's shape (or, for a
    /// variant, not of its side).
    #[error("a {shape} transformation cannot apply to a {found} grid")]
    Geometry {
        /// The transformation's shape.
        shape: Shape,
        /// The grid's geometry name.
        found: String,
    },
    /// The transformation moves a house of the grid's variant onto cells that form no
    /// house (a band swap takes the diagonals of X-sudoku off the diagonals).
    #[error(
        "the transformation takes {house} of the {found} grid onto cells that are not one of its houses, so it would not keep the puzzle's rules"
    )]
    Breaks {
        /// The house, as `diagonal 1`.
        house: String,
        /// The grid's geometry name.
        found: String,
    },
}

/// The number of elements of the equivalence group of a shape (transformations, counted
/// as distinct maps), or `None` above `u128::MAX`.
pub fn group_order(shape: Shape) -> Option<u128> {
    let (r, c, n) = (shape.box_rows(), shape.box_cols(), shape.size());
    let f = |k: usize| -> Option<u128> { (1..=k as u128).try_fold(1u128, |a, b| a.checked_mul(b)) };
    let pow =
        |x: u128, e: usize| -> Option<u128> { (0..e).try_fold(1u128, |a, _| a.checked_mul(x)) };
    let rows = pow(f(r)?, c)?.checked_mul(f(c)?)?;
    let cols = pow(f(c)?, r)?.checked_mul(f(r)?)?;
    let t = if r == c { 2 } else { 1 };
    f(n)?.checked_mul(rows)?.checked_mul(cols)?.checked_mul(t)
}

impl Transform {
    /// The identity of a shape.
    pub fn identity(shape: Shape) -> Transform {
        let n = shape.size();
        Transform {
            shape,
            transpose: false,
            rows: (0..n as u8).collect(),
            cols: (0..n as u8).collect(),
            digits: (0..=n as u8).collect(),
        }
    }

    /// A transformation from its normal form: optional transposition, then
    /// `rows[i]` / `cols[j]` (0-based input row / column placed at `i` / `j`), then
    /// `digits[d - 1]` (the new digit for digit `d`). Checks that bands and stacks stay
    /// together and that transposition has square boxes.
    pub fn from_parts(
        shape: Shape,
        transpose: bool,
        rows: &[usize],
        cols: &[usize],
        digits: &[u8],
    ) -> Result<Transform, TransformError> {
        if transpose && !transposable(shape) {
            return Err(TransformError::NotSquare {
                op: "transpose".into(),
                shape,
            });
        }
        let n = shape.size();
        check_perm("row", rows, n)?;
        check_perm("column", cols, n)?;
        check_blocks("row", "band", rows, shape.box_rows())?;
        check_blocks("column", "stack", cols, shape.box_cols())?;
        let d: Vec<usize> = digits.iter().map(|&d| d as usize).collect();
        if d.len() != n || d.contains(&0) {
            return Err(TransformError::Permutation(format!(
                "a relabelling lists the new digit (1 to {n}) of each digit 1 to {n}; got {} digits",
                d.len()
            )));
        }
        check_perm(
            "relabelling",
            &d.iter().map(|x| x - 1).collect::<Vec<_>>(),
            n,
        )?;
        let mut all = vec![0u8];
        all.extend_from_slice(digits);
        Ok(Transform {
            shape,
            transpose,
            rows: rows.iter().map(|&r| r as u8).collect(),
            cols: cols.iter().map(|&c| c as u8).collect(),
            digits: all,
        })
    }

    /// [`Transform::from_parts`] for parts known to be valid (the canonical search builds
    /// them): no checks outside debug builds, no copies. `digits[d - 1]` is the new
    /// digit of `d`.
    pub(crate) fn from_valid_parts(
        shape: Shape,
        transpose: bool,
        rows: Vec<u8>,
        cols: Vec<u8>,
        mut digits: Vec<u8>,
    ) -> Transform {
        digits.insert(0, 0);
        let t = Transform {
            shape,
            transpose,
            rows,
            cols,
            digits,
        };
        debug_assert!({
            let u = |v: &[u8]| v.iter().map(|&x| x as usize).collect::<Vec<_>>();
            Transform::from_parts(shape, transpose, &u(&t.rows), &u(&t.cols), &t.digits[1..])
                .is_ok_and(|c| c == t)
        });
        t
    }

    /// Transposition (rows become columns), for square boxes.
    pub fn transposition(shape: Shape) -> Result<Transform, TransformError> {
        let id = Transform::identity(shape);
        Transform::from_parts(shape, true, &id.row_vec(), &id.col_vec(), &id.digits[1..])
    }

    /// A quarter turn counterclockwise, as MATLAB's `rot90(X)` (square boxes only).
    pub fn rot90(shape: Shape) -> Result<Transform, TransformError> {
        // rot90(X)[i][j] = X[j][n-1-i]: transpose, then reverse the rows.
        Ok(Transform::transposition(shape)
            .map_err(|_| TransformError::NotSquare {
                op: "rot90".into(),
                shape,
            })?
            .then(&Transform::flip_v(shape)))
    }

    /// A half turn (any shape).
    pub fn rot180(shape: Shape) -> Transform {
        Transform::flip_v(shape).then(&Transform::flip_h(shape))
    }

    /// A quarter turn clockwise, as MATLAB's `rot90(X, 3)` (square boxes only).
    pub fn rot270(shape: Shape) -> Result<Transform, TransformError> {
        Ok(Transform::transposition(shape)
            .map_err(|_| TransformError::NotSquare {
                op: "rot270".into(),
                shape,
            })?
            .then(&Transform::flip_h(shape)))
    }

    /// Upside down, as MATLAB's `flipud`: row `i` becomes row `n - 1 - i`.
    pub fn flip_v(shape: Shape) -> Transform {
        let mut t = Transform::identity(shape);
        t.rows.reverse();
        t
    }

    /// Mirror left-right, as MATLAB's `fliplr`: column `j` becomes column `n - 1 - j`.
    pub fn flip_h(shape: Shape) -> Transform {
        let mut t = Transform::identity(shape);
        t.cols.reverse();
        t
    }

    /// Relabels digit `d` as `digits[d - 1]`, as MATLAB's `X(z) = p(X(z))`.
    pub fn relabel(shape: Shape, digits: &[u8]) -> Result<Transform, TransformError> {
        let id = Transform::identity(shape);
        Transform::from_parts(shape, false, &id.row_vec(), &id.col_vec(), digits)
    }

    /// Reorders the bands: new band `i` is input band `order[i]` (0-based).
    pub fn bands(shape: Shape, order: &[usize]) -> Result<Transform, TransformError> {
        check_perm("band", order, shape.box_cols())?;
        let r = shape.box_rows();
        let rows: Vec<usize> = order
            .iter()
            .flat_map(|&b| (0..r).map(move |i| b * r + i))
            .collect();
        Transform::rows_perm(shape, &rows)
    }

    /// Reorders the stacks: new stack `j` is input stack `order[j]` (0-based).
    pub fn stacks(shape: Shape, order: &[usize]) -> Result<Transform, TransformError> {
        check_perm("stack", order, shape.box_rows())?;
        let c = shape.box_cols();
        let cols: Vec<usize> = order
            .iter()
            .flat_map(|&s| (0..c).map(move |j| s * c + j))
            .collect();
        Transform::cols_perm(shape, &cols)
    }

    /// Reorders the rows of one band (0-based): its new row `i` is its row `order[i]`.
    pub fn rows_in_band(
        shape: Shape,
        band: usize,
        order: &[usize],
    ) -> Result<Transform, TransformError> {
        let r = shape.box_rows();
        if band >= shape.box_cols() {
            return Err(TransformError::Permutation(format!(
                "band {} does not exist: a {shape} grid has {} bands",
                band + 1,
                shape.box_cols()
            )));
        }
        check_perm("row", order, r)?;
        let mut rows: Vec<usize> = (0..shape.size()).collect();
        for (i, &o) in order.iter().enumerate() {
            rows[band * r + i] = band * r + o;
        }
        Transform::rows_perm(shape, &rows)
    }

    /// Reorders the columns of one stack (0-based): its new column `j` is its column
    /// `order[j]`.
    pub fn cols_in_stack(
        shape: Shape,
        stack: usize,
        order: &[usize],
    ) -> Result<Transform, TransformError> {
        let c = shape.box_cols();
        if stack >= shape.box_rows() {
            return Err(TransformError::Permutation(format!(
                "stack {} does not exist: a {shape} grid has {} stacks",
                stack + 1,
                shape.box_rows()
            )));
        }
        check_perm("column", order, c)?;
        let mut cols: Vec<usize> = (0..shape.size()).collect();
        for (j, &o) in order.iter().enumerate() {
            cols[stack * c + j] = stack * c + o;
        }
        Transform::cols_perm(shape, &cols)
    }

    /// A whole row permutation (new row `i` is input row `rows[i]`); bands must stay
    /// together.
    pub fn rows_perm(shape: Shape, rows: &[usize]) -> Result<Transform, TransformError> {
        let id = Transform::identity(shape);
        Transform::from_parts(shape, false, rows, &id.col_vec(), &id.digits[1..])
    }

    /// A whole column permutation (new column `j` is input column `cols[j]`); stacks must
    /// stay together.
    pub fn cols_perm(shape: Shape, cols: &[usize]) -> Result<Transform, TransformError> {
        let id = Transform::identity(shape);
        Transform::from_parts(shape, false, &id.row_vec(), cols, &id.digits[1..])
    }

    /// A uniformly random member of the group, drawing from `next_u64` (any source of
    /// uniform 64-bit words; seeded sources make it reproducible).
    pub fn random(shape: Shape, next_u64: &mut dyn FnMut() -> u64) -> Transform {
        let (r, c, n) = (shape.box_rows(), shape.box_cols(), shape.size());
        let mut below = |k: usize| -> usize { uniform_below(k as u64, next_u64) as usize };
        let shuffle = |v: &mut [usize], below: &mut dyn FnMut(usize) -> usize| {
            for i in (1..v.len()).rev() {
                v.swap(i, below(i + 1));
            }
        };
        let transpose = r == c && below(2) == 1;
        let mut band_order: Vec<usize> = (0..c).collect();
        shuffle(&mut band_order, &mut below);
        let mut rows = Vec::with_capacity(n);
        for &b in &band_order {
            let mut within: Vec<usize> = (0..r).collect();
            shuffle(&mut within, &mut below);
            rows.extend(within.iter().map(|&i| b * r + i));
        }
        let mut stack_order: Vec<usize> = (0..r).collect();
        shuffle(&mut stack_order, &mut below);
        let mut cols = Vec::with_capacity(n);
        for &s in &stack_order {
            let mut within: Vec<usize> = (0..c).collect();
            shuffle(&mut within, &mut below);
            cols.extend(within.iter().map(|&j| s * c + j));
        }
        let mut digits: Vec<usize> = (1..=n).collect();
        shuffle(&mut digits, &mut below);
        let digits: Vec<u8> = digits.iter().map(|&d| d as u8).collect();
        Transform::from_parts(shape, transpose, &rows, &cols, &digits)
            .expect("random parts are valid")
    }

    /// The box shape the transformation acts on.
    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Whether the input is transposed first.
    pub fn is_transposed(&self) -> bool {
        self.transpose
    }

    /// `rows()[i]`: the (transposed, if so) input row placed at row `i`.
    pub fn rows(&self) -> &[u8] {
        &self.rows
    }

    /// `cols()[j]`: the input column placed at column `j`.
    pub fn cols(&self) -> &[u8] {
        &self.cols
    }

    /// The new digit of digit `d` (0 stays 0).
    pub fn digit(&self, d: u8) -> u8 {
        self.digits[d as usize]
    }

    /// Whether this is the identity.
    pub fn is_identity(&self) -> bool {
        *self == Transform::identity(self.shape)
    }

    /// The transformation that applies `self`, then `next`.
    pub fn then(&self, next: &Transform) -> Transform {
        assert_eq!(
            self.shape, next.shape,
            "transformations of different shapes"
        );
        let (r1, c1) = (&self.rows, &self.cols);
        let (rows, cols) = if next.transpose {
            // Transposing swaps the roles of our rows and columns.
            (
                next.rows.iter().map(|&i| c1[i as usize]).collect(),
                next.cols.iter().map(|&j| r1[j as usize]).collect(),
            )
        } else {
            (
                next.rows.iter().map(|&i| r1[i as usize]).collect(),
                next.cols.iter().map(|&j| c1[j as usize]).collect(),
            )
        };
        Transform {
            shape: self.shape,
            transpose: self.transpose ^ next.transpose,
            rows,
            cols,
            digits: self
                .digits
                .iter()
                .map(|&d| next.digits[d as usize])
                .collect(),
        }
    }

    /// The transformation that undoes this one: `t.then(&t.inverse())` is the identity.
    pub fn inverse(&self) -> Transform {
        let inv = |p: &[u8]| {
            let mut q = vec![0u8; p.len()];
            for (i, &x) in p.iter().enumerate() {
                q[x as usize] = i as u8;
            }
            q
        };
        let (rows, cols) = if self.transpose {
            (inv(&self.cols), inv(&self.rows))
        } else {
            (inv(&self.rows), inv(&self.cols))
        };
        Transform {
            shape: self.shape,
            transpose: self.transpose,
            rows,
            cols,
            digits: inv(&self.digits),
        }
    }

    /// The input cell whose value lands in cell (`row`, `col`) of the output.
    pub fn source_cell(&self, row: usize, col: usize) -> usize {
        let n = self.shape.size();
        let (r, c) = (self.rows[row] as usize, self.cols[col] as usize);
        if self.transpose { c * n + r } else { r * n + c }
    }

    /// A standard grid needs the transformation's own shape; any other geometry of the
    /// same side (a variant, a Latin square) takes every transformation that carries its
    /// houses onto its houses, and no other.
    fn check_geometry(&self, geometry: &Geometry) -> Result<(), TransformError> {
        let fits = if geometry.is_standard() {
            geometry.shape() == Some(self.shape)
        } else {
            geometry.size() == self.shape.size()
        };
        if !fits {
            return Err(TransformError::Geometry {
                shape: self.shape,
                found: geometry.name().to_string(),
            });
        }
        if geometry.is_standard() {
            return Ok(());
        }
        match self.broken_house(geometry) {
            None => Ok(()),
            Some(h) => Err(TransformError::Breaks {
                house: format!("{} {}", h.kind().name(), h.index() + 1),
                found: geometry.name().to_string(),
            }),
        }
    }

    /// Whether the transformation carries every house of `geometry` (of its side) onto a
    /// house: exactly when it maps every solution of every puzzle of that geometry to a
    /// solution. Always true for a standard geometry of the transformation's shape.
    pub fn keeps(&self, geometry: &Geometry) -> bool {
        geometry.size() == self.shape.size() && self.broken_house(geometry).is_none()
    }

    /// The first house of `geometry` whose image is no house.
    fn broken_house<'g>(&self, geometry: &'g Geometry) -> Option<&'g crate::geometry::House> {
        self.broken_house_of(geometry, &house_set(geometry))
    }

    /// [`Self::broken_house`] with `geometry`'s houses as [`house_set`] gives them.
    fn broken_house_of<'g>(
        &self,
        geometry: &'g Geometry,
        houses: &HashSet<Vec<u16>>,
    ) -> Option<&'g crate::geometry::House> {
        let n = self.shape.size();
        let mut dest = vec![0u16; n * n];
        for i in 0..n {
            for j in 0..n {
                dest[self.source_cell(i, j)] = (i * n + j) as u16;
            }
        }
        geometry
            .houses()
            .iter()
            .find(|h| !houses.contains(&sorted_cells(h.cells().map(|c| dest[c]))))
    }

    /// The transformed grid.
    pub fn apply(&self, grid: &Grid) -> Result<Grid, TransformError> {
        self.check_geometry(grid.geometry())?;
        let n = self.shape.size();
        let src = grid.cells();
        let mut cells = Vec::with_capacity(n * n);
        for i in 0..n {
            for j in 0..n {
                cells.push(self.digits[src[self.source_cell(i, j)] as usize]);
            }
        }
        Ok(Grid::from_cells(grid.geometry().clone(), cells).expect("same size"))
    }

    /// The transformed candidates (cells moved, digits relabelled in every set).
    pub fn apply_candidates(&self, cands: &Candidates) -> Result<Candidates, TransformError> {
        self.check_geometry(cands.geometry())?;
        let n = self.shape.size();
        let mut sets = Vec::with_capacity(n * n);
        for i in 0..n {
            for j in 0..n {
                let s = cands.get(self.source_cell(i, j));
                sets.push(
                    s.iter()
                        .map(|d| self.digits[d as usize])
                        .collect::<DigitSet>(),
                );
            }
        }
        Ok(Candidates::from_sets(cands.geometry().clone(), sets).expect("same size"))
    }

    fn row_vec(&self) -> Vec<usize> {
        self.rows.iter().map(|&r| r as usize).collect()
    }

    fn col_vec(&self) -> Vec<usize> {
        self.cols.iter().map(|&c| c as usize).collect()
    }

    /// Parses a comma-separated list of operations, applied left to right:
    ///
    /// | operation | effect |
    /// |---|---|
    /// | `transpose` | rows become columns (square boxes) |
    /// | `rot90`, `rot180`, `rot270` | turn counterclockwise by 90, 180, 270 degrees, as MATLAB's `rot90(X, k)` (90 and 270: square boxes) |
    /// | `flip-v` | upside down (MATLAB `flipud`) |
    /// | `flip-h` | mirror left-right (MATLAB `fliplr`) |
    /// | `relabel=912345678` | digit 1 becomes 9, 2 becomes 1, ... (the new digit of each digit in turn) |
    /// | `bands=312` | new bands are old bands 3, 1, 2 (as MATLAB `X([7:9 1:6],:)`) |
    /// | `stacks=213` | new stacks are old stacks 2, 1, 3 |
    /// | `rows=1:213` | within band 1, new rows are its rows 2, 1, 3 |
    /// | `cols=3:132` | within stack 3, new columns are its columns 1, 3, 2 |
    /// | `rows=PERM`, `cols=PERM` | a whole row (column) permutation that keeps bands (stacks) together |
    /// | `identity` | nothing |
    ///
    /// Lists use one symbol per item (`1-9`, then `A-Z`, then `a-z`, as the standard
    /// digit alphabet), or decimal numbers separated by `.` (`relabel=10.1.2.3...`).
    pub fn parse(shape: Shape, ops: &str) -> Result<Transform, TransformError> {
        let mut t = Transform::identity(shape);
        for op in ops.split(',').map(str::trim) {
            if op.is_empty() {
                // `--op ""` or `rot90,,rot90` is a slip, not a request for the identity.
                return Err(TransformError::Syntax(format!(
                    "{ops:?} has an empty operation (the identity is `identity`)"
                )));
            }
            t = t.then(&parse_op(shape, op)?);
        }
        Ok(t)
    }
}

/// A geometry's houses, each as its sorted cells, to look images up in.
fn house_set(geometry: &Geometry) -> HashSet<Vec<u16>> {
    geometry
        .houses()
        .iter()
        .map(|h| sorted_cells(h.cells().map(|c| c as u16)))
        .collect()
}

fn sorted_cells(cells: impl Iterator<Item = u16>) -> Vec<u16> {
    let mut v: Vec<u16> = cells.collect();
    v.sort_unstable();
    v
}

/// The simple moves of `geometry`'s group: swaps of two rows of a band, of two bands,
/// of one place in every band at once, the same for columns and stacks, the two flips
/// and the transposition, as far as they carry every house onto a house
/// ([`Transform::keeps`]). Their products are members of the group, so random products
/// reach into groups too large to list (36x36 windoku's: rows of a band inside one
/// window swap freely). Empty without a box shape.
pub fn kept_moves(geometry: &Geometry) -> Vec<Transform> {
    let Some(shape) = geometry.shape() else {
        return Vec::new();
    };
    let houses = house_set(geometry);
    let n = shape.size();
    // Permutations of lines in blocks of `width` (rows in bands, columns in stacks).
    let line_moves = |width: usize| {
        let blocks = n / width;
        let mut moves: Vec<Vec<usize>> = Vec::new();
        let swapped = |pairs: &mut dyn Iterator<Item = (usize, usize)>| {
            let mut p: Vec<usize> = (0..n).collect();
            for (a, b) in pairs {
                p.swap(a, b);
            }
            p
        };
        for i in 0..width {
            for j in i + 1..width {
                for b in 0..blocks {
                    moves.push(swapped(&mut std::iter::once((
                        b * width + i,
                        b * width + j,
                    ))));
                }
                moves.push(swapped(
                    &mut (0..blocks).map(|b| (b * width + i, b * width + j)),
                ));
            }
        }
        for a in 0..blocks {
            for b in a + 1..blocks {
                moves.push(swapped(
                    &mut (0..width).map(|k| (a * width + k, b * width + k)),
                ));
            }
        }
        moves.push((0..n).rev().collect());
        moves
    };
    let mut moves: Vec<Transform> = Vec::new();
    for rows in line_moves(shape.box_rows()) {
        moves.extend(Transform::rows_perm(shape, &rows));
    }
    for cols in line_moves(shape.box_cols()) {
        moves.extend(Transform::cols_perm(shape, &cols));
    }
    moves.extend(Transform::transposition(shape));
    moves.retain(|t| t.broken_house_of(geometry, &houses).is_none());
    moves
}

/// The members of the group `moves` generate, when it has at most `at_most` of them
/// (the identity first); `None` for a larger group.
pub fn generated(shape: Shape, moves: &[Transform], at_most: usize) -> Option<Vec<Transform>> {
    let mut members = vec![Transform::identity(shape)];
    let mut seen: HashSet<Transform> = members.iter().cloned().collect();
    let mut next = 0;
    while next < members.len() {
        for m in moves {
            let t = members[next].then(m);
            if seen.insert(t.clone()) {
                if members.len() == at_most {
                    return None;
                }
                members.push(t);
            }
        }
        next += 1;
    }
    Some(members)
}

/// Whether a transposition keeps the box shape's meaning: square boxes, or boxes that
/// are whole rows (`1xN`) or whole columns (`Nx1`), the shapes of a Latin square, whose
/// rows and columns may be permuted freely.
fn transposable(shape: Shape) -> bool {
    let (r, c) = (shape.box_rows(), shape.box_cols());
    r == c || r == 1 || c == 1
}

/// Uniform in `0..bound` from 64-bit words (Lemire's multiply-and-reject: no modulo bias).
fn uniform_below(bound: u64, next_u64: &mut dyn FnMut() -> u64) -> u64 {
    debug_assert!(bound > 0);
    let threshold = bound.wrapping_neg() % bound;
    loop {
        let m = (next_u64() as u128) * (bound as u128);
        if (m as u64) >= threshold {
            return (m >> 64) as u64;
        }
    }
}

fn check_perm(what: &str, p: &[usize], n: usize) -> Result<(), TransformError> {
    let mut seen = vec![false; n];
    if p.len() != n {
        return Err(TransformError::Permutation(format!(
            "a {what} permutation needs {n} items, got {}",
            p.len()
        )));
    }
    for &x in p {
        if x >= n || std::mem::replace(&mut seen[x], true) {
            return Err(TransformError::Permutation(format!(
                "{} is out of range or repeated in a {what} permutation of 1 to {n}",
                x + 1
            )));
        }
    }
    Ok(())
}

/// Checks that each block of `size` consecutive positions takes a whole input block.
fn check_blocks(what: &str, block: &str, p: &[usize], size: usize) -> Result<(), TransformError> {
    for (b, chunk) in p.chunks(size).enumerate() {
        let first = chunk[0] / size;
        if chunk.iter().any(|&x| x / size != first) {
            return Err(TransformError::Permutation(format!(
                "{what} permutation breaks {block} {} apart: {block}s must move whole",
                b + 1
            )));
        }
    }
    Ok(())
}

/// Parses a list of 1-based items (`312`, `A9B`, `10.1.2`) into 0-based numbers.
/// An item that is no number or symbol at all is a syntax error; one above `max` is a
/// [`TransformError::Permutation`] error, as it depends on the grid's shape (`bands=2134`
/// is fine for a 16x16 grid).
fn parse_list(text: &str, max: usize) -> Result<Vec<usize>, TransformError> {
    let bad = |why: String| TransformError::Syntax(format!("{text:?}: {why}"));
    let range = |why: String| TransformError::Permutation(format!("{text:?}: {why}"));
    let items: Vec<usize> = if text.contains('.') {
        text.split('.')
            .map(|s| {
                s.trim()
                    .parse::<usize>()
                    .map_err(|_| bad(format!("{s:?} is not a number")))
            })
            .collect::<Result<_, _>>()?
    } else {
        let (symbols, any) = (
            Symbols::standard(max.max(1)),
            Symbols::standard(crate::shape::MAX_SIZE),
        );
        text.bytes()
            .map(|b| match (symbols.digit(b), any.digit(b)) {
                (Some(d), _) => Ok(d as usize),
                (None, Some(_)) => Err(range(format!(
                    "{:?} is not an item from 1 to {max}",
                    b as char
                ))),
                (None, None) => Err(bad(format!("{:?} is not an item", b as char))),
            })
            .collect::<Result<_, _>>()?
    };
    items
        .into_iter()
        .map(|x| {
            if (1..=max).contains(&x) {
                Ok(x - 1)
            } else {
                Err(range(format!("{x} is not from 1 to {max}")))
            }
        })
        .collect()
}

fn parse_op(shape: Shape, op: &str) -> Result<Transform, TransformError> {
    let n = shape.size();
    let (name, arg) = match op.split_once('=') {
        Some((a, b)) => (a.trim(), Some(b.trim())),
        None => (op, None),
    };
    fn need<'a>(name: &str, arg: Option<&'a str>) -> Result<&'a str, TransformError> {
        arg.ok_or_else(|| TransformError::Syntax(format!("{name} needs an argument: {name}=...")))
    }
    // `rows=2:312` / `cols=1:213` address one band / stack; without `B:` the list is a
    // whole permutation.
    let block_list = |arg: &str, blocks: usize, within: usize| match arg.split_once(':') {
        Some((b, list)) => {
            let b = parse_list(b, blocks)?;
            if b.len() != 1 {
                return Err(TransformError::Syntax(format!(
                    "{op:?}: name one block before ':'"
                )));
            }
            Ok((Some(b[0]), parse_list(list, within)?))
        }
        None => Ok((None, parse_list(arg, n)?)),
    };
    match (name, arg) {
        ("identity" | "id", None) => Ok(Transform::identity(shape)),
        ("transpose", None) => Transform::transposition(shape),
        ("rot90", None) => Transform::rot90(shape),
        ("rot180", None) => Ok(Transform::rot180(shape)),
        ("rot270", None) => Transform::rot270(shape),
        ("flip-v" | "flipud", None) => Ok(Transform::flip_v(shape)),
        ("flip-h" | "fliplr", None) => Ok(Transform::flip_h(shape)),
        ("relabel", arg) => {
            let list = parse_list(need(name, arg)?, n)?;
            let digits: Vec<u8> = list.iter().map(|&d| d as u8 + 1).collect();
            Transform::relabel(shape, &digits)
        }
        ("bands", arg) => Transform::bands(shape, &parse_list(need(name, arg)?, shape.box_cols())?),
        // Boxes one row high (a Latin square's 1xN): one stack, nothing to reorder.
        ("stacks", Some(_)) if shape.box_rows() == 1 => Err(TransformError::Permutation(format!(
            "this grid has one stack of {n} columns (a Latin square has no boxes): move its columns with cols=..."
        ))),
        ("stacks", arg) => {
            Transform::stacks(shape, &parse_list(need(name, arg)?, shape.box_rows())?)
        }
        ("rows", arg) => match block_list(need(name, arg)?, shape.box_cols(), shape.box_rows())? {
            (Some(b), list) => Transform::rows_in_band(shape, b, &list),
            (None, list) => Transform::rows_perm(shape, &list),
        },
        ("cols", arg) => match block_list(need(name, arg)?, shape.box_rows(), shape.box_cols())? {
            (Some(s), list) => Transform::cols_in_stack(shape, s, &list),
            (None, list) => Transform::cols_perm(shape, &list),
        },
        _ => Err(TransformError::Syntax(format!(
            "unknown operation {op:?}: use transpose, rot90, rot180, rot270, flip-v, flip-h, \
             relabel=..., bands=..., stacks=..., rows=[B:]..., cols=[S:]..."
        ))),
    }
}

impl fmt::Display for Transform {
    /// The operations that [`Transform::parse`] reads back into this transformation:
    /// `transpose,rows=...,cols=...,relabel=...` (identity parts left out; `identity`
    /// when nothing is left).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.shape.size();
        let symbols = Symbols::standard(n);
        let list = |items: &mut dyn Iterator<Item = usize>| -> String {
            let items: Vec<usize> = items.collect();
            if n <= 35 {
                items.iter().map(|&x| symbols.char(x as u8)).collect()
            } else {
                items
                    .iter()
                    .map(|x| x.to_string())
                    .collect::<Vec<_>>()
                    .join(".")
            }
        };
        let mut parts = Vec::new();
        if self.transpose {
            parts.push("transpose".to_string());
        }
        if self.rows.iter().enumerate().any(|(i, &r)| i != r as usize) {
            parts.push(format!(
                "rows={}",
                list(&mut self.rows.iter().map(|&r| r as usize + 1))
            ));
        }
        if self.cols.iter().enumerate().any(|(i, &c)| i != c as usize) {
            parts.push(format!(
                "cols={}",
                list(&mut self.cols.iter().map(|&c| c as usize + 1))
            ));
        }
        if self
            .digits
            .iter()
            .enumerate()
            .any(|(i, &d)| i != d as usize)
        {
            parts.push(format!(
                "relabel={}",
                list(&mut self.digits[1..].iter().map(|&d| d as usize))
            ));
        }
        if parts.is_empty() {
            f.write_str("identity")
        } else {
            f.write_str(&parts.join(","))
        }
    }
}

impl fmt::Debug for Transform {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Transform({} {})", self.shape, self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_grid;
    use proptest::prelude::*;
    use std::sync::Arc;

    const LO_SHU: &str =
        "816.....3357....8.4921.......3816......357......4921.......3816.2....3577.....492";

    fn grid(text: &str) -> Grid {
        parse_grid(text).unwrap()
    }

    /// The MATLAB definitions, written out cell by cell: an independent statement of
    /// what each operation does.
    fn matlab(op: &str, x: &Grid) -> Grid {
        let n = x.size();
        let at = |r: usize, c: usize| x.get(r * n + c);
        let cells: Vec<u8> = (0..n * n)
            .map(|k| {
                let (i, j) = (k / n, k % n);
                match op {
                    "transpose" => at(j, i),
                    "rot90" => at(j, n - 1 - i),
                    "rot180" => at(n - 1 - i, n - 1 - j),
                    "rot270" => at(n - 1 - j, i),
                    "flip-v" => at(n - 1 - i, j),
                    "flip-h" => at(i, n - 1 - j),
                    _ => unreachable!(),
                }
            })
            .collect();
        Grid::from_cells(x.geometry().clone(), cells).unwrap()
    }

    #[test]
    fn rotations_and_flips_match_matlab() {
        let x = grid(LO_SHU);
        for op in ["transpose", "rot90", "rot180", "rot270", "flip-v", "flip-h"] {
            let t = Transform::parse(Shape::CLASSIC, op).unwrap();
            assert_eq!(t.apply(&x).unwrap(), matlab(op, &x), "{op}");
        }
        // rot90 four times is the identity; rot90 twice is rot180.
        let r = Transform::rot90(Shape::CLASSIC).unwrap();
        assert!(r.then(&r).then(&r).then(&r).is_identity());
        assert_eq!(r.then(&r), Transform::rot180(Shape::CLASSIC));
    }

    #[test]
    fn moler_examples() {
        // X([4:9 1:3],:) moves band 1 to the bottom: bands=231.
        let x = grid(LO_SHU);
        let t = Transform::parse(Shape::CLASSIC, "bands=231").unwrap();
        let y = t.apply(&x).unwrap();
        assert_eq!(&y.cells()[..27], &x.cells()[27..54]);
        assert_eq!(&y.cells()[54..], &x.cells()[..27]);
        // p = randperm(9); X(z) = p(X(z)).
        let t = Transform::parse(Shape::CLASSIC, "relabel=912345678").unwrap();
        let y = t.apply(&x).unwrap();
        for (a, b) in x.cells().iter().zip(y.cells()) {
            assert_eq!(*b, [0, 9, 1, 2, 3, 4, 5, 6, 7, 8][*a as usize]);
        }
    }

    #[test]
    fn block_operations() {
        let x = grid(LO_SHU);
        let at = |g: &Grid, r: usize, c: usize| g.get(r * 9 + c);
        let y = Transform::parse(Shape::CLASSIC, "rows=2:312")
            .unwrap()
            .apply(&x)
            .unwrap();
        assert_eq!(at(&y, 3, 4), at(&x, 5, 4));
        assert_eq!(at(&y, 4, 4), at(&x, 3, 4));
        let y = Transform::parse(Shape::CLASSIC, "cols=3:132,stacks=213")
            .unwrap()
            .apply(&x)
            .unwrap();
        assert_eq!(at(&y, 0, 0), at(&x, 0, 3));
        assert_eq!(at(&y, 0, 7), at(&x, 0, 8));
        assert_eq!(at(&y, 0, 8), at(&x, 0, 7));
    }

    #[test]
    fn rectangular_boxes() {
        let s: Shape = "2x3".parse().unwrap();
        assert!(matches!(
            Transform::parse(s, "transpose"),
            Err(TransformError::NotSquare { .. })
        ));
        assert!(Transform::parse(s, "rot90").is_err());
        assert!(
            Transform::parse(s, "rot180,flip-v,bands=312,stacks=21,rows=2:21,cols=1:312").is_ok()
        );
        assert!(Transform::parse(s, "bands=12").is_err());
        assert!(Transform::parse(s, "rows=314256").is_err(), "breaks band 1");
        for slip in ["", ",", "rot180,,rot180", "rot180,"] {
            assert!(
                matches!(Transform::parse(s, slip), Err(TransformError::Syntax(_))),
                "{slip:?}"
            );
        }
        assert!(Transform::parse(s, "rows=213456").is_ok());
        assert!(Transform::parse(s, "rows=214356").is_ok());
    }

    #[test]
    fn syntax_errors() {
        for bad in [
            "twist",
            "relabel=1234",
            "relabel=112345678",
            "bands",
            "rows=4:123",
            "bands=0AB",
        ] {
            assert!(Transform::parse(Shape::CLASSIC, bad).is_err(), "{bad}");
        }
        // A Latin square (boxes 1xN) has one stack: found by QA, `stacks=123` was
        // "'2' is not an item from 1 to 1".
        let latin = Shape::new(1, 9).unwrap();
        let e = Transform::parse(latin, "stacks=123")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("one stack of 9 columns") && e.contains("cols="),
            "{e}"
        );
        assert!(Transform::parse(latin, "cols=213456789").is_ok());
    }

    #[test]
    fn display_round_trips() {
        let t = Transform::parse(
            Shape::CLASSIC,
            "transpose,rot90,flip-v,flip-h,relabel=912345678,bands=312,stacks=213,rows=1:213,cols=3:132",
        )
        .unwrap();
        assert_eq!(Transform::parse(Shape::CLASSIC, &t.to_string()).unwrap(), t);
        assert_eq!(Transform::identity(Shape::CLASSIC).to_string(), "identity");
        let big = Shape::new(6, 6).unwrap();
        let mut words = [1u64, 2, 3].into_iter().cycle();
        let t = Transform::random(big, &mut || {
            words.next().unwrap().wrapping_mul(0x9E37_79B9_7F4A_7C15)
        });
        assert_eq!(Transform::parse(big, &t.to_string()).unwrap(), t);
    }

    #[test]
    fn group_orders() {
        assert_eq!(group_order(Shape::CLASSIC), Some(1_218_998_108_160));
        assert_eq!(group_order(Shape::SHIDOKU), Some(24 * 8 * 8 * 2));
        assert_eq!(group_order("2x3".parse().unwrap()), Some(720 * 48 * 72));
        assert_eq!(group_order(Shape::new(8, 8).unwrap()), None);
    }

    fn shapes() -> impl Strategy<Value = Shape> {
        prop_oneof![
            Just(Shape::SHIDOKU),
            Just("2x3".parse::<Shape>().unwrap()),
            Just("3x2".parse::<Shape>().unwrap()),
            Just(Shape::CLASSIC),
            Just("3x4".parse::<Shape>().unwrap()),
        ]
    }

    fn variant(spec: &str, n: usize, regions: Option<&str>) -> Arc<Geometry> {
        let mut v: crate::Variant = spec.parse().unwrap();
        if let Some(map) = regions {
            v.regions = Some(crate::Variant::parse_regions(map, n).unwrap());
        }
        Arc::new(Geometry::for_variant(n, None, &v).unwrap())
    }

    /// An X-sudoku solution (both diagonals hold 1-9: checked below by the rules).
    const X_SOLUTION: &str =
        "628971435975483621431265789714356298592847163863129547259734816187692354346518972";

    /// Counted by hand: on 9x9 each of the three pairs of places in a band gives three
    /// swaps in one band and one in all at once (12), the bands swap in three ways, and
    /// the flip: 16 for rows, 16 for columns, the transposition: 33. Windoku's windows
    /// (rows 2-4 and 6-8) keep rows 2, 3 swapped, and 7, 8, and the flip: 3 + 3 + 1.
    #[test]
    fn kept_moves_are_the_simple_moves_that_keep_every_house() {
        let classic = Geometry::classic();
        assert_eq!(kept_moves(&classic).len(), 33);
        let windoku = variant("windoku", 9, None);
        let moves = kept_moves(&windoku);
        assert_eq!(moves.len(), 7);
        let ops: Vec<String> = moves.iter().map(|t| t.to_string()).collect();
        for op in [
            "rows=1:132",
            "rows=3:213",
            "cols=1:132",
            "flip-v",
            "transpose",
        ] {
            let t = Transform::parse(Shape::CLASSIC, op).unwrap();
            assert!(moves.contains(&t), "{op}: {ops:?}");
        }
        // 36x36 windoku (windows on rows 2-7, 9-14, ... 30-35): the bands' rows that
        // share a window swap, 10 + 6 + 4 + 4 + 6 + 10 pairs, with the flip 41 for rows,
        // 41 for columns, and the transposition. Their products keep the houses too (a
        // group too large to list).
        let big = variant("windoku", 36, None);
        let moves = kept_moves(&big);
        assert_eq!(moves.len(), 83);
        let mut rng = crate::rng::Rng::new(1);
        let mut walk = Transform::identity(big.shape().unwrap());
        for _ in 0..50 {
            walk = walk.then(&moves[rng.below(moves.len() as u64) as usize]);
        }
        assert!(walk.keeps(&big) && !walk.is_identity());
        let shape = big.shape().unwrap();
        assert!(generated(shape, &moves, 1000).is_none());
        // With disjoint groups too, only the flips and the transposition are left: the
        // square's eight symmetries.
        let both = variant("windoku,disjoint", 36, None);
        let members = generated(shape, &kept_moves(&both), 1000).unwrap();
        assert_eq!(members.len(), 8);
        assert!(members[0].is_identity() && members.iter().all(|t| t.keeps(&both)));
    }

    #[test]
    fn variants_take_the_transformations_that_keep_their_houses() {
        let x = variant("x", 9, None);
        let solution = Grid::from_cells(x.clone(), grid(X_SOLUTION).cells().to_vec()).unwrap();
        assert!(solution.is_complete() && solution.first_conflict().is_none());
        // The square's symmetries, and a row permutation that commutes with reversal
        // applied to rows and columns alike, keep both diagonals.
        for ops in [
            "transpose",
            "rot90",
            "rot180",
            "rot270",
            "flip-v",
            "flip-h",
            "relabel=912345678",
            "rows=1:321,rows=3:321,cols=1:321,cols=3:321",
            "rows=2:321,cols=2:321,rot90",
        ] {
            let t = Transform::parse(Shape::CLASSIC, ops).unwrap();
            assert!(t.keeps(&x), "{ops}");
            let moved = t.apply(&solution).unwrap();
            assert!(moved.first_conflict().is_none(), "{ops}");
        }
        for ops in [
            "bands=213",
            "rows=1:213",
            "bands=321",
            "rows=1:321,cols=1:321",
        ] {
            let t = Transform::parse(Shape::CLASSIC, ops).unwrap();
            assert!(!t.keeps(&x), "{ops}");
            assert!(matches!(
                t.apply(&solution),
                Err(TransformError::Breaks { .. })
            ));
        }
        // Windoku's windows are symmetric under the square's symmetries only.
        let w = variant("windoku", 9, None);
        for (ops, keeps) in [("rot90", true), ("flip-h", true), ("bands=321", false)] {
            let t = Transform::parse(Shape::CLASSIC, ops).unwrap();
            assert_eq!(t.keeps(&w), keeps, "windoku {ops}");
        }
        // A jigsaw whose regions have no symmetry keeps its relabellings alone.
        let jigsaw = variant(
            "jigsaw",
            9,
            Some(
                "AAAABBCCCAAABBBCCCAABBBBCCCDDDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII",
            ),
        );
        assert!(
            Transform::parse(Shape::CLASSIC, "relabel=234567891")
                .unwrap()
                .keeps(&jigsaw)
        );
        for ops in ["transpose", "rot180", "flip-h", "stacks=213"] {
            assert!(
                !Transform::parse(Shape::CLASSIC, ops)
                    .unwrap()
                    .keeps(&jigsaw),
                "{ops}"
            );
        }
        // A Latin square takes any row and column permutation, and transposition, read
        // in the 1xN shape (bands of one row).
        let latin = variant("latin", 5, None);
        let one_row: Shape = "1x5".parse().unwrap();
        for ops in [
            "transpose",
            "rot90",
            "bands=53124",
            "cols=41352",
            "rows=24135,transpose",
        ] {
            assert!(
                Transform::parse(one_row, ops).unwrap().keeps(&latin),
                "{ops}"
            );
        }
        // A variant of another side is no match.
        assert!(!Transform::identity(Shape::SHIDOKU).keeps(&x));
    }

    proptest! {
        #[test]
        fn what_keeps_the_houses_keeps_solutions_valid(seed in any::<u64>(), dihedral in 0usize..8) {
            let x = variant("x", 9, None);
            let solution = Grid::from_cells(x.clone(), grid(X_SOLUTION).cells().to_vec()).unwrap();
            let mut state = seed;
            let mut next = || { state = state.wrapping_add(0x9E37_79B9_7F4A_7C15); let mut z = state; z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9); z ^ (z >> 31) };
            // Mostly transformations that break the diagonals, and now and then one that
            // keeps them: a symmetry of the square after a relabelling.
            let square = ["identity", "transpose", "rot90", "rot180", "rot270", "flip-v", "flip-h", "transpose,rot180"];
            let random = Transform::random(Shape::CLASSIC, &mut next);
            let kept = Transform::random(Shape::CLASSIC, &mut next);
            let kept = Transform::from_parts(Shape::CLASSIC, false, &(0..9).collect::<Vec<_>>(), &(0..9).collect::<Vec<_>>(), &kept.digits[1..]).unwrap()
                .then(&Transform::parse(Shape::CLASSIC, square[dihedral]).unwrap());
            prop_assert!(kept.keeps(&x));
            for t in [random, kept] {
                match t.apply(&solution) {
                    Ok(moved) => {
                        prop_assert!(t.keeps(&x));
                        prop_assert!(moved.first_conflict().is_none());
                    }
                    Err(e) => {
                        prop_assert!(!t.keeps(&x));
                        prop_assert!(matches!(e, TransformError::Breaks { .. }), "{}", e);
                    }
                }
            }
        }

        #[test]
        fn inverse_and_composition(shape in shapes(), seeds in prop::array::uniform3(any::<u64>())) {
            let n = shape.size();
            let mut state = seeds[0];
            let mut next = || { state = state.wrapping_add(0x9E37_79B9_7F4A_7C15); let mut z = state; z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9); z ^ (z >> 31) };
            let a = Transform::random(shape, &mut next);
            let b = Transform::random(shape, &mut next);
            prop_assert!(a.then(&a.inverse()).is_identity());
            prop_assert!(a.inverse().then(&a).is_identity());
            let g = Geometry::standard(shape);
            let cells: Vec<u8> = (0..n * n).map(|k| ((k * 7 + seeds[1] as usize) % (n + 1)) as u8).collect();
            let x = Grid::from_cells(g, cells).unwrap();
            let ab = a.then(&b);
            prop_assert_eq!(ab.apply(&x).unwrap(), b.apply(&a.apply(&x).unwrap()).unwrap());
            prop_assert_eq!(a.inverse().apply(&a.apply(&x).unwrap()).unwrap(), x.clone());
            let c = Candidates::from_grid(&x);
            prop_assert_eq!(ab.apply_candidates(&c).unwrap(), b.apply_candidates(&a.apply_candidates(&c).unwrap()).unwrap());
        }
    }
}
