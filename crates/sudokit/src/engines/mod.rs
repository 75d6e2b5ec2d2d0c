//! The programs of the seed documents, reproduced as engines: each follows its
//! document's algorithm step for step (scanning order, choice of cell, order of values),
//! so that its statistics match the figures the document prints.
//!
//! * [`moler`]: Cleve Moler's `sudoku_basic` / `sudoku_all` (Experiments with MATLAB,
//!   ch. 14): 50 steps on the Lo-Shu puzzle (figure 14.12);
//! * [`octave`]: `sudoku01.m` of Luaña and Otero-de-la-Roza (Linux Gazette 174): first
//!   solution at call 46, depth 8; 435 calls, depth 15 in all;
//! * [`fallin`]: Chris Fallin's `reduce` / `solve` (Sudoku and Recursive Algorithms);
//! * [`kronecker`]: the one-screen MATLAB solver built on a Kronecker-product constraint
//!   matrix, and the `sudoku.m` listing below it with its "fiendish" verdict;
//! * [`gubin`]: Sergey Gubin's compatibility-matrix method in its per-digit form, with
//!   its depletion, its three outcomes and its general solution.
//!
//! Every engine reports solutions through the same [`Hooks`] and counts what it does in
//! the same [`Stats`]; a step-by-step [`Step`] trace is the data for displays that follow
//! the process. [`Engine::Fast`] is the library's own exact search, for comparison.
//! The seed engines are deliberately as slow as their documents: they recompute what
//! the originals recompute, because their step counts are the point.

pub mod fallin;
pub mod gubin;
pub mod kronecker;
pub mod moler;
pub mod octave;

use std::fmt;
use std::str::FromStr;

use crate::geometry::{Cell, Geometry};
use crate::grid::Grid;
use crate::solve::{self, Budget, Limits, Report, Stop};

/// How Moler's program chooses the cell to branch on (exercise 14.11).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Pick {
    /// `s = find(N==min(N),1)`: the first cell (column-major) with the fewest candidates.
    #[default]
    FirstMin,
    /// `s = find(N==min(N),1,'last')`: the last such cell.
    LastMin,
    /// `s = find(X==0,1,'first')`: the first empty cell.
    FirstEmpty,
}

impl Pick {
    /// The name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Pick::FirstMin => "first-min",
            Pick::LastMin => "last-min",
            Pick::FirstEmpty => "first-empty",
        }
    }
}

/// An engine: the library's exact search or one of the seed documents' programs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Engine {
    /// The library's exact search ([`crate::solve`]).
    #[default]
    Fast,
    /// Moler's `sudoku_basic` / `sudoku_all`, with a branching strategy.
    Moler(Pick),
    /// The Linux Gazette `sudoku01.m`.
    Octave,
    /// Fallin's recursive `reduce` / `solve`.
    Fallin,
    /// The Kronecker-product one-liner.
    Kronecker,
    /// Gubin's per-digit compatibility matrices.
    Gubin,
}

/// All engine names, for help texts.
pub const ENGINE_NAMES: &[&str] = &["fast", "moler", "octave", "fallin", "kronecker", "gubin"];

impl Engine {
    /// The engine's name (`moler` whatever its pick).
    pub fn name(self) -> &'static str {
        match self {
            Engine::Fast => "fast",
            Engine::Moler(_) => "moler",
            Engine::Octave => "octave",
            Engine::Fallin => "fallin",
            Engine::Kronecker => "kronecker",
            Engine::Gubin => "gubin",
        }
    }

    /// Whether the engine handles puzzles of this geometry; `Err` says why not.
    pub fn supports(self, geometry: &Geometry) -> Result<(), String> {
        match self {
            Engine::Gubin if !geometry.is_classic() => Err(format!(
                "the gubin engine handles classic 9x9 puzzles only (this one is {})",
                geometry.name()
            )),
            _ => Ok(()),
        }
    }
}

impl fmt::Display for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Engine {
    type Err = String;
    fn from_str(s: &str) -> Result<Engine, String> {
        Ok(match s.to_ascii_lowercase().as_str() {
            "fast" => Engine::Fast,
            "moler" => Engine::Moler(Pick::FirstMin),
            "octave" => Engine::Octave,
            "fallin" => Engine::Fallin,
            "kronecker" => Engine::Kronecker,
            "gubin" => Engine::Gubin,
            _ => {
                return Err(format!(
                    "unknown engine {s:?} (one of {})",
                    ENGINE_NAMES.join(", ")
                ));
            }
        })
    }
}

