//! The seed documents' figures, reproduced by their engines, and agreement between all
//! engines on solutions and counts.

use proptest::prelude::*;

use super::*;
use crate::format::parse_grid;
use crate::grid::DigitSet;
use crate::puzzles::builtin;
use crate::shape::Shape;
use crate::solve::tests::{pattern_grid, planted_puzzles, shuffled};

/// Solutions with the statistics at the moment each was found.
type Found = Vec<(Vec<u8>, Stats)>;

/// Runs an engine, collecting solutions and the trace.
fn run_all(engine: Engine, grid: &Grid, limit: u64) -> (Outcome, Found, Vec<Step>) {
    let mut solutions = Vec::new();
    let mut steps = Vec::new();
    let outcome = run(
        engine,
        grid,
        &Limits::solutions(limit),
        Hooks {
            on_solution: &mut |cells, stats| {
                solutions.push((cells.to_vec(), *stats));
                true
            },
            on_step: Some(&mut |s| steps.push(*s)),
        },
    );
    (outcome, solutions, steps)
}

fn lo_shu() -> Grid {
    builtin("lo-shu").unwrap().grid()
}

#[test]
fn moler_takes_50_steps_on_the_lo_shu_puzzle() {
    let (outcome, solutions, trace) = run_all(Engine::Moler(Pick::FirstMin), &lo_shu(), 1);
    assert_eq!(
        outcome.stats.steps,
        Some(50),
        "figure 14.12: \"it took 50 steps\""
    );
    assert_eq!(solutions.len(), 1);
    assert_eq!(
        parse_grid(
            "816579243357624981492138765243816579981357624765492138579243816624981357138765492"
        )
        .unwrap()
        .cells(),
        solutions[0].0.as_slice(),
        "figure 14.3"
    );
    let g = lo_shu();
    let g = g.geometry();
    let work: Vec<String> = trace
        .iter()
        .filter(|s| s.reason != Reason::Given)
        .map(|s| s.describe(g))
        .collect();
    // "The initial candidates include just one singleton, the red 5 in position (3,9)."
    assert_eq!(work[0], "r3c9=5 singleton");
    // "Five steps with five singletons allow us to fill in the cells with green 5's and
    // 8's. We now consider the first cell with two candidates, in position (6,1). The
    // first step in the backtracking puts a tentative 6 in position (6,1)."
    for w in &work[1..6] {
        assert!(
            w.ends_with("singleton") && (w.contains("=5") || w.contains("=8")),
            "{w}"
        );
    }
    assert_eq!(work[6], "r6c1=6 guess");
    // "... we reach an impossible situation because there are no candidates for
    // position (6,2). Try again, with a 7 in position (6,1)." (The branch places the 6
    // and three singletons before the dead end.)
    let dead = work.iter().position(|w| w.ends_with("dead end")).unwrap();
    assert_eq!(dead, 10);
    assert_eq!(work[dead], "r6c2 dead end");
    assert_eq!(work[dead + 1], "r6c1=6 backtrack");
    assert_eq!(work[dead + 2], "r6c1=7 guess");
}

#[test]
fn octave_reproduces_the_articles_statistics() {
    let puzzle = builtin("octave").unwrap().grid();
    // "Solution num. 1 / cpu 2.164, call 46, rec 8, max 12"
    let (first, solutions, _) = run_all(Engine::Octave, &puzzle, 1);
    assert_eq!(solutions.len(), 1);
    assert_eq!(first.stats.first_solution_call, Some(46));
    assert_eq!(first.stats.first_solution_depth, Some(8));
    assert_eq!(first.stats.max_depth, Some(12));
    assert_eq!(first.stats.calls, Some(46));
    // "Trial calls and recursion depth: 435 15", one solution in all.
    let (all, solutions, _) = run_all(Engine::Octave, &puzzle, u64::MAX);
    assert_eq!(solutions.len(), 1);
    assert_eq!(all.stats.calls, Some(435));
    assert_eq!(all.stats.max_depth, Some(15));
    assert_eq!(all.report.stop, Stop::Exhausted);
    let printed =
        "714953682925768134863241759692514378371829546548637291456382917287195463139476825";
    assert_eq!(solutions[0].0, parse_grid(printed).unwrap().cells());
}

#[test]
fn diag_1_to_4_has_two_solutions_transposes_of_each_other() {
    let diag = builtin("diag4").unwrap().grid();
    let transpose = |s: &[u8]| (0..16).map(|i| s[(i % 4) * 4 + i / 4]).collect::<Vec<u8>>();
    for engine in [
        Engine::Moler(Pick::FirstMin),
        Engine::Octave,
        Engine::Fallin,
        Engine::Kronecker,
        Engine::Fast,
    ] {
        let (_, solutions, _) = run_all(engine, &diag, 10);
        assert_eq!(solutions.len(), 2, "{engine}");
        assert_eq!(solutions[1].0, transpose(&solutions[0].0), "{engine}");
    }
    // "we pick the first one and tentatively insert a 3 in cell (2,1)"
    let (_, _, trace) = run_all(Engine::Moler(Pick::FirstMin), &diag, 10);
    let first_guess = trace.iter().find(|s| s.reason == Reason::Guess).unwrap();
    assert_eq!((first_guess.cell, first_guess.value), (4, 3));
}

