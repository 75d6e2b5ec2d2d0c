//! Canonical forms of variants (X-sudoku, windoku, jigsaw, ...).
//!
//! A variant's equivalence group is the part of its box shape's group that carries
//! every house onto a house ([`Transform::keeps`]): for X-sudoku 96 cell maps (the
//! square's symmetries, and row permutations that commute with reversal applied to rows
//! and columns alike), for a jigsaw usually the identity alone. It is found once per
//! geometry by a search that prunes a map as soon as one of the variant's own houses
//! cannot land on a house (see [`find_group`]), and kept; the canonical form is then the
//! smallest of the images, each labelled in order of first appearance, under the same
//! minlex definition as standard sudoku. A jigsaw has no boxes and so no bands: its group
//! is every row order and column order, transposed or not, that carries each region
//! onto a region (a jigsaw whose regions are boxes is a sudoku, canonical as one; a map
//! so close to boxes that this group is too large keeps the square's eight symmetries
//! that keep it). Other groups above [`MAX_GROUP`] maps are refused (25x25 X-sudoku:
//! 3,686,400). Latin squares (every row and column
//! permutation) are another search (`canon/latin.rs`).

use std::sync::{Arc, Mutex};

use super::{CanonError, Canonical};
use crate::geometry::{Geometry, HouseKind};
use crate::grid::Grid;
use crate::shape::Shape;
use crate::transform::Transform;
use crate::variant::Variant;

/// The most cell maps a variant's group may have here: 16x16 windoku's 165,888 fit (a
/// few megabytes, some tens of milliseconds per puzzle to run through), 25x25
/// X-sudoku's 3,686,400 do not.
const MAX_GROUP: usize = 1 << 18;

/// One cell map of the group: transposition, then rows and columns (as in
/// [`Transform`], before relabelling).
#[derive(Clone, Debug)]
struct CellMap {
    transpose: bool,
    rows: Vec<u8>,
    cols: Vec<u8>,
}

type Group = Arc<Vec<CellMap>>;

/// Groups found so far, by geometry (a batch of puzzles usually shares one).
/// A group too large is kept as `None`, so a batch finds that out once.
static GROUPS: Mutex<Vec<(Arc<Geometry>, Option<Group>)>> = Mutex::new(Vec::new());

/// The group of the last jigsaw map asked about (see [`group`]).
static LAST_JIGSAW: Mutex<Option<(Arc<Geometry>, Group)>> = Mutex::new(None);

/// The canonical form of a grid of a variant geometry (see the module documentation).
pub(super) fn canonical(grid: &Grid) -> Result<Canonical, CanonError> {
    let g = grid.geometry();
    let (shape, group) = group(g)?;
    let n = g.size();
    let cells = grid.cells();
    let mut best: Option<(Vec<u8>, usize, Vec<u8>)> = None;
    let mut ties = 0u128;
    let mut out = vec![0u8; n * n];
    let mut label = vec![0u8; n + 1];
    for (index, m) in group.iter().enumerate() {
        label.iter_mut().for_each(|l| *l = 0);
        let mut next = 1u8;
        // Compared as it is built: a map is dropped at its first cell above the best.
        let mut order = std::cmp::Ordering::Equal;
        for i in 0..n {
            for j in 0..n {
                let (r, c) = (m.rows[i] as usize, m.cols[j] as usize);
                let v = cells[if m.transpose { c * n + r } else { r * n + c }];
                let v = if v == 0 {
                    0
                } else {
                    if label[v as usize] == 0 {
                        label[v as usize] = next;
                        next += 1;
                    }
                    label[v as usize]
                };
                let k = i * n + j;
                out[k] = v;
                if order == std::cmp::Ordering::Equal {
                    if let Some((b, _, _)) = &best {
                        order = v.cmp(&b[k]);
                    }
                }
                if order == std::cmp::Ordering::Greater {
                    break;
                }
            }
            if order == std::cmp::Ordering::Greater {
                break;
            }
        }
        match (order, best.is_some()) {
            (std::cmp::Ordering::Greater, _) => {}
            (std::cmp::Ordering::Equal, true) => ties += 1,
            _ => {
                best = Some((out.clone(), index, label.clone()));
                ties = 1;
            }
        }
    }
    let (form, index, mut label) = best.expect("the group holds the identity");
    // Digits absent from the grid take the labels left, in order; any order of them
    // maps the grid onto its form too.
    let mut next = label.iter().copied().max().unwrap_or(0) + 1;
    let mut absent = 0usize;
    for l in label.iter_mut().skip(1) {
        if *l == 0 {
            *l = next;
            next += 1;
            absent += 1;
        }
    }
    let m = &group[index];
    let u = |v: &[u8]| v.iter().map(|&x| x as usize).collect::<Vec<_>>();
    let transform =
        Transform::from_parts(shape, m.transpose, &u(&m.rows), &u(&m.cols), &label[1..])
            .expect("group members are valid transformations");
    let automorphisms = (1..=absent as u128).try_fold(ties, |a, k| a.checked_mul(k));
    Ok(Canonical {
        grid: Grid::from_cells(g.clone(), form).expect("same size"),
        transform,
        automorphisms,
    })
}

