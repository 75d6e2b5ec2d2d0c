//! The seed documents' figures, reproduced by their engines, and agreement between all
//! engines on solutions and counts.

use super::*;
use crate::format::parse_grid;
use crate::puzzles::builtin;

/// Runs an engine, collecting solutions and the trace.
fn run_all(engine: Engine, grid: &Grid, limit: u64) -> (Outcome, Vec<(Vec<u8>, Stats)>, Vec<Step>) {
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
    assert_eq!(outcome.stats.steps, Some(50), "figure 14.12: \"it took 50 steps\"");
    assert_eq!(solutions.len(), 1);
    assert_eq!(
        parse_grid("816579243357624981492138765243816579981357624765492138579243816624981357138765492")
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
        assert!(w.ends_with("singleton") && (w.contains("=5") || w.contains("=8")), "{w}");
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
    let printed = "714953682925768134863241759692514378371829546548637291456382917287195463139476825";
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
