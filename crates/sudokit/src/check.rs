//! Verdicts on puzzles: how many solutions (none, one, several), whether singles alone
//! settle the puzzle, and whether every given is needed.
//!
//! The verdict is a count up to two, by any engine ([`crate::engines`]). "Needs a
//! guess" is the fiendish test of the `sudoku.m` listing of seed 003 for the fast
//! engine (naked singles and hidden singles in boxes, applied as that listing applies
//! them; see [`crate::engines::kronecker::fiendish`]), and for a seed engine whether it
//! made a tentative move. Minimality asks, for a unique puzzle, whether removing any one
//! given keeps it unique.

use crate::engines::kronecker::{self, Singles};
use crate::engines::{self, Engine, Hooks, Stats};
use crate::geometry::Cell;
use crate::grid::{Conflict, Grid};
use crate::solve::{self, Limits, Stop};

/// How many solutions a puzzle has.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// No solution.
    None,
    /// Exactly one.
    Unique,
    /// Two or more.
    Multiple,
    /// Two givens break the rules (see [`Report::conflict`]).
    Invalid,
    /// A node or time limit stopped the search before it could tell.
    Timeout,
}

impl Verdict {
    /// The word used in output: `none`, `unique`, `multiple`, `invalid`, `timeout`.
    pub fn name(self) -> &'static str {
        match self {
            Verdict::None => "none",
            Verdict::Unique => "unique",
            Verdict::Multiple => "multiple",
            Verdict::Invalid => "invalid",
            Verdict::Timeout => "timeout",
        }
    }
}

/// What to check and how.
#[derive(Clone, Copy, Debug)]
pub struct Options {
    /// The engine that counts (and decides "needs a guess").
    pub engine: Engine,
    /// Also test whether every given is needed (unique puzzles only).
    pub minimal: bool,
    /// Node and time bounds on each search (the solution bound is ignored).
    pub limits: Limits,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            engine: Engine::Fast,
            minimal: false,
            limits: Limits::solutions(2),
        }
    }
}

/// Whether every given of a unique puzzle is needed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Minimality {
    /// True when removing any one given makes the puzzle lose uniqueness.
    pub minimal: bool,
    /// The givens whose removal keeps the puzzle unique, row-major.
    pub redundant: Vec<Cell>,
}

/// The findings on one puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    /// How many solutions.
    pub verdict: Verdict,
    /// The first conflicting pair of givens, for [`Verdict::Invalid`].
    pub conflict: Option<Conflict>,
    /// The first solution found, if any.
    pub solution: Option<Grid>,
    /// Whether singles alone fail to settle the puzzle (see the module doc); `None`
    /// for invalid puzzles.
    pub needs_guess: Option<bool>,
    /// With [`Options::minimal`], for unique puzzles.
    pub minimality: Option<Minimality>,
    /// The engine's statistics for the count up to two.
    pub stats: Stats,
}

/// Checks one puzzle.
pub fn check(grid: &Grid, options: &Options) -> Report {
    let mut report = Report {
        verdict: Verdict::Invalid,
        conflict: grid.first_conflict(),
        solution: None,
        needs_guess: None,
        minimality: None,
        stats: Stats::default(),
    };
    if report.conflict.is_some() {
        return report;
    }
    // The fast engine tries singles first: when they finish the grid, every move was
    // forced, so that is the unique solution and no search is needed; a contradiction
    // proves there is none.
    let singles = (options.engine == Engine::Fast).then(|| kronecker::singles(grid));
    match &singles {
        Some(Singles::Solved(cells)) => {
            report.verdict = Verdict::Unique;
            report.solution = Some(
                Grid::from_cells(grid.geometry().clone(), cells.clone()).expect("solution fits"),
            );
            report.needs_guess = Some(false);
            report.stats.guesses = Some(0);
        }
        Some(Singles::Contradiction) => {
            report.verdict = Verdict::None;
            report.needs_guess = Some(kronecker::fiendish(grid));
            report.stats.guesses = Some(0);
        }
        _ => count_to_two(grid, options, &mut report),
    }
    if options.minimal && report.verdict == Verdict::Unique {
        if let Some(solution) = report.solution.clone().or_else(|| solve::solve(grid)) {
            report.minimality = Some(minimality(grid, &solution));
        }
    }
    report
}

