//! Canonical forms of Latin-square puzzles (order up to 10), through their solution.
//!
//! A Latin square's group is every row permutation, every column permutation, every
//! relabelling and transposition: `2 (n!)^3` maps, too many to try, and the partial
//! squares of puzzles give the row-by-row search of sudoku little to hold on to. A
//! complete square is easier: its smallest image (row-major, digits 1 to n) is
//! *reduced*, with first row and first column `1 2 ... n` (every square has a reduced
//! image, and no row can start smaller). So the minimum is among the images that take
//! some row (of the square or its transpose) first and some column order: `2 n n!`
//! candidates, the labels and the row order then forced. A puzzle with one solution
//! takes the smallest of its images under the maps that carry its solution onto the
//! solution's minimum; those maps are a coset of the solution's symmetries, the same
//! set for every equivalent puzzle, so the result is a canonical form. Puzzles without
//! a unique solution have none here.

use super::{CanonError, Canonical};
use crate::grid::Grid;
use crate::perm::next_permutation;
use crate::shape::Shape;
use crate::solve::{Verdict, solve_unique};
use crate::transform::Transform;

/// The largest order with a canonical form here (9 takes about 0.15 s: 6.5 million
/// candidate images, most rejected in their second row; 10 about 1.7 s: 72.6 million;
/// 11 would take about 20 s).
pub const MAX_ORDER: usize = 10;

/// One map carrying the solution onto its minimum: transposed or not, then the source
/// rows and columns in their new order, then the new label of each digit.
struct Map {
    transpose: bool,
    rows: Vec<usize>,
    cols: Vec<usize>,
    digits: Vec<u8>,
}

/// The canonical form of a Latin-square puzzle with a unique solution.
pub(super) fn canonical(grid: &Grid) -> Result<Canonical, CanonError> {
    let g = grid.geometry();
    let n = g.size();
    let refuse = |why: &str| Err(CanonError::Variant(g.name().to_string(), why.to_string()));
    if n > MAX_ORDER {
        return refuse("Latin squares get canonical forms up to order 10");
    }
    let solution = match solve_unique(grid) {
        Verdict::Unique(s) => s,
        _ => {
            return refuse(
                "a Latin square's canonical form goes through its solution, and this puzzle has none or several",
            );
        }
    };
    let shape = Shape::new(1, n).expect("a geometry's side");
    let mut best: Option<Grid> = None;
    let mut best_transform = None;
    let mut automorphisms = 0u128;
    for m in minimal_maps(solution.cells(), n) {
        let t = Transform::from_parts(shape, m.transpose, &m.rows, &m.cols, &m.digits)
            .expect("a Latin square's maps are valid transformations");
        let image = t.apply(grid).expect("a Latin square takes every map");
        match best.as_ref().map(|b| image.cells().cmp(b.cells())) {
            Some(std::cmp::Ordering::Greater) => {}
            Some(std::cmp::Ordering::Equal) => automorphisms += 1,
            _ => {
                best = Some(image);
                best_transform = Some(t);
                automorphisms = 1;
            }
        }
    }
    Ok(Canonical {
        grid: best.expect("a complete square has a minimal image"),
        transform: best_transform.expect("with its map"),
        automorphisms: Some(automorphisms),
    })
}

