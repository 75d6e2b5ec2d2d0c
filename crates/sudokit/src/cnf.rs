//! The puzzle as propositional logic (DIMACS CNF), for general-purpose SAT solvers.
//!
//! Variable `c * n + d` (1-based `d`) says "cell `c` holds digit `d`": `n^3` variables.
//! Clauses: every cell holds exactly one digit, and every house holds every digit
//! exactly once (at-least-one clauses plus pairwise at-most-one clauses), and each given
//! is a unit clause. This is the encoding the peer figures in REFERENCE.md were measured
//! with, so a SAT solver run on our export is a like-for-like comparison; it also serves
//! as an independent oracle for the variants (any house structure encodes the same way).

use std::fmt::Write as _;

use crate::grid::Grid;

/// The DIMACS variable of "cell holds digit" (`digit` from 1).
pub fn variable(n: usize, cell: usize, digit: u8) -> usize {
    cell * n + digit as usize
}

/// Writes the puzzle as DIMACS CNF.
pub fn to_dimacs(grid: &Grid) -> String {
    let g = grid.geometry();
    let n = g.size();
    let cells = g.cell_count();
    let mut clauses: Vec<Vec<i64>> = Vec::new();
    let exactly_one = |vars: &[usize], clauses: &mut Vec<Vec<i64>>| {
        clauses.push(vars.iter().map(|&v| v as i64).collect());
        for (i, &a) in vars.iter().enumerate() {
            for &b in &vars[i + 1..] {
                clauses.push(vec![-(a as i64), -(b as i64)]);
            }
        }
    };
    for cell in 0..cells {
        let vars: Vec<usize> = (1..=n as u8).map(|d| variable(n, cell, d)).collect();
        exactly_one(&vars, &mut clauses);
    }
    for house in g.houses() {
        for d in 1..=n as u8 {
            let vars: Vec<usize> = house.cells().map(|c| variable(n, c, d)).collect();
            exactly_one(&vars, &mut clauses);
        }
    }
    for (cell, v) in grid.givens() {
        clauses.push(vec![variable(n, cell, v) as i64]);
    }
    let mut s = String::new();
    let _ = writeln!(
        s,
        "c sudokit: {} puzzle, variable c*{n}+d = cell c (row-major, from 0) holds digit d",
        g.name()
    );
    let _ = writeln!(s, "p cnf {} {}", cells * n, clauses.len());
    for clause in &clauses {
        for lit in clause {
            let _ = write!(s, "{lit} ");
        }
        s.push_str("0\n");
    }
    s
}

/// Reads a SAT solver's model (the `v` lines of the competition format, or bare
/// literals) back into a grid of the same geometry: the positive literals' digits.
/// Returns `None` if the model does not give every cell exactly one digit.
pub fn decode_model(puzzle: &Grid, model: &str) -> Option<Grid> {
    let n = puzzle.size();
    let mut cells = vec![0u8; puzzle.geometry().cell_count()];
    for token in model.split_whitespace() {
        let Ok(lit) = token.parse::<i64>() else {
            continue;
        };
        if lit <= 0 {
            continue;
        }
        let v = lit as usize - 1;
        let (cell, d) = (v / n, (v % n) as u8 + 1);
        if cell >= cells.len() || cells[cell] != 0 {
            return None;
        }
        cells[cell] = d;
    }
    Grid::from_cells(puzzle.geometry().clone(), cells)
        .ok()
        .filter(|g| g.is_complete())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_grid;
    use crate::solve::solve;

    #[test]
    fn counts_and_round_trip() {
        let puzzle = parse_grid("1.....3..2.....4").unwrap();
        let cnf = to_dimacs(&puzzle);
        // 16 cells: 16 at-least-one + 16*6 pairwise; 12 houses x 4 digits: 48 + 48*6; 4 givens.
        let expected = 16 + 16 * 6 + 48 + 48 * 6 + 4;
        assert!(cnf.contains(&format!("p cnf 64 {expected}\n")), "{cnf}");
        // Our own solution, written as a model, decodes to itself.
        let solution = solve(&puzzle).unwrap();
        let model: String = (0..16)
            .flat_map(|c| (1..=4u8).map(move |d| (c, d)))
            .map(|(c, d)| {
                let v = variable(4, c, d) as i64;
                if solution.get(c) == d {
                    format!("{v} ")
                } else {
                    format!("-{v} ")
                }
            })
            .collect();
        assert_eq!(
            decode_model(&puzzle, &format!("v {model}0")),
            Some(solution)
        );
    }
}
