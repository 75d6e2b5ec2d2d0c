//! Canonical forms of variants (X-sudoku, windoku, jigsaw, ...) up to 9x9.
//!
//! A variant's equivalence group is the part of its box shape's group that carries
//! every house onto a house ([`Transform::keeps`]): for X-sudoku 96 cell maps (the
//! square's symmetries, and row permutations that commute with reversal applied to rows
//! and columns alike), for a jigsaw usually the identity alone. It is found once per
//! geometry by running through the whole cell part of the group (3,359,232 maps for 9x9)
//! and kept; the canonical form is then the smallest of the few images, each labelled
//! in order of first appearance, under the same minlex definition as standard sudoku.
//! A jigsaw has no boxes and so no bands: its group here is the square's eight
//! symmetries that keep its region map (a row permutation that keeps an irregular map
//! is a curiosity), at any side. Beyond 9x9 the cell part of a boxed variant's group is
//! too large to run through (about 10^14 maps for 16x16): refused. Latin squares (every
//! row and column permutation) are another search (`canon/latin.rs`).

use std::sync::{Arc, Mutex};

use super::{CanonError, Canonical};
use crate::geometry::{Geometry, HouseKind};
use crate::grid::Grid;
use crate::shape::Shape;
use crate::transform::Transform;

/// The largest side whose variants get canonical forms.
pub const MAX_SIDE: usize = 9;

/// The most cell maps a variant's group may have here (a jigsaw whose regions are the
/// boxes keeps all 3,359,232 of 9x9: it is a standard sudoku in disguise).
const MAX_GROUP: usize = 1 << 16;

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
static GROUPS: Mutex<Vec<(Arc<Geometry>, Group)>> = Mutex::new(Vec::new());

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

/// Transposed or not.
const BOTH: &[bool] = &[false, true];
/// Never transposed (boxes that are not square).
const NO_TRANSPOSE: &[bool] = &[false];

/// The box shape and the cell maps that keep `g`'s houses, from the cache or found now.
fn group(g: &Arc<Geometry>) -> Result<(Shape, Group), CanonError> {
    let refuse = |why: &str| Err(CanonError::Variant(g.name().to_string(), why.to_string()));
    let n = g.size();
    let id: Vec<u8> = (0..n as u8).collect();
    let rev: Vec<u8> = id.iter().rev().copied().collect();
    // What to run through: row maps, column maps, and whether to transpose too.
    let (shape, rows, cols, transposes) = match g.shape() {
        Some(shape) if n <= MAX_SIDE => (
            shape,
            block_perms(shape.box_cols(), shape.box_rows()),
            block_perms(shape.box_rows(), shape.box_cols()),
            if shape.box_rows() == shape.box_cols() {
                BOTH
            } else {
                NO_TRANSPOSE
            },
        ),
        Some(_) => return refuse("variants with boxes get canonical forms up to 9x9"),
        // A Latin square with diagonals: a row map must commute with reversal to keep
        // them (the column map is the same or reversed), 2^(n/2) (n/2)! of them.
        None if g.variant().latin && g.variant().diagonals => {
            if n > MAX_SIDE {
                return refuse("Latin squares with diagonals get canonical forms up to order 9");
            }
            let keep: Vec<Vec<u8>> = perms(n)
                .into_iter()
                .filter(|p| (0..n).all(|i| p[n - 1 - i] as usize == n - 1 - p[i] as usize))
                .collect();
            (
                Shape::new(1, n).expect("a geometry's side"),
                keep.clone(),
                keep,
                BOTH,
            )
        }
        None if g.variant().latin => {
            return refuse("Latin squares have every row and column permutation, another search");
        }
        // A grid without boxes (a jigsaw) takes the square's eight symmetries, read
        // in the 1xN shape where rows and columns move freely. Eight maps to try:
        // cheaper than a cache, which a file of many region maps would fill.
        None => {
            let shape = Shape::new(1, n).expect("a geometry's side");
            let both = vec![id, rev];
            let found = find_group(g, shape, both.clone(), both, BOTH).expect("at most eight maps");
            return Ok((shape, Arc::new(found)));
        }
    };
    // Boxed variants and Latin squares with diagonals come in a handful of geometries
    // (X, windoku, both, per shape).
    let mut groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    if let Some((_, group)) = groups.iter().find(|(k, _)| Arc::ptr_eq(k, g) || **k == **g) {
        return Ok((shape, group.clone()));
    }
    let Some(found) = find_group(g, shape, rows, cols, transposes) else {
        return refuse("its group is too large (its houses are those of a standard sudoku?)");
    };
    let group = Arc::new(found);
    groups.push((g.clone(), group.clone()));
    Ok((shape, group))
}