/// A uniformly random member of the group of `g` (a variant): one of its cell maps,
/// then any relabelling.
pub(super) fn random(
    g: &Arc<Geometry>,
    next_u64: &mut dyn FnMut() -> u64,
) -> Result<Transform, CanonError> {
    let (shape, group) = group(g)?;
    let m = &group[(((next_u64() as u128) * group.len() as u128) >> 64) as usize];
    let u = |v: &[u8]| v.iter().map(|&x| x as usize).collect::<Vec<_>>();
    let relabel = Transform::random(shape, next_u64);
    let digits: Vec<u8> = (1..=g.size() as u8).map(|d| relabel.digit(d)).collect();
    Ok(
        Transform::from_parts(shape, m.transpose, &u(&m.rows), &u(&m.cols), &digits)
            .expect("group members are valid transformations"),
    )
}

/// The box shape whose boxes are exactly the regions of a jigsaw `g` with no other
/// extra houses (a sudoku drawn as a jigsaw), if there is one.
pub(super) fn boxes_of_jigsaw(g: &Geometry) -> Option<Shape> {
    let v = g.variant();
    let plain = Variant {
        jigsaw: true,
        regions: v.regions.clone(),
        ..Variant::default()
    };
    if !v.jigsaw || *v != plain {
        return None;
    }
    let regions = v.regions.as_ref()?;
    let n = g.size();
    (2..n)
        .filter(|r| n % r == 0 && n / r >= 2)
        .filter_map(|r| Shape::new(r, n / r).ok())
        .find(|shape| {
            // Two partitions into n parts of n cells: equal when every box lies in one
            // region.
            let mut region_of_box = vec![u8::MAX; n];
            (0..n * n).all(|c| {
                let b = shape.box_of(c);
                let r = regions[c];
                let first = region_of_box[b] == u8::MAX;
                if first {
                    region_of_box[b] = r;
                }
                first || region_of_box[b] == r
            })
        })
}

/// Transposed or not.
const BOTH: &[bool] = &[false, true];
/// Never transposed (boxes that are not square).
const NO_TRANSPOSE: &[bool] = &[false];

/// Which orders of its rows (or of its columns) a cell map may take.
#[derive(Clone, Copy)]
enum Lines {
    /// Any order that keeps blocks of this many consecutive lines together (bands,
    /// stacks; blocks of one line or of all of them: any order).
    Blocks(usize),
    /// As they are, or reversed.
    Mirror,
}