#[test]
fn gubin_solves_the_seed_puzzles() {
    for name in [
        "lo-shu",
        "lo-shu-5",
        "octave",
        "fallin",
        "kronecker",
        "kronecker-example",
    ] {
        let grid = builtin(name).unwrap().grid();
        let t = std::time::Instant::now();
        let (outcome, solutions, _) = run_all(Engine::Gubin, &grid, 10);
        let expected = crate::solve::count_solutions(&grid, 10).count;
        eprintln!(
            "{name}: {:?} {:?} {:?}",
            outcome.stats,
            gubin::analyse(&grid).outcome,
            t.elapsed()
        );
        assert_eq!(solutions.len() as u64, expected, "{name}");
    }
}

/// Solutions of a run, sorted, with whether the search space was exhausted.
fn solution_set(engine: Engine, grid: &Grid, limit: u64) -> (Vec<Vec<u8>>, bool) {
    let (outcome, solutions, _) = run_all(engine, grid, limit);
    let mut set: Vec<Vec<u8>> = solutions.into_iter().map(|(s, _)| s).collect();
    set.sort();
    (set, outcome.report.stop == Stop::Exhausted)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn all_engines_agree_on_solutions((shape, _planted, cells) in planted_puzzles()) {
        let puzzle = Grid::from_cells(Geometry::standard(shape), cells).unwrap();
        let limit = 30;
        let (expected, complete) = solution_set(Engine::Fast, &puzzle, limit);
        let mut engines = vec![
            Engine::Moler(Pick::FirstMin),
            Engine::Moler(Pick::LastMin),
            Engine::Moler(Pick::FirstEmpty),
            Engine::Octave,
            Engine::Fallin,
            Engine::Kronecker,
        ];
        if puzzle.geometry().is_classic() {
            engines.push(Engine::Gubin);
        }
        for engine in engines {
            let (found, exhausted) = solution_set(engine, &puzzle, limit);
            prop_assert_eq!(found.len(), expected.len(), "{}", engine);
            prop_assert_eq!(exhausted, complete, "{}", engine);
            for s in &found {
                let s = Grid::from_cells(puzzle.geometry().clone(), s.clone()).unwrap();
                prop_assert!(s.solves(&puzzle), "{}", engine);
            }
            if complete {
                prop_assert_eq!(&found, &expected, "{}", engine);
            }
        }
        // The listing below the one-liner finds every solution (its invalid completions
        // aside), and branches exactly when singles do not settle the puzzle.
        if complete && puzzle.first_conflict().is_none() {
            let listing = kronecker::listing(&puzzle);
            let mut found = listing.solutions.clone();
            found.sort();
            prop_assert_eq!(found, expected.clone());
            prop_assert_eq!(listing.fiendish > 0, kronecker::fiendish(&puzzle));
            if !expected.is_empty() {
                let stalled = matches!(kronecker::singles(&puzzle), kronecker::Singles::Stalled(_));
                prop_assert_eq!(stalled, listing.fiendish > 0);
                if let kronecker::Singles::Solved(s) = kronecker::singles(&puzzle) {
                    prop_assert_eq!(&vec![s], &expected);
                }
            }
            if expected.len() > 1 {
                prop_assert!(kronecker::fiendish(&puzzle));
            }
        }
    }
}

/// 9x9 puzzles made by blanking many cells of a shuffled valid grid: they have the
/// planted solution and often many more.
fn sparse_classic_puzzles() -> impl Strategy<Value = Grid> {
    (prop::collection::vec(any::<u32>(), 32), 0.55f64..0.72).prop_map(|(seed, blank)| {
        let solution = shuffled(Shape::CLASSIC, &pattern_grid(Shape::CLASSIC), &seed);
        let cells = solution
            .iter()
            .enumerate()
            .map(|(i, &v)| {
                let r =
                    seed[i % 32].rotate_left(i as u32 % 31) ^ (i as u32).wrapping_mul(0x9e37_79b9);
                if ((r % 1000) as f64) < blank * 1000.0 {
                    0
                } else {
                    v
                }
            })
            .collect();
        Grid::from_cells(Geometry::classic(), cells).unwrap()
    })
}