/// What an engine did, in its document's terms; fields that do not apply to an engine
/// are `None`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Values placed: singletons and tentative values, failed branches included
    /// (Moler's "steps").
    pub steps: Option<u64>,
    /// Calls of the recursive function (the Octave article's "trial calls").
    pub calls: Option<u64>,
    /// Deepest recursion level reached, the first call being level 1.
    pub max_depth: Option<u32>,
    /// Tentative values tried (branching choices).
    pub guesses: Option<u64>,
    /// The call during which the first solution was found.
    pub first_solution_call: Option<u64>,
    /// The recursion level at which the first solution was found.
    pub first_solution_depth: Option<u32>,
}

/// Why a step happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// A clue of the puzzle (listed first).
    Given,
    /// The cell had one candidate left.
    Singleton,
    /// The digit had one place left in a house.
    HiddenSingle,
    /// A tentative value.
    Guess,
    /// The cell has no candidate: this branch fails.
    DeadEnd,
    /// A tentative value is withdrawn after its branch was explored.
    Backtrack,
}

impl Reason {
    /// The word used in traces and JSON.
    pub fn name(self) -> &'static str {
        match self {
            Reason::Given => "given",
            Reason::Singleton => "singleton",
            Reason::HiddenSingle => "hidden single",
            Reason::Guess => "guess",
            Reason::DeadEnd => "dead end",
            Reason::Backtrack => "backtrack",
        }
    }
}

/// One step of an engine's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The cell (row-major index).
    pub cell: Cell,
    /// The value placed or withdrawn (0 for a dead end).
    pub value: u8,
    /// Why.
    pub reason: Reason,
    /// Recursion level (0 for givens).
    pub depth: u32,
    /// Moler's step counter after this step.
    pub steps: u64,
}

impl Step {
    /// `r6c1=7 guess` / `r6c2 dead end`, with the cell in r1c1 notation.
    pub fn describe(&self, geometry: &Geometry) -> String {
        let cell = geometry.cell_name(self.cell);
        match self.reason {
            Reason::DeadEnd => format!("{cell} {}", self.reason.name()),
            r => format!("{cell}={} {}", self.value, r.name()),
        }
    }
}

/// Where an engine's results go.
pub struct Hooks<'a> {
    /// Each solution (row-major digits) with the statistics at that moment; returns
    /// `false` to stop.
    pub on_solution: &'a mut dyn FnMut(&[u8], &Stats) -> bool,
    /// Each step, when tracing.
    pub on_step: Option<&'a mut dyn FnMut(&Step)>,
}

/// What a run of an engine found and did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// Solutions, nodes, why it stopped.
    pub report: Report,
    /// The engine's own statistics.
    pub stats: Stats,
}

/// Runs `engine` on `grid` within `limits`. The solution limit turns each document's
/// "first solution" program into its "all solutions" variant (Moler's `sudoku_basic`
/// into `sudoku_all`); the node limit counts the engine's calls.
///
/// Puzzles whose givens conflict have no solution and are not searched; geometries an
/// engine does not support ([`Engine::supports`]) report no solution either.
pub fn run(engine: Engine, grid: &Grid, limits: &Limits, hooks: Hooks<'_>) -> Outcome {
    if engine == Engine::Fast {
        // The library's search handles conflicting givens itself.
        let on_solution = hooks.on_solution;
        let mut stats = Stats::default();
        let report = solve::enumerate(grid, limits, &mut |cells| on_solution(cells, &stats));
        stats.guesses = Some(report.guesses);
        return Outcome { report, stats };
    }
    let mut run = Run::new(limits, hooks);
    if grid.first_conflict().is_some() || engine.supports(grid.geometry()).is_err() {
        return run.finish(Fields::NONE);
    }
    if limits.solutions == 0 {
        run.stopped = Some(Stop::SolutionLimit);
        return run.finish(Fields::NONE);
    }
    run.fields = match engine {
        Engine::Fast => Fields::NONE,
        Engine::Moler(_) => moler::FIELDS,
        Engine::Octave => octave::FIELDS,
        Engine::Fallin => fallin::FIELDS,
        Engine::Kronecker => kronecker::FIELDS,
        Engine::Gubin => gubin::FIELDS,
    };
    for (cell, v) in grid.givens() {
        run.step(cell, v, Reason::Given, 0);
    }
    match engine {
        Engine::Fast => unreachable!("handled above"),
        Engine::Moler(pick) => {
            moler::search(grid, pick, &mut run);
            run.finish(moler::FIELDS)
        }
        Engine::Octave => {
            octave::search(grid, &mut run);
            run.finish(octave::FIELDS)
        }
        Engine::Fallin => {
            fallin::search(grid, &mut run);
            run.finish(fallin::FIELDS)
        }
        Engine::Kronecker => {
            kronecker::search(grid, &mut run);
            run.finish(kronecker::FIELDS)
        }
        Engine::Gubin => {
            gubin::search(grid, &mut run);
            run.finish(gubin::FIELDS)
        }
    }
}