/// Every cell map made of one of `rows`, one of `cols` and one of `transposes` that
/// keeps `g`'s houses, identity first; `None` beyond [`MAX_GROUP`].
fn find_group(
    g: &Geometry,
    shape: Shape,
    rows: Vec<Vec<u8>>,
    cols: Vec<Vec<u8>>,
    transposes: &[bool],
) -> Option<Vec<CellMap>> {
    let n = shape.size();
    let bit = |r: usize, c: usize| 1u128 << (r * n + c);
    let mask = |cells: &mut dyn Iterator<Item = usize>| cells.fold(0u128, |m, c| m | 1 << c);
    let mut houses: Vec<u128> = g.houses().iter().map(|h| mask(&mut h.cells())).collect();
    houses.sort_unstable();
    // Rows, columns and boxes go to rows, columns and boxes under every map; the other
    // houses (diagonals, windows, regions) are checked, as lists of (row, column).
    let extra: Vec<Vec<(usize, usize)>> = g
        .houses()
        .iter()
        .filter(|h| {
            !matches!(
                h.kind(),
                HouseKind::Row | HouseKind::Column | HouseKind::Box
            )
        })
        .map(|h| h.cells().map(|c| (c / n, c % n)).collect())
        .collect();
    let inverse = |p: &[u8]| {
        let mut q = vec![0usize; p.len()];
        for (i, &x) in p.iter().enumerate() {
            q[x as usize] = i;
        }
        q
    };
    let cols_inv: Vec<Vec<usize>> = cols.iter().map(|c| inverse(c)).collect();
    let mut group = Vec::new();
    for &transpose in transposes {
        for r in &rows {
            let ri = inverse(r);
            for (c, ci) in cols.iter().zip(&cols_inv) {
                // Source cell (a, b) lands at (ri[a], ci[b]), or (ri[b], ci[a])
                // transposed.
                let keeps = extra.iter().all(|h| {
                    let image = h.iter().fold(0u128, |m, &(a, b)| {
                        m | if transpose {
                            bit(ri[b], ci[a])
                        } else {
                            bit(ri[a], ci[b])
                        }
                    });
                    houses.binary_search(&image).is_ok()
                });
                if keeps {
                    if group.len() == MAX_GROUP {
                        return None;
                    }
                    group.push(CellMap {
                        transpose,
                        rows: r.clone(),
                        cols: c.clone(),
                    });
                }
            }
        }
    }
    Some(group)
}

/// The permutations of `blocks * size` positions that keep blocks of `size` together
/// (bands of rows, stacks of columns), the identity first.
fn block_perms(blocks: usize, size: usize) -> Vec<Vec<u8>> {
    let within = perms(size);
    let mut out = Vec::new();
    for order in perms(blocks) {
        // Every choice of a permutation within each block, as a number in base size!.
        let choices = within.len().pow(blocks as u32);
        for mut k in 0..choices {
            let mut p = Vec::with_capacity(blocks * size);
            for &b in &order {
                let w = &within[k % within.len()];
                k /= within.len();
                p.extend(w.iter().map(|&x| (b as usize * size + x as usize) as u8));
            }
            out.push(p);
        }
    }
    out
}

/// All permutations of `0..k`, the identity first.
fn perms(k: usize) -> Vec<Vec<u8>> {
    let mut out = vec![Vec::new()];
    for x in 0..k as u8 {
        out = out
            .into_iter()
            .flat_map(|p| {
                (0..=p.len()).rev().map(move |i| {
                    let mut q = p.clone();
                    q.insert(i, x);
                    q
                })
            })
            .collect();
    }
    out
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
        // A jigsaw without symmetry keeps only relabellings: its empty grid has 9!.
        let map =
            "AAAABBCCCAAABBBCCCAABBBBCCCDDDEEEFFFDDDEEEFFFDDDEEEFFFGGGHHHIIIGGGHHHIIIGGGHHHIII";
        let jigsaw = geometry("jigsaw", 9, Some(map));
        let empty = canonical_form(&Grid::empty(jigsaw)).unwrap();
        assert_eq!(empty.automorphisms, Some(362_880));
    }

    #[test]
    fn large_variants_and_latin_puzzles_of_many_solutions_are_refused() {
        for g in [geometry("latin", 5, None), geometry("x", 16, None)] {
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

    #[test]
    fn permutations_of_blocks() {
        assert_eq!(perms(3).len(), 6);
        assert_eq!(perms(3)[0], vec![0, 1, 2]);
        let p = block_perms(3, 3);
        assert_eq!(p.len(), 1296);
        assert_eq!(p[0], (0..9).collect::<Vec<u8>>());
        assert_eq!(block_perms(2, 3).len(), 2 * 36);
    }
}