/// The verdict by a count up to two with the chosen engine, and "needs a guess".
fn count_to_two(grid: &Grid, options: &Options, report: &mut Report) {
    let limits = Limits {
        solutions: 2,
        ..options.limits
    };
    let mut first: Option<Vec<u8>> = None;
    let outcome = engines::run(
        options.engine,
        grid,
        &limits,
        Hooks {
            on_solution: &mut |cells, _| {
                first.get_or_insert_with(|| cells.to_vec());
                true
            },
            on_step: None,
        },
    );
    report.stats = outcome.stats;
    report.solution =
        first.map(|c| Grid::from_cells(grid.geometry().clone(), c).expect("solution fits"));
    report.verdict = match (outcome.report.stop, outcome.report.solutions) {
        (Stop::NodeLimit | Stop::Timeout, _) => Verdict::Timeout,
        (_, 0) => Verdict::None,
        (_, 1) => Verdict::Unique,
        _ => Verdict::Multiple,
    };
    let solvable = matches!(report.verdict, Verdict::Unique | Verdict::Multiple);
    report.needs_guess = Some(match options.engine {
        // With a solution, any order of the singles reaches the listing's end (and the
        // fast engine only counts once singles stalled); without, the listing decides.
        Engine::Fast if solvable => true,
        Engine::Kronecker if solvable => !matches!(kronecker::singles(grid), Singles::Solved(_)),
        Engine::Fast | Engine::Kronecker => kronecker::fiendish(grid),
        _ => outcome.stats.guesses.unwrap_or(0) > 0,
    });
}