/// The union over all solutions (at most `limit` of them), or `None` beyond the limit.
fn union_of_solutions(grid: &Grid, limit: u64) -> Option<(u64, Vec<DigitSet>)> {
    let mut union = vec![DigitSet::EMPTY; grid.cells().len()];
    let report = crate::solve::search(grid, &Limits::solutions(limit), &mut |s| {
        for (u, &v) in union.iter_mut().zip(s) {
            u.insert(v);
        }
        true
    });
    (report.stop == Stop::Exhausted).then_some((report.solutions, union))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn gubin_depletion_keeps_every_value_a_solution_uses(puzzle in sparse_classic_puzzles()) {
        let Some((count, union)) = union_of_solutions(&puzzle, 5000) else {
            return Ok(());
        };
        prop_assert!(count >= 1);
        let depleted = gubin::deplete(&puzzle).expect("a puzzle with solutions does not nil");
        let analysed = gubin::analyse(&puzzle);
        for cell in 0..81 {
            // Depletion alone, and with the template phase, only removes values that no
            // solution uses.
            prop_assert_eq!(union[cell] & !depleted[cell], DigitSet::EMPTY, "cell {}", cell);
            prop_assert_eq!(union[cell] & !analysed.candidates[cell], DigitSet::EMPTY);
        }
        // The exact general solution is the union over all solutions, both ways.
        let general = gubin::general_solution(&puzzle).expect("solutions exist");
        prop_assert_eq!(&general, &union);
        if count == 1 {
            prop_assert!(!matches!(analysed.outcome, gubin::Outcome::NoSolution));
        } else {
            prop_assert_eq!(analysed.outcome, gubin::Outcome::Uncertain);
        }
    }
}

#[test]
fn gubin_depletion_alone_keeps_values_no_solution_uses() {
    // Moler's Lo-Shu puzzle with 6 at (9,1): two solutions. Depletion (formula 6)
    // keeps values that neither uses; the template phase and the exact general
    // solution do not.
    let grid = builtin("lo-shu-6").unwrap().grid();
    let (count, union) = union_of_solutions(&grid, 100).unwrap();
    assert_eq!(count, 2);
    let depleted = gubin::deplete(&grid).unwrap();
    let extra: usize = (0..81).map(|c| (depleted[c] & !union[c]).len()).sum();
    assert!(extra > 0);
    assert!((0..81).all(|c| union[c] & !depleted[c] == DigitSet::EMPTY));
    assert_eq!(gubin::general_solution(&grid).unwrap(), union);
    assert_eq!(gubin::analyse(&grid).outcome, gubin::Outcome::Uncertain);
    let lo_shu = gubin::analyse(&lo_shu());
    assert!(matches!(lo_shu.outcome, gubin::Outcome::Unique(_)));
    assert_eq!(
        gubin::analyse(&builtin("lo-shu-7").unwrap().grid()).outcome,
        gubin::Outcome::NoSolution
    );
}

/// Moler's transforms of a grid (`X'`, `rot90(X,-1)`, `flipud`, `fliplr`,
/// `X([4:9 1:3],:)`, `X(:,[3 1 2 4:9])`, a relabelling `p(X(z))`), as maps on 81 cells.
/// A named map from a grid's cells to the transformed grid's cells.
type Transform = (&'static str, Box<dyn Fn(&[u8]) -> Vec<u8>>);

fn moler_transforms() -> Vec<Transform> {
    let by_position = |f: fn(usize, usize) -> (usize, usize)| {
        move |x: &[u8]| -> Vec<u8> {
            (0..81)
                .map(|i| {
                    let (r, c) = f(i / 9, i % 9);
                    x[r * 9 + c]
                })
                .collect()
        }
    };
    vec![
        ("transpose", Box::new(by_position(|r, c| (c, r)))),
        ("rot90(X,-1)", Box::new(by_position(|r, c| (8 - c, r)))),
        ("flipud", Box::new(by_position(|r, c| (8 - r, c)))),
        ("fliplr", Box::new(by_position(|r, c| (r, 8 - c)))),
        (
            "X([4:9 1:3],:)",
            Box::new(by_position(|r, c| ((r + 3) % 9, c))),
        ),
        (
            "X(:,[3 1 2 4:9])",
            Box::new(by_position(|r, c| {
                (r, if c < 3 { [2, 0, 1][c] } else { c })
            })),
        ),
        (
            "p(X(z))",
            Box::new(|x: &[u8]| {
                let p = [0, 4, 9, 2, 7, 1, 8, 3, 6, 5];
                x.iter().map(|&v| p[v as usize]).collect()
            }),
        ),
    ]
}

#[test]
fn moler_transforms_keep_the_solutions() {
    // "All of the variations are basically the same puzzle": counts are kept, and the
    // solutions of the transformed puzzle are the transformed solutions.
    for (name, count) in [
        ("lo-shu", 1),
        ("lo-shu-6", 2),
        ("lo-shu-0", 4),
        ("kron", 283_576),
    ] {
        let grid = builtin(name).unwrap().grid();
        let (mut base, _) = solution_set(Engine::Fast, &grid, 10);
        for (t, f) in moler_transforms() {
            let moved = Grid::from_cells(Geometry::classic(), f(grid.cells())).unwrap();
            assert_eq!(
                crate::solve::count_solutions(&moved, u64::MAX).count,
                count,
                "{name} {t}"
            );
            if count <= 4 {
                let (found, _) = solution_set(Engine::Moler(Pick::FirstMin), &moved, 10);
                let mut expected: Vec<Vec<u8>> = base.iter_mut().map(|s| f(s)).collect();
                expected.sort();
                assert_eq!(found, expected, "{name} {t}");
            }
        }
    }
}