/// Every map taking the complete Latin square `cells` (row-major, digits 1 to `n`) onto
/// its smallest image.
fn minimal_maps(cells: &[u8], n: usize) -> Vec<Map> {
    let mut best = vec![u8::MAX; n * n];
    let mut maps: Vec<Map> = Vec::new();
    let mut label = vec![0u8; n + 1];
    let mut row_at = vec![0usize; n];
    for transpose in [false, true] {
        let at = |r: usize, c: usize| {
            if transpose {
                cells[c * n + r]
            } else {
                cells[r * n + c]
            }
        };
        for first in 0..n {
            let mut cols: Vec<usize> = (0..n).collect();
            loop {
                // Row `first` reads 1..n in this column order: that fixes the labels,
                // and column 0 (then 1..n as well) fixes the order of the rows.
                for (j, &c) in cols.iter().enumerate() {
                    label[at(first, c) as usize] = j as u8 + 1;
                }
                for (r, slot) in (0..n).map(|r| (r, label[at(r, cols[0]) as usize] as usize - 1)) {
                    row_at[slot] = r;
                }
                // Compare with the best so far, row by row (row 0 and column 0 are
                // always the same).
                let mut order = std::cmp::Ordering::Equal;
                'rows: for i in 1..n {
                    for j in 1..n {
                        let v = label[at(row_at[i], cols[j]) as usize];
                        order = v.cmp(&best[i * n + j]);
                        if order != std::cmp::Ordering::Equal {
                            break 'rows;
                        }
                    }
                }
                if order != std::cmp::Ordering::Greater {
                    if order == std::cmp::Ordering::Less {
                        for i in 0..n {
                            for j in 0..n {
                                best[i * n + j] = label[at(row_at[i], cols[j]) as usize];
                            }
                        }
                        maps.clear();
                    }
                    maps.push(Map {
                        transpose,
                        rows: row_at.clone(),
                        cols: cols.clone(),
                        digits: (1..=n).map(|d| label[d]).collect(),
                    });
                }
                if !next_permutation(&mut cols) {
                    break;
                }
            }
        }
    }
    maps
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::geometry::Geometry;
    use crate::rng::Rng;

    fn latin(n: usize, text: &str) -> Grid {
        let v: crate::Variant = "latin".parse().unwrap();
        let g = Arc::new(Geometry::for_variant(n, None, &v).unwrap());
        let options = crate::format::ReadOptions {
            geometry: Some(g),
            ..Default::default()
        };
        crate::format::parse_one(text, &options).unwrap().grid
    }

    #[test]
    fn a_complete_square_goes_to_a_reduced_one() {
        // The Cayley table of Z/4 shuffled: its minimum is reduced, and with every
        // row, column and label chosen freely it has many symmetries.
        let square = latin(4, "2341341241231234");
        let c = canonical(&square).unwrap();
        let cells = c.grid.cells();
        assert_eq!(&cells[..4], &[1, 2, 3, 4]);
        assert_eq!(
            (0..4).map(|i| cells[i * 4]).collect::<Vec<_>>(),
            vec![1, 2, 3, 4]
        );
        assert_eq!(c.transform.apply(&square).unwrap(), c.grid);
        // Z/4's autotopisms: 4^2 * |Aut(Z/4)| = 32 (Latin squares of a group have
        // n^2 |Aut(G)| autotopisms), doubled by the transposition of an abelian table.
        assert_eq!(c.automorphisms, Some(64));
    }

    #[test]
    fn equivalent_puzzles_share_their_form_and_others_do_not() {
        let mut rng = Rng::new(5);
        let v: crate::Variant = "latin".parse().unwrap();
        for n in [4, 5, 6, 7] {
            let g = Arc::new(Geometry::for_variant(n, None, &v).unwrap());
            let options = crate::generate::Options::default();
            let a = crate::generate::generate(&g, &options, &mut rng)
                .unwrap()
                .puzzle;
            let b = crate::generate::generate(&g, &options, &mut rng)
                .unwrap()
                .puzzle;
            let ca = canonical(&a).unwrap();
            assert_eq!(ca.transform.apply(&a).unwrap(), ca.grid);
            for _ in 0..5 {
                let t = crate::canon::random_transform(&a, &mut || rng.next_u64()).unwrap();
                let moved = t.apply(&a).unwrap();
                let cm = canonical(&moved).unwrap();
                assert_eq!(cm.grid, ca.grid, "order {n}");
                assert_eq!(cm.automorphisms, ca.automorphisms);
                assert_eq!(cm.transform.apply(&moved).unwrap(), cm.grid);
            }
            // Another random puzzle is almost surely not equivalent; the solver-free
            // check: equal forms would give equal clue counts.
            if a.filled() != b.filled() {
                assert_ne!(canonical(&b).unwrap().grid, ca.grid);
            }
        }
    }

    #[test]
    fn order_ten_the_largest_keeps_its_form_under_a_transformation() {
        let v: crate::Variant = "latin".parse().unwrap();
        let g = Arc::new(Geometry::for_variant(MAX_ORDER, None, &v).unwrap());
        let mut rng = Rng::new(8);
        let options = crate::generate::Options::default();
        let a = crate::generate::generate(&g, &options, &mut rng)
            .unwrap()
            .puzzle;
        let t = crate::canon::random_transform(&a, &mut || rng.next_u64()).unwrap();
        let moved = t.apply(&a).unwrap();
        let (ca, cm) = (canonical(&a).unwrap(), canonical(&moved).unwrap());
        assert_eq!(cm.grid, ca.grid);
        assert_eq!(cm.transform.apply(&moved).unwrap(), cm.grid);
    }

    #[test]
    fn the_576_squares_of_order_4_form_two_classes() {
        // All Latin squares of order 4 (576, the count the issue cites) fall into two
        // isotopy classes (OEIS A040082; transposition merges none, as the two main
        // classes, A003090, are two as well), and orbit-stabiliser holds: the group
        // has 2 * 4!^3 = 27,648 maps, so the class sizes 27,648 / automorphisms add
        // up to 576.
        let empty = latin(4, "................");
        let mut classes: std::collections::HashMap<Vec<u8>, (u128, u64)> = Default::default();
        let mut squares = 0u64;
        let limits = crate::solve::Limits::solutions(u64::MAX);
        crate::solve::search(&empty, &limits, &mut |cells| {
            let square = Grid::from_cells(empty.geometry().clone(), cells.to_vec()).unwrap();
            let c = canonical(&square).unwrap();
            let entry = classes
                .entry(c.grid.cells().to_vec())
                .or_insert((c.automorphisms.unwrap(), 0));
            assert_eq!(entry.0, c.automorphisms.unwrap());
            entry.1 += 1;
            squares += 1;
            true
        });
        assert_eq!(squares, 576);
        assert_eq!(classes.len(), 2);
        for (aut, members) in classes.values() {
            assert_eq!(27_648 / *aut as u64, *members);
        }
    }

    #[test]
    fn puzzles_without_a_unique_solution_are_refused() {
        let e = canonical(&latin(4, "1...............")).unwrap_err();
        assert!(e.to_string().contains("none or several"), "{e}");
    }
}