/// The box shape and the cell maps that keep `g`'s houses, from the cache or found now.
fn group(g: &Arc<Geometry>) -> Result<(Shape, Group), CanonError> {
    let refuse = |why: &str| Err(CanonError::Variant(g.name().to_string(), why.to_string()));
    let n = g.size();
    let (shape, rows, cols, transposes) = match g.shape() {
        Some(shape) => (
            shape,
            Lines::Blocks(shape.box_rows()),
            Lines::Blocks(shape.box_cols()),
            if shape.box_rows() == shape.box_cols() {
                BOTH
            } else {
                NO_TRANSPOSE
            },
        ),
        // A Latin square with diagonals: any row order, any column order, and the
        // diagonals prune (a row map must commute with reversal, the column map is the
        // same or reversed: 2^(n/2) (n/2)! of them).
        None if g.variant().latin && g.variant().diagonals => (
            Shape::new(1, n).expect("a geometry's side"),
            Lines::Blocks(1),
            Lines::Blocks(1),
            BOTH,
        ),
        None if g.variant().latin => {
            return refuse("Latin squares have every row and column permutation, another search");
        }
        // A grid without boxes (a jigsaw): any row order, any column order,
        // transposed or not, read in the 1xN shape where rows and columns move
        // freely. An irregular map prunes the search at once (56 random 9x9 maps:
        // 0.1 ms each); one with bands of regions keeps their swaps (`transform`
        // accepts them, and the square's eight symmetries alone, as before, told such
        // puzzles apart).
        // A map so close to boxes that its group is too large to run through (16x16
        // boxes with two cells swapped: millions of maps) falls back to those eight.
        // The last map's group is kept: a file's puzzles usually share one map, and a
        // map close to boxes takes a while to be found too large (0.6 s on 16x16).
        None => {
            let shape = Shape::new(1, n).expect("a geometry's side");
            let mut last = LAST_JIGSAW.lock().unwrap_or_else(|e| e.into_inner());
            if let Some((k, group)) = last.as_ref()
                && (Arc::ptr_eq(k, g) || **k == **g)
            {
                return Ok((shape, group.clone()));
            }
            let found = find_group(g, Lines::Blocks(1), Lines::Blocks(1), BOTH)
                .or_else(|| find_group(g, Lines::Mirror, Lines::Mirror, BOTH))
                .expect("eight maps at most");
            let group = Arc::new(found);
            *last = Some((g.clone(), group.clone()));
            return Ok((shape, group));
        }
    };
    // Boxed variants and Latin squares with diagonals come in a handful of geometries
    // (X, windoku, both, per shape).
    let mut groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    let group = match groups.iter().find(|(k, _)| Arc::ptr_eq(k, g) || **k == **g) {
        Some((_, group)) => group.clone(),
        None => {
            let found = find_group(g, rows, cols, transposes).map(Arc::new);
            groups.push((g.clone(), found.clone()));
            found
        }
    };
    match group {
        Some(group) => Ok((shape, group)),
        None => refuse(&format!(
            "its group has more than {MAX_GROUP} cell maps, too many to run through"
        )),
    }
}