/// Which [`Stats`] fields an engine reports.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fields {
    steps: bool,
    calls: bool,
    depth: bool,
    guesses: bool,
}

impl Fields {
    const NONE: Fields = Fields {
        steps: false,
        calls: false,
        depth: false,
        guesses: false,
    };
    const ALL: Fields = Fields {
        steps: true,
        calls: true,
        depth: true,
        guesses: true,
    };
}

/// The bookkeeping every seed engine shares: counters, limits, hooks.
pub(crate) struct Run<'h> {
    hooks: Hooks<'h>,
    limit: u64,
    budget: Budget,
    stopped: Option<Stop>,
    solutions: u64,
    steps: u64,
    calls: u64,
    max_depth: u32,
    guesses: u64,
    first_solution: Option<(u64, u32)>,
    /// Fields reported in per-solution statistics.
    fields: Fields,
}

impl<'h> Run<'h> {
    fn new(limits: &Limits, hooks: Hooks<'h>) -> Run<'h> {
        Run {
            hooks,
            limit: limits.solutions,
            budget: Budget::new(limits),
            stopped: None,
            solutions: 0,
            steps: 0,
            calls: 0,
            max_depth: 0,
            guesses: 0,
            first_solution: None,
            fields: Fields::ALL,
        }
    }

    /// Whether the search must stop (a limit was reached).
    #[inline]
    pub(crate) fn stopped(&self) -> bool {
        self.stopped.is_some()
    }

    /// Counts a call of the recursive function at `depth`; false when a node or time
    /// limit stops the search.
    pub(crate) fn call(&mut self, depth: u32) -> bool {
        self.calls += 1;
        self.max_depth = self.max_depth.max(depth);
        if !self.budget.node() {
            self.stopped = self.budget.stopped();
            return false;
        }
        true
    }

    /// Records a step (counted in `steps` when it places a value).
    pub(crate) fn step(&mut self, cell: Cell, value: u8, reason: Reason, depth: u32) {
        match reason {
            Reason::Singleton | Reason::HiddenSingle => self.steps += 1,
            Reason::Guess => {
                self.steps += 1;
                self.guesses += 1;
            }
            Reason::Given | Reason::DeadEnd | Reason::Backtrack => {}
        }
        if let Some(on_step) = self.hooks.on_step.as_mut() {
            on_step(&Step {
                cell,
                value,
                reason,
                depth,
                steps: self.steps,
            });
        }
    }

    /// Reports a solution found at `depth`; false when the search must stop.
    pub(crate) fn solution(&mut self, cells: &[u8], depth: u32) -> bool {
        self.solutions += 1;
        self.first_solution.get_or_insert((self.calls, depth));
        let stats = self.stats(self.fields);
        if !(self.hooks.on_solution)(cells, &stats) || self.solutions >= self.limit {
            self.stopped = Some(Stop::SolutionLimit);
            return false;
        }
        true
    }

    fn stats(&self, f: Fields) -> Stats {
        Stats {
            steps: f.steps.then_some(self.steps),
            calls: f.calls.then_some(self.calls),
            max_depth: f.depth.then_some(self.max_depth),
            guesses: f.guesses.then_some(self.guesses),
            first_solution_call: self.first_solution.filter(|_| f.calls).map(|s| s.0),
            first_solution_depth: self.first_solution.filter(|_| f.depth).map(|s| s.1),
        }
    }

    fn finish(self, fields: Fields) -> Outcome {
        Outcome {
            report: Report {
                solutions: self.solutions,
                guesses: self.guesses,
                stop: self.stopped.unwrap_or(Stop::Exhausted),
            },
            stats: self.stats(fields),
        }
    }
}

/// Column-major order of the cells of an `n x n` grid (MATLAB's `X(:)`), as row-major
/// indices.
pub(crate) fn column_major(n: usize) -> impl Iterator<Item = Cell> {
    (0..n).flat_map(move |c| (0..n).map(move |r| r * n + c))
}

#[cfg(test)]
mod tests;