/// For a unique puzzle with this `solution`: the givens whose removal keeps it unique.
pub fn minimality(grid: &Grid, solution: &Grid) -> Minimality {
    let cells: Vec<Vec<Cell>> = (0..grid.cells().len()).map(|c| vec![c]).collect();
    let redundant = crate::generate::redundant(grid, solution, &cells);
    Minimality {
        minimal: redundant.is_empty(),
        redundant,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::format::parse_grid;
    use crate::puzzles::builtin;

    fn verdict(name: &str) -> Verdict {
        check(&builtin(name).unwrap().grid(), &Options::default()).verdict
    }

    #[test]
    fn lo_shu_variants_of_exercise_14_5() {
        // "a 5 would produce another valid puzzle with a unique solution, a 6 would
        // produce a puzzle with two possible solutions, and a 7 would produce a puzzle
        // with no solution".
        assert_eq!(verdict("lo-shu"), Verdict::Unique);
        assert_eq!(verdict("lo-shu-5"), Verdict::Unique);
        assert_eq!(verdict("lo-shu-6"), Verdict::Multiple);
        assert_eq!(verdict("lo-shu-7"), Verdict::None);
        assert_eq!(verdict("lo-shu-0"), Verdict::Multiple);
        assert_eq!(verdict("kron"), Verdict::Multiple);
        assert_eq!(verdict("diag4"), Verdict::Multiple);
    }

    #[test]
    fn invalid_puzzles_name_the_first_conflict() {
        let mut grid = builtin("lo-shu").unwrap().grid();
        grid.set(3, 8); // r1c4 = 8 beside r1c1 = 8
        let r = check(&grid, &Options::default());
        assert_eq!(r.verdict, Verdict::Invalid);
        assert_eq!(
            r.conflict.unwrap().describe(grid.geometry()),
            "r1c1 and r1c4 both hold 8"
        );
        assert_eq!(r.needs_guess, None);
    }

    /// A test-only singles solver, one placement at a time: naked singles, then hidden
    /// singles in boxes. Whether it completes the grid.
    fn singles_solve(grid: &Grid) -> bool {
        let mut g = grid.clone();
        let boxes: Vec<Vec<usize>> = g
            .geometry()
            .houses()
            .iter()
            .filter(|h| h.kind() == crate::HouseKind::Box)
            .map(|h| h.cells().collect())
            .collect();
        'outer: while !g.is_complete() {
            let cand = crate::Candidates::from_grid(&g);
            for c in 0..g.cells().len() {
                if g.get(c) == 0 {
                    if let Some(d) = cand.get(c).single_digit() {
                        g.set(c, d);
                        continue 'outer;
                    }
                }
            }
            for b in &boxes {
                for d in 1..=g.size() as u8 {
                    let places: Vec<usize> = b
                        .iter()
                        .copied()
                        .filter(|&c| g.get(c) == 0 && cand.get(c).contains(d))
                        .collect();
                    if places.len() == 1 && !b.iter().any(|&c| g.get(c) == d) {
                        g.set(places[0], d);
                        continue 'outer;
                    }
                }
            }
            return false;
        }
        true
    }

    #[test]
    fn needs_guess_depends_on_the_engines_singles() {
        // Moler's program uses naked singles only and needs a tentative value on the
        // Lo-Shu puzzle (figure 14.12); hidden singles in boxes (the seed 003 listing,
        // the fast engine's test) solve it without one.
        let lo_shu = builtin("lo-shu").unwrap().grid();
        let moler = Options {
            engine: Engine::Moler(engines::Pick::FirstMin),
            ..Options::default()
        };
        assert_eq!(check(&lo_shu, &moler).needs_guess, Some(true));
        assert!(singles_solve(&lo_shu));
        assert_eq!(check(&lo_shu, &Options::default()).needs_guess, Some(false));
        // Figure 14.4's Shidoku is solved by singletons: no guess with either.
        let shidoku = builtin("shidoku").unwrap().grid();
        let r = check(&shidoku, &Options::default());
        assert_eq!((r.verdict, r.needs_guess), (Verdict::Unique, Some(false)));
        assert_eq!(check(&shidoku, &moler).needs_guess, Some(false));
        // The Octave article's puzzle (top1465 #77) is hard: singles stall.
        let octave = builtin("octave").unwrap().grid();
        assert!(!singles_solve(&octave));
        assert_eq!(check(&octave, &Options::default()).needs_guess, Some(true));
    }

    #[test]
    fn the_listings_test_agrees_with_a_plain_singles_solver() {
        let Some(text) = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../../../shared/data/puzzles3_magictour_top1465"),
        )
        .ok() else {
            return;
        };
        for line in text.lines().filter(|l| !l.starts_with('#')).take(300) {
            let grid = parse_grid(&line[..81]).unwrap();
            assert_eq!(
                check(&grid, &Options::default()).needs_guess,
                Some(!singles_solve(&grid)),
                "{line}"
            );
        }
        for name in [
            "lo-shu",
            "lo-shu-5",
            "fallin",
            "kronecker",
            "kronecker-example",
        ] {
            let grid = builtin(name).unwrap().grid();
            assert_eq!(
                check(&grid, &Options::default()).needs_guess,
                Some(!singles_solve(&grid)),
                "{name}"
            );
        }
    }

    #[test]
    fn minimality() {
        // Figure 14.4's Shidoku has four clues, and no Shidoku with three has a unique
        // solution (the published minimum for 4x4 is four), so every clue is needed.
        let options = Options {
            minimal: true,
            ..Options::default()
        };
        let r = check(&builtin("shidoku").unwrap().grid(), &options);
        let m = r.minimality.unwrap();
        assert!(m.minimal, "{m:?}");
        // A full grid has every given redundant (any one can be put back).
        let full = parse_grid("1234341221434321").unwrap();
        let r = check(&full, &options);
        assert_eq!(r.verdict, Verdict::Unique);
        assert_eq!(r.minimality.unwrap().redundant.len(), 16);
    }
}