/// Every cell map (transposed as `transposes` allow, rows and columns moved as `rows`
/// and `cols` allow) that carries each of `g`'s houses onto a house, identity first;
/// `None` beyond [`MAX_GROUP`] or when `g` has more than 128 houses besides rows,
/// columns and boxes.
///
/// Rows, columns and boxes go to rows, columns and boxes under every such map; each
/// other house (diagonal, window, region) must land on one of those. A depth-first
/// search places rows and columns in pairs (row k, then column k; the order of k is
/// chosen below) and follows, for each of those houses, which of them could still hold
/// the images of its cells placed so far: an empty choice prunes at once, so the search
/// visits little more than the group itself (18,432 maps for 16x16 X-sudoku, out of
/// some 10^14).
fn find_group(g: &Geometry, rows: Lines, cols: Lines, transposes: &[bool]) -> Option<Vec<CellMap>> {
    let extra: Vec<_> = g
        .houses()
        .iter()
        .filter(|h| {
            !matches!(
                h.kind(),
                HouseKind::Row | HouseKind::Column | HouseKind::Box
            )
        })
        .collect();
    if extra.len() > 128 {
        return None;
    }
    let n = g.size();
    // Bit `h` of `houses_of[cell]`: the cell lies in the `h`-th of those houses.
    let mut houses_of = vec![0u128; n * n];
    for (h, house) in extra.iter().enumerate() {
        for c in house.cells() {
            houses_of[c] |= 1 << h;
        }
    }
    // Lines in order fix the cells of a window (or region) together; with diagonals,
    // outside in (0, n-1, 1, n-2, ...) fixes a line's cells on both diagonals early.
    // Each prunes at once what the other lets grow: 25x25 X-sudoku is refused in 0.6 s
    // (in order: 2.7 s to find a quarter of the limit), 16x16 windoku's group is found
    // and run through in 0.26 s (outside in: 1.5 s).
    let diagonals = extra.iter().any(|h| h.kind() == HouseKind::Diagonal);
    let order: Vec<usize> = (0..n)
        .map(|k| match diagonals {
            true if k % 2 == 1 => n - 1 - k / 2,
            true => k / 2,
            false => k,
        })
        .collect();
    let mut search = GroupSearch {
        n,
        rows,
        cols,
        houses_of,
        order,
        transpose: false,
        row_to: vec![0; n],
        col_to: vec![0; n],
        landing: vec![u128::MAX; extra.len() * (2 * n + 1)],
        houses: extra.len(),
        found: Vec::new(),
    };
    for &transpose in transposes {
        search.transpose = transpose;
        if !search.place(0) {
            return None;
        }
    }
    // In a fixed order whatever the search's: the identity first.
    search.found.sort_unstable_by(|a, b| {
        (a.transpose, &a.rows, &a.cols).cmp(&(b.transpose, &b.rows, &b.cols))
    });
    Some(search.found)
}

/// The state of [`find_group`]'s search.
struct GroupSearch {
    n: usize,
    rows: Lines,
    cols: Lines,
    houses_of: Vec<u128>,
    /// The order lines are placed in (row, then column of the same number).
    order: Vec<usize>,
    transpose: bool,
    /// Where each row (column) of the grid goes; only the placed lines are read.
    row_to: Vec<u8>,
    col_to: Vec<u8>,
    /// For each checked house, the houses that could hold the images of its placed
    /// cells: one slice of `houses` per step, so a step undoes by moving back.
    landing: Vec<u128>,
    houses: usize,
    found: Vec<CellMap>,
}

impl GroupSearch {
    /// Places the line of `step` (a row when `step` is even, else a column) every way
    /// its rule and the houses allow, and goes on; false once the group is too large.
    fn place(&mut self, step: usize) -> bool {
        let n = self.n;
        if step == 2 * n {
            if self.found.len() == MAX_GROUP {
                return false;
            }
            // `CellMap` lists, for each place, the line that lands there.
            let inverse = |to: &[u8]| {
                let mut from = vec![0u8; n];
                for (line, &place) in to.iter().enumerate() {
                    from[place as usize] = line as u8;
                }
                from
            };
            self.found.push(CellMap {
                transpose: self.transpose,
                rows: inverse(&self.row_to),
                cols: inverse(&self.col_to),
            });
            return true;
        }
        let (round, is_row) = (step / 2, step % 2 == 0);
        let line = self.order[round];
        let placed = &self.order[..round];
        let (rule, to) = if is_row {
            (self.rows, &self.row_to)
        } else {
            (self.cols, &self.col_to)
        };
        let taken = placed.iter().fold(0u64, |m, &l| m | 1 << to[l]);
        // Bit `p`: line `line` may go to place `p`.
        let allowed: u64 = match rule {
            // Line 0 is placed first, and every other line follows it.
            Lines::Mirror => match placed.first() {
                None => 1 | 1 << (n - 1),
                Some(&first) if to[first] == 0 => 1 << line,
                Some(_) => 1 << (n - 1 - line),
            },
            Lines::Blocks(size) => {
                let block = |place: usize| (u64::MAX >> (64 - size)) << (place - place % size);
                match placed.iter().find(|&&l| l / size == line / size) {
                    // The block is open: a free place in the block its lines went to.
                    Some(&mate) => block(to[mate] as usize) & !taken,
                    // It opens a block no line has gone to yet.
                    None => (0..n)
                        .filter(|&p| taken & block(p) == 0)
                        .fold(0, |m, p| m | 1 << p),
                }
            }
        };
        let h = self.houses;
        let mut left = allowed;
        while left != 0 {
            let place = left.trailing_zeros() as usize;
            left &= left - 1;
            if is_row {
                self.row_to[line] = place as u8;
            } else {
                self.col_to[line] = place as u8;
            }
            self.landing
                .copy_within(step * h..(step + 1) * h, (step + 1) * h);
            if self.fits(step) && !self.place(step + 1) {
                return false;
            }
        }
        true
    }

    /// Narrows the next step's `landing` by the cells whose images the placement at
    /// `step` fixed: those of its line that meet the lines of the other kind placed so
    /// far. False when some house has nowhere left to land.
    fn fits(&mut self, step: usize) -> bool {
        let n = self.n;
        let (round, is_row) = (step / 2, step % 2 == 0);
        let line = self.order[round];
        // A row meets the columns of earlier rounds; a column, the rows up to its own.
        let others = if is_row { round } else { round + 1 };
        let landing = &mut self.landing[(step + 1) * self.houses..(step + 2) * self.houses];
        for &other in &self.order[..others] {
            let (row_line, col_line) = if is_row { (line, other) } else { (other, line) };
            // Grid cell (a, b) lands at (row_to[a], col_to[b]), or transposed at
            // (row_to[b], col_to[a]).
            let (a, b) = if self.transpose {
                (col_line, row_line)
            } else {
                (row_line, col_line)
            };
            let mut mine = self.houses_of[a * n + b];
            if mine == 0 {
                continue;
            }
            let image = self.row_to[row_line] as usize * n + self.col_to[col_line] as usize;
            let theirs = self.houses_of[image];
            while mine != 0 {
                let h = mine.trailing_zeros() as usize;
                mine &= mine - 1;
                landing[h] &= theirs;
                if landing[h] == 0 {
                    return false;
                }
            }
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Variant;
    use crate::canon::canonical as canonical_form;

    fn geometry(spec: &str, n: usize, regions: Option<&str>) -> Arc<Geometry> {
        let mut v: Variant = spec.parse().unwrap();
        if let Some(map) = regions {
            v.regions = Some(Variant::parse_regions(map, n).unwrap());
        }
        Arc::new(Geometry::for_variant(n, None, &v).unwrap())
    }

    fn grid(g: &Arc<Geometry>, text: &str) -> Grid {
        let cells = text
            .bytes()
            .map(|b| if b.is_ascii_digit() { b - b'0' } else { 0 })
            .collect();
        Grid::from_cells(g.clone(), cells).unwrap()
    }

    const X_PUZZLE: &str =
        ".2..........4....143....7.9....5.2..........38................6.8...2.5...6.18...";

    #[test]
    fn the_x_sudoku_group_has_96_cell_maps() {
        // By hand: a map of rows r and columns c keeps both diagonals exactly when
        // c = r or c = r followed by reversal, with r commuting with reversal; such
        // band-keeping r: the bands kept or the outer two swapped (2), any order of the
        // first band's rows (6, the third band's follow), the middle band's outer rows
        // kept or swapped (2): 24; times 2 choices of c, times 2 for transposition.
        let x = geometry("x", 9, None);
        let empty = canonical_form(&Grid::empty(x)).unwrap();
        assert_eq!(empty.automorphisms, Some(96 * 362_880));
    }

    #[test]
    fn the_groups_of_the_named_extra_houses() {
        // By hand, each times 9! relabellings on the empty grid. Disjoint groups: the
        // bands (6) and stacks (6) in any order, one order of rows for every band (6,
        // as a cell's place in its box must move alike in every box) and of columns for
        // every stack (6), and transposition: 2,592. Centre dot: bands and stacks (36),
        // each band's outer rows kept or swapped (8) and each stack's outer columns (8),
        // transposition: 4,608. Asterisk and girandola: the square's eight symmetries,
        // times rows 4 and 6 (empty in both) kept or swapped, times columns 4 and 6: 32.
        for (variant, maps) in [
            ("disjoint", 2_592),
            ("centre-dot", 4_608),
            ("asterisk", 32),
            ("girandola", 32),
        ] {
            let empty = canonical_form(&Grid::empty(geometry(variant, 9, None))).unwrap();
            assert_eq!(empty.automorphisms, Some(maps * 362_880), "{variant}");
        }
    }

    #[test]
    fn the_latin_square_with_diagonals_group() {
        // By hand, as for X-sudoku without bands: the row map commutes with reversal
        // (pairs of rows mirrored about the middle go to such pairs, either way round:
        // 2^m m! for order 2m or 2m + 1), the column map is the same or reversed, and
        // transposition; times every relabelling on the empty square.
        for (n, rows) in [(4u128, 8u128), (5, 8), (9, 384)] {
            let g = geometry("latin,x", n as usize, None);
            let empty = canonical_form(&Grid::empty(g)).unwrap();
            let relabel: u128 = (1..=n).product();
            assert_eq!(
                empty.automorphisms,
                Some(rows * 2 * 2 * relabel),
                "order {n}"
            );
        }
    }

    #[test]
    fn equivalent_variant_puzzles_share_one_form() {
        let x = geometry("x", 9, None);
        let p = grid(&x, X_PUZZLE);
        let c = canonical_form(&p).unwrap();
        assert_eq!(c.transform.apply(&p).unwrap(), c.grid);
        assert_eq!(c.automorphisms, Some(1));
        for ops in [
            "rot90",
            "flip-h,relabel=987654321",
            "rows=1:321,rows=3:321,cols=1:321,cols=3:321,transpose",
        ] {
            let t = Transform::parse(Shape::CLASSIC, ops).unwrap();
            let q = t.apply(&p).unwrap();
            assert_eq!(canonical_form(&q).unwrap().grid, c.grid, "{ops}");
        }
        // A jigsaw whose lower bands are boxes keeps their rows' orders and the swap of
        // the two bands, and some column orders: 3,456 cell maps, as a brute force
        // outside the crate counts them (every row and column order, transposed or
        // not, kept when regions land on regions); its empty grid has 3,456 x 9!
        // automorphisms. (With the square's eight symmetries alone it had 9!.)
        let map =
            "AAAABBCCCAAABBBCCCAABBBBCCCDDDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII";
        let jigsaw = geometry("jigsaw", 9, Some(map));
        let empty = canonical_form(&Grid::empty(jigsaw)).unwrap();
        assert_eq!(empty.automorphisms, Some(3_456 * 362_880));
        // Regions that are boxes: a sudoku, whatever it is called (found by QA: 12
        // automorphisms where a brute force finds 48).
        let boxes = geometry("jigsaw", 4, Some("AABBAABBCCDDCCDD"));
        let plain = Arc::new(Geometry::new(Shape::SHIDOKU));
        let one = |g: &Arc<Geometry>| {
            let mut p = Grid::empty(g.clone());
            p.set(0, 4);
            canonical_form(&p).unwrap()
        };
        assert_eq!(one(&boxes).automorphisms, Some(48));
        assert_eq!(one(&boxes).grid.cells(), one(&plain).grid.cells());
    }

    #[test]
    fn sixteen_by_sixteen_variant_groups() {
        let sixteen_factorial: u128 = (1..=16).product();
        // X-sudoku, by hand as for 9x9: band-keeping row maps that commute with
        // reversal: the band pairs {1,4} and {2,3} kept or swapped, each either way
        // round (8), any order of the first band's rows and of the second's (24 * 24,
        // the fourth and third follow): 4,608; times 2 column maps, times transposition.
        let x = geometry("x", 16, None);
        let empty = canonical_form(&Grid::empty(x)).unwrap();
        assert_eq!(empty.automorphisms, Some(18_432 * sixteen_factorial));
        // Windoku: windows take rows 2-5, 7-10 and 12-15. A row map keeps them when it
        // keeps the bands and carries window rows to window rows: the bands as they are
        // or reversed (2), and within them rows 2-4 (6), 7-8 (2), 9-10 (2) and 13-15 (6)
        // in any order: 288; columns alike and independently, times transposition.
        let windoku = geometry("windoku", 16, None);
        let empty = canonical_form(&Grid::empty(windoku)).unwrap();
        assert_eq!(empty.automorphisms, Some(288 * 288 * 2 * sixteen_factorial));
        // A jigsaw map kept by the half turn and nothing else of the square's eight
        // symmetries (two cells swapped between the first two boxes, and the same
        // turned): its empty grid has 2 * 16! automorphisms.
        let mut map: Vec<Vec<char>> = (0..16)
            .map(|r| {
                (0..16)
                    .map(|c| (b'A' + (r / 4 * 4 + c / 4) as u8) as char)
                    .collect()
            })
            .collect();
        let swap = |m: &mut Vec<Vec<char>>, (r1, c1): (usize, usize), (r2, c2): (usize, usize)| {
            let t = m[r1][c1];
            m[r1][c1] = m[r2][c2];
            m[r2][c2] = t;
        };
        swap(&mut map, (3, 3), (0, 4));
        swap(&mut map, (12, 12), (15, 11));
        let map: String = map.into_iter().flatten().collect();
        let jigsaw = geometry("jigsaw", 16, Some(&map));
        let empty = canonical_form(&Grid::empty(jigsaw)).unwrap();
        assert_eq!(empty.automorphisms, Some(2 * sixteen_factorial));
    }

    #[test]
    fn large_groups_and_latin_puzzles_of_many_solutions_are_refused() {
        // Order 14 with diagonals: 2^7 7! row maps, times 2 column maps, times
        // transposition: 2,580,480 maps, above the limit.
        for g in [geometry("latin", 5, None), geometry("latin,x", 14, None)] {
            assert!(matches!(
                canonical_form(&Grid::empty(g)),
                Err(CanonError::Variant(..))
            ));
        }
    }

    proptest::proptest! {
        #[test]
        fn a_random_member_of_the_group_keeps_the_form(kind in 0usize..5, seed in proptest::prelude::any::<u64>()) {
            let g = match kind {
                0 => geometry("x", 9, None),
                4 => geometry("latin,x", 9, None),
                1 => geometry("windoku", 9, None),
                2 => geometry("x,windoku", 9, None),
                _ => geometry(
                    "jigsaw",
                    9,
                    Some("111222333111222333111222333444555666444555666444555666777888999777888999777888999"),
                ),
            };
            let solution = crate::solve::solve(&Grid::empty(g.clone())).expect("an empty grid fills");
            let mut rng = crate::rng::Rng::new(seed);
            let cells = solution
                .cells()
                .iter()
                .map(|&v| if rng.below(3) == 0 { v } else { 0 })
                .collect();
            let p = Grid::from_cells(g.clone(), cells).unwrap();
            let t = crate::canon::random_transform(&p, &mut || rng.next_u64()).unwrap();
            let moved = t.apply(&solution).unwrap();
            proptest::prop_assert!(moved.first_conflict().is_none());
            let q = t.apply(&p).unwrap();
            let (cp, cq) = (canonical_form(&p).unwrap(), canonical_form(&q).unwrap());
            proptest::prop_assert_eq!(&cp.grid, &cq.grid);
            proptest::prop_assert_eq!(cp.transform.apply(&p).unwrap(), cp.grid.clone());
            proptest::prop_assert_eq!(cp.automorphisms, cq.automorphisms);
        }
    }
}
